import { ROOT, serve, launch } from "../tests/e2e/harness.mjs";
const server = await serve(ROOT);
const browser = await launch();
for (const [path, act] of [["tests/e2e/pages/site-compaction.html", "compaction"], ["tests/e2e/pages/site-forgetting.html", "forgetting"]]) {
  const page = await browser.newPage();
  await page.coverage.startJSCoverage({ resetOnNavigation: false });
  await page.goto(server.url + path);
  if (act === "compaction") {
    const add = page.getByRole("button", { name: "Add next turn" });
    for (let i = 0; i < 5; i++) await add.click();
  } else {
    const s = page.getByRole("slider", { name: "time" });
    await s.waitFor();
    await s.fill("6");
  }
  await page.waitForTimeout(500);
  const cov = await page.coverage.stopJSCoverage();
  for (const entry of cov) {
    if (!entry.url.includes("/site/")) continue;
    const text = entry.source ?? "";
    // block coverage: ranges with count 0 (nested) — compute unexecuted bytes
    const used = new Uint8Array(text.length);
    for (const fn of entry.functions) for (const r of fn.ranges) used.fill(r.count > 0 ? 1 : 0, r.startOffset, r.endOffset);
    let unused = 0; for (const u of used) if (!u) unused++;
    console.log(act, entry.url.replace(/.*\/site\//, ""), text.length, "unused", unused);
    if (process.env.DUMP && entry.url.includes(process.env.DUMP)) {
      let out = "", inRun = false;
      for (let i = 0; i < text.length; i++) { if (!used[i]) { if (!inRun) out += "\n<<"; out += text[i]; inRun = true; } else { if (inRun) out += ">>"; inRun = false; } }
      console.log(out.split("\n").filter(l=>l.length>60).join("\n"));
    }
  }
  await page.close();
}
await browser.close(); await server.close();
