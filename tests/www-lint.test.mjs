// The page renders, the core decides (ARCHITECTURE.md, "The page holds no policy rule"): no
// file of www/ compares a token count with a budget, or sorts or filters the rows of a core's
// state. A verdict written in JS is a second copy of a rule the core already holds, and the two
// part the day one of them changes. Each check reads the code alone: comments and the text of
// strings are blanked first, so that a sentence about the budget is not code about it.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";

const WWW = new URL("../www/", import.meta.url);
// www/opening.js is written by the build from the core's own state (tools/opening.mjs).
const FILES = readdirSync(WWW).filter((name) => name.endsWith(".js") && name !== "opening.js").sort();

/**
 * Where sorting or filtering is allowed, by file and a piece of the line: each is rendering, not
 * a verdict, and says why. `.filter(Boolean)`, which drops the absent parts of a list the page
 * itself built, is allowed everywhere. An entry that matches nothing fails, so the list only
 * shrinks as the code does.
 */
const RENDERING = [
  ["forgetting.js", "sort((a, b) => a.x - b.x)", "the chart's end labels, placed left to right by their pixel x"],
  ["forgetting.js", "column.sort((a, b) => a.y - b.y)", "the chart's end labels in one column, spread top to bottom by their pixel y"],
  ["forgetting-playground.js", "row.series.filter((p) => p.at <= t)", "a sparkline's points split at the slider's time: the past drawn solid"],
  ["forgetting-playground.js", "row.series.filter((p) => p.at >= (past.at(-1)?.at ?? 0))", "the same split: the future drawn faded"],
  ["import-worker.js", "window.log.filter((step) => step.compacted || step.crossed || over.has(step.turn))", "what the worker sends: the steps the page draws a figure from, so that a long log does not cross to the page whole"],
  ["large.js", "all.filter((e, i) => i < 2 || e.made.model === shown)", "which prepared models a worker keeps: memory, not a verdict"],
  ["large.js", "tokens.filter((t) => t !== null).length", "how many turns of a real log carry a count, said in a chart's label"],
  ["links.js", "observedAttributes.filter(", "an element's own attributes, not a core's rows"],
  ["loader.js", "filter((name) => document.querySelector(name))", "the page's element names, not a core's rows"],
  ["dom.js", "children.flat().filter(", "h(): drops the absent children of an element being built"],
];

/**
 * Verdicts still made in JS from a core's numbers or rows: each is to move into the core, and
 * this list only shrinks (an entry that matches nothing fails). Nothing new may join it.
 */
const STILL_IN_JS = [
  ["forgetting.js", "reads: state.reads.filter((read) => !read.scheduled)", "the reader's reads, kept across a knob"],
  ["forgetting.js", "].sort(([a], [b]) => a - b)", "the reader's timeline in time order, replayed under new settings"],
  ["guide.js", "state.hot.filter((turn) => turn.text.includes(term))", "where a term lives: HOT"],
  ["guide.js", "state.warm.filter((line) => line.text.includes(term))", "where a term lives: WARM"],
  ["forgetting.js", "state.events.filter((event) => event.firedAt !== null && event.firedAt > state.t)", "how many events are scheduled after the slider's time"],
  ["forgetting.js", "state.reads.filter((read) => read.missed).length", "how many reads missed"],
  ["forgetting.js", "state.reads.filter((read) => read.scheduled)", "the scenario's own reads, listed under the slider"],
  ["forgetting.js", "state.events.filter((event) => event.firedAt !== null)", "the fired events' marks under the slider"],
  ["guide.js", "state.facts.filter((f) => f.kind === \"semantic\" && f.status === \"active\")", "how many lasting facts consolidation wrote"],
  ["large.js", "log.compactions.filter((c) => c.turn <= turn)", "a real log's own compactions up to the turn"],
  ["large.js", "state.facts.filter((_, i) => row.kept[i] === \"gone\")", "the facts a policy lost, at real size"],
  ["large.js", "row.kept.filter((k) => k === named).length", "how many facts a policy names each way, at real size"],
  ["own.js", "turns.filter((turn) => turn.kind === kind).length", "an imported conversation's turns counted by kind"],
  ["own.js", ".filter(([n]) => n > 0)", "the kinds with no turn left out of that count"],
  ["triggers.js", "infos.filter((info) => info.trigger === null)", "the policies with no token trigger"],
  ["triggers.js", ".filter((share) => share !== null))].sort((a, b) => b - a)", "the policies' own triggers, highest first"],
  ["triggers.js", "infos.filter((info) => info.trigger === share)", "the policies at one trigger"],
  ["triggers.js", "ours.window.log.filter((step) => step.compacted)", "what our policy's compactions left"],
];

/**
 * `source` with comments blanked and the text of every string literal blanked (a template's
 * `${…}` stays code), lines and columns kept.
 */
