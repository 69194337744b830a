//! The logs agent builders hold, read into turns: plain lines, chat messages as OpenAI's Chat
//! Completions and Anthropic's Messages APIs write them, and the session files of Claude Code
//! and the Codex CLI, one JSON event a line. [`import_conversation`] tells them apart and says
//! which it read.
//!
//! Every reader is the core's, the same natively and in the browser ([`crate::json`] reads the
//! JSON). A bad line or field stops the import with its place named; nothing is half-imported.

use crate::compaction::import::{import_lines, import_named, ChatMessage, Content, Usage};
use crate::compaction::script::TurnSpec;
use crate::compaction::tokens::given_count;
use crate::error::Error;
use crate::json::{self, Json};
use crate::limits::{check_len, MAX_IMPORT_BYTES, MAX_LOG_LINES};
use crate::prelude::*;
use crate::text::lines;

/// The kinds of log [`import_conversation`] reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `Speaker: text` lines ([`import_lines`]).
    Lines,
    /// A JSON array of `{ role, content }` messages whose content is text alone, which OpenAI's
    /// and Anthropic's APIs both write.
    ChatMessages,
    /// OpenAI Chat Completions messages: an assistant's `tool_calls` (their `function.name`
    /// and `function.arguments`, or a custom tool's `custom.name` and `custom.input`) and
    /// `role: "tool"` results; the older `function_call` and `role: "function"` too.
    OpenAiChat,
    /// Anthropic Messages: `content` blocks of `text`, `tool_use` and `tool_result`.
    AnthropicMessages,
    /// A Claude Code session file (`~/.claude/projects/…/<session>.jsonl`): one event a line,
    /// `{ type: "user" | "assistant", message, … }`, the message as Anthropic's API has it.
    ClaudeCode,
    /// A Codex CLI session file (`~/.codex/sessions/…/rollout-….jsonl`): one
    /// `{ timestamp, type, payload }` a line (codex-rs/protocol, `RolloutLine`); older files
    /// have the response items bare, one a line.
    Codex,
}

crate::names::named!(Format, "format", {
    Lines => "lines",
    ChatMessages => "chat-messages",
    OpenAiChat => "openai-chat",
    AnthropicMessages => "anthropic-messages",
    ClaudeCode => "claude-code",
    Codex => "codex",
});

impl Format {
    /// The format in words, for a person: `a Claude Code session (JSONL)`.
    pub fn title(self) -> &'static str {
        match self {
            Format::Lines => "plain lines",
            Format::ChatMessages => "chat messages (OpenAI or Anthropic)",
            Format::OpenAiChat => "OpenAI Chat Completions messages",
            Format::AnthropicMessages => "Anthropic Messages",
            Format::ClaudeCode => "a Claude Code session (JSONL)",
            Format::Codex => "a Codex CLI session (JSONL)",
        }
    }
}

/// A conversation read by [`import_conversation`]: its turns, the format they were read from,
/// and how many of the log's lines or messages became no turn (a Claude Code file snapshot, a
/// Codex token count, a subagent's message, an assistant's bare reasoning).
#[derive(Clone, Debug, PartialEq)]
pub struct Imported {
    /// The format read.
    pub format: Format,
    /// The turns, each kind inferred by [`KIND_RULE`](crate::KIND_RULE).
    pub turns: Vec<TurnSpec>,
    /// The events of a session log that are no part of the conversation and were passed over.
    pub skipped: usize,
}

/// Reads a conversation in any [`Format`], telling them apart by their shape:
///
/// - text that starts with `[{` or `{` is JSON: an array of chat messages, or an object holding
///   them as `messages` (a chat API request, whose `system` prompt is a turn too), read as
///   OpenAI's or Anthropic's by the fields they use; or one JSON object a line, read as Claude
///   Code's or Codex's by their fields (`message`, `payload`);
/// - anything else is `Speaker: text` lines.
///
/// A message's token count goes with its turn (see [`ChatMessage`]); in a Codex session, the
/// `output_tokens` of each `token_count` event go with the assistant's turn before it.
///
/// ```
/// use agent_memory_widgets::{import_conversation, Format};
///
/// # fn main() -> Result<(), agent_memory_widgets::Error> {
/// let log = r#"[
///   {"role": "user", "content": "Where is ORD-7?"},
///   {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "find", "input": {"id": "ORD-7"}}]},
///   {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "shipped on day 3"}]}
/// ]"#;
/// let read = import_conversation(log)?;
/// assert_eq!(read.format, Format::AnthropicMessages);
/// let kinds: Vec<_> = read.turns.iter().map(|turn| turn.kind.as_deref().unwrap()).collect();
/// assert_eq!(kinds, ["question", "decision", "tool"]);
/// assert_eq!(
///     import_conversation("{\"type\": \"summary\"}\n{\"type\": \"user\", \"message\": 7}").unwrap_err().message(),
///     "line 2: message: must be an object with a role and content, got a number"
/// );
/// # Ok(())
/// # }
/// ```
///
/// # Errors
///
/// An [`ErrorKind::InvalidOption`](crate::ErrorKind) naming `conversation` with the line and
/// field where the text stops being its format (`line 3: message.content: …`,
/// `messages[2].role: …`, or where JSON is broken: `line 4, column 9: …`), and
/// [`ErrorKind::OverLimit`](crate::ErrorKind) past [`MAX_IMPORT_BYTES`](crate::limits::MAX_IMPORT_BYTES),
/// [`MAX_LOG_LINES`](crate::limits::MAX_LOG_LINES),
/// [`MAX_TURNS`](crate::limits::MAX_TURNS) turns or
/// [`MAX_TOTAL_TEXT_CHARS`](crate::limits::MAX_TOTAL_TEXT_CHARS) characters.
pub fn import_conversation(text: &str) -> Result<Imported, Error> {
    if text.len() > MAX_IMPORT_BYTES {
        return Err(crate::compaction::too_big());
    }
    // A byte order mark, as Windows editors save one, is not part of the text.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let start = text.trim_start();
    let after = start.get(1..).unwrap_or("").trim_start();
    let is_json =
        start.starts_with('{') || (start.starts_with('[') && after.starts_with(['{', ']']));
    if !is_json {
        return Ok(Imported {
            format: Format::Lines,
            turns: import_lines(text)?,
            skipped: 0,
        });
    }
    let (first, end) = json::parse_prefix(text).map_err(|error| syntax(text, error))?;
    let rest = text.get(end..).unwrap_or_default().trim_start();
    if matches!(first, Json::Object(_)) && first.get("messages").is_none() {
        // One object a line is a session log; one object over several lines, with no
        // `messages`, is no format this reads.
        if !rest.is_empty() || !text.trim().bytes().any(|byte| byte == b'\n') {
            return read_log(text);
        }
        return Err(bad(
            "conversation: a JSON object holds its conversation as \"messages\" (a chat API \
             request); this one has none"
                .into(),
        ));
    }
    if matches!(first, Json::Object(_)) && rest.starts_with('{') {
        return read_log(text);
    }
    if !rest.is_empty() {
        let at = text.len() - rest.len();
        return Err(syntax(
            text,
            json::SyntaxError {
                at,
                what: "more text after the JSON value",
            },
        ));
    }
    read_request(first)
}

