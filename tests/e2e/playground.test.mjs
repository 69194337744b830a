// <memory-playground>: seven policies on one session, stepped together, in headless Chromium.

import { test } from "node:test";
import assert from "node:assert/strict";
import { open, screenshot, axe, useBrowser } from "./harness.mjs";

const env = useBrowser();

/**
 * The core's own view of the playground at `turn`: from the page's wasm module (`elements`), or
 * with settings, from the full core, which every core answers as.
 */
const coreState = (page, turn, config = null) => page.evaluate(async ([turn, config]) => {
  const core = await import(config ? "./pkg/agent_memory_widgets.js" : "./pkg/elements.js");
  await core.default();
  const { Playground } = core;
  const playground = config ? Playground.withConfig(config) : new Playground();
  playground.goTo(turn);
  const state = playground.state();
  playground.free();
  return state;
}, [turn, config]);

/** Opens the page and waits for the playground's rows. */
async function openPlayground(options = {}) {
  const { page, problems } = await open(env.browser, env.server.url, { bypassCSP: true, ...options });
  await page.goto(env.server.url);
  const widget = page.locator("memory-playground");
  const rows = widget.getByRole("table", { name: "Seven compaction policies, one session" }).locator("tbody tr");
  await rows.first().waitFor({ timeout: 5000 });
  return { page, problems, widget, rows };
}

const tokensNow = async (rows) => (await rows.locator("td.tokens-now").allTextContents()).map((t) => Number(t.split(" / ")[0]));

