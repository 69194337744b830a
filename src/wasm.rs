//! The WebAssembly boundary: the only module that knows about wasm-bindgen and JS.
//!
//! It exports the core's [`Session`](crate::Session), [`FactStore`](crate::FactStore),
//! [`Playground`](crate::Playground) and [`ForgettingPlayground`](crate::ForgettingPlayground)
//! under the same names, turns JS values into the core's options, hands state back as plain JS
//! objects (camelCase, `null` for absent values), and turns every core [`Error`](crate::Error)
//! into a thrown JS `Error` with the core's message. No JS input can reach a panic.

#[cfg(feature = "with-config")]
use crate::prelude::*;
#[cfg(feature = "with-config")]
use js_sys::{Array, JsString, Reflect};
use serde::Serialize;
use wasm_bindgen::prelude::*;

mod snapshot;

#[cfg(any(
    feature = "element-compaction",
    feature = "element-forgetting",
    feature = "element-playground"
))]
use crate::error::whole_number;
#[cfg(all(
    feature = "with-config",
    any(
        feature = "element-compaction",
        feature = "element-forgetting",
        feature = "element-playground"
    )
))]
use crate::limits::check_len;
#[cfg(feature = "with-config")]
use crate::limits::MAX_SCRIPT_TEXT_CHARS;
#[cfg(all(
    feature = "with-config",
    any(feature = "element-compaction", feature = "element-playground")
))]
use crate::limits::MAX_TURNS;
use crate::Error;
#[cfg(all(feature = "with-config", feature = "element-forgetting"))]
use crate::{
    limits::{MAX_EVENTS, MAX_FACTS, MAX_READS, MAX_RULES},
    EventSpec, ReadSpec, RuleSpec, ScenarioSpec, SeedFactSpec, StoreOptions,
};
#[cfg(feature = "element-forgetting")]
use crate::{EventIndex, FactId, Time};
#[cfg(all(
    feature = "with-config",
    any(feature = "element-compaction", feature = "element-playground")
))]
use crate::{SessionOptions, TurnSpec};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
/** Options for `Session.withConfig`; every field is optional. */
export interface SessionConfig {
  /** Token budget of the live window, a whole number of at least 1 (default 40). */
  budget?: number;
  /** Turns kept HOT and verbatim at a compaction, a whole number of at least 1 (default 2). */
  hotN?: number;
  /** A custom script (default: the refund desk). */
  script?: TurnSpec[];
  /** Compact at this percent of the budget, 1 to 100, every policy with a token trigger
   * (default: each policy's own: ours 100, Letta's and Codex's 90). */
  compactAt?: number;
  /** Compact our policy's window down to this percent of the budget, 1 to 100 (default: the
   * whole budget); the framework policies keep their own targets. */
  compactTo?: number;
  /** How tokens are counted: "words" (the default) or "estimate", about 4 characters a token
   * and one a Chinese, Japanese or Korean character. A turn's own `tokens` are kept. */
  tokens?: "words" | "estimate";
}
export type TurnKind = "chatter" | "decision" | "tool" | "question";
/** How a turn is sent to a chat model, apart from its kind. */
export type TurnRole = "user" | "assistant" | "tool" | "system";
/** A turn; `tokens`, a whole number, is its token count as the caller knows it (from the API's
 * `usage`), which no counting replaces. `role`, when absent: "tool" for a tool turn or speaker
 * "tool", "assistant" for a decision or speaker "agent", else "user". `toolCallId`: the id an
 * assistant's tool call and its result share. */
export interface TurnSpec {
  speaker: string; kind: TurnKind; text: string; summary?: string | null; tokens?: number | null;
  role?: TurnRole | null; toolCallId?: string | null;
}
/** What `importConversation` read: the format it found (`formatName` in words), the turns, and
 * what else a session log says. `skipped`: records that became no turn (rewound ones included,
 * also counted in `rewound`). `broken`: the first 100 lines that could not be read, each with
 * why, while the rest imported; `brokenLines` counts them all. `compactions`: the agent's own,
 * `turn` being how many turns came before it, `postTokens` null where the log does not say,
 * `summary` whole. `sentTokens`: the input tokens the model was really sent for the reply that
 * ends at turn `turn` (Anthropic's input plus cache tokens, Codex's `last_token_usage`, Gemini's
 * `tokens.input`). `subagent`: a subagent's turns found in the main log, kept apart. */
export interface ImportedConversation {
  format: "lines" | "chat-messages" | "openai-chat" | "anthropic-messages" | "claude-code" | "codex" | "gemini-cli";
  formatName: string; turns: TurnSpec[]; skipped: number;
  compactions: { turn: number; trigger: string; preTokens: number | null; postTokens: number | null; summary: string }[];
  sentTokens: { turn: number; tokens: number }[];
  broken: { line: number; reason: string }[]; brokenLines: number; rewound: number;
  subagent: TurnSpec[];
}
/** A framework's compaction trigger for one context window (`frameworkTriggers`), cited: the
 * share of the window at which it compacts, and that share as the playground's `compactAt`;
 * both `null` where it has no default trigger, and `compactAt` `null` where the share is over 1
 * (a trigger past the window, which never fires in it). `scaled`: the share depends on the
 * window. */
