// The page says exactly what is true: the meter, captions, the timeline of events, forecasts,
// the decay chart, the knobs, and a layout that fits a phone. One test per item of issues 12
// and 16 (the playground's items have their own tests). Controls are found by accessible name.

import { test } from "node:test";
import assert from "node:assert/strict";
import { open, screenshot, axe, useBrowser } from "./harness.mjs";

const env = useBrowser();

async function openPage(options) {
  const opened = await open(env.browser, env.server.url, options);
  await opened.page.goto(env.server.url);
  await opened.page.locator("memory-compaction .meter-label").waitFor({ timeout: 5000 });
  await opened.page.locator("memory-forgetting tbody tr").first().waitFor({ timeout: 5000 });
  await opened.page.locator("memory-playground tbody tr").first().waitFor({ timeout: 5000 });
  return opened;
}

/** Every rendered text of the page, shadow roots included, as one string; `gap` joins text nodes. */
const pageText = (page, gap = " ") => page.evaluate((gap) => {
  const out = [];
  const walk = (root) => {
    for (const node of root.childNodes) {
      if (node.nodeType === Node.TEXT_NODE) {
        if (node.parentElement?.checkVisibility()) out.push(node.textContent);
      } else if (node.nodeType === Node.ELEMENT_NODE && !["SCRIPT", "STYLE"].includes(node.tagName)) {
        if (node.shadowRoot) walk(node.shadowRoot);
        walk(node);
      }
    }
  };
  walk(document.body);
  return out.map((text) => text.replace(/\s+/g, " ")).join(gap).replace(/ +/g, " ");
}, gap);

/** The refund desk under the compaction widget's settings, from the full core (every core answers as it). */
const coreSession = (page, config, turn) => page.evaluate(async ([config, turn]) => {
  const core = await import("./pkg/agent_memory_widgets.js");
  await core.default();
  const session = core.Session.withConfig(config);
  session.goTo(turn);
  const state = session.state();
  session.free();
  return state;
}, [config, turn]);

/** Fires both writes at t = 6 and consolidates at t = 8, as the page's story goes. */
async function forgettingStory(widget) {
  const slider = widget.getByRole("slider", { name: "time" });
  await slider.fill("6");
  await widget.getByRole("button", { name: "refund approved: $180.00" }).click();
  await widget.getByRole("button", { name: "Dana asks about the Globex earbuds warranty" }).click();
  await slider.fill("8");
  await widget.getByRole("button", { name: "Consolidate" }).click();
}

test("#12.1 and #55.16 the meter's number, words, colour and bar describe one moment, the window COMPACT left, held", async () => {
  const { page, problems } = await openPage();
  const widget = page.locator("memory-compaction");
  const add = widget.getByRole("button", { name: "Add next turn" });
  for (let i = 0; i < 3; i++) await add.click();

  // Turn 4 crosses. Sample the meter on every frame, from the click until it has settled.
  const samples = await page.evaluate(async () => {
    const root = document.querySelector("memory-compaction").shadowRoot;
    const probe = (name) => {
      const span = document.createElement("span");
      span.style.color = `var(${name})`;
      root.append(span);
      const color = getComputedStyle(span).color;
      span.remove();
      return color;
    };
    const colors = { over: probe("--amw-over"), under: probe("--amw-under") };
    const box = root.querySelector(".meter");
    const sample = () => ({
      text: root.querySelector(".meter-text").textContent,
      verdict: root.querySelector(".verdict").textContent,
      verdictColor: getComputedStyle(root.querySelector(".verdict")).color,
      barColor: (() => {
        const span = document.createElement("span");
        span.style.color = "var(--_state)";
        box.append(span);
        const color = getComputedStyle(span).color;
        span.remove();
        return color;
      })(),
      value: root.querySelector("meter").value,
      valueText: root.querySelector("meter").getAttribute("aria-valuetext"),
      over: box.classList.contains("over"),
    });
    const out = [];
    [...root.querySelectorAll("button")].find((b) => b.textContent === "Add next turn").click();
    const end = performance.now() + 1800;
    while (performance.now() < end) {
      out.push(sample());
      await new Promise((done) => requestAnimationFrame(done));
    }
    return { out, colors };
  });
  const { out, colors } = samples;
  assert.ok(out.length > 20, `only ${out.length} frames sampled`);
  for (const [i, s] of out.entries()) {
    const tokens = Number(/^live window (\d+) \/ 40 tokens$/.exec(s.text)?.[1]);
    const over = tokens > 40;
    const where = `frame ${i}: ${JSON.stringify(s)}`;
    assert.equal(s.verdict, over ? "over budget" : "under budget", where);
    assert.equal(s.over, over, where);
    assert.equal(s.verdictColor, over ? colors.over : colors.under, where);
    assert.equal(s.barColor, s.verdictColor, where);
    assert.equal(s.value, Math.min(tokens, 40), where);
    assert.equal(s.valueText, `${tokens} of 40 tokens, ${s.verdict}`, where);
  }
  // #55.16: one moment only, the window COMPACT left, at once and held: a glance never catches
  // the peak on the meter. The crossing note beside it tells the peak.
  const shown = [...new Set(out.map((s) => s.text))];
  assert.deepEqual(shown, ["live window 30 / 40 tokens"]);
  assert.equal(out.at(-1).verdict, "under budget");
  const note = await widget.locator(".crossing-note").textContent();
  assert.equal(note, "Turn 4 took the window to 41 tokens, over the budget of 40. COMPACT brought it back to 30, " +
    "leaving 10 tokens of headroom: the next turn crosses again if it is longer than 10 tokens.");
  assert.match(await widget.getByRole("status").textContent(), /over budget at 41 tokens, compacted to 30 of 40 tokens/);
  assert.deepEqual(problems, []);
});

