// Links: each element's state in the URL's fragment, `#<id>=<state>&<id>=<state>`, one entry per
// element with an id. A state is JSON (`linkState`), written as "j" and its UTF-8 in
// base64url, or, past a few hundred bytes, "z" and its deflate-raw compression
// (CompressionStream) in base64url. Loaded when a reader copies a link or a page opens with one.

import { readCapped } from "./streams.js";

/**
 * Observed attributes that are the page's, not the reader's: a link neither carries nor changes
 * them (its scenario, its conversation file, whether it is guided).
 */
export const PAGE_ATTRIBUTES = ["scenario", "src", "guided"];

/**
 * The state a link carries ("Copy link") for element `el`: the attributes it observes (the knobs'
 * among them), the reader's own conversation if any, and the reader's progress (the turn, the
 * time, the events fired and when). A pure function of these gives the same `state()`.
 */
export function linkState(el) {
  // An author's own conversation (`src`) is the page's, not the reader's: the link leaves it out.
  const own = el.conversation === el.sourceConversation ? null : el.conversation;
  const answered = Object.keys(el.answers).length > 0;
  return { a: linkAttributes(el), c: own ?? null, p: el.progress?.() ?? null, ...(answered ? { g: el.answers } : {}) };
}

/** The attributes a link carries: those the element observes, but the page's own (PAGE_ATTRIBUTES). */
function linkAttributes(el) {
  const attributes = {};
  for (const name of el.constructor.observedAttributes) {
    const value = el.getAttribute(name);
    if (value !== null && !PAGE_ATTRIBUTES.includes(name)) attributes[name] = value;
  }
  return attributes;
}

/** The most characters one element's state may take in a link. */
export const LINK_LIMIT = 32_000;
/** The most bytes a state may unpack to: a link is input like any other. */
const UNPACKED_LIMIT = 4_000_000;

const base64url = (bytes) => {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
};
const fromBase64url = (text) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));

/** Bytes through a (de)compression stream, stopping past `limit` bytes out. */
async function through(bytes, stream, limit) {
  const out = await readCapped(new Blob([bytes]).stream().pipeThrough(stream), limit);
  if (out === null) throw new Error(`it unpacks to more than ${limit} bytes`);
  return out;
}

/** `value` as a link's state. */
export async function packState(value) {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  if (bytes.length < 300 || typeof CompressionStream === "undefined") return `j${base64url(bytes)}`;
  return `z${base64url(await through(bytes, new CompressionStream("deflate-raw"), Infinity))}`;
}

/** The value a link's state holds; throws on anything else. */
export async function unpackState(packed) {
  if (packed.length > LINK_LIMIT) throw new Error(`it is longer than ${LINK_LIMIT} characters`);
  const bytes = fromBase64url(packed.slice(1));
  const json = packed[0] === "j" ? bytes
    : packed[0] === "z" ? await through(bytes, new DecompressionStream("deflate-raw"), UNPACKED_LIMIT)
      : null;
  if (json === null) throw new Error("its format is unknown (a state starts with j or z)");
  return JSON.parse(new TextDecoder().decode(json));
}

/**
 * This page's URL with the state of every element that has an id in its fragment, and the ids of
 * those whose state is too long for a link (left out).
 */
async function pageLink(widgets) {
  const parts = [];
  const tooLong = [];
  for (const widget of widgets) {
    if (!widget.id || !widget.model) continue;
    const packed = await packState(linkState(widget));
    if (packed.length > LINK_LIMIT) tooLong.push(widget.id);
    else parts.push(`${encodeURIComponent(widget.id)}=${packed}`);
  }
  return { url: `${location.href.replace(/#.*$/, "")}#${parts.join("&")}`, tooLong };
}

/** The most items in any list of a link's progress: the longest the core accepts (reads). */
const PROGRESS_ITEMS = 10_000;

/** `saved` if it has a link state's shape (`{ a, c, p, g }`, lists within bounds); throws if not. */
function checkedState(saved) {
  const object = (value) => typeof value === "object" && value !== null && !Array.isArray(value);
  if (!object(saved) || !object(saved.a)) throw new Error("it holds no widget state");
  if (saved.c !== undefined && saved.c !== null && !Array.isArray(saved.c)) throw new Error("its conversation is not a list of turns");
  const lists = object(saved.p) ? Object.values(saved.p) : [saved.p];
  if (lists.some((value) => (Array.isArray(value) && value.length > PROGRESS_ITEMS) || object(value))) {
    throw new Error(`its progress is not one this widget makes (a list of at most ${PROGRESS_ITEMS} items)`);
  }
  return saved;
}

