"""Opt-in look-ahead: a serial run gates later posts in worker processes, if asked to.

Off by default: ``jobs`` (``--postgates-jobs N``, ``POSTGATES_JOBS``) is 1, and a run starts
no process it was not asked for. With ``jobs`` N > 1 (``auto``: the CPUs this process may
use, at most :data:`AUTO_MAX_WORKERS` workers beside the main process), the main process
hands posts to a :class:`concurrent.futures.ProcessPoolExecutor` of N - 1 workers, ahead of
pytest's item order, and when it reaches a post's first item it takes that post's
scorecards from its future; a future not started yet is cancelled and the main process
gates the post itself, so no post is gated twice. Under pytest-xdist the look-ahead is off:
xdist's workers are the parallel engine there.

Which posts: the first post at least :data:`LEAD_POSTS` beyond the furthest post the main
process has reached (near the end, the last one after it), so that the main process's
per-item work for the workers' posts (scorecards, pytest's own) overlaps their gating,
and the posts the main process gates itself are those no worker got to. Only posts whose
first cacheable gate misses the result cache are handed out, so a cached run starts no
process. A worker gates a post's gates whose results the cache keeps (not a judge's call
or an online link check: those stay with the main process, which decides the post's
short-circuit itself), stops on a post at a hard gate's FAIL or ERROR, and stores its
results in the result cache as the main process would.

What a gate does in a worker reaches the run as if it ran in the main process: what it
printed (``sys.stdout``, ``sys.stderr``) is printed again, and the warnings it raised are
raised again, at the gate's item, where pytest captures them; a ``breakpoint()`` hands the
post back to the main process, which gates it from that gate on, so the debugger stops in
the terminal. A worker that fails outside a gate (a bug, a crash) costs its post a
:class:`LookAheadWarning`, and the main process gates the post itself; after a crash the
main process gates every post left. Workers are fresh interpreters (``spawn``), not forks:
no thread or open database of the pytest process is copied. They stop with the session
(``-x``, ``--maxfail``, Ctrl-C, the end); on Linux a worker also dies with its parent.
"""

from __future__ import annotations

import atexit
import contextlib
import io
import os
import signal
import sys
import time
import warnings
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from multiprocessing.context import SpawnContext, SpawnProcess
from pathlib import Path
from typing import Any

import pytest

from pytest_postgates.batch import PARTS_PER_WORKER, RunBatches
from pytest_postgates.config import Settings
from pytest_postgates.evidence.api_model import vouch_in
from pytest_postgates.fileio import set_waiting_work
from pytest_postgates.gates import BY_ID, POSITION
from pytest_postgates.gates.base import Gate, GateContext
from pytest_postgates.post import InputProblem
from pytest_postgates.results import CODE_FINGERPRINT
from pytest_postgates.runner import PostRun, ReadyCard


class PoolProcess(SpawnProcess):
    """A worker process of the look-ahead pool. Each one records itself when it starts,
    so that :meth:`LookAhead.stop` waits for every worker whichever path of the executor
    started it (a clean-clone CI run once found one alive at the session's end that the
    executor's own table no longer listed)."""

    def start(self) -> None:
        super().start()
        STARTED_WORKERS.add(self)


class _PoolContext(SpawnContext):
    # ProcessPoolExecutor makes its workers with ``mp_context.Process``.
    Process = PoolProcess


# Every pool worker this process started and has not yet waited for.
STARTED_WORKERS: set[PoolProcess] = set()


def _wait_for(workers: set[PoolProcess]) -> None:
    """Wait for each worker to end (killing one that has not ended in 10 s) and forget it."""
    for process in list(workers):
        process.join(timeout=10)
        if process.is_alive():
            process.kill()
            process.join()
        workers.discard(process)


# With jobs = auto, at most this many workers: each imports the plugin and loads the
# repository index (about 1.3 s of CPU and the index's memory) before it gates a post.
AUTO_MAX_WORKERS = 4
# A worker gates posts at least this many posts ahead of the main process: far enough that
# the main process, passing over the posts workers gated (about a quarter of a cold post's
# cost each), rarely reaches one still being gated; near enough that the posts gated last
# leave the main process little to do at the end.
LEAD_POSTS = 16
# Posts handed out and not finished, per worker: the one it gates, the next (already in
# the pool's call queue) and two more, cancellable, so that it never waits for the main
# process to get work (with two, a worker ran dry while the main process spent seconds on
# one post, and cold runs took up to 1.5x the old claim table's time).
IN_FLIGHT_PER_WORKER = 4


