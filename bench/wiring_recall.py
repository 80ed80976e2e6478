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
census's contradicted false claims over that estimate. Both figures are printed with a 95%
Wilson interval (recall's on the estimate rounded up, so it leaves out the sample's own
error). With fewer than 10 false claims labelled, the figure is printed with that warning:
it has no meaning yet. It also prints the claims gate 16 contradicts in the posts the
seeds' audit called accurate (:data:`ACCURATE`; the issue wants none).

Held out (``--project owner/name``, repeatable): the same measurement on the docs pages of
a project gate 16 was never tuned on (bench/wiring_holdout.py's clone of the mirror
``$POSTGATES_MIRRORS/<owner>+<name>/repo``, default /work/.mirror), with the rows of
bench/labels/gate16_holdout.jsonl that name the project (its census rows carry a
``subject``; its ``lines`` row says how many lines of the seeded order were labelled), and
the projects pooled.

    python bench/wiring_recall.py [--repo PATH] [--ref release] [--posts DIR]
        [--seed 20261204] [--census FILE] [--sample FILE] [--json OUT]
    python bench/wiring_recall.py --project Textualize/textual [--project ...]
        [--holdout FILE] [--mirrors DIR] [--neurolink] [--json OUT]
    python bench/wiring_recall.py --half tune [--half report]   # the split projects,
        each half pooled apart

``--neurolink`` measures the NeuroLink posts beside the projects (one results file).

``--repo`` defaults to $POSTGATES_NEUROLINK, ``--posts`` to $POSTGATES_NEUROLINK_BLOG;
``--json OUT`` writes the figures for the docs (bench/results_json.py).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CENSUS = HERE / "labels" / "gate16.jsonl"
SAMPLE = HERE / "labels" / "gate16_sample.jsonl"
HOLDOUT = HERE / "labels" / "gate16_holdout.jsonl"
# The posts the seeds' audit called accurate: the ten-eslint post, its clean baseline (it
# scores 0 on gate 13); gate 16 must contradict no claim of theirs.
ACCURATE = ("2026-05-29-ten-eslint-rules-that-hold-neurolink-s-type-system-together.md",)
DEFAULT_SEED = 20261204
CODES = frozenset(
    {"CALLS", "CALL_DIRECTION", "MERMAID_EDGE", "FN_CONTAINS", "SWITCH", "RETURN_TYPE"}
    | {"VISIBILITY"}
)
MEANINGFUL = 10  # false claims labelled before a recall figure means anything
# The held-out projects with internals pages (bench/labels/gate16_holdout.jsonl says how
# they were split, before labelling): rules may be chosen on the tune half only; the
# report half is measured, never used to choose one. ``--half tune|report`` measures
# one, pooled apart from the other.
TUNE_PROJECTS = ("google/pytype", "microsoft/pyright", "vitest-dev/vitest")
REPORT_PROJECTS = ("pydantic/pydantic", "google-gemini/gemini-cli", "conda/conda")
HALVES = {"tune": TUNE_PROJECTS, "report": REPORT_PROJECTS}
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))
from holdout_precision import wilson  # noqa: E402

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
    parser.add_argument("--project", action="append", default=None)
    parser.add_argument(
        "--half",
        action="append",
        choices=sorted(HALVES),
        default=[],
        help="the projects of one half, pooled apart (repeatable)",
    )
    parser.add_argument("--holdout", type=Path, default=HOLDOUT)
    parser.add_argument(
        "--mirrors", type=Path, default=Path(os.environ.get("POSTGATES_MIRRORS", "/work/.mirror"))
    )
    parser.add_argument(
        "--neurolink", action="store_true", help="with --project: the NeuroLink posts too"
    )
    parser.add_argument("--json", type=Path, help="write the figures for the docs here")
    args = parser.parse_args(argv)
    groups = [("held out", list(args.project or []))]
    groups += [(f"{half} half", list(HALVES[half])) for half in args.half]
    args.project = [project for _name, projects in groups for project in projects] or None
    record = _results_run(args)
    measured: list[tuple[str, Figures]] = []
    if not args.project or args.neurolink:
        if args.repo is None or args.posts is None or not args.posts.is_dir():
            print("needs --repo/$POSTGATES_NEUROLINK and --posts/$POSTGATES_NEUROLINK_BLOG")
            return 2
        paths = sorted(args.posts.glob("*.md"))
        planted = _planted()
        with tempfile.TemporaryDirectory() as cache:
            context = planted._context(args.repo, args.ref, Path(cache))
            cards = planted._gate16_cards(paths, context)
        print(f"{len(paths)} posts against {args.repo} at {args.ref}; seed {args.seed}")
        figures = measure(cards, _rows(args.census), _rows(args.sample), args.seed)
        _accurate_posts(cards)
        measured.append((f"NeuroLink posts at {args.ref}", figures))
    rows = _rows(args.holdout) if args.project else []
    for group, projects in groups:
        measured += _group(group, projects, args.mirrors, args.seed, rows)
    if record is not None and args.json:
        _record_figures(record, measured)
        record.write(args.json)
    return 0


