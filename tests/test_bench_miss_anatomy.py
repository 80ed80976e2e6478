"""bench/miss_anatomy.py: each missed defect token sorted into the mechanism that decided it,
from the card entries the benches keep (synthetic cards here, one per mechanism), and where
a token is written on the page."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import load_bench

anatomy = load_bench("miss_anatomy", "miss_anatomy.py")

PASSED = {"2": "PASS", "14": "PASS", "15": "PASS"}


def _entries(gate: int, detail: dict[str, Any], names: tuple[str, ...], line: int) -> list[Any]:
    return list(anatomy.name_entries(anatomy.card_entries(gate, detail), names, line))


def _gate2(**outcomes: list[dict[str, Any]]) -> dict[str, Any]:
    return {"ungrounded": outcomes.pop("ungrounded", []), "outcomes": outcomes}


def _classify(entries: list[Any], where: str = "prose code span", **kw: Any) -> str:
    return str(anatomy.classify(entries, kw.pop("verdicts", PASSED), kw.pop("reasons", {}),
                                where, **kw))  # fmt: skip


@pytest.mark.parametrize(
    ("item", "outcome", "mechanism"),
    [
        ({"token": "max_retry", "line": 10, "rule": "model-found"}, "grounded",
         "grounded: gate 2 model-found"),
        ({"token": "max_retry", "line": 10, "where": "docs/guide.md:3"}, "grounded",
         "grounded: gate 2 evidence file .md"),
        ({"token": "max_retry", "line": 10, "rule": "dependency-found"}, "external",
         "external: gate 2 dependency-found"),
        ({"token": "max_retry", "line": 11, "rule": "not-anchored", "reason": "no anchor"},
         "unjudged", "unjudged: gate 2 not-anchored"),
        ({"token": "max_retry", "line": 9, "rule": "hypothetical"}, "not-a-reference",
         "not-a-reference: gate 2 hypothetical"),
    ],
)  # fmt: skip
def test_gate2_outcomes_name_the_rule_or_evidence_that_decided(
    item: dict[str, Any], outcome: str, mechanism: str
) -> None:
    entries = _entries(2, _gate2(**{outcome: [item]}), ("max_retry",), 10)
    assert _classify(entries) == mechanism


def test_a_token_no_card_mentions_is_not_read_by_where_it_is_written() -> None:
    other = _entries(2, _gate2(grounded=[{"token": "Client", "line": 10}]), ("max_retry",), 10)
    assert other == []
    assert _classify(other) == "not read: prose code span"
    assert _classify([], "heading") == "not read: heading"


def test_a_gate_error_is_told_only_for_the_gate_that_reads_the_token_there() -> None:
    verdicts = {"2": "PASS", "14": "PASS", "15": "ERROR"}
    reasons = {"15": "no package name: set 'package' (at drift-ref 12)"}
    fence = "fence python, gate 15 reads as python"
    assert _classify([], fence, verdicts=verdicts, reasons=reasons) == (
        "gate error: gate 15 ERROR no package name: set … (…)"
    )
    # Gate 15's error says nothing of a token in prose: gate 2 reads it, and saw nothing.
    assert _classify([], verdicts=verdicts, reasons=reasons) == "not read: prose code span"


def test_gate15_unjudged_reasons_are_counted_with_names_and_numbers_blanked() -> None:
    reason = "client.send: the type of `client` is not shown (2)"
    detail = {"unjudged": [{"line": 20, "text": "client.send(timeout=3)", "reason": reason}]}
    entries = _entries(15, detail, ("timeout",), 20)
    assert _classify(entries, "fence python, gate 15 reads as python") == (
        "unjudged: gate 15 the type of … is not shown (…)"
    )


@pytest.mark.parametrize(
    "reason",
    [
        "$_.pipeStdin: the type of the value ($_) is not shown in the sample",
        "expect(getApples).toHaveReturnedNthTimeWith: the type of the value (expect(x)) is not",
        "the bin ./bin/pm2 has no source file; set source_map",
        "gate symbol_grounding on docs/x.md took longer than gate_timeout (120 s); stopped",
    ],
)
def test_a_reason_shows_no_name_path_or_expression_of_its_page(reason: str) -> None:
    """Held-out reasons are printed: none of the page's or the code's names may show."""
    shown = anatomy._blank(reason)
    for word in ("pipeStdin", "getApples", "NthTime", "pm2", "./bin", "source_map", "x.md",
                 "symbol_grounding", "gate_timeout", "120"):  # fmt: skip
        assert word not in shown, (word, shown)
    assert "the type of the value" in anatomy._blank(reason) or "type" not in reason


def test_gate15_checked_names_are_found_present_unless_a_violation() -> None:
    detail = {
        "checked_names": [{"line": 7, "name": "timeout", "kind": "keyword"},
                          {"line": 7, "name": "tmeout", "kind": "keyword"}],
        "violations": [{"line": 7, "name": "Client(tmeout=)", "kind": "keyword_argument"}],
    }  # fmt: skip
    fence = "fence python, gate 15 reads as python"
    assert _classify(_entries(15, detail, ("timeout",), 7), fence) == (
        "grounded: gate 15 checked keyword"
    )
    # The checked name that is a violation is reported, never found present.
    assert _classify(_entries(15, detail, ("tmeout",), 7), fence) == "reported: gate 15 violation"
    # A card that does not list its checked names cannot tell "not read" from "present".
    assert _classify([], fence, checked_listed=False) == ("not read or checked present: " + fence)
    assert _classify([], fence) == "not read: " + fence


def test_the_nearest_entry_decides_the_name_itself_first_then_the_reading_gate() -> None:
    detail = _gate2(
        grounded=[{"token": "Client.max_retry", "line": 10, "rule": "model-member"},
                  {"token": "max_retry", "line": 12, "rule": "model-found"}],
        unjudged=[{"token": "max_retry", "line": 10, "rule": "prose-only"}],
    )  # fmt: skip
    entries = _entries(2, detail, ("max_retry",), 10)
    assert _classify(entries) == "unjudged: gate 2 prose-only"
    gate15 = _entries(15, {"unjudged": [{"line": 10, "text": "send(max_retry=2)", "reason": "r"}]},
                      ("max_retry",), 10)  # fmt: skip
    only_member = _entries(2, _gate2(grounded=detail["outcomes"]["grounded"][:1]),
                           ("max_retry",), 10)  # fmt: skip
    # In prose, gate 2's reading first; in a fence, gate 15's.
    assert _classify(gate15 + only_member) == "grounded: gate 2 model-member"
    assert _classify(gate15 + only_member, "fence python, gate 15 reads as python") == (
        "unjudged: gate 15 r"
    )


def test_a_name_judged_only_farther_than_the_slack_is_named_as_elsewhere() -> None:
    detail = _gate2(ungrounded=[{"token": "--dateFormat", "line": 54, "rule": "anchor-listed"}])
    entries = _entries(2, detail, ("dateFormat",), 70)
    assert _classify(entries) == "judged elsewhere on the page: reported: gate 2 ungrounded"
    assert _classify(entries, slack=20) == "reported: gate 2 ungrounded"


PAGE = """# Guide

