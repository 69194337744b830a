//! What a step's loss report ([`Step::lost`]) costs as the window grows: each of the seven
//! policies plays a 20,000-turn script at the seed's budget of 40, so that every policy
//! compacts often, and the time to play the first 5,000 turns and all 20,000 is printed, with the
//! cost per turn of each (`cargo bench --bench lost`). Under the policies whose window grows with
//! the session (observation masking keeps every turn), a report that walks the window costs
//! O(n) a compaction and the session O(n²); one proportional to what changed keeps the cost per
//! turn flat.
//!
//! [`Step::lost`]: agent_memory_widgets::Step::lost

use agent_memory_widgets::{policy, PolicyId, Script, Session, SessionConfig, Tokens, TurnSpec};
use std::time::Instant;

/// The script of `benches/scaling.rs`: every fifth turn is chatter; turns have 5 to 40 words,
/// some of them names and amounts.
fn script(turns: u32) -> Script {
    let kinds = ["question", "tool", "decision", "decision", "chatter"];
    let specs = (0..turns)
        .map(|i| {
            let words = 5 + (i * 7919) % 36;
            let text: Vec<String> = (0..words)
                .map(|w| match w % 9 {
                    0 => format!("ORD-{}", (i + w) % 977),
                    _ => "word".into(),
                })
                .collect();
            TurnSpec {
                speaker: Some("Dana".into()),
                kind: Some(kinds[(i % 5) as usize].into()),
                text: Some(text.join(" ")),
                summary: Some(format!("Dana summary {} of turn", i % 101)),
                ..TurnSpec::default()
            }
        })
        .collect();
    Script::new(specs).expect("the generated script is valid")
}

fn main() {
    const TURNS: u32 = 20_000;
    const FIRST: u32 = 5_000;
    let script = script(TURNS);
    let config = SessionConfig::new(Tokens(40), 2).expect("a valid config");
    println!("policy: ms for {FIRST} turns (µs a turn), ms for {TURNS} (µs a turn)");
    for &id in PolicyId::NAMES {
        let mut session = Session::with_policy(config, script.clone(), policy(id));
        let start = Instant::now();
        session.go_to(FIRST);
        let first = start.elapsed().as_secs_f64() * 1e3;
        session.go_to(TURNS);
        let all = start.elapsed().as_secs_f64() * 1e3;
        let lost: usize = session
            .log()
            .iter()
            .map(|step| step.lost().turns.len())
            .sum();
        println!(
            "{}: {first:.0} ms ({:.1} µs), {all:.0} ms ({:.1} µs); {lost} turns lost",
            id.name(),
            first * 1e3 / f64::from(FIRST),
            all * 1e3 / f64::from(TURNS),
        );
    }
}
