"""Look-ahead workers: spare CPUs gate the posts a serial run has not reached yet.

A serial ``pytest _posts/`` runs one item after another on one core, although the gate work
of a later post does not depend on an earlier one. As pytest-mypy runs its tool once and
fans the result out to items, and as a compiler driver keeps spare cores busy, the main
process starts look-ahead workers when it meets uncached gate work: each worker gates posts
a little ahead of the main process and stores their results in the result cache (the SQLite
database incremental runs use), so that when the main process reaches those posts every
gate is a cache hit and it only writes the scorecards. Nothing else crosses: a worker
writes no scorecard and reports nothing, and the main process still decides, writes and
reports every item, so the output is the same with and without workers.

Claims. One :class:`ClaimTable` per run (a small file in the run's scratch folder, mapped
in memory and changed under ``flock``) holds one entry per selected post: free, the main
process's, a worker's (gating now), done, or left (a worker stopped on it). The main
process claims each post as it reaches it; a worker claims the first free post at least
:data:`LEAD_POSTS` beyond the furthest one the main process reached (under xdist, where
several main processes move through the list, the last free post). So the main process's
per-item work for the worker's posts (cached results, scorecards, pytest's own) overlaps
the worker's gating instead of following it, the posts the main process gates itself are
those the worker did not get to, and the main process waits only when it reaches the one
post a worker is gating at that moment. The run-wide batches are split into parts once
workers start (batch.py), so neither process waits for the other's whole batch. A worker
holds an ``flock`` on its own file for as long as it
lives, so a waiting process tells a dead worker (crashed, killed) from a slow one, takes
the post back and gates it itself, with a warning.

What a worker gates: only what the result cache can carry back. A gate whose result is not
cached (the judge gates with a judge configured, gate 6 online, gate 1 with audit commands,
hhem with its scorer) is left to the main process; the cached gates after it are gated all
the same (the main process reads them unless that gate fails and short-circuits them: a
spare CPU's work lost on a failing post, against every later gate of an online run left to
the main process). A worker stops on a post at a hard gate's FAIL or ERROR it computed
(the main process short-circuits the rest itself). An ERROR is never cached, so a worker's
ERROR is decided again by the main process, which reports it: a worker can never turn an
item into a PASS.

When workers run: ``jobs`` (``--postgates-jobs``, ``POSTGATES_JOBS``) is the number of
processes gating posts; ``auto`` is the CPUs this process may use (``sched_getaffinity``)
minus the main process, at most :data:`AUTO_MAX_WORKERS`; 1 turns workers off. They start
before the first item when the first and the last selected post both miss the cache (a
cold run), or once the main process has computed a result the cache keeps while the last
two unreached posts miss too; a run whose results are all cached starts none, and a worker
that finds three posts in a row cached stops. They are off
without the result cache (it is their only channel back), on platforms without ``fcntl``,
with fewer than two selected posts, and under xdist with ``auto`` unless the CPUs exceed
the xdist workers (each of which already uses one). Workers are fresh interpreters
(``python -m pytest_postgates.lookahead``), not forks: no thread or open database of the
pytest process is copied into them. They stop with the session (``-x``, ``--maxfail``,
Ctrl-C): told to, then terminated, then killed, and always waited for; on Linux a worker
also dies with its parent.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import subprocess
import sys
import time
import traceback
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from pytest_postgates.batch import PARTS_PER_WORKER, RunBatches
from pytest_postgates.claims import (  # the table's API, as tests and tools know it
    DONE,
    FREE,
    LEAD_POSTS,
    LEFT,
    MAIN,
    WORKER_BASE,
    ClaimTable,
    alive_path,
    stop_path,
    worker_alive,
)
from pytest_postgates.config import Settings
from pytest_postgates.fileio import set_waiting_work
from pytest_postgates.gates import BY_ID, POSITION
from pytest_postgates.gates.base import GateContext
from pytest_postgates.post import InputProblem
from pytest_postgates.results import CODE_FINGERPRINT
from pytest_postgates.runner import PostRun

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no look-ahead
    fcntl = None  # type: ignore[assignment]

# With jobs = auto, at most this many workers: each imports the plugin and loads the
# repository index (about 1.3 s of CPU and the index's memory) before it gates a post.
AUTO_MAX_WORKERS = 4

# A worker that finds this many posts in a row fully cached stops: reading cached results
# twice (once here, once in the main process) only costs CPU.
CACHED_POSTS_BEFORE_STOP = 3

# How often a waiting main process looks at a claim (seconds, growing to the second value).
_POLL = (0.001, 0.02)


class LookAheadWarning(pytest.PytestWarning):
    """A look-ahead worker stopped early; the main process gated its posts itself."""


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity mask, not the machine's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - macOS, Windows
        return os.cpu_count() or 1


def workers_for(jobs: int | str, cpus: int, xdist_workers: int | None, worker_index: int) -> int:
    """How many look-ahead workers one process starts: ``jobs`` processes gate posts, the
    process itself among them. Under xdist, ``auto`` gives a worker only to as many xdist
    workers as there are CPUs beyond them."""
    if jobs == "auto":
        if xdist_workers:
            return 1 if worker_index < cpus - xdist_workers else 0
        return max(0, min(cpus - 1, AUTO_MAX_WORKERS))
    assert isinstance(jobs, int)
    return jobs - 1


@dataclass(frozen=True)
class PostJob:
    """One selected post as the main process will gate it."""

    path: Path
    display: str
    stem: str
    gate_ids: tuple[int, ...]  # the post's selected gates, in run order
    refusal: InputProblem | None


@dataclass(frozen=True)
class Job:
    """Everything a worker needs, handed over in a file of the run's scratch folder."""

    slot: int
    parent_pid: int
    fingerprint: str
    settings: Settings
    cache_dir: Path
    run_dir: Path
    roots: tuple[Path, ...]
    batch_posts: tuple[Path, ...]
    batch_selected: dict[str, tuple[Path, ...]] | None
    table: Path
    posts: tuple[PostJob, ...]
    # The run's split of its batches into parts (batch.py): the parts of every process of
    # the run must be the same, so the worker splits as the main process does.
    batch_parts: int = 1
    batch_counts: dict[str, int] = field(default_factory=dict)
    # Which posts the worker claims: "ahead" of the main process (a serial run), or from
    # the "end" (under xdist, where several main processes move through the list).
    schedule: str = "end"


