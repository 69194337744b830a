//! A bounded live session (issue 52, item 5): with a retention
//! ([`SessionConfig::with_retention`]) a session forgets the turns that folded long ago, and the
//! model sees exactly what it would without one: every step, window, message, summary asked for
//! and loss report, under every policy.

#[path = "common/moves.rs"]
mod moves;

use std::sync::{Arc, Mutex};

use agent_memory_widgets::{
    policy, Error, Estimate, Extractive, PolicyId, Session, SessionConfig, Summarizer, Tokens, Turn,
};
use moves::{arb_pushes, pushed_turns};
use proptest::prelude::*;

/// A summarizer that keeps every batch it is asked for (the turns' texts) and answers as
/// `Extractive` does.
#[derive(Clone, Default)]
struct Recorder(Arc<Mutex<Vec<Vec<String>>>>);

impl Summarizer for Recorder {
    fn summarize(&self, turn: &Turn) -> Result<String, Error> {
        Extractive.summarize(turn)
    }

    fn summarize_batch(&self, turns: &[&Turn]) -> Result<Vec<String>, Error> {
        let texts = turns.iter().map(|turn| turn.text().to_owned()).collect();
        self.0.lock().unwrap().push(texts);
        Extractive.summarize_batch(turns)
    }
}

/// A config of a small budget, with or without `compact_at`, `compact_to` and a hard budget.
fn arb_config() -> impl Strategy<Value = SessionConfig> {
    (moves::arb_config(), any::<bool>()).prop_map(|(config, hard)| match hard {
        true => config.with_hard_budget(),
        false => config,
    })
}

fn live(config: SessionConfig, id: PolicyId, estimate: bool, recorder: &Recorder) -> Session {
    let session = Session::live(config, policy(id)).with_summarizer(Box::new(recorder.clone()));
    match estimate {
        true => session.with_token_counter(Estimate),
        false => session,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, failure_persistence: None, ..ProptestConfig::default() })]

    /// Any live session under any of the seven policies, with any retention: every push gives
    /// the step (its loss report included) the session without a retention gives, the same
    /// window and messages after it, and the summarizer is asked for the same batches; the
    /// session holds no turn older than the retention allows (but for what the policy reads
    /// back).
    #[test]
    fn a_retention_changes_nothing_the_model_sees(
        id in prop::sample::select(PolicyId::NAMES),
        config in arb_config(),
        moves in arb_pushes(60),
        estimate in any::<bool>(),
        keep in 0u32..4,
    ) {
        let (whole_calls, bounded_calls) = (Recorder::default(), Recorder::default());
        let mut whole = live(config, id, estimate, &whole_calls);
        let mut bounded = live(config.with_retention(keep), id, estimate, &bounded_calls);
        for turn in pushed_turns(&moves) {
            let step = whole.push(turn.clone()).unwrap();
            prop_assert_eq!(bounded.push(turn).unwrap(), step);
            prop_assert_eq!(bounded.window(), whole.window());
            prop_assert_eq!(bounded.messages(), whole.messages());
            prop_assert_eq!(bounded.turn_count(), whole.turn_count());
            // What it holds: every turn from the retention's `keep` before the oldest verbatim
            // one (or from what the policy reads back), and a step for each turn played.
            let forgotten = bounded.script().forgotten();
            let oldest = bounded.window().verbatim().next().map_or(whole.turn_count() + 1, |t| t.0);
            prop_assert!(forgotten + keep + 1 >= oldest || id == PolicyId::Interval,
                "holds from turn {} with the oldest verbatim turn {}", forgotten + 1, oldest);
            prop_assert!(forgotten < oldest);
            prop_assert_eq!(bounded.log(), &whole.log()[forgotten as usize..]);
            prop_assert_eq!(bounded.script().turns(), &whole.script().turns()[forgotten as usize..]);
        }
        prop_assert_eq!(&*bounded_calls.0.lock().unwrap(), &*whole_calls.0.lock().unwrap());
        let (state, whole_state) = (bounded.state(), whole.state());
        prop_assert_eq!(&state.messages, &whole_state.messages);
        prop_assert_eq!(&state.warm, &whole_state.warm);
        prop_assert_eq!(&state.cold, &whole_state.cold);
        prop_assert_eq!(&state.hot, &whole_state.hot);
        prop_assert_eq!(
            &state.transcript[..],
            &whole_state.transcript[bounded.script().forgotten() as usize..]
        );
    }
}

