//! The loss tracker: each policy's session played to its end, and what each of its compactions
//! took from the window ([`StepLoss`]).

use crate::prelude::*;
use serde::Serialize;

use crate::compaction::compare::facts::{FactBits, FactFinder};
use crate::compaction::lost::{left, Left, CUT, IN_LINE, VERBATIM};
use crate::compaction::{Session, LARGE_SESSIONS};
use crate::units::TurnNumber;

/// How many turns `a` and `b` share from their start.
fn common_turns(a: &[TurnNumber], b: &[TurnNumber]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

/// How many bytes `a` and `b` share from their start, compared eight bytes at a time, as the
/// wasm build's `memcmp` compares one: a summary that lists every turn is compared whole at each
/// compaction.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let (words, other) = (a.chunks_exact(8), b.chunks_exact(8));
    let word = |bytes: &[u8]| u64::from_ne_bytes(bytes.try_into().unwrap_or([0; 8]));
    let whole = words
        .zip(other)
        .take_while(|(x, y)| word(x) == word(y))
        .count()
        * 8;
    let rest = a.get(whole..).unwrap_or_default().iter();
    whole
        + rest
            .zip(b.get(whole..).unwrap_or_default())
            .take_while(|(x, y)| x == y)
            .count()
}

/// Whether `text` starts with `prefix`: `<[u8]>::starts_with`, compared eight bytes at a time,
/// as the wasm build's `memcmp` compares one: a summary that lists every turn is compared whole
/// at each compaction.
fn starts_with(text: &[u8], prefix: &[u8]) -> bool {
    let Some(head) = text.get(..prefix.len()) else {
        return false;
    };
    let (words, words_prefix) = (head.chunks_exact(8), prefix.chunks_exact(8));
    let (rest, rest_prefix) = (words.remainder(), words_prefix.remainder());
    words.zip(words_prefix).all(|(a, b)| {
        let word = |bytes: &[u8]| u64::from_ne_bytes(bytes.try_into().unwrap_or([0; 8]));
        word(a) == word(b)
    }) && rest == rest_prefix
}

/// A line of a window as the replay last read it, and the facts it names: when the line has only
/// grown since (a summary extended in place), only what it gained is read.
struct ReadLine {
    first: Option<TurnNumber>,
    text: Vec<u8>,
    names: FactBits,
}

/// A line of a window as [`replay_large`] last read it: its text and turns then, the facts it names,
/// where each is first named, and its [`Line::lineage`](crate::Line).
#[derive(Default)]
pub(super) struct GrownLine {
    first: Option<TurnNumber>,
    lineage: u64,
    text: Vec<u8>,
    turns: Vec<TurnNumber>,
    names: FactBits,
    // Invariant: for each fact of `names` (but one with an empty term), at[i] is the byte where
    // `text` first names it.
    at: Vec<usize>,
}

/// The lines of a window (its COLD gist, then its WARM lines) as the replay last read them, and
/// how many of them hold each turn. Read again after each compaction, each line from where it
/// differs from the line read before it with the same first turn: a line that only grew (a
/// summary extended in place, of the same lineage) from where it grew, without comparing what it
/// held; any other from where its text and turns differ. So a summary that lists every turn of a
/// long session costs what it gained at each compaction, not its length.
#[derive(Default)]
struct LineReader {
    lines: Vec<GrownLine>,
    // holding[n]: how many of `lines` hold turn n.
    holding: Vec<u32>,
}

impl LineReader {
    /// Whether a line read holds `turn`.
    fn hold(&self, turn: TurnNumber) -> bool {
        self.holding
            .get(turn.0 as usize)
            .is_some_and(|&count| count > 0)
    }

    /// Counts `turns` as held by one line more.
    fn come(&mut self, turns: &[TurnNumber]) {
        for turn in turns {
            if let Some(count) = self.holding.get_mut(turn.0 as usize) {
                *count += 1;
            }
        }
    }

    /// The turns of `read` from its `kept`-th on no longer count, and go to `left`.
    fn leave(&mut self, read: &mut GrownLine, kept: usize, left: &mut Vec<TurnNumber>) {
        let gone = read.turns.get(kept..).unwrap_or_default();
        left.extend_from_slice(gone);
        for turn in gone {
            if let Some(count) = self.holding.get_mut(turn.0 as usize) {
                *count = count.saturating_sub(1);
            }
        }
        read.turns.truncate(kept);
    }

