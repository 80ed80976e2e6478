// The TypeScript compiler's view of the types outside any product whose members and keys
// pytest_postgates/evidence/known_bases.py tables (JS_BASES, JS_DICTIONARIES, NODE_TYPES),
// as JSON, for tests/test_known_bases_conformance.py.
//
//   node ts_known_types_oracle.js <node_modules folder> <json: {"label": "type expression"}>
//
// The types are read with TypeScript's ES2022 and DOM libraries and @types/node (from the
// node_modules folder), as a Node program that also runs in browsers sees them; a global
// interface both declare (RequestInit) is their merge. Prints {"label": [property names]}:
// every property of the type, inherited ones included; symbol-named ones left out.
"use strict";

const fs = require("fs");
const os = require("os");
const path = require("path");

const [nodeModules, wanted] = process.argv.slice(2);
const ts = require(path.join(nodeModules, "typescript"));
const types = JSON.parse(wanted);

const labels = Object.keys(types);
const lines = [
  'import * as http from "http";',
  'import * as https from "https";',
  'import * as tls from "tls";',
  'import * as events from "events";',
  'import * as url from "url";',
  'import * as stream from "stream";',
  'import * as buffer from "buffer";',
  ...labels.map((label, i) => `export type T${i} = ${types[label]};`),
];
const folder = fs.mkdtempSync(path.join(os.tmpdir(), "known-types-"));
const file = path.join(folder, "probe.ts");
fs.writeFileSync(file, lines.join("\n") + "\n");
const program = ts.createProgram([file], {
  noEmit: true,
  skipLibCheck: true,
  strict: true,
  target: ts.ScriptTarget.ES2022,
  lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
  types: ["node"],
  typeRoots: [path.join(nodeModules, "@types")],
  module: ts.ModuleKind.CommonJS,
  moduleResolution: ts.ModuleResolutionKind.Node10,
  // The probe sits in a scratch folder: packages (undici-types) resolve from the folder given.
  baseUrl: nodeModules,
  paths: { "*": ["*"] },
});
const problems = ts
  .getPreEmitDiagnostics(program)
  .filter((d) => d.file && d.file.fileName === file)
  .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
if (problems.length) {
  process.stderr.write(problems.join("\n") + "\n");
  process.exit(2);
}
const checker = program.getTypeChecker();
const source = program.getSourceFile(file);
const result = {};
for (const statement of source.statements) {
  if (!ts.isTypeAliasDeclaration(statement)) continue;
  const label = labels[Number(statement.name.text.slice(1))];
  const type = checker.getTypeAtLocation(statement.name);
  result[label] = checker
    .getPropertiesOfType(type)
    .map((p) => p.getName())
    .filter((name) => !name.startsWith("__@"))
    .sort();
}
fs.rmSync(folder, { recursive: true, force: true });
process.stdout.write(JSON.stringify(result) + "\n");
