//! One set of limits (issue 52, item 6): a library turn and a fact each take a text of up to
//! [`MAX_TEXT_CHARS`] characters, the page's inputs keep the smaller [`MAX_PAGE_TEXT_CHARS`]
//! (an imported turn is cut to it with a mark), and the README's table of limits is generated
//! here from `agent_memory_widgets::limits`.

mod common;

use agent_memory_widgets::limits::{
    MAX_CHART_POINTS, MAX_CHART_SAMPLES, MAX_EVENTS, MAX_FACTS, MAX_HALF_LIFE, MAX_IMPORT_BYTES,
    MAX_PAGE_TEXT_CHARS, MAX_READS, MAX_RULES, MAX_SCRIPT_TEXT_CHARS, MAX_TEXT_CHARS, MAX_TIME,
    MAX_TOTAL_TEXT_CHARS, MAX_TURNS, MIN_HALF_LIFE,
};
#[path = "common/store.rs"]
mod store;
use agent_memory_widgets::{
    import_conversation, policy, Error, ErrorKind, FactId, FactKind, LiveStore, PolicyId, Script,
    Session, SessionConfig, SessionOptions, StoreConfig, Tokens, Turn, TurnSpec,
};
use store::{semantic, Fixed};

/// `n` with its thousands grouped: 67,108,864.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// A power of ten as people write a large one: 10,000,000,000,000 (10^13).
fn power_of_ten(value: f64) -> String {
    let exponent = value.log10().round() as i32;
    assert_eq!(10f64.powi(exponent), value, "{value} is not a power of ten");
    format!("{} (10^{exponent})", grouped(value as u64))
}

/// The README's table of limits: each row names its constants, says what it limits and who
/// meets it, and gives the value from the constants themselves.
fn limits_section() -> String {
    let count = |n: usize| grouped(n as u64);
    let rows: [(&[&str], &str, String); 14] = [
        (
            &["MAX_TEXT_CHARS"],
            "characters in one text of the library: a turn's text, summary, speaker or tool-call \
             id (`Turn`, a `TurnSpec` read with `Turn::try_from` or `Script::new`, a summarizer's \
             summary, a saved session), and a fact's text (`LiveStore::write`, a distilled fact, \
             a saved store)",
            count(MAX_TEXT_CHARS),
        ),
        (
            &["MAX_PAGE_TEXT_CHARS"],
            "characters in one text the widgets take, a smaller limit that keeps the page quick: \
             each text of a script or scenario given as options (`withConfig`, \
             `Session::from_options`, `Script::within_limits`, `Scenario::new`), and each \
             imported turn, which is cut to it and marked `… [cut: N characters]`",
            count(MAX_PAGE_TEXT_CHARS),
        ),
        (
            &["MAX_IMPORT_BYTES"],
            "bytes of a conversation to import (`import_conversation`, `importConversation`; \
             nothing else of it is limited)",
            format!(
                "{} ({} MiB)",
                count(MAX_IMPORT_BYTES),
                MAX_IMPORT_BYTES / (1024 * 1024)
            ),
        ),
        (
            &["MAX_TURNS"],
            "turns in a script given as options (a native `Script::new` and a live session take \
             any number)",
            count(MAX_TURNS),
        ),
        (
            &["MAX_SCRIPT_TEXT_CHARS"],
            "characters in all texts of one script given as options",
            count(MAX_SCRIPT_TEXT_CHARS),
        ),
        (
            &["MAX_TOTAL_TEXT_CHARS"],
            "characters in all texts of one scenario",
            count(MAX_TOTAL_TEXT_CHARS),
        ),
        (
            &["MAX_FACTS"],
            "facts a scenario starts with",
            count(MAX_FACTS),
        ),
        (
            &["MAX_EVENTS"],
            "write events in a scenario",
            count(MAX_EVENTS),
        ),
        (
            &["MAX_RULES"],
            "consolidation rules in a scenario",
            count(MAX_RULES),
        ),
        (
            &["MAX_READS"],
            "reads in a scenario, the reader's included",
            count(MAX_READS),
        ),
        (
            &["MIN_HALF_LIFE", "MAX_HALF_LIFE"],
            "half-lives (`halfLife`, `semanticHalfLife`, `proceduralHalfLife`)",
            format!("from {MIN_HALF_LIFE} to {}", power_of_ten(MAX_HALF_LIFE)),
        ),
        (
            &["MAX_TIME"],
            "a time `t` (in the caller's unit: turns, seconds or milliseconds)",
            format!("from 0 to {}", power_of_ten(MAX_TIME)),
        ),
        (
            &["MAX_CHART_SAMPLES"],
            "sampled times in one `chart(until, step)` (`until / step`, rounded down, plus one)",
            count(MAX_CHART_SAMPLES),
        ),
        (
            &["MAX_CHART_POINTS"],
            "points in one `chart(until, step)` (its times, each change counted twice, × facts)",
            count(MAX_CHART_POINTS),
        ),
    ];
    let mut out = String::from("| what | limit | at most |\n|---|---|---|\n");
    for (names, what, value) in rows {
        let names: Vec<String> = names.iter().map(|name| format!("`{name}`")).collect();
        out.push_str(&format!("| {what} | {} | {value} |\n", names.join(", ")));
    }
    out
}

