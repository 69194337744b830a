// What each kind of page downloads, raw and gzipped, from site/ (what `make serve` serves) and
// dist/. Shared by the size test (tests/size.test.mjs, part of `make test`) and the benchmark
// report (benches/report.mjs). Run `make build dist` first.
//
// A page's files are found from esbuild's metafile (site/meta.json), following static imports
// from widgets.js and from each element's module, plus the wasm core that www/cores.js picks for
// that page's elements. The page's own HTML is not counted: it is the author's.

import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { join, resolve } from "node:path";
import { pageFiles } from "../tools/build-site.mjs";
import { config, coreFor, own } from "../www/cores.js";

export const ROOT = resolve(import.meta.dirname, "..");

/**
 * Each page kind: what its elements need of a core (www/cores.js: a family, or its `config` for
 * settings of its own), and the budget the size test enforces, in gzip bytes: today's size plus
 * at most 0.5 KB. Why each size is what it is, and what each saving was worth, is in
 * BENCHMARKS.md; a change that moves a size moves its budget here, on purpose.
 */
export const PAGES = [
  { name: "only <memory-compaction>", needs: ["compaction"], budget: 30_600 },
  { name: "only <memory-compaction> with settings of its own", needs: [config("compaction")], budget: 40_500 },
  { name: "only <memory-forgetting>", needs: ["forgetting"], budget: 41_400 },
  { name: "only <memory-forgetting> with settings of its own", needs: [config("forgetting")], budget: 50_200 },
  { name: "only <memory-playground>", needs: ["playground"], budget: 47_400 },
  { name: "only <memory-playground> with settings of its own", needs: [config("playground")], budget: 59_300 },
  { name: "only <memory-forgetting-playground>", needs: ["forgetting-playground"], budget: 36_700 },
  // Two families: one core each (www/cores.js, coresFor), which downloads less than the one
  // that serves both.
  { name: "<memory-compaction> and <memory-forgetting>", needs: ["compaction", "forgetting"], budget: 64_200 },
  // index.html's first two widgets are `guided`: they fetch guide.js too.
  { name: "www/index.html: all four", needs: ["compaction", "forgetting", "playground", "forgetting-playground"], page: true, guided: true, budget: 94_100 },
];
/** What opening the own-conversation panel fetches (own.js, settings.js and the core that imports), at most.
 * Issue 51 moved it +7.5 KB on purpose (52.5 -> 60.0): the session logs read line by line (src/compaction/import/logs.rs:
 * Claude Code's parentUuid chain, compactions, tokens sent, Gemini CLI), only in the cores that import; issue 54's
 * split of the knobs' inputs out of settings.js took 1.3 KB off. */
export const ON_DEMAND_BUDGET = 58_700;
/** The one-file bundle, everything inlined (+7.4 KB for issue 51's session logs, as above). */
export const DIST = { name: "dist/agent-memory-widgets.js", budget: 142_800 };

/** `{ file, raw, gzip }` for a file (path from the repository root). */
export function measure(file) {
  const bytes = readFileSync(join(ROOT, file));
  return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

/** `{ rows, total }`: the files `files` and their sum. */
export function measureSizes(files) {
  const rows = files.map(measure);
  const total = rows.reduce((sum, row) => ({ raw: sum.raw + row.raw, gzip: sum.gzip + row.gzip }), { raw: 0, gzip: 0 });
  return { rows, total: { file: "total", ...total } };
}

/**
 * What a page with only <memory-compaction> fetches when a reader first opens the panel for their
 * own conversation and imports one: the panel's module (own.js) and what it imports that the page
 * has not loaded, the code that replays into a new conversation (settings.js), and the core that
 * plays and imports a conversation (its glue and wasm).
 */
function ownPanelFiles(meta) {
  const core = coreFor([own("compaction")]);
  // An import plays through settings.js (useConversation); own.js fetches it at once.
  const files = onDemandFiles(meta, pageFiles(meta, ["compaction"]), ["www/own.js", "www/settings.js", `www/pkg/${core}.js`]);
  return [...files, `site/pkg/${core}_bg.wasm`];
}

/** The files that loading the modules `entries` (source paths) fetches beyond `loaded`. */
function onDemandFiles(meta, loaded, entries) {
  const seen = new Set(loaded);
  const files = [];
  const visit = (path) => {
    if (seen.has(path)) return;
    seen.add(path);
    files.push(path);
    for (const { path: next, kind } of meta.outputs[path].imports) if (kind === "import-statement") visit(next);
  };
  for (const entry of entries) {
    const output = Object.keys(meta.outputs).find((path) => meta.outputs[path].entryPoint === entry);
    if (!output) throw new Error(`sizes: no chunk for ${entry}`);
    visit(output);
  }
  return files;
}

/**
 * What a page of one element with the seed's settings saves over one whose element has settings
 * of its own (its core without `withConfig`), each family's, in whole KB: `{ least, most }`. The
 * README states it, as `make bench-sizes` writes it there (benches/report.mjs).
 */
export function seedSavings(pages) {
  const gzip = (name) => pages.find((page) => page.name === name).total.gzip;
  const savings = ["compaction", "forgetting", "playground"]
    .map((family) => gzip(`only <memory-${family}> with settings of its own`) - gzip(`only <memory-${family}>`));
  return { least: Math.round(Math.min(...savings) / 1000), most: Math.round(Math.max(...savings) / 1000) };
}

/** The README's words for seedSavings, which benches/report.mjs writes and the size test reads. */
export const SEED_SAVINGS = /\((\d+) to (\d+) KB gzip lighter\)/;

/** Every page kind with the files it fetches, their sizes, the bundle, and what loads on demand. */
export function measurePages() {
  const meta = JSON.parse(readFileSync(join(ROOT, "site/meta.json"), "utf8"));
  const pages = PAGES.map((page) => {
    const files = pageFiles(meta, page.needs).filter((file) => page.page || !file.endsWith(".css"));
    if (page.guided) files.push(...onDemandFiles(meta, files, ["www/guide.js"]));
    return { ...page, ...measureSizes(files) };
  });
  const onDemand = { name: "<memory-compaction>'s own-conversation panel, when a reader first opens it", budget: ON_DEMAND_BUDGET, ...measureSizes(ownPanelFiles(meta)) };
  return { pages, dist: { ...DIST, ...measureSizes([DIST.name]) }, onDemand };
}
