// The host page's theme, for theme="auto" (the default): each connected widget follows the
// page's light or dark scheme as it changes, as the base class (widget.js) asks. A leaf beside
// dom.js, part of what every element loads first (the build's first-paint chunk).

/** The connected widgets, whose scheme follows the host page's. */
const themed = new Set();
/** The reader's preference, once the watch for a theme switch is on (one for all widgets). */
let prefersDark = null;

/**
 * Follows the host page's theme for `widget`, now and as it changes: a switch sets a class or a
 * data attribute on the page's root or body (mdBook, VitePress, Docusaurus, MkDocs Material),
 * or follows the reader's preference.
 */
export function followTheme(widget) {
  themed.add(widget);
  if (!prefersDark) {
    const update = () => themed.forEach((each) => each.applyTheme());
    const watch = new MutationObserver(update);
    for (const el of [document.documentElement, document.body]) if (el) watch.observe(el, { attributes: true });
    (prefersDark = matchMedia("(prefers-color-scheme: dark)")).addEventListener("change", update);
  }
  widget.applyTheme();
}

/**
 * `"dark"` or `"light"`: the scheme of the page around `el`. The `color-scheme` of its context
 * when that names one scheme (Docusaurus and MkDocs Material set `dark` with their dark themes);
 * else the first opaque background around it, dark when it is darker than the grey where black
 * and white text contrast alike (`lightness`: mdBook's coal, VitePress's `.dark`); else the canvas, dark only when the page allows it and the reader prefers it.
 */
export function hostScheme(el) {
  const up = (at) => at.parentElement ?? at.getRootNode().host;
  const context = up(el) ?? document.documentElement;
  const schemes = getComputedStyle(context).colorScheme.match(/light|dark/g) ?? [];
  if (schemes.length === 1) return schemes[0];
  for (let at = context; at; at = up(at)) {
    const light = lightness(getComputedStyle(at).backgroundColor);
    if (light !== null) return light < 0.46 ? "dark" : "light";
  }
  return schemes[1] && prefersDark.matches ? "dark" : "light";
}

/**
 * How light a computed colour is, from 0 (black) to 1 (white), or `null` when it is transparent.
 * Browsers compute `rgb()` (0 to 255) for sRGB colours, `color(srgb 0.9 ...)` for `color-mix()`,
 * and keep `oklch()`, `lab()` and the like, whose first number is their lightness (`lab`'s and
 * `lch`'s out of 100). Scaled so that 0.46 is the grey where black and white text contrast alike.
 */
function lightness(color) {
  const [x, y, z, alpha = 1] = (color.replace(/^color\(\S+/, "").match(/[\d.]+/g) ?? []).map(Number);
  const space = color[0];
  // Perceptual lightness: that grey is about 0.57 in Oklab and 50 of 100 in CIELAB.
  return alpha > 0 ? (space === "o" ? x * 0.8 : space === "l" ? x * 0.0092
    : (0.2126 * x + 0.7152 * y + 0.0722 * z) / (space === "r" ? 255 : 1)) : null;
}

/** Stops following the host page's theme for `widget` (it left the page). */
export const unfollowTheme = (widget) => themed.delete(widget);
