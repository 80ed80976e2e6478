"""One post, or one broken machine, never breaks the rest: per-post work (cache keys
included) is contained to its post, a broken cache or output path degrades with one clear
line, and odd file names and corrupt indexes do not stop the run."""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pytest_postgates.evidence import index as index_module
from pytest_postgates.evidence.index import open_index

if TYPE_CHECKING:
    from tests.conftest import Blog


FRONT = {"layout": "post", "title": "T", "date": "2026-01-03"}


def assert_clean(result: pytest.RunResult) -> str:
    output = result.stdout.str() + result.stderr.str()
    assert result.ret != pytest.ExitCode.INTERNAL_ERROR
    assert "INTERNALERROR" not in output
    assert "Traceback" not in output
    return output


@pytest.mark.parametrize(
    ("name", "front"),
    [
        ("2026-13-45-bad.md", None),
        (
            "2026-01-03-cats.md",
            {"layout": "post", "title": "T", "date": "2026-01-03", "categories": 5},
        ),
        (
            "2026-01-03-perm.md",
            {"layout": "post", "title": "T", "date": "2026-01-03", "permalink": 7},
        ),
    ],
    ids=["impossible-date", "categories-number", "permalink-number"],
)
def test_one_bad_post_never_errors_another_posts_gates(
    pytester: pytest.Pytester, blog: Blog, name: str, front: dict | None
) -> None:
    blog.post("2026-01-01-good.md", body=blog.GOOD + "\nSee [the next post](/2026/01/02/other/).\n")
    blog.post("2026-01-02-other.md")
    blog.post(name, front=front)
    result = pytester.runpytest("_posts", "--postgates-only=6", "--postgates-offline", "-rA")
    output = assert_clean(result)
    for good in ("2026-01-01-good.md", "2026-01-02-other.md"):
        assert f"ERROR _posts/{good}" not in output