test("#12.1 under reduced motion the meter shows the window at once, and the note tells the crossing", async () => {
  const { page, problems } = await openPage({ reducedMotion: "reduce" });
  const widget = page.locator("memory-compaction");
  const add = widget.getByRole("button", { name: "Add next turn" });
  for (let i = 0; i < 4; i++) await add.click();
  assert.equal(await widget.locator(".meter-text").textContent(), "live window 30 / 40 tokens");
  assert.equal(await widget.locator(".verdict").textContent(), "under budget");
  assert.equal(await widget.locator("meter").evaluate((m) => m.value), 30);
  assert.match(await widget.locator(".crossing-note").textContent(), /^Turn 4 took the window to 41 tokens, over the budget of 40/);
  assert.deepEqual(problems, []);
});

test("#12.2 HOT's caption is true at every turn", async () => {
  const { page, problems } = await openPage({ reducedMotion: "reduce" });
  const widget = page.locator("memory-compaction");
  const add = widget.getByRole("button", { name: "Add next turn" });
  const hot = widget.getByRole("region", { name: "hot" });
  for (let turn = 1; turn <= 10; turn++) {
    await add.click();
    const caption = await hot.locator(".caption").textContent();
    const count = await hot.locator("li.turn").count();
    const claim = /^last (\d+) turns?/.exec(caption);
    if (claim) assert.equal(count, Number(claim[1]), `turn ${turn}: "${caption}" but HOT holds ${count}`);
    assert.match(caption, /keeps only the last 2 turns/);
    const state = await coreSession(page, {}, turn);
    if (state.log.at(-1).compacted) assert.equal(count, 2, `turn ${turn}: a compaction keeps the last 2`);
    else assert.equal(count, state.hot.length, `turn ${turn}`);
  }
  assert.deepEqual(problems, []);
});

test("#12.4 an event after the slider's time reads as scheduled, and a fired event can be moved or removed", async () => {
  const { page, problems } = await openPage();
  const widget = page.locator("memory-forgetting");
  const slider = widget.getByRole("slider", { name: "time" });
  const refund = widget.getByRole("button", { name: "refund approved: $180.00" });
  const note = widget.locator("#event-0-note");
  const status = (text) => widget.locator("tbody tr", { hasText: text }).locator("td.status");
  assert.equal(await note.textContent(), "not fired yet: press to write it now");

  await slider.fill("6");
  await refund.click();
  assert.equal(await note.textContent(), "fired at t = 6");
  assert.equal(await refund.isDisabled(), true);
  assert.match(await status("the refund for ORD-3300 is pending").textContent(), /^superseded by/);

  // Before its time the event has not happened: the store shows it so, and so do the words.
  await slider.fill("5");
  assert.equal(await note.textContent(), "scheduled: fires at t = 6; press to move it to t = 5");
  assert.equal(await refund.isEnabled(), true);
  assert.equal(await refund.getAttribute("aria-describedby"), "event-0-note");
  assert.equal(await status("the refund for ORD-3300 is pending").textContent(), "active");
  assert.match(await widget.getByRole("status").textContent(), /1 event scheduled for later/);

  // Fired again at t = 5: it moves there.
  await refund.click();
  assert.equal(await note.textContent(), "fired at t = 5");
  assert.match(await widget.getByRole("status").textContent(), /^Moved “refund approved: \$180\.00” from t = 6 to t = 5\./);
  assert.match(await status("the refund for ORD-3300 is pending").textContent(), /^superseded by/);

  // Removed: as if it had never been fired, at every time.
  await widget.getByRole("button", { name: "remove event 1" }).click();
  assert.equal(await note.textContent(), "not fired yet: press to write it now");
  await slider.fill("12");
  assert.equal(await widget.locator("tbody tr", { hasText: "refund approved" }).count(), 0);
  assert.equal(await widget.getByRole("button", { name: "remove event 1" }).isHidden(), true);

  // The consolidation pass is on the timeline the same way.
  await slider.fill("8");
  await widget.getByRole("button", { name: "Consolidate" }).click();
  await slider.fill("7");
  assert.match(await widget.locator("#consolidate-note").textContent(), /^scheduled: runs at t = 8/);
  await widget.getByRole("button", { name: "remove consolidation" }).click();
  await slider.fill("12");
  assert.equal(await widget.locator("tbody tr.kind-procedural").count(), 0);

  // The words around the widget say the same.
  const text = await pageText(page);
  assert.match(text, /the event now reads scheduled/);
  assert.doesNotMatch(text, /Drag back past an event and it is undone/);
  assert.deepEqual(problems, []);
});

test("#12.5 one word for one thing: superseded, never retired", async () => {
  const { page, problems } = await openPage();
  const widget = page.locator("memory-forgetting");
  await forgettingStory(widget);
  const text = await pageText(page);
  assert.doesNotMatch(text, /retir/i);
  assert.match(text, /episodes become superseded/);
  assert.ok((await widget.locator("td.status").allTextContents()).some((s) => s.startsWith("superseded by")));
  assert.deepEqual(problems, []);
});

