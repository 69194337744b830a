// The one script a page includes. It loads an element's code, and that element's wasm core, the
// first time the page uses the element, so a page with only <memory-compaction> never downloads
// the fact store or the playground.
//
//   <script type="module" async src="widgets.js"></script>
//   <memory-compaction budget="40" hot="2"></memory-compaction>
//   <memory-forgetting half-life="4" capacity="4"></memory-forgetting>
//   <memory-playground></memory-playground>
//   <memory-forgetting-playground></memory-forgetting-playground>
//
// `async` lets it start while the page is still being parsed (elements are noticed as they
// appear), so the wasm compiles sooner; without it the loader waits for the whole page first.
// Elements added later are noticed too. One placed inside another element's shadow root is not
// (the page cannot see it): import its module directly, for example "./compaction.js".

// The code every element shares (its loadCore is www/cores.js's), loaded with this loader.
import { loadCore } from "./widget.js";

/** Each element, with the module that defines it. */
const pending = new Map([
  ["memory-compaction", () => import("./compaction.js")],
  ["memory-forgetting", () => import("./forgetting.js")],
  ["memory-playground", () => import("./playground.js")],
  ["memory-forgetting-playground", () => import("./forgetting-playground.js")],
]);

/**
 * Loads the module of every element the document now holds; stops watching once all are in. The
 * first element found also starts its wasm core, which then compiles while the modules load
 * (the element reports a failure: it asks again as it connects).
 */
function loadUsed() {
  for (const [name, load] of pending) {
    if (!document.querySelector(name)) continue;
    if (!coreStarted) loadCore(name.slice("memory-".length)).catch(() => {});
    coreStarted = true;
    pending.delete(name);
    load().catch((error) => {
      // Say why the element stays empty, and try again when the next one is added.
      console.error(`<${name}> could not load its code: ${error?.message ?? error}`);
      pending.set(name, load);
      watcher.observe(document, { childList: true, subtree: true });
    });
  }
  if (pending.size === 0) watcher.disconnect();
}

let coreStarted = false;
const watcher = new MutationObserver(loadUsed);
watcher.observe(document, { childList: true, subtree: true });
loadUsed();
