//! The same session replayed under seven compaction policies, side by side.

use crate::prelude::*;
use serde::Serialize;

use crate::compaction::compare::frameworks::{
    HandoffCheckpoint, Interval, ObservationMasking, SlidingWindow, SummaryBuffer, Truncate,
};
use crate::compaction::lost::{each_key_term, left, Left, CUT, IN_LINE, VERBATIM};
use crate::compaction::policy::key_terms;
use crate::compaction::tokens::Counter;
use crate::compaction::{
    CompactionPolicy, HotWarmCold, Line, Script, Session, SessionConfig, SessionOptions,
    SessionState, LARGE_SESSIONS,
};
use crate::error::Error;
use crate::names::named;
use crate::units::{Tokens, TurnNumber};

/// A policy the playground compares: an id for code, a name for people, its rule in one line
/// and where it comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct PolicyInfo {
    /// Which policy, with a stable name such as `sliding-window`.
    pub id: PolicyId,
    /// The name shown on the page.
    pub name: &'static str,
    /// Whose rule it is: `this project`, or the framework or library.
    pub origin: &'static str,
    /// What it is: `seed design`, `agent framework`, `memory class`, `plain truncation` or
    /// `research baseline`.
    pub kind: &'static str,
    /// The rule in one line: when it runs, what stays verbatim, what is summarised.
    pub rule: &'static str,
    /// Where the rule comes from: repository or package, commit or version, path.
    pub source: &'static str,
    /// A link to that source; empty for this project's own policy.
    pub url: &'static str,
    /// Its own trigger, in percent of the budget, which the playground's `compact_at` replaces;
    /// `None` for a policy that compacts whatever the tokens (ADK, observation masking).
    pub trigger: Option<u32>,
}

/// The seven policies, ours first. Each framework's type documents its source and the rule in the
/// source's own words.
pub const POLICIES: [PolicyInfo; 7] = [
    PolicyInfo {
        id: PolicyId::HotWarmCold,
        name: "HOT / WARM / COLD",
        origin: "this project",
        kind: "seed design",
        rule: "When a turn takes the window over the budget: the last HOT turns (2 in the \
               seed) stay verbatim, older turns become one-line summaries (chatter is dropped), \
               and the oldest summaries are squeezed into one line of key terms until it fits.",
        source: "this project: the seed design",
        url: "",
        trigger: Some(100),
    },
    PolicyInfo {
        id: PolicyId::SlidingWindow,
        name: "Sliding window + recursive summary",
        origin: "Letta",
        kind: "agent framework",
        rule: "When the window passes 90% of the budget: the oldest 40%, 50%, … of the messages \
               are evicted, cutting just before an agent or tool turn, until the turns kept are \
               under 70%; the evicted turns and the old summary become one new summary, which \
               that check does not count. If the turns kept still reach the trigger, it \
               summarises those alone, and the summary of the evicted turns is lost (compact.py).",
        source: "letta-ai/letta@56ba9c2, letta/services/summarizer/: \
                 summarizer_sliding_window.py, compact.py",
        url: "https://github.com/letta-ai/letta/blob/56ba9c2/letta/services/summarizer/summarizer_sliding_window.py",
        trigger: Some(90),
    },
    PolicyInfo {
        id: PolicyId::SummaryBuffer,
        name: "Summary buffer",
        origin: "LangChain",
        kind: "memory class",
        rule: "When the verbatim turns pass the budget (max_token_limit): the oldest are popped \
               into a moving summary until they fit; the summary itself is not counted.",
        source: "langchain 0.3.30, langchain/memory/summary_buffer.py, ConversationSummaryBufferMemory",
        url: "https://pypi.org/project/langchain/0.3.30/",
        trigger: Some(100),
    },
    PolicyInfo {
        id: PolicyId::Handoff,
        name: "Handoff checkpoint",
        origin: "OpenAI Codex",
        kind: "agent framework",
        rule: "When the window reaches 90% of the budget: everything becomes one handoff \
               summary, and only the newest user messages stay verbatim, up to 20,000 tokens of \
               GPT-5-Codex's 272,000-token window (here the budget stands for that window: 7.35% \
               of it), the last one cut to fit, plus one … word where it was cut.",
        source: "openai/codex@e06dd0e, core/src/compact.rs; openai/codex@8db0700, \
                 protocol/src/openai_models.rs (the trigger)",
        url: "https://github.com/openai/codex/blob/e06dd0e/codex-rs/core/src/compact.rs",
        trigger: Some(90),
    },
    PolicyInfo {
        id: PolicyId::Interval,
        name: "Interval compaction",
        origin: "Google ADK",
        kind: "agent framework",
        rule: "After every 3 new invocations (a user message and the replies to it), whatever \
               the budget: those invocations and 1 before them become one more summary; nothing \
               in that range stays verbatim, and every summary stays.",
        source: "google-adk 1.21.0, google/adk/apps/compaction.py, compaction_interval 3, overlap_size 1",
        url: "https://pypi.org/project/google-adk/1.21.0/",
        trigger: None,
    },
    PolicyInfo {
        id: PolicyId::Truncate,
        name: "Truncate",
        origin: "LangChain",
        kind: "plain truncation",
        rule: "When the window passes the budget: the oldest turns are dropped, with no \
               summary, until it fits (ours keeps the newest even when it alone is over).",
        source: "langchain 0.3.30 with langchain-core 0.3.85, langchain_core/messages/utils.py, \
                 trim_messages, strategy \"last\"",
        url: "https://pypi.org/project/langchain-core/0.3.85/",
        trigger: Some(100),
    },
    PolicyInfo {
        id: PolicyId::ObservationMasking,
        name: "Observation masking",
        origin: "JetBrains Research",
        kind: "research baseline",
        rule: "After every turn, whatever the budget: every tool output but the newest is \
               replaced by a placeholder; every other turn stays verbatim, and nothing is \
               summarised or dropped.",
        source: "Lindenbauer et al. 2025, arXiv 2508.21433; SWE-agent@3ea751c, \
                 sweagent/agent/history_processors.py, LastNObservations",
        url: "https://github.com/SWE-agent/SWE-agent/blob/3ea751c087f32b16e039a2233dd6eefecef325d5/sweagent/agent/history_processors.py",
        trigger: None,
    },
];

