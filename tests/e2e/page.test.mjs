// The page, clicked through in headless Chromium the way a reader would: controls are found by
// their accessible names only.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, serve, open, screenshot, axe, useBrowser } from "./harness.mjs";

const env = useBrowser();

const WAIT = { timeout: 5000 };

/** Waits until `locator`'s text satisfies `predicate`, and returns that text. */
async function waitForText(locator, predicate, what) {
  const deadline = Date.now() + WAIT.timeout;
  let text = "";
  while (Date.now() < deadline) {
    text = (await locator.textContent()) ?? "";
    if (predicate(text)) return text;
    await new Promise((done) => setTimeout(done, 25));
  }
  assert.fail(`timed out waiting for ${what}; last text: ${JSON.stringify(text)}`);
}

/** The refund desk as the page's own wasm module computes it, step by step. */
async function expectedSteps(page) {
  return page.evaluate(async () => {
    const { Session } = await import("./pkg/elements.js");
    const session = new Session();
    const steps = [];
    for (let step; (step = session.addTurn()) !== null; ) steps.push(step);
    session.free();
    return steps;
  });
}

async function openPage(options) {
  const opened = await open(env.browser, env.server.url, options);
  await opened.page.goto(env.server.url);
  await opened.page.locator("memory-compaction .meter-label").waitFor(WAIT);
  await opened.page.locator("memory-forgetting tbody tr").first().waitFor(WAIT);
  return opened;
}

test("Add next turn crosses the budget on turns 4, 6, 8, 9 and 10, and COMPACT brings it back", async () => {
  // Reduced motion: the meter shows each step's final window at once (the crossing animation
  // has its own test in truth.test.mjs).
  const { page, problems } = await openPage({ reducedMotion: "reduce" });
  const widget = page.locator("memory-compaction");
  const add = widget.getByRole("button", { name: "Add next turn" });
  const meter = widget.locator(".meter-label");
  const steps = await expectedSteps(page);
  assert.equal(steps.length, 10);
  assert.match(await meter.textContent(), /live window 0 \/ 40 tokens\s+under budget/);

  const crossedOn = [];
  for (const step of steps) {
    await add.click();
    const text = await meter.textContent();
    // Exactly full is at the budget, not over it and not under it.
    const verdict = step.tokensAfter === 40 ? "at budget" : "under budget";
    assert.match(text, new RegExp(`live window ${step.tokensAfter} / 40 tokens\\s+${verdict}`), `turn ${step.turn}`);
    const note = await widget.locator(".crossing-note").textContent();
    if (step.crossed) {
      crossedOn.push(step.turn);
      assert.match(note, new RegExp(`^Turn ${step.turn} took the window to ${step.peakTokens} tokens, over the budget of 40\\. COMPACT brought it back to ${step.tokensAfter}`));
    }
    const status = await widget.getByRole("status").textContent();
    assert.match(status, new RegExp(`^Turn ${step.turn}: `));
    if (step.crossed) assert.match(status, new RegExp(`over budget at ${step.peakTokens} tokens, compacted to ${step.tokensAfter} of 40 tokens`));
  }
  assert.deepEqual(crossedOn, [4, 6, 8, 9, 10]);
  assert.ok(steps.at(-1).tokensAfter <= 40);
  assert.match(await meter.textContent(), /live window 39 \/ 40 tokens\s+under budget/);
  assert.equal(await widget.locator("meter").evaluate((el) => el.value), 39);

  // The window the model sees after turn 10.
  const hot = await widget.getByRole("region", { name: "hot" }).textContent();
  const warm = await widget.getByRole("region", { name: "warm" }).textContent();
  const cold = await widget.getByRole("region", { name: "cold" }).textContent();
  assert.match(hot, /verbatim turns: each new turn joins them, and a compaction keeps only the last 2 turns/);
  assert.match(warm, /rolling summary of decisions and tool outputs \(and questions\): one line for each older one; chatter is dropped/);
  assert.match(cold, /one lossy line/);
  // The caption's limit is the core's (src/compaction/policy.rs).
  const gistTerms = /pub const GIST_TERMS: usize = (\d+);/.exec(readFileSync(join(ROOT, "src/compaction/policy.rs"), "utf8"))[1];
  assert.match(cold, new RegExp(`it holds at most ${gistTerms} terms, and past that the least recently mentioned fall off`));
  const window = hot + warm + cold;
  for (const name of ["Dana", "ORD-3300", "$180.00", "Globex"]) assert.ok(window.includes(name), name);
  const dropped = await widget.getByRole("region", { name: "dropped" }).locator("s").allTextContents();
  assert.equal(dropped.length, 2);
  for (const text of dropped) assert.ok(!window.includes(text), `dropped chatter still shown: ${text}`);
  const logItems = widget.getByRole("region", { name: "steps" }).locator("li");
  assert.equal(await logItems.count(), 10);
  assert.equal(await logItems.nth(3).locator(".line").textContent(), "turn 4: 41 / 40 over budget → COMPACT → 30 / 40, 1 turn to WARM, 1 dropped; 10 tokens of headroom");
  assert.equal(await logItems.nth(3).locator(".diff").textContent(), "HOT + turn 4 · WARM + turn 2 · dropped turn 1 · tokens 29 → peak 41 → 30");

  // Finished: the button is disabled and says why.
  assert.equal(await add.isDisabled(), true);
  const why = await widget.locator("#done-note").textContent();
  assert.match(why, /script is finished/);
  assert.equal(await add.getAttribute("aria-describedby"), "done-note");
  await screenshot(page, "compaction-after-turn-10");

  await widget.getByRole("button", { name: "Reset" }).click();
  await waitForText(meter, (t) => t.includes("live window 0 / 40 tokens"), "reset");
  assert.equal(await add.isEnabled(), true);
  assert.equal(await widget.getByRole("region", { name: "steps" }).locator("li").count(), 0);
  assert.deepEqual(problems, []);
});

