// The four elements' Custom Elements Manifest and TypeScript types, for the npm package
// (tools/package.mjs, `make dist`):
//
//   node tools/manifest.mjs <outdir>
//
//   custom-elements.json   the manifest (package.json's `customElements`): each element's
//                          attributes, properties, events with their detail, slots, CSS custom
//                          properties and parts, in the module a user imports it from
//   widgets.d.ts           the types, written from that manifest: HTMLElementTagNameMap entries,
//                          an interface per element, its events' detail types
//   compaction.d.ts, ...   each element module's types: the same, re-exported
//
// One source: the JSDoc on the element classes in www/ (`@tagname`, `@attr`, `@prop`, `@fires`,
// `@cssprop`, `@csspart`), read by @custom-elements-manifest/analyzer along with the code it
// describes: `static observedAttributes`, and the properties that widget.js's `define()` mirrors.
// The state in an event's detail is the core's own type (core.d.ts, which the package copies from
// www/pkg/agent_memory_widgets.d.ts: src/wasm/types.rs).
//
// The analyzer (0.11) writes schema 1.0.0; this writes 2.1.0, checked against that version's
// schema.d.ts and CHANGELOG (github.com/webcomponents/custom-elements-manifest at d2f79f0;
// tests/manifest.test.mjs type-checks the output against it). What 2.x changed that applies here:
//   - A custom element declaration is a class plus the CustomElement fields (`customElement:
//     true`, `tagName`, attributes, events, ...). 1.0.0's type left those out (a bug), and in 2.x
//     a mixin may no longer carry them: the mixin (conversation.js) and the base class are folded
//     into each element, whose superclass is then the global HTMLElement.
//   - Module paths point to files the package's users import: compaction.js, ..., and widgets.js.
//   - A field may name its attribute (`attribute`) and say it `reflects` (CustomElementField), and
//     every attribute is listed in `attributes` all the same.
//   - A CSS custom property may have a `syntax` ("<color>"): the analyzer puts a @cssprop's
//     `{type}` in `type`, which no schema has, so it moves there.
//   - New and optional, not used: `deprecated` everywhere, `readonly`, `cssStates`, parameters'
//     `rest`, returns' `summary`.
// The manifest keeps only what a user needs: no methods (the elements' API is attributes,
// properties and events), no private or undocumented fields, no helper functions.

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { create, ts } from "@custom-elements-manifest/analyzer";

const root = resolve(import.meta.dirname, "..");

/** Each element's module (in www/ and in the package) and the tag it defines. */
export const ELEMENTS = {
  "compaction.js": "memory-compaction",
  "forgetting.js": "memory-forgetting",
  "playground.js": "memory-playground",
  "forgetting-playground.js": "memory-forgetting-playground",
};
/** What the elements inherit: the base class, and the mixin of the two compaction elements. */
const SHARED = ["widget.js", "conversation.js"];
/** The full core's types (src/wasm/types.rs), which the package ships as core.d.ts. */
const CORE_TYPES = join(root, "www/pkg/agent_memory_widgets.d.ts");
/** Names in the type texts that are the DOM's, not the core's. */
const GLOBALS = new Set(["CustomEvent"]);

