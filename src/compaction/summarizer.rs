//! Where a turn's one-line summary comes from when it joins a live session.

use crate::compaction::script::{Kind, Turn};
use crate::error::{Error, ErrorKind};
use crate::prelude::*;

/// Writes the one-line summary that stands for a turn once it leaves the verbatim window.
///
/// A [`Session`](crate::Session) asks its summarizer once per pushed turn that is not chatter,
/// at [`Session::push`](crate::Session::push), and keeps the answer: the policies then read it
/// like a scripted summary, so a replay gives the same state. Plug in an LLM call here, as long
/// as it is deterministic if the replay must be.
///
/// # Example
///
/// ```
/// use agent_memory_widgets::{Extractive, Kind, Summarizer, Turn};
///
/// # fn main() -> Result<(), agent_memory_widgets::Error> {
/// let turn = Turn::new("agent", Kind::Decision, "Late returns carry a 10% fee. Sorry!")?;
/// assert_eq!(Extractive.summarize(&turn)?, "Late returns carry a 10% fee.");
/// # Ok(())
/// # }
/// ```
pub trait Summarizer: Send + Sync {
    /// The summary of `turn`, which is not chatter.
    ///
    /// # Errors
    ///
    /// When there is none to give; the push fails and the session is left as it was.
    fn summarize(&self, turn: &Turn) -> Result<String, Error>;
}

/// The summary written with the turn ([`Turn::with_summary`], or a script's `summary`): the
/// refund desk's, and the default.
#[derive(Clone, Copy, Debug, Default)]
pub struct Scripted;

impl Summarizer for Scripted {
    /// The turn's own summary.
    ///
    /// # Errors
    ///
    /// An [`ErrorKind::InvalidOption`](crate::ErrorKind) naming `summary` when the turn has none.
    fn summarize(&self, turn: &Turn) -> Result<String, Error> {
        match turn.summary() {
            Some(summary) => Ok(summary.to_owned()),
            None => Err(Error::invalid(
                "summary",
                "summary: a turn that is not chatter needs a one-line summary under the Scripted \
                 summarizer; write one with Turn::with_summary, or use the Extractive summarizer",
            )),
        }
    }
}

/// A deterministic extractive summary: the turn's first sentence, cut at a word boundary to at
/// most [`EXTRACT_WORDS`] words, with `…` where it was cut. A summary written with the turn is
/// ignored.
#[derive(Clone, Copy, Debug, Default)]
pub struct Extractive;

/// The most words an [`Extractive`] summary keeps.
pub const EXTRACT_WORDS: usize = 12;

impl Summarizer for Extractive {
    /// The turn's first sentence, cut to [`EXTRACT_WORDS`] words.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidState`](crate::ErrorKind) for chatter, which has no summary.
    fn summarize(&self, turn: &Turn) -> Result<String, Error> {
        if turn.kind() == Kind::Chatter {
            return Err(Error::new(
                ErrorKind::InvalidState,
                "chatter has no summary",
            ));
        }
        Ok(extract(turn.text()))
    }
}

/// The first sentence of `text` (up to a `.`, `!` or `?` that ends a word), at most
/// [`EXTRACT_WORDS`] words, `…` appended where it was cut.
pub(crate) fn extract(text: &str) -> String {
    let mut out = String::new();
    for (words, word) in crate::text::words(text).enumerate() {
        if words == EXTRACT_WORDS {
            out.push('…');
            return out;
        }
        if words > 0 {
            out.push(' ');
        }
        out.push_str(word);
        // An ASCII last byte is an ASCII last character.
        if matches!(word.bytes().last(), Some(b'.' | b'!' | b'?')) {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_extract_is_the_first_sentence_cut_at_twelve_words() {
        let check = |text: &str, expect: &str| assert_eq!(extract(text), expect, "{text}");
        check("One. Two.", "One.");
        check("No stop at all", "No stop at all");
        check("a b c d e f g h i j k l m n.", "a b c d e f g h i j k l…");
        check("a b c d e f g h i j k l.", "a b c d e f g h i j k l.");
        check(
            "ORD-3300 costs $200.00, returned late!  Then more.",
            "ORD-3300 costs $200.00, returned late!",
        );
    }
}
