//! The page's second built-in session: τ-bench's airline task 26 (sierra-research/tau-bench,
//! MIT; www/sessions/tau-bench-airline-26.json keeps its licence), a real trajectory of gpt-4o
//! with tool calls, read by the core's importer as the page reads it.

use agent_memory_widgets::{
    import_conversation, FactsFrom, Format, Named, Playground, PolicyId, PolicyRow, Session,
    SessionOptions, Tokens, FRAMEWORK_SETTINGS, REFERENCE_WINDOW, TOOL_FACTS_RULE,
};
use serde_json::Value;

mod common;

fn log() -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/www/sessions/tau-bench-airline-26.json"
    );
    std::fs::read_to_string(path).unwrap()
}

fn options(compact_at: Option<f64>) -> SessionOptions {
    let log = log();
    let budget = serde_json::from_str::<Value>(&log).unwrap()["budget"].as_f64();
    SessionOptions {
        budget,
        compact_at,
        script: Some(import_conversation(&log).unwrap().turns),
        ..SessionOptions::default()
    }
}

#[test]
fn the_log_is_a_chat_completions_trajectory_with_its_licence_and_budget() {
    let log = log();
    let read = import_conversation(&log).unwrap();
    assert_eq!(read.format, Format::OpenAiChat);
    assert_eq!(read.turns.len(), 31);
    let kind = |name: &str| {
        read.turns
            .iter()
            .filter(|t| t.kind.as_deref() == Some(name))
            .count()
    };
    assert_eq!((kind("tool"), kind("question"), kind("chatter")), (7, 4, 1));
    let meta: Value = serde_json::from_str(&log).unwrap();
    assert!(meta["license"]
        .as_str()
        .unwrap()
        .starts_with("MIT License. Copyright (c) 2024 Sierra."));
    assert!(meta["source"].as_str().unwrap().contains("airline task 26"));
    assert_eq!(meta["budget"], 250);
    // The tool calls keep their arguments: the reservation each lookup asks for.
    assert_eq!(
        read.turns[4].text.as_deref(),
        Some(r#"get_reservation_details({"reservation_id": "IFOYYZ"})"#)
    );
}

#[test]
fn at_its_budget_the_window_compacts_eleven_times() {
    let mut session = Session::from_options(options(None)).unwrap();
    session.go_to(31);
    let crossings: Vec<u32> = session.state().crossings.iter().map(|t| t.0).collect();
    assert_eq!(crossings, [9, 13, 17, 20, 21, 25, 26, 27, 29, 30, 31]);
}

#[test]
fn its_facts_are_the_ids_and_names_the_tools_gave_and_the_talk_names() {
    let playground = Playground::from_options(options(None)).unwrap();
    let state = playground.state();
    assert_eq!(state.facts_from, FactsFrom::ToolResults);
    assert_eq!(state.facts_chosen, TOOL_FACTS_RULE);
    assert_eq!(
        state.facts,
        [
            "IFOYYZ",
            "aarav_ahmed_6699",
            "Aarav",
            "Ahmed",
            "NQNU5R",
            "MCO",
            "M20IZO",
            "JFK"
        ]
    );
}

/// Where Letta's policy (a sliding window with a recursive summary) names reservation IFOYYZ,
/// turn by turn: `M` with its meaning, `G` gone, `-` not yet said.
fn letta_names_ifoyyz(compact_at: Option<f64>) -> String {
    let mut playground = Playground::from_options(options(compact_at)).unwrap();
    (1..=31)
        .map(|turn| {
            let row = letta_at(&mut playground, turn);
            match row.kept[0] {
                Named::Meaning => 'M',
                Named::BareTerm => 'B',
                Named::Gone => 'G',
                Named::NotYetSaid => '-',
            }
        })
        .collect()
}

#[test]
fn the_compaction_that_loses_the_reservation_says_what_left_and_where_it_went() {
    let mut playground = Playground::from_options(options(Some(60.0))).unwrap();
    let letta = letta_at(&mut playground, 13);
    let loss = letta.losses.last().unwrap();
    let turns =
        |list: &[agent_memory_widgets::TurnNumber]| list.iter().map(|t| t.0).collect::<Vec<_>>();
    assert_eq!(loss.turn.0, 13);
    assert_eq!(turns(&loss.left_verbatim), [10, 11, 12, 13]);
    assert_eq!(turns(&loss.summarized), [10, 11, 12, 13]);
    assert!(loss.dropped.is_empty());
    // Letta summarises what it kept and drops the old summary, of turns 6 to 9, with it.
    assert_eq!(turns(&loss.summaries_dropped), [6, 7, 8, 9]);
    assert_eq!(loss.facts_lost, ["IFOYYZ", "Aarav", "Ahmed"]);
    assert_eq!(letta.losses.len() as u32, letta.compactions);
}

#[test]
fn compacting_at_sixty_percent_letta_s_window_stops_naming_the_reservation_after_turn_12() {
    // At its own trigger (90%), the window names IFOYYZ from turn 4, when the user gives it, to
    // the end; at 60% it is gone from turn 13 until the profile lookup lists it again at turn 25,
    // and gone again from turn 28.
    assert_eq!(letta_names_ifoyyz(None), format!("---{}", "M".repeat(28)));
    // At Claude Code's trigger (FRAMEWORK_SETTINGS: 84% of a 200K window), the same.
    let claude_code = FRAMEWORK_SETTINGS[0].compact_at(REFERENCE_WINDOW, 64_000);
    assert_eq!(claude_code, Some(84));
    assert_eq!(
        letta_names_ifoyyz(claude_code.map(f64::from)),
        format!("---{}", "M".repeat(28))
    );
    assert_eq!(
        letta_names_ifoyyz(Some(60.0)),
        format!(
            "---{}{}{}{}",
            "M".repeat(9),
            "G".repeat(12),
            "M".repeat(3),
            "G".repeat(4)
        )
    );
}

#[test]
fn the_log_s_note_on_its_budget_states_the_core_s_count_and_first_crossing() {
    let log = log();
    let why = serde_json::from_str::<Value>(&log).unwrap()["budgetWhy"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut session = Session::from_options(options(None)).unwrap();
    session.go_to(31);
    let state = session.state();
    let words: u32 = state
        .transcript
        .iter()
        .map(|turn| Tokens::of(&turn.text).0)
        .sum();
    assert!(
        why.contains(&format!("The session's 31 turns hold {words} words")),
        "budgetWhy does not say {words} words: {why}"
    );
    let first = state.crossings[0].0;
    assert!(
        why.contains(&format!("first crosses at turn {first},")),
        "{why}"
    );
}

#[test]
fn the_gist_keeps_a_tool_call_s_values_not_its_json() {
    let mut session = Session::from_options(options(None)).unwrap();
    for turn in 1..=31 {
        session.go_to(turn);
        let Some(cold) = session.state().cold else {
            continue;
        };
        let terms: Vec<&str> = cold.text().split(", ").collect();
        for term in &terms {
            assert!(
                !term.contains(|c| "{}[]\"()".contains(c)),
                "turn {turn}: the gist keeps JSON punctuation in {term:?}: {}",
                cold.text()
            );
        }
        let mut unique = terms.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), terms.len(), "turn {turn}: {}", cold.text());
        assert_eq!(
            cold.tokens().0 as usize,
            terms.len(),
            "turn {turn}: a term a token"
        );
    }
}

