//! What each step took from the window ([`Lost`]), and the record a session keeps to tell it.

use crate::prelude::*;
use serde::Serialize;

use crate::compaction::policy::key_term;
#[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
use crate::compaction::window::Journal;
#[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
use crate::compaction::{Line, Script, Window};
use crate::units::TurnNumber;
#[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
use alloc::collections::VecDeque;

/// What one step took from the window: [`Step::lost`](crate::Step::lost).
///
/// The window at the step's peak (the window before the step, and the new turn) against the
/// window after it, by the rule the playground's per-step diff ([`StepLoss`](crate::StepLoss))
/// uses:
///
/// - `turns`: the turns the window held verbatim at the peak and no longer holds whole (folded
///   into a summary, dropped, or newly cut short or masked), and the turns that were in a summary
///   line at the peak and are now in no line and not verbatim (a summary itself dropped);
///   ascending.
/// - `terms`: the key terms ([`KEY_TERMS_RULE`](crate::KEY_TERMS_RULE): names, IDs, amounts)
///   that some text of the window named at the peak and no text of it names after the step, in
///   the order the window held them. A term that moved from a sentence into the COLD gist is
///   still named.
///
/// A step that did not compact (nor trim, under a hard budget) lost nothing: both lists are
/// empty, and a serialised [`Step`](crate::Step) leaves `lost` out. Serialised as
/// `{ "turns": [2, 3], "terms": ["ORD-3300"] }`.
///
/// ```
/// use agent_memory_widgets::Session;
///
/// let mut session = Session::default(); // the refund desk
/// let steps: Vec<_> = std::iter::from_fn(|| session.add_turn()).collect();
/// // Turn 4 takes the window over budget: turns 1 and 2 fold (1 is chatter, and is dropped).
/// assert_eq!(steps[3].lost().turns, [1, 2]);
/// assert!(steps[2].lost().turns.is_empty()); // turn 3 compacted nothing
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(
    feature = "deserialize",
    derive(serde::Deserialize),
    serde(deny_unknown_fields)
)]
#[non_exhaustive]
pub struct Lost {
    /// Turns whose words (or whose summary) left the window at this step, ascending.
    pub turns: Vec<TurnNumber>,
    /// Key terms the window named before the step and names nowhere after it.
    pub terms: Vec<String>,
}

impl Lost {
    /// Whether the step lost nothing.
    pub fn is_empty(&self) -> bool {
        self.turns.is_empty() && self.terms.is_empty()
    }
}

/// Calls `each` with every key term of `text` by [`KEY_TERMS_RULE`](crate::KEY_TERMS_RULE):
/// the words the COLD gist would keep (with a digit or a capital letter), less a sentence's
/// first word without a digit (such as `The` or `Sure`) and any word of one character.
/// `opening`: whether the text's first word opens a sentence (a text's first word does; a text
/// that continues another opens one when the other ends a sentence). In JSON, a string's first
/// word opens one too: `"Find the tests"`'s `Find` is no key term.
pub(crate) fn each_key_term<'t>(text: &'t str, opening: bool, mut each: impl FnMut(&'t str)) {
    let mut opens_sentence = opening;
    for word in crate::text::words(text) {
        // The byte before a word of `text` (a structured piece's words are cut out of it).
        let at = (word.as_ptr() as usize).wrapping_sub(text.as_ptr() as usize);
        let quoted = text.as_bytes().get(at.wrapping_sub(1)) == Some(&b'"');
        let opening = opens_sentence || quoted;
        // An ASCII last byte is an ASCII last character.
        opens_sentence = ends_sentence(word);
        let Some(term) = key_term(word) else {
            continue;
        };
        let digit = term.bytes().any(|b| b.is_ascii_digit());
        if (digit || !opening) && term.chars().nth(1).is_some() {
            each(term);
        }
    }
}

