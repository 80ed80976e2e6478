"""The opt-in look-ahead (issue 29): with ``jobs`` > 1 a serial run gates later posts in a
process pool and takes each post's scorecards from its future. Off by default (no process
started), off under xdist; the output is the same with and without it; a gate's prints,
warnings, errors, timeouts and ``breakpoint()`` behave as in the main process; workers stop
with the session and never outlive it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import pytest

from pytest_postgates import lookahead
from pytest_postgates.config import Judge, Settings, SettingsError, apply
from pytest_postgates.gates import BY_ID, GATES, SETTINGS_TYPES
from pytest_postgates.gates.base import GateContext
from pytest_postgates.lookahead import PostJob, WorkerSetup, gate_post, workers_for
from pytest_postgates.results import CODE_FINGERPRINT, settings_fingerprint
from tests.helpers import BLOG_FRONT, GATE11_ADOPTED, GROUNDED, blog_repo

FRONT, GOOD = BLOG_FRONT, GROUNDED
# Gate 2 FAIL (an invented symbol), which short-circuits gates 11 and 13.
UNGROUNDED = "We run pytest on Python posts; `renderEverythingTwice` is invented.\n"
# Gate 11 FAIL: no real tool named in the opening.
NO_ENTITY = "This post is about some ideas in general.\n\nIt explains them in plain words.\n"
POSTS = 8


def test_how_many_workers_a_serial_run_starts() -> None:
    assert workers_for(1, cpus=8) == 0  # the default: none
    assert workers_for(3, cpus=2) == 2
    assert workers_for("auto", cpus=2) == 1
    assert workers_for("auto", cpus=1) == 0
    assert workers_for("auto", cpus=64) == lookahead.AUTO_MAX_WORKERS


def test_the_jobs_setting(tmp_path: Path) -> None:
    settings = Settings.declare(SETTINGS_TYPES)
    assert settings.jobs == 1  # no process unless asked for
    assert apply(settings, {"jobs": "3"}, tmp_path, "t").jobs == 3
    assert apply(settings, {"jobs": 2}, tmp_path, "t").jobs == 2
    assert apply(settings, {"jobs": "AUTO"}, tmp_path, "t").jobs == "auto"
    for bad in (0, "0", "two", True, 1.5):
        with pytest.raises(SettingsError, match="jobs"):
            apply(settings, {"jobs": bad}, tmp_path, "t")
    # Scheduling, not a result: the cache keys of jobs 1 and jobs 4 are the same.
    assert settings_fingerprint(replace(settings, jobs=4)) == settings_fingerprint(settings)


def test_a_workers_first_post_waits_for_the_model_last() -> None:
    """On its first post a worker gates what needs neither the index nor the API model,
    then what needs the index only, then what needs the model (gate 16 among them), each
    group in run order: the main process builds the index in seconds and the model in
    several times that, and the worker waits on each as late as it can."""
    order = sorted(GATES, key=lookahead.first_post_rank)
    assert [spec.id for spec in order] == [1, 6, 12, 11, 4, 3, 9, 10, 13, 14, 7, 2, 15, 16]


@pytest.mark.parametrize("run_all", [False, True])
def test_a_worker_leaves_judge_gates_to_the_main_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_all: bool
) -> None:
    """With a judge configured, gate 4 is not cached: a worker must not call the judge.
    It gates the cached gate after it all the same (with or without --postgates-all): the
    main process uses that result unless gate 4 fails there."""
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
    setup = WorkerSetup(
        parent_pid=os.getppid(),
        fingerprint=CODE_FINGERPRINT,
        settings=settings,
        cache_dir=tmp_path / "cache",
        cache_results=True,
        run_dir=tmp_path,
        roots=(tmp_path,),
        batch_posts=(post,),
        batch_selected=None,
        batch_parts=1,
    )
    gated = gate_post(
        setup, PostJob(post, post.name, post.stem, (4, 13), None), lookahead.worker_context(setup)
    )
    assert set(gated.cards) == {13} and gated.handed_back_at is None
    from pytest_postgates.runner import PostRun

    main_context = GateContext.create(settings, tmp_path / "cache", cache_results=True)
    run = PostRun(post, post.name, post.stem, main_context, selected=[BY_ID[4], BY_ID[13]])
    key = run.cache_key(BY_ID[13])
    assert key is not None  # stored by the worker, as the main process would have
    assert main_context.results is not None
    assert main_context.results.load(key, 13, "call_graph_claims") == gated.cards[13].card


# ---------------------------------------------------------------------- plugin behaviour
# Holds the main process at its first item until the posts handed to the workers are
# gated (so that the workers' work is what the main process uses), and records what the
# run started: the workers' pids, the run folder, every multiprocessing start.
HOLD_CONFTEST = """
import json, multiprocessing.process, os, time
import pytest
from pytest_postgates.plugin import LOOKAHEAD_KEY

