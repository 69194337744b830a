//! A hard budget ([`SessionConfig::with_hard_budget`]): whatever a policy leaves over the budget
//! is trimmed, oldest first, keeping tool pairs together, and each step says what it trimmed.
//! Off, every policy keeps its own behaviour.

#[path = "common/agent.rs"]
mod agent;
#[path = "common/moves.rs"]
mod moves;

use agent_memory_widgets::{
    policy, Estimate, PolicyId, Session, SessionConfig, Tokens, Turn, TurnNumber,
};
use moves::{arb_config, check_pairs, turns_of};
use proptest::prelude::*;

/// The newest turn and every turn that shares its tool-call id, as the guard keeps them.
fn kept(pushed: &[Turn]) -> Vec<TurnNumber> {
    let newest = pushed.len();
    let id = pushed[newest - 1].tool_call_id();
    let mut kept = Vec::new();
    for (i, turn) in pushed.iter().enumerate() {
        if i + 1 == newest || (id.is_some() && turn.tool_call_id() == id) {
            kept.push(TurnNumber(i as u32 + 1));
        }
    }
    kept
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    /// Under every policy with the guard on, every window is at or under the budget, unless
    /// only the newest turn (with its tool pair) is left and it alone is over; no tool pair is
    /// ever split; and what a step trimmed is out of the window.
    #[test]
    fn every_window_fits_the_hard_budget(moves in moves::arb_moves(30, 30, 90), config in arb_config()) {
        let turns = turns_of(&moves);
        let budget = config.budget();
        for &id in PolicyId::NAMES {
            let mut session = Session::live(config.with_hard_budget(), policy(id));
            for (i, turn) in turns.iter().enumerate() {
                let step = session.push(turn.clone()).unwrap();
                let at = format!("{id:?}, turn {}", i + 1);
                let window = session.window();
                let verbatim: Vec<TurnNumber> = window.verbatim().collect();
                if window.tokens() > budget {
                    prop_assert!(window.cold().is_none() && window.warm().len() == 0, "{}", at);
                    let pushed = &turns[..=i];
                    let kept = kept(pushed);
                    prop_assert!(verbatim.iter().all(|turn| kept.contains(turn)), "{}: {:?} left, over", at, verbatim);
                    let reason = session.state().over_budget_reason.unwrap();
                    prop_assert!(reason.starts_with("The hard budget kept only the newest turn"), "{}: {}", at, reason);
                }
                prop_assert_eq!(step.tokens_after, window.tokens());
                for turn in step.trimmed() {
                    prop_assert!(!verbatim.contains(turn), "{}: trimmed {} still verbatim", at, turn);
                }
                if let Err(err) = check_pairs(&session.messages(), &turns[..=i]) {
                    return Err(TestCaseError::fail(format!("{at}: {err}")));
                }
            }
        }
    }

    /// With the guard on, a session takes the same steps as one without it for as long as the
    /// policy keeps the window within the budget by itself; without it, nothing is trimmed.
    #[test]
    fn the_guard_changes_nothing_while_the_policy_fits(moves in moves::arb_moves(30, 30, 90), config in arb_config()) {
        let turns = turns_of(&moves);
        for &id in PolicyId::NAMES {
            let mut plain = Session::live(config, policy(id));
            let mut guarded = Session::live(config.with_hard_budget(), policy(id));
            let mut fits = true;
            for turn in &turns {
                let step = plain.push(turn.clone()).unwrap();
                prop_assert!(step.trimmed().is_empty());
                let guarded_step = guarded.push(turn.clone()).unwrap();
                fits &= step.tokens_after <= config.budget();
                if fits {
                    prop_assert_eq!(&guarded_step, &step, "{:?}", id);
                    prop_assert_eq!(guarded.messages(), plain.messages(), "{:?}", id);
                }
            }
        }
    }
}

