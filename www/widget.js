// The base class the four elements share: its lifecycle (a shadow root, the stylesheet, its core
// and model, rebuilds), errors and events, with keys and focus (keys.js) and the host's theme
// (theme.js). The rest are controllers that load when first used: the knobs' inputs (knobs.js)
// when a reader opens the knobs, what applies a setting (settings.js), a link's state (links.js)
// when a page opens with one or a reader copies one, guided mode (guide.js) with the `guided`
// attribute; tables fitted to the widget (tables.js) only in the elements that have tables. Each
// element's module (compaction.js, forgetting.js, playground.js, forgetting-playground.js)
// imports this, and the DOM helpers from dom.js; widgets.js loads those on demand.

import { loadCore, serves, elementNeed, own } from "./cores.js";
import { BROWSER, adoptStyles, h } from "./dom.js";
import { keepFocus, usesKey } from "./keys.js";
import { followTheme, hostScheme, unfollowTheme } from "./theme.js";

export { own };

/** Loads a module few readers need once, when first asked; after a failed load, the next call tries again. */
const lazily = (load) => {
  let loading = null;
  return () => (loading ??= load().catch((error) => {
    // (A browser that remembers a failed module fetch, as older ones did, gives the same error
    // again: Chromium fetches anew.)
    loading = null;
    throw error;
  }));
};

/**
 * The code that changes a built widget's settings (settings.js), loaded when first needed; a
 * module that will need it starts the fetch early (own.js as it loads).
 */
export const loadSettings = lazily(() => import("./settings.js"));
/** The knobs' inputs (knobs.js), loaded when a reader first opens the knobs; then the module. */
const loadKnobs = lazily(() => import("./knobs.js").then((module) => (knobsCode = module)));
let knobsCode = null;
/** Guided mode (guide.js), loaded for an element with the `guided` attribute; then the module. */
const loadGuide = lazily(() => import("./guide.js").then((module) => (guideCode = module)));
let guideCode = null;

/** The widgets on the page, for the link that holds their states. */
const widgets = new Set();

/** Settles after the frame that shows the first widget built on the page: see nextBuild. */
let firstShown = null;

/**
 * Resolves when this widget may build. The first widget on a page builds at once; the others
 * after the frame that shows it (unless it showed a preview already), each in a task of its
 * own. So the first widget (usually the one in view) paints before the playgrounds replay their
 * policies, and no build blocks input for the time of all of them. A hidden page has no frames:
 * the others wait at most 100 ms for one.
 */
async function nextBuild(painted) {
  if (firstShown === null) {
    // The frame comes after this task, and so after the build that follows this call.
    firstShown = painted ? Promise.resolve() : new Promise((done) => {
      requestAnimationFrame(() => setTimeout(done, 0));
      setTimeout(done, 100);
    });
    return;
  }
  await firstShown;
  await new Promise((done) => setTimeout(done, 0));
}

/**
 * Reads attributes into core options: `{ attribute: option }` maps each attribute to the option
 * it sets, a number unless the attribute is in `texts`. Absent or empty means the core's default. Returns the options and a function
 * that rewrites a core error about an option into one about the attribute the author wrote.
 */
export function readAttributes(el, map, texts = []) {
  const options = {};
  const written = {};
  for (const [attribute, option] of Object.entries(map)) {
    const raw = el.getAttribute(attribute);
    if (raw === null || raw.trim() === "") continue;
    written[option] = [attribute, raw];
    // A text option (`tokens="estimate"`) goes to the core as written, which checks it.
    options[option] = texts.includes(attribute) ? raw.trim() : Number(raw);
    if (Number.isNaN(options[option])) throw new Error(`${attribute}="${raw}": ${attribute} must be a number`);
  }
  const explain = (error) => {
    const message = String(error?.message ?? error);
    for (const [option, [attribute, raw]] of Object.entries(written)) {
      if (message.startsWith(`${option} `)) return `${attribute}="${raw}": ${attribute}${message.slice(option.length)}`;
    }
    return message;
  };
  return { options, explain };
}

/** Defines a property that mirrors a numeric attribute: a number, or `null` when absent. */
function mirror(element, property, attribute) {
  Object.defineProperty(element.prototype, property, {
    get() {
      const raw = this.getAttribute(attribute);
      return raw === null ? null : Number(raw);
    },
    set(value) {
      if (value === null || value === undefined) this.removeAttribute(attribute);
      else this.setAttribute(attribute, String(value));
    },
    configurable: true,
  });
}

