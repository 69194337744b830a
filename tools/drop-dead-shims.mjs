// Empties the function-table slots of wasm-bindgen's closure shims, so that wasm-opt drops them
// and the code only they reach: `make build` runs it on each core between wasm-bindgen and
// wasm-opt. About 2.7 KB raw and 0.8 KB gzip on every core (BENCHMARKS.md).
//
// Why they are dead. wasm-bindgen's `invoke` shim for a closure type has its address taken in
// one place only: the type's descriptor (`describe_invoke` in wasm-bindgen's closures.rs), which
// the wasm-bindgen CLI runs at build time and then deletes. The linker had put every such shim in
// the function table all the same, and a table slot keeps its function alive whatever reads it.
// A closure is called from JS through an exported function table, and these cores export none
// (this checks, and stops if one does). js-sys's task waker functions are in the same place: only
// its JS-promise-integration task poll reaches them, an export that wasm-bindgen removes.
//
// Each slot keeps its index and gets a function that traps, so every other slot stays where the
// code expects it; and the names the slots are matched by come from the name section, so this
// runs before anything strips it.
//
//   node tools/drop-dead-shims.mjs www/pkg/compaction_bg.wasm     (rewrites the file in place)

import binaryen from "binaryen";
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

/** The functions no slot needs: wasm-bindgen's closure shims and js-sys's task waker. */
export const DEAD = /^wasm_bindgen::convert::closures::_::invoke::|^js_sys::futures::jspi::task_waker::raw_/;

/** What stands in each emptied slot. */
const TRAP = "dead_table_slot";

/**
 * `bytes` (a wasm module with its name section) with every table slot that holds one of the
 * `DEAD` functions given a trapping function instead: `{ bytes, dropped }`. Throws if the module
 * exports a function table, through which JS could call any slot.
 */
export function dropDeadShims(bytes) {
  const module = binaryen.readBinary(bytes);
  try {
    for (let i = 0; i < module.getNumExports(); i++) {
      const info = binaryen.getExportInfo(module.getExportByIndex(i));
      // binaryen.js has no wrapper for a table's type: its C function.
      if (info.kind === binaryen.ExternalTable && binaryen._BinaryenTableGetType(module.getTable(info.value)) === binaryen.funcref) {
        throw new Error(`drop-dead-shims: the module exports its function table ("${info.name}"), so JS may call any slot; nothing dropped`);
      }
    }
    let dropped = 0;
    const segments = [];
    for (let i = 0; i < module.getNumElementSegments(); i++) segments.push(binaryen.getElementSegmentInfo(module.getElementSegmentByIndex(i)));
    for (const segment of segments) {
      if (!segment.data.some((name) => DEAD.test(name))) continue;
      if (!module.getFunction(TRAP)) module.addFunction(TRAP, binaryen.none, binaryen.none, [], module.unreachable());
      const offset = binaryen.getExpressionInfo(segment.offset);
      if (offset.id !== binaryen.ConstId) throw new Error(`drop-dead-shims: element segment "${segment.name}" has no constant offset`);
      const data = segment.data.map((name) => (DEAD.test(name) ? (dropped++, TRAP) : name));
      module.removeElementSegment(segment.name);
      module.addActiveElementSegment(segment.table, segment.name, data, module.i32.const(offset.value));
    }
    if (!module.validate()) throw new Error("drop-dead-shims: the rewritten module does not validate");
    // Names stay (wasm-opt strips them), so a names-kept build can still be read with twiggy.
    binaryen.setDebugInfo(true);
    return { bytes: module.emitBinary(), dropped };
  } finally {
    module.dispose();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const file = process.argv[2];
  if (!file) throw new Error("usage: node tools/drop-dead-shims.mjs path/to/core_bg.wasm");
  const { bytes, dropped } = dropDeadShims(readFileSync(file));
  writeFileSync(file, bytes);
  console.log(`drop-dead-shims: ${file}: ${dropped} table slots emptied`);
}
