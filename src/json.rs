//! A small JSON reader for the logs the crate imports (`import_conversation`): one behaviour
//! natively and in the browser, where `JSON.parse` and a walk over JS values would be a second.
//!
//! It reads RFC 8259 JSON into a [`Json`] tree, refuses anything else with the byte where it
//! stopped, and never panics. Numbers are read for token counts: a whole number below 2^53 is
//! exact, any other number close (only [`given_count`](crate::compaction::tokens) reads them,
//! and it refuses what is not whole). Nesting deeper than [`MAX_DEPTH`] is refused, so that a
//! hostile file cannot exhaust the stack.
//!
//! Why not `serde_json` (`default-features = false, features = ["alloc"]`): measured, it makes
//! the cores that import larger by about 8 KB gzip, this reader removed (the `compaction-own`
//! core 35.4 -> 43.7 KB, `playground-own` 50.7 -> 58.8 KB, both wasm after wasm-opt, gzip -9;
//! BENCHMARKS.md). A property test reads every value serde_json writes and checks the tree.

use crate::prelude::*;

/// The deepest nesting of arrays and objects read. Chat logs nest a handful of levels.
pub(crate) const MAX_DEPTH: usize = 64;

/// A JSON value. An object keeps its keys in order, duplicates and all; [`Json::get`] finds the
/// first.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Json {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

/// Where and why a text is not JSON: the byte offset and a few words.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct SyntaxError {
    pub(crate) at: usize,
    pub(crate) what: &'static str,
}

impl Json {
    /// The value of `key` in an object, or `None` (for a missing key, or a value that is not
    /// an object).
    pub(crate) fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(fields) => fields
                .iter()
                .find(|(name, _)| name == key)
                .map(|(_, value)| value),
            _ => None,
        }
    }

    /// The string, or `None`.
    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(text) => Some(text),
            _ => None,
        }
    }

    /// `null`, or a missing value, in the eyes of a log reader.
    pub(crate) fn is_null(&self) -> bool {
        matches!(self, Json::Null)
    }

    /// The value's type in words, for error messages: `a string`, `an array`, `null`.
    pub(crate) fn type_name(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "a boolean",
            Json::Number(_) => "a number",
            Json::String(_) => "a string",
            Json::Array(_) => "an array",
            Json::Object(_) => "an object",
        }
    }

    /// The value as compact JSON text, keys in their order: how a tool call's arguments are
    /// shown. Numbers are written as they were read when whole, else as the reader's close
    /// value (which a tool call's arguments rarely hold).
    pub(crate) fn to_text(&self, out: &mut String) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(true) => out.push_str("true"),
            Json::Bool(false) => out.push_str("false"),
            Json::Number(number) => out.push_str(&crate::text::fmt_number(*number)),
            Json::String(text) => quote(text, out),
            Json::Array(items) => {
                out.push('[');
                for (index, item) in items.iter().enumerate() {
                    if index > 0 {
                        out.push(',');
                    }
                    item.to_text(out);
                }
                out.push(']');
            }
            Json::Object(fields) => {
                out.push('{');
                for (index, (key, value)) in fields.iter().enumerate() {
                    if index > 0 {
                        out.push(',');
                    }
                    quote(key, out);
                    out.push(':');
                    value.to_text(out);
                }
                out.push('}');
            }
        }
    }
}

