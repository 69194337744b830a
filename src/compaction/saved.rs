//! A session as plain data, to save between runs and load again with its policy and
//! summarizer (which are code, not data).

use crate::prelude::*;
use alloc::sync::Arc;
use serde::ser::SerializeStruct;
use serde::Serialize;

use crate::compaction::script::{Kind, Role, Script, Turn, TurnSpec};
use crate::compaction::tokens::Counter;
use crate::compaction::window::Window;
use crate::compaction::{
    waits, CompactionPolicy, Mode, Session, SessionConfig, Summarizer, TokenCounter,
};
use crate::error::Error;
use crate::units::Tokens;

/// A turn as a [`SavedSession`] holds it: its summary, if one was written, and its token count
/// as the session counted it.
///
/// Serialised as `{ "speaker": "Dana", "kind": "question", "text": "...", "summary": "...",
/// "tokens": 10 }`, with `"summaryByRule": true` when the first-sentence rule wrote the summary,
/// `"ownTokens": true` when the caller gave the count ([`Turn::with_tokens`]), `"role"` when one
/// was given ([`Turn::with_role`]), and `"toolCallId"` when the turn has one. A format that is
/// not human-readable (postcard, bincode), which has no field names to miss, always has every
/// field, in this order.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "deserialize",
    derive(serde::Deserialize),
    serde(deny_unknown_fields, rename_all = "camelCase")
)]
#[non_exhaustive]
pub struct SavedTurn {
    /// Who spoke.
    pub speaker: String,
    /// The turn's kind.
    pub kind: Kind,
    /// The turn's role, when one was given: `None` for
    /// [`Role::default_for`](crate::Role::default_for) its speaker and kind.
    #[cfg_attr(feature = "deserialize", serde(default))]
    pub role: Option<Role>,
    /// The id the turn shares with its tool call or result ([`Turn::tool_call_id`]).
    #[cfg_attr(feature = "deserialize", serde(default))]
    pub tool_call_id: Option<String>,
    /// The verbatim text.
    pub text: String,
    /// The one-line summary: `None` for chatter and for a turn that has not folded yet.
    #[cfg_attr(feature = "deserialize", serde(default))]
    pub summary: Option<String>,
    /// Whether the first-sentence rule wrote the summary ([`Turn::summary_by_rule`]).
    #[cfg_attr(feature = "deserialize", serde(default))]
    pub summary_by_rule: bool,
    /// The verbatim text's token count.
    pub tokens: Tokens,
    /// Whether the caller gave `tokens` ([`Turn::has_own_tokens`]) rather than the session's
    /// counter.
    #[cfg_attr(feature = "deserialize", serde(default))]
    pub own_tokens: bool,
}

impl From<&Turn> for SavedTurn {
    fn from(turn: &Turn) -> SavedTurn {
        SavedTurn {
            speaker: turn.speaker().to_owned(),
            kind: turn.kind(),
            role: turn.given_role(),
            tool_call_id: turn.tool_call_id().map(str::to_owned),
            text: turn.text().to_owned(),
            summary: turn.summary().map(str::to_owned),
            summary_by_rule: turn.summary_by_rule(),
            tokens: turn.tokens(),
            own_tokens: turn.has_own_tokens(),
        }
    }
}

