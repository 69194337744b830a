//! The session logs that agents write, one JSON record a line, read line by line: Claude Code's,
//! the Codex CLI's and the Gemini CLI's. Each line is parsed, turned into what it holds (a turn,
//! a compaction the agent made, the tokens it sent) and dropped before the next, so a log of
//! tens of megabytes needs little more memory than its text and its turns.
//!
//! What a log holds besides its conversation is read too ([`Imported`]): the compactions the
//! agent made itself ([`LogCompaction`]), the tokens it really sent the model at each reply
//! ([`SentTokens`]), and every line that could not be read ([`BrokenLine`]), named, while the
//! rest of the log imports.

use crate::compaction::import::formats::{
    bad, codex_item, content_parts, must_be, not_json, number, string, texts, wrong, BrokenLine,
    Format, Imported, LogCompaction, Part, Seen, SentTokens, MAX_NAMED_BROKEN,
};
use crate::compaction::import::turns::{cut_to_limit, infer_kind, join, Content};
use crate::compaction::script::TurnSpec;
use crate::compaction::tokens::given_count;
use crate::error::Error;
use crate::json::{self, Json};
use crate::prelude::*;
use crate::text::lines;

/// The roles a turn's speaker may have in a log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Who {
    User,
    Assistant,
    Tool,
    System,
}

impl Who {
    /// The turn's [`Role`](crate::Role) under this name.
    pub(crate) fn role(self) -> crate::Role {
        match self {
            Who::User => crate::Role::User,
            Who::Assistant => crate::Role::Assistant,
            Who::Tool => crate::Role::Tool,
            Who::System => crate::Role::System,
        }
    }

    /// The role of a chat message's `role`: `tool` a tool's, `assistant` the assistant's,
    /// `system` and `developer` the system's, anything else the user's.
    pub(crate) fn of(role: &str) -> Who {
        match role {
            "assistant" => Who::Assistant,
            "tool" => Who::Tool,
            "system" | "developer" => Who::System,
            _ => Who::User,
        }
    }
}

/// A conversation as it is read: its turns, and what else the log says about them.
#[derive(Default)]
pub(crate) struct Builder {
    pub(crate) turns: Vec<TurnSpec>,
    pub(crate) roles: Vec<(Who, Option<String>)>,
    pub(crate) compactions: Vec<LogCompaction>,
    pub(crate) sent: Vec<SentTokens>,
    pub(crate) skipped: usize,
    pub(crate) rewound: usize,
    pub(crate) broken: Vec<BrokenLine>,
    pub(crate) broken_lines: usize,
}

impl Builder {
    /// Adds a turn, unless its text is blank: cut to its limit with a mark, its kind inferred.
    pub(crate) fn turn(
        &mut self,
        speaker: &str,
        text: String,
        tokens: Option<f64>,
        who: Who,
        call_id: Option<String>,
    ) {
        if text.trim().is_empty() {
            return;
        }
        let text = cut_to_limit(text);
        self.turns.push(TurnSpec {
            kind: Some(infer_kind(speaker, &text).name().to_owned()),
            speaker: Some(speaker.to_owned()),
            text: Some(text),
            summary: None,
            tokens,
            role: Some(who.role().name().to_owned()),
            tool_call_id: call_id.clone(),
        });
        self.roles.push((who, call_id));
    }

    /// Adds a message's turns: its text and tool calls are one turn, spoken by `role`, with the
    /// first tool-call id of its parts; each tool result is a turn of its own, spoken by `tool`,
    /// with its own id. `tokens` go with the first turn of its own.
    pub(crate) fn message(&mut self, role: &str, parts: Vec<Part>, mut tokens: Option<f64>) {
        let who = Who::of(role);
        let mut own = String::new();
        let mut own_id: Option<String> = None;
        for part in parts {
            match part.content {
                Content::Text(said) => join(&mut own, &said),
                Content::ToolCall { name, input } => join(&mut own, &text!(name, "(", input, ")")),
                Content::ToolResult(said) => {
                    if !own.trim().is_empty() {
                        let own = core::mem::take(&mut own);
                        self.turn(role, own, tokens.take(), who, own_id.take());
                    }
                    self.turn("tool", said, None, Who::Tool, part.id);
                    continue;
                }
            }
            // A call's id, or the one a tool's message answers.
            if own_id.is_none() {
                own_id = part.id;
            }
        }
        self.turn(role, own, tokens, who, own_id);
    }

    /// Names a broken line (the first [`MAX_NAMED_BROKEN`]) and counts it.
    pub(crate) fn broken(&mut self, line: usize, reason: String) {
        self.broken_lines += 1;
        if self.broken.len() < MAX_NAMED_BROKEN {
            self.broken.push(BrokenLine { line, reason });
        }
    }

    /// The conversation read, or an error when it holds no turn: the first broken line's, if
    /// any line broke, else that no turn has text.
    pub(crate) fn finish(self, format: Format, subagent: Vec<TurnSpec>) -> Result<Imported, Error> {
        if self.turns.is_empty() {
            if let Some(first) = self.broken.into_iter().next() {
                return Err(bad(first.reason));
            }
            return Err(bad(text!(
                "conversation: ",
                format.title(),
                " in which no turn has any text"
            )));
        }
        Ok(Imported {
            format,
            turns: self.turns,
            skipped: self.skipped,
            compactions: self.compactions,
            sent_tokens: self.sent,
            broken: self.broken,
            broken_lines: self.broken_lines,
            rewound: self.rewound,
            subagent,
        })
    }
}

