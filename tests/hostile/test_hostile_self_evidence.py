"""Hostile posts: a post, a draft or the plugin's own output grounding the post's inventions.

Issue 25: the README promises that posts are never their own evidence, and it failed when a
`paths` entry is a glob, when a committed draft is named on the command line, when `repo`
points at another repository and the posts' repository is added as the second one (its
Markdown then grounded the post), and when scorecards were committed (they quote the failing
tokens). Each case here writes the same invented member of a real class in the post and in
that other place; gate 2 must keep it ungrounded.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import git, make_repo

FRONT = "---\nlayout: post\ntitle: T\ndate: 2026-01-01\n---\n"
INVENTED = "Widget.inventedMethod()"
BODY = FRONT + f"Call `{INVENTED}` to draw it.\n"
PRODUCT = {
    "package.json": '{"name": "@acme/widgets"}\n',
    "src/widget.ts": "export class Widget {\n  render() {}\n}\n",
}


def _run(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, *args: str) -> None:
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    monkeypatch.setenv("PYTEST_ADDOPTS", "-p no:cacheprovider -p no:hypothesispytest")
    pytester.runpytest("-rA", "--postgates-only=2", "--postgates-scorecards=cards", *args)


def _outcome(card_dir: Path, stem: str, token: str = INVENTED) -> str:
    (path,) = card_dir.glob(f"{stem}-gate2-symbol_grounding.json")
    detail = json.loads(path.read_text())["detail"]
    if any(u["token"] == token for u in detail["ungrounded"]):
        return "ungrounded"
    for outcome, entries in detail["outcomes"].items():
        if any(e["token"] == token for e in entries):
            return str(outcome)
    raise AssertionError(f"{token} not on the card: {detail}")


def _commit_all(root: Path) -> None:
    git(root, "add", "-A")
    git(root, "commit", "-qm", "posts")


def test_posts_under_a_glob_paths_entry_never_ground_each_other(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_repo(pytester.path, PRODUCT)
    (root / "pyproject.toml").write_text('[tool.postgates]\npaths = ["content/*"]\n')
    for section in ("a", "b"):
        (root / "content" / section).mkdir(parents=True)
        (root / "content" / section / f"2026-01-01-{section}.md").write_text(BODY)
    _commit_all(root)
    _run(pytester, monkeypatch, "content/a")
    assert _outcome(root / "cards", "2026-01-01-a") == "ungrounded"


def test_a_committed_draft_named_on_the_command_line_never_grounds_itself(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_repo(pytester.path, PRODUCT)
    (root / "drafts").mkdir()
    (root / "drafts" / "2026-01-01-draft.md").write_text(BODY)
    (root / "drafts" / "2026-01-02-other.md").write_text(BODY)
    _commit_all(root)
    _run(pytester, monkeypatch, "drafts/2026-01-01-draft.md")
    assert _outcome(root / "cards", "2026-01-01-draft") == "ungrounded"


def test_the_posts_repository_added_second_never_grounds_its_posts(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    product = make_repo(tmp_path / "widgets", PRODUCT)
    blog = pytester.path
    (blog / "pyproject.toml").write_text(f'[tool.postgates]\nrepo = "{product}"\n')
    (blog / "_posts").mkdir()
    (blog / "_posts" / "2026-01-01-post.md").write_text(BODY)
    (blog / "NOTES.md").write_text(f"We plan `{INVENTED}`.\n")
    git(blog, "init", "-q", "-b", "main")
    _commit_all(blog)
    _run(pytester, monkeypatch, "_posts")
    assert _outcome(blog / "cards", "2026-01-01-post") == "ungrounded"


def test_committed_scorecards_never_ground_the_tokens_they_report(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_repo(pytester.path, PRODUCT)
    (root / "_posts").mkdir()
    # Besides the rooted name, one that only text search could ground (no anchor): a
    # committed scorecard is JSON, not prose, so only leaving it out keeps it ungrounded.
    body = BODY + "It also needs `inventedHelperZz`.\n"
    (root / "_posts" / "2026-01-01-post.md").write_text(body)
    _commit_all(root)
    _run(pytester, monkeypatch, "_posts")
    assert _outcome(root / "cards", "2026-01-01-post") == "ungrounded"
    assert _outcome(root / "cards", "2026-01-01-post", "inventedHelperZz") != "grounded"
    # `git add -f` of the scorecards: the next run reads a repository holding them.
    git(root, "add", "-f", "cards")
    git(root, "commit", "-qm", "scorecards")
    _run(pytester, monkeypatch, "_posts")
    assert _outcome(root / "cards", "2026-01-01-post") == "ungrounded"
    assert _outcome(root / "cards", "2026-01-01-post", "inventedHelperZz") != "grounded"
