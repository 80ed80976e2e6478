"""The result cache is validated, never trusted blindly: an edited or malformed entry is a
miss (the gate runs again), never a PASS and never an INTERNALERROR. With
``POSTGATES_CACHE_KEY`` set, entries are signed (HMAC) and unsigned or forged ones are
misses too."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_postgates.results import DATABASE_NAME

if TYPE_CHECKING:
    from tests.conftest import Blog


def database(root: Path) -> Path:
    return root / "xdg-cache" / "pytest-postgates" / "results" / DATABASE_NAME


def cached_entries(root: Path) -> dict[str, str]:
    """Every entry of the result cache: key -> the entry's JSON text."""
    with contextlib.closing(sqlite3.connect(database(root))) as db:
        return dict(db.execute("SELECT key, entry FROM entries ORDER BY key"))


def write_entry(root: Path, key: str, text: str) -> None:
    with contextlib.closing(sqlite3.connect(database(root))) as db, db:
        db.execute("UPDATE entries SET entry = ? WHERE key = ?", (text, key))


@pytest.fixture
def cached_failure(
    pytester: pytest.Pytester, blog: Blog, monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, str]:
    """A failing gate 11 result in the result cache (gate 11 is cached per commit)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(pytester.path / "xdg-cache"))
    blog.post(body=blog.NO_ENTITY)
    blog.git_init()
    pytester.runpytest("_posts", "--postgates-only=11").assert_outcomes(failed=1)
    entries = cached_entries(blog.path)
    assert len(entries) == 1
    return blog.path, next(iter(entries))


def forge_pass(entry: dict[str, Any], verdict: str = "PASS") -> dict[str, Any]:
    return entry | {"verdict": verdict, "findings": [], "summary": "fine"}


TAMPERED: dict[str, Any] = {
    "bogus-verdict": lambda e: forge_pass(e, "BOGUS"),
    "lowercase-verdict": lambda e: forge_pass(e, "pass"),
    "not-a-mapping": lambda e: [e],
    "missing-keys": lambda e: {"verdict": "PASS"},
    "findings-wrong-shape": lambda e: e | {"findings": [[1]]},
    "findings-not-a-list": lambda e: e | {"findings": 5},
    "detail-not-a-mapping": lambda e: e | {"detail": "x"},
    "other-gate": lambda e: forge_pass(e) | {"gate": 13, "name": "call_graph_claims"},
    "wrong-key": lambda e: forge_pass(e) | {"key": "0" * 64},
    "truncated": None,
}


@pytest.mark.parametrize("case", sorted(TAMPERED))
def test_a_tampered_or_malformed_entry_is_a_miss(
    pytester: pytest.Pytester, cached_failure: tuple[Path, str], case: str
) -> None:
    root, key = cached_failure
    tamper = TAMPERED[case]
    text = cached_entries(root)[key]
    write_entry(root, key, text[:40] if tamper is None else json.dumps(tamper(json.loads(text))))
    result = pytester.runpytest("_posts", "--postgates-only=11")
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()
    result.assert_outcomes(failed=1)  # gated again: the post really fails


def test_an_entry_copied_from_a_passing_post_is_a_miss(
    pytester: pytest.Pytester, blog: Blog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The key is echoed inside the entry: a PASS planted under another post's key is not
    that post's result."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(pytester.path / "xdg-cache"))
    blog.post("2026-01-01-good.md", body=blog.GOOD)
    blog.post("2026-01-01-bad.md", body=blog.NO_ENTITY)
    blog.git_init()
    pytester.runpytest("_posts", "--postgates-only=11").assert_outcomes(passed=1, failed=1)
    entries = {key: json.loads(text) for key, text in cached_entries(blog.path).items()}
    passing = next(key for key, e in entries.items() if e["verdict"] == "PASS")
    failing = next(key for key, e in entries.items() if e["verdict"] == "FAIL")
    write_entry(blog.path, failing, cached_entries(blog.path)[passing])
    pytester.runpytest("_posts", "--postgates-only=11").assert_outcomes(passed=1, failed=1)


def test_signed_cache_refuses_forged_and_unsigned_entries(
    pytester: pytest.Pytester, blog: Blog, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(pytester.path / "xdg-cache"))
    monkeypatch.setenv("POSTGATES_CACHE_KEY", "a-long-random-ci-secret")
    blog.post(body=blog.NO_ENTITY)
    blog.git_init()
    pytester.runpytest("_posts", "--postgates-only=11").assert_outcomes(failed=1)
    ((key, text),) = cached_entries(blog.path).items()
    entry = json.loads(text)
    assert "mac" in entry
    # A forger who knows the format but not the key: a consistent PASS entry.
    write_entry(blog.path, key, json.dumps(forge_pass(entry)))
    pytester.runpytest("_posts", "--postgates-only=11").assert_outcomes(failed=1)
    # An unsigned PASS entry (written without the key, or by an attacker) is a miss too.
    unsigned = {k: v for k, v in forge_pass(entry).items() if k != "mac"}
    write_entry(blog.path, key, json.dumps(unsigned))
    pytester.runpytest("_posts", "--postgates-only=11").assert_outcomes(failed=1)
    # A signed entry is served from the cache: the post is not gated again.
    first = cached_entries(blog.path)[key]
    pytester.runpytest("_posts", "--postgates-only=11").assert_outcomes(failed=1)
    assert cached_entries(blog.path)[key] == first
    # The same entry read with another key is a miss (and is rewritten signed with it).
    monkeypatch.setenv("POSTGATES_CACHE_KEY", "another-key-of-another-ci")
    pytester.runpytest("_posts", "--postgates-only=11").assert_outcomes(failed=1)
    assert json.loads(cached_entries(blog.path)[key])["mac"] != json.loads(first)["mac"]


@pytest.mark.parametrize("planted", ["garbage", "truncated", "fifo", "symlink"])
def test_a_broken_or_planted_database_is_replaced_and_the_post_gated_again(
    pytester: pytest.Pytester, cached_failure: tuple[Path, str], tmp_path: Path, planted: str
) -> None:
    """Not a database (garbage, a torn copy), or not a file at all (a FIFO would block the
    open, a link would write elsewhere): the cache starts again, the run is not hurt."""
    root, key = cached_failure
    path = database(root)
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    original = path.read_bytes()
    path.unlink()
    target = tmp_path / "elsewhere.sqlite"
    if planted == "garbage":
        path.write_bytes(b"this is not an SQLite database at all" * 100)
    elif planted == "truncated":
        path.write_bytes(original[:100])
    elif planted == "fifo":
        os.mkfifo(path)
    else:
        target.write_bytes(b"")
        path.symlink_to(target)
    # Any UserWarning is an error, except pytest's note that this process imported the plugin
    # unrewritten (harmless: its own asserts lose introspection; a bare `pytest` over an
    # editable install, whose import finder pytest cannot see when it marks plugins, shows it).
    result = pytester.runpytest(
        "_posts",
        "--postgates-only=11",
        "-W",
        "error::UserWarning",
        "-W",
        "ignore::pytest.PytestAssertRewriteWarning",
    )
    output = result.stdout.str() + result.stderr.str()
    assert "INTERNALERROR" not in output and "Traceback" not in output
    result.assert_outcomes(failed=1)  # gated again, and stored again
    assert path.is_file() and not path.is_symlink()
    assert list(cached_entries(root)) == [key]
    if planted == "symlink":
        assert target.read_bytes() == b""  # the link's target was never written
    pytester.runpytest("_posts", "--postgates-only=11").assert_outcomes(failed=1)
