//! What an import gives ([`Imported`], its [`Format`], and what a session log reports besides
//! its turns), the field readers every JSON format shares, and a chat message's JSON: OpenAI's
//! Chat Completions and Anthropic's Messages, and the Codex CLI's items that reuse them.

use crate::compaction::import::turns::{unknown_role, ChatMessage, Content, Usage, ROLES};
use crate::compaction::script::TurnSpec;
use crate::error::Error;
use crate::json::{self, Json};
use crate::prelude::*;
use serde::Serialize;

/// The kinds of log [`import_conversation`](crate::import_conversation) reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// `Speaker: text` lines ([`import_lines`](crate::import_lines)).
    #[default]
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
    /// A Gemini CLI session file (`~/.gemini/tmp/<project>/chats/session-….jsonl`, or one
    /// `.json` object in older versions): `{ sessionId, projectHash, messages: [{ type: "user" |
    /// "gemini", content, toolCalls, tokens }] }`.
    GeminiCli,
}

crate::names::named!(Format, "format", {
    Lines => "lines",
    ChatMessages => "chat-messages",
    OpenAiChat => "openai-chat",
    AnthropicMessages => "anthropic-messages",
    ClaudeCode => "claude-code",
    Codex => "codex",
    GeminiCli => "gemini-cli",
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
            Format::GeminiCli => "a Gemini CLI session",
        }
    }
}

/// A conversation read by [`import_conversation`](crate::import_conversation): its turns, the
/// format they were read from, and what else a session log says about them: the compactions the
/// agent made itself, the tokens it really sent, its subagent's turns, and the lines that became no
/// turn.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Imported {
    /// The format read.
    pub format: Format,
    /// The turns, each kind inferred by [`KIND_RULE`](crate::KIND_RULE).
    pub turns: Vec<TurnSpec>,
    /// The records of a session log that are no part of the conversation and were passed over
    /// (a Claude Code file snapshot, a Codex token count, an assistant's bare reasoning), those
    /// on a rewound branch and a last line cut short included; not the broken lines.
    pub skipped: usize,
    /// The compactions the agent made, as its log records them (Claude Code, Codex), in order.
    pub compactions: Vec<LogCompaction>,
    /// The input tokens the model was really sent for each reply whose usage the log records.
    pub sent_tokens: Vec<SentTokens>,
    /// The first [`MAX_NAMED_BROKEN`](crate::MAX_NAMED_BROKEN) lines that could not be read,
    /// each named with why; the rest of the log was read.
    pub broken: Vec<BrokenLine>,
    /// How many lines could not be read, all of them.
    pub broken_lines: usize,
    /// How many messages of a Claude Code or Gemini CLI log were on a branch the user rewound,
    /// left out (and counted in `skipped`).
    pub rewound: usize,
    /// A subagent's turns written in the main log (Claude Code's `isSidechain` lines), kept
    /// apart from the conversation.
    pub subagent: Vec<TurnSpec>,
}

impl Imported {
    /// What was read, with no more than its format and turns.
    pub(super) fn of(format: Format, turns: Vec<TurnSpec>) -> Imported {
        Imported {
            format,
            turns,
            ..Imported::default()
        }
    }
}

