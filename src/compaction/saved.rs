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
    waits, CompactionPolicy, Line, Mode, PolicyMemory, Session, SessionConfig, Step, Summarizer,
    TokenCounter,
};
use crate::error::Error;
use crate::units::{Tokens, TurnNumber};

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
    /// For a session with a retention ([`SessionConfig::with_retention`]), which forgets old
    /// turns and so cannot be replayed: the window, the policy's memory and the steps of the
    /// turns it holds, which [`Session::load`] takes as they are. `turns` are then the turns it
    /// held, from turn [`forgotten`](SavedWindow::forgotten)` + 1`. `None` for a session without
    /// a retention, which is replayed (and left out of JSON then).
    #[cfg_attr(feature = "deserialize", serde(default))]
    pub window: Option<SavedWindow>,
}

/// What a session with a retention saves in place of a replay ([`SavedSession::window`]).
///
/// Serialised as `{ "forgotten": 95, "cold": { "turns": [..], "text": ".." }, "warm": [..],
/// "verbatim": [{ "turn": 99, "tokens": 10, "cut": null }, ..], "policyMemory": { .. },
/// "log": [..] }`, each step of `log` as [`Step`] serialises (in a format that is not
/// human-readable, with every field).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "deserialize",
    derive(serde::Deserialize),
    serde(deny_unknown_fields, rename_all = "camelCase")
)]
#[non_exhaustive]
pub struct SavedWindow {
    /// How many of the first turns the session forgot ([`Script::forgotten`]).
    pub forgotten: u32,
    /// The COLD gist.
    pub cold: Option<SavedLine>,
    /// The WARM lines, oldest first.
    pub warm: Vec<SavedLine>,
    /// The verbatim turns, oldest first.
    pub verbatim: Vec<SavedVerbatim>,
    /// The policy's own memory ([`CompactionPolicy::memory`]).
    pub policy_memory: PolicyMemory,
    /// The steps of the turns played that the session holds, oldest first: those of turns
    /// `forgotten + 1` to `added`. Their verdicts against the budget are not saved: each
    /// step's `over_budget` is `false` and its `room` 0 here, and the session judges them by its
    /// budget as it loads.
    #[cfg_attr(feature = "deserialize", serde(deserialize_with = "steps"))]
    pub log: Vec<Step>,
}

/// A WARM line or the COLD gist of a [`SavedWindow`]: its turns and its text (its token count
/// is counted again when it loads).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(
    feature = "deserialize",
    derive(serde::Deserialize),
    serde(deny_unknown_fields)
)]
#[non_exhaustive]
pub struct SavedLine {
    /// The turns it stands for, ascending.
    pub turns: Vec<TurnNumber>,
    /// Its text.
    pub text: String,
}

/// A verbatim turn of a [`SavedWindow`]: its number, its token count in the window, and the text
/// that stands for it when a policy cut it short or masked it (counted again when it loads).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(
    feature = "deserialize",
    derive(serde::Deserialize),
    serde(deny_unknown_fields)
)]
#[non_exhaustive]
pub struct SavedVerbatim {
    /// The turn's number.
    pub turn: TurnNumber,
    /// Its token count in the window.
    pub tokens: Tokens,
    /// The text that stands for it, if it was cut short or masked.
    pub cut: Option<String>,
}

impl From<&Line> for SavedLine {
    fn from(line: &Line) -> SavedLine {
        SavedLine {
            turns: line.turns().to_vec(),
            text: line.text().to_owned(),
        }
    }
}

/// A [`Step`] as a saved form writes it: as [`Step`] serialises, but with every field in a
/// format that is not human-readable.
struct StepRef<'a>(&'a Step);

impl Serialize for StepRef<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let step = self.0;
        #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
        let lost = (step.lost(), step.lost().is_empty());
        #[cfg(all(target_arch = "wasm32", feature = "wasm-runtime"))]
        let lost = (&(), true);
        let empty = usize::from(step.trimmed().is_empty()) + usize::from(lost.1);
        let mut record = Record::new(serializer, "Step", 11, empty)?;
        record.field("turn", &step.turn)?;
        record.field("tokensBefore", &step.tokens_before)?;
        record.field("peakTokens", &step.peak_tokens)?;
        record.field("tokensAfter", &step.tokens_after)?;
        record.field("crossed", &step.crossed)?;
        record.field("compacted", &step.compacted)?;
        record.field("toWarm", &step.to_warm)?;
        record.field("toCold", &step.to_cold)?;
        record.field("dropped", &step.dropped)?;
        record.unless_empty("trimmed", step.trimmed(), step.trimmed().is_empty())?;
        record.unless_empty("lost", lost.0, lost.1)?;
        record.end()
    }
}

impl Serialize for SavedWindow {
    /// See [`SavedWindow`].
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut log = Vec::with_capacity(self.log.len());
        for step in &self.log {
            log.push(StepRef(step));
        }
        let mut record = Record::new(serializer, "SavedWindow", 6, 0)?;
        record.field("forgotten", &self.forgotten)?;
        record.field("cold", &self.cold)?;
        record.field("warm", &self.warm)?;
        record.field("verbatim", &self.verbatim)?;
        record.field("policyMemory", &self.policy_memory)?;
        record.field("log", &log)?;
        record.end()
    }
}

