// Size is deterministic, so it can be a test: the widgets' download stays within its budget.
// (Timings are never tests; they live in `make bench`.)

import { test } from "node:test";
import assert from "node:assert/strict";
import { GZIP_BUDGET, measureSizes } from "../benches/sizes.mjs";

test(`everything the widgets load is at most ${GZIP_BUDGET} bytes gzipped`, () => {
  const { rows, total } = measureSizes();
  for (const row of rows) assert.ok(row.gzip > 0, `${row.file} is empty`);
  const table = rows.map((r) => `${r.file}: ${r.raw} raw, ${r.gzip} gzip`).join("\n");
  assert.ok(total.gzip <= GZIP_BUDGET, `total ${total.gzip} B gzip is over the budget of ${GZIP_BUDGET} B:\n${table}`);
});
