"""Issue 16: every gate and every batch has a budget; one post never stalls the rest.

- ``gate_timeout``: a gate that overruns on one post is an ERROR for that post only, the
  other posts are judged; pure-Python loops and backtracking regexes are both stopped, in
  the main thread (SIGALRM) and in worker threads (watchdog).
- the lint batch: a post that makes the linter fail is linted alone and gets the ERROR;
  every other post gets its real lint result.
- mermaid: a diagram that timed out is cached, so a rerun does not wait for it again.
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from pytest_postgates import budget
from pytest_postgates.config import Settings, SettingsError, apply
from pytest_postgates.tools.lint import batch as lint_run
from pytest_postgates.tools.lint import isolation as lint_isolation
from pytest_postgates.tools.lint import process
from tests.conftest import Blog


def _spin_python() -> None:
    while True:
        pass


def _spin_regex() -> None:
    # Catastrophic backtracking: hours, inside one C call of the regex engine.
    re.match(r"(a+)+$", "a" * 64 + "b")


@pytest.mark.parametrize("work", [_spin_python, _spin_regex], ids=["python", "regex"])
def test_the_budget_stops_work_in_the_main_thread(work: Any) -> None:
    started = time.monotonic()
    with pytest.raises(budget.BudgetExceeded, match=r"budget of 0\.3 s"), budget.limit(0.3, "spin"):
        work()
    assert time.monotonic() - started < 5


def test_the_budget_stops_python_work_in_a_worker_thread() -> None:
    outcome: list[BaseException | None] = []

    def worker() -> None:
        try:
            with budget.limit(0.3, "spin"):
                _spin_python()
        except budget.BudgetExceeded as exc:
            outcome.append(exc)
        else:
            outcome.append(None)

    thread = threading.Thread(target=worker, daemon=True)
    thread.start()
    thread.join(10)
    assert not thread.is_alive(), "the watchdog did not stop the loop"
    assert outcome and isinstance(outcome[0], budget.BudgetExceeded)


def test_a_gates_except_exception_cannot_swallow_the_overrun() -> None:
    with pytest.raises(budget.BudgetExceeded), budget.limit(0.2, "gate"):
        with contextlib.suppress(Exception):
            _spin_python()
        _spin_python()


def test_shared_work_is_not_charged_to_the_post() -> None:
    # 0.6 s of paused work inside a 0.4 s budget: no overrun, and the clock resumes.
    with budget.limit(0.4, "gate"):
        with budget.paused():
            time.sleep(0.6)
        time.sleep(0.1)
    with pytest.raises(budget.BudgetExceeded), budget.limit(0.4, "gate"):
        with budget.paused():
            time.sleep(0.2)
        _spin_python()


def test_no_alarm_is_left_behind() -> None:
    import signal

    with budget.limit(0.5, "quick"):
        pass
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) in (signal.SIG_DFL, None)


@pytest.mark.parametrize("value", [0, -1, "nan", float("inf"), "soon", True])
def test_gate_timeout_must_be_a_positive_number_of_seconds(value: Any) -> None:
    with pytest.raises(SettingsError, match="gate_timeout"):
        apply(Settings(), {"gate_timeout": value}, Path("."), "test")


def test_gate_timeout_is_read_from_the_configuration() -> None:
    assert Settings().gate_timeout == 60.0
    assert apply(Settings(), {"gate_timeout": "2.5"}, Path("."), "test").gate_timeout == 2.5


# A conftest that makes gate 13 hang on any post containing the marker, in pure Python on
# one post and in a backtracking regex on another: the budget has to stop both.
SLOW_GATE = """
import re
import pytest_postgates.gates.call_graph_claims as gate

_real = gate.scan_claims


def _scan(post):
    if "SPIN-PYTHON" in post.text:
        while True:
            pass
    if "SPIN-REGEX" in post.text:
        re.match(r"(a+)+$", "a" * 64 + "b")
    return _real(post)


gate.scan_claims = _scan
"""


def test_an_overrunning_gate_is_an_error_for_that_post_only(
    pytester: pytest.Pytester, blog: Blog
) -> None:
    blog.pyproject("gate_timeout = 1\n")
    pytester.makeconftest(SLOW_GATE)
    blog.post("2026-01-01-good.md")
    blog.post("2026-01-02-spin-python.md", Blog.GOOD + "\nSPIN-PYTHON\n")
    blog.post("2026-01-03-spin-regex.md", Blog.GOOD + "\nSPIN-REGEX\n")
    blog.post("2026-01-04-good-too.md")
    started = time.monotonic()
    result = pytester.runpytest_subprocess("--postgates-only=13", "-p", "no:randomly", timeout=120)
    assert time.monotonic() - started < 90
    cards = blog.scorecards()
    for name in ("2026-01-02-spin-python", "2026-01-03-spin-regex"):
        card = cards[f"{name}-gate13-call_graph_claims.json"]
        assert card["verdict"] == "ERROR", card
        assert "gate_timeout (1 s)" in card["detail"]["error"]
    for name in ("2026-01-01-good", "2026-01-04-good-too"):
        assert cards[f"{name}-gate13-call_graph_claims.json"]["verdict"] == "PASS"
    result.stdout.fnmatch_lines(["*gate call_graph_claims on _posts/2026-01-02-spin-python.md*"])
    assert "INTERNALERROR" not in result.stdout.str()


# ------------------------------------------------------------------------------ lint batch
HANGS = "<!-- this post makes the linter time out -->"


def _posts(tmp_path: Path, count: int, bad: Sequence[int]) -> list[Path]:
    folder = tmp_path / "_posts"
    folder.mkdir()
    paths = []
    for index in range(count):
        path = folder / f"2026-01-{index + 1:02d}-post.md"
        body = "# Title\n\nSome text.\n" + (f"\n{HANGS}\n" if index in bad else "")
        path.write_text(body, encoding="utf-8")
        paths.append(path)
    return paths


@pytest.fixture
def timing_out_linter(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The real linter, except that a batch holding a hostile post fails the way a linter
    timeout does (one error for the whole batch). Returns the sizes of the runs made."""
    real = lint_run.lint_batch
    runs: list[int] = []

    def fake(paths: Sequence[Path], *args: Any, **kwargs: Any) -> dict[str, Any]:
        runs.append(len(paths))
        if any(HANGS in Path(path).read_text(encoding="utf-8") for path in paths):
            return {
                "backend": "rumdl",
                "version": "0.3",
                "error": f"rumdl did not finish in {process.linter_timeout(len(paths)):g} s",
                "files": {},
            }
        return real(paths, *args, **kwargs)

    monkeypatch.setattr(lint_run, "lint_batch", fake)
    return runs


