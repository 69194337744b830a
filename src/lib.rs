//! How an LLM agent manages memory, as two small, deterministic policies.
//!
//! - **Compaction** ([`Session`]) keeps the live context window under a token budget as a
//!   support session grows: the last turns stay HOT and verbatim, older decisions fold into
//!   WARM summary lines, chatter is dropped, and the oldest WARM lines are pushed into a
//!   one-line COLD gist.
//! - **Forgetting** ([`FactStore`], [`LiveStore`]) keeps a long-term fact store sharp: facts are
//!   ranked by `importance × recency × access`, fade with a half-life, are retired when a newer
//!   fact supersedes them, and the weakest is evicted when the store is over capacity.
//!
//! Both tell the same story, a refund desk: user Dana, order ORD-3300, a $200.00 order returned
//! after the 30-day window, a 10% restocking fee, a $180.00 refund, then a question about the
//! Globex earbuds warranty. There is no LLM, no clock and no randomness anywhere: the same
//! inputs give the same state, bit for bit, natively and in WebAssembly.
//!
//! # Compaction
//!
//! A live conversation, one message at a time, under a budget of 40 tokens. When turns leave the
//! verbatim window, the session asks its [`Summarizer`] (here [`Extractive`]: a turn's first
//! sentence) for their one-line summaries, once per compaction and for those turns alone; a
//! summary then stands for its turn (chatter is dropped):
//!
//! ```
//! use agent_memory_widgets::{HotWarmCold, Kind, Session, SessionConfig, Tokens, Turn};
//!
//! # fn main() -> Result<(), agent_memory_widgets::Error> {
//! let config = SessionConfig::new(Tokens(40), 2)?; // budget, HOT turns
//! let mut session = Session::live(config, Box::new(HotWarmCold::default()));
//! let messages = [
//!     ("Dana", Kind::Chatter, "Hi there, hope you're having a good day!"),
//!     ("Dana", Kind::Question, "I returned order ORD-3300. Can I get my $200.00 back?"),
//!     ("tool", Kind::Tool, "lookup ORD-3300: $200.00, returned on day 41, outside the 30-day window."),
//!     ("agent", Kind::Decision, "Late returns carry a 10% restocking fee, so your refund is $180.00."),
//! ];
//! for (speaker, kind, text) in messages {
//!     let step = session.push(Turn::new(speaker, kind, text)?)?;
//!     assert!(step.tokens_after <= config.budget());
//! }
//! let state = session.state();
//! assert_eq!(state.crossings, [4]); // the fourth message took the window over budget
//! assert_eq!(state.warm[0].text(), "I returned order ORD-3300.");
//! # Ok(())
//! # }
//! ```
//!
//! An LLM call fits the same place: a closure (or an `Arc` of a summarizer, to share one) with
//! [`Summarizer::summarize_batch`] to write a compaction's summaries in one call. A failed call
//! fails the push and leaves the session as it was; so does a [`CompactionPolicy`] whose
//! `compact` returns an error. A session is `Clone`, and saves as a [`SavedSession`] that
//! [`Session::load`] makes a session of again, with its policy and summarizer, without
//! summarising anything twice:
//!
//! ```
//! use agent_memory_widgets::{Error, ErrorKind, HotWarmCold, Kind, Session, SessionConfig, Tokens, Turn};
//!
//! # fn main() -> Result<(), Error> {
//! let llm = |turn: &Turn| -> Result<String, Error> {
//!     match turn.text().contains("ORD-3300") {
//!         true => Ok("Dana asks about ORD-3300.".to_owned()),
//!         false => Err(Error::new(ErrorKind::Other, "the model timed out")),
//!     }
//! };
//! let config = SessionConfig::new(Tokens(11), 1)?;
//! let mut session = Session::live(config, Box::new(HotWarmCold::default())).with_summarizer(Box::new(llm));
//! session.push(Turn::new("Dana", Kind::Question, "Where is the refund for ORD-3300?")?)?;
//! session.push(Turn::new("Dana", Kind::Question, "It has been a week already.")?)?; // turn 1 folds
//! assert_eq!(session.state().warm[0].text(), "Dana asks about ORD-3300.");
//! let before = session.state();
//! let err = session.push(Turn::new("agent", Kind::Decision, "Let me look that up for you now.")?).unwrap_err();
//! assert_eq!(err.message(), "the model timed out"); // turn 2 had to fold, and the model failed
//! assert_eq!(session.state(), before);
//! let saved = session.save(); // or serde_json::to_string(&session)
//! let loaded = Session::load(saved, Box::new(HotWarmCold::default()), Box::new(llm))?;
//! assert_eq!(loaded.state(), before);
//! # Ok(())
//! # }
//! ```
//!
//! The widget replays the refund-desk script with [`Session::add_turn`] instead:
//!
//! ```
//! use agent_memory_widgets::Session;
//!
//! let mut session = Session::default(); // the refund desk, budget 40, 2 HOT turns
//! session.go_to(4); // turn 4 takes the window over budget
//! let state = session.state();
//! assert_eq!(state.crossings, [4]);
//! assert!(state.tokens.0 <= 40);
//! assert_eq!(state.hot.iter().map(|t| t.turn).collect::<Vec<_>>(), [3, 4]);
//! ```
//!
//! Custom scripts and settings are checked, and bad input is an [`Error`] that says what to fix
//! and has an [`ErrorKind`] to match:
//!
//! ```
//! use agent_memory_widgets::{ErrorKind, Session, SessionOptions};
//!
//! let options = SessionOptions { budget: Some(0.0), ..SessionOptions::default() };
//! match Session::from_options(options) {
//!     Err(err) => {
//!         assert_eq!(err.to_string(), "budget must be a whole number of at least 1, got 0");
//!         assert!(matches!(err.kind(), ErrorKind::InvalidOption { field } if field == "budget"));
//!     }
//!     Ok(_) => unreachable!("a budget of 0 is refused"),
//! }
//! ```
//!
//! # Forgetting
//!
//! ```
//! use agent_memory_widgets::{EventIndex, FactStore, Status};
//!
//! # fn main() -> Result<(), agent_memory_widgets::Error> {
//! let mut store = FactStore::default();
//! assert!(store.state().facts.iter().all(|fact| fact.recency == 1.0)); // t = 0: all fresh
//! store.fire(EventIndex(1))?; // at t = 0 the Globex question evicts the least important fact
//! let state = store.state();
//! let evicted: Vec<&str> = state
//!     .facts
//!     .iter()
//!     .filter(|fact| fact.status == Status::Evicted)
//!     .map(|fact| fact.text.as_str())
//!     .collect();
//! assert_eq!(evicted, ["the user is Dana"]);
//! # Ok(())
//! # }
//! ```
//!
//! # The fine print
//!
//! - Tokens are words, split on Unicode whitespace ([`Tokens::of`]), unless a session is given
//!   another [`TokenCounter`]: [`Estimate`] (about 4 characters a token, one a CJK character),
//!   your tokenizer, or each turn's own count ([`Turn::with_tokens`]).
//! - Scores use this crate's own `exp2` and `log2`, built from exactly rounded arithmetic, so
//!   they are bit-identical on every target.
//! - The crate has no wasm-bindgen in its policies. The WebAssembly boundary is one module,
//!   compiled only for `wasm32`; see `ARCHITECTURE.md`.

