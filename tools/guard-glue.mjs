// Hardens wasm-bindgen's JS glue against use after free(): `make build` runs it on each core's
// glue right after wasm-bindgen.
//
// Why: a method called on a freed object passes a null pointer into wasm, and the generated Rust
// shim throws a JS exception from inside wasm. That exception unwinds through wasm frames,
// which skips the code that restores wasm-bindgen's shadow stack pointer, so every such call
// leaks a few bytes of the 1 MB shadow stack; after some thousands the next ordinary call
// writes out of bounds and the instance is broken for good (wasm-bindgen issue #1963). So every
// method checks its object in JS, before wasm is entered, and throws a plain Error there.
//
// Every read of `this.__wbg_ptr` in a class body is guarded, wherever the pointer goes (the
// first argument of a call, a later one, a variable), but in the three members that own the
// pointer: `constructor`, `__destroy_into_raw` and `__wrap`. A method that consumes its object
// (`this.__destroy_into_raw()`) checks it first; `free()` twice is harmless. The glue's shape is
// that of the wasm-bindgen version in tools/glue-version.mjs, checked against Cargo.lock; where it
// differs, or a pointer would be left unguarded, this fails rather than guess.
//
//   node tools/guard-glue.mjs www/pkg/compaction.js      (rewrites it in place)

import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { checkGlueVersion } from "./glue-version.mjs";

const MARK = "/* guarded against use after free */";

const HELPER = `${MARK}
function livePointer(object, name) {
    const ptr = object == null ? 0 : object.__wbg_ptr;
    if (typeof ptr !== "number" || ptr === 0) {
        throw new Error(\`this \${name} was freed (or is not a \${name}); create a new one\`);
    }
    return ptr;
}
`;

/** The members that set or hand over the pointer: theirs is not a use to guard. */
const OWNERS = new Set(["constructor", "__destroy_into_raw", "__wrap"]);

/** A class as wasm-bindgen writes it: `export class Name {` to the first `}` at the line's start. */
const CLASS = /^export class (\w+) \{\n([\s\S]*?)^\}$/gm;
/** A member of a class body, at an indent of 4, its body to the first `}` at that indent. */
const MEMBER = /^ {4}((?:static |get |set |async )*)([\w$]+)\(([^)\n]*)\) \{\n([\s\S]*?)^ {4}\}\n/gm;
/** A doc comment in a class body. */
const DOC = /^ {4}\/\*\*\n(?: {5}\*.*\n)*? {5}\*\/\n/gm;
/** wasm-bindgen's free(), which becomes a no-op on a freed object. */
const FREE = /^(\s*const ptr = this\.__destroy_into_raw\(\);\n)(\s*)(wasm\.__wbg_\w+_free\(ptr, 0\);\n)$/;

/** Stops the build with `message`. */
function refuse(message) {
  throw new Error(`guard-glue: ${message}; has the glue's shape changed? Nothing guarded`);
}

/** How many times `pattern` (global) matches `text`. */
const count = (text, pattern) => text.match(pattern)?.length ?? 0;

/** The lines of `text` that match `pattern`, numbered, for a message. */
const linesWith = (text, pattern) =>
  text.split("\n").flatMap((line, i) => (pattern.test(line) ? [`line ${i + 1}: ${line.trim()}`] : [])).join("; ");

/**
 * The class `name`'s `body` with every use of its pointer guarded: `{ body, guarded }`. Throws on a
 * body or member it does not know.
 */
function guardClass(name, body) {
  const check = `livePointer(this, "${name}")`;
  let guarded = 0;
  let frees = 0;
  const rest = body.replace(MEMBER, "").replace(DOC, "");
  if (rest.trim()) refuse(`class ${name} has more than methods and doc comments: ${rest.trim().split("\n")[0]}`);
  body = body.replace(MEMBER, (member, modifiers, method, params, code) => {
    if (OWNERS.has(method)) return member;
    const rebuilt = (newCode) => `    ${modifiers}${method}(${params}) {\n${newCode}    }\n`;
    if (/this\.__wbg_ptr\s*=(?!=)/.test(code)) refuse(`${name}.${method} sets this.__wbg_ptr; only constructor, __destroy_into_raw and __wrap may`);
    if (method === "free" && !modifiers) {
      const free = FREE.exec(code);
      if (!free) refuse(`${name}.free() is not \`const ptr = this.__destroy_into_raw(); wasm.__wbg_…_free(ptr, 0);\``);
      frees++;
      const [, head, indent, call] = free;
      return rebuilt(`${head}${indent}if (ptr === 0) return;\n${indent}${call}`);
    }
    // wasm.session_state(this.__wbg_ptr) -> wasm.session_state(livePointer(this, "Session")), and
    // so on wherever it stands; a method that takes its object checks it before taking it.
    const safe = code
      .replace(/\bthis\.__wbg_ptr\b/g, () => (guarded++, check))
      .replace(/\bthis\.__destroy_into_raw\(\)/g, (call) => (guarded++, `(${check}, ${call})`));
    return rebuilt(safe);
  });
  if (frees !== 1) refuse(`class ${name} has ${frees} free() methods, expected 1`);
  return { body, guarded };
}

