"""Gate 15's documented signatures are judged against the function the name resolves to:
the one the doc's samples import (a named import, a namespace's member, a name destructured
from one, a package subpath), else the one the package's entry points export under it
(through re-exports, namespaces and CommonJS requires); never a same-named function of a
file no entry reaches."""

from __future__ import annotations

import json
from pathlib import Path

from pytest_postgates.evidence import resolution
from pytest_postgates.evidence.api_lookup import ApiLookup
from pytest_postgates.evidence.code_tables import code_tables
from pytest_postgates.evidence.index import open_index
from pytest_postgates.evidence.public_functions import PublicFunctions
from pytest_postgates.gates import code_samples as gate
from pytest_postgates.scorecard import Scorecard
from tests.helpers import make_post, make_repo, repo_context


def _card(body: str, tmp_path: Path, repo: Path) -> Scorecard:
    return gate.GATE.evaluate(make_post(body, tmp_path), repo_context(repo, tmp_path / "cache"))


def _names(card: Scorecard) -> list[tuple[str, str]]:
    return sorted((v["kind"], v["name"]) for v in card.detail["violations"])


def test_a_browser_api_is_not_judged_against_a_same_named_server_command(tmp_path: Path) -> None:
    # vitest's shape: the docs document `userEvent.click(element, options)`, a method of an
    # exported object; the repository's only top-level `click` is a server-side command
    # (context, selector) that no entry point exports.
    repo = make_repo(
        tmp_path / "repo",
        {
            "package.json": json.dumps({"name": "browse", "exports": {".": "./src/index.ts"}}),
            "src/index.ts": (
                "export interface UserEvent { click(element: Element, options?: object): "
                "Promise<void> }\nexport declare const userEvent: UserEvent;\n"
            ),
            "src/commands/click.ts": (
                "export function click(context: unknown, selector: string): void {}\n"
            ),
        },
    )
    body = (
        "## userEvent.click\n\n```ts\n"
        "function click(\n  element: Element,\n  options?: UserEventClickOptions,\n"
        "): Promise<void>\n```\n"
    )
    card = _card(body, tmp_path, repo)
    assert card.detail["violations"] == []
    assert "parameter" not in card.detail["checked_by_kind"]
    [unjudged] = card.detail["unjudged"]
    assert unjudged["text"] == "function click("
    assert unjudged["reason"].startswith("click: ")
    assert "src/commands/click.ts is not the one documented" in unjudged["reason"]


def test_a_builder_reached_through_namespaces_is_judged_against_that_function(
    tmp_path: Path,
) -> None:
    # prettier 3's shape: `export * as doc` -> `export * as builders` -> ifBreak. A printer's
    # own `ifBreak(contents, noBreak)` shares the name (and the doc's wrong parameter): it is
    # no function of the package, so it neither grounds nor masks `noBreak`.
    repo = make_repo(
        tmp_path / "repo",
        {
            "package.json": json.dumps({"name": "docfmt", "exports": {".": "./src/index.js"}}),
            "src/index.js": 'export * as doc from "./document/index.js";\n',
            "src/document/index.js": 'export * as builders from "./builders.js";\n',
            "src/document/builders.js": (
                "function ifBreak(breakContents, flatContents, opts = {}) {}\n"
                "function group(contents, opts = {}) {}\nexport { ifBreak, group };\n"
            ),
            "src/printer/legacy.js": "export function ifBreak(contents, noBreak) {}\n",
        },
    )
    body = (
        "### ifBreak\n\n```ts\n"
        "declare function ifBreak(\n  ifBreak: Doc,\n  noBreak?: Doc,\n"
        "  options?: { groupId?: symbol }\n): Doc;\n```\n"
    )
    card = _card(body, tmp_path, repo)
    assert _names(card) == [("parameter", "noBreak")]
    reason = card.detail["violations"][0]["reason"]
    assert "parameter 2 is `flatContents` in src/document/builders.js" in reason
    assert "(docfmt.doc.builders.ifBreak)" in reason
    assert "src/document/builders.js" in card.detail["sources_read"]


