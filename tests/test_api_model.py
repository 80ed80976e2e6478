"""The API model (evidence/api_model.py): what the product's code declares, from syntax
trees, and the questions gates ask of it."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_postgates.evidence.api_model import ApiModel, api_model, build_model
from pytest_postgates.evidence.index import open_index
from pytest_postgates.evidence.model_facts import ModelFacts, is_product_code
from pytest_postgates.evidence.model_python import module_names
from pytest_postgates.evidence.model_sources import product_sources
from pytest_postgates.evidence.name_spelling import words
from pytest_postgates.evidence.near_miss import near_name
from tests.helpers import make_repo

PY_CLIENT = '''
"""A client."""
from .transport import Transport

__all__ = ["Client", "open_client", "DEFAULT_TIMEOUT"]
DEFAULT_TIMEOUT = 5.0


class Base:
    def close(self) -> None: ...


class Client(Base):
    retries: int = 3

    def __init__(self, base_url: str, *, max_retry_delay: float = 1.0, **extra) -> None:
        self.base_url = base_url
        self._session = None

    def open_streams(self, count: int) -> "Stream":
        return Stream()

    async def send(self, request, timeout=None) -> None: ...


class Stream:
    def read(self) -> bytes: ...


def open_client(url: str) -> Client:
    return Client(url)


def _private() -> None:
    config = {}
    config.get("cache_dir")
'''
PY_CLI = """
import click


@click.group()
def cli() -> None: ...


