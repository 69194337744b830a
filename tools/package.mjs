// `make dist`: the light embed, dist/agent-memory-widgets/, a folder a docs writer copies whole
// and the npm package (`npm pack dist/agent-memory-widgets`). Made from site/ (`make build`):
//
//   widgets.js                    the loader a page includes: each element's code and wasm core
//                                 load the first time the page uses the element
//   compaction.js, forgetting.js, playground.js, forgetting-playground.js
//                                 each element's module, which defines it (for an element inside
//                                 a shadow root, where the loader cannot see it)
//   chunk-*.js, <core>-*.js, ...  what they share and load on demand (site/'s names)
//   pkg/<core>_bg.wasm            the wasm cores (www/cores.js)
//   import-worker.js              the worker that imports a reader's log, and
//   agent-memory-widgets/import-worker.js
//                                 the same as one file, for hosts' bundlers (www/located.js)
//   core.js, core.d.ts            the full core for direct use (`agent-memory-widgets/core`), with
//                                 its types from wasm-bindgen
//   custom-elements.json, *.d.ts  the elements' manifest and types (tools/manifest.mjs)
//   package.json, README.md, LICENSE-MIT, LICENSE-APACHE
//
// No source maps, no page: site/ keeps those. The one-file bundle beside the folder is
// tools/bundle.mjs's.

import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join, resolve } from "node:path";
import { CORES } from "../www/cores.js";

const root = resolve(import.meta.dirname, "..");
const site = join(root, "site");
export const OUT = join(root, "dist/agent-memory-widgets");

/** The version in Cargo.toml's [package]: the crate and the npm package are released together. */
export function crateVersion() {
  const version = /^\[package\][^[]*?^version = "([^"]+)"/m.exec(readFileSync(join(root, "Cargo.toml"), "utf8"));
  if (!version) throw new Error("package: cannot find the version in Cargo.toml");
  return version[1];
}

function main() {
  const manifest = JSON.parse(readFileSync(join(root, "npm/package.json"), "utf8"));
  if (manifest.version !== crateVersion()) {
    throw new Error(`package: npm/package.json is version ${manifest.version}, Cargo.toml ${crateVersion()}: release them together`);
  }
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(join(OUT, "pkg"), { recursive: true });
  for (const file of readdirSync(site).filter((name) => name.endsWith(".js"))) {
    // The map is not shipped, so neither is the comment that points to it.
    const code = readFileSync(join(site, file), "utf8").replace(/\n\/\/# sourceMappingURL=\S+\n?$/, "\n");
    writeFileSync(join(OUT, file), code);
  }
  for (const core of Object.keys(CORES)) copyFileSync(join(site, `pkg/${core}_bg.wasm`), join(OUT, `pkg/${core}_bg.wasm`));
  mkdirSync(join(OUT, "agent-memory-widgets"));
  copyFileSync(join(site, "agent-memory-widgets/import-worker.js"), join(OUT, "agent-memory-widgets/import-worker.js"));
  // Beside the other modules, so that its wasm is in pkg/ whether the folder is served as it is or
  // a bundler moves the code: a bundle's modules resolve `./pkg/` next to the bundle.
  const meta = JSON.parse(readFileSync(join(site, "meta.json"), "utf8"));
  const glue = Object.keys(meta.outputs).find((path) => meta.outputs[path].entryPoint === "www/pkg/agent_memory_widgets.js");
  if (!glue) throw new Error("package: no chunk for the full core in site/meta.json");
  const from = JSON.stringify(`./${glue.slice("site/".length)}`);
  writeFileSync(join(OUT, "core.js"), [
    '// The full core, for direct use: import init, { Session, FactStore } from "agent-memory-widgets/core".',
    "// Its `init()` finds the wasm in pkg/, wherever a bundler puts the code (www/located.js).",
    `export { default } from ${from};`,
    `export * from ${from};`,
    "",
  ].join("\n"));
  copyFileSync(join(root, "www/pkg/agent_memory_widgets.d.ts"), join(OUT, "core.d.ts"));
  execFileSync("node", [join(root, "tools/manifest.mjs"), OUT], { stdio: "inherit" });
  copyFileSync(join(root, "npm/package.json"), join(OUT, "package.json"));
  for (const file of ["README.md"]) copyFileSync(join(root, "npm", file), join(OUT, file));
  for (const file of ["LICENSE-MIT", "LICENSE-APACHE"]) copyFileSync(join(root, file), join(OUT, file));
  console.log(`package: ${OUT.slice(root.length + 1)}/, the light embed and the npm package`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
