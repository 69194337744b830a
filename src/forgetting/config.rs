//! A fact store's settings: [`StoreConfig`], checked, its builder, the seed's values, the
//! kinds of fact each with its half-life, and how a saved number is written ([`Exact`]). Every
//! file of the store may import this one; it imports none of them.

use serde::Serialize;

use crate::error::{number_from, whole_number, Error};
use crate::limits::{MAX_HALF_LIFE, MIN_HALF_LIFE};
use crate::names::named;

/// The seed's half-life: recency halves every 4 time units.
pub const HALF_LIFE: f64 = 4.0;
/// The seed's capacity: at most 4 active facts after a write.
pub const CAPACITY: u32 = 4;
/// The seed's access boost: each read adds 0.5 to the access factor.
pub const ACCESS_BOOST: f64 = 0.5;
/// The largest access boost accepted, which keeps every score finite.
pub const MAX_ACCESS_BOOST: f64 = 1000.0;

/// A fact store's validated settings, and the score formula.
///
/// # Example
///
/// ```
/// use agent_memory_widgets::StoreConfig;
///
/// let config = StoreConfig::default();
/// assert_eq!((config.half_life(), config.capacity(), config.access_boost()), (4.0, 4, 0.5));
/// assert_eq!(
///     StoreConfig::new(0.0, 4, 0.5).unwrap_err().message(),
///     "half_life must be a number from 0.001 to 10000000000000, got 0"
/// );
/// ```
///
/// Serialised with its fields in camelCase (`halfLife`, `capacity`, `accessBoost`,
/// `semanticHalfLife`, `proceduralHalfLife`, and `retention` when one is set), each number exactly
/// as a [`SavedStore`](crate::SavedStore) writes it; read back, every value is checked again.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(into = "StoreConfigRecord")]
#[cfg_attr(
    feature = "deserialize",
    derive(serde::Deserialize),
    serde(try_from = "StoreConfigRecord")
)]
pub struct StoreConfig {
    half_life: f64,
    capacity: u32,
    access_boost: f64,
    // The half-lives of semantic and procedural facts, in that order.
    lasting_half_lives: [f64; 2],
    // How many retired facts a `LiveStore` keeps; `None` keeps them all.
    retention: Option<u32>,
}

/// A [`StoreConfig`] as saved: plain numbers, checked when read back.
#[derive(Clone, Copy)]
#[cfg_attr(
    feature = "deserialize",
    derive(serde::Deserialize),
    serde(deny_unknown_fields, rename_all = "camelCase")
)]
struct StoreConfigRecord {
    #[cfg_attr(feature = "deserialize", serde(with = "exact"))]
    half_life: f64,
    capacity: u32,
    #[cfg_attr(feature = "deserialize", serde(with = "exact"))]
    access_boost: f64,
    #[cfg_attr(feature = "deserialize", serde(with = "exact"))]
    semantic_half_life: f64,
    #[cfg_attr(feature = "deserialize", serde(with = "exact"))]
    procedural_half_life: f64,
    #[cfg_attr(feature = "deserialize", serde(default))]
    retention: Option<u32>,
}

impl Serialize for StoreConfigRecord {
    /// Each number exactly ([`Exact`]). `retention` is left out when none is set, in a
    /// human-readable format, so that a config without one reads as it always did; a binary
    /// format, which has no field names to miss, always has it.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let retention = self.retention.is_some() || !serializer.is_human_readable();
        let mut record = serializer.serialize_struct("StoreConfig", 5 + usize::from(retention))?;
        record.serialize_field("halfLife", &Exact(self.half_life))?;
        record.serialize_field("capacity", &self.capacity)?;
        record.serialize_field("accessBoost", &Exact(self.access_boost))?;
        record.serialize_field("semanticHalfLife", &Exact(self.semantic_half_life))?;
        record.serialize_field("proceduralHalfLife", &Exact(self.procedural_half_life))?;
        if retention {
            record.serialize_field("retention", &self.retention)?;
        } else {
            record.skip_field("retention")?;
        }
        record.end()
    }
}

