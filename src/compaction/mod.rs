//! Compaction: keep the live context window under a token budget as a session grows.
//!
//! A [`Session`] plays a [`Script`] one turn at a time. Each turn joins the window verbatim; when
//! the window then holds more than the budget (a *crossing*), the session's
//! [`CompactionPolicy`] runs a step. The default policy is [`HotWarmCold`].

use crate::prelude::*;
mod compare;
mod config;
mod hard_budget;
mod import;
mod lost;
pub(crate) use import::too_big;
mod policy;
mod policy_id;
mod retention;
mod saved;
mod script;
mod summarizer;
mod tokens;
mod window;

use serde::Serialize;

pub use compare::{
    framework_triggers, policy, window_text, FactsFrom, FrameworkSetting, HandoffCheckpoint,
    Interval, Named, ObservationMasking, Playground, PlaygroundState, PolicyInfo, PolicyRow,
    SlidingWindow, StepLoss, SummaryBuffer, Trigger, TriggerAt, Truncate, FACTS_RULE,
    FRAMEWORK_SETTINGS, INTERVAL, KEY_FACTS, KEY_TERMS_RULE, MAX_FACT_TERMS, MAX_WINDOW,
    MIN_WINDOW, OVERLAP, POLICIES, REFERENCE_MAX_OUTPUT, REFERENCE_WINDOW, TOOL_FACTS_RULE,
};
pub(crate) use config::LARGE_SESSIONS;
pub use config::{SessionConfig, SessionConfigBuilder, SessionOptions, BUDGET, HOT_N};
pub use import::{
    import_conversation, import_lines, import_messages, infer_kind, BrokenLine, ChatMessage,
    Content, Format, Imported, LogCompaction, SentTokens, Usage, KIND_RULE, MAX_NAMED_BROKEN,
};
pub use lost::Lost;
use policy::keep_pairs;
pub use policy::{
    ClonePolicy, Compaction, CompactionPolicy, HotWarmCold, PolicyMemory, GIST_TERMS, WARM_SHARE,
};
pub use policy_id::PolicyId;
pub use saved::{SavedLine, SavedSession, SavedTurn, SavedVerbatim, SavedWindow};
pub use script::{Kind, Role, Script, Turn, TurnSpec, EXTRACT_WORDS};
pub use summarizer::{Extractive, Scripted, Summarizer};
use tokens::Counter;
pub use tokens::{Estimate, TokenCounter, Words, ESTIMATE_RULE};
pub use window::{Line, Window};

use crate::error::{Error, ErrorKind};
use crate::names::named;
use crate::units::{Tokens, TurnNumber};
use alloc::sync::Arc;

/// What one [`Session::add_turn`] did: one line of the session's log.
///
/// What a step rarely has, the turns the hard budget trimmed ([`Step::trimmed`]) and what it
/// lost ([`Step::lost`]), is held apart, so that a step without them costs no more than a
/// pointer for them: at most 104 bytes, whatever the session's length.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(
    all(target_arch = "wasm32", feature = "wasm-runtime"),
    derive(Serialize),
    serde(rename_all = "camelCase")
)]
#[non_exhaustive]
pub struct Step {
    /// The turn just added.
    pub turn: TurnNumber,
    /// The window before the turn joined.
    pub tokens_before: Tokens,
    /// The window with the turn, before any compaction.
    pub peak_tokens: Tokens,
    /// The window after the step.
    pub tokens_after: Tokens,
    /// Whether the turn took the window over budget.
    pub crossed: bool,
    /// Whether a compaction step ran.
    pub compacted: bool,
    /// Turns whose summary joined WARM.
    pub to_warm: Vec<TurnNumber>,
    /// Turns whose WARM line went into the COLD gist.
    pub to_cold: Vec<TurnNumber>,
    /// Chatter turns dropped.
    pub dropped: Vec<TurnNumber>,
    /// Whether the window after the step is over the budget.
    pub over_budget: bool,
    /// The budget less the window after the step, 0 when at or over it: the longest next turn
    /// that does not cross. Neither over the budget nor with room, the window is exactly full.
    pub room: Tokens,
    /// Whether a compaction ran and left the window no smaller than its peak: it found nothing
    /// to fold or drop, or what it wrote weighs what it took.
    pub no_smaller: bool,
    // `trimmed` and `lost`, `None` when both are empty (and none at all in the project's own
    // wasm builds, which have neither).
    #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
    rare: Option<Box<Rare>>,
}

/// What a [`Step`] rarely has.
#[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
#[derive(Clone, Debug, PartialEq, Eq)]
struct Rare {
    trimmed: Vec<TurnNumber>,
    lost: Lost,
}

/// The loss report of a step that lost nothing.
#[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
static NOTHING_LOST: Lost = Lost {
    turns: Vec::new(),
    terms: Vec::new(),
};

impl Step {
    /// The rare parts of a step, `None` when both are empty.
    #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
    fn rare(trimmed: Vec<TurnNumber>, lost: Lost) -> Option<Box<Rare>> {
        (!trimmed.is_empty() || !lost.is_empty()).then(|| Box::new(Rare { trimmed, lost }))
    }

    /// Turns the hard budget took out of the window ([`SessionConfig::with_hard_budget`]),
    /// verbatim or in a WARM line or the COLD gist it removed, ascending; left out of the
    /// serialised step when empty. (Always empty in the project's own wasm builds, which have
    /// no hard budget, so they never write it.)
    pub fn trimmed(&self) -> &[TurnNumber] {
        #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
        if let Some(rare) = &self.rare {
            return &rare.trimmed;
        }
        &[]
    }

    /// The turns and key terms that left the window at this step ([`Lost`]): empty unless it
    /// compacted or trimmed, and then left out of the serialised step. Telling it costs what
    /// changed, not the window: O(log n) for each verbatim turn the step moved, cut or masked
    /// (the window notes them as they change), a walk of the lines only when one changed (one or
    /// two under every built-in policy but [`Interval`], which keeps every summary it wrote), and
    /// the words of what came and left (`cargo bench --bench lost`: observation masking over
    /// 20,000 turns in 0.2 s, from 1.8 s when every compaction walked the window). For a library: not in
    /// this project's own wasm builds (`wasm-runtime`), whose pages never show it, so that no
    /// page carries its code (about 3 KB of gzip in each compaction core), nor in their JS
    /// `Step`.
    #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
    pub fn lost(&self) -> &Lost {
        self.rare.as_ref().map_or(&NOTHING_LOST, |rare| &rare.lost)
    }
}

