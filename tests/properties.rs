//! Property tests of the two policies, over random inputs.
//!
//! - Compaction: random scripts (1 to 200 turns of 1 to 60 words, every kind, words with
//!   capitals, digits, punctuation and odd Unicode), random budgets and HOT sizes.
//! - Forgetting: random `LiveStore` operation sequences checked against an independent model
//!   of the store, and random `FactStore` timelines over the refund desk and small random
//!   scenarios, with the slider moving back and forth.
//! - Robustness: arbitrary numbers (NaN, infinities, negatives, fractions, huge) never panic, are
//!   accepted exactly when the documented rule says so, and name the field when rejected.
//!
//! Case counts are moderate so that the file runs in well under 30 s in a debug build. Failure
//! persistence is off, so a failing run writes no `proptest-regressions` file into the tree.

use std::collections::BTreeSet;

use agent_memory_widgets::limits::{MAX_HALF_LIFE, MAX_TIME, MIN_HALF_LIFE};
#[path = "common/store.rs"]
mod store;
use agent_memory_widgets::{
    Action, EventIndex, EventSpec, FactId, FactStore, FactStoreState, Kind, LiveStore, Playground,
    ReadSpec, Scenario, ScenarioSpec, Script, SeedFactSpec, Session, SessionConfig, SessionOptions,
    SessionState, Status, Step, StoreConfig, Time, Tokens, TurnSpec, GIST_TERMS, MAX_ACCESS_BOOST,
};
use proptest::prelude::*;
use store::at;

/// A fact id in the test's own model.
type Id = u32;
use proptest::sample::{select, Index};
use proptest::test_runner::TestCaseError;

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Words split on Unicode whitespace: the crate's token estimate, recounted independently.
fn words(text: &str) -> u32 {
    text.split_whitespace().count() as u32
}

/// Equal within a relative 1e-12, or both too small to be normal numbers worth comparing.
fn close(a: f64, b: f64) -> bool {
    a == b
        || (a - b).abs() <= 1e-12 * a.abs().max(b.abs())
        || (a.abs() < 1e-290 && b.abs() < 1e-290)
}

/// Any f64 a JS caller could pass, with the interesting ones over-represented.
fn wild_f64() -> impl Strategy<Value = f64> {
    let max = f64::from(u32::MAX);
    prop_oneof![
        3 => any::<f64>(),
        3 => select(vec![
            f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 40.0,
            max, max - 1.0, max + 1.0, max - 0.5, 9007199254740992.0, 1e300, -1e300, f64::MAX,
            f64::MIN, f64::MIN_POSITIVE, 5e-324, 1.0 - f64::EPSILON, 1.0 + f64::EPSILON,
        ]),
        3 => (0u64..=u64::from(u32::MAX) + 3).prop_map(|n| n as f64),
        2 => (-8i64..400).prop_map(|n| n as f64 / 4.0),
        1 => -1e6f64..1e6,
    ]
}

// ---------------------------------------------------------------------------------------------
// Compaction
// ---------------------------------------------------------------------------------------------

const SPEAKERS: &[&str] = &["Dana", "agent", "tool"];
const LOWER: &[&str] = &[
    "the", "refund", "is", "on", "its", "way", "order", "window", "fee", "late", "a", "for", "my",
    "please", "ok", "thanks", "earbuds", "warranty", "day", "charging", "returned", "approved",
];
const CAPS: &[&str] = &[
    "Dana", "Globex", "Hi", "Also", "Yes", "Done", "Ärger", "RF", "Okay",
];
const ODD: &[&str] = &[
    "(ORD-3300)",
    "$180.00,",
    "10%",
    "30-day",
    "'quoted'",
    "--",
    "...",
    "x2",
    "日本",
    "٣",
    "Éclair!",
    "\"Q4\"",
    "a,B",
    "ß",
    "—",
];

/// A tiny deterministic generator (splitmix64), so that a 200-turn script costs a few numbers
/// of proptest input instead of thousands of value trees; proptest still shrinks the number of
/// turns, their kinds and their lengths.
struct Words(u64);

impl Words {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// Appends a word: mostly lowercase, sometimes capitalised, an ID, an amount or something odd.
    fn word(&mut self, out: &mut String) {
        let word = match self.below(12) {
            0..=5 => LOWER[self.below(LOWER.len())],
            6 | 7 => CAPS[self.below(CAPS.len())],
            8 => return out.push_str(&format!("ORD-{}", self.below(10_000))),
            9 => {
                let (whole, cents) = (self.below(1000), self.below(100));
                return out.push_str(&format!("${whole}.{cents:02}"));
            }
            _ => ODD[self.below(ODD.len())],
        };
        out.push_str(word);
    }

    /// Whitespace between words: mostly a space, sometimes a newline, a tab, an em space.
    fn separator(&mut self) -> &'static str {
        match self.below(16) {
            0 => "\n",
            1 => "\t",
            2 => "\u{2003}",
            3 => "  ",
            _ => " ",
        }
    }

    /// `first` (if any) and more words, `count` in all, joined by assorted Unicode whitespace.
    fn text(&mut self, count: usize, first: Option<String>) -> String {
        let mut out = String::with_capacity(count * 8);
        match first {
            Some(first) => out.push_str(&first),
            None => self.word(&mut out),
        }
        for _ in 1..count {
            out.push_str(self.separator());
            self.word(&mut out);
        }
        out
    }
}

#[derive(Clone, Debug)]
struct GenTurn {
    speaker: &'static str,
    kind: Kind,
    text: String,
    /// For chatter: a summary the script carries but the policy must ignore.
    summary: String,
}

#[derive(Clone, Debug)]
struct Case {
    turns: Vec<GenTurn>,
    budget: u32,
    hot_n: u32,
}

/// Marks chatter so that its text can be searched for in the window: `~chatter7~` never occurs
/// in any other text (no generated word has a `~`).
fn chatter_marker(number: usize) -> String {
    format!("~chatter{number}~")
}

fn ignored_summary_marker(number: usize) -> String {
    format!("~ignored{number}~")
}

fn arb_turn() -> impl Strategy<Value = (&'static str, Kind, u64, usize, usize)> {
    let kind = prop_oneof![
        Just(Kind::Chatter),
        Just(Kind::Decision),
        Just(Kind::Tool),
        Just(Kind::Question)
    ];
    (
        select(SPEAKERS),
        kind,
        any::<u64>(),
        1usize..=60,
        1usize..=12,
    )
}

/// A script of 1 to 200 turns, a budget of 1 to 200 tokens and 1 to 6 HOT turns.
fn arb_case() -> impl Strategy<Value = Case> {
    (
        prop::collection::vec(arb_turn(), 1..=200),
        1u32..=200,
        1u32..=6,
    )
        .prop_map(|(raw, budget, hot_n)| {
            let turns = raw
                .into_iter()
                .enumerate()
                .map(
                    |(index, (speaker, kind, seed, text_words, summary_words))| {
                        let number = index + 1;
                        let mut words = Words(seed);
                        // Chatter keeps its word count but is findable: its first word is a
                        // marker, and so is its summary's, which the policy must ignore.
                        let chatter = kind == Kind::Chatter;
                        let text = words.text(text_words, chatter.then(|| chatter_marker(number)));
                        let summary = words.text(
                            summary_words,
                            chatter.then(|| ignored_summary_marker(number)),
                        );
                        GenTurn {
                            speaker,
                            kind,
                            text,
                            summary,
                        }
                    },
                )
                .collect();
            Case {
                turns,
                budget,
                hot_n,
            }
        })
}

