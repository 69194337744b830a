// <memory-compaction>, <memory-forgetting> and <memory-playground>: custom elements that render the state the
// Rust core (compiled to WebAssembly) hands them. They hold no policy logic: every number on
// screen comes from `state()`. Text is always set as text, never parsed as HTML.
//
//   <script type="module" src="widgets.js"></script>
//   <memory-compaction budget="40" hot="2"></memory-compaction>
//   <memory-forgetting half-life="4" capacity="4"></memory-forgetting>

import init, { Session, FactStore, Playground } from "./pkg/agent_memory_widgets.js";

// bundle:styles-begin (tools/bundle.mjs swaps this for a constructed stylesheet)
const STYLESHEET = new URL("./style.css", import.meta.url).href;
/** Styles a shadow root with the widgets' stylesheet. */
function adoptStyles(root) {
  root.append(h("link", { rel: "stylesheet", href: STYLESHEET }));
}
// bundle:styles-end

/** The wasm module, initialised once per page however many widgets there are. */
let ready = null;
function loadCore() {
  ready ??= init();
  return ready;
}

/** How long the bar holds at a crossing's peak before COMPACT brings it down. */
const PEAK_MS = 700;
/** How long the bar takes to fall back. Neither happens if the reader prefers reduced motion. */
const FALL_MS = 500;
const reducedMotion = () => matchMedia("(prefers-reduced-motion: reduce)").matches;

/**
 * Creates an element. `props` are set as properties (`className`, `type`, ...) except
 * `attrs`, set as attributes, and `on`, event listeners. Children are nodes or strings, and
 * strings become text nodes: nothing is ever parsed as HTML.
 */