#![warn(missing_docs)]
// The project's own wasm builds (feature `wasm-runtime`) are `no_std` with `alloc`: std's panic
// handler formats its message, which would keep all of `core::fmt` in every core. Ours traps,
// and `text!` stands in for `format!` (src/text.rs).
#![cfg_attr(all(target_arch = "wasm32", feature = "wasm-runtime"), no_std)]

extern crate alloc;

/// A panic in the project's wasm builds traps, as `panic = "abort"` does under std, without
/// formatting a message that nobody reads. The core returns errors for bad input and does not
/// panic on it (ARCHITECTURE.md); a trap would be a bug.
#[cfg(all(target_arch = "wasm32", feature = "wasm-runtime"))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    core::arch::wasm32::unreachable()
}

mod case;
mod compaction;
mod error;
mod float;
mod forgetting;
mod json;
pub mod limits;
mod math;
mod names;
mod prelude;
mod queue;
mod sort;
mod text;
mod time;
mod units;

/// The WebAssembly boundary: `Session`, `FactStore` and `Playground` as JS classes. Only built
/// for `wasm32`.
#[cfg(target_arch = "wasm32")]
pub mod wasm;

// Natively only its unit tests (and Miri, `make test-miri`) use it.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
mod allocator;

/// A few hundred bytes of size classes in place of dlmalloc's (see `src/allocator.rs`), in the
/// project's own wasm builds only.
#[cfg(all(target_arch = "wasm32", feature = "wasm-runtime"))]
#[global_allocator]
static ALLOCATOR: allocator::SizeClasses = allocator::SizeClasses::new();