def test_a_commonjs_package_reaches_its_utilities_through_required_modules(
    tmp_path: Path,
) -> None:
    # prettier 1's shape: index.js is `module.exports = require("./src/index")`, whose
    # `util` key holds a required module re-exporting `makeString: util.makeString`.
    repo = make_repo(
        tmp_path / "repo",
        {
            "package.json": json.dumps({"name": "docfmt", "main": "./index.js"}),
            "index.js": 'module.exports = require("./src/index");\n',
            "src/index.js": (
                'const sharedUtil = require("./common/util-shared");\n'
                'const doc = require("./doc");\nfunction format(text, opts) {}\n'
                "module.exports = { format, doc, util: sharedUtil };\n"
            ),
            "src/doc.js": 'module.exports = { builders: require("./doc-builders") };\n',
            "src/doc-builders.js": "function indent(contents) {}\nmodule.exports = { indent };\n",
            "src/common/util-shared.js": (
                'const util = require("./util");\n'
                "module.exports = { makeString: util.makeString };\n"
            ),
            "src/common/util.js": (
                "function makeString(rawContent, enclosingQuote, unescapeUnnecessaryEscapes) {}\n"
                "module.exports = { makeString };\n"
            ),
            # A same-named helper of a language printer, with the doc's misspelt parameter.
            "src/language-css/utils.js": (
                "function makeString(rawContent, enclosingQuote, unescapeUnnecessarEscapes) {}\n"
                "module.exports = { makeString };\n"
            ),
        },
    )
    body = (
        "Utilities:\n\n```ts\n"
        "makeString(rawContent: string, enclosingQuote: string, "
        "unescapeUnnecessarEscapes: boolean): string;\n"
        "indent(contents: Doc): Doc;\n```\n"
    )
    card = _card(body, tmp_path, repo)
    assert _names(card) == [("parameter", "unescapeUnnecessarEscapes")]
    reason = card.detail["violations"][0]["reason"]
    assert "in src/common/util.js (docfmt.util.makeString)" in reason
    assert "did you mean `unescapeUnnecessaryEscapes`?" in reason
    assert card.detail["checked_by_kind"]["parameter"] == 4


def test_the_samples_imports_decide_which_function_a_signature_documents(tmp_path: Path) -> None:
    # Two exported functions named `format`: the doc's samples import the legacy one from
    # a subpath, so its signature is judged against that one only; a builder destructured
    # from an imported namespace is judged against the builder it names.
    manifest = {"name": "docfmt", "exports": {".": "./src/index.js", "./doc": "./src/doc.js"}}
    repo = make_repo(
        tmp_path / "repo",
        {
            "package.json": json.dumps(manifest),
            "src/index.js": (
                "export function format(source, options) {}\n"
                'export * as legacy from "./legacy.js";\n'
            ),
            "src/legacy.js": "export function format(text, config) {}\n",
            "src/doc.js": 'export * as builders from "./builders.js";\n',
            "src/builders.js": "export function group(contents, opts) {}\n",
        },
    )
    body = (
        "```js\n"
        'import { legacy } from "docfmt";\nimport { builders } from "docfmt/doc";\n'
        "const { format } = legacy;\nconst { group, grop } = builders;\n```\n\n"
        "```ts\n"
        "declare function format(source: string, options?: object): string;\n"
        "declare function group(contents: Doc, options?: object): Doc;\n```\n"
    )
    card = _card(body, tmp_path, repo)
    assert _names(card) == [
        ("named_export", "grop"),
        ("parameter", "options"),
        ("parameter", "source"),
    ]
    by_name = {v["name"]: v["reason"] for v in card.detail["violations"]}
    assert "format's parameter 1 is `text` in src/legacy.js" in by_name["source"]
    assert "did you mean `group`?" in by_name["grop"]
    # `options` is group's `opts` written out: the same parameter.
    assert card.detail["checked_by_kind"]["parameter"] == 4


def test_the_walk_of_an_entry_reaches_functions_through_namespaces_and_requires(
    tmp_path: Path,
) -> None:
    repo = make_repo(
        tmp_path / "repo",
        {
            "index.js": 'module.exports = require("./src/index");\n',
            "src/index.js": (
                'import * as tools from "./tools.js";\n'
                'const util = require("./util");\nconst { parse } = require("./parse");\n'
                "module.exports = { tools, util, parse, helpers: require('./helpers').pub };\n"
            ),
            "src/tools.js": "export function lint(text) {}\nexport class Linter {}\n",
            "src/util.js": "exports.width = function (text) {};\nfunction pad(s) {}\n"
            "module.exports.pad = pad;\n",
            "src/parse.js": "function parse(text) {}\nmodule.exports = { parse };\n",
            "src/helpers.js": "module.exports = { pub: require('./pub') };\n",
            "src/pub.js": "function shout(s) {}\nmodule.exports = { shout };\n",
            "src/internal.js": "export function hidden() {}\n",
        },
    )
    index = open_index(repo, "HEAD", tmp_path / "cache")
    files = resolution.IndexFiles(index)
    lookup = ApiLookup(code_tables(index, tmp_path / "cache"), files, {})
    assert lookup.tables.files["src/index.js"].required_exports == {
        "tools": ["./tools.js", "*"],
        "util": ["./util", "*"],
        "parse": ["./parse", "parse"],
        "helpers": ["./helpers", "pub"],
    }
    walk = PublicFunctions.of(lookup, [("kit", "index.js")])
    reached = {name: [r.via for r in walk.functions(name, lookup)] for name in
               ("lint", "parse", "pad", "width", "shout", "hidden", "Linter")}  # fmt: skip
    assert reached == {
        "lint": ["kit.tools.lint"],
        "parse": ["kit.parse"],
        "pad": ["kit.util.pad"],
        "width": [],  # `exports.width = function () {}`: a value the tables do not type
        "shout": ["kit.helpers.shout"],
        "hidden": [],  # src/internal.js: no entry reaches it
        "Linter": [],  # a class, not a function
    }
    shout = walk.functions("shout", lookup)[0]
    assert shout.files == ("index.js", "src/index.js", "src/helpers.js", "src/pub.js")
