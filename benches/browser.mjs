// Measures the page in headless Chromium and prints one JSON object to stdout; progress goes to
// stderr. Run after `make build` (it needs www/pkg):
//
//   node benches/browser.mjs
//
// What it measures, all in one run (these machines are noisy, so every figure is a median or a
// percentile over many samples, taken inside the page to keep CDP round trips out of it):
//   interactiveMs  navigation start until both widgets are interactive, median of 5 fresh loads
//   latency        synchronous render time of 500 slider steps and 500 "Add next turn" clicks,
//                  after an untimed warm-up of 50 and 20
//   stateMicros    one state() call across the wasm boundary, Session and FactStore
//   playgroundMs   building a playground of 1,000 turns (the page's limit), median of 9: the
//                  native benchmark's script, and one at every text limit too
//   memory         wasm memory and JS heap growth over 10,000 mixed interactions (after a
//                  1,000-interaction warm-up and a forced GC), and wasm memory growth over
//                  10,000 created-and-freed Session objects
//   large          a Claude Code log of 1, 7 and 21 MB picked in the import panel, read and
//                  replayed in the page's worker (benches/large.mjs)
//
// The page is served with COOP/COEP headers so that it is cross-origin isolated, which gives
// performance.now() 5 µs resolution instead of 100 µs; every resource is same-origin, so the
// headers change nothing else. Chromium gets the harness's flags plus --expose-gc (to force GC
// before heap readings) and --enable-precise-memory-info (unquantised performance.memory).

import { existsSync } from "node:fs";
import { join } from "node:path";
import { ROOT, serve, open, launch } from "../tests/e2e/harness.mjs";
import { measureLarge } from "./large.mjs";

const LOADS = 5;
const STEPS = 500;
const STATE_CALLS = 2000;
const STATE_BATCH = 100;
const WARMUP = 1000;
const INTERACTIONS = 10_000;
const CHURN = 10_000;
const DEADLINE_MS = 175_000;

const ISOLATION = {
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Embedder-Policy": "require-corp",
};

const log = (...args) => console.error("[bench]", ...args);

/** The harness's browser, with two extra flags for measuring memory. */
const launchForMemory = () => launch(["--js-flags=--expose-gc", "--enable-precise-memory-info"]);

const round = (value, digits) => Number(value.toFixed(digits));
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
/** Nearest-rank percentile. */
const percentile = (sorted, p) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
const summarise = (samples) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: round(percentile(sorted, 50), 3), p95: round(percentile(sorted, 95), 3), max: round(sorted.at(-1), 3) };
};

/**
 * Installed before any page script: records performance.now() the first time both widgets are
 * interactive. Every shadow root gets a MutationObserver (their contents are invisible to one on
 * the document), so the moment is caught at the microtask checkpoint right after the render;
 * a requestAnimationFrame poll backs it up.
 */
function watchInteractive() {
  const ready = () =>
    !!(document.querySelector("memory-compaction")?.shadowRoot?.querySelector(".meter-label") &&
      document.querySelector("memory-forgetting")?.shadowRoot?.querySelector("tbody tr"));
  const observers = [];
  const check = () => {
    if (globalThis.__benchInteractiveAt !== undefined || !ready()) return;
    globalThis.__benchInteractiveAt = performance.now();
    for (const observer of observers) observer.disconnect();
  };
  const attachShadow = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) {
    const root = attachShadow.call(this, init);
    const observer = new MutationObserver(check);
    observer.observe(root, { childList: true, subtree: true });
    observers.push(observer);
    return root;
  };
  const poll = () => {
    check();
    if (globalThis.__benchInteractiveAt === undefined) requestAnimationFrame(poll);
  };
  requestAnimationFrame(poll);
}

/** Waits in the page (no CDP polling) until both widgets are interactive; returns that time. */
function waitInteractive(timeoutMs) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const poll = () => {
      if (globalThis.__benchInteractiveAt !== undefined) return resolve(globalThis.__benchInteractiveAt);
      if (performance.now() - start > timeoutMs) return reject(new Error(`widgets not interactive after ${timeoutMs} ms`));
      setTimeout(poll, 10);
    };
    poll();
  });
}

/** Waits for the load event and two frames, so that page start-up work is not timed as latency. */
async function settleAfterLoad() {
  if (document.readyState !== "complete") await new Promise((done) => addEventListener("load", done, { once: true }));
  for (let i = 0; i < 2; i++) await new Promise((done) => requestAnimationFrame(done));
}

