// The rules the page states in words are the core's own constants, quoted verbatim: a rule
// changed in src/ and not on the page (or the other way round) fails here.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

const read = (path) => readFileSync(new URL(`../${path}`, import.meta.url), "utf8");

/** The value of `pub const NAME: &str = "…";` in a Rust source file, escapes resolved. */
export function rustConst(source, name) {
  const start = source.indexOf(`pub const ${name}: &str = "`);
  assert.ok(start >= 0, `no string constant ${name}`);
  let i = source.indexOf('"', start) + 1;
  let value = "";
  for (;;) {
    const c = source[i++];
    if (c === '"') return value;
    if (c !== "\\") { value += c; continue; }
    const e = source[i++];
    if (e === "\n") { while (/\s/.test(source[i])) i++; continue; } // a line continuation
    if (e === "u") { const end = source.indexOf("}", i); value += String.fromCodePoint(parseInt(source.slice(i + 1, end), 16)); i = end + 1; continue; }
    value += { n: "\n", t: "\t", "\\": "\\", '"': '"', "'": "'" }[e] ?? assert.fail(`unknown escape \\${e} in ${name}`);
  }
}

/** The text of a JS string made of `"…" + "…"` pieces, as the page shows it. */
const shown = (source) => source.replace(/"\s*\n\s*\+\s*"/g, "").replace(/\\"/g, '"');

for (const [name, rust, page] of [
  ["ESTIMATE_RULE", "src/compaction/tokens.rs", "www/knobs.js"],
  ["KIND_RULE", "src/compaction/import/turns.rs", "www/own.js"],
]) {
  test(`${page} states ${name} as the core has it`, () => {
    const rule = rustConst(read(rust), name);
    assert.ok(rule.length > 40, `${name} read as ${JSON.stringify(rule)}`);
    assert.ok(shown(read(page)).includes(rule), `${page} does not quote ${name}: ${rule}`);
  });
}

test("rustConst reads escapes and line continuations", () => {
  const source = 'pub const A: &str = "one \\"two\\" \\\n    three \\u{3c4}";';
  assert.equal(rustConst(source, "A"), 'one "two" three \u03c4');
});