class LookAheadWarning(pytest.PytestWarning):
    """A look-ahead worker failed on a post; the main process gated it itself."""


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity mask, not the machine's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - macOS, Windows
        return os.cpu_count() or 1


def workers_for(jobs: int | str, cpus: int) -> int:
    """How many workers a serial run starts: ``jobs`` processes gate posts, the main one
    among them; ``auto`` is one per CPU this process may use beyond its own."""
    if jobs == "auto":
        return max(0, min(cpus - 1, AUTO_MAX_WORKERS))
    assert isinstance(jobs, int)
    return jobs - 1


def under_xdist(config: pytest.Config) -> bool:
    """An xdist worker, or a controller that distributes items (``-n N``, N > 0)."""
    if hasattr(config, "workerinput"):
        return True
    return str(config.getoption("dist", "no", skip=True)) != "no"


def xdist_note(config: pytest.Config, settings: Settings) -> str | None:
    """The run's line saying that ``jobs`` is ignored under xdist, when it was set."""
    if settings.jobs == 1 or hasattr(config, "workerinput") or not under_xdist(config):
        return None
    return (
        f"postgates: jobs = {settings.jobs} ignored under xdist (-n): xdist's workers are "
        "the parallel engine; the look-ahead runs in serial runs only"
    )


@dataclass(frozen=True)
class PostJob:
    """One selected post as the main process will gate it."""

    path: Path
    display: str
    stem: str
    gate_ids: tuple[int, ...]  # the post's selected gates, in run order
    refusal: InputProblem | None


@dataclass(frozen=True)
class WorkerSetup:
    """What every worker needs once, handed to the pool's initializer."""

    parent_pid: int
    fingerprint: str
    settings: Settings
    cache_dir: Path
    cache_results: bool
    run_dir: Path
    roots: tuple[Path, ...]
    batch_posts: tuple[Path, ...]
    batch_selected: dict[str, tuple[Path, ...]] | None
    batch_parts: int


@dataclass(frozen=True)
class Gated:
    """A worker's scorecards for one post (by gate id), and the gate at which a
    ``breakpoint()`` handed the post back to the main process, if one did."""

    cards: dict[int, ReadyCard]
    handed_back_at: int | None = None


