"""The shape of the code: the gate registry is the one list of gates, every module's imports
form no cycle, and the model, evidence, judge, tool and data layers never reach up into
gates or pytest; the external tools live under ``tools/``, each module of it small.

Imports are read with ``ast`` from the source, so lazy (function-level) imports and
``TYPE_CHECKING`` imports count as much as top-level ones. An edge goes to the module an
import names (``from a.b import c`` is ``a.b.c`` when that is a module, else ``a.b``); the
packages Python initialises on the way (``a``, ``a.b``) are not edges of their own, as in
import-linter and grimp, or every gate module would "import" the registry that lists it.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from pathlib import Path

import pytest

from pytest_postgates import gates as registry
from pytest_postgates.docs_pages import TABLE_END, TABLE_START, gate_table
from pytest_postgates.gates import BY_ID, BY_NAME, GATES
from pytest_postgates.gates.base import Gate

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "pytest_postgates"

# Layers that know nothing about gates or pytest: they take plain arguments. ``tools/``
# drives the external programs (the linters, mermaid.js, HTTP, audit commands) and holds
# the site model; ``data/`` holds word lists; the ``scan*`` modules the linear-time scanners.
LOWER_LAYERS = ("evidence", "judges", "tools", "helpers", "data")
LOWER_LAYERS += ("scan", "scan_markdown", "scan_code")
MODEL_MODULES = ("post", "front_matter", "prose", "scorecard", "config", "fileio")
UPPER_LAYERS = ("gates", "plugin", "nodes", "session", "runner", "xdist", "cli")


# ---------------------------------------------------------------------- the import graph
def module_names(package: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every module of ``package``."""
    names = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def imports_of(name: str, path: Path, modules: Iterable[str]) -> set[str]:
    """The project modules that ``name`` (at ``path``) imports anywhere in its source."""
    known = set(modules)
    root = name.split(".")[0]
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = name.split(".")
                anchor = anchor[: len(anchor) - node.level + (1 if is_package else 0)]
                base = ".".join(anchor + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                for alias in node.names
            ]
        else:
            continue
        for target in targets:
            if target.split(".")[0] != root:
                continue
            # ``import a.b.c`` names a.b.c; the longest known prefix is the module.
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def import_graph(package: Path) -> dict[str, set[str]]:
    modules = module_names(package)
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def reachable(graph: dict[str, set[str]], start: str) -> dict[str, str]:
    """Every module ``start`` imports directly or through others -> the module importing it."""
    via: dict[str, str] = {}
    todo = [start]
    while todo:
        node = todo.pop()
        for target in graph.get(node, ()):
            if target not in via and target != start:
                via[target] = node
                todo.append(target)
    return via


def _chain(via: dict[str, str], start: str, end: str) -> str:
    chain = [end]
    while chain[-1] != start:
        chain.append(via[chain[-1]])
    return " -> ".join(reversed(chain))


def _in(name: str, layers: Iterable[str]) -> bool:
    return any(
        name == f"pytest_postgates.{layer}" or name.startswith(f"pytest_postgates.{layer}.")
        for layer in layers
    )


GRAPH = import_graph(PACKAGE)


def test_the_walk_sees_lazy_and_type_checking_imports(tmp_path: Path) -> None:
    """The walker itself: a function-level import and a TYPE_CHECKING import are edges, and
    a cycle through them is found."""
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg.sub import b\n")
    (package / "sub" / "b.py").write_text("def f():\n    from pkg import a\n")
    (package / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .sub.b import f\n"
    )
    graph = import_graph(package)
    assert graph["pkg.a"] == {"pkg.sub.b"}
    assert graph["pkg.sub.b"] == {"pkg.a"}
    assert graph["pkg.c"] == {"pkg.sub.b"}
    assert cycles(graph) == [["pkg.a", "pkg.sub.b"]]


def test_the_walk_covers_the_whole_package() -> None:
    assert "pytest_postgates.gates.base" in GRAPH
    assert "pytest_postgates.session" in GRAPH["pytest_postgates.nodes"]
    assert {gate.check.__module__ for gate in GATES} <= GRAPH["pytest_postgates.gates"]


