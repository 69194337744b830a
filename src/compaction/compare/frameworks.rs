//! The compaction policies of real agent frameworks, replayed on our session with the same
//! scripted summaries and word-count tokens, so that the playground can set them side by side.
//!
//! Each type cites its source (repository or package, path, commit or version) and quotes the
//! rule it follows. Two simplifications are shared by all of them, and are the only ones:
//!
//! - **Tokens are words**, as everywhere in this crate.
//! - **Summaries are the script's summary lines.** Where a framework asks an LLM to summarise
//!   some messages, ours joins the summary lines of those turns, oldest first, into one summary
//!   (chatter has none, so it adds nothing); a summary that is summarised again keeps its text.
//!   Every run is deterministic, and no summary starts in the middle of a sentence.
//!
//! Our window has no system prompt and no tool definitions, so they count 0 tokens. Each turn is
//! one message; a `tool` turn stands for the agent's tool call together with its result. Where a
//! framework's constant is a share of its model's context window, ours is the same share of the
//! budget, rounded down unless the doc comment says otherwise.

use crate::compaction::script::Role;
#[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
use crate::compaction::PolicyMemory;
use crate::compaction::{Compaction, CompactionPolicy, Line, Script, SessionConfig, Window};
use crate::error::Error;
use crate::float;
use crate::prelude::*;
use crate::queue::drop_front;
use crate::units::{Tokens, TurnNumber};

/// **Letta**'s sliding window with a recursive summary (its default compaction mode,
/// `sliding_window`).
///
/// Source: [`letta-ai/letta`](https://github.com/letta-ai/letta) at
/// `56ba9c25552605eec89de8ed3dc6394b625c1993` (its last commit with source code),
/// `letta/services/summarizer/thresholds.py`, `summarizer_sliding_window.py`,
/// `compact.py`, `summarizer_config.py`, `letta/constants.py` and `letta/agents/letta_agent_v3.py`.
///
/// - **Trigger**, after each step, at 90% of the window for every model at that commit:
///   `if self.context_token_estimate > compaction_trigger_threshold`, where the threshold is
///   `int(llm_config.context_window * SUMMARIZATION_TRIGGER_MULTIPLIER)` and the multiplier 0.9.
///   (The docstring still says 100% for models other than GPT-5; commit `98c7d10` did that.)
/// - **Where it cuts**: `eviction_percentage` starts at `sliding_window_percentage` = 0.3, and
///   `while approx_token_count >= goal_tokens and eviction_percentage < 1.0` it grows by `0.10`
///   *before* each try, so the first try evicts 40%. The cut is
///   `round(eviction_percentage * total_message_count)` over all messages (system prompt and
///   summary included), moved back to the nearest assistant message, which is kept.
///   `goal_tokens` is 70% of the window, and the fit check counts only
///   `[system_prompt, *in_context_messages[assistant_message_index:]]`: not the new summary.
/// - **What is summarised**: `in_context_messages[1:assistant_message_index]`, the old summary
///   included, into one new summary, clipped only past `clip_chars` = 50,000 characters.
/// - **Fallbacks**: no cut found, a cut at the newest message, or a loop that ran to 100% falls
///   back to summarising everything (`summarize_all`). `compact.py` then re-counts what it kept,
///   again without the summary; if that is still at the threshold, it summarises what it kept
///   (the evicted part's summary is lost), and otherwise `logger.critical(f"Failed to summarize
///   messages after fallback: ...")` and carries on. So the window can end over the budget.
///   Read again at that commit for the page's rule: `summarizer_sliding_window.py` line 200
///   summarises `in_context_messages[1:assistant_message_index]` (the old summary at index 1
///   among them) and line 232 returns `[system_prompt, *updated_in_context_messages]`, without
///   the new summary; `compact.py` lines 360 to 374 then, when that count is still at
///   `trigger_threshold`, call `summarize_all(..., in_context_messages=compacted_messages)`. So
///   the evicted turns and the old summary leave the window together, which is how the
///   airline session's reservation IFOYYZ is lost at a 60% trigger: the fallback runs whenever
///   the 70% kept is over the trigger.
///
/// Ours follows that rule step for step, with Letta's floating-point percentages and Python's
/// round-half-to-even. Assistant messages are the agent's turns; a tool turn counts as one, since
/// it holds the agent's tool call. A clipped summary is cut at a word boundary before Letta's
/// suffix `... [summary truncated to fit]`. Not modelled: when a provider rejects an
/// over-long request, Letta compacts again and retries (`max_summarizer_retries` = 3).
#[derive(Clone, Copy, Debug, Default)]
pub struct SlidingWindow;

