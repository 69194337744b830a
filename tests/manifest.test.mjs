// The Custom Elements Manifest and the TypeScript types that tools/manifest.mjs writes for the npm
// package, checked against what they describe: the schema (2.1.0's own schema.d.ts, in
// tests/fixtures/custom-elements-manifest/), the real elements in headless Chromium (their observed
// attributes, the properties that mirror attributes), the events www/ dispatches and what each
// detail holds, the stylesheet's custom properties and the shadow root's parts; and the types by
// tsc, on a user's code that must check and on code that must not. Needs www/pkg (`make build`).
//
//   node --test tests/manifest.test.mjs

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ts } from "@custom-elements-manifest/analyzer";
import { ROOT, serve, launch, open } from "./e2e/harness.mjs";
import { ELEMENTS } from "../tools/manifest.mjs";

const WWW = join(ROOT, "www");
const TSC = join(ROOT, "node_modules/.bin/tsc");
const TSC_FLAGS = ["--noEmit", "--strict", "--lib", "dom,es2022", "--target", "es2022", "--module", "esnext", "--moduleResolution", "bundler"];

let out, manifest;
before(() => {
  out = mkdtempSync(join(tmpdir(), "amw-manifest-"));
  execFileSync("node", [join(ROOT, "tools/manifest.mjs"), out], { stdio: "pipe" });
  manifest = JSON.parse(readFileSync(join(out, "custom-elements.json"), "utf8"));
});
after(() => rmSync(out, { recursive: true, force: true }));

/** The manifest's element declarations, by tag. */
const elements = () => new Map(manifest.modules.flatMap((m) => m.declarations).filter((d) => d.customElement).map((d) => [d.tagName, d]));

/** Runs tsc on `files` in the output folder: its exit status and what it printed. */
function tsc(files) {
  const run = spawnSync(TSC, [...TSC_FLAGS, ...files], { cwd: out, encoding: "utf8" });
  return { status: run.status, output: run.stdout + run.stderr };
}

test("schema 2.1.0, the four elements, each in the module a user imports", () => {
  assert.match(manifest.schemaVersion, /^2\./);
  assert.deepEqual([...elements().keys()].sort(), Object.values(ELEMENTS).sort());
  // widgets.js defines every element; each element's module defines its own.
  assert.deepEqual(manifest.modules.map((m) => m.path), ["widgets.js", ...Object.keys(ELEMENTS)]);
  for (const module of manifest.modules.slice(1)) {
    const [declaration] = module.declarations;
    assert.equal(declaration.tagName, ELEMENTS[module.path]);
    assert.deepEqual(module.exports, [{ kind: "custom-element-definition", name: declaration.tagName, declaration: { name: declaration.name } }]);
  }
  // 2.1.0's schema.d.ts, strictly (an object literal may hold no property its type does not
  // name), by tsc. `attribute` and `reflects` are CustomElementField's, which 2.x added for a
  // custom element's fields but leaves out of the ClassMember union: they are checked against it.
  copyFileSync(join(ROOT, "tests/fixtures/custom-elements-manifest/schema.d.ts"), join(out, "schema.d.ts"));
  const members = [...elements().values()].flatMap((d) => d.members);
  const plain = JSON.parse(JSON.stringify(manifest, (key, value) => (key === "attribute" || key === "reflects" ? undefined : value)));
  writeFileSync(join(out, "schema-check.ts"), `import type { CustomElementField, Package } from "./schema.js";
export const manifest: Package = ${JSON.stringify(plain, null, 2)};
export const fields: CustomElementField[] = ${JSON.stringify(members, null, 2)};
`);
  const { status, output } = tsc(["schema-check.ts"]);
  assert.equal(status, 0, output);
});

