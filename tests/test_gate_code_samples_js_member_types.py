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
UNION = "PluginCallback | PluginAsync | Promise<{ default: PluginAsync }>"


def _plugins(method: str) -> dict[str, str]:
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
            "export type OtherCallback = (instance: Other, opts: {}) => void;\n"
            f"export interface App {{\n{method}}}\n"
            "export function createApp(): App { return {} as App; }\n"
        ),
    }


def _code(parameters: str) -> str:
    return (
        "import { createApp } from 'plugins';\n"
        "const app = createApp();\n"
        f"app.register(async ({parameters}) => {{\n"
        "  made.decorate('x');\n"
        "  made.server.close();\n"
        "  made.frobnicate('y');\n"
        "});\n"
    )


def test_a_callback_handed_where_a_union_of_function_types_is_taken_is_typed(
    tmp_path: Path,
) -> None:
    """The promise of a module is no function, and a function type with fewer parameters
    than the callback requires is passed over; the one left types ``made``, written bare
    (its type parameters' defaults)."""
    method = f"  register(plugin: {UNION}): App;\n"
    repo = make_repo(tmp_path / "repo", _plugins(method))
    card = sample_card(_code("made, opts, done"), "ts", tmp_path, repo)
    assert _violations(card) == [("member", "made.frobnicate")], _unjudged(card)


def test_the_first_overload_types_a_callback_where_no_earlier_argument_tells_them_apart(
    tmp_path: Path,
) -> None:
    """fastify's ``register``: an overload for each plugin type, then one taking their
    union; TypeScript takes the first the call fits."""
    method = (
        "  register(plugin: PluginCallback): App;\n"
        "  register(plugin: PluginAsync): App;\n"
        f"  register(plugin: {UNION}): App;\n"
    )
    repo = make_repo(tmp_path / "repo", _plugins(method))
    card = sample_card(_code("made, opts"), "ts", tmp_path, repo)
    assert _violations(card) == [("member", "made.frobnicate")], _unjudged(card)


def test_function_types_of_a_union_that_are_not_identical_leave_the_parameter_unjudged(
    tmp_path: Path,
) -> None:
    """As TypeScript: a callback of two parameters handed where ``PluginCallback |
    PluginAsync`` is taken is typed by neither (their parameters differ), nor where the
    union's function types give the parameter different types."""
    for method in (
        "  register(plugin: PluginCallback | PluginAsync): App;\n",
        "  register(plugin: PluginAsync | OtherCallback): App;\n",
        "  register(plugin: PluginAsync | any): App;\n",
    ):
        repo = make_repo(tmp_path / f"repo{len(method)}", _plugins(method))
        card = sample_card(_code("made, opts"), "ts", tmp_path, repo)
        assert _violations(card) == [], method
        assert any("made.frobnicate" in reason for reason in _unjudged(card)), _unjudged(card)


def test_overloads_told_apart_by_an_earlier_argument_must_agree(tmp_path: Path) -> None:
    """``on('close', cb)`` beside ``on('other', cb)``: which overload applies depends on
    the event's name, so the callback is typed only where every overload agrees."""
    method = (
        "  on(event: 'close', listener: PluginAsync): App;\n"
        "  on(event: 'other', listener: OtherCallback): App;\n"
    )
    repo = make_repo(tmp_path / "repo", _plugins(method))
    code = _code("made, opts").replace("app.register(", "app.on('close', ")
    card = sample_card(code, "ts", tmp_path, repo)
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


def test_a_field_of_a_javascript_class_is_typed_by_its_declaration_file(tmp_path: Path) -> None:
    """undici's ``new Client(url).stats``: the class is JavaScript, its declaration file
    (which TypeScript reads) types the field."""
    files = {
        "package.json": json.dumps(
            {"name": "dispatch", "main": "index.js", "types": "index.d.ts", "type": "module"}
        ),
        "index.js": "export { Client } from './lib/client.js';\n",
        "lib/client.js": (
            "export class Client {\n  constructor(url) { this.url = url; }\n"
            "  get stats() { return { connected: 0 }; }\n}\n"
        ),
        "index.d.ts": "export * from './types/client';\n",
        "types/client.d.ts": (
            "export interface ClientStats { connected: number; pending: number }\n"
            "export declare class Client {\n  constructor(url: string);\n"
            "  stats: ClientStats;\n}\n"
        ),
    }
    repo = make_repo(tmp_path / "repo", files)
    code = (
        "import { Client } from 'dispatch';\n"
        "const client = new Client('http://localhost');\n"
        "client.stats.connected;\n"
        "client.stats.frobnicate;\n"
    )
    card = sample_card(code, "js", tmp_path, repo)
    assert _violations(card) == [("member", "client.stats.frobnicate")], _unjudged(card)


def test_overloads_with_an_object_type_written_in_place_before_the_callback(
    tmp_path: Path,
) -> None:
    """fastify's ``addContentTypeParser(type, opts: { parseAs?: string }, parser)``: the
    parameters before the callback's are compared, an object type written in place too."""
    method = (
        "  parse(kind: string, opts: { parseAs?: string }, parser: PluginAsync): App;\n"
        "  parse(kind: string, parser: PluginAsync): App;\n"
    )
    repo = make_repo(tmp_path / "repo", _plugins(method))
    code = _code("made, opts").replace("app.register(", "app.parse('json', {}, ")
    card = sample_card(code, "ts", tmp_path, repo)
    assert _violations(card) == [("member", "made.frobnicate")], _unjudged(card)


def test_an_overload_whose_function_takes_fewer_parameters_than_written_is_not_taken(
    tmp_path: Path,
) -> None:
    """A callback of three parameters is not assignable to ``PluginAsync`` (two): the
    first overload is not the one TypeScript takes, and the parameter is left unjudged."""
    method = "  register(plugin: PluginAsync): App;\n  register(plugin: OtherCallback): App;\n"
    repo = make_repo(tmp_path / "repo", _plugins(method))
    card = sample_card(_code("made, opts, done"), "ts", tmp_path, repo)
    assert _violations(card) == []
    assert any("made.frobnicate" in reason for reason in _unjudged(card)), _unjudged(card)
