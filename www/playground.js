// <memory-playground>: the refund-desk session under seven compaction policies, ours and six
// others', side by side. Renders the state the Rust core's `Playground` hands it.
//
//   <script type="module" src="widgets.js"></script>
//   <memory-playground budget="40" hot="2"></memory-playground>

import { h, plural, listed, svg, num } from "./dom.js";
import { WithTables, ruleDetails } from "./tables.js";
import { MemoryWidget, define } from "./widget.js";
import { turnList, sessionModel, TOKEN_CHOICES, SESSION_CHOICES, countingPhrase } from "./session.js";
import { WithConversation } from "./conversation.js";

/** losses.js, once a reader has opened a policy's window. */
let losses = null;

const NUMBER_WORDS = ["No", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten"];
const countWord = (n) => NUMBER_WORDS[n] ?? String(n);

/**
 * What a row's window did up to the current turn, saying which moment each claim is about:
 * after the step (the window the model is sent) or at the peak (the new turn in, before any
 * compaction).
 */
function moments(row, say = turnList) {
  if (row.window.turn === 0) return "No turns yet.";
  const after = row.overSoFar;
  const peaks = row.window.crossings;
  const afterText = after.length
    ? `After the step: over budget on ${say(after)}.`
    : "After the step: within the budget at every turn so far.";
  const peakText = peaks.length
    ? `At the peak, with the new turn and before compacting: over on ${say(peaks)}.`
    : "At the peak: never over.";
  return `${afterText} ${peakText}`;
}

/**
 * The compactions that left the window no smaller, said under their count: a policy that ran
 * at its trigger and could not help (Letta's cut found nothing to evict), or whose new summary
 * weighs what it folded. The numbers table shows no drop for them.
 */
function noSmaller(row, say = turnList) {
  const turns = row.noSmaller;
  return turns.length === 0 ? "" : h("span", { className: "note" },
    `at ${say(turns)} it compacted, but the window came out no smaller than its peak`);
}

/**
 * The y range every sparkline shares, 0 to `yMax` tokens: a round ten above the budget and every
 * policy's highest peak, so that the budget line sits at one height in every row.
 */
function sharedMax(policies, budget) {
  // A loop: 10,000 turns of seven policies are too many arguments for Math.max.
  let most = budget;
  for (const row of policies) for (const peak of row.peaks) most = Math.max(most, peak);
  return Math.max(10, Math.ceil((most * 1.05) / 10) * 10);
}

/**
 * A sparkline of one policy's window up to the current turn: tokens after each step (the line),
 * each turn's peak before compaction (a hollow mark above its drop), the budget as a labelled
 * dashed line, the y range (0 to `yMax`, see sharedMax) on the left, and the turns still to come
 * faded and labelled "future".
 */
function sparkline(row, budget, turn, yMax) {
  // Room on the left for a four-digit top of the axis ("8400") at the ticks' size.
  const [w, hgt, left, right, top, bottom] = [320, 110, 38, 8, 10, 16];
  const n = row.series.length;
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
    svg("text", { x: left + 3, y: y(budget) - 3, class: "budget-label", "text-anchor": "start" }, `budget ${num(budget)}`),
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
        svg("circle", { cx: x(i), cy: y(peak), r: 2.4, class: row.window.crossings.includes(i + 1) ? "peak over" : "peak" }));
    }
    if (row.overTurns.includes(i + 1)) parts.push(svg("circle", { cx: x(i), cy: y(tokens), r: 2.4, class: "point over" }));
  });
  if (turn > 0) {
    const tokens = row.series[turn - 1];
    parts.push(svg("circle", { cx: x(turn - 1), cy: y(tokens), r: 3.4, class: row.window.overBudget ? "now over" : "now" }));
  }
  const label = turn === 0
    ? `${row.info.name}: no turns yet; the ${n} turns to come are drawn faded as the future. Budget ${num(budget)}, y axis 0 to ${num(yMax)} tokens.`
    : `${row.info.name}, turns 1 to ${turn}: window tokens after each step ${past.join(", ")}; peaks with each new turn, before compacting, ${row.peaks.slice(0, turn).join(", ")}. ` +
      `Budget ${num(budget)}, y axis 0 to ${num(yMax)} tokens.` +
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


/** Under a policy's rule, how compact at % changes it here; "" when it does not. */
const ruleNow = (info, state) => state.compactAt === null || info.trigger === null || info.trigger === state.compactAt ? ""
  : `With compact at % set, it compacts at ${state.compactAt}% of the budget, not ${info.trigger}%.`;

