// A fuzz of the release package (www/pkg, as a page loads it), in Node: random operation
// sequences over Session, FactStore, Playground and ForgettingPlayground with hostile arguments
// and configs, on the full core; and a differential fuzz of every other core of www/cores.js
// against it: the same sequences, of the calls that core exports, give the same results and the
// same errors, value for value.
//
// Every call is classified: it returned, it threw a clean Error (an Error with a readable
// message), or it failed. A failure is a trap (WebAssembly.RuntimeError), a throw of anything
// but an Error, an empty message, a non-finite number or `undefined` anywhere in a state, or a
// broken invariant (the score formula, ranking by score, capacity, the token recount). A failing
// sequence is shrunk, in fresh instances, to a short reproduction printed as JavaScript.
//
//   node --test tests/fuzz.test.mjs                        a few thousand sequences (make test: seed 1)
//   FUZZ_ITER=100000 make fuzz                             a long run
//   FUZZ_SEED=1234 node --test tests/fuzz.test.mjs         replay one seed

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";
import { CONFIG_METHODS, CORES } from "../www/cores.js";

const PKG = resolve(import.meta.dirname, "../www/pkg");
/** The full core: every class, `withConfig` and `importConversation`. */
const FULL = "agent_memory_widgets";
const ITERATIONS = Number(process.env.FUZZ_ITER ?? 3000);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

let instances = 0;
/** A fresh instance of `core`: its own glue module (a new URL) over its own wasm memory. */
async function instantiate(core = FULL) {
  const glue = await import(`${pathToFileURL(`${PKG}/${core}.js`)}?instance=${instances++}`);
  const exports = await glue.default({ module_or_path: readFileSync(`${PKG}/${core}_bg.wasm`) });
  return { ...glue, memory: () => exports.memory.buffer.byteLength };
}

// ---- Random values ---------------------------------------------------------------------------

/** A small seeded generator (mulberry32): the same seed gives the same sequences. */
function random(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const int = (n) => Math.floor(next() * n);
  const pick = (list) => list[int(list.length)];
  return { next, int, pick, chance: (p) => next() < p };
}

// Values are described as data (so a reproduction can be printed and replayed) and built fresh
// for each call. Each description is [kind, ...parts].
const NUMBERS = [NaN, Infinity, -Infinity, 1e308, -1, 0, -0, 0.5, 1, 2, 3, 6, 10, 12, 40, 2 ** 53 + 1,
  2 ** 32, 2 ** 31, 1e-300, 1e6, 1e6 + 1, 4.5, 100, 1e9];

function wildNumber(r) {
  if (r.chance(0.5)) return ["number", r.int(14) - 1];
  return ["number", r.pick(NUMBERS)];
}

function wildValue(r, depth = 0) {
  switch (r.int(depth > 1 ? 8 : 12)) {
    case 0: case 1: case 2: return wildNumber(r);
    case 3: return ["string", r.pick(["", " ", "Dana", "chatter", "decision", "tool", "question", "semantic", "<b>x</b>", "\u0000", "é\u2003ü"])];
    case 4: return ["undefined"];
    case 5: return ["null"];
    case 6: return ["bool", r.chance(0.5)];
    case 7: return ["special", r.pick(["symbol", "bigint", "function", "longString", "hugeString"])];
    case 8: return ["proxy", r.pick(["throwKeys", "throwGet", "revoked"])];
    // (V8 takes a long time to make a real array of length 1e6 or 1e7, so those are left out;
    // above that it switches to a sparse representation and is fast again.)
    case 9: return ["hugeArray", r.pick([1e3 + 1, 1e4 + 1, 1e8, 2 ** 32 - 1])];
    case 10: return ["array", Array.from({ length: r.int(4) }, () => wildValue(r, depth + 1))];
    default: return ["object", Object.fromEntries(Array.from({ length: r.int(4) }, () =>
      [r.pick(["budget", "hotN", "script", "text", "kind", "speaker", "summary", "halfLife", "x"]), wildValue(r, depth + 1)]))];
  }
}