test("#12.8 forecasts stay on the slider's range, to one decimal, and say what 'weakest' means", async () => {
  const { page, problems } = await openPage();
  const widget = page.locator("memory-forgetting");
  await forgettingStory(widget);
  await widget.getByRole("checkbox", { name: "Show the arithmetic and the forget forecast" }).check();
  for (const t of ["8", "10", "12", "0"]) {
    await widget.getByRole("slider", { name: "time" }).fill(t);
    const forecasts = await widget.locator(".forecast").allTextContents();
    assert.ok(forecasts.length > 0);
    for (const forecast of forecasts) {
      for (const [, value] of forecast.matchAll(/t = ([\d.]+)/g)) {
        assert.ok(Number(value) <= 12, `t = ${t}: ${forecast}`);
        assert.match(value, /^\d+(\.\d)?$/, `t = ${t}: ${forecast}`);
      }
      assert.doesNotMatch(forecast, /weakest now/);
    }
    assert.equal(forecasts.filter((f) => f.endsWith("next to go if the store overflows")).length, 1, `t = ${t}: ${forecasts.join(" | ")}`);
  }
  await widget.getByRole("slider", { name: "time" }).fill("10");
  assert.ok((await widget.locator(".forecast").allTextContents()).some((f) => /does not halve before t = 12/.test(f)));
  assert.deepEqual(problems, []);
});

test("#12.9 'importance (as written)' is explained where it appears", async () => {
  const { page, problems } = await openPage();
  const table = page.locator("memory-forgetting").getByRole("table", { name: "The store, ranked by score" });
  const id = await table.getAttribute("aria-describedby");
  const note = await page.locator("memory-forgetting").locator(`#${id}`).textContent();
  assert.match(note, /^Importance \(as written\) is the value a fact was given when it was written/);
  assert.match(note, /never decays on its own: recency carries the decay/);
  assert.deepEqual(problems, []);
});

test("#12.10 the step log and the crossing note show the headroom each step leaves", async () => {
  const { page, problems } = await openPage({ reducedMotion: "reduce" });
  const widget = page.locator("memory-compaction");
  const add = widget.getByRole("button", { name: "Add next turn" });
  for (let i = 0; i < 8; i++) await add.click();
  const lines = await widget.getByRole("region", { name: "steps" }).locator(".line").allTextContents();
  const state = await coreSession(page, {}, 8);
  for (const [i, line] of lines.entries()) {
    const room = 40 - state.log[i].tokensAfter;
    assert.ok(line.endsWith(`; ${room} ${room === 1 ? "token" : "tokens"} of headroom`), line);
  }
  assert.equal(state.log[7].tokensAfter, 39);
  assert.match(await widget.locator(".crossing-note").textContent(),
    /COMPACT brought it back to 39, leaving 1 token of headroom: the next turn crosses again if it is longer than 1 token\.$/);
  assert.deepEqual(problems, []);
});

test("#12.10 a crossing COMPACT cannot bring down says it found nothing to fold or drop", async () => {
  const { page, problems } = await openPage({ reducedMotion: "reduce" });
  const widget = page.locator("memory-compaction");
  // 20 HOT turns: every turn stays verbatim, so the crossings at turns 4 and 6 fold nothing.
  await widget.evaluate((el) => el.setAttribute("hot", "20"));
  const add = widget.getByRole("button", { name: "Add next turn" });
  await add.waitFor();
  for (let i = 0; i < 6; i++) await add.click();
  const step = (await coreSession(page, { hotN: 20 }, 6)).log[5];
  assert.ok(step.crossed && step.tokensAfter === step.peakTokens, JSON.stringify(step));
  assert.equal(await widget.locator(".crossing-note").textContent(),
    `Turn 6 took the window to ${step.peakTokens} tokens, over the budget of 40. COMPACT found nothing it could fold or drop, so it stays over budget.`);
  assert.deepEqual(problems, []);
});