def _lint_run(paths: list[Path]) -> dict[str, Any]:
    get = lint_isolation.isolating_get(lambda name, compute: compute(), paths, "rumdl", None)
    return get(lint_isolation.BATCH_NAME, lambda: lint_run.lint_batch(paths, "rumdl", None))


@pytest.mark.parametrize(("count", "bad"), [(5, [2]), (40, [3, 33]), (1, [0])])
def test_a_post_that_breaks_the_linter_errors_alone(
    tmp_path: Path, timing_out_linter: list[int], count: int, bad: list[int]
) -> None:
    paths = _posts(tmp_path, count, bad)
    batch = _lint_run(paths)
    assert batch["error"] is None
    for index, path in enumerate(paths):
        entry = batch["files"][str(path.resolve())]
        if index in bad:
            assert "did not finish" in entry["error"] and "linted alone" in entry["error"]
            assert entry["sha1"] == lint_run.file_digest(path)  # trusted, not linted a third time
        else:
            assert entry["error"] is None, entry
            assert [v["rule"] for v in entry["violations"]] == []
    # Whole batch, then chunks of 16, then the posts of failing chunks one by one.
    assert len(timing_out_linter) <= 1 + -(-count // 16) + 16 * len(bad)


def test_a_linter_that_fails_everywhere_is_one_batch_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs: list[int] = []

    def broken(paths: Sequence[Path], *args: Any, **kwargs: Any) -> dict[str, Any]:
        runs.append(len(paths))
        return {"backend": "rumdl", "version": "0.3", "error": "rumdl crashed", "files": {}}

    monkeypatch.setattr(lint_run, "lint_batch", broken)
    paths = _posts(tmp_path, 40, [])
    assert _lint_run(paths)["error"] == "rumdl crashed"
    assert len(runs) == 1 + 3  # the batch and its three chunks, not one run per post


def test_gate_12_reports_the_breaking_post_and_judges_the_rest(
    pytester: pytest.Pytester, blog: Blog
) -> None:
    pytester.makeconftest(
        "import pytest_postgates.tools.lint.batch as lint\n"
        "_real = lint.lint_batch\n"
        "def _fake(paths, *args, **kwargs):\n"
        f"    if any({HANGS!r} in open(p, encoding='utf-8').read() for p in paths):\n"
        "        return {'backend': 'rumdl', 'version': '0', 'files': {},\n"
        "                'error': 'rumdl did not finish in 600 s'}\n"
        "    return _real(paths, *args, **kwargs)\n"
        "lint.lint_batch = _fake\n"
    )
    blog.pyproject('lint_backend = "rumdl"\n')
    for day in range(1, 5):
        blog.post(f"2026-01-0{day}-post.md", "Some text here.\n")
    blog.post("2026-01-09-hostile.md", f"Some text here.\n\n{HANGS}\n")
    pytester.runpytest_subprocess("--postgates-only=12", "-p", "no:randomly", timeout=300)
    cards = blog.scorecards()
    verdicts = {
        name.split("-gate12")[0]: card["verdict"]
        for name, card in cards.items()
        if "-gate12-" in name
    }
    assert verdicts.pop("2026-01-09-hostile") == "ERROR"
    assert set(verdicts.values()) == {"PASS"}, verdicts
    assert (
        "did not finish" in cards["2026-01-09-hostile-gate12-markdownlint.json"]["detail"]["error"]
    )


# -------------------------------------------------------------------------------- mermaid
def test_a_mermaid_timeout_is_cached_for_the_next_run(tmp_path: Path) -> None:
    from pytest_postgates.tools.mermaid import MermaidParser

    slow = "flowchart TD\n" + " \n" * 20_000 + "A --> B\n"
    first = MermaidParser(tmp_path, engine="quickjs", timeout=0.5)
    try:
        assert first.parse(slow).kind == "timeout"
    finally:
        first.close()
    # A rerun (a fresh parser, as in a new process) answers from the disk cache.
    second = MermaidParser(tmp_path, engine="quickjs", timeout=0.5)
    try:
        started = time.monotonic()
        again = second.parse(slow)
        assert again.kind == "timeout" and "within 0.5 s" in again.message
        assert second.engine_calls == 0 and time.monotonic() - started < 0.4
    finally:
        second.close()
    # A parser that would wait longer tries again rather than trust a shorter limit.
    patient = MermaidParser(tmp_path, engine="quickjs", timeout=1.0)
    try:
        assert patient.cached(slow) is None
    finally:
        patient.close()
    stored = list((tmp_path / "mermaid").rglob("*.json"))
    assert [json.loads(p.read_text())["limit"] for p in stored] == [0.5]