function turnSpec(r) {
  const kind = r.pick(["chatter", "decision", "tool", "question"]);
  const words = Array.from({ length: 1 + r.int(14) }, () => r.pick(["Dana", "ORD-3300", "$180.00", "refund", "the", "a", "Globex", "é", "ok"]));
  const spec = { speaker: r.pick(["Dana", "agent", "tool"]), kind, text: words.join(r.pick([" ", "  ", "\n", "\u2003"])) };
  if (kind !== "chatter" || r.chance(0.2)) spec.summary = words.slice(0, 3).join(" ");
  if (r.chance(0.05)) spec[r.pick(["text", "kind", "speaker", "summary"])] = wildValue(r, 2);
  return ["object", Object.fromEntries(Object.entries(spec).map(([k, v]) => [k, Array.isArray(v) ? v : [typeof v === "string" ? "string" : "number", v]]))];
}

function sessionConfig(r) {
  if (r.chance(0.15)) return wildValue(r);
  const config = {};
  if (r.chance(0.7)) config.budget = r.chance(0.8) ? ["number", 1 + r.int(60)] : wildNumber(r);
  if (r.chance(0.7)) config.hotN = r.chance(0.8) ? ["number", 1 + r.int(4)] : wildNumber(r);
  if (r.chance(0.6)) config.script = r.chance(0.9) ? ["array", Array.from({ length: r.int(30) }, () => turnSpec(r))] : wildValue(r);
  return ["object", config];
}

function comparisonConfig(r) {
  if (r.chance(0.15)) return wildValue(r);
  const config = {};
  if (r.chance(0.5)) config.halfLife = r.chance(0.7) ? ["number", 0.5 + r.int(16)] : wildNumber(r);
  if (r.chance(0.5)) config.capacity = r.chance(0.7) ? ["number", 1 + r.int(12)] : wildNumber(r);
  if (r.chance(0.5)) config.stream = r.chance(0.7) ? ["string", r.pick(["tickets", "refund-desk"])] : wildValue(r);
  return ["object", config];
}

function storeConfig(r) {
  if (r.chance(0.15)) return wildValue(r);
  const config = {};
  if (r.chance(0.5)) config.halfLife = r.chance(0.7) ? ["number", 0.5 + r.int(16)] : wildNumber(r);
  if (r.chance(0.5)) config.capacity = r.chance(0.7) ? ["number", 1 + r.int(6)] : wildNumber(r);
  if (r.chance(0.4)) config.accessBoost = r.chance(0.7) ? ["number", r.int(4) / 2] : wildNumber(r);
  if (r.chance(0.3)) config.semanticHalfLife = r.chance(0.7) ? ["number", 1 + r.int(40)] : wildNumber(r);
  if (r.chance(0.3)) config.proceduralHalfLife = r.chance(0.7) ? ["number", 1 + r.int(40)] : wildNumber(r);
  if (r.chance(0.4)) {
    const n = 1 + r.int(6);
    const fact = () => ["object", { text: ["string", `fact ${r.int(5)}`], importance: ["number", r.pick([0.1, 0.4, 0.5, 0.9, 1])] }];
    const scenario = {
      facts: ["array", Array.from({ length: n }, fact)],
      reads: ["array", Array.from({ length: r.int(4) }, () => ["object", { fact: ["number", 1 + r.int(n + 2)], at: ["number", r.int(12)] }])],
      events: ["array", Array.from({ length: r.int(3) }, () => ["object", { text: ["string", `event ${r.int(5)}`], importance: ["number", 0.7], supersedes: r.chance(0.5) ? ["number", 1 + r.int(n + 2)] : ["null"] }])],
      consolidation: ["array", Array.from({ length: r.int(3) }, () => ["object", { kind: ["string", r.pick(["semantic", "procedural"])], text: ["string", `rule ${r.int(5)}`], importance: ["number", 0.8], sources: ["array", [["number", 1 + r.int(n)]]] }])],
    };
    if (r.chance(0.1)) scenario[r.pick(Object.keys(scenario))] = wildValue(r);
    config.scenario = ["object", scenario];
  }
  return ["object", config];
}

