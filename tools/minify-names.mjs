// Gives a wasm core's imports one- and two-letter names, in the wasm and in its glue alike:
// `make build` runs it on each core after wasm-opt.
//
// Why: wasm-bindgen names every import after its function and a hash
// (`__wbg___wbindgen_is_undefined_be5b34249ff1fc15`), from a module named after the glue's file
// (`./compaction_bg.js`), and each name is written twice: in the wasm's import section, and as a
// key of the glue's import object, where no minifier may shorten it. This rewrites the import
// section (every other byte of the wasm stays as it was) and the glue's keys to match: about
// 1 KB of gzip a page (BENCHMARKS.md). Exports keep their names, so `init()` still returns
// `memory` and the rest as the `.d.ts` declares them. (binaryen's
// `--minify-imports-and-exports-and-modules` would rename the exports too, and its
// `--minify-imports` renames only imports from `env`.)
//
// The glue's shape is that of the wasm-bindgen version in tools/glue-version.mjs, checked against
// Cargo.lock. If a name is not found exactly once where it is expected, the glue's import object
// has a key the wasm does not import, or there is no import to rename, this fails rather than
// leave the two out of step.
//
//   node tools/minify-names.mjs www/pkg/compaction      (compaction.js and compaction_bg.wasm)

import { readFileSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import { checkGlueVersion } from "./glue-version.mjs";

const MARK = "/* import names minified */";

/** The unsigned LEB128 number at `at` in `bytes`: `[value, next offset]`. */
function readLeb(bytes, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (byte < 0x80) return [value, at];
  }
}

/** `value` as unsigned LEB128 bytes. */
function leb(value) {
  const out = [];
  do {
    let byte = value % 128;
    value = Math.floor(value / 128);
    if (value > 0) byte |= 0x80;
    out.push(byte);
  } while (value > 0);
  return out;
}

/** The `i`th short name: a … z, A … Z, then two letters. */
function shortName(i) {
  const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  return i < letters.length ? letters[i] : letters[Math.floor(i / letters.length) - 1] + letters[i % letters.length];
}

/**
 * The wasm module in `bytes` with its imports renamed: the module of every import becomes `a`,
 * and the `i`th import's name `shortName(i)`. Returns `{ bytes, module, names }`, where `names`
 * maps each old import name to its new one.
 */
export function renameImports(bytes) {
  const text = new TextDecoder();
  const utf8 = new TextEncoder();
  const name = (at) => {
    const [len, start] = readLeb(bytes, at);
    return [text.decode(bytes.subarray(start, start + len)), start + len];
  };
  const str = (s) => { const b = utf8.encode(s); return [...leb(b.length), ...b]; };
  let at = 8; // magic and version
  while (at < bytes.length) {
    const id = bytes[at];
    const [size, payload] = readLeb(bytes, at + 1);
    const end = payload + size;
    if (id !== 2) {
      at = end;
      continue;
    }
    let [count, p] = readLeb(bytes, payload);
    const entries = [];
    const modules = new Set();
    const names = new Map();
    for (let i = 0; i < count; i++) {
      const [module, afterModule] = name(p);
      const [field, afterField] = name(afterModule);
      // What follows the names (the import's kind and type) is kept byte for byte.
      const descStart = afterField;
      p = skipImportDesc(bytes, descStart);
      if (names.has(field)) throw new Error(`minify-names: the import ${field} appears twice`);
      modules.add(module);
      names.set(field, shortName(i));
      entries.push([...str("a"), ...str(shortName(i)), ...bytes.subarray(descStart, p)]);
    }
    if (p !== end) throw new Error("minify-names: the import section did not parse to its end");
    if (count === 0) throw new Error("minify-names: the wasm's import section is empty: nothing to rename");
    if (modules.size !== 1) throw new Error(`minify-names: expected one import module, got ${[...modules].join(", ")}`);
    const section = [...leb(count), ...entries.flat()];
    const out = new Uint8Array([...bytes.subarray(0, at), 2, ...leb(section.length), ...section, ...bytes.subarray(end)]);
    return { bytes: out, module: [...modules][0], names };
  }
  throw new Error("minify-names: the wasm has no import section");
}

