//! A fact store that ranks, decays, supersedes and evicts in O(log n) per operation.

use crate::prelude::*;
use core::cmp::Ordering;

use serde::Serialize;

use crate::error::{not_a_number, Error, ErrorKind};
use crate::forgetting::config::{
    exact, exact_time, Exact, FactKind, StoreConfig, StoreConfigBuilder,
};
use crate::forgetting::index::{fnv, HashIndex};
use crate::forgetting::ranking::{Rank, Ranking};
use crate::math::{exp2, log2};
use crate::time::Time;
use crate::units::FactId;

/// Where a fact stands.
///
/// A state snapshot ([`FactView::status`](crate::FactView::status)) writes only its
/// [`name`](Status::name), `active`, `superseded` or `evicted`, with the superseding fact in a
/// field of its own; a saved [`LiveStore`] keeps the whole value.
///
/// ```
/// use agent_memory_widgets::{FactId, Status};
///
/// assert_eq!(Status::Superseded { by: FactId(5) }.to_string(), "superseded");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "deserialize", derive(serde::Deserialize))]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Status {
    /// Ranked, read and eligible for eviction.
    Active,
    /// Retired by a newer fact, kept for the record.
    Superseded {
        /// The fact that replaced it.
        by: FactId,
    },
    /// Dropped as the weakest when the store was over capacity.
    Evicted,
}

impl Status {
    /// `active`, `superseded` or `evicted`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Active => "active",
            Status::Superseded { .. } => "superseded",
            Status::Evicted => "evicted",
        }
    }

    /// The fact that superseded this one, if one did.
    pub fn superseded_by(self) -> Option<FactId> {
        match self {
            Status::Superseded { by } => Some(by),
            _ => None,
        }
    }

    /// Serialises a status as its [`name`](Status::name) alone, as a state snapshot shows it.
    pub(crate) fn serialize_name<S: serde::Serializer>(
        status: &Status,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(status.name())
    }
}

impl core::fmt::Display for Status {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// One fact with the numbers its score is made of.
///
/// Serialised (and, with the `deserialize` feature, read back) as part of a saved
/// [`LiveStore`]: see [`SavedStore`].
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(
    feature = "deserialize",
    derive(serde::Deserialize),
    serde(deny_unknown_fields)
)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Fact {
    /// Its id.
    pub id: FactId,
    /// What it says.
    pub text: String,
    /// Its kind.
    pub kind: FactKind,
    /// The importance as written, in (0, 1]; the score decays it with age.
    #[serde(with = "exact")]
    pub importance: f64,
    /// When it was last written (a refresh counts as a write).
    #[serde(with = "exact_time")]
    pub last_touch: Time,
    /// How often it has been read.
    pub reads: u32,
    /// Where it stands.
    pub status: Status,
    /// For a distilled fact, the episodes it came from; empty otherwise.
    pub sources: Vec<FactId>,
}

/// A fact a [`Distiller`] draws from the store's episodes.
#[derive(Clone, Debug, PartialEq)]
pub struct Distilled {
    /// The id to write it under.
    pub id: FactId,
    /// `Semantic` or `Procedural`, usually.
    pub kind: FactKind,
    /// What it says.
    pub text: String,
    /// Its importance, in (0, 1].
    pub importance: f64,
    /// The episodes it came from; those still active are superseded by it, and evicted ones are
    /// not cited (see [`LiveStore::consolidate`]).
    pub sources: Vec<FactId>,
}

/// A consolidation pass's source of knowledge: given the store, what to distill from it.
///
/// The widget's distiller reads the scenario's rules ([`Scenario`](crate::Scenario)); a library
/// user can plug in their own, an LLM call included, as long as it is deterministic if they want
/// the timeline to be. A distiller is `Send + Sync`, so that a store and the distiller that
/// consolidates it can move to, or be shared with, another thread (an async runtime's worker).
pub trait Distiller: Send + Sync {
    /// The facts to distill from `store` now.
    ///
    /// # Errors
    ///
    /// Whatever the distiller cannot do (an LLM call that failed, say). An error leaves the
    /// store as it was: [`LiveStore::consolidate`] passes it on and changes nothing.
    fn distill(&self, store: &LiveStore) -> Result<Vec<Distilled>, Error>;
}

/// What a [`LiveStore::write`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct WriteOutcome {
    /// The fact written, or the active duplicate it refreshed instead.
    pub fact: FactId,
    /// Whether the write refreshed an active fact with the same text instead of adding a copy.
    pub refreshed: bool,
    /// The fact the write retired, if it named one that was still active.
    pub superseded: Option<FactId>,
    /// The fact evicted because the store went over capacity.
    pub evicted: Option<FactId>,
}

