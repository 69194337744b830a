// The Rust crate as `cargo publish` would upload it: what `cargo package` puts in the .crate
// (Cargo.toml's `include`), the .crate's size, and the cdylib kept out of a dependent's build.
// Cargo runs offline (the suite's earlier cargo commands have the index), in a target dir of its
// own so that it never waits on another build. Part of `make test`.
//
//   node --test tests/crate.test.mjs

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..");
const TARGET = join(ROOT, "target", "crate-package");
/**
 * The most the .crate may weigh: a guard against a large file packaged by mistake, raised only
 * for source (issue 38: at most 300 KB; 320 for the fixtures and the airline session of issue
 * 40, 336 for its second round, framework_triggers, the formats' fixes and their tests; 352
 * for issue 52's source and tests, Turn's role, messages, tool pairs, compact_to and builders,
 * the session golden trace's messages, and what landed beside them: 346 KB measured; 376 for
 * issue 51's session-log readers, the generator of logs its tests write, and their fixtures: 372
 * KB measured; 392 for both together on main, 378 KB measured; 400 for issue 52's saved
 * formats, hard budget and one set of limits, their property tests and the generated limits
 * table: 393 KB measured; 412 for issue 52's loss report and two-phase push,
 * src/compaction/lost.rs and their tests: 405.5 KB measured; 420 for issue 51's replay at
 * real size, its plain and large paths and its bench: 412 KB measured; 432 for issue 52's
 * retention (src/compaction/retention.rs, the saved window, tests/retention.rs and the retained
 * saves' property test) and the loss report by what changed with its bench: 424.7 KB measured;
 * 444 for issue 52's damaged saves (tests/damaged_saves.rs), roles from chat arrays and the
 * journal replay's property test: 434.5 KB measured).
 */
const MAX_CRATE = 444 * 1024;

function cargo(...args) {
  const run = spawnSync("cargo", [...args, "--offline"], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, CARGO_TARGET_DIR: TARGET },
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.equal(run.error, undefined, `cargo ${args.join(" ")}: ${run.error}`);
  assert.equal(run.status, 0, `cargo ${args.join(" ")} failed:\n${run.stderr}`);
  return run.stdout;
}

const metadata = JSON.parse(cargo("metadata", "--no-deps", "--format-version", "1"));
const crate = metadata.packages.find((p) => p.manifest_path === join(ROOT, "Cargo.toml"));
const files = cargo("package", "--list", "--allow-dirty").split("\n").filter(Boolean);

test("the package holds the library, its README and licences, and the manifest", () => {
  for (const file of ["src/lib.rs", "README.md", "LICENSE-MIT", "LICENSE-APACHE", "Cargo.toml", "Cargo.lock"]) {
    assert.ok(files.includes(file), `${file} is not in the package:\n${files.join("\n")}`);
  }
  assert.equal(crate.readme, "README.md");
  assert.equal(crate.license, "MIT OR Apache-2.0");
  for (const field of ["repository", "documentation", "rust_version", "description"]) {
    assert.ok(crate[field], `Cargo.toml has no ${field.replace("_", "-")}`);
  }
});

test("the package holds none of the page, the screenshots, the tools or the browser tests", () => {
  const outside = /^(www\/(?!sessions\/)|(docs|tools|examples|site|dist|npm|target|node_modules|tests\/e2e|tests\/fixtures\/(?!import\/)[^/]+)\/)|\/node_modules\//;
  const strays = files.filter((file) => outside.test(file) || /\.(png|jpe?g|gif|webp|wasm|mjs|html)$/i.test(file));
  assert.deepEqual(strays, [], `in the package but not part of the crate:\n${strays.join("\n")}`);
});

test("every packaged test has what it reads: tests/common/, the golden traces and the import fixtures", () => {
  const packaged = (file) => files.includes(file);
  for (const file of files.filter((f) => /^tests\/[^/]+\.rs$/.test(f))) {
    const source = readFileSync(join(ROOT, file), "utf8");
    if (/^\s*mod common;/m.test(source)) assert.ok(packaged("tests/common/mod.rs"), `${file} needs tests/common/mod.rs`);
    if (source.includes("golden/")) {
      for (const name of readdirSync(join(ROOT, "tests", "golden"))) {
        assert.ok(packaged(`tests/golden/${name}`), `${file} reads the golden traces, and tests/golden/${name} is not in the package`);
      }
    }
    if (source.includes("www/sessions/")) {
      for (const name of readdirSync(join(ROOT, "www", "sessions"))) {
        assert.ok(packaged(`www/sessions/${name}`), `${file} reads the built-in sessions, and www/sessions/${name} is not in the package`);
      }
    }
    if (source.includes("fixtures/import/")) {
      for (const name of readdirSync(join(ROOT, "tests", "fixtures", "import"))) {
        assert.ok(packaged(`tests/fixtures/import/${name}`), `${file} reads the import fixtures, and tests/fixtures/import/${name} is not in the package`);
      }
    }
  }
  // Every test and bench target (the [[bench]]s Cargo.toml lists, the tests/*.rs cargo finds)
  // is in the package: cargo would drop a missing one from the published manifest.
  for (const target of crate.targets.filter((t) => t.kind.some((k) => k === "bench" || k === "test"))) {
    const path = target.src_path.slice(ROOT.length + 1);
    assert.ok(packaged(path), `${path} (${target.kind} ${target.name}) is not in the package`);
  }
});

test(`the .crate is at most ${MAX_CRATE / 1024} KB`, () => {
  cargo("package", "--allow-dirty", "--no-verify");
  const path = join(TARGET, "package", `${crate.name}-${crate.version}.crate`);
  const { size } = statSync(path);
  console.log(`${path.slice(ROOT.length + 1)}: ${size} B (${(size / 1024).toFixed(1)} KiB) in ${files.length} files`);
  assert.ok(size <= MAX_CRATE, `${size} B is over ${MAX_CRATE} B`);
});

test("the README states the .crate's limit as this test holds it, wherever it names it", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8").replace(/\s+/g, " ");
  for (const context of ["ready for crates.io:", "the crate as `cargo package` packs it"]) {
    const at = readme.indexOf(context);
    assert.ok(at >= 0, `README.md no longer says "${context}"`);
    assert.equal(/at most (\d+) KB/.exec(readme.slice(at, at + 120))?.[1], String(MAX_CRATE / 1024), `README.md, after "${context}"`);
  }
});

test("a dependent builds no cdylib: the lib is an rlib, and the wasm build asks for the cdylib itself", () => {
  const lib = crate.targets.filter((t) => t.kind.includes("lib") || t.kind.includes("cdylib") || t.kind.includes("rlib"));
  assert.equal(lib.length, 1);
  assert.deepEqual(lib[0].crate_types, ["rlib"], "Cargo.toml's [lib] crate-type");
  // The Makefile's wasm cores: `cargo rustc --lib --crate-type cdylib`, since a `cargo build`
  // of an rlib-only crate writes no .wasm.
  const makefile = readFileSync(join(ROOT, "Makefile"), "utf8");
  const rustc = makefile.split("\n").filter((line) => /^\tcargo rustc .*--target \$\(WASM_TARGET\)/.test(line));
  assert.equal(rustc.length, 1, `the Makefile builds the wasm cores with one \`cargo rustc\` line:\n${rustc.join("\n")}`);
  assert.match(rustc[0], / --lib /);
  assert.match(rustc[0], / --crate-type cdylib(\s|$)/);
  assert.doesNotMatch(makefile, /^\tcargo build\b.*--target \$\(WASM_TARGET\)/m, "a `cargo build` for wasm32 writes no .wasm now");
});
