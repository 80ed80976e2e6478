"""Gate 15's option-object keys against the TypeScript compiler, on real packages.

For each package of the tune half of the natural-drift split named below (its source from
the bare mirror at the commit the tune labels pin, its installed dependencies linked as
``node_modules``), the compiler (``tests/ts_option_keys_oracle.js``, TypeScript from
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

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
ORACLE = REPO / "tests" / "ts_option_keys_oracle.js"
ORACLE_ENV = "POSTGATES_TS_ORACLE_DIR"
DEPENDENCIES_ENV = "POSTGATES_BENCH_DEPENDENCIES"
DEPENDENCY_PATH_ENV = "POSTGATES_DEPENDENCY_PATH"
CONTROL = "60a3b8a"
INVENTED = "zzInventedKey"
INVENTED_INSIDE = "zzInventedInner"
REF = "option-keys-ref"

# Tune-half packages: (project, commit the tune labels pin, [(specifier, entry file)]).
# The entry is the file the compiler reads: the package's own TypeScript source where it
# is written in TypeScript, else its hand-written declaration file.
PACKAGES: dict[str, tuple[str, list[tuple[str, str]]]] = {
    "sindresorhus/ky": ("2ded27572ec4", [("ky", "index.d.ts")]),
    "sindresorhus/got": ("f839ae73bb3a", [("got", "source/index.ts")]),
    "pmndrs/zustand": (
        "3fca8461798d",
        [
            ("zustand", "src/index.ts"),
            ("zustand/vanilla", "src/vanilla.ts"),
            ("zustand/middleware", "src/middleware.ts"),
        ],
    ),
    "google/zx": ("8d3955ed4ccd", [("zx", "src/index.ts"), ("zx/core", "src/core.ts")]),
    "axios/axios": ("cdacd9761c2f", [("axios", "index.d.ts")]),
    "fastify/fastify": ("a1413de2033b", [("fastify", "fastify.d.ts")]),
    "nodejs/undici": ("cae3940b8617", [("undici", "index.d.ts")]),
}
CLASSES = ("exact", "unjudged", "false finding", "missed")
IDENTIFIER = re.compile(r"^[A-Za-z_$][\w$]*$")


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


def _blank(reason: str) -> str:
    """A reason with its names blanked (the same reason for every callable)."""
    text = re.sub(r"`[^`]*`", "`_`", reason)
    text = re.sub(r"[\w$.]+\(\)", "_()", text)
    text = re.sub(r"\b[A-Z][\w$]*(\.[\w$]+)*\b", "_", text)
    text = re.sub(r"\b[\w./-]+\.(d\.)?[mc]?[jt]s(:\d+)?\b", "_file", text)
    return " ".join(text.split())[:110]


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


def evaluate(post: Path, site: Path, cache: Path) -> dict[str, Any]:
    """Gate 15's card detail on ``post`` against ``site`` (runs in the code's process)."""
    sys.path.append(str(REPO))
    from pytest_postgates.gates import GateContext, code_samples, default_settings
    from pytest_postgates.post import parse_post

    settings = default_settings(repo=site, ref=REF, offline=True)
    card = code_samples.GATE.evaluate(parse_post(post), GateContext.create(settings, cache))
    detail = card.detail or {}
    return {
        "verdict": str(card.verdict),
        "summary": card.summary,
        "violations": detail.get("violations", []),
        "unjudged": detail.get("unjudged", []),
    }


def _run_gate(code: Path, post: Path, site: Path, cache: Path, deps: Path | None) -> Any:
    env = {**os.environ, "PYTHONPATH": str(code)}
    env[DEPENDENCY_PATH_ENV] = str(deps) if deps else ""
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--evaluate", str(post),
         "--site", str(site), "--cache", str(cache)],
        capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"gate 15 failed on {post}: {done.stderr[-2000:]}")
    return json.loads(done.stdout)


def _checkout(project: str, commit: str, scratch: Path) -> tuple[Path, Path, Path | None]:
    """A shared clone at ``commit`` (the gate's repository), the source extracted (the
    compiler's), and the installed dependencies folder (None when absent)."""
    mirror = Path("/work/.mirror") / project.replace("/", "+") / "repo"
    slug = project.replace("/", "+")
    site, source = scratch / f"site-{slug}", scratch / f"src-{slug}"
    if not site.exists():
        subprocess.run(["git", "clone", "-q", "--shared", "--no-checkout", str(mirror),
                        str(site)], check=True)  # fmt: skip
        subprocess.run(["git", "-C", str(site), "branch", "-q", "-f", REF, commit], check=True)
    if not source.exists():
        source.mkdir(parents=True)
        archive = subprocess.run(["git", "--git-dir", str(mirror), "archive", commit],
                                 capture_output=True, check=True)  # fmt: skip
        subprocess.run(["tar", "-x", "-C", str(source)], input=archive.stdout, check=True)
    base = os.environ.get(DEPENDENCIES_ENV)
    deps = Path(base) / slug / "js" if base else None
    if deps is not None and (deps / "node_modules").is_dir():
        link = source / "node_modules"
        if not link.exists():
            link.symlink_to(deps / "node_modules")
        return site, source, deps
    return site, source, None


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


def measure(project: str, scratch: Path, codes: dict[str, Path]) -> dict[str, Any]:
    commit, entries = PACKAGES[project]
    site, source, deps = _checkout(project, commit, scratch)
    specifier_of = {entry: specifier for specifier, entry in entries}
    items: list[Item] = []
    excluded: collections.Counter[str] = collections.Counter()
    seen: set[tuple[str, str, str, int]] = set()
    for row in oracle(project, source, entries):
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
    post = scratch / f"post-{project.replace('/', '+')}" / "2026-12-07-option-keys.md"
    post.parent.mkdir(parents=True, exist_ok=True)
    post.write_text(text, encoding="utf-8")
    result: dict[str, Any] = {"items": len(items), "excluded": dict(excluded), "runs": {}}
    for label, code in codes.items():
        cache = scratch / f"cache-{label}"
        detail = _run_gate(code, post, site, cache, deps)
        outcomes: list[dict[str, Any]] = []
        for item, (first, last) in zip(items, spans, strict=True):
            found = [v for v in detail["violations"] if first <= int(v.get("line", 0)) <= last]
            unjudged = [u for u in detail["unjudged"] if first <= int(u.get("line", 0)) <= last]
            verdict = classify(item, found, unjudged)
            reasons = sorted({_blank(str(u.get("reason", ""))) for u in unjudged})
            outcomes.append({"item": item.shown, "class": verdict, "reasons": reasons,
                             "findings": sorted({str(v.get("name")) for v in found})})  # fmt: skip
        result["runs"][label] = outcomes
    return result


def _share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.0f}%)" if whole else "-"


