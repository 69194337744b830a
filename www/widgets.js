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
    if (this.#connected) this.rebuild();
  }

  disconnectedCallback() {
    this.#connected = false;
    this.model = null;
  }

  attributeChangedCallback(name, oldValue, newValue) {
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
    this.mount();
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
   * author's attribute would. Built once, outside the content that a rebuild replaces, so that
   * focus stays put. `knobs` is `[[attribute, label, { min, step }]]`; `seed` the seed's values.
   */
  ensureKnobs(knobs, seed) {
    if (this.knobs) return this.syncKnobs(seed);
    const inputs = knobs.map(([attribute, label, { min, step }]) => {
      const input = h("input", {
        type: "number", min, step, id: `knob-${attribute}`,
        on: { change: (event) => this.setAttribute(attribute, event.target.value) },
      });
      input.dataset.attribute = attribute;
      return h("label", { className: "knob" }, label, input);
    });
    const restore = () => {
      for (const attribute of Object.keys(seed)) this.removeAttribute(attribute);
      this.announce("Seed values restored.");
    };
    this.knobs = h("details", { className: "knobs" },
      h("summary", {}, "Knobs"),
      h("div", { className: "knob-row" }, ...inputs,
        h("button", { type: "button", className: "quiet", on: { click: restore } }, "Seed values")));
    this.frame.prepend(this.knobs);
    this.syncKnobs(seed);
  }

  /** Shows each knob's current value: its attribute, or the seed's. */
  syncKnobs(seed) {
    for (const input of this.knobs.querySelectorAll("input")) {
      const { attribute } = input.dataset;
      input.value = this.getAttribute(attribute) ?? String(seed[attribute]);
    }
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
      phase: h("span", { className: "phase", attrs: { "aria-hidden": "true" } }),
      meter: h("meter", { min: 0, attrs: { "aria-label": "live window" } }),
      crossingNote: h("p", { className: "crossing-note" }),
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
      h("p", { className: "meter-label" }, ui.meterText, " ", ui.verdict, " ", ui.phase),
      ui.meter,
      ui.crossingNote,
      ui.reason,
    );
    this.frame.className = "widget compaction";
    this.body.replaceChildren(
      h("div", { className: "controls" }, addButton, backButton, resetButton, doneNote),
      ui.meterBox,
      h("h3", {}, "The window the model actually sees"),
      h("div", { className: "tiers" },
        tier("hot", ui.hotCaption, ui.hot),
        tier("warm", h("p", { className: "caption" }, "rolling summary of decisions and tool outputs"), ui.warm),
        tier("cold", h("p", { className: "caption" }, "one lossy line"), ui.cold)),
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
    this.render(state);
    this.announce(state.turn === 0
      ? `Ready: ${state.totalTurns} turns, budget ${state.budget} tokens.`
      : `Opened after turn ${state.turn}: ${state.tokens} of ${state.budget} tokens.`);
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
   * The bar's story of a crossing: it fills red to the peak, holds, then COMPACT brings it down
   * to the window's new size. Only the bar moves; the text already says what happened.
   */
  #animateCompaction(step) {
    const { meter, meterBox, phase } = this.ui;
    const budget = meter.max;
    meterBox.classList.add("peaking");
    meter.value = Math.min(step.peakTokens, budget);
    phase.textContent = "COMPACT \u2193";
    this.#timer = setTimeout(() => {
      const start = performance.now();
      const tick = (now) => {
        const progress = Math.min(1, (now - start) / FALL_MS);
        meter.value = Math.min(budget, step.peakTokens + (step.tokensAfter - step.peakTokens) * progress);
        if (progress < 1) {
          this.#frame = requestAnimationFrame(tick);
        } else {
          this.#settle();
        }
      };
      this.#frame = requestAnimationFrame(tick);
    }, PEAK_MS);
  }

  /** Ends any running crossing animation at once, leaving the bar at the window's size. */
  #settle() {
    clearTimeout(this.#timer);
    cancelAnimationFrame(this.#frame);
    this.#timer = null;
    this.#frame = 0;
    if (this.ui?.meterBox.classList.contains("peaking")) {
      this.ui.meterBox.classList.remove("peaking");
      this.ui.phase.textContent = "";
      this.ui.meter.value = Math.min(this.model?.state().tokens ?? 0, this.ui.meter.max);
    }
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
    el.setAttribute("aria-description", `from turn${turns.length === 1 ? "" : "s"} ${turns.join(", ")}`);
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
   * Renders `state`. The meter's number is always the window the model sees now; on a turn that
   * crossed the budget the words say so ("over budget at 41, compacted") until the next step.
   */
  render(state) {
    const ui = this.ui;
    const last = state.log.at(-1);
    const crossed = Boolean(last?.crossed) && !state.overBudget;
    const verdict = state.overBudget ? "over budget"
      : crossed ? `over budget at ${last.peakTokens}, compacted` : "under budget";
    ui.meterBox.classList.toggle("over", state.overBudget);
    ui.meterBox.classList.toggle("crossed", crossed);
    ui.meterText.textContent = `live window ${state.tokens} / ${state.budget} tokens`;
    ui.verdict.textContent = verdict;
    ui.meter.max = state.budget;
    ui.meter.value = Math.min(state.tokens, state.budget);
    ui.meter.setAttribute("aria-valuetext", `${state.tokens} of ${state.budget} tokens, ${verdict}`);
    ui.crossingNote.textContent = last?.crossed
      ? `Turn ${last.turn} went over the budget at ${last.peakTokens} tokens; COMPACT brought the window to ${last.tokensAfter}.`
      : "";
    ui.reason.textContent = state.overBudgetReason ?? "";
    ui.reason.hidden = !state.overBudgetReason;

    ui.hotCaption.textContent = `last ${plural(state.hotN, "turn")}, verbatim`;
    ui.hot.replaceChildren(...state.hot.map((turn) =>
      h("li", { className: `turn kind-${turn.kind}` },
        h("span", { className: "who" }, `${turn.speaker} \u00b7 turn ${turn.turn} \u00b7 ${turn.kind}`),
        h("span", { className: "text" }, turn.text),
        h("span", { className: "tokens" }, plural(turn.tokens, "token")))));
    if (state.hot.length === 0) ui.hot.append(h("li", { className: "empty" }, "nothing yet: press Add next turn"));
    ui.warm.replaceChildren(...state.warm.map((line) =>
      this.sourceLink(h("li", {},
        h("span", { className: "text" }, line.text),
        h("span", { className: "tokens" }, `from turn ${line.turns.join(", ")} \u00b7 ${plural(line.tokens, "token")}`)), line.turns)));
    if (state.warm.length === 0) ui.warm.append(h("li", { className: "empty" }, "empty"));
    ui.cold.replaceChildren(state.cold
      ? this.sourceLink(h("span", {}, h("span", { className: "text" }, state.cold.text),
          h("span", { className: "tokens" }, ` from turns ${state.cold.turns.join(", ")} \u00b7 ${plural(state.cold.tokens, "token")}`)), state.cold.turns)
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
      h("li", {}, h("span", { className: "visually-hidden" }, "dropped: "), h("s", {}, d.text), ` (turn ${d.turn})`)));
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

/** One line of the step log, e.g. `turn 4: 41 / 40 over budget → COMPACT → 30 / 40, ...`. */
function logLine(step, budget) {
  if (!step.crossed && !step.compacted) return `turn ${step.turn}: ${step.tokensAfter} / ${budget}`;
  const moved = [
    step.toWarm.length && `${plural(step.toWarm.length, "turn")} to WARM`,
    step.toCold.length && `${step.toCold.length} WARM to COLD`,
    step.dropped.length && `${step.dropped.length} dropped`,
  ].filter(Boolean);
  const head = step.crossed ? `${step.peakTokens} / ${budget} over budget \u2192 ` : "";
  const tail = step.tokensAfter > budget ? " (still over budget)" : "";
  return `turn ${step.turn}: ${head}COMPACT \u2192 ${step.tokensAfter} / ${budget}${moved.length ? ", " + moved.join(", ") : ""}${tail}`;
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
      chartHead: h("tr"),
      chartRows: h("tbody"),
    };
    this.chartLines = null;
    this.renderedTimeline = null;
    const ui = this.ui;
    this.frame.className = "widget forgetting";
    this.body.replaceChildren(
      h("div", { className: "slider-row" },
        h("label", { htmlFor: "time" }, "time"), slider, ui.output),
      ui.marks,
      ui.readsNote,
      ui.events,
      h("table", {},
        h("caption", {}, "The store, ranked by score"),
        h("thead", {}, h("tr", {}, ...[
          "text", "kind", "importance (as written)", "age", "recency", "reads", "score", "status",
        ].map((name) => h("th", { scope: "col" }, name)))),
        ui.rows),
      h("label", { className: "toggle" }, ui.why, "Show the arithmetic and the forget forecast"),
      ui.summary,
      h("figure", { className: "decay" },
        h("figcaption", {}, `Every score from t = 0 to ${T_MAX}: lines fade, jump at reads, and stop when a fact is superseded or evicted.`),
        ui.chart,
        h("details", {},
          h("summary", {}, "The chart as numbers"),
          h("table", { className: "data" }, h("caption", {}, "Score at each time"), h("thead", {}, ui.chartHead), ui.chartRows))),
    );
    this.ensureKnobs([
      ["half-life", "half-life", { min: 0.1, step: 0.5 }],
      ["capacity", "capacity", { min: 1, step: 1 }],
      ["access-boost", "access boost", { min: 0, step: 0.1 }],
    ], { "half-life": 4, capacity: 4, "access-boost": 0.5 });
    this.render(state);
    this.announce(`Ready at t = ${state.t}: ${plural(state.activeCount, "active fact")}.`);
  }

  setTime(t) {
    if (!this.model) return;
    if (!this.attempt(() => this.model.setTime(t)).ok) return;
    const state = this.model.state();
    this.render(state);
    const top = state.facts.find((fact) => fact.status === "active");
    this.announce(`t = ${state.t}: ${plural(state.activeCount, "active fact")}${top ? `, ${quote(top.text)} ranks first` : ""}.`);
  }

  /** Runs the consolidation pass at the current time. */
  consolidate() {
    const { ok, value: changes } = this.attempt(() => this.model.consolidate());
    if (!ok) return;
    this.chartLines = null;
    const state = this.model.state();
    this.render(state);
    const texts = changes.map((change) => quote(state.facts.find((f) => f.id === change.fact)?.text ?? `fact ${change.fact}`));
    this.announce(changes.length
      ? `At t = ${state.t}, consolidation distilled ${texts.join(", ")}; the episodes they cite are superseded.`
      : `At t = ${state.t}, there was nothing to consolidate yet: no rule's episodes were all written and still active.`);
    this.emit("memory-step", { changes, state });
  }

  fire(index) {
    const { ok, value: change } = this.attempt(() => this.model.fire(index));
    if (!ok) return;
    this.chartLines = null;
    const state = this.model.state();
    this.render(state);
    const text = (id) => quote(state.facts.find((fact) => fact.id === id)?.text ?? `fact ${id}`);
    const parts = [`At t = ${state.t}: ${change.action === "refresh" ? "refreshed" : "wrote"} ${text(change.fact)}`];
    if (change.superseded !== null) parts.push(`it supersedes ${text(change.superseded)}`);
    if (change.evicted !== null) parts.push(`over capacity, so the weakest, ${text(change.evicted)}, was evicted`);
    this.announce(parts.join("; ") + ".");
    this.emit("memory-step", { change, state });
    if (change.superseded !== null) this.emit("memory-supersede", { change, state });
    if (change.evicted !== null) this.emit("memory-evict", { change, state });
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
    // The marks and the buttons change only with the timeline, not with the slider.
    const timeline = JSON.stringify([state.reads, state.events, state.consolidatedAt]);
    if (timeline !== this.renderedTimeline) {
      this.renderedTimeline = timeline;
      this.renderTimeline(state, textOf);
    }

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
      const weakest = forecast && (forecast.weakestAt === null ? "never the weakest"
        : forecast.weakestAt <= state.t ? "the weakest now" : `the weakest from t = ${num(forecast.weakestAt, 2)}`);
      return h("tr", { className: `status-${fact.status} kind-${fact.kind}` },
        h("th", { scope: "row" }, h("span", { className: "text", id: textId }, fact.text),
          fact.sources.length ? h("span", { className: "note sources" }, `distilled from ${fact.sources.map((id) => quote(textOf(id))).join(", ")}`) : null),
        h("td", {}, fact.kind, h("span", { className: "note" }, ` half-life ${num(fact.halfLife, 2)}`)),
        h("td", {}, num(fact.importance, 2)),
        h("td", {}, num(fact.age, 2)),
        h("td", {}, num(fact.recency)),
        h("td", {}, String(fact.reads), read),
        h("td", { className: "score" }, h("span", { className: "value" }, num(fact.score)), bar,
          why ? h("span", { className: "note breakdown" }, `${num(fact.importance, 2)} \u00d7 ${num(fact.recency)} \u00d7 ${num(fact.access, 2)} = ${num(fact.score)}`) : null,
          why && forecast ? h("span", { className: "note forecast" }, `halves by t = ${num(forecast.halfAt, 2)}; ${weakest}`) : null),
        h("td", { className: "status" }, status));
    }));
    this.renderChart(state);
    ui.summary.textContent = `${plural(state.activeCount, "active fact")} of at most ${state.capacity}; recency halves every ${plural(state.halfLife, "time unit")} (semantic facts ${num(state.semanticHalfLife, 2)}, procedural rules ${num(state.proceduralHalfLife, 2)}); each read adds ${state.accessBoost} to access.`;
  }

  /** The read marks under the slider, the scheduled reads, and the write and consolidate buttons. */
  renderTimeline(state, textOf) {
    const ui = this.ui;
    const scheduled = state.reads.filter((read) => read.scheduled);
    ui.marks.replaceChildren(...state.reads.map((read) => {
      const mark = h("span", { className: read.scheduled ? "mark" : "mark reader", title: `read at t = ${read.at}` }, "\u25b2");
      mark.style.setProperty("--at", String(Math.min(read.at, T_MAX) / T_MAX));
      return mark;
    }));
    const readTimes = Map.groupBy(scheduled, (read) => read.fact);
    ui.readsNote.textContent = scheduled.length
      ? `Scheduled reads (\u25b2 under the slider): ${[...readTimes].map(([fact, reads]) =>
        `${quote(textOf(fact))} at t = ${reads.map((r) => r.at).join(" and t = ")}`).join("; ")}.`
      : "";

    ui.events.replaceChildren(...state.events.map((event) =>
      h("span", { className: "event" },
        h("button", { type: "button", disabled: event.firedAt !== null, on: { click: () => this.fire(event.index) } }, event.label),
        h("span", { className: "note" }, event.firedAt === null ? "not fired yet" : `fired at t = ${event.firedAt}`))),
      state.canConsolidate
        ? h("span", { className: "event" },
          h("button", { type: "button", disabled: state.consolidatedAt !== null, on: { click: () => this.consolidate() } }, "Consolidate"),
          h("span", { className: "note" }, state.consolidatedAt === null ? "sleep-time pass: episodes into lasting facts" : `ran at t = ${state.consolidatedAt}`))
        : null,
      h("button", { type: "button", className: "quiet", on: { click: () => this.reset() } }, "Start over"));
  }

  /** The decay chart: the core's score series as SVG lines, with the slider's time as a cursor. */
  renderChart(state) {
    if (this.chartLines) {
      // Only the cursor moves with the slider; the lines change only with the timeline.
      const x = this.chartX(state.t);
      this.chartCursor.setAttribute("x1", x);
      this.chartCursor.setAttribute("x2", x);
      return;
    }
    this.chartLines = this.model.chart(T_MAX, 0.25);
    const lines = this.chartLines;
    const [w, hgt, pad] = [560, 160, 18];
    const top = Math.max(1, ...lines.flatMap((line) => line.points.map(([, score]) => score)));
    const x = (t) => pad + (t / T_MAX) * (w - 2 * pad);
    this.chartX = x;
    const y = (score) => hgt - pad - (score / top) * (hgt - 2 * pad);
    const paths = lines.map((line) => svg("polyline", {
      points: line.points.map(([t, score]) => `${x(t).toFixed(1)},${y(score).toFixed(1)}`).join(" "),
      class: `decay-line kind-${line.kind}`,
    }, svg("title", {}, line.text)));
    const ticks = Array.from({ length: T_MAX / 2 + 1 }, (_, i) => i * 2).map((t) =>
      svg("text", { x: x(t), y: hgt - 3, class: "tick", "text-anchor": "middle" }, String(t)));
    this.ui.chart.replaceChildren(svg("svg", {
      viewBox: `0 0 ${w} ${hgt}`, role: "img", class: "decay-chart",
      "aria-label": `Scores of ${plural(lines.length, "fact")} over time; the table below gives the numbers.`,
    }, svg("line", { x1: pad, x2: w - pad, y1: hgt - pad, y2: hgt - pad, class: "axis" }), ...ticks, ...paths,
    (this.chartCursor = svg("line", { x1: x(state.t), x2: x(state.t), y1: pad / 2, y2: hgt - pad, class: "cursor" }))));

    const times = Array.from({ length: T_MAX + 1 }, (_, t) => t);
    this.ui.chartHead.replaceChildren(h("th", { scope: "col" }, "fact"), ...times.map((t) => h("th", { scope: "col" }, `t = ${t}`)));
    this.ui.chartRows.replaceChildren(...lines.map((line) => h("tr", {}, h("th", { scope: "row" }, line.text),
      ...times.map((t) => {
        const point = line.points.find(([at]) => at === t);
        return h("td", {}, point ? num(point[1]) : "\u2013");
      }))));
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
  #replayed = null;

  createModel({ fallback = false } = {}) {
    const model = fallback ? new Playground() : sessionModel(this, Playground);
    // A knob replays every policy to the turn the reader was at, under the new settings.
    const previous = this.model?.turn;
    if (previous !== undefined && previous !== model.turn) model.goTo(previous);
    this.#replayed = previous;
    return model;
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
    const replayed = this.#replayed;
    this.#replayed = null;
    this.announce(replayed === undefined || replayed === null
      ? `Ready: ${plural(state.policies.length, "policy", "policies")} at turn ${state.turn} of ${state.totalTurns}, budget ${state.budget} tokens.`
      : `Budget ${state.budget}, ${plural(state.policies[0]?.window.hotN ?? 0, "HOT turn")}: every policy replayed to turn ${state.turn}.`);
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
