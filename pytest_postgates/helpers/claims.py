"""The seeds' nine call-graph claim shapes (``X calls Y``, ``is the entry point``, ...),
shared by gate 13 (which counts them) and gate 10 (which asks a judge about them).

Compiled with ``re.ASCII`` so that ``\\b`` and ``\\w`` mean what they mean in JavaScript.
"""

from __future__ import annotations

import re

from pytest_postgates.scan import Alternation, HeadThenTail, Scanner

_I = re.IGNORECASE | re.ASCII
# Two patterns have ``.*`` between alternations, which backtracks quadratically on a long
# line of the first alternation; they are scanned in linear time (pytest_postgates.scan).
PATTERNS: tuple[tuple[str, re.Pattern[str] | Scanner], ...] = (
    (
        # The seeds' \b(calls?|invokes?|is called by|delegates? to|routes? (it|them|each|the)
        # \b.*\bto|dispatches? (on|to))\b, with the ``.*`` alternative scanned once per line.
        "CALLS",
        Alternation(
            r"\b(calls?|invokes?|is called by|delegates? to|routes? (it|them|each|the)\b.*\bto"
            r"|dispatches? (on|to))\b",
            [
                re.compile(
                    r"\b(calls?|invokes?|is called by|delegates? to|dispatches? (on|to))\b", _I
                ),
                HeadThenTail(
                    r"\broutes? (it|them|each|the)\b.*\bto\b",
                    re.compile(r"\broutes? (it|them|each|the)\b", _I),
                    re.compile(r".*\bto\b", _I),
                ),
            ],
        ),
    ),
    ("ORCHESTRATES", re.compile(r"\borchestrat(e|es|ing)\b", _I)),
    (
        "GATE_ROLE",
        re.compile(
            r"\b(is the (gate|entry ?point|workhorse|engine|conductor|orchestrator)"
            r"|the (gate|entry ?point) is)\b",
            _I,
        ),
    ),
    (
        "SWITCH",
        re.compile(
            r"\b(switch statement|switch/case|switch over|a new case\b|case to the switch"
            r"|large switch|hard-?coded switch)\b",
            _I,
        ),
    ),
    (
        "RETURN_TYPE",
        # Case-sensitive on purpose: only a capitalised type or a generic is a checkable claim.
        re.compile(
            r"\breturns?\s+(a\s+|an\s+)?`?(Promise<|ReadableStream|StreamResult|ModelMessage|[A-Z]\w+<)",
            re.ASCII,
        ),
    ),
    (
        "VISIBILITY",
        re.compile(
            r"\b((private|public|protected)\s+(static\s+)?(method|function|helper|field|class)"
            r"|is (a )?(private|public|protected)\b)",
            _I,
        ),
    ),
    (
        "THIN_CLASS",
        re.compile(
            r"\b(thin|tiny|lightweight|small|slim)\s+"
            r"(provider|adapter|wrapper|shim|class|layer|module|file)\b",
            _I,
        ),
    ),
    (
        "FN_CONTAINS",
        re.compile(
            r"\b(function|method|class)\s+(contains|holds|wraps|implements|consists of)\b", _I
        ),
    ),
    (
        "CALL_DIRECTION",
        HeadThenTail(
            r"\b(under the hood|behind the scenes|internally)\b.*\b(calls?|invokes?|delegates?)\b",
            re.compile(r"\b(under the hood|behind the scenes|internally)\b", _I),
            re.compile(r".*\b(calls?|invokes?|delegates?)\b", _I),
        ),
    ),
)
CODES = tuple(code for code, _ in PATTERNS)

# Words (lower case) one of which every match of a pattern contains: a line whose lower-case
# text holds none of them cannot match, so a line scan tests these substrings before any
# pattern runs (most prose lines hold none). The patterns match ASCII letters in either
# case only, which ``str.lower`` folds the same way.
KEYWORDS: dict[str, tuple[str, ...]] = {
    "CALLS": ("call", "invoke", "delegate", "route", "dispatch"),
    "ORCHESTRATES": ("orchestrat",),
    "GATE_ROLE": ("gate", "entry", "workhorse", "engine", "conductor", "orchestrator"),
    "SWITCH": ("switch", "a new case"),
    "RETURN_TYPE": ("return",),
    "VISIBILITY": ("private", "public", "protected"),
    "THIN_CLASS": ("thin", "tiny", "lightweight", "small", "slim"),
    "FN_CONTAINS": ("function", "method", "class"),
    "CALL_DIRECTION": ("under the hood", "behind the scenes", "internally"),
}
