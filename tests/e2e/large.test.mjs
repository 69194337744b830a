// A real session at real size: a Claude Code log of megabytes, written on the fly (biglog.mjs,
// never committed), picked in the playground's import panel under index.html's strict CSP. It is
// read and replayed in a Web Worker behind a progress bar, no task blocks the page for more than
// 200 ms, and the log's own compactions are marked on its curve; the long session's slider steps
// a tenth with Page Up and Page Down, and its long lists come in pages.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mkdir } from "node:fs/promises";
import { useBrowser, open, axe, ROOT, SCREENSHOTS } from "./harness.mjs";
import { claudeCodeLog } from "./biglog.mjs";

const PAGE = "tests/e2e/pages/large.html";
/** The log's size: what the import takes in the page today (ARCHITECTURE.md, src/limits.rs). */
const BYTES = 2_000_000;
const env = useBrowser(ROOT);
const dir = mkdtempSync(join(tmpdir(), "amw-large-"));
const file = join(dir, "session.jsonl");
let log;

before(async () => {
  await mkdir(SCREENSHOTS, { recursive: true });
  log = claudeCodeLog(BYTES);
  writeFileSync(file, log.text);
});
after(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Opens the page with two recorders installed before any script: the long tasks (a
 * PerformanceObserver), and the import's progress bar, looked for at every frame.
 */
async function openLarge(viewport = { width: 1280, height: 900 }) {
  const opened = await open(env.browser, env.server.url, { viewport });
  await opened.page.addInitScript(() => {
    window.longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.longTasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: "longtask", buffered: true });
    window.progressSeen = [];
    const look = () => {
      const bar = document.querySelector("memory-playground")?.shadowRoot?.querySelector("progress");
      if (bar && !bar.closest("[hidden]")) window.progressSeen.push(bar.value);
      requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  });
  await opened.page.goto(env.server.url + PAGE);
  const playground = opened.page.locator("memory-playground");
  await playground.locator(".policies tbody tr").first().waitFor();
  return { ...opened, playground };
}

/** Picks the log in the import panel; resolves to the milliseconds until the import is said. */
async function pick(page, playground) {
  await playground.locator("details.own > summary").click();
  const chooser = playground.getByLabel("Or choose a file");
  await chooser.waitFor();
  const start = await page.evaluate(() => {
    window.longTasks.length = 0;
    return performance.now();
  });
  await chooser.setInputFiles(file);
  await page.waitForFunction(() => /^Imported/.test(document.querySelector("memory-playground").shadowRoot.querySelector("[role=status]").textContent), null, { timeout: 20_000 });
  return (await page.evaluate(() => performance.now())) - start;
}

const state = (playground) => playground.evaluate((el) => el.model.state());

test("a large Claude Code log picked in the panel is read and replayed in a worker, with a progress bar, never a long task over 200 ms", async () => {
  const { page, problems, playground } = await openLarge();
  const ms = await pick(page, playground);
  const now = await state(playground);
  assert.ok(now.totalTurns > 200, `${now.totalTurns} turns`);
  assert.ok(ms < 5000, `on screen ${Math.round(ms)} ms after the file was picked`);
  // The replay is the worker's: the element's model is its stand-in, and no wasm call blocked.
  assert.equal(await playground.evaluate((el) => Boolean(el.remote?.link) && "final" in el.model), true);
  const long = await page.evaluate(() => window.longTasks.map((task) => Math.round(task.duration)));
  assert.ok(long.every((duration) => duration <= 200), `long tasks: ${long.join(", ")} ms`);
  // The bar was shown with its name while the import ran, and is gone once it is done.
  const seen = await page.evaluate(() => window.progressSeen);
  assert.ok(seen.length > 0, "the progress bar never showed");
  assert.equal(await playground.getByRole("progressbar", { name: "Import progress" }).isHidden(), true);
  assert.match(await playground.getByRole("status").textContent(), new RegExp(`^Imported ${now.totalTurns} turns from a Claude Code session`));
  // How each policy ends comes once the worker has played the log to its end.
  await page.waitForFunction(() => /^After all \d+ turns, /.test(document.querySelector("memory-playground").shadowRoot.querySelector(".result").textContent));
  // The log's own compactions, as the core reads them, each marked on the log's curve.
  const real = await playground.evaluate((el) => el.realLog);
  if (real.compactions.length) {
    assert.equal(real.compactions.length, log.compactions.length);
    assert.equal(await playground.locator("tr.real-log .log-mark").count(), real.compactions.length);
  } else {
    assert.equal(await playground.locator("tr.real-log").count(), 0, "a log without compactions or counts draws no curve of its own");
  }
  assert.deepEqual(problems, []);
  assert.deepEqual(await axe(page), []);
});

