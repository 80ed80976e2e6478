"""Gate 1's front matter checks (NO_FRONT_MATTER, FRONT_MATTER_KEY, FRONT_MATTER_DATE,
FRONT_MATTER_LIST), split from :mod:`pytest_postgates.gates.blog_quality`, which decides
what they mean for the post (the rules are in its docstring).

A front matter date that disagrees with a ``YYYY-MM-DD-slug`` file name is returned apart
from the other findings: Jekyll builds such a post (the front matter date wins and sets
its URL), so the agreement is house style, enforced only where the project adopts it.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

from pytest_postgates.post import Post
from pytest_postgates.scorecard import Finding

_FILENAME_DATE = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})-(.+)\.[^.]+$")
_DATE_STRING = re.compile(
    r"(\d{4})-(\d{1,2})-(\d{1,2})"
    r"(?:[Tt ]+(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?"
    r"\s*(Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?"
)
LIST_KEYS = ("categories", "tags")


def parse_date(value: object) -> tuple[dt.date | None, str]:
    """(the calendar date as written, a problem or ""). YAML already turned unquoted
    dates and timestamps into ``date``/``datetime``; strings are read as Jekyll writes
    them. The date stays in its own time zone: that is the date the author chose."""
    if isinstance(value, dt.datetime):
        return value.date(), ""
    if isinstance(value, dt.date):
        return value, ""
    if not isinstance(value, str):
        return None, f"date is {_type_name(value)}, not a date"
    match = _DATE_STRING.fullmatch(value.strip())
    if match is None:
        return None, f"date {value!r} does not parse (expected YYYY-MM-DD[ HH:MM:SS][ +HHMM])"
    year, month, day, hour, minute, second, _fraction, zone = match.groups()
    try:
        written = dt.date(int(year), int(month), int(day))
        dt.time(int(hour or 0), int(minute or 0), int(second or 0))
    except ValueError as exc:
        return None, f"date {value!r} is not a real date or time: {exc}"
    if zone and zone[0] in "+-":
        digits = zone[1:].replace(":", "")
        hours, minutes = int(digits[:2]), int(digits[2:] or 0)
        if hours > 23 or minutes > 59:
            return None, f"date {value!r} has an impossible time-zone offset {zone}"
    return written, ""


def filename_date(path: Path) -> tuple[dt.date | None, str]:
    """The date of a ``YYYY-MM-DD-slug.md`` file name, or (None, "") for other names."""
    match = _FILENAME_DATE.match(path.name)
    if match is None:
        return None, ""
    try:
        return dt.date(int(match[1]), int(match[2]), int(match[3])), ""
    except ValueError:
        return None, f"file name date {match[1]}-{match[2]}-{match[3]} is not a real date"


def _type_name(value: object) -> str:
    if value is None:
        return "null"
    names = {bool: "a boolean", int: "an integer", float: "a number", dict: "a mapping"}
    names.update({list: "a list", dt.date: "a date", dt.datetime: "a timestamp"})
    return names.get(type(value), type(value).__name__)


def _key_line(post: Post, key: str) -> int:
    """File line of a top-level front matter key (line 1 when it is absent): ``key:`` in
    YAML, ``key =`` in TOML, ``"key":`` (indented) in JSON."""
    if post.front_matter_format == "toml":
        pattern = re.compile(rf"^['\"]?{re.escape(key)}['\"]?\s*=")
    elif post.front_matter_format == "json":
        pattern = re.compile(rf"^\s*\"{re.escape(key)}\"\s*:")
    else:
        pattern = re.compile(rf"^['\"]?{re.escape(key)}['\"]?\s*:")
    for number in range(2, post.body_start_line - 1):
        if pattern.match(post.lines[number - 1]):
            return number
    return 1


def _written_as(number: int, source: str) -> bool:
    """Whether the integer ``number`` is written in ``source`` (the raw front matter) as its
    own decimal text: then the site renders the tag as the author wrote it. YAML 1.1 reads
    `010` as 8 and `1_000` as 1000, which the text of the number would not show."""
    return re.search(rf"(?<![\w.:-]){number}(?![\w.:-])", source) is not None


def _check_list(key: str, value: object, source: str = "") -> tuple[list[str], list[str]]:
    """(the entries Jekyll derives, problems). An integer item written as such is its
    text to Jekyll and Hugo alike (`tags: [python, 2020]` makes the tag 2020); a float
    (`1.10` read as 1.1), a boolean (`yes` read as true) or a date is not what was written."""
    if value is None:
        return [], []
    if isinstance(value, str):
        if "," in value:
            return value.split(), [
                f"{key} is the string {value!r}: Jekyll splits it on spaces, so the commas "
                "stay in the names; write a YAML list"
            ]
        return value.split(), []
    if not isinstance(value, list):
        return [], [f"{key} is {_type_name(value)}; write a YAML list of strings"]
    problems = []
    entries = []
    for index, item in enumerate(value, start=1):
        if isinstance(item, str) and item.strip():
            entries.append(item)
        elif type(item) is int and _written_as(item, source):
            entries.append(str(item))
        elif isinstance(item, str):
            problems.append(f"{key} item {index} is an empty string")
        else:
            problems.append(
                f"{key} item {index} is {_type_name(item)} ({item!r}), not a string; quote it"
            )
    return entries, problems


def check_front_matter(
    post: Post, required: tuple[str, ...], front_matter_required: bool = True
) -> tuple[list[Finding], dict[str, Any], Finding | None]:
    """Findings on the front matter, its detail, and the finding among them that says its
    date disagrees with the file name's (None when it agrees or either is missing). A file
    without any is a finding (NO_FRONT_MATTER) only where front matter is required;
    elsewhere (a docs page) there is nothing to check."""
    data = post.front_matter or {}
    findings: list[Finding] = []
    if post.front_matter_format is None:
        if front_matter_required:
            findings.append(
                Finding(
                    1,
                    "NO_FRONT_MATTER",
                    "no front matter: a post starts with a '---' (YAML), '+++' (TOML) or '{' "
                    "(JSON) block",
                    fix="add front matter with " + ", ".join(required)
                    if required
                    else "add front matter",
                )
            )
        named, name_problem = filename_date(post.path)
        if name_problem and front_matter_required:
            findings.append(
                Finding(
                    1, "FRONT_MATTER_DATE", name_problem, fix="rename the file with a real date"
                )
            )
        return (
            findings,
            {
                "format": None,
                "required": list(required) if front_matter_required else [],
                "front_matter_required": front_matter_required,
                "missing": list(required) if front_matter_required else [],
                "date": None,
                "filename_date": named.isoformat() if named else None,
                "date_matches_filename": None,
                "lists": {},
            },
            None,
        )
    missing = [key for key in required if data.get(key) in (None, "")]
    for key in missing:
        state = "is empty" if key in data else "is missing"
        findings.append(
            Finding(
                _key_line(post, key),
                "FRONT_MATTER_KEY",
                f"front matter key {key!r} {state}; a Jekyll post needs it",
                fix=f"add '{key}:' with a value to the front matter",
            )
        )
    written: dt.date | None = None
    mismatch: Finding | None = None
    named, name_problem = filename_date(post.path)
    if name_problem:
        findings.append(
            Finding(1, "FRONT_MATTER_DATE", name_problem, fix="rename the file with a real date")
        )
    if "date" in data and data["date"] not in (None, ""):
        written, problem = parse_date(data["date"])
        line = _key_line(post, "date")
        if problem:
            findings.append(
                Finding(line, "FRONT_MATTER_DATE", problem, fix="write date: YYYY-MM-DD HH:MM:SS")
            )
        elif named is not None and written is not None and written != named:
            mismatch = Finding(
                line,
                "FRONT_MATTER_DATE",
                f"date {written.isoformat()} does not match the file name's {named.isoformat()}",
                fix="make the front matter date and the file name's date the same day",
            )
            findings.append(mismatch)
    lists: dict[str, list[str]] = {}
    for key in LIST_KEYS:
        if key not in data:
            continue
        entries, problems = _check_list(key, data[key], post.front_matter_text)
        lists[key] = entries
        findings.extend(
            Finding(
                _key_line(post, key),
                "FRONT_MATTER_LIST",
                problem,
                fix=f"write {key} as a YAML list of quoted strings",
            )
            for problem in problems
        )
    detail = {
        "format": post.front_matter_format,
        "required": list(required),
        "front_matter_required": front_matter_required,
        "missing": missing,
        "date": written.isoformat() if written else None,
        "filename_date": named.isoformat() if named else None,
        "date_matches_filename": None if written is None or named is None else written == named,
        "lists": lists,
    }
    return findings, detail, mismatch
