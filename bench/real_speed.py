"""Real-corpus speed: the NeuroLink blog against the NeuroLink repository, every gate,
offline, this code side by side with the plugin as it was (installed from git) and with
plain pytest; which parallel engine to use (issue 29) is decided from its figures.

Times, in one run and repeated (``--repeat``, medians reported; the machine is shared, so
only figures of the same run are compared, the runs are interleaved and the load average
is printed):

- cold: empty pytest cache folder (repository index, mermaid cache, code tables and gate
  results all rebuilt) and no scorecards;
- second run (warm): the same command again on the unchanged corpus;

for these runs:

- ``baseline serial``: the plugin at ``--baseline`` (default c5a427a, main when issue 29
  was worked on: look-ahead workers on by default, ``jobs = auto``), installed with
  ``pip install git+file://REPO@COMMIT`` into a virtualenv the bench creates under
  bench/.work (cached there; dependencies pinned to this virtualenv's versions, so only
  the plugin differs);
- ``current serial``: the plugin in this checkout with its default (``jobs = 1``: one
  process, nothing started);
- ``prefetch serial``: the same code with ``--postgates-jobs=2`` (the opt-in look-ahead:
  one worker process of a ProcessPoolExecutor);
- ``current n2``: the same code under pytest-xdist, ``-n 2`` (``--no-xdist`` drops it);
- ``plain serial`` and ``plain n2``: plain pytest running as many empty test functions as
  the plugin collects items (one module per post, one function per gate), serial and under
  ``-n 2``: the floor pytest (and xdist) set.

Wall time and CPU time (user + system of the pytest process and everything it waits for,
mermaid.js engines included) are printed; on a shared machine CPU time moves less with
the load. Every plugin run must reach the same outcome line and the same scorecards (the
per-gate JSON files, byte for byte) as ``current serial``: the bench says so and exits 1
otherwise. The bench also projects the speed-up on more CPUs from the measured serial
fraction (Amdahl's law; see :func:`amdahl`).

    python bench/real_speed.py --snapshot --repeat 5 \\
        --posts /work/shared/corpus/neurolink-blog/_posts --repo /work/neurolink

Done when (issue 29): the parallel path a user asks for is at least as fast as the
baseline's default serial run (with its look-ahead worker), cold and warm.
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


def amdahl(one: float, two: float) -> tuple[float, dict[int, float]]:
    """The serial fraction of a run from its wall times with one process (``one``) and with
    two (``two``), and the speed-up it projects on 2, 4 and 16 CPUs. Amdahl's law:
    T(n) = T1 * (s + (1 - s) / n), so T2 / T1 = (1 + s) / 2 and s = 2 * T2 / T1 - 1 (kept
    in [0, 1]: a run slower on two processes is all serial); speed-up(n) = 1 / (s +
    (1 - s) / n)."""
    serial = min(1.0, max(0.0, 2 * two / one - 1))
    return serial, projected(serial)


def projected(serial: float) -> dict[int, float]:
    """Amdahl's speed-up on 2, 4 and 16 CPUs of work whose serial fraction is ``serial``."""
    return {n: 1 / (serial + (1 - serial) / n) for n in (2, 4, 16)}


def serial_fraction_from_cpu(cold_cpu: float, warm_cpu: float) -> float:
    """A lower bound of a cold serial run's serial fraction from CPU seconds, which the
    machine's load moves less than wall times: what a warm run of the same corpus does
    (start-up, collection, pytest's and the plugin's per-item work, the scorecards) stays
    in pytest's process whatever the number of CPUs, so s >= CPU(warm) / CPU(cold). The
    repository index and API model, built once before the posts that need them, are
    serial too and not counted: the projections it gives are upper bounds."""
    return min(1.0, max(0.0, warm_cpu / cold_cpu)) if cold_cpu > 0 else 1.0


def paired_ratio(reference: Timing, this: Timing) -> tuple[float, float, float]:
    """The median, lowest and highest of reference / this over the repetitions: each
    repetition times both runs side by side, so a drift of the machine's load between
    repetitions moves both walls of a pair, and the spread of the ratios shows the noise
    left."""
    ratios = [ref / own for ref, own in zip(reference.wall, this.wall, strict=True)]
    return statistics.median(ratios), min(ratios), max(ratios)


@dataclass(frozen=True)
class Run:
    """One plugin configuration the bench times: which Python, which arguments."""

    name: str
    side: str  # "baseline" or "current" (the code)
    args: tuple[str, ...] = ()