function h(tag, props = {}, ...children) {
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

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const quote = (text) => `\u201c${text}\u201d`;
/** A number for a table cell: at most `digits` decimals, trailing zeros trimmed. */
const num = (value, digits = 3) => String(Number(value.toFixed(digits)));

/**
 * Reads numeric attributes into core options: `{ attribute: option }` maps each attribute to the
 * option it sets. Absent or empty means the core's default. Returns the options and a function
 * that rewrites a core error about an option into one about the attribute the author wrote.
 */
function readAttributes(el, map) {
  const options = {};
  const written = {};
  for (const [attribute, option] of Object.entries(map)) {
    const raw = el.getAttribute(attribute);
    if (raw === null || raw.trim() === "") continue;
    written[option] = [attribute, raw];
    options[option] = Number(raw);
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

/** What both widgets share: a shadow root, the stylesheet, a status line, errors, events. */
class MemoryWidget extends HTMLElement {
  #model = null;
  #connected = false;
  /** While set, attribute changes do not rebuild: the knobs rebuild once, themselves. */
  #quiet = false;

  constructor() {
    super();
    this.attachShadow({ mode: "open" });
    adoptStyles(this.shadowRoot);
    this.shadowRoot.append(
      (this.frame = h("div", { className: "widget", attrs: { part: "widget" } },
        (this.body = h("div", { className: "content" })),
        (this.errorBox = h("p", { className: "error", hidden: true, attrs: { role: "alert" } })),
        (this.status = h("p", { className: "live", attrs: { role: "status", "aria-live": "polite" } })))),
    );
  }

  async connectedCallback() {
    this.#connected = true;
    await loadCore();
    // Each widget builds in a task of its own, so that a page of several never blocks input
    // for the time of all of them at once.
    await new Promise((done) => setTimeout(done, 0));
    if (this.#connected) this.rebuild();
  }

  disconnectedCallback() {
    this.#connected = false;
    this.model = null;
    this.resizeObserver?.disconnect();
    this.resizeObserver = null;
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (this.#quiet) return;
    if (oldValue !== newValue && this.#connected && this.#model) this.rebuild();
  }

  /** The core object this widget renders; replacing it frees the old one. */
  get model() {
    return this.#model;
  }
  set model(next) {
    if (this.#model && this.#model !== next) this.#model.free();
    this.#model = next;
  }

  /** Builds a fresh model from the attributes, or shows why it cannot and keeps working. */
  rebuild() {
    let next;
    try {
      next = this.createModel();
      this.errorBox.hidden = true;
    } catch (error) {
      this.fail(error);
      if (this.#model) return; // keep showing the last good model
      next = this.createModel({ fallback: true }); // the seed's settings
    }
    this.model = next;
    this.opened = null; // the settings a widget opened with, for the words around it
    this.resizeObserver?.disconnect(); // mount() replaces what it watched
    this.mount();
    this.fitTables();
  }

  /**
   * Calls `callback` whenever `element` changes size, after layout: never a forced layout.
   * A ResizeObserver also reports each element once when it starts observing it.
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
   * Puts each table in a box of its own that scrolls sideways when the table is wider than the
   * widget, so the page never does. While it scrolls, the box is a labelled region that takes
   * focus, so keyboard users can scroll it too.
   */
  fitTables() {
    for (const table of this.body.querySelectorAll("table")) {
      if (table.parentElement.classList.contains("scroll")) continue;
      const box = h("div", { className: "scroll" });
      table.replaceWith(box);
      box.append(table);
      const label = table.querySelector("caption")?.textContent ?? "table";
      const fit = () => {
        const scrolls = box.scrollWidth > box.clientWidth + 1;
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

  /** Shows an error inside the widget, fires `memory-error`, and keeps working. */
  fail(error) {
    const message = String(error?.message ?? error);
    this.errorBox.textContent = message;
    this.errorBox.hidden = false;
    this.emit("memory-error", { message });
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
   * rebuild replaces, so that focus stays put. `knobs` is `[[attribute, label, { min, step }]]`;
   * `seed` the seed's values. A value the core rejects is marked invalid at its input, with the
   * core's message, and is not applied; once the input loses focus it shows the value in force.
   */
  ensureKnobs(knobs, seed) {
    this.seedValues = seed;
    if (this.knobs) return this.syncKnobs(seed);
    const inputs = knobs.map(([attribute, label, { min, step }]) => {
      const message = h("span", { className: "knob-error", id: `knob-${attribute}-error` });
      const input = h("input", {
        type: "number", min, step, id: `knob-${attribute}`,
        attrs: { "aria-describedby": message.id },
        on: {
          change: () => this.applyKnob(input),
          blur: () => this.syncKnobs(seed),
        },
      });
      Object.assign(input.dataset, { attribute, label });
      return h("div", { className: "knob" }, h("label", { htmlFor: input.id }, label), input, message);
    });
    const restore = () => this.reconfigure(() => {
      for (const attribute of Object.keys(seed)) this.removeAttribute(attribute);
    }, "Seed values restored");
    this.knobs = h("details", { className: "knobs" },
      h("summary", {}, "Knobs"),
      h("p", { className: "caption" }, "Changing a knob replays what you did so far under the new settings."),
      h("div", { className: "knob-row" }, ...inputs,
        h("button", { type: "button", className: "quiet", on: { click: restore } }, "Seed values")));
    this.frame.prepend(this.knobs);
    this.syncKnobs(seed);
  }

  /** Shows each knob's value in force, its attribute's or the seed's, unless it has focus. */
  syncKnobs(seed) {
    for (const input of this.knobs.querySelectorAll("input")) {
      if (input.matches(":focus")) continue;
      const { attribute } = input.dataset;
      input.value = this.getAttribute(attribute) ?? String(seed[attribute]);
      input.removeAttribute("aria-invalid");
    }
  }

  /** Applies the value typed into a knob, or marks the knob invalid and keeps the old value. */
  applyKnob(input) {
    const { attribute, label } = input.dataset;
    const message = this.knobs.querySelector(`#${input.id}-error`);
    const raw = input.value.trim();
    const error = this.reconfigure(() => {
      if (raw === "") this.removeAttribute(attribute);
      else this.setAttribute(attribute, raw);
    }, `${label} is now ${raw === "" ? "the seed's" : raw}`);
    if (error) {
      // The core's rule, said of the knob: "must be a whole number of at least 1, got -3".
      const rule = error.replace(/^[\w-]+="[^"]*": [\w-]+ /, "");
      const inForce = this.getAttribute(attribute) ?? String(this.seedValues[attribute]);
      message.textContent = `Not applied: ${label} ${rule}. Still ${inForce}.`;
      input.setAttribute("aria-invalid", "true");
      this.announce(message.textContent);
    } else {
      for (const other of this.knobs.querySelectorAll(".knob-error")) other.textContent = "";
      input.removeAttribute("aria-invalid");
    }
  }

  /**
   * Changes attributes with `change`, then builds one new model from them and replays the
   * reader's progress into it. On an error the attributes go back as they were and the old model
   * stays; the message is returned (and fired as `memory-error`), not shown in the error box.
   */
  reconfigure(change, what) {
    const names = this.constructor.observedAttributes;
    const before = names.map((name) => [name, this.getAttribute(name)]);
    const progress = this.progress?.() ?? null;
    this.#quiet = true;
    let next;
    try {
      change();
      next = this.createModel();
    } catch (error) {
      for (const [name, value] of before) {
        if (value === null) this.removeAttribute(name);
        else this.setAttribute(name, value);
      }
      const message = String(error?.message ?? error);
      this.emit("memory-error", { message });
      return message;
    } finally {
      this.#quiet = false;
    }
    this.errorBox.hidden = true;
    this.model = next;
    const replayed = progress === null ? "" : this.replay(progress);
    this.resizeObserver?.disconnect(); // mount() replaces what it watched
    this.mount();
    this.fitTables();
    this.announce(`${what}. ${replayed}`.trim());
    return null;
  }

  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
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

  /** `"light"`, `"dark"` or `null` (follow the reader's preference); styled in CSS. */
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

// ---------------------------------------------------------------------------------------------
// Compaction

/**
 * A `Session` or `Playground` (`Model`) from an element's `budget`, `hot`, `turn` and
 * `scenario`; errors name the attribute.
 */
function sessionModel(el, Model) {
  const { options, explain } = readAttributes(el, { budget: "budget", hot: "hotN", turn: "turn" });
  const { turn, ...config } = options;
  const scenario = el.scenarioFromAttribute();
  if (scenario !== undefined && !Array.isArray(scenario) && !Array.isArray(scenario?.script)) {
    throw new Error(`scenario: expected { "script": [turns...] } for <${el.localName}>`);
  }
  config.script = Array.isArray(scenario) ? scenario : scenario?.script;
  try {
    const model = Model.withConfig(config);
    if (turn !== undefined) model.goTo(turn);
    return model;
  } catch (error) {
    throw new Error(explain(error));
  }
}

class MemoryCompaction extends MemoryWidget {
  static observedAttributes = ["budget", "hot", "turn", "scenario"];

  #timer = null;
  #frame = 0;

  createModel({ fallback = false } = {}) {
    return fallback ? new Session() : sessionModel(this, Session);
  }

  mount() {
    this.#settle();
    const addButton = h("button", { type: "button", className: "primary", on: { click: () => this.addTurn() } }, "Add next turn");
    const resetButton = h("button", { type: "button", on: { click: () => this.reset() } }, "Reset");
    const backButton = h("button", { type: "button", on: { click: () => this.stepBack() } }, "Step back");
    const doneNote = h("span", { className: "note", id: "done-note" });
    addButton.setAttribute("aria-describedby", "done-note");
    this.ui = {
      addButton,
      resetButton,
      backButton,
      doneNote,
      transcript: h("ol", { className: "transcript-list" }),
      meterBox: h("div", { className: "meter" }),
      meterText: h("span", { className: "meter-text" }),
      verdict: h("strong", { className: "verdict" }),
      phase: h("span", { className: "phase", hidden: true, attrs: { "aria-hidden": "true" } }, "COMPACT \u2193"),
      meter: h("meter", { min: 0, attrs: { "aria-label": "live window" } }),
      crossingNote: h("p", { className: "crossing-note" }),
      settingsNote: h("p", { className: "note settings-note" }),
      hot: h("ol", { className: "lines" }),
      hotCaption: h("p", { className: "caption" }),
      warm: h("ol", { className: "lines" }),
      cold: h("p", { className: "cold-line" }),
      dropped: h("ul", { className: "dropped-list" }),
      log: h("ol", { className: "log-list" }),
      reason: h("p", { className: "reason", attrs: { role: "note" } }),
    };
    const ui = this.ui;
    const tier = (name, caption, ...content) =>
      h("section", { className: `tier ${name}`, attrs: { "aria-label": name } },
        h("h4", {}, h("span", { className: "swatch", attrs: { "aria-hidden": "true" } }), name),
        caption, ...content);
    ui.meterBox.append(
      h("p", { className: "meter-label" }, ui.meterText, " ", ui.verdict, ui.phase),
      ui.meter,
      ui.crossingNote,
      ui.reason,
      ui.settingsNote,
    );
    this.frame.className = "widget compaction";
    this.body.replaceChildren(
      h("div", { className: "controls" }, addButton, backButton, resetButton, doneNote),
      ui.meterBox,
      h("h3", {}, "The window the model actually sees"),
      h("div", { className: "tiers" },
        tier("hot", ui.hotCaption, ui.hot),
        tier("warm", h("p", { className: "caption" },
          "rolling summary: one line for each older decision, tool output or question (chatter is dropped)"), ui.warm),
        tier("cold", h("p", { className: "caption" },
          "one lossy line: only the key terms of the oldest warm lines, words that start with a capital letter or contain a digit (names, IDs, amounts); the oldest terms fall off"), ui.cold)),
      h("div", { className: "record" },
        h("section", { className: "dropped", attrs: { "aria-label": "dropped" } },
          h("h4", {}, "Dropped chatter"), ui.dropped),
        h("section", { className: "log", attrs: { "aria-label": "steps" } },
          h("h4", {}, "Steps"), ui.log)),
      h("section", { className: "transcript", attrs: { "aria-label": "transcript" } },
        h("h4", {}, "Transcript"),
        h("p", { className: "caption" }, "Every turn so far and where it lives now. Focus or hover a WARM or COLD line to see the turns it came from."),
        ui.transcript),
    );
    this.ensureKnobs([
      ["budget", "budget", { min: 1, step: 1 }],
      ["hot", "HOT turns", { min: 1, step: 1 }],
    ], { budget: 40, hot: 2 });
    const state = this.model.state();
    this.opened ??= [state.budget, state.hotN];
    ui.settingsNote.textContent = this.settingsSentence(state);
    this.render(state);
    this.announce(state.turn === 0
      ? `Ready: ${state.totalTurns} turns, budget ${state.budget} tokens.`
      : `Opened after turn ${state.turn}: ${state.tokens} of ${state.budget} tokens.`);
  }

  /** What a knob change keeps: the turn the reader is at. */
  progress() {
    this.#settle();
    return this.model.state().turn;
  }

  /** Replays to `turn` under new settings, and says so. */
  replay(turn) {
    this.model.goTo(turn);
    const state = this.model.state();
    const verdict = state.tokens > state.budget ? "over budget" : "under budget";
    return `Replayed to turn ${state.turn} under the new settings: ${state.tokens} of ${state.budget} tokens, ${verdict}.`;
  }

  /**
   * Where this run crosses the budget, from a second model played to the end; and, when the
   * reader turned the knobs, that the text around the widget describes the opening settings.
   */
  settingsSentence(state) {
    const probe = this.attempt(() => {
      const model = this.createModel();
      model.goTo(state.totalTurns);
      const { crossings } = model.state();
      model.free();
      return crossings;
    });
    if (!probe.ok) return "";
    const crossings = probe.value;
    const where = crossings.length === 0 ? "never crosses the budget"
      : `crosses the budget on ${turnList(crossings)}`;
    const now = `With a budget of ${state.budget} tokens and ${plural(state.hotN, "HOT turn")}, the window ${where}.`;
    const [budget, hotN] = this.opened;
    return budget === state.budget && hotN === state.hotN ? now
      : `${now} The text around this widget describes the settings it opened with: a budget of ${budget} and ${plural(hotN, "HOT turn")}.`;
  }

  addTurn() {
    if (!this.model) return;
    this.#settle();
    const { ok, value: step } = this.attempt(() => this.model.addTurn());
    if (!ok || !step) return;
    const state = this.model.state();
    this.emit("memory-step", { step, state });
    if (step.compacted) this.emit("memory-compact", { step, state });
    this.announce(describeStep(step, state));
    this.render(state);
    if (step.crossed && step.compacted && !reducedMotion()) this.#animateCompaction(step);
  }

  /** Goes back one turn: the session is a function of how many turns were added. */
  stepBack() {
    if (!this.model) return;
    this.#settle();
    const turn = this.model.state().turn;
    if (turn === 0) return;
    this.model.goTo(turn - 1);
    const state = this.model.state();
    this.render(state);
    this.announce(`Back to turn ${state.turn}: ${state.tokens} of ${state.budget} tokens.`);
    this.emit("memory-step", { step: state.log.at(-1) ?? null, state });
  }

  reset() {
    if (!this.model) return;
    this.#settle();
    this.model.reset();
    const state = this.model.state();
    this.render(state);
    this.announce(`Reset: back to turn 0 of ${state.totalTurns}.`);
    this.emit("memory-step", { step: null, state });
  }

  /**
   * The meter's story of a crossing: it shows the peak, over budget, holds, then counts down
   * to the window COMPACT left. Number, words, colour and bar change together, so at every
   * moment they describe the same window; the crossing note beside it tells the whole story.
   */
  #animateCompaction(step) {
    const { phase } = this.ui;
    const budget = this.model.state().budget;
    this.showMeter(step.peakTokens, budget);
    phase.hidden = false;
    this.#timer = setTimeout(() => {
      const start = performance.now();
      const tick = (now) => {
        const progress = Math.min(1, (now - start) / FALL_MS);
        this.showMeter(Math.round(step.peakTokens + (step.tokensAfter - step.peakTokens) * progress), budget);
        if (progress < 1) {
          this.#frame = requestAnimationFrame(tick);
        } else {
          this.#settle();
        }
      };
      this.#frame = requestAnimationFrame(tick);
    }, PEAK_MS);
  }

  /** Ends any running crossing animation at once, leaving the meter at the window's size. */
  #settle() {
    const running = this.#timer !== null || this.#frame !== 0;
    clearTimeout(this.#timer);
    cancelAnimationFrame(this.#frame);
    this.#timer = null;
    this.#frame = 0;
    if (running && this.ui && this.model) {
      this.ui.phase.hidden = true;
      const state = this.model.state();
      this.showMeter(state.tokens, state.budget);
    }
  }

  /** The meter at one moment: `tokens` in the window, against `budget`. */
  showMeter(tokens, budget) {
    const ui = this.ui;
    const over = tokens > budget;
    const verdict = over ? "over budget" : "under budget";
    ui.meterBox.classList.toggle("over", over);
    ui.meterText.textContent = `live window ${tokens} / ${budget} tokens`;
    ui.verdict.textContent = verdict;
    ui.meter.max = budget;
    ui.meter.value = Math.min(tokens, budget);
    ui.meter.setAttribute("aria-valuetext", `${tokens} of ${budget} tokens, ${verdict}`);
  }

  disconnectedCallback() {
    this.#settle();
    super.disconnectedCallback();
  }

  /**
   * Makes a WARM or COLD line focusable and, while it is focused or hovered, highlights the
   * transcript turns it came from.
   */
  sourceLink(el, turns) {
    el.tabIndex = 0;
    el.classList.add("source-link");
    el.setAttribute("aria-description", `from ${turnList(turns)}`);
    const mark = (on) => {
      for (const item of this.ui.transcript.children) {
        item.classList.toggle("linked", on && turns.includes(Number(item.dataset.turn)));
      }
    };
    for (const type of ["focus", "mouseenter"]) el.addEventListener(type, () => mark(true));
    for (const type of ["blur", "mouseleave"]) el.addEventListener(type, () => mark(false));
    return el;
  }

  /**
   * Renders `state`. The meter shows the window the model sees now; a crossing animation, if
   * one runs, shows the peak first (see `#animateCompaction`). The crossing note tells the last
   * step's crossing and the headroom it left.
   */
  render(state) {
    const ui = this.ui;
    const last = state.log.at(-1);
    this.showMeter(state.tokens, state.budget);
    ui.crossingNote.textContent = last?.crossed ? crossingStory(last, state) : "";
    ui.crossingNote.hidden = !last?.crossed;
    ui.reason.textContent = state.overBudgetReason ?? "";
    ui.reason.hidden = !state.overBudgetReason;

    ui.hotCaption.textContent = `verbatim turns: all of them until a compaction, which keeps only the last ${plural(state.hotN, "turn")}`;
    ui.hot.replaceChildren(...state.hot.map((turn) =>
      h("li", { className: `turn kind-${turn.kind}` },
        h("span", { className: "who" }, `${turn.speaker} \u00b7 turn ${turn.turn} \u00b7 ${turn.kind}`),
        h("span", { className: "text" }, turn.text),
        h("span", { className: "tokens" }, plural(turn.tokens, "token")))));
    if (state.hot.length === 0) ui.hot.append(h("li", { className: "empty" }, "nothing yet: press Add next turn"));
    ui.warm.replaceChildren(...state.warm.map((line) =>
      this.sourceLink(h("li", {},
        h("span", { className: "text" }, line.text),
        h("span", { className: "tokens" }, `from ${turnList(line.turns)} \u00b7 ${plural(line.tokens, "token")}`)), line.turns)));
    if (state.warm.length === 0) ui.warm.append(h("li", { className: "empty" }, "empty"));
    ui.cold.replaceChildren(state.cold
      ? this.sourceLink(h("span", {}, h("span", { className: "text" }, state.cold.text),
          h("span", { className: "tokens" }, ` from ${turnList(state.cold.turns)} \u00b7 ${plural(state.cold.tokens, "token")}`)), state.cold.turns)
      : h("span", { className: "empty" }, "empty"));
    ui.transcript.replaceChildren(...state.transcript.map((turn) => {
      const item = h("li", { className: `place-${turn.place}` },
        h("span", { className: "who" }, `turn ${turn.turn} \u00b7 ${turn.speaker} \u00b7 ${turn.kind}`),
        h("span", { className: "text" }, turn.text),
        h("span", { className: "place" }, turn.place));
      item.dataset.turn = turn.turn;
      return item;
    }));
    ui.dropped.replaceChildren(...state.dropped.map((d) =>
      h("li", {}, h("span", { className: "visually-hidden" }, "dropped: "), h("s", {}, d.text), " ", h("span", { className: "nowrap" }, `(turn ${d.turn})`))));
    if (state.dropped.length === 0) ui.dropped.append(h("li", { className: "empty" }, "nothing dropped yet"));
    ui.log.replaceChildren(...state.log.map((step) =>
      h("li", { className: step.crossed ? "crossed" : "" },
        h("span", { className: "line" }, logLine(step, state.budget)),
        h("span", { className: "diff" }, stepDiff(step)))));

    ui.addButton.disabled = state.done;
    ui.backButton.disabled = state.turn === 0;
    ui.doneNote.textContent = state.done
      ? `All ${state.totalTurns} turns are in: the script is finished. Reset starts over.`
      : `Turn ${state.turn} of ${state.totalTurns}.`;
  }
}

/** What a step moved, tier by tier: `HOT +4 · WARM +2 · dropped 1 · tokens 29 → 41 → 30`. */
function stepDiff(step) {
  const parts = [`HOT +${step.turn}`];
  if (step.toWarm.length) parts.push(`WARM +${step.toWarm.join(", +")}`);
  if (step.toCold.length) parts.push(`COLD +${step.toCold.join(", +")}`);
  if (step.dropped.length) parts.push(`dropped ${step.dropped.join(", ")}`);
  parts.push(`tokens ${step.tokensBefore} \u2192 ${step.peakTokens} \u2192 ${step.tokensAfter}`);
  return parts.join(" \u00b7 ");
}

/** `10 tokens of headroom`: room left under the budget after a step. */
const headroom = (tokens, budget) => `${plural(budget - tokens, "token")} of headroom`;

/**
 * One line of the step log, e.g.
 * `turn 4: 41 / 40 over budget → COMPACT → 30 / 40, 1 turn to WARM, 1 dropped; 10 tokens of headroom`.
 */
function logLine(step, budget) {
  const room = step.tokensAfter > budget ? " (still over budget)" : `; ${headroom(step.tokensAfter, budget)}`;
  if (!step.crossed && !step.compacted) return `turn ${step.turn}: ${step.tokensAfter} / ${budget}${room}`;
  const moved = [
    step.toWarm.length && `${plural(step.toWarm.length, "turn")} to WARM`,
    step.toCold.length && `${step.toCold.length} WARM to COLD`,
    step.dropped.length && `${step.dropped.length} dropped`,
  ].filter(Boolean);
  const head = step.crossed ? `${step.peakTokens} / ${budget} over budget \u2192 ` : "";
  return `turn ${step.turn}: ${head}COMPACT \u2192 ${step.tokensAfter} / ${budget}${moved.length ? ", " + moved.join(", ") : ""}${room}`;
}

/** The crossing note: what the last step's crossing did, and how close the next one is. */
function crossingStory(step, state) {
  const { budget } = state;
  const went = `Turn ${step.turn} took the window to ${step.peakTokens} tokens, over the budget of ${budget}.`;
  if (step.tokensAfter > budget) return `${went} COMPACT could only bring it down to ${step.tokensAfter}, still over budget.`;
  const room = budget - step.tokensAfter;
  const next = state.done ? "" : room === 0 ? ": any next turn crosses again"
    : `: the next turn crosses again if it is longer than ${plural(room, "token")}`;
  return `${went} COMPACT brought it back to ${step.tokensAfter}, leaving ${headroom(step.tokensAfter, budget)}${next}.`;
}

/** The live-region sentence for a step. */
function describeStep(step, state) {
  if (step.crossed && step.compacted) {
    const still = step.tokensAfter > state.budget ? ", still over budget" : "";
    return `Turn ${step.turn}: over budget at ${step.peakTokens} tokens, compacted to ${step.tokensAfter} of ${state.budget} tokens${still}.`;
  }
  const verdict = step.tokensAfter > state.budget ? "over budget" : "under budget";
  const done = state.done ? " The script is finished." : "";
  return `Turn ${step.turn}: ${step.tokensAfter} of ${state.budget} tokens, ${verdict}.${done}`;
}

// ---------------------------------------------------------------------------------------------
// Forgetting

/** The slider's range. */
const T_MAX = 12;

/** When a score halves: by a time to one decimal, or after the slider's end. */
const halvesAt = (at) => (at > T_MAX ? `halves after t = ${T_MAX}` : `halves by t = ${num(at, 1)}`);

/** The decay chart's line styles: dash patterns and end markers, so lines differ beyond colour. */
const DASHES = ["", "7 4", "2 3", "10 3 2 3", "5 2"];
const MARKERS = ["circle", "square", "triangle", "diamond", "ring", "bar"];

/** A marker shape of `kind` centred on (x, y). */
function marker(kind, x, y, className) {
  const r = 4;
  switch (kind) {
    case "square": return svg("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r, class: className });
    case "triangle": return svg("polygon", { points: `${x},${y - r - 1} ${x + r + 1},${y + r} ${x - r - 1},${y + r}`, class: className });
    case "diamond": return svg("polygon", { points: `${x},${y - r - 1} ${x + r + 1},${y} ${x},${y + r + 1} ${x - r - 1},${y}`, class: className });
    case "ring": return svg("circle", { cx: x, cy: y, r, class: `${className} hollow` });
    case "bar": return svg("rect", { x: x - 1.5, y: y - r - 1, width: 3, height: 2 * r + 2, class: className });
    default: return svg("circle", { cx: x, cy: y, r, class: className });
  }
}

class MemoryForgetting extends MemoryWidget {
  static observedAttributes = ["half-life", "capacity", "access-boost", "semantic-half-life", "procedural-half-life", "t", "scenario"];

  createModel({ fallback = false } = {}) {
    if (fallback) return new FactStore();
    const { options, explain } = readAttributes(this, {
      "half-life": "halfLife", capacity: "capacity", "access-boost": "accessBoost",
      "semantic-half-life": "semanticHalfLife", "procedural-half-life": "proceduralHalfLife", t: "t",
    });
    const { t, ...config } = options;
    config.scenario = this.scenarioFromAttribute();
    try {
      const store = FactStore.withConfig(config);
      if (t !== undefined) store.setTime(t);
      return store;
    } catch (error) {
      throw new Error(explain(error));
    }
  }

  mount() {
    const state = this.model.state();
    const slider = h("input", {
      type: "range", id: "time", min: 0, max: T_MAX, step: 1, value: state.t,
      on: { input: (event) => this.setTime(Number(event.target.value)) },
    });
    this.ui = {
      slider,
      // The slider's aria-valuetext already says the time; this is its visible twin.
      output: h("span", { className: "t-value", attrs: { "aria-hidden": "true" } }),
      marks: h("div", { className: "marks", attrs: { "aria-hidden": "true" } }),
      readsNote: h("p", { className: "note" }),
      events: h("div", { className: "events", attrs: { role: "group", "aria-label": "write events" } }),
      rows: h("tbody"),
      summary: h("p", { className: "note" }),
      why: h("input", { type: "checkbox", id: "why", on: { change: () => this.render(this.model.state()) } }),
      chart: h("div", { className: "chart" }),
      chartKey: h("ul", { className: "chart-key" }),
      readout: h("p", { className: "note chart-readout", attrs: { "aria-hidden": "true" } }),
      chartHead: h("tr"),
      chartRows: h("tbody"),
      settingsNote: h("p", { className: "note settings-note" }),
    };
    this.chartLines = null;
    this.chartWatched = false;
    this.renderedTimeline = null;
    const ui = this.ui;
    this.frame.className = "widget forgetting";
    this.body.replaceChildren(
      h("div", { className: "slider-row" },
        h("label", { htmlFor: "time" }, "time"), slider, ui.output),
      ui.marks,
      ui.readsNote,
      ui.events,
      h("table", { className: "store", attrs: { "aria-describedby": "importance-note" } },
        h("caption", {}, "The store, ranked by score"),
        h("thead", {}, h("tr", {}, ...[
          "text", "kind", "importance (as written)", "age", "recency", "reads", "score", "status",
        ].map((name) => h("th", { scope: "col" }, name)))),
        ui.rows),
      h("p", { className: "note", id: "importance-note" },
        "Importance (as written) is the value a fact was given when it was written; a repeat of the same text can raise it. " +
        "It never decays on its own: recency carries the decay, and score = importance \u00d7 recency \u00d7 access."),
      ui.summary,
      ui.settingsNote,
      h("label", { className: "toggle" }, ui.why, "Show the arithmetic and the forget forecast"),
      h("figure", { className: "decay" },
        h("figcaption", {}, `Every score from t = 0 to ${T_MAX}. Lines fade, rise straight up at a read, and stop at the moment a fact is superseded or evicted. Focus the chart and use the arrow keys, or hover, to pick out a line.`),
        ui.chart,
        ui.readout,
        ui.chartKey,
        h("details", {},
          h("summary", {}, "The chart as numbers"),
          h("table", { className: "data" }, h("caption", {}, "Score at each time"), h("thead", {}, ui.chartHead), ui.chartRows))),
    );
    this.ensureKnobs([
      ["half-life", "half-life", { min: 0.1, step: 0.5 }],
      ["capacity", "capacity", { min: 1, step: 1 }],
      ["access-boost", "access boost", { min: 0, step: 0.1 }],
    ], { "half-life": 4, capacity: 4, "access-boost": 0.5 });
    this.opened ??= [state.halfLife, state.capacity, state.accessBoost];
    ui.settingsNote.textContent = this.settingsSentence(state);
    ui.settingsNote.hidden = !ui.settingsNote.textContent;
    this.buildTimeline(state);
    this.render(state);
    this.announce(`Ready at t = ${state.t}: ${plural(state.activeCount, "active fact")}.`);
  }

  /** When the reader turned the knobs: the text around the widget describes other settings. */
  settingsSentence(state) {
    const [halfLife, capacity, accessBoost] = this.opened;
    if (halfLife === state.halfLife && capacity === state.capacity && accessBoost === state.accessBoost) return "";
    return `The text around this widget describes the settings it opened with: half-life ${num(halfLife)}, ` +
      `capacity ${capacity}, access boost ${num(accessBoost)}. The table and chart follow the knobs.`;
  }

  /** What a knob change keeps: the time, and every event, pass and read with its time. */
  progress() {
    const state = this.model.state();
    return {
      t: state.t,
      events: state.events.filter((event) => event.firedAt !== null),
      reads: state.reads.filter((read) => !read.scheduled),
      consolidatedAt: state.consolidatedAt,
    };
  }

  /** Replays `progress` under new settings, and says what it did. */
  replay({ t, events, reads, consolidatedAt }) {
    let done = 0;
    let missed = 0;
    const at = (time, action) => {
      try {
        this.model.setTime(time);
        action();
        done += 1;
      } catch {
        missed += 1;
      }
    };
    for (const event of events) at(event.firedAt, () => this.model.fire(event.index));
    for (const read of reads) at(read.at, () => this.model.read(read.fact));
    if (consolidatedAt !== null) at(consolidatedAt, () => this.model.consolidate());
    this.model.setTime(t);
    const state = this.model.state();
    const kept = done ? `Replayed ${plural(done, "thing")} you did, each at its time` : "Kept the time";
    const lost = missed ? `; ${plural(missed, "read")} no longer applied, because the fact was not active then` : "";
    return `${kept}${lost}. At t = ${state.t}: ${plural(state.activeCount, "active fact")}.`;
  }

  setTime(t) {
    if (!this.model) return;
    if (!this.attempt(() => this.model.setTime(t)).ok) return;
    const state = this.model.state();
    this.render(state);
    const top = state.facts.find((fact) => fact.status === "active");
    const later = state.events.filter((event) => event.firedAt !== null && event.firedAt > state.t).length +
      (state.consolidatedAt !== null && state.consolidatedAt > state.t ? 1 : 0);
    this.announce(`t = ${state.t}: ${plural(state.activeCount, "active fact")}${top ? `, ${quote(top.text)} ranks first` : ""}` +
      `${later ? `; ${plural(later, "event")} scheduled for later` : ""}.`);
  }

  /** Runs the consolidation pass at the current time, or moves it here if it ran at another. */
  consolidate() {
    const before = this.model.state().consolidatedAt;
    if (before !== null && !this.attempt(() => this.model.unconsolidate()).ok) return;
    const { ok, value: changes } = this.attempt(() => this.model.consolidate());
    if (!ok) return;
    this.chartLines = null;
    const state = this.model.state();
    this.render(state);
    const texts = changes.map((change) => quote(state.facts.find((f) => f.id === change.fact)?.text ?? `fact ${change.fact}`));
    const moved = before === null ? "" : `Moved consolidation from t = ${before} to t = ${state.t}. `;
    this.announce(moved + (changes.length
      ? `At t = ${state.t}, consolidation distilled ${texts.join(", ")}; the episodes they cite are superseded.`
      : `At t = ${state.t}, there was nothing to consolidate yet: no rule's episodes were all written and one still active.`));
    this.emit("memory-step", { changes, state });
  }

  /** Fires write event `index` at the current time, or moves it here if it was fired at another. */
  fire(index) {
    const before = this.model.state().events[index]?.firedAt ?? null;
    if (before !== null && !this.attempt(() => this.model.unfire(index)).ok) return;
    const { ok, value: change } = this.attempt(() => this.model.fire(index));
    if (!ok) return;
    this.chartLines = null;
    const state = this.model.state();
    this.render(state);
    const text = (id) => quote(state.facts.find((fact) => fact.id === id)?.text ?? `fact ${id}`);
    const moved = before === null ? "" : `Moved ${quote(state.events[index].label)} from t = ${before} to t = ${state.t}. `;
    const parts = [`At t = ${state.t}: ${change.action === "refresh" ? "refreshed" : "wrote"} ${text(change.fact)}`];
    if (change.superseded !== null) parts.push(`it supersedes ${text(change.superseded)}`);
    if (change.evicted !== null) parts.push(`over capacity, so the weakest, ${text(change.evicted)}, was evicted`);
    this.announce(moved + parts.join("; ") + ".");
    this.emit("memory-step", { change, state });
    if (change.superseded !== null) this.emit("memory-supersede", { change, state });
    if (change.evicted !== null) this.emit("memory-evict", { change, state });
  }

  /** Takes write event `index` off the timeline. */
  unfire(index) {
    const { ok, value: at } = this.attempt(() => this.model.unfire(index));
    if (!ok) return;
    this.chartLines = null;
    const state = this.model.state();
    this.render(state);
    this.announce(`Removed ${quote(state.events[index].label)}, which was at t = ${at}: the store is as if it had never been written.`);
    this.emit("memory-step", { change: null, state });
  }

  /** Takes the consolidation pass off the timeline. */
  unconsolidate() {
    const { ok, value: at } = this.attempt(() => this.model.unconsolidate());
    if (!ok) return;
    this.chartLines = null;
    const state = this.model.state();
    this.render(state);
    this.announce(`Removed the consolidation pass, which was at t = ${at}: its facts are gone and their episodes are back as they were.`);
    this.emit("memory-step", { change: null, state });
  }

  read(id) {
    const { ok, value: change } = this.attempt(() => this.model.read(id));
    if (!ok) return;
    this.chartLines = null;
    const state = this.model.state();
    this.render(state);
    const fact = state.facts.find((f) => f.id === id);
    this.announce(`Read ${quote(fact.text)} at t = ${state.t}: ${plural(fact.reads, "read")}, score ${num(fact.score)}.`);
    this.emit("memory-step", { change, state });
  }

  reset() {
    this.model.reset();
    this.chartLines = null;
    const state = this.model.state();
    this.render(state);
    this.announce("Started over: t = 0, no events fired.");
    this.emit("memory-step", { change: null, state });
  }

  render(state) {
    const ui = this.ui;
    ui.slider.value = state.t;
    ui.slider.setAttribute("aria-valuetext", `t = ${state.t}`);
    ui.output.textContent = `t = ${state.t}`;

    const textOf = (id) => state.facts.find((fact) => fact.id === id)?.text ?? `fact ${id}`;
    // The marks change only with the timeline, not with the slider.
    const timeline = JSON.stringify([state.reads, state.events, state.consolidatedAt]);
    if (timeline !== this.renderedTimeline) {
      this.renderedTimeline = timeline;
      this.renderMarks(state, textOf);
    }
    this.renderEvents(state);

    const best = Math.max(1, ...state.facts.map((fact) => fact.score));
    ui.rows.replaceChildren(...state.facts.map((fact) => {
      const bar = h("span", { className: "bar", attrs: { "aria-hidden": "true" } });
      bar.style.setProperty("--score", String(fact.status === "active" ? fact.score / best : 0));
      const status = fact.status === "superseded"
        ? `superseded by ${quote(textOf(fact.supersededBy))}`
        : fact.status;
      // The read button is named by the fact's id, not its text, so that no button's name
      // contains a write event's label; the text is its description.
      const textId = `fact-${fact.id}`;
      const read = fact.status === "active"
        ? h("button", {
          type: "button", className: "quiet small",
          attrs: { "aria-label": `read fact ${fact.id}`, "aria-describedby": textId },
          on: { click: () => this.read(fact.id) },
        }, "read")
        : null;
      const why = ui.why.checked;
      const forecast = fact.forecast;
      const next = forecast && (forecast.weakestAt === null ? "never the next to go unless something changes"
        : forecast.weakestAt <= state.t ? "next to go if the store overflows"
          : forecast.weakestAt > T_MAX ? `not the next to go before t = ${T_MAX}`
            : `the next to go from t = ${num(forecast.weakestAt, 1)}, if the store overflows then`);
      const cell = (label, ...content) => h("td", { attrs: { "data-label": label } }, ...content);
      return h("tr", { className: `status-${fact.status} kind-${fact.kind}` },
        h("th", { scope: "row" }, h("span", { className: "text", id: textId }, fact.text),
          fact.sources.length ? h("span", { className: "note sources" }, `distilled from ${fact.sources.map((id) => quote(textOf(id))).join(", ")}`) : null),
        cell("kind", fact.kind, h("span", { className: "note nowrap" }, ` half-life ${num(fact.halfLife, 2)}`)),
        cell("importance (as written)", num(fact.importance, 2)),
        cell("age", num(fact.age, 2)),
        cell("recency", num(fact.recency)),
        cell("reads", String(fact.reads), read),
        h("td", { className: "score", attrs: { "data-label": "score" } }, h("span", { className: "value" }, num(fact.score)), bar,
          why ? h("span", { className: "note breakdown" }, `${num(fact.importance, 2)} \u00d7 ${num(fact.recency)} \u00d7 ${num(fact.access, 2)} = ${num(fact.score)}`) : null,
          why && forecast ? h("span", { className: "note forecast" }, `${halvesAt(forecast.halfAt)}; ${next}`) : null),
        h("td", { className: "status", attrs: { "data-label": "status" } }, status));
    }));
    this.renderChart(state);
    ui.summary.textContent = `${plural(state.activeCount, "active fact")} of at most ${state.capacity}. ` +
      `Recency halves every ${plural(state.halfLife, "time unit")} for episodes, ${num(state.semanticHalfLife, 2)} for semantic facts ` +
      `and ${num(state.proceduralHalfLife, 2)} for procedural rules: a distilled fact sums up many episodes and stays true long after ` +
      `any one conversation, and a rule of how to act stays true longer still. Each read adds ${state.accessBoost} to access. ` +
      `Forecasts assume no further reads or writes.`;
  }

  /**
   * The timeline's controls, built once per model so that focus stays on them: a button per
   * write event (it fires the event now, or moves it here), its place on the timeline, and a
   * button that removes it; the same for the consolidation pass; Start over.
   */
  buildTimeline(state) {
    const row = (label, note, onFire, onRemove, removeName) => {
      const noteEl = h("span", { className: "note", id: `${note}` });
      const fireButton = h("button", { type: "button", attrs: { "aria-describedby": noteEl.id }, on: { click: onFire } }, label);
      const remove = h("button", {
        type: "button", className: "quiet small", hidden: true,
        attrs: { "aria-label": removeName, "aria-describedby": noteEl.id }, on: { click: onRemove },
      }, "remove");
      return { el: h("span", { className: "event" }, fireButton, noteEl, remove), fireButton, noteEl, remove };
    };
    this.eventRows = state.events.map((event) =>
      row(event.label, `event-${event.index}-note`, () => this.fire(event.index), () => this.unfire(event.index), `remove event ${event.index + 1}`));
    this.passRow = state.canConsolidate
      ? row("Consolidate", "consolidate-note", () => this.consolidate(), () => this.unconsolidate(), "remove consolidation")
      : null;
    this.ui.events.replaceChildren(...this.eventRows.map((r) => r.el), this.passRow?.el ?? null,
      h("button", { type: "button", className: "quiet", on: { click: () => this.reset() } }, "Start over"));
  }

  /**
   * Each event's place on the timeline at the slider's time: not fired yet, fired (at or
   * before t), or scheduled (after t: it has not happened yet, and happens when t reaches it).
   */
  renderEvents(state) {
    const place = ({ fireButton, noteEl, remove }, at, what, fires, [fired, done]) => {
      const scheduled = at !== null && at > state.t;
      fireButton.disabled = at === state.t;
      fireButton.classList.toggle("scheduled", scheduled);
      remove.hidden = at === null;
      const move = at !== null && at !== state.t ? `; press to move it to t = ${state.t}` : "";
      noteEl.textContent = at === null ? `not ${fired} yet: ${what}`
        : scheduled ? `scheduled: ${fires} at t = ${at}${move}` : `${done} at t = ${at}${move}`;
    };
    state.events.forEach((event, i) => place(this.eventRows[i], event.firedAt, "press to write it now", "fires", ["fired", "fired"]));
    if (this.passRow) {
      place(this.passRow, state.consolidatedAt, "a sleep-time pass that turns episodes into lasting facts", "runs", ["run", "ran"]);
    }
  }

  /** The read and event marks under the slider, and the scheduled reads. */
  renderMarks(state, textOf) {
    const ui = this.ui;
    const scheduled = state.reads.filter((read) => read.scheduled);
    const at = (time, className, symbol, title) => {
      const mark = h("span", { className: `mark ${className}`, title }, symbol);
      mark.style.setProperty("--at", String(Math.min(time, T_MAX) / T_MAX));
      return mark;
    };
    ui.marks.replaceChildren(
      ...state.reads.map((read) => at(read.at, read.scheduled ? "" : "reader", "\u25b2", `read at t = ${read.at}`)),
      ...state.events.filter((event) => event.firedAt !== null)
        .map((event) => at(event.firedAt, "write", "\u25c6", `${event.label} at t = ${event.firedAt}`)),
      ...(state.consolidatedAt === null ? [] : [at(state.consolidatedAt, "write", "\u25c6", `consolidation at t = ${state.consolidatedAt}`)]),
    );
    const readTimes = Map.groupBy(scheduled, (read) => read.fact);
    ui.readsNote.textContent = scheduled.length
      ? `Scheduled reads (\u25b2 under the slider): ${[...readTimes].map(([fact, reads]) =>
        `${quote(textOf(fact))} at t = ${reads.map((r) => r.at).join(" and t = ")}`).join("; ")}. Events you fire are marked \u25c6.`
      : "";
  }

  /**
   * The decay chart: the core's score series as SVG lines, each with its own colour, dash
   * pattern and end marker, numbered by fact id with a key below; a score axis; the slider's
   * time as a cursor. The lines are one tab stop: arrow keys move between them.
   */
  renderChart(state) {
    if (this.chartLines && this.chartDrawn) {
      // Only the cursor and the readout move with the slider; the lines change with the timeline.
      const x = this.chartX(state.t);
      this.chartCursor.setAttribute("x1", x);
      this.chartCursor.setAttribute("x2", x);
      this.showReadout(state);
      return;
    }
    this.chartLines ??= this.model.chart(T_MAX, 0.25);
    this.chartDrawn = true;
    const lines = this.chartLines;
    // Drawn at the width last reported for the chart's box, so that its text is true to size;
    // redrawn when that width changes by much.
    const w = Math.max(280, Math.round(this.chartWidth ?? 560));
    this.drawnWidth = w;
    if (!this.chartWatched) {
      this.chartWatched = true;
      this.onResize(this.ui.chart, (entry) => {
        this.chartWidth = entry.contentRect.width;
        if (Math.abs(Math.max(280, Math.round(this.chartWidth)) - this.drawnWidth) <= 24) return;
        // In the next frame, so that this one's layout is not done twice.
        cancelAnimationFrame(this.chartFrame);
        this.chartFrame = requestAnimationFrame(() => {
          if (!this.model) return;
          this.chartDrawn = false;
          this.renderChart(this.model.state());
        });
      });
    }
    const [hgt, left, right, top, bottom] = [200, 38, 34, 10, 26];
    const most = Math.max(1, ...lines.flatMap((line) => line.points.map(([, score]) => score)));
    const tick = most <= 1 ? 0.25 : most <= 2 ? 0.5 : 1;
    const yMax = Math.ceil(most / tick) * tick;
    const x = (t) => left + (t / T_MAX) * (w - left - right);
    this.chartX = x;
    const y = (score) => top + (1 - score / yMax) * (hgt - top - bottom);
    const grid = [];
    for (let value = 0; value <= yMax + 1e-9; value += tick) {
      grid.push(svg("line", { x1: left, x2: w - right, y1: y(value), y2: y(value), class: value === 0 ? "axis" : "grid" }),
        svg("text", { x: left - 5, y: y(value) + 3.5, class: "tick", "text-anchor": "end" }, num(value, 2)));
    }
    for (let t = 0; t <= T_MAX; t += 2) {
      grid.push(svg("text", { x: x(t), y: hgt - bottom + 14, class: "tick", "text-anchor": "middle" }, String(t)));
    }
    grid.push(svg("text", { x: 2, y: top - 1, class: "tick axis-title", "dominant-baseline": "hanging" }, "score"),
      svg("text", { x: w - right + 6, y: hgt - bottom + 14, class: "tick axis-title" }, "t"));

    // End labels: the fact's id at its line's last point, nudged apart so none overlap.
    const ends = lines.map((line, i) => ({ i, y: y(line.points.at(-1)[1]) })).sort((a, b) => a.y - b.y);
    for (let k = 1; k < ends.length; k++) ends[k].y = Math.max(ends[k].y, ends[k - 1].y + 11);
    const labelY = new Map(ends.map((end) => [end.i, end.y]));

    this.chartGroups = lines.map((line, i) => {
      const style = `series-${i % 6}`;
      const [lastT, lastScore] = line.points.at(-1);
      const points = line.points.map(([t, score]) => `${x(t).toFixed(1)},${y(score).toFixed(1)}`).join(" ");
      const group = svg("g", {
        class: `decay-line ${style} kind-${line.kind}`, tabindex: i === 0 ? 0 : -1, role: "img",
        "aria-label": this.lineLabel(line, state),
      },
      svg("polyline", { points, "stroke-dasharray": DASHES[i % DASHES.length] || "none" }),
      marker(MARKERS[i % MARKERS.length], x(lastT), y(lastScore), "marker"),
      svg("text", { x: x(lastT) + 7, y: labelY.get(i) + 3.5, class: "end-label" }, `#${line.id}`));
      const pick = () => this.pickLine(i);
      group.addEventListener("focus", pick);
      group.addEventListener("mouseenter", pick);
      group.addEventListener("mouseleave", () => this.pickLine(null));
      group.addEventListener("blur", () => this.pickLine(null));
      group.addEventListener("keydown", (event) => {
        const step = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 }[event.key];
        if (!step) return;
        event.preventDefault();
        const next = this.chartGroups[(i + step + lines.length) % lines.length];
        for (const other of this.chartGroups) other.setAttribute("tabindex", other === next ? 0 : -1);
        next.focus();
      });
      return group;
    });
    this.pickedLine = null;
    this.ui.chart.replaceChildren(svg("svg", {
      viewBox: `0 0 ${w} ${hgt}`, role: "group", class: "decay-chart",
      "aria-label": `Scores of ${plural(lines.length, "fact")} over time; the table below gives the numbers.`,
    }, ...grid, ...this.chartGroups,
    (this.chartCursor = svg("line", { x1: x(state.t), x2: x(state.t), y1: top, y2: hgt - bottom, class: "cursor" }))));

    this.ui.chartKey.replaceChildren(...lines.map((line, i) => h("li", { className: `series-${i % 6}` },
      svg("svg", { viewBox: "0 0 34 12", width: 34, height: 12, "aria-hidden": "true", class: "key-sample" },
        svg("line", { x1: 1, x2: 25, y1: 6, y2: 6, "stroke-dasharray": DASHES[i % DASHES.length] || "none" }),
        marker(MARKERS[i % MARKERS.length], 28, 6, "marker")),
      h("span", {}, h("span", { className: "key-id" }, `#${line.id}`), " ", line.text,
        h("span", { className: "note" }, ` (${line.kind})`)))));
    this.showReadout(state);

    // The numbers at whole times: a line's score at t is its last point at t, unless it
    // stopped at or before t.
    const times = Array.from({ length: T_MAX + 1 }, (_, t) => t);
    this.ui.chartHead.replaceChildren(h("th", { scope: "col" }, "fact"), ...times.map((t) => h("th", { scope: "col" }, `t\u00a0=\u00a0${t}`)));
    this.ui.chartRows.replaceChildren(...lines.map((line) => h("tr", {}, h("th", { scope: "row" }, `#${line.id} ${line.text}`),
      ...times.map((t) => {
        const point = line.retiredAt !== null && t >= line.retiredAt ? null : line.points.findLast(([at]) => at === t);
        return h("td", {}, point ? num(point[1]) : "\u2013");
      }))));
  }

  /** A line's accessible name: its fact, where it starts and where it stops. */
  lineLabel(line, state) {
    const [t0, s0] = line.points[0];
    const [t1, s1] = line.points.at(-1);
    const status = state.facts.find((fact) => fact.id === line.id)?.status;
    const end = line.retiredAt === null ? `${num(s1)} at t = ${num(t1, 2)}`
      : `${num(s1)} at t = ${num(t1, 2)}, where it stops${status && status !== "active" ? ` (${status})` : ""}`;
    return `#${line.id} ${line.text}, ${line.kind}: score ${num(s0)} at t = ${num(t0, 2)} to ${end}`;
  }

  /** Highlights line `i` (or none) and says which it is. */
  pickLine(i) {
    this.pickedLine = i;
    this.chartGroups.forEach((group, k) => group.classList.toggle("picked", k === i));
    this.ui.chart.firstChild?.classList.toggle("picking", i !== null);
    this.showReadout(this.model.state());
  }

  /** The picked line's fact and its score at the slider's time. */
  showReadout(state) {
    const line = this.pickedLine === null ? null : this.chartLines?.[this.pickedLine];
    if (!line) {
      this.ui.readout.textContent = "Hover or focus a line to see its fact.";
      return;
    }
    const fact = state.facts.find((f) => f.id === line.id);
    const now = !fact ? `not written yet at t = ${state.t}`
      : fact.status === "active" ? `score ${num(fact.score)} at t = ${state.t}` : `${fact.status} by t = ${state.t}`;
    this.ui.readout.textContent = `#${line.id} ${line.text} (${line.kind}): ${now}`;
  }
}

// ---------------------------------------------------------------------------------------------
// Playground: the same session under six compaction policies, ours and the frameworks'

const SVG = "http://www.w3.org/2000/svg";
/** Creates an SVG element with attributes (presentation attributes, never `style`). */
function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, String(value));
  el.append(...children);
  return el;
}

/** "turn 4", "turns 4 and 6", "turns 4, 6 and 8". */
function turnList(turns) {
  if (turns.length <= 1) return `turn ${turns.join("")}`;
  return `turns ${turns.slice(0, -1).join(", ")} and ${turns[turns.length - 1]}`;
}

const NUMBER_WORDS = ["No", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten"];
const countWord = (n) => NUMBER_WORDS[n] ?? String(n);

/**
 * What a row's window did up to the current turn, saying which moment each claim is about:
 * after the step (the window the model is sent) or at the peak (the new turn in, before any
 * compaction).
 */
function moments(row, budget) {
  const log = row.window.log;
  if (log.length === 0) return "No turns yet.";
  const after = log.filter((step) => step.tokensAfter > budget).map((step) => step.turn);
  const peaks = row.window.crossings;
  const afterText = after.length
    ? `After the step: over budget on ${turnList(after)}.`
    : "After the step: within budget at every turn so far.";
  const peakText = peaks.length
    ? `At the peak, with the new turn and before compacting: over on ${turnList(peaks)}.`
    : "At the peak: never over.";
  return `${afterText} ${peakText}`;
}

/**
 * A sparkline of one policy's window up to the current turn: tokens after each step (the line),
 * each turn's peak before compaction (a hollow mark above its drop), the budget as a labelled
 * dashed line, the y range on the left, and the turns still to come faded and labelled "future".
 */
function sparkline(row, budget, turn) {
  const [w, hgt, left, right, top, bottom] = [232, 84, 24, 6, 8, 14];
  const n = row.series.length;
  const yMax = Math.max(10, Math.ceil((Math.max(budget, ...row.peaks) * 1.05) / 10) * 10);
  const x = (i) => left + (n <= 1 ? 0 : (i / (n - 1)) * (w - left - right));
  const y = (tokens) => hgt - bottom - (tokens / yMax) * (hgt - top - bottom);
  const at = (i, tokens) => `${x(i).toFixed(1)},${y(tokens).toFixed(1)}`;
  const past = row.series.slice(0, turn);
  const parts = [
    svg("line", { x1: left, x2: left, y1: y(0), y2: y(yMax), class: "axis" }),
    svg("line", { x1: left, x2: w - right, y1: y(0), y2: y(0), class: "axis" }),
    svg("text", { x: left - 3, y: y(yMax) + 3, class: "tick", "text-anchor": "end" }, String(yMax)),
    svg("text", { x: left - 3, y: y(0) + 3, class: "tick", "text-anchor": "end" }, "0"),
    svg("text", { x: x(0), y: hgt - 2, class: "tick", "text-anchor": "start" }, "turn 1"),
    svg("text", { x: x(n - 1), y: hgt - 2, class: "tick", "text-anchor": "end" }, String(n)),
    svg("line", { x1: left, x2: w - right, y1: y(budget), y2: y(budget), class: "budget-line" }),
    svg("text", { x: left + 3, y: y(budget) - 3, class: "budget-label", "text-anchor": "start" }, `budget ${budget}`),
  ];
  if (turn < n) {
    const from = Math.max(0, turn - 1);
    const points = row.series.slice(from).map((tokens, i) => at(from + i, tokens)).join(" ");
    parts.push(svg("polyline", { points, class: "future" }),
      svg("text", { x: x(Math.min(n - 1, from + (n - from) / 2)), y: y(0) - 3, class: "future-label", "text-anchor": "middle" }, "future"));
  }
  if (past.length) parts.push(svg("polyline", { points: past.map((tokens, i) => at(i, tokens)).join(" "), class: "series" }));
  past.forEach((tokens, i) => {
    const peak = row.peaks[i];
    if (peak > tokens) {
      parts.push(svg("line", { x1: x(i), x2: x(i), y1: y(peak), y2: y(tokens), class: "drop" }),
        svg("circle", { cx: x(i), cy: y(peak), r: 2.4, class: peak > budget ? "peak over" : "peak" }));
    }
    if (tokens > budget) parts.push(svg("circle", { cx: x(i), cy: y(tokens), r: 2.4, class: "point over" }));
  });
  if (turn > 0) {
    const tokens = row.series[turn - 1];
    parts.push(svg("circle", { cx: x(turn - 1), cy: y(tokens), r: 3.4, class: tokens > budget ? "now over" : "now" }));
  }
  const label = turn === 0
    ? `${row.info.name}: no turns yet; the ${n} turns to come are drawn faded as the future. Budget ${budget}, y axis 0 to ${yMax} tokens.`
    : `${row.info.name}, turns 1 to ${turn}: window tokens after each step ${past.join(", ")}; peaks with each new turn, before compacting, ${row.peaks.slice(0, turn).join(", ")}. ` +
      `Budget ${budget}, y axis 0 to ${yMax} tokens.` +
      (turn < n ? ` Turns ${turn + 1} to ${n} are drawn faded as the future.` : "");
  return svg("svg", { viewBox: `0 0 ${w} ${hgt}`, width: w, height: hgt, role: "img", "aria-label": label, class: "spark" }, ...parts);
}

/** "1 seed design (this project), 3 agent frameworks (Letta, OpenAI Codex, Google ADK), ...". */
function policyCount(policies) {
  const groups = [];
  for (const { info } of policies) {
    let group = groups.find((g) => g.kind === info.kind);
    if (!group) groups.push((group = { kind: info.kind, origins: [] }));
    group.origins.push(info.origin);
  }
  const many = { "agent framework": "agent frameworks", "memory class": "memory classes", "seed design": "seed designs" };
  const list = groups.map((g) => `${g.origins.length} ${g.origins.length === 1 ? g.kind : many[g.kind] ?? g.kind} (${g.origins.join(", ")})`);
  return `${countWord(policies.length)} policies, one session: ${list.join(", ")}.`;
}

class MemoryPlayground extends MemoryWidget {
  static observedAttributes = ["budget", "hot", "turn", "scenario"];

  #open = null;

  createModel({ fallback = false } = {}) {
    return fallback ? new Playground() : sessionModel(this, Playground);
  }

  /** What a knob change keeps: the turn every policy stands at. */
  progress() {
    return this.model.turn;
  }

  /** Replays every policy to `turn` under new settings, and says so. */
  replay(turn) {
    this.model.goTo(turn);
    const state = this.model.state();
    return `Every policy replayed to turn ${state.turn} under the new settings (budget ${state.budget}, ${plural(state.policies[0]?.window.hotN ?? 0, "HOT turn")}).`;
  }

  mount() {
    const state = this.model.state();
    const slider = h("input", {
      type: "range", id: "turn", min: 0, max: state.totalTurns, step: 1, value: state.turn,
      on: { input: (event) => this.goTo(Number(event.target.value)) },
    });
    this.ui = {
      slider,
      back: h("button", { type: "button", on: { click: () => this.goTo(this.model.turn - 1) } }, "Step all back"),
      next: h("button", { type: "button", className: "primary", on: { click: () => this.goTo(this.model.turn + 1) } }, "Step all forward"),
      turnValue: h("span", { className: "t-value", attrs: { "aria-hidden": "true" } }),
      count: h("p", { className: "lede" }),
      caption: h("caption", {}),
      rows: h("tbody", { attrs: { role: "rowgroup" } }),
      factHead: h("tr"),
      factRows: h("tbody"),
      factsRule: h("p", { className: "note facts-rule" }),
      dataHead: h("tr"),
      dataRows: h("tbody"),
      detail: h("section", { className: "policy-window", attrs: { "aria-label": "the window under the chosen policy" } }),
    };
    const ui = this.ui;
    const scroller = (label, table) => h("div", { className: "scroll", tabIndex: 0, attrs: { role: "region", "aria-label": label } }, table);
    this.frame.className = "widget playground";
    this.body.replaceChildren(
      ui.count,
      h("div", { className: "slider-row" }, h("label", { htmlFor: "turn" }, "turn"), slider, ui.turnValue),
      h("div", { className: "controls" }, ui.back, ui.next),
      h("table", { className: "policies", attrs: { role: "table" } },
        ui.caption,
        h("thead", { attrs: { role: "rowgroup" } }, h("tr", { attrs: { role: "row" } }, ...["policy and its rule", "window tokens per turn", "compactions so far", "tokens now"]
          .map((name) => h("th", { scope: "col", attrs: { role: "columnheader" } }, name)))),
        ui.rows),
      h("p", { className: "note spark-key" },
        "Line: the window after each step, as the model is sent it. Hollow mark: the peak, the new turn in before compacting. Red: over the budget (dashed). Faded: the future."),
      scroller("facts the window still names, by policy", h("table", { className: "facts" },
        h("caption", {}, "Facts the window still names"),
        h("thead", {}, ui.factHead),
        ui.factRows)),
      ui.factsRule,
      h("details", {},
        h("summary", {}, "The sparklines as numbers"),
        scroller("window tokens after each turn, by policy", h("table", { className: "data" },
          h("caption", {}, "Window tokens after each turn (peak \u2192 after the step where they differ)"),
          h("thead", {}, ui.dataHead), ui.dataRows))),
      ui.detail,
    );
    this.ensureKnobs([
      ["budget", "budget", { min: 1, step: 1 }],
      ["hot", "HOT turns", { min: 1, step: 1 }],
    ], { budget: 40, hot: 2 });
    this.render(state);
    this.announce(`Ready: ${plural(state.policies.length, "policy", "policies")} at turn ${state.turn} of ${state.totalTurns}, budget ${state.budget} tokens.`);
  }

  goTo(turn) {
    if (!this.model) return;
    const state0 = this.model.state();
    const clamped = Math.max(0, Math.min(state0.totalTurns, turn));
    if (!this.attempt(() => this.model.goTo(clamped)).ok) return;
    const state = this.model.state();
    this.render(state);
    const over = state.policies.filter((row) => row.tokens > state.budget).map((row) => row.info.name);
    this.announce(`Turn ${state.turn}: ${over.length ? `over budget after the step: ${over.join(", ")}` : "every policy within budget after the step"}.`);
    this.emit("memory-step", { state });
  }

  toggle(id) {
    this.#open = this.#open === id ? null : id;
    this.render(this.model.state());
  }

  render(state) {
    const ui = this.ui;
    ui.slider.value = state.turn;
    ui.slider.setAttribute("aria-valuetext", `turn ${state.turn} of ${state.totalTurns}`);
    ui.turnValue.textContent = `turn ${state.turn} of ${state.totalTurns}`;
    ui.back.disabled = state.turn === 0;
    ui.next.disabled = state.turn >= state.totalTurns;
    ui.count.textContent = `${policyCount(state.policies)} Each replays the same ${state.totalTurns} turns with a budget of ${state.budget} tokens (the knobs change it).`;
    ui.caption.textContent = `${countWord(state.policies.length)} compaction policies, one session`;

    ui.rows.replaceChildren(...state.policies.map((row) => {
      const over = row.tokens > state.budget;
      const { info } = row;
      return h("tr", { className: over ? "over" : "", attrs: { role: "row" } },
        h("th", { scope: "row", attrs: { role: "rowheader" } },
          h("button", {
            type: "button", className: "quiet policy-name",
            attrs: { "aria-expanded": String(this.#open === info.id), "aria-controls": "policy-window" },
            on: { click: () => this.toggle(info.id) },
          }, info.name),
          h("span", { className: "origin" }, `${info.origin} \u00b7 ${info.kind}`),
          h("span", { className: "rule" }, info.rule),
          h("span", { className: "note source" }, "Source: ",
            info.url ? h("a", { href: info.url, rel: "noopener", target: "_blank" }, info.source) : info.source)),
        h("td", { className: "chart", attrs: { role: "cell" } }, sparkline(row, state.budget, state.turn),
          h("span", { className: "note moments" }, moments(row, state.budget))),
        h("td", { className: "compactions", attrs: { role: "cell", "data-label": "compactions so far" } }, String(row.compactions)),
        h("td", { className: "tokens-now", attrs: { role: "cell", "data-label": "tokens now" } }, `${row.tokens} / ${state.budget}`,
          over ? h("span", { className: "verdict-over" }, " over budget") : ""));
    }));

    const NAMED = { meaning: ["\u2713", "meaning"], bareTerm: ["~", "bare term"], gone: ["\u2717", "gone"] };
    ui.factHead.replaceChildren(h("th", { scope: "col" }, "policy"), ...state.facts.map((fact) => h("th", { scope: "col" }, fact)));
    ui.factRows.replaceChildren(...state.policies.map((row) =>
      h("tr", {}, h("th", { scope: "row" }, row.info.name),
        ...row.kept.map((named) => h("td", { className: `named-${named}` }, `${NAMED[named][0]} ${NAMED[named][1]}`)))));
    ui.factsRule.textContent = `\u2713 meaning, ~ bare term, \u2717 gone. ${state.factsRule}`;

    const turns = state.policies[0]?.series.map((_, i) => i + 1) ?? [];
    ui.dataHead.replaceChildren(h("th", { scope: "col" }, "policy"), ...turns.map((t) => h("th", { scope: "col" }, `turn ${t}`)));
    ui.dataRows.replaceChildren(...state.policies.map((row) =>
      h("tr", {}, h("th", { scope: "row" }, row.info.name), ...row.series.map((tokens, i) =>
        h("td", { className: tokens > state.budget ? "over" : "" }, row.peaks[i] > tokens ? `${row.peaks[i]} \u2192 ${tokens}` : String(tokens))))));

    const open = state.policies.find((row) => row.info.id === this.#open);
    ui.detail.id = "policy-window";
    ui.detail.hidden = !open;
    if (open) {
      const w = open.window;
      const from = (turns) => `from ${turns.length === 1 ? "turn" : "turns"} ${turns.join(", ")}`;
      const line = (tier, label, text, note) => h("li", { className: `tier-line ${tier}` }, h("strong", {}, `${label}: `), text, h("span", { className: "tokens" }, ` ${note}`));
      ui.detail.replaceChildren(...[
        h("h3", {}, `${open.info.name} at turn ${w.turn}: ${w.tokens} of ${w.budget} tokens`),
        h("p", { className: "note" }, open.info.rule),
        h("ul", { className: "lines" },
          w.cold ? line("cold", "key terms", w.cold.text, from(w.cold.turns)) : null,
          ...w.warm.map((l) => line("warm", "summary", l.text, from(l.turns))),
          ...w.hot.map((t) => line("verbatim", "verbatim", t.text, `turn ${t.turn}`)),
          w.turn === 0 ? h("li", { className: "empty" }, "nothing yet") : null),
        w.overBudgetReason ? h("p", { className: "reason" }, w.overBudgetReason) : null,
      ].filter(Boolean));
    }
  }
}

mirror(MemoryCompaction, "budget", "budget");
mirror(MemoryCompaction, "hot", "hot");
mirror(MemoryCompaction, "turn", "turn");
mirror(MemoryForgetting, "halfLife", "half-life");
mirror(MemoryForgetting, "capacity", "capacity");
mirror(MemoryForgetting, "accessBoost", "access-boost");
mirror(MemoryForgetting, "semanticHalfLife", "semantic-half-life");
mirror(MemoryForgetting, "proceduralHalfLife", "procedural-half-life");
mirror(MemoryForgetting, "t", "t");
mirror(MemoryPlayground, "budget", "budget");
mirror(MemoryPlayground, "hot", "hot");
mirror(MemoryPlayground, "turn", "turn");

// Defining twice (the module loaded from two URLs, say) is harmless: the first definition wins.
for (const [name, element] of [
  ["memory-compaction", MemoryCompaction], ["memory-forgetting", MemoryForgetting], ["memory-playground", MemoryPlayground],
]) {
  if (!customElements.get(name)) customElements.define(name, element);
}

export { MemoryCompaction, MemoryForgetting, MemoryPlayground, loadCore };
