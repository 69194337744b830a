//! An async agent loop: the model writes the summaries, and the program awaits it rather than
//! block a thread on it. `Session::begin_push` says which turns a push folds, the program awaits
//! their summaries, and `Session::finish_push` applies the push, as `Session::push` would.
//!
//! Run with `cargo run --example async_push`. Any executor will do; this one uses `pollster`,
//! the smallest.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use agent_memory_widgets::{Error, HotWarmCold, Session, SessionConfig, Turn};

/// A stand-in for a chat model's API: each call waits for its answer (here, one turn of the
/// executor), then gives one summary a turn, its first sentence.
struct Model {
    calls: u32,
}

impl Model {
    async fn summarize(&mut self, turns: &[Turn]) -> Result<Vec<String>, Error> {
        self.calls += 1;
        Answer { ready: false }.await;
        Ok(turns
            .iter()
            .map(|turn| {
                let text = turn.text();
                let end = text.find(". ").map_or(text.len(), |at| at + 1);
                text[..end].to_owned()
            })
            .collect())
    }
}

/// A reply that arrives on the second poll, as a network answer arrives later.
struct Answer {
    ready: bool,
}

impl Future for Answer {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<()> {
        if self.ready {
            return Poll::Ready(());
        }
        self.ready = true;
        context.waker().wake_by_ref();
        Poll::Pending
    }
}

async fn run() -> Result<(), Box<dyn std::error::Error>> {
    let config = SessionConfig::builder().budget(60).hot_n(2).build()?;
    let mut session = Session::live(config, Box::new(HotWarmCold::default()));
    let mut model = Model { calls: 0 };
    let conversation = [
        Turn::user("Where is my refund for order ORD-3300? I returned it two weeks ago.")?,
        Turn::tool_call("call_1", "lookup_order(ORD-3300)")?,
        Turn::tool(
            "call_1",
            "ORD-3300: $200.00, returned on day 41. Outside the 30-day window.",
        )?,
        Turn::assistant(
            "Your return came after the 30-day window. A 10% fee applies, so the refund is $180.00.",
        )?,
        Turn::user("Fine. Also, my Globex earbuds stopped charging. Are they covered?")?,
        Turn::assistant("Yes: the Globex warranty runs 12 months. I have opened a replacement.")?,
    ];
    for turn in conversation {
        let pending = session.begin_push(turn)?;
        // Most pushes fold nothing and need no model call.
        let summaries = match pending.turns().is_empty() {
            true => Vec::new(),
            false => model.summarize(pending.turns()).await?,
        };
        let step = session.finish_push(pending, summaries)?;
        println!(
            "turn {}: {} tokens{}",
            step.turn,
            step.tokens_after,
            match step.compacted {
                true => format!(
                    ", compacted: turns {} left the window, and with them {:?}",
                    step.lost()
                        .turns
                        .iter()
                        .map(|turn| turn.to_string())
                        .collect::<Vec<_>>()
                        .join(", "),
                    step.lost().terms
                ),
                false => String::new(),
            }
        );
    }
    println!("{} model calls for summaries", model.calls);
    for message in session.messages() {
        println!("{:?}: {}", message.role, message.content);
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    pollster::block_on(run())
}
