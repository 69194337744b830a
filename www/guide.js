// Guided mode, "predict, then see" (the `guided` attribute): before a step that teaches the
// widget's idea, the widget asks the reader to predict what it will do. The reader's answer runs
// the step, and a verdict computed from the state the step left says whether they were right,
// and why. Loaded only by an element with `guided`; it holds no policy logic, only questions
// about the state the core hands the widget.

import { h, plural, quote, num, listed, adoptMoreStyles } from "./dom.js";

/** The term the compaction widget's second question follows through a compaction. */
const AMOUNT = "$180.00";

/** Where `term` lives in a compaction state: `[tier, where]` pairs, HOT first. */
function placesOf(state, term) {
  const places = [];
  const hot = state.hot.filter((turn) => turn.text.includes(term));
  if (hot.length) places.push(["HOT", `in HOT, verbatim in ${hot.map((turn) => `turn ${turn.turn}`).join(" and ")}`]);
  const warm = state.warm.filter((line) => line.text.includes(term));
  const lines = warm.map((line) => quote(line.text.replace(/\.$/, "")));
  if (warm.length) places.push(["WARM", `in WARM, in the summary ${warm.length === 1 ? "line" : "lines"} ${listed(lines)}`]);
  if (state.cold?.text.includes(term)) places.push(["COLD", "in COLD, as a bare term"]);
  return places;
}

/** The facts a reader can pick, as choices: each active fact by its text (they come first). */
const factChoices = (state) => state.facts.slice(0, state.activeCount).map((fact) => [String(fact.id), fact.text]);

/** `importance × recency × access = score` for a fact, in words a reader can check. */
const arithmetic = (fact) =>
  `importance ${num(fact.importance)} \u00d7 recency ${num(fact.recency)} \u00d7 access ${num(fact.access)} = ${num(fact.score)}`;

/** The settings a state was computed under, by family: a verdict holds only under its own. */
const SETTINGS = {
  compaction: (state) => `${state.budget} ${state.hotN} ${state.counting}`,
  forgetting: (state) => `${state.halfLife} ${state.capacity} ${state.accessBoost}`,
};

/** A compaction question skipped by Add next turn: what the step did, from the state it left. */
const skippedStep = (question) => (el, before, state) => state.turn === before.turn + 1 ? question.verdict(el, state).why : null;

/**
 * The questions, by element family. Each asks while `asks(el, state)` holds and it has no
 * answer yet; `ask` gives its words and choices (`[value, label]`), `run` takes the step it is
 * about, and `verdict` says from the state the step left, in one sentence, what happened;
 * `skipped`, if given, says it when the reader took the step without answering.
 */
