//! A target to compact to ([`SessionConfig::with_compact_to`]): in the agent program of issue
//! 52 (2,000 turns at a budget of 8,000 tokens), compacting at 90% down to 50% needs at most a
//! quarter of the compactions that compacting at 90% alone needs in turns 1,001 to 2,000.

#[path = "common/agent.rs"]
mod agent;

use agent_memory_widgets::{
    Estimate, HotWarmCold, Session, SessionConfig, Tokens, Turn, WARM_SHARE,
};

/// The compactions in turns 1,001 to 2,000 of the agent program under `config`, checking after
/// each that the window is at or under its target unless HOT and the gist alone are over it,
/// and that WARM holds at most its share.
fn compactions(config: SessionConfig, turns: &[Turn]) -> usize {
    let mut session =
        Session::live(config, Box::new(HotWarmCold::default())).with_token_counter(Estimate);
    let mut count = 0;
    for turn in turns {
        let step = session.push(turn.clone()).unwrap();
        if !step.compacted {
            continue;
        }
        let window = session.window();
        let gist = window.cold().map_or(Tokens(0), |line| line.tokens());
        let warm = window.tokens() - window.verbatim_tokens() - gist;
        assert!(
            window.tokens() <= config.target() || window.verbatim_tokens() + gist > config.target(),
            "turn {}: {} tokens over the target {}",
            step.turn,
            window.tokens(),
            config.target()
        );
        assert!(warm.0 as u64 <= u64::from(config.budget().0) * u64::from(WARM_SHARE) / 100);
        if step.turn.0 > 1_000 {
            count += 1;
        }
    }
    count
}

#[test]
fn compacting_to_half_the_budget_needs_a_quarter_of_the_compactions() {
    let turns = agent::agent_turns(2_000);
    let at_90 = SessionConfig::new(Tokens(8_000), 4)
        .unwrap()
        .with_compact_at(Some(90))
        .unwrap();
    let to_50 = at_90.with_compact_to(Some(50)).unwrap();
    let (alone, with_target) = (compactions(at_90, &turns), compactions(to_50, &turns));
    assert!(
        alone > 0 && with_target * 4 <= alone,
        "{with_target} against {alone}"
    );
}

#[test]
fn compact_to_is_checked_and_saved() {
    let err = SessionConfig::default()
        .with_compact_to(Some(0))
        .unwrap_err();
    assert_eq!(
        err.message(),
        "compact_to must be a whole number of at least 1, got 0"
    );
    let config = SessionConfig::default().with_compact_to(Some(50)).unwrap();
    assert_eq!(config.target(), Tokens(20));
    let json = serde_json::to_string(&config).unwrap();
    assert_eq!(json, r#"{"budget":40,"hotN":2,"compactTo":50}"#);
    #[cfg(feature = "deserialize")]
    assert_eq!(
        serde_json::from_str::<SessionConfig>(&json).unwrap(),
        config
    );
}