#[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
impl Serialize for Step {
    /// `{ turn, tokensBefore, peakTokens, tokensAfter, crossed, compacted, toWarm, toCold,
    /// dropped, overBudget, room, noSmaller, trimmed?, lost? }`, `trimmed` and `lost` only when
    /// not empty.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        /// A step as it serialises, its rare parts in place.
        #[derive(Serialize)]
        #[serde(rename = "Step", rename_all = "camelCase")]
        struct View<'a> {
            turn: TurnNumber,
            tokens_before: Tokens,
            peak_tokens: Tokens,
            tokens_after: Tokens,
            crossed: bool,
            compacted: bool,
            to_warm: &'a [TurnNumber],
            to_cold: &'a [TurnNumber],
            dropped: &'a [TurnNumber],
            over_budget: bool,
            room: Tokens,
            no_smaller: bool,
            #[serde(skip_serializing_if = "<[TurnNumber]>::is_empty")]
            trimmed: &'a [TurnNumber],
            #[serde(skip_serializing_if = "Lost::is_empty")]
            lost: &'a Lost,
        }
        View {
            turn: self.turn,
            tokens_before: self.tokens_before,
            peak_tokens: self.peak_tokens,
            tokens_after: self.tokens_after,
            crossed: self.crossed,
            compacted: self.compacted,
            to_warm: &self.to_warm,
            to_cold: &self.to_cold,
            dropped: &self.dropped,
            over_budget: self.over_budget,
            room: self.room,
            no_smaller: self.no_smaller,
            trimmed: self.trimmed(),
            lost: self.lost(),
        }
        .serialize(serializer)
    }
}

/// A verbatim turn as the state shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct HotTurn {
    /// The turn's number.
    pub turn: TurnNumber,
    /// Who spoke.
    pub speaker: String,
    /// The turn's kind.
    pub kind: Kind,
    /// The verbatim text, or the part of it a policy kept when it cut the turn short (the cut
    /// marked with `…`).
    pub text: String,
    /// Its token count.
    pub tokens: Tokens,
}

/// One message of the window as a chat API takes it ([`Session::messages`]).
///
/// Serialised as `{ "role": "user", "content": "..." }`, with `"toolCallId"` when the message
/// is an assistant's tool call or its result.
///
/// ```
/// use agent_memory_widgets::{HotWarmCold, Session, SessionConfig, Turn};
///
/// # fn main() -> Result<(), Box<dyn core::error::Error>> {
/// let mut session = Session::live(SessionConfig::default(), Box::new(HotWarmCold::default()));
/// session.push(Turn::tool_call("call_1", "lookup_order(ORD-3300)")?)?;
/// session.push(Turn::tool("call_1", "ORD-3300: $200.00, returned on day 41.")?)?;
/// let json = serde_json::to_string(&session.messages())?;
/// assert_eq!(json, concat!(
///     r#"[{"role":"assistant","content":"lookup_order(ORD-3300)","toolCallId":"call_1"},"#,
///     r#"{"role":"tool","content":"ORD-3300: $200.00, returned on day 41.","toolCallId":"call_1"}]"#,
/// ));
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Message {
    /// Who sends it: a verbatim turn's [`Turn::role`], and [`Role::User`] for a WARM or COLD
    /// line (as Claude Code and Letta send their summaries).
    pub role: Role,
    /// The turn's text (or the part a policy kept, or what a policy put in its place), or the
    /// line's.
    pub content: String,
    /// The id a tool call and its result share ([`Turn::tool_call_id`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
}

/// A dropped chatter turn, kept in the record (never in the window).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct DroppedTurn {
    /// The turn's number.
    pub turn: TurnNumber,
    /// What was said.
    pub text: String,
}

/// A turn of the transcript, with where its content lives now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TranscriptTurn {
    /// The turn's number.
    pub turn: TurnNumber,
    /// Who spoke.
    pub speaker: String,
    /// The turn's kind.
    pub kind: Kind,
    /// What was said.
    pub text: String,
    /// Its one-line summary, `None` for chatter.
    pub summary: Option<String>,
    /// Whether the first-sentence rule wrote the summary ([`Turn::summary_by_rule`]).
    pub summary_by_rule: bool,
    /// Where its content lives now.
    pub place: Place,
}

/// Where a turn's content lives now, as the transcript shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Place {
    /// Verbatim in the window.
    Hot,
    /// Its summary is (part of) a WARM line.
    Warm,
    /// Its key terms are in the COLD gist.
    Cold,
    /// Chatter, dropped from the window.
    Dropped,
    /// Compacted away entirely.
    Faded,
}

named!(Place, "place", {
    Hot => "hot",
    Warm => "warm",
    Cold => "cold",
    Dropped => "dropped",
    Faded => "faded",
});

/// A snapshot of a session: everything the widget shows, as plain data.
///
/// Serialised with camelCase names; `cold` and `overBudgetReason` are `null` when absent, and
/// `counting` is left out when the session counts words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SessionState {
    /// Turns added so far.
    pub turn: u32,
    /// Turns in the script.
    pub total_turns: u32,
    /// The token budget.
    pub budget: Tokens,
    /// How many turns stay HOT.
    pub hot_n: u32,
    /// The window's token count.
    pub tokens: Tokens,
    /// Whether the window is over budget after the last step.
    pub over_budget: bool,
    /// The budget less the window, 0 when at or over it: the longest next turn that does not
    /// cross. Neither over the budget nor with room, the window is exactly full.
    pub room: Tokens,
    /// Why no compaction could bring the window under budget, when it is over.
    pub over_budget_reason: Option<String>,
    /// Whether every turn of the script has been added.
    pub done: bool,
    /// The turns that took the window over budget.
    pub crossings: Vec<TurnNumber>,
    /// The verbatim turns, oldest first (after a compaction: exactly the last `hot_n`).
    pub hot: Vec<HotTurn>,
    /// The WARM summary lines, oldest first.
    pub warm: Vec<Line>,
    /// The one-line COLD gist.
    pub cold: Option<Line>,
    /// Chatter dropped so far, oldest first.
    pub dropped: Vec<DroppedTurn>,
    /// One step per added turn.
    pub log: Vec<Step>,
    /// Every turn added so far, oldest first, with where it lives now.
    pub transcript: Vec<TranscriptTurn>,
    /// The window as chat messages ([`Session::messages`]).
    pub messages: Vec<Message>,
    /// How the session counts tokens, when not as words ([`Session::with_token_counter`]): its
    /// counter's [`name`](TokenCounter::name), `estimate` for [`Estimate`]. `None` for the
    /// default, [`Words`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counting: Option<String>,
}