# ---------------------------------------------------------------------- main process side
class LookAhead:
    """The main process's side: claims posts as it reaches them, starts workers at the
    first cache miss, waits for a post a worker is gating, stops workers with the session."""

    def __init__(
        self,
        state: Any,
        posts: list[tuple[Any, PostJob]],
        wanted: int,
        invocation_dir: Path,
        under_xdist: bool = False,
    ) -> None:
        self.state = state
        self.under_xdist = under_xdist
        self.context: GateContext = state.context
        run_dir = self.context.batches.run_dir
        assert run_dir is not None
        self.run_dir: Path = run_dir
        self.posts = [job for _, job in posts]
        self.runs = [run for run, _ in posts]
        self.index = {job.path: number for number, job in enumerate(self.posts)}
        self.wanted = wanted
        self.invocation_dir = invocation_dir
        self.table = ClaimTable(self.run_dir / "lookahead.claims", len(self.posts))
        self.reached: set[int] = set()
        self.processes: list[tuple[int, subprocess.Popen[bytes]]] = []
        self.started = False
        self._probed_at = 0  # results.stored when the main process last probed
        self.waited = 0.0
        self.waits = 0
        self.taken_back: list[str] = []
        # Results the main process stored for posts a worker had finished: work done twice
        # (a gate the cache keeps, which the worker should have stored). Counted per item.
        self.gated_twice = 0
        self._worker_done: set[int] = set()
        # (post number, gate id, results stored) at the last item.
        self._last: tuple[int, int | None, int] | None = None
        # Results the main process stored for a worker's posts from gates a worker leaves
        # to it (not cached, or after a hard gate that is not): expected, not waste.
        self.left_to_main = 0
        self.summary: list[str] = []
        self.stopped = False

    @classmethod
    def for_session(cls, session: pytest.Session, state: Any) -> LookAhead | None:
        """The look-ahead of this session, or None when no worker would run."""
        from pytest_postgates.nodes import GateItem, PostFile

        config = session.config
        context: GateContext = state.context
        results = context.results
        if (
            fcntl is None
            or results is None
            or results.folder is None  # no result cache: nothing could reach us
            or context.batches.run_dir is None
            or context.evidence.cache_dir is None
        ):
            return None
        workerinput = getattr(config, "workerinput", None)
        xdist_workers = index = None
        if workerinput is not None:
            xdist_workers = int(workerinput.get("workercount", 0) or 0) or None
            index = int(str(workerinput.get("workerid", "gw0")).removeprefix("gw") or 0)
        cpus = available_cpus()
        wanted = workers_for(state.settings.jobs, cpus, xdist_workers, index or 0)
        # Under xdist every worker claims the posts it reaches while any of them may run a
        # look-ahead (the claim table is shared through the run's scratch folder).
        anyone = wanted > 0 or (
            xdist_workers is not None
            and any(
                workers_for(state.settings.jobs, cpus, xdist_workers, other) > 0
                for other in range(xdist_workers)
            )
        )
        if not anyone:
            return None
        posts: dict[Path, Any] = {}
        for item in session.items:
            if isinstance(item, GateItem) and isinstance(item.parent, PostFile):
                posts.setdefault(item.parent.path, item.parent)
        if len(posts) < 2:
            return None
        jobs = []
        for path, post_file in posts.items():
            run: PostRun = post_file.run
            jobs.append(
                (
                    run,
                    PostJob(
                        path,
                        run.display,
                        run.stem,
                        tuple(gate.id for gate in run.selected),
                        run.refusal,
                    ),
                )
            )
        return cls(state, jobs, wanted, config.invocation_params.dir, workerinput is not None)

    # ------------------------------------------------------------------ per item
    def probe(self) -> None:
        """Start the workers before the first item when the first post and the last (the
        first a worker would take) both miss the cache: a cold run, whose workers then
        start while the main process gates its first post. Otherwise they start once the
        main process has stored a result it computed (see :meth:`before_item`)."""
        if self._misses(0) and self._tail_misses():
            self.start()

    def _tail_misses(self) -> bool:
        """Whether the last two posts the main process has not reached (the first a worker
        would take) both miss the cache: two, so that one post that is never cached (bad
        input: an ERROR) does not start a worker on a cached run."""
        tail = [n for n in range(len(self.posts) - 1, -1, -1) if n not in self.reached][:2]
        return bool(tail) and all(self._misses(number) for number in tail)

    def _misses(self, number: int) -> bool:
        """Whether the post's first cacheable gate has no cached result."""
        run = self.runs[number]
        results = self.context.results
        assert results is not None
        for gate_id in self.posts[number].gate_ids:
            spec = BY_ID[gate_id]
            key = run.cache_key(spec)
            if key is not None:
                return results.load(key, spec.id, spec.name, spec.caches_skip) is None
        return False

    def before_item(self, path: Path, gate_id: int | None = None) -> None:
        """The main process is about to run the item of gate ``gate_id`` of the post at
        ``path``."""
        number = self.index.get(path)
        if number is None:
            return
        self._count_twice()
        if number not in self.reached:
            self.reached.add(number)
            self._reach(number)
            if self.table.state(number) == DONE:
                self._worker_done.add(number)
        results = self.context.results
        assert results is not None
        self._last = (number, gate_id, results.stored)
        if not self.started and not self.stopped:
            results = self.context.results
            if results is not None and results.stored > self._probed_at:
                # The main process computed a result: start when the post a worker would
                # take first is uncached too (not when one changed post sits among
                # cached ones).
                self._probed_at = results.stored
                if self._tail_misses():
                    self.start()

    def _count_twice(self) -> None:
        """Attribute what the main process stored since the last item to that item's post."""
        results = self.context.results
        if self._last is not None and results is not None:
            number, gate_id, stored = self._last
            if number in self._worker_done and results.stored > stored:
                if gate_id is None or gate_id in self._worker_gates(number):
                    self.gated_twice += results.stored - stored
                else:
                    self.left_to_main += results.stored - stored
            self._last = None

    def _worker_gates(self, number: int) -> frozenset[int]:
        """The gates of post ``number`` a worker gates (see :func:`gate_post`)."""
        return frozenset(spec.id for spec in worker_gates(self.runs[number]))

    def _reach(self, number: int) -> None:
        state = self.table.claim(number)
        if state in (FREE, MAIN, DONE):
            return
        if state == LEFT:
            self._took_back(number, "a worker stopped on it")
            self.table.take_back(number, LEFT)
            return
        slot = state - WORKER_BASE
        start = time.perf_counter()
        pause = _POLL[0]
        while True:
            time.sleep(pause)
            pause = min(pause * 2, _POLL[1])
            state = self.table.state(number)
            if state < WORKER_BASE:
                break
            if not worker_alive(self.run_dir, slot) and self.table.take_back(number, state):
                self._took_back(number, self._exit_reason(slot))
                break
        self.waited += time.perf_counter() - start
        self.waits += 1
        if state == LEFT and self.table.take_back(number, LEFT):
            self._took_back(number, "a worker stopped on it")

    def _took_back(self, number: int, why: str) -> None:
        display = self.posts[number].display
        self.taken_back.append(display)
        warnings.warn(
            f"postgates: look-ahead worker stopped ({why}); the main process gates "
            f"{display} itself",
            LookAheadWarning,
            stacklevel=2,
        )

    def _exit_reason(self, slot: int) -> str:
        for own, process in self.processes:
            if own == slot:
                code = process.poll()
                if code is None:
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        code = process.wait(timeout=1)
                tail = _log_tail(self.run_dir / f"lookahead-{slot}.log")
                what = f"exit code {code}" if code is not None else "no longer running"
                return f"{what}{': ' + tail if tail else ''}"
        return "no longer running"

    # ------------------------------------------------------------------ workers
    def start(self) -> None:
        self.started = True
        if self.wanted <= 0:
            return
        settings: Settings = self.state.settings
        batches: RunBatches = self.context.batches
        self._split_batches(batches)
        package_parent = str(Path(__file__).resolve().parent.parent)
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_parent, env.get("PYTHONPATH")]))
        env.pop("PYTEST_XDIST_WORKER", None)
        for _ in range(self.wanted):
            slot = self.table.new_slot()
            job = Job(
                slot=slot,
                parent_pid=os.getpid(),
                fingerprint=CODE_FINGERPRINT,
                settings=settings,
                cache_dir=self.context.evidence.cache_dir,
                run_dir=self.run_dir,
                roots=tuple(self.state.roots),
                batch_posts=tuple(batches.posts),
                batch_selected=dict(batches.selected) if batches.selected is not None else None,
                batch_parts=batches.parts,
                batch_counts=batches.split_counts(),
                schedule="end" if self.under_xdist else "ahead",
                table=self.table.path,
                posts=tuple(self.posts),
            )
            job_file = self.run_dir / f"lookahead-{slot}.job"
            job_file.write_bytes(pickle.dumps(job))
            # The alive file exists before the worker does: until it holds its lock, the
            # worker has claimed nothing, so no one asks whether it lives.
            alive_path(self.run_dir, slot).touch()
            with open(self.run_dir / f"lookahead-{slot}.log", "wb") as log:
                process = subprocess.Popen(
                    [sys.executable, "-m", "pytest_postgates.lookahead", str(job_file)],
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    cwd=self.invocation_dir,
                    env=env,
                    # Ctrl-C reaches the main process only; it stops the workers itself.
                    start_new_session=True,
                )
            self.processes.append((slot, process))

    def _split_batches(self, batches: RunBatches) -> None:
        """A serial run's batches are one part each, computed by whichever process asks
        first while the other waits; with workers they are split as under xdist, so that
        the main process computes the parts from the front, a worker those from the back,
        and either computes a part nobody started instead of waiting on a lock (batch.py).
        Under xdist the split is the run's already (every xdist worker must name the same
        parts). Batches split before now (a worker started late) keep their split: the
        worker is told it."""
        if self.under_xdist or batches.parts > 1:
            return
        batches.parts = PARTS_PER_WORKER * (1 + self.wanted)
        set_waiting_work(batches.help_once)

    def stop(self) -> None:
        """Stop every worker and wait for it: asked first (between two gates), then
        SIGTERM (finally blocks run: locks released, temporary files removed), then
        SIGKILL to its process group."""
        if self.stopped:
            return
        self.stopped = True
        self._count_twice()
        for slot, _ in self.processes:
            with contextlib.suppress(OSError):
                stop_path(self.run_dir, slot).touch()
        deadline = time.monotonic() + 0.5
        for _, process in self.processes:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=max(0.0, deadline - time.monotonic()))
        for _, process in self.processes:
            if process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    process.terminate()
        for _, process in self.processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        states = self.table.states()
        if self.processes:
            done = sum(1 for number, s in enumerate(states) if s == DONE)
            self.summary.append(
                f"postgates: look-ahead: {len(self.processes)} worker(s) gated {done} of "
                f"{len(states)} posts; the main process waited {self.waited:.2f} s "
                f"({self.waits} time(s)); results gated twice: {self.gated_twice}"
                + (
                    f"; results of gates a worker leaves to it (not cached): {self.left_to_main}"
                    if self.left_to_main
                    else ""
                )
            )
            failed = [
                (slot, process.returncode)
                for slot, process in self.processes
                if process.returncode not in (0, None, -signal.SIGTERM)
            ]
            for slot, code in failed:
                tail = _log_tail(self.run_dir / f"lookahead-{slot}.log")
                self.summary.append(
                    f"postgates: look-ahead worker {slot} exited with code {code}"
                    + (f": {tail}" if tail else "")
                )
        self.table.close()

    def worker_pids(self) -> list[int]:
        return [process.pid for _, process in self.processes]


