"""Issue 28: the docs site under ``docs/``. Its generated parts (gate table, settings tables,
CLI reference) equal what the declarations generate, every gate has its page with its
anchor, and ``mkdocs build --strict`` builds it (skipped, with the reason, only where the
``docs`` extra is not installed; ``.ci/run`` installs it)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_postgates import bench_page, docs_pages
from pytest_postgates.gates import GATES

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def test_the_generated_pages_are_not_stale() -> None:
    assert docs_pages.stale_pages(DOCS) == {}, f"regenerate them: {docs_pages.GENERATOR}"


def _copy_docs(tmp_path: Path) -> Path:
    shutil.copytree(DOCS, tmp_path / "docs")
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    results = ROOT / "bench" / "results"
    if results.is_dir():
        shutil.copytree(results, tmp_path / "bench" / "results")
    return tmp_path / "docs"


def test_a_hand_edited_or_unmarked_generated_part_is_stale(tmp_path: Path) -> None:
    docs = _copy_docs(tmp_path)
    page = docs / GATES[0].docs_page
    page.write_text(
        page.read_text(encoding="utf-8").replace("(at least 0)", "(at least 5)"), encoding="utf-8"
    )
    cli = docs / "cli.md"
    cli.write_text(
        cli.read_text(encoding="utf-8").replace(docs_pages.CLI_END, ""), encoding="utf-8"
    )
    stale = docs_pages.stale_pages(docs)
    assert stale[GATES[0].docs_page].startswith("stale; regenerate it")
    assert "cli-reference" in stale["cli.md"] and "missing" in stale["cli.md"]
    assert len(stale) == 2
    # --update rewrites them; --check then passes.
    assert docs_pages.main(["--check", str(docs)]) == 1
    cli.write_text(cli.read_text(encoding="utf-8") + docs_pages.CLI_END + "\n", encoding="utf-8")
    assert docs_pages.main(["--update", str(docs)]) == 0
    assert docs_pages.main(["--check", str(docs)]) == 0


def test_every_gate_has_a_page_with_its_anchor_and_its_settings() -> None:
    for gate in GATES:
        page = (DOCS / gate.docs_page).read_text(encoding="utf-8")
        assert f'<a id="{gate.help_anchor}"></a>' in page, gate.name
        assert docs_pages.gate_settings_start(gate) in page, gate.name
        for heading in ("## What it checks", "## Settings", "## How to fix a finding"):
            assert heading in page, (gate.name, heading)
        assert f"postgates-disable-next-line {gate.name}" in page


def _record(commit: str = "0123456789abcdef" * 2 + "01234567") -> dict[str, object]:
    return {
        "schema": 1,
        "bench": "regex_growth",
        "command": "python bench/regex_growth.py --json bench/results/regex_growth.json",
        "date": "2026-12-03T23:40:00Z",
        "commit": commit,
        "worktree_clean": True,
        "machine": {
            "cpus": 2,
            "platform": "Linux",
            "python": "3.12.3",
            "load_average_start": [1.5, 1, 1],
            "load_average_end": [2.25, 1, 1],
        },
        "settings": {"sizes": [2000, 8000]},
        "notes": ["CPU time in ms"],
        "tables": [
            {
                "title": "Old regex and scanner",
                "columns": [
                    {"name": "pattern", "kind": "label"},
                    {"name": "old regex, 8K", "kind": "control", "unit": "ms"},
                    {"name": "scanner, 8K", "kind": "figure", "unit": "ms"},
                ],
                "rows": [
                    ["gate 7 link", 218.4, 21.1],
                    ["gate 6 Liquid", "stopped after 20 s", None],
                ],
            }
        ],
    }


def test_the_benchmarks_page_is_rendered_from_the_results_files(tmp_path: Path) -> None:
    """Issue 28: every figure of the Benchmarks page comes from a results file a bench
    wrote, with its run (command, commit, date, machine, settings) and each control column
    beside its figures; the page names the files as gate 7's evidence; a bench with no
    file is not measured at this commit; a new or changed file makes the page stale."""
    docs = _copy_docs(tmp_path)
    results = tmp_path / "bench" / "results"
    shutil.rmtree(results, ignore_errors=True)
    results.mkdir(parents=True)
    docs_pages.main(["--update", str(docs)])
    empty = (docs / "benchmarks.md").read_text(encoding="utf-8")
    assert not empty.startswith("---")  # no evidence to name
    assert empty.count("Not measured at this commit") == len(bench_page.BENCHES)

    (results / "regex_growth.json").write_text(json.dumps(_record()), encoding="utf-8")
    assert "benchmarks.md" in docs_pages.stale_pages(docs)
    page = bench_page.render(docs, docs_pages.GENERATOR)
    assert page.startswith("---\n# Gate 7") and "  - bench/results/regex_growth.json\n" in page
    section = page[page.index("## Regex growth") : page.index("## Gate 1 body-line floor")]
    assert "`python bench/regex_growth.py --json bench/results/regex_growth.json`" in section
    assert "commit `0123456789`" in section and "2026-12-03T23:40:00Z" in section
    assert "Machine: 2 CPUs, Linux, Python 3.12.3; load average 1.5 to 2.25." in section
    assert "| pattern | control: old regex, 8K (ms) | scanner, 8K (ms) |" in section
    assert "| gate 7 link | 218.4 | 21.1 |" in section
    assert "| gate 6 Liquid | stopped after 20 s | not measured |" in section
    assert "Not measured" not in section
    assert page.count("Not measured at this commit") == len(bench_page.BENCHES) - 1
    docs_pages.main(["--update", str(docs)])
    assert docs_pages.stale_pages(docs) == {}
    # A file in another shape is not shown as figures.
    (results / "regex_growth.json").write_text('{"overall": {}}', encoding="utf-8")
    assert "not in the shape of schema 1" in bench_page.render(docs, docs_pages.GENERATOR)


def test_every_bench_the_page_lists_exists_and_regex_growth_writes_results() -> None:
    for bench in bench_page.BENCHES:
        assert (ROOT / "bench" / f"{bench.name}.py").is_file(), bench.name
        for cited_by in bench.cited_by:
            text = (DOCS / cited_by).read_text(encoding="utf-8")
            linked = bench.anchor and f"benchmarks.md#{bench.anchor}" in text
            assert f"bench/{bench.name}.py" in text or linked, (bench.name, cited_by)
        # A bench writes a results file when it records its run with bench/results_json.py
        # (itself, or through a shared bench module it imports).
        assert bench.writes_results == ("results_json" in _bench_text(bench.name)), bench.name


def _bench_text(name: str) -> str:
    """A bench script's text and that of the bench modules it imports."""
    script = (ROOT / "bench" / f"{name}.py").read_text(encoding="utf-8")
    shared = re.findall(r"^from bench(?:\.(\w+))? import (\w+)", script, re.MULTILINE)
    texts = [script]
    for module, name_imported in shared:
        path = ROOT / "bench" / f"{module or name_imported}.py"
        if path.is_file():
            texts.append(path.read_text(encoding="utf-8"))
    return "\n".join(texts)