/// The facts, ranked by score at any time, with every operation O(log n).
///
/// The score `importance * 0.5^((t - lastTouch) / halfLife) * access` changes with `t`, but
/// its logarithm is `log2(importance) + lastTouch / halfLife + log2(access) - t / halfLife`: a
/// time-independent key minus the same amount for every fact of the same half-life. So within a
/// kind the order of the scores at any `t` is the order of the keys. The active facts of each kind
/// ([`FactKind`], each with its own half-life) live in a ranking ordered by key (sorted chunks:
/// O(log n) to find a place, a bounded move to take it); a read or refresh re-keys one fact,
/// eviction compares the first of each ranking at the current time, and `top_k` merges the
/// rankings from their last, without ever rescoring the store.
///
/// Time only moves forward here; [`FactStore`](crate::FactStore) replays a timeline into a fresh
/// `LiveStore` to move back.
///
/// # Example
///
/// ```
/// use agent_memory_widgets::{FactId, LiveStore, StoreConfig, Time};
///
/// # fn main() -> Result<(), agent_memory_widgets::Error> {
/// let mut store = LiveStore::new(StoreConfig::new(4.0, 2, 0.5)?);
/// store.write(FactId(1), "the user is Dana", 0.4, None)?;
/// store.write(FactId(2), "order ORD-3300 was $200.00", 0.6, None)?;
/// store.advance_to(Time::new(4.0)?)?;
/// store.read(FactId(1))?;
/// store.read(FactId(1))?; // access 2: Dana scores 0.4, the order 0.3
/// let outcome = store.write(FactId(3), "refund approved: $180.00", 0.9, None)?;
/// assert_eq!(outcome.evicted, Some(FactId(2)));
/// assert_eq!(store.top_k(2), [FactId(3), FactId(1)]);
/// assert_eq!(store.score(FactId(3)), Some(0.9));
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct LiveStore {
    config: StoreConfig,
    time: Time,
    facts: FactTable,
    // Invariant: ranked[k] has one entry per active fact of kind k, with its current key. Keys are
    // comparable only within a kind, since each kind has its own half-life.
    ranked: [Ranking; 3],
    // Invariant: with a retention set (`StoreConfig::retention`), one entry per retired fact,
    // keyed by its last touch (`retired_rank`), at most the retention after every call; empty
    // without one (every retired fact is kept, and nothing needs to know their order).
    retired: Ranking,
}

/// Every fact a store holds, found by id in O(1), and each active fact by its text: the facts in
/// the order written, and two indexes of positions in it.
#[derive(Clone, Debug, Default)]
struct FactTable {
    facts: Vec<Fact>,
    // Invariant: referrers[i] names, once per mention, every fact whose status
    // (`Superseded { by }`) or sources name facts[i]; so a fact that goes for good
    // (`LiveStore::forget`, retention) takes its mentions with it, in O(its mentions).
    referrers: Vec<Vec<FactId>>,
    // Invariant: holds the position of every fact, hashed by `id_hash`.
    by_id: HashIndex,
    // Invariant: holds the position of every active fact, hashed by `text_hash`; no two active
    // facts have the same text (compared as `same_text` does).
    by_text: HashIndex,
}

impl FactTable {
    #[inline]
    fn position(&self, id: FactId) -> Option<usize> {
        self.by_id.find(id_hash(id), |at| {
            self.facts.get(at).is_some_and(|fact| fact.id == id)
        })
    }

    fn get(&self, id: &FactId) -> Option<&Fact> {
        self.facts.get(self.position(*id)?)
    }

    fn get_mut(&mut self, id: &FactId) -> Option<&mut Fact> {
        let at = self.position(*id)?;
        self.facts.get_mut(at)
    }

    fn contains_key(&self, id: &FactId) -> bool {
        self.position(*id).is_some()
    }

    /// The active fact whose text is `text`, ignoring surrounding space and case (`same_text`).
    fn active_with_text(&self, text: &str) -> Option<FactId> {
        let at = self.by_text.find(text_hash(text), |at| {
            self.facts
                .get(at)
                .is_some_and(|fact| same_text(&fact.text, text))
        })?;
        Some(self.facts.get(at)?.id)
    }

    /// Adds a fact whose id the table does not hold yet (and, if it is active, whose text no
    /// active fact has).
    fn insert(&mut self, fact: Fact) {
        let (facts, at) = (&self.facts, self.facts.len());
        self.by_id.insert(id_hash(fact.id), at, &|at| {
            facts.get(at).map_or(0, |fact| id_hash(fact.id))
        });
        if fact.status == Status::Active {
            self.by_text.insert(text_hash(&fact.text), at, &|at| {
                facts.get(at).map_or(0, |fact| text_hash(&fact.text))
            });
        }
        self.facts.push(fact);
        self.referrers.push(Vec::new());
    }

    /// Notes that fact `from` names fact `target` (its status or a source).
    fn link(&mut self, target: FactId, from: FactId) {
        if let Some(list) = self
            .position(target)
            .and_then(|at| self.referrers.get_mut(at))
        {
            list.push(from);
        }
    }

    /// Fact `from` no longer names fact `target`.
    fn unlink(&mut self, target: FactId, from: FactId) {
        if let Some(list) = self
            .position(target)
            .and_then(|at| self.referrers.get_mut(at))
        {
            list.retain(|&id| id != from);
        }
    }

    /// Takes fact `id` out of the table for good, with the facts that name it. The last fact
    /// moves into its place (and its index entries with it), so this is O(1) on average.
    fn remove(&mut self, id: FactId) -> Option<(Fact, Vec<FactId>)> {
        let at = self.position(id)?;
        let last = self.facts.len().checked_sub(1)?;
        for position in [at, last] {
            let fact = self.facts.get(position)?;
            self.by_id.remove(id_hash(fact.id), position);
            if fact.status == Status::Active {
                self.by_text.remove(text_hash(&fact.text), position);
            }
        }
        // `pop` and `replace` rather than `swap_remove`, whose bounds panic would reach the wasm.
        let (mut fact, mut referrers) = (self.facts.pop()?, self.referrers.pop()?);
        if at != last {
            fact = core::mem::replace(self.facts.get_mut(at)?, fact);
            referrers = core::mem::replace(self.referrers.get_mut(at)?, referrers);
            let (facts, moved) = (&self.facts, self.facts.get(at)?);
            self.by_id.insert(id_hash(moved.id), at, &|at| {
                facts.get(at).map_or(0, |fact| id_hash(fact.id))
            });
            if moved.status == Status::Active {
                self.by_text.insert(text_hash(&moved.text), at, &|at| {
                    facts.get(at).map_or(0, |fact| text_hash(&fact.text))
                });
            }
        }
        Some((fact, referrers))
    }

