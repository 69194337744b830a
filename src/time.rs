//! [`Time`]: a point on the forgetting timeline, always a checked, finite, non-negative number.

use crate::prelude::*;
use core::fmt;

use serde::Serialize;

use crate::error::{not_a_number, Error};
use crate::limits::MAX_TIME;
use crate::text::{fmt_number, Piece};

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
            Err(not_a_number(
                field,
                &text!("from 0 to ", fmt_number(MAX_TIME)),
                t,
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
