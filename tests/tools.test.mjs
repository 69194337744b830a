// The build's rewriting of the cores: tools/drop-dead-shims.mjs on small modules made here with
// binaryen, so that each case is exact, and tools/trim-glue.mjs on the full core's glue. Part of
// `make test` (test-size).
//
//   node --test tests/tools.test.mjs

import { test } from "node:test";
import assert from "node:assert/strict";
import binaryen from "binaryen";
import { dropDeadShims } from "../tools/drop-dead-shims.mjs";

// Names as the name section of a real core spells them (legacy mangling, demangled).
const SHIM = "wasm_bindgen::convert::closures::_::invoke::h0123456789abcdef";
const WAKER = "js_sys::futures::jspi::task_waker::raw_wake::h0123456789abcdef";
const LIVE = "agent_memory_widgets::compaction::Session::add_turn::h0123456789abcdef";
const OTHER = "agent_memory_widgets::compaction::Session::reset::h0123456789abcdef";
/** What a core built by rustc and wasm-bindgen uses: an externref table beside the function table. */
const FEATURES = binaryen.Features.MVP | binaryen.Features.ReferenceTypes | binaryen.Features.BulkMemory | binaryen.Features.MutableGlobals;
/**
 * The same as the `target_features` section that rustc writes and wasm-bindgen passes on, which
 * is where the tool (binaryen) learns them: a count, then `+` and each name.
 */
const TARGET_FEATURES = Uint8Array.from([3, ...["reference-types", "bulk-memory", "mutable-globals"]
  .flatMap((name) => [0x2b, name.length, ...Buffer.from(name)])]);

/**
 * A module with a function table of 6 slots and an exported externref table, as every core has.
 * Each function sets the global `g` to its own number (LIVE 7, SHIM 8, WAKER 9, OTHER 6), and
 * `run(i)` calls slot `i` and returns `g`, so a caller sees which function a slot holds.
 * `segments` lists `[offset, names]`, in order; `more(made)` adds to the module before them.
 */
function module({ segments = [[1, [LIVE, SHIM, WAKER, LIVE]]], more = () => {} } = {}) {
  const made = new binaryen.Module();
  made.setFeatures(FEATURES);
  made.addGlobal("g", binaryen.i32, true, made.i32.const(0));
  for (const [name, value] of [[LIVE, 7], [SHIM, 8], [WAKER, 9], [OTHER, 6]]) {
    made.addFunction(name, binaryen.none, binaryen.none, [], made.global.set("g", made.i32.const(value)));
  }
  made.addTable("functions", 6, 6, binaryen.funcref);
  made.addTable("externrefs", 1, 1, binaryen.externref);
  made.addTableExport("externrefs", "__wbindgen_externrefs");
  more(made);
  segments.forEach(([offset, names], i) => made.addActiveElementSegment("functions", `segment${i}`, names, made.i32.const(offset)));
  made.addFunction("run", binaryen.i32, binaryen.i32, [], made.block(null, [
    made.call_indirect("functions", made.local.get(0, binaryen.i32), [], binaryen.none, binaryen.none),
    made.global.get("g", binaryen.i32),
  ], binaryen.i32));
  made.addFunctionExport("run", "run");
  made.addCustomSection("target_features", TARGET_FEATURES);
  assert.ok(made.validate());
  binaryen.setDebugInfo(true); // the name section: what the tool reads
  const bytes = made.emitBinary();
  made.dispose();
  return bytes;
}

const instance = (bytes) => new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports;

test("the closure shims' and the waker's slots trap, and every other slot holds what it held", () => {
  const before = module();
  assert.deepEqual([1, 2, 3, 4].map((slot) => instance(before).run(slot)), [7, 8, 9, 7]);
  const { bytes, dropped } = dropDeadShims(before);
  assert.equal(dropped, 2);
  const after = instance(bytes);
  assert.equal(after.run(1), 7);
  assert.equal(after.run(4), 7);
  // The stub's own trap (its signature matches the call's): not a missing or mistyped function.
  for (const slot of [2, 3]) assert.throws(() => after.run(slot), /unreachable/);
});

test("once their slots are empty, wasm-opt's dead-code pass drops the shims", () => {
  const { bytes } = dropDeadShims(module());
  const optimised = binaryen.readBinary(bytes);
  optimised.runPasses(["remove-unused-module-elements"]);
  const names = [];
  for (let i = 0; i < optimised.getNumFunctions(); i++) names.push(binaryen.getFunctionInfo(optimised.getFunctionByIndex(i)).name);
  optimised.dispose();
  assert.ok(names.includes(LIVE), names.join(", "));
  assert.ok(!names.includes(SHIM) && !names.includes(WAKER), names.join(", "));
});

