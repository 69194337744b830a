//! The compaction policies of real agent frameworks, replayed on our session with the same
//! scripted summaries and word-count tokens, so that the playground can set them side by side.
//!
//! Each type names its source (framework and setting) and what our version simplifies. Where a
//! framework asks an LLM for a summary, ours uses the script's summary lines, so every run is
//! deterministic; where a summary is rewritten, [`rewrite`] keeps the old summary's key terms and
//! appends the new summaries, capped at a number of words from the newest end.

use crate::compaction::policy::key_terms;
use crate::compaction::script::Kind;
use crate::compaction::{Compaction, CompactionPolicy, Line, Script, SessionConfig, Window};
use crate::units::Tokens;

/// **Letta** (MemGPT): a sliding window with a recursive summary.
///
/// When the window passes 100% of the budget, the oldest messages are evicted until the rest
/// fits in 70% of it: first 30% of the messages, then 40%, and so on in steps of 10%, cutting only
/// at a turn boundary. One summary line is then rewritten from the old summary plus the evicted
/// turns. Ours: the summary is [`rewrite`] capped at 20% of the budget (dropping the oldest words),
/// kept as the one WARM line.
#[derive(Clone, Copy, Debug, Default)]
pub struct SlidingWindow;

impl CompactionPolicy for SlidingWindow {
    fn compact(
        &mut self,
        window: &mut Window,
        script: &Script,
        config: &SessionConfig,
    ) -> Option<Compaction> {
        let budget = config.budget().0;
        if window.tokens().0 <= budget {
            return None;
        }
        let target = budget * 7 / 10;
        let cap = (budget / 5).max(1) as usize;
        let turns: Vec<u32> = window.verbatim().collect();
        let old = window.warm().last().cloned();
        if turns.is_empty() {
            return Some(Compaction::default());
        }
        let tokens_of = |n: &u32| script.turn(*n).map_or(Tokens(0), |t| t.tokens());
        let verbatim = window.verbatim_tokens();
        // Evict 30%, 40%, ... 100% of the messages until the rest fits in 70% of the budget.
        let mut chosen = (turns.len(), None);
        for tenths in 3..=10 {
            let evict = (turns.len() * tenths).div_ceil(10).clamp(1, turns.len());
            let summary = rewrite(old.as_ref(), script, &turns[..evict], cap);
            let evicted = turns[..evict]
                .iter()
                .map(tokens_of)
                .fold(Tokens(0), |a, b| a + b);
            let summary_tokens = summary.as_ref().map_or(Tokens(0), |line| line.tokens);
            let fits = ((verbatim - evicted) + summary_tokens).0 <= target;
            chosen = (evict, summary);
            if fits {
                break;
            }
        }
        let (evict, summary) = chosen;
        let mut step = Compaction::default();
        for &number in &turns[..evict] {
            window.pop_verbatim();
            step.record(script, number);
        }
        while window.pop_warm().is_some() {}
        if let Some(line) = summary {
            window.push_warm(line);
        }
        Some(step)
    }
}

/// **LangChain** `ConversationSummaryBufferMemory` with `max_token_limit` = the budget.
///
/// When the verbatim buffer passes the limit, the oldest turns are popped into a moving summary
/// until the buffer fits. The summary is *not* counted against the limit, so the real window can
/// exceed the budget; that is a known complaint about this class, and the playground shows it.
/// Ours: the moving summary is the popped turns' summary lines, appended (chatter adds nothing).
#[derive(Clone, Copy, Debug, Default)]
pub struct SummaryBuffer;

impl CompactionPolicy for SummaryBuffer {
    fn compact(
        &mut self,
        window: &mut Window,
        script: &Script,
        config: &SessionConfig,
    ) -> Option<Compaction> {
        if window.verbatim_tokens() <= config.budget() {
            return None;
        }
        let mut step = Compaction::default();
        let (mut turns, mut text) = window
            .warm()
            .last()
            .map_or((Vec::new(), String::new()), |line| {
                (line.turns.clone(), line.text.clone())
            });
        while window.verbatim_tokens() > config.budget() {
            let Some(number) = window.pop_verbatim() else {
                break;
            };
            match script.turn(number).and_then(|t| t.summary()) {
                Some(summary) => {
                    if !text.is_empty() {
                        text.push(' ');
                    }
                    text.push_str(summary);
                    turns.push(number);
                    step.to_warm.push(number);
                }
                None => step.dropped.push(number),
            }
        }
        while window.pop_warm().is_some() {}
        if !text.is_empty() {
            window.push_warm(Line::new(turns, text));
        }
        Some(step)
    }

    fn over_budget_reason(&self, window: &Window, config: &SessionConfig) -> Option<String> {
        let summary = window.tokens() - window.verbatim_tokens();
        Some(format!(
            "The summary buffer keeps its verbatim turns within the limit of {} tokens but does not \\
             count its moving summary, which adds {summary} more.",
            config.budget()
        ))
    }
}

