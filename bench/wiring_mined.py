"""Gate 16 held out on mined claims: call-graph claims the maintainers of public projects
removed or rewrote in a documentation fix (bench/labels/gate16_mined.jsonl, its labelling
rules at its top), each gated at the fix's parent; and the claims of the split projects' docs
at their pinned commits that gate 16 lists no claim for (that file's frame B: its rows give the
pinned commit as both ``commit`` and ``parent``).

For each labelled row, a ``git clone --shared --no-checkout`` of the project's mirror
``$POSTGATES_MIRRORS/<owner>+<name>/repo`` (default /work/.mirror), the doc page written
from the parent into the clone (bench/wiring_holdout.py's flat layout), and gate 16 run
against the repository at the parent, as bench/wiring_planted.py runs it. A claim counts as
contradicted when gate 16 contradicts a claim on its line. It prints each row's outcome
(the gate's claims on the line, with their evidence) and, per half (a project of
bench/wiring_recall.py's TUNE_PROJECTS or of :data:`DRAWN_TUNE` is tune, any other
report), the recall of the false
claims and the contradicted true ones (each with a 95% Wilson interval).

    python bench/wiring_mined.py [--labels FILE] [--mirrors DIR]
    python bench/wiring_mined.py --extraction [--half report] [--neurolink] [--pages DIR]

``--extraction`` measures gate 16's extraction recall (issue 30: the held-out misses are
lines gate 16 never reads) on the tune rows of the four label files beside ``--labels``
(gate16_outsider, gate16_agentfiles, gate16_mined, gate16_holdout), under the rule in
gate16_holdout.jsonl's header (EXTRACTION RECALL): each call-claim row is verified,
contradicted, unjudged (with the gate's reason), listed with its ends not read, or not read;
pages of one project and commit are gated together. ``--neurolink`` runs
bench/wiring_recall.py's NeuroLink control after it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
LABELS = HERE / "labels" / "gate16_mined.jsonl"
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))
from holdout_precision import wilson  # noqa: E402
from wiring_recall import CODES, TUNE_PROJECTS  # noqa: E402

# Session 15 drew four more projects into the tune half (bench/labels/gate16_mined.jsonl
# says how); they have no census in gate16_holdout.jsonl, so wiring_recall's halves are
# unchanged and only this bench counts them as tune.
DRAWN_TUNE = ("python/mypy", "pyodide/pyodide", "excalidraw/excalidraw", "facebook/lexical")


def _git(*args: str) -> str:
    return subprocess.run(
        ["git", *args], capture_output=True, text=True, errors="replace", check=True
    ).stdout


def page_name(path: str) -> str:
    """The flat name a repository file is gated under (a Markdown name: ``.cursorrules``
    is prose too)."""
    flat = "__".join(Path(path).parts)
    return flat if flat.endswith(".md") else flat + ".md"


def gate_pages(
    mirror: Path, commit: str, pages: dict[str, str | None]
) -> tuple[str, dict[str, list[dict[str, Any]]], dict[str, str]]:
    """Gate 16 on ``pages`` (a repository path, read at ``commit`` when its text is None,
    or a name with its text), written flat into a shared clone of ``mirror`` and gated at
    ``commit``: the full commit, each page's claims and each page's text. The benches of
    gate 16's held-out frames (mined, outsider, agent files) all gate this way."""
    import wiring_planted as planted

    with tempfile.TemporaryDirectory() as scratch:
        clone = Path(scratch) / "clone"
        _git("clone", "-q", "--shared", "--no-checkout", str(mirror), str(clone))
        full = _git("-C", str(clone), "rev-parse", commit).strip()
        flat = clone / "_postgates_docs"
        flat.mkdir()
        files: dict[str, Path] = {}
        texts: dict[str, str] = {}
        for key, given in pages.items():
            text = given if given is not None else _git("-C", str(clone), "show", f"{full}:{key}")
            files[key], texts[key] = flat / page_name(key), text
            files[key].write_text(text, encoding="utf-8")
        with tempfile.TemporaryDirectory() as cache:
            cards = planted._gate16_cards(
                list(files.values()), planted._context(clone, full, Path(cache))
            )
    claims = {key: list(cards[page.name]["detail"]["claims"]) for key, page in files.items()}
    return full, claims, texts


def gate_line(row: dict[str, Any], mirrors: Path) -> tuple[str, list[dict[str, Any]]]:
    """Gate 16's claims on the row's line, the page gated at the row's parent; and the
    parent's full commit (or why the row could not be gated)."""
    mirror = mirrors / str(row["project"]).replace("/", "+") / "repo"
    if not mirror.is_dir():
        return f"no mirror at {mirror}", []
    path = str(row["path"])
    parent, claims, _texts = gate_pages(mirror, str(row["parent"]), {path: None})
    return parent, [c for c in claims[path] if c["line"] == row["line"] and c["code"] in CODES]


