// Real sessions at real size: a log file of megabytes, imported and replayed in a Web Worker
// (import-worker.js) with a progress bar, and the playground drawn so that it stays readable at
// 10,000 turns (sparklines at most a point per pixel, long lists in pages), with the log's own
// token curve and compactions beside the seven policies. Loaded with own.js, when a reader opens
// the panel for their own conversation or a page reads a `src` file: a page whose readers never
// do downloads none of it. Draws what the core gives; it decides nothing.

import { h, plural, svg, num, adoptMoreStyles } from "./dom.js";
import { coreFor, own } from "./cores.js";
import { readAfter } from "./settings.js";
import { workerBeside } from "./located.js";

/**
 * More turns than this draw in pages and a bar a pixel (and a conversation of a file changed in
 * the panel plays in the worker still): past it, a table of a column a turn lays out slowly.
 */
export const LARGE_TURNS = 60;
/** Turns a page of the numbers table shows; items a page of a long list shows. */
const TABLE_PAGE = 50;
const LIST_PAGE = 20;
/** False in the one-file bundle (tools/bundle.mjs), which has no worker file beside it. */
const HAS_WORKER_FILE = true;

const megabytes = (bytes) => `${(bytes / 1_000_000).toFixed(1)} MB`;

/** The element's link to its worker: one worker an element, made when a file is first picked. */
class Link {
  #worker;
  #calls = new Map();
  #next = 0;
  constructor() {
    // Beside the code, or the worker a host's bundler builds from the literal (located.js).
    const beside = workerBeside();
    this.#worker = beside
      ? new Worker(beside, { type: "module", name: "agent-memory-widgets import" })
      : new Worker(new URL("agent-memory-widgets/import-worker.js", import.meta.url), { type: "module", name: "agent-memory-widgets import" });
    this.#worker.addEventListener("message", ({ data }) => {
      const call = this.#calls.get(data.id);
      if (!call) return;
      if (data.progress) return call.progress?.(data.progress);
      if (data.turns) return call.turns?.(data.turns);
      this.#calls.delete(data.id);
      if ("error" in data) call.reject(new Error(data.error));
      else call.resolve(data.result);
    });
    // A worker that cannot start (a failed fetch, a CSP that refuses it) fails every call.
    this.#worker.addEventListener("error", (event) => {
      event.preventDefault();
      this.broken = new Error(`the import's worker did not start${event.message ? ` (${event.message})` : ""}`);
      for (const call of this.#calls.values()) call.reject(this.broken);
      this.#calls.clear();
    });
  }

  /** Sends `op` with `data`; resolves to its result. `progress` and `turns` take its reports. */
  call(op, data, { progress, turns } = {}) {
    if (this.broken) return Promise.reject(this.broken);
    const id = ++this.#next;
    return new Promise((resolve, reject) => {
      this.#calls.set(id, { resolve, reject, progress, turns });
      this.#worker.postMessage({ id, op, ...data });
    });
  }

  terminate() {
    this.#worker.terminate();
  }
}

/**
 * A playground that lives in the worker, with the page's `Playground`'s methods: `state()` is the
 * state last received, `goTo(turn)` a promise (the element draws when it settles), and `final`
 * how each policy ends, for the comparison's result line (`null` until the worker has played
 * it to its end, after the first state is drawn).
 */
class RemotePlayground {
  #el;
  #link;
  #handle;
  #state;
  #want;
  #moving = null;
  constructor(el, { model, state, final = null }) {
    this.#el = el;
    this.#link = el.remote.link;
    this.#handle = model;
    this.#state = state;
    this.#want = state.turn;
    this.final = final;
    // The whole run's series and peaks come once; a later state leaves them out.
    this.runs = state.policies.map((row) => ({ series: row.series, peaks: row.peaks, overTurns: row.overTurns }));
  }

  state() {
    return this.#state;
  }

  get turn() {
    return this.#state.turn;
  }