/// A conversation error, its message as given.
fn bad(message: String) -> Error {
    Error::invalid("conversation", message)
}

/// Where the JSON is broken, as `line L, column C: …`.
fn syntax(text: &str, error: json::SyntaxError) -> Error {
    let (line, column) = json::line_and_column(text, error.at);
    bad(text!(
        "line ",
        line,
        ", column ",
        column,
        ": this is not JSON: it has ",
        error.what
    ))
}

/// `place.field: must be …, got a number`.
fn wrong(place: &str, field: &str, must: &str, got: &Json) -> Error {
    bad(text!(
        place,
        ".",
        field,
        ": must be ",
        must,
        ", got ",
        got.type_name()
    ))
}

/// A chat API's messages: an array, or a request object holding one as `messages` (and maybe
/// a `system` prompt).
fn read_request(value: Json) -> Result<Imported, Error> {
    let mut seen = Seen::default();
    let mut messages = Vec::new();
    let list = match value {
        Json::Array(list) => list,
        Json::Object(mut fields) => {
            let system = fields
                .iter()
                .position(|(key, _)| key == "system")
                .map(|at| fields.swap_remove(at).1);
            if let Some(system) = system {
                // A system prompt beside the messages is Anthropic's (OpenAI's is a message).
                seen.anthropic = true;
                let content = content("system", &system, &mut seen)?;
                messages.push(ChatMessage {
                    role: "system".into(),
                    content,
                    ..ChatMessage::default()
                });
            }
            match fields.into_iter().find(|(key, _)| key == "messages") {
                Some((_, Json::Array(list))) => list,
                Some((_, other)) => {
                    return Err(wrong(
                        "request",
                        "messages",
                        "an array of chat messages",
                        &other,
                    ))
                }
                None => Vec::new(),
            }
        }
        other => {
            return Err(wrong(
                "conversation",
                "value",
                "an array of chat messages",
                &other,
            ))
        }
    };
    check_len(
        "messages",
        list.len(),
        4 * crate::limits::MAX_TURNS,
        "MAX_TURNS",
    )?;
    let offset = messages.len();
    for (index, message) in list.iter().enumerate() {
        messages.push(chat_message(
            &text!("messages[", index, "]"),
            message,
            &mut seen,
        )?);
    }
    let turns = import_named(messages, &|index| {
        if index < offset {
            "system".into()
        } else {
            text!("messages[", index - offset, "]")
        }
    })?;
    Ok(Imported {
        format: seen.format(),
        turns,
        skipped: 0,
    })
}

/// Which API's fields a list of messages used.
#[derive(Default)]
struct Seen {
    openai: bool,
    anthropic: bool,
}

impl Seen {
    fn format(&self) -> Format {
        match (self.openai, self.anthropic) {
            (true, false) => Format::OpenAiChat,
            (false, true) => Format::AnthropicMessages,
            _ => Format::ChatMessages,
        }
    }
}

/// One chat message at `place`: `{ role, content, tool_calls?, tokens?, usage? }`.
fn chat_message(place: &str, value: &Json, seen: &mut Seen) -> Result<ChatMessage, Error> {
    let must = "an object with a role and content";
    if !matches!(value, Json::Object(_)) {
        return Err(bad(text!(
            place,
            ": must be ",
            must,
            ", got ",
            value.type_name()
        )));
    }
    let role = match value.get("role") {
        Some(Json::String(role)) => role.clone(),
        Some(other) => return Err(wrong(place, "role", "a string", other)),
        None => {
            return Err(bad(text!(
                place,
                ".role: missing; a chat message is ",
                must
            )))
        }
    };
    // `function`: a function's result, as OpenAI's API wrote one before `tool`.
    seen.openai |= role == "tool" || role == "function";
    let role = if role == "function" {
        "tool".into()
    } else {
        role
    };
    let mut message = ChatMessage {
        content: match value.get("content") {
            Some(content_value) => content(&text!(place, ".content"), content_value, seen)?,
            None => Vec::new(),
        },
        role,
        tokens: number(place, "tokens", value.get("tokens"))?,
        usage: usage(place, value.get("usage"))?,
    };
    // What an OpenAI assistant said in place of `content`: a refusal, or a spoken reply's words.
    let refusal = value.get("refusal");
    let transcript = value.get("audio").and_then(|audio| audio.get("transcript"));
    for said in [refusal, transcript].into_iter().flatten() {
        if let Json::String(said) = said {
            seen.openai = true;
            message.content.push(Content::Text(said.clone()));
        }
    }
    match value.get("tool_calls") {
        Some(Json::Array(calls)) => {
            seen.openai = true;
            for (index, call) in calls.iter().enumerate() {
                let at = text!(place, ".tool_calls[", index, "]");
                // A function's call, or a custom tool's (`type: "custom"`, its text as `input`).
                let (field, function) = match (call.get("function"), call.get("custom")) {
                    (Some(function), _) => ("function", function),
                    (None, Some(custom)) => ("custom", custom),
                    (None, None) => ("function", call),
                };
                message
                    .content
                    .push(tool_call(&text!(at, ".", field), function)?);
            }
        }
        Some(other) if !other.is_null() => {
            return Err(wrong(place, "tool_calls", "an array", other))
        }
        _ => {}
    }
    // The one call of OpenAI's API before `tool_calls`.
    match value.get("function_call") {
        Some(call @ Json::Object(_)) => {
            seen.openai = true;
            message
                .content
                .push(tool_call(&text!(place, ".function_call"), call)?);
        }
        Some(other) if !other.is_null() => {
            return Err(wrong(place, "function_call", "an object", other))
        }
        _ => {}
    }
    Ok(message)
}

