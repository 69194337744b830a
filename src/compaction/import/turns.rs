//! A conversation's turns from outside the refund desk: plain `Speaker: text` lines, and the
//! rules every reader shares, each turn's kind inferred by [`KIND_RULE`], its text cut to its
//! limit, and a chat message as a value ([`ChatMessage`]).
//!
//! The result is a list of [`TurnSpec`]s with no summaries: a
//! [`Session::from_options`](crate::Session::from_options) gives each turn that is not chatter
//! the first-sentence summary of [`Extractive`](crate::Extractive). A chat message's own token
//! count, when it has one, goes with its turn ([`ChatMessage::tokens`]).

use crate::compaction::script::{Kind, TurnSpec};
use crate::compaction::tokens::given_count;
use crate::error::Error;
use crate::limits::MAX_PAGE_TEXT_CHARS;
use crate::prelude::*;
use crate::text::{lines, split_at_byte};
use crate::units::Tokens;

/// How [`infer_kind`] reads a turn, in the order it applies the rules.
pub const KIND_RULE: &str = "A tool's turn (role or speaker \"tool\") is a tool output. A turn \
    of at most 12 words with a greeting or thanks in it (hi, hello, hey, thanks, thank, thx, bye, \
    goodbye, cheers) and no digit is chatter. A turn with a question mark is a question. \
    Anything else is a decision.";

/// The words that make a short turn chatter (compared without case or punctuation).
const CHATTER_WORDS: [&str; 9] = [
    "hi", "hello", "hey", "thanks", "thank", "thx", "bye", "goodbye", "cheers",
];

/// The kind of a turn by [`KIND_RULE`]: from who spoke and what they said, nothing else.
///
/// ```
/// use agent_memory_widgets::{infer_kind, Kind};
///
/// assert_eq!(infer_kind("tool", "lookup ORD-3300: $200.00"), Kind::Tool);
/// assert_eq!(infer_kind("Dana", "Okay, fair enough. Thanks!"), Kind::Chatter);
/// assert_eq!(infer_kind("Dana", "Thanks. Can I get my $200.00 back?"), Kind::Question);
/// assert_eq!(infer_kind("agent", "Your refund is $180.00."), Kind::Decision);
/// ```
pub fn infer_kind(speaker: &str, text: &str) -> Kind {
    if speaker.trim().eq_ignore_ascii_case("tool") {
        return Kind::Tool;
    }
    let mut words = 0;
    let mut greets = false;
    for word in text.split_whitespace() {
        words += 1;
        let bare = word.trim_matches(|c: char| !c.is_ascii_alphanumeric());
        greets |= CHATTER_WORDS
            .iter()
            .any(|chatter| bare.eq_ignore_ascii_case(chatter));
    }
    let digit = text.bytes().any(|b| b.is_ascii_digit());
    if greets && words <= 12 && !digit {
        Kind::Chatter
    } else if text.bytes().any(|b| b == b'?') {
        Kind::Question
    } else {
        Kind::Decision
    }
}

/// A turn from plain lines: `Speaker: text`, one turn per such line.
///
/// A line starts a turn when it begins with a speaker (at most 3 words and 40 characters, then a
/// colon, and not a URL's `://`); any other line continues the turn before it, and blank lines are
/// skipped. A leading `[timestamp]`, as chat exports write it, is left out. A plain line has no
/// role: its turn's `role` is left out, for [`Role::default_for`](crate::Role::default_for) its
/// speaker and kind to give (chat arrays and logs give each turn its own).
///
/// ```
/// use agent_memory_widgets::{import_lines, Kind};
///
/// # fn main() -> Result<(), agent_memory_widgets::Error> {
/// let turns = import_lines("Dana: Hi there!\nagent: Your refund is $180.00.\nIt takes five days.")?;
/// assert_eq!(turns.len(), 2);
/// assert_eq!(turns[0].kind.as_deref(), Some("chatter"));
/// assert_eq!(turns[0].role, None);
/// assert_eq!(turns[1].text.as_deref(), Some("Your refund is $180.00. It takes five days."));
/// assert_eq!(
///     import_lines("hello").unwrap_err().message(),
///     "line 1: a conversation starts with a speaker, like \"Dana: Hello\""
/// );
/// # Ok(())
/// # }
/// ```
///
/// # Errors
///
/// An [`ErrorKind::InvalidOption`](crate::ErrorKind) naming `conversation` when it has no
/// turn or its first line has no speaker, and [`ErrorKind::OverLimit`](crate::ErrorKind) past
/// [`MAX_IMPORT_BYTES`](crate::limits::MAX_IMPORT_BYTES) bytes. A turn over
/// [`MAX_PAGE_TEXT_CHARS`] characters is cut, with a mark that says so.
pub fn import_lines(text: &str) -> Result<Vec<TurnSpec>, Error> {
    check_size(text.len())?;
    let mut turns: Vec<(String, String, Option<Tokens>)> = Vec::new();
    for (index, line) in lines(text).enumerate() {
        let line = without_stamp(line.trim());
        if line.is_empty() {
            continue;
        }
        match (speaker_of(line), turns.last_mut()) {
            (Some((speaker, said)), _) => {
                turns.push((speaker.to_owned(), said.to_owned(), None));
            }
            (None, Some((_, said, _))) => {
                if !said.is_empty() {
                    said.push(' ');
                }
                said.push_str(line);
            }
            (None, None) => {
                return Err(Error::invalid(
                    "conversation",
                    text!(
                        "line ",
                        index + 1,
                        ": a conversation starts with a speaker, like \"Dana: Hello\""
                    ),
                ))
            }
        }
    }
    specs(turns)
}

