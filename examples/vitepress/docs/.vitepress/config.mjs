// What VitePress needs: Vue leaves the memory-* tags to the browser.
export default {
  title: "agent-memory-widgets in VitePress",
  vue: { template: { compilerOptions: { isCustomElement: (tag) => tag.startsWith("memory-") } } },
};
