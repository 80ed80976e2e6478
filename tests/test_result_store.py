"""The result store's cached path: a post's entries read in one query, the key's per-gate
prefix, and the digest that tells an unchanged scorecard without encoding it."""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import sqlite3
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from pytest_postgates import __version__, results
from pytest_postgates.config import Settings
from pytest_postgates.results import ResultCache
from pytest_postgates.scorecard import Finding, Scorecard
from tests.helpers import BLOG_FRONT, GATE11_ADOPTED, GROUNDED, blog_repo


def _card(gate: int, verdict: str = "PASS", detail: dict | None = None) -> Scorecard:
    return Scorecard(
        gate=gate,
        name=f"gate{gate}",
        advisory=False,
        verdict=verdict,  # type: ignore[arg-type]
        detail=detail if detail is not None else {"tokens": gate, "text": "é"},
        findings=[Finding(3, "CODE", "message", "fix")],
        summary=f"summary {gate}",
        score=gate,
    )


def _selects(cache: ResultCache) -> list[str]:
    """Every statement the cache's connection runs from now on."""
    statements: list[str] = []
    db = cache._connection(create=False)
    assert db is not None
    db.set_trace_callback(statements.append)
    return statements


@pytest.fixture
def stored(tmp_path: Path) -> tuple[Path, dict[int, str]]:
    """A cache folder holding the results of gates 1, 2 and 13 of one post."""
    cache = ResultCache(tmp_path, Settings())
    keys = {gate: cache.key(gate, b"post", "inputs", None) for gate in (1, 2, 13)}
    for gate, key in keys.items():
        cache.store(key, _card(gate))
    cache.close()
    return tmp_path, keys


def test_a_prefetched_post_costs_one_query(stored: tuple[Path, dict[int, str]]) -> None:
    folder, keys = stored
    cache = ResultCache(folder, Settings())
    expected = {gate: _card(gate) for gate in keys}
    statements = _selects(cache)
    cache.prefetch(keys.values())
    loaded = {gate: cache.load(key, gate, f"gate{gate}") for gate, key in keys.items()}
    assert loaded == expected
    assert [s for s in statements if s.startswith("SELECT")] == [
        s for s in statements if "IN (" in s
    ]
    assert len(statements) == 1
    # Each prefetched row serves one load; the next load of a key queries again.
    assert cache.load(keys[1], 1, "gate1") == expected[1]
    assert len(statements) == 2


def test_a_key_missing_at_prefetch_is_still_found_once_stored(
    stored: tuple[Path, dict[int, str]],
) -> None:
    """A miss is not remembered: another process (a look-ahead worker, an xdist worker)
    may store the result between the prefetch and the load."""
    folder, keys = stored
    cache = ResultCache(folder, Settings())
    late = cache.key(6, b"post", "inputs", None)
    cache.prefetch([*keys.values(), late])
    other = ResultCache(folder, Settings())
    other.store(late, _card(6))
    other.close()
    assert cache.load(late, 6, "gate6") == _card(6)


def test_a_prefetched_entry_is_validated_like_any(stored: tuple[Path, dict[int, str]]) -> None:
    folder, keys = stored
    database = folder / results.DATABASE_NAME
    with sqlite3.connect(database) as db:
        # Another post's PASS copied under this key, and an entry of the wrong shape.
        entry = db.execute("SELECT entry FROM entries WHERE key = ?", (keys[2],)).fetchone()[0]
        db.execute("UPDATE entries SET entry = ? WHERE key = ?", (entry, keys[1]))
        db.execute("UPDATE entries SET entry = '[1, 2]' WHERE key = ?", (keys[13],))
    db.close()
    cache = ResultCache(folder, Settings())
    cache.prefetch(keys.values())
    assert cache.load(keys[1], 1, "gate1") is None
    assert cache.load(keys[13], 13, "gate13") is None
    assert cache.load(keys[2], 2, "gate2") == _card(2)


