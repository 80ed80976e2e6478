"""Clearing a bench run's state between timings without deleting files while it times.

On this machine's ext4 (no journal), the inode allocator skips free inodes whose deletion
is recent (``recently_deleted()``: within 60 s, or 360 s while their inode-table block is
dirty, which a new file in the same block makes it), looking each one up as it goes.
Creating 9,000 files took 6.3 s of kernel CPU a minute after 30,000 were deleted (sync or
not), against 0.4-0.8 s otherwise, and a cold run of bench/corpus_speed.py started right
after the bench deleted the last run's scorecards took 56 s instead of 48 s (jobs 1). That
is a cost of the bench's own clean-up, which plain pytest, writing no files, never pays
and a run on a fresh checkout does not pay either. So a bench moves what it clears into a
trash folder (a rename), deletes the trash after its last timing, and before its first
timing waits out the window after the deletions of an earlier bench.
"""

from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
# When a bench last deleted its trash (seconds since the epoch): one stamp for every bench,
# since the allocator's window is the machine's, not one bench's.
EMPTIED = HERE / ".work" / "trash-emptied"
SETTLE_SECONDS = 370.0


class Trash:
    def __init__(self, folder: Path) -> None:
        self.folder = folder  # on the file system of what it takes (a rename moves it)

    def discard(self, path: Path) -> None:
        """Clear ``path`` at the cost of a rename; its files are deleted by :meth:`empty`."""
        if path.exists() or path.is_symlink():
            self.folder.mkdir(parents=True, exist_ok=True)
            path.rename(self.folder / f"{time.time_ns()}-{path.name}")

    def empty(self) -> None:
        """Delete what was discarded, and note when (see :func:`settle`)."""
        if self.folder.exists():
            shutil.rmtree(self.folder, ignore_errors=True)
            EMPTIED.parent.mkdir(parents=True, exist_ok=True)
            EMPTIED.write_text(f"{time.time()}\n")


def settle() -> None:
    """Wait until the last deletions of a bench's trash no longer slow file creation."""
    try:
        emptied = float(EMPTIED.read_text())
    except (OSError, ValueError):
        return
    wait = SETTLE_SECONDS - (time.time() - emptied)
    if wait > 0:
        print(
            f"  waiting {wait:.0f} s: a bench deleted its trash {time.time() - emptied:.0f} s "
            "ago (file creation is slow for minutes after many deletions; see bench/trash.py)",
            file=sys.stderr,
        )
        time.sleep(wait)
