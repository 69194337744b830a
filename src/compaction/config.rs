//! A session's settings: [`SessionConfig`], checked, its builder, and [`SessionOptions`], the
//! unchecked options a JS caller or a JSON file writes. Every file of the session engine may
//! import this one; it imports none of them but the script's [`TurnSpec`].

use crate::prelude::*;
use serde::Serialize;

use crate::compaction::TurnSpec;
use crate::error::{whole_number, Error};
use crate::units::Tokens;

/// The seed's token budget of the live window.
pub const BUDGET: Tokens = Tokens(40);
/// The seed's number of most recent turns kept HOT and verbatim.
pub const HOT_N: u32 = 2;

/// A session's validated settings.
///
/// # Example
///
/// ```
/// use agent_memory_widgets::{SessionConfig, Tokens};
///
/// # fn main() -> Result<(), agent_memory_widgets::Error> {
/// let config = SessionConfig::new(Tokens(60), 3)?; // a budget of 60 tokens, 3 HOT turns
/// assert_eq!((config.budget(), config.hot_n()), (Tokens(60), 3));
/// assert_eq!(SessionConfig::default().budget(), Tokens(40));
/// assert_eq!(
///     SessionConfig::new(Tokens(40), 0).unwrap_err().message(),
///     "hot_n must be a whole number of at least 1, got 0"
/// );
/// # Ok(())
/// # }
/// ```
///
/// Serialised as `{ "budget": 40, "hotN": 2 }`, with `"compactAt": 70` and `"compactTo": 50`
/// when they are set (a format that is not human-readable, such as postcard, always has both);
/// read back, every value is checked again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "deserialize",
    derive(serde::Deserialize),
    serde(try_from = "SessionConfigRecord")
)]
pub struct SessionConfig {
    pub(super) budget: Tokens,
    pub(super) hot_n: u32,
    pub(super) compact_at: Option<u32>,
    pub(super) compact_to: Option<u32>,
    pub(super) hard_budget: bool,
    #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
    pub(super) retention: Option<u32>,
}

/// A [`SessionConfig`] as saved, checked when read back.
#[cfg(feature = "deserialize")]
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct SessionConfigRecord {
    budget: Tokens,
    hot_n: u32,
    #[serde(default)]
    compact_at: Option<u32>,
    #[serde(default)]
    compact_to: Option<u32>,
    #[serde(default)]
    hard_budget: bool,
    #[serde(default)]
    retention: Option<u32>,
}

#[cfg(feature = "deserialize")]
impl TryFrom<SessionConfigRecord> for SessionConfig {
    type Error = Error;

    fn try_from(record: SessionConfigRecord) -> Result<SessionConfig, Error> {
        let config = SessionConfig::new(record.budget, record.hot_n)?
            .with_compact_at(record.compact_at)?
            .with_compact_to(record.compact_to)?;
        Ok(SessionConfig {
            hard_budget: record.hard_budget,
            #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
            retention: record.retention,
            ..config
        })
    }
}

impl SessionConfig {
    /// The settings in `options`, checked as [`Session::from_options`] checks them; its script
    /// is not read. (A wasm core without custom scripts builds its sessions from this and the
    /// refund desk, and so carries no script checks: src/wasm/.)
    pub(crate) fn from_options(options: &SessionOptions) -> Result<SessionConfig, Error> {
        let budget = whole_number(
            "budget",
            options.budget.unwrap_or(f64::from(BUDGET.0)),
            1,
            u32::MAX,
        )?;
        let hot_n = whole_number(
            "hot_n",
            options.hot_n.unwrap_or(f64::from(HOT_N)),
            1,
            u32::MAX,
        )?;
        let compact_at = match options.compact_at {
            Some(percent) => Some(whole_number("compact_at", percent, 1, 100)?),
            None => None,
        };
        let compact_to = match options.compact_to {
            Some(percent) => Some(whole_number("compact_to", percent, 1, 100)?),
            None => None,
        };
        SessionConfig::new(Tokens(budget), hot_n)?
            .with_compact_at(compact_at)?
            .with_compact_to(compact_to)
    }