    /// Fact `id` is no longer active: takes its text out of the index, and gives it `status`.
    fn retire(&mut self, id: FactId, status: Status) {
        let Some(at) = self.position(id) else {
            return;
        };
        if let Some(fact) = self.facts.get_mut(at) {
            self.by_text.remove(text_hash(&fact.text), at);
            fact.status = status;
        }
    }

    /// Every fact, by id (sorted on each call: O(n log n), and only snapshots and saves ask).
    fn values(&self) -> impl Iterator<Item = &Fact> {
        let mut by_id: Vec<&Fact> = self.facts.iter().collect();
        crate::sort::sort_by(&mut by_id, |a, b| a.id.cmp(&b.id));
        by_id.into_iter()
    }
}

impl PartialEq for FactTable {
    /// The same facts, whatever order they were written in (the indexes follow from the facts).
    fn eq(&self, other: &FactTable) -> bool {
        self.facts.len() == other.facts.len() && self.values().eq(other.values())
    }
}

#[inline]
fn id_hash(id: FactId) -> u64 {
    fnv(id.0.to_le_bytes())
}

/// The hash of `text` as [`same_text`] compares it.
fn text_hash(text: &str) -> u64 {
    fnv(folded(text).flat_map(|c| u32::from(c).to_le_bytes()))
}

/// Two facts' texts say the same, ignoring the space around them and case (SPEC §3): their
/// letters fold alike under Unicode's simple case folding, so `École` and `école` are one fact,
/// and so are `ΟΔΟΣ` and `οδος`.
fn same_text(a: &str, b: &str) -> bool {
    folded(a).eq(folded(b))
}

/// `text` trimmed of Unicode whitespace, each letter case-folded.
fn folded(text: &str) -> impl Iterator<Item = char> + '_ {
    text.trim().chars().map(crate::case::fold)
}

impl LiveStore {
    /// An empty store at t = 0.
    pub fn new(config: StoreConfig) -> LiveStore {
        LiveStore {
            config,
            time: Time::ZERO,
            facts: FactTable::default(),
            ranked: Default::default(),
            retired: Ranking::default(),
        }
    }

    /// The store's settings.
    pub fn config(&self) -> StoreConfig {
        self.config
    }

    /// The store's current time: where [`advance_to`](LiveStore::advance_to) moved it.
    pub fn time(&self) -> Time {
        self.time
    }

    /// Moves time forward to `t`. Moving back is an error: replay into a new store instead.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::TimeWentBack`] when `t` is before [`time`](LiveStore::time).
    pub fn advance_to(&mut self, t: Time) -> Result<(), Error> {
        if t < self.time {
            return Err(Error::new(
                ErrorKind::TimeWentBack,
                text!(
                    "t must not go back in a LiveStore (now ",
                    self.time,
                    ", got ",
                    t,
                    "); replay into a new store instead"
                ),
            ));
        }
        self.time = t;
        Ok(())
    }

    /// Writes fact `id` at the current time.
    ///
    /// If an active fact has the same text (ignoring case and surrounding whitespace) no copy
    /// is added: that fact is refreshed instead (last touch = now, importance = the larger).
    /// If `supersedes` names an active fact, it is retired. Then, if more than `capacity` facts
    /// are active, the one with the lowest score now is evicted.
    ///
    /// # Errors
    ///
    /// An [`ErrorKind::InvalidOption`] for an importance outside (0, 1] or an empty text,
    /// [`ErrorKind::OverLimit`] naming `text` for a text of more than
    /// [`MAX_TEXT_CHARS`](crate::limits::MAX_TEXT_CHARS) characters (the limit of a turn's
    /// text), [`ErrorKind::NoSuchFact`] when `supersedes` names no fact, and
    /// [`ErrorKind::DuplicateId`] when `id` is taken. A failed write changes nothing.
    pub fn write(
        &mut self,
        id: FactId,
        text: &str,
        importance: f64,
        supersedes: Option<FactId>,
    ) -> Result<WriteOutcome, Error> {
        self.write_as(FactKind::Episodic, id, text, importance, supersedes)
    }

    /// Writes fact `id` of `kind` at the current time: [`write`](LiveStore::write) for any kind,
    /// such as a semantic fact the agent learnt or a procedural rule it was given, which fade
    /// with their kind's half-life ([`StoreConfig::half_life_of`]).
    ///
    /// Everything else is as for [`write`](LiveStore::write). A write whose text repeats an
    /// active fact's refreshes that fact, which keeps its own kind.
    ///
    /// # Example
    ///
    /// ```
    /// use agent_memory_widgets::{FactId, FactKind, LiveStore, StoreConfig, Time};
    ///
    /// # fn main() -> Result<(), agent_memory_widgets::Error> {
    /// let mut store = LiveStore::new(StoreConfig::new(4.0, 10, 0.5)?); // semantic: 16
    /// store.write(FactId(1), "Dana asked about a refund", 0.8, None)?;
    /// store.write_as(FactKind::Semantic, FactId(2), "Dana prefers email", 0.8, None)?;
    /// store.advance_to(Time::new(16.0)?)?;
    /// assert_eq!(store.get(FactId(2)).map(|fact| fact.kind), Some(FactKind::Semantic));
    /// assert_eq!(store.score(FactId(2)), Some(0.4)); // one semantic half-life
    /// assert_eq!(store.top_k(2), [FactId(2), FactId(1)]); // the episode faded 4 times as fast
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// # Errors
    ///
    /// As for [`write`](LiveStore::write); a failed write changes nothing.
    pub fn write_as(
        &mut self,
        kind: FactKind,
        id: FactId,
        text: &str,
        importance: f64,
        supersedes: Option<FactId>,
    ) -> Result<WriteOutcome, Error> {
        let outcome =
            self.write_fact::<true>(id, kind, text, importance, supersedes, Vec::new())?;
        self.trim();
        Ok(outcome)
    }

