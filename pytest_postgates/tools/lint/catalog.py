"""markdownlint 0.36.1 as data: its rules (ids, aliases, tags), what it prints for each,
its option defaults; and the shapes every part of the lint layer shares (a violation, the
two errors).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# markdownlint 0.36.1 (the engine of markdownlint-cli 0.43.0): rule -> (aliases, tags).
# MD002, MD006 and MD057 are gone from that version; MD059 and later do not exist yet.
RULES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "MD001": (("heading-increment",), ("headings",)),
    "MD003": (("heading-style",), ("headings",)),
    "MD004": (("ul-style",), ("bullet", "ul")),
    "MD005": (("list-indent",), ("bullet", "ul", "indentation")),
    "MD007": (("ul-indent",), ("bullet", "ul", "indentation")),
    "MD009": (("no-trailing-spaces",), ("whitespace",)),
    "MD010": (("no-hard-tabs",), ("whitespace", "hard_tab")),
    "MD011": (("no-reversed-links",), ("links",)),
    "MD012": (("no-multiple-blanks",), ("whitespace", "blank_lines")),
    "MD013": (("line-length",), ("line_length",)),
    "MD014": (("commands-show-output",), ("code",)),
    "MD018": (("no-missing-space-atx",), ("headings", "atx", "spaces")),
    "MD019": (("no-multiple-space-atx",), ("headings", "atx", "spaces")),
    "MD020": (("no-missing-space-closed-atx",), ("headings", "atx_closed", "spaces")),
    "MD021": (("no-multiple-space-closed-atx",), ("headings", "atx_closed", "spaces")),
    "MD022": (("blanks-around-headings",), ("headings", "blank_lines")),
    "MD023": (("heading-start-left",), ("headings", "spaces")),
    "MD024": (("no-duplicate-heading",), ("headings",)),
    "MD025": (("single-title", "single-h1"), ("headings",)),
    "MD026": (("no-trailing-punctuation",), ("headings",)),
    "MD027": (("no-multiple-space-blockquote",), ("blockquote", "whitespace", "indentation")),
    "MD028": (("no-blanks-blockquote",), ("blockquote", "whitespace")),
    "MD029": (("ol-prefix",), ("ol",)),
    "MD030": (("list-marker-space",), ("ol", "ul", "whitespace")),
    "MD031": (("blanks-around-fences",), ("code", "blank_lines")),
    "MD032": (("blanks-around-lists",), ("bullet", "ul", "ol", "blank_lines")),
    "MD033": (("no-inline-html",), ("html",)),
    "MD034": (("no-bare-urls",), ("links", "url")),
    "MD035": (("hr-style",), ("hr",)),
    "MD036": (("no-emphasis-as-heading",), ("headings", "emphasis")),
    "MD037": (("no-space-in-emphasis",), ("whitespace", "emphasis")),
    "MD038": (("no-space-in-code",), ("whitespace", "code")),
    "MD039": (("no-space-in-links",), ("whitespace", "links")),
    "MD040": (("fenced-code-language",), ("code", "language")),
    "MD041": (("first-line-heading", "first-line-h1"), ("headings",)),
    "MD042": (("no-empty-links",), ("links",)),
    "MD043": (("required-headings",), ("headings",)),
    "MD044": (("proper-names",), ("spelling",)),
    "MD045": (("no-alt-text",), ("accessibility", "images")),
    "MD046": (("code-block-style",), ("code",)),
    "MD047": (("single-trailing-newline",), ("blank_lines",)),
    "MD048": (("code-fence-style",), ("code",)),
    "MD049": (("emphasis-style",), ("emphasis",)),
    "MD050": (("strong-style",), ("emphasis",)),
    "MD051": (("link-fragments",), ("links",)),
    "MD052": (("reference-links-images",), ("images", "links")),
    "MD053": (("link-image-reference-definitions",), ("images", "links")),
    "MD054": (("link-image-style",), ("images", "links")),
    "MD055": (("table-pipe-style",), ("table",)),
    "MD056": (("table-column-count",), ("table",)),
    "MD058": (("blanks-around-tables",), ("table",)),
}
ALIAS = {rule: names[0] for rule, (names, _) in RULES.items()}
# What markdownlint prints for each rule (the same words whichever backend ran).
DESCRIPTIONS: dict[str, str] = {
    "MD001": "Heading levels should only increment by one level at a time",
    "MD003": "Heading style",
    "MD004": "Unordered list style",
    "MD005": "Inconsistent indentation for list items at the same level",
    "MD007": "Unordered list indentation",
    "MD009": "Trailing spaces",
    "MD010": "Hard tabs",
    "MD011": "Reversed link syntax",
    "MD012": "Multiple consecutive blank lines",
    "MD013": "Line length",
    "MD014": "Dollar signs used before commands without showing output",
    "MD018": "No space after hash on atx style heading",
    "MD019": "Multiple spaces after hash on atx style heading",
    "MD020": "No space inside hashes on closed atx style heading",
    "MD021": "Multiple spaces inside hashes on closed atx style heading",
    "MD022": "Headings should be surrounded by blank lines",
    "MD023": "Headings must start at the beginning of the line",
    "MD024": "Multiple headings with the same content",
    "MD025": "Multiple top-level headings in the same document",
    "MD026": "Trailing punctuation in heading",
    "MD027": "Multiple spaces after blockquote symbol",
    "MD028": "Blank line inside blockquote",
    "MD029": "Ordered list item prefix",
    "MD030": "Spaces after list markers",
    "MD031": "Fenced code blocks should be surrounded by blank lines",
    "MD032": "Lists should be surrounded by blank lines",
    "MD033": "Inline HTML",
    "MD034": "Bare URL used",
    "MD035": "Horizontal rule style",
    "MD036": "Emphasis used instead of a heading",
    "MD037": "Spaces inside emphasis markers",
    "MD038": "Spaces inside code span elements",
    "MD039": "Spaces inside link text",
    "MD040": "Fenced code blocks should have a language specified",
    "MD041": "First line in a file should be a top-level heading",
    "MD042": "No empty links",
    "MD043": "Required heading structure",
    "MD044": "Proper names should have the correct capitalization",
    "MD045": "Images should have alternate text (alt text)",
    "MD046": "Code block style",
    "MD047": "Files should end with a single newline character",
    "MD048": "Code fence style",
    "MD049": "Emphasis style",
    "MD050": "Strong style",
    "MD051": "Link fragments should be valid",
    "MD052": "Reference links and images should use a label that is defined",
    "MD053": "Link and image reference definitions should be needed",
    "MD054": "Link and image style",
    "MD055": "Table pipe style",
    "MD056": "Table column count",
    "MD058": "Tables should be surrounded by blank lines",
}

# markdownlint 0.36.1's option defaults (its configuration schema). A rule configured as
# ``true`` runs with exactly these; a configured object replaces them key by key.
DEFAULT_OPTIONS: dict[str, dict[str, Any]] = {
    "MD003": {"style": "consistent"},
    "MD004": {"style": "consistent"},
    # start_indent defaults to indent (markdownlint: ``start_indent || indent``).
    "MD007": {"indent": 2, "start_indented": False},
    "MD009": {"br_spaces": 2, "list_item_empty_lines": False, "strict": False},
    "MD010": {"code_blocks": True, "ignore_code_languages": [], "spaces_per_tab": 1},
    "MD012": {"maximum": 1},
    # heading_line_length and code_block_line_length default to line_length (not to 80).
    "MD013": {
        "line_length": 80,
        "code_blocks": True,
        "tables": True,
        "headings": True,
        "strict": False,
        "stern": False,
    },
    "MD022": {"lines_above": 1, "lines_below": 1},
    "MD024": {"siblings_only": False},
    # MD025 and MD041: front_matter_title unset means markdownlint's own pattern.
    "MD025": {"level": 1},
    "MD026": {"punctuation": ".,;:!\u3002\uff0c\uff1b\uff1a\uff01"},
    "MD029": {"style": "one_or_ordered"},
    "MD030": {"ul_single": 1, "ol_single": 1, "ul_multi": 1, "ol_multi": 1},
    "MD031": {"list_items": True},
    "MD033": {"allowed_elements": []},
    "MD035": {"style": "consistent"},
    "MD036": {"punctuation": ".,;:!?\u3002\uff0c\uff1b\uff1a\uff01\uff1f"},
    "MD040": {"allowed_languages": [], "language_only": False},
    "MD041": {"level": 1},
    "MD043": {"match_case": False},  # headings unset: the rule checks nothing
    "MD044": {"names": [], "code_blocks": True, "html_elements": True},
    "MD046": {"style": "consistent"},
    "MD048": {"style": "consistent"},
    "MD049": {"style": "consistent"},
    "MD050": {"style": "consistent"},
    "MD051": {"ignore_case": False},
    "MD052": {"shortcut_syntax": False},
    "MD053": {"ignored_definitions": ["//"]},
    "MD054": {
        "autolink": True,
        "inline": True,
        "full": True,
        "collapsed": True,
        "shortcut": True,
        "url_inline": True,
    },
    "MD055": {"style": "consistent"},
}


class LintError(Exception):
    """The linter cannot run (not installed, crashed, unreadable output)."""


class ConfigError(LintError):
    """A markdownlint configuration file cannot be read or understood."""


@dataclass(frozen=True)
class Violation:
    """One lint error at a file line, named as markdownlint names it."""

    line: int
    rule: str
    alias: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {"line": self.line, "rule": self.rule, "alias": self.alias, "message": self.message}
