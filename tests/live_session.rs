//! A live session as an agent drives it: summaries asked for only when turns fold, once per
//! compaction and as a batch; summarizers and policies that fail, leaving the session as it was;
//! and sessions that are cloned, saved and loaded.

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use agent_memory_widgets::{
    policy, Compaction, CompactionPolicy, Error, ErrorKind, Extractive, HotWarmCold, Kind,
    PolicyId, Script, Session, SessionConfig, Summarizer, Tokens, Turn, TurnNumber, Window,
};
use proptest::prelude::*;

/// A summarizer that keeps every batch it is asked for (the turns' texts), and answers as
/// `Extractive` does, or fails as it is told.
#[derive(Clone, Default)]
struct Recorder {
    batches: Arc<Mutex<Vec<Vec<String>>>>,
    /// 0: answer; 1: fail; 2: one summary too few; 3: an empty summary.
    failure: Arc<AtomicU8>,
}

impl Summarizer for Recorder {
    fn summarize(&self, turn: &Turn) -> Result<String, Error> {
        self.summarize_batch(&[turn]).map(|mut all| all.remove(0))
    }

    fn summarize_batch(&self, turns: &[&Turn]) -> Result<Vec<String>, Error> {
        self.batches
            .lock()
            .unwrap()
            .push(turns.iter().map(|turn| turn.text().to_owned()).collect());
        let mut summaries = Extractive.summarize_batch(turns)?;
        match self.failure.load(Ordering::SeqCst) {
            1 => return Err(Error::new(ErrorKind::Other, "the model is down")),
            2 => {
                summaries.pop();
            }
            3 => summaries[0] = " ".into(),
            _ => {}
        }
        Ok(summaries)
    }
}

impl Recorder {
    fn calls(&self) -> usize {
        self.batches.lock().unwrap().len()
    }
}

/// A policy that runs another and then, when told, fails, having changed the window and its own
/// memory first.
#[derive(Clone)]
struct Failing {
    inner: Box<dyn CompactionPolicy>,
    fail: Arc<AtomicBool>,
}

impl CompactionPolicy for Failing {
    fn compact(
        &mut self,
        window: &mut Window,
        script: &Script,
        config: &SessionConfig,
    ) -> Result<Option<Compaction>, Error> {
        let step = self.inner.compact(window, script, config)?;
        if self.fail.load(Ordering::SeqCst) {
            window.pop_verbatim();
            window.clear_warm();
            return Err(Error::new(ErrorKind::Other, "the policy's model is down"));
        }
        Ok(step)
    }

    fn reset(&mut self) {
        self.inner.reset();
    }

    fn over_budget_reason(&self, window: &Window, config: &SessionConfig) -> Option<String> {
        self.inner.over_budget_reason(window, config)
    }
}

const WORDS: [&str; 12] = [
    "refund",
    "Dana",
    "ORD-3300",
    "$200.00",
    "window",
    "the",
    "fee",
    "Globex",
    "approved.",
    "late",
    "12-month",
    "warranty?",
];

/// Turn `i` of a long conversation: its number in the text (so every text is its own), a kind
/// in turn, a length that varies, and every seventh turn with its own summary.
fn long_turn(i: usize) -> Turn {
    let kind = [Kind::Question, Kind::Tool, Kind::Decision, Kind::Chatter][i % 4];
    let words = 5 + (i * 7919) % 40;
    let mut text = format!("Turn {i}:");
    for w in 0..words {
        text.push(' ');
        text.push_str(WORDS[(i + w * 5) % WORDS.len()]);
    }
    let turn = Turn::new(["Dana", "tool", "agent", "Dana"][i % 4], kind, &text).unwrap();
    match i % 7 {
        0 => turn
            .with_summary(&format!("turn {i} in its own words"))
            .unwrap(),
        _ => turn,
    }
}