test("attributes and properties: the real elements' observed attributes and mirrored properties", { timeout: 60_000 }, async () => {
  const server = await serve(WWW);
  const browser = await launch();
  try {
    const { page, problems } = await open(browser, server.url);
    // A blank page of www/'s origin, which imports each element's module: no element is connected,
    // so no core loads.
    await page.route(`${server.url}manifest-test.html`, (route) => route.fulfill({ contentType: "text/html", body: "<!doctype html><title>manifest</title>" }));
    await page.goto(`${server.url}manifest-test.html`);
    const real = await page.evaluate(async (elements) => {
      const found = {};
      for (const [file, tag] of Object.entries(elements)) {
        await import(`/${file}`);
        const Element = customElements.get(tag);
        // Every accessor the element has below HTMLElement, and the attribute (if any) that setting it
        // writes and that it reads back.
        const accessors = new Set();
        for (let proto = Element.prototype; proto !== HTMLElement.prototype; proto = Object.getPrototypeOf(proto)) {
          for (const [name, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(proto))) if (descriptor.set) accessors.add(name);
        }
        const mirrors = {};
        for (const name of accessors) {
          const el = document.createElement(tag);
          el[name] = "7";
          const [attribute] = el.getAttributeNames();
          if (attribute === undefined) continue;
          el.removeAttribute(attribute);
          const absent = el[name];
          el.setAttribute(attribute, "8");
          mirrors[name] = { attribute, reads: String(el[name]) === "8" && absent === null };
        }
        found[tag] = { observed: Element.observedAttributes, accessors: [...accessors], mirrors };
      }
      return found;
    }, ELEMENTS);
    const css = readFileSync(join(WWW, "style.css"), "utf8");
    for (const [tag, declaration] of elements()) {
      const { observed, accessors, mirrors } = real[tag];
      const attributes = declaration.attributes.map((a) => a.name);
      for (const name of observed) assert.ok(attributes.includes(name), `<${tag}> observes ${name}, which the manifest leaves out`);
      for (const name of attributes.filter((a) => !observed.includes(a))) {
        assert.ok(css.includes(`:host([${name}=`), `<${tag}>: the manifest's ${name} is neither observed nor read by the stylesheet`);
      }
      // Each property that mirrors an attribute is in the manifest, with that attribute; and each
      // property in the manifest is the element's, mirroring the attribute the manifest says.
      const fields = new Map(declaration.members.map((m) => [m.name, m]));
      for (const [name, { attribute, reads }] of Object.entries(mirrors)) {
        assert.ok(fields.has(name), `<${tag}>'s ${name} mirrors ${attribute}, but the manifest leaves it out`);
        assert.equal(fields.get(name).attribute, attribute, `<${tag}>'s ${name}`);
        assert.ok(reads, `<${tag}>'s ${name} does not read ${attribute} back (null when absent)`);
      }
      for (const [name, field] of fields) {
        assert.ok(accessors.includes(name), `the manifest gives <${tag}> a property ${name} it does not have`);
        assert.equal(field.reflects === true, name in mirrors, `<${tag}>'s ${name}: reflects`);
        if (field.attribute) assert.equal(declaration.attributes.find((a) => a.name === field.attribute)?.fieldName, name);
      }
    }
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
    await server.close();
  }
});

// --- Events, read from www/'s code --------------------------------------------------------------

/** www/'s modules, parsed. */
const sources = new Map(readdirSync(WWW).filter((file) => file.endsWith(".js"))
  .map((file) => [file, ts.createSourceFile(file, readFileSync(join(WWW, file), "utf8"), ts.ScriptTarget.ES2022, true)]));