impl From<StoreConfig> for StoreConfigRecord {
    fn from(config: StoreConfig) -> StoreConfigRecord {
        StoreConfigRecord {
            half_life: config.half_life,
            capacity: config.capacity,
            access_boost: config.access_boost,
            semantic_half_life: config.lasting_half_lives[0],
            procedural_half_life: config.lasting_half_lives[1],
            retention: config.retention,
        }
    }
}

impl TryFrom<StoreConfigRecord> for StoreConfig {
    type Error = Error;

    fn try_from(record: StoreConfigRecord) -> Result<StoreConfig, Error> {
        let config = StoreConfig::new(record.half_life, record.capacity, record.access_boost)?
            .with_lasting_half_lives(record.semantic_half_life, record.procedural_half_life)?;
        Ok(StoreConfig {
            retention: record.retention,
            ..config
        })
    }
}

/// How much more slowly distilled knowledge fades than episodes, by default: semantic facts
/// have 4 times the episodic half-life, procedural rules 8 times. A refund's amount stays true
/// long after the chat about it is stale; a policy rule longer still.
pub const LASTING_HALF_LIFE_FACTORS: [f64; 2] = [4.0, 8.0];

impl StoreConfig {
    /// Checks each value: `half_life` from [`MIN_HALF_LIFE`] to [`MAX_HALF_LIFE`], `capacity`
    /// at least 1, `access_boost` from 0 to [`MAX_ACCESS_BOOST`].
    ///
    /// # Errors
    ///
    /// When a value is outside its range; the message names it.
    pub fn new(half_life: f64, capacity: u32, access_boost: f64) -> Result<StoreConfig, Error> {
        check_half_life("half_life", half_life)?;
        let capacity = whole_number("capacity", f64::from(capacity), 1, u32::MAX)?;
        number_from("access_boost", access_boost, 0.0, MAX_ACCESS_BOOST)?;
        let lasting_half_lives = LASTING_HALF_LIFE_FACTORS.map(|factor| factor * half_life);
        Ok(StoreConfig {
            half_life,
            capacity,
            access_boost,
            lasting_half_lives,
            retention: None,
        })
    }

    /// The same settings with the half-lives of semantic and procedural facts set, each from
    /// [`MIN_HALF_LIFE`] to [`MAX_HALF_LIFE`] (by default 4 and 8 times the episodic half-life).
    ///
    /// # Errors
    ///
    /// When a half-life is outside that range; the message names it.
    pub fn with_lasting_half_lives(
        self,
        semantic: f64,
        procedural: f64,
    ) -> Result<StoreConfig, Error> {
        check_half_life("semantic_half_life", semantic)?;
        check_half_life("procedural_half_life", procedural)?;
        Ok(StoreConfig {
            lasting_half_lives: [semantic, procedural],
            ..self
        })
    }

    /// The half-life of facts of `kind`.
    pub fn half_life_of(&self, kind: FactKind) -> f64 {
        match kind {
            FactKind::Episodic => self.half_life,
            FactKind::Semantic => self.lasting_half_lives[0],
            FactKind::Procedural => self.lasting_half_lives[1],
        }
    }

    /// Time units for recency to halve.
    pub fn half_life(&self) -> f64 {
        self.half_life
    }

    /// The most facts active after a write.
    pub fn capacity(&self) -> u32 {
        self.capacity
    }

    /// How much each read adds to the access factor.
    pub fn access_boost(&self) -> f64 {
        self.access_boost
    }

    /// The same settings with a retention: a [`LiveStore`](crate::LiveStore) keeps at most
    /// `retired` retired facts (superseded or evicted), and drops the ones touched longest ago for
    /// good, so that a store at capacity holds at most `capacity + retired` facts however long it
    /// runs. A dropped fact is gone as [`LiveStore::forget`](crate::LiveStore::forget) removes it
    /// (the facts superseded by it go with it; a distilled fact no longer cites it). `0` keeps
    /// none.
    ///
    /// Without one (the default) every retired fact is kept for the record, and a store grows with
    /// every write. A [`FactStore`](crate::FactStore), the widget's timeline, keeps every retired
    /// fact whatever its config says: it shows them.
    ///
    /// ```
    /// use agent_memory_widgets::{FactId, LiveStore, StoreConfig};
    ///
    /// # fn main() -> Result<(), agent_memory_widgets::Error> {
    /// let config = StoreConfig::new(4.0, 2, 0.5)?.with_retention(1);
    /// let mut store = LiveStore::new(config);
    /// for id in 1..=10 {
    ///     store.write(FactId(id), &format!("fact {id}"), 0.5, None)?;
    /// }
    /// // Two active facts and the one retired last: facts 1 to 7 are gone.
    /// assert_eq!(store.facts().map(|fact| fact.id.0).collect::<Vec<_>>(), [8, 9, 10]);
    /// assert_eq!(config.retention(), Some(1));
    /// assert_eq!(StoreConfig::default().retention(), None);
    /// # Ok(())
    /// # }
    /// ```
    #[must_use]
    pub fn with_retention(self, retired: u32) -> StoreConfig {
        StoreConfig {
            retention: Some(retired),
            ..self
        }
    }

