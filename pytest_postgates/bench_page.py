"""The Benchmarks page (``docs/benchmarks.md``), rendered from what the benches wrote.

Each bench whose figures the docs cite has a section. Its figures come only from its
results file, ``bench/results/<name>.json`` (written by ``python bench/<name>.py --json
...``; the shape is ``bench/results_json.py``'s): the run's command, commit, date and
machine, then its tables with each control column beside the figures it controls. A bench
with no results file says so: not measured at this commit. The page's front matter names
every results file as its ``evidence``, so gate 7 checks each number of the page against
the file it came from. ``python -m pytest_postgates.docs_pages --update docs`` writes the
page; the staleness test fails when it differs from what the files render.

Each gate page's "Measured" section is rendered from the same files (:func:`gate_measured`):
the runs of the benches that cite the page, and the page's front matter names their files
as its evidence (:func:`with_evidence`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA = 1  # bench/results_json.py's


@dataclass(frozen=True)
class Bench:
    """A bench script whose figures a docs page cites."""

    name: str  # bench/<name>.py, bench/results/<name>.json
    title: str  # the section heading (its anchor is what other pages link to)
    cited_by: tuple[str, ...]  # docs pages (relative to docs/) that cite it beside this one
    anchor: str = ""  # an extra anchor other pages link to
    writes_results: bool = False  # the bench writes a results file (bench/results_json.py)
    flag: str = "--json"  # its option naming the results file (--results where --json is taken)


# Benches the docs cite, in the order of the page: the run-wide ones, then by gate.
BENCHES = (
    Bench("docs_folder", "Docs folder", ("getting-started.md",), "docs-folder-figures"),
    Bench(
        "outside_projects",
        "Public projects out of the box",
        ("configuration.md",),
        writes_results=True,
        flag="--results",
    ),
    Bench("corpus_speed", "Corpus scale", ("performance.md",)),
    Bench("real_speed", "Real corpus speed", ()),
    Bench("regex_growth", "Regex growth", ("security.md",), writes_results=True),
    Bench(
        "measure_body_line_floor",
        "Gate 1 body-line floor",
        ("gates/01-blog-quality.md",),
        writes_results=True,
    ),
    Bench(
        "mermaid_speed", "Gate 1 mermaid speed", ("gates/01-blog-quality.md",), writes_results=True
    ),
    Bench("grounding_speed", "Gate 2 grounding speed", ("gates/02-symbol-grounding.md",)),
    Bench(
        "precision",
        "Precision of gates 2, 6 and 7",
        (
            "gates/02-symbol-grounding.md",
            "gates/06-readability-links.md",
            "gates/07-numerical-claims.md",
        ),
        writes_results=True,
        flag="--results",
    ),
    Bench(
        "fabrication_recall",
        "Gate 2 fabrication recall",
        ("gates/02-symbol-grounding.md",),
        writes_results=True,
    ),
    Bench(
        "holdout_precision",
        "Gate 2 held-out precision",
        ("gates/02-symbol-grounding.md",),
        writes_results=True,
        flag="--results",
    ),
    Bench(
        "natural_drift",
        "Gate 2 natural drift",
        ("gates/02-symbol-grounding.md",),
        writes_results=True,
        flag="--results",
    ),
    Bench(
        "planted_docs",
        "Gate 2 planted inventions held out",
        ("gates/02-symbol-grounding.md",),
        writes_results=True,
        flag="--results",
    ),
    Bench(
        "miss_anatomy",
        "Gate 2 and 15 misses by mechanism",
        ("gates/02-symbol-grounding.md", "gates/15-code-samples.md"),
        writes_results=True,
        flag="--results",
    ),
    Bench(
        "docs_precision",
        "Gate 2 docs precision",
        ("gates/02-symbol-grounding.md",),
        writes_results=True,
        flag="--results",
    ),
    Bench(
        "ablation",
        "Gate 2 rule ablation",
        ("gates/02-symbol-grounding.md",),
        writes_results=True,
        flag="--results",
    ),
    Bench(
        "precision_ceiling",
        "Gate 2 precision ceiling",
        ("gates/02-symbol-grounding.md",),
        writes_results=True,
        flag="--results",
    ),
    Bench(
        "measure_readability",
        "Gate 6 readability",
        ("gates/06-readability-links.md",),
        writes_results=True,
    ),
    Bench(
        "measure_numerical_claims",
        "Gate 7 on the real corpus",
        ("gates/07-numerical-claims.md",),
        writes_results=True,
    ),
    Bench(
        "numerical_recall", "Gate 7 recall", ("gates/07-numerical-claims.md",), writes_results=True
    ),
    Bench(
        "measure_narrative_opening",
        "Gate 11 opening",
        ("gates/11-narrative-opening.md",),
        writes_results=True,
    ),
    Bench(
        "markdownlint_parity",
        "Gate 12 parity",
        ("gates/12-markdownlint.md",),
        writes_results=True,
    ),
    Bench(
        "exports_conformance",
        "Gate 14 against Node",
        ("gates/14-import-specifiers.md",),
        writes_results=True,
    ),
    Bench(
        "code_sample_calibration",
        "Gate 15 calibration",
        ("gates/15-code-samples.md",),
        writes_results=True,
    ),
    Bench(
        "code_sample_recall",
        "Gate 15 recall",
        ("gates/15-code-samples.md",),
        writes_results=True,
    ),
    Bench("code_sample_speed", "Gate 15 speed", ("gates/15-code-samples.md",), writes_results=True),
    Bench(
        "option_keys_conformance",
        "Gate 15 option keys against the compiler",
        ("gates/15-code-samples.md",),
        writes_results=True,
    ),
    Bench(
        "member_types_conformance",
        "Gate 15 member types against the compiler",
        ("gates/15-code-samples.md",),
        writes_results=True,
    ),
    Bench(
        "gate15_docs_precision",
        "Gate 15 docs precision",
        ("gates/15-code-samples.md",),
        writes_results=True,
        flag="--results",
    ),
    Bench(
        "gate15_coverage",
        "Gate 15 coverage",
        ("gates/15-code-samples.md",),
        writes_results=True,
        flag="--results",
    ),
    Bench(
        "fence_fragments",
        "Gate 15 fragments",
        ("gates/15-code-samples.md",),
        writes_results=True,
        flag="--results",
    ),
    Bench(
        "wiring_planted",
        "Gate 16 planted wiring",
        ("gates/16-wiring-claims.md",),
        writes_results=True,
    ),
    Bench(
        "wiring_recall",
        "Gate 16 labelled claims",
        ("gates/16-wiring-claims.md",),
        writes_results=True,
    ),
    Bench(
        "wiring_repowiki",
        "Gate 16 repository wikis",
        ("gates/16-wiring-claims.md",),
        writes_results=True,
    ),
)

INTRO = """\
# Benchmarks

