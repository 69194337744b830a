//! Forgetting policies side by side: one stream of writes and reads, seven eviction rules at the
//! same capacity, and the question an agent cares about: was the fact still there when it was
//! needed?

use crate::prelude::*;
use serde::Serialize;

use crate::forgetting::{LiveStore, StoreConfig};
use crate::math::exp2;
use crate::names::named;
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

/// A forgetting policy the comparison runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ForgettingPolicyId {
    /// Evicts the oldest write.
    Fifo,
    /// Evicts the least recently touched.
    Lru,
    /// Evicts the fewest reads, the oldest write first among ties.
    Lfu,
    /// Evicts the lowest importance.
    Importance,
    /// Evicts the lowest retrieval score of Park et al. 2023.
    GenerativeAgents,
    /// Evicts the lowest Ebbinghaus retention of Zhong et al. 2023 (MemoryBank).
    MemoryBank,
    /// Ours: the [`LiveStore`], with supersession.
    Ours,
}

named!(ForgettingPolicyId, "forgetting policy", {
    Fifo => "fifo",
    Lru => "lru",
    Lfu => "lfu",
    Importance => "importance",
    GenerativeAgents => "generative-agents",
    MemoryBank => "memorybank",
    Ours => "ours",
});

/// A forgetting policy's name, rule and source, as the page shows them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct ForgettingPolicyInfo {
    /// Which policy.
    pub id: ForgettingPolicyId,
    /// The name shown.
    pub name: &'static str,
    /// What it evicts when a write takes the store over its capacity, and what ours simplifies.
    pub rule: &'static str,
    /// Where the rule comes from.
    pub source: &'static str,
    /// A link to the source; empty for the classic caches and ours.
    pub url: &'static str,
}

/// The seven policies, in the order of [`ForgettingPolicyId`].
pub const FORGETTING_POLICIES: [ForgettingPolicyInfo; 7] = [
    ForgettingPolicyInfo {
        id: ForgettingPolicyId::Fifo,
        name: "FIFO",
        rule: "Evicts the oldest write.",
        source: "the classic cache policy",
        url: "",
    },
    ForgettingPolicyInfo {
        id: ForgettingPolicyId::Lru,
        name: "LRU",
        rule: "Evicts the fact least recently written or read.",
        source: "the classic cache policy",
        url: "",
    },
    ForgettingPolicyInfo {
        id: ForgettingPolicyId::Lfu,
        name: "LFU",
        rule: "Evicts the fact read least often; among ties, the oldest write.",
        source: "the classic cache policy",
        url: "",
    },
    ForgettingPolicyInfo {
        id: ForgettingPolicyId::Importance,
        name: "Importance only",
        rule: "Evicts the least important fact; among ties, the oldest write.",
        source: "importance as written, alone",
        url: "",
    },
    ForgettingPolicyInfo {
        id: ForgettingPolicyId::GenerativeAgents,
        name: "Generative Agents",
        rule: "Evicts the lowest retrieval score: recency (0.995 per time unit since the last \
               read or write) plus importance, each min-max scaled to [0, 1] over the facts held. \
               The paper's third term, relevance to a query, needs embeddings and is left out.",
        source: "Park et al. 2023, Generative Agents, arXiv 2304.03442, section 4.1",
        url: "https://arxiv.org/abs/2304.03442",
    },
    ForgettingPolicyInfo {
        id: ForgettingPolicyId::MemoryBank,
        name: "MemoryBank",
        rule: "Evicts the lowest Ebbinghaus retention e^(-t/S): t is the time since the fact was \
               last recalled or written, and its strength S starts at 1 and grows by 1 with each \
               recall, up to 3 (the code's three memory levels). MemoryBank keeps each memory \
               with probability e^(-t/S); ours evicts the least retained, at capacity.",
        source: "Zhong et al. 2023, MemoryBank, arXiv 2305.10250; zhongwanjun/MemoryBank-SiliconFriend@0cc7111, memory_bank/memory_retrieval/forget_memory.py",
        url: "https://github.com/zhongwanjun/MemoryBank-SiliconFriend/blob/0cc7111a267464964a008255d509c96ffdb636e4/memory_bank/memory_retrieval/forget_memory.py",
    },
    ForgettingPolicyInfo {
        id: ForgettingPolicyId::Ours,
        name: "Ours",
        rule: "Evicts the lowest importance × 0.5^(age / half-life) × (1 + boost × reads), and \
               drops a fact as soon as a newer one supersedes it.",
        source: "this project: the seed design",
        url: "",
    },
];

