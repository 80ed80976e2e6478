"""Parse every mermaid block of a real corpus with gate 1's parser: speed and verdicts.

Prints, for the blocks exactly as gate 1 sends them to mermaid (Liquid ``{% raw %}`` tags
removed):

- engine start: the first diagram of a fresh parser (starting a worker, loading mermaid.js);
- cold: every block parsed with an empty cache by a warm engine, one worker and then the
  parallel batch the gate uses (diagrams/s);
- warm: every block again, from the in-memory cache and from the disk cache (diagrams/s);
- every block mermaid rejects, with its own message, both as gate 1 sends it and as raw
  fence text (to show what the Liquid step changes).

``--compare-unpatched`` also parses every block with mermaidx's bundle as shipped (no
speed-ups) and reports any block whose result differs. Times are wall-clock; the machine's
load average is printed with them because the figures scale with free CPU.

Usage:

    python bench/mermaid_speed.py ../shared/corpus/neurolink-blog/_posts [--engine quickjs]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from pytest_postgates.gates import blog_quality
from pytest_postgates.post import parse_post
from pytest_postgates.tools.mermaid import MermaidParser, default_engine, mermaidx_version

DEFAULT_FOLDER = Path(__file__).resolve().parents[2] / "shared/corpus/neurolink-blog/_posts"


def blocks(folder: Path) -> list[tuple[str, int, str, str]]:
    """(post, fence line, text as gate 1 sends it, raw fence text) per closed block."""
    found = []
    for path in sorted(folder.glob("*.md")):
        post = parse_post(path)
        if post.fatal_problems:
            continue
        raw = {fence.start_line: fence.content for fence in post.fences}
        for line, code, closed in blog_quality.mermaid_blocks(post):
            if closed:
                found.append((path.name, line, code, raw[line]))
    return found


def rate(count: int, seconds: float) -> str:
    return f"{count} diagrams in {seconds:.2f} s = {count / seconds:.1f} diagrams/s"


def load() -> str:
    try:
        return "load average " + " ".join(f"{value:.2f}" for value in os.getloadavg())
    except OSError:  # pragma: no cover - not on every platform
        return "load average unknown"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, nargs="?", default=DEFAULT_FOLDER)
    parser.add_argument("--engine", choices=("auto", "quickjs", "v8"), default="auto")
    parser.add_argument("--workers", type=int, default=None, help="batch workers (default: CPUs)")
    parser.add_argument("--compare-unpatched", action="store_true")
    args = parser.parse_args(argv)

    found = blocks(args.folder)
    if not found:
        print(f"no mermaid blocks in {args.folder}", file=sys.stderr)
        return 2
    codes = [code for _, _, code, _ in found]
    distinct = list(dict.fromkeys(codes))
    engine = default_engine() if args.engine == "auto" else args.engine
    print(
        f"{len(found)} mermaid blocks ({len(distinct)} distinct) in {args.folder}; "
        f"engine {engine}, mermaidx {mermaidx_version()}, {os.cpu_count()} CPUs, {load()}"
    )

    with tempfile.TemporaryDirectory(prefix="mermaid-bench-") as folder:
        cache = Path(folder)
        single = MermaidParser(cache / "one", engine=engine, max_workers=1)
        started = time.perf_counter()
        single.parse("flowchart LR\n    start --> ready\n")
        seconds = time.perf_counter() - started
        print(f"engine start (worker + mermaid.js, first diagram): {seconds:.2f} s")
        print(f"  speed-ups: {single.worker_info}")

        started = time.perf_counter()
        results = single.parse_many(distinct)
        print(f"cold, 1 warm worker:      {rate(len(distinct), time.perf_counter() - started)}")

        # The gate's batch: workers for the free CPUs (``--workers`` caps them).
        pool = MermaidParser(cache / "pool", engine=engine, max_workers=args.workers)
        started = time.perf_counter()
        pooled = pool.parse_many(distinct)
        seconds = time.perf_counter() - started
        print(
            f"cold, batch of {pool.worker_starts} workers: {rate(len(distinct), seconds)} "
            "(worker starts included)"
        )
        assert pooled == results

        started = time.perf_counter()
        single.parse_many(codes)
        print(f"warm, memory cache:       {rate(len(codes), time.perf_counter() - started)}")
        reader = MermaidParser(cache / "one", engine=engine)
        started = time.perf_counter()
        reader.parse_many(codes)
        seconds = time.perf_counter() - started
        print(f"warm, disk cache:         {rate(len(codes), seconds)} (new process state)")
        assert reader.engine_calls == 0

        failing = [(name, line, results[code]) for name, line, code, _ in found]
        failing = [(name, line, result) for name, line, result in failing if not result.ok]
        print(f"\nblocks mermaid rejects as gate 1 sends them: {len(failing)}")
        for name, line, result in failing:
            where = line + result.line if result.line else line
            print(f"  {name}:{where}: [{result.kind}] {result.message}")

        raw = single.parse_many([text for _, _, _, text in found])
        raw_failing = [(name, line, raw[text]) for name, line, _, text in found]
        raw_failing = [(name, line, result) for name, line, result in raw_failing if not result.ok]
        print(f"blocks mermaid rejects as raw fence text (Liquid tags kept): {len(raw_failing)}")
        for name, line, result in raw_failing:
            print(f"  {name}:{line}: [{result.kind}] {result.message[:160]}")

        if args.compare_unpatched:
            plain = MermaidParser(cache / "plain", engine=engine, patched=False)
            started = time.perf_counter()
            unpatched = plain.parse_many(distinct)
            seconds = time.perf_counter() - started
            differ = [code for code in distinct if unpatched[code] != results[code]]
            print(
                f"\nunpatched bundle: {rate(len(distinct), seconds)} "
                f"({plain.worker_starts} workers); results differing from the gate's: "
                f"{len(differ)}"
            )
            plain.close()
        for made in (single, pool, reader):
            made.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
