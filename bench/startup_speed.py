"""Startup, collection and the per-item cost of a SKIP, this code side by side with a baseline.

Three figures of issue 15's per-item point, each CPU time (user + system of the process
and its children), median of ``--repeat`` runs, the two sides alternated so that a drift
in the machine's load hits both alike:

- import: ``python -c "import pytest_postgates.plugin"`` in a fresh process, and the
  plugin's own share (pytest imported first, not counted);
- collection: ``pytest <posts> --collect-only`` of the real posts (every gate, offline);
- SKIP items: the marginal CPU of the 520 items of the four judge gates with no judge
  configured (``--postgates-only=11,4,3,9,10`` less ``--postgates-only=11``: gate 11, a
  cheap gate, parses every post in both), cold (empty cache and scorecard folders), against
  the marginal CPU of as many empty pytest functions (130 modules of 5 tests less 130
  modules of 1): the plain pytest item's share a SKIP is measured against.

The baseline is the package at ``--baseline`` exported with ``git archive`` into
bench/.work and put first on ``PYTHONPATH`` (this virtualenv's dependencies, so only the
plugin's code differs). Bytecode caches are on (users have them), written under
bench/.work.

    python bench/startup_speed.py --baseline 34832dc --repeat 5
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
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROJECT = HERE.parent
WORK = HERE / ".work"
sys.path.insert(0, str(HERE))

# The baseline tree exported once for both benches (same folder, same commit).
from gate_cold_speed import baseline_source  # noqa: E402

DEFAULT_POSTS = PROJECT.parent.parent / "shared" / "corpus" / "neurolink-blog" / "_posts"
JUDGE_GATES = (4, 3, 9, 10)
PARSING_GATE = 11  # cheap, parses every post: the SKIP items then find them parsed
PYTEST_FLAGS = ["-q", "-p", "no:randomly", "-p", "no:hypothesispytest", "-p", "no:cacheprovider"]
IMPORT_PLUGIN = "import pytest_postgates.plugin"
# The plugin's own import: pytest (and what it imports) first, outside the clock.
OWN_IMPORT = (
    "import time, pytest, _pytest.python\n"
    "t = time.process_time()\n"
    "import pytest_postgates.plugin\n"
    "print(time.process_time() - t)\n"
)


def timed(command: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, str]:
    """CPU seconds of the process tree, and its stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{command} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, done.stdout


