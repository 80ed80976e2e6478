"""pytest-xdist: ``-n 2`` gives the outcomes, scorecards, overall files and JUnit properties
of a serial run, with each post parsed exactly once."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any
from unittest import mock

import pytest

if TYPE_CHECKING:
    from tests.conftest import Blog

# Wraps the functions the plugin looks up at call time and logs "<kind> <file> <process>".
# runner.py does ``from pytest_postgates.post import parse_post``, so the name to patch is
# ``pytest_postgates.runner.parse_post``; likewise for the scorecard and overall writers.
SPY_CONFTEST = """
import os
from pathlib import Path

import pytest_postgates.nodes as nodes
import pytest_postgates.runner as runner
import pytest_postgates.session as session

LOG = Path(__file__).parent / "calls.log"


def _log(kind, path):
    process = os.environ.get("PYTEST_XDIST_WORKER", "controller")
    with LOG.open("a", encoding="utf-8") as stream:
        stream.write(f"{kind} {Path(path).name} {process}\\n")


def _spy(kind, function):
    def wrapper(path, *args, **kwargs):
        _log(kind, path)
        return function(path, *args, **kwargs)

    return wrapper


runner.parse_post = _spy("parse", runner.parse_post)
nodes.write_json = _spy("card", nodes.write_json)
session.write_atomic = _spy("overall", session.write_atomic)
"""

POSTS = ("good-a", "good-b", "no-entity", "claims", "nul-byte")


def write_corpus(blog: Blog) -> None:
    # The seeds' short-circuit: with gates 11 and 13 pinned there is no paid gate for the
    # default ("judges") to skip, and a short-circuit must be decided under xdist exactly
    # as in a serial run (the post's gates on one worker).
    blog.pyproject('short_circuit = "all"\n')
    blog.post("good-a.md")
    blog.post("good-b.md")
    blog.post("no-entity.md", blog.NO_ENTITY)
    blog.post("claims.md", blog.CLAIMS)
    blog.raw("_posts/nul-byte.md", b"---\ntitle: T\n---\nPython\x00 here.\n")


def junit_properties(path: Path) -> dict[str, dict[str, str]]:
    root = ET.parse(path).getroot()
    return {
        f"{case.get('classname')}::{case.get('name')}": {
            prop.get("name", ""): prop.get("value", "") for prop in case.iter("property")
        }
        for case in root.iter("testcase")
    }


def suite_properties(path: Path) -> dict[str, str]:
    suite = ET.parse(path).getroot().find("testsuite")
    assert suite is not None
    return {p.get("name", ""): p.get("value", "") for p in suite.findall("properties/property")}


def scorecard_bytes(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.glob("*.json"))}


# The two runs of ``serial_then_parallel``, made once per process: results, the serial run's
# scorecards, and a copy of the folder they left.
_RUNS: dict[str, tuple[pytest.RunResult, pytest.RunResult, dict[str, bytes], Path]] = {}


@pytest.fixture
def serial_then_parallel(
    pytester: pytest.Pytester,
    blog: Blog,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[pytest.RunResult, pytest.RunResult, dict[str, bytes]]:
    """One serial in-process run (before the spy exists), then ``-n 2`` in a subprocess.

    Returns both results and the serial run's scorecards; the parallel run's are on disk.
    The four tests below only read what the same two runs left, so the runs are made once
    per process and their folder is copied into each later test's pytester folder (a
    module-scoped fixture cannot use pytester).
    """
    if "runs" in _RUNS:
        serial, parallel, serial_cards, kept = _RUNS["runs"]
        shutil.copytree(kept, pytester.path, symlinks=True, dirs_exist_ok=True)
        return serial, parallel, serial_cards
    # When this suite itself runs under xdist, the inner controller must not inherit the
    # outer worker's identity (the spy names processes by PYTEST_XDIST_WORKER).
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    write_corpus(blog)
    common = ("-rs", "-o", "junit_family=xunit1")
    serial = pytester.runpytest(
        *common, "--junitxml=serial.xml", "--postgates-feedback=serial-feedback.txt"
    )
    cards = pytester.path / ".postgates" / "scorecards"
    serial_cards = scorecard_bytes(cards)
    for path in cards.iterdir():
        path.unlink()
    pytester.makeconftest(SPY_CONFTEST)
    parallel = pytester.runpytest_subprocess(
        "-n", "2", *common, "--junitxml=parallel.xml", "--postgates-feedback=parallel-feedback.txt"
    )
    kept = tmp_path_factory.mktemp("serial-then-parallel")
    shutil.copytree(pytester.path, kept, symlinks=True, dirs_exist_ok=True)
    _RUNS["runs"] = (serial, parallel, serial_cards, kept)
    return serial, parallel, serial_cards


def test_same_outcomes_as_serial(
    serial_then_parallel: tuple[pytest.RunResult, pytest.RunResult, dict[str, bytes]],
) -> None:
    """Pass, fail, error, skip, xfail and xpass counts are those of the serial run."""
    serial, parallel, _ = serial_then_parallel
    expected = {"passed": 3, "failed": 1, "errors": 1, "skipped": 2, "xfailed": 1, "xpassed": 2}
    serial.assert_outcomes(**expected)
    parallel.assert_outcomes(**expected)
    parallel.stdout.fnmatch_lines(["*2 workers [[]10 items[]]*"])
    for result in (serial, parallel):
        result.stdout.fnmatch_lines(
            [
                "SKIPPED [[]1[]] _posts/no-entity.md:1: short-circuited at gate 11",
                "SKIPPED [[]1[]] _posts/nul-byte.md:1: short-circuited at gate 11",
            ],
            consecutive=False,
        )


def test_each_post_parsed_once_and_each_file_written_once(
    pytester: pytest.Pytester,
    serial_then_parallel: tuple[pytest.RunResult, pytest.RunResult, dict[str, bytes]],
) -> None:
    """Across both workers each post is parsed once, each gate scorecard written once, and
    each overall file written once, by the controller."""
    calls = [line.split() for line in (pytester.path / "calls.log").read_text().splitlines()]
    parses = Counter(name for kind, name, _ in calls if kind == "parse")
    assert parses == Counter({f"{post}.md": 1 for post in POSTS})
    parse_processes = {process for kind, _, process in calls if kind == "parse"}
    assert parse_processes <= {"gw0", "gw1"}
    cards = Counter(name for kind, name, _ in calls if kind == "card")
    assert sorted(cards.values()) == [1] * 10
    overall = [(name, process) for kind, name, process in calls if kind == "overall"]
    assert sorted(overall) == sorted(
        [(f"{post}-overall.json", "controller") for post in POSTS]
        + [("parallel-feedback.txt", "controller")]
    )


def test_overall_files_and_scorecards_match_serial(
    pytester: pytest.Pytester,
    serial_then_parallel: tuple[pytest.RunResult, pytest.RunResult, dict[str, bytes]],
) -> None:
    """Every scorecard, overall files included (each listing both gates), is byte-identical
    to the serial run's; so is the retry feedback."""
    _, _, serial_cards = serial_then_parallel
    parallel_cards = scorecard_bytes(pytester.path / ".postgates" / "scorecards")
    assert len(parallel_cards) == 3 * len(POSTS)
    assert parallel_cards == serial_cards
    overall = parallel_cards["no-entity-overall.json"].decode()
    assert '"short_circuited_at": 11' in overall
    assert '"name": "narrative_opening"' in overall
    assert '"name": "call_graph_claims"' in overall
    serial_feedback = (pytester.path / "serial-feedback.txt").read_text("utf-8")
    assert "# _posts/no-entity.md" in serial_feedback
    assert (pytester.path / "parallel-feedback.txt").read_text("utf-8") == serial_feedback


