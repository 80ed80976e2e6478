// The TypeScript compiler's view of the option objects a package's exported callables take,
// as JSON, for bench/option_keys_conformance.py and tests/test_option_keys_conformance.py.
//
//   node ts_option_keys_oracle.js <folder holding typescript> <project root> <entry file>...
//
// The command line, the program over the entry files and the exports read are
// ts_oracle_prelude.js's. For every export of each entry file (followed through aliases
// and re-exports) that is a value: its call signatures (`f(...)`), construct signatures
// (`new C(...)`), the methods of the value (`f.extend(...)`, static methods) and, for a
// class, the public methods of its instances (`new C().m(...)`). For each parameter the
// compiler types as an object with properties it prints the properties (every member of a
// union, over every overload: a key any of them declares is valid) and, for a property
// typed as such an object itself, its properties one level down. A parameter typed any,
// unknown or as an unresolved type is listed as excluded; one whose object has an index
// signature as open (any key valid); types of the standard library (TypeScript's lib,
// @types/node), arrays and functions are no option objects and are left out.
"use strict";

const path = require("path");
const { prelude } = require("./ts_oracle_prelude.js");

const { ts, program: build, propertiesOf: propertiesIn, isPublic, eachValueExport, print } =
  prelude(process.argv);
const program = build();
const checker = program.getTypeChecker();
const MAX_KEYS = 80;

function standard(fileName) {
  const name = fileName.split(path.sep).join("/");
  return name.includes("/typescript/lib/") || name.includes("/@types/node/");
}

function fromStandardLibrary(type) {
  const symbol = type.aliasSymbol || type.getSymbol();
  const declarations = (symbol && symbol.declarations) || [];
  if (!declarations.length) return false;
  return declarations.every((d) => {
    const file = d.getSourceFile();
    return program.isSourceFileDefaultLibrary(file) || standard(file.fileName);
  });
}

function propertiesOf(type) {
  return propertiesIn(checker, type);
}

// {kind: "excluded", why} | {kind: "none"} | {kind: "open"} | {kind: "object", members: [type]}
function classify(type) {
  if (type.flags & ts.TypeFlags.TypeParameter) {
    const constraint = checker.getBaseConstraintOfType(type);
    if (!constraint || constraint === type) return { kind: "excluded", why: "a type parameter" };
    type = constraint;
  }
  type = checker.getNonNullableType(type);
  if (type.flags & ts.TypeFlags.Any) {
    return { kind: "excluded", why: type.intrinsicName === "error" ? "unresolved" : "any" };
  }
  if (type.flags & ts.TypeFlags.Unknown) return { kind: "excluded", why: "unknown" };
  const parts = type.isUnion() ? type.types : [type];
  const members = [];
  let open = false;
  for (const part of parts) {
    if (part.flags & ts.TypeFlags.Any) return { kind: "open" };
    if (!(part.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection))) continue;
    if (checker.isArrayType(part) || checker.isTupleType(part)) continue;
    if (fromStandardLibrary(part)) continue;
    const properties = propertiesOf(part);
    const callable =
      part.getCallSignatures().length > 0 || part.getConstructSignatures().length > 0;
    if (callable && !properties.some((p) => p.getName() !== "prototype")) continue;
    if (callable) continue; // a function with members: no object literal is written for it
    if (checker.getIndexInfosOfType(part).length) open = true;
    members.push(part);
  }
  if (open) return { kind: "open" };
  if (!members.length) return { kind: "none" };
  return { kind: "object", members };
}

// A class's private and protected members are left out: no object literal writes them.
function keysOf(members, location) {
  const keys = new Map(); // name -> [property types]
  for (const member of members) {
    for (const property of propertiesOf(member).filter(isPublic)) {
      const list = keys.get(property.getName()) || [];
      list.push(checker.getTypeOfSymbolAtLocation(property, location));
      keys.set(property.getName(), list);
    }
  }
  return keys;
}

function optionsAt(signatures, position, location) {
  const members = [];
  let excluded = null;
  let open = false;
  for (const signature of signatures) {
    const parameter = signature.getParameters()[position];
    if (!parameter) continue;
    const declaration = parameter.valueDeclaration;
    if (declaration && declaration.dotDotDotToken) continue;
    const found = classify(checker.getTypeOfSymbolAtLocation(parameter, location));
    if (found.kind === "excluded") excluded = excluded || found.why;
    else if (found.kind === "open") open = true;
    else if (found.kind === "object") members.push(...found.members);
  }
  if (open) return { open: true };
  if (!members.length) return excluded ? { excluded } : null;
  const keys = keysOf(members, location);
  if (!keys.size) return null;
  const nested = {};
  const names = [...keys.keys()].sort().slice(0, MAX_KEYS);
  for (const name of names) {
    const inner = [];
    let openInside = false;
    for (const type of keys.get(name)) {
      const found = classify(type);
      if (found.kind === "open" || found.kind === "excluded") openInside = true;
      else if (found.kind === "object") inner.push(...found.members);
    }
    if (openInside || !inner.length) continue;
    const below = [...keysOf(inner, location).keys()].sort().slice(0, MAX_KEYS);
    if (below.length) nested[name] = below;
  }
  return { keys: names, nested, excluded };
}

const out = [];
function add(entry, exported, form, member, signatures, location) {
  const most = Math.max(0, ...signatures.map((s) => s.getParameters().length));
  for (let position = 0; position < most; position += 1) {
    const found = optionsAt(signatures, position, location);
    if (found) out.push({ entry, export: exported, form, member, position, ...found });
  }
}

eachValueExport(program, (entry, name, symbol, type, file) => {
  add(entry, name, "call", "", type.getCallSignatures(), file);
  add(entry, name, "new", "", type.getConstructSignatures(), file);
  for (const property of propertiesOf(type)) {
    if (property.getName() === "prototype" || !isPublic(property)) continue;
    const held = checker.getTypeOfSymbolAtLocation(property, file);
    add(entry, name, "static", property.getName(), held.getCallSignatures(), file);
  }
  if (symbol.flags & ts.SymbolFlags.Class) {
    const instance = checker.getDeclaredTypeOfSymbol(symbol);
    for (const property of propertiesOf(instance)) {
      if (!isPublic(property) || !(property.flags & ts.SymbolFlags.Method)) continue;
      const held = checker.getTypeOfSymbolAtLocation(property, file);
      add(entry, name, "method", property.getName(), held.getCallSignatures(), file);
    }
  }
});
print(out);
