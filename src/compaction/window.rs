//! The live window: what the model sees, in order COLD, WARM, verbatim turns.

use crate::prelude::*;
use serde::Serialize;

use crate::compaction::tokens::Counter;
use crate::queue::Queue;
use crate::units::{Tokens, TurnNumber};
use alloc::sync::Arc;
#[cfg(feature = "large-sessions")]
use core::sync::atomic::{AtomicU64, Ordering};

/// A line of the window that stands for older turns: a WARM summary line or the COLD gist.
///
/// Its fields are read through methods, so that its token count always agrees with its text: its
/// words, until a [`Window`] that counts with another [`TokenCounter`](crate::TokenCounter) places
/// it, and from then on that counter's count.
///
/// ```
/// use agent_memory_widgets::{Line, Tokens, TurnNumber};
///
/// let line = Line::new(vec![TurnNumber(2)], "Dana wants a refund.");
/// assert_eq!((line.turns(), line.text(), line.tokens()), (&[TurnNumber(2)][..], "Dana wants a refund.", Tokens(4)));
/// ```
// Clone, PartialEq and Debug leave the lineage out where it is kept (`large-sessions`); without
// it every line's is 0, and the derived ones, smaller, agree with them.
#[derive(Default, Serialize)]
#[cfg_attr(not(feature = "large-sessions"), derive(Clone, Debug, PartialEq, Eq))]
pub struct Line {
    // Invariant: ascending, without repeats.
    turns: Vec<TurnNumber>,
    text: String,
    // Invariant: tokens == Tokens::of(&text), or, once a window placed it, the window's count of
    // `text`.
    tokens: Tokens,
    /// Which line this is to a reader that follows a window from step to step (the
    /// playground's replay): see [`Line::lineage`]. Not part of the line's value.
    #[cfg(feature = "large-sessions")]
    #[serde(skip)]
    lineage: u64,
}

impl Line {
    /// A line with its token count taken from `text`. `turns` are sorted and deduplicated.
    pub fn new(mut turns: Vec<TurnNumber>, text: impl Into<String>) -> Line {
        crate::sort::sort_by(&mut turns, TurnNumber::cmp);
        turns.dedup();
        let text = text.into();
        let tokens = Tokens::of(&text);
        Line {
            turns,
            text,
            tokens,
            #[cfg(feature = "large-sessions")]
            lineage: new_lineage(),
        }
    }
}

#[cfg(feature = "large-sessions")]
/// A lineage no line has had yet; none (0) in a build that does not read sessions at real size
/// ([`LARGE_SESSIONS`](crate::compaction::LARGE_SESSIONS)), whose readers compare lines whole.
fn new_lineage() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    match crate::compaction::LARGE_SESSIONS {
        true => NEXT.fetch_add(1, Ordering::Relaxed),
        false => 0,
    }
}

#[cfg(feature = "large-sessions")]
impl Clone for Line {
    /// A copy is a line of its own: a new lineage (see `Line::lineage`).
    fn clone(&self) -> Line {
        Line {
            turns: self.turns.clone(),
            text: self.text.clone(),
            tokens: self.tokens,
            #[cfg(feature = "large-sessions")]
            lineage: new_lineage(),
        }
    }
}

#[cfg(feature = "large-sessions")]
impl PartialEq for Line {
    /// Equal turns, text and tokens, whatever their lineage.
    fn eq(&self, other: &Line) -> bool {
        self.turns == other.turns && self.text == other.text && self.tokens == other.tokens
    }
}

#[cfg(feature = "large-sessions")]
impl Eq for Line {}

#[cfg(feature = "large-sessions")]
impl core::fmt::Debug for Line {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Line")
            .field("turns", &self.turns)
            .field("text", &self.text)
            .field("tokens", &self.tokens)
            .finish()
    }
}

impl Line {
    /// The turns this line came from, ascending.
    pub fn turns(&self) -> &[TurnNumber] {
        &self.turns
    }

    /// The text the model sees.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The text's token count.
    pub fn tokens(&self) -> Tokens {
        self.tokens
    }

    /// A number that only this line value has (0 for none): two lines of one lineage are one
    /// value at two times, between which it only grew at its ends, its text by
    /// [`Line::append`] and its turns by newer ones. A line made, copied, given a new text or an
    /// older turn starts a new lineage. So a reader that read a line of this lineage before
    /// knows its text and turns then are the start of the text and turns now, without comparing
    /// them.
    pub(crate) fn lineage(&self) -> u64 {
        #[cfg(feature = "large-sessions")]
        return self.lineage;
        #[cfg(not(feature = "large-sessions"))]
        0
    }

