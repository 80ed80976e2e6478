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
                                  [--json bench/results/mermaid_speed.json]

``--json OUT`` also writes the speeds and the verdicts, the blocks rejected as raw fence
text (the control for the Liquid step) beside those rejected as gate 1 sends them
(bench/results_json.py).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.results_json import Run
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
    parser.add_argument("--json", type=Path, help="also write the figures as JSON to this file")
    args = parser.parse_args(argv)
    run = Run("mermaid_speed", {"posts": str(args.folder), "engine": args.engine})
    speeds = run.table(
        "Parsing every distinct block (wall time)",
        [
            {"name": "measure", "kind": "label"},
            {"name": "parsed", "kind": "figure", "unit": "diagrams"},
            {"name": "time", "kind": "figure", "unit": "s"},
            {"name": "rate", "kind": "figure", "unit": "diagrams/s"},
        ],
    )

    def timed_row(label: str, count: int, seconds: float) -> None:
        speeds.append([label, count, round(seconds, 4), round(count / seconds, 1)])

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
        timed_row("engine start (worker, mermaid.js, first diagram)", 1, seconds)
        print(f"  speed-ups: {single.worker_info}")

        started = time.perf_counter()
        results = single.parse_many(distinct)
        seconds = time.perf_counter() - started
        print(f"cold, 1 warm worker:      {rate(len(distinct), seconds)}")
        timed_row("empty cache, 1 warm worker", len(distinct), seconds)

        # The gate's batch: workers for the free CPUs (``--workers`` caps them).
        pool = MermaidParser(cache / "pool", engine=engine, max_workers=args.workers)
        started = time.perf_counter()
        pooled = pool.parse_many(distinct)
        seconds = time.perf_counter() - started
        print(
            f"cold, batch of {pool.worker_starts} workers: {rate(len(distinct), seconds)} "
            "(worker starts included)"
        )
        timed_row(
            f"empty cache, batch of {pool.worker_starts} workers (starts included)",
            len(distinct),
            seconds,
        )
        assert pooled == results

        started = time.perf_counter()
        single.parse_many(codes)
        seconds = time.perf_counter() - started
        print(f"warm, memory cache:       {rate(len(codes), seconds)}")
        timed_row("every block, memory cache", len(codes), seconds)
        reader = MermaidParser(cache / "one", engine=engine)
        started = time.perf_counter()
        reader.parse_many(codes)
        seconds = time.perf_counter() - started
        print(f"warm, disk cache:         {rate(len(codes), seconds)} (new process state)")
        timed_row("every block, disk cache (new process state)", len(codes), seconds)
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
        verdicts = run.table(
            "Blocks mermaid rejects",
            [
                {"name": "in the posts", "kind": "figure", "unit": "blocks"},
                {"name": "rejected as gate 1 sends them", "kind": "figure", "unit": "blocks"},
                {"name": "rejected as raw fence text", "kind": "control", "unit": "blocks"},
            ],
        )
        verdicts.append([len(found), len(failing), len(raw_failing)])
        run.notes.append(
            f"engine {engine}, mermaidx {mermaidx_version()}; {len(found)} blocks, "
            f"{len(distinct)} distinct"
        )
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
    if args.json:
        run.write(args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