export interface FrameworkTrigger {
  framework: string; setting: string; source: string; url: string; window: number;
  share: number | null; compactAt: number | null; scaled: boolean;
}
/** What one `addTurn()` did. Turn lists hold turn numbers, counting from 1. */
export interface Step {
  turn: number; tokensBefore: number; peakTokens: number; tokensAfter: number;
  crossed: boolean; compacted: boolean; toWarm: number[]; toCold: number[]; dropped: number[];
}
export interface HotTurn { turn: number; speaker: string; kind: TurnKind; text: string; tokens: number; }
/** A WARM line or the COLD gist, with the turns it came from. */
export interface Line { turns: number[]; text: string; tokens: number; }
/** One message of the window, ready for a chat API; `toolCallId` on a tool call and its result. */
export interface Message { role: TurnRole; content: string; toolCallId?: string; }
export interface SessionState {
  turn: number; totalTurns: number; budget: number; hotN: number; tokens: number;
  overBudget: boolean; overBudgetReason: string | null; done: boolean; crossings: number[];
  hot: HotTurn[]; warm: Line[]; cold: Line | null; dropped: { turn: number; text: string }[];
  log: Step[]; transcript: TranscriptTurn[];
  /** The window as chat messages, in order: the COLD gist and each WARM line as a "user"
   * message, then each verbatim turn with its role. */
  messages: Message[];
  /** How tokens are counted, when not as words: "estimate" (withConfig's `tokens`). */
  counting?: "estimate";
}
/** Options for `FactStore.withConfig`; every field is optional. */
export interface FactStoreConfig {
  /** Time units for recency to halve, from 0.001 to 10^13 (default 4). */
  halfLife?: number;
  /** Most active facts after a write, a whole number of at least 1 (default 4). */
  capacity?: number;
  /** What each read adds to the access factor, 0 to 1000 (default 0.5). */
  accessBoost?: number;
  /** Half-lives of distilled facts (default 4 and 8 times halfLife). */
  semanticHalfLife?: number;
  proceduralHalfLife?: number;
  /** A custom scenario (default: the refund desk). */
  scenario?: ScenarioSpec;
}
export interface ScenarioSpec {
  facts?: { text: string; importance: number }[];
  reads?: { fact: number; at: number }[];
  events?: { label?: string; text: string; importance: number; supersedes?: number | null }[];
  consolidation?: { kind: "semantic" | "procedural"; text: string; importance: number; sources: number[] }[];
}
export interface EventInfo { index: number; label: string; fact: number; firedAt: number | null; }
export type FactStatus = "active" | "superseded" | "evicted";
export interface FactView {
  id: number; text: string; kind: "episodic" | "semantic" | "procedural"; importance: number;
  lastTouch: number; age: number; reads: number; recency: number; access: number; score: number;
  status: FactStatus; supersededBy: number | null; halfLife: number; sources: number[];
  forecast: { halfAt: number; weakestAt: number | null } | null;
}
export interface Change {
  at: number; action: "write" | "refresh" | "read" | "missedRead" | "distill"; fact: number;
  event: number | null; superseded: number | null; evicted: number | null;
}
export interface PolicyInfo {
  id: string; name: string; origin: string; kind: string; rule: string; source: string; url: string;
  /** Its own trigger, in percent of the budget, which compactAt replaces; null when tokens play no part. */
  trigger: number | null;
}
export type Named = "meaning" | "bareTerm" | "gone" | "notYetSaid";
/** One compaction's loss, against the window at its peak: turns that left it verbatim (into a
 * summary line, already in one, or dropped outright), turns whose summary left it, turns masked
 * in place or cut short beside a summary that covers them, and the facts it no longer names
 * (or names only as a bare term). */
export interface StepLoss {
  turn: number; leftVerbatim: number[]; summarized: number[]; alreadySummarized: number[];
  dropped: number[]; summariesDropped: number[]; masked: number[]; cut: number[];
  factsLost: string[]; factsBare: string[];
}
export interface PolicyRow {
  info: PolicyInfo;
  series: number[]; peaks: number[]; compactions: number; tokens: number; kept: Named[];
  /** The turns of the whole script after whose step the window is over the budget. */
  overTurns: number[];
  /** What each compaction so far took from the window, oldest first. */
  losses: StepLoss[];
  /** The session state at the playground's turn, with an empty transcript. */
  window: SessionState;
}
export interface PlaygroundState {
  turn: number; totalTurns: number; budget: number; compactAt: number | null;
  /** `compactAt`% of the budget in tokens, rounded down (`null` without it); `target`, what our
   * policy's compaction brings the window down to (`compactTo`% of the budget, or all of it). */
  trigger: number | null; target: number; facts: string[];
  factsRule: string;
  /** How the facts were chosen, and that rule in words. */
  factsFrom: "refundDesk" | "toolResults" | "keyTerms"; factsChosen: string; policies: PolicyRow[];
}
/** Options for `ForgettingPlayground.withConfig`; every field is optional. */
export interface ForgettingPlaygroundConfig {
  /** Our half-life, from 0.001 to 10^13 (default 4). */
  halfLife?: number;
  /** Most facts each policy holds, a whole number of at least 1 (default 4). */
  capacity?: number;
  /** "tickets" (forty customers, the default) or "refund-desk". */
  stream?: "tickets" | "refund-desk";
}
export interface ForgettingPolicyInfo { id: string; name: string; rule: string; source: string; url: string; }
export interface ForgettingPlaygroundState {
  t: number; until: number; stream: "tickets" | "refund-desk"; events: number; eventsDone: number;
  reads: number; totalReads: number; capacity: number; halfLife: number;
  facts: { id: number; text: string; supersededBy: number | null }[];
  policies: { info: ForgettingPolicyInfo; held: number[]; hits: number; stale: number; series: { at: number; rate: number }[] }[];
  /** Indexes into `policies`: the rows that found the most reads so far (none before the first read), and those holding no stale fact. */
  leaders: number[]; fresh: number[];
}
export interface ChartLine { id: number; text: string; kind: string; points: [number, number][]; retiredAt: number | null; }
export interface TranscriptTurn {
  turn: number; speaker: string; kind: TurnKind; text: string;
  /** The one-line summary (`null` for chatter), and whether the first-sentence rule wrote it. */
  summary: string | null; summaryByRule: boolean;
  place: "hot" | "warm" | "cold" | "dropped" | "faded";
}
export interface FactStoreState {
  t: number; halfLife: number; capacity: number; accessBoost: number; semanticHalfLife: number;
  proceduralHalfLife: number; consolidatedAt: number | null; canConsolidate: boolean; activeCount: number;
  facts: FactView[]; events: EventInfo[]; reads: { fact: number; at: number; scheduled: boolean; missed: boolean }[];
  log: Change[];
}
"#;

