"""Gate 15 on the API model for JavaScript/TypeScript samples: members of values whose type
the sample shows (a product factory's declared return type, a method's, a field's, an
annotation), through chains and with inherited members, and option-object keys against the
parameter's declared type, nested keys included."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_postgates.gates import code_samples as gate
from pytest_postgates.scorecard import Scorecard
from tests.helpers import make_post, make_repo, repo_context

FILES = {
    "package.json": json.dumps({"name": "@acme/net", "exports": {".": "./src/index.ts"}}),
    "src/index.ts": (
        'export { Client, createClient, both } from "./client.js";\n'
        'export type { ClientOptions } from "./client.js";\n'
    ),
    "src/base.ts": "export class Base { close(): void {} }\n",
    "src/client.ts": (
        'import { Base } from "./base.js";\n'
        "export interface RetryOptions { attempts: number; backoff?: { initialMs: number } }\n"
        "export interface ClientOptions {\n"
        "  timeoutMs?: number;\n"
        "  retry?: RetryOptions;\n"
        "  hooks?: { onFailure?: Array<() => void> };\n"
        "}\n"
        "export class Stream { read(): string { return ''; } pipe(): this { return this; } }\n"
        "export class Request { clientOptions: ClientOptions = {}; }\n"
        "export class Response {\n"
        "  request: Request = new Request();\n"
        "  json(): unknown { return 1; }\n"
        "}\n"
        "export class Client extends Base {\n"
        "  constructor(options?: ClientOptions) { super(); }\n"
        "  openStreams(): Stream { return new Stream(); }\n"
        "  async fetch(url: string): Promise<Response> { return new Response(); }\n"
        "  extend(options: ClientOptions): Client { return this; }\n"
        "}\n"
        "export function both(): Client & Stream { return new Client() as never; }\n"
        "export function createClient(options?: ClientOptions): Client {\n"
        "  return new Client(options);\n"
        "}\n"
    ),
}


@pytest.fixture(scope="module")
def net_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("net"), FILES)


def _check(code: str, tmp_path: Path, repo: Path) -> Scorecard:
    body = f"Intro.\n\n```typescript\n{code}\n```\n"
    return gate.GATE.evaluate(make_post(body, tmp_path), repo_context(repo, tmp_path / "cache"))


def _names(card: Scorecard) -> list[tuple[str, str]]:
    return sorted((v["kind"], v["name"]) for v in card.detail["violations"])


def test_members_of_a_factorys_result_through_chains_and_inheritance(
    tmp_path: Path, net_repo: Path
) -> None:
    code = (
        'import { createClient } from "@acme/net";\n'
        "const app = createClient();\n"
        "app.openStream();\n"
        "app.openStreams().read();\n"
        "app.openStreams().pipe().red();\n"
        "app.close();\n"
        "const res = await app.fetch('x');\n"
        "res.request.clientOptions;\n"
        "res.request.clientOption;\n"
    )
    card = _check(code, tmp_path, net_repo)
    assert _names(card) == [
        ("member", "app.openStream"),
        ("member", "app.openStreams().pipe().red"),
        ("member", "res.request.clientOption"),
    ]
    reasons = {v["name"]: v["reason"] for v in card.detail["violations"]}
    assert "did you mean `openStreams`?" in reasons["app.openStream"]
    assert (
        "Stream declares no member red; did you mean `read`?"
        in reasons["app.openStreams().pipe().red"]
    )
    assert "`clientOptions`" in reasons["res.request.clientOption"]
    assert card.detail["checked_by_kind"]["member"] >= 7


def test_annotated_values_and_types_outside_the_product(tmp_path: Path, net_repo: Path) -> None:
    code = (
        'import { Client, createClient, both } from "@acme/net";\n'
        "both().anything;\n"  # an intersection's members are not followed
        "const made = createClient();\n"
        'Object.defineProperty(made, "tracer", { value: 1 });\n'
        "made.tracer;\n"  # the sample adds it at run time'
        "function use(client: Client) { client.opn(); }\n"
        "const held: Client = make();\n"
        "held.extnd({});\n"
        "const res = await createClient().fetch('x');\n"
        "res.json().body;\n"
    )
    card = _check(code, tmp_path, net_repo)
    assert _names(card) == [("member", "Client.extnd"), ("member", "Client.opn")]
    reasons = [u["reason"] for u in card.detail["unjudged"]]
    assert any("Response.json declares no product class" in r for r in reasons), reasons
    assert any(r.startswith("both().anything: the type of the value") for r in reasons)
    assert any("names 'tracer' as a string: it may add it at run time" in r for r in reasons)


def test_option_object_keys_against_the_declared_parameter_type(
    tmp_path: Path, net_repo: Path
) -> None:
    code = (
        'import { Client, createClient } from "@acme/net";\n'
        "const app = createClient({ timeoutMs: 5, retry: { attempts: 3, backof: {} } });\n"
        "const c = new Client({ timeoutMs: 1, hooks: { onFailure: [], onFail: [] } });\n"
        "c.extend({ timeoutMss: 3 });\n"
        "app.extend({ retry: { attempts: 1, backoff: { initialMs: 2 } } });\n"
    )
    card = _check(code, tmp_path, net_repo)
    assert _names(card) == [
        ("option_key", "backof"),
        ("option_key", "onFail"),
        ("option_key", "timeoutMss"),
    ]
    by_name = {v["name"]: v for v in card.detail["violations"]}
    assert "createClient() takes no option retry.backof" in by_name["backof"]["reason"]
    assert "did you mean `backoff`?" in by_name["backof"]["reason"]
    assert "did you mean `timeoutMs`?" in by_name["timeoutMss"]["reason"]
    assert card.findings[0].code == "UNKNOWN_OPTION_KEY"
    assert card.detail["checked_by_kind"]["option_key"] >= 11


def test_a_build_output_main_and_a_commonjs_re_export_are_read_on_the_model(
    tmp_path: Path,
) -> None:
    # `main` names a build output the repository does not hold and there is no `exports`:
    # the model maps it back to its source; the entry re-exports a class it requires.
    repo = make_repo(
        tmp_path / "repo",
        {
            "package.json": json.dumps({"name": "agentkit", "main": "dist/index.js"}),
            "src/index.js": (
                'const { Agent } = require("./agent");\n'
                "function helper() {}\n"
                "module.exports = { Agent, helper };\n"
            ),
            "src/agent.js": "class Agent { clearAll() {} run() {} }\nmodule.exports = { Agent };\n",
        },
    )
    code = (
        'const { Agent, helpr } = require("agentkit");\n'
        "new Agent().clearAll();\n"
        "const agent = new Agent();\n"
        "agent.rnu();\n"
    )
    card = _check(code, tmp_path, repo)
    assert card.detail["resolved"] == {"agentkit": "src/index.js"}
    assert _names(card) == [("member", "agent.rnu"), ("named_export", "helpr")]
    reasons = {v["name"]: v["reason"] for v in card.detail["violations"]}
    assert "did you mean `helper`?" in reasons["helpr"]
    assert "did you mean `run`?" in reasons["agent.rnu"]


def test_documented_signatures_name_the_products_parameters(tmp_path: Path) -> None:
    repo = make_repo(
        tmp_path / "repo",
        {
            "package.json": json.dumps({"name": "docfmt", "exports": {".": "./src/index.js"}}),
            "src/index.js": (
                "function ifBreak(breakContents, flatContents, opts = {}) {}\n"
                "function makeString(rawText, enclosingQuote, unescapeEscapes) {}\n"
                "module.exports = { ifBreak, makeString };\n"
            ),
            # An internal helper sharing its name with a hook the docs ask readers to write.
            "src/preprocess.js": (
                "function preprocess(ast, options) {}\nexport default preprocess;\n"
            ),
        },
    )
    body = (
        "Builders:\n\n```ts\n"
        "declare function ifBreak(\n  breakContents: Doc,\n  noBreak?: Doc,\n"
        "  options?: { groupId?: symbol }\n): Doc;\n```\n\n"
        "Utilities:\n\n```ts\n"
        "makeString(rawContent: string, enclosingQuote: string, unescapeEscape: boolean): string;\n"
        "getStringWidth(text: string): number;\n```\n\n"
        "A plugin's hook:\n\n```ts\n"
        "function preprocess(text: string, options: object): string;\n```\n\n"
        "A reader's own function documents nothing:\n\n```js\n"
        "function ifBreak(a, whatever) { return a; }\n```\n"
    )
    card = gate.GATE.evaluate(make_post(body, tmp_path), repo_context(repo, tmp_path / "cache"))
    # `options` abbreviates to `opts` and `rawContent` shares a word with `rawText`: the
    # docs' way of writing the same parameters; `getStringWidth` is no product function.
    assert _names(card) == [("parameter", "noBreak"), ("parameter", "unescapeEscape")]
    by_name = {v["name"]: v for v in card.detail["violations"]}
    assert "ifBreak's parameter 2 is `flatContents` in src/index.js" in by_name["noBreak"]["reason"]
    assert "did you mean `unescapeEscapes`?" in by_name["unescapeEscape"]["reason"]
    assert card.findings[0].code == "UNKNOWN_PARAMETER"
    assert card.detail["checked_by_kind"]["parameter"] == 6


def test_a_commonjs_factory_typed_by_its_declaration_file(tmp_path: Path) -> None:
    # `module.exports = serve` in JavaScript, its types in the sibling serve.d.ts (the
    # manifest's `types`): `require("serve")()` and a required module called both return
    # the declared Instance, and the options object is the declared Options.
    repo = make_repo(
        tmp_path / "repo",
        {
            "package.json": json.dumps(
                {"name": "serve", "main": "serve.js", "types": "serve.d.ts"}
            ),
            "serve.js": "function serve(opts) { return {}; }\nmodule.exports = serve;\n",
            "serve.d.ts": (
                'import { Instance } from "./types/instance";\n'
                "interface Options { logger?: boolean }\n"
                "declare function serve(opts?: Options): Instance;\n"
                "export default serve;\n"
            ),
            "types/instance.d.ts": (
                "export interface Instance { addHttpMethod(m: string): void; listen(): void }\n"
            ),
        },
    )
    code = (
        'const app = require("serve")({ logger: true, loger: 1 });\n'
        "app.addHttpMethd('X');\n"
        'const serve = require("serve");\n'
        "serve().listen();\n"
        "serve().lisen();\n"
    )
    card = _check(code, tmp_path, repo)
    assert _names(card) == [
        ("member", "app.addHttpMethd"),
        ("member", "serve().lisen"),
        ("option_key", "loger"),
    ]
    reasons = {v["name"]: v["reason"] for v in card.detail["violations"]}
    assert "did you mean `addHttpMethod`?" in reasons["app.addHttpMethd"]
    assert "Options declares no loger" in reasons["loger"]


def test_typescripts_this_pseudo_parameter_is_no_argument(tmp_path: Path) -> None:
    # `this: unknown` types the receiver; the caller's first argument is `fn`.
    repo = make_repo(
        tmp_path / "repo",
        {
            "package.json": json.dumps({"name": "runner", "exports": {".": "./src/index.ts"}}),
            "src/index.ts": (
                "export function beforeAll(this: unknown, fn: () => void, timeout?: number)"
                ": void {}\n"
            ),
        },
    )
    body = (
        "Hooks:\n\n```ts\n"
        "declare function beforeAll(fn: () => void, timeout?: number): void;\n"
        "declare function beforeAll(fn: () => void, timeoutMs?: number): void;\n```\n"
    )
    card = gate.GATE.evaluate(make_post(body, tmp_path), repo_context(repo, tmp_path / "cache"))
    assert _names(card) == [("parameter", "timeoutMs")]
    assert "beforeAll's parameter 2 is `timeout`" in card.detail["violations"][0]["reason"]
    assert card.detail["checked_by_kind"]["parameter"] == 4


def test_type_imports_read_the_packages_type_declarations(tmp_path: Path) -> None:
    # The runtime entry (index.js) has no types; the `types` condition's index.d.ts does.
    manifest = {"name": "fmt", "exports": {".": {"types": "./src/index.d.ts",
                                                 "default": "./src/index.js"}}}  # fmt: skip
    repo = make_repo(
        tmp_path / "repo",
        {
            "package.json": json.dumps(manifest),
            "src/index.js": "export function format(text) { return text; }\n",
            "src/index.d.ts": (
                "export interface Config { semi?: boolean }\n"
                "export function format(text: string): string;\n"
            ),
        },
    )
    code = (
        'import { type Config, format } from "fmt";\n'
        'import { Config as Settings } from "fmt";\n'
        'import { type Options } from "fmt";\n'
        'import { parse } from "fmt";\n'
        "const config: Config = { semi: false };\n"
    )
    card = _check(code, tmp_path, repo)
    assert _names(card) == [("named_export", "Options"), ("named_export", "parse")]


# A JavaScript product whose factories declare no return type: what each body makes.
MADE = {
    "package.json": json.dumps({"name": "charty", "main": "index.js"}),
    "index.js": (
        'const { Chart } = require("./chart");\n'
        "function createChart(item, config) {\n"
        "  if (!item) { return new Chart(null, config); }\n"
        "  const helper = () => new Map();\n"
        "  return new Chart(item, config);\n"
        "}\n"
        "const quick = (item) => (new Chart(item, {}));\n"
        "function either(item) { return item ? new Chart(item, {}) : null; }\n"
        "function nothing(item) { new Chart(item, {}); }\n"
        "async function later(item) { return new Chart(item, {}); }\n"
        "module.exports = { createChart, quick, either, nothing, later, Chart };\n"
    ),
    "chart.js": (
        "class Chart {\n"
        "  constructor(item, config) { this.item = item; this.config = config; }\n"
        "  update() {}\n"
        "  setDatasetVisibility(index, visible) {}\n"
        "}\n"
        "module.exports = { Chart };\n"
    ),
}


def test_a_factory_whose_every_return_is_a_new_of_one_class_gives_that_class(
    tmp_path: Path,
) -> None:
    """A function with no declared return type whose every ``return`` (nested functions
    aside; an arrow's expression body) is a ``new`` of one product class gives an instance
    of it; one that may return anything else, or returns nothing, types nothing, and an
    async one gives a promise (its ``catch`` is no member of the class)."""
    repo = make_repo(tmp_path / "repo", MADE)
    code = (
        'const { createChart, quick, either, nothing } = require("charty");\n'
        "const chart = createChart(el, {});\n"
        "chart.update();\n"
        "chart.setDataVisibility(0, 2, false);\n"
        "quick(el).updat();\n"
        "either(el).setDataVisibility(0);\n"
        "nothing(el).setDataVisibility(0);\n"
        "later(el).catch(() => 1);\n"
    )
    card = _check(code, tmp_path, repo)
    assert _names(card) == [
        ("member", "chart.setDataVisibility"),
        ("member", "quick(el).updat"),
    ]
    reasons = {v["name"]: v["reason"] for v in card.detail["violations"]}
    assert "Chart declares no member setDataVisibility" in reasons["chart.setDataVisibility"]
    unjudged = {u.get("name") or u["text"] for u in card.detail["unjudged"]}
    assert any("either(el).setDataVisibility" in u for u in unjudged), card.detail["unjudged"]


def test_a_declaration_file_types_a_javascript_factory_before_its_body(tmp_path: Path) -> None:
    """TypeScript reads ``index.d.ts``, not the body, for ``index.js``: the declared return
    type wins over the class the body makes."""
    files = {
        "package.json": json.dumps({"name": "charty", "main": "index.js"}),
        "index.js": (
            "class Draft { sketch() {} }\n"
            "function make() { return new Draft(); }\n"
            "module.exports = { make, Draft };\n"
        ),
        "index.d.ts": (
            "export declare class Draft { sketch(): void; }\n"
            "export declare class Final { publish(): void; }\n"
            "export declare function make(): Final;\n"
        ),
    }
    repo = make_repo(tmp_path / "repo", files)
    code = 'const { make } = require("charty");\nmake().publish();\nmake().sketch();\n'
    card = _check(code, tmp_path, repo)
    assert card.detail["violations"] == [], card.detail
    # `sketch` is Draft's, not Final's: judged on Final, whose hand-written declaration
    # may lag the code that names it (listed unjudged, with Final as the type).
    [entry] = [u for u in card.detail["unjudged"] if u["text"] == "make().sketch();"]
    assert "Final (index.d.ts) does not declare sketch" in entry["reason"], entry
