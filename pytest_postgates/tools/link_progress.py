"""Progress lines of an online link check: a 99-link site took 15 s with nothing on the
terminal after collection, which looks like a hang.

One line when the requests start (how many links, on how many hosts, how many the cache
answered), one every :data:`EVERY` links or every :data:`INTERVAL` seconds without one
(a slow host), and one at the end with the time and the count of each status. The lines go
to a ``write`` callable (the plugin's terminal writer), so this module knows nothing of
pytest.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable

EVERY = 25  # links between two progress lines
INTERVAL = 5.0  # seconds: a line at least this often while links are being asked


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


class LinkProgress:
    """Reports one batch of link requests through ``write``."""

    def __init__(
        self,
        write: Callable[[str], None],
        total: int,
        hosts: int,
        answered_early: int = 0,
        *,
        every: int = EVERY,
        interval: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.write = write
        self.total = total
        self.hosts = hosts
        self.every = every
        self.interval = INTERVAL if interval is None else interval
        self.clock = clock
        self.started = self._last_line = clock()
        self._shown = 0
        early = f"; {answered_early} answered without a request" if answered_early else ""
        write(
            f"postgates: checking {_plural(total, 'link')} on {_plural(hosts, 'host')}{early} "
            "(--postgates-offline skips them)..."
        )

    def update(self, done: int) -> None:
        """``done`` of the links are answered (called on each answer, and on each
        :data:`INTERVAL` without one)."""
        if done >= self.total:
            return  # the closing line says it
        now = self.clock()
        if done // self.every > self._shown // self.every or now - self._last_line >= self.interval:
            self.write(f"postgates: checked {done} of {_plural(self.total, 'link')}")
            self._shown, self._last_line = done, now

    def finish(self, statuses: Iterable[str]) -> None:
        """The closing line: the time taken and how many links ended in each status."""
        counts = Counter(statuses)
        by_status = ", ".join(f"{count} {status}" for status, count in sorted(counts.items()))
        self.write(
            f"postgates: checked {_plural(self.total, 'link')} on {_plural(self.hosts, 'host')} "
            f"in {self.clock() - self.started:.1f} s: {by_status}"
        )
