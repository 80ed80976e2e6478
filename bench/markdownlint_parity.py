"""Gate 12 parity: rumdl (the embedded backend) against markdownlint-cli 0.43.0.

The blog's CI pins markdownlint-cli 0.43.0, so that is the reference. This script installs
exactly that version with npm into ``bench/.work/node`` (once), then lints real Markdown
with both backends of ``pytest_postgates.tools.lint`` (the code path gate 12 uses: the same
configuration discovery, the same batch, the same translation for rumdl):

- the blog corpus: ``../shared/corpus/neurolink-blog/_posts/*.md`` under that corpus's
  own ``.markdownlint.json``;
- the NeuroLink documentation: ``docs/**/*.md`` of a juspay/neurolink checkout (default
  ``/tmp/neurolink``) under the configuration markdownlint finds for each file (the
  repository's own ``.markdownlint.json``).

It prints, per data set and in total:

- files, and files with at least one finding per backend;
- verdict agreement: the share of files on which both backends give the same verdict
  (clean, or not clean);
- findings agreement: matching (file, line, rule) triples over the union of both
  backends' triples (a rule reported twice on one line counts once, as a reader fixing
  the line sees it);
- the disagreeing triples by rule (only markdownlint / only rumdl);
- the wall time of each backend over the same files in the same run, and the ratio.

``--all-rules`` adds a second pass over the same files under markdownlint's defaults
(every rule on, no configuration file): a far stricter comparison, since those projects
switch off the noisiest rules (MD013 line length among them).

``--real-configs`` compares the blog posts under three configurations: the blog's own
``.markdownlint.json``, every rule at its defaults, and ``{"MD013": {"line_length": 120,
"code_blocks": false, "tables": false}}`` (a real blog's MD013 settings).

``--suite`` compares the two on markdownlint's own conformance files: every ``test/*.md``
of DavidAnson/markdownlint at v0.36.1 (the folder ``--suite-dir`` or the environment
variable ``POSTGATES_MARKDOWNLINT_SUITE`` names; a checkout's root or its ``test``
folder), each under markdownlint's defaults and its own ``markdownlint-configure-file``
comments, as markdownlint's test harness lints them; it prints the agreement per rule
(every rule, none left out).

    python bench/markdownlint_parity.py
    python bench/markdownlint_parity.py --all-rules --show 20
    python bench/markdownlint_parity.py --docs /path/to/neurolink
    python bench/markdownlint_parity.py --suite --suite-dir /path/to/markdownlint --show 50
    python bench/markdownlint_parity.py --real-configs

``--json OUT`` (``bench/results/markdownlint_parity.json``) also writes the figures for the
docs (bench/results_json.py): each comparison, markdownlint-cli's findings and time (the
control) beside the embedded backend's, and with ``--suite`` the agreement per rule.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
NODE = HERE / ".work" / "node"
REPO = HERE.parent
BLOG = REPO.parent / "shared" / "corpus" / "neurolink-blog"
DOCS = Path("/tmp/neurolink")

sys.path.insert(0, str(REPO))
from pytest_postgates.tools.lint import MARKDOWNLINT_CLI_PIN, RULES, lint_batch  # noqa: E402

SUITE_ENV = "POSTGATES_MARKDOWNLINT_SUITE"
# The MD013 settings of a real blog (long lines allowed, code and tables exempt).
MD013_120 = {"MD013": {"line_length": 120, "code_blocks": False, "tables": False}}

Triple = tuple[str, int, str]
# Every comparison of this run, in order (for --json).
COMPARED: list[dict[str, Any]] = []


def install_markdownlint_cli() -> Path:
    """markdownlint-cli at the CI's pinned version, installed once under bench/.work."""
    binary = NODE / "node_modules" / ".bin" / "markdownlint"
    if binary.is_file():
        result = subprocess.run([str(binary), "--version"], capture_output=True, text=True)
        if result.stdout.strip() == MARKDOWNLINT_CLI_PIN:
            return binary
    NODE.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [
            "npm",
            "install",
            "--no-audit",
            "--no-fund",
            "--save-exact",
            "--prefix",
            str(NODE),
            f"markdownlint-cli@{MARKDOWNLINT_CLI_PIN}",
        ],
        check=True,
    )
    return binary


