//! The same session replayed under six compaction policies, side by side.

use serde::Serialize;

use crate::compaction::frameworks::{
    HandoffCheckpoint, Interval, SlidingWindow, SummaryBuffer, Truncate,
};
use crate::compaction::{
    CompactionPolicy, HotWarmCold, Script, Session, SessionConfig, SessionOptions, SessionState,
};
use crate::error::Error;
use crate::units::Tokens;

/// A policy the playground compares: an id for code, a name for people, and where it comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PolicyInfo {
    /// A stable id, such as `sliding-window`.
    pub id: &'static str,
    /// The name shown on the page.
    pub name: &'static str,
    /// The framework and setting it follows.
    pub source: &'static str,
}

/// The six policies, ours first.
pub const POLICIES: [PolicyInfo; 6] = [
    PolicyInfo {
        id: "hot-warm-cold",
        name: "HOT / WARM / COLD",
        source: "this project: the seed design",
    },
    PolicyInfo {
        id: "sliding-window",
        name: "Sliding window + recursive summary",
        source: "Letta: evict to 70% of the window when it passes 100%",
    },
    PolicyInfo {
        id: "summary-buffer",
        name: "Summary buffer",
        source: "LangChain ConversationSummaryBufferMemory, max_token_limit",
    },
    PolicyInfo {
        id: "handoff",
        name: "Handoff checkpoint",
        source: "OpenAI Codex auto-compaction at 90%",
    },
    PolicyInfo {
        id: "interval",
        name: "Interval compaction",
        source: "Google ADK compaction_interval 3, overlap_size 1",
    },
    PolicyInfo {
        id: "truncate",
        name: "Truncate",
        source: "LangChain trim_messages, keeping the last turns",
    },
];

/// A fresh policy by its id in [`POLICIES`].
pub fn policy(id: &str) -> Option<Box<dyn CompactionPolicy>> {
    Some(match id {
        "hot-warm-cold" => Box::new(HotWarmCold::default()),
        "sliding-window" => Box::new(SlidingWindow),
        "summary-buffer" => Box::new(SummaryBuffer),
        "handoff" => Box::new(HandoffCheckpoint),
        "interval" => Box::new(Interval),
        "truncate" => Box::new(Truncate),
        _ => return None,
    })
}

/// The refund-desk facts the playground looks for in each final window: a label, and the text
/// whose presence shows the fact survived.
pub const KEY_FACTS: [(&str, &str); 7] = [
    ("Dana", "Dana"),
    ("ORD-3300", "ORD-3300"),
    ("$200.00", "$200.00"),
    ("30-day window", "30-day"),
    ("10% fee", "10%"),
    ("$180.00", "$180.00"),
    ("Globex", "Globex"),
];

/// One policy's row at the playground's turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PolicyRow {
    /// Which policy.
    pub info: PolicyInfo,
    /// The window's tokens after each turn of the whole script (for the sparkline).
    pub series: Vec<Tokens>,
    /// The window's tokens with each turn, before that turn's compaction.
    pub peaks: Vec<Tokens>,
    /// Compaction steps up to the playground's turn.
    pub compactions: u32,
    /// The window's tokens at the playground's turn.
    pub tokens: Tokens,
    /// For each of [`KEY_FACTS`], whether the window at the playground's turn still names it.
    pub kept: Vec<bool>,
    /// The whole session state at the playground's turn, for the tier view.
    pub window: SessionState,
}

/// A snapshot of the playground.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlaygroundState {
    /// Turns added, the same for every policy.
    pub turn: u32,
    /// Turns in the script.
    pub total_turns: u32,
    /// The token budget every policy is given.
    pub budget: Tokens,
    /// The labels of [`KEY_FACTS`], in the order of each row's `kept`.
    pub facts: Vec<&'static str>,
    /// One row per policy, in the order of [`POLICIES`].
    pub policies: Vec<PolicyRow>,
}