/// Where `text` ends but for the whitespace after it (JSON's, which is ASCII).
pub(crate) fn ended(text: &str) -> usize {
    text.len()
        - text
            .bytes()
            .rev()
            .take_while(u8::is_ascii_whitespace)
            .count()
}

/// The fields of a log's records that no turn reads, passed over without being built: Claude
/// Code's copy of each tool result (`toolUseResult`) and its file snapshots, thinking
/// signatures, Codex's encrypted reasoning and the history it replaces at a compaction, the
/// Gemini CLI's thoughts and its tool results as shown on screen.
const PASSED_OVER: [&str; 7] = [
    "toolUseResult",
    "snapshot",
    "signature",
    "encrypted_content",
    "replacement_history",
    "thoughts",
    "resultDisplay",
];

/// Calls `each` with every record of a log and its line number: one JSON object a line, or
/// several written back to back on one line (`…}{…`). A line that is not JSON, or a record
/// `each` refuses, is named in `out` as broken and the reading goes on. A last line cut short (a
/// log copied while it was being written) is counted as skipped.
pub(crate) fn each_record(
    text: &str,
    out: &mut Builder,
    each: &mut dyn FnMut(&mut Builder, usize, Json) -> Result<(), Error>,
) {
    let last = ended(text);
    for (index, line) in lines(text).enumerate() {
        let number = index + 1;
        // Where the line starts in `text`: it is a part of it.
        let start = line.as_ptr() as usize - text.as_ptr() as usize;
        let mut at = 0;
        loop {
            while matches!(line.as_bytes().get(at), Some(b' ' | b'\t' | b'\r')) {
                at += 1;
            }
            let rest = line.get(at..).unwrap_or_default();
            if rest.is_empty() {
                break;
            }
            if at > 0 && !rest.starts_with('{') {
                let (_, column) = json::line_and_column(line, at);
                out.broken(
                    number,
                    not_json(number, column, "more text after the JSON value"),
                );
                break;
            }
            match json::parse_prefix_skipping(rest, &PASSED_OVER) {
                Ok((value, used)) => {
                    at += used;
                    if !matches!(value, Json::Object(_)) {
                        out.broken(
                            number,
                            text!(
                                "line ",
                                number,
                                ": must be a JSON object, got ",
                                value.type_name()
                            ),
                        );
                        break;
                    }
                    if let Err(error) = each(out, number, value) {
                        out.broken(number, String::from(error.message()));
                    }
                }
                Err(error) => {
                    let end = start + line.len();
                    // Cut short: the JSON stops with the text, on the last line, after whole lines.
                    if end >= last && index > 0 && at + error.at >= ended(line) {
                        out.skipped += 1;
                        break;
                    }
                    let (_, column) = json::line_and_column(line, at + error.at);
                    out.broken(number, not_json(number, column, error.what));
                    break;
                }
            }
        }
    }
}

/// The kinds of session log, told apart by their first record that is clearly one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LogKind {
    ClaudeCode,
    Codex,
    Gemini,
    /// Chat messages one a line, which no format writes.
    Messages,
}

