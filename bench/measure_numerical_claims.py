"""Gate 7 (numerical_claims) on a real, published corpus: before and after the rules of
issue 10, and precision against hand labels.

Runs the gate the way a test run does (same claims, same evidence, same rules) on every
post dated up to ``--until`` (default 2026-06-30: the newest NeuroLink release, 9.80.2 of
2026-07-01, is what those posts can be grounded against) at ``--ref`` of ``--repo``, and
prints side by side:

- posts failing the gate, before (bc781c7: every number no link or evidence cites fails)
  and now;
- uncited numbers before and now, and where the difference went: cited by the
  repository's code (next to a named symbol, a constant named in words, a file's line
  count) or exempt, by rule;
- how many uncited numbers an exemption rule matched but the measured-sounding guard kept;
- with labels (JSONL: post, line, number, label = defect|false|unsure; ``defect`` means
  a real uncited claim), the precision of what the gate still flags (defects / labelled
  flagged, unsure ones left out) and every labelled defect it no longer flags, with the
  rule or citation that took it (a recall warning);
- with ``--show``, every decision (exempt and repository-cited numbers) for review.

    python bench/measure_numerical_claims.py --repo /work/data/neurolink \\
        [--posts ../shared/corpus/neurolink-blog/_posts] [--ref release] \\
        [--labels bench/labels/gate7.jsonl] [--show] \\
        [--json bench/results/measure_numerical_claims.json]

``--json OUT`` also writes the figures for the docs (bench/results_json.py): before (the
control) beside now, and the precision against the labels.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_postgates.config import Settings
from pytest_postgates.gates import GateContext
from pytest_postgates.gates import numerical_claims as gate
from pytest_postgates.helpers.number_cues import FOOTNOTE_CITATION, REPOSITORY_CITATION
from pytest_postgates.post import parse_post

HERE = Path(__file__).resolve().parent
DEFAULT_POSTS = HERE.parent.parent / "shared" / "corpus" / "neurolink-blog" / "_posts"
DEFAULT_LABELS = HERE / "labels" / "gate7.jsonl"
MAX_LINE_SHIFT = 20


@dataclass
class PostResult:
    name: str
    verdict: str
    uncited: list[dict[str, Any]] = field(default_factory=list)
    exempt: list[dict[str, Any]] = field(default_factory=list)
    repository: list[dict[str, Any]] = field(default_factory=list)

    @property
    def uncited_before(self) -> int:
        return len(self.uncited) + len(self.exempt) + len(self.repository)


def run(posts: list[Path], repo: Path, ref: str, cache: Path) -> list[PostResult]:
    context = GateContext.create(Settings(repo=repo, ref=ref, offline=True), cache)
    results = []
    for path in posts:
        card = gate.GATE.evaluate(parse_post(path), context)
        detail = card.detail
        repository = [
            claim
            for claim in detail.get("claims", [])
            if str(claim.get("cited_by") or "").startswith((REPOSITORY_CITATION, FOOTNOTE_CITATION))
        ]
        results.append(
            PostResult(
                path.name,
                card.verdict,
                list(detail.get("uncited", [])),
                list(detail.get("exempt", [])),
                repository,
            )
        )
    return results


def load_labels(path: Path) -> list[dict[str, Any]]:
    labels = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            labels.append(json.loads(line))
    return labels


def pair(
    items: list[dict[str, Any]], labels: list[dict[str, Any]]
) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Greedy pairs of (item, label) with the same post and number, closest lines first."""
    candidates = sorted(
        (abs(int(item["line"]) - int(label["line"])), i, j)
        for i, item in enumerate(items)
        for j, label in enumerate(labels)
        if item["post"] == label["post"]
        and str(item["number"]) == str(label["number"])
        and abs(int(item["line"]) - int(label["line"])) <= MAX_LINE_SHIFT
    )
    used_items: set[int] = set()
    used_labels: set[int] = set()
    pairs = []
    for _distance, i, j in candidates:
        if i in used_items or j in used_labels:
            continue
        used_items.add(i)
        used_labels.add(j)
        pairs.append((items[i], labels[j]))
    return pairs


