"""Gate 1, blog_quality: front matter, body-line floor, placeholders, mermaid, audit tools."""

from __future__ import annotations

import json
import shlex
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_postgates.batch import RunBatches
from pytest_postgates.config import Settings
from pytest_postgates.gates import GateContext, blog_quality, default_settings
from pytest_postgates.post import Post, parse_post
from pytest_postgates.runner import PostRun
from pytest_postgates.scorecard import Scorecard
from pytest_postgates.tools import site
from pytest_postgates.tools.mermaid import MermaidEngineError

if TYPE_CHECKING:
    from tests.conftest import Blog

NAME = "2026-06-03-test.md"
BODY = "We run pytest over Jekyll posts.\n\nEvery gate is one test item.\n"


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache folder for the module, so that one mermaid engine serves every test."""
    return tmp_path_factory.mktemp("blog-quality-cache")


def write(folder: Path, front: str, body: str = BODY, name: str = NAME) -> Post:
    path = folder / "_posts" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\n{front}---\n{body}", encoding="utf-8")
    return parse_post(path)


def run(post: Post, cache_dir: Path, **settings: Any) -> Scorecard:
    settings.setdefault("body_line_floor", 1)
    context = GateContext.create(default_settings(**settings), cache_dir)
    return blog_quality.GATE.evaluate(post, context)


def codes(card: Scorecard) -> list[tuple[int | None, str]]:
    return [(finding.line, finding.code) for finding in card.findings]


FRONT = "layout: post\ntitle: Test\ndate: {date}\n"


# ------------------------------------------------------------------------ front matter
@pytest.mark.parametrize(
    "date",
    [
        "2026-06-03",  # a YAML date
        "'2026-06-03'",  # the same, quoted: a string
        "'2026-06-03 10:00:00 +0530'",  # the seeds' style: Jekyll's offset without colon
        "2026-06-03 10:00:00 +05:30",  # an unquoted YAML timestamp with offset
        "2026-06-03T23:30:00-08:00",  # already June 4th in UTC: the written date counts
        "'2026-6-3 9:05'",
    ],
)
def test_dates_that_parse_and_match_the_file_name(
    date: str, tmp_path: Path, cache_dir: Path
) -> None:
    card = run(write(tmp_path, FRONT.format(date=date)), cache_dir)
    assert card.verdict == "PASS", card.findings
    assert card.detail["front_matter"]["date"] == "2026-06-03"
    assert card.detail["front_matter"]["date_matches_filename"] is True


def test_a_date_that_disagrees_with_the_file_name(tmp_path: Path, cache_dir: Path) -> None:
    post = write(tmp_path, FRONT.format(date="'2026-06-04 10:00:00 +0530'"))
    # House style: listed as advice where the project has not adopted the agreement.
    unadopted = run(post, cache_dir)
    assert unadopted.verdict == "PASS" and unadopted.findings == []
    advice = unadopted.detail["house_style"]["enforce_date_matches_file_name"]
    assert [f["code"] for f in advice["findings"]] == ["FRONT_MATTER_DATE"]
    declined = run(post, cache_dir, enforce_date_matches_file_name=False)
    assert declined.verdict == "PASS"
    assert "enforce_date_matches_file_name" not in declined.detail.get("house_style", {})
    card = run(post, cache_dir, enforce_date_matches_file_name=True)
    assert card.verdict == "FAIL"
    assert codes(card) == [(4, "FRONT_MATTER_DATE")]
    assert "2026-06-04 does not match the file name's 2026-06-03" in card.findings[0].message
    assert card.detail["front_matter"]["date_matches_filename"] is False


@pytest.mark.parametrize(
    ("date", "words"),
    [
        ("next tuesday", "does not parse"),
        ("'2026-02-30'", "not a real date"),
        ("'2026-06-03 25:00'", "not a real date or time"),
        ("'2026-06-03 10:00 +9900'", "impossible time-zone offset"),
        ("20260603", "an integer"),
        ("[2026-06-03]", "a list"),
    ],
)
def test_dates_that_do_not_parse(date: str, words: str, tmp_path: Path, cache_dir: Path) -> None:
    card = run(write(tmp_path, FRONT.format(date=date)), cache_dir)
    assert codes(card) == [(4, "FRONT_MATTER_DATE")]
    assert words in card.findings[0].message


def test_file_names_without_a_date_skip_the_agreement_check(
    tmp_path: Path, cache_dir: Path
) -> None:
    card = run(write(tmp_path, FRONT.format(date="2026-06-04"), name="about.md"), cache_dir)
    assert card.verdict == "PASS"
    assert card.detail["front_matter"]["date_matches_filename"] is None


def test_a_file_name_date_that_does_not_exist(tmp_path: Path, cache_dir: Path) -> None:
    post = write(tmp_path, FRONT.format(date="2026-02-28"), name="2026-02-30-x.md")
    card = run(post, cache_dir)
    assert codes(card) == [(1, "FRONT_MATTER_DATE")]
    assert "2026-02-30 is not a real date" in card.findings[0].message


def test_missing_and_empty_required_keys(tmp_path: Path, cache_dir: Path) -> None:
    post = write(tmp_path, "layout:\ndate: 2026-06-03\n")
    card = run(post, cache_dir)
    assert codes(card) == [(2, "FRONT_MATTER_KEY"), (1, "FRONT_MATTER_KEY")]
    assert "'layout' is empty" in card.findings[0].message
    assert "'title' is missing" in card.findings[1].message
    assert card.detail["front_matter"]["missing"] == ["layout", "title"]


def test_required_keys_come_from_the_settings(tmp_path: Path, cache_dir: Path) -> None:
    post = write(tmp_path, FRONT.format(date="2026-06-03"))
    required = ("layout", "title", "date", "author")
    card = run(post, cache_dir, required_front_matter=required)
    assert codes(card) == [(1, "FRONT_MATTER_KEY")]
    assert run(post, cache_dir, required_front_matter=("title",)).verdict == "PASS"


@pytest.mark.parametrize(
    ("lists", "derived"),
    [
        ("tags:\n  - python\n  - pytest\n", {"tags": ["python", "pytest"]}),
        ("tags: [python, 'C++']\n", {"tags": ["python", "C++"]}),
        # Jekyll splits a string on spaces: accepted, and shown as the tags it becomes.
        (
            "categories: Tutorial\ntags: python pytest\n",
            {"categories": ["Tutorial"], "tags": ["python", "pytest"]},
        ),
        ("tags: []\ncategories:\n", {"tags": [], "categories": []}),
        # An integer written as one is its text to Jekyll: the tag is 2026.
        ("tags: [2026, python]\n", {"tags": ["2026", "python"]}),
    ],
)
def test_list_shapes_jekyll_reads_as_intended(
    lists: str, derived: dict[str, list[str]], tmp_path: Path, cache_dir: Path
) -> None:
    card = run(write(tmp_path, FRONT.format(date="2026-06-03") + lists), cache_dir)
    assert card.verdict == "PASS", card.findings
    assert card.detail["front_matter"]["lists"] == derived


@pytest.mark.parametrize(
    ("lists", "words"),
    [
        ("tags: python, pytest\n", "the commas stay in the names"),
        # YAML 1.1 reads 010 as 8 and 1_000 as 1000: not the tag the author wrote.
        ("tags: [010, python]\n", "tags item 1 is an integer (8)"),
        ("tags: [1_000]\n", "tags item 1 is an integer (1000)"),
        ("tags:\n  - yes\n", "is a boolean (True)"),
        ("tags: [1.10]\n", "is a number (1.1)"),
        ("categories:\n  - ''\n", "categories item 1 is an empty string"),
        ("categories:\n  - [a, b]\n", "is a list"),
        ("categories: {a: 1}\n", "categories is a mapping"),
        ("tags: 7\n", "tags is an integer"),
    ],
)
def test_list_items_that_are_not_strings(
    lists: str, words: str, tmp_path: Path, cache_dir: Path
) -> None:
    card = run(write(tmp_path, FRONT.format(date="2026-06-03") + lists), cache_dir)
    assert [code for _, code in codes(card)] == ["FRONT_MATTER_LIST"]
    assert card.findings[0].line == 5
    assert words in card.findings[0].message


# ------------------------------------------------------------------- no front matter
def _bare(folder: Path, relative: str, body: str = BODY) -> Post:
    path = folder / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(body, encoding="utf-8")
    return parse_post(path)


def test_a_post_without_front_matter_under_posts_is_one_finding(
    tmp_path: Path, cache_dir: Path
) -> None:
    card = run(_bare(tmp_path, f"_posts/{NAME}"), cache_dir)
    assert card.verdict == "FAIL"
    assert codes(card) == [(1, "NO_FRONT_MATTER")]
    assert "'+++' (TOML)" in card.findings[0].message
    assert card.detail["front_matter"]["front_matter_required"] is True
    assert card.detail["front_matter"]["format"] is None


def test_a_docs_page_without_front_matter_is_judged_on_its_body(
    tmp_path: Path, cache_dir: Path
) -> None:
    page = _bare(tmp_path, "docs/guide.md")
    card = run(page, cache_dir, body_line_floor=None)
    assert card.verdict == "PASS", card.findings
    assert card.detail["front_matter"]["front_matter_required"] is False
    # No blog-post floor for a page that is not a blog post; one set explicitly applies.
    assert card.detail["body_line_floor"] == 0
    assert codes(run(page, cache_dir, body_line_floor=50)) == [(1, "BODY_TOO_SHORT")]
    # Placeholders are still found in the body.
    todo = _bare(tmp_path, "docs/todo.md", BODY + "\nTODO: finish this page.\n")
    assert [code for _, code in codes(run(todo, cache_dir))] == ["PLACEHOLDER"]


def test_require_front_matter_overrides_the_folder_default(tmp_path: Path, cache_dir: Path) -> None:
    page = _bare(tmp_path, "docs/guide.md")
    assert codes(run(page, cache_dir, require_front_matter=True)) == [(1, "NO_FRONT_MATTER")]
    post = _bare(tmp_path, f"_posts/{NAME}")
    assert run(post, cache_dir, require_front_matter=False).verdict == "PASS"


@pytest.mark.parametrize(
    ("site_file", "missing"),
    [
        (".vitepress/config.mts", []),
        ("mkdocs.yml", []),
        ("docusaurus.config.js", []),
        ("hugo.toml", ["title"]),
        ("_config.yml", ["layout", "title", "date"]),
    ],
)
def test_required_front_matter_follows_the_site_generator(
    tmp_path: Path, cache_dir: Path, site_file: str, missing: list[str]
) -> None:
    """No Jekyll ``layout`` is demanded of a VitePress, MkDocs, Docusaurus or Hugo page:
    the keys required are those of the generator found above the page."""
    (tmp_path / ".git").mkdir()
    config = tmp_path / site_file
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("", encoding="utf-8")
    page = _bare(tmp_path, "docs/guide.md", "---\ndescription: A guide\n---\n" + BODY)
    card = run(page, cache_dir)
    assert card.detail["front_matter"]["missing"] == missing


def test_a_jekyll_post_is_dated_by_its_file_name(tmp_path: Path, cache_dir: Path) -> None:
    """Jekyll takes a post's date from its ``YYYY-MM-DD-slug`` file name and a front matter
    ``date`` only overrides it: a dated post without the key is complete (issue 27: a blog
    of 30 posts failed 29 on "'date' is missing"). A page whose name carries no date still
    needs the key, and a date written must still parse."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "_config.yml").write_text("title: T\n", encoding="utf-8")
    dated = write(tmp_path, "layout: post\ntitle: T\n")
    card = run(dated, cache_dir)
    assert card.verdict == "PASS", card.findings
    assert card.detail["front_matter"]["required"] == ["layout", "title"]
    undated = write(tmp_path, "layout: post\ntitle: T\n", name="about.md")
    assert run(undated, cache_dir).detail["front_matter"]["missing"] == ["date"]
    bad = write(tmp_path, "layout: post\ntitle: T\ndate: someday\n", name="2026-06-04-b.md")
    assert [f.code for f in run(bad, cache_dir).findings] == ["FRONT_MATTER_DATE"]


