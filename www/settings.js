// Changing a built widget's settings: `reconfigure`, which builds one new model under new
// settings and replays the reader's progress into it. Few readers change a setting, so this loads
// when one first does (widget.js, `reconfigure`: a knob, knobs.js), or when what will change one
// loads: own.js (the panel for a reader's own conversation, or a `src` file) and links.js as it
// opens a link's state.

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
 * `el.reconfigure(change, what, progress)` once this module is in: waits for a core that serves
 * the new settings (the first of its own needs `withConfig`), then `reconfigure`s, with the
 * reader's progress as it is by then (what they did meanwhile is replayed too) unless
 * `progress` is given. Resolves to `null`, or to the error's message.
 */
export async function reconfigureOnCore(el, change, what, progress) {
  // (The control that made the change keeps its focus meanwhile.)
  try {
    await el.coreServing(needAfter(el, change));
  } catch (error) {
    const message = `the WebAssembly core these settings need did not load (${error?.message ?? error})`;
    el.emit("memory-error", { message });
    return message;
  }
  return reconfigure(el, change, what, progress === undefined ? el.progress?.() ?? null : progress);
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