def triples(batch: dict[str, Any]) -> tuple[set[Triple], set[str]]:
    """(file, line, rule) triples, and the files whose verdict is not clean."""
    if batch.get("error"):
        raise SystemExit(f"{batch['backend']}: {batch['error']}")
    found: set[Triple] = set()
    failing: set[str] = set()
    for path, entry in batch["files"].items():
        if entry.get("error"):
            raise SystemExit(f"{path}: {entry['error']}")
        for violation in entry["violations"]:
            found.add((path, violation["line"], violation["rule"]))
        if entry["violations"]:
            failing.add(path)
    return found, failing


def compare(
    label: str, files: list[Path], cli: Path, show: int, config: Path | None = None
) -> dict[str, Any]:
    start = time.perf_counter()
    reference = lint_batch(files, "markdownlint-cli", markdownlint_cli=cli, config_file=config)
    cli_seconds = time.perf_counter() - start
    start = time.perf_counter()
    embedded = lint_batch(files, "rumdl", config_file=config)
    rumdl_seconds = time.perf_counter() - start
    ml, ml_failing = triples(reference)
    rd, rd_failing = triples(embedded)
    names = {str(path.resolve()) for path in files}
    verdict_same = sum((name in ml_failing) == (name in rd_failing) for name in names)
    union = ml | rd
    both = ml & rd
    result = {
        "label": label,
        "files": len(names),
        "ml_failing": len(ml_failing),
        "rd_failing": len(rd_failing),
        "verdict_same": verdict_same,
        "union": len(union),
        "both": len(both),
        "only_ml": ml - rd,
        "only_rd": rd - ml,
        "cli_seconds": cli_seconds,
        "rumdl_seconds": rumdl_seconds,
        "versions": (reference["version"], embedded["version"]),
        "ml": ml,
        "rd": rd,
    }
    report(result, show)
    COMPARED.append(result)
    return result


def suite_files(folder: Path) -> list[Path]:
    """markdownlint's conformance files: ``test/*.md`` of a checkout (or of its test
    folder itself)."""
    test = folder / "test" if (folder / "test").is_dir() else folder
    return sorted(test.glob("*.md"))


def rule_table(result: dict[str, Any]) -> None:
    """Agreement per rule, every rule of markdownlint 0.36.1 (a rule with no finding on
    either side shows as such)."""
    ml: set[Triple] = result["ml"]
    rd: set[Triple] = result["rd"]
    print(
        "| rule | markdownlint-cli | rumdl backend | both | only markdownlint-cli | "
        "only rumdl backend | agreement |"
    )
    print("|---|---|---|---|---|---|---|")
    for rule in RULES:
        a = {t for t in ml if t[2] == rule}
        b = {t for t in rd if t[2] == rule}
        union = a | b
        share = pct(len(a & b), len(union)) if union else "n/a (no finding)"
        print(
            f"| {rule} | {len(a)} | {len(b)} | {len(a & b)} | {len(a - b)} | {len(b - a)} "
            f"| {share} |"
        )
    print()


def pct(part: int, whole: int) -> str:
    return f"{100.0 * part / whole:.2f}%" if whole else "n/a (nothing to compare)"


