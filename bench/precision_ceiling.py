"""How far a model of the product's code can take gate 2's precision, from the labels:
a control for issue 24's target (precision >= 85% on the held-out docs, with natural-drift
recall >= 90%).

Every labelled false finding of bench/docs_precision.py has a class (the labelling rules in
bench/labels/docs_precision*.jsonl). Some classes a model of code can refute, in principle:

- ``exists-in-code``: the name is in the repository's code (a gap of the model);
- ``defined-in-doc``: the page's own sample, or an example file it includes, declares it;
- ``third-party``: another party's API, package or tool; counted here as if every one were
  in a dependency the model reads (an upper bound: many are packages the product does not
  declare, which no model of its code or its dependencies holds).

The others only the page's prose can decide: ``example`` (the reader's own files and
names), ``notation`` (a signature or shorthand) and ``other`` (mostly history a page
describes: a migration table's "before" column, a changelog's removed name). A finding of
those classes stays false whatever the model knows.

The ceiling of a set of claim rules is its real findings over its real findings and its
prose-only false ones. Rules are added best ceiling first; each row prints the ceiling of
the rules so far beside the natural-drift cases those rules caught (``--drift``, gate 2's
rule on each caught case), so the figure and its control are side by side: no prefix of
rules that reaches the precision target also reaches the recall target when the ceiling
line never crosses both.

    python bench/precision_ceiling.py --docs report.json [--docs tune.json]
        [--drift nd_all.json] [--results bench/results/precision_ceiling.json]

``report.json``: ``bench/docs_precision.py --json``; ``nd_all.json``:
``bench/natural_drift.py --json``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.results_json import Run

CODE_DECIDABLE = ("exists-in-code", "defined-in-doc")
OTHER_PARTY = "third-party"
PROSE_ONLY = ("example", "notation", "other")
PRECISION_TARGET = 85.0
RECALL_TARGET = 90.0


def rule_of(name: str) -> str:
    """A claim rule without the way a near miss is near (``model-near-miss``)."""
    return re.sub(r" \(near-[a-z-]+\)$", "", name) or "-"


def labelled(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The labelled findings of one docs_precision run (defect or false; unsure left out)."""
    return [
        {**item, "project": project["project"]}
        for project in data.get("projects", [])
        for item in project.get("labelled_findings", [])
        if item.get("label") in ("defect", "false")
    ]


def counts(items: list[dict[str, Any]]) -> dict[str, int]:
    """Real findings, false ones, and the false ones by what could refute them."""
    classes = Counter(str(i.get("class") or "other") for i in items if i["label"] == "false")
    return {
        "real": sum(i["label"] == "defect" for i in items),
        "false": sum(classes.values()),
        "code": sum(classes[c] for c in CODE_DECIDABLE),
        "third-party": classes[OTHER_PARTY],
        "prose": sum(n for c, n in classes.items() if c not in (*CODE_DECIDABLE, OTHER_PARTY)),
    }


def share(part: int, whole: int) -> float | None:
    return round(100 * part / whole, 1) if whole else None


def ceilings(c: dict[str, int]) -> tuple[float | None, float | None, float | None]:
    """Precision now, with the code-decidable false findings gone, and with the third-party
    ones gone too."""
    real = c["real"]
    return (
        share(real, real + c["false"]),
        share(real, real + c["false"] - c["code"]),
        share(real, real + c["prose"]),
    )


def _ceiling_or_best(items: list[dict[str, Any]]) -> float:
    """A rule's third-party ceiling; one with no labelled finding ranks above every other."""
    ceiling = ceilings(counts(items))[2]
    return 101.0 if ceiling is None else ceiling