def test_junit_properties_survive_xdist(
    pytester: pytest.Pytester,
    serial_then_parallel: tuple[pytest.RunResult, pytest.RunResult, dict[str, bytes]],
) -> None:
    """Workers send gate_id, verdict and score to the controller's JUnit file unchanged, and
    the controller lists every item in the testsuite's properties."""
    serial = junit_properties(pytester.path / "serial.xml")
    parallel = junit_properties(pytester.path / "parallel.xml")
    assert len(parallel) == 10
    assert parallel == serial
    assert parallel["_posts.claims.md::call_graph_claims"] == {
        "gate_id": "13",
        "verdict": "FAIL",
        "score": "7",
    }
    assert parallel["_posts.nul-byte.md::narrative_opening"]["verdict"] == "ERROR"
    # The testsuite's properties (every junit_family) are written by the controller alone.
    serial_suite = suite_properties(pytester.path / "serial.xml")
    parallel_suite = suite_properties(pytester.path / "parallel.xml")
    assert len(parallel_suite) == 10 and parallel_suite == serial_suite
    assert parallel_suite["_posts/claims.md::call_graph_claims"].startswith(
        "FAIL (gate 13, advisory, score 7)"
    )


class FakeNode:
    """What the scheduler sees of an xdist worker: the indexes it was sent."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.gateway = SimpleNamespace(id=name)
        self.sent: list[int] = []
        self.shutting_down = False

    def send_runtest_some(self, indexes: list[int]) -> None:
        self.sent.extend(indexes)

    def shutdown(self) -> None:
        self.shutting_down = True


def _scheduler(posts: int, gates: int = 8) -> tuple[Any, list[str], list[FakeNode]]:
    from pytest_postgates.xdist import PostScopeScheduling

    config = SimpleNamespace(
        option=SimpleNamespace(loadscopereorder=False, tx=["popen"] * 2, numprocesses=2),
        getvalue=lambda name: None,
    )
    with mock.patch("xdist.scheduler.loadscope.parse_tx_spec_config", return_value=["popen"] * 2):
        scheduler = PostScopeScheduling(config)  # type: ignore[arg-type]
    collection = [f"_posts/p{p:04d}.md::gate{g}" for p in range(posts) for g in range(gates)]
    nodes = [FakeNode("gw0"), FakeNode("gw1")]
    for node in nodes:
        scheduler.add_node(node)  # type: ignore[arg-type]
        scheduler.add_node_collection(node, collection)  # type: ignore[arg-type]
    scheduler.schedule()
    return scheduler, collection, nodes


def test_scheduler_keeps_posts_whole_and_forgets_finished_ones() -> None:
    scheduler, collection, nodes = _scheduler(posts=50)
    done: set[int] = set()
    while not scheduler.tests_finished:
        progressed = False
        for node in nodes:
            pending = [index for index in node.sent if index not in done]
            if pending:
                done.add(pending[0])
                scheduler.mark_test_complete(node, pending[0])
                progressed = True
                # Finished posts leave the books: only the in-flight ones are kept.
                assert len(scheduler.assigned_work[node]) <= 4
        assert progressed
    sent = [sorted(node.sent) for node in nodes]
    assert sorted(sent[0] + sent[1]) == list(range(len(collection)))
    for node_sent in sent:
        posts = {collection[i].split("::")[0] for i in node_sent}
        # Every gate of a post went to the same worker.
        assert len(node_sent) == 8 * len(posts)
    assert all(node.shutting_down for node in nodes)


def test_scheduler_names_the_item_a_crashed_worker_was_running() -> None:
    scheduler, collection, nodes = _scheduler(posts=10)
    first = nodes[0].sent[0]
    scheduler.mark_test_complete(nodes[0], first)
    crashed = scheduler.remove_node(nodes[0])  # type: ignore[arg-type]
    assert crashed == collection[nodes[0].sent[1]]
    # The rest of the crashed post goes back to the front of the queue, without the item
    # that crashed (xdist reports it as failed; running it again would crash again).
    scope = crashed.split("::")[0]
    assert next(iter(scheduler.workqueue)) == scope
    unit = scheduler.workqueue[scope]
    assert unit[crashed] is True
    assert sum(not done for done in unit.values()) == 6


CRASH_CONFTEST = """
import os
import pytest_postgates.runner as runner