    /// Reads `window`'s lines; returns the facts they name in a sentence (WARM) and as bare
    /// terms (the COLD gist), and pushes to `left` the turns that the lines read before held
    /// and may not now (those of a line gone, and those a line lost), in the order of those
    /// lines.
    fn read(
        &mut self,
        window: &crate::Window,
        finder: &FactFinder,
        left: &mut Vec<TurnNumber>,
    ) -> (FactBits, FactBits) {
        let mut old = core::mem::take(&mut self.lines);
        // The old lines before `next` were read again or are gone: the lines keep their order
        // from one compaction to the next, so each is looked for from there on.
        let mut next = 0;
        let mut bare = 0;
        if let Some(line) = window.cold() {
            bare = self.read_line(line, &mut old, &mut next, finder, left);
        }
        let mut meaning = 0;
        for line in window.warm() {
            meaning |= self.read_line(line, &mut old, &mut next, finder, left);
        }
        for gone in old.get_mut(next..).unwrap_or_default() {
            self.leave(gone, 0, left);
        }
        (meaning, bare)
    }

    /// Reads `line`, the next of the window's lines, against the old line with its first turn
    /// (from `old[next..]`, the old lines passed on the way gone); returns the facts it names.
    fn read_line(
        &mut self,
        line: &crate::Line,
        old: &mut [GrownLine],
        next: &mut usize,
        finder: &FactFinder,
        left: &mut Vec<TurnNumber>,
    ) -> FactBits {
        let first = line.turns().first().copied();
        let found = old
            .get(*next..)
            .unwrap_or_default()
            .iter()
            .position(|read| read.first == first);
        let mut read = match found {
            Some(at) => {
                for gone in old.get_mut(*next..*next + at).unwrap_or_default() {
                    self.leave(gone, 0, left);
                }
                *next += at + 1;
                old.get_mut(*next - 1)
                    .map(core::mem::take)
                    .unwrap_or_default()
            }
            None => GrownLine {
                first,
                at: vec![0; finder.facts.len()],
                ..GrownLine::default()
            },
        };
        let text = line.text().as_bytes();
        let grew = read.lineage != 0 && read.lineage == line.lineage();
        // What it held past what it shares with the line leaves; the line's own comes.
        // (A build for the built-in sessions reads every line whole: see LARGE_SESSIONS.)
        let kept = match (grew, LARGE_SESSIONS) {
            (true, _) => read.turns.len(),
            (false, true) => common_turns(line.turns(), &read.turns),
            (false, false) => 0,
        };
        self.leave(&mut read, kept, left);
        let come = line.turns().get(kept..).unwrap_or_default();
        self.come(come);
        read.turns.extend_from_slice(come);
        read.lineage = line.lineage();
        let same = match (grew, LARGE_SESSIONS) {
            (true, _) => read.text.len(),
            (false, true) => common_prefix(text, &read.text),
            (false, false) => 0,
        };
        if same < text.len() || same < read.text.len() {
            // A fact that ends after the shared part may start up to `longest - 1` bytes
            // before its end.
            let from = same.saturating_sub(finder.longest.saturating_sub(1));
            let kept = finder.within(&read, same);
            read.names = finder.find(text, from, kept, &mut read.at);
            read.text.truncate(same);
            read.text
                .extend_from_slice(text.get(same..).unwrap_or_default());
        }
        let names = read.names;
        self.lines.push(read);
        names
    }
}

impl FactFinder<'_> {
    /// The facts of `read` that its first `same` bytes name, where each was first found there.
    fn within(&self, read: &GrownLine, same: usize) -> FactBits {
        let mut names = self.empty;
        for (index, (_, term)) in self.facts.iter().enumerate() {
            let start = read.at.get(index).copied().unwrap_or(usize::MAX);
            if read.names & (1 << index) != 0 && start.saturating_add(term.len()) <= same {
                names |= 1 << index;
            }
        }
        names
    }
}

