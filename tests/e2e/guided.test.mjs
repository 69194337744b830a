// Guided mode ("predict, then see", the `guided` attribute) on the index page, in headless
// Chromium, from the keyboard only: a question before the step, the reader's answer runs it, and
// the verdict says whether they were right, in the widget and in its live region.

import { test } from "node:test";
import assert from "node:assert/strict";
import { open, axe, useBrowser, screenshot } from "./harness.mjs";

const env = useBrowser();

async function openIndex(options = {}) {
  // axe-core is injected as a script, which the page's CSP would refuse.
  const { page, problems } = await open(env.browser, env.server.url, { bypassCSP: true, reducedMotion: "reduce", ...options });
  await page.goto(env.server.url);
  await page.locator("memory-compaction").getByRole("button", { name: "Add next turn" }).waitFor();
  return { page, problems };
}

/** Presses Tab until `locator` has focus (at most `limit` times), then presses `key` on it. */
async function tabTo(page, locator, key = "Enter", limit = 80) {
  for (let i = 0; i < limit; i++) {
    if (await locator.evaluate((el) => el.getRootNode().activeElement === el)) {
      await page.keyboard.press(key);
      return;
    }
    await page.keyboard.press("Tab");
  }
  throw new Error(`Tab never reached ${locator}`);
}

test("compaction, guided: a right answer before turn 4 and a wrong one after turn 8, from the keyboard", async () => {
  const { page, problems } = await openIndex();
  const widget = page.locator("#session");
  const guide = widget.getByRole("group", { name: "Predict, then see" });
  const add = widget.getByRole("button", { name: "Add next turn" });
  assert.equal(await guide.count(), 0, "no question before turn 3");
  for (let i = 0; i < 3; i++) await tabTo(page, add);
  await guide.waitFor();
  assert.match(await guide.textContent(), /Will turn 4 take the window over its budget of 40 tokens\?/);
  assert.match(await guide.textContent(), /The window holds 29 tokens\. Turn 4 adds 12 tokens/);
  // The sentence under the meter keeps the crossings back until the reader has guessed.
  const settings = widget.locator(".settings-note");
  assert.doesNotMatch(await settings.textContent(), /turns 4, 6/);
  const guesses = [];
  await page.evaluate(() => document.querySelector("#session").addEventListener("memory-guess", (e) => (window.lastGuess = e.detail)));

  await tabTo(page, guide.getByRole("button", { name: "Yes, over the budget" }));
  const right = "Right: turn 4 took the window from 29 to 41 tokens, over the budget of 40, so COMPACT ran and left 30.";
  assert.equal(await guide.locator(".guide-verdict").textContent(), right);
  assert.equal(await widget.getByRole("status").textContent(), right, "the verdict is announced");
  assert.match(await widget.locator(".meter-label").textContent(), /live window 30 \/ 40/);
  assert.match(await settings.textContent(), /crosses the budget on turns 4, 6, 8, 9 and 10\./);
  guesses.push(await page.evaluate(() => ({ question: window.lastGuess.question, answer: window.lastGuess.answer, right: window.lastGuess.right })));
  assert.deepEqual(guesses, [{ question: "over", answer: "over", right: true }]);
  // Focus stays in the widget, on the verdict, so the next Tab goes on from there.
  assert.equal(await page.evaluate(() => document.querySelector("#session").shadowRoot.activeElement?.className), "guide-verdict");

  // On to turn 8: the second question.
  for (let i = 0; i < 4; i++) await tabTo(page, add);
  assert.match(await guide.textContent(), /Where will \$180\.00 live after turn 9 and the COMPACT it sets off: HOT, WARM, COLD, or gone\?/);
  // The first verdict went when the second question came.
  assert.doesNotMatch(await guide.textContent(), /turn 4 took the window/);
  await tabTo(page, guide.getByRole("button", { name: "HOT" }));
  const verdict = await guide.locator(".guide-verdict").textContent();
  assert.match(verdict, /^Not quite: after turn 9, \$180\.00 is in WARM, in the summary lines? .+ and in COLD, as a bare term: only the last 2 turns stay HOT/);
  assert.equal(await widget.getByRole("status").textContent(), verdict);
  // What the verdict says is what the widget shows.
  assert.match(await widget.getByRole("region", { name: "warm" }).textContent(), /\$180\.00/);
  assert.match(await widget.getByRole("region", { name: "cold" }).textContent(), /\$180\.00/);
  assert.doesNotMatch(await widget.getByRole("region", { name: "hot" }).textContent(), /\$180\.00/);
  assert.deepEqual(await widget.evaluate((el) => el.answers), { over: { answer: "over", right: true }, where: { answer: "HOT", right: false } });
  assert.deepEqual(await axe(page), []);
  await screenshot(widget, "guided-compaction");
  assert.deepEqual(problems, []);
});

