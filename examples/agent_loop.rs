//! An agent loop as a framework would write it, in three "runs" of one support conversation:
//!
//! - the model's own token counts (as an API's `usage` gives them) for every turn, and
//!   [`Estimate`] for the summary lines the policy writes;
//! - settings by name: a compaction at 90% of the budget brings the window down to 50%, so the
//!   next one (a model call) comes that much later;
//! - tool calls and their results, which stay together or fold together, and the window sent to
//!   the model as chat messages (`Session::messages`);
//! - a bounded session: it keeps the text of the 8 turns folded last (`retention`), so its memory
//!   and its save follow the window, not the whole conversation;
//! - the two-phase push: `begin_push` says which turns fold, the model summarises them (and fails
//!   now and then: only the model call is retried, as the session has not changed), and
//!   `finish_push` applies the push;
//! - what each compaction took from the window (`Step::lost`), whose key terms the agent keeps in
//!   a fact store that answers `top_k` for each prompt;
//! - the session and the store saved between runs, the session in postcard (a binary format) and
//!   the store in JSON, and loaded with the policy, summarizer and counter attached again.
//!
//! Run it with `cargo run --example agent_loop`. Everything is deterministic: the "model" is a
//! function of its input and a call counter, so the output is the same on every run.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use agent_memory_widgets::{
    Error, ErrorKind, Estimate, FactId, FactKind, HotWarmCold, LiveStore, SavedSession, SavedStore,
    Session, SessionConfig, StoreConfig, Summarizer, Time, Tokens, Turn,
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

