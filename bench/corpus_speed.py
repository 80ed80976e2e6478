"""Corpus scale: 1,000 real-shaped posts, every deterministic gate, against pytest's floor.

Generates a corpus of 1,000 posts (front matter, prose with real and invented inline
tokens, numbers with units, code fences with imports, mermaid diagrams, internal and
external links) grounded against a large repository (this Python's standard library, as in
bench/grounding_speed.py), 8 items a post, and times in one run, each as wall time and CPU
time (user + system of the pytest process and everything it waits for: xdist workers,
git, the mermaid.js engines):

- the plugin, serial: cold caches with the opt-in look-ahead (``--postgates-jobs=2``: one
  worker process), then a second run of the unchanged corpus, and a cold serial run with
  the default ``jobs = 1`` (no look-ahead), side by side, so that a wall-time gain of a
  second process is not read as CPU saved;
- the plugin, ``-n 2``: the same two runs;
- control "constant": the plugin with every gate returning a fixed PASS card (what the
  plugin and pytest cost per item without any gate work or result cache), serial and
  ``-n 2``;
- control "plain": plain pytest running as many empty test functions (8 per module, one
  module per post), serial and ``-n 2``: the floor pytest and pytest-xdist set;
- markdownlint-cli alone over the same files (the earlier scale issue's yardstick).

Targets (issue 15): cold serial <= 2.5x plain serial; second serial run <= 1.25x plain
serial; ``-n 2`` never slower than serial: cold >= 1.15x, second run >= 1.0x. The
controls under ``-n 2`` show what pytest-xdist itself costs per item on this machine.
It also checks that the serial and ``-n 2`` runs write byte-identical scorecards, and
prints the peak memory (max RSS) of each pytest process (mermaid.js engines not counted).

    python bench/corpus_speed.py                        # 1,000 posts (8,000 items)
    python bench/corpus_speed.py --posts 100            # quicker, for iterating
    python bench/corpus_speed.py --posts 200 --profile  # + cProfile of the second run

On a shared machine, compare CPU times (they move less with the load); the ``-n``
speed-ups can only be read from wall times. markdownlint-cli 0.43.0 is installed with npm
into bench/.work/node on first use (``--no-markdownlint`` skips it).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
WORK = HERE / ".work"
sys.path.insert(0, str(HERE))

from grounding_speed import build_stdlib_repo, invent, sample_real_tokens  # noqa: E402
from trash import Trash, settle  # noqa: E402

# What a run clears is moved here and deleted after the last timing (see bench/trash.py).
TRASH = Trash(WORK / "trash")

DETERMINISTIC = "1,2,14,7,6,12,11,13"
# Loaded into every pytest process of every run (controls included): its peak memory and
# CPU time, and with BENCH_PROFILE set a cProfile of it from configure to unconfigure.
MEMORY_PLUGIN = """
import cProfile, json, os, resource, time
import pytest
_profile = cProfile.Profile(time.process_time) if os.environ.get("BENCH_PROFILE") else None
if _profile is not None:
    _profile.enable()
@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    name = os.environ.get("PYTEST_XDIST_WORKER", "controller")
    run = os.environ.get("BENCH_RUN")
    usage = resource.getrusage(resource.RUSAGE_SELF)
    if _profile is not None:
        _profile.disable()
        _profile.dump_stats(os.path.join(os.environ["BENCH_PROFILE"], f"{run}-{name}.prof"))
    with open(os.environ["BENCH_MEMORY_LOG"], "a") as log:
        record = {"run": run, "process": name, "max_rss_mib": round(usage.ru_maxrss / 1024, 1),
                  "cpu": round(usage.ru_utime + usage.ru_stime, 2)}
        log.write(json.dumps(record) + "\\n")
"""
# Control runs: the same number of pytest items with no gate work, to show what pytest and
# pytest-xdist cost per item on this machine. "constant": every gate returns a fixed PASS
# card (the plugin's own per-item work remains); "plain": 8 empty test functions per post.
CONSTANT_PLUGIN = """
from pytest_postgates import runner
def _constant(self, spec):
    return spec.card("PASS", {}, [], "constant card (bench control)", 0)
runner.PostRun._evaluate = _constant
try:  # no gate runs, so no worker builds the index for one
    from pytest_postgates import xdist
    xdist.prefetch = lambda session, worker: None
except ImportError:
    pass
"""
# Loaded into the cold runs (-p bench_timeline; a look-ahead worker, which is no pytest
# process, loads it from the sitecustomize below): when each process asked for, got and let
# go of each file lock (the run-wide batches, their parts, the repository index), which
# parts of a batch it computed while it would have waited on a lock, when it computed a
# gate (a cache miss), when the main process waited for a post a worker was gating, and
# when each process ran items. Events are kept in memory and written once at the end.
TIMELINE_PLUGIN = """
import atexit, contextlib, json, os, resource, sys, time
_BORN = time.time()
_EVENTS = []
def _log(**record):
    _EVENTS.append(record)
