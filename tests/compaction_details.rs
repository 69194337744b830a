//! The fine print of compaction that the seed, golden and property tests leave open: what a
//! compaction records, the script's accessors and errors, the window's bookkeeping, and the
//! over-budget sentences. Each value is exact, from SPEC section 2 and the refund-desk script, so
//! that a planted bug (`make mutants`) shows up here.

use agent_memory_widgets::TurnNumber;
use agent_memory_widgets::{
    Compaction, CompactionPolicy, Kind, Line, Script, Session, SessionConfig, SummaryBuffer,
    Tokens, TurnSpec, Window,
};

fn spec(kind: &str, text: &str, summary: Option<&str>) -> TurnSpec {
    TurnSpec {
        speaker: Some("Dana".into()),
        kind: Some(kind.into()),
        text: Some(text.into()),
        summary: summary.map(Into::into),
        tokens: None,
        ..TurnSpec::default()
    }
}

// ---------------------------------------------------------------------------------------------
// What a compaction records.

#[test]
fn a_compaction_records_chatter_as_dropped_and_everything_else_as_warm() {
    let script = Script::refund_desk();
    let mut step = Compaction::default();
    // Turns 1 and 5 are chatter; 2 a question, 3 a tool output, 4 a decision; 11 is past the end.
    for number in [1, 2, 3, 4, 5, 11] {
        step.record(&script, TurnNumber(number));
    }
    assert_eq!(
        step,
        Compaction {
            to_warm: vec![TurnNumber(2), TurnNumber(3), TurnNumber(4)],
            to_cold: vec![],
            dropped: vec![TurnNumber(1), TurnNumber(5), TurnNumber(11)],
            asked: vec![],
        }
    );
}

// ---------------------------------------------------------------------------------------------
// Kinds and scripts.

#[test]
fn kinds_read_and_write_their_script_names() {
    let kinds = [Kind::Chatter, Kind::Decision, Kind::Tool, Kind::Question];
    for (kind, name) in kinds
        .into_iter()
        .zip(["chatter", "decision", "tool", "question"])
    {
        assert_eq!(kind.name(), name);
        assert_eq!(name.parse::<Kind>().ok(), Some(kind));
    }
    assert_eq!("Chatter".parse::<Kind>().ok(), None);
    assert_eq!("".parse::<Kind>().ok(), None);
}

#[test]
fn the_refund_desk_script_gives_each_turn_its_speaker_kind_text_and_summary() {
    let script = Script::refund_desk();
    assert_eq!((script.len(), script.is_empty()), (10, false));
    assert_eq!(script.turns().len(), 10);
    assert_eq!(Script::default(), script);
    assert_eq!(script.turn(TurnNumber(0)), None);
    assert_eq!(script.turn(TurnNumber(11)), None);

    let turn = script.turn(TurnNumber(3)).unwrap();
    assert_eq!(turn, &script.turns()[2]);
    assert_eq!(turn.speaker(), "tool");
    assert_eq!(turn.kind(), Kind::Tool);
    assert_eq!(
        turn.text(),
        "lookup ORD-3300: $200.00, returned on day 41, outside the 30-day window."
    );
    assert_eq!(
        turn.summary(),
        Some("ORD-3300 came back after the 30-day window.")
    );
    assert_eq!(turn.tokens(), Tokens(11));

    let chatter = script.turn(TurnNumber(5)).unwrap();
    assert_eq!(
        (chatter.speaker(), chatter.kind(), chatter.summary()),
        ("Dana", Kind::Chatter, None)
    );
    assert_eq!(chatter.tokens(), Tokens(4));

    // Every turn's token count is its word count.
    let tokens: Vec<u32> = script.turns().iter().map(|turn| turn.tokens().0).collect();
    assert_eq!(tokens, [8, 10, 11, 12, 4, 9, 6, 9, 12, 13]);
}