/** Opens the page in a fresh context and waits until both widgets are interactive. */
async function load(browser, url) {
  const opened = await open(browser, url);
  await opened.page.addInitScript(watchInteractive);
  await opened.page.goto(url);
  const at = await opened.page.evaluate(waitInteractive, 10_000).catch((error) => {
    const problems = opened.problems.length ? `; the page reported:\n  ${opened.problems.join("\n  ")}` : "";
    throw new Error(`loading ${url}: ${error.message}${problems}`);
  });
  const isolated = await opened.page.evaluate(() => globalThis.crossOriginIsolated);
  return { ...opened, at, isolated };
}

/** Fails on anything the harness counts as a problem (console errors, failed requests...). */
function checkProblems(problems, what) {
  if (problems.length) throw new Error(`${what}: the page reported problems:\n  ${problems.join("\n  ")}`);
}

// ---------------------------------------------------------------------------------------------
// In-page measurements (serialised by Playwright, so each is self-contained)

/** 500 slider steps and 500 "Add next turn" clicks, each timed synchronously. */
function measureLatency(steps) {
  const forgetting = document.querySelector("memory-forgetting").shadowRoot;
  const compaction = document.querySelector("memory-compaction").shadowRoot;
  const slider = forgetting.querySelector("input[type=range]");
  const rows = forgetting.querySelector("tbody");
  const shownT = forgetting.querySelector(".t-value");
  const buttons = [...compaction.querySelectorAll("button")];
  const add = buttons.find((b) => b.textContent === "Add next turn");
  const reset = buttons.find((b) => b.textContent === "Reset");
  const meter = compaction.querySelector(".meter-text");
  if (!slider || !rows || !add || !reset || !meter) throw new Error("a control is missing from the widgets");

  // Warm up untimed: the first steps run before the JIT has optimised the render code.
  for (let i = 0; i < 50; i++) {
    slider.value = String(i % 13);
    slider.dispatchEvent(new Event("input"));
  }
  for (let i = 0; i < 20; i++) {
    add.click();
    if (add.disabled) reset.click();
  }
  reset.click();

  let sink = 0;
  let stale = 0;
  const slide = [];
  for (let i = 0; i < steps; i++) {
    const value = (i + 1) % 13;
    const t0 = performance.now();
    slider.value = String(value);
    slider.dispatchEvent(new Event("input"));
    sink += rows.firstElementChild.textContent.length;
    if (shownT.textContent !== `t = ${value}`) stale++;
    const t1 = performance.now();
    slide.push(t1 - t0);
  }

  const addTurn = [];
  let resets = 0;
  let before = meter.textContent;
  for (let i = 0; i < steps; i++) {
    const t0 = performance.now();
    add.click();
    const after = meter.textContent;
    sink += after.length;
    const t1 = performance.now();
    addTurn.push(t1 - t0);
    if (after === before) stale++;
    if (add.disabled) {
      reset.click();
      resets++;
    }
    before = meter.textContent;
  }
  return { slide, addTurn, resets, stale, sink };
}

/** The cost of one state() call, in µs, as the median over batches of `batch` calls. */
async function measureState({ calls, batch }) {
  const { Session, FactStore } = await import("/pkg/elements.js");
  const session = new Session();
  for (let i = 0; i < 10; i++) session.addTurn();
  const store = new FactStore();
  store.setTime(6);
  store.fire(0);
  store.fire(1);
  const median = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  };
  let sink = 0;
  const time = (model) => {
    const perCall = [];
    for (let b = 0; b < calls / batch; b++) {
      const t0 = performance.now();
      for (let i = 0; i < batch; i++) sink += model.state().log.length;
      perCall.push(((performance.now() - t0) * 1000) / batch);
    }
    return median(perCall);
  };
  try {
    const result = { session: time(session), factStore: time(store) };
    if (session.state().turn !== 10 || store.state().events.some((e) => e.firedAt === null)) {
      throw new Error("state benchmark set-up did not reach turn 10 with both events fired");
    }
    return { ...result, sink };
  } finally {
    session.free();
    store.free();
  }
}

/**
 * Building a playground at the page's limit of 1,000 turns (the full core's `Playground.withConfig`,
 * budget 40), the script of the native benchmark (benches/scaling.rs): the median of `builds`, in
 * ms. Each build replays all seven policies and records what each compaction lost.
 */
