//! An agent loop as a framework would write it, in three "runs" of one support conversation:
//!
//! - the model's own token counts (as an API's `usage` gives them) for every turn, and
//!   [`Estimate`] for the summary lines the policy writes;
//! - a summarizer shaped like an LLM call: asked once per compaction with the turns that fold,
//!   and failing now and then (the turn is then retried, and nothing half-happened);
//! - a fact store the agent writes what it learns into, which answers `top_k` for each prompt;
//! - the session and the store saved between runs, and loaded with the policy, summarizer and
//!   counter attached again.
//!
//! Run it with `cargo run --example agent_loop`. Everything is deterministic: the "model" is a
//! function of its input and a call counter, so the output is the same on every run.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use agent_memory_widgets::{
    Error, ErrorKind, Estimate, FactId, FactKind, HotWarmCold, Kind, LiveStore, SavedSession,
    SavedStore, Session, SessionConfig, StoreConfig, Summarizer, Time, Tokens, Turn,
};

/// The fake model behind the summarizer: one call per batch, every third call fails the way an
/// HTTP client does, and a summary is the turn's first clause, tagged with the speaker.
#[derive(Default)]
struct FakeLlm {
    calls: AtomicUsize,
}

impl Summarizer for FakeLlm {
    fn summarize(&self, turn: &Turn) -> Result<String, Error> {
        self.summarize_batch(&[turn])
            .map(|mut lines| lines.remove(0))
    }

    fn summarize_batch(&self, turns: &[&Turn]) -> Result<Vec<String>, Error> {
        let call = self.calls.fetch_add(1, Ordering::SeqCst) + 1;
        if call % 3 == 0 {
            let timeout = std::io::Error::new(std::io::ErrorKind::TimedOut, "model call timed out");
            return Err(
                Error::new(ErrorKind::Other, "the summarizer's model call failed")
                    .with_source(timeout),
            );
        }
        let lines = turns.iter().map(|turn| {
            let clause = turn
                .text()
                .split([',', ';', '?', '!'])
                .next()
                .unwrap_or_default();
            format!(
                "{}: {}",
                turn.speaker(),
                clause.trim().trim_end_matches('.')
            )
        });
        Ok(lines.collect())
    }
}

/// One message of the conversation, with the token count the model's API reported for it.
struct Message {
    speaker: &'static str,
    kind: Kind,
    text: &'static str,
    usage_tokens: u32,
}

const fn message(
    speaker: &'static str,
    kind: Kind,
    text: &'static str,
    usage_tokens: u32,
) -> Message {
    Message {
        speaker,
        kind,
        text,
        usage_tokens,
    }
}

/// Three runs of four messages each: the agent restarts between runs.
const RUNS: [[Message; 4]; 3] = [
    [
        message(
            "Dana",
            Kind::Question,
            "Hi, my order ORD-3300 arrived broken, can I get my $180.00 back?",
            21,
        ),
        message(
            "tool",
            Kind::Tool,
            "lookup ORD-3300: delivered day 2, total $180.00, card ending 4417.",
            24,
        ),
        message(
            "agent",
            Kind::Decision,
            "Refund approved for ORD-3300: $180.00 to the card ending 4417.",
            20,
        ),
        message("Dana", Kind::Chatter, "Great, thanks so much!", 7),
    ],
    [
        message(
            "Dana",
            Kind::Question,
            "Also, ORD-3301 is late, where is it?",
            13,
        ),
        message(
            "tool",
            Kind::Tool,
            "track ORD-3301: in transit, expected day 9, carrier ParcelCo.",
            22,
        ),
        message(
            "agent",
            Kind::Decision,
            "ORD-3301 arrives on day 9; I set a delivery alert for you.",
            18,
        ),
        message(
            "Dana",
            Kind::Question,
            "Can you ship future orders to my office instead?",
            12,
        ),
    ],
    [
        message(
            "agent",
            Kind::Decision,
            "Shipping address updated to the office for future orders.",
            14,
        ),
        message(
            "Dana",
            Kind::Question,
            "When will the $180.00 show on my card?",
            12,
        ),
        message(
            "tool",
            Kind::Tool,
            "refund RF-7781: sent day 3, card ending 4417, 3 to 5 days.",
            23,
        ),
        message(
            "agent",
            Kind::Decision,
            "RF-7781 was sent on day 3; expect it within 3 to 5 days.",
            19,
        ),
    ],
];

/// What the agent writes into its store after a decision: (id, kind, text, importance, supersedes).
fn learned(run: usize, index: usize) -> Option<(u32, FactKind, &'static str, f64, Option<u32>)> {
    match (run, index) {
        (0, 2) => Some((
            1,
            FactKind::Episodic,
            "refund approved for ORD-3300: $180.00",
            0.9,
            None,
        )),
        (0, 3) => Some((2, FactKind::Semantic, "Dana is polite and brief", 0.3, None)),
        (1, 2) => Some((
            3,
            FactKind::Episodic,
            "ORD-3301 arrives on day 9",
            0.6,
            None,
        )),
        (1, 3) => Some((4, FactKind::Semantic, "Dana's address: home", 0.5, None)),
        (2, 0) => Some((
            5,
            FactKind::Semantic,
            "Dana's address: office",
            0.8,
            Some(4),
        )),
        (2, 3) => Some((
            6,
            FactKind::Episodic,
            "refund RF-7781 sent on day 3",
            0.9,
            None,
        )),
        _ => None,
    }
}