    /// Checks that `budget` and `hot_n` are at least 1.
    ///
    /// # Errors
    ///
    /// An [`ErrorKind::InvalidOption`](crate::ErrorKind) naming `budget` or `hot_n` when it is 0.
    pub fn new(budget: Tokens, hot_n: u32) -> Result<SessionConfig, Error> {
        let budget = whole_number("budget", f64::from(budget.0), 1, u32::MAX)?;
        let hot_n = whole_number("hot_n", f64::from(hot_n), 1, u32::MAX)?;
        Ok(SessionConfig {
            budget: Tokens(budget),
            hot_n,
            compact_at: None,
            compact_to: None,
            hard_budget: false,
            #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
            retention: None,
        })
    }

    /// The same settings with every policy that compacts on a token count triggered at
    /// `percent` of the budget, a whole number from 1 to 100; `None` leaves each policy its own
    /// trigger (ours at 100%, Letta's and Codex's at 90%).
    ///
    /// ```
    /// use agent_memory_widgets::{SessionConfig, Tokens};
    ///
    /// # fn main() -> Result<(), agent_memory_widgets::Error> {
    /// let config = SessionConfig::new(Tokens(40), 2)?.with_compact_at(Some(70))?;
    /// assert_eq!(config.compact_at(), Some(70));
    /// assert_eq!(config.threshold(100), 28); // 70% of 40, whatever the policy's own share
    /// assert_eq!(SessionConfig::default().threshold(90), 36); // Letta's own 90%
    /// assert_eq!(
    ///     config.with_compact_at(Some(0)).unwrap_err().message(),
    ///     "compact_at must be a whole number of at least 1, got 0"
    /// );
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// # Errors
    ///
    /// An [`ErrorKind::InvalidOption`](crate::ErrorKind) naming `compact_at` when it is not from
    /// 1 to 100.
    pub fn with_compact_at(self, percent: Option<u32>) -> Result<SessionConfig, Error> {
        let compact_at = match percent {
            Some(percent) => Some(whole_number("compact_at", f64::from(percent), 1, 100)?),
            None => None,
        };
        Ok(SessionConfig { compact_at, ..self })
    }

    /// The share of the budget, in percent, at which every policy with a token trigger compacts,
    /// when it is set.
    pub fn compact_at(&self) -> Option<u32> {
        self.compact_at
    }

    /// The same settings with each [`HotWarmCold`](crate::HotWarmCold) compaction bringing the
    /// window down to `percent` of the budget, a whole number from 1 to 100; `None` is the seed's
    /// 100%. [`compact_at`](SessionConfig::compact_at) stays the trigger: compacting well under it
    /// leaves room for the turns to come, so the next compaction (a model call for each summary)
    /// comes that much later. The framework policies keep their own targets.
    ///
    /// ```
    /// use agent_memory_widgets::{SessionConfig, Tokens};
    ///
    /// # fn main() -> Result<(), agent_memory_widgets::Error> {
    /// let config = SessionConfig::new(Tokens(8000), 4)?
    ///     .with_compact_at(Some(90))?
    ///     .with_compact_to(Some(50))?;
    /// assert_eq!((config.compact_to(), config.target()), (Some(50), Tokens(4000)));
    /// assert_eq!(SessionConfig::default().target(), Tokens(40));
    /// assert_eq!(
    ///     config.with_compact_to(Some(101)).unwrap_err().message(),
    ///     "compact_to must be a whole number of at most 100, got 101"
    /// );
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// # Errors
    ///
    /// An [`ErrorKind::InvalidOption`](crate::ErrorKind) naming `compact_to` when it is not from
    /// 1 to 100.
    pub fn with_compact_to(self, percent: Option<u32>) -> Result<SessionConfig, Error> {
        let compact_to = match percent {
            Some(percent) => Some(whole_number("compact_to", f64::from(percent), 1, 100)?),
            None => None,
        };
        Ok(SessionConfig { compact_to, ..self })
    }