def report(results: dict[str, dict[str, Any]], show: int, run: Any) -> None:
    labels = ["control", "now"]
    table = None
    if run is not None:
        columns = [{"name": "package", "kind": "label"},
                   {"name": "callables x parameters", "kind": "label"},
                   {"name": "excluded (compiler cannot type)", "kind": "label"}]  # fmt: skip
        for name in ("exact", "unjudged", "false finding", "missed", "open, false finding"):
            columns.append({"name": f"{name} at {CONTROL}", "kind": "control"})
            columns.append({"name": name, "kind": "figure"})
        table = run.table("Option keys against the compiler, per package (control: "
                          f"gate 15 at {CONTROL})", columns)  # fmt: skip
    totals = {label: collections.Counter[str]() for label in labels}
    reasons = {label: collections.Counter[str]() for label in labels}
    for project, result in results.items():
        counts = {label: collections.Counter(o["class"] for o in result["runs"][label])
                  for label in labels}  # fmt: skip
        judged = sum(1 for o in result["runs"]["now"] if not o["class"].startswith("open"))
        opened = result["items"] - judged
        for label in labels:
            totals[label].update(counts[label])
            for outcome in result["runs"][label]:
                if outcome["class"] == "unjudged":
                    reasons[label].update(outcome["reasons"][:1])
        excluded = sum(result["excluded"].values())
        print(f"\n{project}: {result['items']} (callable, parameter) typed as objects "
              f"({opened} open), {excluded} excluded {dict(result['excluded'])}")  # fmt: skip
        for name in CLASSES:
            print(f"  {name:14} control {_share(counts['control'][name], judged):>14}   "
                  f"now {_share(counts['now'][name], judged):>14}")  # fmt: skip
        if opened:
            name = "open, false finding"
            print(f"  {name:14} control {counts['control'][name]}/{opened}   "
                  f"now {counts['now'][name]}/{opened}")  # fmt: skip
        if table is not None:
            row: list[Any] = [project, result["items"], excluded]
            for name in ("exact", "unjudged", "false finding", "missed", "open, false finding"):
                row += [counts["control"][name], counts["now"][name]]
            table.append(row)
        changed = [(c, n) for c, n in zip(result["runs"]["control"], result["runs"]["now"],
                                          strict=True) if c["class"] != n["class"]]  # fmt: skip
        for before, after in changed[:show]:
            print(f"    {after['item']}: {before['class']} -> {after['class']}")
        bad = [o for o in result["runs"]["now"] if o["class"] in ("false finding", "missed")]
        for outcome in bad[:show]:
            print(f"    now {outcome['class']}: {outcome['item']} {outcome['findings'][:5]}")
    judged_all = sum(totals["now"][name] for name in CLASSES)
    print(f"\nall packages ({judged_all} judged):")
    for name in CLASSES:
        print(f"  {name:14} control {_share(totals['control'][name], judged_all):>14}   "
              f"now {_share(totals['now'][name], judged_all):>14}")  # fmt: skip
    for label in labels:
        print(f"\nunjudged reasons, {label} (first reason per sample, names blanked):")
        for reason, count in reasons[label].most_common(show):
            print(f"  {count:4}  {reason}")