/// **OpenAI Codex** auto-compaction: a handoff checkpoint.
///
/// At 90% of the budget the history is replaced by a handoff summary plus the most recent user
/// turns up to a cap; assistant and tool turns are dropped. Ours: user turns are the `question`
/// turns, the cap is 30% of the budget, and the handoff summary is [`rewrite`] capped at 30%.
#[derive(Clone, Copy, Debug, Default)]
pub struct HandoffCheckpoint;

impl CompactionPolicy for HandoffCheckpoint {
    fn compact(
        &mut self,
        window: &mut Window,
        script: &Script,
        config: &SessionConfig,
    ) -> Option<Compaction> {
        let budget = u64::from(config.budget().0);
        if u64::from(window.tokens().0) * 10 < budget * 9 {
            return None;
        }
        let turns: Vec<u32> = window.verbatim().collect();
        // The most recent user turns, newest first, while they fit the cap.
        let cap = budget * 3 / 10;
        let mut kept = Vec::new();
        let mut used = 0u64;
        for &number in turns.iter().rev() {
            let Some(turn) = script.turn(number) else {
                continue;
            };
            if turn.kind() != Kind::Question {
                continue;
            }
            used += u64::from(turn.tokens().0);
            if used > cap {
                break;
            }
            kept.push(number);
        }
        kept.reverse();
        let old = window.warm().last().cloned();
        let handed_off: Vec<u32> = turns
            .iter()
            .copied()
            .filter(|n| !kept.contains(n))
            .collect();
        let summary = rewrite(
            old.as_ref(),
            script,
            &handed_off,
            (budget * 3 / 10).max(1) as usize,
        );
        let mut step = Compaction::default();
        while window.pop_verbatim().is_some() {}
        while window.pop_warm().is_some() {}
        if let Some(line) = summary {
            window.push_warm(line);
        }
        for &number in &handed_off {
            step.record(script, number);
        }
        for &number in &kept {
            window.push_verbatim(
                number,
                script.turn(number).map_or(Tokens(0), |t| t.tokens()),
            );
        }
        Some(step)
    }
}

/// **Google ADK** events compaction with `compaction_interval` = 3 and `overlap_size` = 1.
///
/// Every 3 turns, the turns since the last compaction are summarised into one line, keeping an
/// overlap of 1: the newest turn stays verbatim and is summarised with the next window. Ours: the
/// line is the turns' summary lines joined; chatter is dropped. It runs on a schedule, not on the
/// budget, so the window can pass the budget between compactions.
#[derive(Clone, Copy, Debug, Default)]
pub struct Interval;

/// ADK's `compaction_interval`, in turns.
pub const INTERVAL: u32 = 3;

impl CompactionPolicy for Interval {
    fn compact(
        &mut self,
        window: &mut Window,
        script: &Script,
        _config: &SessionConfig,
    ) -> Option<Compaction> {
        let newest = window.verbatim().last()?;
        if newest % INTERVAL != 0 {
            return None;
        }
        let mut step = Compaction::default();
        let mut texts = Vec::new();
        while window.verbatim().len() > 1 {
            let Some(number) = window.pop_verbatim() else {
                break;
            };
            match script.turn(number).and_then(|t| t.summary()) {
                Some(text) => {
                    texts.push(text);
                    step.to_warm.push(number);
                }
                None => step.dropped.push(number),
            }
        }
        if !texts.is_empty() {
            window.push_warm(Line::new(step.to_warm.clone(), texts.join(" ")));
        }
        Some(step)
    }
}

/// A plain **`trim_messages`** (LangChain) keeping the last turns: the oldest turns are dropped,
/// with no summary, until the window fits, keeping at least the newest. The baseline.
#[derive(Clone, Copy, Debug, Default)]
pub struct Truncate;

impl CompactionPolicy for Truncate {
    fn compact(
        &mut self,
        window: &mut Window,
        _script: &Script,
        config: &SessionConfig,
    ) -> Option<Compaction> {
        if window.tokens() <= config.budget() {
            return None;
        }
        let mut step = Compaction::default();
        while window.tokens() > config.budget() && window.verbatim().len() > 1 {
            step.dropped.extend(window.pop_verbatim());
        }
        Some(step)
    }
}

/// A rewritten summary line: the old summary's key terms, then the summary lines of `turns`
/// (chatter has none), at most `cap` words, dropping the oldest words first. `None` when there
/// is nothing to say.
pub fn rewrite(old: Option<&Line>, script: &Script, turns: &[u32], cap: usize) -> Option<Line> {
    let mut words: Vec<&str> = Vec::new();
    let mut sources: Vec<u32> = Vec::new();
    if let Some(old) = old {
        for term in key_terms(&old.text) {
            if !words.contains(&term) {
                words.push(term);
            }
        }
        sources.extend(&old.turns);
    }
    for &number in turns {
        if let Some(summary) = script.turn(number).and_then(|t| t.summary()) {
            words.extend(summary.split_whitespace());
            sources.push(number);
        }
    }
    if words.is_empty() {
        return None;
    }
    let start = words.len().saturating_sub(cap);
    sources.sort_unstable();
    sources.dedup();
    Some(Line::new(sources, words[start..].join(" ")))
}