#[test]
fn a_custom_script_keeps_what_was_written_and_ignores_a_chatter_summary() {
    let script = Script::new(vec![
        spec("chatter", "Hello  there!", Some("ignored")),
        spec("decision", " Refund approved. ", Some("refund approved")),
    ])
    .unwrap();
    let (first, second) = (
        script.turn(TurnNumber(1)).unwrap(),
        script.turn(TurnNumber(2)).unwrap(),
    );
    assert_eq!(
        (first.kind(), first.text(), first.summary(), first.tokens()),
        (Kind::Chatter, "Hello  there!", None, Tokens(2))
    );
    assert_eq!(
        (
            second.kind(),
            second.text(),
            second.summary(),
            second.tokens()
        ),
        (
            Kind::Decision,
            " Refund approved. ",
            Some("refund approved"),
            Tokens(2)
        )
    );
}

#[test]
fn bad_scripts_are_errors_that_name_the_turn_and_the_field() {
    let check = |specs: Vec<TurnSpec>, expect: &str| {
        assert_eq!(Script::new(specs).unwrap_err().message(), expect);
    };
    let ok = spec("chatter", "Hi", None);
    check(vec![], "script must have at least 1 turn, got 0");
    check(
        vec![
            ok.clone(),
            TurnSpec {
                speaker: None,
                ..ok.clone()
            },
        ],
        "script[1].speaker (turn 2): must be a non-empty text",
    );
    check(
        vec![TurnSpec {
            speaker: Some(" \t".into()),
            ..ok.clone()
        }],
        "script[0].speaker (turn 1): must be a non-empty text",
    );
    check(
        vec![TurnSpec {
            kind: None,
            ..ok.clone()
        }],
        "script[0].kind (turn 1): must be a non-empty text",
    );
    check(
        vec![spec("Question", "Hi", Some("asks"))],
        "script[0].kind (turn 1): unknown kind \"Question\"; use chatter, decision, tool or question",
    );
    check(
        vec![spec("chatter", "  ", None)],
        "script[0].text (turn 1): must be a non-empty text",
    );
    check(
        vec![ok.clone(), ok.clone(), spec("tool", "output", None)],
        "script[2].summary (turn 3): a tool turn needs a one-line summary (only chatter goes without)",
    );
    check(
        vec![spec("question", "Why?", Some(""))],
        "script[0].summary (turn 1): a question turn needs a one-line summary (only chatter goes without)",
    );
}

// ---------------------------------------------------------------------------------------------
// The window.

#[test]
fn the_window_keeps_its_token_counts_exact_through_every_move() {
    let mut window = Window::default();
    let check = |window: &Window, tokens: u32, verbatim: u32| {
        assert_eq!(
            (window.tokens(), window.verbatim_tokens()),
            (Tokens(tokens), Tokens(verbatim))
        );
    };
    check(&window, 0, 0);
    window.push_verbatim(TurnNumber(1), Tokens(5));
    window.push_verbatim(TurnNumber(2), Tokens(7));
    check(&window, 12, 12);
    assert_eq!(window.verbatim().collect::<Vec<_>>(), [1, 2]);

    assert_eq!(window.pop_verbatim(), Some(TurnNumber(1)));
    check(&window, 7, 7);
    window.push_warm(Line::new(vec![TurnNumber(1)], "one two three"));
    window.push_warm(Line::new(vec![TurnNumber(3)], "four"));
    check(&window, 11, 7);
    assert_eq!(window.warm().len(), 2);

    let first = window.pop_warm().unwrap();
    assert_eq!(
        (first.turns(), first.text(), first.tokens()),
        (&[TurnNumber(1)][..], "one two three", Tokens(3))
    );
    check(&window, 8, 7);

    assert_eq!(
        window.set_cold(Some(Line::new(vec![TurnNumber(1)], "Dana, ORD-3300"))),
        None
    );
    check(&window, 10, 7);
    let old = window.set_cold(Some(Line::new(vec![TurnNumber(1), TurnNumber(3)], "Dana")));
    assert_eq!(old.map(|line| line.tokens()), Some(Tokens(2)));
    check(&window, 9, 7);
    assert_eq!(window.cold().map(|line| line.text()), Some("Dana"));
    assert_eq!(
        window.set_cold(None).map(|line| line.turns().to_vec()),
        Some(vec![TurnNumber(1), TurnNumber(3)])
    );
    check(&window, 8, 7);

    assert_eq!(window.pop_verbatim(), Some(TurnNumber(2)));
    assert_eq!(window.pop_verbatim(), None);
    assert_eq!(
        window.pop_warm().map(|line| line.text().to_owned()),
        Some("four".into())
    );
    assert_eq!(window.pop_warm(), None);
    check(&window, 0, 0);
}

