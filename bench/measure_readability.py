"""Calibrate gate 6 (readability_links) on a real, published corpus.

The default Flesch floor of gate 6 is chosen so that at least 95% of a real blog's prose
paragraphs pass it: published posts are the reference for "readable enough". This script
computes, exactly the way the gate does (same paragraphs, same markup stripping, same
sentence splitter, same syllable rule):

- every prose paragraph's Flesch reading ease and sentence count,
- the distribution (percentiles) and the floor at which >= 95% of scored paragraphs pass,
- the share of paragraphs over the sentence limit (8),
- how many of the corpus's internal links resolve to a post of the corpus, with the
  site's permalink style read from its ``_config.yml``.

Usage (the NeuroLink blog corpus the seeds describe):

    python bench/measure_readability.py ../shared/corpus/neurolink-blog/_posts
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter
from pathlib import Path

from pytest_postgates.config import Settings
from pytest_postgates.gates import readability_links as gate
from pytest_postgates.post import parse_post


def percentile(values: list[float], share: float) -> float:
    """The value at ``share`` (0..1) of the sorted values, nearest-rank method."""
    ordered = sorted(values)
    rank = max(1, math.ceil(share * len(ordered)))
    return ordered[rank - 1]


def calibrated_floor(scores: list[float], pass_share: float = 0.95) -> float:
    """The highest whole-number floor at which at least ``pass_share`` of scores pass."""
    floor = math.floor(percentile(scores, 1 - pass_share))
    while sum(score >= floor + 1 for score in scores) >= pass_share * len(scores):
        floor += 1
    return float(floor)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="folder of Markdown posts (_posts)")
    parser.add_argument("--share", type=float, default=0.95, help="share that must pass")
    parser.add_argument("--show", type=int, default=10, help="lowest paragraphs to list")
    args = parser.parse_args(argv)

    paths = sorted(args.folder.glob("*.md"))
    if not paths:
        print(f"no posts in {args.folder}", file=sys.stderr)
        return 2
    limit = Settings().max_paragraph_sentences
    scored: list[tuple[float, str, gate.Paragraph]] = []
    sentence_counts: list[int] = []
    unscored = 0
    internal = Counter()
    broken: list[str] = []
    errors = 0
    for path in paths:
        post = parse_post(path)
        if post.fatal_problems:
            errors += 1
            print(f"{path.name}: cannot parse: {post.fatal_problems[0].message}", file=sys.stderr)
            continue
        for paragraph in gate.prose_paragraphs(post):
            sentence_counts.append(paragraph.sentences)
            if paragraph.flesch is None:
                unscored += 1
            else:
                scored.append((paragraph.flesch, f"{path.name}:{paragraph.line}", paragraph))
        site = gate.site_index(path, paths)
        for link in gate.links_in(post):
            verdict = gate.judge_internal(link, post, site)
            if verdict is None:
                continue
            internal["resolved" if verdict.resolves else "broken"] += 1
            if not verdict.resolves:
                broken.append(f"{path.name}:{link.line}: {link.url} ({verdict.reason})")

    scores = [score for score, _, _ in scored]
    total = len(sentence_counts)
    print(f"posts: {len(paths) - errors} (unparsable: {errors})")
    print(
        f"prose paragraphs: {total}; scored for Flesch: {len(scores)} "
        f"(under {gate.MIN_SCORED_WORDS} words, not scored: {unscored})"
    )
    print("Flesch reading ease distribution (scored paragraphs):")
    for share in (0.01, 0.02, 0.05, 0.10, 0.25, 0.50, 0.75, 0.90):
        print(f"  p{round(share * 100):>2}: {percentile(scores, share):7.2f}")
    print(f"  min {min(scores):.2f}  max {max(scores):.2f}  mean {sum(scores) / len(scores):.2f}")
    floor = calibrated_floor(scores, args.share)
    passing = sum(score >= floor for score in scores)
    print(
        f"calibrated floor: {floor:g} ({passing}/{len(scores)} = "
        f"{100 * passing / len(scores):.1f}% of scored paragraphs pass; target "
        f">= {100 * args.share:g}%)"
    )
    current = gate.DEFAULT_FLESCH_FLOOR
    passing_now = sum(score >= current for score in scores)
    print(f"gate default floor: {current:g} ({100 * passing_now / len(scores):.1f}% pass)")
    over = sum(count > limit for count in sentence_counts)
    print(f"paragraphs over {limit} sentences: {over}/{total} ({100 * over / total:.1f}%)")
    histogram = Counter(min(count, 12) for count in sentence_counts)
    print(
        "sentences per paragraph: "
        + ", ".join(f"{'12+' if n == 12 else n}: {histogram[n]}" for n in sorted(histogram))
    )
    # A post fails on readability when any one paragraph is under the floor, so the share
    # of whole posts that pass is much lower than the share of paragraphs: print both.
    lowest: dict[str, float] = {}
    for score, where, _ in scored:
        name = where.split(":")[0]
        lowest[name] = min(score, lowest.get(name, score))
    posts = len(lowest)
    for candidate in sorted({floor, current, 0.0, -10.0, -20.0, -30.0}, reverse=True):
        clean = sum(low >= candidate for low in lowest.values())
        print(
            f"  floor {candidate:g}: {clean}/{posts} posts ({100 * clean / posts:.1f}%) have no "
            "paragraph under it"
        )
    post_floor = calibrated_floor(list(lowest.values()), args.share)
    print(
        f"floor at which >= {100 * args.share:g}% of posts have no paragraph under it: "
        f"{post_floor:g}"
    )
    checked = internal["resolved"] + internal["broken"]
    print(
        f"internal post links: {checked}, resolved {internal['resolved']}, "
        f"broken {internal['broken']}"
        + (f" ({100 * internal['resolved'] / checked:.1f}% resolve)" if checked else "")
    )
    targets = Counter(line.split(": ", 1)[1].split(" (", 1)[0] for line in broken)
    print(f"distinct unresolved targets: {len(targets)}; most linked:")
    for target, count in targets.most_common(5):
        print(f"  {count:3d} x {target}")
    for line in broken[: args.show]:
        print(f"  broken: {line}")
    print(f"lowest {args.show} paragraphs:")
    for score, where, paragraph in sorted(scored, key=lambda item: item[0])[: args.show]:
        print(f"  {score:7.2f} {where} ({paragraph.sentences} sentences): {paragraph.excerpt}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
