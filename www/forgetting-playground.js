// <memory-forgetting-playground>: seven forgetting policies over one stream of writes and reads,
// at the same capacity, with a slider along the stream. Renders the state the Rust core's
// `ForgettingPlayground` hands it.
//
//   <script type="module" src="widgets.js"></script>
//   <memory-forgetting-playground capacity="4" half-life="4" stream="tickets"></memory-forgetting-playground>

import { h, plural, quote, listed, svg } from "./dom.js";
import { WithTables, ruleDetails } from "./tables.js";
import { readAttributes, MemoryWidget, define } from "./widget.js";

const STREAMS = [
  ["tickets", "forty tickets"],
  ["refund-desk", "the refund desk alone"],
];

/** "46 of 95 (48%)", or "no reads yet". */
const hitText = (hits, reads) => (reads === 0 ? "no reads yet" : `${hits} of ${reads} (${Math.round((100 * hits) / reads)}%)`);

/** The hit rate after the last read at or before `t`, or null before the first. */
function rateAt(series, t) {
  let rate = null;
  for (const point of series) {
    if (point.at > t) break;
    rate = point.rate;
  }
  return rate;
}

/**
 * A sparkline of one policy's hit rate: the share of the reads so far that found their fact,
 * after each read, from 0 to 100%; solid up to the slider's time, faded after it.
 */
function sparkline(row, t, until) {
  const [w, hgt, left, right, top, bottom] = [320, 90, 36, 8, 10, 16];
  const x = (at) => left + (until <= 0 ? 0 : (at / until) * (w - left - right));
  const y = (rate) => hgt - bottom - rate * (hgt - top - bottom);
  const at = (p) => `${x(p.at).toFixed(1)},${y(p.rate).toFixed(1)}`;
  const past = row.series.filter((p) => p.at <= t);
  const future = row.series.filter((p) => p.at >= (past.at(-1)?.at ?? 0));
  const parts = [
    svg("line", { x1: left, x2: left, y1: y(0), y2: y(1), class: "axis" }),
    svg("line", { x1: left, x2: w - right, y1: y(0), y2: y(0), class: "axis" }),
    svg("text", { x: left - 3, y: y(1) + 3, class: "tick", "text-anchor": "end" }, "100%"),
    svg("text", { x: left - 3, y: y(0) + 3, class: "tick", "text-anchor": "end" }, "0"),
    svg("text", { x: x(0), y: hgt - 2, class: "tick", "text-anchor": "start" }, "t = 0"),
    svg("text", { x: x(until), y: hgt - 2, class: "tick", "text-anchor": "end" }, String(until)),
  ];
  if (past.length < row.series.length && future.length > 1) parts.push(svg("polyline", { points: future.map(at).join(" "), class: "future" }));
  if (past.length) {
    parts.push(svg("polyline", { points: past.map(at).join(" "), class: "series" }),
      svg("circle", { cx: x(past.at(-1).at), cy: y(past.at(-1).rate), r: 3.4, class: "now" }));
  }
  const final = row.series.at(-1);
  const label = past.length === 0
    ? `${row.info.name}: no reads yet at t = ${t}.`
    : `${row.info.name}: after ${plural(past.length, "read")}, by t = ${t}, ${Math.round(past.at(-1).rate * 100)}% found their fact` +
      (final && past.length < row.series.length ? `; by the end, t = ${until}, ${Math.round(final.rate * 100)}%.` : ".");
  return svg("svg", { viewBox: `0 0 ${w} ${hgt}`, width: w, height: hgt, role: "img", "aria-label": label, class: "spark" }, ...parts);
}

/**
 * Seven forgetting policies over one stream of writes and reads at the same capacity: how often
 * each still held the fact a read needed, with a slider along the stream.
 *
 * @tagname memory-forgetting-playground
 * @attr {"tickets" | "refund-desk"} [stream="tickets"] - Forty customers' tickets, or the refund
 *   desk alone.
 * @attr {number} [capacity=4] - Most facts each policy holds.
 * @attr {number} [half-life=4] - Our policy's half-life (the others have none).
 * @attr {number} [t=0] - Opens at this point of the stream.
 * @prop {number | null} capacity - The `capacity` attribute as a number; `null` when absent.
 * @prop {number | null} halfLife - The `half-life` attribute as a number; `null` when absent.
 * @prop {number | null} t - The `t` attribute as a number; `null` when absent.
 * @fires {CustomEvent<{ state: ForgettingPlaygroundState }>} memory-step - The slider moved.
 */
class MemoryForgettingPlayground extends WithTables(MemoryWidget) {
  static family = "forgetting-playground";
  static observedAttributes = ["capacity", "half-life", "stream", "t"];

