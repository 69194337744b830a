// The panel where a reader brings their own conversation to <memory-compaction> or
// <memory-playground> (type a turn, import one, see and change each turn's kind), and the reading
// of a `src` file. Loaded the first time a reader opens the panel or an element has a `src`, with
// the wasm core that imports conversations (www/cores.js): a page whose readers never do
// downloads neither. The element's side (`WithConversation`) is in conversation.js. Text is set
// as text, never parsed as HTML.

import { h, plural, adoptMoreStyles } from "./dom.js";
import { own, loadSettings } from "./widget.js";
import { readCapped } from "./streams.js";
import { attach, importFile as importInWorker, pager, LARGE_TURNS } from "./large.js";

// What changes the conversation (`useConversation`), settings.js: fetched now, with this module,
// rather than after it.
loadSettings().catch(() => {}); // a failure is reported where it is used

/** The largest conversation file read from `src`: the core takes at most 1,000,000 characters. */
const MAX_FILE_BYTES = 4_000_000;
/** The largest file a reader may pick: a session log of real size, read in a worker (large.js). */
const MAX_PICKED_BYTES = 64_000_000;

/** The element's core once it can import a conversation (www/cores.js: one with `import`). */
const importer = (el) => el.coreServing(own(el.constructor.family));

/** Starts fetching that core; a failure is reported where it is used. */
export function prefetch(el) {
  importer(el).catch(() => {});
}

/** A response's body as text, refused past `limit` bytes before it is all read. */
async function cappedText(response, limit) {
  if (!response.body) return "";
  const bytes = await readCapped(response.body, limit);
  if (bytes === null) throw new Error(`the file is over ${limit / 1_000_000} MB`);
  return new TextDecoder().decode(bytes);
}

/** A turn's kinds, as the core names them and as the page says them. */
const KINDS = [["chatter", "chatter"], ["decision", "decision"], ["tool", "tool output"], ["question", "question"]];

/** Whether a panel on this page said what an import reads and how it guesses kinds: said once. */
let importSaid = false;

/**
 * Reads the conversation file `src` names, from this page's own origin only, and makes it the
 * element's conversation. Throws what went wrong.
 */
export async function loadSource(el, src) {
  const url = new URL(src, document.baseURI);
  if (url.origin !== location.origin) {
    throw new Error(`only a file from this page's own origin (${location.origin}) can be read, not one from ${url.origin}`);
  }
  const core = importer(el); // fetched alongside the file
  core.catch(() => {}); // reported below, once awaited
  const response = await fetch(url, { credentials: "same-origin" });
  if (new URL(response.url || url).origin !== location.origin) throw new Error("the file redirects to another origin");
  if (!response.ok) throw new Error(`the file could not be fetched (HTTP ${response.status})`);
  const text = await cappedText(response, MAX_FILE_BYTES);
  const read = (await core).importConversation(text);
  const { turns } = read;
  keepLog(el, read);
  el.sourceConversation = el.conversation = turns;
}

/**
 * The built-in sessions other than the refund desk, each a real log read by the core's importer
 * (its format is OpenAI's Chat Completions messages), with the budget it is played at.
 */
const SESSIONS = {
  airline: () => import("./sessions/tau-bench-airline-26.json", { with: { type: "json" } }),
};

/** Loads built-in session `name` into `el.sessions[name]`: `{ turns, budget }`. Throws what went wrong. */
export async function loadSession(el, name) {
  const load = Object.hasOwn(SESSIONS, name) ? SESSIONS[name] : null;
  if (!load) throw new Error(`no such session; use ${["refund-desk", ...Object.keys(SESSIONS)].join(" or ")}`);
  const core = importer(el); // fetched alongside the session
  core.catch(() => {}); // reported below, once awaited
  const { default: log } = await load();
  const { turns } = (await core).importConversation(JSON.stringify(log));
  (el.sessions ??= {})[name] = { turns, budget: log.budget };
}

/**
 * Fills the element's panel (`el.own`, a closed <details> until now): a turn to type (`typing`,
 * for <memory-compaction>), a conversation to import, each turn's kind. Built once, outside the
 * content a rebuild replaces, so that focus stays put, and once the element's core is one that
 * plays a reader's conversation (until then the panel says it is loading).
 */
