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

export const ROOT = resolve(import.meta.dirname, "..");

/**
 * Each page kind: what its elements need of a core (their families, and a custom scenario:
 * www/cores.js), the goal (issue 11) and the budget the size test enforces,
 * in gzip bytes. A budget is today's size plus a little: a guard against regressions until the
 * lean core (BENCHMARKS.md: what stands between today and each goal) brings it to the goal.
 * Issue 14 raised three on purpose: the playground's seventh policy and its compact-at knob
 * (+1.7 KB), and the fourth element on the index page and in the bundle (+12 and +9 KB); a page
 * without <memory-forgetting-playground> does not load it. Issue 13 raised them again, for a
 * reader's own conversation: the import and the summary rule in the compaction cores (+4.5 KB
 * of wasm on the compaction and playground pages), its panel (own.js, +2.1 KB, only on those
 * pages) and links (+1.5 KB in the code every element shares), then the review's fixes (links
 * checked before they apply, loads that overtake each other, src= redirects and a capped body:
 * +0.6 KB). Issue 11 then lowered them: the own-conversation panel and the import core, and
 * links, load when a reader first uses them (-6.5 KB on the compaction page, -6.2 on the
 * playground's, -0.7 to -2.2 on the others). The bundle holds everything anyway and rose by 0.4
 * KB: the opening state the compaction element paints before its core is in, and esbuild's
 * wrappers for the modules the site loads on demand. Then purpose-built collections and plain
 * loops in the core lowered them again (the store's hash index, the window's queue, plain loops
 * in the scenario's checks and the snapshots: -1.2 to -2.7 KB a page, -4.8 on the index page,
 * -5.3 on the bundle). Snapshots built by our own serializer on serde-wasm-bindgen's primitives
 * (src/wasm/snapshot.rs), without its HashMap of field names, lowered them by 1.3 to 1.8 KB,
 * short import names (tools/minify-names.mjs) by 0.7 to 1.0 KB, and snapshot errors kept as
 * Rust text (no serde-wasm-bindgen error read through JS) by 0.4 to 0.6 KB; the compaction
 * elements' model reader out of the code every element shares (www/session.js) took 0.35 KB
 * off the forgetting pages, and the capped stream reader (www/streams.js, for links and src=
 * files) moved to what loads on demand (+0.25 KB there). The index page's core without
 * `importConversation` (the `elements` core; the import core loads when a reader imports, as on
 * every other page) took 3.7 KB off the index page, and emptying the function-table slots of
 * wasm-bindgen's dead closure shims (tools/drop-dead-shims.mjs) 0.2 to 0.9 KB off every page.
 * Snapshots made with wasm-bindgen alone (no serde-wasm-bindgen) took another 0.1 to 0.5 KB off
 * every page. Cores without `core::fmt` (`no_std`, and `text!` for messages) took 2.7 to 3.8 KB
 * off every page. Then the family cores came to play the refund desk only: custom scripts and
 * scenarios, with their checks, are in cores of their own for the elements that have one
 * (www/cores.js), 3.7 KB off the compaction and playground pages, 6 off the forgetting page
 * and 3 off the index page, where a page with a script or scenario of its own weighs what it
 * did. Opening the own-conversation panel now fetches a core that imports and plays a
 * conversation (the Session again, with its script checks and the import: +15 KB on demand), so
 * its budget rose on purpose. The element cores' glue without what the elements never run
 * (tools/trim-glue.mjs) took 0.15 KB off every page, and the panel's rules moving into own.js
 * 0.2 KB off the compaction and playground pages (+0.3 KB on demand). Then the family cores took
 * their settings as numbers (`withSettings`), without the reader of options objects: 1.9 to 2.7 KB
 * off every plain page; the bundle's elements now ask which way in their core has (+0.08 KB).
 * `Session.script()` only in the cores that take a script: 0.2 to 0.3 KB off the compaction,
 * playground and index pages. Then the refund-desk cores split words, trim fact texts and test
 * capitals the ASCII way (0.2 to 0.4 KB off the compaction, forgetting and forgetting playground
 * pages), while two things a reader found untrue grew what shows them: a read that finds its fact
 * gone is marked missed (`ReadInfo.missed`, +0.2 KB on the forgetting pages), and a fact no turn
 * has brought up yet is "not yet said" in the playground (+0.35 KB on the pages with a script, +0.6
 * in the bundle, which also has both), so those budgets rose on purpose. Then the loader moved
 * into the code every element shares (www/loader.js: 0.14 KB off every page) and each element's
 * placeholder heights into its own rules (0.11 off each single-element page, 0.09 onto the index
 * page's), while truer words on the pages added some back (0.1 on the compaction pages). Then
 * keeping focus in a widget when an action disables, hides or rebuilds its control (widget.js's
 * keepFocus), neutrals mixed from the colours in use, and the events and announcements a reader
 * found missing added 0.2 to 0.4 KB to every page, so every budget rose by that, on purpose.
 * Then the knobs' inputs and the code that applies a setting and replays (www/settings.js) came
 * to load when a reader first opens the knobs or changes a setting: 0.46 KB off every page, 1.2
 * KB fetched then (so +1.2 on what opening the own-conversation panel fetches, which replays
 * through it), and +0.4 KB in the bundle, for esbuild's wrapper of a module loaded on demand and
 * a review's fixes (a stream change that cannot load its code says so), so its budget rose by that.
 * Adding a typed turn moved from <memory-compaction> into the panel where it is typed (own.js):
 * 0.27 KB off the compaction and index pages, +0.2 KB when the panel opens. A write that repeats
 * an active fact's text now ignores case as Unicode folds it, not only in ASCII letters (SPEC §3),
 * from a table of 206 runs (src/case.rs) in the cores that take custom scenarios: +1.4 KB on a
 * page with a custom scenario and +1.8 KB in the bundle, so those two budgets rose on purpose.
 * A reader's review of the page (the chart's labels, scroll shadows, a policy's window under its
 * table, truer words) added 0.05 to 0.5 KB, 0.5 on the index page, whose budget rose by 0.4.
 */