def test_an_mkdocs_config_claims_only_the_pages_of_its_docs_dir(
    tmp_path: Path, cache_dir: Path
) -> None:
    """Issue 28: a repository's ``mkdocs.yml`` (its docs site) says nothing of a blog kept
    beside it: a post under ``corpus/_posts`` still needs Jekyll's keys, and its links are
    not resolved as MkDocs pages; a page under ``docs_dir`` is the site's."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "mkdocs.yml").write_text("site_name: S\n", encoding="utf-8")
    post = _bare(
        tmp_path, "corpus/_posts/2026-01-01-a.md", "---\ndescription: A post\n---\n" + BODY
    )
    page = _bare(tmp_path, "docs/guide.md", "---\ndescription: A guide\n---\n" + BODY)
    assert run(post, cache_dir).detail["front_matter"]["missing"] == ["layout", "title"]
    assert run(page, cache_dir).detail["front_matter"]["missing"] == []
    assert site.find_site_config(post.path.parent) is None
    assert site.page_generator(page.path.parent) == "mkdocs"
    assert site.find_site_root(page) == (tmp_path / "docs").resolve()


def test_a_docs_page_with_front_matter_still_has_it_checked(
    tmp_path: Path, cache_dir: Path
) -> None:
    page = _bare(tmp_path, "docs/guide.md", "---\ntitle: Guide\ndate: next tuesday\n---\n" + BODY)
    card = run(page, cache_dir, required_front_matter=("title",))
    assert codes(card) == [(3, "FRONT_MATTER_DATE")]


@pytest.mark.parametrize(
    ("front", "line"),
    [
        ('+++\ntitle = "T"\nlayout = "post"\ndate = 2026-06-04T10:00:00Z\n+++\n', 4),
        ('{\n  "title": "T",\n  "layout": "post",\n  "date": "2026-06-04"\n}\n', 4),
    ],
)
def test_toml_and_json_front_matter_dates_are_checked(
    front: str, line: int, tmp_path: Path, cache_dir: Path
) -> None:
    post = _bare(tmp_path, f"content/posts/{NAME}", front + BODY)
    card = run(post, cache_dir, enforce_date_matches_file_name=True)
    assert codes(card) == [(line, "FRONT_MATTER_DATE")]
    assert "2026-06-04 does not match the file name's 2026-06-03" in card.findings[0].message
    fixed = _bare(tmp_path, f"content/posts/{NAME}", front.replace("06-04", "06-03") + BODY)
    assert run(fixed, cache_dir, enforce_date_matches_file_name=True).verdict == "PASS"


@pytest.mark.parametrize(
    ("front", "line"),
    [
        ('+++\ntitle = "T"\nlayout = ""\ndate = 2026-06-03\ntags = [true]\n+++\n', 3),
        ('{\n  "title": "T",\n  "layout": "",\n  "date": "2026-06-03",\n  "tags": [true]\n}\n', 3),
    ],
)
def test_toml_and_json_front_matter_keys_and_lists_are_checked(
    front: str, line: int, tmp_path: Path, cache_dir: Path
) -> None:
    # A page of no known generator needs no key unless the settings name them.
    page = _bare(tmp_path, f"content/posts/{NAME}", front + BODY)
    card = run(page, cache_dir, required_front_matter=("layout", "title", "date"))
    assert codes(card) == [(line, "FRONT_MATTER_KEY"), (line + 2, "FRONT_MATTER_LIST")]
    assert card.detail["front_matter"]["format"] in ("toml", "json")


# ------------------------------------------------------------------------ body lines
def test_the_calibrated_floor_unset_is_advice_set_it_is_enforced(
    tmp_path: Path, cache_dir: Path
) -> None:
    """The seeds' 200-line floor is their blog's house style: a project that does not set
    body_line_floor gets it as advice on the card (the reason, what it would find), never
    a failure; set, it is enforced."""
    assert blog_quality.DEFAULT_BODY_LINE_FLOOR == 200
    post = write(tmp_path, FRONT.format(date="2026-06-03"), body="A line.\n" * 199 + "\n\n")
    card = run(post, cache_dir, body_line_floor=None)
    assert card.verdict == "PASS" and codes(card) == []
    assert card.detail["body_line_floor_default"] is True
    assert card.detail["body_line_floor"] == 0
    advice = card.detail["house_style"]["body_line_floor"]
    assert [(f["line"], f["code"]) for f in advice["findings"]] == [(6, "BODY_TOO_SHORT")]
    assert "199 lines, under the floor of 200" in advice["findings"][0]["message"]
    assert "not adopted" in advice["reason"] and "`body_line_floor`" in advice["reason"]
    assert "house-style advice, not enforced: 1 BODY_TOO_SHORT" in card.summary
    longer = write(tmp_path, FRONT.format(date="2026-06-03"), body="A line.\n" * 200)
    card = run(longer, cache_dir, body_line_floor=None)
    assert (
        card.verdict == "PASS" and card.detail["house_style"]["body_line_floor"]["findings"] == []
    )
    adopted = run(post, cache_dir, body_line_floor=200)
    assert codes(adopted) == [(6, "BODY_TOO_SHORT")] and "house_style" not in adopted.detail


def test_blank_lines_and_code_count_trailing_blank_lines_do_not(
    tmp_path: Path, cache_dir: Path
) -> None:
    body = "One.\n\n```python\nx = 1\n```\n\nTwo.\n\n\n\n"
    post = write(tmp_path, FRONT.format(date="2026-06-03"), body=body)
    assert blog_quality.body_line_count(post) == 7
    assert run(post, cache_dir, body_line_floor=7).verdict == "PASS"
    card = run(post, cache_dir, body_line_floor=8)
    assert codes(card) == [(6, "BODY_TOO_SHORT")]
    assert card.detail["body_line_floor_default"] is False


# ------------------------------------------------------------------------ placeholders
@pytest.mark.parametrize(
    ("line", "match"),
    [
        ("TODO: explain the cache.", "TODO"),
        ("The numbers are TBD until the run.", "TBD"),
        ("FIXME this paragraph", "FIXME"),
        ("See XXX for details.", "XXX"),
        ("Todo: finish", "Todo"),
        ("Lorem Ipsum dolor sit amet.", "Lorem Ipsum"),
        ("[Insert screenshot of the report here]", "[Insert screenshot of the report here]"),
        ("See [placeholder link] below.", "[placeholder link]"),
        ("The value is <placeholder>.", "<placeholder>"),
        ("*Coming soon.*", "*Coming soon.*"),
        ("## Coming soon", "## Coming soon"),
        ("<!-- FIXME: add the benchmark -->", "FIXME"),
        ("| gate | TODO |", "TODO"),
        ("A [TODO](https://example.com) link text.", "TODO"),
    ],
)
def test_placeholders_in_prose(line: str, match: str, tmp_path: Path, cache_dir: Path) -> None:
    post = write(tmp_path, FRONT.format(date="2026-06-03"), body=BODY + "\n" + line + "\n")
    card = run(post, cache_dir)
    assert codes(card) == [(10, "PLACEHOLDER")]
    assert card.detail["placeholders"][0]["match"] == match


@pytest.mark.parametrize(
    "text",
    [
        "```python\n# TODO: remove\nx = 'lorem ipsum'\n```",
        "    TODO in an indented code block",
        "The linter flags `TODO` and `FIXME` comments.",
        "A todo app in React, tbd-style naming, an xxx-large shirt.",
        "We cleaned up the TODOs and FIXMEs.",
        "Streaming support is coming soon to every provider.",
        "The word placeholder is an ordinary word; so is inserting.",
        "Read [the guide](https://example.com/TODO.md) first.",
        "Keys look like sk-xxx; XXXX-XXXX is a masked card.",
    ],
)
def test_not_placeholders(text: str, tmp_path: Path, cache_dir: Path) -> None:
    post = write(tmp_path, FRONT.format(date="2026-06-03"), body=BODY + "\n" + text + "\n")
    card = run(post, cache_dir)
    assert card.detail["placeholders"] == []
    assert card.verdict == "PASS"


@pytest.mark.parametrize(
    ("line", "match"),
    [
        (
            '- "Will it help with [insert downstream application]?"',
            "[insert downstream application]",
        ),
        ("She asks \u201cis [placeholder] enough?\u201d each time.", "[placeholder]"),
        ('The template reads "Dear <insert name>," at the top.', "<insert name>"),
    ],
)
def test_quoted_placeholders_are_listed_not_failed(
    line: str, match: str, tmp_path: Path, cache_dir: Path
) -> None:
    post = write(tmp_path, FRONT.format(date="2026-06-03"), body=BODY + "\n" + line + "\n")
    card = run(post, cache_dir)
    assert card.verdict == "PASS"
    assert card.detail["placeholders"] == []
    assert [hit["match"] for hit in card.detail["quoted_placeholders"]] == [match]


@pytest.mark.parametrize(
    "line",
    [
        'He said "done" and left [insert the summary here].',  # the quotation closed before it
        "[insert screenshot]: \u201cthe report\u201d follows.",  # opened after it
        'An unclosed "quote before [insert name] runs on.',
    ],
)
def test_placeholders_outside_a_quotation_still_fail(
    line: str, tmp_path: Path, cache_dir: Path
) -> None:
    post = write(tmp_path, FRONT.format(date="2026-06-03"), body=BODY + "\n" + line + "\n")
    card = run(post, cache_dir)
    assert codes(card) == [(10, "PLACEHOLDER")]
    assert card.detail["quoted_placeholders"] == []


def test_placeholders_in_front_matter_values(tmp_path: Path, cache_dir: Path) -> None:
    front = FRONT.format(date="2026-06-03") + "description: TBD\nTODO_key: fine\n"
    card = run(write(tmp_path, front), cache_dir)
    assert codes(card) == [(5, "PLACEHOLDER")]


# ------------------------------------------------------------------------ mermaid
VALID_FLOW = "```mermaid\nflowchart LR\n    A --> B\n```\n"
BROKEN_FLOW = "```mermaid\nflowchart LR\n    A --> B\n    B -- C\n```\n"


def test_valid_and_broken_mermaid_blocks(tmp_path: Path, cache_dir: Path) -> None:
    body = BODY + "\n" + VALID_FLOW + "\nText.\n\n" + BROKEN_FLOW
    card = run(write(tmp_path, FRONT.format(date="2026-06-03"), body=body), cache_dir)
    # The broken block opens on line 17; mermaid blames its third diagram line, line 20.
    assert codes(card) == [(20, "MERMAID_PARSE")]
    message = card.findings[0].message
    assert message.startswith("mermaid block at line 17 does not parse: Parse error")
    assert "Expecting 'LINK'" in message
    rows = card.detail["mermaid"]["results"]
    assert [(row["line"], row["ok"]) for row in rows] == [(10, True), (17, False)]
    assert rows[0]["type"] == "flowchart-v2"
    assert rows[1]["error_line"] == 20


def test_an_unknown_diagram_type_is_blamed_on_the_fence(tmp_path: Path, cache_dir: Path) -> None:
    body = BODY + "\n```mermaid\nflowchar LR\n    A --> B\n```\n"
    card = run(write(tmp_path, FRONT.format(date="2026-06-03"), body=body), cache_dir)
    assert codes(card) == [(10, "MERMAID_PARSE")]
    assert "No diagram type detected" in card.findings[0].message


def test_liquid_raw_tags_are_removed_as_jekyll_does(tmp_path: Path, cache_dir: Path) -> None:
    # {{ }} is a hexagon in mermaid and an output tag in Liquid, hence {% raw %}.
    body = BODY + '\n```mermaid\n{% raw %}\nflowchart TD\n    A{{"Hex"}} --> B\n{% endraw %}\n```\n'
    card = run(write(tmp_path, FRONT.format(date="2026-06-03"), body=body), cache_dir)
    assert card.verdict == "PASS", card.findings


def test_an_unclosed_mermaid_fence_is_an_input_error_of_the_post(
    tmp_path: Path, cache_dir: Path
) -> None:
    post_path = write(
        tmp_path, FRONT.format(date="2026-06-03"), body=BODY + "\n```mermaid\nflowchart LR\n"
    ).path
    context = GateContext.create(default_settings(body_line_floor=1), cache_dir)
    gate = blog_quality.GATE
    card = PostRun(post_path, post_path.name, post_path.stem, context, [gate]).evaluate(gate)
    assert card.verdict == "ERROR"
    assert [finding.code for finding in card.findings] == ["UNCLOSED_FENCE"]
    assert "never closed" in card.summary


def test_mermaid_that_cannot_start_is_an_error(
    tmp_path: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Broken:
        def parse_many(self, codes: object, *budget: object, **named: object) -> dict[str, object]:
            raise MermaidEngineError("no engine here")

    monkeypatch.setattr(blog_quality, "shared_parser", lambda folder: Broken())
    body = BODY + "\n" + VALID_FLOW
    card = run(write(tmp_path, FRONT.format(date="2026-06-03"), body=body), cache_dir)
    assert card.verdict == "ERROR"
    assert "mermaid could not be started: no engine here" in card.summary


def test_mermaid_blocks_of_the_whole_run_are_parsed_in_one_batch(
    tmp_path: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[list[str]] = []
    real = blog_quality.shared_parser

    class Counting:
        def __init__(self, folder: Path) -> None:
            self.inner = real(folder)

        def parse_many(self, codes: list[str], *budget: Any, **named: Any) -> Any:
            calls.append(list(codes))
            return self.inner.parse_many(codes, *budget, **named)

    monkeypatch.setattr(blog_quality, "shared_parser", Counting)
    posts = [
        write(tmp_path, FRONT.format(date="2026-06-0" + str(day)), BODY + "\n" + flow, name)
        for day, name, flow in (
            (3, NAME, VALID_FLOW),
            (4, "2026-06-04-b.md", VALID_FLOW),
            (5, "2026-06-05-c.md", BROKEN_FLOW),
        )
    ]
    batches = RunBatches(posts=tuple(post.path for post in posts))
    context = GateContext.create(default_settings(body_line_floor=1), cache_dir, batches)
    verdicts = [blog_quality.GATE.evaluate(post, context).verdict for post in posts]
    assert verdicts == ["PASS", "PASS", "FAIL"]
    assert len(calls) == 1  # one batch for the run
    assert len(calls[0]) == 2  # distinct diagrams (a repeat is one post's, its first's)


def test_cache_inputs_name_the_file_and_mermaid_and_refuse_audits(tmp_path: Path) -> None:
    context = GateContext.create(Settings())
    inputs = blog_quality.cache_inputs(tmp_path / NAME, context)
    assert inputs is not None and NAME in inputs and "mermaidx=" in inputs
    audited = GateContext.create(default_settings(audit_commands=("tool",)))
    assert blog_quality.cache_inputs(tmp_path / NAME, audited) is None


# ------------------------------------------------------------------------ audit commands
AUDIT_TOOL = """\
import sys
from pathlib import Path
with open(sys.argv[1], "a") as log:
    log.write("run\\n")