/// One script replayed under every policy of [`POLICIES`], stepped together.
///
/// # Example
///
/// ```
/// use agent_memory_widgets::Playground;
///
/// let mut playground = Playground::default(); // the refund desk, budget 40
/// playground.go_to(10);
/// let state = playground.state();
/// let ours = &state.policies[0];
/// let truncate = state.policies.iter().find(|row| row.info.id == "truncate").unwrap();
/// assert!(ours.kept.iter().all(|&kept| kept)); // every key fact survives compaction
/// assert!(!truncate.kept[1]); // plain truncation has forgotten the order number
/// ```
pub struct Playground {
    sessions: Vec<Session>,
    // Invariant: series[i] and peaks[i] hold session i's whole run; compacted[i] its compaction turns.
    series: Vec<Vec<Tokens>>,
    peaks: Vec<Vec<Tokens>>,
    compacted: Vec<Vec<u32>>,
}

impl Playground {
    /// Replays `script` under every policy once (for the sparklines), then stands at turn 0.
    pub fn new(config: SessionConfig, script: Script) -> Playground {
        let mut playground = Playground {
            sessions: Vec::new(),
            series: Vec::new(),
            peaks: Vec::new(),
            compacted: Vec::new(),
        };
        for info in POLICIES {
            let Some(policy) = policy(info.id) else {
                continue;
            };
            let mut session = Session::with_policy(config, script.clone(), policy);
            while session.add_turn().is_some() {}
            let log = session.log();
            playground
                .series
                .push(log.iter().map(|step| step.tokens_after).collect());
            playground
                .peaks
                .push(log.iter().map(|step| step.peak_tokens).collect());
            playground
                .compacted
                .push(log.iter().filter(|s| s.compacted).map(|s| s.turn).collect());
            session.reset();
            playground.sessions.push(session);
        }
        playground
    }

    /// A playground from options as JS or JSON gives them, every value checked.
    pub fn from_options(options: SessionOptions) -> Result<Playground, Error> {
        let session = Session::from_options(options)?;
        Ok(Playground::new(session.config(), session.script().clone()))
    }

    /// Moves every policy to `turn` (clamped to the script).
    pub fn go_to(&mut self, turn: u32) {
        for session in &mut self.sessions {
            session.go_to(turn);
        }
    }

    /// The turn every policy stands at.
    pub fn turn(&self) -> u32 {
        self.sessions.first().map_or(0, Session::turn)
    }

    /// A snapshot of every policy at the current turn.
    pub fn state(&self) -> PlaygroundState {
        let turn = self.turn();
        let first = self.sessions.first();
        let policies = POLICIES
            .iter()
            .zip(&self.sessions)
            .enumerate()
            .map(|(i, (info, session))| {
                let window = session.state();
                let text = window_text(&window);
                PolicyRow {
                    info: *info,
                    series: self.series[i].clone(),
                    peaks: self.peaks[i].clone(),
                    compactions: self.compacted[i].iter().filter(|&&t| t <= turn).count() as u32,
                    tokens: window.tokens,
                    kept: KEY_FACTS
                        .iter()
                        .map(|(_, needle)| text.contains(needle))
                        .collect(),
                    window,
                }
            })
            .collect();
        PlaygroundState {
            turn,
            total_turns: first.map_or(0, |s| s.script().len() as u32),
            budget: first.map_or(Tokens(0), |s| s.config().budget()),
            facts: KEY_FACTS.iter().map(|(label, _)| *label).collect(),
            policies,
        }
    }
}

impl Default for Playground {
    /// The refund-desk script with the seed's budget of 40 and 2 HOT turns.
    fn default() -> Playground {
        Playground::new(SessionConfig::default(), Script::refund_desk())
    }
}

/// Every text the model sees in `state`'s window.
pub fn window_text(state: &SessionState) -> String {
    let cold = state.cold.iter().map(|line| line.text.as_str());
    let warm = state.warm.iter().map(|line| line.text.as_str());
    let hot = state.hot.iter().map(|turn| turn.text.as_str());
    cold.chain(warm).chain(hot).collect::<Vec<_>>().join("\n")
}
