// The one wasm-bindgen version that the build's glue tools (guard-glue.mjs, drop-dead-shims.mjs,
// minify-names.mjs) were written for, and the check each runs before it rewrites anything.
//
// Why: each tool rewrites wasm-bindgen's output by its shape: the class bodies of the glue, the
// names of the closure shims in the wasm, the keys of the glue's import object. A new
// wasm-bindgen may change any of them, and a rewrite that no longer matches does not always
// fail (a guard not added, a shim not dropped). The version that made the glue is the
// `wasm-bindgen` package in Cargo.lock: the crate pins it exactly, and the Makefile installs the
// CLI of that version. So on any other version the tools stop, until someone has checked their
// rewrites against the new glue, regenerated tests/fixtures/glue (its README) and updated
// WRITTEN_FOR here.
//
//   import { checkGlueVersion } from "./glue-version.mjs";
//   checkGlueVersion("guard-glue");      // throws unless Cargo.lock has WRITTEN_FOR
//
// GLUE_CARGO_LOCK=path/to/Cargo.lock reads another lock file (the tests use it).

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The wasm-bindgen version whose output the glue tools were written for and tested on. */
export const WRITTEN_FOR = "0.2.130";

/** The repository's Cargo.lock, unless GLUE_CARGO_LOCK names another. */
export const defaultLockFile = () => process.env.GLUE_CARGO_LOCK || fileURLToPath(new URL("../Cargo.lock", import.meta.url));

/** The version of the `wasm-bindgen` package in the Cargo.lock text `lock`; throws unless there is exactly one. */
export function lockedWasmBindgen(lock) {
  const versions = lock
    .split(/^\[\[package\]\]$/m)
    .filter((entry) => /^name = "wasm-bindgen"$/m.test(entry))
    .map((entry) => /^version = "([^"]+)"$/m.exec(entry)?.[1]);
  if (versions.length !== 1 || !versions[0]) {
    throw new Error(`expected one wasm-bindgen package with a version in Cargo.lock, found ${versions.length ? versions.join(", ") : "none"}`);
  }
  return versions[0];
}

/**
 * Throws, naming `tool`, unless the Cargo.lock at `lockFile` has the wasm-bindgen version the
 * tools were written for. Returns that version.
 */
export function checkGlueVersion(tool, lockFile = defaultLockFile()) {
  let locked;
  try {
    locked = lockedWasmBindgen(readFileSync(lockFile, "utf8"));
  } catch (error) {
    throw new Error(`${tool}: cannot tell which wasm-bindgen made the glue from ${lockFile}: ${error.message}`);
  }
  if (locked !== WRITTEN_FOR) {
    throw new Error(
      `${tool}: written for wasm-bindgen ${WRITTEN_FOR}, but Cargo.lock has ${locked}; check its rewrites against the new glue ` +
        `and update WRITTEN_FOR in tools/glue-version.mjs (and the fixtures in tests/fixtures/glue)`,
    );
  }
  return locked;
}