/// What one compaction of one policy took from its window, against the window at its peak (the
/// window before the step, and the new turn):
///
/// - `left_verbatim`: the turns it held word for word and no longer does;
/// - of those, `summarized`: now in a summary line (WARM, a summary, or the COLD gist) and in
///   none before; `already_summarized`: in a summary line before the step too, so that only
///   their verbatim copy left (Codex's handoff summary covers the user messages it keeps); and
///   `dropped`: in no line, gone outright;
/// - `summaries_dropped`: turns that were in a summary line at the peak and are in no line and
///   not verbatim after it (a summary that was itself dropped or rewritten without them);
/// - `masked`: turns still in place whose text the step replaced with a stub (observation
///   masking);
/// - `cut`: turns still in place, cut short to fit (Codex's newest user messages, which its
///   handoff summary covers too);
/// - `facts_lost`: the key facts the window named and no longer names at all, and
///   `facts_bare`: those it named in a sentence and now keeps only as a bare term in the gist.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct StepLoss {
    /// The turn whose step compacted.
    pub turn: TurnNumber,
    /// Turns the window held verbatim at the peak and no longer does.
    pub left_verbatim: Vec<TurnNumber>,
    /// Of `left_verbatim`, the turns now in a summary line that were in none before the step.
    pub summarized: Vec<TurnNumber>,
    /// Of `left_verbatim`, the turns a summary line covered before the step as well: only their
    /// verbatim copy left.
    pub already_summarized: Vec<TurnNumber>,
    /// Of `left_verbatim`, the turns in no line: gone outright.
    pub dropped: Vec<TurnNumber>,
    /// Turns in a summary line at the peak, and in no line and not verbatim after the step.
    pub summaries_dropped: Vec<TurnNumber>,
    /// Turns still in the window whose text the step replaced with a stub.
    pub masked: Vec<TurnNumber>,
    /// Turns still in the window, cut short to fit.
    pub cut: Vec<TurnNumber>,
    /// The labels of the facts the window named before the step and names nowhere after it.
    pub facts_lost: Vec<String>,
    /// The labels of the facts it named in a sentence before, and only in the gist after.
    pub facts_bare: Vec<String>,
}

/// Marks in `marks` (by turn number) where each turn of `window` is, and returns its verbatim
/// turns and the turns of its lines (the gist's, then each WARM line's), each in order.
fn mark(window: &crate::Window, marks: &mut [u8]) -> (Vec<TurnNumber>, Vec<TurnNumber>) {
    let mut verbatim = Vec::new();
    for (turn, cut) in window.held() {
        if let Some(mark) = marks.get_mut(turn.0 as usize) {
            *mark |= if cut.is_some() {
                VERBATIM | CUT
            } else {
                VERBATIM
            };
        }
        verbatim.push(turn);
    }
    let mut lines = Vec::new();
    for line in window.cold().into_iter().chain(window.warm()) {
        for &turn in line.turns() {
            if let Some(mark) = marks.get_mut(turn.0 as usize) {
                if *mark & IN_LINE == 0 {
                    lines.push(turn);
                }
                *mark |= IN_LINE;
            }
        }
    }
    (verbatim, lines)
}

/// Clears the marks [`mark`] set.
fn clear(marks: &mut [u8], (verbatim, lines): &(Vec<TurnNumber>, Vec<TurnNumber>)) {
    for turn in verbatim.iter().chain(lines) {
        if let Some(mark) = marks.get_mut(turn.0 as usize) {
            *mark = 0;
        }
    }
}