/// A fact a simple policy holds, with what its rule looks at.
#[derive(Clone, Copy, Debug)]
struct Held {
    fact: FactId,
    importance: f64,
    written: f64,
    touched: f64,
    reads: u32,
}

/// One policy's store over the stream.
enum Store {
    /// The six simple policies hold their facts in a list of at most the capacity.
    Simple(ForgettingPolicyId, Vec<Held>),
    /// Ours is the crate's own store.
    Ours(Box<LiveStore>),
}

impl Store {
    fn new(id: ForgettingPolicyId, config: StoreConfig) -> Store {
        match id {
            ForgettingPolicyId::Ours => Store::Ours(Box::new(LiveStore::new(config))),
            id => Store::Simple(id, Vec::new()),
        }
    }

    /// Applies `event`; for a read, whether the fact was there.
    fn apply(&mut self, event: &StreamEvent, capacity: usize) -> Option<bool> {
        let now = event.at.get();
        match (self, &event.op) {
            (Store::Ours(store), op) => {
                // The stream's times never go back, and its writes are valid facts: neither call
                // can fail on a `Stream` (checked in debug builds, so every test run checks it).
                let advanced = store.advance_to(event.at);
                debug_assert!(advanced.is_ok(), "{advanced:?}");
                match op {
                    StreamOp::Write {
                        fact,
                        text,
                        importance,
                        supersedes,
                    } => {
                        let written = store.replay_write(*fact, text, *importance, *supersedes);
                        debug_assert!(written.is_ok(), "{written:?}");
                        None
                    }
                    StreamOp::Read { fact } => Some(store.read(*fact).is_ok()),
                }
            }
            (
                Store::Simple(id, held),
                StreamOp::Write {
                    fact, importance, ..
                },
            ) => {
                held.push(Held {
                    fact: *fact,
                    importance: *importance,
                    written: now,
                    touched: now,
                    reads: 0,
                });
                if held.len() > capacity {
                    let weakest = weakest(*id, held, now);
                    held.remove(weakest);
                }
                None
            }
            (Store::Simple(_, held), StreamOp::Read { fact }) => {
                Some(match held.iter_mut().find(|h| h.fact == *fact) {
                    Some(h) => {
                        h.reads += 1;
                        h.touched = now;
                        true
                    }
                    None => false,
                })
            }
        }
    }

    /// The facts held now, by id.
    fn active(&self) -> Vec<FactId> {
        let mut ids: Vec<FactId> = match self {
            Store::Ours(store) => store.ranked().collect(),
            Store::Simple(_, held) => held.iter().map(|h| h.fact).collect(),
        };
        crate::sort::sort_by(&mut ids, FactId::cmp);
        ids
    }
}

/// The position in `held` of the fact policy `id` evicts at time `now`: the lowest key, then
/// the oldest write, then the lowest id.
fn weakest(id: ForgettingPolicyId, held: &[Held], now: f64) -> usize {
    // Generative Agents scales each term over the facts held.
    // (No indexing: an index's bounds check brings core's panic and its messages into the wasm.
    // ARCHITECTURE.md, "No panic paths of our own".)
    let recency = |h: &Held| exp2((now - h.touched) * LOG2_0995);
    let widen = |(lo, hi): (f64, f64), value: f64| (lo.min(value), hi.max(value));
    let empty = (f64::INFINITY, f64::NEG_INFINITY);
    let (mut recencies, mut importances) = (empty, empty);
    for h in held {
        recencies = widen(recencies, recency(h));
        importances = widen(importances, h.importance);
    }
    let scaled = |value: f64, (lo, hi): (f64, f64)| {
        if hi > lo {
            (value - lo) / (hi - lo)
        } else {
            0.0
        }
    };
    let key = |h: &Held| match id {
        ForgettingPolicyId::Fifo => h.written,
        ForgettingPolicyId::Lru => h.touched,
        ForgettingPolicyId::Lfu => f64::from(h.reads),
        ForgettingPolicyId::Importance => h.importance,
        ForgettingPolicyId::GenerativeAgents => {
            scaled(recency(h), recencies) + scaled(h.importance, importances)
        }
        // e^(-t/S) = 2^(-t/S · log2 e); S is 1 + the reads, at most 3.
        _ => {
            let strength = 1.0 + f64::from(h.reads.min(2));
            exp2(-(now - h.touched) / strength * core::f64::consts::LOG2_E)
        }
    };
    let mut best = 0;
    for (i, h) in held.iter().enumerate() {
        let Some(b) = held.get(best) else {
            break;
        };
        let order = key(h)
            .total_cmp(&key(b))
            .then(h.written.total_cmp(&b.written))
            .then(h.fact.cmp(&b.fact));
        if order.is_lt() {
            best = i;
        }
    }
    best
}

