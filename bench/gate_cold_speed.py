"""Cold CPU of single gates on a real corpus, this code side by side with a baseline commit.

Each side runs in a fresh process with an empty cache folder: it parses the posts, builds
the repository index and the prose view gate 1 builds first (not counted), then runs every
offline gate but gate 1 (2, 14, 15, 7, 6, 12, 11, 13; mermaid.js is gate 1's and the judge
gates SKIP offline) post after post in run order, as a serial pytest run does, and charges
each gate the CPU it spent: this process's (every thread: gate 12's lint batch runs in a
pool) and its child processes' (rumdl, git). The baseline is the package at ``--baseline``
exported with ``git archive`` into bench/.work and put first on ``PYTHONPATH``; the
dependencies are this virtualenv's, so only the plugin's code differs. Both sides must
produce byte-identical scorecards (the JSON of every card); the bench says so and exits 1
otherwise.

    python bench/gate_cold_speed.py --repo /work/data/neurolink --ref release
    python bench/gate_cold_speed.py --baseline 0eeec85 --repeat 3
    python bench/gate_cold_speed.py --baseline 34832dc --gates 1,15,4,3,9,10

``--gates`` picks the gates to run (default: every offline gate but 1). Gate 1 is charged
its mermaid.js engines too: they are child processes that live until the run ends, so
they are stopped after the last post and their CPU is added to gate 1's.

Prints, per gate, the median CPU seconds of each side and the ratio, and the sum over the
gates of issue 15's speed point (7, 15, 11, 12, 13: target, the sum halved).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROJECT = HERE.parent
WORK = HERE / ".work"
DEFAULT_POSTS = PROJECT.parent.parent / "shared" / "corpus" / "neurolink-blog" / "_posts"
RUN_GATES = (2, 14, 15, 7, 6, 12, 11, 13)
TARGET_GATES = (7, 15, 11, 12, 13)


def _cpu() -> float:
    own = time.process_time()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own + children.ru_utime + children.ru_stime


def child(
    posts: Path, repo: Path, ref: str, out: Path, run_gates: tuple[int, ...], engines: int
) -> None:
    """In this process: every gate of ``run_gates`` over every post, cold; per-gate CPU as
    JSON on stdout, the cards under ``out``."""
    from pytest_postgates.batch import RunBatches
    from pytest_postgates.config import Settings
    from pytest_postgates.gates import BY_ID, GATES, GateContext
    from pytest_postgates.post import parse_post
    from pytest_postgates.scorecard import dumps

    with tempfile.TemporaryDirectory() as scratch:
        blog = Path(scratch) / "blog"
        shutil.copytree(posts.parent, blog)
        paths = sorted((blog / posts.name).glob("*.md"))
        # The embedded backend, whatever is installed (as the real run finds none).
        try:
            settings = Settings(
                repo=repo, ref=ref, offline=True, run_all=True, lint_backend="rumdl"
            )
        except TypeError:  # per-gate settings dataclasses (issue 14)
            from pytest_postgates.gates.markdownlint import MarkdownlintSettings

            settings = Settings(repo=repo, ref=ref, offline=True, run_all=True).with_gate(
                MarkdownlintSettings(lint_backend="rumdl")
            )
        context = GateContext.create(
            settings, Path(scratch) / "cache", RunBatches(posts=tuple(paths))
        )
        context.evidence.index_for(paths[0])
        if 1 in run_gates:
            # As many mermaid engines on both sides: how many a batch starts otherwise
            # depends on the CPUs idle at that moment, and each start costs a second.
            from pytest_postgates.tools import mermaid

            key = (context.evidence.cache_dir, mermaid.default_engine())
            mermaid._SHARED[key] = mermaid.MermaidParser(
                context.evidence.cache_dir, max_workers=engines
            )
        parsed = [parse_post(path) for path in paths]
        for post in parsed:
            post.prose.lines(html="source", urls=True)  # gate 1 builds it first in a real run
        gates = [gate for gate in GATES if gate.id in run_gates]
        assert {gate.id for gate in gates} == set(run_gates), sorted(BY_ID)
        spent: dict[int, float] = dict.fromkeys(run_gates, 0.0)
        for post in parsed:
            for gate in gates:
                before = _cpu()
                card = gate.evaluate(post, context)
                spent[gate.id] += _cpu() - before
                name = f"{post.path.stem}-gate{gate.id}.json"
                (out / name).write_text(dumps(card.to_dict()), encoding="utf-8")
        if 1 in spent:  # the mermaid engines still running: stopped, their CPU is gate 1's
            before = _cpu()
            mermaid._close_shared()
            spent[1] += _cpu() - before
    print(json.dumps(spent))


def baseline_source(commit: str) -> Path:
    target = WORK / f"source-{commit}"
    if not (target / "pytest_postgates").is_dir():
        shutil.rmtree(target, ignore_errors=True)
        target.mkdir(parents=True)
        archive = subprocess.run(
            ["git", "-C", str(PROJECT), "archive", commit, "pytest_postgates"],
            capture_output=True,
            check=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    return target


def run_side(
    source: Path | None,
    posts: Path,
    repo: Path,
    ref: str,
    out: Path,
    gates: tuple[int, ...],
    engines: int,
) -> dict[int, float]:
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    env = dict(os.environ)
    env["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="gate-cold-cache-")
    env["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(source) if source else str(PROJECT), env.get("PYTHONPATH")])
    )
    command = [
        sys.executable, __file__, "--child", "--posts", str(posts), "--repo", str(repo),
        "--ref", ref, "--out", str(out), "--gates", ",".join(map(str, gates)),
        "--mermaid-engines", str(engines),
    ]  # fmt: skip
    try:
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    finally:
        shutil.rmtree(env["XDG_CACHE_HOME"], ignore_errors=True)
    if done.returncode != 0:
        raise SystemExit(f"side failed:\n{done.stderr[-3000:]}")
    return {int(k): v for k, v in json.loads(done.stdout.strip().splitlines()[-1]).items()}


def differing(left: Path, right: Path) -> list[str]:
    names = sorted({p.name for p in left.iterdir()} | {p.name for p in right.iterdir()})
    return [
        name
        for name in names
        if not (left / name).is_file()
        or not (right / name).is_file()
        or (left / name).read_bytes() != (right / name).read_bytes()
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--posts", type=Path, default=DEFAULT_POSTS)
    parser.add_argument("--repo", type=Path, default=Path("/work/data/neurolink"))
    parser.add_argument("--ref", default="release")
    parser.add_argument("--baseline", default="0eeec85")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument(
        "--gates",
        default=",".join(map(str, RUN_GATES)),
        help="gate ids to run, comma-separated (default: %(default)s)",
    )
    parser.add_argument(
        "--mermaid-engines", type=int, default=1, help="gate 1's mermaid engines (default: 1)"
    )
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    run_gates = tuple(int(part) for part in args.gates.split(","))
    target_gates = TARGET_GATES if set(run_gates) == set(RUN_GATES) else run_gates
    if args.child:
        child(args.posts, args.repo, args.ref, args.out, run_gates, args.mermaid_engines)
        return 0
    if not args.posts.is_dir() or not (args.repo / ".git").exists():
        print(f"needs the posts ({args.posts}) and the repository ({args.repo})")
        return 2
    sides = {"baseline": baseline_source(args.baseline), "current": None}
    runs: dict[str, list[dict[int, float]]] = {side: [] for side in sides}
    cards = {side: WORK / f"gate-cold-cards-{side}" for side in sides}
    for _ in range(args.repeat):
        for side, source in sides.items():  # alternated: load drifts hit both alike
            runs[side].append(
                run_side(
                    source,
                    args.posts,
                    args.repo,
                    args.ref,
                    cards[side],
                    run_gates,
                    args.mermaid_engines,
                )
            )
    differ = differing(cards["baseline"], cards["current"])
    median = {
        side: {gate: statistics.median(run[gate] for run in runs[side]) for gate in run_gates}
        for side in sides
    }
    print(
        f"{len(list(args.posts.glob('*.md')))} posts against {args.repo} at {args.ref}, "
        f"cold, serial, in-process; CPU seconds (median of {args.repeat}), "
        f"baseline {args.baseline} vs this checkout; load average "
        + " ".join(f"{value:.1f}" for value in os.getloadavg())
    )
    print(f"{'gate':>6} {'baseline':>9} {'current':>9} {'ratio':>7}")
    for gate in run_gates:
        base, current = median["baseline"][gate], median["current"][gate]
        mark = " *" if gate in target_gates else ""
        ratio = base / current if current else float("inf")
        print(f"{gate:>6} {base:9.2f} {current:9.2f} {ratio:6.2f}x{mark}")
    base_sum = sum(median["baseline"][gate] for gate in target_gates)
    current_sum = sum(median["current"][gate] for gate in target_gates)
    print(
        f"gates {', '.join(map(str, target_gates))} (*): {base_sum:.2f} s -> {current_sum:.2f} s, "
        f"{base_sum / current_sum:.2f}x (target: the sum halved, >= 2x)"
    )
    total = len(list(cards["current"].iterdir()))
    print(f"scorecards differing from the baseline: {len(differ)} of {total}")
    for name in differ[:20]:
        print(f"  {name}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