/** Builds the JS value a description stands for. */
function build(value) {
  const [kind, data] = value;
  switch (kind) {
    case "number": case "string": case "bool": return data;
    case "undefined": return undefined;
    case "null": return null;
    case "array": return data.map(build);
    case "object": return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, build(v)]));
    case "hugeArray": return Object.assign([], { length: data });
    case "special": return {
      symbol: Symbol("s"), bigint: 10n, function: () => 1,
      longString: "word ".repeat(2500), hugeString: "x".repeat(1 << 20),
    }[data];
    case "proxy": {
      if (data === "revoked") { const { proxy, revoke } = Proxy.revocable({}, {}); revoke(); return proxy; }
      if (data === "throwKeys") return new Proxy({}, { ownKeys() { throw new Error("ownKeys trap"); } });
      return new Proxy({ budget: 1, halfLife: 1, script: [] }, { get() { throw new Error("get trap"); } });
    }
    default: throw new Error(`unknown value ${kind}`);
  }
}

/** The JavaScript a description stands for, for a printed reproduction. */
function show(value) {
  const [kind, data] = value;
  switch (kind) {
    case "number": return Object.is(data, -0) ? "-0" : String(data);
    case "string": return JSON.stringify(data);
    case "bool": return String(data);
    case "undefined": case "null": return kind;
    case "array": return `[${data.map(show).join(", ")}]`;
    case "object": return `{ ${Object.entries(data).map(([k, v]) => `${k}: ${show(v)}`).join(", ")} }`;
    case "hugeArray": return `Object.assign([], { length: ${data} })`;
    case "special": return { symbol: 'Symbol("s")', bigint: "10n", function: "() => 1", longString: '"word ".repeat(2500)', hugeString: '"x".repeat(1 << 20)' }[data];
    case "proxy": return `/* ${data} Proxy */ ${data}`;
    default: return "?";
  }
}

// ---- Operations ------------------------------------------------------------------------------

const CLASSES = ["Session", "FactStore", "Playground", "ForgettingPlayground"];
const METHODS = {
  Session: [["addTurn"], ["reset"], ["goTo", 1], ["state"], ["state"], ["script"]],
  FactStore: [["setTime", 1], ["time"], ["events"], ["fire", 1], ["unfire", 1], ["read", 1], ["chart", 2], ["consolidate"], ["unconsolidate"], ["reset"], ["state"], ["state"]],
  Playground: [["goTo", 1], ["turn"], ["state"]],
  ForgettingPlayground: [["setTime", 1], ["time"], ["state"]],
};

/** One random operation on one of three object slots. */
function operation(r) {
  const cls = r.pick(CLASSES);
  const slot = r.int(3);
  const roll = r.int(20);
  if (roll === 0) return { slot, cls, call: "new" };
  if (roll <= 2) {
    const config = { FactStore: storeConfig, ForgettingPlayground: comparisonConfig }[cls] ?? sessionConfig;
    return { slot, cls, call: "withConfig", args: [config(r)] };
  }
  if (roll === 3) return { slot, cls, call: "free" };
  if (roll === 4 && cls !== "FactStore" && cls !== "ForgettingPlayground") {
    return { slot, cls, call: "import", args: [r.chance(0.8) ? ["string", conversation(r)] : wildValue(r)] };
  }
  if (roll === 5 && cls === "Playground") {
    const window = () => (r.chance(0.7) ? ["number", r.pick([128000, 200000, 1000000, 999, 0, 1e9, 2.5e5 + 0.5])] : wildValue(r));
    return { slot, cls, call: "triggers", args: r.chance(0.3) ? [] : [window(), window()] };
  }
  const [call, arity = 0] = r.pick(METHODS[cls]);
  const args = Array.from({ length: arity }, () => {
    if (r.chance(0.7)) return ["number", call === "chart" ? r.pick([12, 0.25, 1, 6, 0]) : r.int(13) / (r.chance(0.3) ? 2 : 1)];
    return wildValue(r);
  });
  return { slot, cls, call, args };
}

