// What VitePress 1 needs, on its Vite 5: Vue leaves the memory-* tags to the browser; the dev
// server's dependency pre-bundling (esbuild's, before Vite 8) leaves the package alone, or its
// code moves away from its wasm; and the package's web worker (it reads a reader's conversation,
// and loads a core) is bundled as a module.
export default {
  title: "agent-memory-widgets in VitePress",
  vue: { template: { compilerOptions: { isCustomElement: (tag) => tag.startsWith("memory-") } } },
  vite: { optimizeDeps: { exclude: ["agent-memory-widgets"] }, worker: { format: "es" } },
};
