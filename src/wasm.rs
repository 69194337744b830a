//! The WebAssembly boundary: the only module that knows about wasm-bindgen and JS.
//!
//! It exports the core's [`Session`](crate::Session) and [`FactStore`](crate::FactStore) under
//! the same names, turns JS values into the core's options, hands state back as plain JS
//! objects (camelCase, `null` for absent values), and turns every core [`Error`](crate::Error)
//! into a thrown JS `Error` with the core's message. No JS input can reach a panic.

use js_sys::{Array, Object, Reflect};
use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::{Error, ScenarioSpec, SessionOptions, StoreOptions, Time};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
/** Options for `Session.withConfig`; every field is optional. */
export interface SessionConfig {
  /** Token budget of the live window, a whole number of at least 1 (default 40). */
  budget?: number;
  /** Turns kept HOT and verbatim at a compaction, a whole number of at least 1 (default 2). */
  hotN?: number;
  /** A custom script (default: the refund desk). */
  script?: TurnSpec[];
}
export type TurnKind = "chatter" | "decision" | "tool" | "question";
export interface TurnSpec { speaker: string; kind: TurnKind; text: string; summary?: string | null; }
/** What one `addTurn()` did. Turn lists hold turn numbers, counting from 1. */
export interface Step {
  turn: number; tokensBefore: number; peakTokens: number; tokensAfter: number;
  crossed: boolean; compacted: boolean; toWarm: number[]; toCold: number[]; dropped: number[];
}
export interface HotTurn { turn: number; speaker: string; kind: TurnKind; text: string; tokens: number; }
/** A WARM line or the COLD gist, with the turns it came from. */
export interface Line { turns: number[]; text: string; tokens: number; }
export interface SessionState {
  turn: number; totalTurns: number; budget: number; hotN: number; tokens: number;
  overBudget: boolean; overBudgetReason: string | null; done: boolean; crossings: number[];
  hot: HotTurn[]; warm: Line[]; cold: Line | null; dropped: { turn: number; text: string }[];
  log: Step[];
}
/** Options for `FactStore.withConfig`; every field is optional. */
export interface FactStoreConfig {
  /** Time units for recency to halve, finite and above 0 (default 4). */
  halfLife?: number;
  /** Most active facts after a write, a whole number of at least 1 (default 4). */
  capacity?: number;
  /** What each read adds to the access factor, 0 to 1000 (default 0.5). */
  accessBoost?: number;
  /** A custom scenario (default: the refund desk). */
  scenario?: ScenarioSpec;
}
export interface ScenarioSpec {
  facts?: { text: string; importance: number }[];
  reads?: { fact: number; at: number }[];
  events?: { label?: string; text: string; importance: number; supersedes?: number | null }[];
}
export interface EventInfo { index: number; label: string; fact: number; firedAt: number | null; }
export type FactStatus = "active" | "superseded" | "evicted";
export interface FactView {
  id: number; text: string; kind: "episodic"; importance: number; lastTouch: number; age: number;
  reads: number; recency: number; access: number; score: number; status: FactStatus;
  supersededBy: number | null;
}
export interface Change {
  at: number; action: "write" | "refresh" | "read" | "missedRead"; fact: number;
  event: number | null; superseded: number | null; evicted: number | null;
}
export interface FactStoreState {
  t: number; halfLife: number; capacity: number; accessBoost: number; activeCount: number;
  facts: FactView[]; events: EventInfo[]; reads: { fact: number; at: number; scheduled: boolean }[];
  log: Change[];
}
"#;

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
    #[wasm_bindgen(js_name = withConfig)]
    pub fn with_config(
        #[wasm_bindgen(unchecked_param_type = "SessionConfig")] options: JsValue,
    ) -> Result<JsSession, JsError> {
        crate::Session::from_options(session_options(&options)?).map(JsSession).map_err(js_error)
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
        let turn = crate::error::whole_number("turn", turn, 0, u32::MAX).map_err(js_error)?;
        self.0.go_to(turn);
        Ok(())
    }

    /// A snapshot of everything the widget shows.
    #[wasm_bindgen(unchecked_return_type = "SessionState")]
    pub fn state(&self) -> Result<JsValue, JsError> {
        to_js(&self.0.state())
    }
}