#[test]
fn the_readme_limits_table_is_generated_from_limits_rs() {
    let section = limits_section();
    // Every limit src/limits.rs declares has its row.
    let source = include_str!("../src/limits.rs");
    let declared: Vec<&str> = source
        .lines()
        .filter_map(|line| line.strip_prefix("pub const "))
        .map(|rest| rest.split(':').next().unwrap())
        .collect();
    assert!(declared.len() >= 15, "{declared:?}");
    for name in declared {
        assert!(
            section.contains(&format!("`{name}`")),
            "{name} has no row in the README's table"
        );
    }
    common::readme_section("limits", &section, "limits");
}

fn assert_over(err: Error, field: &str, limit: &str) {
    assert!(
        matches!(err.kind(), ErrorKind::OverLimit { limit: got } if *got == limit),
        "{err:?}"
    );
    assert!(
        err.message().starts_with(&format!(
            "{field}: must have at most {MAX_TEXT_CHARS} characters, got "
        )) || limit != "MAX_TEXT_CHARS",
        "{}",
        err.message()
    );
}

/// A realistic 12 KB tool output, and a text of exactly the limit, are a turn; one character
/// more is refused, naming the field.
#[test]
fn a_library_turn_takes_a_text_of_up_to_a_million_characters() {
    let output = format!(
        "{{\"order\": \"ORD-3300\", \"events\": [{}]}}",
        "1, ".repeat(4_000)
    );
    assert!(output.len() > 12_000);
    let mut session = Session::live(
        SessionConfig::new(Tokens(8_000), 4).unwrap(),
        policy(PolicyId::HotWarmCold),
    );
    session
        .push(Turn::tool_call("c1", "lookup_order(ORD-3300)").unwrap())
        .unwrap();
    session.push(Turn::tool("c1", &output).unwrap()).unwrap();

    let full = "é".repeat(MAX_TEXT_CHARS);
    let over = "é".repeat(MAX_TEXT_CHARS + 1);
    assert!(Turn::user(&full).is_ok());
    assert_over(Turn::user(&over).unwrap_err(), "text", "MAX_TEXT_CHARS");
    assert_over(
        Turn::user("hi").unwrap().with_summary(&over).unwrap_err(),
        "summary",
        "MAX_TEXT_CHARS",
    );
    let spec = |text: &str| TurnSpec {
        speaker: Some("tool".into()),
        kind: Some("tool".into()),
        text: Some(text.into()),
        summary: Some("a long output".into()),
        ..TurnSpec::default()
    };
    assert!(Turn::try_from(spec(&full)).is_ok());
    assert!(Script::new(vec![spec(&full)]).is_ok());
    assert_over(
        Script::new(vec![spec(&over)]).unwrap_err(),
        "script[0].text (turn 1)",
        "MAX_TEXT_CHARS",
    );

    // A long turn saves and loads.
    #[cfg(feature = "deserialize")]
    {
        session.push(Turn::user(&full).unwrap()).unwrap();
        let json = serde_json::to_string(&session).unwrap();
        let saved = serde_json::from_str(&json).unwrap();
        let loaded = Session::load(
            saved,
            policy(PolicyId::HotWarmCold),
            Box::new(agent_memory_widgets::Extractive),
        )
        .unwrap();
        assert_eq!(loaded.state(), session.state());
    }
}