export const PAGES = [
  { name: "only <memory-compaction>", needs: ["compaction"], goal: 18_000, budget: 28_600 },
  { name: "only <memory-compaction> with a script of its own", needs: ["compaction", "compaction-script"], goal: 18_000, budget: 36_500 },
  { name: "only <memory-forgetting>", needs: ["forgetting"], goal: 18_000, budget: 40_700 },
  { name: "only <memory-forgetting> with a custom scenario", needs: ["forgetting", "forgetting-scenario"], goal: 18_000, budget: 51_000 },
  { name: "only <memory-playground>", needs: ["playground"], goal: 18_000, budget: 39_900 },
  { name: "only <memory-playground> with a script of its own", needs: ["playground", "playground-script"], goal: 18_000, budget: 47_200 },
  { name: "only <memory-forgetting-playground>", needs: ["forgetting-playground"], goal: 18_000, budget: 33_800 },
  { name: "www/index.html: all four", needs: ["compaction", "forgetting", "playground", "forgetting-playground"], page: true, goal: 30_000, budget: 83_100 },
];
/** What opening the own-conversation panel fetches (own.js, settings.js and the core that imports), at most. */
export const ON_DEMAND_BUDGET = 31_600;
/** The one-file bundle, everything inlined. */
export const DIST = { name: "dist/agent-memory-widgets.js", goal: 35_000, budget: 96_800 };

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
  const loaded = new Set(pageFiles(meta, ["compaction"]));
  const byEntry = (entry) => Object.keys(meta.outputs).find((path) => meta.outputs[path].entryPoint === entry);
  const files = [];
  const visit = (path) => {
    if (loaded.has(path)) return;
    loaded.add(path);
    files.push(path);
    for (const { path: next, kind } of meta.outputs[path].imports) if (kind === "import-statement") visit(next);
  };
  visit(byEntry("www/own.js"));
  visit(byEntry("www/settings.js")); // an import plays through it (useConversation); own.js fetches it at once
  visit(byEntry("www/pkg/compaction-own.js"));
  return [...files, "site/pkg/compaction-own_bg.wasm"];
}

/** Every page kind with the files it fetches, their sizes, the bundle, and what loads on demand. */
export function measurePages() {
  const meta = JSON.parse(readFileSync(join(ROOT, "site/meta.json"), "utf8"));
  const pages = PAGES.map((page) => {
    const files = pageFiles(meta, page.needs).filter((file) => page.page || !file.endsWith(".css"));
    return { ...page, ...measureSizes(files) };
  });
  const onDemand = { name: "<memory-compaction>'s own-conversation panel, when a reader first opens it", budget: ON_DEMAND_BUDGET, ...measureSizes(ownPanelFiles(meta)) };
  return { pages, dist: { ...DIST, ...measureSizes([DIST.name]) }, onDemand };
}
