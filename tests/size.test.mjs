// Size is deterministic, so it can be a test: each kind of page downloads at most its budget
// (benches/sizes.mjs), and a page downloads only the code its elements use.
// (Timings are never tests; they live in `make bench`.)

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, SEED_SAVINGS, measurePages, seedSavings } from "../benches/sizes.mjs";
import { CORES, coreFor, coresFor } from "../www/cores.js";
import { coreWeights } from "../tools/build-site.mjs";

const { pages, dist, onDemand } = measurePages();
const listing = (rows) => rows.map((r) => `  ${r.file}: ${r.raw} raw, ${r.gzip} gzip`).join("\n");

for (const page of [...pages, dist, onDemand]) {
  test(`${page.name} downloads at most ${page.budget} bytes gzipped`, () => {
    for (const row of page.rows) assert.ok(row.gzip > 0, `${row.file} is empty`);
    assert.ok(page.total.gzip <= page.budget, `${page.total.gzip} B gzip is over the budget of ${page.budget} B:\n${listing(page.rows)}`);
  });
}

test("a page downloads only the code and the core its elements use", () => {
  const files = (name) => pages.find((page) => page.name === name).rows.map((row) => row.file);
  const wasm = (name) => files(name).filter((file) => file.endsWith(".wasm"));
  // Each page loads the cores www/cores.js picks for it (coresFor, from what each downloads), and no other.
  for (const page of pages) assert.deepEqual(wasm(page.name), coresFor(page.needs, coreWeights()).map((core) => `site/pkg/${core}_bg.wasm`), page.name);
  assert.deepEqual(wasm("only <memory-compaction>"), ["site/pkg/compaction_bg.wasm"]);
  assert.deepEqual(wasm("only <memory-forgetting>"), ["site/pkg/forgetting_bg.wasm"]);
  assert.deepEqual(wasm("only <memory-playground>"), ["site/pkg/playground_bg.wasm"]);
  assert.deepEqual(wasm("only <memory-compaction> with settings of its own"), ["site/pkg/compaction-config_bg.wasm"]);
  // A page with all four compiles one core, not four, and no `withConfig` until a setting asks.
  assert.deepEqual(wasm("www/index.html: all four"), ["site/pkg/elements_bg.wasm"]);
  // Two families whose cores together download less than the one that serves both: one each.
  assert.deepEqual(wasm("<memory-compaction> and <memory-forgetting>"), ["site/pkg/compaction_bg.wasm", "site/pkg/forgetting_bg.wasm"]);
  const weights = coreWeights();
  const weight = (core) => weights[Object.keys(CORES).indexOf(core)];
  assert.ok(weight("compaction") + weight("forgetting") < weight(coreFor(["compaction", "forgetting"])), `${weights}`);
  const compaction = files("only <memory-compaction>");
  const forgetting = files("only <memory-forgetting>");
  const comparison = files("only <memory-forgetting-playground>");
  assert.ok(!compaction.some((file) => /forgetting|playground|agent_memory_widgets|\/elements[-_]/.test(file)), compaction.join(", "));
  assert.ok(!forgetting.some((file) => /compaction|playground|agent_memory_widgets|\/elements[-_]/.test(file)), forgetting.join(", "));
  assert.ok(!comparison.some((file) => /compaction|\/forgetting(-config)?[._]|\/playground|agent_memory_widgets|\/elements[-_]/.test(file)), comparison.join(", "));
  // The own-conversation panel's code loads only when needed; so do the knobs' inputs and the
  // code that applies a setting and replays (settings.js).
  assert.ok(!compaction.some((file) => /\/own-|\/settings-/.test(file)), compaction.join(", "));
  // Guided mode's code loads only on a page with a guided widget: the index page's first two.
  for (const page of pages) assert.equal(page.rows.some((row) => /\/guide-/.test(row.file)), page.name === "www/index.html: all four", page.name);
  // Not a file of its own, nor merged into one a page loads: the knobs' button is not in them.
  for (const page of pages) {
    const code = page.rows.filter((row) => row.file.endsWith(".js"));
    assert.ok(!code.some((row) => /\/settings-/.test(row.file) || readFileSync(join(ROOT, row.file), "utf8").includes("Seed values")),
      `${page.name}: ${code.map((row) => row.file).join(", ")}`);
  }
});

