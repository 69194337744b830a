// Import at real size in Node, with the playground's import core (`make build`: the core the
// playground's import panel loads, with the replay at real size), against what JS takes to
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

const CORE = "playground-own";
const core = await import(pathToFileURL(join(PKG, `${CORE}.js`)).href);
await core.default({ module_or_path: readFileSync(join(PKG, `${CORE}_bg.wasm`)) });

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
// The replay's cost per turn, flat with the session's length: its first 300 turns against all
// of a log of at least 3,500 (goal: all seven policies over 3,500 turns in under 2 s, at most 1.5
// times the cost per turn of 300), in one run, each the best of three.
const { text } = claudeCodeLog(23e6);
const turns = core.importConversation(text).turns;
const replays = [];
for (const count of [300, turns.length]) {
  let best = Infinity;
  for (let run = 0; run < 3; run++) {
    const start = performance.now();
    const playground = core.Playground.withConfig({ budget: BUDGET, script: turns.slice(0, count) });
    playground.goTo(count);
    best = Math.min(best, performance.now() - start);
    playground.free();
  }
  replays.push({ turns: count, ms: best, usPerTurn: (best * 1000) / count });
}
const [first, all] = replays;
console.log(JSON.stringify({ node: process.version, core: CORE, budget: BUDGET, rows, replays, perTurnRatio: all.usPerTurn / first.usPerTurn }, null, 2));
