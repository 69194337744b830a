//! The window as chat messages ([`Session::messages`]), and tool calls kept with their results
//! under every policy.

use agent_memory_widgets::{
    policy, HotWarmCold, PolicyId, Role, Session, SessionConfig, Tokens, Truncate, Turn, TurnNumber,
};
use moves::{arb_config, check_pairs, turns_of};
use proptest::prelude::*;

#[path = "common/moves.rs"]
mod moves;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn no_policy_leaves_a_tool_result_without_its_call(
        moves in moves::arb_moves(40, 12, 40),
        config in arb_config(),
    ) {
        let turns = turns_of(&moves);
        for &id in PolicyId::NAMES {
            let mut session = Session::live(config, policy(id));
            for (i, turn) in turns.iter().enumerate() {
                session.push(turn.clone()).unwrap();
                let messages = session.messages();
                if let Err(err) = check_pairs(&messages, &turns[..=i]) {
                    return Err(TestCaseError::fail(format!("{id:?} after turn {}: {err}", i + 1)));
                }
                // The state carries the same messages.
                prop_assert_eq!(&session.state().messages, &messages);
            }
        }
    }
}

#[test]
fn the_window_reads_as_messages_in_order() {
    let config = SessionConfig::new(Tokens(20), 2).unwrap();
    let mut session = Session::live(config, Box::new(HotWarmCold::default()));
    let turns = [
        Turn::user("Where is my refund for ORD-3300?").unwrap(),
        Turn::tool_call("call_1", "lookup_order(ORD-3300)").unwrap(),
        Turn::tool(
            "call_1",
            "ORD-3300: $200.00 refunded on day 3, reference RF-7781.",
        )
        .unwrap(),
        Turn::assistant("Your refund of $200.00 went out on day 3.").unwrap(),
    ];
    for turn in turns {
        session.push(turn).unwrap();
    }
    let messages = session.messages();
    let shown: Vec<(Role, &str, Option<&str>)> = messages
        .iter()
        .map(|m| (m.role, m.content.as_str(), m.tool_call_id.as_deref()))
        .collect();
    // Turn 4 crossed: turn 1 folded and went COLD, but the call stays HOT with its result, so
    // HOT holds three turns, not two.
    assert_eq!(
        shown,
        [
            (Role::User, "Where, ORD-3300", None),
            (Role::Assistant, "lookup_order(ORD-3300)", Some("call_1")),
            (
                Role::Tool,
                "ORD-3300: $200.00 refunded on day 3, reference RF-7781.",
                Some("call_1")
            ),
            (
                Role::Assistant,
                "Your refund of $200.00 went out on day 3.",
                None
            ),
        ][..],
        "{messages:#?}"
    );
    let json = serde_json::to_value(&messages[1..3]).unwrap();
    assert_eq!(
        json,
        serde_json::json!([
            {"role": "assistant", "content": "lookup_order(ORD-3300)", "toolCallId": "call_1"},
            {"role": "tool", "content": "ORD-3300: $200.00 refunded on day 3, reference RF-7781.", "toolCallId": "call_1"},
        ])
    );
    // Once newer turns push the pair out of HOT, call and result fold in one step.
    let steps = [
        session
            .push(Turn::user("Thanks. And my Globex earbuds?").unwrap())
            .unwrap(),
        session
            .push(Turn::assistant("Covered: a replacement is on its way.").unwrap())
            .unwrap(),
    ];
    let folded: Vec<_> = steps.iter().map(|step| step.to_warm.clone()).collect();
    assert_eq!(
        folded,
        [vec![TurnNumber(2), TurnNumber(3)], vec![TurnNumber(4)]]
    );
    check_pairs(&session.messages(), &[]).unwrap();
}

#[test]
fn a_result_whose_call_was_dropped_is_dropped_too() {
    // Truncate drops the oldest turns with no summary: the call goes, and its result with it.
    let config = SessionConfig::new(Tokens(12), 1).unwrap();
    let mut session = Session::live(config, Box::new(Truncate));
    session
        .push(Turn::tool_call("c1", "search one two three four five six").unwrap())
        .unwrap();
    session
        .push(Turn::tool("c1", "found: seven eight nine").unwrap())
        .unwrap();
    let step = session
        .push(Turn::user("thanks, and the other one?").unwrap())
        .unwrap();
    assert_eq!(step.dropped, [1, 2]);
    assert_eq!(session.messages().len(), 1);
}