@cli.command("serve")
@click.option("--cache-dir", "-c")
@click.option("--verbose/--quiet")
def serve(cache_dir: str, verbose: bool) -> None: ...
"""
TS_LIB = """
export interface GenerateOptions { provider?: string; maxTokens?: number }
export class NeuroLink extends EventEmitter {
  async generate(options: GenerateOptions) { return {}; }
  stream(options: GenerateOptions) {}
}
export function createProvider(name: string, opts?: { region: string }) {}
"""
FILES = {
    "src/mylib/__init__.py": "from .client import Client, open_client\n",
    "src/mylib/client.py": PY_CLIENT,
    "src/mylib/transport.py": "class Transport:\n    def handle(self): ...\n",
    "src/mylib/cli.py": PY_CLI,
    "tests/test_client.py": "def test_x():\n    max_retry = 1\n    client_under_test = 2\n",
    "docs/guide.md": "Use `Client.open_stream()` and `max_retry`.\n",
    "src/lib/neurolink.ts": "import { EventEmitter } from 'events';\n" + TS_LIB,
    "examples/demo.ts": "export function demoOnlyHelper() {}\n",
}


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> ApiModel:
    root = make_repo(tmp_path_factory.mktemp("model"), FILES)
    index = open_index(root, "HEAD", tmp_path_factory.mktemp("cache"))
    return build_model(index.commit, product_sources(index))


def test_only_product_code_is_read(model: ApiModel) -> None:
    # A test's variable, a doc's prose and an example's helper are not the product's API.
    assert not model.declares("max_retry")
    assert not model.declares("client_under_test")
    assert not model.declares("demoOnlyHelper")
    assert not model.declares("open_stream")
    assert all(is_product_code(d.path) for d in model.facts.decls)


def test_a_subpackage_named_like_a_test_folder_is_product_code(tmp_path: Path) -> None:
    # hatch's `test` command lives in `hatch/cli/test/`; a package's own `tests/` holding
    # test modules, and the repository's `tests/`, are still tests.
    files = {
        "src/tool/__init__.py": "",
        "src/tool/cli/__init__.py": "",
        "src/tool/cli/test/__init__.py": (
            "import click\n\n@click.command()\n"
            '@click.option("--cover-quiet", is_flag=True)\ndef test(cover_quiet): ...\n'
        ),
        "src/tool/cli/test/runner.py": "def run_suite() -> None: ...\n",
        "src/tool/tests/__init__.py": "",
        "src/tool/tests/test_cli.py": "def packaged_check() -> None: ...\n",
        "src/tool/tests/helpers.py": "def packaged_helper() -> None: ...\n",
        "tests/__init__.py": "",
        "tests/unit/__init__.py": "",
        "tests/unit/fakes.py": "def repository_fake() -> None: ...\n",
    }
    index = open_index(make_repo(tmp_path / "repo", files), "HEAD", tmp_path / "cache")
    model = build_model(index.commit, product_sources(index))
    assert model.declares("run_suite")
    assert "cover-quiet" in model.facts.flags
    for name in ("packaged_check", "packaged_helper", "repository_fake"):
        assert not model.declares(name), name


SITE_SCRIPT = "function display(el) { el.hidden = false; }\n"


@pytest.mark.parametrize(
    ("files", "read"),
    [
        # A Jekyll blog: its scripts are files the site serves; its plugins are code.
        (
            {
                "_config.yml": "title: Notes\n",
                "_layouts/post.html": "{{ content }}\n",
                "_plugins/tags.rb": "module Jekyll; end\n",
                "assets/js/page.js": SITE_SCRIPT,
            },
            False,
        ),
        (
            {
                "hugo.toml": "title = 'Notes'\n",
                "content/a.md": "A\n",
                "static/page.js": SITE_SCRIPT,
            },
            False,
        ),
        # A library whose `_config.yml` only picks a GitHub Pages theme keeps its code.
        ({"_config.yml": "theme: minima\n", "src/page.js": SITE_SCRIPT}, True),
        # A Python package that also builds a Jekyll site at its root is still a package.
        (
            {
                "_config.yml": "title: Notes\n",
                "_layouts/post.html": "{{ content }}\n",
                "pyproject.toml": "[project]\nname = 'pages'\n",
                "assets/page.js": SITE_SCRIPT,
            },
            True,
        ),
    ],
)
def test_a_static_sites_served_scripts_are_not_the_product(
    files: dict[str, str], read: bool, tmp_path: Path
) -> None:
    index = open_index(make_repo(tmp_path / "site", files), "HEAD", tmp_path / "cache")
    model = build_model(index.commit, product_sources(index))
    assert bool(model.declares("display")) is read
    assert not any(path.endswith(".rb") for path in product_sources(index))


def test_python_modules_public_names_members_and_parameters(model: ApiModel) -> None:
    assert model.resolve(["mylib", "client", "Client"]).outcome == "found"
    assert model.resolve(["mylib", "Client"]).outcome == "found"  # re-exported
    assert model.resolve(["mylib", "client", "DEFAULT_TIMEOUT"]).outcome == "found"
    members, problem = model.members("Client")
    assert problem is None
    # own methods, class attributes, self.x attributes and inherited members
    assert {"open_streams", "send", "retries", "base_url", "_session", "close"} <= members
    assert "max_retry_delay" in {d.name for d in model.declares("max_retry_delay")}
    (init,) = model.callables["mylib.client.Client.__init__"]
    assert init.params == ["base_url", "max_retry_delay"] and init.var_keyword
    assert [d.name for d in model.declares("cache_dir") if d.kind == "key"] == ["cache_dir"]


def test_a_miss_names_the_part_and_the_nearest_real_names(model: ApiModel) -> None:
    miss = model.resolve(["Client", "open_stream"])
    assert (miss.outcome, miss.owner, miss.missing) == ("missing", "Client", "open_stream")
    assert miss.nearest[0] == "open_streams"
    module_miss = model.resolve(["mylib", "client", "Clinet"])
    assert (module_miss.outcome, module_miss.missing, module_miss.nearest[0]) == (
        "missing",
        "Clinet",
        "Client",
    )


def test_chains_follow_declared_return_types(model: ApiModel) -> None:
    assert model.resolve(["Client", "open_streams", "read"]).outcome == "found"
    miss = model.resolve(["Client", "open_streams", "readall"])
    assert (miss.outcome, miss.owner, miss.missing) == ("missing", "Stream", "readall")
    # A function's result whose type is not followed: the member must be some product
    # class's member, never a word of some text.
    assert model.resolve(["open_client", "invented_method"]).outcome == "missing"


def test_typescript_classes_interfaces_and_known_bases(model: ApiModel) -> None:
    assert model.resolve(["NeuroLink", "generate"]).outcome == "found"
    assert model.resolve(["NeuroLink", "emit"]).outcome == "found"  # EventEmitter's
    assert model.resolve(["neurolink", "stream"]).outcome == "found"  # an instance
    miss = model.resolve(["NeuroLink", "generateStream"])
    assert (miss.outcome, miss.missing) == ("missing", "generateStream")
    assert {"provider", "maxTokens"} <= {d.name for d in model.facts.decls if d.kind == "key"}


def test_an_unknown_base_makes_a_missing_member_unjudged(tmp_path: Path) -> None:
    root = make_repo(
        tmp_path / "repo",
        {
            "pkg/__init__.py": "",
            "pkg/m.py": "from x import Remote\nclass Local(Remote):\n    a = 1\n",
        },
    )
    index = open_index(root, "HEAD", tmp_path / "cache")
    model = build_model(index.commit, product_sources(index))
    answer = model.resolve(["Local", "anything"])
    assert answer.outcome == "unjudged" and "Remote" in answer.reason
    assert model.resolve(["Local", "a"]).outcome == "found"


def test_a_class_with_getattr_makes_a_missing_member_unjudged() -> None:
    # starlette's `State`: `request.state.http_client` is set by the reader at run time.
    source = (
        "class State:\n"
        "    def __init__(self) -> None:\n        self._state = {}\n"
        "    def __getattr__(self, key: str) -> object:\n        return self._state[key]\n"
        "class Sub(State):\n    pass\n"
        "class Plain:\n    a = 1\n"
    )
    model = build_model("c", {"pkg/m.py": source})
    for chain in (["State", "http_client"], ["Sub", "http_client"]):
        answer = model.resolve(chain)
        assert answer.outcome == "unjudged" and "__getattr__" in answer.reason, answer
    assert model.resolve(["Plain", "b"]).outcome == "missing"


def test_javascript_classes_keep_their_base_fields_and_commonjs_class_export() -> None:
    # undici's shapes: `class EventSource extends EventTarget`, fields a constructor sets on
    # `this`, and `module.exports = class SqliteCacheStore { ... }`.
    model = build_model(
        "c",
        {
            "lib/base.js": (
                "class PoolBase {\n  get stats () { return 1 }\n}\nmodule.exports = PoolBase\n"
            ),
            "lib/pool.js": (
                "const PoolBase = require('./base')\n"
                "class BalancedPool extends PoolBase {\n"
                "  constructor (opts) {\n    super()\n    this.location = null\n"
                "    const later = function () { this.notMine = 1 }\n"
                "    const arrow = () => { this.history = [] }\n  }\n}\n"
                "class EventSource extends EventTarget {}\n"
                "class Remote extends require('events').Other {}\n"
                "module.exports = { BalancedPool, EventSource, Remote }\n"
            ),
            "lib/store.js": (
                "module.exports = class SqliteCacheStore {\n"
                "  set (k, v) {}\n  get size () { return 1 }\n}\n"
            ),
        },
    )
    for chain in (["BalancedPool", "stats"], ["BalancedPool", "location"],
                  ["BalancedPool", "history"], ["EventSource", "addEventListener"],
                  ["SqliteCacheStore", "set"], ["SqliteCacheStore", "size"]):  # fmt: skip
        assert model.resolve(chain).outcome == "found", chain
    assert model.resolve(["BalancedPool", "notMine"]).outcome == "missing"
    assert model.resolve(["EventSource", "addListener"]).outcome == "missing"
    assert model.resolve(["Remote", "anything"]).outcome == "unjudged"


def test_typer_options_in_annotated_types_are_flags(tmp_path: Path) -> None:
    # `Annotated[int, typer.Option("-p", "--port")]`: the Option is in the type, not the default.
    app = (
        "from typing import Annotated\nimport typer\napp = typer.Typer()\n"
        "@app.command()\n"
        "def serve(host: Annotated[str, typer.Option('--bind')],\n"
        "          port: Annotated[int, typer.Option('-p', '--port')] = 8000,\n"
        "          *, log_level: Annotated[str, typer.Option()] = 'info') -> None: ...\n"
    )
    root = make_repo(tmp_path / "repo", {"tyke/__init__.py": "", "tyke/app.py": app})
    index = open_index(root, "HEAD", tmp_path / "cache")
    model = build_model(index.commit, product_sources(index))
    assert model.cli.flag("--port") and model.cli.flag("--bind") and model.cli.flag("--log-level")
    assert model.cli.flag("--host") is None  # its Option names the flag --bind


def test_cli_flags_and_commands_come_from_the_parser(model: ApiModel) -> None:
    assert (
        model.cli.flag("--cache-dir") and model.cli.flag("--quiet") and model.cli.flag("--verbose")
    )
    assert model.cli.flag("--cache") is None  # a word of a declared flag is not that flag
    assert "serve" in model.commands


def test_near_misses(model: ApiModel) -> None:
    assert near_name(model, "open_straems") == "open_streams"  # a typo
    # In a name of several words, a plural is a rename (`skipComment`, `skipComments`);
    # alone, a plural is a word of its own (`stream` is no near miss of `streams`).
    assert near_name(model, "open_stream") == "open_streams"
    assert near_name(model, "max_retry") is None or near_name(model, "max_retry") == (
        "max_retry_delay"
    )
    assert near_name(model, "max_retry_delays") == "max_retry_delay"
    assert near_name(model, "Client") is None  # declared
    assert near_name(model, "EventEmitter") is None  # written in the code (imported)
    assert near_name(model, "totally_unrelated_name") is None
    # One letter typed in or left out of a name of five letters or more.
    assert near_name(model, "cClient") in ("Client", "client")
    assert near_name(model, "opn_streams") == "open_streams"
    assert near_name(model, "Clients") is None  # a plural is a word of its own


def test_unparsable_files_are_listed_not_guessed(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "repo", {"pkg/__init__.py": "", "pkg/bad.py": "def (:\n"})
    index = open_index(root, "HEAD", tmp_path / "cache")
    model = build_model(index.commit, product_sources(index))
    assert "pkg/bad.py" in model.facts.unread


def test_cached_per_commit_and_a_corrupt_cache_is_rebuilt(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "repo", {"pkg/__init__.py": "def hello(): ...\n"})
    cache = tmp_path / "cache"
    index = open_index(root, "HEAD", cache)
    first = api_model(index, cache)
    (written,) = cache.glob("apimodel-*.json")
    assert json.loads(written.read_text())["commit"] == index.commit
    assert first.resolve(["pkg", "hello"]).outcome == "found"
    # Another process (no memory) reads the file; a corrupt file is rebuilt, not trusted.
    from pytest_postgates.evidence import api_model as module

    module._MODELS.clear()
    written.write_text("{not json")
    again = api_model(index, cache)
    assert again.resolve(["pkg", "hello"]).outcome == "found"
    assert json.loads(written.read_text())["commit"] == index.commit


def test_facts_round_trip_json(model: ApiModel) -> None:
    text = json.dumps(model.facts.to_json(), sort_keys=True)
    back = ModelFacts.from_json(json.loads(text))
    assert back.to_json() == model.facts.to_json()


@pytest.mark.parametrize(
    ("paths", "expected"),
    [
        (["src/pkg/__init__.py", "src/pkg/a.py"], {"src/pkg/a.py": "pkg.a"}),
        (["pkg/__init__.py", "pkg/sub/__init__.py", "pkg/sub/b.py"], {"pkg/sub/b.py": "pkg.sub.b"}),
        (["tool.py"], {"tool.py": "tool"}),
        (
            ["py-polars/polars/__init__.py", "py-polars/polars/io.py"],
            {"py-polars/polars/io.py": "polars.io"},
        ),
    ],
)
def test_module_names_follow_the_package_layout(paths: list[str], expected: dict[str, str]) -> None:
    names = module_names(paths)
    assert {p: names[p] for p in expected} == expected


@settings(max_examples=60, deadline=None)
@given(st.from_regex(r"[a-z]{2,6}(?:_[a-z]{2,6}){0,3}", fullmatch=True))
def test_snake_and_camel_spellings_have_the_same_words(name: str) -> None:
    # (One-letter words are ambiguous in camel case: `aAA` reads as `a` + an acronym.)
    camel = name.split("_")[0] + "".join(p.title() for p in name.split("_")[1:])
    assert words(name) == words(camel)


def test_flags_from_an_option_table_and_codes_from_a_prefix(tmp_path: Path) -> None:
    plugin = """