/// Plays `session` to its end, and returns what each of its compactions took from the window
/// ([`StepLoss`]). Only a compaction takes anything: any other step adds its turn verbatim,
/// so between compactions the window names what it named, and what the new turns say.
/// `said[n]` is what turn `n` names in its words, and in its speaker's name. A turn whose
/// text the window replaces is `masked` when the policy `masks` (a stub stands for it), and
/// `cut` otherwise (a part of it is kept).
pub(super) fn replay(
    session: &mut Session,
    finder: &FactFinder,
    said: &[(FactBits, FactBits)],
    masks: bool,
) -> Vec<StepLoss> {
    let said_by = |turn: TurnNumber| said.get(turn.0 as usize).copied().unwrap_or((0, 0));
    // The facts the window names in a sentence (a verbatim turn or a WARM line), and those it
    // names only as a bare term in the COLD gist.
    let (mut meaning, mut bare): (FactBits, FactBits) = (0, 0);
    let mut read_lines: Vec<ReadLine> = Vec::new();
    // What each verbatim turn cut short or masked names, by turn number, with the text read.
    let mut cut_names: Vec<Option<(String, FactBits)>> = vec![None; said.len()];
    let mut losses = Vec::new();
    // Where each turn is in the window before the step (`before`) and after a compaction
    // (`after`), by turn number. A step that does not compact only appends its turn, so
    // `before` is kept up to date turn by turn, and only a compaction marks a whole window:
    // a step costs what it changes, not what the window holds.
    let size = session.script().len() + 1;
    let (mut before, mut after) = (vec![0u8; size], vec![0u8; size]);
    let mut marked_before = mark(session.window(), &mut before);
    let at = |marks: &[u8], turn: TurnNumber| marks.get(turn.0 as usize).copied().unwrap_or(0);
    loop {
        let Some(step) = session.add_turn() else {
            return losses;
        };
        // The window at the peak names all it named, and what the new turn says.
        let (words, speaker) = said_by(step.turn);
        meaning |= words | speaker;
        bare &= !meaning;
        if !step.compacted {
            if let Some(mark) = before.get_mut(step.turn.0 as usize) {
                *mark |= VERBATIM;
            }
            marked_before.0.push(step.turn);
            continue;
        }
        let window = session.window();
        let marked = mark(window, &mut after);
        let mut loss = StepLoss {
            turn: step.turn,
            ..StepLoss::default()
        };
        // What became of each turn held at the peak, by the rule a session's `Lost`
        // follows: the verbatim turns (the new one among them), then those only in a line.
        for turn in marked_before.0.iter().copied().chain([step.turn]) {
            match left(at(&before, turn) | VERBATIM, at(&after, turn)) {
                Some(Left::Cut) if masks => loss.masked.push(turn),
                Some(Left::Cut) => loss.cut.push(turn),
                Some(kind) => {
                    loss.left_verbatim.push(turn);
                    match kind {
                        Left::Dropped => loss.dropped.push(turn),
                        Left::AlreadySummarized => loss.already_summarized.push(turn),
                        _ => loss.summarized.push(turn),
                    }
                }
                None => {}
            }
        }
        for &turn in &marked_before.1 {
            let was = at(&before, turn);
            if was & VERBATIM == 0 && left(was, at(&after, turn)).is_some() {
                loss.summaries_dropped.push(turn);
            }
        }
        // What the window names after the step: each verbatim turn as it holds it (a whole
        // turn's facts were found once, for the script), then each line, of which a line
        // that only grew is read from where it grew.
        let (mut now_meaning, mut now_bare): (FactBits, FactBits) = (0, 0);
        for (turn, cut) in window.held() {
            let (words, speaker) = said_by(turn);
            now_meaning |= speaker
                | match cut {
                    // A masked turn's stub is the same at every step: read once.
                    Some(text) => match cut_names.get_mut(turn.0 as usize) {
                        Some(Some((read, names))) if read.as_str() == text => *names,
                        Some(slot) => {
                            let names = finder.names(text.as_bytes());
                            *slot = Some((text.to_owned(), names));
                            names
                        }
                        None => finder.names(text.as_bytes()),
                    },
                    None => words,
                };
        }
        let mut read_now = Vec::with_capacity(read_lines.len() + 1);
        for (is_gist, line) in window
            .cold()
            .map(|line| (true, line))
            .into_iter()
            .chain(window.warm().map(|line| (false, line)))
        {
            let text = line.text().as_bytes();
            let first = line.turns().first().copied();
            let grown = read_lines
                .iter()
                .position(|read| read.first == first && starts_with(text, &read.text));
            let read = match grown {
                Some(index) => {
                    let mut read = read_lines.swap_remove(index);
                    // A fact that ends in the new text may start up to `longest - 1` bytes
                    // before it.
                    let from = read
                        .text
                        .len()
                        .saturating_sub(finder.longest.saturating_sub(1));
                    read.names |= finder.names(text.get(from..).unwrap_or_default());
                    read.text
                        .extend_from_slice(text.get(read.text.len()..).unwrap_or_default());
                    read
                }
                None => ReadLine {
                    first,
                    text: text.to_vec(),
                    names: finder.names(text),
                },
            };
            if is_gist {
                now_bare |= read.names;
            } else {
                now_meaning |= read.names;
            }
            read_now.push(read);
        }
        now_bare &= !now_meaning;
        read_lines = read_now;
        // (A fact no turn has said is named nowhere, and never lost.)
        loss.facts_lost = finder.labels((meaning | bare) & !(now_meaning | now_bare));
        loss.facts_bare = finder.labels(meaning & now_bare);
        (meaning, bare) = (now_meaning, now_bare);
        losses.push(loss);
        clear(&mut before, &marked_before);
        core::mem::swap(&mut before, &mut after);
        marked_before = marked;
    }
}

