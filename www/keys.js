// Keys and focus inside a widget's shadow root, for the base class (widget.js): which keys a
// control uses (they stop at the widget, so a docs host's shortcuts neither fire nor block it),
// and focus handed on when an action disables, hides or rebuilds the control that had it. A leaf
// beside dom.js, part of what every element loads first (the build's first-paint chunk).

/** Keys that move a slider, a list or a scrolling region. */
const NAVIGATION = new Set(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End", "PageUp", "PageDown"]);
/** Keys with Ctrl or ⌘ that a text box uses: select all, copy, cut, paste, undo, redo, word moves. */
const EDITING = new Set(["a", "c", "x", "v", "z", "y", "Backspace", "Delete", ...NAVIGATION]);
/** The named keys a control here uses; every other (Tab, Escape, F1, Shift, ...) is the page's. */
const NAMED = new Set(["Enter", "Backspace", "Delete", ...NAVIGATION]);
/** The input types the widgets use that are text boxes (a spin button is one: typing and arrows). */
const TEXT_INPUT = new Set(["text", "search", "number"]);

/**
 * Whether `control`, which has focus, uses the key of keyboard event `event`: all typing and
 * editing in a text box; a slider's, a list's or a focusable region's navigation keys; Enter and
 * Space on anything that can be pressed. Keys a control does not use (Escape, Tab, a letter on a
 * button, a shortcut with Ctrl or Alt) pass through to the host page. A docs host binds keys on
 * its document (mdBook's ← and → turn the page, reveal.js binds arrows and Space, MkDocs Material
 * `/`, `s`, `f`, `n` and `p`), and an event that leaves a shadow root is retargeted to the host
 * element, so the host cannot tell the key was meant for a control inside: the widget stops it.
 */
export function usesKey(control, event) {
  if (!(control instanceof Element)) return false;
  const { key } = event;
  // Focus moves, Escape, function keys and modifiers alone belong to the page, from any control
  // (but a key that composes text with an input method stays in its text box).
  if (key.length > 1 && !NAMED.has(key) && !event.isComposing) return false;
  const shortcut = event.ctrlKey || event.metaKey || event.altKey;
  const tag = control.localName;
  if (tag === "textarea" || (tag === "input" && TEXT_INPUT.has(control.type)) || control.isContentEditable) {
    return !shortcut || ((event.ctrlKey || event.metaKey) && !event.altKey && EDITING.has(key.length === 1 ? key.toLowerCase() : key));
  }
  if (shortcut) return false;
  const pressed = key === "Enter" || key === " ";
  if (tag === "input" && control.type === "range") return NAVIGATION.has(key);
  if (tag === "select") return NAVIGATION.has(key) || pressed || key.length === 1;
  if (tag === "input" && control.type === "radio") return NAVIGATION.has(key) || key === " ";
  if (tag === "a" && control.hasAttribute("href")) return key === "Enter";
  if (tag === "input" || tag === "button" || tag === "summary") return pressed;
  // A scrolling region or a chart line: it scrolls, or moves to the next line, with the arrows.
  return control.tabIndex >= 0 && control.hasAttribute("tabindex") && NAVIGATION.has(key);
}

const FOCUSABLE = 'button, input, select, textarea, summary, a[href], [tabindex]:not([tabindex="-1"])';
/** Whether `el` can take focus: in the page, enabled, not hidden, not inert, laid out. */
const usable = (el) => el?.isConnected && !el.disabled && !el.closest("[hidden], [inert]") && el.getClientRects().length > 0;

/**
 * After an action in `root`, if the control that had focus (`control`) lost it because the
 * action disabled, hid or rebuilt it: moves focus to the control rebuilt in its place (the same
 * id, or the same kind of control with the same name), or else to the nearest usable control
 * around where it was (Step back at turn 0 hands focus to Add next turn). Focus that the action
 * moved on purpose, or that was never in the widget, stays where it is.
 */
export function keepFocus(root, control) {
  const now = root.activeElement;
  if (!control || (now && now !== control) || (now === control && usable(control))) return;
  const name = (el) => el.getAttribute("aria-label") ?? el.textContent;
  const same = [...root.querySelectorAll(control.localName)].find((el) =>
    el !== control && usable(el) && (control.id ? el.id === control.id : name(el) === name(control)));
  if (same) return same.focus();
  for (let around = control.parentElement; around; around = around.parentElement) {
    const next = [...around.querySelectorAll(FOCUSABLE)].find(usable);
    if (next) return next.focus();
  }
  [...root.querySelectorAll(FOCUSABLE)].find(usable)?.focus();
}
