// The Web Worker that reads a reader's log file and replays it under the playground's seven
// policies, so that a session of megabytes never blocks the page: the page (large.js) starts it
// when a reader picks a file in the panel for their own conversation. It loads the wasm core that
// imports (www/cores.js names it; the page sends the name), holds the imported turns and each
// playground it builds, and sends back what the page draws. No policy logic here either: every
// number comes from the core.
//
// Messages in, each with an `id` its answer repeats:
//   { op: "import", core, file }     reads `file` (a File), reports { progress }, then sends the
//                                    turns in parts ({ turns }) and { result }: what importConversation
//                                    gave but the turns, with `script` (the turns' handle here), and
//                                    its subagent's turns as their count, `subagentCount`; or
//                                    { result: { superseded: true } } when another import came
//                                    while it read, and only the newest is kept
//   { op: "script", turns }          keeps turns the page changed; { result: script }
//   { op: "playground", script, options, turn }
//                                    a Playground of those turns (options as withConfig takes them),
//                                    at `turn`: { result: { model, state } }
//   { op: "final", model }           how each policy ends (its tokens, the facts it keeps, whether
//                                    it is over the budget: `window.overBudget`), the
//                                    playground back where it stood: { result: state }
//   { op: "goTo", model, turn }      { result: state } at `turn`
//   { op: "free", model }            frees a playground; { result: null }
// A failure answers { error: message }.

/** The core's module once initialised. */
let core = null;
/** The turns held, by handle: the last file's, and the last change of them the page sent. */
const scripts = new Map();
let imported = 0;
const models = new Map();
let handles = 0;

/** The turns in one message, at most: the page reads each message in a task of its own. */
const TURNS_PER_PART = 200;

async function loadCore(name) {
  if (!core) {
    const glue = await import(`./pkg/${name}.js`);
    // Each glue finds its wasm by a static URL of its own, which bundlers follow (cores.js).
    await glue.default();
    core = glue;
  }
  return core;
}

/**
 * A state as the page draws it: what it does not draw at a turn stays here. Each window's
 * `dropped` texts (a truncated session's whole past) become their count; each step of its log
 * that the page reads no figure from goes (it reads the steps that compacted, crossed or ended
 * over budget, and the log's length); the whole run's series and peaks go unless `whole`, since
 * they do not change with the turn.
 */
function drawn(state, whole) {
  for (const row of state.policies) {
    const over = new Set(row.overTurns);
    if (!whole) {
      delete row.series;
      delete row.peaks;
      delete row.overTurns;
    }
    const window = row.window;
    window.droppedCount = window.dropped.length;
    window.dropped = [];
    window.steps = window.log.length;
    window.log = window.log.filter((step) => step.compacted || step.crossed || over.has(step.turn));
  }
  return state;
}

/** Reads `file` as text, reporting the bytes read as it goes. */
async function readText(file, report) {
  const reader = file.stream().getReader();
  const decoder = new TextDecoder();
  const parts = [];
  let read = 0;
  let last = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    read += value.length;
    parts.push(decoder.decode(value, { stream: true }));
    if (read - last >= 1 << 20) {
      last = read;
      report({ phase: "read", done: read, total: file.size });
    }
  }
  parts.push(decoder.decode());
  report({ phase: "read", done: file.size, total: file.size });
  return parts.join("");
}

/** The newest import asked for: an older one still reading when it came is dropped. */
let latest = 0;

const ops = {
  async import({ id, core: name, file }) {
    latest = id;
    const report = (progress) => postMessage({ id, progress });
    const [text, glue] = await Promise.all([readText(file, report), loadCore(name)]);
    // A file picked since has taken over: its turns, not these, are the ones kept.
    if (id !== latest) return { superseded: true };
    report({ phase: "parse" });
    const result = glue.importConversation(text);
    // A subagent's turns, kept apart in the log, are only counted on the page.
    const { turns, subagent, ...rest } = result;
    if (subagent) rest.subagentCount = subagent.length;
    for (let from = 0; from < turns.length; from += TURNS_PER_PART) {
      postMessage({ id, turns: turns.slice(from, from + TURNS_PER_PART) });
    }
    scripts.clear(); // an earlier file's turns: the page holds no model of them it will build again
    imported = ++handles;
    scripts.set(imported, turns);
    return { ...rest, turnCount: turns.length, script: imported };
  },
  script({ turns }) {
    for (const handle of scripts.keys()) if (handle !== imported) scripts.delete(handle);
    const script = ++handles;
    scripts.set(script, turns);
    return script;
  },
  playground({ id, script, options, turn }) {
    const turns = scripts.get(script);
    if (!turns) throw new Error("the imported log is no longer held: import it again");
    postMessage({ id, progress: { phase: "replay" } });
    const model = core.Playground.withConfig({ ...options, script: turns });
    const handle = ++handles;
    models.set(handle, model);
    model.goTo(turn);
    return { model: handle, state: drawn(model.state(), true) };
  },
  final({ model }) {
    const playground = models.get(model);
    if (!playground) throw new Error("this replay was freed");
    const was = playground.turn;
    playground.goTo(playground.state().totalTurns);
    // Of the last turn, the page says only how each policy ends: its tokens and the facts kept.
    const last = playground.state();
    playground.goTo(was);
    return { ...last, policies: last.policies.map(({ info, tokens, kept, window }) => ({ info, tokens, kept, window: { overBudget: window.overBudget } })) };
  },
  goTo({ model, turn }) {
    const playground = models.get(model);
    if (!playground) throw new Error("this replay was freed");
    playground.goTo(turn);
    return drawn(playground.state(), false);
  },
  free({ model }) {
    models.get(model)?.free();
    models.delete(model);
    return null;
  },
};

addEventListener("message", async ({ data }) => {
  try {
    postMessage({ id: data.id, result: await ops[data.op](data) });
  } catch (error) {
    postMessage({ id: data.id, error: String(error?.message ?? error) });
  }
});
