"""Gate 15 on the class names a page's Python samples use without binding them (issue 26):
judged where the same sample uses a product class free by its exact name (a near miss of a
product class that no code writes is then a finding); listed unjudged where it uses none;
never judged where the page binds the name."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_postgates.helpers.python_free_names import FreeNames
from tests.helpers import make_repo, sample_card
from tests.helpers import sample_violations as _violations
from tests.helpers import unjudged_reasons as _unjudged

FILES = {
    "pyproject.toml": "[project]\nname = 'restkit'\n",
    "restkit/__init__.py": "",
    "restkit/permissions.py": (
        "class BasePermission:\n    pass\n"
        "class IsAuthenticated(BasePermission):\n    pass\n"
        "class IsAdminUser(BasePermission):\n    pass\n"
    ),
}
CODE = (
    "def get_permissions(self):\n"
    "    if self.action == 'list':\n"
    "        permission_classes = [IsAuthenticated]\n"
    "    else:\n"
    "        permission_classes = [IsAdmin]\n"
    "    return [permission() for permission in permission_classes]"
)


def test_a_near_miss_beside_a_product_class_used_free_is_a_finding(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", FILES)
    card = sample_card(CODE, "python", tmp_path, repo)
    assert _violations(card) == [("python_name", "IsAdmin")]
    reason = card.detail["violations"][0]["reason"]
    assert "without importing them (IsAuthenticated)" in reason, reason
    assert "did you mean `IsAdminUser`?" in reason, reason


def test_a_near_miss_in_a_sample_using_no_product_class_is_unjudged(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", FILES)
    card = sample_card(CODE.replace("IsAuthenticated", "MyPermission"), "python", tmp_path, repo)
    assert _violations(card) == []
    assert any("IsAdmin: the page never binds it" in r for r in _unjudged(card)), _unjudged(card)


def test_a_name_the_page_binds_is_not_free(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", FILES)
    card = sample_card("class IsAdmin:\n    pass\n\n" + CODE, "python", tmp_path, repo)
    assert _violations(card) == []
    assert not any("IsAdmin" in r for r in _unjudged(card)), _unjudged(card)


STAR = {
    "pyproject.toml": "[project]\nname = 'pyorm'\n",
    "pyorm/__init__.py": (
        "class Orm:\n    def find(self, where=None):\n        return []\n\n"
        "def connect(url: str) -> Orm:\n    return Orm()\n"
    ),
}


def test_a_name_no_star_imported_module_has_is_a_finding(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", STAR)
    card = sample_card("from pyorm import *\norm = conect('x')\n", "python", tmp_path, repo)
    assert _violations(card) == [("python_name", "conect")]
    reason = card.detail["violations"][0]["reason"]
    assert "imports * from pyorm, which has no public name conect" in reason, reason
    assert "did you mean `connect`?" in reason, reason


def test_a_name_a_star_imported_module_has_is_checked(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", STAR)
    card = sample_card("from pyorm import *\norm = connect('x')\n", "python", tmp_path, repo)
    assert _violations(card) == []
    assert {(c["name"], c["kind"]) for c in card.detail["checked_names"]} >= {
        ("connect", "python_name")
    }


def test_a_bare_name_the_page_never_binds_is_checked_or_listed(tmp_path: Path) -> None:
    """Never silent: the product's top-level export is checked, any other name listed."""
    repo = make_repo(tmp_path / "repo", STAR)
    code = "import pyorm\norm = connect('x')\nrows = load(orm)\nOrm.find(orm, where=rows)\n"
    card = sample_card(code, "python", tmp_path, repo)
    assert _violations(card) == []
    checked = {c["name"] for c in card.detail["checked_names"]}
    assert {"connect", "find"} <= checked, card.detail
    assert any(r.startswith("load: the page's samples never bind load") for r in _unjudged(card))
    assert not any(r.startswith(("orm:", "rows:")) for r in _unjudged(card)), _unjudged(card)


def test_a_fence_that_never_uses_the_product_lists_no_free_name(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", STAR)
    card = sample_card("rows = load(data)\nprint(rows)\n", "python", tmp_path, repo)
    assert not any(r.startswith(("load:", "data:")) for r in _unjudged(card)), _unjudged(card)


READ = (
    "import kit\n"
    "from kit.views import View\n"
    "from kit.more import *\n"
    "made.find(Query)\n"
    "made = build(Config, kit.x)\n"
    "def handler(event):\n"
    "    return event, made.total\n"
    "print(made)\n"
)


def test_read_walks_each_tree_once_and_returns_its_free_loads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One walk of the fence's tree gives the page's readings (receivers, bare loads,
    calls, CapWords names, bindings, imports) and the names it loads unbound."""
    tree = ast.parse(READ)
    walks: list[ast.AST] = []
    walk = ast.walk

    def counted(node: ast.AST) -> Iterator[ast.AST]:
        walks.append(node)
        return walk(node)

    monkeypatch.setattr(ast, "walk", counted)
    free = FreeNames()
    lines = READ.splitlines()
    loads = free.read(tree, (lines, list(range(len(lines))), 10))
    monkeypatch.setattr(ast, "walk", walk)
    assert walks == [tree]
    assert loads == {"Query", "build", "Config", "print"}  # `made`, `kit` bound in the tree
    # `made` is a member's receiver at lines 13 and 16: its bare load is line 17's.
    assert free.loads == [{"Query": (13, lines[3]), "build": (14, lines[4]),
                           "Config": (14, lines[4]), "event": (16, lines[6]),
                           "print": (17, lines[7]), "made": (17, lines[7])}]  # fmt: skip
    assert free.calls == [{"build": (14, lines[4]), "print": (17, lines[7])}]
    assert free.fences == [(10, {"Query": (13, lines[3]), "Config": (14, lines[4])})]
    assert free.imported == {"View": "kit"} and free.stars == ["kit.more"]
    assert {"kit", "View", "made", "handler", "event"} <= free.bound
    assert not free.bound & {"Query", "build", "Config", "find", "total", "print"}