/** The offset after the import description (kind and type) that starts at `at`. */
function skipImportDesc(bytes, at) {
  const kind = bytes[at++];
  const limits = (p) => {
    const flags = bytes[p++];
    [, p] = readLeb(bytes, p);
    if (flags & 1) [, p] = readLeb(bytes, p);
    return p;
  };
  switch (kind) {
    case 0: return readLeb(bytes, at)[1]; // function: its type index
    case 1: return limits(at + 1); // table: element type, limits
    case 2: return limits(at); // memory: limits
    case 3: return at + 2; // global: value type, mutability
    case 4: return readLeb(bytes, at + 1)[1]; // tag: attribute, type index
    default: throw new Error(`minify-names: an import of unknown kind ${kind}`);
  }
}

/** Stops the build with `message`. */
function refuse(message) {
  throw new Error(`minify-names: ${message}; has the glue's shape changed? Nothing renamed`);
}

/** `text` escaped to stand for itself in a RegExp. */
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The glue `glue` (named `glueName` in messages) and its wasm `wasm` with the imports renamed in
 * both: `{ glue, bytes, renamed }`. Glue renamed already comes back as it was, `already` true.
 * Throws where an import is not one key of the glue's import object, where that object has a key
 * the wasm does not import, or where the wasm imports nothing.
 */
export function minifyNames(glue, wasm, glueName = "the glue") {
  if (glue.includes(MARK)) return { glue, bytes: wasm, renamed: 0, already: true };
  const { bytes, module, names } = renameImports(wasm);
  const once = (pattern, to, what) => {
    const found = glue.match(pattern)?.length ?? 0;
    if (found !== 1) refuse(`${glueName} has ${found} of ${what}, expected 1`);
    glue = glue.replace(pattern, to);
  };
  // Each import is one key of the import object, `        name: function(`, and the object is
  // returned under the module's name.
  for (const [name, short] of names) once(new RegExp(`^( +)${escape(name)}(: function\\()`, "gm"), `$1${short}$2`, `the import key \`${name}: function(\``);
  once(new RegExp(`"${escape(module)}": import0`, "g"), `"a": import0`, `the import object's module \`"${module}": import0\``);
  // What is left in the object must be the new names: any other key is an import the wasm lacks.
  const object = /^ {4}const import0 = \{\n {8}__proto__: null,\n([\s\S]*?)^ {4}\};$/m.exec(glue);
  if (!object) refuse(`${glueName} has no \`const import0 = { __proto__: null, … };\``);
  const shorts = new Set(names.values());
  const strays = [...object[1].matchAll(/^ {8}([\w$]+):/gm)].map(([, key]) => key).filter((key) => !shorts.has(key));
  if (strays.length) refuse(`${glueName}'s import object has keys the wasm does not import: ${strays.join(", ")}`);
  return { glue: `${MARK}\n${glue}`, bytes, renamed: names.size };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const base = process.argv[2];
    if (!base) throw new Error("usage: node tools/minify-names.mjs <pkg dir>/<core name>");
    checkGlueVersion("minify-names");
    const [glueFile, wasmFile] = [`${base}.js`, `${base}_bg.wasm`];
    const { glue, bytes, renamed, already } = minifyNames(readFileSync(glueFile, "utf8"), readFileSync(wasmFile), basename(glueFile));
    if (already) {
      console.log(`minify-names: ${basename(glueFile)}: renamed already`);
    } else {
      writeFileSync(wasmFile, bytes);
      writeFileSync(glueFile, glue);
      console.log(`minify-names: ${basename(glueFile)}: ${renamed} imports renamed`);
    }
  } catch (error) {
    console.error(error.message);
    process.exitCode = 1;
  }
}