_original = runner.PostRun._evaluate


def crashing(self, spec):
    if self.path.name == "crash.md" and spec.name == "call_graph_claims":
        os._exit(3)  # a native crash of the worker, mid-post
    return _original(self, spec)


runner.PostRun._evaluate = crashing
"""


def test_a_crashed_worker_fails_its_item_and_the_rest_still_runs(
    pytester: pytest.Pytester, blog: Blog, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    for name in ("a", "b", "c", "d", "e", "f"):
        blog.post(f"{name}.md")
    blog.post("crash.md")
    pytester.makeconftest(CRASH_CONFTEST)
    result = pytester.runpytest_subprocess("-n", "2", "-p", "no:randomly")
    result.stdout.fnmatch_lines(["*crash.md::call_graph_claims*"])
    # The crashed item fails and is not run again; its post's earlier gate and every
    # other post still ran (on the surviving worker or the replacement).
    result.assert_outcomes(passed=7, xpassed=6, failed=1)
    result.stdout.fnmatch_lines(
        ["*worker 'gw*' crashed while running*crash.md::call_graph_claims*"]
    )


# Logs each part of gate 1's and gate 12's run-wide batches as it is computed
# ("start|end <batch> <process> <posts>"); the first part computed waits until another
# process has started one, which it can only do by computing a part while it waits.
PARTS_SPY = """
import os, time
from pathlib import Path