/// `text` as a JSON string.
fn quote(text: &str, out: &mut String) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                out.push_str("\\u00");
                for nibble in [(c as u32) >> 4, (c as u32) & 0xF] {
                    out.push(char::from_digit(nibble, 16).unwrap_or('0'));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Reads one JSON value from the start of `text` (after any whitespace) and returns it with the
/// byte offset where it ends: the caller decides what may follow (nothing, or another line).
///
/// # Errors
///
/// A [`SyntaxError`] at the first byte that cannot continue the value.
pub(crate) fn parse_prefix(text: &str) -> Result<(Json, usize), SyntaxError> {
    parse_prefix_skipping(text, &[])
}

/// [`parse_prefix`], leaving out of every object the fields named in `skip`: their values are
/// passed over without being built (a session log's copies of what it holds elsewhere, its
/// base64), and checked only for their brackets and strings.
///
/// # Errors
///
/// As [`parse_prefix`].
pub(crate) fn parse_prefix_skipping(
    text: &str,
    skip: &[&str],
) -> Result<(Json, usize), SyntaxError> {
    let mut reader = Reader {
        text,
        bytes: text.as_bytes(),
        at: 0,
        depth: 0,
        skip,
    };
    reader.skip_space();
    let value = reader.value()?;
    Ok((value, reader.at))
}

/// Reads `text` as exactly one JSON value, whitespace around it allowed (the tests' reader: a
/// log is read with [`parse_prefix`], records back to back on a line).
///
/// # Errors
///
/// A [`SyntaxError`] where it is not JSON, or at what follows the value.
#[cfg(test)]
pub(crate) fn parse(text: &str) -> Result<Json, SyntaxError> {
    let (value, end) = parse_prefix(text)?;
    let rest = text.as_bytes().get(end..).unwrap_or_default();
    match rest.iter().position(|b| !is_space(*b)) {
        None => Ok(value),
        Some(offset) => Err(SyntaxError {
            at: end + offset,
            what: "more text after the JSON value",
        }),
    }
}

/// The 1-based line and column (in characters) of byte `at` in `text`.
pub(crate) fn line_and_column(text: &str, at: usize) -> (usize, usize) {
    let before = text.as_bytes().get(..at).unwrap_or(text.as_bytes());
    let line = 1 + before.iter().filter(|b| **b == b'\n').count();
    let start = before
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(0, |newline| newline + 1);
    let column = 1 + before
        .get(start..)
        .unwrap_or_default()
        .iter()
        .filter(|b| **b & 0xC0 != 0x80)
        .count();
    (line, column)
}

fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r')
}

struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
    depth: usize,
    skip: &'a [&'a str],
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn fail<T>(&self, what: &'static str) -> Result<T, SyntaxError> {
        Err(SyntaxError { at: self.at, what })
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(is_space) {
            self.at += 1;
        }
    }

    fn value(&mut self) -> Result<Json, SyntaxError> {
        match self.peek() {
            Some(b'{') => self.nested(Reader::object),
            Some(b'[') => self.nested(Reader::array),
            Some(b'"') => self.string().map(Json::String),
            Some(b't') => self.word("true", Json::Bool(true)),
            Some(b'f') => self.word("false", Json::Bool(false)),
            Some(b'n') => self.word("null", Json::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => self.fail("a character that does not start a JSON value"),
            None => self.fail("the end of the text where a value should be"),
        }
    }

    fn nested(
        &mut self,
        read: fn(&mut Self) -> Result<Json, SyntaxError>,
    ) -> Result<Json, SyntaxError> {
        if self.depth == MAX_DEPTH {
            return self.fail("arrays and objects nested more than 64 deep");
        }
        self.depth += 1;
        self.at += 1; // the opening bracket
        let value = read(self);
        self.depth -= 1;
        value
    }

    fn array(&mut self) -> Result<Json, SyntaxError> {
        let mut items = Vec::new();
        self.skip_space();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(Json::Array(items));
        }
        loop {
            self.skip_space();
            items.push(self.value()?);
            self.skip_space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(Json::Array(items));
                }
                _ => return self.fail("a missing comma or ] in an array"),
            }
        }
    }

    fn object(&mut self) -> Result<Json, SyntaxError> {
        let mut fields = Vec::new();
        self.skip_space();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(Json::Object(fields));
        }
        loop {
            self.skip_space();
            if self.peek() != Some(b'"') {
                return self.fail("a key that is not a string in quotes");
            }
            let key = self.string()?;
            self.skip_space();
            if self.peek() != Some(b':') {
                return self.fail("a missing colon after a key");
            }
            self.at += 1;
            self.skip_space();
            if self.skip.iter().any(|skip| *skip == key) {
                self.pass_value()?;
            } else {
                fields.push((key, self.value()?));
            }
            self.skip_space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return Ok(Json::Object(fields));
                }
                _ => return self.fail("a missing comma or } in an object"),
            }
        }
    }

    fn word(&mut self, word: &'static str, value: Json) -> Result<Json, SyntaxError> {
        if self.bytes.get(self.at..self.at + word.len()) == Some(word.as_bytes()) {
            self.at += word.len();
            Ok(value)
        } else {
            self.fail("a word that is not true, false or null")
        }
    }

    /// Passes over a value without building it: a string to its closing quote, an array or
    /// object to its closing bracket (brackets and strings counted, nothing else checked).
    fn pass_value(&mut self) -> Result<(), SyntaxError> {
        if !matches!(self.peek(), Some(b'{' | b'[')) {
            if self.peek() == Some(b'"') {
                return self.pass_string();
            }
            return self.value().map(drop);
        }
        let mut depth = 0usize;
        loop {
            match self.peek() {
                Some(b'{' | b'[') => {
                    depth += 1;
                    self.at += 1;
                }
                Some(b'}' | b']') => {
                    depth -= 1;
                    self.at += 1;
                    if depth == 0 {
                        return Ok(());
                    }
                }
                Some(b'"') => self.pass_string()?,
                Some(_) => self.at += 1,
                None => return self.fail("the end of the text inside an array or object"),
            }
        }
    }

    /// Passes over a string, from its opening quote to just past its closing one.
    fn pass_string(&mut self) -> Result<(), SyntaxError> {
        self.at += 1; // the opening quote
        loop {
            self.skip_plain();
            match self.peek() {
                Some(b'"') => {
                    self.at += 1;
                    return Ok(());
                }
                Some(b'\\') => self.at += 2,
                Some(_) => return self.fail("a control character in a string"),
                None => return self.fail("a string with no closing quote"),
            }
        }
    }

    /// Moves to the next byte that ends a run of plain text in a string: a quote, a backslash
    /// or a control character (or to the end of the text).
    fn skip_plain(&mut self) {
        let rest = self.bytes.get(self.at..).unwrap_or_default();
        self.at += rest
            .iter()
            .position(|&byte| byte == b'"' || byte == b'\\' || byte < 0x20)
            .unwrap_or(rest.len());
    }

    /// A string, from its opening quote: runs of plain text are copied whole (they start and
    /// end at an ASCII byte, so each is whole UTF-8), escapes one by one.
    fn string(&mut self) -> Result<String, SyntaxError> {
        self.at += 1; // the opening quote
        let mut out = String::new();
        let mut run = self.at;
        loop {
            self.skip_plain();
            match self.peek() {
                Some(b'"') => {
                    out.push_str(self.text.get(run..self.at).unwrap_or_default());
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    out.push_str(self.text.get(run..self.at).unwrap_or_default());
                    self.at += 1;
                    self.escape(&mut out)?;
                    run = self.at;
                }
                Some(0..=0x1F) => return self.fail("a control character in a string"),
                Some(_) => self.at += 1,
                None => return self.fail("a string with no closing quote"),
            }
        }
    }

    fn escape(&mut self, out: &mut String) -> Result<(), SyntaxError> {
        let Some(byte) = self.peek() else {
            return self.fail("a string with no closing quote");
        };
        self.at += 1;
        let c = match byte {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let unit = self.hex4()?;
                let code = if (0xD800..0xDC00).contains(&unit)
                    && self.bytes.get(self.at..self.at + 2) == Some(b"\\u")
                {
                    let back = self.at;
                    self.at += 2;
                    let low = self.hex4()?;
                    if (0xDC00..0xE000).contains(&low) {
                        0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        self.at = back; // a lone high surrogate, then another escape
                        unit
                    }
                } else {
                    unit
                };
                // A lone surrogate is not a character: it reads as U+FFFD, as JS's
                // `String` to UTF-8 makes it.
                char::from_u32(code).unwrap_or('\u{FFFD}')
            }
            _ => {
                self.at -= 1;
                return self.fail("an unknown escape in a string");
            }
        };
        out.push(c);
        Ok(())
    }

    fn hex4(&mut self) -> Result<u32, SyntaxError> {
        let mut unit = 0;
        for _ in 0..4 {
            let Some(digit) = self.peek().and_then(|b| char::from(b).to_digit(16)) else {
                return self.fail("a \\u escape without four hex digits");
            };
            unit = unit * 16 + digit;
            self.at += 1;
        }
        Ok(unit)
    }

    /// A number as JSON writes it: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`. Its value
    /// is built from its first [`MANTISSA_DIGITS`] digits and a power of ten: exact while whole
    /// and below 2^53, within a few units in the last place otherwise, never NaN (too large for
    /// an f64 is infinite, too small 0).
    fn number(&mut self) -> Result<Json, SyntaxError> {
        let negative = self.peek() == Some(b'-');
        if negative {
            self.at += 1;
        }
        let mut mantissa = Mantissa::default();
        match self.peek() {
            Some(b'0') => self.at += 1,
            Some(b'1'..=b'9') => {
                self.digits(|digit| mantissa.push(digit, 1));
            }
            _ => return self.fail("a number with no digits"),
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            if self.digits(|digit| mantissa.push(digit, 0)) == 0 {
                return self.fail("a number with no digits after its point");
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            let minus = self.peek() == Some(b'-');
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.at += 1;
            }
            let mut exponent: i32 = 0;
            let count = self.digits(|digit| {
                exponent = (exponent * 10 + i32::from(digit)).min(MAX_EXPONENT);
            });
            if count == 0 {
                return self.fail("a number with no digits in its exponent");
            }
            mantissa.exponent += if minus { -exponent } else { exponent };
        }
        let value = mantissa.value();
        Ok(Json::Number(if negative { -value } else { value }))
    }

    /// Reads the decimal digits from here, each given to `each`, and returns how many.
    fn digits(&mut self, mut each: impl FnMut(u8)) -> usize {
        let mut count = 0;
        while let Some(digit @ b'0'..=b'9') = self.peek() {
            each(digit - b'0');
            count += 1;
            self.at += 1;
        }
        count
    }
}