/// One chat message: who sent it (`user`, `assistant`, `tool`, `system` or `developer`), what it
/// holds, and its token count when the log has one.
///
/// The turn's token count is the message's own `tokens` if it has them, or else its
/// `usage.output_tokens`, or else its `usage.completion_tokens` (see [`Usage`]); without any,
/// the session counts the text.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ChatMessage {
    /// `user`, `assistant`, `tool`, `system` or `developer`.
    pub role: String,
    /// What the message holds, in order: text, the tool calls it makes, the tool results it
    /// carries.
    pub content: Vec<Content>,
    /// The message's own token count, as a log or your tokenizer gives it: a whole number from
    /// 0 to 4294967295, taken as given ([`Turn::with_tokens`](crate::Turn::with_tokens)).
    pub tokens: Option<f64>,
    /// The token usage a chat API reported with the message.
    pub usage: Usage,
}

impl ChatMessage {
    /// A message of one text.
    ///
    /// ```
    /// use agent_memory_widgets::{ChatMessage, Content};
    ///
    /// let message = ChatMessage::new("user", "Where is order ORD-7?");
    /// assert_eq!(message.content, [Content::Text("Where is order ORD-7?".into())]);
    /// ```
    pub fn new(role: &str, text: &str) -> ChatMessage {
        ChatMessage {
            role: role.to_owned(),
            content: vec![Content::Text(text.to_owned())],
            ..ChatMessage::default()
        }
    }
}

/// One part of a chat message, as the chat APIs' content blocks have them.
#[derive(Clone, Debug, PartialEq)]
pub enum Content {
    /// Text the sender wrote.
    Text(String),
    /// A call the assistant makes to a tool (Anthropic's `tool_use` block, OpenAI's
    /// `tool_calls`, Codex's `function_call`): its name and its input as JSON text. It is shown
    /// in the message's turn as `name(input)`.
    ToolCall {
        /// The tool's name.
        name: String,
        /// Its input or arguments, as JSON text.
        input: String,
    },
    /// What a tool gave back (Anthropic's `tool_result` block, Codex's `function_call_output`):
    /// a turn of its own, spoken by `tool`, so its kind is a tool output.
    ToolResult(String),
}

/// The token usage a chat API reports with a reply, as far as it counts one message.
///
/// A reply's `usage` counts two things: what was sent (`input_tokens` in Anthropic's Messages
/// API and OpenAI's Responses API, `prompt_tokens` in Chat Completions), which is the whole
/// prompt, system prompt and earlier messages included, and what the model wrote
/// (`output_tokens`, `completion_tokens`), which is this message. So only the second is a
/// message's own count: `output_tokens` if present, else `completion_tokens`. The counts of
/// what was sent are not read. (The model's count includes what it wrote besides the text, such
/// as a tool call's arguments or its hidden reasoning, and is still taken as given.)
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Usage {
    /// `usage.output_tokens` (Anthropic, OpenAI Responses): the tokens the model wrote.
    pub output_tokens: Option<f64>,
    /// `usage.completion_tokens` (OpenAI Chat Completions): the same, under its older name.
    pub completion_tokens: Option<f64>,
}

/// The roles a chat message may have.
pub(crate) const ROLES: [&str; 5] = ["user", "assistant", "tool", "system", "developer"];

/// The error for a message at `place` of a role not in [`ROLES`].
pub(crate) fn unknown_role(place: &str, role: &str) -> Error {
    Error::invalid(
        "messages",
        text!(
            place,
            ".role: unknown role \"",
            role,
            "\"; use user, assistant, tool, system or developer"
        ),
    )
}

/// Appends `part` to a turn's text, a space between, unless it is blank.
pub(crate) fn join(text: &mut String, part: &str) {
    if part.trim().is_empty() {
        return;
    }
    if !text.is_empty() {
        text.push(' ');
    }
    text.push_str(part);
}