@dataclass(frozen=True)
class Figures:
    """One measurement: the census of the read claims and the seeded sample of the rest
    (pooled measurements carry their estimate in ``false_read`` and no sample)."""

    contradicted: int = 0  # claims gate 16 contradicted, labelled true or false
    wrong: int = 0  # ... of which labelled false (the precision's numerator)
    false_read: float = 0  # false claims among the read ones
    sample_false: int = 0  # false claims found in the labelled lines not read
    labelled: int = 0  # lines not read, labelled from the top of the seeded order
    not_read: int = 0  # lines not read in all
    pooled_labels: int = 0  # pooled: the false claims the pooled measurements labelled

    def plus(self, other: Figures) -> Figures:
        """Two measurements pooled; each stratum's sample is scaled to its own frame."""
        return Figures(
            self.contradicted + other.contradicted,
            self.wrong + other.wrong,
            self.false_estimate + other.false_estimate,
            pooled_labels=self.labelled_false + other.labelled_false,
        )

    @property
    def labelled_false(self) -> int:
        """The false claims labels name (not estimated)."""
        return self.pooled_labels or round(self.false_read) + self.sample_false

    @property
    def scaled(self) -> float:
        """The false claims of the lines not read, estimated from their sample."""
        return self.sample_false * self.not_read / self.labelled if self.labelled else 0.0

    @property
    def false_estimate(self) -> float:
        return self.false_read + self.scaled

    def precision(self) -> tuple[float | None, tuple[float, float] | None]:
        share = self.wrong / self.contradicted if self.contradicted else None
        return share, wilson(self.wrong, self.contradicted)

    def recall(self) -> tuple[float | None, tuple[float, float] | None]:
        """Contradicted false claims over the estimated false claims of the frame; the
        interval is Wilson's on that estimate rounded up (the sample's own error is not in
        it, so it is the narrowest honest bound)."""
        estimate = self.false_estimate
        if not estimate:
            return None, None
        return self.wrong / estimate, wilson(self.wrong, math.ceil(estimate))


def measure(
    cards: dict[str, dict[str, Any]],
    census: list[dict[str, Any]],
    sample: list[dict[str, Any]],
    seed: int,
) -> Figures:
    """The census and the sample of one set of posts against their labels, printed."""
    frame, read = strata(cards)
    not_read = [line for line in seeded(frame, seed) if line not in read]
    print(f"frame: {len(frame)} claim lines, {len(read)} read by gate 16, {len(not_read)} not read")
    contradicted, wrong, false_read = _census(cards, census)
    sample_false, labelled = _sample(cards, not_read, sample, seed)
    figures = Figures(contradicted, wrong, false_read, sample_false, labelled, len(not_read))
    _print_figures(figures)
    return figures


