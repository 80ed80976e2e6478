"""Gate 15's members of values whose type the product declares, against the TypeScript
compiler, on real packages (issue 26): callback parameters (contextual typing), returned
and awaited values, and one step of a chain.

For each package of the tune half named below (its source from the bare mirror at the
commit the tune labels pin, its installed dependencies linked as ``node_modules``), the
compiler (``tests/ts_member_types_oracle.js``, TypeScript from ``POSTGATES_TS_ORACLE_DIR``)
writes probe samples over every exported callable (the export, its methods, a class's
instance methods, the methods of what a call of it returns): a parameter of a callback
handed to it, the value it returns (awaited where a promise-like), one step of a chain
from either. It compiles them and types each probe. A probe the compiler types as any,
unknown or an unresolved type, a primitive, an array or a function with no members is
excluded and counted by reason. Probes of the same kind whose type the compiler prints
alike are one (the first is kept; how many there were is shown).

Each kept probe becomes a one-fence sample that imports the package, makes the value the
same way and uses one real member the compiler lists on its type and one invented member
(``zzInventedMember``) on their own lines; gate 15 runs on it against the API model built
from the same commit. Each is classified:

- ``exact``: no finding and nothing unjudged on the real member, the invented one found;
- ``unjudged``: the invented member listed unjudged (by reason, names blanked);
- ``false finding``: a finding on the real member;
- ``missed``: the invented member neither found nor listed: passed silently.

A type the compiler says takes any name (an index signature, a member typed any) is
``open``: no finding may be made there (``open, false finding`` counts those made).

The control is the same run with the gate's code at ``--control`` (default f7e6e23, before
this bench's fixes), extracted from git into the scratch folder and run in a subprocess.

    python bench/member_types_conformance.py [--project OWNER/NAME ...] [--show N]
        [--scratch /tmp/x] [--details out.json] [--json bench/results/member_types_conformance.json]
"""

from __future__ import annotations

import collections
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench import compiler_conformance as conformance  # noqa: E402

IDENTIFIER, LABELS = conformance.IDENTIFIER, conformance.LABELS

ORACLE = REPO / "tests" / "ts_member_types_oracle.js"
CONTROL = "f7e6e23"
INVENTED = "zzInventedMember"
KINDS = ("callback", "returned", "awaited", "callback chain", "returned chain", "awaited chain")


@dataclass
class Item:
    """One probe the compiler types as an object with members."""

    specifier: str
    export: str
    kind: str
    setup: list[str]
    probe: str
    close: str
    real: str
    open: bool
    type: str
    alike: int = 1

    @property
    def shown(self) -> str:
        call = self.setup[-1] if self.setup else ""
        return f"{self.kind}: {call} {self.probe}: {self.type[:60]}"


def sample(item: Item, number: int = 0) -> tuple[str, int, int]:
    """The fence's code, and the lines (from 1) of the real and the invented member (the
    invented member numbered: a page reports a name it finds once)."""
    local = item.export if IDENTIFIER.match(item.export) and item.export != "default" else ""
    if not local:
        head = f"import imported from '{item.specifier}';"
    else:
        head = f"import {{ {local} }} from '{item.specifier}';"
    real = f"{item.probe}.{item.real}" if item.real else item.probe
    lines = [head, *item.setup, f"{real};", f"{item.probe}.{INVENTED}{number};"]
    real_line = len(lines) - 1
    if item.close:
        lines.append(item.close)
    return "\n".join(lines) + "\n", real_line, real_line + 1


def post_text(items: list[Item]) -> tuple[str, list[tuple[int, int]]]:
    """A post with one fence per item, and each fence's (real, invented) file lines."""
    lines = ["---", "layout: post", "title: Member types", "date: 2026-12-07", "---", ""]
    spans: list[tuple[int, int]] = []
    for number, item in enumerate(items):
        lines += [f"Sample {number}.", "", "```ts"]
        first = len(lines) + 1
        code, real, invented = sample(item, number)
        lines += code.rstrip("\n").split("\n")
        spans.append((first + real - 1, first + invented - 1))
        lines += ["```", ""]
    return "\n".join(lines) + "\n", spans


def _reason(text: str) -> str:
    """An unjudged reason with the sample's own names and the invented member blanked."""
    text = re.sub(rf"{INVENTED}\d+", "zz", text)
    text = re.sub(r"\b(value|made|p\d)\b", "v", text)
    return conformance.blank(text)


def classify(
    item: Item, number: int, lines: tuple[int, int], detail: dict[str, Any]
) -> tuple[str, str]:
    """The class of one sample, and the first unjudged reason on its invented member (a
    row on its line, or one naming it: a fence's summary of the uses it cannot judge)."""
    real, invented = lines
    named = re.compile(rf"\b{INVENTED}{number}\b")

    def at(rows: list[dict[str, Any]], line: int) -> list[dict[str, Any]]:
        return [
            row
            for row in rows
            if int(row.get("line", 0)) == line
            or (line == invented and named.search(str(row.get("reason", ""))))
        ]

    wrong = at(detail["violations"], real)
    found = [v for v in at(detail["violations"], invented) if INVENTED in str(v.get("name", ""))]
    skipped = at(detail["unjudged"], invented)
    reason = _reason(str(skipped[0].get("reason", ""))) if skipped else ""
    if item.open:
        return ("open, false finding" if found or wrong else "open"), reason
    if wrong:
        return "false finding", reason
    if found and not at(detail["unjudged"], real):
        return "exact", reason
    if found:
        return "unjudged", _reason(str(at(detail["unjudged"], real)[0].get("reason", "")))
    return ("unjudged" if skipped else "missed"), reason


