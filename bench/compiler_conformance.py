"""What the benches that measure gate 15 against the TypeScript compiler share
(bench/option_keys_conformance.py, bench/member_types_conformance.py): the packages and the
commits they are pinned at, the scratch checkouts (a shared clone for the gate, the source
extracted for the compiler, the installed dependencies linked), the compiler's oracle
script run over them, gate 15 run on a bench's post with the code measured or the
control's (in a subprocess: this file's ``--evaluate``), and the per-package table both
print and write.

A bench gives its own samples and classes; ``main`` runs it over the packages asked for:

    main(Bench(name, doc, control, prefix, measure, report, note))
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
ORACLE_ENV = "POSTGATES_TS_ORACLE_DIR"
DEPENDENCIES_ENV = "POSTGATES_BENCH_DEPENDENCIES"
DEPENDENCY_PATH_ENV = "POSTGATES_DEPENDENCY_PATH"
MIRRORS = Path("/work/.mirror")
REF = "option-keys-ref"  # the branch gate 15 judges a package at

# Tune-half packages: (project, commit the tune labels pin, [(specifier, entry file)]).
# The entry is the file the compiler reads: the package's own TypeScript source where it
# is written in TypeScript, else its hand-written declaration file.
PACKAGES: dict[str, tuple[str, list[tuple[str, str]]]] = {
    "sindresorhus/ky": ("2ded27572ec4", [("ky", "index.d.ts")]),
    "sindresorhus/got": ("f839ae73bb3a", [("got", "source/index.ts")]),
    "pmndrs/zustand": (
        "3fca8461798d",
        [
            ("zustand", "src/index.ts"),
            ("zustand/vanilla", "src/vanilla.ts"),
            ("zustand/middleware", "src/middleware.ts"),
        ],
    ),
    "google/zx": ("8d3955ed4ccd", [("zx", "src/index.ts"), ("zx/core", "src/core.ts")]),
    "axios/axios": ("cdacd9761c2f", [("axios", "index.d.ts")]),
    "fastify/fastify": ("a1413de2033b", [("fastify", "fastify.d.ts")]),
    "nodejs/undici": ("cae3940b8617", [("undici", "index.d.ts")]),
}
CLASSES = ("exact", "unjudged", "false finding", "missed")
OPEN_FALSE = "open, false finding"
LABELS = ("control", "now")
IDENTIFIER = re.compile(r"^[A-Za-z_$][\w$]*$")


def blank(reason: str) -> str:
    """A reason with its names blanked (the same reason for every callable)."""
    text = re.sub(r"`[^`]*`", "`_`", reason)
    text = re.sub(r"[\w$.]+\(\)", "_()", text)
    text = re.sub(r"\b[A-Z][\w$]*(\.[\w$]+)*\b", "_", text)
    text = re.sub(r"\b[\w./-]+\.(d\.)?[mc]?[jt]s(:\d+)?\b", "_file", text)
    return " ".join(text.split())[:110]


def share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.0f}%)" if whole else "-"


def checkout(project: str, commit: str, scratch: Path) -> tuple[Path, Path, Path | None]:
    """A shared clone at ``commit`` (the gate's repository), the source extracted (the
    compiler's), and the installed dependencies folder (None when absent)."""
    mirror = MIRRORS / project.replace("/", "+") / "repo"
    slug = project.replace("/", "+")
    site, source = scratch / f"site-{slug}", scratch / f"src-{slug}"
    if not site.exists():
        subprocess.run(["git", "clone", "-q", "--shared", "--no-checkout", str(mirror),
                        str(site)], check=True)  # fmt: skip
        subprocess.run(["git", "-C", str(site), "branch", "-q", "-f", REF, commit], check=True)
    if not source.exists():
        source.mkdir(parents=True)
        archive = subprocess.run(["git", "--git-dir", str(mirror), "archive", commit],
                                 capture_output=True, check=True)  # fmt: skip
        subprocess.run(["tar", "-x", "-C", str(source)], input=archive.stdout, check=True)
    base = os.environ.get(DEPENDENCIES_ENV)
    deps = Path(base) / slug / "js" if base else None
    if deps is not None and (deps / "node_modules").is_dir():
        link = source / "node_modules"
        if not link.exists():
            link.symlink_to(deps / "node_modules")
        return site, source, deps
    return site, source, None


def oracle(
    script: Path, project: str, source: Path, entries: list[tuple[str, str]]
) -> list[dict[str, Any]]:
    """The rows the compiler's oracle ``script`` prints for ``entries`` of ``source``."""
    folder = os.environ.get(ORACLE_ENV)
    if not folder:
        raise SystemExit(f"{ORACLE_ENV} is not set (a node_modules folder with typescript)")
    done = subprocess.run(
        ["node", str(script), folder, str(source), *[entry for _, entry in entries]],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"the compiler failed on {project}: {done.stderr[-2000:]}")
    rows: list[dict[str, Any]] = json.loads(done.stdout)
    return rows


def write_post(scratch: Path, folder: str, project: str, name: str, text: str) -> Path:
    """The bench's post for ``project`` (``scratch/folder-owner+name/name``), written."""
    post = scratch / f"{folder}-{project.replace('/', '+')}" / name
    post.parent.mkdir(parents=True, exist_ok=True)
    post.write_text(text, encoding="utf-8")
    return post


def evaluate(post: Path, site: Path, cache: Path) -> dict[str, Any]:
    """Gate 15's card detail on ``post`` against ``site`` (runs in the code's process)."""
    sys.path.append(str(REPO))
    from pytest_postgates.gates import GateContext, code_samples, default_settings
    from pytest_postgates.post import parse_post

    settings = default_settings(repo=site, ref=REF, offline=True)
    card = code_samples.GATE.evaluate(parse_post(post), GateContext.create(settings, cache))
    detail = card.detail or {}
    return {
        "verdict": str(card.verdict),
        "summary": card.summary,
        "violations": detail.get("violations", []),
        "unjudged": detail.get("unjudged", []),
    }


def run_gate(code: Path, post: Path, site: Path, cache: Path, deps: Path | None) -> Any:
    """``evaluate`` with the package at ``code`` (the measured or the control's)."""
    env = {**os.environ, "PYTHONPATH": str(code)}
    env[DEPENDENCY_PATH_ENV] = str(deps) if deps else ""
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--evaluate", str(post),
         "--site", str(site), "--cache", str(cache)],
        capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"gate 15 failed on {post}: {done.stderr[-2000:]}")
    return json.loads(done.stdout)


