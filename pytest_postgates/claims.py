"""The claim table of a run's look-ahead (lookahead.py): which process gates which post.

One int per selected post in a small file of the run's scratch folder, mapped in memory by
every process of the run and changed only under an exclusive ``flock`` of that file: free,
a main process's, a worker's (gating now), done, or left (a worker stopped on it). A worker
holds an ``flock`` on its own file for as long as it lives, so a waiting process tells a
dead worker from a slow one.
"""

from __future__ import annotations

import contextlib
import mmap
import os
import struct
from pathlib import Path
from typing import Any

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no look-ahead
    fcntl = None  # type: ignore[assignment]

# Claim states; a worker's claim is WORKER_BASE + its slot.
FREE, MAIN, DONE, LEFT = 0, 1, 2, 3
WORKER_BASE = 16
_MAGIC = 0x50474C41  # "PGLA"
# Header: magic, post count, next worker slot, the furthest post a main process reached.
_HEADER = 4
_REACHED = 3
# A serial run's worker gates the first free post at least this many posts ahead of the
# main process: far enough that the main process, passing over the posts the worker has
# gated (pytest's per-item work, cached results, scorecards: about a quarter of a cold
# post's cost), rarely reaches the one the worker is still gating; near enough that the
# posts the worker gated last leave the main process little to do once the worker stops.
LEAD_POSTS = 16
_INT = struct.calcsize("i")


class ClaimTable:
    """Which process gates which post of the run: one int per post in a file mapped by
    every process of the run, changed only under an exclusive ``flock`` of that file."""

    def __init__(self, path: Path, count: int) -> None:
        assert fcntl is not None
        self.path = path
        self.count = count
        size = (_HEADER + count) * _INT
        self._fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            with self._locked():
                if os.fstat(self._fd).st_size < size:
                    os.ftruncate(self._fd, size)
                self._map = mmap.mmap(self._fd, size)
                self._ints = memoryview(self._map).cast("i")
                if self._ints[0] != _MAGIC:
                    self._ints[0], self._ints[1] = _MAGIC, count
        except BaseException:
            os.close(self._fd)
            raise
        found = self._ints[1]
        if found != count:
            self.close()
            raise ValueError(f"{path}: a claim table of {found} posts, not {count}")

    @contextlib.contextmanager
    def _locked(self) -> Any:
        assert fcntl is not None
        fcntl.flock(self._fd, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(self._fd, fcntl.LOCK_UN)

    def state(self, index: int) -> int:
        return self._ints[_HEADER + index]

    def states(self) -> list[int]:
        return list(self._ints[_HEADER : _HEADER + self.count])

    def claim(self, index: int) -> int:
        """Claim post ``index`` for a main process; its state before (FREE: now ours)."""
        with self._locked():
            state = self._ints[_HEADER + index]
            if state == FREE:
                self._ints[_HEADER + index] = MAIN
            self._ints[_REACHED] = max(self._ints[_REACHED], index)
            return state

    def reached(self) -> int:
        """The furthest post a main process has reached (0 before the first)."""
        return self._ints[_REACHED]

    def take_back(self, index: int, state: int) -> bool:
        """Claim post ``index`` for a main process if it is still in ``state`` (a dead
        worker's claim, a post a worker left)."""
        with self._locked():
            if self._ints[_HEADER + index] != state:
                return False
            self._ints[_HEADER + index] = MAIN
            return True

    def claim_last(self, slot: int) -> int | None:
        """Claim the last free post for worker ``slot``; None when none is left."""
        with self._locked():
            for index in range(self.count - 1, -1, -1):
                if self._ints[_HEADER + index] == FREE:
                    self._ints[_HEADER + index] = WORKER_BASE + slot
                    return index
        return None

    def claim_ahead(self, slot: int, lead: int) -> int | None:
        """Claim for worker ``slot`` the first free post at least ``lead`` posts after the
        furthest post a main process reached; when there is none, the last free post after
        it (the main process reaches that one last). None when no post after it is free."""
        with self._locked():
            index = self._ahead(lead)
            if index is not None:
                self._ints[_HEADER + index] = WORKER_BASE + slot
            return index

    def peek_ahead(self, lead: int) -> int | None:
        """The post :meth:`claim_ahead` would claim now, left free."""
        with self._locked():
            return self._ahead(lead)

    def _ahead(self, lead: int) -> int | None:
        reached = self._ints[_REACHED]
        for index in range(min(reached + lead, self.count), self.count):
            if self._ints[_HEADER + index] == FREE:
                return index
        for index in range(min(reached + lead, self.count) - 1, reached, -1):
            if self._ints[_HEADER + index] == FREE:
                return index
        return None

    def finish(self, index: int, state: int) -> None:
        with self._locked():
            self._ints[_HEADER + index] = state

    def new_slot(self) -> int:
        with self._locked():
            slot = self._ints[2]
            self._ints[2] = slot + 1
            return slot

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._ints.release()
            self._map.close()
        with contextlib.suppress(OSError):
            os.close(self._fd)


def alive_path(run_dir: Path, slot: int) -> Path:
    return run_dir / f"lookahead-{slot}.alive"


def stop_path(run_dir: Path, slot: int) -> Path:
    """A file whose existence asks worker ``slot`` to stop before its next gate (per
    worker: under xdist, one xdist worker's session ending must not stop another's)."""
    return run_dir / f"lookahead-{slot}.stop"


def worker_alive(run_dir: Path, slot: int) -> bool:
    """Whether worker ``slot`` still lives: it holds the lock of its file while it does
    (the lock goes with the process, however it ends)."""
    assert fcntl is not None
    try:
        fd = os.open(alive_path(run_dir, slot), os.O_RDWR)
    except FileNotFoundError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # closing drops the lock if we took it
    return False