impl Case {
    fn session(&self) -> Session {
        let specs = self
            .turns
            .iter()
            .map(|turn| TurnSpec {
                speaker: Some(turn.speaker.into()),
                kind: Some(turn.kind.name().into()),
                text: Some(turn.text.clone()),
                summary: Some(turn.summary.clone()),
                tokens: None,
                ..TurnSpec::default()
            })
            .collect();
        let script = Script::new(specs).expect("generated scripts are valid");
        Session::new(
            SessionConfig::new(Tokens(self.budget), self.hot_n).expect("valid config"),
            script,
        )
    }

    /// Turn `number` (from 1).
    fn turn(&self, number: u32) -> &GenTurn {
        &self.turns[number as usize - 1]
    }

    /// The verbatim tokens of the last `min(hot_n, n)` turns after turn `n`.
    fn hot_tail_tokens(&self, n: u32) -> u32 {
        let first = n.saturating_sub(self.hot_n) + 1;
        (first..=n)
            .map(|number| words(&self.turn(number).text))
            .sum()
    }

    /// Plays the whole script, calling `check` after every step with the step and the state.
    fn play(
        &self,
        mut check: impl FnMut(&Step, &SessionState, &Session) -> Result<(), TestCaseError>,
    ) -> Result<Session, TestCaseError> {
        let mut session = self.session();
        while let Some(step) = session.add_turn() {
            let state = session.state();
            check(&step, &state, &session)?;
        }
        Ok(session)
    }
}