/**
 * One session (the refund desk, or a conversation of the page's or the reader's own) under seven
 * compaction policies, ours and six others, side by side, with a turn slider.
 *
 * @tagname memory-playground
 * @attr {number} [budget=40] - Token budget of every policy's window.
 * @attr {number} [hot=2] - Turns kept HOT and verbatim at a compaction.
 * @attr {"words" | "estimate"} [tokens="words"] - How turns are counted: a token a word (the
 *   seed's), or an estimate of a model's tokenizer (a quarter of a word's characters, rounded up;
 *   a Chinese, Japanese or Korean character one each).
 * @attr {number} [turn=0] - Opens after this many turns.
 * @attr {"refund-desk" | "airline"} [session="refund-desk"] - The built-in session played: the
 *   invented refund desk, or a real one, τ-bench's airline task 26 (at a budget of 250 unless
 *   `budget` is set). A `src` file is played in its place.
 * @attr {number} compact-at - Compact at this percent of the budget (1 to 100), every policy with
 *   a token trigger; by default each policy's own.
 * @attr {string} scenario - `#id` of a `<script type="application/json">` holding
 *   `{ "script": [turns] }`, played instead of the refund desk.
 * @attr {string} src - URL of a conversation file on the page's own origin (`Speaker: text`
 *   lines or chat messages as JSON), played instead of the refund desk.
 * @prop {number | null} budget - The `budget` attribute as a number; `null` when absent.
 * @prop {number | null} hot - The `hot` attribute as a number; `null` when absent.
 * @prop {number | null} turn - The `turn` attribute as a number; `null` when absent.
 * @attr {number} compact-to - Our policy's compactions bring the window down to this percent of
 *   the budget (1 to 100); by default the whole budget. The other policies keep their own.
 * @prop {number | null} compactAt - The `compact-at` attribute as a number; `null` when absent.
 * @prop {number | null} compactTo - The `compact-to` attribute as a number; `null` when absent.
 * @prop {{ script: TurnSpec[] } | TurnSpec[] | undefined} scenario - A custom script, in place of
 *   the `scenario` attribute.
 * @fires {CustomEvent<{ state: PlaygroundState }>} memory-step - The turn moved (the slider or the
 *   step buttons).
 */
class MemoryPlayground extends WithTables(WithConversation(MemoryWidget)) {
  static family = "playground";
  static observedAttributes = ["budget", "hot", "tokens", "turn", "compact-at", "compact-to", "session", "scenario", "src"];