/// Whether `word` ends a sentence, so that the next word opens one.
fn ends_sentence(word: &str) -> bool {
    matches!(word.bytes().last(), Some(b'.' | b'!' | b'?' | b':'))
}

/// Marks for where a turn is in a window, as the rule [`left`] reads them: held verbatim.
pub(crate) const VERBATIM: u8 = 1;
/// In a WARM line or the COLD gist.
pub(crate) const IN_LINE: u8 = 2;
/// Verbatim, its text replaced by a stub or cut short.
pub(crate) const CUT: u8 = 4;

/// What a step did to a turn it took something of ([`left`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Left {
    /// Its words left the window; it is in a line now, and was in none before.
    Summarized,
    /// Its words left the window; a line held it before the step too.
    AlreadySummarized,
    /// Its words left the window, and no line holds it.
    Dropped,
    /// Still in place, but cut short or masked by the step.
    Cut,
    /// Not verbatim before the step, in a line; now in no line and not verbatim.
    SummaryDropped,
}

/// The rule of what a step took from a turn, from where the turn was at the step's peak
/// (`was`) and where it is after the step (`now`): the one rule of a session's [`Lost`] and the
/// playground's [`StepLoss`](crate::StepLoss). `None`: it lost nothing.
#[inline(always)]
pub(crate) fn left(was: u8, now: u8) -> Option<Left> {
    if was & VERBATIM != 0 {
        if now & VERBATIM == 0 {
            Some(if now & IN_LINE == 0 {
                Left::Dropped
            } else if was & IN_LINE != 0 {
                Left::AlreadySummarized
            } else {
                Left::Summarized
            })
        } else if now & CUT != 0 && was & CUT == 0 {
            Some(Left::Cut)
        } else {
            None
        }
    } else if was & IN_LINE != 0 && now == 0 {
        Some(Left::SummaryDropped)
    } else {
        None
    }
}

/// What a session knows of its window as the last step left it, to tell what the next step
/// takes: its verbatim turns, its lines as they were read, and how often each key term is named.
/// A step reads only what changed, from the window's [`Journal`]: a step that does not compact
/// only appends its turn; a compaction looks at each verbatim turn the journal names, and, when
/// a line changed, walks the lines (a handful under every built-in policy), a line that grew (a
/// summary extended in place) read from where it grew. (Not in this project's own wasm builds:
/// see [`Step::lost`](crate::Step::lost).)
#[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
#[derive(Clone, Debug, Default)]
pub(crate) struct Record {
    // Invariant: the window's verbatim turns, ascending, each with the text that stood for it
    // when it was cut short or masked.
    verbatim: VecDeque<(TurnNumber, Option<String>)>,
    // Invariant: the window's lines, the COLD gist first, then the WARM lines, as they were.
    lines: Vec<Read>,
    // Invariant: sorted by term, each count at least 1: every key term of the window's texts
    // (each verbatim turn's words or the text that stands for it, each line), with how many
    // times they name it.
    named: Vec<(String, u32)>,
    // How many steps and resets the session has seen: it only grows.
    changes: u64,
    // Whether steps go unrecorded, and lose nothing: a playground's sessions, whose own replay
    // tells what each compaction lost (`Session::without_lost`).
    off: bool,
}

/// A line of the window as the record last read it.
#[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
#[derive(Clone, Debug, Default)]
struct Read {
    turns: Vec<TurnNumber>,
    text: String,
    // The line's lineage when it was read ([`Line::lineage`]): a line of the same lineage grew
    // from this one at its ends, so it is read from where it grew without a comparison.
    lineage: u64,
}

