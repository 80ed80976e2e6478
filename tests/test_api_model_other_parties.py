"""Names of other parties that the API model must not take for the product's: a class the
product defines only in place of another package's (the fallback of a ``try`` that imports
it), a member the product's code writes on a name it imports from another package, and a
bare method name whose owner the model cannot tell (issue 24, gate 2's precision)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_postgates.evidence.api_model import build_model
from pytest_postgates.evidence.near_miss import near_name
from pytest_postgates.gates import GateContext
from tests.helpers import gate2_outcome, make_repo, repo_context

# The shape of pydantic-ai's AG-UI adapter: the protocol's classes are imported from the
# protocol's package, with stand-ins for an old version that lacks them.
ADAPTER_PY = """
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from protocol.core import Interrupt
else:
    try:
        from protocol.core import Interrupt
    except ImportError:
        class Interrupt:
            '''Stand-in for an old protocol version.'''

try:
    from protocol.core import approve
except ImportError:
    def approve(x):
        return x


class Adapter:
    def interrupt(self) -> "Interrupt":
        return Interrupt(reason="tool_call")
"""

FILES = {
    "mylib/__init__.py": "from .adapter import Adapter, Interrupt\n",
    "mylib/adapter.py": ADAPTER_PY,
    # The distribution's name is not its module's (`ag-ui-protocol`, `ag_ui`).
    "pyproject.toml": '[project]\nname = "mylib"\ndependencies = ["protocol-sdk"]\n',
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("mylib"), FILES)


@pytest.fixture
def ctx(repo: Path, tmp_path: Path) -> GateContext:
    return repo_context(repo, tmp_path / "cache")


_outcome = gate2_outcome


def test_a_fallback_class_for_another_packages_import_is_not_the_products() -> None:
    model = build_model("c", {"mylib/__init__.py": "", "mylib/adapter.py": ADAPTER_PY})
    assert not model.declares("Interrupt")  # the protocol's class, not the product's
    assert {site.module for site in model.imported("Interrupt")} == {"protocol.core"}
    assert not model.declares("approve")
    assert model.resolve(["Adapter", "interrupt"]).outcome == "found"


def test_a_member_of_another_packages_class_is_no_finding(tmp_path: Path, ctx: GateContext) -> None:
    # The page's table names the protocol's fields; the product has no class of its own
    # named `Interrupt`, so `metadata` is no rooted miss of the product's.
    entry = _outcome("Each `Interrupt.metadata` is set.\n", "Interrupt.metadata", tmp_path, ctx)
    assert entry["outcome"] != "ungrounded", entry


# The product reads the protocol's event types on the protocol's enum, and names its own.
STREAM_PY = """
from protocol.core import EventType
import protocol.core as core


class EventStream:
    def finish(self) -> object:
        return {"type": EventType.TOOL_CALL_RESULT, "kind": core.RUN_FINISHED_EVENT}

    def own(self) -> object:
        return self.tool_call_args
"""

STREAM_JS = """
import { EventType } from "protocol";
import { helper } from "./helper.js";
export function finish(state) {
  return [EventType.TOOL_CALL_RESULT, helper.localMember, state.openStream];
}
"""


@pytest.mark.parametrize(
    ("path", "source", "theirs", "mine"),
    [
        ("mylib/stream.py", STREAM_PY, ("TOOL_CALL_RESULT", "RUN_FINISHED_EVENT"),
         ("tool_call_args",)),
        ("lib/stream.js", STREAM_JS, ("TOOL_CALL_RESULT",), ("localMember", "openStream")),
    ],
)  # fmt: skip
def test_a_member_read_on_another_packages_name_is_not_the_products(
    path: str, source: str, theirs: tuple[str, ...], mine: tuple[str, ...]
) -> None:
    model = build_model("c", {path: source, "mylib/__init__.py": ""})
    for name in theirs:
        assert name not in model.facts.surface, name
    for name in mine:
        assert name in model.facts.surface, name
    # So the page's other event type is no near miss of the product's names.
    assert near_name(model, "TOOL_CALL_START") is None


NET_PY = """
class Stream:
    def read(self) -> bytes:
        return b""


def fetch(url: str, timeout: float = 1.0) -> Stream:
    return Stream()
"""


@pytest.fixture(scope="module")
def net_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    files = {"netlib/__init__.py": "from .net import Stream, fetch\n", "netlib/net.py": NET_PY}
    return make_repo(tmp_path_factory.mktemp("netlib"), files)


def test_a_method_named_alone_is_no_known_callee(net_repo: Path, tmp_path: Path) -> None:
    # httpx's docs list the methods of httpcore's network stream; `read` is only a method
    # of the product's own `Stream`, and the token names no class.
    ctx = repo_context(net_repo, tmp_path / "cache")
    token = "read(max_bytes, timeout = None) -> bytes"
    entry = _outcome(f"* `{token}`\n", token, tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("unjudged", "model-unjudged"), entry
    assert "`Stream`" in entry["reason"]
    # A module's function named alone is a known callee: its keywords are judged.
    entry = _outcome("Call `fetch(url, retries=3)`.\n", "fetch(url, retries=3)", tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("ungrounded", "model-argument"), entry


OUTPUT_PY = """
from pydlib import TypeAdapter


def validate_output(data: str, allow_partial: bool = False) -> object:
    return TypeAdapter(object).validate_json(data)