# --- extraction recall (bench/labels/gate16_holdout.jsonl's EXTRACTION RECALL rule) ---
EXTRACTION_FILES = ("outsider", "agentfiles", "mined", "holdout")
_CALL_CODES = frozenset({"CALLS", "CALL_DIRECTION", "MERMAID_EDGE"})
_NAME = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*")
_FILE_SUFFIX = re.compile(r"\.(?:py|ts|tsx|js|jsx|mjs|md)$")


@dataclass
class CallRow:
    """A tune row whose claim is a call claim: where its page is and how to gate it."""

    source: str
    project: str
    commit: str
    page: str
    text: str | None
    line: int
    claim: str
    label: str


def call_claim(row: dict[str, Any]) -> str | None:
    """The row's claim when it is a call claim under the labels' rule ("X -> Y", labelled
    true or false, not a claim that X throws)."""
    claim = str(row.get("claim") or row.get("subject") or "")
    if row.get("label") not in ("true", "false") or " -> " not in claim:
        return None
    return None if "throws" in claim else claim


def end_names(side: str) -> frozenset[str]:
    """The last identifiers of the names an end is written with: outside its parenthesised
    comments, or inside them when the end is written only there (a file's name by its stem)."""
    outside = side
    while True:
        stripped = re.sub(r"\([^()]*\)", " ", outside)
        if stripped == outside:
            break
        outside = stripped
    names = _NAME.findall(_FILE_SUFFIX.sub("", outside.strip())) or _NAME.findall(side)
    return frozenset(name.rsplit(".", 1)[-1] for name in names)


def names_both_ends(subject: str, claim: str) -> bool:
    """Whether a gate entry's subject ("X() -> Y()") names the claim's two ends."""
    gate_ends = subject.split(" -> ")
    claim_ends = claim.split(" -> ", 1)
    if len(gate_ends) != 2 or len(claim_ends) != 2:
        return False
    return all(
        bool(end_names(gate) & end_names(labelled))
        for gate, labelled in zip(gate_ends, claim_ends, strict=True)
    )


def paragraph(lines: list[str], number: int) -> range:
    """The line numbers of the paragraph holding ``number`` (no blank line between)."""
    first = last = number
    while first > 1 and lines[first - 2].strip():
        first -= 1
    while last < len(lines) and lines[last].strip():
        last += 1
    return range(first, last + 1)


def extraction_outcome(row: CallRow, claims: list[dict[str, Any]], text: str) -> tuple[str, str]:
    """The row's outcome under the rule (verified, contradicted, unjudged, listed with ends
    not read, not read) and the evidence or reason that goes with it."""
    near = paragraph(text.splitlines(), row.line)
    calls = [c for c in claims if c["code"] in _CALL_CODES and c["line"] in near]
    named = [c for c in calls if names_both_ends(str(c.get("subject", "")), row.claim)]
    for verdict in ("contradicted", "verified", "unjudged"):
        for claim in named:
            if claim["verdict"] == verdict:
                return verdict, str(claim["evidence"])
    on_line = [c for c in calls if c["line"] == row.line]
    if on_line:
        return "listed, ends not read", "; ".join(
            f"{c['code']} {c.get('subject', '-')} {c['verdict']}: {c['evidence'][:90]}"
            for c in on_line
        )
    return "not read", "gate 16 lists no call claim on the line"


def call_rows(labels: Path, pages: Path, half: str = "tune") -> list[CallRow]:
    """The call-claim rows of the four files' ``half``, each with its page and commit."""
    from wiring_agentfiles import TUNE as AGENT_TUNE
    from wiring_outsider import page_file

    drawn = TUNE_PROJECTS + DRAWN_TUNE
    found: list[CallRow] = []
    for source in EXTRACTION_FILES:
        rows = [
            json.loads(t)
            for t in (labels / f"gate16_{source}.jsonl").read_text(encoding="utf-8").splitlines()
            if t.startswith("{")
        ]
        pins = {r["project"]: str(r["commit"]) for r in rows if "lines" in r}
        for row in rows:
            claim = call_claim(row)
            project = str(row.get("project"))
            tune: tuple[str, ...] = AGENT_TUNE if source == "agentfiles" else drawn
            if source == "holdout":
                tune = TUNE_PROJECTS
            if claim is None or (project in tune) != (half == "tune"):
                continue
            text: str | None = None
            if source == "outsider":
                commit, page = str(row["commit"]), "outsider-page.md"
                stored = page_file(pages, str(row["url"]))
                if not stored.is_file():
                    print(f"{project} {row['url']}:{row['line']}: {claim} -> page not stored")
                    continue
                text = stored.read_text(encoding="utf-8")
            elif source == "holdout":
                commit, page = pins[project], "docs/" + str(row["post"]).replace("__", "/")
            else:
                commit, page = str(row["parent"]), str(row["path"])
            found.append(
                CallRow(source, project, commit, page, text, int(row["line"]), claim, row["label"])
            )
    return found


