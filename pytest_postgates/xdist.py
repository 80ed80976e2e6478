"""xdist scheduling that keeps every gate of one post on one worker.

Post items are grouped by post file (so a post is parsed once per run and its
short-circuit is decided where its earlier gates ran); every other test is its own unit,
scheduled as in xdist's default "load" mode.

xdist's ``LoadScopeScheduling`` keeps every finished work unit in its books and scans all
of them after each test, and looks each test's index up by a linear search: quadratic in
the number of posts (about 6 s of the controller's CPU on 1,000 posts). This subclass
forgets finished units, indexes collections once, keeps a few posts queued on each worker so
that none waits for the controller, and handles a crashed worker as xdist's "load" mode
does (see :meth:`PostScopeScheduling.remove_node`).

On a cold run every worker starts with a post's first gate. The repository index is the
one piece of run-wide work that cannot be split (the batches are computed in parts, see
``batch.py``), so the second worker builds it before its first item (:func:`prefetch`)
while the first starts on the diagram parts; when the first needs the index it computes
more parts instead of waiting.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from xdist.scheduler import LoadScopeScheduling
from xdist.workermanage import WorkerController

from pytest_postgates.evidence.repo import GitError
from pytest_postgates.gates import BY_NAME, GATES
from pytest_postgates.post import MARKDOWN_SUFFIXES

# The worker that builds the repository index before its first item (gw0 starts the run's
# first diagram part by itself).
INDEX_WORKER = "gw1"

# Items a worker should still have queued before it is sent another post: a post has one
# item per gate, and the round trip through a busy controller takes several of them.
MIN_QUEUED_ITEMS = len(GATES) + 4


class PostScopeScheduling(LoadScopeScheduling):
    def __init__(self, config: pytest.Config, log: object | None = None) -> None:
        super().__init__(config, log)  # type: ignore[arg-type]
        self._positions: dict[WorkerController, dict[str, int]] = {}

    def _split_scope(self, nodeid: str) -> str:
        file_part = nodeid.split("::", 1)[0]
        if file_part.lower().endswith(MARKDOWN_SUFFIXES):
            return file_part
        return nodeid

    def add_node_collection(self, node: WorkerController, collection: Sequence[str]) -> None:
        super().add_node_collection(node, collection)
        if node in self.registered_collections:
            self._positions[node] = {
                nodeid: index for index, nodeid in enumerate(self.registered_collections[node])
            }

    def mark_test_complete(
        self, node: WorkerController, item_index: int, duration: float = 0
    ) -> None:
        nodeid = self.registered_collections[node][item_index]
        scope = self._split_scope(nodeid)
        workload = self.assigned_work[node]
        unit = workload[scope]
        unit[nodeid] = True
        if all(unit.values()):
            # A finished unit has nothing left to crash on or to count as pending.
            del workload[scope]
        self._reschedule(node)

    def _reschedule(self, node: WorkerController) -> None:
        if node.shutting_down:
            return
        while self.workqueue and self._pending_of(self.assigned_work[node]) <= MIN_QUEUED_ITEMS:
            self._assign_work_unit(node)
        if not self.workqueue:
            # A worker holds its last item back until it is told whether more will come,
            # so once nothing is left to send it must hear so now, or it waits forever.
            node.shutdown()

    def _assign_work_unit(self, node: WorkerController) -> None:
        assert self.workqueue
        scope, work_unit = self.workqueue.popitem(last=False)
        self.assigned_work.setdefault(node, {})[scope] = work_unit
        positions = self._positions[node]
        node.send_runtest_some(
            [positions[nodeid] for nodeid, completed in work_unit.items() if not completed]
        )

    def remove_node(self, node: WorkerController) -> str | None:
        """Forget a worker that finished or crashed. After a crash, xdist reports the item
        it was running as failed; as in xdist's "load" mode that item is not run again (a
        deterministic crash would take down every replacement worker). The rest of its post
        and the posts queued behind it go back to the front of the queue."""
        self._positions.pop(node, None)
        workload = self.assigned_work.pop(node)
        crashed = next(
            (
                (scope, nodeid)
                for scope, unit in workload.items()
                for nodeid, completed in unit.items()
                if not completed
            ),
            None,
        )
        if crashed is None:
            return None
        scope, crashitem = crashed
        workload[scope][crashitem] = True
        for unfinished in reversed([s for s, unit in workload.items() if not all(unit.values())]):
            self.workqueue[unfinished] = workload[unfinished]
            self.workqueue.move_to_end(unfinished, last=False)
        for other in list(self.assigned_work):
            self._reschedule(other)
        return crashitem


def prefetch(session: pytest.Session, worker: str) -> bool:
    """On :data:`INDEX_WORKER`, before its first item: build (or load) the index of the
    repository that a selected gate-2 item still to do is grounded against; none when
    every selected gate-2 result is cached (an unchanged rerun needs no index). Any
    uncached item, searched from the last post: by the time this worker starts, gw0 may
    already have done and cached the first posts' gate 2 (or, on a small selection, any
    of them), so no single item tells a cold run from a warm one. Whether it did. A
    repository that cannot be read is left to the gate, which reports it on its posts."""
    if worker != INDEX_WORKER:
        return False
    from pytest_postgates.nodes import GateItem, PostFile

    grounding = BY_NAME["symbol_grounding"]
    item = next(
        (
            item
            for item in reversed(session.items)
            if isinstance(item, GateItem)
            and item.gate.id == grounding.id
            and isinstance(item.parent, PostFile)
            and not item.run.cached(grounding)
        ),
        None,
    )
    if item is None:
        return False
    try:
        item.run.context.evidence.index_for(item.run.path)
    except GitError:
        return False
    return True
