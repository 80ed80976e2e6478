"""Gate 15 on JavaScript samples written as docs write them, not as a program would: the
package called by its own name with no import (``Fastkit()``), a thenable instance
(``Instance & PromiseLike<Instance>``), a variable named for a product type and never bound
(``reply``), a module's functions called unqualified (document builders), a typo of a
product member on an untyped parameter, and hand-written declarations that lag the
JavaScript they describe."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_postgates.gates import code_samples as gate
from pytest_postgates.scorecard import Scorecard
from tests.helpers import make_post, make_repo, repo_context

FILES = {
    "package.json": json.dumps(
        {"name": "fastkit", "main": "fastkit.js", "types": "fastkit.d.ts", "type": "commonjs"}
    ),
    "fastkit.js": (
        "'use strict'\n"
        "function fastkit (options) {\n"
        "  const instance = { addRoute, lateMember: true, image: options.image }\n"
        "  return instance\n"
        "}\n"
        "function addRoute () {}\n"
        "module.exports = fastkit\n"
    ),
    "types/brand.d.ts": "export type SafeThenable<T> = PromiseLike<T> & { __brand: 'safe' }\n",
    "types/instance.d.ts": (
        "export interface FastkitInstance {\n"
        "  addRoute(path: string): FastkitInstance;\n"
        "  decorateRequest(name: string, value: unknown): FastkitInstance;\n"
        "  listen(port: number): void;\n"
        "}\n"
    ),
    "types/reply.d.ts": (
        "export interface FastkitReply {\n  send(payload: unknown): FastkitReply;\n"
        "  hasTrailer(key: string): boolean;\n}\n"
    ),
    "fastkit.d.ts": (
        "import { FastkitInstance } from './types/instance'\n"
        "import { FastkitReply } from './types/reply'\n"
        "import { SafeThenable } from './types/brand'\n"
        "declare function fastkit(opts?: object): FastkitInstance & "
        "SafeThenable<FastkitInstance>\n"
        "export default fastkit\n"
        "export { FastkitInstance, FastkitReply }\n"
    ),
    "src/options.ts": "export interface FastkitOptions { port: number }\n",
    "src/builders.js": (
        "function concat (parts) { return parts }\n"
        "function group (doc) { return doc }\n"
        "function indent (doc) { return doc }\n"
        "module.exports = { concat, group, indent }\n"
    ),
}


@pytest.fixture(scope="module")
def kit_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("fastkit"), FILES)


def _check(tmp_path: Path, repo: Path, *fences: str) -> Scorecard:
    body = "Intro.\n\n" + "".join(f"```js\n{code}\n```\n\n" for code in fences)
    return gate.GATE.evaluate(make_post(body, tmp_path), repo_context(repo, tmp_path / "cache"))


def _names(card: Scorecard) -> list[str]:
    return sorted(v["name"] for v in card.detail["violations"])


def _reasons(card: Scorecard) -> dict[str, str]:
    return {v["name"]: v["reason"] for v in card.detail["violations"]}


def test_the_package_called_by_its_name_gives_a_thenable_instance(
    tmp_path: Path, kit_repo: Path
) -> None:
    # `Fastkit()` with no import: the package's entry called; its declared return type is
    # the instance made thenable by a product wrapper, followed to FastkitInstance.
    card = _check(tmp_path, kit_repo, "const app = Fastkit()\napp.acceptMethod('X')\napp.listen(1)")
    assert _names(card) == ["app.acceptMethod"]
    assert "FastkitInstance declares no member acceptMethod" in _reasons(card)["app.acceptMethod"]
    # The same name bound by the post to something else is not the package.
    card = _check(tmp_path, kit_repo, "const Fastkit = makeOwn()\nconst app = Fastkit()\n"
                  "app.acceptMethod('X')")  # fmt: skip
    assert _names(card) == []


def test_the_required_package_called_gives_the_thenable_instance(
    tmp_path: Path, kit_repo: Path
) -> None:
    card = _check(tmp_path, kit_repo, "const app = require('fastkit')()\napp.acceptMethod()")
    assert _names(card) == ["app.acceptMethod"]


def test_a_member_the_declarations_lag_is_unjudged_when_the_code_names_it(
    tmp_path: Path, kit_repo: Path
) -> None:
    card = _check(tmp_path, kit_repo, "const app = require('fastkit')()\napp.lateMember\n")
    assert _names(card) == []
    reasons = [u["reason"] for u in card.detail["unjudged"]]
    assert any("does not declare lateMember, but the product's code names it" in r for r in reasons)


def test_a_name_never_bound_holds_the_product_type_named_so(tmp_path: Path, kit_repo: Path) -> None:
    card = _check(tmp_path, kit_repo, "reply.send('x')\nreply.getTrailer('t')")
    assert _names(card) == ["reply.getTrailer"]
    assert "did you mean `hasTrailer`?" in _reasons(card)["reply.getTrailer"]
    # A member the assumed type lacks but the code names: the value may be another type's
    # (a quoted excerpt's local `options`), so it is not judged.
    card = _check(tmp_path, kit_repo, "options.port\noptions.image\noptions.imageUrl")
    assert _names(card) == ["options.imageUrl"]
    reasons = [u["reason"] for u in card.detail["unjudged"]]
    assert any("assumed from the name, and the code names image" in r for r in reasons), reasons
    # A parameter named so is bound by the sample: its type is not assumed.
    card = _check(tmp_path, kit_repo, "handle((request, reply) => reply.getTrailer('t'))")
    assert _names(card) == []


def test_functions_of_a_product_file_called_unqualified(tmp_path: Path, kit_repo: Path) -> None:
    card = _check(tmp_path, kit_repo, "return multilineGroup(concat([indent(x), 'a']))")
    assert _names(card) == ["multilineGroup"]
    assert "did you mean `group`?" in _reasons(card)["multilineGroup"]
    assert card.detail["checked_by_kind"]["export"] == 3
    # One product function among free calls ties the fence to nothing: none is judged.
    card = _check(tmp_path, kit_repo, "return myHelper(concat([x]))")
    assert _names(card) == []
    # A free call the post defines is the post's own.
    card = _check(tmp_path, kit_repo, "function myHelper(d) { return d }",
                  "return myHelper(concat([indent(x)]))")  # fmt: skip
    assert _names(card) == []


def test_a_typo_of_a_product_member_on_an_untyped_parameter(tmp_path: Path, kit_repo: Path) -> None:
    code = (
        "const fp = require('fastkit-plugin')\n"
        "async function plugin (app) {\n"
        "  app.decorateReqest('foo', null)\n"
        "  app.somethingOfTheirs()\n"
        "}\n"
        "other.decorateReqest('foo')\n"
    )
    card = _check(tmp_path, kit_repo, code)
    assert _names(card) == ["app.decorateReqest"]
    assert "did you mean `decorateRequest`?" in _reasons(card)["app.decorateReqest"]


def test_a_member_a_plugin_the_sample_registers_may_add_is_unjudged(
    tmp_path: Path, kit_repo: Path
) -> None:
    # `@fastkit/mysql` decorates the instance with `mysql` when registered; a post that
    # registers no plugin still has its missing member found.
    registered = (
        "const app = require('fastkit')()\n"
        "app.addRoute(require('@fastkit/mysql'), { uri: 'mysql://localhost' })\n"
        "app.mysql.query('SELECT 1')\n"
    )
    # The fence after the registering one is not covered by it.
    card = _check(tmp_path, kit_repo, registered, "app.mysqll.query('SELECT 1')")
    assert _names(card) == ["app.mysqll"]
    reasons = [u["reason"] for u in card.detail["unjudged"]]
    assert any("hands @fastkit/mysql to a method of it: it may add mysql" in r for r in reasons)
    # A plugin handed to another value adds nothing to `app`.
    plain = (
        "const app = require('fastkit')()\nserver.use(require('helmet'))\n"
        "app.mysql.query('SELECT 1')\n"
    )
    (tmp_path / "plain").mkdir()
    assert _names(_check(tmp_path / "plain", kit_repo, plain)) == ["app.mysql"]


@pytest.fixture(scope="module")
def exporting_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # The product exports a constant `config` from an inner file and a function
    # `defineConfig` from its entry, each named like one of its types.
    files = dict(FILES)
    files["types/config.d.ts"] = (
        "export interface FastkitConfig { root: string }\n"
        "export interface DefineConfig { strict: boolean }\n"
    )
    files["src/config.ts"] = "export const config = { root: '.', extra: 1 }\n"
    files["fastkit.d.ts"] = FILES["fastkit.d.ts"] + (
        "import { DefineConfig } from './types/config'\n"
        "export declare function defineConfig(c: object): DefineConfig\n"
    )
    return make_repo(tmp_path_factory.mktemp("exporting"), files)


def test_a_name_the_product_exports_is_that_thing_not_a_type_named_so(
    tmp_path: Path, exporting_repo: Path
) -> None:
    # `config` is the product's exported constant (an inner file's): not an instance of
    # FastkitConfig, and not reachable from the entry: its members are listed unjudged.
    card = _check(tmp_path, exporting_repo, "config.other\n")
    assert _names(card) == []
    reasons = [u["reason"] for u in card.detail["unjudged"]]
    assert any("the product exports config itself (src/config.ts)" in r for r in reasons), reasons
    # `defineConfig` is the entry's function, not an instance of DefineConfig.
    (tmp_path / "fn").mkdir()
    card = _check(tmp_path / "fn", exporting_repo, "defineConfig.other\n")
    assert _names(card) == []
    # A name the product does not export still holds the type named so.
    (tmp_path / "reply").mkdir()
    assert _names(_check(tmp_path / "reply", exporting_repo, "reply.other\n")) == ["reply.other"]
