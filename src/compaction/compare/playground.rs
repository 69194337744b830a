//! The same session replayed under seven compaction policies, side by side: the policy table
//! (`policies.rs`), the fact finder (`facts.rs`) and the loss tracker (`losses.rs`) stepped
//! together.

use crate::prelude::*;
use serde::Serialize;

use crate::compaction::compare::facts::{
    facts_of, first_said, FactFinder, FactsFrom, Named, FACTS_RULE,
};
use crate::compaction::compare::losses::{replay, replay_large, StepLoss};
use crate::compaction::compare::policies::{policy, PolicyInfo, POLICIES};
use crate::compaction::tokens::Counter;
use crate::compaction::{
    Line, PolicyId, Script, Session, SessionConfig, SessionOptions, SessionState, LARGE_SESSIONS,
};
use crate::error::Error;
use crate::units::{Tokens, TurnNumber};

/// One policy's row at the playground's turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PolicyRow {
    /// Which policy.
    pub info: PolicyInfo,
    /// The window's tokens after each turn of the whole script (for the sparkline).
    pub series: Vec<Tokens>,
    /// The window's tokens with each turn, before that turn's compaction.
    pub peaks: Vec<Tokens>,
    /// The turns of the whole script after whose step the window is over the budget: the
    /// verdict for each point of `series`, so that a page draws it without comparing.
    pub over_turns: Vec<TurnNumber>,
    /// `over_turns` up to the playground's turn: the turns so far after whose step the window
    /// is over the budget.
    pub over_so_far: Vec<TurnNumber>,
    /// Compaction steps up to the playground's turn.
    pub compactions: u32,
    /// The compactions up to the playground's turn that left the window no smaller than its
    /// peak ([`Step::no_smaller`](crate::Step::no_smaller)), by turn.
    pub no_smaller: Vec<TurnNumber>,
    /// The window's tokens at the playground's turn.
    pub tokens: Tokens,
    /// For each of the state's `facts`, how the window at the playground's turn names it.
    pub kept: Vec<Named>,
    /// What each compaction up to the playground's turn took from the window, oldest first.
    pub losses: Vec<StepLoss>,
    /// The session state at the playground's turn, for the tier view, without its transcript:
    /// the playground never shows one, and seven copies of the script would make every state
    /// seven times its size ([`Session::state`](crate::Session::state) has it).
    pub window: SessionState,
}

/// A snapshot of the playground.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PlaygroundState {
    /// Turns added, the same for every policy.
    pub turn: u32,
    /// Turns in the script.
    pub total_turns: u32,
    /// The token budget every policy is given.
    pub budget: Tokens,
    /// The share of the budget, in percent, at which every policy with a token trigger compacts;
    /// `None` when each keeps its own ([`SessionConfig::with_compact_at`]).
    pub compact_at: Option<u32>,
    /// That share of the budget in tokens, rounded down ([`SessionConfig::threshold`]): the
    /// window a policy with a token trigger compacts past; `None` without `compact_at`.
    pub trigger: Option<Tokens>,
    /// What a [`HotWarmCold`](crate::HotWarmCold) compaction brings the window down to
    /// ([`SessionConfig::target`]): the whole budget unless `compact_to` is set.
    pub target: Tokens,
    /// The labels of the facts looked for, in the order of each row's `kept`:
    /// [`KEY_FACTS`](crate::KEY_FACTS)' for the refund desk, else as `facts_from` says.
    pub facts: Vec<String>,
    /// [`FACTS_RULE`], to state under the facts.
    pub facts_rule: &'static str,
    /// How `facts` were chosen.
    pub facts_from: FactsFrom,
    /// That rule in words ([`FactsFrom::rule`]), to state under the facts.
    pub facts_chosen: &'static str,
    /// One row per policy, in the order of [`POLICIES`].
    pub policies: Vec<PolicyRow>,
    /// The rows (indices into `policies`) whose window is over the budget at the playground's
    /// turn, ascending.
    pub over: Vec<u32>,
    /// The others: the rows whose window is within the budget.
    pub within: Vec<u32>,
    /// The rows whose window names every fact said so far with its meaning (no bare term,
    /// nothing gone).
    pub whole: Vec<u32>,
    /// The rows in both `within` and `whole`.
    pub both: Vec<u32>,
}

