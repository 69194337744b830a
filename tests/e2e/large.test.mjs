// A real session at real size: Claude Code logs of megabytes, written on the fly (biglog.mjs,
// never committed), picked in the playground's import panel under index.html's strict CSP. A
// 21 MB one is read and replayed in a Web Worker behind a progress bar within 5 s, no task blocks
// the page for more than 200 ms, every compaction of its own is marked and the tokens it sent are
// drawn, and the page's heap stays under 300 MB; a 2 MB one, a few hundred turns, for the rest: the
// long session's slider steps a tenth with Page Up and Page Down, its long lists come in pages,
// the newest of two quick picks wins, settings replay in the worker once, and the worker ends with
// the element.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mkdir } from "node:fs/promises";
import { useBrowser, open, axe, ROOT, SCREENSHOTS } from "./harness.mjs";
import { claudeCodeLog } from "./biglog.mjs";

const PAGE = "tests/e2e/pages/large.html";
/**
 * The logs: one of 21 MB, the size of the public report's session of 12,675 records, for the
 * import's limits; one of 2 MB, a few hundred turns, for the rest; one of 1 MB, of 61 to 282
 * turns (a sparkline then draws each turn, not a bar a pixel), for a second pick and the wording.
 */
const BIG_BYTES = 21_000_000;
const BYTES = 2_000_000;
const SMALL_BYTES = 1_000_000;
const env = useBrowser(ROOT);
const dir = mkdtempSync(join(tmpdir(), "amw-large-"));
const file = join(dir, "session.jsonl");
const bigFile = join(dir, "big.jsonl");
const smallFile = join(dir, "small.jsonl");
let log;
let bigLog;

before(async () => {
  await mkdir(SCREENSHOTS, { recursive: true });
  log = claudeCodeLog(BYTES);
  writeFileSync(file, log.text);
  writeFileSync(smallFile, claudeCodeLog(SMALL_BYTES, { seed: 7 }).text);
  bigLog = claudeCodeLog(BIG_BYTES);
  writeFileSync(bigFile, bigLog.text);
  // The logs compact, so that the checks of their own compactions below are never vacuous.
  assert.ok(log.compactions.length > 0 && bigLog.compactions.length > 5, `${log.compactions.length} and ${bigLog.compactions.length} compactions`);
});
after(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Opens the page with three recorders installed before any script: the long tasks (a
 * PerformanceObserver, each with its start), the import's progress bar, looked for at every
 * frame, and every call the page makes of its worker (`window.calls`: op, and whether answered).
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
    window.calls = [];
    const Base = window.Worker;
    window.Worker = class extends Base {
      constructor(...args) {
        super(...args);
        this.addEventListener("message", ({ data }) => {
          if (!("result" in data || "error" in data)) return;
          const call = window.calls.find((c) => c.id === data.id);
          if (call) Object.assign(call, { answered: true, error: data.error ?? null, superseded: data.result?.superseded === true });
        });
      }
      postMessage(message, ...rest) {
        if (message?.op) window.calls.push({ id: message.id, op: message.op, answered: false });
        return super.postMessage(message, ...rest);
      }
    };
  });
  await opened.page.goto(env.server.url + PAGE);
  const playground = opened.page.locator("memory-playground");
  await playground.locator(".policies tbody tr").first().waitFor();
  return { ...opened, playground };
}

/** Opens the import panel and picks `picked`; resolves to when it was picked (the page's clock). */
async function choose(page, playground, picked) {
  if (!(await playground.locator("details.own").evaluate((el) => el.open))) await playground.locator("details.own > summary").click();
  const chooser = playground.getByLabel("Or choose a file");
  await chooser.waitFor();
  const start = await page.evaluate(() => performance.now());
  await chooser.setInputFiles(picked);
  return start;
}

/** Waits until the status says the import; resolves to the milliseconds since `start`. */
async function imported(page, start) {
  await page.waitForFunction(() => /^Imported/.test(document.querySelector("memory-playground").shadowRoot.querySelector("[role=status]").textContent), null, { timeout: 30_000 });
  return (await page.evaluate(() => performance.now())) - start;
}

/** Picks a log in the import panel; resolves to `{ ms, start }`: how long until the import was said. */
async function pick(page, playground, picked = file) {
  const start = await choose(page, playground, picked);
  return { ms: await imported(page, start), start };
}

/** Waits until every call made of the worker is answered, and none follows for a while. */
async function settled(page) {
  for (let quiet = 0; quiet < 2; quiet++) {
    await page.waitForFunction(() => window.calls.every((call) => call.answered), null, { timeout: 30_000 });
    await page.waitForTimeout(300);
  }
}

