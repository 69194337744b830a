//! The policy playground: the refund desk under seven policies, each asserted in full; the three
//! framework policies recomputed by small references written here from their sources' rules;
//! and properties over random scripts.

use agent_memory_widgets::{
    policy, window_text, ErrorKind, Named, Playground, Script, Session, SessionConfig,
    SessionOptions, SessionState, TurnSpec, FRAMEWORK_SETTINGS, KEY_FACTS, POLICIES,
    REFERENCE_WINDOW,
};
use agent_memory_widgets::{Tokens, TurnNumber};
use proptest::prelude::*;

mod common;

/// One policy on the refund desk: its tokens after each turn, its compaction count and how its
/// final window names each key fact (Dana, ORD-3300, $200.00, 30-day window, 10% fee, $180.00,
/// Globex).
fn check(id: &str, series: [u32; 10], compactions: u32, kept: [Named; 7]) {
    let mut playground = Playground::default();
    playground.go_to(10);
    let state = playground.state();
    let row = state
        .policies
        .iter()
        .find(|row| row.info.id.name() == id)
        .unwrap();
    let actual: Vec<u32> = row.series.iter().map(|t| t.0).collect();
    assert_eq!(actual, series, "{id}: tokens per turn");
    assert_eq!(row.compactions, compactions, "{id}: compactions");
    assert_eq!(row.kept, kept, "{id}: facts kept");
    assert_eq!(row.tokens.0, series[9], "{id}: final tokens");
}

const M: Named = Named::Meaning;
const B: Named = Named::BareTerm;
const G: Named = Named::Gone;

#[test]
fn hot_warm_cold_stays_within_budget_and_keeps_the_refund_as_bare_terms() {
    check(
        "hot-warm-cold",
        [8, 18, 29, 30, 34, 32, 38, 39, 40, 39],
        5,
        [M, B, B, B, B, B, M],
    );
}

#[test]
fn lettas_sliding_window_keeps_every_fact_and_ends_over_budget() {
    check(
        "sliding-window",
        [8, 18, 29, 30, 34, 39, 34, 43, 51, 64],
        6,
        [M, M, M, M, M, M, M],
    );
}

#[test]
fn the_summary_buffer_keeps_everything_by_going_over_budget() {
    check(
        "summary-buffer",
        [8, 18, 29, 33, 37, 43, 45, 54, 59, 64],
        5,
        [M, M, M, M, M, M, M],
    );
}

#[test]
fn the_codex_handoff_keeps_a_growing_summary_and_one_cut_user_message() {
    check(
        "handoff",
        [8, 18, 29, 23, 27, 28, 34, 43, 50, 54],
        5,
        [M, M, M, M, M, M, M],
    );
    let mut playground = Playground::default();
    playground.go_to(10);
    let row = &playground.state().policies[3];
    let verbatim: Vec<&str> = row.window.hot.iter().map(|t| t.text.as_str()).collect();
    assert_eq!(verbatim, ["Also, … under warranty?"]);
    assert_eq!(row.window.hot[0].turn, 8);
}

#[test]
fn adk_compacts_once_three_invocations_have_ended_whatever_the_budget() {
    check(
        "interval",
        [8, 18, 29, 41, 45, 54, 32, 41, 53, 66],
        1,
        [M, M, M, M, M, M, M],
    );
    let mut playground = Playground::default();
    playground.go_to(7);
    let window = &playground.state().policies[4].window;
    assert!(
        window.hot.is_empty(),
        "nothing in the compacted range stays verbatim"
    );
    assert_eq!(window.warm.len(), 1);
    assert_eq!(window.warm[0].turns(), [2, 3, 4, 6, 7]);
}

#[test]
fn truncation_keeps_the_last_turns_and_nothing_else() {
    check(
        "truncate",
        [8, 18, 29, 33, 37, 36, 31, 40, 40, 40],
        5,
        [M, G, G, G, G, M, M],
    );
}

/// Tool outputs 3 and 6 become 6-word placeholders when the next tool output arrives (turns 6
/// and 9): 11 and 9 words out, 6 in. Nothing else moves, so the window ends at 86 tokens, over
/// the budget from turn 4 on, and the 30-day window, said only in turn 3's output, is gone.
#[test]
fn observation_masking_hides_all_but_the_newest_tool_output() {
    check(
        "observation-masking",
        [8, 18, 29, 41, 45, 49, 55, 64, 73, 86],
        2,
        [M, M, M, G, M, M, M],
    );
    let mut playground = Playground::default();
    playground.go_to(10);
    let state = playground.state();
    let row = state.policies.last().unwrap();
    let hot: Vec<(u32, &str)> = row
        .window
        .hot
        .iter()
        .map(|turn| (turn.turn.0, turn.text.as_str()))
        .collect();
    let script = Script::refund_desk();
    let verbatim = |n: u32| script.turn(TurnNumber(n)).unwrap().text();
    let expected: Vec<(u32, &str)> = (1..=10)
        .map(|n| match n {
            3 => (3, "[tool output of turn 3 omitted]"),
            6 => (6, "[tool output of turn 6 omitted]"),
            n => (n, verbatim(n)),
        })
        .collect();
    assert_eq!(hot, expected);
    assert!(row.window.warm.is_empty() && row.window.cold.is_none());
    assert!(row.window.over_budget);
    assert_eq!(
        row.window.over_budget_reason.as_deref(),
        Some(
            "Observation masking only hides old tool outputs; it never summarises or drops a \
             turn, so the window keeps 86 tokens, more than the budget of 40."
        )
    );
}

/// Every policy's tokens after each turn of the refund desk, with every token trigger at
/// `compact_at` percent of the budget.
fn series_at(compact_at: Option<f64>) -> Vec<Vec<u32>> {
    let options = SessionOptions {
        compact_at,
        ..SessionOptions::default()
    };
    let state = Playground::from_options(options).unwrap().state();
    assert_eq!(state.compact_at, compact_at.map(|percent| percent as u32));
    state
        .policies
        .iter()
        .map(|row| row.series.iter().map(|t| t.0).collect())
        .collect()
}

