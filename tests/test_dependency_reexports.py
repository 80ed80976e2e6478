"""Names the product re-exports from a dependency (issue 24; evidence/reexports.py): a
member of a name `from dep import X` puts in the product's package, and a name a package's
`export * from "dep"` brings, are judged in that dependency's model (gate 2's
``dependency-imported``), or left unjudged with the dependency named; never a miss of the
product's own API."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_postgates.gates import GateContext
from tests.helpers import token_outcome
from tests.test_dependency_rules import _card, dependency_context

# mylib re-exports fakedep's Gauge (installed) and missingdep's Pool (not installed);
# uikit star-exports the installed fake-js (Widget, makeWidget) and gone-js (absent).
PRODUCT: dict[str, str | bytes] = {
    "pyproject.toml": '[project]\nname = "mylib"\ndependencies = ["fakedep>=1", "missingdep"]\n',
    "mylib/__init__.py": (
        "from fakedep import Gauge\nfrom missingdep import Pool\n\n"
        '__all__ = ["Client", "Gauge", "Pool"]\n\n\n'
        "class Client:\n    def open(self) -> None: ...\n"
    ),
    "package.json": json.dumps(
        {
            "name": "uikit",
            "main": "src/index.ts",
            "dependencies": {"fake-js": "^2", "gone-js": "^1"},
        }
    ),
    "src/index.ts": (
        'export * from "fake-js";\nexport * from "./more";\n\nexport const size = 1;\n'
    ),
    "src/more.ts": 'export * from "gone-js";\n\nexport function paint(): void {}\n',
}


@pytest.fixture
def ctx(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GateContext:
    return dependency_context(tmp_path, monkeypatch, PRODUCT)


def _outcome(token: str, tmp_path: Path, ctx: GateContext) -> dict[str, Any]:
    return token_outcome(_card(f"The guide calls `{token}` here.\n", tmp_path, ctx), token)


def test_a_member_of_a_python_reexport_is_the_dependencys(tmp_path: Path, ctx: GateContext) -> None:
    entry = _outcome("mylib.Gauge.read", tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("grounded", "dependency-imported"), entry
    assert "dependency fakedep 1.0" in entry["where"]
    # Not in fakedep's model either: not the product's to miss, listed with the dependency.
    entry = _outcome("mylib.Gauge.raed", tmp_path, ctx)
    assert entry["outcome"] == "unjudged", entry
    assert "a dependency's API (fakedep)" in entry["reason"], entry
    # A dependency that is not installed: unjudged, never a miss of the product's.
    entry = _outcome("mylib.Pool.connect", tmp_path, ctx)
    assert entry["outcome"] == "unjudged", entry
    assert "missingdep" in entry["reason"], entry


def test_a_name_a_star_export_brings_is_judged_in_the_dependency(
    tmp_path: Path, ctx: GateContext
) -> None:
    entry = _outcome("uikit.makeWidget", tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("grounded", "dependency-imported"), entry
    assert "fake-js" in entry["where"]
    # Found in no installed star, and gone-js (star-exported through ./more) not installed:
    # unjudged with the dependencies named.
    entry = _outcome("uikit.makeWidgit", tmp_path, ctx)
    assert entry["outcome"] == "unjudged", entry
    assert "a dependency's API (fake-js, gone-js)" in entry["reason"], entry


def test_the_products_own_names_are_still_judged(tmp_path: Path, ctx: GateContext) -> None:
    for token in ("uikit.size", "uikit.paint", "mylib.Client.open"):
        assert _outcome(token, tmp_path, ctx)["outcome"] == "grounded", token
    # mylib star-imports nothing: a name it lacks is a miss of the product's.
    assert _outcome("mylib.Clinet", tmp_path, ctx)["outcome"] == "ungrounded"
    assert _outcome("mylib.Client.opne", tmp_path, ctx)["outcome"] == "ungrounded"


# Classes of the product whose base is a dependency's class.
BASES: dict[str, str | bytes] = {
    "pyproject.toml": '[project]\nname = "meters"\ndependencies = ["fakedep>=1", "missingdep"]\n',
    "meters/__init__.py": (
        "from fakedep.gauges import Gauge\nfrom missingdep import Pool\n\n\n"
        "class Meter(Gauge):\n    def zero(self) -> None: ...\n\n\n"
        "class Dial(Meter):\n    pass\n\n\n"
        "class Tank(Pool):\n    pass\n"
    ),
    "package.json": json.dumps({"name": "panels", "dependencies": {"fake-js": "^2"}}),
    "src/index.ts": (
        'import { Widget } from "fake-js";\n\nexport class Panel extends Widget {\n'
        "  open(): void {}\n}\n"
    ),
}


def test_a_member_a_class_inherits_from_a_dependency_is_judged_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ctx = dependency_context(tmp_path, monkeypatch, BASES)
    for token in ("Meter.read()", "Dial.read()", "Panel.render()"):
        entry = _outcome(token, tmp_path, ctx)
        assert (entry["outcome"], entry["rule"]) == ("grounded", "dependency-imported"), entry
    assert "fakedep" in _outcome("Dial.read()", tmp_path, ctx)["where"]
    # Neither the class nor its dependency's base has it: the dependency's API, unjudged.
    for token, dependency in (("Meter.raed()", "fakedep"), ("Panel.paint()", "fake-js")):
        entry = _outcome(token, tmp_path, ctx)
        assert entry["outcome"] == "unjudged", entry
        assert f"a dependency's API ({dependency}" in entry["reason"], entry
    # A base whose dependency is not installed: unjudged with why.
    entry = _outcome("Tank.connect()", tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("unjudged", "dependency-not-installed"), entry
    # The class's own members stay the product's.
    assert _outcome("Meter.zero()", tmp_path, ctx)["outcome"] == "grounded"
    assert _outcome("Panel.open()", tmp_path, ctx)["outcome"] == "grounded"


def test_a_name_no_star_holds_is_a_miss_when_every_star_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """solo star-exports only fake-js, which is installed and whose model lists its names:
    a name neither solo nor fake-js has is solo's miss, as without the star."""
    solo: dict[str, str | bytes] = {
        "package.json": json.dumps(
            {"name": "solo", "main": "src/index.ts", "dependencies": {"fake-js": "^2"}}
        ),
        "src/index.ts": 'export * from "fake-js";\n\nexport const owned = 1;\n',
    }
    ctx = dependency_context(tmp_path, monkeypatch, solo)
    assert _outcome("solo.makeWidget", tmp_path, ctx)["outcome"] == "grounded"
    for token in ("solo.makeWidgit", "solo.ownd"):
        entry = _outcome(token, tmp_path, ctx)
        assert (entry["outcome"], entry["rule"]) == ("ungrounded", "model-rooted-miss"), entry
        assert "fake-js" in entry["reason"], entry


