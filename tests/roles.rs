//! A turn's role and tool-call id: how a turn is sent to a chat model, apart from its kind.

use agent_memory_widgets::{
    ErrorKind, Kind, ObservationMasking, Role, Script, Session, SessionConfig, Turn, TurnSpec,
};
#[cfg(feature = "deserialize")]
use agent_memory_widgets::{Extractive, HotWarmCold, SavedSession};
#[cfg(feature = "deserialize")]
use proptest::prelude::*;

#[test]
fn the_constructors_give_speaker_role_kind_and_id() {
    let check = |turn: Turn, expect: (&str, Role, Kind, Option<&str>)| {
        assert_eq!(
            (
                turn.speaker(),
                turn.role(),
                turn.kind(),
                turn.tool_call_id()
            ),
            expect
        );
    };
    check(
        Turn::user("Where is my refund?").unwrap(),
        ("user", Role::User, Kind::Question, None),
    );
    check(
        Turn::assistant("It is on its way.").unwrap(),
        ("assistant", Role::Assistant, Kind::Decision, None),
    );
    check(
        Turn::tool_call("call_1", "lookup_order(ORD-3300)").unwrap(),
        ("assistant", Role::Assistant, Kind::Decision, Some("call_1")),
    );
    check(
        Turn::tool("call_1", "ORD-3300: $200.00").unwrap(),
        ("tool", Role::Tool, Kind::Tool, Some("call_1")),
    );
    check(
        Turn::new("assistant", Kind::Chatter, "Happy to help!")
            .unwrap()
            .with_role(Role::Assistant),
        ("assistant", Role::Assistant, Kind::Chatter, None),
    );
    check(
        Turn::new("ops", Kind::Chatter, "You are a support agent.")
            .unwrap()
            .with_role(Role::System),
        ("ops", Role::System, Kind::Chatter, None),
    );
}

#[test]
fn the_default_role_is_the_one_documented_rule() {
    let check = |speaker: &str, kind: Kind, expect: Role| {
        assert_eq!(Role::default_for(speaker, kind), expect, "{speaker} {kind}");
        assert_eq!(Turn::new(speaker, kind, "text").unwrap().role(), expect);
    };
    check("tool", Kind::Chatter, Role::Tool);
    check("TOOL", Kind::Question, Role::Tool);
    check("Dana", Kind::Tool, Role::Tool);
    check("agent", Kind::Tool, Role::Tool);
    check("Dana", Kind::Decision, Role::Assistant);
    check("Agent", Kind::Chatter, Role::Assistant);
    check("agent", Kind::Question, Role::Assistant);
    check("Dana", Kind::Question, Role::User);
    check("Dana", Kind::Chatter, Role::User);
    check("assistant", Kind::Chatter, Role::User);
    // The refund desk's turns keep the roles the frameworks guessed for them.
    for turn in Script::refund_desk().turns() {
        assert_eq!(turn.role(), Role::default_for(turn.speaker(), turn.kind()));
    }
}

#[test]
fn an_empty_tool_call_id_or_an_unknown_role_is_an_error_naming_the_field() {
    for id in ["", "  "] {
        let err = Turn::tool(id, "result").unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::InvalidOption { field } if field == "toolCallId"));
        assert_eq!(err.message(), "toolCallId: must be a non-empty text");
        let err = Turn::user("hi").unwrap().with_tool_call_id(id).unwrap_err();
        assert_eq!(err.message(), "toolCallId: must be a non-empty text");
        assert!(Turn::tool_call(id, "call").is_err());
    }
    let spec = |role: Option<&str>, id: Option<&str>| TurnSpec {
        speaker: Some("Dana".into()),
        kind: Some("question".into()),
        text: Some("Where is my refund?".into()),
        role: role.map(Into::into),
        tool_call_id: id.map(Into::into),
        ..TurnSpec::default()
    };
    let err = Turn::try_from(spec(Some("bot"), None)).unwrap_err();
    assert_eq!(
        err.message(),
        "role: unknown role \"bot\"; use user, assistant, tool or system"
    );
    let err = Script::new(vec![spec(None, Some(""))]).unwrap_err();
    assert_eq!(
        err.message(),
        "script[0].toolCallId (turn 1): must be a non-empty text"
    );
    let err = Script::within_limits(vec![spec(Some(""), None)]).unwrap_err();
    assert_eq!(
        err.message(),
        "script[0].role (turn 1): unknown role \"\"; use user, assistant, tool or system"
    );
}