/// What changed among the verbatim turns of `session`'s window since the last call, ascending:
/// the turns its journal names, or, when the journal overflowed (or this build keeps none),
/// every turn up to `last`.
fn changed(session: &mut Session, last: TurnNumber) -> Vec<TurnNumber> {
    #[cfg(feature = "large-sessions")]
    {
        let journal = session.take_journal();
        if !journal.full {
            let mut turns = journal.turns;
            crate::sort::sort_by(&mut turns, TurnNumber::cmp);
            turns.dedup();
            return turns;
        }
    }
    #[cfg(not(feature = "large-sessions"))]
    let _ = session;
    (1..=last.0).map(TurnNumber).collect()
}

/// Where verbatim turns stand, and what they name, as a replay last read them: each turn read
/// again only when the window's journal says it changed, so that a compaction costs the turns
/// it moved, cut or masked, not the window.
struct Verbatim {
    // marks[n]: VERBATIM if turn n is verbatim, and CUT if a text stands for it.
    marks: Vec<u8>,
    // named[n]: what verbatim turn n names as the window holds it (its words or the text that
    // stands for it, and its speaker); 0 when it is not verbatim.
    named: Vec<FactBits>,
    // counts[i]: how many verbatim turns name fact i.
    counts: [u32; FactBits::BITS as usize],
}

impl Verbatim {
    /// Where `turn` stands in `window` now.
    fn mark(window: &crate::Window, turn: TurnNumber) -> u8 {
        let held = window
            .verbatim_counts()
            .binary_search_by_key(&turn, |(number, _)| *number)
            .is_ok();
        match (held, window.cut(turn).is_some()) {
            (false, _) => 0,
            (true, false) => VERBATIM,
            (true, true) => VERBATIM | CUT,
        }
    }

    /// The mark `turn` had when last read.
    fn was(&self, turn: TurnNumber) -> u8 {
        self.marks.get(turn.0 as usize).copied().unwrap_or(0)
    }

    /// Reads `turn` again: it stands at `mark`, and names `names`.
    fn set(&mut self, turn: TurnNumber, mark: u8, names: FactBits) {
        if let Some(slot) = self.marks.get_mut(turn.0 as usize) {
            *slot = mark;
        }
        let Some(slot) = self.named.get_mut(turn.0 as usize) else {
            return;
        };
        let old = core::mem::replace(slot, names);
        for (index, count) in self.counts.iter_mut().enumerate() {
            let bit = 1 << index;
            match (old & bit != 0, names & bit != 0) {
                (true, false) => *count -= 1,
                (false, true) => *count += 1,
                _ => {}
            }
        }
    }

    /// The facts some verbatim turn names.
    fn names(&self) -> FactBits {
        let mut names = 0;
        for (index, &count) in self.counts.iter().enumerate() {
            if count > 0 {
                names |= 1 << index;
            }
        }
        names
    }
}

