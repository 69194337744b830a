//! How a session counts tokens: words by default, an estimate of a BPE tokenizer's count, or the
//! caller's own tokenizer.

use crate::prelude::*;
use alloc::sync::Arc;

use crate::error::Error;
use crate::text::fmt_number;
use crate::units::Tokens;

/// Counts the tokens of a text: what a [`Session`](crate::Session) measures its budget in.
///
/// A session counts with [`Words`] unless it is given another counter
/// ([`Session::with_token_counter`](crate::Session::with_token_counter)). It then counts with
/// that counter every turn pushed without its own count ([`Turn::with_tokens`](crate::Turn::with_tokens))
/// and every line a policy places in the window (the WARM summaries, the COLD gist, a turn cut
/// short or masked), so that the budget means one thing. Any `Fn(&str) -> Tokens + Send + Sync`
/// is a counter, such as a closure around your model's tokenizer.
///
/// # Example
///
/// ```
/// use agent_memory_widgets::{Estimate, TokenCounter, Tokens, Words};
///
/// assert_eq!(Words.count("Can I get my $200.00 back?"), Tokens(6));
/// assert_eq!(Estimate.count("Can I get my $200.00 back?"), Tokens(8));
/// let chars = |text: &str| Tokens(text.chars().count() as u32);
/// assert_eq!(chars.count("Hi Dana"), Tokens(7));
/// ```
pub trait TokenCounter: Send + Sync {
    /// The tokens of `text`.
    fn count(&self, text: &str) -> Tokens;

    /// A short name for the counting in use, which a session's state reports
    /// ([`SessionState::counting`](crate::SessionState::counting)): `words`, `estimate`, or
    /// `custom` unless the counter names itself.
    fn name(&self) -> &str {
        "custom"
    }
}

impl<F: Fn(&str) -> Tokens + Send + Sync> TokenCounter for F {
    fn count(&self, text: &str) -> Tokens {
        self(text)
    }
}

/// Words split on Unicode whitespace, [`Tokens::of`]: the default, and the seed's. Every run
/// counts the same in every language, though far from a tokenizer's count for some (see
/// [`Estimate`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Words;

impl TokenCounter for Words {
    fn count(&self, text: &str) -> Tokens {
        Tokens::of(text)
    }

    fn name(&self) -> &str {
        "words"
    }
}

/// How [`Estimate`] counts, in the words the page's "count tokens as" knob says it.
pub const ESTIMATE_RULE: &str = "Each word (split at whitespace) counts one token for each \
    Chinese, Japanese or Korean character in it, plus a quarter of its other characters, rounded up.";