const QUESTIONS = {
  compaction: [
    {
      id: "over",
      asks: (el, state) => state.turn === 3 && state.totalTurns > 3,
      ask(el, state) {
        const next = el.probe(state.turn + 1);
        return {
          question: `Will turn ${state.turn + 1} take the window over its budget of ${state.budget} tokens?`,
          detail: next && `The window holds ${state.tokens} tokens. Turn ${next.turn.turn} adds ${plural(next.turn.tokens, "token")}: ${next.turn.speaker}: ${quote(next.turn.text)}`,
          choices: [["over", "Yes, over the budget"], ["fits", "No, it fits"]],
        };
      },
      run: (el) => el.addTurn(),
      verdict(el, state) {
        const step = state.log.at(-1);
        const truth = step.crossed ? "over" : "fits";
        const why = step.crossed
          ? `turn ${step.turn} took the window from ${step.tokensBefore} to ${step.peakTokens} tokens, over the budget of ${state.budget}, so COMPACT ran and left ${step.tokensAfter}.`
          : `turn ${step.turn} took the window to ${step.peakTokens} of ${state.budget} tokens, ${step.room === 0 ? "at the budget but not over it" : "under the budget"}, so nothing was compacted.`;
        return { truth, why };
      },
    },
    {
      id: "where",
      asks: (el, state) => state.turn === 8 && state.totalTurns > 8 && placesOf(state, AMOUNT).length > 0,
      ask(el, state) {
        const next = el.probe(state.turn + 1);
        const now = listed(placesOf(state, AMOUNT).map(([, where]) => where));
        const after = next?.step.compacted ? `turn ${state.turn + 1} and the COMPACT it sets off` : `turn ${state.turn + 1}`;
        return {
          question: `Where will ${AMOUNT} live after ${after}: HOT, WARM, COLD, or gone?`,
          detail: `${AMOUNT}, the refund, is now ${now}.`,
          choices: [["HOT", "HOT"], ["WARM", "WARM"], ["COLD", "COLD"], ["gone", "gone"]],
        };
      },
      run: (el) => el.addTurn(),
      verdict(el, state) {
        const places = placesOf(state, AMOUNT);
        if (places.length === 0) return { truth: ["gone"], why: `after turn ${state.turn}, ${AMOUNT} is nowhere in the window.` };
        const hot = `only the last ${plural(state.hotN, "turn")} stay HOT`;
        return {
          truth: places.map(([tier]) => tier),
          why: `after turn ${state.turn}, ${AMOUNT} is ${listed(places.map(([, where]) => where))}: ${hot}, and a folded decision keeps its amount.`,
        };
      },
    },
  ],
  forgetting: [
    {
      id: "first",
      asks: (el, state) => state.t < 6 && state.events.every((event) => event.firedAt === null) && state.consolidatedAt === null,
      ask: (el, state) => ({
        question: "Which fact will rank first at t = 6?",
        detail: `It is t = ${state.t}. Recency halves every ${plural(state.halfLife, "time unit")}, and each read (a \u25b2 under the slider) adds ${num(state.accessBoost)} to its fact's access.`,
        choices: factChoices(state),
      }),
      run: (el) => el.setTime(6),
      verdict(el, state, answer) {
        const top = state.facts[0]; // the active facts come first, by score
        const guess = state.facts.find((fact) => String(fact.id) === answer);
        const beside = guess && guess !== top ? `; ${quote(guess.text)} has ${num(guess.score)}` : "";
        return { truth: String(top.id), why: `at t = ${state.t}, ${quote(top.text)} ranks first: ${arithmetic(top)}${beside}.` };
      },
    },
    {
      id: "evict",
      asks: (el, state) => state.t >= 6 && state.events[1]?.firedAt === null && state.consolidatedAt === null &&
        state.activeCount >= state.capacity,
      ask: (el, state) => ({
        question: `The write ${quote(state.events[1].label)} comes now, at t = ${state.t}. Which fact will it evict?`,
        detail: `The store holds at most ${plural(state.capacity, "fact")}, and it is full. Pick the one you think goes.`,
        choices: factChoices(state),
      }),
      run(el) {
        const before = el.model.state();
        return { before, change: el.fire(1) };
      },
      verdict(el, state, answer, { before, change }) {
        const evicted = before.facts.find((fact) => fact.id === change?.evicted);
        if (!evicted) return { truth: "none", why: `the write evicted nothing at t = ${state.t}.` };
        return {
          truth: String(evicted.id),
          why: `it evicted ${quote(evicted.text)}, the weakest when the write came: ${arithmetic(evicted)}.`,
        };
      },
    },
    {
      id: "lasts",
      asks: (el, state) => state.consolidatedAt !== null && state.t < 12 && ["semantic", "procedural"].every((kind) =>
        state.facts.some((fact) => fact.kind === kind && fact.status === "active")),
      ask: (el, state) => ({
        question: `Consolidate wrote ${plural(state.facts.filter((f) => f.kind === "semantic" && f.status === "active").length, "lasting fact")} and a rule. Which will last longer: the semantic fact or the rule?`,
        detail: "Pick one; the slider then moves to t = 12.",
        choices: [["semantic", "the semantic fact"], ["procedural", "the rule"], ["alike", "they last alike"]],
      }),
      run: (el) => el.setTime(12),
      verdict(el, state) {
        const [fact, rule] = ["semantic", "procedural"].map((kind) => state.facts.find((f) => f.kind === kind && f.status !== "evicted"));
        if (!fact || !rule) return { truth: "none", why: `by t = ${state.t} one of them is no longer in the store.` };
        const truth = rule.halfLife > fact.halfLife ? "procedural" : rule.halfLife < fact.halfLife ? "semantic" : "alike";
        const lasts = { procedural: "the rule lasts longer", semantic: "the semantic fact lasts longer", alike: "they last alike" }[truth];
        return {
          truth,
          why: `${lasts}. The rule's half-life is ${num(rule.halfLife)} and the semantic fact's ${num(fact.halfLife)}: at t = ${state.t} the rule keeps ${num(rule.recency * 100, 0)}% of its importance (its recency), the fact ${num(fact.recency * 100, 0)}%.`,
        };
      },
    },
  ],
};

/** The ids of every question, for checking the answers a link carries. */
const IDS = new Set(Object.values(QUESTIONS).flat().map((question) => question.id));
for (const question of QUESTIONS.compaction) question.skipped = skippedStep(question);

