// <memory-forgetting>: a fact store on a timeline, ranked by importance × recency × access, with a
// time slider. Renders the state the Rust core's `FactStore` hands it; holds no policy logic.
//
//   <script type="module" src="widgets.js"></script>
//   <memory-forgetting half-life="4" capacity="4"></memory-forgetting>

import { h, plural, quote, num, SVG, svg } from "./dom.js";
import { readAttributes, MemoryWidget, define } from "./widget.js";
import { WithTables } from "./tables.js";

/** The slider's range. */
const T_MAX = 12;

/** When a score halves: by a time to one decimal, or not before the slider's end. */
const halvesAt = (at) => (at > T_MAX ? `does not halve before t = ${T_MAX}` : `halves by t = ${num(at, 1)}`);

/** The decay chart's line styles: dash patterns and end markers, so lines differ beyond colour. */
const DASHES = ["", "7 4", "2 3", "10 3 2 3", "5 2"];
const MARKERS = ["circle", "square", "triangle", "diamond", "ring", "bar"];
/** An end label's room on the chart, in its px: "#10" in the chart's small type, and a line of it. */
const [LABEL_WIDTH, LABEL_HEIGHT] = [28, 13];

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

/**
 * A fact store on a timeline (the refund desk, or a scenario of the page's own), its facts
 * ranked by importance × recency × access, with a time slider from 0 to 12.
 *
 * @tagname memory-forgetting
 * @attr {number} [half-life=4] - Time units for recency to halve.
 * @attr {number} [capacity=4] - Most active facts after a write.
 * @attr {number} [access-boost=0.5] - What each read adds to access.
 * @attr {number} [semantic-half-life=16] - Half-life of distilled semantic facts; by default
 *   4 × `half-life`.
 * @attr {number} [procedural-half-life=32] - Half-life of distilled procedural rules; by default
 *   8 × `half-life`.
 * @attr {number} [t=0] - Opens at this time.
 * @attr {string} scenario - `#id` of a `<script type="application/json">` holding a scenario
 *   (`{ facts, reads, events, consolidation }`), played instead of the refund desk.
 * @prop {number | null} halfLife - The `half-life` attribute as a number; `null` when absent.
 * @prop {number | null} capacity - The `capacity` attribute as a number; `null` when absent.
 * @prop {number | null} accessBoost - The `access-boost` attribute as a number; `null` when absent.
 * @prop {number | null} semanticHalfLife - The `semantic-half-life` attribute as a number; `null`
 *   when absent.
 * @prop {number | null} proceduralHalfLife - The `procedural-half-life` attribute as a number;
 *   `null` when absent.
 * @prop {number | null} t - The `t` attribute as a number; `null` when absent.
 * @prop {ScenarioSpec | undefined} scenario - A custom scenario, in place of the `scenario`
 *   attribute.
 * @attr {boolean} guided - Guided mode: before t = 6, before the Globex write and after
 *   Consolidate, the widget asks the reader to predict the next step, runs it, and says whether
 *   they were right.
 * @prop {{ [question: string]: { answer: string; right: boolean } }} answers - The reader's answers in
 *   guided mode, by question (`first`, `evict`, `lasts`); kept in the link.
 * @fires {CustomEvent<{ question: string; answer: string; right: boolean; verdict: string; state: FactStoreState }>} memory-guess -
 *   The reader answered a guided question; the step ran, and `verdict` says what happened.
 * @fires {CustomEvent<{ change: Change | null; state: FactStoreState } | { changes: Change[]; state: FactStoreState }>} memory-step -
 *   A write or a read (`change`); the slider, a removal or Start over (`change: null`); or a
 *   consolidation (`changes`, one for each distilled fact).
 * @fires {CustomEvent<{ change: Change; state: FactStoreState }>} memory-supersede - A write
 *   superseded an older fact, `change.superseded` (after its `memory-step`).
 * @fires {CustomEvent<{ change: Change; state: FactStoreState }>} memory-evict - A write took the
 *   store over capacity and evicted the weakest fact, `change.evicted` (after its `memory-step`).
 */
