// The npm package as a user gets it: `npm pack` of dist/agent-memory-widgets/ (`make dist`),
// installed offline into a throwaway project, bundled from a bare `import "agent-memory-widgets"`
// with esbuild, and the page that makes driven in Chromium; its types checked with tsc through
// the package's own `exports`.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { ROOT, serve, launch, open, screenshot } from "./harness.mjs";
import { CORES } from "../../www/cores.js";

const PACKAGE = join(ROOT, "dist/agent-memory-widgets");
const WAIT = { timeout: 5000 };

/** The consumer's code: the elements from the bare name, and the full core for a program of its own. */
const MAIN = `import "agent-memory-widgets";
import init, { Session } from "agent-memory-widgets/core";

await init();
const session = new Session();
while (session.addTurn() !== null);
window.coreCrossings = session.state().crossings;
session.free();
`;

const PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>A bundled consumer</title><script type="module" src="main.js"></script></head>
<body>
  <memory-compaction></memory-compaction>
  <memory-forgetting></memory-forgetting>
</body>
</html>
`;

/** What a TypeScript user writes: each line type-checks only if the package's types say so. */
const TYPED = `import "agent-memory-widgets";
import init, { Session } from "agent-memory-widgets/core";

const compaction = document.createElement("memory-compaction");
compaction.budget = 60;
compaction.addEventListener("memory-step", (event) => {
  const turn: number = event.detail.state.turn;
  console.log(turn);
});
const forgetting = document.querySelector("memory-forgetting");
forgetting?.addEventListener("memory-evict", (event) => console.log(event.detail.state.facts.length));
await init();
new Session().free();
`;

let project, packed, server, browser;
before(async () => {
  project = mkdtempSync(join(tmpdir(), "amw-consumer-"));
  [packed] = JSON.parse(execFileSync("npm", ["pack", "--json", "--pack-destination", project, PACKAGE], { encoding: "utf8" }));
  writeFileSync(join(project, "package.json"), JSON.stringify({
    name: "consumer", private: true, type: "module", dependencies: { "agent-memory-widgets": `file:./${packed.filename}` },
  }));
  execFileSync("npm", ["install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts"], { cwd: project, stdio: "pipe" });
  writeFileSync(join(project, "main.js"), MAIN);
  await build({
    absWorkingDir: project, entryPoints: ["main.js"], outdir: "out", bundle: true, splitting: true, format: "esm",
    minify: true, target: "es2022", logLevel: "warning",
  });
  // esbuild leaves `new URL(..., import.meta.url)` alone, so the wasm goes next to the bundle, as the package's README says.
  cpSync(join(project, "node_modules/agent-memory-widgets/pkg"), join(project, "out/pkg"), { recursive: true });
  writeFileSync(join(project, "out/index.html"), PAGE);
  server = await serve(join(project, "out"));
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
  if (project) rmSync(project, { recursive: true, force: true });
});

test("npm pack holds what a user needs and nothing else", () => {
  const files = packed.files.map((file) => file.path).sort();
  const manifest = JSON.parse(readFileSync(join(PACKAGE, "package.json"), "utf8"));
  for (const file of ["package.json", "README.md", "LICENSE-MIT", "LICENSE-APACHE", "custom-elements.json", "widgets.js", "widgets.d.ts", "core.js", "core.d.ts"]) {
    assert.ok(files.includes(file), `${file} is missing: ${files.join(", ")}`);
  }
  assert.deepEqual(files.filter((file) => file.endsWith(".wasm")), Object.keys(CORES).map((core) => `pkg/${core}_bg.wasm`).sort());
  // agent-memory-widgets/import-worker.js: the worker as one file, for hosts' bundlers (www/located.js).
  const unwanted = files.filter((file) => !/^(pkg\/[\w-]+_bg\.wasm|[\w-]+\.(js|d\.ts)|agent-memory-widgets\/import-worker\.js|package\.json|README\.md|LICENSE-(MIT|APACHE)|custom-elements\.json)$/.test(file));
  assert.deepEqual(unwanted, [], "source maps, the page and the build's metafile stay in site/");
  // Every path the manifest points to is in the tarball.
  const targets = Object.values(manifest.exports).flatMap((target) => (typeof target === "string" ? [target] : Object.values(target)));
  for (const target of [...targets, manifest.types, manifest.customElements].filter((path) => !path.includes("*"))) {
    assert.ok(files.includes(target.replace(/^\.\//, "")), `package.json points to ${target}, which is not packed`);
  }
  assert.ok(targets.some((target) => target === "./pkg/*.wasm"), "the wasm can be resolved by a user's tooling");
  console.log(`# npm pack: ${packed.filename}, ${packed.entryCount} files, ${packed.size} B packed, ${packed.unpackedSize} B unpacked`);
});

test("bundled with esbuild from a bare import, the elements render and run the story", { timeout: 60_000 }, async () => {
  const { page, problems } = await open(browser, server.url);
  page.setDefaultTimeout(5000);
  await page.addInitScript(() => {
    window.crossings = [];
    addEventListener("memory-step", (event) => {
      if (event.detail.step?.crossed) window.crossings.push(event.detail.step.turn);
    });
  });
  await page.goto(server.url);
  const add = page.locator("memory-compaction").getByRole("button", { name: "Add next turn" });
  await add.waitFor(WAIT);
  for (let turn = 1; turn <= 10; turn++) await add.click();
  assert.deepEqual(await page.evaluate(() => window.crossings), [4, 6, 8, 9, 10]);
  assert.equal(await add.isDisabled(), true);
  await page.locator("memory-forgetting").getByRole("slider", { name: "time" }).fill("6");
  assert.match(await page.locator("memory-forgetting tbody tr").first().textContent(), /the user is Dana/);
  // The full core, imported as "agent-memory-widgets/core", plays the same story.
  await page.waitForFunction(() => window.coreCrossings);
  assert.deepEqual(await page.evaluate(() => window.coreCrossings), [4, 6, 8, 9, 10]);
  await screenshot(page, "package-consumer");
  assert.deepEqual(problems, []);
});

test("the package's types check a TypeScript user's code through its exports", () => {
  writeFileSync(join(project, "typed.ts"), TYPED);
  const tsc = join(ROOT, "node_modules/.bin/tsc");
  const flags = ["--noEmit", "--strict", "--target", "es2022", "--module", "esnext", "--moduleResolution", "bundler", "--lib", "es2022,dom,esnext.disposable"];
  execFileSync(tsc, [...flags, "typed.ts"], { cwd: project, encoding: "utf8" });
  // And it is the types that allow it: a wrong one fails.
  writeFileSync(join(project, "wrong.ts"), `import "agent-memory-widgets";\nconst turn: string = document.createElement("memory-compaction").budget;\n`);
  assert.throws(() => execFileSync(tsc, [...flags, "wrong.ts"], { cwd: project, encoding: "utf8", stdio: "pipe" }),
    (error) => /wrong\.ts\(2,7\): error TS2322: Type 'number( \| null)?' is not assignable to type 'string'/.test(error.stdout));
});