export function codeOf(source) {
  const out = [...source];
  const blank = (from, to) => { for (let k = from; k < to; k++) if (out[k] !== "\n") out[k] = " "; };
  let i = 0;
  let last = ""; // the last character of code that is not a space: is a `/` a regex or a division?
  const stack = []; // brace depths of the template expressions we are in
  let depth = 0;
  while (i < source.length) {
    const c = source[i];
    const next = source[i + 1];
    if (c === "/" && next === "/") { const end = source.indexOf("\n", i); const to = end < 0 ? source.length : end; blank(i, to); i = to; continue; }
    if (c === "/" && next === "*") { const to = source.indexOf("*/", i + 2) + 2; blank(i, to); i = to; continue; }
    if (c === "\"" || c === "'") {
      let j = i + 1;
      while (source[j] !== c) j += source[j] === "\\" ? 2 : 1;
      blank(i + 1, j);
      i = j + 1; last = c; continue;
    }
    if (c === "`" || (c === "}" && stack.length && stack.at(-1) === depth)) {
      if (c === "}") stack.pop();
      let j = i + 1;
      while (source[j] !== "`" && !(source[j] === "$" && source[j + 1] === "{")) j += source[j] === "\\" ? 2 : 1;
      blank(i + 1, j);
      if (source[j] === "`") { i = j + 1; last = "`"; continue; }
      stack.push(depth); // a `${`: code until its own `}`
      i = j + 2; last = "{"; continue;
    }
    if (c === "/" && (last === "" || "(,=:[!&|?{};+-*%<>~^".includes(last))) {
      let j = i + 1;
      let klass = false;
      while (source[j] !== "/" || klass) { if (source[j] === "[") klass = true; if (source[j] === "]") klass = false; j += source[j] === "\\" ? 2 : 1; }
      blank(i + 1, j);
      i = j + 1; last = "/"; continue;
    }
    if (c === "{") depth++;
    if (c === "}") depth--;
    if (!/\s/.test(c)) last = c;
    i++;
  }
  return out.join("");
}

const OPERAND = String.raw`(?:[\w$]+\??\.)*[\w$]+`;
const OPERATOR = String.raw`(?:<=|>=|(?<!=)<|(?<!=)>|===|!==|==|!=|[-+*/%](?![-+=]))`;
/**
 * A budget (`budget`, `state.budget`, `w.budget`) with an operator and another operand beside it,
 * either way round: `[match, other operand]`. A budget beside another budget, `null` or
 * `undefined` is a setting compared, not a count.
 */
const BUDGET_SUMS = [
  [new RegExp(String.raw`\b(${OPERAND})\s*${OPERATOR}\s*(?=(${OPERAND}))`, "g"), (m) => [[m[1], m[2]], [m[2], m[1]]]],
];
const budgetSum = (line) => {
  if (/Math\.(?:min|max)\([^)]*\bbudget\b/.test(line)) return true;
  for (const [rule, sides] of BUDGET_SUMS) {
    for (const match of line.matchAll(rule)) {
      for (const [one, other] of sides(match)) {
        if (/(?:^|\.)budget$/.test(one) && !/(?:^|\.)budget$|^(?:null|undefined)$/.test(other)) return true;
      }
    }
  }
  return false;
};

/** What `source` (the file `name`) does against the rules: `[line, what]` pairs. */
export function problems(name, source) {
  const found = [];
  const code = codeOf(source).split("\n");
  const lines = source.split("\n");
  code.forEach((line, i) => {
    const say = (what) => found.push([i + 1, `${name}:${i + 1}: ${what}: ${lines[i].trim()}`]);
    const listed = [...RENDERING, ...STILL_IN_JS].some(([file, piece]) => file === name && lines[i].includes(piece));
    if (budgetSum(line) && !listed) say("compares or sums a budget (the core gives the verdict)");
    for (const match of line.matchAll(/\.(sort|toSorted|filter)\(/g)) {
      if (match[1] === "filter" && line.startsWith("filter(Boolean)", match.index + 1)) continue;
      if (!listed) say(`${match[1]}s rows in the page (the core gives them in order, and the lists it picks)`);
    }
  });
  return found;
}

test("no file of www/ compares a token count with a budget, or sorts or filters a core's rows", () => {
  const found = FILES.flatMap((name) => problems(name, readFileSync(new URL(name, WWW), "utf8")).map(([, what]) => what));
  assert.deepEqual(found, [], `the page decides what the core should:\n${found.join("\n")}`);
});

test("every allowed sort and filter is still in the page (the lists only shrink)", () => {
  for (const [file, piece] of [...RENDERING, ...STILL_IN_JS]) {
    assert.ok(readFileSync(new URL(file, WWW), "utf8").includes(piece), `www/${file} no longer holds ${piece}: take it off the list`);
  }
});

test("the check finds what it is for, and passes what it allows", () => {
  const flagged = (line) => problems("x.js", line).length > 0;
  for (const bad of [
    "const over = tokens > budget;",
    "const room = state.budget - step.tokensAfter;",
    "if (step.tokensAfter >= w.budget) return;",
    "ui.meter.value = Math.min(tokens, budget);",
    "const t = Math.floor(state.budget * compactAt / 100);",
    "const at = `${tokens === budget ? \"at\" : \"under\"}`;",
    "const within = state.policies.filter((row) => !row.window.overBudget);",
    "rows.sort((a, b) => a.score - b.score);",
    "const next = budget-tokens;",
    "const over = a + b > budget;",
  ]) assert.ok(flagged(bad), `not flagged: ${bad}`);
  for (const fine of [
    "const s = `over the budget of ${budget} tokens`; // budget > tokens in a comment",
    "svg(\"line\", { y1: y(budget), y2: y(budget) });",
    "const parts = [a && \"x\", b && \"y\"].filter(Boolean);",
    "const re = /budget - tokens/;",
    "const f = (budget) => budget;",
    "if (budget === state.budget && config.budget === undefined) return;",
  ]) assert.ok(!flagged(fine), `flagged: ${fine}`);
});
