"""Gate 12, markdownlint, and the lint layer behind it: real rumdl runs on small posts.

The parity tests at the end run markdownlint-cli itself when one is installed (on PATH, in
a node_modules folder, or where ``bench/markdownlint_parity.py`` installs it) and are
skipped with a reason otherwise.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_postgates.batch import RunBatches
from pytest_postgates.config import Settings
from pytest_postgates.gates import GateContext, default_settings
from pytest_postgates.gates import markdownlint as gate
from pytest_postgates.post import parse_post
from pytest_postgates.tools import lint
from pytest_postgates.tools.lint import batch as lint_run
from tests.helpers import FRONT_MATTER

if TYPE_CHECKING:
    from tests.conftest import Blog

REPO = Path(__file__).resolve().parent.parent
BLOG_CONFIG = {
    "default": True,
    "MD013": False,
    "MD033": False,
    "MD041": False,
    "MD024": {"siblings_only": True},
    "MD036": False,
    "MD002": False,
    "MD046": False,
    "MD060": False,
}
# The post that started the gate in the seeds: a heading and a fence glued to their
# neighbours, and a fence with no language. File lines: front matter is lines 1-5.
SEED_BODY = (
    "Intro paragraph naming pytest.\n"  # 6
    "## Setup\n"  # 7: MD022 (no blank line above or below)
    "Install it:\n"  # 8
    "```\n"  # 9: MD031 (no blank line before), MD040 (no language)
    "pip install pytest-postgates\n"  # 10
    "```\n"  # 11: MD031 (no blank line after)
    "Done.\n"  # 12
)
CLEAN_BODY = (
    "Intro paragraph naming pytest.\n\n## Setup\n\nInstall it:\n\n"
    "```bash\npip install pytest-postgates\n```\n\nDone.\n"
)

NESTED_BODY = (
    "A post about fences.\n\n"  # 6-7
    "````\n"  # 8: MD040, the outer fence has no language
    "```\n"  # 9: inner fence, content of the outer block
    "no language here, but it is only text\n"
    "```\n"
    "````\n"  # 12
    "Glued paragraph.\n"  # 13: MD031, after the outer fence only
)

MD029_BODY = "Steps:\n\n3. three\n4. four\n\nAgain:\n\n1. a\n1. b\n2. c\n\nFine:\n\n1. x\n2. y\n"

MD029_STARTS_BODY = (
    "Steps:\n\n1. a\n   2. not a list: 2 cannot interrupt a paragraph\n   3. x\n2. b\n\n"
    "- bullet\n\n      code\n\n2. a new list at 2\n\n> 3. quoted\n\n1. one\n\n   more\n2. two\n"
)

MIXED_BULLETS_BODY = (
    "Text.\n\n- p\n* q\n\nText.\n\n- p\n  more\n* q\n\n"  # junctions at 8-9 and 14-15
    "Text.\n\n> - a\n> * b\n\n"  # 19-20, in a blockquote
    "Text.\n\n- a\n  - x\n  * y\n- b\n"  # nested: not a top-level list, no MD032
)

MD046_BODY = "Text.\n\n    indented first\n\nMore.\n\n```python\nx = 1\n```\n\n```js\ny\n```\n"

MD004_BODY = (
    "Text.\n\n* first\n\nText.\n\n- second\n- third\n\n"  # 8 and 12, 13: MD004 on the dashes
    "~~~text\na\n~~~\n\n```text\nb\n```\n\n```text\nc\n```\n"  # 15; 19 and 23: MD048
)

TABLE_BODY = "Text.\n\n| a | b |\n|---|\n| 1 |\n\nText.\n\n| a | b |\n|---|---|\n| 1 |\n"

MD024_BODY = (
    "Intro.\n\n## Call\n\n### Parameters\n\nText.\n\n"  # lines 8 and 10
    "## Call\n\n### Parameters\n\nText.\n\n"  # 14: MD024; 16 is fine (a new parent)
    "### Parameters\n\nText.\n"  # 20: MD024, a real sibling duplicate of line 16
)

INLINE_BODY = (
    "Text.\n\n<!-- markdownlint-disable MD040 MD029 -->\n\n```\nx\n```\n\n3. c\n\n"
    "<!-- markdownlint-enable MD040 MD029 -->\n\n```\ny\n```\n\n"
    "<!-- markdownlint-disable-next-line MD029 -->\n5. e\n"
)

MD033_BODY = (
    'Text.\n\n<Tabs>\n<TabItem value="a">\n\nHi <Badge/> and <span>x</span>\n\n</TabItem>\n'
)

RUMDL_ONLY_BODY = "The type is `string`[][] here.\n"  # glued to the front matter

MD036_BODY = (
    "Text.\n\n**TOOL_NOT_FOUND**\n\nText.\n\n**Update og:image URLs**\n\nText.\n\n"  # 8; 12 no
    "**[Subject] + [Style]**\n\nText.\n\n**Note:**\n\nText.\n\n- **in a list**\n"  # 16, 20, 24 no
)

TITLE_BODY = "# Title again\n\nText.\n\n```\nx\n```\n"

_URL = "https://example.com/" + "a" * 90
MD013_BODY = (
    "\n".join(
        [
            "x" * 70 + " " + "y" * 30 + " z",  # 6: whitespace beyond 80: reported
            "",
            "x" * 75 + " " + "unbreakable" * 3,  # 8: no whitespace beyond 80: fine
            "",
            f"[a link]({_URL})",  # 10: a line of links only: fine
            "",
            f"- see [the page]({_URL}) for the details",  # 12: text beside the link: reported
            "",
            f"[ref]: {_URL} 'a title with spaces'",  # 14: a reference definition: fine
            "",
            "\U0001f600" * 38 + " xxx y",  # 16: 38 emoji are 76 UTF-16 units: reported
            "",
            "\U0001f600" * 39 + " abc",  # 18: 81 units, but no whitespace beyond 80: fine
            "",
            "\u00e9" * 76 + " abc de",  # 20: 83 characters (more bytes): reported
            "",
            "\u00e9" * 76 + " ab cd",  # 22: 82 characters, the last space is the 80th: fine
        ]
    )
    + "\n"
)


def make_repo(root: Path, config: dict[str, Any] | None = BLOG_CONFIG) -> Path:
    """A folder that looks like a repository root (configuration discovery stops there),
    with a ``.markdownlint.json`` unless ``config`` is None."""
    (root / ".git").mkdir(parents=True)
    (root / "_posts").mkdir()
    if config is not None:
        (root / ".markdownlint.json").write_text(json.dumps(config), encoding="utf-8")
    return root


def write_post(
    folder: Path, body: str, name: str = "2026-06-03-test.md", front: str = FRONT_MATTER
) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes((front + body).encode("utf-8"))
    return path


def run_gate(path: Path, posts: tuple[Path, ...] = (), **settings: Any) -> Any:
    context = GateContext.create(default_settings(**settings), batches=RunBatches(posts=posts))
    return gate.GATE.evaluate(parse_post(path), context)


def pairs(card: Any) -> list[tuple[int, str]]:
    return [(v["line"], v["rule"]) for v in card.detail["violations"]]


def lint_one(path: Path, backend: str = "rumdl", **options: Any) -> set[tuple[int, str]]:
    batch = lint.lint_batch([path], backend, **options)
    assert batch["error"] is None, batch["error"]
    entry = batch["files"][str(path.resolve())]
    assert entry["error"] is None, entry["error"]
    return {(v["line"], v["rule"]) for v in entry["violations"]}


# ------------------------------------------------------------------ the gate itself
def test_seed_case_fails_on_md022_md031_md040_at_file_lines(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "blog")
    card = run_gate(write_post(repo / "_posts", SEED_BODY))
    assert card.verdict == "FAIL"
    assert pairs(card) == [
        (7, "MD022"),  # no blank line above
        (7, "MD022"),  # nor below: markdownlint reports each
        (9, "MD031"),
        (9, "MD040"),
        (11, "MD031"),
    ]
    assert card.detail["backend"] == "rumdl"
    assert card.detail["config"] == ".markdownlint.json"
    assert card.detail["counts"] == {"MD022": 2, "MD031": 2, "MD040": 1}
    md040 = next(f for f in card.findings if f.code == "MD040")
    assert md040.line == 9
    assert md040.message.startswith("fenced-code-language: Fenced code blocks should have")
    assert "```python" in md040.fix and "md040.md" in md040.fix
    assert "rumdl" in card.summary


def test_clean_post_passes_and_the_scorecard_is_stable_json(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "blog")
    card = run_gate(write_post(repo / "_posts", CLEAN_BODY))
    assert card.verdict == "PASS", card.findings
    assert card.detail == {
        "backend": "rumdl",
        "config": ".markdownlint.json",
        "counts": {},
        "violation_count": 0,
        "violations": [],
    }
    assert str(tmp_path) not in json.dumps(card.to_dict())


def test_scorecard_messages_do_not_depend_on_the_backend(tmp_path: Path) -> None:
    """The scorecard names each violation with markdownlint's own rule description, so a
    pinned scorecard does not change when the other backend runs."""
    repo = make_repo(tmp_path / "blog")
    card = run_gate(write_post(repo / "_posts", SEED_BODY))
    assert card.detail["violations"][0] == {
        "line": 7,
        "rule": "MD022",
        "message": "Headings should be surrounded by blank lines",
    }


# ------------------------------------------------------------- configuration discovery
def test_config_is_found_upward_and_the_nearest_wins(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "blog", {"default": True, "MD040": False})
    deep = repo / "_posts" / "2026" / "06"
    post = write_post(deep, SEED_BODY)
    assert lint.find_config(post) == repo / ".markdownlint.json"
    assert (9, "MD040") not in lint_one(post)
    # A nearer YAML file replaces the root file for the posts below it (no merging).
    (repo / "_posts" / ".markdownlint.yaml").write_text("default: false\nMD040: true\n")
    assert lint.find_config(post) == repo / "_posts" / ".markdownlint.yaml"
    assert lint_one(post) == {(9, "MD040")}
    card = run_gate(post)
    assert card.detail["config"] == "_posts/.markdownlint.yaml"


def test_discovery_stops_at_the_repository_root(tmp_path: Path) -> None:
    (tmp_path / ".markdownlint.json").write_text('{"default": false}')
    repo = make_repo(tmp_path / "blog", config=None)
    post = write_post(repo / "_posts", SEED_BODY)
    assert lint.find_config(post) is None
    card = run_gate(post)  # markdownlint's defaults: every rule on
    assert card.detail["config"] is None
    assert {"MD022", "MD031", "MD040"} <= set(card.detail["counts"])


def test_jsonc_comments_trailing_commas_and_extends(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "blog", config=None)
    (repo / "base.json").write_text('{"default": false, "MD031": true, "MD040": true}')
    (repo / ".markdownlint.jsonc").write_text(
        '{\n  // the CI config\n  "extends": "base.json",\n'
        '  "fenced-code-language": false, /* alias of MD040 */\n  "url": "a//b",\n}\n'
    )
    post = write_post(repo / "_posts", SEED_BODY)
    assert lint_one(post) == {(9, "MD031"), (11, "MD031")}


def test_markdownlint_cli2_config_key(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "blog")
    (repo / "_posts" / ".markdownlint-cli2.jsonc").write_text(
        '{"config": {"default": false, "MD022": true}, "ignores": []}'
    )
    post = write_post(repo / "_posts", SEED_BODY)
    assert lint_one(post) == {(7, "MD022")}


def test_effective_rules_follow_markdownlint_semantics() -> None:
    rules = lint.effective_rules({"default": False, "headings": True, "md025": False})
    assert "MD001" in rules and "MD022" in rules and "MD024" in rules
    assert "MD025" not in rules and "MD031" not in rules
    # An object replaces the defaults key by key; ``true`` means the defaults.
    rules = lint.effective_rules({"ul-indent": {"indent": 4}, "MD024": True})
    assert rules["MD007"] == {"indent": 4, "start_indented": False}
    assert rules["MD024"] == {"siblings_only": False}
    # Later keys win; unknown keys (MD002 is gone from markdownlint 0.36) are ignored.
    rules = lint.effective_rules({"MD040": False, "code": True, "MD002": False})
    assert "MD040" in rules


def test_rumdl_configuration_runs_exactly_markdownlints_rules() -> None:
    text = lint.rumdl_config_text(lint.effective_rules({"MD024": {"siblings_only": True}}))
    enabled = json.loads(text.split("enable = ", 1)[1].split("\n", 1)[0])
    assert enabled == sorted(lint.RULES)
    assert "MD057" not in enabled and "MD060" not in enabled  # rumdl-only rules never run
    assert "siblings-only = true" in text
    assert 'ignored-definitions = ["//"]' in text  # markdownlint's default, not rumdl's


def test_an_explicit_config_file_replaces_discovery(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "blog")  # the discovered config would report MD040 too
    only_md022 = tmp_path / "ci.json"
    only_md022.write_text('{"default": false, "MD022": true}')
    post = write_post(repo / "_posts", SEED_BODY)
    assert lint_one(post, config_file=only_md022) == {(7, "MD022")}


def test_a_broken_config_is_an_error_for_its_posts_only(tmp_path: Path) -> None:
    good = make_repo(tmp_path / "good")
    bad = make_repo(tmp_path / "bad", config=None)
    (bad / ".markdownlint.json").write_text("{not json")
    posts = (write_post(good / "_posts", CLEAN_BODY), write_post(bad / "_posts", CLEAN_BODY))
    assert run_gate(posts[0], posts).verdict == "PASS"
    card = run_gate(posts[1], posts)
    assert card.verdict == "ERROR"
    assert ".markdownlint.json: not valid JSON" in card.detail["error"]


# ------------------------------------------------- front matter, CRLF, fences, rules
def test_front_matter_is_skipped_and_its_title_is_the_top_heading(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "blog", {"default": True, "MD013": False})
    body = TITLE_BODY
    post = write_post(repo / "_posts", body)
    # Front matter lines 1-5 produce nothing; MD025 sees the title as a first H1 and MD041
    # is satisfied by it, as markdownlint's front_matter_title option says.
    assert lint_one(post) == {(6, "MD025"), (10, "MD040")}
    assert lint.markdownlint_lines(FRONT_MATTER + body)[1] == 5


@pytest.mark.parametrize(
    ("text", "lines", "offset"),
    [
        ("---\na: 1\n---\nBody\n", ["Body", ""], 3),
        ("---\na: 1\n---\n\n\nBody\n", ["Body", ""], 5),  # trailing blank lines join it
        ("+++\na = 1\n+++\nBody", ["Body"], 3),
        ("---\r\na: 1\r\n---\r\nBody\r\n", ["Body", ""], 3),
        ("\ufeff---\na: 1\n---\nBody\n", ["Body", ""], 3),
        ("---\nnever closed\n", ["---", "never closed", ""], 0),
        ("Body\n---\n", ["Body", "---", ""], 0),
    ],
)
def test_front_matter_as_markdownlint_removes_it(text: str, lines: list[str], offset: int) -> None:
    assert lint.markdownlint_lines(text) == (lines, offset)


@pytest.mark.parametrize("ending", ["\r\n", "\r"])
def test_crlf_and_cr_files_report_the_same_lines_as_lf(tmp_path: Path, ending: str) -> None:
    repo = make_repo(tmp_path / "blog")
    lf = write_post(repo / "_posts", SEED_BODY, name="2026-06-03-lf.md")
    other = repo / "_posts" / "2026-06-03-other.md"
    other.write_bytes((FRONT_MATTER + SEED_BODY).replace("\n", ending).encode("utf-8"))
    batch = lint.lint_batch([lf, other], "rumdl")
    found = {
        name: {(v["line"], v["rule"]) for v in entry["violations"]}
        for name, entry in batch["files"].items()
    }
    assert found[str(other)] == found[str(lf)]


def test_a_nested_fence_is_one_code_block(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "blog")
    body = NESTED_BODY
    post = write_post(repo / "_posts", body)
    assert lint_one(post) == {(8, "MD040"), (12, "MD031")}


def test_md029_lists_must_start_at_one_as_markdownlint_036_says(tmp_path: Path) -> None:
    """rumdl accepts a list that starts at 3; markdownlint 0.36.1 does not (evaluated here)."""
    repo = make_repo(tmp_path / "blog")
    body = MD029_BODY
    post = write_post(repo / "_posts", body)
    assert lint_one(post) == {(8, "MD029"), (9, "MD029"), (15, "MD029")}


def test_md029_finds_every_list_that_starts_elsewhere(tmp_path: Path) -> None:
    """Which "2." lines start a list (rumdl accepts those silently) is decided by the
    structure: not in a paragraph, after a bullet list, in a blockquote."""
    repo = make_repo(tmp_path / "blog", {"default": False, "MD029": True})
    post = write_post(repo / "_posts", MD029_STARTS_BODY)
    assert lint_one(post) == {(17, "MD029"), (19, "MD029")}


def test_a_new_bullet_marker_starts_a_new_list(tmp_path: Path) -> None:
    """CommonMark (and markdownlint) start a new list where the bullet character changes,
    so both lists miss a blank line there; rumdl reads one list."""
    repo = make_repo(tmp_path / "blog", {"default": False, "MD032": True})
    post = write_post(repo / "_posts", MIXED_BULLETS_BODY)
    junctions = {(8, "MD032"), (9, "MD032"), (14, "MD032"), (15, "MD032")}
    assert lint_one(post) == junctions | {(19, "MD032"), (20, "MD032")}


def test_md046_consistent_takes_the_first_code_blocks_style(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "blog", {"default": False, "MD046": True})
    body = MD046_BODY
    post = write_post(repo / "_posts", body)
    assert lint_one(post) == {(12, "MD046"), (16, "MD046")}


def test_md004_and_md048_consistent_take_the_first_style(tmp_path: Path) -> None:
    """rumdl picks the most common marker and fence; markdownlint the first one."""
    repo = make_repo(tmp_path / "blog", {"default": False, "MD004": True, "MD048": True})
    body = MD004_BODY
    post = write_post(repo / "_posts", body)
    assert lint_one(post) == {(12, "MD004"), (13, "MD004"), (19, "MD048"), (23, "MD048")}


def test_rows_under_a_mismatched_delimiter_are_no_table(tmp_path: Path) -> None:
    """GFM needs as many delimiter cells as header cells; otherwise the rows are a
    paragraph and markdownlint checks no table rule there (rumdl would)."""
    repo = make_repo(tmp_path / "blog", {"default": False, "MD055": True, "MD056": True})
    body = TABLE_BODY
    post = write_post(repo / "_posts", body)
    assert lint_one(post) == {(16, "MD056")}


def test_md036_counts_plain_text_emphasis_as_markdownlint_parses_it(tmp_path: Path) -> None:
    """An ALL_CAPS_NAME alone is reported (rumdl skips it); a ``:directive``, a "[" or
    trailing punctuation inside make markdownlint see more than plain text (rumdl does not),
    and a list item is not a top-level paragraph."""
    repo = make_repo(tmp_path / "blog", {"default": False, "MD036": True})
    post = write_post(repo / "_posts", MD036_BODY)
    assert lint_one(post) == {(8, "MD036")}


def test_md024_siblings_only_compares_positions_not_parent_text(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "blog")  # siblings_only, as the blog configures it
    body = MD024_BODY
    post = write_post(repo / "_posts", body)
    assert lint_one(post) == {(14, "MD024"), (20, "MD024")}


def test_inline_comments_disable_rules_as_in_markdownlint(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "blog")
    body = INLINE_BODY
    post = write_post(repo / "_posts", body)
    assert lint_one(post) == {(18, "MD040")}


def test_md013_follows_markdownlints_whitespace_and_link_rules(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "blog", {"default": False, "MD013": True})
    post = write_post(repo / "_posts", MD013_BODY)
    assert lint_one(post) == {(6, "MD013"), (12, "MD013"), (16, "MD013"), (20, "MD013")}


def test_md033_reports_component_tags_rumdl_skips(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "blog", {"default": False, "MD033": True})
    body = MD033_BODY
    post = write_post(repo / "_posts", body)
    assert lint_one(post) == {(8, "MD033"), (9, "MD033"), (11, "MD033")}


def test_rumdl_only_findings_are_not_reported(tmp_path: Path) -> None:
    """MD071 (no blank line after front matter) and MD042 on `[][]` exist only in rumdl."""
    repo = make_repo(tmp_path / "blog")
    body = RUMDL_ONLY_BODY
    post = write_post(repo / "_posts", body)
    assert lint_one(post) == set()


# ------------------------------------------------------------------ once per test run
def _count_processes(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The command lines of the processes started from now on (``--version`` checks left
    out), however they are started (``subprocess.run`` and ``Popen`` alike)."""
    started: list[list[str]] = []

    class CountingPopen(subprocess.Popen):  # type: ignore[type-arg]
        def __init__(self, args: Any, *rest: Any, **options: Any) -> None:
            if "--version" not in args:
                started.append([str(arg) for arg in args])
            super().__init__(args, *rest, **options)

    monkeypatch.setattr(subprocess, "Popen", CountingPopen)
    return started