/// log2(0.995): Generative Agents' recency decays by 0.995 per time unit.
const LOG2_0995: f64 = -0.007_231_569_231_075_864;

/// One policy over the whole stream, event by event.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PolicyRun {
    /// Which policy.
    pub info: ForgettingPolicyInfo,
    /// After each event of the stream: the facts held, by id.
    pub active: Vec<Vec<FactId>>,
    /// After each event: the reads so far that found their fact.
    pub hits: Vec<u32>,
    /// After each event: the facts held that a newer write has superseded.
    pub stale: Vec<u32>,
}

impl PolicyRun {
    /// The share of the reads up to event `i` (inclusive) that found their fact; `None` before
    /// the first read.
    pub fn hit_rate(&self, reads: &[u32], i: usize) -> Option<f64> {
        let (reads, hits) = (*reads.get(i)?, *self.hits.get(i)?);
        (reads > 0).then(|| f64::from(hits) / f64::from(reads))
    }
}

/// Every policy of [`FORGETTING_POLICIES`] over one stream, at one capacity.
///
/// ```
/// use agent_memory_widgets::{Comparison, Stream, StoreConfig};
///
/// # fn main() -> Result<(), agent_memory_widgets::Error> {
/// let comparison = Comparison::new(&Stream::long(), StoreConfig::default());
/// let last = comparison.reads.len() - 1;
/// let ours = comparison.runs.last().unwrap();
/// let fifo = &comparison.runs[0];
/// assert_eq!((fifo.hits[last], ours.hits[last], comparison.reads[last]), (81, 46, 159));
/// assert_eq!(ours.stale[last], 0); // ours drops what is superseded
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Comparison {
    /// After each event: the reads so far, the same for every policy.
    pub reads: Vec<u32>,
    /// One run per policy, in the order of [`FORGETTING_POLICIES`].
    pub runs: Vec<PolicyRun>,
}

impl Comparison {
    /// Runs `stream` through every policy at `config`'s capacity; ours also uses its half-life
    /// and access boost.
    pub fn new(stream: &Stream, config: StoreConfig) -> Comparison {
        let capacity = usize::try_from(config.capacity()).unwrap_or(usize::MAX);
        let events = stream.events();
        let mut superseded = Vec::new();
        let mut reads = Vec::with_capacity(events.len());
        let mut count = 0;
        for event in events {
            if matches!(event.op, StreamOp::Read { .. }) {
                count += 1;
            }
            reads.push(count);
        }
        let mut runs = Vec::new();
        for info in FORGETTING_POLICIES {
            let mut store = Store::new(info.id, config);
            let mut run = PolicyRun {
                info,
                active: Vec::new(),
                hits: Vec::new(),
                stale: Vec::new(),
            };
            let mut hits = 0;
            superseded.clear();
            for event in events {
                if let StreamOp::Write {
                    supersedes: Some(old),
                    ..
                } = event.op
                {
                    superseded.push(old);
                }
                if store.apply(event, capacity) == Some(true) {
                    hits += 1;
                }
                let active = store.active();
                let stale = active.iter().filter(|id| superseded.contains(id)).count();
                run.stale.push(stale as u32);
                run.hits.push(hits);
                run.active.push(active);
            }
            runs.push(run);
        }
        Comparison { reads, runs }
    }
}

/// Which [`Stream`] a [`ForgettingPlayground`] replays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StreamId {
    /// [`Stream::refund_desk`].
    RefundDesk,
    /// [`Stream::long`]: forty tickets.
    Tickets,
}

named!(StreamId, "stream", {
    RefundDesk => "refund-desk",
    Tickets => "tickets",
});

/// A fact as the playground's matrix names it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct FactLabel {
    /// Its id.
    pub id: FactId,
    /// What it says.
    pub text: String,
    /// The newer fact that made it stale, if one has been written by now.
    #[serde(rename = "supersededBy")]
    pub superseded_by: Option<FactId>,
}

/// The hit rate after one read of the stream.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct HitPoint {
    /// When the read came.
    pub at: Time,
    /// The share of the reads so far that found their fact.
    pub rate: f64,
}

