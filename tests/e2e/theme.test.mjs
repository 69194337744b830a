// The host's theme: with theme="auto" (the default) each widget takes the light or dark scheme of
// the page around it, and follows it when the reader switches the host's theme. In the real
// mdBook (its theme menu: light and coal), and on pages that switch as VitePress (`.dark` on
// <html>), Docusaurus (`data-theme="dark"`) and MkDocs Material (`data-md-color-scheme="slate"`
// on <body>) do, with those hosts' own background colours. axe finds no contrast failure in
// either scheme. (The operating system's preference is light throughout: a dark widget here is
// the host's doing.)

import { test } from "node:test";
import assert from "node:assert/strict";
import { ROOT, useBrowser, open, axe, screenshot } from "./harness.mjs";

const env = useBrowser(ROOT);
const WAIT = { timeout: 10_000 };

/** A page with a compaction and a forgetting widget whose theme `switchTo(dark)` switches as a docs host does. */
const host = (name, css, switcher) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${name}</title>
<style>${css}</style>
<script type="module" src="/dist/agent-memory-widgets/widgets.js"></script></head>
<body><main><h1>${name}</h1><p>Some text of the host's.</p>
<memory-compaction></memory-compaction><memory-forgetting></memory-forgetting></main>
<script>window.switchTo = (dark) => { ${switcher} };</script></body></html>`;

/** Each host's switch, and its backgrounds (from its own stylesheet) in light and dark. */
const HOSTS = {
  VitePress: host("VitePress", ":root { --vp-c-bg: #ffffff; --vp-c-text-1: #3c3c43 } html.dark { --vp-c-bg: #1b1b1f; --vp-c-text-1: #dfdfd6 } body { background: var(--vp-c-bg); color: var(--vp-c-text-1) }",
    "document.documentElement.classList.toggle('dark', dark)"),
  Docusaurus: host("Docusaurus", "html { --ifm-background-color: #fff; --ifm-font-color-base: #1c1e21 } html[data-theme=dark] { --ifm-background-color: #1b1b1d; --ifm-font-color-base: #e3e3e3; color-scheme: dark } body { background: var(--ifm-background-color); color: var(--ifm-font-color-base) }",
    "document.documentElement.dataset.theme = dark ? 'dark' : 'light'"),
  "MkDocs Material": host("MkDocs Material", "[data-md-color-scheme=default] { --md-default-bg-color: #fff; --md-default-fg-color: rgba(0,0,0,.87) } [data-md-color-scheme=slate] { --md-default-bg-color: hsla(232, 15%, 14%, 1); --md-default-fg-color: hsla(232, 75%, 95%, 0.82); color-scheme: dark } body { background: var(--md-default-bg-color); color: var(--md-default-fg-color) }",
    "document.body.dataset.mdColorScheme = dark ? 'slate' : 'default'"),
};

/** The scheme each widget on the page shows: "dark" or "light", by its custom state and its frame's background. */
async function schemes(page) {
  return page.evaluate(() => [...document.querySelectorAll("memory-compaction, memory-forgetting")].map((el) => {
    const [r, g, b] = getComputedStyle(el.shadowRoot.querySelector(".widget")).backgroundColor.match(/[\d.]+/g).map(Number);
    const frame = r + g + b < 3 * 128 ? "dark" : "light";
    const state = el.matches(":state(dark)") ? "dark" : el.matches(":state(light)") ? "light" : "none";
    return state === frame ? frame : `state ${state}, frame ${frame}`;
  }));
}

/** Waits for both widgets to be built, then checks their scheme and runs axe's contrast rule. */
async function check(page, want, what) {
  await page.locator("memory-forgetting tbody tr").first().waitFor(WAIT);
  await page.locator("memory-compaction .meter-label").waitFor(WAIT);
  assert.deepEqual(await schemes(page), [want, want], `${what}: both widgets ${want}`);
  // The widgets' nodes only: a host's own chrome (mdBook's menu) is not ours to judge.
  const contrast = (await axe(page)).filter((violation) => violation.startsWith("color-contrast"))
    .flatMap((violation) => violation.replace(/^[^(]*\(|\)$/g, "").split("; ")).filter((node) => node.startsWith("memory-"));
  assert.deepEqual(contrast, [], `${what}: no contrast failure`);
}

for (const [name, page] of Object.entries(HOSTS)) {
  test(`${name}: the widgets take the host's light and dark themes as the reader switches`, { timeout: 60_000 }, async () => {
    const { page: tab, problems } = await open(env.browser, env.server.url, { colorScheme: "light" });
    await tab.route(`${env.server.url}host.html`, (route) => route.fulfill({ body: page, contentType: "text/html" }));
    await tab.goto(`${env.server.url}host.html`);
    await check(tab, "light", `${name} light`);
    await tab.evaluate(() => window.switchTo(true));
    await check(tab, "dark", `${name} dark`);
    await screenshot(tab, `theme-${name.toLowerCase().replace(/ /g, "-")}-dark`);
    await tab.evaluate(() => window.switchTo(false));
    await check(tab, "light", `${name} light again`);
    assert.deepEqual(problems, []);
  });
}