def test_the_batch_runs_the_linter_once_for_all_posts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo(tmp_path / "blog")
    posts = tuple(
        write_post(repo / "_posts", SEED_BODY if i % 2 else CLEAN_BODY, name=f"2026-06-0{i}-p.md")
        for i in range(1, 7)
    )
    lint_runs = _count_processes(monkeypatch)
    context = GateContext.create(Settings(), batches=RunBatches(posts=posts))
    verdicts = [gate.GATE.evaluate(parse_post(path), context).verdict for path in posts]
    assert verdicts == ["FAIL", "PASS"] * 3
    assert len(lint_runs) == 1
    assert all(str(path) in lint_runs[0] for path in posts)


def test_one_linter_process_per_configuration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo(tmp_path / "blog")
    (repo / "drafts").mkdir()
    # MD012 is one rumdl runs (MD022 and MD040 are computed here, without a process).
    (repo / "drafts" / ".markdownlint.json").write_text(
        '{"default": false, "MD012": true, "MD022": true}'
    )
    posts = [write_post(repo / "_posts", SEED_BODY, name=f"2026-06-0{i}-a.md") for i in (1, 2)]
    posts += [write_post(repo / "drafts", SEED_BODY, name=f"2026-06-0{i}-b.md") for i in (3, 4)]
    calls = _count_processes(monkeypatch)
    batch = lint.lint_batch(posts, "rumdl")
    assert len([c for c in calls if "check" in c]) == 2
    json.dumps(batch)  # shared with xdist workers as a file: plain JSON data
    drafts = batch["files"][str(posts[2])]
    assert {(v["line"], v["rule"]) for v in drafts["violations"]} == {(7, "MD022")}


