//! Compaction policies: what happens to the window after each turn is appended.

use crate::compaction::script::{Kind, Role};
use crate::compaction::{Line, Script, SessionConfig, Window};
use crate::error::Error;
use crate::prelude::*;
use crate::units::{Tokens, TurnNumber};

/// What one compaction step moved. Every list holds turn numbers, ascending.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Compaction {
    /// Turns whose summary joined WARM.
    pub to_warm: Vec<TurnNumber>,
    /// Turns whose WARM line was pushed into the COLD gist.
    pub to_cold: Vec<TurnNumber>,
    /// Chatter turns dropped from the window.
    pub dropped: Vec<TurnNumber>,
    /// Turns whose summary the step read before it was written (a live session's turn waits
    /// for its summary until it folds). [`Compaction::record`] and [`Compaction::summary`] note
    /// them, and give the turn's own text in the meantime; a policy that reads
    /// [`Turn::summary`](crate::Turn::summary) itself notes here a turn whose summary is `None`.
    /// The session then asks its [`Summarizer`](crate::Summarizer) for all of them in one batch
    /// and runs the step again from where it started, so no step that read a stand-in is kept.
    /// (A step that returns `None` notes nothing: return the step whenever it read a summary.)
    pub asked: Vec<TurnNumber>,
}

impl Compaction {
    /// Records that turn `number` left the verbatim window: its summary joins WARM, or, for
    /// chatter (which has none), it is dropped. Returns the summary, for the policy to place
    /// (read as [`Compaction::summary`] reads it).
    pub fn record<'s>(&mut self, script: &'s Script, number: TurnNumber) -> Option<&'s str> {
        let summary = self.summary(script, number);
        match summary {
            Some(_) => self.to_warm.push(number),
            None => self.dropped.push(number),
        }
        summary
    }

    /// The summary of turn `number`, for a step that folds it into a summary of its own
    /// without [recording](Compaction::record) it; `None` for chatter and past the script's
    /// end. A turn whose summary is not written yet is noted in
    /// [`asked`](Compaction::asked), and its text stands in for the summary.
    pub fn summary<'s>(&mut self, script: &'s Script, number: TurnNumber) -> Option<&'s str> {
        let turn = script
            .turn(number)
            .filter(|turn| turn.kind() != Kind::Chatter)?;
        match turn.summary() {
            Some(summary) => Some(summary),
            None => {
                self.asked.push(number);
                Some(turn.text())
            }
        }
    }
}

/// Keeps every tool result with its call, after a policy's step (`compaction`, `None` when it
/// ran none): a result ([`Role::Tool`] with a [`tool_call_id`](crate::Turn::tool_call_id))
/// whose call, the earlier turn with the same id, is not verbatim in the window leaves it too.
/// Its summary joins the newest WARM line, where its call's summary is when both folded in one
/// step, or it is dropped when the window holds no WARM or COLD line (a policy that dropped
/// the call). `verbatim` is how many verbatim turns the window held before the step.
///
/// The whole window is read only when the step took verbatim turns out; otherwise only the
/// newest turn can have lost its call, and its call is looked for from the newest turn back.
pub(crate) fn keep_pairs(
    window: &mut Window,
    script: &Script,
    compaction: Option<Compaction>,
    verbatim: usize,
) -> Option<Compaction> {
    if !TOOL_CALLS {
        return compaction;
    }
    let folded = window.verbatim().len() < verbatim
        || compaction
            .as_ref()
            .is_some_and(|step| !step.to_warm.is_empty() || !step.dropped.is_empty());
    let orphans = match folded {
        true => orphans(window, script),
        false => newest_orphan(window, script).into_iter().collect(),
    };
    if orphans.is_empty() {
        return compaction;
    }
    let mut step = compaction.unwrap_or_default();
    for number in orphans {
        window.remove_verbatim(number);
        let summary = match window.has_lines() {
            true => step.summary(script, number),
            false => None,
        };
        match summary {
            Some(summary) => {
                window.append_warm(number, summary);
                step.to_warm.push(number);
            }
            None => step.dropped.push(number),
        }
    }
    crate::sort::sort_by(&mut step.to_warm, TurnNumber::cmp);
    crate::sort::sort_by(&mut step.dropped, TurnNumber::cmp);
    Some(step)
}

