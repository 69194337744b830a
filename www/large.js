// Real sessions at real size: a log file of megabytes, imported and replayed in a Web Worker
// (import-worker.js) with a progress bar, and the playground drawn so that it stays readable at
// 10,000 turns (sparklines at most a point per pixel, long lists in pages), with the log's own
// token curve and compactions beside the seven policies. Loaded with own.js, when a reader opens
// the panel for their own conversation or a page reads a `src` file: a page whose readers never
// do downloads none of it. Draws what the core gives; it decides nothing.

import { h, plural, svg, adoptMoreStyles } from "./widget.js";
import { coreFor, own } from "./cores.js";

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

// One formatter: toLocaleString builds one each call, which costs a long log's drawing tens of ms.
const NUMBER = new Intl.NumberFormat("en-US");
const number = (n) => NUMBER.format(n);
const megabytes = (bytes) => `${(bytes / 1_000_000).toFixed(1)} MB`;

/** The element's link to its worker: one worker an element, made when a file is first picked. */
class Link {
  #worker;
  #calls = new Map();
  #next = 0;
  constructor() {
    this.#worker = new Worker(new URL("./import-worker.js", import.meta.url), { type: "module", name: "agent-memory-widgets import" });
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
  #link;
  #handle;
  #state;
  #want;
  #moving = null;
  constructor(link, { model, state, final = null }) {
    this.#link = link;
    this.#handle = model;
    this.#state = state;
    this.#want = state.turn;
    this.final = final;
    // The whole run's series and peaks come once; a later state leaves them out.
    this.runs = state.policies.map((row) => ({ series: row.series, peaks: row.peaks }));
  }

  state() {
    return this.#state;
  }

  get turn() {
    return this.#state.turn;
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

  /** The worker's playground is freed when the element's cache lets it go (prepared, below). */
  free() {}

  release() {
    this.#link.call("free", { model: this.#handle }).catch(() => {});
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
  const names = el.constructor.observedAttributes;
  const before = names.map((name) => [name, el.getAttribute(name)]);
  const conversation = el.conversation;
  let read = null;
  let problem = null;
  el.quietly(() => {
    try {
      change();
      if (playsRemotely(el)) read = optionsNow(el);
    } catch (error) {
      problem = String(error?.message ?? error);
    } finally {
      for (const [name, value] of before) {
        if (value === null) el.removeAttribute(name);
        else el.setAttribute(name, value);
      }
      el.conversation = conversation;
    }
  });
  if (problem !== null || read === null) return null; // createModel says what is wrong, as before
  const { link, scripts } = el.remote;
  try {
    if (!scripts.has(read.script)) scripts.set(read.script, await link.call("script", { turns: read.script }));
    const handle = scripts.get(read.script);
    const key = keyOf(read.options, handle, turn ?? 0);
    if (el.remote.prepared.some((entry) => entry.key === key)) return null;
    const made = await link.call("playground", { script: handle, options: read.options, turn: turn ?? 0 }, { progress: report ?? el.remote.report });
    const entry = { key, options: read.options, handle, made };
    el.remote.prepared.unshift(entry);
    // Two kept: the model shown and the one about to replace it.
    for (const gone of el.remote.prepared.splice(2)) new RemotePlayground(link, gone.made).release();
    // The build and its drawing in a task of their own, not the one that read the answer.
    await new Promise((done) => setTimeout(done, 0));
    return null;
  } catch (error) {
    return String(error?.message ?? error);
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
      if (!entry) {
        // Settings an author changed on the element itself: replayed now, then built again.
        prepare(el, () => {}, el.model?.turn ?? 0).then(() => el.isConnected && el.rebuild());
        throw new Error(`Replaying the log's ${number(script.length)} turns under the new settings\u2026`);
      }
      const model = new RemotePlayground(el.remote.link, entry.made);
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

/** The phases of an import as the bar shows them: reading the file is the first half. */
function showProgress(el, name, { phase, done, total }) {
  const ui = progressBar(el);
  ui.progressBox.hidden = false;
  const [value, text] = {
    read: [0.5 * (done / Math.max(1, total)), `Reading ${name}: ${megabytes(done ?? 0)} of ${megabytes(total ?? 0)}`],
    parse: [0.55, `Reading the log's records`],
    replay: [0.75, "Replaying the seven policies"],
    draw: [0.95, "Drawing"],
  }[phase];
  ui.progress.value = value;
  ui.progress.setAttribute("aria-valuetext", text);
  ui.progressText.textContent = text;
}

/**
 * Imports the file the reader chose in the worker, with the progress bar, and hands what it read
 * to `use` (own.js: it becomes the element's conversation); a large one replays there too.
 * Resolves to `false` when the page cannot run the worker (the one-file bundle, or a policy that
 * refuses it): own.js then imports it as before.
 */
export async function importFile(el, file, use) {
  if (!HAS_WORKER_FILE || typeof Worker !== "function") return false;
  const state = remote(el);
  try {
    state.link ??= new Link();
  } catch {
    return false;
  }
  attach(el);
  const report = (progress) => showProgress(el, file.name, progress);
  report({ phase: "read", done: 0, total: file.size });
  const turns = [];
  let result;
  try {
    result = await state.link.call("import", { core: coreFor([own(el.constructor.family)]), file }, {
      progress: report,
      turns: (part) => turns.push(...part),
    });
  } catch (error) {
    el.ownUi.progressBox.hidden = true;
    if (state.link.broken) {
      state.link.terminate();
      state.link = null;
      return false;
    }
    el.fail(error);
    return true;
  }
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

/**
 * A sparkline of a long series (`series(i)` and `peaks(i)` for turn i + 1 of `n`): per pixel,
 * the lowest and highest window after the step (a bar), the highest peak above it (a thin bar),
 * red where over the budget; the turns to come faded; `marks`, turns where something happened
 * (the log's own compactions), as ticks on the axis; `trigger`, a second dashed line.
 */
export function longSparkline({ n, series, peaks = () => null, budget, turn, yMax, label, marks = [], trigger = null }) {
  const [w, hgt, left, right, top, bottom] = [320, 110, 30, 8, 10, 16];
  const plot = w - left - right;
  const x = (i) => left + (n <= 1 ? 0 : (i / (n - 1)) * plot);
  const y = (tokens) => hgt - bottom - (Math.min(tokens, yMax) / yMax) * (hgt - top - bottom);
  const f = (v) => v.toFixed(1);
  const parts = [
    svg("line", { x1: left, x2: left, y1: y(0), y2: y(yMax), class: "axis" }),
    svg("line", { x1: left, x2: w - right, y1: y(0), y2: y(0), class: "axis" }),
    svg("text", { x: left - 3, y: y(yMax) + 3, class: "tick", "text-anchor": "end" }, short(yMax)),
    svg("text", { x: left - 3, y: y(0) + 3, class: "tick", "text-anchor": "end" }, "0"),
    svg("text", { x: x(0), y: hgt - 2, class: "tick", "text-anchor": "start" }, "turn 1"),
    svg("text", { x: x(n - 1), y: hgt - 2, class: "tick", "text-anchor": "end" }, number(n)),
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
  if (n <= plot) {
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
  bars(0, turn, (i) => (series(i) > budget ? series(i) : null), "over bars");
  for (const mark of marks) {
    parts.push(svg("line", { x1: x(mark - 1), x2: x(mark - 1), y1: y(0) + 4, y2: y(yMax), class: mark <= turn ? "log-mark" : "log-mark future-mark" }));
  }
  if (turn > 0 && series(turn - 1) !== null) {
    parts.push(svg("circle", { cx: x(turn - 1), cy: y(series(turn - 1)), r: 3.4, class: series(turn - 1) > budget ? "now over" : "now" }));
  }
  return svg("svg", { viewBox: `0 0 ${w} ${hgt}`, width: w, height: hgt, role: "img", "aria-label": label, class: "spark long" }, ...parts);
}

/** 155000 as "155K", 200000 as "200K", 40 as "40": for an axis. */
export function short(n) {
  if (n >= 10_000) return `${Number((n / 1000).toFixed(n >= 100_000 ? 0 : 1))}K`;
  return String(n);
}

/** A long policy row's sparkline, and its label: a summary, not every number. */
export function policySparkline(row, budget, turn, yMax, realMarks) {
  const n = row.series.length;
  const [low, high] = lowHigh(row.series.slice(0, turn));
  const label = turn === 0
    ? `${row.info.name}: no turns yet of ${number(n)}. Budget ${number(budget)}, y axis 0 to ${number(yMax)} tokens.`
    : `${row.info.name}, turns 1 to ${number(turn)} of ${number(n)}, each pixel the lowest and highest window of its turns: after each step from ${number(low)} to ${number(high)} tokens, ${number(row.series[turn - 1])} now; the highest peak before compacting ${number(highest(row.peaks.slice(0, turn)))}. Budget ${number(budget)}, y axis 0 to ${number(yMax)} tokens.`;
  return longSparkline({
    n, series: (i) => row.series[i], peaks: (i) => row.peaks[i], budget, turn, yMax, label,
    marks: realMarks,
  });
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

/** The y range every row shares, with the log's own curve in it too. */
export function yMaxWith(el, yMax) {
  const log = realLog(el);
  if (!log) return yMax;
  const most = highest(log.sentTokens.map((s) => s.tokens), highest(log.compactions.map((c) => c.preTokens ?? 0)));
  return Math.max(yMax, Math.ceil((most * 1.05) / 10) * 10);
}

/**
 * The row of the log's own session under the policies: the tokens its agent really sent each
 * turn, its own compactions marked, and the trigger the knobs set, for the reader to see whether
 * the agent compacted where its cited trigger says.
 */
export function realRow(el, state, yMax) {
  const log = realLog(el);
  if (!log) return null;
  const n = state.totalTurns;
  const tokens = sentByTurn(log, n);
  const turn = state.turn;
  const done = log.compactions.filter((c) => c.turn <= turn);
  let now = null;
  for (let i = Math.min(turn, n) - 1; i >= 0 && now === null; i--) now = tokens[i];
  const trigger = state.compactAt === null ? null : Math.floor((state.budget * state.compactAt) / 100);
  const cited = log.compactions.map((c) => `after turn ${number(c.turn)}${c.preTokens ? ` at ${number(c.preTokens)} tokens` : ""}`);
  const label = `${log.formatName}, as its log records it: the tokens sent each turn, ${tokens.filter((t) => t !== null).length} turns with a count; `
    + (log.compactions.length ? `its own compactions ${cited.join(", ")}.` : "no compaction of its own.")
    + ` Budget ${number(state.budget)}${trigger === null ? "" : `, compact at ${state.compactAt}% (${number(trigger)})`}.`;
  const spark = longSparkline({
    n, series: (i) => tokens[i], budget: state.budget, turn, yMax, label, trigger,
    marks: log.compactions.map((c) => c.turn + 1),
  });
  const where = log.compactions.length === 0 ? "It never compacted."
    : `It compacted ${plural(log.compactions.length, "time")} (dotted): ${cited.join("; ")}.`;
  const crossed = trigger === null ? "" : ` With compact at ${state.compactAt}% of ${number(state.budget)}, the trigger is ${number(trigger)} tokens.`;
  return h("tr", { className: "real-log", attrs: { role: "row" } },
    h("th", { scope: "row", attrs: { role: "rowheader" } }, h("span", { className: "policy-name" }, "As the log sent it"),
      h("span", { className: "origin" }, `${log.formatName} \u00b7 the agent's own`)),
    h("td", { className: "chart", attrs: { role: "cell" } }, spark, h("span", { className: "note moments" }, `${where}${crossed}`)),
    h("td", { className: "compactions", attrs: { role: "cell", "data-label": "compactions so far" } }, String(done.length)),
    h("td", { className: "tokens-now", attrs: { role: "cell", "data-label": "tokens sent now" } }, now === null ? "\u2013" : `${number(now)} / ${number(state.budget)}`));
}

/** The log's own compactions up to `turn`, each with its summary: beside a policy's window. */
export function realSummaries(el, turn) {
  const log = realLog(el);
  if (!log) return null;
  const done = log.compactions.filter((c) => c.turn <= turn);
  if (done.length === 0) return h("p", { className: "note" }, `The log's own compactions: none by turn ${number(turn)}.`);
  return h("div", { className: "real-summaries" },
    h("h4", {}, `Beside it, the log's own ${done.length === 1 ? "compaction" : `${done.length} compactions`} so far`),
    paged(done, (c) => h("details", {},
      h("summary", {}, `After turn ${number(c.turn)}: ${c.trigger ?? "compacted"}${c.preTokens ? `, ${number(c.preTokens)} tokens` : ""}${c.postTokens ? ` \u2192 ${number(c.postTokens)}` : ""}`),
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
    said.textContent = `${noun}s ${number(from + 1)} to ${number(end)} of ${number(count)}`;
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
      return h("td", { className: tokens > state.budget ? "over" : "", attrs: { "data-label": `turn ${i + 1}` } }, peak > tokens ? `${peak} \u2192 ${tokens}` : String(tokens));
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
  return `${number(turns.length)} turns, from turn ${number(turns[0])} to turn ${number(turns.at(-1))}`;
}

/** One step of the turn slider with Page Up and Page Down: a tenth of the session, at least 1. */
export const pageStep = (total) => Math.max(1, Math.round(total / 10));

/** What the sparklines of a long session draw, under the table. */
const SPARK_KEY = "Each pixel a bar from the lowest to the highest window of its turns after the step; grey above it: "
  + "the peaks, the new turn in before compacting. Dashed: the budget; red: over it. Faded: the future. "
  + "As the log sent it: the tokens its agent was really sent at each reply; dotted: where it compacted itself; "
  + "long dashes: compact at the knob's %. Every row has the same scale.";

const LARGE = { SPARK_KEY, LARGE_TURNS, fill, policySparkline, realRow, realSummaries, yMaxWith, numbersPage, factCounts, paged, turnsSaid };
