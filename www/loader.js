// The loader behind widgets.js: it loads an element's code, and that element's wasm core, the
// first time the page uses the element.

import { loadCore } from "./cores.js";

// Nothing runs until loadElements() is called, so that a build without the loader (the one-file
// bundle, which defines every element at once) leaves this module out.

/** Each element not yet loaded, with the module that defines it (from loadElements). */
let pending = null;
/** Watches the document for elements added later (from loadElements). */
let watcher = null;

/** Loads the module that defines element `name`; on a failure, says why and tries again later. */
function load(name) {
  const module = pending.get(name);
  pending.delete(name);
  return module().catch((error) => {
    // Say why the element stays empty, and try again when the next one is added.
    console.error(`<${name}> could not load its code: ${error?.message ?? error}`);
    pending.set(name, module);
    watcher.observe(document, { childList: true, subtree: true });
  });
}

/** "first" until an element is found, "top" while the first one's module loads, then "all". */
let phase = "first";

/**
 * Loads the module of every element the document now holds; stops watching once all are in. The
 * first element on the page goes first, with its wasm core, which then compiles while the module
 * loads (the element reports a failure: it asks again as it connects); the others follow once it
 * is defined, so that it is the first to build.
 */
function loadUsed() {
  const used = [...pending.keys()].filter((name) => document.querySelector(name));
  if (used.length === 0 || phase === "top") return;
  if (phase === "first") {
    phase = "top";
    const top = document.querySelector(used.join(",")).localName;
    loadCore(top.slice("memory-".length)).catch(() => {});
    load(top).then(() => {
      phase = "all";
      loadUsed();
    });
    return;
  }
  for (const name of used) load(name);
  if (pending.size === 0) watcher.disconnect();
}

/** Starts loading what the page's elements use, and watches for elements added later. Once. */
export function loadElements() {
  // On a server (a docs host's build), there is nothing to load: the browser loads it.
  if (watcher || typeof document === "undefined") return;
  pending = new Map([
    ["memory-compaction", () => import("./compaction.js")],
    ["memory-forgetting", () => import("./forgetting.js")],
    ["memory-playground", () => import("./playground.js")],
    ["memory-forgetting-playground", () => import("./forgetting-playground.js")],
  ]);
  watcher = new MutationObserver(loadUsed);
  watcher.observe(document, { childList: true, subtree: true });
  loadUsed();
}