    /// [`write`](LiveStore::write) for the widget's replays ([`FactStore`](crate::FactStore), the
    /// forgetting playground), into a store of their own that is never trimmed nor forgets: a
    /// `FactStore` shows every retired fact, and the playground counts reads, which find only
    /// active facts. So it skips the retention's trim and the index of which fact names which
    /// (`FactTable::referrers`, left empty), and their code stays out of the wasm cores.
    pub(super) fn replay_write(
        &mut self,
        id: FactId,
        text: &str,
        importance: f64,
        supersedes: Option<FactId>,
    ) -> Result<WriteOutcome, Error> {
        self.write_fact::<false>(
            id,
            FactKind::Episodic,
            text,
            importance,
            supersedes,
            Vec::new(),
        )
    }

    /// Runs a consolidation pass: each fact the distiller draws is written (as of now), and the
    /// active episodes it cites are superseded by it, kept for the record rather than deleted.
    ///
    /// A distilled fact cites only what the store still holds, active or superseded. An evicted
    /// fact is forgotten: it is dropped from the sources, whatever the distiller named, and stays
    /// evicted.
    ///
    /// The call is atomic: every distilled fact is checked before anything is written, so an
    /// error leaves the store exactly as it was.
    ///
    /// # Errors
    ///
    /// When the distiller fails, or a distilled fact has an importance outside (0, 1], an empty
    /// text or one past [`MAX_TEXT_CHARS`](crate::limits::MAX_TEXT_CHARS), or an id that is
    /// already taken (by a fact in the store or an earlier one of the
    /// same pass).
    pub fn consolidate(&mut self, distiller: &dyn Distiller) -> Result<Vec<WriteOutcome>, Error> {
        let outcomes = self.consolidate_with::<true>(distiller)?;
        self.trim();
        Ok(outcomes)
    }

    /// [`consolidate`](LiveStore::consolidate) for the widget's replays, as
    /// [`replay_write`](LiveStore::replay_write) is for a write.
    pub(super) fn replay_consolidate(
        &mut self,
        distiller: &dyn Distiller,
    ) -> Result<Vec<WriteOutcome>, Error> {
        self.consolidate_with::<false>(distiller)
    }

    /// A consolidation pass; `LINK`: keep the index of which fact names which.
    fn consolidate_with<const LINK: bool>(
        &mut self,
        distiller: &dyn Distiller,
    ) -> Result<Vec<WriteOutcome>, Error> {
        let distilled = distiller.distill(self)?;
        // Validate everything first: after this loop no write below can fail.
        for (i, fact) in distilled.iter().enumerate() {
            check_fact::<LINK>(fact.importance, &fact.text)?;
            // A plain scan keeps the WebAssembly build small; a pass distills few facts.
            let mut taken = self.facts.contains_key(&fact.id);
            for earlier in distilled.iter().take(i) {
                taken |= earlier.id == fact.id;
            }
            if taken {
                return Err(duplicate_id(fact.id));
            }
        }
        let mut outcomes = Vec::with_capacity(distilled.len());
        for fact in distilled {
            let mut sources = Vec::with_capacity(fact.sources.len());
            for &source in &fact.sources {
                if self
                    .facts
                    .get(&source)
                    .is_some_and(|held| held.status != Status::Evicted)
                {
                    sources.push(source);
                }
            }
            // The fact the episodes fold into: the distilled one, or the active fact whose text
            // it repeats (the write refreshes that one instead), unless that is an episode
            // retired here, so that a superseded fact always names a fact the store holds.
            let retired = |id: FactId, store: &LiveStore| {
                sources.contains(&id)
                    && store
                        .facts
                        .get(&id)
                        .is_some_and(|held| held.kind == FactKind::Episodic)
            };
            let by = match self.facts.active_with_text(&fact.text) {
                Some(existing) if !retired(existing, self) => existing,
                _ => fact.id,
            };
            let mut folded = Vec::new();
            for &source in &sources {
                if retired(source, self)
                    && self.retire::<LINK>(source, Status::Superseded { by })
                    && LINK
                {
                    folded.push(source);
                }
            }
            let outcome = self.write_fact::<LINK>(
                fact.id,
                fact.kind,
                &fact.text,
                fact.importance,
                None,
                sources,
            );
            // Checked above: the importance, the text and a fresh id are all a write needs.
            debug_assert!(outcome.is_ok(), "a validated distilled write failed");
            if let Ok(outcome) = outcome {
                outcomes.push(outcome);
            }
            // Now that `by` is in the table (written, or the fact it refreshed).
            for source in folded {
                self.facts.link(by, source);
            }
        }
        Ok(outcomes)
    }

    /// A write of any kind; `LINK`: keep the index of which fact names which.
    fn write_fact<const LINK: bool>(
        &mut self,
        id: FactId,
        kind: FactKind,
        text: &str,
        importance: f64,
        supersedes: Option<FactId>,
        sources: Vec<FactId>,
    ) -> Result<WriteOutcome, Error> {
        check_fact::<LINK>(importance, text)?;
        if let Some(old) = supersedes {
            if !self.facts.contains_key(&old) {
                return Err(Error::new(
                    ErrorKind::NoSuchFact { id: old },
                    text!("supersedes names fact ", old, ", which does not exist"),
                ));
            }
        }
        let mut outcome = WriteOutcome::default();
        if let Some(existing) = self.facts.active_with_text(text) {
            self.rekey(existing, |fact, now| {
                fact.last_touch = now;
                fact.importance = fact.importance.max(importance);
            });
            outcome.fact = existing;
            outcome.refreshed = true;
        } else {
            if self.facts.contains_key(&id) {
                return Err(duplicate_id(id));
            }
            let fact = Fact {
                id,
                text: text.to_owned(),
                kind,
                importance,
                last_touch: self.time,
                reads: 0,
                status: Status::Active,
                sources,
            };
            let rank = self.rank(&fact);
            self.ranking(kind).insert(rank);
            let cited = if LINK {
                fact.sources.clone()
            } else {
                Vec::new()
            };
            self.facts.insert(fact);
            for source in cited {
                self.facts.link(source, id);
            }
            outcome.fact = id;
        }
        if let Some(old) = supersedes.filter(|&old| old != outcome.fact) {
            if self.retire::<LINK>(old, Status::Superseded { by: outcome.fact }) {
                if LINK {
                    self.facts.link(outcome.fact, old);
                }
                outcome.superseded = Some(old);
            }
        }
        let capacity = usize::try_from(self.config.capacity()).unwrap_or(usize::MAX);
        while self.active_count() > capacity {
            let Some(weakest) = self.weakest() else { break };
            self.retire::<LINK>(weakest, Status::Evicted);
            outcome.evicted = Some(weakest);
        }
        Ok(outcome)
    }