#[test]
fn clearing_warm_removes_every_warm_line_and_its_tokens() {
    let mut window = Window::default();
    window.push_verbatim(TurnNumber(3), Tokens(5));
    window.push_warm(Line::new(vec![TurnNumber(1)], "one two"));
    window.push_warm(Line::new(vec![TurnNumber(2)], "three"));
    assert_eq!((window.warm().len(), window.tokens()), (2, Tokens(8)));
    window.clear_warm();
    assert_eq!((window.warm().len(), window.tokens()), (0, Tokens(5)));
    assert_eq!(window.verbatim().collect::<Vec<_>>(), [TurnNumber(3)]);
}

#[test]
fn a_popped_turn_takes_its_cut_with_it_and_leaves_the_others() {
    let mut window = Window::default();
    window.push_cut(TurnNumber(1), "I returned … back?".into());
    window.push_verbatim(TurnNumber(2), Tokens(4));
    window.push_cut(TurnNumber(3), "Also, my … warranty?".into());
    assert_eq!(
        (window.tokens(), window.verbatim_tokens()),
        (Tokens(12), Tokens(12))
    );
    assert_eq!(window.cut(TurnNumber(1)), Some("I returned … back?"));
    assert_eq!(window.cut(TurnNumber(2)), None);

    assert_eq!(window.pop_verbatim(), Some(TurnNumber(1)));
    assert_eq!(window.cut(TurnNumber(1)), None);
    assert_eq!(window.cut(TurnNumber(3)), Some("Also, my … warranty?"));
    assert_eq!(window.pop_verbatim(), Some(TurnNumber(2)));
    assert_eq!(window.cut(TurnNumber(3)), Some("Also, my … warranty?"));
    assert_eq!(window.pop_verbatim(), Some(TurnNumber(3)));
    assert_eq!(window.cut(TurnNumber(3)), None);
    assert_eq!(window.tokens(), Tokens(0));
}

#[test]
fn a_summary_line_keeps_its_turns_ascending_and_unique_whatever_order_they_come_in() {
    // A window built by hand, whose WARM line already cites turn 4 while turns 2 and 4 are still
    // verbatim: the summary buffer appends turn 2 (older than the line's newest) and then turn 4
    // (already cited) to that line.
    let script = Script::refund_desk();
    let mut window = Window::default();
    window.push_warm(Line::new(vec![TurnNumber(4)], "Agent approves."));
    for number in [TurnNumber(2), TurnNumber(4)] {
        window.push_verbatim(number, script.turn(number).unwrap().tokens());
    }
    let config = SessionConfig::new(Tokens(1), 1).unwrap();
    let step = SummaryBuffer
        .compact(&mut window, &script, &config)
        .unwrap()
        .unwrap();
    assert_eq!(step.to_warm, [TurnNumber(2), TurnNumber(4)]);
    assert_eq!(window.verbatim().len(), 0);
    let line = window.warm().next().unwrap();
    assert_eq!(line.turns(), [TurnNumber(2), TurnNumber(4)]);
}

// ---------------------------------------------------------------------------------------------
// Sessions.