/// The agent program of issue 52 (budget 8,000, the model's token counts, long JSON tool
/// outputs): without the guard some policies end far over the budget; with it none does, and the
/// guarded session saves and loads exactly.
#[test]
fn the_agent_program_fits_its_budget_under_every_policy() {
    let turns = agent::agent_turns(400);
    let config = SessionConfig::new(Tokens(8_000), 4).unwrap();
    let mut overran = Vec::new();
    for &id in PolicyId::NAMES {
        let mut plain = Session::live(config, policy(id)).with_token_counter(Estimate);
        let mut guarded =
            Session::live(config.with_hard_budget(), policy(id)).with_token_counter(Estimate);
        let (mut most, mut trims) = (Tokens(0), 0);
        for turn in &turns {
            let step = plain.push(turn.clone()).unwrap();
            most = most.max(step.tokens_after);
            let step = guarded.push(turn.clone()).unwrap();
            assert!(
                step.tokens_after <= Tokens(8_000),
                "{id:?} turn {}",
                step.turn
            );
            trims += usize::from(!step.trimmed().is_empty());
        }
        if most > Tokens(8_000) {
            overran.push(id);
            assert!(trims > 0, "{id:?}");
        }
        #[cfg(feature = "deserialize")]
        {
            let json = serde_json::to_string(&guarded).unwrap();
            assert!(json.contains(r#""hardBudget":true"#));
            let saved = serde_json::from_str(&json).unwrap();
            let loaded = Session::load_counting(
                saved,
                policy(id),
                Box::new(agent_memory_widgets::Extractive),
                Estimate,
            )
            .unwrap();
            assert_eq!(loaded.state(), guarded.state(), "{id:?}");
        }
    }
    eprintln!("over the budget without the guard: {overran:?}");
    assert!(overran.len() >= 3, "{overran:?}");
}

/// The flag is set three ways, each the same, and a config saves it only when it is on.
#[test]
fn the_hard_budget_is_set_by_config_builder_or_session() {
    let config = SessionConfig::new(Tokens(20), 2).unwrap();
    assert!(!config.hard_budget() && !SessionConfig::default().hard_budget());
    let built = SessionConfig::builder()
        .budget(20)
        .hot_n(2)
        .hard_budget()
        .build()
        .unwrap();
    assert_eq!(built, config.with_hard_budget());
    assert_eq!(
        serde_json::to_string(&built).unwrap(),
        r#"{"budget":20,"hotN":2,"hardBudget":true}"#
    );
    assert_eq!(
        serde_json::to_string(&config).unwrap(),
        r#"{"budget":20,"hotN":2}"#
    );
    #[cfg(feature = "deserialize")]
    for config in [config, built] {
        let json = serde_json::to_string(&config).unwrap();
        assert_eq!(
            serde_json::from_str::<SessionConfig>(&json).unwrap(),
            config
        );
        let bytes = postcard::to_allocvec(&config).unwrap();
        assert_eq!(
            postcard::from_bytes::<SessionConfig>(&bytes).unwrap(),
            config
        );
    }

    // Turned on after turns were added, the session plays them again under it.
    let turns = [
        Turn::user("Where is my refund for ORD-3300, please tell me now?").unwrap(),
        Turn::tool_call("c1", "lookup_order(ORD-3300)").unwrap(),
        Turn::tool(
            "c1",
            "ORD-3300 refunded $180.00 on day 3, reference RF-7781",
        )
        .unwrap(),
    ];
    let config = SessionConfig::new(Tokens(12), 1).unwrap();
    let mut late = Session::live(config, policy(PolicyId::SummaryBuffer));
    let mut early = Session::live(config.with_hard_budget(), policy(PolicyId::SummaryBuffer));
    for turn in &turns {
        late.push(turn.clone()).unwrap();
        early.push(turn.clone()).unwrap();
    }
    assert!(late.window().tokens() > Tokens(12));
    let late = late.with_hard_budget();
    assert_eq!(late.state(), early.state());
    assert!(late.config().hard_budget());
    // The newest turn is a result of 8 tokens with its call of 2 (its name and its value): both
    // stay, and the summary goes.
    assert_eq!(early.window().tokens(), Tokens(10));
    assert_eq!(
        early.window().verbatim().collect::<Vec<_>>(),
        [TurnNumber(2), TurnNumber(3)]
    );
}
