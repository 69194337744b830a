// What a page that shows both widgets downloads, raw and gzipped. Shared by the size test
// (tests/size.test.mjs, part of `make test`) and the benchmark report (benches/report.mjs).

import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { join, resolve } from "node:path";

export const ROOT = resolve(import.meta.dirname, "..");

/**
 * The gzip budget for everything the widgets load, in bytes: a guard against regressions, set a
 * little above today's size. The goal is 30 KB; BENCHMARKS.md says what stands in the way.
 * Raised from 100 KB as the playground's policies began to follow their sources (about 5 KB:
 * each rule and citation in the core, sparklines with axes) and the page learned to say exactly
 * what is true (about 6 KB: the chart's key and axes, scheduled events, the knobs' messages).
 * The trust work (input limits, catching JS reads, the glue's free() guard) added about 1.5 KB.
 * Minifying what the browser fetches, the lean core and loading per element (issue 11) are the
 * real fix and will win it back several times over.
 */
export const GZIP_BUDGET = 114_000;

/** The files a page loads for both widgets (not the page's own HTML). */
export const WIDGET_FILES = [
  "www/pkg/agent_memory_widgets_bg.wasm",
  "www/pkg/agent_memory_widgets.js",
  "www/widgets.js",
  "www/style.css",
];

/** `{ file, raw, gzip }` for each file, then the total. */
export function measureSizes(files = WIDGET_FILES) {
  const rows = files.map((file) => {
    const bytes = readFileSync(join(ROOT, file));
    return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  });
  const total = rows.reduce((sum, row) => ({ raw: sum.raw + row.raw, gzip: sum.gzip + row.gzip }), { raw: 0, gzip: 0 });
  return { rows, total: { file: "total", ...total } };
}
