"""Before/after: every replaced regex and its linear-time scanner on adversarial input.

For each pattern of tests/hostile/regex_cases.py, prints the CPU time (this thread, best
of three; a shared machine stretches wall time, not thread time) of the regex the package
used before issue 16 and of the scanner it uses now, on the pattern's adversarial input at
growing sizes, and the growth factor from the smallest to the largest size (16x the input:
about 16x for linear time, 256x for quadratic). The old regex is stopped after ``--limit``
seconds of wall time per size and shown as ``>limit``; larger sizes are then not tried.

Usage:

    python bench/regex_growth.py [--sizes 2000,8000,32000] [--large 600000] [--limit 20]
                                 [--json bench/results/regex_growth.json]

``--json OUT`` also writes the table (milliseconds of CPU; each old regex, the control,
beside its scanner at the same size) for the Benchmarks page (bench/results_json.py).
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.results_json import Run
from tests.hostile.regex_cases import CASES


class _Stop(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise _Stop


def timed(pattern: object, text: str, limit: float) -> float | None:
    """Best of three CPU times of ``list(pattern.finditer(text))``; None past ``limit``."""
    best = float("inf")
    for _ in range(3):
        signal.setitimer(signal.ITIMER_REAL, limit)
        started = time.thread_time()
        try:
            list(pattern.finditer(text))  # type: ignore[attr-defined]
        except _Stop:
            return None
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        best = min(best, time.thread_time() - started)
        if best > limit / 3:
            break
    return best


def show(seconds: float | None, limit: float) -> str:
    if seconds is None:
        return f">{limit:g} s".rjust(10)
    if seconds >= 1:
        return f"{seconds:8.1f} s"
    return f"{seconds * 1000:7.1f} ms"


def growth(times: list[float | None], factor: float) -> str:
    if times[0] is None or times[-1] is None:
        return "n/a (stopped)"
    return f"{times[-1] / max(times[0], 1e-6):.0f}x for {factor:.0f}x input"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="2000,8000,32000")
    parser.add_argument("--large", type=int, default=600_000, help="one more size, new only")
    parser.add_argument("--limit", type=float, default=20.0, help="seconds per old run")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON to this file")
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    run = Run("regex_growth", {"sizes": sizes, "large": args.large, "limit_s": args.limit})
    run.notes.append(
        "CPU time of one thread, best of three, in ms; an old regex stopped after the limit "
        "is shown as stopped and not tried at larger sizes"
    )
    columns = [{"name": "pattern", "kind": "label"}]
    for size in sizes:
        # Sizes as the settings write them, so that gate 7 finds them in the file.
        columns.append({"name": f"old regex, {size} chars", "kind": "control", "unit": "ms"})
        columns.append({"name": f"scanner, {size} chars", "kind": "figure", "unit": "ms"})
    columns.append({"name": f"scanner, {args.large} chars", "kind": "figure", "unit": "ms"})
    rows = run.table("Old regex (control) and linear scanner on adversarial input", columns)
    signal.signal(signal.SIGALRM, _alarm)
    header = [
        "pattern",
        *(f"old@{s // 1000}K" for s in sizes),
        *(f"new@{s // 1000}K" for s in sizes),
    ]
    header += [f"new@{args.large // 1000}K", "old growth", "new growth"]
    print(" | ".join(header))
    print(" | ".join("---" for _ in header))
    for case in CASES:
        old: list[float | None] = []
        for size in sizes:
            old.append(
                timed(case.old, case.adversarial(size), args.limit)
                if (not old or old[-1] is not None)
                else None
            )
        new = [timed(case.new, case.adversarial(size), args.limit) for size in sizes]
        large = timed(case.new, case.adversarial(args.large), args.limit)
        factor = sizes[-1] / sizes[0]

        row = [case.name, *(show(t, args.limit) for t in old), *(show(t, args.limit) for t in new)]
        row += [show(large, args.limit), growth(old, factor), growth(new, factor)]
        print(" | ".join(row), flush=True)
        cells: list[object] = [case.name]
        for old_time, new_time in zip(old, new, strict=True):
            cells += [_ms(old_time, args.limit), _ms(new_time, args.limit)]
        rows.append([*cells, _ms(large, args.limit)])
    if args.json:
        run.write(args.json)


def _ms(seconds: float | None, limit: float) -> float | str:
    return f"stopped after {limit:g} s" if seconds is None else round(seconds * 1000, 1)


if __name__ == "__main__":
    main()