/**
 * The long tasks that started at or after `start`, in ms. An entry reaches the observer after its
 * task: two frames and a pause let the last one arrive.
 */
async function longTasksSince(page, start) {
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 100)))));
  return page.evaluate((start) => window.longTasks.filter((task) => task.start >= start).map((task) => Math.round(task.duration)), start);
}

const state = (playground) => playground.evaluate((el) => el.model.state());
const errorShown = (playground) => playground.evaluate((el) => (el.errorBox.hidden ? null : el.errorBox.textContent));

test("a 21 MB Claude Code log picked in the panel is read and replayed in a worker, with a progress bar, never a long task over 200 ms, on screen within 5 s", async () => {
  // The time and the long tasks are wall-clock on a machine shared with other work: a run that
  // misses either is tried once more on a fresh page, and the second must meet both.
  let opened;
  let measured;
  for (let attempt = 1; attempt <= 2; attempt++) {
    opened = await openLarge();
    const { ms, start } = await pick(opened.page, opened.playground, bigFile);
    await opened.page.waitForFunction(() => /^After all [\d,]+ turns, /.test(document.querySelector("memory-playground").shadowRoot.querySelector(".result").textContent), null, { timeout: 30_000 });
    measured = { ms, long: await longTasksSince(opened.page, start) };
    if (ms < 5000 && measured.long.every((duration) => duration <= 200)) break;
    if (attempt === 1) {
      console.log(`# first attempt: on screen after ${Math.round(ms)} ms, long tasks ${measured.long.join(", ")} ms; trying again`);
      await opened.context.close();
    }
  }
  const { page, problems, playground } = opened;
  assert.ok(measured.ms < 5000, `on screen ${Math.round(measured.ms)} ms after the file was picked`);
  assert.ok(measured.long.every((duration) => duration <= 200), `long tasks: ${measured.long.join(", ")} ms`);
  const now = await state(playground);
  assert.ok(now.totalTurns > 3000, `${now.totalTurns} turns`);
  // The replay is the worker's: the element's model is its stand-in, and no wasm call blocked.
  assert.equal(await playground.evaluate((el) => Boolean(el.remote?.link) && "final" in el.model), true);
  // The bar was shown while the import ran, and is gone once it is done.
  const seen = await page.evaluate(() => window.progressSeen);
  assert.ok(seen.length > 0, "the progress bar never showed");
  assert.equal(await playground.getByRole("progressbar", { name: "Import progress" }).isHidden(), true);
  assert.match(await playground.getByRole("status").textContent(), new RegExp(`^Imported ${now.totalTurns.toLocaleString("en-US")} turns from a Claude Code session`));
  // The log's own compactions, as the core reads them, each marked on the log's curve, and the
  // tokens it sent.
  const real = await playground.evaluate((el) => ({ compactions: el.realLog.compactions.length, sent: el.realLog.sentTokens.length }));
  assert.equal(real.compactions, bigLog.compactions.length);
  assert.ok(real.sent > 1000, `${real.sent} turns with the tokens sent`);
  assert.equal(await playground.locator("tr.real-log .log-mark").count(), real.compactions);
  // At turn 0 the whole curve is the future, drawn faded: a bar a pixel over the plot.
  const bars = await playground.locator("tr.real-log svg path.future").getAttribute("d");
  assert.ok(bars.split("M").length > 250, `the tokens sent drawn in ${bars.split("M").length - 1} bars`);
  // The page's memory after the import, garbage collected: the JavaScript heaps of the page and
  // its worker (which holds the turns and the seven replays), and the wasm memory of each core.
  const heap = await heapNow(page);
  assert.ok(heap.worker.wasm > 0, `the worker's core holds no wasm memory: ${JSON.stringify(heap)}`);
  assert.ok(heap.total < 300_000_000, `memory ${JSON.stringify(heap)}`);
  console.log(`# 21 MB log: ${now.totalTurns} turns on screen after ${Math.round(measured.ms)} ms; longest task ${Math.max(0, ...measured.long)} ms; memory ${JSON.stringify(heap)}`);
  assert.deepEqual(problems, []);
  assert.deepEqual(await axe(page), []);
});

/**
 * The memory a realm holds, in bytes, after a garbage collection: its JavaScript heap (the
 * protocol's Runtime.getHeapUsage) and the wasm memories in it (found with Runtime.queryObjects,
 * each a WebAssembly.Memory whose buffer lies outside that heap). `send(method, params)` asks the
 * realm's DevTools session.
 */
