//! The page's second built-in session: τ-bench's airline task 26 (sierra-research/tau-bench,
//! MIT; www/sessions/tau-bench-airline-26.json keeps its licence), a real trajectory of gpt-4o
//! with tool calls, read by the core's importer as the page reads it.

use agent_memory_widgets::{
    import_conversation, FactsFrom, Format, Named, Playground, PolicyId, Session, SessionOptions,
    FRAMEWORK_SETTINGS, REFERENCE_WINDOW, TOOL_FACTS_RULE,
};
use serde_json::Value;

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
            playground.go_to(turn);
            let state = playground.state();
            let row = state
                .policies
                .iter()
                .find(|row| row.info.id == PolicyId::SlidingWindow)
                .unwrap();
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
    playground.go_to(16);
    let state = playground.state();
    let letta = state
        .policies
        .iter()
        .find(|row| row.info.id == PolicyId::SlidingWindow)
        .unwrap();
    let loss = letta.losses.last().unwrap();
    let turns =
        |list: &[agent_memory_widgets::TurnNumber]| list.iter().map(|t| t.0).collect::<Vec<_>>();
    assert_eq!(loss.turn.0, 16);
    assert_eq!(turns(&loss.left_verbatim), [12, 13, 14, 15, 16]);
    assert_eq!(turns(&loss.summarized), [13, 14, 15, 16]);
    assert_eq!(turns(&loss.dropped), [12]);
    // Letta summarises what it kept and drops the old summary, of turns 6 to 11, with it.
    assert_eq!(turns(&loss.summaries_dropped), [6, 7, 8, 9, 10, 11]);
    assert_eq!(loss.facts_lost, ["IFOYYZ", "Aarav", "Ahmed"]);
    assert_eq!(letta.losses.len() as u32, letta.compactions);
}

#[test]
fn compacting_at_sixty_percent_letta_s_window_stops_naming_the_reservation_after_turn_15() {
    // At its own trigger (90%), the window names IFOYYZ from turn 4, when the user gives it, to
    // the end; at 60% it is gone from turn 16 until the profile lookup lists it again at turn 25,
    // and gone again from turn 29.
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
            "M".repeat(12),
            "G".repeat(9),
            "M".repeat(4),
            "G".repeat(3)
        )
    );
}
