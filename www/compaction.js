// <memory-compaction>: a support session at a refund desk, turn by turn, with its window, tiers
// and step log. Renders the state the Rust core's `Session` hands it; holds no policy logic.
//
//   <script type="module" src="widgets.js"></script>
//   <memory-compaction budget="40" hot="2"></memory-compaction>

import { h, plural, num } from "./dom.js";
import { MemoryWidget, define, hasLinkState } from "./widget.js";
import { turnList, sessionModel, TOKEN_CHOICES, SESSION_CHOICES, countingPhrase } from "./session.js";
import { WithConversation } from "./conversation.js";
// What an element with the seed's settings opens with, `{ state, crossings }`, computed by the
// build with the compaction core (tools/opening.mjs; every core answers alike), so that the
// element can paint it while its core downloads.
import { OPENING } from "./opening.js";

/**
 * A support session played turn by turn (the refund desk, or a conversation of the page's or the
 * reader's own): the live window against its token budget, its HOT, WARM and COLD tiers, what
 * was dropped, and a log of steps.
 *
 * @tagname memory-compaction
 * @attr {number} [budget=40] - Token budget of the window.
 * @attr {number} [hot=2] - Turns kept HOT and verbatim at a compaction.
 * @attr {"words" | "estimate"} [tokens="words"] - How turns are counted: a token a word (the
 *   seed's), or an estimate of a model's tokenizer (a quarter of a word's characters, rounded up;
 *   a Chinese, Japanese or Korean character one each).
 * @attr {number} [turn=0] - Opens after this many turns.
 * @attr {"refund-desk" | "airline"} [session="refund-desk"] - The built-in session played: the
 *   invented refund desk, or a real one, τ-bench's airline task 26 (at a budget of 250 unless
 *   `budget` is set). A `src` file is played in its place.
 * @attr {string} scenario - `#id` of a `<script type="application/json">` holding
 *   `{ "script": [turns] }`, played instead of the refund desk.
 * @attr {string} src - URL of a conversation file on the page's own origin (`Speaker: text`
 *   lines or chat messages as JSON), played instead of the refund desk.
 * @prop {number | null} budget - The `budget` attribute as a number; `null` when absent.
 * @prop {number | null} hot - The `hot` attribute as a number; `null` when absent.
 * @prop {number | null} turn - The `turn` attribute as a number; `null` when absent.
 * @prop {{ script: TurnSpec[] } | TurnSpec[] | undefined} scenario - A custom script, in place of
 *   the `scenario` attribute.
 * @fires {CustomEvent<{ step: Step | null; state: SessionState }>} memory-step - A turn added, a
 *   step back or a reset: `step` is the step that left the window as it is, `null` at turn 0.
 * @attr {boolean} guided - Guided mode: before turn 4 and after turn 8 of the refund desk, the
 *   widget asks the reader to predict the next step, runs it, and says whether they were right.
 * @prop {{ [question: string]: { answer: string; right: boolean } }} answers - The reader's answers in
 *   guided mode, by question (`over`, `where`); kept in the link.
 * @fires {CustomEvent<{ step: Step; state: SessionState }>} memory-compact - The turn just added
 *   was compacted (after its `memory-step`).
 * @fires {CustomEvent<{ question: string; answer: string; right: boolean; verdict: string; state: SessionState }>} memory-guess -
 *   The reader answered a guided question; the step ran, and `verdict` says what happened.
 */
class MemoryCompaction extends WithConversation(MemoryWidget) {
  static family = "compaction";
  static observedAttributes = ["budget", "hot", "tokens", "turn", "session", "scenario", "src", "guided"];

  /** The run's crossings as the settings sentence last said them (see `settingsSentence`). */
  #crossings = null;

  createModel({ fallback = false } = {}) {
    return fallback ? new this.core.Session() : sessionModel(this, this.core.Session);
  }

  /**
   * Whether this element opens in the state the build knows, and so can paint it before its core
   * arrives: it has no attributes that change its state, no scenario or conversation, and no
   * link's state.
   */
  canPreview() {
    // `guided` changes no state: the guide's panel comes once the core is in.
    const own = this.constructor.observedAttributes.some((name) => name !== "guided" && this.hasAttribute(name));
    return !own && this._scenario === undefined && !this.conversation && !hasLinkState(this);
  }

  /** Paints the opening state; its controls stay inert until the core is in and takes it over. */
  preview() {
    this.mount(OPENING);
    if (this.id) this.ensureShare();
  }

  /**
   * Shows the model in the preview's widget. What `mount()` builds does not depend on the
   * settings or the state; only what `#show` does with them, the knobs' values among them.
   */
  adoptPreview() {
    this.#show(this.model.state());
  }