_held, _pids, _started = [], [], []
_start = multiprocessing.process.BaseProcess.start

def _counted_start(self):
    _started.append(1)
    return _start(self)

multiprocessing.process.BaseProcess.start = _counted_start

@pytest.hookimpl(trylast=True)
def pytest_runtest_setup(item):
    ahead = item.config.stash.get(LOOKAHEAD_KEY, None)
    if ahead is None or _held or not ahead.futures:
        return
    _held.append(item.nodeid)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if all(future.done() for future in ahead.futures.values()):
            break
        time.sleep(0.02)
    _pids.extend(ahead.worker_pids())
    {extra}

def pytest_unconfigure(config):
    ahead = config.stash.get(LOOKAHEAD_KEY, None)
    batches = ahead.context.batches if ahead else None
    record = {{
        "lookahead": ahead is not None,
        "pids": _pids,
        "started": len(_started),
        "children": len(multiprocessing.active_children()),
        # Named, so that a failure says what was left (class, pid).
        "left": [f"{{type(c).__name__}} {{c.pid}}" for c in multiprocessing.active_children()],
        "run_dir": str(batches.run_dir) if batches else None,
    }}
    # One file per process of an xdist run (gw0, gw1; the controller's has no suffix).
    with open(f"lookahead-record{{os.environ.get('PYTEST_XDIST_WORKER', '')}}.json", "w") as out:
        json.dump(record, out)
"""


def _hold(pytester: pytest.Pytester, extra: str = "pass") -> None:
    pytester.makeconftest(HOLD_CONFTEST.format(extra=extra))


# What a gate does in the tests below, patched into gate 13 in every process of the inner
# runs (a sitecustomize module on PYTHONPATH is imported by the workers too), by what the
# post says: print and warn, crash the worker, raise, overrun its budget, stop at a
# breakpoint (whose hook records the process it stopped in).
GATE_HOOKS = """
import multiprocessing, os, time, warnings
import pytest_postgates.gates.call_graph_claims as gate13

_scan = gate13.scan_claims

def scan_claims(post):
    text = post.text
    if "PRINTME" in text:
        print(f"gate 13 read {post.path.name}")
        warnings.warn(f"gate 13 warned on {post.path.name}", UserWarning)
    if "CRASHME" in text and multiprocessing.parent_process() is not None:
        os._exit(3)
    if "BOOMME" in text:
        raise RuntimeError(f"boom in {post.path.name}")
    if "SLEEPME" in text:
        time.sleep(30)
    if "BREAKME" in text:
        breakpoint()
    return _scan(post)

gate13.scan_claims = scan_claims


def record_breakpoint(*args, **kwargs):
    with open(os.environ["BREAKPOINTS_LOG"], "a") as log:
        log.write(f"{os.getpid()}\\n")