def _print_figures(figures: Figures) -> None:
    share, interval = figures.precision()
    print(
        f"  precision of contradicted: {figures.wrong}/{figures.contradicted} labelled false"
        f" ({_pct(share)}, 95% Wilson {_interval(interval)})"
    )
    if figures.labelled:
        print(
            f"false claims: {figures.false_read:g} read + {figures.sample_false} in "
            f"{figures.labelled} of the {figures.not_read} lines not read (about "
            f"{figures.false_estimate:.1f} in the frame); {figures.wrong} contradicted"
        )
    recall, bounds = figures.recall()
    print(
        f"  recall of false claims: {figures.wrong}/{figures.false_estimate:.1f} "
        f"({_pct(recall)}, 95% Wilson {_interval(bounds)})"
    )
    if figures.labelled_false < MEANINGFUL:
        print(
            f"  only {figures.labelled_false} false claims labelled (fewer "
            f"than {MEANINGFUL}): the recall figure has no meaning yet; label more lines "
            "in the seeded order"
        )


def _pct(share: float | None) -> str:
    return "n/a" if share is None else f"{100 * share:.1f}%"


def _interval(bounds: tuple[float, float] | None) -> str:
    return "n/a" if bounds is None else f"{100 * bounds[0]:.1f}-{100 * bounds[1]:.1f}%"


def _accurate_posts(cards: dict[str, dict[str, Any]]) -> None:
    """The claims gate 16 contradicts in the posts the seeds' audit called accurate (the
    done-when wants none)."""
    for name in ACCURATE:
        card = cards.get(name)
        if card is None:
            print(f"accurate post {name}: not in the posts")
            continue
        wrong = [c for c in card["detail"]["claims"] if c["verdict"] == "contradicted"]
        judged = sum(1 for c in card["detail"]["claims"] if c["verdict"] != "unjudged")
        print(
            f"accurate post {name}: {judged} claims judged, {len(wrong)} contradicted"
            + "".join(f"\n  contradicted :{c['line']} {c['evidence'][:160]}" for c in wrong)
        )


def _group(
    group: str, projects: list[str], mirrors: Path, seed: int, rows: list[dict[str, Any]]
) -> list[tuple[str, Figures]]:
    """Each project of a group (the --project ones, or a half) measured, then pooled."""
    held_out: list[tuple[str, Figures]] = []
    for project in projects:
        found = _held_out(project, mirrors, seed, rows)
        if found is not None:
            held_out.append((project, found))
    if len(held_out) > 1:
        total = Figures()
        for _project, found in held_out:
            total = total.plus(found)
        print(f"== {group}, pooled:")
        _print_figures(total)
        held_out.append((f"{group}, pooled", total))
    return held_out


def _held_out(project: str, mirrors: Path, seed: int, rows: list[dict[str, Any]]) -> Figures | None:
    """The measurement on one held-out project's docs pages (bench/wiring_holdout.py's
    clone), with the rows of the held-out label file that name the project."""
    mirror = mirrors / project.replace("/", "+") / "repo"
    if not mirror.is_dir():
        print(f"== {project}: no mirror at {mirror}")
        return None
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    import wiring_holdout

    mine = [r for r in rows if r.get("project") == project]
    with tempfile.TemporaryDirectory() as scratch:
        clone, flat, commit = wiring_holdout.prepare(mirror, Path(scratch))
        paths = sorted(flat.glob("*.md"))
        planted = _planted()
        with tempfile.TemporaryDirectory() as cache:
            cards = planted._gate16_cards(paths, planted._context(clone, "HEAD", Path(cache)))
    labelled_at = {r.get("commit") for r in mine if "lines" in r}
    print(f"== {project} at {commit[:12]}: {len(paths)} docs pages; seed {seed}")
    if labelled_at and not any(commit.startswith(str(c)) for c in labelled_at):
        print(f"  labelled at {sorted(map(str, labelled_at))}, the mirror is at {commit[:12]}")
    return measure(
        cards, [r for r in mine if "subject" in r], [r for r in mine if "subject" not in r], seed
    )


