"""Gate 15's added cost on a cold corpus run: the same posts, every offline gate, with and
without gate 15, each run in a fresh process with an empty cache (index, tables and
result cache built from nothing), alternated ``--rounds`` times; prints each run's wall
time, the medians side by side and the ratio (target: gate 15 adds < 10%).

    python bench/code_sample_speed.py --posts ../shared/corpus/neurolink-blog/_posts \
        --repo /work/data/neurolink --ref release --rounds 2
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# Every gate that runs offline without judges (the LLM and model gates would SKIP).
WITHOUT = "1,2,14,7,6,12,11,13"
WITH = "1,2,14,15,7,6,12,11,13"


def cold_run(posts: Path, repo: Path, ref: str, only: str) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the pytest process and its children)."""
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        blog = work / "blog"
        shutil.copytree(posts.parent, blog)
        env = {**os.environ, "XDG_CACHE_HOME": str(work / "cache")}
        command = [
            sys.executable, "-m", "pytest", str(blog / posts.name),
            "--postgates-repo", str(repo), "--postgates-ref", ref, "--postgates-offline",
            f"--postgates-only={only}", "--postgates-all", "-p", "no:cacheprovider",
            "-p", "no:randomly", "-q", "--tb=no",
        ]  # fmt: skip
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, cwd=work, env=env, capture_output=True, check=False)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return wall, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--posts", type=Path, required=True)
    parser.add_argument("--repo", type=Path, required=True)
    parser.add_argument("--ref", default="HEAD")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    posts = args.posts.resolve()
    count = len(list(posts.glob("*.md")))
    times: dict[str, list[float]] = {"without": [], "with": []}
    cpus: dict[str, list[float]] = {"without": [], "with": []}
    for round_number in range(args.rounds):
        for label, only in (("without", WITHOUT), ("with", WITH)):
            wall, cpu = cold_run(posts, args.repo, args.ref, only)
            times[label].append(wall)
            cpus[label].append(cpu)
            print(
                f"round {round_number + 1}: {label:<7} gate 15: {wall:6.1f} s wall, "
                f"{cpu:6.1f} s CPU",
                flush=True,
            )
    # CPU time is the steadier figure on a shared machine; wall time is printed too.
    for name, figures in (("wall", times), ("CPU", cpus)):
        without = statistics.median(figures["without"])
        with_ = statistics.median(figures["with"])
        print(
            f"{count} posts, cold, median {name} of {args.rounds}: without gate 15 "
            f"{without:.1f} s, with {with_:.1f} s; gate 15 adds {with_ - without:.1f} s = "
            f"{100 * (with_ - without) / without:.1f}% (target < 10%)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
