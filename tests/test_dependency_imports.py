"""What the product's own code imports from its dependencies (issue 24): the API model
records each import with its file and line (evidence/model_python.py, model_js.py), and
gate 2's ``dependency-imported`` rule judges a name the product imports, and its members,
against that dependency's installed model (helpers/dependency_rules.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_postgates.evidence.api_model import build_model
from pytest_postgates.evidence.dependency_models import DEPENDENCY_PATH_ENV
from pytest_postgates.evidence.model_check import unconfirmed
from pytest_postgates.evidence.model_facts import ImportSite, ModelFacts
from pytest_postgates.gates import GateContext
from tests.helpers import make_repo, repo_context, token_outcome
from tests.test_dependency_rules import _card, dependency_context, fake_site

# The product imports fakedep's Gauge, with a stand-in class for when fakedep is absent
# (as pydantic-ai's AG-UI adapter does with ag_ui's `Interrupt`), and missingdep's Pool.
ADAPTER = """try:
    from fakedep.gauges import Gauge
except ImportError:
    class Gauge:
        \"\"\"A stand-in: no instance is made without fakedep.\"\"\"


def pool():
    from missingdep import Pool

    return Pool
"""
PRODUCT: dict[str, str | bytes] = {
    "pyproject.toml": '[project]\nname = "mylib"\ndependencies = ["fakedep>=1", "missingdep"]\n',
    "package.json": json.dumps(
        {"name": "mylib-ui", "main": "src/index.ts", "dependencies": {"fake-js": "^2"}}
    ),
    "mylib/__init__.py": "class Client:\n    def open(self) -> None: ...\n",
    "mylib/_adapter.py": ADAPTER,
    "src/index.ts": 'import type { Widget } from "fake-js";\n\nexport const size = 1;\n',
    # The product reads a constant of the standard library's HTTPStatus enum.
    "mylib/status.py": (
        "from http import HTTPStatus\n\n\ndef gone():\n    return HTTPStatus.NOT_FOUND\n"
    ),
}


@pytest.fixture
def ctx(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GateContext:
    return dependency_context(tmp_path, monkeypatch, PRODUCT)


def test_a_member_of_a_name_the_product_imports_is_grounded(
    tmp_path: Path, ctx: GateContext
) -> None:
    card = _card("The adapter reads `Gauge.read` and `Gauge.raed`.\n", tmp_path, ctx)
    entry = token_outcome(card, "Gauge.read")
    assert (entry["outcome"], entry["rule"]) == ("grounded", "dependency-imported"), entry
    # The evidence names the dependency and the product's file that imports the name.
    assert "dependency fakedep 1.0" in entry["where"]
    assert "imported by the product at mylib/_adapter.py" in entry["where"]


def test_a_name_imported_from_a_dependency_not_installed_is_unjudged(
    tmp_path: Path, ctx: GateContext
) -> None:
    card = _card("Call `Pool.connect()` once.\n", tmp_path, ctx)
    entry = token_outcome(card, "Pool.connect()")
    assert (entry["outcome"], entry["rule"]) == ("unjudged", "dependency-not-installed")
    assert "missingdep not installed" in entry["reason"]
    assert "mylib/_adapter.py" in entry["reason"]


def test_a_typescript_import_of_a_package_is_judged_in_its_declarations(
    tmp_path: Path, ctx: GateContext
) -> None:
    card = _card("`Widget.render` draws and `Widget.paint` paints.\n", tmp_path, ctx)
    entry = token_outcome(card, "Widget.render")
    assert (entry["outcome"], entry["rule"]) == ("grounded", "dependency-imported"), entry
    assert "src/index.ts" in entry["where"]


def test_another_export_of_a_module_the_product_imports_from_stays_a_claim(
    tmp_path: Path, ctx: GateContext
) -> None:
    # `makeWidget` is exported by fake-js, which src/index.ts imports from, but the product
    # never writes it: a near spelling of a product name must stay the product's miss
    # (fastify's docs write @fastify/ajv-compiler's `SerializerCompiler` for the product's
    # `serializerCompiler`).
    entry = token_outcome(_card("Use `makeWidget`.\n", tmp_path, ctx), "makeWidget")
    assert entry["outcome"] == "ungrounded", entry


def test_a_bare_constant_of_an_enum_the_product_reads_is_grounded(
    tmp_path: Path, ctx: GateContext
) -> None:
    body = "A proxy answers `BAD_GATEWAY`; a `BAD_GATEWAYS` is no status.\n"
    card = _card(body, tmp_path, ctx)
    entry = token_outcome(card, "BAD_GATEWAY")
    assert (entry["outcome"], entry["rule"]) == ("grounded", "dependency-imported"), entry
    assert "a member of http.HTTPStatus" in entry["where"]
    assert "mylib/status.py" in entry["where"]
    assert token_outcome(card, "BAD_GATEWAYS")["rule"] != "dependency-imported"


def test_the_rule_can_be_turned_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DEPENDENCY_PATH_ENV, str(fake_site(tmp_path / "site")))
    repo = make_repo(tmp_path / "repo", PRODUCT)
    off = repo_context(
        repo,
        tmp_path / "cache",
        symbol_unanchored_claims=True,
        symbol_rules_off=("dependency-imported",),
    )
    entry = token_outcome(_card("Read `Gauge.read`.\n", tmp_path, off), "Gauge.read")
    assert entry["rule"] != "dependency-imported"


def test_the_model_records_imports_from_outside_the_product_with_their_lines() -> None:
    sources = {
        "pkg/__init__.py": "from fakedep import Gt\nfrom . import sub\nimport numpy as np\n",
        "pkg/sub.py": "from pkg import Gt as G\n\ndef f():\n    from os.path import join\n",
        "web/a.ts": 'import { A, B as C } from "@scope/p/sub";\nimport D from "./d";\n'
        'export { E } from "other";\nconst { F } = require("cjs");\n',
    }
    facts = build_model("c0", sources).facts
    assert facts.constant_owners == set()  # no constant of an import is read
    seen = {
        local: [(s.module, s.name, f"{s.path}:{s.line}") for s in sites]
        for local, sites in facts.imports.items()
    }
    assert seen["Gt"] == [("fakedep", "Gt", "pkg/__init__.py:1")]
    assert seen["np"] == [("numpy", "", "pkg/__init__.py:3")]
    assert seen["join"] == [("os.path", "join", "pkg/sub.py:4")]  # a lazy import too
    assert "G" not in seen and "sub" not in seen  # the product's own modules
    assert seen["A"] == [("@scope/p/sub", "A", "web/a.ts:1")]
    assert seen["C"] == [("@scope/p/sub", "B", "web/a.ts:1")]
    assert seen["E"] == [("other", "E", "web/a.ts:3")]  # a re-export
    assert seen["F"] == [("cjs", "F", "web/a.ts:4")]
    assert "D" not in seen  # a file of the product
    again = ModelFacts.from_json(json.loads(json.dumps(facts.to_json())))
    assert again.imports == facts.imports


def test_a_cached_model_with_an_invented_import_is_not_trusted() -> None:
    sources = {"pkg/__init__.py": "from fakedep import Gt\n"}
    facts = build_model("c0", sources).facts
    assert unconfirmed(facts, sources, {}) == ""
    facts.constant_owners.add("Nowhere")
    assert unconfirmed(facts, sources, {}).startswith("a constant's owner")
    facts.constant_owners.clear()
    facts.add_import(ImportSite("Fake", "fakedep", "Fake", "pkg/__init__.py", 1))
    assert unconfirmed(facts, sources, {}).startswith("import Fake")