/**
 * What the four elements share: a shadow root, the stylesheet, a status line, errors, events.
 * An element with an `id` keeps its state in the page's link (**Copy link**).
 *
 * The legend colours (`--amw-hot`, ...) are declared on each element, so a page sets them on the
 * element (`memory-compaction { --amw-hot: teal }`); the other custom properties inherit.
 *
 * @attr {"auto" | "light" | "dark"} theme - `auto` (the default) follows the host page's light or
 *   dark theme as it changes: the `color-scheme` of the element's context, or else the
 *   luminance of the host's background. `light` or `dark` fixes it.
 * @prop {"auto" | "light" | "dark" | null} theme - The `theme` attribute; `null` when absent (auto).
 * @prop {{ state(): SessionState | FactStoreState | PlaygroundState | ForgettingPlaygroundState; free(): void } | null} model -
 *   The core object the widget draws, of its family's class in core.d.ts (`Session`, `FactStore`,
 *   `Playground`, `ForgettingPlayground`); `model.state()` is the state on screen. `null` until
 *   the element is built (after `customElements.whenDefined` and its wasm core), and once it is
 *   removed; a new one replaces it when a setting changes.
 * @fires {CustomEvent<{ message: string }>} memory-error - A setting, scenario, file or link the
 *   widget could not use, or code or a wasm core it could not load. It keeps working with its last
 *   good settings.
 * @fires {CustomEvent<{ restored: boolean }>} memory-link - An element with an `id` opened the
 *   state in the page's link (`true`), or went back to the state the page opened with, or could
 *   not apply the link's state (`false`).
 * @cssprop {<color>} [--amw-hot=light-dark(#c2410c, #fb923c)] - HOT turns. Set on the
 *   element, not `:root`.
 * @cssprop {<color>} [--amw-warm=light-dark(#b7791f, #f5c451)] - WARM lines. Set on the
 *   element, not `:root`.
 * @cssprop {<color>} [--amw-cold=light-dark(#2563eb, #7aa7ff)] - The COLD line. Set on the
 *   element, not `:root`.
 * @cssprop {<color>} [--amw-score=light-dark(#7c3aed, #b59cff)] - Scores and their bars. Set on the
 *   element, not `:root`.
 * @cssprop {<color>} [--amw-over=light-dark(#c62828, #ff6b6b)] - Over budget, evicted. Set on the
 *   element, not `:root`.
 * @cssprop {<color>} [--amw-under=light-dark(#2e7d32, #5fd27a)] - Under budget, active. Set on the
 *   element, not `:root`.
 * @cssprop {<color>} --amw-bg - Background; by default the page's `--bg`, else white or near
 *   black.
 * @cssprop {<color>} --amw-fg - Text colour; by default the page's `--fg`, else near black or near
 *   white.
 * @cssprop [--amw-font=system-ui, -apple-system, "Segoe UI", sans-serif] - Font family.
 * @cssprop {<color>} --bg - The page's background (mdBook's name), used when `--amw-bg` is unset.
 * @cssprop {<color>} --fg - The page's text colour, used when `--amw-fg` is unset.
 * @csspart widget - The widget's frame: border, background and padding.
 */
export class MemoryWidget extends (BROWSER ? HTMLElement : Object) {
  #model = null;
  #connected = false;
  /** While set, attribute changes do not rebuild: the knobs rebuild once, themselves. */
  #quiet = false;

  /** The custom states `light` and `dark` (`:host(:state(dark))`): the host's scheme, for theme="auto". */
  #states = null;