/** The name in a `@prop {type} name - description` tag (its type may hold braces). */
function propName(text) {
  let at = text.search(/\s/);
  if (text.slice(at).trimStart().startsWith("{")) {
    at = text.indexOf("{");
    for (let depth = 0; at < text.length; at++) {
      depth += text[at] === "{" ? 1 : text[at] === "}" ? -1 : 0;
      if (depth === 0) break;
    }
    at += 1;
  }
  return text.slice(at).match(/^\s*\[?([\w$]+)/)[1];
}

/**
 * An analyzer plugin for what it does not know of itself. `define(tag, Class, mirrors)` (widget.js)
 * is read as `customElements.define(tag, Class)` is, and each property in `mirrors`
 * (`{ property: attribute }`) as a field that reflects its attribute. A class's `@prop` tags mark
 * its public fields (`public`, removed again by publicManifest).
 */
const widgetsPlugin = {
  name: "agent-memory-widgets",
  analyzePhase({ node, moduleDoc }) {
    if (ts.isClassDeclaration(node) && node.name) {
      const doc = moduleDoc.declarations.find((declaration) => declaration.name === node.name.text);
      for (const tag of ts.getJSDocTags(node).filter((tag) => ["prop", "property"].includes(tag.tagName.text))) {
        const name = propName(tag.getText());
        doc.members.find((m) => m.name === name && !m.static).public = true;
      }
    }
    if (!ts.isCallExpression(node) || node.expression.getText() !== "define") return;
    const [tag, element, mirrors] = node.arguments;
    const doc = moduleDoc.declarations.find((declaration) => declaration.name === element.text);
    if (doc.tagName !== tag.text) throw new Error(`manifest: ${element.text} is defined as <${tag.text}>, but its @tagname is ${doc.tagName}`);
    moduleDoc.exports.push({ kind: "custom-element-definition", name: tag.text, declaration: { name: element.text } });
    for (const mirror of mirrors.properties) {
      const [name, attribute] = [mirror.name.getText(), mirror.initializer.text];
      const field = doc.members.find((m) => m.name === name && m.public);
      const attr = doc.attributes.find((a) => a.name === attribute);
      if (!field || !attr) throw new Error(`manifest: ${element.text} mirrors ${attribute} as ${name}: give both an @attr and a @prop`);
      Object.assign(field, { attribute, reflects: true });
      attr.fieldName = name;
    }
  },
};

/** `object`'s `keys` that are defined, in that order. */
const pick = (object, keys) => Object.fromEntries(keys.filter((key) => object[key] !== undefined).map((key) => [key, object[key]]));

/** The core's type declarations (its interfaces and type aliases, not its classes), by name. */
function coreTypes() {
  const source = ts.createSourceFile("core.d.ts", readFileSync(CORE_TYPES, "utf8"), ts.ScriptTarget.ES2022, true);
  return new Map(source.statements
    .filter((statement) => ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement))
    .map((statement) => [statement.name.text, statement]));
}

/**
 * The core's declarations of the types `names`, and of those they use in turn, in the core's
 * order and with their comments.
 */
function coreDeclarations(core, names) {
  const needed = new Set();
  const need = (name) => {
    if (needed.has(name) || !core.has(name)) return;
    needed.add(name);
    const visit = (node) => {
      if (ts.isTypeReferenceNode(node)) need(node.typeName.getText());
      ts.forEachChild(node, visit);
    };
    visit(core.get(name));
  };
  names.forEach(need);
  return [...core].filter(([name]) => needed.has(name))
    .map(([, node]) => [...(node.jsDoc ?? []), node].map((part) => part.getText()).join("\n")).join("\n");
}