  /** Builds the widget around the model's state, or (from `preview`) the build's `opening`. */
  mount(opening = null) {
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
      h("p", { className: "meter-label" }, ui.meterText, " ", ui.verdict),
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
          "rolling summary of decisions and tool outputs (and questions): one line for each older one; chatter is dropped"), ui.warm),
        tier("cold", h("p", { className: "caption" },
          "one lossy line: only the key terms of the oldest warm lines, words that start with a capital letter or contain a digit: names, IDs and amounts, and a sentence's first word too; it holds at most 12 terms, and past that the least recently mentioned fall off"), ui.cold)),
      h("div", { className: "record" },
        h("section", { className: "dropped", attrs: { "aria-label": "dropped" } },
          h("h4", {}, "Dropped chatter"), ui.dropped),
        h("section", { className: "log", attrs: { "aria-label": "steps" } },
          h("h4", {}, "Steps"), ui.log)),
      h("section", { className: "transcript", attrs: { "aria-label": "transcript" } },
        h("h4", {}, "Transcript"),
        h("p", { className: "caption" }, "Every turn so far and where it lives now (faded: gone to COLD, none of its terms left there). Focus or hover a WARM or COLD line to light up its turns."),
        ui.transcript),
    );
    this.#show(opening?.state ?? this.model.state(), opening);
  }

  /** Renders `state` into the built widget, the model's or a preview's `opening`, with its knobs. */
  #show(state, opening = null) {
    this.ensureKnobs([
      ["budget", "budget", { min: 1, step: 1 }],
      ["hot", "HOT turns", { min: 1, step: 1 }],
      ["tokens", "count tokens as", { choices: TOKEN_CHOICES, note: true }],
      ["session", "session", { choices: SESSION_CHOICES, note: true, loads: true }],
    ], { budget: 40, hot: 2, tokens: "words", session: "refund-desk" });
    this.ensureOwnPanel(true);
    if (!opening) this.opened ??= [state.budget, state.hotN, state.counting]; // a preview's are the seed's
    this.ui.settingsNote.textContent = this.settingsSentence(state, opening?.crossings);
    this.render(state);
    if (opening) return; // the model announces itself, once it is in
    this.announce(state.turn === 0
      ? `Ready: ${num(state.totalTurns)} turns, budget ${num(state.budget)} tokens.`
      : `Opened after turn ${state.turn}: ${num(state.tokens)} of ${num(state.budget)} tokens.`);
  }

  /** What a knob change keeps: the turn the reader is at. */
  progress() {
    return this.model.state().turn;
  }

  /** Replays to `turn` under new settings, and says so. */
  replay(turn) {
    this.model.goTo(turn);
    const state = this.model.state();
    return `Replayed to turn ${state.turn}: ${num(state.tokens)} of ${num(state.budget)} tokens, ${said(state)}.`;
  }

  /** The turns the whole run under these settings crosses the budget on (`null` on an error, shown). */
  runCrossings(state) {
    return this.probeState((model) => model.goTo(state.totalTurns))?.crossings ?? null;
  }

  /**
   * Where this run crosses the budget, from a second model played to the end; and, when the
   * reader turned the knobs, that the text around the widget describes the opening settings.
   */
  settingsSentence(state, crossings = this.runCrossings(state)) {
    this.#crossings = crossings; // they change only with a rebuild, which computes them again
    if (!crossings) return "";
    const where = this.#guessing(state) ? "crosses the budget on turns not told yet: a question above the meter asks about turn 4 first"
      : crossings.length === 0 ? "never crosses the budget" : `crosses the budget on ${turnList(crossings)}`;
    const now = `With a budget of ${num(state.budget)} tokens and ${plural(state.hotN, "HOT turn")}${countingPhrase(state)}, the window ${where}.`;
    const [budget, hotN, counting] = this.opened ?? [state.budget, state.hotN, state.counting];
    const story = this.sourceConversation || this.getAttribute("scenario") || this.scenario || this.sessionData() ? "the conversation it opened with" : "the refund desk";
    const yours = this.conversation && this.conversation !== this.sourceConversation ? ` This is your conversation: the text around this widget tells ${story}.` : "";
    return budget === state.budget && hotN === state.hotN && counting === state.counting ? `${now}${yours}`
      : `${now} The text around this widget describes the settings it opened with: a budget of ${num(budget)} and ${plural(hotN, "HOT turn")}${countingPhrase({ counting })}.${yours}`;
  }

  /** Whether the guide has yet to ask about turn 4: until then the crossings stay unsaid. */
  #guessing(state) {
    return this.hasAttribute("guided") && this.guidesStory() && !("over" in this.answers) && state.turn < 4;
  }

  addTurn() {
    if (!this.model) return;
    const { ok, value: step } = this.attempt(() => this.model.addTurn());
    if (!ok || !step) return;
    const state = this.model.state();
    this.emit("memory-step", { step, state });
    if (step.compacted) this.emit("memory-compact", { step, state });
    this.announce(describeStep(step, state));
    this.render(state);
    return step;
  }

  /**
   * Turn `turn` of this run as adding it would leave it, from a second model: `{ turn, step }`,
   * the turn as HOT holds it and its step (`null` on an error, shown). The guide asks about it.
   */
  probe(turn) {
    const state = this.probeState((model) => model.goTo(turn));
    return state && { turn: state.hot.at(-1), step: state.log.at(-1) };
  }

  /** Whether this widget tells the story the guide asks about: the refund desk. */
  guidesStory() {
    return !this.sourceConversation && !this.getAttribute("scenario") && !this.scenario && !this.conversation && !this.sessionData();
  }

  /** Goes back one turn: the session is a function of how many turns were added. */
  stepBack() {
    if (!this.model) return;
    const turn = this.model.state().turn;
    if (turn === 0) return;
    this.model.goTo(turn - 1);
    const state = this.model.state();
    this.render(state);
    this.announce(`Back to turn ${state.turn}: ${num(state.tokens)} of ${num(state.budget)} tokens.`);
    this.emit("memory-step", { step: state.log.at(-1) ?? null, state });
  }

  reset() {
    if (!this.model) return;
    this.model.reset();
    const state = this.model.state();
    this.render(state);
    this.announce(`Reset: back to turn 0 of ${num(state.totalTurns)}.`);
    this.emit("memory-step", { step: null, state });
  }

  /**
   * The meter: the window the model sees now against the budget, with the core's verdict. A
   * crossing's peak is told beside it, in the crossing note, never flashed on the meter, so that
   * a glance at any moment reads the window as it is.
   */
  showMeter(state) {
    const { tokens, budget } = state;
    const ui = this.ui;
    const verdict = said(state);
    ui.meterBox.classList.toggle("over", state.overBudget);
    ui.meterText.textContent = `live window ${num(tokens)} / ${num(budget)} tokens`;
    ui.verdict.textContent = verdict;
    ui.meter.max = budget;
    ui.meter.value = tokens; // a <meter> shows a value past its max as full
    ui.meter.setAttribute("aria-valuetext", `${num(tokens)} of ${num(budget)} tokens, ${verdict}`);
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
   * Renders `state`. The meter shows the window the model sees now; the crossing note tells the
   * last step's crossing, its peak and the headroom it left.
   */
  render(state) {
    const ui = this.ui;
    const last = state.log.at(-1);
    this.showMeter(state);
    ui.crossingNote.textContent = last?.crossed ? crossingStory(last, state) : "";
    ui.crossingNote.hidden = !last?.crossed;
    ui.reason.textContent = state.overBudgetReason ?? "";
    ui.reason.hidden = !state.overBudgetReason;

    ui.hotCaption.textContent = `verbatim turns: each new turn joins them, and a compaction keeps only the last ${plural(state.hotN, "turn")}`;
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
    // A long session (large.js, with the panel for a reader's own) lists these in pages.
    const fill = this.large?.fill ?? ((list, items, render) => list.replaceChildren(...items.map(render)));
    fill(ui.transcript, state.transcript, (turn) => {
      const item = h("li", { className: `place-${turn.place}` },
        h("span", { className: "who" }, `turn ${turn.turn} \u00b7 ${turn.speaker} \u00b7 ${turn.kind}`),
        h("span", { className: "text" }, turn.text),
        turn.summary === null ? null : h("span", { className: "summary" },
          turn.summaryByRule ? "summary by the first-sentence rule: " : "summary written with the turn: ", turn.summary),
        h("span", { className: "place" }, turn.place));
      item.dataset.turn = turn.turn;
      return item;
    }, "turn", state.turn - 1);
    ui.dropped.replaceChildren(...state.dropped.map((d) =>
      h("li", {}, h("span", { className: "visually-hidden" }, "dropped: "), h("s", {}, d.text), "\u00a0", h("span", { className: "nowrap" }, `(turn ${d.turn})`))));
    if (state.dropped.length === 0) ui.dropped.append(h("li", { className: "empty" }, "nothing dropped yet"));
    fill(ui.log, state.log, (step) =>
      h("li", { className: step.crossed ? "crossed" : "" },
        h("span", { className: "line" }, logLine(step, state.budget)),
        h("span", { className: "diff" }, stepDiff(step))), "step", state.log.length - 1);

    ui.addButton.disabled = state.done;
    ui.backButton.disabled = state.turn === 0;
    ui.doneNote.textContent = state.done
      ? `All ${num(state.totalTurns)} turns are in: the script is finished. Reset starts over, or type a turn of your own.`
      : `Turn ${state.turn} of ${num(state.totalTurns)}.`;
    // In guided mode the settings sentence keeps the crossings back until turn 4 is guessed.
    if (this.hasAttribute("guided") && this.opened) ui.settingsNote.textContent = this.settingsSentence(state, this.#crossings);
    this.ensureGuide(state);
  }
}

/** `turn 4`, `turns 2, 3, 4`. */
const turnsWord = (turns) => `${turns.length === 1 ? "turn" : "turns"} ${turns.join(", ")}`;

/**
 * What a step moved, tier by tier, by turn number, and the window's tokens before it, at its
 * peak (when COMPACT changed it) and after it:
 * `HOT + turn 4 · WARM + turn 2 · dropped turn 1 · tokens 29 → peak 41 → 30`.
 */
function stepDiff(step) {
  const parts = [`HOT + turn ${step.turn}`];
  if (step.toWarm.length) parts.push(`WARM + ${turnsWord(step.toWarm)}`);
  if (step.toCold.length) parts.push(`COLD + ${turnsWord(step.toCold)}`);
  if (step.dropped.length) parts.push(`dropped ${turnsWord(step.dropped)}`);
  const peak = step.peakTokens === step.tokensAfter ? "" : `peak ${num(step.peakTokens)} \u2192 `;
  parts.push(`tokens ${num(step.tokensBefore)} \u2192 ${peak}${num(step.tokensAfter)}`);
  return parts.join(" \u00b7 ");
}

/**
 * `over budget`, `at budget` (exactly full, which is not over) or `under budget`: a state's or a
 * step's window as the core judged it (over the budget, or with no room left).
 */
const said = (window) => window.overBudget ? "over budget" : window.room === 0 ? "at budget" : "under budget";

/** `10 tokens of headroom`, or `no headroom` at the budget: the room the core says a step left. */
const headroom = (step) => step.room === 0 ? "no headroom" : `${plural(step.room, "token")} of headroom`;

/**
 * One line of the step log, e.g.
 * `turn 4: 41 / 40 over budget → COMPACT → 30 / 40, 1 turn to WARM, 1 dropped; 10 tokens of headroom`.
 */
function logLine(step, budget) {
  const room = step.overBudget ? " (still over budget)" : `; ${headroom(step)}`;
  if (!step.crossed && !step.compacted) return `turn ${step.turn}: ${num(step.tokensAfter)} / ${num(budget)}${room}`;
  const moved = [
    step.toWarm.length && `${plural(step.toWarm.length, "turn")} to WARM`,
    step.toCold.length && `${step.toCold.length} WARM to COLD`,
    step.dropped.length && `${step.dropped.length} dropped`,
  ].filter(Boolean);
  const head = step.crossed ? `${num(step.peakTokens)} / ${num(budget)} over budget \u2192 ` : "";
  return `turn ${step.turn}: ${head}COMPACT \u2192 ${num(step.tokensAfter)} / ${num(budget)}${moved.length ? ", " + moved.join(", ") : ""}${room}`;
}

/** The crossing note: what the last step's crossing did, and how close the next one is. */
function crossingStory(step, state) {
  const { budget } = state;
  const went = `Turn ${step.turn} took the window to ${num(step.peakTokens)} tokens, over the budget of ${num(budget)}.`;
  if (step.noSmaller) return `${went} COMPACT found nothing it could fold or drop, so it stays over budget.`;
  if (step.overBudget) return `${went} COMPACT could only bring it down to ${num(step.tokensAfter)}, still over budget.`;
  const next = state.done ? "" : step.room === 0 ? ": any next turn crosses again"
    : `: the next turn crosses again if it is longer than ${plural(step.room, "token")}`;
  return `${went} COMPACT brought it back to ${num(step.tokensAfter)}, leaving ${headroom(step)}${next}.`;
}

/** The live-region sentence for a step. */
function describeStep(step, state) {
  const done = state.done ? " The script is finished." : "";
  if (step.crossed && step.compacted) {
    const still = step.overBudget ? ", still over budget" : "";
    return `Turn ${step.turn}: over budget at ${num(step.peakTokens)} tokens, compacted to ${num(step.tokensAfter)} of ${num(state.budget)} tokens${still}.${done}`;
  }
  return `Turn ${step.turn}: ${num(step.tokensAfter)} of ${num(state.budget)} tokens, ${said(step)}.${done}`;
}

define("memory-compaction", MemoryCompaction, { budget: "budget", hot: "hot", turn: "turn" });
