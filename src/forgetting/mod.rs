//! Forgetting: keep a long-term fact store sharp with decay, supersession and eviction.
//!
//! [`LiveStore`] is the store itself, moving forward in time with O(log n) operations.
//! [`FactStore`] is the widget's model: a [`Scenario`] plus the reads and writes the reader
//! added, each with its time, replayed into a `LiveStore` up to the slider's time `t`. Its state
//! is therefore a pure function of those inputs, and dragging the slider back undoes events.

use crate::float;
use crate::prelude::*;
mod compare;
mod config;
mod index;
mod ranking;
mod scenario;
mod store;

use serde::Serialize;

pub use compare::{
    Comparison, FactLabel, ForgettingPlayground, ForgettingPlaygroundState, ForgettingPolicyId,
    ForgettingPolicyInfo, HitPoint, PolicyNow, PolicyRun, Stream, StreamEvent, StreamId, StreamOp,
    FORGETTING_POLICIES,
};
pub use config::{
    FactKind, StoreConfig, StoreConfigBuilder, ACCESS_BOOST, CAPACITY, HALF_LIFE,
    LASTING_HALF_LIFE_FACTORS, MAX_ACCESS_BOOST,
};
pub use scenario::{
    ConsolidationRule, EventSpec, ReadSpec, RuleSpec, Scenario, ScenarioSpec, ScheduledRead,
    SeedFact, SeedFactSpec, WriteEvent,
};
pub use store::{Distilled, Distiller, Fact, LiveStore, SavedStore, Status, WriteOutcome};

use crate::error::{whole_number, Error, ErrorKind};
use crate::limits::{MAX_CHART_POINTS, MAX_CHART_SAMPLES, MAX_READS};
use crate::math::log2;
use crate::names::named;
use crate::text::fmt_number;
use crate::time::Time;
use crate::units::{EventIndex, FactId};

impl StoreConfig {
    /// The settings in `options`, checked as [`FactStore::from_options`] checks them; its
    /// scenario is not read. (A wasm core without custom scenarios builds its store from this
    /// and the refund desk, and so carries no scenario checks: src/wasm/.)
    pub(crate) fn from_options(options: &StoreOptions) -> Result<StoreConfig, Error> {
        let capacity = whole_number(
            "capacity",
            options.capacity.unwrap_or(f64::from(CAPACITY)),
            1,
            u32::MAX,
        )?;
        let config = StoreConfig::new(
            options.half_life.unwrap_or(HALF_LIFE),
            capacity,
            options.access_boost.unwrap_or(ACCESS_BOOST),
        )?;
        if options.semantic_half_life.is_none() && options.procedural_half_life.is_none() {
            return Ok(config);
        }
        let semantic = options
            .semantic_half_life
            .unwrap_or_else(|| config.half_life_of(FactKind::Semantic));
        let procedural = options
            .procedural_half_life
            .unwrap_or_else(|| config.half_life_of(FactKind::Procedural));
        config.with_lasting_half_lives(semantic, procedural)
    }
}

/// Options as a JS caller or a JSON file writes them: any numbers, absent for the seed's.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "deserialize", derive(serde::Deserialize))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StoreOptions {
    /// Finite and above 0 (default 4).
    #[serde(default)]
    pub half_life: Option<f64>,
    /// A whole number of at least 1 (default 4).
    #[serde(default)]
    pub capacity: Option<f64>,
    /// From 0 to 1000 (default 0.5).
    #[serde(default)]
    pub access_boost: Option<f64>,
    /// The half-life of semantic facts (default 4 times `halfLife`).
    #[serde(default)]
    pub semantic_half_life: Option<f64>,
    /// The half-life of procedural facts (default 8 times `halfLife`).
    #[serde(default)]
    pub procedural_half_life: Option<f64>,
    /// A custom scenario (default: the refund desk).
    #[serde(default)]
    pub scenario: Option<ScenarioSpec>,
}

/// What a reader did on a [`FactStore`]'s timeline, to replay into a store under other settings
/// ([`FactStore::timeline`], [`FactStore::replay_timeline`]). Serialised as `{ t, events: [{ index,
/// firedAt }], consolidatedAt, reads: [{ fact, at }] }`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Timeline {
    /// The slider's time.
    pub t: Time,
    /// Each fired event with its time, by index.
    pub events: Vec<FiredEvent>,
    /// When the consolidation pass ran, if it did.
    pub consolidated_at: Option<Time>,
    /// The reader's own reads, in the order made.
    pub reads: Vec<ScheduledRead>,
}

/// A fired write event of a [`Timeline`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FiredEvent {
    /// Which event.
    pub index: EventIndex,
    /// When it was fired.
    pub fired_at: Time,
}

/// What [`FactStore::replay_timeline`] did: how many of the timeline's writes, passes and reads applied
/// under the store's settings, and how many no longer did (a read of a fact that is no longer
/// active then).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Replayed {
    /// Applied.
    pub done: u32,
    /// No longer applied.
    pub missed: u32,
}