def _exit():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    _log(kind="exit", at=time.time(), cpu=usage.ru_utime + usage.ru_stime)
def _flush(name):
    if _EVENTS:
        with open(os.environ["BENCH_TIMELINE_LOG"], "a") as stream:
            stream.write("".join(json.dumps(dict(e, process=name)) + "\\n" for e in _EVENTS))
        _EVENTS.clear()
def _spied(original):
    @contextlib.contextmanager
    def locked(path):
        asked = time.time()
        with original(path):
            got = time.time()
            try:
                yield
            finally:
                _log(kind="lock", name=path.stem, asked=asked, got=got, released=time.time())
    return locked
def install():
    from pytest_postgates import batch, runner
    from pytest_postgates.evidence import index
    batch.locked = _spied(batch.locked)
    index.locked = _spied(index.locked)
    compute = batch.RunBatches._compute_unstarted
    def helping(self, name, work):
        start = time.time()
        done = compute(self, name, work)
        if done:
            _log(kind="helped", name=name, start=start, end=time.time())
        return done
    batch.RunBatches._compute_unstarted = helping
    budgeted = runner.PostRun._budgeted
    def gate(self, spec):
        start = time.time()
        try:
            return budgeted(self, spec)
        finally:
            _log(kind="gate", post=self.stem, gate=spec.id, start=start, end=time.time())
    runner.PostRun._budgeted = gate
    try:
        from pytest_postgates import lookahead
    except ImportError:
        return
    take = lookahead.LookAhead._take
    def taken(self, number, future):
        start = time.time()
        take(self, number, future)
        if time.time() - start > 0.002:
            _log(kind="claim wait", post=self.posts[number].stem, start=start, end=time.time())
    lookahead.LookAhead._take = taken
def worker():
    # sitecustomize of a look-ahead worker: its whole life, from interpreter start.
    name = f"look-ahead {os.getpid()}"
    _log(kind="life", start=_BORN)
    install()
    def done():
        _exit()
        _flush(name)
    atexit.register(done)
if "--multiprocessing-fork" not in sys.orig_argv:  # not a look-ahead worker (spawned)
    import functools
    import pytest
    install()
    _NAME = os.environ.get("PYTEST_XDIST_WORKER", "main")
    _ITEMS = []
    _PHASES = {}
    _REPORTS = []
    _HOOKS = []
    def _time_every_implementation(config, hook_name):
        # Each plugin's part of a hook, as (plugin, start, end): what the run's tail is made of.
        for impl in getattr(config.pluginmanager.hook, hook_name).get_hookimpls():
            if impl.wrapper or impl.hookwrapper:
                continue
            original = impl.function
            @functools.wraps(original)  # pluggy reads the hook's argument names through it
            def timed(*args, _original=original, _name=impl.plugin_name, **kwargs):
                start = time.time()
                try:
                    return _original(*args, **kwargs)
                finally:
                    if time.time() - start >= 0.05:
                        _HOOKS.append((hook_name, _name, start, time.time()))
            impl.function = timed
    @pytest.hookimpl(trylast=True)
    def pytest_configure(config):
        _PHASES["configured"] = time.time()
        for hook_name in ("pytest_sessionfinish", "pytest_unconfigure"):
            _time_every_implementation(config, hook_name)
    def pytest_collection_finish(session):
        _PHASES["collected"] = time.time()
    def pytest_runtest_setup(item):
        _ITEMS.append(time.time())
    def pytest_runtest_logreport(report):
        if _NAME == "main" and report.when == "teardown":
            _REPORTS.append(time.time())
    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_sessionfinish(session):
        _PHASES["sessionfinish"] = time.time()
        try:
            return (yield)
        finally:
            _PHASES["sessionfinished"] = time.time()
    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_terminal_summary(terminalreporter):
        _PHASES["summary"] = time.time()
        try:
            return (yield)
        finally:
            _PHASES["summarised"] = time.time()
    def _exited():
        _log(kind="process exit", at=time.time())
        _flush(_NAME)
    atexit.register(_exited)
    @pytest.hookimpl(tryfirst=True)
    def pytest_unconfigure(config):
        _PHASES["unconfigure"] = time.time()
        # Registered last, so run first of the exit handlers (the one above runs last).
        atexit.register(lambda: _log(kind="exit handlers", at=time.time()))
        if _ITEMS:
            _log(kind="items", first=_ITEMS[0], last=_ITEMS[-1], count=len(_ITEMS))
        if _REPORTS:
            _log(kind="reports", first=_REPORTS[0], last=_REPORTS[-1], count=len(_REPORTS))
        _log(kind="phases", **_PHASES)
        for hook_name, plugin, start, end in _HOOKS:
            _log(kind="hook", hook=hook_name, plugin=plugin, start=start, end=end)
        _log(kind="life", start=_BORN)
        _exit()
        _flush(_NAME)
"""
# Loaded into every Python process of the bench's runs (it is on their PYTHONPATH): the
# timeline above in a look-ahead worker of a timed run.
SITECUSTOMIZE = """
import os, sys
if os.environ.get("BENCH_TIMELINE_LOG") and "--multiprocessing-fork" in sys.orig_argv:
    import bench_timeline
    bench_timeline.worker()
