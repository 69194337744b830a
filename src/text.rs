//! Messages built without `core::fmt`.
//!
//! `format!` brings Rust's formatting machinery into the WebAssembly build: `core::fmt::write`,
//! padding, the integer `Display` impls and their tables, about 5 KB of gzip on every core
//! (ARCHITECTURE.md, "How we keep the wasm small"). Error messages and the few texts the
//! policies write (a gist, a masked tool output) only ever join words and numbers, so they are
//! built by [`text!`] instead: each piece is pushed onto a `String` as it is.
//!
//! ```text
//! text!("script[", index, "].kind (turn ", index + 1, ")")  // "script[2].kind (turn 3)"
//! ```

use crate::prelude::*;

/// Something a message can hold: a text, or a number written as a person writes it.
pub(crate) trait Piece {
    /// Appends this piece to `out`.
    fn push_to(&self, out: &mut String);
}

impl Piece for str {
    fn push_to(&self, out: &mut String) {
        out.push_str(self);
    }
}

impl Piece for String {
    fn push_to(&self, out: &mut String) {
        out.push_str(self);
    }
}

impl Piece for char {
    fn push_to(&self, out: &mut String) {
        out.push(*self);
    }
}

impl<T: Piece + ?Sized> Piece for &T {
    fn push_to(&self, out: &mut String) {
        (**self).push_to(out);
    }
}

/// Whole numbers in decimal, through [`push_whole`].
macro_rules! whole_pieces {
    (unsigned: $($ty:ty),*; signed: $($signed:ty),*) => {
        $(impl Piece for $ty {
            fn push_to(&self, out: &mut String) {
                push_whole(out, *self as u64);
            }
        })*
        $(impl Piece for $signed {
            fn push_to(&self, out: &mut String) {
                if *self < 0 {
                    out.push('-');
                }
                push_whole(out, self.unsigned_abs() as u64);
            }
        })*
    };
}

whole_pieces!(unsigned: u32, u64, usize; signed: i32, i64);

/// Appends `value` in decimal.
///
/// ```text
/// 0 -> "0"    40 -> "40"    18446744073709551615 -> "18446744073709551615"
/// ```
pub(crate) fn push_whole(out: &mut String, mut value: u64) {
    // Last digit first, into the end of a buffer a u64's 20 digits fill (no index to check).
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    for slot in digits.iter_mut().rev() {
        *slot = b'0' + (value % 10) as u8;
        value /= 10;
        start -= 1;
        if value == 0 {
            break;
        }
    }
    for &digit in digits.get(start..).unwrap_or_default() {
        out.push(char::from(digit));
    }
}

/// A `String` of its pieces, each pushed as it is: text as text, numbers in decimal. The
/// `format!` of this crate, without `core::fmt` (see the module docs).
macro_rules! text {
    ($($piece:expr),+ $(,)?) => {{
        let mut out = $crate::prelude::String::new();
        $( $crate::text::Piece::push_to(&$piece, &mut out); )+
        out
    }};
}

pub(crate) use text;

/// The words of `text`, split on Unicode whitespace.
pub(crate) fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split_whitespace()
}

/// `text` split around its first `byte`, an ASCII character: `str::split_once` for one, on
/// bytes. (A `char` pattern brings core's char searcher, `memchr` and slice panic into the wasm;
/// an ASCII byte is never part of another character, so both sides are whole text.)
pub(crate) fn split_at_byte(text: &str, byte: u8) -> Option<(&str, &str)> {
    let at = text.bytes().position(|b| b == byte)?;
    Some((text.get(..at)?, text.get(at + 1..)?))
}

/// The lines of `text`, as `str::lines` gives them (split at each `\n`, with a `\r` before it
/// dropped, and no empty line after a final `\n`), on bytes: see [`split_at_byte`].
pub(crate) fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(text).filter(|text| !text.is_empty());
    core::iter::from_fn(move || {
        let current = rest?;
        let Some((line, next)) = split_at_byte(current, b'\n') else {
            rest = None;
            return Some(current);
        };
        rest = Some(next).filter(|next| !next.is_empty());
        Some(match line.as_bytes().last() {
            Some(b'\r') => line.get(..line.len() - 1).unwrap_or(line),
            _ => line,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units::{FactId, Tokens};

    proptest::proptest! {
        #[test]
        fn lines_and_splits_are_std_s(text in "[a:\\]\r\n\u{e9}\u{1F600} ]{0,12}") {
            proptest::prop_assert_eq!(lines(&text).collect::<Vec<_>>(), text.lines().collect::<Vec<_>>());
            for byte in [b':', b']', b'\n'] {
                proptest::prop_assert_eq!(split_at_byte(&text, byte), text.split_once(char::from(byte)));
            }
        }
    }

    #[test]
    fn pieces_join_as_written() {
        let check = |got: String, expect: &str| assert_eq!(got, expect);
        check(text!("a", 'b', String::from("c")), "abc");
        check(
            text!(0u32, " ", 40usize, " ", u64::MAX),
            "0 40 18446744073709551615",
        );
        check(
            text!(-7i32, " ", i64::MIN, " ", 9i64),
            "-7 -9223372036854775808 9",
        );
        check(
            text!("fact ", FactId(12), ": ", Tokens(41), " tokens"),
            "fact 12: 41 tokens",
        );
        let turn = 3;
        check(
            text!("script[", turn - 1, "] (turn ", turn, ")"),
            "script[2] (turn 3)",
        );
    }
}