  createModel({ fallback = false } = {}) {
    if (fallback) return new this.core.ForgettingPlayground();
    const { options, explain } = readAttributes(this, { capacity: "capacity", "half-life": "halfLife", t: "t" });
    const { t, ...config } = options;
    const stream = this.getAttribute("stream");
    if (stream !== null && stream.trim() !== "") config.stream = stream.trim();
    try {
      // The seed's settings need only the class's constructor, which every core has.
      const { ForgettingPlayground } = this.core;
      const model = Object.keys(config).length === 0 ? new ForgettingPlayground() : ForgettingPlayground.withConfig(config);
      if (t !== undefined) model.setTime(t);
      return model;
    } catch (error) {
      throw new Error(explain(error));
    }
  }

  /** What a knob change keeps: the slider's time. */
  progress() {
    return this.model.time;
  }

  replay(t) {
    const state = this.model.state();
    const at = Math.min(t, state.until);
    this.model.setTime(at);
    return `Every policy replayed to t = ${at} at capacity ${state.capacity}, our half-life ${state.halfLife}.`;
  }

  mount() {
    const state = this.model.state();
    const slider = h("input", {
      type: "range", id: "clock", min: 0, max: state.until, step: 1, value: state.t,
      on: { input: (event) => this.setTime(Number(event.target.value)) },
    });
    const choices = STREAMS.map(([value, label]) => h("label", { className: "choice" },
      h("input", {
        type: "radio", name: "stream", value, checked: state.stream === value,
        on: {
          change: async () => {
            const error = await this.reconfigure(() => this.setAttribute("stream", value), `Stream: ${label}`);
            if (error) {
              this.fail(new Error(`The stream could not change: ${error}`));
              const inForce = this.model?.state().stream;
              for (const radio of this.body.querySelectorAll('input[name="stream"]')) radio.checked = radio.value === inForce;
            }
            // The rebuild replaced the radio that had focus: focus the new one, unless the reader
            // has moved on meanwhile.
            const focused = document.activeElement;
            if (!this.shadowRoot.activeElement && (focused === null || focused === document.body)) {
              this.body.querySelector('input[name="stream"]:checked')?.focus();
            }
          },
        },
      }), ` ${label}`));
    this.ui = {
      slider,
      clockValue: h("span", { className: "t-value", attrs: { "aria-hidden": "true" } }),
      result: h("p", { className: "result" }),
      lede: h("p", { className: "lede" }),
      rows: h("tbody"),
      dataCaption: h("caption"),
      dataHead: h("tr"),
      dataRows: h("tbody"),
      factsCaption: h("caption"),
      factHead: h("tr"),
      factRows: h("tbody"),
    };
    const ui = this.ui;
    this.frame.className = "widget playground forgetting-playground";
    ui.result.textContent = this.result();
    this.body.replaceChildren(
      ui.result,
      ui.lede,
      h("fieldset", { className: "streams" }, h("legend", {}, "stream"), ...choices),
      h("div", { className: "slider-row" }, h("label", { htmlFor: "clock" }, "point in the stream"), slider, ui.clockValue),
      h("table", { className: "policies" },
        h("caption", {}, "Needed and there, by policy"),
        h("thead", {}, h("tr", {}, ...["policy", "share of reads found", "needed and there", "stale facts"]
          .map((name) => h("th", { scope: "col" }, name)))),
        ui.rows),
      h("p", { className: "note spark-key" },
        "Line: the share of the reads so far that found their fact, after each read. Faded: the rest of the stream."),
      h("details", {},
        h("summary", {}, "The hit rates as numbers"),
        h("table", { className: "data cards" }, ui.dataCaption, h("thead", {}, ui.dataHead), ui.dataRows)),
      h("table", { className: "facts held-by cards" }, ui.factsCaption, h("thead", {}, ui.factHead), ui.factRows),
      h("p", { className: "note" }, "\u2713 held, \u00b7 not held. A stale fact is one a newer fact has superseded: only ours lets it go as soon as that happens."),
    );
    this.ensureKnobs([
      ["capacity", "capacity", { min: 1, step: 1 }],
      ["half-life", "half-life (ours)", { min: 0.1, step: "any" }],
    ], { capacity: 4, "half-life": 4 });
    this.render(state);
    this.announce(`Ready: ${plural(state.policies.length, "policy", "policies")} over ${plural(state.events, "event")}, capacity ${state.capacity}.`);
  }

  /** The comparison's result in one line, from a second model at the stream's end ("" on an error). */
  result() {
    const state = this.probeState((model) => model.setTime(model.state().until));
    if (!state || state.reads === 0) return "";
    const rows = (indexes) => indexes.map((i) => state.policies[i]);
    const names = (indexes) => listed(rows(indexes).map((row) => row.info.name));
    const leaders = rows(state.leaders);
    const best = leaders[0].hits;
    const ours = state.policies.find((row) => row.info.id === "ours");
    const oursFound = ours && !leaders.includes(ours) ? `; ours finds ${hitText(ours.hits, state.reads)}` : "";
    const fresh = state.fresh;
    const stale = fresh.length === 0 ? "every policy holds a stale fact at the end"
      : `${names(fresh)} ${fresh.length === 1 ? "is the only one that holds" : "hold"} no stale fact at the end`;
    return `Over the whole stream, ${names(state.leaders)} find${leaders.length === 1 ? "s" : ""} the most reads, ${hitText(best, state.reads)}${oursFound}; ${stale}.`;
  }