pub use compaction::{
    framework_triggers, import_conversation, import_lines, import_messages, infer_kind, policy,
    window_text, BrokenLine, ChatMessage, ClonePolicy, Compaction, CompactionPolicy, Content,
    DroppedTurn, Estimate, Extractive, FactsFrom, Format, FrameworkSetting, HandoffCheckpoint,
    HotTurn, HotWarmCold, Imported, Interval, Kind, Line, LogCompaction, Lost, Message, Named,
    ObservationMasking, PendingPush, Place, Playground, PlaygroundState, PolicyId, PolicyInfo,
    PolicyMemory, PolicyRow, Role, SavedLine, SavedSession, SavedTurn, SavedVerbatim, SavedWindow,
    Script, Scripted, SentTokens, Session, SessionConfig, SessionConfigBuilder, SessionOptions,
    SessionState, SlidingWindow, Step, StepLoss, Summarizer, SummaryBuffer, TokenCounter,
    TranscriptTurn, Trigger, TriggerAt, Truncate, Turn, TurnSpec, Usage, Window, Words, BUDGET,
    ESTIMATE_RULE, EXTRACT_WORDS, FACTS_RULE, FRAMEWORK_SETTINGS, GIST_TERMS, HOT_N, INTERVAL,
    KEY_FACTS, KEY_TERMS_RULE, KIND_RULE, MAX_FACT_TERMS, MAX_NAMED_BROKEN, MAX_WINDOW, MIN_WINDOW,
    OVERLAP, POLICIES, REFERENCE_MAX_OUTPUT, REFERENCE_WINDOW, TOOL_FACTS_RULE, WARM_SHARE,
};
pub use error::{Error, ErrorKind};
pub use forgetting::{
    Action, Change, ChartLine, Comparison, ConsolidationRule, Distilled, Distiller, EventInfo,
    EventSpec, Fact, FactKind, FactLabel, FactStore, FactStoreState, FactView, FiredEvent,
    Forecast, ForgettingPlayground, ForgettingPlaygroundState, ForgettingPolicyId,
    ForgettingPolicyInfo, HitPoint, LiveStore, PolicyNow, PolicyRun, ReadInfo, ReadSpec, Replayed,
    RuleSpec, SavedStore, Scenario, ScenarioSpec, ScheduledRead, SeedFact, SeedFactSpec, Status,
    StoreConfig, StoreConfigBuilder, StoreOptions, Stream, StreamEvent, StreamId, StreamOp,
    Timeline, WriteEvent, WriteOutcome, ACCESS_BOOST, CAPACITY, FORGETTING_POLICIES, HALF_LIFE,
    LASTING_HALF_LIFE_FACTORS, MAX_ACCESS_BOOST,
};
pub use time::Time;
pub use units::{EventIndex, FactId, Tokens, TurnNumber};

/// The README's examples, run as doctests: with the default features, which the README shows.
#[doc = include_str!("../README.md")]
#[cfg(all(doctest, feature = "deserialize"))]
pub struct ReadmeDoctests;
