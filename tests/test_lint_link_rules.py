"""Gate 12's link, image and HTML rules (MD011, MD033, MD034, MD039, MD045, MD051, MD052,
MD053, MD054), computed with markdownlint 0.36.1's algorithms over
``pytest_postgates.tools.lint.micromark`` (issue 11).

- unit tests per rule on small documents written here, each finding's line checked
  against what markdownlint reports for the same text (each expectation is what
  markdownlint-cli 0.43.0 reports for the text);
- a differential test: hypothesis composes small documents out of the constructs these
  rules read (bare URLs in every form, links of each style, references, definitions,
  images, tags, HTML blocks, code spans, reversed links, headings and fragments), and
  markdownlint-cli (``POSTGATES_MARKDOWNLINT_CLI``, which CI sets) and the embedded
  backend must give the same (document, line, rule) findings for these rules.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from pytest_postgates.tools import lint
from tests.test_gate_markdownlint import CLI_ENV, _markdownlint_cli

LINK_RULES = ("MD011", "MD033", "MD034", "MD039", "MD045", "MD051", "MD052", "MD053", "MD054")


def findings(text: str, config: dict[str, Any] | None = None, rule: str | None = None) -> list:
    """(line, rule) of the embedded backend's native findings for these rules."""
    found = lint.native_violations(text, config or {}, only=[rule] if rule else LINK_RULES)
    return sorted((v.line, v.rule) for v in found if v.rule in LINK_RULES)


def lines_of(text: str, rule: str, config: dict[str, Any] | None = None) -> list[int]:
    return [line for line, found in findings(text, config, rule) if found == rule]


# --------------------------------------------------------------------- unit tests


def test_md011_reversed_links_outside_code() -> None:
    text = "(text)[link]\n\n`(code)[span]`\n\n    (indented)[code]\n\n\\(escaped)[x]\n\na(b\\)[c]\n"
    assert lines_of(text, "MD011") == [1]


def test_md011_regex_reads_a_backslash_before_the_parenthesis() -> None:
    # markdownlint's regex needs a character other than "\" before "(": no finding
    assert lines_of("{begin: '%r\\\\(', end: '\\\\)[a-z]*'}\n", "MD011") == []


def test_md033_every_opening_tag_html_blocks_included() -> None:
    text = "Text <b>bold</b> <Tabs>\n\n<div>\n<span>x</span>\n</div>\n\n<!-- comment -->\n"
    assert lines_of(text, "MD033") == [1, 1, 3, 4]
    assert lines_of(text, "MD033", {"MD033": {"allowed_elements": ["B", "div"]}}) == [1, 4]


def test_md033_no_tag_inside_a_link_destination_or_code() -> None:
    text = "[url](https://example.com/an>g<le>) `<b>`\n"
    assert lines_of(text, "MD033") == []


def test_md034_bare_urls_as_gfm_autolink_literals() -> None:
    text = (
        "Visit https://example.com/path). now\n\n"  # trailing ")" and "." are not the URL
        "www.example.com and user@example.com\n\n"
        "<https://auto.example> and [https://label.example](https://x.example)\n\n"
        "`https://code.example` and <b>https://in.tags</b>\n\n"
        "[not www.in.brackets] xhttps://glued.example\n\n"  # after "[" or a letter: none
        "<div>\nhttps://in.html.block\n</div>\n"
    )
    assert lines_of(text, "MD034") == [1, 3, 3]


def test_md034_domain_rules() -> None:
    # underscores in the last two domain segments, and a domain without a dot after
    # "www." do not make links; "http://" needs a domain
    text = "www.a_b.com\n\nhttp://\n\nhttp://a.b_c\n\nwww.x\n"
    assert lines_of(text, "MD034") == [7]


def test_md039_leading_and_trailing_spaces_and_wrapped_labels() -> None:
    text = (
        "[ lead](x) [trail ](y) [ok](z)\n\n"
        "Wrapped [link with trailing space \n](https://example.com)\n\n"
        "[ shortcut ]\n\n[shortcut]: https://example.com\n\n![ image ](i.png)\n"
    )
    assert lines_of(text, "MD039") == [1, 1, 3, 6, 6]


def test_md045_images_without_alt_text() -> None:
    text = (
        '![](a.png) ![alt](b.png)\n\n<img src="c.png"> <img alt="d" src="d.png">\n\n'
        '<p>\n<img src="e">\n</p>\n'
    )
    assert lines_of(text, "MD045") == [1, 3, 6]


