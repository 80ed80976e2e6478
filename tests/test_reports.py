"""SARIF, GitHub annotations and the HTML report, from a real run."""

from __future__ import annotations

import json
import shutil
import subprocess
import tarfile
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pytest_postgates import reports
from tests.helpers import GATE11_ADOPTED

if TYPE_CHECKING:
    from tests.conftest import Blog

FRONT = "---\nlayout: post\ntitle: T\ndate: 2026-01-01\n---\n"
POSTS = {
    "2026-01-01-clean.md": "We run pytest over Python posts.\n",
    # gate 11 FAIL: phrase on line 6 and 8; a hostile string to check escaping
    "2026-01-01-brochure.md": "Python is a paradigm shift, 100%: <script>alert(1)</script>\n\n"
    "It is cutting-edge, with commas, colons: and\nnew lines.\n",
    # gate 13 FAIL only (advisory): seven claim lines
    "2026-01-01-claims.md": "A pytest post.\n\n"
    + "\n\n".join(
        [
            "The loader calls the parser.",
            "The session orchestrates gates.",
            "main is the entry point.",
            "A switch statement picks it.",
            "It returns a Promise<Response>.",
            "A private method does it.",
            "A thin wrapper holds it.",
        ]
    )
    + "\n",
}


@pytest.fixture
def run(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    monkeypatch.setenv(
        "PYTEST_ADDOPTS",
        f"{GATE11_ADOPTED} --postgates -p no:cacheprovider -p no:hypothesispytest "
        "--postgates-only=11,13",
    )
    posts = pytester.path / "_posts"
    posts.mkdir()
    for name, body in POSTS.items():
        (posts / name).write_text(FRONT + body)
    return pytester


@pytest.fixture(scope="session")
def sarif_schema(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The SARIF 2.1.0 JSON schema, from the npm package Microsoft publishes it in."""
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed: cannot fetch the SARIF 2.1.0 schema")
    folder = tmp_path_factory.mktemp("sarif-schema")
    packed = subprocess.run(
        [npm, "pack", "@microsoft/jest-sarif@1.0.0-beta.0", "--silent"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if packed.returncode != 0:
        pytest.skip(
            f"cannot download the SARIF schema package from npm: {packed.stderr.strip()[:200]}"
        )
    with tarfile.open(folder / packed.stdout.strip().splitlines()[-1]) as archive:
        member = archive.extractfile("package/lib/schemas/sarif-2.1.0-rtm.5.json")
        assert member is not None
        return json.load(member)


def test_sarif_validates_and_holds_one_result_per_finding(
    run: pytest.Pytester, sarif_schema: dict
) -> None:
    import jsonschema

    run.runpytest("--postgates-sarif", "out.sarif")
    log = json.loads((run.path / "out.sarif").read_text())
    jsonschema.validate(log, sarif_schema)
    results = log["runs"][0]["results"]
    brochure = [
        r
        for r in results
        if r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith("brochure.md")
    ]
    assert [
        (r["ruleId"], r["level"], r["locations"][0]["physicalLocation"]["region"]["startLine"])
        for r in brochure
    ] == [
        ("narrative_opening", "error", 6),
        ("narrative_opening", "error", 8),
    ]
    claims = [r for r in results if r["ruleId"] == "call_graph_claims"]
    assert len(claims) == 7 and {r["level"] for r in claims} == {"warning"}
    assert {rule["id"] for rule in log["runs"][0]["tool"]["driver"]["rules"]} >= {
        "narrative_opening",
        "call_graph_claims",
    }


def test_sarif_uris_are_relative_to_the_repository_whichever_folder_pytest_ran_from(
    blog: Blog, monkeypatch: pytest.MonkeyPatch, sarif_schema: dict
) -> None:
    """Code scanning reads a location relative to the repository: a run from the repository's
    top and one from the blog's folder (``cd blog; pytest .``: the rootdir is then ``blog``)
    give the same URIs, under ``%SRCROOT%``, which ``originalUriBaseIds`` places at the top."""
    import jsonschema

    blog.post("2026-01-01-brochure.md", blog.BROCHURE, folder="blog/_posts")
    blog.post("2026-01-01-claims.md", blog.CLAIMS, folder="blog/_posts")
    blog.git_init()
    top = blog.path
    blog.pytester.runpytest(f"--postgates-sarif={top / 'from-top.sarif'}")
    monkeypatch.chdir(top / "blog")
    blog.pytester.runpytest(".", f"--postgates-sarif={top / 'from-blog.sarif'}")
    logs = [json.loads((top / f"{name}.sarif").read_text()) for name in ("from-top", "from-blog")]
    for log in logs:
        jsonschema.validate(log, sarif_schema)
        (run,) = log["runs"]
        assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == top.resolve().as_uri() + "/"
        artifacts = [
            location["physicalLocation"]["artifactLocation"]
            for result in run["results"]
            for location in result["locations"]
        ]
        assert {a["uriBaseId"] for a in artifacts} == {"%SRCROOT%"}
        assert {a["uri"] for a in artifacts} == {
            "blog/_posts/2026-01-01-brochure.md",
            "blog/_posts/2026-01-01-claims.md",
        }
    assert logs[0]["runs"][0]["results"] == logs[1]["runs"][0]["results"]


def test_github_annotations_only_under_github_actions(
    run: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert not [line for line in run.runpytest().outlines if line.startswith("::")]
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    lines = [line for line in run.runpytest().outlines if line.startswith("::")]
    assert lines[0].startswith(
        "::error file=_posts/2026-01-01-brochure.md,line=6,"
        "title=postgates narrative_opening (gate 11)::BANNED_PHRASE"
    )
    assert "%25" in lines[0]  # the "%" of "100%" is escaped
    assert sum(line.startswith("::warning file=_posts/2026-01-01-claims.md") for line in lines) == 7


def test_annotation_escaping() -> None:
    records = {
        "a,b:c.md": {
            11: {
                "gate": 11,
                "name": "narrative_opening",
                "advisory": False,
                "verdict": "FAIL",
                "summary": "s",
                "findings": [[3, "X", "50% off\nnext: line", ""]],
            }
        }
    }
    (line,) = reports.github_annotations(records)
    assert (
        line == "::error file=a%2Cb%3Ac.md,line=3,title=postgates narrative_opening (gate 11)"
        "::X: 50%25 off%0Anext: line"
    )


def _failing_record(gate: int, name: str, advisory: bool, count: int) -> dict[str, object]:
    findings = [[n + 1, "X", f"finding {n} at 100%", ""] for n in range(count)]
    return {"gate": gate, "name": name, "advisory": advisory, "verdict": "FAIL",
            "summary": "s", "findings": findings}  # fmt: skip


def test_annotations_are_capped_at_what_github_shows_with_a_count() -> None:
    """Issue 27: GitHub shows 10 error and 10 warning annotations a step and drops the rest
    silently; the first 10 of each are printed, then one notice with the count and where
    every finding is."""
    records = {
        "_posts/a.md": {
            11: _failing_record(11, "narrative_opening", False, 25),
            13: _failing_record(13, "call_graph_claims", True, 12),
        }
    }
    lines = reports.github_annotations(records)
    assert len(lines) == 37
    capped = reports.capped_annotations(lines, "out.sarif, 100% of them")
    assert capped[:10] == lines[:10] and capped[10:20] == lines[25:35]
    assert sum(line.startswith("::error") for line in capped) == 10
    assert sum(line.startswith("::warning") for line in capped) == 10
    assert capped[20] == (
        "::notice title=postgates::20 of 37 findings annotated (GitHub shows 10 errors and "
        "10 warnings a step); all 37 are in out.sarif, 100%25 of them"
    )
    assert len(capped) == 21
    assert reports.capped_annotations(lines[:10], "x") == lines[:10]  # nothing left out


def test_a_run_under_github_actions_prints_at_most_ten_errors(
    pytester: pytest.Pytester, blog: Blog, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    brochure = "\n\n".join(f"Line {n} is a paradigm shift." for n in range(14))
    blog.post(body="This post shows how pytest loads a Python plugin.\n\n" + brochure + "\n")
    result = pytester.runpytest("_posts", "--postgates-only=11", "--postgates-sarif=out.sarif")
    errors = [line for line in result.outlines if line.startswith("::error")]
    assert len(errors) == 10
    (notice,) = [line for line in result.outlines if line.startswith("::notice")]
    assert notice.startswith("::notice title=postgates::10 of 14 findings annotated")
    assert notice.endswith(
        "all 14 are in out.sarif, the scorecards in .postgates/scorecards and the failure "
        "report above"
    )


def test_html_report_is_self_contained_and_escapes_post_content(run: pytest.Pytester) -> None:
    run.runpytest("--postgates-html", "report.html")
    page = (run.path / "report.html").read_text()
    assert (
        "<script>alert(1)</script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    )
    assert "http://" not in page and "https://" not in page  # nothing to fetch: usable offline
    assert page.count('<tr data-post="') == 3
    assert (
        "1 of 3 posts pass every hard gate" in page or "2 of 3 posts pass every hard gate" in page
    )


def _chromium() -> str | None:
    return (
        shutil.which("chromium")
        or shutil.which("chromium-browser")
        or shutil.which("google-chrome")
    )


def test_html_report_renders_the_grid_in_headless_chromium(
    run: pytest.Pytester, tmp_path: Path
) -> None:
    browser = _chromium()
    if browser is None:
        pytest.skip("Chromium is not installed (Debian package 'chromium'); .ci/run installs it")
    run.runpytest("--postgates-html", "report.html")
    command = [
        browser,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={tmp_path / 'profile'}",
        "--virtual-time-budget=2000",
        "--dump-dom",
        (run.path / "report.html").as_uri(),
    ]
    dom = subprocess.run(command, capture_output=True, text=True, timeout=120, check=True).stdout
    assert 'data-rendered="yes"' in dom  # the page's script ran
    assert dom.count('<td class="v ') >= 3 * 3  # three posts x (overall + two gates)
    assert 'class="bar"' in dom  # pass-rate bars drawn
