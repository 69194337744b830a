// ARCHITECTURE.md stays a map a newcomer can hold, and a true one: at most 150 lines, and every
// path it names exists. A file moved or removed without the map fails here. Part of `make test`
// (test-native).
//
//   node --test tests/architecture.test.mjs

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..");
const TOP = ["src/", "www/", "tools/", "tests/", "benches/", "examples/", "docs/"];

/**
 * Each path `text` names in backticks, as `{ line, path, tried }`: a token with a `/` or a file
 * name's ending. One that starts with a top folder is read from the root; a bare name from the
 * folder its section names (`Compaction (\`src/compaction/\`):`), or from the folder that opens
 * its list item (`- \`import/\`: … \`logs.rs\``), on any line of that item.
 */
export function namedPaths(text) {
  const out = [];
  let base = "";
  let item = "";
  for (const [index, line] of text.split("\n").entries()) {
    const tokens = [...line.matchAll(/`([^`\s]+)`/g)].map((match) => match[1]);
    if (/^[^-\s`]/.test(line)) {
      // A heading or a section's own line: `The boundary (\`src/wasm/\`):` sets the folder,
      // `Around it:` the root.
      base = tokens.find((token) => token.endsWith("/")) ?? "";
      item = "";
      continue;
    }
    // A list item's first line; its continuation lines keep its folder.
    if (line.startsWith("- ")) item = tokens[0]?.endsWith("/") ? tokens[0] : "";
    for (const token of tokens) {
      if (!/^[\w.\-/]+$/.test(token) || !(token.includes("/") || /\.(rs|js|mjs|md|css|html|svg|json|toml)$/.test(token))) continue;
      const tried = TOP.some((top) => token.startsWith(top))
        ? [token]
        : [base + token, ...(item && token !== item ? [base + item + token] : [])];
      out.push({ line: index + 1, path: token, tried });
    }
  }
  return out;
}

const text = readFileSync(join(ROOT, "ARCHITECTURE.md"), "utf8");

test("ARCHITECTURE.md has at most 150 lines", () => {
  const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  assert.ok(lines <= 150, `ARCHITECTURE.md has ${lines} lines; the map keeps to 150`);
});

test("every path ARCHITECTURE.md names exists", () => {
  const paths = namedPaths(text);
  // The map names most files of src/ and www/: a reader that found few would check nothing.
  assert.ok(paths.length > 80, `only ${paths.length} paths read`);
  // A file the build writes and git ignores (`/www/opening.js` in .gitignore) counts as there: a
  // fresh checkout has not built it yet.
  const generated = readFileSync(join(ROOT, ".gitignore"), "utf8")
    .split("\n")
    .filter((line) => /^\/[\w.\-/]+$/.test(line))
    .map((line) => line.slice(1));
  const there = (path) => generated.includes(path) || existsSync(join(ROOT, path));
  const missing = paths.filter(({ tried }) => !tried.some(there));
  assert.deepEqual(missing.map(({ line, path, tried }) => `line ${line}: ${path} (${tried.join(" or ")})`), []);
});

test("a moved file, a bare name in the wrong section or a folder that is gone are caught", () => {
  const map = [
    "Compaction (`src/compaction/`):",
    "",
    "- `mod.rs`: `Session`; `config.rs`: its settings.",
    "- `import/`: the import, through `logs.rs`",
    "  and `nowhere.rs`.",
    "- `src/gone/`: a folder that is not there.",
    "",
    "Around it:",
    "",
    "- `window.rs`: not at the root.",
  ].join("\n");
  const missing = namedPaths(map).filter(({ tried }) => !tried.some((path) => existsSync(join(ROOT, path))));
  assert.deepEqual(missing.map(({ path }) => path), ["nowhere.rs", "src/gone/", "window.rs"]);
});
