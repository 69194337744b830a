// Safe to import on a server: VitePress, Docusaurus, Astro, Next and Nuxt import a page's modules
// in Node while they build, where there is no DOM. Every entry point of the package (`make dist`)
// and the one-file bundle import there, each in a Node of its own, and throw nothing, leave no
// rejected promise and define no global. (That they define the elements in a browser is what
// every browser test relies on.)

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const ROOT = resolve(import.meta.dirname, "..");
const PACKAGE = join(ROOT, "dist/agent-memory-widgets");

/**
 * Each JavaScript entry point of the package's `exports`, as a file; not the import's worker,
 * which is exported for bundlers to find (www/located.js), and which a page starts, never imports.
 */
function entries() {
  const { exports } = JSON.parse(readFileSync(join(PACKAGE, "package.json"), "utf8"));
  return Object.entries(exports)
    .map(([name, target]) => [name, typeof target === "string" ? target : target.default])
    .filter(([name, file]) => file.endsWith(".js") && name !== "./import-worker.js");
}

/** Imports `file` in a fresh Node and returns the globals it added, or throws what the import threw. */
function importAlone(file) {
  const script = `
    const before = new Set(Reflect.ownKeys(globalThis));
    process.on("unhandledRejection", (error) => { console.error("unhandled rejection: " + (error?.message ?? error)); process.exit(1); });
    await import(${JSON.stringify(pathToFileURL(file).href)});
    await new Promise((done) => setTimeout(done, 50));
    console.log(JSON.stringify(Reflect.ownKeys(globalThis).filter((key) => !before.has(key)).map(String)));
  `;
  return JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }));
}

test("the package has the entry points this test imports", () => {
  assert.deepEqual(entries().map(([name]) => name), [".", "./compaction", "./forgetting", "./playground", "./forgetting-playground", "./core"]);
});

for (const [name, file] of [...entries(), ["the one-file bundle", "../agent-memory-widgets.js"]]) {
  test(`importing ${name} in Node, without a DOM, throws nothing and defines no global`, () => {
    assert.deepEqual(importAlone(join(PACKAGE, file)), []);
  });
}
