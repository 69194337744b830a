//! Small newtypes for the units the policies count in and the numbers that name things, so that
//! a token count is never confused with a turn number, a fact id with an event index, and a time
//! is always a checked, finite, non-negative number.

use crate::prelude::*;
use core::fmt;
use core::ops::{Add, AddAssign, Sub, SubAssign};

use serde::Serialize;

use crate::error::{fmt_number, Error};
use crate::limits::MAX_TIME;
use crate::text::Piece;

/// A number of tokens: by default a word count ([`Tokens::of`]), so that every run is
/// reproducible; a session may count with another [`TokenCounter`](crate::TokenCounter), such
/// as [`Estimate`](crate::Estimate) or your tokenizer, or take a turn's count as given
/// ([`Turn::with_tokens`](crate::Turn::with_tokens)).
///
/// Arithmetic saturates instead of wrapping: a token count is never negative and never wraps.
///
/// # Example
///
/// ```
/// use agent_memory_widgets::Tokens;
///
/// assert_eq!(Tokens::of("Hi there,\u{2003}Dana!\n"), Tokens(3));
/// assert_eq!(Tokens(5) - Tokens(7), Tokens(0));
/// // It compares with a plain number, as the JS API's numbers do.
/// assert!(Tokens(30) <= 40 && Tokens(41) > 40 && Tokens(40) == 40);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[cfg_attr(feature = "deserialize", derive(serde::Deserialize))]
#[serde(transparent)]
pub struct Tokens(pub u32);

impl Tokens {
    /// The token estimate of `text`: its words, split on Unicode whitespace
    /// (`"a\u{a0}b"` is two words). What [`Words`](crate::Words), the default counter, counts.
    pub fn of(text: &str) -> Tokens {
        let words = crate::text::words(text).count();
        Tokens(u32::try_from(words).unwrap_or(u32::MAX))
    }
}

impl Add for Tokens {
    type Output = Tokens;
    fn add(self, other: Tokens) -> Tokens {
        Tokens(self.0.saturating_add(other.0))
    }
}

impl AddAssign for Tokens {
    fn add_assign(&mut self, other: Tokens) {
        *self = *self + other;
    }
}

impl Sub for Tokens {
    type Output = Tokens;
    fn sub(self, other: Tokens) -> Tokens {
        Tokens(self.0.saturating_sub(other.0))
    }
}

impl SubAssign for Tokens {
    fn sub_assign(&mut self, other: Tokens) {
        *self = *self - other;
    }
}

impl PartialEq<u32> for Tokens {
    fn eq(&self, other: &u32) -> bool {
        self.0 == *other
    }
}

impl PartialOrd<u32> for Tokens {
    fn partial_cmp(&self, other: &u32) -> Option<core::cmp::Ordering> {
        Some(self.0.cmp(other))
    }
}

impl fmt::Display for Tokens {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl Piece for Tokens {
    fn push_to(&self, out: &mut String) {
        self.0.push_to(out);
    }
}

/// A point on the forgetting timeline: a number from 0 to [`MAX_TIME`](crate::limits::MAX_TIME)
/// (10^13).
///
/// **The unit is the caller's.** A time and the half-lives of a
/// [`StoreConfig`](crate::StoreConfig) are in one unit, whichever the caller picks: turns of a
/// conversation (the widget's), seconds, or milliseconds. Only their ratio enters a score,
/// `0.5^((t - lastTouch) / halfLife)`. The range holds Unix time in seconds (about 1.8e9 today)
/// and in milliseconds (about 1.8e12 today), and the half-life limit
/// ([`MAX_HALF_LIFE`](crate::limits::MAX_HALF_LIFE)) is as large, so a half-life of a year fits
/// in either unit. A store's times only move forward, so a store started at the Unix time of its
/// first write keeps working for centuries.
///
/// # Example
///
/// ```
/// use agent_memory_widgets::{FactId, LiveStore, StoreConfig, Time};
///
/// # fn main() -> Result<(), agent_memory_widgets::Error> {
/// assert_eq!(Time::new(6.0)?.get(), 6.0);
/// assert!(Time::new(6.0)? == 6.0 && Time::ZERO < 2.0); // compares with a plain number
/// assert_eq!(
///     Time::new(-1.0).unwrap_err().to_string(),
///     "t must be a number from 0 to 10000000000000, got -1"
/// );
///
/// // Unix milliseconds, with a half-life of one day in milliseconds.
/// let day = 86_400_000.0;
/// let mut store = LiveStore::new(StoreConfig::new(day, 100, 0.5)?);
/// store.advance_to(Time::new(1_767_225_600_000.0)?)?; // 2026-01-01
/// store.write(FactId(1), "the user is Dana", 0.8, None)?;
/// store.advance_to(Time::new(1_767_225_600_000.0 + day)?)?;
/// assert_eq!(store.score(FactId(1)), Some(0.4)); // one half-life later
/// # Ok(())
/// # }
/// ```
///
/// Times the crate computes, such as a [`Forecast`](crate::Forecast), may lie past `MAX_TIME`;
/// they are finite and at least 0 too.
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd, Serialize)]
#[serde(transparent)]
pub struct Time(pub(crate) f64);