    /// The same line with its text cut back to its first `keep` bytes (a character's edge),
    /// then `space` and `tail` after it: in place, without a copy of what it keeps. `tokens`,
    /// the new text's words, the caller has counted.
    pub(crate) fn cut_back(mut self, keep: usize, space: &str, tail: &str, tokens: Tokens) -> Line {
        if self.text.is_char_boundary(keep) {
            self.text.truncate(keep);
        }
        self.text.push_str(space);
        self.text.push_str(tail);
        debug_assert_eq!(
            tokens,
            Tokens::of(&self.text),
            "a line's count is its words"
        );
        self.tokens = tokens;
        #[cfg(feature = "large-sessions")]
        {
            self.lineage = new_lineage();
        }
        self
    }

    /// Adds `text` from turn `turn` to the end of the line, after a space, and counts its words
    /// alone: joining at a space never merges two words. Turns stay ascending.
    pub(crate) fn append(&mut self, turn: TurnNumber, text: &str) {
        if !self.text.is_empty() {
            self.text.push(' ');
        }
        self.text.push_str(text);
        self.tokens += Tokens::of(text);
        self.add_turn(turn);
    }

    /// Adds `turn` to the line's sources, keeping them ascending and without repeats. O(1) for a
    /// turn newer than every source, which is how lines grow.
    pub(crate) fn add_turn(&mut self, turn: TurnNumber) {
        match self.turns.last() {
            Some(&last) if turn <= last => {
                if let Err(at) = self.turns.binary_search(&turn) {
                    self.turns.insert(at, turn);
                    // Not at the end: a reader must read the turns again.
                    #[cfg(feature = "large-sessions")]
                    {
                        self.lineage = new_lineage();
                    }
                }
            }
            _ => self.turns.push(turn),
        }
    }
}

/// What an empty WARM slot reads as; never read, as every live slot holds a line.
static NO_LINE: Line = Line {
    turns: Vec::new(),
    text: String::new(),
    tokens: Tokens(0),
    #[cfg(feature = "large-sessions")]
    lineage: 0,
};

/// The window's three tiers with a running token count, so that nothing is ever recounted.
///
/// A [`CompactionPolicy`](crate::CompactionPolicy) rearranges a window through these methods;
/// each keeps the count exact. The window counts with its session's
/// [`TokenCounter`](crate::TokenCounter) (words by default): each line it is given (a WARM line,
/// the COLD gist) is counted whole when it is placed, and each text that stands for a verbatim
/// turn when it is set, so that every part of the window is counted one way. A policy measures a
/// text the same way with [`Window::count`].
///
/// With words, a line's count is known as it is built, and placing it costs nothing more. With
/// another counter, placing a line costs a count of its text: under [`HotWarmCold`](crate::HotWarmCold)
/// a summary or a gist of at most [`GIST_TERMS`](crate::GIST_TERMS) terms, but under a policy whose
/// one summary grows with the session (such as [`SummaryBuffer`](crate::SummaryBuffer)) that
/// summary, at each compaction.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Window {
    cold: Option<Line>,
    /// The WARM lines, shared with a copy of the window until one of them changes: a session
    /// runs a step on a copy (see [`Session::push`](crate::Session::push)), and a copy then costs
    /// a pointer a line. (`Option`, so that a popped slot is left empty without allocating.)
    // Invariant: every live slot is `Some`.
    warm: Queue<Option<Arc<Line>>>,
    /// Turn numbers and token counts of the verbatim turns, oldest first.
    verbatim: Queue<(TurnNumber, Tokens)>,
    /// The texts that stand for verbatim turns cut short or masked, by turn number.
    // Invariant: every turn here is in `verbatim`, and its count there is its text's; ascending,
    // as `verbatim` is, so that a turn is found by binary search.
    cuts: Queue<(TurnNumber, String)>,
    // Invariant: tokens == cold's + every warm line's + every verbatim turn's tokens.
    tokens: Tokens,
    // Invariant: verbatim_tokens == every verbatim turn's tokens.
    verbatim_tokens: Tokens,
    /// What the lines and cuts are counted with.
    counter: Counter,
    /// What changed since the session last read the window, for a step's loss report.
    #[cfg(any(
        not(all(target_arch = "wasm32", feature = "wasm-runtime")),
        feature = "large-sessions"
    ))]
    journal: Journal,
}