  constructor() {
    super();
    // (A browser without custom states follows the reader's preference instead.)
    this.#states = this.attachInternals?.().states;
    // A property set before this element's code loaded (widgets.js loads it on demand) sits on
    // the element itself and would hide the class's accessor: set it again through the accessor.
    for (const key of Object.keys(this)) {
      const value = this[key];
      delete this[key];
      this[key] = value;
    }
    this.attachShadow({ mode: "open" });
    adoptStyles(this.shadowRoot, this.constructor.family);
    this.shadowRoot.append(
      (this.frame = h("div", { className: "widget", attrs: { part: "widget" } },
        (this.body = h("div", { className: "content" })),
        (this.errorBox = h("p", { className: "error", hidden: true, attrs: { role: "alert" } })),
        (this.status = h("p", { className: "live", attrs: { role: "status", "aria-live": "polite" } })))),
    );
    // A control that an action disables, hides or rebuilds would drop focus to <body>: note
    // what had focus as each click, key or change comes in, and hand focus on after it.
    for (const type of ["click", "keydown", "change"]) {
      let focused = null;
      this.shadowRoot.addEventListener(type, () => (focused = this.shadowRoot.activeElement), true);
      this.shadowRoot.addEventListener(type, () => keepFocus(this.shadowRoot, focused));
    }
    // The keys a control uses stop here, so that a docs host's shortcuts neither fire nor block it.
    // Which keys it uses is decided as the key comes in, before the control's own handler runs:
    // that may move focus or change its tabindex (the decay chart's lines do both).
    for (const type of ["keydown", "keypress", "keyup"]) {
      let uses = false;
      this.shadowRoot.addEventListener(type, (event) => (uses = usesKey(event.composedPath()[0], event)), true);
      this.shadowRoot.addEventListener(type, (event) => uses && event.stopPropagation());
    }
  }

