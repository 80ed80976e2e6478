"""Gate 15 on the keys a JavaScript function reads from its options parameter (issue 26):
an option object passed to a function nothing declares is judged against the keys its
code reads (member reads, destructuring, merges with a defaults object, calls of another
function of the file it is passed to); beside a hand-written declaration file, a key the
code reads is no defect; a read that may be incomplete leaves the keys unjudged with the
reason."""

from __future__ import annotations

import json
from pathlib import Path

from pytest_postgates.gates import code_samples as gate
from pytest_postgates.scorecard import Scorecard
from tests.helpers import make_post, make_repo, repo_context

PRETTY = {
    "package.json": json.dumps({"name": "pretty", "main": "index.js"}),
    "index.js": (
        "const defaultOptions = { colorize: false, crlf: false, messageKey: 'msg' }\n"
        "function prettyFactory (options) {\n"
        "  const opts = Object.assign({}, defaultOptions, options)\n"
        "  const { levelFirst, ignore = '' } = opts\n"
        "  return function pretty (line) { return opts.translateTime ? line : '' }\n"
        "}\n"
        "function build (opts = {}) {\n"
        "  const pretty = prettyFactory(opts)\n"
        "  if (typeof opts.destination === 'object') return pretty\n"
        "  return { dest: opts.destination || 1, mkdir: opts.mkdir, sync: opts['sync'] }\n"
        "}\n"
        "function open (opts) { return send(opts.url, opts) }\n"
        "module.exports = build\n"
        "module.exports.open = open\n"
    ),
}


def _check(code: str, tmp_path: Path, repo: Path) -> Scorecard:
    body = f"Intro.\n\n```js\n{code}\n```\n"
    return gate.GATE.evaluate(make_post(body, tmp_path), repo_context(repo, tmp_path / "cache"))


def _names(card: Scorecard) -> list[tuple[str, str]]:
    return sorted((v["kind"], v["name"]) for v in card.detail["violations"])


def test_keys_a_function_reads_through_merges_and_the_functions_it_calls(
    tmp_path: Path,
) -> None:
    repo = make_repo(tmp_path / "repo", PRETTY)
    code = (
        "const pretty = require('pretty')\n"
        "const stream = pretty({\n"
        "  colorize: true,\n"  # a key of the defaults merged with the options
        "  levelFirst: true, ignore: 'pid',\n"  # destructured from the merged object
        "  translateTime: 'SYS:standard',\n"  # read in a nested function
        "  destination: 1, sync: false,\n"
        "  mkdir: true,\n"
        "  mdkdir: true,\n"
        "})\n"
    )
    card = _check(code, tmp_path, repo)
    assert _names(card) == [("option_key", "mdkdir")]
    reason = card.detail["violations"][0]["reason"]
    assert "build() in index.js reads no mdkdir" in reason, reason
    assert "did you mean `mkdir`?" in reason
    assert card.detail["checked_by_kind"]["option_key"] == 8


def test_a_parameter_passed_to_a_function_not_followed_leaves_the_keys_open(
    tmp_path: Path,
) -> None:
    repo = make_repo(tmp_path / "repo", PRETTY)
    code = "const { open } = require('pretty')\nopen({ url: 'x', tiemout: 5 })\n"
    card = _check(code, tmp_path, repo)
    assert card.detail["violations"] == []
    reasons = [u["reason"] for u in card.detail["unjudged"]]
    assert any("open() passes opts to send(), which is not followed" in r for r in reasons), reasons


def _serve(tmp_path: Path, code: dict[str, str]) -> Path:
    """The ``serve`` package: its JavaScript ``code`` beside a hand-written serve.d.ts that
    declares only the option ``logger``."""
    return make_repo(
        tmp_path / "repo",
        {
            "package.json": json.dumps(
                {"name": "serve", "main": "serve.js", "types": "serve.d.ts"}
            ),
            "serve.d.ts": (
                "interface Options { logger?: boolean }\n"
                "declare function serve(opts?: Options): void;\n"
                "export default serve;\n"
            ),
            **code,
        },
    )


