//! The framework comparison: one conversation replayed under seven compaction policies, ours
//! and six frameworks', side by side.
//!
//! - `frameworks.rs`: the six framework policies, each rule quoted from its source.
//! - `settings.rs`: their real triggers, cited, on a window of the reader's size.
//! - `playground.rs`: the seven policies stepped together, with what each compaction lost.
//!
//! The session engine they all run on is the parent module, `src/compaction/`.

mod frameworks;
mod playground;
mod settings;

pub use frameworks::{
    HandoffCheckpoint, Interval, ObservationMasking, SlidingWindow, SummaryBuffer, Truncate,
    INTERVAL, OVERLAP,
};
pub use playground::{
    policy, window_text, FactsFrom, Named, Playground, PlaygroundState, PolicyId, PolicyInfo,
    PolicyRow, StepLoss, FACTS_RULE, KEY_FACTS, KEY_TERMS_RULE, MAX_FACT_TERMS, POLICIES,
    TOOL_FACTS_RULE,
};
pub use settings::{
    framework_triggers, FrameworkSetting, Trigger, TriggerAt, FRAMEWORK_SETTINGS, MAX_WINDOW,
    MIN_WINDOW, REFERENCE_MAX_OUTPUT, REFERENCE_WINDOW,
};
