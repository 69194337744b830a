// What a reader uses to change a built widget's settings: the knobs' inputs, and `reconfigure`,
// which builds one new model under new settings and replays the reader's progress into it.
// Few readers touch a setting, so this loads when one first does (widget.js: opening the knobs,
// `reconfigure`), or when what will change one loads: own.js (the panel for a reader's own
// conversation, or a `src` file) and links.js as it opens a link's state.

import { h } from "./widget.js";

/**
 * What a knob whose spec has `note: true` says under the knobs: loaded with them, not with the
 * page, and said once, by the widget that asks for it.
 */
const NOTES = {
  tokens: "Count tokens as words: one token a word (in a tool call's JSON, each name and value), the rule the story's numbers use. "
  + "As an estimate, nearer what a model's tokenizer counts: Each word (split at whitespace) counts one token for each Chinese, Japanese "
  + "or Korean character in it, plus a quarter of its other characters, rounded up. Either way the budget is in these tokens.",
  session: "The refund desk is invented. The airline session is real: \u03c4-bench's airline task 26 "
  + "(Sierra, MIT licence), gpt-4o with its tool calls, 31 turns, at a budget of 250 unless you set one.",
};

/**
 * Fills the knobs' `<details>` (widget.js, `ensureKnobs`) with an input per knob in
 * `el.knobSpec`, `[[attribute, label, { min, max, step, placeholder, choices, note }]]` (a knob
 * with `choices`, `[[value, label]]`, is a `<select>`; its `note` says what the choices do), and
 * a button that restores `el.seedValues`. Once: a rebuild keeps them, and shows the values in
 * force.
 */
export function buildKnobs(el) {
  if (el.knobs.querySelector(".knob-row")) return;
  const notes = [];
  const inputs = el.knobSpec.map(([attribute, label, { min, max, step, placeholder, choices, note, loads }]) => {
    const message = h("span", { className: "knob-error", id: `knob-${attribute}-error` });
    const on = {
      change: () => applyKnob(el, input),
      blur: () => el.syncKnobs(),
    };
    if (note) notes.push(h("p", { className: "caption", id: `knob-${attribute}-note` }, note === true ? NOTES[attribute] : note));
    const describedBy = note ? `${message.id} knob-${attribute}-note` : message.id;
    const input = choices
      ? h("select", { id: `knob-${attribute}`, attrs: { "aria-describedby": describedBy }, on },
        ...choices.map(([value, text]) => h("option", { value }, text)))
      : h("input", {
        type: "number", min, step, id: `knob-${attribute}`,
        ...(max === undefined ? {} : { max }),
        ...(placeholder === undefined ? {} : { placeholder }),
        attrs: { "aria-describedby": describedBy },
        on,
      });
    Object.assign(input.dataset, { attribute, label }, loads ? { loads: "" } : {});
    return h("div", { className: "knob" }, h("label", { htmlFor: input.id }, label), input, message);
  });
  const restore = () => el.reconfigure(() => {
    // A session still loading for a knob is overtaken.
    for (const attribute of Object.keys(el.knobVersions ?? {})) el.knobVersions[attribute]++;
    for (const attribute of Object.keys(el.seedValues)) el.removeAttribute(attribute);
  }, "Seed values restored");
  el.knobs.append(h("div", { className: "knob-row" }, ...inputs,
    h("button", { type: "button", className: "quiet", on: { click: restore } }, "Seed values")), ...notes);
  // The playground's list of real agents' triggers: its own chunk, which only it loads.
  if (el.knobSpec.some(([attribute]) => attribute === "compact-at")) {
    import("./triggers.js").then(({ buildTriggers }) => el.knobs.append(buildTriggers(el)))
      .catch((error) => el.fail(new Error(`The list of real agents' triggers could not load its code: ${error?.message ?? error}`)));
  }
  el.syncKnobs();
}

/**
 * Applies the value typed into a knob, or marks the knob invalid and keeps the old value. A knob
 * that `loads` (the session) loads what its value names first, and then starts from turn 0 with
 * it, in place of a conversation of the reader's.
 */