#[test]
fn the_trigger_knob_at_each_policys_own_share_changes_nothing() {
    let own = series_at(None);
    let at_100 = series_at(Some(100.0));
    let at_90 = series_at(Some(90.0));
    // Each policy's own trigger, as `PolicyInfo::trigger` states it for the page: ours, the
    // summary buffer and truncation compact past 100%, Letta and Codex at 90%; ADK and
    // observation masking have no token trigger, so no share moves them.
    let triggers: Vec<Option<u32>> = POLICIES.iter().map(|info| info.trigger).collect();
    assert_eq!(
        triggers,
        [
            Some(100),
            Some(90),
            Some(100),
            Some(90),
            None,
            Some(100),
            None
        ]
    );
    for (i, info) in POLICIES.iter().enumerate() {
        match info.trigger {
            Some(90) => assert_eq!(at_90[i], own[i], "{}", info.id),
            Some(100) => assert_eq!(at_100[i], own[i], "{}", info.id),
            Some(other) => panic!("{}: no test for a trigger at {other}%", info.id),
            None => {
                assert_eq!(at_90[i], own[i], "{}", info.id);
                assert_eq!(at_100[i], own[i], "{}", info.id);
            }
        }
    }
    assert_eq!(own[0], [8, 18, 29, 30, 34, 32, 38, 39, 40, 39]); // the seed's numbers
}

/// At 70% (28 of 40 tokens) ours compacts from turn 3 on (29 tokens: the opening chatter goes)
/// and holds less all along, ending where the budget holds it; the policies without a token
/// trigger do not move.
#[test]
fn an_earlier_trigger_compacts_sooner() {
    let own = series_at(None);
    let at_70 = series_at(Some(70.0));
    assert_eq!(at_70[0], [8, 18, 21, 30, 30, 32, 34, 39, 40, 39]);
    for id in ["interval", "observation-masking"] {
        let i = POLICIES
            .iter()
            .position(|info| info.id.name() == id)
            .unwrap();
        assert_eq!(at_70[i], own[i], "{id}");
    }
    for (i, info) in POLICIES.iter().enumerate() {
        let triggered = info.trigger.is_some();
        assert!(
            !triggered || at_70[i].iter().sum::<u32>() < own[i].iter().sum::<u32>(),
            "{} holds fewer tokens over the run",
            info.id
        );
    }
}

#[test]
fn the_trigger_knob_takes_whole_percents_from_1_to_100() {
    for (value, message) in [
        (
            0.0,
            "compact_at must be a whole number of at least 1, got 0",
        ),
        (
            101.0,
            "compact_at must be a whole number of at most 100, got 101",
        ),
        (
            70.5,
            "compact_at must be a whole number of at least 1, got 70.5",
        ),
    ] {
        let options = SessionOptions {
            compact_at: Some(value),
            ..SessionOptions::default()
        };
        let Err(err) = Playground::from_options(options) else {
            panic!("{value} was accepted");
        };
        assert_eq!(err.to_string(), message);
        assert!(matches!(err.kind(), ErrorKind::InvalidOption { field } if field == "compact_at"));
    }
    for value in [1.0, 100.0] {
        let options = SessionOptions {
            compact_at: Some(value),
            ..SessionOptions::default()
        };
        assert!(Playground::from_options(options).is_ok());
    }
}

/// The refund desk's end, as the playground's closing sentence says it: which rows end within
/// the budget, which name every fact in full, and which do both.
#[test]
fn the_refund_desk_ends_with_the_rows_over_within_and_in_full() {
    let mut playground = Playground::default();
    playground.go_to(10);
    let state = playground.state();
    let ids = |rows: &[u32]| -> Vec<String> {
        rows.iter()
            .map(|&i| state.policies[i as usize].info.id.to_string())
            .collect()
    };
    let over: Vec<String> = state
        .policies
        .iter()
        .filter(|row| row.tokens.0 > 40)
        .map(|row| row.info.id.to_string())
        .collect();
    assert!(!over.is_empty() && over.len() < 7, "{over:?}");
    assert_eq!(ids(&state.over), over);
    assert_eq!(state.over.len() + state.within.len(), 7);
    for row in &state.policies {
        assert_eq!(
            row.over_so_far, row.over_turns,
            "{}: every turn is played",
            row.info.id
        );
    }
    playground.go_to(0);
    let state = playground.state();
    assert!(state.over.is_empty() && state.within.len() == 7 && state.both.len() == 7);
    assert!(state
        .policies
        .iter()
        .all(|row| row.over_so_far.is_empty() && row.no_smaller.is_empty()));
}

