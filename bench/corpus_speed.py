"""Corpus scale: 1,000 real-shaped posts, every deterministic gate, measured side by side.

Generates a corpus of 1,000 posts (front matter, prose with real and invented inline
tokens, numbers with units, code fences with imports, mermaid diagrams, internal and
external links) grounded against a large repository (this Python's standard library, as in
bench/grounding_speed.py), then times in one run:

- serial, cold caches;
- ``-n 2``, cold caches (target: >= 1.6x faster than serial on 2 cores);
- a second serial run of the unchanged corpus (warm result cache; target: >= 5x faster
  than the first);
- markdownlint-cli alone over the same 1,000 files (target: the ``-n 2`` run of every
  deterministic gate is faster);

and the peak memory (max RSS) of each pytest process (controller and workers; the
mermaid.js engine processes are separate and not counted). Two control runs with no gate
work show what pytest and pytest-xdist themselves cost for the same number of items.

    python bench/corpus_speed.py [--posts 1000]

markdownlint-cli 0.43.0 is installed with npm into bench/.work/node on first use.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
WORK = HERE / ".work"
sys.path.insert(0, str(HERE))

from grounding_speed import build_stdlib_repo, invent, sample_real_tokens  # noqa: E402

DETERMINISTIC = "1,2,14,7,6,12,11,13"
MEMORY_PLUGIN = """
import json, os, resource
def pytest_unconfigure(config):
    name = os.environ.get("PYTEST_XDIST_WORKER", "controller")
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with open(os.environ["BENCH_MEMORY_LOG"], "a") as log:
        record = {"run": os.environ.get("BENCH_RUN"), "process": name,
                  "max_rss_mib": round(peak_kib / 1024, 1)}
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
    shutil.rmtree(corpus, ignore_errors=True)
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
    plain = corpus / "plain"
    plain.mkdir()
    for number in range(posts):
        tests = "".join(f"def test_gate_{gate}():\n    pass\n\n\n" for gate in range(8))
        (plain / f"test_post_{number:04d}.py").write_text(tests)


def timed(
    command: list[str], cwd: Path, env: dict[str, str]
) -> tuple[float, subprocess.CompletedProcess[str]]:
    start = time.perf_counter()
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    return time.perf_counter() - start, result


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
    import os

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--posts", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)

    repo = build_stdlib_repo(WORK / "stdlib-repo").resolve()
    corpus = WORK / "corpus"
    generate(corpus, repo, args.posts, args.seed)
    memory_log = corpus / "memory.jsonl"
    memory_log.unlink(missing_ok=True)
    env = dict(
        os.environ, PYTHONPATH=str(corpus), BENCH_MEMORY_LOG=str(memory_log), PYTEST_ADDOPTS=""
    )
    # Python's bytecode cache is on for users; a machine that turns it off (this variable)
    # would make every process recompile pytest, the plugin and its dependencies.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    base = [
        sys.executable,
        "-m",
        "pytest",
        "_posts",
        "-q",
        "-p",
        "bench_memory",
        "-p",
        "no:randomly",
        # Installed here only by our test extras; a blog's CI does not load it.
        "-p",
        "no:hypothesispytest",
        f"--postgates-only={DETERMINISTIC}",
        "--postgates-all",
        "-o",
        "cache_dir=.bench-cache",
    ]

    def fresh() -> None:
        shutil.rmtree(corpus / ".bench-cache", ignore_errors=True)
        shutil.rmtree(corpus / ".postgates", ignore_errors=True)

    def run(label: str, extra: list[str]) -> tuple[float, subprocess.CompletedProcess[str]]:
        return timed([*base, *extra], corpus, dict(env, BENCH_RUN=label))

    # Warm the bytecode caches (pytest's rewritten plugin modules too) outside the timing.
    run("warm-up", ["--collect-only", str(sorted((corpus / "_posts").glob("*.md"))[0])])
    fresh()
    serial, serial_result = run("serial", [])
    warm, warm_result = run("serial-second", [])
    fresh()
    parallel, parallel_result = run("n2", ["-n", "2"])
    parallel_warm, parallel_warm_result = run("n2-second", ["-n", "2"])
    fresh()
    constant, _ = run("constant", ["-p", "bench_constant"])
    constant_n2, _ = run("constant-n2", ["-p", "bench_constant", "-n", "2"])
    plain_base = [sys.executable, "-m", "pytest", "plain", "-q", "-p", "no:randomly"]
    plain_base += ["-p", "no:hypothesispytest", "-p", "no:cacheprovider"]
    timed([*plain_base, "--collect-only"], corpus, env)  # bytecode for the test modules
    plain, _ = timed(plain_base, corpus, env)
    plain_n2, _ = timed([*plain_base, "-n", "2"], corpus, env)
    lint = markdownlint_cli()
    files = sorted(str(p) for p in (corpus / "_posts").glob("*.md"))
    mdl, mdl_result = timed(
        [str(lint), "--config", str(corpus / ".markdownlint.json"), *files], corpus, env
    )
    memory = [json.loads(line) for line in memory_log.read_text().splitlines()]

    def last_line(result: subprocess.CompletedProcess[str]) -> str:
        lines = result.stdout.strip().splitlines()
        return lines[-1] if lines else f"(no output; stderr: {result.stderr.strip()[-300:]})"

    print(f"corpus: {args.posts} posts, grounding repository {repo}")
    print(
        f"gates: {DETERMINISTIC} (6 offline); outcome of the serial run: {last_line(serial_result)}"
    )
    print(f"serial, cold caches:      {serial:7.2f} s")
    print(
        f"-n 2, cold caches:        {parallel:7.2f} s   "
        f"speed-up {serial / parallel:.2f}x (target >= 1.6x)"
    )
    print(f"serial, second run:       {warm:7.2f} s   speed-up {serial / warm:.2f}x (target >= 5x)")
    print(
        f"-n 2, second run:         {parallel_warm:7.2f} s   "
        f"speed-up {parallel / parallel_warm:.2f}x"
    )
    print(
        f"markdownlint-cli alone:   {mdl:7.2f} s   "
        f"(-n 2 cold / markdownlint-cli = {parallel / mdl:.2f}, "
        f"-n 2 second run / markdownlint-cli = {parallel_warm / mdl:.2f}; target < 1)"
    )
    items = args.posts * 8
    print(f"controls, {items} items with no gate work (serial / -n 2):")
    print(
        f"  plugin with constant cards: {constant:7.2f} s / {constant_n2:7.2f} s   "
        f"(-n 2 speed-up {constant / constant_n2:.2f}x)"
    )
    print(
        f"  plain pytest, empty tests:  {plain:7.2f} s / {plain_n2:7.2f} s   "
        f"(-n 2 speed-up {plain / plain_n2:.2f}x; -n 2 / markdownlint-cli = {plain_n2 / mdl:.2f})"
    )
    for entry in memory:
        if entry.get("run") not in ("warm-up", "constant", "constant-n2"):
            print(f"peak memory, {entry.get('run')} {entry['process']}: {entry['max_rss_mib']} MiB")
    outcomes = {
        "serial": last_line(serial_result),
        "serial-second": last_line(warm_result),
        "n2": last_line(parallel_result),
        "n2-second": last_line(parallel_warm_result),
    }
    print(f"outcomes: {json.dumps(outcomes)}")
    print(f"markdownlint-cli exit code: {mdl_result.returncode}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