    /// The share of the budget, in percent, that a [`HotWarmCold`](crate::HotWarmCold) compaction
    /// brings the window down to, when it is set (else 100).
    pub fn compact_to(&self) -> Option<u32> {
        self.compact_to
    }

    /// What a [`HotWarmCold`](crate::HotWarmCold) compaction brings the window down to:
    /// [`compact_to`](SessionConfig::compact_to) percent of the budget, rounded down, or the
    /// whole budget.
    pub fn target(&self) -> Tokens {
        match self.compact_to {
            Some(percent) => Tokens((u64::from(self.budget.0) * u64::from(percent) / 100) as u32),
            None => self.budget,
        }
    }

    /// A policy's trigger in tokens: [`compact_at`](SessionConfig::compact_at) percent of the
    /// budget when it is set, else the policy's `own` percent, rounded down.
    pub fn threshold(&self, own: u32) -> u64 {
        u64::from(self.budget.0) * u64::from(self.compact_at.unwrap_or(own)) / 100
    }

    /// The most tokens the window may hold.
    pub fn budget(&self) -> Tokens {
        self.budget
    }

    /// How many of the latest turns stay verbatim at a compaction.
    pub fn hot_n(&self) -> u32 {
        self.hot_n
    }
}

impl SessionConfig {
    /// Settings by name, for a program that sets its own: see [`SessionConfigBuilder`].
    ///
    /// ```
    /// use agent_memory_widgets::{SessionConfig, Tokens};
    ///
    /// # fn main() -> Result<(), agent_memory_widgets::Error> {
    /// let config = SessionConfig::builder().budget(8000).hot_n(4).compact_at(90).compact_to(50).build()?;
    /// assert_eq!((config.budget(), config.hot_n()), (Tokens(8000), 4));
    /// assert_eq!((config.compact_at(), config.compact_to()), (Some(90), Some(50)));
    /// assert_eq!(
    ///     SessionConfig::builder().hot_n(4).build().unwrap_err().message(),
    ///     "budget must be set: the window's size in tokens has no default"
    /// );
    /// # Ok(())
    /// # }
    /// ```
    pub fn builder() -> SessionConfigBuilder {
        SessionConfigBuilder::default()
    }

    /// The seed design's settings, which the widget shows: a budget of [`BUDGET`] (40 tokens)
    /// and [`HOT_N`] (2) HOT turns, each policy compacting at its own trigger. `Default` gives
    /// the same.
    pub fn seed() -> SessionConfig {
        SessionConfig {
            budget: BUDGET,
            hot_n: HOT_N,
            compact_at: None,
            compact_to: None,
            hard_budget: false,
            #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
            retention: None,
        }
    }
}

/// [`SessionConfig`] by named setters, checked at [`build`](SessionConfigBuilder::build):
/// `budget` must be set; `hot_n` is [`HOT_N`] unless set; `compact_at` and `compact_to` are each
/// policy's own unless set.
#[derive(Clone, Copy, Debug, Default)]
#[must_use]
pub struct SessionConfigBuilder {
    pub(super) budget: Option<u32>,
    pub(super) hot_n: Option<u32>,
    pub(super) compact_at: Option<u32>,
    pub(super) compact_to: Option<u32>,
    pub(super) hard_budget: bool,
    pub(super) retention: Option<u32>,
}

impl SessionConfigBuilder {
    /// The most tokens the window may hold, at least 1.
    pub fn budget(self, tokens: u32) -> SessionConfigBuilder {
        SessionConfigBuilder {
            budget: Some(tokens),
            ..self
        }
    }

    /// How many of the latest turns stay verbatim at a compaction, at least 1.
    pub fn hot_n(self, turns: u32) -> SessionConfigBuilder {
        SessionConfigBuilder {
            hot_n: Some(turns),
            ..self
        }
    }

