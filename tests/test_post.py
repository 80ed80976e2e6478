"""The post model: front matter, line numbers, fences, code spans, input problems."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_postgates.post import fence_title, parse_post, read_front_matter
from tests.helpers import FRONT_MATTER, make_post


def test_front_matter_and_body_lines(tmp_path: Path) -> None:
    post = make_post("First body line.\n", tmp_path)
    assert post.front_matter == {
        "layout": "post",
        "title": "Test post",
        "date": __import__("datetime").date(2026, 6, 3),
    }
    assert post.body_start_line == 6
    assert list(post.body_lines()) == [(6, "First body line.")]
    assert post.problems == []


def test_code_spans_carry_file_lines_for_every_real_corpus_shape(tmp_path: Path) -> None:
    body = (
        "Plain `alpha` and a double-backtick span `` `beta` `` here.\n"  # 6
        "A wrapped paragraph line\n"  # 7
        "with `gamma` on its second line.\n"  # 8
        "\n"
        "| col | `delta` |\n"  # 10
        "|-----|---------|\n"
        "| `epsilon` | x |\n"  # 12
        "\n"
        "- item `zeta`\n"  # 14
        "  continued `eta`\n"  # 15
        "\n"
        "> quoted `theta`\n"  # 17
        "\n"
        "## Heading `iota`\n"  # 19
        "\n"
        "Escaped \\` tick then `kappa`, and a span that\n"  # 21
        "wraps `lambda\n"  # 22
        "mu` then `nu`.\n"  # 23
        "\n"
        "```python\n"
        "`not_a_span`\n"
        "```\n"
    )
    post = make_post(body, tmp_path)
    assert [(s.text, s.line) for s in post.code_spans] == [
        ("alpha", 6),
        ("`beta`", 6),
        ("gamma", 8),
        ("delta", 10),
        ("epsilon", 12),
        ("zeta", 14),
        ("eta", 15),
        ("theta", 17),
        ("iota", 19),
        ("kappa", 21),
        ("lambda mu", 22),
        ("nu", 23),
    ]


def test_fences_lang_closed_and_nested(tmp_path: Path) -> None:
    body = (
        "````markdown\n```python\nx = 1\n```\n````\n\n"
        "~~~mermaid\nflowchart TD\n~~~\n\n"
        "```\nplain\n```\n"
    )
    post = make_post(body, tmp_path)
    assert [(f.lang, f.start_line, f.end_line, f.closed) for f in post.fences] == [
        ("markdown", 6, 10, True),
        ("mermaid", 12, 14, True),
        ("", 16, 18, True),
    ]
    assert post.fences[0].content == "```python\nx = 1\n```\n"
    assert 8 in post.code_lines and 11 not in post.code_lines
    assert post.problems == []


def test_related_posts_boundary_outside_code_only(tmp_path: Path) -> None:
    body = "Text `a`.\n\n```md\n**Related posts:**\n```\n\n**Related posts:**\n\n- see `b`\n"
    post = make_post(body, tmp_path)
    assert post.related_posts_line == 12
    assert [s.text for s in post.prose_code_spans] == ["a"]
    assert make_post("## Related posts\n", tmp_path).related_posts_line == 6
    assert make_post("No boundary.\n", tmp_path).related_posts_line is None


@pytest.mark.parametrize(
    ("content", "code", "fatal"),
    [
        (b"---\ntitle: [unclosed\n---\nbody\n", "FRONT_MATTER_YAML", True),
        (b"---\n- a list\n---\nbody\n", "FRONT_MATTER_TYPE", True),
        (b"---\ntitle: x\nbody without a closing line\n", "FRONT_MATTER_UNCLOSED", True),
        (b"---\ntitle: x\n---\n\n```python\nopen fence\n", "UNCLOSED_FENCE", True),
        # A fence inside a list item ends with the item (CommonMark): cut, not unclosed.
        (b"1. Run:\n\n    ```sh\n    cd x\n# a comment\n    ls\n    ```\n", "FENCE_CUT", False),
        (b"> ```sh\n> cd x\n\nafter the quote\n", "FENCE_CUT", False),
        (b"- item\n\n  ```sh\n  runs to the end\n", "UNCLOSED_FENCE", True),
        (b"---\ntitle: x\n---\nbad \xff byte\n", "NOT_UTF8", True),
        (b"---\ntitle: x\n---\nnul \x00 byte\n", "BINARY", True),
        (b"---\ntitle: x\n---\n\n  \n", "EMPTY_BODY", True),
        (b"---\r\ntitle: x\r\n---\r\nbody\r\n", "CRLF", False),
        (b"\xef\xbb\xbf---\ntitle: x\n---\nbody\n", "BOM", False),
        (b"", "EMPTY_BODY", True),
    ],
)
def test_bad_input_is_recorded_not_raised(
    content: bytes, code: str, fatal: bool, tmp_path: Path
) -> None:
    path = tmp_path / "_posts" / "post.md"  # a blog post: an empty body is bad input
    path.parent.mkdir()
    path.write_bytes(content)
    post = parse_post(path)
    problems = {p.code: p for p in post.problems}
    assert code in problems
    assert problems[code].fatal is fatal
    assert problems[code].message
    assert not {"UNCLOSED_FENCE", "FENCE_CUT"} <= problems.keys()


@pytest.mark.parametrize(
    ("relative", "content", "front_matter_only"),
    [
        # A VitePress home page, a page a layout builds from its data: rendered from the
        # front matter, nothing for a gate to check, not bad input.
        ("docs/index.md", b"---\nlayout: home\nhero:\n  name: zx\n---\n", True),
        ("docs/rules/id-blacklist.md", b"---\ntitle: id-blacklist\nrule_type: x\n---\n\n", True),
        # A blog post with no body is an empty post; so is a file with nothing in it, and
        # front matter holding no value.
        ("_posts/2026-01-01-x.md", b"---\ntitle: x\n---\n\n", False),
        ("docs/empty.md", b"", False),
        ("docs/blank.md", b"---\n---\n\n", False),
    ],
)
def test_a_site_page_of_front_matter_only_is_no_bad_input(
    relative: str, content: bytes, front_matter_only: bool, tmp_path: Path
) -> None:
    path = tmp_path / relative
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    post = parse_post(path)
    assert post.front_matter_only is front_matter_only
    codes = [p.code for p in post.problems]
    assert codes == ([] if front_matter_only else ["EMPTY_BODY"])


def test_no_front_matter_is_an_empty_front_matter_not_a_problem(tmp_path: Path) -> None:
    path = tmp_path / "page.md"
    path.write_bytes(b"# A docs page\n\nUses `pytest`.\n")
    post = parse_post(path)
    assert post.problems == []
    assert (post.front_matter, post.front_matter_format, post.body_start_line) == ({}, None, 1)
    assert [span.text for span in post.code_spans] == ["pytest"]
    assert [span.line for span in post.code_spans] == [3]


def test_yaml_error_reports_the_file_line(tmp_path: Path) -> None:
    path = tmp_path / "post.md"
    path.write_bytes(b"---\ntitle: ok\nbad: [\n---\nbody\n")
    (problem,) = parse_post(path).problems
    assert problem.code == "FRONT_MATTER_YAML"
    assert problem.line is not None and problem.line >= 3


def test_bom_and_crlf_are_repaired_for_parsing(tmp_path: Path) -> None:
    body = "Text with `span` and\n\n```js\ncode\n```\n"
    lf = make_post(body, tmp_path, "lf.md")
    path = tmp_path / "crlf.md"
    path.write_bytes(b"\xef\xbb\xbf" + (FRONT_MATTER + body).replace("\n", "\r\n").encode())
    crlf = parse_post(path)
    assert {p.code for p in crlf.problems} == {"BOM", "CRLF"}
    assert crlf.front_matter == lf.front_matter
    assert crlf.code_spans == lf.code_spans
    assert crlf.fences == lf.fences


def test_oversized_post_is_refused(tmp_path: Path) -> None:
    from pytest_postgates import post as post_module

    path = tmp_path / "big.md"
    path.write_bytes(b"x" * (post_module.MAX_POST_BYTES + 1))
    (problem,) = parse_post(path).problems
    assert problem.code == "TOO_LARGE"


# ---------------------------------------------------------------- property tests

_settings = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@_settings
@given(st.binary(max_size=600))
def test_any_bytes_parse_without_raising(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "fuzz.md"
    post = parse_post(path, data)
    for problem in post.problems:
        assert problem.message
    if not post.fatal_problems:
        assert post.front_matter is not None
        _ = post.code_spans, post.fences, post.related_posts_line, post.code_lines


_markdown_chunks = st.sampled_from(
    [
        "text",
        "`span`",
        "``double ` tick``",
        "```",
        "````",
        "~~~",
        "```python",
        "\n",
        "\n\n",
        "\r\n",
        "> ",
        "- ",
        "| a | b |",
        "|---|---|",
        "**Related posts:**",
        "---",
        "\\`",
        "<b>`x`</b>",
        "    indented",
        "\u00e9\u4e2d",
        "```mermaid\nflowchart TD\nA --> B\n```",
    ]
)


@_settings
@given(st.lists(_markdown_chunks, max_size=40).map("".join))
def test_markdown_shapes_never_raise_and_lines_stay_in_range(tmp_path: Path, body: str) -> None:
    path = tmp_path / "fuzz.md"
    post = parse_post(path, (FRONT_MATTER + body).encode("utf-8"))
    if post.fatal_problems:
        return
    last = len(post.lines)
    for span in post.code_spans:
        assert post.body_start_line <= span.line <= last
    for fence in post.fences:
        assert post.body_start_line <= fence.start_line <= fence.end_line <= last


_word = st.text(alphabet="abcdefghij", min_size=1, max_size=6)


@_settings
@given(
    st.lists(
        st.lists(st.tuples(_word, st.booleans()), min_size=1, max_size=5), min_size=1, max_size=8
    )
)
def test_code_span_lines_match_where_they_were_written(
    tmp_path: Path, paragraphs: list[list[tuple[str, bool]]]
) -> None:
    """Generated paragraphs of lines, some words written as code spans: every span is
    reported on the file line it was written on."""
    lines: list[str] = []
    expected: list[tuple[str, int]] = []
    first_body_line = FRONT_MATTER.count("\n") + 1
    for paragraph in paragraphs:
        for word, is_code in paragraph:
            number = first_body_line + len(lines)
            if is_code:
                lines.append(f"see `{word}` here")
                expected.append((word, number))
            else:
                lines.append(f"plain {word} words")
        lines.append("")
    post = parse_post(tmp_path / "p.md", (FRONT_MATTER + "\n".join(lines)).encode())
    assert [(s.text, s.line) for s in post.code_spans] == expected


# ------------------------------------------------------- TOML and JSON front matter (Hugo)
TOML_POST = (
    b'+++\ntitle = "Hugo post"\ndate = 2026-06-03T10:00:00+02:00\ntags = ["go", "hugo"]\n'
    b"+++\n\nUses `pytest` here.\n"
)
JSON_POST = (
    b'{\n  "title": "Hugo post",\n  "date": "2026-06-03",\n  "tags": ["go"]\n}\n\n'
    b"Uses `pytest` here.\n"
)


def test_toml_front_matter(tmp_path: Path) -> None:
    path = tmp_path / "post.md"
    path.write_bytes(TOML_POST)
    post = parse_post(path)
    assert post.problems == []
    assert post.front_matter_format == "toml"
    assert post.front_matter is not None and post.front_matter["title"] == "Hugo post"
    assert post.front_matter["date"].isoformat() == "2026-06-03T10:00:00+02:00"
    assert post.body_start_line == 6
    assert [(span.text, span.line) for span in post.code_spans] == [("pytest", 7)]


def test_json_front_matter(tmp_path: Path) -> None:
    path = tmp_path / "post.md"
    path.write_bytes(JSON_POST)
    post = parse_post(path)
    assert post.problems == []
    assert post.front_matter_format == "json"
    assert post.front_matter == {"title": "Hugo post", "date": "2026-06-03", "tags": ["go"]}
    assert post.body_start_line == 6
    assert [(span.text, span.line) for span in post.code_spans] == [("pytest", 7)]
    assert read_front_matter(JSON_POST) == post.front_matter
    assert read_front_matter(TOML_POST) == {**parse_post_bytes(tmp_path, TOML_POST)}


def parse_post_bytes(folder: Path, data: bytes) -> dict[str, object]:
    path = folder / "other.md"
    path.write_bytes(data)
    return dict(parse_post(path).front_matter or {})


@pytest.mark.parametrize(
    ("content", "code", "words", "line"),
    [
        (b'+++\ntitle = "x"\ndate = \n+++\nbody\n', "FRONT_MATTER_TOML", "not valid TOML", 3),
        (b'+++\ntitle = "x"\nbody\n', "FRONT_MATTER_UNCLOSED", "never closed with '+++'", 1),
        (b'{\n  "title": "x",\n  "date":\n}\nbody\n', "FRONT_MATTER_JSON", "not valid JSON", 4),
        (b'{\n  "title": "x"\nbody\n', "FRONT_MATTER_UNCLOSED", "never closed with '}'", 1),
        (b"{\n[1, 2]\n}\nbody\n", "FRONT_MATTER_JSON", "not valid JSON", 2),
        (
            b'+++\nx = "'
            + b"a" * 10
            + b'"\n'
            + b"".join(b"k%d = 1\n" % i for i in range(10_001))
            + b"+++\nbody\n",
            "FRONT_MATTER_SIZE",
            "over 10,000 values",
            1,
        ),
        (
            b'{\n"a": ' + b"[" * 70 + b"]" * 70 + b"\n}\nbody\n",
            "FRONT_MATTER_SIZE",
            "deeper than 64 levels",
            1,
        ),
        (b"---\na: " + b"[" * 70 + b"]" * 70 + b"\n---\nbody\n", "FRONT_MATTER_SIZE", "deeper", 1),
        (b'{\n"a": ' + b"[" * 100_000 + b"\n}\nbody\n", "FRONT_MATTER_JSON", "", 1),
    ],
)
def test_bad_toml_and_json_front_matter_is_a_fatal_problem(
    content: bytes, code: str, words: str, line: int, tmp_path: Path
) -> None:
    path = tmp_path / "post.md"
    path.write_bytes(content)
    problems = parse_post(path).problems
    assert [(p.code, p.fatal) for p in problems] == [(code, True)], problems
    assert words in problems[0].message
    if code != "FRONT_MATTER_JSON" or words:
        assert problems[0].line == line


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.dictionaries(st.text(max_size=10), _JSON_VALUES, min_size=1, max_size=6))
def test_json_front_matter_round_trips_and_keeps_file_lines(
    data: dict[str, object], tmp_path: Path
) -> None:
    import json

    front = json.dumps(data, indent=2)
    path = tmp_path / "post.md"
    path.write_text(front + "\n\nUses `x`.\n", encoding="utf-8")
    post = parse_post(path)
    front_lines = front.count("\n") + 1
    # markdownlint closes JSON front matter at the first line starting with "}" (and "{}"
    # on one line is not front matter to it): a nested
    # object closed at column 0 cannot occur in indented JSON, so it always round-trips.
    assert post.problems == []
    assert post.front_matter == data
    assert post.body_start_line == front_lines + 1
    assert [span.line for span in post.code_spans] == [front_lines + 2]


@pytest.mark.parametrize(
    ("info", "tabs", "title"),
    [
        ('python title="Old way"', True, "Old way"),
        ("ts filename=src/app.ts {1,3}", True, "src/app.ts"),
        ("js file='jest.config.js'", False, "jest.config.js"),
        ("ts [nuxt.config.ts]", True, "nuxt.config.ts"),
        ("ts [ Before ] {2}", True, "Before"),
        ("ts [nuxt.config.ts]", False, ""),
        ("python {1,3}", True, ""),
        ("", True, ""),
    ],
)
def test_a_fence_title_is_what_its_info_string_names(info: str, tabs: bool, title: str) -> None:
    assert fence_title(info, tabs=tabs) == title
