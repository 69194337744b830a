//! The policy playground: the refund desk under six frameworks' compaction policies, each
//! asserted in full, plus properties over random scripts.

use agent_memory_widgets::{
    policy, window_text, Playground, Script, Session, SessionConfig, TurnSpec, KEY_FACTS, POLICIES,
};
use proptest::prelude::*;

/// One policy on the refund desk: its tokens after each turn, its compaction count and which
/// of the key facts its final window still names (Dana, ORD-3300, $200.00, 30-day window,
/// 10% fee, $180.00, Globex).
fn check(id: &str, series: [u32; 10], compactions: u32, kept: [bool; 7]) {
    let mut playground = Playground::default();
    playground.go_to(10);
    let state = playground.state();
    let row = state.policies.iter().find(|row| row.info.id == id).unwrap();
    let actual: Vec<u32> = row.series.iter().map(|t| t.0).collect();
    assert_eq!(actual, series, "{id}: tokens per turn");
    assert_eq!(row.compactions, compactions, "{id}: compactions");
    assert_eq!(row.kept, kept, "{id}: facts kept");
    assert_eq!(row.tokens.0, series[9], "{id}: final tokens");
}

const T: bool = true;
const F: bool = false;

#[test]
fn hot_warm_cold_keeps_every_fact_within_budget() {
    check(
        "hot-warm-cold",
        [8, 18, 29, 30, 34, 32, 38, 39, 40, 39],
        5,
        [T, T, T, T, T, T, T],
    );
}

#[test]
fn lettas_sliding_window_stays_small_and_forgets_the_refund() {
    check(
        "sliding-window",
        [8, 18, 29, 20, 24, 33, 39, 23, 35, 21],
        3,
        [T, F, F, F, F, F, T],
    );
}

#[test]
fn the_summary_buffer_keeps_everything_by_going_over_budget() {
    check(
        "summary-buffer",
        [8, 18, 29, 33, 37, 43, 45, 54, 59, 64],
        5,
        [T, T, T, T, T, T, T],
    );
}

#[test]
fn the_codex_handoff_keeps_user_questions_and_a_short_summary() {
    check(
        "handoff",
        [8, 18, 29, 22, 26, 35, 22, 31, 21, 34],
        3,
        [T, T, T, F, F, F, T],
    );
}

#[test]
fn adk_interval_compaction_runs_every_three_turns_whatever_the_budget() {
    check(
        "interval",
        [8, 18, 18, 30, 34, 28, 34, 43, 51, 64],
        3,
        [T, T, T, T, T, T, T],
    );
    let mut playground = Playground::default();
    playground.go_to(10);
    let state = playground.state();
    let row = state
        .policies
        .iter()
        .find(|row| row.info.id == "interval")
        .unwrap();
    let compacted: Vec<u32> = row
        .window
        .log
        .iter()
        .filter(|s| s.compacted)
        .map(|s| s.turn)
        .collect();
    assert_eq!(compacted, [3, 6, 9]);
}

#[test]
fn truncation_keeps_the_last_turns_and_nothing_else() {
    check(
        "truncate",
        [8, 18, 29, 33, 37, 36, 31, 40, 40, 40],
        5,
        [T, F, F, F, F, T, T],
    );
}

#[test]
fn the_playground_steps_every_policy_together() {
    let mut playground = Playground::default();
    assert_eq!(playground.state().policies.len(), 6);
    for turn in [3, 7, 0, 10] {
        playground.go_to(turn);
        let state = playground.state();
        assert_eq!(state.turn, turn);
        assert!(state.policies.iter().all(|row| row.window.turn == turn));
        assert!(state.policies.iter().all(|row| row.tokens.0
            == if turn == 0 {
                0
            } else {
                row.series[turn as usize - 1].0
            }));
    }
    assert_eq!(playground.state().facts, KEY_FACTS.map(|(label, _)| label));
}

/// The section of the README that compares the frameworks, generated here from the core.
fn frameworks_section() -> String {
    let mut playground = Playground::default();
    playground.go_to(10);
    let state = playground.state();
    let mut out = String::from("| policy | source | compactions | final tokens (budget 40) |");
    for fact in &state.facts {
        out += &format!(" {fact} |");
    }
    out += "\n|---|---|---|---|";
    out += &"---|".repeat(state.facts.len());
    for row in &state.policies {
        out += &format!(
            "\n| {} | {} | {} | {} |",
            row.info.name, row.info.source, row.compactions, row.tokens.0
        );
        for kept in &row.kept {
            out += if *kept { " yes |" } else { " no |" };
        }
    }
    out + "\n"
}