/// The id of turn `number` when it is a tool call or a tool result: `(id, is the result)`.
fn pair_id(script: &Script, number: TurnNumber) -> Option<(&str, bool)> {
    let turn = script.turn(number)?;
    Some((turn.tool_call_id()?, turn.role() == Role::Tool))
}

/// Whether a turn can have a tool-call id: not in this project's own wasm cores that only play
/// the refund desk (without `with-config`), whose turns have none, so that they carry no code
/// for tool pairs (about 1 KB of gzip). No answer changes: without an id there is no pair.
pub(crate) const TOOL_CALLS: bool = cfg!(any(
    not(all(target_arch = "wasm32", feature = "wasm-runtime")),
    feature = "with-config"
));

/// Whether turn `number` is a tool call whose result is among the newest `hot_n` verbatim turns.
fn answered(window: &Window, script: &Script, number: TurnNumber, hot_n: usize) -> bool {
    if !TOOL_CALLS {
        return false;
    }
    let Some((id, false)) = pair_id(script, number) else {
        return false;
    };
    window
        .verbatim()
        .rev()
        .take(hot_n)
        .any(|other| pair_id(script, other) == Some((id, true)))
}

/// The verbatim tool results whose call is not verbatim before them, oldest first.
fn orphans(window: &Window, script: &Script) -> Vec<TurnNumber> {
    let mut calls: Vec<&str> = Vec::new();
    let mut orphans = Vec::new();
    for number in window.verbatim() {
        match pair_id(script, number) {
            Some((id, true)) if !calls.contains(&id) => orphans.push(number),
            Some((id, false)) => calls.push(id),
            _ => {}
        }
    }
    orphans
}

/// The newest verbatim turn, when it is a tool result whose call is not verbatim.
fn newest_orphan(window: &Window, script: &Script) -> Option<TurnNumber> {
    let mut turns = window.verbatim().rev();
    let newest = turns.next()?;
    let (id, true) = pair_id(script, newest)? else {
        return None;
    };
    let called = turns.any(|number| pair_id(script, number) == Some((id, false)));
    (!called).then_some(newest)
}

/// A boxed copy of a policy, for [`CompactionPolicy`]'s supertrait: any policy that is
/// `Clone` has it.
pub trait ClonePolicy {
    /// A copy of the policy, its own memory included.
    fn clone_box(&self) -> Box<dyn CompactionPolicy>;
}

impl<T: CompactionPolicy + Clone + 'static> ClonePolicy for T {
    fn clone_box(&self) -> Box<dyn CompactionPolicy> {
        Box::new(self.clone())
    }
}

impl Clone for Box<dyn CompactionPolicy> {
    fn clone(&self) -> Box<dyn CompactionPolicy> {
        (**self).clone_box()
    }
}

/// A compaction policy: after each appended turn it may rearrange the window.
///
/// The [`Session`](crate::Session) owns the turns, the token counts and the record of every
/// step; a policy only decides what moves. That keeps policies small and lets the same session
/// replay under each of them. A policy is `Clone` (through [`ClonePolicy`]): a session copies it
/// to compact on a copy, to be cloned, and to step back.
///
/// A policy that calls a model can fail: `compact` returns an [`Error`], and the session is left
/// exactly as it was before the push (window, log, script and the policy's own memory).
///
/// # Example
///
/// A policy that never compacts, so the window grows without bound:
///
/// ```
/// use agent_memory_widgets::{Compaction, CompactionPolicy, Error, Script, Session, SessionConfig, Window};
///
/// #[derive(Clone)]
/// struct Hoard;
///
/// impl CompactionPolicy for Hoard {
///     fn compact(&mut self, _: &mut Window, _: &Script, _: &SessionConfig) -> Result<Option<Compaction>, Error> {
///         Ok(None)
///     }
/// }
///
/// let mut session = Session::with_policy(SessionConfig::default(), Script::refund_desk(), Box::new(Hoard));
/// while session.add_turn().is_some() {}
/// assert!(session.state().over_budget);
/// ```
pub trait CompactionPolicy: ClonePolicy + Send + Sync {
    /// Called after every appended turn. Returns `None` when the policy did not run a step, and
    /// otherwise what the step moved (which may be nothing, when nothing could move). Read the
    /// summaries of the turns a step folds through [`Compaction::record`] or
    /// [`Compaction::summary`], so that the session knows which to ask its summarizer for.
    ///
    /// # Errors
    ///
    /// When the step cannot be taken (a model call failed, say). The push fails, and the session
    /// puts back the window and the policy as they were before the call, whatever the call did
    /// to them.
    fn compact(
        &mut self,
        window: &mut Window,
        script: &Script,
        config: &SessionConfig,
    ) -> Result<Option<Compaction>, Error>;

