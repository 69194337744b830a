// The build's wasm rewriting (tools/drop-dead-shims.mjs) on small modules made here with binaryen,
// so that each case is exact: part of `make test` (test-size).
//
//   node --test tests/tools.test.mjs

import { test } from "node:test";
import assert from "node:assert/strict";
import binaryen from "binaryen";
import { dropDeadShims } from "../tools/drop-dead-shims.mjs";

const SHIM = "wasm_bindgen::convert::closures::_::invoke::h0123456789abcdef";
const WAKER = "js_sys::futures::jspi::task_waker::raw_wake::h0123456789abcdef";

/**
 * A module whose function table holds, from slot 1: a live function, a closure shim, js-sys's
 * waker, and the live one again; `run(i)` calls slot `i`. `exportTable` exports that table.
 */
function module({ exportTable = false } = {}) {
  const made = new binaryen.Module();
  const i32 = binaryen.i32;
  made.addFunction("live", binaryen.none, i32, [], made.i32.const(7));
  made.addFunction(SHIM, binaryen.none, i32, [], made.i32.const(8));
  made.addFunction(WAKER, binaryen.none, i32, [], made.i32.const(9));
  made.addTable("table", 5, 5, binaryen.funcref);
  made.addActiveElementSegment("table", "slots", ["live", SHIM, WAKER, "live"], made.i32.const(1));
  made.addFunction("run", i32, i32, [],
    made.call_indirect("table", made.local.get(0, i32), [], binaryen.none, i32));
  made.addFunctionExport("run", "run");
  if (exportTable) made.addTableExport("table", "table");
  assert.ok(made.validate());
  binaryen.setDebugInfo(true); // the name section: what the tool reads
  const bytes = made.emitBinary();
  made.dispose();
  return bytes;
}

const run = (bytes, slot) => new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports.run(slot);

test("the closure shims' and the waker's slots trap, and every other slot stays where it was", () => {
  const before = module();
  assert.deepEqual([1, 2, 3, 4].map((slot) => run(before, slot)), [7, 8, 9, 7]);
  const { bytes, dropped } = dropDeadShims(before);
  assert.equal(dropped, 2);
  assert.equal(run(bytes, 1), 7);
  assert.equal(run(bytes, 4), 7);
  for (const slot of [2, 3]) assert.throws(() => run(bytes, slot), WebAssembly.RuntimeError);
});

test("once their slots are empty, wasm-opt's dead-code pass drops the shims", () => {
  const { bytes } = dropDeadShims(module());
  const optimised = binaryen.readBinary(bytes);
  optimised.runPasses(["remove-unused-module-elements"]);
  const names = [];
  for (let i = 0; i < optimised.getNumFunctions(); i++) names.push(binaryen.getFunctionInfo(optimised.getFunctionByIndex(i)).name);
  optimised.dispose();
  assert.ok(names.includes("live"), names.join(", "));
  assert.ok(!names.includes(SHIM) && !names.includes(WAKER), names.join(", "));
});

test("a module that exports its function table is refused: JS could call any slot", () => {
  assert.throws(() => dropDeadShims(module({ exportTable: true })), /exports its function table/);
});

test("a module without such slots comes back the same", () => {
  const made = new binaryen.Module();
  made.addFunction("live", binaryen.none, binaryen.i32, [], made.i32.const(7));
  made.addFunctionExport("live", "live");
  const bytes = made.emitBinary();
  made.dispose();
  const { bytes: after, dropped } = dropDeadShims(bytes);
  assert.equal(dropped, 0);
  assert.equal(new WebAssembly.Instance(new WebAssembly.Module(after)).exports.live(), 7);
});
