// Finds import circles among the files of src/ and of www/, and exits 1 naming each one.
// `make test` (test-native) checks both trees.
//
//   node tools/circles.mjs           # both trees
//   node tools/circles.mjs src       # one
//
// src/: a file imports another when it names a path into it (`use crate::compaction::window::X`,
// `crate::text::fmt_number(..)`, `super::X`), outside comments and `#[cfg(test)]` modules. A name
// the crate root re-exports (`crate::Session`) counts as the file that defines it: lib.rs is a
// facade, not a floor, and so is every re-export (`pub use window::Window` in compaction/mod.rs):
// a path through one counts as the file that defines the name. A parent's `mod child;` is not an
// import; a child's use of what its parent defines is.
// www/: static `import .. from "./x.js"` and dynamic `import("./x.js")` both count.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

function files(dir, ext) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...files(path, ext));
    else if (path.endsWith(ext)) out.push(path);
  }
  return out;
}

/** The crate's module path of a file: src/compaction/mod.rs -> ["compaction"]. */
function modulePath(file) {
  const parts = relative(join(root, "src"), file).replace(/\.rs$/, "").split("/");
  if (parts.at(-1) === "mod" || parts.at(-1) === "lib") parts.pop();
  return parts;
}

/** Source without comments (line and block) and without `#[cfg(test)]` modules. */
function code(text) {
  text = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
  const test = text.search(/#\[cfg\(test\)\]\s*mod\s+\w+\s*\{/);
  return test < 0 ? text : text.slice(0, test);
}

/** The paths a `use` tree names, expanded: `a::{b, c::d}` -> [a::b, a::c::d]. */
function expand(tree) {
  tree = tree.replace(/\s+/g, "");
  const open = tree.indexOf("{");
  if (open < 0) return [tree.replace(/\bas\w+$/, "")];
  const prefix = tree.slice(0, open);
  const inner = tree.slice(open + 1, tree.lastIndexOf("}"));
  const items = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i <= inner.length; i++) {
    const c = inner[i];
    if (c === "{") depth++;
    else if (c === "}") depth--;
    else if ((c === "," && depth === 0) || i === inner.length) {
      if (inner.slice(start, i)) items.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  return items.flatMap((item) => expand(item).map((path) => prefix + path));
}

function rustGraph() {
  const all = files(join(root, "src"), ".rs");
  const byModule = new Map(all.map((file) => [modulePath(file).join("::"), file]));
  const texts = new Map(all.map((file) => [file, code(readFileSync(file, "utf8"))]));
  // A path as the crate's module path: `super::x` and `self::x` made absolute, and a path that
  // starts with a child module of `here` (2018 paths: `use window::Window` in compaction/mod.rs).
  const absolute = (path, here) => {
    const parts = path.split("::");
    if (parts[0] === "crate") return parts.slice(1);
    if (parts[0] === "super") return [...here.slice(0, -1), ...parts.slice(1)];
    if (parts[0] === "self") return [...here, ...parts.slice(1)];
    if (byModule.has([...here, parts[0]].join("::"))) return [...here, ...parts];
    return null;
  };
  // What each module re-exports, by its path: `pub use window::Window` in compaction/mod.rs
  // makes compaction::Window name window.rs. The crate root is a facade like any other.
  const reexports = new Map();
  for (const file of all) {
    const here = modulePath(file);
    for (const [, tree] of texts.get(file).matchAll(/pub(?:\(crate\))? use ([^;]+);/g)) {
      for (const path of expand(tree)) {
        const parts = absolute(path, here);
        if (parts) reexports.set([...here, parts.at(-1)].join("::"), parts);
      }
    }
  }
  // The file a path names: the longest prefix that is a re-export (`compaction::PolicyId` in
  // `compaction::PolicyId::HotWarmCold`) or a module.
  const fileOf = (parts, seen = 0) => {
    for (let n = parts.length; n >= 0; n--) {
      // A module first: a function may share a module's name (`compaction::policy`, the
      // function that `pub use compare::policy` re-exports, and the module policy.rs).
      const file = byModule.get(parts.slice(0, n).join("::"));
      if (file) return file;
      const again = reexports.get(parts.slice(0, n).join("::"));
      if (again && seen < 8) return fileOf([...again, ...parts.slice(n)], seen + 1);
    }
  };
  const graph = new Map();
  for (const file of all) {
    const here = modulePath(file);
    // A re-export is a facade, not an import: only what the file itself uses counts.
    const text = texts.get(file).replace(/pub(?:\(crate\))? use [^;]+;/g, "");
    const paths = [];
    for (const [, tree] of text.matchAll(/\buse\s+([^;]+);/g)) paths.push(...expand(tree));
    // A path in code; not the head of a `use` tree (`crate::compaction` in
    // `crate::compaction::{Line, Window}`), which names what its tree names.
    for (const [path] of text.matchAll(/(?<![\w:])\w+(?:::\w+)+(?![\w:])/g)) paths.push(path);
    // A name the file re-exports and also uses itself (`pub use policy::HotWarmCold;`, then
    // `HotWarmCold::default()`) is an import of the file that defines it.
    for (const [, tree] of texts.get(file).matchAll(/pub(?:\(crate\))? use ([^;]+);/g)) {
      for (const path of expand(tree)) {
        const name = path.split("::").at(-1);
        // A function counts where it is called: `policy(id)`, not the variable `policy` or
        // the module in `policy::keep_pairs`.
        const called = /^[a-z_]/.test(name) ? "(?!::)(?=\\s*\\()" : "";
        if (new RegExp(`(?<![\\w:.])${name}\\b${called}`).test(text)) paths.push(path);
      }
    }
    const targets = new Set();
    for (const path of paths) {
      const parts = absolute(path, here);
      if (!parts) continue;
      const target = fileOf(parts);
      // A path that ends at a module's own file names nothing in another file, unless it is
      // a parent's: a child that names its parent's items imports the parent.
      if (target && target !== file && !target.endsWith("src/lib.rs")) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

function jsGraph() {
  const all = files(join(root, "www"), ".js").filter((file) => !file.includes("/pkg/"));
  const graph = new Map();
  for (const file of all) {
    const text = readFileSync(file, "utf8").replace(/^\s*\/\/.*$/gm, "");
    const targets = new Set();
    for (const [, spec] of text.matchAll(/(?:from\s*|import\s*\(\s*)["'](\.{1,2}\/[^"']+)["']/g)) {
      const target = resolve(dirname(file), spec);
      if (all.includes(target)) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** Tarjan's strongly connected components of more than one file: each is a circle. */
function circles(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.map((f) => relative(root, f)).sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

const trees = process.argv.slice(2).length ? process.argv.slice(2) : ["src", "www"];
let failed = false;
for (const tree of trees) {
  const graph = tree === "src" ? rustGraph() : jsGraph();
  const found = circles(graph);
  for (const circle of found) {
    failed = true;
    const names = new Set(circle);
    const edges = circle.flatMap((file) =>
      [...graph.get(join(root, file))].map((t) => relative(root, t)).filter((t) => names.has(t)).map((t) => `${file} -> ${t}`),
    );
    console.error(`${tree}: files that import each other in a circle:\n  ${edges.join("\n  ")}`);
  }
  if (!found.length) console.log(`${tree}: no import circle among ${graph.size} files`);
}
process.exit(failed ? 1 : 0);