async function realmMemory(send) {
  await send("HeapProfiler.collectGarbage");
  const { usedSize } = await send("Runtime.getHeapUsage");
  const { result: prototype } = await send("Runtime.evaluate", { expression: "WebAssembly.Memory.prototype" });
  const { objects } = await send("Runtime.queryObjects", { prototypeObjectId: prototype.objectId });
  const { result } = await send("Runtime.callFunctionOn", {
    objectId: objects.objectId, returnByValue: true,
    functionDeclaration: "function () { return this.reduce((sum, memory) => sum + memory.buffer.byteLength, 0); }",
  });
  return { heap: usedSize, wasm: result.value };
}

/**
 * The page's memory: its main thread's and its import worker's (which holds the turns and the
 * seven replays), each as realmMemory reads it, and their total.
 */
async function heapNow(page) {
  const cdp = await page.context().newCDPSession(page);
  const main = await realmMemory((method, params) => cdp.send(method, params));
  // The worker is a target of its own: attached through the page's session, and asked in
  // messages to it.
  const { targetInfos } = await cdp.send("Target.getTargets");
  const target = targetInfos.find((info) => info.type === "worker" && info.url.includes("import-worker"));
  assert.ok(target, "the import's worker is running");
  const { sessionId } = await cdp.send("Target.attachToTarget", { targetId: target.targetId, flatten: false });
  const waiting = new Map();
  let next = 0;
  cdp.on("Target.receivedMessageFromTarget", (event) => {
    if (event.sessionId !== sessionId) return;
    const message = JSON.parse(event.message);
    const done = waiting.get(message.id);
    if (!done) return;
    waiting.delete(message.id);
    done(message);
  });
  const ask = async (method, params = {}) => {
    const id = ++next;
    const answer = new Promise((done) => waiting.set(id, done));
    await cdp.send("Target.sendMessageToTarget", { sessionId, message: JSON.stringify({ id, method, params }) });
    const message = await answer;
    if (message.error) throw new Error(`${method}: ${message.error.message}`);
    return message.result;
  };
  const worker = await realmMemory(ask);
  await cdp.detach();
  const total = main.heap + main.wasm + worker.heap + worker.wasm;
  return { page: main, worker, total };
}

test("a 2 MB log's own compactions, each marked on its curve", async () => {
  const { page, problems, playground } = await openLarge();
  await pick(page, playground);
  const real = await playground.evaluate((el) => el.realLog.compactions.length);
  assert.equal(real, log.compactions.length);
  assert.equal(await playground.locator("tr.real-log .log-mark").count(), real);
  assert.deepEqual(problems, []);
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
  assert.match(await row.getByRole("img").getAttribute("aria-label"), /^a Claude Code session \(JSONL\), as its log records it: the tokens sent each turn, \d+ turns with a count\. Budget 200,000\.$/);
  assert.match(await row.textContent(), /It compacted 1 time \(dotted\): after turn 100 at 155,250 tokens\. With compact at 83% of 200,000, the trigger is 166,000 tokens\./);
  // Before turn 100 no compaction of its own is counted, and its mark is faded; from turn 100,
  // the turn it came after, it is counted and its mark drawn in full, at both together.
  assert.equal((await row.locator("td.compactions").textContent()).trim(), "0");
  assert.equal(await row.locator(".log-mark.future-mark").count(), 1);
  for (const [turn, count, faded] of [[99, "0", 1], [100, "1", 0], [150, "1", 0]]) {
    await playground.evaluate((el, turn) => el.goTo(turn), turn);
    await page.waitForFunction((turn) => document.querySelector("memory-playground").model.turn === turn, turn);
    await page.waitForFunction(([turn]) => document.querySelector("memory-playground").shadowRoot.querySelector("#turn").value === String(turn), [turn]);
    assert.equal((await playground.locator("tr.real-log td.compactions").textContent()).trim(), count, `turn ${turn}`);
    assert.equal(await playground.locator("tr.real-log .log-mark.future-mark").count(), faded, `turn ${turn}`);
  }
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
  // Two presses in one task, while the worker has not answered the first: each counts.
  await slider.evaluate((input) => {
    for (let i = 0; i < 2; i++) input.dispatchEvent(new KeyboardEvent("keydown", { key: "PageUp", bubbles: true, cancelable: true }));
  });
  await page.waitForFunction((turn) => document.querySelector("memory-playground").model.turn === turn, 2 * tenth);
  await settled(page);
  assert.equal((await state(playground)).turn, 2 * tenth);
  // So do two clicks of Forward one turn, and of Back one turn.
  for (const [name, turn] of [["Forward one turn", 2 * tenth + 2], ["Back one turn", 2 * tenth]]) {
    await playground.getByRole("button", { name }).evaluate((button) => {
      button.click();
      button.click();
    });
    await page.waitForFunction((turn) => document.querySelector("memory-playground").model.turn === turn, turn);
    await settled(page);
    assert.equal((await state(playground)).turn, turn);
  }
  await playground.evaluate((el) => el.goTo(10));
  await page.waitForFunction(() => document.querySelector("memory-playground").model.turn === 10);
  // The numbers behind the sparklines: fifty turns a page.
  await playground.getByText("The sparklines as numbers").click();
  const numbers = playground.locator("table.data");
  assert.equal(await numbers.locator("thead th").count(), 51);
  const pager = playground.locator("details:has(table.data) .pager");
  await pager.getByRole("button", { name: "Later turns" }).click();
  assert.equal(await numbers.locator("thead th").nth(1).textContent(), "turn 51");
  assert.match(await pager.textContent(), new RegExp(`turns 51 to 100 of ${total.toLocaleString("en-US")}`));
  // The panel's list of turns and their kinds: fifty a page too, each painted as soon as it is
  // laid out (no content-visibility: auto, which left the list blank in a screenshot).
  const kinds = playground.locator(".own-kinds > li");
  assert.equal(await kinds.count(), 50);
  assert.deepEqual(await kinds.evaluateAll((items) => [...new Set(items.map((li) => getComputedStyle(li).contentVisibility))]), ["visible"]);
  await playground.locator(".own-kinds + .pager").getByRole("button", { name: "Later turns" }).click();
  assert.equal(await kinds.first().getByRole("combobox").getAttribute("id"), "kind-51");
  // Each policy's sparkline is drawn at most a bar a pixel, not a point a turn, and says so.
  const spark = playground.locator("svg.spark.long").first();
  const circles = await spark.evaluate((svg) => svg.querySelectorAll("circle").length);
  assert.ok(circles <= 1, `${circles} circles`);
  assert.match(await spark.getAttribute("aria-label"), /each pixel the lowest and highest window of its turns/);
  assert.match(await playground.locator(".spark-key").textContent(), /^Each pixel a bar/);
  assert.deepEqual(problems, []);
});

