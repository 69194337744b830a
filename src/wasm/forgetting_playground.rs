//! `ForgettingPlayground`, the forgetting playground's model, as a JS class.

use super::{js_error, to_js};
use wasm_bindgen::prelude::*;

/// The forgetting playground's model: seven forgetting policies over one stream of writes and
/// reads, with a time slider.
#[wasm_bindgen(js_name = ForgettingPlayground)]
pub struct JsForgettingPlayground(crate::ForgettingPlayground);

#[wasm_bindgen(js_class = ForgettingPlayground)]
impl JsForgettingPlayground {
    /// Forty refund-desk tickets at capacity 4, half-life 4.
    #[wasm_bindgen(constructor)]
    pub fn new() -> JsForgettingPlayground {
        JsForgettingPlayground(crate::ForgettingPlayground::new(
            crate::StreamId::Tickets,
            crate::StoreConfig::default(),
        ))
    }

    /// A playground with custom options; throws an `Error` naming the bad option.
    #[cfg(feature = "with-config")]
    #[wasm_bindgen(js_name = withConfig)]
    pub fn with_config(
        #[wasm_bindgen(unchecked_param_type = "ForgettingPlaygroundConfig")] options: JsValue,
    ) -> Result<JsForgettingPlayground, JsError> {
        let fields = super::options::Fields::root(&options, &["halfLife", "capacity", "stream"])?;
        let (half_life, capacity, stream) = match &fields {
            Some(fields) => (
                fields.number("halfLife")?,
                fields.number("capacity")?,
                fields.text("stream")?,
            ),
            None => (None, None, None),
        };
        crate::ForgettingPlayground::from_options(half_life, capacity, stream.as_deref())
            .map(JsForgettingPlayground)
            .map_err(js_error)
    }

    /// The slider's time.
    #[wasm_bindgen(getter)]
    pub fn time(&self) -> f64 {
        self.0.time().get()
    }

    /// Moves the slider to `t` (finite, at least 0).
    #[wasm_bindgen(js_name = setTime)]
    pub fn set_time(&mut self, t: f64) -> Result<(), JsError> {
        self.0.set_time(crate::Time::new(t).map_err(js_error)?);
        Ok(())
    }

    /// Every policy at the slider's time.
    #[wasm_bindgen(unchecked_return_type = "ForgettingPlaygroundState")]
    pub fn state(&self) -> Result<JsValue, JsError> {
        to_js(&self.0.state())
    }
}

impl Default for JsForgettingPlayground {
    fn default() -> JsForgettingPlayground {
        JsForgettingPlayground::new()
    }
}