    /// Forgets any memory of its own, for [`Session::reset`](crate::Session::reset).
    fn reset(&mut self) {}

    /// Why the window is over budget, when the policy knows better than the session's general
    /// sentence (a policy that does not count part of the window, say).
    fn over_budget_reason(&self, _window: &Window, _config: &SessionConfig) -> Option<String> {
        None
    }

    /// Whether [`compact`](CompactionPolicy::compact) may return an error: `true` unless the
    /// policy says otherwise. For a policy that may fail, the session runs each step on a copy of
    /// the window and of the policy and keeps the copy only when the step succeeds; every built-in
    /// policy returns `false`, and is stepped in place while no summary is missing (the
    /// scripted path: a copy of a window that grows with the session would cost O(n) a turn).
    /// A policy that returns `false` and then fails leaves the window as its failed call left it.
    fn can_fail(&self) -> bool {
        true
    }

    /// The policy's stable name, which a saved session records ([`SavedSession`]) so that
    /// loading it under another policy is an error: each built-in policy's
    /// [`PolicyId`](crate::PolicyId) name (`hot-warm-cold`, `summary-buffer`, ...). `None`, the
    /// default, for a policy that gives none: its saves load under any policy.
    ///
    /// [`SavedSession`]: crate::SavedSession
    fn name(&self) -> Option<&'static str> {
        None
    }

    /// The oldest turn the policy may read again at a later step that is no longer verbatim in
    /// the window (as [`Interval`](crate::Interval) summarises an invocation again with the new
    /// ones), for a session with a retention
    /// ([`SessionConfig::with_retention`]), which keeps it. `None`, the default: the policy
    /// reads only the turns verbatim in the window.
    #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
    fn reads_back_to(&self) -> Option<TurnNumber> {
        None
    }

    /// The policy's own memory as plain data ([`PolicyMemory`]), which a session with a
    /// retention saves ([`SessionConfig::with_retention`]): it forgets old turns, so it cannot
    /// replay them to rebuild the memory when it loads. Empty, the default, for a policy without
    /// memory.
    #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
    fn memory(&self) -> PolicyMemory {
        PolicyMemory::default()
    }

    /// Takes back the memory [`memory`](CompactionPolicy::memory) gave, after a
    /// [`reset`](CompactionPolicy::reset), for a saved session with a retention that loads.
    ///
    /// # Errors
    ///
    /// An [`ErrorKind::InvalidOption`](crate::ErrorKind) naming `policyMemory` when the memory
    /// is not one this policy gives. The default takes only the empty memory.
    #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
    fn restore_memory(&mut self, memory: &PolicyMemory) -> Result<(), Error> {
        match memory.is_empty() {
            true => Ok(()),
            false => Err(memory.unexpected()),
        }
    }
}