#[test]
fn a_long_session_asks_once_per_compaction_for_exactly_the_turns_that_fold() {
    let config = SessionConfig::new(Tokens(500), 2).unwrap();
    let recorder = Recorder::default();
    let mut session = Session::live(config, Box::new(HotWarmCold::default()))
        .with_summarizer(Box::new(recorder.clone()));
    let mut turns: Vec<Turn> = Vec::new();
    let (mut folding, mut compactions) = (0, 0);
    for i in 0..200 {
        let turn = long_turn(i);
        turns.push(turn.clone());
        let before = recorder.calls();
        let step = session.push(turn).unwrap();
        compactions += usize::from(step.compacted);
        // The turns that fold without a summary of their own, oldest first.
        let asked: Vec<String> = step
            .to_warm
            .iter()
            .map(|n| &turns[n.0 as usize - 1])
            .filter(|turn| !turn.text().is_empty() && turn_summary_was_not_given(turn))
            .map(|turn| turn.text().to_owned())
            .collect();
        let batches = recorder.batches.lock().unwrap()[before..].to_vec();
        if asked.is_empty() {
            assert!(batches.is_empty(), "turn {}: asked {batches:?}", step.turn);
        } else {
            folding += 1;
            assert_eq!(batches, [asked], "turn {}", step.turn);
        }
        // A folded turn has its summary; a turn still verbatim and given none has none yet.
        for &number in &step.to_warm {
            assert!(session.script().turn(number).unwrap().summary().is_some());
        }
        let newest = session.script().turn(TurnNumber(i as u32 + 1)).unwrap();
        if turn_summary_was_not_given(&turns[i]) && !step.to_warm.contains(&step.turn) {
            assert_eq!(newest.summary(), None, "turn {}", i + 1);
        }
    }
    assert_eq!(recorder.calls(), folding);
    // Far fewer calls than turns that are not chatter (150): one per compaction that folds.
    assert!(
        folding > 5 && folding <= compactions,
        "{folding} of {compactions}"
    );
    let asked: usize = recorder.batches.lock().unwrap().iter().map(Vec::len).sum();
    let with_summaries = session
        .script()
        .turns()
        .iter()
        .filter(|turn| turn.summary().is_some() && turn_summary_was_not_given(turn))
        .count();
    assert_eq!(asked, with_summaries, "each turn is asked about once");
    assert!(session.state().tokens <= Tokens(500));
}

/// Whether the turn came without a summary of its own (see `long_turn`), and is not chatter.
fn turn_summary_was_not_given(turn: &Turn) -> bool {
    turn.kind() != Kind::Chatter
        && !turn
            .summary()
            .is_some_and(|summary| summary.ends_with("in its own words"))
}

#[test]
fn a_closure_and_a_shared_summarizer_write_the_summaries() {
    let calls = Arc::new(AtomicUsize::new(0));
    let counted = calls.clone();
    let closure = move |turn: &Turn| -> Result<String, Error> {
        counted.fetch_add(1, Ordering::SeqCst);
        Ok(format!("said {} words", turn.tokens().0))
    };
    let shared = Arc::new(closure);
    let config = SessionConfig::new(Tokens(10), 1).unwrap();
    let mut one = Session::live(config, Box::new(HotWarmCold::default()))
        .with_summarizer(Box::new(shared.clone()));
    let mut two = Session::live(config, Box::new(HotWarmCold::default()))
        .with_summarizer(Box::new(Arc::clone(&shared)));
    for text in ["Where is my refund?", "It was sent on day three, Dana."] {
        one.push(Turn::new("Dana", Kind::Question, text).unwrap())
            .unwrap();
        two.push(Turn::new("Dana", Kind::Question, text).unwrap())
            .unwrap();
    }
    assert_eq!(one.state().warm[0].text(), "said 4 words");
    assert_eq!(one.state(), two.state());
    assert_eq!(calls.load(Ordering::SeqCst), 2);
    // A trait object behind an Arc is a summarizer too.
    let object: Arc<dyn Summarizer> = Arc::new(Extractive);
    let turn = Turn::new("agent", Kind::Decision, "Approved. Five days.").unwrap();
    assert_eq!(object.summarize(&turn).unwrap(), "Approved.");
}

