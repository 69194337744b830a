//! Each format `import_conversation` reads, from a fixture in that format's real shape
//! (tests/fixtures/import/), and what bad input gives: an error naming the line and field, and
//! nothing imported.

use agent_memory_widgets::{import_conversation, Format, Imported, Session, SessionOptions};
use proptest::prelude::*;

const FIXTURES: [(&str, Format); 5] = [
    ("lines.txt", Format::Lines),
    ("openai-chat.json", Format::OpenAiChat),
    ("anthropic-messages.json", Format::AnthropicMessages),
    ("claude-code.jsonl", Format::ClaudeCode),
    ("codex.jsonl", Format::Codex),
];

fn fixture(name: &str) -> String {
    let path = format!(
        "{}/tests/fixtures/import/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{path}: {err}"))
}

/// Each turn as `speaker kind [tokens]: text`, the text cut to 24 characters.
fn turns(read: &Imported) -> Vec<String> {
    read.turns
        .iter()
        .map(|turn| {
            let text: String = turn.text.as_deref().unwrap().chars().take(24).collect();
            let tokens = turn.tokens.map_or(String::new(), |t| format!(" {t}"));
            let (speaker, kind) = (
                turn.speaker.as_deref().unwrap(),
                turn.kind.as_deref().unwrap(),
            );
            format!("{speaker} {kind}{tokens}: {text}")
        })
        .collect()
}

fn read(name: &str) -> Imported {
    let read = import_conversation(&fixture(name)).unwrap();
    let format = FIXTURES.iter().find(|(file, _)| *file == name).unwrap().1;
    assert_eq!(read.format, format, "{name}");
    read
}

#[test]
fn plain_lines_with_timestamps() {
    let read = read("lines.txt");
    assert_eq!(
        turns(&read),
        [
            "Dana decision: Hi! My order ORD-3300 ar",
            "agent question: I'm sorry. What was in t",
            "Dana decision: A desk lamp, $200.00. Th",
            "agent decision: I've refunded $200.00 to",
            "Dana chatter: Thanks, bye!",
        ]
    );
}

#[test]
fn openai_chat_completions_keep_tool_call_arguments_and_completion_tokens() {
    let read = read("openai-chat.json");
    assert_eq!(
        turns(&read),
        [
            "system decision: You are the refund desk ",
            "user decision: Hi! I'd like a refund fo",
            "assistant decision 18: lookup_order({\"order_id\"",
            "tool tool: {\"order_id\":\"ORD-3300\",\"",
            "assistant question 22: I found ORD-3300: a desk",
            "user decision: Sure, here it is. The ba",
            "assistant decision 35: Thanks. I'm refunding $2",
            "tool tool: refund RF-118 issued: $2",
            "assistant decision 17: Done: refund RF-118, $20",
            "user chatter: Thank you, bye!",
        ]
    );
    // Text and tool calls of one message are one turn, each call with its arguments.
    assert_eq!(
        read.turns[6].text.as_deref(),
        Some("Thanks. I'm refunding $200.00 to your card. issue_refund({\"order_id\":\"ORD-3300\",\"amount\":\"200.00\"})")
    );
}

#[test]
fn anthropic_messages_make_each_tool_result_a_tool_turn() {
    let read = read("anthropic-messages.json");
    assert_eq!(
        turns(&read),
        [
            "system decision: You are the refund desk ",
            "user decision: Hi! I'd like a refund fo",
            "assistant decision: Let me look that order u",
            "tool tool: {\"order_id\":\"ORD-3300\",\"",
            "assistant question: I found ORD-3300: a desk",
            "user decision: Here it is. The base is ",
            "assistant decision: issue_refund({\"order_id\"",
            "tool tool: refund RF-118 issued: $2",
            "user question: Is that the full amount?",
            "assistant decision: Yes: refund RF-118 is th",
        ]
    );
    assert_eq!(
        read.turns[2].text.as_deref(),
        Some("Let me look that order up. lookup_order({\"order_id\":\"ORD-3300\"})")
    );
}

#[test]
fn a_claude_code_session_joins_a_reply_s_lines_and_counts_it_by_its_usage() {
    let read = read("claude-code.jsonl");
    // The summary, the file snapshot, the subagent's line and the compact boundary.
    assert_eq!(read.skipped, 4);
    assert_eq!(
        turns(&read),
        [
            "user question: The refund test fails: a",
            "assistant decision 61: I'll run the test first.",
            "tool tool: test refund::rounds_to_c",
            "assistant decision 188: The amount is cut, not r",
            "tool tool: The file /home/dana/shop",
            "assistant decision 24: Fixed: refunds now round",
            "user chatter: Thanks!",
        ]
    );
    // Thinking holds no text to show; the Edit call is in the reply's turn.
    let edit = read.turns[3].text.as_deref().unwrap();
    assert!(edit.starts_with("The amount is cut, not rounded: 19.99 × 100 is 1998.9999 in floating point. Edit({\"file_path\""), "{edit}");
}