/// Who sends a message: the user, the agent, or a tool call (the agent's) and its result, which
/// share a call id.
#[derive(Clone, Copy)]
enum From {
    User,
    Agent,
    Call(&'static str),
    Result(&'static str),
}

/// One message of the conversation, with the token count the model's API reported for it.
struct Message {
    from: From,
    text: &'static str,
    usage_tokens: u32,
}

const fn message(from: From, text: &'static str, usage_tokens: u32) -> Message {
    Message {
        from,
        text,
        usage_tokens,
    }
}

impl Message {
    fn turn(&self) -> Result<Turn, Error> {
        let turn = match self.from {
            From::User => Turn::user(self.text)?,
            From::Agent => Turn::assistant(self.text)?,
            From::Call(id) => Turn::tool_call(id, self.text)?,
            From::Result(id) => Turn::tool(id, self.text)?,
        };
        Ok(turn.with_tokens(Tokens(self.usage_tokens)))
    }
}

/// Three runs of four messages each: the agent restarts between runs.
const RUNS: [[Message; 4]; 3] = [
    [
        message(
            From::User,
            "Hi, my order ORD-3300 arrived broken, can I get my $180.00 back?",
            21,
        ),
        message(From::Call("call_1"), "lookup_order(ORD-3300)", 9),
        message(
            From::Result("call_1"),
            "ORD-3300: delivered day 2, total $180.00, card ending 4417.",
            22,
        ),
        message(
            From::Agent,
            "Refund approved for ORD-3300: $180.00 to the card ending 4417.",
            20,
        ),
    ],
    [
        message(From::User, "Also, ORD-3301 is late, where is it?", 13),
        message(From::Call("call_2"), "track_order(ORD-3301)", 9),
        message(
            From::Result("call_2"),
            "ORD-3301: in transit, expected day 9, carrier ParcelCo.",
            20,
        ),
        message(
            From::Agent,
            "ORD-3301 arrives on day 9; I set a delivery alert for you.",
            18,
        ),
    ],
    [
        message(
            From::User,
            "Thanks. When will the $180.00 show on my card?",
            14,
        ),
        message(From::Call("call_3"), "refund_status(ORD-3300)", 9),
        message(
            From::Result("call_3"),
            "refund RF-7781: sent day 3, card ending 4417, 3 to 5 days.",
            23,
        ),
        message(
            From::Agent,
            "RF-7781 was sent on day 3; expect it within 3 to 5 days.",
            19,
        ),
    ],
];

/// What the agent writes into its store after a decision: (id, kind, text, importance).
fn learned(run: usize, index: usize) -> Option<(u32, FactKind, &'static str, f64)> {
    match (run, index) {
        (0, 3) => Some((
            1,
            FactKind::Episodic,
            "refund approved for ORD-3300: $180.00",
            0.9,
        )),
        (1, 3) => Some((2, FactKind::Episodic, "ORD-3301 arrives on day 9", 0.6)),
        (2, 3) => Some((3, FactKind::Episodic, "refund RF-7781 sent on day 3", 0.9)),
        _ => None,
    }
}

/// Where a run leaves its memory: in a real agent, files or a database.
#[derive(Default)]
struct Disk {
    session: Option<Vec<u8>>,
    store: Option<String>,
}

/// A saved session loaded with the code that is not saved: the policy, the summarizer and the
/// token counter.
fn load(bytes: &[u8], llm: &Arc<FakeLlm>) -> Result<Session, Box<dyn std::error::Error>> {
    let saved: SavedSession = postcard::from_bytes(bytes)?;
    let policy = Box::new(HotWarmCold::default());
    Ok(Session::load_counting(
        saved,
        policy,
        Box::new(llm.clone()),
        Estimate,
    )?)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let llm = Arc::new(FakeLlm::default());
    let mut disk = Disk::default();
    let (mut failures, mut compactions, mut next_fact) = (0, 0, 100);
    for (run, messages) in RUNS.iter().enumerate() {
        // Start (or restart): load what the last run saved, with the code attached again.
        let (mut session, mut store) = match (&disk.session, &disk.store) {
            (Some(session), Some(store)) => {
                let saved: SavedStore = serde_json::from_str(store)?;
                (load(session, &llm)?, LiveStore::try_from(saved)?)
            }
            _ => {
                let config = SessionConfig::builder()
                    .budget(100)
                    .hot_n(2)
                    .compact_at(90)
                    .compact_to(50)
                    .retention(8)
                    .build()?;
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
            // The prompt: the window as chat messages, and the store's three best facts.
            let prompt = session.messages();
            let facts: Vec<&str> = store
                .top_k(3)
                .into_iter()
                .filter_map(|id| store.get(id))
                .map(|fact| fact.text.as_str())
                .collect();
            println!(
                "  prompt: {} messages ({} tokens), facts {:?}",
                prompt.len(),
                session.window().tokens(),
                facts
            );

            // The two-phase push: which turns fold, then their summaries (one model call, which
            // may fail: the session has not changed, so only the call is retried), then the push.
            let pending = session.begin_push(message.turn()?)?;
            let summaries = match pending.turns().is_empty() {
                true => Vec::new(),
                false => loop {
                    let batch: Vec<&Turn> = pending.turns().iter().collect();
                    match llm.summarize_batch(&batch) {
                        Ok(summaries) => break summaries,
                        Err(err) => {
                            failures += 1;
                            let cause = std::error::Error::source(&err)
                                .map(ToString::to_string)
                                .unwrap_or_default();
                            println!("  {} ({cause}); retrying", err.message());
                        }
                    }
                },
            };
            let step = session.finish_push(pending, summaries)?;
            if step.compacted {
                compactions += 1;
                println!(
                    "  turn {}: {} -> {} tokens, turns {:?} left the window, and with them {:?}",
                    step.turn.0,
                    step.peak_tokens.0,
                    step.tokens_after.0,
                    step.lost()
                        .turns
                        .iter()
                        .map(|turn| turn.0)
                        .collect::<Vec<_>>(),
                    step.lost().terms
                );
                // What left the window is not lost to the agent: it keeps the key terms.
                for term in &step.lost().terms {
                    let text = format!("mentioned earlier: {term}");
                    store.write_as(FactKind::Semantic, FactId(next_fact), &text, 0.4, None)?;
                    next_fact += 1;
                }
            }
            // A tool result never reaches the model without its call.
            let messages = session.messages();
            for (at, sent) in messages.iter().enumerate() {
                if let (Some(id), agent_memory_widgets::Role::Tool) =
                    (&sent.tool_call_id, sent.role)
                {
                    assert!(messages[..at]
                        .iter()
                        .any(|call| call.tool_call_id.as_ref() == Some(id)));
                }
            }
            if let Some((id, kind, text, importance)) = learned(run, index) {
                store.write_as(kind, FactId(id), text, importance, None)?;
            }
        }

        // Shut down: save both, the session in postcard and the store in JSON.
        disk.session = Some(postcard::to_allocvec(&session)?);
        disk.store = Some(serde_json::to_string(&store)?);
        // What a restart will see is exactly what was running.
        let reloaded: LiveStore = serde_json::from_str(disk.store.as_deref().unwrap_or_default())?;
        assert_eq!(reloaded, store);
        let reloaded = load(disk.session.as_deref().unwrap_or_default(), &llm)?;
        assert_eq!(reloaded.state(), session.state());
        println!(
            "  saved: the session in {} bytes of postcard",
            disk.session.as_ref().map_or(0, Vec::len)
        );
    }

    // What the model sees now: the COLD gist and WARM summaries the fake model wrote, then HOT.
    let session = load(disk.session.as_deref().unwrap_or_default(), &llm)?;
    for message in session.messages() {
        println!("  {:?}: {}", message.role, message.content);
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
