// <memory-forgetting-playground>: seven forgetting policies over one stream, in headless Chromium.

import { test } from "node:test";
import assert from "node:assert/strict";
import { open, screenshot, axe, useBrowser } from "./harness.mjs";

const env = useBrowser();

/**
 * The core's own view of the playground at `t`: from the page's wasm module (`elements`), or
 * with settings, from the full core, which every core answers as.
 */
const coreState = (page, t, config = null) => page.evaluate(async ([t, config]) => {
  const core = await import(config ? "./pkg/agent_memory_widgets.js" : "./pkg/elements.js");
  await core.default();
  const { ForgettingPlayground } = core;
  const playground = config ? ForgettingPlayground.withConfig(config) : new ForgettingPlayground();
  playground.setTime(t);
  const state = playground.state();
  playground.free();
  return state;
}, [t, config]);

async function openPlayground(options = {}) {
  const { page, problems } = await open(env.browser, env.server.url, { bypassCSP: true, ...options });
  await page.goto(env.server.url);
  const widget = page.locator("memory-forgetting-playground");
  const rows = widget.getByRole("table", { name: "Needed and there, by policy" }).locator("tbody tr");
  await rows.first().waitFor({ timeout: 5000 });
  return { page, problems, widget, rows };
}

const cellTexts = (rows, selector) => rows.locator(selector).allTextContents();
const hitText = (hits, reads) => (reads === 0 ? "no reads yet" : `${hits} of ${reads} (${Math.round((100 * hits) / reads)}%)`);

