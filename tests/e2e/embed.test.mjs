// Embedding: attributes, several widgets per page, a strict CSP, custom and hostile scenarios,
// events, the one-file bundle and the docs examples, all in headless Chromium.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT, serve, launch, open, screenshot } from "./harness.mjs";

/** The CSP the embed must survive. */
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";

let strict, plain, browser;
before(async () => {
  strict = await serve(ROOT, { "content-security-policy": CSP });
  plain = await serve(ROOT);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await strict?.close();
  await plain?.close();
});

const WAIT = { timeout: 5000 };

/** Opens `path` and records CSP violations and every memory-* event that reaches the window. */
async function openPage(server, path) {
  const opened = await open(browser, server.url);
  await opened.page.addInitScript(() => {
    window.violations = [];
    window.memoryEvents = [];
    document.addEventListener("securitypolicyviolation", (e) => window.violations.push(`${e.violatedDirective}: ${e.blockedURI}`));
    for (const type of ["memory-step", "memory-compact", "memory-evict", "memory-supersede", "memory-error"]) {
      window.addEventListener(type, (e) => window.memoryEvents.push({
        type, target: e.target.id, bubbles: e.bubbles, composed: e.composed, detail: JSON.parse(JSON.stringify(e.detail)),
      }));
    }
  });
  await opened.page.goto(server.url + path);
  return opened;
}

