"""Gate 15 on a member the product's code sets on the value a call returns (dspy's
``GEPA.compile`` sets ``new_prog.detailed_results = result`` and returns ``new_prog``,
annotated ``-> Module``): the value has that member at run time although its declared type
does not, so a sample's ``new_prog.detailed_results`` is no finding. A member nobody sets is
still judged against the declared type, and attributes a nested function or ``self`` gets
are not the returned value's."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from pytest_postgates.evidence.model_python import _returned_attributes
from tests.helpers import make_repo, sample_card, sample_violations

FILES = {
    "pyproject.toml": "[project]\nname = 'tunekit'\nversion = '1'\n",
    "tunekit/__init__.py": (
        "from tunekit.core import Module, Optimizer\n__all__ = ['Module', 'Optimizer']\n"
    ),
    "tunekit/core.py": (
        "class Module:\n"
        "    def __init__(self) -> None:\n"
        "        self.name = 'm'\n\n"
        "    def copy(self) -> 'Module':\n"
        "        return Module()\n\n"
        "class Optimizer:\n"
        "    def __init__(self, track: bool = False) -> None:\n"
        "        self.track = track\n\n"
        "    def compile(self, student: Module) -> Module:\n"
        "        new_prog = student.copy()\n"
        "        if self.track:\n"
        "            new_prog.detailed_results = {'best': 1}\n"
        "        return new_prog\n\n"
        "    def plain(self, student: Module) -> Module:\n"
        "        return student.copy()\n"
    ),
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("tunekit"), FILES)


def test_a_member_the_callee_sets_on_its_result_is_no_finding(tmp_path: Path, repo: Path) -> None:
    code = (
        "import tunekit\n"
        "opt = tunekit.Optimizer(track=True)\n"
        "new_prog = opt.compile(tunekit.Module())\n"
        "print(new_prog.detailed_results)\n"
        "print(new_prog.name)\n"
    )
    card = sample_card(code, "python", tmp_path, repo)
    assert sample_violations(card) == []


def test_a_member_nobody_sets_is_still_judged(tmp_path: Path, repo: Path) -> None:
    code = (
        "import tunekit\n"
        "opt = tunekit.Optimizer()\n"
        "new_prog = opt.compile(tunekit.Module())\n"
        "print(new_prog.detailed_result)\n"
        "other = opt.plain(tunekit.Module())\n"
        "print(other.detailed_results)\n"
    )
    card = sample_card(code, "python", tmp_path, repo)
    assert sample_violations(card) == [
        ("member", "new_prog.detailed_result"),
        ("member", "other.detailed_results"),
    ]


def test_only_attributes_set_on_a_returned_local_are_read() -> None:
    source = (
        "def build(self, x):\n"
        "    prog = make()\n"
        "    prog.stats = 1\n"
        "    other = make()\n"
        "    other.unused = 2\n"
        "    self.cache = prog\n"
        "    def inner():\n"
        "        result = make()\n"
        "        result.hidden = 3\n"
        "        return result\n"
        "    prog.extra: int = 4\n"
        "    return prog\n"
    )
    function = ast.parse(source).body[0]
    assert isinstance(function, ast.FunctionDef)
    assert sorted(_returned_attributes(function)) == ["extra", "stats"]