    /// The active fact to evict now: the weakest of each kind's set, compared by score at the
    /// current time (ties: the oldest last touch, then the lowest id). O(log n).
    fn weakest(&self) -> Option<FactId> {
        self.ranked
            .iter()
            .filter_map(|set| set.first())
            .min_by(|a, b| self.cmp_now(a, b))
            .map(|rank| rank.id)
    }

    /// The active fact of `kind` with the lowest score, at any time. O(log n).
    pub(crate) fn weakest_of(&self, kind: FactKind) -> Option<&Fact> {
        let rank = self.ranked.get(kind.index())?.first()?;
        self.facts.get(&rank.id)
    }

    /// Two active facts of any kinds in eviction order at the current time: by score, then the
    /// older last touch, then the lower id. Within a kind this is the order of [`Rank`].
    fn cmp_now(&self, a: &Rank, b: &Rank) -> Ordering {
        let score = |id| self.score(id).unwrap_or(f64::INFINITY);
        score(a.id)
            .total_cmp(&score(b.id))
            .then(a.last_touch.total_cmp(&b.last_touch))
            .then(a.id.cmp(&b.id))
    }

    /// Reads active fact `id` at the current time: its read count goes up by one, and the fact,
    /// as it is after the read, is returned.
    ///
    /// ```
    /// use agent_memory_widgets::{FactId, LiveStore, StoreConfig};
    ///
    /// # fn main() -> Result<(), agent_memory_widgets::Error> {
    /// let mut store = LiveStore::new(StoreConfig::default());
    /// store.write(FactId(1), "the user is Dana", 0.4, None)?;
    /// let fact = store.read(FactId(1))?;
    /// assert_eq!((fact.text.as_str(), fact.reads), ("the user is Dana", 1));
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// # Errors
    ///
    /// [`ErrorKind::NoSuchFact`] or [`ErrorKind::FactNotActive`]; nothing changes.
    pub fn read(&mut self, id: FactId) -> Result<&Fact, Error> {
        self.active(id)?;
        self.rekey(id, |fact, _| fact.reads = fact.reads.saturating_add(1));
        self.facts.get(&id).ok_or_else(|| no_such_fact(id))
    }

    /// Sets active fact `id`'s importance, higher or lower, and moves it to its place in the
    /// ranking: a user who says a fact matters more, or less, than the agent thought. Unlike a
    /// write that repeats its text (which keeps the larger importance), this sets it as given,
    /// and leaves the last touch as it was. Returns the fact as it is now.
    ///
    /// ```
    /// use agent_memory_widgets::{FactId, LiveStore, StoreConfig};
    ///
    /// # fn main() -> Result<(), agent_memory_widgets::Error> {
    /// let mut store = LiveStore::new(StoreConfig::default());
    /// store.write(FactId(1), "the user is Dana", 0.4, None)?;
    /// store.write(FactId(2), "Dana likes jazz", 0.6, None)?;
    /// assert_eq!(store.top_k(1), [FactId(2)]);
    /// store.set_importance(FactId(1), 0.9)?;
    /// assert_eq!(store.top_k(2), [FactId(1), FactId(2)]);
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// # Errors
    ///
    /// An [`ErrorKind::InvalidOption`] for an importance outside (0, 1],
    /// [`ErrorKind::NoSuchFact`] or [`ErrorKind::FactNotActive`]; nothing changes.
    pub fn set_importance(&mut self, id: FactId, importance: f64) -> Result<&Fact, Error> {
        check_importance("importance", importance)?;
        self.active(id)?;
        self.rekey(id, |fact, _| fact.importance = importance);
        self.facts.get(&id).ok_or_else(|| no_such_fact(id))
    }

    /// Removes fact `id` from the store for good, in any status, and returns it: its text is
    /// gone, as a user who asks the agent to forget something expects. Unlike an eviction,
    /// which keeps the fact for the record, nothing of it stays behind:
    ///
    /// - the facts it superseded (its earlier versions, which name it) go with it, and theirs in
    ///   turn;
    /// - a distilled fact that cites it no longer does (its [`sources`](Fact::sources)).
    ///
    /// Its id is free to use again. O(log n), plus the facts that name it.
    ///
    /// ```
    /// use agent_memory_widgets::{ErrorKind, FactId, LiveStore, StoreConfig};
    ///
    /// # fn main() -> Result<(), agent_memory_widgets::Error> {
    /// let mut store = LiveStore::new(StoreConfig::default());
    /// store.write(FactId(1), "Dana lives at 12 Elm St", 0.5, None)?;
    /// store.write(FactId(2), "Dana lives at 4 Oak Ave", 0.5, Some(FactId(1)))?;
    /// let forgotten = store.forget(FactId(2))?;
    /// assert_eq!(forgotten.text, "Dana lives at 4 Oak Ave");
    /// assert!(store.get(FactId(1)).is_none()); // the earlier address went with it
    /// assert_eq!(store.facts().count(), 0);
    /// let err = store.forget(FactId(2)).unwrap_err();
    /// assert_eq!(*err.kind(), ErrorKind::NoSuchFact { id: FactId(2) });
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// # Errors
    ///
    /// [`ErrorKind::NoSuchFact`] when the store holds no fact `id`; nothing changes.
    pub fn forget(&mut self, id: FactId) -> Result<Fact, Error> {
        self.drop_fact(id).ok_or_else(|| no_such_fact(id))
    }

