//! The one error type of the crate: a sentence a person can act on, and a kind a program can
//! match.

use crate::float;
use crate::prelude::*;
use crate::text::fmt_number;
use core::fmt;

use crate::units::{EventIndex, FactId};

/// What went wrong, for a program to match; [`Error::message`] says it for a person.
///
/// New kinds may be added, so a `match` needs a catch-all arm.
///
/// # Example
///
/// ```
/// use agent_memory_widgets::{ErrorKind, FactId, LiveStore, StoreConfig};
///
/// let mut store = LiveStore::new(StoreConfig::default());
/// match store.read(FactId(7)) {
///     Err(err) if *err.kind() == ErrorKind::NoSuchFact { id: FactId(7) } => {}
///     other => panic!("expected no such fact, got {other:?}"),
/// }
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// An option or field broke its rule. `field` is its Rust name (`hot_n`), or its path in a
    /// script or scenario (`script[3].kind (turn 4)`, `events[1].importance`).
    InvalidOption {
        /// The option or field.
        field: String,
    },
    /// No fact has this id.
    NoSuchFact {
        /// The id asked for.
        id: FactId,
    },
    /// The fact exists but is superseded or evicted.
    FactNotActive {
        /// The id asked for.
        id: FactId,
    },
    /// A fact with this id already exists.
    DuplicateId {
        /// The id given twice.
        id: FactId,
    },
    /// A `LiveStore` was asked to move back in time.
    TimeWentBack,
    /// An input is beyond one of the [`limits`](crate::limits).
    OverLimit {
        /// The limit's constant, such as `MAX_TURNS`.
        limit: &'static str,
    },
    /// No write event has this index.
    NoSuchEvent {
        /// The index asked for.
        index: EventIndex,
    },
    /// The call does not fit what has happened so far: an event fired twice, one unfired that
    /// was never fired, a consolidation pass run twice or in a scenario without rules.
    InvalidState,
    /// An error from outside the crate, such as a [`Distiller`](crate::Distiller)'s or a
    /// [`Summarizer`](crate::Summarizer)'s own.
    Other,
}

/// Bad input, explained: a [`kind`](Error::kind) to match, and a message that names the option
/// or field, the rule it broke and the value given, for example
/// `budget must be a whole number of at least 1, got 0`.
///
/// Nothing in this crate panics on bad input; every fallible call returns this instead, and
/// leaves its object as it was.
///
/// # Example
///
/// ```
/// use agent_memory_widgets::{ErrorKind, SessionConfig, Tokens};
///
/// # fn main() -> Result<(), agent_memory_widgets::Error> {
/// let err = SessionConfig::new(Tokens(40), 0).unwrap_err();
/// assert_eq!(err.message(), "hot_n must be a whole number of at least 1, got 0");
/// assert!(matches!(err.kind(), ErrorKind::InvalidOption { field } if field == "hot_n"));
/// # Ok(())
/// # }
/// ```
///
/// An error from outside the crate (an HTTP call a [`Summarizer`](crate::Summarizer) or a
/// [`Distiller`](crate::Distiller) makes, say) can ride along as the
/// [`source`](core::error::Error::source), with [`Error::with_source`]:
///
/// ```
/// use agent_memory_widgets::{Error, ErrorKind};
/// use std::error::Error as _;
///
/// let io = std::io::Error::new(std::io::ErrorKind::TimedOut, "the model did not answer");
/// let err = Error::new(ErrorKind::Other, "the summarizer failed").with_source(io);
/// assert_eq!(err.to_string(), "the summarizer failed"); // the message alone
/// assert_eq!(err.source().unwrap().to_string(), "the model did not answer");
/// // Equality is on the kind and the message: the source does not take part.
/// assert_eq!(err, Error::new(ErrorKind::Other, "the summarizer failed"));
/// ```
///
/// (The project's own wasm builds, `wasm-runtime` on `wasm32`, have no sources: their errors
/// reach JS as messages, and a source's drop code would weigh on every core.)
#[derive(Clone, Debug)]
pub struct Error {
    kind: ErrorKind,
    message: String,
    // Shared, so that `Error` stays `Clone` whatever the source is.
    #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
    source: Option<Source>,
}

/// An error's cause from outside the crate.
#[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
type Source = alloc::sync::Arc<dyn core::error::Error + Send + Sync + 'static>;

impl PartialEq for Error {
    /// Two errors are equal when their kinds and messages are: the [`source`](Error::with_source)
    /// is not compared (an arbitrary error has no equality of its own).
    fn eq(&self, other: &Error) -> bool {
        self.kind == other.kind && self.message == other.message
    }
}

impl Eq for Error {}