impl Time {
    /// The start of the timeline.
    pub const ZERO: Time = Time(0.0);

    /// A checked time: from 0 to [`MAX_TIME`](crate::limits::MAX_TIME).
    ///
    /// # Errors
    ///
    /// When `t` is not a number in that range.
    pub fn new(t: f64) -> Result<Time, Error> {
        Time::named("t", t)
    }

    /// A checked time whose error message names `field`.
    pub(crate) fn named(field: &str, t: f64) -> Result<Time, Error> {
        if (0.0..=MAX_TIME).contains(&t) {
            // Normalise -0 to 0 so that equal times serialise identically.
            Ok(Time(t + 0.0))
        } else {
            Err(Error::invalid(
                field,
                text!(
                    field,
                    " must be a number from 0 to ",
                    fmt_number(MAX_TIME),
                    ", got ",
                    fmt_number(t)
                ),
            ))
        }
    }

    /// The time as a plain number.
    pub fn get(self) -> f64 {
        self.0
    }
}

/// A time read back is checked as [`Time::new`] checks it.
#[cfg(feature = "deserialize")]
impl<'de> serde::Deserialize<'de> for Time {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Time, D::Error> {
        Time::new(f64::deserialize(deserializer)?).map_err(serde::de::Error::custom)
    }
}

impl PartialEq<f64> for Time {
    fn eq(&self, other: &f64) -> bool {
        self.0 == *other
    }
}

impl PartialOrd<f64> for Time {
    fn partial_cmp(&self, other: &f64) -> Option<core::cmp::Ordering> {
        self.0.partial_cmp(other)
    }
}

impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&fmt_number(self.0))
    }
}

impl Piece for Time {
    fn push_to(&self, out: &mut String) {
        out.push_str(&fmt_number(self.0));
    }
}

/// A number that names one thing, such as a fact or a turn: a `u32` that cannot be passed where
/// another kind of number is expected. It compares with a plain `u32` for convenience, and
/// serialises as one.
macro_rules! id_newtype {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
        #[cfg_attr(feature = "deserialize", derive(serde::Deserialize))]
        #[serde(transparent)]
        pub struct $name(pub u32);

        impl PartialEq<u32> for $name {
            fn eq(&self, other: &u32) -> bool {
                self.0 == *other
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}", self.0)
            }
        }

        impl Piece for $name {
            fn push_to(&self, out: &mut String) {
                self.0.push_to(out);
            }
        }
    };
}

id_newtype! {
    /// A fact's id, unique within a store.
    ///
    /// ```
    /// use agent_memory_widgets::FactId;
    ///
    /// assert_eq!(FactId(3).to_string(), "3");
    /// assert_eq!(FactId(3), 3);
    /// ```
    FactId
}

id_newtype! {
    /// A turn's number in a session, counting from 1 as the widget does.
    ///
    /// ```
    /// use agent_memory_widgets::TurnNumber;
    ///
    /// assert_eq!(TurnNumber(4).to_string(), "4");
    /// ```
    TurnNumber
}

id_newtype! {
    /// A write event's index in a scenario, counting from 0: what
    /// [`FactStore::fire`](crate::FactStore::fire) takes.
    EventIndex
}

impl TurnNumber {
    /// The turn's position in a list of turns, counting from 0; `None` for turn 0, which does
    /// not exist.
    pub fn index(self) -> Option<usize> {
        usize::try_from(self.0).ok()?.checked_sub(1)
    }
}

impl EventIndex {
    /// The index as a `usize`, to index a list.
    pub fn get(self) -> usize {
        self.0 as usize
    }
}
