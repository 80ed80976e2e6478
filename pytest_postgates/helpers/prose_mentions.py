"""Gate 15's reading of the page's prose where it repeats a name its own samples use
wrongly: a code span that writes the very name a sample of the page uses and the product
lacks is the same claim, made in prose (issue 26). Docs introduce an option or a method
in a sentence and show it in the sample below ("provide the paths via the `entitiesDirs`
array", then `MikroORM.init({ entitiesDirs })`); when the sample's use is a finding, so is
the sentence's, reported on the prose line a reader would have to fix.

A span is the same claim when, its call parentheses dropped (`orm.schema.createSchema()`),
it spells the sample's name exactly (a member chain, an option key, an export), or it is
the last name of that chain alone (`createSchema`) and the product's code writes that
name nowhere (a name the product has may be another of its things than the member the
sample misses). Prose only repeats; it decides nothing by itself: a span the page writes
as the product's past ("`x` was removed in v4") is left, as gate 2 leaves it, and a
sample the page shows as the old way beside its fix has no finding left to repeat.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pytest_postgates.helpers.history_cues import gone_or_denied
from pytest_postgates.helpers.rule import Rule

if TYPE_CHECKING:
    from pytest_postgates.helpers.sample_checks import SampleReport
    from pytest_postgates.post import Post

RULES = (
    Rule(
        "prose-repeats-sample",
        "a finding",
        "a prose code span that spells the name a sample of the same page uses and the "
        "product lacks (the whole chain, or its last name when the product's code writes "
        "that name nowhere) is the same claim, reported on the prose line; a span written as "
        "the product's past is not",
        "tests/test_gate_code_samples_prose_mentions.py::"
        "test_a_prose_span_naming_what_the_sample_writes_wrong_is_reported",
    ),
)

# A name as prose writes one: identifiers joined by dots, maybe with its call's arguments.
_NAME = re.compile(r"^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$")
_CALL = re.compile(r"\((?:[^()]|\([^()]*\))*\)$")
# The findings whose name is code a sentence may repeat (not a CLI line, a module path).
_KINDS = frozenset(
    {"named_export", "member", "option_key", "config_key", "keyword_argument", "parameter",
     "python_attribute", "python_name", "python_import"}
)  # fmt: skip


def spelled_name(span: str) -> str | None:
    """The name a code span writes (`orm.schema.createSchema()` -> `orm.schema.createSchema`),
    or None when the span is no name (a call with code in it, a sentence, a path)."""
    text = span.strip().removeprefix("new ").rstrip(";").strip()
    text = _CALL.sub("", text)
    return text if _NAME.match(text) else None


def repeat_in_prose(
    report: SampleReport, post: Post, writes: Callable[[str], bool], rules_off: frozenset[str]
) -> None:
    """Report each prose code span of ``post`` that repeats a name the page's samples use
    and the product lacks (see the module's docstring); ``writes``: whether the product's
    code writes a name anywhere."""
    if "prose-repeats-sample" in rules_off or not report.violations:
        return
    whole: dict[str, tuple[int, dict[str, Any]]] = {}
    last: dict[str, tuple[int, dict[str, Any]]] = {}
    for number, item in enumerate(report.violations):
        name = str(item.get("name") or "")
        if item.get("kind") not in _KINDS or not _NAME.match(name):
            continue
        whole.setdefault(name, (number, item))
        tail = name.rsplit(".", 1)[-1]
        if tail != name:
            last.setdefault(tail, (number, item))
    done: set[tuple[int, str]] = set()
    for span in post.prose_code_spans:
        spelled = spelled_name(span.text)
        if spelled is None or (span.line, spelled) in done:
            continue
        name = spelled
        found = whole.get(name)
        if found is None and "." not in name and name in last and not writes(name):
            found = last[name]
        if found is None:
            continue
        if gone_or_denied(post.prose, span.line, span.text, name, rules_off):
            continue
        done.add((span.line, name))
        number, item = found
        report.violation(
            span.line,
            str(item["kind"]),
            name,
            str(item.get("where_looked", "")),
            f"the page's prose names `{name}`, which its sample at line {item['line']} uses: "
            f"{item['reason']}",
            list(report.suggestions.get(number) or []),
        )
