//! The real compaction triggers of agent frameworks and APIs, each as its source states it, and
//! as a share of a context window: what to give the playground's `compact_at` to replay every
//! policy at that framework's trigger (the playground's budget stands for the whole window).
//!
//! A trigger stated in tokens is a share of the window it is used with: Anthropic's 100,000-token
//! tool-result clearing is 50% of a 200K window and 10% of a 1M one. Claude Code's depends on the
//! model's largest output too.

use crate::error::whole_number;
use crate::prelude::*;
use crate::Error;
use serde::Serialize;

/// The context window the README's table and the playground's list of triggers start from:
/// 200,000 tokens, the window of Claude's models. (GPT-5-Codex's is 272,000; the Codex policy
/// sizes the user messages it keeps against that one, whatever window is chosen here.)
pub const REFERENCE_WINDOW: u32 = 200_000;

/// The largest output Claude Code's formula assumes unless told: 64,000 tokens, Claude Sonnet
/// 4.5's.
pub const REFERENCE_MAX_OUTPUT: u32 = 64_000;

/// The smallest context window [`framework_triggers`] takes, in tokens.
pub const MIN_WINDOW: u32 = 1_000;

/// The largest context window [`framework_triggers`] takes, in tokens.
pub const MAX_WINDOW: u32 = 100_000_000;

/// How a framework decides when to compact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Trigger {
    /// At this share of the window, from 0 to 1.
    Share(f64),
    /// At this many tokens of input, whatever the window.
    Tokens {
        /// The trigger when none is given.
        default: u32,
        /// The smallest trigger the API accepts, if it has a floor.
        at_least: Option<u32>,
    },
    /// Claude Code: the window, less the smaller of the model's largest output and 20,000 (room
    /// for the summary), less a 13,000-token buffer.
    ClaudeCode,
    /// No trigger by default: the caller must set one.
    Unset,
}

/// One framework's compaction setting, cited.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameworkSetting {
    /// The framework or API.
    pub framework: &'static str,
    /// When it compacts and what it keeps, as its source states it.
    pub setting: &'static str,
    /// Its trigger.
    pub trigger: Trigger,
    /// The file or page, and the version or date read.
    pub source: &'static str,
    /// A link to it.
    pub url: &'static str,
}

impl FrameworkSetting {
    /// The trigger as a share of a `window`-token context, for a model whose largest output is
    /// `max_output` tokens (only Claude Code reads it); `None` when there is no default trigger.
    /// A trigger in tokens past the window is a share over 1: in that window it never fires.
    ///
    /// ```
    /// use agent_memory_widgets::{FRAMEWORK_SETTINGS, REFERENCE_WINDOW};
    ///
    /// let share = |name: &str| FRAMEWORK_SETTINGS.iter().find(|s| s.framework == name).unwrap()
    ///     .share_of(REFERENCE_WINDOW, 64_000);
    /// assert_eq!(share("Claude Code"), Some(0.835));
    /// assert_eq!(share("Anthropic API, tool-result clearing"), Some(0.5));
    /// assert_eq!(share("LangChain summary buffer"), Some(0.01));
    /// assert_eq!(share("Google ADK"), None);
    /// ```
    pub fn share_of(&self, window: u32, max_output: u32) -> Option<f64> {
        let window = f64::from(window);
        match self.trigger {
            Trigger::Share(share) => Some(share),
            Trigger::Tokens { default, .. } => Some(f64::from(default) / window),
            Trigger::ClaudeCode => {
                let reserved = f64::from(max_output.min(20_000)) + 13_000.0;
                Some(((window - reserved) / window).max(0.0))
            }
            Trigger::Unset => None,
        }
    }

    /// [`share_of`](Self::share_of) as the playground's `compact_at`: a whole percent from 1 to
    /// 100, rounded to the nearest; `None` without a default trigger, or with one past the
    /// window, which never fires.
    pub fn compact_at(&self, window: u32, max_output: u32) -> Option<u32> {
        let share = self
            .share_of(window, max_output)
            .filter(|&share| share <= 1.0)?;
        Some((crate::float::round(share * 100.0) as u32).clamp(1, 100))
    }
}

/// One framework's trigger for one context window ([`framework_triggers`]): its setting, cited,
/// and the share of the window at which it compacts.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TriggerAt {
    /// The framework or API.
    pub framework: &'static str,
    /// When it compacts and what it keeps, as its source states it.
    pub setting: &'static str,
    /// The file or page, and the version or date read.
    pub source: &'static str,
    /// A link to it.
    pub url: &'static str,
    /// The window, in tokens.
    pub window: u32,
    /// The trigger as a share of the window, from 0 (at once: the window is smaller than what
    /// Claude Code keeps back); over 1 for a trigger past the window, which never fires in it;
    /// `None` when there is no default.
    pub share: Option<f64>,
    /// That share as the playground's `compact_at`, a whole percent from 1 to 100; `None` when
    /// `share` is, or is over 1.
    pub compact_at: Option<u32>,
    /// Whether the share depends on the window: a trigger stated in tokens (or Claude Code's
    /// formula) is a smaller share of a larger window.
    pub scaled: bool,
}

