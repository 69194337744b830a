//! Random agent loops for property tests: users, assistants, chatter and tool calls with their
//! results, and the check that every tool result stays with its call.

use agent_memory_widgets::{Kind, Message, Role, SessionConfig, Tokens, Turn};
use proptest::prelude::*;

/// One move of an agent loop, each of a number of words.
#[derive(Clone, Debug)]
pub enum Move {
    User(usize),
    Assistant(usize),
    Chatter(usize),
    /// A tool call and its result.
    Call(usize, usize),
    /// A tool call whose result comes after one more turn of the assistant's.
    Interleaved(usize, usize),
}

/// `n` distinct words (at least one): `seed0 seed1 …`.
pub fn words(n: usize, seed: &str) -> String {
    (0..n.max(1))
        .map(|i| format!("{seed}{i}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The turns the moves push: a call and its result share the id `call_{i}`, `i` the move's
/// place.
pub fn turns_of(moves: &[Move]) -> Vec<Turn> {
    let mut turns = Vec::new();
    for (i, step) in moves.iter().enumerate() {
        let id = format!("call_{i}");
        match *step {
            Move::User(n) => turns.push(Turn::user(&words(n, "Q")).unwrap()),
            Move::Assistant(n) => turns.push(Turn::assistant(&words(n, "A")).unwrap()),
            Move::Chatter(n) => turns.push(
                Turn::new("assistant", Kind::Chatter, &words(n, "c"))
                    .unwrap()
                    .with_role(Role::Assistant),
            ),
            Move::Call(call, result) => {
                turns.push(Turn::tool_call(&id, &words(call, "f")).unwrap());
                turns.push(Turn::tool(&id, &words(result, "R")).unwrap());
            }
            Move::Interleaved(call, result) => {
                turns.push(Turn::tool_call(&id, &words(call, "f")).unwrap());
                turns.push(Turn::assistant("One moment, looking it up.").unwrap());
                turns.push(Turn::tool(&id, &words(result, "R")).unwrap());
            }
        }
    }
    turns
}

/// Up to `most` moves of every kind; a message has fewer than `words` words and a tool result
/// fewer than `result_words`.
pub fn arb_moves(
    most: usize,
    words: usize,
    result_words: usize,
) -> impl Strategy<Value = Vec<Move>> {
    let step = prop_oneof![
        (1..words).prop_map(Move::User),
        (1..words).prop_map(Move::Assistant),
        (1..8usize).prop_map(Move::Chatter),
        (1..8usize, 1..result_words).prop_map(|(c, r)| Move::Call(c, r)),
        (1..8usize, 1..result_words).prop_map(|(c, r)| Move::Interleaved(c, r)),
    ];
    prop::collection::vec(step, 1..most)
}

/// A config of a small budget, with or without `compact_at` and `compact_to`.
pub fn arb_config() -> impl Strategy<Value = SessionConfig> {
    (
        10u32..120,
        1u32..5,
        prop::option::of(50u32..=100),
        prop::option::of(30u32..=100),
    )
        .prop_map(|(budget, hot_n, compact_at, compact_to)| {
            SessionConfig::new(Tokens(budget), hot_n)
                .unwrap()
                .with_compact_at(compact_at)
                .unwrap()
                .with_compact_to(compact_to)
                .unwrap()
        })
}

/// Every tool result in `messages` follows its call; every call whose result was pushed is
/// followed by it (a call may end the window while its result has not come).
pub fn check_pairs(messages: &[Message], pushed: &[Turn]) -> Result<(), String> {
    for (at, message) in messages.iter().enumerate() {
        let Some(id) = message.tool_call_id.as_deref() else {
            continue;
        };
        let same = |other: &Message| other.tool_call_id.as_deref() == Some(id);
        if message.role == Role::Tool {
            if !messages[..at]
                .iter()
                .any(|m| m.role != Role::Tool && same(m))
            {
                return Err(format!("result {id} without its call: {messages:#?}"));
            }
        } else {
            let answered = pushed
                .iter()
                .any(|turn| turn.role() == Role::Tool && turn.tool_call_id() == Some(id));
            if answered
                && !messages[at + 1..]
                    .iter()
                    .any(|m| m.role == Role::Tool && same(m))
            {
                return Err(format!("call {id} without its result: {messages:#?}"));
            }
        }
    }
    Ok(())
}