def control_code(scratch: Path, commit: str) -> Path:
    """The package at ``commit``, extracted from git into the scratch folder."""
    folder = scratch / f"code-{commit}"
    if not (folder / "pytest_postgates").is_dir():
        folder.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "-C", str(REPO), "archive", commit, "pytest_postgates"],
                                 capture_output=True, check=True)  # fmt: skip
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return folder


def table(run: Any, title: str, labels: tuple[str, str], control: str) -> Any:
    """The per-package results table: the package, its (items, excluded) label columns,
    then each class at the control beside the code measured."""
    if run is None:
        return None
    columns = [{"name": "package", "kind": "label"}]
    columns += [{"name": name, "kind": "label"} for name in labels]
    for name in (*CLASSES, OPEN_FALSE):
        columns.append({"name": f"{name} at {control}", "kind": "control"})
        columns.append({"name": name, "kind": "figure"})
    return run.table(title, columns)


def opened(result: dict[str, Any]) -> int:
    """How many of a package's samples are open (any name valid there)."""
    judged = sum(1 for o in result["runs"]["now"] if not o["class"].startswith("open"))
    return int(result["items"]) - judged


def report_package(
    project: str,
    result: dict[str, Any],
    heading: str,
    rows: Any,
    show: int,
    shown: Callable[[dict[str, Any]], str],
) -> dict[str, collections.Counter[str]]:
    """Print ``heading``, one package's classes (control beside now), its row in ``rows``
    and the samples that changed class or are wrong now (``shown``: what follows one's
    item). Returns the counts per label."""
    counts = {label: collections.Counter(o["class"] for o in result["runs"][label])
              for label in LABELS}  # fmt: skip
    open_count = opened(result)
    judged = result["items"] - open_count
    excluded = sum(result["excluded"].values())
    print(heading)
    for name in CLASSES:
        print(f"  {name:14} control {share(counts['control'][name], judged):>14}   "
              f"now {share(counts['now'][name], judged):>14}")  # fmt: skip
    if open_count:
        print(f"  {OPEN_FALSE:14} control {counts['control'][OPEN_FALSE]}/{open_count}   "
              f"now {counts['now'][OPEN_FALSE]}/{open_count}")  # fmt: skip
    if rows is not None:
        row: list[Any] = [project, result["items"], excluded]
        for name in (*CLASSES, OPEN_FALSE):
            row += [counts["control"][name], counts["now"][name]]
        rows.append(row)
    changed = [(c, n) for c, n in zip(result["runs"]["control"], result["runs"]["now"],
                                      strict=True) if c["class"] != n["class"]]  # fmt: skip
    for before, after in changed[:show]:
        print(f"    {after['item']}: {before['class']} -> {after['class']}")
    bad = [o for o in result["runs"]["now"] if o["class"] in ("false finding", "missed")]
    for outcome in bad[:show]:
        print(f"    now {outcome['class']}: {outcome['item']} {shown(outcome)}")
    return counts