/// Every framework's trigger ([`FRAMEWORK_SETTINGS`]) for a context window of `window` tokens,
/// the model's largest output being `max_output` tokens (only Claude Code's formula reads it).
/// Both as JS numbers: the page's list of real triggers reads them from the reader's choice.
///
/// ```
/// use agent_memory_widgets::framework_triggers;
///
/// let at_1m = framework_triggers(1_000_000.0, 64_000.0)?;
/// let clearing = at_1m.iter().find(|t| t.framework == "Anthropic API, tool-result clearing").unwrap();
/// assert_eq!((clearing.share, clearing.compact_at, clearing.scaled), (Some(0.1), Some(10), true));
/// assert!(framework_triggers(500.0, 0.0).is_err());
/// # Ok::<(), agent_memory_widgets::Error>(())
/// ```
///
/// # Errors
///
/// [`ErrorKind::InvalidOption`](crate::ErrorKind::InvalidOption) when `window` is not a whole
/// number from [`MIN_WINDOW`] to [`MAX_WINDOW`], or `max_output` not one from 0 to `window`.
pub fn framework_triggers(window: f64, max_output: f64) -> Result<Vec<TriggerAt>, Error> {
    let window = whole_number("window", window, MIN_WINDOW, MAX_WINDOW)?;
    let max_output = whole_number("max_output", max_output, 0, window)?;
    let mut triggers = Vec::with_capacity(FRAMEWORK_SETTINGS.len());
    for setting in &FRAMEWORK_SETTINGS {
        triggers.push(TriggerAt {
            framework: setting.framework,
            setting: setting.setting,
            source: setting.source,
            url: setting.url,
            window,
            share: setting.share_of(window, max_output),
            compact_at: setting.compact_at(window, max_output),
            scaled: matches!(
                setting.trigger,
                Trigger::Tokens { .. } | Trigger::ClaudeCode
            ),
        });
    }
    Ok(triggers)
}

