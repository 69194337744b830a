// Lighthouse (mobile preset, Debian's Chromium) on site/index.html served on 127.0.0.1, for
// `make bench`. Lighthouse is pinned and run through `npm exec`, so `make test` never installs
// it; 12.2.3 is the last release that runs on Node 20. Writes target/bench/lighthouse.json:
// the four category scores out of 100, and the ids of the audits that lost points.
//
//   node benches/lighthouse.mjs

import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { readFileSync, writeFileSync, mkdirSync, rmSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, serve } from "../tests/e2e/harness.mjs";

const LIGHTHOUSE = "lighthouse@12.2.3";
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";

// site/ is what `make serve` serves and readers download: the minified build.
const server = await serve(join(ROOT, "site"));
const profile = mkdtempSync(join(tmpdir(), "amw-lighthouse-"));
const raw = join(profile, "report.json");
try {
  const flags = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    `--user-data-dir=${profile}/chrome`,
  ].join(" ");
  // Asynchronously: the page is served by this very process, so its event loop must keep running.
  await promisify(execFile)("npm", [
    "exec", "--yes", `--package=${LIGHTHOUSE}`, "--", "lighthouse", server.url,
    `--chrome-path=${CHROMIUM}`, `--chrome-flags=${flags}`,
    "--only-categories=performance,accessibility,best-practices,seo",
    "--output=json", `--output-path=${raw}`, "--quiet",
  ], { maxBuffer: 64 << 20 });
  const report = JSON.parse(readFileSync(raw, "utf8"));
  const scores = Object.fromEntries(Object.entries(report.categories).map(([id, category]) => [id, Math.round(category.score * 100)]));
  const failing = Object.values(report.audits)
    .filter((audit) => audit.scoreDisplayMode === "binary" && audit.score === 0)
    .map((audit) => audit.id);
  const result = { lighthouse: report.lighthouseVersion, chromium: report.environment?.hostUserAgent ?? "", formFactor: report.configSettings.formFactor, scores, failing };
  mkdirSync(join(ROOT, "target/bench"), { recursive: true });
  writeFileSync(join(ROOT, "target/bench/lighthouse.json"), JSON.stringify(result, null, 2) + "\n");
  console.log(JSON.stringify(result));
} finally {
  rmSync(profile, { recursive: true, force: true });
  await server.close();
}
