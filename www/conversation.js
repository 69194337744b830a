// The element side of a reader's own conversation, for <memory-compaction> and
// <memory-playground>: the `src` attribute and the panel where a reader types or imports one.
// The panel's code (own.js) and the core that imports conversations load when a reader first
// opens the panel or a `src` file is read, so a page whose readers never do downloads neither.

import { h } from "./dom.js";
import { namesSession } from "./cores.js";

/**
 * `Base` (a `MemoryWidget`) with a reader's own conversation. The element keeps it as turn specs
 * (`this.conversation`); the core validates them, infers kinds, writes missing summaries and
 * plays them.
 */
export const WithConversation = (Base) => class extends Base {
  connectedCallback() {
    // An author's file, or a built-in session, needs own.js and the core that imports it: fetch
    // them while the page loads.
    if ((this.getAttribute("src") || namesSession(this)) && !this.ownModule) {
      this.ownModule = import("./own.js");
      this.ownModule.then((own) => own.prefetch(this), () => {}); // loadSource reports a failure
    }
    return super.connectedCallback();
  }

  /** `src` reads its file again, and `session` its session; any other attribute rebuilds. */
  attributeChanged(name) {
    if (name !== "src" && name !== "session") return super.attributeChanged(name);
    this.conversation = this.sourceConversation = null;
    const version = (this.sourceVersion = (this.sourceVersion ?? 0) + 1);
    this.loadSource().then(async (problem) => {
      // A later `src`, or the element's removal, overtook this file.
      if (version !== this.sourceVersion || !this.isConnected) return;
      // Built on the core that plays it, so that the build is not handed on and the problem
      // shown below stays. (One that cannot load is reported by the build.)
      await this.coreServing(this.coreNeed()).catch(() => {});
      if (version !== this.sourceVersion || !this.isConnected) return;
      this.rebuild();
      if (problem) this.fail(problem);
    });
  }

  /**
   * Reads the conversation file the `src` attribute names (own.js: this page's origin only) and
   * makes it the element's conversation; without one, loads the built-in session `session`
   * names. Returns the error to show, if any; the element then plays the refund desk (or its
   * `scenario`).
   */
  async loadSource() {
    const src = this.getAttribute("src");
    if (!src || !this.constructor.observedAttributes.includes("src")) {
      // A `src` file plays in place of a built-in session: only without one is it loaded.
      return namesSession(this) ? this.loadSession(this.getAttribute("session")) : null;
    }
    try {
      await (await (this.ownModule ?? import("./own.js"))).loadSource(this, src);
      return null;
    } catch (error) {
      return new Error(`src="${src}": ${error?.message ?? error}`);
    }
  }

  /**
   * Loads built-in session `name` (own.js), once: its turns and the budget it is played at are
   * then `sessionData()`. Returns the error to show, if any.
   */
  async loadSession(name) {
    if (name === null || name === "refund-desk" || Object.hasOwn(this.sessions ?? {}, name)) return null;
    try {
      await (await (this.ownModule ?? import("./own.js"))).loadSession(this, name);
      return null;
    } catch (error) {
      return new Error(`session="${name}": ${error?.message ?? error}`);
    }
  }

  /** A knob's value in force when its attribute is absent: a built-in session's own budget. */
  knobDefault(attribute) {
    return attribute === "budget" && !this.conversation ? this.sessionData()?.budget : undefined;
  }

  /** The built-in session the `session` attribute names, `{ turns, budget }`, once loaded. */
  sessionData() {
    const name = this.getAttribute("session");
    return namesSession(this) && Object.hasOwn(this.sessions ?? {}, name) ? this.sessions[name] : undefined;
  }

  /** The panel, closed: its content is built when the reader first opens it (own.js). */
  ensureOwnPanel(typing) {
    if (this.own) return;
    this.own = h("details", { className: "own", on: { toggle: () => this.#openOwnPanel(typing) } },
      h("summary", {}, typing ? "Your own conversation: type a turn, or import one" : "Your own conversation: import one"),
      h("p", { className: "caption own-loading" }, "Loading\u2026"));
    (this.knobs ?? this.body).after(this.own);
  }

  #ownPanel = null;
  #openOwnPanel(typing) {
    if (!this.own.open) return;
    this.#ownPanel ??= import("./own.js").then(async (own) => {
      await own.buildOwnPanel(this, typing);
      this.showConversation = () => own.showConversation(this);
    }).catch((error) => {
      this.#ownPanel = null; // the next opening tries again
      this.fail(new Error(`The panel for your own conversation could not load its code: ${error?.message ?? error}`));
    });
  }

  /** Lists the conversation in the panel once it is built (own.js replaces this). */
  showConversation() {}

  /**
   * Makes `turns` (specs, or `null` for the page's own) the conversation, from turn 0 unless
   * `keep`. Resolves to whether it could.
   */
  async useConversation(turns, what, keep = false) {
    const error = await this.reconfigure(() => {
      this.conversation = turns;
    }, what, keep ? this.progress?.() ?? null : 0);
    if (error) this.fail(error);
    return !error;
  }
};