# ---------------------------------------------------------------------- main process side
class LookAhead:
    """The main process's side: hands posts to the pool ahead of pytest's item order,
    takes each post's scorecards at its first item, stops the pool with the session."""

    def __init__(self, state: Any, posts: list[tuple[PostRun, PostJob]], workers: int) -> None:
        self.state = state
        self.context: GateContext = state.context
        self.runs = [run for run, _ in posts]
        self.posts = [job for _, job in posts]
        self.index = {job.path: number for number, job in enumerate(self.posts)}
        self.workers = workers
        self.reached = 0  # the furthest post the main process has reached
        self.taken: set[int] = set()  # posts whose first item the main process reached
        self.considered: set[int] = set()  # handed out, or found cached, or taken
        self._ahead = 0  # no post before this one is left to hand out ahead (a cursor)
        self._tail = len(self.posts) - 1  # nor after this one, from the end
        self.futures: dict[int, Future[Gated]] = {}
        self._first_miss: int | None = None  # the first post found uncached (main gates it)
        self.executor: ProcessPoolExecutor | None = None
        self.broken = False
        self.gated = 0  # posts whose scorecards came from a worker
        self.waited = 0.0
        self.waits = 0
        self.summary: list[str] = []
        self.stopped = False
        # The run's batches in parts (batch.py), decided before any is computed, so that
        # the main process and the workers name the same parts and compute them side by side.
        batches = self.context.batches
        if batches.parts == 1:
            batches.parts = PARTS_PER_WORKER * (1 + workers)
            set_waiting_work(batches.help_once)
            # The API model this process builds, workers load unchecked (api_model.py).
            vouch_in(batches.run_dir)

    @classmethod
    def for_session(cls, session: pytest.Session, state: Any) -> LookAhead | None:
        """The look-ahead of this session, or None when it starts no worker."""
        from pytest_postgates.nodes import GateItem, PostFile

        config = session.config
        if under_xdist(config) or state.context.batches.run_dir is None:
            return None
        workers = workers_for(state.settings.jobs, available_cpus())
        if workers <= 0:
            return None
        posts: dict[Path, PostFile] = {}
        for item in session.items:
            if isinstance(item, GateItem) and isinstance(item.parent, PostFile):
                posts.setdefault(item.parent.path, item.parent)
        if len(posts) < 2:
            return None
        jobs = []
        for path, post_file in posts.items():
            run = post_file.run
            gate_ids = tuple(gate.id for gate in run.selected)
            jobs.append((run, PostJob(path, run.display, run.stem, gate_ids, run.refusal)))
        return cls(state, jobs, workers)

    # ------------------------------------------------------------------ per item
    def before_item(self, path: Path) -> None:
        """The main process is about to run an item of the post at ``path``."""
        number = self.index.get(path)
        if number is None:
            return
        if number not in self.taken:
            self.taken.add(number)
            self.considered.add(number)
            self.reached = max(self.reached, number)
            future = self.futures.pop(number, None)
            if future is not None and not self.broken and not future.cancel():
                self._take(number, future)
        if not self.stopped:
            # At every item, not only a post's first: while the main process spends
            # seconds on one post (building the index, a batch part), workers run dry.
            self._hand_out()

    def _take(self, number: int, future: Future[Gated]) -> None:
        """The post's scorecards from its future, waiting if a worker is gating it."""
        if not future.done():
            start = time.perf_counter()
            with contextlib.suppress(Exception):
                future.exception()  # waits; what it raised is handled below
            self.waited += time.perf_counter() - start
            self.waits += 1
        try:
            gated = future.result()
        except BrokenProcessPool as exc:
            self._broke(exc, self.posts[number].display)
            return
        except Exception as exc:
            self._warn(f"{type(exc).__name__}: {exc}", self.posts[number].display)
            return
        self.runs[number].ready.update(gated.cards)
        self.gated += 1

    def _broke(self, exc: BrokenProcessPool, display: str) -> None:
        """A worker died (killed, crashed): the main process gates every post left."""
        self.broken = True
        self.stop()
        self._warn(f"the worker pool broke: {exc}", f"{display} and every post left")

    def _warn(self, why: str, posts: str) -> None:
        warnings.warn(
            f"postgates: look-ahead worker failed ({why}); the main process gates {posts} itself",
            LookAheadWarning,
            stacklevel=4,
        )

    def _hand_out(self) -> None:
        """Hand posts to the pool until each worker has :data:`IN_FLIGHT_PER_WORKER`."""
        wanted = self.workers * IN_FLIGHT_PER_WORKER
        in_flight = sum(1 for future in self.futures.values() if not future.done())
        # At most this many cache lookups per item: a cached run finds nothing to hand out
        # and must not look up every post at its first item.
        lookups = wanted + 2
        while in_flight < wanted and lookups > 0:
            number = self._next_post()
            if number is None:
                return
            self.considered.add(number)
            lookups -= 1
            if not self._misses(number):
                continue  # cached: the main process reads it as fast as a worker would
            if self.executor is None and self._first_miss is None:
                # The pool starts at the second post that misses: one that is never cached
                # (bad input: an ERROR) or one edited post among cached ones starts none.
                self._first_miss = number
                continue
            try:
                future = self._pool().submit(gate_in_worker, self.posts[number])
            except BrokenProcessPool as exc:
                self._broke(exc, self.posts[number].display)
                return
            self.futures[number] = future
            in_flight += 1

    def _next_post(self) -> int | None:
        """The first post not considered at least :data:`LEAD_POSTS` beyond the furthest
        post reached; when there is none, the last one after it."""
        self._ahead = max(self._ahead, self.reached + LEAD_POSTS)
        while self._ahead < len(self.posts) and self._ahead in self.considered:
            self._ahead += 1
        if self._ahead < len(self.posts):
            return self._ahead
        while self._tail > self.reached and self._tail in self.considered:
            self._tail -= 1
        return self._tail if self._tail > self.reached else None

    def _misses(self, number: int) -> bool:
        """Whether the post's first cacheable gate has no cached result (a post with none
        is left to the main process: a worker would bring nothing back)."""
        run = self.runs[number]
        results = self.context.results
        assert results is not None  # GateContext always has one
        for gate_id in self.posts[number].gate_ids:
            spec = BY_ID[gate_id]
            key = run.cache_key(spec)
            if key is not None:
                return results.load(key, spec.id, spec.name, spec.caches_skip) is None
        return False

    def _pool(self) -> ProcessPoolExecutor:
        if self.executor is None:
            batches = self.context.batches
            assert batches.run_dir is not None
            results = self.context.results
            setup = WorkerSetup(
                parent_pid=os.getpid(),
                fingerprint=CODE_FINGERPRINT,
                settings=self.state.settings,
                cache_dir=self.context.evidence.cache_dir,
                cache_results=results is not None and results.folder is not None,
                run_dir=batches.run_dir,
                roots=tuple(self.state.roots),
                batch_posts=tuple(batches.posts),
                batch_selected=dict(batches.selected) if batches.selected is not None else None,
                batch_parts=batches.parts,
            )
            self.executor = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=_PoolContext(),
                initializer=start_worker,
                initargs=(setup,),
            )
        return self.executor

    # ------------------------------------------------------------------ the end
    def stop(self) -> None:
        """Stop the pool: posts not started are cancelled; a worker still gating (``-x``,
        Ctrl-C) is terminated (its results are SQLite transactions: none is left
        half-written), and every worker is waited for."""
        if self.stopped:
            return
        self.stopped = True
        executor = self.executor
        if executor is None:
            return
        busy = any(not future.done() for future in self.futures.values())
        executor.shutdown(wait=False, cancel_futures=True)
        if busy:
            for process in list(STARTED_WORKERS):
                process.terminate()
        _wait_for(STARTED_WORKERS)
        executor.shutdown(wait=True)
        _wait_for(STARTED_WORKERS)  # also one started while the pool was shutting down
        self.summary.append(
            f"postgates: look-ahead: {self.workers} worker(s) gated {self.gated} of "
            f"{len(self.posts)} posts; the main process waited {self.waited:.2f} s "
            f"({self.waits} time(s))"
        )

    def worker_pids(self) -> list[int]:
        if self.executor is None or not self.executor._processes:
            return []
        return list(self.executor._processes)