def _log_tail(path: Path) -> str:
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").strip().splitlines()
    except OSError:
        return ""
    return lines[-1][-300:] if lines else ""


# ---------------------------------------------------------------------- worker side
class _Stopped(Exception):
    """The main process ended or asked the workers to stop."""


def _die_with_parent() -> None:
    """Linux: have the kernel send SIGTERM when the main process dies (killed, crashed)."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(Exception):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _on_term(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)


def gate_post(job: Job, post: PostJob, context: GateContext, index_last: bool = False) -> None:
    """Gate ``post`` as the main process would, as far as the result cache carries it.

    ``index_last``: the gates that read the repository index after the others (a serial
    run's worker, on its first post): the main process is building the index then, and
    the other gates declare the run-wide batches (diagrams, lint) whose parts the worker
    then computes while it waits for the index, instead of idling (batch.py)."""
    run = PostRun(
        post.path,
        post.display,
        post.stem,
        context,
        selected=[BY_ID[gate_id] for gate_id in post.gate_ids],
        roots=job.roots,
        refusal=post.refusal,
    )
    short_circuit = job.settings.short_circuit if not job.settings.run_all else "none"
    gates = list(worker_gates(run))
    if index_last:
        gates.sort(key=lambda spec: spec.id in _INDEX_GATES)  # stable: run order otherwise
    blocked_at: int | None = None  # run position of a hard gate that failed here
    for spec in gates:
        if (
            blocked_at is not None
            and POSITION[spec.id] > blocked_at
            and job.settings.short_circuits(spec.paid)
        ):
            continue  # short-circuited: the main process tells so itself
        if os.getppid() != job.parent_pid or stop_path(job.run_dir, job.slot).exists():
            raise _Stopped
        card = run.evaluate(spec)
        failed = card.verdict in ("FAIL", "ERROR")
        if short_circuit != "none" and not run.is_advisory(spec) and failed:
            position = POSITION[spec.id]
            blocked_at = position if blocked_at is None else min(blocked_at, position)
            if not index_last and short_circuit == "all":
                return


def worker_gates(run: PostRun) -> Iterator[Any]:
    """The gates of a post a worker gates, in run order: those whose result is cached. An
    uncached gate (a judge's call, an online link check) would bring nothing back to the
    main process, so it is left to it; the cached gates after it are gated anyway, since
    the main process reads them unless that gate fails there (then they are
    short-circuited, and the worker spent a spare CPU on them): an online run's gates
    after gate 6 would otherwise all be left to the main process."""
    for spec in run.selected:  # one at a time: a key is computed only when reached
        if run.cache_key(spec) is not None:
            yield spec


# Gates that read the repository index (evidence.index_for).
_INDEX_GATES = frozenset({2, 14, 15, 7})


def _prefetch_index(job: Job, context: GateContext) -> None:
    """Build (or load) the repository index first, while the main process gates its first
    post's first gate (gate 1's mermaid batch on a cold run): the index is the largest
    piece of work every post waits for, built once under the evidence cache's lock, so
    the main process finds it built, or waits less for it, when it reaches gate 2. Only
    under xdist: a serial run's main process reaches gate 2 before a worker has started
    (about 1.3 s), and a worker waiting on its lock with no batch declared yet idles."""
    if not job.posts or not any(_INDEX_GATES & set(post.gate_ids) for post in job.posts):
        return
    with contextlib.suppress(Exception):  # the gates report a missing repository themselves
        context.evidence.index_for(job.posts[-1].path)


def worker_context(job: Job) -> GateContext:
    """The gate context of a worker: the run's batches split as the main process splits
    them, and no short-circuit inside :meth:`PostRun.evaluate` (``run_all``, which is in no
    cache key): a worker never evaluates an earlier gate it leaves to the main process (a
    judge) to learn whether a later one would be short-circuited; :func:`gate_post`
    stops where the main process surely will."""
    batches = RunBatches(
        job.run_dir,
        job.batch_posts,
        parts=job.batch_parts,
        # The parts it needs next: ahead of the main process's, or from the end.
        from_end=job.schedule == "end",
        split_counts=job.batch_counts,
    )
    batches.selected = job.batch_selected
    settings = replace(job.settings, run_all=True)
    return GateContext.create(settings, job.cache_dir, batches, cache_results=True)


def worker_main(argv: list[str]) -> int:
    job: Job = pickle.loads(Path(argv[0]).read_bytes())
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _on_term)
    _die_with_parent()
    if os.getppid() != job.parent_pid:
        return 0  # the main process is already gone
    if job.fingerprint != CODE_FINGERPRINT:
        print("the plugin's code changed since the run started; not gating", flush=True)
        return 3
    assert fcntl is not None
    alive = os.open(alive_path(job.run_dir, job.slot), os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(alive, fcntl.LOCK_EX)
    table = ClaimTable(job.table, len(job.posts))
    context = worker_context(job)
    batches = context.batches
    if batches.parts > 1:
        set_waiting_work(batches.help_once)
    results = context.results
    assert results is not None
    warnings.simplefilter("default")
    try:
        if job.schedule == "end":
            _prefetch_index(job, context)
        # A serial run's worker starts while the main process gates its first post, which
        # builds the index: it gates the other gates of its first post first (see
        # gate_post), and computes batch parts while it waits for the index.
        first = job.schedule == "ahead"
        cached_in_a_row = 0
        while True:
            if cached_in_a_row >= CACHED_POSTS_BEFORE_STOP:
                return 0  # the posts left are cached: the main process reads them as fast
            if job.schedule == "ahead":
                # The parts the next post needs first, claim held by no one meanwhile.
                upcoming = table.peek_ahead(LEAD_POSTS)
                if upcoming is not None:
                    batches.prepare(job.posts[upcoming].path)
                number = table.claim_ahead(job.slot, LEAD_POSTS)
            else:
                number = table.claim_last(job.slot)
            if number is None:
                return 0
            stored = results.stored
            try:
                gate_post(job, job.posts[number], context, index_last=first)
                first = False
            except _Stopped:
                table.finish(number, LEFT)
                return 0
            except Exception:
                traceback.print_exc()
                table.finish(number, LEFT)
                print(f"failed on {job.posts[number].display}", flush=True)
                return 1
            if results.write_error is not None:
                table.finish(number, LEFT)
                print(f"cannot write the result cache: {results.write_error}", flush=True)
                return 2
            table.finish(number, DONE)
            cached_in_a_row = cached_in_a_row + 1 if results.stored == stored else 0
    finally:
        results.close()


if __name__ == "__main__":
    raise SystemExit(worker_main(sys.argv[1:]))
