// The wasm cores, and which one a page loads. A core is the Rust crate built with some of its
// exports (Cargo.toml's features), so that a page downloads only the classes its elements use.
// CORES is the one table of them: the Makefile builds each (tools/cores.mjs prints it), the site
// build copies and preloads them (tools/build-site.mjs), the size test measures them
// (benches/sizes.mjs), and the elements load them (below). Every core answers alike: a feature
// adds exports, never changes an answer.

/** The element families, each named after its element: <memory-compaction>, ... */
export const FAMILIES = ["compaction", "forgetting", "playground", "forgetting-playground"];

/**
 * What an element can need of a core: its family (its class, with the seed's settings), its
 * family's `config` (the class's `withConfig`, for settings, a script or a scenario of its own),
 * or its family's `own` (`importConversation` too: a `src` file, or a reader's own in the panel,
 * own.js).
 */
export const config = (family) => `${family}-config`;
export const own = (family) => `${family}-own`;

/**
 * The attributes that give an element settings of its own, by family: with any of them, it
 * needs its family's `config`. (`turn` and `t` are not settings: every core moves to a turn or a
 * time.) The page's choice of core (`pageNeeds`) and each element's (`coreNeed`, through
 * `elementNeed`) read this one list, so they agree.
 */
export const SETTINGS = {
  compaction: ["budget", "hot", "tokens", "scenario"],
  forgetting: ["half-life", "capacity", "access-boost", "semantic-half-life", "procedural-half-life", "scenario"],
  playground: ["budget", "hot", "compact-at", "tokens", "scenario"],
  "forgetting-playground": ["half-life", "capacity", "stream"],
};

/**
 * The cores by name (www/pkg/<name>.js and <name>_bg.wasm) with their Cargo features, each
 * before the larger cores that serve what it serves, so that the first that serves a set of
 * needs is the smallest that does. A core without
 * `with-config` has each class's constructor alone. The set is chosen by measurement
 * (BENCHMARKS.md, "The cores"): each core saves the pages that load it at least 2 KB of gzip
 * over the next core that would serve them.
 */
export const CORES = {
  compaction: ["element-compaction"],
  // With `withConfig` from the start: the stream buttons, its main control, need it.
  "forgetting-playground": ["element-forgetting-playground", "with-config"],
  playground: ["element-compaction", "element-playground"],
  forgetting: ["element-forgetting"],
  "compaction-config": ["element-compaction", "with-config"],
  "forgetting-config": ["element-forgetting", "with-config"],
  "playground-config": ["element-compaction", "element-playground", "with-config"],
  // `import` with `withConfig`, a reader's conversation played as a script: what the panel and
  // a `src` file load. The readers of five log formats are about 9 KB of gzip that a page with
  // settings of its own does not need.
  "compaction-own": ["element-compaction", "with-config", "import"],
  // With the replay at real size (`large-sessions`): an imported log of thousands of turns.
  "playground-own": ["element-compaction", "element-playground", "with-config", "import", "large-sessions"],
  // Every element with the seed's settings: a page with elements of two families (index.html).
  elements: ["element-compaction", "element-forgetting", "element-playground", "element-forgetting-playground"],
  // Everything: a page with elements of two families and settings of their own, the one-file
  // bundle, and direct use from JS (README).
  agent_memory_widgets: [
    "element-compaction", "element-forgetting", "element-playground", "element-forgetting-playground", "with-config", "import",
  ],
};

/**
 * The methods that only the cores with `with-config` have, by class; each other method is in every
 * core that has its class. `Session.script()` gives a custom script's turns: a core without
 * `withConfig` plays the refund desk alone (the panel for a reader's own conversation takes its
 * turns from the core that imports).
 */
export const CONFIG_METHODS = { Session: ["script"] };

/** The needs core `name` serves: each family it exports, and its `config` and `own` as its features allow. */
export function needsServed(name) {
  const features = CORES[name];
  const needs = [];
  for (const family of FAMILIES) {
    // Each family's class is exported by the feature named after it: `element-compaction`, ...
    if (!features.includes(`element-${family}`)) continue;
    needs.push(family);
    if (features.includes("with-config")) needs.push(config(family));
    if (features.includes("import")) needs.push(own(family));
  }
  return needs;
}

/**
 * The smallest core that serves every need in `needs`.
 *
 *   coreFor(["compaction"])                   // "compaction"
 *   coreFor(["compaction", "playground"])     // "playground"
 *   coreFor(["compaction", "forgetting"])     // "elements"
 *   coreFor([config("compaction"), "forgetting"])  // "agent_memory_widgets"
 *   coreFor([config("compaction")])           // "compaction-config"
 *   coreFor([own("compaction")])              // "compaction-own"
 */
export function coreFor(needs) {
  return Object.keys(CORES).find((name) => needs.every((need) => needsServed(name).includes(need)));
}

