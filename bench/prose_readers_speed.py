"""How long the gates' prose readers take per post: the readers of gates 1, 6, 7, 10 and 11
(paragraphs and sentences, links, blanked lines, claims), called as the gates call them on
freshly parsed posts, parse time excluded.

Run it on this tree and on another (``PYTHONPATH=<other checkout> python
bench/prose_readers_speed.py ...``) to compare: issue 14 step 4 moved these readers into
the prose view (``pytest_postgates/prose.py``), built once per post and shared.

    python bench/prose_readers_speed.py ../shared/corpus/neurolink-blog/_posts --rounds 5
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pytest_postgates
from pytest_postgates.gates import (
    blog_quality,
    claim_review,
    narrative_opening,
    numerical_claims,
    readability_links,
)
from pytest_postgates.post import parse_post


def read_prose(folder: Path) -> tuple[float, int]:
    """(seconds spent in the readers, posts read) for one pass over ``folder``."""
    spent = 0.0
    count = 0
    for path in sorted(folder.glob("*.md")):
        post = parse_post(path)
        if post.fatal_problems:
            continue
        start = time.perf_counter()
        blog_quality.find_placeholders(post)  # gate 1
        readability_links.prose_paragraphs(post)  # gate 6
        readability_links.links_in(post)
        numerical_claims.prose_lines(post)  # gate 7
        claim_review.find_claims(post)  # gate 10
        narrative_opening.prose_blocks(post)  # gate 11
        spent += time.perf_counter() - start
        count += 1
    return spent, count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    times = []
    count = 0
    for _ in range(args.rounds):
        spent, count = read_prose(args.folder)
        times.append(spent)
    best = min(times)
    print(f"package: {Path(pytest_postgates.__file__).parent}")
    print(
        f"{count} posts; prose readers of gates 1, 6, 7, 10, 11: best of {args.rounds} "
        f"{best * 1000:.0f} ms ({best * 1000 / max(1, count):.2f} ms per post), "
        f"median {sorted(times)[len(times) // 2] * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