def test_no_module_imports_by_name_at_run_time() -> None:
    """The walk reads import statements; an ``importlib.import_module("...")`` or
    ``__import__`` call would be an edge it cannot see (issue 14: no importlib loading of
    gates), so there is none."""
    dynamic = []
    for name, path in module_names(PACKAGE).items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Call):
                func = node.func
                called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if called in ("import_module", "__import__"):
                    dynamic.append(f"{name}:{node.lineno}")
    assert dynamic == []


def test_no_import_cycle() -> None:
    assert cycles(GRAPH) == []


@pytest.mark.parametrize(
    "module",
    sorted(name for name in GRAPH if _in(name, LOWER_LAYERS) or _in(name, MODEL_MODULES)),
)
def test_lower_layers_never_import_gates_or_pytest_machinery(module: str) -> None:
    via = reachable(GRAPH, module)
    upward = sorted(name for name in via if _in(name, UPPER_LAYERS))
    assert not upward, "; ".join(_chain(via, module, name) for name in upward)


def test_the_tools_live_in_tools() -> None:
    """Issue 14 step 5: no tool module left at the top of the package."""
    for name in ("lint", "lint_isolation", "links", "mermaid"):
        assert not (PACKAGE / f"{name}.py").exists(), f"{name}.py belongs under tools/"
    for name in ("tools.lint", "tools.links", "tools.mermaid", "tools.audit", "tools.site"):
        assert f"pytest_postgates.{name}" in GRAPH


def test_no_module_outgrows_about_700_lines() -> None:
    """Issue 14: "no module over about 700 lines outside generated data" (750 at most);
    ``data/`` holds literal word lists, not code to read."""
    sizes = {
        path.relative_to(PACKAGE).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in PACKAGE.rglob("*.py")
        if "data" not in path.relative_to(PACKAGE).parts[:1]
    }
    assert len(sizes) > 100  # the walk saw the package
    assert {name: size for name, size in sizes.items() if size > 750} == {}


def _docs_layout() -> str:
    """The layout section of the docs' architecture page (issue 28 moved it there)."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    return text[text.index("\nLayout: ") :]


@pytest.mark.parametrize("folder", ["", "tools", "tools/lint", "helpers"])
def test_the_docs_layout_names_every_module(folder: str) -> None:
    """Issue 14: the layout section (docs/architecture.md) describes the tree. Every module
    of the top level, of ``tools/`` (and ``tools/lint/``) and of ``helpers/`` is named
    there, and every sub-package of the top level; a module added without a line there
    fails."""
    layout = _docs_layout()
    where = PACKAGE / folder
    names = [path.name for path in sorted(where.glob("*.py")) if path.name != "__init__.py"]
    if not folder:
        names += [
            f"{path.name}/"
            for path in sorted(where.iterdir())
            if path.is_dir() and (path / "__init__.py").exists()
        ]
    missing = [name for name in names if name not in layout]
    assert missing == [], f"docs layout does not name {missing} (under {folder or 'the top'})"


def test_no_data_module_holds_logic() -> None:
    """``data/`` is literal word lists: module docstring, assignments, nothing else."""
    for path in sorted((PACKAGE / "data").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            docstring = isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            future = isinstance(node, ast.ImportFrom) and node.module == "__future__"
            assignment = isinstance(node, (ast.Assign, ast.AnnAssign))
            assert docstring or future or assignment, f"{path.name}:{node.lineno}"


def test_no_gate_imports_another_gate() -> None:
    gate_modules = {gate.check.__module__ for gate in GATES}
    for module in sorted(gate_modules):
        others = GRAPH[module] & (gate_modules - {module})
        assert not others, f"{module} imports {sorted(others)}: move the helper to helpers/"


def test_shared_patterns_live_in_one_helper_module() -> None:
    """Issue 14 step 4: gates 10 and 13 read one set of call-graph claim shapes
    (``helpers/claims.py``), imported from there and compiled nowhere else. (Gates 2 and 7
    shared a list of example cues until gate 2's example rules were deleted in session 21.)"""
    from pytest_postgates.gates import call_graph_claims, claim_review
    from pytest_postgates.helpers import claims

    assert claim_review.PATTERNS is claims.PATTERNS is call_graph_claims.PATTERNS
    for gate in ("claim_review", "call_graph_claims"):
        assert "pytest_postgates.helpers.claims" in GRAPH[f"pytest_postgates.gates.{gate}"]
    # No gate module spells a claim shape of its own (the seeds' CALLS verbs).
    for gate in ("claim_review", "call_graph_claims"):
        text = (PACKAGE / "gates" / f"{gate}.py").read_text(encoding="utf-8")
        assert "delegates? to" not in text and "is the entry point" not in text, gate


# ---------------------------------------------------------------------- the registry
def test_every_gate_module_declares_one_gate_and_is_registered() -> None:
    gate_files = sorted(
        path
        for path in (PACKAGE / "gates").glob("*.py")
        # base: what a gate is; releases: how gates judge a versioned page (it hands a
        # gate's own check a context at a release, so it needs the gate types of base).
        if path.stem not in ("__init__", "__main__", "base", "releases")
    )
    declared = []
    for path in gate_files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        gates = [
            node
            for node in tree.body
            if isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "GATE" for t in node.targets)
        ]
        assert len(gates) == 1, f"{path.name} must declare exactly one GATE"
        declared.append(path.stem)
    assert sorted(gate.check.__module__.rsplit(".", 1)[1] for gate in GATES) == declared
    assert all(gate.name == gate.check.__module__.rsplit(".", 1)[1] for gate in GATES)


