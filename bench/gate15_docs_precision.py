"""Precision of gate 15 (code_samples) on whole docs folders of held-out public projects.

Issue 26's precision figure: "precision >= 90% over gate 15's findings on whole docs folders
of at least 4 held-out projects (sampled, labelled against the source)". This is
``bench/docs_precision.py --gate 15`` (the same projects, pins, seeded sample and Wilson
intervals; gate 15's violations as the findings, its unjudged uses by reason; the labels
and their rules in bench/labels/gate15_docs.jsonl), 15 findings per project unless
``--sample`` says otherwise. ``--results OUT`` records the run with bench/results_json.py
under this bench's name.

    python bench/gate15_docs_precision.py --results bench/results/gate15_docs_precision.json
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import docs_precision

DEFAULT_SAMPLE = 15


def main(argv: Sequence[str] | None = None) -> int:
    given = list(sys.argv[1:] if argv is None else argv)
    # Options given later win, so the caller's --sample overrides this default.
    return docs_precision.main(["--gate", "15", "--sample", str(DEFAULT_SAMPLE), *given])


if __name__ == "__main__":
    raise SystemExit(main())
