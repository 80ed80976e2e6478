"""Work done once per test run for all posts, shared by every process of the run.

Some checks are cheapest as one batch over the whole corpus: one linter process for all
posts, one request per URL however many posts link to it, one run of an external audit
script. pytest-mypy's model: the first process that needs a batch result computes it for
the posts whose items of the gate are selected (a gate declares the batches it reads, and
``-k one-post`` batches one post) under a file lock and writes it as JSON into the run's
scratch folder; every other process (xdist workers included) reads that file. Outside
pytest (unit tests, library use) a batch is computed once per :class:`RunBatches` in memory.

Under xdist a whole-corpus batch computed by one worker made the others wait on its lock,
batch after batch (gate 1's diagrams, gate 12's lint; the repository index too). There a
batch is split into parts of consecutive posts (:meth:`RunBatches.part`), each computed
once under its own lock by whichever worker needs it first, and a worker that would wait
on any lock (a part, the index) computes a part nobody has started instead
(:meth:`RunBatches.help_once`, installed as :func:`fileio.set_waiting_work`). Posts are
scheduled in collection order, so the parts are needed in order and the workers compute
them side by side.

A serial run with look-ahead workers (``jobs`` > 1, lookahead.py) splits its batches the
same way, before any is computed, and hands the number of parts to its workers, so every
process names the same parts. A serial run without workers (``jobs = 1``, the default)
keeps one part per batch: one linter pass, one engine batch.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from pytest_postgates import budget, run_dirs
from pytest_postgates.fileio import locked, try_lock, write_atomic

RUN_DIR_KEY = "postgates_run_dir"
# Parts per worker a batch is split into under xdist, and the fewest posts in a part (a
# part starts a linter process; each worker starts its own mermaid engine once).
PARTS_PER_WORKER = 6
MIN_PART_POSTS = 12

Compute = Callable[[tuple[Path, ...]], Any]


class RunBatches:
    """Batch results of one test run, keyed by name."""

    def __init__(
        self,
        run_dir: Path | None = None,
        posts: tuple[Path, ...] = (),
        parts: int = 1,
    ) -> None:
        self.run_dir = run_dir
        self.posts = posts  # every collected post of the run, in collection order
        # Declared batch -> the posts whose items of a gate declaring it are selected; None
        # until the run's selection is known (library use: every post in ``posts``).
        self.selected: dict[str, tuple[Path, ...]] | None = None
        # How many parts a batch is split into at most (1: one process computes it all).
        # Set only before the process computes a batch (or when every process of the run
        # is told the new value): the processes of a run must name the same parts.
        self.parts = parts
        self._memo: dict[str, Any] = {}
        self._split: dict[str, tuple[tuple[str, tuple[Path, ...]], ...]] = {}
        self._part_of: dict[str, dict[Path, int]] = {}
        self._computes: dict[str, Compute] = {}  # batch -> compute(part posts), for helping
        self._helping = False
        self._unhelpable: set[str] = set()  # parts whose computation failed while helping

    def posts_for(self, batch: str) -> tuple[Path, ...]:
        """The posts a declared batch covers. A batch no gate declared is a bug in the gate
        (its posts would not be scoped to the selection): KeyError."""
        if self.selected is None:
            return self.posts
        return self.selected[batch]

    @classmethod
    def create_run_dir(cls) -> Path:
        return run_dirs.create_run_dir()

    def get(self, name: str, compute: Callable[[], Any]) -> Any:
        """The result of ``compute()`` for this run: computed by exactly one process."""
        if name in self._memo:
            return self._memo[name]
        # Work for the whole corpus: not charged to the gate budget of the post whose gate
        # happens to ask first (an interrupted batch would fail every post after it).
        with budget.paused():
            if self.run_dir is None:
                result = compute()
            else:
                path = self.run_dir / f"{name}.json"
                # Written atomically: a file that is there is whole, no lock needed to read.
                if path.is_file():
                    result = json.loads(path.read_text(encoding="utf-8"))
                else:
                    with locked(self.run_dir / f"{name}.lock"):
                        if path.is_file():
                            result = json.loads(path.read_text(encoding="utf-8"))
                        else:
                            result = compute()
                            write_atomic(path, json.dumps(result, sort_keys=True))
        self._memo[name] = result
        return result

    # ------------------------------------------------------------------ parts
    def _parts(self, batch: str) -> tuple[tuple[str, tuple[Path, ...]], ...]:
        """(name, posts) of each part of a declared batch, in collection order."""
        split = self._split.get(batch)
        if split is None:
            posts = self.posts_for(batch)
            count = max(1, min(self.parts, len(posts) // MIN_PART_POSTS))
            count = max(1, min(count, len(posts)))
            if count == 1:
                split = ((batch, posts),) if posts else ()
            else:
                bounds = [len(posts) * number // count for number in range(count + 1)]
                split = tuple(
                    (f"{batch}.part{number + 1}of{count}", posts[start:end])
                    for number, (start, end) in enumerate(itertools.pairwise(bounds))
                )
            self._split[batch] = split
            self._part_of[batch] = {
                post: number for number, (_, part) in enumerate(split) for post in part
            }
        return split

    def scope(self, batch: str, post: Path) -> tuple[str, tuple[Path, ...]]:
        """The name and posts of the part of a declared batch that covers ``post`` (the
        whole batch when it is not split); ``("", ())`` when the batch does not cover it."""
        parts = self._parts(batch)
        number = self._part_of[batch].get(post)
        if number is None:
            return "", ()
        return parts[number]

    def offer(self, batch: str, compute: Compute) -> None:
        """Say how any part of ``batch`` is computed (``compute(part_posts)``, the same
        function :meth:`get` is given for the part it needs), so that this process can
        compute parts it does not need yet while it would otherwise wait on a lock."""
        self._computes.setdefault(batch, compute)

    def part(self, batch: str, post: Path, compute: Compute) -> Any | None:
        """``compute(posts)`` for the part of ``batch`` that covers ``post``, computed by
        exactly one process; None when the batch does not cover the post."""
        name, posts = self.scope(batch, post)
        if not posts:
            return None
        self.offer(batch, compute)
        return self.get(name, lambda: compute(posts))

    def help_once(self) -> bool:
        """Compute one part of an offered batch that no process has computed or started,
        and keep it; False when there is none (or this process is already helping)."""
        if self._helping or self.run_dir is None or not self._computes:
            return False
        try:
            import fcntl  # noqa: F401
        except ImportError:  # pragma: no cover - Windows: no cross-process lock to wait on
            return False
        self._helping = True
        try:
            for batch, compute in list(self._computes.items()):
                parts = self._parts(batch)
                for name, posts in parts:
                    if self._compute_if_unstarted(name, posts, compute):
                        return True
            return False
        finally:
            self._helping = False

    def _compute_if_unstarted(self, name: str, posts: tuple[Path, ...], compute: Compute) -> bool:
        """Compute part ``name`` unless this process has it, failed on it, or another
        process stored or is computing it; whether it did."""
        assert self.run_dir is not None
        if name in self._memo or name in self._unhelpable:
            return False
        if (self.run_dir / f"{name}.json").is_file():
            return False
        return self._compute_unstarted(name, partial(compute, posts))

    def _compute_unstarted(self, name: str, compute: Callable[[], Any]) -> bool:
        """Compute and store ``name`` if no other process holds its lock; whether it did."""
        assert self.run_dir is not None
        path = self.run_dir / f"{name}.json"
        with open(self.run_dir / f"{name}.lock", "a+b") as handle:
            if not try_lock(handle.fileno()):
                return False  # being computed by another process
            try:
                if path.is_file():
                    return False
                try:
                    with budget.paused():
                        result = compute()
                    write_atomic(path, json.dumps(result, sort_keys=True))
                except Exception:
                    # Not this wait's business: the gate that needs the part computes it
                    # and reports what goes wrong on its own post.
                    self._unhelpable.add(name)
                    return False
            finally:
                import fcntl

                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
        self._memo[name] = result
        return True

    def remove(self) -> None:
        if self.run_dir is not None:
            run_dirs.remove_run_dir(self.run_dir)