test("the log's own curve, its compactions marked, beside the policies at the log's window, and its summary beside a policy's", async () => {
  const { page, problems, playground } = await openLarge();
  await pick(page, playground);
  const total = (await state(playground)).totalTurns;
  // The fields of importConversation, made by hand: tokens rising to Claude Code's trigger, a
  // compaction after turn 100, then tokens from where it left them.
  await playground.evaluate((el, total) => {
    const sentTokens = [];
    for (let turn = 2; turn <= total; turn += 2) sentTokens.push({ turn, tokens: turn <= 100 ? 20_000 + turn * 1350 : 18_000 + (turn - 100) * 900 });
    el.realLog = {
      formatName: "a Claude Code session (JSONL)", conversation: el.conversation, sentTokens,
      compactions: [{ turn: 100, trigger: "auto", preTokens: 155_250, postTokens: null, summary: "Summary:\n1. Primary Request and Intent: fix the refund rounding.\n9. Optional Next Step: run the tests." }],
    };
  }, total);
  const error = await playground.evaluate((el) => el.reconfigure(() => {
    el.setAttribute("budget", "200000");
    el.setAttribute("compact-at", "83");
  }, "The log's window"));
  assert.equal(error, null);
  const row = playground.locator("tr.real-log");
  await row.waitFor();
  assert.equal(await row.locator(".log-mark").count(), 1);
  assert.equal(await row.locator(".trigger-line").count(), 1);
  assert.match(await row.getByRole("img").getAttribute("aria-label"), /its own compactions after turn 100 at 155,250 tokens\. Budget 200,000, compact at 83% \(166,000\)\./);
  assert.match(await row.textContent(), /It compacted 1 time \(dotted\): after turn 100 at 155,250 tokens\. With compact at 83% of 200,000, the trigger is 166,000 tokens\./);
  // Before turn 100 no compaction of its own is counted; past it, one, with its summary whole
  // beside the window of the policy opened.
  assert.equal((await row.locator("td.compactions").textContent()).trim(), "0");
  await playground.evaluate((el) => el.goTo(150));
  await page.waitForFunction(() => document.querySelector("memory-playground").model.turn === 150);
  await row.waitFor();
  assert.equal((await playground.locator("tr.real-log td.compactions").textContent()).trim(), "1");
  // What a reader sees: the last policies and the log's own row under them, at both widths.
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await playground.locator("tr.real-log").scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENSHOTS, `large-log-${width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await playground.getByRole("button", { name: "HOT / WARM / COLD" }).click();
  const beside = playground.locator(".real-summaries");
  await beside.waitFor();
  assert.match(await beside.textContent(), /After turn 100: auto, 155,250 tokens/);
  await beside.locator("summary").click();
  assert.match(await beside.locator(".real-summary").textContent(), /9\. Optional Next Step: run the tests\.$/);
  assert.deepEqual(problems, []);
});

test("the turn slider steps a tenth of the session with Page Up and Page Down, and long lists come in pages", async () => {
  const { page, problems, playground } = await openLarge();
  // The refund desk's ten turns: a tenth is one turn.
  const slider = playground.getByRole("slider", { name: "turn" });
  await slider.focus();
  await page.keyboard.press("PageUp");
  assert.equal((await state(playground)).turn, 1);
  await pick(page, playground);
  const total = (await state(playground)).totalTurns;
  const tenth = Math.round(total / 10);
  await slider.focus();
  for (const [key, turn] of [["PageUp", tenth], ["PageUp", 2 * tenth], ["PageDown", tenth], ["PageDown", 0], ["PageDown", 0]]) {
    await page.keyboard.press(key);
    await page.waitForFunction((turn) => document.querySelector("memory-playground").model.turn === turn, turn);
    await page.waitForFunction((turn) => document.querySelector("memory-playground").shadowRoot.querySelector("#turn").value === String(turn), turn);
  }
  // The numbers behind the sparklines: fifty turns a page.
  await playground.getByText("The sparklines as numbers").click();
  const numbers = playground.locator("table.data");
  assert.equal(await numbers.locator("thead th").count(), 51);
  const pager = playground.locator("details:has(table.data) .pager");
  await pager.getByRole("button", { name: "Later turns" }).click();
  assert.equal(await numbers.locator("thead th").nth(1).textContent(), "turn 51");
  assert.match(await pager.textContent(), new RegExp(`turns 51 to 100 of ${total.toLocaleString("en-US")}`));
  // The panel's list of turns and their kinds: fifty a page too.
  const kinds = playground.locator(".own-kinds > li");
  assert.equal(await kinds.count(), 50);
  await playground.locator(".own-kinds + .pager").getByRole("button", { name: "Later turns" }).click();
  assert.equal(await kinds.first().getByRole("combobox").getAttribute("id"), "kind-51");
  // Each policy's sparkline is drawn at most a bar a pixel, not a point a turn.
  const paths = await playground.locator("svg.spark.long").first().evaluate((svg) => svg.querySelectorAll("circle").length);
  assert.ok(paths <= 1, `${paths} circles`);
  assert.deepEqual(problems, []);
});

test("a long session in <memory-compaction>: its transcript and its steps in pages", async () => {
  const { page, problems } = await open(env.browser, env.server.url);
  await page.goto(`${env.server.url}tests/e2e/pages/own.html`);
  const session = page.locator("memory-compaction");
  await session.getByRole("button", { name: "Add next turn" }).waitFor();
  await session.locator("details.own > summary").click();
  await session.getByLabel("Or choose a file").setInputFiles(file);
  await page.waitForFunction(() => /^Imported/.test(document.querySelector("memory-compaction").shadowRoot.querySelector("[role=status]").textContent), null, { timeout: 20_000 });
  const total = (await session.evaluate((el) => el.model.state())).totalTurns;
  assert.ok(total > 60, `${total} turns`);
  await session.evaluate((el, n) => el.model.goTo(n), 100);
  await session.evaluate((el) => el.render(el.model.state()));
  // The transcript of the turns so far: twenty a page, the page with the current turn first.
  const transcript = session.locator(".transcript-list");
  assert.equal(await transcript.locator("> li").count(), 20);
  assert.equal(await transcript.locator("> li").first().getAttribute("data-turn"), "81");
  const pager = session.locator(".transcript-list + .pager");
  assert.match(await pager.textContent(), /turns 81 to 100 of 100/);
  await pager.getByRole("button", { name: "Earlier turns" }).click();
  assert.equal(await transcript.locator("> li").first().getAttribute("data-turn"), "61");
  // The steps: the newest page.
  const steps = session.locator(".log-list");
  assert.equal(await steps.locator("> li").count(), 20);
  assert.match(await session.locator(".log-list + .pager").textContent(), /steps 81 to 100 of 100/);
  assert.deepEqual(problems, []);
});