async function measurePlayground({ builds }) {
  const core = await import("/pkg/agent_memory_widgets.js");
  await core.default();
  const kinds = ["question", "tool", "decision", "decision", "chatter"];
  const typical = Array.from({ length: 1000 }, (_, i) => {
    const words = 5 + ((i * 7919) % 36);
    const text = Array.from({ length: words }, (_, w) => (w % 9 === 0 ? `ORD-${(i + w) % 977}` : "word")).join(" ");
    return { speaker: "Dana", kind: kinds[i % 5], text, summary: `Dana summary ${i % 101} of turn` };
  });
  // At every limit at once: 1,000 turns holding 1,000,000 characters, each summary nearly its
  // whole turn, every third a tool output, so that the summaries that list every turn are long.
  const full = Array.from({ length: 1000 }, (_, i) => {
    const text = Array.from({ length: 60 }, (_, w) => `W${(i * 31 + w) % 997}x${w}`).join(" ").slice(0, 500);
    const tool = i % 3 === 2;
    return { speaker: tool ? "tool" : "Dana", kind: tool ? "tool" : "decision", text, summary: text.slice(0, 490) };
  });
  const median = (script) => {
    const times = [];
    for (let b = 0; b < builds; b++) {
      const t0 = performance.now();
      const playground = core.Playground.withConfig({ budget: 40, script });
      playground.goTo(1000);
      times.push(performance.now() - t0);
      playground.free();
    }
    times.sort((a, b) => a - b);
    return times[times.length >> 1];
  };
  return { typical: median(typical), atTheLimits: median(full) };
}

/** Memory growth over many mixed interactions, then over created-and-freed Sessions. */
async function measureMemory({ warmup, interactions, churn }) {
  const glue = await import("/pkg/elements.js");
  const wasm = await glue.default(); // already initialised by the page: returns the same exports
  const forgetting = document.querySelector("memory-forgetting").shadowRoot;
  const compaction = document.querySelector("memory-compaction").shadowRoot;
  const slider = forgetting.querySelector("input[type=range]");
  const buttons = [...compaction.querySelectorAll("button")];
  const add = buttons.find((b) => b.textContent === "Add next turn");
  const reset = buttons.find((b) => b.textContent === "Reset");
  if (typeof globalThis.gc !== "function") throw new Error("gc() is not exposed (--js-flags=--expose-gc)");
  if (!performance.memory) throw new Error("performance.memory is not available");

  const counts = { addTurn: 0, reset: 0, slider: 0, fire: 0, startOver: 0, read: 0 };
  let t = 0;
  const actions = [
    () => { // add a turn, or reset when the script is done
      if (add.disabled) { reset.click(); counts.reset++; } else { add.click(); counts.addTurn++; }
    },
    () => { // one slider step, sweeping 0..12 and back
      t = (t + 1) % 25;
      slider.value = String(t <= 12 ? t : 24 - t);
      slider.dispatchEvent(new Event("input"));
      counts.slider++;
    },
    () => { // fire the next write event, or start over once both have fired
      const events = [...forgetting.querySelectorAll(".events button")];
      const next = events.find((b) => !b.disabled && b.textContent !== "Start over");
      if (next) { next.click(); counts.fire++; } else { events.find((b) => b.textContent === "Start over").click(); counts.startOver++; }
    },
    () => { // read the first active fact
      const read = forgetting.querySelector("tbody button");
      if (read) { read.click(); counts.read++; } else { slider.dispatchEvent(new Event("input")); counts.slider++; }
    },
  ];
  const pattern = [0, 1, 2, 1, 0, 1, 3, 1]; // half slider steps, a quarter turns
  const run = async (n) => {
    for (let i = 0; i < n; i++) {
      actions[pattern[i % pattern.length]]();
      // Let timers and frames run now and then, as they would between a reader's clicks.
      if (i % 500 === 499) await new Promise((done) => setTimeout(done, 0));
    }
  };
  const settle = async () => {
    for (let i = 0; i < 3; i++) {
      globalThis.gc();
      await new Promise((done) => setTimeout(done, 50));
    }
  };
  const reading = () => ({
    wasm: wasm.memory.buffer.byteLength,
    heap: performance.memory.usedJSHeapSize,
    externrefs: wasm.__wbindgen_externrefs?.length ?? null,
  });

  await run(warmup);
  await settle();
  const before = reading();
  const started = performance.now();
  await run(interactions);
  const interactionMs = performance.now() - started;
  await settle();
  const after = reading();

  // Handle churn: create and free Sessions; the allocator should reuse the same memory.
  const churnBefore = reading();
  for (let i = 0; i < churn; i++) new glue.Session().free();
  await settle();
  const churnAfter = reading();

  return { before, after, churnBefore, churnAfter, counts, interactionMs };
}

// ---------------------------------------------------------------------------------------------