test("mdBook: light and coal from the book's own theme menu", { timeout: 60_000 }, async () => {
  const { page, problems } = await open(env.browser, env.server.url, { colorScheme: "light" });
  await page.goto(`${env.server.url}examples/mdbook/book/memory.html`);
  await check(page, "light", "mdBook light");
  for (const [theme, want] of [["coal", "dark"], ["light", "light"]]) {
    // The menu's own button (clicked in the page: the menu may have closed over it).
    await page.locator(`#${theme}`).evaluate((button) => button.click());
    await check(page, want, `mdBook ${theme}`);
    if (theme === "coal") await screenshot(page, "theme-mdbook-coal");
  }
  assert.deepEqual(problems, []);
});

test("theme=\"light\" and theme=\"dark\" fix the scheme whatever the host's", async () => {
  const { page, problems } = await open(env.browser, env.server.url, { colorScheme: "light" });
  await page.route(`${env.server.url}host.html`, (route) => route.fulfill({ body: HOSTS.VitePress, contentType: "text/html" }));
  await page.goto(`${env.server.url}host.html`);
  await page.locator("memory-forgetting tbody tr").first().waitFor(WAIT);
  await page.evaluate(() => {
    document.querySelector("memory-compaction").theme = "dark";
    document.querySelector("memory-forgetting").theme = "light";
    window.switchTo(true);
  });
  const frames = await page.evaluate(() => [...document.querySelectorAll("memory-compaction, memory-forgetting")]
    .map((el) => getComputedStyle(el.shadowRoot.querySelector(".widget")).colorScheme));
  assert.deepEqual(frames, ["dark", "light"]);
  assert.deepEqual(problems, []);
});

// Backgrounds as today's stylesheets write them: computed, these stay oklch() (Tailwind 4's
// palette), lab(), or become color(srgb ...) (color-mix()), not rgb(). And a page that allows
// both schemes and paints no background: the reader's preference, light here.
const PAINTED = [
  ["oklch(0.98 0.01 250)", "light"], ["oklch(0.21 0.03 265)", "dark"], ["lab(96 0 -2)", "light"],
  ["lab(12 1 -8)", "dark"], ["color-mix(in srgb, white 90%, black)", "light"], ["color-mix(in srgb, white 10%, black)", "dark"],
  ["color(display-p3 0.1 0.1 0.12)", "dark"], ["transparent; color-scheme: light dark", "light"],
];
for (const [background, want] of PAINTED) {
  test(`a host painted ${background} gives the widgets its ${want} scheme`, { timeout: 60_000 }, async () => {
    const { page, problems } = await open(env.browser, env.server.url, { colorScheme: "light" });
    const body = host("Painted", `body { background: ${background} }`, "");
    await page.route(`${env.server.url}host.html`, (route) => route.fulfill({ body, contentType: "text/html" }));
    await page.goto(`${env.server.url}host.html`);
    await page.locator("memory-forgetting tbody tr").first().waitFor(WAIT);
    await page.locator("memory-compaction .meter-label").waitFor(WAIT);
    assert.deepEqual(await schemes(page), [want, want]);
    assert.deepEqual(problems, []);
  });
}
