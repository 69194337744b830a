//! The logs agent builders hold, read into turns: plain lines, chat messages as OpenAI's Chat
//! Completions and Anthropic's Messages APIs write them, and the session files of Claude Code,
//! the Codex CLI and the Gemini CLI. [`import_conversation`], here, is the one entry point that
//! tells them apart and says which it read; [`import_messages`] takes chat messages as values.
//!
//! - `turns.rs`: plain `Speaker: text` lines, and the rules every reader shares (each turn's
//!   kind by [`KIND_RULE`], its text cut to its limit);
//! - `formats.rs`: what an import gives ([`Imported`]), the field readers every JSON format
//!   shares, and a chat message's JSON;
//! - `logs.rs`: the session logs, one JSON event a line, read line by line into turns.
//!
//! Every reader is the core's, the same natively and in the browser ([`crate::json`] reads the
//! JSON). A bad line or field stops the import with its place named; nothing is half-imported.

mod formats;
mod logs;
mod turns;

pub use formats::{BrokenLine, Format, Imported, LogCompaction, SentTokens, MAX_NAMED_BROKEN};
pub(crate) use turns::too_big;
pub use turns::{import_lines, infer_kind, ChatMessage, Content, Usage, KIND_RULE};

use crate::compaction::import::formats::{
    bad, chat_message, content_parts, syntax, wrong, Part, Seen,
};
use crate::compaction::import::logs::{Builder, LogKind};
use crate::compaction::import::turns::{check_size, message_tokens, no_text, unknown_role, ROLES};
use crate::compaction::script::TurnSpec;
use crate::error::Error;
use crate::json::{self, Json};
use crate::limits::MAX_IMPORT_BYTES;
use crate::prelude::*;