def items_of(
    rows: list[dict[str, Any]], entries: list[tuple[str, str]]
) -> tuple[list[Item], collections.Counter[str]]:
    """The probes kept (one per kind and printed type), and those excluded by reason
    (named exports first, where the default export holds the same)."""
    specifier_of = {entry: specifier for specifier, entry in entries}
    excluded: collections.Counter[str] = collections.Counter()
    kept: dict[tuple[str, str], Item] = {}
    # A named export before the default one: what a sample imports by name is kept.
    for row in sorted(rows, key=lambda row: row["export"] == "default"):
        if row.get("excluded"):
            excluded[f"{row['kind']}: {row['excluded']}"] += 1
            continue
        members = [m for m in row.get("members", []) if IDENTIFIER.match(m)]
        if not members and not row.get("open"):
            excluded[f"{row['kind']}: no members"] += 1
            continue
        key = (row["kind"], row.get("type", ""))
        if key in kept:
            kept[key].alike += 1
            continue
        kept[key] = Item(specifier_of[row["entry"]], row["export"], row["kind"], row["setup"],
                         row["probe"], row.get("close", ""), members[0] if members else "",
                         bool(row.get("open")), row.get("type", ""))  # fmt: skip
    return [item for item in kept.values() if item.real or item.open], excluded


def measure(project: str, scratch: Path, codes: dict[str, Path]) -> dict[str, Any]:
    commit, entries = conformance.PACKAGES[project]
    site, source, deps = conformance.checkout(project, commit, scratch)
    items, excluded = items_of(conformance.oracle(ORACLE, project, source, entries), entries)
    text, spans = post_text(items)
    post = conformance.write_post(scratch, "members", project, "2026-12-07-member-types.md", text)
    result: dict[str, Any] = {"items": len(items), "excluded": dict(excluded), "runs": {},
                              "alike": sum(item.alike for item in items)}  # fmt: skip
    for label, code in codes.items():
        detail = conformance.run_gate(code, post, site, scratch / f"cache-{label}", deps)
        outcomes = []
        for number, (item, lines) in enumerate(zip(items, spans, strict=True)):
            verdict, reason = classify(item, number, lines, detail)
            outcomes.append({"item": item.shown, "kind": item.kind, "class": verdict,
                             "reason": reason, "real": item.real})  # fmt: skip
        result["runs"][label] = outcomes
    return result


def report(results: dict[str, dict[str, Any]], show: int, run: Any, control: str) -> None:
    title = "Members of typed values against the compiler, per package (control: gate 15 at "
    title += f"{control})"
    labels = ("probes (distinct types)", "excluded (any, unknown, unresolved, primitive...)")
    rows = conformance.table(run, title, labels, control)
    totals = {label: collections.Counter[str]() for label in LABELS}
    by_kind = {label: collections.Counter[tuple[str, str]]() for label in LABELS}
    reasons = {label: collections.Counter[str]() for label in LABELS}
    for project, result in results.items():
        excluded = sum(result["excluded"].values())
        heading = (f"\n{project}: {result['items']} probes of distinct types ({result['alike']} "
                   f"alike in all, {conformance.opened(result)} open), {excluded} excluded "
                   f"{result['excluded']}")  # fmt: skip
        counts = conformance.report_package(project, result, heading, rows, show,
                                lambda outcome: f".{outcome['real']}")  # fmt: skip
        for label in LABELS:
            totals[label].update(counts[label])
            for outcome in result["runs"][label]:
                by_kind[label][(outcome["kind"], outcome["class"])] += 1
                if outcome["class"] in ("unjudged", "missed"):
                    reasons[label][f"{outcome['class']}: {outcome['reason']}"] += 1
    conformance.report_totals(totals)
    print("\nby kind (control -> now):")
    for kind in KINDS:
        cells = [f"{name} {by_kind['control'][(kind, name)]}->{by_kind['now'][(kind, name)]}"
                 for name in conformance.CLASSES]  # fmt: skip
        print(f"  {kind:15} " + ", ".join(cells))
    for label in LABELS:
        print(f"\nunjudged and missed reasons, {label} (names blanked):")
        for reason, count in reasons[label].most_common(show):
            print(f"  {count:4}  {reason}")


BENCH = conformance.Bench(
    "member_types_conformance",
    __doc__ or "",
    CONTROL,
    "postgates-member-types-",
    measure,
    report,
    "Per probe the TypeScript compiler types as an object with members (a callback's "
    "parameter, a returned or awaited value, one chain step): exact = no finding and "
    "nothing unjudged on a real member, the invented member found; open = the type "
    "takes any name (no finding may be made there)",
)


if __name__ == "__main__":
    raise SystemExit(conformance.main(BENCH))
