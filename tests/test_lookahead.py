"""Look-ahead workers (issue 15): a serial run's spare CPUs gate later posts into the
result cache. The output must be the same with and without them; they follow the selection,
stop with the session, never outlive it, and a dead worker's post is gated by the main
process with a warning."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import pytest

from pytest_postgates import lookahead
from pytest_postgates.config import Judge, Settings, SettingsError, apply
from pytest_postgates.gates import BY_ID, SETTINGS_TYPES
from pytest_postgates.gates.base import GateContext
from pytest_postgates.lookahead import (
    DONE,
    FREE,
    LEFT,
    MAIN,
    WORKER_BASE,
    ClaimTable,
    Job,
    PostJob,
    gate_post,
    worker_alive,
    workers_for,
)
from pytest_postgates.results import settings_fingerprint
from tests.helpers import BLOG_FRONT, GROUNDED, blog_repo

pytestmark = pytest.mark.skipif(lookahead.fcntl is None, reason="look-ahead needs fcntl")

FRONT, GOOD = BLOG_FRONT, GROUNDED
# Gate 2 FAIL (an invented symbol), which short-circuits gates 11 and 13.
UNGROUNDED = "We run pytest on Python posts; `renderEverythingTwice` is invented.\n"
# Gate 11 FAIL: no real tool named in the opening.
NO_ENTITY = "This post is about some ideas in general.\n\nIt explains them in plain words.\n"
POSTS = 8


# ---------------------------------------------------------------------- claim protocol
def test_main_and_workers_never_claim_the_same_post(tmp_path: Path) -> None:
    """A main process claiming in order and two workers claiming from the end, at once
    (separate open files, so flock separates them as it separates processes): every post
    is claimed exactly once, and the workers' posts are a tail of the list."""
    count = 400
    path = tmp_path / "claims"
    tables = [ClaimTable(path, count) for _ in range(3)]
    got: dict[str, list[int]] = {"main": [], "w0": [], "w1": []}

    def main() -> None:
        for number in range(count):
            if tables[0].claim(number) == FREE:
                got["main"].append(number)

    def worker(slot: int) -> None:
        while (number := tables[slot].claim_last(slot)) is not None:
            got[f"w{slot - 1}"].append(number)
            tables[slot].finish(number, DONE)

    threads = [threading.Thread(target=main)]
    threads += [threading.Thread(target=worker, args=(slot,)) for slot in (1, 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    claimed = got["main"] + got["w0"] + got["w1"]
    assert sorted(claimed) == list(range(count))
    workers = sorted(got["w0"] + got["w1"])
    assert workers == list(range(count - len(workers), count))  # they met in the middle
    assert got["main"] == list(range(len(got["main"])))
    for table in tables:
        table.close()


def test_claim_states_and_take_back(tmp_path: Path) -> None:
    table = ClaimTable(tmp_path / "claims", 3)
    assert table.claim_last(slot=5) == 2
    assert table.state(2) == WORKER_BASE + 5
    assert table.claim(2) == WORKER_BASE + 5  # the main process must wait, not take it
    assert table.state(2) == WORKER_BASE + 5
    assert table.claim(0) == FREE and table.state(0) == MAIN
    assert table.claim_last(slot=5) == 1
    table.finish(1, LEFT)
    assert not table.take_back(2, LEFT)  # still the worker's: not taken
    assert table.take_back(1, LEFT) and table.state(1) == MAIN
    assert table.claim_last(slot=5) is None
    assert [table.new_slot(), table.new_slot()] == [0, 1]
    with pytest.raises(ValueError, match="claim table of 3 posts"):
        ClaimTable(tmp_path / "claims", 4)
    table.close()


def test_a_serial_worker_claims_ahead_of_the_main_process(tmp_path: Path) -> None:
    """Issue 15: a serial run's worker claims the first free post LEAD_POSTS beyond the
    furthest post the main process reached (so the main process's per-item work for the
    worker's posts overlaps the worker's gating), skipping the posts the main process
    will reach first; near the end, the last free post after it."""
    lead = lookahead.LEAD_POSTS
    count = lead * 3
    table = ClaimTable(tmp_path / "claims", count)
    assert table.peek_ahead(lead=lead) == lead  # what the claim takes, left free
    assert table.state(lead) == FREE
    assert table.claim_ahead(slot=0, lead=lead) == lead  # before the first item: from 0
    assert table.claim(0) == FREE and table.claim(3) == FREE
    assert table.reached() == 3
    assert table.claim_ahead(slot=0, lead=lead) == 3 + lead
    assert table.claim_ahead(slot=0, lead=lead) == 4 + lead  # consecutive while ahead
    # The posts the worker skipped (before 3 + lead) are left free for the main process.
    assert [table.state(n) for n in (4, lead - 1, lead + 1, lead + 2)] == [FREE] * 4
    table.claim(2 * lead)  # the main process got far: nothing free lead posts beyond it
    assert table.claim_ahead(slot=0, lead=lead) == count - 1  # the last free after it
    assert table.claim_ahead(slot=0, lead=lead) == count - 2
    table.close()
    # Near the end: the free posts within the lead, the last one first.
    table = ClaimTable(tmp_path / "claims-end", 10)
    table.claim(2)
    assert [table.claim_ahead(slot=1, lead=lead) for _ in range(8)] == [9, 8, 7, 6, 5, 4, 3, None]
    assert table.peek_ahead(lead=lead) is None
    assert table.state(1) == FREE  # behind the main process: never the worker's
    table.close()


def test_a_dead_worker_is_told_from_a_slow_one(tmp_path: Path) -> None:
    lookahead.alive_path(tmp_path, 0).touch()
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import fcntl, os, sys, time\n"
            f"fd = os.open({str(lookahead.alive_path(tmp_path, 0))!r}, os.O_RDWR)\n"
            "fcntl.flock(fd, fcntl.LOCK_EX)\nprint('held', flush=True)\ntime.sleep(60)\n",
        ],
        stdout=subprocess.PIPE,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"held\n"
        assert worker_alive(tmp_path, 0)
        assert worker_alive(tmp_path, 0)  # asking does not take the lock away
    finally:
        holder.kill()
        holder.wait()
    assert not worker_alive(tmp_path, 0)
    assert not worker_alive(tmp_path, 1)  # never started


def test_how_many_workers_a_process_starts() -> None:
    assert workers_for("auto", cpus=2, xdist_workers=None, worker_index=0) == 1
    assert workers_for("auto", cpus=1, xdist_workers=None, worker_index=0) == 0
    assert workers_for("auto", cpus=64, xdist_workers=None, worker_index=0) == 4
    assert workers_for(1, cpus=8, xdist_workers=None, worker_index=0) == 0
    assert workers_for(3, cpus=2, xdist_workers=None, worker_index=0) == 2
    # xdist: each worker already uses a CPU; only CPUs beyond them get a look-ahead.
    assert workers_for("auto", cpus=2, xdist_workers=2, worker_index=0) == 0
    assert workers_for("auto", cpus=4, xdist_workers=2, worker_index=1) == 1
    assert workers_for("auto", cpus=3, xdist_workers=2, worker_index=1) == 0


def test_the_jobs_setting(tmp_path: Path) -> None:
    settings = Settings.declare(SETTINGS_TYPES)
    assert settings.jobs == "auto"
    assert apply(settings, {"jobs": "3"}, tmp_path, "t").jobs == 3
    assert apply(settings, {"jobs": 2}, tmp_path, "t").jobs == 2
    assert apply(settings, {"jobs": "AUTO"}, tmp_path, "t").jobs == "auto"
    for bad in (0, "0", "two", True, 1.5):
        with pytest.raises(SettingsError, match="jobs"):
            apply(settings, {"jobs": bad}, tmp_path, "t")
    # Scheduling, not a result: the cache keys of jobs 1 and jobs 4 are the same.
    assert settings_fingerprint(replace(settings, jobs=1)) == settings_fingerprint(settings)


def _job(tmp_path: Path, settings: Settings, post: Path, gate_ids: tuple[int, ...]) -> Job:
    return Job(
        slot=0,
        parent_pid=os.getppid(),
        fingerprint=lookahead.CODE_FINGERPRINT,
        settings=settings,
        cache_dir=tmp_path / "cache",
        run_dir=tmp_path,
        roots=(tmp_path,),
        batch_posts=(post,),
        batch_selected=None,
        table=tmp_path / "claims",
        posts=(PostJob(post, post.name, post.stem, gate_ids, None),),
    )


@pytest.mark.parametrize("run_all", [False, True])
def test_a_worker_leaves_judge_gates_to_the_main_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_all: bool
) -> None:
    """With a judge configured, gate 4 is not cached: a worker must not call the judge.
    It gates the cached gate after it all the same (with or without --postgates-all): the
    main process reads that result unless gate 4 fails there (issue 15: an online run left
    every gate after gate 6 to the main process)."""
    post = tmp_path / "2026-01-01-post.md"
    post.write_text(FRONT + "This post shows how pytest runs a Python plugin.\n")
    settings = Settings.declare(
        SETTINGS_TYPES,
        judges=(Judge("j", "http://127.0.0.1:9/v1", "m"),),
        run_all=run_all,
        offline=True,
    )

    def no_judge(*args: object, **kwargs: object) -> None:
        raise AssertionError("a look-ahead worker called a judge gate")

    monkeypatch.setitem(BY_ID, 4, replace(BY_ID[4], check=no_judge))
    job = _job(tmp_path, settings, post, (4, 13))
    context = lookahead.worker_context(job)
    gate_post(job, job.posts[0], context)
    results = context.results
    assert results is not None
    from pytest_postgates.runner import PostRun

    main_context = GateContext.create(settings, tmp_path / "cache", cache_results=True)
    run = PostRun(post, post.name, post.stem, main_context, selected=[BY_ID[4], BY_ID[13]])
    key = run.cache_key(BY_ID[13])
    assert key is not None
    assert results.load(key, 13, "call_graph_claims") is not None
    assert run.cache_key(BY_ID[4]) is None  # nothing of the judge gate was stored