test("seven policies step together and the facts matrix follows the core's rule", async () => {
  const { page, problems, widget, rows } = await openPlayground();
  assert.equal(await rows.count(), 7);
  const names = await rows.locator("th button").allTextContents();
  assert.deepEqual(names, (await coreState(page, 0)).policies.map((row) => row.info.name));

  // Step all seven with the shared control; every row follows the core.
  const next = widget.getByRole("button", { name: "Forward one turn" });
  for (let turn = 1; turn <= 10; turn++) {
    await next.click();
    const expected = await coreState(page, turn);
    assert.deepEqual(await tokensNow(rows), expected.policies.map((row) => row.tokens), `turn ${turn}`);
  }
  assert.equal(await next.isDisabled(), true);
  assert.equal(await widget.getByRole("status").textContent(),
    "Turn 10: over budget after the step: Sliding window + recursive summary, Summary buffer, Handoff checkpoint, Interval compaction, Observation masking.");

  // The facts matrix after turn 10 is the core's, in three grades, with the rule stated under it.
  const expected = await coreState(page, 10);
  const matrix = widget.getByRole("table", { name: "Facts the window still names" });
  const cells = await matrix.locator("tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)));
  const word = { meaning: "\u2713 meaning", bareTerm: "~ bare term", gone: "\u2717 gone", notYetSaid: "\u2013 not yet said" };
  assert.deepEqual(cells, expected.policies.map((row) => row.kept.map((named) => word[named])));
  assert.deepEqual(await matrix.locator("thead th").allTextContents(), ["policy", ...expected.facts]);
  // Ours keeps the 30-day window and the 10% fee only as bare terms in the COLD gist.
  assert.deepEqual(cells[0], ["\u2713 meaning", "~ bare term", "~ bare term", "~ bare term", "~ bare term", "~ bare term", "\u2713 meaning"]);
  const rule = widget.locator("p.facts-rule");
  assert.ok((await rule.textContent()).endsWith(expected.factsRule));
  assert.match(await rule.textContent(), /~ bare term: only in the COLD gist/);
  assert.deepEqual(await axe(page), []);

  // Opening a policy shows its window; the keyboard works too.
  const letta = widget.getByRole("button", { name: "Sliding window + recursive summary" });
  await letta.focus();
  await page.keyboard.press("Enter");
  assert.equal(await letta.getAttribute("aria-expanded"), "true");
  const detail = widget.getByRole("region", { name: "the window under the chosen policy" });
  assert.match(await detail.textContent(), /Sliding window \+ recursive summary at turn 10: 64 of 40 tokens/);
  assert.match(await detail.textContent(), /Letta checks the fit without its new summary/);

  // The slider steps them too.
  await widget.getByRole("slider", { name: "turn" }).fill("3");
  assert.deepEqual(await tokensNow(rows), (await coreState(page, 3)).policies.map((row) => row.tokens));
  // Globex first comes up at turn 8: at turn 3 no policy has lost it, none has heard it yet.
  const globex = await matrix.locator("tbody tr td:last-child").allTextContents();
  assert.deepEqual(globex, Array(7).fill("\u2013 not yet said"));
  assert.match(await rule.textContent(), /^\u2713 meaning: .* ~ bare term: .* \u2717 gone: .* \u2013 not yet said: /);
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(problems, []);
});

test("the page counts and names the policies truthfully, and each states its rule and source", async () => {
  const { page, problems, widget, rows } = await openPlayground();
  const state = await coreState(page, 0);
  const n = await rows.count();
  assert.equal(n, state.policies.length);

  // The widget's own count: a number word, then groups whose counts add up to the rows.
  const lede = await widget.locator("p.lede").textContent();
  assert.match(lede, /^Seven policies, one session: 1 seed design \(this project\), 3 agent frameworks \(Letta, OpenAI Codex, Google ADK\), 1 memory class \(LangChain\), 1 plain truncation \(LangChain\), 1 research baseline \(JetBrains Research\)\./);
  const groups = [...lede.split(". ")[0].matchAll(/(\d+) [a-z ]+ \(/g)].map((m) => Number(m[1]));
  assert.equal(groups.reduce((a, b) => a + b, 0), n);

  // The page's words: ours plus "six more", not "six agent frameworks".
  const intro = await page.locator("#frameworks + p").textContent();
  assert.match(intro.replace(/\s+/g, " "), /replayed under six more: the built-in compaction of three agent frameworks/);
  assert.doesNotMatch(await page.locator("main").textContent(), /(five|six) agent frameworks/);
  assert.equal(["one", "two", "three", "four", "five", "six"].indexOf(intro.match(/under\s+(\w+)\s+more/)[1]) + 2, n);

  // Each row states its rule in one line (trigger, what stays verbatim, what is summarised) and
  // cites its source, linked where it is not ours.
  for (let i = 0; i < n; i++) {
    const info = state.policies[i].info;
    const header = rows.nth(i).locator("th");
    assert.equal(await header.locator(".rule").textContent(), info.rule);
    assert.match(info.rule, /^(When|After) /);
    assert.equal(await header.locator(".origin").textContent(), `${info.origin} \u00b7 ${info.kind}`);
    const link = header.locator(".source a");
    if (info.url) {
      assert.equal(await link.textContent(), info.source);
      assert.equal(await link.getAttribute("href"), info.url);
    } else {
      assert.equal(await link.count(), 0);
    }
  }
  const letta = state.policies.find((row) => row.info.id === "sliding-window").info;
  assert.match(letta.source, /letta-ai\/letta@56ba9c2/);
  // #55.17: what the budget stands for, for Codex: GPT-5-Codex's own window.
  assert.match(state.policies.find((row) => row.info.id === "handoff").info.rule, /up to 20,000 tokens of GPT-5-Codex's 272,000-token window \(here the budget stands for that window: 7\.35% of it\)/);
  assert.deepEqual(problems, []);
});

test("sparklines draw the run only up to the current turn, with the future faded and labelled", async () => {
  const { page, problems, widget, rows } = await openPlayground();
  const charts = rows.locator("svg.spark");
  const pointsOf = (selector) => charts.evaluateAll((svgs, selector) => svgs.map((svg) => {
    const line = svg.querySelector(selector);
    return line ? line.getAttribute("points").trim().split(/\s+/).length : 0;
  }), selector);
  const texts = () => charts.evaluateAll((svgs) => svgs.map((svg) => [...svg.querySelectorAll("text")].map((t) => t.textContent)));

  // Turn 0: nothing played, the whole run faded as the future.
  assert.deepEqual(await pointsOf("polyline.series"), [0, 0, 0, 0, 0, 0, 0]);
  assert.deepEqual(await pointsOf("polyline.future"), [10, 10, 10, 10, 10, 10, 10]);
  for (const labels of await texts()) {
    assert.ok(labels.includes("future"));
    assert.ok(labels.includes("budget 40"), labels.join("|"));
    assert.ok(labels.includes("0"));
  }
  const first = await charts.first().getAttribute("aria-label");
  assert.match(first, /no turns yet; the 10 turns to come are drawn faded as the future\. Budget 40, y axis 0 to \d+ tokens/);
  const top = Number(first.match(/y axis 0 to (\d+) tokens/)[1]);
  assert.ok(top >= Math.max(...(await coreState(page, 0)).policies[0].peaks));
  assert.ok((await texts())[0].includes(String(top)));

  // Turn 3: three points drawn; the future starts at the current point.
  await widget.getByRole("slider", { name: "turn" }).fill("3");
  assert.deepEqual(await pointsOf("polyline.series"), [3, 3, 3, 3, 3, 3, 3]);
  assert.deepEqual(await pointsOf("polyline.future"), [8, 8, 8, 8, 8, 8, 8]);
  const state = await coreState(page, 3);
  const label = await charts.first().getAttribute("aria-label");
  assert.match(label, new RegExp(`turns 1 to 3: window tokens after each step ${state.policies[0].series.slice(0, 3).join(", ")};`));
  assert.match(label, /Turns 4 to 10 are drawn faded as the future/);

  // Turn 10: the whole run, no future.
  await widget.getByRole("slider", { name: "turn" }).fill("10");
  assert.deepEqual(await pointsOf("polyline.series"), [10, 10, 10, 10, 10, 10, 10]);
  assert.deepEqual(await pointsOf("polyline.future"), [0, 0, 0, 0, 0, 0, 0]);
  for (const labels of await texts()) assert.ok(!labels.includes("future"));
  // One y range for every row, covering the highest peak of any: observation masking peaks at 86,
  // so every axis runs to 100 and the budget line sits at one height.
  const peaks = (await coreState(page, 10)).policies.flatMap((row) => row.peaks);
  assert.equal(Math.max(...peaks), 86);
  const tops = await charts.evaluateAll((svgs) => svgs.map((svg) => svg.getAttribute("aria-label").match(/y axis 0 to (\d+) tokens/)[1]));
  assert.deepEqual(tops, Array(7).fill("100"));
  const budgetLines = await charts.evaluateAll((svgs) => svgs.map((svg) => svg.querySelector("line.budget-line")?.getAttribute("y1")));
  assert.equal(new Set(budgetLines).size, 1, budgetLines.join("|"));
  assert.deepEqual(problems, []);
});

test("policies that end over budget are shown over budget, at the moment each claim is about", async () => {
  const { page, problems, widget, rows } = await openPlayground();
  await widget.getByRole("slider", { name: "turn" }).fill("10");
  const state = await coreState(page, 10);
  for (let i = 0; i < state.policies.length; i++) {
    const row = state.policies[i];
    const tr = rows.nth(i);
    const overAfter = row.series.filter((tokens) => tokens > state.budget).length;
    const overPeaks = row.peaks.filter((tokens, t) => tokens > state.budget && tokens > row.series[t]).length;
    assert.equal(await tr.locator("circle.point.over").count(), overAfter, row.info.id);
    assert.equal(await tr.locator("circle.peak.over").count(), overPeaks, row.info.id);
    const verdict = await tr.locator("td.tokens-now").textContent();
    if (row.tokens > state.budget) {
      assert.equal(verdict, `${row.tokens} / ${state.budget} over budget`);
      assert.match(await tr.getAttribute("class"), /over/);
    } else {
      assert.equal(verdict, `${row.tokens} / ${state.budget}`);
    }
  }
  const moments = await rows.locator(".moments").allTextContents();
  // Ours: never over after a step, over at the peak on the seed's five crossings.
  assert.equal(moments[0], "After the step: within the budget at every turn so far. At the peak, with the new turn and before compacting: over on turns 4, 6, 8, 9 and 10.");
  // Letta, faithful to its source, ends over budget on turns 8 to 10.
  assert.equal(moments[1], "After the step: over budget on turns 8, 9 and 10. At the peak, with the new turn and before compacting: over on turns 4, 6, 7, 8, 9 and 10.");
  assert.match(await rows.nth(1).locator("td.tokens-now").textContent(), /^64 \/ 40 over budget$/);
  // The numbers table shows the peak and the window after the step where they differ.
  await widget.getByText("The sparklines as numbers").click();
  const ours = await widget.getByRole("table", { name: /Window tokens after each turn/ }).locator("tbody tr").first().locator("td").allTextContents();
  assert.deepEqual(ours.slice(0, 4), ["8", "18", "29", "41 \u2192 30"]);
  assert.deepEqual(problems, []);
});

test("no summary starts mid-sentence, and a cut is marked with an ellipsis", async () => {
  const { page, problems, widget, rows } = await openPlayground();
  const slider = widget.getByRole("slider", { name: "turn" });
  const detail = widget.getByRole("region", { name: "the window under the chosen policy" });
  const names = await rows.locator("th button").allTextContents();
  // Ours writes each turn's summary as its own WARM line: these are the sentences a summary may
  // start with.
  const starts = new Set();
  const linesOf = async (name, turn) => {
    await slider.fill(String(turn));
    const button = widget.getByRole("button", { name, exact: true });
    if ((await button.getAttribute("aria-expanded")) !== "true") await button.click();
    const lines = await detail.locator("li.tier-line").evaluateAll((lis) => lis.map((li) => [li.className, li.childNodes[1]?.textContent ?? ""]));
    await button.click();
    return lines;
  };
  for (let turn = 1; turn <= 10; turn++) {
    for (const [tier, text] of await linesOf(names[0], turn)) if (tier.includes("warm")) starts.add(text);
  }
  assert.equal(starts.size, 6); // the summaries of turns 2, 3, 4, 6, 7 and 8
  let cuts = 0;
  for (const name of names.slice(1)) {
    for (let turn = 1; turn <= 10; turn++) {
      for (const [tier, text] of await linesOf(name, turn)) {
        if (tier.includes("warm")) {
          assert.ok([...starts].some((s) => text.startsWith(s)) || text.startsWith("\u2026"), `${name} at turn ${turn}: ${text}`);
        } else if (text.includes("\u2026")) {
          cuts++;
          assert.match(text, /^(\S+ )*\u2026( \S+)*$/, `${name} at turn ${turn}: a cut falls between whole words`);
        }
      }
    }
  }
  assert.ok(cuts > 0, "Codex cuts the user message that overflows its share");
  assert.deepEqual(problems, []);
});

test("the playground has its own budget knob and replays to the same turn", async () => {
  const { page, problems, widget, rows } = await openPlayground();
  await widget.getByRole("slider", { name: "turn" }).fill("5");
  await widget.locator("summary", { hasText: "Knobs" }).click();
  const budget = widget.getByRole("spinbutton", { name: "budget" });
  assert.equal(await budget.inputValue(), "40");
  await budget.fill("60");
  await budget.press("Enter");
  await widget.getByRole("status").filter({ hasText: "replayed" }).waitFor({ timeout: 5000 });
  assert.equal(await widget.getByRole("status").textContent(), "budget is now 60. Every policy replayed to turn 5 (budget 60, 2 HOT turns, each policy's own trigger).");
  const expected = await coreState(page, 5, { budget: 60 });
  assert.deepEqual(await tokensNow(rows), expected.policies.map((row) => row.tokens));
  assert.ok((await rows.locator("td.tokens-now").allTextContents()).every((t) => t.includes("/ 60")));
  assert.match(await widget.locator("p.lede").textContent(), /with a budget of 60 tokens/);
  assert.ok((await rows.first().locator("svg text").allTextContents()).includes("budget 60"));
  assert.equal(await widget.getByRole("slider", { name: "turn" }).inputValue(), "5");
  assert.equal(await widget.evaluate((el) => el.getAttribute("budget")), "60");
  // Seed values restore 40.
  await widget.getByRole("button", { name: "Seed values" }).click();
  await rows.locator("td.tokens-now", { hasText: "/ 40" }).first().waitFor({ timeout: 5000 });
  assert.ok((await rows.locator("td.tokens-now").allTextContents()).every((t) => t.includes("/ 40")));
  assert.deepEqual(await tokensNow(rows), (await coreState(page, 5)).policies.map((row) => row.tokens));
  assert.deepEqual(problems, []);
});

test("counting tokens as an estimate replays every policy under the core's estimate", async () => {
  const { page, problems, widget, rows } = await openPlayground();
  await widget.getByRole("slider", { name: "turn" }).fill("6");
  await widget.locator("summary", { hasText: "Knobs" }).click();
  const knob = widget.getByRole("combobox", { name: "count tokens as", exact: true });
  assert.equal(await knob.inputValue(), "words");
  await knob.selectOption("estimate");
  await widget.getByRole("status").filter({ hasText: "replayed" }).waitFor({ timeout: 5000 });
  assert.equal(await widget.getByRole("status").textContent(),
    "count tokens as is now estimate. Every policy replayed to turn 6 (budget 40, 2 HOT turns, each policy's own trigger, counting tokens as an estimate).");
  const expected = await coreState(page, 6, { tokens: "estimate" });
  assert.ok(expected.policies.every((row) => row.window.counting === "estimate"));
  assert.notDeepEqual(expected.policies.map((row) => row.tokens), (await coreState(page, 6)).policies.map((row) => row.tokens));
  assert.deepEqual(await tokensNow(rows), expected.policies.map((row) => row.tokens));
  assert.deepEqual(problems, []);
});

test("the compact-at knob moves every token trigger, and only those, and clears back to each policy's own", async () => {
  const { page, problems, widget, rows } = await openPlayground();
  await widget.getByRole("slider", { name: "turn" }).fill("10");
  const lede = widget.locator("p.lede");
  // The triggers are said in the knobs, by the knob that changes them (#55: the first screen is
  // the comparison), from each policy's own trigger in the core.
  await widget.locator("summary", { hasText: "Knobs" }).click();
  const note = widget.locator(".knobs .trigger-note");
  await note.waitFor({ timeout: 5000 });
  assert.equal(await note.textContent(), "With compact at % empty, each policy compacts at its own trigger, a share of the budget: " +
    "HOT / WARM / COLD, Summary buffer and Truncate at 100% and Sliding window + recursive summary and Handoff checkpoint at 90%. " +
    "Interval compaction and Observation masking compact whatever the tokens, so the knob does not move them. " +
    "HOT / WARM / COLD keeps the last 2 turns verbatim and compacts only until the window holds 40 tokens or fewer " +
    "(compact ours to %; so far its compactions left 30 to 40). The others stop where their rules say.");
  // #55.14: a compaction that left the window no smaller is said under the count, in words, so
  // the count and the numbers table (which shows no drop there) agree: Letta at turns 8 and 10,
  // Codex at turn 8.
  const cells = await rows.locator("td.compactions").allTextContents();
  assert.equal(cells[1], "6at turns 8 and 10 it compacted, but the window came out no smaller than its peak");
  assert.equal(cells[3], "5at turn 8 it compacted, but the window came out no smaller than its peak");
  assert.equal(cells[0], "5");
  const knob = widget.getByRole("spinbutton", { name: "compact at %", exact: true });
  assert.equal(await knob.inputValue(), "");
  assert.equal(await knob.getAttribute("placeholder"), "each policy's own");

  await knob.fill("70");
  await knob.press("Enter");
  await widget.getByRole("status").filter({ hasText: "replayed" }).waitFor({ timeout: 5000 });
  assert.equal(await widget.getByRole("status").textContent(),
    "compact at % is now 70. Every policy replayed to turn 10 (budget 40, 2 HOT turns, compacting at 70%).");
  assert.match(await lede.textContent(), /Every policy with a token trigger compacts at 70% of the budget \(Knobs\)\./);
  assert.match(await note.textContent(), /^Every policy with a token trigger compacts at 70% of the budget \(28 tokens\), in place of its own trigger\./);
  // #55.4: each opened rule says how the knob changes it; a policy without a token trigger does not.
  const rules = await rows.locator(".rule-details").evaluateAll((all) => all.map((d) => d.querySelector(".rule-now")?.textContent ?? ""));
  assert.equal(rules[1], "With compact at % set, it compacts at 70% of the budget, not 90%.");
  assert.equal(rules[0], "With compact at % set, it compacts at 70% of the budget, not 100%.");
  assert.equal(rules[4], "");
  assert.equal(rules[6], "");
  const expected = await coreState(page, 10, { compactAt: 70 });
  assert.equal(expected.compactAt, 70);
  assert.deepEqual(expected.policies[0].series, [8, 18, 21, 30, 30, 32, 34, 39, 40, 39]);
  assert.deepEqual(await tokensNow(rows), expected.policies.map((row) => row.tokens));
  // The sparklines' numbers follow: ours now compacts at turn 3.
  await widget.locator("summary", { hasText: "The sparklines as numbers" }).click();
  const ours = await widget.locator("table.data tbody tr").first().locator("td").allTextContents();
  assert.equal(ours[2], "29 \u2192 21");
  assert.equal(await widget.evaluate((el) => [el.getAttribute("compact-at"), el.compactAt]).then(JSON.stringify), JSON.stringify(["70", 70]));

  // Out of range: marked invalid with the core's rule, and not applied.
  await knob.fill("0");
  await knob.press("Enter");
  assert.equal(await knob.getAttribute("aria-invalid"), "true");
  assert.equal(await widget.locator("#knob-compact-at-error").textContent(),
    "Not applied: compact at % must be a whole number of at least 1, got 0. Still 70.");

  // Emptied: each policy's own trigger again, exactly today's replay.
  await knob.fill("");
  await knob.press("Enter");
  await widget.getByRole("status").filter({ hasText: "each policy's own trigger" }).waitFor({ timeout: 5000 });
  assert.equal(await widget.evaluate((el) => el.getAttribute("compact-at")), null);
  assert.deepEqual(await tokensNow(rows), (await coreState(page, 10)).policies.map((row) => row.tokens));
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(problems, []);
});

test("real agents' triggers are listed for the window the reader chooses, and each button sets compact at % to it", async () => {
  const { page, problems, widget, rows } = await openPlayground();
  await widget.getByRole("slider", { name: "turn" }).fill("10");
  await widget.locator("summary", { hasText: "Knobs" }).click();
  // Closed, the list has loaded no core: the page's own has no `frameworkTriggers`.
  const cores = () => page.evaluate(() => performance.getEntriesByType("resource").filter((r) => r.name.endsWith("_bg.wasm")).map((r) => r.name.split("/").at(-1)));
  await widget.getByText("Real agents' triggers", { exact: true }).waitFor();
  assert.ok(!(await cores()).some((name) => name.startsWith("playground-config")), String(await cores()));
  await widget.getByText("Real agents' triggers", { exact: true }).click();
  await page.waitForFunction(() => performance.getEntriesByType("resource").some((r) => r.name.includes("playground-config_bg.wasm")));
  const panel = widget.locator("details.triggers-panel");
  const window = panel.getByRole("combobox", { name: "for a context window of" });
  assert.equal(await window.inputValue(), "200000");
  const expected = (tokens) => page.evaluate(async (tokens) => {
    const core = await import("./pkg/agent_memory_widgets.js");
    await core.default();
    return core.frameworkTriggers(tokens);
  }, tokens);
  // The list is the core's, framework by framework, linked to its source.
  const items = panel.getByRole("listitem");
  await items.first().waitFor({ timeout: 5000 });
  const at200k = await expected(200000);
  assert.equal(await items.count(), at200k.length);
  assert.deepEqual(await panel.getByRole("link").evaluateAll((links) => links.map((a) => a.getAttribute("href"))), at200k.map((t) => t.url));
  await panel.getByRole("button", { name: "Claude Code: compact at 84%" }).waitFor();
  assert.match(await items.nth(6).textContent(), /Google ADK has no default trigger/);
  // #55.17: one version a framework, the one the playground's policy follows.
  assert.match(await items.nth(5).textContent(), /langchain 0\.3\.30/);
  assert.match(await items.nth(6).textContent(), /google-adk 1\.21\.0/);

  // 128K: server compaction's 150,000 tokens are past the window.
  await window.selectOption("128000");
  await widget.getByRole("status").filter({ hasText: "Real agents' triggers for a window of 128K tokens." }).waitFor({ timeout: 5000 });
  assert.match(await items.nth(4).textContent(), /Anthropic API, server compaction never compacts in a window this size/);
  // A million tokens: Anthropic's 100,000-token clearing is a tenth of it.
  await window.selectOption("1000000");
  const button = panel.getByRole("button", { name: "Anthropic API, tool-result clearing: compact at 10%" });
  await button.waitFor({ timeout: 5000 });
  assert.equal((await expected(1000000))[3].compactAt, 10);
  await button.click();
  await widget.getByRole("status").filter({ hasText: "compact at % is now 10" }).waitFor({ timeout: 5000 });
  assert.equal(await widget.getByRole("spinbutton", { name: "compact at %", exact: true }).inputValue(), "10");
  assert.equal(await widget.evaluate((el) => el.compactAt), 10);
  assert.deepEqual(await tokensNow(rows), (await coreState(page, 10, { compactAt: 10 })).policies.map((row) => row.tokens));
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(problems, []);
});

for (const width of [390, 1280]) {
  test(`the playground fits a ${width} px wide page without sideways scrolling`, async () => {
    const { page, problems, widget } = await openPlayground({ viewport: { width, height: 900 } });
    await widget.getByRole("slider", { name: "turn" }).fill("6");
    await widget.getByRole("button", { name: "Handoff checkpoint" }).click();
    const sizes = await page.evaluate(() => {
      // Only the playground: the other widgets have their own tests for narrow pages.
      for (const other of document.querySelectorAll("memory-compaction, memory-forgetting")) other.remove();
      const el = document.querySelector("memory-playground");
      return { page: document.documentElement.scrollWidth, inner: innerWidth, widget: el.scrollWidth, box: el.getBoundingClientRect().right };
    });
    assert.ok(sizes.page <= sizes.inner, `page ${sizes.page} > ${sizes.inner}`);
    assert.ok(sizes.widget <= sizes.inner && sizes.box <= sizes.inner, JSON.stringify(sizes));
    await screenshot(widget, `playground-${width}`);
    assert.deepEqual(await axe(page), []);
    assert.deepEqual(problems, []);
  });
}

test("on a phone, opening a policy brings its window into view and keeps focus on its button, by click or by key", async () => {
  for (const how of ["click", "Enter"]) {
    const { page, problems, widget, rows } = await openPlayground({ viewport: { width: 390, height: 844 } });
    const button = rows.nth(1).getByRole("button");
    const name = await button.textContent();
    if (how === "click") await button.click();
    else {
      await button.focus();
      await button.press("Enter");
    }
    const detail = widget.getByRole("region", { name: "the window under the chosen policy" });
    assert.match(await detail.getByRole("heading").textContent(), new RegExp(`^${name.replace(/[+]/g, "\\+")} at turn 0`));
    const box = await detail.boundingBox();
    // Within a pixel: scrolling to the nearest edge leaves fractions of one.
    assert.ok(box.y >= -1 && box.y + box.height <= 845, `${how}: the window is off screen: ${JSON.stringify(box)}`);
    assert.equal(await widget.evaluate((el) => el.shadowRoot.activeElement?.textContent), name, `${how}: focus moved`);
    assert.equal(await rows.nth(1).getByRole("button").getAttribute("aria-expanded"), "true");
    assert.deepEqual(problems, []);
    await page.close();
  }
});