/// A [`Session`] as plain data: its settings, every turn of its script (a live session's are
/// the turns pushed so far) with the summaries written so far, and how many turns were added.
///
/// A session serialises as this ([`Session::save`] gives it), and [`Session::load`] makes a
/// session of it again with a policy and a summarizer, which are code and not saved. The window,
/// the log and the policy's own memory are not saved either: they are a function of the turns,
/// replayed at load without calling the summarizer (the summaries of every turn that folded are
/// saved).
///
/// One case does not load exactly: a session stepped back ([`Session::go_to`]) and then pushed
/// into, under a policy that looks at the turn after the one it steps ([`Interval`](crate::Interval)):
/// the step before the first push saw a turn that the push replaced, and is not saved.
///
/// # Example
///
/// ```
/// use agent_memory_widgets::{Extractive, HotWarmCold, Kind, SavedSession, Session, SessionConfig, Turn};
///
/// # #[cfg(not(feature = "deserialize"))] fn main() {}
/// # #[cfg(feature = "deserialize")]
/// # fn main() -> Result<(), Box<dyn core::error::Error>> {
/// let mut session = Session::live(SessionConfig::default(), Box::new(HotWarmCold::default()));
/// for text in ["Where is my refund for ORD-3300?", "lookup ORD-3300: refund sent on day 3.", "It was sent on day 3."] {
///     session.push(Turn::new("Dana", Kind::Question, text)?)?;
/// }
/// let json = serde_json::to_string(&session)?;
///
/// // Next run: the policy and the summarizer are attached again.
/// let saved: SavedSession = serde_json::from_str(&json)?;
/// let mut loaded = Session::load(saved, Box::new(HotWarmCold::default()), Box::new(Extractive))?;
/// assert_eq!(loaded.state(), session.state());
/// let next = Turn::new("agent", Kind::Decision, "Refund RF-7781 is on its way, Dana.")?;
/// assert_eq!(loaded.push(next.clone())?, session.push(next)?);
/// # Ok(())
/// # }
/// ```
///
/// In JSON, `counting` and `policy` are left out when they are `None`, and so is each turn's
/// field that holds nothing ([`SavedTurn`]); a format that is not human-readable (postcard,
/// bincode) has every field, in the order of this struct's, and loads as exactly.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "deserialize",
    derive(serde::Deserialize),
    serde(deny_unknown_fields, rename_all = "camelCase")
)]
#[non_exhaustive]
pub struct SavedSession {
    /// The session's settings.
    pub config: SessionConfig,
    /// Every turn of the script, in order.
    pub turns: Vec<SavedTurn>,
    /// How many turns were added: the first `added` turns were played.
    pub added: u32,
    /// How many of the last turns added were pushed ([`Session::push`]) rather than played from
    /// the script ([`Session::add_turn`]): a pushed turn's step saw no turn after it, which
    /// matters to a policy that looks ahead ([`Interval`](crate::Interval)). After a push the
    /// script ends at the last turn, so `pushed` is 0 unless `added` is the number of turns.
    pub pushed: u32,
    /// How the session counted tokens ([`SessionState::counting`](crate::SessionState)): `None`
    /// for words, `estimate` for [`Estimate`](crate::Estimate), or a counter's own name, which
    /// [`Session::load_counting`] needs again.
    #[cfg_attr(feature = "deserialize", serde(default))]
    pub counting: Option<String>,
    /// The policy the session ran under, by its [`name`](CompactionPolicy::name)
    /// (`hot-warm-cold`, ...): [`Session::load`] under another is an error. `None` for a policy
    /// that gives no name, and in a save from before names were recorded.
    #[cfg_attr(feature = "deserialize", serde(default))]
    pub policy: Option<String>,
}

/// A session's turns as [`SavedSession`] writes them, borrowed.
struct TurnRef<'a> {
    speaker: &'a str,
    kind: Kind,
    role: Option<Role>,
    tool_call_id: Option<&'a str>,
    text: &'a str,
    summary: Option<&'a str>,
    summary_by_rule: bool,
    tokens: Tokens,
    own_tokens: bool,
}

impl<'a> From<&'a Turn> for TurnRef<'a> {
    fn from(turn: &'a Turn) -> TurnRef<'a> {
        TurnRef {
            speaker: turn.speaker(),
            kind: turn.kind(),
            role: turn.given_role(),
            tool_call_id: turn.tool_call_id(),
            text: turn.text(),
            summary: turn.summary(),
            summary_by_rule: turn.summary_by_rule(),
            tokens: turn.tokens(),
            own_tokens: turn.has_own_tokens(),
        }
    }
}

impl<'a> From<&'a SavedTurn> for TurnRef<'a> {
    fn from(turn: &'a SavedTurn) -> TurnRef<'a> {
        TurnRef {
            speaker: &turn.speaker,
            kind: turn.kind,
            role: turn.role,
            tool_call_id: turn.tool_call_id.as_deref(),
            text: &turn.text,
            summary: turn.summary.as_deref(),
            summary_by_rule: turn.summary_by_rule,
            tokens: turn.tokens,
            own_tokens: turn.own_tokens,
        }
    }
}