  /** The worker's playground this stands for: the prepared replay on screen is never freed. */
  get handle() {
    return this.#handle;
  }

  /** Moves to `turn`; resolves once the state is at the last turn asked for. */
  goTo(turn) {
    this.#want = Math.max(0, Math.min(this.#state.totalTurns, turn));
    if (this.#want === this.#state.turn && !this.#moving) return null;
    this.#moving ??= (async () => {
      try {
        while (this.#want !== this.#state.turn) {
          const state = await this.#link.call("goTo", { model: this.#handle, turn: this.#want });
          state.policies.forEach((row, i) => Object.assign(row, this.runs[i]));
          this.#state = state;
        }
      } finally {
        this.#moving = null;
      }
    })();
    return this.#moving;
  }

  /** Asks the worker how each policy ends; resolves to it. */
  ending() {
    return this.#link.call("final", { model: this.#handle });
  }

  /**
   * The element lets its model go when it builds another or leaves the page. The worker's
   * playground stays while the element's cache holds it (prepared, below); the worker itself
   * ends once the element has left the page (not when it is only moved).
   */
  free() {
    const el = this.#el;
    setTimeout(() => el.isConnected || detach(el));
  }
}

/** What the element holds for its worker: the link, the turns it holds there, prepared replays. */
function remote(el) {
  el.remote ??= { link: null, scripts: new WeakMap(), prepared: [] };
  return el.remote;
}

/**
 * Whether `el` plays its conversation in the worker: a playground's, read from a file there, or
 * one of many turns changed since (a kind chosen in the panel).
 */
function playsRemotely(el) {
  return el.constructor.family === "playground" && Boolean(el.remote?.link) && !el.remote.link.broken
    && Array.isArray(el.conversation) && (el.remote.scripts.has(el.conversation) || el.conversation.length > LARGE_TURNS);
}

/** The options the element's `createModel` would give `withConfig` now, recorded. */
function optionsNow(el) {
  let options = null;
  const recorder = { withConfig: (given) => ((options = given), { goTo() {}, free() {} }) };
  const modelClass = el.modelClass;
  el.modelClass = () => recorder;
  try {
    el.createModel();
  } finally {
    el.modelClass = modelClass;
  }
  const { script, ...rest } = options;
  return { options: rest, script };
}

const keyOf = (options, handle, turn) => JSON.stringify([options, handle, turn]);

/**
 * Replays the element's conversation in the worker under the settings `change` makes (undone
 * after it is read), at `turn`, so that the element's next model is ready when it is built
 * (widget.js, `reconfigure`). Resolves to `null`, or to an error's message.
 */
export async function prepare(el, change, turn, report) {
  if (!el.remote?.link) return null;
  let read = null;
  try {
    read = readAfter(el, change, () => (playsRemotely(el) ? optionsNow(el) : null));
  } catch {
    // createModel says what is wrong, as before
  }
  if (read === null) return null;
  const { link, scripts } = el.remote;
  // A knob's replay is said as progress, in the status line and the panel's bar; an import's
  // replay is its bar's third phase.
  const say = report ?? el.remote.report ?? ((progress) => el.announce(showProgress(el, "", progress)));
  try {
    if (!scripts.has(read.script)) scripts.set(read.script, await link.call("script", { turns: read.script }));
    const handle = scripts.get(read.script);
    const key = keyOf(read.options, handle, turn ?? 0);
    if (el.remote.prepared.some((entry) => entry.key === key)) return null;
    const made = await link.call("playground", { script: handle, options: read.options, turn: turn ?? 0 }, { progress: say });
    const entry = { key, options: read.options, handle, made };
    // Kept: the two newest (the model shown and the one about to replace it, or two about to),
    // and whichever is on screen, however old: freeing it would leave the page nothing to move.
    const shown = el.model?.handle;
    const all = [entry, ...el.remote.prepared];
    el.remote.prepared = all.filter((e, i) => i < 2 || e.made.model === shown);
    for (const gone of all) {
      if (!el.remote.prepared.includes(gone)) link.call("free", { model: gone.made.model }).catch(() => {});
    }
    // The build and its drawing in a task of their own, not the one that read the answer.
    await new Promise((done) => setTimeout(done, 0));
    return null;
  } catch (error) {
    return String(error?.message ?? error);
  } finally {
    if (!report && !el.remote?.report && el.ownUi?.progressBox) el.ownUi.progressBox.hidden = true;
  }
}