/// A compaction the agent itself made, as its log records it: Claude Code's `compact_boundary`
/// record and the summary message after it, or Codex's `compacted` record.
///
/// ```
/// use agent_memory_widgets::import_conversation;
///
/// # fn main() -> Result<(), agent_memory_widgets::Error> {
/// let log = [
///     r#"{"type":"user","uuid":"u1","parentUuid":null,"message":{"role":"user","content":"Fix the build."}}"#,
///     r#"{"type":"system","subtype":"compact_boundary","uuid":"b1","parentUuid":null,"logicalParentUuid":"u1","compactMetadata":{"trigger":"auto","preTokens":155250}}"#,
///     r#"{"type":"user","uuid":"s1","parentUuid":"b1","isCompactSummary":true,"message":{"role":"user","content":"The user asked for a fixed build."}}"#,
///     r#"{"type":"user","uuid":"u2","parentUuid":"s1","message":{"role":"user","content":"Go on."}}"#,
/// ].join("\n");
/// let read = import_conversation(&log)?;
/// assert_eq!(read.turns.len(), 2); // the summary is not a turn
/// let compaction = &read.compactions[0];
/// assert_eq!((compaction.turn, compaction.trigger.as_str()), (1, "auto"));
/// assert_eq!((compaction.pre_tokens, compaction.post_tokens), (Some(155_250), None));
/// assert_eq!(compaction.summary, "The user asked for a fixed build.");
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LogCompaction {
    /// How many turns of the imported conversation came before it.
    pub turn: usize,
    /// What set it off, as the log says: `auto` or `manual` (Claude Code), `unknown` where the
    /// log does not say (Codex).
    pub trigger: String,
    /// The tokens in the context when it compacted: Claude Code's `preTokens`; for Codex, the
    /// last request's `total_tokens` before it.
    pub pre_tokens: Option<u32>,
    /// The tokens after it, where the log says (Claude Code's `postTokens`), else `None`.
    pub post_tokens: Option<u32>,
    /// The summary the agent wrote, whole (never cut); empty when the log holds none.
    pub summary: String,
}

/// How many input tokens the model was really sent at the request that produced a reply, from
/// the log's usage: Anthropic's `input_tokens` + `cache_creation_input_tokens` +
/// `cache_read_input_tokens` (Claude Code), `last_token_usage.input_tokens` (Codex), `tokens.input`
/// (Gemini CLI).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SentTokens {
    /// The turns read when the reply ended, the reply's own included: the reply's turn number
    /// (counting from 1) when it made a turn.
    pub turn: usize,
    /// The input tokens sent.
    pub tokens: u32,
}

/// A line of a session log that could not be read and was skipped: its number (from 1) and
/// why, as an error would say it (`line 7, column 12: this is not JSON: …`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BrokenLine {
    /// The line's number, from 1.
    pub line: usize,
    /// Why it was skipped.
    pub reason: String,
}

/// The most broken lines named one by one in an [`Imported`]; all are counted.
pub const MAX_NAMED_BROKEN: usize = 100;

/// A conversation error, its message as given.
pub(super) fn bad(message: String) -> Error {
    Error::invalid("conversation", message)
}

/// Where the JSON is broken, as `line L, column C: …`.
pub(super) fn syntax(text: &str, error: json::SyntaxError) -> Error {
    let (line, column) = json::line_and_column(text, error.at);
    bad(not_json(line, column, error.what))
}

/// `line L, column C: this is not JSON: it has …`, where `what` is what the JSON has there.
pub(super) fn not_json(line: usize, column: usize, what: &str) -> String {
    text!(
        "line ",
        line,
        ", column ",
        column,
        ": this is not JSON: it has ",
        what
    )
}

/// `place.field: must be …, got a number`.
pub(super) fn wrong(place: &str, field: &str, must: &str, got: &Json) -> Error {
    must_be(&text!(place, ".", field), must, got)
}

/// `place: must be …, got a number`.
pub(super) fn must_be(place: &str, must: &str, got: &Json) -> Error {
    bad(text!(place, ": must be ", must, ", got ", got.type_name()))
}

/// Which API's fields a list of messages used.
#[derive(Default)]
pub(super) struct Seen {
    pub(super) openai: bool,
    pub(super) anthropic: bool,
}

impl Seen {
    pub(super) fn format(&self) -> Format {
        match (self.openai, self.anthropic) {
            (true, false) => Format::OpenAiChat,
            (false, true) => Format::AnthropicMessages,
            _ => Format::ChatMessages,
        }
    }
}

