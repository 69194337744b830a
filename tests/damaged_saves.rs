//! A retained session's save (issue 52, items 4 and 5) damaged in each field a hand edit or a
//! cut-short file could break: loading it is an error that names the field, never a panic, and
//! the session it was saved from is unchanged.
//!
//! Loading is what the `deserialize` feature adds, so this file needs it.

#![cfg(feature = "deserialize")]

use std::panic::{catch_unwind, AssertUnwindSafe};

use agent_memory_widgets::{
    policy, Extractive, PolicyId, SavedSession, Session, SessionConfig, Turn,
};
use serde_json::{json, Value};

/// A session under HotWarmCold with a retention of 2 that has forgotten turns 1 to 7: its
/// save holds a window (`SavedWindow`) and the policy's memory.
fn retained() -> Session {
    let config = SessionConfig::builder()
        .budget(60)
        .hot_n(2)
        .retention(2)
        .build()
        .unwrap();
    let mut session = Session::live(config, policy(PolicyId::HotWarmCold));
    for i in 0..12 {
        let text = format!("Where is ORD-{i}? It was due on day {i}.");
        session.push(Turn::user(&text).unwrap()).unwrap();
    }
    session
}

/// Loads `load`'s save under HotWarmCold, and checks that it fails without a panic, with a
/// message that names `field` (when given), and that `session` is as it was.
fn check(
    case: &str,
    session: &Session,
    field: Option<&str>,
    load: &dyn Fn() -> Result<(), String>,
) {
    let (state, save) = (session.state(), session.save());
    let result = catch_unwind(AssertUnwindSafe(load));
    let message = match result {
        Err(_) => panic!("{case}: the load panicked"),
        Ok(Ok(())) => panic!("{case}: the damaged save loaded"),
        Ok(Err(message)) => message,
    };
    if let Some(field) = field {
        assert!(
            message.contains(field),
            "{case}: {message:?} does not name {field}"
        );
    }
    assert_eq!(session.state(), state, "{case}");
    assert_eq!(session.save(), save, "{case}");
}

fn load_json(value: Value) -> Result<(), String> {
    let saved: SavedSession = serde_json::from_value(value).map_err(|e| e.to_string())?;
    Session::load(saved, policy(PolicyId::HotWarmCold), Box::new(Extractive))
        .map(drop)
        .map_err(|e| e.to_string())
}

#[test]
fn a_damaged_json_save_is_an_error_that_names_the_field() {
    let session = retained();
    let saved = serde_json::to_value(&session).unwrap();
    assert_eq!(
        saved["window"]["forgotten"], 7,
        "the save holds turns 8 to 12"
    );
    type Damage = fn(&mut Value);
    let cases: [(&str, Option<&str>, Damage); 16] = [
        (
            "a verbatim turn never played",
            Some("window.verbatim[0]"),
            |v| v["window"]["verbatim"][0]["turn"] = json!(99),
        ),
        (
            "a verbatim turn forgotten",
            Some("window.verbatim[0]"),
            |v| v["window"]["verbatim"][0]["turn"] = json!(1),
        ),
        ("verbatim turn 0", Some("window.verbatim[0]"), |v| {
            v["window"]["verbatim"][0]["turn"] = json!(0)
        }),
        ("a verbatim turn twice", Some("window.verbatim[3]"), |v| {
            let first = v["window"]["verbatim"][0].clone();
            v["window"]["verbatim"].as_array_mut().unwrap().push(first);
        }),
        (
            "a WARM line of a turn never played",
            Some("window.warm[0]"),
            |v| v["window"]["warm"][0]["turns"] = json!([50]),
        ),
        (
            "a COLD gist of a turn never played",
            Some("window.cold"),
            |v| v["window"]["cold"] = json!({ "turns": [77], "text": "ORD-77" }),
        ),
        ("more turns forgotten than played", Some("added"), |v| {
            v["window"]["forgotten"] = json!(100)
        }),
        ("fewer turns played than held", Some("added"), |v| {
            v["added"] = json!(3)
        }),
        ("a turn of the save cut off", Some("added"), |v| {
            v["turns"].as_array_mut().unwrap().pop();
        }),
        ("a step missing", Some("window.log"), |v| {
            v["window"]["log"].as_array_mut().unwrap().pop();
        }),
        ("a step of another turn", Some("window.log"), |v| {
            v["window"]["log"][0]["turn"] = json!(99)
        }),
        ("saved under another policy", Some("policy"), |v| {
            v["policy"] = json!("summary-buffer")
        }),
        ("memory another policy gives", Some("policyMemory"), |v| {
            v["window"]["policyMemory"] = json!({ "turns": [1, 2], "texts": ["x"], "count": 5 })
        }),
        // serde's own messages name the type expected, not the field (no path is kept).
        ("a string for the verbatim turns", None, |v| {
            v["window"]["verbatim"] = json!("x")
        }),
        ("a string for a count", None, |v| v["added"] = json!("12")),
        ("a negative turn", None, |v| {
            v["window"]["log"][0]["turn"] = json!(-1)
        }),
    ];
    for (case, field, damage) in cases {
        let mut value = saved.clone();
        damage(&mut value);
        check(case, &session, field, &|| load_json(value.clone()));
    }
    // Undamaged, the same save loads.
    assert!(load_json(saved).is_ok());
}

#[test]
fn a_postcard_save_cut_short_anywhere_is_an_error() {
    let session = retained();
    let bytes = postcard::to_allocvec(&session).unwrap();
    for end in 0..bytes.len() {
        let cut = &bytes[..end];
        check(
            &format!("{end} of {} bytes", bytes.len()),
            &session,
            None,
            &|| {
                let saved: SavedSession = postcard::from_bytes(cut).map_err(|e| e.to_string())?;
                Session::load(saved, policy(PolicyId::HotWarmCold), Box::new(Extractive))
                    .map(drop)
                    .map_err(|e| e.to_string())
            },
        );
    }
}