/**
 * The class `createModel` builds with (`sessionModel`'s `Model`): the worker's playground for a
 * large conversation of a file, `null` for every other (the page's core plays it).
 */
export function modelClass(el) {
  if (!playsRemotely(el)) return null;
  return {
    withConfig(options) {
      const { script, turn: _turn, ...rest } = options;
      const handle = el.remote.scripts.get(script);
      const entry = el.remote.prepared.find((e) => e.handle === handle && JSON.stringify(e.options) === JSON.stringify(rest));
      // Every change of settings is replayed in the worker first (the knobs, and an author's
      // attributes: `attach`), so this is not reached; were it, the page's core plays it.
      if (!entry) return el.core.Playground.withConfig(options);
      const model = new RemotePlayground(el, entry.made);
      // How each policy ends comes after the first state is drawn: the result line then.
      if (!entry.made.final) {
        entry.ending ??= model.ending().then((final) => (entry.made.final = final));
        entry.ending.then((final) => {
          model.final = final;
          if (el.model === model && el.ui?.result) el.ui.result.textContent = el.result();
        }, () => {});
      }
      return model;
    },
  };
}

/** The panel's progress bar and what it says, made once. */
function progressBar(el) {
  const ui = el.ownUi;
  if (!ui.progress) {
    ui.progress = h("progress", { id: "own-progress", max: 1, value: 0 });
    ui.progressText = h("span", { className: "note" });
    ui.progressBox = h("div", { className: "own-progress", hidden: true },
      h("label", { htmlFor: "own-progress" }, "Import progress"), ui.progress, ui.progressText);
    ui.file.closest(".field").after(ui.progressBox);
  }
  return ui;
}

/** The phases of an import as the bar shows them (reading the file is the first half); returns what it says. */
function showProgress(el, name, { phase, done, total }) {
  const ui = progressBar(el);
  ui.progressBox.hidden = false;
  const [value, text] = {
    read: [0.5 * (done / Math.max(1, total)), `Reading ${name}: ${megabytes(done ?? 0)} of ${megabytes(total ?? 0)}`],
    parse: [0.55, `Reading the log's records`],
    replay: [0.75, "Replaying the seven policies\u2026"],
    draw: [0.95, "Drawing"],
  }[phase];
  ui.progress.value = value;
  ui.progress.setAttribute("aria-valuetext", text);
  return (ui.progressText.textContent = text);
}

/**
 * Imports the file the reader chose in the worker, with the progress bar, and hands what it read
 * to `use` (own.js: it becomes the element's conversation); a large one replays there too.
 * Resolves to `false` when the page cannot run the worker (the one-file bundle, or a policy that
 * refuses it): own.js then imports it as before.
 */
export async function importFile(el, file, use, latest = () => true) {
  if (!HAS_WORKER_FILE || typeof Worker !== "function") return false;
  const state = remote(el);
  try {
    state.link ??= new Link();
  } catch {
    return false;
  }
  attach(el);
  // A file picked since takes over: this one's reports, result and errors are dropped.
  const report = (progress) => latest() && showProgress(el, file.name, progress);
  report({ phase: "read", done: 0, total: file.size });
  const turns = [];
  let result;
  try {
    result = await state.link.call("import", { core: coreFor([own(el.constructor.family)]), file }, {
      progress: report,
      turns: (part) => turns.push(...part),
    });
  } catch (error) {
    if (!latest()) return true;
    el.ownUi.progressBox.hidden = true;
    if (state.link.broken) {
      state.link.terminate();
      state.link = null;
      return false;
    }
    el.fail(error);
    return true;
  }
  // The worker keeps only its newest import's turns (`superseded`, the others).
  if (!latest() || result.superseded) return true;
  const { script, turnCount: _count, ...read } = result;
  state.scripts.set(turns, script);
  state.report = report; // the replay's progress (prepare)
  try {
    await use({ ...read, turns });
  } finally {
    state.report = null;
  }
  report({ phase: "draw" });
  requestAnimationFrame(() => (el.ownUi.progressBox.hidden = true));
  return true;
}

