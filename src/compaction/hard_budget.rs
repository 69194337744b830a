//! The hard budget ([`SessionConfig::with_hard_budget`]): after a policy's step, whatever it left
//! over the budget is trimmed, oldest first, keeping tool pairs together.

use crate::compaction::{Script, SessionConfig, SessionConfigBuilder, Window};
use crate::prelude::*;
use crate::units::TurnNumber;

/// Whether a session can trim to a hard budget: not in this project's own wasm builds
/// (`wasm-runtime`), whose JS API has no option for it, so that they carry none of its code. No
/// answer the JS API can give changes.
pub(crate) const HARD_BUDGET: bool = !cfg!(all(target_arch = "wasm32", feature = "wasm-runtime"));

impl SessionConfig {
    /// The same settings with a hard budget: after every step, whatever the policy left over the
    /// budget is trimmed, oldest first (the COLD gist, then the WARM lines, then the verbatim
    /// turns), until the window fits. The newest turn stays, with its tool call when it is a
    /// tool's result, even when it alone is over the budget; a tool call leaves with its result,
    /// so a pair is never split. Each [`Step`](crate::Step) lists what its trim took out
    /// ([`Step::trimmed`](crate::Step::trimmed)).
    ///
    /// Off by default: every policy then keeps its own behaviour, and the framework policies that
    /// do not count their summary ([`SummaryBuffer`](crate::SummaryBuffer)) or compact only part
    /// of the window can end well over the budget, with
    /// [`over_budget_reason`](crate::SessionState::over_budget_reason) saying why. Turn it on for
    /// an agent whose request must fit the model's window. A policy that remembers what it
    /// summarised (the gist of [`HotWarmCold`](crate::HotWarmCold), the lines of
    /// [`Interval`](crate::Interval)) may place it again at its next compaction, to be trimmed
    /// again if it does not fit.
    ///
    /// ```
    /// use agent_memory_widgets::{Session, SessionConfig, SummaryBuffer, Tokens, Turn, TurnNumber};
    ///
    /// # fn main() -> Result<(), agent_memory_widgets::Error> {
    /// let config = SessionConfig::builder().budget(12).hard_budget().build()?;
    /// assert!(config.hard_budget());
    /// let mut guarded = Session::live(config, Box::new(SummaryBuffer));
    /// let mut plain = Session::live(SessionConfig::new(Tokens(12), 2)?, Box::new(SummaryBuffer));
    /// for text in ["Where is my refund for ORD-3300?", "It went out on day 3.", "And the earbuds?"] {
    ///     guarded.push(Turn::user(text)?)?;
    ///     plain.push(Turn::user(text)?)?;
    /// }
    /// // SummaryBuffer does not count its summary of turn 1, which takes the window over; the
    /// // guard trims it, and says so.
    /// assert_eq!(plain.window().tokens(), Tokens(15));
    /// assert_eq!(guarded.window().tokens(), Tokens(9));
    /// assert_eq!(guarded.log()[2].trimmed(), [TurnNumber(1)]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn with_hard_budget(self) -> SessionConfig {
        SessionConfig {
            hard_budget: true,
            ..self
        }
    }

    /// Whether the window is trimmed to the budget after every step
    /// ([`SessionConfig::with_hard_budget`]).
    pub fn hard_budget(&self) -> bool {
        self.hard_budget
    }
}

impl SessionConfigBuilder {
    /// Trim whatever a policy leaves over the budget ([`SessionConfig::with_hard_budget`]).
    pub fn hard_budget(self) -> SessionConfigBuilder {
        SessionConfigBuilder {
            hard_budget: true,
            ..self
        }
    }
}

/// The tool-call id of turn `number`, when it has one.
fn call_id(script: &Script, number: TurnNumber) -> Option<&str> {
    script.turn(number)?.tool_call_id()
}

