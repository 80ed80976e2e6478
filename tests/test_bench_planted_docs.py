"""bench/planted_docs.py: inventions planted where real product names were written, checked
absent from the repository, and gate 2's outcome for each, end to end on a small project."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tests.helpers import git, load_bench, make_repo

planted = load_bench("bench_planted_docs", "planted_docs.py")
docs = planted.dp


def test_plant_replaces_the_code_span_on_its_line_only() -> None:
    invention = planted.Invention("letter", "open_stream", 2, "opin_stream", ("opin_stream",))
    missing = planted.Invention("letter", "close", 9, "clase", ("clase",))
    text = "Call `open_stream`.\nThen `open_stream` again, not open_stream.\n"
    new, done = planted.plant(text, [invention, missing])
    assert new == "Call `open_stream`.\nThen `opin_stream` again, not open_stream.\n"
    assert done == [invention]


def test_an_invention_counts_as_caught_only_as_a_finding_on_its_line() -> None:
    invention = planted.Invention("member", "Client", 4, "Client.fetchLedger", ("fetchLedger",))
    entry = {"token": "Client.fetchLedger", "line": 4, "rule": "model-rooted-miss"}
    found = {"ungrounded": [entry]}
    elsewhere = {"ungrounded": [{"token": "Client.fetchLedger", "line": 40, "rule": "x"}]}
    unjudged = {"outcomes": {"unjudged": [{"token": "Client.fetchLedger", "rule": "prose-only"}]}}
    assert planted.outcome_of(found, invention) == ("ungrounded", "model-rooted-miss")
    assert planted.outcome_of(elsewhere, invention) == ("not read", "-")
    assert planted.outcome_of(unjudged, invention) == ("unjudged", "prose-only")


def test_candidates_take_real_names_by_shape_and_are_seeded() -> None:
    reals = [
        planted.Real("StreamClient", "symbol", 3, "model-found"),
        planted.Real("open_stream", "symbol", 5, "model-found"),
        planted.Real("--max-depth", "flag", 7, "flag-as-written"),
        planted.Real("pkg/client.py", "path", 9, "model-found"),
        planted.Real("helper_name", "symbol", 11, "prose-only"),  # not a real name: skipped
    ]
    first = planted.candidates(reals, random.Random(1))
    assert first == planted.candidates(reals, random.Random(1))
    shapes = {i.shape for i in first}
    assert {"letter", "member", "member-call", "flag", "path", "joined"} <= shapes
    assert all(i.original != "helper_name" for i in first)
    member = next(i for i in first if i.shape == "member")
    assert member.original == "StreamClient" and member.probes == (member.text.split(".")[1],)
    flag = next(i for i in first if i.shape == "flag")
    assert flag.text.startswith("--") and flag.text != "--max-depth"
    # In a Python project an invented member is written as Python writes it.
    python = planted.candidates(reals, random.Random(1), python=True)
    member = next(i for i in python if i.shape == "member")
    assert member.text.split(".")[1].islower() and "_" in member.text


def test_joined_names_keep_the_first_names_writing() -> None:
    assert planted.joined_in_style("retry_task", "max_uses") == "retry_uses"
    assert planted.joined_in_style("retry_task", "maxUses") == "retry_uses"
    assert planted.joined_in_style("DynamicToolset", "RunAgent") == "DynamicAgent"
    assert planted.joined_in_style("strict", "strict") is None


def test_a_small_project_end_to_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Real names of a small package are replaced by inventions in its docs; gate 2 catches
    the rename of a function and an invented member of a real class, and the rest of the
    page is unmoved (the control)."""
    mirror = make_repo(
        tmp_path / "mirrors" / "encode+httpx" / "repo",
        {
            "pyproject.toml": '[project]\nname = "shapes"\nversion = "1.0"\n',
            "shapes/__init__.py": "from shapes.area import Square, square_area\n",
            "shapes/area.py": "class Square:\n    def diagonal(self) -> float:\n"
            "        return 1.0\n\n\ndef square_area(side: float) -> float:\n"
            "    return side * side\n",
            "docs/guide.md": "# Guide\n\nCall `square_area` for a square.\n\n"
            "The `Square` class measures one.\n\nMake a `Square` first.\n\n"
            "Its `Square.diagonal()` method.\n\nCall `shapes.circle_area()` for a circle.\n\n"
            "It is written in `shapes/area.py`.\n",
        },
    )
    commit = git(mirror, "rev-parse", "HEAD").strip()
    labels = tmp_path / "tune.jsonl"
    labels.write_text(f"# pin encode/httpx {commit}\n", encoding="utf-8")
    project = docs.Project("encode/httpx", "docs", "python")
    monkeypatch.setitem(docs.HALVES, "tune", ((project,), labels))
    monkeypatch.setenv(docs.MIRRORS_ENV, str(tmp_path / "mirrors"))
    monkeypatch.delenv(docs.BENCH_DEPENDENCIES_ENV, raising=False)
    out, results = tmp_path / "run.json", tmp_path / "results.json"
    argv = ["--half", "tune", "--per-doc", "5", "--json", str(out), "--results", str(results)]
    assert planted.main(argv) == 0
    printed = capsys.readouterr().out
    assert f"encode/httpx at {commit[:12]}" in printed
    payload = json.loads(out.read_text(encoding="utf-8"))
    inventions = payload["overall"]["inventions"]
    assert inventions, printed
    for item in inventions:
        # Each invention is absent from the code, and sits where its original was written.
        assert item["invention"] not in (mirror / "shapes" / "area.py").read_text()
        assert item["doc"] == "docs/guide.md" and item["line"] in (3, 5, 7, 9, 13)
    # A path of the repository gets a wrong segment of its own stream, on top of the rest.
    (path,) = [i for i in inventions if i["shape"] == "path"]
    assert path["original"] == "shapes/area.py" and path["line"] == 13
    members = [i for i in inventions if i["shape"] in ("member", "member-call")]
    assert members and all(i["outcome"] == "ungrounded" for i in members), inventions
    assert payload["overall"]["caught"] == sum(i["outcome"] == "ungrounded" for i in inventions)
    # The control: the page's own finding (circle_area) is there, planted or not.
    assert payload["overall"]["other_findings"] == [1, 1]
    # The results file for the Benchmarks page: a row per shape and the half's total with
    # the control beside it, the same figures as the JSON.
    record = json.loads(results.read_text(encoding="utf-8"))
    assert record["bench"] == "planted_docs" and record["settings"]["half"] == "tune"
    totals, shapes = record["tables"]
    overall = payload["overall"]
    caught, planted_count = overall["caught"], overall["planted"]
    assert totals["rows"] == [
        ["tune", planted_count, caught, round(100 * caught / planted_count, 1), 1, 1]
    ]
    rows = {(row[0], row[1]): row[2:] for row in shapes["rows"]}
    for shape, counts in overall["by_shape"].items():
        assert rows[("tune", shape)][:2] == [counts["planted"], counts.get("caught", 0)]