def extraction(labels: Path, pages: Path, mirrors: Path, half: str = "tune") -> dict[str, Any]:
    """Print each call-claim row's outcome and the half's extraction-recall line; return
    the figures."""
    groups: dict[tuple[str, str, str], list[CallRow]] = defaultdict(list)
    for row in call_rows(labels, pages, half):
        groups[(row.project, row.commit, row.source)].append(row)
    outcomes: Counter[str] = Counter()
    by_label: Counter[tuple[str, str]] = Counter()
    reasons: Counter[str] = Counter()
    for (project, commit, _source), group in sorted(groups.items()):
        mirror = mirrors / project.replace("/", "+") / "repo"
        wanted = {row.page: row.text for row in group}
        full, claims, texts = gate_pages(mirror, commit, wanted)
        for row in sorted(group, key=lambda r: (r.page, r.line)):
            outcome, evidence = extraction_outcome(row, claims[row.page], texts[row.page])
            outcomes[outcome] += 1
            by_label[(row.label, outcome)] += 1
            if outcome == "unjudged":
                reasons[re.split(r"[:;(]", evidence, maxsplit=1)[0][:80]] += 1
            print(
                f"{project} {row.page}:{row.line} at {full[:12]} ({row.source}): {row.claim} "
                f"[{row.label}] -> {outcome}\n    {evidence[:200]}"
            )
    total = sum(outcomes.values())
    read = outcomes["verified"] + outcomes["contradicted"] + outcomes["unjudged"]
    false_total = sum(n for (label, _o), n in by_label.items() if label == "false")
    false_read = sum(
        n
        for (label, o), n in by_label.items()
        if label == "false" and o in ("verified", "contradicted", "unjudged")
    )
    true_total = sum(n for (label, _o), n in by_label.items() if label == "true")
    print(
        f"{half} extraction recall (call claims): {read}/{total} read (verified "
        f"{outcomes['verified']}, contradicted {outcomes['contradicted']}, unjudged "
        f"{outcomes['unjudged']}); listed with ends not read {outcomes['listed, ends not read']};"
        f" not read {outcomes['not read']}; false claims read {false_read}/{false_total}; "
        f"true claims contradicted {by_label[('true', 'contradicted')]}/{true_total}; "
        f"false claims contradicted {by_label[('false', 'contradicted')]}/{false_total}"
    )
    for reason, count in reasons.most_common():
        print(f"    unjudged: {count} x {reason}")
    return {"read": read, "total": total, "outcomes": dict(outcomes)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--labels", type=Path, default=LABELS)
    parser.add_argument(
        "--extraction",
        action="store_true",
        help="the tune call claims of the four gate16 label files: which gate 16 reads",
    )
    parser.add_argument("--neurolink", action="store_true", help="with --extraction: control")
    parser.add_argument(
        "--half", choices=("tune", "report"), default="tune", help="with --extraction"
    )
    parser.add_argument(
        "--pages",
        type=Path,
        default=Path(
            os.environ.get("POSTGATES_OUTSIDER_PAGES", "/work/shared/corpus/gate16-outsider/pages")
        ),
    )
    parser.add_argument(
        "--mirrors", type=Path, default=Path(os.environ.get("POSTGATES_MIRRORS", "/work/.mirror"))
    )
    args = parser.parse_args(argv)
    if args.extraction:
        extraction(args.labels.parent, args.pages, args.mirrors, args.half)
        if args.neurolink:
            import wiring_recall

            print("NeuroLink control (bench/wiring_recall.py):")
            wiring_recall.main([])
        return 0
    rows = [
        json.loads(t)
        for t in args.labels.read_text(encoding="utf-8").splitlines()
        if t.startswith("{")
    ]
    # half -> label -> [contradicted, claims]
    tally: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for row in rows:
        half = "tune" if row["project"] in TUNE_PROJECTS + DRAWN_TUNE else "report"
        parent, found = gate_line(row, args.mirrors)
        contradicted = any(c["verdict"] == "contradicted" for c in found)
        cell = tally[half][row["label"]]
        cell[0] += contradicted
        cell[1] += 1
        print(
            f"{row['project']} {row['path']}:{row['line']} at {parent[:12]} ({half}): "
            f"{row['claim']} [{row['label']}] -> "
            + ("contradicted" if contradicted else "not contradicted")
        )
        for claim in found or [{"code": "-", "verdict": "-", "evidence": "gate 16 lists no claim"}]:
            print(f"    {claim['code']} {claim['verdict']}: {claim['evidence'][:150]}")
    for half in ("tune", "report"):
        for label, what in (
            ("false", "recall of false claims"),
            ("true", "true claims contradicted"),
        ):
            hit, total = tally[half][label]
            bounds = wilson(hit, total)
            shown = "n/a" if bounds is None else f"{100 * bounds[0]:.1f}-{100 * bounds[1]:.1f}%"
            print(f"{half} half, mined: {what}: {hit}/{total} (95% Wilson {shown})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