/** A pasted conversation: `Speaker: text` lines, or chat messages as JSON, often malformed. */
function conversation(r) {
  const text = () => r.pick(["Hi!", "thanks", "Where is ORD-7?", "Refund $12.50 approved.", "", "  ", "日本 naïve…", "a: b: c", "<img src=x>", "word ".repeat(1 + r.int(30))]);
  const n = r.int(8);
  if (r.chance(0.5)) {
    return Array.from({ length: n }, () => `${r.pick(["Dana", "tool", "agent", "a b c d", "", "x".repeat(41)])}: ${text()}`)
      .join(r.pick(["\n", "\r\n", "\n\n"])) + (r.chance(0.2) ? "\ncontinued line" : "");
  }
  const content = () => r.pick([text(), null, 7, [{ type: "text", text: text() }, { type: "image_url" }], { text: "x" },
    [{ type: "tool_use", id: "t1", name: r.pick(["lookup", 5]), input: { id: text() } }],
    [{ type: "tool_result", tool_use_id: "t1", content: r.pick([text(), [{ type: "text", text: text() }], 3]) }]]);
  const message = () => ({ role: r.pick(["user", "assistant", "tool", "system", "bot", 3]), content: content(), tool_call_id: "1",
    ...(r.chance(0.2) ? { tool_calls: [{ function: { name: "refund", arguments: text() } }] } : {}),
    ...(r.chance(0.2) ? { usage: { output_tokens: r.pick([3, -1, 1.5, "7"]) } } : {}) });
  // A session log, one event a line: Claude Code's or Codex's shape.
  const event = () => r.pick([
    () => ({ type: r.pick(["user", "assistant", "summary"]), message: message() }),
    () => ({ type: "response_item", payload: r.pick([{ type: "message", ...message() }, { type: "function_call", name: "shell", arguments: text() }, { type: "function_call_output", output: text() }, { type: "reasoning" }]) }),
    () => ({ type: "event_msg", payload: { type: "token_count", info: { last_token_usage: { output_tokens: r.pick([5, -2, "x"]) } } } }),
  ])();
  const json = r.chance(0.3)
    ? Array.from({ length: n + 1 }, () => JSON.stringify(event())).join("\n")
    : JSON.stringify(Array.from({ length: n }, message));
  return r.chance(0.1) ? json.slice(0, r.int(json.length)) : json;
}

function describe(op) {
  if (op.call === "import") return `${op.cls.toLowerCase()}${op.slot} = ${op.cls}.withConfig({ script: importConversation(${show(op.args[0])}).turns });`;
  if (op.call === "triggers") return `frameworkTriggers(${op.args.map(show).join(", ")});`;
  const target = `${op.cls.toLowerCase()}${op.slot}`;
  if (op.call === "new") return `${target} = new ${op.cls}();`;
  if (op.call === "withConfig") return `${target} = ${op.cls}.${op.call}(${op.args.map(show).join(", ")});`;
  if (op.call === "time" || op.call === "turn") return `${target}.${op.call};`;
  return `${target}.${op.call}(${(op.args ?? []).map(show).join(", ")});`;
}

// ---- Checks ----------------------------------------------------------------------------------

const WHITESPACE = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/u;
const words = (text) => text.split(WHITESPACE).filter(Boolean).length;

/** Every number finite and nothing `undefined`, anywhere in `value`. */
function checkValues(value, path) {
  if (value === undefined) throw new Failure(`${path} is undefined`);
  if (typeof value === "number" && !Number.isFinite(value)) throw new Failure(`${path} is ${value}`);
  if (Array.isArray(value)) value.forEach((item, i) => checkValues(item, `${path}[${i}]`));
  else if (value && typeof value === "object") for (const [key, item] of Object.entries(value)) checkValues(item, `${path}.${key}`);
}

function checkSession(state, path) {
  const texts = [...(state.cold ? [state.cold.text] : []), ...state.warm.map((l) => l.text), ...state.hot.map((t) => t.text)];
  const recount = texts.reduce((sum, text) => sum + words(text), 0);
  if (recount !== state.tokens) throw new Failure(`${path}.tokens is ${state.tokens}, the window's words recount to ${recount}`);
  if (!state.overBudget && state.tokens > state.budget) throw new Failure(`${path}: ${state.tokens} tokens over a budget of ${state.budget}, yet overBudget is false`);
  if (state.overBudget !== (typeof state.overBudgetReason === "string")) throw new Failure(`${path}: overBudget and overBudgetReason disagree`);
}

