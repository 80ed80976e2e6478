"""Report formats built from a run's gate records: SARIF, GitHub annotations, HTML.

All three read the same records the overall verdicts come from (one per post and gate,
collected where every report arrives), so they agree with each other and with the
scorecards. Post content is untrusted: everything taken from a post is escaped for the
format it lands in.
"""

from __future__ import annotations

import hashlib
import html
import json
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import quote

from pytest_postgates import __version__

# printable lived here: re-exported for callers.
from pytest_postgates.escaping import printable as printable
from pytest_postgates.escaping import workflow_data, workflow_property
from pytest_postgates.gates import GATES, POSITION
from pytest_postgates.rule_help import REPOSITORY_URL, sarif_rule

Records = Mapping[str, Mapping[int, Mapping[str, Any]]]  # post -> gate id -> record

INFORMATION_URI = REPOSITORY_URL
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
# Most findings one gate reports for one post in the SARIF log, the annotations and the
# HTML report (the rest are counted): a 1.4 MB post once made a 17 MB SARIF file.
REPORT_FINDINGS_PER_GATE = 100


def suppression_total(records: Records) -> tuple[int, int]:
    """(findings suppressed inline, posts with any) over a run's records."""
    counts = [sum(r.get("suppressed", 0) for r in gates.values()) for gates in records.values()]
    return sum(counts), sum(1 for count in counts if count)


def _failing(records: Records) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """(post, record) of every gate that did not pass, in post and run order."""
    for post in sorted(records):
        for gate_id in sorted(records[post], key=lambda g: POSITION.get(g, 99)):
            record = records[post][gate_id]
            if record["verdict"] in ("FAIL", "ERROR"):
                yield post, record


def _all_findings(record: Mapping[str, Any]) -> list[tuple[int, str, str]]:
    """(line, code, message) of a failing record; an ERROR or FAIL without findings is
    reported once, at the top of the post, with its summary."""
    found = [(line or 1, code, message) for line, code, message, *_ in record["findings"]]
    return found or [(1, record["verdict"], record["summary"] or record["verdict"])]


def report_findings(record: Mapping[str, Any]) -> list[tuple[int, str, str]]:
    """:func:`_all_findings`, at most :data:`REPORT_FINDINGS_PER_GATE` of them, then one
    line that says how many more the scorecard holds (the annotations and the HTML report;
    a huge post must not flood a CI log)."""
    found = _all_findings(record)
    left_out = len(found) - REPORT_FINDINGS_PER_GATE
    if left_out <= 0:
        return found
    note = (
        f"{left_out} more findings of {record['name']} on this post are left out (at most "
        f"{REPORT_FINDINGS_PER_GATE} per post and gate); the gate's scorecard lists them all"
    )
    return [*found[:REPORT_FINDINGS_PER_GATE], (1, "FINDINGS_LEFT_OUT", note)]


# ---------------------------------------------------------------------- SARIF 2.1.0


# The key of our fingerprint in ``partialFingerprints`` (versioned: a change to what it
# hashes is a new key, so code scanning does not match old and new alerts by accident).
FINGERPRINT_KEY = "postgatesFinding/v1"
# Most results one gate gives one post in a SARIF log (the rest are counted in a note), and
# most characters of one result's message.
SARIF_FINDINGS_PER_GATE = REPORT_FINDINGS_PER_GATE
SARIF_MESSAGE_CHARS = 2000
_LINE_REFERENCE = re.compile(r"\b(?:at |on )?lines? \d+(?:\s*[-\u2013]\s*\d+)?\b", re.IGNORECASE)
_SPACE = re.compile(r"\s+")


def normalised_finding(code: str, message: str) -> str:
    """What identifies a finding whatever moved around it: its code and message, with
    line references ("opened at line 8") dropped and white space collapsed."""
    text = _LINE_REFERENCE.sub("", message)
    return f"{code}\0{_SPACE.sub(' ', text).strip().casefold()}"


def fingerprint(gate: str, post: str, normalised: str, occurrence: int) -> str:
    """A finding's identity across commits: gate, post path, the normalised finding and
    which occurrence of that same finding in the post it is (the first, the second, ...)
    in line order; never the line number, so inserting lines above keeps it."""
    key = "\0".join((gate, post, normalised, str(occurrence)))
    return hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()[:32]


