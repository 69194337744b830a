// What <memory-compaction> and <memory-playground> share for a reader's own conversation: the
// panel (type a turn, import a conversation, see and change each turn's kind) and the `src`
// attribute. A mixin, so that a page without these elements never downloads it. The element keeps
// the conversation as turn specs (`this.conversation`); the core validates them, infers kinds,
// writes missing summaries and plays them. Text is set as text, never parsed as HTML.

import { h, plural, readCapped } from "./widget.js";

/** The largest conversation file read: the core takes at most 1,000,000 characters. */
const MAX_FILE_BYTES = 4_000_000;

/** A response's body as text, refused past `limit` bytes before it is all read. */
async function cappedText(response, limit) {
  if (!response.body) return "";
  const bytes = await readCapped(response.body, limit);
  if (bytes === null) throw new Error(`the file is over ${limit / 1_000_000} MB`);
  return new TextDecoder().decode(bytes);
}

/** A turn's kinds, as the core names them and as the page says them. */
export const KINDS = [["chatter", "chatter"], ["decision", "decision"], ["tool", "tool output"], ["question", "question"]];

/** `Base` (a `MemoryWidget`) with the reader's own conversation. */
export const WithConversation = (Base) => class extends Base {
  /** `src` reads its file again; any other attribute rebuilds. */
  attributeChanged(name) {
    if (name !== "src") return super.attributeChanged(name);
    this.conversation = this.sourceConversation = null;
    const version = (this.sourceVersion = (this.sourceVersion ?? 0) + 1);
    this.loadSource().then((problem) => {
      // A later `src`, or the element's removal, overtook this file.
      if (version !== this.sourceVersion || !this.isConnected) return;
      this.rebuild();
      if (problem) this.fail(problem);
    });
  }

  /**
   * Reads the conversation file the `src` attribute names, from this page's own origin only, and
   * makes it the element's conversation. Returns the error to show, if any; the element then
   * plays the refund desk (or its `scenario`).
   */
  async loadSource() {
    const src = this.getAttribute("src");
    if (!src || !this.constructor.observedAttributes.includes("src")) return null;
    try {
      const url = new URL(src, document.baseURI);
      if (url.origin !== location.origin) {
        throw new Error(`only a file from this page's own origin (${location.origin}) can be read, not one from ${url.origin}`);
      }
      const response = await fetch(url, { credentials: "same-origin" });
      if (new URL(response.url || url).origin !== location.origin) throw new Error("the file redirects to another origin");
      if (!response.ok) throw new Error(`the file could not be fetched (HTTP ${response.status})`);
      const turns = this.core.importConversation(await cappedText(response, MAX_FILE_BYTES));
      this.sourceConversation = this.conversation = turns;
      return null;
    } catch (error) {
      return new Error(`src="${src}": ${error?.message ?? error}`);
    }
  }

  /**
   * The panel where a reader brings their own conversation: types a turn (`typing`, for
   * <memory-compaction>), imports one, sees and changes each turn's kind. Built once, outside
   * the content a rebuild replaces, so that focus stays put.
   */
  ensureOwnPanel(typing) {
    if (this.own) return;
    const ui = (this.ownUi = {});
    const field = (control, label) => h("div", { className: "field" }, h("label", { htmlFor: control.id }, label), control);
    const parts = [];
    if (typing) {
      const choice = (id, options) => h("select", { id }, ...options.map(([value, label]) => h("option", { value }, label)));
      ui.text = h("textarea", { id: "own-text", rows: 2 });
      ui.speaker = choice("own-speaker", [["user", "user"], ["agent", "agent"], ["tool", "tool"]]);
      ui.kind = choice("own-kind", KINDS);
      ui.kind.value = "decision";
      ui.summary = h("input", { type: "text", id: "own-summary", placeholder: "empty: the first-sentence rule writes one" });
      parts.push(h("form", { className: "own-turn", on: { submit: (event) => { event.preventDefault(); this.addOwnTurn(); } } },
        h("h3", {}, "Type a turn"),
        field(ui.text, "Your turn"),
        h("div", { className: "field-row" }, field(ui.speaker, "Speaker"), field(ui.kind, "Kind")),
        field(ui.summary, "Summary (optional)"),
        h("button", { type: "submit", className: "primary" }, "Add my turn"),
        h("p", { className: "caption" }, "Your turn comes next, after the turn shown now; the turns that would have followed are left out, as in a live conversation. It is counted and compacted like any other. Without a summary of your own, a rule writes one: the first sentence, cut at a word to at most 12 words, with … where it was cut.")));
    }
    ui.paste = h("textarea", { id: "own-import", rows: 4, placeholder: "Dana: Hi! My order ORD-7 never came.\nagent: I'm sorry. I've sent a new one." });
    ui.kinds = h("ol", { className: "own-kinds" });
    ui.kindsBox = h("div", { hidden: true },
      h("h3", {}, "Your conversation"),
      h("p", { className: "caption" }, "Each turn with its kind (the script's, the one you chose, or the import rule's guess): change any that is wrong."),
      ui.kinds,
      (ui.back = h("button", { type: "button", className: "quiet", on: { click: () => this.useConversation(this.sourceConversation ?? null, ui.back.textContent) } })));
    parts.push(h("div", { className: "own-import" },
      h("h3", {}, "Import a conversation"),
      field(ui.paste, "Conversation to import"),
      h("p", { className: "caption" }, `Paste plain lines, one turn each as Speaker: text, or a JSON array of chat messages as chat APIs write them, { "role": "user", "content": "…" } (or a request that holds them as "messages"). Nothing leaves this page. A leading [timestamp] is left out. A rule guesses each turn's kind: a tool's turn is a tool output; a short turn with a greeting or thanks and no digit is chatter; one with a question mark is a question; anything else is a decision.`),
      h("button", { type: "button", on: { click: () => this.importPasted() } }, "Import")),
      ui.kindsBox);
    this.own = h("details", { className: "own" },
      h("summary", {}, typing ? "Your own conversation: type a turn, or import one" : "Your own conversation: import one"), ...parts);
    (this.knobs ?? this.body).after(this.own);
    this.showConversation();
  }

  /** Lists the reader's conversation, each turn with its kind to change. */
  showConversation() {
    const ui = this.ownUi;
    if (!ui) return;
    const turns = this.conversation;
    ui.kindsBox.hidden = !turns;
    // Back to what the page opened with: the author's file or scenario, else the refund desk.
    ui.back.hidden = turns === this.sourceConversation;
    ui.back.textContent = this.sourceConversation || this.getAttribute("scenario") || this.scenario
      ? "Back to the page's conversation" : "Back to the refund desk";
    ui.kinds.replaceChildren(...(turns ?? []).map((turn, i) => {
      const select = h("select", { id: `kind-${i + 1}`, on: { change: () => this.changeKind(i, select.value) } },
        ...KINDS.map(([value, label]) => h("option", { value }, label)));
      select.value = turn.kind;
      return h("li", {},
        h("label", { htmlFor: select.id, className: "visually-hidden" }, `Kind of turn ${i + 1}`), select, " ",
        h("span", { className: "who" }, `${turn.speaker}: `), h("span", { className: "text" }, turn.text));
    }));
  }

  /** Makes `turns` (specs, or `null` for the page's own) the conversation, from turn 0 unless `keep`. */
  useConversation(turns, what, keep = false) {
    const error = this.reconfigure(() => {
      this.conversation = turns;
    }, what, keep ? this.progress?.() ?? null : 0);
    if (error) this.fail(error);
    return !error;
  }

  changeKind(index, kind) {
    const turns = this.conversation.map((turn, i) => (i === index ? { ...turn, kind } : turn));
    const label = KINDS.find(([value]) => value === kind)?.[1] ?? kind;
    this.useConversation(turns, `Turn ${index + 1} is now ${label}`, true);
  }

  importPasted() {
    const { ok, value } = this.attempt(() => this.core.importConversation(this.ownUi.paste.value));
    if (!ok) return;
    const counts = KINDS.map(([kind, label]) => [value.filter((turn) => turn.kind === kind).length, label])
      .filter(([n]) => n > 0).map(([n, label]) => `${n} ${label}`);
    this.useConversation(value, `Imported ${plural(value.length, "turn")}: ${counts.join(", ")}`);
  }

};