/// The policies of [`POLICIES`], each with a stable name for code and JSON.
///
/// ```
/// use agent_memory_widgets::{policy, PolicyId, Session, SessionConfig};
///
/// # fn main() -> Result<(), agent_memory_widgets::Error> {
/// let id: PolicyId = "sliding-window".parse()?;
/// assert_eq!(id, PolicyId::SlidingWindow);
/// assert_eq!(id.info().origin, "Letta");
/// let session = Session::live(SessionConfig::default(), policy(id));
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PolicyId {
    /// [`HotWarmCold`], the seed design's.
    HotWarmCold,
    /// [`SlidingWindow`], Letta's.
    SlidingWindow,
    /// [`SummaryBuffer`], LangChain's.
    SummaryBuffer,
    /// [`HandoffCheckpoint`], OpenAI Codex's.
    Handoff,
    /// [`Interval`], Google ADK's.
    Interval,
    /// [`Truncate`], LangChain's `trim_messages`.
    Truncate,
    /// [`ObservationMasking`], the baseline of Lindenbauer et al. 2025 (SWE-agent's).
    ObservationMasking,
}

named!(PolicyId, "policy", {
    HotWarmCold => "hot-warm-cold",
    SlidingWindow => "sliding-window",
    SummaryBuffer => "summary-buffer",
    Handoff => "handoff",
    Interval => "interval",
    Truncate => "truncate",
    ObservationMasking => "observation-masking",
});

impl PolicyId {
    /// The policy's entry in [`POLICIES`].
    pub fn info(self) -> &'static PolicyInfo {
        // Invariant: POLICIES has one entry per PolicyId, in the enum's order (a test checks),
        // so the index is in bounds and the check compiles away.
        #[allow(clippy::indexing_slicing)]
        &POLICIES[self as usize]
    }
}

/// A fresh policy of kind `id`.
pub fn policy(id: PolicyId) -> Box<dyn CompactionPolicy> {
    match id {
        PolicyId::HotWarmCold => Box::new(HotWarmCold::default()),
        PolicyId::SlidingWindow => Box::new(SlidingWindow),
        PolicyId::SummaryBuffer => Box::new(SummaryBuffer),
        PolicyId::Handoff => Box::new(HandoffCheckpoint),
        PolicyId::Interval => Box::new(Interval::default()),
        PolicyId::Truncate => Box::new(Truncate),
        PolicyId::ObservationMasking => Box::new(ObservationMasking::default()),
    }
}