#[test]
fn a_session_exposes_its_config_script_window_and_log() {
    let config = SessionConfig::new(Tokens(30), 3).unwrap();
    let mut session = Session::new(config, Script::refund_desk());
    assert_eq!(session.config(), config);
    assert_eq!(session.script(), &Script::refund_desk());
    assert_eq!((session.turn_count(), session.is_done()), (0, false));
    session.go_to(3);
    assert_eq!(session.turn_count(), 3);
    assert_eq!(session.window().verbatim().collect::<Vec<_>>(), [1, 2, 3]);
    assert_eq!(session.window().tokens(), Tokens(29));
    let turns: Vec<TurnNumber> = session.log().iter().map(|step| step.turn).collect();
    assert_eq!(turns, [1, 2, 3]);
    session.go_to(99);
    assert_eq!((session.turn_count(), session.is_done()), (10, true));
    session.go_to(2);
    assert_eq!((session.turn_count(), session.is_done()), (2, false));
    let custom = Script::new(vec![spec("chatter", "Hi", None)]).unwrap();
    let other = Session::new(config, custom.clone());
    assert_eq!(other.script(), &custom);
    let debug = format!("{session:?}");
    assert!(
        debug.starts_with("Session { config: SessionConfig { budget: Tokens(30), hot_n: 3, compact_at: None, compact_to: None, hard_budget: false, retention: None }, turns: 2, window: Window {"),
        "{debug}"
    );
}

#[test]
fn over_budget_sentences_say_whether_the_hot_turns_alone_are_too_big() {
    let check = |budget: u32, hot_n: u32, turns: u32, expect: Option<&str>| {
        let config = SessionConfig::new(Tokens(budget), hot_n).unwrap();
        let mut session = Session::new(config, Script::refund_desk());
        session.go_to(turns);
        let state = session.state();
        assert_eq!(
            state.over_budget,
            expect.is_some(),
            "{budget} {hot_n} {turns}"
        );
        assert_eq!(state.over_budget_reason.as_deref(), expect);
    };
    // Turns 1 to 3 take 29 tokens: within 29, over 28.
    check(29, 3, 3, None);
    check(
        28,
        3,
        3,
        Some("The last 3 turns must stay verbatim and alone take 29 tokens, more than the budget of 28, so no compaction can bring the window under it."),
    );
    // Budget 20, 2 HOT turns: after turn 3 the window holds a WARM line (7 words) and turns 2 and
    // 3 (21 words), but the HOT turns alone are over budget.
    check(
        20,
        2,
        3,
        Some("The last 2 turns must stay verbatim and alone take 21 tokens, more than the budget of 20, so no compaction can bring the window under it."),
    );
    // One HOT turn, after turn 4 (12 words): the gist (4 terms) is as small as it gets. The HOT
    // turn alone fits a budget of 12 exactly, so the sentence blames what is compacted.
    check(
        12,
        1,
        4,
        Some("Everything older than the last turn is already compacted, and the window still takes 16 tokens, more than the budget of 12."),
    );
    check(
        11,
        1,
        4,
        Some("The last turn must stay verbatim and alone take 12 tokens, more than the budget of 11, so no compaction can bring the window under it."),
    );
    check(
        25,
        2,
        10,
        Some("Everything older than the last 2 turns is already compacted, and the window still takes 33 tokens, more than the budget of 25."),
    );
}

#[test]
fn tokens_add_and_subtract_without_wrapping_and_print_as_numbers() {
    assert_eq!(Tokens(u32::MAX) + Tokens(1), Tokens(u32::MAX));
    assert_eq!(Tokens(3) + Tokens(4), Tokens(7));
    assert_eq!(Tokens(3) - Tokens(4), Tokens(0));
    assert_eq!(Tokens(9) - Tokens(4), Tokens(5));
    let mut tokens = Tokens(10);
    tokens += Tokens(5);
    assert_eq!(tokens, Tokens(15));
    tokens -= Tokens(20);
    assert_eq!(tokens, Tokens(0));
    assert_eq!(Tokens(41).to_string(), "41");
    assert_eq!(Tokens::of(""), Tokens(0));
    assert_eq!(Tokens::of(" a\u{3000}b\u{85}c\td\n"), Tokens(4));
}

// ---------------------------------------------------------------------------------------------
// Exactly at the budget.