Set `max_retry` to retry.

## The `Client.open` method

```python
client = Client(max_retry=3)
```

```toml
max_retry = 3
```

The max_retry option, unquoted.
"""


@pytest.mark.parametrize(
    ("line", "where"),
    [
        (3, "prose code span"),
        (5, "heading"),
        (8, "fence python, gate 15 reads as python"),
        (12, "fence toml, not read by gate 15"),
        (15, "prose outside code span"),
    ],
)
def test_where_a_token_is_written(line: int, where: str) -> None:
    assert anatomy.where_written(PAGE, line, ("max_retry", "Client.open"), slack=0) == where


def test_where_finds_the_nearest_line_holding_the_name_within_the_slack() -> None:
    assert anatomy.where_written(PAGE, 4, ("max_retry",)) == "prose code span"
    assert anatomy.where_written(PAGE, 4, ("absent_name",)) == "line not found"


def test_the_tables_count_misses_per_half_shape_and_mechanism_beside_the_cases() -> None:
    data = {"cases": [
        {"split": "tune", "shape": "cli-flag", "caught": True, "project": "o/p", "fix": "a" * 40,
         "doc": "README.md", "line": 3},
        {"split": "tune", "shape": "cli-flag", "caught": False, "project": "o/p",
         "fix": "b" * 40, "doc": "README.md", "line": 9, "entries": [],
         "verdicts": PASSED, "where": "heading"},
        {"split": "report", "shape": "cli-flag", "caught": False, "project": "o/q",
         "fix": "c" * 40, "doc": "docs/x.md", "line": 5, "entries": [],
         "verdicts": PASSED, "where": "heading"},
    ]}  # fmt: skip
    items = anatomy.drift_items(data)
    assert anatomy.cells_of(items) == {
        ("tune", "cli-flag", "not read: heading"): ["o/p bbbbbbbbbb README.md:9"],
        ("report", "cli-flag", "not read: heading"): ["o/q cccccccccc docs/x.md:5"],
    }

    class Run:
        def __init__(self) -> None:
            self.tables: list[tuple[str, list[Any]]] = []

        def table(self, title: str, columns: list[dict[str, str]]) -> list[Any]:
            rows: list[Any] = []
            self.tables.append((title, rows))
            return rows

    run = Run()
    anatomy.record(run, "natural drift", items)
    totals = dict(run.tables)["natural drift: misses classified per half and shape"]
    assert totals == [["tune", "cli-flag", 2, 1, 1], ["report", "cli-flag", 1, 0, 1]]
    silence = "natural drift: misses named by no card in samples gate 15 reads (never silent: 0)"
    assert dict(run.tables)[silence] == [["tune", 0], ["report", 0]]


def test_the_silence_figure_counts_misses_no_card_names_in_samples_gate15_reads() -> None:
    def case(line: int, where: str, entries: list[Any]) -> dict[str, Any]:
        return {"split": "tune", "shape": "fence-member", "caught": False, "project": "o/p",
                "fix": "a" * 40, "doc": "README.md", "line": line, "entries": entries,
                "verdicts": PASSED, "where": where, "checked_listed": True}  # fmt: skip

    listed = {"gate": 15, "line": 7, "token": "a.b", "outcome": "unjudged", "reason": "why",
              "distance": 0, "exact": True}  # fmt: skip
    items = anatomy.drift_items({"cases": [
        case(3, "fence js, gate 15 reads as code", []),  # silent
        case(5, "fence rust, not read by gate 15", []),  # a fence the gate does not read
        case(7, "fence js, gate 15 reads as code", [listed]),  # listed unjudged: not silent
    ]})  # fmt: skip
    assert anatomy.silent_in_samples(items, "tune") == 1
    assert anatomy.silent_in_samples(items, "report") == 0