def _control_code(scratch: Path, commit: str) -> Path:
    folder = scratch / f"code-{commit}"
    if not (folder / "pytest_postgates").is_dir():
        folder.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "-C", str(REPO), "archive", commit, "pytest_postgates"],
                                 capture_output=True, check=True)  # fmt: skip
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return folder


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--project", action="append", choices=sorted(PACKAGES))
    parser.add_argument("--control", default=CONTROL, help="the commit of the control")
    parser.add_argument("--scratch", type=Path, help="scratch folder (kept; reused)")
    parser.add_argument("--show", type=int, default=10)
    parser.add_argument("--json", type=Path, help="write the figures for the docs here")
    parser.add_argument("--details", type=Path, help="write every outcome here (JSON)")
    parser.add_argument("--evaluate", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--site", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--cache", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.evaluate:
        print(json.dumps(evaluate(args.evaluate, args.site, args.cache)))
        return 0
    run = None
    if args.json:
        sys.path.insert(0, str(REPO))
        from bench.results_json import Run

        run = Run(
            "option_keys_conformance",
            {"control": args.control, "projects": args.project or sorted(PACKAGES)},
        )
    scratch = args.scratch or Path(tempfile.mkdtemp(prefix="postgates-option-keys-"))
    codes = {"control": _control_code(scratch, args.control), "now": REPO}
    results = {p: measure(p, scratch, codes) for p in args.project or sorted(PACKAGES)}
    report(results, args.show, run)
    if args.details:
        args.details.write_text(json.dumps(results, indent=1), encoding="utf-8")
    if run is not None:
        run.notes.append(
            "Per (callable, parameter) the TypeScript compiler types as an object with "
            "properties: exact = no finding on a real key and the invented key(s) found; "
            "open = the compiler's type takes any key (no finding may be made there)"
        )
        run.write(args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
