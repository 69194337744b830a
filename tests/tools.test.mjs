// The build's rewriting of the cores (the Makefile's `bindgen`): tools/drop-dead-shims.mjs on
// small modules made here with binaryen, so that each case is exact, and every glue tool on real
// wasm-bindgen output (tests/fixtures/glue, its README says how it was made): that it does its
// rewrite and the core still runs, and that it refuses another wasm-bindgen version, a glue of
// another shape, and a run that would change nothing. Part of `make test` (test-size).
//
//   node --test tests/tools.test.mjs

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import binaryen from "binaryen";
import { dropDeadShims } from "../tools/drop-dead-shims.mjs";
import { guardGlue } from "../tools/guard-glue.mjs";
import { minifyNames } from "../tools/minify-names.mjs";
import { WRITTEN_FOR, checkGlueVersion, lockedWasmBindgen } from "../tools/glue-version.mjs";

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

test("a table with no closure shim in it is refused: wasm-bindgen may have renamed them", () => {
  const refused = /none of the \d+ function-table slots holds a closure shim \(wasm_bindgen::convert::closures::_::invoke::…\)/;
  assert.throws(() => dropDeadShims(module({ segments: [[1, [LIVE, OTHER]]] })), refused);
  // The wakers alone do not count: every core has shims.
  assert.throws(() => dropDeadShims(module({ segments: [[1, [LIVE, WAKER]]] })), refused);
  const renamed = "wasm_bindgen::closure::invoke::h0123456789abcdef";
  const bytes = module({
    segments: [[1, [LIVE, renamed]]],
    more: (made) => made.addFunction(renamed, binaryen.none, binaryen.none, [], made.nop()),
  });
  assert.throws(() => dropDeadShims(bytes), refused);
});

test("a module whose function table holds nothing comes back byte for byte", () => {
  const bytes = module({ segments: [] });
  const { bytes: after, dropped } = dropDeadShims(bytes);
  assert.equal(dropped, 0);
  assert.deepEqual(after, bytes);
});

// ---- The glue tools on real wasm-bindgen output ------------------------------------------------

const FIXTURES = new URL("fixtures/glue/", import.meta.url);
const fixture = (name) => readFileSync(new URL(name, FIXTURES));
/** The full core's glue: four classes and a function. */
const FULL_GLUE = fixture("agent_memory_widgets.js").toString();
/** The compaction core's glue and wasm, as wasm-bindgen wrote them: the one that runs here. */
const COMPACTION_GLUE = fixture("compaction.js").toString();
const COMPACTION_WASM = fixture("compaction_bg.wasm");
const TOOLS = new URL("../tools/", import.meta.url);

/** A new directory holding `files` (name to contents). */
function directory(files) {
  const dir = mkdtempSync(join(tmpdir(), "glue-tools-"));
  for (const [name, contents] of Object.entries(files)) writeFileSync(join(dir, name), contents);
  return dir;
}

/** The compaction core in `dir` (compaction.js and compaction_bg.wasm), started. */
async function startCompaction(dir) {
  const core = await import(pathToFileURL(join(dir, "compaction.js")).href);
  await core.default({ module_or_path: readFileSync(join(dir, "compaction_bg.wasm")) });
  return core;
}

/** The seed session's crossings, played by `core`: the core works. */
function crossings(core) {
  const session = new core.Session();
  session.goTo(10);
  const { crossings } = session.state();
  session.free();
  return crossings;
}

/** `node tools/<tool>.mjs <arg>`, with `lock` as its Cargo.lock if given: `{ status, stdout, stderr }`. */
function run(tool, arg, lock) {
  const env = { ...process.env };
  if (lock) env.GLUE_CARGO_LOCK = lock;
  else delete env.GLUE_CARGO_LOCK;
  return spawnSync(process.execPath, [fileURLToPath(new URL(`${tool}.mjs`, TOOLS)), arg], { env, encoding: "utf8" });
}

/** The class members that own the pointer, cut out of `glue`: what is left must not touch it unchecked. */
const withoutOwners = (glue) =>
  glue.replace(/^ {4}(?:static __wrap|__destroy_into_raw|constructor)\([^)]*\) \{\n[\s\S]*?^ {4}\}\n/gm, "");

