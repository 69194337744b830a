// Your own conversation: a typed turn, an imported chat, a file named by src=, and the exact
// state shared as a link. Headless Chromium, controls found by their accessible names.

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { useBrowser, open, screenshot, axe, ROOT } from "./harness.mjs";

const PAGE = "tests/e2e/pages/own.html";
const WAIT = { timeout: 5000 };
const env = useBrowser(ROOT);

async function openOwn(path = PAGE, options = {}) {
  const opened = await open(env.browser, env.server.url, { bypassCSP: true, ...options });
  await opened.page.goto(env.server.url + path);
  const session = opened.page.locator("memory-compaction");
  const policies = opened.page.locator("memory-playground");
  await session.getByRole("button", { name: "Add next turn" }).waitFor(WAIT);
  await policies.locator(".policies tbody tr").first().waitFor(WAIT);
  return { ...opened, session, policies };
}

/** Every element's `state()`, by id. */
const states = (page) => page.evaluate(() => Object.fromEntries(
  [...document.querySelectorAll("[id]")].filter((el) => el.model).map((el) => [el.id, el.model.state()])));

/** Opens the "Your own conversation" panel of `widget`. */
async function openPanel(widget) {
  const summary = widget.locator("details.own > summary");
  if (!(await widget.locator("details.own").evaluate((el) => el.open))) await summary.click();
}

/** Types one turn into <memory-compaction> and adds it. */
async function typeTurn(session, text, { speaker = "user", kind = "decision", summary = "" } = {}) {
  await session.getByRole("textbox", { name: "Your turn" }).fill(text);
  await session.getByRole("combobox", { name: "Speaker" }).selectOption(speaker);
  await session.getByRole("combobox", { name: "Kind", exact: true }).selectOption(kind);
  await session.getByRole("textbox", { name: "Summary (optional)" }).fill(summary);
  await session.getByRole("button", { name: "Add my turn" }).click();
}

const state = (widget) => widget.evaluate((el) => el.model.state());

test("three typed turns: the third crosses the budget, is compacted, and Step back undoes it", async () => {
  const { page, problems, session } = await openOwn();
  await openPanel(session);
  const words = (n, lead) => `${lead} ${Array(n - 1).fill("word").join(" ")}.`;
  await typeTurn(session, words(15, "First"), { kind: "question" });
  await typeTurn(session, words(15, "Second"), { summary: "my own summary" });
  let now = await state(session);
  assert.equal(now.turn, 2);
  assert.equal(now.tokens, 30);
  assert.deepEqual(now.crossings, []);
  await typeTurn(session, words(15, "Third"), { speaker: "agent" });
  now = await state(session);
  assert.equal(now.turn, 3);
  assert.equal(now.totalTurns, 3);
  assert.deepEqual(now.crossings, [3]);
  assert.equal(now.log[2].peakTokens, 45);
  assert.ok(now.log[2].compacted && now.tokens <= 40, JSON.stringify(now.log[2]));
  assert.deepEqual(now.transcript.map((t) => [t.speaker, t.kind, t.summaryByRule]),
    [["user", "question", true], ["user", "decision", false], ["agent", "decision", true]]);
  // The rule's summary: the first sentence, cut at a word to 12 words, with an ellipsis.
  assert.equal(now.transcript[0].summary, `First ${Array(11).fill("word").join(" ")}\u2026`);
  assert.match(await session.getByRole("status").textContent(), /Turn 3: over budget at 45 tokens, compacted to/);
  assert.match(await session.locator(".log-list li").nth(2).textContent(), /turn 3: 45 \/ 40 over budget \u2192 COMPACT/);
  const transcript = session.getByRole("region", { name: "transcript" });
  assert.match(await transcript.textContent(), /summary by the first-sentence rule: First word/);
  assert.match(await transcript.textContent(), /summary written with the turn: my own summary/);

  await session.getByRole("button", { name: "Step back" }).click();
  now = await state(session);
  assert.equal(now.turn, 2);
  assert.deepEqual(now.crossings, []);
  assert.equal(now.totalTurns, 3, "the typed turn is still there to add again");
  await session.getByRole("button", { name: "Add next turn" }).click();
  assert.deepEqual((await state(session)).crossings, [3]);
  await session.getByRole("button", { name: "Reset" }).click();
  assert.equal((await state(session)).turn, 0);
  assert.equal((await state(session)).totalTurns, 3);

  // Typed after turn 1 of a replay: the turns after it are left out.
  await session.getByRole("button", { name: "Add next turn" }).click();
  await typeTurn(session, "Hello again!", { kind: "chatter" });
  now = await state(session);
  assert.deepEqual(now.transcript.map((t) => t.text), [words(15, "First"), "Hello again!"]);
  assert.equal(now.transcript[1].summary, null);

  // An empty turn is not sent: the form asks for its text.
  await typeTurn(session, "");
  assert.equal(await session.locator("#own-text").evaluate((text) => text.validity.valueMissing), true);
  assert.equal((await state(session)).turn, 2);
  assert.equal(await session.getByRole("alert").isVisible(), false);
  // A blank one is an error in the widget, which keeps working.
  await typeTurn(session, "   ");
  assert.match(await session.getByRole("alert").textContent(), /text \(turn 3\): must be a non-empty text/);
  assert.equal((await state(session)).turn, 2);
  await screenshot(session, "own-typed");
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(problems, []);
});