/// What the first record that is clearly a log's says the log is, or `None`.
pub(crate) fn detect(text: &str) -> Option<LogKind> {
    let mut first_role = None;
    for line in lines(text) {
        let Ok((event, _)) = json::parse_prefix(line) else {
            continue;
        };
        let kind = event.get("type").and_then(Json::as_str);
        let message = event.get("message").is_some();
        let string = |key: &str| event.get(key).and_then(Json::as_str).is_some();
        let found = match kind {
            _ if event.get("payload").is_some() => Some(LogKind::Codex),
            _ if string("sessionId") && string("projectHash") => Some(LogKind::Gemini),
            _ if string("$rewindTo") || matches!(event.get("$set"), Some(Json::Object(_))) => {
                Some(LogKind::Gemini)
            }
            Some("user" | "assistant") if message => Some(LogKind::ClaudeCode),
            Some("queue-operation") => Some(LogKind::ClaudeCode),
            Some("system") if event.get("subtype").is_some() => Some(LogKind::ClaudeCode),
            // An older Codex file's bare response items: a message's blocks are Codex's own.
            Some("message") if codex_blocks(&event) => Some(LogKind::Codex),
            Some("function_call" | "function_call_output" | "custom_tool_call")
            | Some("custom_tool_call_output" | "local_shell_call") => Some(LogKind::Codex),
            _ => None,
        };
        if found.is_some() {
            return found;
        }
        if first_role.is_none() {
            first_role = Some(event.get("role").is_some());
        }
    }
    (first_role == Some(true)).then_some(LogKind::Messages)
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

/// A whole number of tokens at `place.field`, if it is there.
fn count(place: &str, field: &str, value: Option<&Json>) -> Result<Option<u32>, Error> {
    match number(place, field, value)? {
        Some(value) => Ok(Some(
            given_count("conversation", &text!(place, ".", field), value)?.0,
        )),
        None => Ok(None),
    }
}

/// Texts each with a number, sorted for lookup: a map from a uuid or a message id to the line
/// where it is, without the B-tree code a `BTreeMap` brings into the wasm.
struct Index<'a> {
    // Invariant: sorted by text, then by number.
    entries: Vec<(&'a str, usize)>,
}

impl<'a> Index<'a> {
    fn new(mut entries: Vec<(&'a str, usize)>) -> Index<'a> {
        crate::sort::sort_by(&mut entries, |a, b| a.cmp(b));
        Index { entries }
    }

    /// The numbers of `key`, in order.
    fn all(&self, key: &str) -> &[(&'a str, usize)] {
        let start = self.entries.partition_point(|(text, _)| *text < key);
        let end = self.entries.partition_point(|(text, _)| *text <= key);
        self.entries.get(start..end).unwrap_or_default()
    }

    /// The last number of `key`.
    fn last(&self, key: &str) -> Option<usize> {
        self.all(key).last().map(|(_, number)| *number)
    }
}

// Claude Code -------------------------------------------------------------------------------

/// What one line of a Claude Code log holds.
enum What {
    /// Nothing of the conversation (a snapshot, a hook's progress, a note of Claude Code's own),
    /// but maybe a link in the chain of `parentUuid`s.
    Other,
    /// A user's or the assistant's message.
    Message {
        assistant: bool,
        parts: Vec<Part>,
        id: Option<String>,
        usage: Option<ReplyUsage>,
        thinking: bool,
    },
    /// A slash command with arguments, as the user typed it: `/commit keep it small`.
    Command(String),
    /// Claude Code's summary after a compaction (`isCompactSummary`).
    Summary(String),
    /// A compaction (`compact_boundary`).
    Boundary {
        trigger: String,
        pre: Option<u32>,
        post: Option<u32>,
    },
    /// A message typed while the agent worked (`queue-operation` `enqueue`).
    Queued(String),
}

/// The usage on one line of an assistant's reply.
struct ReplyUsage {
    /// `output_tokens`, if the line is the reply's last (its `stop_reason` is set); before that
    /// Claude Code writes a streaming placeholder.
    output: Option<u32>,
    /// `input_tokens` + `cache_creation_input_tokens` + `cache_read_input_tokens`.
    sent: Option<u32>,
}

/// One line of a Claude Code log, read.
struct Record {
    uuid: Option<String>,
    parent: Option<String>,
    sidechain: bool,
    what: What,
}

/// The text of the `<tag>…</tag>` in `text`, if it has one.
fn tagged<'a>(text: &'a str, tag: &str) -> Option<&'a str> {
    let open = text!("<", tag, ">");
    let close = text!("</", tag, ">");
    let start = find(text, &open)? + open.len();
    let rest = text.get(start..)?;
    Some(rest.get(..find(rest, &close)?)?.trim())
}

/// Where `needle` first occurs in `text` (a plain loop: `str::find` brings the searcher).
fn find(text: &str, needle: &str) -> Option<usize> {
    let (text, needle) = (text.as_bytes(), needle.as_bytes());
    if needle.is_empty() {
        return Some(0);
    }
    (0..=text.len().checked_sub(needle.len())?)
        .find(|&at| text.get(at..at + needle.len()) == Some(needle))
}

/// Reads one Claude Code line at `line`.
fn claude_record(line: usize, event: &Json, seen: &mut Seen) -> Result<Record, Error> {
    let place = text!("line ", line);
    let kind = match event.get("type") {
        Some(Json::String(kind)) => kind.as_str(),
        Some(other) => return Err(must_be(&text!(place, ": type"), "a string", other)),
        None => {
            return Err(bad(text!(
                place,
                ": type: missing; a Claude Code line has a type"
            )))
        }
    };
    let flag = |field: &str| matches!(event.get(field), Some(Json::Bool(true)));
    let own = |field: &str| event.get(field).and_then(Json::as_str).map(str::to_owned);
    let mut record = Record {
        uuid: own("uuid"),
        parent: own("parentUuid").or_else(|| own("logicalParentUuid")),
        sidechain: flag("isSidechain"),
        what: What::Other,
    };
    match kind {
        "system" if event.get("subtype").and_then(Json::as_str) == Some("compact_boundary") => {
            let meta = event.get("compactMetadata");
            let at = text!(place, ": compactMetadata");
            let field = |key: &str| meta.and_then(|meta| meta.get(key));
            record.what = What::Boundary {
                trigger: field("trigger")
                    .and_then(Json::as_str)
                    .unwrap_or("unknown")
                    .to_owned(),
                pre: count(&at, "preTokens", field("preTokens"))?,
                post: count(&at, "postTokens", field("postTokens"))?,
            };
        }
        "queue-operation" if event.get("operation").and_then(Json::as_str) == Some("enqueue") => {
            if let Some(said) = event.get("content").and_then(Json::as_str) {
                record.what = What::Queued(said.to_owned());
            }
        }
        "user" | "assistant" => {
            let Some(message) = event.get("message") else {
                return Err(bad(text!(
                    place,
                    ": message: missing; a ",
                    kind,
                    " line has a message"
                )));
            };
            let at = text!(place, ": message");
            if !matches!(message, Json::Object(_)) {
                return Err(must_be(&at, "an object with a role and content", message));
            }
            let content = message.get("content");
            let plain = content.and_then(Json::as_str);
            if flag("isCompactSummary") {
                let summary = match content {
                    Some(content) => texts(&text!(at, ".content"), content)?,
                    None => String::new(),
                };
                record.what = What::Summary(summary);
                return Ok(record);
            }
            // Claude Code's own notes: a caveat (`isMeta`), an API error shown as a reply, a
            // command's output. A slash command is the user's only through its arguments.
            if flag("isMeta") || flag("isApiErrorMessage") {
                return Ok(record);
            }
            if let Some(said) = plain.map(str::trim_start) {
                if said.starts_with("<local-command-") {
                    return Ok(record);
                }
                if said.starts_with("<command-") {
                    let name = tagged(said, "command-name").unwrap_or_default();
                    if let Some(args) = tagged(said, "command-args").filter(|a| !a.is_empty()) {
                        record.what = What::Command(text!(name, " ", args));
                    }
                    return Ok(record);
                }
            }
            if let Some(role) = message.get("role").filter(|role| role.as_str().is_none()) {
                return Err(wrong(&at, "role", "a string", role));
            }
            let parts = match content {
                Some(content) => content_parts(&text!(at, ".content"), content, seen)?,
                None => Vec::new(),
            };
            let thinking = match content {
                Some(Json::Array(blocks)) => blocks.iter().any(|block| {
                    matches!(
                        block.get("type").and_then(Json::as_str),
                        Some("thinking" | "redacted_thinking")
                    )
                }),
                _ => false,
            };
            let usage = match message.get("usage") {
                Some(usage @ Json::Object(_)) => {
                    let at = text!(at, ".usage");
                    let mut sent: Option<u32> = None;
                    for key in [
                        "input_tokens",
                        "cache_creation_input_tokens",
                        "cache_read_input_tokens",
                    ] {
                        if let Some(tokens) = count(&at, key, usage.get(key))? {
                            sent = Some(sent.unwrap_or(0).saturating_add(tokens));
                        }
                    }
                    let stopped = message
                        .get("stop_reason")
                        .is_some_and(|stop| !stop.is_null());
                    let output = count(&at, "output_tokens", usage.get("output_tokens"))?;
                    Some(ReplyUsage {
                        output: output.filter(|_| stopped),
                        sent,
                    })
                }
                _ => None,
            };
            record.what = What::Message {
                assistant: kind == "assistant",
                parts,
                id: message.get("id").and_then(Json::as_str).map(str::to_owned),
                usage,
                thinking,
            };
        }
        _ => {}
    }
    Ok(record)
}

/// A Claude Code session (`~/.claude/projects/…/<session>.jsonl`), read as Claude Code itself
/// reads it back:
///
/// - The conversation is the chain of `parentUuid`s from the last message back to the first
///   (through a compaction's `logicalParentUuid`): messages on a branch the user rewound are
///   left out and counted (`rewound`). A parallel tool call's result, or another block of a
///   reply on the chain, branches too, and is kept. Where a parent is not in the log (a broken
///   line), the chain goes on from the line before. Lines without a `uuid`, and a tree of their
///   own (a conversation before a `/clear`; a rewind to the very first prompt looks the same,
///   and is kept too), are kept in file order.
/// - The lines of one reply (one content block each, the same `message.id`) are one turn, with
///   the usage of the reply's last line: its `output_tokens` only when its `stop_reason` is set
///   (earlier lines hold a streaming placeholder) and the reply has no thinking, which the import
///   does not carry (without a count, the session counts the text it has). Its input and cache
///   tokens are what the model was sent ([`SentTokens`]).
/// - A `compact_boundary` line and the `isCompactSummary` message after it are a
///   [`LogCompaction`], not turns.
/// - A message typed while the agent worked (`queue-operation` `enqueue`) is a user turn, unless
///   the same text comes later as a user message; a slash command's arguments are one too.
/// - A subagent's lines (`isSidechain: true`) are kept apart, as the `subagent` conversation;
///   a log of a subagent's lines alone (`agent-*.jsonl`) is read as the conversation.
/// - Other lines (`summary`, `progress`, `file-history-snapshot`, Claude Code's own notes) are
///   passed over and counted.
pub(crate) fn read_claude_code(text: &str) -> Result<Imported, Error> {
    let mut out = Builder::default();
    let mut records: Vec<Record> = Vec::new();
    let mut seen = Seen::default();
    each_record(text, &mut out, &mut |_, line, event| {
        records.push(claude_record(line, &event, &mut seen)?);
        Ok(())
    });
    let conversation = |record: &Record| !matches!(record.what, What::Other);
    // A subagent's own log: every line of the conversation is on a side chain.
    let side_only = records
        .iter()
        .filter(|r| conversation(r))
        .all(|r| r.sidechain);
    if side_only {
        for record in &mut records {
            record.sidechain = false;
        }
    }
    let kept = surviving(&records);
    let mut side = Builder::default();
    // The lines of each reply (the last one's usage counts), those that thought, and what the
    // user typed.
    let mut replies = Vec::new();
    let mut thought = Vec::new();
    let mut said = Vec::new();
    for (index, record) in records.iter().enumerate() {
        if let What::Message {
            assistant,
            id,
            thinking,
            parts,
            ..
        } = &record.what
        {
            if *assistant {
                if let Some(id) = id {
                    replies.push((id.as_str(), index));
                    if *thinking {
                        thought.push((id.as_str(), index));
                    }
                }
            } else if let [Part {
                content: Content::Text(text),
                ..
            }] = parts.as_slice()
            {
                if kept.get(index).copied().unwrap_or(false) {
                    said.push((text.as_str(), index));
                }
            }
        }
    }
    let seen = Lookups {
        replies: Index::new(replies),
        thought: Index::new(thought),
        typed: Index::new(said),
    };
    let mut main = Reading::default();
    let mut apart = Reading::default();
    for (index, record) in records.iter().enumerate() {
        if record.sidechain {
            apart.read(&mut side, index, record, &seen);
        } else if kept.get(index).copied().unwrap_or(true) {
            main.read(&mut out, index, record, &seen);
        } else {
            if conversation(record) {
                out.rewound += 1;
            }
            out.skipped += 1;
        }
    }
    main.flush(&mut out);
    apart.flush(&mut side);
    out.skipped += side.skipped;
    out.finish(Format::ClaudeCode, side.turns)
}

/// Where a record stands against the chain from the last message.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Branch {
    /// On the chain.
    Chain,
    /// Off it, but no turn of the conversation: a hook's progress hanging from the chain.
    Neutral,
    /// Off it and kept: another tool's result or another block of a reply on the chain (parallel
    /// tool calls branch so), or a tree of its own (a conversation before a `/clear`).
    Side,
    /// On a branch the user left: rewound.
    Away,
}

/// Which records survive (see [`read_claude_code`]). The chain runs from the last message back
/// through each `parentUuid`. A record off it is rewound when its branch leaves the chain at a
/// message of the conversation's own (a prompt the user typed, a reply of a new message id),
/// not when it is a parallel tool call's result or another block of a reply on the chain; a
/// record whose parent is not in the log, or that starts a tree of its own, is kept.
fn surviving(records: &[Record]) -> Vec<bool> {
    let mut uuids = Vec::new();
    for (index, record) in records.iter().enumerate() {
        if let Some(uuid) = &record.uuid {
            uuids.push((uuid.as_str(), index));
        }
    }
    let by_uuid = Index::new(uuids);
    let mut branch = vec![Branch::Side; records.len()];
    let leaf = records.iter().rposition(|record| {
        record.uuid.is_some() && !record.sidechain && !matches!(record.what, What::Other)
    });
    let Some(leaf) = leaf else {
        return vec![true; records.len()];
    };
    // The chain, and the message ids of the replies on it.
    let mut replies = Vec::new();
    let mut at = leaf;
    for _ in 0..records.len() {
        let Some(record) = records.get(at) else { break };
        if let Some(slot) = branch.get_mut(at) {
            *slot = Branch::Chain;
        }
        if let What::Message { id: Some(id), .. } = &record.what {
            replies.push((id.as_str(), at));
        }
        let Some(parent) = &record.parent else { break };
        match by_uuid.last(parent) {
            Some(next) if next < at => at = next,
            // A link that is missing (a broken line) or points forward: the chain goes on from
            // the line before, as it most often was.
            _ => {
                let before = records
                    .get(..at)
                    .unwrap_or_default()
                    .iter()
                    .rposition(|r| r.uuid.is_some() && !r.sidechain);
                match before {
                    Some(before) => at = before,
                    None => break,
                }
            }
        }
    }
    let replies = Index::new(replies);
    for (index, record) in records.iter().enumerate() {
        if index > leaf || record.sidechain || record.uuid.is_none() {
            continue; // after the last message, a subagent's, or no link: kept
        }
        if branch.get(index) == Some(&Branch::Chain) {
            continue;
        }
        let parent = record
            .parent
            .as_deref()
            .and_then(|parent| by_uuid.last(parent))
            .filter(|&parent| parent < index)
            .and_then(|parent| branch.get(parent).copied());
        let here = match parent {
            // Off the chain here: a hook's progress, a parallel call's result or another block
            // of a reply on the chain is kept; anything else of the conversation was left.
            Some(Branch::Chain | Branch::Neutral) => match &record.what {
                What::Other => Branch::Neutral,
                What::Message {
                    assistant: true,
                    id: Some(id),
                    ..
                } if !replies.all(id).is_empty() => Branch::Side,
                What::Message {
                    assistant: false,
                    parts,
                    ..
                } if !parts.is_empty()
                    && parts
                        .iter()
                        .all(|part| matches!(part.content, Content::ToolResult(_))) =>
                {
                    Branch::Side
                }
                _ => Branch::Away,
            },
            Some(Branch::Away) => Branch::Away,
            // Below a kept side record, or from no record of this log: kept.
            Some(Branch::Side) | None => Branch::Side,
        };
        if let Some(slot) = branch.get_mut(index) {
            *slot = here;
        }
    }
    branch.into_iter().map(|b| b != Branch::Away).collect()
}

/// What the reading of a Claude Code log looks up: the lines of each reply by its message id,
/// the replies that thought, and the texts the user typed.
struct Lookups<'a> {
    replies: Index<'a>,
    thought: Index<'a>,
    typed: Index<'a>,
}

