"""The lint layer behind gate 12: markdownlint's rules, its configuration, two engines.

The blog's CI runs markdownlint-cli 0.43.0 (markdownlint 0.36.1) over the posts with the
repository's ``.markdownlint.json``. A post that passes locally must pass there, so this
module reproduces what that run would report, with one of two engines:

``markdownlint-cli``
    The real thing through Node: exact parity by construction. Found as a configured
    command, ``markdownlint`` on PATH or in the ``node_modules/.bin`` folder of the posts'
    repository root (never in a folder above the repository, nor anywhere for a post in
    no repository), or, when asked for by name only, ``npx --no-install markdownlint``.
    The terminal header names the program that runs.
``rumdl``
    A Rust markdownlint-compatible linter shipped as a Python wheel (a dependency, so it is
    always there) and many times faster (``bench/markdownlint_parity.py`` measures both the
    speed and the agreement). It has more rules than markdownlint and other defaults, so it
    never reads the markdownlint configuration itself. Reconciliation, rule by rule where
    the parity runs found a difference:

    - configuration: resolved here with markdownlint's own semantics (``default``, rule
      ids, aliases and tags in any case, ``extends``, an object replacing the defaults)
      and handed to rumdl as an explicit TOML file enabling exactly the rules markdownlint
      0.36.1 runs, each with markdownlint's option values spelt out (several of rumdl's
      defaults differ: MD010 code blocks, MD024 siblings, MD044 code blocks, MD051 case,
      MD053 ``//``, MD001 front matter title, MD007 indentation style);
    - findings of rules markdownlint does not have are dropped, and so are rumdl findings
      markdownlint never makes: cross-file link fragments (MD051), ``[][]`` as an empty
      link (MD042), table rules on rows under a delimiter row that makes no GFM table
      (MD055/MD056); MD013 runs in rumdl's widest mode and each reported line is kept only
      if markdownlint's own test (UTF-16 length, whitespace beyond the limit, link-only
      lines, definitions) says so;
    - rules whose algorithm differs beyond any option (MD004, MD024 with siblings_only,
      MD029, MD036, MD046, MD048; see :data:`NATIVE_RULES`) are evaluated here with
      markdownlint's algorithm on markdown-it tokens, in the files where rumdl (or a text
      test) says the rule may fire; two gaps of rumdl's are filled the same way (MD033 for
      component tags such as ``<Tabs>``, MD032 where a new bullet marker starts a list);
    - a file with bare CR line ends is linted from an LF copy (rumdl does not split there).

The ``auto`` backend (the default) uses markdownlint-cli when one is installed, because
the CI verdict is the one that counts and Node is only there when someone put it there, and
rumdl otherwise. Either way the linter runs once per test run over every collected post:
one process per distinct configuration (posts of one folder share theirs), never one per
post. Results are plain JSON data so that xdist workers can share them through a file.

Configuration is found the way markdownlint-cli2 finds it: from the post's folder upward to
the repository root, the first folder with ``.markdownlint-cli2.jsonc``/``.yaml`` (its
``config`` key) or ``.markdownlint.jsonc``/``.json``/``.yaml``/``.yml`` wins; no file means
markdownlint's defaults (every rule on). Front matter is skipped by both engines and line
numbers stay the lines of the file.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib
from markdown_it import MarkdownIt
from markdown_it.token import Token

from pytest_postgates.post import MAX_POST_BYTES
from pytest_postgates.tools.lint.rules import (
    md001,
    md003,
    md022,
    md023,
    md030,
    md032,
    md047,
    md049,
    md050,
    md056,
)

BACKEND_SETTINGS = ("auto", "rumdl", "markdownlint-cli")
MARKDOWNLINT_CLI_PIN = "0.43.0"  # what the blog's CI pins; bench/markdownlint_parity.py
TIMEOUT_SECONDS = 600
# Keep a command line well under every platform's limit; a larger corpus is linted in a
# few large chunks, which is still a handful of processes per run.
MAX_ARGUMENT_CHARS = 100_000

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

# rumdl settings that make a rule behave as markdownlint 0.36.1's does where rumdl's own
# default differs or where rumdl has an extension markdownlint lacks.
RUMDL_FIXED: dict[str, dict[str, Any]] = {
    # markdownlint counts nesting levels times ``indent``; rumdl aligns with the parent's text.
    "MD007": {"style": "fixed"},
    # markdownlint 0.36.1's MD001 does not treat a front matter title as a level-1 heading.
    "MD001": {"front-matter-title": False},
    # markdownlint compares heading text only; link targets do not make headings different.
    "MD024": {"allow-different-link-anchors": False},
}

# markdownlint options rumdl has no equivalent for (it would warn about them on every run).
# MD040 language_only (an info string of the language alone) stays a known difference.
RUMDL_UNKNOWN_OPTIONS = frozenset({("MD040", "language_only")})

# Where the markdownlint configuration of a post is looked for, in order, in each folder
# from the post's own up to the repository root (markdownlint-cli2's list without the
# JavaScript forms, which only Node can evaluate).
CLI2_CONFIG_NAMES = (".markdownlint-cli2.jsonc", ".markdownlint-cli2.yaml")
CONFIG_NAMES = (
    ".markdownlint.jsonc",
    ".markdownlint.json",
    ".markdownlint.yaml",
    ".markdownlint.yml",
)

_RUMDL_VERSION = re.compile(r"rumdl\s+(\S+)")
_SEMVER = re.compile(r"\d+\.\d+\.\d+\S*")


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


@dataclass(frozen=True)
class Backend:
    """A linter that can run: its name, the command that starts it and its version."""

    name: str
    command: tuple[str, ...]
    version: str


# --------------------------------------------------------------------- configuration
def repo_root_of(path: Path) -> Path | None:
    """The nearest folder at or above ``path`` holding ``.git`` (a folder or a worktree
    file): where configuration discovery stops, as markdownlint-cli2 stops at its base."""
    for folder in (path, *path.parents):
        if (folder / ".git").exists():
            return folder
    return None


def find_config(post_path: Path, root: Path | None = None) -> Path | None:
    """The markdownlint configuration file markdownlint-cli2 would use for ``post_path``:
    the first found from its folder upward to ``root`` (default: its repository root, or
    the filesystem root outside a repository). A cli2 file counts only when it has a
    ``config`` key; otherwise the plain files of the same folder are tried."""
    return config_for_folder(post_path.resolve().parent, root)


def config_for_folder(start: Path, root: Path | None = None) -> Path | None:
    """:func:`find_config` for every file in the folder ``start`` (resolved)."""
    stop = (root or repo_root_of(start) or Path(start.anchor)).resolve()
    for folder in (start, *start.parents):
        for name in CLI2_CONFIG_NAMES:
            candidate = folder / name
            if candidate.is_file() and "config" in _read_config_file(candidate):
                return candidate
        for name in CONFIG_NAMES:
            candidate = folder / name
            if candidate.is_file():
                return candidate
        if folder == stop:
            break
    return None


def strip_jsonc(text: str) -> str:
    """JSON with comments and trailing commas (JSONC, as markdownlint reads it) made plain
    JSON; string contents are left alone."""
    out: list[str] = []
    index, length = 0, len(text)
    while index < length:
        char = text[index]
        if char == '"':
            end = index + 1
            while end < length and text[end] != '"':
                end += 2 if text[end] == "\\" else 1
            out.append(text[index : end + 1])
            index = end + 1
        elif text.startswith("//", index):
            newline = text.find("\n", index)
            index = length if newline < 0 else newline
        elif text.startswith("/*", index):
            close = text.find("*/", index + 2)
            index = length if close < 0 else close + 2
        else:
            out.append(char)
            index += 1
    return re.sub(r",(\s*[}\]])", r"\1", "".join(out))


def _read_config_file(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path.name}: cannot read: {exc}") from None
    try:
        if path.suffix in (".yaml", ".yml"):
            data = yaml.safe_load(text)
        else:
            data = json.loads(strip_jsonc(text))
    except (yaml.YAMLError, json.JSONDecodeError) as exc:
        raise ConfigError(f"{path.name}: not valid {path.suffix[1:].upper()}: {exc}") from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path.name}: must be an object of rule settings")
    return data


def load_config(path: Path | None, _seen: tuple[Path, ...] = ()) -> dict[str, Any]:
    """The markdownlint configuration object in ``path`` with ``extends`` resolved as
    markdownlint resolves it (relative to the file; the file's own keys win, shallowly).
    A cli2 file contributes its ``config`` key. No file: ``{}`` (markdownlint defaults)."""
    if path is None:
        return {}
    path = path.resolve()
    if path in _seen:
        raise ConfigError(f"{path.name}: 'extends' cycle")
    data = _read_config_file(path)
    if path.name.startswith(".markdownlint-cli2."):
        data = data.get("config") or {}
        if not isinstance(data, dict):
            raise ConfigError(f"{path.name}: 'config' must be an object of rule settings")
    data = dict(data)
    parent = data.pop("extends", None)
    if parent is None:
        return data
    if not isinstance(parent, str):
        raise ConfigError(f"{path.name}: 'extends' must be a path")
    target = (path.parent / parent).resolve()
    if not target.is_file():
        raise ConfigError(
            f"{path.name}: 'extends' names {parent!r}, which is not a file next to it "
            '(package names need Node: use lint_backend = "markdownlint-cli")'
        )
    return {**load_config(target, (*_seen, path)), **data}


def _rule_lookup() -> dict[str, list[str]]:
    """Upper-cased rule ids, aliases and tags -> the rules they name (markdownlint's map)."""
    lookup: dict[str, list[str]] = {}
    for rule, (aliases, tags) in RULES.items():
        for name in (rule, *aliases):
            lookup[name.upper()] = [rule]
        for tag in tags:
            lookup.setdefault(tag.upper(), []).append(rule)
    return lookup


_LOOKUP = _rule_lookup()


def effective_rules(config: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Enabled rule -> options, with markdownlint's semantics: ``default`` (any case) sets
    every rule on or off, then each key in order (rule id, alias or tag, any case) sets its
    rules to off (falsy), to default options (``true``) or to exactly the given object
    merged over the defaults; unknown keys are ignored, as markdownlint ignores them."""
    default_keys = [key for key in config if key.upper() == "DEFAULT"]
    rule_default = not default_keys or bool(config[default_keys[0]])
    state: dict[str, dict[str, Any] | None] = {rule: {} if rule_default else None for rule in RULES}
    for key, value in config.items():
        for rule in _LOOKUP.get(key.upper(), ()):
            if not value:
                state[rule] = None
            else:
                state[rule] = dict(value) if isinstance(value, Mapping) else {}
    return {
        rule: {**DEFAULT_OPTIONS.get(rule, {}), **options}
        for rule, options in state.items()
        if options is not None
    }


# ------------------------------------------------------------- rumdl configuration
def _front_matter_key(pattern: Any) -> str:
    """rumdl names the front matter key ('title'); markdownlint takes a regex such as
    ``^\\s*"?title"?\\s*[:=]``. The key is the regex's identifier; empty disables it."""
    if not isinstance(pattern, str) or not pattern.strip():
        return ""
    words = re.findall(r"[A-Za-z_][A-Za-z0-9_-]*", re.sub(r"\\[sSdDwWbB]", " ", pattern))
    return words[0] if words else "title"


def rumdl_options(rule: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """markdownlint options of one rule in rumdl's spelling, with rumdl-only settings that
    keep rumdl to markdownlint's behaviour."""
    out: dict[str, Any] = {}
    for key, value in options.items():
        if (rule, key) in RUMDL_UNKNOWN_OPTIONS:
            continue
        if key == "front_matter_title":
            out["front-matter-title"] = _front_matter_key(value)
        elif key == "style" and isinstance(value, str) and rule == "MD029":
            # rumdl only detects MD029 (markdownlint's algorithm decides); it has no "all
            # zeros" style, and "one" flags every item of such a list anyway.
            out["style"] = {"one_or_ordered": "one-or-ordered", "zero": "one"}.get(value, value)
        elif isinstance(value, (bool, int, float, str)) or (
            isinstance(value, list) and all(isinstance(item, (str, int)) for item in value)
        ):
            out[key.replace("_", "-")] = value
    out.update(RUMDL_FIXED.get(rule, {}))
    if rule == "MD013":
        # Over-report on purpose; _markdownlint_long_line keeps what markdownlint reports.
        out.update(
            {"strict": True, "stern": False, "length-mode": "bytes", "ignore-link-urls": False}
        )
    return out


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    raise TypeError(f"no TOML form for {value!r}")


def rumdl_config_text(rules: Mapping[str, Mapping[str, Any]]) -> str:
    """A complete rumdl TOML configuration running exactly ``rules`` as markdownlint would.

    ``enable`` lists every rule (an explicit list is rumdl's "only these"), so rumdl's own
    rules (MD057, MD059 and later) and anything rumdl would read from other files never run.
    """
    enabled = sorted(rules)
    lines = [
        "[global]",
        f"enable = {_toml_value(enabled)}",
        'flavor = "standard"',
        "respect-gitignore = false",
        "",
    ]
    for rule in enabled:
        options = rumdl_options(rule, rules[rule])
        if not options:
            continue
        lines.append(f"[{rule}]")
        lines.extend(f"{key} = {_toml_value(value)}" for key, value in sorted(options.items()))
        lines.append("")
    return "\n".join(lines)


# -------------------------------------------------- rules evaluated here, not by rumdl
# Rules where rumdl's algorithm differs from markdownlint 0.36.1's in ways no rumdl option
# changes (found by bench/markdownlint_parity.py and the parity tests):
#   MD004 consistent: markdownlint takes the first bullet's marker, rumdl the most common;
#         rumdl also reads a change of marker as the same list, CommonMark as a new one;
#   MD024 siblings_only: rumdl tells "siblings" by the parent heading's text, markdownlint
#         by position (a repeated "Parameters" under a second "Call Signature" is fine);
#   MD029 one_or_ordered: markdownlint expects every list to start at 1 (or 0) and decides
#         "1/1/1" or "1/2/3" from the first two items; rumdl accepts any start number and
#         decides otherwise;
#   MD036: markdownlint reports a paragraph that is one emphasis of plain text (an
#         ALL_CAPS_NAME included) unless the text holds an escape, entity, math, a
#         ``:directive``, an autolink or a "[" (markdownlint parses those as tokens);
#         rumdl skips text with underscores and reports text with such tokens;
#   MD046 consistent: markdownlint takes the first code block's style, rumdl the most
#         common one; MD048 (fence characters) likewise.
# For the rumdl backend these are evaluated here, as markdownlint's algorithm over the
# markdown-it tokens of the text markdownlint would parse (front matter removed, line
# numbers kept). rumdl still runs them, as a detector that selects the files to evaluate
# (see run_rumdl); its own findings for them are dropped. Inline ``<!-- markdownlint-...
# -->`` comments apply as in markdownlint.
NATIVE_RULES = (
    "MD004",
    "MD005",
    "MD007",
    "MD009",
    "MD010",
    "MD013",
    "MD014",
    "MD018",
    "MD019",
    "MD020",
    "MD021",
    "MD024",
    "MD025",
    "MD027",
    "MD029",
    "MD031",
    "MD035",
    "MD036",
    "MD037",
    "MD038",
    "MD040",
    "MD041",
    "MD043",
    "MD046",
    "MD048",
    "MD055",
)
# Native rules computed for every file where their cheap text test passes, rumdl not
# running them at all (it is no detector for them: MD005 flags right-aligned ordered
# numbers, MD013 reads tables and code otherwise, MD036 is not run by rumdl, MD009/MD010
# read HTML comments, and so on: bench/markdownlint_parity.py --suite has each). The rest
# use rumdl's findings as the detector that selects the files to evaluate.
ALWAYS_NATIVE = frozenset(NATIVE_RULES) - {"MD004", "MD024", "MD029", "MD046", "MD048"}

# Block structure is all these rules need: skipping inline parsing halves the cost.
_PARSER = MarkdownIt("commonmark").enable(["table"]).disable(["inline", "text_join"])
# MD036 parses one paragraph's inline content; escapes and entities stay tokens of their
# own (no text_join), as in micromark.
_INLINE_PARSER = MarkdownIt("commonmark").disable(["text_join"])
_LINE_BREAK = re.compile(r"\r\n?|\n")
_BARE_CR = re.compile(rb"\r(?!\n)")
_INLINE_COMMENT = re.compile(
    r"(<!--\s*markdownlint-(disable|enable|capture|restore|disable-file|enable-file|"
    r"disable-line|disable-next-line|configure-file))(?:\s|-->)",
    re.IGNORECASE,
)
# markdownlint's front matter: YAML ``---``, TOML ``+++`` (closed by ``+++`` or ``...``)
# or JSON ``{``, opening the file; the closing line may be followed by blank lines, which
# count as front matter too (its regex ends in ``\s*``).
_FRONT_MATTER = (
    (re.compile(r"---[^\S\n\u2028\u2029]*"), re.compile(r"---\s*")),
    (re.compile(r"\+\+\+[^\S\n\u2028\u2029]*"), re.compile(r"(?:\+\+\+|\.\.\.)\s*")),
    (re.compile(r"\{[^\S\n\u2028\u2029]*"), re.compile(r"\}\s*")),
)
_LIST_STYLE_EXAMPLE = {"one": "1/1/1", "ordered": "1/2/3", "zero": "0/0/0"}


def markdownlint_lines(text: str) -> tuple[list[str], int]:
    """The lines markdownlint lints (BOM and front matter removed) and how many file lines
    the front matter took: add it to a line index to get the file line."""
    return _without_front_matter(_LINE_BREAK.split(text.removeprefix("\ufeff")))


def _without_front_matter(lines: list[str]) -> tuple[list[str], int]:
    for opening, closing in _FRONT_MATTER:
        if not lines or not opening.fullmatch(lines[0]):
            continue
        close = next((i for i in range(1, len(lines)) if closing.fullmatch(lines[i])), None)
        if close is None:
            continue
        end = close
        while end + 1 < len(lines) and not lines[end + 1].strip():
            end += 1
        if end == len(lines) - 1 and lines[end] == "" and end > close:
            end -= 1  # the file's final line break ends the text, not a blank line
        return lines[end + 1 :], end + 1
    return lines, 0


def _apply_inline(
    state: dict[str, bool], action: str, names: frozenset[str] | None
) -> dict[str, bool]:
    """``state`` after an enable/disable comment naming ``names`` (None: every rule)."""
    state = dict(state)
    enabled = action.startswith("ENABLE")
    for rule in RULES if names is None else names:
        state[rule] = enabled
    return state


def _rules_named(words: str) -> set[str]:
    """The rules that whitespace-separated rule ids, aliases and tags name."""
    return {rule for name in words.upper().split() for rule in _LOOKUP.get(name, ())}


def _parse_inline_config(parameter: str) -> Any:
    """A configure-file comment's object, parsed as markdownlint-cli parses it: JSONC,
    then TOML, then YAML; the first that gives a value wins (None: none did)."""
    try:
        return json.loads(strip_jsonc(parameter))
    except json.JSONDecodeError:
        pass
    try:
        parsed: Any = tomllib.loads(parameter)
        if parsed:
            return parsed
    except (tomllib.TOMLDecodeError, ValueError):
        pass
    try:
        return yaml.safe_load(parameter)
    except yaml.YAMLError:
        return None


@dataclass(frozen=True)
class _Comment:
    """One inline configuration comment: its line index and action, the rules its
    parameter names (None: none named, so every rule), and the parameter itself, or None
    when it runs on over later comments to a shared ``-->`` (never a configuration)."""

    index: int
    action: str
    names: frozenset[str] | None
    parameter: str | None


class _CommentScanner:
    """markdownlint's scan for inline comments, quirks included: one global regex whose
    ``lastIndex`` survives a ``break`` (a comment without ``-->`` on its line) into the
    next line and the next pass, as ``RegExp.prototype.exec`` keeps it.

    Linear in the line: comments whose parameters end at one ``-->`` share a suffix, so
    each one's rule names are its own words joined to the next one's set (markdownlint
    splits every parameter afresh, quadratic on a line of many unclosed comments)."""

    def __init__(self) -> None:
        self.last_index = 0

    def scan(self, lines: Sequence[str]) -> list[_Comment]:
        found: list[_Comment] = []
        for index, line in enumerate(lines):
            raw: list[tuple[str, int, int]] = []  # action, parameter start, end
            closing: int | None = None
            while True:
                if self.last_index > len(line):
                    self.last_index = 0
                    break
                match = _INLINE_COMMENT.search(line, self.last_index)
                if match is None:
                    self.last_index = 0
                    break
                self.last_index = match.end()
                start = match.start() + len(match.group(1))
                # Starts only grow along a line: the "-->" found last serves until passed.
                if closing is None or 0 <= closing < start:
                    closing = line.find("-->", start)
                if closing < 0:
                    break
                raw.append((match.group(2).upper(), start, closing))
            named: list[frozenset[str] | None] = [None] * len(raw)
            later: set[str] = set()
            for position in range(len(raw) - 1, -1, -1):
                _, start, end = raw[position]
                shared = position + 1 < len(raw) and raw[position + 1][2] == end
                stop = raw[position + 1][1] if shared else end
                own = _rules_named(line[start:stop])
                later = own | later if shared else own
                empty = not shared and not line[start:end].strip()
                named[position] = None if empty else frozenset(later)
            for position, (action, start, end) in enumerate(raw):
                last = position + 1 == len(raw) or raw[position + 1][2] != end
                parameter = line[start:end] if last else None
                found.append(_Comment(index, action, named[position], parameter))
        return found


def _comments_in_line(text: str) -> list[tuple[str, str]]:
    """(action, parameter) of the inline comments of one string that can configure."""
    return [
        (comment.action, comment.parameter)
        for comment in _CommentScanner().scan([text])
        if comment.parameter is not None
    ]


def enabled_per_line(
    lines: Sequence[str],
    offset: int,
    config: Mapping[str, Any],
    rules: Mapping[str, dict[str, Any]] | None = None,
) -> tuple[Mapping[str, dict[str, Any]], dict[int, dict[str, bool]], dict[str, bool]]:
    """markdownlint's rule state per file line after inline comments: (options in force,
    state of the lines that differ from the base state, base state). ``configure-file``
    comments extend the configuration for this file. ``rules``: ``effective_rules(config)``
    when the caller has it already. Four passes as markdownlint makes them (configure-file
    over the joined text; enable-file/disable-file; the running enable/disable/capture/
    restore state; disable-line/disable-next-line), sharing one scanner."""
    text = "\n".join(lines)
    if "markdownlint-" not in text:
        options = effective_rules(config) if rules is None else rules
        return options, {}, {rule: rule in options for rule in RULES}
    scanner = _CommentScanner()
    for comment in scanner.scan([text]):
        if comment.action != "CONFIGURE-FILE" or comment.parameter is None:
            continue
        parsed = _parse_inline_config(comment.parameter)
        if isinstance(parsed, dict):
            config = {**config, **parsed}
    options = effective_rules(config)
    state = {rule: rule in options for rule in RULES}
    for comment in scanner.scan(lines):
        if comment.action in ("ENABLE-FILE", "DISABLE-FILE"):
            state = _apply_inline(state, comment.action, comment.names)
    captured = state
    per_line: dict[int, dict[str, bool]] = {}
    by_line: dict[int, list[_Comment]] = {}
    for comment in scanner.scan(lines):
        by_line.setdefault(comment.index, []).append(comment)
    for index in range(len(lines)):
        for comment in by_line.get(index, ()):
            if comment.action == "CAPTURE":
                captured = state
            elif comment.action == "RESTORE":
                state = captured
            elif comment.action in ("ENABLE", "DISABLE"):
                state = _apply_inline(state, comment.action, comment.names)
        per_line[offset + index + 1] = state
    for comment in scanner.scan(lines):
        if comment.action in ("DISABLE-LINE", "DISABLE-NEXT-LINE"):
            target = offset + comment.index + 1 + (comment.action == "DISABLE-NEXT-LINE")
            per_line[target] = _apply_inline(
                per_line.get(target, {}), comment.action, comment.names
            )
    return options, per_line, {}


def _after(tokens: Sequence[Token], index: int) -> Iterable[Token]:
    """The tokens after ``index``, without copying the list."""
    return (tokens[position] for position in range(index + 1, len(tokens)))


_MARKER_STYLE = {"-": "dash", "+": "plus", "*": "asterisk"}
_NEXT_STYLE = {"dash": "plus", "plus": "asterisk", "asterisk": "dash"}
_UL_STYLES = frozenset({"asterisk", "consistent", "dash", "plus", "sublist"})


def _md004(tokens: Sequence[Token], options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    style = str(options.get("style") or "consistent")
    expected = style if style in _UL_STYLES else "dash"
    nesting_styles: dict[int, str] = {}
    open_lists = 0
    for index, token in enumerate(tokens):
        if token.type in ("bullet_list_close", "ordered_list_close"):
            open_lists -= 1
            continue
        if token.type == "ordered_list_open":
            open_lists += 1
            continue
        if token.type != "bullet_list_open":
            continue
        nesting = open_lists
        open_lists += 1
        for inner in _after(tokens, index):
            if inner.type == "bullet_list_close" and inner.level == token.level:
                break
            if inner.type != "list_item_open" or inner.level != token.level + 1:
                continue
            actual = _MARKER_STYLE.get(inner.markup, "dash")
            if style == "sublist":
                if nesting not in nesting_styles:
                    above = nesting_styles.get(nesting - 1)
                    nesting_styles[nesting] = _NEXT_STYLE[actual] if actual == above else actual
                expected = nesting_styles[nesting]
            elif expected == "consistent":
                expected = actual
            if actual != expected and inner.map is not None:
                yield (
                    inner.map[0],
                    f"Unordered list style [Expected: {expected}; Actual: {actual}]",
                )


def _md024(tokens: Sequence[Token], options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    siblings_only = bool(options.get("siblings_only"))
    known: dict[int, list[str]] = {1: []}
    last_level = 1
    seen = known[1]
    for index, token in enumerate(tokens):
        if token.type != "heading_open" or token.map is None:
            continue
        inline = tokens[index + 1]
        text = re.sub(r"[\r\n]+", " ", inline.content) if inline.type == "inline" else ""
        if siblings_only:
            level = int(token.tag[1])
            while last_level < level:
                last_level += 1
                known[last_level] = []
            while last_level > level:
                known[last_level] = []
                last_level -= 1
            seen = known[level]
        if text in seen:
            yield (
                token.map[0],
                f'Multiple headings with the same content [Context: "{text.strip()}"]',
            )
        else:
            seen.append(text)


def _md029(tokens: Sequence[Token], options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    style = str(options.get("style") or "one_or_ordered")
    for index, token in enumerate(tokens):
        if token.type != "ordered_list_open":
            continue
        items: list[Token] = []
        for inner in _after(tokens, index):
            if inner.type == "ordered_list_close" and inner.level == token.level:
                break
            if inner.type == "list_item_open" and inner.level == token.level + 1:
                items.append(inner)
        values = [int(item.info) if item.info.isdigit() else 0 for item in items]
        expected = 1
        incrementing = False
        if len(values) >= 2 and (values[1] != 1 or values[0] == 0):
            incrementing = True
            if values[0] == 0:
                expected = 0
        list_style = style
        if list_style == "one_or_ordered":
            list_style = "ordered" if incrementing else "one"
        elif list_style == "zero":
            expected = 0
        elif list_style == "one":
            expected = 1
        for item, actual in zip(items, values, strict=True):
            if actual != expected and item.map is not None:
                example = _LIST_STYLE_EXAMPLE.get(list_style, list_style)
                yield (
                    item.map[0],
                    f"Ordered list item prefix [Expected: {expected}; Actual: {actual}; "
                    f"Style: {example}]",
                )
            if list_style == "ordered":
                expected += 1


def _md046(tokens: Sequence[Token], options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    expected = str(options.get("style") or "consistent")
    for token in tokens:
        if token.type not in ("fence", "code_block") or token.map is None:
            continue
        actual = "fenced" if token.type == "fence" else "indented"
        if expected == "consistent":
            expected = actual
        if actual != expected:
            yield token.map[0], f"Code block style [Expected: {expected}; Actual: {actual}]"


def _md048(tokens: Sequence[Token], options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    expected = str(options.get("style") or "consistent")
    for token in tokens:
        if token.type != "fence" or token.map is None:
            continue
        actual = "tilde" if token.markup.startswith("~") else "backtick"
        if expected == "consistent":
            expected = actual
        if actual != expected:
            yield token.map[0], f"Code fence style [Expected: {expected}; Actual: {actual}]"


# Inside emphasis, what micromark (with markdownlint's extensions) parses as tokens other
# than plain text: escapes, character references, math, text directives, GFM autolinks,
# and any "[" (a label start, even one that never becomes a link).
_NOT_PLAIN_TEXT = re.compile(
    r"\\[!-/:-@\[-`{-~]|&(?:#\d+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);|\$[^$]*\$"
    r"|(?<![:\\]):[A-Za-z]|www\.|https?://|[\w.+-]+@[\w-]+\.\w|\["
)
_ALL_PUNCTUATION = ".,;:!?\u3002\uff0c\uff1b\uff1a\uff01\uff1f"
_EMPHASIS_WRAP = re.compile(r"^(\*\*?|__?)\S.*\1$")


def _md036(tokens: Sequence[Token], options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    punctuation = options.get("punctuation")
    punctuation = _ALL_PUNCTUATION if punctuation is None else str(punctuation)
    for index, token in enumerate(tokens):
        if token.type != "paragraph_open" or token.level != 0 or token.map is None:
            continue
        content = tokens[index + 1].content
        # One line that is wholly one emphasis: only then can the paragraph's one child be
        # an emphasis holding one piece of text. Its inline parse is a one-line affair.
        if "\n" in content or not _EMPHASIS_WRAP.match(content):
            continue
        children = [
            child
            for child in _INLINE_PARSER.parseInline(content)[0].children or ()
            if child.type != "text" or child.content
        ]
        if len(children) != 3 or children[0].type not in ("em_open", "strong_open"):
            continue
        text = children[1]
        if text.type != "text" or _NOT_PLAIN_TEXT.search(text.content):
            continue
        if punctuation and text.content[-1:] in punctuation:
            continue
        yield token.map[0], f'Emphasis used instead of a heading [Context: "{text.content}"]'


_STARTS_WITH_PIPE = re.compile(r"^ *\|")


def clear_html_comment_text(text: str) -> str:
    """markdownlint's ``clearHtmlCommentText``: the content of each valid HTML comment
    with every character but space and line breaks made ".", and spaces before a line
    break too (the lines its rules read; tokens come from the text before this). A
    comment is valid on a line of its own, or, inline, unless it spans table cells,
    starts with ">" or "->", ends with "-" or holds "--". Linear (pieces, not rebuilds)."""
    pieces: list[str] = []
    copied = 0
    index = 0
    while True:
        start = text.find("<!--", index)
        if start < 0:
            break
        end = text.find("-->", start + 2)
        if end < 0:
            break  # an unterminated comment is text
        if end > start + 4:
            content = text[start + 4 : end]
            line_start = text.rfind("\n", 0, start) + 1
            before = text[line_start:start]
            block = not before.strip()
            spans_cells = bool(_STARTS_WITH_PIPE.match(before)) and "\n" in content
            valid = block or not (
                spans_cells
                or content.startswith((">", "->"))
                or content.endswith("-")
                or "--" in content
            )
            if valid:
                cleared = re.sub(r"[^ \r\n]", ".", content)
                cleared = re.sub(r" +(?=[\r\n])", lambda m: "." * len(m.group(0)), cleared)
                pieces.append(text[copied : start + 4])
                pieces.append(cleared)
                copied = end
        index = end + 3
    pieces.append(text[copied:])
    return "".join(pieces)


class _Document:
    """What markdownlint's rules read: the lines (front matter removed, HTML comment
    content cleared) and, parsed only when a rule asks, the block tokens of the text
    before clearing."""

    def __init__(self, lines: Sequence[str], front_matter: Sequence[str] = ()) -> None:
        self.front_matter = front_matter
        self.raw_lines = lines
        joined = "\n".join(lines)
        self._text = joined
        self.lines: Sequence[str] = (
            clear_html_comment_text(joined).split("\n") if "<!--" in joined else lines
        )
        self._tokens: list[Token] | None = None
        self._columns: dict[int, tuple[int, int, str]] | None = None

    @property
    def tokens(self) -> list[Token]:
        if self._tokens is None:
            self._tokens = _PARSER.parse(self._text)
        return self._tokens


def _utf16_length(line: str) -> int:
    """The line's length as JavaScript counts it (UTF-16 code units)."""
    return len(line) if line.isascii() else len(line.encode("utf-16-le")) // 2


def _beyond(line: str, limit: int) -> str:
    """What follows the first ``limit`` UTF-16 code units of ``line``."""
    if line.isascii():
        return line[limit:]
    units = 0
    for index, char in enumerate(line):
        if units >= limit:
            return line[index:]
        units += 2 if ord(char) > 0xFFFF else 1
    return ""


def _line_ranges(tokens: Sequence[Token], types: Iterable[str]) -> set[int]:
    wanted = set(types)
    found: set[int] = set()
    for token in tokens:
        if token.type in wanted and token.map is not None:
            found.update(range(token.map[0], token.map[1]))
    return found


def _md013(document: _Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    """markdownlint's MD013: a line longer (in UTF-16 units) than the limit for its kind
    (code block, heading, other), with whitespace beyond the limit unless strict or stern;
    tables, code blocks and headings exempt where their option is false; link reference
    definitions exempt; unless strict, lines of links only (and, stern, lines of one word)
    exempt."""

    def number(key: str, default: int) -> int:
        value = options.get(key)
        try:
            return int(value) if value else default
        except (TypeError, ValueError):
            return default

    line_length = number("line_length", 80)
    heading_length = number("heading_line_length", line_length)
    code_length = number("code_block_line_length", line_length)
    strict = bool(options.get("strict"))
    stern = bool(options.get("stern"))

    def included(key: str) -> bool:
        value = options.get(key)
        return True if value is None else bool(value)

    include_code, include_tables = included("code_blocks"), included("tables")
    include_headings = included("headings")
    lines = document.lines
    shortest = min(line_length, heading_length, code_length)
    candidates = [i for i, line in enumerate(lines) if _utf16_length(line) > shortest]
    if not candidates:
        return
    plain = (
        line_length == heading_length == code_length
        and include_code
        and include_tables
        and include_headings
    )
    headings = code = tables = frozenset()
    if not plain:
        tokens = document.tokens
        headings = _line_ranges(tokens, ("heading_open",))
        code = _line_ranges(tokens, ("fence", "code_block"))
        tables = _line_ranges(tokens, ("table_open",))
    definitions: set[int] | None = None
    for index in candidates:
        line = lines[index]
        in_code, is_heading = index in code, index in headings
        if (not include_code and in_code) or (not include_tables and index in tables):
            continue
        if not include_headings and is_heading:
            continue
        limit = code_length if in_code else heading_length if is_heading else line_length
        rest = _beyond(line, limit)
        if not rest or (not (strict or stern) and not re.search(r"\s", rest)):
            continue
        if definitions is None:
            definitions = _definition_lines(lines)
        if index in definitions:
            continue
        if not strict and ((stern and _STERN_EXEMPT.match(line)) or _link_only(line)):
            continue
        yield index, f"Line length [Expected: {limit}; Actual: {_utf16_length(line)}]"


_MARKER_AT = {
    "bullet": re.compile(r"(?:[ \t]|>)*([*+-])(?=[ \t]|$)"),
    "ordered": re.compile(r"(?:[ \t]|>)*(\d{1,9}[.)])(?=[ \t]|$)"),
}


def _marker_columns(document: _Document) -> dict[int, tuple[int, int, str]]:
    if document._columns is None:
        document._columns = _find_marker_columns(document)
    return document._columns


def _find_marker_columns(document: _Document) -> dict[int, tuple[int, int, str]]:
    """id(list_item_open token) -> (file-relative line index, 0-based column of its marker
    as micromark counts it (tabs to 4-column stops), marker text). Items that start on one
    line (``- - x``) are found left to right after each other."""
    consumed: dict[int, int] = {}
    found: dict[int, tuple[int, int, str]] = {}
    kinds: list[str] = []
    for token in document.tokens:
        if token.type in ("bullet_list_open", "ordered_list_open"):
            kinds.append("bullet" if token.type == "bullet_list_open" else "ordered")
        elif token.type in ("bullet_list_close", "ordered_list_close"):
            kinds.pop()
        elif token.type == "list_item_open" and token.map is not None and kinds:
            index = token.map[0]
            line = document.lines[index] if index < len(document.lines) else ""
            match = _MARKER_AT[kinds[-1]].match(line, consumed.get(index, 0))
            if match is None:
                continue
            consumed[index] = match.end()
            column = len(line[: match.start(1)].expandtabs(4))
            found[id(token)] = (index, column, match.group(1))
    return found


def _md005(document: _Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    """markdownlint's MD005: every item of a bullet list at its first item's column; an
    ordered list's items at the first one's column, or (once one is not) all with their
    markers ending where the first one's ends (right-aligned numbers)."""
    columns = _marker_columns(document)
    tokens = document.tokens
    for position, token in enumerate(tokens):
        if token.type not in ("bullet_list_open", "ordered_list_open"):
            continue
        items = []
        for inner in _after(tokens, position):
            if inner.type == token.type.replace("_open", "_close") and inner.level == token.level:
                break
            nested = inner.level == token.level + 1
            if inner.type == "list_item_open" and nested and id(inner) in columns:
                items.append(columns[id(inner)])
        if not items:
            continue
        expected_indent = items[0][1]
        expected_end = 0
        end_matching = False
        for index, actual_indent, marker in items:
            if token.type == "bullet_list_open":
                if actual_indent != expected_indent:
                    yield (
                        index,
                        (
                            "Inconsistent indentation for list items at the same level "
                            f"[Expected: {expected_indent}; Actual: {actual_indent}]"
                        ),
                    )
                continue
            actual_end = actual_indent + 1 + len(marker) - 1
            expected_end = expected_end or actual_end
            if expected_indent != actual_indent or end_matching:
                if expected_end == actual_end:
                    end_matching = True
                else:
                    detail = (
                        f"Expected: ({expected_end}); Actual: ({actual_end})"
                        if end_matching
                        else f"Expected: {expected_indent}; Actual: {actual_indent}"
                    )
                    yield (
                        index,
                        (f"Inconsistent indentation for list items at the same level [{detail}]"),
                    )


def _break_text(line: str) -> str:
    """A thematic break's text as micromark takes it: from its first marker to its last,
    after any container prefix or list marker on the line (``> - * * *`` -> ``* * *``)."""
    stripped = line.rstrip()
    if not stripped:
        return ""
    char = stripped[-1]
    start = len(stripped)
    while start > 0 and stripped[start - 1] in (char, " ", "\t"):
        start -= 1
    return stripped[start:].strip()


def _maybe_break(text: str) -> bool:
    return text[-1:] in ("*", "-", "_") and len(text.replace(" ", "").replace("\t", "")) >= 3


def _md035(document: _Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    """markdownlint's MD035: every thematic break's text as the configured one (or the
    first one's), wherever the break sits (lists and blockquotes included)."""
    style = str(options.get("style") or "consistent").strip()
    for token in document.tokens:
        if token.type != "hr" or token.map is None:
            continue
        text = _break_text(document.lines[token.map[0]])
        if style == "consistent":
            style = text
        if text != style:
            yield token.map[0], f"Horizontal rule style [Expected: {style}; Actual: {text}]"


def _pipes(line: str) -> tuple[bool, bool]:
    row = _QUOTE_PREFIX.sub("", line).strip()
    return row.startswith("|"), row.endswith("|") and not row.endswith("\\|")


_PIPE_STYLES = {
    (True, True): "leading_and_trailing",
    (True, False): "leading_only",
    (False, True): "trailing_only",
    (False, False): "no_leading_or_trailing",
}


def _md055(document: _Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    """markdownlint's MD055: every table row (delimiter rows too) with the configured
    leading/trailing pipes, or, "consistent", with the document's first row's."""
    style = str(options.get("style") or "consistent")
    leading = style not in ("no_leading_or_trailing", "trailing_only")
    trailing = style not in ("no_leading_or_trailing", "leading_only")
    rows: list[int] = []
    header = -1
    ended = False
    for token in document.tokens:
        if token.type == "table_open" and token.map is not None:
            header = token.map[0]
            ended = False
            rows.extend((header, header + 1))  # the header row, then the delimiter row
        elif token.type == "tr_open" and token.map is not None and token.map[0] != header:
            line = document.lines[token.map[0]] if token.map[0] < len(document.lines) else ""
            # A ":::" directive (markdownlint's micromark has the extension) ends the
            # table; markdown-it reads it, and what follows, as rows.
            ended = ended or _QUOTE_PREFIX.sub("", line).startswith(":::")
            if not ended:
                rows.append(token.map[0])
    for index in rows:
        if index >= len(document.lines):
            continue
        actual = _pipes(document.lines[index])
        if style == "consistent":
            style = _PIPE_STYLES[actual]
            leading, trailing = actual
        for want, got, side in ((leading, actual[0], "leading"), (trailing, actual[1], "trailing")):
            if want != got:
                detail = f"{'Missing' if want else 'Unexpected'} {side} pipe"
                yield (
                    index,
                    (
                        f"Table pipe style [Expected: {style}; Actual: {_PIPE_STYLES[actual]}; "
                        f"{detail}]"
                    ),
                )


def _block_lines(tokens: Sequence[Token], types: Iterable[str]) -> set[int]:
    return _line_ranges(tokens, types)


# JavaScript's \s (Python's str.strip() differs: it strips \x1c-\x1f, keeps \ufeff).
_JS_SPACE = (
    " \t\n\r\f\v\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def _md018(document: _Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    """markdownlint's MD018, line by line outside code and HTML blocks: ``#`` then
    anything but a blank or ``#``, on a line not ending in ``#``."""
    lines = document.lines
    candidates = [
        i
        for i, line in enumerate(lines)
        if line.startswith("#")
        and line.lstrip("#")[:1] not in ("", " ", "\t")
        and not line.rstrip(_JS_SPACE).endswith("#")
        and not line.startswith("#\ufe0f\u20e3")
    ]
    if not candidates:
        return
    ignored = _block_lines(document.tokens, ("fence", "code_block", "html_block"))
    for index in candidates:
        if index not in ignored:
            yield (
                index,
                f'No space after hash on atx style heading [Context: "{lines[index].strip()}"]',
            )


def _closed_atx(line: str) -> tuple[str, str, bool] | None:
    """markdownlint's MD020 pattern, linear: (left blanks, right blanks, escaped closing)
    of a closed-looking ATX line (``#...`` content without ``#`` ``#...``), else None."""
    if not line.startswith("#"):
        return None
    text = line.rstrip(_JS_SPACE)
    closing = len(text) - len(text.rstrip("#"))
    if closing == 0:
        return None
    start = len(text) - closing
    escaped = start > 0 and text[start - 1] == "\\"
    if escaped and closing < 2:
        return None
    middle_end = start - 1 if escaped else start
    opening = len(text) - len(text.lstrip("#"))
    if opening >= middle_end:
        return None
    middle = text[opening:middle_end]
    content = middle.strip(" \t")
    if not content or "#" in content or content.endswith("\\"):
        return None
    left = middle[: len(middle) - len(middle.lstrip(" \t"))]
    right = middle[len(middle.rstrip(" \t")) :]
    return left, right, escaped


def _md020(document: _Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    lines = document.lines
    candidates = []
    for index, line in enumerate(lines):
        shape = _closed_atx(line)
        if shape is not None and (not shape[0] or not shape[1] or shape[2]):
            candidates.append(index)
    if not candidates:
        return
    ignored = _block_lines(document.tokens, ("fence", "code_block", "html_block"))
    for index in candidates:
        if index not in ignored:
            yield (
                index,
                (
                    "No space inside hashes on closed atx style heading "
                    f'[Context: "{lines[index].strip()}"]'
                ),
            )


_HEADING_START = re.compile(r"[ \t>]*(?:(?:[*+-]|\d{1,9}[.)])[ \t]+)*(?=#)")


def _atx_parts(line: str) -> tuple[str, str, bool] | None:
    """(blanks after the opening hashes, blanks before the closing ones, closed) of an
    ATX heading line (container prefixes skipped); None without content."""
    start = _HEADING_START.match(line)
    rest = line[start.end() :] if start else line.lstrip()
    text = rest.rstrip(" \t")
    opening = len(text) - len(text.lstrip("#"))
    body = text[opening:]
    after = body[: len(body) - len(body.lstrip(" \t"))]
    content = body[len(after) :]
    if not content:
        # An empty heading: its trailing blanks are the whitespace after the hashes.
        trailing = rest[opening:]
        return trailing[: len(trailing) - len(trailing.lstrip(" \t"))], "", False
    stripped = content.rstrip("#")
    closed = len(stripped) < len(content) and stripped[-1:] in (" ", "\t")
    before = ""
    if closed:
        before = stripped[len(stripped.rstrip(" \t")) :]
        if not stripped.strip(" \t"):
            return None
    return after, before, closed


def _md019_md021(document: _Document, closed_rule: bool) -> Iterable[tuple[int, str]]:
    for token in document.tokens:
        if token.type != "heading_open" or not token.markup.startswith("#") or not token.map:
            continue
        line = document.lines[token.map[0]]
        parts = _atx_parts(line)
        if parts is None or parts[2] != closed_rule:
            continue
        after, before, _ = parts
        if len(after) > 1 or (closed_rule and len(before) > 1):
            name = "inside hashes on closed atx" if closed_rule else "after hash on atx"
            yield token.map[0], f'Multiple spaces {name} style heading [Context: "{line.strip()}"]'


def _md019(document: _Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    return _md019_md021(document, False)


def _md021(document: _Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    return _md019_md021(document, True)


_DOLLAR_COMMAND = re.compile(r"^(\s*)(\$\s+)")


def _md014(document: _Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    """markdownlint's MD014: a code block (fenced, any language, or indented) whose every
    non-blank line starts with ``$`` and a blank."""
    for token in document.tokens:
        if token.type not in ("fence", "code_block") or token.map is None:
            continue
        first = token.map[0] + (1 if token.type == "fence" else 0)
        values = [
            (first + offset, line)
            for offset, line in enumerate(token.content.split("\n"))
            if line.strip()
        ]
        if values and all(_DOLLAR_COMMAND.match(line) for _, line in values):
            for index, line in values:
                yield (
                    index,
                    (
                        "Dollar signs used before commands without showing output "
                        f'[Context: "{line}"]'
                    ),
                )


def _md007(document: _Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    """markdownlint's MD007: a bullet item's marker at ``nesting * indent`` (plus
    ``start_indent`` when ``start_indented``) from its line's last blockquote prefix,
    nesting counted over bullet lists up to the nearest blockquote; bullet lists inside an
    ordered list are not checked."""

    def number(key: str, default: int) -> int:
        try:
            return int(options.get(key) or default)
        except (TypeError, ValueError):
            return default

    indent = number("indent", 2)
    start = number("start_indent", indent) if options.get("start_indented") else 0
    columns = _marker_columns(document)
    stack: list[str] = []  # open containers: "ul", "ol", "bq"
    nesting_of: list[int | None] = []  # per open bullet list: its nesting (None: unchecked)
    for token in document.tokens:
        kind = {"bullet_list_open": "ul", "ordered_list_open": "ol", "blockquote_open": "bq"}
        if token.type in kind:
            if token.type == "bullet_list_open":
                nesting: int | None = 0
                for above in reversed(stack):
                    if above == "ul":
                        assert nesting is not None
                        nesting += 1
                        continue
                    if above == "ol":
                        nesting = None
                    break
                nesting_of.append(nesting)
            stack.append(kind[token.type])
            continue
        if token.type in ("bullet_list_close", "ordered_list_close", "blockquote_close"):
            if stack.pop() == "ul":
                nesting_of.pop()
            continue
        if token.type != "list_item_open" or not stack or stack[-1] != "ul":
            continue
        nesting = nesting_of[-1]
        if nesting is None or id(token) not in columns:
            continue
        index, column, _ = columns[id(token)]
        line = document.lines[index]
        before = line[: len(line) - len(line.lstrip(" \t>"))]
        adjustment = 0
        quote = before.rfind(">")
        if quote >= 0:
            adjustment = quote + 1 + (1 if line[quote + 1 : quote + 2] in (" ", "\t") else 0)
        expected = start + nesting * indent
        actual = column - adjustment
        if actual != expected:
            yield index, f"Unordered list indentation [Expected: {expected}; Actual: {actual}]"


def _md009(document: _Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    """markdownlint's MD009: trailing whitespace other than exactly ``br_spaces`` spaces
    (a hard break; strict: only at the end of a paragraph's inner lines, never in a code
    span), outside code blocks (a fence's own lines count) and, with
    ``list_item_empty_lines``, outside lists except their items' trailing blank lines."""
    br_spaces = options.get("br_spaces")
    try:
        br = int(2 if br_spaces is None else br_spaces)
    except (TypeError, ValueError):
        br = 2
    expected = 0 if br < 2 else br
    strict = bool(options.get("strict"))
    list_lines = bool(options.get("list_item_empty_lines"))
    lines = document.lines
    candidates = []
    for index, line in enumerate(lines):
        trailing = len(line) - len(line.rstrip(_JS_SPACE))
        if trailing and (strict or trailing != expected):
            candidates.append((index, trailing))
    if not candidates:
        return
    tokens = document.tokens
    code: set[int] = set()
    for token in tokens:
        if token.map is None:
            continue
        if token.type == "fence":
            code.update(range(token.map[0] + 1, token.map[1] - 1))
        elif token.type == "code_block":
            code.update(range(*token.map))
    in_lists: set[int] = set()
    if list_lines:
        for token in tokens:
            if token.type in ("bullet_list_open", "ordered_list_open") and token.map:
                in_lists.update(range(*token.map))
        for token in tokens:
            if token.type == "list_item_open" and token.map:
                last = token.map[1] - 1
                while last > token.map[0] and not lines[last].strip():
                    in_lists.discard(last)  # an item's trailing blank lines are checked
                    last -= 1
    paragraph: set[int] = set()
    code_spans_at: set[int] = set()
    if strict:
        for token in tokens:
            if token.type == "paragraph_open" and token.map:
                paragraph.update(range(token.map[0], token.map[1] - 1))
            elif token.type == "inline" and token.map and "`" in token.content:
                first = token.map[0]
                for start, end in code_spans(token.content):
                    top = first + token.content.count("\n", 0, start)
                    bottom = first + token.content.count("\n", 0, end)
                    code_spans_at.update(range(top, bottom))
    for index, trailing in candidates:
        if index in code or index in in_lists:
            continue
        if trailing == expected and not (
            strict and (index not in paragraph or index in code_spans_at)
        ):
            continue
        lead = "" if expected == 0 else "0 or "
        yield index, f"Trailing spaces [Expected: {lead}{expected}; Actual: {trailing}]"


def _md010(document: _Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    """markdownlint's MD010: a hard tab anywhere, except, with ``code_blocks: false``, in
    code blocks and code spans, and in fenced blocks of an ignored language."""
    lines = document.lines
    candidates = [index for index, line in enumerate(lines) if "\t" in line]
    if not candidates:
        return
    code_blocks = options.get("code_blocks")
    include_code = True if code_blocks is None else bool(code_blocks)
    ignored_languages = {
        str(language).lower() for language in options.get("ignore_code_languages") or ()
    }
    excluded: set[int] = set()
    partial: dict[int, list[tuple[int, int]]] = {}  # line -> code span columns
    if not include_code or ignored_languages:
        for token in document.tokens:
            if token.map is None:
                continue
            if token.type == "fence":
                language = token.info.strip().split()[0].lower() if token.info.strip() else ""
                if not include_code or (ignored_languages and language in ignored_languages):
                    excluded.update(range(token.map[0] + 1, token.map[1] - 1))
            elif token.type == "code_block" and not include_code:
                excluded.update(range(*token.map))
            elif token.type == "inline" and not include_code and "`" in token.content:
                _code_span_columns(token, lines, partial)
    for index in candidates:
        if index in excluded:
            continue
        spans = sorted(partial.get(index, []))
        position = 0  # tab runs and spans both go left to right: one sweep
        for match in re.finditer(r"\t+", lines[index]):
            while position < len(spans) and spans[position][1] <= match.start():
                position += 1
            inside = position < len(spans) and spans[position][0] <= match.start()
            if not inside:
                yield index, f"Hard tabs [Column: {match.start() + 1}]"
                break


def _code_span_columns(
    token: Token, lines: Sequence[str], into: dict[int, list[tuple[int, int]]]
) -> None:
    """Add the (start, end) columns each code span of an inline token covers on each
    file line (content lines are the file lines without their container prefix)."""
    assert token.map is not None
    content = token.content
    content_lines = content.split("\n")
    starts = [0]
    for piece in content_lines[:-1]:
        starts.append(starts[-1] + len(piece) + 1)
    for start, end in code_spans(content):
        for offset, (line_start, piece) in enumerate(zip(starts, content_lines, strict=True)):
            line_end = line_start + len(piece)
            if line_end < start or line_start > end:
                continue
            index = token.map[0] + offset
            if index >= len(lines):
                continue
            line = lines[index]
            shift = len(line) - len(piece) if line.endswith(piece) else 0
            low = max(start, line_start) - line_start + shift
            high = min(end, line_end) - line_start + shift
            into.setdefault(index, []).append((low, high))


_DEFAULT_TITLE = r"^\s*\"?title\"?\s*[:=]"


def _front_matter_has_title(document: _Document, pattern: Any) -> bool:
    """markdownlint's frontMatterHasTitle: a front matter line matching the pattern (any
    case); an empty pattern switches the test off."""
    if pattern is not None and not pattern:
        return False
    try:
        title = re.compile(str(pattern or _DEFAULT_TITLE), re.IGNORECASE)
    except re.error:
        return False
    return any(title.search(line) for line in document.front_matter)


def _level(options: Mapping[str, Any]) -> int:
    try:
        return int(options.get("level") or 1)
    except (TypeError, ValueError):
        return 1


def _md025(document: _Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    """markdownlint's MD025: a heading of the top level after one on the first line of
    the content, or any such heading when the front matter has a title."""
    level = _level(options)
    titled = _front_matter_has_title(document, options.get("front_matter_title"))
    seen = False
    tokens = document.tokens
    for position, token in enumerate(tokens):
        if token.type != "heading_open" or token.map is None or token.tag != f"h{level}":
            continue
        if seen or titled:
            inline = tokens[position + 1]
            text = inline.content.strip() if inline.type == "inline" else ""
            yield (
                token.map[0],
                f'Multiple top-level headings in the same document [Context: "{text}"]',
            )
        elif token.map[0] == 0:
            seen = True


_HTML_TAG_NAME = re.compile(r"^\s*<([A-Za-z][A-Za-z0-9-]*)")


def _md041(document: _Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    """markdownlint's MD041: the first block that is not an HTML comment is a heading of
    the top level (or an HTML ``<hN>`` of it), unless the front matter has a title."""
    level = _level(options)
    if _front_matter_has_title(document, options.get("front_matter_title")):
        return
    for token in document.tokens:
        if token.level != 0 or token.map is None or token.nesting == -1:
            continue
        if token.type == "html_block":
            content = token.content.strip()
            if content.startswith("<!--") and content.endswith("-->"):
                continue
            tag = _HTML_TAG_NAME.match(content)
            error = tag is None or tag.group(1).lower() != f"h{level}"
        else:
            error = token.type != "heading_open" or token.tag != f"h{level}"
        if error:
            line = document.lines[token.map[0]] if token.map[0] < len(document.lines) else ""
            yield (
                token.map[0],
                f'First line in a file should be a top-level heading [Context: "{line}"]',
            )
        return


def _md027(document: _Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    """markdownlint's MD027: blanks after a blockquote's ``>`` and its one optional space
    (micromark's linePrefix right after a blockQuotePrefix): before a nested ``>``, or on
    any quoted line but a list item's continuation lines and code."""
    tokens = document.tokens
    quoted: set[int] = set()
    continued: set[int] = set()  # lines of list items after their first (listItemIndent)
    depth = 0
    for token in tokens:
        if token.type == "blockquote_open":
            depth += 1
            if token.map is not None:
                quoted.update(range(*token.map))
        elif token.type == "blockquote_close":
            depth -= 1
        elif token.type == "list_item_open" and depth and token.map is not None:
            continued.update(range(token.map[0] + 1, token.map[1]))
    code = _line_ranges(tokens, ("fence", "code_block"))
    for index in sorted(quoted):
        line = document.lines[index]
        position = len(line) - len(line.lstrip(" "))
        if position > 3 or line[position : position + 1] != ">":
            continue
        while position < len(line) and line[position] == ">":
            position += 1
            if line[position : position + 1] in (" ", "\t"):
                position += 1
            blanks = len(line) - position - len(line[position:].lstrip(" \t"))
            if not blanks:
                continue
            nested = line[position + blanks : position + blanks + 1] == ">"
            if nested or (index not in continued and index not in code):
                yield index, f'Multiple spaces after blockquote symbol [Context: "{line}"]'
            break


_LEFT_SPACE = re.compile(r"^\s(?:[^`]|$)")
_RIGHT_SPACE = re.compile(r"[^`]\s$")


def _spaced_span(content: str, start: int, end: int) -> bool:
    """Whether the code span at ``start:end`` has a blank just inside either end."""
    run = len(content[start:end]) - len(content[start:end].lstrip("`"))
    return (
        content[start + run : start + run + 1].isspace()
        or content[end - run - 1 : end - run].isspace()
    )


def _md038(document: _Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    """markdownlint's MD038: a code span whose content starts with a blank not followed by
    a backtick, or ends with one after something other than a backtick; reported on the
    opening line (one-line spans, or a left blank on that line), else on the closing
    line when the last content line has text."""
    for token in document.tokens:
        if token.type != "inline" or token.map is None or "`" not in token.content:
            continue
        content = token.content
        raw = code_spans(content)
        if not any(_spaced_span(content, start, end) for start, end in raw):
            continue  # no span with a blank inside: nothing to confirm with a parse
        # The spans markdown-it's inline parser makes (a backtick inside a link
        # destination or an autolink opens none), matched in order to the raw spans.
        parsed = [
            (child.markup, child.content)
            for child in _INLINE_PARSER.parseInline(content)[0].children or ()
            if child.type == "code_inline"
        ]
        matched = 0
        for start, end in raw:
            run = len(content[start:]) - len(content[start:].lstrip("`"))
            inner = content[start + run : end - run]
            flat = inner.replace("\n", " ")
            padded = flat.startswith(" ") and flat.endswith(" ") and flat.strip(" ") != ""
            normal = flat[1:-1] if padded else flat
            if matched >= len(parsed) or parsed[matched] != ("`" * run, normal):
                continue
            matched += 1
            first_line = token.map[0] + content.count("\n", 0, start)
            # Continuation lines lose their indentation (micromark's linePrefix).
            split = inner.split("\n")
            rows = [
                piece if offset == 0 else piece.lstrip(" \t") for offset, piece in enumerate(split)
            ]
            if padded:  # one blank each side is padding (codeTextPadding), not content
                rows[0] = rows[0][1:]  # (a line ending as padding left this piece empty)
                if len(rows) > 1 or rows[-1]:
                    rows[-1] = rows[-1][:-1] if split[-1] else rows[-1]
            pieces = [(first_line + offset, piece) for offset, piece in enumerate(rows) if piece]
            if not pieces:
                continue
            left = bool(_LEFT_SPACE.match(pieces[0][1]))
            right = bool(_RIGHT_SPACE.search(pieces[-1][1]))
            if not (left or right):
                continue
            last_line = first_line + inner.count("\n")
            if first_line == last_line or (left and pieces[0][0] == first_line):
                yield first_line, "Spaces inside code span elements"
            elif right and pieces[-1][1].strip():
                yield last_line, "Spaces inside code span elements"


# Inline parse that leaves every unmatched emphasis marker a text token of its own (no
# fragments_join), as micromark leaves it a "data" token.
_EMPHASIS_PARSER = MarkdownIt("commonmark").disable(["text_join", "fragments_join"])
_SPACED_MARKER = re.compile(r"[*_][ \t]|[ \t][*_]")
_EMPHASIS_MARKERS = frozenset({"_", "__", "___", "*", "**", "***"})
_BREAKS = frozenset({"softbreak", "hardbreak"})


def _visible(token: Token) -> str:
    """What a token stands for on its line, as far as blank-or-not goes."""
    if token.type == "text":
        return token.content
    if token.type == "text_special":
        return token.markup or token.content
    return "x"  # markup, code, HTML, links and images: never blank


def _blank_then_text(children: Iterable[Token], reverse: bool) -> bool:
    """Whether the line's text next to a marker, read away from it (``children`` in that
    order, ``reverse`` for text before the marker), is a blank run and then a non-blank:
    ``\\s+\\S`` after the marker, ``\\S\\s+$`` before it. Stops as soon as that is
    decided, so a line of thousands of markers costs linear time, not quadratic."""
    blank = False
    for child in children:
        if child.type in _BREAKS:
            return False
        text = _visible(child)
        for char in reversed(text) if reverse else text:
            if char.isspace():
                blank = True
            else:
                return blank
    return False


def _md037_runs(children: Sequence[Token]) -> list[list[tuple[int, str, int, int]]]:
    """Groups (one per parent: the inline content, each emphasis, link and image) of
    unmatched emphasis runs: (line offset, marker, index of the run's first token, index
    after its last)."""
    groups: list[list[tuple[int, str, int, int]]] = [[]]
    stack = [0]
    line = 0
    index = 0
    while index < len(children):
        child = children[index]
        if child.type in _BREAKS:
            line += 1
        elif child.type == "html_inline":
            line += child.content.count("\n")
        elif child.type in ("em_open", "strong_open", "link_open", "s_open"):
            groups.append([])
            stack.append(len(groups) - 1)
        elif child.type in ("em_close", "strong_close", "link_close", "s_close"):
            if len(stack) > 1:
                stack.pop()
        elif child.type == "text" and child.content in ("*", "_"):
            end = index + 1
            while end < len(children) and children[end].type == "text":
                if children[end].content != child.content:
                    break
                end += 1
            marker = child.content * (end - index)
            # Inside emphasis and link text micromark joins a leftover marker to the data
            # next to it: only a marker between two non-text tokens stays one of its own.
            inner = len(stack) > 1
            before = children[index - 1] if index else None
            after = children[end] if end < len(children) else None
            joined = inner and any(
                other is not None and other.type == "text" and other.content
                for other in (before, after)
            )
            if marker in _EMPHASIS_MARKERS and not joined:
                groups[stack[-1]].append((line, marker, index, end))
            index = end
            continue
        index += 1
    return groups


def _opaque_spans(content: str) -> str:
    """``content`` with what micromark (with markdownlint's extensions) reads as no text
    made plain letters, line breaks kept: math (``$...$``, ``$$...$$``, paired like code
    spans) and HTML comments by CommonMark 0.31 (``<!-->``, ``<!--->``, ``<!-- ... -->``;
    markdown-it follows the older rule), unless they start inside a code span."""
    if "$" not in content and "<!--" not in content:
        return content
    code = code_spans(content)
    spans: list[tuple[int, int]] = []
    if "$" in content:
        spans.extend(code_spans(content, char="$"))
    position = 0
    while True:
        start = content.find("<!--", position)
        if start < 0:
            break
        if content.startswith(("<!-->", "<!--->"), start):
            end = start + (5 if content.startswith("<!-->", start) else 6)
        else:
            close = content.find("-->", start + 4)
            if close < 0:
                break
            end = close + 3
        spans.append((start, end))
        position = end
    kept: list[tuple[int, int]] = []
    pointer = 0  # code spans and candidates both sorted: one sweep
    for start, end in sorted(spans):
        while pointer < len(code) and code[pointer][1] <= start:
            pointer += 1
        if not (pointer < len(code) and code[pointer][0] <= start):
            kept.append((start, end))
    pieces: list[str] = []
    last = 0
    for start, end in kept:
        if start < last:
            continue
        pieces.append(content[last:start])
        pieces.append(re.sub(r"[^\n]", "x", content[start:end]))
        last = end
    pieces.append(content[last:])
    return "".join(pieces)


def _md037(document: _Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    """markdownlint's MD037: unmatched emphasis markers of one kind, paired in order within
    their parent, with a blank just inside: after the first of a pair (then text on that
    line) or before the second (after text on that line)."""
    for token in document.tokens:
        if token.type != "inline" or token.map is None:
            continue
        if not _SPACED_MARKER.search(token.content):
            continue
        content = _opaque_spans(token.content)
        children = _EMPHASIS_PARSER.parseInline(content)[0].children or []
        for group in _md037_runs(children):
            by_marker: dict[str, list[tuple[int, int, int]]] = {}
            for line, marker, start, end in group:
                by_marker.setdefault(marker, []).append((line, start, end))
            for marker, runs in by_marker.items():
                for pair in range(0, len(runs) - 1, 2):
                    line, _, end = runs[pair]
                    following = (children[i] for i in range(end, len(children)))
                    if _blank_then_text(following, reverse=False):
                        yield token.map[0] + line, f"Spaces inside emphasis markers [{marker}]"
                    line, start, _ = runs[pair + 1]
                    preceding = (children[i] for i in range(start - 1, -1, -1))
                    if _blank_then_text(preceding, reverse=True):
                        yield token.map[0] + line, f"Spaces inside emphasis markers [{marker}]"


def _md043(document: _Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    """markdownlint's MD043: the headings, as ``## Text``, follow the required list, where
    ``*`` matches any number of headings and ``+`` one or more; a missing required heading
    is reported on the last line."""
    required = options.get("headings")
    if not isinstance(required, list):
        return  # unset (markdownlint's default): nothing required; [] requires no heading
    match_case = bool(options.get("match_case"))

    def fold(text: Any) -> str:
        return str(text) if match_case else str(text).lower()

    position = 0
    any_match = False
    any_headings = False

    def expected_next() -> Any:
        nonlocal position
        value = required[position] if position < len(required) else None
        position += 1
        return value or "[None]"

    tokens = document.tokens
    for index, token in enumerate(tokens):
        if token.type != "heading_open" or token.map is None:
            continue
        inline = tokens[index + 1]
        text = re.sub(r"[\r\n]+", " ", inline.content).strip() if inline.type == "inline" else ""
        actual = "#" * int(token.tag[1]) + " " + text
        any_headings = True
        expected = expected_next()
        if expected == "*":
            if fold(expected_next()) != fold(actual):
                any_match = True
                position -= 1
        elif expected == "+":
            any_match = True
        elif fold(expected) == fold(actual):
            any_match = False
        elif any_match:
            position -= 1
        else:
            yield (
                token.map[0],
                f"Required heading structure [Expected: {expected}; Actual: {actual}]",
            )
            return
    extra = len(required) - position
    if (extra > 1 or (extra == 1 and required[position] != "*")) and (
        any_headings or not all(heading == "*" for heading in required)
    ):
        yield (
            len(document.lines) - 1,
            f'Required heading structure [Context: "{required[position]}"]',
        )


_MD040 = "Fenced code blocks should have a language specified"
_MD031 = "Fenced code blocks should be surrounded by blank lines"


def _md040(document: _Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    """markdownlint's MD040: every fence names a language; with ``allowed_languages``,
    one of those literal names (``js`` is not ``javascript``); with ``language_only``,
    nothing after it."""
    allowed = options.get("allowed_languages")
    allowed = [str(name) for name in allowed] if isinstance(allowed, list) else []
    language_only = bool(options.get("language_only"))
    for token in document.tokens:
        if token.type != "fence" or token.map is None:
            continue
        line = document.raw_lines[token.map[0]]
        at = line.find(token.markup)
        words = line[at + len(token.markup) :].split() if at >= 0 else token.info.split()
        if not words:
            yield token.map[0], _MD040
        elif allowed and words[0] not in allowed:
            yield (
                token.map[0],
                f'{_MD040} ["{words[0]}" is not allowed]',
            )
        if language_only and len(words) > 1:
            yield (
                token.map[0],
                f"{_MD040} [Info string contains more than language]",
            )


def _is_blank_line(line: str | None) -> bool:
    """markdownlint's isBlankLine: nothing, blanks, or only ``>`` and blanks once HTML
    comments (matched or not) are taken out."""
    if not line or not line.strip():
        return True
    while True:
        start, end = line.find("<!--"), line.find("-->")
        if end != -1 and (start == -1 or end < start):
            line = line[end + 3 :]
        elif start != -1 and end != -1:
            line = line[:start] + line[end + 3 :]
        elif start != -1:
            line = line[:start]
        else:
            break
    return not line.replace(">", "").strip()


def _md031(document: _Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    """markdownlint's MD031: a blank line before each fence and after its last line (the
    closing fence, or the last line a list item or quote ended it at); with
    ``list_items: false``, fences inside lists are not checked."""
    list_items = options.get("list_items")
    include_lists = True if list_items is None else bool(list_items)
    lines = document.lines
    depth = 0

    def line_at(index: int) -> str | None:
        return lines[index] if 0 <= index < len(lines) else None

    for token in document.tokens:
        if token.type in ("bullet_list_open", "ordered_list_open"):
            depth += 1
        elif token.type in ("bullet_list_close", "ordered_list_close"):
            depth -= 1
        elif token.type == "fence" and token.map is not None and (include_lists or not depth):
            start, end = token.map[0], token.map[1] - 1
            closing = _QUOTE_PREFIX.sub("", line_at(end) or "").strip()
            closed = (
                end > start
                and closing.startswith(token.markup)
                and not closing.strip(token.markup[0])
            )
            following = line_at(end + 1) or ""
            if not closed and (_BULLET.match(following) or _ANY_ORDERED.match(following)):
                # A fence its list item ends when the next item starts is no unclosed
                # fence for micromark: it ends with that line break, on the next item.
                end += 1
            context = (line_at(start) or "").strip()
            if not _is_blank_line(line_at(start - 1)):
                yield start, f'{_MD031} [Context: "{context}"]'
            last = end
            if not _is_blank_line(line_at(last + 1)) and not _is_blank_line(line_at(last)):
                yield last, f'{_MD031} [Context: "{(line_at(last) or "").strip()}"]'


def _tokens_only(
    rule: Callable[[Sequence[Token], Mapping[str, Any]], Iterable[tuple[int, str]]],
) -> Callable[[_Document, Mapping[str, Any]], Iterable[tuple[int, str]]]:
    return lambda document, options: rule(document.tokens, options)


_NATIVE: dict[str, Callable[[_Document, Mapping[str, Any]], Iterable[tuple[int, str]]]] = {
    "MD004": _tokens_only(_md004),
    "MD005": _md005,
    "MD007": _md007,
    "MD009": _md009,
    "MD010": _md010,
    "MD013": _md013,
    "MD014": _md014,
    "MD018": _md018,
    "MD019": _md019,
    "MD020": _md020,
    "MD021": _md021,
    "MD024": _tokens_only(_md024),
    "MD025": _md025,
    "MD027": _md027,
    "MD031": _md031,
    "MD041": _md041,
    "MD043": _md043,
    "MD035": _md035,
    "MD055": _md055,
    "MD029": _tokens_only(_md029),
    "MD036": _tokens_only(_md036),
    "MD037": _md037,
    "MD038": _md038,
    "MD040": _md040,
    "MD046": _tokens_only(_md046),
    "MD048": _tokens_only(_md048),
}

# Rules ported one module each (pytest_postgates/tools/lint/rules/mdNNN.py: check and
# may_violate), computed for every file whose text test passes.
_PORTED = {
    module.RULE: module
    for module in (
        md001,
        md003,
        md022,
        md023,
        md030,
        md032,
        md047,
        md049,
        md050,
        md056,
    )
}
_NATIVE.update({rule: module.check for rule, module in _PORTED.items()})
NATIVE_RULES = (*NATIVE_RULES, *_PORTED)
ALWAYS_NATIVE = ALWAYS_NATIVE | set(_PORTED)


# Cheap tests on the raw lines that every file with a finding of the rule passes (they
# over-approximate headings, lists and code blocks: container prefixes, code and HTML are
# not told apart); only files that pass one are parsed. Parsing is the costly part.
_CONTAINER = r"^[ \t>]*(?:(?:[*+-]|\d{1,9}[.)])[ \t]+)*"
# Linear on any line: the text is taken greedily and trimmed in code (a lazy group before
# ``[ \t]*$`` retries the trailing run at every position), and closing hashes start only
# at the beginning of a run of blanks.
_ATX_TEXT = re.compile(_CONTAINER + r"#{1,6}(?:[ \t]+(.*))?$")
_CLOSING_HASHES = re.compile(r"(?:^|(?<![ \t])[ \t]+)#+$")
_SETEXT_UNDERLINE = re.compile(r"^[ \t>]*(?:=+|-+)[ \t]*$")
_ANY_ORDERED = re.compile(_CONTAINER + r"\d{1,9}[.)](?:[ \t]|$)")
_NOT_ONE = re.compile(_CONTAINER + r"0*(?:[02-9]|[1-9]\d+)[.)](?:[ \t]|$)")
_FENCE = re.compile(_CONTAINER + r"(`{3,}|~{3,})")
_EMPHASIS_LINE = re.compile(r"^ {0,3}(\*\*?|__?)(\S.*)\1[ \t]*$", re.MULTILINE)
_ANY_BULLET = re.compile(r"^[ \t>]*([*+-])[ \t]", re.MULTILINE)
_BULLET_AT = re.compile(r"^((?:[ \t]*>)*[ \t]*)([*+-])(?:[ \t]|$)")
_BULLET = re.compile(r"^[ \t>]*(?:\d{1,9}[.)][ \t]+)*([*+-])(?:[ \t]|$)")
# A list marker not at its container's first column (or one after a parent's marker): the
# only places MD005 can find anything.
_INDENTED_MARKER = re.compile(
    r"^(?:[ \t]*>[ \t]?)*(?:[ \t]+|(?:[*+-]|\d{1,9}[.)])[ \t]+)(?:[*+-]|\d{1,9}[.)])(?:[ \t]|$)"
)
_INDENTED = re.compile(r"^[ \t>]*?(?: {4}|\t| {0,3}\t)[ \t]*\S")


def _may_violate(rule: str, lines: Sequence[str], options: Mapping[str, Any]) -> bool:
    if rule in _PORTED:
        return bool(_PORTED[rule].may_violate(lines, options))
    if rule in ("MD009", "MD010", "MD013"):
        return True  # each one's own first step is a cheap line test
    if rule == "MD005":
        return any(_INDENTED_MARKER.match(line) for line in lines)
    if rule == "MD035":
        breaks = {text for line in lines if _maybe_break(text := _break_text(line))}
        style = str(options.get("style") or "consistent").strip()
        return len(breaks) > 1 if style == "consistent" else bool(breaks - {style})
    if rule == "MD055":
        return any("|" in line for line in lines)
    if rule in ("MD018", "MD019", "MD020", "MD021"):
        return any("#" in line for line in lines)
    if rule == "MD014":
        return any("$" in line for line in lines)
    if rule == "MD007":
        return any(_BULLET.match(line) for line in lines)
    if rule in ("MD025", "MD041"):
        return True
    if rule == "MD043":
        return isinstance(options.get("headings"), list)
    if rule == "MD027":
        return any(">" in line for line in lines)
    if rule == "MD038":
        return any("`" in line for line in lines)
    if rule in ("MD031", "MD040"):
        return any(_FENCE.match(line) for line in lines)
    if rule == "MD037":
        return any(_SPACED_MARKER.search(line) for line in lines)
    if rule == "MD024":
        texts: set[str] = set()
        previous = ""
        for line in lines:
            if previous.strip() and _SETEXT_UNDERLINE.match(line):
                return True  # a setext heading: its text needs the parser
            previous = line
            match = _ATX_TEXT.match(line)
            if match:
                text = _CLOSING_HASHES.sub("", (match.group(1) or "").rstrip(" \t"))
                if text in texts:
                    return True
                texts.add(text)
        return False
    if rule == "MD029":
        if options.get("style") == "zero":
            return any(_ANY_ORDERED.match(line) for line in lines)
        return any(_NOT_ONE.match(line) for line in lines)
    if rule == "MD036":
        punctuation = options.get("punctuation")
        punctuation = _ALL_PUNCTUATION if punctuation is None else str(punctuation)
        return any(
            match.group(2)[-1] not in punctuation
            for match in _EMPHASIS_LINE.finditer("\n".join(lines))
        )
    if rule == "MD004":
        markers = {match.group(1) for line in lines if (match := _BULLET.match(line))}
        style = str(options.get("style") or "consistent")
        if style == "consistent":
            return len(markers) > 1
        marker = {"dash": "-", "plus": "+", "asterisk": "*"}.get(style)
        return bool(markers - {marker}) if marker else bool(markers)
    style = str(options.get("style") or "consistent")
    if rule == "MD048":
        chars = {match.group(1)[0] for line in lines if (match := _FENCE.match(line))}
        wrong = {"backtick": "~", "tilde": "`"}.get(style)
        return len(chars) > 1 if style == "consistent" else (wrong in chars if wrong else True)
    fenced = style != "fenced" and any(_FENCE.match(line) for line in lines)
    indented = style != "indented" and any(_INDENTED.match(line) for line in lines)
    return fenced and indented if style == "consistent" else fenced or indented


# rumdl's MD033 reports only tags named like HTML elements (any case) or custom elements;
# markdownlint reports every tag, components such as <Tabs> or <TabItem> included. Tags
# with other names are found here (a full markdown-it parse, only for files that have
# one); rumdl's findings for the rest are kept. Names rumdl was checked to report:
RUMDL_HTML_ELEMENTS = frozenset(
    "a abbr address area article aside audio b base bdi bdo blockquote body br button "
    "canvas caption cite code col colgroup datalist dd del details dfn dialog div dl dt em "
    "embed fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 head header hgroup hr "
    "html i iframe img input ins kbd label legend li link main mark menu meta meter nav "
    "noscript object ol optgroup option output p param picture pre progress q rp rt ruby s "
    "samp script search section select slot small source span strong style sub summary sup "
    "table tbody td template textarea tfoot th thead time title tr track ul var video wbr "
    "svg math center font big strike tt marquee acronym applet basefont dir frame frameset "
    "noframes".split()
)
_TAG_NAME = re.compile(r"(?<!\\)<([A-Za-z][A-Za-z0-9-]*)")
_OPEN_TAG = re.compile(
    r"(?<!\\)<([A-Za-z][A-Za-z0-9-]*)"
    # Quoted values stop at "<": no attempt runs past the next tag (linear on unclosed
    # quotes), at the price of a "<" inside a quoted value (rare in posts).
    r"(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:[^\s\"'=<>`]+|'[^'<]*'|\"[^\"<]*\"))?)*\s*/?>"
)
_BACKTICK_RUN = re.compile(r"`+")
_DOLLAR_RUN = re.compile(r"\$+")


def code_spans(text: str, escapes: bool = True, char: str = "`") -> list[tuple[int, int]]:
    """(start, end) of each code span in ``text``, as CommonMark pairs them: a run of
    backticks opens one that the next run of exactly its length closes; a run that no
    such run follows is literal. ``escapes``: a run after a backslash does not open one.
    Linear: each run learns the next run of its length from one backward pass (a regex
    with a lazy body retries the rest of the text from every unmatched run)."""
    run_pattern = _BACKTICK_RUN if char == "`" else _DOLLAR_RUN
    runs = [(match.start(), match.end()) for match in run_pattern.finditer(text)]
    following: list[int | None] = [None] * len(runs)
    nearest: dict[int, int] = {}
    for position in range(len(runs) - 1, -1, -1):
        start, end = runs[position]
        following[position] = nearest.get(end - start)
        nearest[end - start] = position
    spans: list[tuple[int, int]] = []
    position = 0
    while position < len(runs):
        start, _ = runs[position]
        closer = following[position]
        if closer is None or (escapes and start > 0 and text[start - 1] == "\\"):
            position += 1
            continue
        spans.append((start, runs[closer][1]))
        position = closer + 1
    return spans


def _replace_spans(text: str, spans: Iterable[tuple[int, int]], blank: bool) -> str:
    """``text`` with each span blanked (line breaks kept) or replaced by one space."""
    out: list[str] = []
    last = 0
    for start, end in spans:
        out.append(text[last:start])
        piece = text[start:end]
        out.append(re.sub(r"[^\n]", " ", piece) if blank else " ")
        last = end
    out.append(text[last:])
    return "".join(out)


def _blank_code_spans(text: str) -> str:
    return _replace_spans(text, code_spans(text), blank=True)


def _blank_html_comments(text: str) -> str:
    """``text`` with each ``<!-- ... -->`` blanked; linear (an unclosed comment ends the
    search: nothing after it can close one either)."""
    spans: list[tuple[int, int]] = []
    position = 0
    while True:
        start = text.find("<!--", position)
        if start < 0:
            break
        end = text.find("-->", start + 4)
        if end < 0:
            break
        spans.append((start, end + 3))
        position = end + 3
    return _replace_spans(text, spans, blank=True)


_FENCE_LINE = re.compile(r"^[ \t>]*(`{3,}|~{3,})")


def _rumdl_reports_tag(name: str) -> bool:
    return name.lower() in RUMDL_HTML_ELEMENTS or "-" in name


def _blank(match: re.Match[str]) -> str:
    return re.sub(r"[^\n]", " ", match.group(0))


def _md033_candidates(lines: Sequence[str], options: Mapping[str, Any]) -> bool:
    """Whether a tag rumdl does not report may be in the text: outside (roughly tracked)
    fenced code and code spans, not escaped."""
    allowed = {str(name).lower() for name in options.get("allowed_elements") or ()}
    fence = ""
    for line in lines:
        marker = _FENCE_LINE.match(line)
        if fence:
            if marker and marker.group(1)[0] == fence[0] and len(marker.group(1)) >= len(fence):
                fence = ""
            continue
        if marker and not (marker.group(1)[0] == "`" and "`" in line[marker.end() :]):
            fence = marker.group(1)
            continue
        if "<" not in line:
            continue
        for match in _TAG_NAME.finditer(_blank_code_spans(line)):
            name = match.group(1)
            if not _rumdl_reports_tag(name) and name.lower() not in allowed:
                return True
    return False


def _md033_components(
    tokens: Sequence[Token], options: Mapping[str, Any]
) -> Iterable[tuple[int, str]]:
    """markdownlint's MD033 for the tags rumdl does not report (see above), from block
    tokens: HTML blocks line by line (comments removed), and the raw text of inline
    content with code spans blanked."""
    allowed = {str(name).lower() for name in options.get("allowed_elements") or ()}

    def wanted(name: str) -> bool:
        return not _rumdl_reports_tag(name) and name.lower() not in allowed

    for token in tokens:
        if token.map is None or token.type not in ("html_block", "inline"):
            continue
        if token.type == "html_block":
            source = _blank_html_comments(token.content)
        else:
            source = _blank_code_spans(token.content)
        for match in _OPEN_TAG.finditer(source):
            if wanted(match.group(1)):
                line = token.map[0] + source.count("\n", 0, match.start())
                yield line, f"Inline HTML [Element: {match.group(1)}]"


def _mixed_bullets(lines: Sequence[str]) -> bool:
    """Whether two bullets with different markers sit at one indentation in a run of
    non-blank lines: CommonMark starts a new list there, rumdl continues the old one."""
    if len(set(_ANY_BULLET.findall("\n".join(lines)))) < 2:
        return False
    markers: dict[str, str] = {}
    for line in lines:
        if not line.strip():
            markers = {}
            continue
        match = _BULLET_AT.match(line)
        if match is None:
            continue
        seen = markers.setdefault(match.group(1), match.group(2))
        if seen != match.group(2):
            return True
    return False


def _md032_junctions(tokens: Sequence[Token], lines: Sequence[str]) -> Iterable[tuple[int, str]]:
    """markdownlint's MD032 where one top-level bullet list ends and another, with another
    marker, begins on the next line: both lists lack their blank line there. (rumdl reads
    the two as one list; it reports the outer edges as markdownlint does.)"""
    depth = 0
    for index, token in enumerate(tokens):
        if token.type in ("bullet_list_open", "ordered_list_open"):
            if (
                depth == 0
                and token.type == "bullet_list_open"
                and token.map is not None
                and index > 0
                and tokens[index - 1].type == "bullet_list_close"
                and token.map[0] > 0
                and lines[token.map[0] - 1].strip(" \t>")
            ):
                start = token.map[0]
                for line in (start - 1, start):
                    context = lines[line].strip()[:30]
                    yield line, f'Lists should be surrounded by blank lines [Context: "{context}"]'
            depth += 1
        elif token.type in ("bullet_list_close", "ordered_list_close"):
            depth -= 1


def native_violations(
    text: str,
    config: Mapping[str, Any],
    only: Iterable[str] | None = None,
    file_lines: list[str] | None = None,
    rules: Mapping[str, dict[str, Any]] | None = None,
) -> list[Violation]:
    """The findings of :data:`NATIVE_RULES` (or of those in ``only``) and of MD033's
    component tags for one file's text under ``config``. ``file_lines`` (the text split as
    markdownlint splits it) and ``rules`` (``effective_rules(config)``) save work when the
    caller has them."""
    selected = NATIVE_RULES if only is None else tuple(r for r in NATIVE_RULES if r in set(only))
    if file_lines is None:
        lines, offset = markdownlint_lines(text)
    else:
        lines, offset = _without_front_matter(file_lines)
    options, per_line, base = enabled_per_line(lines, offset, config, rules)

    def enabled(rule: str) -> bool:
        return bool(base.get(rule) or any(state.get(rule) for state in per_line.values()))

    wanted = [
        rule
        for rule in selected
        if enabled(rule)
        and _may_violate(rule, lines, options.get(rule, DEFAULT_OPTIONS.get(rule, {})))
    ]
    md033 = options.get("MD033", DEFAULT_OPTIONS["MD033"])
    components = enabled("MD033") and _md033_candidates(lines, md033)
    junctions = False  # MD032 is a ported rule now (tools/lint/rules/md032.py)
    if not wanted and not components and not junctions:
        return []
    front = (file_lines or _LINE_BREAK.split(text.removeprefix("\ufeff")))[:offset]
    document = _Document(lines, front)
    found: list[tuple[int, str, str]] = []
    for rule in wanted:
        rule_options = options.get(rule, DEFAULT_OPTIONS.get(rule, {}))
        found.extend(
            (index, rule, message) for index, message in _NATIVE[rule](document, rule_options)
        )
    tokens = document.tokens if components or junctions else []
    if components:
        found.extend(
            (index, "MD033", message) for index, message in _md033_components(tokens, md033)
        )
    if junctions:
        found.extend(
            (index, "MD032", message) for index, message in _md032_junctions(tokens, lines)
        )
    violations = []
    for index, rule, message in found:
        line = offset + index + 1
        if per_line.get(line, base).get(rule):
            violations.append(Violation(line, rule, ALIAS[rule], message))
    return violations


# ------------------------------------------------------------------------ backends
def find_rumdl() -> Path | None:
    """The rumdl executable of this Python environment (next to the interpreter, where a
    wheel installs it), else the one on PATH."""
    names = ("rumdl.exe", "rumdl") if os.name == "nt" else ("rumdl",)
    folders = [Path(sys.executable).parent, Path(sys.prefix) / "bin", Path(sys.prefix) / "Scripts"]
    for folder in folders:
        for name in names:
            candidate = folder / name
            if candidate.is_file() and os.access(candidate, os.X_OK):
                return candidate
    found = shutil.which("rumdl")
    return Path(found) if found else None


def find_markdownlint_cli(
    near: Iterable[Path] = (), configured: str | os.PathLike[str] | None = None
) -> tuple[str, ...] | None:
    """The command of an installed markdownlint-cli: the configured one; ``markdownlint``
    on PATH; ``node_modules/.bin/markdownlint`` at the repository root of one of ``near``
    (where ``npm install`` puts the CI's pinned version). None if none.

    Only inside a repository: a post outside any repository, or a ``node_modules`` in a
    folder above the repository (another user's, ``/tmp``'s, the filesystem root's), never
    gets a program run from there."""
    if configured:
        command = shutil.which(str(configured)) or str(configured)
        return (command,) if Path(command).is_file() else None
    on_path = shutil.which("markdownlint")
    if on_path:
        return (on_path,)
    names = ("markdownlint.cmd", "markdownlint") if os.name == "nt" else ("markdownlint",)
    for root in dict.fromkeys(repo_root_of(start.resolve()) for start in near):
        if root is None:
            continue
        for name in names:
            candidate = root / "node_modules" / ".bin" / name
            if candidate.is_file():
                return (str(candidate),)
    return None


def _version(command: Sequence[str], parse: re.Pattern[str]) -> str | None:
    try:
        result = subprocess.run(
            [*command, "--version"], capture_output=True, text=True, timeout=120, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    match = parse.search(result.stdout)
    return match.group(1) if match and match.groups() else (match.group(0) if match else None)


def describe_backend(backend: Backend) -> str:
    """What ran, for the terminal header: name, version and the program's path."""
    return f"{backend.name} {backend.version} ({' '.join(backend.command)})"


def backend_header(
    setting: str, root: Path, markdownlint_cli: str | os.PathLike[str] | None = None
) -> str:
    """The header line's words for the linter gate 12 runs for posts under ``root``."""
    try:
        return "linter " + describe_backend(choose_backend(setting, [root], markdownlint_cli))
    except LintError as exc:
        return f"linter: none can run ({exc})"


def choose_backend(
    setting: str = "auto",
    near: Iterable[Path] = (),
    markdownlint_cli: str | os.PathLike[str] | None = None,
) -> Backend:
    """The backend ``setting`` asks for. ``auto``: markdownlint-cli when installed (exact CI
    parity), else rumdl. Raises :class:`LintError` saying how to install one."""
    if setting not in BACKEND_SETTINGS:
        raise LintError(f"lint_backend = {setting!r} is not one of {', '.join(BACKEND_SETTINGS)}")
    near = tuple(near)
    if setting in ("auto", "markdownlint-cli"):
        command = find_markdownlint_cli(near, markdownlint_cli)
        if command is None and setting == "markdownlint-cli" and not markdownlint_cli:
            npx = shutil.which("npx")
            if npx:
                command = (npx, "--no-install", "markdownlint")
        if command is not None:
            version = _version(command, _SEMVER)
            if version is not None:
                return Backend("markdownlint-cli", command, version)
        if setting == "markdownlint-cli":
            where = f" at {markdownlint_cli}" if markdownlint_cli else ""
            raise LintError(
                f"lint_backend is markdownlint-cli but no working markdownlint-cli was "
                f"found{where}; install it with `npm install -g markdownlint-cli@"
                f"{MARKDOWNLINT_CLI_PIN}` (or into the repository's node_modules), or set "
                'lint_backend = "rumdl"'
            )
    rumdl = find_rumdl()
    if rumdl is not None:
        version = _version((str(rumdl),), _RUMDL_VERSION)
        if version is not None:
            return Backend("rumdl", (str(rumdl),), version)
    raise LintError(
        "no markdown linter can run: rumdl (a dependency of pytest-postgates) is missing or "
        "broken; reinstall it with `pip install rumdl`, or install Node and "
        f"`npm install -g markdownlint-cli@{MARKDOWNLINT_CLI_PIN}`"
    )


# ------------------------------------------------------------------------ running
def _chunks(paths: Sequence[Path]) -> list[list[Path]]:
    chunks: list[list[Path]] = [[]]
    size = 0
    for path in paths:
        length = len(str(path)) + 1
        if chunks[-1] and size + length > MAX_ARGUMENT_CHARS:
            chunks.append([])
            size = 0
        chunks[-1].append(path)
        size += length
    return [chunk for chunk in chunks if chunk]


def _run(command: Sequence[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    # Neither linter may pick up configuration from where pytest happens to run, nor the
    # rc package's ``markdownlint_*`` environment variables: cwd is an empty folder.
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.lower().startswith("markdownlint_")
    }
    env.setdefault("NO_COLOR", "1")
    try:
        return subprocess.run(
            list(command),
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            timeout=TIMEOUT_SECONDS,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise LintError(f"{Path(command[0]).name} did not finish in {TIMEOUT_SECONDS} s") from None
    except OSError as exc:
        raise LintError(f"cannot start {Path(command[0]).name}: {exc.strerror}") from None


def _failure(name: str, result: subprocess.CompletedProcess[str], work: Path) -> LintError:
    """The linter's last words, with the scratch folder's path taken out (scorecards hold
    no absolute paths)."""
    tail = (result.stderr or result.stdout).strip().splitlines()[-3:]
    said = " | ".join(tail).replace(f"{work}{os.sep}", "").replace(str(work), ".")
    return LintError(f"{name} exited with status {result.returncode}: {said}")


def _key(path: str | Path, cwd: Path) -> str:
    return str((cwd / path).resolve())


_RUMDL_LIMIT = re.compile(r"exceeds (\d+)")
_STERN_EXEMPT = re.compile(r"^(?:[#>\s]*\s)?\S*$")
_DEFINITION = re.compile(r"^ {0,3}\[(?:[^\]\\]|\\.)+\]:")
_DEFINITION_ONLY_LABEL = re.compile(r"^ {0,3}\[(?:[^\]\\]|\\.)+\]:[ \t]*$")
_TITLE_START = re.compile(r"^[ \t]*[\"'(]")


def _definition_lines(lines: Sequence[str]) -> set[int]:
    """Line indices of link reference definitions, their continuation lines included (a
    label alone on its line takes the destination from the next one; a title may follow
    on the line after the destination), as markdownlint's definitionLineIndices hold."""
    found: set[int] = set()
    for index, line in enumerate(lines):
        if not _DEFINITION.match(line):
            continue
        found.add(index)
        following = index + 1
        label_only = _DEFINITION_ONLY_LABEL.match(line) and following < len(lines)
        if label_only and lines[following].strip():
            found.add(following)
            following += 1
        if following < len(lines) and _TITLE_START.match(lines[following]):
            found.add(following)
    return found


# Each part stops at the next opening character of its own kind ("[", "(", "<"), so no
# attempt rescans what a later attempt will scan (linear on "[[[[" or "<a:<a:<a:").
_LINKISH = re.compile(
    r"!?\[[^\[\]]*\]\([^()]*\)|!?\[[^\[\]]*\]\[[^\[\]]*\]|<[a-z][a-z0-9+.-]*:[^<>\s]*>"
    r"|https?://\S+|www\.\S+",
    re.I,
)
_HEADING_LINE = re.compile(r"^ {0,3}#{1,6}(?:\s|$)")


def _markdownlint_long_line(line: str, message: str, options: Mapping[str, Any]) -> bool:
    """markdownlint's MD013 test on a line rumdl reported in its widest mode (strict,
    lengths in UTF-8 bytes, link URLs counted), so that rumdl over-reports and this keeps
    exactly what markdownlint reports: a length in UTF-16 units (JavaScript's) over the
    limit; unless strict, whitespace beyond the limit (a long unbreakable word is fine),
    no exemption for lines made of links only (headings and table rows with a link count
    as such, as their text is no paragraph), and none for link reference definitions."""
    match = _RUMDL_LIMIT.search(message)
    if match is None:
        return True
    limit = int(match.group(1))
    strict = bool(options.get("strict"))
    stern = bool(options.get("stern"))
    if line.isascii():
        rest = line[limit:]
    else:
        units = 0
        cut = len(line)
        for index, char in enumerate(line):
            if units >= limit:
                cut = index
                break
            units += 2 if ord(char) > 0xFFFF else 1
        rest = line[cut:] if units >= limit else ""
    if not rest:
        return False
    if not (strict or stern) and not re.search(r"\s", rest):
        return False
    if _DEFINITION.match(line):
        return False
    if strict:
        return True
    if stern and _STERN_EXEMPT.match(line):
        return False
    return not _link_only(line)


_DELIMITER_RUN = re.compile(r"\*+|_+|~~+")


def _without_emphasis(text: str) -> str:
    """``text`` without its emphasis (markers and what they enclose), paired in one pass
    with a stack per marker character: a run followed by a non-blank may open, a run after
    a non-blank closes the nearest open run of its character (and whatever opened inside
    it). Linear, unlike removing ``*...*`` pairs with a regex until none is left."""
    stacks: dict[str, list[int]] = {"*": [], "_": [], "~": []}
    opened: list[tuple[str, int]] = []  # every open run, innermost last
    spans: list[tuple[int, int]] = []
    for match in _DELIMITER_RUN.finditer(text):
        start, end = match.span()
        char = text[start]
        before = text[start - 1] if start else " "
        after = text[end] if end < len(text) else " "
        if stacks[char] and not before.isspace():
            opener = stacks[char][-1]
            while opened and opened[-1][1] >= opener:
                other, _ = opened.pop()
                stacks[other].pop()
            spans.append((opener, end))
        elif not after.isspace():
            stacks[char].append(start)
            opened.append((char, start))
    spans.sort()
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        if merged and start < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    kept: list[str] = []
    last = 0
    for start, end in merged:
        kept.append(text[last:start])
        last = end
    kept.append(text[last:])
    return "".join(kept)


def _link_only(line: str) -> bool:
    """An approximation of markdownlint's "link-only line": it has a link, image or
    autolink and no text directly in a paragraph. Heading and table lines have none at
    all; text inside emphasis or code spans is not direct either."""
    line = _replace_spans(line, code_spans(line, escapes=False), blank=False)
    if not _LINKISH.search(line):
        return False
    if _HEADING_LINE.match(line) or line.strip().startswith("|"):
        return True
    body = re.sub(r"^(?:[>\s]*(?:[*+-]|\d{1,9}[.)])?\s+)*", "", line)
    # Emphasis markers left around removed links enclose no text of the paragraph.
    return not _without_emphasis(_LINKISH.sub("", body)).strip(" \t*_~")


_DELIMITER_ROW = re.compile(r"^\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?$")
_QUOTE_PREFIX = re.compile(r"^\s*(?:>\s?)*")


def _cells(row: str) -> int:
    row = _QUOTE_PREFIX.sub("", row).strip()
    row = row.removeprefix("|")
    if row.endswith("|") and not row.endswith("\\|"):
        row = row[:-1]
    return len(re.split(r"(?<!\\)\|", row))


def gfm_table_lines(lines: Sequence[str]) -> list[bool]:
    """For each line (index), whether it sits in a GitHub table: in a run of lines with a
    "|", at or below a delimiter row (not the text's first line) whose cell count matches
    its header row's, the nearest such row above deciding. rumdl reads rows under a
    mismatched delimiter as a table; GFM (and markdownlint) read them as a paragraph.
    One pass over the text (asking line by line walks back up every table again)."""
    status = [False] * len(lines)
    current = False
    for index, line in enumerate(lines):
        if "|" not in line:
            current = False
            continue
        row = _QUOTE_PREFIX.sub("", line).strip()
        if index > 0 and _DELIMITER_ROW.match(row):
            current = _cells(lines[index - 1]) == _cells(line)
        status[index] = current
    return status


def _in_gfm_table(lines: Sequence[str], number: int) -> bool:
    """:func:`gfm_table_lines` for one file line (1-based)."""
    return 0 < number <= len(lines) and gfm_table_lines(lines)[number - 1]


def _keep_rumdl_finding(
    rule: str,
    message: str,
    number: int,
    lines: Sequence[str],
    options: Mapping[str, Any],
    tables: Callable[[], list[bool]] | None = None,
) -> bool:
    """False for rumdl findings markdownlint 0.36.1 never reports. ``tables``: the file's
    :func:`gfm_table_lines`, computed once for all its findings."""
    line = lines[number - 1] if 0 < number <= len(lines) else ""
    if rule == "MD013":
        return _markdownlint_long_line(line, message, options)
    if rule in ("MD055", "MD056") and lines:
        status = tables() if tables is not None else gfm_table_lines(lines)
        return 0 < number <= len(status) and status[number - 1]
    if rule == "MD051" and " not found in '" in message:
        # rumdl also checks fragments of links into other files; markdownlint only checks
        # fragments of the document itself.
        return False
    # `[][]` (as in the type `string[][]`) has an empty label, so CommonMark reads no link
    # there; rumdl reports it as an empty reference link.
    return not (rule == "MD042" and re.search(r"\[\s*\]\[\s*\]\s*$", message))


def file_config(text: str, config: Mapping[str, Any]) -> dict[str, Any]:
    """``config`` extended by the file's ``<!-- markdownlint-configure-file {...} -->``
    comments, in order, each merged over the object so far (markdownlint reads them from
    the whole text at once, so one comment may span lines)."""
    merged = dict(config)
    if "configure-file" not in text.lower():
        return merged
    lines, _ = markdownlint_lines(text)
    joined = "\n".join(lines)
    for action, parameter in _comments_in_line(joined):
        if action != "CONFIGURE-FILE":
            continue
        parsed = _parse_inline_config(parameter)
        if isinstance(parsed, dict):  # markdownlint ignores a comment it cannot parse
            merged = {**merged, **parsed}
    return merged


# rumdl honours markdownlint's (and its own) inline comments, with its own semantics; the
# copy rumdl lints has them renamed (same length, so columns and lengths stay), and
# markdownlint's state, computed here, filters rumdl's findings instead.
_RUMDL_INLINE = re.compile(
    r"(<!--\s*)(markdownlint|rumdl|prettier)(-(?:disable|enable|capture|restore|configure|ignore))",
    re.IGNORECASE,
)


def _neutral_copy(data: bytes) -> bytes | None:
    """The bytes rumdl lints instead of ``data``, or None when ``data`` itself will do:
    bare CR line ends as LF (markdownlint splits lines there, rumdl does not) and inline
    configuration comments renamed."""
    changed = data
    if _BARE_CR.search(changed):
        changed = _BARE_CR.sub(b"\n", changed)
    if b"<!--" in changed:
        text = changed.decode("utf-8", errors="surrogateescape")
        renamed = _RUMDL_INLINE.sub(lambda m: m.group(1) + "x" * len(m.group(2)) + m.group(3), text)
        changed = renamed.encode("utf-8", errors="surrogateescape")
    return None if changed == data else changed


def run_rumdl(
    backend: Backend, paths: Sequence[Path], config: Mapping[str, Any], work: Path
) -> dict[str, list[Violation]]:
    """rumdl over ``paths`` with ``config`` (a markdownlint configuration object)
    translated, then :data:`NATIVE_RULES` evaluated here where needed: file -> violations.

    Each file is linted under ``config`` extended by its own ``configure-file`` comments
    (one rumdl process per distinct result), and every finding is kept only where
    markdownlint's inline ``disable``/``enable``/``capture``/``restore`` state has its rule
    on at that line.

    rumdl runs the native rules too, as a cheap detector: whether it reports a rule in a
    file selects the files where markdownlint's algorithm is evaluated (its own findings
    for those rules are dropped). That is sound because for each of them rumdl reports
    something in every file where markdownlint does (checked on the corpora of
    bench/markdownlint_parity.py and by differential tests), except where a text test
    stands in: lists that start at a number other than 1 (MD029), emphasis paragraphs
    (MD036, which rumdl does not run) and the styles rumdl cannot detect (MD029 "zero",
    MD004 "sublist"). Files with inline configuration comments are always evaluated here.
    """
    texts: dict[str, tuple[bytes, str]] = {}
    groups: dict[str, tuple[dict[str, Any], list[Path]]] = {}
    for path in paths:
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise LintError(f"cannot read {path.name}: {exc.strerror}") from None
        text = data.decode("utf-8", errors="replace")
        texts[str(path)] = (data, text)  # lint_batch hands over resolved paths
        own = file_config(text, config)
        if "markdownlint-" in text:
            # A rule the configuration switches off but an inline comment switches on
            # somewhere runs, with its default options, as markdownlint runs it.
            body, offset = markdownlint_lines(text)
            options, per_line, _ = enabled_per_line(body, offset, config)
            somewhere = {rule for state in per_line.values() for rule, on in state.items() if on}
            for rule in sorted(somewhere - set(options)):
                own = {key: value for key, value in own.items() if key != rule}
                own[rule] = True
        # Files whose rumdl runs are the same share one process, however their own
        # configure-file comments differ in the rules computed here.
        key = _rumdl_group_key(effective_rules(own))
        groups.setdefault(key, (own, []))[1].append(path)
    found: dict[str, list[Violation]] = {}
    folders = []
    for number in range(len(groups)):
        folders.append(work / f"g{number}")
        folders[-1].mkdir()
    # Distinct configure-file comments can make many groups (markdownlint's suite: 78 of
    # 336 files): their rumdl processes run side by side while this process reads results.
    workers = max(1, min(len(groups), os.cpu_count() or 1, 4))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = [
            pool.submit(_run_rumdl_group, backend, group, texts, config, own, folder)
            for (own, group), folder in zip(groups.values(), folders, strict=True)
        ]
        for future in futures:
            found.update(future.result())
    return found


def _rumdl_group_key(rules: Mapping[str, dict[str, Any]]) -> str:
    """What decides a rumdl run and how its findings are read: the TOML of the rules rumdl
    runs, MD024's siblings_only and the styles that make a native rule always evaluated."""
    delegated = {rule: options for rule, options in rules.items() if rule not in ALWAYS_NATIVE}
    return json.dumps(
        [
            rumdl_config_text(delegated),
            bool(rules.get("MD024", {}).get("siblings_only")),
            rules.get("MD029", {}).get("style") == "zero",
            rules.get("MD004", {}).get("style") == "sublist",
        ]
    )


def _run_rumdl_group(
    backend: Backend,
    paths: Sequence[Path],
    texts: Mapping[str, tuple[bytes, str]],
    base_config: Mapping[str, Any],
    config: Mapping[str, Any],
    work: Path,
) -> dict[str, list[Violation]]:
    """:func:`run_rumdl` for files that share one configuration (``config``: the base
    configuration with their configure-file comments applied)."""
    rules = effective_rules(config)
    delegated = {rule: options for rule, options in rules.items() if rule not in ALWAYS_NATIVE}
    # Without siblings_only rumdl's MD024 is markdownlint's (5,984 of 5,984 findings on the
    # NeuroLink docs): its findings stand, and MD024 is no native rule for these files.
    siblings_only = bool(rules.get("MD024", {}).get("siblings_only"))
    # Rules rumdl cannot detect for these settings are evaluated wherever their text test
    # passes: MD036 (rumdl does not run it), MD029 "zero" and MD004 "sublist".
    always = set(ALWAYS_NATIVE)
    if rules.get("MD029", {}).get("style") == "zero":
        always.add("MD029")
    if rules.get("MD004", {}).get("style") == "sublist":
        always.add("MD004")
    base_rules = effective_rules(base_config)
    toml = work / "rumdl.toml"
    toml.write_text(rumdl_config_text(delegated), encoding="utf-8")
    targets: list[Path] = []
    original: dict[str, str] = {}  # linted copy -> file
    for path in paths:
        key = str(path)
        target = path
        copy = _neutral_copy(texts[key][0])
        if copy is not None:
            target = work / "copy" / str(len(original)) / path.name
            target.parent.mkdir(parents=True)
            target.write_bytes(copy)
            original[_key(target, work)] = key
        targets.append(target)
    items = _rumdl_chunks(backend, targets, toml, work) if delegated else []
    keys = {str(target): str(target) for target in targets}  # rumdl prints these
    file_texts = {str(path): texts[str(path)][1] for path in paths}
    lines = {
        key: _LINE_BREAK.split(text.removeprefix("\ufeff")) for key, text in file_texts.items()
    }
    states = {}
    for key, text in file_texts.items():
        if "markdownlint-" in text:
            body, offset = _without_front_matter(lines[key])
            _, per_line, base = enabled_per_line(body, offset, base_config, rules)
            states[key] = (per_line, base)
    found: dict[str, list[Violation]] = {key: [] for key in file_texts}
    detected: dict[str, set[str]] = {key: set() for key in file_texts}
    table_cache: dict[str, list[bool]] = {}

    def _tables_of(key: str) -> Callable[[], list[bool]]:
        def compute() -> list[bool]:
            if key not in table_cache:
                table_cache[key] = gfm_table_lines(lines.get(key, []))
            return table_cache[key]

        return compute

    for item in items:
        rule = str(item.get("rule", ""))
        message = str(item.get("message", ""))
        key = keys.get(item["file"]) or _key(item["file"], work)
        key = original.get(key, key)
        number = int(item["line"])
        if rule in NATIVE_RULES and not (rule == "MD024" and not siblings_only):
            detected.setdefault(key, set()).add(rule)
            continue
        # A rule markdownlint does not have or that is switched off never counts.
        if rule not in delegated or not _keep_rumdl_finding(
            rule, message, number, lines.get(key, []), rules[rule], _tables_of(key)
        ):
            continue
        if key in states:
            per_line, base = states[key]
            if not per_line.get(number, base).get(rule):
                continue  # switched off at this line by an inline comment
        found.setdefault(key, []).append(Violation(number, rule, ALIAS[rule], message))
    for key, text in file_texts.items():
        if key in states:
            # Inline configuration: markdownlint's own state decides, for every native rule.
            only = set(NATIVE_RULES)
        else:
            only = detected.get(key, set()) | always
            if "MD029" not in only and _odd_list_start(lines[key]):
                only.add("MD029")
        if not siblings_only:
            only.discard("MD024")
        # (a file with inline comments gets its own rules from them; the rest the base's)
        native = native_violations(text, base_config, only, lines[key], base_rules)
        if native:
            # A line markdownlint's algorithm judged here is not reported twice for MD032.
            junctions = {v.line for v in native if v.rule == "MD032"}
            kept = [v for v in found[key] if not (v.rule == "MD032" and v.line in junctions)]
            found[key] = kept + native
    return found


_ORDERED_ITEM = re.compile(r"^((?:[ \t]*>)*)([ \t]*)(\d{1,9})([.)])(?:[ \t]|$)")
# Items numbered other than 1, found in the whole text at once (few lines are).
_ODD_ITEM = re.compile(r"^(?:[ \t]*>)*[ \t]*(?:\d{2,9}|[02-9])[.)](?:[ \t]|$)", re.MULTILINE)


def _indent(whitespace: str) -> int:
    return len(whitespace.expandtabs(4))


def _odd_list_start(lines: Sequence[str]) -> bool:
    """Whether an ordered list may start at a number other than 1 (0, 2, 3, ...): rumdl
    accepts any start, markdownlint 0.36.1 does not. An item continues a list when the
    nearest earlier line that is not blank and not indented deeper is an item with the
    same indentation, quote depth and delimiter; anything else may start a list."""
    text = "\n".join(lines)
    index, position = 0, 0
    for candidate in _ODD_ITEM.finditer(text):
        index += text.count("\n", position, candidate.start())
        position = candidate.start()
        match = _ORDERED_ITEM.match(lines[index])
        if match is None or int(match.group(3)) == 1:  # "01." is 1
            continue
        depth, indent = match.group(1).count(">"), _indent(match.group(2))
        previous = None
        for back in range(index - 1, -1, -1):
            earlier = lines[back]
            if not earlier.strip():
                continue
            quote = re.match(r"(?:[ \t]*>)*", earlier)
            assert quote is not None
            rest = earlier[quote.end() :]
            lead = rest[: len(rest) - len(rest.lstrip())]
            if quote.group(0).count(">") == depth and _indent(lead) > indent:
                continue  # content of an item of this list
            previous = earlier
            break
        same = _ORDERED_ITEM.match(previous) if previous is not None else None
        if not (
            same
            and same.group(1).count(">") == depth
            and _indent(same.group(2)) == indent
            and same.group(4) == match.group(4)
        ):
            return True
    return False


def _rumdl_chunks(
    backend: Backend, paths: Sequence[Path], toml: Path, work: Path
) -> list[dict[str, Any]]:
    """rumdl's JSON findings over ``paths``, in as few processes as the command line
    allows."""
    items: list[dict[str, Any]] = []
    for chunk in _chunks(paths):
        command = [
            *backend.command,
            "check",
            "--config",
            str(toml),
            "--no-cache",
            "--no-exclude",
            "--output-format",
            "json",
            "--fail-on",
            "never",
            "--color",
            "never",
            "--show-full-path",
            "--",
            *map(str, chunk),
        ]
        result = _run(command, work)
        if result.returncode != 0:
            raise _failure("rumdl", result, work)
        try:
            items.extend(json.loads(result.stdout or "[]"))
        except json.JSONDecodeError:
            raise LintError(f"rumdl printed no JSON: {result.stdout[:200]!r}") from None
    return items


def run_markdownlint_cli(
    backend: Backend, paths: Sequence[Path], config: Path | None, work: Path
) -> dict[str, list[Violation]]:
    """markdownlint-cli over ``paths`` with ``config`` (markdownlint reads it itself, so
    JSONC, YAML and ``extends`` are its own); cli2 files and "no file" are written out as
    the JSON object they stand for."""
    if config is None or config.name.startswith(".markdownlint-cli2."):
        target = work / "markdownlint.json"
        target.write_text(json.dumps(load_config(config)), encoding="utf-8")
        config = target
    output = work / "markdownlint-out.json"
    found: dict[str, list[Violation]] = {str(path): [] for path in paths}
    for chunk in _chunks(paths):
        output.unlink(missing_ok=True)
        command = [*backend.command, "--json", "--output", str(output), "--config", str(config)]
        result = _run([*command, "--", *map(str, chunk)], work)
        if result.returncode not in (0, 1) or (result.returncode == 1 and not output.is_file()):
            raise _failure("markdownlint-cli", result, work)
        text = output.read_text(encoding="utf-8") if output.is_file() else ""
        try:
            items = json.loads(text) if text.strip() else []
        except json.JSONDecodeError:
            raise LintError(f"markdownlint-cli wrote no JSON: {text[:200]!r}") from None
        for item in items:
            names = item.get("ruleNames") or ["?"]
            rule = str(names[0])
            message = str(item.get("ruleDescription", ""))
            if item.get("errorDetail"):
                message += f" [{item['errorDetail']}]"
            if item.get("errorContext"):
                message += f' [Context: "{item["errorContext"]}"]'
            key = item["fileName"] if item["fileName"] in found else _key(item["fileName"], work)
            found.setdefault(key, []).append(
                Violation(
                    int(item["lineNumber"]),
                    rule,
                    str(names[1] if len(names) > 1 else rule),
                    message,
                )
            )
    return found


def _unlintable(path: Path) -> str | None:
    """Why a file is left out of the batch (one missing file would stop the linter for
    all; a file over the post size limit is refused by the post parser anyway)."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        return f"cannot read {path.name}: {exc.strerror}"
    if not path.is_file():
        return f"{path.name} is not a file"
    if size > MAX_POST_BYTES:
        return f"{path.name} is over the {MAX_POST_BYTES:,}-byte limit for a post"
    return None


def lint_batch(
    paths: Sequence[Path],
    backend_setting: str = "auto",
    markdownlint_cli: str | os.PathLike[str] | None = None,
    root: Path | None = None,
    config_file: Path | None = None,
) -> dict[str, Any]:
    """Lint every file in ``paths`` once, grouped by configuration. JSON-serialisable:

    ``{"backend", "version", "error", "files": {abs path: {"config", "violations",
    "error", "sha1"}}}``; ``error`` at the top means no backend could run (every file is
    unjudged); a file's ``error`` means it could not be linted (unreadable, too large,
    its configuration broken).
    ``config_file`` replaces discovery: every file is linted under that configuration.
    """
    files: dict[str, dict[str, Any]] = {}
    groups: dict[str, list[Path]] = {}
    configs: dict[str, Path | None] = {}
    by_folder: dict[Path, Path | ConfigError | None] = {}
    for path in dict.fromkeys(Path(p).resolve() for p in paths):
        problem = _unlintable(path)
        if problem:
            files[str(path)] = {"config": None, "violations": [], "error": problem}
            continue
        if config_file is not None:
            by_folder[path.parent] = config_file.resolve()
        elif path.parent not in by_folder:  # posts of one folder share a configuration
            try:
                by_folder[path.parent] = config_for_folder(path.parent, root)
            except ConfigError as exc:
                by_folder[path.parent] = exc
        config = by_folder[path.parent]
        if isinstance(config, ConfigError):
            files[str(path)] = {"config": None, "violations": [], "error": str(config)}
            continue
        key = str(config) if config else ""
        groups.setdefault(key, []).append(path)
        configs[key] = config
    try:
        backend = choose_backend(
            backend_setting,
            {path.parent for group in groups.values() for path in group},
            markdownlint_cli,
        )
    except LintError as exc:
        return {"backend": None, "version": None, "error": str(exc), "files": files}
    # What each file held when linted (read before the linter runs: a file edited during
    # the run is then re-linted by batch_for rather than trusted).
    digests = {path: file_digest(path) for group in groups.values() for path in group}
    for key, group in groups.items():
        config = configs[key]
        with tempfile.TemporaryDirectory(prefix="postgates-lint-") as scratch:
            work = Path(scratch).resolve()
            try:
                if backend.name == "rumdl":
                    found = run_rumdl(backend, group, load_config(config), work)
                else:
                    if config is not None:
                        _read_config_file(config)  # a broken file fails its posts, not the run
                    found = run_markdownlint_cli(backend, group, config, work)
            except ConfigError as exc:
                for path in group:
                    files[str(path)] = {"config": key or None, "violations": [], "error": str(exc)}
                continue
            except LintError as exc:
                return {
                    "backend": backend.name,
                    "version": backend.version,
                    "error": str(exc),
                    "files": files,
                }
        for path in group:
            violations = sorted(
                set(found.get(str(path), [])), key=lambda v: (v.line, v.rule, v.message)
            )
            files[str(path)] = {
                "config": key or None,
                "violations": [violation.to_dict() for violation in violations],
                "error": None,
                "sha1": digests.get(path),
            }
    return {"backend": backend.name, "version": backend.version, "error": None, "files": files}


def file_digest(path: Path) -> str | None:
    """SHA-1 of the file's bytes: a batch entry stands for exactly this content."""
    try:
        return hashlib.sha1(path.read_bytes()).hexdigest()
    except OSError:
        return None


def batch_for(
    post_path: Path,
    posts: Sequence[Path],
    get: Callable[[str, Callable[[], Any]], Any],
    backend_setting: str = "auto",
    markdownlint_cli: str | os.PathLike[str] | None = None,
    root: Path | None = None,
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The run's batch (computed once through ``get``) and this post's entry in it. A post
    outside the run's list (a library call, the CLI), or whose file changed since the
    batch linted it, gets a batch of its own, keyed by its content."""
    key = str(post_path.resolve())
    batch = get(
        "markdownlint",
        lambda: lint_batch(posts or [post_path], backend_setting, markdownlint_cli, root),
    )
    entry = batch["files"].get(key)
    if batch.get("error") is None:
        digest = file_digest(post_path)
        if entry is None or (digest is not None and entry.get("sha1") != digest):
            name = "markdownlint-" + hashlib.sha1(f"{key}\0{digest}".encode()).hexdigest()[:16]
            batch = get(
                name, lambda: lint_batch([post_path], backend_setting, markdownlint_cli, root)
            )
            entry = batch["files"].get(key)
    return batch, entry
