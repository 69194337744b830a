// Which wasm core serves which elements. A core is the Rust crate built with only some of its
// exports (the Makefile's CORES), so each carries only the code its elements use. Shared by
// the elements (widget.js) and the build (tools/build-site.mjs), which preloads the same choice.

/** The element families, each named after its element: <memory-compaction>, ... */
export const FAMILIES = ["compaction", "forgetting", "playground", "forgetting-playground"];

/**
 * What an element can need of a core (its `coreNeed()`): its family; for a <memory-forgetting>
 * with a custom scenario, "forgetting-scenario"; for a <memory-compaction> or a
 * <memory-playground> with a script of its own (a scenario, a link's conversation),
 * "compaction-script" or "playground-script"; and to import a conversation too (a `src` file, or
 * a reader's in the panel, own.js), "compaction-own" or "playground-own".
 */
export const SCENARIO = "forgetting-scenario";
/** The need of a compaction element (`family`) with a script of its own. */
export const script = (family) => `${family}-script`;
/** The need of a compaction element (`family`) that imports a conversation and plays it. */
export const own = (family) => `${family}-own`;

/**
 * The cores by name (www/pkg/<name>.js and <name>_bg.wasm), each before the larger ones that
 * serve what it serves (so the first that serves a need is the smallest): what each serves and
 * how to load its glue. The playground's cores also serve <memory-compaction>, which is most of it.
 */
export const CORES = {
  // The refund desk only: a custom script's checks are a fifth of the session's code.
  compaction: { serves: ["compaction"], load: () => import("./pkg/compaction.js") },
  // With custom scripts: for an element with a script of its own.
  "compaction-script": { serves: ["compaction", script("compaction")], load: () => import("./pkg/compaction-script.js") },
  // And `importConversation`: for a `src` file, or a reader's own conversation (own.js loads it
  // when the reader opens the panel for one).
  "compaction-own": {
    serves: ["compaction", script("compaction"), own("compaction")],
    load: () => import("./pkg/compaction-own.js"),
  },
  "forgetting-playground": { serves: ["forgetting-playground"], load: () => import("./pkg/forgetting-playground.js") },
  // The refund desk only: the custom scenario's checks are a fifth of the store's code.
  forgetting: { serves: ["forgetting"], load: () => import("./pkg/forgetting.js") },
  [SCENARIO]: { serves: ["forgetting", SCENARIO], load: () => import("./pkg/forgetting-scenario.js") },
  playground: { serves: ["compaction", "playground"], load: () => import("./pkg/playground.js") },
  "playground-script": {
    serves: ["compaction", script("compaction"), "playground", script("playground")],
    load: () => import("./pkg/playground-script.js"),
  },
  "playground-own": {
    serves: ["compaction", script("compaction"), own("compaction"), "playground", script("playground"), own("playground")],
    load: () => import("./pkg/playground-own.js"),
  },
  // Every element, for a page with elements of two families, playing the refund desk.
  elements: { serves: FAMILIES, load: () => import("./pkg/elements.js") },
  // Everything: for direct use from JS (README), the one-file bundle, and a page with elements of
  // two families and a script or scenario of their own.
  agent_memory_widgets: {
    serves: [...FAMILIES, SCENARIO, ...["compaction", "playground"].flatMap((family) => [script(family), own(family)])],
    load: () => import("./pkg/agent_memory_widgets.js"),
  },
};

/**
 * The smallest core that serves every need in `needs` (families, and the other needs above).
 *
 *   coreFor(["compaction"])                 // "compaction"
 *   coreFor(["compaction", "playground"])   // "playground"
 *   coreFor(["compaction", "forgetting"])   // "elements"
 *   coreFor(["forgetting", SCENARIO])       // "forgetting-scenario"
 */
export function coreFor(needs) {
  return Object.keys(CORES).find((name) => needs.every((need) => CORES[name].serves.includes(need)));
}

/** What the elements on this page need, as far as their tags and attributes say. */
function pageNeeds() {
  const needs = FAMILIES.filter((family) => document.querySelector(`memory-${family}`));
  if (document.querySelector("memory-forgetting[scenario]")) needs.push(SCENARIO);
  for (const family of ["compaction", "playground"]) {
    if (document.querySelector(`memory-${family}[src]`)) needs.push(own(family));
    else if (document.querySelector(`memory-${family}[scenario]`)) needs.push(script(family));
  }
  return needs;
}

/**
 * The core the page preloads (`<link rel="preload" href="pkg/<core>_bg.wasm">`), if any: the build
 * writes that hint for the core that serves every element on the page, which then holds even if
 * the loader runs before the page's later elements are parsed.
 */
function preloadedCore() {
  const href = document.querySelector('link[rel="preload"][href$="_bg.wasm"]')?.getAttribute("href");
  const name = href?.match(/([\w-]+)_bg\.wasm$/)?.[1];
  return name && Object.hasOwn(CORES, name) ? name : null;
}

/** Each core's module once initialised, by name: a page compiles each core it uses once. */
const loaded = new Map();
/** The names each initialised core module was loaded by (one module has them all in the bundle). */
const names = new WeakMap();

/** Whether the core module `core` (from loadCore) serves `need`. */
export const serves = (core, need) => [...(names.get(core) ?? [])].some((name) => CORES[name].serves.includes(need));
/** The core chosen for the element families on the page when the first core was asked for. */
let pageCore = null;

/**
 * The initialised core module for an element that needs `need` (its family, usually). The first
 * call picks one core for every element on the page (the one the page preloads, or else, once
 * the page is parsed, the smallest that serves them all), so that a page with all four compiles
 * one wasm, not four. An element that core does not serve (of another family, or given a script
 * or scenario later) gets a core of its own. widgets.js calls this before it loads the element
 * modules, so that the wasm compiles while they load.
 */
export function loadCore(need) {
  pageCore ??= preloadedCore();
  if (pageCore === null && document.readyState === "loading") {
    // No hint, and the page is still being parsed (the loader is async): choose once every
    // element is in, so that one core serves them all.
    return new Promise((done) => document.addEventListener("DOMContentLoaded", done, { once: true }))
      .then(() => loadCore(need));
  }
  pageCore ??= coreFor([need, ...pageNeeds()]);
  const name = CORES[pageCore].serves.includes(need) ? pageCore : coreFor([need]);
  if (name === undefined) return Promise.reject(new Error(`no core serves "${need}"`));
  if (!loaded.has(name)) {
    const loading = CORES[name].load().then(async (core) => {
      await core.default({ module_or_path: new URL(`./pkg/${name}_bg.wasm`, import.meta.url) });
      names.set(core, (names.get(core) ?? new Set()).add(name));
      return core;
    });
    // A failed load is not kept: the next element to connect tries again.
    loaded.set(name, loading.catch((error) => {
      loaded.delete(name);
      throw error;
    }));
  }
  return loaded.get(name);
}