/// Letta's `clip_chars`: the longest summary it keeps, in characters.
const LETTA_CLIP_CHARS: usize = 50_000;
/// What Letta puts after a clipped summary.
const LETTA_CLIP_SUFFIX: &str = "... [summary truncated to fit]";

impl CompactionPolicy for SlidingWindow {
    fn name(&self) -> Option<&'static str> {
        Some(crate::compaction::PolicyId::SlidingWindow.name())
    }

    fn compact(
        &mut self,
        window: &mut Window,
        script: &Script,
        config: &SessionConfig,
    ) -> Result<Option<Compaction>, Error> {
        let budget = u64::from(config.budget().0);
        let threshold = config.threshold(90);
        if u64::from(window.tokens().0) <= threshold {
            return Ok(None);
        }
        let turns: Vec<TurnNumber> = window.verbatim().collect();
        // Every policy here keeps at most one WARM line: the summary.
        let old = window.pop_warm();
        // The messages are [system prompt, summary (if any), the turns]; the first turn is at
        // index `first`, and message `i >= first` is turn `turns[i - first]`.
        let first = 1 + usize::from(old.is_some());
        let total = first + turns.len();
        let mut percentage = 0.3_f64;
        let mut kept_tokens = budget;
        let mut cut = None;
        while kept_tokens * 10 >= budget * 7 && percentage < 1.0 {
            percentage += 0.1;
            let cutoff = float::round_ties_even(percentage * total as f64) as usize;
            cut = None;
            let mut i = cutoff.min(total - 1);
            while i >= first {
                if turns
                    .get(i - first)
                    .is_some_and(|&turn| is_agent(script, turn))
                {
                    cut = Some(i - first);
                    break;
                }
                i -= 1;
            }
            if let Some(at) = cut {
                kept_tokens = u64::from(tokens_of(script, from(&turns, at)).0);
            }
        }
        let evict = match cut {
            Some(at) if percentage < 1.0 && first + at < total - 1 => {
                if u64::from(tokens_of(script, from(&turns, at)).0) >= threshold {
                    // compact.py's check after the sliding window: summarise what was kept.
                    let mut step = Compaction::default();
                    for &number in &turns {
                        window.pop_verbatim();
                        step.record(script, number);
                    }
                    let summary = summarise(None, &mut step, script, from(&turns, at));
                    replace_summary(window, summary);
                    return Ok(Some(step));
                }
                at
            }
            _ => turns.len(),
        };
        let evicted = turns.get(..evict).unwrap_or_default();
        let mut step = Compaction::default();
        for &number in evicted {
            window.pop_verbatim();
            step.record(script, number);
        }
        let summary = summarise(old, &mut step, script, evicted);
        let words = window.counter().is_words();
        replace_summary(window, summary.map(|line| clip_letta(line, words)));
        Ok(Some(step))
    }

    fn can_fail(&self) -> bool {
        false
    }

    fn over_budget_reason(&self, window: &Window, config: &SessionConfig) -> Option<String> {
        let summary = window.tokens() - window.verbatim_tokens();
        Some(text!(
            "Letta checks the fit without its new summary: the turns it kept take ",
            window.verbatim_tokens(),
            " tokens, \
             under 70% of the budget of ",
            config.budget(),
            ", but the summary adds ",
            summary,
            ", so the window holds ",
            window.tokens(),
            " tokens, over the budget. Letta logs this and carries on."
        ))
    }
}

/// A summary longer than Letta's `clip_chars` keeps its head, cut at a word boundary, and Letta's
/// suffix. `words`: the line's tokens are its words (the window counts words), so the clipped
/// line's are its old count less the words cut off, and the summary is not read again: under
/// Letta a session's summary stays near the clip, and is clipped at almost every compaction.
fn clip_letta(line: Line, words: bool) -> Line {
    // A clipped summary gains no more text (see `summarise`), so it is clipped once.
    let full = line.text();
    if full.len() <= LETTA_CLIP_CHARS || full.ends_with(LETTA_CLIP_SUFFIX) {
        return line;
    }
    let Some(end) = char_start(full, LETTA_CLIP_CHARS) else {
        return line;
    };
    let Some((head, rest)) = full.split_at_checked(end) else {
        return line;
    };
    let suffix = LETTA_CLIP_SUFFIX;
    let head = head_at_word_boundary(head, rest);
    // `head` ends at a word's edge: the words of `full` are its words and those after it.
    let tokens = match words && crate::compaction::LARGE_SESSIONS {
        true => line.tokens() - Tokens::of(full.get(head.len()..).unwrap_or_default()),
        false => Tokens::of(head),
    } + Tokens::of(suffix);
    let head = head.len();
    let space = if head == 0 { "" } else { " " };
    line.cut_back(head, space, suffix, tokens)
}

