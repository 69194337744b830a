// Keys stay inside the widget: a key a control uses (arrows, Home/End, Page Up/Down, Enter,
// Space, typing in a text box) never reaches the host page's listeners, so a docs host's
// shortcuts neither fire nor block the control; every other key passes through. On a host page
// whose document records and cancels every key, as mdBook and reveal.js do (the real mdBook:
// tests/e2e/keys-mdbook.test.mjs).

import { test } from "node:test";
import assert from "node:assert/strict";
import { ROOT, useBrowser, open } from "./harness.mjs";

// The repository root: the host page loads www/, the book is examples/mdbook/book/.
const env = useBrowser(ROOT);
const WAIT = { timeout: 5000 };
const ELEMENTS = ["memory-compaction", "memory-forgetting", "memory-playground", "memory-forgetting-playground"];
const NAVIGATION = ["ArrowRight", "ArrowLeft", "ArrowUp", "ArrowDown", "PageUp", "PageDown", "Home", "End"];

/** A host page with all four elements whose document records every key, and cancels keydown, as mdBook and reveal.js do. */
const HOST = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A host with shortcuts</title>
<script>
  window.hostKeys = [];
  for (const type of ["keydown", "keypress", "keyup"]) {
    document.addEventListener(type, (event) => {
      window.hostKeys.push(type + " " + event.key);
      if (type === "keydown") event.preventDefault();
    });
  }
</script>
<script type="module" src="/www/widgets.js"></script></head><body>
${ELEMENTS.map((name) => `<${name}></${name}>`).join("\n")}
</body></html>`;

/** Opens every disclosure in the element (the knobs, the own-conversation panel), so that every control is there. */
async function openEverything(widget) {
  await widget.evaluate((el) => {
    for (const details of el.shadowRoot.querySelectorAll("details:not([open])")) details.open = true;
  });
}

/**
 * The sliders, spin buttons and text boxes of `widget` that a reader can use, by id (each has
 * one: its label points at it), every disclosure opened.
 */
async function controls(widget) {
  await openEverything(widget);
  return widget.evaluate((el) => [...el.shadowRoot.querySelectorAll("input, textarea")]
    .filter((c) => !c.readOnly && !c.disabled && c.getClientRects().length > 0 && ["range", "number", "text", "textarea"].includes(c.type))
    .map((c) => ({ id: c.id, role: { range: "slider", number: "spinbutton" }[c.type] ?? "textbox" })));
}

const hostKeys = (page) => page.evaluate(() => window.hostKeys.splice(0));

test("on a host that cancels every key, each slider, spin button and text box of all four elements keeps its keys, and the host sees the rest", { timeout: 120_000 }, async () => {
  const { page, problems } = await open(env.browser, env.server.url);
  page.setDefaultTimeout(5000);
  await page.route(`${env.server.url}keys-host.html`, (route) => route.fulfill({ body: HOST, contentType: "text/html" }));
  await page.goto(`${env.server.url}keys-host.html`);
  // A button keeps Enter and Space, and they press it; a letter on it reaches the host.
  await page.locator("memory-compaction").getByRole("button", { name: "Add next turn" }).waitFor(WAIT);
  const add = page.locator("memory-compaction").getByRole("button", { name: "Add next turn" });
  await add.focus();
  await hostKeys(page);
  await add.press("Enter");
  await add.press(" ");
  assert.match(await page.locator("memory-compaction").getByRole("status").textContent(), /^Turn 2/);
  assert.deepEqual(await hostKeys(page), []);
  await add.press("s");
  // (The host cancels keydown, so no keypress follows.)
  assert.deepEqual(await hostKeys(page), ["keydown s", "keyup s"]);
  let checked = 0;
  for (const name of ELEMENTS) {
    const widget = page.locator(name);
    await widget.locator(".content > *").first().waitFor(WAIT);
    for (const { id, role } of await controls(widget)) {
      assert.ok(id, `${name}: a ${role} without an id`);
      await openEverything(widget);
      const control = widget.locator(`#${id}`);
      const what = `${name} ${role} #${id}`;
      await control.focus();
      await hostKeys(page);
      if (role === "slider") {
        const max = await control.getAttribute("max");
        for (const key of NAVIGATION) await control.press(key);
        await control.press("End");
        assert.equal(await control.inputValue(), max, `${what}: End moves it to its end, the host cancelling nothing`);
        await control.press("Home");
      } else {
        await control.press("End");
        await control.pressSequentially("7 sf/np");
        if (role === "textbox") assert.match(await control.inputValue(), /7 sf\/np$/, `${what}: the typing went into the box`);
        await control.press("Backspace");
        await control.press("ArrowLeft");
        await control.press("Enter");
      }
      assert.deepEqual(await hostKeys(page), [], `${what}: no key it uses reached the host`);
      // Keys no control uses pass through, whole: Escape, a Ctrl shortcut (its Control too), Tab.
      await control.press("Escape");
      assert.deepEqual(await hostKeys(page), ["keydown Escape", "keyup Escape"], `${what}: Escape reaches the host`);
      await control.press("Control+k");
      assert.deepEqual(await hostKeys(page), ["keydown Control", "keydown k", "keyup k", "keyup Control"], `${what}: Ctrl+K reaches the host`);
      // (The host cancels Tab's keydown, so focus stays: its keyup comes from the same control.)
      await control.press("Tab");
      assert.deepEqual(await hostKeys(page), ["keydown Tab", "keyup Tab"], `${what}: Tab reaches the host`);
      checked++;
    }
  }
  // Every element has at least one: the sliders, the knobs' spin buttons, the panel's text box.
  assert.ok(checked >= 10, `only ${checked} controls checked`);

  assert.deepEqual(problems, []);
  await page.close();
});