def report_totals(totals: dict[str, collections.Counter[str]]) -> None:
    judged_all = sum(totals["now"][name] for name in CLASSES)
    print(f"\nall packages ({judged_all} judged):")
    for name in CLASSES:
        print(f"  {name:14} control {share(totals['control'][name], judged_all):>14}   "
              f"now {share(totals['now'][name], judged_all):>14}")  # fmt: skip


@dataclass(frozen=True)
class Bench:
    """What one conformance bench measures and prints."""

    name: str  # its results file's name
    doc: str  # its docstring (the first line describes it)
    control: str  # the control's commit by default
    prefix: str  # the scratch folder's prefix when none is given
    # (project, scratch, {label: code}) -> the package's result
    measure: Callable[[str, Path, dict[str, Path]], dict[str, Any]]
    # (results, show, run or None, control)
    report: Callable[[dict[str, dict[str, Any]], int, Any, str], None]
    note: str  # the results file's note


def main(bench: Bench, argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=bench.doc.splitlines()[0])
    parser.add_argument("--project", action="append", choices=sorted(PACKAGES))
    parser.add_argument("--control", default=bench.control, help="the commit of the control")
    parser.add_argument("--scratch", type=Path, help="scratch folder (kept; reused)")
    parser.add_argument("--show", type=int, default=10)
    parser.add_argument("--json", type=Path, help="write the figures for the docs here")
    parser.add_argument("--details", type=Path, help="write every outcome here (JSON)")
    args = parser.parse_args(argv)
    run = None
    projects = args.project or sorted(PACKAGES)
    if args.json:
        if str(REPO) not in sys.path:
            sys.path.insert(0, str(REPO))
        from bench.results_json import Run

        run = Run(bench.name, {"control": args.control, "projects": projects})
    scratch = args.scratch or Path(tempfile.mkdtemp(prefix=bench.prefix))
    codes = {"control": control_code(scratch, args.control), "now": REPO}
    results = {p: bench.measure(p, scratch, codes) for p in projects}
    bench.report(results, args.show, run, args.control)
    if args.details:
        args.details.write_text(json.dumps(results, indent=1), encoding="utf-8")
    if run is not None:
        run.notes.append(bench.note)
        run.write(args.json)
    return 0


def _evaluate_main() -> int:
    parser = argparse.ArgumentParser(description="gate 15's card detail on a bench's post")
    parser.add_argument("--evaluate", type=Path, required=True)
    parser.add_argument("--site", type=Path, required=True)
    parser.add_argument("--cache", type=Path, required=True)
    args = parser.parse_args()
    print(json.dumps(evaluate(args.evaluate, args.site, args.cache)))
    return 0


if __name__ == "__main__":
    raise SystemExit(_evaluate_main())
