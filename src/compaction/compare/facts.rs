//! The fact finder: which facts the playground looks for in a conversation, and which of them a
//! text or a window names.

use crate::prelude::*;

use crate::compaction::lost::each_key_term;
use crate::compaction::policy::{key_term, key_terms};
use crate::compaction::{Script, SessionState};
use crate::names::named;

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
    that a tool's output gives, not as a sentence's first word (such as The), and another \
    speaker's turn also names, at most 8, in the tools' order.";

/// How the facts of any other conversation are chosen.
pub const KEY_TERMS_RULE: &str = "The columns are this conversation's first key terms, at most 8 \
    (names, IDs, amounts): the words the COLD gist would keep, with a digit or a capital letter, \
    less a sentence's first word without a digit (such as The or Sure) and any word of one character.";

/// The facts the playground looks for in `script`, and how they were chosen: [`KEY_FACTS`] for
/// the refund desk (as the caller has checked: `refund_desk`); for a conversation with tool
/// outputs, by [`TOOL_FACTS_RULE`]; for any other, or one whose tool outputs give no such fact,
/// by [`KEY_TERMS_RULE`]. Each is its own label; at most [`MAX_FACT_TERMS`].
pub(super) fn facts_of(script: &Script, refund_desk: bool) -> (Vec<(String, String)>, FactsFrom) {
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
        // A sentence ends at `.`, `!` or `?`, not at a `:`, which in JSON follows each key.
        let mut opens_sentence = true;
        for word in crate::text::words(turn.text()) {
            let ends = matches!(word.bytes().last(), Some(b'.' | b'!' | b'?'));
            let opening = core::mem::replace(&mut opens_sentence, ends);
            let Some(term) = key_term(word) else {
                continue;
            };
            let known = facts.iter().any(|(label, _)| label == term);
            let first_word = opening && !term.bytes().any(|b| b.is_ascii_digit());
            if known
                || first_word
                || term.chars().nth(1).is_none()
                || said.binary_search(&term).is_err()
            {
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
pub(super) fn has_substring(text: &str, needle: &str) -> bool {
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
pub(super) type FactBits = u32;

const _: () = assert!(MAX_FACT_TERMS <= FactBits::BITS as usize);

/// Finds which of a playground's facts a text names, reading the text once for all of them: a
/// byte is compared with the facts that start with it, and no others. The same test as
/// [`has_substring`] per fact, which [`Named::of`] uses: the replay's answers must equal it.
pub(super) struct FactFinder<'a> {
    pub(super) facts: &'a [(String, String)],
    // The facts that start with each byte; `empty`, those every text names.
    starts: [FactBits; 256],
    pub(super) empty: FactBits,
    // The length of the longest term, in bytes.
    pub(super) longest: usize,
}

impl<'a> FactFinder<'a> {
    pub(super) fn new(facts: &'a [(String, String)]) -> FactFinder<'a> {
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
    pub(super) fn names(&self, text: &[u8]) -> FactBits {
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
    pub(super) fn find(
        &self,
        text: &[u8],
        from: usize,
        mut found: FactBits,
        at: &mut [usize],
    ) -> FactBits {
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

    /// The labels of the facts in `bits`, in the playground's order.
    pub(super) fn labels(&self, bits: FactBits) -> Vec<String> {
        let mut labels = Vec::new();
        for (index, (label, _)) in self.facts.iter().enumerate() {
            if bits & (1 << index) != 0 {
                labels.push(label.clone());
            }
        }
        labels
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

/// The number of the first turn of `script` whose words, speaker or summary name `term`, or
/// `u32::MAX` if none does: before it, the fact is not yet said.
pub(super) fn first_said(script: &Script, term: &str) -> u32 {
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

#[cfg(test)]
mod tests {
    use super::has_substring;

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