export async function buildOwnPanel(el, typing) {
  // What the reader types or imports is played by the core that takes a script of its own.
  try {
    await importer(el);
  } catch (error) {
    throw new Error(`its WebAssembly core did not load (${error?.message ?? error})`);
  }
  el.own.querySelector(".own-loading")?.remove();
  adoptMoreStyles(el.shadowRoot, "own");
  const ui = {};
  const field = (control, label) => h("div", { className: "field" }, h("label", { htmlFor: control.id }, label), control);
  const parts = [];
  if (typing) {
    const choice = (id, options) => h("select", { id }, ...options.map(([value, label]) => h("option", { value }, label)));
    ui.text = h("textarea", { id: "own-text", rows: 2, required: true });
    ui.speaker = choice("own-speaker", [["user", "user"], ["agent", "agent"], ["tool", "tool"]]);
    ui.kind = choice("own-kind", KINDS);
    ui.kind.value = "decision";
    ui.summary = h("input", { type: "text", id: "own-summary", placeholder: "empty: the first-sentence rule writes one" });
    parts.push(h("form", { className: "own-turn", on: { submit: (event) => { event.preventDefault(); addTypedTurn(el); } } },
      h("h3", {}, "Type a turn"),
      field(ui.text, "Your turn"),
      h("div", { className: "field-row" }, field(ui.speaker, "Speaker"), field(ui.kind, "Kind")),
      field(ui.summary, "Summary (optional)"),
      h("button", { type: "submit", className: "primary" }, "Add my turn"),
      h("p", { className: "caption" }, "Your turn follows the turn shown now, in place of the turns after it, and is counted and compacted like any other. Without a summary, a rule writes one: the first sentence, cut at a word to at most 12 words, with … where it was cut.")));
  }
  ui.paste = h("textarea", { id: "own-import", rows: 4, placeholder: "Dana: Hi! My order ORD-7 never came.\nagent: I'm sorry. I've sent a new one." });
  ui.kinds = h("ol", { className: "own-kinds" });
  ui.kindsBox = h("div", { hidden: true },
    h("h3", {}, "Your conversation"),
    h("p", { className: "caption" }, "Each turn and its kind: change any that is wrong."),
    ui.kinds,
    (ui.back = h("button", { type: "button", className: "quiet", on: { click: () => el.useConversation(el.sourceConversation ?? null, ui.back.textContent) } })));
  ui.file = h("input", { type: "file", id: "own-file", accept: ".jsonl,.json,.txt,application/json,text/plain", on: { change: () => importFile(el) } });
  parts.push(h("div", { className: "own-import" },
    h("h3", {}, "Import a conversation"),
    field(ui.paste, "Conversation to import"),
    h("button", { type: "button", on: { click: () => importText(el, ui.paste.value) } }, "Import"),
    field(ui.file, "Or choose a file"),
    !importSaid && [
      h("p", { className: "caption" }, "Lines of Speaker: text; OpenAI or Anthropic chat messages, tool calls too; or a Claude Code, Codex or Gemini CLI log, up to 64 MB. Nothing leaves this page."),
      h("p", { className: "caption" }, "A rule guesses each turn's kind. A tool's turn (role or speaker \"tool\") is a tool output. A turn of at most 12 words with a greeting or thanks in it (hi, hello, hey, thanks, thank, thx, bye, goodbye, cheers) and no digit is chatter. A turn with a question mark is a question. Anything else is a decision.")]),
    ui.kindsBox);
  el.own.append(...parts);
  importSaid = true;
  el.ownUi = ui;
  showConversation(el);
}

/**
 * Adds the turn the reader typed in the panel as the next turn: the conversation becomes the
 * turns so far and this one, a new session is built from it, and the turn is added as any other.
 */
async function addTypedTurn(el) {
  if (!el.model) return;
  const ui = el.ownUi;
  const turn = el.model.state().turn;
  const spec = { speaker: ui.speaker.value, kind: ui.kind.value, text: ui.text.value, summary: ui.summary.value.trim() ? ui.summary.value : null };
  // The turns so far are the model's script; a playground's model has no `script()`, nor has a
  // model built on a core without `withConfig` (which plays the refund desk alone), so the
  // refund desk's come from a Session of the element's core, which imports by now (the panel
  // is built once it does).
  const source = el.model.script ? el.model : new el.core.Session();
  const specs = el.attempt(() => source.script());
  if (source !== el.model) source.free();
  if (!specs.ok) return;
  if (!(await el.useConversation([...specs.value.slice(0, turn), spec], `Your turn joins as turn ${turn + 1}`, true))) return;
  ui.text.value = "";
  ui.summary.value = "";
  el.addTurn();
}

