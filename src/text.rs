//! Messages built without `core::fmt`.
//!
//! `format!` brings Rust's formatting machinery into the WebAssembly build: `core::fmt::write`,
//! padding, the integer `Display` impls and their tables, about 5 KB of gzip on every core
//! (ARCHITECTURE.md, "How we keep the wasm small"). Error messages and the few texts the
//! policies write (a gist, a masked tool output) only ever join words and numbers, so they are
//! built by [`text!`] instead: each piece is pushed onto a `String` as it is, and a float by
//! [`fmt_number`].
//!
//! ```text
//! text!("script[", index, "].kind (turn ", index + 1, ")")  // "script[2].kind (turn 3)"
//! ```

use crate::float;
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

/// The words of `text`: split on Unicode whitespace, and a piece of structured text split again
/// at JSON's and code's punctuation (the brackets, `"`, `:`, `,`, `;` and the parentheses of a call),
/// so that `get_reservation_details({"reservation_id":"NQNU5R"})` is three words:
/// `get_reservation_details`, `reservation_id`, `NQNU5R`. A piece is structured when it holds one
/// of JSON's brackets (`{`, `}`, `[`, `]`), a call, a `(` right after a letter, a digit or `_`
/// (`lookup_order(ORD-3300)` is `lookup_order`, `ORD-3300`), or the middle of JSON written without
/// spaces (`tests","id":"ORD-3300`; see [`is_structured`]). A piece of punctuation alone, such as
/// `{}`, is one word. Prose has none of these, and splits on whitespace alone: `($200.00)` stays one.
///
/// ```text
/// words("I returned ORD-3300 ($200.00).")  // "I", "returned", "ORD-3300", "($200.00)."
/// words(r#"cancel({"id":"IFOYYZ"})"#)      // "cancel", "id", "IFOYYZ"
/// words("let total = cents(1942);")        // "let", "total", "=", "cents", "1942"
/// ```
pub(crate) fn words(text: &str) -> Words<'_> {
    Words { text, rest: "" }
}

/// The iterator of [`words`]: one type with one `next`, not a chain of adaptors, so that the
/// wasm holds one copy of it however many callers read words.
pub(crate) struct Words<'a> {
    /// The text after the last piece read.
    text: &'a str,
    /// What is left of the structured piece being split.
    rest: &'a str,
}

impl<'a> Iterator for Words<'a> {
    type Item = &'a str;

    #[inline(never)]
    fn next(&mut self) -> Option<&'a str> {
        loop {
            // The marks are ASCII, and an ASCII byte is never part of another character, so
            // every cut is at a character's edge.
            if let Some(start) = self.rest.bytes().position(|b| !is_json_mark(b)) {
                let word = self.rest.get(start..).unwrap_or("");
                let end = word.bytes().position(is_json_mark).unwrap_or(word.len());
                self.rest = word.get(end..).unwrap_or("");
                return word.get(..end);
            }
            // The next piece between Unicode whitespace, as `split_whitespace` gives it.
            let (mut start, mut end) = (None, self.text.len());
            for (at, c) in self.text.char_indices() {
                match (c.is_whitespace(), start) {
                    (false, None) => start = Some(at),
                    (true, Some(_)) => {
                        end = at;
                        break;
                    }
                    _ => {}
                }
            }
            let piece = self.text.get(start?..end)?;
            self.text = self.text.get(end..).unwrap_or("");
            if !is_structured(piece) {
                return Some(piece);
            }
            self.rest = piece;
        }
    }
}

/// The pieces of `text` between Unicode whitespace: what a model's tokenizer estimate reads
/// ([`Estimate`](crate::Estimate)) and what the first-sentence rule keeps, punctuation and all.
pub(crate) fn pieces(text: &str) -> impl Iterator<Item = &str> {
    text.split_whitespace()
}

/// Whether `byte` is one of JSON's brackets, which mark a piece as structured text.
fn is_bracket(byte: u8) -> bool {
    matches!(byte, b'{' | b'}' | b'[' | b']')
}

/// Whether `piece` is structured text: it holds a word (a byte that is no [`is_json_mark`]), and
/// one of JSON's brackets, a call (a `(` right after a letter, a digit or `_`), or JSON's `":` or
/// `",` with more JSON right after it (`a","b`, the middle of an object written without spaces;
/// not `"a",…`, a word cut short). A piece of punctuation alone, such as `{}`, is not.
fn is_structured(piece: &str) -> bool {
    let (mut after_name, mut after_quote, mut separated) = (false, false, false);
    let (mut marks, mut word) = (false, false);
    for byte in piece.bytes() {
        marks |= is_bracket(byte)
            || (byte == b'(' && after_name)
            || (separated && byte.is_ascii_graphic());
        word |= !is_json_mark(byte);
        separated = after_quote && matches!(byte, b':' | b',');
        after_name = byte.is_ascii_alphanumeric() || byte == b'_';
        after_quote = byte == b'"';
    }
    marks && word
}