/// The refund-desk facts the playground looks for in each window: a label, and the term whose
/// presence shows the fact survived. See [`FACTS_RULE`].
pub const KEY_FACTS: [(&str, &str); 7] = [
    ("Dana", "Dana"),
    ("ORD-3300", "ORD-3300"),
    ("$200.00", "$200.00"),
    ("30-day window", "30-day"),
    ("10% fee", "10%"),
    ("$180.00", "$180.00"),
    ("Globex", "Globex"),
];

/// The most key terms the playground looks for in a conversation other than the refund desk.
pub const MAX_FACT_TERMS: usize = 8;

/// How the playground chose the facts it looks for: the columns of the "facts the window still
/// names" matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FactsFrom {
    /// The refund desk's [`KEY_FACTS`], chosen by hand with the seed.
    RefundDesk,
    /// A conversation with tool outputs: by [`TOOL_FACTS_RULE`].
    ToolResults,
    /// Any other conversation: by [`KEY_TERMS_RULE`].
    KeyTerms,
}

crate::names::named!(FactsFrom, "factsFrom", {
    RefundDesk => "refundDesk",
    ToolResults => "toolResults",
    KeyTerms => "keyTerms",
});

impl FactsFrom {
    /// The rule in words, to state under the matrix.
    pub fn rule(self) -> &'static str {
        match self {
            FactsFrom::RefundDesk => {
                "The columns are the refund desk's key facts, chosen with the seed."
            }
            FactsFrom::ToolResults => TOOL_FACTS_RULE,
            FactsFrom::KeyTerms => KEY_TERMS_RULE,
        }
    }
}

/// How the facts of a conversation with tool outputs are chosen.
pub const TOOL_FACTS_RULE: &str = "The columns are the key facts of this conversation's tool \
    results: the IDs, amounts, names and dates (words with a digit, or starting with a capital) \
    that a tool's output gives and a turn that is not a tool's also names, the first 8 in the \
    order the tools gave them.";

/// How the facts of any other conversation are chosen.
pub const KEY_TERMS_RULE: &str = "The columns are the first 8 key terms of this conversation \
    (names, IDs, amounts): the words the COLD gist would keep, with a digit or a capital letter, \
    less a sentence's first word without a digit (such as The or Sure) and any word of one character.";

/// The facts the playground looks for in `script`, and how they were chosen: [`KEY_FACTS`] for
/// the refund desk (as the caller has checked: `refund_desk`); for a conversation with tool
/// outputs, by [`TOOL_FACTS_RULE`]; for any other, or one whose tool outputs give no such fact,
/// by [`KEY_TERMS_RULE`]. Each is its own label; at most [`MAX_FACT_TERMS`].
fn facts_of(script: &Script, refund_desk: bool) -> (Vec<(String, String)>, FactsFrom) {
    if refund_desk {
        let facts = KEY_FACTS
            .iter()
            .map(|&(label, term)| (label.to_owned(), term.to_owned()))
            .collect();
        return (facts, FactsFrom::RefundDesk);
    }
    let tool = |turn: &crate::Turn| turn.kind() == crate::Kind::Tool;
    let mut said: Vec<&str> = Vec::new();
    for turn in script.turns().iter().filter(|turn| !tool(turn)) {
        said.extend(key_terms(turn.text()));
    }
    // Sorted, so that each tool result's term is looked up, not searched for.
    crate::sort::sort_by(&mut said, |a, b| a.cmp(b));
    said.dedup();
    let mut facts: Vec<(String, String)> = Vec::new();
    'tools: for turn in script.turns().iter().filter(|turn| tool(turn)) {
        for term in key_terms(turn.text()) {
            let known = facts.iter().any(|(label, _)| label == term);
            if known || term.chars().nth(1).is_none() || said.binary_search(&term).is_err() {
                continue;
            }
            if facts.len() == MAX_FACT_TERMS {
                break 'tools;
            }
            facts.push((term.to_owned(), term.to_owned()));
        }
    }
    if !facts.is_empty() {
        return (facts, FactsFrom::ToolResults);
    }
    for turn in script.turns() {
        each_key_term(turn.text(), true, |term| {
            let known = facts.iter().any(|(label, _)| label == term);
            if !known && facts.len() < MAX_FACT_TERMS {
                facts.push((term.to_owned(), term.to_owned()));
            }
        });
        if facts.len() == MAX_FACT_TERMS {
            break;
        }
    }
    (facts, FactsFrom::KeyTerms)
}

