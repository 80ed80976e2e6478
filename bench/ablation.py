"""What each rule of gate 2 earns: the docs-precision bench run with the rule turned off
(``symbol_rules_off``), side by side with the run with every rule on, on the tune half and
the held-out (report) half.

A rule earns its place when turning it off costs something held out: findings that were
real (labelled defects lost) or false findings it kept away (labelled false findings that
come back). Printed per rule and half: findings, and every labelled defect and labelled
false finding still reported (sampled or not: the seeded sample's cut-off moves with the
findings, the labels do not), with the change against every rule on; then the sample's
precision, and the findings that came or went with no label (to be read before a rule is
called idle). A rule whose figures do not move on the held-out half earns nothing there
(DEVELOPERS: it is deleted). A run whose gate timed out or failed on a doc is marked: a
doc stopped by ``gate_timeout`` changes the findings, so that rule is to be run again.

The runs share one XDG cache (indexes and API models are keyed by commit), and each run's
figures are kept in ``--runs DIR`` when given: a run already there is read, not repeated
(a long ablation can be stopped and resumed). Rules are run in the order given, by
default the most decisive first (tokens each decided in the all-on runs of both halves).
Recall on the natural-drift cases is ``--drift``: bench/natural_drift.py with the same
setting (slow: every case's commits are gated again).

    python bench/ablation.py [--rules historical,model-argument] [--halves report]
    python bench/ablation.py --runs /tmp/ablation --results bench/results/ablation.json
    python bench/ablation.py [--drift] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from pytest_postgates.evidence.near_miss import WAYS as NEAR_WAYS  # noqa: E402
from pytest_postgates.helpers.anchor_rules import RULES as ANCHORS  # noqa: E402
from pytest_postgates.helpers.clearing_rules import RULES as CLEARING  # noqa: E402
from pytest_postgates.helpers.dependency_rules import RULES as DEPENDENCY_RULES  # noqa: E402
from pytest_postgates.helpers.history_cues import RULES as CUE_RULES  # noqa: E402
from pytest_postgates.helpers.model_grounding import RULES  # noqa: E402
from pytest_postgates.helpers.other_repositories import RULES as OTHER_RULES  # noqa: E402
from pytest_postgates.helpers.page_names import RULES as PAGE_RULES  # noqa: E402
from pytest_postgates.helpers.past_names import RULES as PAST_RULES  # noqa: E402

# The rules that can be turned off: every rule table's, and the gate's own checks that
# ``symbol_rules_off`` names (gates/symbol_grounding.py).
ABLATABLE = (
    *(
        rule.name
        for rule in (
            *RULES,
            *ANCHORS,
            *PAGE_RULES,
            *PAST_RULES,
            *CUE_RULES,
            *DEPENDENCY_RULES,
            *OTHER_RULES,
            *CLEARING,
            *NEAR_WAYS,
        )
    ),
    "historical",
    "linked-elsewhere",
    "other-repository",
)
# Rules whose every effect is on the tokens they decide (each such outcome names them):
# turned off, only a project where one decided a token can change, so only those projects
# are run again. A model rule whose miss a later rule may overrule (a near miss the
# sentence gives to another party) can change tokens it is not named on: run everywhere.
DECIDES_ALONE = frozenset(
    {
        *(rule.name for rule in (*ANCHORS, *PAGE_RULES, *PAST_RULES, *CUE_RULES)),
        *(rule.name for rule in (*DEPENDENCY_RULES, *OTHER_RULES, *CLEARING)),
        "model-found", "model-code-usage", "model-command", "other-command",
        "historical", "linked-elsewhere", "other-repository",
    }
)  # fmt: skip
HALVES = ("tune", "report")
ALL_ON = "all rules on"


def projects_to_run(rule: str, base: dict[str, Any]) -> list[str] | None:
    """The projects where turning ``rule`` off can change anything (None: every one)."""
    if rule not in DECIDES_ALONE:
        return None
    return [p["project"] for p in base["projects"] if p.get("decided_by_rule", {}).get(rule)]


def with_projects(base: dict[str, Any], rerun: dict[str, Any]) -> dict[str, Any]:
    """The all-on run with the projects ``rerun`` holds replaced by its runs of them."""
    import docs_precision

    again = {p["project"]: p for p in rerun["projects"]}
    projects = [again.get(p["project"], p) for p in base["projects"]]
    return {**base, "projects": projects, "overall": docs_precision.overall(projects)}


def run_docs(
    half: str,
    rules_off: Sequence[str],
    runs: Path,
    cache: Path,
    projects: Sequence[str] | None = None,
) -> dict[str, Any]:
    """bench/docs_precision.py on ``half`` (``projects`` of it; None: all) with ``rules_off``
    turned off: its whole JSON (kept in ``runs``; a run already there is read back)."""
    out = runs / f"docs-{half}-{'-'.join(rules_off) or 'all-on'}.json"
    if not out.is_file():
        command = [
            sys.executable, str(HERE / "docs_precision.py"), "--half", half,
            "--json", str(out), "--cache", str(cache),
        ]  # fmt: skip
        for project in projects or ():
            command += ["--project", project]
        if rules_off:
            command += ["--set", f"symbol_rules_off={json.dumps(list(rules_off))}"]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            sys.exit(f"ablation: {' '.join(command)} exited {done.returncode}\n{done.stderr}")
    data: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return data


def run_drift(rules_off: Sequence[str], scratch: Path) -> dict[str, Any]:
    out = scratch / f"drift-{'-'.join(rules_off) or 'all-on'}.json"
    command = [sys.executable, str(HERE / "natural_drift.py"), "--json", str(out)]
    if rules_off:
        command += ["--set", f"symbol_rules_off={json.dumps(list(rules_off))}"]
    subprocess.run(command, check=True, capture_output=True, text=True)
    data: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return {half: data[half] for half in HALVES if half in data}


Key = tuple[str, str, int, str]


def findings_of(data: dict[str, Any]) -> dict[Key, dict[str, Any]]:
    """Every finding of a run by (project, doc, line, token)."""
    return {
        (project["project"], item["doc"], int(item["line"]), item["token"]): item
        for project in data["projects"]
        for item in project.get("every_finding", [])
    }


def problems_of(data: dict[str, Any]) -> list[str]:
    """The docs a run could not judge whole (an ERROR card: a crash or ``gate_timeout``)."""
    return [p for project in data["projects"] for p in project.get("problems", [])]


def contribution(off: dict[str, Any], base: dict[str, Any]) -> dict[str, Any]:
    """What turning the rule off changed on one half against every rule on."""
    now, before = findings_of(off), findings_of(base)
    came = [now[key] for key in now.keys() - before.keys()]
    went = [before[key] for key in before.keys() - now.keys()]
    came_labels = Counter(str(item.get("label")) for item in came)
    went_labels = Counter(str(item.get("label")) for item in went)
    new_problems = sorted(set(problems_of(off)) - set(problems_of(base)))
    return {
        "findings": len(now),
        "findings_change": len(now) - len(before),
        "defects_lost": went_labels["defect"],
        "false_back": came_labels["false"],
        "defects_gained": came_labels["defect"],
        "false_gone": went_labels["false"],
        "unlabelled_came": sorted(_shown(item) for item in came if item.get("label") is None),
        "unlabelled_went": sorted(_shown(item) for item in went if item.get("label") is None),
        "new_problems": new_problems,
    }


def _shown(item: dict[str, Any]) -> str:
    return f"{item['doc']}:{item['line']} `{item['token']}` ({item.get('rule') or '-'})"


def earns(change: dict[str, Any]) -> bool:
    """Whether turning the rule off cost something labelled: a real finding lost or a false
    one back. (Off, a rule that only brings false findings or hides real ones costs.)"""
    return bool(change["defects_lost"] or change["false_back"])


def unlabelled_moved(change: dict[str, Any]) -> bool:
    """Whether findings with no label came or went: to be read before the rule is judged."""
    return bool(change["unlabelled_came"] or change["unlabelled_went"])


def decided(data: dict[str, Any], rule: str) -> int:
    return int(data["overall"].get("decided_by_rule", {}).get(rule, 0))


def _line(name: str, change: dict[str, Any] | None, figures: dict[str, Any]) -> str:
    flagged = figures.get("labelled_flagged", {})
    text = (
        f"  {name:<26} findings {figures.get('findings', 0)}"
        f"  labelled still flagged: defects {flagged.get('defect', 0)},"
        f" false {flagged.get('false', 0)}"
        f"  | sample precision {_percent(figures.get('precision'))}"
        f" ({figures.get('defect', 0)}/{figures.get('labelled', 0)})"
    )
    if change is None:
        return text
    return text + (
        f"\n  {'':<26} change {change['findings_change']:+d}: defects lost"
        f" {change['defects_lost']}, false back {change['false_back']}, defects gained"
        f" {change['defects_gained']}, false gone {change['false_gone']}, unlabelled"
        f" +{len(change['unlabelled_came'])}/-{len(change['unlabelled_went'])}"
        + "".join(f"\n  {'':<28}+ {shown}" for shown in change["unlabelled_came"][:8])
        + "".join(f"\n  {'':<28}- {shown}" for shown in change["unlabelled_went"][:8])
        + "".join(f"\n  {'':<28}NEW PROBLEM {p}" for p in change["new_problems"][:3])
    )


def _percent(value: object) -> str:
    return f"{value:.1%}" if isinstance(value, float) else "-"


def verdict(changes: dict[str, dict[str, Any]]) -> str:
    """The rule's standing from its changes per half (DEVELOPERS: deleted when it earns
    nothing held out; one that earns on the tune half only is kept and says so)."""
    if any(change["new_problems"] for change in changes.values()):
        return "rerun: a doc failed or timed out"
    report, tune = changes.get("report"), changes.get("tune")
    if report is not None and earns(report):
        return "earns held out"
    if report is not None and unlabelled_moved(report):
        return "read: unlabelled findings move held out"
    if tune is not None and earns(tune):
        return "earns on the tune half only"
    if tune is not None and unlabelled_moved(tune):
        return "read: unlabelled findings move on the tune half"
    return "earns nothing" if report is not None else "not run held out"


def write_results(
    out: Path,
    record: Any,
    results: dict[str, dict[str, Any]],
    halves: Sequence[str],
    base: dict[str, dict[str, Any]],
) -> None:
    """The per-rule table (bench/results_json.py): what turning each rule off changed."""
    record.notes.append(
        "each row is the docs-precision bench with one rule turned off (symbol_rules_off) "
        "against every rule on: labelled defects lost and labelled false findings back are "
        "over every labelled finding, sampled or not; a rule whose every effect is on the "
        "tokens it decides is run again only on the projects where it decided one (projects "
        "run 0: it decided none, so nothing could change)"
    )
    columns = [{"name": "rule", "kind": "label"}]
    for half in halves:
        columns += [
            {"name": f"{half}: tokens decided", "kind": "control"},
            {"name": f"{half}: projects run", "kind": "control"},
            {"name": f"{half}: findings change", "kind": "figure"},
            {"name": f"{half}: defects lost", "kind": "figure"},
            {"name": f"{half}: false back", "kind": "figure"},
            {"name": f"{half}: unlabelled changed", "kind": "figure"},
        ]
    columns.append({"name": "standing", "kind": "label"})
    rows = record.table("What each rule of gate 2 earns, turned off in turn", columns)
    totals = record.table(
        "Every rule on (the control)",
        [{"name": "half", "kind": "label"}, {"name": "findings", "kind": "control"},
         {"name": "labelled defects flagged", "kind": "control"},
         {"name": "labelled false flagged", "kind": "control"}],
    )  # fmt: skip
    for half in halves:
        flagged = base[half]["overall"]["labelled_flagged"]
        totals.append(
            [half, base[half]["overall"]["findings"], flagged["defect"], flagged["false"]]
        )
    for name, changes in results.items():
        row: list[Any] = [f"`{name}`"]
        for half in halves:
            change = changes.get(half)
            if change is None:
                row += [None] * 6
                continue
            row += [
                decided(base[half], name), change.get("projects_run"),
                change["findings_change"], change["defects_lost"],
                change["false_back"],
                len(change["unlabelled_came"]) + len(change["unlabelled_went"]),
            ]  # fmt: skip
        row.append(verdict(changes))
        rows.append(row)
    record.write(out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--rules", help=f"comma-separated, from: {', '.join(ABLATABLE)}")
    parser.add_argument("--halves", default=",".join(HALVES), help="default tune,report")
    parser.add_argument("--runs", type=Path, help="keep (and reuse) each run's figures here")
    parser.add_argument("--drift", action="store_true", help="also natural-drift recall")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--results", type=Path, help="write the per-rule table for the docs")
    args = parser.parse_args(argv)
    halves = args.halves.split(",")
    rules = args.rules.split(",") if args.rules else list(ABLATABLE)
    unknown = [r for r in rules if r not in ABLATABLE]
    if unknown or not set(halves) <= set(HALVES):
        parser.error(f"not a rule that can be turned off: {', '.join(unknown) or halves}")
    record = None
    if args.results:
        from bench.results_json import Run

        record = Run("ablation", {"halves": halves, "rules": rules})
    with tempfile.TemporaryDirectory(prefix="ablation-") as folder:
        runs = args.runs or Path(folder)
        runs.mkdir(parents=True, exist_ok=True)
        cache = runs / "xdg-cache"
        base = {half: run_docs(half, [], runs, cache) for half in halves}
        if not args.rules:  # the most decisive rules first
            rules.sort(key=lambda rule: -sum(decided(base[h], rule) for h in halves))
        changes: dict[str, dict[str, Any]] = {}
        drift: dict[str, dict[str, Any]] = {}
        if args.drift:
            drift[ALL_ON] = run_drift([], Path(folder))
        for half in halves:
            print(f"== docs precision, {half} half (each rule off against every rule on)")
            print(_line(ALL_ON, None, base[half]["overall"]))
            for problem in problems_of(base[half]):
                print(f"  {'':<26}PROBLEM {problem}")
        for rule in rules:
            changes[rule] = {}
            for half in halves:
                where = projects_to_run(rule, base[half])
                if where == []:  # it decided no token here: turned off, nothing changes
                    off = base[half]
                else:
                    off = with_projects(base[half], run_docs(half, [rule], runs, cache, where))
                changes[rule][half] = contribution(off, base[half])
                changes[rule][half]["projects_run"] = (
                    len(base[half]["projects"]) if where is None else len(where)
                )
                print(f"[{half}] " + _line(rule, changes[rule][half], off["overall"]).lstrip())
            print(f"  {rule}: {verdict(changes[rule])}", flush=True)
            if args.drift:
                drift[rule] = run_drift([rule], Path(folder))
    if args.drift:
        print("== natural drift caught (each line one rule off)")
        for name, figures in drift.items():
            caught = {h: f"{d.get('caught')}/{d.get('cases')}" for h, d in figures.items()}
            print(f"  {name:<26} " + "  ".join(f"{h} {c}" for h, c in caught.items()))
    if args.json:
        payload = {"base": {h: base[h]["overall"] for h in halves}, "rules": changes,
                   "drift": drift}  # fmt: skip
        args.json.write_text(json.dumps(payload, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    if record is not None and args.results:
        write_results(args.results, record, changes, halves, base)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
