"""What each rule of gate 2 earns: the docs-precision bench run with the rule turned off
(``symbol_rules_off``), side by side with the run with every rule on, on the tune half and
the held-out (report) half.

A rule earns its place when turning it off costs something held out: findings that were
real (labelled defects lost) or false findings it kept away (labelled false findings that
come back). Printed per rule and half: findings, and every labelled defect and labelled
false finding still reported (sampled or not: the seeded sample's cut-off moves with the
findings, the labels do not), with the change against every rule on; then the sample's
precision. A rule whose
figures do not move on the held-out half earns nothing there (DEVELOPERS: it is deleted).
Recall on the natural-drift cases is ``--drift``: bench/natural_drift.py with the same
setting (slow: every case's commits are gated again).

    python bench/ablation.py [--rules historical,model-argument] [--drift] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from pytest_postgates.helpers.anchor_rules import RULES as ANCHORS  # noqa: E402
from pytest_postgates.helpers.dependency_rules import RULES as DEPENDENCY_RULES  # noqa: E402
from pytest_postgates.helpers.history_cues import RULES as CUE_RULES  # noqa: E402
from pytest_postgates.helpers.model_grounding import RULES  # noqa: E402
from pytest_postgates.helpers.page_names import RULES as PAGE_RULES  # noqa: E402
from pytest_postgates.helpers.past_names import RULES as PAST_RULES  # noqa: E402

# The rules that can be turned off: the API model's, the anchors, the page's own samples'
# and the history cue.
ABLATABLE = (
    *(
        rule.name
        for rule in (*RULES, *ANCHORS, *PAGE_RULES, *PAST_RULES, *CUE_RULES, *DEPENDENCY_RULES)
    ),
    "historical",
    "linked-elsewhere",
)
HALVES = ("tune", "report")


def run_docs(half: str, rules_off: Sequence[str], scratch: Path) -> dict[str, Any]:
    """bench/docs_precision.py on ``half`` with ``rules_off`` turned off; its overall figures."""
    out = scratch / f"docs-{half}-{'-'.join(rules_off) or 'all-on'}.json"
    command = [sys.executable, str(HERE / "docs_precision.py"), "--half", half, "--json", str(out)]
    if rules_off:
        command += ["--set", f"symbol_rules_off={json.dumps(list(rules_off))}"]
    subprocess.run(command, check=True, capture_output=True, text=True)
    overall: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))["overall"]
    return overall


def run_drift(rules_off: Sequence[str], scratch: Path) -> dict[str, Any]:
    out = scratch / f"drift-{'-'.join(rules_off) or 'all-on'}.json"
    command = [sys.executable, str(HERE / "natural_drift.py"), "--json", str(out)]
    if rules_off:
        command += ["--set", f"symbol_rules_off={json.dumps(list(rules_off))}"]
    subprocess.run(command, check=True, capture_output=True, text=True)
    data: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return {half: data[half] for half in HALVES if half in data}


def _line(name: str, figures: dict[str, Any], base: dict[str, Any] | None) -> str:
    def delta(key: str) -> str:
        if base is None:
            return ""
        change = int(figures.get(key, 0)) - int(base.get(key, 0))
        return f" ({change:+d})" if change else ""

    flagged = figures.get("labelled_flagged", {})
    before = (base or {}).get("labelled_flagged", {})

    def moved(key: str) -> str:
        change = int(flagged.get(key, 0)) - int(before.get(key, 0))
        return f" ({change:+d})" if base is not None and change else ""

    return (
        f"  {name:<22} findings {figures.get('findings', 0)}{delta('findings')}"
        f"  every labelled finding still flagged: defects {flagged.get('defect', 0)}"
        f"{moved('defect')}, false {flagged.get('false', 0)}{moved('false')}"
        f"  | sample: precision {_percent(figures.get('precision'))}"
        f" ({figures.get('defect', 0)}/{figures.get('labelled', 0)})"
    )


def _percent(value: object) -> str:
    return f"{value:.1%}" if isinstance(value, float) else "-"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--rules", help=f"comma-separated, from: {', '.join(ABLATABLE)}")
    parser.add_argument("--drift", action="store_true", help="also natural-drift recall")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    rules = args.rules.split(",") if args.rules else list(ABLATABLE)
    unknown = [r for r in rules if r not in ABLATABLE]
    if unknown:
        parser.error(f"not a rule that can be turned off: {', '.join(unknown)}")
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="ablation-") as folder:
        scratch = Path(folder)
        for name in ["", *rules]:
            off = [name] if name else []
            results[name or "all rules on"] = {
                half: run_docs(half, off, scratch) for half in HALVES
            }
            if args.drift:
                results[name or "all rules on"]["drift"] = run_drift(off, scratch)
    base = results["all rules on"]
    for half in HALVES:
        print(f"== docs precision, {half} half (labelled sample; each line one rule off)")
        for name, figures in results.items():
            reference = None if name == "all rules on" else base[half]
            print(_line(name, figures[half], reference))
    if args.drift:
        print("== natural drift caught (each line one rule off)")
        for name, figures in results.items():
            caught = {h: f"{d.get('caught')}/{d.get('cases')}" for h, d in figures["drift"].items()}
            print(f"  {name:<22} " + "  ".join(f"{h} {c}" for h, c in caught.items()))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