print("checking 3 posts")
print("! _posts/2026-06-03-test.md: missing hero image")
print("! _posts/2026-06-04-other.md: broken internal link")
print("ERROR: _posts/2026-06-03-test.md:12")
print("ERROR: _posts/2026-06-04-other.md:7: bad diagram")
print("  ! 2026-06-03-test.md: orphan post (no incoming links)")
print("! drafts/2026-06-03-test.md: a draft with the same name")
print("\\x1b[31mERROR: _posts/2026-06-03-test.md:30: colored\\x1b[0m")
sys.exit(1)
"""


def audit_blog(tmp_path: Path, script: str = AUDIT_TOOL) -> tuple[list[Post], Path, str]:
    """Three posts, a same-named draft elsewhere, and a fake audit tool that logs its runs."""
    front = FRONT.format(date="2026-06-03")
    posts = [
        write(tmp_path, front),
        write(tmp_path, FRONT.format(date="2026-06-04"), name="2026-06-04-other.md"),
        write(tmp_path, FRONT.format(date="2026-06-05"), name="2026-06-05-clean.md"),
    ]
    (tmp_path / "drafts").mkdir()
    (tmp_path / "drafts" / NAME).write_text("draft\n", encoding="utf-8")
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "audit.py").write_text(script, encoding="utf-8")
    log = tmp_path / "runs.log"
    command = f"{shlex.quote(sys.executable)} tools/audit.py {shlex.quote(str(log))}"
    return posts, log, command


def test_audit_lines_count_only_for_the_post_they_name(tmp_path: Path, cache_dir: Path) -> None:
    posts, log, command = audit_blog(tmp_path)
    batches = RunBatches(posts=tuple(post.path for post in posts))
    context = GateContext.create(
        default_settings(body_line_floor=1, audit_commands=(command,)), cache_dir, batches
    )
    cards = [blog_quality.GATE.evaluate(post, context) for post in posts]

    mine = cards[0]
    assert mine.verdict == "FAIL"
    assert [(f.line, f.code) for f in mine.findings] == [
        (None, "AUDIT"),
        (12, "AUDIT"),
        (30, "AUDIT"),
    ]
    program = Path(sys.executable).name  # absolute paths are shown by their names
    assert mine.findings[0].message == f"{program} tools/audit.py runs.log: missing hero image"
    row = mine.detail["audit"]["commands"][0]
    assert row["returncode"] == 1  # the tool's exit status alone fails nobody
    assert row["tolerated"] == [{"line": None, "message": "orphan post (no incoming links)"}]
    assert row["other_posts"] == 3  # the other post's two lines and the same-named draft
    assert str(tmp_path) not in str(mine.detail)  # scorecards hold no absolute paths

    other = cards[1]
    assert [(f.line, f.message.split(": ", 1)[1]) for f in other.findings] == [
        (None, "broken internal link"),
        (7, "bad diagram"),
    ]
    assert cards[2].verdict == "PASS"  # lenient mode: other posts' lines never fail it
    assert log.read_text().splitlines() == ["run"]  # once for the whole run


def test_audit_runs_once_per_run_across_processes(tmp_path: Path, cache_dir: Path) -> None:
    """Two contexts sharing a run folder stand for two xdist workers."""
    posts, log, command = audit_blog(tmp_path)
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    paths = tuple(post.path for post in posts)
    settings = default_settings(body_line_floor=1, audit_commands=(command,))
    for post in posts:
        context = GateContext.create(settings, cache_dir, RunBatches(run_dir, paths))
        blog_quality.GATE.evaluate(post, context)
    assert log.read_text().splitlines() == ["run"]


def test_a_missing_audit_tool_is_an_error_with_the_reason(tmp_path: Path, cache_dir: Path) -> None:
    post = write(tmp_path, FRONT.format(date="2026-06-03"))
    card = run(post, cache_dir, audit_commands=("no-such-audit-tool-xyz --all",))
    assert card.verdict == "ERROR"
    assert "no-such-audit-tool-xyz --all: cannot start" in card.summary


def test_an_unsplittable_audit_command_is_an_error(tmp_path: Path, cache_dir: Path) -> None:
    post = write(tmp_path, FRONT.format(date="2026-06-03"))
    card = run(post, cache_dir, audit_commands=("tool 'unbalanced",))
    assert card.verdict == "ERROR"
    assert "cannot split the command" in card.summary


def test_a_hanging_audit_tool_times_out_with_its_children(
    tmp_path: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The tool starts a child that keeps the output pipe open: killing the tool alone
    # would leave the gate waiting for that child.
    script = (
        "import subprocess, sys, time\n"
        "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
        "print('! _posts/2026-06-03-test.md: never seen', flush=True)\n"
        "time.sleep(60)\n"
    )
    posts, _log, command = audit_blog(tmp_path, script)
    monkeypatch.setattr(blog_quality, "AUDIT_TIMEOUT", 1.0)
    started = time.monotonic()
    card = run(posts[0], cache_dir, audit_commands=(command,))
    assert time.monotonic() - started < 15
    assert card.verdict == "ERROR"
    assert "timed out after 1 s" in card.summary


def test_no_audit_commands_no_audit(tmp_path: Path, cache_dir: Path) -> None:
    card = run(write(tmp_path, FRONT.format(date="2026-06-03")), cache_dir)
    assert card.detail["audit"] == {"commands": []}
    assert card.verdict == "PASS"
    assert card.summary.startswith("front matter ok; 3 body lines (floor 1)")


# ------------------------------------------------------------------------ under pytest
XDIST_AUDIT_TOOL = """\
import sys
with open("runs.log", "a") as log:
    log.write("run\\n")
