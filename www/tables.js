// Tables that fit the widget: each in a box of its own, as cards or scrolling sideways when too
// wide. Imported by the elements that have tables (forgetting.js, playground.js,
// forgetting-playground.js), each as its `fitTables()`; a page with only <memory-compaction>,
// which has none, does not download it.

import { h } from "./dom.js";

/**
 * Puts each table of `el`'s content in a box of its own, so the page never scrolls sideways. A
 * table marked `cards` that is wider than the widget becomes cards: a card per row, each value labelled
 * with its column (`data-label`), so that no column, and no answer, hides behind a scroll.
 * Any other table too wide scrolls sideways in its box, which is then a labelled region that
 * takes focus, so keyboard users can scroll it too.
 */
export function fitTables(el) {
  for (const table of el.body.querySelectorAll("table")) {
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
    el.onResize(box, fit);
    el.onResize(table, fit);
  }
}
