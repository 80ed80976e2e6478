"""Gate 15 on option keys whose declared type is written with TypeScript's type operators:
a mapped type over another type's keys (``DeepPartial<T>``, the way a config API declares
"any part of the options"), a conditional type testing for an object, an indexed access
(``T[P]``), and ``Record`` keyed by ``"default" | (string & {})``. Under a key that takes
any key (an index signature), an object written there is still judged against the index
signature's value type. A function an entry point exports, called bare in a fence that
never imports it (a framework's auto-import, a config file's helper), is that function. A
type named through a namespace its declaration file declares (``fastify.FastifyHttpOptions``
in ``declare namespace fastify { ... }; export = fastify``) is that namespace's type."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import make_repo, sample_card
from tests.helpers import sample_violations as _violations
from tests.helpers import unjudged_reasons as _unjudged

CONFIG = {
    "package.json": json.dumps(
        {"name": "stack", "exports": {".": "./src/index.ts", "./config": "./src/config.ts"}}
    ),
    "src/types.ts": (
        "export type ConnectionName = 'default' | (string & {});\n"
        "export type ConnectionConfig = { connector: string; options?: { [key: string]: any } };\n"
        "type DeepPartial<T> = T extends Record<string, any>\n"
        "  ? { [P in keyof T]?: DeepPartial<T[P]> | T[P] }\n"
        "  : T;\n"
        "interface PrerenderOptions { crawlLinks: boolean; autoSubfolderIndex: boolean }\n"
        "interface Handler { route: string; lazy?: boolean }\n"
        "export interface StackOptions {\n"
        "  database: Record<ConnectionName, ConnectionConfig>;\n"
        "  prerender: PrerenderOptions;\n"
        "  preset: string;\n"
        "  handlers: Handler[];\n"
        "  rollupConfig: object;\n"
        "}\n"
        "export interface StackConfig\n"
        "  extends DeepPartial<Omit<StackOptions, 'rollupConfig'>> {\n"
        "  extends?: string;\n"
        "}\n"
        "export type Flags = { readonly [K in 'verbose' | 'quiet']?: boolean };\n"
        "export type RetryOf<T> = T['retry'];\n"
        "export interface Client { retry: { limit: number; methods: string[] } }\n"
    ),
    "src/config.ts": (
        "import type { StackConfig } from './types';\n"
        "export function defineStackConfig(config: StackConfig): StackConfig {\n"
        "  return config;\n"
        "}\n"
    ),
    "src/index.ts": (
        "import type { Flags, RetryOf, Client } from './types';\n"
        "export function run(flags: Flags): void {}\n"
        "export function serve(options: { routes: Array<{ path: string; lazy?: boolean }> })"
        ": void {}\n"
        "export function retrying(retry: RetryOf<Client>): void {}\n"
        "export * from './types';\n"
    ),
}


def _card(tmp_path: Path, code: str, language: str = "ts") -> object:
    repo = make_repo(tmp_path / "repo", CONFIG)
    return sample_card(code, language, tmp_path, repo)


def test_keys_through_a_deep_partial_of_an_omit_are_judged(tmp_path: Path) -> None:
    code = (
        "import { defineStackConfig } from 'stack/config';\n"
        "export default defineStackConfig({\n"
        "  preset: 'node',\n"
        "  extends: 'base',\n"
        "  prerender: { crawlLinks: true, autoSubFolderIndex: false },\n"
        "  rollupConfig: {},\n"
        "});\n"
    )
    card = _card(tmp_path, code)
    assert _violations(card) == [
        ("option_key", "autoSubFolderIndex"),
        ("option_key", "rollupConfig"),
    ], _unjudged(card)
    reasons = {v["name"]: v["reason"] for v in card.detail["violations"]}  # type: ignore[attr-defined]
    assert "did you mean `autoSubfolderIndex`" in reasons["autoSubFolderIndex"], reasons


def test_keys_of_an_array_s_elements_through_a_deep_partial_are_judged(tmp_path: Path) -> None:
    # TypeScript: an array passes `T extends Record<string, any>`, and a homomorphic mapped
    # type over an array maps its elements (DeepPartial<Handler[]> is an array of
    # DeepPartial<Handler> | Handler), so an element's keys are Handler's.
    code = (
        "import { defineStackConfig } from 'stack/config';\n"
        "export default defineStackConfig({\n"
        "  handlers: [{ route: '/api', lazy: true }, { route: '/b', lazzy: false }],\n"
        "});\n"
    )
    card = _card(tmp_path, code)
    assert _violations(card) == [("option_key", "lazzy")], _unjudged(card)


def test_keys_of_an_array_s_elements_are_judged_by_the_element_type(tmp_path: Path) -> None:
    code = "import { serve } from 'stack';\nserve({ routes: [{ path: '/', lazzy: true }] });\n"
    card = _card(tmp_path, code)
    assert _violations(card) == [("option_key", "lazzy")], _unjudged(card)
    reasons = [v["reason"] for v in card.detail["violations"]]  # type: ignore[attr-defined]
    assert "no option routes[].lazzy" in reasons[0], reasons


def test_an_object_under_an_index_signature_is_judged_by_its_value_type(tmp_path: Path) -> None:
    code = (
        "import { defineStackConfig } from 'stack/config';\n"
        "export default defineStackConfig({\n"
        "  database: {\n"
        "    default: { connector: 'sqlite', options: { name: 'db' } },\n"
        "    users: { driver: 'postgresql' },\n"
        "  },\n"
        "});\n"
    )
    card = _card(tmp_path, code)
    assert _violations(card) == [("option_key", "driver")], _unjudged(card)
    # The connection names and the free-form options' keys: any key, listed with why.
    listed = {u.get("name"): u["reason"] for u in card.detail["unjudged"]}  # type: ignore[attr-defined]
    assert "any key" in listed["database.users"], listed
    assert "any key" in listed["database.default.options.name"], listed
    assert "database.users.driver" not in listed, listed


def test_a_function_an_entry_exports_called_bare_is_that_function(tmp_path: Path) -> None:
    code = (
        "export default defineStackConfig({\n  database: { default: { driver: 'sqlite' } },\n});\n"
    )
    card = _card(tmp_path, code)
    assert _violations(card) == [("option_key", "driver")], _unjudged(card)


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        # A mapped type over a union of literal keys.
        (
            "import { run } from 'stack';\nrun({ verbose: true, loud: true });\n",
            [("option_key", "loud")],
        ),
        # An indexed access through a generic alias.
        (
            "import { retrying } from 'stack';\nretrying({ limit: 2, method: ['GET'] });\n",
            [("option_key", "method")],
        ),
    ],
)
def test_literal_mapped_types_and_indexed_access(
    tmp_path: Path, code: str, expected: list[tuple[str, str]]
) -> None:
    card = _card(tmp_path, code)
    assert _violations(card) == expected, _unjudged(card)


def test_a_bare_call_of_a_name_the_sample_defines_is_not_the_product_s(tmp_path: Path) -> None:
    code = (
        "function defineStackConfig(config: object) { return config; }\n"
        "export default defineStackConfig({ database: { default: { driver: 'x' } } });\n"
    )
    card = _card(tmp_path, code)
    assert _violations(card) == [], _unjudged(card)


def test_a_conditional_type_the_model_cannot_decide_leaves_the_keys_unjudged(
    tmp_path: Path,
) -> None:
    files = dict(CONFIG)
    files["src/odd.ts"] = (
        "type Pick2<T> = T extends string ? { a: T } : { b: number };\n"
        "export function odd(options: Pick2<number>): void {}\n"
    )
    files["src/index.ts"] = CONFIG["src/index.ts"] + "export * from './odd';\n"
    repo = make_repo(tmp_path / "repo", files)
    card = sample_card("import { odd } from 'stack';\nodd({ c: 1 });\n", "ts", tmp_path, repo)
    assert _violations(card) == [], _unjudged(card)
    assert any("cannot be followed" in entry for entry in _unjudged(card)), _unjudged(card)


NAMESPACED = {
    "package.json": json.dumps({"name": "serve", "main": "serve.js", "types": "serve.d.ts"}),
    "serve.js": "module.exports = function serve(opts) { return {}; };\n",
    "serve.d.ts": (
        "declare namespace serve {\n"
        "  export type ServerOptions<Server> = { bodyLimit?: number; logger?: boolean };\n"
        "  export type HttpOptions<Server> = ServerOptions<Server> & { http2?: false };\n"
        "  export type Http2Options<Server> = ServerOptions<Server> & { http2: true };\n"
        "}\n"
        "declare function serve<S>(opts: serve.Http2Options<S>): void;\n"
        "declare function serve<S>(opts?: serve.HttpOptions<S>): void;\n"
        "export = serve;\n"
    ),
}


def test_a_type_named_through_the_file_s_namespace_is_followed(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", NAMESPACED)
    code = "const app = require('serve')({ logger: true, http2: true, bodyLimitt: 10 });\n"
    card = sample_card(code, "js", tmp_path, repo)
    assert _violations(card) == [("option_key", "bodyLimitt")], _unjudged(card)


NESTED_NAMESPACES = {
    "package.json": json.dumps(
        {
            "name": "runner",
            "exports": {".": "./src/index.ts", "./standalone": "./src/standalone.js"},
        },
    ),
    # A declaration file importing a type from a JavaScript module, whose types are its
    # declaration file's (`import { Options } from "./index.js"` in prettier's
    # standalone.d.ts).
    "src/standalone.js": "export function format(source, options) { return source }\n",
    "src/standalone.d.ts": (
        "import { Options } from './options.js';\n"
        "export function format(source: string, options?: Options): string;\n"
    ),
    "src/options.js": "export const defaults = { semi: true };\n",
    "src/options.d.ts": "export interface Options { semi?: boolean }\n",
    # Nested namespaces in a file imported for its types (ava's `SharedWorker.Plugin.X`).
    "src/shared.ts": (
        "export namespace Shared {\n"
        "  export namespace Plugin {\n"
        "    export type RegistrationOptions<Id extends string, Data = unknown> = {\n"
        "      id: Id; filename: string; initialData?: Data;\n"
        "    };\n"
        "  }\n"
        "}\n"
    ),
    # A namespace of the file that re-exports an imported namespace (prettier's
    # `export namespace doc { export { printer } }`, then `doc.printer.Options`), declared
    # in the declaration file of the JavaScript module it is imported from.
    "src/public.js": "export const printer = {};\n",
    "src/public.d.ts": (
        "export namespace printer {\n  export interface Options { printWidth: number }\n}\n"
    ),
    "src/index.ts": (
        "import type { Shared } from './shared';\n"
        "import { printer } from './public.js';\n"
        "export namespace doc {\n  export { printer };\n}\n"
        "export interface Options extends doc.printer.Options { semi?: boolean }\n"
        "export function format(source: string, options?: Options): string { return source }\n"
        "export function register<Data = unknown>(\n"
        "  options: Shared.Plugin.RegistrationOptions<'v1', Data>,\n"
        "): void {}\n"
    ),
}


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        (
            "import { register } from 'runner';\nregister({ id: 'v1', filenme: 'w.js' });\n",
            [("option_key", "filenme")],
        ),
        (
            "import { format } from 'runner';\nformat('x', { semi: true, printWidht: 80 });\n",
            [("option_key", "printWidht")],
        ),
        (
            "import { format } from 'runner/standalone';\nformat('x', { semii: true });\n",
            [("option_key", "semii")],
        ),
    ],
)
def test_a_type_named_through_nested_or_re_exported_namespaces_is_followed(
    code: str, expected: list[tuple[str, str]], tmp_path: Path
) -> None:
    repo = make_repo(tmp_path / "repo", NESTED_NAMESPACES)
    card = sample_card(code, "ts", tmp_path, repo)
    assert _violations(card) == expected, _unjudged(card)
