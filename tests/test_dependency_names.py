"""Gate 2's ``dependency-name`` rule (helpers/dependency_rules.py): a name the product's
model misses that a required dependency the product's code imports (or a standard-library
module it imports) declares is that party's, listed unjudged; never grounded, and never
for a dependency the product only may have (an optional extra) or only its tests import."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pytest_postgates.evidence.dependency_models import DEPENDENCY_PATH_ENV
from pytest_postgates.gates import GateContext
from pytest_postgates.gates import symbol_grounding as gate
from tests.helpers import make_post, make_repo, repo_context, token_outcome

# The dependency: a scope manager with a member, a location with a field, a compiler
# class, and a private module whose names are no one's API.
SCOPES = '''"""A fake scope analyser."""


class ScopeManager:
    def is_module(self) -> bool:
        return False


class Location:
    def __init__(self, source: str) -> None:
        self.source = source


class SerializerCompiler:
    pass


def parse(text: str, allow_partial_input: bool = False) -> None:
    return None
'''
PRIVATE = "def hidden_helper() -> None:\n    return None\n"
IMPORT = "from scopedep import ScopeManager\n\nMANAGER = ScopeManager\n"
PRODUCT_CODE = (
    "from pathlib import PurePath\n\n\n"
    "class Location:\n    start: int = 0\n\n\n"
    "class Path:\n    def open_file(self) -> None: ...\n\n\n"
    "def is_module_exports() -> bool:\n    return bool(PurePath)\n\n\n"
    "def serializerCompiler() -> None: ...\n\n\n"
    "def setSerializerCompiler() -> None: ...\n\n\n"
    "def allow_partial_output() -> None: ...\n\n\n"
    "def hidden_helpers() -> None: ...\n"
)


def scope_site(root: Path) -> Path:
    """A site folder holding scopedep 1.0 as pip installs it."""
    files = {"scopedep/__init__.py": SCOPES, "scopedep/_private.py": PRIVATE}
    info = root / "scopedep-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: scopedep\nVersion: 1.0\n")
    (info / "RECORD").write_text("".join(f"{name},,\n" for name in files))
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def _context(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    manifest: str = 'dependencies = ["scopedep>=1"]',
    importer: str = "mylib/scopes.py",
    **settings: object,
) -> GateContext:
    """A product whose ``importer`` file imports scopedep, installed in a site folder."""
    monkeypatch.setenv(DEPENDENCY_PATH_ENV, str(scope_site(tmp_path / "site")))
    files: dict[str, str | bytes] = {
        "pyproject.toml": f'[project]\nname = "mylib"\n{manifest}\n',
        "mylib/__init__.py": PRODUCT_CODE,
        importer: IMPORT,
    }
    repo = make_repo(tmp_path / "repo", files)
    return repo_context(repo, tmp_path / "cache", **settings)


def _outcome(token: str, tmp_path: Path, ctx: GateContext) -> dict[str, Any]:
    card = gate.GATE.evaluate(make_post(f"Call `{token}` here.\n", tmp_path), ctx)
    return token_outcome(card, token)


def test_a_member_of_an_imported_dependency_is_unjudged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ctx = _context(tmp_path, monkeypatch)
    # A near miss of the product's `is_module_exports`, a method of scopedep's ScopeManager.
    entry = _outcome("is_module()", tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("unjudged", "dependency-name"), entry
    assert "dependency scopedep 1.0" in entry["reason"] and "ScopeManager" in entry["reason"]
    # A keyword of a dependency's function.
    entry = _outcome("allow_partial_input", tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("unjudged", "dependency-name"), entry
    # A member the product's own class lacks, but the dependency's class of that name has.
    entry = _outcome("Location.source", tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("unjudged", "dependency-name"), entry
    # The standard library's, from a module the product imports.
    entry = _outcome("Path.read_bytes", tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("unjudged", "dependency-name"), entry
    assert "the standard library" in entry["reason"]


def test_names_no_dependency_declares_stay_findings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ctx = _context(tmp_path, monkeypatch)
    for token in ("is_module_export()", "Location.sourse", "Path.read_bites"):
        entry = _outcome(token, tmp_path, ctx)
        assert entry["outcome"] == "ungrounded", entry
    # A name of the dependency's private module is no API of it.
    assert _outcome("hidden_helper", tmp_path, ctx)["outcome"] == "ungrounded"


def test_a_product_name_in_another_case_stays_the_products(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """scopedep declares `SerializerCompiler`; a page writing it names the product's
    `serializerCompiler` in another case (a near miss of its `setSerializerCompiler`), as
    fastify's docs do: the product's name, misspelt, not the dependency's."""
    ctx = _context(tmp_path, monkeypatch)
    entry = _outcome("SerializerCompiler", tmp_path, ctx)
    assert entry["outcome"] == "ungrounded", entry


def test_only_a_required_dependency_the_products_code_imports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    optional = _context(
        tmp_path / "optional",
        monkeypatch,
        manifest='[project.optional-dependencies]\nscopes = ["scopedep>=1"]',
    )
    assert _outcome("is_module()", tmp_path, optional)["outcome"] == "ungrounded"
    tests_only = _context(tmp_path / "tests", monkeypatch, importer="tests/test_scopes.py")
    assert _outcome("is_module()", tmp_path, tests_only)["outcome"] == "ungrounded"


def test_the_rule_can_be_turned_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ctx = _context(tmp_path, monkeypatch, symbol_rules_off=("dependency-name",))
    entry = _outcome("is_module()", tmp_path, ctx)
    assert entry["outcome"] == "ungrounded", entry


def test_a_key_of_a_dependency_in_an_object_is_unjudged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A key the model misses in an object a page writes (`{allow_partial_input: true}`, a
    near miss of the product's `allow_partial_output`) that the dependency declares (a
    keyword of scopedep's `parse`): that party's option, as babel's `rootMode` is in
    `['babel-jest', {rootMode: 'upward'}]`, not the product's misspelt name. The rule reads
    the name the model missed, not the token's text, which is no name at all."""
    ctx = _context(tmp_path, monkeypatch)
    entry = _outcome("{allow_partial_input: true}", tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("unjudged", "dependency-name"), entry
    assert "dependency scopedep 1.0" in entry["reason"], entry
    # A key no dependency declares is still the product's near miss.
    entry = _outcome("{allow_partial_outpt: true}", tmp_path, ctx)
    assert entry["outcome"] == "ungrounded", entry


def test_a_listed_name_a_dependency_declares_is_unjudged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A name an anchor makes a claim (listed among the product's names) that the model
    does not have but the dependency the product imports declares (scopedep's `parse`, as
    httpx's docs list httpcore's stream method `start_tls(...)` among its own): that
    party's name, not the page's invention; a listed name no one declares stays a
    finding."""
    ctx = _context(tmp_path, monkeypatch)
    body = (
        "The helpers:\n\n- `serializerCompiler()`: compiles.\n- `allow_partial_output()`: "
        "allows.\n- `parse(text)`: parses.\n- `parse_fully(text)`: parses all.\n"
    )
    card = gate.GATE.evaluate(make_post(body, tmp_path), ctx)
    entry = token_outcome(card, "parse(text)")
    assert (entry["outcome"], entry["rule"]) == ("unjudged", "dependency-name"), entry
    entry = token_outcome(card, "parse_fully(text)")
    assert entry["outcome"] == "ungrounded", entry
