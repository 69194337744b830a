// The site readers download (site/, what `make serve` serves: minified, one module and one wasm
// core per element family). The other browser tests exercise the readable sources in www/; these
// check that the build loads, and that a page fetches only what its elements use.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { ROOT, serve, launch, open } from "./harness.mjs";

const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";
const WAIT = { timeout: 10_000 };

let server, browser;
before(async () => {
  server = await serve(ROOT, { "content-security-policy": CSP });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** Opens `path`; returns the page, its problems, and a function listing the paths it fetched. */
async function openPage(path) {
  const opened = await open(browser, server.url);
  await opened.page.addInitScript(() => {
    window.violations = [];
    document.addEventListener("securitypolicyviolation", (e) => window.violations.push(`${e.violatedDirective}: ${e.blockedURI}`));
  });
  await opened.page.goto(server.url + path);
  const fetched = () => opened.page.evaluate(() =>
    performance.getEntriesByType("resource").map((r) => new URL(r.name).pathname).filter((p) => p !== "/favicon.ico").sort());
  return { ...opened, fetched };
}

test("the built index page works under the strict CSP and compiles one core for its four elements", async () => {
  const { page, problems, fetched } = await openPage("site/index.html");
  const add = page.getByRole("button", { name: "Add next turn" });
  await add.waitFor(WAIT);
  for (let i = 0; i < 4; i++) await add.click();
  assert.match(await page.locator("memory-compaction").getByRole("status").textContent(), /Turn 4: over budget at 41 tokens, compacted to 30 of 40 tokens/);
  await page.getByRole("slider", { name: "time" }).fill("6");
  assert.match(await page.locator("memory-forgetting tbody tr").first().textContent(), /the user is Dana/);
  await page.locator("memory-playground .policies").waitFor(WAIT);
  const wasm = (await fetched()).filter((path) => path.endsWith(".wasm"));
  assert.deepEqual(wasm, ["/site/pkg/elements_bg.wasm"]);

  // Its core has the seed's settings only: a reader who imports fetches the core that imports
  // and plays a conversation then, for that element.
  const widget = page.locator("memory-compaction");
  await widget.locator("details.own > summary").click();
  await widget.getByRole("textbox", { name: "Conversation to import" }).fill("Dana: Hi there!\nagent: Your refund of 40 EUR for ORD-7 is on its way.");
  await widget.getByRole("button", { name: "Import" }).click();
  assert.equal(await widget.getByRole("combobox", { name: "Kind of turn 2" }).inputValue(), "decision");
  assert.ok((await fetched()).includes("/site/pkg/compaction-own_bg.wasm"));
  // The turns so far replay on it: the imported conversation opens at turn 0, the others kept theirs.
  assert.match(await widget.getByRole("status").textContent(), /^Imported 2 turns/);
  assert.deepEqual(await page.evaluate(() => window.violations), []);
  assert.deepEqual(problems, []);
});

test("the JavaScript API imports from ./pkg/ on the built site as in the README, on the instance the elements use", async () => {
  const { page, problems } = await openPage("site/index.html");
  await page.getByRole("button", { name: "Add next turn" }).waitFor(WAIT);
  const result = await page.evaluate(async () => {
    const api = await import("./pkg/agent_memory_widgets.js");
    await api.default();
    const session = new api.Session();
    for (let i = 0; i < 10; i++) session.addTurn();
    const { crossings, budget } = session.state();
    session.free();
    // The elements' core, by its name in www/pkg/, is the module the page already loaded.
    const elements = await import("./pkg/elements.js");
    const loaded = performance.getEntriesByType("resource").filter((r) => /\/elements-[^/]*\.js$/.test(r.name));
    const store = new elements.FactStore();
    const t = store.state().t;
    store.free();
    return { crossings, budget, initSync: typeof api.initSync, t, glueLoadedOnce: loaded.length };
  });
  assert.deepEqual(result, { crossings: [4, 6, 8, 9, 10], budget: 40, initSync: "function", t: 0, glueLoadedOnce: 1 });
  assert.deepEqual(await page.evaluate(() => window.violations), []);
  assert.deepEqual(problems, []);
});

test("a page with only <memory-compaction> fetches neither the fact store nor the playground", async () => {
  const { page, problems, fetched } = await openPage("tests/e2e/pages/site-compaction.html");
  await page.getByRole("button", { name: "Add next turn" }).waitFor(WAIT);
  const paths = await fetched();
  assert.ok(paths.includes("/site/pkg/compaction_bg.wasm"), paths.join("\n"));
  assert.deepEqual(paths.filter((path) => /forgetting|playground|agent_memory_widgets|\/elements[-_]/.test(path)), []);

  // An element of another family added later loads its own module and core then.
  await page.evaluate(() => document.querySelector("#later").append(document.createElement("memory-forgetting")));
  await page.getByRole("slider", { name: "time" }).waitFor(WAIT);
  const later = await fetched();
  assert.ok(later.includes("/site/forgetting.js") && later.includes("/site/pkg/forgetting_bg.wasm"), later.join("\n"));
  assert.deepEqual(later.filter((path) => /playground|agent_memory_widgets|\/elements[-_]/.test(path)), []);
  assert.deepEqual(await page.evaluate(() => window.violations), []);
  assert.deepEqual(problems, []);
});

test("the panel for a reader's own conversation, and the core that imports one, load when a reader opens it", async () => {
  const { page, problems, fetched } = await openPage("tests/e2e/pages/site-compaction.html");
  const widget = page.locator("memory-compaction");
  await widget.getByRole("button", { name: "Add next turn" }).waitFor(WAIT);
  const lazy = (paths) => paths.filter((path) => /\/own-|-config[-_]|-own_|\/links-|\/settings-|\/knobs-/.test(path));
  assert.deepEqual(lazy(await fetched()), []);

  await widget.locator("details.own > summary").click();
  await widget.getByRole("textbox", { name: "Conversation to import" }).fill("Dana: Hi there!\nagent: Your refund of 40 EUR for ORD-7 is on its way.");
  await widget.getByRole("button", { name: "Import" }).click();
  assert.equal(await widget.getByRole("combobox", { name: "Kind of turn 2" }).inputValue(), "decision");
  assert.equal(await widget.getByRole("combobox", { name: "Kind of turn 1" }).inputValue(), "chatter");
  const paths = lazy(await fetched());
  assert.ok(paths.some((path) => /^\/site\/own-\w+\.js$/.test(path)), paths.join("\n"));
  assert.ok(paths.includes("/site/pkg/compaction-own_bg.wasm"), paths.join("\n"));
  // No core is fetched twice over: the element now has the core with `withConfig` and the import.
  assert.deepEqual((await fetched()).filter((path) => path.endsWith(".wasm")),
    ["/site/pkg/compaction-own_bg.wasm", "/site/pkg/compaction_bg.wasm"]);
  assert.deepEqual(await page.evaluate(() => window.violations), []);
  assert.deepEqual(problems, []);
});

test("the knobs' inputs load when a reader opens the knobs, and the code that applies a setting and replays when one changes", async () => {
  const { page, problems, fetched } = await openPage("tests/e2e/pages/site-compaction.html");
  const widget = page.locator("memory-compaction");
  await widget.getByRole("button", { name: "Add next turn" }).click();
  await widget.getByRole("status").filter({ hasText: /^Turn 1\b/ }).waitFor(WAIT);
  const loaded = async (name) => (await fetched()).filter((path) => new RegExp(`^/site/${name}-\\w+\\.js$`).test(path)).length;
  assert.deepEqual([await loaded("knobs"), await loaded("settings")], [0, 0]);
  assert.equal(await widget.locator("input[type=number]").count(), 0, "no knob inputs are built yet");

  await widget.locator("summary", { hasText: "Knobs" }).click();
  const budget = widget.getByRole("spinbutton", { name: "budget", exact: true });
  assert.equal(await budget.inputValue(), "40");
  assert.deepEqual([await loaded("knobs"), await loaded("settings")], [1, 0]);
  await budget.fill("30");
  await budget.press("Enter");
  await widget.getByRole("status").filter({ hasText: /^budget is now 30\. / }).waitFor(WAIT);
  assert.deepEqual([await loaded("knobs"), await loaded("settings")], [1, 1]);
  assert.match(await widget.locator(".meter-label").textContent(), /\/ 30 tokens/);
  assert.equal(await page.evaluate(() => document.querySelector("memory-compaction").model.state().turn), 1, "replayed to turn 1");
  assert.deepEqual(await page.evaluate(() => window.violations), []);
  assert.deepEqual(problems, []);
});

test("the knob \"count tokens as\" says what it does, switches the compaction widget to the estimate and back, and the core agrees", async () => {
  const { page, problems, fetched } = await openPage("tests/e2e/pages/site-compaction.html");
  const widget = page.locator("memory-compaction");
  const add = widget.getByRole("button", { name: "Add next turn" });
  for (let i = 0; i < 3; i++) await add.click();
  await widget.getByRole("status").filter({ hasText: /^Turn 3\b/ }).waitFor(WAIT);
  await widget.locator("summary", { hasText: "Knobs" }).click();
  const knob = widget.getByRole("combobox", { name: "count tokens as", exact: true });
  assert.equal(await knob.inputValue(), "words");
  // What it does is said beside it, and read with it.
  const note = widget.locator(".knobs .caption", { hasText: "Count tokens as words" });
  assert.match(await note.textContent(), /one token a word.*one token for each Chinese, Japanese or Korean character in it, plus a quarter of its other characters, rounded up/);
  assert.match(await knob.getAttribute("aria-describedby"), new RegExp(await note.getAttribute("id")));

  await knob.selectOption("estimate");
  await widget.getByRole("status").filter({ hasText: /^count tokens as is now estimate\. / }).waitFor(WAIT);
  // The same three turns, counted by the core's estimate: the window and the crossings are the core's.
  const expected = await page.evaluate(async () => {
    const el = document.querySelector("memory-compaction");
    const session = el.core.Session.withConfig({ tokens: "estimate" });
    for (let i = 0; i < 3; i++) session.addTurn();
    const now = session.state();
    while (!session.state().done) session.addTurn();
    return { now, crossings: session.state().crossings };
  });
  assert.equal(expected.now.counting, "estimate");
  assert.deepEqual(await page.evaluate(() => document.querySelector("memory-compaction").model.state()), expected.now);
  assert.match(await widget.locator(".meter-label").textContent(), new RegExp(`${expected.now.tokens} / 40 tokens`));
  assert.deepEqual(expected.crossings, [3, 4, 5, 6, 7, 8, 9, 10], "estimated, the refund desk's turns are longer");
  assert.equal(await widget.locator(".settings-note").textContent(),
    "With a budget of 40 tokens and 2 HOT turns, counting tokens as an estimate, the window crosses the budget on turns 3, 4, 5, 6, 7, 8, 9 and 10. "
    + "The text around this widget describes the settings it opened with: a budget of 40 and 2 HOT turns.");
  assert.ok((await fetched()).includes("/site/pkg/compaction-config_bg.wasm"), "the option needs withConfig");
  // A link carries it; Seed values restore words and the seed's crossings.
  assert.equal(await widget.evaluate((el) => el.getAttribute("tokens")), "estimate");
  await widget.getByRole("button", { name: "Seed values" }).click();
  await widget.getByRole("status").filter({ hasText: /^Seed values restored/ }).waitFor(WAIT);
  assert.equal(await knob.inputValue(), "words");
  assert.equal(await widget.locator(".settings-note").textContent(),
    "With a budget of 40 tokens and 2 HOT turns, the window crosses the budget on turns 4, 6, 8, 9 and 10.");
  assert.deepEqual(await page.evaluate(() => window.violations), []);
  assert.deepEqual(problems, []);
});

test("tokens=\"bpe\" is an error naming the attribute, and the widget keeps working", async () => {
  const { page, problems } = await openPage("tests/e2e/pages/site-compaction.html");
  const widget = page.locator("memory-compaction");
  await widget.getByRole("button", { name: "Add next turn" }).waitFor(WAIT);
  await widget.evaluate((el) => el.setAttribute("tokens", "bpe"));
  await widget.getByRole("alert").filter({ hasText: 'tokens="bpe": tokens must be "words" or "estimate", got "bpe"' }).waitFor(WAIT);
  await widget.evaluate((el) => el.setAttribute("tokens", "estimate"));
  await widget.getByRole("button", { name: "Add next turn" }).click();
  await widget.getByRole("status").filter({ hasText: /^Turn 1\b/ }).waitFor(WAIT);
  assert.equal(await page.evaluate(() => document.querySelector("memory-compaction").model.state().counting), "estimate");
  assert.ok(problems.every((problem) => /bpe/.test(problem)), problems.join("\n"));
});

test("every knob opens at a value its own input accepts, and its arrow keys step to accepted values", async () => {
  const { page, problems } = await openPage("site/index.html");
  for (const name of ["memory-compaction", "memory-forgetting", "memory-playground", "memory-forgetting-playground"]) {
    const widget = page.locator(name);
    await widget.locator("summary", { hasText: "Knobs" }).click();
    const inputs = widget.locator(".knob input");
    await inputs.first().waitFor(WAIT);
    for (let i = 0; i < await inputs.count(); i++) {
      const input = inputs.nth(i);
      const label = await input.getAttribute("data-label");
      // The browser's own check (min, max, step): a seed value it calls invalid reads as an error.
      assert.ok(await input.evaluate((el) => el.validity.valid), `${name} ${label}: ${await input.inputValue()} is invalid`);
      const seed = await input.inputValue();
      if (seed === "") continue;
      // Each step is applied (the widget says so) before the next is taken.
      for (const [key, expected] of [["ArrowUp", null], ["ArrowDown", seed]]) {
        await input.press(key);
        const value = await input.inputValue();
        if (expected !== null) assert.equal(value, expected, `${name} ${label}: ${key} went back to ${value}`);
        assert.ok(await input.evaluate((el) => el.validity.valid), `${name} ${label}: ${key} gives ${value}, invalid`);
        await widget.getByRole("status").filter({ hasText: `${label} is now ${value}` }).waitFor(WAIT);
      }
    }
  }
  assert.deepEqual(problems, []);
});

test("knobs whose code cannot be fetched say so in the widget, and load when opened again, the error gone", async () => {
  const { page, problems } = await openPage("tests/e2e/pages/site-compaction.html");
  const widget = page.locator("memory-compaction");
  await widget.getByRole("button", { name: "Add next turn" }).waitFor(WAIT);
  await page.route(/\/knobs-\w+\.js$/, (route) => route.abort());
  const knobs = widget.locator("summary", { hasText: "Knobs" });
  await knobs.click();
  await widget.getByRole("alert").filter({ hasText: /^The knobs could not load their code: / }).waitFor(WAIT);
  assert.equal(await widget.locator("input[type=number]").count(), 0);

  await page.unroute(/\/knobs-\w+\.js$/);
  await knobs.click(); // closed
  await knobs.click(); // and opened again: this time the code loads
  assert.equal(await widget.getByRole("spinbutton", { name: "HOT turns", exact: true }).inputValue(), "2");
  assert.equal(await widget.getByRole("alert").isHidden(), true, "the failed try's error is gone");
  await widget.getByRole("button", { name: "Add next turn" }).click();
  await widget.getByRole("status").filter({ hasText: /^Turn 1\b/ }).waitFor(WAIT);
  assert.ok(problems.length > 0 && problems.every((problem) => /\/knobs-\w+\.js/.test(problem)), problems.join("\n"));
});

test("a page with only <memory-forgetting> fetches neither the session nor the playground", async () => {
  const { page, problems, fetched } = await openPage("tests/e2e/pages/site-forgetting.html");
  await page.getByRole("slider", { name: "time" }).waitFor(WAIT);
  const paths = await fetched();
  assert.ok(paths.includes("/site/pkg/forgetting_bg.wasm"), paths.join("\n"));
  assert.deepEqual(paths.filter((path) => /compaction|playground|agent_memory_widgets|\/elements[-_]/.test(path)), []);
  assert.deepEqual(problems, []);
});

test("a page with <memory-compaction> and <memory-forgetting> loads the cores that download less: one for each", async () => {
  const { page, problems, fetched } = await openPage("tests/e2e/pages/site-mixed.html");
  await page.getByRole("slider", { name: "time" }).waitFor(WAIT);
  await page.getByRole("button", { name: "Add next turn" }).click();
  await page.locator("memory-compaction").getByRole("status").filter({ hasText: /^Turn 1\b/ }).waitFor(WAIT);
  await page.getByRole("slider", { name: "time" }).fill("6");
  // benches/sizes.mjs measures the two against the one core that serves both (tests/size.test.mjs).
  const wasm = (await fetched()).filter((path) => path.endsWith(".wasm")).sort();
  assert.deepEqual(wasm, ["/site/pkg/compaction_bg.wasm", "/site/pkg/forgetting_bg.wasm"]);
  assert.deepEqual(problems, []);
});

test("a custom scenario loads the core with withConfig: at once when the page has it, or when it is given", async () => {
  const scenario = { facts: [{ text: "the cat is Misu", importance: 0.9 }, { text: "the dog is Rex", importance: 0.4 }] };
  // Given later: the element played the refund desk on the seed's core, then switches.
  const { page, problems, fetched } = await openPage("tests/e2e/pages/site-forgetting.html");
  const widget = page.locator("memory-forgetting");
  await widget.getByRole("slider", { name: "time" }).waitFor(WAIT);
  assert.deepEqual((await fetched()).filter((path) => /-config/.test(path)), []);
  await page.evaluate((value) => (document.querySelector("memory-forgetting").scenario = value), scenario);
  const store = widget.getByRole("table", { name: "The store, ranked by score" });
  await store.getByRole("row").filter({ hasText: "the cat is Misu" }).waitFor(WAIT);
  assert.equal(await store.locator("tbody tr").count(), 2);
  assert.ok((await fetched()).includes("/site/pkg/forgetting-config_bg.wasm"));
  assert.equal(await widget.getByRole("alert").isHidden(), true);
  // The slider and the knobs work on the new core.
  await widget.getByRole("slider", { name: "time" }).fill("6");
  assert.match(await widget.getByRole("status").textContent(), /t = 6/);
  assert.deepEqual(problems, []);

  // In the page from the start: only the core with `withConfig` is fetched.
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A custom scenario</title>
<script type="module" src="/site/widgets.js"></script></head><body>
<memory-forgetting scenario="#facts"></memory-forgetting>
<script type="application/json" id="facts">${JSON.stringify(scenario)}</script></body></html>`;
  const opened = await open(browser, server.url);
  await opened.page.route(`${server.url}custom-scenario.html`, (route) => route.fulfill({ body: html, contentType: "text/html" }));
  await opened.page.goto(`${server.url}custom-scenario.html`);
  await opened.page.getByRole("table", { name: "The store, ranked by score" }).getByRole("row")
    .filter({ hasText: "the dog is Rex" }).waitFor(WAIT);
  const paths = await opened.page.evaluate(() => performance.getEntriesByType("resource").map((r) => new URL(r.name).pathname));
  assert.ok(paths.includes("/site/pkg/forgetting-config_bg.wasm"), paths.join("\n"));
  assert.deepEqual(paths.filter((path) => /_bg\.wasm$/.test(path)), ["/site/pkg/forgetting-config_bg.wasm"]);
  assert.deepEqual(opened.problems, []);
});

test("a page with only <memory-forgetting-playground> fetches its own small core and nothing else", async () => {
  const { page, problems, fetched } = await openPage("tests/e2e/pages/site-forgetting-playground.html");
  await page.getByRole("slider", { name: "point in the stream" }).waitFor(WAIT);
  const paths = await fetched();
  assert.ok(paths.includes("/site/pkg/forgetting-playground_bg.wasm"), paths.join("\n"));
  assert.deepEqual(paths.filter((path) => /compaction|\/forgetting\.js|forgetting_bg|\/playground|agent_memory_widgets|\/elements[-_]/.test(path)), []);
  assert.deepEqual(await page.evaluate(() => window.violations), []);
  assert.deepEqual(problems, []);
});

test("the stream's radio buttons load the code that replays on the first change; if it cannot load, the stream in force stays checked", async () => {
  const { page, problems } = await openPage("tests/e2e/pages/site-forgetting-playground.html");
  const widget = page.locator("memory-forgetting-playground");
  await widget.getByRole("slider", { name: "point in the stream" }).waitFor(WAIT);
  const long = widget.getByRole("radio", { checked: true });
  const inForce = await long.getAttribute("value");
  const desk = widget.getByRole("radio", { name: "the refund desk alone" });
  await page.route(/\/settings-\w+\.js$/, (route) => route.abort());
  await desk.click();
  await widget.getByRole("alert").filter({ hasText: /^The stream could not change: the code that changes settings did not load/ }).waitFor(WAIT);
  assert.equal(await widget.getByRole("radio", { checked: true }).getAttribute("value"), inForce);
  assert.equal(await widget.evaluate((el) => el.model.state().stream), inForce);

  await page.unroute(/\/settings-\w+\.js$/);
  await desk.click();
  await widget.getByRole("status").filter({ hasText: "Stream: the refund desk alone" }).waitFor(WAIT);
  assert.equal(await widget.evaluate((el) => el.model.state().stream), "refund-desk");
  // The rebuild replaced the radio the reader pressed: focus is on its successor.
  assert.equal(await widget.evaluate((el) => el.shadowRoot.activeElement?.value), "refund-desk");
  assert.ok(problems.length > 0 && problems.every((problem) => /\/settings-\w+\.js/.test(problem)), problems.join("\n"));
});

test("a property set before the element's code loaded still takes effect", async () => {
  // On a page without <memory-compaction>, its code is not loaded: the element below starts as a
  // plain HTMLElement, and the property lands on it before the class exists.
  const { page, problems } = await openPage("tests/e2e/pages/site-forgetting.html");
  await page.getByRole("slider", { name: "time" }).waitFor(WAIT);
  const before = await page.evaluate(() => {
    const el = document.createElement("memory-compaction");
    el.id = "early";
    el.scenario = { script: [{ speaker: "user", kind: "chatter", text: "one two three" }] };
    el.budget = 30;
    const defined = customElements.get("memory-compaction") !== undefined;
    document.querySelector("main").append(el);
    return defined;
  });
  assert.equal(before, false);
  await page.locator("#early #done-note").waitFor(WAIT);
  assert.match(await page.locator("#early #done-note").textContent(), /Turn 0 of 1\b/);
  assert.match(await page.locator("#early .meter-label").textContent(), /\/ 30 tokens/);
  assert.equal(await page.evaluate(() => document.querySelector("#early").getAttribute("budget")), "30");
  assert.deepEqual(problems, []);
});

test("the built compaction widget paints its opening state before its core arrives, exactly as the core then shows it", async () => {
  const opened = await open(browser, server.url);
  let release;
  const held = new Promise((done) => (release = done));
  await opened.page.route("**/*.wasm", async (route) => {
    await held;
    await route.continue();
  });
  await opened.page.goto(server.url + "site/index.html");
  const widget = opened.page.locator("memory-compaction#session");
  const content = () => widget.evaluate((el) => ({
    text: el.shadowRoot.querySelector(".content").textContent,
    markup: el.shadowRoot.querySelector(".content").innerHTML,
    inert: el.shadowRoot.querySelector(".content").inert,
    busy: el.shadowRoot.querySelector(".widget").getAttribute("aria-busy"),
    status: el.shadowRoot.querySelector("[role=status]").textContent,
    error: el.shadowRoot.querySelector("[role=alert]").hidden ? null : el.shadowRoot.querySelector("[role=alert]").textContent,
  }));
  await widget.evaluate((el) => new Promise((done) => {
    const ready = () => el.shadowRoot?.querySelector(".meter-label");
    if (ready()) return done();
    const timer = setInterval(() => ready() && (clearInterval(timer), done()), 10);
  }));
  const before = await content();
  assert.match(before.text, /live window 0 \/ 40 tokens/);
  assert.match(before.text, /Turn 0 of 10\./);
  assert.equal(before.inert, true, "the preview must not take input before the core is in");
  assert.equal(before.busy, "true");
  assert.equal(before.status, "");
  assert.equal(before.error, null);

  // The preview is built as the element connects; a widget with settings of its own has none:
  // it waits for its core.
  assert.deepEqual(await opened.page.evaluate(async () => {
    const plain = document.createElement("memory-compaction");
    const own = document.createElement("memory-compaction");
    own.setAttribute("budget", "30");
    document.querySelector("main").append(plain, own);
    const built = () => [plain, own].map((el) => el.shadowRoot.querySelector(".content").childElementCount);
    const now = built();
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    return [now, built()];
  }), [[6, 0], [6, 0]]);

  // The core takes the preview over: its nodes stay, not built again (see rebuild in widget.js),
  // also for an element whose settings change while its core loads, which shows them, and for
  // one moved meanwhile, which builds once.
  const changed = opened.page.locator("memory-compaction#changed");
  const moved = opened.page.locator("memory-compaction#moved");
  await opened.page.evaluate(() => {
    for (const id of ["changed", "moved"]) {
      const el = document.createElement("memory-compaction");
      el.id = id;
      document.querySelector("main").append(el);
    }
  });
  await changed.locator(".meter-label").waitFor(WAIT);
  for (const el of [widget, changed, moved]) {
    await el.evaluate((el) => {
      for (const selector of ["meter", ".controls", ".tiers", ".transcript"]) el.shadowRoot.querySelector(selector).fromPreview = true;
    });
  }
  await changed.evaluate((el) => el.setAttribute("budget", "30"));
  await moved.evaluate((el) => document.querySelector("main").prepend(el));

  release();
  await widget.getByRole("status").filter({ hasText: "Ready: 10 turns, budget 40 tokens." }).waitFor(WAIT);
  const after = await content();
  assert.equal(after.inert, false);
  assert.equal(after.busy, null);
  assert.equal(after.error, null);
  assert.equal(after.text, before.text);
  assert.equal(after.markup, before.markup);
  const kept = (el) => el.evaluate((el) => ["meter", ".controls", ".tiers", ".transcript"].map((selector) => el.shadowRoot.querySelector(selector).fromPreview === true));
  assert.deepEqual(await kept(widget), [true, true, true, true], "the preview's own nodes");
  await widget.getByRole("button", { name: "Add next turn" }).click();
  await widget.getByRole("status").filter({ hasText: /^Turn 1\b/ }).waitFor(WAIT);
  assert.match(await widget.locator(".meter-label").textContent(), /live window \d+ \/ 40 tokens/);

  await changed.getByRole("status").filter({ hasText: "Ready: 10 turns, budget 30 tokens." }).waitFor(WAIT);
  assert.match(await changed.locator(".meter-label").textContent(), /\/ 30 tokens/);
  await changed.locator("summary", { hasText: "Knobs" }).click();
  assert.equal(await changed.getByRole("spinbutton", { name: "budget", exact: true }).inputValue(), "30", "its budget knob");
  assert.deepEqual(await kept(changed), [true, true, true, true], "the changed element's preview nodes");
  await moved.getByRole("status").filter({ hasText: "Ready: 10 turns, budget 40 tokens." }).waitFor(WAIT);
  await opened.page.evaluate(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 100))));
  assert.deepEqual(await kept(moved), [true, true, true, true], "the moved element's preview nodes, after its one build");

  assert.deepEqual(opened.problems, []);
});

test("with the async loader, a scenario=\"#id\" script after its element is still read", async () => {
  // A script that holds the parser between the element and its scenario, while the loader and
  // the core (preloaded) arrive: the element could build before the parser reaches the scenario.
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A late scenario</title>
<link rel="preload" href="/site/pkg/compaction_bg.wasm" as="fetch" type="application/wasm" crossorigin>
<script type="module" async src="/site/widgets.js"></script></head><body>
<memory-compaction scenario="#late"></memory-compaction>
<script src="/slow-parser.js"></script>
<script type="application/json" id="late">{ "script": [
  { "speaker": "Dana", "kind": "question", "text": "Is the late scenario here?", "summary": "late scenario" },
  { "speaker": "agent", "kind": "decision", "text": "Yes, read once the page was parsed.", "summary": "read once parsed" }
] }</script></body></html>`;
  const opened = await open(browser, server.url);
  const { page, problems } = opened;
  await page.route(`${server.url}late-scenario.html`, (route) => route.fulfill({ body: html, contentType: "text/html" }));
  let built = false;
  await page.route(`${server.url}slow-parser.js`, async (route) => {
    // Hold the parser until the element has its core (or 5 s).
    for (let waited = 0; waited < 5_000 && !built; waited += 50) {
      built = await page.evaluate(() => Boolean(document.querySelector("memory-compaction")?.core)).catch(() => false);
      await new Promise((done) => setTimeout(done, 50));
    }
    await route.fulfill({ body: "", contentType: "text/javascript" });
  });
  await page.goto(`${server.url}late-scenario.html`);
  assert.ok(built, "the core should have arrived while the parser was held");
  const widget = page.locator("memory-compaction");
  await widget.getByRole("status").filter({ hasText: "Ready" }).waitFor(WAIT);
  assert.match(await widget.getByRole("status").textContent(), /Ready: 2 turns/);
  assert.equal(await widget.getByRole("alert").isHidden(), true);
  // Its script is played by the core with `withConfig` (the preloaded core has the seed's settings only).
  const paths = await page.evaluate(() => performance.getEntriesByType("resource").map((r) => new URL(r.name).pathname));
  assert.ok(paths.includes("/site/pkg/compaction-config_bg.wasm"), paths.join("\n"));
  assert.deepEqual(problems, []);
});

test("a core that cannot be fetched is explained inside the widget", async () => {
  const opened = await open(browser, server.url);
  await opened.page.route("**/*.wasm", (route) => route.abort());
  await opened.page.goto(server.url + "tests/e2e/pages/site-compaction.html");
  const alert = opened.page.locator("memory-compaction").getByRole("alert");
  await alert.waitFor(WAIT);
  assert.match(await alert.textContent(), /could not load its WebAssembly core/);
  const height = await opened.page.locator("memory-compaction").evaluate((el) => el.getBoundingClientRect().height);
  assert.ok(height < 200, `the frame still holds the placeholder's height: ${height} px`);
  // The element painted its opening state before the core failed: none of its controls stay.
  assert.deepEqual(await opened.page.locator("memory-compaction").evaluate((el) =>
    [...el.shadowRoot.querySelectorAll("button, input, select, textarea, summary")].map((c) => c.textContent)), []);
  assert.equal(await opened.page.locator("memory-compaction").evaluate((el) => el.shadowRoot.querySelector(".widget").hasAttribute("aria-busy")), false);
  assert.ok(opened.problems.length > 0 && opened.problems.every((problem) => /\.wasm/.test(problem)), opened.problems.join("\n"));
});

/**
 * Every element in each widget's shadow root, with its computed style (and its ::before's), once
 * the page is driven to a state that uses most rules: the session at its last turn, the store at
 * its last time, the playground at its end.
 */
async function computedStyles(path, width) {
  const { page, problems, context } = await openPage(path);
  await page.setViewportSize({ width, height: 900 });
  const add = page.getByRole("button", { name: "Add next turn" });
  await add.waitFor(WAIT);
  while (await add.isEnabled()) await add.click();
  const time = page.getByRole("slider", { name: "time" });
  await time.fill(await time.getAttribute("max"));
  await page.locator("memory-playground .policies").waitFor(WAIT);
  const point = page.getByRole("slider", { name: "point in the stream" });
  await point.fill(await point.getAttribute("max"));
  // The panel for a reader's own conversation, whose rules the build gives to own.js.
  for (const name of ["memory-compaction", "memory-playground"]) {
    const widget = page.locator(name).first();
    await widget.locator("details.own > summary").click();
    await widget.getByRole("button", { name: "Import" }).waitFor(WAIT);
  }
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  const styles = await page.evaluate(() => {
    const all = {};
    for (const host of document.querySelectorAll("memory-compaction, memory-forgetting, memory-playground, memory-forgetting-playground")) {
      // The sources link style.css into each shadow root; the build adopts constructed sheets.
      [...host.shadowRoot.querySelectorAll("*")].filter((el) => el.localName !== "link").forEach((el, i) => {
        for (const pseudo of [null, "::before"]) {
          const style = getComputedStyle(el, pseudo);
          const values = [];
          for (let p = 0; p < style.length; p++) values.push(`${style[p]}: ${style.getPropertyValue(style[p])}`);
          all[`${host.localName} #${i} <${el.localName} class="${el.getAttribute("class") ?? ""}">${pseudo ?? ""}`] = values.sort().join("; ");
        }
      });
    }
    return all;
  });
  assert.deepEqual(problems, []);
  await context.close();
  return styles;
}

test("the built page's elements, each given only its own rules, look exactly as with the whole stylesheet", async () => {
  for (const width of [1280, 390]) {
    const whole = await computedStyles("www/index.html", width);
    const split = await computedStyles("site/index.html", width);
    assert.deepEqual(Object.keys(split), Object.keys(whole), `the same elements at ${width} px`);
    const differ = Object.keys(whole).filter((key) => whole[key] !== split[key]).map((key) => {
      const a = new Set(whole[key].split("; ")), b = new Set(split[key].split("; "));
      return `${key}: ${[...a].filter((v) => !b.has(v)).join("; ")} -> ${[...b].filter((v) => !a.has(v)).join("; ")}`;
    });
    assert.ok(Object.keys(whole).length > 300, "the pages were driven to a rich state");
    assert.deepEqual(differ.slice(0, 10), [], `${differ.length} elements styled differently at ${width} px`);
  }
});
