//! The WebAssembly boundary: the only module that knows about wasm-bindgen and JS.
//!
//! It exports the core's [`Session`](crate::Session), [`FactStore`](crate::FactStore),
//! [`Playground`](crate::Playground) and [`ForgettingPlayground`](crate::ForgettingPlayground)
//! under the same names, turns JS values into the core's options, hands state back as plain JS
//! objects (camelCase, `null` for absent values), and turns every core [`Error`](crate::Error)
//! into a thrown JS `Error` with the core's message. No JS input can reach a panic.
//!
//! One file a concern, each built only with its Cargo feature, named once on its `mod` line:
//! `session.rs`, `store.rs`, `playground.rs`, `forgetting_playground.rs` and `import.rs` (the
//! classes and functions JS sees), `options/` (the options reader behind `withConfig`),
//! `snapshot.rs` (states into plain JS objects) and `types.rs` (the TypeScript types).

use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::Error;

#[cfg(feature = "element-forgetting-playground")]
mod forgetting_playground;
#[cfg(feature = "import")]
mod import;
#[cfg(feature = "with-config")]
mod options;
#[cfg(feature = "element-playground")]
mod playground;
#[cfg(feature = "element-compaction")]
mod session;
mod snapshot;
#[cfg(feature = "element-forgetting")]
mod store;
mod types;

// The exports at `wasm::`, as before the split, each with its module's feature.
#[cfg(feature = "element-forgetting-playground")]
pub use forgetting_playground::JsForgettingPlayground;
#[cfg(feature = "import")]
pub use import::import_conversation;
#[cfg(all(feature = "element-playground", feature = "with-config"))]
pub use playground::framework_triggers;
#[cfg(feature = "element-playground")]
pub use playground::JsPlayground;
#[cfg(feature = "element-compaction")]
pub use session::JsSession;
#[cfg(feature = "element-forgetting")]
pub use store::JsFactStore;

/// A snapshot as a plain JS value (see [`snapshot`]).
fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    snapshot::to_value(value).map_err(|err| JsError::new(err.message()))
}

/// A turn count from JS: a whole number from 0.
#[cfg(any(feature = "element-compaction", feature = "element-playground"))]
fn turn_count(turn: f64) -> Result<u32, JsError> {
    crate::error::whole_number("turn", turn, 0, u32::MAX).map_err(js_error)
}

/// The core's error as a JS `Error`, its option named as JS names it (`hotN`, not `hot_n`).
fn js_error(err: Error) -> JsError {
    JsError::new(&err.js_message())
}
