"""Shards: ``--postgates-shard K/N`` runs only the posts of shard K of N, for a CI matrix.

A post lands in a shard by a stable hash (BLAKE2b, never Python's salted ``hash()``) of its
path relative to the rootdir with ``/`` separators, so the same post is in the same shard
on every run and on every machine, wherever the checkout is. All of a post's items go
together (one post, one shard), and any other item goes with its file. Every shard still
collects the whole corpus: scorecard stems, internal links and the site model then see
every post, exactly as one run over the corpus does, and only the running is shared out.

Each shard's controller (or only process) writes a manifest into its scorecards folder,
``postgates-shard-K-of-N.json``: the shard's gate records, the overall reports, the order
of every collected item, and where the run's reports went. ``postgates merge`` (merge.py)
rebuilds from N manifests what one run over the corpus writes.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pytest_postgates.fileio import write_atomic

# Where an xdist worker hands its collection order to the controller (workeroutput).
ITEMS_KEY = "postgates_shard_items"
MANIFEST_FORMAT = 1
MANIFEST_GLOB = "postgates-shard-*-of-*.json"
PLUGIN_NAME = "postgates-shard"


@dataclass(frozen=True)
class Shard:
    """Shard ``index`` (1-based) of ``count``."""

    index: int
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    def holds(self, path: str) -> bool:
        return shard_of(path, self.count) == self.index

    def manifest_name(self) -> str:
        return f"postgates-shard-{self.index}-of-{self.count}.json"


def parse_shard(value: object) -> Shard:
    """``"K/N"`` with 1 <= K <= N as a :class:`Shard`; anything else is a ValueError whose
    text says what is expected."""
    text = str(value).strip() if isinstance(value, (str, int)) else ""
    index, slash, count = text.partition("/")
    if slash and index.strip().isdigit() and count.strip().isdigit():
        shard = Shard(int(index), int(count))
        if 1 <= shard.index <= shard.count:
            return shard
    raise ValueError("K/N with 1 <= K <= N, such as 2/4")


def shard_of(path: str, count: int) -> int:
    """The shard (1-based) of the file at ``path`` (relative to the rootdir, ``/``
    separators) among ``count``."""
    digest = hashlib.blake2b(path.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(digest, "big") % count + 1


def item_file(item: pytest.Item) -> str:
    """The rootdir-relative ``/`` path of the file an item belongs to (its node id's first
    part: a post's display path, a test module's path)."""
    return item.nodeid.split("::", 1)[0]


class ShardRun:
    """The shard of this run: deselects other shards' items and writes the manifest."""

    def __init__(self, shard: Shard, scorecards: Path) -> None:
        self.shard = shard
        self.scorecards = scorecards
        self.items: list[str] = []  # every collected item's node id, in collection order
        self.files: dict[str, bool] = {}  # file -> whether it is in this shard
        self.write_error = ""

    def select(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        """Keep this shard's items in ``items``; the others are reported as deselected."""
        self.items = [item.nodeid for item in items]
        kept: list[pytest.Item] = []
        dropped: list[pytest.Item] = []
        for item in items:
            file = item_file(item)
            if file not in self.files:
                self.files[file] = self.shard.holds(file)
            (kept if self.files[file] else dropped).append(item)
        if dropped:
            config.hook.pytest_deselected(items=dropped)
            items[:] = kept
        workeroutput = getattr(config, "workeroutput", None)
        if workeroutput is not None:
            workeroutput[ITEMS_KEY] = self.items

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        # xdist's controller collects nothing itself: a worker tells it the order.
        items = getattr(node, "workeroutput", {}).get(ITEMS_KEY)
        if items and not self.items:
            self.items = list(items)
            for file in dict.fromkeys(nodeid.split("::", 1)[0] for nodeid in self.items):
                self.files[file] = self.shard.holds(file)

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        # After the overall recorder (tryfirst) has decided every overall verdict.
        config = session.config
        if hasattr(config, "workerinput") or config.option.collectonly:
            return
        if session.exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED and self.items:
            # A small corpus leaves some of N shards without posts: not a failed CI job.
            session.exitstatus = pytest.ExitCode.OK
        recorder = config.pluginmanager.get_plugin("postgates-overall")
        if recorder is None:
            return
        path = self.scorecards / self.shard.manifest_name()
        try:
            self.scorecards.mkdir(parents=True, exist_ok=True)
            write_atomic(path, manifest_text(self, config, recorder))
            for stale in self.scorecards.glob(MANIFEST_GLOB):
                if stale != path:  # an earlier run's, of another shard or count
                    stale.unlink()
        except OSError as exc:
            self.write_error = f"postgates: cannot write {path}: {exc.strerror or exc}"
            if session.exitstatus == pytest.ExitCode.OK:
                session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        held = sum(self.files.values())
        terminalreporter.write_line(
            f"postgates: shard {self.shard}: {held} of {len(self.files)} file(s) run here"
        )
        if self.write_error:
            terminalreporter.write_line(self.write_error, red=True, bold=True)


def _relative(path: str | os.PathLike[str] | None, base: Path) -> str | None:
    if path is None:
        return None
    return Path(os.path.relpath(Path(path).resolve(), base.resolve())).as_posix()


def manifest_text(run: ShardRun, config: pytest.Config, recorder: Any) -> str:
    """The shard's manifest: plain JSON (ASCII, so a lone surrogate in a finding survives)."""
    settings = recorder.state.settings
    xmlpath = getattr(config.option, "xmlpath", None)
    junit = None
    if xmlpath:
        junit = os.path.normpath(config.invocation_params.dir / os.path.expanduser(xmlpath))
    source = recorder.source_root()
    data = {
        "format": MANIFEST_FORMAT,
        "shard": [run.shard.index, run.shard.count],
        "items": run.items,
        "records": recorder.records,
        "overall": recorder.overall,
        "source_root": {
            "path": str(source.path),
            "rootdir": str(source.rootdir),
            "in_repository": source.in_repository,
        },
        # Where this run's reports went, relative to the scorecards folder.
        "outputs": {
            "sarif": _relative(settings.sarif, run.scorecards),
            "html": _relative(settings.html, run.scorecards),
            "feedback": _relative(settings.feedback, run.scorecards),
            "junitxml": _relative(junit, run.scorecards),
        },
        "junit_prefix": getattr(config.option, "junitprefix", None),
    }
    return json.dumps(data, sort_keys=True, indent=1) + "\n"