SOURCE_ROOT = "%SRCROOT%"


@dataclass(frozen=True)
class SourceRoot:
    """What SARIF locations are relative to: code scanning reads an artifact's URI relative
    to the repository, so ``path`` is the git top level of the posts, whatever folder pytest
    ran from; ``rootdir`` is the folder the records' post paths are relative to."""

    path: Path
    rootdir: Path
    in_repository: bool = True

    def relative(self, post: str) -> str:
        """``post`` (relative to the rootdir) relative to the repository, in ``/`` form."""
        joined = os.path.normpath(os.path.join(self.rootdir, post))
        return PurePosixPath(*Path(os.path.relpath(joined, self.path)).parts).as_posix()

    def base(self) -> dict[str, Any]:
        """The ``originalUriBaseIds`` entry that says where ``%SRCROOT%`` is on this machine."""
        return {
            "uri": self.path.absolute().as_uri().rstrip("/") + "/",
            "description": {
                "text": "The root of the git repository that holds the posts."
                if self.in_repository
                else "The folder pytest ran in (its rootdir): the posts are in no git repository."
            },
        }


def _location(uri: str, line: int) -> list[dict[str, Any]]:
    return [
        {
            "physicalLocation": {
                # A URI reference: a space or a "#" in a file name is percent-encoded.
                "artifactLocation": {"uri": quote(uri, safe="/"), "uriBaseId": SOURCE_ROOT},
                "region": {"startLine": max(1, int(line))},
            }
        }
    ]


def sarif(records: Records, source_root: SourceRoot | None = None) -> dict[str, Any]:
    """A SARIF 2.1.0 log: one result per finding of every failing gate (at most
    :data:`SARIF_FINDINGS_PER_GATE` per post and gate, then one note with how many more),
    rule id = gate name, for GitHub code scanning and other SARIF consumers. Locations are
    relative to ``source_root`` (the repository; without one, to the rootdir) under
    ``%SRCROOT%``. Each result carries a ``partialFingerprints`` entry (see
    :func:`fingerprint`) so that code scanning follows an alert across commits; each rule
    is described by its gate's own documentation (:mod:`pytest_postgates.rule_help`)."""
    rules = [sarif_rule(gate) for gate in GATES]
    index = {rule["id"]: i for i, rule in enumerate(rules)}
    results = []
    left_out_total = 0
    for post, record in _failing(records):
        uri = source_root.relative(post) if source_root is not None else post
        level = "warning" if record["advisory"] and record["verdict"] == "FAIL" else "error"
        seen: dict[str, int] = {}
        found = sorted(_all_findings(record), key=lambda f: f[0])
        # A huge post's thousands of findings would make a log code scanning refuses: the
        # first ones are kept, and a note says how many more the scorecard holds.
        left_out = max(0, len(found) - SARIF_FINDINGS_PER_GATE)
        left_out_total += left_out
        for line, code, message in found[:SARIF_FINDINGS_PER_GATE]:
            normalised = normalised_finding(code, message)
            occurrence = seen[normalised] = seen.get(normalised, -1) + 1
            stable = fingerprint(record["name"], uri, normalised, occurrence)
            results.append(
                {
                    "ruleId": record["name"],
                    "ruleIndex": index[record["name"]],
                    "level": level,
                    "message": {"text": _clipped(f"{code}: {message}")},
                    "locations": _location(uri, line),
                    "partialFingerprints": {FINGERPRINT_KEY: stable},
                    "properties": {
                        "code": code,
                        "gate": record["gate"],
                        "verdict": record["verdict"],
                    },
                }
            )
        if left_out:
            results.append(_left_out_note(uri, record, index[record["name"]], left_out))
    base = (
        source_root.base()
        if source_root is not None
        else {"description": {"text": "The folder pytest ran in (its rootdir)."}}
    )
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "pytest-postgates",
                        "version": __version__,
                        "informationUri": INFORMATION_URI,
                        "rules": rules,
                    }
                },
                "originalUriBaseIds": {SOURCE_ROOT: base},
                "columnKind": "unicodeCodePoints",
                "results": results,
                "properties": {"findingsLeftOut": left_out_total},
            }
        ],
    }