const close = (a, b) => Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b)) || Math.abs(a - b) < 1e-300;

function checkStore(state) {
  let active = 0;
  let previous = Infinity;
  for (const [i, fact] of state.facts.entries()) {
    const at = `state.facts[${i}] (fact ${fact.id})`;
    const recency = 0.5 ** (fact.age / fact.halfLife);
    const access = 1 + state.accessBoost * fact.reads;
    if (!close(fact.recency, recency)) throw new Failure(`${at}.recency is ${fact.recency}, the formula gives ${recency}`);
    if (!close(fact.access, access)) throw new Failure(`${at}.access is ${fact.access}, the formula gives ${access}`);
    if (!close(fact.score, fact.importance * recency * access)) throw new Failure(`${at}.score is ${fact.score}, the formula gives ${fact.importance * recency * access}`);
    if (fact.status === "active") {
      if (i !== active) throw new Failure(`${at} is active but listed after a retired fact`);
      if (fact.score > previous * (1 + 1e-12)) throw new Failure(`${at} scores ${fact.score}, above the fact ranked before it (${previous})`);
      previous = fact.score;
      active++;
    }
  }
  if (active !== state.activeCount) throw new Failure(`activeCount is ${state.activeCount}, ${active} facts are active`);
  if (active > state.capacity) throw new Failure(`${active} active facts over a capacity of ${state.capacity}`);
}

function checkResult(op, result) {
  if (op.call !== "state") {
    if (result !== undefined) checkValues(result, `${op.call}()`);
    return;
  }
  checkValues(result, "state");
  if (op.cls === "Session") checkSession(result, "state");
  if (op.cls === "FactStore") checkStore(result);
  if (op.cls === "Playground") result.policies.forEach((row, i) => checkSession(row.window, `state.policies[${i}].window`));
  if (op.cls === "ForgettingPlayground") checkComparison(result);
}

/** Every policy within capacity, no more hits than reads, rates between 0 and 1. */
function checkComparison(state) {
  for (const [i, row] of state.policies.entries()) {
    const at = `state.policies[${i}] (${row.info.id})`;
    if (row.held.length > state.capacity) throw new Failure(`${at} holds ${row.held.length} facts over a capacity of ${state.capacity}`);
    if (row.hits > state.reads) throw new Failure(`${at} has ${row.hits} hits in ${state.reads} reads`);
    if (row.series.some((p) => p.rate < 0 || p.rate > 1)) throw new Failure(`${at} has a hit rate outside 0 to 1`);
  }
}

class Failure extends Error {}

/**
 * Whether `lib` exports what `op` calls: its class, and `withConfig`, the methods of
 * CONFIG_METHODS, `importConversation` and `frameworkTriggers` in the cores that have them
 * (www/cores.js).
 */
const exports = (lib, op) => typeof lib[op.cls] === "function"
  && ((op.call !== "withConfig" && !CONFIG_METHODS[op.cls]?.includes(op.call)) || typeof lib[op.cls].withConfig === "function")
  && (op.call !== "import" || typeof lib.importConversation === "function")
  && (op.call !== "triggers" || typeof lib.frameworkTriggers === "function");

/**
 * Runs `ops` on `lib`; returns counts, or throws a Failure naming the operation. Each call's
 * outcome (its result as JSON, or its error's message) goes to `outcomes`, if given.
 */