/// The window as the model sees it: COLD, WARM lines, then the verbatim turns.
fn window_texts(state: &SessionState) -> Vec<&str> {
    let cold = state.cold.iter().map(|line| line.text());
    let warm = state.warm.iter().map(|line| line.text());
    let hot = state.hot.iter().map(|turn| turn.text.as_str());
    cold.chain(warm).chain(hot).collect()
}

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn window_tokens_are_the_words_of_exactly_the_texts_in_the_window(case in arb_case()) {
        case.play(|step, state, session| {
            // Recount from the generated texts, not from the state's own token fields.
            let cold = state.cold.as_ref().map_or(0, |line| words(line.text()));
            let warm: u32 = state.warm.iter().map(|line| words(line.text())).sum();
            let hot: u32 = state.hot.iter().map(|turn| words(&case.turn(turn.turn.0).text)).sum();
            let recount = cold + warm + hot;
            prop_assert_eq!(state.tokens, Tokens(recount), "turn {}", step.turn.0);
            prop_assert_eq!(session.window().tokens(), Tokens(recount));
            prop_assert_eq!(step.tokens_after, Tokens(recount));
            let texts: u32 = window_texts(state).iter().map(|text| words(text)).sum();
            prop_assert_eq!(texts, recount);
            // Each tier's own count is its text's words, and verbatim turns are the script's.
            for turn in &state.hot {
                let generated = case.turn(turn.turn.0);
                prop_assert_eq!(&turn.text, &generated.text);
                prop_assert_eq!(turn.tokens, Tokens(words(&generated.text)));
            }
            for line in state.warm.iter().chain(&state.cold) {
                prop_assert_eq!(line.tokens(), Tokens(words(line.text())));
            }
            // A WARM line is the script's summary of the one turn it folds.
            for line in &state.warm {
                prop_assert_eq!(nums(line.turns()).len(), 1);
                prop_assert_eq!(line.text(), &case.turn(nums(line.turns())[0]).summary);
            }
            Ok(())
        })?;
    }

    #[test]
    fn window_fits_the_budget_whenever_the_hot_turns_and_a_full_gist_fit(case in arb_case()) {
        let budget = Tokens(case.budget);
        case.play(|step, state, _| {
            let n = step.turn.0;
            if case.hot_tail_tokens(n) + GIST_TERMS as u32 <= case.budget {
                prop_assert!(state.tokens <= budget, "turn {}: {} > {}", n, state.tokens, budget);
            }
            prop_assert_eq!(state.over_budget, state.tokens > budget);
            match &state.over_budget_reason {
                Some(reason) => {
                    prop_assert!(state.over_budget);
                    prop_assert!(!reason.trim().is_empty());
                    prop_assert!(reason.contains(&budget.to_string()), "{}", reason);
                }
                None => prop_assert!(!state.over_budget),
            }
            // Over budget only once every WARM line has been pushed into COLD.
            if state.over_budget {
                prop_assert!(state.warm.is_empty(), "turn {}: over budget with WARM left", n);
            }
            Ok(())
        })?;
    }

    #[test]
    fn after_every_compaction_hot_is_exactly_the_last_hot_n_turns_verbatim(case in arb_case()) {
        case.play(|step, state, _| {
            let n = step.turn.0;
            let kept = n.min(case.hot_n);
            let numbers: Vec<u32> = state.hot.iter().map(|turn| turn.turn.0).collect();
            if step.compacted {
                let expected: Vec<u32> = (n - kept + 1..=n).collect();
                prop_assert_eq!(&numbers, &expected, "turn {}", n);
            }
            // Between compactions the verbatim turns are a tail of at least that many turns.
            prop_assert!(numbers.len() as u32 >= kept);
            prop_assert_eq!(numbers.last().copied(), Some(n));
            prop_assert!(numbers.windows(2).all(|w| w[1] == w[0] + 1));
            for turn in &state.hot {
                let generated = case.turn(turn.turn.0);
                prop_assert_eq!(&turn.text, &generated.text);
                prop_assert_eq!(turn.speaker.as_str(), generated.speaker);
                prop_assert_eq!(turn.kind, generated.kind);
            }
            Ok(())
        })?;
    }

    #[test]
    fn cold_is_one_line_of_at_most_gist_terms_distinct_key_terms(case in arb_case()) {
        let mut pushed: BTreeSet<u32> = BTreeSet::new();
        case.play(|step, state, _| {
            pushed.extend(&nums(&step.to_cold));
            let Some(cold) = &state.cold else { return Ok(()) };
            prop_assert!(!cold.text().contains('\n') && !cold.text().contains('\r'), "{:?}", cold.text());
            prop_assert_eq!(cold.text().lines().count(), 1);
            prop_assert!(cold.tokens().0 as usize <= GIST_TERMS);
            prop_assert_eq!(cold.tokens(), Tokens(words(cold.text())));
            let terms: Vec<&str> = cold.text().split(", ").collect();
            prop_assert_eq!(terms.len(), cold.tokens().0 as usize);
            prop_assert_eq!(terms.iter().collect::<BTreeSet<_>>().len(), terms.len(), "{:?}", terms);
            for term in &terms {
                let key = term.chars().any(|c| c.is_ascii_digit())
                    || term.chars().next().is_some_and(char::is_uppercase);
                prop_assert!(key, "{:?} is not a key term", term);
            }
            // The gist stands for turns that were pushed into COLD, and its terms come from
            // their summaries.
            prop_assert!(!nums(cold.turns()).is_empty());
            prop_assert!(nums(cold.turns()).windows(2).all(|w| w[0] < w[1]));
            for turn in &nums(cold.turns()) {
                prop_assert!(pushed.contains(turn), "COLD names turn {} never pushed", turn);
            }
            for term in &terms {
                let sourced = nums(cold.turns()).iter().any(|&t| case.turn(t).summary.contains(term));
                prop_assert!(sourced, "{:?} is in none of the summaries of {:?}", term, nums(cold.turns()));
            }
            Ok(())
        })?;
    }

    #[test]
    fn chatter_leaves_the_window_when_folded_and_is_recorded_as_dropped(case in arb_case()) {
        case.play(|step, state, _| {
            let first_hot = state.hot.first().map_or(step.turn.0 + 1, |turn| turn.turn.0);
            let folded = 1..first_hot;
            let chatter = |t: &u32| case.turn(*t).kind == Kind::Chatter;
            let expected_dropped: Vec<u32> = folded.clone().filter(chatter).collect();
            let dropped: Vec<u32> = state.dropped.iter().map(|d| d.turn.0).collect();
            prop_assert_eq!(&dropped, &expected_dropped, "turn {}", step.turn.0);
            for d in &state.dropped {
                prop_assert_eq!(&d.text, &case.turn(d.turn.0).text);
            }
            let mut warmed: Vec<u32> = state.log.iter().flat_map(|s| nums(&s.to_warm)).collect();
            warmed.sort_unstable();
            let expected_warmed: Vec<u32> = folded.filter(|t| !chatter(t)).collect();
            prop_assert_eq!(warmed, expected_warmed);
            // Nothing of a folded chatter turn, nor any chatter's ignored summary, is in the window.
            // The markers are whole words, so scanning the window's words finds every one.
            let shown_chatter: Vec<u32> = state.hot.iter().map(|t| t.turn.0).filter(chatter).collect();
            for word in window_texts(state).iter().flat_map(|text| text.split_whitespace()) {
                prop_assert!(!word.starts_with("~ignored"), "a chatter summary reached the window");
                if let Some(number) = word.strip_prefix("~chatter").and_then(|w| w.strip_suffix('~')) {
                    let number: u32 = number.parse().unwrap();
                    prop_assert!(shown_chatter.contains(&number), "dropped turn {} still shown", number);
                }
            }
            for line in state.warm.iter().chain(&state.cold) {
                prop_assert!(!nums(line.turns()).iter().any(chatter), "{:?} stands for chatter", nums(line.turns()));
            }
            Ok(())
        })?;
    }

    #[test]
    fn each_compaction_moves_turns_hot_to_warm_to_cold_in_order(case in arb_case()) {
        let mut previous_hot: Vec<u32> = Vec::new();
        let mut previous_warm: Vec<u32> = Vec::new();
        case.play(|step, state, _| {
            let hot: Vec<u32> = state.hot.iter().map(|turn| turn.turn.0).collect();
            let warm: Vec<u32> = state.warm.iter().flat_map(|line| nums(line.turns())).collect();
            // Turns that left the verbatim tail in this step went WARM or were dropped.
            let mut left: Vec<u32> = previous_hot.iter().copied().chain([step.turn.0]).filter(|t| !hot.contains(t)).collect();
            left.sort_unstable();
            let mut moved: Vec<u32> = nums(&step.to_warm).iter().chain(&nums(&step.dropped)).copied().collect();
            moved.sort_unstable();
            prop_assert_eq!(&moved, &left, "turn {}", step.turn.0);
            // WARM is the old WARM plus the newly folded, oldest first, minus what went COLD,
            // which is always its oldest lines.
            let before: Vec<u32> = previous_warm.iter().chain(&nums(&step.to_warm)).copied().collect();
            let (to_cold, rest) = before.split_at(step.to_cold.len());
            let moved_cold = nums(&step.to_cold);
            prop_assert_eq!(to_cold, moved_cold.as_slice());
            prop_assert_eq!(rest, warm.as_slice());
            if !step.compacted {
                prop_assert!(step.to_warm.is_empty() && step.to_cold.is_empty() && step.dropped.is_empty());
            }
            previous_hot = hot;
            previous_warm = warm;
            Ok(())
        })?;
    }

    #[test]
    fn step_accounting_chains_tokens_before_peak_and_after(case in arb_case()) {
        let mut last_after = Tokens(0);
        let mut crossings = Vec::new();
        let mut session = case.play(|step, state, _| {
            let turn_tokens = words(&case.turn(step.turn.0).text);
            prop_assert_eq!(step.tokens_before, last_after, "turn {}", step.turn.0);
            prop_assert_eq!(step.peak_tokens, Tokens(step.tokens_before.0 + turn_tokens));
            prop_assert_eq!(step.crossed, step.peak_tokens.0 > case.budget);
            prop_assert_eq!(step.compacted, step.crossed);
            prop_assert_eq!(step.tokens_after, state.tokens);
            // The verdicts a page words: the window after the step against the budget, and a
            // compaction that left it no smaller than its peak.
            let (after, budget) = (step.tokens_after.0, case.budget);
            prop_assert_eq!(step.over_budget, after > budget);
            prop_assert_eq!(state.over_budget, after > budget);
            prop_assert_eq!(step.room.0, budget.saturating_sub(after));
            prop_assert_eq!(state.room, step.room);
            prop_assert_eq!(step.no_smaller, step.compacted && after >= step.peak_tokens.0);
            if step.crossed {
                crossings.push(step.turn.0);
            }
            prop_assert_eq!(&state.crossings, &crossings);
            prop_assert_eq!(state.turn, step.turn.0);
            prop_assert_eq!(state.log.len() as u32, step.turn.0);
            prop_assert_eq!(state.log.last(), Some(step));
            prop_assert_eq!(state.done, step.turn.0 as usize == case.turns.len());
            prop_assert_eq!(state.total_turns as usize, case.turns.len());
            last_after = step.tokens_after;
            Ok(())
        })?;
        // A finished script adds nothing more and changes nothing.
        let before = session.state();
        prop_assert!(session.add_turn().is_none());
        prop_assert_eq!(session.state(), before);
    }

    #[test]
    fn same_script_and_config_give_byte_identical_states(case in arb_case(), at in any::<Index>()) {
        let k = at.index(case.turns.len()) as u32 + 1;
        let mut first = case.session();
        let mut second = case.session();
        let mut state_at_k = None;
        loop {
            let (a, b) = (first.add_turn(), second.add_turn());
            prop_assert_eq!(&a, &b);
            let Some(step) = a else { break };
            if step.turn.0 == k {
                state_at_k = Some(first.state());
            }
        }
        let end = serde_json::to_string(&first.state()).unwrap();
        prop_assert_eq!(&end, &serde_json::to_string(&second.state()).unwrap());
        // Stepping back replays from the start and lands on the very same state, and so does
        // stepping forward again, which goes on from there.
        second.go_to(k);
        prop_assert_eq!(Some(second.state()), state_at_k);
        second.go_to(u32::MAX);
        prop_assert_eq!(&serde_json::to_string(&second.state()).unwrap(), &end);
    }
}