class MemoryForgetting extends WithTables(MemoryWidget) {
  static family = "forgetting";
  static observedAttributes = ["half-life", "capacity", "access-boost", "semantic-half-life", "procedural-half-life", "t", "scenario", "guided"];

  createModel({ fallback = false } = {}) {
    if (fallback) return new this.core.FactStore();
    const { options, explain } = readAttributes(this, {
      "half-life": "halfLife", capacity: "capacity", "access-boost": "accessBoost",
      "semantic-half-life": "semanticHalfLife", "procedural-half-life": "proceduralHalfLife", t: "t",
    });
    const { t, ...config } = options;
    const scenario = this.scenarioFromAttribute();
    try {
      // The seed's settings need only the class's constructor, which every core has.
      const { FactStore } = this.core;
      const seed = scenario === undefined && Object.keys(config).length === 0;
      const store = seed ? new FactStore() : FactStore.withConfig(scenario === undefined ? config : { ...config, scenario });
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
      // Kept ticked across a rebuild (a knob, a link): the reader asked to see the arithmetic.
      why: h("input", { type: "checkbox", id: "why", checked: this.ui?.why.checked ?? false, on: { change: () => this.render(this.model.state()) } }),
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
      h("table", { className: "store cards", attrs: { "aria-describedby": "importance-note" } },
        h("caption", {}, "The store, ranked by score; superseded, then evicted facts follow by id, unranked (no score)"),
        h("thead", {}, h("tr", {}, ...[
          "text", "kind", ["importance", "as written"], "age", "recency", "reads", "score", "status",
        ].map((name) => h("th", { scope: "col" }, ...(Array.isArray(name)
          ? [name[0], h("span", { className: "note sub-head" }, `(${name[1]})`)] : [name]))))),
        ui.rows),
      h("p", { className: "note", id: "importance-note" },
        "Importance (as written) is the value a fact was given when it was written; a later write of the same text (a custom scenario may hold one) keeps the larger of the two. " +
        "It never decays on its own: recency carries the decay, and score = importance \u00d7 recency \u00d7 access."),
      ui.summary,
      ui.settingsNote,
      h("label", { className: "toggle" }, ui.why, "Show the arithmetic and the forget forecast"),
      h("figure", { className: "decay" },
        h("figcaption", {}, `Every score from t = 0 to ${T_MAX} as the timeline has it: the scheduled reads and the events you fired (the forecasts in the table assume neither). Lines fade, rise straight up at a read, and stop at the moment a fact is superseded or evicted. Focus the chart and use the arrow keys, or hover, to pick out a line.`),
        ui.chart,
        ui.readout,
        ui.chartKey,
        h("details", {},
          h("summary", {}, "The chart as numbers"),
          h("table", { className: "data cards" }, h("caption", {}, "Score at each time"), h("thead", {}, ui.chartHead), ui.chartRows))),
    );
    this.ensureKnobs([
      ["half-life", "half-life", { min: 0.1, step: "any" }],
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
    // In time order, and at equal times in the core's order (a sort keeps it): writes, the pass,
    // then the reader's reads.
    const actions = [
      ...events.map((event) => [event.firedAt, () => this.model.fire(event.index)]),
      ...(consolidatedAt === null ? [] : [[consolidatedAt, () => this.model.consolidate()]]),
      ...reads.map((read) => [read.at, () => this.model.read(read.fact)]),
    ].sort(([a], [b]) => a - b);
    for (const [time, action] of actions) at(time, action);
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
    const missed = state.reads.filter((read) => read.missed).length;
    this.announce(`t = ${state.t}: ${plural(state.activeCount, "active fact")}${top ? `, ${quote(top.text)} ranks first` : ""}` +
      `${missed ? `; ${plural(missed, "read")} missed, ${missed === 1 ? "its fact" : "their facts"} no longer active` : ""}` +
      `${later ? `; ${plural(later, "event")} scheduled for later` : ""}.`);
    this.emit("memory-step", { change: null, state });
  }

  /** Runs the consolidation pass at the current time, or moves it here if it ran at another. */
  consolidate() {
    const before = this.model.state().consolidatedAt; // the core moves a pass that ran already
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
    const before = this.model.state().events[index]?.firedAt ?? null; // the core moves a fired event
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
    return change;
  }

  /** Whether this widget tells the story the guide asks about: the refund desk's store. */
  guidesStory() {
    return !this.hasScenario();
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
        h("td", { className: "score", attrs: { "data-label": "score" } },
          fact.status === "active" ? h("span", { className: "value" }, num(fact.score))
            : h("span", { className: "value", attrs: { "aria-label": "no score: not ranked" } }, "\u2013"), bar,
          why && fact.status === "active" ? h("span", { className: "note breakdown" }, `${num(fact.importance, 2)} \u00d7 ${num(fact.recency)} \u00d7 ${num(fact.access, 2)} = ${num(fact.score)}`) : null,
          why && forecast ? h("span", { className: "note forecast" }, `if nothing more is read or written: ${halvesAt(forecast.halfAt)}; ${next}`) : null),
        h("td", { className: "status", attrs: { "data-label": "status" } }, status));
    }));
    this.renderChart(state);
    ui.summary.textContent = `${plural(state.activeCount, "active fact")} of at most ${state.capacity}. ` +
      `Recency halves every ${plural(state.halfLife, "time unit")} for episodes, ${num(state.semanticHalfLife, 2)} for semantic facts ` +
      `and ${num(state.proceduralHalfLife, 2)} for procedural rules: a distilled fact sums up many episodes and stays true long after ` +
      `any one conversation, and a rule of how to act stays true longer still. Each read adds ${state.accessBoost} to access. ` +
      `Forecasts assume nothing more happens after t: no reads or writes, not even the reads scheduled on the timeline.`;
    this.ensureGuide(state);
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
    const marks = [
      ...state.reads.map((read) => read.missed
        ? ["missed", read.at, "\u25b3", `read at t = ${read.at}, missed: its fact was no longer active`]
        : [read.scheduled ? "" : "reader", read.at, "\u25b2", `read at t = ${read.at}`]),
      ...state.events.filter((event) => event.firedAt !== null)
        .map((event) => ["write", event.firedAt, "\u25c6", `${event.label} at t = ${event.firedAt}`]),
      ...(state.consolidatedAt === null ? [] : [["write", state.consolidatedAt, "\u25c6", `consolidation at t = ${state.consolidatedAt}`]]),
    ];
    // Marks of one kind at one time are one mark: two reads at t = 5 are one triangle.
    const merged = Map.groupBy(marks, ([className, time]) => `${className} ${time}`);
    ui.marks.replaceChildren(...[...merged.values()].map((same) => {
      const [className, time, symbol] = same[0];
      const titles = [...new Set(same.map(([, , , title]) => title))];
      const mark = h("span", { className: `mark ${className}`, title: titles.join("; ") }, symbol);
      mark.style.setProperty("--at", String(Math.min(time, T_MAX) / T_MAX));
      return mark;
    }));
    const readTimes = Map.groupBy(scheduled, (read) => read.fact);
    const missed = state.reads.some((read) => read.missed)
      ? " A read marked \u25b3 came when its fact was no longer active, and counted nothing."
      : "";
    ui.readsNote.textContent = scheduled.length
      ? `Scheduled reads (\u25b2 under the slider): ${[...readTimes].map(([fact, reads]) =>
        `${quote(textOf(fact))} at t = ${reads.map((r) => `${r.at}${r.missed ? " (missed)" : ""}`).join(" and t = ")}`).join("; ")}.${missed} Events you fire are marked \u25c6.`
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
    // `top` leaves a row for the axis title "score" above the highest tick.
    const [left, right, top, bottom] = [38, 34, 24, 26];
    const most = Math.max(1, ...lines.flatMap((line) => line.points.map(([, score]) => score)));
    const tick = most <= 1 ? 0.25 : most <= 2 ? 0.5 : 1;
    const yMax = Math.ceil(most / tick) * tick;
    const x = (t) => left + (t / T_MAX) * (w - left - right);
    this.chartX = x;
    // End labels: the fact's id beside its line's last point. Lines that end within a label's
    // width of each other share a column, drawn right of its rightmost end; in a column, labels
    // are nudged a label's height apart, down from the top, then up from the axis, so that
    // none overlaps another or falls among the t ticks. The chart grows for its fullest column.
    const columns = [];
    for (const end of lines.map((line, i) => ({ i, x: x(line.points.at(-1)[0]), y: 0 })).sort((a, b) => a.x - b.x)) {
      const column = columns.at(-1);
      if (column && end.x - column.at(-1).x < LABEL_WIDTH) column.push(end);
      else columns.push([end]);
    }
    const fullest = Math.max(1, ...columns.map((column) => column.length));
    const hgt = Math.max(200, top + bottom + 7 + fullest * LABEL_HEIGHT);
    const y = (score) => top + (1 - score / yMax) * (hgt - top - bottom);
    const labelAt = new Map();
    for (const column of columns) {
      const labelX = column.at(-1).x + 7;
      for (const end of column) end.y = y(lines[end.i].points.at(-1)[1]);
      column.sort((a, b) => a.y - b.y);
      for (let k = 1; k < column.length; k++) column[k].y = Math.max(column[k].y, column[k - 1].y + LABEL_HEIGHT);
      for (let k = column.length - 1, lowest = y(0) - 7; k >= 0; k--, lowest -= LABEL_HEIGHT) column[k].y = Math.min(column[k].y, lowest);
      for (const end of column) labelAt.set(end.i, [labelX, end.y]);
    }

    const grid = [];
    for (let value = 0; value <= yMax + 1e-9; value += tick) {
      grid.push(svg("line", { x1: left, x2: w - right, y1: y(value), y2: y(value), class: value === 0 ? "axis" : "grid" }),
        svg("text", { x: left - 5, y: y(value) + 3.5, class: "tick", "text-anchor": "end" }, num(value, 2)));
    }
    for (let t = 0; t <= T_MAX; t += 2) {
      grid.push(svg("text", { x: x(t), y: hgt - bottom + 14, class: "tick", "text-anchor": "middle" }, String(t)));
    }
    grid.push(svg("text", { x: 2, y: 4, class: "tick axis-title", "dominant-baseline": "hanging" }, "score"),
      svg("text", { x: w - right + 14, y: hgt - bottom + 14, class: "tick axis-title" }, "t"));

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
      svg("text", { x: labelAt.get(i)[0], y: labelAt.get(i)[1] + 3.5, class: "end-label" }, `#${line.id}`));
      const pick = () => this.pickLine(i);
      // The line with focus (by the arrows, Tab or a click) is the one Tab comes back to.
      group.addEventListener("focus", () => {
        for (const other of this.chartGroups) other.setAttribute("tabindex", other === group ? 0 : -1);
        pick();
      });
      group.addEventListener("mouseenter", pick);
      group.addEventListener("mouseleave", () => this.pickLine(null));
      group.addEventListener("blur", () => this.pickLine(null));
      group.addEventListener("keydown", (event) => {
        const step = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 }[event.key];
        if (!step) return;
        event.preventDefault();
        this.chartGroups[(i + step + lines.length) % lines.length].focus();
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
        return h("td", { attrs: { "data-label": `t = ${t}` } }, point ? num(point[1]) : "\u2013");
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

define("memory-forgetting", MemoryForgetting, {
  halfLife: "half-life", capacity: "capacity", accessBoost: "access-boost",
  semanticHalfLife: "semantic-half-life", proceduralHalfLife: "procedural-half-life", t: "t",
});