const meterOf = (page, id) => page.locator(`#${id} .meter-label`);
const tokensOf = async (page, id) => Number(/live window (\d+) \//.exec(await meterOf(page, id).textContent())[1]);

test("three of each on one page under a strict CSP: independent, no violations", async () => {
  const { page, problems } = await openPage(strict, "tests/e2e/pages/many.html");
  for (const id of ["c1", "c2", "c3"]) await meterOf(page, id).waitFor(WAIT);
  for (const id of ["f1", "f2", "f3"]) await page.locator(`#${id} tbody tr`).first().waitFor(WAIT);

  // Configured by attributes, each from its own starting point.
  assert.match(await meterOf(page, "c2").textContent(), /\/ 60 tokens/);
  assert.match(await page.locator("#c3 .tier.hot .caption").textContent(), /last 3 turns/);
  assert.match(await page.locator("#c3 #done-note").textContent(), /Turn 8 of 10/);
  assert.equal(await page.locator("#f2").getByRole("slider", { name: "time" }).inputValue(), "6");
  assert.match(await page.locator("#f3 .note", { hasText: "Recency halves" }).textContent(), /at most 3\. Recency halves every 2 time units/);

  // Clicking one widget leaves the others alone.
  const before = await Promise.all(["c2", "c3"].map((id) => tokensOf(page, id)));
  for (let i = 0; i < 3; i++) await page.locator("#c1").getByRole("button", { name: "Add next turn" }).click();
  assert.equal(await tokensOf(page, "c1"), 29);
  assert.deepEqual(await Promise.all(["c2", "c3"].map((id) => tokensOf(page, id))), before);
  await page.locator("#f1").getByRole("button", { name: "Dana asks about the Globex earbuds warranty" }).click();
  assert.equal(await page.locator("#f1 tbody tr.status-evicted").count(), 1);
  assert.equal(await page.locator("#f2 tbody tr.status-evicted").count(), 0);
  assert.equal(await page.locator("#f2").getByRole("button", { name: "Dana asks about the Globex earbuds warranty" }).isEnabled(), true);

  // theme="dark" on one element darkens that one only.
  const background = (id) => page.locator(`#${id} .widget`).evaluate((el) => getComputedStyle(el).backgroundColor);
  assert.notEqual(await background("f3"), await background("f1"));

  // Removing an element frees its core object.
  const freed = await page.evaluate(() => {
    const el = document.getElementById("c2");
    el.remove();
    return el.model === null;
  });
  assert.equal(freed, true);
  assert.deepEqual(await page.evaluate(() => window.violations), []);
  await screenshot(page, "embed-three-of-each");
  assert.deepEqual(problems, []);
});

test("attributes and properties rebuild the widget live; a bad value is explained, not fatal", async () => {
  const { page, problems } = await openPage(strict, "tests/e2e/pages/many.html");
  await meterOf(page, "c1").waitFor(WAIT);
  const c1 = page.locator("#c1");

  await page.evaluate(() => document.getElementById("c1").setAttribute("budget", "25"));
  await page.waitForFunction(() => document.getElementById("c1").shadowRoot.querySelector(".meter-label").textContent.includes("/ 25 tokens"));
  assert.equal(await page.evaluate(() => document.getElementById("c1").budget), 25);

  await page.evaluate(() => { document.getElementById("c1").hot = 0; });
  const alert = c1.getByRole("alert");
  await alert.waitFor({ state: "visible", ...WAIT });
  assert.equal(await alert.textContent(), 'hot="0": hot must be a whole number of at least 1, got 0');
  // The widget keeps its last good settings and keeps working.
  assert.match(await meterOf(page, "c1").textContent(), /\/ 25 tokens/);
  await c1.getByRole("button", { name: "Add next turn" }).click();
  assert.match(await meterOf(page, "c1").textContent(), /live window 8 \/ 25/);

  await page.evaluate(() => document.getElementById("f1").setAttribute("half-life", "soon"));
  const storeAlert = page.locator("#f1").getByRole("alert");
  await storeAlert.waitFor({ state: "visible", ...WAIT });
  assert.equal(await storeAlert.textContent(), 'half-life="soon": half-life must be a number');
  await page.evaluate(() => {
    const f1 = document.getElementById("f1");
    f1.removeAttribute("half-life");
    f1.setAttribute("capacity", "2.5");
  });
  assert.equal(await storeAlert.textContent(), 'capacity="2.5": capacity must be a whole number of at least 1, got 2.5');

  const errors = await page.evaluate(() => window.memoryEvents.filter((e) => e.type === "memory-error"));
  assert.equal(errors.length, 3);
  assert.ok(errors.every((e) => e.bubbles && e.composed && typeof e.detail.message === "string"));
  assert.deepEqual(await page.evaluate(() => window.violations), []);
  assert.deepEqual(problems, []);
});

test("memory-step, memory-compact, memory-supersede and memory-evict carry the state", async () => {
  const { page, problems } = await openPage(strict, "tests/e2e/pages/many.html");
  await meterOf(page, "c1").waitFor(WAIT);
  const add = page.locator("#c1").getByRole("button", { name: "Add next turn" });
  for (let i = 0; i < 4; i++) await add.click();
  await page.locator("#f1 tbody tr").first().waitFor(WAIT);
  await page.locator("#f1").getByRole("button", { name: "refund approved: $180.00" }).click();
  await page.locator("#f1").getByRole("button", { name: "Dana asks about the Globex earbuds warranty" }).click();
  await page.locator("#f1").getByRole("slider", { name: "time" }).fill("6");

  const events = await page.evaluate(() => window.memoryEvents);
  const of = (type) => events.filter((e) => e.type === type);
  assert.equal(of("memory-step").filter((e) => e.target === "c1").length, 4);
  const compact = of("memory-compact");
  assert.equal(compact.length, 1);
  assert.equal(compact[0].detail.step.turn, 4);
  assert.equal(compact[0].detail.state.tokens, 30);
  assert.equal(of("memory-supersede")[0].detail.change.superseded, 3);
  assert.equal(of("memory-evict")[0].detail.change.evicted, 1);
  // Moving the time slider is a step too, one that writes nothing.
  const moved = of("memory-step").filter((e) => e.target === "f1").at(-1);
  assert.deepEqual([moved.detail.change, moved.detail.state.t], [null, 6]);
  assert.ok(events.every((e) => e.bubbles && e.composed));
  assert.deepEqual(problems, []);
});

test("custom scenarios: a property or a JSON script element; bad fields are reported by path", async () => {
  const { page, problems } = await openPage(strict, "tests/e2e/pages/many.html");
  await meterOf(page, "c1").waitFor(WAIT);
  await page.evaluate(() => {
    document.getElementById("c1").scenario = { script: [
      { speaker: "Dana", kind: "question", text: "one two three four five six", summary: "six words" },
      { speaker: "agent", kind: "decision", text: "seven eight nine", summary: "three" },
    ] };
  });
  // c1 played the refund desk: its core checks no custom script, so it loads the one that does
  // first (www/cores.js), then builds.
  const c1 = page.locator("#c1");
  await c1.locator("#done-note").filter({ hasText: /Turn 0 of 2\b/ }).waitFor(WAIT);
  await c1.getByRole("button", { name: "Add next turn" }).click();
  assert.match(await meterOf(page, "c1").textContent(), /live window 6 \//);

  await page.evaluate(() => {
    document.getElementById("c1").scenario = { script: [{ speaker: "Dana", kind: "smalltalk", text: "hi" }] };
  });
  assert.equal(await c1.getByRole("alert").textContent(),
    'script[0].kind (turn 1): unknown kind "smalltalk"; use chatter, decision, tool or question');

  await page.evaluate(() => {
    document.getElementById("f1").scenario = { facts: [{ text: "a", importance: 0.5 }], reads: [{ fact: 9, at: 1 }] };
  });
  // So did f1, for a custom scenario.
  const f1Alert = page.locator("#f1").getByRole("alert");
  await f1Alert.filter({ hasText: "reads[0]" }).waitFor(WAIT);
  assert.equal(await f1Alert.textContent(),
    "reads[0].fact must be a whole number of at most 1, got 9; facts and events number 1 to 1");

  // A write that repeats a fact's text refreshes it, ignoring case beyond ASCII too (SPEC §3).
  await page.evaluate(() => {
    document.getElementById("f1").scenario = {
      facts: [{ text: "École fermée", importance: 0.5 }],
      events: [{ label: "again", text: "  ÉCOLE FERMÉE", importance: 0.7 }],
    };
  });
  await page.locator("#f1 tr.status-active").filter({ hasText: "École fermée" }).waitFor(WAIT);
  const facts = await page.evaluate(() => {
    const model = document.getElementById("f1").model;
    model.fire(0);
    return model.state().facts.map((fact) => [fact.text, fact.status, fact.importance]);
  });
  assert.deepEqual(facts, [["École fermée", "active", 0.7]]);
  assert.deepEqual(problems, []);
});

test("scenario text that looks like HTML is shown as text and never runs", async () => {
  const { page, problems } = await openPage(plain, "tests/e2e/pages/hostile.html");
  const compaction = page.locator("memory-compaction");
  await compaction.locator(".meter-label").waitFor(WAIT);
  const add = compaction.getByRole("button", { name: "Add next turn" });
  for (let i = 0; i < 4; i++) await add.click();
  const forgetting = page.locator("memory-forgetting");
  await forgetting.getByRole("button", { name: `<b onclick="window.pwned='label'">bold</b>` }).click();

  // Hover and click everything that could carry a handler.
  for (const el of await page.locator("memory-compaction li:visible, memory-forgetting td:visible, memory-forgetting th:visible").all()) {
    await el.hover({ force: true });
  }
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => window.pwned), undefined);

  // No element came from a payload: none of their tags, and no inline handler anywhere (the
  // widgets' own svg and details elements carry none).
  const injected = await page.evaluate(() => [...document.querySelectorAll("memory-compaction, memory-forgetting")]
    .flatMap((el) => [...el.shadowRoot.querySelectorAll("*")])
    .filter((n) => ["IMG", "SCRIPT", "IFRAME", "A", "STYLE", "B"].includes(n.tagName) || [...n.attributes].some((a) => a.name.startsWith("on")))
    .map((n) => n.outerHTML));
  assert.deepEqual(injected, []);

  const text = await page.evaluate(() => [...document.querySelectorAll("memory-compaction, memory-forgetting")]
    .map((el) => el.shadowRoot.textContent).join("\n"));
  for (const payload of [
    "<script>window.pwned='script'</script>",
    `<a href="javascript:window.pwned='href'">refund</a>`,
    `' onmouseover='window.pwned="attr"' data-x='`,
    "</li></ol><style>*{display:none}</style>",
    `<img src=x onerror="window.pwned='fact'">`,
    "</td></tr></tbody></table><script>window.pwned='table'</script>",
    "javascript:window.pwned='js'",
  ]) {
    assert.ok(text.includes(payload), `not shown literally: ${payload}`);
  }
  await screenshot(page, "embed-hostile-text");
  assert.deepEqual(problems, []);
});

