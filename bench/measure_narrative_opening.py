"""Measure gate 11 (narrative_opening) on a real, published corpus.

The seeds calibrated gate 11 on a blog's published posts: every one names a real component
near the top and none uses a banned brochure phrase. A published post that this gate fails
is therefore a false positive. This script reports, for a folder of posts:

- how many posts pass the entity check (opening names a real tool/product/protocol/org),
- how many posts hit at least one banned phrase (the false-positive rate of the list),
- every hit, with file and line, so that each can be read.

Usage (the NeuroLink blog corpus that the seeds describe, product package @juspay/neurolink):

    python bench/measure_narrative_opening.py ../shared/corpus/neurolink-blog/_posts \\
        --package @juspay/neurolink [--json bench/results/measure_narrative_opening.json]

``--json OUT`` also writes the counts and each phrase's hits (bench/results_json.py).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.results_json import Run
from pytest_postgates.config import Settings
from pytest_postgates.gates import GateContext, narrative_opening
from pytest_postgates.post import parse_post


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="folder of Markdown posts")
    parser.add_argument("--package", help="the product's package name (names the product)")
    parser.add_argument("--show", type=int, default=40, help="hits to list (default 40)")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON to this file")
    args = parser.parse_args(argv)
    run = Run("measure_narrative_opening", {"posts": str(args.folder), "package": args.package})

    context = GateContext.create(Settings(package=args.package))
    paths = sorted(args.folder.glob("*.md"))
    if not paths:
        print(f"no posts in {args.folder}", file=sys.stderr)
        return 2
    no_entity: list[str] = []
    banned_posts: list[str] = []
    phrase_hits: Counter[str] = Counter()
    hits: list[str] = []
    errors = 0
    for path in paths:
        post = parse_post(path)
        if post.fatal_problems:
            errors += 1
            print(f"{path.name}: cannot parse: {post.fatal_problems[0].message}", file=sys.stderr)
            continue
        card = narrative_opening.GATE.evaluate(post, context)
        if card.detail["entity_count"] == 0:
            no_entity.append(path.name)
        if card.detail["banned_phrase_count"]:
            banned_posts.append(path.name)
        for hit in card.detail["banned_phrases"]:
            phrase_hits[hit["phrase"]] += 1
            hits.append(f"{path.name}:{hit['line']}: {hit['phrase']!r}: {hit['text']}")

    total = len(paths) - errors
    phrases = len(narrative_opening.BUILTIN_BANNED_PHRASES)
    entities = len(narrative_opening.BUILTIN_ENTITIES)
    print(f"posts measured: {total} (unparsable: {errors})")
    print(f"built-in lists: {phrases} banned phrases, {entities} entities")
    passed = total - len(no_entity)
    print(f"entity check passes: {passed}/{total} ({100 * passed / total:.1f}%)")
    rate = 100 * len(banned_posts) / total
    print(f"posts with a banned-phrase hit: {len(banned_posts)}/{total} ({rate:.1f}%)")
    failing = set(no_entity) | set(banned_posts)
    print(
        f"gate 11 false-positive rate: {len(failing)}/{total} ({100 * len(failing) / total:.1f}%)"
    )
    for name in no_entity:
        print(f"  no entity in opening: {name}")
    for phrase, count in phrase_hits.most_common():
        print(f"  phrase {phrase!r}: {count} line(s)")
    for line in hits[: args.show]:
        print(f"  {line}")
    if args.json:
        run.notes.append(
            f"{total} published posts ({errors} unparsable); built-in lists: {phrases} "
            f"banned phrases, {entities} entities; a published post that fails is a false "
            "positive"
        )
        rows = run.table(
            "Gate 11 on published posts",
            [
                {"name": "measure", "kind": "label"},
                {"name": "posts", "kind": "figure", "unit": "posts"},
                {"name": "share", "kind": "figure", "unit": "%"},
            ],
        )
        for label, count in (
            ("entity check passes", passed),
            ("posts with a banned-phrase hit", len(banned_posts)),
            ("posts failing gate 11 (false positives)", len(failing)),
        ):
            rows.append([label, count, round(100 * count / total, 1)])
        # The phrases themselves are not written: a page showing them would use them.
        run.write(args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
