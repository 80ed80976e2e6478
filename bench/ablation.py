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
Held-out recall is ``--drift`` (bench/natural_drift.py) and ``--planted``
(bench/planted_docs.py): each is run once with every rule on (report half), and with a rule
off only on the report half's projects where the rule decided a case (a token about the
defect, at the parent or the fix) or an invention; a rule that decided none there has no
held-out occasion and is not run. Turned off, a rule that earns nothing held out, on the
docs or in recall, is deleted; one with no held-out occasion says what the tune half shows.
``--holdout`` also reads NeuroLink's own docs folder (bench/holdout_precision.py, held out
too, against its labels): run once with every rule on, and with a rule off where it decided
a token there (everywhere for a rule not in DECIDES_ALONE); its labelled defects lost and
false findings back count as the docs half's do.

    python bench/ablation.py [--rules historical,model-argument] [--halves report]
    python bench/ablation.py --runs /tmp/ablation --results bench/results/ablation.json
    python bench/ablation.py [--drift] [--planted] [--holdout] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
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
from pytest_postgates.helpers.page_names import RULES as PAGE_RULES  # noqa: E402

# The rules that can be turned off: every rule table's, and the gate's own checks that
# ``symbol_rules_off`` names (gates/symbol_grounding.py).
ABLATABLE = (
    *(
        rule.name
        for rule in (
            *RULES,
            *ANCHORS,
            *PAGE_RULES,
            *CUE_RULES,
            *DEPENDENCY_RULES,
            *CLEARING,
            *NEAR_WAYS,
        )
    ),
    "historical",
    "linked-elsewhere",
    # What the model did not decide and text search grounds (every text grounding of a code
    # name at once), and the listing of a name only prose writes (session 24).
    "text-grounding",
    "prose-only",
)
# Rules whose every effect is on the tokens they decide (each such outcome names them):
# turned off, only a project where one decided a token can change, so only those projects
# are run again. A model rule whose miss a later rule may overrule (a near miss the
# sentence gives to another party) can change tokens it is not named on: run everywhere.
DECIDES_ALONE = frozenset(
    {
        *(rule.name for rule in (*ANCHORS, *PAGE_RULES, *CUE_RULES)),
        *(rule.name for rule in (*DEPENDENCY_RULES, *CLEARING)),
        "model-found", "model-code-usage", "model-command", "other-command",
        "historical", "linked-elsewhere", "prose-only",
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
    out = docs_out(half, rules_off, runs)
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


def docs_out(half: str, rules_off: Sequence[str], runs: Path) -> Path:
    """Where the docs run of ``half`` with ``rules_off`` is kept."""
    return runs / f"docs-{half}-{'-'.join(rules_off) or 'all-on'}.json"


def run_drift(
    rules_off: Sequence[str], runs: Path, projects: Sequence[str] | None = None
) -> dict[str, Any]:
    """bench/natural_drift.py's report half with ``rules_off`` turned off, on the cases of
    ``projects`` (None: every one); kept in ``runs``, read back if there."""
    out = runs / f"drift-{'-'.join(rules_off) or 'all-on'}.json"
    options = ["--jobs", "2", "--cache", str(runs / "drift-cache"), "--split", "report"]
    return _report_half("natural_drift.py", out, options, rules_off, projects)


def run_planted(
    rules_off: Sequence[str], runs: Path, cache: Path, projects: Sequence[str] | None = None
) -> dict[str, Any]:
    """bench/planted_docs.py's report half with ``rules_off`` turned off, on ``projects``
    (None: every one); its inventions per half (kept in ``runs``)."""
    out = runs / f"planted-{'-'.join(rules_off) or 'all-on'}.json"
    options = ["--cache", str(cache), "--half", "report"]
    data = _report_half("planted_docs.py", out, options, rules_off, projects)
    if "halves" not in data:  # one half: the flat shape
        data = {"halves": {data["half"]: {"overall": data["overall"]}}}
    return {half: figures["overall"] for half, figures in data["halves"].items()}


def _report_half(
    script: str,
    out: Path,
    options: list[str],
    rules_off: Sequence[str],
    projects: Sequence[str] | None,
) -> dict[str, Any]:
    """``script``'s JSON at ``out``: read back if there, else run with ``options`` on
    ``projects`` (None: every one) and ``rules_off`` turned off."""
    if not out.is_file():
        command = [sys.executable, str(HERE / script), "--json", str(out), *options]
        for project in projects or ():
            command += ["--project", project]
        if rules_off:
            command += ["--set", f"symbol_rules_off={json.dumps(list(rules_off))}"]
        _run_bench(command)
    data: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return data


def _run_bench(command: list[str], env: dict[str, str] | None = None) -> None:
    done = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
    if done.returncode != 0:
        sys.exit(f"ablation: {' '.join(command)} exited {done.returncode}\n{done.stderr}")


HOLDOUT_PROJECT = "NeuroLink docs/"


def run_holdout(rules_off: Sequence[str], runs: Path, cache: Path) -> dict[str, Any]:
    """bench/holdout_precision.py (NeuroLink's docs folder, its default draw of files) with
    ``rules_off`` turned off, in the docs-precision run's shape (one project, every finding
    with its label, the tokens each rule decided); kept in ``runs``, read back if there."""
    out = holdout_out(rules_off, runs)
    if not out.is_file():
        command = [sys.executable, str(HERE / "holdout_precision.py"), "--json", str(out)]
        if rules_off:
            command += ["--set", f"symbol_rules_off={json.dumps(list(rules_off))}"]
        _run_bench(command, {**os.environ, "XDG_CACHE_HOME": str(cache)})
    return as_docs_run(json.loads(out.read_text(encoding="utf-8")))


def holdout_out(rules_off: Sequence[str], runs: Path) -> Path:
    return runs / f"holdout-{'-'.join(rules_off) or 'all-on'}.json"


def as_docs_run(holdout: dict[str, Any]) -> dict[str, Any]:
    """A holdout_precision JSON as a docs-precision run of one project, so that
    :func:`contribution` and :func:`decided` read it as they read a half."""
    flagged = Counter(str(item.get("label")) for item in holdout.get("every_finding", []))
    decided_by_rule = dict(holdout.get("decided_by_rule", {}))
    project = {"project": HOLDOUT_PROJECT, "every_finding": holdout.get("every_finding", []),
               "problems": list(holdout.get("problems", [])),
               "decided_by_rule": decided_by_rule}  # fmt: skip
    overall = {
        "findings": holdout.get("ungrounded", 0),
        "labelled_flagged": {"defect": flagged["defect"], "false": flagged["false"]},
        "defect": holdout.get("defect", 0),
        "labelled": holdout.get("labelled_flagged", 0),
        "precision": holdout.get("precision"),
        "decided_by_rule": decided_by_rule,
    }
    return {"projects": [project], "overall": overall}


def held_out_holdout(
    rule: str, base: dict[str, Any], runs: Path, cache: Path, kept_only: bool = False
) -> dict[str, Any] | None:
    """What turning ``rule`` off changed on NeuroLink's docs folder (not run where a rule
    whose every effect is on its own tokens decided none: nothing could change);
    ``kept_only``: None when that run is not already kept in ``runs``."""
    where = projects_to_run(rule, base)
    if where != [] and kept_only and not holdout_out([rule], runs).is_file():
        return None
    off = base if where == [] else run_holdout([rule], runs, cache)
    return {
        **contribution(off, base), "decided": decided(base, rule), "run": where != [],
        "overall": off["overall"],
    }  # fmt: skip


def held_out_cases(drift: dict[str, Any]) -> list[dict[str, Any]]:
    return [case for case in drift.get("cases", []) if case.get("split") == "report"]


def where_decided(rule: str, items: Sequence[dict[str, Any]], rules_of: Any) -> list[str]:
    """The projects of ``items`` (drift cases or planted inventions) where ``rule`` decided
    one: only there can turning it off move one. (A model rule whose miss a later rule
    overruled is not followed here, as it is on the docs: the recall runs are too slow to
    repeat everywhere for each such rule.) Empty: no held-out occasion."""
    return sorted({item["project"] for item in items if named(rule, rules_of(item))})


def named(rule: str, recorded: Sequence[str]) -> bool:
    """Whether ``rule`` decided an item whose rules are ``recorded``: by name, or as the
    way of a near miss (``model-near-miss (near-word-added)``, natural_drift.decided_by)."""
    return any(r == rule or r.endswith(f" ({rule})") or r.startswith(f"{rule} (") for r in recorded)


def drift_rules(case: dict[str, Any]) -> list[str]:
    return list(case.get("rules", []))


def planted_rules(invention: dict[str, Any]) -> list[str]:
    return [str(invention.get("rule") or "-")]


def drift_change(
    off: dict[str, Any], base: dict[str, Any], projects: Sequence[str]
) -> dict[str, Any]:
    """Held-out natural-drift cases of ``projects`` caught and clean, all on against off."""

    def key(case: dict[str, Any]) -> tuple[str, str, str, int, str]:
        return (case["project"], case["fix"], case["doc"], int(case["line"]), case["token"])

    before = {key(c): c for c in held_out_cases(base) if c["project"] in projects}
    now = {key(c): c for c in held_out_cases(off)}
    pairs = [(before[k], now[k]) for k in before if k in now]
    return {
        "cases_run": len(before),
        "cases_gated": len(pairs),
        "caught_lost": sum(b["caught"] and not a["caught"] for b, a in pairs),
        "caught_gained": sum(a["caught"] and not b["caught"] for b, a in pairs),
        "clean_lost": sum(b["clean"] is True and a["clean"] is False for b, a in pairs),
        "clean_gained": sum(b["clean"] is False and a["clean"] is True for b, a in pairs),
    }


def planted_change(
    off: dict[str, Any], base: dict[str, Any], projects: Sequence[str]
) -> dict[str, Any]:
    """Held-out planted inventions of ``projects`` caught, all on against off (by the
    invention planted: a rule that chose the real names moves the inventions too)."""

    def key(item: dict[str, Any]) -> tuple[str, str, int, str]:
        return (item["project"], item["doc"], int(item["line"]), item["invention"])

    before = {key(i): i for i in base["inventions"] if i["project"] in projects}
    now = {key(i): i for i in off["inventions"] if i["project"] in projects}
    caught = [k for k, i in before.items() if i["outcome"] == "ungrounded"]
    return {
        "planted_run": len(before),
        "caught_lost": sum(now.get(k, {}).get("outcome") != "ungrounded" for k in caught),
        "caught_gained": sum(
            i["outcome"] == "ungrounded" and before.get(k, {}).get("outcome") != "ungrounded"
            for k, i in now.items()
        ),
        "not_planted_off": sum(k not in now for k in before),
    }


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


def recall_lost(changes: dict[str, dict[str, Any]]) -> bool:
    """Whether turning the rule off lost held-out recall or a clean control (natural drift,
    planted inventions)."""
    drift, planted = changes.get("drift") or {}, changes.get("planted") or {}
    return bool(drift.get("caught_lost") or drift.get("clean_lost") or planted.get("caught_lost"))


def occasion(changes: dict[str, dict[str, Any]]) -> bool:
    """Whether the rule decided any held-out token (docs, drift cases, inventions); a change
    without the count (older runs) is taken to have decided some."""
    report = changes.get("report") or {}
    drift, planted = changes.get("drift") or {}, changes.get("planted") or {}
    return bool(
        report.get("decided", 1)
        or (changes.get("holdout") or {}).get("decided")
        or drift.get("decided", drift.get("cases_run"))
        or planted.get("decided", planted.get("planted_run"))
    )


def verdict(changes: dict[str, dict[str, Any]]) -> str:
    """The rule's standing from its changes (DEVELOPERS: deleted when it earns nothing held
    out; one with no held-out occasion that earns on the tune half is the lead's to judge)."""
    if any(change.get("new_problems") for change in changes.values()):
        return "rerun: a doc failed or timed out"
    report, tune = changes.get("report"), changes.get("tune")
    holdout = changes.get("holdout")
    if (report is not None and earns(report)) or recall_lost(changes):
        return "earns held out"
    if holdout is not None and earns(holdout):
        return "earns held out (NeuroLink docs)"
    unrun = sum(
        int(changes[m].get("caught_decided") or 0)
        for m in ("drift", "planted")
        if m in changes and changes[m].get("caught_lost") is None
    )
    if unrun:
        return f"read: held-out recall not run with it off (its claims: {unrun} caught)"
    if report is not None and unlabelled_moved(report):
        return "read: unlabelled findings move held out"
    if holdout is not None and unlabelled_moved(holdout):
        return "read: unlabelled findings move on NeuroLink docs"
    if report is None:
        return "not run held out"
    on_tune = (
        "tune half not run"
        if tune is None
        else "earns on the tune half"
        if earns(tune)
        else "read: unlabelled findings move on the tune half"
        if unlabelled_moved(tune)
        else "earns nothing on the tune half"
    )
    if occasion(changes):
        return f"decides held-out tokens, earns nothing there; {on_tune}"
    return f"no held-out occasion; {on_tune}"


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
        "run 0: it decided none, so nothing could change); natural drift and planted "
        "inventions (report half) are run again with the rule off only on the projects where "
        "it decided a case or an invention (cases decided 0: no held-out occasion); a loss "
        "left empty was not run (--kept-only: only the runs already made are read)"
    )
    if "holdout" in base:
        record.notes.append(
            "NeuroLink docs: bench/holdout_precision.py (NeuroLink's own docs folder, its "
            "default draw of files, against bench/labels/gate2_holdout.jsonl) with the rule "
            "off, run where the rule decided a token there (everywhere for a rule whose "
            "misses a later rule may overrule)"
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
    holdout = any("holdout" in c for c in results.values())
    if holdout:
        columns += [
            {"name": "NeuroLink docs: tokens decided", "kind": "control"},
            {"name": "NeuroLink docs: findings change", "kind": "figure"},
            {"name": "NeuroLink docs: defects lost", "kind": "figure"},
            {"name": "NeuroLink docs: false back", "kind": "figure"},
            {"name": "NeuroLink docs: unlabelled changed", "kind": "figure"},
        ]
    recall = [m for m in ("drift", "planted") if any(m in c for c in results.values())]
    if "drift" in recall:
        columns += [
            {"name": "drift report: cases decided", "kind": "control"},
            {"name": "drift report: caught it decided", "kind": "control"},
            {"name": "drift report: caught lost", "kind": "figure"},
            {"name": "drift report: clean lost", "kind": "figure"},
        ]
    if "planted" in recall:
        columns += [
            {"name": "planted report: inventions decided", "kind": "control"},
            {"name": "planted report: caught it decided", "kind": "control"},
            {"name": "planted report: caught lost", "kind": "figure"},
        ]
    columns.append({"name": "standing", "kind": "label"})
    rows = record.table("What each rule of gate 2 earns, turned off in turn", columns)
    totals = record.table(
        "Every rule on (the control)",
        [{"name": "half", "kind": "label"}, {"name": "findings", "kind": "control"},
         {"name": "labelled defects flagged", "kind": "control"},
         {"name": "labelled false flagged", "kind": "control"}],
    )  # fmt: skip
    for half in [h for h in (*halves, "holdout") if h in base]:
        flagged = base[half]["overall"]["labelled_flagged"]
        name = "NeuroLink docs" if half == "holdout" else half
        totals.append(
            [name, base[half]["overall"]["findings"], flagged["defect"], flagged["false"]]
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
        if holdout:
            on_docs = changes.get("holdout")
            row += (
                [None] * 5
                if on_docs is None
                else [on_docs["decided"], on_docs["findings_change"], on_docs["defects_lost"],
                      on_docs["false_back"],
                      len(on_docs["unlabelled_came"]) + len(on_docs["unlabelled_went"])]
            )  # fmt: skip
        if "drift" in recall:
            drift = changes.get("drift") or {}
            row += [drift.get("decided"), drift.get("caught_decided"), drift.get("caught_lost"),
                    drift.get("clean_lost")]  # fmt: skip
        if "planted" in recall:
            planted = changes.get("planted") or {}
            row += [planted.get("decided"), planted.get("caught_decided"),
                    planted.get("caught_lost")]  # fmt: skip
        row.append(verdict(changes))
        rows.append(row)
    record.write(out)


def held_out_drift(
    rule: str, base: dict[str, Any], runs: Path, kept_only: bool = False
) -> dict[str, Any]:
    """The rule off on the held-out drift cases where it decided a token (none: no run);
    ``kept_only``: a run not already in ``runs`` is not made (its losses are None)."""
    cases = held_out_cases(base)
    where = where_decided(rule, cases, drift_rules)
    mine = [c for c in cases if named(rule, drift_rules(c))]
    decided = {"decided": len(mine), "caught_decided": sum(bool(c["caught"]) for c in mine)}
    if not where:
        return {**drift_change(base, base, where), **decided}
    if kept_only and not (runs / f"drift-{rule}.json").is_file():
        return {"cases_run": len(mine), "caught_lost": None, "clean_lost": None, **decided}
    return {**drift_change(run_drift([rule], runs, where), base, where), **decided}


def held_out_planted(
    rule: str, base: dict[str, Any], runs: Path, cache: Path, kept_only: bool = False
) -> dict[str, Any]:
    """The rule off on the held-out projects where it decided an invention (none: no run);
    ``kept_only`` as for :func:`held_out_drift`."""
    inventions = base["report"]["inventions"]
    where = where_decided(rule, inventions, planted_rules)
    mine = [i for i in inventions if named(rule, planted_rules(i))]
    decided = {
        "decided": len(mine),
        "caught_decided": sum(i["outcome"] == "ungrounded" for i in mine),
    }
    if not where:
        return {**planted_change(base["report"], base["report"], where), **decided}
    if kept_only and not (runs / f"planted-{rule}.json").is_file():
        return {"planted_run": len(mine), "caught_lost": None, **decided}
    off = run_planted([rule], runs, cache, where)["report"]
    return {**planted_change(off, base["report"], where), **decided}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--rules", help=f"comma-separated, from: {', '.join(ABLATABLE)}")
    parser.add_argument(
        "--halves", default=",".join(HALVES), help="default tune,report ('': none, --holdout only)"
    )
    parser.add_argument("--runs", type=Path, help="keep (and reuse) each run's figures here")
    parser.add_argument("--drift", action="store_true", help="also natural-drift recall")
    parser.add_argument("--planted", action="store_true", help="also planted-invention recall")
    parser.add_argument(
        "--holdout", action="store_true", help="also NeuroLink's docs folder (holdout_precision)"
    )
    parser.add_argument(
        "--kept-only",
        action="store_true",
        help="read the runs with a rule off kept in --runs, make none (all-on runs are made)",
    )
    parser.add_argument("--json", type=Path)
    parser.add_argument(
        "--note", action="append", default=[], help="a note for --results (where runs came from)"
    )
    parser.add_argument("--results", type=Path, help="write the per-rule table for the docs")
    args = parser.parse_args(argv)
    halves = [half for half in args.halves.split(",") if half]
    rules = args.rules.split(",") if args.rules else list(ABLATABLE)
    unknown = [r for r in rules if r not in ABLATABLE]
    if unknown or not set(halves) <= set(HALVES):
        parser.error(f"not a rule that can be turned off: {', '.join(unknown) or halves}")
    record = None
    if args.results:
        from bench.results_json import Run

        record = Run("ablation", {"halves": halves, "rules": rules})
        record.notes.extend(args.note)
    with tempfile.TemporaryDirectory(prefix="ablation-") as folder:
        runs = args.runs or Path(folder)
        runs.mkdir(parents=True, exist_ok=True)
        cache = runs / "xdg-cache"
        base = {half: run_docs(half, [], runs, cache) for half in halves}
        if not args.rules:  # the most decisive rules first
            rules.sort(key=lambda rule: -sum(decided(base[h], rule) for h in halves))
        changes: dict[str, dict[str, Any]] = {}
        if args.holdout:
            base["holdout"] = run_holdout([], runs, cache)
            print("== NeuroLink docs folder (bench/holdout_precision.py, held out)")
            print(_line(ALL_ON, None, base["holdout"]["overall"]))
        drift_base = run_drift([], runs) if args.drift else {}
        planted_base = run_planted([], runs, cache) if args.planted else {}
        for half in halves:
            print(f"== docs precision, {half} half (each rule off against every rule on)")
            print(_line(ALL_ON, None, base[half]["overall"]))
            for problem in problems_of(base[half]):
                print(f"  {'':<26}PROBLEM {problem}")
        for rule in rules:
            changes[rule] = {}
            for half in halves:
                where = projects_to_run(rule, base[half])
                if where != [] and args.kept_only and not docs_out(half, [rule], runs).is_file():
                    print(f"[{half}] {rule}: not run (--kept-only, no run kept)")
                    continue
                if where == []:  # it decided no token here: turned off, nothing changes
                    off = base[half]
                else:
                    off = with_projects(base[half], run_docs(half, [rule], runs, cache, where))
                changes[rule][half] = contribution(off, base[half])
                changes[rule][half]["projects_run"] = (
                    len(base[half]["projects"]) if where is None else len(where)
                )
                changes[rule][half]["decided"] = decided(base[half], rule)
                print(f"[{half}] " + _line(rule, changes[rule][half], off["overall"]).lstrip())
            on_docs = (
                held_out_holdout(rule, base["holdout"], runs, cache, args.kept_only)
                if args.holdout
                else None
            )
            if on_docs is not None:
                changes[rule]["holdout"] = on_docs
                print("[NeuroLink docs] " + _line(rule, on_docs, on_docs["overall"]).lstrip())
            if args.drift:
                changes[rule]["drift"] = held_out_drift(rule, drift_base, runs, args.kept_only)
                print(f"[drift report] {changes[rule]['drift']}")
            if args.planted:
                changes[rule]["planted"] = held_out_planted(
                    rule, planted_base, runs, cache, args.kept_only
                )
                print(f"[planted report] {changes[rule]['planted']}")
            print(f"  {rule}: {verdict(changes[rule])}", flush=True)
    if args.json:
        payload = {"base": {h: base[h]["overall"] for h in base}, "rules": changes}
        args.json.write_text(json.dumps(payload, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    if record is not None and args.results:
        write_results(args.results, record, changes, halves, base)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
