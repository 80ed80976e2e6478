"""The run's scratch folders (``postgates-run-*`` in the temporary folder): made with an
owner lock inside, and those of runs that died (SIGKILL, SIGTERM, a lost CI runner)
removed by the next run.

A run holds an exclusive ``flock`` on ``owner.lock`` in its folder for as long as its
process lives; the kernel drops the lock when the process dies however it dies, and unlike
a pid file it cannot be fooled by a reused pid. A folder is stale when that lock can be
taken: the sweeping run takes it, and removes the folder while holding it (so two sweeping
runs never race). The lock file is locked before it gets its name, so a folder is never
seen with an unlocked owner between its creation and its lock. Only folders of the current
user, not links, are looked at; a folder without an owner lock (a run of an older version)
is removed only when it has not been touched for a day.
"""

from __future__ import annotations

import atexit
import os
import shutil
import stat
import tempfile
import time
from pathlib import Path
from typing import IO

PREFIX = "postgates-run-"
OWNER_LOCK = "owner.lock"
# A folder without an owner lock untouched this long is a dead run's (seconds).
UNLOCKED_MAX_AGE = 86400.0

# The owner locks of this process's run folders: kept open (and locked) until the run
# removes its folder, or the process exits.
_held: dict[Path, IO[bytes]] = {}


def create_run_dir() -> Path:
    """A new run folder owned (locked) by this process; stale ones are removed first."""
    base = Path(tempfile.gettempdir())
    remove_stale_run_dirs(base)
    folder = Path(tempfile.mkdtemp(prefix=PREFIX, dir=base))
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: no owner lock, never swept
        return folder
    pending = folder / f".{OWNER_LOCK}.{os.getpid()}"
    handle = open(pending, "a+b")  # noqa: SIM115 - held open for the life of the process
    fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
    os.replace(pending, folder / OWNER_LOCK)
    if not _held:
        atexit.register(_let_go)
    _held[folder] = handle
    return folder


def _let_go() -> None:
    """At exit: the locks go with the process anyway; closed here without a warning."""
    while _held:
        _held.popitem()[1].close()


def remove_run_dir(folder: Path) -> None:
    """Remove this process's run folder, then let go of its owner lock."""
    shutil.rmtree(folder, ignore_errors=True)
    handle = _held.pop(folder, None)
    if handle is not None:
        handle.close()


def remove_stale_run_dirs(base: Path) -> list[Path]:
    """Remove the run folders in ``base`` whose run is gone; returns the ones removed."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover
        return []
    removed = []
    uid = os.getuid()
    try:
        candidates = sorted(base.glob(f"{PREFIX}*"))
    except OSError:
        return []
    for folder in candidates:
        if folder in _held:
            continue
        try:
            info = folder.lstat()
        except OSError:
            continue
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != uid:
            continue  # a link, a file, another user's: never touched
        lock_path = folder / OWNER_LOCK
        try:
            lock_info = lock_path.lstat()
        except FileNotFoundError:
            if time.time() - info.st_mtime > UNLOCKED_MAX_AGE:
                shutil.rmtree(folder, ignore_errors=True)
                removed.append(folder)
            continue
        except OSError:
            continue
        if not stat.S_ISREG(lock_info.st_mode):
            continue
        try:
            flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
            descriptor = os.open(lock_path, flags)
        except OSError:
            continue
        try:
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                continue  # held: that run is alive
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
        finally:
            os.close(descriptor)
    return removed
