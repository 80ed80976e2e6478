"""Sharding cost: N ``--postgates-shard K/N`` runs against one run over the whole corpus.

The NeuroLink blog (``POSTGATES_NEUROLINK_BLOG``) against the NeuroLink repository
(``POSTGATES_NEUROLINK``, ref ``release``), every gate, offline, as bench/real_speed.py runs
it. Each run is one process (``--postgates-jobs=1``: no look-ahead workers, so CPU sums
compare like with like) and has a pytest cache folder of its own, as a CI job has:

- cold: an empty cache folder (repository index, API model, gate results all built);
- warm: the same command again with that run's cache folder, as a CI job restoring the
  cache of its shard at the same commit;
- index: the cold run's cache folder without its gate results (``d/postgates/results``):
  what is left is the repository index, the API model and the tools' caches, so this is
  the cost of gating with the evidence restored, and cold minus index is what building
  the evidence costs each shard.

The shards run one after another, each timed as if it had a machine to itself; the figures
are the slowest shard's wall time against the single run's (issue 29's target: at most
0.35x with 4 shards) and the sum of the shards' CPU against the single run's (at most
1.15x). The control beside them is plain pytest on as many empty tests as the plugin
collects (one module per post, one function per gate), sharded by the same hash through a
conftest: the floor pytest itself sets for a sharded run. The bench also merges the cold
shards' outputs (``postgates merge``) and says whether they are byte for byte the single
run's (scorecards, SARIF, HTML report).

    python bench/shard_speed.py                 # 4 shards, one repetition
    python bench/shard_speed.py --shards 2 --repeat 3
    python bench/shard_speed.py --copies 8 --phases cold   # a 1,040-post corpus

``--copies K`` gates K copies of every post (copy i named ``<stem>-copy<i>.md``, its text
ending in a comment naming the copy, so no copy shares another's cached results): what a
shard pays once (pytest's start, the index and the model) is spread over K times the posts,
as on the thousands-of-pages sites sharding is for.

The floor line: what the shards' CPU would be if the plugin cost nothing more per shard
than pytest itself, i.e. the single run's CPU plus the plain control's extra CPU for
sharding (its shards' sum minus its single run). Where the floor is above the target, no
change to the plugin can meet it on that corpus.

On a shared machine only figures of one bench run are comparable, and wall times move with
the load (printed at the start and the end); CPU times move less.
"""

from __future__ import annotations

import argparse
import filecmp
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
SCRATCH = Path(tempfile.gettempdir()) / f"postgates-shard-speed-{os.getuid()}"
REPO_ENV = "POSTGATES_NEUROLINK"
POSTS_ENV = "POSTGATES_NEUROLINK_BLOG"
PLAIN_CONFTEST = """
import os
from pytest_postgates.shards import shard_of


def pytest_collection_modifyitems(config, items):
    spec = os.environ.get("PLAIN_SHARD")
    if not spec:
        return
    index, count = (int(part) for part in spec.split("/"))
    kept = [item for item in items if shard_of(item.nodeid.split("::")[0], count) == index]
    dropped = [item for item in items if item not in kept]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
    items[:] = kept
"""


