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

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.option_keys_conformance import (  # noqa: E402
    ORACLE_ENV,
    PACKAGES,
    _blank,
    _checkout,
    _control_code,
    _run_gate,
)

ORACLE = REPO / "tests" / "ts_member_types_oracle.js"
CONTROL = "f7e6e23"
INVENTED = "zzInventedMember"
KINDS = ("callback", "returned", "awaited", "callback chain", "returned chain", "awaited chain")
CLASSES = ("exact", "unjudged", "false finding", "missed")
IDENTIFIER = re.compile(r"^[A-Za-z_$][\w$]*$")


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
    return _blank(text)


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


def oracle(project: str, source: Path, entries: list[tuple[str, str]]) -> list[dict[str, Any]]:
    folder = os.environ.get(ORACLE_ENV)
    if not folder:
        raise SystemExit(f"{ORACLE_ENV} is not set (a node_modules folder with typescript)")
    done = subprocess.run(
        ["node", str(ORACLE), folder, str(source), *[entry for _, entry in entries]],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"the compiler failed on {project}: {done.stderr[-2000:]}")
    rows: list[dict[str, Any]] = json.loads(done.stdout)
    return rows


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
    commit, entries = PACKAGES[project]
    site, source, deps = _checkout(project, commit, scratch)
    items, excluded = items_of(oracle(project, source, entries), entries)
    text, spans = post_text(items)
    post = scratch / f"members-{project.replace('/', '+')}" / "2026-12-07-member-types.md"
    post.parent.mkdir(parents=True, exist_ok=True)
    post.write_text(text, encoding="utf-8")
    result: dict[str, Any] = {"items": len(items), "excluded": dict(excluded), "runs": {},
                              "alike": sum(item.alike for item in items)}  # fmt: skip
    for label, code in codes.items():
        detail = _run_gate(code, post, site, scratch / f"cache-{label}", deps)
        outcomes = []
        for number, (item, lines) in enumerate(zip(items, spans, strict=True)):
            verdict, reason = classify(item, number, lines, detail)
            outcomes.append({"item": item.shown, "kind": item.kind, "class": verdict,
                             "reason": reason, "real": item.real})  # fmt: skip
        result["runs"][label] = outcomes
    return result


def _share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.0f}%)" if whole else "-"


def report(results: dict[str, dict[str, Any]], show: int, run: Any, control: str) -> None:
    labels = ["control", "now"]
    table = None
    if run is not None:
        columns = [
            {"name": "package", "kind": "label"},
            {"name": "probes (distinct types)", "kind": "label"},
            {"name": "excluded (any, unknown, unresolved, primitive...)", "kind": "label"},
        ]
        for name in (*CLASSES, "open, false finding"):
            columns.append({"name": f"{name} at {control}", "kind": "control"})
            columns.append({"name": name, "kind": "figure"})
        table = run.table(f"Members of typed values against the compiler, per package "
                          f"(control: gate 15 at {control})", columns)  # fmt: skip
    totals = {label: collections.Counter[str]() for label in labels}
    by_kind = {label: collections.Counter[tuple[str, str]]() for label in labels}
    reasons = {label: collections.Counter[str]() for label in labels}
    for project, result in results.items():
        counts = {label: collections.Counter(o["class"] for o in result["runs"][label])
                  for label in labels}  # fmt: skip
        judged = sum(1 for o in result["runs"]["now"] if not o["class"].startswith("open"))
        opened = result["items"] - judged
        for label in labels:
            totals[label].update(counts[label])
            for outcome in result["runs"][label]:
                by_kind[label][(outcome["kind"], outcome["class"])] += 1
                if outcome["class"] in ("unjudged", "missed"):
                    reasons[label][f"{outcome['class']}: {outcome['reason']}"] += 1
        excluded = sum(result["excluded"].values())
        print(
            f"\n{project}: {result['items']} probes of distinct types ({result['alike']} "
            f"alike in all, {opened} open), {excluded} excluded {result['excluded']}"
        )
        for name in CLASSES:
            print(f"  {name:14} control {_share(counts['control'][name], judged):>14}   "
                  f"now {_share(counts['now'][name], judged):>14}")  # fmt: skip
        if opened:
            name = "open, false finding"
            print(f"  {name:14} control {counts['control'][name]}/{opened}   "
                  f"now {counts['now'][name]}/{opened}")  # fmt: skip
        if table is not None:
            row: list[Any] = [project, result["items"], excluded]
            for name in (*CLASSES, "open, false finding"):
                row += [counts["control"][name], counts["now"][name]]
            table.append(row)
        changed = [(c, n) for c, n in zip(result["runs"]["control"], result["runs"]["now"],
                                          strict=True) if c["class"] != n["class"]]  # fmt: skip
        for before, after in changed[:show]:
            print(f"    {after['item']}: {before['class']} -> {after['class']}")
        bad = [o for o in result["runs"]["now"] if o["class"] in ("false finding", "missed")]
        for outcome in bad[:show]:
            print(f"    now {outcome['class']}: {outcome['item']} .{outcome['real']}")
    judged_all = sum(totals["now"][name] for name in CLASSES)
    print(f"\nall packages ({judged_all} judged):")
    for name in CLASSES:
        print(f"  {name:14} control {_share(totals['control'][name], judged_all):>14}   "
              f"now {_share(totals['now'][name], judged_all):>14}")  # fmt: skip
    print("\nby kind (control -> now):")
    for kind in KINDS:
        cells = [f"{name} {by_kind['control'][(kind, name)]}->{by_kind['now'][(kind, name)]}"
                 for name in CLASSES]  # fmt: skip
        print(f"  {kind:15} " + ", ".join(cells))
    for label in labels:
        print(f"\nunjudged and missed reasons, {label} (names blanked):")
        for reason, count in reasons[label].most_common(show):
            print(f"  {count:4}  {reason}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--project", action="append", choices=sorted(PACKAGES))
    parser.add_argument("--control", default=CONTROL, help="the commit of the control")
    parser.add_argument("--scratch", type=Path, help="scratch folder (kept; reused)")
    parser.add_argument("--show", type=int, default=10)
    parser.add_argument("--json", type=Path, help="write the figures for the docs here")
    parser.add_argument("--details", type=Path, help="write every outcome here (JSON)")
    args = parser.parse_args()
    run = None
    projects = args.project or sorted(PACKAGES)
    if args.json:
        from bench.results_json import Run

        run = Run("member_types_conformance", {"control": args.control, "projects": projects})
    scratch = args.scratch or Path(tempfile.mkdtemp(prefix="postgates-member-types-"))
    codes = {"control": _control_code(scratch, args.control), "now": REPO}
    results = {p: measure(p, scratch, codes) for p in projects}
    report(results, args.show, run, args.control)
    if args.details:
        args.details.write_text(json.dumps(results, indent=1), encoding="utf-8")
    if run is not None:
        run.notes.append(
            "Per probe the TypeScript compiler types as an object with members (a callback's "
            "parameter, a returned or awaited value, one chain step): exact = no finding and "
            "nothing unjudged on a real member, the invented member found; open = the type "
            "takes any name (no finding may be made there)"
        )
        run.write(args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
