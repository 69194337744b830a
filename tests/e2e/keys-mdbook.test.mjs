// Keys stay inside the widget in a real two-chapter mdBook, whose ← and → turn the page and
// whose "s" and "/" open its search: arrows and typing in a control of each kind in each of the
// four elements, and arrows on each of the decay chart's lines, do neither, while from the page itself the same key still turns the page. (The
// host page with every control is tests/e2e/keys.test.mjs.)

import { test } from "node:test";
import assert from "node:assert/strict";
import { ROOT, useBrowser, open } from "./harness.mjs";

// The repository root, for examples/mdbook/book/ (`make examples` builds it).
const env = useBrowser(ROOT);
const WAIT = { timeout: 5000 };
const NAVIGATION = ["ArrowRight", "ArrowLeft", "ArrowUp", "ArrowDown", "PageUp", "PageDown", "Home", "End"];

/** Per chapter of the example book: the key that turns its page, and a control of each kind in each of its elements. */
const CHAPTERS = [
  ["memory", "ArrowRight", [
    ["memory-compaction", "Knobs", "spinbutton", "budget"],
    ["memory-compaction", "Your own conversation", "textbox", "Your turn"],
    ["memory-forgetting", null, "slider", "time"],
    ["memory-forgetting", "Knobs", "spinbutton", "capacity"],
  ]],
  ["comparisons", "ArrowLeft", [
    ["memory-playground", null, "slider", "turn"],
    ["memory-playground", "Knobs", "spinbutton", "budget"],
    ["memory-forgetting-playground", null, "slider", "point in the stream"],
    ["memory-forgetting-playground", "Knobs", "spinbutton", "capacity"],
  ]],
];

test("in a two-chapter mdBook, arrows and typing in a control of each kind stay in the widget, while the book's own arrows still turn the page", { timeout: 120_000 }, async () => {
  const { page, problems } = await open(env.browser, env.server.url);
  page.setDefaultTimeout(5000);
  const url = (chapter) => `${env.server.url}examples/mdbook/book/${chapter}.html`;
  for (const [chapter, turn, wanted] of CHAPTERS) {
    await page.goto(url(chapter));
    for (const [name, disclosure, role, label] of wanted) {
      const widget = page.locator(name);
      await widget.locator(".content > *").first().waitFor(WAIT);
      if (disclosure) {
        const details = widget.locator("details").filter({ has: page.locator("summary", { hasText: disclosure }) }).first();
        if (!(await details.evaluate((d) => d.open))) await details.locator("summary").first().click();
      }
      const control = widget.getByRole(role, { name: label, exact: true });
      await control.focus();
      for (const key of [turn, ...NAVIGATION]) await control.press(key);
      if (role === "slider") assert.equal(await control.inputValue(), await control.getAttribute("max"), `${chapter}: End moved ${name}'s ${label} to its end`);
      else await control.pressSequentially("s/");
      assert.equal(page.url(), url(chapter), `${chapter}: ${name}'s ${label} kept ${turn}`);
      assert.equal(await page.locator("#searchbar").isVisible(), false, `${chapter}: typing "s" or "/" in ${name}'s ${label} opened the book's search`);
    }
    // The decay chart's lines: the arrows move between them, and the page stays.
    const lines = page.locator("memory-forgetting g.decay-line");
    for (let i = 0; i < await lines.count(); i++) {
      await lines.nth(i).focus();
      for (const key of [turn, ...NAVIGATION]) await page.keyboard.press(key);
      assert.equal(page.url(), url(chapter), `${chapter}: the decay chart's line ${i + 1} kept ${turn}`);
    }
    if (chapter === "memory") assert.ok(await lines.count() >= 4, "the chart's lines were checked");
  }
  assert.deepEqual(problems, []);
  // The book's binding is there: from the page itself, ← turns back to the first chapter.
  await page.locator("main h1").first().click();
  const turned = page.waitForURL(url("memory"), { ...WAIT, waitUntil: "commit" });
  await page.keyboard.press("ArrowLeft");
  await turned;
});
