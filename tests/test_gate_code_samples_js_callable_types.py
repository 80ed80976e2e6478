"""Gate 15 on the option keys passed to a product value of a callable type (got's default
export: a constant a factory makes, declared to return an interface or type alias with call
signatures): ``got(url, {...})``, ``got.post(url, {...})`` (a field of a callable type, from
``Record<HTTPAlias, ...>``) and ``got.extend({...})`` (a rest parameter, of an array type or
a type parameter bounded by one) are judged against the declared option type, followed
through type-fest's ``Merge``, ``Except`` written as ``Pick<T, Exclude<keyof T, K>>``, a
class's accessors, ``Record`` keyed by an alias and Node's ``https.RequestOptions``. A type
the model cannot close (an index signature) leaves the keys listed, with the reason."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import make_repo, sample_card
from tests.helpers import sample_violations as _violations
from tests.helpers import unjudged_reasons as _unjudged

# got 10/11: interfaces, type-fest's Merge over Node's https.RequestOptions, a CommonJS
# shim (`module.exports = got`) beside the default export.
INTERFACES = {
    "package.json": json.dumps({"name": "fetcher", "exports": {".": "./src/index.ts"}}),
    "src/types.ts": (
        "import https = require('https');\n"
        "import {Merge} from 'type-fest';\n"
        "export interface Hooks { beforeRequest: Hook[]; beforeError: Hook[] }\n"
        "export type Hook = () => void;\n"
        "export interface BaseOptions {\n"
        "  hooks?: Partial<Hooks>;\n"
        "  prefixUrl?: string;\n"
        "  json?: unknown;\n"
        "}\n"
        "export type Options = Merge<https.RequestOptions, BaseOptions>;\n"
        "export interface ExtendOptions extends Options { mutableDefaults?: boolean }\n"
        "export type HTTPAlias = 'get' | 'post';\n"
        "interface RequestFunction {\n"
        "  (url: string, options?: Options): Promise<unknown>;\n"
        "}\n"
        "export interface Fetcher extends Record<HTTPAlias, RequestFunction>, RequestFunction {\n"
        "  extend(...instancesOrOptions: Array<Fetcher | ExtendOptions>): Fetcher;\n"
        "}\n"
    ),
    "src/create.ts": (
        "import {Fetcher} from './types';\n"
        "const create = (defaults: object): Fetcher => {\n"
        "  const fetcher: any = (url: string, options?: object) => send(url, options);\n"
        "  return fetcher;\n"
        "};\n"
        "export default create;\n"
    ),
    "src/index.ts": (
        "import create from './create';\n"
        "const fetcher = create({});\n"
        "export default fetcher;\n"
        "module.exports = fetcher;\n"
        "module.exports.default = fetcher;\n"
        "export * from './types';\n"
    ),
}


def test_keys_passed_to_a_required_callable_constant_and_its_methods_are_judged(
    tmp_path: Path,
) -> None:
    repo = make_repo(tmp_path / "repo", INTERFACES)
    code = (
        "const fetcher = require('fetcher');\n"
        "await fetcher('https://x', {prefixUrl: '/', timeout: 5, rejectUnauthorized: false,\n"
        "  hooks: {beforeError: [], onError: []}});\n"
        "const client = fetcher.extend({mutableDefaults: true, prefixUrll: '/'});\n"
        "await fetcher.post('/a', {jsonn: {}});\n"
    )
    card = sample_card(code, "js", tmp_path, repo)
    assert _violations(card) == [
        ("option_key", "jsonn"),
        ("option_key", "onError"),
        ("option_key", "prefixUrll"),
    ], _unjudged(card)
    reasons = {v["name"]: v["reason"] for v in card.detail["violations"]}
    assert "Fetcher.extend() takes no option prefixUrll" in reasons["prefixUrll"], reasons
    assert "`prefixUrl`" in reasons["prefixUrll"]
    assert "`beforeError`" in reasons["onError"]
    assert "`json`" in reasons["jsonn"]


def test_an_option_type_with_an_index_signature_leaves_the_keys_listed(tmp_path: Path) -> None:
    files = dict(INTERFACES)
    files["src/types.ts"] = files["src/types.ts"].replace(
        "  json?: unknown;\n", "  json?: unknown;\n  [key: string]: unknown;\n"
    )
    repo = make_repo(tmp_path / "repo", files)
    code = "import fetcher from 'fetcher';\nawait fetcher('https://x', {prefixUrll: '/'});\n"
    card = sample_card(code, "js", tmp_path, repo)
    assert _violations(card) == []
    assert any("prefixUrll" not in r and "any key" in r for r in _unjudged(card)), _unjudged(card)


# got 12+: the options are a class of accessors, the option type `Except<...>` of it (the
# alias written as Pick/Exclude, its keys an alias), the instance a type alias intersecting
# an object type (its generic `extend`), Record<HTTPAlias, ...> and a callable alias with an
# overload that takes no options.
ALIASES = {
    "package.json": json.dumps({"name": "fetcher", "exports": {".": "./src/index.ts"}}),
    "src/options.ts": (
        "type Except<O, K extends keyof O> = Pick<O, Exclude<keyof O, K>>;\n"
        "type Skip = 'merge' | 'toJSON';\n"
        "export type Hooks = { beforeError: unknown[]; init: unknown[] };\n"
        "export default class Options {\n"
        "  #internals = {};\n"
        "  private secret = 1;\n"
        "  get prefixUrl(): string { return ''; }\n"
        "  set prefixUrl(value: string) {}\n"
        "  get hooks(): Hooks { return {} as Hooks; }\n"
        "  set hooks(value: Partial<Hooks>) {}\n"
        "  merge(options: OptionsInit): void {}\n"
        "  toJSON(): object { return {}; }\n"
        "}\n"
        "export type OptionsInit = Except<Partial<Except<Options, Skip>>, 'hooks'> & {\n"
        "  hooks?: Partial<Hooks>;\n"
        "};\n"
    ),
    "src/types.ts": (
        "import type {OptionsInit} from './options';\n"
        "type Except<O, K extends keyof O> = Pick<O, Exclude<keyof O, K>>;\n"
        "type Merge<A, B> = Except<A, Extract<keyof A, keyof B>> & B;\n"
        "export type ExtendOptions = {handlers?: unknown[]} & OptionsInit;\n"
        "export type StrictOptions = Merge<OptionsInit, {responseType?: 'json'}>;\n"
        "export type RequestFunction = {\n"
        "  (url: string, options?: StrictOptions): Promise<unknown>;\n"
        "  (url: string, options?: undefined): Promise<unknown>;\n"
        "};\n"
        "export type HTTPAlias = 'get' | 'post';\n"
        "export type Fetcher = {\n"
        "  defaults: object;\n"
        "  extend<T extends Array<Fetcher | ExtendOptions>>(...items: T): Fetcher;\n"
        "} & Record<HTTPAlias, RequestFunction> & RequestFunction;\n"
    ),
    "src/create.ts": (
        "import type {Fetcher} from './types';\n"
        "export default function create(): Fetcher { return {} as Fetcher; }\n"
    ),
    "src/index.ts": (
        "import create from './create';\n"
        "const fetcher = create();\n"
        "export default fetcher;\n"
        "export * from './types';\n"
    ),
}


def test_keys_are_judged_through_aliases_of_a_class_of_accessors(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", ALIASES)
    code = (
        "import fetcher from 'fetcher';\n"
        "await fetcher('/a', {prefixUrl: '/', responseType: 'json',\n"
        "  hooks: {init: [], onError: []}, secret: 1});\n"
        "fetcher.extend({handlers: [], prefixUrll: '/'});\n"
        "await fetcher.get('/b', {toJSON: 1});\n"
        "fetcher.defaults;\nfetcher.extendd;\n"
    )
    card = sample_card(code, "js", tmp_path, repo)
    assert _violations(card) == [
        ("member", "fetcher.extendd"),
        ("option_key", "onError"),
        ("option_key", "prefixUrll"),
        ("option_key", "secret"),
        ("option_key", "toJSON"),
    ], _unjudged(card)
    assert card.detail["checked_by_kind"]["option_key"] == 9


# A callback handed inside the options (got's hooks): its parameters have the types the
# option's declared function type gives them, so their members are judged.
HOOKED = dict(INTERFACES)
HOOKED["src/types.ts"] = INTERFACES["src/types.ts"].replace(
    "export interface Hooks { beforeRequest: Hook[]; beforeError: Hook[] }\n",
    "import http = require('http');\n"
    "export interface Response extends http.IncomingMessage {\n"
    "  retryCount: number;\n"
    "  request: { options: BaseOptions };\n"
    "}\n"
    "export type AfterResponseHook = (response: Response) => Response;\n"
    "export interface Hooks {\n"
    "  beforeRequest: Hook[];\n"
    "  beforeError: Hook[];\n"
    "  afterResponse: AfterResponseHook[];\n"
    "}\n",
)


def test_members_of_a_callback_parameter_are_judged_by_the_options_declared_type(
    tmp_path: Path,
) -> None:
    repo = make_repo(tmp_path / "repo", HOOKED)
    code = (
        "import fetcher from 'fetcher';\n"
        "fetcher.extend({hooks: {afterResponse: [response => {\n"
        "  response.statusCode;\n"
        "  response.retryCount;\n"
        "  response.request.options;\n"
        "  response.request.gotOptions;\n"
        "  response.retryCountt;\n"
        "  return response;\n"
        "}], beforeRequest: [options => options.anything]}});\n"
        "fetcher('/x', {hooks: {afterResponse: [(response: any) => response.whatever]}});\n"
    )
    card = sample_card(code, "js", tmp_path, repo)
    assert _violations(card) == [
        ("member", "response.request.gotOptions"),
        ("member", "response.retryCountt"),
    ], _unjudged(card)
    reasons = {v["name"]: v["reason"] for v in card.detail["violations"]}
    assert (
        "Response.request declares no member gotOptions" in reasons["response.request.gotOptions"]
    )
    assert "`retryCount`" in reasons["response.retryCountt"]
    # A parameter the declared type does not give (a hook of no parameters) stays listed.
    unjudged = _unjudged(card)
    assert any(r.startswith("options.anything: options is a parameter of the callback")
               for r in unjudged), unjudged  # fmt: skip
    assert card.detail["checked_by_kind"]["member"] >= 5


def test_keys_of_an_object_a_variable_holds_are_judged_where_it_is_passed(
    tmp_path: Path,
) -> None:
    # `const options = {...}; got(url, options)`: the keys were neither judged nor listed.
    repo = make_repo(tmp_path / "repo", INTERFACES)
    code = (
        "import fetcher from 'fetcher';\n"
        "const options = {\n  prefixUrll: '/',\n  hooks: {onError: []}\n};\n"
        "await fetcher('https://x', options);\n"
        "const client = fetcher.extend(options);\n"
        "const shared = {jsonn: 1};\n"
        "console.log(shared);\n"
        "await fetcher.post('/a', shared);\n"
    )
    card = sample_card(code, "js", tmp_path, repo)
    assert _violations(card) == [("option_key", "onError"), ("option_key", "prefixUrll")]
    # An object the sample also uses otherwise (logged, spread, passed elsewhere) is not
    # taken for the call's options alone: its keys are listed with the reason.
    unjudged = card.detail["unjudged"]
    assert any(
        u.get("name") == "jsonn" and "uses shared otherwise too" in str(u.get("reason"))
        for u in unjudged
    ), unjudged


def test_what_a_method_of_the_constant_returns_is_typed_by_its_declaration(
    tmp_path: Path,
) -> None:
    # `const client = got.extend({...})`: a method of the alias's object type, returning
    # the alias, so the client's members and options are judged too.
    repo = make_repo(tmp_path / "repo", ALIASES)
    code = (
        "import fetcher from 'fetcher';\n"
        "const client = fetcher.extend({prefixUrl: '/'});\n"
        "client.defaults;\nclient.defaultss;\n"
        "await client.post('/b', {prefixUrll: '/'});\n"
    )
    card = sample_card(code, "js", tmp_path, repo)
    assert _violations(card) == [
        ("member", "client.defaultss"),
        ("option_key", "prefixUrll"),
    ], _unjudged(card)


def test_an_instance_a_method_returns_is_called_with_judged_keys(tmp_path: Path) -> None:
    """``const client = fetcher.extend({...}); client(url, {...})``: extend is declared to
    return a Fetcher, a callable type, so the keys passed to the instance are judged by its
    call signature (they were listed as 'a value the model does not type')."""
    repo = make_repo(tmp_path / "repo", INTERFACES)
    code = (
        "import fetcher from 'fetcher';\n"
        "const client = fetcher.extend({prefixUrl: '/'});\n"
        "await client('a', {json: {}, prefixUrll: '/b'});\n"
        "await client.post('a', {jsonn: {}});\n"
    )
    card = sample_card(code, "js", tmp_path, repo)
    assert _violations(card) == [("option_key", "jsonn"), ("option_key", "prefixUrll")], _unjudged(
        card
    )
    reasons = {v["name"]: v["reason"] for v in card.detail["violations"]}
    assert "Fetcher() takes no option prefixUrll" in reasons["prefixUrll"], reasons


def test_a_callback_parameter_of_an_object_type_written_in_place_is_read(tmp_path: Path) -> None:
    """A hook typed ``(options: {url: string}) => void`` handed in the options: its
    parameter's type is an object type written in place (fields held in a dict), which
    the type model compares rather than hashes (it raised TypeError on a NeuroLink post
    once instances returned by a product method were typed)."""
    files = dict(INTERFACES)
    files["src/types.ts"] = files["src/types.ts"].replace(
        "export type Hook = () => void;",
        "export type Hook = (options: {url: string; retry: number}) => void;",
    )
    repo = make_repo(tmp_path / "repo", files)
    code = (
        "import fetcher from 'fetcher';\n"
        "const client = fetcher.extend({prefixUrl: '/'});\n"
        "await client('a', {hooks: {beforeRequest: [(o) => o.url]}});\n"
        "await fetcher('a', {hooks: {beforeRequest: [(o) => o.url]}});\n"
    )
    card = sample_card(code, "js", tmp_path, repo)
    assert card.verdict == "PASS", card.detail


def test_an_instance_made_with_the_sample_s_own_hooks_takes_keys_unjudged(tmp_path: Path) -> None:
    """got's custom options: an instance made by ``extend`` handed the sample's own hook
    (which reads a key the product declares nowhere and moves it elsewhere) may take that
    key; the keys passed to it are listed with why. An instance made with no function of
    the sample's is judged as before."""
    repo = make_repo(tmp_path / "repo", INTERFACES)
    code = (
        "import fetcher from 'fetcher';\n"
        "const hooked = fetcher.extend({hooks: {beforeRequest: [(o) => { delete o.secret; }]}});\n"
        "await hooked('a', {secret: 'x'});\n"
        "const plain = fetcher.extend({prefixUrl: '/'});\n"
        "await plain('a', {secrett: 'x'});\n"
    )
    card = sample_card(code, "js", tmp_path, repo)
    assert _violations(card) == [("option_key", "secrett")], _unjudged(card)
    assert any(
        "hooked() are not judged: it holds what fetcher.extend() returned, handed the sample's "
        "own functions" in reason
        for reason in _unjudged(card)
    ), _unjudged(card)