def _results_run(args: argparse.Namespace) -> Any:
    """The results record of this run (bench/results_json.py), started before the work."""
    if not args.json:
        return None
    if str(HERE.parent) not in sys.path:
        sys.path.insert(0, str(HERE.parent))
    from bench.results_json import Run

    settings = {"seed": args.seed, "projects": args.project or [], "ref": args.ref}
    return Run("wiring_recall", settings)


def _record_figures(record: Any, measured: list[tuple[str, Figures]]) -> None:
    rows = record.table(
        "Gate 16 on labelled call-graph claims: precision of contradicted and recall of false"
        " claims (95% Wilson intervals)",
        [
            {"name": "posts", "kind": "label"},
            {"name": "contradicted", "kind": "control"},
            {"name": "precision", "kind": "figure", "unit": "%"},
            {"name": "precision low", "kind": "figure", "unit": "%"},
            {"name": "precision high", "kind": "figure", "unit": "%"},
            {"name": "false claims (estimated)", "kind": "control"},
            {"name": "recall", "kind": "figure", "unit": "%"},
            {"name": "recall low", "kind": "figure", "unit": "%"},
            {"name": "recall high", "kind": "figure", "unit": "%"},
        ],
    )
    for name, figures in measured:
        share, interval = figures.precision()
        recall, bounds = figures.recall()
        rows.append(
            [
                name,
                figures.contradicted,
                *_cells(share, interval),
                round(figures.false_estimate, 1),
                *_cells(recall, bounds),
            ]
        )
    record.notes.append("fewer than 10 labelled false claims leave a recall figure without meaning")


def _cells(share: float | None, bounds: tuple[float, float] | None) -> list[float | None]:
    low, high = bounds or (None, None)
    return [None if v is None else round(100 * v, 1) for v in (share, low, high)]


def _census(cards: dict[str, dict[str, Any]], rows: list[dict[str, Any]]) -> tuple[int, int, int]:
    """The read stratum against its labels: precision, and the false claims (with the
    verdict of each). Returns (contradicted claims labelled true or false, those labelled
    false, false claims read)."""
    labels = {(r["post"], r["line"], r["subject"]): r for r in rows if "subject" in r}
    tally: Counter[tuple[str, str]] = Counter()
    misses: list[str] = []
    judged: set[tuple[str, int, str]] = set()
    read: set[tuple[str, int]] = set()
    for name, card in sorted(cards.items()):
        for claim in card["detail"]["claims"]:
            if "subject" not in claim:
                continue
            judged.add((name, claim["line"], claim["subject"]))
            read.add((name, claim["line"]))
            row = labels.get((name, claim["line"], claim["subject"]))
            label = row["label"] if row is not None else "not labelled"
            tally[claim["verdict"], label] += 1
            if row is None:
                # a claim the gate reads now that the census was not labelled for
                misses.append(
                    f"  not labelled (read) {name}:{claim['line']} {claim['subject']}: "
                    f"{claim['verdict']}"
                )
            if label == "false" and claim["verdict"] != "contradicted":
                misses.append(
                    f"  miss (read) {name}:{claim['line']} {claim['subject']}: "
                    f"{claim['verdict']}: {claim['evidence'][:160]}"
                )
    # A claim the labeller found on a read line that gate 16 did not read (its subject is
    # none of the gate's): in the census, never judged.
    for key, row in sorted(labels.items()):
        if key not in judged and key[:2] in read:
            tally["not read", row["label"]] += 1
            if row["label"] == "false":
                misses.append(f"  miss (on a read line) {key[0]}:{key[1]} {key[2]}")
    wrong = tally["contradicted", "false"]
    contradicted = wrong + tally["contradicted", "true"]
    false = sum(n for (_verdict, label), n in tally.items() if label == "false")
    shown = ", ".join(f"{v} {lab}: {n}" for (v, lab), n in sorted(tally.items()))
    print(f"read (census): {shown or 'none'}")
    print(f"  false claims read: {false}, contradicted {wrong}")
    for miss in misses:
        print(miss)
    return contradicted, wrong, false


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