#[cfg(feature = "element-compaction")]
/// The compaction widget's model: a support session played turn by turn.
#[wasm_bindgen(js_name = Session)]
pub struct JsSession(crate::Session);

#[cfg(feature = "element-compaction")]
#[wasm_bindgen(js_class = Session)]
impl JsSession {
    /// The refund-desk script with the seed's budget of 40 and 2 HOT turns.
    #[wasm_bindgen(constructor)]
    pub fn new() -> JsSession {
        JsSession(crate::Session::default())
    }

    /// A session with custom options; throws an `Error` naming the bad option.
    #[cfg(feature = "with-config")]
    #[wasm_bindgen(js_name = withConfig)]
    pub fn with_config(
        #[wasm_bindgen(unchecked_param_type = "SessionConfig")] options: JsValue,
    ) -> Result<JsSession, JsError> {
        session_from(session_options(&options)?)
            .map(JsSession)
            .map_err(js_error)
    }

    /// Appends the next turn and compacts if it crossed the budget; `null` once the script is done.
    #[wasm_bindgen(js_name = addTurn, unchecked_return_type = "Step | null")]
    pub fn add_turn(&mut self) -> Result<JsValue, JsError> {
        to_js(&self.0.add_turn())
    }

    /// Starts the script over.
    pub fn reset(&mut self) {
        self.0.reset();
    }

    /// Resets, then adds turns until `turn` of them are in.
    #[wasm_bindgen(js_name = goTo)]
    pub fn go_to(&mut self, turn: f64) -> Result<(), JsError> {
        self.0.go_to(turn_count(turn)?);
        Ok(())
    }

    /// A snapshot of everything the widget shows.
    #[wasm_bindgen(unchecked_return_type = "SessionState")]
    pub fn state(&self) -> Result<JsValue, JsError> {
        to_js(&self.0.state())
    }

    /// Every turn of the script as options write it: `withConfig({ script })` of these plays
    /// the same session. A summary the first-sentence rule wrote is `null`.
    #[wasm_bindgen(unchecked_return_type = "TurnSpec[]")]
    pub fn script(&self) -> Result<JsValue, JsError> {
        to_js(&self.0.script().spec_refs())
    }
}

/// A pasted or fetched conversation read by the core (`import_conversation`): plain
/// `Speaker: text` lines, chat messages as OpenAI's Chat Completions or Anthropic's Messages API
/// writes them, or a Claude Code, Codex CLI or Gemini CLI session file. Returns
/// `{ format, formatName, turns, skipped, compactions, sentTokens, broken, brokenLines, rewound,
/// subagent }` (the TypeScript type `ImportedConversation` says what each holds): the turns each
/// with a kind inferred by the core's rule and the log's own token count if it has one.
/// Throws an `Error` for a text that is no format it reads, saying what was expected, or over
/// 64 MiB; a log's broken line is named in `broken`, and the rest imports.
#[cfg(feature = "import")]
#[wasm_bindgen(js_name = importConversation, unchecked_return_type = "ImportedConversation")]
pub fn import_conversation(text: &JsString) -> Result<JsValue, JsError> {
    // Checked before it is copied into wasm memory: each UTF-16 unit is at least one byte of
    // UTF-8, so more units than the limit are more bytes than it.
    if text.length() as usize > crate::limits::MAX_IMPORT_BYTES {
        return Err(js_error(crate::compaction::too_big()));
    }
    let read = crate::import_conversation(&String::from(text)).map_err(js_error)?;
    to_js(&ImportedConversation {
        format: read.format,
        format_name: read.format.title(),
        turns: read.turns,
        skipped: read.skipped,
        compactions: read.compactions,
        sent_tokens: read.sent_tokens,
        broken: read.broken,
        broken_lines: read.broken_lines,
        rewound: read.rewound,
        subagent: read.subagent,
    })
}

