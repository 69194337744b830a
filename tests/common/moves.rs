//! Random agent loops for property tests: users, assistants, chatter and tool calls with their
//! results ([`Move`]), the same with every field a saved turn has in play ([`Push`]), and the
//! check that every tool result stays with its call. Each test file that includes this uses a
//! part of it.
#![allow(dead_code)]

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

/// One push of a random agent session, with every field a saved turn has in play: a summary
/// written by hand, a turn's own token count, a speaker and kind of its own.
#[derive(Clone, Debug)]
pub enum Push {
    User {
        words: usize,
        summary: bool,
    },
    Assistant {
        words: usize,
        tokens: Option<u32>,
    },
    Chatter(usize),
    /// A tool call and its result, the result `words` long.
    Call {
        words: usize,
        summary: bool,
    },
    /// A tool call whose result comes after one more turn, the user's.
    Interleaved(usize),
    /// A turn with a speaker and kind of its own, and no role given.
    Plain {
        kind: Kind,
        words: usize,
    },
}

/// `n` distinct words (at least one), then a full stop: `seed0 seed1 ….`.
fn sentence(n: usize, seed: &str) -> String {
    words(n, seed) + "."
}

/// The turns the pushes make: a call and its result share the id `call_{i}`, `i` the push's
/// place; a tool's result is in Chinese, so that every save holds text beyond ASCII.
pub fn pushed_turns(pushes: &[Push]) -> Vec<Turn> {
    let mut turns = Vec::new();
    for (i, push) in pushes.iter().enumerate() {
        let id = format!("call_{i}");
        match *push {
            Push::User { words, summary } => {
                let turn = Turn::user(&sentence(words, "ORD-")).unwrap();
                turns.push(match summary {
                    true => turn.with_summary(&format!("user asks {i}")).unwrap(),
                    false => turn,
                });
            }
            Push::Assistant { words, tokens } => {
                let turn = Turn::assistant(&sentence(words, "$")).unwrap();
                turns.push(match tokens {
                    Some(tokens) => turn.with_tokens(Tokens(tokens)),
                    None => turn,
                });
            }
            Push::Chatter(words) => turns.push(
                Turn::new("assistant", Kind::Chatter, &sentence(words, "thanks"))
                    .unwrap()
                    .with_role(Role::Assistant),
            ),
            Push::Call { words, summary } => {
                turns.push(Turn::tool_call(&id, &format!("lookup_order(ORD-{i})")).unwrap());
                let result = Turn::tool(&id, &sentence(words, "退款")).unwrap();
                turns.push(match summary {
                    true => result.with_summary(&format!("order {i} found")).unwrap(),
                    false => result,
                });
            }
            Push::Interleaved(words) => {
                turns.push(Turn::tool_call(&id, &format!("refund(RF-{i})")).unwrap());
                turns.push(Turn::user("Any news?").unwrap());
                turns.push(Turn::tool(&id, &sentence(words, "RF-")).unwrap());
            }
            Push::Plain { kind, words } => {
                turns.push(Turn::new("Dana", kind, &sentence(words, "Globex")).unwrap())
            }
        }
    }
    turns
}

/// Fewer than `most` pushes of every kind.
pub fn arb_pushes(most: usize) -> impl Strategy<Value = Vec<Push>> {
    let push = prop_oneof![
        (1..12usize, any::<bool>()).prop_map(|(words, summary)| Push::User { words, summary }),
        (1..12usize, prop::option::of(0u32..30))
            .prop_map(|(words, tokens)| Push::Assistant { words, tokens }),
        (1..6usize).prop_map(Push::Chatter),
        (1..30usize, any::<bool>()).prop_map(|(words, summary)| Push::Call { words, summary }),
        (1..20usize).prop_map(Push::Interleaved),
        (prop::sample::select(Kind::NAMES), 1..12usize)
            .prop_map(|(kind, words)| Push::Plain { kind, words }),
    ];
    prop::collection::vec(push, 0..most)
}