/// The own token count of the message at `place`, by the rule of [`ChatMessage`]: its `tokens`,
/// else its `usage.output_tokens`, else its `usage.completion_tokens`. Each is checked when
/// present, even when an earlier one is used.
pub(super) fn message_tokens(place: &str, message: &ChatMessage) -> Result<Option<Tokens>, Error> {
    let mut found = None;
    for (key, value) in [
        ("tokens", message.tokens),
        ("usage.output_tokens", message.usage.output_tokens),
        ("usage.completion_tokens", message.usage.completion_tokens),
    ] {
        if let Some(value) = value {
            let name = text!(place, ".", key);
            let count = given_count("messages", &name, value)?;
            found = found.or(Some(count));
        }
    }
    Ok(found)
}

/// `Some((speaker, text))` when `line` starts with a speaker and a colon.
fn speaker_of(line: &str) -> Option<(&str, &str)> {
    let (speaker, said) = split_at_byte(line, b':')?;
    let speaker = speaker.trim();
    let words = speaker.split_whitespace().count();
    let short = (1..=3).contains(&words) && speaker.chars().nth(40).is_none();
    (short && !said.starts_with("//")).then(|| (speaker, said.trim()))
}

/// `line` without a leading `[...]` of under 40 bytes: `[12/03/2024, 10:32] Dana: hi`.
fn without_stamp(line: &str) -> &str {
    match line
        .strip_prefix('[')
        .and_then(|rest| split_at_byte(rest, b']'))
    {
        Some((stamp, rest)) if stamp.len() < 40 => rest.trim_start(),
        _ => line,
    }
}

/// The byte length of a conversation's text, checked before it is read.
pub(super) fn check_size(bytes: usize) -> Result<(), Error> {
    if bytes <= crate::limits::MAX_IMPORT_BYTES {
        Ok(())
    } else {
        Err(too_big())
    }
}

/// The error for a conversation of more than [`MAX_IMPORT_BYTES`](crate::limits::MAX_IMPORT_BYTES).
pub(crate) fn too_big() -> Error {
    Error::over_limit(
        "MAX_IMPORT_BYTES",
        text!(
            "conversation: must have at most ",
            crate::limits::MAX_IMPORT_BYTES,
            " bytes of text"
        ),
    )
}

/// `text`, or when it has more than [`MAX_PAGE_TEXT_CHARS`] characters (a long tool output: a file
/// read, a command's output), its first characters and a mark that says how long it was, in
/// [`MAX_PAGE_TEXT_CHARS`] in all: `… [cut: 13500 characters]`. A count the log gives for the turn
/// is kept; without one, the session counts what is left.
pub(crate) fn cut_to_limit(text: String) -> String {
    let chars = crate::limits::char_count(&text);
    if chars <= MAX_PAGE_TEXT_CHARS {
        return text;
    }
    let mark = text!(" \u{2026} [cut: ", chars, " characters]");
    let keep = MAX_PAGE_TEXT_CHARS - crate::limits::char_count(&mark);
    let end = text
        .char_indices()
        .nth(keep)
        .map_or(text.len(), |(at, _)| at);
    let mut out = text.get(..end).unwrap_or_default().to_owned();
    out.push_str(&mark);
    out
}

/// The turns as specs, kinds inferred, each text cut to its limit, each with its own token count
/// if it has one. A plain line has no role: the default rule, `Role::default_for`, gives it.
fn specs(turns: Vec<(String, String, Option<Tokens>)>) -> Result<Vec<TurnSpec>, Error> {
    if turns.iter().all(|(_, text, _)| text.trim().is_empty()) {
        return Err(no_text());
    }
    let mut out = Vec::with_capacity(turns.len());
    for (speaker, text, tokens) in turns {
        if text.trim().is_empty() {
            continue;
        }
        let text = cut_to_limit(text);
        out.push(TurnSpec {
            kind: Some(infer_kind(&speaker, &text).name().to_owned()),
            speaker: Some(speaker),
            text: Some(text),
            summary: None,
            tokens: tokens.map(|tokens| f64::from(tokens.0)),
            role: None,
            tool_call_id: None,
        });
    }
    Ok(out)
}