  setTime(t) {
    if (!this.model) return;
    if (!this.attempt(() => this.model.setTime(t)).ok) return;
    const state = this.model.state();
    this.render(state);
    const leaders = state.leaders.map((i) => state.policies[i]);
    this.announce(state.reads === 0
      ? `t = ${state.t}: no reads yet.`
      : `t = ${state.t}: ${plural(state.reads, "read")} so far; most found by ${leaders.map((row) => row.info.name).join(", ")}: ${hitText(leaders[0]?.hits, state.reads)}.`);
    this.emit("memory-step", { state });
  }

  render(state) {
    const ui = this.ui;
    ui.slider.max = state.until;
    ui.slider.value = state.t;
    const where = `t = ${state.t} of ${state.until}: ${state.eventsDone} of ${state.events} events, ${state.reads} of ${state.totalReads} reads`;
    ui.slider.setAttribute("aria-valuetext", where);
    ui.clockValue.textContent = where;
    const stream = STREAMS.find(([value]) => value === state.stream)?.[1] ?? state.stream;
    ui.lede.textContent = `Seven forgetting policies, one stream (${stream}: ${plural(state.events, "event")}, ${plural(state.totalReads, "read")}), ` +
      `each holding at most ${plural(state.capacity, "fact")}. When a fact was needed, was it still there?`;
    for (const radio of this.body.querySelectorAll('input[name="stream"]')) radio.checked = radio.value === state.stream;

    ui.rows.replaceChildren(...state.policies.map((row) => {
      const { info } = row;
      return h("tr", {},
        h("th", { scope: "row" },
          h("span", { className: "policy-name" }, info.name),
          ruleDetails(info)),
        h("td", { className: "chart" }, sparkline(row, state.t, state.until)),
        h("td", { className: "hits", attrs: { "data-label": "needed and there" } }, hitText(row.hits, state.reads)),
        h("td", { className: "stale", attrs: { "data-label": "stale facts held" } }, String(row.stale)));
    }));

    // Each tenth of the stream, or each time unit of one shorter than ten (no time twice).
    const tenths = state.until >= 10;
    const samples = Array.from({ length: tenths ? 10 : state.until }, (_, i) => tenths ? Math.round((state.until * (i + 1)) / 10) : i + 1);
    ui.dataCaption.textContent = `Share of the reads so far that found their fact, at ${tenths ? "each tenth of the stream" : "each time unit"}`;
    ui.dataHead.replaceChildren(h("th", { scope: "col" }, "policy"), ...samples.map((t) => h("th", { scope: "col" }, `t = ${t}`)));
    ui.dataRows.replaceChildren(...state.policies.map((row) =>
      h("tr", {}, h("th", { scope: "row" }, row.info.name), ...samples.map((t) => {
        const rate = rateAt(row.series, t);
        return h("td", { attrs: { "data-label": `t = ${t}` } }, rate === null ? "\u2013" : `${Math.round(rate * 100)}%`);
      }))));

    ui.factsCaption.textContent = `Facts each policy holds at t = ${state.t}`;
    // A stale fact is named by the text that replaced it, not by an id the page shows nowhere.
    const supersededBy = (fact) => {
      const newer = state.facts.find((other) => other.id === fact.supersededBy);
      return newer ? `${quote(newer.text)} replaces it` : "a newer fact replaces it";
    };
    ui.factHead.replaceChildren(h("th", { scope: "col" }, "fact"), ...state.policies.map((row) => h("th", { scope: "col" }, row.info.name)));
    ui.factRows.replaceChildren(...(state.facts.length === 0
      ? [h("tr", {}, h("td", { className: "empty", colSpan: state.policies.length + 1 }, "Nothing written yet."))]
      : state.facts.map((fact) => h("tr", { className: fact.supersededBy === null ? "" : "stale" },
        h("th", { scope: "row" }, quote(fact.text), fact.supersededBy === null ? "" : h("span", { className: "note" }, ` stale: ${supersededBy(fact)}`)),
        ...state.policies.map((row) => {
          const held = row.held.includes(fact.id);
          return h("td", { className: held ? "held" : "", attrs: { "data-label": row.info.name } }, held ? "\u2713 held" : "\u00b7");
        })))));
  }
}

define("memory-forgetting-playground", MemoryForgettingPlayground, { capacity: "capacity", halfLife: "half-life", t: "t" });