/**
 * `answers` if it has the shape `el.answers` has (`{ [question]: { answer, right } }`, known
 * questions only); throws a message a person can act on if not.
 */
export function checkedAnswers(answers) {
  const object = (value) => typeof value === "object" && value !== null && !Array.isArray(value);
  if (answers === undefined || answers === null) return {};
  if (!object(answers)) throw new Error("its guided answers are not a list of answers");
  for (const [id, entry] of Object.entries(answers)) {
    if (!IDS.has(id)) throw new Error(`its guided answers name a question this page does not ask (${JSON.stringify(id.slice(0, 40))})`);
    if (!object(entry) || typeof entry.answer !== "string" || entry.answer.length > 40 || typeof entry.right !== "boolean") {
      throw new Error(`its guided answer to "${id}" is not an answer and whether it was right`);
    }
  }
  return answers;
}

/**
 * Shows `el`'s guide at `state` (widget.js, `ensureGuide`): with the `guided` attribute, on the
 * story the guide knows (`guidesStory`), its panel asks the reader to predict the next step;
 * without, the panel goes.
 */
export function ensureGuide(el, state) {
  if (!el.hasAttribute("guided") || !el.guidesStory?.() || !el.model) {
    el.guide?.remove();
    el.guide = null;
    return;
  }
  el.guide ??= attach(el);
  el.guide.update(state);
}

/**
 * Attaches a guide to `el` (a widget with `guided`): a panel above its content that asks the
 * questions of its family in turn. Returns `{ update(state), remove() }`.
 */
function attach(el) {
  adoptMoreStyles(el.shadowRoot, "guide");
  const questions = QUESTIONS[el.constructor.family] ?? [];
  const question = h("p", { className: "guide-question", id: "guide-question" });
  const detail = h("p", { className: "note" });
  const choices = h("div", { className: "guide-choices", attrs: { role: "group", "aria-labelledby": "guide-question" } });
  const verdict = h("p", { className: "guide-verdict", tabIndex: -1 });
  const panel = h("div", { className: "guide", attrs: { role: "group", "aria-label": "Predict, then see" } },
    h("p", { className: "guide-title", attrs: { "aria-hidden": "true" } }, "Predict, then see"), verdict, question, detail, choices);
  el.frame.insertBefore(panel, el.body);
  let asking = null;
  // The state a question was asked at, to tell a step taken without an answer.
  let askedAt = null;
  // A verdict stays while the step it judged is the latest: a question that comes later clears
  // it, and so do other settings (a knob), under which it may no longer be true.
  let fresh = false;
  const settings = SETTINGS[el.constructor.family] ?? (() => "");
  let verdictSettings = null;
  const say = (text, state) => {
    verdict.textContent = text;
    verdict.hidden = false;
    verdictSettings = settings(state);
  };

  const answer = (asked, value) => {
    const ran = asked.run(el, value);
    const state = el.model.state();
    const { truth, why } = asked.verdict(el, state, value, ran);
    const right = Array.isArray(truth) ? truth.includes(value) : truth === value;
    const said = `${right ? "Right" : "Not quite"}: ${why}`;
    el.answers = { ...el.answers, [asked.id]: { answer: value, right } };
    say(said, state);
    fresh = true;
    update(state);
    fresh = false;
    verdict.focus();
    el.announce(said);
    el.emit("memory-guess", { question: asked.id, answer: value, right, verdict: said, state });
  };

  const update = (state) => {
    const next = questions.find((q) => !(q.id in el.answers) && q.asks(el, state)) ?? null;
    if (verdictSettings !== null && verdictSettings !== settings(state)) {
      verdict.textContent = "";
      verdict.hidden = true;
      verdictSettings = null;
    }
    if (next !== asking) {
      // The reader went on without answering: say what the step did, not silently.
      const why = asking && !(asking.id in el.answers) && asking.skipped?.(el, askedAt, state);
      if (why) say(`You went on without a guess: ${why}`, state);
      asking = next;
      askedAt = state;
      if (next && !fresh && !why) {
        verdict.textContent = "";
        verdict.hidden = true;
      }
      if (next) {
        const { question: words, detail: more, choices: options } = next.ask(el, state);
        question.textContent = words;
        detail.textContent = more ?? "";
        detail.hidden = !more;
        choices.replaceChildren(...options.map(([value, label]) =>
          h("button", { type: "button", on: { click: () => answer(next, value) } }, label)));
      }
    }
    question.hidden = choices.hidden = !next;
    if (!next) detail.hidden = true;
    panel.hidden = !next && !verdict.textContent;
  };
  verdict.hidden = true;
  return { update, remove: () => panel.remove() };
}