/// A support session played turn by turn under a compaction policy.
///
/// Each [`add_turn`](Session::add_turn) (or [`push`](Session::push)) costs the same at turn 10
/// as at turn 1,000,000: the window holds running token counts, so nothing is recounted, and a
/// compaction moves each turn at most twice (verbatim to WARM, WARM to COLD). The log and the
/// dropped list are append-only.
///
/// That holds under every policy of [`POLICIES`] (`make bench`, rows `policy_turn`), with one
/// difference in memory. Under [`HotWarmCold`] the window stays small. Under the framework
/// policies the summary is one line that lists every turn it stands for, so
/// [`SlidingWindow`], [`SummaryBuffer`] and [`HandoffCheckpoint`] keep a list that grows with the
/// session (and, but for Letta's clipped summary, its text), and [`Interval`] keeps every summary
/// it wrote, as ADK does. A turn still costs O(log n) there (a binary search of that list), but
/// the window, and so [`state`](Session::state), grows as O(n).
///
/// A live [`push`](Session::push) whose turn waits for its summary runs the policy on a copy of
/// the window (twice when turns fold: once to learn which, once with their summaries), about
/// 9 µs a push at budget 500 under [`HotWarmCold`] against 3 µs for the same step in place.
///
/// What to read each turn: [`window`](Session::window), [`log`](Session::log) and
/// [`script`](Session::script) are borrows, O(1). [`state`](Session::state) builds a snapshot of
/// everything, with a copy of the whole log and transcript: O(n) in the turns added, some tens
/// of milliseconds at 100,000 turns, for a page to draw rather than for every turn of an agent.
///
/// A session is `Clone` (the copy shares the summarizer and copies the policy), and saves as a
/// [`SavedSession`] ([`Session::save`], or serde directly), loaded again with
/// [`Session::load`].
///
/// # Example
///
/// ```
/// use agent_memory_widgets::Session;
///
/// let mut session = Session::default(); // the refund desk, budget 40, 2 HOT turns
/// while let Some(step) = session.add_turn() {
///     assert!(step.tokens_after.0 <= 40);
/// }
/// let state = session.state();
/// assert_eq!(state.crossings, [4, 6, 8, 9, 10]);
/// assert!(state.done);
/// ```
#[derive(Clone)]
pub struct Session {
    config: SessionConfig,
    // Invariant: turns 1..=turn_count() are the ones played (those before
    // `script.forgotten() + 1` forgotten, under a retention); later ones are the script still to
    // come.
    script: Script,
    policy: Box<dyn CompactionPolicy>,
    // `None` is the default, `Scripted`: no summarizer object, so a build that only replays
    // scripts (the widget's) carries no summarizer code. An `Arc`, so that a clone shares it.
    summarizer: Option<Arc<dyn Summarizer>>,
    window: Window,
    // Invariant: log[i].turn == script.forgotten() + i + 1, and script.forgotten() + log.len()
    // is the number of turns added.
    log: Vec<Step>,
    // Invariant: the number of turns of `script` that wait for a summary (not chatter, none
    // yet). While it is 0 a policy that cannot fail is stepped in place (the scripted path).
    pending: usize,
    // Invariant: what the window held after the last step, to tell what the next one loses.
    #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
    record: lost::Record,
    // Invariant: the last `pushed` steps of the log were made by `push`, each seeing the script
    // end at its own turn; the steps before were made by `add_turn`, seeing the whole script (a
    // push truncates the script, so no `add_turn` step follows a push until a reset).
    pushed: usize,
}

/// A push begun with [`Session::begin_push`]: the turn, and the turns to summarise before
/// [`Session::finish_push`] applies it. It belongs to the session that began it, as that session
/// stood: once the session changes, finishing it is an error, and the push is begun again.
#[must_use = "a pending push changes nothing until Session::finish_push applies it"]
pub struct PendingPush {
    turn: Turn,
    // The session's `changes` when the push began.
    changes: u64,
    // The turns to summarise, by number, ascending: `turns`' numbers.
    asked: Vec<TurnNumber>,
    turns: Vec<Turn>,
    // The step taken on copies, when it needs no summary: finishing keeps it as it is.
    prepared: Option<Pass>,
}

impl PendingPush {
    /// The turns to summarise, oldest first, none of them chatter: the turns the push folds that
    /// have no summary yet. Empty for a push that folds none (most pushes).
    pub fn turns(&self) -> &[Turn] {
        &self.turns
    }

    /// The turn being pushed, counted as the session counts.
    pub fn turn(&self) -> &Turn {
        &self.turn
    }
}

impl core::fmt::Debug for PendingPush {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PendingPush")
            .field("turn", &self.turn)
            .field("turns", &self.turns)
            .finish_non_exhaustive()
    }
}

/// One pass of a step on copies of the window and the policy ([`Session::pass`]).
struct Pass {
    window: Window,
    policy: Box<dyn CompactionPolicy>,
    peak_tokens: Tokens,
    compaction: Option<Compaction>,
}

/// How [`Session::advance`] steps.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// A push: a step that fails leaves the session as it was, and the summarizer writes the
    /// summaries a step needs.
    Step,
    /// An added turn of the script: as `Step`, but in place where [`STEPS_ON_COPIES`] is off.
    Play,
    /// A saved session's replay: in place, and a step that needs a summary not written is an
    /// error (the summarizer is never called).
    Replay,
}

/// Whether [`Session::add_turn`] steps on copies when a turn waits for its summary or the policy
/// can fail, as [`Session::push`] always does. Not in this project's own wasm builds
/// (`wasm-runtime`): their JS API plays scripts only, whose turns all have summaries, under the
/// built-in policies, which cannot fail, so every step there is taken in place and the copies'
/// code (about 3 KB of each compaction core) would never run. No answer the JS API can give
/// changes. (A Rust program built so that adds turns waiting for a summary gets `None` where
/// one folds, and the window as the step left it.)
const STEPS_ON_COPIES: bool = !cfg!(all(target_arch = "wasm32", feature = "wasm-runtime"));

/// Whether `turn` waits for its summary: it is not chatter and has none yet.
fn waits(turn: &Turn) -> bool {
    turn.kind() != Kind::Chatter && turn.summary().is_none()
}

impl Session {
    /// A session of `script` under the seed's [`HotWarmCold`] policy.
    pub fn new(config: SessionConfig, script: Script) -> Session {
        Session::with_policy(config, script, Box::new(HotWarmCold::default()))
    }