function run(lib, ops, counts = { returned: 0, error: 0 }, outcomes = null) {
  const objects = { Session: [], FactStore: [], Playground: [], ForgettingPlayground: [] };
  for (const [index, op] of ops.entries()) {
    if (!exports(lib, op)) continue;
    const slots = objects[op.cls];
    let result;
    try {
      try {
        if (op.call === "new") { slots[op.slot]?.free(); slots[op.slot] = new lib[op.cls](); outcomes?.push("made"); continue; }
        if (op.call === "withConfig") {
          const made = lib[op.cls][op.call](...op.args.map(build));
          slots[op.slot]?.free();
          slots[op.slot] = made;
          counts.returned++;
          outcomes?.push("made");
          continue;
        }
        if (op.call === "import") {
          const read = lib.importConversation(build(op.args[0]));
          checkValues(read, "importConversation()");
          const { turns } = read;
          for (const turn of turns) {
            if (!["chatter", "decision", "tool", "question"].includes(turn.kind) || !turn.text.trim() || turn.summary !== null) {
              throw new Failure(`importConversation() gave a turn that is not one: ${JSON.stringify(turn)}`);
            }
          }
          const made = lib[op.cls].withConfig({ script: turns });
          slots[op.slot]?.free();
          slots[op.slot] = made;
          counts.returned++;
          outcomes?.push("made");
          continue;
        }
        if (op.call === "triggers") {
          const triggers = lib.frameworkTriggers(...op.args.map(build));
          checkValues(triggers, "frameworkTriggers()");
          counts.returned++;
          outcomes?.push(JSON.stringify(triggers));
          continue;
        }
        const target = slots[op.slot] ?? (slots[op.slot] = new lib[op.cls]());
        if (op.call === "free") { target.free(); counts.returned++; outcomes?.push("freed"); continue; }
        result = op.call === "time" || op.call === "turn" ? target[op.call] : target[op.call](...(op.args ?? []).map(build));
      } catch (thrown) {
        if (thrown instanceof WebAssembly.RuntimeError) throw new Failure(`trapped: ${thrown.message}`);
        if (!(thrown instanceof Error)) throw new Failure(`threw a non-Error: ${String(thrown)}`);
        if (thrown instanceof Failure) throw thrown;
        if (typeof thrown.message !== "string" || thrown.message.trim() === "" || thrown.message.includes("undefined undefined"))
          throw new Failure(`threw an Error with an unreadable message: ${JSON.stringify(thrown.message)}`);
        counts.error++;
        outcomes?.push(`Error: ${thrown.message}`);
        continue;
      }
      counts.returned++;
      outcomes?.push(result === undefined ? "undefined" : JSON.stringify(result));
      checkResult(op, result);
    } catch (failure) {
      if (failure instanceof Failure) { failure.index = index; throw failure; }
      throw failure;
    }
  }
  for (const list of Object.values(objects)) for (const object of list) object?.free();
  return counts;
}

/** Shrinks a failing sequence in fresh instances of `core`: drops operations while it still fails. */
async function shrink(ops, core) {
  const fails = async (candidate) => {
    try { run(await instantiate(core), candidate); return false; } catch (e) { return e instanceof Failure; }
  };
  if (!(await fails(ops))) return null; // depends on what earlier sequences did to the instance
  let current = ops;
  for (let size = Math.ceil(current.length / 2); size >= 1; size = Math.floor(size / 2)) {
    for (let start = 0; start < current.length;) {
      const candidate = [...current.slice(0, start), ...current.slice(start + size)];
      if (candidate.length && (await fails(candidate))) current = candidate;
      else start += size;
    }
  }
  return current;
}

// ---- Tests -----------------------------------------------------------------------------------

test(`${ITERATIONS} random operation sequences (seed ${SEED}) on the full core return or throw clean Errors, with finite states and every invariant kept`, async () => {
  console.log(`fuzz seed ${SEED} (set FUZZ_SEED to replay), ${ITERATIONS} sequences on the full core`);
  const lib = await instantiate(FULL);
  const r = random(SEED);
  const counts = { returned: 0, error: 0 };
  for (let i = 0; i < ITERATIONS; i++) {
    const ops = Array.from({ length: 1 + r.int(24) }, () => operation(r));
    try {
      run(lib, ops, counts);
    } catch (failure) {
      if (!(failure instanceof Failure)) throw failure;
      const small = await shrink(ops, FULL);
      const repro = (small ?? ops).map(describe).join("\n  ");
      const note = small ? "shrunk reproduction, from a fresh instance" : "does not fail alone in a fresh instance; the sequence it failed in";
      assert.fail(`sequence ${i} of seed ${SEED} on the full core: ${failure.message}\n${note}:\n  ${repro}`);
    }
  }
  console.log(`fuzz outcomes: ${counts.returned} calls returned, ${counts.error} threw a clean Error, 0 failed`);
  assert.ok(counts.returned > 0 && counts.error > 0, "the fuzz exercised both outcomes");
});

