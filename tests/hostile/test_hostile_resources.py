"""Resource exhaustion: YAML alias bombs, huge posts, planted special files. Nothing is
read that a post's size limit forbids, and nothing blocks."""

from __future__ import annotations

import os
import time
import tracemalloc
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_postgates.config import Settings
from pytest_postgates.gates import GateContext
from pytest_postgates.gates.blog_quality import _parse_corpus
from pytest_postgates.gates.readability_links import _corpus_urls, site_index
from pytest_postgates.post import MAX_POST_BYTES, parse_post, read_front_matter
from pytest_postgates.runner import PostRun

if TYPE_CHECKING:
    from tests.conftest import Blog

# 400 bytes of YAML that expand to 9**9 (387 million) scalars.
BILLION_LAUGHS = (
    "layout: post\ntitle: T\ndate: 2026-01-01\n"
    'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
    "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
    "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
    "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
    "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n"
    "g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n"
    "h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\n"
    "tags: [*h]\n"
)
BODY = "This post shows how pytest runs a Python plugin.\n"


def test_yaml_alias_bomb_is_refused_while_composing(tmp_path: Path) -> None:
    path = tmp_path / "2026-01-01-bomb.md"
    path.write_text(f"---\n{BILLION_LAUGHS}---\n{BODY}", encoding="utf-8")
    assert len(BILLION_LAUGHS) < 450
    started = time.process_time()  # CPU, not wall: the machine may be loaded
    post = parse_post(path)
    assert time.process_time() - started < 1.0
    codes = [problem.code for problem in post.fatal_problems]
    assert codes == ["FRONT_MATTER_ALIASES"]
    assert "alias" in post.fatal_problems[0].message
    assert post.front_matter is None
    # The front-matter-only reader (cached results, site permalinks) refuses it too.
    assert read_front_matter(path.read_bytes()) is None


def test_a_few_aliases_are_fine(tmp_path: Path) -> None:
    path = tmp_path / "2026-01-01-alias.md"
    front = "layout: post\ntitle: T\ndate: 2026-01-01\nbase: &b [x, y]\ntags: *b\n"
    path.write_text(f"---\n{front}---\n{BODY}", encoding="utf-8")
    post = parse_post(path)
    assert not post.fatal_problems
    assert post.front_matter is not None and post.front_matter["tags"] == ["x", "y"]


def test_alias_bomb_post_errors_in_a_run_without_expanding(
    pytester: pytest.Pytester, blog: Blog
) -> None:
    blog.raw("_posts/2026-01-01-bomb.md", f"---\n{BILLION_LAUGHS}---\n{BODY}".encode())
    blog.post("2026-01-02-good.md")
    result = pytester.runpytest("_posts", "--postgates-only=1,11", "--postgates-all")
    result.stdout.fnmatch_lines(["*2026-01-01-bomb.md*FRONT_MATTER_ALIASES*"])
    outcomes = result.parseoutcomes()
    assert outcomes["errors"] == 2
    assert sum(p.stat().st_size for p in (blog.path / ".postgates").rglob("*")) < 100_000


def sparse_post(path: Path, size: int) -> Path:
    """A post of ``size`` bytes that costs no disk: reading it would still cost memory."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as stream:
        stream.write(b"---\nlayout: post\ntitle: T\ndate: 2026-01-01\n---\n")
        stream.write(b"See [x](https://example.com/at-the-start).\n")
        stream.truncate(size)
    return path


def peak_bytes(action: Any) -> int:
    tracemalloc.start()
    try:
        action()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_size_limit_is_checked_before_reading(tmp_path: Path) -> None:
    huge = sparse_post(tmp_path / "_posts" / "2026-01-01-huge.md", 4 * MAX_POST_BYTES)
    context = GateContext.create(Settings())
    run = PostRun(huge, "_posts/2026-01-01-huge.md", huge.stem, context)

    def gate_it() -> None:
        assert [p.code for p in run.post.fatal_problems] == ["TOO_LARGE"]
        run.front_matter  # noqa: B018 - the cached-result path reads the post too

    assert peak_bytes(gate_it) < MAX_POST_BYTES // 4
    assert f"{4 * MAX_POST_BYTES:,} bytes" in run.post.fatal_problems[0].message


def test_batches_read_posts_with_the_same_size_limit(tmp_path: Path) -> None:
    huge = sparse_post(tmp_path / "_posts" / "2026-01-01-huge.md", 4 * MAX_POST_BYTES)

    class NoEngine:
        def parse_many(self, codes: list[str], *budget: Any) -> dict[str, Any]:
            return {}

    assert peak_bytes(lambda: _corpus_urls((huge,))) < MAX_POST_BYTES // 4
    assert peak_bytes(lambda: _parse_corpus((huge,), NoEngine())) < MAX_POST_BYTES // 4
    assert peak_bytes(lambda: site_index(huge, (huge,))) < MAX_POST_BYTES // 4


def test_oversized_and_special_posts_stay_out_of_the_run_batches(
    pytester: pytest.Pytester, blog: Blog
) -> None:
    """The batches (lint, link prefetch, mermaid) never see a post the parser refuses:
    the big post ERRORs on its own and the good post's gates are unaffected."""
    sparse_post(blog.path / "_posts" / "2026-01-01-huge.md", MAX_POST_BYTES + 1)
    blog.post("2026-01-02-good.md")
    result = pytester.runpytest(
        "_posts", "--postgates-only=6,11,12", "--postgates-offline", "--postgates-all", "-rE"
    )
    result.stdout.fnmatch_lines(["*2026-01-01-huge.md*TOO_LARGE*"])
    outcomes = result.parseoutcomes()
    assert outcomes["errors"] == 3  # only the huge post's gates
    assert "2026-01-02-good.md::" not in "\n".join(
        line for line in result.stdout.lines if line.startswith("ERROR")
    )


@pytest.mark.parametrize("kind", ["fifo", "symlink-to-fifo", "folder"])
def test_planted_special_scorecards_are_never_read(
    pytester: pytest.Pytester, blog: Blog, tmp_path_factory: pytest.TempPathFactory, kind: str
) -> None:
    """A scorecard path that is a FIFO (or a link to one) would block the run forever if
    read; it is replaced by a regular file (a link is replaced, never followed)."""
    blog.post()
    folder = blog.path / ".postgates" / "scorecards"
    folder.mkdir(parents=True)
    planted = folder / "2026-01-01-good-gate11-narrative_opening.json"
    overall = folder / "2026-01-01-good-overall.json"
    elsewhere = tmp_path_factory.mktemp("elsewhere") / "fifo"
    os.mkfifo(elsewhere)
    for path in (planted, overall):
        if kind == "fifo":
            os.mkfifo(path)
        elif kind == "symlink-to-fifo":
            path.symlink_to(elsewhere)
        else:
            path.mkdir()
    started = time.perf_counter()
    result = pytester.runpytest_subprocess("_posts", "--postgates-only=11", timeout=30)
    assert time.perf_counter() - started < 30
    output = result.stdout.str() + result.stderr.str()
    assert "INTERNALERROR" not in output
    if kind == "folder":
        # Not replaceable: one clear error, no traceback.
        assert "Traceback" not in output
        assert "2026-01-01-good-gate11-narrative_opening.json" in output
    else:
        result.assert_outcomes(passed=1)
        assert planted.is_file() and not planted.is_symlink()
        assert overall.is_file() and not overall.is_symlink()
        assert elsewhere.exists() and not elsewhere.is_file()  # the target was left alone