/// Under a hard budget ([`HARD_BUDGET`] and `config`'s), trims `window` to `config`'s budget,
/// oldest first: the COLD gist, the WARM lines, then the
/// verbatim turns but the newest and the turns that share its tool-call id. A verbatim turn with
/// a tool-call id leaves with every verbatim turn that shares it. Returns the turns taken out,
/// ascending: those of each line removed too, but for turns still verbatim.
pub(crate) fn trim(
    window: &mut Window,
    script: &Script,
    config: &SessionConfig,
) -> Vec<TurnNumber> {
    let budget = config.budget();
    let mut trimmed = Vec::new();
    if !HARD_BUDGET || !config.hard_budget || window.tokens() <= budget {
        return trimmed;
    }
    if let Some(line) = window.set_cold(None) {
        trimmed.extend_from_slice(line.turns());
    }
    while window.tokens() > budget {
        let Some(line) = window.pop_warm() else { break };
        trimmed.extend_from_slice(line.turns());
    }
    let newest = window.verbatim().next_back();
    let kept = newest.and_then(|newest| call_id(script, newest));
    while window.tokens() > budget {
        // The oldest verbatim turn that is not the newest nor of its pair.
        let Some(oldest) = window.verbatim().find(|&number| {
            Some(number) != newest && (kept.is_none() || call_id(script, number) != kept)
        }) else {
            break;
        };
        let id = call_id(script, oldest);
        window.remove_verbatim(oldest);
        trimmed.push(oldest);
        if let Some(id) = id {
            let pair: Vec<TurnNumber> = window
                .verbatim()
                .filter(|&number| call_id(script, number) == Some(id))
                .collect();
            for number in pair {
                window.remove_verbatim(number);
                trimmed.push(number);
            }
        }
    }
    crate::sort::sort_by(&mut trimmed, TurnNumber::cmp);
    trimmed.dedup();
    // A line may stand for turns still verbatim (a handoff's summary of the whole session):
    // those did not leave. Both lists ascend, so one walk finds them.
    let mut verbatim = window.verbatim().peekable();
    trimmed.retain(|&number| {
        while verbatim.next_if(|&turn| turn < number).is_some() {}
        verbatim.peek() != Some(&number)
    });
    trimmed
}

/// Why the window is over its hard budget: only the newest turn and its tool pair are left.
pub(crate) fn over_budget_reason(window: &Window, config: &SessionConfig) -> String {
    let turns = window.verbatim().len();
    text!(
        "The hard budget kept only the newest turn",
        if turns > 1 { " and its tool call" } else { "" },
        ", which alone take ",
        window.tokens(),
        " tokens, more than the budget of ",
        config.budget(),
        "."
    )
}

#[cfg(test)]
mod tests {
    use super::trim;
    use crate::compaction::{Line, Script, SessionConfig, Turn, Window};
    use crate::units::{Tokens, TurnNumber};

    fn script() -> Script {
        Script::from_turns(vec![
            Turn::user("one two three").unwrap(),
            Turn::tool_call("c1", "lookup(ORD-3300)").unwrap(),
            Turn::user("four five six").unwrap(),
            Turn::tool("c1", "seven eight nine ten").unwrap(),
            Turn::user("eleven twelve").unwrap(),
        ])
    }

    fn window(turns: &[u32]) -> Window {
        let script = script();
        let mut window = Window::default();
        window.set_cold(Some(Line::new(vec![TurnNumber(1)], "gist words")));
        for &number in turns {
            let tokens = script.turn(TurnNumber(number)).unwrap().tokens();
            window.push_verbatim(TurnNumber(number), tokens);
        }
        window
    }

    fn check(turns: &[u32], budget: u32, left: &[u32], trimmed: &[u32]) {
        let config = SessionConfig::new(Tokens(budget), 1)
            .unwrap()
            .with_hard_budget();
        let mut window = window(turns);
        let got = trim(&mut window, &script(), &config);
        let left: Vec<TurnNumber> = left.iter().copied().map(TurnNumber).collect();
        let trimmed: Vec<TurnNumber> = trimmed.iter().copied().map(TurnNumber).collect();
        assert_eq!(
            window.verbatim().collect::<Vec<_>>(),
            left,
            "{turns:?} at {budget}"
        );
        assert_eq!(got, trimmed, "{turns:?} at {budget}");
    }

    #[test]
    fn trims_nothing_when_off() {
        let config = SessionConfig::new(Tokens(1), 1).unwrap();
        let mut window = window(&[2, 3, 4, 5]);
        assert!(trim(&mut window, &script(), &config).is_empty());
        assert_eq!(window.tokens(), Tokens(13));
    }

    #[test]
    fn trims_oldest_first_keeping_pairs() {
        // Within the budget: nothing moves.
        check(&[2, 3, 4, 5], 14, &[2, 3, 4, 5], &[]);
        // The gist goes first (it stands for turn 1), then the call with its result (the call
        // `lookup(ORD-3300)` is two words, its name and its value).
        check(&[2, 3, 4, 5], 13, &[2, 3, 4, 5], &[]);
        check(&[2, 3, 4, 5], 11, &[2, 3, 4, 5], &[1]);
        check(&[2, 3, 4, 5], 10, &[3, 5], &[1, 2, 4]);
        check(&[2, 3, 4, 5], 2, &[5], &[1, 2, 3, 4]);
        // The newest is a result: its call stays with it, even over the budget.
        check(&[2, 3, 4], 3, &[2, 4], &[1, 3]);
        check(&[2, 3, 4], 1, &[2, 4], &[1, 3]);
    }
}