test("the one-file bundle works on its own under the strict CSP", async () => {
  const { page, problems } = await openPage(strict, "tests/e2e/pages/bundle.html");
  const add = page.getByRole("button", { name: "Add next turn" });
  await add.waitFor(WAIT);
  for (let i = 0; i < 4; i++) await add.click();
  assert.match(await page.getByRole("status").first().textContent(), /Turn 4: over budget at 41 tokens, compacted to 30 of 40 tokens/);
  await page.getByRole("slider", { name: "time" }).fill("6");
  assert.match(await page.locator("memory-forgetting tbody tr").first().textContent(), /the user is Dana/);
  const requests = await page.evaluate(() => performance.getEntriesByType("resource").map((r) => new URL(r.name).pathname));
  // The browser asks for /favicon.ico by itself, whenever it gets to it; that is not the bundle's.
  assert.deepEqual(requests.filter((path) => path !== "/favicon.ico"), ["/dist/agent-memory-widgets.js"]);
  assert.deepEqual(await page.evaluate(() => window.violations), []);
  assert.deepEqual(problems, []);
});

test("the single-file page works opened straight from disk", async () => {
  const url = pathToFileURL(join(ROOT, "dist/agent-memory-widgets.html")).href;
  const { page, problems } = await open(browser, "file://");
  await page.goto(url);
  const add = page.getByRole("button", { name: "Add next turn" });
  await add.waitFor(WAIT);
  for (let i = 0; i < 4; i++) await add.click();
  await page.waitForFunction(() => document.querySelector("memory-compaction").shadowRoot.querySelector(".meter-label").textContent.includes("live window 30 / 40"));
  await page.getByRole("slider", { name: "time" }).fill("6");
  assert.match(await page.locator("memory-forgetting tbody tr").first().textContent(), /the user is Dana/);
  assert.deepEqual(problems, []);
});