    /// Active fact `id`, or the error a read of it gets.
    fn active(&self, id: FactId) -> Result<&Fact, Error> {
        match self.facts.get(&id) {
            Some(fact) if fact.status == Status::Active => Ok(fact),
            Some(_) => Err(Error::new(
                ErrorKind::FactNotActive { id },
                text!(
                    "fact ",
                    id,
                    " is no longer active at t = ",
                    self.time,
                    "; only active facts can be read"
                ),
            )),
            None => Err(no_such_fact(id)),
        }
    }

    /// Takes fact `id` out for good, with every fact that names it in its status (and theirs);
    /// facts that cite it drop it from their sources. Returns the fact `id`, if the store held it.
    fn drop_fact(&mut self, id: FactId) -> Option<Fact> {
        let mut first = None;
        let mut pending = vec![id];
        while let Some(id) = pending.pop() {
            let Some(fact) = self.facts.get(&id) else {
                continue; // named twice, and gone already
            };
            if fact.status == Status::Active {
                let (rank, kind) = (self.rank(fact), fact.kind);
                self.ranking(kind).remove(&rank);
            } else {
                let rank = retired_rank(fact);
                self.retired.remove(&rank);
            }
            let Some((fact, referrers)) = self.facts.remove(id) else {
                continue;
            };
            if let Some(by) = fact.status.superseded_by() {
                self.facts.unlink(by, id);
            }
            for &source in &fact.sources {
                self.facts.unlink(source, id);
            }
            for referrer in referrers {
                if let Some(other) = self.facts.get_mut(&referrer) {
                    other.sources.retain(|&source| source != id);
                    if other.status == (Status::Superseded { by: id }) {
                        pending.push(referrer);
                    }
                }
            }
            first.get_or_insert(fact);
        }
        first
    }

    /// With a retention set, drops the retired facts touched longest ago until at most the
    /// retention are left (the facts that name one in their status go with it).
    fn trim(&mut self) {
        let Some(keep) = self.config.retention() else {
            return;
        };
        let keep = usize::try_from(keep).unwrap_or(usize::MAX);
        while self.retired.len() > keep {
            let Some(oldest) = self.retired.first().map(|rank| rank.id) else {
                break;
            };
            if self.drop_fact(oldest).is_none() {
                break;
            }
        }
    }

    /// Fact `id`, in any status.
    pub fn get(&self, id: FactId) -> Option<&Fact> {
        self.facts.get(&id)
    }

    /// Every fact ever written, by id.
    pub fn facts(&self) -> impl Iterator<Item = &Fact> {
        self.facts.values()
    }

    /// How many facts are active.
    pub fn active_count(&self) -> usize {
        self.ranked.iter().map(Ranking::len).sum()
    }

    /// The ids of the `k` highest-scoring active facts, best first. O(k log n).
    pub fn top_k(&self, k: usize) -> Vec<FactId> {
        self.ranked().take(k).collect()
    }

    /// Every active fact's id, best first: the kinds' rankings merged by score now.
    pub fn ranked(&self) -> impl Iterator<Item = FactId> + '_ {
        let mut heads = self.ranked.each_ref().map(|set| set.iter_rev().peekable());
        core::iter::from_fn(move || {
            // The strongest of the kinds' next facts: highest score, then newest, then highest id.
            let best = heads
                .iter_mut()
                .enumerate()
                .filter_map(|(kind, head)| head.peek().map(|rank| (kind, **rank)))
                .max_by(|(_, a), (_, b)| self.cmp_now(a, b))?;
            if let Some(head) = heads.get_mut(best.0) {
                head.next();
            }
            Some(best.1.id)
        })
    }

    /// Fact `id`'s score at the current time, whatever its status.
    pub fn score(&self, id: FactId) -> Option<f64> {
        self.facts
            .get(&id)
            .map(|fact| self.config.score(fact, self.time))
    }

    /// The ranking of `kind`'s active facts: a match, not `ranked[kind.index()]`, whose bounds
    /// check would bring core's panic and its messages into the wasm.
    fn ranking(&mut self, kind: FactKind) -> &mut Ranking {
        let [episodic, semantic, procedural] = &mut self.ranked;
        match kind {
            FactKind::Episodic => episodic,
            FactKind::Semantic => semantic,
            FactKind::Procedural => procedural,
        }
    }

    fn rank(&self, fact: &Fact) -> Rank {
        Rank {
            key: self.config.key(fact),
            last_touch: fact.last_touch.get(),
            id: fact.id,
        }
    }

    /// Changes an active fact and moves it to its new place in the ranking.
    fn rekey(&mut self, id: FactId, change: impl FnOnce(&mut Fact, Time)) {
        let now = self.time;
        let Some(fact) = self.facts.get(&id) else {
            return;
        };
        let (old, kind) = (self.rank(fact), fact.kind);
        self.ranking(kind).remove(&old);
        if let Some(fact) = self.facts.get_mut(&id) {
            change(fact, now);
        }
        if let Some(fact) = self.facts.get(&id) {
            let rank = self.rank(fact);
            self.ranking(kind).insert(rank);
        }
    }

    /// Takes an active fact out of the ranking; `false` if it was not active. `LINK`: as for
    /// [`write_fact`](LiveStore::write_fact), and with a retention, note its place in the order
    /// the trim drops retired facts (replays are never trimmed).
    fn retire<const LINK: bool>(&mut self, id: FactId, status: Status) -> bool {
        let Some(fact) = self.facts.get(&id) else {
            return false;
        };
        if fact.status != Status::Active {
            return false;
        }
        let (rank, kind, retired) = (self.rank(fact), fact.kind, retired_rank(fact));
        self.ranking(kind).remove(&rank);
        if LINK && self.config.retention().is_some() {
            self.retired.insert(retired);
        }
        self.facts.retire(id, status);
        true
    }
}

