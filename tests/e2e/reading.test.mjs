// The fourth reading (#55): the page on real sessions (τ-bench's airline task 26 and an imported
// Claude Code log) as a new reader met it. One test per finding a browser shows: each visual
// defect at the width where it was found, and each contradiction the page itself can check.

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { open, screenshot, useBrowser, ROOT } from "./harness.mjs";

const env = useBrowser();

async function openAt(width, options = {}) {
  const opened = await open(env.browser, env.server.url, { viewport: { width, height: 900 }, reducedMotion: "reduce", ...options });
  await opened.page.goto(env.server.url);
  await opened.page.locator("memory-playground tbody tr").first().waitFor({ timeout: 5000 });
  return opened;
}

/** How far the page scrolls sideways, in px (0 when it fits). */
const sideways = (page) => page.evaluate(() => document.documentElement.scrollWidth - innerWidth);

/** Chooses the airline session under a widget's knobs and waits until it is in. */
async function airline(page, widget) {
  await widget.locator("summary", { hasText: "Knobs" }).click();
  await widget.getByRole("combobox", { name: "session" }).selectOption("airline");
  const id = await widget.evaluate((el) => el.id);
  await page.waitForFunction((id) => document.getElementById(id).model?.state().totalTurns === 31, id);
  await widget.locator("summary", { hasText: "Knobs" }).click();
}

/** The elements under `root` whose content is wider than their box: text cut off, or spilling. */
const clipped = (locator) => locator.evaluate((root) => {
  const out = [];
  for (const el of root.querySelectorAll("li, span, p, td, th")) {
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== "visible") out.push(el.textContent.slice(0, 60));
  }
  const box = root.getBoundingClientRect();
  for (const el of root.querySelectorAll("li, p, section, td, th")) {
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.right > Math.max(box.right, innerWidth) + 1) out.push(`spills: ${el.textContent.slice(0, 60)}`);
  }
  return out;
});

test("#55.18 at 390 px the compaction widget plays the airline session to the end without scrolling sideways", async () => {
  const { page, problems } = await openAt(390);
  const widget = page.locator("#session");
  await airline(page, widget);
  const add = widget.getByRole("button", { name: "Add next turn" });
  for (let i = 0; i < 31; i++) await add.click();
  assert.equal(await widget.evaluate((el) => el.model.state().turn), 31);
  assert.equal(await sideways(page), 0, "the page scrolls sideways");
  const tiers = await widget.locator(".tier").evaluateAll((all) => all.map((t) => Math.round(t.getBoundingClientRect().right)));
  for (const right of tiers) assert.ok(right <= 390, `a tier box ends at ${right} px`);
  assert.deepEqual(await clipped(widget.locator(".tiers")), []);
  await screenshot(widget, "55-airline-compaction-390");
  assert.deepEqual(problems, []);
});

test("#55.19 at 390 px the playground's policy window on the airline session shows its long JSON words whole", async () => {
  const { page, problems } = await openAt(390);
  const widget = page.locator("#policies");
  await airline(page, widget);
  await widget.getByRole("slider", { name: "turn" }).fill("31");
  for (const name of [/Sliding window/, /Observation masking/]) {
    await widget.getByRole("button", { name }).click();
    const detail = widget.getByRole("region", { name: "the window under the chosen policy" });
    assert.match(await detail.textContent(), /reservation_id/, "the window holds a tool call");
    assert.deepEqual(await clipped(detail), [], String(name));
    assert.equal(await sideways(page), 0);
  }
  await screenshot(widget.getByRole("region", { name: "the window under the chosen policy" }), "55-airline-policy-window-390");
  assert.deepEqual(problems, []);
});