    /// A session of `script` under any policy.
    pub fn with_policy(
        config: SessionConfig,
        script: Script,
        policy: Box<dyn CompactionPolicy>,
    ) -> Session {
        let pending = script.turns().iter().filter(|turn| waits(turn)).count();
        Session {
            config,
            script,
            policy,
            summarizer: None,
            window: Window::default(),
            log: Vec::new(),
            pending,
            #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
            record: lost::Record::default(),
            pushed: 0,
        }
    }

    /// A live session: no script, turns arrive one at a time through [`Session::push`], and
    /// the [`Extractive`] summarizer writes the summaries (see [`Session::with_summarizer`]).
    pub fn live(config: SessionConfig, policy: Box<dyn CompactionPolicy>) -> Session {
        Session::with_policy(config, Script::live(), policy).with_summarizer(Box::new(Extractive))
    }

    /// The same session with `summarizer` writing the summaries of turns that fold from now on.
    /// A closure or an [`Arc`] of a summarizer will do (see [`Summarizer`]).
    pub fn with_summarizer(mut self, summarizer: Box<dyn Summarizer>) -> Session {
        self.summarizer = Some(Arc::from(summarizer));
        self
    }

    /// The same session counting tokens with `counter` ([`Words`] by default): every turn without
    /// its own count ([`Turn::with_tokens`]), those of the script and those pushed from now on, and
    /// every line a policy places in the window. Turns already added are played again under it
    /// (their summaries kept: the summarizer is not asked again).
    ///
    /// A closure is a counter; write its argument's type:
    ///
    /// ```
    /// use agent_memory_widgets::{Estimate, HotWarmCold, Kind, Session, SessionConfig, Tokens, Turn};
    ///
    /// # fn main() -> Result<(), agent_memory_widgets::Error> {
    /// let config = SessionConfig::new(Tokens(500), 2)?;
    /// let mut session = Session::live(config, Box::new(HotWarmCold::default()))
    ///     .with_token_counter(|text: &str| Tokens(text.len().div_ceil(4) as u32));
    /// session.push(Turn::new("Dana", Kind::Question, "Where is my order?")?)?; // 18 bytes
    /// session.push(Turn::new("agent", Kind::Decision, "It ships today.")?.with_tokens(Tokens(5)))?;
    /// assert_eq!(session.window().tokens(), Tokens(5 + 5));
    ///
    /// let session = Session::default().with_token_counter(Estimate);
    /// assert_eq!(session.state().counting.as_deref(), Some("estimate"));
    /// # Ok(())
    /// # }
    /// ```
    pub fn with_token_counter(self, counter: impl TokenCounter + 'static) -> Session {
        self.with_counter(Counter::of(alloc::sync::Arc::new(counter)))
    }

    /// The session with no record of what its steps lose: each [`Step::lost`] is empty. For a
    /// playground's sessions, whose replay tells what each compaction lost by its own rule
    /// ([`StepLoss`]): the record's walk of every window would cost that replay most of its time.
    #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
    pub(crate) fn without_lost(mut self) -> Session {
        self.record = lost::Record::off();
        self
    }

    /// The same session, before its first turn, counting with `counter` a script that was
    /// counted with it already: a playground's spare session shares its script with another.
    #[cfg(feature = "large-sessions")]
    pub(crate) fn counted(mut self, counter: &Counter) -> Session {
        self.window = Window::counting(counter.clone());
        self
    }

    /// What changed in the window since the last call ([`window::Journal`]): for a playground's
    /// replay at real size, whose sessions keep no record of their own (`without_lost`).
    #[cfg(feature = "large-sessions")]
    pub(crate) fn take_journal(&mut self) -> window::Journal {
        self.window.take_journal()
    }

    /// [`Session::with_token_counter`], or words for the default counter.
    fn with_counter(mut self, counter: Counter) -> Session {
        self.script.count_with(&counter);
        self.window = Window::counting(counter);
        // Every turn is counted again: replay them all from the start (`go_to` goes on from
        // where the log stands, and the log still holds the old counts).
        let turns = self.turn_count();
        self.reset();
        self.go_to(turns);
        self
    }

    /// Appends `turn` as the next turn and, if the policy says so, compacts: the live
    /// conversation's path. Turns of the script not yet played are replaced by `turn`.
    ///
    /// A turn that is not chatter gets its summary only when a compaction folds it (unless it
    /// came with one, [`Turn::with_summary`]): the session then asks its [`Summarizer`] once,
    /// with [`summarize_batch`](Summarizer::summarize_batch), for every turn that folds without
    /// a summary, and keeps the answers. Without a summarizer of its own (a session made with
    /// [`Session::new`] or [`Session::with_policy`]), such a turn is refused here.
    ///
    /// To find which turns fold, the policy runs on a copy of the window and of itself (with the
    /// turns' texts standing in for the missing summaries), and again once the summaries are
    /// written; the copy is kept only when the step succeeds. So a push whose turn waits for a
    /// summary costs a copy of the window: small under [`HotWarmCold`], which keeps the window
    /// near the budget, and O(n) under the framework policies whose window grows with the
    /// session (see [`Session`]). A push whose turns all have summaries, under a built-in
    /// policy, costs what [`Session::add_turn`] costs, whatever the length of the session.
    ///
    /// # Errors
    ///
    /// When the summarizer or the policy fails, or the summarizer gives another number of
    /// summaries than turns ([`ErrorKind::InvalidState`](crate::ErrorKind)) or a summary with no
    /// word ([`ErrorKind::InvalidOption`](crate::ErrorKind) naming `summary`), or a session
    /// without a summarizer is given a turn with no summary (the same), or the session already
    /// holds `u32::MAX` turns ([`ErrorKind::OverLimit`](crate::ErrorKind)). The session is left
    /// exactly as it was: window, log, script, and the policy's own memory.
    pub fn push(&mut self, turn: Turn) -> Result<Step, Error> {
        let pending = self.begin_push(turn)?;
        let summaries = match pending.turns.is_empty() {
            true => Vec::new(),
            false => self.summarize(&pending.turns)?,
        };
        self.finish_push(pending, summaries)
    }