def report(result: dict[str, Any], show: int) -> None:
    print(f"== {result['label']}")
    print(
        f"files: {result['files']}  (not clean: markdownlint-cli {result['ml_failing']}, "
        f"rumdl {result['rd_failing']})"
    )
    print(
        f"verdict agreement: {pct(result['verdict_same'], result['files'])} "
        f"({result['verdict_same']}/{result['files']} files)"
    )
    print(
        f"findings agreement: {pct(result['both'], result['union'])} "
        f"({result['both']} matching (file, line, rule) of {result['union']} in the union)"
    )
    only_ml = Counter(rule for _, _, rule in result["only_ml"])
    only_rd = Counter(rule for _, _, rule in result["only_rd"])
    rules = sorted(set(only_ml) | set(only_rd))
    if rules:
        print("disagreements by rule (only markdownlint-cli / only rumdl):")
        for rule in rules:
            print(f"  {rule}: {only_ml[rule]} / {only_rd[rule]}")
    else:
        print("disagreements by rule: none")
    if show:
        for tag, items in (
            ("only markdownlint-cli", result["only_ml"]),
            ("only rumdl", result["only_rd"]),
        ):
            for path, line, rule in sorted(items)[:show]:
                print(f"  {tag}: {path}:{line} {rule}")
    cli, embedded = result["cli_seconds"], result["rumdl_seconds"]
    print(
        f"time: markdownlint-cli {cli:.2f} s, rumdl {embedded:.2f} s"
        f" (rumdl {cli / max(embedded, 1e-9):.1f}x faster)"
    )
    print()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--blog", type=Path, default=BLOG, help="blog corpus with _posts/")
    parser.add_argument("--docs", type=Path, default=DOCS, help="juspay/neurolink checkout")
    parser.add_argument("--show", type=int, default=0, help="list N disagreements per side")
    parser.add_argument(
        "--all-rules", action="store_true", help="also compare under markdownlint's defaults"
    )
    parser.add_argument(
        "--suite", action="store_true", help="compare on markdownlint's own test/*.md files"
    )
    parser.add_argument(
        "--suite-dir",
        type=Path,
        default=Path(os.environ[SUITE_ENV]) if os.environ.get(SUITE_ENV) else None,
        help=f"markdownlint v0.36.1 checkout (default: ${SUITE_ENV})",
    )
    parser.add_argument(
        "--real-configs",
        action="store_true",
        help="compare the blog posts under its own config, the defaults and MD013 at 120",
    )
    parser.add_argument("--json", type=Path, help="write the figures for the docs here")
    args = parser.parse_args(argv)
    record = _results_run(args)
    done = compare_sets(args)
    if record is not None and args.json:
        record_figures(record, args.suite)
        record.write(args.json)
    return done


def compare_sets(args: argparse.Namespace) -> int:
    cli = install_markdownlint_cli()
    if args.suite:
        return run_suite(args.suite_dir, cli, args.show)
    if args.real_configs:
        return run_real_configs(args.blog, cli, args.show)
    sets: list[tuple[str, list[Path]]] = []
    posts = sorted((args.blog / "_posts").glob("*.md"))
    if posts:
        sets.append((f"blog corpus ({args.blog / '_posts'})", posts))
    docs = sorted((args.docs / "docs").rglob("*.md")) if (args.docs / "docs").is_dir() else []
    if docs:
        sets.append((f"NeuroLink docs ({args.docs / 'docs'})", docs))
    if not sets:
        raise SystemExit("no Markdown found: pass --blog and/or --docs")

    results = [compare(label, files, cli, args.show) for label, files in sets]
    print(f"markdownlint-cli {results[0]['versions'][0]}, rumdl {results[0]['versions'][1]}")
    report(total_of(results, "total (each project's own configuration)"), 0)
    if args.all_rules:
        with tempfile.TemporaryDirectory() as scratch:
            defaults = Path(scratch) / ".markdownlint.json"
            defaults.write_text('{"default": true}\n', encoding="utf-8")
            strict = [
                compare(f"{label}, markdownlint defaults", files, cli, args.show, defaults)
                for label, files in sets
            ]
        report(total_of(strict, "total (markdownlint defaults: every rule on)"), 0)
    return 0


def _results_run(args: argparse.Namespace) -> Any:
    """The results record of this run (bench/results_json.py), started before the work."""
    if not args.json:
        return None
    from bench.results_json import Run

    mode = "suite" if args.suite else "real-configs" if args.real_configs else "corpora"
    return Run(
        "markdownlint_parity",
        {"mode": mode, "all_rules": args.all_rules, "markdownlint_cli": MARKDOWNLINT_CLI_PIN,
         "blog": str(args.blog), "docs": str(args.docs),
         "suite_dir": str(args.suite_dir) if args.suite else None},
    )  # fmt: skip


def _share(part: int, whole: int) -> float | None:
    return round(100 * part / whole, 2) if whole else None


