//! The TypeScript types of the classes' options and snapshots, written into the package's
//! `.d.ts` by wasm-bindgen.

use wasm_bindgen::prelude::*;

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
  /** Whether the window after the step is over the budget; `room`, the budget less it (0 when
   * at or over: neither over nor with room, it is exactly full); `noSmaller`, it compacted and
   * the window is no smaller than its peak. */
  overBudget: boolean; room: number; noSmaller: boolean;
}
export interface HotTurn { turn: number; speaker: string; kind: TurnKind; text: string; tokens: number; }
/** A WARM line or the COLD gist, with the turns it came from. */
export interface Line { turns: number[]; text: string; tokens: number; }
/** One message of the window, ready for a chat API; `toolCallId` on a tool call and its result. */
export interface Message { role: TurnRole; content: string; toolCallId?: string; }
export interface SessionState {
  turn: number; totalTurns: number; budget: number; hotN: number; tokens: number;
  overBudget: boolean;
  /** The budget less the window (0 when at or over it: neither over nor with room, it is
   * exactly full). */
  room: number;
  overBudgetReason: string | null; done: boolean; crossings: number[];
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
  /** `overTurns` up to the playground's turn; the compactions so far that left the window no
   * smaller than its peak, by turn. */
  overSoFar: number[]; noSmaller: number[];
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
  /** Rows, as indices into `policies`: over the budget now; within it; naming every fact said
   * so far with its meaning; both within and naming every fact. */
  over: number[]; within: number[]; whole: number[]; both: number[];
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