# ---------------------------------------------------------------------- plugin behaviour
# Holds the main process at its first item until a worker has finished a post (so that the
# worker's work is what the main process reads), and records what the run started.
HOLD_CONFTEST = """
import json, os, time
import pytest
from pytest_postgates.plugin import LOOKAHEAD_KEY
from pytest_postgates.lookahead import DONE

_held = []

@pytest.hookimpl(trylast=True)
def pytest_runtest_setup(item):
    ahead = item.config.stash.get(LOOKAHEAD_KEY, None)
    if ahead is None or _held or not ahead.processes:
        return
    _held.append(item.nodeid)
    deadline = time.monotonic() + 120
    while DONE not in ahead.table.states() and time.monotonic() < deadline:
        time.sleep(0.02)
    {extra}

def pytest_unconfigure(config):
    ahead = config.stash.get(LOOKAHEAD_KEY, None)
    record = {{
        "pids": ahead.worker_pids() if ahead else [],
        "run_dir": str(ahead.run_dir) if ahead else None,
    }}
    with open("lookahead-record.json", "w") as out:
        json.dump(record, out)
"""


def _hold(pytester: pytest.Pytester, extra: str = "pass") -> None:
    pytester.makeconftest(HOLD_CONFTEST.format(extra=extra))


@pytest.fixture
def corpus(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """Eight posts in a git repository (gates 2, 11, 13): passing ones, a gate-2 FAIL that
    short-circuits, a gate-11 FAIL, a post with bad input."""
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    monkeypatch.delenv("POSTGATES_JOBS", raising=False)
    monkeypatch.setenv(
        "PYTEST_ADDOPTS",
        "--postgates -p no:hypothesispytest -p no:randomly --postgates-only=2,11,13",
    )
    posts: dict[str, str | bytes] = {
        f"2026-01-0{number + 1}-post-{number}.md": FRONT
        + {2: UNGROUNDED, 5: NO_ENTITY}.get(number, GOOD)
        + f"\nPost {number} of the Python series.\n"
        for number in range(POSTS)
    }
    posts["2026-01-09-bad.md"] = b"---\ntitle: [unclosed\n---\nPython.\n"
    blog_repo(pytester.path, posts)
    return pytester


def _run(pytester: pytest.Pytester, tag: str, *args: str) -> pytest.RunResult:
    return pytester.runpytest_subprocess(
        "_posts",
        "-rA",
        f"--postgates-scorecards=cards-{tag}",
        f"--postgates-sarif={tag}.sarif",
        f"--postgates-html={tag}.html",
        f"--postgates-feedback={tag}.txt",
        f"--junitxml={tag}.xml",
        *args,
    )


def _outputs(folder: Path, tag: str) -> dict[str, bytes]:
    files = {p.name: p.read_bytes() for p in sorted((folder / f"cards-{tag}").iterdir())}
    for suffix in ("sarif", "html", "txt"):
        files[suffix] = (folder / f"{tag}.{suffix}").read_bytes()
    return files


def _junit_outcomes(path: Path) -> list[tuple[str, str, str]]:
    cases = []
    for case in ET.parse(path).getroot().iter("testcase"):
        outcome = next((child.tag for child in case), "passed")
        message = next((child.get("message", "") for child in case), "")
        cases.append((case.get("classname", ""), case.get("name", ""), f"{outcome}:{message}"))
    return cases


def _outcome_lines(result: pytest.RunResult) -> list[str]:
    return sorted(
        line
        for line in result.outlines
        if line.startswith(("PASSED", "FAILED", "ERROR", "SKIPPED", "XFAIL", "XPASS"))
    )


def _record(pytester: pytest.Pytester) -> dict[str, object]:
    return json.loads((pytester.path / "lookahead-record.json").read_text())


def _gone(pids: object, seconds: float = 10) -> bool:
    assert isinstance(pids, list)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        alive = []
        for pid in pids:
            try:
                os.kill(pid, 0)
                alive.append(pid)
            except ProcessLookupError:
                pass
        if not alive:
            return True
        time.sleep(0.05)
    return False


def test_a_run_with_workers_gives_the_output_of_a_run_without(corpus: pytest.Pytester) -> None:
    _hold(corpus)
    serial = _run(corpus, "serial", "--postgates-jobs=1", "-o", "cache_dir=.serial-cache")
    assert "look-ahead" not in serial.stdout.str()
    ahead = _run(corpus, "ahead", "--postgates-jobs=2")
    ahead_text = ahead.stdout.str()
    gated = [line for line in ahead.outlines if "look-ahead: 1 worker(s) gated" in line]
    assert gated and " gated 0 of" not in gated[0], ahead_text
    assert gated[0].endswith("results gated twice: 0"), gated[0]
    assert ahead.ret == serial.ret == 1
    assert ahead.parseoutcomes() == serial.parseoutcomes()
    assert _outcome_lines(ahead) == _outcome_lines(serial)
    assert _outputs(corpus.path, "ahead") == _outputs(corpus.path, "serial")
    assert _junit_outcomes(corpus.path / "ahead.xml") == _junit_outcomes(corpus.path / "serial.xml")
    record = _record(corpus)
    assert _gone(record["pids"], seconds=1)
    assert not Path(str(record["run_dir"])).exists()  # no claim table or lock left behind


def test_snapshots_pinned_with_workers_are_those_pinned_without(corpus: pytest.Pytester) -> None:
    _hold(corpus)
    args = ("--postgates-snapshot", "--snapshot-update", "--cache-clear")
    _run(corpus, "serial", "--postgates-jobs=1", *args)
    serial = {
        p.relative_to(corpus.path).as_posix(): p.read_bytes()
        for p in sorted((corpus.path / "_posts" / "__snapshots__").rglob("*"))
        if p.is_file()
    }
    assert serial
    for path in (corpus.path / "_posts" / "__snapshots__").rglob("*.json"):
        path.unlink()
    ahead = _run(corpus, "ahead", "--postgates-jobs=2", *args)
    assert "look-ahead: 1 worker(s)" in ahead.stdout.str()
    pinned = {
        p.relative_to(corpus.path).as_posix(): p.read_bytes()
        for p in sorted((corpus.path / "_posts" / "__snapshots__").rglob("*"))
        if p.is_file()
    }
    assert pinned == serial
    # And the pins hold, with workers, on a cold cache.
    cold = _run(corpus, "check", "--postgates-jobs=2", "--postgates-snapshot", "--cache-clear")
    assert cold.ret == 0, cold.stdout.str()


SPY = """
import pytest_postgates.runner as runner
_original = runner.parse_post
def spy(path, data=None):
    with open("parses.log", "a") as log:
        log.write(path.name + "\\n")
    return _original(path, data)
runner.parse_post = spy
"""


def test_workers_gate_only_the_selected_posts(corpus: pytest.Pytester) -> None:
    """With -k, the worker gates selected posts only: a later serial run of the whole
    corpus parses exactly the posts that were not selected (the others are cached)."""
    _hold(corpus)
    result = _run(corpus, "k", "--postgates-jobs=2", "-k", "post-4 or post-6 or post-7")
    assert "look-ahead: 1 worker(s) gated" in result.stdout.str()
    (corpus.path / "conftest.py").write_text(SPY)
    again = _run(corpus, "all", "--postgates-jobs=1")
    assert again.ret == 1
    parsed = sorted(set((corpus.path / "parses.log").read_text().split()))
    selected = {f"2026-01-0{n + 1}-post-{n}.md" for n in (4, 6, 7)}
    every = {p.name for p in (corpus.path / "_posts").glob("*.md")}
    # The bad-input post is never cached (an ERROR), so it is parsed again either way.
    assert set(parsed) == every - selected


def test_stop_on_first_failure_stops_the_workers(corpus: pytest.Pytester) -> None:
    """-x stops the session while a worker is gating: it is stopped and waited for, the
    run's scratch folder is gone, and the next run gives the serial run's output."""
    _hold(corpus)
    stopped = _run(corpus, "x", "--postgates-jobs=2", "-x", "--postgates-all")
    assert stopped.ret == 1
    assert "stopping after 1 failures" in stopped.stdout.str()
    record = _record(corpus)
    assert record["pids"] and _gone(record["pids"], seconds=1)
    assert not Path(str(record["run_dir"])).exists()
    after = _run(corpus, "after", "--postgates-all")
    reference = _run(
        corpus,
        "reference",
        "--postgates-all",
        "--postgates-jobs=1",
        "-o",
        "cache_dir=.serial-cache",
    )
    assert after.parseoutcomes() == reference.parseoutcomes()
    assert _outputs(corpus.path, "after") == _outputs(corpus.path, "reference")


def test_a_killed_main_process_leaves_no_worker_and_a_correct_cache(
    corpus: pytest.Pytester,
) -> None:
    _hold(
        corpus,
        extra=(
            "json.dump(item.config.stash[LOOKAHEAD_KEY].worker_pids(), open('pids.json', 'w'))"
            "; os.kill(os.getpid(), 9)"
        ),
    )
    killed = corpus.runpytest_subprocess("_posts", "--postgates-jobs=2")
    assert killed.ret == -signal.SIGKILL
    pids = json.loads((corpus.path / "pids.json").read_text())
    assert pids and _gone(pids), "a look-ahead worker outlived its killed main process"
    (corpus.path / "conftest.py").unlink()
    after = _run(corpus, "after", "--postgates-jobs=2")
    reference = _run(corpus, "reference", "--postgates-jobs=1", "-o", "cache_dir=.serial-cache")
    assert after.parseoutcomes() == reference.parseoutcomes()
    assert _outputs(corpus.path, "after") == _outputs(corpus.path, "reference")


def test_a_crashed_worker_falls_back_to_the_main_process(corpus: pytest.Pytester) -> None:
    """The worker is killed while it holds a post: the main process gates that post itself
    and warns; the output is still the serial run's."""
    corpus.makeconftest(
        """
import os, signal, time
import pytest
from pytest_postgates.plugin import LOOKAHEAD_KEY
from pytest_postgates.lookahead import WORKER_BASE

_done = []

@pytest.hookimpl(trylast=True)
def pytest_runtest_setup(item):
    ahead = item.config.stash.get(LOOKAHEAD_KEY, None)
    if ahead is None or _done or not ahead.processes:
        return
    _done.append(1)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if any(state >= WORKER_BASE for state in ahead.table.states()):
            break
        time.sleep(0.005)
    os.kill(ahead.worker_pids()[0], signal.SIGKILL)
"""
    )
    crashed = _run(corpus, "crashed", "--postgates-jobs=2")
    text = crashed.stdout.str()
    assert "LookAheadWarning" in text and "gates _posts/" in text, text
    reference = _run(corpus, "reference", "--postgates-jobs=1", "-o", "cache_dir=.serial-cache")
    outcomes = crashed.parseoutcomes()
    assert outcomes.pop("warnings") == 1
    assert outcomes == reference.parseoutcomes()
    assert _outcome_lines(crashed) == _outcome_lines(reference)
    assert _outputs(corpus.path, "crashed") == _outputs(corpus.path, "reference")


def test_a_second_run_starts_no_worker(corpus: pytest.Pytester) -> None:
    _hold(corpus)
    first = _run(corpus, "first", "--postgates-jobs=2")
    assert _record(corpus)["pids"]
    second = _run(corpus, "second", "--postgates-jobs=2")
    assert _record(corpus)["pids"] == []
    assert "look-ahead" not in second.stdout.str()
    assert second.parseoutcomes() == first.parseoutcomes()


def test_no_worker_without_the_result_cache(corpus: pytest.Pytester) -> None:
    """The result cache is the workers' only channel back: without it they are off."""
    (corpus.path / "not-a-folder").write_text("")
    _hold(corpus)
    result = _run(corpus, "nocache", "--postgates-jobs=2", "-o", "cache_dir=not-a-folder")
    assert "running without the result cache" in result.stdout.str()
    assert _record(corpus)["pids"] == []
    assert result.ret == 1


def test_no_worker_under_xdist_when_no_cpu_is_spare(corpus: pytest.Pytester) -> None:
    """-n 2 on two CPUs: each xdist worker already uses one, so auto starts no worker
    (the inner run is pinned to two CPUs, whatever the machine has)."""
    pytest.importorskip("xdist")
    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("needs two CPUs")
    _hold(corpus)
    two = sorted(os.sched_getaffinity(0))[:2]
    launcher = (
        f"import os, sys, pytest; os.sched_setaffinity(0, {two!r}); "
        "sys.exit(pytest.main(sys.argv[1:]))"
    )
    result = subprocess.run(
        [sys.executable, "-c", launcher, "_posts", "-n", "2", "--postgates-jobs=auto", "-rA"],
        cwd=corpus.path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1, result.stdout
    assert "look-ahead" not in result.stdout
    record = _record(corpus)
    assert record["pids"] == []
    serial = _run(corpus, "serial", "--postgates-jobs=1", "-o", "cache_dir=.serial-cache")
    summary = result.stdout.strip().splitlines()[-1]
    assert f"{serial.parseoutcomes()['passed']} passed" in summary, result.stdout


def test_ctrl_c_stops_the_workers(corpus: pytest.Pytester) -> None:
    """Ctrl-C in the main process (the workers run in their own session, so only the main
    process gets it): the run ends as interrupted and no worker outlives it."""
    _hold(
        corpus,
        extra=(
            "json.dump(ahead.worker_pids(), open('pids.json', 'w')); "
            "open('ready', 'w').close(); time.sleep(120)"
        ),
    )
    # A background job inherits SIGINT as ignored: the child installs Python's handler.
    launcher = (
        "import runpy, signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
        "sys.argv = ['pytest', '-q', '_posts', '--postgates-jobs=2']; "
        "runpy.run_module('pytest', run_name='__main__')"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", launcher],
        cwd=corpus.path,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 180
    while not (corpus.path / "ready").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    output = process.communicate(timeout=120)[0].decode()
    assert "KeyboardInterrupt" in output or "Interrupted" in output, output
    pids = json.loads((corpus.path / "pids.json").read_text())
    assert pids and _gone(pids, seconds=1)
    record = _record(corpus)
    assert not Path(str(record["run_dir"])).exists()


def test_xdist_workers_share_one_claim_table(corpus: pytest.Pytester) -> None:
    """-n 2 with jobs 2 asked for explicitly: each xdist worker may start a look-ahead, all
    of them claim through the run's one table, and the output is the serial run's."""
    pytest.importorskip("xdist")
    spread = _run(corpus, "spread", "-n", "2", "--postgates-jobs=2")
    reference = _run(corpus, "reference", "--postgates-jobs=1", "-o", "cache_dir=.serial-cache")
    # A look-ahead worker that stops (on a loaded machine, once in a clean CI run, on the
    # corpus's bad post) hands its post to the main process with a LookAheadWarning: the
    # results are the serial run's all the same, which is what is compared.
    outcomes = spread.parseoutcomes()
    if outcomes.pop("warnings", 0):
        spread.stdout.fnmatch_lines(["*LookAheadWarning: postgates: look-ahead worker stopped*"])
    assert outcomes == reference.parseoutcomes()
    assert _outputs(corpus.path, "spread") == _outputs(corpus.path, "reference")
    # Reports arrive in the order xdist workers finish: the same cases, in another order.
    assert sorted(_junit_outcomes(corpus.path / "spread.xml")) == sorted(
        _junit_outcomes(corpus.path / "reference.xml")
    )


def test_one_changed_post_among_cached_ones_starts_no_worker(corpus: pytest.Pytester) -> None:
    """An edit to one post: the main process gates it, but the posts a worker would take
    are cached, so no worker starts (it would only read cached results twice)."""
    _hold(corpus)
    _run(corpus, "first", "--postgates-jobs=2")
    assert _record(corpus)["pids"]
    first = corpus.path / "_posts" / "2026-01-01-post-0.md"
    first.write_text(first.read_text() + "\nOne more line about pytest.\n")
    edited = _run(corpus, "edited", "--postgates-jobs=2")
    assert _record(corpus)["pids"] == []
    reference = _run(corpus, "reference", "--postgates-jobs=1", "-o", "cache_dir=.serial-cache")
    assert _outputs(corpus.path, "edited") == _outputs(corpus.path, "reference")
    assert edited.parseoutcomes() == reference.parseoutcomes()


# ---------------------------------------------------------------------- batches in parts
# Records, in the main process, the split of gate 12's lint batch, which batch results it
# computed itself (for an item, or while waiting on a lock), and the run folder's batch
# files once the workers are stopped (the plugin's sessionfinish runs first).
PARTS_CONFTEST = """
import json
from pathlib import Path
import pytest
from pytest_postgates.batch import RunBatches
from pytest_postgates.session import STATE_KEY

COMPUTED = []
_get, _unstarted = RunBatches.get, RunBatches._compute_unstarted

def _recorded(name, compute):
    def recording():
        COMPUTED.append(name)
        return compute()
    return recording

RunBatches.get = lambda self, name, compute: _get(self, name, _recorded(name, compute))
RunBatches._compute_unstarted = lambda self, name, compute: _unstarted(
    self, name, _recorded(name, compute)
)

def pytest_sessionfinish(session):
    batches = session.config.stash[STATE_KEY].context.batches
    files = {}
    for path in sorted(batches.run_dir.glob("markdownlint*.json")):
        files[path.stem] = sorted(Path(p).name for p in json.loads(path.read_text())["files"])
    split = {name: [p.name for p in posts] for name, posts in batches._parts("markdownlint")}
    record = {"parts": batches.parts, "split": split, "files": files, "computed": COMPUTED}
    Path("parts-record.json").write_text(json.dumps(record))
"""
PART_POSTS = 48  # four parts of twelve posts (batch.MIN_PART_POSTS) with one worker


@pytest.fixture
def lint_corpus(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """48 posts, gate 12 only (rumdl), the main process held at its first item until a
    worker has gated a post (HOLD_CONFTEST), so that the worker computes a part first."""
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    monkeypatch.delenv("POSTGATES_JOBS", raising=False)
    monkeypatch.setenv(
        "PYTEST_ADDOPTS", "--postgates -p no:hypothesispytest -p no:randomly --postgates-only=12"
    )
    pytester.makepyprojecttoml('[tool.postgates]\nlint_backend = "rumdl"\n')
    posts = pytester.path / "_posts"
    posts.mkdir()
    for number in range(PART_POSTS):
        (posts / f"2026-01-01-post-{number:02d}.md").write_text(
            FRONT + f"Post {number}: some text about pytest.\n"
        )
    pytester.makeconftest(HOLD_CONFTEST.format(extra="pass") + PARTS_CONFTEST)
    return pytester


def _parts_record(pytester: pytest.Pytester) -> dict[str, object]:
    return json.loads((pytester.path / "parts-record.json").read_text())


def test_a_cold_run_with_a_worker_computes_the_batches_in_parts(
    lint_corpus: pytest.Pytester,
) -> None:
    """Issue 15: in a serial run with a look-ahead worker, gate 12's lint batch is split
    into parts (as under xdist), each post in exactly one part, both processes naming the
    same parts and each computing some of them; the scorecards are those of jobs = 1."""
    result = lint_corpus.runpytest_subprocess(
        "_posts", "--postgates-jobs=2", "-p", "no:cacheprovider"
    )
    assert "look-ahead: 1 worker(s) gated" in result.stdout.str(), result.stdout.str()
    result.assert_outcomes(xpassed=PART_POSTS)  # no markdownlint config: gate 12 advisory
    record = _parts_record(lint_corpus)
    split, files, computed = record["split"], record["files"], record["computed"]
    assert isinstance(split, dict) and isinstance(files, dict) and isinstance(computed, list)
    assert len(split) == 4, split
    names = sorted(f"2026-01-01-post-{number:02d}.md" for number in range(PART_POSTS))
    in_parts = sorted(post for posts in split.values() for post in posts)
    assert in_parts == names  # every post in exactly one part
    # The files in the run folder are exactly the main process's parts (no whole batch),
    # whoever wrote them: the worker split the batch the same way.
    assert files == {name: sorted(posts) for name, posts in split.items()}
    mine = set(computed)
    assert mine and mine < set(split), computed  # the main process computed some parts...
    assert set(split) - mine  # ...and the worker the others (it computed the first)
    assert len(computed) == len(mine)  # none twice


def test_a_run_without_workers_keeps_one_part(lint_corpus: pytest.Pytester) -> None:
    result = lint_corpus.runpytest_subprocess(
        "_posts", "--postgates-jobs=1", "-p", "no:cacheprovider"
    )
    assert "look-ahead" not in result.stdout.str()
    result.assert_outcomes(xpassed=PART_POSTS)  # no markdownlint config: gate 12 advisory
    record = _parts_record(lint_corpus)
    assert record["parts"] == 1
    assert list(record["files"]) == ["markdownlint"]  # type: ignore[call-overload]
    assert record["computed"] == ["markdownlint"]