def write_plain(folder: Path, posts: int, per_post: int) -> None:
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    tests = "".join(f"def test_gate_{gate}():\n    pass\n\n\n" for gate in range(per_post))
    for number in range(posts):
        (folder / f"test_post_{number:04d}.py").write_text(tests)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--posts", type=Path, default=DEFAULT_POSTS)
    parser.add_argument("--repo", type=Path, default=Path("/work/data/neurolink"))
    parser.add_argument("--ref", default="release")
    parser.add_argument("--baseline", default="34832dc")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    if not args.posts.is_dir() or not (args.repo / ".git").exists():
        print(f"needs the posts ({args.posts}) and the repository ({args.repo})")
        return 2
    scratch = Path(tempfile.mkdtemp(prefix="postgates-startup-"))
    base_env = dict(os.environ, PYTEST_ADDOPTS="")
    base_env.pop("PYTHONDONTWRITEBYTECODE", None)
    base_env.pop("POSTGATES_CACHE_KEY", None)
    base_env["PYTHONPYCACHEPREFIX"] = str(WORK / "pycache")
    sources = {"baseline": baseline_source(args.baseline), "current": PROJECT}
    envs = {
        side: dict(
            base_env,
            PYTHONPATH=os.pathsep.join(filter(None, [str(src), base_env.get("PYTHONPATH")])),
        )
        for side, src in sources.items()
    }
    posts = sorted(args.posts.glob("*.md"))
    blog = scratch / "blog"
    shutil.copytree(args.posts.parent, blog, ignore=shutil.ignore_patterns(".git"))
    plugin = [
        args.posts.name, "--rootdir=.", f"--postgates-repo={args.repo}",
        f"--postgates-ref={args.ref}", "--postgates-offline", "--postgates-all", *PYTEST_FLAGS,
    ]  # fmt: skip
    python = sys.executable
    plain_one, plain_more = scratch / "plain1", scratch / f"plain{1 + len(JUDGE_GATES)}"
    write_plain(plain_one, len(posts), 1)
    write_plain(plain_more, len(posts), 1 + len(JUDGE_GATES))

    def cold(side: str, only: str) -> float:
        env = dict(envs[side], XDG_CACHE_HOME=str(scratch / f"xdg-{side}"))
        shutil.rmtree(env["XDG_CACHE_HOME"], ignore_errors=True)
        shutil.rmtree(blog / ".postgates", ignore_errors=True)
        cpu, _ = timed([python, "-m", "pytest", *plugin, f"--postgates-only={only}"], blog, env)
        return cpu

    figures: dict[str, dict[str, list[float]]] = {side: {} for side in sources}
    plain: dict[str, list[float]] = {"one": [], "more": []}

    def add(side: str, name: str, value: float) -> None:
        figures[side].setdefault(name, []).append(value)

    for side in sources:  # bytecode caches written outside the timing
        timed([python, "-c", IMPORT_PLUGIN], blog, envs[side])
    timed([python, "-m", "pytest", *PYTEST_FLAGS, "--collect-only"], plain_more, base_env)
    judged = ",".join(map(str, (PARSING_GATE, *JUDGE_GATES)))
    for repetition in range(args.repeat):
        order = list(sources) if repetition % 2 == 0 else list(reversed(sources))
        for side in order:
            env = envs[side]
            add(side, "import", timed([python, "-c", IMPORT_PLUGIN], blog, env)[0])
            add(side, "own import", float(timed([python, "-c", OWN_IMPORT], blog, env)[1]))
            collect_env = dict(env, XDG_CACHE_HOME=str(scratch / f"xdg-{side}"))
            add(side, "collect", timed([python, "-m", "pytest", *plugin, "--collect-only"],
                                       blog, collect_env)[0])  # fmt: skip
            without = cold(side, str(PARSING_GATE))
            with_skips = cold(side, judged)
            add(side, "skip item", (with_skips - without) / (len(posts) * len(JUDGE_GATES)))
        plain["one"].append(timed([python, "-m", "pytest", *PYTEST_FLAGS], plain_one, base_env)[0])
        plain["more"].append(
            timed([python, "-m", "pytest", *PYTEST_FLAGS], plain_more, base_env)[0]
        )
    shutil.rmtree(scratch, ignore_errors=True)
    median = {side: {k: statistics.median(v) for k, v in f.items()} for side, f in figures.items()}
    plain_item = (statistics.median(plain["more"]) - statistics.median(plain["one"])) / (
        len(posts) * len(JUDGE_GATES)
    )
    try:
        load = " ".join(f"{value:.1f}" for value in os.getloadavg())
    except OSError:  # pragma: no cover - not on every platform
        load = "unknown"
    print(
        f"{len(posts)} posts, CPU (user + system), median of {args.repeat}, baseline "
        f"{args.baseline} vs this checkout; load average {load}"
    )
    print(f"{'measure':<44} {'baseline':>9} {'current':>9} {'ratio':>7}")
    rows = [
        ("import pytest_postgates.plugin (s)", "import", 1.0),
        ("  the plugin's own part, pytest imported (s)", "own import", 1.0),
        (f"pytest --collect-only, {len(posts)} posts (s)", "collect", 1.0),
        ("SKIP item of a judge gate, marginal (ms)", "skip item", 1000.0),
    ]
    for label, key, scale in rows:
        base, current = median["baseline"][key] * scale, median["current"][key] * scale
        ratio = base / current if current > 0 else float("inf")
        print(f"{label:<44} {base:9.2f} {current:9.2f} {ratio:6.2f}x")
    print(f"{'plain pytest item, marginal (ms)':<44} {plain_item * 1000:9.2f}")
    print(
        "SKIP item / plain item: "
        f"baseline {median['baseline']['skip item'] / plain_item:.2f}x, "
        f"current {median['current']['skip item'] / plain_item:.2f}x"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