/// Letta's compactions on the whole session at `compact_at` (its own trigger when `None`).
fn letta_compactions(compact_at: Option<f64>) -> u32 {
    let mut playground = Playground::from_options(options(compact_at)).unwrap();
    letta_at(&mut playground, 31).compactions
}

/// Letta's row (a sliding window with a recursive summary) of `playground` at `turn`.
fn letta_at(playground: &mut Playground, turn: u32) -> PolicyRow {
    playground.go_to(turn);
    let state = playground.state();
    state
        .policies
        .into_iter()
        .find(|row| row.info.id == PolicyId::SlidingWindow)
        .unwrap()
}

/// The runs of `letter` in `pattern` (turn 1 first), as "from turn A to turn B" or "from turn A
/// on" for one that lasts to the end.
fn runs(pattern: &str, letter: char) -> Vec<String> {
    let turns: Vec<char> = pattern.chars().collect();
    let mut out = Vec::new();
    let mut turn = 0;
    while turn < turns.len() {
        if turns[turn] != letter {
            turn += 1;
            continue;
        }
        let start = turn;
        while turn < turns.len() && turns[turn] == letter {
            turn += 1;
        }
        out.push(if turn == turns.len() {
            format!("from turn {} on", start + 1)
        } else {
            format!("from turn {} to turn {}", start + 1, turn)
        });
    }
    out
}

