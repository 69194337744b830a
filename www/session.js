// What the two compaction elements, <memory-compaction> and <memory-playground>, share beyond
// widget.js: the reader of their model's settings, and lists of turns in words. The build puts
// it in a chunk with conversation.js, which only pages with those elements download.

import { readAttributes } from "./widget.js";

/** The "count tokens as" knob's choices (the core's `tokens` option); settings.js says what they do. */
export const TOKEN_CHOICES = [["words", "words"], ["estimate", "estimate"]];

/** How `state` counts tokens, for a sentence: "" for words, the seed's way. */
export const countingPhrase = (state) => (state.counting === "estimate" ? ", counting tokens as an estimate" : "");

/** The `session` knob's choices: the built-in sessions (settings.js says what they are). */
export const SESSION_CHOICES = [["refund-desk", "refund desk (invented)"], ["airline", "airline, \u03c4-bench (real)"]];

/** "turn 4", "turns 4 and 6", "turns 4, 6 and 8". */
export function turnList(turns) {
  if (turns.length <= 1) return `turn ${turns.join("")}`;
  return `turns ${turns.slice(0, -1).join(", ")} and ${turns.at(-1)}`;
}

/**
 * A `Session` or `Playground` (`Model`) from an element's `budget`, `hot`, `tokens`, `turn` and
 * `scenario`, and the attributes in `more` (the playground's `compact-at`); errors name the
 * attribute.
 */
export function sessionModel(el, Model, more = {}) {
  const map = { budget: "budget", hot: "hotN", tokens: "tokens", turn: "turn", ...more };
  const { options, explain } = readAttributes(el, map, ["tokens"]);
  const { turn, ...config } = options;
  const scenario = el.scenarioFromAttribute();
  if (scenario !== undefined && !Array.isArray(scenario) && !Array.isArray(scenario?.script)) {
    throw new Error(`scenario: expected { "script": [turns...] } for <${el.localName}>`);
  }
  // A built-in session (`session="airline"`, loaded by then) plays at its own budget unless the
  // element sets one; the reader's own conversation comes first.
  const session = el.conversation ? undefined : el.sessionData?.();
  if (session && config.budget === undefined) config.budget = session.budget;
  const script = el.conversation ?? session?.turns ?? (Array.isArray(scenario) ? scenario : scenario?.script);
  try {
    // The seed's settings need only the class's constructor, which every core has.
    const seed = script === undefined && Object.keys(config).length === 0;
    const model = seed ? new Model() : Model.withConfig(script === undefined ? config : { ...config, script });
    if (turn !== undefined) model.goTo(turn);
    return model;
  } catch (error) {
    throw new Error(explain(error));
  }
}
