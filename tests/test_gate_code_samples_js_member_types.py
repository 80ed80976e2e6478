"""Gate 15 on members of values whose type the product declares, followed as the TypeScript
compiler follows them (tests/test_member_types_conformance.py checks the same shapes
against it): a callback handed where the parameter's type is a union of function types
(fastify's ``register(plugin: FastifyPluginCallback | FastifyPluginAsync | Promise<...>)``,
TypeScript's contextual typing passes over the members that are no function and takes the
parameter every function type declares alike), a generic function type written without its
type arguments (their defaults), and a class extending a JavaScript built-in (``class
HTTPError extends Error``: a base is a value, so a local ``type Error = ...`` does not hide
the global one)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import make_repo, sample_card
from tests.helpers import sample_violations as _violations
from tests.helpers import unjudged_reasons as _unjudged

PACKAGE = json.dumps({"name": "plugins", "exports": {".": "./src/index.ts"}})


def _plugins(parameter: str) -> dict[str, str]:
    return {
        "package.json": PACKAGE,
        "src/index.ts": (
            "export interface Server { close(): void }\n"
            "export interface Instance<S = Server> { server: S; decorate(name: string): void }\n"
            "export interface Other { other: number }\n"
            "export type PluginCallback<O = {}, S = Server> =\n"
            "  (instance: Instance<S>, opts: O, done: () => void) => void;\n"
            "export type PluginAsync<O = {}, S = Server> =\n"
            "  (instance: Instance<S>, opts: O) => Promise<void>;\n"
            "export type OtherCallback = (instance: Other) => void;\n"
            "export interface App {\n"
            f"  register(plugin: {parameter}): App;\n"
            "}\n"
            "export function createApp(): App { return {} as App; }\n"
        ),
    }


CODE = (
    "import { createApp } from 'plugins';\n"
    "const app = createApp();\n"
    "app.register(async (made, opts) => {\n"
    "  made.decorate('x');\n"
    "  made.server.close();\n"
    "  made.frobnicate('y');\n"
    "});\n"
)


def test_a_callback_handed_where_a_union_of_function_types_is_taken_is_typed(
    tmp_path: Path,
) -> None:
    """The promise of a module is no function (passed over); both function types give
    ``instance`` the same type, written bare (the defaults)."""
    parameter = "PluginCallback | PluginAsync | Promise<{ default: PluginCallback }> | undefined"
    repo = make_repo(tmp_path / "repo", _plugins(parameter))
    card = sample_card(CODE, "ts", tmp_path, repo)
    assert _violations(card) == [("member", "made.frobnicate")], _unjudged(card)


def test_function_types_of_a_union_that_disagree_leave_the_parameter_unjudged(
    tmp_path: Path,
) -> None:
    repo = make_repo(tmp_path / "repo", _plugins("PluginCallback | OtherCallback"))
    card = sample_card(CODE, "ts", tmp_path, repo)
    assert _violations(card) == []
    assert any("made.frobnicate" in reason for reason in _unjudged(card)), _unjudged(card)


def test_a_union_with_a_member_that_may_be_a_function_leaves_the_parameter_unjudged(
    tmp_path: Path,
) -> None:
    repo = make_repo(tmp_path / "repo", _plugins("PluginCallback | any"))
    card = sample_card(CODE, "ts", tmp_path, repo)
    assert _violations(card) == []
    assert any("made.frobnicate" in reason for reason in _unjudged(card)), _unjudged(card)


def _errors(prelude: str) -> dict[str, str]:
    return {
        "package.json": json.dumps({"name": "fetcher", "exports": {".": "./src/index.ts"}}),
        "src/index.ts": (
            f"{prelude}"
            "export class HTTPError extends Error {\n"
            "  response: string;\n"
            "  constructor(response: string) { super('failed'); this.response = response; }\n"
            "}\n"
        ),
    }


ERROR_CODE = (
    "import { HTTPError } from 'fetcher';\n"
    "const error = new HTTPError('x');\n"
    "error.response;\n"
    "error.message;\n"
    "error.stack;\n"
    "error.frobnicate;\n"
)


def test_a_class_extending_the_built_in_error_has_its_members(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", _errors(""))
    card = sample_card(ERROR_CODE, "ts", tmp_path, repo)
    assert _violations(card) == [("member", "HTTPError.frobnicate")], _unjudged(card)


def test_a_local_type_named_error_does_not_hide_the_built_in_base(tmp_path: Path) -> None:
    """got's ``type Error = NodeJS.ErrnoException`` beside ``class RequestError extends
    Error``: the base is the value, the global ``Error``."""
    repo = make_repo(tmp_path / "repo", _errors("type Error = { code?: string };\n"))
    card = sample_card(ERROR_CODE, "ts", tmp_path, repo)
    assert _violations(card) == [("member", "HTTPError.frobnicate")], _unjudged(card)


def test_an_error_the_file_imports_is_not_taken_for_the_built_in(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", _errors("import { Error } from 'somewhere';\n"))
    card = sample_card(ERROR_CODE, "ts", tmp_path, repo)
    assert _violations(card) == []
    assert any("HTTPError.frobnicate" in reason for reason in _unjudged(card)), _unjudged(card)