test("the forgetting story works from the keyboard alone", async () => {
  const { page, problems } = await openPage();
  const widget = page.locator("memory-forgetting");
  const slider = widget.getByRole("slider", { name: "time" });
  const rows = widget.getByRole("table", { name: "The store, ranked by score" }).locator("tbody tr");
  const tableText = async () => (await rows.allTextContents()).join("\n");

  assert.equal(await rows.count(), 4);
  await slider.focus();
  const seen = [];
  for (let t = 1; t <= 6; t++) {
    await page.keyboard.press("ArrowRight");
    await waitForText(widget.locator(".t-value"), (text) => text === `t = ${t}`, `t = ${t}`);
    seen[t] = await tableText();
  }
  assert.equal(await slider.inputValue(), "6");
  assert.match(await rows.first().textContent(), /the user is Dana/);
  assert.match(await widget.getByRole("status").textContent(), /“the user is Dana” ranks first/);

  // Fire both write events by keyboard: focus each button and press Enter.
  const refund = widget.getByRole("button", { name: "refund approved: $180.00" });
  const globex = widget.getByRole("button", { name: "Dana asks about the Globex earbuds warranty" });
  await refund.focus();
  await page.keyboard.press("Enter");
  await globex.focus();
  await page.keyboard.press(" ");
  assert.equal(await refund.isDisabled(), true);
  assert.equal(await globex.isDisabled(), true);
  const statuses = await rows.locator("td:last-child").allTextContents();
  assert.equal(statuses.filter((s) => s.startsWith("superseded")).length, 1, statuses.join(" | "));
  assert.equal(statuses.filter((s) => s === "evicted").length, 1, statuses.join(" | "));
  assert.match(await widget.getByRole("status").textContent(), /evicted/);
  await screenshot(page, "forgetting-after-events");

  // Back to t = 3: the store is as it was before either event.
  await slider.focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowLeft");
  await waitForText(widget.locator(".t-value"), (text) => text === "t = 3", "t = 3");
  assert.equal(await tableText(), seen[3]);
  assert.deepEqual(problems, []);
});

test("at t = 0 the Globex question evicts Dana; at t = 6 it does not", async () => {
  const { page, problems } = await openPage();
  const widget = page.locator("memory-forgetting");
  const globex = widget.getByRole("button", { name: "Dana asks about the Globex earbuds warranty" });
  const evictedRow = widget.locator("tbody tr.status-evicted");
  await globex.click();
  assert.match(await evictedRow.textContent(), /the user is Dana/);
  // Dana's scheduled reads then find her gone: the page says they missed, once their time comes.
  const note = widget.getByText(/^Scheduled reads/);
  assert.match(await note.textContent(), /“the user is Dana” at t = 2 and t = 5\./);
  await widget.getByRole("slider", { name: "time" }).fill("3");
  assert.match(await note.textContent(), /“the user is Dana” at t = 2 \(missed\) and t = 5\. A read marked \u25b3 came when its fact was no longer active, and counted nothing\./);
  assert.match(await widget.getByRole("status").textContent(), /^t = 3: 4 active facts, .*; 1 read missed, its fact no longer active\.$/);
  assert.deepEqual(await widget.locator(".mark.missed").evaluateAll((marks) => marks.map((mark) => mark.title)),
    ["read at t = 2, missed: its fact was no longer active"]);

  await widget.getByRole("button", { name: "Start over" }).click();
  assert.equal(await globex.isEnabled(), true);
  await widget.getByRole("slider", { name: "time" }).fill("6");
  await globex.click();
  assert.doesNotMatch(await evictedRow.textContent(), /the user is Dana/);
  assert.deepEqual(problems, []);
});