def test_a_post_outside_the_run_list_gets_its_own_batch(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "blog")
    listed = write_post(repo / "_posts", CLEAN_BODY, name="2026-06-01-a.md")
    other = write_post(repo / "_posts", SEED_BODY, name="2026-06-02-b.md")
    context = GateContext.create(Settings(), batches=RunBatches(posts=(listed,)))
    assert gate.GATE.evaluate(parse_post(listed), context).verdict == "PASS"
    assert gate.GATE.evaluate(parse_post(other), context).verdict == "FAIL"


def test_a_file_changed_since_the_batch_is_linted_again(tmp_path: Path) -> None:
    """A batch result stands for the content it linted, not for the path: a long-lived
    process (the CLI, a fuzzer) that rewrites a post gets the new content's findings."""
    repo = make_repo(tmp_path / "blog")
    post = write_post(repo / "_posts", SEED_BODY)
    context = GateContext.create(Settings(), batches=RunBatches(posts=(post,)))
    assert gate.GATE.evaluate(parse_post(post), context).verdict == "FAIL"
    write_post(repo / "_posts", CLEAN_BODY)
    assert gate.GATE.evaluate(parse_post(post), context).verdict == "PASS"
    write_post(repo / "_posts", SEED_BODY)
    assert gate.GATE.evaluate(parse_post(post), context).verdict == "FAIL"


