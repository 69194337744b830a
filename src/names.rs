//! The one way an enum of this crate maps to and from its name: [`named!`] writes `name()`,
//! `Display`, `FromStr` and serde from one table, so a name is written once.

use crate::error::Error;
use crate::prelude::*;

/// Writes, for a fieldless enum, from one table of `Variant => "name"`:
///
/// - `NAMES`, every value in the table's order, and `name()`;
/// - `Display` (the name) and `FromStr` (the name back, or an
///   [`ErrorKind::InvalidOption`](crate::ErrorKind) naming `$what` and the names to use);
/// - `Serialize` as the name, and, with the `deserialize` feature, `Deserialize` from it.
macro_rules! named {
    ($ty:ident, $what:literal, { $($variant:ident => $name:literal),+ $(,)? }) => {
        impl $ty {
            /// Every value, in order.
            pub const NAMES: &'static [$ty] = &[$($ty::$variant),+];

            /// The value's name, as JSON and JS write it.
            pub fn name(self) -> &'static str {
                match self {
                    $($ty::$variant => $name,)+
                }
            }
        }

        impl core::fmt::Display for $ty {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl core::str::FromStr for $ty {
            type Err = $crate::Error;

            /// The value named `name`, exactly as [`name`](Self::name) writes it.
            ///
            /// # Errors
            ///
            /// An [`ErrorKind::InvalidOption`]($crate::ErrorKind) for any other name, listing
            /// the names to use.
            fn from_str(name: &str) -> Result<$ty, $crate::Error> {
                $(if name == $name {
                    return Ok($ty::$variant);
                })+
                Err($crate::names::unknown($what, name, &[$($name),+]))
            }
        }

        impl serde::Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.name())
            }
        }

        #[cfg(feature = "deserialize")]
        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<$ty, D::Error> {
                let name = String::deserialize(deserializer)?;
                name.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}

pub(crate) use named;

/// The error for an unknown name: `unknown kind "smalltalk"; use chatter, decision, tool or
/// question`.
pub(crate) fn unknown(what: &str, got: &str, names: &[&str]) -> Error {
    let mut list = String::new();
    for (i, name) in names.iter().enumerate() {
        if i > 0 {
            list.push_str(if i + 1 == names.len() { " or " } else { ", " });
        }
        list.push_str(name);
    }
    Error::invalid(what, text!("unknown ", what, " \"", got, "\"; use ", list))
}
