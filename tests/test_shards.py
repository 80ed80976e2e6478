"""``--postgates-shard K/N``: whole posts by a stable hash of their path, for a CI matrix."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from pytest_postgates.shards import parse_shard, shard_of
from tests.conftest import Blog

POSTS = 12


def write_posts(blog: Blog, count: int = POSTS) -> list[str]:
    """``count`` posts under _posts/ and one in a nested folder; their node id paths."""
    names = [f"_posts/2026-01-{n:02d}-post.md" for n in range(1, count)]
    for name in names:
        blog.post(name.removeprefix("_posts/"), Blog.CLAIMS if len(name) % 2 else Blog.GOOD)
    blog.post("2026-02-01-deep.md", folder="_posts/nested")
    return [*names, "_posts/nested/2026-02-01-deep.md"]


def _from_lines(lines: list[str]) -> list[str]:
    pattern = re.compile(r"^(?:PASSED|FAILED|XFAIL|XPASS|ERROR|SKIPPED) (\S+::\w+)")
    return [m.group(1) for line in lines if (m := pattern.match(line))]


def test_parse_shard_takes_k_of_n_only() -> None:
    assert parse_shard("2/4").index == 2 and parse_shard(" 4/4 ").count == 4
    for bad in ("0/4", "5/4", "x", "1/0", "-1/4", "1/4/2", "", "1"):
        with pytest.raises(ValueError):
            parse_shard(bad)


def test_the_hash_is_stable_and_not_pythons() -> None:
    # Pinned: a change here moves posts between shards for every user of a CI matrix.
    assert [shard_of(f"_posts/p{n}.md", 4) for n in range(8)] == [
        shard_of(f"_posts/p{n}.md", 4) for n in range(8)
    ]
    assert shard_of("_posts/2026-01-01-a.md", 4) == _blake_shard("_posts/2026-01-01-a.md", 4)


def _blake_shard(path: str, count: int) -> int:
    import hashlib

    digest = hashlib.blake2b(path.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") % count + 1


def test_every_post_is_in_exactly_one_shard_and_the_union_is_every_item(blog: Blog) -> None:
    posts = write_posts(blog)
    whole = blog.pytester.runpytest("-rA")
    everything = _from_lines(whole.outlines)
    assert len(everything) == 2 * len(posts)
    seen: dict[str, int] = {}
    union: list[str] = []
    for index in range(1, 5):
        result = blog.pytester.runpytest("-rA", f"--postgates-shard={index}/4")
        items = _from_lines(result.outlines)
        union += items
        deselected = len(everything) - len(items)
        if deselected:
            result.stdout.fnmatch_lines([f"*{deselected} deselected*"])
        result.stdout.fnmatch_lines([f"postgates: shard {index}/4: *"])
        for item in items:
            post = item.split("::")[0]
            assert seen.setdefault(post, index) == index, f"{post} in two shards"
            assert shard_of(post, 4) == index
    assert sorted(union) == sorted(everything)
    assert set(seen) == set(posts)
    # With 12 posts in 4 shards, more than one shard holds posts (not all in one).
    assert len(set(seen.values())) > 1


def test_a_post_stays_in_its_shard_wherever_the_checkout_is(
    blog: Blog, tmp_path_factory: pytest.TempPathFactory
) -> None:
    write_posts(blog, 6)
    first = _from_lines(blog.pytester.runpytest("-rA", "--postgates-shard=2/3").outlines)
    again = _from_lines(blog.pytester.runpytest("-rA", "--postgates-shard=2/3").outlines)
    assert first and first == again
    # The same project in another absolute location: the same posts in shard 2.
    moved = tmp_path_factory.mktemp("elsewhere") / "deeper" / "checkout"
    shutil.copytree(blog.path, moved)
    result = _run_in(blog.pytester, moved, "-rA", "--postgates-shard=2/3")
    assert _from_lines(result.outlines) == first


def _run_in(pytester: pytest.Pytester, folder: Path, *args: str) -> pytest.RunResult:
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(folder)
        return pytester.runpytest_inprocess(*args, "--rootdir", str(folder), str(folder))


@pytest.mark.parametrize("value", ["0/4", "5/4", "x"])
def test_an_invalid_shard_is_a_one_line_usage_error(blog: Blog, value: str) -> None:
    write_posts(blog, 2)
    result = blog.pytester.runpytest(f"--postgates-shard={value}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    errors = [line for line in result.errlines if "shard" in line]
    assert len(errors) == 1, result.errlines
    assert "expected K/N with 1 <= K <= N" in errors[0] and repr(value) in errors[0]


def test_the_key_and_the_environment_set_the_shard(
    blog: Blog, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_posts(blog, 6)
    by_flag = _from_lines(blog.pytester.runpytest("-rA", "--postgates-shard=1/2").outlines)
    assert 0 < len(by_flag) < 12
    blog.pyproject('shard = "1/2"\n')
    assert _from_lines(blog.pytester.runpytest("-rA").outlines) == by_flag
    # The environment wins over the key and the flag.
    monkeypatch.setenv("POSTGATES_SHARD", "1/2")
    assert _from_lines(blog.pytester.runpytest("-rA", "--postgates-shard=2/2").outlines) == by_flag
    monkeypatch.setenv("POSTGATES_SHARD", "9/2")
    assert blog.pytester.runpytest().ret == pytest.ExitCode.USAGE_ERROR


def test_shards_under_xdist_run_the_same_items(blog: Blog) -> None:
    write_posts(blog, 8)
    serial = _from_lines(blog.pytester.runpytest("-rA", "--postgates-shard=1/2").outlines)
    assert 0 < len(serial) < 16
    parallel = blog.pytester.runpytest_subprocess("-rA", "-n", "2", "--postgates-shard=1/2")
    assert sorted(_from_lines(parallel.outlines)) == sorted(serial)
    held = len({item.split("::")[0] for item in serial})
    parallel.stdout.fnmatch_lines([f"postgates: shard 1/2: {held} of 8 file(s) run here"])


def test_a_shard_in_snapshot_mode_neither_reports_nor_removes_other_shards_snapshots(
    blog: Blog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """syrupy#1193's pitfall: a shard sees the snapshots of posts it did not run."""
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    write_posts(blog, 6)
    blog.pytester.runpytest("--postgates-snapshot", "--snapshot-update").assert_outcomes(passed=12)
    pinned = sorted((blog.path / "_posts").rglob("__snapshots__/*/*.json"))
    assert len(pinned) == 12
    ran = 0
    for index in range(1, 4):
        result = blog.pytester.runpytest(
            "-rA", "--postgates-snapshot", f"--postgates-shard={index}/3"
        )
        assert result.ret == pytest.ExitCode.OK or not _from_lines(result.outlines), result.outlines
        assert "unused" not in result.stdout.str()
        ran += len(_from_lines(result.outlines))
        # Re-pinning one shard keeps every other shard's snapshots.
        update = blog.pytester.runpytest(
            "--postgates-snapshot", "--snapshot-update", f"--postgates-shard={index}/3"
        )
        assert "deleted" not in update.stdout.str(), update.outlines
        assert sorted((blog.path / "_posts").rglob("__snapshots__/*/*.json")) == pinned
    assert ran == 12
    # A post removed: no shard can tell its snapshots from another shard's (none ran it),
    # so none reports them; a run over the whole corpus does (docs/ci.md says so).
    (blog.path / "_posts" / "2026-01-01-post.md").unlink()
    holder = shard_of("_posts/2026-01-01-post.md", 3)
    in_shard = blog.pytester.runpytest("--postgates-snapshot", f"--postgates-shard={holder}/3")
    assert in_shard.ret == pytest.ExitCode.OK and "unused" not in in_shard.stdout.str()
    whole = blog.pytester.runpytest("--postgates-snapshot")
    whole.stdout.fnmatch_lines(["*2 snapshots unused*"])