/// A tool call at `place`: `{ name, arguments }` (a function's, its arguments as JSON text or a
/// value) or `{ name, input }` (a custom tool's text).
fn tool_call(place: &str, call: &Json) -> Result<Content, Error> {
    let name = string(place, "name", call.get("name"))?;
    let input = match call.get("arguments").or_else(|| call.get("input")) {
        Some(Json::String(input)) => input.clone(),
        Some(other) if !other.is_null() => compact(other),
        _ => String::new(),
    };
    Ok(Content::ToolCall { name, input })
}

/// A message's `content` at `place`: a string, or a list of blocks (`text`, `tool_use`,
/// `tool_result`; others, such as an image or the model's thinking, hold no text to count).
fn content(place: &str, value: &Json, seen: &mut Seen) -> Result<Vec<Content>, Error> {
    let blocks = match value {
        Json::String(text) => return Ok(vec![Content::Text(text.clone())]),
        Json::Null => return Ok(Vec::new()), // an assistant's bare tool call (OpenAI)
        Json::Array(blocks) => blocks,
        other => {
            return Err(bad(text!(
                place,
                ": must be a string or a list of content blocks, got ",
                other.type_name()
            )))
        }
    };
    let mut out = Vec::new();
    for (index, block) in blocks.iter().enumerate() {
        let at = text!(place, "[", index, "]");
        let kind = match block.get("type") {
            Some(Json::String(kind)) => kind.as_str(),
            _ => return Err(bad(text!(at, ".type: missing; a content block has a type"))),
        };
        match kind {
            "text" | "input_text" | "output_text" => {
                out.push(Content::Text(string(&at, "text", block.get("text"))?));
            }
            // A model's refusal, in the place of its answer (OpenAI).
            "refusal" => {
                seen.openai = true;
                out.push(Content::Text(string(&at, "refusal", block.get("refusal"))?));
            }
            // A client tool's call, and a server tool's or an MCP server's (Anthropic).
            "tool_use" | "server_tool_use" | "mcp_tool_use" => {
                seen.anthropic = true;
                let name = string(&at, "name", block.get("name"))?;
                let input = block.get("input").map(compact).unwrap_or_default();
                out.push(Content::ToolCall { name, input });
            }
            // Their results: `tool_result`, `mcp_tool_result`, `web_search_tool_result`, ...
            _ if kind.ends_with("tool_result") => {
                seen.anthropic = true;
                let said = match block.get("content") {
                    None | Some(Json::Null) => String::new(),
                    Some(inner) => texts(&text!(at, ".content"), inner)?,
                };
                out.push(Content::ToolResult(said));
            }
            _ => {} // an image, a document, the model's thinking: no text to count
        }
    }
    Ok(out)
}

/// The text of a tool's output: a string, or the `text` of a list of blocks, joined by spaces.
fn texts(place: &str, value: &Json) -> Result<String, Error> {
    match value {
        Json::String(text) => Ok(text.clone()),
        Json::Array(blocks) => {
            let mut out = String::new();
            blocks_text(blocks, &mut out);
            Ok(out)
        }
        other => Err(bad(text!(
            place,
            ": must be a string or a list of text blocks, got ",
            other.type_name()
        ))),
    }
}

/// Appends the text of content blocks to `out`, one space between: a block's `text`; else, for
/// a search result, its `title` and `url` (or `source`) and the text of its own `content`
/// blocks. Other blocks (an image) hold no text.
fn blocks_text(blocks: &[Json], out: &mut String) {
    let mut push = |part: &str| {
        if !out.is_empty() && !part.is_empty() {
            out.push(' ');
        }
        out.push_str(part);
    };
    for block in blocks {
        if let Some(Json::String(text)) = block.get("text") {
            push(text);
            continue;
        }
        for field in ["title", "url", "source"] {
            if let Some(Json::String(part)) = block.get(field) {
                push(part);
            }
        }
        if let Some(Json::Array(inner)) = block.get("content") {
            let mut nested = String::new();
            blocks_text(inner, &mut nested);
            push(&nested);
        }
    }
}

/// `place.field` as a string, which it must be.
fn string(place: &str, field: &str, value: Option<&Json>) -> Result<String, Error> {
    match value {
        Some(Json::String(text)) => Ok(text.clone()),
        Some(other) => Err(wrong(place, field, "a string", other)),
        None => Err(bad(text!(place, ".", field, ": missing"))),
    }
}

/// `place.field` as a number, if it is there.
fn number(place: &str, field: &str, value: Option<&Json>) -> Result<Option<f64>, Error> {
    match value {
        Some(Json::Number(number)) => Ok(Some(*number)),
        None | Some(Json::Null) => Ok(None),
        Some(other) => Err(wrong(place, field, "a number", other)),
    }
}