/// A reply whose lines are still coming: its message id, its parts so far, and the counts of
/// its last line.
struct Reply {
    id: Option<String>,
    parts: Vec<Part>,
    tokens: Option<f64>,
    sent: Option<u32>,
}

/// A Claude Code conversation being read, with the reply whose lines are still coming.
#[derive(Default)]
struct Reading {
    reply: Option<Reply>,
}

impl Reading {
    /// Ends the reply being read, if any.
    fn flush(&mut self, out: &mut Builder) {
        if let Some(reply) = self.reply.take() {
            out.message("assistant", reply.parts, reply.tokens);
            if let Some(tokens) = reply.sent {
                out.sent.push(SentTokens {
                    turn: out.turns.len(),
                    tokens,
                });
            }
        }
    }

    fn read(&mut self, out: &mut Builder, index: usize, record: &Record, seen: &Lookups) {
        match &record.what {
            What::Other => out.skipped += 1,
            What::Message {
                assistant: true,
                parts,
                id,
                usage,
                ..
            } => {
                let same = matches!(&self.reply, Some(open) if open.id.is_some() && open.id == *id);
                if !same {
                    self.flush(out);
                    self.reply = Some(Reply {
                        id: id.clone(),
                        parts: Vec::new(),
                        tokens: None,
                        sent: None,
                    });
                }
                if let Some(reply) = &mut self.reply {
                    reply.parts.extend(parts.iter().map(|part| Part {
                        content: part.content.clone(),
                        id: part.id.clone(),
                    }));
                    let is_last = id
                        .as_deref()
                        .and_then(|id| seen.replies.last(id))
                        .map_or(true, |line| line == index);
                    let thought = id
                        .as_deref()
                        .is_some_and(|id| !seen.thought.all(id).is_empty());
                    if let (true, Some(usage)) = (is_last, usage) {
                        reply.tokens = usage.output.filter(|_| !thought).map(f64::from);
                        reply.sent = usage.sent;
                    }
                    if is_last && id.is_some() {
                        self.flush(out);
                    }
                }
            }
            What::Message { parts, .. } => {
                self.flush(out);
                let parts = parts
                    .iter()
                    .map(|part| Part {
                        content: part.content.clone(),
                        id: part.id.clone(),
                    })
                    .collect();
                out.message("user", parts, None);
            }
            What::Command(said) => {
                self.flush(out);
                out.turn("user", said.clone(), None, Who::User, None);
            }
            What::Queued(said) => {
                if !seen.typed.all(said).is_empty() {
                    out.skipped += 1;
                } else {
                    self.flush(out);
                    out.turn("user", said.clone(), None, Who::User, None);
                }
            }
            What::Boundary { trigger, pre, post } => {
                self.flush(out);
                out.compactions.push(LogCompaction {
                    turn: out.turns.len(),
                    trigger: trigger.clone(),
                    pre_tokens: *pre,
                    post_tokens: *post,
                    summary: String::new(),
                });
            }
            What::Summary(summary) => {
                self.flush(out);
                let turn = out.turns.len();
                match out.compactions.last_mut() {
                    Some(last) if last.turn == turn && last.summary.is_empty() => {
                        last.summary = summary.clone();
                    }
                    _ => out.compactions.push(LogCompaction {
                        turn,
                        trigger: "unknown".into(),
                        pre_tokens: None,
                        post_tokens: None,
                        summary: summary.clone(),
                    }),
                }
            }
        }
    }
}