def test_ids_and_names_are_unique_and_every_gate_is_complete() -> None:
    assert len(BY_ID) == len(BY_NAME) == len(GATES)
    for gate in GATES:
        assert isinstance(gate, Gate)
        assert gate.kind in ("hard", "llm", "advisory")
        assert gate.advisory == (gate.kind == "advisory")
        assert gate.description.endswith(".") and len(gate.description) <= 100
        assert callable(gate.check) and callable(gate.decide)


def test_the_registry_is_explicit() -> None:
    """No importlib, no per-module id constants, no lookups back into the registry."""
    source = (PACKAGE / "gates" / "__init__.py").read_text(encoding="utf-8")
    assert "importlib" not in source
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"\bGATE_ID\b|\bspec_for\b|\brescore\b", text), path
    assert registry.GATES == GATES


def test_declared_batches_are_what_the_gates_read() -> None:
    """A gate that reads a run-wide batch of posts declares it (so that the session scopes
    it to the selected items), and declares nothing it does not read."""
    import importlib

    for gate in GATES:
        module = importlib.import_module(gate.check.__module__)
        source = Path(module.__file__ or "").read_text(encoding="utf-8")
        # posts_for(B), or the part of B covering a post: part(B, ...), scope(B, ...).
        names = re.findall(r"\b(?:posts_for|part|scope)\(([A-Z_]+)[,)]", source)
        read = {getattr(module, name) for name in names}
        assert read == set(gate.batches), gate.name


# ---------------------------------------------------------------------- the docs
def test_docs_gate_table_is_generated_from_the_registry() -> None:
    page = (ROOT / "docs" / "gates" / "index.md").read_text(encoding="utf-8")
    start = page.index(TABLE_START) + len(TABLE_START) + 1
    end = page.index(TABLE_END)
    assert page[start:end] == gate_table(), (
        "regenerate it: python -m pytest_postgates.docs_pages --update docs"
    )


def test_every_gate_links_to_its_docs_page() -> None:
    for gate in GATES:
        page = (ROOT / "docs" / gate.docs_page).read_text(encoding="utf-8")
        assert f'<a id="{gate.help_anchor}"></a>' in page, gate.name
        assert f"]({gate.docs_page.removeprefix('gates/')}#{gate.help_anchor})" in gate_table()