def test_a_key_the_code_reads_is_no_defect_beside_a_lagging_declaration(
    tmp_path: Path,
) -> None:
    # The hand-written serve.d.ts leaves out `port`, which serve.js reads: not a defect;
    # a key neither declares nor reads is.
    repo = _serve(
        tmp_path,
        {
            "serve.js": (
                "function serve(opts) { return { port: opts.port, log: opts.logger } }\n"
                "module.exports = serve;\n"
            ),
        },
    )
    code = 'require("serve")({ logger: true, port: 80, prot: 81 });\n'
    card = _check(code, tmp_path, repo)
    assert _names(card) == [("option_key", "prot")]
    reason = card.detail["violations"][0]["reason"]
    assert "Options declares no prot, and serve() in serve.js reads none" in reason, reason


def test_a_key_the_code_is_seen_to_read_is_no_defect_though_its_reads_are_open(
    tmp_path: Path,
) -> None:
    """fastify: the declarations dropped ``useSemicolonDelimiter`` from the server's options,
    but the code still reads it, by each name of a constant list, in a function of another
    file it hands the options to, after a use whose keys cannot be told (``send``); a key
    nothing declares or reads is still a finding."""
    repo = _serve(
        tmp_path,
        {
            "serve.js": (
                "const { buildRouterOptions } = require('./lib/route')\n"
                "function serve(options) {\n"
                "  options = Object.assign({}, options)\n"
                "  send(options)\n"
                "  const router = buildRouterOptions(options)\n"
                "  return { router, log: options.logger }\n"
                "}\n"
                "module.exports = serve;\n"
            ),
            "lib/route.js": (
                "const routerKeys = ['caseSensitive', 'useSemicolonDelimiter']\n"
                "function buildRouterOptions(options) {\n"
                "  const out = {}\n"
                "  for (const key of routerKeys) { out[key] = options[key] }\n"
                "  return out\n"
                "}\n"
                "module.exports = { buildRouterOptions }\n"
            ),
        },
    )
    code = 'require("serve")({ logger: true, useSemicolonDelimiter: true, caseSensitiv: 1 });\n'
    card = _check(code, tmp_path, repo)
    assert _names(card) == [("option_key", "caseSensitiv")]
    reason = card.detail["violations"][0]["reason"]
    assert "did you mean `caseSensitive`?" in reason, reason


def test_a_default_export_made_by_a_call_is_typed_by_the_functions_return_type(
    tmp_path: Path,
) -> None:
    # `export default createInstance()`: the value is what createInstance declares it
    # returns, so its members and the keys passed to them are judged.
    repo = make_repo(
        tmp_path / "repo",
        {
            "package.json": json.dumps({"name": "@acme/http", "exports": {".": "./src/index.ts"}}),
            "src/index.ts": (
                "export interface Options { timeout?: number; prefix?: string }\n"
                "export interface Instance {\n"
                "  get(url: string, options?: Options): void;\n"
                "  extend(options: Options): Instance;\n"
                "}\n"
                "export function createInstance(defaults?: Options): Instance {\n"
                "  return {} as Instance;\n"
                "}\n"
                "export default createInstance();\n"
            ),
        },
    )
    code = (
        'import http from "@acme/http";\n'
        'http.get("x", { timeout: 1, prefx: "/" });\n'
        'http.gte("x");\n'
        "http.extend({ prefix: '/api' });\n"
    )
    card = _check(code, tmp_path, repo)
    assert _names(card) == [("member", "http.gte"), ("option_key", "prefx")]
    reasons = {v["name"]: v["reason"] for v in card.detail["violations"]}
    assert "Options declares no prefx" in reasons["prefx"], reasons
    assert "did you mean `get`?" in reasons["http.gte"], reasons


def test_a_default_export_made_by_a_function_with_no_declared_type_says_so(
    tmp_path: Path,
) -> None:
    repo = make_repo(
        tmp_path / "repo",
        {
            "package.json": json.dumps({"name": "fetchy", "main": "index.js"}),
            "index.js": (
                "const createInstance = defaults => {\n"
                "  const http = (input, options) => fetch(input, { ...defaults, ...options })\n"
                "  http.get = (input, options) => http(input, options)\n"
                "  return http\n"
                "}\n"
                "export default createInstance();\n"
            ),
        },
    )
    code = 'import http from "fetchy";\nawait http.get("x", { prefx: "/" });\nhttp({ prefx: 1 });\n'
    card = _check(code, tmp_path, repo)
    assert card.detail["violations"] == []
    reasons = [u["reason"] for u in card.detail["unjudged"]]
    said = (
        "default is made by createInstance(), whose declared return type names no product "
        "class or interface the model resolves"
    )
    assert f"the keys passed to http.get() are not judged: {said}" in reasons, reasons
    assert f"the keys passed to http() are not judged: {said}" in reasons, reasons


