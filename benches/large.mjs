// Real sessions at real size, in the browser: a Claude Code log of 1, 7 and 21 MB, written on the
// fly (tests/e2e/biglog.mjs), picked in the playground's import panel of
// tests/e2e/pages/large.html (index.html's CSP), read and replayed in the page's Web Worker.
// benches/browser.mjs calls this as its last step; benches/report.mjs writes the rows. Run alone
// (`node benches/large.mjs > target/bench/large.json`), it prints the rows as JSON, which
// `node benches/report.mjs --real-size` writes into BENCHMARKS.md with benches/import.mjs's.
//
// For each size, in a fresh page of its own:
//   pickToScreenMs  the file picked until the import is said in the status line (read, import,
//                   replay in the worker, and the page drawn)
//   phases          when the progress bar first said each phase, ms after the pick (read,
//                   parse: importConversation, replay: the seven policies, draw)
//   longestTaskMs   the longest task on the page's main thread meanwhile (PerformanceObserver)
//   heapBytes       the page's JS heap after a forced GC, the imported session on screen
//   turns, compactions   what the core read: turns, and the log's own compactions
// and then, on the page's main thread with the element's core, each timed once:
//   parseMs         JSON.parse of each line of the log, what a reader in JS could not do without
//   importMs        importConversation of the whole log
//   replayMs        Playground.withConfig over its turns at a budget of 8,000: all seven policies
//                   replayed to the end

import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, serve, open, launch } from "../tests/e2e/harness.mjs";
import { claudeCodeLog } from "../tests/e2e/biglog.mjs";

export const SIZES_MB = [1, 7, 21];

/** Installed before the page's scripts: long tasks, and the progress bar's text at each frame. */
function recorders() {
  window.longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.longTasks.push(entry.duration);
  }).observe({ type: "longtask", buffered: true });
  window.phases = {};
  const look = () => {
    const text = document.querySelector("memory-playground")?.shadowRoot?.querySelector(".own-progress:not([hidden]) .note")?.textContent;
    const phase = text && (/^Reading the log/.test(text) ? "parse" : /^Reading/.test(text) ? "read" : /^Replaying/.test(text) ? "replay" : /^Drawing/.test(text) ? "draw" : null);
    if (phase && !(phase in window.phases)) window.phases[phase] = performance.now();
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}

/** One size: a fresh page, the log picked, the numbers above. */
async function measureOne(browser, url, file, served) {
  const { page, context, problems } = await open(browser, url);
  try {
    await page.addInitScript(recorders);
    await page.goto(`${url}tests/e2e/pages/large.html`);
    const playground = page.locator("memory-playground");
    await playground.locator(".policies tbody tr").first().waitFor();
    await playground.locator("details.own > summary").click();
    const chooser = playground.getByLabel("Or choose a file");
    await chooser.waitFor();
    const start = await page.evaluate(() => {
      window.longTasks.length = 0;
      window.phases = {};
      return performance.now();
    });
    await chooser.setInputFiles(file);
    const said = await page.waitForFunction(() => {
      const root = document.querySelector("memory-playground").shadowRoot;
      const status = root.querySelector("[role=status]").textContent;
      const error = root.querySelector(".error:not([hidden])")?.textContent;
      return /^Imported/.test(status) ? { at: performance.now() } : error ? { error } : null;
    }, null, { timeout: 60_000, polling: 10 }).then((handle) => handle.jsonValue());
    if (said.error) return { error: said.error };
    const measured = await page.evaluate(({ start }) => {
      const el = document.querySelector("memory-playground");
      const phases = Object.fromEntries(Object.entries(window.phases).map(([phase, at]) => [phase, Math.round(at - start)]));
      return {
        phases,
        longestTaskMs: Math.round(Math.max(0, ...window.longTasks)),
        turns: el.model.state().totalTurns,
        compactions: el.realLog?.compactions?.length ?? null,
        inWorker: Boolean(el.remote?.link) && "final" in el.model,
      };
    }, { start });
    await page.evaluate(() => globalThis.gc?.());
    const heapBytes = await page.evaluate(() => performance.memory?.usedJSHeapSize ?? null);
    const timed = await page.evaluate(async (served) => {
      const el = document.querySelector("memory-playground");
      const text = await (await fetch(served)).text();
      let at = performance.now();
      for (const line of text.split("\n")) if (line) JSON.parse(line);
      const parseMs = performance.now() - at;
      at = performance.now();
      const read = el.core.importConversation(text);
      const importMs = performance.now() - at;
      at = performance.now();
      const playground = el.core.Playground.withConfig({ budget: 8000, script: read.turns });
      const replayMs = performance.now() - at;
      playground.free();
      return { parseMs: Math.round(parseMs), importMs: Math.round(importMs), replayMs: Math.round(replayMs) };
    }, served);
    if (problems.length) throw new Error(`large log: ${problems.join("; ")}`);
    return { pickToScreenMs: Math.round(said.at - start), ...measured, heapBytes, ...timed };
  } finally {
    await context.close();
  }
}

/** Every size in SIZES_MB: `[{ mb, bytes, lines, ...measureOne }]`; `log` takes progress lines. */
export async function measureLarge(browser, log = () => {}) {
  // Under target/, which the server serves too: the page fetches each log to time its parts.
  const dir = join(ROOT, "target/bench/logs");
  mkdirSync(dir, { recursive: true });
  const server = await serve(ROOT);
  try {
    const rows = [];
    for (const mb of SIZES_MB) {
      const made = claudeCodeLog(mb * 1_000_000);
      const file = join(dir, `session-${mb}mb.jsonl`);
      writeFileSync(file, made.text);
      const row = { mb, bytes: made.text.length, lines: made.lines, ...(await measureOne(browser, server.url, file, `${server.url}target/bench/logs/session-${mb}mb.jsonl`)) };
      log(`large log ${mb} MB: ${JSON.stringify(row)}`);
      rows.push(row);
    }
    return rows;
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

// Run alone: the rows, as benches/browser.mjs would measure them (with its browser's flags).
if (import.meta.url === `file://${process.argv[1]}`) {
  const browser = await launch(["--js-flags=--expose-gc", "--enable-precise-memory-info"]);
  try {
    const rows = await measureLarge(browser, (line) => console.error(line));
    console.log(JSON.stringify({ chromium: browser.version(), large: rows }, null, 2));
  } finally {
    await browser.close();
  }
}
