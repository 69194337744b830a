// Import at real size in Node, with the full wasm core (`make build`), against what JS takes to
// `JSON.parse` each line of the same log, in one run; and the playground's replay of what was
// imported, all seven policies at budget 8,000. Claude Code logs of 1, 7 and 21 MB, written on
// the fly by tests/e2e/biglog.mjs (the browser bench's logs, benches/large.mjs).
// Prints JSON, which `make bench` keeps as target/bench/import.json for benches/report.mjs.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import { claudeCodeLog } from "../tests/e2e/biglog.mjs";

const ROOT = new URL("..", import.meta.url).pathname;
const PKG = join(ROOT, "www/pkg");
const SIZES = [1, 7, 21];
const BUDGET = 8000;

const core = await import(pathToFileURL(join(PKG, "agent_memory_widgets.js")).href);
await core.default({ module_or_path: readFileSync(join(PKG, "agent_memory_widgets_bg.wasm")) });

const rows = [];
for (const mb of SIZES) {
  const { text } = claudeCodeLog(mb * 1e6);
  // One run of each, one after the other, on the same text.
  let start = performance.now();
  let records = 0;
  for (const line of text.split("\n")) {
    if (line) {
      JSON.parse(line);
      records++;
    }
  }
  const parse = performance.now() - start;
  start = performance.now();
  const read = core.importConversation(text);
  const importTime = performance.now() - start;
  start = performance.now();
  const playground = core.Playground.withConfig({ budget: BUDGET, script: read.turns });
  playground.goTo(read.turns.length);
  const replay = performance.now() - start;
  playground.free();
  rows.push({
    mb,
    bytes: Buffer.byteLength(text),
    records,
    turns: read.turns.length,
    compactions: read.compactions.length,
    parseMs: parse,
    importMs: importTime,
    ratio: importTime / parse,
    replayMs: replay,
    replayUsPerTurn: (replay * 1000) / read.turns.length,
  });
}
// The replay's cost per turn, flat with the session's length: its first 300 turns against its
// first 3,500 (goal: all seven policies over 3,500 turns in under 2 s, at most 1.5 times the cost
// per turn of 300).
const { text } = claudeCodeLog(21e6);
const turns = core.importConversation(text).turns;
const replays = [];
for (const count of [300, 3500]) {
  const start = performance.now();
  const playground = core.Playground.withConfig({ budget: BUDGET, script: turns.slice(0, count) });
  playground.goTo(count);
  const ms = performance.now() - start;
  playground.free();
  replays.push({ turns: count, ms, usPerTurn: (ms * 1000) / count });
}
console.log(JSON.stringify({ node: process.version, budget: BUDGET, rows, replays }, null, 2));