test("an element moved after its panel opened still plays the reader's turns on the core that takes them", async () => {
  const { problems, session } = await openOwn();
  await openPanel(session);
  await session.getByRole("textbox", { name: "Your turn" }).waitFor(WAIT);
  // Moved: it connects again, keeps the core its panel loaded, and builds anew.
  await session.evaluate((el) => el.parentElement.append(el));
  await session.getByRole("button", { name: "Add next turn" }).waitFor(WAIT);
  await typeTurn(session, "Where is my order ORD-9?", { kind: "question" });
  await session.getByRole("region", { name: "transcript" }).filter({ hasText: "Where is my order ORD-9?" }).waitFor(WAIT);
  const now = await state(session);
  assert.deepEqual([now.turn, now.totalTurns], [1, 1]);
  assert.equal(await session.getByRole("alert").isHidden(), true);
  assert.deepEqual(problems, []);
});

const PLAIN = "Dana: Hi there!\nDana: My order ORD-4410 for $75.00 never arrived. Can you check?\ntool: lookup ORD-4410: lost in transit by Parcelo.\nagent: Parcelo lost it, so I refunded $75.00 as RF-2231.\nIt takes five days.\nDana: Thanks a lot!";

test("an imported conversation, as plain lines or chat JSON: kinds inferred, shown and changeable", async () => {
  const { page, problems, session, policies } = await openOwn();
  await openPanel(session);
  await session.getByRole("textbox", { name: "Conversation to import" }).fill(PLAIN);
  await session.getByRole("button", { name: "Import" }).click();
  let now = await state(session);
  assert.equal(now.turn, 0);
  assert.equal(now.totalTurns, 5);
  assert.match(await session.getByRole("status").textContent(), /^Imported 5 turns from plain lines: 2 chatter, 1 decision, 1 tool output, 1 question\./);
  const kinds = [];
  for (let i = 1; i <= 5; i++) kinds.push(await session.getByRole("combobox", { name: `Kind of turn ${i}` }).inputValue());
  assert.deepEqual(kinds, ["chatter", "question", "tool", "decision", "chatter"]);
  await session.getByRole("button", { name: "Add next turn" }).click();
  await session.getByRole("button", { name: "Add next turn" }).click();
  // Change a kind: the session replays to the same turn with it.
  await session.getByRole("combobox", { name: "Kind of turn 1" }).selectOption("decision");
  now = await state(session);
  assert.equal(now.turn, 2);
  assert.equal(now.transcript[0].kind, "decision");
  assert.equal(now.transcript[0].summary, "Hi there!");
  assert.equal(await session.getByRole("combobox", { name: "Kind of turn 1" }).inputValue(), "decision");

  // The playground replays a chat API's JSON under every policy, the facts its key terms.
  const chat = await (await fetch(`${env.server.url}tests/e2e/pages/chat.json`)).text();
  await openPanel(policies);
  await policies.getByRole("textbox", { name: "Conversation to import" }).fill(chat);
  await policies.getByRole("button", { name: "Import" }).click();
  const played = await state(policies);
  assert.equal(played.totalTurns, 7, "the tool call is a turn, with its arguments");
  assert.equal(played.policies.length, 7);
  // Its facts come from its tool result: the terms the lookup gave that the talk names too.
  assert.deepEqual(played.facts, ["ORD-4410", "$75.00", "Parcelo"]);
  const chatKinds = [];
  for (let i = 1; i <= 7; i++) chatKinds.push(await policies.getByRole("combobox", { name: `Kind of turn ${i}` }).inputValue());
  assert.deepEqual(chatKinds, ["decision", "chatter", "question", "decision", "tool", "decision", "chatter"]);
  assert.match(await policies.getByRole("status").textContent(), /^Imported 7 turns from OpenAI Chat Completions messages: /);
  const header = await policies.getByRole("table", { name: "Facts the window still names" }).locator("thead th").allTextContents();
  assert.deepEqual(header, ["policy", "ORD-4410", "$75.00", "Parcelo"]);
  await policies.getByRole("slider", { name: "turn" }).fill("6");
  assert.equal((await state(policies)).turn, 6);

  // Back to the refund desk.
  await policies.getByRole("button", { name: "Back to the refund desk" }).click();
  assert.equal((await state(policies)).totalTurns, 10);
  assert.equal((await state(policies)).facts[3], "30-day window");

  // Bad input: an error in the widget, which keeps its conversation.
  const paste = session.getByRole("textbox", { name: "Conversation to import" });
  for (const [text, message] of [
    ["no speaker here", /line 1: a conversation starts with a speaker/],
    ["[{\"role\": \"bot\", \"content\": \"hi\"}]", /messages\[0\]\.role: unknown role "bot"/],
    ["[{\"role\": \"user\", \"content\": 7}]", /messages\[0\]\.content: must be a string or a list/],
    ["[{\"role\": oops", /line 1, column 11: this is not JSON: it has a character that does not start a JSON value/],
    ["{\"type\":\"summary\"}\n{\"type\":\"assistant\",\"message\":[]}", /line 2: message: must be an object with a role and content, got an array/],
    ["[oops", /line 1: a conversation starts with a speaker/],
    ["[]", /no turn has any text/],
    ["{\"a\": 1}\n{\"b\": 2}", /a session log needs a line of Claude Code's/],
  ]) {
    await paste.fill(text);
    await session.getByRole("button", { name: "Import" }).click();
    assert.match(await session.getByRole("alert").textContent(), message, text.slice(0, 40));
    assert.equal((await state(session)).totalTurns, 5);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await screenshot(policies, "own-imported");
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(problems, []);
});

test("a log in each agent format, chosen as a file, is read, named and played with its own token counts", async () => {
  const { page, problems, session } = await openOwn();
  await openPanel(session);
  const chooser = session.getByLabel("Or choose a file");
  for (const [file, name, turns, skipped] of [
    ["lines.txt", "plain lines", 5, 0],
    ["openai-chat.json", "OpenAI Chat Completions messages", 10, 0],
    ["anthropic-messages.json", "Anthropic Messages", 10, 0],
    ["claude-code.jsonl", "a Claude Code session \\(JSONL\\)", 7, 2],
    ["codex.jsonl", "a Codex CLI session \\(JSONL\\)", 9, 5],
  ]) {
    await chooser.setInputFiles(join(ROOT, "tests/fixtures/import", file));
    const passed = skipped ? `; ${skipped} other events passed over` : "";
    await page.waitForFunction(([n]) => document.querySelector("memory-compaction").model?.state().totalTurns === n, [turns]);
    assert.match(await session.getByRole("status").textContent(), new RegExp(`^Imported ${turns} turns from ${name}: .*${passed}[.;]`), file);
    // The same turns the page's core gives through the JS API.
    const api = await session.evaluate(async (el, file) => {
      const text = await (await fetch(`/tests/fixtures/import/${file}`)).text();
      return el.core.importConversation(text).turns;
    }, file);
    assert.deepEqual(await session.evaluate((el) => el.conversation), api, file);
  }
  // The Codex session's replies carry the counts of its token_count events.
  await session.getByRole("button", { name: "Add next turn" }).click();
  await session.getByRole("button", { name: "Add next turn" }).click();
  await session.getByRole("button", { name: "Add next turn" }).click();
  assert.equal((await state(session)).hot.at(-1).tokens, 96);
  assert.equal(await session.getByRole("alert").isHidden(), true);
  assert.deepEqual(problems, []);
});

test("the airline session from τ-bench: chosen in either widget, played at its budget, its facts from the tool results, and kept in a link", async () => {
  const { page, problems, session, policies, context } = await openOwn();
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  // The compaction widget: the session knob.
  await session.getByText("Knobs").click();
  await session.getByRole("combobox", { name: "session" }).selectOption("airline");
  await page.waitForFunction(() => document.querySelector("#session").model?.state().totalTurns === 31);
  assert.match(await session.getByRole("status").textContent(), /^session is now airline, τ-bench \(real\)\. Replayed to turn 0: 0 of 250 tokens/);
  await session.getByRole("button", { name: "Add next turn" }).click();
  let now = await state(session);
  assert.equal(now.budget, 250);
  assert.equal(await session.getByRole("spinbutton", { name: "budget" }).inputValue(), "250", "the knob shows the budget in force");
  assert.equal(now.transcript[0].speaker, "system");
  // The playground: the same session, as an attribute.
  await policies.evaluate((el) => el.setAttribute("session", "airline"));
  await page.waitForFunction(() => document.querySelector("#policies").model?.state().totalTurns === 31);
  const played = await state(policies);
  assert.deepEqual(played.facts, ["IFOYYZ", "aarav_ahmed_6699", "Aarav", "Ahmed", "NQNU5R", "MCO", "M20IZO", "JFK"]);
  assert.equal(played.factsFrom, "toolResults");
  assert.match(await policies.locator(".facts-rule").textContent(), /key facts of this conversation's tool results/);
  // The finding the page states: at 60%, Letta's window no longer names IFOYYZ from turn 13.
  await policies.getByText("Knobs", { exact: true }).click();
  const at = policies.getByRole("spinbutton", { name: "compact at %" });
  await at.fill("60");
  await at.blur();
  const letta = policies.getByRole("table", { name: "Facts the window still names" }).getByRole("row", { name: /Sliding window/ });
  const slider = policies.getByRole("slider", { name: "turn" });
  for (const [turn, named] of [[12, "✓ meaning"], [13, "✗ gone"], [24, "✗ gone"], [25, "✓ meaning"]]) {
    await slider.fill(String(turn));
    assert.equal(await letta.getByRole("cell").first().textContent(), named, `turn ${turn}`);
  }
  // Its window, opened, says what each compaction took, in words.
  await slider.fill("13");
  await policies.getByRole("button", { name: /Sliding window/ }).click();
  const step = policies.locator(".losses details").last();
  // #55.11: the upshot names each kind of move as the list under it does.
  assert.equal(await step.locator("summary").textContent(), "Turn 13: 4 turns into a summary; the summary of 4 older turns left; no longer names IFOYYZ, Aarav and Ahmed");
  await step.locator("summary").click();
  assert.deepEqual(await step.getByRole("listitem").allTextContents(),
    ["Into a summary: turns 10, 11, 12 and 13.", "Their summaries left the window too: turns 6, 7, 8 and 9.",
      "The window no longer names IFOYYZ, Aarav and Ahmed."]);
  const losses = (await state(policies)).policies.find((row) => row.info.id === "sliding-window").losses;
  assert.deepEqual(losses.at(-1), { turn: 13, leftVerbatim: [10, 11, 12, 13], summarized: [10, 11, 12, 13], alreadySummarized: [],
    dropped: [], summariesDropped: [6, 7, 8, 9], masked: [], cut: [], factsLost: ["IFOYYZ", "Aarav", "Ahmed"], factsBare: [] });
  await policies.getByRole("button", { name: /Sliding window/ }).click();
  await at.fill("");
  await at.blur();
  await slider.fill("13");
  assert.equal(await letta.getByRole("cell").first().textContent(), "✓ meaning", "at its own trigger");
  // A link carries the choice, not the log: a fresh page loads the session again.
  await session.getByRole("button", { name: "Copy link" }).click();
  const link = session.getByRole("textbox", { name: "Link to this state" });
  await link.waitFor(WAIT);
  const url = await link.inputValue();
  assert.ok(url.length < 1500, `${url.length} characters`);
  const before = await states(page);
  const fresh = await open(env.browser, env.server.url, { bypassCSP: true });
  await fresh.page.goto(url);
  await fresh.page.waitForFunction(() => document.querySelector("#session")?.model?.state().turn === 1 &&
    document.querySelector("#policies")?.model?.state().turn === 13);
  assert.deepEqual(await states(fresh.page), before);
  assert.deepEqual(fresh.problems, []);
  // Back to the refund desk.
  await session.getByRole("combobox", { name: "session" }).selectOption("refund-desk");
  await page.waitForFunction(() => document.querySelector("#session").model?.state().totalTurns === 10);
  now = await state(session);
  assert.equal(now.budget, 40);
  assert.deepEqual(problems, []);
});

test("src= reads a conversation file from the page's origin, and says what is wrong with a bad one", async () => {
  const { page, problems } = await openOwn();
  const add = (src, tag = "memory-playground") => page.evaluate(([src, tag]) => {
    const el = document.createElement(tag);
    el.setAttribute("src", src);
    document.querySelector("main").append(el);
  }, [src, tag]);
  await add("chat.json", "memory-compaction");
  const good = page.locator("memory-compaction").nth(1);
  await good.getByRole("button", { name: "Add next turn" }).waitFor(WAIT);
  await page.waitForFunction(() => document.querySelectorAll("memory-compaction")[1].model?.state().totalTurns === 7);
  await good.getByRole("button", { name: "Add next turn" }).click();
  assert.equal((await state(good)).transcript[0].text, "You are the refund desk of Globex.");

  await add("chat.json");
  const played = page.locator("memory-playground").nth(1);
  await page.waitForFunction(() => document.querySelectorAll("memory-playground")[1].model?.state().totalTurns === 7);
  assert.equal((await state(played)).facts[0], "ORD-4410");

  for (const [src, message] of [
    ["missing.json", /src="missing.json": the file could not be fetched \(HTTP 404\)/],
    ["bad-chat.json", /src="bad-chat.json": line \d+, column \d+: this is not JSON/],
    ["https://example.com/chat.json", /only a file from this page's own origin .* not one from https:\/\/example.com/],
  ]) {
    await add(src, "memory-compaction");
    const widget = page.locator("memory-compaction").last();
    await widget.getByRole("alert").waitFor(WAIT);
    assert.match(await widget.getByRole("alert").textContent(), message);
    // It still works, on the refund desk.
    await widget.getByRole("button", { name: "Add next turn" }).click();
    assert.equal((await state(widget)).turn, 1);
    assert.equal((await state(widget)).totalTurns, 10);
  }
  assert.deepEqual(problems.filter((p) => !/missing\.json/.test(p)), []);
});

test("Copy link: a fresh page opens the exact state, and Back and Forward move between shared states only", async () => {
  const { page, problems, session, policies, context } = await openOwn();
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const historyAtStart = await page.evaluate(() => history.length);
  await openPanel(session);
  await session.getByRole("textbox", { name: "Conversation to import" }).fill(PLAIN);
  await session.getByRole("button", { name: "Import" }).click();
  await session.getByRole("button", { name: "Add next turn" }).click();
  await session.getByRole("button", { name: "Add next turn" }).click();
  await session.getByRole("combobox", { name: "Kind of turn 5" }).selectOption("decision");
  await typeTurn(session, "One more thing: my address changed to 12 Elm Street.");
  await session.getByText("Knobs").click();
  const budget = session.getByRole("spinbutton", { name: "budget" });
  await budget.fill("30");
  await budget.blur();
  assert.equal((await state(session)).budget, 30);
  assert.equal((await state(session)).turn, 3);
  await policies.getByRole("slider", { name: "turn" }).fill("7");
  const store = page.locator("memory-forgetting");
  await store.getByRole("slider", { name: "time" }).fill("5");
  await store.locator(".events button").first().click();
  await store.getByRole("slider", { name: "time" }).fill("9");
  assert.equal(await page.evaluate(() => history.length), historyAtStart, "no history entry for a step or a slider move");
  const before = await states(page);

  await session.getByRole("button", { name: "Copy link" }).click();
  const link = session.getByRole("textbox", { name: "Link to this state" });
  await link.waitFor(WAIT);
  const url = await link.inputValue();
  assert.equal(url, page.url());
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), url);
  for (const id of ["session", "policies", "store"]) assert.match(url, new RegExp(`[#&]${id}=[jz][\\w-]+(&|$)`));
  assert.ok(url.length < 4000, `${url.length} characters`);

  const fresh = await open(env.browser, env.server.url, { bypassCSP: true });
  await fresh.page.goto(url);
  await fresh.page.waitForFunction(() => document.querySelector("#session")?.model?.state().turn === 3 &&
    document.querySelector("#policies")?.model?.state().turn === 7 && document.querySelector("#store")?.model?.state().t === 9);
  assert.deepEqual(await states(fresh.page), before);
  assert.equal(await fresh.page.locator("memory-compaction").getAttribute("budget"), "30");
  assert.deepEqual(fresh.problems, []);

  // Back: the state the page opened with; Forward: the shared state again.
  await page.goBack();
  await page.waitForFunction(() => document.querySelector("#session").model.state().totalTurns === 10);
  const opened = await states(page);
  assert.equal(opened.session.turn, 0);
  assert.equal(opened.session.budget, 40);
  assert.equal(opened.policies.turn, 0);
  await page.goForward();
  await page.waitForFunction(() => document.querySelector("#session").model.state().turn === 3);
  assert.deepEqual(await states(page), before);

  // An anchor in the fragment changes no element.
  await page.evaluate(() => { location.hash = "#why"; });
  await page.waitForTimeout(200);
  assert.deepEqual(await states(page), before);

  // A link that is not ours, or is broken, is an error in the widget, which keeps working.
  const broken = await open(env.browser, env.server.url, { bypassCSP: true });
  await broken.page.goto(`${env.server.url}${PAGE}#session=zAAAA&policies=x`);
  const alert = broken.page.locator("memory-compaction").getByRole("alert");
  await alert.waitFor(WAIT);
  assert.match(await alert.textContent(), /The link's state for #session could not be read/);
  assert.match(await broken.page.locator("memory-playground").getByRole("alert").textContent(), /format is unknown/);
  assert.deepEqual(problems, []);
});

const HOSTILE = `<img src=x onerror="window.pwned=1"><script>window.pwned=2</script>`;

test("hostile text in every field stays text", async () => {
  const { page, problems, session, policies } = await openOwn();
  await openPanel(session);
  await typeTurn(session, `${HOSTILE} ORD-1?`, { summary: HOSTILE });
  await session.getByRole("textbox", { name: "Conversation to import" }).fill(`<b onmouseover=alert(1)>Dana</b>: ${HOSTILE}\nagent: ${HOSTILE}`);
  await session.getByRole("button", { name: "Import" }).click();
  await session.getByRole("button", { name: "Add next turn" }).click();
  await openPanel(policies);
  const chat = JSON.stringify([{ role: "user", content: HOSTILE }, { role: "assistant", content: [{ type: "text", text: `${HOSTILE} RF-${HOSTILE}` }] }]);
  await policies.getByRole("textbox", { name: "Conversation to import" }).fill(chat);
  await policies.getByRole("button", { name: "Import" }).click();
  await policies.getByRole("textbox", { name: "Conversation to import" }).fill(JSON.stringify([{ role: HOSTILE, content: "x" }]));
  await policies.getByRole("button", { name: "Import" }).click();
  assert.match(await policies.getByRole("alert").textContent(), /unknown role "<img src=x/);
  // A hostile link: attributes it may not set, a hostile script and progress.
  const hostileLink = await page.evaluate(async (HOSTILE) => {
    const { packState } = await import("/www/links.js");
    const session = await packState({ a: { budget: "35", onclick: "window.pwned=3" }, c: [{ speaker: HOSTILE, kind: "question", text: HOSTILE, summary: HOSTILE }], p: 1 });
    const store = await packState({ a: { capacity: HOSTILE }, c: null, p: { t: HOSTILE, events: [{ index: HOSTILE, firedAt: 1 }], reads: [], consolidatedAt: null } });
    return `${location.pathname}#session=${session}&store=${store}`;
  }, HOSTILE);
  const other = await open(env.browser, env.server.url, { bypassCSP: true });
  await other.page.goto(env.server.url + hostileLink.slice(1));
  await other.page.waitForFunction(() => document.querySelector("#session")?.model?.state().turn === 1);
  assert.equal(await other.page.locator("#session").getAttribute("onclick"), null);
  assert.match(await other.page.locator("memory-forgetting").getByRole("alert").textContent(), /capacity/);
  for (const p of [page, other.page]) {
    assert.equal(await p.evaluate(() => window.pwned), undefined);
    const injected = await p.evaluate(() => [...document.querySelectorAll("memory-compaction, memory-playground, memory-forgetting")]
      .reduce((n, el) => n + el.shadowRoot.querySelectorAll("img, script").length, 0));
    assert.equal(injected, 0);
  }
  assert.match(await session.getByRole("region", { name: "transcript" }).textContent(), /<img src=x onerror/);
  assert.deepEqual(problems, []);
  assert.deepEqual(other.problems, []);
});

test("a src= file stays out of the link, and a link's state is checked before it is applied", async () => {
  const { page, problems } = await openOwn();
  await page.evaluate(() => {
    const el = document.createElement("memory-compaction");
    el.id = "filed";
    el.setAttribute("src", "chat.json");
    document.querySelector("main").append(el);
  });
  const filed = page.locator("#filed");
  await page.waitForFunction(() => document.querySelector("#filed").model?.state().totalTurns === 7);
  await filed.getByRole("button", { name: "Add next turn" }).click();
  await filed.getByRole("button", { name: "Copy link" }).click();
  const link = filed.getByRole("textbox", { name: "Link to this state" });
  await link.waitFor(WAIT);
  const url = await link.inputValue();
  const packed = url.match(/[#&]filed=([^&]+)/)[1];
  const saved = await page.evaluate(async (packed) => (await import("/www/links.js")).unpackState(packed), packed);
  assert.deepEqual(saved, { a: {}, c: null, p: 1 }, "the file is the page's: only the turn is shared");

  // Opened elsewhere on the page with the same element, the link gives the same state.
  const other = await open(env.browser, env.server.url, { bypassCSP: true });
  await other.page.goto(url);
  await other.page.evaluate(() => {
    const el = document.createElement("memory-compaction");
    el.id = "filed";
    el.setAttribute("src", "chat.json");
    document.querySelector("main").append(el);
  });
  await other.page.waitForFunction(() => document.querySelector("#filed").model?.state().turn === 1);
  assert.deepEqual(await other.page.evaluate(() => document.querySelector("#filed").model.state()), await state(filed));
  assert.match(await other.page.locator("#filed").locator(".settings-note").textContent(), /^With a budget of 40 tokens/);
  assert.doesNotMatch(await other.page.locator("#filed").locator(".settings-note").textContent(), /your conversation/);

  // A progress too long to be one the widget made is refused before anything is replayed, and a
  // state that cannot be applied says so in its event.
  const hostile = await page.evaluate(async () => {
    const { packState } = await import("/www/links.js");
    const reads = Array.from({ length: 20_000 }, () => ({ fact: 1, at: 1 }));
    const store = await packState({ a: {}, c: null, p: { t: 3, events: [], reads, consolidatedAt: null } });
    const session = await packState({ a: { budget: "0" }, c: null, p: 2 });
    return `${location.pathname}#store=${store}&session=${session}`;
  });
  const third = await open(env.browser, env.server.url, { bypassCSP: true });
  await third.page.addInitScript(() => {
    window.linkEvents = [];
    addEventListener("memory-link", (event) => window.linkEvents.push([event.target.id, event.detail.restored]));
  });
  const started = Date.now();
  await third.page.goto(env.server.url + hostile.slice(1));
  const storeAlert = third.page.locator("memory-forgetting").getByRole("alert");
  await storeAlert.waitFor(WAIT);
  assert.match(await storeAlert.textContent(), /could not be read: its progress is not one this widget makes/);
  assert.ok(Date.now() - started < 5000);
  const sessionAlert = third.page.locator("memory-compaction").getByRole("alert");
  await sessionAlert.waitFor(WAIT);
  assert.match(await sessionAlert.textContent(), /could not be applied: budget="0": budget must be a whole number of at least 1, got 0/);
  assert.deepEqual(await third.page.evaluate(() => window.linkEvents), [["session", false]]);
  assert.equal(await third.page.evaluate(() => document.querySelector("#session").model.state().budget), 40);
  assert.deepEqual(problems, []);
  assert.deepEqual(other.problems, []);
  assert.deepEqual(third.problems, []);
});

test("imports read chat exports' timestamps and chat API request bodies", async () => {
  const { problems, session } = await openOwn();
  await openPanel(session);
  const paste = session.getByRole("textbox", { name: "Conversation to import" });
  await paste.fill("[12/03/2024, 10:32] Dana: Hi!\n[12/03/2024, 10:33] agent: See https://example.com/refunds for ORD-7.");
  await session.getByRole("button", { name: "Import" }).click();
  assert.deepEqual((await session.evaluate((el) => el.conversation)).map((t) => [t.speaker, t.kind, t.text]),
    [["Dana", "chatter", "Hi!"], ["agent", "decision", "See https://example.com/refunds for ORD-7."]]);
  await paste.fill(JSON.stringify({ model: "any", messages: [{ role: "user", content: "Where is ORD-7?" }] }));
  await session.getByRole("button", { name: "Import" }).click();
  assert.deepEqual((await session.evaluate((el) => el.conversation)).map((t) => t.kind), ["question"]);
  // Back to the refund desk, and the button goes with it.
  await session.getByRole("button", { name: "Back to the refund desk" }).click();
  assert.equal((await state(session)).totalTurns, 10);
  assert.equal(await session.getByRole("button", { name: "Back to the refund desk" }).count(), 0);
  assert.deepEqual(problems, []);
});
