"""Gate 2 on names of the product's declared dependencies and of the standard library
(issue 24): each judged against that dependency's model, read from a fake installed
distribution in a temporary site folder or a temporary node_modules, never imported."""

from __future__ import annotations

import importlib
import inspect
import json
from pathlib import Path
from typing import Any

import pytest

from pytest_postgates.evidence.dependency_models import DEPENDENCY_PATH_ENV, DependencyModels
from pytest_postgates.evidence.grounding import Dependencies
from pytest_postgates.gates import GateContext
from pytest_postgates.gates import symbol_grounding as gate
from pytest_postgates.helpers.dependency_rules import RULES
from tests.helpers import git, make_post, make_repo, repo_context, token_outcome

FAKEDEP_INIT = '''"""A fake dependency."""
from .gauges import Gauge

__all__ = ["Gauge", "Gt", "measure"]


class Gt:
    def __init__(self, value: int) -> None:
        self.value = value


def measure(gauge: Gauge) -> int:
    return 0
'''
FAKEDEP_GAUGES = "class Gauge:\n    def read(self) -> int:\n        return 0\n"
# A module whose names are made at run time: the model cannot list them.
FAKEDEP_LAZY = "def __getattr__(name: str) -> object:\n    raise AttributeError(name)\n"
# A module whose `__all__` grows from another's: its names are not all written here.
FAKEDEP_GROWN = 'from . import gauges\n\n__all__ = ["local"]\n__all__ += gauges.__all__\n'

PRODUCT: dict[str, str | bytes] = {
    "pyproject.toml": ('[project]\nname = "mylib"\ndependencies = ["fakedep>=1", "missingdep"]\n'),
    "package.json": json.dumps(
        {"name": "mylib-ui", "dependencies": {"fake-css": "^1", "fake-js": "^2"}}
    ),
    "mylib/__init__.py": (
        "from fakedep import Gt, Nowhere\n\n\nclass Client:\n    def open(self) -> None: ...\n"
    ),
}


def fake_site(root: Path) -> Path:
    """A site folder holding fakedep 1.0 as pip installs it (files listed in RECORD)."""
    files = {
        "fakedep/__init__.py": FAKEDEP_INIT,
        "fakedep/gauges.py": FAKEDEP_GAUGES,
        "fakedep/lazy.py": FAKEDEP_LAZY,
        "fakedep/grown.py": FAKEDEP_GROWN,
    }
    info = root / "fakedep-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fakedep\nVersion: 1.0\n")
    (info / "RECORD").write_text("".join(f"{name},,\n" for name in files))
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def fake_node_modules(root: Path) -> Path:
    # A stylesheet package: its entry is no script, and no model reads it.
    styles = root / "node_modules" / "fake-css"
    styles.mkdir(parents=True)
    (styles / "package.json").write_text(json.dumps({"name": "fake-css", "main": "x.css"}))
    (styles / "x.css").write_text("a { color: red }\n")
    package = root / "node_modules" / "fake-js"
    package.mkdir(parents=True)
    manifest = {"name": "fake-js", "version": "2.1.0", "types": "index.d.ts"}
    (package / "package.json").write_text(json.dumps(manifest))
    (package / "index.d.ts").write_text(
        "export declare class Widget {\n  render(): void;\n}\n"
        "export declare function makeWidget(): Widget;\n"
    )
    return root