test("every control is reachable with Tab", async () => {
  const { page, problems } = await openPage();
  const names = new Set();
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press("Tab");
    names.add(await page.evaluate(() => {
      let el = document.activeElement;
      while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
      return el?.getAttribute("aria-label") ?? el?.labels?.[0]?.textContent ?? el?.textContent?.trim();
    }));
  }
  for (const name of ["Add next turn", "Reset", "time", "refund approved: $180.00", "Dana asks about the Globex earbuds warranty", "Start over"]) {
    assert.ok(names.has(name), `${name} not reached by Tab; reached: ${[...names].join(" | ")}`);
  }
  assert.deepEqual(problems, []);
});

for (const colorScheme of ["light", "dark"]) {
  test(`axe finds no accessibility violations in ${colorScheme}`, async () => {
    // axe injects styles of its own, which the page's CSP would block: bypass CSP for this check only.
    const { page, problems } = await openPage({ colorScheme, bypassCSP: true });
    // Check a page with every part filled in: turns added, an event fired.
    const add = page.getByRole("button", { name: "Add next turn" });
    for (let i = 0; i < 10; i++) await add.click();
    await page.getByRole("slider", { name: "time" }).fill("6");
    await page.getByRole("button", { name: "Dana asks about the Globex earbuds warranty" }).click();
    await page.getByRole("button", { name: "refund approved: $180.00" }).click();
    await page.waitForTimeout(1600); // let the last crossing settle
    assert.deepEqual(await axe(page), []);
    await screenshot(page, `page-${colorScheme}`);
    await screenshot(page.locator("memory-compaction"), `compaction-${colorScheme}`);
    await screenshot(page.locator("memory-forgetting"), `forgetting-${colorScheme}`);
    assert.deepEqual(problems, []);
  });
}

test("the release build in the browser reproduces both golden traces bit for bit", async () => {
  const golden = await serve(ROOT);
  try {
    const { page, problems } = await open(env.browser, golden.url);
    await page.goto(golden.url + "www/index.html");
    const mismatches = await page.evaluate(async () => {
      // The page's own core (www/cores.js picks `elements` for it).
      const { default: init, Session, FactStore } = await import("./pkg/elements.js");
      await init(); // idempotent: the page's widgets may not have finished loading it yet
      const load = async (name) => (await fetch(`../tests/golden/${name}.json`)).json();
      const out = [];
      const same = (a, b, path) => {
        if (typeof b === "number") {
          if (!Object.is(a, b)) out.push(`${path}: ${a} vs ${b}`);
        } else if (Array.isArray(b)) {
          if (!Array.isArray(a) || a.length !== b.length) return out.push(`${path}: length`);
          b.forEach((item, i) => same(a[i], item, `${path}[${i}]`));
        } else if (b && typeof b === "object") {
          // A step's `lost` and `trimmed` are the library's: the project's wasm builds leave them
          // out (ARCHITECTURE.md, Boundaries), so the page's core answers without them.
          const kept = (key) => key !== "lost" && key !== "trimmed";
          const keys = (o) => Object.keys(o ?? {}).filter(kept).sort().join();
          if (keys(a) !== keys(b)) return out.push(`${path}: keys ${keys(a)} vs ${keys(b)}`);
          for (const key of Object.keys(b).filter(kept)) same(a[key], b[key], `${path}.${key}`);
        } else if (a !== b) out.push(`${path}: ${a} vs ${b}`);
      };
      const session = new Session();
      for (const [i, entry] of (await load("session")).entries()) {
        if (entry.op === "addTurn") same(session.addTurn(), entry.result, `session[${i}].result`);
        if (entry.op === "reset") session.reset();
        same(session.state(), entry.state, `session[${i}]`);
      }
      const store = new FactStore();
      for (const [i, entry] of (await load("fact_store")).entries()) {
        if (entry.op === "setTime") store.setTime(entry.arg);
        if (entry.op === "fire") same(store.fire(entry.arg), entry.result, `store[${i}].result`);
        if (entry.op === "read") same(store.read(entry.arg), entry.result, `store[${i}].result`);
        if (entry.op === "consolidate") same(store.consolidate(), entry.result, `store[${i}].result`);
        if (entry.op === "reset") store.reset();
        same(store.state(), entry.state, `store[${i}]`);
      }
      session.free();
      store.free();
      return out;
    });
    assert.deepEqual(mismatches, []);
    assert.deepEqual(problems, []);
  } finally {
    await golden.close();
  }
});
