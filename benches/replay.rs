//! The playground's replay at real size, natively: a Claude Code log written by
//! `tests/common/logs.rs` (24 MB, 3,605 turns), imported, and all seven policies replayed at a
//! budget of 8,000 over its first 300 turns and over all of them, in one run. Prints the cost
//! per turn of each, the best of three runs, and their ratio (`cargo bench --bench replay`;
//! issue 51's goal: at most 1.5). `REPLAY_LOG=path` replays another log instead, such as the
//! browser bench's (tests/e2e/biglog.mjs); `REPLAY_ALL_ONLY=1` replays all turns only, for a
//! profiler.

#[path = "../tests/common/logs.rs"]
mod logs;

use agent_memory_widgets::{import_conversation, Playground, SessionOptions, TurnSpec};
use std::time::Instant;

/// Milliseconds to build the playground of `turns`: every policy replayed to the end.
fn replay(turns: &[TurnSpec]) -> f64 {
    let options = SessionOptions {
        budget: Some(8_000.0),
        script: Some(turns.to_vec()),
        ..SessionOptions::default()
    };
    let start = Instant::now();
    let playground = Playground::from_options(options).expect("a playground");
    let ms = start.elapsed().as_secs_f64() * 1e3;
    std::hint::black_box(playground);
    ms
}

fn main() {
    let text = match std::env::var_os("REPLAY_LOG") {
        Some(path) => std::fs::read_to_string(path).expect("the log REPLAY_LOG names"),
        None => logs::write(logs::Options::new(logs::Agent::ClaudeCode, 24_000_000)).text,
    };
    let start = Instant::now();
    let read = import_conversation(&text).expect("the log imports");
    let import_ms = start.elapsed().as_secs_f64() * 1e3;
    let turns = &read.turns;
    println!(
        "log: {} bytes, {} turns; import {import_ms:.0} ms",
        text.len(),
        turns.len()
    );
    if std::env::var_os("REPLAY_ALL_ONLY").is_some() {
        for _ in 0..3 {
            println!("replay of all turns: {:.0} ms", replay(turns));
        }
        return;
    }
    let mut per_turn = Vec::new();
    for count in [300, 1_000, 2_000, turns.len()] {
        let count = count.min(turns.len());
        let ms = (0..3)
            .map(|_| replay(&turns[..count]))
            .fold(f64::INFINITY, f64::min);
        let us = ms * 1e3 / count as f64;
        println!("replay of {count} turns: {ms:.0} ms, {us:.0} µs a turn");
        per_turn.push(us);
    }
    if let (Some(first), Some(last)) = (per_turn.first(), per_turn.last()) {
        println!("cost per turn, all turns against 300: {:.2}x", last / first);
    }
}
