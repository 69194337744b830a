// Shared by the browser tests: a static server on 127.0.0.1 and a headless Debian Chromium,
// with every console error, page error, failed or foreign request collected so a test can
// assert there were none.

import { createServer } from "node:http";
import { readFile, mkdir } from "node:fs/promises";
import { extname, join, normalize, resolve } from "node:path";
import { before, after } from "node:test";
import { chromium } from "playwright-core";

export const ROOT = resolve(import.meta.dirname, "../..");
export const SCREENSHOTS = join(ROOT, "target/screenshots");

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".ico": "image/x-icon",
};

/** Serves `dir` on a free port of 127.0.0.1; `headers` are added to every response. */
export async function serve(dir = join(ROOT, "www"), headers = {}) {
  const root = resolve(dir);
  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url, "http://x").pathname);
    let file = normalize(join(root, path));
    if (!file.startsWith(root)) return response.writeHead(403).end();
    if (path.endsWith("/")) file = join(file, "index.html");
    try {
      const body = await readFile(file);
      response.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", ...headers });
      response.end(body);
    } catch {
      response.writeHead(404).end("not found");
    }
  });
  await new Promise((done) => server.listen(0, "127.0.0.1", done));
  const url = `http://127.0.0.1:${server.address().port}/`;
  // Closing drops the connections a page still holds open too: server.close alone waits for
  // them, which hangs a test whose page is still loading.
  return { url, close: () => new Promise((done) => {
    server.close(done);
    server.closeAllConnections();
  }) };
}

/**
 * Launches Debian's Chromium headless with the flags that work on these closed machines, plus
 * `extraArgs`. Playwright gives each launch a fresh, empty user-data dir of its own.
 */
export async function launch(extraArgs = []) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
      ...extraArgs,
    ],
  });
}

/**
 * Opens a page that records problems: console errors, uncaught errors, failed requests and any
 * request that is not to `origin`. `problems` should be empty at the end of every test.
 */
export async function open(browser, origin, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, ...options });
  const page = await context.newPage();
  const problems = [];
  page.on("console", (message) => {
    // HTTP errors are reported by URL below; Chromium's console line for them names no URL.
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("requestfailed", (request) => problems.push(`failed: ${request.url()} ${request.failure()?.errorText}`));
  page.on("response", (response) => {
    // The browser asks for /favicon.ico by itself on pages without an icon; that is not ours.
    if (response.status() >= 400 && !response.url().endsWith("/favicon.ico")) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  page.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith(origin) && !url.startsWith("data:") && !url.startsWith("blob:")) problems.push(`foreign request: ${url}`);
  });
  return { page, context, problems };
}

/** Saves a screenshot of a page (full length) or of one element under target/screenshots/. */
export async function screenshot(pageOrElement, name) {
  await mkdir(SCREENSHOTS, { recursive: true });
  const full = "goto" in pageOrElement ? { fullPage: true } : {};
  await pageOrElement.screenshot({ path: join(SCREENSHOTS, `${name}.png`), ...full });
}

/**
 * Runs axe-core on the page (shadow roots included) and returns its violations. `rules` adds
 * rules that axe leaves off by default, such as `target-size` (WCAG 2.2), which Lighthouse runs.
 */
export async function axe(page, rules = []) {
  const source = await readFile(join(ROOT, "node_modules/axe-core/axe.min.js"), "utf8");
  await page.evaluate(source);
  return page.evaluate(async (rules) => {
    const enabled = Object.fromEntries(rules.map((id) => [id, { enabled: true }]));
    const result = await globalThis.axe.run(document, { resultTypes: ["violations"], rules: enabled });
    return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join("; ")})`);
  }, rules);
}

/**
 * For a test file: serves `dir` (www/ by default) and launches Chromium before its tests, closes
 * both after. Returns an object whose `server` and `browser` are set by the time a test runs.
 */
export function useBrowser(dir = join(ROOT, "www")) {
  const env = {};
  before(async () => {
    env.server = await serve(dir);
    env.browser = await launch();
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.close();
  });
  return env;
}