// Codex --------------------------------------------------------------------------------------

/// A Codex CLI session file (`~/.codex/sessions/…/rollout-….jsonl`): one `{ timestamp, type,
/// payload }` a line (codex-rs/protocol, `RolloutLine`); older files have the response items
/// bare, one a line.
///
/// `response_item` lines carry the conversation (`message`, `function_call`,
/// `function_call_output`, `custom_tool_call`, `custom_tool_call_output`, `local_shell_call`);
/// the assistant's items in a row are one reply. A `token_count` event's
/// `info.last_token_usage` counts that reply: its `output_tokens` (in older files, the event's
/// own `output_tokens`) are the reply's, its `input_tokens` what the model was sent
/// ([`SentTokens`]). A `compacted` line is a [`LogCompaction`] (Codex does not record what set it
/// off; its `pre_tokens` are the last request's `total_tokens`), not a turn. The rest
/// (`session_meta`, `turn_context`, other events, `context_compacted`, reasoning) are passed
/// over.
pub(crate) fn read_codex(text: &str) -> Result<Imported, Error> {
    let mut out = Builder::default();
    let mut seen = Seen::default();
    // The assistant's reply still growing, and the last request's total tokens.
    let mut reply: Option<Vec<Part>> = None;
    let mut last_total: Option<u32> = None;
    let flush = |out: &mut Builder, reply: &mut Option<Vec<Part>>, tokens: Option<f64>| {
        if let Some(parts) = reply.take() {
            out.message("assistant", parts, tokens);
        }
    };
    each_record(text, &mut out, &mut |out, line, event| {
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
                out.skipped += 1; // an older file's session header or state line
                return Ok(());
            }
        };
        let at = text!(place, ": payload");
        match kind {
            "response_item" => match codex_item(&at, payload, &mut seen)? {
                Some((role, parts)) if role == "assistant" => {
                    reply.get_or_insert_with(Vec::new).extend(parts);
                }
                Some((role, parts)) => {
                    flush(out, &mut reply, None);
                    out.message(&role, parts, None);
                }
                None => out.skipped += 1,
            },
            "compacted" => {
                let summary = string(&at, "message", payload.get("message"))?;
                flush(out, &mut reply, None);
                out.compactions.push(LogCompaction {
                    turn: out.turns.len(),
                    trigger: "unknown".into(),
                    pre_tokens: last_total,
                    post_tokens: None,
                    summary,
                });
            }
            "event_msg" if payload.get("type").and_then(Json::as_str) == Some("token_count") => {
                // Older Codex wrote the counts flat, without `info`.
                let (usage, field) = match payload.get("info") {
                    Some(info) => (info.get("last_token_usage"), "info.last_token_usage."),
                    None => (Some(payload), ""),
                };
                let field = |key: &str| text!(field, key);
                let get = |key: &str| usage.and_then(|usage| usage.get(key));
                let output = count(&at, &field("output_tokens"), get("output_tokens"))?;
                let input = count(&at, &field("input_tokens"), get("input_tokens"))?;
                let total = count(&at, &field("total_tokens"), get("total_tokens"))?;
                if let Some(total) = total.or_else(|| Some(input?.saturating_add(output?))) {
                    last_total = Some(total);
                }
                if reply.is_some() {
                    flush(out, &mut reply, output.map(f64::from));
                    if let Some(tokens) = input {
                        out.sent.push(SentTokens {
                            turn: out.turns.len(),
                            tokens,
                        });
                    }
                } else {
                    out.skipped += 1;
                }
            }
            _ => out.skipped += 1,
        }
        Ok(())
    });
    flush(&mut out, &mut reply, None);
    out.finish(Format::Codex, Vec::new())
}