/** Gives `el` what its long-session drawing needs (once). */
export function attach(el) {
  if (el.large) return;
  el.large = LARGE;
  adoptMoreStyles(el.shadowRoot, "own");
  // widget.js's `reconfigure` waits for this before it builds the next model.
  el.prepareModel = (change, turn, report) => prepare(el, change, turn, report);
  el.modelClass = () => modelClass(el);
  // An attribute an author sets on the element replays in the worker too, as a knob does.
  const changed = el.attributeChanged;
  el.attributeChanged = (name) => {
    if (!playsRemotely(el) || name === "src" || name === "session") return changed.call(el, name);
    el.reconfigure(() => {}, `${name} changed`)
      .then((problem) => problem && el.fail(new Error(problem)));
  };
}

/** Ends the element's worker, when it has left the page: its replays go with it. */
function detach(el) {
  el.remote?.link?.terminate();
  el.remote = null;
}

// --- Drawing ----------------------------------------------------------------------------------

/**
 * `values(i)` for i below `count`, as at most `width` columns: each column's lowest and highest
 * value (`null` values left out), and the first and last-but-one index it stands for.
 *
 *   columns((i) => [5, 1, 7, 3][i], 4, 2)   // [{ start: 0, end: 2, low: 1, high: 5 }, { start: 2, end: 4, low: 3, high: 7 }]
 */
export function columns(values, count, width) {
  const out = [];
  const cols = Math.max(1, Math.min(count, Math.floor(width)));
  for (let c = 0; c < cols; c++) {
    const start = Math.floor((c * count) / cols);
    const end = Math.floor(((c + 1) * count) / cols);
    let low = Infinity;
    let high = -Infinity;
    for (let i = start; i < end; i++) {
      const value = values(i);
      if (value === null || value === undefined) continue;
      if (value < low) low = value;
      if (value > high) high = value;
    }
    if (high >= low) out.push({ start, end, low, high });
  }
  return out;
}

/** The highest value of `list`, in a loop (spreading 70,000 values into Math.max overflows the stack in some engines). */
export function highest(list, from = 0) {
  let most = from;
  for (const value of list) if (value > most) most = value;
  return most;
}

/** A long sparkline's size and margins (room for "149K" on the left), and the pixels its turns share. */
const [w, hgt, left, right, top, bottom] = [320, 110, 38, 8, 10, 16];
const plot = w - left - right;
/** Whether a sparkline of `n` turns draws a bar a pixel (else a line through each turn). */
const banded = (n) => n > plot;

/**
 * A sparkline of a long series (`series(i)` and `peaks(i)` for turn i + 1 of `n`): per pixel,
 * the lowest and highest window after the step (a bar), the highest peak above it (a thin bar),
 * red where `over(i)` (the core's verdict); the turns to come faded; `marks`, the numbers of
 * turns after which something happened (the log's own compactions), as ticks between that turn
 * and the next, faded until then; `trigger`, a second dashed line.
 */