/// The byte at which character `n` (from 0) of `text` starts, if `text` has more than `n`
/// characters: `char_indices().nth(n)`, and in a build that replays sessions at real size
/// ([`LARGE_SESSIONS`](crate::compaction::LARGE_SESSIONS)) at once where the first `n` bytes are
/// ASCII, else eight bytes at a time.
fn char_start(text: &str, n: usize) -> Option<usize> {
    if !crate::compaction::LARGE_SESSIONS {
        return text.char_indices().nth(n).map(|(at, _)| at);
    }
    let bytes = text.as_bytes();
    if bytes.get(..n).is_some_and(<[u8]>::is_ascii) {
        return (bytes.len() > n).then_some(n);
    }
    // A character starts at every byte that is not a continuation byte (10xxxxxx): eight bytes
    // at a time while character `n` is further on, then byte by byte.
    let (mut seen, mut at) = (0, 0);
    for chunk in bytes.chunks_exact(8) {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        let starts = 8 - (word & !(word << 1) & 0x8080_8080_8080_8080).count_ones() as usize;
        if seen + starts > n {
            break;
        }
        (seen, at) = (seen + starts, at + 8);
    }
    for (place, &byte) in bytes.iter().enumerate().skip(at) {
        if byte & 0xC0 != 0x80 {
            if seen == n {
                return Some(place);
            }
            seen += 1;
        }
    }
    None
}

/// `head` (followed by `rest`) cut back to its last whole word, without the space after it.
fn head_at_word_boundary<'a>(head: &'a str, rest: &str) -> &'a str {
    let head = if rest.starts_with(char::is_whitespace) || head.ends_with(char::is_whitespace) {
        head
    } else {
        head.rfind(char::is_whitespace)
            .and_then(|space| head.get(..space))
            .unwrap_or("")
    };
    head.trim_end()
}

/// **LangChain** `ConversationSummaryBufferMemory` with `max_token_limit` = the budget.
///
/// Source: `langchain` 0.3.30 (PyPI), `langchain/memory/summary_buffer.py`, `prune`:
/// `while curr_buffer_length > self.max_token_limit: pruned_memory.append(buffer.pop(0))`, and the
/// pruned messages go into the moving summary. The summary is *not* counted against the limit, so
/// the real window can exceed the budget; the playground shows it. Ours: the moving summary is
/// the popped turns' summary lines, appended.
#[derive(Clone, Copy, Debug, Default)]
pub struct SummaryBuffer;

impl CompactionPolicy for SummaryBuffer {
    fn name(&self) -> Option<&'static str> {
        Some(crate::compaction::PolicyId::SummaryBuffer.name())
    }

    fn compact(
        &mut self,
        window: &mut Window,
        script: &Script,
        config: &SessionConfig,
    ) -> Result<Option<Compaction>, Error> {
        let limit = config.threshold(100);
        if u64::from(window.verbatim_tokens().0) <= limit {
            return Ok(None);
        }
        let mut step = Compaction::default();
        let mut summary = window
            .pop_warm()
            .unwrap_or_else(|| Line::new(Vec::new(), String::new()));
        while u64::from(window.verbatim_tokens().0) > limit {
            let Some(number) = window.pop_verbatim() else {
                break;
            };
            if let Some(text) = step.record(script, number) {
                summary.append(number, text);
            }
        }
        replace_summary(window, (!summary.text().is_empty()).then_some(summary));
        Ok(Some(step))
    }

    fn can_fail(&self) -> bool {
        false
    }

    fn over_budget_reason(&self, window: &Window, config: &SessionConfig) -> Option<String> {
        let summary = window.tokens() - window.verbatim_tokens();
        Some(text!(
            "The summary buffer keeps its verbatim turns within the limit of ",
            config.budget(),
            " tokens but does not \
             count its moving summary, which adds ",
            summary,
            " more."
        ))
    }
}

