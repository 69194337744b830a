// <memory-playground>: six policies on one session, stepped together, in headless Chromium.

import { test } from "node:test";
import assert from "node:assert/strict";
import { open, screenshot, axe, useBrowser } from "./harness.mjs";

const env = useBrowser();

/** The core's own view of the playground at `turn`, from the page's wasm module. */
const coreState = (page, turn) => page.evaluate(async (turn) => {
  const { Playground } = await import("./pkg/agent_memory_widgets.js");
  const playground = new Playground();
  playground.goTo(turn);
  const state = playground.state();
  playground.free();
  return state;
}, turn);

test("six policies step together and the facts matrix matches the core", async () => {
  const { page, problems } = await open(env.browser, env.server.url, { bypassCSP: true });
  await page.goto(env.server.url);
  const widget = page.locator("memory-playground");
  const rows = widget.getByRole("table", { name: "Six compaction policies, one session" }).locator("tbody tr");
  await rows.first().waitFor({ timeout: 5000 });
  assert.equal(await rows.count(), 6);
  const names = await rows.locator("th button").allTextContents();
  assert.deepEqual(names, (await coreState(page, 0)).policies.map((row) => row.info.name));

  // Step all six with the shared control; every row follows the core.
  const next = widget.getByRole("button", { name: "Step all forward" });
  for (let turn = 1; turn <= 10; turn++) {
    await next.click();
    const expected = await coreState(page, turn);
    const tokens = await rows.locator("td.tokens-now").allTextContents();
    assert.deepEqual(tokens.map((t) => Number(t.split(" / ")[0])), expected.policies.map((row) => row.tokens), `turn ${turn}`);
  }
  assert.equal(await next.isDisabled(), true);
  assert.match(await widget.getByRole("status").textContent(), /^Turn 10: over budget: Summary buffer, Interval compaction\.$/);

  // The facts matrix after turn 10 is the core's.
  const expected = await coreState(page, 10);
  const matrix = widget.getByRole("table", { name: "Facts the window still names" });
  const cells = await matrix.locator("tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent.endsWith("yes"))));
  assert.deepEqual(cells, expected.policies.map((row) => row.kept));
  assert.deepEqual(await matrix.locator("thead th").allTextContents(), ["policy", ...expected.facts]);

  // Each sparkline is labelled with its numbers.
  const label = await rows.first().locator("svg").getAttribute("aria-label");
  assert.match(label, new RegExp(expected.policies[0].series.join(", ")));

  // Opening a policy shows its window; the keyboard works too.
  const letta = widget.getByRole("button", { name: "Sliding window + recursive summary" });
  await letta.focus();
  await page.keyboard.press("Enter");
  assert.equal(await letta.getAttribute("aria-expanded"), "true");
  const detail = widget.getByRole("region", { name: "the window under the chosen policy" });
  assert.match(await detail.textContent(), /Sliding window \+ recursive summary at turn 10: 21 of 40 tokens/);

  // The slider steps them too.
  await widget.getByRole("slider", { name: "turn" }).fill("3");
  assert.deepEqual((await rows.locator("td.tokens-now").allTextContents()).map((t) => Number(t.split(" / ")[0])),
    (await coreState(page, 3)).policies.map((row) => row.tokens));
  assert.deepEqual(await axe(page), []);
  await screenshot(page.locator("memory-playground"), "playground");
  assert.deepEqual(problems, []);
});
