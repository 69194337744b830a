// How soon a reader sees the compaction meter, next to how soon the same page paints without the
// widgets, in one run (these machines are noisy, so only the ratio within one run means much).
// Prints one JSON object to stdout; progress goes to stderr. Run after `make build`:
//
//   node benches/first-meter.mjs
//
// Both pages are site/index.html, as `make serve` serves it (minified, preload hints); the second
// has its widget scripts and preload hints taken out. Loads alternate (A B B A ...), each in a fresh context,
// and each figure is a median:
//   meterMs     navigation start to the first frame after <memory-compaction>'s meter is in
//               (the frame's start, requestAnimationFrame's time, as Element Timing leaves
//               content in a shadow root out: a little early against paintMs, which is a
//               paint's time)
//   paintMs     navigation start to first contentful paint of the page without the widget scripts
//   pagePaintMs the page with the widgets: navigation start to its first contentful paint
//   meterInMs   the page with the widgets: navigation start to the meter put into the page
//   ratio       meterMs / paintMs (issue 11's goal: at most 1.3)
//   ratioInterval  a 95% interval for ratio: 2,000 resamplings of the pairs (seeded, so the same
//               loads give the same interval), each giving a ratio of medians
//   pairRatios  the quartiles [q1, median, q3] of each pair's own ratio (a load with the widgets
//               over the bare load next to it): how much single pairs spread
//   layoutShift the page's cumulative layout shift until every widget has rendered

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, serve, open, launch } from "../tests/e2e/harness.mjs";

const LOADS = 25;
const log = (...args) => console.error("[first-meter]", ...args);
/** The `q` quantile of `values` (0.5: the median), interpolated between the nearest two. */
const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const below = Math.floor(at);
  return sorted[below] + (sorted[Math.ceil(at)] - sorted[below]) * (at - below);
};
const median = (values) => quantile(values, 0.5);

/**
 * A 95% bootstrap interval for median(meters) / median(paints): the pairs resampled with
 * replacement 2,000 times by a seeded generator (mulberry32), so the same loads give the same
 * interval.
 */
function ratioInterval(meters, paints) {
  let seed = 11;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const ratios = [];
  for (let round = 0; round < 2000; round++) {
    const picks = meters.map(() => Math.floor(random() * meters.length));
    ratios.push(median(picks.map((i) => meters[i])) / median(picks.map((i) => paints[i])));
  }
  return [quantile(ratios, 0.025), quantile(ratios, 0.975)].map((r) => Number(r.toFixed(2)));
}

/** Installed before the page's scripts: records when the meter first reaches the screen. */
function watchMeter() {
  window.__layoutShift = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__layoutShift += entry.value;
  }).observe({ type: "layout-shift", buffered: true });
  const attachShadow = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) {
    const root = attachShadow.call(this, init);
    if (this.localName === "memory-compaction") {
      const observer = new MutationObserver(() => {
        if (window.__meterAt !== undefined || !root.querySelector(".meter-label")) return;
        window.__meterAt = null;
        window.__meterIn = performance.now();
        observer.disconnect();
        // The next frame is the first that can show it.
        requestAnimationFrame(() => (window.__meterAt = performance.now()));
      });
      observer.observe(root, { childList: true, subtree: true });
    }
    return root;
  };
}

async function loadWithWidgets(browser, url) {
  const { page, context, problems } = await open(browser, url);
  await page.addInitScript(watchMeter);
  await page.goto(url);
  await page.waitForFunction(() => typeof window.__meterAt === "number", null, { timeout: 20_000 });
  // Every widget rendered: then the layout has settled.
  await page.waitForFunction(() => ["memory-forgetting", "memory-playground"].every((name) =>
    document.querySelector(name)?.shadowRoot?.querySelector(".content")?.childElementCount), null, { timeout: 20_000 });
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  const result = await page.evaluate(() => ({
    meterAt: window.__meterAt,
    meterIn: window.__meterIn,
    pagePaint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN,
    layoutShift: window.__layoutShift,
  }));
  if (problems.length) throw new Error(`the page reported problems:\n  ${problems.join("\n  ")}`);
  await context.close();
  return result;
}

async function loadWithout(browser, url) {
  const { page, context } = await open(browser, url);
  await page.goto(url);
  const paintAt = await page.evaluate(() => new Promise((done) => {
    new PerformanceObserver((list) => {
      const fcp = list.getEntriesByName("first-contentful-paint")[0];
      if (fcp) done(fcp.startTime);
    }).observe({ type: "paint", buffered: true });
  }));
  await context.close();
  return paintAt;
}

export async function measureFirstMeter() {
  // The same page without its widget scripts and preload hints, next to it in site/.
  const { readFileSync } = await import("node:fs");
  const page = readFileSync(join(ROOT, "site/index.html"), "utf8");
  const bare = page.replace(/^\s*<(script type="module"|link rel="(modulepreload|preload)")[^>]*>(<\/script>)?\n/gm, "");
  if (bare === page || /<script/.test(bare)) throw new Error("could not take the widget scripts out of site/index.html");
  writeFileSync(join(ROOT, "site/index-without-widgets.html"), bare);

  const server = await serve(join(ROOT, "site"));
  const browser = await launch();
  try {
    const meters = [];
    const paints = [];
    const shifts = [];
    const pagePaints = [];
    const meterIns = [];
    // One untimed load of each warms the server's file cache and Chromium's.
    await loadWithWidgets(browser, server.url);
    await loadWithout(browser, `${server.url}index-without-widgets.html`);
    // In turns A B B A ...: whichever load comes first in a pair runs on a slightly quieter
    // machine, and alternating the order cancels that out.
    for (let i = 0; i < LOADS; i++) {
      const withWidgets = async () => {
        const { meterAt, meterIn, pagePaint, layoutShift } = await loadWithWidgets(browser, server.url);
        meters.push(meterAt);
        meterIns.push(meterIn);
        pagePaints.push(pagePaint);
        shifts.push(layoutShift);
      };
      const without = async () => paints.push(await loadWithout(browser, `${server.url}index-without-widgets.html`));
      for (const load of i % 2 ? [without, withWidgets] : [withWidgets, without]) await load();
    }
    log(`meter ${meters.map((ms) => ms.toFixed(0)).join(", ")} ms; bare paint ${paints.map((ms) => ms.toFixed(0)).join(", ")} ms`);
    const meterMs = median(meters);
    const paintMs = median(paints);
    return {
      chromium: browser.version(),
      loads: LOADS,
      meterMs: Number(meterMs.toFixed(1)),
      paintMs: Number(paintMs.toFixed(1)),
      ratio: Number((meterMs / paintMs).toFixed(2)),
      ratioInterval: ratioInterval(meters, paints),
      pairRatios: [0.25, 0.5, 0.75].map((q) => Number(quantile(meters.map((ms, i) => ms / paints[i]), q).toFixed(2))),
      pagePaintMs: Number(median(pagePaints).toFixed(1)),
      meterInMs: Number(median(meterIns).toFixed(1)),
      layoutShift: Number(median(shifts).toFixed(4)),
    };
  } finally {
    await browser.close();
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await measureFirstMeter(), null, 2));
}