    /// How many retired facts a [`LiveStore`](crate::LiveStore) keeps: `None`, the default, keeps
    /// them all.
    pub fn retention(&self) -> Option<u32> {
        self.retention
    }
}

/// Checks a half-life: a number from [`MIN_HALF_LIFE`] to [`MAX_HALF_LIFE`], so that every
/// score, key and forecast derived from it stays finite.
fn check_half_life(field: &str, value: f64) -> Result<f64, Error> {
    number_from(field, value, MIN_HALF_LIFE, MAX_HALF_LIFE)
}

impl Default for StoreConfig {
    fn default() -> StoreConfig {
        StoreConfig {
            half_life: HALF_LIFE,
            capacity: CAPACITY,
            access_boost: ACCESS_BOOST,
            lasting_half_lives: LASTING_HALF_LIFE_FACTORS.map(|factor| factor * HALF_LIFE),
            retention: None,
        }
    }
}

/// What kind of memory a fact is. Each kind fades with its own half-life
/// ([`StoreConfig::half_life_of`]): lasting knowledge more slowly than raw episodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FactKind {
    /// Something that happened, remembered as it was said.
    Episodic,
    /// A durable fact distilled from episodes, such as what a refund came to.
    Semantic,
    /// A rule of how to act, distilled from episodes.
    Procedural,
}

named!(FactKind, "kind", {
    Episodic => "episodic",
    Semantic => "semantic",
    Procedural => "procedural",
});

impl FactKind {
    /// Every kind, in the order of [`FactKind::index`].
    pub const ALL: [FactKind; 3] = [FactKind::Episodic, FactKind::Semantic, FactKind::Procedural];

    /// The kind's position in [`FactKind::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

/// [`StoreConfig`] by named setters, checked at [`build`](StoreConfigBuilder::build):
/// `half_life` and `capacity` must be set; `access_boost` is
/// [`ACCESS_BOOST`](crate::ACCESS_BOOST) unless set; the lasting half-lives are those
/// [`StoreConfig::new`] gives unless set; no retention unless set.
#[derive(Clone, Copy, Debug, Default)]
#[must_use]
pub struct StoreConfigBuilder {
    half_life: Option<f64>,
    capacity: Option<u32>,
    access_boost: Option<f64>,
    lasting_half_lives: Option<(f64, f64)>,
    retention: Option<u32>,
}

impl StoreConfigBuilder {
    /// Time units for recency to halve, in the caller's unit ([`Time`](crate::Time)).
    pub fn half_life(self, half_life: f64) -> StoreConfigBuilder {
        StoreConfigBuilder {
            half_life: Some(half_life),
            ..self
        }
    }

    /// The most facts active after a write, at least 1.
    pub fn capacity(self, facts: u32) -> StoreConfigBuilder {
        StoreConfigBuilder {
            capacity: Some(facts),
            ..self
        }
    }

    /// How much each read adds to the access factor.
    pub fn access_boost(self, boost: f64) -> StoreConfigBuilder {
        StoreConfigBuilder {
            access_boost: Some(boost),
            ..self
        }
    }

    /// The half-lives of semantic and procedural facts
    /// ([`StoreConfig::with_lasting_half_lives`]).
    pub fn lasting_half_lives(self, semantic: f64, procedural: f64) -> StoreConfigBuilder {
        StoreConfigBuilder {
            lasting_half_lives: Some((semantic, procedural)),
            ..self
        }
    }

