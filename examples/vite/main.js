// The whole setup: one import, no vite.config.js. Each element's code and wasm core load the
// first time the page uses it.
import "agent-memory-widgets";
