// The docs hosts of examples/, each using the package as a user would: the tarball of `make dist`
// installed with npm (`make examples` installs each host's own packages once, from its lock file,
// then the tarball), or the copied folder. Each is opened in Chromium, where a reader plays a
// turn, a slider step and a file read in the import's worker, with no console error. The Vite
// hosts (Vite 8, VitePress on Vite 5, Astro on Vite 6) have no Vite setting; each is built here,
// printing no warning, and run in dev too, where dependency pre-bundling moves the package's code
// away from its files (www/located.js).

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { createServer } from "node:net";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ROOT, serve, launch, open } from "./harness.mjs";

const EXAMPLES = join(ROOT, "examples");
const WAIT = { timeout: 30_000 };

/**
 * Plays a turn and a slider step on the page open at `url`: Add next turn on the first
 * <memory-compaction>, and → on the first <memory-forgetting>'s time slider.
 */
async function play(browser, url) {
  const { page, problems } = await open(browser, new URL(url).origin);
  await page.goto(url);
  const compaction = page.locator("memory-compaction").first();
  await compaction.getByRole("button", { name: "Add next turn" }).click(WAIT);
  await compaction.getByRole("status").filter({ hasText: /^Turn 1/ }).waitFor(WAIT);
  const slider = page.locator("memory-forgetting").first().getByRole("slider", { name: "time" });
  await slider.focus(WAIT);
  const before = Number(await slider.inputValue());
  await slider.press("ArrowRight");
  assert.equal(Number(await slider.inputValue()), before + 1, `${url}: the time slider stepped`);
  // A file read in the import's worker, which the host must serve (or bundle) and start.
  await compaction.locator("details.own > summary").click(WAIT);
  await compaction.getByLabel("Or choose a file").setInputFiles(join(ROOT, "tests/fixtures/import/lines.txt"));
  await compaction.getByRole("status").filter({ hasText: /^Imported 5 turns from plain lines/ }).waitFor(WAIT);
  // The host's own workers aside (MkDocs Material's search), the one named by large.js.
  const names = await Promise.all(page.workers().map((worker) => worker.evaluate(() => self.name)));
  assert.equal(names.filter((name) => name === "agent-memory-widgets import").length, 1, `${url}: the import ran in its worker`);
  await page.close();
  return problems;
}

/**
 * Builds examples/`host` with `args` (its build command), and fails on a warning in its output:
 * the package must build with no setting and no warning of its own.
 */