export async function applyKnob(el, input) {
  const { attribute, label } = input.dataset;
  const loads = "loads" in input.dataset;
  const message = el.knobs.querySelector(`#${input.id}-error`);
  const raw = input.value.trim();
  // A later value of the same knob overtakes this one while its session loads.
  const versions = (el.knobVersions ??= {});
  const version = (versions[attribute] = (versions[attribute] ?? 0) + 1);
  const loaded = loads ? await el.loadSession(raw) : null;
  if (version !== versions[attribute]) return;
  const error = loaded ? loaded.message : await el.reconfigure(() => {
    if (raw === "") el.removeAttribute(attribute);
    else el.setAttribute(attribute, raw);
    if (loads && el.conversation !== el.sourceConversation) el.conversation = el.sourceConversation ?? null;
  }, `${label} is now ${raw === "" ? input.placeholder || "the seed's" : input.selectedOptions?.[0]?.text ?? raw}`, loads ? 0 : undefined);
  if (error) {
    // The core's rule, said of the knob: "must be a whole number of at least 1, got -3".
    const rule = error.replace(/^[\w-]+="[^"]*": [\w-]+ /, "");
    const inForce = el.getAttribute(attribute) ?? (String(el.knobDefault?.(attribute) ?? el.seedValues[attribute]) || input.placeholder);
    message.textContent = `Not applied: ${label} ${rule}. Still ${inForce}.`;
    input.setAttribute("aria-invalid", "true");
    el.announce(message.textContent);
  } else {
    for (const other of el.knobs.querySelectorAll(".knob-error")) other.textContent = "";
    input.removeAttribute("aria-invalid");
  }
}

/**
 * What `el` will need of a core once `change` is made (widget.js, `coreNeed`): the change is
 * made quietly, read, and undone.
 */
export const needAfter = (el, change) => readAfter(el, change, () => el.coreNeed());

/** What `read()` gives once `change` is made, quietly; the change is then undone. */
export function readAfter(el, change, read) {
  const names = el.constructor.observedAttributes;
  const before = names.map((name) => [name, el.getAttribute(name)]);
  const conversation = el.conversation;
  let need;
  el.quietly(() => {
    try {
      change();
      need = read();
    } finally {
      for (const [name, value] of before) {
        if (value === null) el.removeAttribute(name);
        else el.setAttribute(name, value);
      }
      el.conversation = conversation;
    }
  });
  return need;
}

/**
 * Changes `el`'s attributes with `change`, then builds one new model from them and replays
 * `progress` (what `el.progress()` gave) into it with `el.replay()`, and announces `what`.
 * Returns `null`, or on an error its message, fired as `memory-error` but not shown in the
 * error box: the attributes go back as they were and the old model stays; a promise of either
 * for an element whose log replays in a worker.
 */
export function reconfigure(el, change, what, progress) {
  // A long log replays in a worker first (large.js: `prepareModel`), so that the build is quick.
  if (el.prepareModel) {
    return el.prepareModel(change, progress).then((problem) => {
      if (!problem) return rebuildWith(el, change, what, progress);
      el.emit("memory-error", { message: problem });
      return problem;
    });
  }
  return rebuildWith(el, change, what, progress);
}

/** `reconfigure`, once the model it builds is ready to be built. */
function rebuildWith(el, change, what, progress) {
  if (!el.model) return "the widget is not on the page";
  const names = el.constructor.observedAttributes;
  const before = names.map((name) => [name, el.getAttribute(name)]);
  const conversation = el.conversation;
  let next = null;
  let problem = null;
  // Quietly: each attribute changed would otherwise build a model of its own.
  el.quietly(() => {
    try {
      change();
      next = el.createModel();
    } catch (error) {
      for (const [name, value] of before) {
        if (value === null) el.removeAttribute(name);
        else el.setAttribute(name, value);
      }
      el.conversation = conversation;
      problem = String(error?.message ?? error);
    }
  });
  if (problem !== null) {
    el.emit("memory-error", { message: problem });
    return problem;
  }
  el.errorBox.hidden = true;
  el.model = next;
  let replayed = "";
  try {
    replayed = progress === null ? "" : el.replay(progress);
  } catch (error) {
    el.fail(new Error(`Could not replay what was done before: ${error?.message ?? error}`));
  }
  el.resizeObserver?.disconnect(); // mount() replaces what it watched
  el.mount();
  el.fitTables();
  el.showConversation?.();
  el.announce(`${what}. ${replayed}`.trim());
  return null;
}
