// The README's screenshots: `node tools/screenshots.mjs` (after `make build`) writes docs/*.png
// from the page served on 127.0.0.1, at a desktop width and at a phone's.
//
//   docs/compaction.png     after turn 10, 1280 px wide
//   docs/forgetting.png     t = 6 after both writes
//   docs/consolidation.png  after the consolidation pass at t = 8, the arithmetic shown
//   docs/phone.png          the compaction widget after turn 4, 390 px wide: a phone
//   docs/phone-forgetting.png  the store at t = 6 after the Globex question, on the same phone
//   docs/playground.png     the compaction playground at turn 6, Codex's window opened
//   docs/forgetting-playground.png  the forgetting playground at t = 120 of the forty tickets
//   docs/imported.png       the compaction playground replaying examples/chat.json (a chat API's
//                           messages, imported) at turn 8
//   docs/airline.png        the playground on tau-bench's airline session at compact at 60%, turn 13,
//                           Letta's window opened with what its last compaction took
//   docs/phone-own.png      a phone: a turn typed into the compaction widget after the refund desk
//   docs/phone-guided.png   a phone: guided mode's verdict at t = 6 and its next question

import { join } from "node:path";
import { readFile } from "node:fs/promises";
import { ROOT, serve, launch } from "../tests/e2e/harness.mjs";

const server = await serve();
const browser = await launch();
const shot = (locator, name) => locator.screenshot({ path: join(ROOT, "docs", `${name}.png`) });

async function open(width) {
  const context = await browser.newContext({ viewport: { width, height: 900 }, reducedMotion: "reduce", colorScheme: "light" });
  const page = await context.newPage();
  await page.goto(server.url);
  await page.locator("memory-forgetting tbody tr").first().waitFor();
  return { page, context };
}

try {
  const { page, context } = await open(1280);
  const compaction = page.locator("memory-compaction");
  for (let i = 0; i < 10; i++) await compaction.getByRole("button", { name: "Add next turn" }).click();
  await shot(compaction, "compaction");
  const store = page.locator("memory-forgetting");
  await store.getByRole("slider", { name: "time" }).fill("6");
  await store.getByRole("button", { name: "refund approved: $180.00" }).click();
  await store.getByRole("button", { name: "Dana asks about the Globex earbuds warranty" }).click();
  await store.locator("figure").evaluate((figure) => { figure.hidden = true; }); // the store alone
  await shot(store, "forgetting");
  await store.locator("figure").evaluate((figure) => { figure.hidden = false; });
  await store.getByRole("slider", { name: "time" }).fill("8");
  await store.getByRole("button", { name: "Consolidate" }).click();
  await store.getByRole("checkbox", { name: "Show the arithmetic and the forget forecast" }).check();
  await shot(store, "consolidation");
  const playground = page.locator("memory-playground");
  await playground.getByRole("slider", { name: "turn" }).fill("6");
  await playground.getByRole("button", { name: "Handoff checkpoint" }).click();
  await shot(playground, "playground");
  const comparison = page.locator("memory-forgetting-playground");
  await comparison.getByRole("slider", { name: "point in the stream" }).fill("120");
  await shot(comparison, "forgetting-playground");
  await playground.getByRole("button", { name: "Handoff checkpoint" }).click(); // closes it
  await playground.locator("details.own > summary").click();
  await playground.getByRole("textbox", { name: "Conversation to import" }).fill(await readFile(join(ROOT, "examples/chat.json"), "utf8"));
  await playground.getByRole("button", { name: "Import" }).click();
  await playground.getByRole("slider", { name: "turn" }).fill("8");
  await shot(playground, "imported");
  // The airline session at 60%: Letta's window at turn 13, and what that compaction took.
  await playground.getByText("Knobs", { exact: true }).click();
  await playground.getByRole("combobox", { name: "session" }).selectOption("airline");
  await page.waitForFunction(() => document.querySelector("memory-playground").model?.state().totalTurns === 31);
  const at = playground.getByRole("spinbutton", { name: "compact at %" });
  await at.fill("60");
  await at.blur();
  await playground.getByRole("slider", { name: "turn" }).fill("13");
  await playground.getByRole("button", { name: /Sliding window/ }).click();
  await playground.locator(".losses details").last().locator("summary").click();
  await shot(playground, "airline");
  await context.close();

  const phone = await open(390);
  for (let i = 0; i < 4; i++) await phone.page.getByRole("button", { name: "Add next turn" }).click();
  await phone.page.locator("memory-forgetting").getByRole("slider", { name: "time" }).fill("6");
  await phone.page.getByRole("button", { name: "Dana asks about the Globex earbuds warranty" }).click();
  // The compaction widget's meter and tiers, then the store: what a phone shows first.
  const top = await phone.page.locator("memory-compaction").evaluate((el) => el.getBoundingClientRect().top + scrollY);
  await phone.page.screenshot({ path: join(ROOT, "docs/phone.png"), fullPage: true, clip: { x: 0, y: top - 8, width: 390, height: 1150 } });
  const storeTop = await phone.page.locator("memory-forgetting").evaluate((el) => el.getBoundingClientRect().top + scrollY);
  await phone.page.screenshot({ path: join(ROOT, "docs/phone-forgetting.png"), fullPage: true, clip: { x: 0, y: storeTop - 8, width: 390, height: 1150 } });
  const session = phone.page.locator("memory-compaction");
  await session.locator("details.own > summary").click();
  await session.getByRole("textbox", { name: "Your turn" }).fill("Actually, please send the $180.00 to my store credit instead. Can you do that today?");
  await session.getByRole("combobox", { name: "Speaker" }).selectOption("user");
  await session.getByRole("combobox", { name: "Kind" }).selectOption("question");
  await session.getByRole("button", { name: "Add my turn" }).click();
  await session.screenshot({ path: join(ROOT, "docs/phone-own.png") });
  await phone.context.close();

  // Guided mode on a phone: the forgetting widget's verdict on t = 6, and its next question.
  const guided = await open(390);
  const guide = guided.page.locator("memory-forgetting").getByRole("group", { name: "Predict, then see" });
  await guide.getByRole("button", { name: "the user is Dana" }).click();
  await guide.getByText(/Which fact will it evict/).waitFor();
  await guide.screenshot({ path: join(ROOT, "docs/phone-guided.png") });
  await guided.context.close();
  console.log("docs/phone-guided.png");
  console.log("docs/compaction.png docs/forgetting.png docs/consolidation.png docs/playground.png docs/forgetting-playground.png docs/phone.png docs/phone-forgetting.png docs/imported.png docs/airline.png docs/phone-own.png");
} finally {
  await browser.close();
  await server.close();
}