"""
PROSE = [
    "This part of the standard library keeps its state in one place, which makes tests short.",
    "Each module reads its configuration once and hands plain values to the code that needs them.",
    "Errors are raised where they happen and carry the name of the file and the line.",
    "The pattern is simple: parse the input, check it, then act on the checked value.",
]


def diagram(tokens: list[str], rng: random.Random) -> list[str]:
    """A small diagram of its own per post (real posts rarely share one), in the two kinds
    the real corpus uses most."""
    names = [token.split(".")[-1] for token in rng.sample(tokens, k=min(4, len(tokens)))]
    if rng.random() < 0.3:
        lines = ["sequenceDiagram", "  participant C as Caller", "  participant L as Library"]
        lines += [f"  C->>L: call {name}" for name in names]
        lines.append("  L-->>C: result")
    else:
        lines = ["flowchart TD"]
        lines += [
            f'  N{i}["{names[i]}"] --> N{i + 1}["{names[i + 1]}"]' for i in range(len(names) - 1)
        ]
    return ["```mermaid", *lines, "```", ""]


def write_post(
    folder: Path, number: int, tokens: list[str], rng: random.Random, slugs: list[str]
) -> None:
    slug = f"bench-post-{number:04d}"
    # About as many failing posts as a real blog's drafts have: an uncited number in one
    # post of twenty (invented symbols come from generate()).
    cite = rng.random() >= 0.05
    lines = [
        "---",
        "layout: post",
        f"title: 'Bench post {number}: reading the Python standard library'",
        f"date: 2026-01-{1 + number % 28:02d}",
        "categories: [Engineering]",
        "tags: [python, stdlib]",
        "---",
        "",
        f"Python's standard library ships `{tokens[0]}` and more; this post reads it with pytest.",
        "",
    ]
    for i, token in enumerate(tokens[1:], 1):
        lines += [f"{rng.choice(PROSE)} Here `{token}` matters in prose.", ""]
        if i % 5 == 0:
            lines += [f"## Part {i // 5}: the code", ""]
        if i % 7 == 0:
            source = f" ([measured here](/posts/{rng.choice(slugs)}/))" if cite else ""
            lines += [
                f"The cache saves {rng.randint(2, 90)}% of the time, "
                f"about {rng.randint(10, 900)} ms{source}.",
                "",
            ]
        if i % 9 == 0:
            lines += [
                "```python",
                f"from {rng.choice(['os', 'json', 'pathlib'])} import {token.split('.')[-1]}",
                "```",
                "",
            ]
        if i in (8, 16) and (i == 8 or rng.random() < 0.5):
            lines += diagram(tokens, rng)
    lines += [
        "```bash",
        "pip install pytest-postgates",
        "```",
        "",
        f"See [a related post](/posts/{rng.choice(slugs)}/) and [the docs](https://docs.example.invalid/{number}).",
        "",
        "**Related posts:**",
        "",
        f"- [Another post](/posts/{rng.choice(slugs)}/)",
        "",
    ]
    (folder / f"2026-01-{1 + number % 28:02d}-{slug}.md").write_text(
        "\n".join(lines), encoding="utf-8"
    )


def generate(corpus: Path, repo: Path, posts: int, seed: int) -> None:
    rng = random.Random(seed)
    TRASH.discard(corpus)
    folder = corpus / "_posts"
    folder.mkdir(parents=True)
    per_post = 20
    real = sample_real_tokens(repo, rng, posts * per_post)
    slugs = [f"bench-post-{n:04d}" for n in range(posts)]
    for number in range(posts):
        tokens = real[number * per_post : (number + 1) * per_post]
        tokens = [invent(t, rng) if rng.random() < 0.02 else t for t in tokens]
        write_post(folder, number, list(dict.fromkeys(tokens)), rng, slugs)
    (corpus / "pyproject.toml").write_text(
        "[tool.postgates]\n"
        f'repo = "{repo}"\n'
        "offline = true\n"
        "body_line_floor = 40\n"  # generated posts are about 60 lines long
        "symbol_allowlist = []\n"
        "[tool.pytest.ini_options]\n"
        'addopts = ["-p", "no:randomly"]\n'
    )
    (corpus / "_config.yml").write_text("permalink: /posts/:title/\n")
    (corpus / ".markdownlint.json").write_text(json.dumps({"default": True, "MD013": False}))
    (corpus / "bench_memory.py").write_text(MEMORY_PLUGIN)
    (corpus / "bench_constant.py").write_text(CONSTANT_PLUGIN)
    (corpus / "bench_timeline.py").write_text(TIMELINE_PLUGIN)
    (corpus / "sitecustomize.py").write_text(SITECUSTOMIZE)
    plain = corpus / "plain"
    plain.mkdir()
    for number in range(posts):
        tests = "".join(f"def test_gate_{gate}():\n    pass\n\n\n" for gate in range(8))
        (plain / f"test_post_{number:04d}.py").write_text(tests)


@dataclass
class Run:
    wall: float
    cpu: float
    result: subprocess.CompletedProcess[str]

    @property
    def last_line(self) -> str:
        lines = self.result.stdout.strip().splitlines()
        return lines[-1] if lines else f"(no output; stderr: {self.result.stderr.strip()[-300:]})"


# pytest's closing line under -q: counts of outcomes, then the duration ("12 passed, 3
# failed in 9.81s", "2400 tests collected in 1.78s", "... in 66.64s (0:01:06)").
_OUTCOME = r"\d+ (?:passed|failed|errors?|skipped|xfailed|xpassed|deselected|warnings?|rerun)"
RESULT_LINE = re.compile(
    rf"^=*\s*(?:\d+ tests? collected|{_OUTCOME})(?:, {_OUTCOME})* in \d+(?:\.\d+)?s"
    r"(?: \(\d+:\d\d:\d\d\))?\s*=*$"
)


class RunFailed(Exception):
    """A timed run did not end as a pytest run that ran its tests: its figures mean
    nothing (a python without the plugin's dependencies, a usage error, a crash)."""


def check_outcome(label: str, run: Run) -> Run:
    """``run`` when it ended with a pytest result line and exit status 0 or 1 (tests
    failed: the corpus has failing posts); otherwise :class:`RunFailed` naming the run,
    its exit status and the end of its output."""
    if run.result.returncode in (0, 1) and RESULT_LINE.match(run.last_line.strip()):
        return run
    tail = "\n".join((run.result.stdout + run.result.stderr).strip().splitlines()[-15:])
    raise RunFailed(
        f"run {label!r} did not run its tests (exit status {run.result.returncode}; last "
        f"line {run.last_line.strip()!r}); no figures are printed. End of its output:\n{tail}"
    )


def timed(command: list[str], cwd: Path, env: dict[str, str]) -> Run:
    """Wall seconds and CPU seconds of the process tree (it is waited for, so its children
    and theirs are counted)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Run(wall, cpu, result)


def scorecard_bytes(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.glob("*.json"))}


def markdownlint_cli() -> Path:
    node = WORK / "node"
    binary = node / "node_modules" / ".bin" / "markdownlint"
    if not binary.exists():
        node.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["npm", "install", "--silent", "--prefix", str(node), "markdownlint-cli@0.43.0"],
            check=True,
        )
    return binary


def main(argv: list[str] | None = None) -> int:
    try:
        return measure(argv)
    except RunFailed as exc:
        print(f"corpus_speed: {exc}", file=sys.stderr)
        return 2
    finally:
        TRASH.empty()


def measure(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--posts", type=int, default=1000, help="posts to generate (1000)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--workers", type=int, default=2, help="-n for the xdist runs (2)")
    parser.add_argument("--no-markdownlint", action="store_true")
    parser.add_argument(
        "--profile", action="store_true", help="one more second serial run under cProfile"
    )
    parser.add_argument(
        "--snapshot",
        action="store_true",
        help="time this checkout's HEAD, exported once (edits during the run do not count)",
    )
    parser.add_argument(
        "--cold-serial",
        action="store_true",
        help="only plain pytest, the two cold serial runs (jobs 1, look-ahead; the look-ahead "
        "run's timeline) and the second serial run",
    )
    args = parser.parse_args(argv)

    TRASH.empty()  # what a bench that stopped early left
    repo = build_stdlib_repo(WORK / "stdlib-repo").resolve()
    corpus = WORK / "corpus"
    generate(corpus, repo, args.posts, args.seed)
    memory_log = corpus / "memory.jsonl"
    memory_log.unlink(missing_ok=True)
    python_path = [str(corpus)]
    code = "working tree"
    if args.snapshot:
        # Ahead of the editable install's finder, which comes after the path entries.
        head = subprocess.run(
            ["git", "-C", str(HERE.parent), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        source = WORK / "corpus-speed-source"
        TRASH.discard(source)
        source.mkdir(parents=True)
        archive = subprocess.run(
            ["git", "-C", str(HERE.parent), "archive", head, "pytest_postgates"],
            capture_output=True,
            check=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(source)], input=archive, check=True)
        python_path.append(str(source))
        code = f"HEAD {head[:12]}, exported to {source}"
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join(python_path),
        BENCH_MEMORY_LOG=str(memory_log),
        PYTEST_ADDOPTS="",
    )
    # Python's bytecode cache is on for users; a machine that turns it off (this variable)
    # would make every process recompile pytest, the plugin and its dependencies.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("POSTGATES_CACHE_KEY", None)
    common = ["-q", "-p", "no:randomly", "-p", "no:hypothesispytest", "--tb=line"]
    # A private temporary folder for every run (controls included): pytest's default one
    # is shared with every other pytest on the machine, and its end-of-session clean-up of
    # their old folders cost a -n 2 run's controller seconds after the last item.
    common += ["--basetemp", str(corpus / ".bench-tmp")]
    # no:hypothesispytest: installed here only by our test extras; a blog's CI lacks it.
    base = [sys.executable, "-m", "pytest", "_posts", *common, "-p", "bench_memory"]
    base += [f"--postgates-only={DETERMINISTIC}", "--postgates-all", "-o", "cache_dir=.bench-cache"]
    n = ["-n", str(args.workers)]
    scorecards = corpus / ".postgates" / "scorecards"

    def fresh() -> None:
        TRASH.discard(corpus / ".bench-cache")
        TRASH.discard(corpus / ".postgates")

    def run(label: str, extra: list[str], *, start_fresh: bool = False, **more_env: str) -> Run:
        if start_fresh:
            fresh()
        outcome = timed([*base, *extra], corpus, dict(env, BENCH_RUN=label, **more_env))
        print(f"  {label}: {outcome.wall:.1f} s wall, {outcome.cpu:.1f} s cpu", file=sys.stderr)
        return check_outcome(label, outcome)

    def plain(label: str, extra: list[str]) -> Run:
        return check_outcome(
            label, timed([*plain_base, *extra], corpus, dict(env, BENCH_RUN=label))
        )

    plain_base = [sys.executable, "-m", "pytest", "plain", *common, "-p", "no:cacheprovider"]
    plain_base += ["-p", "bench_memory"]
    # Warm the bytecode caches (pytest's rewritten modules too) outside the timing.
    run("warm-up", ["--collect-only", str(sorted((corpus / "_posts").glob("*.md"))[0])])
    plain("warm-up", ["--collect-only"])
    settle()
    runs: dict[str, Run] = {}
    runs["plain serial"] = plain("plain", [])
    # The controls gate nothing: no look-ahead worker (the default, said for clarity).
    one_job = ["--postgates-jobs=1"]
    runs["constant serial"] = run("constant", ["-p", "bench_constant", *one_job], start_fresh=True)
    # Both cold serial runs carry the timeline spy (a few microseconds a gate), so that the
    # ratio between them is fair; the look-ahead run's timeline is printed.
    timelines = {name: corpus / f"timeline-{name}.jsonl" for name in ("jobs1", "serial", "n2")}
    for path in timelines.values():
        path.unlink(missing_ok=True)
    spy = ["-p", "bench_timeline"]
    runs["serial cold jobs1"] = run(
        "serial-jobs1",
        [*one_job, *spy],
        start_fresh=True,
        BENCH_TIMELINE_LOG=str(timelines["jobs1"]),
    )
    jobs1_cards = scorecard_bytes(scorecards)
    serial_started = time.time()
    runs["serial cold"] = run(
        "serial",
        ["--postgates-jobs=2", *spy],
        start_fresh=True,
        BENCH_TIMELINE_LOG=str(timelines["serial"]),
    )
    serial_cards = scorecard_bytes(scorecards)
    if args.cold_serial:
        # The second run is the main process's floor: what it pays for every post whose
        # gates a worker computed (cached results, scorecards, pytest's per-item work).
        runs["serial second"] = run("serial-second", [])
        outcome = cold_serial_report(args, runs, jobs1_cards == serial_cards, code, repo)
        print_timeline(timelines["serial"], serial_started, "serial cold run with look-ahead")
        return outcome
    runs["serial second"] = run("serial-second", [])
    serial_second_cards = scorecard_bytes(scorecards)
    profiles = corpus / "profiles"
    TRASH.discard(profiles)
    if args.profile:
        # The second runs again, each process under cProfile (serial, then -n).
        profiles.mkdir()
        run("profile-serial", [], BENCH_PROFILE=str(profiles))
    started = time.time()
    runs["n2 cold"] = run(
        "n2", [*n, *spy], start_fresh=True, BENCH_TIMELINE_LOG=str(timelines["n2"])
    )
    n2_cards = scorecard_bytes(scorecards)
    runs["n2 second"] = run("n2-second", n)
    n2_second_cards = scorecard_bytes(scorecards)
    if args.profile:
        run("profile-n2", n, BENCH_PROFILE=str(profiles))
    runs["constant n2"] = run(
        "constant-n2", ["-p", "bench_constant", *n, *one_job], start_fresh=True
    )
    runs["plain n2"] = plain("plain-n2", n)
    fresh()
    mdl: Run | None = None
    if not args.no_markdownlint:
        lint = markdownlint_cli()
        files = sorted(str(p) for p in (corpus / "_posts").glob("*.md"))
        mdl = timed(
            [str(lint), "--config", str(corpus / ".markdownlint.json"), *files], corpus, env
        )
    memory = [json.loads(line) for line in memory_log.read_text().splitlines()]

    items = args.posts * 8
    workers = f"-n {args.workers}"
    print(f"corpus: {args.posts} posts ({items} items), grounding repository {repo}")
    print(f"gates: {DETERMINISTIC} (6 offline); serial outcome: {runs['serial cold'].last_line}")
    print(f"code: {code}")
    print(f"cpus: {os.cpu_count()}; load average at the end: {os.getloadavg()[0]:.1f}")
    if args.workers > (os.cpu_count() or 1):
        print(
            f"note: {workers} on {os.cpu_count()} CPUs: the workers share the CPUs, so the "
            f"-n figures show what {args.workers} workers cost here, not the speed-up a "
            f"{args.workers}-CPU machine would give"
        )
    print()
    print(f"{'run':34} {'wall s':>8} {'cpu s':>8}")
    labels = {
        "serial cold jobs1": "plugin, serial, cold, jobs 1",
        "serial cold": "plugin, serial, cold caches",
        "serial second": "plugin, serial, second run",
        "n2 cold": f"plugin, {workers}, cold caches",
        "n2 second": f"plugin, {workers}, second run",
        "constant serial": "control: constant cards, serial",
        "constant n2": f"control: constant cards, {workers}",
        "plain serial": "control: plain pytest, serial",
        "plain n2": f"control: plain pytest, {workers}",
    }
    for name, label in labels.items():
        print(f"{label:34} {runs[name].wall:8.2f} {runs[name].cpu:8.2f}")
    if mdl is not None:
        print(f"{'markdownlint-cli 0.43.0 alone':34} {mdl.wall:8.2f} {mdl.cpu:8.2f}")
    print()

    def ratio(a: str, b: str) -> str:
        return f"{runs[a].wall / runs[b].wall:5.2f}x wall, {runs[a].cpu / runs[b].cpu:5.2f}x cpu"

    def speedup(serial: str, parallel: str) -> str:
        return f"{runs[serial].wall / runs[parallel].wall:5.2f}x"

    rows = [
        ("against the floor (plain pytest, serial):", None, None, ""),
        ("  serial cold / plain", "serial cold", "plain serial", "target <= 2.5x"),
        ("  serial cold, jobs 1 / plain", "serial cold jobs1", "plain serial", ""),
        ("  look-ahead: jobs 1 / 2, cold", "serial cold jobs1", "serial cold", ""),
        ("  serial second / plain", "serial second", "plain serial", "target <= 1.25x"),
        ("  constant cards / plain", "constant serial", "plain serial", ""),
        ("  serial second / constant cards", "serial second", "constant serial", ""),
    ]
    for label, a, b, target in rows:
        if a is None or b is None:
            print(label)
        else:
            print(f"{label + ':':36} {ratio(a, b)}" + (f"   ({target})" if target else ""))
    print(f"{workers} speed-up over serial (wall):")
    for label, a, b, target in (
        ("  plugin, cold", "serial cold", "n2 cold", "target >= 1.15x"),
        ("  plugin, second run", "serial second", "n2 second", "target >= 1.0x"),
        ("  control, constant cards", "constant serial", "constant n2", ""),
        ("  control, plain pytest", "plain serial", "plain n2", ""),
    ):
        print(f"{label + ':':36} {speedup(a, b)}" + (f"   ({target})" if target else ""))
    print(f"{workers} CPU minus serial CPU (the work xdist adds):")
    for label, serial, parallel in (
        ("  plugin, cold", "serial cold", "n2 cold"),
        ("  plugin, second run", "serial second", "n2 second"),
        ("  control, constant cards", "constant serial", "constant n2"),
        ("  control, plain pytest", "plain serial", "plain n2"),
    ):
        added = runs[parallel].cpu - runs[serial].cpu
        print(f"{label + ':':36} {added:+7.2f} s ({1000 * added / items:+.2f} ms an item)")
    print()
    print("CPU seconds and peak memory (max RSS) of each pytest process:")
    by_run: dict[str, list[dict[str, Any]]] = {}
    for entry in memory:
        by_run.setdefault(str(entry.get("run")), []).append(entry)
    for run_name, entries in by_run.items():
        if run_name == "warm-up" or run_name.startswith("profile"):
            continue
        shown = ", ".join(
            f"{e['process']} {e['cpu']} s / {e['max_rss_mib']} MiB"
            for e in sorted(entries, key=lambda e: str(e["process"]))
        )
        print(f"  {run_name:14} {shown}")
    cpus = os.cpu_count() or 1
    print(
        f"the best {workers} wall these CPU figures allow (its processes' CPU shared perfectly "
        f"over {cpus} CPUs, and never below its busiest process), against the serial wall:"
    )
    for label, serial, parallel, run_name in (
        ("  plugin, cold", "serial cold", "n2 cold", "n2"),
        ("  plugin, second run", "serial second", "n2 second", "n2-second"),
        ("  control, constant cards", "constant serial", "constant n2", "constant-n2"),
        ("  control, plain pytest", "plain serial", "plain n2", "plain-n2"),
    ):
        best = best_wall(by_run.get(run_name, []), cpus)
        serial_wall, serial_cpu = runs[serial].wall, runs[serial].cpu
        # Against the serial CPU too: what one process doing the work takes on an idle
        # machine, so the bound still reads right when the load stretched every wall time.
        print(
            f"{label + ':':36} >= {best:6.2f} s; at best {serial_wall / best:4.2f}x the serial "
            f"wall ({serial_wall:.2f} s), {serial_cpu / best:4.2f}x its CPU "
            f"({serial_cpu:.2f} s); measured {serial_wall / runs[parallel].wall:4.2f}x"
        )
    same = serial_cards == n2_cards == serial_second_cards == n2_second_cards == jobs1_cards
    print(
        f"scorecards: {len(serial_cards)} files; byte-identical serial cold / second / "
        f"{workers} cold / second / serial cold with jobs 1: {same}"
    )
    for name in ("serial cold", "serial second", "n2 cold"):
        lines = [ln for ln in runs[name].result.stdout.splitlines() if "look-ahead:" in ln]
        print(f"{name}: {lines[0] if lines else 'no look-ahead worker started'}")
    outcomes = {name: runs[name].last_line for name in labels}
    print(f"outcomes: {json.dumps(outcomes, indent=1)}")
    if mdl is not None:
        print(f"markdownlint-cli exit code: {mdl.result.returncode}")
    print_timeline(timelines["n2"], started, f"{workers} cold run")
    print_timeline(timelines["serial"], serial_started, "serial cold run with look-ahead")
    if args.profile:
        import pstats

        for prof in sorted(profiles.glob("*.prof")):
            print(f"\nprofile {prof.stem} (second run; internal seconds, top 30):")
            pstats.Stats(str(prof)).sort_stats("tottime").print_stats(30)
            print(f"profile {prof.stem}: plugin functions, cumulative seconds, top 25:")
            pstats.Stats(str(prof)).sort_stats("cumulative").print_stats("pytest_postgates", 25)
    return 0 if same else 1


# The moments of a process's life the timeline shows, in order.
PHASES = (
    "configured",
    "collected",
    "sessionfinish",
    "sessionfinished",
    "summary",
    "summarised",
    "unconfigure",
)


def best_wall(processes: list[dict[str, Any]], cpus: int) -> float:
    """The shortest wall time a parallel run's CPU seconds allow: all of its processes'
    CPU spread perfectly over ``cpus``, and never less than its busiest process's (each
    process runs on one CPU at a time). Child processes (mermaid.js engines, git) and the
    processes' start-up before the plugin loads are not counted, so it is a lower bound."""
    seconds = [float(entry["cpu"]) for entry in processes]
    return max(sum(seconds) / cpus, max(seconds, default=0.0))


