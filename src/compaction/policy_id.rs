//! [`PolicyId`]: which of the crate's seven compaction policies, by the name a saved session
//! and the page know it by. The engine's [`HotWarmCold`](crate::HotWarmCold) names itself by it,
//! and so does each framework's policy; the comparison's table of them is
//! [`POLICIES`](crate::POLICIES).

use crate::names::named;

/// The policies of [`POLICIES`](crate::POLICIES), each with a stable name for code and JSON.
///
/// ```
/// use agent_memory_widgets::{policy, PolicyId, Session, SessionConfig};
///
/// # fn main() -> Result<(), agent_memory_widgets::Error> {
/// let id: PolicyId = "sliding-window".parse()?;
/// assert_eq!(id, PolicyId::SlidingWindow);
/// assert_eq!(id.info().origin, "Letta");
/// let session = Session::live(SessionConfig::default(), policy(id));
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PolicyId {
    /// [`HotWarmCold`](crate::HotWarmCold), the seed design's.
    HotWarmCold,
    /// [`SlidingWindow`](crate::SlidingWindow), Letta's.
    SlidingWindow,
    /// [`SummaryBuffer`](crate::SummaryBuffer), LangChain's.
    SummaryBuffer,
    /// [`HandoffCheckpoint`](crate::HandoffCheckpoint), OpenAI Codex's.
    Handoff,
    /// [`Interval`](crate::Interval), Google ADK's.
    Interval,
    /// [`Truncate`](crate::Truncate), LangChain's `trim_messages`.
    Truncate,
    /// [`ObservationMasking`](crate::ObservationMasking), the baseline of Lindenbauer et al. 2025
    /// (SWE-agent's).
    ObservationMasking,
}

named!(PolicyId, "policy", {
    HotWarmCold => "hot-warm-cold",
    SlidingWindow => "sliding-window",
    SummaryBuffer => "summary-buffer",
    Handoff => "handoff",
    Interval => "interval",
    Truncate => "truncate",
    ObservationMasking => "observation-masking",
});