export function longSparkline({ n, series, peaks = () => null, over = () => false, budget, turn, yMax, label, marks = [], trigger = null }) {
  const x = (i) => left + (n <= 1 ? 0 : (i / (n - 1)) * plot);
  const y = (tokens) => hgt - bottom - (Math.min(tokens, yMax) / yMax) * (hgt - top - bottom);
  const f = (v) => v.toFixed(1);
  const parts = [
    svg("line", { x1: left, x2: left, y1: y(0), y2: y(yMax), class: "axis" }),
    svg("line", { x1: left, x2: w - right, y1: y(0), y2: y(0), class: "axis" }),
    svg("text", { x: left - 3, y: y(yMax) + 3, class: "tick", "text-anchor": "end" }, short(yMax)),
    svg("text", { x: left - 3, y: y(0) + 3, class: "tick", "text-anchor": "end" }, "0"),
    svg("text", { x: x(0), y: hgt - 2, class: "tick", "text-anchor": "start" }, "turn 1"),
    svg("text", { x: x(n - 1), y: hgt - 2, class: "tick", "text-anchor": "end" }, num(n)),
    svg("line", { x1: left, x2: w - right, y1: y(budget), y2: y(budget), class: "budget-line" }),
    svg("text", { x: left + 3, y: y(budget) - 3, class: "budget-label", "text-anchor": "start" }, `budget ${short(budget)}`),
  ];
  if (trigger !== null) {
    parts.push(svg("line", { x1: left, x2: w - right, y1: y(trigger), y2: y(trigger), class: "trigger-line" }),
      svg("text", { x: w - right - 2, y: y(trigger) - 3, class: "trigger-label", "text-anchor": "end" }, `compact at ${short(trigger)}`));
  }
  // Each pixel's turns as one bar from their lowest to their highest value: a line where a
  // pixel holds one turn, a band where it holds many.
  const bars = (from, to, value, cls) => {
    const count = to - from;
    if (count <= 0) return;
    const cols = columns((i) => value(i + from), count, Math.max(1, (plot * count) / Math.max(1, n)));
    let path = "";
    for (const c of cols) {
      const at = x(from + (c.start + c.end - 1) / 2);
      path += `M${f(at)} ${f(y(c.low) + 0.75)}V${f(y(c.high) - 0.75)}`;
    }
    if (path) parts.push(svg("path", { d: path, class: cls }));
  };
  // A line through each turn's value while every turn has a pixel of its own; past that, a bar
  // a pixel from its turns' lowest to their highest. The future faded.
  const line = (from, to, cls) => {
    const points = [];
    for (let i = from; i < to; i++) if (series(i) !== null) points.push(`${f(x(i))},${f(y(series(i)))}`);
    if (points.length) parts.push(svg("polyline", { points: points.join(" "), class: cls }));
  };
  if (!banded(n)) {
    line(Math.max(0, turn - 1), n, "future");
    line(0, turn, "series");
  } else {
    bars(0, turn, series, "series bars");
    bars(Math.max(0, turn - 1), n, series, "future bars");
  }
  bars(0, turn, (i) => {
    const peak = peaks(i);
    return peak !== null && peak > series(i) ? peak : null;
  }, "drop bars");
  bars(0, turn, (i) => (over(i) ? series(i) : null), "over bars");
  for (const mark of marks) {
    const at = x(Math.max(0, mark - 0.5));
    parts.push(svg("line", { x1: at, x2: at, y1: y(0) + 4, y2: y(yMax), class: mark <= turn ? "log-mark" : "log-mark future-mark" }));
  }
  if (turn > 0 && series(turn - 1) !== null) {
    parts.push(svg("circle", { cx: x(turn - 1), cy: y(series(turn - 1)), r: 3.4, class: over(turn - 1) ? "now over" : "now" }));
  }
  return svg("svg", { viewBox: `0 0 ${w} ${hgt}`, width: w, height: hgt, role: "img", "aria-label": label, class: "spark long" }, ...parts);
}

/** 155000 as "155K", 20900 as "21K", 8400 as "8400": for an axis, in at most four characters. */
export function short(n) {
  return n >= 10_000 ? `${Math.round(n / 1000)}K` : String(n);
}