# A monorepo: the runner's package star-exports its sibling @x/expect, which star-exports
# the installed fake-js (a test runner re-exporting its assertion package's API).
MONOREPO: dict[str, str | bytes] = {
    "package.json": json.dumps({"name": "mono", "private": True, "workspaces": ["packages/*"]}),
    "packages/runner/package.json": json.dumps(
        {"name": "runner", "main": "src/index.ts", "dependencies": {"@x/expect": "^1"}}
    ),
    "packages/runner/src/index.ts": 'export * from "@x/expect";\nexport function run(): void {}\n',
    "packages/expect/package.json": json.dumps(
        {"name": "@x/expect", "main": "src/index.ts", "dependencies": {"fake-js": "^2"}}
    ),
    "packages/expect/src/index.ts": (
        'export * from "fake-js";\nexport function expectThing(): void {}\n'
    ),
}


def test_a_star_through_a_sibling_package_is_followed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`export * from "@x/expect"`, a workspace package of the product: its names are the
    runner's (a renamed one a miss, not unjudged), and the package it star-exports in turn
    is followed to its model; a member that model lacks is its API, never the product's
    miss."""
    ctx = dependency_context(tmp_path, monkeypatch, MONOREPO)
    assert _outcome("runner.expectThing", tmp_path, ctx)["outcome"] == "grounded"
    entry = _outcome("runner.expectThang", tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("ungrounded", "model-rooted-miss"), entry
    entry = _outcome("runner.makeWidget", tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("grounded", "dependency-imported"), entry
    assert "fake-js" in entry["where"], entry
    entry = _outcome("runner.Widget.rendr", tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("unjudged", "dependency-imported"), entry
    assert "a dependency's API (fake-js)" in entry["reason"], entry