ROUTES = {
    "package.json": json.dumps({"name": "router", "exports": {".": "./src/index.ts"}}),
    "src/index.ts": (
        "export interface Reply { send(payload?: unknown): Reply; code(status: number): Reply }\n"
        "export interface Request { query: unknown; params: unknown }\n"
        "export type Handler = (this: App, request: Request, reply: Reply) => unknown;\n"
        "export interface RouteOptions { schema?: object }\n"
        "export interface RouteOptionsWithHandler extends RouteOptions { handler: Handler }\n"
        "export interface Shorthand {\n"
        "  (path: string, opts: RouteOptions, handler: Handler): App;\n"
        "  (path: string, handler: Handler): App;\n"
        "  (path: string, opts: RouteOptionsWithHandler): App;\n"
        "}\n"
        "export interface App { get: Shorthand }\n"
        "export function createApp(): App { return {} as App; }\n"
    ),
}


def test_a_callback_s_parameters_are_typed_by_the_overload_that_takes_a_function_there(
    tmp_path: Path,
) -> None:
    """``app.get('/', (request, reply) => ...)``: of the three overloads, the one that takes
    a function at position 1 types the handler (the others take an options object there);
    its parameters' members are judged."""
    repo = make_repo(tmp_path / "repo", ROUTES)
    code = (
        "import { createApp } from 'router';\n"
        "const app = createApp();\n"
        "app.get('/', (request, reply) => { reply.sendd(request.query); });\n"
        "app.get('/b', {schema: {}}, function (request, reply) { reply.code(200).send(); });\n"
    )
    card = sample_card(code, "ts", tmp_path, repo)
    assert _violations(card) == [("member", "reply.sendd")], _unjudged(card)


# A callback written as a method of the options object (`onResponse(response) { ... }`, as
# Chart.js's docs write `external(context) { ... }`): typed as an arrow at that key is.
METHOD_HOOKED = dict(HOOKED)
METHOD_HOOKED["src/types.ts"] = HOOKED["src/types.ts"].replace(
    "  afterResponse: AfterResponseHook[];\n",
    "  afterResponse: AfterResponseHook[];\n  onResponse?: AfterResponseHook;\n",
)


def test_members_of_a_parameter_of_a_method_written_as_an_option_are_judged(
    tmp_path: Path,
) -> None:
    repo = make_repo(tmp_path / "repo", METHOD_HOOKED)
    code = (
        "import fetcher from 'fetcher';\n"
        "fetcher.extend({hooks: {onResponse(response) {\n"
        "  response.retryCount;\n"
        "  response.request.gotOptions;\n"
        "  return response;\n"
        "}}});\n"
    )
    card = sample_card(code, "js", tmp_path, repo)
    assert _violations(card) == [("member", "response.request.gotOptions")], _unjudged(card)