/// A write event as [`FactStore::events`] lists it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct EventInfo {
    /// Its index, counting from 0: what [`FactStore::fire`] takes.
    pub index: EventIndex,
    /// The button's label.
    pub label: String,
    /// The id of the fact it writes.
    pub fact: FactId,
    /// When it was fired, if it was.
    pub fired_at: Option<Time>,
}

/// A read as the state lists it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ReadInfo {
    /// The fact read.
    pub fact: FactId,
    /// When.
    pub at: Time,
    /// `true` for the scenario's reads, `false` for the reader's.
    pub scheduled: bool,
    /// `true` once the read's time has come (`at` ≤ t) and it found its fact no longer active:
    /// it counted no read (the log's `missedRead`).
    pub missed: bool,
}

/// What happened at one point of the timeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Action {
    /// A new fact was written.
    Write,
    /// A write matched an active fact's text and refreshed it instead of adding a copy.
    Refresh,
    /// An active fact was read.
    Read,
    /// A read came when its fact was no longer active, and changed nothing.
    MissedRead,
    /// Consolidation wrote a distilled fact, superseding the episodes it cites.
    Distill,
}

named!(Action, "action", {
    Write => "write",
    Refresh => "refresh",
    Read => "read",
    MissedRead => "missedRead",
    Distill => "distill",
});

/// One entry of the timeline's log.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Change {
    /// When.
    pub at: Time,
    /// What.
    pub action: Action,
    /// The fact written, refreshed or read.
    pub fact: FactId,
    /// The write event behind it, if any.
    pub event: Option<EventIndex>,
    /// The fact a write retired.
    pub superseded: Option<FactId>,
    /// The fact a write evicted.
    pub evicted: Option<FactId>,
}

impl Change {
    /// `action` on `fact` at `at`, with no write event, supersession or eviction.
    pub fn new(at: Time, action: Action, fact: FactId) -> Change {
        Change {
            at,
            action,
            fact,
            event: None,
            superseded: None,
            evicted: None,
        }
    }
}

/// A fact as the table shows it at time `t`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct FactView {
    /// Its id.
    pub id: FactId,
    /// What it says.
    pub text: String,
    /// Its kind.
    pub kind: FactKind,
    /// The importance as written (not decayed: the score applies the decay).
    pub importance: f64,
    /// When it was last written.
    pub last_touch: Time,
    /// `t - lastTouch`.
    pub age: f64,
    /// Reads so far.
    pub reads: u32,
    /// `0.5 ^ (age / halfLife)`.
    pub recency: f64,
    /// `1 + accessBoost * reads`.
    pub access: f64,
    /// `importance * recency * access`.
    pub score: f64,
    /// Where it stands, serialised as its name alone: `active`, `superseded` or `evicted`.
    #[serde(serialize_with = "Status::serialize_name")]
    pub status: Status,
    /// The fact that superseded it.
    pub superseded_by: Option<FactId>,
    /// The half-life of the fact's kind.
    pub half_life: f64,
    /// For a distilled fact, the episodes it came from.
    pub sources: Vec<FactId>,
    /// For an active fact, what happens to it with no further reads or writes.
    pub forecast: Option<Forecast>,
}

/// A forget forecast: where an active fact is heading if nothing else happens.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Forecast {
    /// When its score falls to half of what it is now: one half-life of its kind from now.
    pub half_at: Time,
    /// When it becomes the weakest active fact, the next to go at a write over capacity: now if
    /// it already is, `None` if it never will (facts of one kind fade at the same rate, so their
    /// order only changes between kinds).
    pub weakest_at: Option<Time>,
}

/// One fact's score over time, for the decay chart.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ChartLine {
    /// The fact.
    pub id: FactId,
    /// What it says.
    pub text: String,
    /// Its kind.
    pub kind: FactKind,
    /// `[t, score]` at each sampled time while the fact is active, and at every time the
    /// timeline changes (a read, a write, the consolidation pass). Where a score jumps at `τ`
    /// there are two points at `τ`, the score just before and the score at `τ`, so the line
    /// rises straight up; a line that ends at `τ` ends with the score just before `τ`.
    pub points: Vec<[f64; 2]>,
    /// When the fact stopped being active (superseded or evicted), if it did by the chart's end.
    pub retired_at: Option<f64>,
}

