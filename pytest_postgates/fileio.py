"""Atomic file writes and cross-process file locks: the two ways this plugin touches shared
files (scorecards, caches, batch results) so that an interrupted run or two processes
sharing a folder never leave a torn file.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import stat
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

from pytest_postgates import budget


def _file_mode() -> int:
    # mkstemp creates 0600 files; a scorecard should have the mode any new file gets.
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


FILE_MODE = _file_mode()


@contextlib.contextmanager
def _interrupts_deferred() -> Iterator[None]:
    """Hold SIGINT/SIGTERM for the few system calls of one small write, so that Ctrl-C
    lands after it (the run still stops) and never between creating the temporary file
    and either renaming or removing it."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(
        signal, "pthread_sigmask"
    ):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


# An existing output file larger than this is rewritten without being compared first.
COMPARE_LIMIT = 16 * 1024 * 1024


def existing_bytes(path: Path) -> bytes | None:
    """The current content of an output file, read only when it is a regular file (not a
    symlink, FIFO, device or folder someone planted there: a FIFO would block the run, a
    link to /dev/zero never ends) of a sane size. None: write it anew."""
    try:
        info = os.lstat(path)
        if not stat.S_ISREG(info.st_mode) or info.st_size > COMPARE_LIMIT:
            return None
        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
        descriptor = os.open(path, flags)
    except OSError:
        return None
    with os.fdopen(descriptor, "rb") as stream:
        if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
            return None
        try:
            return stream.read(COMPARE_LIMIT + 1)
        except OSError:
            return None


def write_atomic(path: Path, text: str) -> None:
    # An unchanged file is left alone: a rerun of an unchanged corpus only reads. A path
    # that is not a regular file is replaced (a planted link is replaced, never followed).
    existing = existing_bytes(path)
    if existing is not None and existing.decode("utf-8", "replace") == text:
        return
    replace_file(path, text)


def replace_file(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically, whatever is there (the caller compared)."""
    with _interrupts_deferred():
        try:
            _write_atomic(path, text)
        except FileNotFoundError:
            # The folder is made on the first write into it rather than looked up before
            # every write (a scorecard folder takes thousands of writes a run). It is made
            # and the write tried again even when it exists by now: under xdist another
            # worker may have made it between this write failing and the look.
            path.parent.mkdir(parents=True, exist_ok=True)
            _write_atomic(path, text)


_TEMPORARY_NAMES = itertools.count()
# O_NOFOLLOW: a temporary name someone planted as a link is never written through.
_CREATE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)


def _write_atomic(path: Path, text: str) -> None:
    # A temporary name unique to this process and write, created exclusively: no random
    # name to draw and, the mode given at creation (0666 less the umask, what any new file
    # gets), no chmod after it; a leftover of the same name falls back to mkstemp.
    if not isinstance(text, str):
        raise TypeError(f"text to write must be str, not {type(text).__name__}")
    temporary = f"{path.parent}/.{path.name}.{os.getpid()}-{next(_TEMPORARY_NAMES)}.tmp"
    try:
        handle = os.open(temporary, _CREATE_FLAGS, 0o666)
        made_by_mkstemp = False
    except FileExistsError:
        handle, temporary = tempfile.mkstemp(
            prefix=f".{path.name}.", suffix=".tmp", dir=path.parent
        )
        made_by_mkstemp = True
    try:
        with open(handle, "wb", closefd=True) as stream:
            stream.write(text.encode("utf-8"))
        if made_by_mkstemp:
            os.chmod(temporary, FILE_MODE)  # mkstemp creates 0600 files
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


# Work a process may do while another process holds a lock it waits for (set by the run's
# batches under xdist: parts of the run-wide batches nobody has computed yet). Called on
# the main thread only; returns False when it found nothing to do.
_waiting_work: Callable[[], bool] | None = None


def set_waiting_work(work: Callable[[], bool] | None) -> None:
    """Install (or, with None, remove) the work :func:`locked` does instead of waiting."""
    global _waiting_work
    _waiting_work = work


@contextlib.contextmanager
def locked(lock_path: Path) -> Iterator[None]:
    """An exclusive lock across processes (xdist workers, parallel runs) on POSIX. The gate
    budget is paused while waiting for and holding it: a lock is never abandoned half-way,
    and the work done under one (an index build) is shared, not the current post's. While
    another process holds it, the waiting-work hook (:func:`set_waiting_work`) runs
    between attempts, so a worker computes a part of a batch instead of idling."""
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with budget.paused(), open(lock_path, "a+b") as handle:
        try:
            import fcntl
        except ImportError:  # pragma: no cover - Windows: no cross-process lock
            yield
            return
        if not try_lock(handle.fileno()):
            work = _waiting_work
            if threading.current_thread() is not threading.main_thread():
                work = None
            while work is not None and work():
                if try_lock(handle.fileno()):
                    break
            else:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def try_lock(descriptor: int) -> bool:
    """Take an exclusive lock on an open file without waiting: False if another holds it."""
    import fcntl

    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True