/** Every node of `source` for which `match` holds. */
function nodes(source, match) {
  const found = [];
  const visit = (node) => {
    if (match(node)) found.push(node);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The modules `file` runs, itself included: what it imports, statically or not, and so on. */
function reachable(file, seen = new Set()) {
  if (seen.has(file) || !sources.has(file)) return seen;
  seen.add(file);
  const specifiers = nodes(sources.get(file), (node) => ts.isStringLiteral(node) && /^\.\/[\w-]+\.js$/.test(node.text) &&
    (ts.isImportDeclaration(node.parent) || ts.isExportDeclaration(node.parent) || node.parent.expression?.kind === ts.SyntaxKind.ImportKeyword));
  for (const specifier of specifiers) reachable(specifier.text.slice(2), seen);
  return seen;
}

/** A call `emit(...)` or `x.emit(...)`. */
const isEmit = (node) => ts.isCallExpression(node) && (node.expression.getText() === "emit" || node.expression.name?.text === "emit");

/** The keys of an object literal or a type literal, sorted, as one string. */
const keys = (members) => members.map((member) => member.name.getText()).sort().join(", ");

/** The key sets a detail type text allows: one per member of its union. */
function detailKeys(text) {
  const type = ts.createSourceFile("detail.ts", `type Detail = ${text.match(/^CustomEvent<(.+)>$/s)[1]};`, ts.ScriptTarget.ES2022, true).statements[0].type;
  return (ts.isUnionTypeNode(type) ? type.types : [type]).map((literal) => keys(literal.members));
}

test("events: every memory-* event an element dispatches is in the manifest, with the detail it has", () => {
  // One way to dispatch: MemoryWidget's emit(type, detail). Any other is for this test to learn.
  const dispatches = [...sources.values()].flatMap((source) => nodes(source, (node) => ts.isNewExpression(node) && node.expression.getText() === "CustomEvent"));
  assert.equal(dispatches.length, 1, "www/ dispatches events other than through emit(): read them here too");
  for (const [tag, declaration] of elements()) {
    const file = Object.keys(ELEMENTS).find((f) => ELEMENTS[f] === tag);
    // What the element's code emits (its module, the base class, links.js, settings.js, ...):
    // each event's name and the keys of each detail it is given.
    const emitted = new Map();
    // guide.js runs only for an element with the `guided` attribute.
    const guided = declaration.attributes.some((a) => a.name === "guided");
    for (const module of [...reachable(file)].filter((m) => m !== "guide.js" || guided)) {
      for (const call of nodes(sources.get(module), isEmit)) {
        const [name, detail] = call.arguments;
        if (module === "widget.js" && name.getText() === "type") continue; // emit itself
        assert.ok(ts.isStringLiteral(name) && ts.isObjectLiteralExpression(detail), `${module}: ${call.getText()} does not name its event and detail`);
        emitted.set(name.text, new Set([...(emitted.get(name.text) ?? []), keys(detail.properties)]));
      }
    }
    const events = new Map(declaration.events.map((event) => [event.name, new Set(detailKeys(event.type.text))]));
    assert.deepEqual([...events.keys()].sort(), [...emitted.keys()].sort(), `<${tag}>'s events`);
    for (const [name, details] of emitted) assert.deepEqual(events.get(name), details, `<${tag}>'s ${name}: the keys of its detail`);
  }
});

test("CSS: the custom properties are the stylesheet's, those read from the page among them; the parts are the shadow root's; no slots", () => {
  const css = readFileSync(join(WWW, "style.css"), "utf8");
  const shadow = css.slice(0, css.indexOf("/* ---- The page around the widgets")); // what the shadow roots get
  const read = new Set([...shadow.matchAll(/var\((--[\w-]+)/g)].map((m) => m[1]));
  const declared = new Set([...shadow.matchAll(/(--[\w-]+)\s*:/g)].map((m) => m[1]));
  const code = [...sources.values()].map((source) => source.text).join("\n");
  const setByCode = new Set([...code.matchAll(/setProperty\("(--[\w-]+)"/g)].map((m) => m[1]));
  const fromPage = [...read].filter((name) => !declared.has(name) && !setByCode.has(name));
  const parts = [...code.matchAll(/\bpart: "([\w-]+)"/g)].map((m) => m[1]);
  assert.ok(parts.length > 0 && !/\bpart="|setAttribute\("part"/.test(code), "parts are set as h()'s attrs.part");
  assert.ok(!/<slot|"slot"/.test(code), "www/ has slots now: document them with @slot");
  for (const [tag, declaration] of elements()) {
    const properties = declaration.cssProperties.map((p) => p.name);
    for (const name of properties) assert.ok(read.has(name), `<${tag}>: the stylesheet never reads ${name}`);
    for (const name of fromPage) assert.ok(properties.includes(name), `<${tag}>: the stylesheet reads ${name} from the page, and the manifest leaves it out`);
    assert.deepEqual(declaration.cssParts.map((p) => p.name).sort(), [...new Set(parts)].sort());
    assert.deepEqual(declaration.slots, []);
  }
});

// --- The types -----------------------------------------------------------------------------------

/** What a TypeScript user writes: every line must check. */
const USER = `import "./widgets.js";
import type { MemoryForgettingElement, MemoryStepDetail } from "./forgetting.js";

document.querySelector("memory-compaction")!.addEventListener("memory-step", (e) => e.detail.state.turn);
document.querySelector("memory-compaction")!.addEventListener("memory-compact", (e) => e.detail.step.tokensAfter);
const compaction = document.createElement("memory-compaction");
compaction.hot = 3;
compaction.scenario = [{ speaker: "Dana", kind: "chatter", text: "Hello again!" }];
const forgetting: MemoryForgettingElement = document.createElement("memory-forgetting");
forgetting.halfLife = 8;
forgetting.capacity = null;
forgetting.scenario = { facts: [{ text: "the user is Dana", importance: 0.4 }] };
forgetting.addEventListener("memory-evict", (e) => e.detail.change.evicted);
forgetting.addEventListener("memory-step", (e) => ("changes" in e.detail ? e.detail.changes.length : e.detail.change?.fact));
const playground = document.createElement("memory-playground");
playground.compactAt = 90;
playground.scenario = { script: [{ speaker: "Dana", kind: "question", text: "Where is ORD-4400?" }] };
playground.addEventListener("memory-step", (e) => e.detail.state.policies.map((row) => row.info.name));
const stream = document.createElement("memory-forgetting-playground");
stream.theme = "dark";
stream.addEventListener("memory-step", (e) => e.detail.state.policies[0]?.hits);
stream.addEventListener("memory-link", (e) => e.detail.restored);
document.addEventListener("memory-error", (e) => e.detail.message.toUpperCase());
addEventListener("memory-step", (e) => {
  const detail: MemoryStepDetail = e.detail;
  return detail.state;
});
`;

/** What the types must refuse, line by line: [code, the error tsc gives]. */
const WRONG = [
  ['const turn: string = document.createElement("memory-compaction").budget;', "TS2322"],
  ['document.createElement("memory-forgetting").budget = 60;', "TS2339"],
  ['document.createElement("memory-forgetting-playground").scenario = {};', "TS2339"],
  ['document.createElement("memory-compaction").theme = "blue";', "TS2322"],
  ['document.createElement("memory-compaction").addEventListener("memory-step", (e) => e.detail.state.facts);', "TS2339"],
  ['document.createElement("memory-forgetting").addEventListener("memory-evict", (e) => e.detail.step);', "TS2339"],
  ['document.createElement("memory-playground").addEventListener("memory-error", (e) => e.detail.restored);', "TS2339"],
];

test("types: a user's TypeScript checks against widgets.d.ts and the element modules' types, and wrong code does not", () => {
  writeFileSync(join(out, "user.ts"), USER);
  const good = tsc(["user.ts"]);
  assert.equal(good.status, 0, good.output);
  writeFileSync(join(out, "wrong.ts"), `import "./widgets.js";\n${WRONG.map(([line]) => line).join("\n")}\n`);
  const { output } = tsc(["wrong.ts"]);
  const errors = [...output.matchAll(/^wrong\.ts\((\d+),\d+\): error (TS\d+)/gm)].map((m) => [Number(m[1]) - 2, m[2]]);
  assert.deepEqual(errors, WRONG.map(([, code], i) => [i, code]), output);
});

test("the package's README names every attribute, property, part, event and CSS custom property of the manifest", () => {
  const readme = readFileSync(join(ROOT, "npm/README.md"), "utf8");
  const names = new Set();
  for (const d of elements().values()) {
    for (const a of d.attributes) names.add(a.name);
    for (const m of d.members) names.add(m.name);
    for (const e of d.events) names.add(e.name);
    for (const p of d.cssProperties ?? []) names.add(p.name);
    for (const p of d.cssParts ?? []) names.add(`::part(${p.name})`);
  }
  const missing = [...names].filter((name) => !readme.includes(`\`${name}\``));
  assert.deepEqual(missing, [], "npm/README.md does not name these");
  // And the page's README's attribute table names every attribute.
  const table = readFileSync(join(ROOT, "README.md"), "utf8").split("## Element attributes")[1].split("\n## ")[0];
  const attributes = [...elements().values()].flatMap((d) => d.attributes.map((a) => a.name));
  assert.deepEqual([...new Set(attributes)].filter((name) => !table.includes(`\`${name}\``)), [], "README.md's attribute table does not name these");
});

test("no snippet writes an attribute equal to the seed's value (which would load the larger core for nothing)", () => {
  // The seed's values: the manifest's defaults, by element and attribute.
  const seed = new Map();
  for (const d of elements().values()) {
    for (const a of d.attributes) if (a.default !== undefined) seed.set(`${d.tagName} ${a.name}`, a.default.replace(/^"|"$/g, ""));
  }
  assert.ok(seed.size > 10, "the manifest gives defaults");
  const files = ["README.md", "npm/README.md", "www/widgets.js", "examples/plain.html", "examples/iframe.html",
    ...readdirSync(join(ROOT, "examples/mdbook/src")).filter((f) => f.endsWith(".md")).map((f) => `examples/mdbook/src/${f}`)];
  const found = [];
  for (const file of files) {
    const text = readFileSync(join(ROOT, file), "utf8");
    for (const [tag, name, attributes = ""] of text.matchAll(/<(memory-[a-z-]+)(\s[^>]*)?>/g)) {
      for (const [, attribute, value] of attributes.matchAll(/([a-z-]+)="([^"]*)"/g)) {
        if (seed.get(`${name} ${attribute}`) === value) found.push(`${file}: ${tag}`);
      }
    }
  }
  assert.deepEqual(found, []);
});
