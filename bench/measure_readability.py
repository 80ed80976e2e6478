"""Calibrate gate 6 (readability_links) on a real, published corpus.

Published posts are the reference for "readable enough": the gate's readability verdict
must pass nearly all of them (target >= 90% of posts), and what it still flags must be
what a careful editor calls hard to read (target >= 80%, checked against hand labels with
``--labels``). This script computes, exactly the way the gate does (same paragraphs, same
markup stripping, same sentence splitter, same syllable rule, same post-level decision):

- every prose paragraph's Flesch reading ease and sentence count, and the distribution;
- the readability verdict per post, before (the rule up to bc781c7: every paragraph of 8
  words or more scored alone with hyphen/slash compounds read as one word, and one
  paragraph under 20 failing the post) and now, side by side;
- a calibration table: posts passing and paragraphs flagged for other floors and shares;
- every flagged paragraph with its score and why (for an editor to read), and, with
  ``--labels FILE`` (JSONL: post, line, text, label = defect|false|unsure), the share of
  labelled flagged paragraphs that are hard to read;
- the share of paragraphs over the sentence limit (8);
- how many of the corpus's internal links resolve to a post of the corpus, with the
  site's permalink style read from its ``_config.yml``.

Usage (the NeuroLink blog corpus the seeds describe):

    python bench/measure_readability.py ../shared/corpus/neurolink-blog/_posts \
        [--labels bench/labels/gate6.jsonl] [--until 2026-06-30] \
        [--json bench/results/measure_readability.json]

``--json OUT`` also writes the figures for the docs (bench/results_json.py): the verdicts
before (the control) beside now, the precision against the labels, the links.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from pytest_postgates import prose
from pytest_postgates.gates import readability_links as gate
from pytest_postgates.helpers import readability
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


LEGACY_FLOOR = 20.0
LEGACY_MIN_WORDS = 8


def legacy_flesch(paragraph: readability.Paragraph) -> float | None:
    """The paragraph's score under the rule up to bc781c7: compounds read as one word
    (punctuation stripped, so "production-ready" was "productionready"), scored from 8
    words."""
    words = prose.words(paragraph.text)
    if len(words) < LEGACY_MIN_WORDS:
        return None
    total = sum(readability.syllables(word) for word in words)
    return readability.flesch_of(len(words), paragraph.sentences, total)


def load_labels(path: Path) -> list[dict[str, object]]:
    labels = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            labels.append(json.loads(line))
    return labels


def _normal(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("`code`", "")).strip().lower()[:60]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="folder of Markdown posts (_posts)")
    parser.add_argument("--share", type=float, default=0.95, help="share that must pass")
    parser.add_argument("--show", type=int, default=10, help="lowest paragraphs to list")
    parser.add_argument(
        "--labels",
        type=Path,
        default=Path(__file__).resolve().parent / "labels" / "gate6.jsonl",
        help="JSONL labels of gate-6 paragraphs (used when the file exists)",
    )
    parser.add_argument("--until", help="only posts dated (by file name) up to this day")
    parser.add_argument(
        "--flagged", action="store_true", help="print every flagged paragraph in full"
    )
    parser.add_argument("--json", type=Path, help="write the figures for the docs here")
    args = parser.parse_args(argv)
    record = _results_run(args)
    figures: dict[str, Any] = {}

    paths = sorted(args.folder.glob("*.md"))
    if args.until:
        paths = [path for path in paths if path.name[:10] <= args.until]
    if not paths:
        print(f"no posts in {args.folder}", file=sys.stderr)
        return 2
    limit = gate.DEFAULT_MAX_PARAGRAPH_SENTENCES  # the limit a blog adopting it sets
    scored: list[tuple[float, str, readability.Paragraph]] = []
    sentence_counts: list[int] = []
    unscored = 0
    internal = Counter()
    broken: list[str] = []
    errors = 0
    by_post: dict[str, list[readability.Paragraph]] = {}
    broken_posts: set[str] = set()
    for path in paths:
        post = parse_post(path)
        if post.fatal_problems:
            errors += 1
            print(f"{path.name}: cannot parse: {post.fatal_problems[0].message}", file=sys.stderr)
            continue
        by_post[path.name] = gate.prose_paragraphs(post)
        for paragraph in by_post[path.name]:
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
                broken_posts.add(path.name)
                broken.append(f"{path.name}:{link.line}: {link.url} ({verdict.reason})")

    scores = [score for score, _, _ in scored]
    total = len(sentence_counts)
    print(f"posts: {len(paths) - errors} (unparsable: {errors})")
    print(
        f"prose paragraphs: {total}; scored for Flesch: {len(scores)} "
        f"(under {readability.MIN_SCORED_WORDS} words, not scored: {unscored})"
    )
    print("Flesch reading ease distribution (scored paragraphs):")
    for share in (0.01, 0.02, 0.05, 0.10, 0.25, 0.50, 0.75, 0.90):
        print(f"  p{round(share * 100):>2}: {percentile(scores, share):7.2f}")
    print(f"  min {min(scores):.2f}  max {max(scores):.2f}  mean {sum(scores) / len(scores):.2f}")
    floor = calibrated_floor(scores, args.share)
    passing = sum(score >= floor for score in scores)
    print(
        f"floor at which >= {100 * args.share:g}% of scored paragraphs pass (the paragraph "
        f"criterion up to bc781c7): {floor:g} ({passing}/{len(scores)} = "
        f"{100 * passing / len(scores):.1f}%)"
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
    failing = report_post_level(by_post, args, figures)
    long_posts = {
        name for name, paragraphs in by_post.items() if any(p.sentences > limit for p in paragraphs)
    }
    whole = failing | long_posts | broken_posts
    print(
        f"gate 6 offline as a whole (readability, sentence limit, internal links): "
        f"{len(by_post) - len(whole)}/{len(by_post)} posts pass; {len(broken_posts)} posts "
        "link a post missing from the corpus folder (a corpus snapshot without every post "
        f"fails them; a full blog would not), {len(long_posts)} have a paragraph over "
        f"{limit} sentences"
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
    print(f"lowest {args.show} scored paragraphs:")
    for score, where, paragraph in sorted(scored, key=lambda item: item[0])[: args.show]:
        print(f"  {score:7.2f} {where} ({paragraph.sentences} sentences): {paragraph.excerpt}")
    if record is not None and args.json:
        figures.update(
            posts=len(by_post), paragraphs=total, over_limit=over, limit=limit,
            whole_passing=len(by_post) - len(whole), broken_posts=len(broken_posts),
            links=checked, links_resolved=internal["resolved"], missing_targets=len(targets),
        )  # fmt: skip
        record_figures(record, figures)
        record.write(args.json)
    return 0


def _results_run(args: argparse.Namespace) -> Any:
    """The results record of this run (bench/results_json.py), started before the work."""
    if not args.json:
        return None
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench.results_json import Run

    return Run(
        "measure_readability",
        {"posts": str(args.folder), "until": args.until,
         "labels": args.labels.name if args.labels and args.labels.is_file() else None},
    )  # fmt: skip


def record_figures(record: Any, figures: dict[str, Any]) -> None:
    verdicts = record.table(
        "Readability verdict, before (bc781c7: any paragraph of 8 words or more under 20 "
        "failed a post, compounds read as one word; the control) and now",
        [{"name": "posts", "kind": "figure"},
         {"name": "passing before", "kind": "control", "unit": "posts"},
         {"name": "passing now", "kind": "figure", "unit": "posts"},
         {"name": "passing now", "kind": "figure", "unit": "%"},
         {"name": "paragraphs flagged before", "kind": "control"},
         {"name": "paragraphs flagged now", "kind": "figure"},
         {"name": "prose paragraphs", "kind": "figure"},
         {"name": f"over {figures['limit']} sentences", "kind": "figure", "unit": "paragraphs"}],
    )  # fmt: skip
    posts = figures["posts"]
    verdicts.append(
        [posts, figures["passing_before"], figures["passing_now"],
         round(100 * figures["passing_now"] / posts, 1) if posts else None,
         figures["flagged_before"], figures["flagged_now"], figures["paragraphs"],
         figures["over_limit"]]
    )  # fmt: skip
    if "labelled" in figures:
        judged = figures["defect"] + figures["false"]
        labels = record.table(
            "Flagged paragraphs against the hand labels (target: precision at least 80%)",
            [{"name": "labels", "kind": "figure"},
             {"name": "labelled still flagged", "kind": "figure"},
             {"name": "hard to read", "kind": "figure"},
             {"name": "not hard", "kind": "figure"},
             {"name": "unsure", "kind": "figure"},
             {"name": "precision", "kind": "figure", "unit": "%"}],
        )  # fmt: skip
        labels.append(
            [figures["labelled"], judged + figures["unsure"], figures["defect"],
             figures["false"], figures["unsure"],
             round(100 * figures["defect"] / judged, 1) if judged else None]
        )  # fmt: skip
    links = record.table(
        "Gate 6 offline as a whole and the corpus's internal post links",
        [{"name": "passing gate 6 as a whole", "kind": "figure", "unit": "posts"},
         {"name": "linking a post missing from the folder", "kind": "figure", "unit": "posts"},
         {"name": "internal post links", "kind": "figure"},
         {"name": "resolved", "kind": "figure", "unit": "links"},
         {"name": "distinct unresolved targets", "kind": "figure"}],
    )  # fmt: skip
    links.append(
        [figures["whole_passing"], figures["broken_posts"], figures["links"],
         figures["links_resolved"], figures["missing_targets"]]
    )  # fmt: skip


def report_post_level(
    by_post: dict[str, list[readability.Paragraph]],
    args: argparse.Namespace,
    figures: dict[str, Any],
) -> set[str]:
    """Posts passing before and now, the calibration table, the flagged paragraphs; returns
    the posts failing on readability now."""
    posts = len(by_post)
    floor = gate.DEFAULT_FLESCH_FLOOR
    post_floor = gate.DEFAULT_POST_FLESCH_FLOOR
    share = gate.DEFAULT_MAX_HARD_PROSE_SHARE
    legacy_failing = 0
    legacy_flagged = 0
    for paragraphs in by_post.values():
        low = [p for p in paragraphs if (score := legacy_flesch(p)) is not None and score < 20]
        legacy_flagged += len(low)
        legacy_failing += bool(low)
    judged = {
        name: readability.judge_readability(paragraphs, floor, post_floor, share)
        for name, paragraphs in by_post.items()
    }
    failing = [name for name, result in judged.items() if result.failed]
    flagged = [(name, p) for name, result in judged.items() for p in result.flagged]
    long_words = sum(len(result.long_words_only) for result in judged.values())
    figures.update(
        passing_before=posts - legacy_failing, passing_now=posts - len(failing),
        flagged_before=legacy_flagged, flagged_now=len(flagged),
    )  # fmt: skip
    print(
        "readability verdict, before (bc781c7: any paragraph of >= 8 words under 20, "
        "compounds as one word) vs now:"
    )
    print(
        f"  posts passing: before {posts - legacy_failing}/{posts} "
        f"({100 * (posts - legacy_failing) / posts:.1f}%), now {posts - len(failing)}/{posts} "
        f"({100 * (posts - len(failing)) / posts:.1f}%; target >= 90%)"
    )
    print(
        f"  paragraphs flagged: before {legacy_flagged}, now {len(flagged)} hard to read "
        f"(under {floor:g} with a sentence of >= {readability.LONG_SENTENCE_WORDS:g} words) in "
        f"{len({name for name, _ in flagged})} posts; {long_words} more under the floor "
        "from long words or plain enumerations (listed, not flagged)"
    )
    print(
        f"  now: paragraph floor {floor:g}, post floor {post_floor:g}, a post fails when its "
        f"prose scores under the post floor or hard paragraphs hold >= {100 * share:g}% "
        f"of its prose words; paragraphs under {readability.MIN_SCORED_WORDS} words are not "
        "scored alone"
    )
    scores = sorted(r.post_flesch for r in judged.values() if r.post_flesch is not None)
    print(
        "  post Flesch (all prose pooled): "
        + ", ".join(f"p{round(q * 100)} {percentile(scores, q):.1f}" for q in (0.01, 0.05, 0.5))
        + f", min {scores[0]:.1f}"
    )
    for name in failing:
        print(f"  failing: {name}: {judged[name].reason}")
    print("calibration (posts passing / paragraphs flagged):")
    header = "  floor \\ share " + "".join(f"{f'{100 * s:g}%':>14}" for s in (0.05, 0.10, 0.15))
    print(header)
    for candidate in (10.0, 15.0, 20.0, 25.0, 30.0):
        cells = []
        for candidate_share in (0.05, 0.10, 0.15):
            results = [
                readability.judge_readability(p, candidate, post_floor, candidate_share)
                for p in by_post.values()
            ]
            passing = sum(not r.failed for r in results)
            cells.append(f"{passing:>4}/{sum(len(r.flagged) for r in results):<4}")
        print(f"  {candidate:>13g} " + "".join(f"{cell:>14}" for cell in cells))
    if args.labels and args.labels.is_file():
        figures.update(report_labels(flagged, load_labels(args.labels)))
    else:
        print(f"no labels at {args.labels}: precision not measured")
    print(f"flagged paragraphs ({len(flagged)}):")
    for name, p in flagged:
        text = p.text.replace(readability.CODE_MARK, "`code`") if args.flagged else p.excerpt
        why = readability.why_hard(p)
        print(f"  {p.flesch:7.2f} {name}:{p.line} ({p.words} words; {why}): {text}")
    return set(failing)


def report_labels(
    flagged: list[tuple[str, readability.Paragraph]], labels: list[dict[str, object]]
) -> dict[str, int]:
    """Precision over labelled paragraphs the gate still flags (unsure ones left out)."""
    index = {(str(label["post"]), _normal(str(label.get("text", "")))): label for label in labels}
    by_line = {(str(label["post"]), int(str(label.get("line", 0)))): label for label in labels}
    counts = {"defect": 0, "false": 0, "unsure": 0}
    not_hard = []
    for name, p in flagged:
        label = index.get((name, _normal(p.excerpt))) or by_line.get((name, p.line))
        if label is not None:
            counts[str(label["label"])] = counts.get(str(label["label"]), 0) + 1
            if label["label"] == "false":
                not_hard.append(
                    f"  still flagged, labelled not hard: {name}:{p.line}: {label.get('why')}"
                )
    judged = counts["defect"] + counts["false"]
    still = judged + counts["unsure"]
    print(
        f"labelled paragraphs: {len(labels)}; still flagged: {still} "
        f"(hard to read {counts['defect']}, not hard {counts['false']}, unsure "
        f"{counts['unsure']})"
        + (f"; precision {100 * counts['defect'] / judged:.1f}% (target >= 80%)" if judged else "")
    )
    for line in not_hard:
        print(line)
    return {"labelled": len(labels), "defect": counts["defect"], "false": counts["false"],
            "unsure": counts["unsure"]}  # fmt: skip


if __name__ == "__main__":
    raise SystemExit(main())