fn valid_count(x: f64) -> bool {
    x.is_finite() && x.fract() == 0.0 && (1.0..=f64::from(u32::MAX)).contains(&x)
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn session_options_accept_exactly_whole_numbers_from_1_to_u32_max(budget in wild_f64(), hot_n in wild_f64()) {
        let options = SessionOptions { budget: Some(budget), hot_n: Some(hot_n), ..SessionOptions::default() };
        match Session::from_options(options) {
            Ok(mut session) => {
                prop_assert!(valid_count(budget) && valid_count(hot_n), "accepted {} {}", budget, hot_n);
                prop_assert_eq!(session.config().budget(), Tokens(budget as u32));
                prop_assert_eq!(session.config().hot_n(), hot_n as u32);
                while session.add_turn().is_some() {}
                prop_assert!(session.state().done);
            }
            Err(err) => {
                let message = err.to_string();
                prop_assert!(!(valid_count(budget) && valid_count(hot_n)), "rejected {} {}: {}", budget, hot_n, message);
                let field = if valid_count(budget) { "hot_n " } else { "budget " };
                prop_assert!(message.starts_with(field), "{:?} should name {}", message, field);
                prop_assert!(message.contains("whole number"), "{}", message);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Forgetting: LiveStore against a model
// ---------------------------------------------------------------------------------------------

const FACT_TEXTS: &[&str] = &[
    "the user is Dana",
    "order ORD-3300 was $200.00",
    "refund approved: $180.00",
    "Dana asks about the Globex earbuds warranty",
    "Dana prefers email",
    // Beyond ASCII: the store ignores case as Unicode maps it (src/case.rs).
    "École fermée à Genève",
    "Жёлтый дом",
    "ΟΔΟΣ ΣΤΑΔΙΟΥ",
    "İzmir",
];

#[derive(Clone, Debug)]
enum FactText {
    /// A text from a small pool, with a case and whitespace variant: duplicates on purpose.
    Pool(usize, u8),
    /// A text no other write has.
    Unique,
    /// Whitespace only: rejected.
    Blank,
}

#[derive(Clone, Debug)]
enum Supersedes {
    None,
    /// A fact written earlier, in any status.
    Known(Index),
    /// A fact that does not exist: the write is rejected.
    Unknown,
}

#[derive(Clone, Debug)]
enum LiveOp {
    Write {
        text: FactText,
        importance: f64,
        supersedes: Supersedes,
    },
    Read(Index),
    ReadUnknown,
    Advance(f64),
    GoBack(f64),
}

fn importance() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => 0.001f64..=1.0,
        2 => select(vec![1.0, 0.5, 0.25, 0.125, 0.4, 0.55, 0.65, 0.75, 0.9]),
        1 => select(vec![0.0, -0.5, 1.5, f64::NAN, f64::INFINITY]), // rejected
    ]
}

fn live_op() -> impl Strategy<Value = LiveOp> {
    let text = prop_oneof![
        3 => (0..FACT_TEXTS.len(), 0u8..4).prop_map(|(i, v)| FactText::Pool(i, v)),
        3 => Just(FactText::Unique),
        1 => Just(FactText::Blank),
    ];
    let supersedes = prop_oneof![
        4 => Just(Supersedes::None),
        3 => any::<Index>().prop_map(Supersedes::Known),
        1 => Just(Supersedes::Unknown),
    ];
    let step = prop_oneof![
        2 => Just(0.0),
        3 => 0.0f64..3.0,
        2 => (0u32..8).prop_map(|n| f64::from(n) * 0.5),
    ];
    prop_oneof![
        5 => (text, importance(), supersedes).prop_map(|(text, importance, supersedes)| LiveOp::Write { text, importance, supersedes }),
        3 => any::<Index>().prop_map(LiveOp::Read),
        1 => Just(LiveOp::ReadUnknown),
        3 => step.prop_map(LiveOp::Advance),
        1 => (0.01f64..2.0).prop_map(LiveOp::GoBack),
    ]
}

fn arb_store_config() -> impl Strategy<Value = StoreConfig> {
    (
        0.1f64..20.0,
        1u32..=8,
        prop_oneof![Just(0.0), 0.0f64..3.0, Just(3.0)],
    )
        .prop_map(|(h, c, b)| StoreConfig::new(h, c, b).expect("valid config"))
}

#[derive(Clone, Debug, PartialEq)]
struct ModelFact {
    id: Id,
    text: String,
    importance: f64,
    last_touch: f64,
    reads: u32,
    status: Status,
}

/// The reference score: importance * 0.5^((t - lastTouch)/halfLife) * (1 + boost * reads).
fn reference_score(config: &StoreConfig, fact: &ModelFact, t: f64) -> f64 {
    let recency = 0.5f64.powf((t - fact.last_touch) / config.half_life());
    fact.importance * recency * (1.0 + config.access_boost() * f64::from(fact.reads))
}

struct Model {
    config: StoreConfig,
    now: f64,
    facts: Vec<ModelFact>,
}

impl Model {
    fn get(&self, id: Id) -> Option<&ModelFact> {
        self.facts.iter().find(|f| f.id == id)
    }
    fn get_mut(&mut self, id: Id) -> Option<&mut ModelFact> {
        self.facts.iter_mut().find(|f| f.id == id)
    }
    fn active(&self) -> impl Iterator<Item = &ModelFact> {
        self.facts.iter().filter(|f| f.status == Status::Active)
    }
    fn score(&self, fact: &ModelFact) -> f64 {
        reference_score(&self.config, fact, self.now)
    }
}

/// A text as the store compares it: trimmed, each letter case-folded (Unicode's simple case
/// folding, from std's mappings: the lowercase of a letter's one-letter uppercase; the Turkic
/// `İ` and `ı` fold only to themselves).
fn normalise(text: &str) -> String {
    let fold = |c: char| {
        if matches!(c, 'İ' | 'ı') {
            return c;
        }
        let mut upper = c.to_uppercase();
        let one = match (upper.next(), upper.next()) {
            (Some(upper), None) => upper,
            _ => c,
        };
        one.to_lowercase().next().unwrap()
    };
    text.trim().chars().map(fold).collect()
}

/// The store agrees with the model on every fact, score, count and ranking.
fn check_store(store: &LiveStore, model: &Model) -> Result<(), TestCaseError> {
    prop_assert_eq!(store.time().get(), model.now);
    for fact in &model.facts {
        let got = store
            .get(FactId(fact.id))
            .expect("every written fact is kept");
        prop_assert_eq!(&got.text, &fact.text);
        prop_assert_eq!(got.importance, fact.importance, "fact {}", fact.id);
        prop_assert_eq!(got.last_touch.get(), fact.last_touch, "fact {}", fact.id);
        prop_assert_eq!(got.reads, fact.reads, "fact {}", fact.id);
        prop_assert_eq!(got.status, fact.status, "fact {}", fact.id);
        let score = store.score(FactId(fact.id)).expect("score of a kept fact");
        let expected = model.score(fact);
        prop_assert!(
            close(score, expected),
            "fact {}: score {} vs formula {}",
            fact.id,
            score,
            expected
        );
    }
    prop_assert_eq!(store.facts().count(), model.facts.len());
    let active = model.active().count();
    prop_assert_eq!(store.active_count(), active);
    prop_assert!(active <= model.config.capacity() as usize);

    let mut expected: Vec<f64> = model.active().map(|f| model.score(f)).collect();
    expected.sort_by(|a, b| b.total_cmp(a));
    let capacity = model.config.capacity() as usize;
    for k in [0, 1, 2, 3, capacity, active, active + 2] {
        let top = store.top_k(k);
        prop_assert_eq!(top.len(), k.min(active), "top_k({})", k);
        prop_assert_eq!(top.iter().collect::<BTreeSet<_>>().len(), top.len());
        for (rank, id) in top.iter().enumerate() {
            let fact = model.get(id.0).expect("top_k names a known fact");
            prop_assert_eq!(fact.status, Status::Active);
            let score = model.score(fact);
            prop_assert!(
                close(score, expected[rank]),
                "top_k({})[{}] = fact {} scores {}, expected {}",
                k,
                rank,
                id,
                score,
                expected[rank]
            );
        }
    }
    prop_assert_eq!(store.ranked().collect::<Vec<_>>(), store.top_k(active));
    Ok(())
}

/// Applies one write to the model, checking the store's outcome against it.
fn model_write(
    store: &mut LiveStore,
    model: &mut Model,
    id: Id,
    text: &str,
    importance: f64,
    supersedes: Option<Id>,
) -> Result<(), TestCaseError> {
    let result = store.write(FactId(id), text, importance, supersedes.map(FactId));
    let valid = importance > 0.0 && importance <= 1.0 && !text.trim().is_empty();
    let known = !matches!(supersedes, Some(old) if model.get(old).is_none());
    if !(valid && known) {
        prop_assert!(
            result.is_err(),
            "write({}, {:?}, {}, {:?}) was accepted",
            id,
            text,
            importance,
            supersedes
        );
        return Ok(());
    }
    let outcome = result.map_err(|err| TestCaseError::fail(err.to_string()))?;
    let now = model.now;
    let duplicate = model
        .active()
        .find(|f| normalise(&f.text) == normalise(text))
        .map(|f| f.id);
    let written = match duplicate {
        Some(existing) => {
            let fact = model.get_mut(existing).unwrap();
            fact.last_touch = now;
            fact.importance = fact.importance.max(importance);
            existing
        }
        None => {
            model.facts.push(ModelFact {
                id,
                text: text.to_owned(),
                importance,
                last_touch: now,
                reads: 0,
                status: Status::Active,
            });
            id
        }
    };
    prop_assert_eq!(outcome.fact, written);
    prop_assert_eq!(outcome.refreshed, duplicate.is_some());
    let retired = supersedes
        .filter(|&old| old != written)
        .filter(|&old| model.get(old).is_some_and(|f| f.status == Status::Active));
    if let Some(old) = retired {
        model.get_mut(old).unwrap().status = Status::Superseded {
            by: FactId(written),
        };
    }
    prop_assert_eq!(outcome.superseded, retired.map(FactId));

    let over = model.active().count() > model.config.capacity() as usize;
    match outcome.evicted {
        Some(FactId(evicted)) => {
            prop_assert!(
                over,
                "evicted {} though the store was within capacity",
                evicted
            );
            let victim = model.get(evicted).expect("evicted a known fact");
            prop_assert_eq!(
                victim.status,
                Status::Active,
                "evicted fact {} was not active",
                evicted
            );
            let weakest = model.score(victim);
            for other in model.active() {
                let score = model.score(other);
                prop_assert!(
                    weakest <= score || close(weakest, score),
                    "evicted fact {} scores {} but fact {} scores only {}",
                    evicted,
                    weakest,
                    other.id,
                    score
                );
            }
            model.get_mut(evicted).unwrap().status = Status::Evicted;
        }
        None => prop_assert!(!over, "over capacity and nothing evicted"),
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn live_store_scores_follow_the_formula_and_evict_the_weakest(
        config in arb_store_config(),
        ops in prop::collection::vec(live_op(), 0..60),
    ) {
        let mut store = LiveStore::new(config);
        let mut model = Model { config, now: 0.0, facts: Vec::new() };
        let mut next_id: Id = 1;
        for op in ops {
            match op {
                LiveOp::Write { text, importance, supersedes } => {
                    let id = next_id;
                    next_id += 1;
                    let text = match text {
                        FactText::Pool(i, 0) => FACT_TEXTS[i].to_owned(),
                        FactText::Pool(i, 1) => FACT_TEXTS[i].to_uppercase(),
                        FactText::Pool(i, 2) => format!("  {}\t", FACT_TEXTS[i]),
                        FactText::Pool(i, _) => format!("{}\n", FACT_TEXTS[i].to_lowercase()),
                        FactText::Unique => format!("fact number {id}"),
                        FactText::Blank => " \t".to_owned(),
                    };
                    let supersedes = match supersedes {
                        Supersedes::None => None,
                        Supersedes::Known(_) if model.facts.is_empty() => None,
                        Supersedes::Known(index) => Some(model.facts[index.index(model.facts.len())].id),
                        Supersedes::Unknown => Some(1_000_000),
                    };
                    model_write(&mut store, &mut model, id, &text, importance, supersedes)?;
                }
                LiveOp::Read(index) if !model.facts.is_empty() => {
                    let id = model.facts[index.index(model.facts.len())].id;
                    let result = store.read(FactId(id));
                    let fact = model.get_mut(id).unwrap();
                    if fact.status == Status::Active {
                        prop_assert!(result.is_ok());
                        fact.reads += 1;
                    } else {
                        prop_assert!(result.is_err(), "read of retired fact {} accepted", id);
                    }
                }
                LiveOp::Read(_) | LiveOp::ReadUnknown => {
                    prop_assert!(store.read(FactId(1_000_000)).is_err());
                    prop_assert!(store.score(FactId(1_000_000)).is_none());
                    prop_assert!(store.get(FactId(1_000_000)).is_none());
                }
                LiveOp::Advance(dt) => {
                    let t = model.now + dt;
                    prop_assert!(store.advance_to(Time::new(t).unwrap()).is_ok());
                    model.now = t;
                }
                LiveOp::GoBack(dt) => {
                    let t = (model.now - dt).max(0.0);
                    let result = store.advance_to(Time::new(t).unwrap());
                    prop_assert_eq!(result.is_ok(), t >= model.now, "advance_to({}) at {}", t, model.now);
                }
            }
            check_store(&store, &model)?;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Forgetting: FactStore timelines
// ---------------------------------------------------------------------------------------------

fn slider_time() -> impl Strategy<Value = f64> {
    prop_oneof![
        3 => (0u32..=12).prop_map(f64::from),
        2 => (0u32..=48).prop_map(|q| f64::from(q) / 4.0),
        2 => 0.0f64..=12.0,
    ]
}

fn arb_scenario(events: std::ops::RangeInclusive<usize>) -> impl Strategy<Value = ScenarioSpec> {
    (0usize..=5, events)
        .prop_filter("a scenario needs a fact or an event", |(f, e)| f + e > 0)
        .prop_flat_map(|(facts, events)| {
            let total = (facts + events) as u32;
            let fact = (select(FACT_TEXTS), importance_valid()).prop_map(|(text, importance)| {
                SeedFactSpec {
                    text: Some(text.into()),
                    importance: Some(importance),
                }
            });
            let read = (1..=total, slider_time()).prop_map(|(fact, at)| ReadSpec {
                fact: Some(f64::from(fact)),
                at: Some(at),
            });
            let event = (
                select(FACT_TEXTS),
                importance_valid(),
                prop::option::of(1..=total),
                any::<bool>(),
            );
            (
                prop::collection::vec(fact, facts),
                prop::collection::vec(read, 0..4),
                prop::collection::vec(event, events),
            )
                .prop_map(move |(facts_spec, reads, raw_events)| {
                    let first_event = facts as u32 + 1;
                    let events = raw_events
                        .into_iter()
                        .enumerate()
                        .map(|(i, (text, importance, supersedes, labelled))| EventSpec {
                            label: labelled.then(|| format!("event {i}")),
                            text: Some(text.into()),
                            importance: Some(importance),
                            supersedes: supersedes
                                .filter(|&s| s != first_event + i as u32)
                                .map(f64::from),
                        })
                        .collect();
                    ScenarioSpec {
                        facts: facts_spec,
                        reads,
                        events,
                        consolidation: Vec::new(),
                    }
                })
        })
}

fn importance_valid() -> impl Strategy<Value = f64> {
    prop_oneof![0.05f64..=1.0, select(vec![1.0, 0.5, 0.25, 0.4, 0.7, 0.9])]
}

/// The refund desk (`None`) or a random config and scenario.
fn arb_store(
    events: std::ops::RangeInclusive<usize>,
) -> impl Strategy<Value = Option<(StoreConfig, ScenarioSpec)>> {
    let random = (
        (0.5f64..10.0, 1u32..=6, 0.0f64..2.0)
            .prop_map(|(h, c, b)| StoreConfig::new(h, c, b).unwrap()),
        arb_scenario(events),
    );
    prop_oneof![1 => Just(None), 3 => random.prop_map(Some)]
}

fn build(store: &Option<(StoreConfig, ScenarioSpec)>) -> FactStore {
    match store {
        None => FactStore::default(),
        Some((config, spec)) => FactStore::new(
            *config,
            Scenario::new(spec.clone()).expect("generated scenarios are valid"),
        ),
    }
}

#[derive(Clone, Debug, PartialEq)]
enum TimelineOp {
    SetTime(f64),
    Fire(usize),
    Read(Id),
}

fn timeline_op() -> impl Strategy<Value = TimelineOp> {
    prop_oneof![
        3 => slider_time().prop_map(TimelineOp::SetTime),
        2 => (0usize..5).prop_map(TimelineOp::Fire),
        2 => (0u32..11).prop_map(TimelineOp::Read),
    ]
}

/// Runs `ops` and returns what was recorded: each fired event and each accepted read, with the
/// slider's time when it happened. An event fired again moves: only its latest firing is kept.
fn run_timeline(store: &mut FactStore, ops: &[TimelineOp]) -> Vec<(f64, TimelineOp)> {
    let mut recorded = Vec::new();
    for op in ops {
        let t = store.time().get();
        match *op {
            TimelineOp::SetTime(t) => store.set_time(at(t)),
            TimelineOp::Fire(i) => {
                if store.fire(EventIndex(i as u32)).is_ok() {
                    recorded.retain(|(_, earlier)| *earlier != *op);
                    recorded.push((t, op.clone()));
                }
            }
            TimelineOp::Read(id) => {
                if store.read(FactId(id)).is_ok() {
                    recorded.push((t, op.clone()));
                }
            }
        }
    }
    recorded
}

/// What the reader sees of the store: the facts and the log, without reads that found their
/// fact gone (those depend on when the reader clicked, not on the timeline).
fn visible(state: &FactStoreState) -> String {
    let log: Vec<_> = state
        .log
        .iter()
        .filter(|change| !matches!(change.action, Action::MissedRead))
        .collect();
    serde_json::to_string(&(&state.t, state.active_count, &state.facts, &log)).unwrap()
}

fn probe_times(store: &FactStore) -> Vec<f64> {
    let mut times: Vec<f64> = (0..=24).map(|q| f64::from(q) / 2.0).collect();
    times.extend(
        store
            .events()
            .iter()
            .filter_map(|e| e.fired_at)
            .map(Time::get),
    );
    times.extend(store.state().reads.iter().map(|r| r.at.get()));
    times.push(12.0);
    times.push(1e6);
    times
}

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn fact_store_state_at_t_ignores_where_the_slider_has_been(
        spec in arb_store(0..=4),
        ops in prop::collection::vec(timeline_op(), 0..30),
        a in slider_time(),
        b in slider_time(),
    ) {
        let mut store = build(&spec);
        let recorded = run_timeline(&mut store, &ops);

        // Back and forth: a, then b, then a again.
        store.set_time(at(a));
        let s1 = serde_json::to_string(&store.state()).unwrap();
        store.set_time(at(b));
        let _ = store.state();
        store.set_time(at(a));
        prop_assert_eq!(&s1, &serde_json::to_string(&store.state()).unwrap());

        // The same fires and reads made in time order, with the slider only moving forward; at
        // one time, fires before reads, as the timeline applies them (a read made before an
        // event fired again at its time now comes after it).
        let mut sorted = recorded.clone();
        let reads_last = |op: &TimelineOp| matches!(op, TimelineOp::Read(_));
        sorted.sort_by(|x, y| x.0.total_cmp(&y.0).then(reads_last(&x.1).cmp(&reads_last(&y.1))));
        let mut forward = build(&spec);
        run_timeline(&mut forward, &sorted.iter().flat_map(|(t, op)| [TimelineOp::SetTime(*t), op.clone()]).collect::<Vec<_>>());
        for t in probe_times(&store) {
            store.set_time(at(t));
            forward.set_time(at(t));
            let state = store.state();
            prop_assert_eq!(visible(&state), visible(&forward.state()), "t = {}", t);
            prop_assert_eq!(&store.events(), &forward.events());

            // Only what happened at or before t counts: a store that never saw the later events
            // and reads shows the same at t.
            let mut only_past = build(&spec);
            let past: Vec<TimelineOp> = sorted
                .iter()
                .filter(|(time, _)| *time <= t)
                .flat_map(|(time, op)| [TimelineOp::SetTime(*time), op.clone()])
                .collect();
            run_timeline(&mut only_past, &past);
            only_past.set_time(at(t));
            prop_assert_eq!(visible(&state), visible(&only_past.state()), "t = {} (past only)", t);
        }
    }

    #[test]
    fn firing_two_events_in_either_order_at_the_same_times_gives_identical_states(
        spec in arb_store(2..=4),
        picks in (any::<Index>(), any::<Index>()),
        times in (slider_time(), slider_time(), any::<bool>()),
        reads in prop::collection::vec((slider_time(), 0u32..11), 0..4),
    ) {
        let (ta, tb, same_time) = times;
        let tb = if same_time { ta } else { tb };
        let mut one = build(&spec);
        let mut other = build(&spec);
        let events = one.events().len();
        let i = picks.0.index(events);
        let j = (i + 1 + picks.1.index(events - 1)) % events;
        prop_assert_ne!(i, j);
        // The same reads first, in both.
        let read_ops: Vec<TimelineOp> = reads.iter().flat_map(|&(t, id)| [TimelineOp::SetTime(t), TimelineOp::Read(id)]).collect();
        run_timeline(&mut one, &read_ops);
        run_timeline(&mut other, &read_ops);

        one.set_time(at(ta));
        let _ = one.fire(EventIndex(i as u32));
        one.set_time(at(tb));
        let _ = one.fire(EventIndex(j as u32));

        other.set_time(at(tb));
        let _ = other.fire(EventIndex(j as u32));
        other.set_time(at(ta));
        let _ = other.fire(EventIndex(i as u32));

        for t in probe_times(&one) {
            one.set_time(at(t));
            other.set_time(at(t));
            let (x, y) = (one.state(), other.state());
            prop_assert_eq!(serde_json::to_string(&x).unwrap(), serde_json::to_string(&y).unwrap(), "t = {}", t);
        }
    }

    #[test]
    fn an_event_or_read_at_tau_is_part_of_the_state_at_t_exactly_when_tau_le_t(
        spec in arb_store(0..=4),
        ops in prop::collection::vec(timeline_op(), 0..30),
    ) {
        let mut store = build(&spec);
        run_timeline(&mut store, &ops);
        store.set_time(at(1e6));
        let end = store.state();
        let is_read = |action| matches!(action, Action::Read | Action::MissedRead);
        let mut times = probe_times(&store);
        // Just before each event and read: the previous float.
        let just_before: Vec<f64> = times.iter().filter(|&&t| t > 0.0).map(|t| f64::from_bits(t.to_bits() - 1)).collect();
        times.extend(just_before);
        for t in times {
            store.set_time(at(t));
            let state = store.state();
            for event in &end.events {
                let Some(fired) = event.fired_at else { continue };
                let applied = end.log.iter().any(|change| change.event == Some(event.index));
                let shown = state.log.iter().any(|change| change.event == Some(event.index));
                prop_assert_eq!(shown, applied && fired.get() <= t, "event {} fired at {}, t = {}", event.index, fired, t);
            }
            let reads_logged = state.log.iter().filter(|change| change.event.is_none() && is_read(change.action)).count();
            let reads_due = state.reads.iter().filter(|read| read.at.get() <= t).count();
            prop_assert_eq!(reads_logged, reads_due, "t = {}", t);
            prop_assert!(state.log.iter().all(|change| change.at.get() <= t));
        }
    }

    #[test]
    fn active_facts_never_exceed_capacity_at_any_time(
        spec in arb_store(0..=4),
        ops in prop::collection::vec(timeline_op(), 0..30),
    ) {
        let mut store = build(&spec);
        run_timeline(&mut store, &ops);
        let capacity = store.config().capacity();
        let scenario = store.scenario().clone();
        for t in probe_times(&store) {
            store.set_time(at(t));
            let state = store.state();
            prop_assert!(state.active_count <= capacity, "t = {}: {} active", t, state.active_count);
            let active: Vec<_> = state.facts.iter().filter(|f| f.status.name() == "active").collect();
            prop_assert_eq!(active.len() as u32, state.active_count);
            // Active first, by score descending; then superseded; then evicted.
            let order = |status: &str| match status { "active" => 0, "superseded" => 1, _ => 2 };
            prop_assert!(state.facts.windows(2).all(|w| order(w[0].status.name()) <= order(w[1].status.name())));
            prop_assert!(active.windows(2).all(|w| w[0].score >= w[1].score || close(w[0].score, w[1].score)));
            for fact in &state.facts {
                prop_assert_eq!(fact.superseded_by.is_some(), fact.status.name() == "superseded");
                prop_assert!(fact.last_touch.get() <= t);
                prop_assert!(fact.score >= 0.0 && fact.score.is_finite());
            }
            // A fact written by event i has the same id whenever it is fired.
            for change in &state.log {
                if let (Some(event), Action::Write) = (change.event, change.action) {
                    prop_assert_eq!(Some(change.fact), scenario.event_fact(event));
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Forgetting: arbitrary input
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug)]
enum WildOp {
    SetTime(f64),
    Fire(usize),
    Read(u32),
    Reset,
}

fn wild_op() -> impl Strategy<Value = WildOp> {
    prop_oneof![
        4 => prop_oneof![wild_f64(), slider_time()].prop_map(WildOp::SetTime),
        2 => prop_oneof![0usize..4, any::<usize>()].prop_map(WildOp::Fire),
        2 => prop_oneof![0u32..8, any::<u32>()].prop_map(WildOp::Read),
        1 => Just(WildOp::Reset),
    ]
}

fn wild_count() -> impl Strategy<Value = u32> {
    prop_oneof![3 => 0u32..10, 1 => any::<u32>(), 1 => Just(u32::MAX)]
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn store_config_accepts_exactly_the_documented_ranges(
        half_life in wild_f64(),
        capacity in wild_count(),
        boost in prop_oneof![wild_f64(), 0.0f64..=MAX_ACCESS_BOOST],
    ) {
        let half_life_ok = (MIN_HALF_LIFE..=MAX_HALF_LIFE).contains(&half_life);
        let boost_ok = (0.0..=MAX_ACCESS_BOOST).contains(&boost);
        match StoreConfig::new(half_life, capacity, boost) {
            Ok(config) => {
                prop_assert!(half_life_ok && capacity >= 1 && boost_ok);
                prop_assert_eq!((config.half_life(), config.capacity(), config.access_boost()), (half_life, capacity, boost));
            }
            Err(err) => {
                let message = err.to_string();
                let field = if !half_life_ok { "half_life " } else if capacity < 1 { "capacity " } else { "access_boost " };
                prop_assert!(!(half_life_ok && capacity >= 1 && boost_ok), "rejected: {}", message);
                prop_assert!(message.starts_with(field), "{:?} should name {}", message, field);
            }
        }
    }

    #[test]
    fn fact_store_never_panics_and_the_same_operations_give_identical_states(
        half_life in prop_oneof![wild_f64(), 0.1f64..20.0],
        capacity in wild_count(),
        boost in prop_oneof![wild_f64(), 0.0f64..3.0],
        ops in prop::collection::vec(wild_op(), 0..25),
    ) {
        let Ok(config) = StoreConfig::new(half_life, capacity, boost) else { return Ok(()) };
        let mut one = FactStore::new(config, Scenario::refund_desk());
        let mut other = FactStore::new(config, Scenario::refund_desk());
        for op in &ops {
            let before = serde_json::to_string(&one.state()).unwrap();
            match *op {
                WildOp::SetTime(t) => {
                    let valid = (0.0..=MAX_TIME).contains(&t);
                    match Time::new(t) {
                        Ok(time) => {
                            prop_assert!(valid, "Time::new({}) accepted", t);
                            prop_assert_eq!(time.get(), t);
                            // -0 and 0 are the same time, and serialise the same.
                            prop_assert_eq!(serde_json::to_string(&time).unwrap(), serde_json::to_string(&(t + 0.0)).unwrap());
                            one.set_time(time);
                            other.set_time(time);
                        }
                        Err(err) => {
                            prop_assert!(!valid, "Time::new({}) rejected", t);
                            prop_assert!(err.to_string().starts_with("t must be"), "{}", err);
                        }
                    }
                }
                WildOp::Fire(i) => {
                    let (x, y) = (one.fire(EventIndex(i as u32)), other.fire(EventIndex(i as u32)));
                    prop_assert_eq!(&x, &y);
                    if x.is_err() {
                        // A refused event leaves the store as it was.
                        prop_assert_eq!(&serde_json::to_string(&one.state()).unwrap(), &before);
                    }
                }
                WildOp::Read(id) => {
                    let (x, y) = (one.read(FactId(id)), other.read(FactId(id)));
                    prop_assert_eq!(&x, &y);
                    if x.is_err() {
                        prop_assert_eq!(&serde_json::to_string(&one.state()).unwrap(), &before);
                    }
                }
                WildOp::Reset => {
                    one.reset();
                    other.reset();
                    prop_assert_eq!(one.time(), Time::ZERO);
                }
            }
            let state = one.state();
            prop_assert!(state.active_count <= state.capacity);
            prop_assert_eq!(serde_json::to_string(&state).unwrap(), serde_json::to_string(&other.state()).unwrap());
        }
    }
}

/// Turn numbers as plain numbers, for comparing with the test's own model.
fn nums(turns: &[agent_memory_widgets::TurnNumber]) -> Vec<u32> {
    turns.iter().map(|turn| turn.0).collect()
}

proptest! {
    #![proptest_config(config(16))]

    /// What each compaction lost (`StepLoss`) agrees with the windows before and after it: the
    /// turns that left it verbatim are the summarized ones, those already in a summary and the
    /// dropped ones, each once; a turn is newly summarized only if no line held it before; and
    /// the facts lost are exactly those named at the peak and gone after it.
    #[test]
    fn each_compaction_s_loss_is_the_difference_of_its_windows(case in arb_case()) {
        let session = case.session();
        let mut playground = Playground::new(session.config(), session.script().clone());
        let total = playground.state().total_turns;
        playground.go_to(total);
        let end = playground.state();
        playground.go_to(0);
        let mut before = playground.state();
        for turn in 1..=total {
            playground.go_to(turn);
            let now = playground.state();
            for (index, row) in now.policies.iter().enumerate() {
                let old = &before.policies[index];
                let loss = end.policies[index].losses.iter().find(|loss| loss.turn.0 == turn);
                prop_assert_eq!(loss.is_some(), row.compactions > old.compactions);
                let Some(loss) = loss else {
                    // A step that does not compact only adds its turn, verbatim and whole: the
                    // replay counts on it.
                    let mut grown = old.window.hot.clone();
                    grown.push(row.window.hot.last().cloned().expect("the new turn is verbatim"));
                    prop_assert_eq!(&row.window.hot, &grown);
                    prop_assert_eq!(row.window.hot.last().map(|hot| hot.turn.0), Some(turn));
                    let whole = &case.turn(turn).text;
                    prop_assert_eq!(row.window.hot.last().map(|hot| &hot.text), Some(whole));
                    prop_assert_eq!(&row.window.warm, &old.window.warm);
                    prop_assert_eq!(&row.window.cold, &old.window.cold);
                    continue;
                };
                let mut left = loss.summarized.clone();
                left.extend(&loss.already_summarized);
                left.extend(&loss.dropped);
                left.sort();
                prop_assert_eq!(&left, &loss.left_verbatim);
                let in_lines = |state: &SessionState| -> Vec<agent_memory_widgets::TurnNumber> {
                    state.warm.iter().chain(state.cold.as_ref()).flat_map(|line| line.turns().to_vec()).collect()
                };
                let (lines_then, lines_after) = (in_lines(&old.window), in_lines(&row.window));
                for turn in &loss.summarized {
                    prop_assert!(!lines_then.contains(turn) && lines_after.contains(turn));
                }
                for turn in &loss.already_summarized {
                    prop_assert!(lines_then.contains(turn) && lines_after.contains(turn));
                }
                let hot_now: Vec<_> = row.window.hot.iter().map(|t| t.turn).collect();
                let hot_before: Vec<_> = old.window.hot.iter().map(|t| t.turn).collect();
                for gone in &loss.left_verbatim {
                    prop_assert!(!hot_now.contains(gone));
                    prop_assert!(hot_before.contains(gone) || gone.0 == turn);
                }
                let lines = |state: &agent_memory_widgets::SessionState| -> Vec<_> {
                    state.warm.iter().chain(&state.cold).flat_map(|line| line.turns().to_vec()).collect()
                };
                let (lines_now, lines_before) = (lines(&row.window), lines(&old.window));
                for gone in &loss.summaries_dropped {
                    prop_assert!(lines_before.contains(gone) && !lines_now.contains(gone) && !hot_now.contains(gone));
                }
                for turn in &lines_before {
                    let kept = lines_now.contains(turn) || hot_now.contains(turn);
                    prop_assert_eq!(loss.summaries_dropped.contains(turn), !kept);
                }
                for (fact, label) in now.facts.iter().enumerate() {
                    let was = old.kept[fact];
                    // At the peak the window names what it named, and what the new turn says.
                    let new_turn = case.turn(turn);
                    let named_at_peak = matches!(was, agent_memory_widgets::Named::Meaning | agent_memory_widgets::Named::BareTerm)
                        || new_turn.text.contains(label.as_str()) || new_turn.speaker.contains(label.as_str());
                    let lost = named_at_peak && row.kept[fact] == agent_memory_widgets::Named::Gone;
                    prop_assert_eq!(loss.facts_lost.contains(label), lost, "{} at turn {}", label, turn);
                    let in_a_sentence_at_peak = was == agent_memory_widgets::Named::Meaning
                        || new_turn.text.contains(label.as_str()) || new_turn.speaker.contains(label.as_str());
                    let bare = in_a_sentence_at_peak && row.kept[fact] == agent_memory_widgets::Named::BareTerm;
                    prop_assert_eq!(loss.facts_bare.contains(label), bare, "{} at turn {}", label, turn);
                }
            }
            before = now;
        }
    }
}

proptest! {
    #![proptest_config(config(16))]

    /// A playground stands at a turn as if it had played there from the start, whatever turns
    /// it was moved through before: at real size it keeps a second session of each policy (at
    /// first at the script's end) and moves whichever of the two is fewer turns away.
    #[test]
    fn a_playground_at_a_turn_is_the_same_however_it_got_there(
        case in arb_case(),
        moves in prop::collection::vec(any::<Index>(), 1..8),
    ) {
        let session = case.session();
        let mut playground = Playground::new(session.config(), session.script().clone());
        let total = playground.state().total_turns;
        for at in moves {
            let turn = at.index(total as usize + 1) as u32;
            playground.go_to(turn);
            let mut straight = Playground::new(session.config(), session.script().clone());
            straight.go_to(turn);
            prop_assert_eq!(playground.state(), straight.state(), "at turn {}", turn);
        }
    }
}