/// A [`Step`] as a saved form holds it, checked when it loads.
#[cfg(feature = "deserialize")]
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct StepRecord {
    turn: TurnNumber,
    tokens_before: Tokens,
    peak_tokens: Tokens,
    tokens_after: Tokens,
    crossed: bool,
    compacted: bool,
    to_warm: Vec<TurnNumber>,
    to_cold: Vec<TurnNumber>,
    dropped: Vec<TurnNumber>,
    #[serde(default)]
    trimmed: Vec<TurnNumber>,
    #[serde(default)]
    lost: crate::compaction::Lost,
}

/// Reads a saved log's steps.
#[cfg(feature = "deserialize")]
fn steps<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Vec<Step>, D::Error> {
    let records: Vec<StepRecord> = serde::Deserialize::deserialize(deserializer)?;
    let mut steps = Vec::with_capacity(records.len());
    for record in records {
        steps.push(Step {
            turn: record.turn,
            tokens_before: record.tokens_before,
            peak_tokens: record.peak_tokens,
            tokens_after: record.tokens_after,
            crossed: record.crossed,
            compacted: record.compacted,
            to_warm: record.to_warm,
            to_cold: record.to_cold,
            dropped: record.dropped,
            // The verdicts against the budget are not saved (see `SavedWindow::log`).
            over_budget: false,
            room: Tokens(0),
            no_smaller: record.compacted && record.tokens_after >= record.peak_tokens,
            rare: Step::rare(record.trimmed, record.lost),
        });
    }
    Ok(steps)
}

impl Session {
    /// What a session with a retention saves in place of a replay: see [`SavedWindow`].
    fn saved_window(&self) -> Option<SavedWindow> {
        if !crate::compaction::retention::RETENTION || self.config.retention().is_none() {
            return None;
        }
        let mut verbatim = Vec::with_capacity(self.window.verbatim().len());
        for &(turn, tokens) in self.window.verbatim_counts() {
            verbatim.push(SavedVerbatim {
                turn,
                tokens,
                cut: self.window.cut(turn).map(str::to_owned),
            });
        }
        // The verdicts against the budget are not saved (`false` and 0 in the saved form): the
        // session judges each step by its budget as it loads them.
        let mut log = self.log.clone();
        for step in &mut log {
            step.over_budget = false;
            step.room = Tokens(0);
        }
        Some(SavedWindow {
            forgotten: self.script.forgotten(),
            cold: self.window.cold().map(SavedLine::from),
            warm: self.window.warm().map(SavedLine::from).collect(),
            verbatim,
            #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
            policy_memory: self.policy.memory(),
            #[cfg(all(target_arch = "wasm32", feature = "wasm-runtime"))]
            policy_memory: PolicyMemory::default(),
            log,
        })
    }
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
    window: Option<&'a SavedWindow>,
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
        let empty = usize::from(self.counting.is_none())
            + usize::from(self.policy.is_none())
            + usize::from(self.window.is_none());
        let mut record = Record::new(serializer, "SavedSession", 7, empty)?;
        record.field("config", &self.config)?;
        record.field("turns", &self.turns)?;
        record.field("added", &self.added)?;
        record.field("pushed", &self.pushed)?;
        record.unless_empty("counting", &self.counting, self.counting.is_none())?;
        record.unless_empty("policy", &self.policy, self.policy.is_none())?;
        record.unless_empty("window", &self.window, self.window.is_none())?;
        record.end()
    }
}

impl Serialize for SessionConfig {
    /// `{ "budget": 40, "hotN": 2 }`, with `compactAt` and `compactTo` when they are set and
    /// `"hardBudget": true` when it is on (in a format that is not human-readable, always).
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (compact_at, compact_to) = (self.compact_at(), self.compact_to());
        let (hard_budget, retention) = (self.hard_budget(), self.retention());
        let empty = usize::from(compact_at.is_none())
            + usize::from(compact_to.is_none())
            + usize::from(!hard_budget)
            + usize::from(retention.is_none());
        let mut record = Record::new(serializer, "SessionConfig", 6, empty)?;
        record.field("budget", &self.budget())?;
        record.field("hotN", &self.hot_n())?;
        record.unless_empty("compactAt", &compact_at, compact_at.is_none())?;
        record.unless_empty("compactTo", &compact_to, compact_to.is_none())?;
        record.unless_empty("hardBudget", &hard_budget, !hard_budget)?;
        record.unless_empty("retention", &retention, retention.is_none())?;
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
            window: self.window.as_ref(),
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
        let mut turns = Vec::with_capacity(self.script.turns().len());
        for turn in self.script.turns() {
            turns.push(TurnRef::from(turn));
        }
        let window = self.saved_window();
        SessionRef {
            config: self.config,
            turns,
            added: self.turn_count(),
            pushed: self.pushed as u32,
            counting: self.window.counter().name(),
            policy: self.policy.name(),
            window: window.as_ref(),
        }
        .serialize(serializer)
    }
}

