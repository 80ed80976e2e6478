// The TypeScript compiler's types of the values a sample of a package's API holds, as JSON,
// for bench/member_types_conformance.py and tests/test_member_types_conformance.py.
//
//   node ts_member_types_oracle.js <folder holding typescript> <project root> <entry file>...
//
// (the command line, the programs over the entry files and the exports read are
// ts_oracle_prelude.js's)
//
// For every export of each entry file that is a value, the callables a sample may call:
// the export itself (`f(...)`, `new C(...)`), its methods (`f.m(...)`), a class's instance
// methods (`new C().m(...)`) and the methods of what a call of it returns
// (`const made = f(); made.m(...)`). For each it writes probe samples of three kinds:
//
//   callback  a parameter of a function handed to it (`made.get(x, (p0, p1) => { p1; })`,
//             TypeScript's contextual typing);
//   returned  the value it returns (`const value = f(x);`), and `awaited` where that is a
//             promise-like (`const value = await f(x);`);
//   chain     one step from either (`p1.server`, `value.request`, `value.address()`).
//
// The samples are compiled in one file beside the entries and the compiler types each
// probe: `any`, `unknown`, `error` (unresolved), `primitive` or a callable with no members
// are excluded with that reason; an object type gets its members (for a union: those every
// member declares, the ones a sample may use; `open` when a member of it is any or has an
// index signature, where any name is valid). The other arguments a probe's call takes are
// written `undefined!` (any type), so the overload the compiler picks is the arity's.
"use strict";

const path = require("path");
const { prelude } = require("./ts_oracle_prelude.js");

const { ts, root, entries, options: OPTIONS, program, propertiesOf, isPublic, eachValueExport,
  print } = prelude(process.argv);
const MAX_PER_EXPORT = 120;
const OBJECT_MEMBERS = new Set([
  "constructor", "toString", "toLocaleString", "valueOf", "hasOwnProperty",
  "isPrototypeOf", "propertyIsEnumerable",
]);

function visible(checker, type) {
  return propertiesOf(checker, type).filter((p) => isPublic(p) && p.getName() !== "prototype");
}

// ---- pass 1: the callables and the probe samples --------------------------------------

const first = program();
const checker1 = first.getTypeChecker();

function required(signature) {
  return signature.getParameters().filter((p) => {
    const d = p.valueDeclaration;
    return d && ts.isParameter(d) && !d.questionToken && !d.initializer && !d.dotDotDotToken;
  }).length;
}

function functionParameters(type) {
  // The parameters of the function types a parameter's type admits (the widest).
  const parts = type.isUnion() ? type.types : [type];
  let most = 0;
  for (const part of parts) {
    for (const s of part.getCallSignatures()) {
      const list = s.getParameters();
      let count = 0;
      for (const p of list) {
        const d = p.valueDeclaration;
        if (d && ts.isParameter(d) && d.dotDotDotToken) break;
        count += 1;
      }
      most = Math.max(most, count);
    }
  }
  return most;
}

