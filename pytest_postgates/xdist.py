"""xdist scheduling that keeps every gate of one post on one worker.

Post items are grouped by post file (so a post is parsed once per run and its
short-circuit is decided where its earlier gates ran); every other test is its own unit,
scheduled as in xdist's default "load" mode.
"""

from __future__ import annotations

from xdist.scheduler import LoadScopeScheduling

from pytest_postgates.session import MARKDOWN_SUFFIXES


class PostScopeScheduling(LoadScopeScheduling):
    def _split_scope(self, nodeid: str) -> str:
        file_part = nodeid.split("::", 1)[0]
        if file_part.lower().endswith(MARKDOWN_SUFFIXES):
            return file_part
        return nodeid