#[test]
fn a_bad_batch_is_a_clear_error_and_changes_nothing() {
    let config = SessionConfig::new(Tokens(6), 1).unwrap();
    let recorder = Recorder::default();
    let mut session = Session::live(config, Box::new(HotWarmCold::default()))
        .with_summarizer(Box::new(recorder.clone()));
    session
        .push(Turn::new("Dana", Kind::Question, "Where is my refund?").unwrap())
        .unwrap();
    let before = session.state();
    let next = Turn::new("tool", Kind::Tool, "refund RF-7781 sent.").unwrap();
    for (failure, message) in [
        (1, "the model is down"),
        (
            2,
            "the summarizer gave 0 summaries for 1 turns; it must give one a turn, in order",
        ),
        (
            3,
            "summary: the summarizer gave turn 1 a summary with no word",
        ),
    ] {
        recorder.failure.store(failure, Ordering::SeqCst);
        let err = session.push(next.clone()).unwrap_err();
        assert_eq!(err.message(), message);
        assert_eq!(session.state(), before);
        assert_eq!(session.script().turns().len(), 1);
    }
    assert!(matches!(
        session.push(next.clone()).unwrap_err().kind(),
        ErrorKind::InvalidOption { field } if field == "summary"
    ));
    recorder.failure.store(0, Ordering::SeqCst);
    let step = session.push(next).unwrap();
    assert_eq!(step.to_warm, [TurnNumber(1)]);
}

#[test]
fn a_turn_with_its_own_summary_keeps_it_and_is_never_asked_about() {
    let config = SessionConfig::new(Tokens(6), 1).unwrap();
    let recorder = Recorder::default();
    let mut session = Session::live(config, Box::new(HotWarmCold::default()))
        .with_summarizer(Box::new(recorder.clone()));
    let own = Turn::new("Dana", Kind::Question, "Where is my refund for ORD-3300?")
        .unwrap()
        .with_summary("Dana asks after ORD-3300.")
        .unwrap();
    session.push(own).unwrap();
    session
        .push(Turn::new("tool", Kind::Tool, "refund sent.").unwrap())
        .unwrap();
    assert_eq!(session.state().warm[0].text(), "Dana asks after ORD-3300.");
    assert_eq!(recorder.calls(), 0);
}

#[test]
fn a_cloned_session_goes_its_own_way() {
    let mut session = Session::live(SessionConfig::default(), policy(PolicyId::Interval));
    for i in 0..12 {
        session.push(long_turn(i)).unwrap();
    }
    let mut clone = session.clone();
    assert_eq!(clone.state(), session.state());
    clone.push(long_turn(12)).unwrap();
    assert_eq!(session.turn_count(), 12);
    session.push(long_turn(12)).unwrap();
    assert_eq!(clone.state(), session.state());
}

#[test]
fn the_scripted_path_is_unchanged_and_a_policy_that_can_fail_gives_the_same_answers() {
    // Every built-in policy on the refund desk, stepped in place, and the same policy behind
    // a wrapper that can fail (so stepped on copies) but never does.
    for &id in PolicyId::NAMES {
        let mut plain =
            Session::with_policy(SessionConfig::default(), Script::refund_desk(), policy(id));
        let wrapped = Failing {
            inner: policy(id),
            fail: Arc::new(AtomicBool::new(false)),
        };
        let mut copied = Session::with_policy(
            SessionConfig::default(),
            Script::refund_desk(),
            Box::new(wrapped),
        );
        while let Some(step) = plain.add_turn() {
            assert_eq!(copied.add_turn(), Some(step), "{id}");
            assert_eq!(copied.state(), plain.state(), "{id}");
        }
        assert_eq!(copied.add_turn(), None);
    }
}