/// One policy at the playground's time.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct PolicyNow {
    /// Which policy.
    pub info: ForgettingPolicyInfo,
    /// The facts it holds, by id.
    pub held: Vec<FactId>,
    /// Reads so far that found their fact.
    pub hits: u32,
    /// Facts held that a newer write has superseded.
    pub stale: u32,
    /// The hit rate after every read of the whole stream, for the sparkline.
    pub series: Vec<HitPoint>,
}

/// A snapshot of a [`ForgettingPlayground`].
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ForgettingPlaygroundState {
    /// The slider's time.
    pub t: Time,
    /// The time of the stream's last event.
    pub until: Time,
    /// Which stream.
    pub stream: StreamId,
    /// Events in the stream.
    pub events: u32,
    /// Events up to `t`.
    pub events_done: u32,
    /// Reads up to `t`, the same for every policy.
    pub reads: u32,
    /// Reads in the whole stream.
    pub total_reads: u32,
    /// The capacity every policy has.
    pub capacity: u32,
    /// Our half-life (the other policies have none).
    pub half_life: f64,
    /// Every fact some policy holds at `t`, by id.
    pub facts: Vec<FactLabel>,
    /// One row per policy, in the order of [`FORGETTING_POLICIES`].
    pub policies: Vec<PolicyNow>,
    /// The rows (indexes into `policies`) whose reads found the most facts so far, all of them
    /// when tied; none before the first read.
    pub leaders: Vec<u32>,
    /// The rows (indexes into `policies`) that hold no stale fact at `t`.
    pub fresh: Vec<u32>,
}

/// The seven forgetting policies over one stream, with a time slider.
///
/// ```
/// use agent_memory_widgets::{ForgettingPlayground, StreamId, StoreConfig, Time};
///
/// # fn main() -> Result<(), agent_memory_widgets::Error> {
/// let mut playground = ForgettingPlayground::new(StreamId::RefundDesk, StoreConfig::default());
/// playground.set_time(Time::new(5.0)?);
/// let state = playground.state();
/// assert_eq!((state.reads, state.total_reads), (3, 3));
/// let importance = &state.policies[3];
/// assert_eq!(importance.hits, 2); // it evicted Dana, the least important, before her second read
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct ForgettingPlayground {
    which: StreamId,
    stream: Stream,
    config: StoreConfig,
    comparison: Comparison,
    // Each run's hit rate at every read of the stream, computed once: it is the same at any time.
    series: Vec<Vec<HitPoint>>,
    time: Time,
}

impl ForgettingPlayground {
    /// Runs stream `which` through every policy at `config`, standing at t = 0.
    pub fn new(which: StreamId, config: StoreConfig) -> ForgettingPlayground {
        let stream = match which {
            StreamId::RefundDesk => Stream::refund_desk(),
            StreamId::Tickets => Stream::long(),
        };
        let comparison = Comparison::new(&stream, config);
        let events = stream.events();
        let series = comparison
            .runs
            .iter()
            .map(|run| {
                let mut series = Vec::new();
                for (i, event) in events.iter().enumerate() {
                    if matches!(event.op, StreamOp::Read { .. }) {
                        let rate = run.hit_rate(&comparison.reads, i).unwrap_or(0.0);
                        series.push(HitPoint { at: event.at, rate });
                    }
                }
                series
            })
            .collect();
        ForgettingPlayground {
            which,
            stream,
            config,
            comparison,
            series,
            time: Time::ZERO,
        }
    }

    /// A playground from options as JS gives them: `half_life` and `capacity` as for a
    /// [`FactStore`](crate::FactStore) (default 4 and 4), and the stream's name (default
    /// `tickets`).
    ///
    /// # Errors
    ///
    /// An [`ErrorKind::InvalidOption`](crate::ErrorKind) naming the first bad value.
    pub fn from_options(
        half_life: Option<f64>,
        capacity: Option<f64>,
        stream: Option<&str>,
    ) -> Result<ForgettingPlayground, crate::Error> {
        let seed = StoreConfig::default();
        let capacity = crate::error::whole_number(
            "capacity",
            capacity.unwrap_or(f64::from(seed.capacity())),
            1,
            u32::MAX,
        )?;
        let config = StoreConfig::new(
            half_life.unwrap_or(seed.half_life()),
            capacity,
            seed.access_boost(),
        )?;
        let which = match stream {
            Some(name) => name.parse()?,
            None => StreamId::Tickets,
        };
        Ok(ForgettingPlayground::new(which, config))
    }

