"""Gate 15 on a class a Python sample uses without binding it where another page of the
same docs tree defines it in its sample (python_docs_names, issue 26): the docs' own, listed
unjudged with where it is defined, never a finding; a definition outside the tree, or in
prose, does not count."""

from __future__ import annotations

from pathlib import Path

from pytest_postgates.gates import code_samples
from tests.helpers import make_post, make_repo, repo_context
from tests.helpers import sample_violations as _violations
from tests.helpers import unjudged_reasons as _unjudged

FILES = {
    "pyproject.toml": "[project]\nname = 'restkit'\n",
    "restkit/__init__.py": "",
    "restkit/fields.py": "class ReadOnlyField:\n    pass\n",
    "restkit/permissions.py": (
        "class BasePermission:\n    pass\n"
        "class IsAuthenticated(BasePermission):\n    pass\n"
        "class IsAdminUser(BasePermission):\n    pass\n"
    ),
}
DEFINES = (
    "# Permissions\n\n```python\nfrom restkit.permissions import BasePermission\n\n"
    "class ReadOnly(BasePermission):\n    pass\n```\n"
)
USES = "Intro.\n\n```python\npermission_classes = [IsAuthenticated | ReadOnly]\n```\n"


def _card(tmp_path: Path, others: dict[str, str]) -> object:
    repo = make_repo(tmp_path / "repo", {**FILES, **others})
    (repo / "docs" / "community").mkdir(parents=True, exist_ok=True)
    post = make_post(USES, repo / "docs" / "community", name="announcement.md")
    return code_samples.GATE.evaluate(post, repo_context(repo, tmp_path / "cache"))


def test_a_class_another_page_of_the_docs_defines_is_the_docs_own(tmp_path: Path) -> None:
    card = _card(tmp_path, {"docs/api-guide/permissions.md": DEFINES})
    assert _violations(card) == []
    assert any(
        "ReadOnly" in r and "docs/api-guide/permissions.md:6" in r and "docs' own" in r
        for r in _unjudged(card)
    ), _unjudged(card)


def test_with_no_page_defining_it_the_near_miss_is_still_a_finding(tmp_path: Path) -> None:
    card = _card(tmp_path, {"docs/api-guide/other.md": "# Other\n\nNo code.\n"})
    assert _violations(card) == [("python_name", "ReadOnly")]


def test_a_definition_outside_the_docs_tree_or_in_prose_does_not_count(tmp_path: Path) -> None:
    others = {
        "examples/permissions.md": DEFINES,  # another top-level folder
        "docs/api-guide/prose.md": "# Prose\n\nclass ReadOnly(BasePermission) is shown below.\n",
        "docs/api-guide/js.md": "# JS\n\n```js\nclass ReadOnly {}\n```\n",
    }
    card = _card(tmp_path, others)
    assert _violations(card) == [("python_name", "ReadOnly")]


def test_the_docs_definitions_key_the_cached_result(tmp_path: Path) -> None:
    """A page whose result depends on another page's definitions is gated again when they
    change: the definitions are part of the gate's cache inputs."""
    repo = make_repo(tmp_path / "repo", {**FILES, "docs/api-guide/permissions.md": DEFINES})
    (repo / "docs" / "community").mkdir(parents=True)
    post = make_post(USES, repo / "docs" / "community", name="announcement.md")
    before = code_samples.cache_inputs(post.path, repo_context(repo, tmp_path / "cache"))
    other = repo / "docs" / "api-guide" / "permissions.md"
    other.write_text(DEFINES.replace("ReadOnly", "WriteOnly"), encoding="utf-8")
    after = code_samples.cache_inputs(post.path, repo_context(repo, tmp_path / "cache"))
    assert before is not None and after is not None and before != after


def test_a_repl_session_and_an_indented_definition_count(tmp_path: Path) -> None:
    from pytest_postgates.helpers import python_docs_names

    docs = tmp_path / "docs"
    (docs / "a").mkdir(parents=True)
    (docs / "a" / "repl.md").write_text(
        "# R\n\n```pycon\n>>> class Shown:\n...     pass\n```\n", encoding="utf-8"
    )
    (docs / "page.md").write_text(
        "# P\n\n```python\nclass Outer:\n    def inner(self): ...\n```\n", encoding="utf-8"
    )
    found = python_docs_names.defined_names(docs / "page.md", tmp_path, {})
    assert found == {
        "Shown": "docs/a/repl.md:4",
        "Outer": "docs/page.md:4",
        "inner": "docs/page.md:5",
    }


def test_a_page_outside_the_repository_counts_its_own_folder_only(tmp_path: Path) -> None:
    from pytest_postgates.helpers import python_docs_names

    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "deep.md").write_text("```python\nclass Deep: ...\n```\n", "utf-8")
    (tmp_path / "near.md").write_text("```python\nclass Near: ...\n```\n", "utf-8")
    found = python_docs_names.defined_names(tmp_path / "page.md", None, {})
    assert found == {"Near": "near.md:2"}


def test_an_indented_block_or_untagged_fence_that_parses_as_python_counts(
    tmp_path: Path,
) -> None:
    """MkDocs pages indent their samples: an indented block (or a fence with no language)
    that parses as Python defines names; one that does not parse (a shell line) does not."""
    from pytest_postgates.helpers import python_docs_names

    (tmp_path / "page.md").write_text(
        "# P\n\nText:\n\n    class ReadOnly(BasePermission):\n        pass\n\n"
        "```\ndef untagged(): ...\n```\n\n```\nclass Shell && echo\n```\n",
        "utf-8",
    )
    found = python_docs_names.defined_names(tmp_path / "page.md", None, {})
    assert found == {"ReadOnly": "page.md:5", "untagged": "page.md:9"}
