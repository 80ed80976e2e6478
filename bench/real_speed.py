"""Real-corpus speed: the NeuroLink blog against the NeuroLink repository, every gate,
offline, this code side by side with the plugin as it was (installed from git) and with
plain pytest.

Times, in one run and repeated (``--repeat``, medians reported; the machine is shared, so
only figures of the same run are compared):

- cold serial: empty pytest cache folder (repository index, mermaid cache, code tables
  and gate results all rebuilt) and no scorecards;
- second run: the same command again on the unchanged corpus;

for three sides:

- ``baseline``: the plugin at ``--baseline`` (default 330c8dc, main when issue 15 was
  opened), installed with ``pip install git+file://REPO@COMMIT`` into a virtualenv the
  bench creates under bench/.work (cached there; dependencies pinned to this virtualenv's
  versions, so only the plugin differs);
- ``current``: the plugin in this checkout (the Python running the bench), with its
  default ``jobs = auto`` (look-ahead workers on the spare CPUs);
- ``jobs1``: the same code with ``--postgates-jobs=1`` (no look-ahead), so that a wall
  time gained by a second process is not mistaken for CPU saved (``--no-jobs1`` drops it);
- ``plain``: plain pytest running as many empty test functions as the plugin collects
  items (one module per post, one function per gate), the floor pytest itself sets.

Wall time and CPU time (user + system of the pytest process and everything it waits for,
mermaid.js engines included) are printed; on a shared machine CPU time moves less with
the load. Every plugin side must reach the same outcome line and the same scorecards
(the per-gate JSON files, byte for byte): the bench says so and exits 1 otherwise.

    python bench/real_speed.py                      # 130 posts, 3 repetitions
    python bench/real_speed.py --repeat 5 --xdist   # also -n 2, cold and second run

Targets (issue 15): cold serial at least 2x faster than the baseline; the second run
within 1.5x of the plain control.
"""

from __future__ import annotations

import argparse
import filecmp
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
WORK = HERE / ".work"
PROJECT = HERE.parent
sys.path.insert(0, str(HERE))

from trash import Trash, settle  # noqa: E402

# Outside this checkout: its pyproject.toml (snapshot mode) must not configure the blog.
SCRATCH = Path(tempfile.gettempdir()) / f"postgates-real-speed-{os.getuid()}"
# What a run clears is moved here and deleted after the last timing (see bench/trash.py).
TRASH = Trash(SCRATCH / "trash")
DEFAULT_POSTS = PROJECT.parent.parent / "shared" / "corpus" / "neurolink-blog" / "_posts"
# --per-gate: CPU seconds of this process spent in each item's setup (where the plugin
# gates the post), by gate, plus collection and everything else.
PER_GATE_PLUGIN = """
import json, os, time
import pytest
_cpu = {}
_start = time.process_time()
@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item):
    before = time.process_time()
    try:
        return (yield)
    finally:
        name = item.name
        _cpu[name] = _cpu.get(name, 0.0) + time.process_time() - before
def pytest_unconfigure(config):
    total = time.process_time() - _start
    with open(os.environ["BENCH_PER_GATE"], "w") as out:
        json.dump({"gates": _cpu, "process_total": total}, out)
"""


@dataclass
class Timing:
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    outcome: str = ""
    lookahead: str = ""  # the run's "postgates: look-ahead:" line, if a worker started

    def add(self, wall: float, cpu: float) -> None:
        self.wall.append(wall)
        self.cpu.append(cpu)

    @property
    def median(self) -> float:
        return statistics.median(self.wall)

    @property
    def median_cpu(self) -> float:
        return statistics.median(self.cpu)

    def spread(self) -> str:
        return f"{min(self.wall):.1f}-{max(self.wall):.1f}"


# The last "postgates: look-ahead:" line run_timed saw (what the look-ahead workers did).
LOOKAHEAD_LINE: list[str] = [""]


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
    LOOKAHEAD_LINE[0] = next((line for line in lines if "postgates: look-ahead:" in line), "")
    return wall, cpu, last