test("the tools' wasm-bindgen version is the one in Cargo.lock, read from its wasm-bindgen package", () => {
  const lock = readFileSync(new URL("../Cargo.lock", import.meta.url), "utf8");
  assert.equal(lockedWasmBindgen(lock), WRITTEN_FOR);
  assert.equal(checkGlueVersion("test"), WRITTEN_FOR);
  // wasm-bindgen-shared and the like are other packages.
  assert.equal(lockedWasmBindgen('[[package]]\nname = "wasm-bindgen-shared"\nversion = "9.9.9"\n\n[[package]]\nname = "wasm-bindgen"\nversion = "0.2.1"\n'), "0.2.1");
  assert.throws(() => lockedWasmBindgen('[[package]]\nname = "serde"\nversion = "1.0.0"\n'), /expected one wasm-bindgen package with a version in Cargo.lock, found none/);
  const twice = '[[package]]\nname = "wasm-bindgen"\nversion = "0.2.1"\n\n[[package]]\nname = "wasm-bindgen"\nversion = "0.2.2"\n';
  assert.throws(() => lockedWasmBindgen(twice), /found 0.2.1, 0.2.2/);
  const dir = directory({ "Cargo.lock": twice });
  assert.throws(() => checkGlueVersion("guard-glue", join(dir, "Cargo.lock")), /^Error: guard-glue: cannot tell which wasm-bindgen made the glue/);
});

test("on another wasm-bindgen in Cargo.lock each tool exits non-zero, says what it was written for, and writes nothing", () => {
  const lock = readFileSync(new URL("../Cargo.lock", import.meta.url), "utf8");
  const bumped = lock.replace(`name = "wasm-bindgen"\nversion = "${WRITTEN_FOR}"`, 'name = "wasm-bindgen"\nversion = "0.2.999"');
  assert.notEqual(bumped, lock);
  const dir = directory({ "Cargo.lock": bumped, "compaction.js": COMPACTION_GLUE, "compaction_bg.wasm": COMPACTION_WASM });
  for (const [tool, arg] of [["guard-glue", "compaction.js"], ["drop-dead-shims", "compaction_bg.wasm"], ["minify-names", "compaction"]]) {
    const { status, stdout, stderr } = run(tool, join(dir, arg), join(dir, "Cargo.lock"));
    assert.equal(status, 1, `${tool}: ${stdout}${stderr}`);
    assert.equal(
      stderr.trim(),
      `${tool}: written for wasm-bindgen ${WRITTEN_FOR}, but Cargo.lock has 0.2.999; check its rewrites against the new glue ` +
        "and update WRITTEN_FOR in tools/glue-version.mjs (and the fixtures in tests/fixtures/glue)",
    );
  }
  assert.equal(readFileSync(join(dir, "compaction.js"), "utf8"), COMPACTION_GLUE);
  assert.deepEqual(readFileSync(join(dir, "compaction_bg.wasm")), COMPACTION_WASM);
});

