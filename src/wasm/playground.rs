//! `Playground`, the policy playground's model, and `frameworkTriggers`, as JS exports.

use super::{to_js, turn_count};
use wasm_bindgen::prelude::*;

/// The policy playground's model: one script replayed under seven compaction policies.
#[wasm_bindgen(js_name = Playground)]
pub struct JsPlayground(crate::Playground);

#[wasm_bindgen(js_class = Playground)]
impl JsPlayground {
    /// The refund-desk script under every policy, budget 40, 2 HOT turns.
    #[wasm_bindgen(constructor)]
    pub fn new() -> JsPlayground {
        JsPlayground(crate::Playground::default())
    }

    /// A playground with custom options, the same as `Session.withConfig`.
    #[cfg(feature = "with-config")]
    #[wasm_bindgen(js_name = withConfig)]
    pub fn with_config(
        #[wasm_bindgen(unchecked_param_type = "SessionConfig")] options: JsValue,
    ) -> Result<JsPlayground, JsError> {
        JsPlayground::of(super::options::session::read(&options)?)
    }

    /// As Playground::from_options, through the session.
    #[cfg(feature = "with-config")]
    fn of(options: crate::SessionOptions) -> Result<JsPlayground, JsError> {
        crate::Playground::from_options(options)
            .map(JsPlayground)
            .map_err(super::js_error)
    }

    /// Moves every policy to `turn`.
    #[wasm_bindgen(js_name = goTo)]
    pub fn go_to(&mut self, turn: f64) -> Result<(), JsError> {
        self.0.go_to(turn_count(turn)?);
        Ok(())
    }

    /// The turn every policy stands at.
    #[wasm_bindgen(getter)]
    pub fn turn(&self) -> u32 {
        self.0.turn_count()
    }

    /// Every policy's row at the current turn.
    #[wasm_bindgen(unchecked_return_type = "PlaygroundState")]
    pub fn state(&self) -> Result<JsValue, JsError> {
        to_js(&self.0.state())
    }
}

impl Default for JsPlayground {
    fn default() -> JsPlayground {
        JsPlayground::new()
    }
}

/// Every framework's real compaction trigger (`FRAMEWORK_SETTINGS`) for a context window of
/// `window` tokens (200,000 when left out), the model's largest output being `maxOutput` tokens
/// (64,000 when left out; only Claude Code's formula reads it), cited, each with its share of
/// the window and that share as `compactAt`. Throws an `Error` for a window that is not a whole
/// number from 1,000 to 100,000,000, or an output larger than the window.
#[cfg(feature = "with-config")]
#[wasm_bindgen(js_name = frameworkTriggers, unchecked_return_type = "FrameworkTrigger[]")]
pub fn framework_triggers(
    window: Option<f64>,
    max_output: Option<f64>,
) -> Result<JsValue, JsError> {
    let triggers = crate::framework_triggers(
        window.unwrap_or(f64::from(crate::REFERENCE_WINDOW)),
        max_output.unwrap_or(f64::from(crate::REFERENCE_MAX_OUTPUT)),
    )
    .map_err(super::js_error)?;
    to_js(&triggers)
}