/// How the playground tells what a window still knows, the same for every policy.
pub const FACTS_RULE: &str = "\u{2713} meaning: its term is in a sentence the model reads, a \
    verbatim turn (its words or its speaker) or a summary line. ~ bare term: only in the COLD \
    gist, a list of terms without their meaning. \u{2717} gone: in neither, though a turn has \
    brought it up. \u{2013} not yet said: no turn so far has, in its words, speaker or summary. \
    The same rule holds for every policy.";

/// What a window still says about one of [`KEY_FACTS`], by [`FACTS_RULE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Named {
    /// The term is in a verbatim turn (its text or its speaker) or a summary line: a sentence
    /// that says what it means.
    Meaning,
    /// The term is only in the COLD gist, a list of bare key terms.
    BareTerm,
    /// The window does not name it, though a turn added so far did.
    Gone,
    /// No turn added so far brings it up, in its text, speaker or summary: the conversation has
    /// not come to it yet.
    NotYetSaid,
}

/// Whether `needle` occurs in `text`: a scan for its first byte, compared from there. The texts
/// are short, and `str::contains` with a `&str` pattern brings in the two-way searcher, several
/// KB of wasm.
fn has_substring(text: &str, needle: &str) -> bool {
    let Some((&first, rest)) = needle.as_bytes().split_first() else {
        return true;
    };
    let text = text.as_bytes();
    text.iter().enumerate().any(|(at, &byte)| {
        byte == first
            && text
                .get(at + 1..at + 1 + rest.len())
                .is_some_and(|tail| tail == rest)
    })
}

/// The facts a text names, as bits: fact `i` of the playground is bit `i`.
type FactBits = u32;

const _: () = assert!(MAX_FACT_TERMS <= FactBits::BITS as usize);

/// Finds which of a playground's facts a text names, reading the text once for all of them: a
/// byte is compared with the facts that start with it, and no others. The same test as
/// [`has_substring`] per fact, which [`Named::of`] uses: the replay's answers must equal it.
struct FactFinder<'a> {
    facts: &'a [(String, String)],
    // The facts that start with each byte; `empty`, those every text names.
    starts: [FactBits; 256],
    empty: FactBits,
    // The length of the longest term, in bytes.
    longest: usize,
}