/// Whether `byte` is punctuation that a structured piece is split at.
fn is_json_mark(byte: u8) -> bool {
    is_bracket(byte) || matches!(byte, b'"' | b':' | b',' | b';' | b'(' | b')')
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

/// Formats a number for an error message without Rust's float formatter, which would add
/// about 10 KB to the WebAssembly build. Whole numbers print exactly; others print with up to
/// six decimals, or in scientific form when very large or very small.
///
/// ```text
/// 0 -> "0"    -1 -> "-1"    2.5 -> "2.5"    1e300 -> "1e300"    NaN -> "NaN"
/// ```
pub(crate) fn fmt_number(value: f64) -> String {
    if value.is_nan() {
        return "NaN".into();
    }
    let sign = if value < 0.0 { "-" } else { "" };
    let magnitude = value.abs();
    if magnitude.is_infinite() {
        return text!(sign, "Infinity");
    }
    if magnitude == 0.0 {
        return "0".into();
    }
    if !(1e-4..1e15).contains(&magnitude) {
        // Scientific form: scale into [1, 10) by powers of ten, then keep three decimals.
        let mut mantissa = magnitude;
        let mut exponent = 0i32;
        while mantissa >= 10.0 {
            mantissa /= 10.0;
            exponent += 1;
        }
        while mantissa < 1.0 {
            mantissa *= 10.0;
            exponent -= 1;
        }
        // Rounding to three decimals can carry into a tenth digit (9.9996 -> 10).
        if float::round(mantissa * 1000.0) >= 10_000.0 {
            mantissa /= 10.0;
            exponent += 1;
        }
        let mantissa = fixed(mantissa, 3);
        return text!(sign, mantissa, "e", exponent);
    }
    // Keep six decimals while the scaled value still fits in a u64.
    let decimals = if magnitude < 1e12 { 6 } else { 0 };
    text!(sign, fixed(magnitude, decimals))
}

/// `magnitude` (with `magnitude * 10^decimals` below `2^64`) with at most `decimals` decimals,
/// trailing zeros trimmed. Written digit by digit into bytes and read with `get`, for text that
/// is all ASCII: `String::remove` would bring its panic into every core, `pop` a UTF-8 decoder,
/// and an index core's bounds panic.
fn fixed(magnitude: f64, decimals: u32) -> String {
    // A float-to-integer cast saturates and never panics.
    let mut scaled = float::round(magnitude * 10u64.pow(decimals) as f64) as u64;
    let point = decimals as usize;
    // The digits, last first (a u64 has at most 20), with at least one before the point.
    let mut digits = [b'0'; 24];
    let mut len = 0;
    while let Some(slot) = digits.get_mut(len).filter(|_| scaled > 0 || len <= point) {
        *slot = b'0' + (scaled % 10) as u8;
        scaled /= 10;
        len += 1;
    }
    // The decimals' trailing zeros go, and the point with them when no decimal is left.
    let mut first = 0;
    while first < point && digits.get(first) == Some(&b'0') {
        first += 1;
    }
    let mut out = String::with_capacity(len + 1);
    let mut at = len;
    while at > first {
        at -= 1;
        out.push(char::from(digits.get(at).copied().unwrap_or(b'0')));
        if at == point && first < point {
            out.push('.');
        }
    }
    out
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

    proptest::proptest! {
        #[test]
        fn prose_without_brackets_or_calls_splits_on_whitespace_alone(text in "[a-z.,:\"()' \t\n\u{85}\u{a0}\u{e9}\u{2028}\u{3000}]{0,24}") {
            let call = text.as_bytes().windows(2).any(|w| w[1] == b'(' && (w[0].is_ascii_alphanumeric() || w[0] == b'_'));
            let separator = text.as_bytes().windows(3).any(|w| w[0] == b'"' && matches!(w[1], b':' | b',') && w[2].is_ascii_graphic());
            proptest::prop_assume!(!call && !separator);
            proptest::prop_assert_eq!(words(&text).collect::<Vec<_>>(), text.split_whitespace().collect::<Vec<_>>());
        }

        #[test]
        fn a_structured_piece_gives_at_least_one_word_and_loses_only_punctuation(text in "[a-z0-9{}\\[\\]\":,() ]{0,24}") {
            let split: Vec<&str> = words(&text).collect();
            proptest::prop_assert!(split.len() >= text.split_whitespace().count());
            let kept: String = split.concat();
            let letters = |s: &str| s.chars().filter(char::is_ascii_alphanumeric).collect::<String>();
            proptest::prop_assert_eq!(letters(&kept), letters(&text));
        }
    }

    #[test]
    fn structured_text_splits_at_json_punctuation() {
        let check = |text: &str, expect: &[&str]| {
            assert_eq!(words(text).collect::<Vec<_>>(), expect, "{text}")
        };
        check(
            r#"get_reservation_details({"reservation_id":"NQNU5R"})"#,
            &["get_reservation_details", "reservation_id", "NQNU5R"],
        );
        check(
            r#"get_reservation_details({"reservation_id": "IFOYYZ"})"#,
            &["get_reservation_details", "reservation_id", "IFOYYZ"],
        );
        check(
            r#"{"amount":180.00,"paid":[1,2]}"#,
            &["amount", "180.00", "paid", "1", "2"],
        );
        check(
            "[tool output of turn 3 omitted]",
            &["tool", "output", "of", "turn", "3", "omitted"],
        );
        check("{} []", &["{}", "[]"]);
        // A call in code is structured too: its name and its values are words.
        check("lookup_order(ORD-3300)", &["lookup_order", "ORD-3300"]);
        check(
            "let refund_7 = cents(1942); // rounds",
            &["let", "refund_7", "=", "cents", "1942", "//", "rounds"],
        );
        // Whitespace splits first: `y)` is a piece of its own, without a call (a key term sheds
        // its `)`).
        check("f(x, y)", &["f", "x", "y)"]);
        // JSON without spaces, cut by the spaces inside its strings: each piece is split.
        check(
            r#"{"description":"Find the tests","id":"ORD-3300"}"#,
            &["description", "Find", "the", "tests", "id", "ORD-3300"],
        );
        check("\"economy\",…", &["\"economy\",…"]);
        check(
            r#""Hello," she said, "fine": done"#,
            &["\"Hello,\"", "she", "said,", "\"fine\":", "done"],
        );
        // Prose keeps its punctuation: only a piece with a bracket or a call is split. A
        // parenthesis that opens a piece or follows punctuation is prose's.
        check(
            "lookup ORD-3300: $200.00, \"day 41\" (late).",
            &[
                "lookup",
                "ORD-3300:",
                "$200.00,",
                "\"day",
                "41\"",
                "(late).",
            ],
        );
        check("($200.00), \"(sic)\"", &["($200.00),", "\"(sic)\""]);
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

    #[test]
    fn numbers_print_as_a_person_writes_them() {
        let check = |value: f64, expect: &str| assert_eq!(fmt_number(value), expect, "{value}");
        check(0.0, "0");
        check(-0.0, "0");
        check(-1.0, "-1");
        check(40.0, "40");
        check(2.5, "2.5");
        check(0.1, "0.1");
        check(1.0 / 3.0, "0.333333");
        check(1e300, "1e300");
        check(123456789012345.0, "123456789012345");
        check(9e13 + 0.5, "90000000000001");
        check(1.5e-9, "1.5e-9");
        check(1e-300, "1e-300");
        check(9.99996e20, "1e21");
        check(1e308, "1e308");
        // The edges of the fixed form: 1e15 scales down to exactly 10, then to 1; 1e12 prints
        // without decimals; 1e-4 is the smallest number in fixed form.
        check(1e15, "1e15");
        check(-2.5e15, "-2.5e15");
        check(1e12, "1000000000000");
        check(1e-4, "0.0001");
        check(1e-5, "1e-5");
        check(f64::NAN, "NaN");
        check(f64::NEG_INFINITY, "-Infinity");
    }

    /// `fixed` as it was written with `String`'s `remove` and `pop`: the oracle for the byte version.
    fn fixed_with_strings(magnitude: f64, decimals: u32) -> String {
        let scale = 10u64.pow(decimals);
        let scaled = float::round(magnitude * scale as f64) as u64;
        let (whole, frac) = (scaled / scale, scaled % scale);
        if frac == 0 {
            return text!(whole);
        }
        let mut digits = text!(scale + frac);
        digits.remove(0);
        while digits.ends_with('0') {
            digits.pop();
        }
        text!(whole, ".", digits)
    }

    proptest::proptest! {
        #[test]
        fn fixed_writes_what_the_string_version_wrote(
            magnitude in proptest::prop_oneof![0.0..1.0, 1.0..1e4, 1e4..1e12, 1e12..1e15f64],
            decimals in 0u32..=6,
        ) {
            let decimals = if magnitude >= 1e12 { 0 } else { decimals };
            proptest::prop_assert_eq!(fixed(magnitude, decimals), fixed_with_strings(magnitude, decimals));
        }
    }

    #[test]
    fn fixed_keeps_zeros_inside_and_drops_them_at_the_end() {
        for (magnitude, decimals, expect) in [
            (0.5, 6, "0.5"),
            (0.0001, 6, "0.0001"),
            (10.05, 6, "10.05"),
            (100.0, 6, "100"),
            (0.0000004, 6, "0"),
            (0.000002, 6, "0.000002"),
            (1.9999999, 6, "2"),
            (9.9995, 3, "10"),
            (1234.5, 0, "1235"),
            (18446744073709550000.0, 0, "18446744073709549568"),
        ] {
            assert_eq!(
                fixed(magnitude, decimals),
                expect,
                "{magnitude} to {decimals}"
            );
        }
    }
}