def record_figures(record: Any, per_rule: bool) -> None:
    """Each comparison: markdownlint-cli (the reference, the control) beside the embedded
    backend, the verdicts and (file, line, rule) findings they agree on, and both times."""
    if COMPARED:
        versions = COMPARED[0]["versions"]
        record.notes.append(f"markdownlint-cli {versions[0]}, rumdl backend {versions[1]}")
    rows = record.table(
        "The embedded backend against markdownlint-cli on the same files",
        [{"name": "files linted", "kind": "label"},
         {"name": "files", "kind": "figure"},
         {"name": "not clean, markdownlint-cli", "kind": "control", "unit": "files"},
         {"name": "not clean, rumdl backend", "kind": "figure", "unit": "files"},
         {"name": "same verdict", "kind": "figure", "unit": "files"},
         {"name": "same verdict", "kind": "figure", "unit": "%"},
         {"name": "findings of the union", "kind": "figure"},
         {"name": "findings both report", "kind": "figure"},
         {"name": "findings agreement", "kind": "figure", "unit": "%"},
         {"name": "markdownlint-cli wall time", "kind": "control", "unit": "s"},
         {"name": "rumdl backend wall time", "kind": "figure", "unit": "s"}],
    )  # fmt: skip
    for result in COMPARED:
        rows.append(
            [result["label"], result["files"], result["ml_failing"], result["rd_failing"],
             result["verdict_same"], _share(result["verdict_same"], result["files"]),
             result["union"], result["both"],
             _share(result["both"], result["union"]) if result["union"] else "no findings",
             round(result["cli_seconds"], 2), round(result["rumdl_seconds"], 2)]
        )  # fmt: skip
    if per_rule and COMPARED:
        ml: set[Triple] = COMPARED[-1]["ml"]
        rd: set[Triple] = COMPARED[-1]["rd"]
        rules = record.table(
            "Per rule on markdownlint's conformance files",
            [{"name": "rule", "kind": "label"},
             {"name": "markdownlint-cli", "kind": "control", "unit": "findings"},
             {"name": "rumdl backend", "kind": "figure", "unit": "findings"},
             {"name": "both", "kind": "figure", "unit": "findings"},
             {"name": "agreement", "kind": "figure", "unit": "%"}],
        )  # fmt: skip
        for rule in RULES:
            a = {t for t in ml if t[2] == rule}
            b = {t for t in rd if t[2] == rule}
            rules.append([rule, len(a), len(b), len(a & b), _share(len(a & b), len(a | b))])


def run_suite(folder: Path | None, cli: Path, show: int) -> int:
    if folder is None:
        raise SystemExit(f"--suite needs --suite-dir or ${SUITE_ENV} (a markdownlint checkout)")
    files = suite_files(folder)
    if not files:
        raise SystemExit(f"no test/*.md under {folder}")
    with tempfile.TemporaryDirectory() as scratch:
        defaults = Path(scratch) / ".markdownlint.json"
        defaults.write_text("{}\n", encoding="utf-8")  # the harness passes no config
        result = compare(f"markdownlint's test suite ({folder})", files, cli, show, defaults)
    print(f"markdownlint-cli {result['versions'][0]}, rumdl {result['versions'][1]}")
    rule_table(result)
    return 0


def run_real_configs(blog: Path, cli: Path, show: int) -> int:
    posts = sorted((blog / "_posts").glob("*.md"))
    if not posts:
        raise SystemExit(f"no posts under {blog / '_posts'}")
    results = []
    with tempfile.TemporaryDirectory() as scratch:
        configs = {
            "the blog's own .markdownlint.json": blog / ".markdownlint.json",
            "markdownlint defaults (every rule on)": {},
            "MD013 at 120, code blocks and tables exempt": MD013_120,
        }
        for label, config in configs.items():
            if isinstance(config, dict):
                path = Path(scratch) / f"{len(results)}.json"
                path.write_text(json.dumps(config), encoding="utf-8")
                config = path
            results.append(compare(f"blog posts, {label}", posts, cli, show, config))
    report(total_of(results, "total (three configurations)"), 0)
    return 0


def total_of(results: list[dict[str, Any]], label: str) -> dict[str, Any]:
    return {
        "label": label,
        "files": sum(r["files"] for r in results),
        "ml_failing": sum(r["ml_failing"] for r in results),
        "rd_failing": sum(r["rd_failing"] for r in results),
        "verdict_same": sum(r["verdict_same"] for r in results),
        "union": sum(r["union"] for r in results),
        "both": sum(r["both"] for r in results),
        "only_ml": set().union(*(r["only_ml"] for r in results)),
        "only_rd": set().union(*(r["only_rd"] for r in results)),
        "cli_seconds": sum(r["cli_seconds"] for r in results),
        "rumdl_seconds": sum(r["rumdl_seconds"] for r in results),
    }


if __name__ == "__main__":
    sys.exit(main())