/// Every framework's real compaction trigger (`FRAMEWORK_SETTINGS`) for a context window of
/// `window` tokens (200,000 when left out), the model's largest output being `maxOutput` tokens
/// (64,000 when left out; only Claude Code's formula reads it), cited, each with its share of
/// the window and that share as `compactAt`. Throws an `Error` for a window that is not a whole
/// number from 1,000 to 100,000,000, or an output larger than the window.
#[cfg(all(feature = "element-playground", feature = "with-config"))]
#[wasm_bindgen(js_name = frameworkTriggers, unchecked_return_type = "FrameworkTrigger[]")]
pub fn framework_triggers(
    window: Option<f64>,
    max_output: Option<f64>,
) -> Result<JsValue, JsError> {
    let triggers = crate::framework_triggers(
        window.unwrap_or(f64::from(crate::REFERENCE_WINDOW)),
        max_output.unwrap_or(f64::from(crate::REFERENCE_MAX_OUTPUT)),
    )
    .map_err(js_error)?;
    to_js(&triggers)
}

/// What `importConversation` returns.
#[cfg(feature = "import")]
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ImportedConversation {
    format: crate::Format,
    format_name: &'static str,
    turns: Vec<crate::TurnSpec>,
    skipped: usize,
    compactions: Vec<crate::LogCompaction>,
    sent_tokens: Vec<crate::SentTokens>,
    broken: Vec<crate::BrokenLine>,
    broken_lines: usize,
    rewound: usize,
    subagent: Vec<crate::TurnSpec>,
}

#[cfg(feature = "element-compaction")]
impl Default for JsSession {
    fn default() -> JsSession {
        JsSession::new()
    }
}

#[cfg(feature = "element-playground")]
/// The policy playground's model: one script replayed under seven compaction policies.
#[wasm_bindgen(js_name = Playground)]
pub struct JsPlayground(crate::Playground);

#[cfg(feature = "element-playground")]
#[wasm_bindgen(js_class = Playground)]
impl JsPlayground {
    /// The refund-desk script under every policy, budget 40, 2 HOT turns.
    #[wasm_bindgen(constructor)]
    pub fn new() -> JsPlayground {
        JsPlayground(crate::Playground::default())
    }

    /// A playground with custom options, the same as `Session.withConfig`.
    #[cfg(feature = "with-config")]
    #[wasm_bindgen(js_name = withConfig)]
    pub fn with_config(
        #[wasm_bindgen(unchecked_param_type = "SessionConfig")] options: JsValue,
    ) -> Result<JsPlayground, JsError> {
        JsPlayground::of(session_options(&options)?)
    }

    /// As Playground::from_options, through the session.
    #[cfg(feature = "with-config")]
    fn of(options: SessionOptions) -> Result<JsPlayground, JsError> {
        crate::Playground::from_options(options)
            .map(JsPlayground)
            .map_err(js_error)
    }

    /// Moves every policy to `turn`.
    #[wasm_bindgen(js_name = goTo)]
    pub fn go_to(&mut self, turn: f64) -> Result<(), JsError> {
        self.0.go_to(turn_count(turn)?);
        Ok(())
    }

    /// The turn every policy stands at.
    #[wasm_bindgen(getter)]
    pub fn turn(&self) -> u32 {
        self.0.turn_count()
    }

    /// Every policy's row at the current turn.
    #[wasm_bindgen(unchecked_return_type = "PlaygroundState")]
    pub fn state(&self) -> Result<JsValue, JsError> {
        to_js(&self.0.state())
    }
}

#[cfg(feature = "element-playground")]
impl Default for JsPlayground {
    fn default() -> JsPlayground {
        JsPlayground::new()
    }
}

#[cfg(feature = "element-forgetting-playground")]
/// The forgetting playground's model: seven forgetting policies over one stream of writes and
/// reads, with a time slider.
#[wasm_bindgen(js_name = ForgettingPlayground)]
pub struct JsForgettingPlayground(crate::ForgettingPlayground);

#[cfg(feature = "element-forgetting-playground")]
#[wasm_bindgen(js_class = ForgettingPlayground)]
impl JsForgettingPlayground {
    /// Forty refund-desk tickets at capacity 4, half-life 4.
    #[wasm_bindgen(constructor)]
    pub fn new() -> JsForgettingPlayground {
        JsForgettingPlayground(crate::ForgettingPlayground::new(
            crate::StreamId::Tickets,
            crate::StoreConfig::default(),
        ))
    }

    /// A playground with custom options; throws an `Error` naming the bad option.
    #[cfg(feature = "with-config")]
    #[wasm_bindgen(js_name = withConfig)]
    pub fn with_config(
        #[wasm_bindgen(unchecked_param_type = "ForgettingPlaygroundConfig")] options: JsValue,
    ) -> Result<JsForgettingPlayground, JsError> {
        let fields = options::Fields::root(&options, &["halfLife", "capacity", "stream"])?;
        let (half_life, capacity, stream) = match &fields {
            Some(fields) => (
                fields.number("halfLife")?,
                fields.number("capacity")?,
                fields.text("stream")?,
            ),
            None => (None, None, None),
        };
        crate::ForgettingPlayground::from_options(half_life, capacity, stream.as_deref())
            .map(JsForgettingPlayground)
            .map_err(js_error)
    }