def _gate7(docs: Path) -> str:
    return (docs / "gates" / "07-numerical-claims.md").read_text(encoding="utf-8")


def test_each_gate_page_measured_section_is_rendered_from_the_results_files(
    tmp_path: Path,
) -> None:
    """Issue 28: a gate page's Measured section is generated from the results files of the
    benches that cite it (each run's command, commit, date and controls beside its
    figures), the page's front matter names those files as gate 7's evidence, a changed
    file makes the page stale, and a gate no bench measures says so and links Benchmarks."""
    docs = _copy_docs(tmp_path)
    results = tmp_path / "bench" / "results"
    shutil.rmtree(results, ignore_errors=True)
    results.mkdir(parents=True)
    docs_pages.main(["--update", str(docs)])
    empty = _gate7(docs)
    assert not empty.startswith("---")  # no evidence to name
    measured = empty[empty.index("## Measured") :]
    assert measured.count("Not measured at this commit: no results file") == 3
    assert "`python bench/precision.py --results bench/results/precision.json`" in measured
    hhem = (docs / "gates" / "09-hhem.md").read_text(encoding="utf-8")
    assert "No bench measures this gate yet" in hhem and "(../benchmarks.md)" in hhem

    record = _record("fedcba9876543210" * 2 + "fedcba98")
    record.update(bench="numerical_recall", command="python bench/numerical_recall.py --json x")
    (results / "numerical_recall.json").write_text(json.dumps(record), encoding="utf-8")
    assert "gates/07-numerical-claims.md" in docs_pages.stale_pages(docs)
    docs_pages.main(["--update", str(docs)])
    assert docs_pages.stale_pages(docs) == {}
    page = _gate7(docs)
    assert (
        page.startswith("---\n# Gate 7 checks")
        and "  - bench/results/numerical_recall.json\n" in page
    )
    section = page[page.index("### Gate 7 recall") :]
    assert "results file `bench/results/numerical_recall.json`" in section
    assert "(../benchmarks.md#gate-7-recall)" in section
    assert "commit `fedcba9876`" in section and "2026-12-03T23:40:00Z" in section
    assert "| pattern | control: old regex, 8K (ms) | scanner, 8K (ms) |" in section
    assert section.count("Not measured at this commit") == 0
    # A hand edit of a generated figure is stale; the file again, and it is not.
    edited = page.replace("| gate 7 link | 218.4 | 21.1 |", "| gate 7 link | 218.4 | 2.1 |")
    (docs / "gates" / "07-numerical-claims.md").write_text(edited, encoding="utf-8")
    assert "gates/07-numerical-claims.md" in docs_pages.stale_pages(docs)
    # Without the file, the evidence front matter goes with the figures.
    (results / "numerical_recall.json").unlink()
    docs_pages.main(["--update", str(docs)])
    assert _gate7(docs) == empty


