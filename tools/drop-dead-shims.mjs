// Empties the function-table slots of wasm-bindgen's closure shims, so that wasm-opt drops them
// and the code only they reach: `make build` runs it on each core between wasm-bindgen and
// wasm-opt. 0.5 to 2.8 KB raw and 0.2 to 0.8 KB gzip a core (BENCHMARKS.md).
//
// Why they are dead. wasm-bindgen's `invoke` shim for a closure type has its address taken in
// one place only: the type's descriptor (`describe_invoke` in wasm-bindgen's convert/closures.rs),
// which the wasm-bindgen CLI runs at build time and then deletes. The linker had put every such
// shim in the function table all the same, and a table slot keeps its function alive whatever
// reads it. A closure that JS does call has its shim exported by the CLI, which keeps that shim
// alive whatever its slot holds; these cores make no closure. js-sys's task waker functions are
// in the table for its JS-promise-integration task poll, an export the CLI removes when no export
// uses that integration; while the poll is exported, they stay.
//
// Each slot keeps its index and gets a function that traps. What this cannot see, it refuses
// rather than guess: a table that JS can reach other than the externref table (exported or
// imported), passive or non-constant element segments, and a module without function names
// (they come from the name section, so this runs before anything strips it). Nor does it pass
// a function table without a closure shim in it: every core built today has 43 there, so none
// found means that wasm-bindgen has renamed them, and they would stay. Only an empty table is
// verifiably without them (or this tool's own output: its trapping function holds their slots).
// The names are those of the wasm-bindgen version in tools/glue-version.mjs, checked against
// Cargo.lock.
//
//   node tools/drop-dead-shims.mjs www/pkg/compaction_bg.wasm     (rewrites the file in place)

import binaryen from "binaryen";
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { checkGlueVersion } from "./glue-version.mjs";

/** wasm-bindgen's closure shims, by name (legacy and v0 demangled: `wasm_bindgen[..]::`). */
const SHIM = /^wasm_bindgen(\[[0-9a-f]+\])?::convert::closures::_::invoke::/;
/** js-sys's task waker, dead unless its task poll is exported. */
const WAKER = /^js_sys(\[[0-9a-f]+\])?::futures::jspi::task_waker::raw_/;
const TASK_POLL = "__wbg_jspi_task_poll";

/** What stands in each emptied slot. */
const TRAP = "dead_table_slot";

/** Stops the build with `message`. */
function refuse(message) {
  throw new Error(`drop-dead-shims: ${message}; nothing dropped`);
}

/**
 * `bytes` (a wasm module with its name section) with every table slot that holds one of the dead
 * functions given a trapping function instead: `{ bytes, dropped }`. Every element segment keeps
 * its place and order. Throws, changing nothing, where a slot could be reached in a way this does
 * not see, or where no slot holds a closure shim though the table holds something (see the
 * file's comment). A module whose table holds nothing comes back as it was, `dropped` 0, and so
 * does one this has emptied already, with `already` true.
 */
export function dropDeadShims(bytes) {
  const module = binaryen.readBinary(bytes);
  try {
    const exports = [];
    for (let i = 0; i < module.getNumExports(); i++) exports.push(binaryen.getExportInfo(module.getExportByIndex(i)));
    for (let i = 0; i < module.getNumTables(); i++) {
      const table = module.getTableByIndex(i);
      const { name, module: imported } = binaryen.getTableInfo(table);
      const exported = exports.find((info) => info.kind === binaryen.ExternalTable && info.value === name);
      if ((imported || exported) && binaryen.Table.getType(table) !== binaryen.externref) {
        refuse(`table "${name}" is ${imported ? "imported" : `exported as "${exported.name}"`}, so JS may call any of its slots`);
      }
    }
    const functions = [];
    for (let i = 0; i < module.getNumFunctions(); i++) functions.push(binaryen.getFunctionInfo(module.getFunctionByIndex(i)).name);
    if (functions.length && !functions.some((name) => name.includes("::"))) refuse("the module has no function names (its name section)");
    const pollExported = exports.some((info) => info.kind === binaryen.ExternalFunction && info.name === TASK_POLL);
    const dead = (name) => SHIM.test(name) || (!pollExported && WAKER.test(name));

    const segments = [];
    for (let i = 0; i < module.getNumElementSegments(); i++) {
      const segment = module.getElementSegmentByIndex(i);
      if (binaryen._BinaryenElementSegmentIsPassive(segment)) refuse("element segment " + i + " is passive");
      const info = binaryen.getElementSegmentInfo(segment);
      const offset = binaryen.getExpressionInfo(info.offset);
      if (offset.id !== binaryen.ConstId || offset.type !== binaryen.i32) refuse(`element segment "${info.name}" has no constant i32 offset`);
      segments.push({ ...info, offset: offset.value });
    }
    const slots = segments.reduce((sum, segment) => sum + segment.data.length, 0);
    // Nothing in the table keeps a shim alive: there is nothing to drop.
    if (slots === 0) return { bytes, dropped: 0 };
    if (!segments.some((segment) => segment.data.some((name) => SHIM.test(name)))) {
      if (segments.some((segment) => segment.data.includes(TRAP))) return { bytes, dropped: 0, already: true };
      refuse(
        `none of the ${slots} function-table slots holds a closure shim (wasm_bindgen::convert::closures::_::invoke::…), ` +
          "and every core has some: has wasm-bindgen renamed them?",
      );
    }

    // Removed and added again in their order: the later of two overlapping segments wins.
    module.addFunction(TRAP, binaryen.none, binaryen.none, [], module.unreachable());
    let dropped = 0;
    for (const segment of segments) module.removeElementSegment(segment.name);
    for (const segment of segments) {
      const data = segment.data.map((name) => (dead(name) ? (dropped++, TRAP) : name));
      module.addActiveElementSegment(segment.table, segment.name, data, module.i32.const(segment.offset));
    }
    if (!module.validate()) throw new Error("drop-dead-shims: the rewritten module does not validate");
    // Names stay (wasm-opt strips them), so a names-kept build can still be read with twiggy.
    binaryen.setDebugInfo(true);
    return { bytes: module.emitBinary(), dropped };
  } finally {
    module.dispose();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const file = process.argv[2];
    if (!file) throw new Error("usage: node tools/drop-dead-shims.mjs path/to/core_bg.wasm");
    checkGlueVersion("drop-dead-shims");
    const { bytes, dropped, already } = dropDeadShims(readFileSync(file));
    writeFileSync(file, bytes);
    console.log(`drop-dead-shims: ${file}: ${already ? "emptied already" : `${dropped} table slots emptied`}`);
  } catch (error) {
    console.error(error.message);
    process.exitCode = 1;
  }
}