/// A [`LiveStore`] as plain data, to save memory between runs and load it again.
///
/// The ranking is not saved: it is rebuilt, and every invariant checked, when a store is made
/// from this with [`LiveStore::try_from`], which gives an [`Error`] to match. A `LiveStore`
/// serialises as this, and (with the `deserialize` feature, on by default) deserialises through
/// it, so a loaded store cannot break the ranking whatever the file says.
///
/// **A loaded store is the saved one, bit for bit.** In a human-readable format (JSON, YAML,
/// TOML...) each non-integer number (the settings' half-lives and access boost, the time, each
/// importance and last touch) is written as a string: the shortest decimal that reads back as
/// the same `f64` (`"0.1"`, `"4.0"`, `"0.30000000000000004"`, `"1767225600000.0"`), which
/// `str::parse` reads exactly. So the round trip does not depend on the format's own float
/// parser: `serde_json` without its `float_roundtrip` feature, say, reads a float written as a
/// number 1 ULP off for about one value in five. A plain number is accepted too, for files
/// written by hand or by an older version. In a binary format (`is_human_readable()` false,
/// such as postcard or bincode) each is the raw `f64`.
///
/// # Example
///
/// ```
/// use agent_memory_widgets::{ErrorKind, FactId, LiveStore, SavedStore, StoreConfig};
///
/// # #[cfg(not(feature = "deserialize"))] fn main() {}
/// # #[cfg(feature = "deserialize")]
/// # fn main() -> Result<(), Box<dyn core::error::Error>> {
/// let mut store = LiveStore::new(StoreConfig::default());
/// store.write(FactId(1), "the user is Dana", 0.1 + 0.2, None)?;
/// let json = serde_json::to_string(&store)?;
/// assert!(json.contains(r#""importance":"0.30000000000000004""#));
///
/// let saved: SavedStore = serde_json::from_str(&json)?;
/// assert_eq!(LiveStore::try_from(saved.clone())?, store);
///
/// let mut broken = saved;
/// broken.facts.push(broken.facts[0].clone()); // the same id twice
/// let err = LiveStore::try_from(broken).unwrap_err();
/// assert_eq!(*err.kind(), ErrorKind::DuplicateId { id: FactId(1) });
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(
    feature = "deserialize",
    derive(serde::Deserialize),
    serde(deny_unknown_fields)
)]
pub struct SavedStore {
    /// The store's settings.
    pub config: StoreConfig,
    /// The store's current time.
    #[serde(with = "exact_time")]
    pub time: Time,
    /// Every fact, in any status.
    pub facts: Vec<Fact>,
}

impl Serialize for LiveStore {
    /// As a [`SavedStore`]: the settings, the time and every fact by id.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        struct Facts<'a>(&'a FactTable);
        impl Serialize for Facts<'_> {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_seq(self.0.values())
            }
        }
        let mut saved = serializer.serialize_struct("SavedStore", 3)?;
        saved.serialize_field("config", &self.config)?;
        saved.serialize_field("time", &Exact(self.time.get()))?;
        saved.serialize_field("facts", &Facts(&self.facts))?;
        saved.end()
    }
}

/// A saved store read back is checked as [`LiveStore::try_from`] checks it.
#[cfg(feature = "deserialize")]
impl<'de> serde::Deserialize<'de> for LiveStore {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<LiveStore, D::Error> {
        let saved = SavedStore::deserialize(deserializer)?;
        LiveStore::try_from(saved).map_err(serde::de::Error::custom)
    }
}

impl TryFrom<SavedStore> for LiveStore {
    type Error = Error;