    /// The slider's time.
    #[wasm_bindgen(getter)]
    pub fn time(&self) -> f64 {
        self.0.time().get()
    }

    /// Moves the slider to `t` (finite, at least 0).
    #[wasm_bindgen(js_name = setTime)]
    pub fn set_time(&mut self, t: f64) -> Result<(), JsError> {
        self.0.set_time(crate::Time::new(t).map_err(js_error)?);
        Ok(())
    }

    /// Every policy at the slider's time.
    #[wasm_bindgen(unchecked_return_type = "ForgettingPlaygroundState")]
    pub fn state(&self) -> Result<JsValue, JsError> {
        to_js(&self.0.state())
    }
}

#[cfg(feature = "element-forgetting-playground")]
impl Default for JsForgettingPlayground {
    fn default() -> JsForgettingPlayground {
        JsForgettingPlayground::new()
    }
}

#[cfg(feature = "element-forgetting")]
/// The forgetting widget's model: a fact store on a timeline with a time slider.
#[wasm_bindgen(js_name = FactStore)]
pub struct JsFactStore(crate::FactStore);

#[cfg(feature = "element-forgetting")]
#[wasm_bindgen(js_class = FactStore)]
impl JsFactStore {
    /// The refund-desk facts with the seed's half-life 4, capacity 4 and access boost 0.5.
    #[wasm_bindgen(constructor)]
    pub fn new() -> JsFactStore {
        JsFactStore(crate::FactStore::default())
    }

    /// A store with custom options; throws an `Error` naming the bad option.
    #[cfg(feature = "with-config")]
    #[wasm_bindgen(js_name = withConfig)]
    pub fn with_config(
        #[wasm_bindgen(unchecked_param_type = "FactStoreConfig")] options: JsValue,
    ) -> Result<JsFactStore, JsError> {
        crate::FactStore::from_options(store_options(&options)?)
            .map(JsFactStore)
            .map_err(js_error)
    }

    /// The slider's time.
    #[wasm_bindgen(getter)]
    pub fn time(&self) -> f64 {
        self.0.time().get()
    }

    /// Moves the slider to `t` (finite, at least 0), forward or back.
    #[wasm_bindgen(js_name = setTime)]
    pub fn set_time(&mut self, t: f64) -> Result<(), JsError> {
        self.0.set_time(Time::new(t).map_err(js_error)?);
        Ok(())
    }

    /// The write events, with when each was fired.
    #[wasm_bindgen(unchecked_return_type = "EventInfo[]")]
    pub fn events(&self) -> Result<JsValue, JsError> {
        to_js(&self.0.events())
    }

    /// Fires write event `index` (from 0) at the current time; one fired already moves here.
    #[wasm_bindgen(unchecked_return_type = "Change")]
    pub fn fire(&mut self, index: f64) -> Result<JsValue, JsError> {
        to_js(&self.0.fire(event_index(index)?).map_err(js_error)?)
    }

    /// Takes fired write event `index` off the timeline; returns the time it had.
    pub fn unfire(&mut self, index: f64) -> Result<f64, JsError> {
        let at = self.0.unfire(event_index(index)?).map_err(js_error)?;
        Ok(at.get())
    }

    /// Reads active fact `id` at the current time.
    #[wasm_bindgen(unchecked_return_type = "Change")]
    pub fn read(&mut self, id: f64) -> Result<JsValue, JsError> {
        let id = whole_number("id", id, 0, u32::MAX).map_err(js_error)?;
        to_js(&self.0.read(FactId(id)).map_err(js_error)?)
    }

    /// Every fact's score at `0, step, 2·step, … ≤ until`, for the decay chart.
    #[wasm_bindgen(unchecked_return_type = "ChartLine[]")]
    pub fn chart(&self, until: f64, step: f64) -> Result<JsValue, JsError> {
        let until = Time::named("until", until).map_err(js_error)?;
        to_js(&self.0.chart(until, step).map_err(js_error)?)
    }

    /// Runs the consolidation pass at the current time (one that ran already moves here);
    /// returns what it distilled.
    #[wasm_bindgen(unchecked_return_type = "Change[]")]
    pub fn consolidate(&mut self) -> Result<JsValue, JsError> {
        to_js(&self.0.consolidate().map_err(js_error)?)
    }

    /// Takes the consolidation pass off the timeline; returns the time it had.
    pub fn unconsolidate(&mut self) -> Result<f64, JsError> {
        let at = self.0.unconsolidate().map_err(js_error)?;
        Ok(at.get())
    }

    /// Forgets every fired event, the consolidation pass and every read; back to t = 0.
    pub fn reset(&mut self) {
        self.0.reset();
    }

    /// A snapshot of the store at the current time.
    #[wasm_bindgen(unchecked_return_type = "FactStoreState")]
    pub fn state(&self) -> Result<JsValue, JsError> {
        to_js(&self.0.state())
    }
}

#[cfg(feature = "element-forgetting")]
impl Default for JsFactStore {
    fn default() -> JsFactStore {
        JsFactStore::new()
    }
}

