// Tables, for the elements that show them (forgetting.js, playground.js,
// forgetting-playground.js): each table fitted to the widget, as cards or scrolling sideways when
// too wide, and a policy's rule behind a disclosure. <memory-compaction> has no table, so its
// page never loads this. (The build puts it in a chunk of its own, which those three share.)

import { h } from "./dom.js";

/**
 * `Base` (a `MemoryWidget`) whose content has tables: each rebuild fits them (`fitTables`, which
 * the base class calls after it mounts, as settings.js does), and `onResize` calls back as an
 * element changes size (the decay chart's width, too).
 */
export const WithTables = (Base) => class extends Base {
  /**
   * Calls `callback` whenever `element` changes size, after layout: never a forced layout.
   * A ResizeObserver also reports each element once when it starts observing it. (The base class
   * disconnects `resizeObserver` when it mounts again and when it leaves the page.)
   */
  onResize(element, callback) {
    this.resizeCallbacks ??= new WeakMap();
    this.resizeObserver ??= new ResizeObserver((entries) => {
      for (const entry of entries) this.resizeCallbacks.get(entry.target)?.(entry);
    });
    this.resizeCallbacks.set(element, callback);
    this.resizeObserver.observe(element);
  }

  /**
   * Puts each table of the content in a box of its own, so the page never scrolls sideways. A
   * table marked `cards` that is wider than the widget becomes cards: a card per row, each value
   * labelled with its column (`data-label`), so that no column, and no answer, hides behind a
   * scroll. Any other table too wide scrolls sideways in its box, which is then a labelled region
   * that takes focus, so keyboard users can scroll it too.
   */
  fitTables() {
    for (const table of this.body.querySelectorAll("table")) {
      if (table.parentElement.classList.contains("scroll")) continue;
      const box = h("div", { className: "scroll" });
      table.replaceWith(box);
      box.append(table);
      const label = table.querySelector("caption")?.textContent ?? "table";
      const cards = table.classList.contains("cards");
      const overflows = () => box.scrollWidth > box.clientWidth + 1;
      const fit = () => {
        // Tried as a table first, each time: the widget may have grown, or the table shrunk.
        if (cards) box.classList.toggle("as-cards", false);
        if (cards && overflows()) box.classList.toggle("as-cards", true);
        const scrolls = overflows();
        if (scrolls === box.hasAttribute("tabindex")) return;
        if (scrolls) {
          Object.entries({ tabindex: "0", role: "region", "aria-label": `${label} (scrolls sideways)` })
            .forEach(([name, value]) => box.setAttribute(name, value));
        } else {
          for (const name of ["tabindex", "role", "aria-label"]) box.removeAttribute(name);
        }
      };
      this.onResize(box, fit);
      this.onResize(table, fit);
    }
  }
};

/**
 * A policy's rule and source, closed behind a disclosure: the table leads with its result. `now`,
 * if given, says how the knobs change the rule here.
 */
export function ruleDetails(info, now = "") {
  return h("details", { className: "rule-details" },
    h("summary", {}, "rule and source"),
    h("span", { className: "rule" }, info.rule),
    now ? h("span", { className: "rule rule-now" }, now) : null,
    h("span", { className: "note source" }, "Source: ",
      info.url ? h("a", { href: info.url, rel: "noopener", target: "_blank" }, info.source) : info.source));
}