/// Where a run leaves its memory: in a real agent, files or a database.
#[derive(Default)]
struct Disk {
    session: Option<String>,
    store: Option<String>,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let llm = Arc::new(FakeLlm::default());
    let mut disk = Disk::default();
    let mut failures = 0;
    let mut compactions = 0;
    for (run, messages) in RUNS.iter().enumerate() {
        // Start (or restart): load what the last run saved, with the code attached again.
        let (mut session, mut store) = match (&disk.session, &disk.store) {
            (Some(session), Some(store)) => {
                let saved: SavedSession = serde_json::from_str(session)?;
                let session = Session::load_counting(
                    saved,
                    Box::new(HotWarmCold::default()),
                    Box::new(llm.clone()),
                    Estimate,
                )?;
                let saved: SavedStore = serde_json::from_str(store)?;
                (session, LiveStore::try_from(saved)?)
            }
            _ => {
                let config = SessionConfig::new(Tokens(80), 2)?;
                let session = Session::live(config, Box::new(HotWarmCold::default()))
                    .with_summarizer(Box::new(llm.clone()))
                    .with_token_counter(Estimate);
                // Time in hours; facts half-fade in 24 hours, and semantic ones 4 times slower.
                let store = LiveStore::new(StoreConfig::new(24.0, 5, 0.5)?.with_retention(16));
                (session, store)
            }
        };
        println!(
            "run {}: {} turns loaded, {} facts in the store",
            run + 1,
            session.turn_count(),
            store.active_count()
        );

        for (index, message) in messages.iter().enumerate() {
            let hour = (run * messages.len() + index) as f64;
            store.advance_to(Time::new(hour)?)?;
            // The prompt: the window as the model sees it, and the store's three best facts.
            let facts: Vec<&str> = store
                .top_k(3)
                .into_iter()
                .filter_map(|id| store.get(id))
                .map(|fact| fact.text.as_str())
                .collect();
            println!(
                "  prompt: {} window tokens, facts {:?}",
                session.window().tokens(),
                facts
            );

            let turn = Turn::new(message.speaker, message.kind, message.text)?
                .with_tokens(Tokens(message.usage_tokens));
            // A failed summary leaves the session exactly as it was: retry the same turn.
            let step = loop {
                match session.push(turn.clone()) {
                    Ok(step) => break step,
                    Err(err) => {
                        failures += 1;
                        let cause = std::error::Error::source(&err)
                            .map(ToString::to_string)
                            .unwrap_or_default();
                        println!(
                            "  turn {}: {} ({cause}); retrying",
                            session.turn_count() + 1,
                            err.message()
                        );
                    }
                }
            };
            if step.compacted {
                compactions += 1;
                println!(
                    "  turn {}: {} -> {} tokens, folded {:?} into WARM",
                    step.turn.0,
                    step.peak_tokens.0,
                    step.tokens_after.0,
                    step.to_warm.iter().map(|turn| turn.0).collect::<Vec<_>>()
                );
            }
            if let Some((id, kind, text, importance, supersedes)) = learned(run, index) {
                store.write_as(kind, FactId(id), text, importance, supersedes.map(FactId))?;
            }
        }

        // Shut down: save both.
        disk.session = Some(serde_json::to_string(&session)?);
        disk.store = Some(serde_json::to_string(&store)?);
        // What a restart will see is exactly what was running.
        let reloaded: LiveStore = serde_json::from_str(disk.store.as_deref().unwrap_or_default())?;
        assert_eq!(reloaded, store);
        let saved: SavedSession =
            serde_json::from_str(disk.session.as_deref().unwrap_or_default())?;
        let reloaded = Session::load_counting(
            saved,
            Box::new(HotWarmCold::default()),
            Box::new(llm.clone()),
            Estimate,
        )?;
        assert_eq!(reloaded.state(), session.state());
    }

    // What the model sees now: the COLD gist and WARM summaries the fake model wrote, then HOT.
    let saved: SavedSession = serde_json::from_str(disk.session.as_deref().unwrap_or_default())?;
    let session = Session::load_counting(
        saved,
        Box::new(HotWarmCold::default()),
        Box::new(llm.clone()),
        Estimate,
    )?;
    let window = session.window();
    for line in window.cold().into_iter().chain(window.warm()) {
        println!("  {:>2} tokens: {}", line.tokens().0, line.text());
    }
    let calls = llm.calls.load(Ordering::SeqCst);
    println!("{compactions} compactions, {calls} model calls for summaries ({failures} failed and were retried)");
    // One call per compaction that folded turns, plus the retries: never one per turn.
    assert!(compactions > 0 && failures > 0);
    assert!(
        calls <= compactions + failures,
        "{calls} calls for {compactions} compactions"
    );
    Ok(())
}