/// [`replay`] in a build that reads sessions at real size
/// ([`LARGE_SESSIONS`]): the same answers, with each window line read from where it changed
/// ([`LineReader`]) and each verbatim turn read only when the window's journal says it changed
/// ([`Verbatim`]), so that a step's cost does not grow with the session. Plays `session`
/// to its end, and returns what each of its compactions took from the window
/// ([`StepLoss`]). Only a compaction takes anything: any other step adds its turn verbatim,
/// so between compactions the window names what it named, and what the new turns say.
/// `said[n]` is what turn `n` names in its words, and in its speaker's name. A turn whose
/// text the window replaces is `masked` when the policy `masks` (a stub stands for it), and
/// `cut` otherwise (a part of it is kept).
pub(super) fn replay_large(
    session: &mut Session,
    finder: &FactFinder,
    said: &[(FactBits, FactBits)],
    masks: bool,
) -> Vec<StepLoss> {
    let said_by = |turn: TurnNumber| said.get(turn.0 as usize).copied().unwrap_or((0, 0));
    // What verbatim `turn` names in `window`, its text or the one that stands for it.
    let names_in = |window: &crate::Window, turn: TurnNumber| {
        let (words, speaker) = said_by(turn);
        speaker
            | match window.cut(turn) {
                Some(text) => finder.names(text.as_bytes()),
                None => words,
            }
    };
    // The facts the window names in a sentence (a verbatim turn or a WARM line), and those it
    // names only as a bare term in the COLD gist.
    let (mut meaning, mut bare): (FactBits, FactBits) = (0, 0);
    let mut losses = Vec::new();
    let size = session.script().len() + 1;
    let mut verbatim = Verbatim {
        marks: vec![0; size],
        named: vec![0; size],
        counts: [0; FactBits::BITS as usize],
    };
    // Which turns the window's lines hold, `lines` counts line by line, and a line that grew
    // costs what it gained.
    let mut lines = LineReader {
        holding: vec![0; size],
        ..LineReader::default()
    };
    let mut left: Vec<TurnNumber> = Vec::new();
    let mut seen = vec![false; size];
    for turn in changed(session, TurnNumber(session.turn_count())) {
        let window = session.window();
        let mark = Verbatim::mark(window, turn);
        let names = if mark == 0 { 0 } else { names_in(window, turn) };
        verbatim.set(turn, mark, names);
    }
    lines.read(session.window(), finder, &mut left);
    let in_line = |held: bool| if held { IN_LINE } else { 0 };
    loop {
        let Some(step) = session.add_turn() else {
            return losses;
        };
        let changed = changed(session, step.turn);
        // The window at the peak names all it named, and what the new turn says.
        let (words, speaker) = said_by(step.turn);
        meaning |= words | speaker;
        bare &= !meaning;
        if !step.compacted {
            verbatim.set(step.turn, VERBATIM, words | speaker);
            continue;
        }
        let window = session.window();
        // The turns verbatim at the peak (the new one among them) that changed, and where each
        // was, in a line or not: before the lines are read again. The others stand as they did.
        let mut peak = Vec::with_capacity(changed.len());
        for &turn in &changed {
            let was = verbatim.was(turn);
            if was & VERBATIM != 0 || turn == step.turn {
                peak.push((turn, was | in_line(lines.hold(turn))));
            }
        }
        // What the window's lines name after the step, each read from where it changed.
        left.clear();
        let (mut now_meaning, mut now_bare) = lines.read(window, finder, &mut left);
        let mut loss = StepLoss {
            turn: step.turn,
            ..StepLoss::default()
        };
        for &(turn, was) in &peak {
            let now = Verbatim::mark(window, turn) | in_line(lines.hold(turn));
            if now & VERBATIM == 0 {
                loss.left_verbatim.push(turn);
                if now & IN_LINE == 0 {
                    loss.dropped.push(turn);
                } else if was & IN_LINE != 0 {
                    loss.already_summarized.push(turn);
                } else {
                    loss.summarized.push(turn);
                }
            } else if now & CUT != 0 && was & CUT == 0 {
                if masks {
                    loss.masked.push(turn);
                } else {
                    loss.cut.push(turn);
                }
            }
        }
        // A turn a line held at the peak that no line holds now, nor the window verbatim:
        // only a line gone or rewritten can have held it.
        for &turn in &left {
            let Some(seen) = seen.get_mut(turn.0 as usize) else {
                continue;
            };
            if *seen {
                continue;
            }
            *seen = true;
            let was_verbatim = verbatim.was(turn) & VERBATIM != 0 && turn != step.turn;
            if !was_verbatim && Verbatim::mark(window, turn) == 0 && !lines.hold(turn) {
                loss.summaries_dropped.push(turn);
            }
        }
        for turn in &left {
            if let Some(seen) = seen.get_mut(turn.0 as usize) {
                *seen = false;
            }
        }
        // Each verbatim turn that changed, read again (a whole turn's facts were found once,
        // for the script): what the verbatim turns name after the step.
        for &turn in &changed {
            let mark = Verbatim::mark(window, turn);
            let names = if mark == 0 { 0 } else { names_in(window, turn) };
            verbatim.set(turn, mark, names);
        }
        now_meaning |= verbatim.names();
        now_bare &= !now_meaning;
        // (A fact no turn has said is named nowhere, and never lost.)
        loss.facts_lost = finder.labels((meaning | bare) & !(now_meaning | now_bare));
        loss.facts_bare = finder.labels(meaning & now_bare);
        (meaning, bare) = (now_meaning, now_bare);
        losses.push(loss);
    }
}

