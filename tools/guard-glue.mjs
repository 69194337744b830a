// Hardens wasm-bindgen's JS glue against use after free(): `make build` runs it on
// www/pkg/agent_memory_widgets.js right after wasm-bindgen.
//
// Why: a method called on a freed object passes a null pointer into wasm, and the generated Rust
// shim throws a JS exception from inside wasm. That exception unwinds through wasm frames,
// which skips the code that restores wasm-bindgen's shadow stack pointer, so every such call
// leaks a few bytes of the 1 MB shadow stack; after some thousands the next ordinary call
// writes out of bounds and the instance is broken for good (wasm-bindgen issue #1963). So every
// method checks its object in JS, before wasm is entered, and throws a plain Error there.
//
// The glue's shape is pinned by the exact wasm-bindgen version in Cargo.lock; if it changes,
// this script fails loudly rather than leave a method unguarded.
//
//   node tools/guard-glue.mjs [path/to/agent_memory_widgets.js]

import { readFileSync, writeFileSync } from "node:fs";

const file = process.argv[2] ?? new URL("../www/pkg/agent_memory_widgets.js", import.meta.url).pathname;
const MARK = "/* guarded against use after free */";
let glue = readFileSync(file, "utf8");
if (glue.includes(MARK)) process.exit(0);

const HELPER = `${MARK}
function livePointer(object, name) {
    const ptr = object == null ? 0 : object.__wbg_ptr;
    if (typeof ptr !== "number" || ptr === 0) {
        throw new Error(\`this \${name} was freed (or is not a \${name}); create a new one\`);
    }
    return ptr;
}
`;

let guarded = 0;
const parts = glue.split(/^(?=export class \w+ \{)/m);
glue = parts
  .map((part) => {
    const name = /^export class (\w+) \{/.exec(part)?.[1];
    if (!name) return part;
    // Methods: wasm.session_state(this.__wbg_ptr, ...) -> wasm.session_state(livePointer(this, "Session"), ...)
    part = part.replace(/(wasm\.\w+\()this\.__wbg_ptr\b/g, (_, call) => {
      guarded++;
      return `${call}livePointer(this, "${name}")`;
    });
    // free() twice is harmless: the second call has nothing to free.
    part = part.replace(
      /(free\(\) \{\n\s*const ptr = this\.__destroy_into_raw\(\);\n)(\s*)(wasm\.__wbg_\w+_free\(ptr, 0\);)/,
      (_, head, indent, call) => `${head}${indent}if (ptr === 0) return;\n${indent}${call}`,
    );
    return part;
  })
  .join("");

const classes = parts.length - 1;
if (classes === 0 && !/__wbg_ptr/.test(glue)) {
  // A core of functions only (none is built today): no object to free.
  console.log("guard-glue: no classes, nothing to guard");
  process.exit(0);
}
const left = glue.match(/wasm\.\w+\(this\.__wbg_ptr/g);
if (guarded === 0 || left) {
  console.error(`guard-glue: guarded ${guarded} calls, ${left?.length ?? 0} left unguarded; has the glue's shape changed?`);
  process.exit(1);
}
const frees = glue.match(/if \(ptr === 0\) return;/g)?.length ?? 0;
if (frees !== classes) {
  console.error(`guard-glue: guarded free() in ${frees} of ${classes} classes; has the glue's shape changed?`);
  process.exit(1);
}
// After the leading ts-self-types comment, which must stay first.
glue = glue.replace(/^(\/\* @ts-self-types=.*\*\/\n)?/, (head) => `${head ?? ""}\n${HELPER}`);
writeFileSync(file, glue);
console.log(`guard-glue: ${guarded} methods of ${classes} classes check their object before entering wasm`);