    /// Rebuilds a store from its saved facts, checking what a store's own operations
    /// guarantee, so that a loaded store ranks, evicts and refreshes exactly as the saved one.
    ///
    /// # Errors
    ///
    /// An [`ErrorKind::InvalidOption`] naming the fact's field (`facts[2].importance`) for an
    /// importance outside (0, 1], an empty text, a last touch after the store's time, or two
    /// active facts with the same text, and naming `facts` when more facts are active than the
    /// capacity; [`ErrorKind::DuplicateId`] for an id given twice; [`ErrorKind::NoSuchFact`]
    /// when a fact is superseded by, or cites, a fact the store does not hold.
    fn try_from(saved: SavedStore) -> Result<LiveStore, Error> {
        let mut store = LiveStore::new(saved.config);
        store.time = saved.time;
        for (i, fact) in saved.facts.into_iter().enumerate() {
            let at = |field: &str| text!("facts[", i, "].", field);
            check_importance(&at("importance"), fact.importance)?;
            if fact.text.trim().is_empty() {
                let field = at("text");
                return Err(Error::invalid(
                    &field,
                    text!(field, " must be a non-empty text"),
                ));
            }
            crate::limits::check_text(&at("text"), &fact.text)?;
            if fact.last_touch > store.time {
                let field = at("lastTouch");
                return Err(Error::invalid(
                    &field,
                    text!(
                        field,
                        " must not be after the store's time ",
                        store.time,
                        ", got ",
                        fact.last_touch
                    ),
                ));
            }
            if store.facts.contains_key(&fact.id) {
                return Err(duplicate_id(fact.id));
            }
            if fact.status == Status::Active {
                if let Some(other) = store.facts.active_with_text(&fact.text) {
                    let field = at("text");
                    return Err(Error::invalid(
                        &field,
                        text!(field, " repeats the text of active fact ", other),
                    ));
                }
                let rank = store.rank(&fact);
                store.ranking(fact.kind).insert(rank);
            } else if store.config.retention().is_some() {
                store.retired.insert(retired_rank(&fact));
            }
            store.facts.insert(fact);
        }
        let mut links = Vec::new();
        for fact in store.facts.values() {
            for &cited in fact.status.superseded_by().iter().chain(&fact.sources) {
                links.push((cited, fact.id));
                if !store.facts.contains_key(&cited) {
                    return Err(Error::new(
                        ErrorKind::NoSuchFact { id: cited },
                        text!(
                            "fact ",
                            fact.id,
                            " names fact ",
                            cited,
                            ", which the store does not hold"
                        ),
                    ));
                }
            }
        }
        for (cited, by) in links {
            store.facts.link(cited, by);
        }
        let capacity = usize::try_from(store.config.capacity()).unwrap_or(usize::MAX);
        if store.active_count() > capacity {
            return Err(Error::invalid(
                "facts",
                text!(
                    "facts has ",
                    store.active_count(),
                    " active facts, more than the capacity of ",
                    capacity
                ),
            ));
        }
        if let Some(keep) = store.config.retention() {
            if store.retired.len() > usize::try_from(keep).unwrap_or(usize::MAX) {
                return Err(Error::invalid(
                    "facts",
                    text!(
                        "facts has ",
                        store.retired.len(),
                        " retired facts, more than the retention of ",
                        keep
                    ),
                ));
            }
        }
        Ok(store)
    }
}

impl StoreConfig {
    /// Settings by name, for a program that sets its own: see [`StoreConfigBuilder`].
    ///
    /// ```
    /// use agent_memory_widgets::StoreConfig;
    ///
    /// # fn main() -> Result<(), agent_memory_widgets::Error> {
    /// let week = 604_800.0; // seconds
    /// let config = StoreConfig::builder().half_life(week).capacity(1000).access_boost(0.5).retention(1000).build()?;
    /// assert_eq!((config.half_life(), config.capacity(), config.retention()), (week, 1000, Some(1000)));
    /// assert_eq!(
    ///     StoreConfig::builder().capacity(10).build().unwrap_err().message(),
    ///     "half_life must be set: the time unit is the caller's, so it has no default"
    /// );
    /// # Ok(())
    /// # }
    /// ```
    pub fn builder() -> StoreConfigBuilder {
        StoreConfigBuilder::default()
    }

    /// The seed design's settings, which the widget shows: a half-life of
    /// [`HALF_LIFE`](crate::HALF_LIFE) (4 time units), [`CAPACITY`](crate::CAPACITY) (4)
    /// active facts and an access boost of [`ACCESS_BOOST`](crate::ACCESS_BOOST) (0.5). `Default`
    /// gives the same.
    pub fn seed() -> StoreConfig {
        StoreConfig::default()
    }

    /// `0.5 ^ ((t - lastTouch) / halfLife)`, with the half-life of the fact's kind.
    pub fn recency(&self, fact: &Fact, t: Time) -> f64 {
        exp2(-(t.get() - fact.last_touch.get()) / self.half_life_of(fact.kind))
    }

    /// `1 + accessBoost * reads`.
    pub fn access(&self, fact: &Fact) -> f64 {
        1.0 + self.access_boost() * f64::from(fact.reads)
    }

    /// `importance * recency(t) * access`.
    pub fn score(&self, fact: &Fact, t: Time) -> f64 {
        fact.importance * self.recency(fact, t) * self.access(fact)
    }

    /// The time-independent ranking key within a kind: `log2(score(t)) + t / halfLife` for
    /// every `t`, with the kind's half-life.
    fn key(&self, fact: &Fact) -> f64 {
        log2(fact.importance)
            + fact.last_touch.get() / self.half_life_of(fact.kind)
            + log2(self.access(fact))
    }
}

/// Checks what every written fact needs: an importance in (0, 1] and a text with a word.
/// Checks a fact's importance and text. A library write (`LIMIT`) holds the text to
/// [`MAX_TEXT_CHARS`](crate::limits::MAX_TEXT_CHARS), as a turn is held; the widget's replays
/// write only texts their scenario checked, to the page's smaller limit.
fn check_fact<const LIMIT: bool>(importance: f64, text: &str) -> Result<(), Error> {
    check_importance("importance", importance)?;
    if text.trim().is_empty() {
        return Err(Error::invalid("text", "text must be a non-empty text"));
    }
    if LIMIT {
        crate::limits::check_text("text", text)?;
    }
    Ok(())
}

fn no_such_fact(id: FactId) -> Error {
    Error::new(ErrorKind::NoSuchFact { id }, text!("there is no fact ", id))
}

/// A retired fact's place in the order retention drops them: the oldest last touch first, then
/// the lowest id. A retired fact is never touched again, so its place never changes.
fn retired_rank(fact: &Fact) -> Rank {
    Rank {
        key: fact.last_touch.get(),
        last_touch: fact.last_touch.get(),
        id: fact.id,
    }
}

fn duplicate_id(id: FactId) -> Error {
    Error::new(
        ErrorKind::DuplicateId { id },
        text!("fact ", id, " already exists; ids must be unique"),
    )
}

/// Checks an importance: a number in (0, 1].
pub(crate) fn check_importance(field: &str, importance: f64) -> Result<(), Error> {
    if importance > 0.0 && importance <= 1.0 {
        Ok(())
    } else {
        Err(not_a_number(field, "above 0 and at most 1", importance))
    }
}
