"""Gate 15's added cost on a cold corpus run: the same posts, every offline gate, with and
without gate 15, each run in a fresh process with an empty cache (index, tables and
result cache built from nothing), alternated ``--rounds`` times; prints each run's wall
time, the medians side by side and the ratio (target: gate 15 adds < 10%).

    python bench/code_sample_speed.py --posts ../shared/corpus/neurolink-blog/_posts \
        --repo /work/data/neurolink --ref release --rounds 2

``--json OUT`` writes the figures for the docs (bench/results_json.py): each round's two
runs side by side with their difference, and the medians with the control beside them
(the spread of the runs without gate 15: the noise floor the figure sits on).

On a loaded machine the two runs' CPU times move by more than gate 15 costs, so
``--gate-only`` also prints the gate's own CPU: each round a fresh process with an empty
cache builds the index and parses the posts (shared with the other gates, not counted),
then times gate 15 alone over every post (the tables built from nothing), with the share
of the median CPU of the full runs without gate 15 when those ran too.
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


def gate_only_child(posts: Path, repo: Path, ref: str) -> None:
    """In this process: gate 15 over every post, cold; prints its CPU seconds."""
    from pytest_postgates.config import Settings
    from pytest_postgates.gates import GateContext, code_samples
    from pytest_postgates.post import parse_post

    paths = sorted(posts.glob("*.md"))
    with tempfile.TemporaryDirectory() as cache:
        context = GateContext.create(Settings(repo=repo, ref=ref, offline=True), Path(cache))
        context.evidence.index_for(paths[0])  # the index is every gate's, built before
        parsed = [parse_post(path) for path in paths]
        start = time.process_time()
        for post in parsed:
            code_samples.GATE.evaluate(post, context)
        print(f"{time.process_time() - start:.3f}")


def gate_only(posts: Path, repo: Path, ref: str) -> float:
    command = [
        sys.executable, __file__, "--gate-only-child", "--posts", str(posts),
        "--repo", str(repo), "--ref", ref,
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return float(done.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--posts", type=Path, required=True)
    parser.add_argument("--repo", type=Path, required=True)
    parser.add_argument("--ref", default="HEAD")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--gate-only", action="store_true", help="also time gate 15 alone")
    parser.add_argument("--skip-runs", action="store_true", help="only the --gate-only rounds")
    parser.add_argument("--json", type=Path, help="write the figures for the docs here")
    parser.add_argument("--gate-only-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    posts = args.posts.resolve()
    if args.gate_only_child:
        gate_only_child(posts, args.repo, args.ref)
        return 0
    count = len(list(posts.glob("*.md")))
    runs = not args.skip_runs
    times: dict[str, list[float]] = {"without": [], "with": []}
    cpus: dict[str, list[float]] = {"without": [], "with": []}
    gate_cpus: list[float] = []
    for round_number in range(args.rounds if runs else 0):
        for label, only in (("without", WITHOUT), ("with", WITH)):
            wall, cpu = cold_run(posts, args.repo, args.ref, only)
            times[label].append(wall)
            cpus[label].append(cpu)
            print(
                f"round {round_number + 1}: {label:<7} gate 15: {wall:6.1f} s wall, "
                f"{cpu:6.1f} s CPU",
                flush=True,
            )
    if args.gate_only:
        for round_number in range(args.rounds):
            gate_cpus.append(gate_only(posts, args.repo, args.ref))
            print(f"round {round_number + 1}: gate 15 alone: {gate_cpus[-1]:6.2f} s CPU")
        alone = statistics.median(gate_cpus)
        line = f"{count} posts, cold, median CPU of gate 15 alone ({len(gate_cpus)}): {alone:.2f} s"
        if runs:
            without = statistics.median(cpus["without"])
            line += f" = {100 * alone / without:.1f}% of the run without it ({without:.1f} s)"
        print(line)
    if not runs:
        return 0
    # CPU time is the steadier figure on a shared machine; wall time is printed too.
    for name, figures in (("wall", times), ("CPU", cpus)):
        without = statistics.median(figures["without"])
        with_ = statistics.median(figures["with"])
        print(
            f"{count} posts, cold, median {name} of {args.rounds}: without gate 15 "
            f"{without:.1f} s, with {with_:.1f} s; gate 15 adds {with_ - without:.1f} s = "
            f"{100 * (with_ - without) / without:.1f}% (target < 10%)"
        )
    # The control: each round's two runs side by side. Their differences spread as far as
    # the machine moves between two runs; the median above is as sure as that spread.
    paired = sorted(w - o for w, o in zip(cpus["with"], cpus["without"], strict=True))
    floor = max(cpus["without"]) - min(cpus["without"])
    print(
        f"paired CPU differences (with - without, each round): "
        f"{', '.join(f'{d:+.1f}' for d in paired)} s, median {statistics.median(paired):+.1f} s; "
        f"runs without gate 15 alone spread {floor:.1f} s (the noise floor)"
    )
    if args.json:
        write_results(args, count, times, cpus, gate_cpus)
    return 0


def write_results(
    args: argparse.Namespace,
    count: int,
    times: dict[str, list[float]],
    cpus: dict[str, list[float]],
    gate_cpus: list[float],
) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench.results_json import Run

    run = Run("code_sample_speed", {"posts": count, "ref": args.ref, "rounds": args.rounds})
    rounds = run.table(
        "Cold runs over the posts, each round's two runs side by side",
        [
            {"name": "round", "kind": "label"},
            {"name": "CPU without gate 15", "kind": "control", "unit": "s"},
            {"name": "CPU with gate 15", "kind": "figure", "unit": "s"},
            {"name": "CPU difference", "kind": "figure", "unit": "s"},
            {"name": "wall without gate 15", "kind": "control", "unit": "s"},
            {"name": "wall with gate 15", "kind": "figure", "unit": "s"},
        ],
    )
    for number in range(len(cpus["with"])):
        without, with_ = cpus["without"][number], cpus["with"][number]
        rounds.append([str(number + 1), round(without, 1), round(with_, 1),
                       round(with_ - without, 1), round(times["without"][number], 1),
                       round(times["with"][number], 1)])  # fmt: skip
    summary = run.table(
        "What gate 15 adds to a cold run's CPU (target < 10%), with the noise floor",
        [{"name": "measure", "kind": "label"}, {"name": "value", "kind": "figure"}],
    )
    without, with_ = statistics.median(cpus["without"]), statistics.median(cpus["with"])
    paired = [w - o for w, o in zip(cpus["with"], cpus["without"], strict=True)]
    summary += [
        ["median CPU without gate 15 (s)", round(without, 1)],
        ["median CPU with gate 15 (s)", round(with_, 1)],
        ["gate 15 adds, medians (s)", round(with_ - without, 1)],
        ["gate 15 adds, medians (%)", round(100 * (with_ - without) / without, 1)],
        ["median of the rounds' differences (s)", round(statistics.median(paired), 1)],
        ["control: spread of the runs without gate 15 (s)",
         round(max(cpus["without"]) - min(cpus["without"]), 1)],
    ]  # fmt: skip
    if gate_cpus:
        summary.append(["gate 15 alone, cold, model build included (s)",
                        round(statistics.median(gate_cpus), 2)])  # fmt: skip
    run.notes.append(
        "CPU of the pytest process and its children; the runs without and with gate 15 "
        "alternate, each in a fresh process with an empty cache"
    )
    run.write(args.json)


if __name__ == "__main__":
    sys.exit(main())