impl<'a> FactFinder<'a> {
    fn new(facts: &'a [(String, String)]) -> FactFinder<'a> {
        let mut finder = FactFinder {
            facts,
            starts: [0; 256],
            empty: 0,
            longest: 0,
        };
        for (index, (_, term)) in facts.iter().enumerate() {
            let bit = 1 << index;
            match term.as_bytes().first() {
                Some(&byte) => {
                    if let Some(starts) = finder.starts.get_mut(usize::from(byte)) {
                        *starts |= bit;
                    }
                }
                None => finder.empty |= bit,
            }
            finder.longest = finder.longest.max(term.len());
        }
        finder
    }

    /// The facts `text` names.
    fn names(&self, text: &[u8]) -> FactBits {
        let mut found = self.empty;
        for (at, &byte) in text.iter().enumerate() {
            let mut candidates = self.starts.get(usize::from(byte)).copied().unwrap_or(0) & !found;
            while candidates != 0 {
                let index = candidates.trailing_zeros();
                candidates &= candidates - 1;
                let term = self
                    .facts
                    .get(index as usize)
                    .map(|(_, term)| term.as_bytes());
                if term.is_some_and(|term| text.get(at..).unwrap_or_default().starts_with(term)) {
                    found |= 1 << index;
                }
            }
        }
        found
    }

    /// `found` and the facts `text` names from byte `from` on that are not in `found`, each with
    /// where it starts in `text` written in `at` (its first place from `from` on).
    fn find(&self, text: &[u8], from: usize, mut found: FactBits, at: &mut [usize]) -> FactBits {
        for (offset, &byte) in text.get(from..).unwrap_or_default().iter().enumerate() {
            let place = from + offset;
            let mut candidates = self.starts.get(usize::from(byte)).copied().unwrap_or(0) & !found;
            while candidates != 0 {
                let index = candidates.trailing_zeros();
                candidates &= candidates - 1;
                let term = self
                    .facts
                    .get(index as usize)
                    .map(|(_, term)| term.as_bytes());
                if term.is_some_and(|term| text.get(place..).unwrap_or_default().starts_with(term))
                {
                    found |= 1 << index;
                    if let Some(slot) = at.get_mut(index as usize) {
                        *slot = place;
                    }
                }
            }
        }
        found
    }

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

    /// The labels of the facts in `bits`, in the playground's order.
    fn labels(&self, bits: FactBits) -> Vec<String> {
        let mut labels = Vec::new();
        for (index, (label, _)) in self.facts.iter().enumerate() {
            if bits & (1 << index) != 0 {
                labels.push(label.clone());
            }
        }
        labels
    }
}

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

/// A line of a window as [`Playground::replay_large`] last read it: its text and turns then, the facts it names,
/// where each is first named, and its [`Line::lineage`](crate::Line).
#[derive(Default)]
struct GrownLine {
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

named!(Named, "named", {
    Meaning => "meaning",
    BareTerm => "bareTerm",
    Gone => "gone",
    NotYetSaid => "notYetSaid",
});

impl Named {
    /// How `state`'s window names `term`, by [`FACTS_RULE`]: from its verbatim turns (their text
    /// as the window holds it, and who said them), its WARM lines and its COLD gist.
    pub fn of(state: &SessionState, term: &str) -> Named {
        let names = |text: &str| has_substring(text, term);
        if state
            .hot
            .iter()
            .any(|turn| names(&turn.text) || names(&turn.speaker))
            || state.warm.iter().any(|line| names(line.text()))
        {
            Named::Meaning
        } else if state.cold.as_ref().is_some_and(|line| names(line.text())) {
            Named::BareTerm
        } else {
            Named::Gone
        }
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

/// Marks in `marks` (by turn number) which turns `window` holds verbatim, and which of those it
/// cut short or masked, and returns its verbatim turns in order.
fn mark_verbatim(window: &crate::Window, marks: &mut [u8]) -> Vec<TurnNumber> {
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
    verbatim
}

/// Clears the marks of `turns`.
fn clear_turns(marks: &mut [u8], turns: &[TurnNumber]) {
    for turn in turns {
        if let Some(mark) = marks.get_mut(turn.0 as usize) {
            *mark = 0;
        }
    }
}

/// One policy's row at the playground's turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PolicyRow {
    /// Which policy.
    pub info: PolicyInfo,
    /// The window's tokens after each turn of the whole script (for the sparkline).
    pub series: Vec<Tokens>,
    /// The window's tokens with each turn, before that turn's compaction.
    pub peaks: Vec<Tokens>,
    /// The turns of the whole script after whose step the window is over the budget: the
    /// verdict for each point of `series`, so that a page draws it without comparing.
    pub over_turns: Vec<TurnNumber>,
    /// Compaction steps up to the playground's turn.
    pub compactions: u32,
    /// The window's tokens at the playground's turn.
    pub tokens: Tokens,
    /// For each of the state's `facts`, how the window at the playground's turn names it.
    pub kept: Vec<Named>,
    /// What each compaction up to the playground's turn took from the window, oldest first.
    pub losses: Vec<StepLoss>,
    /// The session state at the playground's turn, for the tier view, without its transcript:
    /// the playground never shows one, and seven copies of the script would make every state
    /// seven times its size ([`Session::state`](crate::Session::state) has it).
    pub window: SessionState,
}

/// A snapshot of the playground.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PlaygroundState {
    /// Turns added, the same for every policy.
    pub turn: u32,
    /// Turns in the script.
    pub total_turns: u32,
    /// The token budget every policy is given.
    pub budget: Tokens,
    /// The share of the budget, in percent, at which every policy with a token trigger compacts;
    /// `None` when each keeps its own ([`SessionConfig::with_compact_at`]).
    pub compact_at: Option<u32>,
    /// That share of the budget in tokens, rounded down ([`SessionConfig::threshold`]): the
    /// window a policy with a token trigger compacts past; `None` without `compact_at`.
    pub trigger: Option<Tokens>,
    /// What a [`HotWarmCold`](crate::HotWarmCold) compaction brings the window down to
    /// ([`SessionConfig::target`]): the whole budget unless `compact_to` is set.
    pub target: Tokens,
    /// The labels of the facts looked for, in the order of each row's `kept`: [`KEY_FACTS`]'
    /// for the refund desk, else as `facts_from` says.
    pub facts: Vec<String>,
    /// [`FACTS_RULE`], to state under the facts.
    pub facts_rule: &'static str,
    /// How `facts` were chosen.
    pub facts_from: FactsFrom,
    /// That rule in words ([`FactsFrom::rule`]), to state under the facts.
    pub facts_chosen: &'static str,
    /// One row per policy, in the order of [`POLICIES`].
    pub policies: Vec<PolicyRow>,
}

/// One script replayed under every policy of [`POLICIES`], stepped together.
///
/// # Example
///
/// ```
/// use agent_memory_widgets::{Named, Playground, PolicyId};
///
/// let mut playground = Playground::default(); // the refund desk, budget 40
/// playground.go_to(10);
/// let state = playground.state();
/// let ours = &state.policies[0];
/// let truncate = &state.policies[PolicyId::Truncate as usize];
/// assert!(!ours.kept.contains(&Named::Gone)); // every key fact survives compaction
/// assert_eq!(ours.kept[3], Named::BareTerm); // "30-day" survives, in the COLD gist alone
/// assert_eq!(truncate.kept[1], Named::Gone); // plain truncation has forgotten the order number
/// ```
pub struct Playground {
    sessions: Vec<Session>,
    // Invariant: series[i] and peaks[i] hold session i's whole run; losses[i] its compactions.
    series: Vec<Vec<Tokens>>,
    peaks: Vec<Vec<Tokens>>,
    losses: Vec<Vec<StepLoss>>,
    // (label, term) of each fact looked for: see `facts_of`.
    facts: Vec<(String, String)>,
    // Invariant: first_said[i] is the number of the first turn that brings up facts[i] (in its
    // words, speaker or summary), or u32::MAX if none does.
    first_said: Vec<u32>,
    facts_from: FactsFrom,
}

/// The number of the first turn of `script` whose words, speaker or summary name `term`, or
/// `u32::MAX` if none does: before it, the fact is not yet said.
fn first_said(script: &Script, term: &str) -> u32 {
    let mut number = 0;
    for turn in script.turns() {
        number += 1;
        if has_substring(turn.text(), term)
            || has_substring(turn.speaker(), term)
            || turn
                .summary()
                .is_some_and(|summary| has_substring(summary, term))
        {
            return number;
        }
    }
    u32::MAX
}

impl Playground {
    /// Replays `script` under every policy once (for the sparklines), then stands at turn 0.
    pub fn new(config: SessionConfig, script: Script) -> Playground {
        Playground::counting(config, script, &Counter::default())
    }

