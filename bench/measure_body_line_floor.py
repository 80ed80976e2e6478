"""Calibrate gate 1's body-line floor, and its placeholder patterns, on a real corpus.

Body lines are counted exactly as the gate counts them
(:func:`pytest_postgates.gates.blog_quality.body_line_count`: every line after the front
matter, blank lines and code included, trailing blank lines not). For comparison the
script also shows non-blank body lines, another plausible definition.

A floor that a blog enforced leaves a mark on its published posts: they pile up just above
it (drafts were padded until they passed) and almost none sit just below. For each
candidate floor the script prints the share of posts that pass and the posts in the ten
lines below and above it. Published posts are known-good, so a placeholder pattern that
hits them is a false positive: the script lists every hit.

Usage:

    python bench/measure_body_line_floor.py ../shared/corpus/neurolink-blog/_posts \\
        --compare corpus/_posts [--json bench/results/measure_body_line_floor.json]

``--json OUT`` also writes, for each candidate floor, the share of posts the gate's count
passes beside the share the non-blank count (the control) passes, and the placeholder hits
(bench/results_json.py).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.results_json import Run
from pytest_postgates.gates import blog_quality
from pytest_postgates.post import Post, parse_post

CANDIDATES = (50, 80, 100, 120, 150, 180, 190, 200, 210, 250, 300)
DEFAULT_FOLDER = Path(__file__).resolve().parents[2] / "shared/corpus/neurolink-blog/_posts"


def load(folder: Path) -> list[Post]:
    posts = []
    for path in sorted(folder.glob("*.md")):
        post = parse_post(path)
        if post.fatal_problems:
            print(f"{path.name}: cannot parse: {post.fatal_problems[0].message}", file=sys.stderr)
            continue
        posts.append(post)
    return posts


def nonblank(post: Post) -> int:
    return sum(1 for _, text in post.body_lines() if text.strip())


def percentile(values: list[int], share: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def describe(label: str, values: list[int]) -> None:
    print(
        f"{label}: n={len(values)} min={min(values)} p5={percentile(values, 0.05)} "
        f"p10={percentile(values, 0.10)} p25={percentile(values, 0.25)} "
        f"median={statistics.median(values):g} p75={percentile(values, 0.75)} "
        f"max={max(values)}"
    )
    print(f"  lowest ten: {sorted(values)[:10]}")
    print("  floor  passing          just below [f-10,f)  just above [f,f+10)")
    for floor in CANDIDATES:
        passing = sum(1 for value in values if value >= floor)
        below = sum(1 for value in values if floor - 10 <= value < floor)
        above = sum(1 for value in values if floor <= value < floor + 10)
        print(
            f"  {floor:5d}  {passing:3d}/{len(values)} {100 * passing / len(values):5.1f}%"
            f"      {below:3d}                  {above:3d}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, nargs="?", default=DEFAULT_FOLDER)
    parser.add_argument("--compare", type=Path, help="another folder of posts to compare")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON to this file")
    args = parser.parse_args(argv)
    run = Run("measure_body_line_floor", {"posts": str(args.folder)})

    posts = load(args.folder)
    if not posts:
        print(f"no posts in {args.folder}", file=sys.stderr)
        return 2
    counts = {post.path.name: blog_quality.body_line_count(post) for post in posts}
    print(f"corpus: {args.folder} ({len(posts)} posts)\n")
    describe("body lines (the gate's count)", list(counts.values()))
    print()
    describe("non-blank body lines (for comparison)", [nonblank(post) for post in posts])

    floor = blog_quality.DEFAULT_BODY_LINE_FLOOR
    passing = sum(1 for value in counts.values() if value >= floor)
    print(
        f"\nchosen default floor: {floor} body lines; passes {passing}/{len(counts)} "
        f"({100 * passing / len(counts):.1f}%) of this corpus"
    )
    for name, value in sorted(counts.items(), key=lambda item: item[1]):
        if value < floor:
            print(f"  under the floor: {value:4d}  {name}")

    hits = 0
    print("\nplaceholder hits (published posts: every hit is a false positive):")
    for post in posts:
        for hit in blog_quality.find_placeholders(post):
            hits += 1
            print(f"  {post.path.name}:{hit['line']}: {hit['match']!r}: {hit['text']}")
    print(f"  {hits} hit(s) in {len(posts)} posts")
    if args.json:
        _record(run, posts, counts, hits).write(args.json)

    if args.compare:
        other = load(args.compare)
        values = [blog_quality.body_line_count(post) for post in other]
        if values:
            passing = sum(1 for value in values if value >= floor)
            print(
                f"\ncompare {args.compare}: {len(values)} posts, body lines "
                f"{min(values)}-{max(values)}; the default floor {floor} passes {passing}"
            )
    return 0


def _record(run: Run, posts: list[Post], counts: dict[str, int], hits: int) -> Run:
    """The candidate floors: posts passing under the gate's count (the figure) beside
    those passing under the non-blank count (the control); the default; placeholder hits."""
    run.notes.append(f"{len(posts)} published posts; every placeholder hit is a false positive")
    rows = run.table(
        "Posts passing each candidate floor",
        [
            {"name": "floor (body lines)", "kind": "label"},
            {"name": "passing, the gate's count", "kind": "figure", "unit": "posts"},
            {"name": "passing, the gate's count", "kind": "figure", "unit": "%"},
            {"name": "passing, non-blank count", "kind": "control", "unit": "posts"},
            {"name": "just below the floor (10 lines)", "kind": "figure", "unit": "posts"},
            {"name": "just above the floor (10 lines)", "kind": "figure", "unit": "posts"},
        ],
    )
    values = list(counts.values())
    non_blank = [nonblank(post) for post in posts]
    for floor in CANDIDATES:
        passing = sum(1 for value in values if value >= floor)
        rows.append(
            [
                floor,
                passing,
                round(100 * passing / len(values), 1),
                sum(1 for value in non_blank if value >= floor),
                sum(1 for value in values if floor - 10 <= value < floor),
                sum(1 for value in values if floor <= value < floor + 10),
            ]
        )
    summary = run.table(
        "The default floor and the placeholder patterns",
        [
            {"name": "measure", "kind": "label"},
            {"name": "value", "kind": "figure"},
        ],
    )
    floor = blog_quality.DEFAULT_BODY_LINE_FLOOR
    summary.append(["default floor (body lines)", floor])
    summary.append(["posts passing it", sum(1 for value in values if value >= floor)])
    summary.append(["posts", len(values)])
    summary.append(["placeholder hits", hits])
    return run


if __name__ == "__main__":
    raise SystemExit(main())
