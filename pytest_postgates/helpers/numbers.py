"""Numbers with units as gate 7 reads them: the unit families and their spellings, the
claim pattern ("200 ms", "40,000-token", "3x", "50%"), digit separators, conversion to base
units, and the content words that link a number to a key or a file.
"""

from __future__ import annotations

import re
from functools import lru_cache

# unit family -> spellings (longest first inside the regex); the family is reported.
UNITS: dict[str, tuple[str, ...]] = {
    "ms": ("milliseconds", "millisecond", "msec", "ms"),
    "us": ("microseconds", "µs", "us"),
    "s": ("seconds", "second", "secs", "sec", "s"),
    "min": ("minutes", "minute", "mins", "min"),
    "h": ("hours", "hour", "hrs", "hr"),
    "days": ("days", "day"),
    "weeks": ("weeks", "week"),
    "months": ("months", "month"),
    "KB": ("KB", "kB", "KiB"),
    "MB": ("MB", "MiB"),
    "GB": ("GB", "GiB"),
    "TB": ("TB", "TiB"),
    "%": ("%", "percent"),
    "x": ("x", "\u00d7", "times"),  # 10x, 10\u00d7 (multiplication sign), 3 times
    "K": ("K",),
    "M": ("M",),
    "tokens": ("tokens", "token"),
    "req/s": ("req/s", "requests/s", "requests per second", "rps", "RPS", "QPS", "qps", "ops/s"),
    "requests": ("requests",),
    "queries": ("queries",),
    "lines": ("lines of code", "lines", "LOC"),
    "files": ("files",),
    "characters": ("characters", "chars"),
    "tests": ("tests", "test cases"),
}


_CASE_SENSITIVE = {
    "tokens",  # "OAuth 2.0 Token" is a name, not 2 tokens
    "token",
    "K",
    "M",
    "KB",
    "MB",
    "GB",
    "TB",
    "KiB",
    "MiB",
    "GiB",
    "TiB",
    "kB",
    "RPS",
    "QPS",
    "LOC",
    "x",
}


UNIT_FAMILY = {spelling: family for family, spellings in UNITS.items() for spelling in spellings}


_NUMBER = r"(?<![\w.$/#:-])(\d{1,3}(?:[,_]\d{3})+|\d+)(\.\d+)?"


def _unit_alternation() -> str:
    spellings = sorted(UNIT_FAMILY, key=len, reverse=True)
    parts = []
    for spelling in spellings:
        escaped = re.escape(spelling).replace(r"\ ", r"\s+")
        parts.append(escaped if spelling in _CASE_SENSITIVE else f"(?i:{escaped})")
    return "|".join(parts)


# A number, an optional space or hyphen, a unit, then no further word character ("5 ms",
# "40,000-token", "3x", "50%", "8K tokens" is read as 8K).
CLAIM = re.compile(rf"{_NUMBER}(?:\s?|-)({_unit_alternation()})(?![\w%])")


_SEPARATOR = re.compile(r"(?<=\d)[,_](?=\d{3}(?!\d))")


def normalise_number(text: str) -> str:
    return _SEPARATOR.sub("", text)


TIME_SECONDS = {
    "us": 1e-6,
    "ms": 1e-3,
    "s": 1.0,
    "min": 60.0,
    "h": 3600.0,
    "days": 86400.0,
    "weeks": 604800.0,
    "months": 2592000.0,
}


SIZE_BYTES = {"KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12}


BINARY_BYTES = {"KB": 2.0**10, "MB": 2.0**20, "GB": 2.0**30, "TB": 2.0**40}


CODE_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


CAMEL_PART = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


_STOP = frozenset(
    "this that with from have will your when then than they them their there these those "
    "into also only each every about after before over under more most less what which "
    "while where value values const true false null none return default number".split()
)


def to_float(number: str, fraction: str | None) -> float:
    return float(normalise_number(number) + (fraction or ""))


def quantity_of(family: str, number: float) -> tuple[str, float]:
    if family in TIME_SECONDS:
        return "time", number * TIME_SECONDS[family]
    if family in SIZE_BYTES:
        return "bytes", number * SIZE_BYTES[family]
    if family == "K":
        return "count", number * 1e3
    if family == "M":
        return "count", number * 1e6
    return family, number


def family_of_spelling(spelling: str) -> str:
    return UNIT_FAMILY.get(spelling) or UNIT_FAMILY.get(spelling.lower()) or family_of(spelling)


def content_words(text: str) -> set[str]:
    """Content words, lower case, a plural "s" dropped, identifiers split at case."""
    words: set[str] = set()
    # Each distinct identifier once: repository lines and posts repeat the same ones.
    for raw in set(CODE_WORD.findall(text)):
        words.update(_words_of_identifier(raw))
    return words


@lru_cache(maxsize=1 << 16)
def _words_of_identifier(raw: str) -> tuple[str, ...]:
    """The content words of one identifier (see :func:`content_words`)."""
    words = []
    for part in [raw, *CAMEL_PART.findall(raw), *raw.split("_")]:
        word = part.lower()
        if len(word) >= 4 and word not in _STOP and not word.isdigit():
            word = word[:-1] if word.endswith("s") and len(word) > 4 else word
            words.append(_SYNONYM.get(word, word))
    return tuple(words)


# Words code and prose use for the same setting ("initialDelay" / "starting at 2 seconds").
_SYNONYM = {
    "initial": "start",
    "starting": "start",
    "backoff": "delay",
    "wait": "delay",
    "waiting": "delay",
    "interval": "delay",
    "maximum": "limit",
    "ceiling": "limit",
    "cap": "limit",
    "expiry": "ttl",
    "expire": "ttl",
}


def family_of(spelling: str) -> str:
    for family, spellings in UNITS.items():
        if any(
            spelling.lower() == s.lower()
            or re.fullmatch(re.escape(s).replace(r"\ ", r"\s+"), spelling, re.I)
            for s in spellings
        ):
            return family
    return spelling