    /// [`Playground::new`], every policy's session counting tokens with `counter`.
    fn counting(config: SessionConfig, script: Script, counter: &Counter) -> Playground {
        let refund_desk = script == Script::refund_desk();
        let (facts, facts_from) = facts_of(&script, refund_desk);
        let mut said = Vec::with_capacity(facts.len());
        for (_, term) in &facts {
            said.push(first_said(&script, term));
        }
        let mut playground = Playground {
            sessions: Vec::new(),
            series: Vec::new(),
            peaks: Vec::new(),
            losses: Vec::new(),
            facts,
            first_said: said,
            facts_from,
        };
        let finder = FactFinder::new(&playground.facts);
        // What each turn names, by turn number (there is no turn 0): found once, for all seven
        // replays.
        let mut said = Vec::with_capacity(script.len() + 1);
        said.push((0, 0));
        for turn in script.turns() {
            said.push((
                finder.names(turn.text().as_bytes()),
                finder.names(turn.speaker().as_bytes()),
            ));
        }
        for info in POLICIES {
            let session = Session::with_policy(config, script.clone(), policy(info.id));
            // (This project's wasm builds keep no such record: see `Step::lost`.)
            #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
            let session = session.without_lost();
            let mut session = session;
            if !counter.is_words() {
                session = session.with_counter(counter.clone());
            }
            // Observation masking replaces a turn with a stub; Codex's handoff keeps a part.
            let masks = info.id == PolicyId::ObservationMasking;
            let losses = match LARGE_SESSIONS {
                true => playground.replay_large(&mut session, &finder, &said, masks),
                false => playground.replay(&mut session, &finder, &said, masks),
            };
            // One plain loop, not two collects: each is a `Vec::from_iter` in the wasm.
            let log = session.log();
            let mut series = Vec::with_capacity(log.len());
            let mut peaks = Vec::with_capacity(log.len());
            for step in log {
                series.push(step.tokens_after);
                peaks.push(step.peak_tokens);
            }
            playground.series.push(series);
            playground.peaks.push(peaks);
            playground.losses.push(losses);
            session.reset();
            playground.sessions.push(session);
        }
        playground
    }