/// A session as [`SavedSession`] writes it, borrowed: the one writer of both.
struct SessionRef<'a> {
    config: SessionConfig,
    turns: Vec<TurnRef<'a>>,
    added: u32,
    pushed: u32,
    counting: Option<&'a str>,
    policy: Option<&'a str>,
}

/// Writes the fields of one struct of a saved form. A field that holds nothing (`None`, or a
/// `false` flag) is left out in a human-readable format, as it always was in JSON; a format that
/// is not (postcard, bincode) reads fields by their place, not their name, so it gets every one.
struct Record<S: serde::Serializer> {
    fields: S::SerializeStruct,
    readable: bool,
}

impl<S: serde::Serializer> Record<S> {
    /// A struct named `name` of `fields` fields, of which `empty` are left out when readable.
    fn new(
        serializer: S,
        name: &'static str,
        fields: usize,
        empty: usize,
    ) -> Result<Record<S>, S::Error> {
        let readable = serializer.is_human_readable();
        let len = if readable { fields - empty } else { fields };
        Ok(Record {
            fields: serializer.serialize_struct(name, len)?,
            readable,
        })
    }

    fn field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), S::Error> {
        self.fields.serialize_field(key, value)
    }

    /// `value` under `key`, unless it is `empty` and the format readable.
    fn unless_empty<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
        empty: bool,
    ) -> Result<(), S::Error> {
        if empty && self.readable {
            self.fields.skip_field(key)
        } else {
            self.fields.serialize_field(key, value)
        }
    }

    fn end(self) -> Result<S::Ok, S::Error> {
        self.fields.end()
    }
}

impl Serialize for TurnRef<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let empty = usize::from(self.role.is_none())
            + usize::from(self.tool_call_id.is_none())
            + usize::from(!self.summary_by_rule)
            + usize::from(!self.own_tokens);
        let mut record = Record::new(serializer, "SavedTurn", 9, empty)?;
        record.field("speaker", self.speaker)?;
        record.field("kind", &self.kind)?;
        record.unless_empty("role", &self.role, self.role.is_none())?;
        record.unless_empty(
            "toolCallId",
            &self.tool_call_id,
            self.tool_call_id.is_none(),
        )?;
        record.field("text", self.text)?;
        record.field("summary", &self.summary)?;
        record.unless_empty(
            "summaryByRule",
            &self.summary_by_rule,
            !self.summary_by_rule,
        )?;
        record.field("tokens", &self.tokens)?;
        record.unless_empty("ownTokens", &self.own_tokens, !self.own_tokens)?;
        record.end()
    }
}

impl Serialize for SessionRef<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let empty = usize::from(self.counting.is_none()) + usize::from(self.policy.is_none());
        let mut record = Record::new(serializer, "SavedSession", 6, empty)?;
        record.field("config", &self.config)?;
        record.field("turns", &self.turns)?;
        record.field("added", &self.added)?;
        record.field("pushed", &self.pushed)?;
        record.unless_empty("counting", &self.counting, self.counting.is_none())?;
        record.unless_empty("policy", &self.policy, self.policy.is_none())?;
        record.end()
    }
}

impl Serialize for SessionConfig {
    /// `{ "budget": 40, "hotN": 2 }`, with `compactAt` and `compactTo` when they are set and
    /// `"hardBudget": true` when it is on (in a format that is not human-readable, always).
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (compact_at, compact_to) = (self.compact_at(), self.compact_to());
        let hard_budget = self.hard_budget();
        let empty = usize::from(compact_at.is_none())
            + usize::from(compact_to.is_none())
            + usize::from(!hard_budget);
        let mut record = Record::new(serializer, "SessionConfig", 5, empty)?;
        record.field("budget", &self.budget())?;
        record.field("hotN", &self.hot_n())?;
        record.unless_empty("compactAt", &compact_at, compact_at.is_none())?;
        record.unless_empty("compactTo", &compact_to, compact_to.is_none())?;
        record.unless_empty("hardBudget", &hard_budget, !hard_budget)?;
        record.end()
    }
}

