//! Peak heap of a 1,000,000-turn session, counted by a global allocator. Prints JSON for
//! `benches/report.mjs`. The script itself is input and is counted separately; the window is
//! bounded by the budget, so what grows with history is the log (one `Step` per turn) alone.
//!
//! Then (`store`) the live heap of a `LiveStore` at capacity 1,000 over 1,000,000 writes with a
//! retention of 1,000 retired facts, which stays flat, and without one, which grows with every
//! write, for contrast over 100,000.
//!
//! Then (`live`) the live heap of a live session (budget 400, HotWarmCold) over 100,000 pushes
//! with a retention of 64 folded turns, which stays flat, and without one, which grows with the
//! transcript; and the size of each one's JSON save at the end.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use agent_memory_widgets::Tokens;
use agent_memory_widgets::{FactId, LiveStore, StoreConfig, Time};
use agent_memory_widgets::{HotWarmCold, Script, Session, SessionConfig, Step, Turn, TurnSpec};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Relaxed) + layout.size();
        PEAK.fetch_max(live, Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn main() {
    // `cargo bench` passes flags such as --bench; this binary takes none.
    let turns: u32 = 1_000_000;
    let specs: Vec<TurnSpec> = (0..turns)
        .map(|i| TurnSpec {
            speaker: Some("Dana".into()),
            kind: Some(if i % 5 == 4 { "chatter" } else { "decision" }.into()),
            text: Some(format!("turn {i} ORD-{} with a few more words", i % 977)),
            summary: Some(format!("summary {} of Dana", i % 101)),
            tokens: None,
            ..TurnSpec::default()
        })
        .collect();
    let script = Script::new(specs).expect("valid script");
    let baseline = LIVE.load(Relaxed);
    PEAK.store(baseline, Relaxed);
    let mut session = Session::new(
        SessionConfig::new(Tokens(4000), 2).expect("valid config"),
        script,
    );
    let mut window_peak = 0;
    let mut live_at = Vec::new();
    while let Some(step) = session.add_turn() {
        window_peak = window_peak.max(session.window().tokens().0);
        if [1_000, 100_000, 1_000_000].contains(&step.turn.0) {
            live_at.push(format!(
                "\"{}\": {}",
                step.turn,
                LIVE.load(Relaxed) - baseline
            ));
        }
    }
    let peak = PEAK.load(Relaxed) - baseline;
    drop(session);
    let store = format!(
        "{{\"capacity\": 1000, \"withRetention1000\": {}, \"withoutRetention\": {}}}",
        store_heap(Some(1_000), 1_000_000),
        store_heap(None, 100_000)
    );
    let live = format!(
        "{{\"withRetention64\": {}, \"withoutRetention\": {}}}",
        live_heap(Some(64), 100_000),
        live_heap(None, 100_000)
    );
    println!(
        "{{\"turns\": {turns}, \"peakBytes\": {peak}, \"liveBytesAfterTurn\": {{{}}}, \"stepBytes\": {}, \"windowPeakTokens\": {window_peak}, \"store\": {store}, \"live\": {live}}}",
        live_at.join(", "),
        std::mem::size_of::<Step>()
    );
}

/// Writes `writes` facts into a store at capacity 1,000 (one a time unit, every tenth
/// superseding the one before, every seventh followed by a read of the best fact), and gives
/// the store's live heap and facts held after 1e4, 1e5 and 1e6 writes, as JSON.
fn store_heap(retention: Option<u32>, writes: u32) -> String {
    let baseline = LIVE.load(Relaxed);
    let mut config = StoreConfig::new(500.0, 1_000, 0.5).expect("valid config");
    if let Some(keep) = retention {
        config = config.with_retention(keep);
    }
    let mut store = LiveStore::new(config);
    let mut after = Vec::new();
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    for i in 1..=writes {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let importance = (seed >> 11) as f64 / (1u64 << 53) as f64 * 0.99 + 0.01;
        store
            .advance_to(Time::new(f64::from(i)).expect("valid time"))
            .expect("time moves forward");
        let supersedes = (i % 10 == 0).then(|| FactId(i - 1));
        store
            .write(
                FactId(i),
                &format!("fact {i} of the stream"),
                importance,
                supersedes,
            )
            .expect("valid write");
        if i % 7 == 0 {
            let best = store.top_k(1)[0];
            store.read(best).expect("an active fact");
        }
        if [10_000, 100_000, 1_000_000].contains(&i) {
            after.push(format!(
                "\"{i}\": {{\"liveBytes\": {}, \"facts\": {}}}",
                LIVE.load(Relaxed) - baseline,
                store.facts().count()
            ));
        }
    }
    drop(store);
    format!("{{{}}}", after.join(", "))
}

/// Pushes `pushes` turns into a live session (budget 400, HOT 2, HotWarmCold) with or without a
/// retention, and gives its live heap after 1e3, 1e4 and 1e5 pushes and the length of its JSON
/// save at the end, as JSON.
fn live_heap(retention: Option<u32>, pushes: u32) -> String {
    let baseline = LIVE.load(Relaxed);
    let mut config = SessionConfig::new(Tokens(400), 2).expect("valid config");
    if let Some(keep) = retention {
        config = config.with_retention(keep);
    }
    let mut session = Session::live(config, Box::new(HotWarmCold::default()));
    let mut after = Vec::new();
    for i in 1..=pushes {
        let text = format!(
            "turn {i}: ORD-{} was refunded $1{}.00 to the card",
            i % 977,
            i % 89
        );
        let turn = if i % 2 == 0 {
            Turn::assistant(&text)
        } else {
            Turn::user(&text)
        };
        session.push(turn.expect("a valid turn")).expect("a push");
        if [1_000, 10_000, 100_000].contains(&i) {
            after.push(format!("\"{i}\": {}", LIVE.load(Relaxed) - baseline));
        }
    }
    let saved = serde_json::to_vec(&session).expect("a save").len();
    drop(session);
    format!(
        "{{\"liveBytes\": {{{}}}, \"saveBytes\": {saved}}}",
        after.join(", ")
    )
}
