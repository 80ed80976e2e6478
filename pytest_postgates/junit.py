"""What a JUnit report (``--junitxml``) shows of the gates, valid in its ``junit_family``.

pytest's default family, ``xunit2``, follows a schema (pytest's ``junit-10.xsd``) that
allows ``<properties>`` on the ``<testsuite>`` only: a testcase's own properties (what
``record_property`` and ``user_properties`` write) make the file invalid, which is why
pytest warns that ``record_property`` is incompatible with ``xunit2``. So every gate item's
verdict, gate id and score, with the findings of a gate that did not pass, are a property of
the testsuite named after the item's node id, in every family; under the legacy ``xunit1``,
where pytest itself puts ``record_property``'s output, each testcase also carries
``gate_id``, ``verdict`` and ``score`` as its own properties.

The rest is pytest's: a hard gate's FAIL is a ``<failure>`` whose text lists the findings,
an ERROR an ``<error>``, and an advisory gate's FAIL is an expected failure, which pytest
writes as ``<skipped type="pytest.xfail">`` with the reason ("advisory gate NAME FAIL: ...")
as its message: JUnit has no element for an expected failure, and a ``<failure>`` would
make CI dashboards count a failed test in a run that passed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from _pytest.junitxml import xml_key

from pytest_postgates.escaping import one_line
from pytest_postgates.gates import POSITION
from pytest_postgates.reports import Records, report_findings

# The families whose testcases may carry properties (pytest's own rule for record_property).
LEGACY_FAMILIES = frozenset({"xunit1", "legacy"})


def testcase_properties_allowed(config: pytest.Config) -> bool:
    """Whether a gate item records its own properties (``user_properties``): always, other
    report plugins read them too, except when the run writes a JUnit file (xdist workers
    see the same option) whose family refuses them."""
    if not getattr(config.option, "xmlpath", None):
        return True
    try:
        family = str(config.getini("junit_family"))
    except ValueError:  # pytest's junitxml plugin is disabled (-p no:junitxml)
        return True
    return family in LEGACY_FAMILIES


def describe(record: Mapping[str, Any]) -> str:
    """``FAIL (gate 11, hard, score 1): summary``, then one ``line N: CODE message`` line per
    finding of a gate that did not pass (at most as many as the other reports show)."""
    kind = "advisory" if record["advisory"] else "hard"
    score = record.get("score")
    scored = "" if score is None else f", score {score}"
    head = f"{record['verdict']} (gate {record['gate']}, {kind}{scored})"
    if record["summary"]:
        head += f": {one_line(record['summary'])}"
    if record["verdict"] not in ("FAIL", "ERROR") or not record["findings"]:
        return head
    lines = [
        f"line {line}: {one_line(code)} {one_line(message)}"
        for line, code, message in report_findings(record)
    ]
    return "\n".join([head, *lines])


def suite_properties(records: Records) -> list[tuple[str, str]]:
    """(node id, description) of every gate item of the run, in post and run order."""
    return [
        (f"{post}::{record['name']}", describe(record))
        for post in sorted(records)
        for record in sorted(records[post].values(), key=lambda r: POSITION.get(r["gate"], 99))
    ]


def add_suite_properties(config: pytest.Config, records: Records) -> None:
    """Add the gate items' descriptions to the testsuite of the JUnit file this process
    writes (the xdist controller, or the only process), if it writes one."""
    xml = config.stash.get(xml_key, None)
    if xml is None:
        return
    for name, value in suite_properties(records):
        xml.add_global_property(name, value)