#[cfg(test)]
mod tests {
    use super::{common_prefix, starts_with};

    #[test]
    fn starts_with_is_slice_starts_with_eight_bytes_at_a_time() {
        let text = b"summary of turn 1; summary of turn 2";
        for end in 0..=text.len() {
            assert!(starts_with(text, &text[..end]), "{end}");
            let mut other = text[..end].to_vec();
            if let Some(last) = other.last_mut() {
                *last ^= 1;
                assert!(!starts_with(text, &other), "{end}");
            }
        }
        assert!(!starts_with(b"short", b"shorter"));
        assert!(starts_with(b"", b""));
    }

    #[test]
    fn common_prefix_is_the_shared_start_eight_bytes_at_a_time() {
        let text = b"summary of turn 1; summary of turn 2";
        for end in 0..=text.len() {
            assert_eq!(common_prefix(text, &text[..end]), end);
            assert_eq!(common_prefix(&text[..end], text), end);
            let mut other = text.to_vec();
            if let Some(byte) = other.get_mut(end) {
                *byte ^= 1;
                assert_eq!(common_prefix(text, &other), end);
            }
        }
        assert_eq!(common_prefix(b"short", b"shorter"), 5);
        assert_eq!(common_prefix(b"", b""), 0);
    }

    /// `replay_large` reads only what the window's journal says changed; `replay` reads each
    /// window whole at every compaction. On random sessions under every policy, they agree.
    mod against_the_plain_replay {
        use super::super::{replay, replay_large};
        use crate::compaction::compare::facts::{facts_of, FactFinder};
        use crate::compaction::compare::policies::{policy, POLICIES};
        use crate::compaction::{PolicyId, Script, Session, SessionConfig};
        use crate::{Tokens, TurnSpec};
        use proptest::prelude::*;

        const WORDS: [&str; 9] = [
            "ORD-7", "refund", "RF-2", "Dana", "$180", "the", "order", "Policy", "ok.",
        ];
        const KINDS: [(&str, &str); 4] = [
            ("chatter", "assistant"),
            ("question", "user"),
            ("decision", "assistant"),
            ("tool", "tool"),
        ];

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(48))]

            #[test]
            fn the_replay_at_real_size_answers_as_the_plain_one(
                turns in prop::collection::vec(
                    (0usize..4, prop::collection::vec(0usize..9, 1..40)),
                    1..90,
                ),
                budget in 8u32..200,
                hot in 1u32..4,
            ) {
                let mut specs = Vec::new();
                for (kind, words) in &turns {
                    let text: Vec<&str> = words.iter().map(|&word| WORDS[word]).collect();
                    let (kind, role) = KINDS[*kind];
                    specs.push(TurnSpec {
                        speaker: Some(role.to_owned()),
                        kind: Some(kind.to_owned()),
                        text: Some(text.join(" ")),
                        // A summary of its first words; chatter goes without.
                        summary: (kind != "chatter").then(|| text[..text.len().div_ceil(2)].join(" ")),
                        role: Some(role.to_owned()),
                        ..TurnSpec::default()
                    });
                }
                let script = Script::new(specs).unwrap();
                let config = SessionConfig::new(Tokens(budget), hot).unwrap();
                let (facts, _) = facts_of(&script, false);
                let finder = FactFinder::new(&facts);
                let mut said = vec![(0, 0)];
                for turn in script.turns() {
                    said.push((
                        finder.names(turn.text().as_bytes()),
                        finder.names(turn.speaker().as_bytes()),
                    ));
                }
                for info in POLICIES {
                    let masks = info.id == PolicyId::ObservationMasking;
                    let session = || {
                        Session::with_policy(config, script.clone(), policy(info.id)).without_lost()
                    };
                    let plain = replay(&mut session(), &finder, &said, masks);
                    let large = replay_large(&mut session(), &finder, &said, masks);
                    prop_assert!(!plain.is_empty() || large.is_empty());
                    prop_assert_eq!(plain, large, "{:?}", info.id);
                }
            }
        }
    }
}