test("of two files picked in quick succession the later one is played, and its replay stays the worker's to change", async () => {
  const { page, problems, playground } = await openLarge();
  // The 21 MB log, then at once a small one: the small one is read first, and the large one,
  // read after it, must not take its place (nor drop the small one's turns in the worker).
  await choose(page, playground, bigFile);
  const start = await choose(page, playground, smallFile);
  await imported(page, start);
  await settled(page);
  const turns = await playground.evaluate((el) => el.conversation.length);
  assert.ok(turns > 60 && turns < 283, `${turns} turns: the small log's`);
  assert.equal((await state(playground)).totalTurns, turns);
  assert.match(await playground.getByRole("status").textContent(), new RegExp(`^Imported ${turns} turns`));
  assert.equal(await page.evaluate(() => window.calls.filter((call) => call.op === "import" && !call.superseded).length), 1);
  // A knob after it replays the small log's turns in the worker.
  const error = await playground.evaluate((el) => el.reconfigure(() => el.setAttribute("budget", "3000"), "Budget 3000"));
  assert.equal(error, null);
  assert.equal((await state(playground)).budget, 3000);
  assert.equal(await errorShown(playground), null);
  // 61 to 282 turns: each turn has a pixel of its own, and the words say a point a turn.
  await playground.evaluate((el) => el.goTo(10));
  await page.waitForFunction(() => document.querySelector("memory-playground").model.turn === 10);
  const spark = playground.locator("svg.spark.long").first();
  assert.doesNotMatch(await spark.getAttribute("aria-label"), /each pixel/);
  assert.match(await spark.getAttribute("aria-label"), /a point a turn/);
  assert.match(await playground.locator(".spark-key").textContent(), /^Line: the window after each step/);
  assert.deepEqual(problems, []);
});