#[test]
fn a_codex_session_counts_each_reply_by_its_token_count_event() {
    let read = read("codex.jsonl");
    // session_meta, the user_message and agent_message events, turn_context, reasoning.
    assert_eq!(read.skipped, 5);
    assert_eq!(
        turns(&read),
        [
            "user decision: <environment_context>\n  ",
            "user question: Why does refund RF-118 s",
            "assistant decision 96: shell({\"command\":[\"bash\"",
            "tool tool: {\"output\":\"41:    let ce",
            "assistant decision 54: Line 41 cuts the amount ",
            "user decision: Fix it, please.",
            "assistant decision 71: apply_patch(*** Begin Pa",
            "tool tool: {\"output\":\"Success. Upda",
            "assistant decision 24: Fixed: refund amounts no",
        ]
    );
}

#[test]
fn every_fixture_plays_as_a_session_with_its_own_counts() {
    for (name, _) in FIXTURES {
        let read = read(name);
        let given: Vec<_> = read.turns.iter().map(|turn| turn.tokens).collect();
        let mut session = Session::from_options(SessionOptions {
            budget: Some(60.0),
            script: Some(read.turns),
            ..SessionOptions::default()
        })
        .unwrap();
        session.go_to(given.len() as u32);
        assert_eq!(session.state().transcript.len(), given.len(), "{name}");
        let kept: Vec<_> = session
            .script()
            .to_specs()
            .into_iter()
            .map(|turn| turn.tokens)
            .collect();
        assert_eq!(kept, given, "{name}");
    }
}

#[test]
fn a_bad_line_or_field_is_named_and_nothing_is_imported() {
    let claude = fixture("claude-code.jsonl");
    let codex = fixture("codex.jsonl");
    let openai = fixture("openai-chat.json");
    let anthropic = fixture("anthropic-messages.json");
    // The fixture with `from` changed to `to`, which must be in it.
    let change = |text: &str, from: &str, to: &str, _: usize| {
        assert!(text.contains(from), "{from}");
        text.replacen(from, to, 1)
    };
    let cases = [
        // A line cut short, as a file copied while Claude Code was writing it.
        (
            change(&claude, "\"Thanks!\"},", "\"Thanks!\"", 1),
            "line 12, column 233: this is not JSON: it has a missing comma or } in an object",
        ),
        (
            change(&claude, "\"output_tokens\":188", "\"output_tokens\":\"188\"", 1),
            "line 7: message.usage.output_tokens: must be a number, got a string",
        ),
        (
            change(&codex, "\"name\":\"apply_patch\",", "", 1),
            "line 14: payload.name: missing",
        ),
        (
            change(&codex, "\"output_tokens\":54", "\"output_tokens\":-54", 1),
            "line 12: payload.info.last_token_usage.output_tokens must be a whole number of tokens from 0 to 4294967295, got -54",
        ),
        (
            change(&openai, "\"role\": \"tool\"", "\"role\": \"robot\"", 1),
            "messages[3].role: unknown role \"robot\"; use user, assistant, tool, system or developer",
        ),
        (
            change(&openai, "\"name\": \"issue_refund\"", "\"name\": 7", 1),
            "messages[6].tool_calls[0].function.name: must be a string, got a number",
        ),
        (
            change(&anthropic, "\"content\": \"refund RF-118 issued: $200.00\"", "\"content\": 200", 1),
            "messages[6].content[0].content: must be a string or a list of text blocks, got a number",
        ),
        (
            change(&anthropic, "{\"type\": \"text\", \"text\": \"Let me look that order up.\"}", "{\"text\": \"Let me look that order up.\"}", 1),
            "messages[1].content[0].type: missing; a content block has a type",
        ),
    ];
    for (text, message) in cases {
        let error = import_conversation(&text).unwrap_err();
        assert_eq!(error.message(), message);
    }
}

#[test]
fn over_its_limits_a_log_is_refused() {
    let claude = fixture("claude-code.jsonl");
    let lines: Vec<&str> = claude.lines().collect();
    // The summary line, 20,001 times: 1.4 MB, under the byte limit.
    let many = vec![lines[0]; 20_001].join("\n");
    assert_eq!(
        import_conversation(&many).unwrap_err().message(),
        "conversation lines must have at most 20000 items, got 20001"
    );
    // 1,001 turns, in 4,000 lines: the turn limit.
    let turn = lines[1];
    let turns = vec![turn; 1_001].join("\n");
    assert_eq!(
        import_conversation(&turns).unwrap_err().message(),
        "conversation must have at most 1000 items, got 1001"
    );
}

proptest! {
    /// A log cut anywhere, or with any byte replaced, imports or gives an error: never a panic.
    #[test]
    fn a_damaged_log_never_panics(which in 0..5usize, cut in 0.0..1.0f64, byte in 0..128u8) {
        let text = fixture(FIXTURES[which].0);
        let mut at = (cut * text.len() as f64) as usize;
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let _ = import_conversation(&text[..at]);
        let mut damaged = text.clone().into_bytes();
        damaged[at.min(text.len() - 1)] = byte;
        if let Ok(damaged) = String::from_utf8(damaged) {
            let _ = import_conversation(&damaged);
        }
    }
}