impl Error {
    /// An error of `kind` that says `message`. For a [`Distiller`](crate::Distiller) or a
    /// [`Summarizer`](crate::Summarizer) of your own, [`ErrorKind::Other`] fits.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            kind,
            message: message.into(),
            #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
            source: None,
        }
    }

    /// The same error, caused by `source`: an error from outside the crate, such as an HTTP or
    /// IO error, which [`source()`](core::error::Error::source) then returns. The message and
    /// kind stay this error's; a source given earlier is replaced.
    #[must_use]
    #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
    pub fn with_source(mut self, source: impl core::error::Error + Send + Sync + 'static) -> Error {
        self.source = Some(alloc::sync::Arc::new(source));
        self
    }

    /// An [`ErrorKind::InvalidOption`] naming `field`: one of this crate's option names, or a
    /// path of them with indices (`facts[2].text`), all ASCII ([`Error::js_message`] reads it
    /// on bytes).
    pub(crate) fn invalid(field: &str, message: impl Into<String>) -> Error {
        debug_assert!(field.is_ascii(), "a field name is ASCII: {field:?}");
        Error::new(
            ErrorKind::InvalidOption {
                field: field.to_owned(),
            },
            message,
        )
    }

    /// An [`ErrorKind::OverLimit`] naming the limit's constant.
    pub(crate) fn over_limit(limit: &'static str, message: impl Into<String>) -> Error {
        Error::new(ErrorKind::OverLimit { limit }, message)
    }

    /// What went wrong, to match.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// The sentence that explains what was wrong.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The message with a snake_case option at its start in JS's camelCase (`hot_n` becomes
    /// `hotN`), as the WebAssembly boundary reports it.
    pub fn js_message(&self) -> String {
        // A field without `_` comes out as it was. (No `contains('_')` test first: its search
        // code is 0.5 KB of wasm, more than this loop.) A field is one of this crate's own names
        // or paths, ASCII (`Error::invalid` asserts it in debug builds), so the loop reads bytes,
        // without a UTF-8 decoder: 0.12 to 0.14 KB of gzip.
        if let ErrorKind::InvalidOption { field } = &self.kind {
            if let Some(rest) = self.message.strip_prefix(field.as_str()) {
                let mut out = String::with_capacity(self.message.len());
                let mut upper = false;
                for &b in field.as_bytes() {
                    if b == b'_' {
                        upper = true;
                    } else if upper {
                        out.push(char::from(b.to_ascii_uppercase()));
                        upper = false;
                    } else {
                        out.push(char::from(b));
                    }
                }
                out.push_str(rest);
                return out;
            }
        }
        self.message.clone()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl core::error::Error for Error {
    #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match &self.source {
            Some(source) => Some(&**source),
            None => None,
        }
    }
}

/// Checks that `value` is a number from `min` to `max` (`NaN` is not): the rule for half-lives,
/// boosts and times given as JS numbers.
pub(crate) fn number_from(field: &str, value: f64, min: f64, max: f64) -> Result<f64, Error> {
    if (min..=max).contains(&value) {
        Ok(value)
    } else {
        let rule = text!("from ", fmt_number(min), " to ", fmt_number(max));
        Err(not_a_number(field, &rule, value))
    }
}

/// `field must be a number <rule>, got <value>`.
pub(crate) fn not_a_number(field: &str, rule: &str, value: f64) -> Error {
    Error::invalid(
        field,
        text!(
            field,
            " must be a number ",
            rule,
            ", got ",
            fmt_number(value)
        ),
    )
}

/// Checks that `value` is a whole number in `min..=max`, the rule for counts given as JS numbers.
pub(crate) fn whole_number(field: &str, value: f64, min: u32, max: u32) -> Result<u32, Error> {
    let whole = value.is_finite() && float::fract(value) == 0.0;
    if whole && value >= f64::from(min) && value <= f64::from(max) {
        // The checks above make this cast exact.
        Ok(value as u32)
    } else if whole && value > f64::from(max) {
        Err(Error::invalid(
            field,
            text!(
                field,
                " must be a whole number of at most ",
                max,
                ", got ",
                fmt_number(value)
            ),
        ))
    } else {
        Err(Error::invalid(
            field,
            text!(
                field,
                " must be a whole number of at least ",
                min,
                ", got ",
                fmt_number(value)
            ),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn underscores_anywhere_join_the_words() {
        let err = Error::invalid("half__life_", "half__life_ must be 1");
        assert_eq!(err.js_message(), "halfLife must be 1");
        let err = Error::invalid("_n", "_n must be 1");
        assert_eq!(err.js_message(), "N must be 1");
    }

    #[test]
    #[should_panic(expected = "ASCII")]
    #[cfg(debug_assertions)]
    fn a_field_is_ascii() {
        let _ = Error::invalid("größe", "größe must be 1");
    }

    #[test]
    fn js_messages_name_options_in_camel_case() {
        let err = whole_number("semantic_half_life", 0.0, 1, 2).unwrap_err();
        assert_eq!(
            err.js_message(),
            "semanticHalfLife must be a whole number of at least 1, got 0"
        );
        let err = whole_number("budget", 0.0, 1, 2).unwrap_err();
        assert_eq!(err.js_message(), err.message());
    }

    #[test]
    fn whole_numbers_are_checked_with_a_message_naming_the_field() {
        assert_eq!(whole_number("budget", 40.0, 1, 100), Ok(40));
        // Both ends of the range are in it.
        assert_eq!(whole_number("budget", 1.0, 1, 100), Ok(1));
        assert_eq!(whole_number("budget", 100.0, 1, 100), Ok(100));
        let message = |v| whole_number("budget", v, 1, 100).unwrap_err().to_string();
        assert_eq!(
            message(0.0),
            "budget must be a whole number of at least 1, got 0"
        );
        assert_eq!(
            message(2.5),
            "budget must be a whole number of at least 1, got 2.5"
        );
        assert_eq!(
            message(f64::NAN),
            "budget must be a whole number of at least 1, got NaN"
        );
        assert_eq!(
            message(101.0),
            "budget must be a whole number of at most 100, got 101"
        );
        // Infinity is not a whole number, so it breaks the lower rule, not the upper one.
        assert_eq!(
            message(f64::INFINITY),
            "budget must be a whole number of at least 1, got Infinity"
        );
        assert_eq!(
            message(100.5),
            "budget must be a whole number of at least 1, got 100.5"
        );
    }
}