/// A snapshot of the store at time `t`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct FactStoreState {
    /// The slider's time.
    pub t: Time,
    /// Time units for recency to halve.
    pub half_life: f64,
    /// The most facts active after a write.
    pub capacity: u32,
    /// How much each read adds to access.
    pub access_boost: f64,
    /// The half-life of semantic facts.
    pub semantic_half_life: f64,
    /// The half-life of procedural facts.
    pub procedural_half_life: f64,
    /// When the reader ran the consolidation pass, if they did.
    pub consolidated_at: Option<Time>,
    /// Whether the scenario has anything to consolidate.
    pub can_consolidate: bool,
    /// Facts active at `t`.
    pub active_count: u32,
    /// Active facts by score descending, then superseded, then evicted (each by id).
    pub facts: Vec<FactView>,
    /// The write events and when they were fired.
    pub events: Vec<EventInfo>,
    /// Every read, scheduled or the reader's, at any time.
    pub reads: Vec<ReadInfo>,
    /// What happened up to `t`, in order.
    pub log: Vec<Change>,
}

/// The forgetting widget's model: a scenario, the reader's writes and reads with their times,
/// and the slider's time `t`.
///
/// The state at `t` replays, in time order, every write and read at a time `τ ≤ t`. At equal
/// times the scenario's facts come first, then write events by index, then reads, so firing
/// events in either order at the same times gives the same states. An event that supersedes a
/// fact not written by its time (another event's, not fired yet) still writes its own fact.
///
/// # Example
///
/// ```
/// use agent_memory_widgets::{EventIndex, FactStore, Status, Time};
///
/// # fn main() -> Result<(), agent_memory_widgets::Error> {
/// let mut store = FactStore::default(); // the refund desk: half-life 4, capacity 4
/// store.set_time(Time::new(6.0)?);
/// assert_eq!(store.state().facts[0].text, "the user is Dana"); // read twice, ranks first
///
/// store.fire(EventIndex(1))?; // the Globex question: a fifth fact, so the weakest goes
/// let state = store.state();
/// assert_eq!(state.active_count, 4);
/// assert_eq!(state.facts.last().map(|fact| fact.status), Some(Status::Evicted));
///
/// store.set_time(Time::new(3.0)?); // before the event: as if it never happened
/// assert!(store.state().facts.iter().all(|fact| fact.status == Status::Active));
///
/// // The event keeps its time (it is scheduled at t = 6) until it is taken off the timeline.
/// assert_eq!(store.events()[1].fired_at, Some(Time::new(6.0)?));
/// assert_eq!(store.unfire(EventIndex(1))?.get(), 6.0);
/// store.fire(EventIndex(1))?; // fired again, now at t = 3
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct FactStore {
    config: StoreConfig,
    scenario: Scenario,
    // Invariant: one entry per scenario event.
    fired: Vec<Option<Time>>,
    consolidated_at: Option<Time>,
    reader_reads: Vec<ScheduledRead>,
    t: Time,
}

/// The order of operations at equal times: the scenario's facts, then its scheduled reads, then
/// write events by index, then the consolidation pass, then the reader's own reads. A scheduled
/// read at t is part of the store shown at t, so a write or pass fired at t comes after it and
/// evicts the fact the store marks next to go. A reader's read comes last, so that it sees
/// exactly the store the reader sees, including a fact written at that same time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Op {
    SeedFact(usize),
    ScheduledRead(usize),
    Event(usize),
    Consolidate,
    ReaderRead(usize),
}

/// The scenario's consolidation rules as a [`Distiller`]: a rule applies once every episode it
/// cites has been written and at least one of them is still active.
struct ScenarioDistiller<'a>(&'a Scenario);

impl Distiller for ScenarioDistiller<'_> {
    fn distill(&self, store: &LiveStore) -> Result<Vec<Distilled>, Error> {
        let scenario = self.0;
        Ok(scenario
            .consolidation()
            .iter()
            .enumerate()
            .filter_map(|(j, rule)| {
                let id = scenario.rule_fact(j)?;
                let written = rule
                    .sources
                    .iter()
                    .all(|&source| store.get(source).is_some());
                let live = rule.sources.iter().any(|&source| {
                    store
                        .get(source)
                        .is_some_and(|fact| fact.status == Status::Active)
                });
                (written && live && store.get(id).is_none()).then(|| Distilled {
                    id,
                    kind: rule.kind,
                    text: rule.text.clone(),
                    importance: rule.importance,
                    sources: rule.sources.clone(),
                })
            })
            .collect())
    }
}

impl FactStore {
    /// A timeline of `scenario` at t = 0 with nothing fired.
    pub fn new(config: StoreConfig, scenario: Scenario) -> FactStore {
        let fired = vec![None; scenario.events().len()];
        FactStore {
            config,
            scenario,
            fired,
            consolidated_at: None,
            reader_reads: Vec::new(),
            t: Time::ZERO,
        }
    }

    /// A timeline from options as JS or JSON gives them, every value checked.
    ///
    /// # Errors
    ///
    /// An [`ErrorKind::InvalidOption`](crate::ErrorKind) naming the first bad value, or
    /// [`ErrorKind::OverLimit`](crate::ErrorKind) when the scenario passes a [limit](crate::limits).
    pub fn from_options(options: StoreOptions) -> Result<FactStore, Error> {
        let config = StoreConfig::from_options(&options)?;
        let scenario = match options.scenario {
            Some(spec) => Scenario::new(spec)?,
            None => Scenario::refund_desk(),
        };
        Ok(FactStore::new(config, scenario))
    }