/// Under HotWarmCold the window stays near the budget, and so does what a session with a
/// retention holds: the window's verbatim turns and the retention's, however long the session
/// runs; its save stays within the window's own range of sizes.
#[test]
fn a_retained_session_holds_what_its_window_needs() {
    let config = SessionConfig::builder()
        .budget(200)
        .hot_n(4)
        .compact_to(50)
        .retention(8)
        .build()
        .unwrap();
    let mut session = Session::live(config, policy(PolicyId::HotWarmCold));
    let mut sizes = Vec::new();
    for i in 0..3_000 {
        let turn = match i % 3 {
            0 => Turn::user(&format!(
                "Where is order ORD-{i}? It was due on day {}.",
                i % 30
            )),
            1 => Turn::tool_call(
                &format!("call_{i}"),
                &format!("lookup_order(ORD-{})", i - 1),
            ),
            _ => Turn::tool(
                &format!("call_{}", i - 1),
                &format!(
                    "ORD-{}: shipped by Globex on day {}, {} items.",
                    i - 2,
                    i % 30,
                    i % 7
                ),
            ),
        };
        session.push(turn.unwrap()).unwrap();
        let held = session.script().turns().len();
        assert!(held <= session.window().verbatim().len() + 8, "turn {i}");
        assert!(held <= 40, "turn {i}: {held} turns held");
        assert_eq!(session.log().len(), session.script().turns().len());
        if i % 1_000 == 999 {
            sizes.push(serde_json::to_string(&session).unwrap().len());
        }
    }
    assert_eq!(session.turn_count(), 3_000);
    let (least, most) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
    // The window's fill at the moment of the save, not the session's length, sets its size.
    assert!(most < &(least * 2), "save sizes {sizes:?}");
}

/// A session that forgot turns cannot play them again: starting over empties it, and it takes
/// new turns from turn 1.
#[test]
fn a_session_that_forgot_turns_starts_over_empty() {
    let config = SessionConfig::builder()
        .budget(20)
        .hot_n(1)
        .retention(0)
        .build()
        .unwrap();
    let mut session = Session::live(config, policy(PolicyId::HotWarmCold));
    for i in 0..20 {
        session
            .push(Turn::user(&format!("Question {i} about ORD-{i} and its refund.")).unwrap())
            .unwrap();
    }
    assert!(session.script().forgotten() > 0);
    session.go_to(10);
    assert_eq!(session.turn_count(), 0);
    assert!(session.script().turns().is_empty() && session.log().is_empty());
    let step = session.push(Turn::user("A new start.").unwrap()).unwrap();
    assert_eq!(step.turn.0, 1);
}

/// A retention set on a session that already played turns forgets what it no longer needs at
/// once, and changes nothing else.
#[test]
fn a_retention_set_later_forgets_at_once() {
    let config = SessionConfig::new(Tokens(30), 2).unwrap();
    let mut session = Session::live(config, policy(PolicyId::HotWarmCold));
    for i in 0..30 {
        session
            .push(Turn::user(&format!("Is ORD-{i} refunded yet? Please check.")).unwrap())
            .unwrap();
    }
    let (window, messages) = (session.window().clone(), session.messages());
    let session = session.with_retention(1);
    assert_eq!(session.config().retention(), Some(1));
    assert_eq!(session.window(), &window);
    assert_eq!(session.messages(), messages);
    assert_eq!(session.script().turns().len(), 3);
}
