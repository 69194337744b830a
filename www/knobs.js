// Knobs: the inputs of a built widget's settings, in its "Knobs" disclosure (widget.js,
// `ensureKnobs`), and real agents' triggers under a playground's (triggers.js). Few readers open
// the knobs, so this loads, with the knobs' rules, when one first does; a value typed applies
// through `el.reconfigure` (settings.js).

import { h, adoptMoreStyles } from "./dom.js";

/**
 * What a knob whose spec has `note: true` says under the knobs: loaded with them, not with the
 * page, and said once, by the widget that asks for it.
 */
const NOTES = {
  tokens: "Count tokens as words: one token a word (in JSON or code, each name and value), the rule the story's numbers use. "
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
  adoptMoreStyles(el.shadowRoot, "knobs");
  const notes = [];
  const inputs = el.knobSpec.map(([attribute, label, { min, max, step, placeholder, choices, note, loads }]) => {
    const message = h("span", { className: "knob-error", id: `knob-${attribute}-error` });
    const on = {
      change: () => applyKnob(el, input),
      blur: () => syncKnobs(el),
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
    import("./triggers.js").then(({ buildTriggers }) => el.knobs.append(buildTriggers(el, applyKnob)))
      .catch((error) => el.fail(new Error(`The list of real agents' triggers could not load its code: ${error?.message ?? error}`)));
  }
  syncKnobs(el);
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

/** Shows each knob's value in force, its attribute's or the seed's, unless it has focus. */
export function syncKnobs(el) {
  for (const input of el.knobs.querySelectorAll("[data-attribute]")) {
    if (input.matches(":focus")) continue;
    const { attribute } = input.dataset;
    input.value = el.getAttribute(attribute) ?? String(el.knobDefault?.(attribute) ?? el.seedValues[attribute]);
    input.removeAttribute("aria-invalid");
  }
}