    /// The first half of [`Session::push`], for a program whose summarizer is asynchronous (a
    /// model call it awaits): it finds which turns the push folds, and returns them to be
    /// summarised, without changing the session. Summarise [`PendingPush::turns`] (none, for
    /// most pushes) however the program likes, then apply the push with
    /// [`Session::finish_push`].
    ///
    /// ```
    /// use agent_memory_widgets::{HotWarmCold, Session, SessionConfig, Turn};
    ///
    /// # fn main() -> Result<(), agent_memory_widgets::Error> {
    /// let config = SessionConfig::builder().budget(12).hot_n(1).build()?;
    /// let mut session = Session::live(config, Box::new(HotWarmCold::default()));
    /// session.push(Turn::user("Where is my refund for ORD-3300? It has been a week.")?)?;
    /// let pending = session.begin_push(Turn::assistant("It was sent on day 3.")?)?;
    /// // The first turn folds: it needs a summary, which a model would write here.
    /// assert_eq!(pending.turns().len(), 1);
    /// let summaries = vec!["Dana asks where the ORD-3300 refund is.".to_owned()];
    /// let step = session.finish_push(pending, summaries)?;
    /// assert_eq!(step.to_warm, [1]);
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Session::push`], but for the summarizer's: the session already holds `u32::MAX`
    /// turns, a session without a summarizer is given a turn with no summary, or the policy
    /// fails. The session is left exactly as it was in every case.
    pub fn begin_push(&mut self, turn: Turn) -> Result<PendingPush, Error> {
        let Some(number) = self.next_number() else {
            return Err(Error::over_limit(
                "u32::MAX",
                "a session holds at most 4294967295 turns",
            ));
        };
        if self.summarizer.is_none() && waits(&turn) {
            Scripted.summarize(&turn)?;
        }
        let turn = turn.counted_by(self.window.counter());
        let tokens = turn.tokens();
        let (len, pending) = (self.played(), self.pending);
        let tail = self.with_turn(turn.clone());
        // A step that cannot ask is taken in place by `finish_push`, which then runs it alone.
        let prepared = match self.pending > 0 || self.policy.can_fail() {
            true => Some(self.pass(number, tokens)),
            false => None,
        };
        let mut asked = Vec::new();
        let mut turns = Vec::new();
        if let Some(Ok(pass)) = &prepared {
            if let Some(step) = &pass.compaction {
                asked = self.waiting(&step.asked);
                for &asked in &asked {
                    turns.extend(self.script.turn(asked).cloned());
                }
            }
        }
        self.script.restore_from(len, tail);
        self.pending = pending;
        let prepared = match prepared {
            Some(Err(err)) => return Err(err),
            Some(Ok(pass)) if asked.is_empty() => Some(pass),
            _ => None,
        };
        Ok(PendingPush {
            turn,
            changes: self.changes(),
            asked,
            turns,
            prepared,
        })
    }

    /// The second half of [`Session::push`]: applies `pending`, begun with
    /// [`Session::begin_push`] on this session, with `summaries`, one for each of its
    /// [`turns`](PendingPush::turns) and in their order, and returns the step. The same step as
    /// [`Session::push`] would take, applied as atomically: on any error the session is left as
    /// it was. Should the policy fold more turns once the summaries are in (none of the built-in
    /// policies does: they fold by the turns' own counts), the session's summarizer writes
    /// theirs, as [`Session::push`] would.
    ///
    /// # Errors
    ///
    /// An [`ErrorKind::InvalidState`](crate::ErrorKind) naming `pending` when the session has
    /// changed since the push began (another push, a step, a reset): begin it again. Another
    /// number of summaries than turns ([`ErrorKind::InvalidState`](crate::ErrorKind)), a summary
    /// with no word or over the text limit ([`ErrorKind::InvalidOption`](crate::ErrorKind) and
    /// [`ErrorKind::OverLimit`](crate::ErrorKind) naming `summary`), and every error of
    /// [`Session::push`].
    pub fn finish_push(
        &mut self,
        pending: PendingPush,
        summaries: Vec<String>,
    ) -> Result<Step, Error> {
        if pending.changes != self.changes() {
            return Err(Error::new(
                ErrorKind::InvalidState,
                text!(
                    "pending: the session has changed since this push began (it now holds ",
                    self.turn_count(),
                    " turns); begin the push again"
                ),
            ));
        }
        let PendingPush {
            turn,
            asked,
            prepared,
            ..
        } = pending;
        let (len, count) = (self.played(), self.pending);
        let tail = self.with_turn(turn);
        let result = match self.write(&asked, summaries) {
            Ok(()) => match prepared {
                Some(pass) => {
                    let tokens_before = self.window.tokens();
                    let number = TurnNumber(len as u32 + 1);
                    Ok(Some(self.keep(number, tokens_before, pass)))
                }
                None => self.advance(Mode::Step),
            },
            Err(err) => Err(err),
        };
        match result {
            Ok(Some(step)) => {
                self.pushed += 1;
                Ok(step)
            }
            result => {
                let err = match result {
                    Err(err) => err,
                    Ok(_) => Error::new(ErrorKind::InvalidState, "the turn did not apply"),
                };
                let err = self.unwrite(&asked, err);
                self.script.restore_from(len, tail);
                self.pending = count;
                Err(err)
            }
        }
    }

    /// How many times the session changed (a step, a reset): a pending push is for one state.
    /// (Always 0 in this project's own wasm builds, which push nothing: see [`Step::lost`].)
    fn changes(&self) -> u64 {
        #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
        let changes = self.record.changes();
        #[cfg(all(target_arch = "wasm32", feature = "wasm-runtime"))]
        let changes = 0;
        changes
    }

    /// Puts `turn` in the script as the next turn, in place of the turns not yet played, and
    /// returns those.
    fn with_turn(&mut self, turn: Turn) -> Vec<Turn> {
        let joins = usize::from(waits(&turn));
        let tail = self.script.replace_from(self.played(), turn);
        let leaves = tail.iter().filter(|turn| waits(turn)).count();
        self.pending = self.pending + joins - leaves;
        tail
    }

    /// A session from options as JS or JSON gives them, every value checked.
    ///
    /// # Errors
    ///
    /// An [`ErrorKind::InvalidOption`](crate::ErrorKind) naming the first bad value, or
    /// [`ErrorKind::OverLimit`](crate::ErrorKind) when the script passes a [limit](crate::limits).
    pub fn from_options(options: SessionOptions) -> Result<Session, Error> {
        let config = SessionConfig::from_options(&options)?;
        let counter = Counter::named(options.tokens.as_deref())?;
        let script = match options.script {
            Some(specs) => Script::within_limits(specs)?,
            None => Script::refund_desk(),
        };
        let session = Session::new(config, script);
        Ok(match counter.is_words() {
            true => session,
            false => session.with_counter(counter),
        })
    }

    /// Appends the next turn and, if the policy says so, compacts. `None` once the script is done,
    /// or when the compaction fails (a policy that can fail, or a summary to write that the
    /// summarizer refuses: see [`Session::push`]), and then the session is left as it was.
    pub fn add_turn(&mut self) -> Option<Step> {
        self.advance(Mode::Play).ok().flatten()
    }

    /// [`Session::add_turn`] with its error. An error leaves the session as it was, but for a
    /// policy that says it cannot fail ([`CompactionPolicy::can_fail`]) and fails, and in a
    /// [`Mode::Replay`].
    fn advance(&mut self, mode: Mode) -> Result<Option<Step>, Error> {
        let Some(number) = self.next_number() else {
            return Ok(None);
        };
        let Some(tokens) = self.script.turn(number).map(Turn::tokens) else {
            return Ok(None);
        };
        let tokens_before = self.window.tokens();
        let on_copies = match mode {
            Mode::Step => self.pending > 0 || self.policy.can_fail(),
            Mode::Play => STEPS_ON_COPIES && (self.pending > 0 || self.policy.can_fail()),
            Mode::Replay => false,
        };
        if !on_copies {
            // In place: every summary is written and the step cannot fail (the scripted path),
            // or a saved session is replayed, which a failure discards whole.
            self.window.push_verbatim(number, tokens);
            let peak_tokens = self.window.tokens();
            let verbatim = self.window.verbatim().len();
            let compaction = self
                .policy
                .compact(&mut self.window, &self.script, &self.config)?;
            let compaction = keep_pairs(&mut self.window, &self.script, compaction, verbatim);
            let trimmed = hard_budget::trim(&mut self.window, &self.script, &self.config);
            if let Some(step) = &compaction {
                if let Some(&first) = self.waiting(&step.asked).first() {
                    return Err(Error::new(
                        ErrorKind::InvalidState,
                        text!(
                            "turn ",
                            number,
                            " folds turn ",
                            first,
                            ", which has no summary: a replay does not call the summarizer (the \
                             turns were not saved from a session under this policy)"
                        ),
                    ));
                }
            }
            return Ok(Some(self.log_step(
                number,
                tokens_before,
                peak_tokens,
                compaction,
                trimmed,
            )));
        }
        // The step runs on copies, kept when it succeeds having read only written summaries.
        // Each pass that asks writes at least one summary, so the loop ends.
        let mut written: Vec<TurnNumber> = Vec::new();
        loop {
            let pass = match self.pass(number, tokens) {
                Ok(pass) => pass,
                Err(err) => return Err(self.unwrite(&written, err)),
            };
            let asked = match &pass.compaction {
                Some(step) => self.waiting(&step.asked),
                None => Vec::new(),
            };
            if asked.is_empty() {
                return Ok(Some(self.keep(number, tokens_before, pass)));
            }
            let result = self
                .summarize_turns(&asked)
                .and_then(|summaries| self.write(&asked, summaries));
            match result {
                Ok(()) => written.extend_from_slice(&asked),
                Err(err) => return Err(self.unwrite(&written, err)),
            }
        }
    }

    /// One pass of the step of turn `number` (of `tokens`) on copies of the window and the
    /// policy.
    fn pass(&self, number: TurnNumber, tokens: Tokens) -> Result<Pass, Error> {
        let mut window = self.window.clone();
        let mut policy = self.policy.clone_box();
        window.push_verbatim(number, tokens);
        let peak_tokens = window.tokens();
        let verbatim = window.verbatim().len();
        let compaction = policy.compact(&mut window, &self.script, &self.config)?;
        let compaction = keep_pairs(&mut window, &self.script, compaction, verbatim);
        Ok(Pass {
            window,
            policy,
            peak_tokens,
            compaction,
        })
    }

    /// Keeps `pass`, the step of turn `number`, and logs it.
    fn keep(&mut self, number: TurnNumber, tokens_before: Tokens, pass: Pass) -> Step {
        let mut window = pass.window;
        let trimmed = hard_budget::trim(&mut window, &self.script, &self.config);
        self.window = window;
        self.policy = pass.policy;
        let (peak, compaction) = (pass.peak_tokens, pass.compaction);
        self.log_step(number, tokens_before, peak, compaction, trimmed)
    }

    /// Appends the step of turn `number` to the log, and returns it.
    fn log_step(
        &mut self,
        number: TurnNumber,
        tokens_before: Tokens,
        peak_tokens: Tokens,
        compaction: Option<Compaction>,
        trimmed: Vec<TurnNumber>,
    ) -> Step {
        let compacted = compaction.is_some();
        let Compaction {
            to_warm,
            to_cold,
            dropped,
            asked: _,
        } = compaction.unwrap_or_default();
        // A session without a record leaves the journal to its reader (`take_journal`).
        #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
        let journal = match self.record.is_off() {
            true => window::Journal::default(),
            false => self.window.take_journal(),
        };
        #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
        let lost = self.record.step(
            &self.window,
            journal,
            &self.script,
            number,
            compacted || !trimmed.is_empty(),
        );
        let (tokens_after, budget) = (self.window.tokens(), self.config.budget);
        let step = Step {
            turn: number,
            tokens_before,
            peak_tokens,
            tokens_after,
            crossed: peak_tokens > budget,
            compacted,
            to_warm,
            to_cold,
            dropped,
            over_budget: tokens_after > budget,
            room: budget - tokens_after,
            no_smaller: compacted && tokens_after >= peak_tokens,
            #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
            rare: Step::rare(trimmed, lost),
        };
        #[cfg(all(target_arch = "wasm32", feature = "wasm-runtime"))]
        let _ = trimmed; // always empty: no hard budget
        self.log.push(step.clone());
        if retention::RETENTION {
            self.forget_folded();
        }
        step
    }

    /// The turns of `asked` that wait for their summary, ascending and each once.
    fn waiting(&self, asked: &[TurnNumber]) -> Vec<TurnNumber> {
        let mut turns = Vec::new();
        for &number in asked {
            if self.script.turn(number).is_some_and(waits) {
                turns.push(number);
            }
        }
        crate::sort::sort_by(&mut turns, TurnNumber::cmp);
        turns.dedup();
        turns
    }

    /// The summaries of `turns` (which wait for one) by the session's summarizer, in one batch.
    fn summarize_turns(&self, turns: &[TurnNumber]) -> Result<Vec<String>, Error> {
        let mut batch = Vec::with_capacity(turns.len());
        for &number in turns {
            batch.extend(self.script.turn(number).cloned());
        }
        self.summarize(&batch)
    }

    /// The summaries of `turns` by the session's summarizer, in one batch.
    fn summarize(&self, turns: &[Turn]) -> Result<Vec<String>, Error> {
        let mut batch = Vec::with_capacity(turns.len());
        for turn in turns {
            batch.push(turn);
        }
        match &self.summarizer {
            Some(summarizer) => summarizer.summarize_batch(&batch),
            None => Scripted.summarize_batch(&batch),
        }
    }

    /// Checks `summaries`, one for each of `turns` (which wait for one), and writes them into the
    /// script. On an error nothing is written.
    fn write(&mut self, turns: &[TurnNumber], summaries: Vec<String>) -> Result<(), Error> {
        if summaries.len() != turns.len() {
            return Err(Error::new(
                ErrorKind::InvalidState,
                text!(
                    "the summarizer gave ",
                    summaries.len(),
                    " summaries for ",
                    turns.len(),
                    " turns; it must give one a turn, in order"
                ),
            ));
        }
        for (&number, summary) in turns.iter().zip(&summaries) {
            if summary.trim().is_empty() {
                return Err(Error::invalid(
                    "summary",
                    text!(
                        "summary: the summarizer gave turn ",
                        number,
                        " a summary with no word"
                    ),
                ));
            }
            crate::limits::check_text(&text!("summary (turn ", number, ")"), summary)?;
        }
        for (&number, summary) in turns.iter().zip(summaries) {
            if self.script.set_summary(number, Some(summary)) {
                self.pending -= 1;
            }
        }
        Ok(())
    }

    /// Takes back the summaries of `written`, which a failed step wrote, and returns `err`.
    fn unwrite(&mut self, written: &[TurnNumber], err: Error) -> Error {
        for &number in written {
            if self.script.set_summary(number, None) {
                self.pending += 1;
            }
        }
        err
    }

    /// The next turn's number, while it fits a u32. [`Session::push`] checks it before changing
    /// anything, with the very test [`Session::add_turn`] applies.
    fn next_number(&self) -> Option<TurnNumber> {
        u32::try_from(self.played() + 1).ok().map(TurnNumber)
    }

    /// How many turns were added so far, those forgotten under a retention included.
    fn played(&self) -> usize {
        self.script.forgotten() as usize + self.log.len()
    }

    /// Starts the script over. A session that forgot turns under a retention
    /// ([`SessionConfig::with_retention`]) cannot play them again: it is emptied, script and all.
    pub fn reset(&mut self) {
        if self.script.forgotten() > 0 {
            self.script = Script::live();
            self.pending = 0;
        }
        self.window = Window::counting(self.window.counter().clone());
        self.log.clear();
        #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
        self.record.reset();
        self.pushed = 0;
        self.policy.reset();
    }

    /// Adds turns until `count` of them are in (or the script ends), after a reset when that is
    /// a step back (or the log holds pushed turns). A session is a function of how many turns
    /// were added, so this is how to step back; a step forward goes on from where it stands, so
    /// a long session's slider costs the turns it moves over, not all before them.
    pub fn go_to(&mut self, count: u32) {
        if count < self.turn_count() || self.pushed > 0 {
            self.reset();
        }
        while self.turn_count() < count && self.add_turn().is_some() {}
    }

    /// How many turns were added so far: the number of the latest turn.
    pub fn turn_count(&self) -> u32 {
        // The log has one step per turn held, and turn numbers fit a u32 (see `add_turn`).
        self.played() as u32
    }

    /// Whether every turn has been added.
    pub fn is_done(&self) -> bool {
        self.played() >= self.script.len()
    }

    /// The settings.
    pub fn config(&self) -> SessionConfig {
        self.config
    }

    /// The script being played.
    pub fn script(&self) -> &Script {
        &self.script
    }

    /// The live window: a borrow, O(1), to read every turn (unlike [`Session::state`]).
    pub fn window(&self) -> &Window {
        &self.window
    }

    /// The steps so far, one per turn: a borrow, O(1); the newest is the last. Under a retention
    /// ([`SessionConfig::with_retention`]), those of the turns the session holds.
    pub fn log(&self) -> &[Step] {
        &self.log
    }

    /// A snapshot of everything the widget shows.
    ///
    /// O(n) in the turns added: it copies the whole log and transcript (every turn's text), some
    /// tens of milliseconds at 100,000 turns. An agent that reads the window every turn reads
    /// [`Session::window`] and [`Session::log`], which are O(1).
    pub fn state(&self) -> SessionState {
        // Plain loops: `filter_map(..).collect()` chains are a `Vec::from_iter` each in the wasm.
        let turn_of = |number: TurnNumber| self.script.turn(number);
        let mut hot = Vec::with_capacity(self.window.verbatim().len());
        for number in self.window.verbatim() {
            if let Some(turn) = turn_of(number) {
                let cut = self.window.cut(number);
                hot.push(HotTurn {
                    turn: number,
                    speaker: turn.speaker().to_owned(),
                    kind: turn.kind(),
                    text: cut.unwrap_or(turn.text()).to_owned(),
                    tokens: cut.map_or(turn.tokens(), |cut| self.window.count(cut)),
                });
            }
        }
        let mut dropped = Vec::new();
        let mut crossings = Vec::new();
        for step in &self.log {
            for &number in &step.dropped {
                if let Some(turn) = turn_of(number) {
                    dropped.push(DroppedTurn {
                        turn: number,
                        text: turn.text().to_owned(),
                    });
                }
            }
            if step.crossed {
                crossings.push(step.turn);
            }
        }
        SessionState {
            turn: self.turn_count(),
            total_turns: self.script.len() as u32,
            budget: self.config.budget,
            hot_n: self.config.hot_n,
            tokens: self.window.tokens(),
            over_budget: self.window.tokens() > self.config.budget,
            room: self.config.budget - self.window.tokens(),
            over_budget_reason: self.over_budget_reason(),
            done: self.is_done(),
            crossings,
            hot,
            warm: self.window.warm().cloned().collect(),
            cold: self.window.cold().cloned(),
            dropped,
            log: self.log.clone(),
            transcript: self.transcript(),
            messages: self.messages(),
            counting: self.window.counter().name().map(str::to_owned),
        }
    }

    /// The window as chat messages, in the order the model reads it: the COLD gist and each WARM
    /// line as a message of its own ([`Role::User`]), then each verbatim turn with its
    /// [`Turn::role`], its text (or what a policy left in its place) and its tool-call id. O(n)
    /// in the window, not in the transcript.
    ///
    /// A tool result is never here without its call: when a policy folds a call, its result
    /// folds with it (see [`Session::push`]). For Anthropic's Messages API, which takes no
    /// `tool` role, send a tool message as a `user` message holding a `tool_result` block.
    ///
    /// ```
    /// use agent_memory_widgets::{Role, Session};
    ///
    /// let mut session = Session::default();
    /// while session.add_turn().is_some() {}
    /// let messages = session.messages();
    /// // The COLD gist, a WARM line, then the two HOT turns, verbatim.
    /// assert_eq!(messages.len(), 4);
    /// assert_eq!(messages[0].role, Role::User);
    /// assert!(messages[0].content.contains("ORD-3300"));
    /// assert_eq!(messages[3].role, Role::Assistant);
    /// assert!(messages[3].content.starts_with("Yes, Dana"));
    /// ```
    pub fn messages(&self) -> Vec<Message> {
        let lines = self.window.warm().len() + usize::from(self.window.cold().is_some());
        let mut messages = Vec::with_capacity(lines + self.window.verbatim().len());
        for line in self.window.cold().into_iter().chain(self.window.warm()) {
            messages.push(Message {
                role: Role::User,
                content: line.text().to_owned(),
                tool_call_id: None,
            });
        }
        for (number, cut) in self.window.held() {
            if let Some(turn) = self.script.turn(number) {
                messages.push(Message {
                    role: turn.role(),
                    content: cut.unwrap_or(turn.text()).to_owned(),
                    tool_call_id: match policy::TOOL_CALLS {
                        true => turn.tool_call_id().map(str::to_owned),
                        false => None,
                    },
                });
            }
        }
        messages
    }