def report_labels(results: list[PostResult], labels: list[dict[str, Any]]) -> dict[str, int]:
    """Print the figures against the labels; return their counts."""
    flagged = [{**item, "post": r.name} for r in results for item in r.uncited]
    decided = [
        {**item, "post": r.name, "outcome": f"exempt: {item['rule']} ({item['reason']})"}
        for r in results
        for item in r.exempt
    ] + [
        {**item, "post": r.name, "outcome": f"cited: {item['cited_by']}"}
        for r in results
        for item in r.repository
    ]
    still = pair(flagged, labels)
    counts = Counter(str(label["label"]) for _, label in still)
    judged = counts["defect"] + counts["false"]
    print(
        f"labels: {len(labels)}; still flagged: {len(still)} (real uncited claims "
        f"{counts['defect']}, not claims {counts['false']}, unsure {counts['unsure']})"
    )
    if judged:
        low = counts["defect"] / (judged + counts["unsure"])
        high = (counts["defect"] + counts["unsure"]) / (judged + counts["unsure"])
        print(
            f"precision: {100 * counts['defect'] / judged:.1f}% of labelled flagged numbers "
            f"are real uncited claims (unsure as false/true: {100 * low:.1f}%..."
            f"{100 * high:.1f}%; target >= 90%)"
        )
    paired_labels = {id(label) for _, label in still}
    rest = [label for label in labels if id(label) not in paired_labels]
    gone = pair(decided, rest)
    gone_defects = [(item, label) for item, label in gone if label["label"] == "defect"]
    gone_false = sum(label["label"] == "false" for _, label in gone)
    print(
        f"labelled numbers no longer flagged: {len(gone)} ({gone_false} labelled not claims, "
        f"{len(gone_defects)} labelled real claims: recall warnings below)"
    )
    for item, label in gone_defects:
        print(f"  RECALL {label['post']}:{label['line']} {label['number']}: {item['outcome']}")
    unmatched = len(rest) - len(gone)
    if unmatched:
        print(f"  {unmatched} labels match no number of this run (text changed since labelling)")
    for item, label in still:
        if label["label"] == "false":
            print(
                f"  still flagged, labelled not a claim: {item['post']}:{item['line']} "
                f"{item['number']} {item['unit']}: {item['text'][:100]}"
            )
    return {"labels": len(labels), "still_flagged": len(still), "defect": counts["defect"],
            "false": counts["false"], "unsure": counts["unsure"],
            "gone_false": gone_false, "gone_defects": len(gone_defects)}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--repo", type=Path, default=os.environ.get("POSTGATES_NEUROLINK"), help="repository"
    )
    parser.add_argument("--ref", default="release")
    parser.add_argument("--posts", type=Path, default=DEFAULT_POSTS)
    parser.add_argument("--until", default="2026-06-30")
    parser.add_argument("--labels", type=Path, default=DEFAULT_LABELS)
    parser.add_argument("--show", action="store_true", help="print every decision")
    parser.add_argument("--json", type=Path, help="write the figures for the docs here")
    args = parser.parse_args(argv)
    if args.repo is None:
        print("give --repo or set POSTGATES_NEUROLINK", file=sys.stderr)
        return 2
    posts = sorted(path for path in args.posts.glob("*.md") if path.name[:10] <= args.until)
    if not posts:
        print(f"no posts in {args.posts} up to {args.until}", file=sys.stderr)
        return 2
    record = _results_run(args)
    with tempfile.TemporaryDirectory(prefix="postgates-gate7-") as cache:
        results = run(posts, args.repo, args.ref, Path(cache))

    failing_before = sum(r.uncited_before > 0 or r.verdict == "ERROR" for r in results)
    failing_now = sum(r.verdict != "PASS" for r in results)
    before = sum(r.uncited_before for r in results)
    now = sum(len(r.uncited) for r in results)
    print(f"posts: {len(results)} dated up to {args.until}, grounded at {args.repo} {args.ref}")
    print(
        f"posts failing gate 7: before {failing_before}, now {failing_now} "
        f"({len(results) - failing_now} pass)"
    )
    print(f"uncited numbers: before {before}, now {now}")
    repository = [item for r in results for item in r.repository]
    kinds = Counter(
        "a footnote that links a source"
        if item["cited_by"].startswith(FOOTNOTE_CITATION)
        else "the repository's text states it"
        if " states " in item["cited_by"]
        else "in the file of a named class or module"
        if "(in the file of `" in item["cited_by"]
        else "a named file's line count"
        if "lines at the ref" in item["cited_by"]
        else "next to a named symbol"
        if "(near `" in item["cited_by"]
        else "a constant named in words"
        for item in repository
    )
    print(f"  cited by the repository or a footnote: {len(repository)} ({dict(kinds)})")
    rules = Counter(item["rule"] for r in results for item in r.exempt)
    print(
        f"  exempt: {sum(rules.values())} ({', '.join(f'{k} {v}' for k, v in rules.most_common())})"
    )
    kept = sum("measured-sounding" in item.get("note", "") for r in results for item in r.uncited)
    print(f"  uncited and measured-sounding (no rule may exempt them): {kept}")
    counted: dict[str, int] | None = None
    if args.labels and args.labels.is_file():
        counted = report_labels(results, load_labels(args.labels))
    else:
        print(f"no labels at {args.labels}: precision not measured")
    if args.show:
        for r in results:
            for item in r.exempt:
                print(
                    f"  EXEMPT {r.name}:{item['line']} {item['number']} {item['unit']} "
                    f"[{item['rule']}] {item['reason']}"
                )
            for item in r.repository:
                print(
                    f"  CITED {r.name}:{item['line']} {item['number']} {item['unit']} "
                    f"{item['cited_by']}"
                )
    if record is not None and args.json:
        rows = record.table(
            "Posts and numbers, the gate before issue 10's rules (bc781c7: the control) and now",
            [{"name": "posts", "kind": "figure"},
             {"name": "failing before", "kind": "control", "unit": "posts"},
             {"name": "failing now", "kind": "figure", "unit": "posts"},
             {"name": "uncited before", "kind": "control", "unit": "numbers"},
             {"name": "uncited now", "kind": "figure", "unit": "numbers"},
             {"name": "cited by the repository or a footnote", "kind": "figure", "unit": "numbers"},
             {"name": "exempt by a rule", "kind": "figure", "unit": "numbers"},
             {"name": "kept as measured-sounding", "kind": "figure", "unit": "numbers"}],
        )  # fmt: skip
        rows.append(
            [len(results), failing_before, failing_now, before, now, len(repository),
             sum(rules.values()), kept]
        )  # fmt: skip
        if counted is not None:
            record_precision(record, counted)
        record.write(args.json)
    return 0