/// The frameworks' real settings, each cited by file or page and version.
pub const FRAMEWORK_SETTINGS: [FrameworkSetting; 7] = [
    FrameworkSetting {
        framework: "Claude Code",
        setting: "Compacts at the window, less the smaller of the model's largest output and 20,000 tokens, less a 13,000-token buffer: 167,000 of 200,000 (83.5%). Anthropic's own word is \"about 83%\", and the window can change on their side; late 2025 versions kept 45,000 back (77.5%).",
        trigger: Trigger::ClaudeCode,
        source: "closed source: cli.js as quoted in anthropics/claude-code issues #31806 (2026-03) and #86863 (v2.1.233, 2026-08, an Anthropic engineer)",
        url: "https://github.com/anthropics/claude-code/issues/31806",
    },
    FrameworkSetting {
        framework: "OpenAI Codex CLI",
        setting: "Compacts at 90% of the window unless configured (auto_compact_token_limit; early builds used a fixed 256,000); keeps the newest user messages, up to 20,000 tokens (compact.rs), and puts the handoff summary after them.",
        trigger: Trigger::Share(0.9),
        source: "openai/codex@e06dd0e, codex-rs/protocol/src/openai_models.rs (the trigger), codex-rs/core/src/compact.rs (what it keeps)",
        url: "https://github.com/openai/codex/blob/e06dd0e/codex-rs/protocol/src/openai_models.rs",
    },
    FrameworkSetting {
        framework: "Letta",
        setting: "Compacts at 90% of the window (SUMMARIZATION_TRIGGER_MULTIPLIER); evicts the oldest 40% of the messages (sliding_window_percentage 0.3, raised by 0.1 before the first try), then 10% more at a time, until what it keeps is under 70%.",
        trigger: Trigger::Share(0.9),
        source: "letta-ai/letta@56ba9c2, letta/services/summarizer/summarizer_sliding_window.py, letta/services/summarizer/compact.py, letta/constants.py",
        url: "https://github.com/letta-ai/letta/blob/56ba9c2/letta/services/summarizer/summarizer_sliding_window.py",
    },
    FrameworkSetting {
        framework: "Anthropic API, tool-result clearing",
        setting: "Clears old tool results once the input passes 100,000 tokens, keeping the last 3 tool uses (clear_tool_uses_20250919).",
        trigger: Trigger::Tokens { default: 100_000, at_least: None },
        source: "Anthropic docs, Context editing, as of 2026-12",
        url: "https://docs.claude.com/en/docs/build-with-claude/context-editing",
    },
    FrameworkSetting {
        framework: "Anthropic API, server compaction",
        setting: "Summarises the conversation once the input passes 150,000 tokens by default; the trigger must be at least 50,000 (compact_20260112).",
        trigger: Trigger::Tokens { default: 150_000, at_least: Some(50_000) },
        source: "Anthropic docs, Compaction, as of 2026-12",
        url: "https://platform.claude.com/docs/en/build-with-claude/compaction",
    },
    FrameworkSetting {
        framework: "LangChain summary buffer",
        setting: "Summarises when its verbatim messages pass max_token_limit, 2,000 tokens unless set: the oldest are popped into a moving summary, which is not counted.",
        trigger: Trigger::Tokens { default: 2_000, at_least: None },
        source: "langchain 0.3.30, langchain/memory/summary_buffer.py, ConversationSummaryBufferMemory",
        url: "https://pypi.org/project/langchain/0.3.30/",
    },
    FrameworkSetting {
        framework: "Google ADK",
        setting: "Compacts after every compaction_interval new invocations, whatever the tokens; it is off until an app sets events_compaction_config, whose compaction_interval and overlap_size have no default (the playground sets 3 and 1).",
        trigger: Trigger::Unset,
        source: "google-adk 1.21.0, google/adk/apps/app.py, EventsCompactionConfig",
        url: "https://pypi.org/project/google-adk/1.21.0/",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triggers_are_read_for_the_window_chosen_and_bad_windows_are_refused() {
        let at = |window: f64| -> Vec<Option<u32>> {
            framework_triggers(window, 64_000.0)
                .unwrap()
                .iter()
                .map(|trigger| trigger.compact_at)
                .collect()
        };
        let none = None;
        assert_eq!(
            at(200_000.0),
            [
                Some(84),
                Some(90),
                Some(90),
                Some(50),
                Some(75),
                Some(1),
                none
            ]
        );
        assert_eq!(
            at(1_000_000.0),
            [
                Some(97),
                Some(90),
                Some(90),
                Some(10),
                Some(15),
                Some(1),
                none
            ]
        );
        // Server compaction's 150,000 tokens are past a 128K window: there it never fires.
        assert_eq!(
            at(128_000.0),
            [Some(74), Some(90), Some(90), Some(78), none, Some(2), none]
        );
        let server = &framework_triggers(128_000.0, 64_000.0).unwrap()[4];
        assert_eq!(server.share, Some(150_000.0 / 128_000.0));
        let scaled: Vec<bool> = framework_triggers(200_000.0, 0.0)
            .unwrap()
            .iter()
            .map(|trigger| trigger.scaled)
            .collect();
        assert_eq!(scaled, [true, false, false, true, true, true, false]);
        let message =
            |window: f64, output: f64| framework_triggers(window, output).unwrap_err().js_message();
        assert_eq!(
            message(999.0, 0.0),
            "window must be a whole number of at least 1000, got 999"
        );
        assert_eq!(
            message(f64::NAN, 0.0),
            "window must be a whole number of at least 1000, got NaN"
        );
        assert_eq!(
            message(200_000.0, 300_000.0),
            "maxOutput must be a whole number of at most 200000, got 300000"
        );
    }

    #[test]
    fn each_trigger_is_its_share_of_the_window() {
        let at = |i: usize, window, output| FRAMEWORK_SETTINGS[i].compact_at(window, output);
        assert_eq!(at(0, 200_000, 64_000), Some(84)); // 83.5%, rounded
        assert_eq!(at(0, 200_000, 8_000), Some(90)); // 200K − 8K − 13K = 179K
        assert_eq!(at(0, 1_000_000, 64_000), Some(97));
        assert_eq!(at(1, 200_000, 0), Some(90));
        assert_eq!(at(3, 200_000, 0), Some(50));
        assert_eq!(at(3, 1_000_000, 0), Some(10));
        assert_eq!(at(4, 200_000, 0), Some(75));
        assert_eq!(at(4, 150_000, 0), Some(100));
        assert_eq!(at(4, 128_000, 0), None); // 150,000 tokens: never, in a 128K window
        assert_eq!(at(0, 30_000, 64_000), Some(1)); // less than nothing left: at once
        assert_eq!(at(5, 200_000, 0), Some(1)); // the summary buffer's 2,000 tokens
        assert_eq!(at(6, 200_000, 0), None);
    }
}