def test_a_javascript_default_export_typed_by_its_declaration_file(tmp_path: Path) -> None:
    # index.js makes the value with a function that declares nothing; index.d.ts, which
    # TypeScript reads for index.js, declares it `declare const inst: Static`.
    repo = make_repo(
        tmp_path / "repo",
        {
            "package.json": json.dumps({"name": "reqs", "main": "index.js"}),
            "index.js": (
                "const make = () => ({ get: (url, o) => o })\n"
                "const inst = make()\n"
                "export default inst\n"
            ),
            "index.d.ts": (
                "interface Options { timeout?: number; params?: object }\n"
                "interface Static { get(url: string, options?: Options): void }\n"
                "declare const inst: Static;\n"
                "export default inst;\n"
            ),
        },
    )
    code = 'import reqs from "reqs";\nreqs.get("x", { timeot: 1, params: {} });\nreqs.gett();\n'
    card = _check(code, tmp_path, repo)
    assert _names(card) == [("member", "reqs.gett"), ("option_key", "timeot")]
    reasons = {v["name"]: v["reason"] for v in card.detail["violations"]}
    assert "Options declares no timeot" in reasons["timeot"], reasons


FACTORY = {
    "package.json": json.dumps({"name": "pretty", "main": "index.js"}),
    "index.js": (
        "const defaultOptions = { colorize: false, crlf: false }\n"
        "module.exports = function prettyFactory (options) {\n"
        "  const opts = Object.assign({}, defaultOptions, options)\n"
        "  return opts.translateTime ? opts.messageKey : opts.levelFirst\n"
        "}\n"
    ),
}


def test_a_module_that_is_a_named_function_expression_reads_its_keys(tmp_path: Path) -> None:
    # `module.exports = function prettyFactory (options) { ... }`: the module is that
    # function, as `function prettyFactory ...; module.exports = prettyFactory` makes it.
    repo = make_repo(tmp_path / "repo", FACTORY)
    code = "const pretty = require('pretty')\npretty({ colorize: true, dateFormat: 'x' })\n"
    card = _check(code, tmp_path, repo)
    assert _names(card) == [("option_key", "dateFormat")]
    reason = card.detail["violations"][0]["reason"]
    assert "prettyFactory() in index.js reads no dateFormat" in reason, reason


def test_an_object_literal_shown_alone_is_judged_as_the_options_it_matches(
    tmp_path: Path,
) -> None:
    # A README's options block: a fence that is one object literal, whose keys are mostly
    # those build() reads; the one it does not read is a finding (a syntax slip after a key,
    # the missing comma, does not hide the keys before it).
    repo = make_repo(tmp_path / "repo", PRETTY)
    code = (
        "{\n"
        "  colorize: false, // --colorize\n"
        "  levelFirst: false,\n"
        "  translateTime: false // --translateTime\n"
        "  destination: 1,\n"
        "  sync: false,\n"
        "  mdkdir: true,\n"
        "}"
    )
    card = _check(code, tmp_path, repo)
    assert _names(card) == [("option_key", "mdkdir")]
    reason = card.detail["violations"][0]["reason"]
    assert "build() in index.js reads no mdkdir" in reason and "`mkdir`" in reason, reason


def test_an_object_literal_shown_alone_that_matches_no_function_is_not_judged(
    tmp_path: Path,
) -> None:
    # Two of five keys are build()'s: the literal does not say it is build()'s options.
    repo = make_repo(tmp_path / "repo", PRETTY)
    code = "{\n  colorize: false,\n  sync: true,\n  compilerOptions: {},\n  include: [],\n  x: 1\n}"
    card = _check(code, tmp_path, repo)
    assert card.detail["violations"] == []
    reasons = [u["reason"] for u in card.detail["unjudged"]]
    shown = "no function or type of the product takes most of its keys (2 of 5"
    assert any(shown in r for r in reasons), reasons


