"""Gate 16's recall of false wiring claims, on a seeded sample of the posts' claims.

The frame is every prose line of the posts holding a call-graph claim gate 16 lists
(``CALLS``, ``CALL_DIRECTION``, ``FN_CONTAINS``, ``SWITCH``, ``RETURN_TYPE``,
``VISIBILITY``, and the mermaid edges it reads; opinions and fenced code left out), in
two strata:

- *read*: the lines where gate 16 read a claim's ends (a ``subject``). Every such claim is
  labelled (the census, bench/labels/gate16.jsonl): it gives the precision of
  ``contradicted`` and the false claims the gate read;
- *not read*: the other lines. They are put in a seeded order and labelled from the top
  (bench/labels/gate16_sample.jsonl, which says how many lines were read): every claim a
  labeller finds on a line, true, false or unclear, with why the gate missed a false one.

The false claims of the frame are estimated as those of the census plus those of the
sample scaled to the stratum (lines of the stratum / lines labelled); recall is the
census's contradicted false claims over that estimate. With fewer than 10 false claims
labelled, the figure is printed with that warning: it has no meaning yet.

    python bench/wiring_recall.py [--repo PATH] [--ref release] [--posts DIR]
        [--seed 20261204] [--census FILE] [--sample FILE]

``--repo`` defaults to $POSTGATES_NEUROLINK, ``--posts`` to $POSTGATES_NEUROLINK_BLOG.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CENSUS = HERE / "labels" / "gate16.jsonl"
SAMPLE = HERE / "labels" / "gate16_sample.jsonl"
DEFAULT_SEED = 20261204
CODES = frozenset(
    {"CALLS", "CALL_DIRECTION", "MERMAID_EDGE", "FN_CONTAINS", "SWITCH", "RETURN_TYPE"}
    | {"VISIBILITY"}
)
MEANINGFUL = 10  # false claims labelled before a recall figure means anything

Line = tuple[str, int]


def _planted() -> Any:
    """bench/wiring_planted.py (its gate context and runner), imported as a sibling."""
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    import wiring_planted

    return wiring_planted


def strata(cards: dict[str, dict[str, Any]]) -> tuple[list[Line], set[Line]]:
    """The frame's lines (sorted) and those gate 16 read a claim's ends on."""
    lines: set[Line] = set()
    read: set[Line] = set()
    for name, card in cards.items():
        for claim in card["detail"]["claims"]:
            if claim["code"] not in CODES or claim["evidence"].startswith("a line of fenced"):
                continue
            lines.add((name, claim["line"]))
            if "subject" in claim:
                read.add((name, claim["line"]))
    return sorted(lines), read


def seeded(lines: list[Line], seed: int) -> list[Line]:
    ordered = list(lines)
    random.Random(seed).shuffle(ordered)
    return ordered


def _rows(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        return []
    return [json.loads(t) for t in path.read_text(encoding="utf-8").splitlines() if t[:1] == "{"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", type=Path, default=os.environ.get("POSTGATES_NEUROLINK"))
    parser.add_argument("--posts", type=Path, default=os.environ.get("POSTGATES_NEUROLINK_BLOG"))
    parser.add_argument("--ref", default="release")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--census", type=Path, default=CENSUS)
    parser.add_argument("--sample", type=Path, default=SAMPLE)
    args = parser.parse_args(argv)
    if args.repo is None or args.posts is None or not args.posts.is_dir():
        print("needs --repo/$POSTGATES_NEUROLINK and --posts/$POSTGATES_NEUROLINK_BLOG")
        return 2
    planted = _planted()
    paths = sorted(args.posts.glob("*.md"))
    with tempfile.TemporaryDirectory() as cache:
        cards = planted._gate16_cards(paths, planted._context(args.repo, args.ref, Path(cache)))
    frame, read = strata(cards)
    not_read = [line for line in seeded(frame, args.seed) if line not in read]
    print(
        f"{len(paths)} posts against {args.repo} at {args.ref}; seed {args.seed}; frame: "
        f"{len(frame)} claim lines, {len(read)} read by gate 16, {len(not_read)} not read"
    )
    census_false, census_hit = _census(cards, _rows(args.census))
    sample_false, labelled = _sample(cards, not_read, _rows(args.sample), args.seed)
    if labelled:
        estimate = census_false + sample_false * len(not_read) / labelled
        recall = f"{100 * census_hit / estimate:.1f}%" if estimate else "n/a"
        print(
            f"false claims: {census_false} read + {sample_false} in {labelled} of the "
            f"{len(not_read)} lines not read (about {estimate:.1f} in the frame); "
            f"{census_hit} contradicted: recall {recall}"
        )
        if census_false + sample_false < MEANINGFUL:
            print(
                f"  only {census_false + sample_false} false claims labelled (fewer than "
                f"{MEANINGFUL}): the recall figure has no meaning yet; label more lines "
                "in the seeded order"
            )
    return 0


def _census(cards: dict[str, dict[str, Any]], rows: list[dict[str, Any]]) -> tuple[int, int]:
    """The read stratum against its labels: precision, and the false claims (with the
    verdict of each). Returns (false claims, contradicted ones)."""
    labels = {(r["post"], r["line"], r["subject"]): r for r in rows if "subject" in r}
    tally: Counter[tuple[str, str]] = Counter()
    misses: list[str] = []
    for name, card in sorted(cards.items()):
        for claim in card["detail"]["claims"]:
            if "subject" not in claim:
                continue
            row = labels.get((name, claim["line"], claim["subject"]))
            label = row["label"] if row is not None else "not labelled"
            tally[claim["verdict"], label] += 1
            if label == "false" and claim["verdict"] != "contradicted":
                misses.append(
                    f"  miss (read) {name}:{claim['line']} {claim['subject']}: "
                    f"{claim['verdict']}: {claim['evidence'][:160]}"
                )
    wrong = tally["contradicted", "false"]
    contradicted = sum(n for (verdict, _label), n in tally.items() if verdict == "contradicted")
    precision = f"{100 * wrong / contradicted:.1f}%" if contradicted else "n/a"
    false = sum(n for (_verdict, label), n in tally.items() if label == "false")
    shown = ", ".join(f"{v} {lab}: {n}" for (v, lab), n in sorted(tally.items()))
    print(f"read (census): {shown}")
    print(f"  precision of contradicted: {wrong}/{contradicted} labelled false ({precision})")
    print(f"  false claims read: {false}, contradicted {wrong}")
    for miss in misses:
        print(miss)
    return false, wrong


def _sample(
    cards: dict[str, dict[str, Any]], ordered: list[Line], rows: list[dict[str, Any]], seed: int
) -> tuple[int, int]:
    """The labelled top of the seeded order of the lines not read. Returns (false claims
    found, lines labelled)."""
    heads = [r for r in rows if "lines" in r]
    if not heads:
        print("sample: no labelled sample")
        return 0, 0
    if heads[0].get("seed") != seed:
        print(f"sample: labelled with seed {heads[0].get('seed')}, not {seed}: not used")
        return 0, 0
    top = ordered[: int(heads[0]["lines"])]
    inside = set(top)
    claims = [r for r in rows if "label" in r]
    outside = [r for r in claims if (r["post"], r["line"]) not in inside]
    kept = [r for r in claims if (r["post"], r["line"]) in inside]
    tally = Counter(r["label"] for r in kept)
    print(
        f"sample (not read): the first {len(top)} lines of their seeded order; claims "
        + ", ".join(f"{label}: {n}" for label, n in sorted(tally.items()))
        + (f"; {len(outside)} labels on lines outside it, not used" if outside else "")
    )
    for row in kept:
        if row["label"] != "false":
            continue
        reasons = {
            c["evidence"][:120]
            for c in cards.get(row["post"], {}).get("detail", {}).get("claims", [])
            if c["line"] == row["line"]
        }
        gate = "; ".join(sorted(reasons)) or "gate 16 lists no claim on the line"
        print(f"  miss {row['post']}:{row['line']} {row['claim']}: {row.get('miss', '')}")
        print(f"    gate 16: {gate}")
    return tally["false"], len(top)


if __name__ == "__main__":
    sys.exit(main())