/// **OpenAI Codex** auto-compaction: a handoff summary plus the newest user messages.
///
/// Sources: [`openai/codex`](https://github.com/openai/codex) at
/// `e06dd0e5d5694c24968bf49b62466cdedae04aaa`, one commit for both: `codex-rs/core/src/compact.rs`
/// (what stays) and `codex-rs/protocol/src/openai_models.rs` (the trigger,
/// `ModelInfo::auto_compact_token_limit`, whose `ModelInfo` `compact.rs` reads): the page and
/// [`FRAMEWORK_SETTINGS`](crate::FRAMEWORK_SETTINGS) cite that commit alone. This is the local path
/// (`run_inline_auto_compact_task`); for OpenAI's own provider Codex compacts on the server
/// instead (`should_use_remote_compact_task`), which cannot be replayed.
///
/// - **Trigger**: `if total_usage_tokens >= auto_compact_limit`, with the limit
///   `(context_window * 9) / 10`, or a configured one if that is lower.
/// - **What is summarised**: the whole history, the previous summary included: the model writes
///   a handoff summary, which replaces the history.
/// - **What stays verbatim**: `collect_user_messages` keeps every real user message (it drops
///   only earlier summaries), newest first, while they fit `COMPACT_USER_MESSAGE_MAX_TOKENS`
///   = 20,000: `if tokens <= remaining { selected_messages.push(..) } else { truncate_text(message,
///   TruncationPolicy::Tokens(remaining)); break; }`. Assistant and tool turns go.
///
/// Ours: the budget stands for GPT-5-Codex's 272,000-token window, of which 20,000 tokens is
/// 7.35%, so the user messages get
/// `budget × 20,000 / 272,000` tokens, rounded to the nearest whole token (3 of 40). Codex's
/// summary is whatever the model writes, so it has no cap here either: it is the old summary
/// followed by the summary lines of every turn not yet in it. A user message cut to fit keeps its
/// first `remaining / 2` and last words with one `…` word between them, where Codex keeps a head
/// and a tail around `…N tokens truncated…`. The page lists the summary above the user messages;
/// Codex puts it after them.
#[derive(Clone, Copy, Debug, Default)]
pub struct HandoffCheckpoint;

/// Codex's `COMPACT_USER_MESSAGE_MAX_TOKENS`.
const CODEX_USER_MESSAGE_TOKENS: u64 = 20_000;
/// The context window of GPT-5-Codex, which `COMPACT_USER_MESSAGE_MAX_TOKENS` is a share of.
const CODEX_CONTEXT_WINDOW: u64 = 272_000;

impl CompactionPolicy for HandoffCheckpoint {
    fn name(&self) -> Option<&'static str> {
        Some(crate::compaction::PolicyId::Handoff.name())
    }

    fn compact(
        &mut self,
        window: &mut Window,
        script: &Script,
        config: &SessionConfig,
    ) -> Result<Option<Compaction>, Error> {
        let budget = u64::from(config.budget().0);
        if u64::from(window.tokens().0) < config.threshold(90) {
            return Ok(None);
        }
        let turns: Vec<TurnNumber> = window.verbatim().collect();
        let mut step = Compaction::default();
        // The kept user messages are in the old summary already: summarise skips them. (The
        // summary covers every turn, the user messages kept verbatim too, as Codex's does.)
        let summary = summarise(window.pop_warm(), &mut step, script, &turns);
        // The newest user messages, newest first, while they fit.
        let cap =
            (budget * CODEX_USER_MESSAGE_TOKENS + CODEX_CONTEXT_WINDOW / 2) / CODEX_CONTEXT_WINDOW;
        let mut remaining = cap;
        let mut kept: Vec<(TurnNumber, Option<String>)> = Vec::new();
        for &number in turns.iter().rev() {
            if remaining == 0 {
                break;
            }
            let Some(turn) = script.turn(number) else {
                continue;
            };
            if turn.role() != Role::User {
                continue;
            }
            let cut = window.cut(number);
            let text = cut.unwrap_or(turn.text());
            let words = u64::from(cut.map_or(turn.tokens(), |cut| window.count(cut)).0);
            if words <= remaining {
                kept.push((number, cut.map(str::to_owned)));
                remaining -= words;
            } else {
                kept.push((number, Some(cut_middle(text, remaining as usize))));
                break;
            }
        }
        for &number in &turns {
            window.pop_verbatim();
            if !kept.iter().any(|(n, _)| *n == number) {
                step.record(script, number);
            }
        }
        replace_summary(window, summary);
        // Oldest first: `kept` is newest first.
        for (number, cut) in kept.into_iter().rev() {
            match cut {
                Some(text) => window.push_cut(number, text),
                None => window.push_verbatim(number, tokens_of(script, &[number])),
            }
        }
        Ok(Some(step))
    }

    fn can_fail(&self) -> bool {
        false
    }

    fn over_budget_reason(&self, window: &Window, config: &SessionConfig) -> Option<String> {
        let summary = window.tokens() - window.verbatim_tokens();
        Some(text!(
            "Codex's handoff summary has no length limit: it takes ",
            summary,
            " tokens, and the user \
             messages kept with it ",
            window.verbatim_tokens(),
            ", more than the budget of ",
            config.budget(),
            "."
        ))
    }
}

/// The first `keep / 2` and the last `keep - keep / 2` words of `text` with one `…` word between
/// them: a cut at word boundaries, marked.
fn cut_middle(text: &str, keep: usize) -> String {
    let words: Vec<&str> = crate::text::words(text).collect();
    let head = keep / 2;
    let tail = (keep - head).min(words.len());
    let mut out = String::new();
    for word in words.iter().take(head) {
        out.push_str(word);
        out.push(' ');
    }
    out.push('…');
    for word in words.iter().skip(words.len() - tail) {
        out.push(' ');
        out.push_str(word);
    }
    out
}