/// One script replayed under every policy of [`POLICIES`], stepped together.
///
/// # Example
///
/// ```
/// use agent_memory_widgets::{Named, Playground, PolicyId};
///
/// let mut playground = Playground::default(); // the refund desk, budget 40
/// playground.go_to(10);
/// let state = playground.state();
/// let ours = &state.policies[0];
/// let truncate = &state.policies[PolicyId::Truncate as usize];
/// assert!(!ours.kept.contains(&Named::Gone)); // every key fact survives compaction
/// assert_eq!(ours.kept[3], Named::BareTerm); // "30-day" survives, in the COLD gist alone
/// assert_eq!(truncate.kept[1], Named::Gone); // plain truncation has forgotten the order number
/// ```
pub struct Playground {
    sessions: Vec<Session>,
    // At real size, one more session of each policy, all at another turn (at first the script's
    // end): `go_to` moves whichever seven are fewer turns away.
    #[cfg(feature = "large-sessions")]
    spares: Vec<Session>,
    // Invariant: series[i] and peaks[i] hold session i's whole run; losses[i] its compactions.
    series: Vec<Vec<Tokens>>,
    peaks: Vec<Vec<Tokens>>,
    losses: Vec<Vec<StepLoss>>,
    // (label, term) of each fact looked for: see `facts_of`.
    facts: Vec<(String, String)>,
    // Invariant: first_said[i] is the number of the first turn that brings up facts[i] (in its
    // words, speaker or summary), or u32::MAX if none does.
    first_said: Vec<u32>,
    facts_from: FactsFrom,
}

impl Playground {
    /// Replays `script` under every policy once (for the sparklines), then stands at turn 0.
    pub fn new(config: SessionConfig, script: Script) -> Playground {
        Playground::counting(config, script, &Counter::default())
    }

    /// [`Playground::new`], every policy's session counting tokens with `counter`.
    fn counting(config: SessionConfig, script: Script, counter: &Counter) -> Playground {
        let refund_desk = script == Script::refund_desk();
        let (facts, facts_from) = facts_of(&script, refund_desk);
        let mut said = Vec::with_capacity(facts.len());
        for (_, term) in &facts {
            said.push(first_said(&script, term));
        }
        let mut playground = Playground {
            sessions: Vec::new(),
            #[cfg(feature = "large-sessions")]
            spares: Vec::new(),
            series: Vec::new(),
            peaks: Vec::new(),
            losses: Vec::new(),
            facts,
            first_said: said,
            facts_from,
        };
        let finder = FactFinder::new(&playground.facts);
        // What each turn names, by turn number (there is no turn 0): found once, for all seven
        // replays.
        let mut said = Vec::with_capacity(script.len() + 1);
        said.push((0, 0));
        for turn in script.turns() {
            said.push((
                finder.names(turn.text().as_bytes()),
                finder.names(turn.speaker().as_bytes()),
            ));
        }
        for info in POLICIES {
            let session = Session::with_policy(config, script.clone(), policy(info.id));
            // (This project's wasm builds keep no such record: see `Step::lost`.)
            #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
            let session = session.without_lost();
            let mut session = session;
            if !counter.is_words() {
                session = session.with_counter(counter.clone());
            }
            // Observation masking replaces a turn with a stub; Codex's handoff keeps a part.
            let masks = info.id == PolicyId::ObservationMasking;
            let losses = match LARGE_SESSIONS {
                true => replay_large(&mut session, &finder, &said, masks),
                false => replay(&mut session, &finder, &said, masks),
            };
            // One plain loop, not two collects: each is a `Vec::from_iter` in the wasm.
            let log = session.log();
            let mut series = Vec::with_capacity(log.len());
            let mut peaks = Vec::with_capacity(log.len());
            for step in log {
                series.push(step.tokens_after);
                peaks.push(step.peak_tokens);
            }
            playground.series.push(series);
            playground.peaks.push(peaks);
            playground.losses.push(losses);
            // At real size, the session played to its end stays as the spare, so that the first
            // move there (an imported log is shown at its end) plays nothing again; a new one,
            // of the same script (shared, not copied), stands at turn 0.
            #[cfg(feature = "large-sessions")]
            {
                let start = Session::with_policy(config, session.script().clone(), policy(info.id));
                #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
                let start = start.without_lost();
                let start = start.counted(session.window().counter());
                playground
                    .spares
                    .push(core::mem::replace(&mut session, start));
            }
            #[cfg(not(feature = "large-sessions"))]
            session.reset();
            playground.sessions.push(session);
        }
        playground
    }