/// One chat message at `place`: `{ role, content, tool_calls?, tool_call_id?, tokens?, usage? }`,
/// its content as parts (the message's own `content` left empty), each with its tool-call id: a
/// tool call's own (`tool_calls[i].id`, Anthropic's `tool_use.id`), a tool result's
/// (`tool_use_id`), and for the text of a `tool` message, the call it answers (`tool_call_id`).
pub(super) fn chat_message(
    place: &str,
    value: &Json,
    seen: &mut Seen,
) -> Result<(ChatMessage, Vec<Part>), Error> {
    let must = "an object with a role and content";
    if !matches!(value, Json::Object(_)) {
        return Err(must_be(place, must, value));
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
    let mut parts = match value.get("content") {
        Some(content_value) => content_parts(&text!(place, ".content"), content_value, seen)?,
        None => Vec::new(),
    };
    // A tool's message answers the call it names.
    if let Some(call) = value.get("tool_call_id").and_then(Json::as_str) {
        for part in &mut parts {
            part.id.get_or_insert_with(|| call.to_owned());
        }
    }
    let message = ChatMessage {
        content: Vec::new(),
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
            parts.push(Part {
                content: Content::Text(said.clone()),
                id: None,
            });
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
                parts.push(Part {
                    content: tool_call(&text!(at, ".", field), function)?,
                    id: call.get("id").and_then(Json::as_str).map(str::to_owned),
                });
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
            parts.push(Part {
                content: tool_call(&text!(place, ".function_call"), call)?,
                id: None,
            });
        }
        Some(other) if !other.is_null() => {
            return Err(wrong(place, "function_call", "an object", other))
        }
        _ => {}
    }
    Ok((message, parts))
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

/// One part of a message's content, with the id a tool call and its result share (Anthropic's
/// `tool_use.id` and `tool_result.tool_use_id`), where the block has one.
pub(super) struct Part {
    pub(super) content: Content,
    pub(super) id: Option<String>,
}

/// [`content`], each part with its tool-call id.
pub(super) fn content_parts(
    place: &str,
    value: &Json,
    seen: &mut Seen,
) -> Result<Vec<Part>, Error> {
    let part = |content: Content| Part { content, id: None };
    let blocks = match value {
        Json::String(text) => return Ok(vec![part(Content::Text(text.clone()))]),
        Json::Null => return Ok(Vec::new()), // an assistant's bare tool call (OpenAI)
        Json::Array(blocks) => blocks,
        other => {
            return Err(must_be(
                place,
                "a string or a list of content blocks",
                other,
            ))
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
                out.push(part(Content::Text(string(&at, "text", block.get("text"))?)));
            }
            // A model's refusal, in the place of its answer (OpenAI).
            "refusal" => {
                seen.openai = true;
                out.push(part(Content::Text(string(
                    &at,
                    "refusal",
                    block.get("refusal"),
                )?)));
            }
            // A client tool's call, and a server tool's or an MCP server's (Anthropic).
            "tool_use" | "server_tool_use" | "mcp_tool_use" => {
                seen.anthropic = true;
                let name = string(&at, "name", block.get("name"))?;
                let input = block.get("input").map(compact).unwrap_or_default();
                out.push(Part {
                    content: Content::ToolCall { name, input },
                    id: block.get("id").and_then(Json::as_str).map(str::to_owned),
                });
            }
            // Their results: `tool_result`, `mcp_tool_result`, `web_search_tool_result`, ...
            _ if kind.ends_with("tool_result") => {
                seen.anthropic = true;
                let said = match block.get("content") {
                    None | Some(Json::Null) => String::new(),
                    Some(inner) => texts(&text!(at, ".content"), inner)?,
                };
                out.push(Part {
                    content: Content::ToolResult(said),
                    id: block
                        .get("tool_use_id")
                        .and_then(Json::as_str)
                        .map(str::to_owned),
                });
            }
            _ => {} // an image, a document, the model's thinking: no text to count
        }
    }
    Ok(out)
}

