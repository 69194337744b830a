//! The largest inputs the crate accepts. Anything beyond them is rejected with an [`Error`]
//! that names the limit, before any memory is set aside for it, so that a hostile or mistaken
//! input can neither exhaust memory nor make one call block a page.
//!
//! Every limit is generous for a conversation or a fact store a person can read on a page, and
//! small enough to keep the longest call short: `make bench` times a playground of 1,000 turns
//! in Chromium (under 50 ms in its last run, BENCHMARKS.md), and one at every limit at once
//! (1,000,000 characters, each summary nearly its whole turn: under 200 ms, a long task but not
//! a frozen page); a decay chart at its limit takes under 10 ms natively.
//!
//! Two limits hold one text. The library's, [`MAX_TEXT_CHARS`], is sized for an agent's real
//! turns and facts (a long tool output, a file read whole); the page's, [`MAX_PAGE_TEXT_CHARS`],
//! is smaller and holds what the widgets take (options and imported turns), so that a page that
//! draws every text stays quick. The README's table of limits is generated from this file
//! (`tests/limits.rs`).
//!
//! [`Error`]: crate::Error

use crate::prelude::*;
/// The most turns in a script given as options (`Session::from_options`, and from JS): room for
/// an imported session log of tens of thousands of turns. A native
/// [`Script::new`](crate::Script::new) takes any length.
pub const MAX_TURNS: usize = 100_000;
/// The most characters in all the texts of one script given as options: as many as the largest
/// import ([`MAX_IMPORT_BYTES`]) has bytes, so that whatever imports also plays.
pub const MAX_SCRIPT_TEXT_CHARS: usize = MAX_IMPORT_BYTES;
/// The most bytes [`import_conversation`](crate::import_conversation) reads: 64 MiB, a session
/// log of tens of thousands of records. Nothing else of an import is limited: not its lines,
/// its turns nor its text in all (a turn's own text is cut at [`MAX_PAGE_TEXT_CHARS`], with a
/// mark).
pub const MAX_IMPORT_BYTES: usize = 64 * 1024 * 1024;
/// The most characters in one text of the library: a turn's text, summary, speaker or tool-call
/// id ([`Turn`](crate::Turn), a [`TurnSpec`](crate::TurnSpec) read by [`Script::new`](crate::Script::new),
/// a summarizer's summary, a saved session), and a fact's text
/// ([`LiveStore::write`](crate::LiveStore::write), a distilled fact, a saved store). Room for a
/// long tool output or a file read whole.
pub const MAX_TEXT_CHARS: usize = 1_000_000;
/// The most characters in one text the widgets take: each text of a script or scenario given as
/// options ([`Script::within_limits`](crate::Script::within_limits),
/// [`Session::from_options`](crate::Session::from_options), a scenario, `withConfig`), and each
/// imported turn, which [`import_conversation`](crate::import_conversation) cuts to it with a
/// mark (`… [cut: 13500 characters]`). Smaller than [`MAX_TEXT_CHARS`], so that a page that
/// draws every text of a session stays quick.
pub const MAX_PAGE_TEXT_CHARS: usize = 10_000;
/// The most facts a scenario starts with.
pub const MAX_FACTS: usize = 1_000;
/// The most write events in a scenario.
pub const MAX_EVENTS: usize = 1_000;
/// The most reads in a scenario; the reader's own reads count too.
pub const MAX_READS: usize = 10_000;
/// The most consolidation rules in a scenario.
pub const MAX_RULES: usize = 1_000;
/// The shortest half-life accepted, in the caller's time unit (see [`Time`](crate::Time)).
pub const MIN_HALF_LIFE: f64 = 1e-3;
/// The longest half-life accepted, in the caller's time unit: as long as [`MAX_TIME`], so that
/// a half-life can be given in the same unit as any time (a year is about 3.2e10 ms).
pub const MAX_HALF_LIFE: f64 = 1e13;
/// The latest time on a timeline, 10^13: in the caller's unit ([`Time`](crate::Time)), room for
/// Unix time in seconds (about 1.8e9 today) or in milliseconds (about 1.8e12 today, and three
/// centuries more), or any count of turns. Every score and ranking key stays finite up to it.
pub const MAX_TIME: f64 = 1e13;
/// The most sampled times in one decay chart: `until / step`, rounded down, plus one.
pub const MAX_CHART_SAMPLES: usize = 10_001;
/// The most points one decay chart returns: its times (the samples, and each change twice)
/// times the facts it draws.
pub const MAX_CHART_POINTS: usize = 100_000;