    /// Plays `session` to its end, and returns what each of its compactions took from the window
    /// ([`StepLoss`]). Only a compaction takes anything: any other step adds its turn verbatim,
    /// so between compactions the window names what it named, and what the new turns say.
    /// `said[n]` is what turn `n` names in its words, and in its speaker's name. A turn whose
    /// text the window replaces is `masked` when the policy `masks` (a stub stands for it), and
    /// `cut` otherwise (a part of it is kept).
    fn replay(
        &self,
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

    /// [`Playground::replay`] in a build that reads sessions at real size
    /// ([`LARGE_SESSIONS`]): the same answers, with each window line read from where it changed
    /// ([`LineReader`]), so that a step's cost does not grow with the session. Plays `session`
    /// to its end, and returns what each of its compactions took from the window
    /// ([`StepLoss`]). Only a compaction takes anything: any other step adds its turn verbatim,
    /// so between compactions the window names what it named, and what the new turns say.
    /// `said[n]` is what turn `n` names in its words, and in its speaker's name. A turn whose
    /// text the window replaces is `masked` when the policy `masks` (a stub stands for it), and
    /// `cut` otherwise (a part of it is kept).
    fn replay_large(
        &self,
        session: &mut Session,
        finder: &FactFinder,
        said: &[(FactBits, FactBits)],
        masks: bool,
    ) -> Vec<StepLoss> {
        let said_by = |turn: TurnNumber| said.get(turn.0 as usize).copied().unwrap_or((0, 0));
        // The facts the window names in a sentence (a verbatim turn or a WARM line), and those it
        // names only as a bare term in the COLD gist.
        let (mut meaning, mut bare): (FactBits, FactBits) = (0, 0);
        // What each verbatim turn cut short or masked names, by turn number, with the text read.
        let mut cut_names: Vec<Option<(String, FactBits)>> = vec![None; said.len()];
        let mut losses = Vec::new();
        // Which turns are verbatim in the window before the step (`before`) and after a
        // compaction (`after`), by turn number. A step that does not compact only appends its
        // turn, so `before` is kept up to date turn by turn, and only a compaction marks a whole
        // window: a step costs what it changes, not what the window holds. Which turns its lines
        // hold, `lines` counts line by line, and a line that grew costs what it gained.
        let size = session.script().len() + 1;
        let (mut before, mut after) = (vec![0u8; size], vec![0u8; size]);
        let mut lines = LineReader {
            holding: vec![0; size],
            ..LineReader::default()
        };
        let mut left: Vec<TurnNumber> = Vec::new();
        let mut seen = vec![false; size];
        let mut verbatim_before = mark_verbatim(session.window(), &mut before);
        lines.read(session.window(), finder, &mut left);
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
                verbatim_before.push(step.turn);
                continue;
            }
            let window = session.window();
            let verbatim_after = mark_verbatim(window, &mut after);
            // Where the turns verbatim at the peak were, in a line or not: before the lines are
            // read again.
            let mut was_in_line = Vec::with_capacity(verbatim_before.len() + 1);
            for turn in verbatim_before.iter().copied().chain([step.turn]) {
                was_in_line.push(lines.hold(turn));
            }
            // What the window names after the step: each line, read from where it changed,
            // then each verbatim turn as it holds it (a whole turn's facts were found once, for
            // the script).
            left.clear();
            let (mut now_meaning, mut now_bare) = lines.read(window, finder, &mut left);
            let mut loss = StepLoss {
                turn: step.turn,
                ..StepLoss::default()
            };
            let in_line = |held: bool| if held { IN_LINE } else { 0 };
            for (turn, &held) in verbatim_before
                .iter()
                .copied()
                .chain([step.turn])
                .zip(&was_in_line)
            {
                let was = at(&before, turn) | in_line(held);
                let now = at(&after, turn) | in_line(lines.hold(turn));
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
                if at(&before, turn) & VERBATIM == 0 && at(&after, turn) == 0 && !lines.hold(turn) {
                    loss.summaries_dropped.push(turn);
                }
            }
            for turn in &left {
                if let Some(seen) = seen.get_mut(turn.0 as usize) {
                    *seen = false;
                }
            }
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
            now_bare &= !now_meaning;
            // (A fact no turn has said is named nowhere, and never lost.)
            loss.facts_lost = finder.labels((meaning | bare) & !(now_meaning | now_bare));
            loss.facts_bare = finder.labels(meaning & now_bare);
            (meaning, bare) = (now_meaning, now_bare);
            losses.push(loss);
            clear_turns(&mut before, &verbatim_before);
            core::mem::swap(&mut before, &mut after);
            verbatim_before = verbatim_after;
        }
    }

