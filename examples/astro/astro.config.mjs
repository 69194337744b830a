// What Astro 5 needs, on its Vite 6: the package's web worker (it reads a reader's conversation,
// and loads a core) bundled as a module, and for the dev server, the package left out of
// dependency pre-bundling, which moves its code away from its wasm (Vite 8's does not).
export default {
  vite: { optimizeDeps: { exclude: ["agent-memory-widgets"] }, worker: { format: "es" } },
};