# ---------------------------------------------------------------------- worker side
class _HandBack(BaseException):
    """A ``breakpoint()`` in a worker: the post goes back to the main process (a
    BaseException, so that the gate's own error handling does not turn it into an ERROR)."""


def _hand_back(*args: object, **kwargs: object) -> None:
    raise _HandBack


def _on_term(signum: int, frame: Any) -> None:
    _EXIT_STATUS[0] = 128 + signum
    raise SystemExit(128 + signum)  # finally blocks run: locks released, children killed


_EXIT_STATUS = [0]


def _exit_without_teardown() -> None:
    """A worker's exit, once its work is done: the other exit handlers run (mermaid.js
    engines stopped, a profiler's dump), then the process ends without tearing down its
    interpreter. Freeing the index, the API model and every module object one by one took
    a second or more, and the main process waits for every worker at the session's end;
    nothing of it is needed (results are committed SQLite transactions; the log is flushed
    here)."""
    atexit.unregister(_exit_without_teardown)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(_EXIT_STATUS[0])


def _die_with_parent() -> None:
    """Linux: have the kernel send SIGTERM when the main process dies (killed, crashed)."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(Exception):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


@dataclass
class _Worker:
    """This worker process's setup and gate context, and how many posts it was given."""

    setup: WorkerSetup
    context: GateContext
    posts: int = 0


_WORKER: list[_Worker] = []  # set once per worker process, by start_worker


