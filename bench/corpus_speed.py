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

and the peak memory (max RSS) of each pytest process (controller and workers).

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
        log.write(json.dumps({"process": name, "max_rss_mib": round(peak_kib / 1024, 1)}) + "\\n")
"""
PROSE = [
    "This part of the standard library keeps its state in one place, which makes tests short.",
    "Each module reads its configuration once and hands plain values to the code that needs them.",
    "Errors are raised where they happen and carry the name of the file and the line.",
    "The pattern is simple: parse the input, check it, then act on the checked value.",
]


def write_post(
    folder: Path, number: int, tokens: list[str], rng: random.Random, slugs: list[str]
) -> None:
    slug = f"bench-post-{number:04d}"
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
            lines += ["## A section about the code", ""]
        if i % 7 == 0:
            lines += [
                f"The cache saves {rng.randint(2, 90)}% of the time, "
                f"about {rng.randint(10, 900)} ms.",
                "",
            ]
        if i % 9 == 0:
            lines += [
                "```python",
                f"from {rng.choice(['os', 'json', 'pathlib'])} import {token.split('.')[-1]}",
                "```",
                "",
            ]
    lines += [
        "```mermaid",
        "flowchart TD",
        '  A["Read the input"] --> B["Check it"]',
        '  B --> C["Act on it"]',
        "```",
        "",
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
    env = dict(
        os.environ, PYTHONPATH=str(corpus), BENCH_MEMORY_LOG=str(memory_log), PYTEST_ADDOPTS=""
    )
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
        f"--postgates-only={DETERMINISTIC}",
        "--postgates-all",
        "-o",
        "cache_dir=.bench-cache",
    ]

    def fresh() -> None:
        shutil.rmtree(corpus / ".bench-cache", ignore_errors=True)
        shutil.rmtree(corpus / ".postgates", ignore_errors=True)
        memory_log.unlink(missing_ok=True)

    fresh()
    serial, serial_result = timed(base, corpus, env)
    warm, warm_result = timed(base, corpus, env)
    fresh()
    parallel, parallel_result = timed([*base, "-n", "2"], corpus, env)
    memory = [json.loads(line) for line in memory_log.read_text().splitlines()]
    lint = markdownlint_cli()
    files = sorted(str(p) for p in (corpus / "_posts").glob("*.md"))
    mdl, mdl_result = timed(
        [str(lint), "--config", str(corpus / ".markdownlint.json"), *files], corpus, env
    )

    summary = serial_result.stdout.strip().splitlines()[-1] if serial_result.stdout.strip() else "?"
    print(f"corpus: {args.posts} posts, grounding repository {repo}")
    print(f"gates: {DETERMINISTIC} (6 offline); outcome of the serial run: {summary}")
    print(f"serial, cold caches:      {serial:7.2f} s")
    print(
        f"-n 2, cold caches:        {parallel:7.2f} s   "
        f"speed-up {serial / parallel:.2f}x (target >= 1.6x)"
    )
    print(f"serial, second run:       {warm:7.2f} s   speed-up {serial / warm:.2f}x (target >= 5x)")
    print(
        f"markdownlint-cli alone:   {mdl:7.2f} s   "
        f"(-n 2 run / markdownlint-cli = {parallel / mdl:.2f}, target < 1)"
    )
    for entry in memory:
        print(f"peak memory, {entry['process']}: {entry['max_rss_mib']} MiB")
    same = {
        "serial": serial_result.stdout.strip().splitlines()[-1:],
        "warm": warm_result.stdout.strip().splitlines()[-1:],
        "parallel": parallel_result.stdout.strip().splitlines()[-1:],
    }
    print(f"outcomes: {json.dumps(same)}")
    print(f"markdownlint-cli exit code: {mdl_result.returncode}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