/// The session options in `value`. Every key and type is checked here, by hand rather than with
/// serde's `Deserialize`, so that each message gives the path of the bad field and the build
/// carries no float formatting for serde's error messages.
#[cfg(all(
    feature = "with-config",
    any(feature = "element-compaction", feature = "element-playground")
))]
fn session_options(value: &JsValue) -> Result<SessionOptions, JsError> {
    let known = [
        "budget",
        "hotN",
        "script",
        "compactAt",
        "compactTo",
        "tokens",
    ];
    let Some(options) = options::Fields::root(value, &known)? else {
        return Ok(SessionOptions::default());
    };
    Ok(SessionOptions {
        budget: options.number("budget")?,
        hot_n: options.number("hotN")?,
        script: script_specs(&options)?,
        compact_at: options.number("compactAt")?,
        compact_to: options.number("compactTo")?,
        tokens: options.text("tokens")?,
    })
}

/// The custom script in the options, if any (its checks are the core's: `Script::within_limits`).
#[cfg(all(
    feature = "with-config",
    any(feature = "element-compaction", feature = "element-playground")
))]
fn script_specs(options: &options::Fields) -> Result<Option<Vec<TurnSpec>>, JsError> {
    options.list(
        "script",
        MAX_TURNS,
        |turn| {
            Ok(TurnSpec {
                speaker: turn.text("speaker")?,
                kind: turn.text("kind")?,
                text: turn.text("text")?,
                summary: turn.text("summary")?,
                tokens: turn.number("tokens")?,
                role: turn.text("role")?,
                tool_call_id: turn.text("toolCallId")?,
            })
        },
        &[
            "speaker",
            "kind",
            "text",
            "summary",
            "tokens",
            "role",
            "toolCallId",
        ],
    )
}

/// A session from `options`, of any script.
#[cfg(all(feature = "with-config", feature = "element-compaction"))]
fn session_from(options: SessionOptions) -> Result<crate::Session, Error> {
    crate::Session::from_options(options)
}

/// The fact store options in `value`, checked like [`session_options`].
#[cfg(all(feature = "with-config", feature = "element-forgetting"))]
fn store_options(value: &JsValue) -> Result<StoreOptions, JsError> {
    let known = [
        "halfLife",
        "capacity",
        "accessBoost",
        "semanticHalfLife",
        "proceduralHalfLife",
        "scenario",
    ];
    let Some(options) = options::Fields::root(value, &known)? else {
        return Ok(StoreOptions::default());
    };
    let scenario = scenario_spec(&options)?;
    Ok(StoreOptions {
        half_life: options.number("halfLife")?,
        capacity: options.number("capacity")?,
        access_boost: options.number("accessBoost")?,
        semantic_half_life: options.number("semanticHalfLife")?,
        procedural_half_life: options.number("proceduralHalfLife")?,
        scenario,
    })
}

/// The custom scenario in the options, if any (its checks are the core's: `Scenario::new`).
#[cfg(all(feature = "with-config", feature = "element-forgetting"))]
fn scenario_spec(options: &options::Fields) -> Result<Option<ScenarioSpec>, JsError> {
    let Some(scenario) = options.child(
        &options.get("scenario")?,
        "scenario",
        &["facts", "reads", "events", "consolidation"],
    )?
    else {
        return Ok(None);
    };
    Ok(Some(ScenarioSpec {
        facts: scenario
            .list(
                "facts",
                MAX_FACTS,
                |fact| {
                    Ok(SeedFactSpec {
                        text: fact.text("text")?,
                        importance: fact.number("importance")?,
                    })
                },
                &["text", "importance"],
            )?
            .unwrap_or_default(),
        reads: scenario
            .list(
                "reads",
                MAX_READS,
                |read| {
                    Ok(ReadSpec {
                        fact: read.number("fact")?,
                        at: read.number("at")?,
                    })
                },
                &["fact", "at"],
            )?
            .unwrap_or_default(),
        events: scenario
            .list(
                "events",
                MAX_EVENTS,
                |event| {
                    Ok(EventSpec {
                        label: event.text("label")?,
                        text: event.text("text")?,
                        importance: event.number("importance")?,
                        supersedes: event.number("supersedes")?,
                    })
                },
                &["label", "text", "importance", "supersedes"],
            )?
            .unwrap_or_default(),
        consolidation: scenario
            .list(
                "consolidation",
                MAX_RULES,
                |rule| {
                    Ok(RuleSpec {
                        kind: rule.text("kind")?,
                        text: rule.text("text")?,
                        importance: rule.number("importance")?,
                        sources: rule.numbers("sources")?,
                    })
                },
                &["kind", "text", "importance", "sources"],
            )?
            .unwrap_or_default(),
    }))
}

// The JS functions the options reader calls, each in its catching form: a caller's getter,
// Proxy trap or revoked Proxy may throw, and an exception that unwinds through wasm frames
// skips the code that restores wasm-bindgen's shadow stack pointer. Caught here, it becomes an
// ordinary error that names the option.
#[cfg(feature = "with-config")]
#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(catch, js_namespace = Array, js_name = isArray)]
    fn is_array(value: &JsValue) -> Result<bool, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Object, js_name = keys)]
    fn object_keys(value: &JsValue) -> Result<Array, JsValue>;
}

// The options reader (`options::Fields`), behind every class's `withConfig`.
#[cfg(feature = "with-config")]
mod options {
    use alloc::rc::Rc;
    use core::cell::Cell;

    use js_sys::Object;

    use super::*;
    use crate::limits::MAX_PAGE_TEXT_CHARS;