test("the Makefile's bindgen steps, run as it runs them on the compaction core, give a core that runs and refuses a freed object", async () => {
  const dir = directory({ "compaction.js": COMPACTION_GLUE, "compaction_bg.wasm": COMPACTION_WASM });
  const base = join(dir, "compaction");
  const steps = [
    run("guard-glue", `${base}.js`),
    run("drop-dead-shims", `${base}_bg.wasm`),
    spawnSync(fileURLToPath(new URL("../node_modules/.bin/wasm-opt", import.meta.url)),
      ["-O1", "--strip-target-features", "--strip-debug", `${base}_bg.wasm`, "-o", `${base}_bg.wasm`], { encoding: "utf8" }),
    run("minify-names", base),
  ];
  for (const step of steps) assert.equal(step.status, 0, step.stdout + step.stderr);
  assert.match(steps[0].stdout, /guard-glue: .*compaction\.js: 5 uses of an object's pointer in 1 classes check it before entering wasm/);
  assert.match(steps[1].stdout, /drop-dead-shims: .*compaction_bg\.wasm: 47 table slots emptied/);
  assert.match(steps[3].stdout, /minify-names: compaction\.js: 22 imports renamed/);
  assert.ok(readFileSync(`${base}_bg.wasm`).length < COMPACTION_WASM.length * 0.7, "wasm-opt dropped the names and the shims' code");

  const core = await startCompaction(dir);
  assert.deepEqual(crossings(core), [4, 6, 8, 9, 10]);
  const session = new core.Session();
  session.free();
  assert.throws(() => session.state(), { constructor: Error, message: "this Session was freed (or is not a Session); create a new one" });
  // A second run of a tool on its own output changes nothing.
  assert.match(run("guard-glue", `${base}.js`).stdout, /guarded already/);
  assert.match(run("minify-names", base).stdout, /renamed already/);
});

// ---- tools/guard-glue.mjs -----------------------------------------------------------------

test("guard-glue: every use of an object's pointer in the full core's glue is checked first, but in the members that own it", () => {
  const { glue, guarded, classes } = guardGlue(FULL_GLUE);
  assert.equal(classes, 4);
  assert.equal(guarded, 22);
  assert.equal(glue.match(/livePointer\(this, "(FactStore|ForgettingPlayground|Playground|Session)"\)/g).length, 22);
  assert.doesNotMatch(withoutOwners(glue), /this\.__wbg_ptr/);
  assert.equal(glue.match(/const ptr = this\.__destroy_into_raw\(\);\n\s*if \(ptr === 0\) return;\n\s*wasm\.__wbg_\w+_free\(ptr, 0\);/g).length, 4);
  // The owners are as wasm-bindgen wrote them, and the ts-self-types comment stays first.
  assert.match(glue, /__destroy_into_raw\(\) \{\n\s*const ptr = this\.__wbg_ptr;\n\s*this\.__wbg_ptr = 0;/);
  assert.ok(glue.startsWith('/* @ts-self-types="./agent_memory_widgets.d.ts" */\n'));
  assert.deepEqual(guardGlue(glue), { glue, guarded: 0, classes: 4, already: true });
});

test("guard-glue: the guarded compaction core throws a plain Error on a freed object, as often as called, and keeps working", async () => {
  const dir = directory({ "compaction.js": guardGlue(COMPACTION_GLUE).glue, "compaction_bg.wasm": COMPACTION_WASM });
  const core = await startCompaction(dir);
  const session = new core.Session();
  session.goTo(4);
  session.free();
  session.free(); // twice is harmless
  // Unguarded, each of these would throw from inside wasm and leak shadow stack (guard-glue.mjs).
  for (let i = 0; i < 20_000; i++) {
    assert.throws(() => session.state(), (error) => error.constructor === Error && /^this Session was freed/.test(error.message));
  }
  assert.throws(() => session.goTo(2), /this Session was freed/);
  assert.throws(() => core.Session.prototype.state.call({}), /is not a Session/);
  assert.deepEqual(crossings(core), [4, 6, 8, 9, 10]);
});

test("guard-glue: a pointer passed as a later argument, kept in a variable, or taken by a consuming method is guarded too", () => {
  const variant = FULL_GLUE
    .replace("wasm.factstore_fire(this.__wbg_ptr, index)", "wasm.factstore_fire(index, this.__wbg_ptr)")
    .replace("        wasm.session_reset(this.__wbg_ptr);\n", "        const self = this.__wbg_ptr;\n        wasm.session_reset(self);\n")
    .replace("    /**\n     * Starts the script over.", "    take() {\n        const ptr = this.__destroy_into_raw();\n        return wasm.session_take(ptr);\n    }\n$&");
  assert.notEqual(variant, FULL_GLUE);
  const { glue, guarded } = guardGlue(variant);
  assert.equal(guarded, 23);
  assert.match(glue, /wasm\.factstore_fire\(index, livePointer\(this, "FactStore"\)\)/);
  assert.match(glue, /const self = livePointer\(this, "Session"\);\n\s*wasm\.session_reset\(self\);/);
  assert.match(glue, /const ptr = \(livePointer\(this, "Session"\), this\.__destroy_into_raw\(\)\);\n\s*return wasm\.session_take\(ptr\);/);
  assert.doesNotMatch(withoutOwners(glue), /this\.__wbg_ptr/);
});

test("guard-glue: a glue of another shape is refused, naming what it expected, rather than left half guarded", () => {
  const refused = (glue, why) => assert.throws(() => guardGlue(glue), (error) => why.test(error.message) && /has the glue's shape changed\? Nothing guarded$/.test(error.message));
  // The class pattern renamed: as a class expression, or with an extends clause.
  refused(FULL_GLUE.replace(/^export class (\w+) \{$/gm, "export const $1 = class {"), /no `export class Name \{`, yet the glue has object pointers/);
  refused(FULL_GLUE.replace("export class Session {", "export class Session extends Base {"), /4 class declarations, of which 3 read as `export class Name \{`/);
  // A member of another form, a free() of another shape, a method that sets the pointer.
  refused(FULL_GLUE.replace("    reset() {\n        wasm.session_reset", "    reset = () => {\n        wasm.session_reset"), /class Session has more than methods and doc comments: reset = \(\) => \{/);
  refused(FULL_GLUE.replace("wasm.__wbg_session_free(ptr, 0);", "wasm.__wbg_session_free(ptr);"), /Session\.free\(\) is not/);
  refused(FULL_GLUE.replace("        wasm.session_reset(this.__wbg_ptr);\n", "        this.__wbg_ptr = wasm.session_reset(this.__wbg_ptr);\n"), /Session\.reset sets this\.__wbg_ptr/);
  // An object's pointer read outside its class: it would enter wasm unchecked.
  refused(
    FULL_GLUE.replace("export function importConversation(text) {", "export function compare(a) {\n    return wasm.compare(a.__wbg_ptr);\n}\n$&"),
    /1 uses of __wbg_ptr outside a class's constructor, __destroy_into_raw and __wrap \(line \d+: return wasm\.compare\(a\.__wbg_ptr\);\)/,
  );
  refused(
    FULL_GLUE.replace("export function importConversation(text) {", "export function consume(a) {\n    return wasm.consume(a.__destroy_into_raw());\n}\n$&"),
    /1 calls of __destroy_into_raw\(\) outside free\(\) that are not checked/,
  );
});

test("guard-glue: classes whose methods never read this.__wbg_ptr are refused: there would be nothing guarded", () => {
  const renamed = FULL_GLUE.replace(/(wasm\.\w+\()this\.__wbg_ptr\b/g, "$1this.ptr");
  assert.throws(() => guardGlue(renamed), /guard-glue: 4 classes, but no method reads this\.__wbg_ptr/);
  // Only a glue with no class and no object pointer at all has nothing to guard.
  const functionsOnly = "export function f(x) {\n    return wasm.f(x);\n}\n";
  assert.deepEqual(guardGlue(functionsOnly), { glue: functionsOnly, guarded: 0, classes: 0 });
});

test("guard-glue, drop-dead-shims and minify-names on a glue they do not know: exit 1, the reason on stderr, nothing written", () => {
  const renamedShims = Buffer.from(COMPACTION_WASM.toString("latin1").replaceAll("::convert::closures::_::invoke::", "::convert::closurez::_::invoke::"), "latin1");
  assert.equal(renamedShims.length, COMPACTION_WASM.length);
  const dir = directory({
    "guard.js": COMPACTION_GLUE.replace("export class Session {", "export const Session = class {"),
    "drop_bg.wasm": renamedShims,
    // The full core's glue with the compaction core's wasm.
    "minify.js": FULL_GLUE,
    "minify_bg.wasm": COMPACTION_WASM,
  });
  const cases = [
    ["guard-glue", "guard.js", /^guard-glue: no `export class Name \{`, yet the glue has object pointers/],
    ["drop-dead-shims", "drop_bg.wasm", /^drop-dead-shims: none of the \d+ function-table slots holds a closure shim/],
    ["minify-names", "minify", /^minify-names: minify\.js has 0 of the import object's module `"\.\/compaction_bg\.js": import0`, expected 1/],
  ];
  for (const [tool, arg, why] of cases) {
    const { status, stderr } = run(tool, join(dir, arg));
    assert.equal(status, 1, tool);
    assert.match(stderr, why);
  }
  assert.equal(readFileSync(join(dir, "guard.js"), "utf8"), COMPACTION_GLUE.replace("export class Session {", "export const Session = class {"));
  assert.deepEqual(readFileSync(join(dir, "drop_bg.wasm")), renamedShims);
  assert.equal(readFileSync(join(dir, "minify.js"), "utf8"), FULL_GLUE);
  assert.deepEqual(readFileSync(join(dir, "minify_bg.wasm")), COMPACTION_WASM);
});

// ---- tools/drop-dead-shims.mjs on the real wasm ---------------------------------------------

test("drop-dead-shims: the compaction core's 43 closure shims and 4 wakers leave its table, and the core still runs", async () => {
  const { bytes, dropped } = dropDeadShims(COMPACTION_WASM);
  assert.equal(dropped, 47);
  const optimised = binaryen.readBinary(bytes);
  optimised.runPasses(["remove-unused-module-elements"]);
  const names = [];
  for (let i = 0; i < optimised.getNumFunctions(); i++) names.push(binaryen.getFunctionInfo(optimised.getFunctionByIndex(i)).name);
  optimised.dispose();
  assert.ok(!names.some((name) => /closures::_::invoke|task_waker/.test(name)), "wasm-opt then drops their code");
  assert.ok(names.some((name) => name.startsWith("agent_memory_widgets::")));
  const core = await startCompaction(directory({ "compaction.js": COMPACTION_GLUE, "compaction_bg.wasm": bytes }));
  assert.deepEqual(crossings(core), [4, 6, 8, 9, 10]);
  // Its own output it knows by the trapping slots: a second run changes nothing.
  assert.deepEqual(dropDeadShims(bytes), { bytes, dropped: 0, already: true });
});

// ---- tools/minify-names.mjs ---------------------------------------------------------------

test("minify-names: the compaction core's imports get short names in the wasm and the glue alike, and it still runs", async () => {
  const { glue, bytes, renamed } = minifyNames(COMPACTION_GLUE, COMPACTION_WASM, "compaction.js");
  assert.equal(renamed, 22);
  assert.match(glue, /"a": import0/);
  assert.doesNotMatch(glue, /^\s+__wbg\w*: function\(/m);
  assert.ok(bytes.length < COMPACTION_WASM.length - 800);
  const core = await startCompaction(directory({ "compaction.js": glue, "compaction_bg.wasm": bytes }));
  assert.deepEqual(crossings(core), [4, 6, 8, 9, 10]);
  assert.deepEqual(minifyNames(glue, bytes), { glue, bytes, renamed: 0, already: true });
});

test("minify-names: a glue out of step with its wasm is refused, naming the key it expected", () => {
  const refused = (glue, wasm, why) => assert.throws(() => minifyNames(glue, wasm, "compaction.js"), (error) => why.test(error.message) && /Nothing renamed$/.test(error.message));
  // The import object's keys as methods, not `name: function(`.
  refused(COMPACTION_GLUE.replace(/^( {8}__wbg_Error_\w+): function\(/m, "$1("), COMPACTION_WASM, /compaction\.js has 0 of the import key `__wbg_Error_\w+: function\(`, expected 1/);
  refused(COMPACTION_GLUE.replace('"./compaction_bg.js": import0', '"./compaction_bg.js": imports'), COMPACTION_WASM, /has 0 of the import object's module `"\.\/compaction_bg\.js": import0`/);
  refused(COMPACTION_GLUE.replace("    const import0 = {\n        __proto__: null,\n", "    const import0 = {\n"), COMPACTION_WASM, /has no `const import0 = \{ __proto__: null, … \};`/);
  // A key the wasm does not import (the glue of another build), and the glue of another core.
  const stray = "        __wbg_extra_0123456789abcdef: function() {\n        },\n";
  refused(COMPACTION_GLUE.replace("        __proto__: null,\n", `$&${stray}`), COMPACTION_WASM, /import object has keys the wasm does not import: __wbg_extra_0123456789abcdef;/);
  refused(FULL_GLUE, COMPACTION_WASM, /has 0 of the import object's module `"\.\/compaction_bg\.js": import0`/);
});

test("minify-names: a wasm that imports nothing is refused: there would be nothing renamed", () => {
  const header = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  assert.throws(() => minifyNames(COMPACTION_GLUE, Uint8Array.from(header)), /minify-names: the wasm has no import section/);
  assert.throws(() => minifyNames(COMPACTION_GLUE, Uint8Array.from([...header, 2, 1, 0])), /minify-names: the wasm's import section is empty: nothing to rename/);
});
