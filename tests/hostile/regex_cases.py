"""Every pattern that pytest_postgates.scan replaced, next to the regex it replaced.

Shared by the equivalence tests (tests/test_scan.py), the growth tests
(tests/hostile/test_regex_growth.py) and bench/regex_growth.py. ``adversarial(n)`` builds
an input of about ``n`` characters on which the original regex backtracks
super-linearly.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pytest_postgates import prose, suppression
from pytest_postgates.evidence import lint_rules
from pytest_postgates.gates import (
    blog_quality,
    call_graph_claims,
    import_specifiers,
    numerical_claims,
)
from pytest_postgates.helpers import claim_scan
from pytest_postgates.tools import raw_links

_I = re.IGNORECASE | re.ASCII
_Q = r"""(['"`])([^'"`\n]+)\1"""


def _pattern(patterns: Any, code: str) -> Any:
    return dict(patterns)[code]


@dataclass(frozen=True)
class Case:
    name: str
    new: Any  # the scanner (or rewritten regex) the package uses
    old: re.Pattern[str]  # the regex it replaced, verbatim
    adversarial: Callable[[int], str]
    pieces: tuple[str, ...]  # what the pattern reacts to: hypothesis builds text from these
    groups: bool = True  # compare groups too (False: the scanner promises group 0 only)
    spans: bool = True  # compare spans too (False: only the groups, as ``findall`` reads them)


def _repeat(unit: str, tail: str = "") -> Callable[[int], str]:
    return lambda n: unit * max(1, n // len(unit)) + tail


class _SentenceEnds:
    """The prose view's sentence ends (``boundary="sentence_start"``) wearing the regex
    API: the runs the readability regex it replaced matched."""

    pattern = "prose.sentence_ends(text, 'sentence_start')"

    def finditer(self, text: str) -> list[Any]:
        return list(prose.sentence_ends(text, "sentence_start"))

    def search(self, text: str) -> Any:
        return next(iter(prose.sentence_ends(text, "sentence_start")), None)


CASES: tuple[Case, ...] = (
    Case(
        "suppression directive",
        suppression.DIRECTIVE,
        re.compile(
            r"<!--\s*postgates-(disable-next-line|disable-file|disable|enable)\b([^>]*?)-->",
            re.IGNORECASE,
        ),
        _repeat("<!-- postgates-disable "),
        pieces=(
            "<!--",
            "-->",
            "--",
            ">",
            " ",
            "\n",
            "postgates-disable",
            "postgates-enable",
            "-next-line",
            "-file",
            " a",
            "X",
        ),
    ),
    Case(
        "gate 13 CALLS",
        _pattern(call_graph_claims.PATTERNS, "CALLS"),
        re.compile(
            r"\b(calls?|invokes?|is called by|delegates? to|routes? (it|them|each|the)\b.*\bto"
            r"|dispatches? (on|to))\b",
            _I,
        ),
        _repeat("routes the "),
        groups=False,
        pieces=(
            "routes ",
            "route ",
            "the",
            "it",
            "them",
            "each",
            " to",
            "to",
            " ",
            "\n",
            "calls",
            "x",
            "dispatches on",
            "delegates to",
        ),
    ),
    Case(
        "gate 13 CALL_DIRECTION",
        _pattern(call_graph_claims.PATTERNS, "CALL_DIRECTION"),
        re.compile(
            r"\b(under the hood|behind the scenes|internally)\b.*\b(calls?|invokes?|delegates?)\b",
            _I,
        ),
        _repeat("internally "),
        groups=False,
        pieces=(
            "internally",
            "under the hood",
            " ",
            "\n",
            "calls",
            "invoke",
            "s",
            "x",
            "delegates",
        ),
    ),
    Case(
        "gate 13 function label",
        claim_scan._FN_LABEL,
        re.compile(
            r"""[\[("']([^\]\n)"']*(?<![A-Za-z0-9])[a-z][a-zA-Z_]+\(\)[^\]\n)"']*)""", re.ASCII
        ),
        _repeat("("),
        pieces=("[", "(", ")", '"', "'", "]", "\n", "a", "b", "A", "1", "_", "()", "foo", " "),
    ),
    Case(
        "gate 6 sentence boundary",
        _SentenceEnds(),
        re.compile(
            r"[.!?]+[\"'\u201d\u2019)\]]*(?=\s+[\"'\u201c\u2018(\[*_]*[A-Z0-9"
            + prose.CODE_MARK
            + r"]|\s*$)"
        ),
        _repeat(".", "x"),
        pieces=(
            ".",
            "!",
            "?",
            '"',
            ")",
            "]",
            "\u201d",
            " ",
            "\n",
            "A",
            "1",
            "a",
            "(",
            "*",
            prose.CODE_MARK,
        ),
    ),
    Case(
        "gate 6 Liquid",
        prose._LIQUID,
        re.compile(r"\{%.*?%\}|\{\{.*?\}\}|\{:[^}]*\}", re.DOTALL),
        _repeat("{%"),
        pieces=("{", "}", "%", ":", "{%", "%}", "{{", "}}", "{:", "a", "\n"),
    ),
    Case(
        "gate 6 prefetch code span",
        raw_links._RAW_CODE_SPAN,
        re.compile(r"(`+)(?:(?!\1).)+?\1"),
        _repeat("`"),
        pieces=("`", "``", "```", "a", " ", "\n"),
    ),
    Case(
        "gate 14 import",
        _pattern(import_specifiers.IMPORT_PATTERNS, "import"),
        re.compile(rf"\bimport\b(?!\s*\()[^'\"`;]*?\bfrom\s*{_Q}"),
        _repeat("import a "),
        pieces=("import", "from", " ", "\n", "(", "'", '"', "`", ";", "a", "x/y", "\t"),
    ),
    Case(
        "gate 14 export",
        _pattern(import_specifiers.IMPORT_PATTERNS, "export"),
        re.compile(rf"\bexport\b[^'\"`;]*?\bfrom\s*{_Q}"),
        _repeat("export a "),
        pieces=("export", "from", " ", "\n", "'", '"', "`", ";", "a", "*"),
    ),
    Case(
        "gate 14 command separator",
        import_specifiers.COMMAND_SEPARATOR,
        re.compile(r"\s*(?:&&|\|\||;|\|)\s*"),
        _repeat(" ", "x"),
        pieces=(" ", "\t", "&", "&&", "|", "||", ";", "a", "\n"),
    ),
    Case(
        "gate 7 link",
        numerical_claims.LINK,
        re.compile(r"!?\[[^\]\n]*\]\([^)\n]*\)|<https?://[^>\s]+>"),
        _repeat("["),
        pieces=(
            "[",
            "]",
            "(",
            ")",
            "!",
            "\n",
            " ",
            "a",
            "<",
            ">",
            "http://",
            "https://",
            "<http://",
        ),
    ),
    Case(
        "gate 7 code span",
        numerical_claims._CODE_SPAN,
        re.compile(r"(?<!`)(`+)(?!`).+?(?<!`)\1(?!`)"),
        lambda n: "".join("`" * width + "a" for width in range(1, int((2 * n) ** 0.5))),
        pieces=("`", "``", "```", "a", " ", "\n"),
    ),
    Case(
        "gate 7 URL",
        numerical_claims._URL,
        re.compile(r"\b[a-z][a-z0-9+.-]*://[^\s)>\]]+", re.I),
        _repeat("a."),
        pieces=("a", "1", ".", "+", "-", ":", "://", " ", ")", "]", ">", "K", "_", "\u212a", "\n"),
    ),
    Case(
        "gate 7 evidence noise",
        numerical_claims._EVIDENCE_NOISE,
        re.compile(
            r"\b[a-z][a-z0-9+.-]*://\S+|\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{6,}\b", re.I
        ),
        _repeat("a-e."),
        pieces=("a", "e", "f", "1", "0", ".", "-", "://", " ", "g", "\n", "abcdef", "123"),
    ),
    Case(
        "gate 11 code span",
        prose._LINE_CODE_SPAN,
        re.compile(r"(?<!`)(`+)(?!`).+?(?<!`)\1(?!`)"),
        lambda n: "".join("`" * width + "a" for width in range(1, int((2 * n) ** 0.5))),
        pieces=("`", "``", "```", "a", " ", "\n"),
    ),
    Case(
        "gate 11 URL (gates 1, 11)",
        prose._LINE_URL,
        re.compile(r"\]\([^)\s]*\)|<[a-z][a-z0-9+.-]*:[^>\s]*>|\b[a-z][a-z0-9+.-]*://\S+", re.I),
        _repeat("a]("),
        pieces=("]", "(", ")", "](", "<", ">", ":", "a", "1", ".", "+", "://", " ", "\n", "-"),
    ),
    Case(
        "gate 1 bracketed placeholder",
        _pattern(blog_quality.PLACEHOLDER_PATTERNS, "bracketed"),
        re.compile(r"\[\s*(?:insert|placeholder)\b[^\]\n]*\]", re.I),
        _repeat("[insert "),
        pieces=("[", "]", "insert", "placeholder", " ", "\n", "a", "INSERT"),
    ),
    Case(
        "gate 1 angle placeholder",
        _pattern(blog_quality.PLACEHOLDER_PATTERNS, "angle"),
        re.compile(r"<\s*(?:placeholder|insert)\b[^>\n]*>", re.I),
        _repeat("<insert "),
        pieces=("<", ">", "insert", "placeholder", " ", "\n", "a"),
    ),
    Case(
        "prose view code span (sentences, claims, plain text; gates 4, 9, 10)",
        prose._CODE_SPAN,
        re.compile(r"(`+)(.+?)\1", re.DOTALL),
        _repeat("`", "a"),
        pieces=("`", "``", "```", "a", " ", "\n"),
    ),
    Case(
        "judged prose link",
        prose._LINK,
        re.compile(r"!?\[([^\]]*)\]\([^)]*\)"),
        _repeat("["),
        pieces=("[", "]", "(", ")", "!", "\n", " ", "a"),
    ),
    Case(
        "judged prose emphasis",
        prose._EMPHASIS,
        re.compile(r"(?<!\w)(\*\*|__|\*|_)(?=\S)(.+?)(?<=\S)\1(?!\w)"),
        _repeat("*a "),
        pieces=("*", "**", "_", "__", " ", "\n", "a", "1", "."),
    ),
)


def matches(pattern: Any, text: str, groups: bool, spans: bool = True) -> list[Any]:
    """Every finditer match: its span, and its groups when compared."""
    found = []
    for match in pattern.finditer(text):
        if not spans:
            found.append(match.groups())
        elif groups:
            found.append((match.span(), match.groups()))
        else:
            found.append(match.span())
    return found


class _LastWord:
    """``_last_word`` wearing the regex API, for the shared equivalence and growth tests."""

    pattern = r"([A-Za-z][A-Za-z.]*)$"

    def finditer(self, text: str) -> list[Any]:
        found = self.search(text)
        return [] if found is None else [found]

    def search(self, text: str) -> Any:
        from pytest_postgates.scan import Found

        word = prose._last_word(text)
        if word is None:
            return None
        end = len(text) - 1 if text.endswith("\n") else len(text)
        return Found(text, [(end - len(word), end), (end - len(word), end)])


CASES = (
    *CASES,
    Case(
        "gate 6 last word before a full stop",
        _LastWord(),
        re.compile(r"([A-Za-z][A-Za-z.]*)$"),
        _repeat("A", ")"),
        pieces=("A", "a", ".", " ", ")", "z", "1", "\n", "e.g"),
    ),
)


_KEY_PIECES = (
    "a",
    "b1",
    "-",
    "--",
    "'",
    '"',
    ":",
    " ",
    "\n",
    ",",
    "}",
    "require(",
    "'./x'",
    "A",
    "_",
)
CASES = (
    *CASES,
    Case(
        "lint rules registry require entry",
        lint_rules._REQUIRE_ENTRY,
        re.compile(r"""["']?([a-z0-9][a-z0-9-]*)["']?\s*:\s*require\(\s*["']\./([^"']+)["']"""),
        _repeat("a-", ": x"),
        pieces=_KEY_PIECES,
        spans=False,
    ),
    Case(
        "lint rules registry key to identifier",
        lint_rules._KEY_TO_IDENT,
        re.compile(r"""["']?([a-z0-9][a-z0-9-]*)["']?\s*:\s*(\w+)\s*[,}\n]"""),
        _repeat("a-", ": x"),
        pieces=_KEY_PIECES,
        spans=False,
    ),
    Case(
        "lint rule messages",
        lint_rules._MESSAGE,
        re.compile(r"""([A-Za-z_]\w*)\s*:\s*(['"`])(.*?)\2"""),
        _repeat("1a", ": x"),
        pieces=("a", "A", "_", "1", "\u00e9", "\u00b2", " ", ":", "'", '"', "`", "\n", "x", "-"),
        spans=False,
    ),
)