test("coresFor loads one core per family only when that downloads less", () => {
  const names = Object.keys(CORES);
  // Made-up weights: every core 10, but those named here.
  const weights = (given) => names.map((name) => given[name] ?? 10);
  const light = weights({ compaction: 3, forgetting: 3, elements: 20 });
  assert.deepEqual(coresFor(["compaction", "forgetting"], light), ["compaction", "forgetting"]);
  // Two elements of one family, one with settings of its own: that family's one core serves both.
  assert.deepEqual(coresFor(["compaction", "compaction-config", "forgetting"], weights({ "compaction-config": 4, forgetting: 3, agent_memory_widgets: 20 })),
    ["compaction-config", "forgetting"]);
  assert.deepEqual(coresFor(["compaction", "forgetting"], weights({ compaction: 10, forgetting: 10, elements: 20 })), ["elements"], "a tie: one wasm compiles");
  assert.deepEqual(coresFor(["compaction", "forgetting"], null), ["elements"], "no weights (www/ unbuilt): the one core");
  assert.deepEqual(coresFor(["compaction", "playground"], light), ["playground"], "one family's core serves both");
  assert.deepEqual(coresFor(["forgetting"], light), ["forgetting"]);
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

test("the light embed, dist/agent-memory-widgets/, is what the pages measured above download", () => {
  // Its files are site/'s, less the comment that points to a source map it does not ship.
  const read = (file) => readFileSync(join(ROOT, file));
  for (const page of pages) {
    for (const { file } of page.rows.filter((row) => !row.file.endsWith(".css"))) {
      const copy = file.replace(/^site\//, "dist/agent-memory-widgets/");
      const expected = file.endsWith(".js") ? read(file).toString().replace(/\n\/\/# sourceMappingURL=\S+\n?$/, "\n") : read(file);
      assert.ok(read(copy).equals(Buffer.from(expected)), `${copy} is not ${file}`);
    }
  }
});

test("the README states each embed's size as the budget this test holds it to", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8").replace(/\s+/g, " ");
  const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;
  const budget = (name) => pages.find((page) => page.name === name).budget;
  const stated = [
    ["`<memory-compaction>` downloads", budget("only <memory-compaction>")],
    ["one with all four elements", budget("www/index.html: all four")],
    ["a page with all four downloads", budget("www/index.html: all four")],
    ["`<memory-compaction budget=\"60\">` downloads", budget("only <memory-compaction> with settings of its own")],
    ["all four elements and their styles inside,", dist.budget],
  ];
  for (const [context, bytes] of stated) {
    const at = readme.indexOf(context);
    assert.ok(at >= 0, `README.md no longer says "${context}"`);
    // The first size after the words is theirs.
    const size = /at most (\d+\.\d KB)/.exec(readme.slice(at, at + 200));
    assert.equal(size?.[1], kb(bytes), `README.md, after "${context}": ${readme.slice(at, at + 200)}`);
  }
  // A size stated as a size, not a budget: as measured now (`make bench-sizes` writes it).
  const { least, most } = seedSavings(pages);
  assert.deepEqual(SEED_SAVINGS.exec(readme)?.slice(1).map(Number), [least, most], "README.md, what the seed's core saves: run make bench-sizes");
  // The package's own README (npm/README.md, in the package as README.md) states one size, the
  // same, and no other.
  const npm = readFileSync(join(ROOT, "npm/README.md"), "utf8").replace(/\s+/g, " ");
  assert.deepEqual([...npm.matchAll(/(\d+(?:\.\d+)?) KB/g)].map((m) => m[0]), [kb(budget("only <memory-compaction>"))], "npm/README.md's sizes");
  assert.match(npm, new RegExp(`only \`<memory-compaction>\` downloads at most ${kb(budget("only <memory-compaction>"))}`));
});
