//! The policy table: the seven policies the playground compares, each with its name, its rule
//! in one line and its source.

use crate::prelude::*;
use serde::Serialize;

use crate::compaction::compare::frameworks::{
    HandoffCheckpoint, Interval, ObservationMasking, SlidingWindow, SummaryBuffer, Truncate,
};
use crate::compaction::PolicyId;
use crate::compaction::{CompactionPolicy, HotWarmCold};

/// A policy the playground compares: an id for code, a name for people, its rule in one line
/// and where it comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct PolicyInfo {
    /// Which policy, with a stable name such as `sliding-window`.
    pub id: PolicyId,
    /// The name shown on the page.
    pub name: &'static str,
    /// Whose rule it is: `this project`, or the framework or library.
    pub origin: &'static str,
    /// What it is: `seed design`, `agent framework`, `memory class`, `plain truncation` or
    /// `research baseline`.
    pub kind: &'static str,
    /// The rule in one line: when it runs, what stays verbatim, what is summarised.
    pub rule: &'static str,
    /// Where the rule comes from: repository or package, commit or version, path.
    pub source: &'static str,
    /// A link to that source; empty for this project's own policy.
    pub url: &'static str,
    /// Its own trigger, in percent of the budget, which the playground's `compact_at` replaces;
    /// `None` for a policy that compacts whatever the tokens (ADK, observation masking).
    pub trigger: Option<u32>,
}

/// The seven policies, ours first. Each framework's type documents its source and the rule in the
/// source's own words.
pub const POLICIES: [PolicyInfo; 7] = [
    PolicyInfo {
        id: PolicyId::HotWarmCold,
        name: "HOT / WARM / COLD",
        origin: "this project",
        kind: "seed design",
        rule: "When a turn takes the window over the budget: the last HOT turns (2 in the \
               seed) stay verbatim, older turns become one-line summaries (chatter is dropped), \
               and the oldest summaries are squeezed into one line of key terms until it fits.",
        source: "this project: the seed design",
        url: "",
        trigger: Some(100),
    },
    PolicyInfo {
        id: PolicyId::SlidingWindow,
        name: "Sliding window + recursive summary",
        origin: "Letta",
        kind: "agent framework",
        rule: "When the window passes 90% of the budget: the oldest 40%, 50%, … of the messages \
               are evicted, cutting just before an agent or tool turn, until the turns kept are \
               under 70%; the evicted turns and the old summary become one new summary, which \
               that check does not count. If the turns kept still reach the trigger, it \
               summarises those alone, and the summary of the evicted turns is lost (compact.py).",
        source: "letta-ai/letta@56ba9c2, letta/services/summarizer/: \
                 summarizer_sliding_window.py, compact.py",
        url: "https://github.com/letta-ai/letta/blob/56ba9c2/letta/services/summarizer/summarizer_sliding_window.py",
        trigger: Some(90),
    },
    PolicyInfo {
        id: PolicyId::SummaryBuffer,
        name: "Summary buffer",
        origin: "LangChain",
        kind: "memory class",
        rule: "When the verbatim turns pass the budget (max_token_limit): the oldest are popped \
               into a moving summary until they fit; the summary itself is not counted.",
        source: "langchain 0.3.30, langchain/memory/summary_buffer.py, ConversationSummaryBufferMemory",
        url: "https://pypi.org/project/langchain/0.3.30/",
        trigger: Some(100),
    },
    PolicyInfo {
        id: PolicyId::Handoff,
        name: "Handoff checkpoint",
        origin: "OpenAI Codex",
        kind: "agent framework",
        rule: "When the window reaches 90% of the budget: everything becomes one handoff \
               summary, and only the newest user messages stay verbatim, up to 20,000 tokens of \
               GPT-5-Codex's 272,000-token window (here the budget stands for that window: 7.35% \
               of it), the last one cut to fit, plus one … word where it was cut.",
        source: "openai/codex@e06dd0e, core/src/compact.rs, protocol/src/openai_models.rs (the trigger)",
        url: "https://github.com/openai/codex/blob/e06dd0e/codex-rs/core/src/compact.rs",
        trigger: Some(90),
    },
    PolicyInfo {
        id: PolicyId::Interval,
        name: "Interval compaction",
        origin: "Google ADK",
        kind: "agent framework",
        rule: "After every 3 new invocations (a user message and the replies to it), whatever \
               the budget: those invocations and 1 before them become one more summary; nothing \
               in that range stays verbatim, and every summary stays.",
        source: "google-adk 1.21.0, google/adk/apps/compaction.py, compaction_interval 3, overlap_size 1",
        url: "https://pypi.org/project/google-adk/1.21.0/",
        trigger: None,
    },
    PolicyInfo {
        id: PolicyId::Truncate,
        name: "Truncate",
        origin: "LangChain",
        kind: "plain truncation",
        rule: "When the window passes the budget: the oldest turns are dropped, with no \
               summary, until it fits (ours keeps the newest even when it alone is over).",
        source: "langchain 0.3.30 with langchain-core 0.3.85, langchain_core/messages/utils.py, \
                 trim_messages, strategy \"last\"",
        url: "https://pypi.org/project/langchain-core/0.3.85/",
        trigger: Some(100),
    },
    PolicyInfo {
        id: PolicyId::ObservationMasking,
        name: "Observation masking",
        origin: "JetBrains Research",
        kind: "research baseline",
        rule: "After every turn, whatever the budget: every tool output but the newest is \
               replaced by a placeholder; every other turn stays verbatim, and nothing is \
               summarised or dropped.",
        source: "Lindenbauer et al. 2025, arXiv 2508.21433; SWE-agent@3ea751c, \
                 sweagent/agent/history_processors.py, LastNObservations",
        url: "https://github.com/SWE-agent/SWE-agent/blob/3ea751c087f32b16e039a2233dd6eefecef325d5/sweagent/agent/history_processors.py",
        trigger: None,
    },
];

impl PolicyId {
    /// The policy's entry in [`POLICIES`].
    pub fn info(self) -> &'static PolicyInfo {
        // Invariant: POLICIES has one entry per PolicyId, in the enum's order (a test checks),
        // so the index is in bounds and the check compiles away.
        #[allow(clippy::indexing_slicing)]
        &POLICIES[self as usize]
    }
}

/// A fresh policy of kind `id`.
pub fn policy(id: PolicyId) -> Box<dyn CompactionPolicy> {
    match id {
        PolicyId::HotWarmCold => Box::new(HotWarmCold::default()),
        PolicyId::SlidingWindow => Box::new(SlidingWindow),
        PolicyId::SummaryBuffer => Box::new(SummaryBuffer),
        PolicyId::Handoff => Box::new(HandoffCheckpoint),
        PolicyId::Interval => Box::new(Interval::default()),
        PolicyId::Truncate => Box::new(Truncate),
        PolicyId::ObservationMasking => Box::new(ObservationMasking::default()),
    }
}