#[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
impl Record {
    /// Records the step of turn `number`, which `window` now shows after the changes of
    /// `journal` (`compacted`: a compaction ran, or the hard budget trimmed), and returns what it
    /// lost. O(1) and the new turn's words for a step that does not compact (nothing leaves); for
    /// one that does, O(log n) for each verbatim turn that changed, a walk of the lines when one
    /// changed, and the words of what changed.
    pub(crate) fn step(
        &mut self,
        window: &Window,
        journal: Journal,
        script: &Script,
        number: TurnNumber,
        compacted: bool,
    ) -> Lost {
        self.changes += 1;
        if self.off {
            return Lost::default();
        }
        let text_of = |turn: TurnNumber| script.turn(turn).map_or("", |turn| turn.text());
        self.count(text_of(number), true, None);
        self.verbatim.push_back((number, None));
        if !compacted {
            return Lost::default();
        }
        // The texts that came in are counted before those that left, so that a term that only
        // moved (from a turn into its summary, or into the gist) is not lost.
        let mut lost = Lost::default();
        let gone = match journal.full {
            true => self.walk_verbatim(window, script, &mut lost),
            false => self.read_verbatim(window, journal.turns, script, &mut lost),
        };
        let old = match journal.lines || journal.full {
            true => self.read_lines(window, &mut lost),
            false => Vec::new(),
        };
        for (turn, cut) in gone {
            let text = cut.as_deref().unwrap_or(text_of(turn));
            self.count(text, true, Some(&mut lost.terms));
        }
        for read in old {
            self.count(&read.text, true, Some(&mut lost.terms));
        }
        crate::sort::sort_by(&mut lost.turns, TurnNumber::cmp);
        lost.turns.dedup();
        lost
    }

    /// Reads the verbatim turns `changed` names (the window's journal), each against what the
    /// record held of it: counts what came in, notes the turns that lost their words in `lost`,
    /// and returns the entries that left, ascending.
    fn read_verbatim(
        &mut self,
        window: &Window,
        mut changed: Vec<TurnNumber>,
        script: &Script,
        lost: &mut Lost,
    ) -> Vec<(TurnNumber, Option<String>)> {
        crate::sort::sort_by(&mut changed, TurnNumber::cmp);
        changed.dedup();
        let mut gone = Vec::new();
        for turn in changed {
            let held = window
                .verbatim_counts()
                .binary_search_by_key(&turn, |(number, _)| *number)
                .is_ok();
            let cut = if held { window.cut(turn) } else { None };
            let at = self
                .verbatim
                .binary_search_by_key(&turn, |(number, _)| *number);
            match (at, held) {
                (Ok(at), false) => {
                    lost.turns.push(turn);
                    gone.extend(self.verbatim.remove(at));
                }
                (Ok(at), true) => {
                    let Some(entry) = self.verbatim.get_mut(at) else {
                        continue;
                    };
                    if entry.1.as_deref() == cut {
                        continue;
                    }
                    let now = VERBATIM | cut_mark(cut.is_some());
                    if left(VERBATIM | cut_mark(entry.1.is_some()), now).is_some() {
                        lost.turns.push(turn);
                    }
                    gone.push(core::mem::replace(entry, (turn, cut.map(str::to_owned))));
                    let text = script.turn(turn).map_or("", |turn| turn.text());
                    self.count(cut.unwrap_or(text), true, None);
                }
                (Err(at), true) => {
                    let text = script.turn(turn).map_or("", |turn| turn.text());
                    self.count(cut.unwrap_or(text), true, None);
                    self.verbatim.insert(at, (turn, cut.map(str::to_owned)));
                }
                (Err(_), false) => {}
            }
        }
        gone
    }