/// An estimate of a BPE tokenizer's count: about 4 characters a token, and one a character of
/// Chinese, Japanese or Korean ([`ESTIMATE_RULE`]).
///
/// Exactly: the text is split into words on Unicode whitespace, as [`Tokens::of`] splits it,
/// and each word counts `c + ⌈o / 4⌉`, where `c` is its number of CJK characters and `o` the
/// number of its other characters. Whitespace is not counted (a BPE tokenizer merges a space
/// into the word after it), and every word counts at least 1. Since a text's count is the sum
/// of its words', two texts joined by a space count what they counted apart.
///
/// The CJK characters, one token each, are those in:
///
/// - Han: U+3400–U+4DBF (Extension A), U+4E00–U+9FFF (Unified Ideographs), U+F900–U+FAFF
///   (Compatibility Ideographs), U+20000–U+3FFFF (Extensions B and later);
/// - Hiragana and Katakana: U+3040–U+30FF, U+31F0–U+31FF (Katakana Phonetic Extensions);
/// - Hangul: U+1100–U+11FF (Jamo), U+3130–U+318F (Compatibility Jamo), U+AC00–U+D7AF
///   (Syllables);
/// - their punctuation and full-width forms: U+3000–U+303F (CJK Symbols and Punctuation, such as
///   `、` and `。`) and U+FF00–U+FFEF (Halfwidth and Fullwidth Forms, such as `，` and `？`).
///
/// # Examples
///
/// ```
/// use agent_memory_widgets::{Estimate, TokenCounter, Tokens};
///
/// // English: 8 words of 1 to 6 characters, 2 of them over 4 ("there,", "you're", "having").
/// assert_eq!(Estimate.count("Hi there, hope you're having a good day!"), Tokens(11));
/// assert_eq!(Estimate.count("Late returns carry a 10% restocking fee, so your refund is $180.00."), Tokens(18));
/// // Chinese: 18 characters, all CJK (the comma and the full stop too).
/// assert_eq!(Estimate.count("您的退款已经批准，五个工作日内到账。"), Tokens(18));
/// // Japanese: 22 CJK characters and the digit 5, a quarter of a token rounded up.
/// assert_eq!(Estimate.count("返金は承認されました。5営業日以内に届きます。"), Tokens(23));
/// // Mixed: 21 CJK characters, and "ORD-3300" and "200" (11 others: 3 tokens).
/// assert_eq!(Estimate.count("注文ORD-3300を返品しました。200ドルは返金されますか？"), Tokens(24));
/// assert_eq!(Estimate.count(""), Tokens(0));
/// ```
///
/// How close it comes, against OpenAI's BPE tokenizers (`cl100k_base`, GPT-4's, and
/// `o200k_base`, GPT-4o's), counted with js-tiktoken 1.0.21:
///
/// | text | words | `Estimate` | cl100k | o200k |
/// | --- | ---: | ---: | ---: | ---: |
/// | `Hi there, hope you're having a good day!` | 8 | 11 | 11 | 10 |
/// | `Late returns carry a 10% restocking fee, so your refund is $180.00.` | 12 | 18 | 20 | 20 |
/// | the ten refund-desk turns together | 94 | 161 | 172 | 164 |
/// | a 64-word paragraph of plain English prose | 64 | 106 | 89 | 90 |
/// | `您的退款已经批准，五个工作日内到账。` | 1 | 18 | 20 | 12 |
/// | `返金は承認されました。5営業日以内に届きます。` | 1 | 23 | 25 | 17 |
/// | `注文ORD-3300を返品しました。200ドルは返金されますか？` | 1 | 24 | 24 | 18 |
///
/// Words are 55% of cl100k's count on the refund desk, and a Chinese or Japanese sentence,
/// written without spaces, is one word. The estimate is within 20% of cl100k's count on every
/// row: high on plain prose (whose long words are one token each), low on IDs and amounts (which
/// a tokenizer splits finely). o200k has a larger CJK vocabulary and takes up to 40% fewer
/// tokens there. For your model's exact
/// count, give the session its tokenizer, or give each turn its count from the API's `usage`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Estimate;

impl TokenCounter for Estimate {
    fn count(&self, text: &str) -> Tokens {
        let mut tokens: u64 = 0;
        for word in crate::text::pieces(text) {
            let (mut cjk, mut other) = (0u64, 0u64);
            for c in word.chars() {
                if is_cjk(c) {
                    cjk += 1;
                } else {
                    other += 1;
                }
            }
            tokens += cjk + other.div_ceil(4);
        }
        Tokens(u32::try_from(tokens).unwrap_or(u32::MAX))
    }

    fn name(&self) -> &str {
        "estimate"
    }
}

/// Whether `c` counts one token in an [`Estimate`]: the ranges its doc comment lists.
fn is_cjk(c: char) -> bool {
    matches!(
        u32::from(c),
        0x1100..=0x11FF
            | 0x3000..=0x303F
            | 0x3040..=0x30FF
            | 0x3130..=0x318F
            | 0x31F0..=0x31FF
            | 0x3400..=0x4DBF
            | 0x4E00..=0x9FFF
            | 0xAC00..=0xD7AF
            | 0xF900..=0xFAFF
            | 0xFF00..=0xFFEF
            | 0x20000..=0x3FFFF
    )
}

/// The counter a window measures with: `None` is [`Words`], with no counter object, so that a
/// build that only counts words (the widget's) carries no counter code.
#[derive(Clone, Default)]
pub(crate) struct Counter(Option<Arc<dyn TokenCounter>>);

impl Counter {
    /// `counter`, shared.
    pub(crate) fn of(counter: Arc<dyn TokenCounter>) -> Counter {
        Counter(Some(counter))
    }

    /// The tokens of `text`.
    pub(crate) fn count(&self, text: &str) -> Tokens {
        match &self.0 {
            Some(counter) => counter.count(text),
            None => Tokens::of(text),
        }
    }