#[cfg(feature = "deserialize")]
#[test]
fn a_spec_writes_role_and_tool_call_id_in_json() {
    let json = r#"{"speaker":"assistant","kind":"decision","text":"lookup_order(ORD-3300)","role":"assistant","toolCallId":"call_7"}"#;
    let spec: TurnSpec = serde_json::from_str(json).unwrap();
    assert_eq!(spec.role.as_deref(), Some("assistant"));
    assert_eq!(spec.tool_call_id.as_deref(), Some("call_7"));
    let turn = Turn::try_from(spec).unwrap();
    assert_eq!(
        turn,
        Turn::tool_call("call_7", "lookup_order(ORD-3300)").unwrap()
    );
    // A role given is written back; none given, none is written.
    assert_eq!(
        serde_json::to_string(&turn.to_spec()).unwrap(),
        json.replace(r#""role""#, r#""summary":null,"role""#)
    );
    let call = Turn::tool_call("call_7", "lookup_order(ORD-3300)").unwrap();
    assert_eq!(
        serde_json::to_string(&call.to_spec()).unwrap(),
        r#"{"speaker":"assistant","kind":"decision","text":"lookup_order(ORD-3300)","summary":null,"toolCallId":"call_7"}"#
    );
    let chatter = Turn::new("assistant", Kind::Chatter, "Happy to help!")
        .unwrap()
        .with_role(Role::Assistant);
    let spec = chatter.to_spec();
    assert_eq!(spec.role.as_deref(), Some("assistant"));
    assert_eq!(Turn::try_from(spec).unwrap(), chatter);
}

#[cfg(feature = "deserialize")]
fn arb_turn() -> impl Strategy<Value = Turn> {
    let speaker = prop::sample::select(vec!["Dana", "agent", "tool", "assistant", "user"]);
    let kind = prop::sample::select(Kind::NAMES.to_vec());
    let role = prop::option::of(prop::sample::select(Role::NAMES.to_vec()));
    let id = prop::option::of(prop::sample::select(vec!["call_1", "call_2", "toolu 3"]));
    let text = prop::collection::vec(
        prop::sample::select(vec!["refund", "ORD-3300", "$180.00", "ok."]),
        1..6,
    );
    (speaker, kind, role, id, text).prop_map(|(speaker, kind, role, id, text)| {
        let mut turn = Turn::new(speaker, kind, &text.join(" ")).unwrap();
        if let Some(role) = role {
            turn = turn.with_role(role);
        }
        if let Some(id) = id {
            turn = turn.with_tool_call_id(id).unwrap();
        }
        turn
    })
}

#[cfg(feature = "deserialize")]
proptest! {
    #[test]
    fn a_turn_reads_back_from_its_spec_and_from_a_save(turns in prop::collection::vec(arb_turn(), 1..12)) {
        for turn in &turns {
            prop_assert_eq!(&Turn::try_from(turn.to_spec()).unwrap(), turn);
        }
        let mut session = Session::live(SessionConfig::default(), Box::new(HotWarmCold::default()));
        for turn in &turns {
            session.push(turn.clone()).unwrap();
        }
        let json = serde_json::to_string(&session).unwrap();
        let saved: SavedSession = serde_json::from_str(&json).unwrap();
        let loaded = Session::load(saved, Box::new(HotWarmCold::default()), Box::new(Extractive)).unwrap();
        prop_assert_eq!(loaded.script(), session.script());
    }
}

#[test]
fn observation_masking_masks_what_the_role_says_is_a_tool_result() {
    // A tool's result written as a decision, with its true role: masked once a newer one comes.
    let mut session = Session::live(
        SessionConfig::default(),
        Box::new(ObservationMasking::default()),
    );
    let result = |text: &str| {
        Turn::new("search", Kind::Decision, text)
            .unwrap()
            .with_role(Role::Tool)
    };
    session.push(result("first result: ORD-3300")).unwrap();
    session
        .push(Turn::user("and the other one?").unwrap())
        .unwrap();
    session.push(result("second result: ORD-3301")).unwrap();
    let text = agent_memory_widgets::window_text(&session.state());
    assert!(text.contains("[tool output of turn 1 omitted]"), "{text}");
    assert!(text.contains("second result"), "{text}");
}

#[cfg(feature = "deserialize")]
#[test]
fn a_save_records_its_policy_and_loads_under_no_other() {
    use agent_memory_widgets::{policy, PolicyId, SummaryBuffer};
    let mut session = Session::live(SessionConfig::default(), Box::new(HotWarmCold::default()));
    for text in [
        "Where is my refund for ORD-3300?",
        "It went out on day 3.",
        "Thanks!",
    ] {
        session.push(Turn::user(text).unwrap()).unwrap();
    }
    let json = serde_json::to_string(&session).unwrap();
    assert!(json.contains(r#""policy":"hot-warm-cold""#), "{json}");
    assert_eq!(session.save().policy.as_deref(), Some("hot-warm-cold"));
    let saved: SavedSession = serde_json::from_str(&json).unwrap();
    let err =
        Session::load(saved.clone(), Box::new(SummaryBuffer), Box::new(Extractive)).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::InvalidOption { field } if field == "policy"));
    assert_eq!(
        err.message(),
        "policy: the session was saved under \"hot-warm-cold\", not \"summary-buffer\"; load it under the policy it ran under"
    );
    let loaded = Session::load(saved, policy(PolicyId::HotWarmCold), Box::new(Extractive)).unwrap();
    assert_eq!(loaded.state(), session.state());
    // A save from before policies were recorded loads under any.
    let old = json.replace(r#","policy":"hot-warm-cold""#, "");
    let saved: SavedSession = serde_json::from_str(&old).unwrap();
    assert!(Session::load(saved, Box::new(SummaryBuffer), Box::new(Extractive)).is_ok());
}