print("! _posts/2026-01-01-a.md: no hero image")
print("ERROR: _posts/2026-01-09-not-collected.md:3")
sys.exit(1)
"""


def test_under_xdist_audit_tools_run_once_and_blame_only_the_named_post(
    pytester: pytest.Pytester, blog: Blog
) -> None:
    command = f"{shlex.quote(sys.executable)} tools/audit.py"
    blog.pyproject(f"body_line_floor = 1\naudit_commands = [{json.dumps(command)}]\n")
    blog.raw("tools/audit.py", XDIST_AUDIT_TOOL.encode())
    for day in range(1, 5):
        front = {"layout": "post", "title": f"Post {day}", "date": f"2026-01-0{day}"}
        blog.post(f"2026-01-0{day}-{'abcd'[day - 1]}.md", BODY + "\n" + VALID_FLOW, front=front)
    result = pytester.runpytest_subprocess("-n", "2", "--postgates-only=1", "_posts")
    result.assert_outcomes(passed=3, failed=1)
    result.stdout.fnmatch_lines(["*_posts/2026-01-01-a.md:*AUDIT*tools/audit.py: no hero image"])
    assert (pytester.path / "runs.log").read_text().splitlines() == ["run"]


@pytest.mark.parametrize(
    ("site_file", "advised"),
    [(".vitepress/config.mts", False), ("mkdocs.yml", False), ("docusaurus.config.js", False),
     ("_config.yml", True)],
)  # fmt: skip
def test_a_docs_site_page_with_front_matter_has_no_blog_floor(
    tmp_path: Path, cache_dir: Path, site_file: str, advised: bool
) -> None:
    """A VitePress reference page with `title`/`outline` front matter is no blog post: the
    calibrated blog floor, unset, is advice for Jekyll (and Hugo) pages only."""
    (tmp_path / ".git").mkdir()
    config = tmp_path / site_file
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("", encoding="utf-8")
    page = _bare(tmp_path, "docs/bail.md", "---\ntitle: bail\noutline: deep\n---\nShort.\n")
    card = run(page, cache_dir, body_line_floor=None)  # the default, not the tests' 1
    assert card.detail["body_line_floor"] == 0
    assert "BODY_TOO_SHORT" not in [code for _, code in codes(card)]
    assert ("house_style" in card.detail) is advised
