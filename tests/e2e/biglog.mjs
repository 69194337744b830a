// A Claude Code session log of a chosen size, written on the fly for the browser tests and the
// benchmarks (never committed: a real session that compacts is megabytes). Its shape is Claude
// Code's own (tests/fixtures/import/claude-code.jsonl holds a small real-shaped one): a user
// prompt, then rounds of an assistant reply in several lines of one message id (thinking with its
// signature, text, a tool call) with the usage Claude Code writes, and the tool's result (a long
// file read or command output); hook progress lines and file-history snapshots between them; and
// at about 155,000 tokens sent, Claude Code's own compaction: a `compact_boundary` record with
// its `compactMetadata`, then the `isCompactSummary` user message that replaces the history.
//
//   import { claudeCodeLog } from "./biglog.mjs";
//   const { text, compactions, rounds } = claudeCodeLog(21_000_000);
//
// Deterministic: the same size gives the same log, byte for byte.

/** Claude Code's automatic trigger, as the real logs record it (preTokens 155,250 and 155,068). */
const TRIGGER = 155_000;
/** What a compaction leaves, in tokens: the summary and the system prompt. */
const AFTER = 18_000;

/** A small deterministic generator (mulberry32), so that a size always gives the same log. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ("refund order amount cents rounding test fails passes module function returns value error "
  + "file line build cargo check branch commit review change fix parser token window budget summary "
  + "invoice customer ledger total currency decimal format report").split(" ");

/**
 * A Claude Code session of about `bytes` bytes of JSONL. Returns `{ text, compactions, rounds,
 * lines }`: the log, the `preTokens` of each compaction it records, the tool rounds, and its
 * line count.
 */
export function claudeCodeLog(bytes, { seed = 51 } = {}) {
  const next = random(seed);
  const pick = (list) => list[Math.floor(next() * list.length)];
  const sentence = (n) => Array.from({ length: n }, () => pick(WORDS)).join(" ");
  const session = "5d0c2f1e-51aa-4b7e-9c3d-21a0be51f00d";
  const lines = [];
  let size = 0;
  let uuid = 0;
  let parent = null;
  let sent = 24_000;
  let clock = Date.UTC(2026, 10, 30, 9, 0, 0);
  const compactions = [];
  const push = (record) => {
    const line = JSON.stringify(record);
    lines.push(line);
    size += line.length + 1;
  };
  const base = (type) => {
    const id = `u-${++uuid}`;
    clock += 1000 + Math.floor(next() * 9000);
    const record = {
      parentUuid: parent, isSidechain: false, userType: "external", cwd: "/home/dana/shop", sessionId: session,
      version: "2.0.14", gitBranch: "main", type, uuid: id, timestamp: new Date(clock).toISOString(),
    };
    parent = id;
    return record;
  };
  const user = (content, more = {}) => push({ ...base("user"), message: { role: "user", content }, ...more });
  const usage = (output) => ({ input_tokens: 4, cache_creation_input_tokens: 1200, cache_read_input_tokens: sent - 1204, output_tokens: output, service_tier: "standard" });

  user("The refund report rounds every amount down by a cent. Find why, fix it, and keep the tests passing.");
  let rounds = 0;
  let message = 0;
  while (size < bytes) {
    rounds += 1;
    const id = `msg_${String(++message).padStart(6, "0")}`;
    const tool = `toolu_${String(rounds).padStart(6, "0")}`;
    const assistant = (content, stop, output) => push({
      ...base("assistant"), requestId: `req_${message}`,
      message: { id, type: "message", role: "assistant", model: "claude-sonnet-4-5-20250929", content, stop_reason: stop, usage: usage(output) },
    });
    // One reply in three lines of one message id, each with the same partial usage, the last
    // with the final count: as Claude Code streams them.
    assistant([{ type: "thinking", thinking: sentence(30 + Math.floor(next() * 60)), signature: "Eq" + "A".repeat(300 + Math.floor(next() * 400)) }], null, 5);
    assistant([{ type: "text", text: `I'll look at ${pick(WORDS)}.rs next: ${sentence(12 + Math.floor(next() * 20))}.` }], null, 5);
    const file = `src/${pick(WORDS)}/${pick(WORDS)}.rs`;
    assistant([{ type: "tool_use", id: tool, name: "Read", input: { file_path: `/home/dana/shop/${file}` } }], "tool_use", 80 + Math.floor(next() * 400));
    push({ ...base("progress"), data: { type: "hook_progress", hookEvent: "PostToolUse", hookName: "PostToolUse:Read" }, toolUseID: tool });
    // The file read: numbered lines of code, 1 to 6 KB, written twice as Claude Code does (in the
    // message, and in `toolUseResult`).
    const read = Array.from({ length: 20 + Math.floor(next() * 90) }, (_, i) => `${String(i + 1).padStart(5)}\u2192    let ${pick(WORDS)}_${i} = ${pick(WORDS)}(${Math.floor(next() * 10_000)}); // ${sentence(4)}`).join("\n");
    user([{ tool_use_id: tool, type: "tool_result", content: read }], { toolUseResult: { type: "text", file: { filePath: file, content: read, numLines: read.split("\n").length } } });
    if (rounds % 7 === 0) push({ type: "file-history-snapshot", messageId: `u-${uuid}`, snapshot: { messageId: `u-${uuid}`, trackedFileBackups: {}, timestamp: new Date(clock).toISOString() }, isSnapshotUpdate: false });
    if (rounds % 9 === 0) user(`Keep going; also check ${pick(WORDS)} ${Math.floor(next() * 100)}. Does ${pick(WORDS)} still pass?`);
    sent += Math.ceil(read.length / 3.5) + 250;
    if (sent >= TRIGGER) {
      compactions.push(sent);
      push({ ...base("system"), subtype: "compact_boundary", content: "Conversation compacted", level: "info", compactMetadata: { trigger: "auto", preTokens: sent } });
      user(`This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\nAnalysis:\n${sentence(120)}.\n\nSummary:\n1. Primary Request and Intent: fix the refund rounding.\n2. Pending Tasks: ${sentence(20)}.\n3. Current Work: ${sentence(30)}.\n4. Optional Next Step: ${sentence(15)}.`, { isCompactSummary: true, isVisibleInTranscriptOnly: true });
      sent = AFTER;
    }
  }
  return { text: `${lines.join("\n")}\n`, compactions, rounds, lines: lines.length };
}