/// A policy's own memory as plain data ([`CompactionPolicy::memory`]): turn numbers, texts
/// and a count, as the policy uses them. [`HotWarmCold`]'s is its gist (each term, and the turn
/// it was last mentioned in); [`Interval`](crate::Interval)'s the invocations it may summarise
/// next; [`ObservationMasking`](crate::ObservationMasking)'s the tool output it keeps.
///
/// Serialised as `{ "turns": [3, 5], "texts": ["ORD-3300", "Dana"], "count": 0 }`.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(
    feature = "deserialize",
    derive(serde::Deserialize),
    serde(deny_unknown_fields)
)]
#[non_exhaustive]
pub struct PolicyMemory {
    /// Turn numbers.
    pub turns: Vec<TurnNumber>,
    /// Texts.
    pub texts: Vec<String>,
    /// A count.
    pub count: u32,
}

impl PolicyMemory {
    /// Whether it holds nothing: the memory of a policy without one.
    pub fn is_empty(&self) -> bool {
        self.turns.is_empty() && self.texts.is_empty() && self.count == 0
    }

    /// The error of a memory the policy does not take.
    #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
    pub(crate) fn unexpected(&self) -> Error {
        Error::invalid(
            "policyMemory",
            "policyMemory: the saved memory is not one this policy gives; load the session under \
             the policy it ran under",
        )
    }
}

/// The policy of the seed design: keep the last `hot_n` turns HOT and verbatim, fold older
/// decisions, tool outputs and questions into WARM summary lines, drop chatter, and push the
/// oldest WARM lines into a one-line COLD gist while the window is still over budget.
///
/// The gist keeps only key terms, so it stays short however much is pushed into it. A key term is
/// a word (trimmed of surrounding punctuation such as `.,;:!?()"'{}[]`) that contains a digit or
/// starts with a capital letter: names like `Dana` and `Globex`, IDs like `ORD-3300`, amounts like
/// `$180.00` and `10%`. Pushing a line appends its terms in order; a term already in the gist
/// moves to the end, and past [`GIST_TERMS`] terms the least recently mentioned fall off. The
/// gist reads as the terms joined by `", "`, so its token count is its number of terms, and it
/// lists the turns its surviving terms came from.
///
/// A pushed line never adds more terms than it had words, so each push shrinks the window or
/// leaves it as it was; the step ends when the window is at or under its target
/// ([`SessionConfig::target`]: the budget, or [`compact_to`](SessionConfig::with_compact_to)
/// of it) and WARM at or under [`WARM_SHARE`] of the budget, or when WARM is empty. So every
/// compaction leaves the window at or under its target, unless the HOT turns and the gist
/// alone are over it.
///
/// A tool call and its result ([`Turn::tool_call`](crate::Turn::tool_call),
/// [`Turn::tool`](crate::Turn::tool)) stay together: a call whose result is HOT stays verbatim
/// with it, and with the turns after it, so HOT may then hold more than `hot_n` turns.
#[derive(Clone, Debug, Default)]
pub struct HotWarmCold {
    /// The gist's terms with the turn each was last mentioned in, least recent first.
    // Invariant: at most GIST_TERMS entries, no two equal terms (so a Vec: dropping its front is
    // a shift of at most twelve).
    gist: Vec<(String, TurnNumber)>,
}

/// The most of the budget, in percent, that the WARM lines may hold together: past it, the
/// oldest roll into the COLD gist, so that summaries cannot fill the window. (The refund desk's
/// WARM lines never hold more than 60%.)
pub const WARM_SHARE: u32 = 75;

/// The tokens of `window`'s WARM lines.
fn warm_tokens(window: &Window) -> Tokens {
    window.tokens() - window.verbatim_tokens() - window.cold().map_or(Tokens(0), Line::tokens)
}

/// How many key terms the COLD gist keeps.
pub const GIST_TERMS: usize = 12;