def cold_serial_report(
    args: argparse.Namespace, runs: dict[str, Run], same: bool, code: str, repo: Path
) -> int:
    """--cold-serial: the cold serial runs against plain pytest, side by side."""
    print(f"corpus: {args.posts} posts ({args.posts * 8} items), grounding repository {repo}")
    print(f"code: {code}")
    print(f"cpus: {os.cpu_count()}; load average at the end: {os.getloadavg()[0]:.1f}")
    print(f"{'run':34} {'wall s':>8} {'cpu s':>8}")
    for name in ("plain serial", "serial cold jobs1", "serial cold", "serial second"):
        print(f"{name:34} {runs[name].wall:8.2f} {runs[name].cpu:8.2f}")
    plain = runs["plain serial"]
    for name in ("serial cold jobs1", "serial cold", "serial second"):
        print(
            f"{name + ' / plain:':34} {runs[name].wall / plain.wall:5.2f}x wall, "
            f"{runs[name].cpu / plain.cpu:5.2f}x cpu"
            + ("   (target <= 2.5x)" if name == "serial cold" else "")
        )
    jobs1, ahead = runs["serial cold jobs1"], runs["serial cold"]
    print(
        f"look-ahead: jobs 1 / 2, cold: {jobs1.wall / ahead.wall:.2f}x wall; CPU "
        f"{ahead.cpu:.1f} s against {jobs1.cpu:.1f} s ({ahead.cpu - jobs1.cpu:+.1f} s)"
    )
    lines = [ln for ln in ahead.result.stdout.splitlines() if "look-ahead:" in ln]
    print(f"serial cold: {lines[0] if lines else 'no look-ahead worker started'}")
    print(f"outcomes: jobs1 {jobs1.last_line!r}; look-ahead {ahead.last_line!r}")
    print(f"scorecards byte-identical, look-ahead / jobs 1: {same}")
    return 0 if same else 1