"""


@pytest.fixture(scope="module")
def output_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    files = {"outlib/__init__.py": "from .output import validate_output\n",
             "outlib/output.py": OUTPUT_PY}  # fmt: skip
    return make_repo(tmp_path_factory.mktemp("outlib"), files)


def test_a_name_an_autoref_gives_to_an_imported_package_is_not_the_products(
    output_repo: Path, tmp_path: Path
) -> None:
    # pydantic-ai's output.md: `allow_partial=True` enables pydantic's
    # [`experimental_allow_partial` flag on `TypeAdapter`][pydantic.type_adapter...].
    ctx = repo_context(output_repo, tmp_path / "cache")
    body = (
        "It enables the [`experimental_allow_partial` flag on `TypeAdapter`]"
        "[pydlib.type_adapter.TypeAdapter.validate_json].\n"
    )
    entry = _outcome(body, "experimental_allow_partial", tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("unjudged", "linked-elsewhere"), entry
    assert "pydlib" in entry["reason"]
    # An autoref to the product's own object leaves the near miss a finding.
    body = "It enables the [`experimental_allow_partial` flag][outlib.validate_output].\n"
    entry = _outcome(body, "experimental_allow_partial", tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("ungrounded", "model-near-miss"), entry


def test_a_base_of_another_packages_namespace_is_outside_the_product() -> None:
    # eslint's types: `interface Program extends ESTree.Program` adds members to the
    # parser's node; `Program#sourceType` is ESTree's, which the model does not read.
    model = build_model(
        "c",
        {
            "lib/types/index.d.ts": (
                'import * as ESTree from "estree";\n'
                "export namespace AST {\n"
                "  interface Program extends ESTree.Program {\n    tokens: string[];\n  }\n"
                "  interface Token {\n    value: string;\n  }\n"
                "  interface Template extends Token {\n    raw: string;\n  }\n"
                "}\n"
            )
        },
    )
    answer = model.resolve(["Program", "sourceType"])
    assert answer.outcome == "unjudged" and "ESTree.Program" in answer.reason, answer
    assert model.resolve(["Program", "tokens"]).outcome == "found"
    # A base of the product's own keeps the list closed.
    assert model.resolve(["Template", "value"]).outcome == "found"
    assert model.resolve(["Template", "cooked"]).outcome == "missing"


@pytest.fixture(scope="module")
def node_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    source = (
        "export interface NodeListener { (node: object): void }\n"
        "export class RuleRunner {}\n"
        "export function run(options) { return options.ruleTimeout; }\n"
    )
    files = {
        "package.json": '{"name": "linter", "main": "lib/index.js"}\n',
        "lib/index.ts": source,
    }
    return make_repo(tmp_path_factory.mktemp("linter"), files)


def test_a_key_is_no_near_miss_of_a_class(node_repo: Path, tmp_path: Path) -> None:
    # eslint's mcp.md: Yarn's `nodeLinker: pnpm` setting is no rename of the product's
    # interface `NodeListener`: a key's real spelling is a key, member or parameter.
    ctx = repo_context(node_repo, tmp_path / "cache")
    entry = _outcome("The `nodeLinker: pnpm` setting works.\n", "nodeLinker: pnpm", tmp_path, ctx)
    assert entry["outcome"] != "ungrounded", entry
    # A key near one the product's code reads stays a near miss.
    entry = _outcome("Set `ruleTimeouts: 5`.\n", "ruleTimeouts: 5", tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("ungrounded", "model-near-miss"), entry
    # A class's near miss written as a name (not a key) still is one.
    entry = _outcome("Pass a `NodeListeners`.\n", "NodeListeners", tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("ungrounded", "model-near-miss"), entry


def test_a_camel_case_name_is_no_rename_of_a_python_class_or_constant() -> None:
    # pydantic-ai's AG-UI and Vercel AI pages name the protocols' fields (`parentRunId`,
    # `mediaType`): Python writes no name of its own in camelCase.
    python = build_model(
        "c",
        {
            "graph/ids.py": "NodeRunID = str\nImageMediaType = str\n",
            "graph/keys.py": "SCHEMA = {'parentRunIds': 1}\n",
        },
    )
    assert near_name(python, "mediaType") is None
    assert near_name(python, "parentRunId") == "parentRunIds"  # a key it writes, camelCase
    # One letter typed in before a class's name is a typo whatever the conventions
    # (pydantic-ai's `cAgent[Foobar, list[str]]` for its `Agent`).
    agent = build_model("c", {"agents/core.py": "class Agent:\n    pass\n"})
    assert near_name(agent, "cAgent") == "Agent"
    # In TypeScript the same names cross conventions in a rename (fastify's
    # `ValidationCompiler` for `validatorCompiler`).
    script = build_model("c", {"src/ids.ts": "export type NodeRunID = string;\n"})
    assert near_name(script, "parentRunId") == "NodeRunID"


def test_a_dependency_model_is_cached_per_file_digest_not_per_version_prefix(
    tmp_path: Path,
) -> None:
    # The cache file's name ended in the version's last dot (`with_suffix`), so a model
    # built by other extractors, or of other files under the same version, was reused.
    from pytest_postgates.evidence import dependency_models

    source = tmp_path / "site" / "dep" / "__init__.py"
    source.parent.mkdir(parents=True)
    source.write_text("def first() -> None: ...\n")
    files = {"dep/__init__.py": source}
    cache = tmp_path / "cache"
    model = dependency_models._cached_model("python", "dep", "1.2.3", files, cache, set())
    assert model.declares("first")
    dependency_models._MODELS.clear()  # a new process: only the disk cache is left
    source.write_text("def first() -> None: ...\ndef second_one() -> None: ...\n")
    model = dependency_models._cached_model("python", "dep", "1.2.3", files, cache, set())
    assert model.declares("second_one")