/**
 * Opens `el` in the state `packed` holds (`undefined`: the state the page opened with). A link
 * that cannot be read or applied is an error in the widget, which keeps its state. `version` is
 * the element's count of links opened so far, to tell when a later one overtook this one.
 */
export async function openLink(el, packed, version) {
  // The state is applied by settings.js, fetched while the link unpacks.
  const settingsLoad = import("./settings.js");
  settingsLoad.catch(() => {}); // reported below, if this link is still the element's latest
  let saved = null;
  let answers = {};
  if (packed !== undefined) {
    try {
      saved = checkedState(await unpackState(packed));
      // Guided mode's answers (`g`), checked by the guide that asks the questions.
      if (saved.g !== undefined) answers = (await import("./guide.js")).checkedAnswers(saved.g);
    } catch (error) {
      if (version === el.linkVersion) el.fail(new Error(`The link's state for #${el.id} could not be read: ${error?.message ?? error}`));
      return;
    }
  }
  let settings;
  try {
    settings = await settingsLoad;
  } catch (error) {
    if (version === el.linkVersion) el.fail(new Error(`The link's state for #${el.id} could not be opened: the code that applies it did not load (${error?.message ?? error})`));
    return;
  }
  // A later fragment, or the element's removal, overtook this one while it unpacked and loaded.
  if (version !== el.linkVersion || !el.isConnected || !el.model) return;
  const { a = el.openedWith, c = null, p = null } = saved ?? {};
  const observed = el.constructor.observedAttributes.filter((name) => !PAGE_ATTRIBUTES.includes(name));
  const change = () => {
    for (const name of observed) {
      const value = a[name];
      if (value === undefined || value === null) el.removeAttribute(name);
      else el.setAttribute(name, String(value));
    }
    el.conversation = c === null ? el.sourceConversation ?? null : c;
  };
  // Settings of its own need the core with `withConfig`: the link is applied once it is in.
  try {
    await el.coreServing(settings.needAfter(el, change));
  } catch (error) {
    if (version === el.linkVersion) el.fail(new Error(`The link's state for #${el.id} could not be opened: its WebAssembly core did not load (${error?.message ?? error})`));
    return;
  }
  if (version !== el.linkVersion || !el.isConnected || !el.model) return;
  // A built-in session the link names is loaded before the state is applied to it.
  const unloaded = await el.loadSession?.(a.session ?? null);
  if (unloaded) {
    if (version === el.linkVersion) el.fail(new Error(`The link's state for #${el.id} could not be opened: ${unloaded.message}`));
    return;
  }
  if (version !== el.linkVersion || !el.isConnected || !el.model) return;
  let error = settings.reconfigure(el, change, saved ? "Opened the state in the link" : "Back to the state the page opened with", p);
  if (error?.then) error = await error; // a long log replaying in a worker (large.js)
  if (error) {
    el.fail(new Error(`The link's state for #${el.id} could not be applied: ${error}`));
    el.emit("memory-link", { restored: false });
    return;
  }
  el.answers = answers;
  el.fromLink = saved !== null;
  el.emit("memory-link", { restored: saved !== null });
}

/** Puts the page's link (every widget's state) in the address bar, one history entry, and on the clipboard. */
export async function copyLink(el, field, widgets) {
  let link;
  try {
    link = await pageLink(widgets);
  } catch (error) {
    el.fail(error);
    return;
  }
  const { url, tooLong } = link;
  try {
    history.pushState(null, "", url);
    // Back from here returns each element to the state the page opened with.
    for (const widget of widgets) widget.fromLink = true;
  } catch {
    // A sandboxed frame may not change its address: the link is still in the field.
  }
  if (tooLong.length) {
    el.fail(new Error(`The link leaves out ${tooLong.map((id) => `#${id}`).join(", ")}: its state is too long for a link (over ${LINK_LIMIT} characters). Share the conversation as a file, with src="...", instead.`));
  }
  field.value = url;
  field.hidden = false;
  let copied = false;
  try {
    await navigator.clipboard.writeText(url);
    copied = true;
  } catch {
    // No clipboard (an insecure page, a denied permission): the field shows the link to copy.
  }
  field.select();
  el.announce(copied ? "Link copied: it opens this exact state." : "Link ready in the field below: copy it from there.");
}