const probes = [];
function addProbes(entry, exported, form, member, callee, signatures, location, setup) {
  let made = 0;
  const args = (n) => Array(n).fill("undefined!").join(", ");
  const seen = new Set();
  const fewestOf = Math.min(...signatures.map(required));
  for (const signature of signatures) {
    const fewest = fewestOf;
    const call = `${callee}(${args(fewest)})`;
    const returns = checker1.getReturnTypeOfSignature(signature);
    if (!seen.has("returned") && !(returns.flags & ts.TypeFlags.Void)) {
      seen.add("returned");
      probes.push({ entry, export: exported, form, member, kind: "returned",
        setup: [...setup, `const value = ${call};`], probe: "value" });
      const awaited = checker1.getAwaitedType(returns);
      if (awaited && awaited !== returns) {
        probes.push({ entry, export: exported, form, member, kind: "awaited",
          setup: [...setup, `const value = await ${call};`], probe: "value" });
      }
    }
    const list = signature.getParameters();
    for (let position = 0; position < list.length; position += 1) {
      const d = list[position].valueDeclaration;
      if (d && ts.isParameter(d) && d.dotDotDotToken) break;
      const type = checker1.getNonNullableType(checker1.getTypeOfSymbolAtLocation(list[position], location));
      const count = functionParameters(type);
      for (let index = 0; index < count && made < MAX_PER_EXPORT; index += 1) {
        if (seen.has(`${position}:${index}`)) continue;
        seen.add(`${position}:${index}`);
        const names = Array.from({ length: index + 1 }, (_, i) => `p${i}`);
        const before = position ? args(position) + ", " : "";
        probes.push({ entry, export: exported, form, member, kind: "callback", position, index,
          setup: [...setup, `${callee}(${before}(${names.join(", ")}) => {`], probe: `p${index}`,
          close: "});" });
        made += 1;
      }
    }
  }
}

eachValueExport(first, (entry, name, symbol, type, file) => {
  const local = name === "default" || !/^[A-Za-z_$][\w$]*$/.test(name) ? "imported" : name;
  const calls = type.getCallSignatures();
  addProbes(entry, name, "call", "", local, calls, file, []);
  addProbes(entry, name, "new", "", `new ${local}`, type.getConstructSignatures(), file, []);
  for (const property of visible(checker1, type)) {
    const held = checker1.getTypeOfSymbolAtLocation(property, file);
    addProbes(entry, name, "static", property.getName(), `${local}.${property.getName()}`,
      held.getCallSignatures(), file, []);
  }
  const instances = [];
  if (symbol.flags & ts.SymbolFlags.Class) {
    instances.push(["method", checker1.getDeclaredTypeOfSymbol(symbol),
      `const made = new ${local}(${Array(required(type.getConstructSignatures()[0] || { getParameters: () => [] })).fill("undefined!").join(", ")});`]);
  } else if (calls.length) {
    instances.push(["made", checker1.getReturnTypeOfSignature(calls[0]),
      `const made = ${local}(${Array(Math.min(...calls.map(required))).fill("undefined!").join(", ")});`]);
  }
  for (const [form, instance, setup] of instances) {
    for (const property of visible(checker1, instance)) {
      if (!(property.flags & (ts.SymbolFlags.Method | ts.SymbolFlags.Property))) continue;
      const held = checker1.getTypeOfSymbolAtLocation(property, file);
      addProbes(entry, name, form, property.getName(), `made.${property.getName()}`,
        held.getCallSignatures(), file, [setup]);
    }
  }
});

// ---- pass 2: the compiler types each probe ---------------------------------------------

const probeFile = path.join(root, path.dirname(entries[0]), "__member_types_probe__.ts");
const lines = [];
const imports = new Map();
for (const entry of entries) {
  const relative = "./" + path.relative(path.dirname(probeFile), path.join(root, entry))
    .split(path.sep).join("/").replace(/\.d\.ts$|\.ts$|\.tsx$/, "");
  imports.set(entry, relative);
}
const spans = [];
[...imports.values()].forEach((from, number) => lines.push(`import * as __module${number} from '${from}';`));
const moduleNumber = new Map([...imports.keys()].map((entry, number) => [entry, number]));
probes.forEach((probe, number) => {
  const local = probe.export === "default" || !/^[A-Za-z_$][\w$]*$/.test(probe.export)
    ? "imported" : probe.export;
  const held = `__module${moduleNumber.get(probe.entry)}[${JSON.stringify(probe.export)}]`;
  lines.push(`export async function probe${number}() {`, `const ${local} = ${held};`);
  lines.push(...probe.setup);
  const text = lines.join("\n") + "\n";
  spans.push(text.length);
  lines.push(`${probe.probe};`);
  if (probe.close) lines.push(probe.close);
  lines.push("}");
});
const source = lines.join("\n") + "\n";
const host = ts.createCompilerHost(OPTIONS);
const readFile = host.readFile;
host.readFile = (name) => (path.resolve(name) === probeFile ? source : readFile(name));
const fileExists = host.fileExists;
host.fileExists = (name) => path.resolve(name) === probeFile || fileExists(name);
const getSourceFile = host.getSourceFile;
host.getSourceFile = (name, version, onError, create) =>
  path.resolve(name) === probeFile
    ? ts.createSourceFile(name, source, version, true)
    : getSourceFile(name, version, onError, create);
