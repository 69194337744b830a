// `make build`: www/ minified into site/, which is what `make serve` serves and readers download.
//
//   site/widgets.js                  the loader a page includes (www/widgets.js): it imports the
//                                    first-paint chunk, which holds the loader's code
//   site/compaction.js, ...          one module per element, loaded when the page first uses it
//   site/own-*.js, site/guide-*.js,  what few readers use, loaded when one first does
//   site/links-*.js,
//   site/settings-*.js
//   site/import-worker.js            the Web Worker that imports and replays a large log file
//   site/agent-memory-widgets/import-worker.js
//                                    the same worker as one file, for hosts' bundlers (www/located.js)
//   site/chunk-*.js                  code two elements share, loaded once: one of them is what
//                                    every element needs first, with the loader (firstPaint)
//   site/pkg/<core>_bg.wasm          the wasm cores of www/cores.js, the one table of them
//   site/pkg/<core>.js               each core's glue at the name it has in www/pkg/, for direct use
//                                    (README: `import init from "./pkg/agent_memory_widgets.js"`):
//                                    it re-exports the minified glue the elements load, so a page
//                                    that does both shares one instance of the core, and its
//                                    `init()` finds the wasm beside it
//   site/index.html, page.css, favicon.svg
//   site/meta.json                   esbuild's account of what each module imports (for the size test)
//
// The readable sources in www/ are what the tests exercise; every .js here has a source map.
// The shadow roots' stylesheet is inlined as a constructed stylesheet, so an element paints
// styled at once instead of waiting for a <link> in each shadow root.

import { build, transform, transformSync } from "esbuild";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { CORES as CORE_TABLE, FAMILIES, coreFor, coresFor, config, own } from "../www/cores.js";
import { RELATIVE } from "../www/located.js";

const root = resolve(import.meta.dirname, "..");
const www = join(root, "www");
const out = join(root, "site");
export { FAMILIES };
const CORES = Object.keys(CORE_TABLE);
/** What each glue's literal names (www/located.js): a relative path and a package path at once. */
const WASM_ALIAS = "agent-memory-widgets/wasm/";