/// What changed in a window since its session last read it ([`Window::take_journal`]): the
/// verbatim turns pushed, removed, cut short or masked, and whether any line changed. The
/// record of what a step lost ([`Step::lost`](crate::Step::lost)) reads only these, so that
/// telling it costs what changed, not the window. Not part of the window's value: two windows
/// compare equal whatever their journals. The playground's replay at real size reads it too
/// (`replay_large`). (Not in this project's other wasm builds, which tell no loss.)
#[cfg(any(
    not(all(target_arch = "wasm32", feature = "wasm-runtime")),
    feature = "large-sessions"
))]
#[derive(Clone, Default)]
pub(crate) struct Journal {
    /// The verbatim turns that changed, in the order they did, perhaps repeated.
    pub(crate) turns: Vec<TurnNumber>,
    /// Whether a WARM line or the COLD gist changed.
    pub(crate) lines: bool,
    /// Whether more changed than the journal keeps (a window no session reads): the reader
    /// walks the whole window.
    pub(crate) full: bool,
}

#[cfg(any(
    not(all(target_arch = "wasm32", feature = "wasm-runtime")),
    feature = "large-sessions"
))]
impl PartialEq for Journal {
    fn eq(&self, _: &Journal) -> bool {
        true
    }
}

#[cfg(any(
    not(all(target_arch = "wasm32", feature = "wasm-runtime")),
    feature = "large-sessions"
))]
impl Eq for Journal {}

#[cfg(any(
    not(all(target_arch = "wasm32", feature = "wasm-runtime")),
    feature = "large-sessions"
))]
impl core::fmt::Debug for Journal {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Journal")
    }
}

impl Window {
    /// The tokens of `text` as this window counts them: with its session's
    /// [`TokenCounter`](crate::TokenCounter), words by default.
    ///
    /// ```
    /// use agent_memory_widgets::{Tokens, Window};
    ///
    /// assert_eq!(Window::default().count("refund approved as RF-7781"), Tokens(4));
    /// ```
    pub fn count(&self, text: &str) -> Tokens {
        self.counter.count(text)
    }

    /// An empty window that counts with `counter`.
    pub(crate) fn counting(counter: Counter) -> Window {
        Window {
            counter,
            ..Window::default()
        }
    }

    /// What the window counts with.
    pub(crate) fn counter(&self) -> &Counter {
        &self.counter
    }

