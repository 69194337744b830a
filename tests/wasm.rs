//! The wasm build, through the API JS sees: the same exported methods, the same `JsValue`s.
//! Run in headless Chromium by `make test-wasm`
//! (`WASM_BINDGEN_USE_BROWSER=1 cargo test --target wasm32-unknown-unknown --test wasm`).

// The wasm boundary with every export (`importConversation` too): the default features.
#![cfg(all(
    target_arch = "wasm32",
    feature = "element-compaction",
    feature = "element-forgetting",
    feature = "import"
))]

use agent_memory_widgets::wasm::{JsFactStore, JsSession};
use js_sys::{Array, Object, Reflect, JSON};
use wasm_bindgen::{JsCast, JsError, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

fn get(value: &JsValue, key: &str) -> JsValue {
    Reflect::get(value, &JsValue::from_str(key)).unwrap()
}

fn options(json: &str) -> JsValue {
    JSON::parse(json).unwrap()
}

/// The message of the `Error` JS would catch.
fn message(error: JsError) -> String {
    let value: JsValue = error.into();
    assert!(
        value.is_instance_of::<js_sys::Error>(),
        "not an Error: {value:?}"
    );
    get(&value, "message").as_string().unwrap()
}

/// Deep equality of two JS values, numbers bit for bit, keys in any order.
fn assert_same(actual: &JsValue, expected: &JsValue, path: &str) {
    if let (Some(a), Some(b)) = (actual.as_f64(), expected.as_f64()) {
        assert_eq!(a.to_bits(), b.to_bits(), "{path}: {a} vs {b}");
    } else if Array::is_array(expected) {
        let (a, b): (Array, Array) = (
            actual.clone().dyn_into().unwrap(),
            expected.clone().unchecked_into(),
        );
        assert_eq!(a.length(), b.length(), "{path}: length");
        for i in 0..b.length() {
            assert_same(&a.get(i), &b.get(i), &format!("{path}[{i}]"));
        }
    } else if expected.is_object() {
        assert!(
            actual.is_object(),
            "{path}: expected an object, got {actual:?}"
        );
        let keys = |v: &JsValue| {
            let mut keys: Vec<String> = Object::keys(v.unchecked_ref::<Object>())
                .iter()
                .map(|k| k.as_string().unwrap())
                .collect();
            keys.sort();
            keys
        };
        assert_eq!(keys(actual), keys(expected), "{path}: keys");
        for key in keys(expected) {
            assert_same(
                &get(actual, &key),
                &get(expected, &key),
                &format!("{path}.{key}"),
            );
        }
    } else {
        assert!(
            actual.is_null() == expected.is_null() && !actual.is_undefined(),
            "{path}: {actual:?} vs {expected:?}"
        );
        assert_eq!(actual.as_string(), expected.as_string(), "{path}");
        assert_eq!(actual.as_bool(), expected.as_bool(), "{path}");
    }
}

#[wasm_bindgen_test]
fn crossings_fall_on_turns_4_6_8_9_and_10() {
    let mut session = JsSession::new();
    let mut crossed = Vec::new();
    loop {
        let step = session.add_turn().unwrap();
        if step.is_null() {
            break;
        }
        assert!(get(&step, "tokensAfter").as_f64().unwrap() <= 40.0);
        if get(&step, "crossed").as_bool().unwrap() {
            crossed.push(get(&step, "turn").as_f64().unwrap() as u32);
        }
    }
    assert_eq!(crossed, [4, 6, 8, 9, 10]);
    let state = session.state().unwrap();
    assert!(get(&state, "done").as_bool().unwrap());
}

#[wasm_bindgen_test]
fn a_script_turn_takes_a_role_and_a_tool_call_id_and_script_gives_them_back() {
    let turns = r#"[{"speaker": "assistant", "kind": "decision", "text": "lookup(ORD-3300)", "summary": "looked it up", "toolCallId": "call_1"},
                    {"speaker": "assistant", "kind": "chatter", "text": "One moment.", "role": "assistant", "summary": null}]"#;
    let session = JsSession::with_config(options(&format!(r#"{{"script": {turns}}}"#))).unwrap();
    assert_same(&session.script().unwrap(), &options(turns), "script");
    let error = |turn: &str| {
        message(
            JsSession::with_config(options(&format!(r#"{{"script": [{turn}]}}"#)))
                .err()
                .unwrap(),
        )
    };
    assert_eq!(
        error(r#"{"speaker": "Dana", "kind": "chatter", "text": "hi", "role": "bot"}"#),
        "script[0].role (turn 1): unknown role \"bot\"; use user, assistant, tool or system"
    );
    assert_eq!(
        error(r#"{"speaker": "Dana", "kind": "chatter", "text": "hi", "toolCallId": " "}"#),
        "script[0].toolCallId (turn 1): must be a non-empty text"
    );
}

#[wasm_bindgen_test]
fn bad_configs_throw_errors_and_the_module_keeps_working() {
    let session_error = |json: &str| message(JsSession::with_config(options(json)).err().unwrap());
    assert_eq!(
        session_error(r#"{"budget": 0}"#),
        "budget must be a whole number of at least 1, got 0"
    );
    assert_eq!(
        session_error(r#"{"hotN": 1.5}"#),
        "hotN must be a whole number of at least 1, got 1.5"
    );
    assert_eq!(
        session_error(r#"{"budget": "40"}"#),
        "budget must be a number, got a string"
    );
    assert_eq!(
        session_error(r#"{"hotn": 2}"#),
        "unknown option \"hotn\" in withConfig; use any of: budget, hotN, script, compactAt, compactTo, tokens"
    );
    assert_eq!(
        session_error(r#"{"script": [{"speaker": "Dana", "kind": "smalltalk", "text": "hi"}]}"#),
        "script[0].kind (turn 1): unknown kind \"smalltalk\"; use chatter, decision, tool or question"
    );
    assert_eq!(
        session_error(r#"{"script": [{"speaker": "Dana", "kind": 5, "text": "hi"}]}"#),
        "script[0].kind must be a string, got a number"
    );
    let store_error = |json: &str| message(JsFactStore::with_config(options(json)).err().unwrap());
    assert_eq!(
        store_error(r#"{"scenario": {"facts": [{"text": "a", "importance": 2}]}}"#),
        "facts[0].importance must be a number above 0 and at most 1, got 2"
    );
    assert_eq!(
        store_error(r#"{"scenario": {"facts": [{"text": "a", "importance": "high"}]}}"#),
        "facts[0].importance must be a number, got a string"
    );
    assert_eq!(
        store_error(r#"{"halfLife": -1}"#),
        "halfLife must be a number from 0.001 to 10000000000000, got -1"
    );
    assert_eq!(
        store_error(r#"{"capacity": 0}"#),
        "capacity must be a whole number of at least 1, got 0"
    );
    assert_eq!(
        store_error(r#"{"accessBoost": 1e9}"#),
        "accessBoost must be a number from 0 to 1000, got 1000000000"
    );
    let mut store = JsFactStore::new();
    assert_eq!(
        message(store.set_time(f64::NAN).err().unwrap()),
        "t must be a number from 0 to 10000000000000, got NaN"
    );
    assert_eq!(
        message(store.fire(7.0).err().unwrap()),
        "there is no write event 7: events are numbered 0 to 1"
    );
    assert_eq!(
        message(store.read(-1.0).err().unwrap()),
        "id must be a whole number of at least 0, got -1"
    );

    // After every error, new objects and the old ones still work.
    let mut session = JsSession::new();
    assert!(!session.add_turn().unwrap().is_null());
    store.set_time(6.0).unwrap();
    assert_eq!(store.time(), 6.0);
    let configured = JsSession::with_config(options(r#"{"budget": 60, "hotN": 3}"#)).unwrap();
    assert_eq!(
        get(&configured.state().unwrap(), "budget").as_f64(),
        Some(60.0)
    );
}

/// A JS object whose getter for `key` throws, built with `eval`-free JS: `Object.defineProperty`.
fn throwing_getter(key: &str) -> JsValue {
    let object = Object::new();
    let descriptor = Object::new();
    let thrower = js_sys::Function::new_no_args("throw new Error('no access')");
    Reflect::set(&descriptor, &"get".into(), &thrower).unwrap();
    Reflect::set(&descriptor, &"enumerable".into(), &true.into()).unwrap();
    Object::define_property(&object, &key.into(), &descriptor);
    object.into()
}

#[wasm_bindgen_test]
fn hostile_options_are_errors_that_name_the_option_and_leave_memory_alone() {
    // A getter that throws is reported, not silently replaced by the default.
    assert_eq!(
        message(
            JsSession::with_config(throwing_getter("budget"))
                .err()
                .unwrap()
        ),
        "budget could not be read: it threw no access"
    );
    assert_eq!(
        message(
            JsFactStore::with_config(throwing_getter("halfLife"))
                .err()
                .unwrap()
        ),
        "halfLife could not be read: it threw no access"
    );
    // An array that claims a huge length is refused before anything is reserved for it.
    let memory = || {
        wasm_bindgen::memory()
            .unchecked_into::<js_sys::WebAssembly::Memory>()
            .buffer()
            .unchecked_into::<js_sys::ArrayBuffer>()
            .byte_length()
    };
    let before = memory();
    for length in [1e6, 1e8, 4294967295.0] {
        let script = Array::new();
        Reflect::set(&script, &"length".into(), &length.into()).unwrap();
        let config = Object::new();
        Reflect::set(&config, &"script".into(), &script).unwrap();
        let err = message(JsSession::with_config(config.into()).err().unwrap());
        assert!(
            err.starts_with("script must have at most 100000 items, got "),
            "{err}"
        );
    }
    assert_eq!(memory(), before);
    // Types are named the way a person says them.
    assert_eq!(
        message(
            JsSession::with_config(options(r#"{"script": [null, 1]}"#))
                .err()
                .unwrap()
        ),
        "script[0] must be an object, got null"
    );
    let config = Object::new();
    let script = Array::of1(&JsValue::UNDEFINED);
    Reflect::set(&config, &"script".into(), &script).unwrap();
    assert_eq!(
        message(JsSession::with_config(config.into()).err().unwrap()),
        "script[0] must be an object, got undefined"
    );
    // Half-lives whose scores would overflow are refused.
    assert_eq!(
        message(
            JsFactStore::with_config(options(r#"{"halfLife": 1e308}"#))
                .err()
                .unwrap()
        ),
        "halfLife must be a number from 0.001 to 10000000000000, got 1e308"
    );
}

#[wasm_bindgen_test]
fn state_shapes_are_plain_objects_with_null_for_absent_values() {
    let keys = |value: &JsValue| {
        Object::keys(value.unchecked_ref::<Object>())
            .iter()
            .map(|k| k.as_string().unwrap())
            .collect::<Vec<_>>()
    };
    let session = JsSession::new().state().unwrap();
    assert_eq!(
        keys(&session),
        [
            "turn",
            "totalTurns",
            "budget",
            "hotN",
            "tokens",
            "overBudget",
            "room",
            "overBudgetReason",
            "done",
            "crossings",
            "hot",
            "warm",
            "cold",
            "dropped",
            "log",
            "transcript",
            "messages"
        ]
    );
    assert!(get(&session, "cold").is_null());
    assert!(get(&session, "overBudgetReason").is_null());

    let mut session = JsSession::new();
    let step = session.add_turn().unwrap();
    assert_eq!(
        keys(&step),
        [
            "turn",
            "tokensBefore",
            "peakTokens",
            "tokensAfter",
            "crossed",
            "compacted",
            "toWarm",
            "toCold",
            "dropped",
            "overBudget",
            "room",
            "noSmaller"
        ]
    );
    let hot = get(&session.state().unwrap(), "hot")
        .unchecked_into::<Array>()
        .get(0);
    assert_eq!(keys(&hot), ["turn", "speaker", "kind", "text", "tokens"]);

    let store = JsFactStore::new().state().unwrap();
    assert_eq!(
        keys(&store),
        [
            "t",
            "halfLife",
            "capacity",
            "accessBoost",
            "semanticHalfLife",
            "proceduralHalfLife",
            "consolidatedAt",
            "canConsolidate",
            "activeCount",
            "facts",
            "events",
            "reads",
            "log"
        ]
    );
    let fact = get(&store, "facts").unchecked_into::<Array>().get(0);
    assert_eq!(
        keys(&fact),
        [
            "id",
            "text",
            "kind",
            "importance",
            "lastTouch",
            "age",
            "reads",
            "recency",
            "access",
            "score",
            "status",
            "supersededBy",
            "halfLife",
            "sources",
            "forecast",
        ]
    );
    assert!(get(&fact, "supersededBy").is_null());
    let event = JsFactStore::new()
        .events()
        .unwrap()
        .unchecked_into::<Array>()
        .get(0);
    assert_eq!(keys(&event), ["index", "label", "fact", "firedAt"]);
    assert!(get(&event, "firedAt").is_null());
}

#[wasm_bindgen_test]
fn the_session_golden_trace_is_reproduced_bit_for_bit() {
    let trace: Array = JSON::parse(include_str!("golden/session.json"))
        .unwrap()
        .unchecked_into();
    let mut session = JsSession::new();
    for (i, entry) in trace.iter().enumerate() {
        let op = get(&entry, "op").as_string().unwrap();
        match op.as_str() {
            "addTurn" => assert_same(
                &session.add_turn().unwrap(),
                &get(&entry, "result"),
                &format!("[{i}].result"),
            ),
            "reset" => session.reset(),
            "state" => {}
            other => panic!("unknown op {other}"),
        }
        assert_same(
            &session.state().unwrap(),
            &get(&entry, "state"),
            &format!("[{i}] {op}"),
        );
    }
}

#[wasm_bindgen_test]
fn the_fact_store_golden_trace_is_reproduced_bit_for_bit() {
    let trace: Array = JSON::parse(include_str!("golden/fact_store.json"))
        .unwrap()
        .unchecked_into();
    let mut store = JsFactStore::new();
    for (i, entry) in trace.iter().enumerate() {
        let op = get(&entry, "op").as_string().unwrap();
        let arg = get(&entry, "arg").as_f64().unwrap_or(0.0);
        match op.as_str() {
            "setTime" => store.set_time(arg).unwrap(),
            "fire" => assert_same(
                &store.fire(arg).unwrap(),
                &get(&entry, "result"),
                &format!("[{i}].result"),
            ),
            "read" => assert_same(
                &store.read(arg).unwrap(),
                &get(&entry, "result"),
                &format!("[{i}].result"),
            ),
            "consolidate" => assert_same(
                &store.consolidate().unwrap(),
                &get(&entry, "result"),
                &format!("[{i}].result"),
            ),
            "reset" => store.reset(),
            other => panic!("unknown op {other}"),
        }
        assert_same(
            &store.state().unwrap(),
            &get(&entry, "state"),
            &format!("[{i}] {op}"),
        );
    }
}

#[wasm_bindgen_test]
fn the_playground_steps_seven_policies_and_reports_the_facts_kept() {
    use agent_memory_widgets::wasm::JsPlayground;
    let mut playground = JsPlayground::new();
    playground.go_to(10.0).unwrap();
    assert_eq!(playground.turn(), 10);
    let state = playground.state().unwrap();
    let policies: Array = get(&state, "policies").unchecked_into();
    assert_eq!(policies.length(), 7);
    let ours = policies.get(0);
    assert_eq!(
        get(&get(&ours, "info"), "id").as_string().unwrap(),
        "hot-warm-cold"
    );
    let kept: Vec<String> = Array::from(&get(&ours, "kept"))
        .iter()
        .map(|k| k.as_string().unwrap())
        .collect();
    assert_eq!(
        kept,
        ["meaning", "bareTerm", "bareTerm", "bareTerm", "bareTerm", "bareTerm", "meaning"]
    );
    assert!(get(&state, "factsRule")
        .as_string()
        .unwrap()
        .contains("bare term"));
    assert_eq!(get(&get(&ours, "window"), "tokens").as_f64(), Some(39.0));
    assert_eq!(
        message(playground.go_to(-1.0).err().unwrap()),
        "turn must be a whole number of at least 0, got -1"
    );
}

#[wasm_bindgen_test]
fn a_fired_event_and_the_consolidation_pass_can_be_taken_off_the_timeline() {
    let mut store = JsFactStore::new();
    store.set_time(6.0).unwrap();
    store.fire(1.0).unwrap();
    assert_eq!(store.unfire(1.0).unwrap(), 6.0);
    let fired_at = |store: &JsFactStore| {
        get(
            &store.events().unwrap().unchecked_into::<Array>().get(1),
            "firedAt",
        )
    };
    assert!(fired_at(&store).is_null());
    assert_eq!(
        message(store.unfire(1.0).err().unwrap()),
        "write event 1 has not been fired"
    );
    assert_eq!(
        message(store.unfire(-1.0).err().unwrap()),
        "index must be a whole number of at least 0, got -1"
    );
    store.set_time(2.0).unwrap();
    store.fire(1.0).unwrap();
    assert_eq!(fired_at(&store).as_f64(), Some(2.0));
    assert_eq!(
        message(store.unconsolidate().err().unwrap()),
        "consolidation has not run"
    );
    store.consolidate().unwrap();
    assert_eq!(store.unconsolidate().unwrap(), 2.0);
    assert!(get(&store.state().unwrap(), "consolidatedAt").is_null());
}

#[wasm_bindgen_test]
fn the_forgetting_playground_compares_seven_policies_and_names_a_bad_option() {
    use agent_memory_widgets::wasm::JsForgettingPlayground;
    let mut playground =
        JsForgettingPlayground::with_config(options(r#"{ "stream": "refund-desk" }"#)).unwrap();
    playground.set_time(5.0).unwrap();
    assert_eq!(playground.time(), 5.0);
    let state = playground.state().unwrap();
    assert_eq!(get(&state, "reads").as_f64(), Some(3.0));
    assert_eq!(get(&state, "stream").as_string().unwrap(), "refund-desk");
    let policies: Array = get(&state, "policies").unchecked_into();
    let hits: Vec<f64> = policies
        .iter()
        .map(|row| get(&row, "hits").as_f64().unwrap())
        .collect();
    assert_eq!(hits, [3.0, 3.0, 3.0, 2.0, 3.0, 3.0, 3.0]);
    let held: Array = get(&policies.get(6), "held").unchecked_into();
    assert_eq!(
        held.to_vec(),
        [1, 2, 5, 6].map(|id| JsValue::from(id as f64))
    );
    // The same numbers as the native core's table.
    let tickets = JsForgettingPlayground::new();
    assert_eq!(
        get(&tickets.state().unwrap(), "totalReads").as_f64(),
        Some(159.0)
    );

    for (bad, expected) in [
        (
            r#"{ "stream": "all" }"#,
            "unknown stream \"all\"; use refund-desk or tickets",
        ),
        (
            r#"{ "capacity": 0 }"#,
            "capacity must be a whole number of at least 1, got 0",
        ),
        (r#"{ "halfLife": -1 }"#, "halfLife must be"),
        (
            r#"{ "size": 4 }"#,
            "unknown option \"size\" in withConfig; use any of: halfLife, capacity, stream",
        ),
    ] {
        let Err(err) = JsForgettingPlayground::with_config(options(bad)) else {
            panic!("{bad} was accepted");
        };
        let text = message(err);
        assert!(text.starts_with(expected), "{bad}: {text}");
    }
    assert!(message(playground.set_time(-1.0).unwrap_err()).starts_with("t must be"));
}

#[wasm_bindgen_test]
fn a_conversation_imports_from_lines_or_chat_json_and_plays_back_the_same() {
    use agent_memory_widgets::wasm::import_conversation;
    let import = |text: &str| import_conversation(&js_sys::JsString::from(text));
    let turns = |read: &JsValue| get(read, "turns");
    let chat = import(
        r#"[{"role": "user", "content": [{"type": "text", "text": "Where is ORD-7?"}, {"type": "image_url"}]},
            {"role": "assistant", "content": null, "tool_calls": []},
            {"role": "tool", "tool_call_id": "1", "content": "ORD-7 shipped."}]"#,
    )
    .unwrap();
    assert_eq!(get(&chat, "format").as_string().unwrap(), "openai-chat");
    assert_eq!(
        get(&chat, "formatName").as_string().unwrap(),
        "OpenAI Chat Completions messages"
    );
    assert_eq!(get(&chat, "skipped").as_f64(), Some(0.0));
    let expected = options(
        r#"[{"speaker": "user", "kind": "question", "text": "Where is ORD-7?", "summary": null, "role": "user"},
            {"speaker": "tool", "kind": "tool", "text": "ORD-7 shipped.", "summary": null, "role": "tool",
             "toolCallId": "1"}]"#,
    );
    assert_same(&turns(&chat), &expected, "chat");
    let lines = import("[10:31] Dana: Hi!\nagent: Shipped on day 3.").unwrap();
    assert_eq!(Array::from(&turns(&lines)).length(), 2);
    assert_eq!(get(&lines, "format").as_string().unwrap(), "lines");

    // A session of the imported turns gives them back, and its state says who wrote each summary.
    let config = Object::new();
    Reflect::set(&config, &"script".into(), &turns(&chat)).unwrap();
    let mut session = JsSession::with_config(config.into()).unwrap();
    assert_same(&session.script().unwrap(), &expected, "script");
    session.add_turn().unwrap();
    let turn = Array::from(&get(&session.state().unwrap(), "transcript")).get(0);
    assert_eq!(
        get(&turn, "summary").as_string().unwrap(),
        "Where is ORD-7?"
    );
    assert_eq!(get(&turn, "summaryByRule").as_bool(), Some(true));

    for (text, expect) in [
        (
            "[{\"role\": 1, 2",
            "line 1, column 14: this is not JSON: it has a key that is not a string in quotes",
        ),
        ("{}", "line 1: a session log needs a line of Claude Code's"),
        (
            "[10:32] no speaker",
            "line 1: a conversation starts with a speaker",
        ),
        ("[{\"content\": \"x\"}]", "messages[0].role: missing"),
        (
            "[{\"role\": \"user\", \"content\": {}}]",
            "messages[0].content: must be a string or a list",
        ),
        ("[]", "conversation: no turn has any text"),
    ] {
        let got = message(import(text).err().unwrap());
        assert!(got.starts_with(expect), "{text}: {got}");
    }
    let huge = "a".repeat(64 * 1024 * 1024 + 1);
    assert_eq!(
        message(import(&huge).err().unwrap()),
        "conversation: must have at most 67108864 bytes of text"
    );
}

/// What serde-wasm-bindgen's own serializer makes of `value`, for the snapshots to match.
fn by_serde_wasm_bindgen<T: serde::Serialize>(value: &T) -> JsValue {
    let serializer = serde_wasm_bindgen::Serializer::new().serialize_missing_as_null(true);
    value.serialize(&serializer).unwrap()
}

/// The same value, field for field in the same order, with the same prototypes (plain objects
/// and arrays), `null` where serde-wasm-bindgen has `null`, and numbers bit for bit.
fn assert_identical(actual: &JsValue, expected: &JsValue, path: &str) {
    assert_eq!(
        JSON::stringify(actual).unwrap().as_string(),
        JSON::stringify(expected).unwrap().as_string(),
        "{path}: the same text, keys in the same order"
    );
    assert_same(actual, expected, path);
    fn prototypes(value: &JsValue, path: &str) {
        if Array::is_array(value) {
            for (i, item) in value.unchecked_ref::<Array>().iter().enumerate() {
                prototypes(&item, &format!("{path}[{i}]"));
            }
        } else if value.is_object() {
            assert_eq!(
                Object::get_prototype_of(value),
                Object::get_prototype_of(&Object::new()),
                "{path}: a plain object"
            );
            for key in Object::keys(value.unchecked_ref::<Object>()).iter() {
                let key = key.as_string().unwrap();
                prototypes(&get(value, &key), &format!("{path}.{key}"));
            }
        }
    }
    prototypes(actual, path);
}

#[wasm_bindgen_test]
fn every_import_fixture_reads_in_the_browser_as_it_reads_natively() {
    use agent_memory_widgets::wasm::import_conversation;
    for (name, text) in [
        ("lines.txt", include_str!("fixtures/import/lines.txt")),
        (
            "openai-chat.json",
            include_str!("fixtures/import/openai-chat.json"),
        ),
        (
            "anthropic-messages.json",
            include_str!("fixtures/import/anthropic-messages.json"),
        ),
        (
            "claude-code.jsonl",
            include_str!("fixtures/import/claude-code.jsonl"),
        ),
        ("codex.jsonl", include_str!("fixtures/import/codex.jsonl")),
        (
            "claude-code-long.jsonl",
            include_str!("fixtures/import/claude-code-long.jsonl"),
        ),
        (
            "gemini-cli.jsonl",
            include_str!("fixtures/import/gemini-cli.jsonl"),
        ),
        (
            "gemini-cli.json",
            include_str!("fixtures/import/gemini-cli.json"),
        ),
    ] {
        let js = import_conversation(&js_sys::JsString::from(text)).unwrap();
        let native = agent_memory_widgets::import_conversation(text).unwrap();
        assert_eq!(
            get(&js, "format").as_string().unwrap(),
            native.format.name(),
            "{name}"
        );
        assert_eq!(
            get(&js, "formatName").as_string().unwrap(),
            native.format.title(),
            "{name}"
        );
        assert_eq!(
            get(&js, "skipped").as_f64(),
            Some(native.skipped as f64),
            "{name}"
        );
        assert_same(
            &get(&js, "turns"),
            &by_serde_wasm_bindgen(&native.turns),
            name,
        );
        // What a session log says besides its turns, under the names the page reads.
        assert_same(
            &get(&js, "compactions"),
            &by_serde_wasm_bindgen(&native.compactions),
            name,
        );
        assert_same(
            &get(&js, "sentTokens"),
            &by_serde_wasm_bindgen(&native.sent_tokens),
            name,
        );
        assert_same(
            &get(&js, "subagent"),
            &by_serde_wasm_bindgen(&native.subagent),
            name,
        );
        assert_same(
            &get(&js, "broken"),
            &by_serde_wasm_bindgen(&native.broken),
            name,
        );
        for (key, count) in [
            ("brokenLines", native.broken_lines),
            ("rewound", native.rewound),
        ] {
            assert_eq!(get(&js, key).as_f64(), Some(count as f64), "{name}");
        }
    }
}

#[wasm_bindgen_test]
fn snapshots_are_what_serde_wasm_bindgen_makes_of_the_same_states() {
    use agent_memory_widgets::wasm::{JsForgettingPlayground, JsPlayground};
    use agent_memory_widgets::{
        EventIndex, FactStore, ForgettingPlayground, Playground, Session, StoreConfig, StreamId,
        Time,
    };

    let (mut js, mut core) = (JsSession::new(), Session::default());
    for turn in 0..=10 {
        assert_identical(
            &js.state().unwrap(),
            &by_serde_wasm_bindgen(&core.state()),
            &format!("session at turn {turn}"),
        );
        let step = core.add_turn();
        assert_identical(
            &js.add_turn().unwrap(),
            &by_serde_wasm_bindgen(&step),
            &format!("step {}", turn + 1),
        );
    }

    let (mut js, mut core) = (JsFactStore::new(), FactStore::default());
    for (t, event) in [(0.0, None), (2.0, Some(0)), (6.0, Some(1)), (12.0, None)] {
        js.set_time(t).unwrap();
        core.set_time(Time::new(t).unwrap());
        if let Some(index) = event {
            let change = core.fire(EventIndex(index)).unwrap();
            assert_identical(
                &js.fire(f64::from(index)).unwrap(),
                &by_serde_wasm_bindgen(&change),
                &format!("fire({index})"),
            );
        }
        assert_identical(
            &js.state().unwrap(),
            &by_serde_wasm_bindgen(&core.state()),
            &format!("fact store at t = {t}"),
        );
    }

    let (mut js, mut core) = (JsPlayground::new(), Playground::default());
    js.go_to(6.0).unwrap();
    core.go_to(6);
    assert_identical(
        &js.state().unwrap(),
        &by_serde_wasm_bindgen(&core.state()),
        "playground at turn 6",
    );

    let mut js = JsForgettingPlayground::new();
    let mut core = ForgettingPlayground::new(StreamId::Tickets, StoreConfig::default());
    js.set_time(120.0).unwrap();
    core.set_time(Time::new(120.0).unwrap());
    assert_identical(
        &js.state().unwrap(),
        &by_serde_wasm_bindgen(&core.state()),
        "forgetting playground at 120",
    );
}

#[wasm_bindgen_test]
fn the_tokens_option_counts_as_words_or_estimate_and_names_itself_when_wrong() {
    use agent_memory_widgets::wasm::{import_conversation, JsPlayground};
    use agent_memory_widgets::{Estimate, Session};

    // Absent or "words": the seed's state, with no `counting` key.
    let state = JsSession::with_config(options(r#"{ "tokens": "words" }"#))
        .unwrap()
        .state()
        .unwrap();
    assert_same(&state, &JsSession::new().state().unwrap(), "words");
    assert!(!Reflect::has(&state, &"counting".into()).unwrap());

    // "estimate": the state says so, and matches the core's session counted the same way.
    let mut js = JsSession::with_config(options(r#"{ "tokens": "estimate" }"#)).unwrap();
    let mut core = Session::default().with_token_counter(Estimate);
    js.go_to(10.0).unwrap();
    core.go_to(10);
    let state = js.state().unwrap();
    assert_eq!(
        get(&state, "counting").as_string().as_deref(),
        Some("estimate")
    );
    assert_identical(&state, &by_serde_wasm_bindgen(&core.state()), "estimate");
    let mut playground = JsPlayground::with_config(options(r#"{ "tokens": "estimate" }"#)).unwrap();
    playground.go_to(3.0).unwrap();
    let row = Array::from(&get(&playground.state().unwrap(), "policies")).get(0);
    assert_eq!(get(&get(&row, "window"), "tokens").as_f64(), Some(35.0));

    for (config, expect) in [
        (
            r#"{ "tokens": "bpe" }"#,
            "tokens must be \"words\" or \"estimate\", got \"bpe\"",
        ),
        (r#"{ "tokens": 4 }"#, "tokens must be a string, got a number"),
        (
            r#"{ "script": [{ "speaker": "Dana", "kind": "chatter", "text": "Hi", "tokens": 1.5 }] }"#,
            "script[0].tokens (turn 1) must be a whole number of tokens from 0 to 4294967295, got 1.5",
        ),
        (
            r#"{ "script": [{ "speaker": "Dana", "kind": "chatter", "text": "Hi", "tokens": "2" }] }"#,
            "script[0].tokens must be a number, got a string",
        ),
    ] {
        let got = message(JsSession::with_config(options(config)).err().unwrap());
        assert_eq!(got, expect, "{config}");
    }

    // A turn's own count: kept by the session, and by `script()`.
    let mut session = JsSession::with_config(options(
        r#"{ "tokens": "estimate", "script": [{ "speaker": "Dana", "kind": "chatter", "text": "Hi there", "tokens": 9 }] }"#,
    ))
    .unwrap();
    session.add_turn().unwrap();
    assert_eq!(get(&session.state().unwrap(), "tokens").as_f64(), Some(9.0));
    let spec = Array::from(&session.script().unwrap()).get(0);
    assert_eq!(get(&spec, "tokens").as_f64(), Some(9.0));

    // An imported message's `tokens`, else `usage.output_tokens`, else `completion_tokens`;
    // `input_tokens` counts the whole prompt and is not read.
    let import = |text: &str| import_conversation(&js_sys::JsString::from(text));
    let specs = import(
        r#"[{"role": "user", "content": "Where is ORD-7?", "tokens": 6},
            {"role": "assistant", "content": "Shipped.", "usage": {"input_tokens": 900, "output_tokens": 3}},
            {"role": "assistant", "content": "Anything else?", "usage": {"prompt_tokens": 950, "completion_tokens": 4}},
            {"role": "user", "content": "No.", "usage": {"input_tokens": 960}}]"#,
    )
    .unwrap();
    let counts: Vec<Option<f64>> = Array::from(&get(&specs, "turns"))
        .iter()
        .map(|spec| get(&spec, "tokens").as_f64())
        .collect();
    assert_eq!(counts, [Some(6.0), Some(3.0), Some(4.0), None]);
    for (text, expect) in [
        (
            r#"[{"role": "user", "content": "Hi", "tokens": -1}]"#,
            "messages[0].tokens must be a whole number of tokens from 0 to 4294967295, got -1",
        ),
        (
            r#"[{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Yes", "usage": {"output_tokens": "3"}}]"#,
            "messages[1].usage.output_tokens: must be a number, got a string",
        ),
        (
            r#"[{"role": "assistant", "content": "Yes", "usage": 3}]"#,
            "messages[0].usage: must be an object of token counts, got a number",
        ),
    ] {
        assert_eq!(message(import(text).err().unwrap()), expect, "{text}");
    }
}

#[wasm_bindgen_test]
fn framework_triggers_read_in_the_browser_as_natively_and_a_bad_window_is_an_error() {
    use agent_memory_widgets::wasm::framework_triggers;
    for (window, output) in [
        (None, None),
        (Some(1_000_000.0), None),
        (Some(128_000.0), Some(8_000.0)),
    ] {
        let js = framework_triggers(window, output).unwrap();
        let native = agent_memory_widgets::framework_triggers(
            window.unwrap_or(200_000.0),
            output.unwrap_or(64_000.0),
        )
        .unwrap();
        assert_identical(&js, &by_serde_wasm_bindgen(&native), "frameworkTriggers");
    }
    assert_eq!(
        message(framework_triggers(Some(f64::NAN), None).err().unwrap()),
        "window must be a whole number of at least 1000, got NaN"
    );
    assert_eq!(
        message(
            framework_triggers(Some(200_000.0), Some(300_000.0))
                .err()
                .unwrap()
        ),
        "maxOutput must be a whole number of at most 200000, got 300000"
    );
}