/// **Google ADK** sliding-window events compaction with `compaction_interval` = 3 and
/// `overlap_size` = 1.
///
/// Source: `google-adk` 1.21.0 (PyPI; [`google/adk-python`](https://github.com/google/adk-python)
/// `src/`), `google/adk/apps/compaction.py` (`_run_compaction_for_sliding_window`),
/// `google/adk/apps/app.py` (`EventsCompactionConfig`), `google/adk/runners.py` and
/// `google/adk/flows/llm_flows/contents.py` (`_process_compaction_events`).
///
/// - **Trigger**: at the end of an invocation (a user message and every reply to it; "we only
///   compact at the end of an invocation"), once enough invocations are new since the last
///   compaction: `if len(new_invocation_ids) < ...compaction_interval: return None`. Tokens and
///   budget play no part.
/// - **What is summarised**: every event from `start_idx = max(0, first_new_inv_idx -
///   overlap_size)` through the newest invocation, earlier summaries left out, into one
///   summary; the overlapped invocation is summarised again.
/// - **What stays verbatim**: only events after the newest compacted range. When the prompt is
///   built, every compaction event is kept as a summary and the raw events inside compacted
///   ranges are skipped, so all summaries stay in the window.
///
/// Ours: an invocation starts at each user turn (and at turn 1), and ends when the next turn is
/// the user's or the script ends. A range with no summary lines gives no summary (the LLM would
/// return nothing), and then no compaction event.
#[derive(Clone, Debug, Default)]
pub struct Interval {
    /// The first turn of the invocation in progress.
    open: TurnNumber,
    /// The first turns of the completed invocations that the next compaction may cover, oldest
    /// first.
    // Invariant: at most `INTERVAL + OVERLAP` entries (trimmed to `fresh + OVERLAP` as each
    // invocation completes); the last `fresh` are new since the last compaction.
    starts: Vec<TurnNumber>,
    /// Completed invocations since the last compaction.
    fresh: u32,
}

/// ADK's `compaction_interval`: new invocations per compaction.
pub const INTERVAL: u32 = 3;
/// ADK's `overlap_size`: earlier invocations summarised again with the new ones.
pub const OVERLAP: u32 = 1;

impl CompactionPolicy for Interval {
    fn name(&self) -> Option<&'static str> {
        Some(crate::compaction::PolicyId::Interval.name())
    }

    fn compact(
        &mut self,
        window: &mut Window,
        script: &Script,
        _config: &SessionConfig,
    ) -> Result<Option<Compaction>, Error> {
        let Some(newest) = window.verbatim().last() else {
            return Ok(None);
        };
        let Some(turn) = script.turn(newest) else {
            return Ok(None);
        };
        if self.open == 0 || turn.role() == Role::User {
            self.open = newest;
        }
        let next = newest
            .0
            .checked_add(1)
            .and_then(|number| script.turn(TurnNumber(number)));
        if next.is_some_and(|next| next.role() != Role::User) {
            return Ok(None); // the invocation goes on
        }
        self.starts.push(self.open);
        self.fresh += 1;
        let keep = (self.fresh + OVERLAP) as usize;
        if self.starts.len() > keep {
            let spent = self.starts.len() - keep;
            drop_front(&mut self.starts, spent);
        }
        if self.fresh < INTERVAL {
            return Ok(None);
        }
        let first_new = self.starts.len() - self.fresh as usize;
        let Some(&start) = self.starts.get(first_new.saturating_sub(OVERLAP as usize)) else {
            return Ok(None);
        };
        let range: Vec<TurnNumber> = (start.0..=newest.0).map(TurnNumber).collect();
        let mut step = Compaction::default();
        let Some(line) = summarise(None, &mut step, script, &range) else {
            return Ok(None);
        };
        self.fresh = 0;
        // Only the overlap's invocations can be summarised again, so a save holds at most those.
        let spent = self.starts.len().saturating_sub(OVERLAP as usize);
        drop_front(&mut self.starts, spent);
        while let Some(number) = window.pop_verbatim() {
            step.record(script, number);
        }
        window.push_warm(line);
        Ok(Some(step))
    }

    fn reset(&mut self) {
        *self = Interval::default();
    }

    #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
    /// The first turn of the oldest invocation its next compaction may summarise again.
    fn reads_back_to(&self) -> Option<TurnNumber> {
        match self.starts.first() {
            Some(&start) if self.open != TurnNumber(0) => Some(start.min(self.open)),
            Some(&start) => Some(start),
            None => (self.open != TurnNumber(0)).then_some(self.open),
        }
    }

    #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
    /// `turns`: the invocation in progress, then the starts of the completed ones; `count`:
    /// how many of these are new since the last compaction.
    fn memory(&self) -> PolicyMemory {
        let mut memory = PolicyMemory::default();
        memory.turns.push(self.open);
        memory.turns.extend_from_slice(&self.starts);
        memory.count = self.fresh;
        memory
    }

    #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
    fn restore_memory(&mut self, memory: &PolicyMemory) -> Result<(), Error> {
        let Some((&open, starts)) = memory.turns.split_first() else {
            return match memory.is_empty() {
                true => Ok(()),
                false => Err(memory.unexpected()),
            };
        };
        let bound = (INTERVAL.max(memory.count) + OVERLAP) as usize;
        if !memory.texts.is_empty() || starts.len() > bound {
            return Err(memory.unexpected());
        }
        self.open = open;
        self.starts = starts.to_vec();
        self.fresh = memory.count;
        Ok(())
    }

    fn can_fail(&self) -> bool {
        false
    }

    fn over_budget_reason(&self, window: &Window, config: &SessionConfig) -> Option<String> {
        Some(text!(
            "ADK compacts every ",
            INTERVAL,
            " user invocations whatever the budget, and keeps every \
             summary: its summaries and the turns since take ",
            window.tokens(),
            " tokens, more than the budget of ",
            config.budget(),
            "."
        ))
    }
}