def drift_caught(data: dict[str, Any], half: str) -> tuple[int, Counter[str]]:
    """The half's case count, and its caught cases by gate 2's rule (``-``: gates 14/15)."""
    cases = [c for c in data.get("cases", []) if c.get("split") == half]
    by_rule: Counter[str] = Counter()
    for case in cases:
        if case.get("caught"):
            rules = {rule_of(r) for r in case.get("caught_by") or ["-"]}
            by_rule.update(rules)
    return len(cases), by_rule


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs", type=Path, action="append", required=True)
    parser.add_argument("--drift", type=Path)
    parser.add_argument("--results", type=Path)
    args = parser.parse_args(argv)
    run = Run("precision_ceiling", {"docs": [str(p) for p in args.docs],
                                    "drift": str(args.drift or "")})  # fmt: skip
    drift = json.loads(args.drift.read_text(encoding="utf-8")) if args.drift else {}
    summary = run.table(
        "Gate 2 precision on the labelled sample: now, and its ceilings",
        [{"name": "half", "kind": "label"}, {"name": "real", "kind": "figure"},
         {"name": "false", "kind": "figure"},
         {"name": "false a code model could refute", "kind": "figure"},
         {"name": "false third-party", "kind": "figure"},
         {"name": "false only prose decides", "kind": "figure"},
         {"name": "precision now", "kind": "control", "unit": "%"},
         {"name": "ceiling, code-decidable gone", "kind": "figure", "unit": "%"},
         {"name": "ceiling, third-party gone too", "kind": "figure", "unit": "%"}],
    )  # fmt: skip
    frontier = run.table(
        "Claim rules added best ceiling first: ceiling precision beside drift recall",
        [{"name": "half", "kind": "label"}, {"name": "rule added", "kind": "label"},
         {"name": "real", "kind": "figure"}, {"name": "false only prose decides",
                                              "kind": "figure"},
         {"name": "ceiling precision so far", "kind": "figure", "unit": "%"},
         {"name": "drift cases caught so far", "kind": "control"},
         {"name": "drift recall so far", "kind": "control", "unit": "%"}],
    )  # fmt: skip
    for path in args.docs:
        data = json.loads(path.read_text(encoding="utf-8"))
        half = str(data.get("half") or path.stem)
        items = labelled(data)
        total = counts(items)
        now, code, bound = ceilings(total)
        summary.append([half, total["real"], total["false"], total["code"],
                        total["third-party"], total["prose"], now, code, bound])  # fmt: skip
        print(f"{half}: real {total['real']}, false {total['false']} (code-decidable "
              f"{total['code']}, third-party {total['third-party']}, prose only "
              f"{total['prose']}); precision {now}% now, ceiling {code}% -> {bound}%")  # fmt: skip
        cases, caught = drift_caught(drift, half)
        by_rule: dict[str, list[dict[str, Any]]] = {}
        for item in items:
            by_rule.setdefault(rule_of(str(item.get("rule") or "-")), []).append(item)
        # A rule that caught drift cases but has no labelled finding on the docs costs no
        # measured precision: it comes first (the best case for the frontier).
        for rule in caught:
            if rule != "-":
                by_rule.setdefault(rule, [])
        ranked = sorted(by_rule, key=lambda r: -_ceiling_or_best(by_rule[r]))
        so_far: list[dict[str, Any]] = []
        rules: set[str] = set()
        for rule in ranked:
            so_far += by_rule[rule]
            rules.add(rule)
            c = counts(so_far)
            got = sum(n for r, n in caught.items() if r in rules)
            frontier.append([half, rule, c["real"], c["prose"], ceilings(c)[2], got,
                             share(got, cases)])  # fmt: skip
            print(
                f"  + {rule:28} real {c['real']:3}  prose-only false {c['prose']:3}  "
                f"ceiling {ceilings(c)[2]}%  drift {got}/{cases} ({share(got, cases)}%)"
            )
        if cases:
            others = caught.get("-", 0)
            print(f"  gates 14 and 15 catch {others} more drift cases of the {cases}")
    run.notes.append(
        f"Targets (issue 24): precision >= {PRECISION_TARGET}% on the held-out docs, "
        f"natural-drift recall >= {RECALL_TARGET}%. The third-party ceiling is an upper "
        "bound (every other party's name counted as refutable by a model)"
    )
    if args.results:
        run.write(args.results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
