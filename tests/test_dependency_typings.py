"""Where another party's API is read from when the product names it (issue 24): a package
that ships scripts only is read from its DefinitelyTyped declarations (`@types/fs-extra`
for `fs-extra`, `@types/babel__core` for `@babel/core`), where TypeScript reads its types
from; its own scripts only when none are installed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_postgates.evidence.dependency_models import DEPENDENCY_PATH_ENV
from pytest_postgates.gates import GateContext
from pytest_postgates.gates import symbol_grounding as gate
from tests.helpers import make_post, make_repo, repo_context, token_outcome

PRODUCT: dict[str, str | bytes] = {
    "package.json": json.dumps(
        {
            "name": "shellkit",
            "main": "src/index.ts",
            "dependencies": {"plainfs": "^11", "@tools/plain": "^1", "bare-js": "^1"},
            # Bundled into the build: what its shipped code imports from it, every
            # install has.
            "devDependencies": {"scopes-js": "^3", "walk-js": "^1"},
        }
    ),
    # The repository's own tooling: nothing of it is published.
    "eslint.config.js": 'import { Walker } from "walk-js";\n\nexport default [Walker];\n',
    "src/scopes.ts": (
        'import { ScopeManager } from "scopes-js";\n\n'
        "export function isModuleExports(manager: ScopeManager): boolean {\n"
        "  return Boolean(manager);\n}\n"
    ),
    "src/index.ts": (
        'import * as fsx from "plainfs";\n\nexport const size = fsx;\n'
        'export { Pen } from "@tools/plain";\n'
    ),
    # Values the product exports typed as another party's API (zx's `fs`, `chalk`).
    "src/vendor.ts": (
        'import * as _fs from "plainfs";\nimport { Sheet } from "@tools/plain";\n'
        'import { wrap } from "./wrap";\n\n'
        'export const files: typeof import("plainfs") = wrap("fs", _fs);\n'
        'export const filesx: typeof _fs = wrap("filesx", _fs);\n'
        'export const sheet: Sheet = wrap("sheet", {});\n'
        "export const own: Local = { size: 1 };\n\n"
        "export interface Local {\n  size: number;\n}\n"
    ),
    # Declaration merging: the product adds a member to another party's interface.
    "src/augment.ts": (
        'declare module "@tools/plain" {\n  interface Sheet {\n    media: string;\n  }\n}\n\n'
        "export {};\n"
    ),
    "src/wrap.ts": "export function wrap<T>(name: string, value: T): T {\n  return value;\n}\n",
}


def _package(root: Path, name: str, files: dict[str, str], manifest: dict[str, Any]) -> None:
    folder = root / "node_modules" / name
    folder.mkdir(parents=True)
    (folder / "package.json").write_text(json.dumps({"name": name, **manifest}))
    for path, text in files.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(text)


def typed_node_modules(root: Path) -> Path:
    """plainfs and @tools/plain ship scripts whose names a static read cannot list, and
    their declarations come from @types; bare-js ships scripts only, with no @types."""
    made = "Object.assign(module.exports, require('./make')());\n"
    _package(root, "plainfs", {"lib/index.js": made}, {"version": "11.3.4", "main": "lib/index.js"})
    _package(
        root,
        "@types/plainfs",
        {"index.d.ts": "export function readJson(file: string): Promise<any>;\n"},
        {"version": "11.0.4", "types": "index.d.ts"},
    )
    _package(root, "@tools/plain", {"index.js": made}, {"version": "1.0.0", "main": "index.js"})
    _package(
        root,
        "@types/tools__plain",
        {
            "index.d.ts": "export declare function transform(code: string): string;\n"
            "export interface Sheet {\n  rules: string[];\n}\n"
            "export declare class Pen {\n  draw(): void;\n}\n"
        },
        {"version": "1.0.1"},
    )
    _package(root, "bare-js", {"index.js": made}, {"version": "1.0.0", "main": "index.js"})
    _package(
        root,
        "scopes-js",
        {"index.d.ts": "export declare class ScopeManager {\n  isModule(): boolean;\n}\n"},
        {"version": "3.0.0", "types": "index.d.ts"},
    )
    _package(
        root,
        "walk-js",
        {"index.d.ts": "export declare class Walker {\n  isModuleScope(): boolean;\n}\n"},
        {"version": "1.0.0", "types": "index.d.ts"},
    )
    return root


@pytest.fixture
def ctx(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GateContext:
    monkeypatch.setenv(DEPENDENCY_PATH_ENV, str(typed_node_modules(tmp_path / "js")))
    repo = make_repo(tmp_path / "repo", PRODUCT)
    return repo_context(repo, tmp_path / "cache", symbol_unanchored_claims=True)


def _outcome(token: str, tmp_path: Path, ctx: GateContext) -> dict[str, Any]:
    card = gate.GATE.evaluate(make_post(f"Call `{token}` here.\n", tmp_path), ctx)
    return token_outcome(card, token)


def test_a_script_package_is_read_from_its_definitely_typed_declarations(
    tmp_path: Path, ctx: GateContext
) -> None:
    entry = _outcome("plainfs.readJson", tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("external", "dependency-found"), entry
    assert "dependency plainfs 11.3.4" in entry["where"], entry
    # A scoped package's declarations are @types/<scope>__<name>'s (index.d.ts by default).
    body = '```ts\nimport { transform } from "@tools/plain";\n```\n\nCall `transform()`.\n'
    card = gate.GATE.evaluate(make_post(body, tmp_path), ctx)
    entry = token_outcome(card, "transform()")
    assert (entry["outcome"], entry["rule"]) == ("external", "dependency-found"), entry


def test_without_declarations_a_script_package_is_not_judged_by_them(
    tmp_path: Path, ctx: GateContext
) -> None:
    # No @types for bare-js: its scripts are read, and what they cannot list is not found.
    entry = _outcome("bare-js.readJson", tmp_path, ctx)
    assert entry.get("rule") != "dependency-found", entry


def test_a_member_of_a_value_typed_as_a_dependencys_api_is_judged_there(
    tmp_path: Path, ctx: GateContext
) -> None:
    """`export const fs: typeof import("fs-extra") = wrap(...)`: the product's `fs` is
    fs-extra's API, so `fs.readJson` is looked up in fs-extra's model (grounded: the
    product exports it), and a member that model lacks is that dependency's to judge,
    never the product's miss."""
    for token in ("files.readJson", "filesx.readJson", "sheet.rules"):
        entry = _outcome(token, tmp_path, ctx)
        assert (entry["outcome"], entry["rule"]) == ("grounded", "dependency-imported"), entry
    entry = _outcome("files.readJson", tmp_path, ctx)
    assert "dependency plainfs 11.3.4" in entry["where"] and "src/vendor.ts" in entry["where"]
    entry = _outcome("files.readJsn", tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("unjudged", "dependency-imported"), entry
    assert "a dependency's API (plainfs)" in entry["reason"], entry
    # A value typed as the product's own type is the product's to judge.
    assert _outcome("own.size", tmp_path, ctx)["rule"] != "dependency-imported"


def test_an_interface_the_product_augments_keeps_the_dependencys_members(
    tmp_path: Path, ctx: GateContext
) -> None:
    """`declare module "dep" { interface Sheet { media: string } }` adds a member to the
    dependency's `Sheet` (as a test runner adds its matchers to an assertion library's
    interface): the product's declaration lists only what it adds, so the others are
    looked up in the dependency's model, and a member neither has is unjudged as the
    dependency's API, never the product's miss."""
    entry = _outcome("Sheet.media", tmp_path, ctx)
    assert entry["outcome"] == "grounded", entry
    entry = _outcome("Sheet.rules", tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("grounded", "dependency-imported"), entry
    assert "dependency @tools/plain 1.0.0" in entry["where"], entry
    entry = _outcome("Sheet.colour", tmp_path, ctx)
    assert entry["outcome"] == "unjudged", entry
    assert "@tools/plain" in entry["reason"], entry


def test_a_member_of_a_name_the_product_reexports_is_the_dependencys(
    tmp_path: Path, ctx: GateContext
) -> None:
    """`export { Pen } from "dep"`: `Pen` is the product's to import, but its members are
    dep's API. Written bare (`Pen.drow`, as a page names what it imports), a member dep's
    model lacks is unjudged with the dependency named, as `shellkit.Pen.drow` is, never
    the product's miss."""
    entry = _outcome("Pen.draw", tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("grounded", "dependency-imported"), entry
    entry = _outcome("Pen.drow", tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("unjudged", "dependency-imported"), entry
    assert "a dependency's API (@tools/plain)" in entry["reason"], entry


def test_a_dependency_bundled_into_the_build_is_one_the_product_builds_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A devDependency the product's shipped code imports is bundled into what it
    publishes (zx and prettier declare every dependency so): a name the model misses that
    it declares (`isModule`, a near miss of the product's `isModuleExports`) is that
    party's, as for a runtime dependency; a name it does not declare stays a finding."""
    monkeypatch.setenv(DEPENDENCY_PATH_ENV, str(typed_node_modules(tmp_path / "js")))
    repo = make_repo(tmp_path / "repo", PRODUCT)
    ctx = repo_context(repo, tmp_path / "cache")
    entry = _outcome("isModule()", tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("unjudged", "dependency-name"), entry
    assert "dependency scopes-js 3.0.0" in entry["reason"], entry
    assert _outcome("isModuleExport()", tmp_path, ctx)["outcome"] == "ungrounded"
    # A devDependency only the repository's tool configuration imports is not bundled.
    entry = _outcome("isModuleScope()", tmp_path, ctx)
    assert entry["outcome"] == "ungrounded", entry