#[test]
fn a_window_exactly_at_the_budget_is_not_over_it() {
    // Turns 1 to 3 take 8 + 10 + 11 = 29 tokens.
    let mut session = Session::new(
        SessionConfig::new(Tokens(29), 2).unwrap(),
        Script::refund_desk(),
    );
    session.go_to(3);
    let state = session.state();
    let step = state.log.last().unwrap();
    assert_eq!(
        (step.peak_tokens, step.crossed, step.compacted),
        (Tokens(29), false, false)
    );
    assert_eq!((state.tokens, state.over_budget), (Tokens(29), false));
    assert_eq!(state.crossings, [] as [u32; 0]);
    assert_eq!(state.hot.len(), 3);

    // One token less and turn 3 crosses: turn 1 (chatter) is dropped, turns 2 and 3 stay HOT.
    let mut session = Session::new(
        SessionConfig::new(Tokens(28), 2).unwrap(),
        Script::refund_desk(),
    );
    session.go_to(3);
    let state = session.state();
    let step = state.log.last().unwrap();
    assert_eq!((step.crossed, step.compacted), (true, true));
    assert_eq!(
        (step.to_warm.clone(), step.dropped.clone()),
        (vec![], vec![TurnNumber(1)])
    );
    assert_eq!(state.crossings, [3]);
}

#[test]
fn the_gist_takes_warm_lines_only_while_the_window_is_over_budget() {
    let script = Script::new(vec![
        spec(
            "question",
            "one two three four five six",
            Some("Dana asks twice"),
        ),
        spec("chatter", "thanks", None),
    ])
    .unwrap();
    let play = |budget: u32| {
        let mut session = Session::new(
            SessionConfig::new(Tokens(budget), 1).unwrap(),
            script.clone(),
        );
        session.go_to(2);
        session.state()
    };
    // After turn 2 the window is 7 tokens; folding turn 1 leaves a WARM line of 3 and turn 2's 1.
    let state = play(4);
    assert_eq!((state.tokens, state.cold.clone()), (Tokens(4), None));
    assert_eq!(state.warm[0].text(), "Dana asks twice");
    assert_eq!(state.log[1].to_cold, [] as [u32; 0]);
    // One token less and the WARM line goes COLD as its one key term.
    let state = play(3);
    assert_eq!(state.tokens, Tokens(2));
    assert_eq!(state.cold.unwrap().text(), "Dana");
    assert_eq!(state.log[1].to_cold, [1]);
}

/// `replace_verbatim` puts a text in a verbatim turn's place and keeps both counts exact.
#[test]
fn a_verbatim_turn_replaced_by_a_text_counts_the_text() {
    let mut window = Window::default();
    window.push_warm(Line::new(vec![TurnNumber(1)], "an old summary"));
    window.push_verbatim(TurnNumber(3), Tokens(12));
    window.push_verbatim(TurnNumber(4), Tokens(9));
    assert_eq!(
        (window.tokens(), window.verbatim_tokens()),
        (Tokens(24), Tokens(21))
    );
    assert!(window.replace_verbatim(TurnNumber(3), "[tool output of turn 3 omitted]".into()));
    assert_eq!(
        (window.tokens(), window.verbatim_tokens()),
        (Tokens(18), Tokens(15))
    );
    assert_eq!(
        window.cut(TurnNumber(3)),
        Some("[tool output of turn 3 omitted]")
    );
    // Replaced again, it keeps one text, the newest.
    assert!(window.replace_verbatim(TurnNumber(3), "gone".into()));
    assert_eq!(
        (window.tokens(), window.verbatim_tokens()),
        (Tokens(13), Tokens(10))
    );
    assert_eq!(window.cut(TurnNumber(3)), Some("gone"));
    // A turn that is not verbatim changes nothing.
    assert!(!window.replace_verbatim(TurnNumber(1), "x".into()));
    assert_eq!(
        (window.tokens(), window.verbatim_tokens()),
        (Tokens(13), Tokens(10))
    );
    assert_eq!(
        window.verbatim().collect::<Vec<_>>(),
        [TurnNumber(3), TurnNumber(4)]
    );
}