@pytest.fixture
def ctx(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GateContext:
    return dependency_context(tmp_path, monkeypatch, PRODUCT)


def dependency_context(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, product: dict[str, str | bytes]
) -> GateContext:
    """Gate 2's context on a repository of ``product`` whose dependencies are the fake
    site-packages and node_modules above (every token a claim, so the rules decide)."""
    site = fake_site(tmp_path / "site")
    modules = fake_node_modules(tmp_path / "js")
    monkeypatch.setenv(DEPENDENCY_PATH_ENV, f"{site}:{modules}")
    repo = make_repo(tmp_path / "repo", product)
    return repo_context(repo, tmp_path / "cache", symbol_unanchored_claims=True)


def _card(body: str, tmp_path: Path, ctx: GateContext) -> Any:
    return gate.GATE.evaluate(make_post(body, tmp_path), ctx)


def _outcome(body: str, token: str, tmp_path: Path, ctx: GateContext) -> dict[str, Any]:
    return token_outcome(_card(body, tmp_path, ctx), token)


def test_a_chain_rooted_in_a_dependency_resolves_there(tmp_path: Path, ctx: GateContext) -> None:
    for token in ("fakedep.Gauge.read", "fakedep.measure", "json.JSONEncoder"):
        entry = _outcome(f"Call `{token}` first.\n", token, tmp_path, ctx)
        assert (entry["outcome"], entry["rule"]) == ("external", "dependency-found"), entry
    entry = _outcome("Call `fakedep.Gauge.read` first.\n", "fakedep.Gauge.read", tmp_path, ctx)
    assert "dependency fakedep 1.0" in entry["where"]
    entry = _outcome("Use `json.JSONEncoder`.\n", "json.JSONEncoder", tmp_path, ctx)
    assert "the standard library" in entry["where"]


def test_a_name_the_page_imports_from_a_dependency_is_judged_there(
    tmp_path: Path, ctx: GateContext
) -> None:
    body = "```python\nfrom fakedep import Gauge as G\n```\n\nCall `G.read()` or `G.reed()`.\n"
    card = _card(body, tmp_path, ctx)
    assert token_outcome(card, "G.read()")["outcome"] == "external"
    body = '```ts\nimport { Widget } from "fake-js";\n```\n\n`Widget.render` and `Widget.paint`.\n'
    card = _card(body, tmp_path, ctx)
    assert token_outcome(card, "Widget.render")["outcome"] == "external"
    # A file named after a dependency is no chain of it; a stylesheet package is read safely.
    body = "Edit `fakedep.config.js`; `Nowhere` is exported by none.\n"
    card = _card(body, tmp_path, ctx)
    assert not token_outcome(card, "fakedep.config.js").get("rule", "").startswith("dependency")
    assert card.verdict != "ERROR"


def test_a_dependency_not_installed_is_unjudged_with_why(tmp_path: Path, ctx: GateContext) -> None:
    card = _card("Call `missingdep.connect()`.\n", tmp_path, ctx)
    entry = token_outcome(card, "missingdep.connect()")
    assert (entry["outcome"], entry["rule"]) == ("unjudged", "dependency-not-installed")
    why = "dependency missingdep not installed: its names are unjudged"
    assert card.detail["dependencies_not_installed"] == [why]
    assert "1 unjudged (their dependency is not installed)" in card.summary


def test_a_bare_name_the_product_imports_is_grounded_and_an_unknown_one_is_a_claim(
    tmp_path: Path, ctx: GateContext
) -> None:
    # The product imports `Gt` from fakedep: a name it uses, grounded with the import
    # (tests/test_dependency_imports.py).
    entry = _outcome("Wrap it in `Gt`.\n", "Gt", tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("grounded", "dependency-imported"), entry
    # The product's own names stay the product's; an unknown name is still a claim.
    assert _outcome("Use `Client`.\n", "Client", tmp_path, ctx)["outcome"] == "grounded"
    assert _outcome("Use `Gte`.\n", "Gte", tmp_path, ctx)["outcome"] == "ungrounded"
    # Exported by fakedep, but nothing of the product writes it: a claim like any other.
    assert _outcome("Use `measure`.\n", "measure", tmp_path, ctx)["outcome"] == "ungrounded"


def test_each_rule_can_be_turned_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = fake_site(tmp_path / "site")
    monkeypatch.setenv(DEPENDENCY_PATH_ENV, str(site))
    repo = make_repo(tmp_path / "repo", PRODUCT)
    names = tuple(rule.name for rule in RULES)
    off = repo_context(
        repo, tmp_path / "cache", symbol_unanchored_claims=True, symbol_rules_off=names
    )
    for token in ("Gt", "fakedep.Gauge.raed()", "fakedep.measure"):
        entry = _outcome(f"Use `{token}`.\n", token, tmp_path, off)
        assert not entry.get("rule", "").startswith("dependency-"), entry


def test_import_roots_come_from_the_record_and_a_missing_dependency_has_no_model(
    tmp_path: Path,
) -> None:
    site = fake_site(tmp_path / "site")
    declared = Dependencies(
        names={"FakeDep": "pyproject.toml", "missingdep": "requirements.txt"},
        direct={"FakeDep", "missingdep"},
    )
    models = DependencyModels(declared, tmp_path, tmp_path / "cache", [site])
    found = models.for_root("fakedep")
    assert found is not None and found.version == "1.0" and found.model is not None
    assert {"Gauge", "Gt", "measure"} <= found.model.modules["fakedep"]
    missing = models.for_root("missingdep")
    assert missing is not None and missing.model is None
    assert [d.name for d in models.not_installed()] == ["missingdep"]
    assert models.for_root("not_declared_anywhere") is None
    # A cached model answers the same without reading the files again.
    again = DependencyModels(declared, tmp_path, tmp_path / "cache", [site]).for_root("fakedep")
    assert again is not None and again.model is not None
    assert again.model.modules["fakedep"] == found.model.modules["fakedep"]


@pytest.mark.parametrize("name", ["json", "textwrap", "argparse", "shlex"])
def test_standard_library_model_agrees_with_importlib_and_inspect(
    name: str, tmp_path: Path
) -> None:
    models = DependencyModels(Dependencies(), tmp_path, tmp_path / "cache", [])
    stdlib = models.for_root(name)
    assert stdlib is not None and stdlib.model is not None
    model = stdlib.model
    module = importlib.import_module(name)  # the oracle: the interpreter's own module
    listed = set(model.modules[name]) - {"*"}
    assert set(module.__all__) <= listed
    assert all(hasattr(module, n) for n in listed if not n.startswith("_"))
    for class_name, cls in inspect.getmembers(module, inspect.isclass):
        if class_name not in module.__all__ or cls.__module__.split(".")[0] != name:
            continue
        members, _why = model.members(class_name)
        own = {n for n, _ in inspect.getmembers(cls, inspect.isfunction) if n in vars(cls)}
        assert own <= members, (class_name, own - members)


def test_the_card_names_a_dependency_that_is_not_installed(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(DEPENDENCY_PATH_ENV, str(pytester.path / "empty"))
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(pytester.path.parent))
    for name, text in PRODUCT.items():
        (pytester.path / name).parent.mkdir(parents=True, exist_ok=True)
        (pytester.path / name).write_text(str(text))
    posts = pytester.path / "_posts"
    posts.mkdir()
    (posts / "2026-01-01-deps.md").write_text(
        "---\nlayout: post\ntitle: T\ndate: 2026-01-01\n---\n"
        "Open a `Client`, then call `missingdep.connect()`.\n"
    )
    git(pytester.path, "init", "-q")
    git(pytester.path, "add", "-A")
    git(pytester.path, "commit", "-qm", "deps")
    result = pytester.runpytest("_posts", "--postgates-only=2", "--postgates-scorecards=cards")
    result.assert_outcomes(passed=1)
    card = json.loads(
        (pytester.path / "cards" / "2026-01-01-deps-gate2-symbol_grounding.json").read_text()
    )
    assert card["detail"]["dependencies_not_installed"] == [
        "dependency missingdep not installed: its names are unjudged"
    ]


def test_setup_cfg_requirements_are_declared(tmp_path: Path) -> None:
    from pytest_postgates.evidence.grounding import dependencies_of
    from pytest_postgates.evidence.index import open_index

    setup_cfg = (
        "[options]\ninstall_requires =\n    fakedep>=1\n    # a comment\n\n"
        "[options.extras_require]\nhttp2 =\n    h2>=3,<5\n"
    )
    root = make_repo(tmp_path / "cfg", {"setup.cfg": setup_cfg, "pkg/__init__.py": ""})
    index = open_index(root, git(root, "rev-parse", "HEAD").strip(), tmp_path / "c")
    deps = dependencies_of(index)
    assert {"fakedep", "h2"} <= deps.direct and deps.source("h2") == "setup.cfg"