def test_an_object_literal_shown_alone_is_never_passed_over(tmp_path: Path) -> None:
    # Too few keys to tell whose options they are, or keys no function of the product
    # takes: listed with why (a bare object type of a doc's error context, `{ pos: number }`).
    repo = make_repo(tmp_path / "repo", PRETTY)
    few = _check("{\n  pos: number // where it was found\n}", tmp_path, repo)
    # The literal is listed, then each key by name at its line.
    assert {u["reason"] for u in few.detail["unjudged"]} == {
        "an object literal shown alone: its 1 key(s) are too few to tell which function or "
        "type of the product takes it"
    }, few.detail
    assert [u["text"] for u in few.detail["unjudged"]][:1] == ["{ pos }"]
    assert [u.get("name") for u in few.detail["unjudged"]] == [None, "pos"]
    none = _check("{\n  alpha: 1,\n  beta: 2,\n  gamma: 3\n}", tmp_path, repo)
    assert [u["text"] for u in none.detail["unjudged"]][:1] == ["{ alpha, beta, gamma }"]
    assert [u.get("name") for u in none.detail["unjudged"]] == [None, "alpha", "beta", "gamma"]
    assert {u["reason"] for u in none.detail["unjudged"]} == {
        "an object literal shown alone: no function or type of the product whose keys the "
        "model closes takes any of its keys"
    }, none.detail


def test_keys_read_by_another_files_functions_and_below_a_key(tmp_path: Path) -> None:
    # request() hands its options to normalize() of lib/normalize.js (required whole) and
    # their `retry` to readRetry() of lib/retry.js (required by name): both are read, and
    # the keys below `retry` are judged against what readRetry() reads of it.
    repo = make_repo(
        tmp_path / "repo",
        {
            "package.json": json.dumps({"name": "req", "main": "index.js"}),
            "index.js": (
                "const normalize = require('./lib/normalize')\n"
                "const { readRetry } = require('./lib/retry')\n"
                "function request (url, options) {\n"
                "  normalize(options)\n"
                "  const { retry = {} } = options\n"
                "  return readRetry(retry)\n"
                "}\n"
                "module.exports = request\n"
            ),
            "lib/normalize.js": (
                "function normalize (o) { if (o.timeout) { return o.headers } }\n"
                "module.exports = normalize\n"
            ),
            "lib/retry.js": (
                "function readRetry (r) { return r.limit + r.backoff }\n"
                "module.exports = { readRetry }\n"
            ),
        },
    )
    code = (
        "const request = require('req')\n"
        "request('x', { timeout: 1, headers: {}, retry: { limit: 2, backof: 3 } })\n"
        "request('x', { timeot: 1 })\n"
    )
    card = _check(code, tmp_path, repo)
    assert _names(card) == [("option_key", "backof"), ("option_key", "timeot")]
    reasons = {v["name"]: v["reason"] for v in card.detail["violations"]}
    assert "takes no option retry.backof" in reasons["backof"], reasons
    assert "did you mean `backoff`?" in reasons["backof"], reasons
    assert "request() in index.js reads no timeot" in reasons["timeot"], reasons
    assert card.detail["checked_by_kind"]["option_key"] == 6


def test_functions_of_two_files_that_call_each_other_are_read_once_each(tmp_path: Path) -> None:
    # build() hands its options to walk() of lib/walk.js, which hands them back to
    # build(): the cycle is cut where it closes, and what each reads is counted.
    repo = make_repo(
        tmp_path / "repo",
        {
            "package.json": json.dumps({"name": "cyc", "main": "index.js"}),
            "index.js": (
                "const walk = require('./lib/walk')\n"
                "function build (o) { if (o.depth) { walk(o) } return o.name }\n"
                "module.exports = { build }\n"
            ),
            "lib/walk.js": (
                "const { build } = require('../index')\n"
                "function walk (p) { p.depth -= 1; build(p); return p.seen }\n"
                "module.exports = walk\n"
            ),
        },
    )
    code = "const { build } = require('cyc')\nbuild({ depth: 2, name: 'x', seen: 1, sen: 2 })\n"
    card = _check(code, tmp_path, repo)
    assert _names(card) == [("option_key", "sen")]
    assert card.detail["checked_by_kind"]["option_key"] == 4
