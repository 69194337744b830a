//! `importConversation`: a reader's own conversation, read by the core, for JS.

use crate::prelude::*;
use js_sys::JsString;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::{js_error, to_js};

/// A pasted or fetched conversation read by the core (`import_conversation`): plain
/// `Speaker: text` lines, chat messages as OpenAI's Chat Completions or Anthropic's Messages API
/// writes them, or a Claude Code, Codex CLI or Gemini CLI session file. Returns
/// `{ format, formatName, turns, skipped, compactions, sentTokens, broken, brokenLines, rewound,
/// subagent }` (the TypeScript type `ImportedConversation` says what each holds): the turns each
/// with a kind inferred by the core's rule and the log's own token count if it has one.
/// Throws an `Error` for a text that is no format it reads, saying what was expected, or over
/// 64 MiB; a log's broken line is named in `broken`, and the rest imports.
#[wasm_bindgen(js_name = importConversation, unchecked_return_type = "ImportedConversation")]
pub fn import_conversation(text: &JsString) -> Result<JsValue, JsError> {
    // Checked before it is copied into wasm memory: each UTF-16 unit is at least one byte of
    // UTF-8, so more units than the limit are more bytes than it.
    if text.length() as usize > crate::limits::MAX_IMPORT_BYTES {
        return Err(js_error(crate::compaction::too_big()));
    }
    let read = crate::import_conversation(&String::from(text)).map_err(js_error)?;
    to_js(&ImportedConversation {
        format: read.format,
        format_name: read.format.title(),
        turns: read.turns,
        skipped: read.skipped,
        compactions: read.compactions,
        sent_tokens: read.sent_tokens,
        broken: read.broken,
        broken_lines: read.broken_lines,
        rewound: read.rewound,
        subagent: read.subagent,
    })
}

/// What `importConversation` returns.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ImportedConversation {
    format: crate::Format,
    format_name: &'static str,
    turns: Vec<crate::TurnSpec>,
    skipped: usize,
    compactions: Vec<crate::LogCompaction>,
    sent_tokens: Vec<crate::SentTokens>,
    broken: Vec<crate::BrokenLine>,
    broken_lines: usize,
    rewound: usize,
    subagent: Vec<crate::TurnSpec>,
}