    /// [`Record::read_verbatim`] for a window whose journal overflowed: a walk of all of it.
    fn walk_verbatim(
        &mut self,
        window: &Window,
        script: &Script,
        lost: &mut Lost,
    ) -> Vec<(TurnNumber, Option<String>)> {
        let text_of = |turn: TurnNumber| script.turn(turn).map_or("", |turn| turn.text());
        let mut gone = Vec::new();
        let mut peak = core::mem::take(&mut self.verbatim).into_iter().peekable();
        let mut verbatim = VecDeque::with_capacity(window.verbatim().len());
        for (turn, cut) in window.held() {
            // Turns verbatim at the peak and before this one left.
            while let Some(entry) = peak.next_if(|(old, _)| *old < turn) {
                lost.turns.push(entry.0);
                gone.push(entry);
            }
            match peak.next_if(|(old, _)| *old == turn) {
                Some(entry) if entry.1.as_deref() == cut => verbatim.push_back(entry),
                entry => {
                    if let Some((_, was)) = &entry {
                        let now = VERBATIM | cut_mark(cut.is_some());
                        if left(VERBATIM | cut_mark(was.is_some()), now).is_some() {
                            lost.turns.push(turn);
                        }
                    }
                    gone.extend(entry);
                    self.count(cut.unwrap_or(text_of(turn)), true, None);
                    verbatim.push_back((turn, cut.map(str::to_owned)));
                }
            }
        }
        for entry in peak {
            lost.turns.push(entry.0);
            gone.push(entry);
        }
        self.verbatim = verbatim;
        gone
    }

    /// Reads the window's lines against those read before: counts what came in, notes in `lost`
    /// the turns of lines that left (or lost a source) and are now nowhere, and returns the
    /// lines that left. Each line is matched with the first line read before that starts it (a
    /// line that grew), from where the last match was; the lines passed over left.
    fn read_lines(&mut self, window: &Window, lost: &mut Lost) -> Vec<Read> {
        let mut old = Vec::with_capacity(self.lines.len());
        for read in core::mem::take(&mut self.lines) {
            old.push(Some(read));
        }
        let mut from = 0;
        let mut lines = Vec::with_capacity(window.warm().len() + 1);
        // Turns of lines that left or lost a source: each is looked for in the window.
        let mut sources = Vec::new();
        for line in window.cold().into_iter().chain(window.warm()) {
            let mut found = None;
            for (at, read) in old.iter_mut().enumerate().skip(from) {
                if read.as_ref().is_some_and(|read| grew(read, line)) {
                    found = read.take().map(|read| (at, read));
                    break;
                }
            }
            let read = match found {
                Some((at, mut read)) => {
                    from = at + 1;
                    let before = read.text.trim_end();
                    let opening = before.is_empty() || ends_sentence(before);
                    let growth = line.text().get(read.text.len()..).unwrap_or("");
                    self.count(growth, opening, None);
                    read.text.push_str(growth);
                    let same = read.lineage != 0 && read.lineage == line.lineage();
                    if same || line.turns().starts_with(&read.turns) {
                        let new = line.turns().get(read.turns.len()..).unwrap_or_default();
                        read.turns.extend_from_slice(new);
                    } else {
                        sources.append(&mut read.turns);
                        read.turns = line.turns().to_vec();
                    }
                    read.lineage = line.lineage();
                    read
                }
                None => {
                    self.count(line.text(), true, None);
                    Read::of(line)
                }
            };
            lines.push(read);
        }
        for read in old.iter_mut().flatten() {
            sources.append(&mut read.turns);
        }
        let window_lines = || window.cold().into_iter().chain(window.warm());
        for turn in sources {
            let held = verbatim_at(&self.verbatim, turn);
            let in_line = window_lines().any(|line| line.turns().binary_search(&turn).is_ok());
            let now = if held { VERBATIM } else { 0 } | if in_line { IN_LINE } else { 0 };
            if left(IN_LINE, now).is_some() {
                lost.turns.push(turn);
            }
        }
        self.lines = lines;
        old.into_iter().flatten().collect()
    }

    /// The record of `window` as a step leaves it, for a saved session that loads without
    /// replaying its steps (a retention's, [`SavedWindow`](crate::SavedWindow)).
    pub(crate) fn of(window: &Window, script: &Script) -> Record {
        let mut record = Record::default();
        for (turn, cut) in window.held() {
            let text = script.turn(turn).map_or("", |turn| turn.text());
            record.count(cut.unwrap_or(text), true, None);
            record.verbatim.push_back((turn, cut.map(str::to_owned)));
        }
        for line in window.cold().into_iter().chain(window.warm()) {
            record.count(line.text(), true, None);
            record.lines.push(Read::of(line));
        }
        record
    }