#[test]
fn the_playground_steps_every_policy_together() {
    let mut playground = Playground::default();
    assert_eq!(playground.state().policies.len(), 7);
    assert_eq!(POLICIES.len(), 7);
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

#[test]
fn every_policy_states_its_rule_and_source() {
    for info in POLICIES {
        assert!(
            info.rule.starts_with("When ") || info.rule.starts_with("After "),
            "{}",
            info.id
        );
        assert!(
            !info.source.is_empty() && !info.origin.is_empty(),
            "{}",
            info.id
        );
        assert!(
            info.url.is_empty() == (info.origin == "this project"),
            "{}",
            info.id
        );
    }
}

/// Every summary line any policy writes on the refund desk, at every turn, starts where a
/// scripted summary line starts, or with `…` where it was cut; every verbatim turn is the turn's
/// text, a cut of it marked with `…`, or a masked tool output's placeholder.
#[test]
fn no_summary_starts_mid_sentence_and_every_cut_is_marked() {
    let script = Script::refund_desk();
    let starts: Vec<&str> = script.turns().iter().filter_map(|t| t.summary()).collect();
    let mut playground = Playground::default();
    for turn in 0..=10 {
        playground.go_to(turn);
        for row in playground.state().policies {
            for line in &row.window.warm {
                assert!(
                    starts.iter().any(|s| line.text().starts_with(s))
                        || line.text().starts_with('…'),
                    "{} at turn {turn}: {:?}",
                    row.info.id,
                    line.text()
                );
            }
            for hot in &row.window.hot {
                let text = script.turn(hot.turn).unwrap().text();
                let masked = format!("[tool output of turn {} omitted]", hot.turn);
                if hot.text != text && hot.text != masked {
                    let (head, tail) = hot.text.split_once('…').expect("a cut is marked");
                    assert!(text.starts_with(head.trim_end()) && text.ends_with(tail.trim_start()));
                }
            }
        }
    }
}

#[test]
fn a_term_is_named_by_the_first_tier_that_holds_it_and_gone_when_none_does() {
    let mut session = Session::default();
    session.go_to(10);
    let state = session.state();
    // HOT: turns 9 and 10 (the Globex warranty); WARM: "Dana asks about the Globex earbuds
    // warranty."; COLD: "$200.00, ORD-3300, 30-day, 10%, $180.00, RF-7781, Dana".
    assert!(state.cold.is_some() && !state.warm.is_empty());
    assert_eq!(Named::of(&state, "Globex"), Named::Meaning);
    assert_eq!(Named::of(&state, "earbuds warranty"), Named::Meaning);
    assert_eq!(Named::of(&state, "RF-7781"), Named::BareTerm);
    assert_eq!(Named::of(&state, "ORD-3300"), Named::BareTerm);
    assert_eq!(Named::of(&state, "ORD-9999"), Named::Gone);
    assert_eq!(Named::of(&state, ""), Named::Meaning);
}

#[test]
fn a_playground_from_options_replays_their_script_under_their_budget() {
    let turn = |speaker: &str, kind: &str, text: &str, summary: Option<&str>| TurnSpec {
        speaker: Some(speaker.into()),
        kind: Some(kind.into()),
        text: Some(text.into()),
        summary: summary.map(Into::into),
        tokens: None,
        ..TurnSpec::default()
    };
    let options = SessionOptions {
        budget: Some(30.0),
        hot_n: Some(1.0),
        script: Some(vec![
            turn(
                "Dana",
                "question",
                "Where is my refund?",
                Some("Dana asks."),
            ),
            turn(
                "agent",
                "decision",
                "It is on its way.",
                Some("Refund sent."),
            ),
        ]),
        compact_at: None,
        compact_to: None,
        tokens: None,
    };
    let Ok(mut playground) = Playground::from_options(options) else {
        panic!("the options are valid");
    };
    playground.go_to(2);
    let state = playground.state();
    assert_eq!(
        (state.turn, state.total_turns, state.budget),
        (2, 2, Tokens(30))
    );
    assert_eq!(state.policies.len(), POLICIES.len());
    for row in &state.policies {
        assert_eq!((row.window.hot_n, row.window.budget), (1, Tokens(30)));
    }

    let bad = SessionOptions {
        hot_n: Some(0.0),
        ..SessionOptions::default()
    };
    let Err(err) = Playground::from_options(bad) else {
        panic!("hot_n 0 is not allowed");
    };
    assert!(matches!(err.kind(), ErrorKind::InvalidOption { field } if field == "hot_n"));
}

// ---------------------------------------------------------------------------------------------
// Independent references: each framework's rule written again from its source, on a plain list
// of messages, sharing no code with the policies. Tokens are words; a summary is the summary
// lines of what it covers, in order.

fn words(text: &str) -> u64 {
    text.split_whitespace().count() as u64
}

#[derive(Clone, Copy, PartialEq)]
enum Role {
    User,
    Agent,
}

/// Tool results and calls and the agent's decisions are the agent's side; the rest is the user's.
fn role(script: &Script, n: u32) -> Role {
    let turn = script.turn(TurnNumber(n)).unwrap();
    let kind = turn.kind().name();
    let speaker = turn.speaker().to_ascii_lowercase();
    if kind == "tool" || kind == "decision" || speaker == "tool" || speaker == "agent" {
        Role::Agent
    } else {
        Role::User
    }
}

fn text(script: &Script, n: u32) -> &str {
    script.turn(TurnNumber(n)).unwrap().text()
}

fn summary_line(script: &Script, n: u32) -> Option<&str> {
    script.turn(TurnNumber(n)).unwrap().summary()
}

fn join(parts: Vec<String>) -> Option<String> {
    let joined = parts.join(" ");
    (!joined.is_empty()).then_some(joined)
}

/// Letta at 56ba9c2: `summarize_via_sliding_window` and `compact_messages`, transcribed.
fn letta_reference(script: &Script, budget: u32) -> Vec<u32> {
    #[derive(Clone)]
    enum Message {
        System,
        Summary(String),
        Turn(u32),
    }
    let context_window = f64::from(budget);
    let threshold = (context_window * 0.9) as u64; // int(context_window * 0.9)
    let goal_tokens = (1.0 - 0.3) * context_window;
    let count = |messages: &[Message]| -> u64 {
        messages
            .iter()
            .map(|m| match m {
                Message::System => 0,
                Message::Summary(s) => words(s),
                Message::Turn(n) => words(text(script, *n)),
            })
            .sum()
    };
    let summarize = |messages: &[Message]| -> Option<String> {
        join(
            messages
                .iter()
                .filter_map(|m| match m {
                    Message::System => None,
                    Message::Summary(s) => Some(s.clone()),
                    Message::Turn(n) => summary_line(script, *n).map(str::to_owned),
                })
                .collect(),
        )
    };
    let mut messages = vec![Message::System];
    let mut series = Vec::new();
    for n in 1..=script.len() as u32 {
        messages.push(Message::Turn(n));
        if count(&messages) > threshold {
            let total = messages.len();
            let mut eviction_percentage = 0.3_f64;
            let mut approx_token_count = context_window;
            let mut index = None;
            while approx_token_count >= goal_tokens && eviction_percentage < 1.0 {
                eviction_percentage += 0.10;
                let cutoff = (eviction_percentage * total as f64).round_ties_even() as usize;
                index = (1..=cutoff).rev().find(|&i| {
                    i < total
                        && matches!(messages[i], Message::Turn(t) if role(script, t) == Role::Agent)
                });
                if let Some(i) = index {
                    let mut buffer = vec![Message::System];
                    buffer.extend_from_slice(&messages[i..]);
                    approx_token_count = count(&buffer) as f64;
                }
            }
            let all = |messages: &[Message]| -> Vec<Message> {
                let mut out = vec![Message::System];
                out.extend(summarize(&messages[1..]).map(Message::Summary));
                out
            };
            messages = match index {
                Some(i) if eviction_percentage < 1.0 && i < total - 1 => {
                    let mut compacted = vec![Message::System];
                    compacted.extend_from_slice(&messages[i..]);
                    if count(&compacted) >= threshold {
                        all(&compacted) // compact.py's fallback drops the new summary
                    } else {
                        let mut out = vec![Message::System];
                        out.extend(summarize(&messages[1..i]).map(Message::Summary));
                        out.extend_from_slice(&messages[i..]);
                        out
                    }
                }
                _ => all(&messages),
            };
        }
        series.push(count(&messages) as u32);
    }
    series
}

/// Codex: the auto-compact limit, `collect_user_messages` and `build_compacted_history_with_limit`,
/// with the 20,000-of-272,000 share of the budget.
fn codex_reference(script: &Script, budget: u32) -> Vec<u32> {
    let limit = u64::from(budget) * 9 / 10;
    let max_tokens = (f64::from(budget) * 20_000.0 / 272_000.0).round() as u64;
    let mut summary: Option<String> = None;
    let mut summarised: Vec<u32> = Vec::new();
    // The history since the last compaction: (turn, text as the model sees it).
    let mut history: Vec<(u32, String)> = Vec::new();
    let mut series = Vec::new();
    for n in 1..=script.len() as u32 {
        history.push((n, text(script, n).to_owned()));
        let total = |summary: &Option<String>, history: &[(u32, String)]| {
            summary.as_deref().map_or(0, words) + history.iter().map(|(_, t)| words(t)).sum::<u64>()
        };
        if total(&summary, &history) >= limit {
            let mut parts: Vec<String> = summary.iter().cloned().collect();
            for (turn, _) in &history {
                if !summarised.contains(turn) {
                    summarised.push(*turn);
                    parts.extend(summary_line(script, *turn).map(str::to_owned));
                }
            }
            summary = join(parts);
            let user_messages: Vec<(u32, String)> = history
                .iter()
                .filter(|(turn, _)| role(script, *turn) == Role::User)
                .cloned()
                .collect();
            let mut selected = Vec::new();
            let mut remaining = max_tokens;
            for (turn, message) in user_messages.iter().rev() {
                if remaining == 0 {
                    break;
                }
                let tokens = words(message);
                if tokens <= remaining {
                    selected.push((*turn, message.clone()));
                    remaining -= tokens;
                } else {
                    let w: Vec<&str> = message.split_whitespace().collect();
                    let left = remaining as usize / 2;
                    let right = remaining as usize - left;
                    let truncated = [&w[..left], &["…"], &w[w.len() - right..]]
                        .concat()
                        .join(" ");
                    selected.push((*turn, truncated));
                    break;
                }
            }
            selected.reverse();
            history = selected;
        }
        series.push(total(&summary, &history) as u32);
    }
    series
}

/// ADK: `_run_compaction_for_sliding_window` at the end of each invocation, and
/// `_process_compaction_events` to build the prompt. Turn numbers stand for timestamps.
fn adk_reference(script: &Script, interval: usize, overlap: usize) -> Vec<u32> {
    enum Event {
        Raw(u32),
        Compaction { start: u32, text: String },
    }
    let n_turns = script.len() as u32;
    let mut invocations: Vec<Vec<u32>> = Vec::new();
    let mut events: Vec<Event> = Vec::new();
    let mut last_compacted_end = 0;
    let mut series = Vec::new();
    for n in 1..=n_turns {
        if invocations.is_empty() || role(script, n) == Role::User {
            invocations.push(Vec::new());
        }
        invocations.last_mut().unwrap().push(n);
        events.push(Event::Raw(n));
        let invocation_over = n == n_turns || role(script, n + 1) == Role::User;
        if invocation_over {
            let new: Vec<usize> = (0..invocations.len())
                .filter(|&i| *invocations[i].last().unwrap() > last_compacted_end)
                .collect();
            if new.len() >= interval {
                let start_idx = new[0].saturating_sub(overlap);
                let start = invocations[start_idx][0];
                let parts = (start..=n)
                    .filter_map(|t| summary_line(script, t).map(str::to_owned))
                    .collect();
                if let Some(text) = join(parts) {
                    events.push(Event::Compaction { start, text });
                    last_compacted_end = n;
                }
            }
        }
        // _process_compaction_events: newest first, keep every summary, skip raw events at or
        // after the earliest compacted start seen so far.
        let mut tokens = 0;
        let mut last_compaction_start = u32::MAX;
        for event in events.iter().rev() {
            match event {
                Event::Compaction { start, text } => {
                    tokens += words(text);
                    last_compaction_start = last_compaction_start.min(*start);
                }
                Event::Raw(t) if *t < last_compaction_start => tokens += words(text(script, *t)),
                Event::Raw(_) => {}
            }
        }
        series.push(tokens as u32);
    }
    series
}

fn series_of(id: &str, script: &Script, budget: u32) -> Vec<u32> {
    let mut session = Session::with_policy(
        SessionConfig::new(Tokens(budget), 2).unwrap(),
        script.clone(),
        policy(id.parse().unwrap()),
    );
    let mut series = Vec::new();
    while let Some(step) = session.add_turn() {
        series.push(step.tokens_after.0);
    }
    series
}

#[test]
fn letta_matches_its_reference_on_the_refund_desk() {
    let script = Script::refund_desk();
    assert_eq!(
        series_of("sliding-window", &script, 40),
        letta_reference(&script, 40)
    );
}

/// A script of `(agent's turn, words, summary words)`; no summary words makes it chatter.
fn synthetic(turns: &[(bool, usize, usize)]) -> Script {
    let specs = turns
        .iter()
        .map(|&(agent, words, summary)| TurnSpec {
            speaker: Some(if agent { "agent" } else { "Dana" }.into()),
            kind: Some(
                match (agent, summary) {
                    (_, 0) => "chatter",
                    (true, _) => "decision",
                    (false, _) => "question",
                }
                .into(),
            ),
            text: Some(vec!["word"; words].join(" ")),
            summary: (summary > 0).then(|| vec!["gist"; summary].join(" ")),
            tokens: None,
            ..TurnSpec::default()
        })
        .collect();
    Script::new(specs).unwrap()
}

/// One of Letta's cuts here falls exactly half-way, and Python's `round` goes to the even side.
#[test]
fn lettas_cut_rounds_half_to_even_as_python_does() {
    let script = synthetic(&[
        (false, 2, 1),
        (true, 5, 2),
        (true, 3, 1),
        (true, 3, 1),
        (false, 3, 1),
        (false, 4, 2),
        (false, 4, 2),
        (true, 4, 0),
        (true, 2, 1),
        (true, 6, 1),
        (true, 1, 2),
        (false, 3, 0),
        (false, 3, 0),
        (false, 5, 1),
        (false, 2, 2),
        (true, 3, 0),
        (false, 1, 0),
        (false, 6, 1),
    ]);
    let series = series_of("sliding-window", &script, 56);
    assert_eq!(series, letta_reference(&script, 56));
    assert_eq!(series[15..], [39, 40, 46]);
}

/// Letta re-counts what the sliding window kept (without the summary); at its threshold it
/// summarises only that, and the evicted turns' summary is lost.
#[test]
fn lettas_check_after_the_sliding_window_can_lose_the_evicted_summary() {
    let script = synthetic(&[(false, 1, 1), (true, 1, 1), (true, 1, 1)]);
    assert_eq!(
        series_of("sliding-window", &script, 3),
        letta_reference(&script, 3)
    );
    let mut session = Session::with_policy(
        SessionConfig::new(Tokens(3), 2).unwrap(),
        script,
        policy("sliding-window".parse().unwrap()),
    );
    while session.add_turn().is_some() {}
    let state = session.state();
    assert!(state.hot.is_empty());
    assert_eq!(state.warm.len(), 1);
    assert_eq!(state.warm[0].turns(), [2, 3]);
}

#[test]
fn codex_matches_its_reference_on_the_refund_desk() {
    let script = Script::refund_desk();
    assert_eq!(
        series_of("handoff", &script, 40),
        codex_reference(&script, 40)
    );
}

#[test]
fn adk_matches_its_reference_on_the_refund_desk() {
    let script = Script::refund_desk();
    assert_eq!(
        series_of("interval", &script, 40),
        adk_reference(&script, 3, 1)
    );
}

/// Turns listed as `4, 6, 8`, or `none`.
fn turns(list: impl Iterator<Item = u32>) -> String {
    let list: Vec<String> = list.map(|t| t.to_string()).collect();
    if list.is_empty() {
        "none".into()
    } else {
        list.join(", ")
    }
}

/// The section of the README that compares the frameworks, generated here from the core.
fn frameworks_section() -> String {
    let mut playground = Playground::default();
    playground.go_to(10);
    let state = playground.state();
    let mut out = String::from("| policy | from | its rule | source |\n|---|---|---|---|\n");
    for row in &state.policies {
        let info = &row.info;
        let source = if info.url.is_empty() {
            info.source.to_owned()
        } else {
            format!("[{}]({})", info.source, info.url)
        };
        out += &format!(
            "| {} | {} | {} | {source} |\n",
            info.name, info.origin, info.rule
        );
    }
    out += "\n| policy | compactions | final tokens (budget 40) | over budget at the peak, turns | over budget after the step, turns |";
    for fact in &state.facts {
        out += &format!(" {fact} |");
    }
    out += "\n|---|---|---|---|---|";
    out += &"---|".repeat(state.facts.len());
    for row in &state.policies {
        let log = &row.window.log;
        let after = log
            .iter()
            .filter(|s| s.tokens_after > state.budget)
            .map(|s| s.turn.0);
        out += &format!(
            "\n| {} | {} | {} | {} | {} |",
            row.info.name,
            row.compactions,
            row.tokens.0,
            turns(row.window.crossings.iter().map(|t| t.0)),
            turns(after)
        );
        for kept in &row.kept {
            out += match kept {
                Named::Meaning => " meaning |",
                Named::BareTerm => " bare term |",
                Named::Gone => " gone |",
                Named::NotYetSaid => " not yet said |",
            };
        }
    }
    out + "\n\n" + state.facts_rule + "\n"
}

/// A fact no turn has brought up yet (in its text, speaker or summary) is not yet said, not gone,
/// under every policy; once a turn brings it up, the window's rule grades it.
#[test]
fn facts_the_conversation_has_not_reached_are_not_yet_said() {
    let mut playground = Playground::default();
    let facts = playground.state().facts;
    let first_said = |fact: &str| {
        let term = KEY_FACTS
            .iter()
            .find(|(label, _)| *label == fact)
            .map_or(fact, |(_, term)| *term);
        Script::refund_desk()
            .turns()
            .iter()
            .position(|turn| {
                turn.text().contains(term)
                    || turn.speaker().contains(term)
                    || turn.summary().is_some_and(|summary| summary.contains(term))
            })
            .map(|at| at as u32 + 1)
            .expect("every key fact is said")
    };
    for turn in 0..=10 {
        playground.go_to(turn);
        for row in &playground.state().policies {
            for (fact, kept) in facts.iter().zip(&row.kept) {
                let said = first_said(fact) <= turn;
                assert_eq!(
                    *kept != Named::NotYetSaid,
                    said,
                    "{} at turn {turn}: {fact}",
                    row.info.name
                );
            }
        }
    }
    // Globex comes up at turn 8: before it, every policy has it not yet said. Dana speaks from
    // turn 1: while her turns are verbatim, every window names her.
    assert_eq!(first_said("Globex"), 8);
    assert_eq!(first_said("Dana"), 1);
    playground.go_to(3);
    let state = playground.state();
    for row in &state.policies {
        assert_eq!(row.kept[0], Named::Meaning, "{}", row.info.name);
    }
}

#[test]
fn the_readme_comparison_is_generated_from_the_core() {
    common::readme_section("frameworks", &frameworks_section(), "playground");
}

/// The largest output the README's table assumes for Claude Code: Claude Sonnet 4.5's, 64,000.
const MAX_OUTPUT: u32 = 64_000;

/// The frameworks' real triggers, each as a share of a 200K window and as `compact at %`.
fn settings_section() -> String {
    let window = REFERENCE_WINDOW;
    let mut out = String::from(
        "| framework | its setting | at a 200K window | compact at % | source |\n|---|---|---|---|---|\n",
    );
    for setting in FRAMEWORK_SETTINGS {
        let (share, at) = match (
            setting.share_of(window, MAX_OUTPUT),
            setting.compact_at(window, MAX_OUTPUT),
        ) {
            (Some(share), Some(at)) => (
                format!("{}%", (share * 1000.0).round() / 10.0),
                at.to_string(),
            ),
            _ => ("no default".to_owned(), "—".to_owned()),
        };
        out += &format!(
            "| {} | {} | {share} | {at} | [{}]({}) |\n",
            setting.framework, setting.setting, setting.source, setting.url
        );
    }
    out
}

#[test]
fn the_readme_settings_table_is_generated_from_the_core() {
    common::readme_section("settings", &settings_section(), "playground");
}

fn arb_script() -> impl Strategy<Value = Script> {
    let kinds = prop_oneof![
        Just("chatter"),
        Just("decision"),
        Just("tool"),
        Just("question")
    ];
    let speakers = prop_oneof![Just("Dana"), Just("agent"), Just("tool")];
    let word = prop_oneof![
        Just("word".to_owned()),
        (0u32..500).prop_map(|n| format!("ORD-{n}")),
        Just("Dana".to_owned())
    ];
    let turn = (
        speakers,
        kinds,
        prop::collection::vec(word.clone(), 1..40),
        prop::collection::vec(word, 1..10),
    )
        .prop_map(|(speaker, kind, text, summary)| TurnSpec {
            speaker: Some(speaker.into()),
            kind: Some(kind.into()),
            text: Some(text.join(" ")),
            summary: Some(summary.join(" ")),
            tokens: None,
            ..TurnSpec::default()
        });
    prop::collection::vec(turn, 1..60).prop_map(|specs| Script::new(specs).unwrap())
}

fn run(id: &str, config: SessionConfig, script: &Script) -> Session {
    let mut session = Session::with_policy(config, script.clone(), policy(id.parse().unwrap()));
    while session.add_turn().is_some() {}
    session
}

/// Whether every verbatim turn of `state` is the user's.
fn only_user_turns(script: &Script, state: &SessionState) -> bool {
    state
        .hot
        .iter()
        .all(|t| role(script, t.turn.0) == Role::User)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn the_frameworks_match_their_references(script in arb_script(), budget in prop_oneof![1u32..6, 1u32..120]) {
        prop_assert_eq!(series_of("sliding-window", &script, budget), letta_reference(&script, budget));
        prop_assert_eq!(series_of("handoff", &script, budget), codex_reference(&script, budget));
        prop_assert_eq!(series_of("interval", &script, budget), adk_reference(&script, 3, 1));
    }

    #[test]
    fn ours_stays_within_budget_whenever_a_fit_is_possible(script in arb_script(), budget in 1u32..120, hot_n in 1u32..4) {
        let config = SessionConfig::new(Tokens(budget), hot_n).unwrap();
        let ours = run("hot-warm-cold", config, &script);
        for step in ours.log() {
            let from = step.turn.0.saturating_sub(hot_n) + 1;
            let hot: u32 = (from..=step.turn.0).map(|n| script.turn(TurnNumber(n)).unwrap().tokens().0).sum();
            if hot + agent_memory_widgets::GIST_TERMS as u32 <= budget {
                prop_assert!(step.tokens_after <= config.budget(), "ours turn {}", step.turn);
            }
        }
    }

    #[test]
    fn letta_keeps_one_summary_and_its_kept_turns_under_70_percent(script in arb_script(), budget in 1u32..120) {
        let config = SessionConfig::new(Tokens(budget), 2).unwrap();
        let mut session = Session::with_policy(config, script.clone(), policy("sliding-window".parse().unwrap()));
        while let Some(step) = session.add_turn() {
            let state = session.state();
            prop_assert!(state.warm.len() <= 1 && state.cold.is_none());
            if step.compacted {
                let kept = session.window().verbatim_tokens().0;
                prop_assert!(state.hot.is_empty() || kept * 10 < budget * 7, "turn {}: {kept}", step.turn);
            }
        }
    }

    #[test]
    fn codex_keeps_only_user_messages_within_its_share(script in arb_script(), budget in 1u32..400) {
        let config = SessionConfig::new(Tokens(budget), 2).unwrap();
        let cap = (budget * 20_000 + 136_000) / 272_000;
        let mut session = Session::with_policy(config, script.clone(), policy("handoff".parse().unwrap()));
        while let Some(step) = session.add_turn() {
            let state = session.state();
            prop_assert!(state.warm.len() <= 1);
            if step.compacted {
                prop_assert!(only_user_turns(&script, &state));
                // A message cut to fit carries one `…` beyond the share.
                prop_assert!(session.window().verbatim_tokens().0 <= cap + 1);
            }
        }
    }

    #[test]
    fn adk_leaves_nothing_verbatim_in_a_compacted_range(script in arb_script()) {
        let mut session = Session::with_policy(SessionConfig::default(), script.clone(), policy("interval".parse().unwrap()));
        while let Some(step) = session.add_turn() {
            if step.compacted {
                prop_assert!(session.state().hot.is_empty());
                let next = script.turn(TurnNumber(step.turn.0 + 1));
                prop_assert!(next.is_none_or(|_| role(&script, step.turn.0 + 1) == Role::User));
            }
        }
    }

    #[test]
    fn the_summary_buffer_keeps_its_verbatim_part_under_the_limit(script in arb_script(), budget in 1u32..120) {
        let config = SessionConfig::new(Tokens(budget), 2).unwrap();
        let mut session = Session::with_policy(config, script.clone(), policy("summary-buffer".parse().unwrap()));
        while session.add_turn().is_some() {
            prop_assert!(session.window().verbatim_tokens() <= config.budget());
            let state = session.state();
            prop_assert_eq!(state.over_budget, state.tokens > config.budget());
        }
    }

    #[test]
    fn truncate_never_holds_a_summary(script in arb_script(), budget in 1u32..120) {
        let mut session = Session::with_policy(SessionConfig::new(Tokens(budget), 2).unwrap(), script, policy("truncate".parse().unwrap()));
        while session.add_turn().is_some() {
            let state = session.state();
            prop_assert!(state.warm.is_empty() && state.cold.is_none());
            prop_assert!(state.hot.len() == 1 || state.tokens <= state.budget);
        }
    }

    /// The verdicts a page words, at any turn under every policy: each step's window against
    /// the budget, each row's turns over it so far and its compactions that left the window no
    /// smaller, and the rows over, within, naming every fact in full, and both.
    #[test]
    fn every_row_carries_its_verdicts_against_the_budget(script in arb_script(), budget in 1u32..120, at in 0u32..64) {
        let mut playground = Playground::new(SessionConfig::new(Tokens(budget), 2).unwrap(), script);
        playground.go_to(at);
        let state = playground.state();
        let (mut over, mut within, mut whole, mut both) = (vec![], vec![], vec![], vec![]);
        for (index, row) in (0u32..).zip(&state.policies) {
            let mut no_smaller = Vec::new();
            for step in &row.window.log {
                let after = step.tokens_after.0;
                prop_assert_eq!(step.over_budget, after > budget);
                prop_assert_eq!(step.room.0, budget.saturating_sub(after));
                prop_assert_eq!(step.no_smaller, step.compacted && after >= step.peak_tokens.0);
                if step.no_smaller {
                    no_smaller.push(step.turn);
                }
            }
            prop_assert_eq!(&row.no_smaller, &no_smaller, "{}", row.info.id);
            let over_so_far: Vec<TurnNumber> = (1..=state.turn)
                .filter(|&turn| row.series[turn as usize - 1].0 > budget)
                .map(TurnNumber)
                .collect();
            prop_assert_eq!(&row.over_so_far, &over_so_far, "{}", row.info.id);
            prop_assert_eq!(row.window.over_budget, row.tokens.0 > budget);
            if row.tokens.0 > budget { over.push(index) } else { within.push(index) }
            if row.kept.iter().all(|&named| named == Named::Meaning || named == Named::NotYetSaid) {
                whole.push(index);
                if row.tokens.0 <= budget {
                    both.push(index);
                }
            }
        }
        prop_assert_eq!((&state.over, &state.within), (&over, &within));
        prop_assert_eq!((&state.whole, &state.both), (&whole, &both));
    }

    #[test]
    fn every_policy_is_deterministic_and_counts_its_window_exactly(script in arb_script(), budget in 1u32..120) {
        let config = SessionConfig::new(Tokens(budget), 2).unwrap();
        for info in POLICIES {
            let (a, b) = (run(info.id.name(), config, &script).state(), run(info.id.name(), config, &script).state());
            prop_assert_eq!(&a, &b);
            let words = window_text(&a).split_whitespace().count() as u32;
            prop_assert_eq!(words, a.tokens.0, "{} counts its window", info.id);
        }
    }
}

/// Letta's eviction percentage as its loop steps it in floating point: 0.4, 0.5, ...,
/// 0.9999999999999999, then 1.0999999999999999, never exactly 1.0. So its `< 1.0` and a
/// `<= 1.0` agree; `.cargo/mutants.toml` lists that mutant as equivalent on this ground.
#[test]
fn lettas_percentage_steps_past_one_without_touching_it() {
    let mut percentage = 0.3_f64;
    let mut steps = Vec::new();
    while percentage < 1.0 {
        percentage += 0.1;
        steps.push(percentage);
    }
    assert_eq!(steps.len(), 8);
    assert_eq!(steps[6], 0.9999999999999999);
    assert_eq!(steps[7], 1.0999999999999999);
    assert!(steps.iter().all(|&step| step != 1.0));
}

/// Each policy that ends the refund desk over budget says why, with its own numbers: the parts of
/// its window add up to the tokens it holds.
#[test]
fn each_policy_over_budget_at_turn_10_says_why_in_its_own_numbers() {
    let mut playground = Playground::default();
    playground.go_to(10);
    let reasons: Vec<(String, Option<String>)> = playground
        .state()
        .policies
        .into_iter()
        .map(|row| (row.info.id.name().to_owned(), row.window.over_budget_reason))
        .collect();
    let expected = [
        ("hot-warm-cold", None),
        ("sliding-window", Some("Letta checks the fit without its new summary: the turns it kept take 25 tokens, under 70% of the budget of 40, but the summary adds 39, so the window holds 64 tokens, over the budget. Letta logs this and carries on.")),
        ("summary-buffer", Some("The summary buffer keeps its verbatim turns within the limit of 40 tokens but does not count its moving summary, which adds 24 more.")),
        ("handoff", Some("Codex's handoff summary has no length limit: it takes 50 tokens, and the user messages kept with it 4, more than the budget of 40.")),
        ("interval", Some("ADK compacts every 3 user invocations whatever the budget, and keeps every summary: its summaries and the turns since take 66 tokens, more than the budget of 40.")),
        ("truncate", None),
        ("observation-masking", Some("Observation masking only hides old tool outputs; it never summarises or drops a turn, so the window keeps 86 tokens, more than the budget of 40.")),
    ];
    let expected: Vec<(String, Option<String>)> = expected
        .iter()
        .map(|(id, reason)| ((*id).to_owned(), reason.map(str::to_owned)))
        .collect();
    assert_eq!(reasons, expected);
}

/// What Codex's first handoff (turn 4, at 41 of 40 tokens) records: the user messages it keeps
/// are the newest within 3 tokens, so turn 2, cut; the rest leave the window, the chatter of
/// turn 1 dropped and turns 3 and 4 summarised.
#[test]
fn codexs_handoff_records_what_left_the_window() {
    let mut session = Session::with_policy(
        SessionConfig::default(),
        Script::refund_desk(),
        policy("handoff".parse().unwrap()),
    );
    session.go_to(4);
    let step = session.log().last().unwrap().clone();
    assert!(step.compacted);
    assert_eq!(step.to_warm, [TurnNumber(3), TurnNumber(4)]);
    assert_eq!(step.dropped, [TurnNumber(1)]);
    assert!(step.to_cold.is_empty());
    let state = session.state();
    assert_eq!(state.hot.len(), 1);
    assert_eq!(state.hot[0].turn, TurnNumber(2));
    assert!(state.hot[0].text.contains('…'), "{}", state.hot[0].text);
}

/// Truncation keeps the newest turn even when it alone is over the budget.
#[test]
fn truncation_keeps_a_newest_turn_that_alone_is_over_the_budget() {
    let long = TurnSpec {
        speaker: Some("Dana".into()),
        kind: Some("question".into()),
        text: Some("one two three four five six seven eight nine ten".into()),
        summary: Some("Dana counts to ten.".into()),
        tokens: None,
        ..TurnSpec::default()
    };
    let short = TurnSpec {
        text: Some("hi".into()),
        ..long.clone()
    };
    let script = Script::new(vec![short, long]).unwrap();
    let config = SessionConfig::new(Tokens(5), 1).unwrap();
    let mut session = Session::with_policy(config, script, policy("truncate".parse().unwrap()));
    session.go_to(2);
    let state = session.state();
    assert_eq!(
        state.hot.iter().map(|turn| turn.turn.0).collect::<Vec<_>>(),
        [2]
    );
    assert_eq!(state.tokens, Tokens(10));
    assert!(state.over_budget);
}

/// Masking forgets its newest tool output when the session replays: stepping back and forward
/// again keeps that output verbatim, as the first time.
#[test]
fn observation_masking_starts_afresh_on_a_replay() {
    let mut session = Session::with_policy(
        SessionConfig::default(),
        Script::refund_desk(),
        policy("observation-masking".parse().unwrap()),
    );
    session.go_to(3);
    let first = session.state();
    session.go_to(2);
    session.go_to(3);
    assert_eq!(session.state(), first);
    let tool = Script::refund_desk()
        .turn(TurnNumber(3))
        .unwrap()
        .text()
        .to_owned();
    assert_eq!(first.hot.last().map(|turn| turn.text.clone()), Some(tool));
}

/// One version a framework (#55.17): each framework's row in the playground and its entry in the
/// list of real triggers cite the same release or commit, the one the simulation follows.
#[test]
fn each_framework_is_cited_at_one_version_in_its_row_and_in_the_triggers() {
    for (origin, setting, versions) in [
        ("Letta", "Letta", &["letta-ai/letta@56ba9c2"][..]),
        (
            "OpenAI Codex",
            "OpenAI Codex CLI",
            &["openai/codex@e06dd0e"][..],
        ),
        ("Google ADK", "Google ADK", &["google-adk 1.21.0"][..]),
        (
            "LangChain",
            "LangChain summary buffer",
            &["langchain 0.3.30"][..],
        ),
    ] {
        let rows: Vec<_> = POLICIES.iter().filter(|p| p.origin == origin).collect();
        assert!(!rows.is_empty(), "{origin}");
        let entry = FRAMEWORK_SETTINGS
            .iter()
            .find(|s| s.framework == setting)
            .unwrap_or_else(|| panic!("no trigger for {setting}"));
        for version in versions {
            assert!(
                entry.source.contains(version),
                "{setting}: {}",
                entry.source
            );
            for row in &rows {
                // Every LangChain row cites langchain 0.3.30.
                assert!(row.source.contains(version), "{}: {}", row.name, row.source);
            }
        }
    }
}

/// One version a framework everywhere (#55.17): every citation of a framework's source in src/
/// (the rows and triggers the page shows, and the docs), www/ and the README names the version the
/// simulation follows, by name (`google-adk 1.21.0`) or in a link (`google-adk/1.21.0/`).
#[test]
fn every_citation_of_a_framework_names_the_version_the_simulation_follows() {
    // What follows each prefix, up to the first character that cannot be in a version.
    let cited = [
        ("openai/codex@", "e06dd0e"),
        ("openai/codex/blob/", "e06dd0e"),
        ("letta-ai/letta@", "56ba9c2"),
        ("letta-ai/letta/blob/", "56ba9c2"),
        ("google-adk ", "1.21.0"),
        ("google-adk/", "1.21.0"),
        ("langchain ", "0.3.30"),
        ("langchain/", "0.3.30"),
        ("langchain-core ", "0.3.85"),
        ("langchain-core/", "0.3.85"),
    ];
    fn files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if !path.ends_with("pkg") {
                    files(&path, out);
                }
            } else if path
                .extension()
                .is_some_and(|ext| ext == "rs" || ext == "js" || ext == "html")
            {
                out.push(path);
            }
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = vec![root.join("README.md"), root.join("ARCHITECTURE.md")];
    files(&root.join("src"), &mut paths);
    files(&root.join("www"), &mut paths);
    let mut seen = 0;
    for path in &paths {
        let text = std::fs::read_to_string(path).unwrap();
        for (prefix, version) in cited {
            for (at, _) in text.match_indices(prefix) {
                let rest = &text[at + prefix.len()..];
                let end = rest
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '.'))
                    .unwrap_or(rest.len());
                let named = rest[..end].trim_end_matches('.');
                // A version starts with a digit; a commit is the short hash or the whole one.
                if !named.starts_with(|c: char| c.is_ascii_digit()) && named.len() < 7 {
                    continue;
                }
                seen += 1;
                assert!(
                    named == version || (named.len() == 40 && named.starts_with(version)),
                    "{}: {prefix}{named}, where the simulation follows {prefix}{version}",
                    path.display()
                );
            }
        }
    }
    assert!(seen >= 20, "only {seen} citations found");
}