# ------------------------------------------------------------------ no linter: ERROR
def test_no_backend_is_an_error_that_says_how_to_install_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo(tmp_path / "blog")
    post = write_post(repo / "_posts", CLEAN_BODY)
    monkeypatch.setattr(lint_run, "find_rumdl", lambda: None)
    monkeypatch.setattr(shutil, "which", lambda name: None)
    card = run_gate(post)
    assert card.verdict == "ERROR"
    assert "pip install rumdl" in card.detail["error"]
    card = run_gate(post, lint_backend="markdownlint-cli")
    assert card.verdict == "ERROR"
    assert "npm install -g markdownlint-cli@0.43.0" in card.detail["error"]


def test_a_crashing_linter_is_an_error_not_a_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = tmp_path / "bin" / "rumdl"
    broken.parent.mkdir()
    broken.write_text(
        '#!/bin/sh\nif [ "$1" = --version ]; then echo "rumdl 0.3.0"; exit 0; fi\n'
        'echo "error: something broke in $PWD/x" >&2\nexit 2\n'
    )
    broken.chmod(0o755)
    monkeypatch.setattr(lint_run, "find_rumdl", lambda: broken)
    post = write_post(make_repo(tmp_path / "blog") / "_posts", CLEAN_BODY)
    card = run_gate(post, lint_backend="rumdl")
    assert card.verdict == "ERROR"
    assert card.detail["error"].startswith("rumdl exited with status 2: error: something broke")
    assert "postgates-lint-" not in card.detail["error"]  # the scratch folder is not named