/// The text of a tool's output: a string, or the `text` of a list of blocks, joined by spaces.
pub(super) fn texts(place: &str, value: &Json) -> Result<String, Error> {
    match value {
        Json::String(text) => Ok(text.clone()),
        Json::Array(blocks) => {
            let mut out = String::new();
            blocks_text(blocks, &mut out);
            Ok(out)
        }
        other => Err(must_be(place, "a string or a list of text blocks", other)),
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
pub(super) fn string(place: &str, field: &str, value: Option<&Json>) -> Result<String, Error> {
    match value {
        Some(Json::String(text)) => Ok(text.clone()),
        Some(other) => Err(wrong(place, field, "a string", other)),
        None => Err(bad(text!(place, ".", field, ": missing"))),
    }
}

/// `place.field` as a number, if it is there.
pub(super) fn number(place: &str, field: &str, value: Option<&Json>) -> Result<Option<f64>, Error> {
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
pub(super) fn compact(value: &Json) -> String {
    let mut out = String::new();
    value.to_text(&mut out);
    out
}

/// One Codex response item as a role and its parts, or `None` for one that holds no
/// conversation (reasoning, a web search, a ghost snapshot). A call and its output share their
/// `call_id`.
pub(super) fn codex_item(
    place: &str,
    item: &Json,
    seen: &mut Seen,
) -> Result<Option<(String, Vec<Part>)>, Error> {
    let kind = match item.get("type") {
        Some(Json::String(kind)) => kind.as_str(),
        _ => {
            return Err(bad(text!(
                place,
                ".type: missing; a response item has a type"
            )))
        }
    };
    let id = item
        .get("call_id")
        .and_then(Json::as_str)
        .map(str::to_owned);
    let call = |name: String, input: String| {
        let content = Content::ToolCall { name, input };
        Some((
            "assistant".into(),
            vec![Part {
                content,
                id: id.clone(),
            }],
        ))
    };
    Ok(match kind {
        "message" => {
            // Checks the role and fields as a chat message's.
            let (message, parts) = chat_message(place, item, seen)?;
            if !ROLES.contains(&message.role.as_str()) {
                return Err(unknown_role(place, &message.role));
            }
            Some((message.role, parts))
        }
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
        "function_call_output" | "custom_tool_call_output" => {
            let said = match item.get("output") {
                Some(value) => texts(&text!(place, ".output"), value)?,
                None => return Err(bad(text!(place, ".output: missing"))),
            };
            let content = Content::ToolResult(said);
            Some(("tool".into(), vec![Part { content, id }]))
        }
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import_conversation;
    use crate::limits::MAX_IMPORT_BYTES;

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

    /// Each turn of a chat array has its message's role and the tool-call id that pairs a call
    /// with its result, in OpenAI's shape and in Anthropic's, as the log readers give them.
    #[test]
    fn chat_arrays_give_each_turn_its_role_and_tool_call_id() {
        let roles = |text: &str| {
            let read = import_conversation(text).unwrap();
            read.turns
                .into_iter()
                .map(|turn| (turn.role.unwrap(), turn.tool_call_id))
                .collect::<Vec<_>>()
        };
        let id = |id: &str| Some(id.to_owned());
        assert_eq!(
            roles(
                r#"[{"role": "system", "content": "You help with refunds."},
                    {"role": "user", "content": "Refund ORD-7?"},
                    {"role": "assistant", "content": "Checking.", "tool_calls": [
                      {"id": "c1", "type": "function", "function": {"name": "refund", "arguments": "{}"}},
                      {"id": "c2", "type": "function", "function": {"name": "note", "arguments": "{}"}}]},
                    {"role": "tool", "tool_call_id": "c1", "content": "refunded $40.00"},
                    {"role": "tool", "tool_call_id": "c2", "content": "noted"},
                    {"role": "assistant", "content": "Done: $40.00."}]"#
            ),
            [
                ("system".into(), None),
                ("user".into(), None),
                ("assistant".into(), id("c1")),
                ("tool".into(), id("c1")),
                ("tool".into(), id("c2")),
                ("assistant".into(), None),
            ]
        );
        assert_eq!(
            roles(
                r#"{"system": "Refunds need a receipt.", "messages": [
                    {"role": "user", "content": "Where is ORD-7?"},
                    {"role": "assistant", "content": [{"type": "text", "text": "Looking."},
                      {"type": "tool_use", "id": "t1", "name": "track", "input": {"order": "ORD-7"}}]},
                    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "in Lisbon"},
                      {"type": "text", "text": "Thanks?"}]}]}"#
            ),
            [
                ("system".into(), None),
                ("user".into(), None),
                ("assistant".into(), id("t1")),
                ("tool".into(), id("t1")),
                ("user".into(), None),
            ]
        );
        // Plain lines have no roles of their own: the default rule gives them.
        let read = import_conversation("Dana: Hi\nagent: Hello").unwrap();
        assert!(read.turns.iter().all(|turn| turn.role.is_none()));
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
        // The snapshot and the summary; the subagent's line is kept apart.
        assert_eq!(read.skipped, 2);
        assert_eq!(read.subagent.len(), 1);
        assert_eq!(read.subagent[0].text.as_deref(), Some("sub"));
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
        // No line of the reply has a `stop_reason`: its counts are streaming placeholders, and
        // it thought, which the import does not carry. The session counts the text it has.
        assert_eq!(read.turns[1].tokens, None);
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
                ("assistant", "decision")
            ]
        );
        assert_eq!(read.turns[1].tokens, Some(31.0));
        assert_eq!(
            read.sent_tokens,
            [SentTokens {
                turn: 2,
                tokens: 900
            }]
        );
        // Codex's own summary is a compaction, not a turn.
        assert_eq!(
            read.compactions,
            [LogCompaction {
                turn: 4,
                trigger: "unknown".into(),
                pre_tokens: Some(931),
                post_tokens: None,
                summary: "The user listed files.".into()
            }]
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
            r#"{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{}}],"stop_reason":"tool_use","usage":{"output_tokens":120}}}"#,
            r#"{"type":"assistant","isApiErrorMessage":true,"message":{"id":"e1","role":"assistant","content":[{"type":"text","text":"API Error: overloaded"}],"usage":{"output_tokens":0}}}"#,
            r#"{"type":"assistant","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"Fixed."}],"stop_reason":"end_turn","usage":{"output_tokens":5}}}"#,
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
        // Broken JSON anywhere but at the end of the last line is named, and the rest reads.
        let broken = log.replacen("\"type\":\"progress\"", "\"type\":progress", 1);
        let read = import_conversation(&broken).unwrap();
        assert_eq!((read.turns.len(), read.broken_lines), (3, 1));
        assert_eq!(read.broken[0].line, 5);
        assert!(read.broken[0]
            .reason
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
            (
                "{\"sessionId\":\"s\",\"projectHash\":\"p\",\"messages\":[{\"type\":1}]}",
                "messages[0].type: must be a string, got a number",
            ),
            (
                "{\"sessionId\":\"s\",\"projectHash\":\"p\",\"messages\":[{}]}",
                "messages[0].type: missing; a Gemini CLI message has a type",
            ),
            ("{\"a\":1}\n{\"b\":2}", "line 1: a session log needs a line of Claude Code's ({\"type\": \"user\", \"message\": …}), of Codex's ({\"type\": \"response_item\", \"payload\": …}) or of the Gemini CLI's ({\"sessionId\": …, \"projectHash\": …})"),
            ("[{\"role\":\"user\",\"content\":5}]", "messages[0].content: must be a string or a list of content blocks, got a number"),
            ("[{\"content\":\"hi\"}]", "messages[0].role: missing; a chat message is an object with a role and content"),
            ("[{\"role\":\"user\",\"content\":\"hi\"}] x", "line 1, column 34: this is not JSON: it has more text after the JSON value"),
            ("[\n{\"role\":\"user\",\n\"content\":\"hi\"", "line 3, column 15: this is not JSON: it has a missing comma or } in an object"),
        ] {
            // A file that reads as no log is refused; in one that does, the line is named.
            let got = match import_conversation(log) {
                Ok(read) => read.broken[0].reason.clone(),
                Err(error) => error.message().to_owned(),
            };
            assert_eq!(got, message, "{log}");
        }
    }

    #[test]
    fn only_a_log_s_size_is_limited() {
        let line = "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n";
        assert_eq!(
            import_conversation(&line.repeat(50_000))
                .unwrap()
                .turns
                .len(),
            50_000
        );
        let huge = format!(
            "[{{\"role\":\"user\",\"content\":\"{}\"}}]",
            "a".repeat(MAX_IMPORT_BYTES)
        );
        assert_eq!(
            import_conversation(&huge).unwrap_err().message(),
            "conversation: must have at most 67108864 bytes of text"
        );
    }
}