use crate::error::Error;

/// The characters of `text`: its bytes but UTF-8's continuation bytes. A plain loop, where
/// `chars().count()` brings core's word-at-a-time counter (about 1 KB of wasm).
pub(crate) fn char_count(text: &str) -> usize {
    let mut count = 0;
    for &byte in text.as_bytes() {
        count += usize::from(byte & 0xC0 != 0x80);
    }
    count
}

/// Checks that `text` has at most [`MAX_TEXT_CHARS`] characters; the message names `path`.
pub(crate) fn check_text(path: &str, text: &str) -> Result<(), Error> {
    let chars = char_count(text);
    if chars <= MAX_TEXT_CHARS {
        Ok(())
    } else {
        Err(too_long(path, chars, MAX_TEXT_CHARS, "MAX_TEXT_CHARS"))
    }
}

/// The error for a text named `path` of `chars` characters, more than `max`, the limit named
/// `limit`.
fn too_long(path: &str, chars: usize, max: usize, limit: &'static str) -> Error {
    Error::over_limit(
        limit,
        text!(
            path,
            ": must have at most ",
            max,
            " characters, got ",
            chars
        ),
    )
}

/// Checks that a list named `path` has at most `max` items, the limit named `limit`.
pub(crate) fn check_len(
    path: &str,
    len: usize,
    max: usize,
    limit: &'static str,
) -> Result<(), Error> {
    if len <= max {
        Ok(())
    } else {
        Err(Error::over_limit(
            limit,
            text!(path, " must have at most ", max, " items, got ", len),
        ))
    }
}

/// The most characters in all the texts of one scenario together.
pub const MAX_TOTAL_TEXT_CHARS: usize = 1_000_000;

/// Counts texts against a limit on all of them together as a script or scenario given as options
/// is read: [`MAX_TOTAL_TEXT_CHARS`] by default, [`MAX_SCRIPT_TEXT_CHARS`] for a script; each
/// text on its own is held to [`MAX_PAGE_TEXT_CHARS`].
#[derive(Debug)]
pub(crate) struct TextBudget {
    used: usize,
    max: usize,
    limit: &'static str,
}

impl Default for TextBudget {
    fn default() -> TextBudget {
        TextBudget {
            used: 0,
            max: MAX_TOTAL_TEXT_CHARS,
            limit: "MAX_TOTAL_TEXT_CHARS",
        }
    }
}

impl TextBudget {
    /// The budget of a script's texts, [`MAX_SCRIPT_TEXT_CHARS`].
    pub(crate) fn script() -> TextBudget {
        TextBudget {
            used: 0,
            max: MAX_SCRIPT_TEXT_CHARS,
            limit: "MAX_SCRIPT_TEXT_CHARS",
        }
    }

    /// Checks `text` on its own, against the page's [`MAX_PAGE_TEXT_CHARS`], and against what
    /// is left of the budget.
    pub(crate) fn take(&mut self, path: &str, text: &str) -> Result<(), Error> {
        let chars = char_count(text);
        if chars > MAX_PAGE_TEXT_CHARS {
            return Err(too_long(
                path,
                chars,
                MAX_PAGE_TEXT_CHARS,
                "MAX_PAGE_TEXT_CHARS",
            ));
        }
        self.used += chars;
        if self.used <= self.max {
            Ok(())
        } else {
            Err(Error::over_limit(
                self.limit,
                text!(
                    path,
                    ": all texts together must have at most ",
                    self.max,
                    " characters"
                ),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::char_count;

    #[test]
    fn char_count_counts_characters_not_bytes() {
        for text in ["", "abc", "naïve", "日本語", "👩‍💻 ok", "\u{10FFFF}x"] {
            assert_eq!(char_count(text), text.chars().count(), "{text}");
        }
    }
}
