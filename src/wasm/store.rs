//! `FactStore`, the forgetting widget's model, as a JS class.

use super::{js_error, to_js};
use crate::error::whole_number;
use crate::{EventIndex, FactId, Time};
use wasm_bindgen::prelude::*;

/// The forgetting widget's model: a fact store on a timeline with a time slider.
#[wasm_bindgen(js_name = FactStore)]
pub struct JsFactStore(crate::FactStore);

#[wasm_bindgen(js_class = FactStore)]
impl JsFactStore {
    /// The refund-desk facts with the seed's half-life 4, capacity 4 and access boost 0.5.
    #[wasm_bindgen(constructor)]
    pub fn new() -> JsFactStore {
        JsFactStore(crate::FactStore::default())
    }

    /// A store with custom options; throws an `Error` naming the bad option.
    #[cfg(feature = "with-config")]
    #[wasm_bindgen(js_name = withConfig)]
    pub fn with_config(
        #[wasm_bindgen(unchecked_param_type = "FactStoreConfig")] options: JsValue,
    ) -> Result<JsFactStore, JsError> {
        crate::FactStore::from_options(super::options::store::read(&options)?)
            .map(JsFactStore)
            .map_err(js_error)
    }

    /// The slider's time.
    #[wasm_bindgen(getter)]
    pub fn time(&self) -> f64 {
        self.0.time().get()
    }

    /// Moves the slider to `t` (finite, at least 0), forward or back.
    #[wasm_bindgen(js_name = setTime)]
    pub fn set_time(&mut self, t: f64) -> Result<(), JsError> {
        self.0.set_time(Time::new(t).map_err(js_error)?);
        Ok(())
    }

    /// The write events, with when each was fired.
    #[wasm_bindgen(unchecked_return_type = "EventInfo[]")]
    pub fn events(&self) -> Result<JsValue, JsError> {
        to_js(&self.0.events())
    }

    /// Fires write event `index` (from 0) at the current time; one fired already moves here.
    #[wasm_bindgen(unchecked_return_type = "Change")]
    pub fn fire(&mut self, index: f64) -> Result<JsValue, JsError> {
        to_js(&self.0.fire(event_index(index)?).map_err(js_error)?)
    }

    /// Takes fired write event `index` off the timeline; returns the time it had.
    pub fn unfire(&mut self, index: f64) -> Result<f64, JsError> {
        let at = self.0.unfire(event_index(index)?).map_err(js_error)?;
        Ok(at.get())
    }

    /// Reads active fact `id` at the current time.
    #[wasm_bindgen(unchecked_return_type = "Change")]
    pub fn read(&mut self, id: f64) -> Result<JsValue, JsError> {
        let id = whole_number("id", id, 0, u32::MAX).map_err(js_error)?;
        to_js(&self.0.read(FactId(id)).map_err(js_error)?)
    }

    /// Every fact's score at `0, step, 2·step, … ≤ until`, for the decay chart.
    #[wasm_bindgen(unchecked_return_type = "ChartLine[]")]
    pub fn chart(&self, until: f64, step: f64) -> Result<JsValue, JsError> {
        let until = Time::named("until", until).map_err(js_error)?;
        to_js(&self.0.chart(until, step).map_err(js_error)?)
    }

    /// Runs the consolidation pass at the current time (one that ran already moves here);
    /// returns what it distilled.
    #[wasm_bindgen(unchecked_return_type = "Change[]")]
    pub fn consolidate(&mut self) -> Result<JsValue, JsError> {
        to_js(&self.0.consolidate().map_err(js_error)?)
    }

    /// Takes the consolidation pass off the timeline; returns the time it had.
    pub fn unconsolidate(&mut self) -> Result<f64, JsError> {
        let at = self.0.unconsolidate().map_err(js_error)?;
        Ok(at.get())
    }

    /// Forgets every fired event, the consolidation pass and every read; back to t = 0.
    pub fn reset(&mut self) {
        self.0.reset();
    }

    /// A snapshot of the store at the current time.
    #[wasm_bindgen(unchecked_return_type = "FactStoreState")]
    pub fn state(&self) -> Result<JsValue, JsError> {
        to_js(&self.0.state())
    }
}

impl Default for JsFactStore {
    fn default() -> JsFactStore {
        JsFactStore::new()
    }
}

/// A write event's index from JS: a whole number from 0.
fn event_index(index: f64) -> Result<EventIndex, JsError> {
    whole_number("index", index, 0, u32::MAX)
        .map(EventIndex)
        .map_err(js_error)
}