/// The digits of a number that count toward its value: more than f64 holds (17) and below
/// 10^19, so that their sum stays exact in `u64`.
const MANTISSA_DIGITS: u32 = 19;

/// A bound on a written exponent: past it every f64 is 0 or infinite.
const MAX_EXPONENT: i32 = 1_000;

/// A number's first digits as a whole number, and the power of ten that scales it.
#[derive(Default)]
struct Mantissa {
    digits: u64,
    count: u32,
    exponent: i32,
    // Zeros of the fraction not yet added: they count only if a digit other than 0 follows.
    zeros: u32,
}

impl Mantissa {
    /// Adds a digit: of the whole part (`whole` 1), or of the fraction (0). A digit past the
    /// first [`MANTISSA_DIGITS`] is dropped, and a whole one scales the rest by ten.
    fn push(&mut self, digit: u8, whole: i32) {
        if digit == 0 && whole == 0 && self.digits != 0 {
            self.zeros += 1;
            return;
        }
        for _ in 0..core::mem::take(&mut self.zeros) {
            self.add(0, 0);
        }
        self.add(digit, whole);
    }

    fn add(&mut self, digit: u8, whole: i32) {
        if self.digits == 0 && digit == 0 {
            // A leading zero of the fraction only scales what follows.
            self.exponent -= 1 - whole;
        } else if self.count < MANTISSA_DIGITS {
            self.digits = self.digits * 10 + u64::from(digit);
            self.count += 1;
            self.exponent -= 1 - whole;
        } else {
            self.exponent = (self.exponent + whole).min(MAX_EXPONENT);
        }
    }