/// The page's paragraph on Letta at a 60% trigger, from the core: how often it compacts at its
/// own trigger, at Claude Code's and at 60%, and where its window stops naming IFOYYZ.
fn letta_paragraph() -> String {
    let own = letta_names_ifoyyz(None);
    assert!(
        !own.contains('G'),
        "at its own trigger Letta loses IFOYYZ: rewrite the page"
    );
    let claude_code = FRAMEWORK_SETTINGS[0]
        .compact_at(REFERENCE_WINDOW, 64_000)
        .unwrap();
    assert_eq!(letta_names_ifoyyz(Some(f64::from(claude_code))), own);
    let (at_own, at_60) = (letta_compactions(None), letta_compactions(Some(60.0)));
    assert!(
        at_60 < at_own,
        "Letta compacts more often at 60%: rewrite the page"
    );
    let gone = runs(&letta_names_ifoyyz(Some(60.0)), 'G').join(" and ");
    format!(
        "    <p>Then try a lower trigger. At its own, 90% of the budget, Letta's sliding window \
         compacts {at_own} times in this session and names IFOYYZ at every turn after the customer \
         gives it; so it does at Claude Code's trigger, {claude_code}% (its button is under the \
         playground's <strong>Knobs</strong>, <em>Real agents' triggers</em>). Set \
         <strong>compact at %</strong> to 60 and it compacts {at_60} times, fewer, yet loses \
         IFOYYZ {gone} (the facts table shows &#x2717; gone). At 60% the turns Letta keeps after \
         its cut, up to 70% of the budget, can still be over the trigger: then it summarises only \
         those, and the summary of the evicted turns, the old summary in it, leaves the window. \
         Each such compaction empties the window further, so the next one comes later.</p>\n    "
    )
}

#[test]
fn the_page_s_paragraph_on_letta_at_sixty_percent_is_the_core_s() {
    common::page_section("letta", &letta_paragraph(), "airline");
}

/// Code in a log, as a Claude Code session's file reads and tool calls hold it (#55.13): a call is
/// split at its parentheses like a tool call's JSON, so the facts and the COLD gist are its values
/// (`ORD-3300`, `1942`), never a fragment such as `lookup_order(ORD-3300` or `cents(1942`, and the
/// call counts a word for its name and one for each value.
#[test]
#[cfg(feature = "deserialize")] // a script read from JSON
fn a_call_in_code_gives_its_values_as_terms() {
    let script: Value = serde_json::json!([
        {"speaker": "user", "kind": "question", "text": "Why does lookup_order(ORD-3300) round $19.99 down to 1942 cents?"},
        {"speaker": "assistant", "kind": "decision", "text": "Read({\"file_path\":\"/home/dana/shop/src/refund.rs\"})"},
        {"speaker": "tool", "kind": "tool", "text": "   12\u{2192}    let refund_12 = cents(1942); // ORD-3300 rounds down\n   13\u{2192}    lookup_order(ORD-3300);"},
        {"speaker": "assistant", "kind": "decision", "text": "Line 12 gives cents(1942) for ORD-3300: I will round it."},
        {"speaker": "user", "kind": "chatter", "text": "Thanks!"},
    ]);
    let options = SessionOptions {
        budget: Some(12.0),
        script: Some(serde_json::from_value(script).unwrap()),
        ..SessionOptions::default()
    };
    let playground = Playground::from_options(options.clone()).unwrap();
    let facts = playground.state().facts;
    assert!(facts.contains(&"ORD-3300".to_owned()), "{facts:?}");
    assert!(facts.contains(&"1942".to_owned()), "{facts:?}");
    for fact in &facts {
        assert!(
            !fact.contains(['(', ')', ';', '"']),
            "{fact:?} in {facts:?}"
        );
    }
    let mut session = Session::from_options(options).unwrap();
    session.go_to(5);
    let cold = session
        .state()
        .cold
        .map(|line| line.text().to_owned())
        .unwrap_or_default();
    assert!(cold.contains("ORD-3300"), "{cold}");
    for term in cold.split(", ") {
        assert!(!term.contains(['(', ')', ';']), "{term:?} in {cold}");
    }
    // `lookup_order(ORD-3300)` is two words, its name and its value.
    let words = |text: &str| {
        agent_memory_widgets::Turn::new("user", agent_memory_widgets::Kind::Decision, text)
            .unwrap()
            .tokens()
    };
    assert_eq!(words("lookup_order(ORD-3300)"), Tokens(2));
    assert_eq!(words("let refund_12 = cents(1942);"), Tokens(5));
    // Prose is split on whitespace alone, its parentheses and all.
    assert_eq!(words("a $200.00 order (ORD-3300), late."), Tokens(5));
}