/// A plain **`trim_messages`** keeping the last turns: the oldest turns are dropped, with no
/// summary, until the window fits, keeping at least the newest. The baseline.
///
/// Source: `langchain-core` 0.3.85 (PyPI, the oldest that `langchain` 0.3.30 accepts: one LangChain
/// everywhere), `langchain_core/messages/utils.py`, `trim_messages`
/// with `strategy="last"` and `max_tokens` = the budget. Ours never cuts a turn in part
/// (`allow_partial=False`, its default). Where the newest turn alone is over the budget,
/// `trim_messages` would return no messages at all; ours keeps that turn and says so.
#[derive(Clone, Copy, Debug, Default)]
pub struct Truncate;

impl CompactionPolicy for Truncate {
    fn name(&self) -> Option<&'static str> {
        Some(crate::compaction::PolicyId::Truncate.name())
    }

    fn compact(
        &mut self,
        window: &mut Window,
        _script: &Script,
        config: &SessionConfig,
    ) -> Result<Option<Compaction>, Error> {
        let limit = config.threshold(100);
        if u64::from(window.tokens().0) <= limit {
            return Ok(None);
        }
        let mut step = Compaction::default();
        while u64::from(window.tokens().0) > limit && window.verbatim().len() > 1 {
            step.dropped.extend(window.pop_verbatim());
        }
        Ok(Some(step))
    }

    fn can_fail(&self) -> bool {
        false
    }
}

/// **Observation masking**, the baseline of Lindenbauer et al., "The Complexity Trap: Simple
/// Observation Masking Is as Efficient as LLM Summarization for Agent Context Management"
/// (DL4C workshop at NeurIPS 2025, [arXiv 2508.21433](https://arxiv.org/abs/2508.21433)). On
/// SWE-bench Verified, masking old tool outputs while keeping the agent's reasoning and actions
/// halved the cost of a raw agent and matched LLM summarisation's solve rate.
///
/// Source: the paper runs SWE-agent with its `LastNObservations` history processor,
/// [`SWE-agent/SWE-agent`](https://github.com/SWE-agent/SWE-agent) at
/// `3ea751c087f32b16e039a2233dd6eefecef325d5`, `sweagent/agent/history_processors.py`:
/// "Elide all but the last n observations", where each elided one becomes
/// `"Old environment output: ({num_text_lines} lines omitted)"`. It runs before every model call,
/// with no token trigger, and the paper's configuration sets `n: 10` (the replication's
/// `config/default_no_demo_N=1_M=10.yaml`).
///
/// Ours masks at every turn, whatever the budget, and keeps the newest **1** tool output: the
/// refund desk has three in ten turns, so keeping 10 would mask nothing. Our tool turn holds the
/// tool call and its output together, so the placeholder stands for both; it reads
/// `[tool output of turn 3 omitted]`. SWE-agent never masks its first observation, which is the
/// task statement; ours has no such turn. Nothing is summarised or dropped, so the window can stay
/// over the budget.
///
/// Each turn costs O(log n): a new tool output masks the one before it, which was the newest,
/// so every older one is masked already.
#[derive(Clone, Copy, Debug, Default)]
pub struct ObservationMasking {
    /// The newest tool output so far, the one kept verbatim.
    newest_tool: Option<TurnNumber>,
}