def test_an_unknown_backend_setting_is_an_error(tmp_path: Path) -> None:
    post = write_post(make_repo(tmp_path / "blog") / "_posts", CLEAN_BODY)
    card = run_gate(post, lint_backend="mdl")
    assert card.verdict == "ERROR"
    assert "'mdl' is not one of auto, rumdl, markdownlint-cli" in card.detail["error"]


def test_auto_prefers_an_installed_markdownlint_cli(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)  # none on PATH here
    repo = make_repo(tmp_path / "blog")
    fake = repo / "node_modules" / ".bin" / "markdownlint"
    fake.parent.mkdir(parents=True)
    fake.write_text("#!/bin/sh\necho 0.43.0\n")
    fake.chmod(0o755)
    found = lint.choose_backend("auto", [repo / "_posts"])
    assert (found.name, found.version) == ("markdownlint-cli", "0.43.0")
    assert lint.choose_backend("rumdl", [repo / "_posts"]).name == "rumdl"


# ------------------------------------------------------------------ inside pytest
def test_findings_print_as_file_line_rule(pytester: pytest.Pytester, blog: Blog) -> None:
    blog.raw(".git/HEAD", b"")  # the pytester folder is the repository root
    blog.raw(".markdownlint.json", json.dumps(BLOG_CONFIG).encode("utf-8"))
    blog.post("2026-01-01-good.md", "Clean prose about pytest.\n")
    blog.post("2026-01-02-bad.md", "Text about pytest.\n## Heading\n\nMore text.\n")
    result = pytester.runpytest("_posts", "--postgates-only=12")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        ["*_posts/2026-01-02-bad.md:7: MD022 blanks-around-headings: Headings should be*"]
    )
    card = blog.card("2026-01-02-bad-gate12-markdownlint.json")
    assert card["detail"]["config"] == ".markdownlint.json"


