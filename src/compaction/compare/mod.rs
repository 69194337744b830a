//! The framework comparison: one conversation replayed under seven compaction policies, ours
//! and six frameworks', side by side.
//!
//! - `frameworks.rs`: the six framework policies, each rule quoted from its source.
//! - `settings.rs`: their real triggers, cited, on a window of the reader's size.
//! - `playground.rs`: the seven policies stepped together, of
//!   - `policies.rs`: the policy table, each policy's name, rule and source;
//!   - `facts.rs`: the fact finder, the facts looked for and what a window still names;
//!   - `losses.rs`: the loss tracker, what each compaction took from the window.
//!
//! The session engine they all run on is the parent module, `src/compaction/`.

mod facts;
mod frameworks;
mod losses;
mod playground;
mod policies;
mod settings;

pub use facts::{
    FactsFrom, Named, FACTS_RULE, KEY_FACTS, KEY_TERMS_RULE, MAX_FACT_TERMS, TOOL_FACTS_RULE,
};
pub use frameworks::{
    HandoffCheckpoint, Interval, ObservationMasking, SlidingWindow, SummaryBuffer, Truncate,
    INTERVAL, OVERLAP,
};
pub use losses::StepLoss;
pub use playground::{window_text, Playground, PlaygroundState, PolicyRow};
pub use policies::{policy, PolicyInfo, POLICIES};
pub use settings::{
    framework_triggers, FrameworkSetting, Trigger, TriggerAt, FRAMEWORK_SETTINGS, MAX_WINDOW,
    MIN_WINDOW, REFERENCE_MAX_OUTPUT, REFERENCE_WINDOW,
};