"""


@pytest.fixture
def corpus(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """Eight posts in a git repository (gates 2, 11, 13): passing ones, a gate-2 FAIL that
    short-circuits, a gate-11 FAIL, a post with bad input."""
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    monkeypatch.delenv("POSTGATES_JOBS", raising=False)
    monkeypatch.setenv(
        "PYTEST_ADDOPTS",
        f"{GATE11_ADOPTED} --postgates -p no:hypothesispytest -p no:randomly "
        "--postgates-only=2,11,13",
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


def _mark(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, marks: dict[int, str]
) -> None:
    """Install GATE_HOOKS and put a marker word into posts ``marks`` (number -> word);
    the last posts are the ones a worker takes first on this small corpus."""
    hooks = pytester.path / "hooks"
    hooks.mkdir()
    (hooks / "sitecustomize.py").write_text(GATE_HOOKS)
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join(filter(None, [str(hooks), os.environ.get("PYTHONPATH")]))
    )
    for number, word in marks.items():
        post = pytester.path / "_posts" / f"2026-01-0{number + 1}-post-{number}.md"
        post.write_text(post.read_text() + f"\nThe word {word} is here.\n")


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


def _cards(folder: Path, tag: str) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((folder / f"cards-{tag}").iterdir())}


def _reference(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return _run(pytester, "serial", "--postgates-jobs=1", "-o", "cache_dir=.serial-cache", *args)


def test_no_process_is_started_unless_asked_for(corpus: pytest.Pytester) -> None:
    """The default (jobs = 1) starts no process of any kind through multiprocessing and
    has no look-ahead; jobs 2 does (so that the count could tell)."""
    _hold(corpus)
    default = _run(corpus, "default")
    record = _record(corpus)
    assert record["lookahead"] is False and record["started"] == 0 and record["pids"] == []
    assert "look-ahead" not in default.stdout.str()
    _run(corpus, "ahead", "--postgates-jobs=2", "--cache-clear")
    record = _record(corpus)
    assert record["lookahead"] is True and record["started"] >= 1 and record["pids"]
    assert record["children"] == 0, record["left"]  # none left at the end


def test_jobs_2_gives_the_output_of_jobs_1(corpus: pytest.Pytester) -> None:
    _hold(corpus)
    serial = _reference(corpus)
    assert "look-ahead" not in serial.stdout.str()
    ahead = _run(corpus, "ahead", "--postgates-jobs=2")
    gated = [line for line in ahead.outlines if "look-ahead: 1 worker(s) gated" in line]
    assert gated and " gated 0 of" not in gated[0], ahead.stdout.str()
    assert ahead.ret == serial.ret == 1
    assert ahead.parseoutcomes() == serial.parseoutcomes()
    assert _outcome_lines(ahead) == _outcome_lines(serial)
    assert _cards(corpus.path, "ahead") == _cards(corpus.path, "serial")  # byte for byte
    assert _outputs(corpus.path, "ahead") == _outputs(corpus.path, "serial")
    assert _junit_outcomes(corpus.path / "ahead.xml") == _junit_outcomes(corpus.path / "serial.xml")
    record = _record(corpus)
    assert _gone(record["pids"], seconds=1)
    assert not Path(str(record["run_dir"])).exists()  # no lock or log left behind


# Records what pytest captured at each item (stdout, by phase).
CAPTURED = """
def pytest_runtest_logreport(report):
    if report.capstdout:
        with open("captured.txt", "a") as out:
            out.write(f"{report.nodeid} {report.when}: {report.capstdout}")
"""


def test_what_a_gate_prints_and_warns_in_a_worker_is_reported_at_its_item(
    corpus: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Posts 6 and 7 (gated by the worker) print and warn in gate 13: pytest captures the
    output at the gate's item and reports the warnings there, as in a run without
    workers."""
    _mark(corpus, monkeypatch, {6: "PRINTME", 7: "PRINTME"})
    corpus.makeconftest(HOLD_CONFTEST.format(extra="pass") + CAPTURED)
    captured = corpus.path / "captured.txt"
    serial = _reference(corpus)
    printed = captured.read_text()
    captured.unlink()
    ahead = _run(corpus, "ahead", "--postgates-jobs=2")
    assert "look-ahead: 1 worker(s) gated" in ahead.stdout.str()
    assert printed.count(" setup: gate 13 read") == 2, printed  # then in call, teardown
    assert "post-7.md::call_graph_claims setup: gate 13 read 2026-01-08-post-7.md" in printed
    assert captured.read_text() == printed

    def warned(result: pytest.RunResult) -> list[str]:
        return [line for line in result.outlines if "warned on" in line or "::call_" in line]

    assert len([line for line in warned(serial) if "UserWarning: gate 13" in line]) == 2
    assert warned(ahead) == warned(serial)
    assert ahead.parseoutcomes() == serial.parseoutcomes()