impl Session {
    /// The session as plain data, to serialise (a session also serialises as this directly).
    pub fn save(&self) -> SavedSession {
        let mut turns = Vec::with_capacity(self.script.turns().len());
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
            window: self.saved_window(),
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
            window: saved_window,
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
        let forgotten = saved_window.as_ref().map_or(0, |window| window.forgotten);
        let total = u64::from(forgotten) + saved_turns.len() as u64;
        if u32::try_from(total).is_err() {
            return Err(Error::invalid("turns", "turns must be at most 4294967295"));
        }
        if u64::from(added) > total {
            return Err(Error::invalid(
                "added",
                text!(
                    "added must be at most the number of turns, ",
                    total,
                    ", got ",
                    added
                ),
            ));
        }
        if added < forgotten {
            return Err(Error::invalid(
                "added",
                text!(
                    "added must be at least the turns forgotten, ",
                    forgotten,
                    ", got ",
                    added
                ),
            ));
        }
        if pushed > added || (pushed > 0 && u64::from(added) != total) {
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
        if let Some(window) = saved_window {
            let script = Script::after(forgotten, turns);
            let mut session = Session::with_policy(config, script, policy);
            session.window = Window::counting(counter);
            session.summarizer = Some(Arc::from(summarizer));
            session.pushed = pushed as usize;
            session.restore_window(window, added)?;
            return Ok(session);
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
        while session.played() < played {
            if session.advance(Mode::Replay)?.is_none() {
                break;
            }
        }
        for turn in pushed_turns {
            session.pending += usize::from(waits(&turn));
            session.script.replace_from(session.played(), turn);
            session.advance(Mode::Replay)?;
            session.pushed += 1;
        }
        Ok(session)
    }
}

impl Session {
    /// Takes `saved` as this session's window, policy memory and log, `added` turns having been
    /// played, each part checked against the turns the session holds.
    fn restore_window(&mut self, saved: SavedWindow, added: u32) -> Result<(), Error> {
        let forgotten = self.script.forgotten();
        let held = |turn: TurnNumber| turn.0 > forgotten && turn.0 <= added;
        let mut last = TurnNumber(0);
        for (index, entry) in saved.verbatim.into_iter().enumerate() {
            if !held(entry.turn) || entry.turn <= last {
                return Err(Error::invalid(
                    "window.verbatim",
                    text!(
                        "window.verbatim[",
                        index,
                        "]: turn ",
                        entry.turn,
                        " must be a turn played and held (",
                        forgotten + 1,
                        " to ",
                        added,
                        "), after the one before it"
                    ),
                ));
            }
            last = entry.turn;
            match entry.cut {
                Some(text) => self.window.push_cut(entry.turn, text),
                None => self.window.push_verbatim(entry.turn, entry.tokens),
            }
        }
        // A summary line names turns played, held or forgotten since.
        let played = |field: &'static str, place: String, line: &SavedLine| match line
            .turns
            .iter()
            .find(|turn| turn.0 == 0 || turn.0 > added)
        {
            Some(turn) => Err(Error::invalid(
                field,
                text!(
                    place,
                    ": turn ",
                    turn,
                    " must be a turn played (1 to ",
                    added,
                    ")"
                ),
            )),
            None => Ok(()),
        };
        if let Some(cold) = &saved.cold {
            played("window.cold", "window.cold".into(), cold)?;
        }
        for (index, warm) in saved.warm.iter().enumerate() {
            played("window.warm", text!("window.warm[", index, "]"), warm)?;
        }
        let line = |saved: SavedLine| Line::new(saved.turns, saved.text);
        self.window.set_cold(saved.cold.map(line));
        for saved in saved.warm {
            self.window.push_warm(line(saved));
        }
        let mut turn = forgotten;
        for step in &saved.log {
            turn += 1;
            if step.turn != TurnNumber(turn) {
                return Err(Error::invalid(
                    "window.log",
                    text!(
                        "window.log: the steps must be those of turns ",
                        forgotten + 1,
                        " to ",
                        added,
                        " in order; step ",
                        turn - forgotten,
                        " is of turn ",
                        step.turn
                    ),
                ));
            }
        }
        if turn != added {
            return Err(Error::invalid(
                "window.log",
                text!(
                    "window.log: the steps must be those of turns ",
                    forgotten + 1,
                    " to ",
                    added,
                    ", got ",
                    saved.log.len()
                ),
            ));
        }
        self.log = saved.log;
        let budget = self.config.budget;
        for step in &mut self.log {
            step.over_budget = step.tokens_after > budget;
            step.room = budget - step.tokens_after;
        }
        self.policy.reset();
        #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
        self.policy.restore_memory(&saved.policy_memory)?;
        #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
        {
            self.record = crate::compaction::lost::Record::of(&self.window, &self.script);
            self.window.take_journal();
        }
        Ok(())
    }
}