// ---------------------------------------------------------------------------------------------
// Failure atomicity, as tests/atomicity.rs checks it for the store.

#[derive(Clone, Debug)]
struct Push {
    kind: Kind,
    words: Vec<&'static str>,
    own_summary: bool,
    /// 0: the summarizer answers; 1 to 3: it fails (see `Recorder`).
    summarizer_failure: u8,
    policy_fails: bool,
}

fn push_op() -> impl Strategy<Value = Push> {
    (
        prop::sample::select(Kind::NAMES),
        prop::collection::vec(prop::sample::select(&WORDS[..]), 1..14),
        prop::bool::weighted(0.2),
        prop_oneof![6 => Just(0u8), 1 => Just(1u8), 1 => Just(2u8), 1 => Just(3u8)],
        prop::bool::weighted(0.15),
    )
        .prop_map(
            |(kind, words, own_summary, summarizer_failure, policy_fails)| Push {
                kind,
                words,
                own_summary,
                summarizer_failure,
                policy_fails,
            },
        )
}

fn turn_of(push: &Push, i: usize) -> Turn {
    let text = format!("{i} {}", push.words.join(" "));
    let turn = Turn::new("Dana", push.kind, &text).unwrap();
    if push.own_summary {
        turn.with_summary(&format!("summary of {i}")).unwrap()
    } else {
        turn
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn a_failed_push_leaves_the_session_exactly_as_it_was(
        id in prop::sample::select(PolicyId::NAMES),
        budget in 6u32..40,
        hot_n in 1u32..3,
        pushes in prop::collection::vec(push_op(), 1..40),
    ) {
        let config = SessionConfig::new(Tokens(budget), hot_n).unwrap();
        let recorder = Recorder::default();
        let fail = Arc::new(AtomicBool::new(false));
        let failing = Failing { inner: policy(id), fail: fail.clone() };
        let mut session = Session::live(config, Box::new(failing))
            .with_summarizer(Box::new(recorder.clone()));
        // The twin never sees a failed push, and steps its policy in place where it can.
        let mut twin = Session::live(config, policy(id));
        for (i, push) in pushes.iter().enumerate() {
            let turn = turn_of(push, i);
            recorder.failure.store(push.summarizer_failure, Ordering::SeqCst);
            fail.store(push.policy_fails, Ordering::SeqCst);
            match session.push(turn.clone()) {
                Err(_) => {
                    prop_assert!(push.policy_fails || push.summarizer_failure != 0);
                    prop_assert_eq!(session.state(), twin.state());
                    prop_assert_eq!(session.script(), twin.script());
                }
                Ok(step) => {
                    prop_assert!(!push.policy_fails);
                    prop_assert_eq!(step, twin.push(turn).unwrap());
                    prop_assert_eq!(session.state(), twin.state());
                }
            }
        }
        // And the next push that succeeds gives what the twin gives.
        recorder.failure.store(0, Ordering::SeqCst);
        fail.store(false, Ordering::SeqCst);
        let next = turn_of(&pushes[0], pushes.len());
        prop_assert_eq!(session.push(next.clone()).unwrap(), twin.push(next).unwrap());
        prop_assert_eq!(session.state(), twin.state());
    }
}

// ---------------------------------------------------------------------------------------------
// Saving and loading.

#[cfg(feature = "deserialize")]
mod saving {
    use super::*;
    use agent_memory_widgets::{Estimate, SavedSession};

    fn save_and_load(
        session: &Session,
        id: PolicyId,
        recorder: &Recorder,
    ) -> Result<Session, Error> {
        let json = serde_json::to_string(session).unwrap();
        assert_eq!(
            serde_json::to_value(session).unwrap(),
            serde_json::to_value(session.save()).unwrap()
        );
        let saved: SavedSession = serde_json::from_str(&json).unwrap();
        assert_eq!(saved, session.save());
        Session::load(saved, policy(id), Box::new(recorder.clone()))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]

        #[test]
        fn a_loaded_session_is_the_saved_one_and_goes_on_the_same_way(
            id in prop::sample::select(PolicyId::NAMES),
            budget in 6u32..60,
            hot_n in 1u32..4,
            pushes in prop::collection::vec(push_op(), 0..40),
            back in 0u32..5,
        ) {
            let config = SessionConfig::new(Tokens(budget), hot_n).unwrap();
            let mut session = Session::live(config, policy(id));
            for (i, push) in pushes.iter().enumerate() {
                session.push(turn_of(push, i)).unwrap();
            }
            // Sometimes a session stepped back, with turns still to come.
            if back > 0 {
                session.go_to(session.turn_count().saturating_sub(back));
            }
            let recorder = Recorder::default();
            let mut loaded = save_and_load(&session, id, &recorder).unwrap();
            prop_assert_eq!(recorder.calls(), 0, "the load called the summarizer");
            prop_assert_eq!(loaded.state(), session.state());
            let next = turn_of(&pushes.first().cloned().unwrap_or_else(|| Push {
                kind: Kind::Decision,
                words: vec!["refund", "approved."],
                own_summary: false,
                summarizer_failure: 0,
                policy_fails: false,
            }), 99);
            prop_assert_eq!(loaded.push(next.clone()).unwrap(), session.push(next).unwrap());
            prop_assert_eq!(loaded.state(), session.state());
        }

        #[test]
        fn a_scripted_session_loads_at_its_turn(
            id in prop::sample::select(PolicyId::NAMES),
            at in 0u32..=10,
        ) {
            let mut session = Session::with_policy(SessionConfig::default(), Script::refund_desk(), policy(id));
            session.go_to(at);
            let mut loaded = save_and_load(&session, id, &Recorder::default()).unwrap();
            prop_assert_eq!(loaded.state(), session.state());
            prop_assert_eq!(loaded.add_turn(), session.add_turn());
            prop_assert_eq!(loaded.state(), session.state());
        }

        #[test]
        fn a_damaged_saved_session_is_an_error_never_a_panic(cut in 0usize..2000, byte in any::<u8>()) {
            let mut session = Session::live(SessionConfig::new(Tokens(20), 1).unwrap(), policy(PolicyId::HotWarmCold));
            for i in 0..8 {
                session.push(long_turn(i)).unwrap();
            }
            let mut json = serde_json::to_vec(&session).unwrap();
            let at = cut % json.len();
            json[at] = byte;
            if let Ok(saved) = serde_json::from_slice::<SavedSession>(&json) {
                let _ = Session::load(saved, policy(PolicyId::HotWarmCold), Box::new(Extractive));
            }
        }
    }

    #[test]
    fn a_session_counting_its_own_way_saves_and_loads_counting_the_same() {
        // A budget at which the estimate and words fold different turns, so a load that counted
        // words would replay other compactions and fail on a summary never written.
        let config = SessionConfig::new(Tokens(30), 1).unwrap();
        let bytes = |text: &str| Tokens(text.len().div_ceil(3) as u32);
        let counters: [(Option<&str>, Session); 3] = [
            (None, Session::live(config, policy(PolicyId::HotWarmCold))),
            (
                Some("estimate"),
                Session::live(config, policy(PolicyId::HotWarmCold)).with_token_counter(Estimate),
            ),
            (
                Some("custom"),
                Session::live(config, policy(PolicyId::HotWarmCold)).with_token_counter(bytes),
            ),
        ];
        for (counting, mut session) in counters {
            for i in 0..12 {
                let turn = long_turn(i);
                let turn = if i == 5 {
                    turn.with_tokens(Tokens(7))
                } else {
                    turn
                };
                session.push(turn).unwrap();
            }
            let saved: SavedSession =
                serde_json::from_str(&serde_json::to_string(&session).unwrap()).unwrap();
            assert_eq!(saved.counting.as_deref(), counting);
            assert!(saved.turns[5].own_tokens && !saved.turns[4].own_tokens);
            let load = || {
                Session::load(
                    saved.clone(),
                    policy(PolicyId::HotWarmCold),
                    Box::new(Extractive),
                )
            };
            let mut loaded = match counting {
                Some("custom") => {
                    assert_eq!(
                        load().unwrap_err().message(),
                        "the session counted tokens with \"custom\": load it with Session::load_counting and that counter"
                    );
                    let wrong = Session::load_counting(
                        saved.clone(),
                        policy(PolicyId::HotWarmCold),
                        Box::new(Extractive),
                        Estimate,
                    );
                    assert_eq!(
                        wrong.unwrap_err().message(),
                        "the session counted tokens with \"custom\", not \"estimate\""
                    );
                    Session::load_counting(
                        saved.clone(),
                        policy(PolicyId::HotWarmCold),
                        Box::new(Extractive),
                        bytes,
                    )
                    .unwrap()
                }
                _ => load().unwrap(),
            };
            assert_eq!(loaded.state(), session.state(), "{counting:?}");
            assert!(loaded.state().crossings.len() >= 2, "{counting:?}");
            let next = long_turn(40);
            assert_eq!(
                loaded.push(next.clone()).unwrap(),
                session.push(next).unwrap()
            );
            assert_eq!(loaded.state(), session.state());
        }
    }

    #[test]
    fn a_bad_saved_session_names_what_is_wrong() {
        let mut session = Session::live(
            SessionConfig::new(Tokens(20), 1).unwrap(),
            policy(PolicyId::HotWarmCold),
        );
        for i in 0..8 {
            session.push(long_turn(i)).unwrap();
        }
        let load = |saved: SavedSession| {
            Session::load(saved, policy(PolicyId::HotWarmCold), Box::new(Extractive)).unwrap_err()
        };
        let mut saved = session.save();
        saved.added = 9;
        assert_eq!(
            load(saved).message(),
            "added must be at most the number of turns, 8, got 9"
        );
        let mut saved = session.save();
        saved.pushed = 9;
        assert_eq!(
            load(saved).message(),
            "pushed must be at most added, 8, and 0 unless every turn was added, got 9"
        );
        let mut saved = session.save();
        saved.turns[2].text = "  ".into();
        assert_eq!(
            load(saved).message(),
            "turns[2].text: must be a non-empty text"
        );
        let mut saved = session.save();
        saved.turns[1].summary = Some(String::new());
        assert_eq!(
            load(saved).message(),
            "turns[1].summary: a tool turn needs a one-line summary (only chatter goes without)"
        );
        // A folded turn saved without its summary cannot be replayed without the summarizer.
        let mut saved = session.save();
        let folded = saved
            .turns
            .iter()
            .position(|turn| {
                turn.summary.is_some()
                    && turn.kind != Kind::Chatter
                    && !turn.summary.as_deref().unwrap().ends_with("own words")
            })
            .unwrap();
        saved.turns[folded].summary = None;
        let err = load(saved);
        assert_eq!(*err.kind(), ErrorKind::InvalidState);
        assert!(
            err.message()
                .contains(&format!("folds turn {}", folded + 1)),
            "{}",
            err.message()
        );
        // What serde refuses: an unknown field, an unknown kind, a budget of 0.
        let json = serde_json::to_string(&session).unwrap();
        for (from, to) in [
            ("\"added\"", "\"extra\":1,\"added\""),
            ("\"kind\":\"tool\"", "\"kind\":\"smalltalk\""),
            ("\"budget\":20", "\"budget\":0"),
        ] {
            assert!(json.contains(from), "{from}");
            let broken = json.replacen(from, to, 1);
            assert!(
                serde_json::from_str::<SavedSession>(&broken).is_err(),
                "{to}"
            );
        }
    }
}
