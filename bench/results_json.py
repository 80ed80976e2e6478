"""What a bench writes with ``--json OUT``: its figures with the run's record around them.

Every figure the docs cite is written by the bench that measures it, never typed: the
Benchmarks page (``docs/benchmarks.md``) is rendered from the files in ``bench/results/``
by ``python -m pytest_postgates.docs_pages --update docs`` and names each file as its
evidence, so gate 7 checks every number of the page against the file it came from.

One file per bench run:

    {"schema": 1, "bench": "regex_growth", "command": "python bench/regex_growth.py ...",
     "date": "2026-12-03T23:40:00Z", "commit": "<40 hex>", "worktree_clean": true,
     "machine": {"cpus": 2, "platform": "...", "python": "3.12.3",
                 "load_average_start": [..], "load_average_end": [..]},
     "settings": {...}, "notes": ["..."],
     "tables": [{"title": "...", "columns": [{"name": "pattern", "kind": "label"},
                 {"name": "old regex, 8K", "kind": "control", "unit": "ms"},
                 {"name": "scanner, 8K", "kind": "figure", "unit": "ms"}],
                 "rows": [["suppression directive", 23.6, 0.0]]}]}

A column is a ``label``, a ``figure`` (what the bench measures) or a ``control`` (what the
figure is compared with, measured in the same run): the bench puts each control beside the
figures it controls. A cell is a number (rounded as it is to be shown), a string (``">20
s"``, ``"stopped"``) or null (not measured).
"""

from __future__ import annotations

import json
import os
import platform
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
SCHEMA = 1


def _git(*args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=False
    )
    return done.stdout.strip() if done.returncode == 0 else ""


def load_average() -> list[float]:
    try:
        return [round(value, 2) for value in os.getloadavg()]
    except OSError:  # not every platform has one
        return []


class Run:
    """The record of one bench run: started when made, written by :meth:`write`."""

    def __init__(self, bench: str, settings: dict[str, Any]) -> None:
        self.bench = bench
        self.settings = settings
        self.load_start = load_average()
        # The code measured is the code at the start: a commit made while the bench runs
        # must not be recorded as the one measured.
        self.commit = _git("rev-parse", "HEAD")
        # Uncommitted changes under the package or bench/ make the commit approximate; the
        # results another bench is writing (bench/results/) are not code measured.
        self.clean = (
            _git("status", "--porcelain", "--", "pytest_postgates", "bench", ":!bench/results")
            == ""
        )
        self.tables: list[dict[str, Any]] = []
        self.notes: list[str] = []

    def table(self, title: str, columns: list[dict[str, str]]) -> list[list[Any]]:
        """A new table; append its rows (one cell per column) to the list returned."""
        rows: list[list[Any]] = []
        self.tables.append({"title": title, "columns": columns, "rows": rows})
        return rows

    def record(self) -> dict[str, Any]:
        script = Path(sys.argv[0]).resolve()
        try:
            shown = script.relative_to(ROOT).as_posix()
        except ValueError:
            shown = script.name
        return {
            "schema": SCHEMA,
            "bench": self.bench,
            "command": shlex.join(["python", shown, *sys.argv[1:]]),
            "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "commit": self.commit,
            "worktree_clean": self.clean,
            "machine": {
                "cpus": os.cpu_count(),
                "platform": platform.platform(),
                "python": platform.python_version(),
                "load_average_start": self.load_start,
                "load_average_end": load_average(),
            },
            "settings": self.settings,
            "notes": self.notes,
            "tables": self.tables,
        }

    def write(self, out: Path) -> None:
        out.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(self.record(), indent=2, ensure_ascii=False, sort_keys=True)
        out.write_text(text + "\n", encoding="utf-8")
        print(f"wrote {out}", file=sys.stderr)