/** The capitalised names a type text uses (outside string literals), each with where it is. */
const typeNames = (text) => [...text.replace(/"[^"]*"/g, (s) => " ".repeat(s.length)).matchAll(/\b[A-Z]\w*/g)];

/** `type`, with a reference to the core's module for each of the core's types it names. */
function withReferences(type, core) {
  const references = typeNames(type.text).filter((m) => core.has(m[0]))
    .map((m) => ({ name: m[0], module: "core.js", start: m.index, end: m.index + m[0].length }));
  return references.length ? { ...type, references } : type;
}

/** One element's declaration as a user sees it: what it inherits is its own, and only what is public. */
function element(doc, core) {
  const type = (item) => (item.type ? { type: withReferences(item.type, core) } : {});
  const events = doc.events.filter((event) => event.description); // `emit(type, detail)` reads as an event "type"
  for (const event of events) {
    if (!/^CustomEvent<.+>$/s.test(event.type?.text)) throw new Error(`manifest: <${doc.tagName}>'s ${event.name} needs a @fires {CustomEvent<detail>}`);
  }
  for (const attribute of doc.attributes) {
    if (!attribute.description || !attribute.type) throw new Error(`manifest: <${doc.tagName}>'s attribute ${attribute.name} needs an @attr {type}`);
  }
  return {
    kind: "class",
    customElement: true,
    tagName: doc.tagName,
    name: doc.name,
    description: doc.description.replace(/\s*\n\s*/g, " "),
    superclass: { name: "HTMLElement", package: "global:" },
    attributes: doc.attributes.map((a) => ({ ...pick(a, ["name", "description"]), ...type(a), ...pick(a, ["default", "fieldName"]) })),
    members: doc.members.filter((m) => m.public).map((m) => ({
      ...pick(m, ["kind", "name", "description"]), ...type(m), ...pick(m, ["attribute", "reflects"]),
    })),
    events: events.map((e) => ({ ...pick(e, ["name", "description"]), ...type(e) })),
    slots: doc.slots ?? [],
    cssProperties: (doc.cssProperties ?? []).map((p) => ({ ...pick(p, ["name", "description"]), ...(p.type ? { syntax: p.type.text } : {}), ...pick(p, ["default"]) })),
    cssParts: (doc.cssParts ?? []).map((p) => pick(p, ["name", "description"])),
  };
}

/** The analyzer's manifest of www/ cut to the four elements, in the package's modules, as schema 2.1.0. */
export function publicManifest(analyzed, core = coreTypes()) {
  const modules = Object.entries(ELEMENTS).map(([file, tag]) => {
    const module = analyzed.modules.find((m) => m.path === `www/${file}`);
    const doc = module.declarations.find((d) => d.customElement && d.tagName === tag);
    if (!doc) throw new Error(`manifest: www/${file} declares no <${tag}>: its class needs @tagname ${tag}`);
    return {
      kind: "javascript-module",
      path: file,
      description: `Defines <${tag}>.`,
      declarations: [element(doc, core)],
      exports: [{ kind: "custom-element-definition", name: tag, declaration: { name: doc.name } }],
    };
  });
  const loader = {
    kind: "javascript-module",
    path: "widgets.js",
    description: "The loader: defines each element, loading its module and wasm core, once the page holds one.",
    declarations: [],
    exports: modules.map(({ path, declarations: [doc] }) => ({
      kind: "custom-element-definition", name: doc.tagName, declaration: { name: doc.name, module: path },
    })),
  };
  return { schemaVersion: "2.1.0", readme: "README.md", modules: [loader, ...modules] };
}

/** Runs the analyzer over the elements' sources in www/. */
export function analyze() {
  const modules = [...SHARED, ...Object.keys(ELEMENTS)].map((file) =>
    ts.createSourceFile(`www/${file}`, readFileSync(join(root, "www", file), "utf8"), ts.ScriptTarget.ES2022, true));
  return create({ modules, plugins: [widgetsPlugin] });
}

// --- The types, from the manifest ------------------------------------------------------------------

/** Lines of text as a JSDoc comment, indented by `indent`, each wrapped at 100 columns. */
function comment(lines, indent = "") {
  const width = 100 - indent.length - 3;
  const wrap = (line) => {
    const rows = [];
    for (const word of line.split(" ")) {
      if (rows.length && rows.at(-1).length + 1 + word.length <= width) rows[rows.length - 1] += ` ${word}`;
      else rows.push(word);
    }
    return rows.map((row, i) => (i > 0 && line.startsWith("- ") ? `  ${row}` : row));
  };
  const body = lines.map((line) => line.replaceAll("*/", "*\\/")).flatMap(wrap);
  return body.length === 1 ? `${indent}/** ${body[0]} */\n` : `${indent}/**\n${body.map((line) => `${indent} *${line ? ` ${line}` : ""}`).join("\n")}\n${indent} */\n`;
}

const pascal = (name) => name.replace(/^memory-/, "").split("-").map((word) => word[0].toUpperCase() + word.slice(1)).join("");
const detailOf = (event) => event.type.text.match(/^CustomEvent<(.+)>$/s)[1];

/**
 * widgets.d.ts: an interface per element (its properties; its attributes in its comment; its
 * events by name, for typed `addEventListener`), its events' detail types, and the tag names and
 * events in the global maps of TypeScript's DOM types. An event whose detail is the same from
 * every element that fires it has one type, `Memory<Event>Detail`; otherwise each element has
 * its own, `<Element><Event>Detail`, and `Memory<Event>Detail` is their union.
 */
export function typesFromManifest(manifest, core = coreTypes()) {
  const elements = manifest.modules.flatMap((m) => m.declarations).filter((d) => d.customElement);
  const texts = elements.flatMap((d) => [...d.members, ...d.events].map((item) => item.type.text));
  const used = [...new Set(texts.flatMap((text) => typeNames(text).map((m) => m[0])))].filter((name) => !GLOBALS.has(name)).sort();
  const unknown = used.filter((name) => !core.has(name));
  if (unknown.length) throw new Error(`manifest: the types name ${unknown.join(", ")}, which the core's types do not export`);

  // Each event's detail type name, by element, and the declarations of those types.
  const details = new Map(); // event name -> [[element, detail text]]
  for (const d of elements) for (const e of d.events) details.set(e.name, [...(details.get(e.name) ?? []), [d, detailOf(e)]]);
  const detailName = new Map(); // `${tag} ${event}` -> type name
  let detailTypes = "";
  for (const [event, by] of details) {
    const shared = `Memory${pascal(event)}Detail`;
    const firers = by.map(([d]) => `<${d.tagName}>`).join(", ");
    if (new Set(by.map(([, text]) => text)).size === 1) {
      detailTypes += comment([`The \`detail\` of \`${event}\`, from ${firers}.`]) + `export type ${shared} = ${by[0][1]};\n\n`;
      for (const [d] of by) detailName.set(`${d.tagName} ${event}`, shared);
      continue;
    }
    for (const [d, text] of by) {
      const own = `${d.name}${pascal(event)}Detail`;
      detailTypes += comment([`The \`detail\` of \`${event}\` from <${d.tagName}>.`]) + `export type ${own} = ${text};\n\n`;
      detailName.set(`${d.tagName} ${event}`, own);
    }
    detailTypes += comment([`The \`detail\` of \`${event}\`, from any of ${firers}.`]) +
      `export type ${shared} = ${by.map(([d]) => detailName.get(`${d.tagName} ${event}`)).join(" | ")};\n\n`;
  }

  let interfaces = "";
  for (const d of elements) {
    const map = `${d.name}EventMap`;
    const self = `${d.name}Element`;
    interfaces += comment([`The events of <${d.tagName}>, by name: each bubbles out of its shadow root.`]) +
      `export interface ${map} extends HTMLElementEventMap {\n` +
      d.events.map((e) => comment([e.description], "  ") + `  "${e.name}": CustomEvent<${detailName.get(`${d.tagName} ${e.name}`)}>;\n`).join("") + "}\n\n";
    const attributes = d.attributes.map((a) =>
      `- \`${a.name}\`${a.type ? ` (${a.type.text}${a.default === undefined ? "" : `, default ${a.default}`})` : ""}: ${a.description}`);
    interfaces += comment([`\`<${d.tagName}>\`: ${d.description}`, "", "Attributes:", ...attributes]) +
      `export interface ${self} extends HTMLElement {\n` +
      d.members.map((m) => comment([m.description], "  ") +
        `  ${m.name}: ${m.type.text};\n`).join("") +
      `  addEventListener<K extends keyof ${map}>(type: K, listener: (this: ${self}, event: ${map}[K]) => any, options?: boolean | AddEventListenerOptions): void;\n` +
      "  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;\n" +
      `  removeEventListener<K extends keyof ${map}>(type: K, listener: (this: ${self}, event: ${map}[K]) => any, options?: boolean | EventListenerOptions): void;\n` +
      "  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;\n" +
      "}\n\n";
  }

  return [
    "// The types of agent-memory-widgets' custom elements, written by tools/manifest.mjs from",
    "// custom-elements.json: do not edit.",
    "",
    "// The states in the events' details: the core's types (core.d.ts), copied so that these stand",
    "// alone (the core's classes need TypeScript's esnext.disposable library).",
    coreDeclarations(core, used),
    "",
    detailTypes + interfaces + "declare global {",
    "  interface HTMLElementTagNameMap {",
    ...elements.map((d) => `    "${d.tagName}": ${d.name}Element;`),
    "  }",
    comment(["The elements' events bubble out of their shadow roots (`composed`): any element, the document or the window hears them."], "  ").trimEnd(),
    "  interface GlobalEventHandlersEventMap {",
    ...[...details.keys()].map((event) => `    "${event}": CustomEvent<Memory${pascal(event)}Detail>;`),
    "  }",
    "}",
    "",
  ].join("\n");
}

/** `<outdir>/<module>.d.ts` for an element's module: the package's types. */
const moduleTypes = (file, tag) => [
  `// The types of agent-memory-widgets' ${file}, which defines <${tag}>: the package's`,
  "// types (widgets.d.ts). Written by tools/manifest.mjs: do not edit.",
  "",
  'export * from "./widgets.js";',
  "",
].join("\n");

function main() {
  const out = process.argv[2];
  if (!out) throw new Error("usage: node tools/manifest.mjs <outdir>");
  mkdirSync(out, { recursive: true });
  const core = coreTypes();
  const manifest = publicManifest(analyze(), core);
  writeFileSync(join(out, "custom-elements.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(out, "widgets.d.ts"), typesFromManifest(manifest, core));
  for (const [file, tag] of Object.entries(ELEMENTS)) writeFileSync(join(out, file.replace(/\.js$/, ".d.ts")), moduleTypes(file, tag));
  console.log(`manifest: custom-elements.json and the types of ${Object.values(ELEMENTS).map((tag) => `<${tag}>`).join(", ")} in ${out}`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