async function main() {
  if (!existsSync(join(ROOT, "www/pkg/elements.js"))) {
    throw new Error("www/pkg is missing: run `make build` first");
  }
  const started = Date.now();
  const server = await serve(join(ROOT, "www"), ISOLATION);
  let browser;
  const contexts = [];
  cleanup = async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await browser?.close().catch((error) => log(`closing Chromium: ${error.message}`));
    await server.close().catch((error) => log(`closing the server: ${error.message}`));
  };
  try {
    browser = await launchForMemory();
    const chromiumVersion = browser.version();
    log(`Chromium ${chromiumVersion}, page at ${server.url}`);

    // 1. Time to interactive, fresh context each time.
    const loads = [];
    for (let i = 0; i < LOADS; i++) {
      const { context, problems, at, isolated } = await load(browser, server.url);
      if (!isolated) throw new Error("the page is not cross-origin isolated; timer resolution would be 100 µs");
      loads.push(at);
      checkProblems(problems, `load ${i + 1}`);
      await context.close();
    }
    log(`interactive after ${loads.map((ms) => ms.toFixed(1)).join(", ")} ms`);

    // 2. Interaction latency, in one page.
    const latencyPage = await load(browser, server.url);
    contexts.push(latencyPage.context);
    await latencyPage.page.evaluate(settleAfterLoad);
    const latency = await latencyPage.page.evaluate(measureLatency, STEPS);
    if (latency.stale) throw new Error(`${latency.stale} steps did not show their result synchronously`);
    checkProblems(latencyPage.problems, "latency");
    log(`latency: ${STEPS} slider steps, ${STEPS} turns added (${latency.resets} resets)`);

    // 3. state() across the wasm boundary, in the same page.
    const state = await latencyPage.page.evaluate(measureState, { calls: STATE_CALLS, batch: STATE_BATCH });
    checkProblems(latencyPage.problems, "state()");
    log(`state(): Session ${state.session.toFixed(2)} µs, FactStore ${state.factStore.toFixed(2)} µs`);

    // 4. A playground at the page's limit, in the same page.
    const playgroundMs = await latencyPage.page.evaluate(measurePlayground, { builds: 9 });
    checkProblems(latencyPage.problems, "playground");
    log(`a 1,000-turn playground: ${playgroundMs.typical.toFixed(1)} ms, at every limit ${playgroundMs.atTheLimits.toFixed(1)} ms`);
    await latencyPage.context.close();

    // 5. Memory, in a page of its own.
    const memoryPage = await load(browser, server.url);
    contexts.push(memoryPage.context);
    const memory = await memoryPage.page.evaluate(measureMemory, { warmup: WARMUP, interactions: INTERACTIONS, churn: CHURN });
    checkProblems(memoryPage.problems, "memory");
    log(`memory: ${INTERACTIONS} interactions in ${(memory.interactionMs / 1000).toFixed(1)} s: ${JSON.stringify(memory.counts)} (warm-up included)`);
    log(`memory: externref table ${memory.before.externrefs} -> ${memory.after.externrefs} -> ${memory.churnAfter.externrefs} slots`);
    await memoryPage.context.close();

    // 6. Large logs, each in a page of its own.
    const large = await measureLarge(browser, log);

    const result = {
      interactiveMs: round(median(loads), 3),
      latency: { slider: summarise(latency.slide), addTurn: summarise(latency.addTurn) },
      stateMicros: { session: round(state.session, 2), factStore: round(state.factStore, 2) },
      playgroundMs: { typical: round(playgroundMs.typical, 1), atTheLimits: round(playgroundMs.atTheLimits, 1) },
      memory: {
        wasmBytesBefore: memory.before.wasm,
        wasmBytesAfter: memory.after.wasm,
        wasmGrowthBytes: memory.after.wasm - memory.before.wasm,
        heapBytesBefore: memory.before.heap,
        heapBytesAfter: memory.after.heap,
        heapGrowthBytes: memory.after.heap - memory.before.heap,
        handleChurnGrowthBytes: memory.churnAfter.wasm - memory.churnBefore.wasm,
      },
      large,
      chromium: chromiumVersion,
      date: new Date().toISOString(),
    };
    if (result.memory.handleChurnGrowthBytes > 64 * 1024) {
      log(`WARNING: ${CHURN} created-and-freed Sessions grew wasm memory by ${result.memory.handleChurnGrowthBytes} bytes (limit 65536)`);
    }
    log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return result;
  } finally {
    await cleanup();
  }
}

/** Closes whatever main() opened; set once it has opened something. */
let cleanup = async () => {};

const watchdog = setTimeout(async () => {
  console.error(`[bench] FAILED: still running after ${DEADLINE_MS / 1000} s`);
  const forced = setTimeout(() => process.exit(2), 5000);
  await cleanup();
  clearTimeout(forced);
  process.exit(2);
}, DEADLINE_MS);
watchdog.unref();

try {
  const result = await main();
  process.stdout.write(JSON.stringify(result, null, 2) + "\n");
  clearTimeout(watchdog);
} catch (error) {
  console.error(`[bench] FAILED: ${error?.stack ?? error}`);
  process.exitCode = 1;
  clearTimeout(watchdog);
}
