// Consolidation and "seeing why" on the page: the consolidate control on the timeline, source
// links, the step-back ledger, the score breakdown and the live knobs.

import { test } from "node:test";
import assert from "node:assert/strict";
import { open, screenshot, axe, useBrowser } from "./harness.mjs";

const env = useBrowser();

async function openPage(options) {
  const opened = await open(env.browser, env.server.url, options);
  await opened.page.goto(env.server.url);
  await opened.page.locator("memory-compaction .meter-label").waitFor({ timeout: 5000 });
  await opened.page.locator("memory-forgetting tbody tr").first().waitFor({ timeout: 5000 });
  return opened;
}

test("consolidation is part of the timeline: dragging back before it undoes it", async () => {
  const { page, problems } = await openPage();
  const widget = page.locator("memory-forgetting");
  const slider = widget.getByRole("slider", { name: "time" });
  const table = widget.getByRole("table", { name: "The store, ranked by score" });
  const rows = () => table.locator("tbody tr").allTextContents();

  await slider.fill("6");
  await widget.getByRole("button", { name: "refund approved: $180.00" }).click();
  await widget.getByRole("button", { name: "Dana asks about the Globex earbuds warranty" }).click();
  await slider.fill("7");
  const atSeven = await rows();
  await slider.fill("8");
  const before = await rows();
  await widget.getByRole("button", { name: "Consolidate" }).click();
  assert.equal(await widget.getByRole("button", { name: "Consolidate" }).isDisabled(), true);
  const after = await rows();
  assert.notDeepEqual(after, before);
  const first = await table.locator("tbody tr").first().textContent();
  assert.match(first, /Dana's order ORD-3300 was refunded \$180\.00/);
  assert.match(first, /semantic/);
  // The order was evicted at t = 6: it is forgotten, so it is not a source.
  assert.match(first, /distilled from “the user is Dana”, “the refund for ORD-3300 is pending”, “refund approved: \$180\.00”/);
  assert.match(await widget.getByRole("status").textContent(), /consolidation distilled/);

  await slider.fill("7"); // before the pass: as if it never ran
  assert.deepEqual(await rows(), atSeven);
  assert.equal(await table.locator("tbody tr.kind-semantic").count(), 0);
  await slider.fill("8");
  assert.deepEqual(await rows(), after);

  // The score breakdown and the forget forecast.
  await widget.getByRole("checkbox", { name: "Show the arithmetic and the forget forecast" }).check();
  const breakdown = await table.locator("tbody tr").first().locator(".breakdown").textContent();
  assert.match(breakdown, /^0\.9 × 1 × 1 = 0\.9$/);
  assert.match(await table.locator("tbody tr").first().locator(".forecast").textContent(), /does not halve before t = 12; /);
  // The decay chart: one line per fact that was ever active, and a cursor at t.
  assert.ok(await widget.locator("svg.decay-chart polyline").count() >= 6);
  await screenshot(widget, "forgetting-consolidated");
  assert.deepEqual(problems, []);
});

test("a WARM line, focused by keyboard, highlights the turns it came from", async () => {
  const { page, problems } = await openPage();
  const widget = page.locator("memory-compaction");
  const add = widget.getByRole("button", { name: "Add next turn" });
  for (let i = 0; i < 6; i++) await add.click();
  const warm = widget.getByRole("region", { name: "warm" }).locator("li.source-link");
  const turns = (await warm.first().locator(".tokens").textContent()).match(/from turns? ([\d, and]+)/)[1].split(/, | and /).map(Number);
  await warm.first().focus();
  const linked = await widget.getByRole("region", { name: "transcript" }).locator("li.linked").evaluateAll((items) => items.map((li) => Number(li.dataset.turn)));
  assert.deepEqual(linked, turns);
  await widget.getByRole("button", { name: "Reset" }).focus();
  assert.equal(await widget.locator("li.linked").count(), 0);
  assert.deepEqual(problems, []);
});

test("Step back shows turn 3's window, and each step shows its diff", async () => {
  const { page, problems } = await openPage();
  const widget = page.locator("memory-compaction");
  const expected = await page.evaluate(async () => {
    const { Session } = await import("./pkg/elements.js");
    const session = new Session();
    session.goTo(3);
    const state = session.state();
    session.free();
    return state;
  });
  const add = widget.getByRole("button", { name: "Add next turn" });
  for (let i = 0; i < 5; i++) await add.click();
  const back = widget.getByRole("button", { name: "Step back" });
  await back.click();
  await back.click();
  assert.match(await widget.locator(".meter-label").textContent(), new RegExp(`live window ${expected.tokens} / 40 tokens`));
  const hot = await widget.getByRole("region", { name: "hot" }).locator("li .text").allTextContents();
  assert.deepEqual(hot, expected.hot.map((turn) => turn.text));
  assert.equal(await widget.getByRole("region", { name: "steps" }).locator("li").count(), 3);
  assert.match(await widget.getByRole("status").textContent(), /^Back to turn 3/);
  assert.deepEqual(problems, []);
});

test("the budget knob moves the crossings, and Seed values restores 40 / 2 / 4 / 4 / 0.5", async () => {
  // axe injects styles of its own, which the page's CSP would block: bypass CSP for this test.
  const { page, problems } = await openPage({ bypassCSP: true });
  const widget = page.locator("memory-compaction");
  await widget.locator("summary", { hasText: "Knobs" }).click();
  const budget = widget.getByRole("spinbutton", { name: "budget" });
  await budget.fill("60");
  await budget.press("Enter");
  await page.waitForFunction(() => document.querySelector("memory-compaction").shadowRoot.querySelector(".meter-label").textContent.includes("/ 60 tokens"));
  const add = widget.getByRole("button", { name: "Add next turn" });
  for (let i = 0; i < 10; i++) await add.click();
  const shown = await widget.getByRole("region", { name: "steps" }).locator("li.crossed .line")
    .evaluateAll((lines) => lines.map((line) => Number(/^turn (\d+)/.exec(line.textContent)[1])));
  const expected = await page.evaluate(async () => {
    const core = await import("./pkg/agent_memory_widgets.js");
    await core.default();
    const session = core.Session.withConfig({ budget: 60 });
    while (session.addTurn() !== null);
    const crossings = session.state().crossings;
    session.free();
    return crossings;
  });
  assert.deepEqual(shown, expected);
  assert.notDeepEqual(expected, [4, 6, 8, 9, 10]);

  const store = page.locator("memory-forgetting");
  await store.locator("summary", { hasText: "Knobs" }).click();
  const halfLife = store.getByRole("spinbutton", { name: "half-life" });
  await halfLife.fill("2");
  await halfLife.press("Enter");
  await page.waitForFunction(() => document.querySelector("memory-forgetting").shadowRoot.textContent.includes("Recency halves every 2 time units"));

  await widget.getByRole("button", { name: "Seed values" }).click();
  await store.getByRole("button", { name: "Seed values" }).click();
  assert.equal(await budget.inputValue(), "40");
  assert.equal(await widget.getByRole("spinbutton", { name: "HOT turns" }).inputValue(), "2");
  assert.deepEqual(await Promise.all(["half-life", "capacity", "access boost"].map((name) => store.getByRole("spinbutton", { name }).inputValue())), ["4", "4", "0.5"]);
  assert.match(await widget.locator(".meter-label").textContent(), /\/ 40 tokens/);
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(problems, []);
});
