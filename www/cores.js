// Which wasm core serves which elements. A core is the Rust crate built with only some of its
// exports (the Makefile's FAMILIES), so each carries only the code its elements use. Shared by
// the elements (widget.js) and the build (tools/build-site.mjs), which preloads the same choice.

/** The element families, each named after its element: <memory-compaction>, ... */
export const FAMILIES = ["compaction", "forgetting", "playground", "forgetting-playground"];

/**
 * The cores by name (www/pkg/<name>.js and <name>_bg.wasm), smallest first: what each serves and
 * how to load its glue. The playground's core also serves <memory-compaction>, which is most of it.
 */
export const CORES = {
  compaction: { serves: ["compaction"], load: () => import("./pkg/compaction.js") },
  forgetting: { serves: ["forgetting"], load: () => import("./pkg/forgetting.js") },
  "forgetting-playground": { serves: ["forgetting-playground"], load: () => import("./pkg/forgetting-playground.js") },
  playground: { serves: ["compaction", "playground"], load: () => import("./pkg/playground.js") },
  agent_memory_widgets: { serves: FAMILIES, load: () => import("./pkg/agent_memory_widgets.js") },
};

/**
 * The smallest core that serves every family in `families`.
 *
 *   coreFor(["compaction"])                 // "compaction"
 *   coreFor(["compaction", "playground"])   // "playground"
 *   coreFor(["compaction", "forgetting"])   // "agent_memory_widgets"
 */
export function coreFor(families) {
  return Object.keys(CORES).find((name) => families.every((family) => CORES[name].serves.includes(family)));
}