// Every other core answers as the full core: a feature adds exports, never changes an answer.
for (const core of Object.keys(CORES).filter((name) => name !== FULL)) {
  test(`${ITERATIONS / 4} random sequences (seed ${SEED}) on the ${core} core give the full core's results and errors`, async () => {
    const [lib, full] = [await instantiate(core), await instantiate(FULL)];
    const r = random(SEED + 1);
    let compared = 0;
    for (let i = 0; i < ITERATIONS / 4; i++) {
      // The calls this core exports, run on both cores, each in fresh objects of its own.
      const ops = Array.from({ length: 1 + r.int(24) }, () => operation(r)).filter((op) => exports(lib, op));
      const [mine, theirs] = [[], []];
      run(lib, ops, undefined, mine);
      run(full, ops, undefined, theirs);
      const at = mine.findIndex((outcome, k) => outcome !== theirs[k]);
      if (at >= 0 || mine.length !== theirs.length) {
        assert.fail(`sequence ${i} of seed ${SEED}: the ${core} core answered ${(mine[at] ?? "nothing").slice(0, 300)}\n` +
          `where the full core answered ${(theirs[at] ?? "nothing").slice(0, 300)}:\n  ${ops.slice(0, Math.max(at, 0) + 1).map(describe).join("\n  ")}`);
      }
      compared += mine.length;
    }
    assert.ok(compared > ITERATIONS / 4, `only ${compared} calls compared`);
  });
}

test("every core's classes have the full core's methods, and withConfig and CONFIG_METHODS exactly where Cargo.toml's with-config is", async () => {
  const full = await instantiate(FULL);
  const methods = (cls, without = []) => Object.getOwnPropertyNames(cls.prototype).filter((name) => !without.includes(name)).sort().join(" ");
  for (const [core, features] of Object.entries(CORES)) {
    const lib = await instantiate(core);
    const classes = ["Session", "FactStore", "Playground", "ForgettingPlayground"].filter((name) => name in lib);
    assert.ok(classes.length > 0, core);
    for (const name of classes) {
      const configured = features.includes("with-config");
      assert.equal(methods(lib[name]), methods(full[name], configured ? [] : CONFIG_METHODS[name]), `${core}: ${name}'s methods`);
      assert.equal(typeof lib[name].withConfig === "function", configured, `${core}: ${name}.withConfig`);
    }
    assert.equal(typeof lib.importConversation === "function", features.includes("import"), `${core}: importConversation`);
    const triggers = features.includes("with-config") && features.includes("element-playground");
    assert.equal(typeof lib.frameworkTriggers === "function", triggers, `${core}: frameworkTriggers`);
  }
});

