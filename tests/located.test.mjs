// How the package's code finds its files in every host (www/located.js): each core's wasm and
// the import's worker are named by literals that are a relative path and a package path at once.
// The rule on URLs as each kind of host leaves them, and the built package (`make dist`) checked
// for what the hosts' bundlers read: every URL a literal they rewrite, none that a dependency
// cache would break, and the worker they bundle free of the dynamic imports Vite 5 to 7 refuse in
// a worker. tests/e2e/hosts.test.mjs runs the hosts themselves. Part of `make test` (test-size).
//
//   node --test tests/located.test.mjs

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { RELATIVE, located } from "../www/located.js";
import { FAMILIES, coreFor, own } from "../www/cores.js";
import { WORKER_CORES } from "../tools/build-site.mjs";

const ROOT = resolve(import.meta.dirname, "..");
const PACKAGE = join(ROOT, "dist/agent-memory-widgets");
/** A `new URL("<literal>", import.meta.url)` as Vite's and webpack's parsers find it. */
const LITERAL = /new\s+URL\(\s*(["'`])([^"'`]*)\1\s*,\s*import\.meta\.url\s*\)/g;

test("located: a literal read as a relative path names pkg/ beside the code; a bundler's file is kept", () => {
  const cases = [
    // Served as it is, from a folder of any name.
    ["https://docs.example/widgets/agent-memory-widgets/wasm/compaction_bg.wasm", "https://docs.example/widgets/pkg/compaction_bg.wasm"],
    // Vite 8's dependency cache: relative to the code's own folder in node_modules.
    ["http://127.0.0.1:5173/node_modules/agent-memory-widgets/agent-memory-widgets/wasm/elements_bg.wasm", "http://127.0.0.1:5173/node_modules/agent-memory-widgets/pkg/elements_bg.wasm"],
    // Vite 5 to 7 in dev: the package path, resolved to the file.
    ["http://127.0.0.1:5173/@fs/home/me/site/node_modules/agent-memory-widgets/pkg/elements_bg.wasm", "http://127.0.0.1:5173/@fs/home/me/site/node_modules/agent-memory-widgets/pkg/elements_bg.wasm"],
    // A build: the bundler's asset.
    ["https://docs.example/assets/compaction_bg-1a2b3c.wasm", "https://docs.example/assets/compaction_bg-1a2b3c.wasm"],
  ];
  for (const [given, file] of cases) assert.equal(located(new URL(given)).href, file, given);
  assert.equal(RELATIVE, "/agent-memory-widgets/wasm/");
});

test("the worker holds a core for each family whose elements import a reader's log", () => {
  assert.deepEqual(WORKER_CORES, ["compaction-own", "playground-own"]);
  // The page asks the worker for coreFor([own(family)]) (www/large.js), for the elements with the panel.
  for (const family of ["compaction", "playground"]) assert.ok(WORKER_CORES.includes(coreFor([own(family)])), family);
  assert.ok(WORKER_CORES.every((name) => FAMILIES.map(own).includes(name)));
});

test("each core's glue in the package names its wasm by the literal hosts rewrite, and no module names a file by a relative literal", () => {
  const modules = readdirSync(PACKAGE).filter((file) => file.endsWith(".js"));
  const named = new Map();
  for (const file of modules) {
    for (const [, , literal] of readFileSync(join(PACKAGE, file), "utf8").matchAll(LITERAL)) {
      // A relative literal, "./pkg/...", would name the dependency cache's folder in Vite 5 to 7's dev server.
      assert.match(literal, /^agent-memory-widgets\//, `${file}: ${literal}`);
      named.set(literal, [...(named.get(literal) ?? []), file]);
    }
  }
  const wasm = readdirSync(join(PACKAGE, "pkg")).filter((file) => file.endsWith("_bg.wasm"));
  for (const file of wasm) assert.ok(named.has(`agent-memory-widgets/wasm/${file}`), `no glue names ${file}`);
  assert.ok(named.has("agent-memory-widgets/import-worker.js"), "the worker's literal");
  // What each literal names is there for a bundler that reads it as a package path.
  const { exports } = JSON.parse(readFileSync(join(PACKAGE, "package.json"), "utf8"));
  assert.equal(exports["./wasm/*.wasm"], "./pkg/*.wasm");
  assert.equal(exports["./import-worker.js"], "./agent-memory-widgets/import-worker.js");
});

test("the worker that hosts bundle is one module: no import, static or dynamic", () => {
  const worker = readFileSync(join(PACKAGE, "agent-memory-widgets/import-worker.js"), "utf8");
  // import("..."), import ... from "...", import "...": none (its message handler is named `import`).
  const imports = worker.match(/\bimport\s*\(\s*["'`][^"'`]*|\bfrom\s*["'][^"']*|(?:^|;)\s*import\s*["'][^"']*/gm);
  assert.equal(imports, null, `imports: ${imports}`);
  for (const core of WORKER_CORES) assert.ok(worker.includes(`"agent-memory-widgets/wasm/${core}_bg.wasm"`), core);
});