    /// A playground from options as JS or JSON gives them, every value checked.
    ///
    /// # Errors
    ///
    /// As [`Session::from_options`].
    pub fn from_options(options: SessionOptions) -> Result<Playground, Error> {
        let session = Session::from_options(options)?;
        Ok(Playground::counting(
            session.config(),
            session.script().clone(),
            session.window().counter(),
        ))
    }

    /// Moves every policy to `count` turns added (clamped to the script).
    pub fn go_to(&mut self, count: u32) {
        // The turns the sessions play to stand at `count`: from where they are, or from the
        // start. (Every session stands at one turn, and every spare at one turn.)
        #[cfg(feature = "large-sessions")]
        {
            let cost = |sessions: &[Session]| match sessions.first().map(Session::turn_count) {
                Some(at) if at <= count => count - at,
                _ => count,
            };
            if cost(&self.spares) < cost(&self.sessions) {
                core::mem::swap(&mut self.sessions, &mut self.spares);
            }
        }
        for session in &mut self.sessions {
            session.go_to(count);
        }
    }

    /// How many turns every policy has added.
    pub fn turn_count(&self) -> u32 {
        self.sessions.first().map_or(0, Session::turn_count)
    }

    /// A snapshot of every policy at the current turn.
    pub fn state(&self) -> PlaygroundState {
        let turn = self.turn_count();
        let first = self.sessions.first();
        let mut policies = Vec::with_capacity(self.sessions.len());
        let (mut over, mut within, mut whole, mut both) = (vec![], vec![], vec![], vec![]);
        for (i, (info, session)) in POLICIES.iter().zip(&self.sessions).enumerate() {
            let mut window = session.state();
            window.transcript = Vec::new();
            let mut kept = Vec::with_capacity(self.facts.len());
            let mut in_full = true;
            for ((_, term), &said_at) in self.facts.iter().zip(&self.first_said) {
                let named = if said_at <= turn {
                    Named::of(&window, term)
                } else {
                    Named::NotYetSaid
                };
                in_full &= matches!(named, Named::Meaning | Named::NotYetSaid);
                kept.push(named);
            }
            let index = i as u32;
            if window.over_budget {
                over.push(index);
            } else {
                within.push(index);
            }
            if in_full {
                whole.push(index);
                if !window.over_budget {
                    both.push(index);
                }
            }
            // `get`, not indexing (every policy has all three): see `frameworks::from`.
            let mut losses = Vec::new();
            for loss in self.losses.get(i).into_iter().flatten() {
                if loss.turn.0 <= turn {
                    losses.push(loss.clone());
                }
            }
            let compactions = losses.len() as u32;
            let series = self.series.get(i).cloned().unwrap_or_default();
            // One plain loop (an iterator chain is code of its own in the wasm).
            let mut over_turns = Vec::new();
            let mut over_so_far = Vec::new();
            let mut number = 0;
            for tokens in &series {
                number += 1;
                if *tokens > window.budget {
                    over_turns.push(TurnNumber(number));
                    if number <= turn {
                        over_so_far.push(TurnNumber(number));
                    }
                }
            }
            let mut no_smaller = Vec::new();
            for step in &window.log {
                if step.no_smaller {
                    no_smaller.push(step.turn);
                }
            }
            policies.push(PolicyRow {
                info: *info,
                series,
                peaks: self.peaks.get(i).cloned().unwrap_or_default(),
                over_turns,
                over_so_far,
                compactions,
                no_smaller,
                tokens: window.tokens,
                kept,
                losses,
                window,
            });
        }
        PlaygroundState {
            turn,
            total_turns: first.map_or(0, |s| s.script().len() as u32),
            budget: first.map_or(Tokens(0), |s| s.config().budget()),
            compact_at: first.and_then(|s| s.config().compact_at()),
            trigger: first.and_then(|s| {
                let config = s.config();
                config
                    .compact_at()
                    .map(|_| Tokens(config.threshold(100) as u32))
            }),
            target: first.map_or(Tokens(0), |s| s.config().target()),
            facts: self.facts.iter().map(|(label, _)| label.clone()).collect(),
            facts_rule: FACTS_RULE,
            facts_from: self.facts_from,
            facts_chosen: self.facts_from.rule(),
            policies,
            over,
            within,
            whole,
            both,
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
    let cold = state.cold.iter().map(Line::text);
    let warm = state.warm.iter().map(Line::text);
    let hot = state.hot.iter().map(|turn| turn.text.as_str());
    let mut text = String::new();
    for line in cold.chain(warm).chain(hot) {
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(line);
    }
    text
}