    /// A playground from options as JS or JSON gives them, every value checked.
    ///
    /// # Errors
    ///
    /// As [`Session::from_options`].
    pub fn from_options(options: SessionOptions) -> Result<Playground, Error> {
        let session = Session::from_options(options)?;
        Ok(Playground::counting(
            session.config(),
            session.script().clone(),
            session.window().counter(),
        ))
    }

    /// Moves every policy to `count` turns added (clamped to the script).
    pub fn go_to(&mut self, count: u32) {
        for session in &mut self.sessions {
            session.go_to(count);
        }
    }

    /// How many turns every policy has added.
    pub fn turn_count(&self) -> u32 {
        self.sessions.first().map_or(0, Session::turn_count)
    }

    /// A snapshot of every policy at the current turn.
    pub fn state(&self) -> PlaygroundState {
        let turn = self.turn_count();
        let first = self.sessions.first();
        let mut policies = Vec::with_capacity(self.sessions.len());
        for (i, (info, session)) in POLICIES.iter().zip(&self.sessions).enumerate() {
            let mut window = session.state();
            window.transcript = Vec::new();
            let mut kept = Vec::with_capacity(self.facts.len());
            for ((_, term), &said_at) in self.facts.iter().zip(&self.first_said) {
                kept.push(if said_at <= turn {
                    Named::of(&window, term)
                } else {
                    Named::NotYetSaid
                });
            }
            // `get`, not indexing (every policy has all three): see `frameworks::from`.
            let mut losses = Vec::new();
            for loss in self.losses.get(i).into_iter().flatten() {
                if loss.turn.0 <= turn {
                    losses.push(loss.clone());
                }
            }
            let compactions = losses.len() as u32;
            let series = self.series.get(i).cloned().unwrap_or_default();
            // One plain loop (an iterator chain is code of its own in the wasm).
            let mut over_turns = Vec::new();
            let mut number = 0;
            for tokens in &series {
                number += 1;
                if *tokens > window.budget {
                    over_turns.push(TurnNumber(number));
                }
            }
            policies.push(PolicyRow {
                info: *info,
                series,
                peaks: self.peaks.get(i).cloned().unwrap_or_default(),
                over_turns,
                compactions,
                tokens: window.tokens,
                kept,
                losses,
                window,
            });
        }
        PlaygroundState {
            turn,
            total_turns: first.map_or(0, |s| s.script().len() as u32),
            budget: first.map_or(Tokens(0), |s| s.config().budget()),
            compact_at: first.and_then(|s| s.config().compact_at()),
            trigger: first.and_then(|s| {
                let config = s.config();
                config
                    .compact_at()
                    .map(|_| Tokens(config.threshold(100) as u32))
            }),
            target: first.map_or(Tokens(0), |s| s.config().target()),
            facts: self.facts.iter().map(|(label, _)| label.clone()).collect(),
            facts_rule: FACTS_RULE,
            facts_from: self.facts_from,
            facts_chosen: self.facts_from.rule(),
            policies,
        }
    }
}

impl Default for Playground {
    /// The refund-desk script with the seed's budget of 40 and 2 HOT turns.
    fn default() -> Playground {
        Playground::new(SessionConfig::default(), Script::refund_desk())
    }
}

/// Every text the model sees in `state`'s window.
pub fn window_text(state: &SessionState) -> String {
    let cold = state.cold.iter().map(Line::text);
    let warm = state.warm.iter().map(Line::text);
    let hot = state.hot.iter().map(|turn| turn.text.as_str());
    let mut text = String::new();
    for line in cold.chain(warm).chain(hot) {
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(line);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::{common_prefix, has_substring, starts_with};

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

    #[test]
    fn has_substring_finds_a_needle_anywhere_and_only_whole() {
        assert!(has_substring("refund ORD-3300 now", "ORD-3300"));
        assert!(has_substring("ORD-3300", "ORD-3300"));
        assert!(has_substring("fee $180.00", "$180.00"));
        assert!(has_substring("anything", ""));
        assert!(!has_substring("ORD-330", "ORD-3300"));
        assert!(!has_substring("ord-3300", "ORD-3300"));
        assert!(!has_substring("", "x"));
    }
}