Every figure on this page was written by the bench that measured it, as JSON in
`bench/results/`, and this page is rendered from those files; nothing here is typed by
hand (`{generator}` renders it). Each section names the run: its command, commit, date
and machine. A control column (marked "control") is measured in the same run as the
figures beside it.
A bench with no results file is not measured at this commit: run it with `--json` and
regenerate the page. Runs recorded by hand before the page was generated are in
[History](history.md).
"""


def results_folder(docs: Path) -> Path:
    """``bench/results`` of the repository whose docs folder is ``docs``."""
    return docs.parent / "bench" / "results"


def _cell(value: Any) -> str:
    if value is None:
        return "not measured"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).replace("|", "\\|")


def _header(column: dict[str, Any]) -> str:
    unit = f" ({column['unit']})" if column.get("unit") else ""
    control = "control: " if column.get("kind") == "control" else ""
    return f"{control}{column['name']}{unit}"


def _table(table: dict[str, Any]) -> list[str]:
    columns = table["columns"]
    lines = [f"{table['title']}:", ""]  # a caption, not a heading (markdownlint MD036)
    lines.append("| " + " | ".join(_header(c) for c in columns) + " |")
    lines.append("|" + "---|" * len(columns))
    for row in table["rows"]:
        lines.append("| " + " | ".join(_cell(value) for value in row) + " |")
    return [*lines, ""]


def _run_lines(bench: Bench, record: dict[str, Any]) -> list[str]:
    machine = record.get("machine", {})
    loads = machine.get("load_average_start"), machine.get("load_average_end")
    load = " to ".join(str(value[0]) for value in loads if value)
    clean = "" if record.get("worktree_clean", True) else " (with uncommitted changes)"
    lines = [
        f"Measured by `{record['command']}` at commit `{record['commit'][:10]}`{clean} on "
        f"{record['date']}.",
        "",
        f"Machine: {machine.get('cpus')} CPUs, {machine.get('platform')}, Python "
        f"{machine.get('python')}" + (f"; load average {load}." if load else "."),
        "",
    ]
    if record.get("settings"):
        shown = ", ".join(f"{k} = {json.dumps(v)}" for k, v in sorted(record["settings"].items()))
        lines += [f"Settings: {shown}.", ""]
    lines += [f"{note[0].upper()}{note[1:]}." for note in record.get("notes", [])]
    if record.get("notes"):
        lines.append("")
    for table in record.get("tables", []):
        lines += _table(table)
    return lines


def _not_measured(bench: Bench) -> list[str]:
    how = (
        f"run `python bench/{bench.name}.py {bench.flag} bench/results/{bench.name}.json`"
        if bench.writes_results
        else "the bench does not write a results file yet (it prints its figures)"
    )
    return [f"Not measured at this commit: no results file; {how}.", ""]


def _records(docs: Path) -> dict[str, dict[str, Any]]:
    """Bench name -> the results file it wrote, for the benches that have one."""
    results = results_folder(docs)
    records: dict[str, dict[str, Any]] = {}
    for bench in BENCHES:
        path = results / f"{bench.name}.json"
        if path.is_file():
            records[bench.name] = json.loads(path.read_text(encoding="utf-8"))
    return records


def _bench_lines(bench: Bench, record: dict[str, Any] | None) -> list[str]:
    if record is not None and record.get("schema") != SCHEMA:
        return [f"Not shown: its results file is not in the shape of schema {SCHEMA}.", ""]
    if record is None:
        return _not_measured(bench)
    return _run_lines(bench, record)


def anchor(title: str) -> str:
    """The anchor MkDocs gives a heading (Python-Markdown's toc slug)."""
    slug = re.sub(r"[^\w\s-]", "", title).strip().lower()
    return re.sub(r"[-\s]+", "-", slug)


def gate_measured(docs: Path, page: str) -> str:
    """The Measured section of the gate page ``page`` (relative to ``docs``): the runs of
    the benches that cite it, each with its command, commit, date, machine and controls."""
    records = _records(docs)
    benches = [bench for bench in BENCHES if page in bench.cited_by]
    if not benches:
        return (
            "No bench measures this gate yet: there are no figures to show. "
            "[Benchmarks](../benchmarks.md) lists the benches and their last runs.\n"
        )
    lines = [
        "Rendered from the results files the benches wrote (nothing here is typed by hand); "
        "[Benchmarks](../benchmarks.md) has every bench's last run.",
        "",
    ]
    for bench in benches:
        lines += [f"### {bench.title}", ""]
        results = f"`bench/results/{bench.name}.json`" if bench.name in records else "none"
        lines += [
            f"Bench `bench/{bench.name}.py`, results file {results} "
            f"([on Benchmarks](../benchmarks.md#{anchor(bench.title)})).",
            "",
        ]
        lines += _bench_lines(bench, records.get(bench.name))
    return "\n".join(lines).rstrip("\n") + "\n"


EVIDENCE_COMMENT = "# Gate 7 checks the measured figures below against the benches' results files."


def with_evidence(docs: Path, page: str, text: str) -> str:
    """``text`` with its generated front matter (naming the results files of the benches
    the page cites as gate 7's evidence) replaced; none when there is no file."""
    start = "---\n" + EVIDENCE_COMMENT + "\n"
    if text.startswith(start):
        end = text.index("\n---\n", len(start)) + len("\n---\n")
        text = text[end:].lstrip("\n")
    records = _records(docs)
    names = [b.name for b in BENCHES if page in b.cited_by and b.name in records]
    if not names:
        return text
    files = [f"  - bench/results/{name}.json" for name in names]
    return "\n".join([start.rstrip("\n"), "evidence:", *files, "---", "", text])


def render(docs: Path, generator: str) -> str:
    """The Benchmarks page as the results files under ``docs``'s repository make it."""
    records = _records(docs)
    lines = []
    if records:
        lines += ["---", "# Gate 7 checks every number of the page against these files."]
        lines += ["evidence:", *(f"  - bench/results/{name}.json" for name in records)]
        lines += ["---", ""]
    lines += [INTRO.format(generator=generator)]
    for bench in BENCHES:
        lines += [f"## {bench.title}", ""]
        if bench.anchor:
            lines += [f'<a id="{bench.anchor}"></a>', ""]
        cited = ", ".join(f"[{page}]({page})" for page in bench.cited_by)
        lines += [f"Bench `bench/{bench.name}.py`" + (f", cited by {cited}." if cited else "."), ""]
        lines += _bench_lines(bench, records.get(bench.name))
    return "\n".join(lines).rstrip("\n") + "\n"
