"""Gate 15 on monorepos (issue 26): a private root whose public packages live in workspaces
(pnpm-workspace.yaml, package.json ``workspaces``, lerna), each resolved through its own
``exports`` (subpaths and conditions) to its source, and build outputs mapped back through
the bundler config's entries."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_postgates.evidence.index import RepoIndex, open_index
from pytest_postgates.evidence.workspaces import (
    primary_package,
    product_packages,
    workspace_folders,
)
from pytest_postgates.gates import code_samples as gate
from pytest_postgates.scorecard import Scorecard
from tests.helpers import git, make_post, make_repo, repo_context

ROOT = {"name": "@tool/tool-monorepo", "private": True, "type": "module"}
TOOL = {
    "name": "tool",
    "type": "module",
    "bin": {"tool": "bin/tool.js"},
    "exports": {
        ".": {"import": {"types": "./dist/index.d.ts", "default": "./dist/index.js"}},
        "./config": {
            "types": "./config.d.ts",
            "require": "./dist/config.cjs",
            "default": "./dist/config.js",
        },
        "./client": {"types": "./client.d.ts"},
    },
}
HELPERS = {"name": "@tool/helpers", "main": "./dist/index.js", "types": "./dist/index.d.ts"}
MONOREPO = {
    "packages/tool/package.json": json.dumps(TOOL),
    # The bundler names the outputs: dist/index.js is built from src/public/index.ts.
    "packages/tool/rollup.config.js": (
        "const entries = {\n"
        "  index: 'src/public/index.ts',\n"
        "  config: path.resolve(dirname, 'src/public/config.ts'),\n"
        "}\n"
        "export default { input: entries }\n"
    ),
    "packages/tool/src/public/index.ts": (
        'export { createServer } from "../server.js";\nexport * from "@tool/helpers";\n'
    ),
    "packages/tool/src/public/config.ts": (
        "export interface UserConfig { root?: string }\n"
        "export function defineConfig(config: UserConfig): UserConfig { return config; }\n"
    ),
    "packages/tool/src/server.ts": (
        "export class Server { listen(): void {} close(): void {} }\n"
        "export function createServer(): Server { return new Server(); }\n"
    ),
    "packages/tool/config.d.ts": 'export * from "./dist/config.js";\n',
    "packages/tool/client.d.ts": "export interface ImportMetaEnv { MODE: string }\n",
    "packages/tool/bin/tool.js": "console.log('tool');\n",
    "packages/helpers/package.json": json.dumps(HELPERS),
    "packages/helpers/src/index.ts": "export function slugify(text: string): string {}\n",
    # A CommonJS workspace package: Node's default import of it is its module.exports.
    "packages/js/package.json": json.dumps({"name": "@tool/js", "main": "./src/index.js"}),
    "packages/js/src/index.js": (
        "module.exports = {\n  meta: { name: 'x' },\n  configs: { all: {} },\n};\n"
    ),
    # A private playground package and a test fixture are not the product.
    "playground/demo/package.json": json.dumps({"name": "demo", "private": True}),
    "packages/tool/__tests__/fixture/package.json": json.dumps({"name": "fixture-pkg"}),
}


def _repo(tmp_path: Path, workspace_files: dict[str, str]) -> Path:
    files: dict[str, str | bytes] = {**MONOREPO, **workspace_files}
    files.setdefault("package.json", json.dumps(ROOT))
    return make_repo(tmp_path / "repo", files)


def _index(tmp_path: Path, workspace_files: dict[str, str]) -> RepoIndex:
    repo = _repo(tmp_path, workspace_files)
    commit = git(repo, "rev-parse", "HEAD").strip()
    return open_index(repo, commit, tmp_path / "cache")


PNPM = {"pnpm-workspace.yaml": "packages:\n  - 'packages/*'\n  - 'playground/**'\n"}
NPM = {"package.json": json.dumps({**ROOT, "workspaces": ["packages/*", "playground/*"]})}
YARN = {"package.json": json.dumps({**ROOT, "workspaces": {"packages": ["packages/*"]}})}
LERNA = {"lerna.json": json.dumps({"version": "1.0.0"})}


@pytest.mark.parametrize("layout", [PNPM, NPM, YARN, LERNA], ids=["pnpm", "npm", "yarn", "lerna"])
def test_workspace_packages_are_the_public_ones_of_the_globs(
    tmp_path: Path, layout: dict[str, str]
) -> None:
    index = _index(tmp_path, layout)
    sites = product_packages(index)
    assert sorted(sites) == ["@tool/helpers", "@tool/js", "tool"]
    assert sites["tool"].folder == "packages/tool"
    primary = primary_package("@tool/tool-monorepo", sites)
    assert primary is not None and primary.name == "tool"


def test_negated_globs_and_double_star(tmp_path: Path) -> None:
    layout = {"pnpm-workspace.yaml": "packages:\n  - 'packages/**'\n  - '!packages/helpers'\n"}
    index = _index(tmp_path, layout)
    assert workspace_folders(index) == [
        "packages/js",
        "packages/tool",
        "packages/tool/__tests__/fixture",
    ]
    # The fixture is test code.
    assert sorted(product_packages(index)) == ["@tool/js", "tool"]


def test_no_workspaces_no_packages_beyond_the_root(tmp_path: Path) -> None:
    index = _index(tmp_path, {})
    assert workspace_folders(index) == []
    assert product_packages(index) == {}  # the root is private


def _card(tmp_path: Path, repo: Path, code: str) -> Scorecard:
    post = make_post(f"Intro.\n\n```typescript\n{code}\n```\n", tmp_path)
    return gate.GATE.evaluate(post, repo_context(repo, tmp_path / "cache"))


@pytest.mark.parametrize("layout", [PNPM, NPM], ids=["pnpm", "npm"])
def test_imports_of_workspace_packages_resolve_to_their_sources(
    tmp_path: Path, layout: dict[str, str]
) -> None:
    repo = _repo(tmp_path, layout)
    card = _card(
        tmp_path,
        repo,
        'import { defineConfig } from "tool/config";\n'
        'import { createServer, slugify } from "tool";\n'
        'import { slugify as s } from "@tool/helpers";\n'
        'import type { ImportMetaEnv } from "tool/client";\n'
        "export default defineConfig({ root: '.' });\n"
        "const server = createServer();\n"
        "server.listen();\n",
    )
    detail = card.detail
    assert detail["violations"] == [], detail
    assert detail["resolved"]["tool/config"] == "packages/tool/src/public/config.ts"
    assert detail["resolved"]["tool"] == "packages/tool/src/public/index.ts"
    assert detail["resolved"]["@tool/helpers"] == "packages/helpers/src/index.ts"
    assert detail["resolved"]["tool/client"] == "packages/tool/client.d.ts"
    assert detail["checked_by_kind"]["export"] == 5, detail["unjudged"]
    assert detail["unjudged"] == []


def test_invented_names_of_workspace_packages_are_found(tmp_path: Path) -> None:
    repo = _repo(tmp_path, PNPM)
    card = _card(
        tmp_path,
        repo,
        'import { defineConfg } from "tool/config";\n'
        'import { createServer } from "tool";\n'
        "createServer().listn();\n",
    )
    found = {(v["kind"], v["name"]) for v in card.detail["violations"]}
    assert ("named_export", "defineConfg") in found
    assert ("member", "createServer().listn") in found or any(
        kind == "member" and name.endswith("listn") for kind, name in found
    )
    assert card.verdict == "FAIL"


def test_without_workspaces_a_private_root_judges_nothing(tmp_path: Path) -> None:
    repo = _repo(tmp_path, {})
    card = _card(tmp_path, repo, 'import { defineConfg } from "tool/config";\n')
    assert card.detail["violations"] == []
    assert card.detail["checked"] == 0


def test_a_default_import_of_a_commonjs_package_is_its_module_exports(tmp_path: Path) -> None:
    repo = _repo(tmp_path, PNPM)
    card = _card(
        tmp_path,
        repo,
        'import js from "@tool/js";\nexport default [js.configs, js.confgs];\n',
    )
    found = [(v["kind"], v["name"]) for v in card.detail["violations"]]
    assert found == [("member", "default.confgs")]  # named as the module exports it
    assert card.detail["resolved"]["@tool/js"] == "packages/js/src/index.js"


def test_an_output_named_by_its_path_in_the_bundler_input_maps_to_its_source(
    tmp_path: Path,
) -> None:
    # Chart.js's layout: rollup's object input keys an output by its path under an output
    # dir of './' ('dist/lib': 'src/index.ts'), so dist/lib.js is built from src/index.ts,
    # no file named lib.ts (the old reading: "its source src/lib.ts does not exist").
    manifest = {
        "name": "lib",
        "type": "module",
        "exports": {".": {"import": "./dist/lib.js", "require": "./dist/lib.cjs"}},
    }
    repo = make_repo(
        tmp_path / "repo",
        {
            "package.json": json.dumps(manifest),
            "rollup.config.js": (
                "export default [{\n"
                "  input: { 'dist/lib': 'src/index.ts', 'dist/helpers': 'src/helpers/index.ts' },\n"
                "  output: { dir: './', entryFileNames: '[name].js' },\n"
                "}]\n"
            ),
            "src/index.ts": "export class Chart { update(): void {} }\n",
            "src/helpers/index.ts": "export function clamp(x: number): number { return x; }\n",
        },
    )
    card = _card(tmp_path, repo, 'import { Chart, Chrt } from "lib";\nnew Chart().update();\n')
    found = [(v["kind"], v["name"]) for v in card.detail["violations"]]
    assert found == [("named_export", "Chrt")], card.detail
    assert card.detail["resolved"]["lib"] == "src/index.ts"


def test_statics_the_product_assigns_on_an_imported_class_are_its_members(
    tmp_path: Path,
) -> None:
    # Chart.js's UMD entry (a rollup input) imports the class and assigns statics on it
    # (`Chart.helpers = {...helpers}`): members added at run time by code the product ships.
    repo = make_repo(
        tmp_path / "repo",
        {
            "package.json": json.dumps({"name": "lib", "type": "module", "main": "src/index.js"}),
            "rollup.config.js": "export default [{ input: 'src/index.umd.js' }]\n",
            "src/index.js": "export { default as Chart } from './core/controller.js';\n",
            "src/core/controller.js": "export default class Chart { update() {} }\n",
            "src/helpers.js": "export function color(c) { return c; }\n",
            "src/index.umd.js": (
                "import Chart from './core/controller.js';\n"
                "import * as helpers from './helpers.js';\n"
                "Chart.helpers = {...helpers};\n"
                "Chart.defaults.font = {};\n"  # a member of a member: not a static of Chart
                "export default Chart;\n"
            ),
        },
    )
    card = _card(
        tmp_path,
        repo,
        'import { Chart } from "lib";\nChart.helpers.color("red");\nChart.helpres;\nChart.font;\n',
    )
    found = [(v["kind"], v["name"]) for v in card.detail["violations"]]
    assert found == [("member", "Chart.helpres")], card.detail
    # `font` is not a static of Chart, but the product's code names it (a member of a
    # member there): listed unjudged, as any member a class's code names (js_types).
    assert any(u["text"].startswith("Chart.font") for u in card.detail["unjudged"]), card.detail