    /// The settings.
    pub fn config(&self) -> StoreConfig {
        self.config
    }

    /// The scenario.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// The slider's time.
    pub fn time(&self) -> Time {
        self.t
    }

    /// Moves the slider, forward or back.
    pub fn set_time(&mut self, t: Time) {
        self.t = t;
    }

    /// The write events, with when each was fired.
    pub fn events(&self) -> Vec<EventInfo> {
        self.scenario
            .events()
            .iter()
            .enumerate()
            .map(|(i, event)| {
                let index = EventIndex(i as u32);
                EventInfo {
                    index,
                    label: event.label.clone(),
                    fact: self.scenario.event_fact(index).unwrap_or_default(),
                    fired_at: self.fired.get(i).copied().flatten(),
                }
            })
            .collect()
    }

    /// Fires write event `index` at the current time, and returns what the write did. An event
    /// fired already moves to the current time: the timeline is as if it had only ever been
    /// fired here (SPEC: a reader can fire it again at another time). [`unfire`](Self::unfire)
    /// takes it off the timeline.
    ///
    /// # Example
    ///
    /// ```
    /// use agent_memory_widgets::{EventIndex, FactStore, Time};
    ///
    /// let mut store = FactStore::default();
    /// store.fire(EventIndex(1)).unwrap();
    /// store.set_time(Time::new(6.0).unwrap());
    /// store.fire(EventIndex(1)).unwrap(); // moved from t = 0 to t = 6
    /// assert_eq!(store.events()[1].fired_at, Some(Time::new(6.0).unwrap()));
    /// ```
    ///
    /// # Errors
    ///
    /// [`ErrorKind::NoSuchEvent`](crate::ErrorKind) for an index out of range; nothing changes.
    pub fn fire(&mut self, index: EventIndex) -> Result<Change, Error> {
        let count = self.fired.len();
        let Some(slot) = self.fired.get_mut(index.get()) else {
            return Err(Error::new(
                ErrorKind::NoSuchEvent { index },
                match count {
                    0 => text!(
                        "there is no write event ",
                        index,
                        ": this scenario has none"
                    ),
                    _ => text!(
                        "there is no write event ",
                        index,
                        ": events are numbered 0 to ",
                        count - 1
                    ),
                },
            ));
        };
        let before = slot.replace(self.t);
        let (_, log) = self.replay();
        let event = Some(index);
        let change = log.into_iter().rev().find(|change| change.event == event);
        if change.is_none() {
            // Not reachable with a validated scenario; undo rather than keep a half-fired event.
            if let Some(slot) = self.fired.get_mut(index.get()) {
                *slot = before;
            }
        }
        change.ok_or_else(|| {
            Error::new(
                ErrorKind::InvalidState,
                text!("write event ", index, " did not apply"),
            )
        })
    }

    /// Takes fired write event `index` off the timeline, as if it had never been fired, and
    /// returns the time it had. Fire it again to put it back at another time.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::NoSuchEvent`](crate::ErrorKind) for an index out of range, and
    /// [`ErrorKind::InvalidState`](crate::ErrorKind) when the event was not fired.
    pub fn unfire(&mut self, index: EventIndex) -> Result<Time, Error> {
        match self.fired.get_mut(index.get()) {
            Some(slot) => slot.take().ok_or_else(|| {
                Error::new(
                    ErrorKind::InvalidState,
                    text!("write event ", index, " has not been fired"),
                )
            }),
            None => Err(Error::new(
                ErrorKind::NoSuchEvent { index },
                text!("there is no write event ", index),
            )),
        }
    }

    /// Reads fact `id` at the current time. The fact must be active now.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::NoSuchFact`](crate::ErrorKind) or [`ErrorKind::FactNotActive`](crate::ErrorKind)
    /// when fact `id` is not active at the current time, and [`ErrorKind::OverLimit`](crate::ErrorKind)
    /// past [`MAX_READS`] reads. The timeline is left as it was.
    pub fn read(&mut self, id: FactId) -> Result<Change, Error> {
        if self.scenario.reads().len() + self.reader_reads.len() >= MAX_READS {
            return Err(Error::over_limit(
                "MAX_READS",
                text!(
                    "a timeline holds at most ",
                    MAX_READS,
                    " reads; reset to read again"
                ),
            ));
        }
        let (mut store, _) = self.replay();
        store.read(id)?;
        self.reader_reads.push(ScheduledRead {
            fact: id,
            at: self.t,
        });
        Ok(Change::new(self.t, Action::Read, id))
    }