/// The terms a page shows a reader of structured text (#55.13, #55.6): the facts columns and every
/// policy's COLD gist at every turn, for the airline session and for Claude Code logs, whose tool
/// calls are JSON written without spaces (`{"description":"Find the tests","id":…}`) and whose file
/// reads are code (`lookup_order(ORD-3300)`). None holds JSON's or a call's punctuation, such as
/// `IFOYYZ"}`, `get_reservation_details({"reservation_id"` or `tests","id":"ORD-3300`.
#[test]
fn facts_and_gists_of_structured_text_hold_no_json_or_code_fragments() {
    let fixture = |name: &str| {
        std::fs::read_to_string(format!(
            "{}/tests/fixtures/import/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    };
    // A time such as 15:00:00 keeps its colons: only a bracket, a quote or a call's marks is JSON's.
    // A summary cut short ends its last word with `…`, which a term sheds (`100.0)…` is `100.0`),
    // and so is a file read's line number (`12→`).
    let fragment = |term: &str| {
        term.contains([
            '{', '}', '[', ']', '"', '(', ')', ';', '\u{2026}', '\u{2192}',
        ])
    };
    // A Claude Code session's shapes, as chat messages: a tool call's JSON without spaces, and a
    // file read's code.
    let code = serde_json::json!([
        {"role": "user", "content": "Why does ORD-3300 round $19.99 down?"},
        {"role": "assistant", "content": "Task({\"description\":\"Find the rounding\",\"prompt\":\"Read refund.rs for ORD-3300\",\"subagent_type\":\"Explore\"})"},
        {"role": "user", "content": "   12\u{2192}    let refund_12 = cents(1942); // ORD-3300\n   13\u{2192}    lookup_order(ORD-3300);"},
        {"role": "assistant", "content": "Line 12 gives cents(1942) for ORD-3300: I will round it up."},
        {"role": "user", "content": "Thanks, Dana here. Please fix refund_12 and rerun."},
        {"role": "assistant", "content": "Edit({\"file_path\":\"/src/refund.rs\",\"old_string\":\"cents(1942)\",\"new_string\":\"cents(1999)\"})"},
        {"role": "user", "content": "Done? Show me lookup_order(ORD-3300) now."},
    ])
    .to_string();
    for (name, log) in [
        ("code", code),
        ("airline", log()),
        ("claude-code.jsonl", fixture("claude-code.jsonl")),
        ("claude-code-long.jsonl", fixture("claude-code-long.jsonl")),
    ] {
        let turns = import_conversation(&log).unwrap().turns;
        let count = turns.len() as u32;
        let options = SessionOptions {
            budget: Some(40.0),
            script: Some(turns),
            ..SessionOptions::default()
        };
        let mut playground = Playground::from_options(options).unwrap();
        let facts = playground.state().facts;
        assert!(!facts.is_empty(), "{name}");
        // A sentence's first word is no fact (`The file … has been updated.`, a tool's output).
        assert!(!facts.iter().any(|fact| fact == "The"), "{name}: {facts:?}");
        for fact in &facts {
            assert!(!fragment(fact), "{name}: the fact {fact:?} in {facts:?}");
        }
        for turn in 1..=count.min(120) {
            playground.go_to(turn);
            for row in playground.state().policies {
                let Some(cold) = row.window.cold else {
                    continue;
                };
                for term in cold.text().split(", ") {
                    assert!(
                        !fragment(term),
                        "{name}, turn {turn}, {}: {term:?} in the gist {}",
                        row.info.name,
                        cold.text()
                    );
                }
            }
        }
    }
}
