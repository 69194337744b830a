// `make mutants`: prints the mutation score from cargo-mutants' outcomes.json.
//
//   node tools/mutants-score.mjs [RUN ...] [--goal 95]
//
// A RUN is an outcomes.json, a mutants.out directory, or a directory given to
// `cargo mutants --output` (which holds mutants.out); the default is mutants.out. Given several
// runs of the same tree, a later run's outcome for a mutant replaces an earlier one's: a full run
// followed by a re-run of what it missed (`--iterate`, or `--re`) gives the score of both.
//
//   score = (caught + timeout) / (caught + missed + timeout)
//
// Unviable mutants (they do not compile) say nothing about the tests and are left out; a timeout
// is a planted bug that made the tests hang, so the suite did notice it. Mutants excluded as
// equivalent in .cargo/mutants.toml are never generated. Exits 1 below the goal (95%).

import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";

const args = process.argv.slice(2);
let goal = 95;
const runs = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--goal") {
    goal = Number(args[++i]);
  } else if (args[i].startsWith("--goal=")) {
    goal = Number(args[i].slice("--goal=".length));
  } else {
    runs.push(args[i]);
  }
}
if (!Number.isFinite(goal)) {
  console.error("mutants-score: --goal takes a number");
  process.exit(2);
}
if (runs.length === 0) runs.push("mutants.out");

/** The outcomes.json a RUN argument names. */
function outcomesFile(path) {
  if (!existsSync(path)) {
    console.error(`mutants-score: ${path} does not exist (has \`make mutants\` run?)`);
    process.exit(2);
  }
  if (!statSync(path).isDirectory()) return path;
  for (const candidate of [join(path, "outcomes.json"), join(path, "mutants.out", "outcomes.json")]) {
    if (existsSync(candidate)) return candidate;
  }
  console.error(`mutants-score: no outcomes.json in ${path} or ${join(path, "mutants.out")}`);
  process.exit(2);
}

// A run made before an entry was added to exclude_re still holds that mutant's outcome: drop it,
// so that the score is the one a run with today's settings would give. TOML literal strings
// ('...') hold the patterns; Rust's and JavaScript's regex syntax agree on the ones used there.
const excluded = [];
if (existsSync(".cargo/mutants.toml")) {
  const toml = readFileSync(".cargo/mutants.toml", "utf8");
  const list = toml.match(/^exclude_re\s*=\s*\[([\s\S]*?)^\]/m);
  for (const line of list ? list[1].split("\n") : []) {
    const pattern = line.trim().match(/^'([^']*)',?$/);
    if (pattern) excluded.push(new RegExp(pattern[1]));
  }
}

const KIND = { CaughtMutant: "caught", MissedMutant: "missed", Timeout: "timeout", Unviable: "unviable" };
const outcomes = new Map(); // mutant name -> { kind, run }
const dropped = new Set(); // outcomes of mutants .cargo/mutants.toml now excludes
const times = [];
for (const run of runs) {
  const file = outcomesFile(run);
  const out = JSON.parse(readFileSync(file, "utf8"));
  for (const outcome of out.outcomes ?? []) {
    const mutant = outcome.scenario?.Mutant;
    if (!mutant) continue; // the baseline
    const kind = KIND[outcome.summary];
    if (!kind) continue; // a run stopped while this mutant was being tested
    if (excluded.some((re) => re.test(mutant.name))) {
      dropped.add(mutant.name);
      continue;
    }
    outcomes.set(mutant.name, { kind, run: dirname(file) });
  }
  // mutants.json lists every mutant the run set out to test; outcomes.json grows as it goes.
  const listed = join(dirname(file), "mutants.json");
  const planned = existsSync(listed) ? JSON.parse(readFileSync(listed, "utf8")).length : out.total_mutants;
  const tested = (out.outcomes ?? []).filter((o) => o.scenario?.Mutant && KIND[o.summary]).length;
  if (tested < planned) {
    console.log(`${file}: ${tested} of ${planned} mutants tested so far (running, or stopped)`);
  }
  const seconds = (Date.parse(out.end_time) - Date.parse(out.start_time)) / 1000;
  times.push(Number.isFinite(seconds) ? `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s` : "not finished");
}

const count = { caught: 0, missed: 0, timeout: 0, unviable: 0 };
for (const { kind } of outcomes.values()) count[kind] += 1;
const { caught, missed, timeout, unviable } = count;
const detected = caught + timeout;
const viable = caught + missed + timeout;
const score = viable === 0 ? 100 : (100 * detected) / viable;

if (dropped.size > 0) {
  console.log(`${dropped.size} outcomes left out: .cargo/mutants.toml now excludes those mutants as equivalent`);
}
console.log(`mutants: ${outcomes.size} total, ${caught} caught, ${missed} missed, ${unviable} unviable, ${timeout} timeout`);
console.log(`mutation score: ${score.toFixed(1)}% (${detected} of ${viable} viable mutants detected; goal ${goal}%)`);
console.log(`run time: ${times.join(" + ")}`);
if (missed > 0) {
  console.log("missed:");
  for (const [name, { kind }] of [...outcomes].sort(([a], [b]) => a.localeCompare(b))) {
    if (kind === "missed") console.log(`  ${name}`);
  }
}
process.exit(score >= goal ? 0 : 1);
