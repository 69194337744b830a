//! The two-phase push ([`Session::begin_push`], [`Session::finish_push`]): the same steps as
//! [`Session::push`], applied as atomically, and a stale pending push refused.

use agent_memory_widgets::{
    policy, ErrorKind, Extractive, PolicyId, Session, SessionConfig, Summarizer, Tokens, Turn,
    POLICIES,
};
#[path = "common/moves.rs"]
mod moves;
use moves::{arb_moves, turns_of};
use proptest::prelude::*;

fn live(budget: u32, hot_n: u32, id: PolicyId) -> Session {
    let config = SessionConfig::new(Tokens(budget), hot_n).unwrap();
    Session::live(config, policy(id))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Under every policy, begin, summarise and finish give the steps and the state `push`
    /// gives.
    #[test]
    fn two_phases_take_the_steps_push_takes(
        moves in arb_moves(40, 12, 12),
        budget in 6u32..80,
        hot_n in 1u32..4,
    ) {
        for info in POLICIES {
            let mut pushed = live(budget, hot_n, info.id);
            let mut phased = live(budget, hot_n, info.id);
            for turn in turns_of(&moves) {
                let step = pushed.push(turn.clone()).unwrap();
                let pending = phased.begin_push(turn).unwrap();
                let batch: Vec<&Turn> = pending.turns().iter().collect();
                let summaries = Extractive.summarize_batch(&batch).unwrap();
                prop_assert_eq!(phased.finish_push(pending, summaries).unwrap(), step);
            }
            prop_assert_eq!(phased.state(), pushed.state(), "{:?}", info.id);
        }
    }
}

/// A session of budget 12 that holds Dana's question, whose next push compacts.
fn asked() -> Session {
    let mut session = live(12, 1, PolicyId::HotWarmCold);
    session
        .push(Turn::user("Where is my refund for ORD-3300? It has been a week.").unwrap())
        .unwrap();
    session
}

#[test]
fn a_pending_push_changes_nothing_until_it_is_finished() {
    let mut session = asked();
    let before = session.state();
    let pending = session
        .begin_push(Turn::assistant("It was sent on day 3.").unwrap())
        .unwrap();
    assert_eq!(pending.turns().len(), 1);
    assert_eq!(
        pending.turns()[0].text(),
        "Where is my refund for ORD-3300? It has been a week."
    );
    assert_eq!(session.state(), before);
    // The model's own summary, not the session's summarizer's.
    let step = session
        .finish_push(pending, vec!["Dana asks after the ORD-3300 refund.".into()])
        .unwrap();
    assert_eq!(step.to_warm, [1]);
    assert_eq!(
        session.window().warm().next().unwrap().text(),
        "Dana asks after the ORD-3300 refund."
    );
}

#[test]
fn a_stale_pending_push_is_an_error_and_changes_nothing() {
    let mut session = live(40, 2, PolicyId::HotWarmCold);
    let pending = session.begin_push(Turn::user("first").unwrap()).unwrap();
    session.push(Turn::user("second").unwrap()).unwrap();
    let before = session.state();
    let err = session.finish_push(pending, Vec::new()).unwrap_err();
    assert_eq!(*err.kind(), ErrorKind::InvalidState);
    assert_eq!(
        err.message(),
        "pending: the session has changed since this push began (it now holds 1 turns); begin the push again"
    );
    assert_eq!(session.state(), before);
    // A reset makes a pending push stale too, even at the same number of turns.
    let pending = session.begin_push(Turn::user("third").unwrap()).unwrap();
    session.reset();
    session.go_to(1);
    assert!(session.finish_push(pending, Vec::new()).is_err());
}

#[test]
fn wrong_summaries_are_refused_and_change_nothing() {
    let mut session = asked();
    let before = session.state();
    let turn = Turn::assistant("It was sent on day 3.").unwrap();
    for (summaries, kind) in [
        (vec![], ErrorKind::InvalidState),
        (vec!["one".into(), "two".into()], ErrorKind::InvalidState),
        (
            vec!["  ".into()],
            ErrorKind::InvalidOption {
                field: "summary".into(),
            },
        ),
    ] {
        let pending = session.begin_push(turn.clone()).unwrap();
        let err = session.finish_push(pending, summaries).unwrap_err();
        assert_eq!(*err.kind(), kind, "{err}");
        assert_eq!(session.state(), before);
    }
    // And the push still goes through afterwards.
    let pending = session.begin_push(turn).unwrap();
    session
        .finish_push(pending, vec!["Refund asked.".into()])
        .unwrap();
    assert_eq!(session.turn_count(), 2);
}