/** A long policy row's sparkline, and its label: a summary, not every number. */
export function policySparkline(row, budget, turn, yMax, realMarks) {
  const n = row.series.length;
  const [low, high] = lowHigh(row.series.slice(0, turn));
  const label = turn === 0
    ? `${row.info.name}: no turns yet of ${num(n)}. Budget ${num(budget)}, y axis 0 to ${num(yMax)} tokens.`
    : `${row.info.name}, turns 1 to ${num(turn)} of ${num(n)}, ${banded(n) ? "each pixel the lowest and highest window of its turns" : "a point a turn"}: after each step from ${num(low)} to ${num(high)} tokens, ${num(row.series[turn - 1])} now; the highest peak before compacting ${num(highest(row.peaks.slice(0, turn)))}. Budget ${num(budget)}, y axis 0 to ${num(yMax)} tokens.`;
  const over = overSet(row);
  return longSparkline({
    n, series: (i) => row.series[i], peaks: (i) => row.peaks[i], over: (i) => over.has(i + 1), budget, turn, yMax, label,
    marks: realMarks,
  });
}

/** The turns after which the core found `row`'s window over the budget, as a set (made once a row). */
const overSets = new WeakMap();
function overSet(row) {
  if (!overSets.has(row.overTurns)) overSets.set(row.overTurns, new Set(row.overTurns));
  return overSets.get(row.overTurns);
}

/** [lowest, highest] of `list` in one loop (0 and 0 when empty). */
function lowHigh(list) {
  let low = Infinity;
  let high = 0;
  for (const value of list) {
    if (value < low) low = value;
    if (value > high) high = value;
  }
  return [low === Infinity ? 0 : low, high];
}

/** The log's own curve by turn: `tokens[i]` for turn i + 1, `null` where the log gives none. */
function sentByTurn(log, n) {
  const tokens = new Array(n).fill(null);
  for (const { turn, tokens: sent } of log.sentTokens) if (turn >= 1 && turn <= n) tokens[turn - 1] = sent;
  return tokens;
}

/** Whether the element's conversation is the log `realLog` came with (not the refund desk since). */
export function realLog(el) {
  const log = el.realLog;
  return log && log.conversation === el.conversation && (log.sentTokens.length || log.compactions.length) ? log : null;
}

/**
 * The y range of the log's own row, its own: the tokens a real agent was sent (155,000 before
 * Claude Code compacts) would flatten the policies' rows at a budget of 40 were they to share it.
 */
function yMaxOf(log, budget) {
  const most = highest(log.sentTokens.map((s) => s.tokens), highest(log.compactions.map((c) => c.preTokens ?? 0), budget));
  return Math.ceil((most * 1.05) / 10) * 10;
}

/**
 * The row of the log's own session under the policies: the tokens its agent really sent each
 * turn, its own compactions marked, and the trigger the knobs set, for the reader to see whether
 * the agent compacted where its cited trigger says.
 */
export function realRow(el, state) {
  const log = realLog(el);
  if (!log) return null;
  const yMax = yMaxOf(log, state.budget);
  const n = state.totalTurns;
  const tokens = sentByTurn(log, n);
  const turn = state.turn;
  const done = log.compactions.filter((c) => c.turn <= turn);
  let now = null;
  for (let i = Math.min(turn, n) - 1; i >= 0 && now === null; i--) now = tokens[i];
  const trigger = state.trigger;
  const cited = log.compactions.map((c) => `after turn ${num(c.turn)}${c.preTokens ? ` at ${num(c.preTokens)} tokens` : ""}`);
  // Where it compacted and the trigger are said beside the chart, in the note it is read with.
  const label = `${log.formatName}, as its log records it: the tokens sent each turn, ${tokens.filter((t) => t !== null).length} turns with a count. Budget ${num(state.budget)}.`;
  const spark = longSparkline({
    n, series: (i) => tokens[i], budget: state.budget, turn, yMax, label, trigger,
    marks: log.compactions.map((c) => c.turn),
  });
  const where = log.compactions.length === 0 ? "It never compacted."
    : `It compacted ${plural(log.compactions.length, "time")} (dotted): ${cited.join("; ")}.`;
  const crossed = trigger === null ? "" : ` With compact at ${state.compactAt}% of ${num(state.budget)}, the trigger is ${num(trigger)} tokens.`;
  return h("tr", { className: "real-log", attrs: { role: "row" } },
    h("th", { scope: "row", attrs: { role: "rowheader" } }, h("span", { className: "policy-name" }, "As the log sent it"),
      h("span", { className: "origin" }, `${log.formatName} \u00b7 the agent's own`)),
    h("td", { className: "chart", attrs: { role: "cell" } }, spark, h("span", { className: "note moments" }, `${where}${crossed}`)),
    h("td", { className: "compactions", attrs: { role: "cell", "data-label": "compactions so far" } }, String(done.length)),
    h("td", { className: "tokens-now", attrs: { role: "cell", "data-label": "tokens sent now" } }, now === null ? "\u2013" : `${num(now)} / ${num(state.budget)}`));
}