impl CompactionPolicy for ObservationMasking {
    fn name(&self) -> Option<&'static str> {
        Some(crate::compaction::PolicyId::ObservationMasking.name())
    }

    fn compact(
        &mut self,
        window: &mut Window,
        script: &Script,
        _config: &SessionConfig,
    ) -> Result<Option<Compaction>, Error> {
        let Some(newest) = window.verbatim().next_back() else {
            return Ok(None);
        };
        if !script
            .turn(newest)
            .is_some_and(|turn| turn.role() == Role::Tool)
        {
            return Ok(None);
        }
        let Some(older) = self.newest_tool.replace(newest) else {
            return Ok(None);
        };
        Ok(window
            .replace_verbatim(older, text!("[tool output of turn ", older, " omitted]"))
            .then(Compaction::default))
    }

    fn reset(&mut self) {
        self.newest_tool = None;
    }

    #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
    fn memory(&self) -> PolicyMemory {
        let mut memory = PolicyMemory::default();
        memory.turns.extend(self.newest_tool);
        memory
    }

    #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
    fn restore_memory(&mut self, memory: &PolicyMemory) -> Result<(), Error> {
        match (
            memory.turns.as_slice(),
            memory.texts.is_empty(),
            memory.count,
        ) {
            ([], true, 0) => self.newest_tool = None,
            (&[turn], true, 0) => self.newest_tool = Some(turn),
            _ => return Err(memory.unexpected()),
        }
        Ok(())
    }

    fn can_fail(&self) -> bool {
        false
    }

    fn over_budget_reason(&self, window: &Window, config: &SessionConfig) -> Option<String> {
        Some(text!(
            "Observation masking only hides old tool outputs; it never summarises or drops a \
             turn, so the window keeps ",
            window.tokens(),
            " tokens, more than the budget of ",
            config.budget(),
            "."
        ))
    }
}

/// `turns` from `at` on (empty past the end). `get`, not `&turns[at..]`: a slice index brings
/// core's panic and its messages into the wasm (ARCHITECTURE.md, "No panic paths of our own").
fn from(turns: &[TurnNumber], at: usize) -> &[TurnNumber] {
    turns.get(at..).unwrap_or_default()
}

/// Whether turn `number` comes from the agent's side: its message or its tool call.
fn is_agent(script: &Script, number: TurnNumber) -> bool {
    script
        .turn(number)
        .is_some_and(|turn| turn.role() != Role::User)
}

/// The verbatim token count of `turns`.
fn tokens_of(script: &Script, turns: &[TurnNumber]) -> Tokens {
    let mut sum = Tokens(0);
    for &number in turns {
        if let Some(turn) = script.turn(number) {
            sum += turn.tokens();
        }
    }
    sum
}

/// One summary of `old` (if any) and `turns`: the old text, then the summary line of each turn
/// it does not cover yet (chatter has none; read through `step`, which notes a summary not yet
/// written), and every source turn. `None` when there is nothing
/// to say. The old line is extended in place, so a summary that grows with the session costs
/// only what it gains at each compaction. A summary Letta clipped keeps its head: once clipped it
/// gains sources but no text.
fn summarise(
    old: Option<Line>,
    step: &mut Compaction,
    script: &Script,
    turns: &[TurnNumber],
) -> Option<Line> {
    let mut line = old.unwrap_or_else(|| Line::new(Vec::new(), String::new()));
    let clipped = line.text().ends_with(LETTA_CLIP_SUFFIX);
    for &number in turns {
        if line.turns().binary_search(&number).is_ok() {
            continue;
        }
        if let Some(summary) = step.summary(script, number) {
            if clipped {
                line.add_turn(number);
            } else {
                line.append(number, summary);
            }
        }
    }
    (!line.text().is_empty()).then_some(line)
}