// Gemini CLI ---------------------------------------------------------------------------------

/// A Gemini CLI message, read: what it holds as turns, and its token counts.
struct GeminiMessage {
    role: &'static str,
    parts: Vec<Part>,
    output: Option<u32>,
    sent: Option<u32>,
}

/// The text of a Gemini `PartListUnion` (a string, a part, or a list of parts): each part's
/// `text`, or a function response's `response.output` (else the response as JSON).
fn gemini_text(value: &Json, out: &mut String) {
    match value {
        Json::String(text) => join(out, text),
        Json::Array(parts) => {
            for part in parts {
                gemini_text(part, out);
            }
        }
        Json::Object(_) => {
            if let Some(Json::String(text)) = value.get("text") {
                if !matches!(value.get("thought"), Some(Json::Bool(true))) {
                    join(out, text);
                }
            } else if let Some(inner) = value
                .get("functionResponse")
                .and_then(|response| response.get("response"))
            {
                match inner.get("output").or_else(|| inner.get("error")) {
                    Some(Json::String(said)) => join(out, said),
                    _ => {
                        let mut json = String::new();
                        inner.to_text(&mut json);
                        join(out, &json);
                    }
                }
            }
        }
        _ => {}
    }
}

/// One Gemini CLI message record at `place`, or `None` for one of no conversation (`info`,
/// `error`, `warning`).
fn gemini_message(place: &str, record: &Json) -> Result<Option<GeminiMessage>, Error> {
    let kind = match record.get("type") {
        Some(Json::String(kind)) => kind.as_str(),
        Some(other) => return Err(wrong(place, "type", "a string", other)),
        None => {
            return Err(bad(text!(
                place,
                ".type: missing; a Gemini CLI message has a type"
            )))
        }
    };
    let role = match kind {
        "user" => "user",
        "gemini" => "assistant",
        _ => return Ok(None),
    };
    let mut said = String::new();
    if let Some(content) = record.get("content") {
        gemini_text(content, &mut said);
    }
    let mut parts = vec![Part {
        content: Content::Text(said),
        id: None,
    }];
    let mut results = Vec::new();
    if let Some(Json::Array(calls)) = record.get("toolCalls") {
        for (index, call) in calls.iter().enumerate() {
            let at = text!(place, ".toolCalls[", index, "]");
            let name = string(&at, "name", call.get("name"))?;
            let mut input = String::new();
            if let Some(args) = call.get("args") {
                args.to_text(&mut input);
            }
            let id = call.get("id").and_then(Json::as_str).map(str::to_owned);
            parts.push(Part {
                content: Content::ToolCall { name, input },
                id: id.clone(),
            });
            if let Some(result) = call.get("result").filter(|result| !result.is_null()) {
                let mut output = String::new();
                gemini_text(result, &mut output);
                results.push(Part {
                    content: Content::ToolResult(output),
                    id,
                });
            }
        }
    }
    parts.extend(results);
    let tokens = record.get("tokens").filter(|tokens| !tokens.is_null());
    let at = text!(place, ".tokens");
    Ok(Some(GeminiMessage {
        role,
        parts,
        output: count(&at, "output", tokens.and_then(|t| t.get("output")))?,
        sent: count(&at, "input", tokens.and_then(|t| t.get("input")))?,
    }))
}