/** Replaces exactly one occurrence of `from`, or stops the build. */
export function replaceOnce(text, from, to, what) {
  const at = text.indexOf(from);
  if (at < 0 || text.indexOf(from, at + 1) >= 0) throw new Error(`build: cannot find exactly one ${what}`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

/** Where style.css's rules for the page around the widgets begin (index.html only). */
const PAGE_RULES = "/* ---- The page around the widgets";

/**
 * The parts of a widget whose code and rules load only when a reader needs them: `own`, the
 * reader's-own-conversation panel (own.js), `guide`, guided mode's panel (guide.js), and
 * `knobs`, the knobs' inputs (knobs.js).
 */
const PARTS = ["own", "guide", "knobs"];

/**
 * What an `@elements` comment in style.css looks like: the elements the rules after it style, or
 * a part of PARTS (rules that its module brings when it loads).
 */
const ELEMENTS_MARK = /^\/\* @elements ([a-z -]+) \*\/$/;

/**
 * The widgets' rules in style.css, by the elements they style: `{ all, compaction, forgetting,
 * playground, forgetting-playground, own, guide }`, each in the file's order. Rules are for every element (`all`) until an
 * `@elements` comment names some; `@elements all` goes back to every element.
 */
export function rulesByElement(css) {
  const rules = { all: [], ...Object.fromEntries([...FAMILIES, ...PARTS].map((target) => [target, []])) };
  let targets = ["all"];
  for (const line of css.split("\n")) {
    const mark = line.match(ELEMENTS_MARK);
    if (!mark && line.startsWith("/* @elements")) throw new Error(`build: style.css has a malformed mark: "${line}"`);
    if (!mark) {
      for (const target of targets) rules[target].push(line);
      continue;
    }
    targets = mark[1].split(" ");
    if (targets.some((target) => !(target in rules))) throw new Error(`build: style.css names an unknown element in "${line}"`);
  }
  return Object.fromEntries(Object.entries(rules).map(([target, lines]) => [target, lines.join("\n")]));
}

/**
 * style.css, minified and split: `shadow`, the widgets' rules for their shadow roots, as
 * `{ all, compaction, forgetting, playground }` (see rulesByElement), and `page`, the theme's
 * custom properties and the page's own rules, for index.html.
 */
export async function minifiedCss() {
  const source = readFileSync(join(www, "style.css"), "utf8");
  const pageAt = source.indexOf(PAGE_RULES);
  const widgetsAt = source.indexOf("/* ---- The widgets");
  if (pageAt < 0 || widgetsAt < 0 || widgetsAt > pageAt) throw new Error("build: cannot find the sections of style.css");
  const minify = async (css) => (await transform(css, { loader: "css", minify: true })).code.trim();
  const shadow = {};
  for (const [target, css] of Object.entries(rulesByElement(source.slice(0, pageAt)))) shadow[target] = await minify(css);
  return { shadow, page: await minify(source.slice(0, widgetsAt) + source.slice(pageAt)) };
}

/**
 * An esbuild plugin that swaps dom.js's `<link>` to style.css for constructed stylesheets:
 * the rules for every element in dom.js (the shared chunk), and each element's own rules in
 * its module, which hands them to dom.js before it defines its element. own.js and guide.js
 * hand over the rules of their panels the same way, and adopt them into an element's shadow root
 * when they build their panel there (`adoptMoreStyles`).
 */
export function inlineStyles(shadow) {
  return {
    name: "inline-styles",
    setup(build) {
      build.onLoad({ filter: /[\\/]www[\\/]dom\.js$/ }, (args) => {
        const source = readFileSync(args.path, "utf8");
        const begin = source.indexOf("// bundle:styles-begin");
        const end = source.indexOf("// bundle:styles-end");
        if (begin < 0 || end < begin) throw new Error("build: cannot find the styles markers in dom.js");
        const styles = `function sheet(css) {
  const made = globalThis.CSSStyleSheet && new CSSStyleSheet();
  made?.replaceSync(css);
  return made;
}
const SHEETS = { all: sheet(${JSON.stringify(shadow.all)}) };
export function addStyles(family, css) {
  SHEETS[family] = sheet(css);
}
export function adoptStyles(root, family) {
  root.adoptedStyleSheets = SHEETS[family] ? [SHEETS.all, SHEETS[family]] : [SHEETS.all];
}
export function adoptMoreStyles(root, name) {
  if (!root.adoptedStyleSheets.includes(SHEETS[name])) root.adoptedStyleSheets = [...root.adoptedStyleSheets, SHEETS[name]];
}
`;
        return { contents: source.slice(0, begin) + styles + source.slice(end + "// bundle:styles-end".length), loader: "js" };
      });
      const elementModule = new RegExp(`[\\\\/]www[\\\\/](${[...FAMILIES, ...PARTS].join("|")})\\.js$`);
      build.onLoad({ filter: elementModule }, (args) => {
        const family = args.path.match(elementModule)[1];
        const source = readFileSync(args.path, "utf8");
        // Imports run first whatever their place, so the rules are added before define() runs.
        const styles = `import { addStyles as __addStyles } from "./dom.js";\n__addStyles(${JSON.stringify(family)}, ${JSON.stringify(shadow[family])});\n`;
        return { contents: styles + source, loader: "js" };
      });
    },
  };
}

/**
 * wasm-bindgen's warnings in a core's `glue` (from file `name`), shorter: the same advice in
 * fewer words, in every glue a page loads (about 80 B of gzip each).
 */
export function shortWarnings(glue, name) {
  const warnings = [
    ["'using deprecated parameters for `initSync()`; pass a single object instead'", "'initSync(): pass one object, { module }'"],
    ["'using deprecated parameters for the initialization function; pass a single object instead'", "'init(): pass one object, { module_or_path }'"],
    ['"`WebAssembly.instantiateStreaming` failed because your server does not serve Wasm with `application/wasm` MIME type. Falling back to `WebAssembly.instantiate` which is slower. Original error:\\n"',
      '"Wasm is not served as application/wasm: compiling it the slower way. "'],
  ];
  return warnings.reduce((text, [from, to]) => replaceOnce(text, from, to, `warning ${from.slice(1, 30)}... in ${name}`), glue);
}

/**
 * An esbuild plugin that points each core's glue at its wasm where the build puts it. Given no
 * wasm, the glue's `init()` fetches `new URL("<core>_bg.wasm", import.meta.url)`, beside the glue
 * in www/pkg/; built, the glue is a chunk in site/ and the wasm in site/pkg/. The URL is written
 * as www/located.js says: a literal that is a relative path and a package path at once, which
 * Vite (in dev too, after its dependency pre-bundling has moved the code) and webpack rewrite to
 * the file, and which the glue turns into pkg/<core>_bg.wasm beside the chunk where it was read
 * as a relative path (`located`).
 */
export const wasmInPkg = {
  name: "wasm-in-pkg",
  setup(build) {
    build.onLoad({ filter: /[\\/]www[\\/]pkg[\\/][\w-]+\.js$/ }, (args) => ({ contents: glueInPkg(args.path.match(/([\w-]+)\.js$/)[1]), loader: "js" }));
  },
};

/** Core `core`'s glue (www/pkg/<core>.js) as wasmInPkg builds it. */
function glueInPkg(core) {
  const from = `new URL('${core}_bg.wasm', import.meta.url)`;
  // located(), written out: a page loads one glue, and a module of its own would be one more request.
  const to = `new URL("${WASM_ALIAS}${core}_bg.wasm", import.meta.url).href.replace(${JSON.stringify(RELATIVE)}, "/pkg/")`;
  const glue = replaceOnce(readFileSync(join(www, `pkg/${core}.js`), "utf8"), from, to, `wasm URL in www/pkg/${core}.js`);
  return shortWarnings(glue, `www/pkg/${core}.js`);
}

/**
 * The modules every element needs before it paints (the DOM helpers, the table of cores, the base
 * class) and the loader, which needs the table. An esbuild plugin that has every other module
 * import them through one module, so that they are one chunk: esbuild puts modules imported from
 * different sets of entry points (widgets.js, each element, each part that loads on demand) in
 * chunks of their own, and the compaction page's first paint fetched four of them, gzipped apart
 * (880 B more on every page). A page that loads any of them loads them all: the loader's page has
 * elements, and the parts that load on demand load into an element. (An element's module imported
 * without the loader, as in another element's shadow root, fetches the loader's code unused.)
 */
const FIRST_PAINT = ["dom.js", "cores.js", "widget.js", "loader.js"];
export const firstPaint = {
  name: "first-paint",
  setup(build) {
    const inside = new Set(FIRST_PAINT.map((file) => join(www, file)));
    const filter = new RegExp(`^\\./(${FIRST_PAINT.map((file) => file.replace(".", "\\.")).join("|")})$`);
    build.onResolve({ filter }, (args) => (args.namespace === "file" && !inside.has(args.importer) ? { path: "first-paint", namespace: "first-paint" } : undefined));
    build.onLoad({ filter: /.*/, namespace: "first-paint" }, () => ({
      resolveDir: www,
      contents: FIRST_PAINT.map((file) => `export * from "./${file}";`).join("\n"),
      loader: "js",
    }));
  },
};

let weights = null;
/**
 * What each core downloads, in gzip bytes, in the order of www/cores.js's CORES: its wasm and its
 * glue, minified as the build minifies it. The build writes them into www/cores.js (`WEIGHTS`),
 * whose `coresFor` then chooses between one core for a page and one for each family on it.
 */
export function coreWeights() {
  const gzip = (bytes) => gzipSync(bytes, { level: 9 }).length;
  weights ??= CORES.map((core) => gzip(readFileSync(join(www, `pkg/${core}_bg.wasm`)))
    + gzip(transformSync(glueInPkg(core), { minify: true, format: "esm", target: "es2022", legalComments: "none" }).code));
  return weights;
}

/**
 * The files (paths from the root) that a page fetches, besides itself, whose elements need
 * `needs` of a core: their families, and what else they need (www/cores.js: a custom scenario);
 * the wasm of each core first.
 */
export function pageFiles(meta, needs) {
  const families = FAMILIES.filter((family) => [family, config(family), own(family)].some((need) => needs.includes(need)));
  const files = new Set(["site/page.css"]);
  const visit = (path) => {
    if (files.has(path)) return;
    files.add(path);
    for (const { path: next, kind } of meta.outputs[path].imports) if (kind === "import-statement") visit(next);
  };
  visit("site/widgets.js");
  if (families.length === 0) return [...files];
  for (const family of families) visit(`site/${family}.js`);
  // The cores the loader picks for these needs (www/cores.js, coresFor): one, or one per family.
  const cores = coresFor(needs, coreWeights());
  for (const core of cores) {
    const glue = Object.keys(meta.outputs).find((path) => meta.outputs[path].entryPoint === `www/pkg/${core}.js`);
    if (!glue) throw new Error(`build: no chunk for the ${core} core`);
    visit(glue);
  }
  return [...cores.map((core) => `site/pkg/${core}_bg.wasm`), ...files];
}

/** The cores the import's worker loads: one for each family's `own` need that has a core of its own. */
export const WORKER_CORES = FAMILIES.map(own).filter((name) => CORES.includes(name));

/**
 * site/agent-memory-widgets/import-worker.js: the import's worker as one file, for the hosts'
 * bundlers, where large.js names it (www/located.js). It holds the cores of WORKER_CORES, not a
 * chunk for each: Vite 5 to 7 build a worker as one file, and fail on a dynamic import.
 */
/**
 * An esbuild plugin that writes what the build knows into www/cores.js: what each core downloads
 * (`WEIGHTS`, coreWeights), and every core by name in its import of a core's glue, in place of
 * its template import (`./pkg/${name}.js`): each glue is still a chunk of its own, and no helper
 * for a template import (a chunk that every page would fetch) is needed.
 */
const coresModule = {
  name: "cores-module",
  setup(build) {
    const cores = `{ ${CORES.map((name) => `${JSON.stringify(name)}: () => import("./pkg/${name}.js")`).join(", ")} }`;
    build.onLoad({ filter: /[\\/]www[\\/]cores\.js$/ }, (args) => {
      const source = replaceOnce(readFileSync(args.path, "utf8"), "import(`./pkg/${name}.js`)", `${cores}[name]()`, "core import in www/cores.js");
      return { contents: replaceOnce(source, "WEIGHTS = null;", `WEIGHTS = ${JSON.stringify(coreWeights())};`, "WEIGHTS in www/cores.js"), loader: "js" };
    });
  },
};

/**
 * An esbuild plugin that names the worker's cores (WORKER_CORES) in import-worker.js, in place of
 * its template import, as coresModule does for www/cores.js.
 */
const workerCores = {
  name: "worker-cores",
  setup(build) {
    const cores = `{ ${WORKER_CORES.map((name) => `${JSON.stringify(name)}: () => import("./pkg/${name}.js")`).join(", ")} }`;
    build.onLoad({ filter: /[\\/]www[\\/]import-worker\.js$/ }, (args) => ({
      contents: replaceOnce(readFileSync(args.path, "utf8"), "import(`./pkg/${name}.js`)", `(${cores})[name]()`, "core import in www/import-worker.js"),
      loader: "js",
    }));
  },
};

async function buildOneFileWorker() {
  await build({
    entryPoints: [join(www, "import-worker.js")],
    outfile: join(out, "agent-memory-widgets/import-worker.js"),
    bundle: true,
    format: "esm",
    minify: true,
    target: "es2022",
    legalComments: "none",
    plugins: [workerCores, wasmInPkg],
    logLevel: "warning",
  });
}

async function main() {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, "pkg"), { recursive: true });
  const css = await minifiedCss();
  const result = await build({
    // import-worker.js: the worker that reads a reader's large log (www/large.js starts it by name).
    entryPoints: ["widgets.js", ...FAMILIES.map((family) => `${family}.js`), "import-worker.js"].map((file) => join(www, file)),
    outdir: out,
    bundle: true,
    splitting: true,
    format: "esm",
    minify: true,
    sourcemap: "linked",
    target: "es2022",
    metafile: true,
    legalComments: "none",
    plugins: [firstPaint, inlineStyles(css.shadow), wasmInPkg, workerCores, coresModule],
    logLevel: "warning",
  });
  writeFileSync(join(out, "meta.json"), JSON.stringify(result.metafile, null, 1));
  writeFileSync(join(out, "page.css"), css.page);
  for (const core of CORES) {
    copyFileSync(join(www, `pkg/${core}_bg.wasm`), join(out, `pkg/${core}_bg.wasm`));
    const glue = Object.keys(result.metafile.outputs).find((path) => result.metafile.outputs[path].entryPoint === `www/pkg/${core}.js`);
    if (!glue) throw new Error(`build: no chunk for the ${core} core`);
    // The minified glue sits in site/, so its `init()` without an argument would look for the
    // wasm there: this one's looks next to itself, as the glue in www/pkg/ does.
    const from = JSON.stringify(`../${glue.slice("site/".length)}`);
    writeFileSync(join(out, `pkg/${core}.js`), [
      `// ${core}'s glue as www/pkg/${core}.js is, for direct use: the minified module the elements load.`,
      `import init from ${from};`,
      `export * from ${from};`,
      `export default (input) => init(input ?? { module_or_path: new URL("${core}_bg.wasm", import.meta.url) });`,
      "",
    ].join("\n"));
  }
  copyFileSync(join(www, "favicon.svg"), join(out, "favicon.svg"));
  await buildOneFileWorker();

  // The page: besides widgets.js, preload what its elements will ask for, so that the element
  // modules, the shared chunk and the wasm download in parallel with the loader, not after it.
  let page = readFileSync(join(www, "index.html"), "utf8");
  const used = FAMILIES.filter((family) => page.includes(`<memory-${family}`));
  const hints = pageFiles(result.metafile, used)
    .filter((file) => file !== "site/widgets.js" && !file.endsWith(".css"))
    .map((file) => file.slice("site/".length))
    .map((file) => file.endsWith(".wasm")
      ? `<link rel="preload" href="${file}" as="fetch" type="application/wasm" crossorigin>`
      : `<link rel="modulepreload" href="${file}">`);
  page = replaceOnce(page, '<link rel="stylesheet" href="style.css">', '<link rel="stylesheet" href="page.css">', "stylesheet link");
  page = replaceOnce(page, '<link rel="modulepreload" href="widgets.js">', ['<link rel="modulepreload" href="widgets.js">', ...hints].join("\n  "), "modulepreload link");
  writeFileSync(join(out, "index.html"), page);
  console.log(`build-site: site/ with ${used.length} element families on index.html, ${hints.length} preload hints`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