test("the decay chart: every line identified, its own colour and dash, a score axis, exact breakpoints", async () => {
  const { page, problems } = await openPage();
  const widget = page.locator("memory-forgetting");
  await forgettingStory(widget);
  const chart = await widget.locator("svg.decay-chart").evaluate((svg) => {
    const root = svg.getRootNode();
    const host = root.host;
    const legend = ["--amw-hot", "--amw-warm", "--amw-cold", "--amw-score", "--amw-over", "--amw-under"].map((name) => {
      const span = document.createElement("span");
      span.style.color = `var(${name})`;
      root.append(span);
      const color = getComputedStyle(span).color;
      span.remove();
      return color;
    });
    const ticks = Object.fromEntries([...svg.querySelectorAll("text.tick")].map((t) => [t.textContent, Number(t.getAttribute(t.getAttribute("text-anchor") === "end" ? "y" : "x"))]));
    const lines = [...svg.querySelectorAll("g.decay-line")].map((g) => ({
      label: g.getAttribute("aria-label"),
      end: g.querySelector(".end-label").textContent,
      stroke: getComputedStyle(g.querySelector("polyline")).stroke,
      dash: g.querySelector("polyline").getAttribute("stroke-dasharray"),
      points: g.querySelector("polyline").getAttribute("points").split(" ").map((p) => p.split(",").map(Number)),
      tabindex: g.getAttribute("tabindex"),
    }));
    return { legend, ticks, lines, key: [...root.querySelectorAll(".chart-key li")].map((li) => li.textContent), host: host.localName };
  });
  const core = await page.evaluate(async () => {
    const { FactStore } = await import("./pkg/elements.js");
    const store = new FactStore();
    store.setTime(6); store.fire(0); store.fire(1); store.setTime(8); store.consolidate();
    const lines = store.chart(12, 0.25);
    store.free();
    return lines;
  });
  assert.equal(chart.lines.length, core.length);
  for (const [i, line] of chart.lines.entries()) {
    assert.ok(line.label.startsWith(`#${core[i].id} ${core[i].text}, ${core[i].kind}: score `), line.label);
    assert.equal(line.end, `#${core[i].id}`);
    assert.ok(chart.key[i].startsWith(`#${core[i].id} ${core[i].text}`), chart.key[i]);
    assert.ok(!chart.legend.includes(line.stroke), `line #${core[i].id} is drawn in a legend colour, ${line.stroke}`);
  }
  const styles = chart.lines.map((line) => `${line.stroke} ${line.dash}`);
  assert.equal(new Set(styles).size, styles.length, `two lines look the same: ${styles.join(" | ")}`);
  assert.equal(chart.lines.filter((line) => line.tabindex === "0").length, 1, "the lines are one tab stop");
  for (const tick of ["0", "0.25", "0.5", "0.75", "1", "score"]) assert.ok(tick in chart.ticks, `no ${tick} on the y axis`);

  // Dana (#1) rises straight up at the reads at t = 2 and t = 5: two points with the x of that time.
  const x = (t) => chart.ticks[String(t)];
  const near = (a, b) => Math.abs(a - b) < 0.11;
  const vertical = (points, t) => points.some(([x1, y1], i) => i > 0 && near(x1, x(t)) && near(points[i - 1][0], x(t)) && y1 < points[i - 1][1]);
  const dana = chart.lines[core.findIndex((line) => line.id === 1)].points;
  assert.ok(vertical(dana, 2), "no vertical jump at t = 2");
  // t = 5 has no tick label; the jump's x is between those of 4 and 6.
  chart.ticks["5"] = (x(4) + x(6)) / 2;
  assert.ok(vertical(dana, 5), "no vertical jump at t = 5");
  // The pending refund (#3), superseded at t = 6, ends exactly at t = 6.
  const pending = chart.lines[core.findIndex((line) => line.id === 3)].points;
  assert.ok(near(pending.at(-1)[0], x(6)), `ends at x ${pending.at(-1)[0]}, not ${x(6)}`);

  // One tab stop, arrow keys between lines, and the readout names the fact.
  await widget.locator("g.decay-line[tabindex='0']").focus();
  assert.match(await widget.locator(".chart-readout").textContent(), /^#1 the user is Dana \(episodic\)/);
  await page.keyboard.press("ArrowDown");
  assert.match(await widget.locator(".chart-readout").textContent(), /^#2 order ORD-3300 was \$200\.00/);

  // In the numbers, a fact has no score from the moment it stops.
  await widget.locator("summary", { hasText: "The chart as numbers" }).click();
  const row = widget.getByRole("table", { name: "Score at each time" }).locator("tbody tr", { hasText: "#3 the refund for ORD-3300 is pending" });
  const cells = await row.locator("td").allTextContents();
  assert.notEqual(cells[5], "–");
  assert.equal(cells[6], "–");
  assert.deepEqual(problems, []);
});

for (const width of [320, 390, 768, 1280]) {
  test(`at ${width} px nothing scrolls sideways but a table in its own region`, async () => {
    const { page, problems } = await openPage({ viewport: { width, height: 900 }, reducedMotion: "reduce" });
    for (let i = 0; i < 10; i++) await page.getByRole("button", { name: "Add next turn" }).click();
    await forgettingStory(page.locator("memory-forgetting"));
    await page.getByRole("checkbox", { name: "Show the arithmetic and the forget forecast" }).check();
    for (const summary of await page.locator("summary").all()) await summary.click();
    await page.getByRole("button", { name: "Forward one turn" }).click();
    // The playground at its last turn, its widest numbers ("64 / 40 over budget").
    const turn = page.locator("memory-playground").getByRole("slider", { name: "turn" });
    await turn.fill(await turn.getAttribute("max"));
    await page.getByRole("button", { name: "Sliding window + recursive summary" }).click();
    // The forgetting playground at the end of its long stream: its longest readout.
    const clock = page.locator("memory-forgetting-playground").getByRole("slider", { name: "point in the stream" });
    await clock.fill(await clock.getAttribute("max"));
    await page.waitForTimeout(100);
    const report = await page.evaluate(() => {
      const out = { page: [document.documentElement.scrollWidth, innerWidth], elements: [], outside: [] };
      for (const el of document.querySelectorAll("memory-compaction, memory-forgetting, memory-playground, memory-forgetting-playground")) {
        const frame = el.shadowRoot.querySelector(".widget");
        const box = frame.getBoundingClientRect();
        out.elements.push([el.localName, el.scrollWidth, el.clientWidth, frame.scrollWidth, frame.clientWidth, box.right]);
        for (const node of el.shadowRoot.querySelectorAll("*")) {
          if (node.closest(".scroll") || !node.checkVisibility() || node.closest("svg")) continue;
          const rect = node.getBoundingClientRect();
          if (rect.width && rect.right > box.right + 0.5) out.outside.push(`${el.localName} ${node.localName}.${node.className?.baseVal ?? node.className}: ${rect.right} > ${box.right}`);
        }
      }
      return out;
    });
    assert.ok(report.page[0] <= report.page[1], `the page is ${report.page[0]} px wide in a ${report.page[1]} px window`);
    for (const [name, scrollWidth, clientWidth, frameScroll, frameClient, right] of report.elements) {
      assert.ok(scrollWidth <= clientWidth, `${name}: scrollWidth ${scrollWidth} > ${clientWidth}`);
      assert.ok(frameScroll <= frameClient, `${name}: its frame scrolls, ${frameScroll} > ${frameClient}`);
      assert.ok(right <= width, `${name} ends at ${right}`);
    }
    assert.deepEqual(report.outside.slice(0, 10), []);
    // #41: no table a reader needs hides columns behind a scroll: each fits, or becomes cards.
    const scrolling = await page.evaluate(() => [...document.querySelectorAll("memory-compaction, memory-forgetting, memory-playground, memory-forgetting-playground")]
      .flatMap((el) => [...el.shadowRoot.querySelectorAll(".scroll")])
      .filter((box) => box.checkVisibility() && box.scrollWidth > box.clientWidth + 1)
      .map((box) => box.querySelector("caption")?.textContent));
    assert.deepEqual(scrolling, [], `${width} px: these tables scroll sideways`);
    // The answer each comparison exists to give is on screen: ours, in the facts each policy holds.
    const held = page.locator("memory-forgetting-playground").getByRole("table", { name: /^Facts each policy holds/ });
    const ours = held.locator("td.held[data-label='Ours']").first();
    const [oursBox, tableBox] = await Promise.all([ours.boundingBox(), held.boundingBox()]);
    assert.ok(oursBox.x + oursBox.width <= tableBox.x + tableBox.width + 0.5 && oursBox.x + oursBox.width <= width, `${width} px: "Ours" is cut off`);
    await screenshot(page, `width-${width}`);
    assert.deepEqual(problems, []);
  });
}

test("#16.1 and #16.2 a knob replays the run to the same turn, says so, and the words follow the knobs", async () => {
  const { page, problems } = await openPage({ reducedMotion: "reduce" });
  const widget = page.locator("memory-compaction");
  const add = widget.getByRole("button", { name: "Add next turn" });
  for (let i = 0; i < 6; i++) await add.click();
  const sentence = widget.locator(".settings-note");
  assert.equal(await sentence.textContent(), "With a budget of 40 tokens and 2 HOT turns, the window crosses the budget on turns 4, 6, 8, 9 and 10.");
  await widget.locator("summary", { hasText: "Knobs" }).click();
  assert.match(await widget.locator(".knobs").textContent(), /Changing a knob replays what you did so far under the new settings/);
  const budget = widget.getByRole("spinbutton", { name: "budget" });
  await budget.fill("60");
  await budget.press("Enter");
  // A first setting of its own is applied once the core with `withConfig` is in.
  await widget.getByRole("status").filter({ hasText: /^budget is now 60\./ }).waitFor({ timeout: 5000 });
  const state = await coreSession(page, { budget: 60 }, 6);
  assert.match(await widget.locator(".meter-text").textContent(), new RegExp(`live window ${state.tokens} / 60 tokens`));
  assert.equal(await widget.locator("#done-note").textContent(), "Turn 6 of 10.");
  assert.equal(await widget.getByRole("status").textContent(),
    `budget is now 60. Replayed to turn 6: ${state.tokens} of 60 tokens, under budget.`);
  const all = await coreSession(page, { budget: 60 }, 10);
  const turns = all.crossings.length === 1 ? `turn ${all.crossings[0]}` : `turns ${all.crossings.slice(0, -1).join(", ")} and ${all.crossings.at(-1)}`;
  assert.equal(await sentence.textContent(), `With a budget of 60 tokens and 2 HOT turns, the window crosses the budget on ${turns}. ` +
    "The text around this widget describes the settings it opened with: a budget of 40 and 2 HOT turns.");

  // The forgetting widget keeps the time and the events it was given.
  const store = page.locator("memory-forgetting");
  await store.getByRole("slider", { name: "time" }).fill("6");
  await store.getByRole("button", { name: "refund approved: $180.00" }).click();
  await store.locator("summary", { hasText: "Knobs" }).click();
  const halfLife = store.getByRole("spinbutton", { name: "half-life" });
  await halfLife.fill("2");
  await halfLife.press("Enter");
  await store.getByRole("status").filter({ hasText: /^half-life is now 2\./ }).waitFor({ timeout: 5000 });
  assert.equal(await store.locator("#event-0-note").textContent(), "fired at t = 6");
  assert.equal(await store.getByRole("slider", { name: "time" }).inputValue(), "6");
  assert.match(await store.getByRole("status").textContent(), /^half-life is now 2\. Replayed 1 thing you did, each at its time\. At t = 6: 4 active facts\.$/);
  assert.match(await store.locator(".settings-note").textContent(), /describes the settings it opened with: half-life 4, capacity 4, access boost 0\.5/);
  assert.deepEqual(problems, []);
});

test("#16.4 an invalid knob is marked at the input, and shows the value in force once it loses focus", async () => {
  const { page, problems } = await openPage();
  const events = [];
  await page.exposeFunction("recordError", (message) => events.push(message));
  await page.evaluate(() => document.addEventListener("memory-error", (e) => globalThis.recordError(e.detail.message)));
  for (const [selector, name, bad, rule, good] of [
    ["memory-compaction", "budget", "-3", /^Not applied: budget must be a whole number of at least 1, got -3\. Still 40\.$/, "40"],
    ["memory-compaction", "HOT turns", "0", /^Not applied: HOT turns must be a whole number of at least 1, got 0\. Still 2\.$/, "2"],
    ["memory-forgetting", "capacity", "0", /^Not applied: capacity must be a whole number of at least 1, got 0\. Still 4\.$/, "4"],
  ]) {
    const widget = page.locator(selector);
    const knobs = widget.locator("details.knobs");
    if (!(await knobs.evaluate((d) => d.open))) await widget.locator("summary", { hasText: "Knobs" }).click();
    const input = widget.getByRole("spinbutton", { name });
    await input.fill(bad);
    await input.press("Enter");
    // The first setting of its own waits for the core with `withConfig`, which judges it.
    await widget.locator(`[aria-invalid="true"]`).waitFor({ timeout: 5000 });
    assert.equal(await input.getAttribute("aria-invalid"), "true", name);
    const message = widget.locator(`#${await input.getAttribute("aria-describedby")}`);
    assert.match(await message.textContent(), rule);
    assert.match(await widget.getByRole("status").textContent(), rule);
    assert.equal(await input.inputValue(), bad, "the box keeps what was typed while it has focus");
    await input.press("Tab");
    assert.equal(await input.inputValue(), good, "after focus leaves, the value in force");
    assert.equal(await input.getAttribute("aria-invalid"), null);
    assert.equal(await widget.locator(".error").isHidden(), true);
  }
  assert.match(await page.locator("memory-compaction .meter-text").textContent(), /\/ 40 tokens/);
  assert.equal(events.length, 3);
  assert.deepEqual(problems, []);
});

test("#16.5 the tier captions state the rule the core applies", async () => {
  const { page, problems } = await openPage({ reducedMotion: "reduce" });
  const widget = page.locator("memory-compaction");
  for (let i = 0; i < 10; i++) await widget.getByRole("button", { name: "Add next turn" }).click();
  const state = await coreSession(page, {}, 10);
  const warmCaption = await widget.getByRole("region", { name: "warm" }).locator(".caption").textContent();
  const kinds = new Set(state.warm.flatMap((line) => line.turns).map((turn) => state.transcript[turn - 1].kind));
  const named = { decision: "decision", tool: "tool output", question: "question" };
  for (const kind of kinds) assert.ok(warmCaption.includes(named[kind]), `WARM holds a ${kind}: ${warmCaption}`);
  const coldCaption = await widget.getByRole("region", { name: "cold" }).locator(".caption").textContent();
  assert.match(coldCaption, /start with a capital letter or contain a digit/);
  for (const term of state.cold.text.split(", ")) assert.match(term, /^\p{Lu}|\d/u, `"${term}" is not a key term as the caption says`);
  assert.deepEqual(problems, []);
});

test("#16.6 one turn is a 'turn'; #55 the closing footer is cut", async () => {
  const { page, problems } = await openPage({ reducedMotion: "reduce" });
  const widget = page.locator("memory-compaction");
  for (let i = 0; i < 10; i++) await widget.getByRole("button", { name: "Add next turn" }).click();
  await page.locator("memory-playground").getByRole("slider", { name: "turn" }).fill("10");
  const seen = [];
  for (const name of ["Sliding window + recursive summary", "Summary buffer", "Handoff checkpoint", "Interval compaction"]) {
    await page.getByRole("button", { name }).click();
    seen.push(await page.locator("memory-playground").getByRole("region", { name: "the window under the chosen policy" }).textContent());
  }
  const text = (await pageText(page, " \u00a6 ")) + seen.join(" \u00a6 ");
  assert.deepEqual(text.match(/.{40}\bturns \d+(?![\d,]| and).{20}/g) ?? [], [], "a single turn called 'turns'");
  assert.match(text, /from turn \d+ ·/);
  assert.equal(await page.locator("memory-compaction, memory-forgetting, memory-playground, memory-forgetting-playground").count(), 4);
  assert.equal(await page.locator("footer").count(), 0);
  assert.deepEqual(problems, []);
});

test("#16.9 and #16.11 why distilled facts fade slowly, and an evicted episode is not a source", async () => {
  const { page, problems } = await openPage();
  const widget = page.locator("memory-forgetting");
  await forgettingStory(widget);
  const summary = await widget.locator(".note", { hasText: "Recency halves" }).textContent();
  assert.match(summary, /16 for semantic facts and 32 for procedural rules: a distilled fact sums up many episodes and stays true long after any one conversation/);
  const evicted = await widget.locator("tbody tr.status-evicted th .text").allTextContents();
  assert.ok(evicted.length > 0);
  for (const source of await widget.locator(".sources").allTextContents()) {
    for (const text of evicted) assert.ok(!source.includes(text), `${source} cites the evicted “${text}”`);
  }
  assert.match(await pageText(page), /An episode that was already evicted is not a source: eviction is forgetting/);
  assert.deepEqual(problems, []);
});

test("#16.14 at 768 px headers and short labels do not break mid-value", async () => {
  const { page, problems } = await openPage({ viewport: { width: 768, height: 900 }, reducedMotion: "reduce" });
  for (let i = 0; i < 10; i++) await page.getByRole("button", { name: "Add next turn" }).click();
  const store = page.locator("memory-forgetting");
  await store.locator("summary", { hasText: "The chart as numbers" }).click();
  const lines = (locator) => locator.evaluateAll((els) => els.map((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
    return [el.textContent, tops.size];
  }));
  for (const [text, count] of await lines(store.getByRole("table", { name: "Score at each time" }).locator("thead th"))) {
    assert.equal(count, 1, `"${text}" breaks over ${count} lines`);
  }
  for (const [text, count] of await lines(page.locator("memory-compaction").locator(".dropped-list .nowrap"))) {
    assert.equal(count, 1, `"${text}" breaks over ${count} lines`);
  }
  assert.deepEqual(problems, []);
});

test("every target is at least 24 by 24 px or spaced (WCAG 2.2 target size, as Lighthouse checks it)", async () => {
  const { page, problems } = await openPage({ bypassCSP: true, reducedMotion: "reduce" });
  for (let i = 0; i < 10; i++) await page.getByRole("button", { name: "Add next turn" }).click();
  await forgettingStory(page.locator("memory-forgetting"));
  for (const summary of await page.locator("summary").all()) await summary.click();
  assert.deepEqual(await axe(page, ["target-size"]), []);
  assert.deepEqual(problems, []);
});

test("focus stays in the widget when an action disables, hides or rebuilds the control that had it", async () => {
  const { page, problems } = await openPage({ reducedMotion: "reduce" });
  const focused = (widget) => widget.evaluate((el) => {
    const at = el.shadowRoot.activeElement;
    return at ? at.getAttribute("aria-label") ?? at.textContent : null;
  });

  // Step back to turn 0 disables Step back: focus goes on to Add next turn.
  const compaction = page.locator("memory-compaction");
  await compaction.getByRole("button", { name: "Add next turn" }).click();
  await compaction.getByRole("button", { name: "Step back" }).focus();
  await page.keyboard.press("Enter");
  assert.equal(await focused(compaction), "Add next turn");
  // The last turn disables Add next turn: focus stays among the controls.
  for (let i = 0; i < 10; i++) await page.keyboard.press("Enter");
  assert.equal(await compaction.getByRole("button", { name: "Add next turn" }).isDisabled(), true);
  assert.equal(await focused(compaction), "Step back");
  // #41.15 and nothing on the disabled button looks like a focus ring.
  const ring = await compaction.getByRole("button", { name: "Add next turn" }).evaluate((button) => {
    const style = getComputedStyle(button);
    const probe = document.createElement("span");
    probe.style.color = getComputedStyle(button).getPropertyValue("--amw-focus");
    button.after(probe);
    const focus = getComputedStyle(probe).color;
    probe.remove();
    return { border: style.borderTopColor, outline: style.outlineStyle, focus };
  });
  assert.notEqual(ring.border, ring.focus, "the disabled Add next turn is drawn in the focus colour");
  assert.equal(ring.outline, "none");

  // Reading a fact rebuilds the table: focus is on the same fact's read button.
  const forgetting = page.locator("memory-forgetting");
  await forgetting.getByRole("button", { name: "read fact 2" }).focus();
  await page.keyboard.press("Enter");
  assert.equal(await focused(forgetting), "read fact 2");

  // Opening a policy rebuilds the rows: focus is on that policy's button still.
  const playground = page.locator("memory-playground");
  await playground.getByRole("button", { name: "Summary buffer" }).focus();
  await page.keyboard.press("Enter");
  assert.equal(await focused(playground), "Summary buffer");
  assert.deepEqual(problems, []);
});

test("'Show the arithmetic' stays ticked when a knob rebuilds the forgetting widget", async () => {
  const { page, problems } = await openPage({ reducedMotion: "reduce" });
  const widget = page.locator("memory-forgetting");
  await widget.getByRole("checkbox", { name: "Show the arithmetic and the forget forecast" }).check();
  await widget.locator("summary", { hasText: "Knobs" }).click();
  await widget.getByRole("spinbutton", { name: "capacity" }).fill("5");
  await widget.getByRole("spinbutton", { name: "capacity" }).press("Enter");
  await widget.getByRole("status").filter({ hasText: "capacity is now 5" }).waitFor({ timeout: 5000 });
  assert.equal(await widget.getByRole("checkbox", { name: "Show the arithmetic and the forget forecast" }).isChecked(), true);
  assert.ok(await widget.locator(".breakdown").count() > 0);
  assert.deepEqual(problems, []);
});

test("the decay chart's texts and the slider's marks do not overlap, from 320 to 1280 px", async () => {
  for (const width of [320, 390, 768, 1280]) {
    const { page, problems } = await openPage({ viewport: { width, height: 900 } });
    const widget = page.locator("memory-forgetting");
    const chart = widget.locator("svg.decay-chart");
    const check = async (moment) => {
      // Drawn at its box's width: the first drawing is at a default width, redrawn once measured.
      await page.waitForFunction((el) => {
        const svg = el.shadowRoot.querySelector("svg.decay-chart");
        return svg && Math.abs(svg.viewBox.baseVal.width - Math.max(280, svg.clientWidth)) <= 24;
      }, await widget.elementHandle());
      const { texts, axis } = await chart.evaluate((svg) => {
        const box = (el) => { const r = el.getBoundingClientRect(); return { text: el.textContent, top: r.top, bottom: r.bottom, left: r.left, right: r.right }; };
        return { axis: svg.querySelector("line.axis").getBoundingClientRect().top, texts: [...svg.querySelectorAll("text")].map(box) };
      });
      for (const [i, a] of texts.entries()) {
        for (const b of texts.slice(i + 1)) {
          // A text's box is its line box, taller than its glyphs: boxes 11 px apart (the end
          // labels' spacing, at 11 px type) share 2 or 3 px with no glyph touching.
          const overlap = Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 3.5;
          assert.ok(!overlap, `${width} px, ${moment}: "${a.text}" overlaps "${b.text}"`);
        }
      }
      for (const label of texts.filter((box) => box.text.startsWith("#"))) {
        assert.ok(label.bottom <= axis + 1, `${width} px, ${moment}: ${label.text} falls below the axis`);
      }
      const marks = await widget.locator(".marks .mark").evaluateAll((spans) => spans.map((span) => {
        const r = span.getBoundingClientRect();
        return { title: span.title, left: r.left, right: r.right };
      }));
      for (const [i, a] of marks.entries()) {
        for (const b of marks.slice(i + 1)) {
          assert.ok(Math.min(a.right, b.right) - Math.max(a.left, b.left) <= 0,
            `${width} px, ${moment}: the mark "${a.title}" overlaps "${b.title}"`);
        }
      }
    };
    await check("at t = 0");
    // Both writes at t = 6: two lines end there, one superseded and one evicted, and two start.
    await widget.getByRole("slider", { name: "time" }).fill("6");
    for (const name of [/^refund approved/, /^Dana asks about the Globex/]) {
      await widget.getByRole("group", { name: "write events" }).getByRole("button", { name }).click();
    }
    await widget.locator("svg.decay-chart polyline").nth(5).waitFor();
    await check("after both writes at t = 6");
    // Consolidated at t = 6 too: the store is full, so facts are written and retired at t = 6,
    // and every one of the nine has its line and its label.
    await widget.getByRole("button", { name: "Consolidate" }).click();
    await widget.locator("svg.decay-chart polyline").nth(8).waitFor();
    await check("after both writes and Consolidate at t = 6");
    assert.equal(await widget.locator(".marks .mark.write").count(), 1, "three writes at t = 6 are one mark");
    assert.deepEqual(problems, []);
  }
});

test("#41.6-7 and .14: retired facts have no score in the table, and the prose's two orders of the writes and Consolidate do what it says", async () => {
  const { page, problems } = await openPage({ reducedMotion: "reduce" });
  const prose = await pageText(page);
  assert.match(prose, /Fire both writes at t = 6 and then Consolidate, and the \$200\.00 order is already evicted/);
  assert.match(prose, /Fire the refund write at t = 6, Consolidate at t = 7 and the Globex write at t = 8, and the order becomes a source/);
  const widget = page.locator("memory-forgetting");
  const slider = widget.getByRole("slider", { name: "time" });
  const table = widget.getByRole("table", { name: "The store, ranked by score" });
  const at = async (t) => slider.fill(String(t));
  const fire = (name) => widget.getByRole("group", { name: "write events" }).getByRole("button", { name }).click();
  const distilledFrom = () => table.locator("tbody tr", { hasText: "Dana's order ORD-3300 was refunded" }).locator(".sources").textContent();

  // The order the prose names first: the $200.00 order is evicted before the pass.
  await at(6);
  await fire(/^refund approved/);
  await fire(/^Dana asks about the Globex/);
  await fire("Consolidate");
  await at(8);
  assert.doesNotMatch(await distilledFrom(), /\$200\.00/);
  assert.match(await table.locator("tbody tr", { hasText: "order ORD-3300 was $200.00" }).textContent(), /evicted/);
  // Every retired row shows no score, and says so to a screen reader; active rows show theirs.
  for (const row of await table.locator("tbody tr").all()) {
    const status = await row.locator("td.status").textContent();
    const score = row.locator("td.score .value");
    if (status === "active") assert.match(await score.textContent(), /^\d/);
    else {
      assert.equal(await score.textContent(), "\u2013", status);
      assert.equal(await score.getAttribute("aria-label"), "no score: not ranked");
    }
  }

  // The order the prose suggests: the order is a source, and the Globex question comes too late.
  await widget.getByRole("button", { name: "Start over" }).click();
  await at(6);
  await fire(/^refund approved/);
  await at(7);
  await fire("Consolidate");
  await at(8);
  await fire(/^Dana asks about the Globex/);
  assert.match(await distilledFrom(), /“order ORD-3300 was \$200\.00”/);
  assert.equal(await table.locator("tbody tr", { hasText: "Dana has an open question" }).count(), 0);
  assert.deepEqual(problems, []);
});

test("#41.13 at 390 px a policy's window opens right under the policy that opened it, in view", async () => {
  const { page, problems } = await openPage({ viewport: { width: 390, height: 800 } });
  const widget = page.locator("memory-playground");
  const policies = widget.getByRole("table", { name: /compaction policies, one session/ });
  const names = await policies.locator("tbody .policy-name").allTextContents();
  for (const name of [names[1], names.at(-1)]) {
    const button = widget.getByRole("button", { name, exact: true });
    await button.click();
    const detail = widget.getByRole("region", { name: "the window under the chosen policy" });
    assert.match(await detail.locator("h3").textContent(), new RegExp(`^${name.replace(/[+]/g, "\\+")} at turn 0`));
    // The first window opened loads its losses' code, then draws the rows again: measure after.
    await detail.getByText("Loading\u2026").waitFor({ state: "detached" });
    const [row, box] = await Promise.all([button.locator("xpath=ancestor::tr").boundingBox(), detail.boundingBox()]);
    assert.ok(box.y >= row.y + row.height - 1 && box.y - (row.y + row.height) < 32, `${name}: the window starts ${box.y - row.y - row.height} px under its row`);
    assert.ok(box.y < 800, `${name}: the window is out of view at y = ${box.y}`);
    assert.equal(await widget.evaluate((el) => el.shadowRoot.activeElement?.textContent), name);
    await button.click();
    assert.equal(await detail.count(), 0);
  }
  assert.deepEqual(problems, []);
});
