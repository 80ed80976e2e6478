"""Work done once per test run for all posts, shared by every process of the run.

Some checks are cheapest as one batch over the whole corpus: one linter process for all
posts, one request per URL however many posts link to it, one run of an external audit
script. pytest-mypy's model: the first process that needs a batch result computes it for
every collected post under a file lock and writes it as JSON into the run's scratch folder;
every other process (xdist workers included) reads that file. Outside pytest (unit tests,
library use) a batch is computed once per :class:`RunBatches` in memory.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pytest_postgates import budget
from pytest_postgates.evidence.index import _locked
from pytest_postgates.scorecard import write_atomic

RUN_DIR_KEY = "postgates_run_dir"


class RunBatches:
    """Batch results of one test run, keyed by name."""

    def __init__(self, run_dir: Path | None = None, posts: tuple[Path, ...] = ()) -> None:
        self.run_dir = run_dir
        self.posts = posts  # every collected post of the run, in collection order
        self._memo: dict[str, Any] = {}

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
                with _locked(self.run_dir / f"{name}.lock"):
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