def test_a_shard_without_posts_passes_and_writes_a_manifest_alone(blog: Blog) -> None:
    blog.post("2026-01-01-only.md")
    holder = shard_of("_posts/2026-01-01-only.md", 2)
    empty = holder % 3 + 1
    scorecards = blog.path / ".postgates" / "scorecards"
    blog.pytester.runpytest(f"--postgates-shard={holder}/3").assert_outcomes(passed=1, xpassed=1)
    result = blog.pytester.runpytest(f"--postgates-shard={empty}/3")
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines([f"postgates: shard {empty}/3: 0 of 1 file(s) run here"])
    # The earlier run's manifest (another shard) is gone: a folder holds one shard's.
    assert [p.name for p in scorecards.glob("postgates-shard-*")] == [
        f"postgates-shard-{empty}-of-3.json"
    ]


def test_the_shard_is_not_part_of_the_result_cache_key() -> None:
    """A shard's CI job may restore the cache of a run over the whole corpus (or of
    another shard count): which posts a process runs never changes what a gate decides."""
    from dataclasses import replace

    from pytest_postgates.config import Settings
    from pytest_postgates.results import settings_fingerprint

    assert settings_fingerprint(replace(Settings(), shard=(2, 4))) == settings_fingerprint(
        Settings()
    )
