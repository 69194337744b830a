//! The crate as an agent framework uses it: a live conversation pushed turn by turn, errors
//! matched by kind, and a session held across threads.

use agent_memory_widgets::Tokens;
use agent_memory_widgets::{
    policy, ErrorKind, Extractive, HotWarmCold, Kind, Scripted, Session, SessionConfig, Turn,
    TurnSpec,
};

fn assert_send_sync<T: Send + Sync>() {}

#[test]
fn a_session_can_live_in_another_thread() {
    assert_send_sync::<Session>();
    assert_send_sync::<agent_memory_widgets::Playground>();
    assert_send_sync::<agent_memory_widgets::FactStore>();
    assert_send_sync::<agent_memory_widgets::LiveStore>();
    let mut session = Session::live(SessionConfig::default(), Box::new(HotWarmCold::default()));
    let handle = std::thread::spawn(move || {
        session
            .push(Turn::new("Dana", Kind::Question, "Where is my refund?").unwrap())
            .unwrap();
        session
    });
    assert_eq!(handle.join().unwrap().state().turn, 1);
}

#[test]
fn a_live_session_starts_with_no_turns_to_play() {
    let mut session = Session::live(SessionConfig::default(), Box::new(HotWarmCold::default()));
    assert!(session.script().is_empty());
    assert!(session.is_done());
    assert_eq!(session.add_turn(), None);
    let state = session.state();
    assert_eq!((state.turn, state.total_turns, state.done), (0, 0, true));
}

#[test]
fn a_live_conversation_stays_under_budget_turn_by_turn() {
    let config = SessionConfig::new(Tokens(40), 2).unwrap();
    let mut session = Session::live(config, policy("hot-warm-cold".parse().unwrap()));
    for turn in Session::default().script().turns() {
        let live = Turn::new(turn.speaker(), turn.kind(), turn.text()).unwrap();
        let step = session.push(live).unwrap();
        assert!(step.tokens_after.0 <= 40, "turn {}", step.turn);
    }
    let state = session.state();
    assert_eq!(state.turn, 10);
    // Extractive summaries are longer than the script's, so the crossings differ from the seed's.
    assert_eq!(state.crossings, [4, 7, 8, 9, 10]);
    assert!(state.warm.iter().all(|line| line.tokens().0 <= 12));
}

#[test]
fn pushing_the_script_with_its_own_summaries_replays_it_exactly() {
    let mut scripted = Session::default();
    scripted.go_to(10);
    let mut live = Session::live(SessionConfig::default(), Box::new(HotWarmCold::default()))
        .with_summarizer(Box::new(Scripted));
    for turn in Session::default().script().turns() {
        live.push(turn.clone()).unwrap();
    }
    assert_eq!(live.state(), scripted.state());
}

#[test]
fn a_failed_push_leaves_the_session_as_it_was() {
    let mut session = Session::default(); // the Scripted summarizer
    session.go_to(3);
    let before = session.state();
    let err = session
        .push(Turn::new("Dana", Kind::Question, "And the earbuds?").unwrap())
        .unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::InvalidOption { field } if field == "summary"));
    assert_eq!(session.state(), before);
    // The same turn with the Extractive summarizer goes in, replacing the rest of the script.
    let mut session = session.with_summarizer(Box::new(Extractive));
    session
        .push(Turn::new("Dana", Kind::Question, "And the earbuds?").unwrap())
        .unwrap();
    assert_eq!(session.state().total_turns, 4);
}

#[test]
fn a_turn_spec_becomes_a_turn_with_bare_field_names() {
    let spec = TurnSpec {
        speaker: Some("Dana".into()),
        kind: Some("smalltalk".into()),
        text: Some("Hi".into()),
        summary: None,
        tokens: None,
        ..TurnSpec::default()
    };
    let err = Turn::try_from(spec).unwrap_err();
    assert_eq!(
        err.message(),
        "kind: unknown kind \"smalltalk\"; use chatter, decision, tool or question"
    );
    assert!(matches!(err.kind(), ErrorKind::InvalidOption { field } if field == "kind"));
    assert!(Turn::new(" ", Kind::Chatter, "Hi").is_err());
}

#[test]
fn a_turn_spec_may_leave_the_summary_to_the_summarizer() {
    let spec = |kind: &str, summary: Option<&str>| TurnSpec {
        speaker: Some("Dana".into()),
        kind: Some(kind.into()),
        text: Some("Where is my refund? It has been a week.".into()),
        summary: summary.map(Into::into),
        tokens: None,
        ..TurnSpec::default()
    };
    let bare = Turn::try_from(spec("question", None)).unwrap();
    assert_eq!((bare.kind(), bare.summary()), (Kind::Question, None));
    let given = Turn::try_from(spec("question", Some("Dana asks after her refund."))).unwrap();
    assert_eq!(given.summary(), Some("Dana asks after her refund."));
    let chatter = Turn::try_from(spec("chatter", Some("ignored"))).unwrap();
    assert_eq!(chatter.summary(), None);
    // Pushed into a live session, the turn gets its summary from the Extractive summarizer
    // when it folds, and not before.
    let mut session = Session::live(SessionConfig::default(), Box::new(HotWarmCold::default()));
    session.push(bare).unwrap();
    assert_eq!(session.script().turns()[0].summary(), None);
    while session.window().verbatim().next() == Some(agent_memory_widgets::TurnNumber(1)) {
        session
            .push(
                Turn::new(
                    "agent",
                    Kind::Decision,
                    "Let me check that for you right away.",
                )
                .unwrap(),
            )
            .unwrap();
    }
    assert_eq!(
        session.script().turns()[0].summary(),
        Some("Where is my refund?")
    );
}

#[test]
fn native_errors_name_rust_fields() {
    let err = SessionConfig::new(Tokens(40), 0).unwrap_err();
    assert_eq!(
        err.message(),
        "hot_n must be a whole number of at least 1, got 0"
    );
    assert_eq!(
        err.js_message(),
        "hotN must be a whole number of at least 1, got 0"
    );
}