def test_a_breakpoint_in_a_worker_stops_in_the_main_process(
    corpus: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A breakpoint() in a gate a worker runs hands the post back: the debugger hook is
    called in the main process, once per post, as in a run without workers."""
    _mark(corpus, monkeypatch, {6: "BREAKME", 7: "BREAKME"})
    log = corpus.path / "breakpoints.log"
    monkeypatch.setenv("BREAKPOINTS_LOG", str(log))
    monkeypatch.setenv("PYTHONBREAKPOINT", "sitecustomize.record_breakpoint")
    corpus.makeconftest(
        HOLD_CONFTEST.format(extra="pass")
        + "\ndef pytest_sessionstart(session):\n"
        + "    open('main.pid', 'w').write(str(os.getpid()))\n"
    )
    ahead = _run(corpus, "ahead", "--postgates-jobs=2")
    assert "look-ahead: 1 worker(s) gated" in ahead.stdout.str()
    main_pid = (corpus.path / "main.pid").read_text()
    assert log.read_text().split() == [main_pid, main_pid]
    serial = _reference(corpus)
    assert _cards(corpus.path, "ahead") == _cards(corpus.path, "serial")
    assert ahead.parseoutcomes() == serial.parseoutcomes()


def test_errors_and_timeouts_in_a_worker_are_reported_on_the_posts_items(
    corpus: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A gate that raises in a worker, and one that overruns gate_timeout there, are the
    ERRORs of the run without workers, on the same items, with the same scorecards."""
    _mark(corpus, monkeypatch, {6: "BOOMME", 7: "SLEEPME"})
    corpus.makepyprojecttoml("[tool.postgates]\ngate_timeout = 1\n")
    _hold(corpus)
    ahead = _run(corpus, "ahead", "--postgates-jobs=2")
    assert "look-ahead: 1 worker(s) gated" in ahead.stdout.str()
    errors = sorted(line for line in ahead.outlines if line.startswith("ERROR _posts"))
    assert len(errors) == 5, ahead.stdout.str()  # the bad post's 3, the two gate-13 ERRORs
    assert any("post-6.md::call_graph_claims" in line for line in errors)
    assert any("post-7.md::call_graph_claims" in line for line in errors)
    ahead.stdout.fnmatch_lines(["*RuntimeError: boom in 2026-01-07-post-6.md*"])
    ahead.stdout.fnmatch_lines(["*took longer than gate_timeout (1 s)*"])
    serial = _reference(corpus)
    assert _outcome_lines(ahead) == _outcome_lines(serial)
    assert _cards(corpus.path, "ahead") == _cards(corpus.path, "serial")


def test_a_crashed_worker_leaves_its_posts_to_the_main_process(
    corpus: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker that dies on a post (not a gate's error: the process is gone): one
    LookAheadWarning, and the main process gates the posts left; the output is still the
    run's without workers."""
    _mark(corpus, monkeypatch, {7: "CRASHME"})
    _hold(corpus)
    crashed = _run(corpus, "crashed", "--postgates-jobs=2")
    crashed.stdout.fnmatch_lines(["*LookAheadWarning: postgates: look-ahead worker failed*"])
    reference = _reference(corpus)
    # One LookAheadWarning; the count of warnings may also hold the environment's own
    # (pytest's assertion-rewrite warning under a non-editable install), in both runs.
    failed = [line for line in crashed.outlines if "LookAheadWarning: postgates:" in line]
    assert len(failed) == 1
    outcomes, expected = crashed.parseoutcomes(), reference.parseoutcomes()
    assert outcomes.pop("warnings") == expected.pop("warnings", 0) + 1
    assert outcomes == expected
    assert _outcome_lines(crashed) == _outcome_lines(reference)
    assert _outputs(corpus.path, "crashed") == _outputs(corpus.path, "serial")


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
    """-x stops the session while workers may be gating: they are stopped and waited for,
    the run's scratch folder is gone, and the next run gives the serial run's output."""
    _hold(corpus)
    stopped = _run(corpus, "x", "--postgates-jobs=2", "-x", "--postgates-all")
    assert stopped.ret == 1
    assert "stopping after 1 failures" in stopped.stdout.str()
    record = _record(corpus)
    assert record["pids"] and _gone(record["pids"], seconds=1)
    assert not Path(str(record["run_dir"])).exists()
    after = _run(corpus, "after", "--postgates-all", "--postgates-jobs=2")
    reference = _reference(corpus, "--postgates-all")
    assert after.parseoutcomes() == reference.parseoutcomes()
    assert _outputs(corpus.path, "after") == _outputs(corpus.path, "serial")


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
    reference = _reference(corpus)
    assert after.parseoutcomes() == reference.parseoutcomes()
    assert _outputs(corpus.path, "after") == _outputs(corpus.path, "serial")


def test_a_second_run_starts_no_worker(corpus: pytest.Pytester) -> None:
    _hold(corpus)
    first = _run(corpus, "first", "--postgates-jobs=2")
    assert _record(corpus)["pids"]
    second = _run(corpus, "second", "--postgates-jobs=2")
    record = _record(corpus)
    assert record["pids"] == [] and record["started"] == 0
    assert "look-ahead" not in second.stdout.str()
    assert second.parseoutcomes() == first.parseoutcomes()


def test_one_changed_post_among_cached_ones_starts_no_worker(corpus: pytest.Pytester) -> None:
    """An edit to one post: the main process gates it, but the posts a worker would take
    are cached, so no worker starts (it would only read cached results twice)."""
    _hold(corpus)
    _run(corpus, "first", "--postgates-jobs=2")
    assert _record(corpus)["pids"]
    first = corpus.path / "_posts" / "2026-01-01-post-0.md"
    first.write_text(first.read_text() + "\nOne more line about pytest.\n")
    edited = _run(corpus, "edited", "--postgates-jobs=2")
    assert _record(corpus)["started"] == 0
    reference = _reference(corpus)
    assert _outputs(corpus.path, "edited") == _outputs(corpus.path, "serial")
    assert edited.parseoutcomes() == reference.parseoutcomes()


# In a worker only: an exit handler registered before the worker's own, and an object
# that is freed only when the interpreter is torn down (it writes when it is).
EXIT_HOOKS = """
import atexit, os, sys

if "--multiprocessing-fork" in sys.orig_argv:  # a spawned worker, from its start
    def _log(line):
        with open(os.environ["EXIT_LOG"], "a") as log:
            log.write(f"{line} {os.getpid()}\\n")

    class _FreedAtTeardown:
        # What it uses is bound now: at teardown the module's names may be gone.
        def __del__(self, _open=open, _pid=os.getpid(), _path=os.environ["EXIT_LOG"]):
            with _open(_path, "a") as log:
                log.write(f"teardown {_pid}\\n")

    KEPT = _FreedAtTeardown()
    atexit.register(_log, "atexit")
"""


def test_a_worker_ends_without_tearing_down_its_interpreter(
    corpus: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At the session's end the main process waits for every worker; freeing a worker's
    index, model and modules one by one took a second or more of that wait. A worker's
    exit handlers still run (mermaid.js engines stopped, a profiler's dump), then it ends."""
    hooks = corpus.path / "hooks"
    hooks.mkdir()
    (hooks / "sitecustomize.py").write_text(EXIT_HOOKS)
    log = corpus.path / "exit.log"
    monkeypatch.setenv("EXIT_LOG", str(log))
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join(filter(None, [str(hooks), os.environ.get("PYTHONPATH")]))
    )
    _hold(corpus)
    ahead = _run(corpus, "ahead", "--postgates-jobs=2")
    assert "look-ahead: 1 worker(s) gated" in ahead.stdout.str()
    pids = _record(corpus)["pids"]
    assert isinstance(pids, list) and pids
    assert _gone(pids)
    lines = log.read_text().splitlines()
    assert sorted(lines) == sorted(f"atexit {pid}" for pid in pids)


def test_the_look_ahead_is_off_under_xdist(corpus: pytest.Pytester) -> None:
    """-n 2 with jobs 2: xdist is the engine; no xdist worker starts a look-ahead, the run
    says that jobs is ignored, and the output is the serial run's."""
    pytest.importorskip("xdist")
    _hold(corpus)
    spread = _run(corpus, "spread", "-n", "2", "--postgates-jobs=2")
    assert "look-ahead:" not in spread.stdout.str()
    spread.stdout.fnmatch_lines(["postgates: jobs = 2 ignored under xdist (-n)*"])
    for worker in ("gw0", "gw1"):  # each xdist worker ran items without a look-ahead
        record = json.loads((corpus.path / f"lookahead-record{worker}.json").read_text())
        assert record["lookahead"] is False and record["started"] == 0
    reference = _reference(corpus)
    assert spread.parseoutcomes() == reference.parseoutcomes()
    assert _outputs(corpus.path, "spread") == _outputs(corpus.path, "serial")


def test_ctrl_c_stops_the_workers(corpus: pytest.Pytester) -> None:
    """Ctrl-C in the main process (workers ignore SIGINT): the run ends as interrupted and
    no worker outlives it."""
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
