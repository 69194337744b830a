#!/usr/bin/env node
// Imports every file of a folder (and its subfolders) with the full wasm core, as the page
// does, and prints what it read: how many imported, in which format, how many were refused and
// why, the compactions, broken lines and rewound messages found, and the time each took.
//
//   make build                                   # www/pkg/agent_memory_widgets.js
//   node tools/import-corpus.mjs /work/corpus    # or --replay 8000: also a playground at that budget
//
// Nothing is written; the corpus stays where it is (keep it out of the repository).

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";

const ROOT = new URL("..", import.meta.url).pathname;
const PKG = join(ROOT, "www/pkg");
const args = process.argv.slice(2);
const replayAt = args.includes("--replay") ? Number(args[args.indexOf("--replay") + 1]) : null;
const folder = args.find((arg, index) => !arg.startsWith("--") && args[index - 1] !== "--replay");
if (!folder) {
  console.error("usage: node tools/import-corpus.mjs FOLDER [--replay BUDGET]");
  process.exit(2);
}

const core = await import(pathToFileURL(join(PKG, "agent_memory_widgets.js")).href);
await core.default({ module_or_path: readFileSync(join(PKG, "agent_memory_widgets_bg.wasm")) });

/** Every file under `dir`, sorted. */
function files(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...files(path));
    else out.push(path);
  }
  return out;
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
const ms = (value) => `${value.toFixed(1)} ms`;
const all = files(folder);
const formats = new Map();
const refused = new Map();
const times = [];
const replays = [];
let bytes = 0, turns = 0, compacted = 0, compactions = 0, broken = 0, brokenFiles = 0, rewound = 0;
let subagent = 0, sent = 0, parseTime = 0, importTime = 0;
let slowest = { time: 0, file: "" };
for (const path of all) {
  const text = readFileSync(path, "utf8");
  bytes += Buffer.byteLength(text);
  // What JS takes to parse each line, for comparison (a file of one JSON value: the whole).
  let start = performance.now();
  for (const line of text.split("\n")) {
    try { if (line.trim()) JSON.parse(line); } catch { /* not one value a line */ }
  }
  parseTime += performance.now() - start;
  start = performance.now();
  let read;
  try {
    read = core.importConversation(text);
  } catch (error) {
    const why = String(error.message).replace(/^line \d+(, column \d+)?: /, "line N: ").slice(0, 120);
    refused.set(why, [...(refused.get(why) ?? []), relative(folder, path)]);
    continue;
  } finally {
    const time = performance.now() - start;
    times.push(time);
    importTime += time;
    if (time > slowest.time) slowest = { time, file: relative(folder, path) };
  }
  formats.set(read.format, (formats.get(read.format) ?? 0) + 1);
  turns += read.turns.length;
  compactions += read.compactions.length;
  compacted += read.compactions.length > 0 ? 1 : 0;
  broken += read.brokenLines;
  brokenFiles += read.brokenLines > 0 ? 1 : 0;
  rewound += read.rewound;
  subagent += read.subagent.length;
  sent += read.sentTokens.length > 0 ? 1 : 0;
  if (replayAt) {
    start = performance.now();
    const playground = core.Playground.withConfig({ budget: replayAt, script: read.turns });
    playground.goTo(read.turns.length);
    replays.push([performance.now() - start, read.turns.length]);
    playground.free();
  }
}

const imported = [...formats.values()].reduce((a, b) => a + b, 0);
const sorted = [...times].sort((a, b) => a - b);
console.log(`${all.length} files, ${(bytes / 1e6).toFixed(1)} MB, in ${folder}`);
console.log(`imported: ${imported} (${[...formats].map(([format, count]) => `${format} ${count}`).join(", ")})`);
console.log(`refused: ${all.length - imported}`);
for (const [why, names] of refused) console.log(`  ${names.length} × ${why}  (${names.slice(0, 3).join(", ")}${names.length > 3 ? ", …" : ""})`);
console.log(`turns: ${turns}; the agent's own compactions: ${compactions}, in ${compacted} files; sent tokens in ${sent} files`);
console.log(`broken lines: ${broken}, in ${brokenFiles} files; rewound messages: ${rewound}; subagent turns kept apart: ${subagent}`);
console.log(`import: ${ms(importTime)} in all; median ${ms(percentile(sorted, 0.5))}, p90 ${ms(percentile(sorted, 0.9))}, max ${ms(slowest.time)} (${slowest.file})`);
console.log(`JSON.parse of each line: ${ms(parseTime)} in all; import / JSON.parse = ${(importTime / parseTime).toFixed(2)}`);
if (replayAt) {
  const replaySorted = replays.map(([time]) => time).sort((a, b) => a - b);
  const [worst, worstTurns] = replays.reduce((a, b) => (b[0] > a[0] ? b : a), [0, 0]);
  console.log(`playground at budget ${replayAt}: median ${ms(percentile(replaySorted, 0.5))}, p90 ${ms(percentile(replaySorted, 0.9))}, max ${ms(worst)} (${worstTurns} turns)`);
}
