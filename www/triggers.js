// Real agents' compaction triggers under the playground's knobs, for a context window the reader
// chooses: the core's cited table (`frameworkTriggers`), each with a button that sets
// **compact at %** to it. Loaded with the knobs of a playground only.

import { h, plural, listed } from "./dom.js";
import { config, loadCore } from "./cores.js";

/** The context windows a reader can choose for the frameworks' triggers, in tokens. */
const WINDOWS = [[128000, "128K"], [200000, "200K"], [272000, "272K"], [400000, "400K"], [1000000, "1M"]];

/**
 * Real agents' compaction triggers, as the core cites them (`frameworkTriggers`), each as a share
 * of a context window the reader chooses, with a button that sets **compact at %** to it, as
 * `applyKnob` (knobs.js's, handed in) applies a value typed into the knob.
 */
export function buildTriggers(el, applyKnob) {
  // When each policy compacts and where ours stops, said next to the knob that changes it (and
  // as its description): the table opens the widget, its settings fold away here.
  const note = h("p", { className: "caption trigger-note", id: "knob-compact-at-note" });
  el.knobs.querySelector(".knob-row").after(note);
  for (const knob of el.knobs.querySelectorAll("#knob-compact-at, #knob-compact-to")) {
    knob.setAttribute("aria-describedby", `${knob.getAttribute("aria-describedby")} ${note.id}`);
  }
  el.showTriggers = (state) => {
    note.textContent = triggerNote(state);
  };
  el.showTriggers(el.model.state());
  const list = h("ul", { className: "triggers" });
  const windowSelect = h("select", {
    id: "triggers-window",
    on: {
      change: async () => {
        if (await show()) el.announce(`Real agents' triggers for a window of ${windowSelect.selectedOptions[0].text}.`);
      },
    },
  }, ...WINDOWS.map(([tokens, name]) => h("option", { value: tokens, selected: tokens === 200000 }, `${name} tokens`)));
  /** Lists the triggers for the window chosen; whether it could. */
  const show = async () => {
    let triggers;
    try {
      const core = await loadCore(config(el.constructor.family));
      triggers = core.frameworkTriggers(Number(windowSelect.value));
    } catch (error) {
      // Not `attempt`: a success here must not hide another error the widget shows.
      el.fail(new Error(`The list of real agents' triggers could not load: ${error?.message ?? error}`));
      return false;
    }
    list.replaceChildren(...triggers.map((trigger) => h("li", {},
      h("a", { href: trigger.url }, trigger.framework),
      trigger.compactAt !== null
        ? h("button", {
          type: "button",
          attrs: { "aria-label": `${trigger.framework}: compact at ${trigger.compactAt}%` },
          on: { click: () => useTrigger(el, trigger, applyKnob) },
        }, `compact at ${trigger.compactAt}%`)
        : trigger.share === null ? " has no default trigger."
          : " never compacts in a window this size: its trigger is past the window.",
      h("details", {},
        h("summary", { attrs: { "aria-label": `${trigger.framework}: its setting and source` } }, "its setting and source"),
        h("p", { className: "caption" }, `${trigger.setting} Source: ${trigger.source}.`)))));
    return true;
  };
  // The list loads the core that computes it (a page's first core may not have it) only when a
  // reader opens it.
  let shown = false;
  const open = async (event) => {
    if (shown || !event.target.open) return;
    shown = true;
    shown = await show(); // a failed load is tried again at the next opening
  };
  return h("details", { className: "triggers-panel", on: { toggle: open } },
    h("summary", {}, "Real agents' triggers"),
    h("div", { className: "knob" }, h("label", { htmlFor: windowSelect.id }, "for a context window of"), windowSelect),
    h("p", { className: "caption" },
      "The budget stands for the whole window chosen here (Codex's kept user messages are sized against its own model's 272,000 tokens). A trigger stated in tokens, or Claude Code's, which keeps a fixed number of tokens back, is a smaller share of a larger window. Each framework is cited at the version the playground's policy follows."),
    list);
}

/** Sets **compact at %** to a framework's trigger, as if typed into the knob. */
function useTrigger(el, trigger, applyKnob) {
  const input = el.knobs.querySelector("#knob-compact-at");
  input.value = String(trigger.compactAt);
  applyKnob(el, input);
}

/** `Every policy with a token trigger compacts at 60% of the budget (24 tokens)`: the core's trigger. */
const atShare = (state) =>
  `Every policy with a token trigger compacts at ${state.compactAt}% of the budget (${plural(state.trigger, "token")})`;

/**
 * When the policies compact, from each policy's own trigger (`info.trigger`): each at its own,
 * or, with **compact at %** set, every one with a token trigger at that share of the budget.
 */
function triggerNote(state) {
  const infos = state.policies.map((row) => row.info);
  const names = (list) => listed(list.map((info) => info.name));
  const untimed = infos.filter((info) => info.trigger === null);
  const none = untimed.length === 0 ? "" : ` ${names(untimed)} compact${untimed.length === 1 ? "s" : ""} whatever the tokens, so the knob does not move ${untimed.length === 1 ? "it" : "them"}.`;
  if (state.compactAt === null) {
    const shares = [...new Set(infos.map((info) => info.trigger).filter((share) => share !== null))].sort((a, b) => b - a);
    const own = shares.map((share) => `${names(infos.filter((info) => info.trigger === share))} at ${share}%`);
    return `With compact at % empty, each policy compacts at its own trigger, a share of the budget: ${listed(own)}.${none} ${stopsAt(state)}`;
  }
  return `${atShare(state)}, in place of its own trigger.${none} The knob moves when a compaction starts, not where it stops: ${stopsAt(state)}`;
}

/**
 * Where a compaction stops: ours folds until the window holds the core's `target` (compact ours
 * to %, else the whole budget); the range it reached so far comes from its log.
 */
function stopsAt(state) {
  const ours = state.policies[0];
  const after = ours.window.log.filter((step) => step.compacted).map((step) => step.tokensAfter);
  const [low, high] = [Math.min(...after), Math.max(...after)];
  const reached = after.length === 0 ? "" : `; so far its compactions left ${low === high ? low : `${low} to ${high}`}`;
  return `${ours.info.name} keeps the last ${plural(ours.window.hotN, "turn")} verbatim and compacts only until the window holds ${plural(state.target, "token")} or fewer (compact ours to %${reached}). The others stop where their rules say.`;
}
