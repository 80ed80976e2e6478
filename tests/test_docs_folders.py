"""Docs folders (issue 13): Markdown files without front matter are posts with an empty
front matter. Gate 1 reports NO_FRONT_MATTER only where front matter is required; every
other gate judges the body; malformed front matter is still an ERROR."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pytest_postgates.batch import RunBatches
from pytest_postgates.gates import GateContext, default_settings, markdownlint
from pytest_postgates.post import parse_post
from pytest_postgates.tools import lint
from tests.test_gate_markdownlint import _markdownlint_cli as markdownlint_cli_command

if TYPE_CHECKING:
    from tests.conftest import Blog


def test_docs_folder_without_front_matter_runs_every_gate_on_the_body(
    pytester: pytest.Pytester, blog: Blog
) -> None:
    blog.pyproject('paths = ["docs"]\n')
    blog.raw("docs/guide.md", ("# Guide\n\n" + blog.GOOD).encode())
    blog.raw("docs/claims.md", ("# Claims\n\n" + blog.CLAIMS).encode())
    result = pytester.runpytest("docs", "--postgates-only=1,11,13", "-rA")
    # guide: 1, 11 and 13 pass; claims: 1 and 11 pass, 13 (advisory) fails as xfailed.
    result.assert_outcomes(passed=2 + 2, xpassed=1, xfailed=1)
    result.stdout.no_fnmatch_line("*ERROR*")
    card = blog.card("guide-gate1-blog_quality.json")
    assert card["verdict"] == "PASS"
    assert card["detail"]["front_matter"]["front_matter_required"] is False


def test_posts_folder_without_front_matter_fails_gate_1_not_errors(
    pytester: pytest.Pytester, blog: Blog
) -> None:
    blog.raw("_posts/2026-01-01-bare.md", blog.GOOD.encode())
    result = pytester.runpytest("--postgates-only=1,11", "--postgates-all", "-rA")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*_posts/2026-01-01-bare.md:1: NO_FRONT_MATTER no front matter*"])
    assert blog.card("2026-01-01-bare-gate11-narrative_opening.json")["verdict"] == "PASS"


def test_require_front_matter_setting_applies_to_docs_folders(
    pytester: pytest.Pytester, blog: Blog
) -> None:
    blog.pyproject('paths = ["docs"]\nrequire_front_matter = true\n')
    blog.raw("docs/guide.md", blog.GOOD.encode())
    result = pytester.runpytest("docs", "--postgates-only=1", "-rA")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*NO_FRONT_MATTER*"])


def test_malformed_front_matter_in_a_docs_folder_is_still_an_error(
    pytester: pytest.Pytester, blog: Blog
) -> None:
    blog.pyproject('paths = ["docs"]\n')
    blog.raw("docs/broken.md", b"---\ntitle: [unclosed\n---\n" + blog.GOOD.encode())
    result = pytester.runpytest("docs", "--postgates-only=1,11", "--postgates-all")
    result.assert_outcomes(errors=2)
    result.stdout.fnmatch_lines(["*FRONT_MATTER_YAML front matter is not valid YAML*"])


# ---------------------------------------------- gate 12 skips TOML and JSON front matter
REPO = Path(__file__).resolve().parent.parent
HUGO_FRONTS = {
    "toml": '+++\ntitle = "Hugo post"\ndate = 2026-06-03\n+++\n',
    "json": '{\n  "title": "Hugo post",\n  "date": "2026-06-03"\n}\n',
    "yaml": "---\ntitle: Hugo post\ndate: 2026-06-03\n---\n",
}
# MD022 (heading without a blank line after) on body line 1, MD012 (extra blank lines) on
# 4 and 5, MD040 (fence without a language) on 6: file lines are those plus the front
# matter. A level-2 heading: see test_md025_reads_a_toml_or_json_title_as_markdownlint_does.
LINT_BODY = "## Title\nText right under it.\n\n\n\n```\ncode\n```\n"


def _markdownlint_cli() -> str | None:
    # The same lookup as gate 12's parity tests: POSTGATES_MARKDOWNLINT_CLI (which .ci/run
    # sets after installing it with npm), the bench's and CI's install folders, then PATH.
    found = markdownlint_cli_command()
    return found[0] if found else None


@pytest.mark.parametrize("kind", sorted(HUGO_FRONTS))
def test_gate_12_reports_file_lines_after_toml_and_json_front_matter(
    tmp_path: Path, kind: str
) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".markdownlint.json").write_text('{"default": true, "MD013": false}')
    front = HUGO_FRONTS[kind]
    path = tmp_path / "content" / "posts" / "2026-06-03-hugo.md"
    path.parent.mkdir(parents=True)
    path.write_text(front + LINT_BODY, encoding="utf-8")
    post = parse_post(path)
    assert post.front_matter_format == kind and not post.problems
    offset = post.body_start_line - 1
    context = GateContext.create(
        default_settings(lint_backend="rumdl"), batches=RunBatches(posts=(path,))
    )
    card = markdownlint.GATE.evaluate(post, context)
    found = {(v["line"], v["rule"]) for v in card.detail["violations"]}
    assert found == {
        (1 + offset, "MD022"),
        (4 + offset, "MD012"),
        (5 + offset, "MD012"),
        (6 + offset, "MD040"),
    }
    assert all(line > offset for line, _ in found)


@pytest.mark.skipif(
    _markdownlint_cli() is None,
    reason="markdownlint-cli not installed (set POSTGATES_MARKDOWNLINT_CLI; .ci/run installs "
    "it with npm, python bench/markdownlint_parity.py into bench/.work/node)",
)
@pytest.mark.parametrize("kind", sorted(HUGO_FRONTS))
def test_markdownlint_cli_agrees_on_toml_and_json_front_matter(tmp_path: Path, kind: str) -> None:
    """The oracle: markdownlint-cli skips the same front matter and names the same lines."""
    (tmp_path / ".git").mkdir()
    (tmp_path / ".markdownlint.json").write_text('{"default": true, "MD013": false}')
    path = tmp_path / "2026-06-03-hugo.md"
    path.write_text(HUGO_FRONTS[kind] + LINT_BODY, encoding="utf-8")
    cli = _markdownlint_cli()
    assert cli is not None
    reference = lint.lint_batch([path], "markdownlint-cli", markdownlint_cli=cli)
    ours = lint.lint_batch([path], "rumdl")
    pairs = {
        name: {(v["line"], v["rule"]) for v in batch["files"][str(path.resolve())]["violations"]}
        for name, batch in (("cli", reference), ("rumdl", ours))
    }
    assert pairs["cli"] == pairs["rumdl"]
    offset = parse_post(path).body_start_line - 1
    assert (6 + offset, "MD040") in pairs["cli"]


@pytest.mark.parametrize("kind", ["toml", "json"])
def test_md025_reads_a_toml_or_json_title_as_markdownlint_does(tmp_path: Path, kind: str) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".markdownlint.json").write_text('{"default": true, "MD013": false}')
    path = tmp_path / "2026-06-03-hugo.md"
    path.write_text(HUGO_FRONTS[kind] + "# Title\n\nText.\n", encoding="utf-8")
    # markdownlint's default front_matter_title, ^\s*"?title"?\s*[:=], matches TOML and JSON
    # titles too, so a '# Title' under one is a second top-level heading (MD025 is computed
    # with markdownlint's algorithm, not rumdl's YAML-only reading).
    batch = lint.lint_batch([path], "rumdl")
    found = {(v["line"], v["rule"]) for v in batch["files"][str(path.resolve())]["violations"]}
    assert (parse_post(path).body_start_line, "MD025") in found