test("seven policies over one stream: the slider moves every row, and each row is the core's", async () => {
  const { page, problems, widget, rows } = await openPlayground();
  assert.equal(await rows.count(), 7);
  assert.deepEqual(await rows.locator(".policy-name").allTextContents(),
    ["FIFO", "LRU", "LFU", "Importance only", "Generative Agents", "MemoryBank", "Ours"]);
  assert.match(await widget.locator("p.lede").textContent(),
    /^Seven forgetting policies, one stream \(forty tickets: 340 events, 159 reads\), each holding at most 4 facts\. When a fact was needed, was it still there\?$/);
  const slider = widget.getByRole("slider", { name: "point in the stream" });
  assert.equal(await slider.getAttribute("max"), "239");
  assert.deepEqual(await cellTexts(rows, "td.hits"), Array(7).fill("no reads yet"));

  for (const t of [2, 60, 120, 239]) {
    await slider.fill(String(t));
    const expected = await coreState(page, t);
    assert.deepEqual(await cellTexts(rows, "td.hits"), expected.policies.map((row) => hitText(row.hits, expected.reads)), `t = ${t}`);
    assert.deepEqual(await cellTexts(rows, "td.stale"), expected.policies.map((row) => String(row.stale)), `t = ${t}`);
    assert.equal(await slider.getAttribute("aria-valuetext"),
      `t = ${t} of 239: ${expected.eventsDone} of 340 events, ${expected.reads} of 159 reads`);
  }
  // The README's numbers, at the end: FIFO 81 of 159, ours 46, and ours holds nothing stale.
  const cells = await cellTexts(rows, "td.hits");
  assert.equal(cells[0], "81 of 159 (51%)");
  assert.equal(cells[6], "46 of 159 (29%)");
  assert.equal((await cellTexts(rows, "td.stale"))[6], "0");
  assert.match(await widget.getByRole("status").textContent(), /^t = 239: 159 reads so far; most found by FIFO, LRU, MemoryBank: 81 of 159 \(51%\)\.$/);
  const expected239 = await coreState(page, 239);
  // The result: the leaders and the fresh rows are the core's (`leaders`, `fresh`), named in order.
  assert.equal(await widget.locator("p.result").textContent(), "Over the whole stream, FIFO, LRU and MemoryBank find the most reads, " +
    "81 of 159 (51%); ours finds 46 of 159 (29%); Importance only and Ours hold no stale fact at the end.");
  assert.deepEqual([expected239.leaders, expected239.fresh], [[0, 1, 5], [3, 6]]);

  // The matrix: which facts each policy holds at t = 239, the stale one marked.
  const expected = expected239;
  const matrix = widget.getByRole("table", { name: "Facts each policy holds at t = 239" });
  const held = await matrix.locator("tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)));
  assert.deepEqual(held, expected.facts.map((fact) => expected.policies.map((row) => (row.held.includes(fact.id) ? "\u2713 held" : "\u00b7"))));
  assert.deepEqual(await matrix.locator("tbody th").evaluateAll((ths) => ths.map((th) => th.firstChild.textContent)),
    expected.facts.map((fact) => `\u201c${fact.text}\u201d`));
  // #41.10 a stale fact is named by the text of the fact that replaced it, never by an id.
  const stale = expected.facts.filter((fact) => fact.supersededBy !== null);
  assert.ok(stale.length > 0);
  assert.deepEqual(await matrix.locator("tbody tr.stale th .note").allTextContents(), stale.map((fact) =>
    ` stale: \u201c${expected.facts.find((other) => other.id === fact.supersededBy).text}\u201d replaces it`));
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(problems, []);
});

test("every sparkline has its numbers in a data table", async () => {
  const { page, problems, widget } = await openPlayground();
  await widget.getByRole("slider", { name: "point in the stream" }).fill("100");
  const charts = widget.locator("svg.spark");
  assert.equal(await charts.count(), 7);
  const labels = await charts.evaluateAll((svgs) => svgs.map((svg) => svg.getAttribute("aria-label")));
  const expected = await coreState(page, 100);
  labels.forEach((label, i) => {
    const past = expected.policies[i].series.filter((p) => p.at <= 100);
    assert.equal(label.startsWith(`${expected.policies[i].info.name}: after ${past.length} reads, by t = 100, ${Math.round(past.at(-1).rate * 100)}% found their fact`), true, label);
  });
  await widget.locator("summary", { hasText: "The hit rates as numbers" }).click();
  const table = widget.getByRole("table", { name: /Share of the reads so far that found their fact/ });
  assert.deepEqual(await table.locator("thead th").allTextContents(),
    ["policy", ...[24, 48, 72, 96, 120, 143, 167, 191, 215, 239].map((t) => `t = ${t}`)]);
  const cells = await table.locator("tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)));
  const rateAt = (series, t) => series.filter((p) => p.at <= t).at(-1)?.rate ?? null;
  assert.deepEqual(cells, expected.policies.map((row) => [24, 48, 72, 96, 120, 143, 167, 191, 215, 239]
    .map((t) => `${Math.round(rateAt(row.series, t) * 100)}%`)));
  assert.deepEqual(problems, []);
});

test("the refund desk alone, by its radio button: importance only misses Dana's second read", async () => {
  const { page, problems, widget, rows } = await openPlayground();
  await widget.getByRole("radio", { name: "the refund desk alone" }).check();
  await widget.getByRole("status").filter({ hasText: "Stream: the refund desk alone" }).waitFor({ timeout: 5000 });
  assert.equal(await widget.evaluate((el) => el.getAttribute("stream")), "refund-desk");
  assert.equal(await widget.getByRole("radio", { name: "the refund desk alone" }).isChecked(), true);
  const slider = widget.getByRole("slider", { name: "point in the stream" });
  assert.equal(await slider.getAttribute("max"), "5");
  // Its numbers at each time unit, as the caption says, not tenths rounded to the same time twice.
  await widget.locator("summary", { hasText: "The hit rates as numbers" }).click();
  const data = widget.getByRole("table", { name: "Share of the reads so far that found their fact, at each time unit" });
  assert.deepEqual(await data.locator("thead th").allTextContents(), ["policy", "t = 1", "t = 2", "t = 3", "t = 4", "t = 5"]);
  await slider.fill("5");
  assert.deepEqual(await cellTexts(rows, "td.hits"),
    ["3 of 3 (100%)", "3 of 3 (100%)", "3 of 3 (100%)", "2 of 3 (67%)", "3 of 3 (100%)", "3 of 3 (100%)", "3 of 3 (100%)"]);
  assert.deepEqual(await cellTexts(rows, "td.stale"), ["1", "0", "0", "1", "0", "0", "0"]);
  const expected = await coreState(page, 5, { stream: "refund-desk" });
  assert.deepEqual(expected.policies.map((row) => row.held), [[3, 4, 5, 6], [1, 2, 5, 6], [1, 2, 5, 6], [1, 4, 5, 6], [1, 2, 5, 6], [1, 2, 5, 6], [1, 2, 5, 6]]);
  assert.deepEqual(problems, []);
});

test("the knobs replay every policy at the same point, and a bad value is refused where it was typed", async () => {
  const { page, problems, widget, rows } = await openPlayground();
  await widget.getByRole("slider", { name: "point in the stream" }).fill("150");
  await widget.locator("summary", { hasText: "Knobs" }).click();
  const size = widget.getByRole("spinbutton", { name: "capacity" });
  assert.equal(await size.inputValue(), "4");
  await size.fill("8");
  await size.press("Enter");
  await widget.getByRole("status").filter({ hasText: "replayed" }).waitFor({ timeout: 5000 });
  assert.equal(await widget.getByRole("status").textContent(), "capacity is now 8. Every policy replayed to t = 150 at capacity 8, our half-life 4.");
  const expected = await coreState(page, 150, { capacity: 8 });
  assert.deepEqual(await cellTexts(rows, "td.hits"), expected.policies.map((row) => hitText(row.hits, expected.reads)));
  assert.match(await widget.locator("p.lede").textContent(), /each holding at most 8 facts/);

  const halving = widget.getByRole("spinbutton", { name: "half-life (ours)" });
  await halving.fill("0");
  await halving.press("Enter");
  assert.equal(await halving.getAttribute("aria-invalid"), "true");
  assert.match(await widget.locator("#knob-half-life-error").textContent(), /^Not applied: half-life \(ours\) must be /);
  assert.equal(await widget.evaluate((el) => el.getAttribute("half-life")), null);
  assert.deepEqual(problems, []);
});

test("a bad attribute is explained inside the widget, which keeps working", async () => {
  const { page, widget, rows } = await openPlayground();
  await widget.evaluate((el) => el.setAttribute("stream", "<img src=x onerror=alert(1)>"));
  const alert = widget.getByRole("alert");
  await alert.waitFor({ timeout: 5000 });
  assert.match(await alert.textContent(), /stream/);
  assert.match(await alert.textContent(), /use refund-desk or tickets/);
  assert.equal(await widget.locator("img").count(), 0);
  await widget.getByRole("slider", { name: "point in the stream" }).fill("30");
  assert.equal(await rows.count(), 7);
  await widget.evaluate((el) => el.removeAttribute("stream"));
  await widget.evaluate((el) => (el.capacity = 0));
  assert.match(await alert.textContent(), /capacity="0": capacity must be a whole number of at least 1, got 0/);
  assert.deepEqual(await page.evaluate(() => document.querySelector("memory-forgetting-playground").capacity), 0);
});

test("until its stylesheet arrives, the playground takes no room (no sideways scrolling at 390 px)", async () => {
  // The sources link the sheet in each shadow root, which does not hold back the first paint; the
  // built site's sheets apply at once. Unstyled, the policies' table is about 960 px wide.
  const { page, problems } = await open(env.browser, env.server.url, { bypassCSP: true, viewport: { width: 390, height: 900 } });
  // The page's own <link> in its head asks first; the shadow roots' links after it are held.
  let release;
  const held = new Promise((done) => (release = done));
  let asked = 0;
  await page.route("**/style.css", async (route) => {
    if (asked++ > 0) await held;
    await route.continue();
  });
  await page.goto(env.server.url, { waitUntil: "domcontentloaded" });
  const widget = page.locator("memory-forgetting-playground");
  const table = (options) => widget.getByRole("table", { name: "Needed and there, by policy", ...options });
  const rows = table().locator("tbody tr");
  await table({ includeHidden: true }).locator("tbody tr").first().waitFor({ state: "attached", timeout: 5000 });
  const width = () => page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(await width() <= 390, `page ${await width()} px wide before the stylesheet`);
  assert.equal(await rows.first().isVisible(), false);
  release();
  await rows.first().waitFor({ timeout: 5000 });
  assert.ok(await width() <= 390, `page ${await width()} px wide with the stylesheet`);
  assert.deepEqual(problems, []);
});

for (const width of [390, 1280]) {
  test(`the forgetting playground fits a ${width} px wide page without sideways scrolling`, async () => {
    const { page, problems, widget } = await openPlayground({ viewport: { width, height: 900 } });
    await widget.getByRole("slider", { name: "point in the stream" }).fill("120");
    const sizes = await page.evaluate(() => {
      const el = document.querySelector("memory-forgetting-playground");
      return { page: document.documentElement.scrollWidth, inner: innerWidth, widget: el.scrollWidth, box: el.getBoundingClientRect().right };
    });
    assert.ok(sizes.page <= sizes.inner, `page ${sizes.page} > ${sizes.inner}`);
    assert.ok(sizes.widget <= sizes.inner && sizes.box <= sizes.inner, JSON.stringify(sizes));
    await screenshot(widget, `forgetting-playground-${width}`);
    assert.deepEqual(await axe(page), []);
    assert.deepEqual(problems, []);
  });
}