from pytest_postgates.gates import blog_quality
from pytest_postgates.tools import lint as lint_package
from pytest_postgates.tools.lint import batch as lint

LOG = Path(__file__).parent / "parts.log"
PROCESS = os.environ.get("PYTEST_XDIST_WORKER", "controller")


def _log(event, kind, posts):
    names = ",".join(sorted(Path(p).stem for p in posts))
    with LOG.open("a", encoding="utf-8") as stream:
        stream.write(f"{event} {kind} {PROCESS} {names}\\n")


def _others_started():
    lines = LOG.read_text().splitlines() if LOG.exists() else []
    return any(line.split()[2] != PROCESS for line in lines if line.startswith("start"))


_parse_corpus = blog_quality._parse_corpus


def parse_corpus(posts, parser):
    first = not LOG.exists()
    _log("start", "mermaid", posts)
    deadline = time.monotonic() + 60
    while first and not _others_started() and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        return _parse_corpus(posts, parser)
    finally:
        _log("end", "mermaid", posts)


_lint_batch = lint.lint_batch


def lint_batch(paths, *args, **kwargs):
    _log("start", "lint", paths)
    return _lint_batch(paths, *args, **kwargs)


blog_quality._parse_corpus = parse_corpus
lint.lint_batch = lint_package.lint_batch = lint_batch
"""

DIAGRAM_POST = (
    "This post shows how pytest runs a Python plugin over Markdown files.\n\n"
    "```mermaid\nflowchart LR\n  A --> B{n}\n```\n"
)


def test_workers_compute_the_run_wide_batches_in_parts_side_by_side(blog: Blog) -> None:
    """-n 2 splits gate 1's diagram batch and gate 12's lint batch into parts: a worker
    that would wait on the other's lock computes a part nobody started, every post is in
    exactly one part, and both workers compute parts."""
    count = 36  # three parts of 12 posts
    for n in range(count):
        blog.post(f"p{n:02d}.md", DIAGRAM_POST.replace("{n}", str(n)))
    blog.pyproject('lint_backend = "rumdl"\nbody_line_floor = 1\n')
    blog.pytester.makeconftest(PARTS_SPY)
    result = blog.pytester.runpytest_subprocess(
        "-n", "2", "--postgates-only=1,12", "--postgates-all", "_posts"
    )
    # No markdownlint configuration in the project: gate 12 is advisory (xpassed).
    result.assert_outcomes(passed=count, xpassed=count)
    events = [line.split() for line in (blog.path / "parts.log").read_text().splitlines()]
    everything = sorted(f"p{n:02d}" for n in range(count))
    for kind in ("mermaid", "lint"):
        parts = [
            posts.split(",") for event, k, _, posts in events if event == "start" and k == kind
        ]
        assert sorted(name for part in parts for name in part) == everything, kind
        assert len(parts) == 3, kind
    starts = [
        (process, index)
        for index, (event, kind, process, _) in enumerate(events)
        if event == "start" and kind == "mermaid"
    ]
    first_process, _ = starts[0]
    first_end = next(
        index
        for index, (event, kind, process, _) in enumerate(events)
        if event == "end" and kind == "mermaid" and process == first_process
    )
    # The other worker started a part while the first one was still computing its own.
    assert any(process != first_process and index < first_end for process, index in starts), events


ORDER_SPY = """
import os
from pathlib import Path

from pytest_postgates.evidence import cache

LOG = Path(__file__).parent / "order.log"


def _log(text):
    with LOG.open("a", encoding="utf-8") as stream:
        stream.write(f"{os.environ.get('PYTEST_XDIST_WORKER', 'controller')} {text}\\n")


_index_for = cache.EvidenceCache.index_for


def index_for(self, post_path):
    _log("index-asked")
    try:
        return _index_for(self, post_path)
    finally:
        _log("index-got")


cache.EvidenceCache.index_for = index_for


def pytest_runtest_setup(item):
    _log("item")