    /// The most retired facts a [`LiveStore`](crate::LiveStore) keeps
    /// ([`StoreConfig::with_retention`]).
    pub fn retention(self, retired: u32) -> StoreConfigBuilder {
        StoreConfigBuilder {
            retention: Some(retired),
            ..self
        }
    }

    /// The settings, each checked.
    ///
    /// # Errors
    ///
    /// An [`ErrorKind::InvalidOption`](crate::ErrorKind::InvalidOption) naming `half_life` or
    /// `capacity` when it was not set, or the first value out of its range, as [`StoreConfig::new`]
    /// names it.
    pub fn build(self) -> Result<StoreConfig, Error> {
        let Some(half_life) = self.half_life else {
            return Err(Error::invalid(
                "half_life",
                "half_life must be set: the time unit is the caller's, so it has no default",
            ));
        };
        let Some(capacity) = self.capacity else {
            return Err(Error::invalid(
                "capacity",
                "capacity must be set: how many facts stay active has no default",
            ));
        };
        let boost = self.access_boost.unwrap_or(crate::forgetting::ACCESS_BOOST);
        let mut config = StoreConfig::new(half_life, capacity, boost)?;
        if let Some((semantic, procedural)) = self.lasting_half_lives {
            config = config.with_lasting_half_lives(semantic, procedural)?;
        }
        if let Some(retired) = self.retention {
            config = config.with_retention(retired);
        }
        Ok(config)
    }
}

/// An `f64` as a saved store writes it: in a human-readable format the shortest decimal that
/// reads back as the same number, as a string; in a binary format the raw number. See
/// [`SavedStore`].
pub(crate) struct Exact(pub(crate) f64);

impl Serialize for Exact {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if serializer.is_human_readable() {
            serializer.collect_str(&Shortest(self.0))
        } else {
            serializer.serialize_f64(self.0)
        }
    }
}

/// Rust's `Debug` for `f64`: the shortest decimal that reads back as the same number, in plain
/// form from 1e-4 to 1e16 (`4.0`, `0.1`) and in scientific form outside it (`1e-7`).
struct Shortest(f64);

impl core::fmt::Display for Shortest {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        core::fmt::Debug::fmt(&self.0, f)
    }
}

/// `#[serde(with = "exact")]`: an `f64` field saved exactly (see [`Exact`]).
pub(crate) mod exact {
    use crate::forgetting::config::Exact;
    use serde::Serialize;

    pub(crate) fn serialize<S: serde::Serializer>(
        value: &f64,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        Exact(*value).serialize(serializer)
    }

    /// A number written as a string (read with `str::parse`, which is exact) or as a number.
    #[cfg(feature = "deserialize")]
    pub(crate) fn deserialize<'de, D: serde::Deserializer<'de>>(
        deserializer: D,
    ) -> Result<f64, D::Error> {
        struct Number;
        impl serde::de::Visitor<'_> for Number {
            type Value = f64;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("a number, or a number written as a string")
            }
            fn visit_f64<E: serde::de::Error>(self, value: f64) -> Result<f64, E> {
                Ok(value)
            }
            fn visit_u64<E: serde::de::Error>(self, value: u64) -> Result<f64, E> {
                Ok(value as f64)
            }
            fn visit_i64<E: serde::de::Error>(self, value: i64) -> Result<f64, E> {
                Ok(value as f64)
            }
            fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<f64, E> {
                value
                    .trim()
                    .parse()
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Str(value), &self))
            }
        }
        if deserializer.is_human_readable() {
            deserializer.deserialize_any(Number)
        } else {
            <f64 as serde::Deserialize>::deserialize(deserializer)
        }
    }
}

/// `#[serde(with = "exact_time")]`: a [`Time`] field saved exactly, and checked when read.
pub(crate) mod exact_time {
    use crate::forgetting::config::Exact;
    use crate::time::Time;
    use serde::Serialize;

    pub(crate) fn serialize<S: serde::Serializer>(
        value: &Time,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        Exact(value.get()).serialize(serializer)
    }

    #[cfg(feature = "deserialize")]
    pub(crate) fn deserialize<'de, D: serde::Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Time, D::Error> {
        Time::new(crate::forgetting::config::exact::deserialize(deserializer)?)
            .map_err(serde::de::Error::custom)
    }
}
