//! Realistic session logs of any size, in each agent's shape, for the import's tests and
//! benchmarks: no log of megabytes is committed, they are written when a test needs one.
//!
//! Each log is rounds of work: a user's prompt, the assistant's reply (thinking with its
//! signature, text, a tool call), the tool's output (a long file read or command output, now and
//! then over the per-turn limit), and what the agent writes around them. Claude Code's: a reply
//! streamed one content block a line with placeholder usage, hook progress lines, file-history
//! snapshots, a screenshot now and then (base64), messages queued while the agent worked, a
//! subagent's lines, rewound branches, and compactions (a `compact_boundary` and its summary).
//! Codex's: reasoning with encrypted content, calls and outputs, `token_count` events,
//! `compacted` records. Gemini CLI's: messages written again as they change, `$rewindTo` and
//! `$set` records. The generator returns, with the text, what the import must make of it.
//!
//! Deterministic: the same options give the same log.

#![allow(dead_code)] // Each test or bench that includes this uses a part of it.

use serde_json::{json, Value};

/// Which agent's log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agent {
    ClaudeCode,
    Codex,
    Gemini,
}

/// What to write.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub agent: Agent,
    /// Write rounds until the log has at least this many bytes.
    pub bytes: usize,
    pub seed: u64,
    /// A compaction after every this many rounds (0: none).
    pub compact_every: usize,
    /// Rewound branches, queued messages, subagents and screenshots now and then.
    pub extras: bool,
    /// The most characters of a usual tool output; from 1,000 on, one output in ten is longer
    /// than the per-turn limit.
    pub output: usize,
}

impl Options {
    pub fn new(agent: Agent, bytes: usize) -> Options {
        Options {
            agent,
            bytes,
            seed: 7,
            compact_every: 40,
            extras: true,
            output: 6_000,
        }
    }
}

/// A log and what its import must give.
#[derive(Debug, Default)]
pub struct Log {
    pub text: String,
    /// Lines (records) written.
    pub records: usize,
    /// Texts that must each be the start of a turn's text, in this order (prompts, replies,
    /// tool outputs, queued messages, a slash command's arguments).
    pub turns: Vec<String>,
    /// Texts on rewound branches: no turn may hold them.
    pub rewound: Vec<String>,
    /// Texts of a subagent's lines (Claude Code), kept apart.
    pub subagent: Vec<String>,
    /// The summary of each compaction, in order.
    pub summaries: Vec<String>,
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

const WORDS: [&str; 24] = [
    "refund", "order", "amount", "cents", "round", "test", "module", "parser", "config", "cache",
    "token", "window", "budget", "summary", "policy", "agent", "session", "branch", "commit",
    "build", "error", "value", "field", "line",
];

/// `n` words of prose, numbered by `round` so that each text is unique.
fn prose(rng: &mut Rng, round: usize, n: usize) -> String {
    let mut out = format!("[{round}]");
    for _ in 0..n {
        out.push(' ');
        out.push_str(rng.pick(&WORDS));
    }
    out
}

/// A tool's output of about `chars` characters, lines of code or command output.
fn output(rng: &mut Rng, round: usize, chars: usize) -> String {
    let mut out = format!("output of round {round}\n");
    let mut line = 1;
    while out.len() < chars {
        out.push_str(&format!(
            "{line:>5}\tlet {} = {}({});\n",
            rng.pick(&WORDS),
            rng.pick(&WORDS),
            rng.below(100_000)
        ));
        line += 1;
    }
    out
}

/// Base64 of `bytes` pseudo-random bytes: a screenshot, a signature, encrypted reasoning.
fn base64(rng: &mut Rng, bytes: usize) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes * 4 / 3 + 4);
    for _ in 0..bytes * 4 / 3 {
        out.push(ALPHABET[rng.below(64) as usize] as char);
    }
    while out.len() % 4 != 0 {
        out.push('=');
    }
    out
}

/// Writes a log by `options`.
pub fn write(options: Options) -> Log {
    match options.agent {
        Agent::ClaudeCode => claude_code(options),
        Agent::Codex => codex(options),
        Agent::Gemini => gemini(options),
    }
}

struct Writer {
    log: Log,
}

impl Writer {
    fn line(&mut self, value: Value) {
        self.log.text.push_str(&value.to_string());
        self.log.text.push('\n');
        self.log.records += 1;
    }
}