/** The log's own compactions up to `turn`, each with its summary: beside a policy's window. */
export function realSummaries(el, turn) {
  const log = realLog(el);
  if (!log) return null;
  const done = log.compactions.filter((c) => c.turn <= turn);
  if (done.length === 0) return h("p", { className: "note" }, `The log's own compactions: none by turn ${num(turn)}.`);
  return h("div", { className: "real-summaries" },
    h("h4", {}, `Beside it, the log's own ${done.length === 1 ? "compaction" : `${done.length} compactions`} so far`),
    paged(done, (c) => h("details", {},
      h("summary", {}, `After turn ${num(c.turn)}: ${c.trigger ?? "compacted"}${c.preTokens ? `, ${num(c.preTokens)} tokens` : ""}${c.postTokens ? ` \u2192 ${num(c.postTokens)}` : ""}`),
      h("p", { className: "real-summary" }, c.summary ?? "(the log keeps no summary)")), "compaction", true));
}

/**
 * Buttons that move through `count` items `size` at a time, and what they show: `show(from, to)`
 * draws items `from` to `to - 1`. Opens on page `page` (the last with `page: -1`).
 */
export function pager({ count, size, noun, page = 0, show }) {
  const pages = Math.max(1, Math.ceil(count / size));
  let at = page < 0 ? pages - 1 : Math.min(page, pages - 1);
  const said = h("span", { className: "note", attrs: { "aria-live": "polite" } });
  const back = h("button", { type: "button", className: "quiet", on: { click: () => move(at - 1) } }, `Earlier ${noun}s`);
  const next = h("button", { type: "button", className: "quiet", on: { click: () => move(at + 1) } }, `Later ${noun}s`);
  const move = (to) => {
    at = Math.max(0, Math.min(pages - 1, to));
    const from = at * size;
    const end = Math.min(count, from + size);
    show(from, end);
    said.textContent = `${noun}s ${num(from + 1)} to ${num(end)} of ${num(count)}`;
    back.disabled = at === 0;
    next.disabled = at === pages - 1;
  };
  const box = h("div", { className: "pager" }, back, said, next);
  move(at);
  return box;
}

/**
 * A long list in pages of LIST_PAGE, `render(item)` each; `newest` opens on the last page. A
 * short list comes back whole.
 */
export function paged(items, render, noun, newest = false, size = LIST_PAGE) {
  const list = h("ol", { className: "paged" });
  if (items.length <= size) {
    list.append(...items.map((item) => h("li", {}, render(item))));
    return list;
  }
  const controls = pager({ count: items.length, size, noun, page: newest ? -1 : 0, show: (from, to) => {
    list.start = from + 1;
    list.replaceChildren(...items.slice(from, to).map((item) => h("li", {}, render(item))));
  } });
  return h("div", { className: "pages" }, list, controls);
}

/**
 * Fills `list` with `render(item)` for each of `items`; more than LARGE_TURNS of them, a page of
 * LIST_PAGE at a time, the one holding item `at` first, with a pager after the list.
 */