FLAGS = (("--tool-only", "only"), ("--tool-all", "all"))


def pytest_addoption(parser):
    for flag, key in FLAGS:
        parser.addoption(flag, dest=key)


def code_for(name):
    kind = {"yaml": "YAML"}[name]
    return f"FRONT_MATTER_{kind}"
"""
    root = make_repo(tmp_path / "repo", {"tool/__init__.py": "", "tool/plugin.py": plugin})
    index = open_index(root, "HEAD", tmp_path / "cache")
    model = build_model(index.commit, product_sources(index))
    assert model.cli.flag("--tool-only") and model.cli.flag("--tool-all")
    assert model.cli.flag("--only") is None
    assert model.resolve(["FRONT_MATTER_YAML"]).outcome == "found"
    # The rest of a made code must be a word the code writes.
    assert model.resolve(["FRONT_MATTER_TOML"]).outcome == "missing"


def test_a_name_a_module_imports_is_its_attribute_beside_all() -> None:
    # `__all__` lists what `import *` takes; `pkg.agent.Spec` still resolves (imported there),
    # while a name the module never binds stays a miss.
    model = build_model(
        "c",
        {
            "pkg/__init__.py": "",
            "pkg/agent/__init__.py": (
                "from .spec import Spec\nfrom .spec import _hidden\n__all__ = ['Agent']\n"
                "class Agent:\n    pass\n"
            ),
            "pkg/agent/spec.py": "class Spec:\n    def to_file(self): ...\n_hidden = 1\n",
        },
    )
    assert model.resolve(["pkg", "agent", "Spec", "to_file"]).outcome == "found"
    assert model.resolve(["pkg", "agent", "Spek"]).outcome == "missing"
    assert "_hidden" not in model.facts.modules["pkg.agent"]


def test_star_re_exports_are_followed_across_files() -> None:
    # `export * from` a folder (its index), a `.js` specifier naming the `.ts` file, chained;
    # the default export is not carried; a star from another package adds names the model
    # cannot list (`*`), and which package they are from (evidence/reexports.py).
    model = build_model(
        "c",
        {
            "index.d.ts": 'export * from "./lib";\nexport * from "other-package";\n',
            "lib/index.d.ts": (
                'export * from "./types.js";\nexport declare const version: string;\n'
            ),
            "lib/types.d.ts": (
                "export declare class Schema { parse(input: unknown): unknown }\n"
                "export declare function parse(text: string): Schema;\n"
                "declare const fallback: Schema;\nexport default fallback;\n"
            ),
        },
    )
    assert model.facts.modules["lib/types.d.ts"] == ["Schema", "parse"]
    assert model.facts.modules["lib/index.d.ts"] == ["Schema", "parse", "version"]
    assert model.facts.modules["index.d.ts"] == ["*", "Schema", "parse", "version"]
    assert model.facts.stars == {"index.d.ts": ["other-package"]}


def test_a_class_exported_under_another_name_has_its_members() -> None:
    # `export { A as B }`, in the declaring file or re-exported from another: B is A.
    model = build_model(
        "c",
        {
            "types.d.ts": (
                "declare class ZodType { parse(input: unknown): unknown; description?: string }\n"
                "interface Options { strict: boolean }\n"
                "export { ZodType, ZodType as Schema, Options as Settings };\n"
            ),
            "index.d.ts": 'export { ZodType as ZodSchema } from "./types";\n',
        },
    )
    assert {"parse", "description"} <= model.members("Schema")[0]
    assert {"parse", "description"} <= model.members("ZodSchema")[0]
    assert model.members("Settings")[0] == {"strict"}
    assert model.resolve(["Schema", "parse"]).outcome == "found"


def test_an_alias_has_the_members_of_the_types_it_names() -> None:
    model = build_model(
        "c",
        {
            "config.ts": (
                "import { chai } from 'chai'\n"
                "export interface Options { retries: number; chaiConfig?: ChaiConfig }\n"
                "export type Loose = Partial<Options>\n"
                "export type Narrow = Omit<Readonly<Options>, 'retries'> & { extra: string }\n"
                "export type ChaiConfig = Omit<Partial<typeof chai.config>, 'useProxy'>\n"
                "export type Mapped = { [K in keyof Options]: string }\n"
                "export type Mode = 'a' | 'b'\n"
                "export class Factory { build(): void {} }\n"
                "export type Make = (options: Options) => Factory\n"
            ),
            "types.ts": "export type Factory = (options: Options) => Loose\n",
        },
    )
    assert model.resolve(["Loose", "retries"]).outcome == "found"
    assert model.resolve(["Loose", "retry"]).outcome == "missing"
    assert model.resolve(["Narrow", "extra"]).outcome == "found"
    assert model.resolve(["Narrow", "chaiConfig"]).outcome == "found"
    # Members of a type the model does not read are unjudged, never "not declared".
    for alias in ("ChaiConfig", "Mapped"):
        resolved = model.resolve([alias, "includeStack"])
        assert resolved.outcome == "unjudged", resolved
        assert "does not read" in resolved.reason
    assert model.resolve(["Mode", "length"]).outcome == "missing"  # a literal union: as before
    # A function type has what every function has; a class of the same name keeps its own.
    assert model.resolve(["Make", "bind"]).outcome == "found"
    assert model.resolve(["Make", "build"]).outcome == "missing"
    assert model.resolve(["Factory", "build"]).outcome == "found"
    assert model.resolve(["Factory", "loadCursor"]).outcome == "missing"


def test_a_rest_parameter_is_named_without_its_dots() -> None:
    # `...items` declares the parameter `items` (as TypeScript names it); still a rest.
    model = build_model(
        "c",
        {
            "a.d.ts": (
                "export declare class Tuple { args(...items: string[]): Tuple }\n"
                "export declare function join(separator: string, ...parts: string[]): string;\n"
            )
        },
    )
    (method,) = model.callables["a.d.ts:Tuple.args"]
    (function,) = model.callables["a.d.ts.join"]
    assert (method.params, method.var_keyword) == (["items"], True)
    assert (function.params, function.var_keyword) == (["separator", "parts"], True)


def test_a_namespace_exported_with_export_equals_is_the_modules_api() -> None:
    # `export = chalk`: the module's names are the namespace's; in `declare namespace`
    # every declaration is exported, its interfaces have members and its methods params.
    model = build_model(
        "c",
        {
            "index.d.ts": (
                "declare namespace chalk {\n"
                "  type Level = 0 | 1;\n"
                "  interface Options { level?: Level }\n"
                "  interface Chalk { (text: string): string; hex(color: string): Chalk }\n"
                "  function create(options?: Options): Chalk;\n"
                "}\n"
                "declare const chalk: chalk.Chalk;\n"
                "export = chalk;\n"
            ),
            "plain.ts": (
                "namespace Shapes { export interface Circle { radius: number }; const x = 1 }\n"
                "export const area = 1;\n"
            ),
        },
    )
    assert model.facts.modules["index.d.ts"] == ["Chalk", "Level", "Options", "create"]
    assert model.members("Options")[0] == {"level"}
    assert model.members("Chalk")[0] == {"hex"}
    assert model.callables["index.d.ts:Chalk.hex"][0].params == ["color"]
    # A namespace not exported with `export =` adds nothing to the module's names.
    assert model.facts.modules["plain.ts"] == ["area"]
    assert model.members("Circle")[0] == {"radius"}


def test_a_declaration_file_without_an_export_list_exports_every_declaration() -> None:
    # As TypeScript has it: a .d.ts module with no `export { }`, `export *`, `export =` nor
    # `export default x` exports each top-level declaration, `export` written or not; with
    # one, only what is exported; a .ts file only what it exports; an import is no export.
    model = build_model(
        "c",
        {
            "implicit.d.ts": (
                'import { Other } from "./listed";\n'
                "declare function helper(text: string): void;\n"
                "declare class Widget { size: number }\n"
                "interface Shape { sides: number }\n"
                'declare module "augmented" { const extra: number }\n'
                "export declare const shown: Other;\n"
            ),
            "listed.d.ts": (
                "declare function hidden(count: number): void;\n"
                "export interface Other { label: string }\nexport {};\n"
            ),
            "source.ts": "function local(): void {}\nexport const shown = 1;\n",
        },
    )
    assert model.facts.modules["implicit.d.ts"] == ["Shape", "Widget", "helper", "shown"]
    assert model.facts.modules["listed.d.ts"] == ["Other"]
    assert model.facts.modules["source.ts"] == ["shown"]


_MODEL_JSON = """
import json, sys
from pytest_postgates.evidence.api_model import build_model
sources = json.loads(sys.stdin.read())
print(json.dumps(build_model("c", sources).facts.to_json(), sort_keys=True))
"""


def test_the_model_file_is_the_same_in_every_process() -> None:
    # The cached model is one file per commit, shared by shards and machines: its content
    # must not follow a process's string-hash seed (re-exported names once came out of a
    # set) nor the order a query returned a chain's calls in.
    import subprocess
    import sys

    names = [f"name{i}" for i in range(12)]
    sources = {
        "src/index.ts": (
            f"export {{ {', '.join(names)} }} from './other';\n"
            "export function run(s: string) { return s.trim().replace('a', 'b').split(','); }\n"
        ),
        "src/other.ts": "".join(f"export const {n} = 1;\n" for n in names),
    }
    outputs = {
        subprocess.run(
            [sys.executable, "-c", _MODEL_JSON],
            input=json.dumps(sources),
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
        ).stdout
        for seed in range(1, 6)
    }
    assert len(outputs) == 1
    facts = json.loads(outputs.pop())
    calls = [call[0] for call in facts["functions"][0][6]]
    assert calls == ["trim", "replace", "split"]


def test_a_changed_word_of_two_must_still_look_like_the_real_one() -> None:
    model = build_model(
        "c",
        {
            "lib/tools.py": (
                "class CombinedToolset: ...\n"
                "class RenderWidget: ...\n"
                "def validator_compiler(): ...\n"
                "def stop_after_attempt(n): ...\n"
                "def read_text_content(): ...\n"
                "def text_content(): ...\n"
            )
        },
    )
    # A rename keeps the word's look (`validation`/`validator`, `gadget`/`widget`).
    assert near_name(model, "validation_compiler") == "validator_compiler"
    assert near_name(model, "RenderGadget") == "RenderWidget"
    # Another thing of the same family, often another party's: not a near miss.
    assert near_name(model, "ConsoleToolset") is None
    # Among three words or more, the shared words tie it to the product's name.
    assert near_name(model, "stop_after_delay") == "stop_after_attempt"
    assert near_name(model, "iter_content") is None
    # A word added or dropped is still a near miss.
    assert near_name(model, "read_content") == "read_text_content"


def test_a_name_in_the_other_convention_is_no_near_miss() -> None:
    model = build_model(
        "c",
        {
            "src/branches.ts": (
                "export function getBranch(name: string) { return name; }\n"
                "export const excludePatterns = [];\n"
                "export function retryAttempt() {}\n"
            )
        },
    )
    # snake_case beside a camelCase product: another party's API or a wire format
    # (a Bitbucket tool's `get_branch`), not a rename of the product's name.
    assert near_name(model, "get_branch") is None
    assert near_name(model, "exclude_patterns") is None
    assert near_name(model, "retry_attempts") is None
    # In the product's own convention the same edits are still near misses.
    assert near_name(model, "getBranches") == "getBranch"
    assert near_name(model, "excludePattern") == "excludePatterns"
    assert near_name(model, "retryAttempts") == "retryAttempt"


def test_a_key_is_no_near_miss_of_a_constant_or_a_class() -> None:
    model = build_model(
        "c",
        {
            "src/limits.ts": (
                "export const DEFAULT_RETRY_ATTEMPTS = 3;\nexport class LinkType {}\n"
                "export const options = { avvioPluginTimeout: 10 };\n"
                "export function avvioPluginTimeout() {}\n"
            )
        },
    )
    # A constant and a camelCase name do cross in a rename: an error code for an option.
    assert near_name(model, "ERR_AVVIO_PLUGIN_TIMEOUT") == "avvioPluginTimeout"
    assert near_name(model, "retry_attempts") is None
    assert near_name(model, "line_type") is None
    assert near_name(model, "DEFAULT_RETRY_ATTEMPT") == "DEFAULT_RETRY_ATTEMPTS"
    assert near_name(model, "LineType") == "LinkType"


def test_a_letter_changed_in_a_name_of_five_letters_is_another_word() -> None:
    model = build_model(
        "c", {"src/log.ts": "export const axiom = 1;\nexport function stream() {}\n"}
    )
    assert near_name(model, "axios") is None  # the npm package, not a typo of `axiom`
    assert near_name(model, "snream") == "stream"


def test_a_near_miss_is_of_a_name_the_product_shows_not_of_a_local_or_an_import() -> None:
    model = build_model(
        "c",
        {
            "src/rules.js": (
                "import { stopAfterAttempt } from 'retry-lib';\n"
                "// the rule reports when somethingBadHappened is thrown\n"
                "export function check(node) {\n"
                "  const myVariable = node.parent;\n"
                "  return { wrapStream: myVariable, kind: 'content_block_start' };\n"
                "}\n"
            ),
            "pkg/client.py": (
                "def send(payload):\n"
                "    retry_budget = 3  # a local\n"
                "    return post(payload, max_retry_delay=retry_budget).status_text\n"
            ),
        },
        others={"tests/rules.test.js": "const myVariableName = 1;\n"},
    )
    # A local variable, a comment's word, an imported name and a test's name are nothing
    # of the product a reader meets: a name spelled like one renames nothing.
    assert near_name(model, "myVariables") is None
    assert near_name(model, "retry_budgets") is None
    assert near_name(model, "somethingBadHappen") is None
    assert near_name(model, "stopAfterAttempts") is None
    assert near_name(model, "myVariableNames") is None
    # Members, keys, keyword arguments and string values the code writes are.
    assert near_name(model, "wrapStreams") == "wrapStream"
    assert near_name(model, "content_block_stop") == "content_block_start"
    assert near_name(model, "max_retry_delays") == "max_retry_delay"
    assert near_name(model, "status_texts") == "status_text"


def test_the_cached_model_is_named_by_the_sources_the_index_holds(tmp_path: Path) -> None:
    """Two indexes of one commit that hold different source texts (one file over the size
    cut, listed by name only) get two models, not the first one's from the shared cache
    folder (a stale model hid a package's code after the index changed what it holds)."""
    from pytest_postgates.evidence.index import build_index_files, load_index_files
    from pytest_postgates.evidence.repo import resolve_commit

    repo = make_repo(
        tmp_path / "repo",
        {"pkg/__init__.py": "", "pkg/a.py": "def alpha():\n    return 1\n",
         "pkg/b.py": "def beta():\n    return 2\n" + "# pad\n" * 50},
    )  # fmt: skip
    commit = resolve_commit(repo, "HEAD")
    cache = tmp_path / "cache"
    models = []
    for limit, folder in ((10_000, "whole"), (100, "cut")):
        target = tmp_path / folder
        target.mkdir()
        build_index_files(repo, commit, target, max_file_bytes=limit)
        models.append(api_model(load_index_files(repo, target), cache))
    whole, cut = models
    assert "beta" in whole.by_name and "alpha" in whole.by_name
    assert "beta" not in cut.by_name and "alpha" in cut.by_name


def test_a_callable_type_keeps_its_own_members() -> None:
    # A function with properties (`type Log = { (entry): void; formatters?: ... }`, an
    # interface with a call signature): its properties are members, as are a function's;
    # google/zx's `$.log.formatters` was "not declared in any product class".
    model = build_model(
        "c",
        {
            "src/log.ts": (
                "type Log = {\n  (entry: string): void\n  formatters?: Record<string, string>\n}\n"
                "export const log: Log = function (entry) {}\n"
                "export interface Shell {\n  (pieces: TemplateStringsArray): number\n"
                "  sync: boolean\n}\n"
                "export type Options = { log: Log, verbose: boolean }\n"
                "export declare const $: Shell & Options\n"
            )
        },
    )
    assert model.resolve(["$", "log", "formatters"], False).outcome == "found"
    assert model.resolve(["$", "sync"], False).outcome == "found"
    assert model.resolve(["log", "bind"], False).outcome == "found"
    assert model.resolve(["log", "formatterz"], False).outcome == "missing"