def measure(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--posts", type=Path, default=DEFAULT_POSTS)
    parser.add_argument("--repo", type=Path, default=Path("/work/neurolink"))
    parser.add_argument("--ref", default="release")
    parser.add_argument("--baseline", default="c5a427a")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-xdist", action="store_true", help="do not time -n 2")
    parser.add_argument(
        "--snapshot",
        action="store_true",
        help="time this checkout's HEAD, exported once (edits during the run do not count)",
    )
    parser.add_argument(
        "--per-gate", action="store_true", help="one more cold serial run: CPU by gate"
    )
    args = parser.parse_args(argv)
    if not args.posts.is_dir() or not (args.repo / ".git").exists():
        print(f"needs the blog posts ({args.posts}) and the repository ({args.repo})")
        return 2

    env = dict(os.environ, PYTEST_ADDOPTS="")
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # users have bytecode caches
    env.pop("POSTGATES_CACHE_KEY", None)
    env.pop("POSTGATES_JOBS", None)  # each run's own default or flag
    pythons = {"baseline": baseline_python(args.baseline), "current": Path(sys.executable)}
    runs = [
        Run("baseline serial", "baseline"),
        Run("current serial", "current"),
        Run("prefetch serial", "current", ("--postgates-jobs=2",)),
    ]
    if not args.no_xdist:
        runs.append(Run("current n2", "current", ("-n", "2")))
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
    blogs = {
        run.name: prepare_blog(args.posts, scratch / run.name.replace(" ", "-")) for run in runs
    }
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
        current_label = f"HEAD {head[:12]}, exported to {source}"
    items = count_items(pythons["current"], blogs["current serial"], common, side_env["current"])
    baseline_items = count_items(pythons["baseline"], blogs["baseline serial"], common, env)
    posts = len(list(args.posts.glob("*.md")))
    plain = scratch / "plain"
    per_post = max(1, round(items / max(posts, 1)))
    write_plain(plain, posts, per_post)
    plain_command = [str(pythons["current"]), "-m", "pytest", ".", "-q", "-p", "no:randomly"]
    plain_command += ["-p", "no:hypothesispytest", "-p", "no:cacheprovider"]
    subprocess.run([*plain_command, "--collect-only"], cwd=plain, env=env, capture_output=True)
    plain_runs = {"plain serial": plain_command}
    if not args.no_xdist:
        plain_runs["plain n2"] = [*plain_command, "-n", "2"]

    timings: dict[str, Timing] = {}
    scorecard_diff: dict[str, list[str]] = {}
    loads: list[tuple[float, float, float]] = [os.getloadavg()]

    def fresh(blog: Path) -> None:
        TRASH.discard(blog / ".bench-cache")
        TRASH.discard(blog / ".postgates")

    for run in runs:  # bytecode caches, outside the timing
        subprocess.run(
            [str(pythons[run.side]), "-m", "pytest", *common, "--collect-only"],
            cwd=blogs[run.name],
            env=side_env[run.side],
            capture_output=True,
        )
    settle()
    for repetition in range(args.repeat):
        # Alternate the order, so that a drift in the load favours no run.
        order = runs if repetition % 2 == 0 else list(reversed(runs))
        for run in order:
            blog = blogs[run.name]
            fresh(blog)
            for phase in ("cold", "second"):
                command = [str(pythons[run.side]), "-m", "pytest", *common, *run.args]
                wall, cpu, last = run_timed(command, blog, side_env[run.side])
                timing = timings.setdefault(f"{run.name} {phase}", Timing())
                timing.add(wall, cpu)
                timing.outcome = last
                timing.lookahead = LOOKAHEAD_LINE[0] or timing.lookahead
        if repetition == 0:
            for run in [run for run in runs if run.name != "current serial"]:
                scorecard_diff[run.name] = scorecards_differ(
                    blogs["current serial"] / ".postgates" / "scorecards",
                    blogs[run.name] / ".postgates" / "scorecards",
                )
        for name, command in plain_runs.items():
            wall, cpu, last = run_timed(command, plain, env)
            timings.setdefault(name, Timing()).add(wall, cpu)
            timings[name].outcome = last
        loads.append(os.getloadavg())
        print(f"repetition {repetition + 1}/{args.repeat} done", file=sys.stderr, flush=True)

    print(f"corpus: {posts} posts in {args.posts}; repository {args.repo} at {args.ref}")
    print(
        f"items: current {items}, baseline {baseline_items}; plain control: {posts} modules "
        f"of {per_post} empty tests"
    )
    print(f"baseline: plugin at {args.baseline} in {pythons['baseline'].parent.parent}")
    print(f"current: {current_label}")
    for run in runs:
        print(f"  {run.name}: {run.side} {' '.join(run.args) or '(its defaults)'}")
    print(f"repetitions: {args.repeat}, interleaved; medians (wall range), CPU seconds of the")
    print("process tree")
    print(
        f"cpus: {os.cpu_count()}; load average (1, 5, 15 min) before and after each repetition: "
        + "; ".join(f"{one:.1f} {five:.1f} {fifteen:.1f}" for one, five, fifteen in loads)
    )
    print()
    print(f"{'run':28} {'wall s':>8} {'range':>11} {'cpu s':>8}")
    for name, timing in timings.items():
        print(f"{name:28} {timing.median:8.2f} {timing.spread():>11} {timing.median_cpu:8.2f}")
    print()
    plain_t = timings["plain serial"]
    base = {phase: timings[f"baseline serial {phase}"] for phase in ("cold", "second")}
    for run in runs:
        print(f"{run.name}:")
        for phase in ("cold", "second"):
            timing = timings[f"{run.name} {phase}"]
            print(
                f"  {phase:6} baseline serial / this: {base[phase].median / timing.median:5.2f}x "
                f"wall, {base[phase].median_cpu / timing.median_cpu:5.2f}x cpu; "
                f"this / plain serial: {timing.median / plain_t.median:5.2f}x wall"
            )
    print()
    print("Done when (issue 29): the parallel path a user asks for is at least as fast as the")
    print("baseline's default serial run (look-ahead worker), cold and warm:")
    print("(medians of the ratios of runs timed side by side in one repetition, with their range;")
    print("against the baseline and against this code's default serial run, jobs 1)")
    for name in [run.name for run in runs if run.name in ("prefetch serial", "current n2")]:
        for phase in ("cold", "second"):
            this = timings[f"{name} {phase}"]
            ratio, low, high = paired_ratio(base[phase], this)
            verdict = "met" if ratio >= 1.0 else "not met"
            own, own_low, own_high = paired_ratio(timings[f"current serial {phase}"], this)
            print(
                f"  {name:16} {phase:6} {ratio:5.2f}x ({low:.2f}-{high:.2f}) of the baseline's "
                f"speed: {verdict}; {own:5.2f}x ({own_low:.2f}-{own_high:.2f}) of jobs 1's"
            )
    print()
    print("Projected speed-up on more CPUs (Amdahl's law). From the wall times with one")
    print("process (T1, current serial: jobs 1) and with two (T2), the serial fraction is")
    print("s = 2*T2/T1 - 1 (since T2 = T1*(s + (1-s)/2)), kept in [0, 1]; the speed-up on n")
    print("CPUs is 1/(s + (1-s)/n). Medians of this run; a warm run's work is mostly serial.")
    for name in [run.name for run in runs if run.name in ("prefetch serial", "current n2")]:
        for phase in ("cold", "second"):
            one = timings[f"current serial {phase}"].median
            two = timings[f"{name} {phase}"].median
            serial, speedup = amdahl(one, two)
            print(
                f"  {name:16} {phase:6} T1 {one:6.2f} s, T2 {two:6.2f} s: s = {serial:4.2f}; "
                + ", ".join(f"{n} CPUs {value:4.2f}x" for n, value in speedup.items())
            )
    print("Under load the wall times mostly measure how much of a second CPU was free. From CPU")
    print("seconds instead (see serial_fraction_from_cpu): s >= CPU(warm) / CPU(cold), jobs 1;")
    print("an upper bound of the speed-up any engine can reach on this corpus:")
    cold_cpu = timings["current serial cold"].median_cpu
    warm_cpu = timings["current serial second"].median_cpu
    serial = serial_fraction_from_cpu(cold_cpu, warm_cpu)
    print(
        f"  cold   CPU {cold_cpu:6.2f} s, warm CPU {warm_cpu:6.2f} s: s >= {serial:4.2f}; "
        + ", ".join(f"{n} CPUs <= {value:4.2f}x" for n, value in projected(serial).items())
    )
    print()
    if args.per_gate:
        for run in runs[:2]:
            blog = blogs[run.name]
            fresh(blog)
            (blog / "bench_per_gate.py").write_text(PER_GATE_PLUGIN)
            report = scratch / f"per-gate-{run.side}.json"
            run_timed(
                [str(pythons[run.side]), "-m", "pytest", *common, "-p", "bench_per_gate"],
                blog,
                dict(
                    side_env[run.side],
                    PYTHONPATH=os.pathsep.join(
                        filter(None, [str(blog), side_env[run.side].get("PYTHONPATH")])
                    ),
                    BENCH_PER_GATE=str(report),
                ),
            )
            data = json.loads(report.read_text())
            gated = sum(data["gates"].values())
            print(
                f"{run.name}, cold, CPU of the pytest process: {data['process_total']:.2f} s, "
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
    reference = outcomes["current serial cold"].split(" in ")[0]
    # The baseline's gates are not this code's (verdicts changed since): its outcome and
    # scorecards are shown, and only this code's runs must agree with each other.
    current_runs = [run for run in runs if run.side == "current"]
    same_outcome = all(
        outcomes[f"{run.name} {phase}"].split(" in ")[0] == reference
        for run in current_runs
        for phase in ("cold", "second")
    )
    print(f"same outcome line in every run of this code: {same_outcome}")
    total = len(list((blogs["current serial"] / ".postgates" / "scorecards").glob("*.json")))
    for name, differ in scorecard_diff.items():
        print(
            f"scorecards differing between current serial and {name} (second run): "
            f"{len(differ)} of {total}" + ("" if not differ else ": " + ", ".join(differ[:20]))
        )
    differing = any(scorecard_diff[run.name] for run in current_runs if run.name in scorecard_diff)
    return 0 if same_outcome and not differing else 1


if __name__ == "__main__":
    raise SystemExit(main())