def test_every_committed_results_file_carries_its_run_and_its_controls() -> None:
    """Issue 28: a results file a bench wrote names the commit it measured, the date, the
    machine and the command (with the bench's own results option), and a bench that
    measures against a control writes the control's column beside its figures."""
    with_controls = {
        "fabrication_recall", "measure_numerical_claims", "measure_readability",
        "markdownlint_parity", "wiring_planted", "natural_drift", "regex_growth",
        "exports_conformance", "outside_projects", "option_keys_conformance",
        "member_types_conformance", "code_sample_speed",
    }  # fmt: skip
    written = {
        bench.name: json.loads(path.read_text(encoding="utf-8"))
        for bench in bench_page.BENCHES
        if (path := ROOT / "bench" / "results" / f"{bench.name}.json").is_file()
    }
    assert {b.name for b in bench_page.BENCHES if b.writes_results} <= set(written)
    for bench in bench_page.BENCHES:
        record = written.get(bench.name)
        if record is None:
            continue
        assert bench.writes_results, bench.name
        assert record["schema"] == 1 and record["bench"] == bench.name
        assert len(record["commit"]) == 40 and int(record["commit"], 16) >= 0, bench.name
        assert record["date"].endswith("Z") and record["machine"]["cpus"], bench.name
        assert record["command"].startswith(f"python bench/{bench.name}.py"), bench.name
        assert f"{bench.flag} bench/results/{bench.name}.json" in record["command"], bench.name
        kinds = {column["kind"] for table in record["tables"] for column in table["columns"]}
        assert "figure" in kinds, bench.name
        if bench.name in with_controls:
            assert any(
                {"control", "figure"} <= {column["kind"] for column in table["columns"]}
                for table in record["tables"]
            ), bench.name


def test_the_cli_reference_names_every_option_of_the_plugin_and_the_command() -> None:
    reference = docs_pages.cli_reference()
    for option in ("--postgates", "--postgates-repo PATH", "--postgates-offline", "--only IDS"):
        assert f"`{option}`" in reference, option


def _mkdocs() -> list[str]:
    pytest.importorskip("mkdocs", reason="the docs extra is not installed: pip install '.[docs]'")
    pytest.importorskip("material", reason="mkdocs-material (the docs extra) is not installed")
    return [sys.executable, "-m", "mkdocs", "build", "--strict"]


def test_the_docs_site_builds_with_strict(tmp_path: Path) -> None:
    built = subprocess.run(
        [*_mkdocs(), "-f", str(ROOT / "mkdocs.yml"), "-d", str(tmp_path / "site")],
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert built.returncode == 0, built.stdout + built.stderr
    assert (tmp_path / "site" / "gates" / "01-blog-quality" / "index.html").is_file()


def test_strict_fails_on_a_broken_link_or_anchor(tmp_path: Path) -> None:
    """The strict build is a check: a link to a missing page or anchor fails it."""
    docs = _copy_docs(tmp_path / "project")
    for broken in ("[gone](nowhere.md)", "[gone](gates/index.md#no-such-anchor)"):
        (docs / "index.md").write_text(f"# Home\n\n{broken}\n", encoding="utf-8")
        built = subprocess.run(
            [*_mkdocs(), "-f", str(docs.parent / "mkdocs.yml"), "-d", str(tmp_path / "site")],
            capture_output=True,
            text=True,
            env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        )
        assert built.returncode != 0, broken


def test_gate_2_page_lists_every_rule_of_the_api_model() -> None:
    from pytest_postgates.helpers.model_grounding import RULES

    page = (DOCS / "gates" / "02-symbol-grounding.md").read_text(encoding="utf-8")
    for rule in RULES:
        assert f"| `{rule.name}` | `{rule.decides}` |" in page, rule.name


def test_pytest_docs_passes_grounded_against_this_repository(tmp_path: Path) -> None:
    """Issue 28: the docs and the README are gated by the plugin itself. ``pytest docs/
    README.md`` collects every
    page (no front matter: docs pages of an MkDocs site), grounds gates 2, 14 and 15
    against this repository, and must pass: a finding is fixed in the docs, or it is a
    false finding of the plugin, fixed in the gate. Offline (external links unchecked) and
    with a result cache of its own, so that it judges this checkout's code. About 15 s
    of CPU on this machine."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("PYTEST_XDIST") and k != "PYTEST_ADDOPTS"
    }
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "docs/",
            "README.md",
            "-p",
            "no:cacheprovider",
            "-q",
            "-rfE",
            "--postgates-offline",
            f"--postgates-scorecards={tmp_path / 'scorecards'}",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    pages = sorted(DOCS.rglob("*.md"))
    overall = sorted((tmp_path / "scorecards").glob("*-overall.json"))
    assert len(overall) == len(pages) + 1  # every page and the README were gated
    assert all(json.loads(p.read_text())["overall"] == "PASS" for p in overall)
