"""The result cache is validated, never trusted blindly: an edited or malformed entry is a
miss (the gate runs again), never a PASS and never an INTERNALERROR. With
``POSTGATES_CACHE_KEY`` set, entries are signed (HMAC) and unsigned or forged ones are
misses too."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from tests.conftest import Blog


def cached_entries(root: Path) -> list[Path]:
    return sorted((root / "xdg-cache" / "pytest-postgates" / "results").rglob("*.json"))


@pytest.fixture
def cached_failure(
    pytester: pytest.Pytester, blog: Blog, monkeypatch: pytest.MonkeyPatch
) -> list[Path]:
    """A failing gate 11 result in the result cache (gate 11 is cached per commit)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(pytester.path / "xdg-cache"))
    blog.post(body=blog.NO_ENTITY)
    blog.git_init()
    pytester.runpytest("_posts", "--postgates-only=11").assert_outcomes(failed=1)
    entries = cached_entries(blog.path)
    assert len(entries) == 1
    return entries


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
    pytester: pytest.Pytester, cached_failure: list[Path], case: str
) -> None:
    (entry_path,) = cached_failure
    tamper = TAMPERED[case]
    if tamper is None:
        entry_path.write_text(entry_path.read_text("utf-8")[:40], encoding="utf-8")
    else:
        entry = json.loads(entry_path.read_text("utf-8"))
        entry_path.write_text(json.dumps(tamper(entry)), encoding="utf-8")
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
    entries = {p: json.loads(p.read_text("utf-8")) for p in cached_entries(blog.path)}
    passing = next(p for p, e in entries.items() if e["verdict"] == "PASS")
    failing = next(p for p, e in entries.items() if e["verdict"] == "FAIL")
    failing.write_bytes(passing.read_bytes())
    pytester.runpytest("_posts", "--postgates-only=11").assert_outcomes(passed=1, failed=1)


def test_signed_cache_refuses_forged_and_unsigned_entries(
    pytester: pytest.Pytester, blog: Blog, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(pytester.path / "xdg-cache"))
    monkeypatch.setenv("POSTGATES_CACHE_KEY", "a-long-random-ci-secret")
    blog.post(body=blog.NO_ENTITY)
    blog.git_init()
    pytester.runpytest("_posts", "--postgates-only=11").assert_outcomes(failed=1)
    (entry_path,) = cached_entries(blog.path)
    entry = json.loads(entry_path.read_text("utf-8"))
    assert "mac" in entry
    # A forger who knows the format but not the key: a consistent PASS entry.
    entry_path.write_text(json.dumps(forge_pass(entry)), encoding="utf-8")
    pytester.runpytest("_posts", "--postgates-only=11").assert_outcomes(failed=1)
    # An unsigned PASS entry (written without the key, or by an attacker) is a miss too.
    unsigned = {k: v for k, v in forge_pass(entry).items() if k != "mac"}
    entry_path.write_text(json.dumps(unsigned), encoding="utf-8")
    pytester.runpytest("_posts", "--postgates-only=11").assert_outcomes(failed=1)
    # A signed entry is served from the cache: the post is not gated again.
    first = entry_path.read_text("utf-8")
    pytester.runpytest("_posts", "--postgates-only=11").assert_outcomes(failed=1)
    assert entry_path.read_text("utf-8") == first
    # The same entry read with another key is a miss (and is rewritten signed with it).
    monkeypatch.setenv("POSTGATES_CACHE_KEY", "another-key-of-another-ci")
    pytester.runpytest("_posts", "--postgates-only=11").assert_outcomes(failed=1)
    assert json.loads(entry_path.read_text("utf-8"))["mac"] != json.loads(first)["mac"]