#[test]
fn the_readme_comparison_is_generated_from_the_core() {
    let path = format!("{}/README.md", env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(&path).unwrap();
    let (begin, end) = ("<!-- frameworks:begin -->\n", "<!-- frameworks:end -->");
    let start = readme
        .find(begin)
        .expect("README has the frameworks markers")
        + begin.len();
    let stop = readme.find(end).expect("README has the frameworks markers");
    let section = frameworks_section();
    if std::env::var_os("UPDATE_README").is_some() {
        std::fs::write(
            &path,
            format!("{}{section}{}", &readme[..start], &readme[stop..]),
        )
        .unwrap();
        return;
    }
    assert_eq!(
        &readme[start..stop],
        section,
        "run UPDATE_README=1 cargo test --test playground"
    );
}

fn arb_script() -> impl Strategy<Value = Script> {
    let kinds = prop_oneof![
        Just("chatter"),
        Just("decision"),
        Just("tool"),
        Just("question")
    ];
    let word = prop_oneof![
        Just("word".to_owned()),
        (0u32..500).prop_map(|n| format!("ORD-{n}")),
        Just("Dana".to_owned())
    ];
    let turn = (
        kinds,
        prop::collection::vec(word.clone(), 1..40),
        prop::collection::vec(word, 1..10),
    )
        .prop_map(|(kind, text, summary)| TurnSpec {
            speaker: Some("Dana".into()),
            kind: Some(kind.into()),
            text: Some(text.join(" ")),
            summary: Some(summary.join(" ")),
        });
    prop::collection::vec(turn, 1..60).prop_map(|specs| Script::new(specs).unwrap())
}

fn run(id: &str, config: SessionConfig, script: &Script) -> Session {
    let mut session = Session::with_policy(config, script.clone(), policy(id).unwrap());
    while session.add_turn().is_some() {}
    session
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn ours_and_lettas_stay_within_budget_whenever_a_fit_is_possible(script in arb_script(), budget in 1u32..120, hot_n in 1u32..4) {
        let config = SessionConfig::new(budget, hot_n).unwrap();
        // Letta evicts down to its capped summary, so it always fits.
        let letta = run("sliding-window", config, &script);
        for step in letta.log() {
            prop_assert!(step.tokens_after <= config.budget(), "letta turn {}: {}", step.turn, step.tokens_after);
        }
        // Ours fits whenever the HOT turns and a full gist do.
        let ours = run("hot-warm-cold", config, &script);
        for step in ours.log() {
            let from = step.turn.saturating_sub(hot_n) + 1;
            let hot: u32 = (from..=step.turn).map(|n| script.turn(n).unwrap().tokens().0).sum();
            if hot + agent_memory_widgets::GIST_TERMS as u32 <= budget {
                prop_assert!(step.tokens_after <= config.budget(), "ours turn {}", step.turn);
            }
        }
    }

    #[test]
    fn the_summary_buffer_keeps_its_verbatim_part_under_the_limit(script in arb_script(), budget in 1u32..120) {
        let config = SessionConfig::new(budget, 2).unwrap();
        let mut session = Session::with_policy(config, script.clone(), policy("summary-buffer").unwrap());
        while session.add_turn().is_some() {
            prop_assert!(session.window().verbatim_tokens() <= config.budget());
            let state = session.state();
            prop_assert_eq!(state.over_budget, state.tokens > config.budget());
        }
    }

    #[test]
    fn truncate_never_holds_a_summary(script in arb_script(), budget in 1u32..120) {
        let mut session = Session::with_policy(SessionConfig::new(budget, 2).unwrap(), script, policy("truncate").unwrap());
        while session.add_turn().is_some() {
            let state = session.state();
            prop_assert!(state.warm.is_empty() && state.cold.is_none());
            prop_assert!(state.hot.len() == 1 || state.tokens <= state.budget);
        }
    }

    #[test]
    fn every_policy_is_deterministic_and_counts_its_window_exactly(script in arb_script(), budget in 1u32..120) {
        let config = SessionConfig::new(budget, 2).unwrap();
        for info in POLICIES {
            let (a, b) = (run(info.id, config, &script).state(), run(info.id, config, &script).state());
            prop_assert_eq!(&a, &b);
            let words = window_text(&a).split_whitespace().count() as u32;
            prop_assert_eq!(words, a.tokens.0, "{} counts its window", info.id);
        }
    }
}
