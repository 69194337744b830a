//! Each format `import_conversation` reads, from a fixture in that format's real shape
//! (tests/fixtures/import/), and what bad input gives: in a session log, the line named and the
//! rest imported; in a chat request, an error naming the field, and nothing imported.

use agent_memory_widgets::{import_conversation, Format, Imported, Session, SessionOptions};
use proptest::prelude::*;

const FIXTURES: [(&str, Format); 7] = [
    ("lines.txt", Format::Lines),
    ("openai-chat.json", Format::OpenAiChat),
    ("anthropic-messages.json", Format::AnthropicMessages),
    ("claude-code.jsonl", Format::ClaudeCode),
    ("codex.jsonl", Format::Codex),
    ("gemini-cli.jsonl", Format::GeminiCli),
    ("gemini-cli.json", Format::GeminiCli),
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
    // The summary and the file snapshot; the subagent's line is kept apart, and the compact
    // boundary is a compaction of Claude Code's own.
    assert_eq!(read.skipped, 2);
    assert_eq!(read.subagent.len(), 1);
    assert_eq!(read.compactions.len(), 1);
    assert_eq!(read.compactions[0].turn, 7);
    assert_eq!(
        turns(&read),
        [
            "user question: The refund test fails: a",
            "assistant decision 61: I'll run the test first.",
            "tool tool: test refund::rounds_to_c",
            "assistant decision: The amount is cut, not r",
            "tool tool: The file /home/dana/shop",
            "assistant decision 24: Fixed: refunds now round",
            "user chatter: Thanks!",
        ]
    );
    // The second reply thought: its count includes thinking the import does not carry, so the
    // session counts the text it has. Each reply's input and cache tokens are what was sent.
    let sent: Vec<_> = read
        .sent_tokens
        .iter()
        .map(|s| (s.turn, s.tokens))
        .collect();
    assert_eq!(sent, [(2, 17014), (4, 17014), (6, 17014)]);
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
fn a_gemini_cli_session_reads_the_last_state_of_each_message_and_follows_its_rewinds() {
    // The JSONL file: a message written again when it changed (m2, its tool call added), a
    // message rewound ($rewindTo m4), an info line and a metadata update.
    let jsonl = read("gemini-cli.jsonl");
    // The older file: one JSON object, the same conversation.
    let json = read("gemini-cli.json");
    for read in [&jsonl, &json] {
        assert_eq!(
            turns(read),
            [
                "user question: Why does refund RF-118 s",
                "assistant decision 41: read_file({\"absolute_pat",
                "tool tool: fn cents(amount: f64) ->",
                "assistant decision 28: Line 2 cuts the amount i",
                "user decision: Fix it, please.",
                "assistant decision 77: Fixed: refunds now round",
                "tool tool: Successfully modified fi",
            ]
        );
        // The model's `tokens.input`, at the turn of each reply.
        let sent: Vec<_> = read
            .sent_tokens
            .iter()
            .map(|s| (s.turn, s.tokens))
            .collect();
        assert_eq!(sent, [(2, 8120), (4, 8340), (6, 8505)]);
        assert!(read.compactions.is_empty());
    }
    // The metadata line, m2's first state, the rewind's m4, the info line and the update.
    assert_eq!((jsonl.skipped, jsonl.rewound), (5, 1));
    assert_eq!(json.skipped, 1);
}

#[test]
fn a_long_claude_code_session_is_read_as_claude_code_wrote_it() {
    // Real Claude Code shapes: a reply streamed one block a line with placeholder usage and a
    // thinking signature, a hook's progress line in the chain, a rewound branch, a screenshot,
    // a message queued while the agent worked, a subagent's lines, a compaction and its summary,
    // a slash command with arguments, and two records on one line.
    let read = import_conversation(&fixture("claude-code-long.jsonl")).unwrap();
    assert_eq!(read.format, Format::ClaudeCode);
    assert_eq!(
        turns(&read),
        [
            "user question: The refund page shows $1",
            "assistant decision: Let me look at the page ",
            "tool tool: 1\tfn cents(amount: f64) ",
            "assistant decision 18: Line 2 cuts the amount i",
            "user decision: Here is the page:",
            "user question: did we create any new un",
            "assistant decision 40: Task({\"description\":\"Fin",
            "tool tool: tests/refund.rs holds ro",
            "assistant decision 21: No new tests yet; rounds",
            "user decision: /commit keep each commit",
            "assistant decision 14: Committed: refunds round",
        ]
    );
    // The rewound branch's two messages are left out, and counted.
    assert_eq!(read.rewound, 2);
    // The snapshot, the summary line, the hook's progress, the rewound two and the command's
    // output.
    assert_eq!(read.skipped, 6);
    assert_eq!((read.broken_lines, read.subagent.len()), (0, 2));
    let sent: Vec<_> = read
        .sent_tokens
        .iter()
        .map(|s| (s.turn, s.tokens))
        .collect();
    assert_eq!(
        sent,
        [(2, 16013), (4, 16133), (7, 19033), (9, 19333), (11, 11103)]
    );
    let compaction = &read.compactions[0];
    assert_eq!(read.compactions.len(), 1);
    assert_eq!((compaction.turn, compaction.trigger.as_str()), (9, "auto"));
    assert_eq!(
        (compaction.pre_tokens, compaction.post_tokens),
        (Some(155_250), None)
    );
    // The summary is whole: over the per-turn limit, and never cut.
    assert!(compaction.summary.chars().count() > 10_000);
    assert!(compaction
        .summary
        .ends_with("The tests live in tests/refund.rs."));
    // No base64 reaches a turn: the screenshot and the thinking signature are not text.
    let all: usize = read
        .turns
        .iter()
        .map(|t| t.text.as_ref().unwrap().len())
        .sum();
    assert!(all < 2_000, "{all}");
}

#[test]
fn parallel_tool_calls_and_a_cleared_conversation_are_no_rewind() {
    // Parallel tool calls branch: each result hangs from its own call's line. A `/clear`
    // starts a tree of its own. Neither is a branch the user left.
    let line = |uuid: &str, parent: Option<&str>, kind: &str, message: &str| {
        let parent = parent.map_or("null".to_string(), |p| format!("\"{p}\""));
        format!(r#"{{"type":"{kind}","uuid":"{uuid}","parentUuid":{parent},"message":{message}}}"#)
    };
    let call = |id: &str, tool: &str| {
        format!(
            r#"{{"id":"{id}","role":"assistant","content":[{{"type":"tool_use","id":"{tool}","name":"Read","input":{{}}}}]}}"#
        )
    };
    let result = |tool: &str, said: &str| {
        format!(
            r#"{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"{tool}","content":"{said}"}}]}}"#
        )
    };
    let text = |role: &str, said: &str| format!(r#"{{"role":"{role}","content":"{said}"}}"#);
    let log = [
        line("u1", None, "user", &text("user", "Read both files.")),
        line("a1", Some("u1"), "assistant", &call("msg_A", "t1")),
        line("a2", Some("a1"), "assistant", &call("msg_A", "t2")),
        line("r1", Some("a1"), "user", &result("t1", "first file")),
        line("r2", Some("a2"), "user", &result("t2", "second file")),
        line(
            "a3",
            Some("r2"),
            "assistant",
            &text("assistant", "Both read."),
        ),
        line("u2", None, "user", &text("user", "Now the tests.")),
        line(
            "a4",
            Some("u2"),
            "assistant",
            &text("assistant", "Running them."),
        ),
    ]
    .join("\n");
    let read = import_conversation(&log).unwrap();
    assert_eq!(read.rewound, 0);
    let texts: Vec<_> = read
        .turns
        .iter()
        .map(|t| t.text.as_deref().unwrap())
        .collect();
    assert_eq!(
        texts,
        [
            "Read both files.",
            "Read({}) Read({})",
            "first file",
            "second file",
            "Both read.",
            "Now the tests.",
            "Running them."
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
fn a_bad_line_is_named_and_the_rest_imports_a_bad_request_is_refused() {
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
        // A session log reads but for the line, which is named; a chat request is refused.
        let got = match import_conversation(&text) {
            Ok(read) => {
                assert_eq!(read.broken_lines, 1);
                read.broken[0].reason.clone()
            }
            Err(error) => error.message().to_owned(),
        };
        assert_eq!(got, message);
    }
}

#[test]
fn only_a_log_s_size_is_limited() {
    let claude = fixture("claude-code.jsonl");
    let lines: Vec<&str> = claude.lines().collect();
    // 50,000 records, 20,000 of them turns, each a link in one chain.
    let mut many = Vec::new();
    for index in 0..50_000 {
        many.push(if index % 5 < 2 {
            format!(
                r#"{{"type":"user","uuid":"u{index}","parentUuid":"u{}","message":{{"role":"user","content":"Turn {index}?"}}}}"#,
                index.max(1) - 1
            )
        } else {
            format!(r#"{{"type":"progress","uuid":"u{index}","parentUuid":"u{}"}}"#, index - 1)
        });
    }
    let read = import_conversation(&many.join("\n")).unwrap();
    assert_eq!((read.turns.len(), read.skipped), (20_000, 30_000));
    let huge = format!("{}\n", lines[1]).repeat(64 * 1024 * 1024 / lines[1].len() + 1);
    assert_eq!(
        import_conversation(&huge).unwrap_err().message(),
        "conversation: must have at most 67108864 bytes of text"
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
