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
