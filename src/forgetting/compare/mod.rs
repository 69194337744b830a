//! Forgetting policies side by side: one stream of writes and reads, seven eviction rules at the
//! same capacity, and the question an agent cares about: was the fact still there when it was
//! needed?
//!
//! - `stream.rs`: the stream, the refund desk's tickets as writes and reads;
//! - `policies.rs`: the seven policies, each rule and its source, and the store each runs;
//! - here: the policies run side by side, and the playground that shows them at a time.
//!
//! The store they compare with, ours, is the parent module's [`LiveStore`](crate::LiveStore).

mod policies;
mod stream;

use crate::prelude::*;
use serde::Serialize;

use crate::forgetting::StoreConfig;
use crate::names::named;
use crate::time::Time;
use crate::units::FactId;

use policies::Store;
pub use policies::{ForgettingPolicyId, ForgettingPolicyInfo, FORGETTING_POLICIES};
pub use stream::{Stream, StreamEvent, StreamOp};

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
}
