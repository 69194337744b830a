// The DOM helpers every module uses and the shadow roots' stylesheet: a leaf that imports
// nothing, so that the base class (widget.js), the elements and the parts that load on demand
// (settings.js, knobs.js, links.js, guide.js, ...) all build on it without importing one another.
// Tables fitted to the widget are tables.js's, which only the elements with tables load.
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
 * Every number the page shows, written one way: at most `digits` decimals, trailing zeros
 * trimmed, thousands grouped (200,000 and 0.125).
 */
export const num = (value, digits = 3) => value.toLocaleString("en", { maximumFractionDigits: digits });

export const SVG = "http://www.w3.org/2000/svg";
/** Creates an SVG element with attributes (presentation attributes, never `style`). */
export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, String(value));
  el.append(...children);
  return el;
}