impl CompactionPolicy for HotWarmCold {
    fn compact(
        &mut self,
        window: &mut Window,
        script: &Script,
        config: &SessionConfig,
    ) -> Result<Option<Compaction>, Error> {
        let budget = config.budget();
        if u64::from(window.tokens().0) <= config.threshold(100) {
            return Ok(None);
        }
        let mut step = Compaction::default();
        let hot_n = usize::try_from(config.hot_n()).unwrap_or(usize::MAX);
        while window.verbatim().len() > hot_n {
            // A tool call whose result stays HOT stays with it.
            if window
                .verbatim()
                .next()
                .is_some_and(|front| answered(window, script, front, hot_n))
            {
                break;
            }
            let Some(number) = window.pop_verbatim() else {
                break;
            };
            if let Some(summary) = step.record(script, number) {
                window.push_warm(Line::new(vec![number], summary));
            }
        }
        // WARM rolls into COLD by age while the window is over its target, or WARM alone over
        // its share of the budget.
        let target = config.target();
        let share = Tokens((u64::from(budget.0) * u64::from(WARM_SHARE) / 100) as u32);
        while window.tokens() > target || warm_tokens(window) > share {
            let Some(line) = window.pop_warm() else { break };
            self.absorb(&line);
            window.set_cold(self.gist_line());
            step.to_cold.extend_from_slice(line.turns());
        }
        Ok(Some(step))
    }

    fn reset(&mut self) {
        self.gist.clear();
    }

    fn can_fail(&self) -> bool {
        false
    }

    fn name(&self) -> Option<&'static str> {
        Some(crate::compaction::PolicyId::HotWarmCold.name())
    }

    #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
    fn memory(&self) -> PolicyMemory {
        let mut memory = PolicyMemory::default();
        for (term, turn) in &self.gist {
            memory.texts.push(term.clone());
            memory.turns.push(*turn);
        }
        memory
    }

    #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
    fn restore_memory(&mut self, memory: &PolicyMemory) -> Result<(), Error> {
        if memory.turns.len() != memory.texts.len()
            || memory.texts.len() > GIST_TERMS
            || memory.count != 0
        {
            return Err(memory.unexpected());
        }
        self.gist.clear();
        for (term, &turn) in memory.texts.iter().zip(&memory.turns) {
            if term.is_empty() || self.gist.iter().any(|(kept, _)| kept == term) {
                return Err(memory.unexpected());
            }
            self.gist.push((term.clone(), turn));
        }
        Ok(())
    }
}

impl HotWarmCold {
    fn absorb(&mut self, line: &Line) {
        let source = line.turns().last().copied().unwrap_or_default();
        for term in key_terms(line.text()) {
            // The term's earlier mention goes, and the oldest term when the gist is full
            // without it. (One `retain`, not `Vec::remove(0)`, which brings a panic path.)
            let full =
                self.gist.len() >= GIST_TERMS && self.gist.iter().all(|(kept, _)| kept != term);
            let mut at = 0;
            self.gist.retain(|(kept, _)| {
                at += 1;
                kept != term && !(full && at == 1)
            });
            self.gist.push((term.to_owned(), source));
        }
    }

    fn gist_line(&self) -> Option<Line> {
        if self.gist.is_empty() {
            return None;
        }
        let turns: Vec<TurnNumber> = self.gist.iter().map(|&(_, turn)| turn).collect();
        // A plain loop, not `[&str]::join`: its generic code is 1 KB of wasm.
        let mut text = String::new();
        for (term, _) in &self.gist {
            if !text.is_empty() {
                text.push_str(", ");
            }
            text.push_str(term);
        }
        Some(Line::new(turns, text))
    }
}

/// The key terms of `text`, in order: see [`HotWarmCold`].
pub(crate) fn key_terms(text: &str) -> impl Iterator<Item = &str> {
    crate::text::words(text).filter_map(key_term)
}

/// The key term that `word`, one of [`words`](crate::text::words)'s, is, if it is one: the word
/// without the punctuation around it, when that has a digit or starts with a capital letter. The
/// `…` that marks a summary cut short is punctuation too (`100.0)…` is `100.0`), and so is the
/// line number a file read puts before each line (`12→`, as Claude Code's `Read` gives a file:
/// `12→` is no term, `12→Ok` is `Ok`).
pub(crate) fn key_term(word: &str) -> Option<&str> {
    // `…` and `→` in UTF-8, compared as bytes.
    let bytes = word.as_bytes();
    let end = bytes.len()
        - if bytes.ends_with(&[0xE2, 0x80, 0xA6]) {
            3
        } else {
            0
        };
    let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    let start = match bytes.get(digits..digits + 3) {
        Some([0xE2, 0x86, 0x92]) => digits + 3,
        _ => 0,
    };
    let term = trim_punctuation(word.get(start..end).unwrap_or(""));
    (term.bytes().any(|b| b.is_ascii_digit()) || starts_with_capital(term)).then_some(term)
}

