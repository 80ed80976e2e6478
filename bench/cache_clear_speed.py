"""What ``--cache-clear`` costs: removing a pytest cache folder the plugin filled.

pytest's ``--cache-clear`` removes the whole cache folder. This script takes the cache
folders two runs left behind (by default the ones ``bench/real_speed.py`` leaves: the
plugin at the baseline commit and this checkout, each after a cold run and a second run of
the 130 NeuroLink posts), copies each ``--repeat`` times and times removing the copy, the
same ``shutil.rmtree`` pytest uses; it prints the file counts and the median times side by
side (the copy is made before the clock starts, and flushed with ``sync``).

    python bench/real_speed.py && python bench/cache_clear_speed.py
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

SCRATCH = Path(tempfile.gettempdir()) / f"postgates-real-speed-{os.getuid()}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", type=Path, default=SCRATCH / "baseline" / ".bench-cache")
    parser.add_argument("--new", type=Path, default=SCRATCH / "current" / ".bench-cache")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    for folder in (args.old, args.new):
        if not folder.is_dir():
            print(f"no cache folder {folder}: run bench/real_speed.py first")
            return 2
    times: dict[str, list[float]] = {"old": [], "new": []}
    counts = {}
    with tempfile.TemporaryDirectory(prefix="cache-clear-", dir=SCRATCH.parent) as work:
        for repetition in range(args.repeat):
            for label, folder in (("old", args.old), ("new", args.new))[
                :: 1 - 2 * (repetition % 2)
            ]:
                copy = Path(work) / label
                shutil.copytree(folder, copy, symlinks=True)
                counts[label] = sum(len(files) for _root, _dirs, files in os.walk(copy))
                subprocess.run(["sync"], check=False)
                start = time.perf_counter()
                shutil.rmtree(copy)
                times[label].append(time.perf_counter() - start)
    old, new = statistics.median(times["old"]), statistics.median(times["new"])
    print(f"cache folders: old {args.old}, new {args.new}; {args.repeat} repetitions")
    print(f"old: {counts['old']:6d} files, removed in {old:6.3f} s (median)")
    print(f"new: {counts['new']:6d} files, removed in {new:6.3f} s (median)")
    print(f"old / new: {old / new:5.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