/// A message's `usage`, if it has one: the counts of what the model wrote.
fn usage(place: &str, value: Option<&Json>) -> Result<Usage, Error> {
    match value {
        None | Some(Json::Null) => Ok(Usage::default()),
        Some(usage @ Json::Object(_)) => Ok(Usage {
            output_tokens: number(place, "usage.output_tokens", usage.get("output_tokens"))?,
            completion_tokens: number(
                place,
                "usage.completion_tokens",
                usage.get("completion_tokens"),
            )?,
        }),
        Some(other) => Err(wrong(place, "usage", "an object of token counts", other)),
    }
}

/// A JSON value as compact text.
fn compact(value: &Json) -> String {
    let mut out = String::new();
    value.to_text(&mut out);
    out
}

/// A session log, one JSON object a line: Claude Code's or Codex's, told apart by the first
/// line that is clearly one (`payload` is Codex's; a `user` or `assistant` event with a
/// `message` is Claude Code's). A last line cut short (a log copied while it is still being
/// written) is left out, and counted as skipped.
fn read_log(text: &str) -> Result<Imported, Error> {
    let mut events = Vec::new();
    // The last line, if it is cut short: a log copied while it is still being written.
    let mut cut = 0;
    let last = ended(text);
    for (index, line) in lines(text).enumerate() {
        check_len(
            "conversation lines",
            index + 1,
            MAX_LOG_LINES,
            "MAX_LOG_LINES",
        )?;
        if line.trim().is_empty() {
            continue;
        }
        // Where the line ends in `text`: it is a part of it.
        let end = (line.as_ptr() as usize - text.as_ptr() as usize) + line.len();
        let value = match json::parse(line) {
            Ok(value) => value,
            // Cut short: the JSON stops with the text, on the last line, after whole lines.
            Err(error) if end >= last && index > 0 && error.at >= ended(line) => {
                cut = 1;
                break;
            }
            Err(error) => {
                let (_, column) = json::line_and_column(line, error.at);
                return Err(bad(text!(
                    "line ",
                    index + 1,
                    ", column ",
                    column,
                    ": this is not JSON: it has ",
                    error.what
                )));
            }
        };
        if !matches!(value, Json::Object(_)) {
            return Err(bad(text!(
                "line ",
                index + 1,
                ": must be a JSON object, got ",
                value.type_name()
            )));
        }
        events.push((index + 1, value));
    }
    let codex = events.iter().find_map(|(_, event)| {
        let kind = event.get("type").and_then(Json::as_str);
        let message = event.get("message").is_some();
        match kind {
            _ if event.get("payload").is_some() => Some(true),
            Some("user" | "assistant") if message => Some(false),
            // An older Codex file's bare response items: a message's blocks are Codex's own.
            Some("message") if codex_blocks(event) => Some(true),
            Some("function_call" | "function_call_output" | "custom_tool_call")
            | Some("custom_tool_call_output" | "local_shell_call") => Some(true),
            _ => None,
        }
    });
    let mut read = match codex {
        Some(true) => read_codex(events)?,
        Some(false) => read_claude_code(events)?,
        None if events.first().is_some_and(|(_, event)| event.get("role").is_some()) => {
            return Err(bad(
                "line 1: chat messages one a line, or one alone, are no format this reads: put \
                 them in a JSON array, [{\"role\": …}, {\"role\": …}]"
                    .into(),
            ))
        }
        None => {
            return Err(bad(
                "line 1: a session log needs a line of Claude Code's ({\"type\": \"user\", \"message\": …}) \
                 or of Codex's ({\"type\": \"response_item\", \"payload\": …})"
                    .into(),
            ))
        }
    };
    read.skipped += cut;
    Ok(read)
}

/// Where `text` ends but for the whitespace after it (JSON's, which is ASCII): `trim_end` on
/// bytes, without the searcher `str::trim_end` brings into the wasm.
fn ended(text: &str) -> usize {
    text.len()
        - text
            .bytes()
            .rev()
            .take_while(u8::is_ascii_whitespace)
            .count()
}

/// Whether a bare `message` item's content blocks are Codex's (`input_text`, `output_text`),
/// not Anthropic's (`text`): an older Codex file, not a log of API responses.
fn codex_blocks(item: &Json) -> bool {
    let Some(Json::Array(blocks)) = item.get("content") else {
        return false;
    };
    blocks.iter().any(|block| {
        matches!(
            block.get("type").and_then(Json::as_str),
            Some("input_text" | "output_text" | "input_image")
        )
    })
}

/// A session log's messages, each with the line it starts on: an error in one names that line.
#[derive(Default)]
struct LogMessages {
    messages: Vec<ChatMessage>,
    lines: Vec<usize>,
}

impl LogMessages {
    /// Adds `message`, read from line `line`.
    fn push(&mut self, message: ChatMessage, line: usize) {
        self.messages.push(message);
        self.lines.push(line);
    }

    /// The message read last, which a following line may add to.
    fn last_mut(&mut self) -> Option<&mut ChatMessage> {
        self.messages.last_mut()
    }

    /// The messages as turns ([`import_named`]); an error names `line N: field`.
    fn into_turns(self, field: &str) -> Result<Vec<TurnSpec>, Error> {
        let LogMessages { messages, lines } = self;
        import_named(messages, &|index| {
            text!("line ", lines.get(index).copied().unwrap_or(0), ": ", field)
        })
    }
}