test("100,000 of each kind of failing call leave the instance working", async () => {
  const lib = await instantiate();
  const golden = (() => { const s = new lib.Session(); s.goTo(10); const state = s.state(); s.free(); return JSON.stringify(state); })();
  const freed = { Session: new lib.Session(), FactStore: new lib.FactStore(), Playground: new lib.Playground(), ForgettingPlayground: new lib.ForgettingPlayground() };
  for (const object of Object.values(freed)) object.free();
  const live = new lib.Session();
  live.goTo(3); // a state with turns in its arrays
  const failing = {
    "state() after free()": () => freed.Session.state(),
    "setTime() after free()": () => freed.FactStore.setTime(1),
    "goTo() after free()": () => freed.Playground.goTo(1),
    "a forgetting playground's state() after free()": () => freed.ForgettingPlayground.state(),
    "a stream that does not exist": () => lib.ForgettingPlayground.withConfig({ stream: "everything" }),
    "free() twice": () => { freed.Session.free(); throw new Error("freed twice: nothing to do"); },
    "an ownKeys trap that throws": () => lib.Session.withConfig(new Proxy({}, { ownKeys() { throw new Error("x"); } })),
    "a getter that throws": () => lib.FactStore.withConfig({ get halfLife() { throw new Error("x"); } }),
    "a revoked Proxy": () => { const { proxy, revoke } = Proxy.revocable({}, {}); revoke(); lib.Playground.withConfig(proxy); },
    "a script that claims 1e8 turns": () => lib.Session.withConfig({ script: Object.assign([], { length: 1e8 }) }),
    "a bad budget": () => lib.Session.withConfig({ budget: -1 }),
    "a setter on Object.prototype that throws while a state is built": () => {
      Object.defineProperty(Object.prototype, "turn", { set() { throw new Error("x"); }, configurable: true });
      try { live.state(); } finally { delete Object.prototype.turn; }
    },
    "a setter on Array.prototype that throws while a state is built": () => {
      Object.defineProperty(Array.prototype, "0", { set() { throw new Error("x"); }, configurable: true });
      try { live.state(); } finally { delete Array.prototype[0]; }
    },
    "such a setter, and an Error.prototype.toString that throws": () => {
      const toString = Error.prototype.toString;
      Error.prototype.toString = () => { throw new Error("y"); };
      Object.defineProperty(Object.prototype, "turn", { set() { throw new Error("x"); }, configurable: true });
      try { live.state(); } finally { delete Object.prototype.turn; Error.prototype.toString = toString; }
    },
  };
  /** What the error must say, where the call's own message is known. */
  const says = {
    "a setter on Object.prototype that throws while a state is built": /^the result could not be built: setting one of its fields threw/,
    "a setter on Array.prototype that throws while a state is built": /^the result could not be built: setting one of its fields threw/,
    "such a setter, and an Error.prototype.toString that throws": /^the result could not be built: setting one of its fields threw/,
  };
  for (const [name, call] of Object.entries(failing)) {
    for (let i = 0; i < 100_000; i++) {
      let error = null;
      try { call(); } catch (thrown) { error = thrown; }
      assert.ok(error !== null, `${name} did not throw`);
      assert.ok(error instanceof Error && !(error instanceof WebAssembly.RuntimeError), `${name}: ${error}`);
      assert.ok(error.message.length > 0, `${name}: empty message`);
      if (says[name]) assert.match(error.message, says[name], name);
    }
    const session = new lib.Session();
    session.goTo(10);
    assert.equal(JSON.stringify(session.state()), golden, `after 100,000 × ${name}, a fresh Session still works`);
    session.free();
  }
});

// Every core: a page's own `push`, and memory that levels off, hold for each, not only the full one.
for (const core of Object.keys(CORES)) {
  test(`on the ${core} core, a page that replaces Array.prototype.push still gets every state, the same`, async () => {
    const lib = await instantiate(core);
    const classes = CLASSES.filter((cls) => cls in lib);
    const states = () => classes.map((cls) => { const object = new lib[cls](); const state = JSON.stringify(object.state()); object.free(); return state; });
    const before = states();
    const push = Array.prototype.push;
    Array.prototype.push = () => { throw new Error("a page's own push"); };
    let during;
    try { during = states(); } finally { Array.prototype.push = push; }
    assert.deepEqual(during, before);
  });

  // 10,000 cycles on the full core; the others share its allocator and code, so 2,000 each.
  const cycles = core === FULL ? 10_000 : 2_000;
  test(`on the ${core} core, ${cycles} create/free cycles and rejected configs grow no memory`, async () => {
    const lib = await instantiate(core);
    const classes = CLASSES.filter((cls) => cls in lib);
    const cycle = () => {
      for (const cls of classes) { const object = new lib[cls](); object.state(); object.free(); }
      if (lib.Session?.withConfig) {
        for (const config of [{ budget: 0 }, { script: Object.assign([], { length: 1e8 }) }, { script: [{ speaker: "x", kind: "chatter", text: "y".repeat(20_001) }] }]) {
          assert.throws(() => lib.Session.withConfig(config));
        }
      }
      if (lib.FactStore?.withConfig) {
        assert.throws(() => lib.FactStore.withConfig({ scenario: { facts: Object.assign([], { length: 2 ** 32 - 1 }) } }));
        assert.throws(() => lib.FactStore.withConfig({ halfLife: 1e308 }));
      }
    };
    for (let i = 0; i < 200; i++) cycle(); // let the allocator reach its working size
    const before = lib.memory();
    for (let i = 0; i < cycles; i++) cycle();
    assert.equal(lib.memory(), before, `wasm memory grew from ${before} to ${lib.memory()} bytes`);
  });
}
