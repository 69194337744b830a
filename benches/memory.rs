//! Peak heap of a 1,000,000-turn session, counted by a global allocator. Prints JSON for
//! `benches/report.mjs`. The script itself is input and is counted separately; the window is
//! bounded by the budget, so what grows with history is the log (one `Step` per turn) alone.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use agent_memory_widgets::Tokens;
use agent_memory_widgets::{Script, Session, SessionConfig, Step, TurnSpec};

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
    println!(
        "{{\"turns\": {turns}, \"peakBytes\": {peak}, \"liveBytesAfterTurn\": {{{}}}, \"stepBytes\": {}, \"windowPeakTokens\": {window_peak}}}",
        live_at.join(", "),
        std::mem::size_of::<Step>()
    );
}
