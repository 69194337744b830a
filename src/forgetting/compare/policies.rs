//! The seven forgetting policies: each one's name, rule and source, and the store each runs on
//! a stream, the six simple ones a list evicted by its key, ours the crate's [`LiveStore`].

use crate::prelude::*;
use serde::Serialize;

use crate::forgetting::compare::{StreamEvent, StreamOp};
use crate::forgetting::{LiveStore, StoreConfig};
use crate::math::exp2;
use crate::names::named;
use crate::units::FactId;

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
pub(super) struct Held {
    fact: FactId,
    importance: f64,
    written: f64,
    touched: f64,
    reads: u32,
}

/// One policy's store over the stream.
pub(super) enum Store {
    /// The six simple policies hold their facts in a list of at most the capacity.
    Simple(ForgettingPolicyId, Vec<Held>),
    /// Ours is the crate's own store.
    Ours(Box<LiveStore>),
}

impl Store {
    pub(super) fn new(id: ForgettingPolicyId, config: StoreConfig) -> Store {
        match id {
            ForgettingPolicyId::Ours => Store::Ours(Box::new(LiveStore::new(config))),
            id => Store::Simple(id, Vec::new()),
        }
    }

    /// Applies `event`; for a read, whether the fact was there.
    pub(super) fn apply(&mut self, event: &StreamEvent, capacity: usize) -> Option<bool> {
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
    pub(super) fn active(&self) -> Vec<FactId> {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