    /// digits × 10^exponent: with one rounding, so exactly for a whole number, where the digits
    /// are below 2^53 and the power of ten is exact (up to 10^22); else scaled from a number
    /// from 1 to 10 in exact steps, within a few units in the last place.
    fn value(&self) -> f64 {
        if self.digits == 0 {
            return 0.0;
        }
        let digits = self.digits as f64;
        if self.digits < 1 << 53 && (-22..=22).contains(&self.exponent) {
            let power = power_of_ten(self.exponent);
            return if self.exponent < 0 {
                digits / power
            } else {
                digits * power
            };
        }
        let places = self.count.saturating_sub(1) as i32;
        let mut value = digits / power_of_ten(places);
        let mut exponent = (self.exponent + places).clamp(-3 * MAX_EXPONENT, MAX_EXPONENT);
        while exponent != 0 && value != 0.0 && value.is_finite() {
            let step = exponent.clamp(-22, 22);
            let power = power_of_ten(step);
            value = if step < 0 {
                value / power
            } else {
                value * power
            };
            exponent -= step;
        }
        value
    }
}

/// 10^|exponent| by repeated multiplication (no `powi`, which `core` lacks): exact up to 10^22,
/// infinite past 10^308.
fn power_of_ten(exponent: i32) -> f64 {
    let mut power: f64 = 1.0;
    for _ in 0..exponent.unsigned_abs() {
        power *= 10.0;
        if power.is_infinite() {
            break;
        }
    }
    power
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Json {
        parse(text).unwrap()
    }

    #[test]
    fn values_read_as_written() {
        assert_eq!(read(" null "), Json::Null);
        assert_eq!(
            read("[true,false]"),
            Json::Array(vec![Json::Bool(true), Json::Bool(false)])
        );
        assert_eq!(read("-0"), Json::Number(0.0));
        assert_eq!(read("9007199254740993").get("x"), None);
        assert_eq!(read("4294967295"), Json::Number(4_294_967_295.0));
        assert_eq!(read("1.5"), Json::Number(1.5));
        assert_eq!(read("2e3"), Json::Number(2000.0));
        assert_eq!(read("1E-2"), Json::Number(0.01));
        let object = read(r#"{"a": {"b": "c"}, "a": 2}"#);
        assert_eq!(
            object.get("a").and_then(|a| a.get("b")),
            Some(&Json::String("c".into()))
        );
        assert_eq!(object.get("z"), None);
    }

    #[test]
    fn numbers_too_large_are_infinite_too_small_zero_and_never_nan() {
        let value = |text: &str| match read(text) {
            Json::Number(value) => value,
            other => panic!("{text}: {other:?}"),
        };
        assert_eq!(value("0e400"), 0.0);
        assert_eq!(value("0.0e-400"), 0.0);
        assert_eq!(value("1e400"), f64::INFINITY);
        assert_eq!(value("-1e400"), f64::NEG_INFINITY);
        assert_eq!(value("1e-400"), 0.0);
        assert_eq!(value(&format!("1{}", "0".repeat(400))), f64::INFINITY);
        assert_eq!(value(&format!("1{}e-400", "0".repeat(400))), 1.0);
        // Past 10^22 a power of ten is rounded itself: within an ulp or two, not exact.
        let tiny = value(&format!("0.{}1", "0".repeat(24)));
        assert!((tiny - 1e-25).abs() < 1e-40, "{tiny}");
        let third = value(&format!("0.{}", "3".repeat(400)));
        assert!((third - 1.0 / 3.0).abs() < 1e-15, "{third}");
        assert_eq!(value("12345678901234567890123"), 1.2345678901234568e22);
        assert_eq!(value("9007199254740993"), 9007199254740992.0);
        // Zeros that end a fraction change nothing: whole numbers below 2^53 stay exact.
        assert_eq!(value("123456789012345.000"), 123456789012345.0);
        assert_eq!(value("9007199254740991.0"), 9007199254740991.0);
        assert_eq!(value("1.500e2"), 150.0);
        // The ends of f64's range are within it, to a few units in the last place.
        let near = |text: &str, expected: f64| {
            let got = value(text);
            assert!(((got - expected) / expected).abs() < 1e-14, "{text}: {got}");
        };
        near("1.7976931348623157e308", f64::MAX);
        near("2.2250738585072014e-308", f64::MIN_POSITIVE);
        near("1.2345678901234567e-295", 1.2345678901234567e-295);
        near("4.9e-300", 4.9e-300);
    }

    #[test]
    fn escapes_become_their_characters() {
        assert_eq!(
            read(r#""a\"b\\c\/d\n\t\u00e9\ud83d\ude00 \ud800x""#),
            Json::String("a\"b\\c/d\n\té😀 \u{FFFD}x".into())
        );
        assert_eq!(read(r#""\ud800\u0041""#), Json::String("\u{FFFD}A".into()));
        assert_eq!(read(r#""дом""#), Json::String("дом".into()));
    }

    #[test]
    fn what_is_not_json_is_refused_where_it_stops() {
        for (text, at, what) in [
            ("", 0, "the end of the text where a value should be"),
            ("[1,]", 3, "a character that does not start a JSON value"),
            ("[1 2]", 3, "a missing comma or ] in an array"),
            ("{a:1}", 1, "a key that is not a string in quotes"),
            (r#"{"a" 1}"#, 5, "a missing colon after a key"),
            ("\"abc", 4, "a string with no closing quote"),
            ("\"a\u{1}\"", 2, "a control character in a string"),
            (r#""\x""#, 2, "an unknown escape in a string"),
            (r#""\u12""#, 5, "a \\u escape without four hex digits"),
            ("01", 1, "more text after the JSON value"),
            ("1.", 2, "a number with no digits after its point"),
            ("1e", 2, "a number with no digits in its exponent"),
            ("-", 1, "a number with no digits"),
            ("nul", 0, "a word that is not true, false or null"),
            ("{} {}", 3, "more text after the JSON value"),
        ] {
            assert_eq!(parse(text), Err(SyntaxError { at, what }), "{text:?}");
        }
        let deep = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        assert!(parse(&deep).is_ok());
        let deeper = "[".repeat(MAX_DEPTH + 1);
        assert_eq!(
            parse(&deeper).unwrap_err().what,
            "arrays and objects nested more than 64 deep"
        );
    }

    #[test]
    fn a_value_writes_back_as_compact_json() {
        let mut out = String::new();
        read(r#"{ "id": "IFOYYZ", "n": [1, 2.5, null, true], "q": "a\"\n\u0001" }"#)
            .to_text(&mut out);
        assert_eq!(
            out,
            r#"{"id":"IFOYYZ","n":[1,2.5,null,true],"q":"a\"\n\u0001"}"#
        );
    }

    #[test]
    fn positions_are_lines_and_columns_of_characters() {
        let text = "ab\nдд x";
        assert_eq!(line_and_column(text, 0), (1, 1));
        assert_eq!(line_and_column(text, 3), (2, 1));
        assert_eq!(line_and_column(text, 8), (2, 4));
    }

    /// Random JSON trees, four levels deep at most, with any string and any finite number.
    fn json_value() -> impl proptest::strategy::Strategy<Value = serde_json::Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::Bool),
            any::<i64>().prop_map(serde_json::Value::from),
            proptest::num::f64::NORMAL.prop_map(serde_json::Value::from),
            "\\PC{0,12}".prop_map(serde_json::Value::String),
        ];
        leaf.prop_recursive(4, 48, 6, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::Array),
                proptest::collection::btree_map("\\PC{0,8}", inner, 0..6)
                    .prop_map(|map| serde_json::Value::Object(map.into_iter().collect())),
            ]
        })
    }

    fn from_serde(value: &serde_json::Value) -> Json {
        match value {
            serde_json::Value::Null => Json::Null,
            serde_json::Value::Bool(value) => Json::Bool(*value),
            serde_json::Value::Number(number) => Json::Number(number.as_f64().unwrap()),
            serde_json::Value::String(text) => Json::String(text.clone()),
            serde_json::Value::Array(items) => Json::Array(items.iter().map(from_serde).collect()),
            serde_json::Value::Object(fields) => Json::Object(
                fields
                    .iter()
                    .map(|(key, value)| (key.clone(), from_serde(value)))
                    .collect(),
            ),
        }
    }

    /// Equal trees, numbers exact when whole below 2^53 and otherwise relatively within 1e-14.
    fn same(ours: &Json, theirs: &Json) -> bool {
        match (ours, theirs) {
            (Json::Number(a), Json::Number(b))
                if b.fract() == 0.0 && b.abs() < 9_007_199_254_740_992.0 =>
            {
                a == b
            }
            (Json::Number(a), Json::Number(b)) => ((a - b) / b).abs() < 1e-14,
            (Json::Array(a), Json::Array(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same(a, b))
            }
            (Json::Object(a), Json::Object(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .zip(b)
                        .all(|((ka, va), (kb, vb))| ka == kb && same(va, vb))
            }
            _ => ours == theirs,
        }
    }

    proptest::proptest! {
        #[test]
        /// Where one rounding decides (digits below 2^53, a power of ten up to 10^22), exactly
        /// serde_json's value; trailing zeros of the fraction included.
        fn numbers_read_as_serde_json_reads_them(digits in 0u64..(1 << 53), point in 0usize..17, zeros in 0usize..4, exponent in -5i32..=5) {
            let mut text = digits.to_string();
            if point > 0 && point < text.len() {
                text.insert(point, '.');
                text.push_str(&"0".repeat(zeros));
            }
            let text = format!("{text}e{exponent}");
            let theirs: f64 = serde_json::from_str(&text).unwrap();
            let ours = match parse(&text) {
                Ok(Json::Number(value)) => value,
                other => panic!("{text}: {other:?}"),
            };
            proptest::prop_assert_eq!(ours, theirs, "{}", text);
        }

        /// Anywhere in f64's normal range, within a few units in the last place of serde_json's.
        #[test]
        fn any_normal_number_reads_close_to_serde_json(value in proptest::num::f64::NORMAL) {
            let text = format!("{value:e}");
            let theirs: f64 = serde_json::from_str(&text).unwrap();
            let ours = match parse(&text) {
                Ok(Json::Number(value)) => value,
                other => panic!("{text}: {other:?}"),
            };
            proptest::prop_assert!(((ours - theirs) / theirs).abs() < 1e-14, "{} read as {}", text, ours);
        }

        #[test]
        fn it_reads_what_serde_json_reads(text in "[\\[\\]{}\",:0-9a-z\\\\. eE+-]{0,24}") {
            // serde_json refuses a lone surrogate, which this reader reads as U+FFFD.
            proptest::prop_assume!(!text.contains("\\u"));
            let ours = parse(&text).is_ok();
            let theirs = serde_json::from_str::<serde_json::Value>(&text).is_ok();
            proptest::prop_assert_eq!(ours, theirs, "{:?}", text);
        }

        /// Any value serde_json writes (pretty or compact) reads back as the value serde_json
        /// holds: the same tree, keys in the order written, and numbers as the module promises
        /// (whole ones below 2^53 exact, any other within a few units in the last place).
        #[test]
        fn values_read_as_serde_json_holds_them(value in json_value(), pretty in proptest::bool::ANY) {
            let text = if pretty { serde_json::to_string_pretty(&value) } else { serde_json::to_string(&value) }.unwrap();
            let ours = read(&text);
            proptest::prop_assert!(same(&ours, &from_serde(&value)), "{} read as {:?}", text, ours);
        }

        #[test]
        fn strings_round_trip(text in "\\PC{0,20}|[\u{0}-\u{1f}\"\\\\]{0,5}") {
            let mut out = String::new();
            Json::String(text.clone()).to_text(&mut out);
            proptest::prop_assert_eq!(read(&out), Json::String(text.clone()));
            proptest::prop_assert_eq!(serde_json::from_str::<String>(&out).unwrap(), text);
        }
    }
}