test("#55.20 at 390 px an imported Claude Code log's facts table stays in the page", async () => {
  const { page, problems } = await openAt(390);
  const widget = page.locator("#policies");
  await widget.getByText("Your own conversation").first().click();
  await widget.getByLabel("Or choose a file").setInputFiles(join(ROOT, "tests/fixtures/import/claude-code.jsonl"));
  await page.waitForFunction(() => document.querySelector("#policies").model?.state().totalTurns === 7);
  await widget.getByRole("slider", { name: "turn" }).fill("7");
  // Its columns are terms, never a whole JSON tool call.
  for (const fact of await widget.evaluate((el) => el.model.state().facts)) assert.doesNotMatch(fact, /[{}[\]"]/, fact);
  assert.equal(await sideways(page), 0, "the page scrolls sideways");
  assert.deepEqual(await clipped(widget.getByRole("table", { name: "Facts the window still names" })), []);
  await screenshot(widget, "55-import-playground-390");
  // A fact that is one long word, a path a tool gave, wraps in its card.
  const path = "/Users/dana/projects/refund-desk/orders/2024/ORD-3300-the-lamp-that-arrived-broken.json";
  await widget.getByLabel("Conversation to import").fill(`Dana: Please look at ${path} for me.\ntool: read ${path}: 200.00 paid, lamp broken\nagent: I read ${path}.`);
  await widget.getByRole("button", { name: "Import", exact: true }).click();
  await page.waitForFunction(() => document.querySelector("#policies").model?.state().totalTurns === 3);
  await widget.getByRole("slider", { name: "turn" }).fill("3");
  assert.ok((await widget.evaluate((el) => el.model.state().facts)).some((fact) => fact.length > 60));
  assert.equal(await sideways(page), 0, "a long fact pushes the page sideways");
  assert.deepEqual(problems, []);
});

test("#55.21 at 768 px the sparklines' labels stay readable", async () => {
  const { page, problems } = await openAt(768);
  const widget = page.locator("#policies");
  await widget.getByRole("slider", { name: "turn" }).fill("10");
  const heights = await widget.locator("svg.spark text").evaluateAll((all) => all.map((t) => t.getBoundingClientRect().height));
  assert.ok(heights.length > 0);
  for (const height of heights) assert.ok(height >= 10, `a sparkline label is ${height.toFixed(1)} px tall`);
  assert.equal(await sideways(page), 0);
  await screenshot(widget, "55-sparklines-768");
  assert.deepEqual(problems, []);
});

test("#55.5 a knob that changes the forgetting widget's settings clears a verdict it made untrue", async () => {
  const { page, problems } = await openAt(1280);
  const widget = page.locator("#store");
  const guide = widget.getByRole("group", { name: "Predict, then see" });
  await guide.getByRole("button", { name: "the user is Dana" }).click();
  const verdict = guide.locator(".guide-verdict");
  assert.match(await verdict.textContent(), /^Right: at t = 6, “the user is Dana” ranks first/);
  await widget.locator("summary", { hasText: "Knobs" }).click();
  const boost = widget.getByRole("spinbutton", { name: "access boost" });
  await boost.fill("0");
  await boost.press("Enter");
  await widget.getByRole("status").filter({ hasText: "replayed" }).or(widget.getByRole("status").filter({ hasText: "now 0" })).first().waitFor({ timeout: 5000 });
  // The table now ranks Dana last; no verdict says she ranks first.
  const top = await widget.evaluate((el) => el.model.state().facts.find((f) => f.status === "active").text);
  assert.notEqual(top, "the user is Dana");
  assert.ok(await verdict.isHidden() || !/ranks first/.test(await verdict.textContent()), await verdict.textContent());
  assert.deepEqual(problems, []);
});

test("#55.8 and #55.9 guided: the sentence under the meter names no missing guide, and Add next turn never skips a question silently", async () => {
  const { page, problems } = await openAt(1280);
  const widget = page.locator("#session");
  const note = widget.locator(".settings-note");
  assert.equal(await note.textContent(),
    "With a budget of 40 tokens and 2 HOT turns, the window crosses the budget on turns not told yet: a question above the meter asks about turn 4 first.");
  const add = widget.getByRole("button", { name: "Add next turn" });
  for (let i = 0; i < 3; i++) await add.click();
  const guide = widget.getByRole("group", { name: "Predict, then see" });
  await guide.getByText("Will turn 4 take the window over its budget of 40 tokens?").waitFor();
  // The reader presses Add next turn instead of answering: the step runs and is told.
  await add.click();
  assert.equal(await guide.locator(".guide-verdict").textContent(),
    "You went on without a guess: turn 4 took the window from 29 to 41 tokens, over the budget of 40, so COMPACT ran and left 30.");
  assert.match(await note.textContent(), /crosses the budget on turns 4, 6, 8, 9 and 10\./);
  assert.deepEqual(problems, []);
});

test("#55.2, #55.3 and #55.11 Codex's handoff: a cut user message is cut, not masked, and is never summarised twice", async () => {
  const { page, problems } = await openAt(1280);
  const widget = page.locator("#policies");
  await widget.getByRole("slider", { name: "turn" }).fill("6");
  await widget.getByRole("button", { name: "Handoff checkpoint" }).click();
  const steps = widget.locator(".losses details");
  await steps.nth(0).locator("summary").click();
  await steps.nth(1).locator("summary").click();
  assert.equal(await steps.nth(0).locator("summary").textContent(), "Turn 4: 2 turns into a summary; 1 turn dropped; 1 turn cut to fit");
  assert.deepEqual(await steps.nth(0).getByRole("listitem").allTextContents(), [
    "Into a summary: turns 3 and 4.", "Dropped outright: turn 1.", "Kept in part, cut to fit: turn 2.",
    "Every key fact it named, it still names in a sentence.",
  ]);
  const second = await steps.nth(1).getByRole("listitem").allTextContents();
  assert.ok(second.includes("Left verbatim, already in the summary: turn 2."), second.join(" | "));
  assert.ok(!second.some((line) => /^Into a summary: .*\bturns? (2\b|.*\b2\b)/.test(line)), second.join(" | "));
  assert.doesNotMatch(await widget.locator(".losses").textContent(), /masked/);
  assert.deepEqual(problems, []);
});

test("#55.10 the playground's step buttons say they move one turn", async () => {
  const { page, problems } = await openAt(1280);
  const widget = page.locator("#policies");
  await widget.getByRole("button", { name: "Forward one turn" }).click();
  assert.equal(await widget.evaluate((el) => el.model.state().turn), 1);
  await widget.getByRole("button", { name: "Back one turn" }).click();
  assert.equal(await widget.evaluate((el) => el.model.state().turn), 0);
  assert.deepEqual(problems, []);
});

test("#55.6 the three descriptions of key terms agree with the COLD gist", async () => {
  const { page, problems } = await openAt(1280);
  const widget = page.locator("#session");
  const caption = await widget.locator(".tier.cold .caption").textContent();
  assert.match(caption, /start with a capital letter or contain a digit/);
  assert.match(caption, /a sentence's first word too/);
  const prose = await page.locator("main > p").allTextContents();
  assert.ok(prose.some((p) => /start with a capital letter or contain a digit/.test(p) && /a sentence's first word/.test(p)));
  // The airline session's gist, played to the end: every term is one the caption describes.
  await airline(page, widget);
  await widget.evaluate((el) => el.model.goTo(31));
  const gist = await widget.evaluate((el) => el.model.state().cold.text);
  for (const term of gist.split(", ")) assert.match(term, /^\p{Lu}|\d/u, `"${term}" in ${gist}`);
  assert.deepEqual(problems, []);
});

test("#55.15 next to compact at %, the knobs say that a lower trigger moves where a compaction starts, not where it stops", async () => {
  const { page, problems } = await openAt(1280);
  const widget = page.locator("#policies");
  await widget.evaluate((el) => el.setAttribute("compact-at", "60"));
  await page.waitForFunction(() => document.querySelector("#policies").model?.state().compactAt === 60);
  await widget.getByRole("slider", { name: "turn" }).fill("10");
  const ours = await widget.evaluate((el) => el.model.state().policies[0].window.log.filter((s) => s.compacted).map((s) => s.tokensAfter));
  // At 60% ours starts at 24 tokens, yet most of its compactions stop well above that: it
  // squeezes only while the window is over the budget of 40.
  assert.ok(ours.filter((tokens) => tokens > 24).length > ours.length / 2, String(ours));
  await widget.locator("summary", { hasText: "Knobs" }).click();
  await widget.locator(".knobs .trigger-note").waitFor({ timeout: 5000 });
  const note = await widget.locator(".knobs .trigger-note").textContent();
  // The core's numbers, in words: the trigger (60% of 40 tokens) and the budget.
  assert.equal(await widget.evaluate((el) => el.model.state().trigger), 24);
  assert.match(note, /^Every policy with a token trigger compacts at 60% of the budget \(24 tokens\), in place of its own trigger\./);
  assert.match(note, new RegExp(`The knob moves when a compaction starts, not where it stops: HOT / WARM / COLD keeps the last 2 turns verbatim and compacts only until the window holds 40 tokens or fewer \\(compact ours to %; so far its compactions left ${Math.min(...ours)} to ${Math.max(...ours)}\\)\\. The others stop where their rules say\\.$`));
  // Next to the knob: right under the knobs' row, and the knob's own description.
  assert.equal(await widget.locator(".knobs .knob-row + .trigger-note").count(), 1);
  assert.match(await widget.getByRole("spinbutton", { name: "compact at %", exact: true }).evaluate((input) => input.getAttribute("aria-describedby")), /knob-compact-at-note/);
  // compact ours to %: the core's target moves, ours compacts further, and the note says so.
  const knob = widget.getByRole("spinbutton", { name: "compact ours to %" });
  assert.match(await knob.evaluate((input) => input.getAttribute("aria-describedby")), /knob-compact-at-note/);
  await knob.fill("50");
  await knob.press("Enter");
  await page.waitForFunction(() => document.querySelector("#policies").model?.state().target === 20);
  const lower = await widget.evaluate((el) => el.model.state().policies[0].window.log.filter((s) => s.compacted).map((s) => s.tokensAfter));
  const mean = (list) => list.reduce((a, b) => a + b, 0) / list.length;
  assert.ok(mean(lower) < mean(ours), `${lower} against ${ours}`);
  assert.match(await widget.locator(".knobs .trigger-note").textContent(), new RegExp(`compacts only until the window holds 20 tokens or fewer \\(compact ours to %; so far its compactions left ${Math.min(...lower)} to ${Math.max(...lower)}\\)`));
  assert.deepEqual(problems, []);
});

test("#55 Less: what an import reads and how it guesses kinds is said once on a page, in the panel opened first", async () => {
  const { page, problems } = await openAt(1280);
  const said = (widget) => widget.locator("p.caption", { hasText: /^Lines of Speaker: text|^A rule guesses each turn's kind/ }).count();
  const panels = [page.locator("#policies"), page.locator("#session")];
  for (const widget of panels) {
    await widget.getByText("Your own conversation").first().click();
    await widget.getByRole("button", { name: "Import", exact: true }).waitFor({ timeout: 5000 });
  }
  assert.equal(await said(panels[0]), 2, "the panel opened first says both");
  assert.equal(await said(panels[1]), 0, "the second says neither again");
  assert.deepEqual(problems, []);
});

test("#55 Less: the index page's prose has no list of thresholds, no query-rewriting aside, no closing WebAssembly paragraph, and each knob note once", async () => {
  const { page, problems } = await openAt(1280);
  const prose = (await page.locator("main > p, main > ul").allTextContents()).join(" ¦ ");
  assert.equal(await page.locator("main > ul, main ul.settings").count(), 0, "a bullet list in the prose");
  assert.doesNotMatch(prose, /query rewriting|WebAssembly|Which thresholds/);
  // The token-counting and session notes: said under the knobs of one widget only.
  for (const widget of [page.locator("#session"), page.locator("#policies")]) await widget.locator("summary", { hasText: "Knobs" }).click();
  await page.locator("#policies .knobs .trigger-note").waitFor({ timeout: 5000 });
  const notes = await page.evaluate(() => [...document.querySelectorAll("memory-compaction, memory-playground")]
    .flatMap((el) => [...el.shadowRoot.querySelectorAll(".knobs p.caption")].map((p) => p.textContent)));
  assert.equal(notes.filter((note) => /^Count tokens as words/.test(note)).length, 1, notes.join(" | "));
  assert.equal(notes.filter((note) => /^The refund desk is invented/.test(note)).length, 1, notes.join(" | "));
  assert.deepEqual(problems, []);
});

test("numbers: every number a widget shows is written one way, its thousands grouped (200,000)", async () => {
  const { page, problems } = await openAt(1280);
  // What a widget shows: its text and the names and values it gives a screen reader.
  const shown = (id) => page.evaluate((id) => {
    const root = document.getElementById(id).shadowRoot;
    const out = [root.textContent];
    for (const el of root.querySelectorAll("[aria-label], [aria-valuetext]")) out.push(el.getAttribute("aria-label") ?? "", el.getAttribute("aria-valuetext") ?? "");
    return out.join(" ¦ ");
  }, id);
  for (const id of ["policies", "session"]) {
    await page.evaluate((id) => document.getElementById(id).setAttribute("budget", "200000"), id);
    await page.waitForFunction((id) => document.getElementById(id).model?.state().budget === 200000, id);
  }
  await page.locator("#policies").getByRole("slider", { name: "turn" }).fill("10");
  const session = page.locator("#session");
  for (let i = 0; i < 4; i++) await session.getByRole("button", { name: "Add next turn" }).click();
  const text = await shown("policies");
  assert.match(text, /200,000/);
  assert.doesNotMatch(text, /200000/);
  // The compaction widget's meter and step log (its guide's question is not yet formatted).
  const log = (await session.locator(".log-list").textContent()) + (await session.locator(".meter-label").textContent());
  assert.match(log, /200,000/);
  assert.doesNotMatch(log, /200000/);
  assert.match(await session.locator(".meter-text").textContent(), /\/ 200,000 tokens/);
  assert.deepEqual(problems, []);
});