def test_md051_fragments_from_headings_anchors_and_ids() -> None:
    text = (
        "# Heading One\n\n## Heading One\n\n## `Code` and *emphasis* {#custom}\n\n"
        '<a name="named"></a> <span id="ided"></span>\n\n'
        "[a](#heading-one) [b](#heading-one-1) [c](#code-and-emphasis-custom) "
        "[d](#custom) [e](#named) [f](#ided) [g](#L12)\n\n"
        "[missing](#nowhere)\n\n[case](#Heading-One)\n\n[def]: #also-missing\n"
    )
    assert lines_of(text, "MD051") == [11, 13, 15]
    assert lines_of(text, "MD051", {"MD051": {"ignore_case": True}}) == [11, 15]


def test_md052_undefined_full_and_collapsed_references() -> None:
    text = "[a][b] [c][] [d] [e][f] ![g][h]\n\n[f]: https://example.com\n"
    assert lines_of(text, "MD052") == [1, 1, 1]
    shortcut = {"MD052": {"shortcut_syntax": True}}
    assert lines_of(text, "MD052", shortcut) == [1, 1, 1, 1]


def test_md052_full_reference_around_an_image_or_a_failed_label() -> None:
    # a defined image inside the text is markers (the shim pairs the two labels); a failed
    # "[b]" inside is data with a "]" (no pair: "[missing]" is a shortcut)
    text = "[![text][image]][missing] x [a [b] c][missing]\n\n[image]: x.png\n"
    assert lines_of(text, "MD052") == [1]


def test_md053_reads_a_footnote_definitions_indented_continuation() -> None:
    """micromark's footnote definition is a container: a block indented four columns after
    a blank line continues the note, so a reference used there counts (markdownlint-cli
    0.43.0 reports only the unused definition); after a plain paragraph the same block is
    indented code and its reference does not count."""
    note = (
        "Text with a note.[^a]\n\n[^a]: The note.\n\n"
        "    Its second block uses [the guide][guide].\n\n"
        "[guide]: https://example.com/guide\n[unused]: https://example.com/unused\n"
    )
    assert lines_of(note, "MD053") == [8]
    code = "Para.\n\n    [x][gone]\n\n[gone]: https://example.com/\n"
    assert lines_of(code, "MD053") == [5]


def test_md053_unused_and_duplicate_definitions() -> None:
    text = (
        "[used] [^1]\n\n[used]: https://a.example\n[unused]: https://b.example\n"
        "[Used]: https://c.example\n[//]: # (a comment)\n\n[^1]: A footnote.\n[^2]: Unused note.\n"
    )
    assert lines_of(text, "MD053") == [4, 5, 9]


def test_md054_styles() -> None:
    text = (
        "<https://a.example> [b](https://b.example) [c][d] [d][] [d]\n\n"
        "[https://e.example](https://e.example)\n\n[d]: https://d.example\n"
    )
    assert lines_of(text, "MD054") == []
    assert lines_of(text, "MD054", {"MD054": {"autolink": False}}) == [1]
    assert lines_of(text, "MD054", {"MD054": {"inline": False}}) == [1, 3]
    assert lines_of(text, "MD054", {"MD054": {"full": False, "collapsed": False}}) == [1, 1]
    assert lines_of(text, "MD054", {"MD054": {"shortcut": False}}) == [1]
    assert lines_of(text, "MD054", {"MD054": {"url_inline": False}}) == [3]


def test_inline_comments_switch_the_rules_off() -> None:
    text = "<!-- markdownlint-disable-next-line MD034 -->\nhttps://a.example\n\nhttps://b.example\n"
    assert lines_of(text, "MD034") == [4]


# ----------------------------------------------------------------- differential

WORDS = st.sampled_from(["text", "Heading", "one", "two", "a", "x.y", "(", ")", "[", "]", "*"])
URLS = st.sampled_from(
    [
        "https://example.com",
        "http://example.com/path_(x)",
        "https://example.com/a).",
        "www.example.com",
        "WWW.example.com/x?y=1&amp;z",
        "www.a_b.example",
        "user@example.com",
        "a.b-c@d.example.",
        "https://x.example/<y>",
        "http://",
        "mailto:user@example.com",
        "xhttps://glued.example",
    ]
)
LABELS = st.sampled_from(["label", " lead", "trail ", " both ", "", "Label", "x y", "^1", "a\\]"])
DESTINATIONS = st.sampled_from(
    ["https://example.com", "#heading", "#Heading", "#missing", "#L20", "<#text-one>", "", "x.md"]
)