export function fill(list, items, render, noun, at = 0) {
  list.pager?.remove();
  list.pager = null;
  list.removeAttribute("start");
  if (items.length <= LARGE_TURNS) return list.replaceChildren(...items.map(render));
  list.pager = pager({ count: items.length, size: LIST_PAGE, noun, page: Math.floor(Math.max(0, at) / LIST_PAGE), show: (from, to) => {
    list.start = from + 1;
    list.replaceChildren(...items.slice(from, to).map(render));
  } });
  list.after(list.pager);
}

/**
 * The numbers behind the sparklines, a page of TABLE_PAGE turns at a time (at first, the page
 * holding the current turn): fills `head` and `rows`, and returns the pager to show above them.
 */
export function numbersPage(state, head, rows) {
  const n = state.totalTurns;
  return pager({ count: n, size: TABLE_PAGE, noun: "turn", page: Math.floor(Math.max(0, state.turn - 1) / TABLE_PAGE), show: (from, to) => {
    const turns = Array.from({ length: to - from }, (_, i) => from + i);
    head.replaceChildren(h("th", { scope: "col" }, "policy"), ...turns.map((i) => h("th", { scope: "col" }, `turn ${i + 1}`)));
    rows.replaceChildren(...state.policies.map((row) => h("tr", {}, h("th", { scope: "row" }, row.info.name), ...turns.map((i) => {
      const [tokens, peak] = [row.series[i], row.peaks[i]];
      return h("td", { className: overSet(row).has(i + 1) ? "over" : "", attrs: { "data-label": `turn ${i + 1}` } }, peak > tokens ? `${peak} \u2192 ${tokens}` : String(tokens));
    }))));
  } });
}

/**
 * The facts table at length: for each policy how many of the facts its window names in a
 * sentence, as a bare term, has lost, or has not yet heard, and which it lost.
 */
export function factCounts(state, head, rows) {
  const NAMES = [["meaning", "named"], ["bareTerm", "bare term"], ["gone", "gone"], ["notYetSaid", "not yet said"]];
  head.replaceChildren(h("th", { scope: "col" }, "policy"), ...NAMES.map(([, label]) => h("th", { scope: "col" }, label)), h("th", { scope: "col" }, "lost"));
  rows.replaceChildren(...state.policies.map((row) => {
    const lost = state.facts.filter((_, i) => row.kept[i] === "gone");
    return h("tr", {}, h("th", { scope: "row" }, row.info.name),
      ...NAMES.map(([named, label]) => h("td", { className: named === "gone" && lost.length ? "named-gone" : "", attrs: { "data-label": label } },
        String(row.kept.filter((k) => k === named).length))),
      h("td", { attrs: { "data-label": "lost" } }, lost.length ? paged(lost, (fact) => fact, "fact") : "\u2013"));
  }));
}

/** A list of more than 12 turns for a sentence, shortened: "1,234 turns, from turn 4 to turn 9,980"; `null` for fewer. */
export function turnsSaid(turns) {
  if (turns.length <= 12) return null;
  return `${num(turns.length)} turns, from turn ${num(turns[0])} to turn ${num(turns.at(-1))}`;
}

/** One step of the turn slider with Page Up and Page Down: a tenth of the session, at least 1. */
export const pageStep = (total) => Math.max(1, Math.round(total / 10));

/** What the sparklines of a session of `n` turns draw, under the table. */
const SPARK_KEY = (n) => `${banded(n) ? "Each pixel a bar from the lowest to the highest window of its turns after the step" : "Line: the window after each step"}; grey above it: `
  + "the peaks, the new turn in before compacting. Dashed: the budget; red: over it. Faded: the future. "
  + "As the log sent it: the tokens sent at each reply; dotted: its own compactions; "
  + "long dashes: compact at %. Every policy's row has the same scale; the log's, its own.";

const LARGE = { SPARK_KEY, LARGE_TURNS, fill, policySparkline, realRow, realSummaries, numbersPage, factCounts, paged, turnsSaid };