    /// Runs the consolidation pass at the current time, and returns what it wrote. Like a write
    /// event it is part of the timeline, once: moving the slider back before it undoes it, and
    /// running it again moves it to the current time.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidState`](crate::ErrorKind) when the scenario has no rules.
    pub fn consolidate(&mut self) -> Result<Vec<Change>, Error> {
        if self.scenario.consolidation().is_empty() {
            return Err(Error::new(
                ErrorKind::InvalidState,
                "this scenario has no consolidation rules",
            ));
        }
        self.consolidated_at = Some(self.t);
        let (_, log) = self.replay();
        let at = self.t;
        Ok(log
            .into_iter()
            .filter(|change| change.action == Action::Distill && change.at == at)
            .collect())
    }

    /// Takes the consolidation pass off the timeline, as if it had never run, and returns the
    /// time it had. Run it again to put it back at another time.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidState`](crate::ErrorKind) when the pass has not run.
    pub fn unconsolidate(&mut self) -> Result<Time, Error> {
        self.consolidated_at
            .take()
            .ok_or_else(|| Error::new(ErrorKind::InvalidState, "consolidation has not run"))
    }

    /// Forgets every fired event, the consolidation pass and every read, and moves the slider
    /// back to 0.
    pub fn reset(&mut self) {
        self.fired.iter_mut().for_each(|fired| *fired = None);
        self.consolidated_at = None;
        self.reader_reads.clear();
        self.t = Time::ZERO;
    }

    /// What the reader did on this timeline: the time, each fired event, the pass, and the
    /// reader's reads, to [`replay`](FactStore::replay_timeline) into a store under other settings.
    pub fn timeline(&self) -> Timeline {
        let mut events = Vec::new();
        for (i, fired) in self.fired.iter().enumerate() {
            if let Some(at) = *fired {
                events.push(FiredEvent {
                    index: EventIndex(i as u32),
                    fired_at: at,
                });
            }
        }
        Timeline {
            t: self.t,
            events,
            consolidated_at: self.consolidated_at,
            reads: self.reader_reads.clone(),
        }
    }

    /// Starts this store's timeline over and replays `timeline` into it: each write, the pass
    /// and each read at its time, in time order and at equal times in the timeline's own order
    /// (writes by index, the pass, then the reads as made), then moves the slider to its time.
    /// What no longer applies under this store's settings (a read of a fact evicted earlier
    /// now, an event the scenario does not have) is left out and counted.
    ///
    /// # Example
    ///
    /// ```
    /// use agent_memory_widgets::{EventIndex, FactId, FactStore, Scenario, StoreConfig, Time};
    ///
    /// # fn main() -> Result<(), agent_memory_widgets::Error> {
    /// let mut store = FactStore::default();
    /// store.set_time(Time::new(5.0)?);
    /// store.fire(EventIndex(1))?;
    /// store.read(FactId(1))?;
    /// let mut slower = FactStore::new(StoreConfig::new(8.0, 4, 0.5)?, Scenario::refund_desk());
    /// let replayed = slower.replay_timeline(&store.timeline());
    /// assert_eq!((replayed.done, replayed.missed), (2, 0));
    /// assert_eq!(slower.timeline(), store.timeline());
    /// # Ok(())
    /// # }
    /// ```
    pub fn replay_timeline(&mut self, timeline: &Timeline) -> Replayed {
        self.reset();
        let mut actions = Vec::new();
        for event in &timeline.events {
            actions.push((event.fired_at, Op::Event(event.index.0 as usize)));
        }
        if let Some(at) = timeline.consolidated_at {
            actions.push((at, Op::Consolidate));
        }
        for (i, read) in timeline.reads.iter().enumerate() {
            actions.push((read.at, Op::ReaderRead(i)));
        }
        // Keys tie only between equal items (one event listed twice), so an unstable sort is
        // deterministic.
        crate::sort::sort_by(&mut actions, |(a, op_a), (b, op_b)| {
            a.get().total_cmp(&b.get()).then(op_a.cmp(op_b))
        });
        let mut replayed = Replayed::default();
        for (at, op) in actions {
            self.t = at;
            let applied = match op {
                Op::Event(i) => self.fire(EventIndex(i as u32)).is_ok(),
                Op::Consolidate => self.consolidate().is_ok(),
                Op::ReaderRead(i) => timeline
                    .reads
                    .get(i)
                    .is_some_and(|read| self.read(read.fact).is_ok()),
                Op::SeedFact(_) | Op::ScheduledRead(_) => false,
            };
            if applied {
                replayed.done += 1;
            } else {
                replayed.missed += 1;
            }
        }
        self.t = timeline.t;
        replayed
    }

