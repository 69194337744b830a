// `make mutants`: prints the mutation score from cargo-mutants' mutants.out/outcomes.json.
//
//   score = (caught + timeout) / (caught + missed + timeout)
//
// Unviable mutants (they do not compile) say nothing about the tests and are left out; a timeout
// is a planted bug that made the tests hang, so the suite did notice it. Mutants excluded as
// equivalent in .cargo/mutants.toml are never generated. Exits 1 below the goal (95%).

import { readFileSync } from "node:fs";

const path = process.argv[2] ?? "mutants.out/outcomes.json";
const goal = Number(process.argv[3] ?? 95);
const out = JSON.parse(readFileSync(path, "utf8"));
const { total_mutants: total, caught, missed, timeout, unviable } = out;
const detected = caught + timeout;
const viable = caught + missed + timeout;
const score = viable === 0 ? 100 : (100 * detected) / viable;
const seconds = (Date.parse(out.end_time) - Date.parse(out.start_time)) / 1000;
const minutes = Number.isFinite(seconds) ? `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s` : "unknown";

console.log(`mutants: ${total} total, ${caught} caught, ${missed} missed, ${unviable} unviable, ${timeout} timeout`);
console.log(`mutation score: ${score.toFixed(1)}% (${detected} of ${viable} viable mutants detected; goal ${goal}%)`);
console.log(`run time: ${minutes}`);
if (missed > 0) {
  console.log("missed (see mutants.out/missed.txt):");
  for (const line of readFileSync(path.replace(/outcomes\.json$/, "missed.txt"), "utf8").trim().split("\n")) {
    console.log(`  ${line}`);
  }
}
process.exit(score >= goal ? 0 : 1);