  /**
   * Marks a preview (`on`): its controls inert and the widget busy for assistive technology,
   * while the status line and the error box stay outside, so that "Ready" is heard.
   */
  #busy(on) {
    for (const part of [this.body, this.knobs, this.own, this.share]) if (part) part.inert = on;
    if (on) this.frame.setAttribute("aria-busy", "true");
    else this.frame.removeAttribute("aria-busy");
  }

  /** Whether this element shows its preview, which its model takes over (see rebuild). */
  #previewing = false;
  /** Counts connections: a build started by an earlier one, still loading, gives way. */
  #connection = 0;

  async connectedCallback() {
    this.#connected = true;
    followTheme(this);
    const connection = ++this.#connection;
    const current = () => this.#connected && connection === this.#connection;
    // While the core loads, an element that opens in a state the build knows shows it, inert,
    // at once: in the page's first paint when its module runs before it.
    const previewed = !this.#model && Boolean(this.canPreview?.());
    if (previewed && !this.#previewing) {
      this.preview();
      this.#busy(true);
      this.#previewing = true;
    }
    try {
      // The wasm core's module (`this.core`): its classes (`this.core.Session`, ...) make this
      // widget's model. One a reconnected element has already stays, if it serves.
      await this.coreServing(this.coreNeed());
    } catch (error) {
      if (!current()) return;
      // A core that cannot be fetched or compiled (offline, a wrong path, a CSP without
      // 'wasm-unsafe-eval'): say so in the frame rather than leave it blank. A preview's
      // controls have nothing behind them: they go.
      this.#previewing = false;
      this.#busy(false);
      this.body.replaceChildren();
      for (const part of [this.knobs, this.own, this.share]) part?.remove();
      this.knobs = this.own = this.share = null;
      this.frame.classList.add("no-core"); // drops the placeholder's height: there is nothing to hold
      this.fail(new Error(`This widget could not load its WebAssembly core: ${error?.message ?? error}`));
      return;
    }
    // A scenario="#id" may name a script the parser has not reached yet (the loader is async).
    if (this.hasAttribute("scenario") && document.readyState === "loading") {
      await new Promise((done) => document.addEventListener("DOMContentLoaded", done, { once: true }));
    }
    await nextBuild(previewed);
    if (!current()) return;
    const problem = await this.loadSource?.();
    if (!current()) return;
    // Settings given while the core loaded (a scenario, say) may need another core: build on it.
    // (One that cannot load is reported by the build.)
    await this.coreServing(this.coreNeed()).catch(() => {});
    if (!current()) return;
    this.rebuild();
    if (problem) this.fail(problem);
    widgets.add(this);
    if (this.id) this.ensureShare();
    await this.openLink(location.hash);
  }

  disconnectedCallback() {
    widgets.delete(this);
    unfollowTheme(this);
    this.#connected = false;
    this.model = null;
    this.resizeObserver?.disconnect();
    this.resizeObserver = null;
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (this.#quiet || oldValue === newValue || !this.#connected || !this.#model) return;
    // Guided mode adds or takes away the guide's panel; the widget stays as it is.
    if (name === "guided") return this.ensureGuide(this.#model.state());
    this.attributeChanged(name);
  }

  /** An observed attribute changed on a built widget: build it again. */
  attributeChanged() {
    this.rebuild();
  }

  /** The core object this widget renders; replacing it frees the old one. */
  get model() {
    return this.#model;
  }
  set model(next) {
    if (this.#model && this.#model !== next) this.#model.free();
    this.#model = next;
  }

  /**
   * Shows the new model in the widget its preview built (an element with a `preview()` defines
   * its own, which keeps the preview's nodes); by default, builds it again.
   */
  adoptPreview() {
    this.resizeObserver?.disconnect();
    this.mount();
  }

  /**
   * What this element needs of a wasm core (www/cores.js): its family's class, with `withConfig`
   * when it has settings, a scenario or a conversation of its own, and `importConversation`
   * with a `src` file.
   */
  coreNeed() {
    return elementNeed(this, this.hasScenario() || Boolean(this.conversation));
  }

  /**
   * This element's core, once it serves `need` (www/cores.js): the one it has, or another, loaded
   * and made its core. Its model stays on the old core until it is built again.
   */
  async coreServing(need) {
    if (!serves(this.core, need)) {
      const core = await loadCore(need);
      // Another call may have given it a core that serves as much meanwhile: keep that one.
      if (!serves(this.core, need)) this.core = core;
    }
    return this.core;
  }

  /** The core being loaded for settings the element's core does not serve, if any. */
  #coreSwitch = null;

  /**
   * Loads a core that serves this element's settings as they are now (settings or a scenario
   * given after it was built, say), then builds again. Until then the widget shows its last
   * model, busy.
   */
  #switchCore() {
    const connection = this.#connection;
    // Busy meanwhile, so that a click does not go to the model about to be replaced.
    if (!this.#coreSwitch) this.#busy(true);
    this.#coreSwitch ??= this.coreServing(this.coreNeed()).then(() => {
      this.#coreSwitch = null;
      this.#busy(false);
      if (!this.#connected || connection !== this.#connection) return;
      this.rebuild();
    }, (error) => {
      this.#coreSwitch = null;
      this.#busy(false);
      this.fail(new Error(`This widget could not load its WebAssembly core: ${error?.message ?? error}`));
    });
  }

  /** Builds a fresh model from the attributes, or shows why it cannot and keeps working. */
  rebuild() {
    if (!serves(this.core, this.coreNeed())) return this.#switchCore();
    let next;
    try {
      next = this.createModel();
      this.errorBox.hidden = true;
    } catch (error) {
      this.fail(error);
      if (this.#model) return; // keep showing the last good model
      this.conversation = null;
      next = this.createModel({ fallback: true }); // the seed's settings
    }
    this.model = next;
    this.#busy(false); // a preview's place is taken
    this.opened = null; // the settings a widget opened with, for the words around it
    // A preview is taken over, not built again: its frame and containers stay in place, even if
    // the settings changed meanwhile. (Content built before the page's first frame and then
    // replaced can be left out of the layout by Chromium, a container-query bug that showed as
    // an empty widget.)
    const previewed = this.#previewing;
    this.#previewing = false;
    if (previewed) {
      this.adoptPreview();
    } else {
      this.resizeObserver?.disconnect(); // mount() replaces what it watched
      this.mount();
    }
    this.fitTables();
    this.showConversation?.();
  }

  /**
   * Fits the content's tables to the widget, after each mount: an element with tables has them
   * (tables.js, `WithTables`, which also watches sizes with `onResize` and `resizeObserver`).
   */
  fitTables() {}

  /** Shows an error inside the widget, fires `memory-error`, and keeps working. */
  fail(error) {
    const message = String(error?.message ?? error);
    this.errorBox.textContent = message;
    this.errorBox.hidden = false;
    this.emit("memory-error", { message });
  }

  /**
   * The state of a second model of this widget's settings, moved by `move(model)` (to the run's
   * end, say), then freed; `null` on an error, which is shown. The widget's own model is untouched.
   */
  probeState(move) {
    const probe = this.attempt(() => {
      const model = this.createModel();
      try {
        move(model);
        return model.state();
      } finally {
        model.free();
      }
    });
    return probe.ok ? probe.value : null;
  }

  /** Runs a model call and returns `{ ok, value }`; an error is shown, never thrown. */
  attempt(action) {
    try {
      const value = action();
      this.errorBox.hidden = true;
      return { ok: true, value };
    } catch (error) {
      this.fail(error);
      return { ok: false };
    }
  }

  announce(text) {
    this.status.textContent = text;
  }

  /**
   * Live knobs: number inputs bound to attributes, so turning one rebuilds the widget as an
   * author's attribute would, then replays the reader's progress (`progress()` and `replay()`,
   * which a widget may define) under the new settings. Built once, outside the content that a
   * rebuild replaces, so that focus stays put: here a closed `<details>`, whose inputs
   * (knobs.js) load when a reader first opens it. `knobs` is
   * `[[attribute, label, { min, max, step, placeholder, choices, note }]]` (with `choices`, a
   * `<select>`, knobs.js); `seed` the seed's values (`""` for a
   * knob whose empty input means the core's default, which its placeholder names). A value the
   * core rejects is marked invalid at its input, with the core's message, and is not applied;
   * once the input loses focus it shows the value in force.
   */
  ensureKnobs(knobs, seed) {
    this.knobSpec = knobs;
    this.seedValues = seed;
    if (this.knobs) return this.syncKnobs();
    const failed = "The knobs could not load their code";
    const open = () => {
      if (!this.knobs.open) return;
      loadKnobs().then((knobs) => {
        if (!this.knobs) return;
        knobs.buildKnobs(this);
        if (this.errorBox.textContent.startsWith(failed)) this.errorBox.hidden = true; // an earlier try's
      }, (error) => this.fail(new Error(`${failed}: ${error?.message ?? error}`)));
    };
    this.knobs = h("details", { className: "knobs", on: { toggle: open } },
      h("summary", {}, "Knobs"),
      h("p", { className: "caption" }, "Changing a knob replays what you did so far under the new settings."));
    this.frame.prepend(this.knobs);
  }

  /** Shows each knob's value in force, its attribute's or the seed's, unless it has focus (knobs.js). */
  syncKnobs() {
    knobsCode?.syncKnobs(this);
  }

  /** Runs `change`, which sets attributes, without the rebuild that each change would start. */
  quietly(change) {
    this.#quiet = true;
    try {
      change();
    } finally {
      this.#quiet = false;
    }
  }

  /**
   * Changes attributes with `change`, then builds one new model from them and replays the
   * reader's progress into it (settings.js, loaded when first needed). Resolves to `null`, or on
   * an error to its message, fired as `memory-error` but not shown in the error box: the
   * attributes go back as they were and the old model stays.
   */
  async reconfigure(change, what, progress) {
    let settings;
    try {
      settings = await loadSettings();
    } catch (error) {
      const message = `the code that changes settings did not load (${error?.message ?? error})`;
      this.emit("memory-error", { message });
      return message;
    }
    return settings.reconfigureOnCore(this, change, what, progress);
  }

  /**
   * Restores the state the fragment `hash` holds for this element's id (none: the state the page
   * opened with). A link that cannot be read or applied is an error in the widget, which keeps
   * its state.
   */
  async openLink(hash) {
    if (!this.id || !this.model) return;
    // The attributes the page opened with (links.js leaves out the page's own): first called as the element connects.
    this.openedWith ??= Object.fromEntries(this.constructor.observedAttributes.map((name) => [name, this.getAttribute(name)]));
    const entries = linkEntries(hash);
    const packed = entries.get(this.id);
    // A fragment of another kind (`#why`, an anchor) leaves every element as it is; an empty one,
    // or one with the states of other elements only, returns this one to how the page opened.
    if (packed === undefined && (!this.fromLink || (entries.size === 0 && hash.length > 1))) return;
    const version = (this.linkVersion = (this.linkVersion ?? 0) + 1);
    let links;
    try {
      links = await import("./links.js");
    } catch (error) {
      if (version === this.linkVersion) this.fail(new Error(`The link's state for #${this.id} could not be opened: the code that reads links did not load (${error?.message ?? error})`));
      return;
    }
    await links.openLink(this, packed, version);
  }

  /** A "Copy link" button for an element with an id: the link holds every such element's state. */
  ensureShare() {
    if (this.share) return;
    const field = h("input", { type: "text", readOnly: true, id: "link-field", hidden: true, attrs: { "aria-label": "Link to this state" } });
    const button = h("button", { type: "button", className: "quiet", on: { click: () => this.copyLink(field) } }, "Copy link");
    this.share = h("div", { className: "share" }, button, field);
    this.frame.insertBefore(this.share, this.errorBox);
  }

  /** Puts the page's link in the address bar (one history entry) and on the clipboard (links.js). */
  async copyLink(field) {
    let links;
    try {
      links = await import("./links.js");
    } catch (error) {
      this.fail(new Error(`Copy link could not load its code: ${error?.message ?? error}`));
      return;
    }
    await links.copyLink(this, field, widgets);
  }

  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }

  #answers = {};

  /** The reader's answers in guided mode, by question: `{ [question]: { answer, right } }`. */
  get answers() {
    return this.#answers;
  }
  set answers(value) {
    this.#answers = value ?? {};
    if (this.model) this.ensureGuide(this.model.state());
  }

  /**
   * With the `guided` attribute, on the story the guide knows (`guidesStory`), the guide's panel
   * (guide.js, loaded then) asks the reader to predict the next step; without, it goes.
   */
  ensureGuide(state) {
    if (guideCode) return guideCode.ensureGuide(this, state);
    if (!this.hasAttribute("guided") || !this.guidesStory?.()) return;
    loadGuide().then(() => this.model && guideCode.ensureGuide(this, this.model.state()),
      (error) => this.fail(new Error(`Guided mode could not load its code: ${error?.message ?? error}`)));
  }

  /** Whether a custom scenario is given, as the `scenario` property or attribute (read or not). */
  hasScenario() {
    return this.scenario !== undefined || this.hasAttribute("scenario");
  }

  /** The custom scenario: the `scenario` property, or JSON in the element `scenario="#id"` names. */
  scenarioFromAttribute() {
    if (this._scenario !== undefined) return this._scenario;
    const ref = this.getAttribute("scenario");
    if (!ref) return undefined;
    const source = ref.startsWith("#") ? this.ownerDocument.getElementById(ref.slice(1)) : null;
    if (!source) throw new Error(`scenario: no element with id "${ref.replace(/^#/, "")}" on this page`);
    try {
      return JSON.parse(source.textContent);
    } catch (error) {
      throw new Error(`scenario: ${ref} is not valid JSON (${error.message})`);
    }
  }

  get scenario() {
    return this._scenario;
  }

  /** Sets the custom state `light` or `dark` to the host page's scheme (theme="auto"). */
  applyTheme() {
    this.#states?.clear();
    this.#states?.add(hostScheme(this));
  }

  /**
   * `"auto"` or `null` (follow the host page's theme), `"light"` or `"dark"`; styled in CSS.
   * @attr theme
   * @reflect
   */
  get theme() {
    return this.getAttribute("theme");
  }
  set theme(value) {
    if (value === null || value === undefined) this.removeAttribute("theme");
    else this.setAttribute("theme", value);
  }
  set scenario(value) {
    this._scenario = value;
    if (this.#connected && this.#model) this.rebuild();
  }
}

/**
 * Defines element `name` as `Element` unless it is defined already (the module loaded twice, from
 * two URLs say: the first definition wins), with `mirrors` (`{ property: attribute }`) as
 * numeric properties.
 */
export function define(name, Element, mirrors) {
  for (const [property, attribute] of Object.entries(mirrors)) mirror(Element, property, attribute);
  if (BROWSER && !customElements.get(name)) customElements.define(name, Element);
}

// --- Links: each element's state in the URL's fragment -------------------------------------------
//
// `#<id>=<state>&<id>=<state>`, one entry per element with an id (format: links.js, which loads
// when a reader copies a link or the page opens with one).

/** Whether the page's URL holds a link's state for `el` (which then opens in that state). */
export const hasLinkState = (el) => Boolean(el.id) && linkEntries(location.hash).has(el.id);

/** The fragment's entries, id to packed state; a fragment of another kind has none. */
function linkEntries(hash) {
  const entries = new Map();
  for (const part of hash.replace(/^#/, "").split("&")) {
    const at = part.indexOf("=");
    if (at <= 0) continue;
    try {
      entries.set(decodeURIComponent(part.slice(0, at)), part.slice(at + 1));
    } catch {
      // A malformed escape (`%E0%A4%A`): not a state of ours.
    }
  }
  return entries;
}

// Back and forward move between the states the reader shared (each "Copy link" adds one entry).
if (BROWSER) addEventListener("hashchange", () => {
  for (const widget of widgets) widget.openLink(location.hash).catch((error) => widget.fail(error));
});