fn claude_code(options: Options) -> Log {
    let mut rng = Rng(options.seed | 1);
    let mut w = Writer {
        log: Log::default(),
    };
    let session = "4d1c9e2b-7a3f-4b6e-9c0d-2e1f3a4b5c6d";
    let mut parent: Value = Value::Null;
    let mut next_uuid = 0u64;
    let mut uuid = || {
        next_uuid += 1;
        format!("00000000-0000-4000-8000-{next_uuid:012x}")
    };
    let base = |kind: &str, id: &str, parent: &Value| {
        json!({"parentUuid": parent, "isSidechain": false, "userType": "external",
               "cwd": "/home/dana/shop", "sessionId": session, "version": "2.0.31",
               "gitBranch": "main", "type": kind, "uuid": id,
               "timestamp": "2025-11-12T14:00:00.000Z"})
    };
    let mut cache = 9_000u64;
    let mut round = 0usize;
    while w.log.text.len() < options.bytes {
        round += 1;
        // A rewound branch: a prompt and its reply, then the next prompt from before them.
        let fork = parent.clone();
        // (Not before the first prompt: a rewind to the start makes a tree of its own, which the
        // import cannot tell from a conversation before a `/clear`, and keeps.)
        if options.extras && !parent.is_null() && rng.chance(4) {
            let id = uuid();
            let said = format!("{} (rewound)", prose(&mut rng, round, 8));
            let mut line = base("user", &id, &parent);
            line["message"] = json!({"role": "user", "content": said});
            w.line(line);
            w.log.rewound.push(said);
            let reply = uuid();
            let said = format!("{} (rewound reply)", prose(&mut rng, round, 12));
            let mut line = base("assistant", &reply, &json!(id));
            line["message"] = json!({"id": format!("msg_rw{round}"), "type": "message",
                "role": "assistant", "content": [{"type": "text", "text": said}],
                "stop_reason": "end_turn", "usage": {"input_tokens": 3, "output_tokens": 20,
                "cache_creation_input_tokens": 0, "cache_read_input_tokens": cache}});
            w.line(line);
            w.log.rewound.push(said);
        }
        parent = fork;
        w.line(
            json!({"type": "file-history-snapshot", "messageId": format!("m{round}"),
            "snapshot": {"messageId": format!("m{round}"), "trackedFileBackups": {},
            "timestamp": "2025-11-12T14:00:00.000Z"}, "isSnapshotUpdate": false}),
        );
        // The user's prompt: typed, a slash command's arguments, or with a screenshot.
        let id = uuid();
        let mut line = base("user", &id, &parent);
        let prompt = {
            let n = 6 + rng.below(30) as usize;
            prose(&mut rng, round, n)
        } + "?";
        if options.extras && rng.chance(3) {
            line["message"] = json!({"role": "user", "content": format!(
                "<command-name>/review</command-name>\n<command-message>review</command-message>\n<command-args>{prompt}</command-args>")});
            w.log.turns.push(format!("/review {prompt}"));
        } else if options.extras && rng.chance(5) {
            let png = {
                let n = 20_000 + rng.below(60_000) as usize;
                base64(&mut rng, n)
            };
            line["message"] = json!({"role": "user", "content": [
                {"type": "text", "text": prompt},
                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": png}}]});
            w.log.turns.push(prompt);
        } else {
            line["message"] = json!({"role": "user", "content": prompt});
            w.log.turns.push(prompt);
        }
        w.line(line);
        parent = json!(id);
        // A message typed while the agent works.
        let queued = (options.extras && rng.chance(5))
            .then(|| format!("{} please", prose(&mut rng, round, 5)));
        if let Some(said) = &queued {
            w.line(json!({"type": "queue-operation", "operation": "enqueue",
                "timestamp": "2025-11-12T14:00:01.000Z", "content": said, "sessionId": session}));
            w.log.turns.push(said.clone());
        }
        // The reply, one content block a line: thinking, text, a tool call.
        let message = format!("msg_{round:06}");
        let sent = 3 + 900 + cache;
        let said = {
            let n = 10 + rng.below(40) as usize;
            prose(&mut rng, round, n)
        };
        let tool = format!("toolu_{round:06}");
        let tool_name = rng.pick(&["Read", "Bash", "Grep", "Edit"]);
        let blocks = [
            json!({"type": "thinking", "thinking": prose(&mut rng, round, 30), "signature": base64(&mut rng, 300)}),
            json!({"type": "text", "text": said}),
            json!({"type": "tool_use", "id": tool, "name": tool_name, "input": {"file_path": format!("/home/dana/shop/src/{}.rs", rng.pick(&WORDS))}}),
        ];
        for (index, block) in blocks.iter().enumerate() {
            let last = index == blocks.len() - 1;
            let id = uuid();
            let mut line = base("assistant", &id, &parent);
            line["requestId"] = json!(format!("req_{round}"));
            line["message"] = json!({"model": "claude-sonnet-4-5-20250929", "id": message,
                "type": "message", "role": "assistant", "content": [block],
                "stop_reason": if last { json!("tool_use") } else { Value::Null },
                "stop_sequence": null,
                "usage": {"input_tokens": 3, "cache_creation_input_tokens": 900,
                          "cache_read_input_tokens": cache,
                          "output_tokens": if last { 40 + rng.below(400) } else { 5 },
                          "service_tier": "standard"}});
            w.line(line);
            parent = json!(id);
        }
        w.log.turns.push(said);
        let _ = sent;
        // A hook's progress, in the chain.
        let id = uuid();
        let mut line = base("progress", &id, &parent);
        line["data"] = json!({"type": "hook_progress", "hookEvent": "PostToolUse"});
        line["toolUseID"] = json!(tool);
        w.line(line);
        parent = json!(id);
        // The tool's output: long now and then.
        let chars = if options.output >= 1_000 && rng.chance(10) {
            12_000 + rng.below(30_000)
        } else {
            200 + rng.below(options.output as u64)
        };
        let out = output(&mut rng, round, chars as usize);
        let id = uuid();
        let mut line = base("user", &id, &parent);
        line["message"] = json!({"role": "user", "content": [
            {"tool_use_id": tool, "type": "tool_result", "content": out}]});
        line["toolUseResult"] = json!({"type": "text", "file": {"content": out, "numLines": 1}});
        w.line(line);
        w.log.turns.push(out.chars().take(60).collect());
        parent = json!(id);
        // A subagent's lines, in the main log.
        if options.extras && rng.chance(3) {
            let said = format!("{} (subagent)", prose(&mut rng, round, 8));
            let mut line = base("user", &uuid(), &Value::Null);
            line["isSidechain"] = json!(true);
            line["message"] = json!({"role": "user", "content": said});
            w.line(line);
            w.log.subagent.push(said);
        }
        cache += 400 + rng.below(2_000);
        // A compaction, and the summary Claude Code writes after it.
        if options.compact_every > 0 && round % options.compact_every == 0 {
            let boundary = uuid();
            let mut line = base("system", &boundary, &Value::Null);
            line["subtype"] = json!("compact_boundary");
            line["content"] = json!("Conversation compacted");
            line["logicalParentUuid"] = parent.clone();
            line["compactMetadata"] = json!({"trigger": "auto", "preTokens": cache});
            w.line(line);
            let summary = format!(
                "This session is being continued from a previous conversation. Summary of rounds up to {round}:\n{}",
                output(&mut rng, round, 14_000)
            );
            let id = uuid();
            let mut line = base("user", &id, &json!(boundary));
            line["isCompactSummary"] = json!(true);
            line["message"] = json!({"role": "user", "content": summary});
            w.line(line);
            w.log.summaries.push(summary);
            parent = json!(id);
            cache = 9_000;
        }
    }
    // The reply that ends the session.
    let said = "All done: the refund rounds to the cent.".to_string();
    let mut line = base("assistant", &uuid(), &parent);
    line["message"] = json!({"id": "msg_last", "type": "message", "role": "assistant",
        "content": [{"type": "text", "text": said}], "stop_reason": "end_turn",
        "usage": {"input_tokens": 3, "output_tokens": 12}});
    w.line(line);
    w.log.turns.push(said);
    w.log
}

fn codex(options: Options) -> Log {
    let mut rng = Rng(options.seed | 1);
    let mut w = Writer {
        log: Log::default(),
    };
    let item = |payload: Value| json!({"timestamp": "2025-11-12T14:00:00.000Z", "type": "response_item", "payload": payload});
    let event = |payload: Value| json!({"timestamp": "2025-11-12T14:00:00.000Z", "type": "event_msg", "payload": payload});
    w.line(json!({"timestamp": "2025-11-12T14:00:00.000Z", "type": "session_meta",
        "payload": {"id": "019a6b2e-0000-7000-8000-000000000001", "cwd": "/home/dana/shop", "cli_version": "0.58.0"}}));
    let mut input = 8_000u64;
    let mut round = 0usize;
    while w.log.text.len() < options.bytes {
        round += 1;
        w.line(json!({"timestamp": "t", "type": "turn_context", "payload": {"cwd": "/home/dana/shop", "model": "gpt-5-codex"}}));
        let prompt = {
            let n = 6 + rng.below(30) as usize;
            prose(&mut rng, round, n)
        } + "?";
        w.line(item(json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": prompt}]})));
        w.line(event(json!({"type": "user_message", "message": prompt})));
        w.log.turns.push(prompt);
        w.line(item(json!({"type": "reasoning", "summary": [], "content": null, "encrypted_content": base64(&mut rng, 600)})));
        let call = format!("call_{round:06}");
        let command = format!("sed -n 1,200p src/{}.rs", rng.pick(&WORDS));
        w.line(item(json!({"type": "function_call", "name": "shell", "arguments": json!({"command": ["bash", "-lc", command]}).to_string(), "call_id": call})));
        w.log.turns.push("shell(".to_string());
        w.line(event(json!({"type": "token_count", "info": {"last_token_usage": {"input_tokens": input, "cached_input_tokens": input - 500, "output_tokens": 80, "reasoning_output_tokens": 40, "total_tokens": input + 80}, "model_context_window": 272_000}})));
        let chars = if options.output >= 1_000 && rng.chance(10) {
            12_000 + rng.below(30_000)
        } else {
            200 + rng.below(options.output as u64)
        };
        let out = output(&mut rng, round, chars as usize);
        w.line(item(json!({"type": "function_call_output", "call_id": call, "output": json!({"output": out, "metadata": {"exit_code": 0}}).to_string()})));
        w.log
            .turns
            .push("{\"metadata\":{\"exit_code\":0},\"output\":\"output of round".to_string());
        let said = {
            let n = 10 + rng.below(40) as usize;
            prose(&mut rng, round, n)
        };
        w.line(item(json!({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": said}]})));
        w.line(event(json!({"type": "agent_message", "message": said})));
        w.line(event(json!({"type": "token_count", "info": {"last_token_usage": {"input_tokens": input + 400, "cached_input_tokens": input, "output_tokens": 60, "total_tokens": input + 460}, "model_context_window": 272_000}})));
        w.log.turns.push(said);
        input += 400 + chars / 4;
        if options.compact_every > 0 && round % options.compact_every == 0 {
            let summary = format!(
                "Summary of rounds up to {round}: {}",
                prose(&mut rng, round, 300)
            );
            w.line(json!({"timestamp": "t", "type": "compacted", "payload": {"message": summary, "replacement_history": [
                {"type": "message", "role": "user", "content": [{"type": "input_text", "text": summary}]}]}}));
            w.line(event(json!({"type": "context_compacted"})));
            w.log.summaries.push(summary);
            input = 8_000;
        }
    }
    w.log
}

fn gemini(options: Options) -> Log {
    let mut rng = Rng(options.seed | 1);
    let mut w = Writer {
        log: Log::default(),
    };
    w.line(json!({"sessionId": "5f0c1e2a-7b3d-4e8f-9a21-c4d5e6f7a8b9", "projectHash": "9c2e4b7d1a3f5e6c", "startTime": "2025-11-04T10:12:00.000Z", "lastUpdated": "2025-11-04T10:12:00.000Z", "kind": "main"}));
    let mut input = 8_000u64;
    let mut round = 0usize;
    while w.log.text.len() < options.bytes {
        round += 1;
        if options.extras && rng.chance(4) {
            let said = format!("{} (rewound)", prose(&mut rng, round, 8));
            let id = format!("rw{round}");
            w.line(
                json!({"id": id, "timestamp": "t", "type": "user", "content": [{"text": said}]}),
            );
            w.line(json!({"$rewindTo": id}));
            w.log.rewound.push(said);
        }
        let prompt = {
            let n = 6 + rng.below(30) as usize;
            prose(&mut rng, round, n)
        } + "?";
        w.line(json!({"id": format!("u{round}"), "timestamp": "t", "type": "user", "content": [{"text": prompt}]}));
        w.log.turns.push(prompt);
        let said = {
            let n = 10 + rng.below(40) as usize;
            prose(&mut rng, round, n)
        };
        let id = format!("g{round}");
        let tokens = json!({"input": input, "output": 60, "cached": input - 500, "thoughts": 120, "tool": 0, "total": input + 180});
        let thoughts = json!([{"subject": "Reading", "description": prose(&mut rng, round, 20), "timestamp": "t"}]);
        // First written as it starts, then again with its tool call and the call's result.
        w.line(json!({"id": id, "timestamp": "t", "type": "gemini", "content": said, "thoughts": thoughts, "tokens": tokens, "model": "gemini-2.5-pro"}));
        let chars = if options.output >= 1_000 && rng.chance(10) {
            12_000 + rng.below(30_000)
        } else {
            200 + rng.below(options.output as u64)
        };
        let out = output(&mut rng, round, chars as usize);
        let call = format!("read_file-{round}");
        w.line(json!({"id": id, "timestamp": "t", "type": "gemini", "content": said, "thoughts": thoughts, "tokens": tokens, "model": "gemini-2.5-pro",
            "toolCalls": [{"id": call, "name": "read_file", "args": {"absolute_path": "/home/dana/shop/src/refund.rs"},
                "result": [{"functionResponse": {"id": call, "name": "read_file", "response": {"output": out}}}], "status": "success", "timestamp": "t"}]}));
        w.log.turns.push(said);
        w.log.turns.push(out.chars().take(60).collect());
        if rng.chance(10) {
            w.line(json!({"id": format!("i{round}"), "timestamp": "t", "type": "info", "content": "Request cancelled."}));
        }
        w.line(json!({"$set": {"lastUpdated": "2025-11-04T10:13:00.000Z"}}));
        input += 400 + chars / 4;
    }
    w.log
}