/// Replaces every WARM line of `window` with `summary`.
fn replace_summary(window: &mut Window, summary: Option<Line>) {
    window.clear_warm();
    if let Some(line) = summary {
        window.push_warm(line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_keeps_whole_words_at_both_ends_and_marks_the_gap() {
        let text = "I returned order ORD-3300. Can I get my $200.00 back?";
        assert_eq!(cut_middle(text, 3), "I … $200.00 back?");
        assert_eq!(cut_middle(text, 1), "… back?");
        assert_eq!(cut_middle(text, 4), "I returned … $200.00 back?");
    }

    #[test]
    fn a_long_summary_is_clipped_at_a_word_with_lettas_suffix() {
        let word = "refund ";
        let line = Line::new(
            vec![TurnNumber(1)],
            word.repeat(LETTA_CLIP_CHARS / word.len() + 10),
        );
        let clipped = clip_letta(line, true);
        assert!(clipped
            .text()
            .ends_with(" refund ... [summary truncated to fit]"));
        assert!(clipped.text().len() <= LETTA_CLIP_CHARS + 40);
        assert_eq!(clipped.tokens(), Tokens::of(clipped.text()));
        // A clipped summary is clipped once: clipping it again changes nothing.
        assert!(
            clip_letta(clipped.clone(), true) == clipped,
            "a clipped summary was clipped again"
        );
        // Also when the first clip fell in the middle of a word, so that a second would fall
        // inside the suffix: character 50,000 of nine-character words is a word's sixth letter.
        let text = "abcdefgh ".repeat(LETTA_CLIP_CHARS / 9 + 10);
        assert_eq!(text.as_bytes()[LETTA_CLIP_CHARS], b'f');
        let clipped = clip_letta(Line::new(vec![TurnNumber(1)], text), true);
        assert!(clipped
            .text()
            .ends_with("abcdefgh ... [summary truncated to fit]"));
        assert!(
            clip_letta(clipped.clone(), true) == clipped,
            "a summary clipped mid-word was clipped again"
        );
    }

    #[test]
    fn adk_remembers_only_the_invocation_starts_its_next_compaction_can_cover() {
        // The refund desk ten times over: 100 turns, 40 invocations, 13 compactions.
        let desk = Script::refund_desk();
        let specs = (0..10)
            .flat_map(|_| desk.turns())
            .map(|turn| crate::TurnSpec {
                speaker: Some(turn.speaker().into()),
                kind: Some(turn.kind().name().into()),
                text: Some(turn.text().into()),
                summary: turn.summary().map(Into::into),
                ..crate::TurnSpec::default()
            })
            .collect();
        let script = Script::new(specs).unwrap();
        let config = SessionConfig::default();
        let (mut interval, mut window, mut compactions) =
            (Interval::default(), Window::default(), 0);
        for (i, turn) in script.turns().iter().enumerate() {
            window.push_verbatim(TurnNumber(i as u32 + 1), turn.tokens());
            let step = interval.compact(&mut window, &script, &config).unwrap();
            compactions += u32::from(step.is_some());
            let bound = (INTERVAL + OVERLAP) as usize;
            assert!(interval.starts.len() <= bound, "after turn {}", i + 1);
        }
        assert_eq!(compactions, 13);
    }

    #[test]
    fn char_start_is_char_indices_nth() {
        for text in [
            "",
            "abc",
            "ab\u{e9}c\u{1F600}d",
            "\u{e9}\u{e9}\u{e9}",
            "a b\u{3000}c",
        ] {
            for n in 0..8 {
                let expected = text.char_indices().nth(n).map(|(at, _)| at);
                assert_eq!(char_start(text, n), expected, "{text:?} {n}");
            }
        }
    }

    #[test]
    fn a_clip_counts_the_words_it_keeps_as_a_recount_does() {
        // Multibyte characters, a cut inside a word, and JSON split into several words.
        let text = "caf\u{e9} {\"id\":\"IFOYYZ\"} r\u{e9}sum\u{e9} ".repeat(LETTA_CLIP_CHARS / 20);
        let line = Line::new(vec![TurnNumber(1)], text);
        for words in [true, false] {
            let clipped = clip_letta(line.clone(), words);
            assert!(clipped.text().ends_with(LETTA_CLIP_SUFFIX));
            assert_eq!(clipped.tokens(), Tokens::of(clipped.text()));
        }
    }

    #[test]
    fn a_clip_that_falls_on_a_space_keeps_the_word_before_it() {
        // 5,000 ten-character words and spaces: character 50,000 is the space after word 4,546.
        let text = "abcdefghi ".repeat(LETTA_CLIP_CHARS / 10 + 10);
        assert_eq!(text.as_bytes()[LETTA_CLIP_CHARS - 1], b' ');
        let shifted = format!("x{text}"); // now the clip lands just before a space
        assert_eq!(shifted.as_bytes()[LETTA_CLIP_CHARS], b' ');
        let clipped = clip_letta(Line::new(vec![TurnNumber(1)], shifted.clone()), true);
        // The whole last word before the cut stays: the text is the first 50,000 characters, a
        // space, and the suffix (compared by length and ends, not printed: it is 50 KB).
        let head = &shifted[..LETTA_CLIP_CHARS];
        let expected = format!("{head} {LETTA_CLIP_SUFFIX}");
        assert_eq!(clipped.text().len(), expected.len());
        assert!(
            clipped.text() == expected,
            "the clip lost the word before the space"
        );
        // And short summaries are left alone.
        let short = Line::new(vec![TurnNumber(1)], "refund approved");
        assert_eq!(clip_letta(short.clone(), true), short);
    }
}