/**
 * `glue` (wasm-bindgen's JS for one core) with every method checking its object before it enters
 * wasm: `{ glue, guarded, classes }`, `guarded` counting the uses of a pointer now checked. Glue
 * guarded already comes back as it was, with `guarded` 0 and `already` true. Throws where the glue
 * is not in the shape this knows, where a pointer would be left unguarded, or where there was
 * nothing to guard in a glue that has classes.
 */
export function guardGlue(glue) {
  if (glue.includes(MARK)) return { glue, guarded: 0, classes: count(glue, CLASS), already: true };
  let guarded = 0;
  let classes = 0;
  const safe = glue.replace(CLASS, (whole, name, body) => {
    classes++;
    const result = guardClass(name, body);
    guarded += result.guarded;
    return `export class ${name} {\n${result.body}}`;
  });
  const declared = count(glue, /^\s*(?:export\s+)?(?:default\s+)?class\b/gm);
  if (declared !== classes) refuse(`${declared} class declarations, of which ${classes} read as \`export class Name {\` … \`}\``);
  if (classes === 0) {
    // A core of functions only (none is built today) has no object to free, and no pointer.
    if (/__wbg_ptr|__destroy_into_raw|Finalization/.test(glue)) refuse("no `export class Name {`, yet the glue has object pointers");
    return { glue, guarded: 0, classes: 0 };
  }
  if (guarded === 0) refuse(`${classes} classes, but no method reads this.__wbg_ptr`);

  // What is left, but for the owners' own and the checked takes (free()'s and a consuming
  // method's), would enter wasm unchecked.
  const unchecked = safe
    .replace(CLASS, (whole) =>
      whole.replace(MEMBER, (member, modifiers, method) => (OWNERS.has(method) ? member.replaceAll("__wbg_ptr", "__owned_ptr") : member)),
    )
    .replace(/this\.__destroy_into_raw\(\);(?=\n\s*if \(ptr === 0\) return;)/g, "checked;")
    .replace(/\(livePointer\(this, "\w+"\), this\.__destroy_into_raw\(\)\)/g, "(checked)");
  const pointers = count(unchecked, /__wbg_ptr/g);
  if (pointers) refuse(`${pointers} uses of __wbg_ptr outside a class's constructor, __destroy_into_raw and __wrap (${linesWith(unchecked, /__wbg_ptr/)})`);
  const takes = count(unchecked, /\.__destroy_into_raw\(\)/g);
  if (takes) refuse(`${takes} calls of __destroy_into_raw() outside free() that are not checked (${linesWith(unchecked, /\.__destroy_into_raw\(\)/)})`);

  // After the leading ts-self-types comment, which must stay first.
  return { glue: safe.replace(/^(\/\* @ts-self-types=.*\*\/\n)?/, (head) => `${head}\n${HELPER}`), guarded, classes };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const file = process.argv[2];
    if (!file) throw new Error("usage: node tools/guard-glue.mjs path/to/core.js");
    checkGlueVersion("guard-glue");
    const { glue, guarded, classes, already } = guardGlue(readFileSync(file, "utf8"));
    if (already) {
      console.log(`guard-glue: ${file}: guarded already`);
    } else if (classes === 0) {
      console.log(`guard-glue: ${file}: no classes, nothing to guard`);
    } else {
      writeFileSync(file, glue);
      console.log(`guard-glue: ${file}: ${guarded} uses of an object's pointer in ${classes} classes check it before entering wasm`);
    }
  } catch (error) {
    console.error(error.message);
    process.exitCode = 1;
  }
}