def test_a_prefetched_entry_needs_its_signature(
    stored: tuple[Path, dict[int, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, keys = stored  # stored unsigned
    cache = ResultCache(folder, Settings(), secret="ci-secret")
    cache.prefetch(keys.values())
    assert all(cache.load(key, gate, f"gate{gate}") is None for gate, key in keys.items())


def test_prefetch_without_a_database_or_cache_folder_is_a_no_op(tmp_path: Path) -> None:
    for cache in (ResultCache(tmp_path / "absent", Settings()), ResultCache(None, Settings())):
        cache.prefetch(["a", "b"])
        assert cache.load("a") is None
    assert not (tmp_path / "absent").exists()


@dataclass(frozen=True)
class _GateSettings:
    floor: int = 3


def test_the_key_is_the_digest_of_every_part(tmp_path: Path) -> None:
    """The per-gate prefix is an optimisation only: the key is the same digest of the
    version, code, gate, run settings, gate settings, inputs and post."""
    cache = ResultCache(None, Settings())
    first = _GateSettings()
    digest = hashlib.sha256()
    for part in (
        __version__,
        results.CODE_FINGERPRINT,
        "7",
        cache.fingerprint,
        repr(first),
        "inputs",
    ):
        digest.update(part.encode("utf-8") + b"\0")
    digest.update(hashlib.sha256(b"post").digest())
    assert cache.key(7, b"post", "inputs", first) == digest.hexdigest()
    assert cache.key(7, b"post", "inputs", first) == digest.hexdigest()  # from the prefix
    # Equal settings in another object: the same key; other values, gate or post: another.
    assert cache.key(7, b"post", "inputs", _GateSettings()) == digest.hexdigest()
    assert cache.key(7, b"post", "inputs", _GateSettings(4)) != digest.hexdigest()
    assert cache.key(7, b"post", "inputs", first) == digest.hexdigest()
    assert cache.key(8, b"post", "inputs", first) != digest.hexdigest()
    assert cache.key(7, b"post2", "inputs", first) != digest.hexdigest()
    assert cache.key(7, b"post", "inputs2", first) != digest.hexdigest()


def test_a_stored_card_and_its_cached_copy_name_the_same_content(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path, Settings())
    key = cache.key(2, b"post", "inputs", None)
    computed = _card(2)
    assert (
        computed.content_digest()
        == hashlib.sha1(
            json.dumps(computed.to_dict(), sort_keys=True, ensure_ascii=False).encode()
        ).hexdigest()
    )
    cache.store(key, computed)
    loaded = ResultCache(tmp_path, Settings()).load(key, 2, "gate2")
    assert loaded is not None and loaded.to_dict() == computed.to_dict()
    assert loaded.content_digest() == computed.content_digest()
    assert loaded.content_digest().startswith("e0:")
    # The run's advisory flag is part of the file, and so of the digest.
    advisory = replace(loaded, advisory=True)
    assert advisory.content_digest() != loaded.content_digest()
    # Another entry's text (another verdict) names other content.
    other_key = cache.key(2, b"other post", "inputs", None)
    cache.store(other_key, _card(2, "FAIL"))
    other = ResultCache(tmp_path, Settings()).load(other_key, 2, "gate2")
    assert other is not None and other.content_digest() != loaded.content_digest()


def _open_and_store(folder: str, gate: int, start: Any, errors: Any) -> None:
    cache = ResultCache(Path(folder), Settings())
    start.wait()
    try:
        cache.store(cache.key(gate, b"post", "inputs", None), _card(gate))
    except OSError as exc:
        errors.put(f"gate {gate}: {exc.strerror}")


def test_processes_opening_a_new_database_together_each_keep_their_cache(
    tmp_path: Path,
) -> None:
    """xdist's workers on a cold run create the database together. SQLite refuses one of
    two processes switching it to WAL at once without waiting (a lock upgrade that could
    deadlock); that process used to run with no cache (a cold CI run's worker stored
    nothing, and the rerun was not served). One round lost an open about one time in five
    before; thirty rounds."""
    context = multiprocessing.get_context("fork")
    errors = context.Queue()
    for round_ in range(30):
        folder = tmp_path / str(round_)
        start = context.Event()
        workers = [
            context.Process(target=_open_and_store, args=(str(folder), gate, start, errors))
            for gate in (1, 2, 3, 4)
        ]
        for worker in workers:
            worker.start()
        start.set()
        for worker in workers:
            worker.join(timeout=120)
            assert worker.exitcode == 0
        assert errors.empty(), errors.get()
        cache = ResultCache(folder, Settings())
        for gate in (1, 2, 3, 4):
            assert cache.load(cache.key(gate, b"post", "inputs", None), gate, f"gate{gate}")


def test_only_a_busy_database_is_asked_again() -> None:
    calls: list[int] = []

    def locked_twice() -> None:
        calls.append(1)
        if len(calls) < 3:
            raise sqlite3.OperationalError("database is locked")

    results._while_busy(locked_twice)
    assert len(calls) == 3

    def read_only() -> None:
        calls.append(1)
        raise sqlite3.OperationalError("attempt to write a readonly database")

    calls.clear()
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        results._while_busy(read_only)
    assert len(calls) == 1


# ---------------------------------------------------------------------- plugin runs
FRONT, GOOD = BLOG_FRONT, GROUNDED
SPY = """
import pytest_postgates.results as results
import pytest_postgates.runner as runner
import pytest_postgates.scorecard as scorecard

def _logged(name, original):
    def spy(*args, **kwargs):
        with open("calls.log", "a") as log:
            log.write(name + "\\n")
        return original(*args, **kwargs)
    return spy

runner.parse_post = _logged("parse", runner.parse_post)
scorecard.replace_file = _logged("write", scorecard.replace_file)
results.ResultCache._read_text = _logged("query", results.ResultCache._read_text)
results.ResultCache.prefetch = _logged("prefetch", results.ResultCache.prefetch)
"""


@pytest.fixture
def blog(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    monkeypatch.setenv(
        "PYTEST_ADDOPTS",
        f"{GATE11_ADOPTED} --postgates -p no:hypothesispytest -p no:randomly "
        "--postgates-only=2,11,13",
    )
    posts = {f"2026-01-0{i + 1}-post.md": FRONT + GOOD + f"\nPost {i}.\n" for i in range(3)}
    posts["2026-01-04-post.md"] = FRONT + "`app.invented_call()` does it.\n"
    blog_repo(pytester.path, posts)
    pytester.makeconftest(SPY)
    return pytester


def _calls(blog: pytest.Pytester) -> list[str]:
    log = blog.path / "calls.log"
    calls = log.read_text().split() if log.exists() else []
    log.unlink(missing_ok=True)
    return calls


def _cards(blog: pytest.Pytester) -> dict[str, bytes]:
    folder = blog.path / ".postgates" / "scorecards"
    return {path.name: path.read_bytes() for path in sorted(folder.glob("*.json"))}


def test_a_second_run_serves_every_item_from_the_cache_and_writes_nothing(
    blog: pytest.Pytester,
) -> None:
    blog.runpytest_subprocess("--postgates-jobs=1").assert_outcomes(passed=6, failed=2, xpassed=4)
    first = _calls(blog)
    assert first.count("parse") == 4 and first.count("write") == 12
    cards = _cards(blog)
    assert len(cards) == 16  # 12 gate scorecards, 4 overall files
    blog.runpytest_subprocess("--postgates-jobs=1").assert_outcomes(passed=6, failed=2, xpassed=4)
    # No post parsed or gated, no scorecard rewritten (a stored card and its cached copy
    # are told unchanged by their stamps), one query a post for its gates' results (the
    # two gates short-circuited on the failing post are not cached and not queried).
    second = _calls(blog)
    assert "parse" not in second and "write" not in second
    assert second.count("prefetch") == 4
    assert second.count("query") == 0
    assert _cards(blog) == cards


def test_an_edited_post_is_gated_again_and_its_scorecards_follow(blog: pytest.Pytester) -> None:
    blog.runpytest_subprocess("--postgates-jobs=1").assert_outcomes(passed=6, failed=2, xpassed=4)
    _calls(blog)
    before = _cards(blog)
    # The failing post fixed: the same size would not matter, its bytes changed.
    post = blog.path / "_posts" / "2026-01-04-post.md"
    post.write_text(FRONT + GOOD + "\nPost 4.\n")
    blog.runpytest_subprocess("--postgates-jobs=1").assert_outcomes(passed=8, xpassed=4)
    calls = _calls(blog)
    assert calls.count("parse") == 1
    after = _cards(blog)
    changed = {name for name in after if after[name] != before.get(name)}
    assert changed == {
        "2026-01-04-post-gate2-symbol_grounding.json",
        "2026-01-04-post-gate11-narrative_opening.json",
        "2026-01-04-post-overall.json",
    }  # gate 13 ran on the failing post too (it costs nothing) and passed both times
    assert json.loads(after["2026-01-04-post-gate2-symbol_grounding.json"])["verdict"] == "PASS"
    # And back: the old bytes are served from the cache again, their scorecards restored.
    post.write_text(FRONT + "`app.invented_call()` does it.\n")
    blog.runpytest_subprocess("--postgates-jobs=1").assert_outcomes(passed=6, failed=2, xpassed=4)
    assert "parse" not in _calls(blog)
    assert _cards(blog) == before


def test_a_second_run_under_xdist_is_served_from_a_serial_runs_cache(
    blog: pytest.Pytester,
) -> None:
    """Each worker reads its posts' results ahead in its own process; the digests naming
    the scorecards are the same in every process, so nothing is rewritten."""
    pytest.importorskip("xdist")
    blog.runpytest_subprocess("--postgates-jobs=1").assert_outcomes(passed=6, failed=2, xpassed=4)
    _calls(blog)
    cards = _cards(blog)
    blog.runpytest_subprocess("-n", "2").assert_outcomes(passed=6, failed=2, xpassed=4)
    calls = _calls(blog)
    assert "parse" not in calls and "write" not in calls
    assert calls.count("prefetch") == 4  # one a post, whichever worker ran it
    assert _cards(blog) == cards
