"""Gate 16 held out: bench/wiring_planted.py on projects it was never tuned on.

For each project (``--project owner/name``, repeatable; default :data:`PROJECTS`), a
``git clone --shared --no-checkout`` of its bare mirror
``$POSTGATES_MIRRORS/<owner>+<name>/repo`` (default /work/.mirror) at the mirror's HEAD,
its ``docs/**/*.md`` pages written flat into the clone from the commit (the gate reads
them as posts of that repository), and wiring_planted's
measurement run there with the same seed: the docs' own call claims gate 16 reads and
contradicts (the unplanted control: every one is a false finding or a real error of the
docs), the claims drawn from the project's model (all true: any not verified is listed),
and the share of wrong wiring planted into them that gate 16 contradicts (target >= 95%).
It prints one summary block per project, with the commit it measured.

    python bench/wiring_holdout.py [--project encode/httpx] [--seed 20261204]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DEFAULT_SEED = 20261204
# Python and TypeScript projects with a docs folder, among the mirrors the benches use.
PROJECTS = (
    "encode/httpx",
    "pydantic/pydantic-ai",
    "Textualize/textual",
    "strawberry-graphql/strawberry",
    "vitest-dev/vitest",
)
# The lines of wiring_planted's output kept: its figures, and each unplanted claim the
# gate contradicts or generated claim it does not verify.
_FIGURES = ("unplanted control", "generated control", "contradicted (")
_LISTED = ("  control ", "  generated ")


def _planted() -> Any:
    """bench/wiring_planted.py (its gate context and runner), imported as a sibling."""
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    import wiring_planted

    return wiring_planted


def _git(*args: str) -> str:
    return subprocess.run(["git", *args], capture_output=True, text=True, check=True).stdout


def prepare(mirror: Path, scratch: Path) -> tuple[Path, Path, str]:
    """The clone (no work tree: a mirror may lack its largest blobs), its folder of flat
    docs pages read from the commit, and the commit."""
    clone = scratch / "clone"
    _git("clone", "-q", "--shared", "--no-checkout", str(mirror), str(clone))
    commit = _git("-C", str(clone), "rev-parse", "HEAD").strip()
    flat = clone / "_postgates_docs"
    flat.mkdir()
    listed = _git("-C", str(clone), "ls-tree", "-r", "--name-only", commit, "--", "docs")
    for path in sorted(p for p in listed.splitlines() if p.endswith(".md")):
        text = subprocess.run(
            ["git", "-C", str(clone), "show", f"{commit}:{path}"], capture_output=True, check=True
        ).stdout
        (flat / "__".join(Path(path).parts[1:])).write_bytes(text)
    return clone, flat, commit


def measure(project: str, mirrors: Path, seed: int) -> str:
    """wiring_planted's summary on one project (see the module doc)."""
    mirror = mirrors / project.replace("/", "+") / "repo"
    if not mirror.is_dir():
        return f"== {project}: no mirror at {mirror}"
    with tempfile.TemporaryDirectory() as scratch:
        clone, flat, commit = prepare(mirror, Path(scratch))
        pages = len(list(flat.glob("*.md")))
        if not pages:
            return f"== {project} at {commit[:12]}: no docs/**/*.md page"
        out = io.StringIO()
        argv = ["--repo", str(clone), "--ref", "HEAD", "--posts", str(flat), "--seed", str(seed)]
        with contextlib.redirect_stdout(out):
            _planted().main(argv)
    kept = [
        line
        for line in out.getvalue().splitlines()
        if any(figure in line for figure in _FIGURES) or line.startswith(_LISTED)
    ]
    return "\n".join([f"== {project} at {commit[:12]}: {pages} docs pages", *kept])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--project", action="append", default=None)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument(
        "--mirrors", type=Path, default=Path(os.environ.get("POSTGATES_MIRRORS", "/work/.mirror"))
    )
    args = parser.parse_args(argv)
    for project in args.project or PROJECTS:
        print(measure(project, args.mirrors, args.seed), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