    /// A JS object being read, with the path that error messages name (`script[3]`).
    pub(super) struct Fields {
        object: Object,
        path: String,
        // The UTF-16 units of every text read so far from the same options, shared by the objects
        // below them: it stops a list of long texts from filling memory before the core's exact
        // character count sees it (UTF-16 units bound characters from above).
        text_units: Rc<Cell<usize>>,
    }

    impl Fields {
        /// The options object `value`, with no keys but `known`; `None` when it is absent.
        pub(super) fn root(value: &JsValue, known: &[&str]) -> Result<Option<Fields>, JsError> {
            Fields::of(value, "withConfig", known, Rc::default())
        }

        /// `value` as an object with no keys but `known`; `None` when it is absent.
        pub(super) fn of(
            value: &JsValue,
            path: &str,
            known: &[&str],
            text_units: Rc<Cell<usize>>,
        ) -> Result<Option<Fields>, JsError> {
            if value.is_undefined() || value.is_null() {
                return Ok(None);
            }
            let array = is_array(value).map_err(|err| threw(path, &err))?;
            if !value.is_object() || array {
                return Err(JsError::new(&text!(
                    path,
                    " must be an object with any of: ",
                    listed(known),
                    "; got ",
                    type_of(value)
                )));
            }
            let keys = object_keys(value).map_err(|err| threw(path, &err))?;
            for key in keys.iter() {
                let name = key.as_string().unwrap_or_default();
                if !known.contains(&name.as_str()) {
                    return Err(JsError::new(&text!(
                        "unknown option \"",
                        name,
                        "\" in ",
                        path,
                        "; use any of: ",
                        listed(known)
                    )));
                }
            }
            Ok(Some(Fields {
                object: value.clone().unchecked_into(),
                path: path.to_owned(),
                text_units,
            }))
        }

        /// The value of `key`; a getter or Proxy that throws is an error naming the option.
        pub(super) fn get(&self, key: &str) -> Result<JsValue, JsError> {
            Reflect::get(&self.object, &JsValue::from_str(key))
                .map_err(|err| threw(&self.name(key), &err))
        }

        /// The name of `key` in messages, as the core names it: bare for the options and the
        /// scenario's lists (`budget`, `facts`), with the item's path below them (`script[3].kind`).
        pub(super) fn name(&self, key: &str) -> String {
            match self.path.as_str() {
                "withConfig" | "scenario" => key.to_owned(),
                path => text!(path, ".", key),
            }
        }

        /// An optional number.
        pub(super) fn number(&self, key: &str) -> Result<Option<f64>, JsError> {
            let value = self.get(key)?;
            if value.is_undefined() || value.is_null() {
                return Ok(None);
            }
            let name = self.name(key);
            value.as_f64().map(Some).ok_or_else(|| {
                JsError::new(&text!(name, " must be a number, got ", type_of(&value)))
            })
        }

        /// An optional string. Its JS length is checked before it is copied into wasm memory: a
        /// string of more than twice [`MAX_PAGE_TEXT_CHARS`] UTF-16 units has more than that many
        /// characters; the core checks the exact count.
        pub(super) fn text(&self, key: &str) -> Result<Option<String>, JsError> {
            let value = self.get(key)?;
            if value.is_undefined() || value.is_null() {
                return Ok(None);
            }
            let name = self.name(key);
            let Some(string) = value.dyn_ref::<JsString>() else {
                return Err(JsError::new(&text!(
                    name,
                    " must be a string, got ",
                    type_of(&value)
                )));
            };
            let units = string.length() as usize;
            if units > 2 * MAX_PAGE_TEXT_CHARS {
                return Err(JsError::new(&text!(
                    name,
                    ": must have at most ",
                    MAX_PAGE_TEXT_CHARS,
                    " characters, got ",
                    units
                )));
            }
            // The larger of a script's and a scenario's limits on all texts together: the
            // core checks each exactly.
            let total = self.text_units.get() + units;
            if total > 2 * MAX_SCRIPT_TEXT_CHARS {
                return Err(JsError::new(&text!(
                    name,
                    ": all texts together must have at most ",
                    MAX_SCRIPT_TEXT_CHARS,
                    " characters"
                )));
            }
            self.text_units.set(total);
            Ok(string.as_string())
        }
    }

