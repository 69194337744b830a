// Size is deterministic, so it can be a test: each kind of page downloads at most its budget
// (benches/sizes.mjs), and a page downloads only the code its elements use.
// (Timings are never tests; they live in `make bench`.)

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, measurePages } from "../benches/sizes.mjs";

const { pages, dist, onDemand } = measurePages();
const listing = (rows) => rows.map((r) => `  ${r.file}: ${r.raw} raw, ${r.gzip} gzip`).join("\n");

for (const page of [...pages, dist, onDemand]) {
  test(`${page.name} downloads at most ${page.budget} bytes gzipped${page.goal ? ` (goal ${page.goal})` : ""}`, () => {
    for (const row of page.rows) assert.ok(row.gzip > 0, `${row.file} is empty`);
    assert.ok(page.total.gzip <= page.budget, `${page.total.gzip} B gzip is over the budget of ${page.budget} B:\n${listing(page.rows)}`);
  });
}

test("a page downloads only the code and the core its elements use", () => {
  const files = (name) => pages.find((page) => page.name === name).rows.map((row) => row.file);
  const compaction = files("only <memory-compaction>");
  const forgetting = files("only <memory-forgetting>");
  assert.ok(compaction.includes("site/pkg/compaction_bg.wasm"), compaction.join(", "));
  assert.ok(forgetting.includes("site/pkg/forgetting_bg.wasm"), forgetting.join(", "));
  assert.ok(!compaction.some((file) => /forgetting|playground|agent_memory_widgets|\/elements[-_]/.test(file)), compaction.join(", "));
  // The own-conversation panel's code and the core that plays a script load only when needed;
  // so do the knobs' inputs and the code that applies a setting and replays (settings.js).
  assert.ok(!compaction.some((file) => /\/own-|-own[-_]|-script[-_]|\/settings-/.test(file)), compaction.join(", "));
  // Not a file of its own, nor merged into one a page loads: the knobs' button is not in them.
  for (const page of pages) {
    const code = page.rows.filter((row) => row.file.endsWith(".js"));
    assert.ok(!code.some((row) => /\/settings-/.test(row.file) || readFileSync(join(ROOT, row.file), "utf8").includes("Seed values")),
      `${page.name}: ${code.map((row) => row.file).join(", ")}`);
  }
  const scripted = files("only <memory-compaction> with a script of its own");
  assert.ok(scripted.includes("site/pkg/compaction-script_bg.wasm"), scripted.join(", "));
  assert.ok(!scripted.includes("site/pkg/compaction_bg.wasm"), scripted.join(", "));
  const playground = files("only <memory-playground>");
  assert.ok(playground.includes("site/pkg/playground_bg.wasm") && !playground.some((file) => /-own[-_]|-script[-_]/.test(file)), playground.join(", "));
  assert.ok(!forgetting.some((file) => /compaction|playground|agent_memory_widgets|\/elements[-_]/.test(file)), forgetting.join(", "));
  // The refund desk's core: custom scenarios are in a core of their own, for an element with one.
  assert.ok(!forgetting.some((file) => /scenario/.test(file)), forgetting.join(", "));
  const scenario = files("only <memory-forgetting> with a custom scenario");
  assert.ok(scenario.includes("site/pkg/forgetting-scenario_bg.wasm"), scenario.join(", "));
  assert.ok(!scenario.includes("site/pkg/forgetting_bg.wasm"), scenario.join(", "));
  const comparison = files("only <memory-forgetting-playground>");
  assert.ok(comparison.includes("site/pkg/forgetting-playground_bg.wasm"), comparison.join(", "));
  assert.ok(!comparison.some((file) => /compaction|\/forgetting[._]|\/playground|agent_memory_widgets|\/elements[-_]/.test(file)), comparison.join(", "));
  // A page with all four compiles one core, not four, and not the import's code until a reader imports.
  const all = files("www/index.html: all four").filter((file) => file.endsWith(".wasm"));
  assert.deepEqual(all, ["site/pkg/elements_bg.wasm"]);
});

test("what readers download is minified", () => {
  const index = pages.find((page) => page.page);
  for (const row of index.rows.filter((r) => /\.(js|css)$/.test(r.file))) {
    const text = readFileSync(join(ROOT, row.file), "utf8");
    const lines = text.split("\n").length;
    assert.ok(!/^\s*\/\/ /m.test(text) && !/\/\*\*/.test(text), `${row.file} has comments: it was not minified`);
    assert.ok(lines <= 3 + row.raw / 2000, `${row.file} has ${lines} lines in ${row.raw} B: it was not minified`);
  }
});