    /// Notes that verbatim turn `turn` changed (see [`Journal`]). A journal no one takes stops
    /// at twice the verbatim turns (and 64 more), and then says only that everything changed.
    fn note(&mut self, turn: TurnNumber) {
        #[cfg(any(
            not(all(target_arch = "wasm32", feature = "wasm-runtime")),
            feature = "large-sessions"
        ))]
        if !self.journal.full {
            if self.journal.turns.len() >= 2 * self.verbatim.as_slice().len() + 64 {
                self.journal.full = true;
                self.journal.turns = Vec::new();
            } else {
                self.journal.turns.push(turn);
            }
        }
        #[cfg(all(
            target_arch = "wasm32",
            feature = "wasm-runtime",
            not(feature = "large-sessions")
        ))]
        let _ = turn;
    }

    /// Notes that a line changed (see [`Journal`]).
    fn note_lines(&mut self) {
        #[cfg(any(
            not(all(target_arch = "wasm32", feature = "wasm-runtime")),
            feature = "large-sessions"
        ))]
        {
            self.journal.lines = true;
        }
    }

    /// What changed since the last call, and an empty journal from now on.
    #[cfg(any(
        not(all(target_arch = "wasm32", feature = "wasm-runtime")),
        feature = "large-sessions"
    ))]
    pub(crate) fn take_journal(&mut self) -> Journal {
        core::mem::take(&mut self.journal)
    }

    /// `line` with its count taken by this window's counter; unchanged under words, which
    /// counted it as it was built.
    fn measured(&self, mut line: Line) -> Line {
        if !self.counter.is_words() {
            line.tokens = self.counter.count(&line.text);
        }
        line
    }

    /// The window's token count: COLD, WARM and verbatim together.
    pub fn tokens(&self) -> Tokens {
        self.tokens
    }

    /// The token count of the verbatim turns alone.
    pub fn verbatim_tokens(&self) -> Tokens {
        self.verbatim_tokens
    }

    /// The COLD gist, if any.
    pub fn cold(&self) -> Option<&Line> {
        self.cold.as_ref()
    }

    /// The WARM lines, oldest first.
    pub fn warm(&self) -> impl ExactSizeIterator<Item = &Line> {
        self.warm
            .as_slice()
            .iter()
            .map(|slot| slot.as_deref().unwrap_or(&NO_LINE))
    }

    /// The verbatim turns' numbers, oldest first.
    pub fn verbatim(&self) -> impl ExactSizeIterator<Item = TurnNumber> + DoubleEndedIterator + '_ {
        self.verbatim.as_slice().iter().map(|&(turn, _)| turn)
    }

    /// The verbatim turns' numbers, oldest first, each with the text that stands for it if it was
    /// cut short or masked ([`Window::cut`]): both in one pass, without a search per turn.
    ///
    /// ```
    /// use agent_memory_widgets::{Tokens, TurnNumber, Window};
    ///
    /// let mut window = Window::default();
    /// window.push_verbatim(TurnNumber(3), Tokens(12));
    /// window.push_verbatim(TurnNumber(4), Tokens(9));
    /// window.replace_verbatim(TurnNumber(3), "[tool output omitted]".into());
    /// let held: Vec<_> = window.held().collect();
    /// assert_eq!(held, [(TurnNumber(3), Some("[tool output omitted]")), (TurnNumber(4), None)]);
    /// ```
    pub fn held(&self) -> impl Iterator<Item = (TurnNumber, Option<&str>)> + '_ {
        // Both are ascending by turn, and every cut turn is verbatim: one walk over each.
        let mut cuts = self.cuts.as_slice().iter().peekable();
        self.verbatim().map(move |turn| {
            let cut = cuts.next_if(|(number, _)| *number == turn);
            (turn, cut.map(|(_, text)| text.as_str()))
        })
    }

    /// The verbatim turns' numbers with their token counts in the window, oldest first.
    pub(crate) fn verbatim_counts(&self) -> &[(TurnNumber, Tokens)] {
        self.verbatim.as_slice()
    }

    /// Appends a verbatim turn.
    pub fn push_verbatim(&mut self, turn: TurnNumber, tokens: Tokens) {
        self.note(turn);
        self.verbatim.push_back((turn, tokens));
        self.tokens += tokens;
        self.verbatim_tokens += tokens;
    }

    /// Appends a verbatim turn cut short: `text`, a part of the turn with the cut marked, stands
    /// for it in the window.
    pub fn push_cut(&mut self, turn: TurnNumber, text: String) {
        self.push_verbatim(turn, self.count(&text));
        self.cuts.push_back((turn, text));
    }

    /// The text that stands for verbatim turn `turn` when it was cut short or replaced. O(log n).
    pub fn cut(&self, turn: TurnNumber) -> Option<&str> {
        let cuts = self.cuts.as_slice();
        let at = cuts
            .binary_search_by_key(&turn, |(number, _)| *number)
            .ok()?;
        cuts.get(at).map(|(_, text)| text.as_str())
    }

    /// Lets `text` stand for verbatim turn `turn` from now on, in its place among the verbatim
    /// turns: a turn cut short, or masked. Its token count becomes the text's. `false`, and
    /// nothing changes, when `turn` is not verbatim.
    ///
    /// ```
    /// use agent_memory_widgets::{Tokens, TurnNumber, Window};
    ///
    /// let mut window = Window::default();
    /// window.push_verbatim(TurnNumber(3), Tokens(12));
    /// window.push_verbatim(TurnNumber(4), Tokens(9));
    /// assert!(window.replace_verbatim(TurnNumber(3), "[tool output omitted]".into()));
    /// assert_eq!(window.tokens(), Tokens(12));
    /// assert_eq!(window.cut(TurnNumber(3)), Some("[tool output omitted]"));
    /// assert_eq!(window.verbatim().collect::<Vec<_>>(), [TurnNumber(3), TurnNumber(4)]);
    /// ```
    ///
    /// O(log n), and O(1) to add the text of a turn newer than every other replaced one.
    pub fn replace_verbatim(&mut self, turn: TurnNumber, text: String) -> bool {
        let tokens = self.count(&text);
        let verbatim = self.verbatim.as_mut_slice();
        let Ok(at) = verbatim.binary_search_by_key(&turn, |(number, _)| *number) else {
            return false;
        };
        // `at` is in bounds (binary_search found it there): the `else` keeps a panic out of the wasm.
        let Some(entry) = verbatim.get_mut(at) else {
            return false;
        };
        self.tokens = self.tokens - entry.1 + tokens;
        self.verbatim_tokens = self.verbatim_tokens - entry.1 + tokens;
        entry.1 = tokens;
        self.note(turn);
        let cuts = self.cuts.as_mut_slice();
        match cuts.binary_search_by_key(&turn, |(number, _)| *number) {
            Ok(at) => {
                if let Some(cut) = cuts.get_mut(at) {
                    cut.1 = text;
                }
            }
            Err(at) => self.cuts.insert(at, (turn, text)),
        }
        true
    }

    /// Removes the oldest verbatim turn and returns its number.
    pub fn pop_verbatim(&mut self) -> Option<TurnNumber> {
        let (turn, tokens) = self.verbatim.pop_front()?;
        self.note(turn);
        self.tokens -= tokens;
        self.verbatim_tokens -= tokens;
        // The cuts are ascending like the verbatim turns: the oldest turn's is the first.
        if self
            .cuts
            .as_slice()
            .first()
            .is_some_and(|(number, _)| *number == turn)
        {
            self.cuts.skip_front();
        }
        Some(turn)
    }

    /// Removes verbatim turn `turn` wherever it stands (and the text that stood for it, if any);
    /// `false`, and nothing changes, when it is not verbatim. O(n) in the verbatim turns.
    pub(crate) fn remove_verbatim(&mut self, turn: TurnNumber) -> bool {
        let verbatim = self.verbatim.as_mut_slice();
        let Ok(at) = verbatim.binary_search_by_key(&turn, |(number, _)| *number) else {
            return false;
        };
        // Moved to the front, the others keeping their order, then popped from there.
        if let Some(head) = verbatim.get_mut(..=at) {
            head.rotate_right(1);
        }
        let cuts = self.cuts.as_mut_slice();
        if let Ok(at) = cuts.binary_search_by_key(&turn, |(number, _)| *number) {
            if let Some(head) = cuts.get_mut(..=at) {
                head.rotate_right(1);
            }
        }
        self.pop_verbatim().is_some()
    }

    /// Appends `text`, from turn `turn`, to the newest WARM line (a new line when WARM is
    /// empty), counted again by the window's counter.
    pub(crate) fn append_warm(&mut self, turn: TurnNumber, text: &str) {
        match self.warm.as_mut_slice().last_mut() {
            Some(Some(line)) => {
                #[cfg(any(
                    not(all(target_arch = "wasm32", feature = "wasm-runtime")),
                    feature = "large-sessions"
                ))]
                {
                    self.journal.lines = true;
                }
                let line = Arc::make_mut(line);
                self.tokens -= line.tokens;
                line.append(turn, text);
                if !self.counter.is_words() {
                    line.tokens = self.counter.count(&line.text);
                }
                self.tokens += line.tokens;
            }
            _ => self.push_warm(Line::new(vec![turn], text)),
        }
    }

    /// Whether the window holds any WARM line or a COLD gist.
    pub(crate) fn has_lines(&self) -> bool {
        self.cold.is_some() || !self.warm.as_slice().is_empty()
    }

    /// Appends a WARM line, counted by the window's counter.
    pub fn push_warm(&mut self, line: Line) {
        let line = self.measured(line);
        self.note_lines();
        self.tokens += line.tokens;
        self.warm.push_back(Some(Arc::new(line)));
    }

    /// Removes the oldest WARM line.
    pub fn pop_warm(&mut self) -> Option<Line> {
        let line = self.warm.pop_front()??;
        self.note_lines();
        // The line itself when the window alone holds it, else a copy of it.
        let line = Arc::try_unwrap(line).unwrap_or_else(|shared| Line::clone(&shared));
        self.tokens -= line.tokens;
        Some(line)
    }

    /// Removes every WARM line.
    pub fn clear_warm(&mut self) {
        while self.pop_warm().is_some() {}
    }

    /// Replaces the COLD gist, counted by the window's counter, and returns the old one.
    pub fn set_cold(&mut self, cold: Option<Line>) -> Option<Line> {
        let cold = cold.map(|line| self.measured(line));
        self.note_lines();
        self.tokens += cold.as_ref().map_or(Tokens(0), |line| line.tokens);
        let old = core::mem::replace(&mut self.cold, cold);
        self.tokens -= old.as_ref().map_or(Tokens(0), |line| line.tokens);
        old
    }
}
