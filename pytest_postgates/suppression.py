"""Inline suppression: HTML-comment directives that silence one gate's findings.

    <!-- postgates-disable call_graph_claims -->   ... <!-- postgates-enable call_graph_claims -->
    <!-- postgates-disable-next-line numerical_claims -->
    <!-- postgates-disable-file symbol_grounding,markdownlint -->

Gates are named by test name or id. A suppressed finding never vanishes: it moves to the
scorecard's ``suppressed`` list, and the gate's ``decide`` sets the verdict from what is
left (the runner does this the same way for every gate). A
directive naming no gate is itself a problem of the post. Directives inside code are text:
fenced code, and inline code spans (a page that shows how to write a directive,
`` `<!-- postgates-disable-file x -->` ``, silences nothing).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

from pytest_postgates.post import InputProblem, Post
from pytest_postgates.scan import TerminatedBeforeStop
from pytest_postgates.scorecard import Finding

# ``<!--\s*postgates-(disable-next-line|disable-file|disable|enable)\b([^>]*?)-->``, scanned
# in linear time (as a regex, a line of unclosed directives took minutes).
DIRECTIVE = TerminatedBeforeStop(
    r"<!--\s*postgates-(disable-next-line|disable-file|disable|enable)\b([^>]*?)-->",
    re.compile(
        r"<!--\s*postgates-(disable-next-line|disable-file|disable|enable)\b", re.IGNORECASE
    ),
    "-->",
)


def allows(allowed: bool | Collection[str], gate: str) -> bool:
    """Whether the ``allow_suppression`` setting lets a post silence ``gate`` (by name):
    with inline directives, its linter's own inline comments or ``postgates: expect:``."""
    return allowed is True or (not isinstance(allowed, bool) and gate in allowed)


@dataclass
class Suppressions:
    whole_file: set[str] = field(default_factory=set)
    lines: dict[str, set[int]] = field(default_factory=dict)
    problems: list[InputProblem] = field(default_factory=list)

    def covers(self, gate: str, line: int | None) -> bool:
        if gate in self.whole_file:
            return True
        return line is not None and line in self.lines.get(gate, ())


def parse(
    post: Post, gate_names: Mapping[str, str], allowed: bool | Collection[str] = True
) -> Suppressions:
    """Directives of a post. ``gate_names`` maps every accepted spelling (name, id) to the
    gate's name; ``allowed`` (the ``allow_suppression`` setting) says which gates a
    directive may silence: one naming any other is not honoured and is a problem."""
    found = Suppressions()
    open_ranges: dict[str, int] = {}
    last = len(post.lines)
    quoted = _quoted_directives(post)
    for number, text in post.body_lines():
        if number in post.code_lines:
            continue
        for match in DIRECTIVE.finditer(text):
            shown = quoted.get(number)
            if shown and shown[match.group(0)] > 0:
                shown[match.group(0)] -= 1  # written in a code span: an example, not a directive
                continue
            kind = (match.group(1) or "").lower()
            raw = [name for name in re.split(r"[\s,]+", (match.group(2) or "").strip()) if name]
            names = []
            for name in raw:
                gate = gate_names.get(name.lower())
                if gate is None:
                    found.problems.append(
                        InputProblem(
                            "SUPPRESSION",
                            f"postgates-{kind} names no gate {name!r}",
                            line=number,
                            fatal=False,
                        )
                    )
                elif not allows(allowed, gate):
                    found.problems.append(
                        InputProblem(
                            "SUPPRESSION",
                            f"postgates-{kind} {name}: inline suppression of {gate} is not "
                            "allowed here (allow_suppression); the directive is ignored",
                            line=number,
                            fatal=False,
                        )
                    )
                else:
                    names.append(gate)
            if not raw and kind != "enable":
                found.problems.append(
                    InputProblem("SUPPRESSION", f"postgates-{kind} names no gate", number, False)
                )
            if kind == "disable-file":
                found.whole_file.update(names)
            elif kind == "disable-next-line":
                for gate in names:
                    found.lines.setdefault(gate, set()).add(number + 1)
            elif kind == "disable":
                for gate in names:
                    open_ranges.setdefault(gate, number)
            else:  # enable: the named gates, or every open range when none is named
                for gate in names or list(open_ranges):
                    start = open_ranges.pop(gate, None)
                    if start is not None:
                        found.lines.setdefault(gate, set()).update(range(start, number + 1))
    for gate, start in open_ranges.items():
        found.lines.setdefault(gate, set()).update(range(start, last + 1))
    return found


def _quoted_directives(post: Post) -> dict[int, Counter[str]]:
    """File line -> the directives written inside the inline code spans opening on it."""
    quoted: dict[int, Counter[str]] = {}
    for span in post.code_spans:
        if "postgates-" in span.text:
            for match in DIRECTIVE.finditer(span.text):
                quoted.setdefault(span.line, Counter())[match.group(0)] += 1
    return quoted


def split(
    findings: list[Finding], suppressions: Suppressions, gate: str
) -> tuple[list[Finding], list[Finding]]:
    """(kept, suppressed) findings of gate ``gate``."""
    kept: list[Finding] = []
    suppressed: list[Finding] = []
    for finding in findings:
        (suppressed if suppressions.covers(gate, finding.line) else kept).append(finding)
    return kept, suppressed


def as_detail(suppressed: list[Finding]) -> list[dict[str, object]]:
    """The scorecard's ``suppressed`` list."""
    return [{"line": f.line, "code": f.code, "message": f.message} for f in suppressed]