BAD_HEADING = "Text about pytest.\n## Heading\n\nMore text.\n"


def test_without_an_adopted_config_gate_12_is_advisory_with_the_reason(
    pytester: pytest.Pytester, blog: Blog
) -> None:
    """A project that adopted no markdownlint configuration gets markdownlint's default
    style as advice: the FAIL is an expected failure, the card says why, and ``-m hard``
    does not select it."""
    blog.raw(".git/HEAD", b"")
    blog.post("2026-01-02-bad.md", BAD_HEADING)
    result = pytester.runpytest("_posts", "--postgates-only=12", "-rx")
    result.assert_outcomes(xfailed=1)
    result.stdout.fnmatch_lines(["*advisory gate markdownlint FAIL:*no markdownlint config*"])
    card = blog.card("2026-01-02-bad-gate12-markdownlint.json")
    assert card["advisory"] is True
    assert "no markdownlint configuration" in card["detail"]["advisory_reason"]
    hard = pytester.runpytest("_posts", "--postgates-only=12", "-m", "hard")
    hard.assert_outcomes(deselected=1)


@pytest.mark.parametrize(
    "adopted", [".markdownlintrc", ".markdownlint.yaml", ".markdownlint-cli2.jsonc"]
)
def test_any_config_file_name_makes_gate_12_hard(
    pytester: pytest.Pytester, blog: Blog, adopted: str
) -> None:
    blog.raw(".git/HEAD", b"")
    blog.raw(adopted, b"{}\n")
    blog.post("2026-01-02-bad.md", BAD_HEADING)
    result = pytester.runpytest("_posts", "--postgates-only=12")
    result.assert_outcomes(failed=1)
    assert "advisory_reason" not in blog.card("2026-01-02-bad-gate12-markdownlint.json")["detail"]