    /// The store as it is at `t`.
    pub fn state(&self) -> FactStoreState {
        let (store, log) = self.replay();
        let t = self.t;
        let view = |fact: &Fact| {
            let (status, superseded_by) = (fact.status, fact.status.superseded_by());
            FactView {
                id: fact.id,
                text: fact.text.clone(),
                kind: fact.kind,
                importance: fact.importance,
                last_touch: fact.last_touch,
                age: t.get() - fact.last_touch.get(),
                reads: fact.reads,
                recency: self.config.recency(fact, t),
                access: self.config.access(fact),
                score: self.config.score(fact, t),
                status,
                superseded_by,
                half_life: self.config.half_life_of(fact.kind),
                sources: fact.sources.clone(),
                forecast: (fact.status == Status::Active).then(|| self.forecast(&store, fact)),
            }
        };
        // Plain loops: a chain of adapters collected is a `Vec::from_iter` of its own in the wasm.
        // The active facts by rank, then the retired, superseded before evicted, each group by id.
        let by_id: Vec<&Fact> = store.facts().collect();
        let mut facts = Vec::with_capacity(by_id.len());
        for id in store.ranked() {
            if let Some(fact) = store.get(id) {
                facts.push(view(fact));
            }
        }
        for evicted in [false, true] {
            for fact in &by_id {
                let wanted = match fact.status {
                    Status::Active => false,
                    Status::Superseded { .. } => !evicted,
                    Status::Evicted => evicted,
                };
                if wanted {
                    facts.push(view(fact));
                }
            }
        }
        let mut reads = Vec::with_capacity(self.scenario.reads().len() + self.reader_reads.len());
        for (list, scheduled) in [
            (self.scenario.reads(), true),
            (&self.reader_reads[..], false),
        ] {
            for read in list {
                let missed = log.iter().any(|change| {
                    change.action == Action::MissedRead
                        && change.fact == read.fact
                        && change.at == read.at
                });
                reads.push(ReadInfo {
                    fact: read.fact,
                    at: read.at,
                    scheduled,
                    missed,
                });
            }
        }
        FactStoreState {
            t,
            half_life: self.config.half_life(),
            capacity: self.config.capacity(),
            access_boost: self.config.access_boost(),
            semantic_half_life: self.config.half_life_of(FactKind::Semantic),
            procedural_half_life: self.config.half_life_of(FactKind::Procedural),
            consolidated_at: self.consolidated_at,
            can_consolidate: !self.scenario.consolidation().is_empty(),
            active_count: store.active_count() as u32,
            facts,
            events: self.events(),
            reads,
            log,
        }
    }

