//! Compactions in the agent program of issue 52: 2,000 turns at a budget of 8,000 tokens, with
//! the model's token counts, Chinese text and long JSON tool outputs, under [`HotWarmCold`]
//! compacting at 90% of the budget, alone and down to 50% (`compact_to`). Prints the number of
//! compactions in turns 1,001 to 2,000 of each (`cargo bench --bench compaction_target`).

#[path = "../tests/common/agent.rs"]
mod agent;

use agent_memory_widgets::{Estimate, HotWarmCold, Session, SessionConfig, Tokens};

fn main() {
    let turns = agent::agent_turns(2_000);
    let at_90 = SessionConfig::new(Tokens(8_000), 4)
        .and_then(|config| config.with_compact_at(Some(90)))
        .expect("valid settings");
    for (name, config) in [
        ("compact_at 90", at_90),
        (
            "compact_at 90, compact_to 50",
            at_90.with_compact_to(Some(50)).expect("valid"),
        ),
    ] {
        let mut session =
            Session::live(config, Box::new(HotWarmCold::default())).with_token_counter(Estimate);
        let mut compactions = 0;
        for turn in &turns {
            let step = session.push(turn.clone()).expect("a push");
            compactions += usize::from(step.compacted && step.turn.0 > 1_000);
        }
        println!("{name}: {compactions} compactions in turns 1,001 to 2,000");
    }
}