ANCHORS = st.sampled_from(["anchor", "heading", "text-one"])


def _fill(template: str, *parts: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.tuples(*parts).map(lambda drawn: template.format(*drawn))


INLINE_PIECES = st.one_of(
    WORDS,
    URLS,
    _fill("<{}>", URLS),
    _fill("[{}]({})", LABELS, DESTINATIONS),
    _fill('[{}]({} "title")', LABELS, DESTINATIONS),
    _fill("![{}]({})", LABELS, DESTINATIONS),
    _fill("[{}][{}]", LABELS, LABELS),
    _fill("[{}][]", LABELS),
    _fill("[{}]", LABELS),
    _fill("({})[{}]", LABELS, DESTINATIONS),
    _fill("`{}`", URLS),
    _fill("<b>{}</b>", URLS),
    st.sampled_from(['<img src="a.png">', '<img alt="x">', "</a>", "<Tabs>", "\\[", "[^1]"]),
    _fill('<a id="{}">', ANCHORS),
    _fill("*{}*", WORDS),
    _fill("[{}]({})", URLS, URLS),
)
LINES = st.lists(INLINE_PIECES, min_size=1, max_size=5).map(" ".join)
BLOCKS = st.one_of(
    LINES,
    _fill("{}\n{}", LINES, LINES),
    _fill("# {}", LINES),
    _fill("## {} {}", WORDS, WORDS),
    _fill("- {}", LINES),
    _fill("> {}", LINES),
    _fill("[{}]: {}", LABELS.map(lambda label: label.strip() or "label"), DESTINATIONS),
    _fill("[^{}]: {}", st.sampled_from(["1", "2"]), LINES),
    _fill("<div>\n{}\n</div>", LINES),
    _fill("```\n{}\n```", LINES),
    _fill("| a | b |\n| - | - |\n| {} | c |", LINES.map(lambda line: line.replace("|", ""))),
)


DOCUMENTS = st.lists(BLOCKS, min_size=1, max_size=6).map(lambda blocks: "\n\n".join(blocks) + "\n")
CONFIGS: dict[str, dict[str, Any]] = {
    "defaults": {},
    "styles": {
        "MD052": {"shortcut_syntax": True},
        "MD054": {"autolink": False, "collapsed": False, "url_inline": False},
    },
}


def _triples(batch: dict[str, Any]) -> set[tuple[str, int, str]]:
    assert batch["error"] is None, batch["error"]
    found = set()
    for path, entry in batch["files"].items():
        assert entry["error"] is None, (path, entry["error"])
        found.update(
            (Path(path).name, v["line"], v["rule"])
            for v in entry["violations"]
            if v["rule"] in LINK_RULES
        )
    return found


def _compare(documents: Iterable[str], config: dict[str, Any], folder: Path) -> None:
    command = _markdownlint_cli()
    assert command is not None
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*"):
        old.unlink()
    paths = []
    for number, text in enumerate(documents):
        path = folder / f"doc{number:03}.md"
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    config_file = folder / "config.json"
    config_file.write_text(json.dumps(config), encoding="utf-8")
    reference = _triples(
        lint.lint_batch(paths, "markdownlint-cli", command[0], config_file=config_file)
    )
    embedded = _triples(lint.lint_batch(paths, "rumdl", config_file=config_file))
    differing = sorted(reference ^ embedded)
    shown = {name for name, _line, _rule in differing[:5]}
    only_cli, only_embedded = reference - embedded, embedded - reference
    report = "\n".join(
        f"--- {name} (only markdownlint: {sorted(t for t in only_cli if t[0] == name)}, "
        f"only embedded: {sorted(t for t in only_embedded if t[0] == name)})\n"
        + (folder / name).read_text(encoding="utf-8")
        for name in sorted(shown)
    )
    assert not differing, report


needs_cli = pytest.mark.skipif(
    _markdownlint_cli() is None,
    reason=f"markdownlint-cli is not installed (set {CLI_ENV}; .ci/run installs it with npm)",
)


@needs_cli
@pytest.mark.parametrize("name", list(CONFIGS))
@settings(
    max_examples=3,
    deadline=None,
    derandomize=True,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.large_base_example,
        HealthCheck.data_too_large,
    ],
)
@given(documents=st.lists(DOCUMENTS, min_size=80, max_size=80))
def test_link_rules_agree_with_markdownlint_cli_on_generated_documents(
    name: str, documents: list[str], tmp_path: Path
) -> None:
    _compare(documents, CONFIGS[name], tmp_path / "generated")