    /// Forgets the window, for a session started over: a change too.
    pub(crate) fn reset(&mut self) {
        *self = Record {
            changes: self.changes + 1,
            off: self.off,
            ..Record::default()
        };
    }

    /// A record that records nothing: every step loses nothing.
    pub(crate) fn off() -> Record {
        Record {
            off: true,
            ..Record::default()
        }
    }

    /// Whether steps go unrecorded ([`Record::off`]).
    pub(crate) fn is_off(&self) -> bool {
        self.off
    }

    /// How many steps and resets the session has seen.
    pub(crate) fn changes(&self) -> u64 {
        self.changes
    }

    /// Counts each key term of `text` (read by [`each_key_term`] from `opening`) once more, or,
    /// with `lost`, once less: a term then named nowhere joins `lost`.
    fn count(&mut self, text: &str, opening: bool, mut lost: Option<&mut Vec<String>>) {
        each_key_term(text, opening, |term| {
            let at = self
                .named
                .binary_search_by(|(named, _)| named.as_str().cmp(term));
            match (at, lost.as_deref_mut()) {
                (Ok(at), None) => {
                    if let Some((_, count)) = self.named.get_mut(at) {
                        *count += 1;
                    }
                }
                (Err(at), None) => self.named.insert(at, (term.to_owned(), 1)),
                (Ok(at), Some(lost)) => match self.named.get_mut(at) {
                    Some((_, count)) if *count > 1 => *count -= 1,
                    _ => lost.push(self.named.remove(at).0),
                },
                (Err(_), Some(_)) => {}
            }
        });
    }
}

/// The mark of a verbatim turn cut short or masked, when `cut`.
#[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
fn cut_mark(cut: bool) -> u8 {
    if cut {
        CUT
    } else {
        0
    }
}

/// Whether `line` is `read` grown in place: of its lineage, or with the same first turn, and its
/// text followed by more words (or by nothing).
#[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
fn grew(read: &Read, line: &Line) -> bool {
    if read.lineage != 0 && read.lineage == line.lineage() {
        return true;
    }
    read.turns.first() == line.turns().first()
        && line.text().as_bytes().starts_with(read.text.as_bytes())
        && line
            .text()
            .get(read.text.len()..)
            .is_some_and(|growth| growth.is_empty() || growth.starts_with(char::is_whitespace))
}

/// Whether `verbatim` holds `turn`.
#[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
fn verbatim_at(verbatim: &VecDeque<(TurnNumber, Option<String>)>, turn: TurnNumber) -> bool {
    verbatim
        .binary_search_by_key(&turn, |(number, _)| *number)
        .is_ok()
}

#[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
impl Read {
    /// `line` as read now.
    fn of(line: &Line) -> Read {
        Read {
            turns: line.turns().to_vec(),
            text: line.text().to_owned(),
            lineage: line.lineage(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::each_key_term;

    fn terms(text: &str) -> Vec<&str> {
        let mut out = Vec::new();
        each_key_term(text, true, |term| out.push(term));
        out
    }

    #[test]
    fn a_sentence_s_first_word_is_no_key_term_unless_it_has_a_digit() {
        assert_eq!(
            terms("Sure. The refund for ORD-3300 is $180.00, Dana. 30-day window."),
            ["ORD-3300", "$180.00", "Dana", "30-day"]
        );
        // Prose's quotes stay with the word: a quoted capital inside a sentence is a term.
        assert_eq!(terms("she said \"Globex\" twice"), ["Globex"]);
    }

    #[test]
    fn a_json_string_s_first_word_opens_a_sentence() {
        assert_eq!(
            terms(r#"Task({"description":"Find the tests","id":"ORD-3300","who":"Dana Lee"})"#),
            ["ORD-3300", "Lee"]
        );
    }
}