/// Whether `c` is punctuation that a key term sheds at its ends.
fn is_punctuation(c: char) -> bool {
    matches!(
        c,
        '.' | ',' | ';' | ':' | '!' | '?' | '(' | ')' | '"' | '\'' | '{' | '}' | '[' | ']'
    )
}

/// `word` without the punctuation around it, cut on bytes: the marks are ASCII, and an ASCII
/// byte is never part of another character, so the cut is `trim_matches(is_punctuation)`'s (a
/// proptest checks), without its UTF-8 decoding.
fn trim_punctuation(word: &str) -> &str {
    let mark = |b: &u8| is_punctuation(char::from(*b));
    let bytes = word.as_bytes();
    let start = bytes.iter().position(|b| !mark(b)).unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|b| !mark(b))
        .map_or(start, |last| last + 1);
    word.get(start..end).unwrap_or("")
}

/// Whether `word` starts with a capital letter, in any script.
fn starts_with_capital(word: &str) -> bool {
    word.chars().next().is_some_and(char::is_uppercase)
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        #[test]
        fn punctuation_is_trimmed_on_bytes_as_on_chars(word in "[.,;:!?()\"'{}\\[\\]a-zé€ ]{0,12}") {
            proptest::prop_assert_eq!(trim_punctuation(&word), word.trim_matches(is_punctuation));
        }
    }

    #[test]
    fn key_terms_are_names_ids_and_amounts() {
        let terms: Vec<_> =
            key_terms("Dana wants a refund for ORD-3300 ($200.00), after the 30-day window.")
                .collect();
        assert_eq!(terms, ["Dana", "ORD-3300", "$200.00", "30-day"]);
        assert_eq!(key_terms("refund approved, thanks").count(), 0);
    }

    #[test]
    fn a_json_tool_call_gives_its_values_as_key_terms() {
        let terms: Vec<_> = key_terms(
            r#"get_reservation_details({"reservation_id": "IFOYYZ"}) then {"user":"Aarav","seat":"14C"}"#,
        )
        .collect();
        assert_eq!(terms, ["IFOYYZ", "Aarav", "14C"]);
    }

    #[test]
    fn a_file_read_s_line_numbers_and_a_cut_summary_s_mark_are_no_part_of_a_term() {
        // Claude Code's Read numbers each line `12→`; an extract cut short ends `…`.
        let terms: Vec<_> = key_terms(
            "    12\u{2192}    let refund = cents(1942);\n    13\u{2192}Ok(100.0)\u{2026}",
        )
        .collect();
        assert_eq!(terms, ["1942", "Ok", "100.0"]);
    }

    #[test]
    fn a_custom_script_s_capitals_count_in_any_script() {
        let terms: Vec<_> =
            key_terms("\u{c9}mile asked \u{d6}zlem about \u{416}enya's order").collect();
        assert_eq!(terms, ["\u{c9}mile", "\u{d6}zlem", "\u{416}enya's"]);
    }

    #[test]
    fn the_gist_keeps_the_most_recently_mentioned_terms() {
        let mut policy = HotWarmCold::default();
        let words: Vec<String> = (1..=20).map(|i| format!("T{i}")).collect();
        policy.absorb(&Line::new(vec![TurnNumber(1)], words.join(" ")));
        policy.absorb(&Line::new(vec![TurnNumber(2)], "T10 again"));
        let gist = policy.gist_line().unwrap();
        assert_eq!(gist.tokens().0 as usize, GIST_TERMS);
        assert_eq!(
            gist.text(),
            "T9, T11, T12, T13, T14, T15, T16, T17, T18, T19, T20, T10"
        );
        assert_eq!(gist.turns(), [1, 2]);
    }
}