    // Lists and nested objects: a custom script or scenario.
    #[cfg(any(
        feature = "element-compaction",
        feature = "element-forgetting",
        feature = "element-playground"
    ))]
    impl Fields {
        /// An object inside this one, at `path`.
        pub(super) fn child(
            &self,
            value: &JsValue,
            path: &str,
            known: &[&str],
        ) -> Result<Option<Fields>, JsError> {
            Fields::of(value, path, known, Rc::clone(&self.text_units))
        }

        /// The length of the array at `key`, at most `max`, checked before anything is reserved for
        /// it; `None` when absent.
        pub(super) fn array(
            &self,
            key: &str,
            max: usize,
            what: &str,
        ) -> Result<Option<(Object, usize)>, JsError> {
            let value = self.get(key)?;
            if value.is_undefined() || value.is_null() {
                return Ok(None);
            }
            let name = self.name(key);
            if !is_array(&value).map_err(|err| threw(&name, &err))? {
                return Err(JsError::new(&text!(
                    name,
                    " must be ",
                    what,
                    ", got ",
                    type_of(&value)
                )));
            }
            let object: Object = value.unchecked_into();
            let length = Reflect::get(&object, &JsValue::from_str("length"))
                .map_err(|err| threw(&name, &err))?
                .as_f64()
                .unwrap_or(0.0);
            // An array's length is a whole number below 2^32, so this cast is exact.
            let length = length as usize;
            let limit = match key {
                "script" => "MAX_TURNS",
                "reads" => "MAX_READS",
                "events" => "MAX_EVENTS",
                "consolidation" => "MAX_RULES",
                // A scenario's facts, and a rule's sources, which name facts.
                _ => "MAX_FACTS",
            };
            check_len(&name, length, max, limit).map_err(js_error)?;
            Ok(Some((object, length)))
        }

        /// Item `i` of an array from [`Fields::array`].
        pub(super) fn item(
            &self,
            array: &Object,
            name: &str,
            i: usize,
        ) -> Result<JsValue, JsError> {
            Reflect::get_u32(array, i as u32).map_err(|err| threw(&text!(name, "[", i, "]"), &err))
        }

        /// An optional array of at most `max` objects with keys among `known`, each read by `item`.
        pub(super) fn list<T>(
            &self,
            key: &str,
            max: usize,
            item: impl Fn(&Fields) -> Result<T, JsError>,
            known: &[&str],
        ) -> Result<Option<Vec<T>>, JsError> {
            let Some((array, length)) = self.array(key, max, "an array")? else {
                return Ok(None);
            };
            let name = self.name(key);
            let mut list = Vec::with_capacity(length);
            for i in 0..length {
                list.push(item(&self.object_item(&array, &name, i, known)?)?);
            }
            Ok(Some(list))
        }

        /// Item `i` of array `name`, an object with keys among `known`. Not generic, unlike
        /// [`Fields::list`], so that each kind of list adds only its loop to the wasm.
        fn object_item(
            &self,
            array: &Object,
            name: &str,
            i: usize,
            known: &[&str],
        ) -> Result<Fields, JsError> {
            let value = self.item(array, name, i)?;
            let path = text!(name, "[", i, "]");
            self.child(&value, &path, known)?.ok_or_else(|| {
                JsError::new(&text!(path, " must be an object, got ", type_of(&value)))
            })
        }

        /// An optional array of numbers; absent is empty.
        #[cfg(feature = "element-forgetting")]
        pub(super) fn numbers(&self, key: &str) -> Result<Vec<f64>, JsError> {
            let max = MAX_FACTS + MAX_EVENTS + MAX_RULES;
            let Some((array, length)) = self.array(key, max, "an array of ids")? else {
                return Ok(Vec::new());
            };
            let name = self.name(key);
            let mut numbers = Vec::with_capacity(length);
            for i in 0..length {
                let item = self.item(&array, &name, i)?;
                let Some(number) = item.as_f64() else {
                    return Err(JsError::new(&text!(
                        name,
                        "[",
                        i,
                        "] must be a number, got ",
                        type_of(&item)
                    )));
                };
                numbers.push(number);
            }
            Ok(numbers)
        }
    }

    /// `names` as a message lists them, `a, b, c` (a loop: `[&str]::join` is 1 KB of wasm).
    fn listed(names: &[&str]) -> String {
        let mut list = String::new();
        for name in names {
            if !list.is_empty() {
                list.push_str(", ");
            }
            list.push_str(name);
        }
        list
    }
}

/// The error for an exception the caller's object threw while `name` was read.
#[cfg(feature = "with-config")]
fn threw(name: &str, exception: &JsValue) -> JsError {
    let message = Reflect::get(exception, &JsValue::from_str("message"))
        .ok()
        .and_then(|message| message.as_string())
        .or_else(|| exception.as_string())
        .unwrap_or_else(|| "a value that is not an Error".into());
    JsError::new(&text!(name, " could not be read: it threw ", message))
}

/// A JS value's type in words, for error messages: `undefined`, `null`, `an array`, `a number`.
#[cfg(feature = "with-config")]
fn type_of(value: &JsValue) -> String {
    if value.is_undefined() {
        return "undefined".into();
    }
    if value.is_null() {
        return "null".into();
    }
    if is_array(value).unwrap_or(false) {
        return "an array".into();
    }
    let name = value.js_typeof().as_string().unwrap_or_default();
    let article = if name.starts_with('o') { "an" } else { "a" };
    text!(article, " ", name)
}

/// A snapshot as a plain JS value (see [`snapshot`]).
fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    snapshot::to_value(value).map_err(|err| JsError::new(err.message()))
}

/// A turn count from JS: a whole number from 0.
#[cfg(any(feature = "element-compaction", feature = "element-playground"))]
fn turn_count(turn: f64) -> Result<u32, JsError> {
    whole_number("turn", turn, 0, u32::MAX).map_err(js_error)
}

/// A write event's index from JS: a whole number from 0.
#[cfg(feature = "element-forgetting")]
fn event_index(index: f64) -> Result<EventIndex, JsError> {
    whole_number("index", index, 0, u32::MAX)
        .map(EventIndex)
        .map_err(js_error)
}

/// The core's error as a JS `Error`, its option named as JS names it (`hotN`, not `hot_n`).
fn js_error(err: Error) -> JsError {
    JsError::new(&err.js_message())
}
