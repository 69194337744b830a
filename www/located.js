// Where the package's files are once a host has bundled its code: each core's wasm, and the
// worker that reads a reader's log. Each glue names its wasm by a literal the hosts' bundlers
// rewrite to the file they serve,
//
//   new URL("agent-memory-widgets/wasm/<core>_bg.wasm", import.meta.url)
//
// a relative path and a package path at once:
//
// - Vite 5 to 7 (VitePress 1, Astro 5) move the package's code to their dependency cache before
//   the dev server serves it (`node_modules/.vite/deps/`), where a relative path finds nothing;
//   they then read the literal as the package's name and a subpath, which package.json's
//   "exports" maps to pkg/<core>_bg.wasm. webpack (Docusaurus) and `vite build` rewrite it to the
//   file too. So the package needs no `optimizeDeps` setting in the host's config.
// - Served as it is (the light embed), left alone by a bundler (esbuild), or rewritten as a
//   relative path from the code's own folder (by Vite 8's dependency cache), it names
//   agent-memory-widgets/wasm/ beside the code, a folder that does not exist: the glue reads
//   that as pkg/ beside the code (RELATIVE), without a request.
//
// The build (tools/build-site.mjs, wasmInPkg) writes the literal and that reading into each glue.

/**
 * The folder the literal names where it was read as a relative path: pkg/ is beside it, two
 * folders up. (No bundler's file is in it: their paths hold pkg/ or a folder of assets.)
 */
export const RELATIVE = "/agent-memory-widgets/wasm/";

/**
 * The file `url` names: a bundler's file as it is, or, where the literal was read as a relative
 * path, its file in pkg/ beside the code.
 *
 *   located(new URL("https://docs.example/assets/compaction_bg-1a2b.wasm"))
 *     // the same
 *   located(new URL("https://docs.example/widgets/agent-memory-widgets/wasm/compaction_bg.wasm"))
 *     // https://docs.example/widgets/pkg/compaction_bg.wasm
 */
export const located = (url) => new URL(url.href.replace(RELATIVE, "/pkg/"));

/**
 * The worker that reads a reader's log, beside the code (import-worker.js, which loads its core
 * when asked), where the package's URLs are read as relative paths: served as it is, from
 * esbuild's output, or from Vite 8's dependency cache (from the code's own folder: a core's wasm
 * is the witness). Elsewhere `null`: a bundler that rewrites the URLs (Vite 5 to 7, webpack,
 * every `vite build`) bundles the worker that large.js names by a literal,
 * agent-memory-widgets/import-worker.js: the same worker, built as one file with the cores that
 * import (tools/build-site.mjs), since Vite 5 to 7 build a worker as one file.
 */
export function workerBeside() {
  const wasm = new URL("agent-memory-widgets/wasm/compaction-own_bg.wasm", import.meta.url);
  return wasm.pathname.includes(RELATIVE) ? new URL("../../import-worker.js", wasm) : null;
}