test("the docs examples: the plain embed, the iframe and the mdBook chapter", async () => {
  const { page, problems } = await open(browser, plain.url);
  await page.goto(plain.url + "examples/plain.html");
  await page.getByRole("button", { name: "Add next turn" }).click();
  assert.match(await page.locator("memory-forgetting tbody tr").first().textContent(), /the user is Dana/);

  await page.goto(plain.url + "examples/iframe.html");
  const frame = page.frameLocator("iframe");
  await frame.getByRole("button", { name: "Add next turn" }).click();
  assert.match(await frame.locator("memory-compaction .meter-label").textContent(), /live window 8 \/ 40/);

  await page.goto(plain.url + "examples/mdbook/book/memory.html");
  const chapter = page.locator("main");
  const add = chapter.getByRole("button", { name: "Add next turn" });
  for (let i = 0; i < 4; i++) await add.click();
  await page.waitForFunction(() => document.querySelector("memory-compaction").shadowRoot.querySelector(".meter-label").textContent.includes("live window 30 / 40"));
  assert.match(await chapter.locator("memory-forgetting tbody tr").first().textContent(), /the user is Dana/);
  // Through the light embed: the loader, its chunks and its cores, all from the copied folder.
  const requests = await page.evaluate(() => performance.getEntriesByType("resource").map((r) => new URL(r.name).pathname));
  const embed = requests.filter((path) => path.includes("agent-memory-widgets"));
  assert.ok(embed.includes("/examples/mdbook/book/agent-memory-widgets/widgets.js"), embed.join(", "));
  assert.ok(embed.every((path) => path.startsWith("/examples/mdbook/book/agent-memory-widgets/")), embed.join(", "));
  // The chapter's two families load one core each: together they download less than the one that
  // serves both (www/cores.js, coresFor).
  assert.deepEqual(requests.filter((path) => path.endsWith(".wasm")).map((path) => path.split("/").at(-1)).sort(),
    ["compaction_bg.wasm", "forgetting_bg.wasm"], requests.join(", "));
  await screenshot(page, "embed-mdbook");
  assert.deepEqual(problems, []);
});