def _clipped(text: str) -> str:
    if len(text) <= SARIF_MESSAGE_CHARS:
        return text
    return text[: SARIF_MESSAGE_CHARS - 1] + "\u2026"


def _left_out_note(
    uri: str, record: Mapping[str, Any], rule_index: int, left_out: int
) -> dict[str, Any]:
    """The result that says how many findings of a gate on a post the log leaves out."""
    return {
        "ruleId": record["name"],
        "ruleIndex": rule_index,
        "level": "note",
        "message": {
            "text": f"{left_out} more findings of {record['name']} on this post are left out"
            f" of this log (at most {SARIF_FINDINGS_PER_GATE} per post and gate); the"
            " gate's scorecard lists them all"
        },
        "locations": _location(uri, 1),
        "partialFingerprints": {FINGERPRINT_KEY: fingerprint(record["name"], uri, "\0left-out", 0)},
        "properties": {"gate": record["gate"], "findingsLeftOut": left_out},
    }


# ---------------------------------------------------------------------- GitHub


def github_annotations(records: Records) -> list[str]:
    """``::error``/``::warning`` workflow commands, one per finding of a failing gate."""
    lines = []
    for post, record in _failing(records):
        command = "warning" if record["advisory"] and record["verdict"] == "FAIL" else "error"
        title = workflow_property(f"postgates {record['name']} (gate {record['gate']})")
        for line, code, message in report_findings(record):
            lines.append(
                f"::{command} file={workflow_property(post)},line={max(1, int(line))},"
                f"title={title}::{workflow_data(f'{code}: {message}')}"
            )
    return lines


# GitHub shows at most 10 error and 10 warning annotations of a step (and 50 of a job) and
# drops the rest without a word: past that, the log names where every finding is.
ANNOTATIONS_SHOWN = 10


def capped_annotations(
    lines: list[str], full_report: str, shown: int = ANNOTATIONS_SHOWN
) -> list[str]:
    """The first ``shown`` ``::error`` and the first ``shown`` ``::warning`` lines of
    :func:`github_annotations`, then (when any were left out) one ``::notice`` with the
    count and ``full_report``, where the rest can be read."""
    kept: list[str] = []
    seen = {"error": 0, "warning": 0}
    for line in lines:
        kind = "warning" if line.startswith("::warning") else "error"
        seen[kind] += 1
        if seen[kind] <= shown:
            kept.append(line)
    left_out = len(lines) - len(kept)
    if left_out:
        note = (
            f"{len(kept)} of {len(lines)} findings annotated (GitHub shows {shown} errors "
            f"and {shown} warnings a step); all {len(lines)} are in {full_report}"
        )
        kept.append(f"::notice title=postgates::{workflow_data(note)}")
    return kept


# ---------------------------------------------------------------------- HTML

_STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1b1f24}
h1{font-size:20px}h2{font-size:16px;margin-top:28px}
table{border-collapse:collapse}th,td{border:1px solid #d0d7de;padding:4px 8px;text-align:left}
th.gate{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap;font-weight:600}
td.v{text-align:center;font-weight:600;font-size:12px;min-width:44px}
.PASS{background:#d1f5d3}.FAIL{background:#ffd2d0}.ERROR{background:#f7c6ff}
.SKIP{background:#eaeef2;color:#57606a}.NONE{background:#fff}
.advisory.FAIL{background:#fff1b8}.rate{font-variant-numeric:tabular-nums}
.bar{display:inline-block;height:8px;background:#2da44e;vertical-align:middle}
code{background:#f6f8fa;padding:0 3px}li{margin:2px 0}
#filter{margin:8px 0;padding:4px;width:320px}
"""
_SCRIPT = """
(function(){
  var input=document.getElementById('filter');
  var rows=[].slice.call(document.querySelectorAll('#grid tbody tr'));
  function apply(){
    var q=input.value.toLowerCase();
    rows.forEach(function(r){r.style.display=r.dataset.post.toLowerCase().indexOf(q)<0?'none':'';});
  }
  input.addEventListener('input',apply);
  document.querySelectorAll('.rate').forEach(function(cell){
    var bar=document.createElement('span');bar.className='bar';
    bar.style.width=Math.round(parseFloat(cell.dataset.rate)*0.8)+'px';cell.appendChild(bar);
  });
  document.body.setAttribute('data-rendered','yes');
})();
"""


def html_report(records: Records, overall: Mapping[str, Mapping[str, Any]]) -> str:
    """One self-contained page: a posts x gates grid coloured by verdict, per-gate pass
    rates, and every failing post's findings with line numbers. No external resources."""
    esc = html.escape
    gate_ids = sorted(
        {g for gates in records.values() for g in gates}, key=lambda g: POSITION.get(g, 99)
    )
    names = {gate.id: gate.name for gate in GATES}
    advisory = {gate.id: gate.advisory for gate in GATES}
    head = "".join(f'<th class="gate">{esc(names.get(g, str(g)))} ({g})</th>' for g in gate_ids)
    rows: list[str] = []
    for post in sorted(records):
        cells = []
        for g in gate_ids:
            record = records[post].get(g)
            verdict = record["verdict"] if record else "NONE"
            kind = "advisory" if record and record["advisory"] else "hard"
            title = esc(record["summary"] if record else "not run", quote=True)
            cells.append(
                f'<td class="v {kind} {verdict}" title="{title}">{verdict if record else ""}</td>'
            )
        status = overall.get(post, {}).get("overall", "")
        link = f'<a href="#p{len(rows)}">{esc(post)}</a>'
        rows.append(
            f'<tr data-post="{esc(post, quote=True)}"><td>{link}</td>'
            f'<td class="v {esc(status)}">{esc(status)}</td>{"".join(cells)}</tr>'
        )
    rates = []
    for g in gate_ids:
        verdicts = [records[p][g]["verdict"] for p in records if g in records[p]]
        judged = [v for v in verdicts if v in ("PASS", "FAIL", "ERROR")]
        kind = "advisory" if advisory.get(g) else "hard"
        label = f"<tr><td>{esc(names.get(g, str(g)))} ({g}, {kind})</td><td>{len(judged)}</td>"
        if not judged:  # every post skipped it: nothing was judged, so no rate
            rates.append(f"{label}<td>n/a (skipped)</td></tr>")
            continue
        rate = 100.0 * judged.count("PASS") / len(judged)
        rates.append(f'{label}<td class="rate" data-rate="{rate:.1f}">{rate:.1f}% </td></tr>')
    details = []
    for number, post in enumerate(sorted(records)):
        failing = [
            records[post][g]
            for g in gate_ids
            if g in records[post] and records[post][g]["verdict"] in ("FAIL", "ERROR")
        ]
        items = []
        for record in failing:
            findings = "".join(
                f"<li>line {line}: <code>{esc(code)}</code> {esc(message)}</li>"
                for line, code, message in report_findings(record)
            )
            items.append(
                f"<h3>{esc(record['name'])} (gate {record['gate']}) {esc(record['verdict'])}: "
                f"{esc(record['summary'])}</h3><ul>{findings}</ul>"
            )
        body = "".join(items) or "<p>Every gate that ran passed.</p>"
        details.append(f'<section id="p{number}"><h2>{esc(post)}</h2>{body}</section>')
    passed = sum(1 for report in overall.values() if report.get("overall") == "PASS")
    suppressed, suppressing_posts = suppression_total(records)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width">'
        f"<title>postgates report</title><style>{_STYLE}</style></head><body>"
        f"<h1>pytest-postgates: {passed} of {len(overall)} posts pass every hard gate</h1>"
        f'<p id="suppressed">{suppressed} finding(s) suppressed inline in '
        f"{suppressing_posts} post(s)</p>"
        '<input id="filter" placeholder="filter posts" aria-label="filter posts">'
        f'<table id="grid"><thead><tr><th>post</th><th>overall</th>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
        '<h2>Pass rate per gate</h2><table id="rates"><thead><tr><th>gate</th><th>judged</th>'
        f"<th>pass rate</th></tr></thead><tbody>{''.join(rates)}</tbody></table>"
        f"<h2>Findings</h2>{''.join(details)}"
        f"<script>{_SCRIPT}</script></body></html>\n"
    )


def dumps_sarif(records: Records, source_root: SourceRoot | None = None) -> str:
    return json.dumps(sarif(records, source_root), indent=2, sort_keys=True) + "\n"