/// Adds Gemini CLI messages to `out`: the model's `tokens.output` count its turn (they leave
/// out its thoughts, which the import does not carry), and its `tokens.input` are what it was
/// sent ([`SentTokens`]).
fn gemini_turns(out: &mut Builder, messages: Vec<GeminiMessage>) {
    for message in messages {
        let assistant = message.role == "assistant";
        let before = out.turns.len();
        out.message(message.role, message.parts, message.output.map(f64::from));
        // The reply's own turn comes first, before its tools' results.
        let own = out
            .roles
            .get(before)
            .is_some_and(|(who, _)| *who == Who::Assistant);
        if let (true, Some(tokens)) = (assistant, message.sent) {
            out.sent.push(SentTokens {
                turn: before + usize::from(own),
                tokens,
            });
        }
    }
}

/// A Gemini CLI session file as one JSON object (`session-….json`, before version 0.2x wrote
/// JSONL): `{ sessionId, projectHash, startTime, lastUpdated, messages: [{ id, timestamp, type:
/// "user" | "gemini" | "info" | "error" | "warning", content, toolCalls?, thoughts?, tokens? }] }`,
/// as gemini-cli's `packages/core/src/services/chatRecordingTypes.ts` (`ConversationRecord`,
/// `MessageRecord`, `ToolCallRecord`, `TokensSummary`) types it. A tool call's `result` is a
/// list of parts whose `functionResponse.response.output` is the tool's output.
pub(crate) fn read_gemini_object(record: &Json) -> Result<Imported, Error> {
    let mut out = Builder::default();
    let mut messages = Vec::new();
    if let Some(Json::Array(list)) = record.get("messages") {
        for (index, message) in list.iter().enumerate() {
            match gemini_message(&text!("messages[", index, "]"), message) {
                Ok(Some(message)) => messages.push(message),
                Ok(None) => out.skipped += 1,
                Err(error) => out.broken(index + 1, String::from(error.message())),
            }
        }
    }
    gemini_turns(&mut out, messages);
    out.finish(Format::GeminiCli, Vec::new())
}

