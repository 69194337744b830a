//! Where a turn's one-line summary comes from when it joins a live session.

use crate::compaction::script::{extract, Kind, Turn};
use crate::error::{Error, ErrorKind};
use crate::prelude::*;
use alloc::sync::Arc;

/// Writes the one-line summary that stands for a turn once it leaves the verbatim window.
///
/// A [`Session`](crate::Session) asks its summarizer only when turns fold: once per
/// compaction, with [`summarize_batch`](Summarizer::summarize_batch), for exactly the turns whose
/// summary the compaction needs and does not have yet (a turn pushed with its own summary,
/// [`Turn::with_summary`], keeps it and is never asked about). The session keeps the answers: the
/// policies then read them like a scripted summary, so a replay gives the same state. Plug in an
/// LLM call here; a summary is written once, so a replay never calls it again.
///
/// A closure `Fn(&Turn) -> Result<String, Error> + Send + Sync` is a summarizer, and so is an
/// [`Arc`](alloc::sync::Arc) of one, to share it between sessions.
///
/// # Example
///
/// ```
/// use std::sync::Arc;
/// use agent_memory_widgets::{Extractive, HotWarmCold, Kind, Session, SessionConfig, Summarizer, Turn};
///
/// # fn main() -> Result<(), agent_memory_widgets::Error> {
/// let turn = Turn::new("agent", Kind::Decision, "Late returns carry a 10% fee. Sorry!")?;
/// assert_eq!(Extractive.summarize(&turn)?, "Late returns carry a 10% fee.");
///
/// // A closure, shared by two sessions.
/// let shout = Arc::new(|turn: &Turn| Ok(turn.text().to_uppercase()));
/// assert_eq!(shout.summarize(&turn)?, "LATE RETURNS CARRY A 10% FEE. SORRY!");
/// let config = SessionConfig::default();
/// let one = Session::live(config, Box::new(HotWarmCold::default())).with_summarizer(Box::new(shout.clone()));
/// let two = Session::live(config, Box::new(HotWarmCold::default())).with_summarizer(Box::new(shout));
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

    /// The summaries of `turns`, one each and in the same order: the turns one compaction folds,
    /// oldest first, none of them chatter. One LLM call can write them all. The default asks
    /// [`summarize`](Summarizer::summarize) for each turn in turn.
    ///
    /// ```
    /// use agent_memory_widgets::{Extractive, Kind, Summarizer, Turn};
    ///
    /// # fn main() -> Result<(), agent_memory_widgets::Error> {
    /// let one = Turn::new("Dana", Kind::Question, "Where is my refund? It has been a week.")?;
    /// let two = Turn::new("tool", Kind::Tool, "refund RF-7781: sent on day 3.")?;
    /// assert_eq!(Extractive.summarize_batch(&[&one, &two])?, ["Where is my refund?", "refund RF-7781: sent on day 3."]);
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// # Errors
    ///
    /// When there are none to give; the push fails and the session is left as it was. A session
    /// also refuses an answer with another number of summaries than turns
    /// ([`ErrorKind::InvalidState`](crate::ErrorKind)), or a summary with no word
    /// ([`ErrorKind::InvalidOption`](crate::ErrorKind) naming `summary`).
    fn summarize_batch(&self, turns: &[&Turn]) -> Result<Vec<String>, Error> {
        let mut summaries = Vec::with_capacity(turns.len());
        for turn in turns {
            summaries.push(self.summarize(turn)?);
        }
        Ok(summaries)
    }
}

/// A closure is a summarizer: `|turn: &Turn| Ok(my_llm(turn.text())?)`.
impl<F> Summarizer for F
where
    F: Fn(&Turn) -> Result<String, Error> + Send + Sync,
{
    fn summarize(&self, turn: &Turn) -> Result<String, Error> {
        self(turn)
    }
}

/// A shared summarizer: several sessions can hold one, and its batches stay its own.
impl<S: Summarizer + ?Sized> Summarizer for Arc<S> {
    fn summarize(&self, turn: &Turn) -> Result<String, Error> {
        (**self).summarize(turn)
    }

    fn summarize_batch(&self, turns: &[&Turn]) -> Result<Vec<String>, Error> {
        (**self).summarize_batch(turns)
    }
}

/// The summary written with the turn ([`Turn::with_summary`], or a script's `summary`): the
/// refund desk's, and the default. A session without a summarizer of its own refuses at
/// [`push`](crate::Session::push) a turn that is not chatter and has no summary; as a session's
/// summarizer it is only asked about such a turn when it folds, and then fails.
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
/// most [`EXTRACT_WORDS`](crate::EXTRACT_WORDS) words, with `…` where it was cut. A session asks
/// it only about turns pushed without a summary of their own.
#[derive(Clone, Copy, Debug, Default)]
pub struct Extractive;

impl Summarizer for Extractive {
    /// The turn's first sentence, cut to [`EXTRACT_WORDS`](crate::EXTRACT_WORDS) words.
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
