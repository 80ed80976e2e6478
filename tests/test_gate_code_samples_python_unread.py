"""Gate 15 says what it does not read (issue 26): every attribute use on a value a Python
sample takes from the product is judged or listed unjudged with the reason, in fenced
samples, REPL sessions, indented code blocks and fences inside a MkDocs tab; members a
product class inherits from a dependency's class are judged in that dependency's model."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_postgates.gates import code_samples as gate
from pytest_postgates.scorecard import Scorecard
from tests.helpers import make_post, make_repo, repo_context
from tests.test_gate_code_samples_python import WIREKIT

SETUP = "Intro.\n\n```python\nimport wirekit\n```\n\n"
# Each case: Markdown after SETUP whose LAST line of code is the one attribute use on a
# product value that the test asks about (every line before it only sets the value up).
CASES = {
    "indented REPL": "    >>> c = wirekit.Client()\n    >>> c.shutt()\n",
    "indented Python": "    c = wirekit.Client()\n    c.shutt()\n",
    "fence in a MkDocs tab": (
        '=== "Sync"\n\n    ```python\n    c = wirekit.Client()\n    c.shutt()\n    ```\n'
    ),
    "except handler": (
        "```python\ntry:\n    pass\nexcept wirekit.Response as exc:\n    exc.statuss\n```\n"
    ),
    "tuple unpacking": "```python\na, b = wirekit.get('/')\na.whatever\n```\n",
    "another library's return type": "```python\nd = wirekit.get('/').json()\nd.keys()\n```\n",
    "container": "```python\nit = wirekit.Client().stream('GET', '/')\nit.close()\n```\n",
    "after a missing member": "```python\nx = wirekit.Client().shutt\nx.url\n```\n",
    "an item of a product value": "```python\nr = wirekit.get('/')\nr.request['a'].upper()\n```\n",
}


@pytest.fixture(scope="module")
def wirekit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("wirekit"), dict(WIREKIT))


def _check(body: str, tmp_path: Path, repo: Path) -> Scorecard:
    return gate.GATE.evaluate(make_post(body, tmp_path), repo_context(repo, tmp_path / "c"))


def _judged(card: Scorecard) -> int:
    kinds = card.detail["checked_by_kind"]
    return int(kinds.get("member", 0)) + int(kinds.get("python_attribute", 0))


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_attribute_use_on_a_product_value_is_judged_or_listed(
    case: str, tmp_path: Path, wirekit: Path
) -> None:
    body = SETUP + CASES[case]
    card = _check(body, tmp_path, wirekit)
    # The use's file line: the last line of the body that is code.
    lines = body.splitlines()
    use = max(n for n, text in enumerate(lines, 1) if "." in text and "```" not in text)
    offset = len(make_post(body, tmp_path).lines) - len(lines)
    line = use + offset
    without = "\n".join(lines[: use - 1] + lines[use:]) + "\n"
    before = _judged(_check(without, tmp_path, wirekit))
    listed = {item["line"] for item in card.detail["unjudged"]}
    found = {item["line"] for item in card.detail["violations"]}
    assert _judged(card) > before or line in listed | found, (case, card.detail)


def test_an_indented_repl_session_is_read_as_python(tmp_path: Path, wirekit: Path) -> None:
    card = _check(SETUP + CASES["indented REPL"], tmp_path, wirekit)
    assert [(v["kind"], v["name"]) for v in card.detail["violations"]] == [("member", "c.shutt")]


def test_an_indented_block_that_is_not_python_is_listed_unread(
    tmp_path: Path, wirekit: Path
) -> None:
    body = SETUP + "    $ wirekit get https://example.com | jq .\n"
    card = _check(body, tmp_path, wirekit)
    reasons = [item["reason"] for item in card.detail["unjudged"]]
    assert any("does not parse as Python: not read" in r for r in reasons), reasons
    # A block that names nothing of the product is not the gate's business.
    quiet = _check(SETUP + "    GET /users HTTP/1.1\n", tmp_path, wirekit)
    assert quiet.detail["unjudged"] == []


def test_a_name_no_sample_binds_is_listed(tmp_path: Path, wirekit: Path) -> None:
    card = _check(SETUP + "    >>> print(exc.full_details())\n", tmp_path, wirekit)
    reasons = [item["reason"] for item in card.detail["unjudged"]]
    assert any("never bind exc" in r for r in reasons), reasons


def test_a_caught_exception_is_an_instance_of_its_class(tmp_path: Path, wirekit: Path) -> None:
    card = _check(SETUP + CASES["except handler"], tmp_path, wirekit)
    names = [(v["kind"], v["name"]) for v in card.detail["violations"]]
    assert names == [("member", "exc.statuss")]


def test_a_name_except_star_binds_is_a_group_not_an_instance(tmp_path: Path, wirekit: Path) -> None:
    code = (
        "```python\ntry:\n    pass\nexcept* wirekit.Response as group:\n    group.exceptions\n```\n"
    )
    card = _check(SETUP + code, tmp_path, wirekit)
    assert card.detail["violations"] == []
    reasons = [item["reason"] for item in card.detail["unjudged"]]
    assert any("group.exceptions: group is an ExceptionGroup of Response" in r for r in reasons)


def test_a_name_imported_from_a_wrong_module_is_the_products_one_class(
    tmp_path: Path, wirekit: Path
) -> None:
    code = "```python\nfrom wirekit.client import MockTransport\nMockTransport.mokc\n```\n"
    card = _check("Intro.\n\n" + code, tmp_path, wirekit)
    names = [v["name"] for v in card.detail["violations"]]
    assert names == ["from wirekit.client import MockTransport", "MockTransport.mokc"]


# A product class extending classes outside it: the standard library's (read in its model),
# and an undeclared package's (listed).
KIT = {
    "pyproject.toml": '[project]\nname = "kit"\ndependencies = []\n',
    "kit/__init__.py": "from kit.cli import Parser, Plugin\n__all__ = ['Parser', 'Plugin']\n",
    "kit/cli.py": (
        "import argparse\n\nimport pluggy\n\n"
        "class Parser(argparse.ArgumentParser):\n    def run(self) -> None: ...\n\n"
        "class Plugin(pluggy.Base):\n    pass\n"
    ),
}


def test_members_inherited_from_a_dependency_are_judged_there(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "kit", KIT)
    code = (
        "```python\nimport kit\np = kit.Parser()\np.run()\np.add_argument('--x')\n"
        "p.add_arguments('--y')\nq = kit.Plugin()\nq.hook\n```\n"
    )
    card = _check("Intro.\n\n" + code, tmp_path, repo)
    violations = card.detail["violations"]
    assert [v["name"] for v in violations] == ["p.add_arguments"]
    assert "did you mean `add_argument`" in violations[0]["reason"]
    reasons = [item["reason"] for item in card.detail["unjudged"]]
    assert any("q.hook" in r and "pluggy is no declared dependency" in r for r in reasons)


# A product that calls its visitors' methods by a name made at run time.
HOOKS = {
    "pyproject.toml": '[project]\nname = "kit"\n',
    "kit/__init__.py": "",
    "kit/visit.py": (
        "class Base:\n"
        "    def visit(self, node) -> None:\n"
        '        getattr(self, f"visit_{node.kind}", self.generic)(node)\n\n'
        "    def generic(self, node) -> None: ...\n\n"
        "class Visitor(Base):\n"
        "    def visit_classdef(self, node) -> None: ...\n\n"
        "    def visit_module(self, node) -> None: ...\n\n"
        "class Extension(Base):\n    pass\n\n"
        "class Plain:\n    pass\n"
    ),
}


def test_hook_names_of_a_family_the_product_calls_by_name(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "hooks", HOOKS)
    code = (
        "```python\nfrom kit.visit import Extension, Plain\n\n"
        "class Mine(Extension):\n"
        "    def visit_module(self, node): ...\n"  # one of the product's own: true
        "    def visit_ClassDef(self, node): ...\n"  # its spelling differs in case
        "    def visit_lambda(self, node): ...\n"  # a name the product may make: listed
        "    def helper(self): ...\n\n"  # the subclass's own method
        "class Other(Plain):\n    def visit_ClassDef(self, node): ...\n```\n"
    )
    card = _check("Intro.\n\n" + code, tmp_path, repo)
    violations = card.detail["violations"]
    assert [v["name"] for v in violations] == ["Mine.visit_ClassDef"]
    assert "did you mean `visit_classdef`" in violations[0]["reason"]
    reasons = [item["reason"] for item in card.detail["unjudged"]]
    assert [r for r in reasons if "visit_" in r] == [
        "Mine.visit_lambda: Extension calls its methods by a name made at run time (getattr("
        'self, f"visit_...")); the product defines no visit_ method of that name, so it is '
        "not judged"
    ]


# Visitor and inspector extensions joined by a union type alias, the base a page's
# extension subclasses (griffe's `Extension = Union[VisitorExtension, InspectorExtension]`).
UNION_HOOKS = {
    "pyproject.toml": '[project]\nname = "kit"\n',
    "kit/__init__.py": "",
    "kit/walk.py": (
        "from typing import Union\n\n"
        "class Visits:\n"
        "    def visit(self, node) -> None:\n"
        '        getattr(self, f"visit_{node.kind}", self.generic)(node)\n\n'
        "    def generic(self, node) -> None: ...\n\n"
        "class Inspects:\n"
        "    def inspect(self, node) -> None:\n"
        '        getattr(self, f"inspect_{node.kind}", self.generic)(node)\n\n'
        "    def generic(self, node) -> None: ...\n\n"
        "class Visitor(Visits):\n"
        "    def visit_classdef(self, node) -> None: ...\n\n"
        "class VisitorExtension(Visits):\n    pass\n\n"
        "class InspectorExtension(Inspects):\n"
        "    def inspect_module(self, node) -> None: ...\n\n"
        "Extension = Union[VisitorExtension, InspectorExtension]\n"
        "Flags = VisitorExtension | None\n"
    ),
}


@pytest.mark.parametrize("module", ["kit.walk", "kit.moved"])
def test_hooks_of_a_subclass_of_a_union_type_alias(module: str, tmp_path: Path) -> None:
    # Imported from where the alias is, or from a module that does not exist (the name's
    # one alias is still what the page subclasses).
    repo = make_repo(tmp_path / "hooks", UNION_HOOKS)
    code = (
        f"```python\nfrom {module} import Extension\n\n"
        "class Mine(Extension):\n"
        "    def visit_classdef(self, node): ...\n"  # the product's own spelling: true
        "    def inspect_module(self, node): ...\n"  # an override of the other side
        "    def visit_ClassDef(self, node): ...\n"  # differs in case: never called
        "    def helper(self): ...\n```\n"
    )
    card = _check("Intro.\n\n" + code, tmp_path, repo)
    names = [v["name"] for v in card.detail["violations"]]
    assert names[-1:] == ["Mine.visit_ClassDef"]
    reason = card.detail["violations"][-1]["reason"]
    assert reason.startswith(
        "Extension is the type alias VisitorExtension | InspectorExtension, and VisitorExtension "
        'calls its methods by a name made at run time (getattr(self, f"visit_..."))'
    )
    assert "did you mean `visit_classdef`" in reason
    assert "so visit_ClassDef is not the method it calls" in reason
    assert ("kit.moved" in names[0]) == (module == "kit.moved")
    assert len(names) == 1 + (module == "kit.moved")


# Exceptions whose members a page's REPL session shows on a name it never binds.
ERRORS = {
    "pyproject.toml": '[project]\nname = "kit"\n',
    "kit/__init__.py": "",
    "kit/errors.py": (
        "class Problem(Exception):\n"
        "    detail = ''\n"
        "    def get_codes(self): ...\n"
        "    def get_full_details(self): ...\n\n"
        "class Invalid(Problem):\n    pass\n\n"
        "class Other:\n"
        "    detail = ''\n"
        "    def get_codes(self): ...\n\n"
        "class Lazy:\n"
        "    def lookup(self): ...\n"
        "    def summary(self): ...\n"
        "    def __getattr__(self, name): ...\n"
    ),
}


def test_members_on_a_name_the_page_never_binds(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "errors", ERRORS)
    code = (
        "```python\nimport kit\n```\n\n"
        "    >>> print(exc.detail)\n    >>> print(exc.get_codes())\n"
        "    >>> print(exc.full_details())\n    >>> print(exc.get_full_details())\n\n"
        # One product member beside the unknown one: the name's type is not shown.
        "    >>> err.get_codes()\n    >>> err.full_details()\n\n"
        # Members of two classes of no common lineage: not one family.
        "    >>> other.detail\n    >>> other.get_codes()\n    >>> other.full_details()\n\n"
        # A family that makes members at run time.
        "    >>> lazy.lookup()\n    >>> lazy.summary()\n    >>> lazy.full_details()\n\n"
        # A member like no member of the family: a subclass's own (a model's field).
        "    >>> mine.detail\n    >>> mine.get_codes()\n    >>> mine.owner_name\n"
    )
    card = _check("Intro.\n\n" + code, tmp_path, repo)
    violations = card.detail["violations"]
    assert [v["name"] for v in violations] == ["exc.full_details"]
    assert violations[0]["reason"].startswith(
        "the page never binds exc, but the other members it uses on it (detail, get_codes, "
        "get_full_details) are together only Problem's (or a subclass's); no code of the "
        "product names full_details, a near miss of Problem's get_full_details; did you mean "
        "`get_full_details`"
    )
    listed = {r["reason"].split(":")[0] for r in card.detail["unjudged"]}
    assert {"err.full_details", "other.full_details", "lazy.full_details"} <= listed
    assert "mine.owner_name" in listed
    assert "exc.full_details" not in listed and "exc.detail" in listed


def test_an_untagged_fence_that_is_python_is_read_as_python(tmp_path: Path, wirekit: Path) -> None:
    # Its `import` made it JavaScript to the fence reader, which read nothing in it.
    body = "Intro.\n\n```\nfrom wirekit import Client\nc = Client()\nc.shutt()\n```\n"
    card = _check(body, tmp_path, wirekit)
    assert [(v["kind"], v["name"]) for v in card.detail["violations"]] == [("member", "c.shutt")]
    # Untagged JavaScript that does not parse as Python is left to the JavaScript reader.
    js = _check("Intro.\n\n```\nimport { Client } from 'wirekit'\n```\n", tmp_path, wirekit)
    assert js.detail["violations"] == []


def test_a_fence_in_a_language_not_read_that_uses_the_product_is_listed(
    tmp_path: Path, wirekit: Path
) -> None:
    body = (
        "Intro.\n\n```rust\nuse wirekit::prelude::*;\nlet c = Client::new();\n```\n\n"
        "```rust\nuse serde::Deserialize;\n```\n"
    )
    card = _check(body, tmp_path, wirekit)
    assert [(u["text"], u["reason"]) for u in card.detail["unjudged"]] == [
        (
            "use wirekit::prelude::*;",
            "a `rust` fence imports the product, and its code is "
            "not read: its language is not one the gate reads",
        ),
    ], card.detail