"""


def test_the_second_worker_builds_the_index_before_its_first_item(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cold -n 2 run: gw1 has the repository index (built, or loaded once gw0's gate 2
    built it) before it runs any item; gw0 starts on its first post. A cached rerun needs
    no index and loads none."""
    from tests.helpers import GATE11_ADOPTED, git

    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    monkeypatch.setenv(
        "PYTEST_ADDOPTS",
        f"{GATE11_ADOPTED} --postgates -p no:hypothesispytest --postgates-only=2,11,13",
    )
    (pytester.path / "src").mkdir()
    (pytester.path / "src" / "app.py").write_text("def render():\n    pass\n")
    posts = pytester.path / "_posts"
    posts.mkdir()
    for i in range(4):
        (posts / f"2026-01-0{i + 1}-post.md").write_text(
            f"---\ntitle: T\ndate: 2026-01-0{i + 1}\n---\nWe run pytest; `render` is real. {i}\n"
        )
    git(pytester.path, "init", "-q")
    git(pytester.path, "add", "-A")
    git(pytester.path, "commit", "-qm", "blog")
    pytester.makeconftest(ORDER_SPY)
    log = pytester.path / "order.log"

    def events() -> dict[str, list[str]]:
        by_process: dict[str, list[str]] = {}
        for line in log.read_text().splitlines() if log.exists() else []:
            process, event = line.split()
            by_process.setdefault(process, []).append(event)
        log.unlink(missing_ok=True)
        return by_process

    pytester.runpytest_subprocess("-n", "2").assert_outcomes(passed=8, xpassed=4)
    cold = events()
    assert cold["gw1"][:2] == ["index-asked", "index-got"], cold
    assert "item" in cold["gw1"] and "item" in cold["gw0"], cold
    assert "controller" not in cold
    pytester.runpytest_subprocess("-n", "2").assert_outcomes(passed=8, xpassed=4)
    second = events()
    assert all(not event.startswith("index") for seen in second.values() for event in seen), second


# The controller's outputs and xdist's wait for its workers to exit, side by side: the
# patched teardown waits (up to 30 s) for a first output file to be written, and the
# patched writer waits for the teardown to have begun, so run one after the other each
# wait times out, and the log says so. The feedback file's write fails (a full disk).
OUTPUTS_SPY = """
import errno, os, threading
from pathlib import Path

import pytest_postgates.session as session
from xdist import workermanage

LOG = Path(__file__).parent / "outputs.log"
TEARDOWN_BEGUN = threading.Event()
WRITTEN = threading.Event()


def _log(line):
    with LOG.open("a", encoding="utf-8") as stream:
        stream.write(line + "\\n")


_write_atomic = session.write_atomic


def write_atomic(path, text):
    begun = TEARDOWN_BEGUN.wait(30)
    _log(f"write {Path(path).name} {threading.current_thread().name} teardown-begun={begun}")
    try:
        if Path(path).name == "feedback.txt":
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return _write_atomic(path, text)
    finally:
        WRITTEN.set()


_teardown_nodes = workermanage.NodeManager.teardown_nodes


def teardown_nodes(self):
    TEARDOWN_BEGUN.set()
    _log(f"teardown written-meanwhile={WRITTEN.wait(30)}")
    return _teardown_nodes(self)


session.write_atomic = write_atomic
workermanage.NodeManager.teardown_nodes = teardown_nodes
"""


def test_outputs_are_written_while_xdist_waits_for_its_workers_to_exit(
    pytester: pytest.Pytester, blog: Blog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under -n 2 the controller writes the overall files and reports while it waits for
    its workers to exit (the run's tail after the last item), each once, and a write that
    fails still fails the run with its reason."""
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    blog.post("good-a.md")
    blog.post("good-b.md")
    pytester.makeconftest(OUTPUTS_SPY)
    result = pytester.runpytest_subprocess(
        "-n", "2", "-p", "no:randomly", "--postgates-feedback=feedback.txt"
    )
    log = (pytester.path / "outputs.log").read_text().splitlines()
    assert "teardown written-meanwhile=True" in log
    writes = sorted(line for line in log if line.startswith("write "))
    assert writes == [
        "write feedback.txt postgates-outputs teardown-begun=True",
        "write good-a-overall.json postgates-outputs teardown-begun=True",
        "write good-b-overall.json postgates-outputs teardown-begun=True",
    ]
    assert (pytester.path / ".postgates" / "scorecards" / "good-a-overall.json").is_file()
    result.stdout.fnmatch_lines(["*postgates: cannot write feedback.txt: No space left on device*"])
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.assert_outcomes(passed=2, xpassed=2)
