// What each compaction of a playground's policy took from its window, in words: loaded when a
// reader first opens a policy (playground.js). It holds no policy logic: the core's `losses`.

import { h, plural, listed } from "./dom.js";

/**
 * What each compaction of a policy took from its window (the core's `losses`), in words: one
 * disclosure a step, its summary the upshot, its body where the turns went and the facts.
 * `turnList` is session.js's, handed in: an import of it here would split that module out of the
 * chunk the compaction elements share.
 */
export function lossList(losses, paged, turnList) {
  if (losses.length === 0) return [h("p", { className: "note" }, "No compaction yet: the window has lost nothing.")];
  const turns = (list) => turnList(list).replace(/^turns? /, "");
  const said = (list, one, many) => list.length === 0 ? null : h("li", {}, `${list.length === 1 ? one : many} ${turns(list)}.`);
  return [
    h("h4", {}, `What each compaction took (${plural(losses.length, "compaction")} so far)`),
    (paged ?? ((items, render) => h("ol", { className: "losses" }, ...items.map((item) => h("li", {}, render(item))))))(losses, (loss) => {
      // The upshot names each kind of move as the list under it does.
      const gist = [
        loss.summarized.length ? `${plural(loss.summarized.length, "turn")} into a summary` : "",
        loss.alreadySummarized.length ? `${plural(loss.alreadySummarized.length, "turn")} already in the summary left verbatim` : "",
        loss.dropped.length ? `${plural(loss.dropped.length, "turn")} dropped` : "",
        loss.summariesDropped.length ? `the summary of ${plural(loss.summariesDropped.length, "older turn")} left` : "",
        loss.masked.length ? `${plural(loss.masked.length, "tool output")} masked` : "",
        loss.cut.length ? `${plural(loss.cut.length, "turn")} cut to fit` : "",
        loss.factsLost.length ? `no longer names ${listed(loss.factsLost)}` : "",
      ].filter(Boolean).join("; ");
      return h("details", {},
        h("summary", {}, `Turn ${loss.turn}: ${gist || "nothing left the window"}`),
        h("ul", {},
          said(loss.summarized, "Into a summary: turn", "Into a summary: turns"),
          said(loss.alreadySummarized, "Left verbatim, already in the summary: turn", "Left verbatim, already in the summary: turns"),
          said(loss.dropped, "Dropped outright: turn", "Dropped outright: turns"),
          said(loss.summariesDropped, "Its summary left the window too: turn", "Their summaries left the window too: turns"),
          said(loss.masked, "Masked in place, its text replaced by a stub: turn", "Masked in place, their text replaced by a stub: turns"),
          said(loss.cut, "Kept in part, cut to fit: turn", "Kept in part, cut to fit: turns"),
          loss.factsLost.length ? h("li", {}, `The window no longer names ${listed(loss.factsLost)}.`) : null,
          loss.factsBare.length ? h("li", {}, `Now only a bare term in the gist: ${listed(loss.factsBare)}.`) : null,
          loss.factsLost.length + loss.factsBare.length === 0 ? h("li", {}, "Every key fact it named, it still names in a sentence.") : null));
    }, "compaction", true),
  ];
}