    /// Every turn added so far, with where its content lives now. One pass per tier, the
    /// stronger tier last: a turn that is both HOT and in a summary is HOT.
    fn transcript(&self) -> Vec<TranscriptTurn> {
        let forgotten = self.script.forgotten();
        let mut places = vec![Place::Faded; self.log.len()];
        let mut mark = |turns: &[TurnNumber], place: Place| {
            for turn in turns {
                let index = turn.index().and_then(|i| i.checked_sub(forgotten as usize));
                if let Some(slot) = index.and_then(|i| places.get_mut(i)) {
                    *slot = place;
                }
            }
        };
        for step in &self.log {
            mark(&step.dropped, Place::Dropped);
        }
        if let Some(line) = self.window.cold() {
            mark(line.turns(), Place::Cold);
        }
        for line in self.window.warm() {
            mark(line.turns(), Place::Warm);
        }
        for turn in self.window.verbatim() {
            mark(&[turn], Place::Hot);
        }
        let mut transcript = Vec::with_capacity(places.len());
        for (turn, place) in self.script.turns().iter().zip(places) {
            transcript.push(TranscriptTurn {
                turn: TurnNumber(forgotten + transcript.len() as u32 + 1),
                speaker: turn.speaker().to_owned(),
                kind: turn.kind(),
                text: turn.text().to_owned(),
                summary: turn.summary().map(str::to_owned),
                summary_by_rule: turn.summary_by_rule(),
                place,
            });
        }
        transcript
    }

