"""Gate 12's ported block, heading, list, emphasis and table rules (MD001, MD003, MD022,
MD023, MD030, MD032, MD047, MD049, MD050, MD056): markdownlint's algorithm, each rule on
small documents of our own whose findings were read off markdownlint 0.36.1."""

from __future__ import annotations

from typing import Any

import pytest

from pytest_postgates.tools import lint


def found(text: str, rule: str, options: Any = True) -> list[int]:
    """The lines (1-based) where ``rule`` alone, with ``options``, reports ``text``."""
    config = {"default": False, rule: options}
    return sorted(v.line for v in lint.native_violations(text, config, only=[rule]))


def test_md001_flags_a_skipped_level_not_a_return_to_a_higher_one() -> None:
    text = "# One\n\n### Three\n\n## Two\n\n#### Four\n\n# One\n\n## Two\n"
    assert found(text, "MD001") == [3, 7]


def test_md001_counts_setext_headings_and_ignores_html_and_code() -> None:
    text = "Top\n===\n\n```\n### not a heading\n```\n\n<div>\n\n</div>\n\n### Three\n"
    assert found(text, "MD001") == [12]


@pytest.mark.parametrize(
    ("style", "expected"),
    [
        ("consistent", [3, 5, 8]),
        ("atx", [3, 5, 8]),
        ("atx_closed", [1, 5, 10]),
        ("setext", [1, 3, 8, 10]),
        ("setext_with_atx", [1, 3, 8]),
        ("setext_with_atx_closed", [1, 3, 10]),
    ],
)
def test_md003_styles(style: str, expected: list[int]) -> None:
    # atx h1, closed h2, setext h1, closed h3, atx h3 ("consistent": the first, atx)
    text = "# A\n\n## B ##\n\nC\n=\n\n### D ###\n\n### E\n"
    assert found(text, "MD003", {"style": style}) == expected


def test_md003_a_heading_of_only_hashes_after_a_blank_is_closed() -> None:
    assert found("# A #\n\n# #\n\n## B\n", "MD003") == [5]


def test_md022_above_and_below_with_quote_lines_blank() -> None:
    text = "Text\n# Glued\nText\n\n> ## In quote\n>\n> text\n\n## Fine\n\nEnd\n"
    # above and below the glued heading; a '>'-only line is blank
    assert found(text, "MD022") == [2, 2]


def test_md022_per_level_arrays_and_switched_off_sides() -> None:
    text = "# One\n\n\n## Two\nText\n\n### Three\nText\n"
    options = {"lines_above": [1, 2, -1], "lines_below": [1, 0, 1]}
    # h2 wants 2 above (has 2) and 0 below (has 0): fine; h3 wants 1 below: missing.
    assert found(text, "MD022", options) == [7]


def test_md022_a_setext_heading_is_checked_below_its_underline() -> None:
    assert found("Text\n\nHeading\n-------\nText\n", "MD022") == [3]


def test_md023_indentation_beyond_the_containers_prefix() -> None:
    text = (
        " # Indented\n\n>  # In quote\n\n> # Fine quote\n\n- # Fine item\n\n"
        "- item\n\n    # Two over\n\n  # Fine continuation\n"
    )
    assert found(text, "MD023") == [1, 3, 11]


def test_md023_reads_the_setext_text_line_not_the_underline() -> None:
    assert found("Text\n\n Indented\n===\n\nFlush\n ===\n", "MD023") == [3]


def test_md030_single_and_multi_line_lists() -> None:
    text = "- one\n-  two\n\nText\n\n1.  a\n\n    more\n1. b\n"
    # the bullet list is all one-line items; the ordered list is not
    assert found(text, "MD030", {"ol_multi": 2}) == [2, 9]


def test_md030_indented_code_and_empty_items_take_one_blank() -> None:
    # five blanks after the marker: one is the marker's, the rest make indented code
    assert found("-      code\n-\n- x\n", "MD030") == []
    assert found("*   x\n", "MD030") == [1]


def test_md032_top_level_lists_only_and_the_last_content_line() -> None:
    # the text lines after the lists are lazy continuations: only the first lacks a blank
    text = "Text\n- a\n  - nested\nText\n\n> - quoted\n> text\n\n* fine\n\n>\n"
    assert found(text, "MD032") == [2]


def test_md032_a_new_marker_is_a_new_list_lacking_both_blanks() -> None:
    assert found("Text\n\n- a\n+ b\n\nEnd\n", "MD032") == [3, 4]


