// The TypeScript compiler's view of one npm package's declaration files, as JSON, for
// tests/test_api_model_typescript_conformance.py (the API model is compared with it).
//
//   node ts_declarations_oracle.js <node_modules folder> <package name>
//
// Prints {"entry": <path>, "files": {<path>: {"exports": [...], "classes": {name:
// [members]}, "functions": {name: [parameters]}, "methods": {"Class.method": [parameters]}}}},
// paths relative to the package's folder;
// only the package's own declaration files (never TypeScript's lib nor another package's).
"use strict";

const fs = require("fs");
const path = require("path");

const [nodeModules, packageName] = process.argv.slice(2);
const ts = require(path.join(nodeModules, "typescript"));
const packageDir = path.join(nodeModules, packageName);
const manifest = JSON.parse(fs.readFileSync(path.join(packageDir, "package.json"), "utf8"));

// The entry declaration file: the exports map's types condition (require first, as a
// CommonJS consumer resolves it), else the "types"/"typings" field.
function typesEntry() {
  const root = manifest.exports && manifest.exports["."];
  if (root && typeof root === "object") {
    for (const condition of [root.require, root, root.import]) {
      if (condition && typeof condition === "object" && typeof condition.types === "string") {
        return condition.types;
      }
    }
  }
  return manifest.types || manifest.typings || "index.d.ts"; // TypeScript's default
}

const entry = path.resolve(packageDir, typesEntry());
const program = ts.createProgram([entry], {
  noEmit: true,
  skipLibCheck: true,
  types: [],
  module: ts.ModuleKind.CommonJS,
  moduleResolution: ts.ModuleResolutionKind.Node10,
  target: ts.ScriptTarget.ES2022,
});
const checker = program.getTypeChecker();

function resolved(symbol) {
  return symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}

function parameterNames(declaration) {
  return declaration.parameters.map((parameter) => parameter.name.getText());
}

// A source file's path relative to the package, or null when it is not the package's.
function path_of(sourceFile) {
  const relative = path.relative(packageDir, sourceFile.fileName).split(path.sep).join("/");
  return relative.startsWith("..") || relative.includes("node_modules/") ? null : relative;
}

const files = {};
for (const sourceFile of program.getSourceFiles()) {
  const relative = path_of(sourceFile);
  if (relative === null) {
    continue;
  }
  const moduleSymbol = checker.getSymbolAtLocation(sourceFile);
  if (!moduleSymbol) {
    continue; // a script, not a module
  }
  const report = { exports: [], classes: {}, functions: {}, methods: {} };
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const name = exported.getName();
    report.exports.push(name);
    const target = resolved(exported);
    if (target.flags & (ts.SymbolFlags.Class | ts.SymbolFlags.Interface)) {
      const declared = checker.getDeclaredTypeOfSymbol(target);
      const properties = checker.getPropertiesOfType(declared);
      report.classes[name] = properties.map((p) => p.getName());
      // Each method's parameters, under the class or interface that declares it (an
      // inherited method under its base), every overload's names together.
      for (const property of properties) {
        for (const declaration of property.declarations || []) {
          const owner = declaration.parent && declaration.parent.name;
          const isMethod = ts.isMethodDeclaration(declaration) || ts.isMethodSignature(declaration);
          const path = owner && path_of(declaration.getSourceFile());
          if (!isMethod || !owner || path === null) {
            continue;
          }
          const key = owner.getText() + "." + property.getName();
          const names = report.methods[key] || (report.methods[key] = []);
          for (const parameter of parameterNames(declaration)) {
            if (!names.includes(parameter)) {
              names.push(parameter);
            }
          }
        }
      }
    }
    if (target.flags & ts.SymbolFlags.Function) {
      const names = [];
      for (const declaration of target.declarations || []) {
        if (ts.isFunctionDeclaration(declaration)) {
          for (const parameter of parameterNames(declaration)) {
            if (!names.includes(parameter)) {
              names.push(parameter);
            }
          }
        }
      }
      report.functions[name] = names;
    }
  }
  report.exports.sort();
  files[relative] = report;
}

const entryRelative = path.relative(packageDir, entry).split(path.sep).join("/");
process.stdout.write(JSON.stringify({ entry: entryRelative, files: files }, null, 1));