/**
 * What each core downloads, its wasm and its glue, in gzip bytes, in the order of CORES: written
 * by the build from the files (tools/build-site.mjs, `coreWeights`). Unbuilt, as www/ is served
 * to the tests, there are none, and a page loads the one core that serves all its elements.
 */
export const WEIGHTS = null;

/**
 * The cores for a page whose elements need `needs`: the one core that serves them all, or one
 * core for each family's needs, whichever downloads less by `weights` (the combined core when
 * there are none, or on a tie: one wasm compiles, not two).
 *
 *   coresFor(["compaction", "forgetting"], [...])  // ["compaction", "forgetting"]: 36 KB, not 50
 *   coresFor(["compaction", "playground"], [...])  // ["playground"], which serves both
 */
export function coresFor(needs, weights = WEIGHTS) {
  const together = [coreFor(needs)];
  const byFamily = {};
  for (const need of needs) (byFamily[need.replace(/-(config|own)$/, "")] ??= []).push(need);
  const apart = Object.values(byFamily).map(coreFor);
  const weight = (names) => names.reduce((sum, name) => sum + weights[Object.keys(CORES).indexOf(name)], 0);
  return weights && weight(apart) < weight(together) ? apart : together;
}

/**
 * Whether `el` names a built-in session other than the refund desk (`session="airline"`): it is a
 * log the core imports, like a `src` file.
 */
export const namesSession = (el) => (el.getAttribute("session") ?? "refund-desk") !== "refund-desk";

/** What the elements on this page need, as far as their tags and attributes say (elementNeed). */
function pageNeeds() {
  return [...document.querySelectorAll(FAMILIES.map((family) => `memory-${family}`).join(","))].map((el) => elementNeed(el));
}

/**
 * What element `el` needs, from its tag and attributes: its family, its `config` with settings
 * of its own (a `scenario` property or a conversation too, `hasOwnScript`), its `own` with a `src`
 * or a built-in `session` other than the refund desk.
 */
export function elementNeed(el, hasOwnScript = false) {
  const family = el.localName.slice("memory-".length);
  if (el.hasAttribute("src") || namesSession(el)) return own(family);
  return hasOwnScript || SETTINGS[family].some((name) => el.hasAttribute(name)) ? config(family) : family;
}

/**
 * The core the page preloads (`<link rel="preload" href="pkg/<core>_bg.wasm">`), if any: the build
 * writes that hint for the core that serves every element on the page, which then holds even if
 * the loader runs before the page's later elements are parsed. (Of a page with one core per
 * family, the first: each other family then loads its own core.)
 */
function preloadedCore() {
  const href = document.querySelector('link[rel="preload"][href$="_bg.wasm"]')?.getAttribute("href");
  const name = href?.match(/([\w-]+)_bg\.wasm$/)?.[1];
  return name && Object.hasOwn(CORES, name) ? [name] : null;
}

/** Each core's module once initialised, by name: a page compiles each core it uses once. */
const loaded = new Map();
/** The names each initialised core module was loaded by (one module has them all in the bundle). */
const names = new WeakMap();

/** Whether the core module `core` (from loadCore) serves `need`. */
export const serves = (core, need) => [...(names.get(core) ?? [])].some((name) => needsServed(name).includes(need));
/** The cores chosen for the elements on the page when the first core was asked for (coresFor). */
let pageCores = null;

/**
 * The initialised core module for an element that needs `need` (its family, usually). The first
 * call picks the cores for every element on the page (the one the page preloads, or else, once
 * the page is parsed, coresFor's: the smallest core that serves them all, or one per family if
 * that downloads less), so that a page with all four compiles one wasm, not four. An element that core does not serve (of another family, or given a `src`
 * later) gets a core of its own. The loader calls this before it loads the element modules, so
 * that the wasm compiles while they load.
 */
export function loadCore(need) {
  pageCores ??= preloadedCore();
  if (pageCores === null && document.readyState === "loading") {
    // No hint, and the page is still being parsed (the loader is async): choose once every
    // element is in, so that one core serves them all.
    return new Promise((done) => document.addEventListener("DOMContentLoaded", done, { once: true }))
      .then(() => loadCore(need));
  }
  pageCores ??= coresFor([need, ...pageNeeds()]);
  const name = pageCores.find((core) => needsServed(core).includes(need)) ?? coreFor([need]);
  if (name === undefined) return Promise.reject(new Error(`no core serves "${need}"`));
  if (!loaded.has(name)) {
    // A template import: esbuild bundles every www/pkg/*.js as a chunk of its own. Each glue finds
    // its wasm by a static URL of its own (tools/build-site.mjs, wasmInPkg), which bundlers follow.
    const loading = import(`./pkg/${name}.js`).then(async (core) => {
      await core.default();
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
