//! Small newtypes for the units the policies count in and the numbers that name things, so that
//! a token count is never confused with a turn number, or a fact id with an event index. They
//! check nothing, so that every other module, `error.rs` among them, may name them
//! (a checked [`Time`](crate::Time) is in `time.rs`).

use crate::prelude::*;
use core::fmt;
use core::ops::{Add, AddAssign, Sub, SubAssign};

use serde::Serialize;

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
    /// (`"a\u{a0}b"` is two words), and a piece with JSON's brackets or a call in code split
    /// again at their punctuation (`{"id":"IFOYYZ"}` and `lookup(ORD-3300)` are two words each).
    /// What [`Words`](crate::Words), the default counter, counts.
    ///
    /// ```
    /// use agent_memory_widgets::Tokens;
    ///
    /// assert_eq!(Tokens::of("I returned order ORD-3300 ($200.00)."), Tokens(5));
    /// assert_eq!(Tokens::of(r#"cancel({"reservation_id": "IFOYYZ"})"#), Tokens(3));
    /// assert_eq!(Tokens::of("let cents = round(1942);"), Tokens(5));
    /// ```
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