@dataclass
class Timing:
    walls: list[float] = field(default_factory=list)
    cpus: list[float] = field(default_factory=list)

    def add(self, wall: float, cpu: float) -> None:
        self.walls.append(wall)
        self.cpus.append(cpu)

    @property
    def wall(self) -> float:
        return sorted(self.walls)[len(self.walls) // 2]

    @property
    def cpu(self) -> float:
        return sorted(self.cpus)[len(self.cpus) // 2]


def run_timed(command: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds of the process tree, and the last line of its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = result.stdout.strip().splitlines()
    last = lines[-1] if lines else f"(no output; stderr: {result.stderr.strip()[-400:]})"
    if result.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)} exited {result.returncode}: {last}")
    return wall, cpu, last


def outputs(folder: Path) -> list[str]:
    return [
        f"--postgates-scorecards={folder}/scorecards",
        f"--postgates-sarif={folder}/postgates.sarif",
        f"--postgates-html={folder}/report.html",
    ]


def same_tree(left: Path, right: Path) -> list[str]:
    """Files that differ or exist on one side only (relative paths)."""
    names = {p.relative_to(left) for p in left.rglob("*") if p.is_file()}
    names |= {p.relative_to(right) for p in right.rglob("*") if p.is_file()}
    return sorted(
        str(name)
        for name in names
        if not (left / name).is_file()
        or not (right / name).is_file()
        or not filecmp.cmp(left / name, right / name, shallow=False)
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--posts", type=Path, default=os.environ.get(POSTS_ENV))
    parser.add_argument("--repo", type=Path, default=os.environ.get(REPO_ENV))
    parser.add_argument("--ref", default="release")
    parser.add_argument("--shards", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--copies", type=int, default=1, help="copies of every post (1)")
    parser.add_argument(
        "--phases", default="cold,warm,index", help="comma-separated: cold, warm, index"
    )
    args = parser.parse_args(argv)
    phases = [phase for phase in ("cold", "warm", "index") if phase in args.phases.split(",")]
    if args.posts is None or args.repo is None or not args.posts.is_dir():
        print(f"needs {POSTS_ENV} (the blog's _posts folder) and {REPO_ENV} (the repository)")
        return 2
    shutil.rmtree(SCRATCH, ignore_errors=True)
    blog = SCRATCH / "blog"
    shutil.copytree(args.posts.parent, blog, ignore=shutil.ignore_patterns(".git"))
    for path in [blog, *blog.rglob("*")]:
        path.chmod(path.stat().st_mode | 0o200)
    copied = blog / args.posts.name
    for post in sorted(copied.glob("*.md")):
        text = post.read_text(encoding="utf-8")
        for copy in range(1, args.copies):
            target = post.with_name(f"{post.stem}-copy{copy}.md")
            target.write_text(f"{text.rstrip()}\n\n<!-- copy {copy} -->\n", encoding="utf-8")
    env = dict(os.environ, PYTEST_ADDOPTS="")
    env.pop("POSTGATES_SHARD", None)
    python = sys.executable
    common = [
        python, "-m", "pytest", args.posts.name, "--rootdir=.",
        f"--postgates-repo={args.repo}", f"--postgates-ref={args.ref}",
        "--postgates-offline", "--postgates-all", "--postgates-jobs=1",
        "-q", "--tb=no", "-p", "no:randomly", "-p", "no:hypothesispytest",
    ]  # fmt: skip
    collected = subprocess.run(
        [*common, "--collect-only", "-p", "no:cacheprovider"],
        cwd=blog, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    items = sum(1 for line in collected.stdout.splitlines() if "::" in line)
    posts = len(list(copied.glob("*.md")))
    per_post = max(1, round(items / max(posts, 1)))
    plain = SCRATCH / "plain"
    plain.mkdir()
    (plain / "conftest.py").write_text(PLAIN_CONFTEST)
    tests = "".join(f"def test_gate_{gate}():\n    pass\n\n\n" for gate in range(per_post))
    for number in range(posts):
        (plain / f"test_post_{number:04d}.py").write_text(tests)
    plain_command = [python, "-m", "pytest", ".", "-q", "-p", "no:randomly"]
    plain_command += ["-p", "no:hypothesispytest", "-p", "no:cacheprovider"]
    subprocess.run([*plain_command, "--collect-only"], cwd=plain, env=env, capture_output=True)

    load_before = os.getloadavg()[0]
    timings: dict[str, Timing] = {}
    shards = [f"{index}/{args.shards}" for index in range(1, args.shards + 1)]
    different: list[str] = []
    for repetition in range(args.repeat):
        run = SCRATCH / f"run-{repetition}"
        sides = {"single": (None, run / "single")}
        sides.update({f"shard {s}": (s, run / f"shard-{s.split('/')[0]}") for s in shards})
        for phase in phases:
            for name, (shard, folder) in sides.items():
                cache = folder / ("cache-index" if phase == "index" else "cache")
                if phase == "cold":
                    shutil.rmtree(cache, ignore_errors=True)
                command = [*common, "-o", f"cache_dir={cache}", *outputs(folder)]
                if shard is not None:
                    command.append(f"--postgates-shard={shard}")
                wall, cpu, _ = run_timed(command, blog, env)
                timings.setdefault(f"{name} {phase}", Timing()).add(wall, cpu)
                if phase == "cold" and "index" in phases:  # the evidence, not the results
                    shutil.copytree(cache, folder / "cache-index")
                    shutil.rmtree(folder / "cache-index" / "d" / "postgates" / "results")
            for name in ("plain single", *(f"plain shard {s}" for s in shards)):
                shard_env = dict(env, PLAIN_SHARD=name.split()[-1]) if "/" in name else env
                wall, cpu, _ = run_timed(plain_command, plain, shard_env)
                timings.setdefault(f"{name} {phase}", Timing()).add(wall, cpu)
        if repetition == 0:
            merged = run / "merged"
            subprocess.run(
                [python, "-m", "pytest_postgates", "merge", "--out", str(merged),
                 *(str(run / f"shard-{s.split('/')[0]}") for s in shards)],
                check=True, capture_output=True,
            )  # fmt: skip
            single = run / "single"
            # The cache folder is each run's own, not an output.
            for folder in (single, *(run / f"shard-{s.split('/')[0]}" for s in shards)):
                for cache in ("cache", "cache-index"):
                    shutil.rmtree(folder / cache, ignore_errors=True)
            different = same_tree(single, merged)
        print(f"repetition {repetition + 1}/{args.repeat} done", file=sys.stderr, flush=True)

    copies = f" ({args.copies} copies of each)" if args.copies > 1 else ""
    print(f"corpus: {posts} posts{copies} in {args.posts}; repository {args.repo} at {args.ref}")
    print(f"items: {items}; plain control: {posts} modules of {per_post} empty tests")
    print(f"shards: {args.shards}, run one after another, each with its own cache folder")
    print(f"repetitions: {args.repeat} (medians); CPU = user + system of the process tree")
    print(f"cpus: {os.cpu_count()}; load average: {load_before:.1f} before, "
          f"{os.getloadavg()[0]:.1f} after")  # fmt: skip
    print()
    print(f"{'run':24} {'wall s':>8} {'cpu s':>8}")
    for name, timing in timings.items():
        print(f"{name:24} {timing.wall:8.2f} {timing.cpu:8.2f}")
    print()
    for phase in phases:
        for side, prefix in (("plugin", ""), ("plain", "plain ")):
            single = timings[f"{prefix}single {phase}"]
            parts = [timings[f"{prefix}shard {s} {phase}"] for s in shards]
            slowest = max(part.wall for part in parts)
            cpu_sum = sum(part.cpu for part in parts)
            print(
                f"{phase:4} {side:6}: slowest shard / single wall {slowest / single.wall:5.2f}x "
                f"(target <= 0.35x); shards' CPU / single CPU {cpu_sum / single.cpu:5.2f}x "
                f"(target <= 1.15x)"
            )
        plain_extra = sum(timings[f"plain shard {s} {phase}"].cpu for s in shards)
        plain_extra -= timings[f"plain single {phase}"].cpu
        single_cpu = timings[f"single {phase}"].cpu
        floor = (single_cpu + plain_extra) / single_cpu
        print(
            f"{phase:4} floor : shards' CPU / single CPU {floor:5.2f}x "
            "if a shard cost the plugin no more than it costs pytest"
        )
    print()
    if different:
        print(f"merged outputs differ from the single run's: {', '.join(different[:10])}")
        return 1
    print("merged outputs of the cold shards: byte for byte the single run's")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