def _spans(events: list[dict[str, Any]], kind: str) -> list[tuple[float, float]]:
    if kind == "wait":
        return [(e["asked"], e["got"]) for e in events if e["kind"] == "lock"]
    if kind == "held":
        return [(e["got"], e["released"]) for e in events if e["kind"] == "lock"]
    return [(e["start"], e["end"]) for e in events if e["kind"] == kind]


def _overlap(spans: list[tuple[float, float]], start: float, end: float) -> float:
    return sum(max(0.0, min(b, end) - max(a, start)) for a, b in spans)


# One character per slice of the run: what the process did most of that slice.
STRIP_KEY = (
    "G computing a gate (a cache miss; lock waits excluded), h computing a part of a batch "
    "while it would have waited on a lock, b holding a lock outside a gate (the worker's "
    "index prefetch), w waiting on a lock, c the main process waiting for a post a worker "
    "is gating, . alive, none of these (pytest's per-item work, cached results, "
    "scorecards, start-up), blank: not running"
)


def print_timeline(log: Path, started: float, title: str, width: int = 60) -> None:
    """What each process of a cold run did when: a strip of its life in ``width`` slices
    (see STRIP_KEY), its totals, the lock waits (and how much of them it spent computing
    parts of a batch nobody had started), and the longest lock holds."""
    events = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    by_process: dict[str, list[dict[str, Any]]] = {}
    for event in events:
        by_process.setdefault(str(event["process"]), []).append(event)
    ends = [e["at"] for e in events if e["kind"] == "exit"]
    finished = max(ends) if ends else time.time()
    slice_s = max(finished - started, 1e-6) / width
    print(f"\ntimeline of the {title} (seconds from its start, wall; {slice_s:.2f} s a slice):")
    print(f"  key: {STRIP_KEY}")
    for process, seen in sorted(by_process.items(), key=lambda kv: kv[0] != "main"):
        life = next((e["start"] for e in seen if e["kind"] == "life"), started)
        gone = next((e["at"] for e in seen if e["kind"] == "exit"), finished)
        spans = {kind: _spans(seen, kind) for kind in ("gate", "helped", "wait", "held")}
        spans["claim"] = _spans(seen, "claim wait")
        strip = []
        for number in range(width):
            a, b = started + number * slice_s, started + (number + 1) * slice_s
            alive = _overlap([(life, gone)], a, b)
            if alive < slice_s / 2:
                strip.append(" ")
                continue
            helped = _overlap(spans["helped"], a, b)
            waited = _overlap(spans["wait"], a, b) - helped
            gating = _overlap(spans["gate"], a, b) - max(0.0, waited) - helped
            held = _overlap(spans["held"], a, b) - _overlap(spans["gate"], a, b)
            share = {
                "G": gating,
                "h": helped,
                "b": held,
                "w": waited,
                "c": _overlap(spans["claim"], a, b),
            }
            mark, most = max(share.items(), key=lambda kv: kv[1])
            strip.append(mark if most >= alive / 3 else ".")
        print(f"  {process:>18} |{''.join(strip)}|")
    for process, seen in sorted(by_process.items(), key=lambda kv: kv[0] != "main"):
        locks = [e for e in seen if e["kind"] == "lock"]
        helped = [e for e in seen if e["kind"] == "helped"]
        items = next((e for e in seen if e["kind"] == "items"), None)
        life = next((e["start"] for e in seen if e["kind"] == "life"), started)
        gone = next((e["at"] for e in seen if e["kind"] == "exit"), finished)
        gates = _spans(seen, "gate")
        gating = sum(b - a for a, b in gates)
        waited = sum(e["got"] - e["asked"] for e in locks)
        helping = sum(e["end"] - e["start"] for e in helped)
        claim = sum(b - a for a, b in _spans(seen, "claim wait"))
        span = (
            f"items {items['first'] - started:.1f} to {items['last'] - started:.1f} s "
            f"({items['count']})"
            if items
            else f"gates {min(a for a, _ in gates) - started:.1f} to "
            f"{max(b for _, b in gates) - started:.1f} s ({len(gates)} computed)"
            if gates
            else "no gates"
        )
        cpu = next((e.get("cpu") for e in seen if e["kind"] == "exit"), None)
        print(
            f"  {process}: alive {life - started:.1f} to {gone - started:.1f} s"
            + (f", {cpu:.1f} s CPU (its own)" if cpu is not None else "")
            + f"; {span}; "
            f"computing gates {gating:.1f} s (lock waits included); waited on locks "
            f"{waited:.1f} s, of which computing {len(helped)} part(s) of a batch for later "
            f"{helping:.1f} s, idle {waited - helping:.1f} s; waited for a worker's post "
            f"{claim:.1f} s"
        )
        reports = next((e for e in seen if e["kind"] == "reports"), None)
        if reports:
            print(
                f"    reports received {reports['first'] - started:.1f} to "
                f"{reports['last'] - started:.1f} s ({reports['count']})"
            )
        phases = next((e for e in seen if e["kind"] == "phases"), None)
        if phases:
            shown = ", ".join(
                f"{name} {phases[name] - started:.1f}"
                for name in PHASES
                if isinstance(phases.get(name), float)
            )
            for kind in ("exit handlers", "process exit"):
                exited = next((e for e in seen if e["kind"] == kind), None)
                if exited:
                    shown += f", {kind} {exited['at'] - started:.1f}"
            print(f"    phases (s): {shown}")
        for hook in (e for e in seen if e["kind"] == "hook"):
            print(
                f"    {hook['hook']} of {hook['plugin'].rsplit('/', 1)[-1]}: "
                f"{hook['start'] - started:.1f} to {hook['end'] - started:.1f} s"
            )
        held: dict[str, list[float]] = {}
        for event in locks:
            base = event["name"].split(".part")[0]
            held.setdefault(base, []).append(event["released"] - event["got"])
        for base, times in sorted(held.items(), key=lambda kv: -sum(kv[1])):
            if sum(times) >= 0.2:
                print(f"    held {base}: {sum(times):.1f} s over {len(times)} lock(s)")
        for event in sorted(locks, key=lambda e: e["asked"]):
            if event["got"] - event["asked"] >= 0.5:
                print(
                    f"    at {event['asked'] - started:6.1f} s waited "
                    f"{event['got'] - event['asked']:.1f} s for {event['name']}"
                )


if __name__ == "__main__":
    raise SystemExit(main())