/// Reads a conversation in any [`Format`], telling them apart by their shape:
///
/// - text that starts with `[{` or `{` is JSON: an array of chat messages, or an object holding
///   them as `messages` (a chat API request, whose `system` prompt is a turn too), read as
///   OpenAI's or Anthropic's by the fields they use; a Gemini CLI session object
///   (`sessionId`, `projectHash`, `messages`); or one JSON object a line, a session log read as
///   Claude Code's, Codex's or the Gemini CLI's by their fields (`message`, `payload`,
///   `projectHash`);
/// - anything else is `Speaker: text` lines.
///
/// A message's token count goes with its turn (see [`ChatMessage`]). A session log is read line by
/// line, as its agent reads it back (see [`Imported`] for all it gives): the compactions the agent
/// made, the tokens it really sent at each reply, a subagent's turns kept apart, and a line that
/// cannot be read named in [`Imported::broken`] while the rest imports. Only the text's size is
/// limited: a turn over [`MAX_PAGE_TEXT_CHARS`](crate::limits::MAX_PAGE_TEXT_CHARS) (a long tool
/// output) is cut with a mark, `… [cut: 13500 characters]`; base64 (images, documents, thinking
/// signatures, encrypted reasoning) never becomes text.
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
/// // In a session log a broken line is named, and the rest reads.
/// let log = "{\"type\": \"user\", \"message\": 7}\n{\"type\": \"user\", \"message\": {\"role\": \"user\", \"content\": \"Hi\"}}";
/// let read = import_conversation(log)?;
/// assert_eq!(read.turns.len(), 1);
/// assert_eq!(
///     read.broken[0].reason,
///     "line 1: message: must be an object with a role and content, got a number"
/// );
/// # Ok(())
/// # }
/// ```
///
/// # Errors
///
/// An [`ErrorKind::InvalidOption`](crate::ErrorKind) naming `conversation` when the text is no
/// format this reads, saying what was expected, or where a chat request stops being its format
/// (`messages[2].role: …`, or where its JSON is broken: `line 4, column 9: …`); a session log
/// none of whose lines reads gives its first broken line's error. And
/// [`ErrorKind::OverLimit`](crate::ErrorKind) past
/// [`MAX_IMPORT_BYTES`](crate::limits::MAX_IMPORT_BYTES).
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
        return Ok(Imported::of(Format::Lines, import_lines(text)?));
    }
    let (first, end) = match json::parse_prefix(text) {
        Ok(read) => read,
        // A first line that is broken, in a log whose other lines read.
        Err(_) if logs::detect(text).is_some() => return read_log(text),
        Err(error) => return Err(syntax(text, error)),
    };
    let rest = text.get(end..).unwrap_or_default().trim_start();
    let object = matches!(first, Json::Object(_));
    if object && rest.starts_with('{') {
        return read_log(text);
    }
    let string = |key: &str| first.get(key).and_then(Json::as_str).is_some();
    if object && rest.is_empty() && string("sessionId") && string("projectHash") {
        return logs::read_gemini_object(&first);
    }
    if object && first.get("messages").is_none() {
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

/// A session log, one JSON object a line: Claude Code's, Codex's or the Gemini CLI's, told
/// apart by the first line that is clearly one ([`logs::detect`]).
fn read_log(text: &str) -> Result<Imported, Error> {
    match logs::detect(text) {
        Some(LogKind::ClaudeCode) => logs::read_claude_code(text),
        Some(LogKind::Codex) => logs::read_codex(text),
        Some(LogKind::Gemini) => logs::read_gemini(text),
        Some(LogKind::Messages) => Err(bad(
            "line 1: chat messages one a line, or one alone, are no format this reads: put \
             them in a JSON array, [{\"role\": …}, {\"role\": …}]"
                .into(),
        )),
        None => Err(bad(
            "line 1: a session log needs a line of Claude Code's ({\"type\": \"user\", \"message\": …}), \
             of Codex's ({\"type\": \"response_item\", \"payload\": …}) or of the Gemini CLI's \
             ({\"sessionId\": …, \"projectHash\": …})"
                .into(),
        )),
    }
}

/// A chat API's messages: an array, or a request object holding one as `messages` (and maybe
/// a `system` prompt).
fn read_request(value: Json) -> Result<Imported, Error> {
    let mut seen = Seen::default();
    let mut messages: Vec<(ChatMessage, Vec<Part>)> = Vec::new();
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
                let parts = content_parts("system", &system, &mut seen)?;
                messages.push((ChatMessage::new("system", ""), parts));
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
    Ok(Imported::of(seen.format(), turns))
}

/// Turns from chat messages: a message's text and tool calls are one turn, its speaker the
/// role; each tool result is a turn of its own, spoken by `tool`; each kind is inferred.
///
/// ```
/// use agent_memory_widgets::{import_messages, ChatMessage, Content};
///
/// # fn main() -> Result<(), agent_memory_widgets::Error> {
/// let mut call = ChatMessage::new("assistant", "Let me look.");
/// call.content.push(Content::ToolCall { name: "find_order".into(), input: r#"{"id":"ORD-7"}"#.into() });
/// call.usage.output_tokens = Some(14.0);
/// let result = ChatMessage {
///     role: "user".into(),
///     content: vec![Content::ToolResult("ORD-7 shipped on day 3.".into())],
///     ..ChatMessage::default()
/// };
/// let turns = import_messages(vec![
///     ChatMessage::new("user", "Where is order ORD-7?"),
///     call,
///     ChatMessage::new("assistant", ""), // no text: no turn
///     result,
/// ])?;
/// assert_eq!(turns.len(), 3);
/// assert_eq!(turns[1].text.as_deref(), Some(r#"Let me look. find_order({"id":"ORD-7"})"#));
/// assert_eq!(turns[1].tokens, Some(14.0));
/// assert_eq!((turns[2].speaker.as_deref(), turns[2].kind.as_deref()), (Some("tool"), Some("tool")));
/// assert_eq!(
///     import_messages(vec![ChatMessage::new("bot", "Hi")]).unwrap_err().message(),
///     "messages[0].role: unknown role \"bot\"; use user, assistant, tool, system or developer"
/// );
/// # Ok(())
/// # }
/// ```
///
/// # Errors
///
/// An [`ErrorKind::InvalidOption`](crate::ErrorKind) naming the message of an unknown role or
/// of a token count that is not a whole number from 0 to 4294967295 (`messages[2].tokens`,
/// `messages[2].usage.output_tokens`), or `conversation` when no message has text, and
/// [`ErrorKind::OverLimit`](crate::ErrorKind) as [`import_lines`].
pub fn import_messages(messages: Vec<ChatMessage>) -> Result<Vec<TurnSpec>, Error> {
    let messages = messages
        .into_iter()
        .map(|mut message| {
            let parts = core::mem::take(&mut message.content);
            let parts = parts.into_iter().map(|content| Part { content, id: None });
            (message, parts.collect())
        })
        .collect();
    import_named(messages, &|index| text!("messages[", index, "]"))
}

/// [`import_messages`], each message's place in errors named by `place` (`messages[2]`, or
/// `line 3` for a log of one event a line), its content given as parts, each with the
/// tool-call id it has, if any. Each turn has its message's role, a tool result's the tool's
/// ([`Builder::message`]).
fn import_named(
    messages: Vec<(ChatMessage, Vec<Part>)>,
    place: &dyn Fn(usize) -> String,
) -> Result<Vec<TurnSpec>, Error> {
    let mut out = Builder::default();
    let mut size = 0;
    for (index, (message, parts)) in messages.into_iter().enumerate() {
        if !ROLES.contains(&message.role.as_str()) {
            return Err(unknown_role(&place(index), &message.role));
        }
        let tokens = message_tokens(&place(index), &message)?;
        for part in &parts {
            size += match &part.content {
                Content::Text(said) | Content::ToolResult(said) => said.len(),
                Content::ToolCall { name, input } => name.len() + input.len(),
            };
        }
        check_size(size)?;
        out.message(
            &message.role,
            parts,
            tokens.map(|tokens| f64::from(tokens.0)),
        );
    }
    if out.turns.is_empty() {
        return Err(no_text());
    }
    Ok(out.turns)
}
