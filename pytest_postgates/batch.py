"""Work done once per test run for all posts, shared by every process of the run.

Some checks are cheapest as one batch over the whole corpus: one linter process for all
posts, one request per URL however many posts link to it, one run of an external audit
script. pytest-mypy's model: the first process that needs a batch result computes it for
the posts whose items of the gate are selected (a gate declares the batches it reads, and
``-k one-post`` batches one post) under a file lock and writes it as JSON into the run's
scratch folder; every other process (xdist workers included) reads that file. Outside
pytest (unit tests, library use) a batch is computed once per :class:`RunBatches` in memory.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pytest_postgates import budget
from pytest_postgates.fileio import locked, write_atomic

RUN_DIR_KEY = "postgates_run_dir"


class RunBatches:
    """Batch results of one test run, keyed by name."""

    def __init__(self, run_dir: Path | None = None, posts: tuple[Path, ...] = ()) -> None:
        self.run_dir = run_dir
        self.posts = posts  # every collected post of the run, in collection order
        # Declared batch -> the posts whose items of a gate declaring it are selected; None
        # until the run's selection is known (library use: every post in ``posts``).
        self.selected: dict[str, tuple[Path, ...]] | None = None
        self._memo: dict[str, Any] = {}

    def posts_for(self, batch: str) -> tuple[Path, ...]:
        """The posts a declared batch covers. A batch no gate declared is a bug in the gate
        (its posts would not be scoped to the selection): KeyError."""
        if self.selected is None:
            return self.posts
        return self.selected[batch]

    @classmethod
    def create_run_dir(cls) -> Path:
        return Path(tempfile.mkdtemp(prefix="postgates-run-"))

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
                with locked(self.run_dir / f"{name}.lock"):
                    if path.is_file():
                        result = json.loads(path.read_text(encoding="utf-8"))
                    else:
                        result = compute()
                        write_atomic(path, json.dumps(result, sort_keys=True))
        self._memo[name] = result
        return result

    def remove(self) -> None:
        if self.run_dir is not None:
            shutil.rmtree(self.run_dir, ignore_errors=True)
