"""bench/natural_drift.py: the cases file, how a finding is matched to a case, the scratch
site it gates, and the figures (no plugin run here: the bench runs it)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import load_bench, make_repo

drift = load_bench("natural_drift", "natural_drift.py")


def _case(**changes: Any) -> Any:
    fields: dict[str, Any] = {
        "project": "encode/httpx",
        "language": "python",
        "split": "tune",
        "fix": "f" * 40,
        "parent": "p" * 40,
        "doc": "docs/api.md",
        "line": 10,
        "token": "httpx.BasicAuthentication",
        "replacement": "httpx.BasicAuth",
        "shape": "fence-member",
        "verified": "",
    }
    return drift.Case(**{**fields, **changes})


def test_the_labelled_cases_load_with_the_fixed_split() -> None:
    cases = drift.load_cases(drift.CASES)
    assert len(cases) >= 60
    assert {case.split for case in cases} == {"tune", "report"}
    assert all(drift.SPLIT[case.project] == case.split for case in cases)


def test_a_case_in_the_wrong_half_is_refused(tmp_path: Path) -> None:
    row = {**_case().__dict__, "split": "report"}
    path = tmp_path / "cases.jsonl"
    path.write_text("# rules\n" + json.dumps(row) + "\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="encode/httpx is in split tune"):
        drift.load_cases(path)


def test_a_finding_matches_on_the_whole_token_or_its_last_member() -> None:
    case = _case()
    assert drift.matches(case, drift.Finding(15, 10, "BasicAuthentication"))
    assert drift.matches(case, drift.Finding(2, 10, "httpx.BasicAuthentication(username)"))
    assert not drift.matches(case, drift.Finding(2, 10, "httpx.BasicAuth"))


def test_a_token_written_with_its_call_is_matched_by_the_name_called() -> None:
    opened = _case(token="LoRAConfig(", shape="fence-member")  # the label's call, unclosed
    assert opened.names == ("LoRAConfig",)
    closed = _case(token="replace_lora_weights_loft(peft_model)", shape="fence-member")
    assert closed.names == ("replace_lora_weights_loft",)


def test_a_path_or_flag_is_matched_whole_never_by_its_parts() -> None:
    path = _case(token="examples/old_pkg/functions.py", shape="path")
    assert drift.matches(path, drift.Finding(2, 10, "examples/old_pkg/functions.py"))
    assert not drift.matches(path, drift.Finding(2, 10, "main.py"))
    flag = _case(token="--brower.headless", shape="cli-flag")
    assert drift.matches(flag, drift.Finding(2, 10, "--brower.headless=false"))
    assert not drift.matches(flag, drift.Finding(2, 10, "headless"))


def test_caught_near_the_line_and_clean_when_the_fix_has_no_such_finding() -> None:
    case = _case(token="max_keepalive", shape="prose-identifier")
    at_parent = drift.DocResult(findings=[drift.Finding(2, 12, "max_keepalive")])
    far = drift.DocResult(findings=[drift.Finding(2, 13, "max_keepalive")])
    at_fix = drift.DocResult(findings=[drift.Finding(2, 40, "tqdm")])
    assert drift.judge(case, at_parent, at_fix).caught
    assert drift.judge(case, at_parent, at_fix).clean is True
    assert not drift.judge(case, far, at_fix).caught
    assert drift.judge(case, at_parent, at_parent).clean is False
    assert drift.judge(case, at_parent, drift.DocResult(missing=True)).clean is None


def test_the_rules_of_a_case_are_those_that_decided_a_token_about_the_defect() -> None:
    case = _case(token="max_keepalive", shape="prose-identifier")
    at_parent = drift.DocResult(decided=[
        drift.Finding(2, 11, "max_keepalive", "model-near-miss"),
        drift.Finding(2, 30, "max_keepalive", "historical"),  # far from the line
        drift.Finding(2, 10, "tqdm", "dependency-found"),  # another name
    ])  # fmt: skip
    at_fix = drift.DocResult(decided=[drift.Finding(2, 70, "max_keepalive", "past-release")])
    assert drift.judge(case, at_parent, at_fix).rules == ["model-near-miss", "past-release"]


def test_a_gate_2_card_gives_every_token_it_decided_with_its_rule(tmp_path: Path) -> None:
    (tmp_path / "api-overall.json").write_text(json.dumps({"post": "docs/api.md"}))
    card = {"verdict": "FAIL", "detail": {
        "ungrounded": [{"line": 3, "token": "opin", "rule": "model-near-miss"}],
        "outcomes": {"grounded": [{"line": 4, "token": "open", "rule": "model-found"}],
                     "unjudged": [{"line": 5, "token": "x.y"}]},
    }}  # fmt: skip
    (tmp_path / "api-gate2-symbol_grounding.json").write_text(json.dumps(card))
    result = drift.read_cards(tmp_path)["docs/api.md"]
    assert [(f.line, f.token, f.rule) for f in result.findings] == [(3, "opin", "model-near-miss")]
    assert sorted((f.token, f.rule) for f in result.decided) == [
        ("open", "model-found"),
        ("opin", "model-near-miss"),
        ("x.y", "-"),
    ]


def test_a_near_miss_a_card_decided_names_its_way(tmp_path: Path) -> None:
    # bench/ablation.py finds a near-miss way's drift cases by "model-near-miss (way)".
    (tmp_path / "api-overall.json").write_text(json.dumps({"post": "docs/api.md"}))
    near = {
        "line": 3,
        "token": "opin",
        "rule": "model-near-miss",
        "reason": "`opin` is not declared; did you mean `open`? (near-letter-changed)",
    }
    card = {"verdict": "FAIL", "detail": {"ungrounded": [near], "outcomes": {}}}
    (tmp_path / "api-gate2-symbol_grounding.json").write_text(json.dumps(card))
    result = drift.read_cards(tmp_path)["docs/api.md"]
    assert [f.rule for f in result.decided] == ["model-near-miss (near-letter-changed)"]


def test_docs_of_one_base_name_never_share_a_run() -> None:
    batches = drift.batches(["docs/index.md", "docs/api/index.md", "docs/api.md"])
    assert batches == [["docs/index.md", "docs/api.md"], ["docs/api/index.md"]]


def test_posts_folder_is_the_docs_folder_else_the_doc_itself() -> None:
    assert drift.posts_folder("docs/guide/x.md") == "docs"
    assert drift.posts_folder("packages/plugin/README.md") == "packages/plugin"
    assert drift.posts_folder("README.md") == "README.md"


def test_the_site_holds_the_doc_at_the_commit_and_the_configuration(tmp_path: Path) -> None:
    mirror = make_repo(tmp_path / "src", {"docs/a.md": "old `name`\n", "pkg.py": "x = 1\n"})
    first = subprocess.run(
        ["git", "-C", str(mirror), "rev-parse", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    (mirror / "docs" / "a.md").write_text("new `name`\n", encoding="utf-8")
    subprocess.run(["git", "-C", str(mirror), "commit", "-qam", "fix"], check=True)
    present = drift.prepare_site(
        mirror, first, ["docs/a.md", "docs/gone.md"], tmp_path / "site", "pkg"
    )
    assert present == {"docs/a.md": True, "docs/gone.md": False}
    assert (tmp_path / "site" / "docs" / "a.md").read_text(encoding="utf-8") == "old `name`\n"
    config = (tmp_path / "site" / "pyproject.toml").read_text(encoding="utf-8")
    assert 'paths = ["docs"]' in config and 'package = "pkg"' in config
    ref = subprocess.run(
        ["git", "-C", str(tmp_path / "site"), "rev-parse", drift.REF],
        capture_output=True,
        text=True,
    ).stdout.strip()
    assert ref == first


def test_figures_count_by_shape_and_controls() -> None:
    caught = drift.Outcome(_case(), True, True, {2: "FAIL"}, {}, [])
    missed = drift.Outcome(_case(shape="path", token="a/b.py"), False, None, {15: "ERROR"},
                           {15: "no package name 3"}, [])  # fmt: skip
    data = drift.figures([caught, missed])
    assert data["by_shape"] == {
        "path": {"caught": 0, "total": 1},
        "fence-member": {"caught": 1, "total": 1},
    }
    assert (data["caught"], data["cases"], data["clean"], data["controls"]) == (1, 2, 1, 1)
    assert data["not_judged_reasons"] == {"gate 15 ERROR: no package name N": 1}


def test_figures_by_fix_weigh_each_fix_once() -> None:
    """A fix with many cases (one renamed option on many lines) counts once in the per-fix
    figures: here 3 of 4 cases are caught, but only 1 of the 2 fixes has a case caught."""
    big = [drift.Outcome(_case(line=n), True, True, {2: "FAIL"}, {}, []) for n in (1, 2, 3)]
    other = drift.Outcome(_case(fix="e" * 40, project="pydantic/pydantic"), False, True,
                          {2: "PASS"}, {}, [])  # fmt: skip
    data = drift.figures([*big, other])
    assert (data["caught"], data["cases"]) == (3, 4)
    assert (data["fixes_caught"], data["fixes"], data["fix_recall"]) == (1, 2, 50.0)
    assert data["by_project"] == {
        "encode/httpx": {"caught": 3, "total": 3},
        "pydantic/pydantic": {"caught": 0, "total": 1},
    }


def test_the_results_file_carries_the_commit_and_the_controls_beside_recall(
    tmp_path: Path,
) -> None:
    """Issue 28: ``--results`` writes the figures for the docs (bench/results_json.py):
    the commit measured, and the clean controls at the fix beside the recall they control."""
    from bench.results_json import ROOT, Run

    caught = drift.Outcome(_case(), True, True, {2: "FAIL"}, {}, [])
    missed = drift.Outcome(_case(shape="path", token="a/b.py"), False, False, {2: "PASS"}, {},
                           [])  # fmt: skip
    report = {"tune": drift.figures([caught, missed]), "all": drift.figures([caught, missed])}
    run = Run("natural_drift", {"split": "tune"})
    drift.record_figures(run, report, 3)
    run.write(tmp_path / "natural_drift.json")
    record = json.loads((tmp_path / "natural_drift.json").read_text(encoding="utf-8"))
    head = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    assert record["commit"] == head and record["bench"] == "natural_drift"
    assert "2 of 3 cases gated" in record["notes"][0]
    table = record["tables"][0]
    kinds = [(column["name"], column["kind"]) for column in table["columns"]]
    assert kinds[3] == ("recall", "figure")
    assert ("clean at the fix", "control") in kinds
    assert table["rows"] == [
        ["tune", 2, 1, 50.0, 2, 1, 50.0, 0],
        ["all", 2, 1, 50.0, 2, 1, 50.0, 0],
    ]
    shapes = record["tables"][1]["rows"]
    assert ["tune", "path", 1, 0, 0.0] in shapes and ["all", "fence-member", 1, 1, 100.0] in shapes
    by_fix = record["tables"][2]["rows"]
    assert by_fix == [["tune", 1, 1, 100.0, 50.0, 2], ["all", 1, 1, 100.0, 50.0, 2]]
    assert record["tables"][3]["rows"] == [["tune", "encode/httpx", 2, 1, 50.0]]


def test_the_gates_read_a_projects_installed_dependencies_only_when_present(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "o+trl" / "python").mkdir(parents=True)
    monkeypatch.delenv(drift.BENCH_DEPENDENCIES_ENV, raising=False)
    assert drift.dependency_folders("o/trl") == []
    assert drift.dependencies_present(["o/trl"]) == {"o/trl": False}
    monkeypatch.setenv(drift.BENCH_DEPENDENCIES_ENV, str(tmp_path))
    assert drift.dependency_folders("o/trl") == [tmp_path / "o+trl" / "python"]
    assert drift.dependencies_present(["o/trl", "o/peft"]) == {"o/trl": True, "o/peft": False}
