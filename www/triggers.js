// Real agents' compaction triggers under the playground's knobs, for a context window the reader
// chooses: the core's cited table (`frameworkTriggers`), each with a button that sets
// **compact at %** to it. Loaded with the knobs of a playground only.

import { h } from "./widget.js";
import { config, loadCore } from "./cores.js";
import { applyKnob } from "./settings.js";

/** The context windows a reader can choose for the frameworks' triggers, in tokens. */
const WINDOWS = [[128000, "128K"], [200000, "200K"], [272000, "272K"], [400000, "400K"], [1000000, "1M"]];

/**
 * Real agents' compaction triggers, as the core cites them (`frameworkTriggers`), each as a share
 * of a context window the reader chooses, with a button that sets **compact at %** to it.
 */
export function buildTriggers(el) {
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
          on: { click: () => useTrigger(el, trigger) },
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
      "The budget stands for the whole window. A trigger stated in tokens, or Claude Code's, which keeps a fixed number of tokens back, is a smaller share of a larger window: each is scaled to the window chosen."),
    list);
}

/** Sets **compact at %** to a framework's trigger, as if typed into the knob. */
function useTrigger(el, trigger) {
  const input = el.knobs.querySelector("#knob-compact-at");
  input.value = String(trigger.compactAt);
  applyKnob(el, input);
}