def test_an_explicit_advisory_false_keeps_gate_12_hard(
    pytester: pytest.Pytester, blog: Blog
) -> None:
    blog.raw(".git/HEAD", b"")
    blog.pyproject("[tool.postgates.gates.markdownlint]\nadvisory = false\n")
    blog.post("2026-01-02-bad.md", BAD_HEADING)
    result = pytester.runpytest("_posts", "--postgates-only=12")
    result.assert_outcomes(failed=1)


# ------------------------------------------------ parity with markdownlint-cli itself
# The oracle: markdownlint-cli 0.43.0, named by this variable (.ci/run installs it with npm
# and sets it), else where bench/markdownlint_parity.py or .ci/run install it, else PATH.
CLI_ENV = "POSTGATES_MARKDOWNLINT_CLI"
SUITE_ENV = "POSTGATES_MARKDOWNLINT_SUITE"  # a markdownlint v0.36.1 checkout (or its test/)
BLOG_ENV = "POSTGATES_BLOG_CORPUS"  # a blog with _posts/ and its .markdownlint.json
INSTALLED = (
    REPO / "bench" / ".work" / "node" / "node_modules" / ".bin" / "markdownlint",
    REPO / ".ci-node" / "node_modules" / ".bin" / "markdownlint",
)


def _markdownlint_cli() -> tuple[str, ...] | None:
    named = os.environ.get(CLI_ENV)
    if named:
        return (named,) if Path(named).is_file() else None
    for candidate in INSTALLED:
        if candidate.is_file():
            return (str(candidate),)
    return lint.find_markdownlint_cli()


PARITY_POSTS = {
    "seed": SEED_BODY,
    "lists": (
        "Steps:\n\n3. three\n4. four\n\n* star\n\nText.\n\n- dash\n  + plus\n\n"
        "Text.\n\n1. a\n1. b\n2. c\n"
    ),
    "headings": "# One\n\n### Three\n\n## Two!\n\n## Two!\n\nText  \n\n\n<b>x</b> http://x.io\n",
    "code": "Text.\n\n    indented\n\n~~~\nt\n~~~\n\n```js\nx\n```\n\n| a | b |\n|---|\n| 1 |\n",
    "crlf": SEED_BODY.replace("\n", "\r\n"),
    "nested": NESTED_BODY,
    "md029": MD029_BODY,
    "md029-starts": MD029_STARTS_BODY,
    "md046": MD046_BODY,
    "mixed-bullets": MIXED_BULLETS_BODY,
    "md004": MD004_BODY,
    "table": TABLE_BODY,
    "md024": MD024_BODY,
    "inline": INLINE_BODY,
    "md033": MD033_BODY,
    "md036": MD036_BODY,
    "title": TITLE_BODY,
    "md013": MD013_BODY,
}


