//! The elements' own cores, built without `options`: they take their settings as numbers
//! (`withSettings`) where the full core reads an options object (`withConfig`, tests/wasm.rs).
//! Each model and each refusal must be the native core's for the same options. Run in headless
//! Chromium by `make test-wasm`, with the elements' features only.

#![cfg(all(target_arch = "wasm32", not(feature = "options")))]

use agent_memory_widgets::wasm::{JsFactStore, JsForgettingPlayground, JsPlayground, JsSession};
use agent_memory_widgets::{
    FactStore, ForgettingPlayground, Playground, Session, SessionOptions, StoreOptions,
};
use js_sys::{Reflect, JSON};
use wasm_bindgen::{JsError, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

/// The same JSON text: keys in the same order, numbers to the last digit.
fn assert_same_state(actual: Result<JsValue, JsError>, native: &impl serde::Serialize, what: &str) {
    let serializer = serde_wasm_bindgen::Serializer::new().serialize_missing_as_null(true);
    let expected = native.serialize(&serializer).unwrap();
    let text = |value: &JsValue| JSON::stringify(value).unwrap().as_string().unwrap();
    assert_eq!(text(&actual.unwrap()), text(&expected), "{what}");
}

/// The message of the `Error` JS would catch.
fn message(error: JsError) -> String {
    let value: JsValue = error.into();
    Reflect::get(&value, &JsValue::from_str("message"))
        .unwrap()
        .as_string()
        .unwrap()
}

fn session_options(
    budget: Option<f64>,
    hot_n: Option<f64>,
    compact_at: Option<f64>,
) -> SessionOptions {
    SessionOptions {
        budget,
        hot_n,
        compact_at,
        ..SessionOptions::default()
    }
}

#[wasm_bindgen_test]
fn settings_as_numbers_play_what_the_same_options_play_natively() {
    for (budget, hot_n, compact_at) in [
        (None, None, None),
        (Some(30.0), Some(3.0), Some(80.0)),
        (Some(100.0), Some(1.0), None),
    ] {
        let mut session = JsSession::with_settings(budget, hot_n, compact_at).unwrap();
        let mut native = Session::from_options(session_options(budget, hot_n, compact_at)).unwrap();
        session.go_to(10.0).unwrap();
        native.go_to(10);
        assert_same_state(session.state(), &native.state(), "session");

        let mut playground = JsPlayground::with_settings(budget, hot_n, compact_at).unwrap();
        let mut native =
            Playground::from_options(session_options(budget, hot_n, compact_at)).unwrap();
        playground.go_to(7.0).unwrap();
        native.go_to(7);
        assert_same_state(playground.state(), &native.state(), "playground");
    }

    let store = JsFactStore::with_settings(Some(6.0), Some(5.0), Some(0.25), Some(9.0), None);
    let native = FactStore::from_options(StoreOptions {
        half_life: Some(6.0),
        capacity: Some(5.0),
        access_boost: Some(0.25),
        semantic_half_life: Some(9.0),
        ..StoreOptions::default()
    })
    .unwrap();
    assert_same_state(store.unwrap().state(), &native.state(), "store");

    let playground = JsForgettingPlayground::with_settings(
        Some(3.0),
        Some(6.0),
        JsValue::from_str("refund-desk"),
    );
    let native =
        ForgettingPlayground::from_options(Some(3.0), Some(6.0), Some("refund-desk")).unwrap();
    assert_same_state(
        playground.unwrap().state(),
        &native.state(),
        "forgetting playground",
    );
}

#[wasm_bindgen_test]
fn bad_settings_are_refused_in_the_native_core_s_words() {
    let refused = message(
        JsSession::with_settings(None, Some(0.0), None)
            .err()
            .unwrap(),
    );
    let native = Session::from_options(session_options(None, Some(0.0), None)).unwrap_err();
    assert_eq!(refused, native.js_message());
    assert_eq!(refused, "hotN must be a whole number of at least 1, got 0");
    assert_eq!(
        message(
            JsPlayground::with_settings(Some(f64::NAN), None, None)
                .err()
                .unwrap()
        ),
        "budget must be a whole number of at least 1, got NaN"
    );
    assert_eq!(
        message(
            JsPlayground::with_settings(None, None, Some(101.0))
                .err()
                .unwrap()
        ),
        "compactAt must be a whole number of at most 100, got 101"
    );
    assert_eq!(
        message(
            JsFactStore::with_settings(None, None, None, Some(-1.0), None)
                .err()
                .unwrap()
        ),
        FactStore::from_options(StoreOptions {
            semantic_half_life: Some(-1.0),
            ..StoreOptions::default()
        })
        .unwrap_err()
        .js_message()
    );
    let stream = |value: JsValue| {
        message(
            JsForgettingPlayground::with_settings(None, None, value)
                .err()
                .unwrap(),
        )
    };
    assert_eq!(
        stream(JsValue::from_str("all")),
        "unknown stream \"all\"; use refund-desk or tickets"
    );
    // A text's length is checked before it is copied into wasm memory, as withConfig checks it.
    assert_eq!(stream(JsValue::from(4.0)), "stream must be a string");
    assert_eq!(
        stream(JsValue::from_str(&"x".repeat(20_001))),
        "stream: must have at most 10000 characters, got 20001"
    );
    // The module keeps working after each refusal.
    assert!(JsSession::with_settings(Some(40.0), Some(2.0), None).is_ok());
}
