//! Session logs at real size, written by the generator in `tests/common/logs.rs` in each agent's
//! shape: every text reaches a turn (or the subagent's turns, or a compaction's summary), what
//! was rewound reaches none, a broken line in a 20 MB log is named while the rest imports, and
//! the import's peak memory stays within twice the log (three times, the log's own text
//! included).

#[path = "common/logs.rs"]
mod logs;

use agent_memory_widgets::{import_conversation, Format, Imported};
use logs::{Agent, Options};
use proptest::prelude::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, counting the bytes in use and their peak.
struct Counting;

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = IN_USE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(now, Ordering::Relaxed);
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            let now = IN_USE.fetch_add(new_size - layout.size(), Ordering::Relaxed) + new_size
                - layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        } else {
            IN_USE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
        }
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Checks that `read` is what the generator said the log holds.
fn check(log: &logs::Log, read: &Imported) {
    assert_eq!(read.broken_lines, 0, "{:?}", read.broken);
    let texts: Vec<&str> = read
        .turns
        .iter()
        .map(|t| t.text.as_deref().unwrap())
        .collect();
    // Each expected text starts a turn, in order.
    let mut at = 0;
    for expected in &log.turns {
        match texts[at..]
            .iter()
            .position(|text| text.starts_with(expected.as_str()))
        {
            Some(offset) => at += offset + 1,
            None => panic!("no turn from {at} on starts with {expected:?}"),
        }
    }
    for rewound in &log.rewound {
        assert!(
            !texts.iter().any(|text| text.contains(rewound.as_str())),
            "{rewound}"
        );
    }
    let side: Vec<&str> = read
        .subagent
        .iter()
        .map(|t| t.text.as_deref().unwrap())
        .collect();
    assert_eq!(side, log.subagent);
    let summaries: Vec<&str> = read
        .compactions
        .iter()
        .map(|c| c.summary.as_str())
        .collect();
    assert_eq!(summaries, log.summaries);
    // A summary is never a turn.
    for summary in &log.summaries {
        assert!(!texts.iter().any(|text| summary.starts_with(*text)));
    }
}

#[test]
fn a_generated_log_of_each_agent_reads_whole() {
    for (agent, format) in [
        (Agent::ClaudeCode, Format::ClaudeCode),
        (Agent::Codex, Format::Codex),
        (Agent::Gemini, Format::GeminiCli),
    ] {
        let log = logs::write(Options::new(agent, 2_000_000));
        let read = import_conversation(&log.text).unwrap();
        assert_eq!(read.format, format);
        check(&log, &read);
        // Each reply's tokens sent, and each compaction, where the agent's log records them.
        if agent != Agent::Codex || !log.summaries.is_empty() {
            assert!(!read.sent_tokens.is_empty(), "{agent:?}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// Every record's text reaches a turn, the subagent's turns or a compaction's summary, or
    /// was rewound; nothing else is lost.
    #[test]
    fn every_text_reaches_a_turn(agent in 0..3usize, seed in 1..u64::MAX, bytes in 1_000..200_000usize, every in 0..6usize, extras: bool) {
        let agent = [Agent::ClaudeCode, Agent::Codex, Agent::Gemini][agent];
        let log = logs::write(Options { agent, bytes, seed, compact_every: every, extras, output: 6_000 });
        let read = import_conversation(&log.text).unwrap();
        check(&log, &read);
    }
}

#[test]
fn a_broken_line_in_a_20_mb_log_is_named_and_the_rest_imports() {
    let log = logs::write(Options::new(Agent::ClaudeCode, 20_000_000));
    let whole = import_conversation(&log.text).unwrap();
    // A line halfway through loses its closing brace and gains some garbage.
    let lines: Vec<&str> = log.text.lines().collect();
    let middle = lines.len() / 2;
    let mut broken = lines.clone();
    let damaged = format!("{} garbage", &lines[middle][..lines[middle].len() - 1]);
    broken[middle] = &damaged;
    let read = import_conversation(&broken.join("\n")).unwrap();
    assert_eq!(read.broken_lines, 1);
    assert_eq!(read.broken[0].line, middle + 1);
    assert!(
        read.broken[0]
            .reason
            .starts_with(&format!("line {}, column", middle + 1)),
        "{}",
        read.broken[0].reason
    );
    // The rest imports: at most the broken line's one turn is missing.
    assert!(read.turns.len() + 1 >= whole.turns.len());
    assert!(read.turns.len() <= whole.turns.len());
    assert_eq!(read.compactions.len(), whole.compactions.len());
}

#[test]
fn a_64_mb_log_imports_within_three_times_its_size() {
    let log = logs::write(Options::new(Agent::ClaudeCode, 64_000_000));
    let before = IN_USE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let read = import_conversation(&log.text).unwrap();
    let peak = PEAK.load(Ordering::Relaxed) - before;
    assert!(read.turns.len() > 5_000, "{}", read.turns.len());
    // The log's own text is already in memory: the import may add twice as much.
    assert!(
        peak <= 2 * log.text.len(),
        "peak {peak} for a log of {}",
        log.text.len()
    );
}

#[test]
fn a_log_of_50000_records_and_20000_turns_imports() {
    let log = logs::write(Options {
        output: 300,
        extras: false,
        ..Options::new(Agent::ClaudeCode, 40_000_000)
    });
    assert!(log.records >= 50_000, "{}", log.records);
    let read = import_conversation(&log.text).unwrap();
    check(&log, &read);
    assert!(read.turns.len() >= 20_000, "{}", read.turns.len());
}
