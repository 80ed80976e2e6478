"""Draw the random sample of findings that gate{2,6,7}.jsonl label (fixed seed).

Runs gates 2, 6 and 7 exactly as bench/precision.py does (same posts, ref, offline), sorts
each gate's findings by (post, line, key) so the order does not depend on the file system,
shuffles them with random.Random(SEED) and writes them, in sample order with their rank,
as JSONL to OUT (default: a scratch file; nothing here is committed except the labels).
The labels cover the first N items of each gate's order (N at least 150 / 25 / 40), so
the labelled set is a uniform random sample of what the gates flagged on the day it was
drawn (main at bc781c7, NeuroLink release 9.80.2).

    python bench/labels/sample.py --repo /work/data/neurolink [--out /tmp/sample.jsonl]
    python bench/labels/sample.py --repo /work/data/neurolink --unlabelled

``--unlabelled`` writes only the current code's findings that no label matches (as
bench/precision.py matches them), with "rank": null, so that findings a changed gate now
reports can be labelled by the same rules and appended to gate{N}.jsonl without disturbing
the seeded sample (the ranked items).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import precision

SEED = 20260701  # the date of NeuroLink 9.80.2, the ref the posts are grounded at
MINIMUM = {2: 150, 6: 25, 7: 40}


def sample_order(findings: list[precision.Finding], seed: int = SEED) -> list[precision.Finding]:
    ordered = sorted(findings, key=lambda f: (f.post, f.line, f.key))
    random.Random(seed).shuffle(ordered)
    return ordered


def unlabelled(gate: int, findings: list[precision.Finding]) -> list[precision.Finding]:
    """The findings that no committed label of this gate matches."""
    path = precision.LABELS_DIR / f"gate{gate}.jsonl"
    labels = precision.load_labels(path) if path.is_file() else []
    return precision.match(findings, labels, gate).unmatched_findings


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo")
    parser.add_argument("--ref", default=precision.DEFAULT_REF)
    parser.add_argument("--posts")
    parser.add_argument("--until", default=precision.DEFAULT_UNTIL)
    parser.add_argument(
        "--out", type=Path, default=Path(tempfile.gettempdir()) / "postgates-sample.jsonl"
    )
    parser.add_argument(
        "--unlabelled", action="store_true", help="only findings no label in bench/labels matches"
    )
    args = parser.parse_args()
    repo, posts = precision.resolve_inputs(args)
    with tempfile.TemporaryDirectory(prefix="postgates-sample-") as scratch:
        runs = precision.run_gates(repo, args.ref, posts, args.until, Path(scratch))
    with args.out.open("w", encoding="utf-8") as out:
        for gate, run in runs.items():
            findings = run.findings
            if args.unlabelled:
                findings = unlabelled(gate, findings)
            for rank, finding in enumerate(sample_order(findings), 1):
                record = {
                    "gate": gate,
                    "rank": None if args.unlabelled else rank,
                    "post": finding.post,
                    "line": finding.line,
                    "key": finding.key,
                    "text": finding.text,
                    **finding.extra,
                }
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
            what = "unlabelled findings" if args.unlabelled else "findings"
            print(f"gate {gate}: {len(findings)} {what} (label at least {MINIMUM[gate]})")
    print(f"sample order written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
