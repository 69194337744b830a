// Drops from an element core's glue what the elements never run: `make build` runs it on each
// core but the full one, after guard-glue. About 0.15 KB of gzip a page (BENCHMARKS.md).
//
// What goes, and why it is safe:
// - `initSync`: www/cores.js starts every element core with the async `default` export.
// - The warnings for the deprecated call forms of `default` (a bare URL or bytes): cores.js passes
//   `{ module_or_path }`, and so does the build (tools/build-site.mjs). A bare argument still
//   works: it is taken as `module_or_path`, as wasm-bindgen takes it, without the warning.
// - The `TextEncoder.encodeInto` fallback: every browser that runs the elements (custom elements,
//   adopted stylesheets, wasm) has `encodeInto`. (A core that takes no string has no encoder.)
//
// The full core (www/pkg/agent_memory_widgets.js) keeps all of it: it is the library's JS API,
// and callers may use `initSync` or the older forms. The glue's shape is pinned by the exact
// wasm-bindgen version in Cargo.lock; if a piece is not found exactly once, this fails rather than
// leave the glue half trimmed.
//
// Its `.d.ts` loses `initSync` too.
//
//   node tools/trim-glue.mjs www/pkg/compaction.js      (rewrites it and compaction.d.ts in place)

import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const MARK = "/* trimmed for the elements */";

/** Cuts the one piece of `glue` from `begin` to the end of `end` (`end` found after `begin`). */
function cutOnce(glue, begin, end, what) {
  const at = glue.indexOf(begin);
  const until = at < 0 ? -1 : glue.indexOf(end, at);
  if (at < 0 || glue.indexOf(begin, at + 1) >= 0 || until < 0) {
    throw new Error(`trim-glue: cannot find exactly one ${what}; has the glue's shape changed?`);
  }
  return glue.slice(0, at) + glue.slice(until + end.length);
}

/** Replaces the one `from` in `glue` with `to`. */
function replaceOnce(glue, from, to, what) {
  const at = glue.indexOf(from);
  if (at < 0 || glue.indexOf(from, at + 1) >= 0) {
    throw new Error(`trim-glue: cannot find exactly one ${what}; has the glue's shape changed?`);
  }
  return glue.slice(0, at) + to + glue.slice(at + from.length);
}

/** `glue` without what the elements never run (see the top of this file). */
export function trimGlue(glue) {
  if (glue.includes(MARK)) return glue;
  glue = cutOnce(glue, "function initSync(module) {", "\n    return __wbg_finalize_init(instance, module);\n}\n", "initSync");
  glue = replaceOnce(glue, "export { initSync, __wbg_init as default };", "export { __wbg_init as default };", "export list");
  // A core that takes no string from JS has no encoder at all.
  if (glue.includes("TextEncoder")) {
    glue = cutOnce(glue, "if (!('encodeInto' in cachedTextEncoder)) {", "\n    };\n}\n", "encodeInto fallback");
  }
  glue = replaceOnce(
    glue,
    `    if (module_or_path !== undefined) {
        if (Object.getPrototypeOf(module_or_path) === Object.prototype) {
            ({module_or_path} = module_or_path)
        } else {
            console.warn('using deprecated parameters for the initialization function; pass a single object instead')
        }
    }
`,
    `    if (module_or_path !== undefined && Object.getPrototypeOf(module_or_path) === Object.prototype) {
        ({module_or_path} = module_or_path);
    }
`,
    "deprecated-parameters warning",
  );
  return `${glue}${MARK}\n`;
}

/** The glue's declarations without `initSync` and its input type. */
export function trimDeclarations(declarations) {
  if (!declarations.includes("export function initSync(")) return declarations;
  return cutOnce(
    declarations,
    "export type SyncInitInput = ",
    "export function initSync(module: { module: SyncInitInput } | SyncInitInput): InitOutput;\n\n",
    "initSync declaration",
  );
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const file = process.argv[2];
  const before = readFileSync(file, "utf8");
  const after = trimGlue(before);
  writeFileSync(file, after);
  const types = file.replace(/\.js$/, ".d.ts");
  writeFileSync(types, trimDeclarations(readFileSync(types, "utf8")));
  console.log(`trim-glue: ${file}: ${before.length - after.length} characters fewer`);
}