    /// The slider's time.
    pub fn time(&self) -> Time {
        self.time
    }

    /// Moves the slider to `t`.
    pub fn set_time(&mut self, t: Time) {
        self.time = t;
    }

    /// Every policy at the slider's time.
    pub fn state(&self) -> ForgettingPlaygroundState {
        let events = self.stream.events();
        let done = events
            .iter()
            .take_while(|event| event.at <= self.time)
            .count();
        let at = done.checked_sub(1);
        let count = |values: &[u32]| at.and_then(|i| values.get(i)).copied().unwrap_or(0);
        let mut superseded: Vec<(FactId, FactId)> = Vec::new();
        let mut texts: Vec<(FactId, &str)> = Vec::new();
        for event in events.iter().take(done) {
            if let StreamOp::Write {
                fact,
                text,
                supersedes,
                ..
            } = &event.op
            {
                texts.push((*fact, text));
                if let Some(old) = supersedes {
                    superseded.push((*old, *fact));
                }
            }
        }
        let mut held_ids: Vec<FactId> = Vec::new();
        let policies: Vec<PolicyNow> = self
            .comparison
            .runs
            .iter()
            .zip(&self.series)
            .map(|(run, series)| {
                let held = at
                    .and_then(|i| run.active.get(i))
                    .cloned()
                    .unwrap_or_default();
                for &id in &held {
                    if !held_ids.contains(&id) {
                        held_ids.push(id);
                    }
                }
                PolicyNow {
                    info: run.info,
                    held,
                    hits: count(&run.hits),
                    stale: count(&run.stale),
                    series: series.clone(),
                }
            })
            .collect();
        crate::sort::sort_by(&mut held_ids, FactId::cmp);
        let facts = held_ids
            .into_iter()
            .map(|id| FactLabel {
                id,
                text: texts
                    .iter()
                    .find(|(fact, _)| *fact == id)
                    .map_or_else(String::new, |(_, text)| (*text).to_owned()),
                superseded_by: superseded
                    .iter()
                    .find(|(old, _)| *old == id)
                    .map(|(_, new)| *new),
            })
            .collect();
        let reads = count(&self.comparison.reads);
        let best = policies.iter().map(|row| row.hits).max().unwrap_or(0);
        let (mut leaders, mut fresh) = (Vec::new(), Vec::new());
        for (i, row) in (0u32..).zip(&policies) {
            if reads > 0 && row.hits == best {
                leaders.push(i);
            }
            if row.stale == 0 {
                fresh.push(i);
            }
        }
        ForgettingPlaygroundState {
            t: self.time,
            until: events.last().map_or(Time::ZERO, |event| event.at),
            stream: self.which,
            events: events.len() as u32,
            events_done: done as u32,
            reads,
            total_reads: self.comparison.reads.last().copied().unwrap_or(0),
            capacity: self.config.capacity(),
            half_life: self.config.half_life(),
            facts,
            policies,
            leaders,
            fresh,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_state_names_the_leaders_and_the_fresh_rows() {
        let check = |stream, t: Option<f64>, leaders: &[u32], fresh: &[u32]| {
            let mut playground = ForgettingPlayground::new(stream, StoreConfig::default());
            let until = playground.state().until;
            playground.set_time(t.map_or(until, |t| Time::new(t).unwrap()));
            let state = playground.state();
            assert_eq!(
                (&state.leaders[..], &state.fresh[..]),
                (leaders, fresh),
                "{stream:?} at {t:?}"
            );
            // A leader found as many reads as any row, and every other row found fewer.
            let best = state.policies.iter().map(|row| row.hits).max().unwrap();
            for (i, row) in (0u32..).zip(&state.policies) {
                let leads = state.reads > 0 && row.hits == best;
                assert_eq!(state.leaders.contains(&i), leads, "row {i}");
                assert_eq!(state.fresh.contains(&i), row.stale == 0, "row {i}");
            }
        };
        // Before the first read nobody leads, and nothing is stale yet.
        check(StreamId::RefundDesk, Some(0.0), &[], &[0, 1, 2, 3, 4, 5, 6]);
        // Importance only evicted Dana before her second read; FIFO and it hold a stale fact.
        check(
            StreamId::RefundDesk,
            None,
            &[0, 1, 2, 4, 5, 6],
            &[1, 2, 4, 5, 6],
        );
        check(StreamId::Tickets, None, &[0, 1, 5], &[3, 6]);
    }

    #[test]
    fn the_recency_constant_is_log2_of_0_995() {
        assert!((LOG2_0995 - 0.995_f64.log2()).abs() < 1e-18);
    }

    fn held(fact: u32, importance: f64, written: f64, touched: f64, reads: u32) -> Held {
        Held {
            fact: FactId(fact),
            importance,
            written,
            touched,
            reads,
        }
    }

    /// Three facts at t = 10, each policy's choice worked out by hand.
    #[test]
    fn each_policy_evicts_by_its_own_rule() {
        let facts = [
            held(1, 0.9, 0.0, 0.0, 0), // old, important, never read
            held(2, 0.1, 1.0, 9.0, 3), // trivial, read often and lately
            held(3, 0.2, 2.0, 1.0, 1), // minor, read once long ago
        ];
        let pick = |id| facts[weakest(id, &facts, 10.0)].fact.0;
        assert_eq!(pick(ForgettingPolicyId::Fifo), 1);
        assert_eq!(pick(ForgettingPolicyId::Lru), 1);
        assert_eq!(pick(ForgettingPolicyId::Lfu), 1);
        assert_eq!(pick(ForgettingPolicyId::Importance), 2);
        // Recency 0.995^(10 - touched): 0.951, 0.995, 0.956, scaled 0, 1, 0.11; importance
        // scaled 1, 0, 0.125: fact 3 sums lowest.
        assert_eq!(pick(ForgettingPolicyId::GenerativeAgents), 3);
        // Retention e^(-t/S): e^-10, e^(-1/3), e^(-9/2): fact 1.
        assert_eq!(pick(ForgettingPolicyId::MemoryBank), 1);
    }

    #[test]
    fn lru_and_memorybank_part_where_recalls_strengthen_a_memory() {
        // Fact 1 was touched earlier but recalled twice (S = 3): e^(-8/3) = 0.07 against fact
        // 2's e^(-6) = 0.002. LRU evicts fact 1, MemoryBank fact 2.
        let facts = [held(1, 0.5, 0.0, 2.0, 2), held(2, 0.5, 1.0, 4.0, 0)];
        assert_eq!(
            facts[weakest(ForgettingPolicyId::Lru, &facts, 10.0)].fact.0,
            1
        );
        assert_eq!(
            facts[weakest(ForgettingPolicyId::MemoryBank, &facts, 10.0)]
                .fact
                .0,
            2
        );
        // Strength stops at 3: ten recalls count as two.
        let capped = [held(1, 0.5, 0.0, 2.0, 10), held(2, 0.5, 1.0, 4.0, 1)];
        // e^(-8/3) = 0.069 against e^(-6/2) = 0.050: fact 2 goes, as with S = 3 against S = 2.
        assert_eq!(
            capped[weakest(ForgettingPolicyId::MemoryBank, &capped, 10.0)]
                .fact
                .0,
            2
        );
        let uncapped = [held(1, 0.5, 0.0, 0.0, 10), held(2, 0.5, 1.0, 8.0, 0)];
        // S = 3 (not 11) for fact 1: e^(-10/3) = 0.036 against e^-2 = 0.135: fact 1 goes.
        assert_eq!(
            uncapped[weakest(ForgettingPolicyId::MemoryBank, &uncapped, 10.0)]
                .fact
                .0,
            1
        );
    }

    #[test]
    fn generative_agents_scales_a_term_that_does_not_vary_to_nothing() {
        // Equal importance: recency alone decides, the least recent goes (not the older write).
        let facts = [held(1, 0.5, 0.0, 8.0, 0), held(2, 0.5, 1.0, 2.0, 0)];
        assert_eq!(
            facts[weakest(ForgettingPolicyId::GenerativeAgents, &facts, 10.0)]
                .fact
                .0,
            2
        );
        // Ties of every key fall to the older write, then the lower id.
        let same = [held(2, 0.5, 0.0, 0.0, 0), held(1, 0.5, 0.0, 0.0, 0)];
        for id in ForgettingPolicyId::NAMES {
            if *id != ForgettingPolicyId::Ours {
                assert_eq!(same[weakest(*id, &same, 3.0)].fact.0, 1, "{id}");
            }
        }
    }

    #[test]
    fn dollars_have_two_decimals() {
        assert_eq!(dollars(20_000), "$200.00");
        assert_eq!(dollars(18_005), "$180.05");
        assert_eq!(dollars(7), "$0.07");
    }
}