test("forgetting, guided: first at t = 6, the eviction, and what lasts after Consolidate", async () => {
  const { page, problems } = await openIndex();
  const widget = page.locator("#store");
  const guide = widget.getByRole("group", { name: "Predict, then see" });
  await guide.waitFor();
  assert.match(await guide.textContent(), /Which fact will rank first at t = 6\?/);
  await tabTo(page, guide.getByRole("button", { name: "the user is Dana" }));
  const first = await guide.locator(".guide-verdict").textContent();
  assert.match(first, /^Right: at t = 6, “the user is Dana” ranks first: importance 0\.4 × recency 0\.354 × access 2 = 0\.283\.$/);
  assert.equal(await widget.getByRole("slider", { name: "time" }).inputValue(), "6");

  // At t = 6, before the Globex write: which fact goes? A wrong guess names the one that went.
  assert.match(await guide.textContent(), /Which fact will it evict\?/);
  await tabTo(page, guide.getByRole("button", { name: "the user is Dana" }));
  const evict = await guide.locator(".guide-verdict").textContent();
  assert.match(evict, /^Not quite: it evicted “.+”, the weakest when the write came: importance .+ = .+\.$/);
  assert.equal(await widget.getByRole("status").textContent(), evict);
  const evicted = evict.match(/evicted “(.+?)”/)[1];
  assert.equal(await widget.locator("tbody tr", { hasText: evicted }).locator("td.status").textContent(), "evicted");

  // Consolidate, then: the rule lasts longer than the semantic fact.
  await tabTo(page, widget.getByRole("button", { name: "Consolidate" }));
  assert.match(await guide.textContent(), /Consolidate wrote \d+ lasting facts? and a rule\. Which will last longer: the semantic fact or the rule\?/);
  await tabTo(page, guide.getByRole("button", { name: "the rule" }));
  assert.match(await guide.locator(".guide-verdict").textContent(), /^Right: the rule lasts longer\. The rule's half-life is 32 and the semantic fact's 16: at t = 12/);
  assert.equal(await widget.getByRole("slider", { name: "time" }).inputValue(), "12");
  assert.deepEqual(Object.keys(await widget.evaluate((el) => el.answers)), ["first", "evict", "lasts"]);
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(problems, []);
});

test("the answers travel in the link, and a question answered is not asked again", async () => {
  const { page, problems } = await openIndex();
  const widget = page.locator("#store");
  const guide = widget.getByRole("group", { name: "Predict, then see" });
  await guide.getByRole("button", { name: "the user is Dana" }).click();
  await widget.getByRole("button", { name: "Copy link" }).click();
  const url = await widget.getByRole("textbox", { name: "Link to this state" }).inputValue();

  const other = await openIndex();
  await other.page.goto(url);
  const restored = other.page.locator("#store");
  await other.page.waitForFunction(() => document.querySelector("#store")?.answers?.first);
  assert.deepEqual(await restored.evaluate((el) => el.answers), { first: { answer: "1", right: true } });
  // At t = 6 the next question is the eviction, not the first one again.
  await restored.getByRole("group", { name: "Predict, then see" }).getByText(/Which fact will it evict\?/).waitFor();
  // A widget without `guided` asks nothing.
  assert.equal(await other.page.locator("#policies").getByRole("group", { name: "Predict, then see" }).count(), 0);
  assert.deepEqual(problems, []);
  assert.deepEqual(other.problems, []);
});
