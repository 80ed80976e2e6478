"""Gate 15 calibration on a real blog: checked names, violations, unjudged lines.

Runs gate 15 (``code_samples``) over every post dated up to ``--until`` against the
repository at ``--ref`` and prints, side by side: posts, checked names, violations by
kind, unjudged lines by reason class. With ``--labels`` it joins the violations with
their labels (``bench/labels/gate15.jsonl``: one JSON object per violation, keyed by
post, line and name, labelled ``defect`` or ``gate_error``) and prints the precision;
an unlabelled violation is listed, never guessed. ``--dump FILE`` writes every violation
and unjudged line as JSON lines for reading and labelling.

    python bench/code_sample_calibration.py --posts ../shared/corpus/neurolink-blog/_posts \
        --repo /work/data/neurolink --ref release --labels bench/labels/gate15.jsonl \
        [--json bench/results/code_sample_calibration.json]

``--json OUT`` also writes the figures for the docs (bench/results_json.py).
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from pytest_postgates.config import Settings
from pytest_postgates.gates import GateContext, code_samples
from pytest_postgates.post import parse_post

HERE = Path(__file__).resolve().parent
DATE = re.compile(r"^(\d{4}-\d{2}-\d{2})-")


def reason_class(reason: str) -> str:
    """A short class of an unjudged reason, for the table."""
    for needle, label in (
        ("chain beyond one member", "chain beyond one member"),
        ("type of the value", "value of unknown type"),
        ("whose members are not tabled", "members of a function/constant"),
        ("outside the tables", "external re-export or base class"),
        ("placeholder", "placeholder"),
        ("does not resolve", "specifier does not resolve (gate 14)"),
        ("default command", "CLI default command"),
        ("no framework", "CLI framework not read"),
        ("spreads", "object with spread keys"),
        ("cannot follow", "base class not followed"),
    ):
        if needle in reason:
            return label
    return "other"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--posts", type=Path, required=True)
    parser.add_argument("--repo", type=Path, required=True)
    parser.add_argument("--ref", default="HEAD")
    parser.add_argument("--until", default="2026-06-30", help="last post date included")
    parser.add_argument("--labels", type=Path, default=HERE / "labels" / "gate15.jsonl")
    parser.add_argument("--dump", type=Path, help="write violations and unjudged lines here")
    parser.add_argument("--json", type=Path, help="write the figures for the docs here")
    args = parser.parse_args()
    record = _results_run(args)
    posts = sorted(
        p for p in args.posts.glob("*.md") if DATE.match(p.name) and p.name[:10] <= args.until
    )
    settings = Settings(repo=args.repo, ref=args.ref, offline=True)
    with tempfile.TemporaryDirectory() as cache:
        context = GateContext.create(settings, Path(cache))
        start = time.perf_counter()
        cards = {p.name: code_samples.GATE.evaluate(parse_post(p), context) for p in posts}
        elapsed = time.perf_counter() - start
    checked = sum(int(c.detail.get("checked", 0)) for c in cards.values())
    violations = [(name, v) for name, c in cards.items() for v in c.detail.get("violations", [])]
    unjudged = [(name, u) for name, c in cards.items() for u in c.detail.get("unjudged", [])]
    errors = [name for name, c in cards.items() if c.verdict == "ERROR"]
    print(f"posts dated <= {args.until}: {len(posts)} ({len(errors)} ERROR) in {elapsed:.1f} s")
    print(f"checked names: {checked}; violations: {len(violations)}; unjudged: {len(unjudged)}")
    for kind, count in collections.Counter(v["kind"] for _, v in violations).most_common():
        print(f"  violations {kind:<16} {count}")
    for label, count in collections.Counter(
        reason_class(u["reason"]) for _, u in unjudged
    ).most_common():
        print(f"  unjudged   {label:<38} {count}")
    if args.dump:
        with args.dump.open("w", encoding="utf-8") as out:
            for name, v in violations:
                out.write(json.dumps({"post": name, "type": "violation", **v}) + "\n")
            for name, u in unjudged:
                out.write(json.dumps({"post": name, "type": "unjudged", **u}) + "\n")
    if args.labels.is_file():
        labels = {}
        for raw in args.labels.read_text(encoding="utf-8").splitlines():
            if raw.strip() and not raw.lstrip().startswith("//"):
                row = json.loads(raw)
                if "post" in row:
                    labels[(row["post"], row["line"], row["name"])] = row["label"]
        tally = collections.Counter()
        unlabelled = []
        for name, v in violations:
            label = labels.get((name, v["line"], v["name"]))
            if label is None:
                unlabelled.append((name, v))
            else:
                tally[label] += 1
        labelled = tally["defect"] + tally["gate_error"]
        if labelled:
            share = 100 * tally["defect"] / labelled
            print(f"precision: {tally['defect']}/{labelled} = {share:.1f}% (labels {args.labels})")
        for name, v in unlabelled:
            print(f"  UNLABELLED {name}:{v['line']} {v['kind']} {v['name']}: {v['reason']}")
        if record is not None:
            precision = record.table(
                "Violations against the hand labels (bench/labels/gate15.jsonl)",
                [{"name": "violations", "kind": "figure"},
                 {"name": "labelled a defect", "kind": "figure"},
                 {"name": "labelled a gate error", "kind": "figure"},
                 {"name": "unlabelled", "kind": "figure"},
                 {"name": "precision", "kind": "figure", "unit": "%"}],
            )  # fmt: skip
            share = round(100 * tally["defect"] / labelled, 1) if labelled else None
            precision.append(
                [len(violations), tally["defect"], tally["gate_error"], len(unlabelled), share]
            )
    if record is not None and args.json:
        record_counts(record, len(posts), len(errors), checked, violations, unjudged)
        record.write(args.json)
    return 0


def _results_run(args: argparse.Namespace) -> Any:
    """The results record of this run (bench/results_json.py), started before the work."""
    if not args.json:
        return None
    sys.path.insert(0, str(HERE.parent))
    from bench.results_json import Run

    return Run(
        "code_sample_calibration",
        {"repo": str(args.repo), "ref": args.ref, "posts": str(args.posts),
         "until": args.until, "labels": args.labels.name if args.labels.is_file() else None},
    )  # fmt: skip


def record_counts(
    record: Any,
    posts: int,
    errors: int,
    checked: int,
    violations: list[tuple[str, dict[str, Any]]],
    unjudged: list[tuple[str, dict[str, Any]]],
) -> None:
    counts = record.table(
        "Gate 15 over the posts: names checked, violations, unjudged lines",
        [{"name": "posts", "kind": "figure"},
         {"name": "ERROR", "kind": "figure", "unit": "posts"},
         {"name": "names checked", "kind": "figure"},
         {"name": "violations", "kind": "figure"},
         {"name": "unjudged lines", "kind": "figure"}],
    )  # fmt: skip
    counts.append([posts, errors, checked, len(violations), len(unjudged)])
    kinds = record.table(
        "Violations by kind and unjudged lines by reason",
        [{"name": "outcome", "kind": "label"},
         {"name": "class", "kind": "label"},
         {"name": "count", "kind": "figure"}],
    )  # fmt: skip
    for kind, count in collections.Counter(v["kind"] for _, v in violations).most_common():
        kinds.append(["violation", kind, count])
    reasons = collections.Counter(reason_class(u["reason"]) for _, u in unjudged)
    for label, count in reasons.most_common():
        kinds.append(["unjudged", label, count])


if __name__ == "__main__":
    sys.exit(main())
