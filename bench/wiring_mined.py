"""Gate 16 held out on mined claims: call-graph claims the maintainers of public projects
removed or rewrote in a documentation fix (bench/labels/gate16_mined.jsonl, its labelling
rules at its top), each gated at the fix's parent; and the claims of the split projects' docs
at their pinned commits that gate 16 lists no claim for (that file's frame B: its rows give the
pinned commit as both ``commit`` and ``parent``).

For each labelled row, a ``git clone --shared --no-checkout`` of the project's mirror
``$POSTGATES_MIRRORS/<owner>+<name>/repo`` (default /work/.mirror), the doc page written
from the parent into the clone (bench/wiring_holdout.py's flat layout), and gate 16 run
against the repository at the parent, as bench/wiring_planted.py runs it. A claim counts as
contradicted when gate 16 contradicts a claim on its line. It prints each row's outcome
(the gate's claims on the line, with their evidence) and, per half (a project of
bench/wiring_recall.py's TUNE_PROJECTS or of :data:`DRAWN_TUNE` is tune, any other
report), the recall of the false
claims and the contradicted true ones (each with a 95% Wilson interval).

    python bench/wiring_mined.py [--labels FILE] [--mirrors DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
LABELS = HERE / "labels" / "gate16_mined.jsonl"
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))
from holdout_precision import wilson  # noqa: E402
from wiring_recall import CODES, TUNE_PROJECTS  # noqa: E402

# Session 15 drew four more projects into the tune half (bench/labels/gate16_mined.jsonl
# says how); they have no census in gate16_holdout.jsonl, so wiring_recall's halves are
# unchanged and only this bench counts them as tune.
DRAWN_TUNE = ("python/mypy", "pyodide/pyodide", "excalidraw/excalidraw", "facebook/lexical")


def _git(*args: str) -> str:
    return subprocess.run(
        ["git", *args], capture_output=True, text=True, errors="replace", check=True
    ).stdout


def page_name(path: str) -> str:
    """The flat name a repository file is gated under (a Markdown name: ``.cursorrules``
    is prose too)."""
    flat = "__".join(Path(path).parts)
    return flat if flat.endswith(".md") else flat + ".md"


def gate_pages(
    mirror: Path, commit: str, pages: dict[str, str | None]
) -> tuple[str, dict[str, list[dict[str, Any]]], dict[str, str]]:
    """Gate 16 on ``pages`` (a repository path, read at ``commit`` when its text is None,
    or a name with its text), written flat into a shared clone of ``mirror`` and gated at
    ``commit``: the full commit, each page's claims and each page's text. The benches of
    gate 16's held-out frames (mined, outsider, agent files) all gate this way."""
    import wiring_planted as planted

    with tempfile.TemporaryDirectory() as scratch:
        clone = Path(scratch) / "clone"
        _git("clone", "-q", "--shared", "--no-checkout", str(mirror), str(clone))
        full = _git("-C", str(clone), "rev-parse", commit).strip()
        flat = clone / "_postgates_docs"
        flat.mkdir()
        files: dict[str, Path] = {}
        texts: dict[str, str] = {}
        for key, given in pages.items():
            text = given if given is not None else _git("-C", str(clone), "show", f"{full}:{key}")
            files[key], texts[key] = flat / page_name(key), text
            files[key].write_text(text, encoding="utf-8")
        with tempfile.TemporaryDirectory() as cache:
            cards = planted._gate16_cards(
                list(files.values()), planted._context(clone, full, Path(cache))
            )
    claims = {key: list(cards[page.name]["detail"]["claims"]) for key, page in files.items()}
    return full, claims, texts


def gate_line(row: dict[str, Any], mirrors: Path) -> tuple[str, list[dict[str, Any]]]:
    """Gate 16's claims on the row's line, the page gated at the row's parent; and the
    parent's full commit (or why the row could not be gated)."""
    mirror = mirrors / str(row["project"]).replace("/", "+") / "repo"
    if not mirror.is_dir():
        return f"no mirror at {mirror}", []
    path = str(row["path"])
    parent, claims, _texts = gate_pages(mirror, str(row["parent"]), {path: None})
    return parent, [c for c in claims[path] if c["line"] == row["line"] and c["code"] in CODES]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--labels", type=Path, default=LABELS)
    parser.add_argument(
        "--mirrors", type=Path, default=Path(os.environ.get("POSTGATES_MIRRORS", "/work/.mirror"))
    )
    args = parser.parse_args(argv)
    rows = [
        json.loads(t)
        for t in args.labels.read_text(encoding="utf-8").splitlines()
        if t.startswith("{")
    ]
    # half -> label -> [contradicted, claims]
    tally: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for row in rows:
        half = "tune" if row["project"] in TUNE_PROJECTS + DRAWN_TUNE else "report"
        parent, found = gate_line(row, args.mirrors)
        contradicted = any(c["verdict"] == "contradicted" for c in found)
        cell = tally[half][row["label"]]
        cell[0] += contradicted
        cell[1] += 1
        print(
            f"{row['project']} {row['path']}:{row['line']} at {parent[:12]} ({half}): "
            f"{row['claim']} [{row['label']}] -> "
            + ("contradicted" if contradicted else "not contradicted")
        )
        for claim in found or [{"code": "-", "verdict": "-", "evidence": "gate 16 lists no claim"}]:
            print(f"    {claim['code']} {claim['verdict']}: {claim['evidence'][:150]}")
    for half in ("tune", "report"):
        for label, what in (
            ("false", "recall of false claims"),
            ("true", "true claims contradicted"),
        ):
            hit, total = tally[half][label]
            bounds = wilson(hit, total)
            shown = "n/a" if bounds is None else f"{100 * bounds[0]:.1f}-{100 * bounds[1]:.1f}%"
            print(f"{half} half, mined: {what}: {hit}/{total} (95% Wilson {shown})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