    /// The score of every fact at each of `0, step, 2·step, … ≤ until`, and at every time up
    /// to `until` when the timeline changes: lines fall, jump straight up at reads, and stop
    /// exactly at a supersession or an eviction (see [`ChartLine::points`]). One pass over the
    /// timeline, so the cost is one replay plus one point per drawn fact and time.
    ///
    /// # Errors
    ///
    /// When `step` is not above 0, or the chart would have more than 10,001 samples, or more
    /// than [`MAX_CHART_POINTS`] points (its times, a change counting twice, times the
    /// scenario's facts).
    pub fn chart(&self, until: Time, step: f64) -> Result<Vec<ChartLine>, Error> {
        let samples = until.get() / step;
        if !(step.is_finite() && step > 0.0 && samples < MAX_CHART_SAMPLES as f64) {
            return Err(Error::invalid(
                "step",
                text!(
                    "step must be above 0 and give at most ",
                    MAX_CHART_SAMPLES,
                    " samples up to ",
                    until,
                    ", got ",
                    fmt_number(step)
                ),
            ));
        }
        // The checks above make this cast exact.
        let samples = float::floor(samples) as usize + 1;
        let changes = self.change_times();
        let facts = self.scenario.fact_count();
        let points = (samples + 2 * changes.len()).saturating_mul(facts);
        if points > MAX_CHART_POINTS {
            return Err(Error::over_limit(
                "MAX_CHART_POINTS",
                text!(
                    "step ",
                    fmt_number(step),
                    " draws ",
                    points,
                    " points, more than ",
                    MAX_CHART_POINTS,
                    "; use a larger step"
                ),
            ));
        }
        let mut times: Vec<(f64, bool)> = Vec::with_capacity(samples + changes.len());
        for i in 0..samples {
            times.push((i as f64 * step, false));
        }
        for at in changes {
            if at <= until.get() {
                times.push((at, true));
            }
        }
        // One entry per time, a change where there is one.
        crate::sort::sort_by(&mut times, |a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)));
        times.dedup_by(|later, earlier| later.0 == earlier.0);

        let ops = self.ops(until);
        let mut next_op = 0;
        let mut store = LiveStore::new(self.config);
        let mut log = Vec::new();
        let mut lines = ChartLines::new(facts);
        for (t, change) in times {
            let at = Time(t);
            if change {
                // Just before the change: the store as the earlier operations left it, scored
                // at `t` itself, so that a jump or an end is exactly at `t`. At t = 0 that is the
                // scenario's facts, so that one a write evicts at once still has its point.
                while let Some(&(op_at, op)) = ops.get(next_op) {
                    let before = op_at < at || (t == 0.0 && matches!(op, Op::SeedFact(_)));
                    if !before {
                        break;
                    }
                    self.apply(&mut store, op_at, op, &mut log);
                    next_op += 1;
                }
                let _ = store.advance_to(at);
                lines.add(self, &store, at);
            }
            while let Some(&(op_at, op)) = ops.get(next_op) {
                if op_at > at {
                    break;
                }
                self.apply(&mut store, op_at, op, &mut log);
                next_op += 1;
            }
            let _ = store.advance_to(at);
            lines.add(self, &store, at);
            lines.add_written_and_retired(self, &store, at);
            lines.retire(&store, t);
        }
        let mut lines = lines.lines;
        crate::sort::sort_by(&mut lines, |a, b| a.id.cmp(&b.id));
        Ok(lines)
    }

    /// Every time at which the timeline changes the store: reads, fired events and the
    /// consolidation pass.
    fn change_times(&self) -> Vec<f64> {
        let mut times = Vec::new();
        for read in self.scenario.reads().iter().chain(&self.reader_reads) {
            times.push(read.at.get());
        }
        for at in self.fired.iter().flatten().chain(&self.consolidated_at) {
            times.push(at.get());
        }
        times
    }

    /// Where active `fact` is heading with no further reads or writes. Scores compare through
    /// their logarithms, `log2(importance) + log2(access) − age / halfLife`, so that a long-faded
    /// score never underflows to 0.
    ///
    /// Fact i is the weakest after Δ ≥ 0 when `Δ · (rate_i − rate_j) ≥ log_i − log_j` for every
    /// other active j. Facts of one kind share a rate, so only the weakest of each kind can bind:
    /// the check is O(kinds), not O(n).
    fn forecast(&self, store: &LiveStore, fact: &Fact) -> Forecast {
        let t = self.t.get();
        let log_score = |f: &Fact| {
            log2(f.importance) + log2(self.config.access(f))
                - (t - f.last_touch.get()) / self.config.half_life_of(f.kind)
        };
        let rate = |f: &Fact| 1.0 / self.config.half_life_of(f.kind);
        let (mut from, mut until) = (0.0f64, f64::INFINITY);
        for kind in FactKind::ALL {
            let Some(other) = store.weakest_of(kind) else {
                continue;
            };
            if other.id == fact.id {
                // The weakest of its kind stays so: the others of its kind fade at its rate.
                continue;
            }
            let gap = log_score(fact) - log_score(other);
            let closing = rate(fact) - rate(other);
            if closing == 0.0 {
                if gap > 0.0 {
                    until = -1.0; // never: same rate, and stronger now
                }
            } else if closing > 0.0 {
                from = from.max(gap / closing);
            } else {
                until = until.min(gap / closing);
            }
        }
        Forecast {
            half_at: Time(t + self.config.half_life_of(fact.kind)),
            weakest_at: (from <= until).then_some(Time(t + from)),
        }
    }

    /// Every operation at a time up to `until`, in the order they apply: by time, and at equal
    /// times in the order of [`Op`].
    fn ops(&self, until: Time) -> Vec<(Time, Op)> {
        let mut ops = Vec::new();
        for i in 0..self.scenario.facts().len() {
            ops.push((Time::ZERO, Op::SeedFact(i)));
        }
        for (i, read) in self.scenario.reads().iter().enumerate() {
            ops.push((read.at, Op::ScheduledRead(i)));
        }
        for (i, read) in self.reader_reads.iter().enumerate() {
            ops.push((read.at, Op::ReaderRead(i)));
        }
        for (i, fired) in self.fired.iter().enumerate() {
            if let Some(at) = *fired {
                ops.push((at, Op::Event(i)));
            }
        }
        if let Some(at) = self.consolidated_at {
            ops.push((at, Op::Consolidate));
        }
        ops.retain(|(at, _)| *at <= until);
        // Keys are unique (an op appears once), so an unstable sort is deterministic.
        crate::sort::sort_by(&mut ops, |(a, op_a), (b, op_b)| {
            a.get().total_cmp(&b.get()).then(op_a.cmp(op_b))
        });
        ops
    }

    /// Replays every operation at a time up to `t` into a fresh store, standing at `t`.
    fn replay(&self) -> (LiveStore, Vec<Change>) {
        let ops = self.ops(self.t);
        let mut store = LiveStore::new(self.config);
        let mut log = Vec::with_capacity(ops.len());
        for (at, op) in ops {
            self.apply(&mut store, at, op, &mut log);
        }
        // The store ranks by score at its own time: it must stand at t, not at the last event.
        let _ = store.advance_to(self.t);
        (store, log)
    }

    /// Applies one operation at time `at` (never before the store's time) and logs it.
    fn apply(&self, store: &mut LiveStore, at: Time, op: Op, log: &mut Vec<Change>) {
        // Operations come sorted by time, so time never goes back.
        let _ = store.advance_to(at);
        let written = |outcome: WriteOutcome, event| {
            let action = if outcome.refreshed {
                Action::Refresh
            } else {
                Action::Write
            };
            Change {
                event,
                superseded: outcome.superseded,
                evicted: outcome.evicted,
                ..Change::new(at, action, outcome.fact)
            }
        };
        match op {
            Op::SeedFact(i) => {
                let Some(fact) = self.scenario.facts().get(i) else {
                    return;
                };
                let id = FactId(i as u32 + 1);
                if let Ok(outcome) = store.replay_write(id, &fact.text, fact.importance, None) {
                    log.push(written(outcome, None));
                }
            }
            Op::Event(i) => {
                let Some(event) = self.scenario.events().get(i) else {
                    return;
                };
                let index = EventIndex(i as u32);
                let id = self.scenario.event_fact(index).unwrap_or_default();
                let supersedes = event.supersedes.filter(|&old| store.get(old).is_some());
                if let Ok(outcome) =
                    store.replay_write(id, &event.text, event.importance, supersedes)
                {
                    log.push(written(outcome, Some(index)));
                }
            }
            Op::Consolidate => {
                let distiller = ScenarioDistiller(&self.scenario);
                for outcome in store.replay_consolidate(&distiller).unwrap_or_default() {
                    log.push(Change {
                        evicted: outcome.evicted,
                        ..Change::new(at, Action::Distill, outcome.fact)
                    });
                }
            }
            Op::ScheduledRead(_) | Op::ReaderRead(_) => {
                let read = match op {
                    Op::ScheduledRead(i) => self.scenario.reads().get(i),
                    Op::ReaderRead(i) => self.reader_reads.get(i),
                    _ => None,
                };
                let Some(&read) = read else {
                    return;
                };
                let action = match store.read(read.fact) {
                    Ok(_) => Action::Read,
                    Err(_) => Action::MissedRead,
                };
                log.push(Change::new(at, action, read.fact));
            }
        }
    }
}