/// The error for a conversation in which no turn has any text.
pub(super) fn no_text() -> Error {
    Error::invalid(
        "conversation",
        "conversation: no turn has any text; write lines like \"Dana: Hello\" or a JSON \
         array of chat messages",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import_messages;
    use crate::limits::MAX_IMPORT_BYTES;
    use crate::Script;

    #[test]
    fn the_rule_gives_every_refund_desk_turn_its_own_kind() {
        for turn in Script::refund_desk().turns() {
            assert_eq!(
                infer_kind(turn.speaker(), turn.text()),
                turn.kind(),
                "{}",
                turn.text()
            );
        }
    }

    #[test]
    fn chatter_needs_a_greeting_few_words_and_no_digit() {
        assert_eq!(infer_kind("Dana", "Hello"), Kind::Chatter);
        assert_eq!(infer_kind("Dana", "hey!!"), Kind::Chatter);
        assert_eq!(infer_kind("Dana", "Thanks for order 7"), Kind::Decision);
        assert_eq!(infer_kind("Dana", "Thanks, is it done?"), Kind::Chatter);
        let long = "thanks a b c d e f g h i j k l";
        assert_eq!(long.split_whitespace().count(), 13);
        assert_eq!(infer_kind("Dana", long), Kind::Decision);
        assert_eq!(infer_kind("Dana", &long[..long.len() - 2]), Kind::Chatter);
        assert_eq!(infer_kind("Dana", "Hilton is fine"), Kind::Decision);
        assert_eq!(infer_kind(" TOOL ", "Hi"), Kind::Tool);
    }

    #[test]
    fn lines_start_turns_only_with_a_short_speaker() {
        let turns = import_lines(
            "\n  Dana Jones:  Where is it?\nThe order is ORD-1: see above.\n\nfour word long name: no\n",
        )
        .unwrap();
        assert_eq!(turns.len(), 1);
        assert_eq!(turns[0].speaker.as_deref(), Some("Dana Jones"));
        assert_eq!(
            turns[0].text.as_deref(),
            Some("Where is it? The order is ORD-1: see above. four word long name: no")
        );
        let empty = import_lines("Dana:\n agent:  ").unwrap_err();
        assert!(empty
            .message()
            .starts_with("conversation: no turn has any text"));
        assert!(import_lines("").is_err());
    }

    #[test]
    fn a_speaker_of_forty_characters_is_one_of_forty_one_is_not() {
        let forty = "д".repeat(40);
        assert_eq!(
            speaker_of(&format!("{forty}: x")),
            Some((forty.as_str(), "x"))
        );
        assert_eq!(speaker_of(&format!("{forty}a: x")), None);
        assert_eq!(speaker_of("a b c: x"), Some(("a b c", "x")));
        assert_eq!(speaker_of(": x"), None);
        assert_eq!(speaker_of("see https://example.com/a"), None);
    }

    #[test]
    fn a_chat_export_s_timestamps_are_left_out() {
        let turns = import_lines(
            "[12/03/2024, 10:32] Dana: Hi there!\n[12/03/2024, 10:33] agent: See https://x.io/a\n[note] it",
        )
        .unwrap();
        let got: Vec<_> = turns
            .iter()
            .map(|t| (t.speaker.as_deref().unwrap(), t.text.as_deref().unwrap()))
            .collect();
        assert_eq!(
            got,
            [("Dana", "Hi there!"), ("agent", "See https://x.io/a it")]
        );
        assert_eq!(without_stamp("[a] b"), "b");
        assert_eq!(without_stamp("[no end"), "[no end");
        let long = format!("[{}] b", "x".repeat(40));
        assert_eq!(without_stamp(&long), long);
    }

    #[test]
    fn only_a_conversation_s_size_is_limited() {
        // Turns and text in all are not limited: 20,000 turns of 1,000 characters import.
        let many = format!("Dana: {}\n", "a".repeat(1_000)).repeat(20_000);
        assert_eq!(import_lines(&many).unwrap().len(), 20_000);
        // Past MAX_IMPORT_BYTES, refused before anything is read.
        let too_big = "conversation: must have at most 67108864 bytes of text";
        let huge = format!("Dana: {}", "a".repeat(MAX_IMPORT_BYTES));
        assert_eq!(import_lines(&huge).unwrap_err().message(), too_big);
        // A turn over MAX_PAGE_TEXT_CHARS is cut to it, with a mark.
        let big = format!("Dana: {}", "д".repeat(MAX_PAGE_TEXT_CHARS + 1));
        let cut = import_lines(&big).unwrap();
        let text = cut[0].text.as_deref().unwrap();
        assert_eq!(text.chars().count(), MAX_PAGE_TEXT_CHARS);
        assert!(
            text.ends_with("д \u{2026} [cut: 10001 characters]"),
            "{text}"
        );
        let exact = format!("Dana: {}", "a".repeat(MAX_PAGE_TEXT_CHARS));
        assert_eq!(
            import_lines(&exact).unwrap()[0]
                .text
                .as_deref()
                .unwrap()
                .len(),
            MAX_PAGE_TEXT_CHARS
        );
        let message = |text: String| ChatMessage::new("user", &text);
        let halves = vec![
            message("a".repeat(MAX_IMPORT_BYTES / 2)),
            message("b".repeat(MAX_IMPORT_BYTES / 2 + 1)),
        ];
        assert_eq!(import_messages(halves).unwrap_err().message(), too_big);
        let many = (0..20_000).map(|_| message("hi".into())).collect();
        assert_eq!(import_messages(many).unwrap().len(), 20_000);
    }
}