  #open = null;
  /** The turn last asked of `model`: a playground in a worker (large.js) moves when it answers. */
  #asked = null;
  #at() {
    return this.#asked?.model === this.model ? this.#asked.turn : this.model.turn;
  }

  createModel({ fallback = false } = {}) {
    // A large log of a file plays in a worker (large.js): its class, else the core's.
    return fallback ? new this.core.Playground() : sessionModel(this, this.modelClass?.() ?? this.core.Playground, { "compact-at": "compactAt", "compact-to": "compactTo" });
  }

  /** What a knob change keeps: the turn every policy stands at. */
  progress() {
    return this.model.turn;
  }

  /** Replays every policy to `turn` under new settings, and says so. */
  replay(turn) {
    this.model.goTo(turn);
    const state = this.model.state();
    const trigger = state.compactAt === null ? "each policy's own trigger" : `compacting at ${state.compactAt}%`;
    return `Every policy replayed to turn ${state.turn} (budget ${num(state.budget)}, ${plural(state.policies[0]?.window.hotN ?? 0, "HOT turn")}, ${trigger}${countingPhrase(state.policies[0]?.window ?? {})}).`;
  }

  mount() {
    const state = this.model.state();
    const slider = h("input", {
      type: "range", id: "turn", min: 0, max: state.totalTurns, step: 1, value: state.turn,
      on: {
        input: (event) => this.goTo(Number(event.target.value)),
        // Page Up and Page Down: a tenth of the session, however long.
        keydown: (event) => {
          if (event.key !== "PageUp" && event.key !== "PageDown") return;
          event.preventDefault();
          const tenth = Math.max(1, Math.round(this.model.state().totalTurns / 10));
          this.goTo(this.#at() + (event.key === "PageUp" ? tenth : -tenth));
        },
      },
    });
    this.ui = {
      slider,
      back: h("button", { type: "button", on: { click: () => this.goTo(this.#at() - 1) } }, "Back one turn"),
      next: h("button", { type: "button", className: "primary", on: { click: () => this.goTo(this.#at() + 1) } }, "Forward one turn"),
      turnValue: h("span", { className: "t-value", attrs: { "aria-hidden": "true" } }),
      result: h("p", { className: "result" }),
      count: h("p", { className: "lede" }),
      caption: h("caption", {}),
      rows: h("tbody", { attrs: { role: "rowgroup" } }),
      factHead: h("tr"),
      factRows: h("tbody"),
      factsRule: h("p", { className: "note facts-rule" }),
      dataHead: h("tr"),
      dataRows: h("tbody"),
      sparkKey: h("p", { className: "note spark-key" },
        "Line: the window after each step, as the model is sent it. Hollow mark: the peak, the new turn in before compacting. Dashed: the budget; red: over it. Faded: the future. Every row has the same scale."),
      detail: h("section", { className: "policy-window", attrs: { "aria-label": "the window under the chosen policy" } }),
    };
    const ui = this.ui;
    this.frame.className = "widget playground";
    ui.result.textContent = this.result();
    this.body.replaceChildren(
      ui.result,
      ui.count,
      h("div", { className: "slider-row" }, h("label", { htmlFor: "turn" }, "turn"), slider, ui.turnValue),
      h("div", { className: "controls" }, ui.back, ui.next),
      h("table", { className: "policies", attrs: { role: "table" } },
        ui.caption,
        h("thead", { attrs: { role: "rowgroup" } }, h("tr", { attrs: { role: "row" } }, ...["policy", "window tokens per turn", "compactions", "tokens now"]
          .map((name) => h("th", { scope: "col", attrs: { role: "columnheader" } }, name)))),
        ui.rows),
      ui.sparkKey,
      ui.detail,
      h("table", { className: "facts cards" },
        h("caption", {}, "Facts the window still names"),
        h("thead", {}, ui.factHead),
        ui.factRows),
      ui.factsRule,
      h("details", {},
        h("summary", {}, "The sparklines as numbers"),
        h("table", { className: "data cards" },
          h("caption", {}, "Window tokens after each turn (peak \u2192 after the step where they differ)"),
          h("thead", {}, ui.dataHead), ui.dataRows)),
    );
    this.ensureKnobs([
      ["budget", "budget", { min: 1, step: 1 }],
      ["hot", "HOT turns", { min: 1, step: 1 }],
      ["compact-at", "compact at %", { min: 1, max: 100, step: 1, placeholder: "each policy's own" }],
      ["compact-to", "compact ours to %", { min: 1, max: 100, step: 1, placeholder: "100" }],
      ["tokens", "count tokens as", { choices: TOKEN_CHOICES }],
      ["session", "session", { choices: SESSION_CHOICES, loads: true }],
    ], { budget: 40, hot: 2, "compact-at": "", "compact-to": "", tokens: "words", session: "refund-desk" });
    this.ensureOwnPanel(false);
    this.render(state);
    this.announce(`Ready: ${plural(state.policies.length, "policy", "policies")} at turn ${state.turn} of ${num(state.totalTurns)}, budget ${num(state.budget)} tokens.`);
  }

  /** The comparison's result in one line, from a second model played to the end ("" on an error). */
  result() {
    // A playground in a worker (large.js) says how each policy ends once the worker knows.
    const state = this.model && "final" in this.model ? this.model.final : this.probeState((model) => model.goTo(model.state().totalTurns));
    if (!state) return "";
    const names = (rows) => listed(rows.map((i) => state.policies[i].info.name));
    const { within, whole, both } = state;
    const ends = within.length === 0 ? "no policy ends within the budget"
      : within.length === state.policies.length ? "every policy ends within the budget" : `${names(within)} end within the budget`;
    const keeps = whole.length === 0 ? "none still names every fact in full"
      : `${names(whole)} still name${whole.length === 1 ? "s" : ""} every fact in full`;
    const no = both.length === 0 ? "; no policy does both" : "";
    return `After all ${num(state.totalTurns)} turns, ${ends}; ${keeps}${no}.`;
  }

  goTo(turn) {
    if (!this.model) return;
    const state0 = this.model.state();
    const clamped = Math.max(0, Math.min(state0.totalTurns, turn));
    this.#asked = { model: this.model, turn: clamped };
    const moved = this.attempt(() => this.model.goTo(clamped));
    if (!moved.ok) return;
    // A playground in a worker (large.js) moves when the worker answers.
    if (moved.value?.then) {
      const model = this.model;
      moved.value.then(() => this.model === model && model.turn === clamped && this.goTo(clamped), (error) => this.fail(error));
      return;
    }
    const state = this.model.state();
    this.render(state);
    const over = state.over.map((i) => state.policies[i].info.name);
    this.announce(`Turn ${state.turn}: ${over.length ? `over budget after the step: ${over.join(", ")}` : "every policy within the budget after the step"}.`);
    this.emit("memory-step", { state });
  }

  /** Opens policy `id`'s window under the table, or closes it, and says which. */
  toggle(id) {
    this.#open = this.#open === id ? null : id;
    const state = this.model.state();
    this.render(state);
    const name = state.policies.find((row) => row.info.id === id)?.info.name ?? id;
    if (this.#open) {
      // The window opens in a row under the policy's own (see render); keep focus on the
      // policy's button (rebuilt by render) and bring the window into view under it.
      [...this.ui.rows.querySelectorAll(".policy-name")].find((b) => b.textContent === name)?.focus({ preventScroll: true });
      this.ui.detail.scrollIntoView({ block: "nearest" });
    }
    this.announce(this.#open ? `${name}: its window at turn ${state.turn} is shown under its row.` : `${name}: window closed.`);
  }

  render(state) {
    const ui = this.ui;
    ui.slider.value = state.turn;
    ui.slider.setAttribute("aria-valuetext", `turn ${state.turn} of ${state.totalTurns}`);
    ui.turnValue.textContent = `turn ${state.turn} of ${state.totalTurns}`;
    ui.back.disabled = state.turn === 0;
    ui.next.disabled = state.turn >= state.totalTurns;
    const knob = state.compactAt === null ? "" : ` Every policy with a token trigger compacts at ${state.compactAt}% of the budget (Knobs).`;
    ui.count.textContent = `${policyCount(state.policies)} Each replays the same ${num(state.totalTurns)} turns with a budget of ${num(state.budget)} tokens.${knob}`;
    this.showTriggers?.(state); // under the knobs, once they are open (triggers.js)
    ui.caption.textContent = `${countWord(state.policies.length)} compaction policies, one session`;

    // A long session (large.js, loaded with the panel for a reader's own) draws at most a point
    // a pixel and long lists in pages, beside the log's own curve.
    const large = this.large && state.totalTurns > this.large.LARGE_TURNS ? this.large : null;
    const say = large ? (turns) => large.turnsSaid(turns) ?? turnList(turns) : turnList;
    const yMax = sharedMax(state.policies, state.budget);
    if (large) ui.sparkKey.textContent = large.SPARK_KEY(state.totalTurns);
    ui.rows.replaceChildren(...state.policies.map((row) => {
      const over = row.window.overBudget;
      const { info } = row;
      return h("tr", { className: over ? "over" : "", attrs: { role: "row" } },
        h("th", { scope: "row", attrs: { role: "rowheader" } },
          h("button", {
            type: "button", className: "quiet policy-name",
            attrs: { "aria-expanded": String(this.#open === info.id), "aria-controls": "policy-window" },
            on: { click: () => this.toggle(info.id) },
          }, info.name),
          h("span", { className: "origin" }, `${info.origin} \u00b7 ${info.kind}`),
          ruleDetails(info, ruleNow(info, state))),
        h("td", { className: "chart", attrs: { role: "cell" } },
          large ? large.policySparkline(row, state.budget, state.turn, yMax) : sparkline(row, state.budget, state.turn, yMax),
          h("span", { className: "note moments" }, moments(row, say))),
        h("td", { className: "compactions", attrs: { role: "cell", "data-label": "compactions so far" } }, String(row.compactions),
          noSmaller(row, say)),
        h("td", { className: "tokens-now", attrs: { role: "cell", "data-label": "tokens now" } }, `${num(row.tokens)} / ${num(state.budget)}`,
          over ? h("span", { className: "verdict-over" }, " over budget") : ""));
    }));
    const real = this.large?.realRow(this, state);
    if (real) ui.rows.append(real);

    const NAMED = { meaning: ["\u2713", "meaning"], bareTerm: ["~", "bare term"], gone: ["\u2717", "gone"], notYetSaid: ["\u2013", "not yet said"] };
    if (large) large.factCounts(state, ui.factHead, ui.factRows);
    else {
      ui.factHead.replaceChildren(h("th", { scope: "col" }, "policy"), ...state.facts.map((fact) => h("th", { scope: "col" }, fact)));
      ui.factRows.replaceChildren(...state.policies.map((row) =>
        h("tr", {}, h("th", { scope: "row" }, row.info.name),
          ...row.kept.map((named, i) => h("td", { className: `named-${named}`, attrs: { "data-label": state.facts[i] } }, `${NAMED[named][0]} ${NAMED[named][1]}`)))));
    }
    const columns = state.factsFrom === "refundDesk" ? "" : ` ${state.factsChosen}`;
    ui.factsRule.textContent = `${state.factsRule}${columns}`;

    ui.dataPager?.remove();
    if (large) {
      ui.dataPager = large.numbersPage(state, ui.dataHead, ui.dataRows);
      ui.dataRows.closest("details").querySelector("summary").after(ui.dataPager);
    } else {
      const turns = state.policies[0]?.series.map((_, i) => i + 1) ?? [];
      ui.dataHead.replaceChildren(h("th", { scope: "col" }, "policy"), ...turns.map((t) => h("th", { scope: "col" }, `turn ${t}`)));
      ui.dataRows.replaceChildren(...state.policies.map((row) =>
        h("tr", {}, h("th", { scope: "row" }, row.info.name), ...row.series.map((tokens, i) =>
          h("td", { className: row.overTurns.includes(i + 1) ? "over" : "", attrs: { "data-label": `turn ${i + 1}` } }, row.peaks[i] > tokens ? `${num(row.peaks[i])} \u2192 ${num(tokens)}` : num(tokens))))));
    }

    const open = state.policies.find((row) => row.info.id === this.#open);
    ui.detail.id = "policy-window";
    ui.detail.hidden = !open;
    // An open window sits in a row right under its policy's, where the reader pressed, not past
    // the other policies (seven cards on a phone); closed, it waits hidden under the table.
    if (open) {
      const row = ui.rows.children[state.policies.indexOf(open)];
      row.after(h("tr", { className: "policy-detail", attrs: { role: "row" } },
        h("td", { attrs: { role: "cell", colspan: "4" } }, ui.detail)));
    } else if (ui.detail.parentElement !== this.body) {
      ui.sparkKey.after(ui.detail);
    }
    if (open) {
      const w = open.window;
      const from = (turns) => (large ? `from ${say(turns)}` : `from ${turns.length === 1 ? "turn" : "turns"} ${turns.join(", ")}`);
      const line = (tier, label, text, note) => h("li", { className: `tier-line ${tier}` }, h("strong", {}, `${label}: `), text, h("span", { className: "tokens" }, ` ${note}`));
      const verbatim = (t) => line("verbatim", `turn ${t.turn}`, t.text, plural(t.tokens, "token"));
      ui.detail.replaceChildren(...[
        h("h3", {}, `${open.info.name} at turn ${w.turn}: ${num(w.tokens)} of ${num(w.budget)} tokens`),
        h("ul", { className: "lines" },
          w.cold ? line("cold", "key terms", w.cold.text, from(w.cold.turns)) : null,
          ...w.warm.map((l) => line("warm", "summary", l.text, from(l.turns))),
          ...(large ? [] : w.hot.map(verbatim)),
          w.turn === 0 ? h("li", { className: "empty" }, "nothing yet") : null),
        large ? large.paged(w.hot, (t) => [...verbatim(t).childNodes], "verbatim turn", true) : null,
        w.overBudgetReason ? h("p", { className: "reason" }, w.overBudgetReason) : null,
        ...(losses ? losses.lossList(open.losses, large && ((items, render) => large.paged(items, render, "compaction", true)), turnList) : [h("p", { className: "note" }, "Loading\u2026")]),
        this.large?.realSummaries(this, w.turn),
      ].filter(Boolean));
      // What each compaction took: its own chunk, loaded when a reader first opens a policy.
      losses ?? import("./losses.js").then((module) => {
        losses = module;
        if (!this.model || !this.#open) return;
        // The rebuilt rows keep focus and the opened window in view, as toggle() does.
        const focused = this.shadowRoot.activeElement?.classList.contains("policy-name");
        this.render(this.model.state());
        if (focused) this.ui.rows.querySelector("[aria-expanded=true]")?.focus({ preventScroll: true });
      }, (error) => this.fail(new Error(`The window's losses could not load: ${error?.message ?? error}`)));
    }
  }
}

define("memory-playground", MemoryPlayground, { budget: "budget", hot: "hot", turn: "turn", compactAt: "compact-at", compactTo: "compact-to" });