const second = program([probeFile], host);
const checker = second.getTypeChecker();
const probeSource = second.getSourceFile(probeFile);

function nodeAt(position) {
  let found = null;
  function visit(node) {
    if (node.getStart(probeSource) === position && ts.isExpressionStatement(node)) found = node;
    if (!found && node.pos <= position && position < node.end) ts.forEachChild(node, visit);
  }
  visit(probeSource);
  return found && found.expression;
}

function describe(type) {
  type = checker.getNonNullableType(type);
  if (type.flags & ts.TypeFlags.Any) {
    return { excluded: type.intrinsicName === "error" ? "error" : "any" };
  }
  if (type.flags & ts.TypeFlags.Unknown) return { excluded: "unknown" };
  if (type.flags & ts.TypeFlags.Never) return { excluded: "never" };
  if (type.flags & ts.TypeFlags.TypeParameter) {
    const constraint = checker.getBaseConstraintOfType(type);
    if (!constraint || constraint === type) return { excluded: "a type parameter" };
    return describe(constraint);
  }
  const parts = type.isUnion() ? type.types : [type];
  let open = false;
  for (const part of parts) {
    if (part.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) open = true;
    else if (!(part.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection | ts.TypeFlags.TypeParameter))) {
      return { excluded: "primitive" };
    }
    if (checker.isArrayType(part) || checker.isTupleType(part)) return { excluded: "an array" };
    for (const info of checker.getIndexInfosOfType(part)) {
      if (!(info.keyType.flags & (ts.TypeFlags.Number | ts.TypeFlags.ESSymbol))) open = true;
    }
  }
  const members = visible(checker, type).map((p) => p.getName())
    .filter((n) => !OBJECT_MEMBERS.has(n));
  if (!members.length && !open) {
    const callable = parts.some((p) => p.getCallSignatures().length);
    return { excluded: callable ? "a function" : "no members" };
  }
  const symbol = type.aliasSymbol || type.getSymbol();
  const shown = checker.typeToString(type).slice(0, 80);
  return { members, open, type: shown, declared: symbol ? symbol.getName() : "" };
}

function objectMember(type, name) {
  const property = checker.getPropertyOfType(checker.getNonNullableType(type), name);
  return property;
}

const out = [];
probes.forEach((probe, number) => {
  const node = nodeAt(spans[number]);
  if (!node) return;
  const type = checker.getTypeAtLocation(node);
  const found = describe(type);
  const row = { ...probe, ...found };
  delete row.close;
  row.close = probe.close || "";
  out.push(row);
  if (found.excluded || found.open) return;
  // One step of a chain: the first member holding an object with members, or a method
  // taking no argument (`value.address()`).
  for (const name of found.members) {
    const property = objectMember(type, name);
    if (!property) continue;
    const held = checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(property, node));
    let step = `${probe.probe}.${name}`;
    let stepType = held;
    const signatures = held.getCallSignatures();
    if (signatures.length) {
      if (signatures.some((s) => required(s) > 0)) continue;
      step = `${step}()`;
      stepType = checker.getNonNullableType(checker.getReturnTypeOfSignature(signatures[0]));
    }
    const inner = describe(stepType);
    if (inner.excluded) continue;
    out.push({ ...probe, kind: `${probe.kind} chain`, probe: step, close: probe.close || "", ...inner });
    break;
  }
});
print(out);