ISSUE_11_POSTS = {  # the known gaps of issue 11, one post each
    "configure-file": (
        "Text.\n\n" + "word " * 20 + "\n\n"
        '<!-- markdownlint-configure-file {"MD013": {"line_length": 40}, '
        '"MD044": {"names": ["JavaScript"]}} -->\n\n'
        "We write javascript here.\n"
    ),
    "disable-enable": (
        "Text.\n<!-- markdownlint-disable MD022 MD009 -->\n## Glued\nText.  \ntrailing   \n"
        "<!-- markdownlint-enable MD022 -->\n## Glued again\nMore trailing   \n"
        "<!-- markdownlint-capture -->\n<!-- markdownlint-disable -->\n## Off\n"
        "<!-- markdownlint-restore -->\n## On\nEnd.\n"
    ),
    "md013-options": (
        "Text.\n\n```text\n"
        + "code " * 30
        + "\n```\n\n| a | b |\n|---|---|\n| "
        + "cell " * 30
        + "| x |\n\n## "
        + "heading " * 15
        + "\n\n"
        + "prose " * 30
        + "\n"
    ),
    "md031-list-items": (
        "Text.\n\n- item\n  ```js\n  x\n  ```\n- next\n\n1. a\n   ```\n   y\n   ```\n"
    ),
    "md040-allowed": "Text.\n\n```js\nx\n```\n\n```javascript\ny\n```\n\n```\nz\n```\n",
    "html-urls": (
        'Text <a href="https://example.com">https://example.com</a> and '
        '<img src="x.png"> and ![](y.png) and <code>https://example.org</code>.\n\n'
        "Bare https://example.net here.\n"
    ),
    "md037": "Text * spaced * and ** also ** and *fine* and a * b.\n\nx _ y _ z.\n",
    "md055-consistent": (
        "Text.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nMore.\n\na | b\n--|--\n1 | 2\n"
    ),
    "md005-right-aligned": "Text.\n\n"
    + "".join(f"{i:>2}. item\n" for i in range(1, 12))
    + "\nEnd.\n",
    "md014-text-fence": "Text.\n\n```text\n$ ls\n$ cat x\n```\n\n    $ indented\n",
    "md039-reference": (
        "Text [ spaced ][ref] and [ok][ref] and [ shortcut ].\n\n"
        "[ref]: https://example.com\n[shortcut]: https://example.org\n"
    ),
    "md035-lists-quotes": "Text.\n\n---\n\n- ***\n\n> * * *\n\n___\n",
    "md025-not-first": "Intro.\n\n# First\n\n# Second\n",
    "fence-closed-by-item": "Text.\n\n- item\n  ```js\n  x\n- next item ends the fence\n\nAfter.\n",
}
# Once computed otherwise than markdownlint (by rumdl); the native link rules agree now.
KNOWN_DIFFERENCES = ("html-urls", "md039-reference")
PARITY_POSTS.update(
    {name: body for name, body in ISSUE_11_POSTS.items() if name not in KNOWN_DIFFERENCES}
)
OPTIONS_CONFIG = {  # options issue 11 names, away from their defaults
    "MD013": {"line_length": 60, "code_blocks": False, "tables": False, "headings": False},
    "MD031": {"list_items": False},
    "MD040": {"allowed_languages": ["js"]},
    "MD055": {"style": "consistent"},
}


STYLES_CONFIG = {  # every non-default style the reconciliation treats specially
    "MD004": {"style": "sublist"},
    "MD029": {"style": "zero"},
    "MD046": {"style": "fenced"},
    "MD048": {"style": "tilde"},
    "MD013": {"line_length": 60, "stern": True},
    "MD036": {"punctuation": "."},
    "MD033": {"allowed_elements": ["Tabs"]},
}


@pytest.mark.skipif(
    _markdownlint_cli() is None,
    reason=f"markdownlint-cli is not installed (set {CLI_ENV}, or run "
    "bench/markdownlint_parity.py to install it)",
)
@pytest.mark.parametrize(
    "config",
    [BLOG_CONFIG, None, STYLES_CONFIG, OPTIONS_CONFIG],
    ids=["blog-config", "defaults", "styles", "options"],
)
def test_rumdl_agrees_with_markdownlint_cli(tmp_path: Path, config: Any) -> None:
    repo = make_repo(tmp_path / "blog", config)
    posts = [
        write_post(repo / "_posts", body, f"2026-06-03-{n}.md") for n, body in PARITY_POSTS.items()
    ]
    command = _markdownlint_cli()
    assert command is not None
    reference = lint.lint_batch(posts, "markdownlint-cli", markdownlint_cli=command[0])
    embedded = lint.lint_batch(posts, "rumdl")
    assert reference["backend"] == "markdownlint-cli" and embedded["backend"] == "rumdl"
    for path in posts:
        expected = {(v["line"], v["rule"]) for v in reference["files"][str(path)]["violations"]}
        found = {(v["line"], v["rule"]) for v in embedded["files"][str(path)]["violations"]}
        assert found == expected, path.name
    # Every post but the inline-comment one has findings under the defaults to agree on.
    assert all(reference["files"][str(path)]["violations"] for path in posts[:4])


@pytest.mark.skipif(_markdownlint_cli() is None, reason="markdownlint-cli is not installed")
@pytest.mark.parametrize("name", KNOWN_DIFFERENCES)
def test_former_differences_from_markdownlint_cli_agree(tmp_path: Path, name: str) -> None:
    """MD034 in an HTML element's text and MD039 on reference links: rumdl differed, the
    native rules (tools/lint/rules/md034.py, md039.py) agree."""
    post = write_post(make_repo(tmp_path / "blog", None) / "_posts", ISSUE_11_POSTS[name])
    command = _markdownlint_cli()
    assert command is not None
    assert lint_one(post) == lint_one(post, "markdownlint-cli", markdownlint_cli=command[0])