def _results_run(args: argparse.Namespace) -> Any:
    """The results record of this run (bench/results_json.py), started before the work."""
    if not args.json:
        return None
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench.results_json import Run

    return Run(
        "measure_numerical_claims",
        {"repo": str(args.repo), "ref": args.ref, "posts": str(args.posts), "until": args.until,
         "labels": args.labels.name if args.labels else None},
    )  # fmt: skip


def record_precision(record: Any, counted: dict[str, int]) -> None:
    judged = counted["defect"] + counted["false"]
    bounds = judged + counted["unsure"]

    def percent(part: int, whole: int) -> float | None:
        return round(100 * part / whole, 1) if whole else None

    rows = record.table(
        "Numbers still flagged against the hand labels (target: precision at least 90%)",
        [{"name": "labels", "kind": "figure"},
         {"name": "labelled still flagged", "kind": "figure"},
         {"name": "real uncited claims", "kind": "figure"},
         {"name": "not claims", "kind": "figure"},
         {"name": "unsure", "kind": "figure"},
         {"name": "precision", "kind": "figure", "unit": "%"},
         {"name": "precision, unsure as false", "kind": "figure", "unit": "%"},
         {"name": "precision, unsure as claims", "kind": "figure", "unit": "%"},
         {"name": "labelled not claims no longer flagged", "kind": "figure"},
         {"name": "labelled real claims no longer flagged", "kind": "figure"}],
    )  # fmt: skip
    rows.append(
        [counted["labels"], counted["still_flagged"], counted["defect"], counted["false"],
         counted["unsure"], percent(counted["defect"], judged),
         percent(counted["defect"], bounds),
         percent(counted["defect"] + counted["unsure"], bounds),
         counted["gone_false"], counted["gone_defects"]]
    )  # fmt: skip


if __name__ == "__main__":
    raise SystemExit(main())