/** Lists the reader's conversation in the panel, each turn with its kind to change. */
export function showConversation(el) {
  const ui = el.ownUi;
  if (!ui) return;
  const turns = el.conversation;
  ui.kindsBox.hidden = !turns;
  // Back to what the page opened with: the author's file or scenario, else the refund desk.
  ui.back.hidden = turns === el.sourceConversation;
  ui.back.textContent = el.sourceConversation || el.getAttribute("scenario") || el.scenario
    ? "Back to the page's conversation" : el.sessionData?.() ? "Back to the chosen session" : "Back to the refund desk";
  // A long conversation's turns each show their opening, enough to choose a kind by.
  const long = (turns?.length ?? 0) > LARGE_TURNS;
  const clip = (text) => (text.length > 240 ? `${text.slice(0, 240)}\u2026` : text);
  const item = (turn, i) => {
    const select = h("select", { id: `kind-${i + 1}`, on: { change: () => changeKind(el, i, select.value) } },
      ...KINDS.map(([value, label]) => h("option", { value }, label)));
    select.value = turn.kind;
    return h("li", { value: i + 1 },
      h("label", { htmlFor: select.id, className: "visually-hidden" }, `Kind of turn ${i + 1}`), select, " ",
      h("span", { className: "who" }, `${turn.speaker}: `), h("span", { className: "text" }, long ? clip(turn.text) : turn.text));
  };
  ui.kindsPager?.remove();
  ui.kindsPager = null;
  if (!long) {
    ui.kinds.replaceChildren(...(turns ?? []).map(item));
    return;
  }
  // A long conversation in pages of 50 turns.
  ui.kindsPager = pager({ count: turns.length, size: 50, noun: "turn", page: ui.kindsPage ?? 0, show: (from, to) => {
    ui.kindsPage = Math.floor(from / 50);
    ui.kinds.replaceChildren(...turns.slice(from, to).map((turn, i) => item(turn, from + i)));
  } });
  ui.kinds.after(ui.kindsPager);
}

function changeKind(el, index, kind) {
  const turns = el.conversation.map((turn, i) => (i === index ? { ...turn, kind } : turn));
  const label = KINDS.find(([value]) => value === kind)?.[1] ?? kind;
  el.useConversation(turns, `Turn ${index + 1} is now ${label}`, true);
}

/**
 * What the log says of its own session (its tokens as sent, its own compactions), kept beside the
 * turns it came with for the playground to draw (large.js), which a long one needs too.
 */
function keepLog(el, read) {
  el.realLog = { formatName: read.formatName, compactions: read.compactions ?? [], sentTokens: read.sentTokens ?? [], conversation: read.turns };
  if (read.turns.length > LARGE_TURNS || el.realLog.compactions.length || el.realLog.sentTokens.length) attach(el);
}

/**
 * Imports the file the reader chose, refused past MAX_PICKED_BYTES before it is read: in a
 * worker, with a progress bar (large.js), or where the page cannot start one, here.
 */
async function importFile(el) {
  const file = el.ownUi.file.files?.[0];
  // The newest pick wins: one made while an earlier is read drops that one.
  const pick = (el.picks = (el.picks ?? 0) + 1);
  const latest = () => el.picks === pick;
  if (!file) return;
  if (file.size > MAX_PICKED_BYTES) {
    el.fail(new Error(`${file.name} is over ${MAX_PICKED_BYTES / 1_000_000} MB`));
    return;
  }
  if (await importInWorker(el, file, (read) => useImported(el, read), latest)) return;
  const text = await file.text();
  if (latest()) await importText(el, text);
}

/** Imports `text` as the element's conversation and says what was read. */
async function importText(el, text) {
  let core;
  try {
    core = await importer(el);
  } catch (error) {
    el.fail(new Error(`The import could not load its WebAssembly core: ${error?.message ?? error}`));
    return;
  }
  const { ok, value } = el.attempt(() => core.importConversation(text));
  if (ok) await useImported(el, value);
}

/** Makes what `importConversation` read the element's conversation, and says what was read. */
function useImported(el, read) {
  const { turns, formatName, skipped } = read;
  keepLog(el, read);
  const counts = KINDS.map(([kind, label]) => [turns.filter((turn) => turn.kind === kind).length, label])
    .filter(([n]) => n > 0).map(([n, label]) => `${n} ${label}`);
  const passed = skipped ? `; ${plural(skipped, "other event")} passed over` : "";
  // Nothing the log holds is left out unsaid: its own compactions, a subagent's turns kept apart,
  // a rewound branch not replayed, a broken line passed over (the first one named).
  const subagent = read.subagentCount ?? read.subagent?.length ?? 0;
  const said = [
    read.compactions?.length ? `the log compacted ${plural(read.compactions.length, "time")} itself` : "",
    subagent ? `${plural(subagent, "subagent turn")} kept apart` : "",
    read.rewound ? `${plural(read.rewound, "rewound record")} not replayed` : "",
    read.brokenLines ? `${plural(read.brokenLines, "broken line")} left out (line ${read.broken[0]?.line}: ${read.broken[0]?.reason})` : "",
  ].filter(Boolean).map((part) => `; ${part}`).join("");
  return el.useConversation(turns, `Imported ${plural(turns.length, "turn")} from ${formatName}: ${counts.join(", ")}${passed}${said}`);
}