def unrelated_suite(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    # This test needs pytest's cache plugin, which the blog fixture switches off.
    monkeypatch.setenv("PYTEST_ADDOPTS", "-p no:hypothesispytest --postgates-only=11")
    pytester.makepyfile(test_unrelated="def test_one():\n    assert True\n")
    pytester.makepyfile(conftest="")


def test_unusable_pytest_cache_folder_degrades_to_no_cache(
    pytester: pytest.Pytester, blog: Blog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The plugin is auto-loaded: a cache folder it cannot create must not break an
    unrelated test suite (a file where the folder should be fails for root too). A run
    that does not ask for posts never touches the folder (activation); one that does
    warns once and runs without the cache."""
    unrelated_suite(pytester, monkeypatch)
    blog.post()
    (blog.path / ".pytest_cache" / "d").mkdir(parents=True)
    (blog.path / ".pytest_cache" / "d" / "postgates").write_text("not a folder")
    result = pytester.runpytest_subprocess("test_unrelated.py", "-W", "default")
    output = assert_clean(result)
    result.assert_outcomes(passed=1)
    assert output.count("postgates: cache folder") == 0
    result = pytester.runpytest_subprocess("_posts", "-W", "default")
    output = assert_clean(result)
    result.assert_outcomes(passed=1)
    assert output.count("postgates: cache folder") == 1


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_read_only_pytest_cache_folder_degrades_to_no_cache(
    pytester: pytest.Pytester, blog: Blog, monkeypatch: pytest.MonkeyPatch
) -> None:
    unrelated_suite(pytester, monkeypatch)
    (blog.path / ".pytest_cache").mkdir()
    (blog.path / ".pytest_cache").chmod(0o555)
    try:
        result = pytester.runpytest_subprocess("test_unrelated.py")
        assert_clean(result)
        result.assert_outcomes(passed=1)
    finally:
        (blog.path / ".pytest_cache").chmod(0o755)


def test_full_cache_disk_degrades_to_no_cache_with_one_warning(
    pytester: pytest.Pytester, blog: Blog, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pytest_postgates import results

    monkeypatch.setenv("XDG_CACHE_HOME", str(pytester.path / "xdg-cache"))
    for index in range(3):
        blog.post(f"2026-01-0{index + 1}-post.md")
    blog.git_init()

    def disk_full(*args: object, **kwargs: object) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(results, "_insert", disk_full)
    result = pytester.runpytest("_posts", "--postgates-only=11", "-W", "default")
    output = assert_clean(result)
    result.assert_outcomes(passed=3)
    assert output.count("database or disk is full") == 1


@pytest.mark.parametrize(
    "option",
    [
        "--postgates-html=a-folder",
        "--postgates-sarif=a-folder",
        "--postgates-feedback=a-folder",
        "--postgates-scorecards=a-file",
        "--postgates-html=a-file/report.html",
    ],
)
def test_wrong_output_paths_are_usage_errors_before_the_run(
    pytester: pytest.Pytester, blog: Blog, option: str
) -> None:
    blog.post()
    (blog.path / "a-folder").mkdir()
    (blog.path / "a-file").write_text("x")
    result = pytester.runpytest("_posts", option)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    output = result.stdout.str() + result.stderr.str()
    assert "Traceback" not in output
    assert option.split("=")[1].split("/")[0] in output


def test_unwritable_report_at_session_finish_is_one_clear_error_line(
    pytester: pytest.Pytester, blog: Blog, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pytest_postgates import reports

    blog.post()

    def broken(*args: object, **kwargs: object) -> str:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(reports, "html_report", broken)
    result = pytester.runpytest("_posts", "--postgates-html=report.html")
    output = assert_clean(result)
    assert result.ret != pytest.ExitCode.OK
    lines = [line for line in output.splitlines() if "report.html" in line]
    assert len(lines) == 1 and "No space left on device" in lines[0]


def test_unwritable_scorecard_is_one_clear_error_per_item(
    pytester: pytest.Pytester, blog: Blog, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pytest_postgates import fileio

    blog.post()

    def broken(*args: object, **kwargs: object) -> None:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(fileio, "_write_atomic", broken)
    result = pytester.runpytest("_posts", "--postgates-only=11")
    output = assert_clean(result)
    result.assert_outcomes(errors=1)
    assert "cannot write scorecard" in output and "Read-only file system" in output


@pytest.mark.parametrize("workers", [None, "2"], ids=["serial", "xdist"])
def test_non_utf8_file_name_is_an_error_item_and_the_run_completes(
    pytester: pytest.Pytester, blog: Blog, monkeypatch: pytest.MonkeyPatch, workers: str | None
) -> None:
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    blog.post("2026-01-01-good.md")
    text = (blog.path / "_posts" / "2026-01-01-good.md").read_bytes()
    folder = os.fsencode(blog.path / "_posts")
    with open(folder + b"/2026-01-02-caf\xe9.md", "wb") as stream:
        stream.write(text)
    args = ["_posts", "--postgates-only=11", "-rA"]
    if workers:
        args += ["-n", workers]
    result = pytester.runpytest_subprocess(*args)
    output = assert_clean(result)
    result.assert_outcomes(passed=1, errors=1)
    assert "not valid UTF-8" in output and "2026-01-02-caf" in output


# --------------------------------------------------------------------- the index
def make_repo(root: Path) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
    }
    root.mkdir(parents=True, exist_ok=True)
    (root / "src").mkdir(exist_ok=True)
    (root / "src" / "loader.py").write_text("def load_posts():\n    return []\n")
    (root / "big.txt").write_text("uniqueBigBlobWord " * 5000)
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "init"]):
        subprocess.run(["git", "-C", str(root), *args], check=True, env=env)
    return subprocess.check_output(["git", "-C", str(root), "rev-parse", "HEAD"], text=True).strip()


@pytest.mark.parametrize(
    "damage", ["truncated-meta", "missing-text", "odd-postings", "short-offsets", "empty-folder"]
)
def test_a_corrupt_index_is_detected_and_rebuilt(tmp_path: Path, damage: str) -> None:
    repo, cache = tmp_path / "repo", tmp_path / "cache"
    commit = make_repo(repo)
    index = open_index(repo, commit, cache)
    assert index.contains("load_posts")
    (folder,) = [p for p in cache.iterdir() if p.is_dir()]
    if damage == "truncated-meta":
        (folder / "meta.json").write_text((folder / "meta.json").read_text()[:20])
    elif damage == "missing-text":
        (folder / "text.bin").unlink()
    elif damage == "odd-postings":
        (folder / "postings.bin").write_bytes(b"\x01\x02\x03")
    elif damage == "short-offsets":
        meta = json.loads((folder / "meta.json").read_text())
        meta["offsets"] = meta["offsets"][:-1]
        (folder / "meta.json").write_text(json.dumps(meta))
    else:
        for child in folder.iterdir():
            if child.name != "meta.json":
                child.unlink()
    healed = open_index(repo, commit, cache)
    assert healed.contains("load_posts") and healed.match_path("src/loader.py")
    assert open_index(repo, commit, cache).contains("load_posts")


def test_staging_folders_of_a_killed_build_are_cleaned_by_the_next_build(tmp_path: Path) -> None:
    repo, cache = tmp_path / "repo", tmp_path / "cache"
    commit = make_repo(repo)
    cache.mkdir()
    stale = cache / f".index-v{index_module.INDEX_VERSION}-{commit}-all.abc123_x"
    stale.mkdir()
    (stale / "text.bin").write_bytes(b"x" * 1000)
    other = cache / f".index-v{index_module.INDEX_VERSION}-{'0' * 40}-all.zz9_yy"
    other.mkdir()
    open_index(repo, commit, cache)
    assert not stale.exists()
    assert not other.exists()  # no build of that commit holds its lock: stale as well


def test_repository_with_missing_blobs_indexes(tmp_path: Path) -> None:
    """A partial clone (like the NeuroLink checkout, five large blobs absent) indexes: the
    missing file keeps its path, its text is simply not searchable."""
    repo, cache = tmp_path / "repo", tmp_path / "cache"
    commit = make_repo(repo)
    blob = subprocess.check_output(
        ["git", "-C", str(repo), "rev-parse", f"{commit}:big.txt"], text=True
    ).strip()
    (repo / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    index = open_index(repo, commit, cache)
    assert index.match_path("big.txt") == "big.txt"
    assert index.contains("load_posts")
    assert not index.contains("uniqueBigBlobWord")


def test_an_index_that_cannot_be_cached_is_built_for_the_run(tmp_path: Path) -> None:
    """A cache folder that cannot hold the index (here a file in its place, which fails
    for root too) costs one warning, never the gates that need the index."""
    from pytest_postgates.config import Settings
    from pytest_postgates.evidence.cache import EvidenceCache

    repo = tmp_path / "repo"
    make_repo(repo)
    (tmp_path / "not-a-folder").write_text("x")
    cache = EvidenceCache(Settings(repo=repo), tmp_path / "not-a-folder")
    with pytest.warns(UserWarning, match="cannot keep the repository index"):
        index = cache.index_for(repo / "src" / "loader.py")
    assert index.contains("load_posts")
