// The DOM helpers every module uses, the shadow roots' stylesheet, and tables fitted to the
// widget: a leaf that imports nothing, so that the base class (widget.js), the elements and the
// parts that load on demand (settings.js, knobs.js, links.js, guide.js, ...) all build on it
// without importing one another. (Fitting tables was a module of its own, tables.js, imported by
// the three elements with tables: its chunk cost each of their pages more gzip, 486 B for 767 B
// of code, than it saved the compaction page, so it is here.)
// Text is always set as text, never parsed as HTML.

/**
 * Whether a browser runs this: on a server (a docs host's build imports the modules to render
 * pages) there is no DOM, and the modules import, define nothing and touch nothing.
 */
export const BROWSER = typeof document !== "undefined" && typeof customElements !== "undefined";

// bundle:styles-begin (the build swaps this for a constructed stylesheet: tools/build-site.mjs)
const STYLESHEET = new URL("./style.css", import.meta.url).href;
/**
 * Styles a shadow root with the widgets' stylesheet (all of it here; the build gives each `family`
 * its own rules, as constructed sheets that apply at once). A sheet linked in a shadow root does
 * not hold back the first paint, and unstyled, a playground's table lays out 900 px wide; so until
 * the link has loaded (or failed), a constructed sheet keeps the content out of the layout.
 */
const UNSTYLED = globalThis.CSSStyleSheet && new CSSStyleSheet();
UNSTYLED?.replaceSync(".widget { display: none }");
export function adoptStyles(root) {
  root.adoptedStyleSheets = [UNSTYLED];
  const link = h("link", { rel: "stylesheet", href: STYLESHEET });
  for (const type of ["load", "error"]) link.addEventListener(type, () => (root.adoptedStyleSheets = []));
  root.append(link);
}
/**
 * Adds the rules `name` (`"own"`: the panel own.js builds) to a shadow root. Here every rule is in
 * the linked stylesheet already; the build's version adopts the sheet own.js brought.
 */
export function adoptMoreStyles(_root, _name) {}
// bundle:styles-end

/**
 * Creates an element. `props` are set as properties (`className`, `type`, ...) except
 * `attrs`, set as attributes, and `on`, event listeners. Children are nodes or strings, and
 * strings become text nodes: nothing is ever parsed as HTML.
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  const { attrs = {}, on = {}, ...rest } = props;
  Object.assign(el, rest);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined && value !== false) el.setAttribute(name, value);
  }
  for (const [type, listener] of Object.entries(on)) el.addEventListener(type, listener);
  el.append(...children.flat().filter((child) => child !== null && child !== undefined && child !== false));
  return el;
}

export const plural = (n, one, many = `${one}s`) => `${num(n)} ${n === 1 ? one : many}`;
export const quote = (text) => `\u201c${text}\u201d`;
/** "a", "a and b", "a, b and c". */
export const listed = (items) => (items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`);

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
// One formatter for each number of decimals: toLocaleString builds one each call, which costs a
// long log's drawing tens of ms.
const FORMATS = [];
/**
 * Every number the page shows, written one way: at most `digits` decimals, trailing zeros
 * trimmed, thousands grouped (200,000 and 0.125), as the core writes the token counts in its texts.
 */
export const num = (value, digits = 3) => (FORMATS[digits] ??= new Intl.NumberFormat("en-US", { maximumFractionDigits: digits })).format(value);

export const SVG = "http://www.w3.org/2000/svg";
/** Creates an SVG element with attributes (presentation attributes, never `style`). */
export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, String(value));
  el.append(...children);
  return el;
}

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
