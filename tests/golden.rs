//! Golden traces: every state of a fixed walk through both widgets, committed as JSON under
//! `tests/golden/`. The wasm build replays the same walk through the JS API and must match
//! value for value (`tests/wasm.rs`). Regenerate after a deliberate change with
//! `UPDATE_GOLDEN=1 cargo test --test golden`, and review the diff.

use agent_memory_widgets::{import_conversation, Named, Playground, SessionOptions};
use agent_memory_widgets::{EventIndex, FactId};
use agent_memory_widgets::{FactStore, Session, Time};
use serde_json::{json, Value};

/// The session walk: the whole script, one step past the end, a reset, then four turns.
fn session_trace() -> Value {
    let mut session = Session::default();
    let mut trace = vec![json!({ "op": "state", "state": session.state() })];
    for _ in 0..11 {
        let step = session.add_turn();
        trace.push(json!({ "op": "addTurn", "result": step, "state": session.state() }));
    }
    session.reset();
    trace.push(json!({ "op": "reset", "state": session.state() }));
    for _ in 0..4 {
        let step = session.add_turn();
        trace.push(json!({ "op": "addTurn", "result": step, "state": session.state() }));
    }
    Value::Array(trace)
}

/// The store walk: the slider end to end, a reader's read, both events at different times, a
/// consolidation pass, and the slider dragged back across them.
fn fact_store_trace() -> Value {
    let mut store = FactStore::default();
    let mut trace = Vec::new();
    let set_time = |store: &mut FactStore, trace: &mut Vec<Value>, t: f64| {
        store.set_time(Time::new(t).unwrap());
        trace.push(json!({ "op": "setTime", "arg": t, "state": store.state() }));
    };
    for t in 0..=12 {
        set_time(&mut store, &mut trace, f64::from(t));
    }
    set_time(&mut store, &mut trace, 2.5);
    let read = store.read(FactId(2)).unwrap();
    trace.push(json!({ "op": "read", "arg": 2, "result": read, "state": store.state() }));
    set_time(&mut store, &mut trace, 6.0);
    let fired = store.fire(EventIndex(1)).unwrap();
    trace.push(json!({ "op": "fire", "arg": 1, "result": fired, "state": store.state() }));
    set_time(&mut store, &mut trace, 9.25);
    let fired = store.fire(EventIndex(0)).unwrap();
    trace.push(json!({ "op": "fire", "arg": 0, "result": fired, "state": store.state() }));
    set_time(&mut store, &mut trace, 10.0);
    let distilled = store.consolidate().unwrap();
    trace.push(json!({ "op": "consolidate", "result": distilled, "state": store.state() }));
    for t in (0..=12).rev() {
        set_time(&mut store, &mut trace, f64::from(t));
    }
    store.reset();
    trace.push(json!({ "op": "reset", "state": store.state() }));
    let fired = store.fire(EventIndex(1)).unwrap();
    trace.push(json!({ "op": "fire", "arg": 1, "result": fired, "state": store.state() }));
    for t in [2.0, 5.0, 12.0] {
        set_time(&mut store, &mut trace, t);
    }
    Value::Array(trace)
}

fn check(name: &str, actual: Value) {
    let path = format!("{}/tests/golden/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let pretty = serde_json::to_string_pretty(&actual).unwrap() + "\n";
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, pretty).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!("{path} is missing: run UPDATE_GOLDEN=1 cargo test --test golden")
    });
    let expected: Value = serde_json::from_str(&expected).unwrap();
    assert!(
        expected == actual,
        "{name} differs from {path}; if the change is deliberate, run UPDATE_GOLDEN=1 cargo test --test golden and review the diff"
    );
}

/// Each policy's series, peaks, compactions, what each compaction lost, and what its window
/// still names at every turn of a
/// session: the refund desk at its seed settings, and τ-bench's airline task 26 (the page's
/// second session, www/sessions/) at the budget it is played at.
fn playground_series(options: SessionOptions) -> Value {
    let mut playground = Playground::from_options(options).unwrap();
    let total = playground.state().total_turns;
    let mut kept = Vec::new();
    for turn in 0..=total {
        playground.go_to(turn);
        let state = playground.state();
        // One letter a fact: M meaning, B bare term, G gone, N not yet said.
        let letters = state.policies.iter().map(|row| {
            row.kept
                .iter()
                .map(|named| match named {
                    Named::Meaning => 'M',
                    Named::BareTerm => 'B',
                    Named::Gone => 'G',
                    Named::NotYetSaid => 'N',
                })
                .collect::<String>()
        });
        kept.push(json!(letters.collect::<Vec<_>>()));
    }
    let state = playground.state();
    json!({
        "budget": state.budget,
        "facts": state.facts,
        "factsFrom": state.facts_from,
        "policies": state.policies.iter().map(|row| json!({
            "id": row.info.id,
            "series": row.series,
            "peaks": row.peaks,
            "compactions": row.compactions,
            "losses": row.losses,
        })).collect::<Vec<_>>(),
        "keptByTurn": kept,
    })
}

/// The airline session as the page plays it: its log read by the importer, at its budget.
fn airline() -> SessionOptions {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/www/sessions/tau-bench-airline-26.json"
    );
    let log = std::fs::read_to_string(path).unwrap();
    let budget = serde_json::from_str::<Value>(&log).unwrap()["budget"].as_f64();
    SessionOptions {
        budget,
        script: Some(import_conversation(&log).unwrap().turns),
        ..SessionOptions::default()
    }
}

#[test]
fn both_sessions_playground_series_match_their_golden_traces() {
    check(
        "playground_refund_desk",
        playground_series(SessionOptions::default()),
    );
    check("playground_airline", playground_series(airline()));
}

#[test]
fn the_session_walk_matches_its_golden_trace() {
    check("session", session_trace());
}

#[test]
fn the_fact_store_walk_matches_its_golden_trace() {
    check("fact_store", fact_store_trace());
}
