"""Gate 15's option-object keys against the TypeScript compiler, on real packages.

For each package of the tune half of the natural-drift split that
bench/compiler_conformance.py names (with the scratch checkouts and the runner this bench
shares with bench/member_types_conformance.py; its source from the bare mirror at the
commit the tune labels pin, its installed dependencies linked as ``node_modules``), the
compiler (``tests/ts_option_keys_oracle.js``, TypeScript from
``POSTGATES_TS_ORACLE_DIR``) lists every exported callable (functions, constructors,
methods of exported values, static and instance methods of exported classes) whose
parameter it types as an object with properties, with those properties (every member of
a union and every overload: a key any declares is valid) and, for a property typed as such
an object, its properties one level down. Each (callable, parameter) becomes a one-fence
sample that imports the callable from the package and passes an object literal with every
property the compiler lists plus one invented key (and, for each nested object, every
property of it plus one invented key); gate 15 runs on it against the API model built from
the same commit. Each is classified:

- ``exact``: no finding on a real key, every invented key found;
- ``unjudged``: an invented key not found but listed unjudged (by reason, blanked);
- ``false finding``: a finding on a real key (whatever else);
- ``missed``: an invented key neither found nor listed: passed silently.

A parameter the compiler cannot type (any, unknown, an unresolved import, a bare type
parameter) is excluded and counted; one whose object takes any key (an index signature)
is ``open``: no key may be a finding there (``open, false finding`` counts those that are).

The control is the same run with the gate's code at ``--control`` (default 60a3b8a, before
issue 26's option-key work of session 35), extracted from git into the scratch folder and
run in a subprocess beside the code measured.

    python bench/option_keys_conformance.py [--project OWNER/NAME ...] [--show N]
        [--scratch /tmp/x] [--json bench/results/option_keys_conformance.json]
"""

from __future__ import annotations

import collections
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench import compiler_conformance as conformance  # noqa: E402

IDENTIFIER, LABELS = conformance.IDENTIFIER, conformance.LABELS

ORACLE = REPO / "tests" / "ts_option_keys_oracle.js"
CONTROL = "60a3b8a"
INVENTED = "zzInventedKey"
INVENTED_INSIDE = "zzInventedInner"


@dataclass
class Item:
    """One (callable, parameter) the compiler types as an object with properties."""

    project: str
    specifier: str
    export: str
    form: str  # call, new, static, method
    member: str
    position: int
    keys: list[str] = field(default_factory=list)
    nested: dict[str, list[str]] = field(default_factory=dict)
    open: bool = False

    @property
    def shown(self) -> str:
        name = self.export
        if self.form == "new":
            return f"new {name}() #{self.position + 1}"
        if self.form == "method":
            return f"new {name}().{self.member}() #{self.position + 1}"
        if self.form == "static":
            return f"{name}.{self.member}() #{self.position + 1}"
        return f"{name}() #{self.position + 1}"


def _key(name: str) -> str:
    return name if IDENTIFIER.match(name) else json.dumps(name)


def sample(item: Item, number: int) -> str:
    """The fence's code: the import, then the call with the object literal."""
    local = item.export if item.export != "default" else f"imported{number}"
    if not IDENTIFIER.match(local):
        local = f"imported{number}"
    if item.export == "default":
        head = f"import {local} from '{item.specifier}';"
    elif local == item.export:
        head = f"import {{ {local} }} from '{item.specifier}';"
    else:
        head = f"import {{ {item.export} as {local} }} from '{item.specifier}';"
    parts = []
    for name in item.keys:
        inner = item.nested.get(name)
        if inner:
            written = ", ".join(f"{_key(k)}: 1" for k in [*inner, INVENTED_INSIDE])
            parts.append(f"{_key(name)}: {{ {written} }}")
        else:
            parts.append(f"{_key(name)}: 1")
    if not item.open:
        parts.append(f"{INVENTED}: 1")
    literal = "{ " + ", ".join(parts) + " }"
    arguments = ", ".join(["undefined"] * item.position + [literal])
    if item.form == "new":
        return f"{head}\nconst made = new {local}({arguments});\n"
    if item.form == "method":
        return f"{head}\nconst made = new {local}();\nmade.{item.member}({arguments});\n"
    if item.form == "static":
        return f"{head}\n{local}.{item.member}({arguments});\n"
    return f"{head}\n{local}({arguments});\n"