/// The page's inputs keep their own, smaller limit: a script or scenario given as options, with
/// the message they always had.
#[test]
fn the_page_keeps_its_own_smaller_limit() {
    let spec = |text: String| TurnSpec {
        speaker: Some("Dana".into()),
        kind: Some("chatter".into()),
        text: Some(text),
        ..TurnSpec::default()
    };
    assert!(Script::within_limits(vec![spec("é".repeat(MAX_PAGE_TEXT_CHARS))]).is_ok());
    let err = Script::within_limits(vec![spec("é".repeat(MAX_PAGE_TEXT_CHARS + 1))]).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::OverLimit { limit } if *limit == "MAX_PAGE_TEXT_CHARS")
    );
    assert_eq!(
        err.message(),
        "script[0].text (turn 1): must have at most 10000 characters, got 10001"
    );
    let options = SessionOptions {
        script: Some(vec![spec("a".repeat(MAX_PAGE_TEXT_CHARS + 1))]),
        ..SessionOptions::default()
    };
    assert!(Session::from_options(options).is_err());
}

/// The import cuts a long tool output to the page's limit with its mark, so that what imports
/// also plays on the page.
#[test]
fn an_imported_tool_output_is_cut_with_its_mark() {
    let output = "x".repeat(12_000);
    let chat = serde_json::json!([
        {"role": "user", "content": "Where is ORD-3300?"},
        {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function",
            "function": {"name": "lookup_order", "arguments": "{\"order\": \"ORD-3300\"}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": output},
    ]);
    let imported = import_conversation(&chat.to_string()).unwrap();
    let result = imported
        .turns
        .iter()
        .find(|turn| turn.kind.as_deref() == Some("tool"))
        .unwrap();
    let text = result.text.as_deref().unwrap();
    assert_eq!(text.chars().count(), MAX_PAGE_TEXT_CHARS);
    assert!(
        text.ends_with("x \u{2026} [cut: 12000 characters]"),
        "{}",
        &text[text.len() - 40..]
    );
    let options = SessionOptions {
        script: Some(imported.turns),
        ..SessionOptions::default()
    };
    assert!(Session::from_options(options).is_ok());
}

/// `LiveStore::write` takes what a turn takes: a fact of up to `MAX_TEXT_CHARS` characters, and
/// one more is an error naming `text` that changes nothing; so does a distilled fact, and a
/// saved store with such a fact does not load.
#[test]
fn a_store_write_has_the_same_text_limit_as_a_turn() {
    let mut store = LiveStore::new(StoreConfig::default());
    let full = "é".repeat(MAX_TEXT_CHARS);
    let over = "é".repeat(MAX_TEXT_CHARS + 1);
    store.write(FactId(1), &full, 0.5, None).unwrap();
    let before = store.clone();
    assert_over(
        store.write(FactId(2), &over, 0.5, None).unwrap_err(),
        "text",
        "MAX_TEXT_CHARS",
    );
    assert_over(
        store
            .write_as(FactKind::Semantic, FactId(2), &over, 0.5, None)
            .unwrap_err(),
        "text",
        "MAX_TEXT_CHARS",
    );
    let distilled = semantic(3, &over, &[1]);
    assert_over(
        store.consolidate(&Fixed(vec![distilled])).unwrap_err(),
        "text",
        "MAX_TEXT_CHARS",
    );
    assert_eq!(store, before);

    #[cfg(feature = "deserialize")]
    {
        let json = serde_json::to_string(&store).unwrap();
        assert!(serde_json::from_str::<LiveStore>(&json).is_ok());
        let long = json.replace(&full, &over);
        let err = serde_json::from_str::<LiveStore>(&long).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("facts[0].text: must have at most 1000000 characters, got 1000001"),
            "{}",
            &err.to_string()[..80]
        );
    }
}
