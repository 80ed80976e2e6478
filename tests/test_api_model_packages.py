"""The API model's view of how a repository is published (evidence/model_packages.py,
and the package layout of model_sources.product_sources), and gate 2's rules that rest on it:
a package.json name is a module with its entry file's names, an empty ``__init__.py`` still
makes a package, a top-level script is no module, a module-rooted miss of a class member
is unjudged, and a name written as the product's past is no claim about it now."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_postgates.evidence.api_model import api_model
from pytest_postgates.gates import GateContext
from pytest_postgates.gates import symbol_grounding as gate
from pytest_postgates.helpers.history_cues import historical
from pytest_postgates.helpers.model_grounding import chain_parts
from tests.helpers import make_post, make_repo, repo_context, token_outcome

INDEX_JS = """
import { clearCache } from "./config.js";
function format(text, options) { return text; }
function resolveConfig(path) { return {}; }
export { clearCache as clearConfigCache, format, resolveConfig };
export * as util from "./util.js";
"""
APP_JS = """
function build(options) {
  const instance = new Instance();
  return instance;
}
class Instance {
  addHook(name, fn) {}
  inject(request) {}
}
module.exports = build;
module.exports.build = build;
"""
JS_FILES = {
    "package.json": json.dumps({"name": "prettyfmt", "exports": {".": "./src/index.js"}}),
    "src/index.js": INDEX_JS,
    "src/config.js": "export function clearCache() {}\n",
    # A namespace the entry re-exports (`export * as util`), itself re-exporting.
    "src/util.js": 'export { addTrailingComment } from "./comments.js";\n',
    "src/comments.js": "export function addTrailingComment() {}\n",
    # A top-level config file is a script, not a module `prettyfmt` with a submodule.
    "prettyfmt.config.js": "export const semi = false;\n",
    "packages/app/package.json": json.dumps({"name": "hookapp", "main": "app.js"}),
    "packages/app/app.js": APP_JS,
    "packages/dist-only/package.json": json.dumps({"name": "builtpkg", "main": "dist/x.js"}),
    "packages/scoped/package.json": json.dumps({"name": "@prettyfmt/cli", "main": "cli.js"}),
    "packages/scoped/cli.js": "export function run() {}\n",
    # JavaScript with hand-written declarations: both files are the package's surface.
    "packages/typed/package.json": json.dumps(
        {"name": "typedpkg", "main": "typed.js", "types": "typed.d.ts"}
    ),
    "packages/typed/typed.js": "function typed() {}\nmodule.exports = { typed };\n",
    "packages/typed/typed.d.ts": (
        "export type RawServerBase = object;\nexport interface RouteOptions { url: string }\n"
        "export declare function typed(): void;\n"
    ),
}
PY_FILES = {
    "pkg/__init__.py": "from .core import run\n",
    "pkg/core.py": "def run() -> None: ...\n",
    "pkg/deprecated/__init__.py": "",  # empty: still a package
    "pkg/deprecated/tools.py": "def parse_obj_as(x: object) -> object:\n    return x\n",
}


@pytest.fixture(scope="module")
def js_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("jsrepo"), JS_FILES)


@pytest.fixture(scope="module")
def py_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("pyrepo"), PY_FILES)


def _resolve(repo: Path, cache: Path, chain: str) -> Any:
    context = repo_context(repo, cache)
    index = context.evidence.index_for(repo / "x.md")
    return api_model(index, cache).resolve(chain_parts(chain) or [chain])


@pytest.mark.parametrize(
    "chain", ["prettyfmt.format", "prettyfmt.resolveConfig", "prettyfmt.clearConfigCache"]
)
def test_a_package_name_is_a_module_with_its_entry_files_names(
    chain: str, js_repo: Path, tmp_path: Path
) -> None:
    resolution = _resolve(js_repo, tmp_path, chain)
    assert resolution.outcome == "found", resolution


def test_a_miss_in_a_package_names_the_nearest_export(js_repo: Path, tmp_path: Path) -> None:
    resolution = _resolve(js_repo, tmp_path, "prettyfmt.formatt")
    assert (resolution.outcome, resolution.owner) == ("missing", "prettyfmt")
    assert "format" in resolution.nearest


def test_a_namespace_the_entry_re_exports_is_a_module_of_the_package(
    js_repo: Path, tmp_path: Path
) -> None:
    # `export * as util from "./util.js"`: `prettyfmt.util` has util.js's names (prettier's
    # `prettier.util.addTrailingComment`), and a miss there names its owner and nearest.
    resolution = _resolve(js_repo, tmp_path, "prettyfmt.util.addTrailingComment")
    assert resolution.outcome == "found", resolution
    resolution = _resolve(js_repo, tmp_path, "prettyfmt.util.addTrailingComent")
    assert (resolution.outcome, resolution.owner) == ("missing", "prettyfmt.util"), resolution
    assert "addTrailingComment" in resolution.nearest


def test_a_package_whose_entry_is_not_in_the_repository_is_unjudged(
    js_repo: Path, tmp_path: Path
) -> None:
    resolution = _resolve(js_repo, tmp_path, "builtpkg.anything")
    assert resolution.outcome == "unjudged"


@pytest.mark.parametrize(
    "chain", ["typedpkg.typed", "typedpkg.RawServerBase", "typedpkg.RouteOptions"]
)
def test_a_package_publishes_its_types_entry_beside_its_main(
    chain: str, js_repo: Path, tmp_path: Path
) -> None:
    resolution = _resolve(js_repo, tmp_path, chain)
    assert resolution.outcome == "found", resolution
    assert _resolve(js_repo, tmp_path, "typedpkg.RawServerBased").outcome == "missing"


def test_a_top_level_script_is_no_module(js_repo: Path, tmp_path: Path) -> None:
    context = repo_context(js_repo, tmp_path)
    model = api_model(context.evidence.index_for(js_repo / "x.md"), tmp_path)
    assert "prettyfmt.config" not in model.modules
    assert model.modules["prettyfmt"] >= {"format", "resolveConfig"}


def test_an_empty_init_still_makes_a_package(py_repo: Path, tmp_path: Path) -> None:
    resolution = _resolve(py_repo, tmp_path, "pkg.deprecated.tools.parse_obj_as")
    assert resolution.outcome == "found", resolution
    missing = _resolve(py_repo, tmp_path, "pkg.deprecated.tools.parse_raw_as")
    assert (missing.outcome, missing.owner) == ("missing", "pkg.deprecated.tools")


def _outcome(body: str, token: str, tmp_path: Path, ctx: GateContext) -> dict[str, Any]:
    return token_outcome(gate.GATE.evaluate(make_post(body, tmp_path), ctx), token)


def test_a_module_rooted_member_of_a_class_is_unjudged(js_repo: Path, tmp_path: Path) -> None:
    ctx = repo_context(js_repo, tmp_path / "cache")
    # `hookapp.addHook`: the package exports a factory; Instance declares the member.
    entry = _outcome("Call `hookapp.addHook` first.\n", "hookapp.addHook", tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("unjudged", "model-module-member")
    assert "Instance" in entry["reason"]
    # A member no product class declares is still a miss.
    entry = _outcome("Call `hookapp.addHoook` first.\n", "hookapp.addHoook", tmp_path, ctx)
    assert entry["outcome"] == "ungrounded"


def test_a_name_written_as_the_past_is_unjudged(py_repo: Path, tmp_path: Path) -> None:
    ctx = repo_context(py_repo, tmp_path / "cache")
    table = (
        "| Version 1 | Version 2 |\n| --- | --- |\n"
        "| `pkg.parse_obj` | `pkg.deprecated.tools.parse_obj_as` |\n"
        "| `pkg.old_run` | `pkg.runn` |\n"
    )
    old = _outcome(table, "pkg.parse_obj", tmp_path, ctx)
    assert (old["outcome"], old["rule"]) == ("unjudged", "historical")
    assert _outcome(table, "pkg.deprecated.tools.parse_obj_as", tmp_path, ctx)["outcome"] == (
        "grounded"
    )
    # The new column is a claim about the product now: a typo there is a finding.
    assert _outcome(table, "pkg.runn", tmp_path, ctx)["outcome"] == "ungrounded"
    sentence = "`pkg.start` was renamed to `pkg.begin`.\n"
    assert _outcome(sentence, "pkg.start", tmp_path, ctx)["rule"] == "historical"
    assert _outcome(sentence, "pkg.begin", tmp_path, ctx)["outcome"] == "ungrounded"


@pytest.mark.parametrize(
    ("sentence", "token", "header", "headers", "past"),
    [
        ("`a.b` -> `a.c`", "a.b", "", [], True),
        ("`a.b` -> `a.c`", "a.c", "", [], False),
        # An arrow to a description defines the name (polars's README lists its variables
        # so), no rename: the new side of a rename is a name too.
        ("`X_MAX_ROW` -> maximum number of rows shown.", "X_MAX_ROW", "", [], False),
        ("The `x` option has been removed.", "x", "", [], True),
        ("`x` is deprecated; use `y` instead.", "y", "", [], False),
        ("`x` is used to configure the client.", "x", "", [], False),
        ("", "x", "Before", ["Before", "After"], True),
        ("", "x", "After", ["Before", "After"], False),
        ("", "x", "Pydantic V1", ["Pydantic V1", "Pydantic V2"], True),
        ("", "x", "Pydantic V2", ["Pydantic V1", "Pydantic V2"], False),
        ("", "x", "Name", ["Name", "Description"], False),
        ("Update deprecated `FlatESLint` and `Legacy` usage.", "Legacy", "", [], True),
        ("The `result_type` and `x` arguments were removed in 1.0.", "x", "", [], True),
        # A release note's imperative (starlette's "Rename `max_file_size` to `spool_max_size`"):
        # the old side is the past, the new one a claim.
        ("`Parser`: Rename `max_file_size` to `spool_max_size`.", "max_file_size", "", [], True),
        ("`Parser`: Rename `max_file_size` to `spool_max_size`.", "spool_max_size", "", [], False),
        ("Deprecate `old_hook` in favour of `on_event`.", "old_hook", "", [], True),
        # jest's upgrade guide: what the reader "was using" is the old API; its replacement
        # after "update to" is a claim.
        (
            "If you were using `jest.SpyInstance` (to annotate it), update to `jest.Spied`.",
            "jest.SpyInstance",
            "",
            [],
            True,
        ),
        (
            "If you were using `jest.SpyInstance` (to annotate it), update to `jest.Spied`.",
            "jest.Spied",
            "",
            [],
            False,
        ),
        # A cue about something else, in another clause: the temp folder is removed.
        (
            "Kept in a temp folder removed on `exit` — `ensureAdc` in `auth.ts`.",
            "ensureAdc",
            "",
            [],
            False,
        ),
        (
            "It was removed long ago, and now `client.run_sync` does the work for you.",
            "client.run_sync",
            "",
            [],
            False,
        ),
    ],
)
def test_history_cues(
    sentence: str, token: str, header: str, headers: list[str], past: bool
) -> None:
    offset = sentence.find(token)
    assert bool(historical(sentence, offset, token, header, headers)) is past


@pytest.mark.parametrize(
    ("sentence", "token", "section", "past"),
    [
        # The heading itself, and a sentence of its section that names no present.
        ("Removes `getDefaultRoute` and `setDefaultRoute` methods", "setDefaultRoute", "", True),
        ("If you import `FileEnumerator` through `/lib`:", "FileEnumerator",
         "The `/lib` entrypoint has been removed", True),
        # The section's replacement is a claim about the product now.
        ("It's now possible to add them back using the `addHttpMethod` method.",
         "addHttpMethod", "Removal of some non-standard HTTP methods", False),
        ("Renamed `start` to `begin`", "begin", "", False),
        ("Call `run` to start.", "run", "Running a server", False),
    ],
)  # fmt: skip
def test_a_section_about_what_is_gone(sentence: str, token: str, section: str, past: bool) -> None:
    offset = sentence.find(token)
    heading = section or sentence  # a token in a heading: its own section
    assert bool(historical(sentence, offset, token, "", [], heading)) is past


def test_a_name_in_a_removal_section_is_unjudged(py_repo: Path, tmp_path: Path) -> None:
    ctx = repo_context(py_repo, tmp_path / "cache")
    body = (
        "# Guide\n\n## `pkg.old_run` has been removed\n\nIf you call `pkg.old_stop` directly:\n"
        "\n## Running\n\nCall `pkg.old_go` to start.\n"
    )
    card = gate.GATE.evaluate(make_post(body, tmp_path), ctx)
    unjudged = {e["token"]: e.get("rule") for e in card.detail["outcomes"]["unjudged"]}
    assert unjudged == {"pkg.old_run": "historical", "pkg.old_stop": "historical"}
    # Under another heading a missing name is a claim, and a miss.
    assert [u["token"] for u in card.detail["ungrounded"]] == ["pkg.old_go"]


def test_historical_turned_off_leaves_the_old_name_a_claim(py_repo: Path, tmp_path: Path) -> None:
    ctx = repo_context(py_repo, tmp_path / "cache", symbol_rules_off=("historical",))
    sentence = "`pkg.start` was renamed to `pkg.begin`.\n"
    assert _outcome(sentence, "pkg.start", tmp_path, ctx)["outcome"] == "ungrounded"


# jest's shape: the package `jest` exports a few functions, while docs write `jest.Mocked<T>`
# and `expect.not.arrayContaining()`: names reached through the values named like the
# packages (the global `jest` object with its namespace, the `expect` function).
GLOBALS_FILES = {
    "package.json": json.dumps({"name": "root", "private": True, "workspaces": ["packages/*"]}),
    "packages/jest/package.json": json.dumps({"name": "jest", "main": "src/index.ts"}),
    "packages/jest/src/index.ts": "export function runCLI(): void {}\n",
    "packages/globals/package.json": json.dumps({"name": "@jest/globals", "main": "src/index.ts"}),
    "packages/globals/src/index.ts": (
        "export interface Jest { fn(): Jest }\n"
        "export declare const jest: Jest;\n"
        "export declare namespace jest { export type Mocked<T> = T }\n"
    ),
    "packages/expect/package.json": json.dumps({"name": "expect", "main": "src/index.ts"}),
    "packages/expect/src/index.ts": (
        "export type Inverse<M> = { not: M }\n"
        "export interface Asymmetric { arrayContaining(x: unknown[]): void }\n"
        "export const expect = (actual: unknown) => actual\n"
    ),
}


def test_a_script_packages_value_is_reached_through_its_name(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", GLOBALS_FILES)
    ctx = repo_context(repo, tmp_path / "cache", package="jest")
    for token in ("jest.Mocked<T>", "expect.not.arrayContaining(array)"):
        entry = _outcome(f"Use `{token}` here.\n", token, tmp_path, ctx)
        assert (entry["outcome"], entry["rule"]) == ("unjudged", "model-module-value"), entry
        assert "src/index.ts" in entry["reason"]
    # A part the product declares nowhere stays a rooted miss; the module's own names are
    # found as before.
    entry = _outcome("Use `jest.Mockedd<T>` here.\n", "jest.Mockedd<T>", tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("ungrounded", "model-rooted-miss")
    assert _outcome("Call `jest.runCLI()`.\n", "jest.runCLI()", tmp_path, ctx)["outcome"] == (
        "grounded"
    )


def test_a_class_named_like_nothing_else_keeps_its_complete_member_list(tmp_path: Path) -> None:
    # model-module-value asks only of a package's module: a class's own members are all
    # there is, so another class's member name does not excuse a miss on it.
    files = {**GLOBALS_FILES, "packages/globals/src/more.ts": "export class Timers { tick() {} }\n"}
    ctx = repo_context(make_repo(tmp_path / "repo", files), tmp_path / "cache", package="jest")
    entry = _outcome("Call `Timers.fn()`.\n", "Timers.fn()", tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("ungrounded", "model-rooted-miss"), entry


FACTORY_JS = """
function addHook(name, fn) { return this; }
function route(options) { return this; }
function server(options) {
  const app = { addHook, route, close: function () {} };
  Object.defineProperties(app, { prefix: { get () { return ''; } } });
  app.ready = function ready () {};
  return app;
}
module.exports = server;
"""


@pytest.mark.parametrize(
    ("token", "outcome"),
    [
        # What the package's factory puts on the instance it returns: docs name the
        # instance after the package (fastify's `fastify.addHook`).
        ("server.addHook", "grounded"),
        ("server.close", "grounded"),
        ("server.prefix", "grounded"),
        ("server.ready", "grounded"),
        # A member it does not put there is a miss rooted in the product.
        ("server.acceptHTTPMethod", "ungrounded"),
    ],
)
def test_a_member_of_what_the_package_factory_returns_is_the_products(
    tmp_path: Path, token: str, outcome: str
) -> None:
    files = {"package.json": '{"name": "server", "main": "index.js"}\n', "index.js": FACTORY_JS}
    ctx = repo_context(make_repo(tmp_path / "factory", files), tmp_path / "cache")
    body = f"Call `{token}` on the instance.\n"
    entry = token_outcome(gate.GATE.evaluate(make_post(body, tmp_path), ctx), token)
    assert entry["outcome"] == outcome, entry