/// The decay chart's lines as they are drawn, each found by its fact's id in O(1).
struct ChartLines {
    lines: Vec<ChartLine>,
    // Invariant: index[id] is the position in `lines` of fact id's line, once it has one.
    index: Vec<Option<usize>>,
}

impl ChartLines {
    fn new(facts: usize) -> ChartLines {
        ChartLines {
            lines: Vec::new(),
            index: vec![None; facts + 1],
        }
    }

    /// Adds `[t, score]` for every fact active in `store` to its line, unless the line already
    /// ends with that very point.
    fn add(&mut self, timeline: &FactStore, store: &LiveStore, t: Time) {
        for id in store.ranked() {
            let Some(fact) = store.get(id) else { continue };
            let Some(slot) = self.index.get_mut(id.0 as usize) else {
                continue;
            };
            let point = [t.get(), timeline.config.score(fact, t)];
            match *slot {
                Some(line) => {
                    let Some(line) = self.lines.get_mut(line) else {
                        continue;
                    };
                    if line.points.last() != Some(&point) {
                        line.points.push(point);
                    }
                }
                None => {
                    *slot = Some(self.lines.len());
                    self.lines.push(ChartLine {
                        id,
                        text: fact.text.clone(),
                        kind: fact.kind,
                        points: vec![point],
                        retired_at: None,
                    });
                }
            }
        }
    }

    /// Gives a one-point line to every fact written at `t` that a later write at `t` already
    /// retired (consolidating when the store is full can write a fact and evict it at once), so
    /// that every fact the store ever held is on the chart and in its key.
    fn add_written_and_retired(&mut self, timeline: &FactStore, store: &LiveStore, t: Time) {
        for fact in store.facts() {
            let Some(slot) = self.index.get_mut(fact.id.0 as usize) else {
                continue;
            };
            if slot.is_some() || fact.status == Status::Active || fact.last_touch != t {
                continue;
            }
            *slot = Some(self.lines.len());
            self.lines.push(ChartLine {
                id: fact.id,
                text: fact.text.clone(),
                kind: fact.kind,
                points: vec![[t.get(), timeline.config.score(fact, t)]],
                retired_at: None,
            });
        }
    }

    /// Marks the lines whose facts are no longer active in `store` as retired at `t`.
    fn retire(&mut self, store: &LiveStore, t: f64) {
        for line in &mut self.lines {
            if line.retired_at.is_none()
                && !store
                    .get(line.id)
                    .is_some_and(|fact| fact.status == Status::Active)
            {
                line.retired_at = Some(t);
            }
        }
    }
}

impl Default for FactStore {
    /// The refund-desk scenario with the seed's half-life 4, capacity 4 and access boost 0.5.
    fn default() -> FactStore {
        FactStore::new(StoreConfig::default(), Scenario::refund_desk())
    }
}
