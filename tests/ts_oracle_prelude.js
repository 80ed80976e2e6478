// What the TypeScript oracles over a package's exports share (ts_option_keys_oracle.js,
// ts_member_types_oracle.js): their command line, TypeScript loaded from the folder given,
// the compiler options a program over the package's entry files is built with, and the
// symbols and properties both read.
//
//   node <oracle>.js <folder holding typescript> <project root> <entry file>...
//
// The project root is a checkout of the package's source with its installed dependencies
// linked as node_modules (their @types/node read when installed).
"use strict";

const fs = require("fs");
const path = require("path");

function prelude(argv) {
  const [tsFolder, given, ...entries] = argv.slice(2);
  const root = path.resolve(given);
  const ts = require(path.join(tsFolder, "typescript"));
  const hasNodeTypes = fs.existsSync(path.join(root, "node_modules", "@types", "node"));
  const options = {
    noEmit: true,
    skipLibCheck: true,
    strict: true,
    allowJs: true,
    checkJs: false,
    esModuleInterop: true,
    resolveJsonModule: true,
    allowImportingTsExtensions: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
    types: hasNodeTypes ? ["node"] : [],
    // Where `types` is looked up: the project's own, never the caller's working folder.
    typeRoots: [path.join(root, "node_modules", "@types")],
  };
  const files = entries.map((entry) => path.join(root, entry));

  // A program over the entry files (and any more given), with the options above.
  function program(more = [], host = undefined) {
    return ts.createProgram([...files, ...more], options, host);
  }

  // The properties of a type a sample may name: no well-known symbols, no #private names.
  function propertiesOf(checker, type) {
    return checker
      .getPropertiesOfType(type)
      .filter((p) => !p.getName().startsWith("__@") && !p.getName().startsWith("#"));
  }

  function resolved(checker, symbol) {
    return symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  }

  function isPublic(symbol) {
    const declaration = symbol.valueDeclaration || (symbol.declarations || [])[0];
    if (!declaration) return true;
    const flags = ts.getCombinedModifierFlags(declaration);
    return !(flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected));
  }

  // Each export of each entry file that is a value (followed through aliases and
  // re-exports): visit(entry, name, symbol, type, file).
  function eachValueExport(built, visit) {
    const checker = built.getTypeChecker();
    for (const entry of entries) {
      const file = built.getSourceFile(path.join(root, entry));
      const moduleSymbol = file && checker.getSymbolAtLocation(file);
      if (!moduleSymbol) continue;
      for (const exported of checker.getExportsOfModule(moduleSymbol)) {
        const symbol = resolved(checker, exported);
        if (!(symbol.flags & ts.SymbolFlags.Value)) continue;
        const type = checker.getTypeOfSymbolAtLocation(symbol, file);
        visit(entry, exported.getName(), symbol, type, file);
      }
    }
  }

  function print(rows) {
    process.stdout.write(JSON.stringify(rows) + "\n");
  }

  return { ts, root, entries, options, program, propertiesOf, isPublic, eachValueExport, print };
}

module.exports = { prelude };