    /// Whether this is the default, words, with no counter object.
    pub(crate) fn is_words(&self) -> bool {
        self.0.is_none()
    }

    /// The counter's name, `None` for the default (words).
    pub(crate) fn name(&self) -> Option<&str> {
        self.0.as_deref().map(TokenCounter::name)
    }

    /// The counter that options name: `words` (the default, also when absent) or `estimate`.
    ///
    /// # Errors
    ///
    /// An [`ErrorKind::InvalidOption`](crate::ErrorKind) naming `tokens` for any other name.
    pub(crate) fn named(name: Option<&str>) -> Result<Counter, Error> {
        match name {
            None | Some("words") => Ok(Counter::default()),
            Some("estimate") => Ok(Counter::of(Arc::new(Estimate))),
            Some(other) => Err(Error::invalid(
                "tokens",
                text!(
                    "tokens must be \"words\" or \"estimate\", got \"",
                    other,
                    "\""
                ),
            )),
        }
    }
}

/// Counters compare by name: the default (words) equals only itself.
impl PartialEq for Counter {
    fn eq(&self, other: &Counter) -> bool {
        self.name() == other.name()
    }
}

impl Eq for Counter {}

impl core::fmt::Debug for Counter {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name().unwrap_or("words"))
    }
}

/// A token count as a caller gives it, `value` of the field `name` (a whole number from 0 to
/// `u32::MAX`); the error is [`ErrorKind::InvalidOption`](crate::ErrorKind) naming `field`.
pub(crate) fn given_count(field: &str, name: &str, value: f64) -> Result<Tokens, Error> {
    let whole = value.is_finite() && crate::float::fract(value) == 0.0;
    if whole && (0.0..=f64::from(u32::MAX)).contains(&value) {
        // The checks above make this cast exact.
        Ok(Tokens(value as u32))
    } else {
        Err(Error::invalid(
            field,
            text!(
                name,
                " must be a whole number of tokens from 0 to 4294967295, got ",
                fmt_number(value)
            ),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_range_is_cjk_and_its_neighbours_are_not() {
        for (start, end) in [
            (0x1100, 0x11FF),
            (0x3000, 0x303F),
            (0x3040, 0x30FF),
            (0x3130, 0x318F),
            (0x31F0, 0x31FF),
            (0x3400, 0x4DBF),
            (0x4E00, 0x9FFF),
            (0xAC00, 0xD7AF),
            (0xF900, 0xFAFF),
            (0xFF00, 0xFFEF),
            (0x20000, 0x3FFFF),
        ] {
            for code in [start, end] {
                let c = char::from_u32(code).unwrap();
                assert!(is_cjk(c), "{code:X}");
            }
        }
        for c in [
            'a', 'é', 'д', '\u{10FF}', '\u{2FFF}', '\u{D7B0}', '\u{FFF0}', '😀',
        ] {
            assert!(!is_cjk(c), "{c}");
        }
    }

    #[test]
    fn options_name_words_or_estimate() {
        assert!(Counter::named(None).unwrap().is_words());
        assert!(Counter::named(Some("words")).unwrap().is_words());
        assert_eq!(
            Counter::named(Some("estimate")).unwrap().name(),
            Some("estimate")
        );
        let err = Counter::named(Some("bpe")).unwrap_err();
        assert_eq!(
            err.message(),
            "tokens must be \"words\" or \"estimate\", got \"bpe\""
        );
        assert_eq!(err.js_message(), err.message());
    }

    #[test]
    fn a_given_count_is_a_whole_number_within_u32() {
        assert_eq!(given_count("tokens", "tokens", 0.0).unwrap(), Tokens(0));
        assert_eq!(
            given_count("tokens", "tokens", 4_294_967_295.0).unwrap(),
            Tokens(u32::MAX)
        );
        for bad in [-1.0, 1.5, f64::NAN, f64::INFINITY, 4_294_967_296.0] {
            assert!(given_count("tokens", "tokens", bad).is_err(), "{bad}");
        }
        assert_eq!(
            given_count("messages", "messages[2].tokens", 1.5)
                .unwrap_err()
                .message(),
            "messages[2].tokens must be a whole number of tokens from 0 to 4294967295, got 1.5"
        );
    }
}