impl Serialize for SavedSession {
    /// As [`Session`] serialises: see [`SavedSession`].
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut turns = Vec::with_capacity(self.turns.len());
        for turn in &self.turns {
            turns.push(TurnRef::from(turn));
        }
        SessionRef {
            config: self.config,
            turns,
            added: self.added,
            pushed: self.pushed,
            counting: self.counting.as_deref(),
            policy: self.policy.as_deref(),
        }
        .serialize(serializer)
    }
}

impl Serialize for SavedTurn {
    /// See [`SavedTurn`].
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        TurnRef::from(self).serialize(serializer)
    }
}

impl Serialize for Session {
    /// As a [`SavedSession`]: the settings, every turn and how many were added.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut turns = Vec::with_capacity(self.script.len());
        for turn in self.script.turns() {
            turns.push(TurnRef::from(turn));
        }
        SessionRef {
            config: self.config,
            turns,
            added: self.turn_count(),
            pushed: self.pushed as u32,
            counting: self.window.counter().name(),
            policy: self.policy.name(),
        }
        .serialize(serializer)
    }
}

impl Session {
    /// The session as plain data, to serialise (a session also serialises as this directly).
    pub fn save(&self) -> SavedSession {
        let mut turns = Vec::with_capacity(self.script.len());
        for turn in self.script.turns() {
            turns.push(SavedTurn::from(turn));
        }
        SavedSession {
            config: self.config,
            turns,
            added: self.turn_count(),
            pushed: self.pushed as u32,
            counting: self.window.counter().name().map(str::to_owned),
            policy: self.policy.name().map(str::to_owned),
        }
    }

    /// The session `saved` holds, under `policy` (reset first) and with `summarizer` writing the
    /// summaries of turns that fold from now on. Its [`state`](Session::state) is the saved
    /// session's, and its next push gives the same [`Step`](crate::Step) as the saved session's
    /// would, as long as `policy` is the saved session's kind of policy and decides the same way
    /// (every built-in policy does).
    ///
    /// Every turn is checked, then the first `added` are replayed through the policy, with the
    /// saved summaries and without calling `summarizer`, each step in place: a load costs what
    /// the pushes cost without the summarizer's calls, O(n), about 3.5 µs a turn under
    /// [`HotWarmCold`](crate::HotWarmCold) at budget 500 (0.35 s for 100,000 turns). Turns
    /// that were pushed ([`SavedSession::pushed`]) join the script one at a time as they are
    /// replayed, as they did when they were pushed.
    ///
    /// A session saved counting words or [`Estimate`](crate::Estimate) counts the same way
    /// again; one saved with a counter of its own is loaded with [`Session::load_counting`].
    ///
    /// # Errors
    ///
    /// An [`ErrorKind::InvalidOption`](crate::ErrorKind) naming the field (`turns[3].text`,
    /// `added`) for a turn with an empty speaker, text or summary, `added` past the last turn,
    /// or `counting` other than words or `estimate`; [`ErrorKind::OverLimit`](crate::ErrorKind)
    /// for a text past [`MAX_TEXT_CHARS`](crate::limits::MAX_TEXT_CHARS);
    /// [`ErrorKind::InvalidState`](crate::ErrorKind) when the replay folds a turn saved without
    /// a summary (the turns were not saved from a session under this policy), or the policy's
    /// own error.
    pub fn load(
        saved: SavedSession,
        policy: Box<dyn CompactionPolicy>,
        summarizer: Box<dyn Summarizer>,
    ) -> Result<Session, Error> {
        let counter = Counter::named(saved.counting.as_deref()).map_err(|_| {
            Error::invalid(
                "counting",
                text!(
                    "the session counted tokens with \"",
                    saved.counting.as_deref().unwrap_or_default(),
                    "\": load it with Session::load_counting and that counter"
                ),
            )
        })?;
        Session::load_with(saved, policy, summarizer, counter)
    }