/// Claude Code: `user` and `assistant` events carry a message as Anthropic's API has it; the
/// lines of one assistant reply (one content block each, the same `message.id`) are one
/// message, with the reply's last `usage`, whatever other events come between them. Other
/// events (`summary`, `system`, `progress`, `file-history-snapshot`), a subagent's messages
/// (`isSidechain: true`) and Claude Code's own notes (`isMeta: true`, an API error shown as a
/// reply, a slash command and its output) are passed over.
fn read_claude_code(events: Vec<(usize, Json)>) -> Result<Imported, Error> {
    let mut messages = LogMessages::default();
    let mut last_id: Option<String> = None;
    let mut skipped = 0;
    let mut seen = Seen::default();
    for (line, event) in events {
        let place = text!("line ", line);
        let kind = match event.get("type") {
            Some(Json::String(kind)) => kind.as_str(),
            Some(other) => {
                return Err(bad(text!(
                    place,
                    ": type: must be a string, got ",
                    other.type_name()
                )))
            }
            None => {
                return Err(bad(text!(
                    place,
                    ": type: missing; a Claude Code line has a type"
                )))
            }
        };
        let flag = |field: &str| matches!(event.get(field), Some(Json::Bool(true)));
        // Claude Code's own notes in the conversation: a caveat it adds (`isMeta`), an API
        // error it shows as a reply, a slash command and its output.
        let command = event
            .get("message")
            .and_then(|message| message.get("content"))
            .and_then(Json::as_str)
            .is_some_and(|text| {
                let text = text.trim_start();
                text.starts_with("<command-") || text.starts_with("<local-command-")
            });
        let note = flag("isMeta") || flag("isApiErrorMessage") || command;
        if !matches!(kind, "user" | "assistant") || flag("isSidechain") || note {
            // A line between two of one reply (a hook's progress, a snapshot) does not end it.
            skipped += 1;
            continue;
        }
        let Some(message) = event.get("message") else {
            return Err(bad(text!(
                place,
                ": message: missing; a ",
                kind,
                " line has a message"
            )));
        };
        if !matches!(message, Json::Object(_)) {
            return Err(bad(text!(
                place,
                ": message: must be an object with a role and content, got ",
                message.type_name()
            )));
        }
        let read = chat_message(&text!(place, ": message"), message, &mut seen)?;
        let id = message.get("id").and_then(Json::as_str).map(str::to_owned);
        let same_reply = kind == "assistant" && id.is_some() && id == last_id;
        last_id = if kind == "assistant" { id } else { None };
        match messages.last_mut() {
            Some(previous) if same_reply => {
                previous.content.extend(read.content);
                if read.usage != Usage::default() {
                    previous.usage = read.usage;
                }
            }
            _ => messages.push(read, line),
        }
    }
    let turns = messages.into_turns("message")?;
    Ok(Imported {
        format: Format::ClaudeCode,
        turns,
        skipped,
    })
}

/// Codex: `response_item` lines carry the conversation (`message`, `function_call`,
/// `function_call_output`, `custom_tool_call`, `custom_tool_call_output`, `local_shell_call`),
/// and a `compacted` line Codex's own summary, which it reads back as an assistant message;
/// the assistant's items in a row are one reply. A `token_count` event's
/// `info.last_token_usage.output_tokens` (in older files, its `output_tokens`) counts that
/// reply. The rest (`session_meta`,
/// `turn_context`, other events, reasoning) are passed over. Files from before Codex wrapped
/// items in `payload` have the items bare, one a line, and read the same.
fn read_codex(events: Vec<(usize, Json)>) -> Result<Imported, Error> {
    let mut messages = LogMessages::default();
    let mut skipped = 0;
    let mut seen = Seen::default();
    let mut replying = false; // the last message is the assistant's and may grow
    for (line, event) in events {
        let place = text!("line ", line);
        let (kind, payload) = match (
            event.get("type").and_then(Json::as_str),
            event.get("payload"),
        ) {
            (Some(kind), Some(payload)) => (kind, payload),
            (_, Some(_)) => {
                return Err(bad(text!(
                    place,
                    ": type: missing; a Codex line has a type"
                )))
            }
            (Some(_), None) => ("response_item", &event), // an older file's bare item
            (None, None) => {
                skipped += 1; // an older file's session header or state line
                continue;
            }
        };
        let at = text!(place, ": payload");
        let item = match kind {
            "response_item" => codex_item(&at, payload, &mut seen)?,
            "compacted" => Some(ChatMessage::new(
                "assistant",
                &string(&at, "message", payload.get("message"))?,
            )),
            "event_msg" if payload.get("type").and_then(Json::as_str) == Some("token_count") => {
                // Older Codex wrote the counts flat, without `info`.
                let (field, output) = match payload.get("info") {
                    Some(info) => (
                        "info.last_token_usage.output_tokens",
                        info.get("last_token_usage")
                            .and_then(|usage| usage.get("output_tokens")),
                    ),
                    None => ("output_tokens", payload.get("output_tokens")),
                };
                let count = match number(&at, field, output)? {
                    Some(count) => Some(f64::from(
                        given_count("conversation", &text!(at, ".", field), count)?.0,
                    )),
                    None => None,
                };
                match messages.last_mut() {
                    Some(reply) if replying && reply.tokens.is_none() && count.is_some() => {
                        reply.tokens = count;
                    }
                    _ => skipped += 1,
                }
                replying = false;
                continue;
            }
            _ => None,
        };
        let Some(item) = item else {
            skipped += 1;
            continue;
        };
        // The assistant's items in a row are one reply; Codex's summary is one of its own.
        let assistant = item.role == "assistant" && kind == "response_item";
        match messages.last_mut() {
            Some(reply) if assistant && replying => reply.content.extend(item.content),
            _ => messages.push(item, line),
        }
        replying = assistant;
    }
    let turns = messages.into_turns("payload")?;
    Ok(Imported {
        format: Format::Codex,
        turns,
        skipped,
    })
}