    fn over_budget_reason(&self) -> Option<String> {
        let (tokens, budget) = (self.window.tokens(), self.config.budget);
        if tokens <= budget {
            return None;
        }
        if hard_budget::HARD_BUDGET && self.config.hard_budget {
            return Some(hard_budget::over_budget_reason(&self.window, &self.config));
        }
        if let Some(reason) = self.policy.over_budget_reason(&self.window, &self.config) {
            return Some(reason);
        }
        let verbatim = self.window.verbatim().len();
        let turns = if verbatim == 1 {
            "turn".to_owned()
        } else {
            text!(verbatim, " turns")
        };
        let verbatim_tokens = self.window.verbatim_tokens();
        Some(if verbatim_tokens > budget {
            text!(
                "The last ",
                turns,
                " must stay verbatim and alone take ",
                verbatim_tokens,
                " tokens, \
                 more than the budget of ",
                budget,
                ", so no compaction can bring the window under it."
            )
        } else {
            text!(
                "Everything older than the last ",
                turns,
                " is already compacted, and the window \
                 still takes ",
                tokens,
                " tokens, more than the budget of ",
                budget,
                "."
            )
        })
    }

    /// The same session with a hard budget ([`SessionConfig::with_hard_budget`]); turns already
    /// added are played again under it. The same as making the session with such a config.
    pub fn with_hard_budget(mut self) -> Session {
        self.config = self.config.with_hard_budget();
        let turns = self.turn_count();
        self.reset();
        self.go_to(turns);
        self
    }