def baseline_python(commit: str) -> Path:
    """A virtualenv with the plugin at ``commit`` installed from git (built once)."""
    full = subprocess.run(
        ["git", "-C", str(PROJECT), "rev-parse", "--verify", f"{commit}^{{commit}}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    venv = WORK / f"baseline-{full[:12]}"
    python = venv / "bin" / "python"
    if (venv / "installed").is_file():
        return python
    shutil.rmtree(venv, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    # The same dependency versions as this virtualenv, so that only the plugin differs.
    frozen = subprocess.run(
        [sys.executable, "-m", "pip", "freeze", "--exclude-editable"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    constraints = venv / "constraints.txt"
    constraints.write_text(
        "".join(
            line + "\n"
            for line in frozen.splitlines()
            if line and not line.startswith(("#", "-e")) and "postgates" not in line
        )
    )
    common = subprocess.run(
        ["git", "-C", str(PROJECT), "rev-parse", "--path-format=absolute", "--git-common-dir"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    source = Path(common).parent if common.endswith("/.git") else Path(common)
    subprocess.run(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "-q",
            "-c",
            str(constraints),
            f"git+file://{source}@{full}",
        ],
        check=True,
    )
    (venv / "installed").write_text(full + "\n")
    return python


def prepare_blog(posts: Path, target: Path) -> Path:
    """A writable copy of the blog folder holding ``posts`` (its config files included)."""
    TRASH.discard(target)
    shutil.copytree(posts.parent, target, ignore=shutil.ignore_patterns(".git"))
    for path in [target, *target.rglob("*")]:
        path.chmod(path.stat().st_mode | 0o200)
    return target


def count_items(python: Path, blog: Path, common: list[str], env: dict[str, str]) -> int:
    result = subprocess.run(
        [str(python), "-m", "pytest", *common, "--collect-only"],
        cwd=blog,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    return sum(1 for line in result.stdout.splitlines() if "::" in line)


def write_plain(folder: Path, posts: int, per_post: int) -> None:
    TRASH.discard(folder)
    folder.mkdir(parents=True)
    tests = "".join(f"def test_gate_{gate}():\n    pass\n\n\n" for gate in range(per_post))
    for number in range(posts):
        (folder / f"test_post_{number:04d}.py").write_text(tests)


def scorecards_differ(left: Path, right: Path) -> list[str]:
    """Scorecard files present on one side only or with different bytes."""
    names = {p.name for p in left.glob("*.json")} | {p.name for p in right.glob("*.json")}
    differ = []
    for name in sorted(names):
        a, b = left / name, right / name
        if not (a.is_file() and b.is_file() and filecmp.cmp(a, b, shallow=False)):
            differ.append(name)
    return differ


def main(argv: list[str] | None = None) -> int:
    try:
        return measure(argv)
    finally:
        TRASH.empty()


def measure(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--posts", type=Path, default=DEFAULT_POSTS)
    parser.add_argument("--repo", type=Path, default=Path("/work/data/neurolink"))
    parser.add_argument("--ref", default="release")
    parser.add_argument("--baseline", default="330c8dc")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--xdist", action="store_true", help="also time -n 2")
    parser.add_argument(
        "--snapshot",
        action="store_true",
        help="time this checkout's HEAD, exported once (edits during the run do not count)",
    )
    parser.add_argument(
        "--per-gate", action="store_true", help="one more cold serial run: CPU by gate"
    )
    parser.add_argument(
        "--no-jobs1",
        action="store_true",
        help="do not time this code with --postgates-jobs=1 (no look-ahead workers)",
    )
    args = parser.parse_args(argv)
    if not args.posts.is_dir() or not (args.repo / ".git").exists():
        print(f"needs the blog posts ({args.posts}) and the repository ({args.repo})")
        return 2

    env = dict(os.environ, PYTEST_ADDOPTS="")
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # users have bytecode caches
    env.pop("POSTGATES_CACHE_KEY", None)
    pythons = {"baseline": baseline_python(args.baseline), "current": Path(sys.executable)}
    if not args.no_jobs1:
        pythons["jobs1"] = Path(sys.executable)
    # Arguments of one side only: jobs1 is this code without look-ahead workers.
    side_args: dict[str, list[str]] = {"jobs1": ["--postgates-jobs=1"]}
    common = [
        args.posts.name,
        "--rootdir=.",
        f"--postgates-repo={args.repo}",
        f"--postgates-ref={args.ref}",
        "--postgates-offline",
        "--postgates-all",
        "-q",
        "--tb=line",
        "-p",
        "no:randomly",
        "-p",
        "no:hypothesispytest",
        "-o",
        "cache_dir=.bench-cache",
    ]
    TRASH.empty()  # what a bench that stopped early left
    scratch = SCRATCH
    blogs = {side: prepare_blog(args.posts, scratch / side) for side in pythons}
    side_env = {side: env for side in pythons}
    current_label = "working tree"
    if args.snapshot:
        head = subprocess.run(
            ["git", "-C", str(PROJECT), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        source = scratch / "source"
        TRASH.discard(source)
        source.mkdir(parents=True)
        archive = subprocess.run(
            ["git", "-C", str(PROJECT), "archive", head, "pytest_postgates"],
            capture_output=True,
            check=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(source)], input=archive, check=True)
        # Ahead of the editable install's finder, which comes after the path entries.
        side_env["current"] = dict(env, PYTHONPATH=str(source))
        if "jobs1" in pythons:
            side_env["jobs1"] = side_env["current"]
        current_label = f"HEAD {head[:12]}, exported to {source}"
    items = count_items(pythons["current"], blogs["current"], common, side_env["current"])
    baseline_items = count_items(pythons["baseline"], blogs["baseline"], common, env)
    posts = len(list(args.posts.glob("*.md")))
    plain = scratch / "plain"
    per_post = max(1, round(items / max(posts, 1)))
    write_plain(plain, posts, per_post)
    plain_command = [str(pythons["current"]), "-m", "pytest", ".", "-q", "-p", "no:randomly"]
    plain_command += ["-p", "no:hypothesispytest", "-p", "no:cacheprovider"]
    subprocess.run([*plain_command, "--collect-only"], cwd=plain, env=env, capture_output=True)

    modes = [("serial", [])] + ([("n2", ["-n", "2"])] if args.xdist else [])
    timings: dict[str, Timing] = {}
    scorecard_diff: list[str] | None = None
    jobs1_diff: list[str] = []

    def fresh(blog: Path) -> None:
        TRASH.discard(blog / ".bench-cache")
        TRASH.discard(blog / ".postgates")

    for side, python in pythons.items():  # bytecode caches, outside the timing
        subprocess.run(
            [str(python), "-m", "pytest", *common, "--collect-only"],
            cwd=blogs[side],
            env=side_env[side],
            capture_output=True,
        )
    settle()
    for repetition in range(args.repeat):
        # Alternate which side goes first, so that a drift in the load favours neither.
        order = list(pythons) if repetition % 2 == 0 else list(reversed(pythons))
        for mode, extra in modes:
            for side in order:
                blog = blogs[side]
                fresh(blog)
                for phase in ("cold", "second"):
                    command = [str(pythons[side]), "-m", "pytest", *common, *extra]
                    wall, cpu, last = run_timed(
                        command + side_args.get(side, []), blog, side_env[side]
                    )
                    timing = timings.setdefault(f"{side} {mode} {phase}", Timing())
                    timing.add(wall, cpu)
                    timing.outcome = last
                    timing.lookahead = LOOKAHEAD_LINE[0]
            if mode == "serial" and scorecard_diff is None:
                scorecard_diff = scorecards_differ(
                    blogs["baseline"] / ".postgates" / "scorecards",
                    blogs["current"] / ".postgates" / "scorecards",
                )
                if "jobs1" in pythons:
                    jobs1_diff = scorecards_differ(
                        blogs["jobs1"] / ".postgates" / "scorecards",
                        blogs["current"] / ".postgates" / "scorecards",
                    )
        wall, cpu, last = run_timed(plain_command, plain, env)
        timings.setdefault("plain", Timing()).add(wall, cpu)
        timings["plain"].outcome = last
        print(f"repetition {repetition + 1}/{args.repeat} done", file=sys.stderr, flush=True)

    print(f"corpus: {posts} posts in {args.posts}; repository {args.repo} at {args.ref}")
    print(
        f"items: current {items}, baseline {baseline_items}; plain control: {posts} modules "
        f"of {per_post} empty tests"
    )
    print(f"baseline: plugin at {args.baseline} in {pythons['baseline'].parent.parent}")
    print(f"current: {current_label}; jobs = auto (look-ahead workers on spare CPUs)")
    if "jobs1" in pythons:
        print("jobs1: the same code with --postgates-jobs=1 (no look-ahead workers)")
    print(f"repetitions: {args.repeat}; medians (wall range), CPU seconds of the process tree")
    print(f"cpus: {os.cpu_count()}; load average at the end: {os.getloadavg()[0]:.1f}")
    print()
    print(f"{'run':28} {'wall s':>8} {'range':>11} {'cpu s':>8}")
    for name, timing in timings.items():
        print(f"{name:28} {timing.median:8.2f} {timing.spread():>11} {timing.median_cpu:8.2f}")
    print()
    plain_t = timings["plain"]
    for mode, _ in modes:
        base_cold, cur_cold = timings[f"baseline {mode} cold"], timings[f"current {mode} cold"]
        base_second = timings[f"baseline {mode} second"]
        cur_second = timings[f"current {mode} second"]
        print(f"{mode}:")
        print(
            f"  cold, baseline / current:         {base_cold.median / cur_cold.median:5.2f}x "
            f"wall, {base_cold.median_cpu / cur_cold.median_cpu:5.2f}x cpu   (target >= 2x)"
        )
        print(
            f"  second run, baseline / current:   {base_second.median / cur_second.median:5.2f}x "
            f"wall, {base_second.median_cpu / cur_second.median_cpu:5.2f}x cpu"
        )
        if "jobs1" in pythons:
            one_cold, one_second = timings[f"jobs1 {mode} cold"], timings[f"jobs1 {mode} second"]
            print(
                f"  cold, jobs1 / current (look-ahead): {one_cold.median / cur_cold.median:5.2f}x "
                f"wall, {one_cold.median_cpu / cur_cold.median_cpu:5.2f}x cpu "
                f"(wall {one_cold.median:.2f} -> {cur_cold.median:.2f} s, cpu "
                f"{one_cold.median_cpu:.2f} -> {cur_cold.median_cpu:.2f} s)"
            )
            print(
                f"  second, jobs1 / current:          "
                f"{one_second.median / cur_second.median:5.2f}x wall, "
                f"{one_second.median_cpu / cur_second.median_cpu:5.2f}x cpu"
            )
        for side in pythons:
            cold, second = timings[f"{side} {mode} cold"], timings[f"{side} {mode} second"]
            print(
                f"  {side:8} cold / plain:          {cold.median / plain_t.median:5.2f}x wall; "
                f"second run / plain: {second.median / plain_t.median:5.2f}x wall, "
                f"{second.median_cpu / plain_t.median_cpu:5.2f}x cpu"
                + ("   (target <= 1.5x)" if side == "current" else "")
            )
    print()
    if args.per_gate:
        for side in pythons:
            blog = blogs[side]
            fresh(blog)
            (blog / "bench_per_gate.py").write_text(PER_GATE_PLUGIN)
            report = scratch / f"per-gate-{side}.json"
            run_timed(
                [str(pythons[side]), "-m", "pytest", *common, "-p", "bench_per_gate"],
                blog,
                dict(
                    side_env[side],
                    PYTHONPATH=os.pathsep.join(
                        filter(None, [str(blog), side_env[side].get("PYTHONPATH")])
                    ),
                    BENCH_PER_GATE=str(report),
                ),
            )
            data = json.loads(report.read_text())
            gated = sum(data["gates"].values())
            print(
                f"{side}, cold serial, CPU of the pytest process: {data['process_total']:.2f} s, "
                f"of which gating (item setup) {gated:.2f} s:"
            )
            for name, cpu in sorted(data["gates"].items(), key=lambda kv: -kv[1]):
                print(f"  {name:20} {cpu:6.2f} s")
        print()
    for name, timing in timings.items():
        if timing.lookahead:
            print(f"{name}: {timing.lookahead}")
    outcomes = {name: timing.outcome for name, timing in timings.items()}
    print("outcomes:", json.dumps(outcomes, indent=1))
    same_outcome = all(
        outcomes[f"baseline {mode} {phase}"].split(" in ")[0]
        == outcomes[f"{side} {mode} {phase}"].split(" in ")[0]
        for side in pythons
        for mode, _ in modes
        for phase in ("cold", "second")
    )
    print(f"same outcome line on every side: {same_outcome}")
    if scorecard_diff is None:
        scorecard_diff = []
    total = len(list((blogs["current"] / ".postgates" / "scorecards").glob("*.json")))
    print(
        f"scorecards differing between baseline and current (cold serial): "
        f"{len(scorecard_diff)} of {total}"
        + ("" if not scorecard_diff else ": " + ", ".join(scorecard_diff[:20]))
    )
    if "jobs1" in pythons:
        print(
            f"scorecards differing between jobs1 and current (cold serial): "
            f"{len(jobs1_diff)} of {total}"
            + ("" if not jobs1_diff else ": " + ", ".join(jobs1_diff[:20]))
        )
    return 0 if same_outcome and not scorecard_diff and not jobs1_diff else 1


if __name__ == "__main__":
    raise SystemExit(main())