    /// Compact at `percent` of the budget, 1 to 100 ([`SessionConfig::with_compact_at`]).
    pub fn compact_at(self, percent: u32) -> SessionConfigBuilder {
        SessionConfigBuilder {
            compact_at: Some(percent),
            ..self
        }
    }

    /// Compact down to `percent` of the budget, 1 to 100 ([`SessionConfig::with_compact_to`]).
    pub fn compact_to(self, percent: u32) -> SessionConfigBuilder {
        SessionConfigBuilder {
            compact_to: Some(percent),
            ..self
        }
    }

    /// The settings, each checked.
    ///
    /// # Errors
    ///
    /// An [`ErrorKind::InvalidOption`](crate::ErrorKind) naming `budget` when it was not set,
    /// or the first value out of its range, as [`SessionConfig::new`],
    /// [`SessionConfig::with_compact_at`] and [`SessionConfig::with_compact_to`] name it.
    pub fn build(self) -> Result<SessionConfig, Error> {
        let Some(budget) = self.budget else {
            return Err(Error::invalid(
                "budget",
                "budget must be set: the window's size in tokens has no default",
            ));
        };
        let config = SessionConfig::new(Tokens(budget), self.hot_n.unwrap_or(HOT_N))?
            .with_compact_at(self.compact_at)?
            .with_compact_to(self.compact_to)?;
        let config = match self.retention {
            Some(folded) => config.with_retention(folded),
            None => config,
        };
        Ok(SessionConfig {
            hard_budget: self.hard_budget,
            ..config
        })
    }
}

impl Default for SessionConfig {
    /// [`SessionConfig::seed`].
    fn default() -> SessionConfig {
        SessionConfig::seed()
    }
}

/// Options as a JS caller or a JSON file writes them: any numbers, absent for the seed's.
///
/// ```json
/// { "budget": 40, "hotN": 2, "script": [ { "speaker": "Dana", "kind": "chatter", "text": "Hi!" } ] }
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "deserialize", derive(serde::Deserialize))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SessionOptions {
    /// The token budget, a whole number of at least 1 (default 40).
    #[serde(default)]
    pub budget: Option<f64>,
    /// The number of HOT turns, a whole number of at least 1 (default 2).
    #[serde(default)]
    pub hot_n: Option<f64>,
    /// A custom script (default: the refund desk).
    #[serde(default)]
    pub script: Option<Vec<TurnSpec>>,
    /// The share of the budget, in percent, at which every policy with a token trigger compacts:
    /// a whole number from 1 to 100 (default: each policy's own,
    /// [`SessionConfig::with_compact_at`]).
    #[serde(default)]
    pub compact_at: Option<f64>,
    /// The share of the budget, in percent, that a [`HotWarmCold`](crate::HotWarmCold) compaction
    /// brings the window down to: a whole number from 1 to 100 (default: the whole budget,
    /// [`SessionConfig::with_compact_to`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compact_to: Option<f64>,
    /// How tokens are counted: `"words"` ([`Words`](crate::Words), the default) or `"estimate"`
    /// ([`Estimate`](crate::Estimate)). A turn with its own `tokens` keeps them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens: Option<String>,
}

/// Whether this build replays sessions at real size: the `large-sessions` feature, in the
/// playground's import core (www/cores.js), with which a log of thousands of turns reaches its
/// seven policies. Such a build takes the shortcuts that keep a replay's cost per turn flat
/// ([`Line`](crate::Line)'s lineage, a window line read from where it changed, Letta's clip counted
/// by difference); any other (the built-in sessions' pages, the one-file bundle) comes to the same
/// answers the plain way, in less code. The native tests run both: `cargo test` with the default
/// features, and `cargo test --no-default-features`.
pub(crate) const LARGE_SESSIONS: bool = cfg!(feature = "large-sessions");
