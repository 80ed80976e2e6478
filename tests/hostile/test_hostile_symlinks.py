"""Symlinked posts: a link that resolves outside the rootdir/repository is refused with an
ERROR naming the link, and its target is never read (parse, cache, batches, reports)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from tests.conftest import Blog

SECRET = "hunter2-SECRET-TOKEN"
# A multi-document YAML file whose first document reads as front matter: a secret file
# that would pass as a post if it were followed.
SECRET_FILE = (
    "---\nlayout: post\ntitle: T\ndate: 2026-01-01\n---\n"
    f"This post shows how pytest reads {SECRET} from a Python plugin.\n\n"
    f"Honestly, it is a paradigm shift: {SECRET}\n\n"
    "```mermaid\ngraph TD\n  A-->B\n```\n\n"
    f"See [the docs](https://example.invalid/{SECRET}).\n"
)


def everything_written(root: Path) -> str:
    """The text of every file under ``root`` (scorecards, reports, caches)."""
    parts = []
    for path in root.rglob("*"):
        if path.is_file() and not path.is_symlink():
            parts.append(path.read_bytes().decode("utf-8", "replace"))
    return "\n".join(parts)


@pytest.fixture
def outside(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("outside-the-tree")
    (folder / "secret.yml").write_text(SECRET_FILE, encoding="utf-8")
    (folder / "2026-01-05-linked.md").write_text(SECRET_FILE, encoding="utf-8")
    return folder


def run_all_outputs(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.RunResult:
    monkeypatch.setenv("XDG_CACHE_HOME", str(pytester.path / "xdg-cache"))
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    return pytester.runpytest(
        "_posts",
        "--postgates-only=1,6,11,12,13",
        "--postgates-offline",
        "--postgates-all",
        "--postgates-html=report.html",
        "--postgates-sarif=report.sarif",
        "--postgates-feedback=feedback.txt",
        "--junitxml=junit.xml",
        "-rA",
    )


def test_symlinked_post_outside_the_tree_is_refused_and_never_read(
    pytester: pytest.Pytester, blog: Blog, outside: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blog.post()
    link = blog.path / "_posts" / "2026-01-02-leak.md"
    link.symlink_to(outside / "secret.yml")
    result = run_all_outputs(pytester, monkeypatch)
    output = result.stdout.str() + result.stderr.str()
    assert "INTERNALERROR" not in output
    assert SECRET not in output
    assert SECRET not in everything_written(blog.path)
    assert str(outside) not in output  # the link is named, never its target
    result.stdout.fnmatch_lines(
        ["*ERROR*_posts/2026-01-02-leak.md::blog_quality*", "*2026-01-02-leak.md*symlink*outside*"]
    )
    outcomes = result.parseoutcomes()
    assert outcomes.get("errors") == 5  # every gate of the link; the good post runs
    assert outcomes.get("passed", 0) >= 1


def test_symlinked_folder_of_posts_outside_the_tree_is_refused(
    pytester: pytest.Pytester, blog: Blog, outside: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blog.post()
    (blog.path / "_posts" / "linked").symlink_to(outside, target_is_directory=True)
    result = run_all_outputs(pytester, monkeypatch)
    output = result.stdout.str() + result.stderr.str()
    assert "INTERNALERROR" not in output
    assert SECRET not in output
    assert SECRET not in everything_written(blog.path)
    assert str(outside) not in output
    result.stdout.fnmatch_lines(["*_posts/linked/2026-01-05-linked.md*symlink*outside*"])


def test_symlink_inside_the_tree_is_a_post_like_any_other(
    pytester: pytest.Pytester, blog: Blog
) -> None:
    real = blog.post("2026-01-01-real.md", folder="drafts")
    (blog.path / "_posts").mkdir()
    (blog.path / "_posts" / "2026-01-01-alias.md").symlink_to(real)
    result = pytester.runpytest("_posts", "--postgates-only=11")
    result.assert_outcomes(passed=1)


def test_tone_fit_reference_posts_outside_a_run_skip_links_out_of_the_folder(
    tmp_path: Path, outside: Path
) -> None:
    """Outside a pytest run (no batch list) gate 4 reads the post's sibling files as
    reference paragraphs for the judge: a sibling symlinked out of the folder is not read,
    a sibling linked inside it is."""
    from pytest_postgates.config import Settings
    from pytest_postgates.gates import GateContext, tone_fit
    from pytest_postgates.post import parse_post

    folder = tmp_path / "_posts"
    folder.mkdir()
    own = folder / "2026-01-01-own.md"
    own.write_text("---\ntitle: Own\ntone: wry\n---\n\nA paragraph of our own.\n", "utf-8")
    (folder / "2026-01-02-leak.md").symlink_to(outside / "2026-01-05-linked.md")
    (folder / "2026-01-03-alias.md").symlink_to(own)
    context = GateContext.create(Settings(), tmp_path / "cache")
    names = [path.name for path in tone_fit._corpus(parse_post(own), context)]
    assert names == ["2026-01-01-own.md", "2026-01-03-alias.md"]
