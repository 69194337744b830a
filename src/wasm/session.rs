//! `Session`, the compaction widget's model, as a JS class.

use super::{to_js, turn_count};
use wasm_bindgen::prelude::*;

/// The compaction widget's model: a support session played turn by turn.
#[wasm_bindgen(js_name = Session)]
pub struct JsSession(crate::Session);

#[wasm_bindgen(js_class = Session)]
impl JsSession {
    /// The refund-desk script with the seed's budget of 40 and 2 HOT turns.
    #[wasm_bindgen(constructor)]
    pub fn new() -> JsSession {
        JsSession(crate::Session::default())
    }

    /// A session with custom options; throws an `Error` naming the bad option.
    #[cfg(feature = "with-config")]
    #[wasm_bindgen(js_name = withConfig)]
    pub fn with_config(
        #[wasm_bindgen(unchecked_param_type = "SessionConfig")] options: JsValue,
    ) -> Result<JsSession, JsError> {
        session_from(super::options::session::read(&options)?)
            .map(JsSession)
            .map_err(super::js_error)
    }

    /// Appends the next turn and compacts if it crossed the budget; `null` once the script is done.
    #[wasm_bindgen(js_name = addTurn, unchecked_return_type = "Step | null")]
    pub fn add_turn(&mut self) -> Result<JsValue, JsError> {
        to_js(&self.0.add_turn())
    }

    /// Starts the script over.
    pub fn reset(&mut self) {
        self.0.reset();
    }

    /// Resets, then adds turns until `turn` of them are in.
    #[wasm_bindgen(js_name = goTo)]
    pub fn go_to(&mut self, turn: f64) -> Result<(), JsError> {
        self.0.go_to(turn_count(turn)?);
        Ok(())
    }

    /// A snapshot of everything the widget shows.
    #[wasm_bindgen(unchecked_return_type = "SessionState")]
    pub fn state(&self) -> Result<JsValue, JsError> {
        to_js(&self.0.state())
    }

    /// Every turn of the script as options write it: `withConfig({ script })` of these plays
    /// the same session. A summary the first-sentence rule wrote is `null`. (With `withConfig`
    /// only: a core without it plays the refund desk alone, whose turns any core's gives.)
    #[cfg(feature = "with-config")]
    #[wasm_bindgen(unchecked_return_type = "TurnSpec[]")]
    pub fn script(&self) -> Result<JsValue, JsError> {
        to_js(&self.0.script().spec_refs())
    }
}

impl Default for JsSession {
    fn default() -> JsSession {
        JsSession::new()
    }
}

/// A session from `options`, of any script.
#[cfg(feature = "with-config")]
fn session_from(options: crate::SessionOptions) -> Result<crate::Session, crate::Error> {
    crate::Session::from_options(options)
}