/// One Codex response item as a message, or `None` for one that holds no conversation
/// (reasoning, a web search, a ghost snapshot).
fn codex_item(place: &str, item: &Json, seen: &mut Seen) -> Result<Option<ChatMessage>, Error> {
    let kind = match item.get("type") {
        Some(Json::String(kind)) => kind.as_str(),
        _ => {
            return Err(bad(text!(
                place,
                ".type: missing; a response item has a type"
            )))
        }
    };
    let call = |name: String, input: String| ChatMessage {
        role: "assistant".into(),
        content: vec![Content::ToolCall { name, input }],
        ..ChatMessage::default()
    };
    let output = |value: Option<&Json>| -> Result<ChatMessage, Error> {
        let said = match value {
            Some(value) => texts(&text!(place, ".output"), value)?,
            None => return Err(bad(text!(place, ".output: missing"))),
        };
        Ok(ChatMessage {
            role: "tool".into(),
            content: vec![Content::ToolResult(said)],
            ..ChatMessage::default()
        })
    };
    Ok(Some(match kind {
        "message" => chat_message(place, item, seen)?,
        "function_call" => call(
            string(place, "name", item.get("name"))?,
            string(place, "arguments", item.get("arguments"))?,
        ),
        "custom_tool_call" => call(
            string(place, "name", item.get("name"))?,
            string(place, "input", item.get("input"))?,
        ),
        "local_shell_call" => call(
            "shell".into(),
            item.get("action").map(compact).unwrap_or_default(),
        ),
        "function_call_output" | "custom_tool_call_output" => output(item.get("output"))?,
        _ => return Ok(None),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(read: &Imported) -> Vec<(&str, &str)> {
        read.turns
            .iter()
            .map(|turn| {
                (
                    turn.speaker.as_deref().unwrap(),
                    turn.kind.as_deref().unwrap(),
                )
            })
            .collect()
    }

    #[test]
    fn plain_text_and_json_are_told_apart() {
        let lines = import_conversation("[10:32] Dana: hi\nagent: Your refund is $5.").unwrap();
        assert_eq!((lines.format, lines.turns.len()), (Format::Lines, 2));
        let plain = import_conversation(r#"[{"role": "user", "content": "Hi"}, {"role": "assistant", "content": [{"type": "text", "text": "Your refund is $5."}]}]"#).unwrap();
        assert_eq!(plain.format, Format::ChatMessages);
        assert_eq!(
            kinds(&plain),
            [("user", "chatter"), ("assistant", "decision")]
        );
    }

    #[test]
    fn openai_tool_calls_keep_their_arguments_and_tool_results_are_tool_turns() {
        let read = import_conversation(
            r#"{"model": "gpt-4o", "messages": [
              {"role": "developer", "content": "You help with refunds."},
              {"role": "user", "content": "Refund ORD-7?"},
              {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "refund", "arguments": "{\"order\":\"ORD-7\"}"}}], "usage": {"completion_tokens": 21}},
              {"role": "tool", "tool_call_id": "c1", "content": "refunded $40.00"}
            ]}"#,
        )
        .unwrap();
        assert_eq!(read.format, Format::OpenAiChat);
        assert_eq!(
            kinds(&read),
            [
                ("developer", "decision"),
                ("user", "question"),
                ("assistant", "decision"),
                ("tool", "tool")
            ]
        );
        assert_eq!(
            read.turns[2].text.as_deref(),
            Some(r#"refund({"order":"ORD-7"})"#)
        );
        assert_eq!(read.turns[2].tokens, Some(21.0));
    }

    #[test]
    fn openai_s_older_function_calls_and_custom_tool_calls_are_read_too() {
        let read = import_conversation(
            r#"[
              {"role": "user", "content": "Where is ORD-7?"},
              {"role": "assistant", "content": null, "function_call": {"name": "track", "arguments": "{\"order\":\"ORD-7\"}"}},
              {"role": "function", "name": "track", "content": "in Lisbon"},
              {"role": "assistant", "content": null, "tool_calls": [{"id": "c2", "type": "custom", "custom": {"name": "note", "input": "ORD-7 tracked"}}]}
            ]"#,
        )
        .unwrap();
        assert_eq!(read.format, Format::OpenAiChat);
        let texts: Vec<_> = read
            .turns
            .iter()
            .map(|turn| turn.text.as_deref().unwrap())
            .collect();
        assert_eq!(
            texts,
            [
                "Where is ORD-7?",
                r#"track({"order":"ORD-7"})"#,
                "in Lisbon",
                "note(ORD-7 tracked)"
            ]
        );
        assert_eq!(read.turns[2].kind.as_deref(), Some("tool"));
        let error = import_conversation(
            r#"[{"role": "assistant", "tool_calls": [{"type": "custom", "custom": {"input": "x"}}]}]"#,
        )
        .unwrap_err();
        assert_eq!(
            error.message(),
            "messages[0].tool_calls[0].custom.name: missing"
        );
    }

    #[test]
    fn an_anthropic_request_s_system_prompt_is_a_turn() {
        let read = import_conversation(
            r#"{"system": [{"type": "text", "text": "Refunds need a receipt."}], "messages": [{"role": "user", "content": "ok"}]}"#,
        )
        .unwrap();
        assert_eq!(kinds(&read), [("system", "decision"), ("user", "decision")]);
        // A system prompt beside the messages is Anthropic's (OpenAI's is a message).
        assert_eq!(read.format, Format::AnthropicMessages);
        let error = import_conversation(r#"{"system": 5, "messages": []}"#).unwrap_err();
        assert_eq!(
            error.message(),
            "system: must be a string or a list of content blocks, got a number"
        );
    }

    #[test]
    fn claude_code_joins_the_lines_of_one_reply_and_passes_over_the_rest() {
        let log = [
            r#"{"type":"file-history-snapshot","messageId":"a","snapshot":{}}"#,
            r#"{"type":"user","isSidechain":false,"message":{"role":"user","content":"Fix the test?"},"uuid":"u1"}"#,
            r#"{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"thinking","thinking":"hm"}],"usage":{"output_tokens":3}}}"#,
            r#"{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"cargo test"}}],"usage":{"output_tokens":40}}}"#,
            r#"{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"1 passed"}]}]}}"#,
            r#"{"type":"assistant","isSidechain":true,"message":{"id":"m9","role":"assistant","content":"sub"}}"#,
            "",
            r#"{"type":"summary","summary":"Tests","leafUuid":"u1"}"#,
        ]
        .join("\n");
        let read = import_conversation(&log).unwrap();
        assert_eq!(read.format, Format::ClaudeCode);
        assert_eq!(read.skipped, 3);
        assert_eq!(
            kinds(&read),
            [
                ("user", "question"),
                ("assistant", "decision"),
                ("tool", "tool")
            ]
        );
        assert_eq!(
            read.turns[1].text.as_deref(),
            Some(r#"Bash({"command":"cargo test"})"#)
        );
        assert_eq!(read.turns[1].tokens, Some(40.0));
    }

    #[test]
    fn codex_counts_a_reply_by_its_token_count_event() {
        let log = [
            r#"{"timestamp":"t","type":"session_meta","payload":{"id":"s","cli_version":"0.46.0"}}"#,
            r#"{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"List the files?"}]}}"#,
            r#"{"timestamp":"t","type":"response_item","payload":{"type":"reasoning","summary":[],"encrypted_content":"x"}}"#,
            r#"{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"ls\"]}","call_id":"c1"}}"#,
            r#"{"timestamp":"t","type":"event_msg","payload":{"type":"token_count","info":{"last_token_usage":{"input_tokens":900,"output_tokens":31}}}}"#,
            r#"{"timestamp":"t","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"Cargo.toml\nsrc"}}"#,
            r#"{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Two entries."}]}}"#,
            r#"{"timestamp":"t","type":"event_msg","payload":{"type":"agent_message","message":"Two entries."}}"#,
            r#"{"timestamp":"t","type":"compacted","payload":{"message":"The user listed files."}}"#,
        ]
        .join("\n");
        let read = import_conversation(&log).unwrap();
        assert_eq!(read.format, Format::Codex);
        assert_eq!(read.skipped, 3);
        assert_eq!(
            kinds(&read),
            [
                ("user", "question"),
                ("assistant", "decision"),
                ("tool", "tool"),
                ("assistant", "decision"),
                ("assistant", "decision")
            ]
        );
        assert_eq!(read.turns[1].tokens, Some(31.0));
        assert_eq!(
            read.turns[4].text.as_deref(),
            Some("The user listed files.")
        );
    }

    #[test]
    fn what_real_logs_hold_besides_text_and_tool_use_is_read_too() {
        // A byte order mark; Anthropic's server and MCP tools; a search result's nested text.
        let anthropic = import_conversation(
            "\u{feff}[{\"role\": \"user\", \"content\": \"Is 30 days legal?\"},
              {\"role\": \"assistant\", \"content\": [{\"type\": \"server_tool_use\", \"id\": \"s1\", \"name\": \"web_search\", \"input\": {\"query\": \"EU withdrawal\"}},
                {\"type\": \"web_search_tool_result\", \"tool_use_id\": \"s1\", \"content\": [{\"type\": \"web_search_result\", \"title\": \"Your Europe\", \"url\": \"https://europa.eu\", \"encrypted_content\": \"x\"}]},
                {\"type\": \"mcp_tool_use\", \"id\": \"m1\", \"name\": \"create_ticket\", \"server_name\": \"jira\", \"input\": {}},
                {\"type\": \"mcp_tool_result\", \"tool_use_id\": \"m1\", \"content\": [{\"type\": \"search_result\", \"source\": \"jira\", \"title\": \"LEGAL-42\", \"content\": [{\"type\": \"text\", \"text\": \"created\"}]}]}]}]",
        )
        .unwrap();
        assert_eq!(anthropic.format, Format::AnthropicMessages);
        let texts = |read: &Imported| -> Vec<String> {
            read.turns
                .iter()
                .map(|turn| turn.text.clone().unwrap())
                .collect()
        };
        assert_eq!(
            texts(&anthropic),
            [
                "Is 30 days legal?",
                r#"web_search({"query":"EU withdrawal"})"#,
                "Your Europe https://europa.eu",
                "create_ticket({})",
                "LEGAL-42 jira created"
            ]
        );
        // OpenAI's refusals and spoken replies.
        let openai = import_conversation(
            r#"[{"role": "user", "content": "Fake a prescription."},
                {"role": "assistant", "content": null, "refusal": "I can't help with that."},
                {"role": "assistant", "content": [{"type": "refusal", "refusal": "Nor that."}]},
                {"role": "assistant", "content": null, "audio": {"id": "a1", "transcript": "Your pharmacy opens at nine."}}]"#,
        )
        .unwrap();
        assert_eq!(openai.format, Format::OpenAiChat);
        assert_eq!(
            &texts(&openai)[1..],
            [
                "I can't help with that.",
                "Nor that.",
                "Your pharmacy opens at nine."
            ]
        );
    }

    #[test]
    fn claude_code_s_own_notes_are_passed_over_and_a_reply_stays_whole_across_them() {
        let log = [
            r#"{"type":"user","isMeta":true,"message":{"role":"user","content":"Caveat: the messages below were generated by the user while running local commands."}}"#,
            r#"{"type":"user","message":{"role":"user","content":"<command-name>/model</command-name>"}}"#,
            r#"{"type":"user","message":{"role":"user","content":"Fix the build."}}"#,
            r#"{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"Reading it."}],"usage":{"output_tokens":120}}}"#,
            r#"{"type":"progress","data":{"type":"hook_progress"}}"#,
            r#"{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{}}],"usage":{"output_tokens":120}}}"#,
            r#"{"type":"assistant","isApiErrorMessage":true,"message":{"id":"e1","role":"assistant","content":[{"type":"text","text":"API Error: overloaded"}],"usage":{"output_tokens":0}}}"#,
            r#"{"type":"assistant","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"Fixed."}],"usage":{"output_tokens":5}}}"#,
            r#"{"type":"assistant","message":{"id":"m3","role":"assistant","content":[{"type":"text","text":"And th"#,
        ]
        .join("\n");
        let read = import_conversation(&log).unwrap();
        assert_eq!((read.format, read.skipped), (Format::ClaudeCode, 5));
        let turns: Vec<_> = read
            .turns
            .iter()
            .map(|turn| (turn.text.as_deref().unwrap(), turn.tokens))
            .collect();
        assert_eq!(
            turns,
            [
                ("Fix the build.", None),
                ("Reading it. Read({})", Some(120.0)),
                ("Fixed.", Some(5.0))
            ]
        );
        // Broken JSON anywhere but at the end of the last line is an error still.
        let broken = log.replacen("\"type\":\"progress\"", "\"type\":progress", 1);
        assert!(import_conversation(&broken)
            .unwrap_err()
            .message()
            .starts_with("line 5, column 9: this is not JSON"));
    }

    #[test]
    fn what_is_one_object_or_one_message_a_line_says_what_to_do() {
        let pretty = "{\n  \"id\": \"chatcmpl-1\",\n  \"choices\": []\n}";
        assert_eq!(
            import_conversation(pretty).unwrap_err().message(),
            "conversation: a JSON object holds its conversation as \"messages\" (a chat API request); this one has none"
        );
        let lines = "{\"role\": \"user\", \"content\": \"Hi\"}\n{\"role\": \"assistant\", \"content\": \"Hello\"}";
        assert!(import_conversation(lines)
            .unwrap_err()
            .message()
            .starts_with(
                "line 1: chat messages one a line, or one alone, are no format this reads"
            ));
        // Anthropic API responses, one a line, are not an older Codex file.
        let responses = "{\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"First.\"}]}";
        assert!(import_conversation(responses).is_err());
    }

    #[test]
    fn an_older_codex_file_with_bare_items_is_codex_s() {
        let log = [
            r#"{"id":"s","timestamp":"t","instructions":null}"#,
            r#"{"type":"message","role":"user","content":[{"type":"input_text","text":"List the files?"}]}"#,
            r#"{"record_type":"state"}"#,
            r#"{"type":"function_call","name":"shell","arguments":"{\"command\":[\"ls\"]}","call_id":"c1"}"#,
            r#"{"type":"function_call_output","call_id":"c1","output":"Cargo.toml"}"#,
            r#"{"type":"message","role":"assistant","content":[{"type":"output_text","text":"One file."}]}"#,
            r#"{"timestamp":"t","type":"event_msg","payload":{"type":"token_count","input_tokens":900,"output_tokens":7}}"#,
        ]
        .join("\n");
        let read = import_conversation(&log).unwrap();
        assert_eq!((read.format, read.skipped), (Format::Codex, 2));
        assert_eq!(
            kinds(&read),
            [
                ("user", "question"),
                ("assistant", "decision"),
                ("tool", "tool"),
                ("assistant", "decision")
            ]
        );
        assert_eq!(read.turns[3].tokens, Some(7.0));
    }

    #[test]
    fn each_error_names_its_line_and_field() {
        for (log, message) in [
            (
                "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"a\"}}\n{\"type\": \n{}",
                "line 2, column 10: this is not JSON: it has the end of the text where a value should be",
            ),
            (
                "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"a\"}}\n[1]",
                "line 2: must be a JSON object, got an array",
            ),
            (
                "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"a\"}}\n{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"input\":{}}]}}",
                "line 2: message.content[0].name: missing",
            ),
            (
                "{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\",\"content\":\"a\",\"usage\":{\"output_tokens\":1.5}}}",
                "line 1: message.usage.output_tokens must be a whole number of tokens from 0 to 4294967295, got 1.5",
            ),
            (
                "{\"type\":\"response_item\",\"payload\":{\"type\":\"function_call\",\"name\":\"shell\"}}",
                "line 1: payload.arguments: missing",
            ),
            (
                "{\"type\":\"response_item\",\"payload\":{\"type\":\"message\",\"role\":\"robot\",\"content\":[]}}",
                "line 1: payload.role: unknown role \"robot\"; use user, assistant, tool, system or developer",
            ),
            (
                "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"a\"}}\n{\"message\":{}}",
                "line 2: type: missing; a Claude Code line has a type",
            ),
            (
                "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"a\"}}\n{\"type\":1}",
                "line 2: type: must be a string, got a number",
            ),
            (
                "{\"type\":\"compacted\",\"payload\":{\"message\":\"a\"}}\n{\"payload\":{}}",
                "line 2: type: missing; a Codex line has a type",
            ),
            ("{\"a\":1}\n{\"b\":2}", "line 1: a session log needs a line of Claude Code's ({\"type\": \"user\", \"message\": …}) or of Codex's ({\"type\": \"response_item\", \"payload\": …})"),
            ("[{\"role\":\"user\",\"content\":5}]", "messages[0].content: must be a string or a list of content blocks, got a number"),
            ("[{\"content\":\"hi\"}]", "messages[0].role: missing; a chat message is an object with a role and content"),
            ("[{\"role\":\"user\",\"content\":\"hi\"}] x", "line 1, column 34: this is not JSON: it has more text after the JSON value"),
            ("[\n{\"role\":\"user\",\n\"content\":\"hi\"", "line 3, column 15: this is not JSON: it has a missing comma or } in an object"),
        ] {
            assert_eq!(import_conversation(log).unwrap_err().message(), message, "{log}");
        }
    }

    #[test]
    fn a_log_stays_within_its_limits() {
        let line = "{\"type\":\"summary\"}\n";
        let many = line.repeat(MAX_LOG_LINES + 1);
        assert_eq!(
            import_conversation(&many).unwrap_err().message(),
            format!(
                "conversation lines must have at most {MAX_LOG_LINES} items, got {}",
                MAX_LOG_LINES + 1
            )
        );
        let huge = format!(
            "[{{\"role\":\"user\",\"content\":\"{}\"}}]",
            "a".repeat(MAX_IMPORT_BYTES)
        );
        assert_eq!(
            import_conversation(&huge).unwrap_err().message(),
            "conversation: must have at most 4000000 bytes of text"
        );
    }
}