def start_worker(setup: WorkerSetup) -> None:
    """The pool's initializer: one gate context per worker, for all its posts."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the main process's to handle
    signal.signal(signal.SIGTERM, _on_term)
    _die_with_parent()
    if os.getppid() != setup.parent_pid:
        raise SystemExit(0)  # the main process is already gone
    if setup.fingerprint != CODE_FINGERPRINT:
        raise RuntimeError("the plugin's code changed since the run started")
    # What the worker writes outside a gate (not replayed) goes to a log, not into
    # whichever item pytest is capturing in the main process.
    log = os.open(setup.run_dir / f"lookahead-{os.getpid()}.log", os.O_WRONLY | os.O_CREAT)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.close(log)
    sys.breakpointhook = _hand_back
    context = worker_context(setup)
    if context.batches.parts > 1:
        set_waiting_work(context.batches.help_once)
        vouch_in(setup.run_dir)
    _WORKER.append(_Worker(setup, context))
    # Registered last, so run first at exit: see _exit_without_teardown.
    atexit.register(_exit_without_teardown)


def worker_context(setup: WorkerSetup) -> GateContext:
    """The gate context of a worker: the run's batches split as the main process splits
    them, and no short-circuit inside :meth:`PostRun.evaluate` (``run_all``, which is in no
    cache key): a worker never evaluates an earlier gate it leaves to the main process (a
    judge) to learn whether a later one would be short-circuited; :func:`gate_post` stops
    where the main process surely will."""
    batches = RunBatches(setup.run_dir, setup.batch_posts, parts=setup.batch_parts)
    batches.selected = setup.batch_selected
    settings = replace(setup.settings, run_all=True)
    return GateContext.create(settings, setup.cache_dir, batches, cache_results=setup.cache_results)


def gate_in_worker(post: PostJob) -> Gated:
    worker = _WORKER[0]
    worker.posts += 1
    return gate_post(worker.setup, post, worker.context, index_last=worker.posts == 1)


def gate_post(
    setup: WorkerSetup, post: PostJob, context: GateContext, index_last: bool = False
) -> Gated:
    """Gate ``post`` as the main process would, as far as the result cache carries it.

    ``index_last``: the gates that read the repository index after the others, and those
    that read the API model last (a worker's first post, :func:`first_post_rank`): the
    main process is building them then, and the other gates declare the run-wide batches
    (diagrams, lint) whose parts the worker computes while it waits, instead of idling
    (batch.py)."""
    run = PostRun(
        post.path,
        post.display,
        post.stem,
        context,
        selected=[BY_ID[gate_id] for gate_id in post.gate_ids],
        roots=setup.roots,
        refusal=post.refusal,
    )
    short_circuit = setup.settings.short_circuit if not setup.settings.run_all else "none"
    cards: dict[int, ReadyCard] = {}
    blocked_at: int | None = None  # run position of a hard gate that failed here
    gates = list(worker_gates(run))
    if index_last:
        gates.sort(key=first_post_rank)  # stable: run order otherwise
    for spec in gates:
        if (
            blocked_at is not None
            and POSITION[spec.id] > blocked_at
            and setup.settings.short_circuits(spec.paid)
        ):
            continue  # short-circuited: the main process tells so itself
        try:
            cards[spec.id] = _evaluate_captured(run, spec)
        except _HandBack:
            return Gated(cards, handed_back_at=spec.id)
        failed = cards[spec.id].card.verdict in ("FAIL", "ERROR")
        if short_circuit != "none" and not run.is_advisory(spec) and failed:
            position = POSITION[spec.id]
            blocked_at = position if blocked_at is None else min(blocked_at, position)
            if short_circuit == "all" and not index_last:
                break
    return Gated(cards)


# Gates that read the repository index (evidence.index_for), and those of them that read
# the API model built from it (evidence.api_model; gate 16 reads the index only for it).
_INDEX_GATES = frozenset({2, 14, 15, 7, 16})
_MODEL_GATES = frozenset({2, 15, 16})


def first_post_rank(spec: Gate) -> int:
    """Where a gate goes on a worker's first post: the gates that need neither the index
    nor the API model first, then those that need the index only (built in seconds), then
    those that need the model too (its build takes the main process several times as
    long): each waits on the main process's build as late as possible, with work done."""
    if spec.id in _MODEL_GATES:
        return 2
    return 1 if spec.id in _INDEX_GATES else 0


def _evaluate_captured(run: PostRun, spec: Gate) -> ReadyCard:
    """The gate's scorecard, with what it printed and the warnings it raised."""
    out, err = io.StringIO(), io.StringIO()
    with (
        warnings.catch_warnings(record=True) as caught,
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
    ):
        warnings.simplefilter("always")  # the main process's filters decide, at replay
        card = run.evaluate(spec)
    raised = tuple(
        (warning.category, str(warning.message), warning.filename, warning.lineno)
        for warning in caught
    )
    return ReadyCard(card, out.getvalue(), err.getvalue(), raised)


def worker_gates(run: PostRun) -> Iterator[Gate]:
    """The gates of a post a worker gates, in run order: those whose result is cached. An
    uncached gate (a judge's call, an online link check) is left to the main process; the
    cached gates after it are gated all the same, since the main process uses them unless
    that gate fails there (then they are short-circuited, and a spare CPU's work is lost)."""
    for spec in run.selected:  # one at a time: a key is computed only when reached
        if run.cache_key(spec) is not None:
            yield spec