impl Default for JsSession {
    fn default() -> JsSession {
        JsSession::new()
    }
}

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
    #[wasm_bindgen(js_name = withConfig)]
    pub fn with_config(
        #[wasm_bindgen(unchecked_param_type = "FactStoreConfig")] options: JsValue,
    ) -> Result<JsFactStore, JsError> {
        crate::FactStore::from_options(store_options(&options)?).map(JsFactStore).map_err(js_error)
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

    /// Fires write event `index` (from 0) at the current time.
    #[wasm_bindgen(unchecked_return_type = "Change")]
    pub fn fire(&mut self, index: f64) -> Result<JsValue, JsError> {
        let index = crate::error::whole_number("index", index, 0, u32::MAX).map_err(js_error)?;
        to_js(&self.0.fire(index as usize).map_err(js_error)?)
    }

    /// Reads active fact `id` at the current time.
    #[wasm_bindgen(unchecked_return_type = "Change")]
    pub fn read(&mut self, id: f64) -> Result<JsValue, JsError> {
        let id = crate::error::whole_number("id", id, 0, u32::MAX).map_err(js_error)?;
        to_js(&self.0.read(id).map_err(js_error)?)
    }

    /// Forgets every fired event and read, and moves the slider back to 0.
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

/// The session options in `value`, every key and type checked so that a message names the option.
fn session_options(value: &JsValue) -> Result<SessionOptions, JsError> {
    let Some(object) = options_object(value, "withConfig", &["budget", "hotN", "script"])? else {
        return Ok(SessionOptions::default());
    };
    Ok(SessionOptions {
        budget: number(&object, "budget")?,
        hot_n: number(&object, "hotN")?,
        script: list(&object, "script", "script")?,
    })
}

/// The fact store options in `value`, checked like [`session_options`].
fn store_options(value: &JsValue) -> Result<StoreOptions, JsError> {
    let Some(object) =
        options_object(value, "withConfig", &["halfLife", "capacity", "accessBoost", "scenario"])?
    else {
        return Ok(StoreOptions::default());
    };
    let scenario = match options_object(&field(&object, "scenario"), "scenario", &["facts", "reads", "events"])? {
        None => None,
        Some(spec) => Some(ScenarioSpec {
            facts: list(&spec, "facts", "facts")?.unwrap_or_default(),
            reads: list(&spec, "reads", "reads")?.unwrap_or_default(),
            events: list(&spec, "events", "events")?.unwrap_or_default(),
        }),
    };
    Ok(StoreOptions {
        half_life: number(&object, "halfLife")?,
        capacity: number(&object, "capacity")?,
        access_boost: number(&object, "accessBoost")?,
        scenario,
    })
}

/// `value` as an object with no keys but `known`; `None` when it is absent.
fn options_object(value: &JsValue, what: &str, known: &[&str]) -> Result<Option<Object>, JsError> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    let names = known.join(", ");
    if !value.is_object() || Array::is_array(value) {
        return Err(JsError::new(&format!(
            "{what} takes an object with any of: {names}; got {}",
            type_of(value)
        )));
    }
    let object: Object = value.clone().unchecked_into();
    for key in Object::keys(&object).iter() {
        let name = key.as_string().unwrap_or_default();
        if !known.contains(&name.as_str()) {
            return Err(JsError::new(&format!("unknown option \"{name}\" in {what}; use any of: {names}")));
        }
    }
    Ok(Some(object))
}

fn field(object: &Object, key: &str) -> JsValue {
    Reflect::get(object, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// An optional number; any other type is an error naming the option.
fn number(object: &Object, key: &str) -> Result<Option<f64>, JsError> {
    let value = field(object, key);
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    value
        .as_f64()
        .map(Some)
        .ok_or_else(|| JsError::new(&format!("{key} must be a number, got {}", type_of(&value))))
}

/// An optional array whose items deserialize as `T`; errors give the item's path.
fn list<T: DeserializeOwned>(object: &Object, key: &str, path: &str) -> Result<Option<Vec<T>>, JsError> {
    let value = field(object, key);
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    if !Array::is_array(&value) {
        return Err(JsError::new(&format!("{path} must be an array, got {}", type_of(&value))));
    }
    let items: Array = value.unchecked_into();
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            serde_wasm_bindgen::from_value(item).map_err(|err| {
                let message = Reflect::get(&err.into(), &JsValue::from_str("message"))
                    .ok()
                    .and_then(|message| message.as_string())
                    .unwrap_or_default();
                JsError::new(&format!("{path}[{i}]: {message}"))
            })
        })
        .collect::<Result<Vec<T>, JsError>>()
        .map(Some)
}

/// A JS value's type in words, for error messages.
fn type_of(value: &JsValue) -> String {
    if Array::is_array(value) {
        "an array".into()
    } else if value.is_null() {
        "null".into()
    } else {
        format!("a {}", value.js_typeof().as_string().unwrap_or_default())
    }
}

fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    let serializer = serde_wasm_bindgen::Serializer::new().serialize_missing_as_null(true);
    value.serialize(&serializer).map_err(|err| JsError::new(&err.to_string()))
}

fn js_error(err: Error) -> JsError {
    JsError::new(err.message())
}