    /// [`Session::load`] for a session saved counting tokens with a counter of its own
    /// ([`Session::with_token_counter`]), given again as `counter`: the saved counts are kept,
    /// and `counter` counts the lines the policy writes and the turns pushed from now on.
    ///
    /// # Errors
    ///
    /// As [`Session::load`], and an [`ErrorKind::InvalidOption`](crate::ErrorKind) naming
    /// `counting` when `counter`'s [`name`](TokenCounter::name) is not the one saved.
    pub fn load_counting(
        saved: SavedSession,
        policy: Box<dyn CompactionPolicy>,
        summarizer: Box<dyn Summarizer>,
        counter: impl TokenCounter + 'static,
    ) -> Result<Session, Error> {
        let name = counter.name();
        if saved.counting.as_deref().unwrap_or("words") != name {
            return Err(Error::invalid(
                "counting",
                text!(
                    "the session counted tokens with \"",
                    saved.counting.as_deref().unwrap_or("words"),
                    "\", not \"",
                    name,
                    "\""
                ),
            ));
        }
        let counter = match saved.counting {
            None => Counter::default(),
            Some(_) => Counter::of(Arc::new(counter)),
        };
        Session::load_with(saved, policy, summarizer, counter)
    }

    /// [`Session::load`] with the window counting by `counter`.
    fn load_with(
        saved: SavedSession,
        policy: Box<dyn CompactionPolicy>,
        summarizer: Box<dyn Summarizer>,
        counter: Counter,
    ) -> Result<Session, Error> {
        let SavedSession {
            config,
            turns: saved_turns,
            added,
            pushed,
            counting: _,
            policy: saved_policy,
        } = saved;
        if let (Some(saved_policy), Some(name)) = (saved_policy.as_deref(), policy.name()) {
            if saved_policy != name {
                return Err(Error::invalid(
                    "policy",
                    text!(
                        "policy: the session was saved under \"",
                        saved_policy,
                        "\", not \"",
                        name,
                        "\"; load it under the policy it ran under"
                    ),
                ));
            }
        }
        if u32::try_from(saved_turns.len()).is_err() {
            return Err(Error::invalid("turns", "turns must be at most 4294967295"));
        }
        if added as usize > saved_turns.len() {
            return Err(Error::invalid(
                "added",
                text!(
                    "added must be at most the number of turns, ",
                    saved_turns.len(),
                    ", got ",
                    added
                ),
            ));
        }
        if pushed > added || (pushed > 0 && added as usize != saved_turns.len()) {
            return Err(Error::invalid(
                "pushed",
                text!(
                    "pushed must be at most added, ",
                    added,
                    ", and 0 unless every turn was added, got ",
                    pushed
                ),
            ));
        }
        let mut turns = Vec::with_capacity(saved_turns.len());
        for (index, turn) in saved_turns.into_iter().enumerate() {
            let at = |field: &str| text!("turns[", index, "].", field);
            let spec = TurnSpec {
                speaker: Some(turn.speaker),
                kind: Some(turn.kind.name().to_owned()),
                text: Some(turn.text),
                summary: turn.summary,
                tokens: None,
                role: turn.role.map(|role| role.name().to_owned()),
                tool_call_id: turn.tool_call_id,
            };
            turns.push(Turn::restored(
                &at,
                spec,
                turn.summary_by_rule,
                turn.tokens,
                turn.own_tokens,
            )?);
        }
        // The turns played from the script see the whole script; each pushed turn joins it when
        // its step is replayed, as it did when it was pushed.
        let played = (added - pushed) as usize;
        let pushed_turns = match pushed {
            0 => Vec::new(),
            _ => turns.split_off(played),
        };
        let mut session = Session::with_policy(config, Script::from_turns(turns), policy);
        session.window = Window::counting(counter);
        session.policy.reset();
        session.summarizer = Some(Arc::from(summarizer));
        while session.log.len() < played {
            if session.advance(Mode::Replay)?.is_none() {
                break;
            }
        }
        for turn in pushed_turns {
            session.pending += usize::from(waits(&turn));
            session.script.replace_from(session.log.len(), turn);
            session.advance(Mode::Replay)?;
            session.pushed += 1;
        }
        Ok(session)
    }
}
