//! The stream the forgetting policies are compared on: the refund desk's tickets as writes and
//! reads, deterministic.

use crate::prelude::*;
use serde::Serialize;

use crate::time::Time;
use crate::units::FactId;

/// One step of a [`Stream`]: a fact written, or a fact needed.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", tag = "op")]
pub enum StreamOp {
    /// A new fact, which may supersede an older one.
    Write {
        /// Its id, new to the stream.
        fact: FactId,
        /// What it says.
        text: String,
        /// Its importance, in (0, 1].
        importance: f64,
        /// The fact it makes stale, if any.
        supersedes: Option<FactId>,
    },
    /// The agent needs a fact: a hit if the store still holds it.
    Read {
        /// The fact needed.
        fact: FactId,
    },
}

/// A [`StreamOp`] at its time.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StreamEvent {
    /// When it happens; a stream's times never go back.
    pub at: Time,
    /// What happens.
    #[serde(flatten)]
    pub op: StreamOp,
}

/// A deterministic stream of writes and reads, built from the refund desk by the rule of
/// [`Stream::tickets`].
///
/// ```
/// use agent_memory_widgets::Stream;
///
/// assert_eq!(Stream::refund_desk().events().len(), 9);
/// assert_eq!(Stream::long().events().len(), 340);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Stream {
    events: Vec<StreamEvent>,
}

/// The refund desk's store-wide fact, written first and needed at every approval.
const POLICY_FACT: &str = "returns after 30 days carry a 10% restocking fee";

/// Each ticket's customer; ticket `k` serves `NAMES[k % 40]`.
const NAMES: [&str; 40] = [
    "Dana", "Ravi", "Mei", "Tomas", "Aisha", "Lars", "Noor", "Kofi", "Ines", "Yuki", "Omar",
    "Greta", "Pablo", "Zara", "Emeka", "Sofia", "Hiro", "Leila", "Marek", "Ana", "Bilal", "Chloe",
    "Dmitri", "Esme", "Farid", "Gita", "Hugo", "Ilse", "Jonas", "Kira", "Luca", "Maya", "Nils",
    "Olga", "Priya", "Quinn", "Rosa", "Sami", "Tara", "Uma",
];

/// What each ticket's question is about; ticket `k` asks about `PRODUCTS[(k / 2) % 5]`.
const PRODUCTS: [&str; 5] = [
    "Globex earbuds",
    "Initech kettle",
    "Acme lamp",
    "Umbrella fan",
    "Hooli watch",
];

impl Stream {
    /// The refund desk alone: the store-wide fee rule and ticket 0, Dana's (9 events, t = 0 to
    /// 5). Its facts and importances are the forgetting scenario's, its two write events at fixed
    /// times (the approval at t = 3, the question at t = 5), and Dana is read at t = 2 and 5 as
    /// there; the fee rule is also read when the refund is approved, and each text names its
    /// order, so that forty tickets never repeat a text.
    pub fn refund_desk() -> Stream {
        Stream::tickets(1)
    }

    /// Forty tickets by the rule of [`Stream::tickets`]: 340 events (181 writes, 159 reads),
    /// t = 0 to 239.
    pub fn long() -> Stream {
        Stream::tickets(40)
    }

    /// The refund desk repeated for `count` customers (at most 40), one ticket every 6 time
    /// units. At t = 0 the fee rule (importance 0.75) is written. Ticket `k` starts at
    /// `b = 6k` and writes and reads, with `n = 3300 + k`:
    ///
    /// | time | op | fact | importance |
    /// |---|---|---|---|
    /// | b | write | the user is NAME | 0.4 |
    /// | b | write | order ORD-n was $A | 0.55 |
    /// | b + 1 | write | the refund for ORD-n is pending | 0.65 |
    /// | b + 2 | read | the user | |
    /// | b + 3 | read | the fee rule | |
    /// | b + 3 | write | refund approved for ORD-n: $0.9·A, superseding the pending one | 0.9 |
    /// | b + 4 | read | an earlier ticket's approved refund (from ticket 1 on) | |
    /// | b + 5 | read | the user | |
    /// | b + 5 | write | NAME asks about the PRODUCT warranty (even tickets) | 0.7 |
    ///
    /// `A` is $200.00 for ticket 0 and otherwise `20 + x % 381` dollars; the earlier ticket is
    /// `x % k`; `x` comes from the linear congruential generator `x ← 1664525·x + 1013904223
    /// (mod 2^32)` seeded with 2026, drawn once per ticket for `A` and once for the earlier
    /// ticket. The same stream on every machine, with no randomness at run time.
    pub fn tickets(count: u32) -> Stream {
        let count = count.min(NAMES.len() as u32);
        let mut events = Vec::new();
        let mut next_id = 1;
        let mut write =
            |events: &mut Vec<StreamEvent>, at: u32, text: String, importance, supersedes| {
                let fact = FactId(next_id);
                next_id += 1;
                events.push(StreamEvent {
                    at: Time(f64::from(at)),
                    op: StreamOp::Write {
                        fact,
                        text,
                        importance,
                        supersedes,
                    },
                });
                fact
            };
        let read = |events: &mut Vec<StreamEvent>, at: u32, fact| {
            events.push(StreamEvent {
                at: Time(f64::from(at)),
                op: StreamOp::Read { fact },
            });
        };
        let mut seed: u32 = 2026;
        let mut draw = || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            seed
        };
        let rule = write(&mut events, 0, POLICY_FACT.into(), 0.75, None);
        let mut approved = Vec::new();
        for k in 0..count {
            // In bounds: `count` was capped at NAMES.len() above.
            #[allow(clippy::indexing_slicing)]
            let (b, order, name) = (6 * k, 3300 + k, NAMES[k as usize]);
            let cents = if k == 0 {
                20_000
            } else {
                (20 + draw() % 381) * 100
            };
            let user = write(&mut events, b, text!("the user is ", name), 0.4, None);
            write(
                &mut events,
                b,
                text!("order ORD-", order, " was ", dollars(cents)),
                0.55,
                None,
            );
            let pending = write(
                &mut events,
                b + 1,
                text!("the refund for ORD-", order, " is pending"),
                0.65,
                None,
            );
            read(&mut events, b + 2, user);
            read(&mut events, b + 3, rule);
            let refund = text!(
                "refund approved for ORD-",
                order,
                ": ",
                dollars(cents / 10 * 9)
            );
            approved.push(write(&mut events, b + 3, refund, 0.9, Some(pending)));
            if k > 0 {
                // `get`, not an index (the draw is below k): see `weakest`.
                if let Some(&earlier) = approved.get((draw() % k) as usize) {
                    read(&mut events, b + 4, earlier);
                }
            }
            read(&mut events, b + 5, user);
            if k % 2 == 0 {
                // In bounds: the index is taken modulo the length.
                #[allow(clippy::indexing_slicing)]
                let product = PRODUCTS[(k as usize / 2) % PRODUCTS.len()];
                write(
                    &mut events,
                    b + 5,
                    text!(name, " asks about the ", product, " warranty"),
                    0.7,
                    None,
                );
            }
        }
        Stream { events }
    }

    /// The events, in time order.
    pub fn events(&self) -> &[StreamEvent] {
        &self.events
    }
}

/// `cents` as `$12.34`.
fn dollars(cents: u32) -> String {
    let pad = if cents % 100 < 10 { "0" } else { "" };
    text!("$", cents / 100, ".", pad, cents % 100)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dollars_have_two_decimals() {
        assert_eq!(dollars(20_000), "$200.00");
        assert_eq!(dollars(18_005), "$180.05");
        assert_eq!(dollars(7), "$0.07");
    }
}