function build(host, args) {
  const env = { ...process.env, ASTRO_TELEMETRY_DISABLED: "1", NO_COLOR: "1" };
  const log = execFileSync(process.execPath, args, { cwd: join(EXAMPLES, host), env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  assert.doesNotMatch(log, /warn|doesn't exist|\(!\)/i, log);
}

/** Fails if the host's config sets what the package once needed: a Vite setting of its own. */
function assertNoViteSettings(file) {
  const path = join(EXAMPLES, file);
  if (existsSync(path)) assert.doesNotMatch(readFileSync(path, "utf8"), /optimizeDeps|worker|vite:/, `${file} needs no Vite setting`);
}

/** A free port on 127.0.0.1. */
async function freePort() {
  const server = createServer();
  await new Promise((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address();
  await new Promise((done) => server.close(done));
  return port;
}

/** Runs a host's command in examples/`host` until `ready` appears in its output; returns a stop function. */
async function start(host, args, ready) {
  // No colours: with CI set, the hosts colour their output, and an escape code can stand inside
  // the words `ready` looks for ("Local\x1b[22m:").
  const env = { ...process.env, ASTRO_TELEMETRY_DISABLED: "1", NO_COLOR: "1" };
  const child = spawn(process.execPath, args, { cwd: join(EXAMPLES, host), env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  await new Promise((done, fail) => {
    // A host that does not start is stopped, or it would keep the test file running.
    const timer = setTimeout(() => {
      child.kill();
      fail(new Error(`${host} did not start:\n${output}`));
    }, 30_000);
    for (const stream of [child.stdout, child.stderr]) {
      stream.on("data", (chunk) => {
        output += chunk;
        if (ready.test(output.replace(/\x1b\[[\d;]*m/g, ""))) {
          clearTimeout(timer);
          done();
        }
      });
    }
    child.on("exit", (code) => fail(new Error(`${host} exited with ${code}:\n${output}`)));
  });
  return { output: () => output, stop: () => child.kill() };
}

/** Whether examples/`host` has its packages and the tarball installed (`make examples`). */
const installed = (host) => existsSync(join(EXAMPLES, host, "node_modules/agent-memory-widgets/package.json"));

test("plain HTML: the copied folder, one script tag", async () => {
  const server = await serve(ROOT);
  const browser = await launch();
  try {
    assert.deepEqual(await play(browser, `${server.url}examples/plain.html`), []);
  } finally {
    await browser.close();
    await server.close();
  }
});

test("Vite: `vite build` prints no warning, and the built page plays", { timeout: 120_000 }, async () => {
  assert.ok(installed("vite"), "examples/vite/ is not installed: run make examples");
  const vite = join(EXAMPLES, "vite/node_modules/vite/bin/vite.js");
  const log = execFileSync(process.execPath, [vite, "build"], { cwd: join(EXAMPLES, "vite"), encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  assert.doesNotMatch(log, /warn|doesn't exist|\(!\)/i, log);
  const server = await serve(join(EXAMPLES, "vite/dist"));
  const browser = await launch();
  try {
    assert.deepEqual(await play(browser, server.url), []);
  } finally {
    await browser.close();
    await server.close();
  }
});

test("Vite dev: the wasm is found after dependency pre-bundling, with no configuration", { timeout: 120_000 }, async () => {
  assert.ok(installed("vite"), "examples/vite/ is not installed: run make examples");
  assert.ok(!existsSync(join(EXAMPLES, "vite/vite.config.js")), "the example needs no configuration");
  const port = await freePort();
  // --force: pre-bundle afresh, from the package as installed now.
  const dev = await start("vite", ["node_modules/vite/bin/vite.js", "--host", "127.0.0.1", "--port", String(port), "--strictPort", "--force"], /ready in/i);
  const browser = await launch();
  try {
    const problems = await play(browser, `http://127.0.0.1:${port}/`);
    assert.deepEqual(problems, []);
    assert.match(execFileSync("ls", [join(EXAMPLES, "vite/node_modules/.vite/deps")], { encoding: "utf8" }), /agent-memory-widgets/, "the package was pre-bundled");
    assert.doesNotMatch(dev.output(), /error|warn/i, dev.output());
  } finally {
    await browser.close();
    dev.stop();
  }
});

test("VitePress, on Vite 5, with no Vite setting: `vitepress build` prints no warning, and the built site and the dev server play", { timeout: 180_000 }, async () => {
  assert.ok(installed("vitepress"), "examples/vitepress/ is not installed: run make examples");
  assertNoViteSettings("vitepress/docs/.vitepress/config.mjs");
  build("vitepress", ["node_modules/vitepress/bin/vitepress.js", "build", "docs"]);
  const server = await serve(join(EXAMPLES, "vitepress/docs/.vitepress/dist"));
  const browser = await launch();
  try {
    assert.deepEqual(await play(browser, server.url), []);
    const port = await freePort();
    // Pre-bundled afresh, from the package as installed now (VitePress's --force keeps its cache).
    rmSync(join(EXAMPLES, "vitepress/docs/.vitepress/cache"), { recursive: true, force: true });
    const dev = await start("vitepress", ["node_modules/vitepress/bin/vitepress.js", "dev", "docs", "--host", "127.0.0.1", "--port", String(port), "--strictPort", "--force"], /Local:/);
    try {
      assert.deepEqual(await play(browser, `http://127.0.0.1:${port}/`), []);
      assert.match(execFileSync("ls", [join(EXAMPLES, "vitepress/docs/.vitepress/cache/deps")], { encoding: "utf8" }), /agent-memory-widgets/, "the package was pre-bundled");
      assert.doesNotMatch(dev.output(), /error|warn/i, dev.output());
    } finally {
      dev.stop();
    }
  } finally {
    await browser.close();
    await server.close();
  }
});

test("Astro, on Vite 6, with no config file: `astro build` prints no warning, and the built site and the dev server play", { timeout: 180_000 }, async () => {
  assert.ok(installed("astro"), "examples/astro/ is not installed: run make examples");
  assertNoViteSettings("astro/astro.config.mjs");
  build("astro", ["node_modules/astro/astro.js", "build"]);
  const server = await serve(join(EXAMPLES, "astro/dist"));
  const browser = await launch();
  try {
    assert.deepEqual(await play(browser, server.url), []);
    const port = await freePort();
    const dev = await start("astro", ["node_modules/astro/astro.js", "dev", "--host", "127.0.0.1", "--port", String(port), "--force"], /ready in/i);
    try {
      assert.deepEqual(await play(browser, `http://127.0.0.1:${port}/`), []);
      assert.match(execFileSync("ls", [join(EXAMPLES, "astro/node_modules/.vite/deps")], { encoding: "utf8" }), /agent-memory-widgets/, "the package was pre-bundled");
    } finally {
      dev.stop();
    }
  } finally {
    await browser.close();
    await server.close();
  }
});

test("MkDocs Material: the built site plays, and the widgets follow its palette toggle to slate and back", { timeout: 120_000 }, async () => {
  const built = join(EXAMPLES, "mkdocs/site");
  assert.ok(existsSync(join(built, "index.html")), "examples/mkdocs/ is not built: run make examples");
  const server = await serve(built);
  const browser = await launch();
  try {
    assert.deepEqual(await play(browser, server.url), []);
    const { page, problems } = await open(browser, new URL(server.url).origin);
    await page.goto(server.url);
    await page.locator("memory-forgetting tbody tr").first().waitFor(WAIT);
    const dark = () => page.evaluate(() => [...document.querySelectorAll("memory-compaction, memory-forgetting")].map((el) => el.matches(":state(dark)")));
    assert.deepEqual(await dark(), [false, false]);
    // Material's own toggle: the visible label of its palette form.
    await page.locator('form[data-md-component="palette"] label:visible').first().click();
    assert.equal(await page.evaluate(() => document.body.dataset.mdColorScheme), "slate");
    await page.waitForFunction(() => document.querySelector("memory-compaction").matches(":state(dark)"));
    assert.deepEqual(await dark(), [true, true]);
    await page.locator('form[data-md-component="palette"] label:visible').first().click();
    await page.waitForFunction(() => document.querySelector("memory-compaction").matches(":state(light)"));
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
    await server.close();
  }
});

test("Docusaurus: the site built with its server rendering (by `make examples`) plays", { timeout: 120_000 }, async () => {
  assert.ok(installed("docusaurus"), "examples/docusaurus/ is not installed: run make examples");
  const built = join(EXAMPLES, "docusaurus/build");
  assert.ok(existsSync(join(built, "index.html")), "examples/docusaurus/ is not built: run make examples");
  const server = await serve(built);
  const browser = await launch();
  try {
    assert.deepEqual(await play(browser, server.url), []);
  } finally {
    await browser.close();
    await server.close();
  }
});