/**
 * The keys each kind of focusable thing uses, by this test's own reckoning: a slider, a radio
 * group, a chart line and a scrolling region move with the navigation keys; a button, a
 * disclosure and a check box are pressed with Enter or Space (a link opens with Enter, which
 * would leave the page: its keys are the first test's concern).
 */
function keysOf(control) {
  if (control.tag === "input" && ["range", "radio"].includes(control.type)) return NAVIGATION;
  if (["button", "summary"].includes(control.tag) || (control.tag === "input" && control.type === "checkbox")) return ["Enter", " "];
  if (control.tabindex !== null && !["a", "input", "select", "textarea"].includes(control.tag)) return NAVIGATION;
  return [];
}

test("every focusable thing in every element, guided answers, chart lines and disclosures among them, keeps the keys it uses", { timeout: 240_000 }, async () => {
  const { page, problems } = await open(env.browser, env.server.url);
  page.setDefaultTimeout(5000);
  const host = HOST.replace("<memory-compaction></memory-compaction>", "<memory-compaction guided></memory-compaction><memory-forgetting guided></memory-forgetting>");
  await page.route(`${env.server.url}keys-host.html`, (route) => route.fulfill({ body: host, contentType: "text/html" }));
  await page.goto(`${env.server.url}keys-host.html`);
  const kinds = new Set();
  let checked = 0;
  const elements = page.locator(ELEMENTS.join(","));
  for (let e = 0; e < await elements.count(); e++) {
    const widget = elements.nth(e);
    await widget.locator(".content > *").first().waitFor(WAIT);
    await openEverything(widget);
    await page.waitForTimeout(300); // the knobs' inputs load as their disclosure opens
    const count = await widget.evaluate((el, selector) => el.shadowRoot.querySelectorAll(selector).length, FOCUSABLE);
    for (let i = 0; i < count; i++) {
      await openEverything(widget);
      // Focus the i-th focusable thing (the list may have changed with the last control's action).
      const control = await widget.evaluate((el, [i, selector]) => {
        const target = [...el.shadowRoot.querySelectorAll(selector)][i];
        if (!target || target.disabled || target.getClientRects().length === 0 || target.closest("[inert]")) return null;
        // A button that opens a file picker or copies a link leaves the page's keys alone but not the test's page.
        if (/file|copy/i.test(target.textContent)) return null;
        target.focus();
        if (el.shadowRoot.activeElement !== target) return null;
        return { tag: target.localName, type: target.getAttribute("type"), tabindex: target.getAttribute("tabindex"), what: `${target.localName}.${target.getAttribute("class") ?? ""} "${(target.getAttribute("aria-label") ?? target.textContent).slice(0, 40)}"` };
      }, [i, FOCUSABLE]);
      if (!control) continue;
      const keys = keysOf(control);
      if (keys.length === 0) continue;
      const name = await widget.evaluate((el) => el.localName);
      for (const key of keys) {
        // Each key from the control itself: an action (an answer, a step) may have moved focus on.
        const focused = await widget.evaluate((el, [i, selector]) => {
          const target = [...el.shadowRoot.querySelectorAll(selector)][i];
          target?.focus();
          return Boolean(target) && el.shadowRoot.activeElement === target;
        }, [i, FOCUSABLE]);
        if (!focused) break;
        await hostKeys(page);
        await page.keyboard.press(key);
        // Its keyup may come from where an action moved focus (a guide's verdict): the host's
        // shortcuts listen for keydown.
        const leaked = (await hostKeys(page)).filter((entry) => !entry.startsWith("keyup"));
        assert.deepEqual(leaked, [], `${name}: ${control.what}: ${JSON.stringify(key)}, which it uses, reached the host`);
      }
      kinds.add(control.tag === "g" ? "chart line" : control.tag);
      checked++;
    }
  }
  for (const kind of ["chart line", "summary", "button", "input"]) assert.ok(kinds.has(kind), `no ${kind} was checked: ${[...kinds]}`);
  assert.ok(checked >= 40, `only ${checked} focusable things checked`);
  assert.deepEqual(problems, []);
  await page.close();
});

const FOCUSABLE = 'button, input, select, summary, [tabindex]:not(a)';