/// A Gemini CLI session file as JSONL (`~/.gemini/tmp/<project>/chats/session-….jsonl`), read
/// as gemini-cli's own `loadConversationRecord` (packages/core/src/services/
/// chatRecordingService.ts) reads it: a first line of metadata (`sessionId`, `projectHash`);
/// message records, each written again in full when it changes (the last one of an `id` counts,
/// at the place of its first); `{"$rewindTo": id}`, which removes that message and every one
/// after it (all of them, for an id it does not know); and `{"$set": {…}}` updates, whose
/// `messages`, when not empty, replace the whole list.
pub(crate) fn read_gemini(text: &str) -> Result<Imported, Error> {
    let mut out = Builder::default();
    let mut order: Vec<(String, Option<GeminiMessage>)> = Vec::new();
    // Where `id` is in `order`: from the end, where a message written again usually is.
    let find = |order: &[(String, Option<GeminiMessage>)], id: &str| {
        order.iter().rposition(|(known, _)| known == id)
    };
    let mut replaced: Option<Vec<GeminiMessage>> = None;
    each_record(text, &mut out, &mut |out, line, record| {
        let place = text!("line ", line);
        if let Some(target) = record.get("$rewindTo").and_then(Json::as_str) {
            let from = find(&order, target).unwrap_or(0);
            let gone = order.len() - from;
            order.truncate(from);
            out.skipped += gone;
            out.rewound += gone;
            return Ok(());
        }
        if let Some(update) = record.get("$set") {
            if let Some(Json::Array(list)) = update.get("messages") {
                if !list.is_empty() {
                    let mut messages = Vec::new();
                    for (index, message) in list.iter().enumerate() {
                        let place = text!(place, ": $set.messages[", index, "]");
                        if let Some(message) = gemini_message(&place, message)? {
                            messages.push(message);
                        }
                    }
                    replaced = Some(messages);
                }
            }
            out.skipped += 1;
            return Ok(());
        }
        let Some(id) = record.get("id").and_then(Json::as_str) else {
            out.skipped += 1; // the metadata line
            return Ok(());
        };
        let message = gemini_message(&place, &record)?;
        match find(&order, id) {
            Some(index) => {
                if let Some(slot) = order.get_mut(index) {
                    slot.1 = message;
                }
                out.skipped += 1; // an earlier state of the same message
            }
            None => order.push((id.to_owned(), message)),
        }
        Ok(())
    });
    let messages = match replaced {
        Some(messages) => messages,
        None => {
            let mut messages = Vec::new();
            for (_, message) in order {
                match message {
                    Some(message) => messages.push(message),
                    None => out.skipped += 1,
                }
            }
            messages
        }
    };
    gemini_turns(&mut out, messages);
    out.finish(Format::GeminiCli, Vec::new())
}