    /// The same session with a retention ([`SessionConfig::with_retention`]): it forgets what it
    /// no longer needs now, and after every step from now on. Nothing is played again: a
    /// retention changes no window and no step.
    pub fn with_retention(mut self, folded: u32) -> Session {
        self.config = self.config.with_retention(folded);
        self.forget_folded();
        self
    }

    /// Under a retention, forgets the turns (and their steps) before the `retention` turns that
    /// precede the window's oldest verbatim turn, and before the oldest the policy may read
    /// again. O(the turns held).
    pub(crate) fn forget_folded(&mut self) {
        let Some(keep) = self.config.retention() else {
            return;
        };
        if !retention::RETENTION {
            return;
        }
        let next = self.turn_count().saturating_add(1);
        let oldest = self.window.verbatim().next().map_or(next, |turn| turn.0);
        #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
        let needed = self.policy.reads_back_to();
        #[cfg(all(target_arch = "wasm32", feature = "wasm-runtime"))]
        let needed: Option<TurnNumber> = None;
        let first = match needed {
            Some(TurnNumber(needed)) => oldest.saturating_sub(keep).max(1).min(needed.max(1)),
            None => oldest.saturating_sub(keep).max(1),
        };
        let forgotten = self.script.forgotten();
        if first <= forgotten + 1 {
            return;
        }
        let steps = ((first - 1 - forgotten) as usize).min(self.log.len());
        self.pending -= self.script.forget_before(TurnNumber(first));
        self.log.drain(..steps);
    }
}

impl Default for Session {
    /// The refund-desk script with the seed's budget of 40 and 2 HOT turns.
    fn default() -> Session {
        Session::new(SessionConfig::default(), Script::refund_desk())
    }
}

impl core::fmt::Debug for Session {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Session")
            .field("config", &self.config)
            .field("turns", &self.turn_count())
            .field("window", &self.window)
            .finish_non_exhaustive()
    }
}