def post_text(items: list[Item]) -> tuple[str, list[tuple[int, int]]]:
    """A post with one fence per item, and each fence's (first, last) file line."""
    lines = ["---", "layout: post", "title: Option keys", "date: 2026-12-07", "---", ""]
    spans: list[tuple[int, int]] = []
    for number, item in enumerate(items):
        lines += [f"Sample {number}.", "", "```ts"]
        first = len(lines) + 1
        lines += sample(item, number).rstrip("\n").split("\n")
        spans.append((first, len(lines)))
        lines += ["```", ""]
    return "\n".join(lines) + "\n", spans


def classify(item: Item, found: list[dict[str, Any]], unjudged: list[dict[str, Any]]) -> str:
    real = set(item.keys) | {k for inner in item.nested.values() for k in inner}
    names = {str(v.get("name", "")) for v in found}
    if names & real:
        return "false finding"
    if item.open:
        return "open, false finding" if INVENTED in names else "open"
    inside = sum(1 for v in found if v.get("name") == INVENTED_INSIDE)
    if INVENTED in names and inside >= len(item.nested):
        return "exact"
    return "unjudged" if unjudged else "missed"


def measure(project: str, scratch: Path, codes: dict[str, Path]) -> dict[str, Any]:
    commit, entries = conformance.PACKAGES[project]
    site, source, deps = conformance.checkout(project, commit, scratch)
    specifier_of = {entry: specifier for specifier, entry in entries}
    items: list[Item] = []
    excluded: collections.Counter[str] = collections.Counter()
    seen: set[tuple[str, str, str, int]] = set()
    for row in conformance.oracle(ORACLE, project, source, entries):
        key = (row["export"], row["form"], row["member"], row["position"])
        if key in seen:  # exported again by a later entry: asked once
            continue
        seen.add(key)
        if row.get("excluded") and not row.get("keys"):
            excluded[row["excluded"]] += 1
            continue
        items.append(Item(project, specifier_of[row["entry"]], row["export"], row["form"],
                          row["member"], row["position"], row.get("keys", []),
                          row.get("nested", {}), bool(row.get("open"))))  # fmt: skip
    text, spans = post_text(items)
    post = conformance.write_post(scratch, "post", project, "2026-12-07-option-keys.md", text)
    result: dict[str, Any] = {"items": len(items), "excluded": dict(excluded), "runs": {}}
    for label, code in codes.items():
        cache = scratch / f"cache-{label}"
        detail = conformance.run_gate(code, post, site, cache, deps)
        outcomes: list[dict[str, Any]] = []
        for item, (first, last) in zip(items, spans, strict=True):
            found = [v for v in detail["violations"] if first <= int(v.get("line", 0)) <= last]
            unjudged = [u for u in detail["unjudged"] if first <= int(u.get("line", 0)) <= last]
            verdict = classify(item, found, unjudged)
            reasons = sorted({conformance.blank(str(u.get("reason", ""))) for u in unjudged})
            outcomes.append({"item": item.shown, "class": verdict, "reasons": reasons,
                             "findings": sorted({str(v.get("name")) for v in found})})  # fmt: skip
        result["runs"][label] = outcomes
    return result


def report(results: dict[str, dict[str, Any]], show: int, run: Any, control: str) -> None:
    title = f"Option keys against the compiler, per package (control: gate 15 at {control})"
    labels = ("callables x parameters", "excluded (compiler cannot type)")
    rows = conformance.table(run, title, labels, control)
    totals = {label: collections.Counter[str]() for label in LABELS}
    reasons = {label: collections.Counter[str]() for label in LABELS}
    for project, result in results.items():
        excluded = sum(result["excluded"].values())
        heading = (f"\n{project}: {result['items']} (callable, parameter) typed as objects "
                   f"({conformance.opened(result)} open), {excluded} excluded "
                   f"{dict(result['excluded'])}")  # fmt: skip
        counts = conformance.report_package(project, result, heading, rows, show,
                                lambda outcome: str(outcome["findings"][:5]))  # fmt: skip
        for label in LABELS:
            totals[label].update(counts[label])
            for outcome in result["runs"][label]:
                if outcome["class"] == "unjudged":
                    reasons[label].update(outcome["reasons"][:1])
    conformance.report_totals(totals)
    for label in LABELS:
        print(f"\nunjudged reasons, {label} (first reason per sample, names blanked):")
        for reason, count in reasons[label].most_common(show):
            print(f"  {count:4}  {reason}")


BENCH = conformance.Bench(
    "option_keys_conformance",
    __doc__ or "",
    CONTROL,
    "postgates-option-keys-",
    measure,
    report,
    "Per (callable, parameter) the TypeScript compiler types as an object with "
    "properties: exact = no finding on a real key and the invented key(s) found; "
    "open = the compiler's type takes any key (no finding may be made there)",
)


if __name__ == "__main__":
    raise SystemExit(conformance.main(BENCH))