/// The verdicts a page draws without comparing a count with the budget itself: the turns after
/// which each window is over the budget (Letta's from turn 8: 43, 51 and 64 tokens of 40; the
/// summary buffer's from turn 6: 43 tokens), and the knob's trigger in tokens (a share of the
/// budget, rounded down).
#[test]
fn the_state_gives_the_verdicts_the_page_draws() {
    let state = Playground::default().state();
    let over = |id: &str| -> Vec<u32> {
        let row = state
            .policies
            .iter()
            .find(|row| row.info.id.name() == id)
            .unwrap();
        row.over_turns.iter().map(|turn| turn.0).collect()
    };
    assert_eq!(over("hot-warm-cold"), [] as [u32; 0]);
    assert_eq!(over("sliding-window"), [8, 9, 10]);
    assert_eq!(over("summary-buffer"), [6, 7, 8, 9, 10]);
    for row in &state.policies {
        let counted: Vec<u32> = (1..)
            .zip(&row.series)
            .filter(|(_, tokens)| **tokens > state.budget)
            .map(|(turn, _)| turn)
            .collect();
        assert_eq!(
            row.over_turns.iter().map(|turn| turn.0).collect::<Vec<_>>(),
            counted,
            "{}",
            row.info.id
        );
    }
    assert_eq!((state.trigger, state.target), (None, Tokens(40)));
    for (budget, compact_at, trigger) in
        [(40.0, 70.0, 28), (30.0, 75.0, 22), (8_000.0, 83.0, 6_640)]
    {
        let options = SessionOptions {
            budget: Some(budget),
            compact_at: Some(compact_at),
            ..SessionOptions::default()
        };
        let state = Playground::from_options(options).unwrap().state();
        assert_eq!(
            state.trigger,
            Some(Tokens(trigger)),
            "{compact_at}% of {budget}"
        );
    }
}

/// `compact_to` through the options a page gives: ours compacts the window down to that share of
/// the budget (or as near as its HOT turns and gist allow), and the state says the target.
#[test]
fn compact_to_in_the_options_sets_what_ours_compacts_down_to() {
    let options = SessionOptions {
        compact_at: Some(60.0),
        compact_to: Some(50.0),
        ..SessionOptions::default()
    };
    let mut playground = Playground::from_options(options).unwrap();
    playground.go_to(10);
    let state = playground.state();
    assert_eq!(
        (state.trigger, state.target),
        (Some(Tokens(24)), Tokens(20))
    );
    let lower = series_at(Some(60.0));
    let ours: Vec<u32> = state.policies[0].series.iter().map(|t| t.0).collect();
    assert!(
        ours.iter().sum::<u32>() < lower[0].iter().sum::<u32>(),
        "{ours:?} against {:?}",
        lower[0]
    );
    let err = Playground::from_options(SessionOptions {
        compact_to: Some(0.0),
        ..SessionOptions::default()
    })
    .err()
    .unwrap();
    assert_eq!(
        err.message(),
        "compact_to must be a whole number of at least 1, got 0"
    );
}