test("an attribute set on the element replays in the worker once, said as progress, and a bad one is said once as an error", async () => {
  const { page, problems, playground } = await openLarge();
  await pick(page, playground);
  await settled(page);
  const replays = () => page.evaluate(() => window.calls.filter((call) => call.op === "playground").length);
  const before = await replays();
  // What the status line says and whether the error box shows, at every change, from here on.
  await playground.evaluate((el) => {
    window.seen = { status: [], errors: [] };
    new MutationObserver(() => window.seen.status.push(el.status.textContent)).observe(el.status, { childList: true, characterData: true, subtree: true });
    new MutationObserver(() => el.errorBox.hidden || window.seen.errors.push(el.errorBox.textContent)).observe(el.errorBox, { attributes: true, childList: true, characterData: true, subtree: true });
    el.setAttribute("budget", "5000");
  });
  await page.waitForFunction(() => document.querySelector("memory-playground").model.state().budget === 5000);
  await settled(page);
  assert.equal(await replays(), before + 1);
  const seen = await page.evaluate(() => window.seen);
  assert.deepEqual(seen.errors, []);
  assert.ok(seen.status.includes("Replaying the seven policies\u2026"), seen.status.join(" | "));
  assert.match(await playground.getByRole("status").textContent(), /^budget changed\. Every policy replayed to turn 0 \(budget 5,000/);
  // A budget the core refuses: said once, and not asked again and again; the model stays.
  await playground.evaluate((el) => el.setAttribute("budget", "0"));
  await page.waitForFunction(() => !document.querySelector("memory-playground").errorBox.hidden);
  await settled(page);
  const asked = await replays();
  await page.waitForTimeout(1000);
  assert.equal(await replays(), asked);
  assert.ok(asked <= before + 2, `${asked - before} replays asked`);
  const errors = await page.evaluate(() => window.seen.errors);
  assert.equal(errors.length, 1, errors.join(" | "));
  assert.match(errors[0], /budget/);
  assert.equal((await state(playground)).budget, 5000);
  assert.deepEqual(problems, []);
});

test("two replays prepared before either is shown never free the one on screen", async () => {
  const { page, problems, playground } = await openLarge();
  await pick(page, playground);
  await settled(page);
  for (const budget of ["1000", "2000"]) {
    assert.equal(await playground.evaluate((el, budget) => el.prepareModel(() => el.setAttribute("budget", budget), 0), budget), null);
  }
  await playground.evaluate((el) => el.goTo(50));
  await page.waitForFunction(() => document.querySelector("memory-playground").model.turn === 50);
  await settled(page);
  assert.equal(await errorShown(playground), null);
  assert.equal((await state(playground)).turn, 50);
  assert.deepEqual(problems, []);
});

test("the import's worker ends when its element leaves the page", async () => {
  const { page, problems, playground } = await openLarge();
  const started = page.waitForEvent("worker");
  await pick(page, playground);
  const worker = await started;
  const ended = new Promise((done) => worker.once("close", done));
  await playground.evaluate((el) => el.remove());
  await Promise.race([ended, new Promise((_, fail) => setTimeout(() => fail(new Error("the worker still runs")), 5000))]);
  assert.deepEqual(problems, []);
});

test("at 390 px, an imported log's charts keep their axis labels whole, and the policies' rows are not flattened by the log's own", async () => {
  const { page, problems, playground } = await openLarge({ width: 390, height: 900 });
  // The top of each chart's axis, in the chart's own units: it starts inside the chart (a
  // 13-unit "149K" or "8400" at x = 27 was cut at its left).
  const cut = () => playground.locator("svg.spark").evaluateAll((svgs) => svgs
    .map((svg) => svg.querySelector("text.tick"))
    .filter((tick) => tick.getBBox().x < 0)
    .map((tick) => tick.textContent));
  await playground.evaluate((el) => el.reconfigure(() => el.setAttribute("budget", "8000"), "Budget 8000"));
  await playground.evaluate((el) => el.goTo(10));
  assert.deepEqual(await cut(), []);
  await playground.evaluate((el) => el.reconfigure(() => el.setAttribute("budget", "40"), "Budget 40"));
  await pick(page, playground, smallFile);
  await playground.evaluate((el) => el.goTo(40));
  await page.waitForFunction(() => document.querySelector("memory-playground").model.turn === 40);
  await playground.locator("tr.real-log").waitFor();
  assert.deepEqual(await cut(), []);
  // The policies share a scale a little over their highest peak; the log's row, which reaches
  // Claude Code's 155,000 tokens, has its own.
  const top = (label) => Number(/y axis 0 to ([\d,]+) tokens/.exec(label)[1].replace(/,/g, ""));
  const policies = await playground.locator("tbody tr:not(.real-log) svg.spark").evaluateAll((svgs) => svgs.map((svg) => svg.getAttribute("aria-label")));
  const highestPeak = await playground.evaluate((el) => Math.max(el.model.state().budget, ...el.model.runs.flatMap((run) => run.peaks)));
  for (const label of policies) assert.equal(top(label), Math.max(10, Math.ceil((highestPeak * 1.05) / 10) * 10), label);
  const logTop = await playground.locator("tr.real-log text.tick").first().textContent();
  assert.match(logTop, /^1\d\dK$/);
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth), 0);
  await playground.locator("tbody tr").first().screenshot({ path: join(SCREENSHOTS, "large-row-390.png") });
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