test("overlapping segments keep their order: the later one still wins its slots", () => {
  const bytes = module({ segments: [[1, [LIVE, SHIM, LIVE]], [2, [OTHER]]] });
  assert.deepEqual([1, 2, 3].map((slot) => instance(bytes).run(slot)), [7, 6, 7]);
  const after = instance(dropDeadShims(bytes).bytes);
  assert.deepEqual([1, 2, 3].map((slot) => after.run(slot)), [7, 6, 7]);
});

test("v0-demangled names are matched too", () => {
  const shim = "wasm_bindgen[1a2b3c4d5e6f7a8b]::convert::closures::_::invoke::<()>";
  const bytes = module({
    segments: [[1, [LIVE, shim]]],
    more: (made) => made.addFunction(shim, binaryen.none, binaryen.none, [], made.nop()),
  });
  assert.equal(dropDeadShims(bytes).dropped, 1);
});

test("the waker stays while js-sys's task poll is exported: a live task reaches it", () => {
  const bytes = module({ more: (made) => made.addFunctionExport(OTHER, "__wbg_jspi_task_poll") });
  const { bytes: after, dropped } = dropDeadShims(bytes);
  assert.equal(dropped, 1);
  assert.equal(instance(after).run(3), 9);
});

test("what the tool cannot see through is refused, not guessed", () => {
  const refused = (options, why) => assert.throws(() => dropDeadShims(module(options)), why);
  refused({ more: (made) => made.addTableExport("functions", "table") }, /exported as "table", so JS may call any of its slots/);
  refused({ more: (made) => made.addPassiveElementSegment("later", [LIVE]) }, /passive/);
  refused({
    segments: [],
    more: (made) => {
      made.addGlobalImport("base", "env", "base", binaryen.i32, false);
      made.addActiveElementSegment("functions", "moved", [SHIM], made.global.get("base", binaryen.i32));
    },
  }, /no constant i32 offset/);
  // Without the name section nothing could be matched: that is not "nothing to drop".
  const made = new binaryen.Module();
  made.addFunction("a::b", binaryen.none, binaryen.none, [], made.nop());
  made.addFunctionExport("a::b", "f");
  binaryen.setDebugInfo(false);
  const nameless = made.emitBinary();
  made.dispose();
  assert.throws(() => dropDeadShims(nameless), /no function names/);
});

test("a module without such slots comes back byte for byte", () => {
  const bytes = module({ segments: [[1, [LIVE, OTHER]]] });
  const { bytes: after, dropped } = dropDeadShims(bytes);
  assert.equal(dropped, 0);
  assert.deepEqual(after, bytes);
});

// ---- tools/trim-glue.mjs, on the full core's glue (which the build leaves untrimmed) ----------

test("trimmed glue still starts a core and plays it, and has no initSync to call", async () => {
  const { readFileSync, writeFileSync, mkdtempSync, copyFileSync } = await import("node:fs");
  const { join } = await import("node:path");
  const { tmpdir } = await import("node:os");
  const { pathToFileURL } = await import("node:url");
  const { trimGlue, trimDeclarations } = await import("../tools/trim-glue.mjs");
  const pkg = new URL("../www/pkg/", import.meta.url);
  const glue = readFileSync(new URL("agent_memory_widgets.js", pkg), "utf8");
  assert.match(glue, /function initSync\(/, "the full core keeps initSync");
  const trimmed = trimGlue(glue);
  assert.equal(trimGlue(trimmed), trimmed, "trimming twice changes nothing");
  assert.doesNotMatch(trimmed, /initSync|deprecated parameters|'encodeInto' in/);
  assert.ok(trimmed.length < glue.length - 800, "about 1 KB of source goes");
  const types = trimDeclarations(readFileSync(new URL("agent_memory_widgets.d.ts", pkg), "utf8"));
  assert.doesNotMatch(types, /initSync|SyncInitInput/);
  assert.match(types, /export default function __wbg_init/);

  const dir = mkdtempSync(join(tmpdir(), "trim-glue-"));
  writeFileSync(join(dir, "glue.js"), trimmed);
  copyFileSync(new URL("agent_memory_widgets_bg.wasm", pkg), join(dir, "agent_memory_widgets_bg.wasm"));
  const core = await import(pathToFileURL(join(dir, "glue.js")).href);
  assert.equal(core.initSync, undefined);
  await core.default({ module_or_path: readFileSync(join(dir, "agent_memory_widgets_bg.wasm")) });
  const session = new core.Session();
  session.goTo(10);
  assert.deepEqual(session.state().crossings, [4, 6, 8, 9, 10]);
  session.free();

  assert.throws(() => trimGlue(glue.replace("function initSync(module) {", "function initSync(m) {")), /cannot find exactly one initSync/);
});