def test_md047_a_missing_final_line_break() -> None:
    assert found("# A\n\nText", "MD047") == [3]
    assert found("# A\n\nText\n", "MD047") == []
    assert found("# A\n\n<!-- note -->", "MD047") == []


@pytest.mark.parametrize(
    ("rule", "style", "expected"),
    [
        ("MD049", "consistent", [3, 3]),
        ("MD049", "asterisk", [3, 3]),
        ("MD049", "underscore", [1, 1, 5, 5]),
        ("MD050", "consistent", [10, 10]),
        ("MD050", "underscore", [8, 8]),
    ],
)
def test_md049_md050_styles(rule: str, style: str, expected: list[int]) -> None:
    text = "*a* text\n\n_b_ text\n\nA *c*\nd\n\n**e**\n\n__f__\n"
    assert found(text, rule, {"style": style}) == expected


def test_md049_underscore_allows_intraword_asterisks() -> None:
    text = "apple*banana*cherry and *word*\n"
    assert found(text, "MD049", {"style": "underscore"}) == [1, 1]  # both of *word*


def test_md049_reports_both_lines_of_a_multiline_emphasis() -> None:
    text = "_x_\n\nSome *multi\nline* emphasis with `code\nspan` and *after*\n"
    assert found(text, "MD049") == [3, 4, 5, 5]


def test_md049_math_and_code_are_no_emphasis() -> None:
    text = "_x_ and $a*b*c$ and `*d*`\n"
    assert found(text, "MD049") == []


def test_md056_counts_cells_as_micromark_divides_the_row() -> None:
    text = "| a | b |\n|---|---|\n| 1 |\n| 1 | 2 | 3 |\n| `x|y` |\n| x \\| y |\n| ok | ok |\nlazy\n"
    assert found(text, "MD056") == [3, 4, 6, 8]


def test_md056_tables_in_containers_and_a_directive_closing_fence() -> None:
    text = "> | a | b |\n> |---|---|\n> | 1 |\n\n:::note\n| a | b |\n|---|---|\n:::\n"
    assert found(text, "MD056") == [3]


def test_ported_rules_follow_inline_disable_comments() -> None:
    text = "# A\n<!-- markdownlint-disable-next-line MD022 -->\n## B\nText\n## C\nText\n"
    assert found(text, "MD022") == [5, 5]


NAMES = {"names": ["JavaScript", ".NET", "GitHub"]}


def test_md044_prose_code_html_and_urls() -> None:
    text = (
        "We write javascript and .net here.\n\n"  # both names
        "`javascript` in code\n\n"
        "See https://github.com/javascript and www.javascript.com\n\n"  # autolinks: no
        "[github](https://github.com) text\n\n"  # link text: yes; destination: no
        "javascript_x and _javascript_\n\n"  # a leftover marker splits the word
        "<div>\njavascript\n</div>\n"
    )
    assert found(text, "MD044", NAMES) == [1, 1, 3, 7, 9, 9, 12]


def test_md044_code_blocks_and_html_elements_off() -> None:
    text = "```\njavascript\n```\n\n`javascript`\n\n<!--\njavascript\n-->\n\n<b>javascript</b>\n"
    assert found(text, "MD044", NAMES) == [2, 5, 8, 11]
    options = {**NAMES, "code_blocks": False, "html_elements": False}
    assert found(text, "MD044", options) == [11]


def test_md044_a_url_in_a_comment_line_of_html_text_is_no_misspelling() -> None:
    # An HTML block's text is read again as Markdown without HTML blocks: the comment
    # quoted after `<div>` is HTML text there, whose lines markdownlint parses for
    # autolinks like a comment block's (found by the oracle test's random documents).
    text = (
        "<div>\n</div>\n```\n```\n> <!--\n> *em* https://github.com/javascript\n> -->\n\n"
        "<div>\n> <!--\n> javascript\n> -->\n"
    )
    assert found(text, "MD044", NAMES) == [11]


def test_md044_a_longer_name_wins_and_exact_names_pass() -> None:
    options = {"names": ["Node.js", "node", "JavaScript", "javaScript"]}
    # node.JS (Node.js), Node (node), JAVASCRIPT; javaScript is one of the names
    assert found("node.JS and Node and javaScript and JAVASCRIPT\n", "MD044", options) == [1, 1, 1]
