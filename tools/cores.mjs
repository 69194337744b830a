// Prints the wasm cores of www/cores.js, the one table of them, for the Makefile: a line per
// core, its name and its Cargo features joined by commas.
//
//   node tools/cores.mjs      # compaction element-compaction
//                             # ...

import { CORES } from "../www/cores.js";

for (const [name, features] of Object.entries(CORES)) console.log(`${name} ${features.join(",")}`);
