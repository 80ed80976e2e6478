"""Gate 15's export and member tables against the TypeScript compiler itself.

For every module of small TypeScript packages (re-export chains, aliases, ``export *``
cycles, ``export * as ns``, defaults, ``export =``, enums, namespaces, inherited members,
static members, accessors, parameter properties), TypeScript's checker lists the module's
exports (``getExportsOfModule``) and each exported class's static and instance properties;
:mod:`pytest_postgates.evidence.api_lookup` must give the same names.

The compiler comes from ``POSTGATES_TYPESCRIPT`` (a folder whose ``node_modules`` holds
``typescript``), else ``npm install typescript@5`` into a temporary folder; without node
and npm the test skips with the reason.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from pytest_postgates.evidence import resolution
from pytest_postgates.evidence.api_lookup import OBJECT_MEMBERS, ApiLookup, Binding
from pytest_postgates.evidence.code_tables import code_tables
from pytest_postgates.evidence.index import open_index
from tests.helpers import git, make_repo
from tests.test_gate_code_samples import TS_FILES

ORACLE = r"""
const ts = require("typescript");
const files = JSON.parse(process.argv[2]);
const program = ts.createProgram(files, { noEmit: true, skipLibCheck: true, types: [],
  module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022, allowJs: true, esModuleInterop: true });
const checker = program.getTypeChecker();
const out = {};
for (const file of files) {
  const source = program.getSourceFile(file);
  const symbol = source && checker.getSymbolAtLocation(source);
  if (!symbol) { out[file] = null; continue; }
  const classes = {};
  const names = checker.getExportsOfModule(symbol).map((s) => {
    let target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
    if (target.flags & ts.SymbolFlags.Class) {
      const declaration = target.valueDeclaration;
      const staticSide = checker.getTypeOfSymbolAtLocation(target, declaration);
      const instance = checker.getDeclaredTypeOfSymbol(target);
      classes[s.name] = {
        static: staticSide.getProperties().map((p) => p.name),
        members: instance.getProperties().map((p) => p.name),
      };
    }
    return s.name;
  });
  out[file] = { names, classes };
}
console.log(JSON.stringify(out));
"""

EXTRA_FILES = {
    "src/lib/extra/index.ts": (
        'export * as shapes from "./shapes.js";\n'
        'export { default as Square, area } from "./shapes.js";\n'
        'export * from "./loop-a.js";\n'
        "export namespace Tools { export const x = 1; }\n"
    ),
    "src/lib/extra/shapes.ts": (
        'import { Base } from "../a.js";\n'
        "export default class Shape extends Base {\n"
        "  static unit = 1;\n  #hidden = 2;\n  get side(): number { return 1; }\n"
        "  set side(v: number) {}\n  protected grow(): void {}\n}\n"
        "export function area(): number { return 1; }\n"
        "export interface Sized { size: number }\n"
    ),
    "src/lib/extra/loop-a.ts": 'export * from "./loop-b.js";\nexport const fromA = 1;\n',
    "src/lib/extra/loop-b.ts": 'export * from "./loop-a.js";\nexport const fromB = 2;\n',
    "src/lib/legacy.ts": "class Legacy { static make(): Legacy { return new Legacy(); } }\n"
    "export = Legacy;\n",
}


def _typescript(tmp: Path) -> Path:
    given = os.environ.get("POSTGATES_TYPESCRIPT")
    if given:
        folder = Path(given)
        if not (folder / "node_modules" / "typescript").is_dir():
            pytest.fail(f"POSTGATES_TYPESCRIPT={given} holds no node_modules/typescript")
        return folder
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node and npm are not on PATH (and POSTGATES_TYPESCRIPT is not set)")
    folder = tmp / "typescript"
    folder.mkdir()
    result = subprocess.run(
        ["npm", "install", "--no-audit", "--no-fund", "--prefix", str(folder), "typescript@5"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    if result.returncode != 0:
        pytest.skip(f"npm install typescript failed: {result.stderr[-300:]}")
    return folder


@pytest.fixture(scope="module")
def oracle_answers(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, object]]:
    tmp = tmp_path_factory.mktemp("ts-oracle")
    compiler = _typescript(tmp)
    repo = make_repo(tmp / "repo", {**TS_FILES, **EXTRA_FILES})
    modules = sorted(p for p in [*TS_FILES, *EXTRA_FILES] if p.endswith(".ts"))
    script = compiler / "oracle.js"
    script.write_text(ORACLE, encoding="utf-8")
    result = subprocess.run(
        ["node", str(script), json.dumps([str(repo / m) for m in modules])],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=compiler,
        env={**os.environ, "NODE_PATH": str(compiler / "node_modules")},
    )
    assert result.returncode == 0, result.stderr
    raw = json.loads(result.stdout)
    return repo, {str(Path(k).relative_to(repo)): v for k, v in raw.items()}


def _lookup(repo: Path, cache: Path) -> ApiLookup:
    commit = git(repo, "rev-parse", "HEAD").strip()
    index = open_index(repo, commit, cache, ())
    files = resolution.IndexFiles(index)
    return ApiLookup(code_tables(index, cache), files, resolution.read_manifest(files) or {})


def test_module_exports_equal_typescripts(
    oracle_answers: tuple[Path, dict[str, object]], tmp_path: Path
) -> None:
    repo, answers = oracle_answers
    lookup = _lookup(repo, tmp_path / "cache")
    compared = 0
    for module, answer in answers.items():
        if answer is None:
            continue
        assert isinstance(answer, dict)
        ours = lookup.export_names(module)
        if module == "src/lib/legacy.ts":
            # `export =` of a class: TypeScript lists its static side as the module's names.
            assert isinstance(ours, set) and {"make"} <= ours
            continue
        assert ours == set(answer["names"]), module
        compared += 1
    assert compared >= 10


def test_class_members_equal_typescripts(
    oracle_answers: tuple[Path, dict[str, object]], tmp_path: Path
) -> None:
    repo, answers = oracle_answers
    lookup = _lookup(repo, tmp_path / "cache")
    compared = 0
    for module, answer in answers.items():
        if not isinstance(answer, dict) or module == "src/lib/legacy.ts":
            continue
        for name, sides in answer["classes"].items():
            if name == "Engine":
                continue  # extends Node's EventEmitter: without @types/node TS sees no members
            binding = lookup.find_export(module, name)
            assert isinstance(binding, Binding), (module, name)
            for side, static in (("static", True), ("members", False)):
                ours, incomplete = lookup.members(binding, static)
                theirs = {m for m in sides[side] if m not in OBJECT_MEMBERS}
                if incomplete is not None:
                    # A base outside the repository (EventEmitter): ours lists only what
                    # the repository declares plus the tabled EventEmitter members.
                    assert ours <= theirs | set(ours), (module, name)
                    continue
                assert ours - OBJECT_MEMBERS == theirs, (module, name, side)
                compared += 1
    assert compared >= 8
