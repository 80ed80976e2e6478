"""Natural-drift recall of gates 2, 14 and 15 (issues 24 and 26).

The cases (bench/labels/drift_cases.jsonl, labelling rules and the fixed tune/report split at
its top) are documentation defects that the maintainers of public projects found and fixed:
a wrong code name in a Markdown doc, the commit that fixed it, and that commit's parent. Each
case is gated twice, against the project's own repository:

- at the parent (the defect present): caught when gate 2 (an ``ungrounded`` token), gate 14
  (a ``violations`` specifier) or gate 15 (a ``violations`` name) reports, within
  ``LINE_SLACK`` lines of the labelled line, a token that contains the defect's name;
- at the fix (the clean control): clean when the same doc has no finding of those gates,
  on any line, whose token contains the defect's name.

The defect's name is the label's token without call parentheses and leading dashes or dots
(``--old-flag`` -> ``old-flag``, ``.stream_raw()`` -> ``stream_raw``) and, for a dotted
token (not a path, flag or imported module), its last component too
(``httpx.BasicAuthentication`` matches a finding ``BasicAuthentication``): a finding
matches when its token contains one of them.

How a commit is gated (as bench/holdout_precision.py prepares its scratch repository): a
``git clone --shared --no-checkout`` of the project's mirror (it reads the mirror's objects,
writes nothing into it), a branch ``drift-ref`` at the commit, the cases' docs written from
that commit into the clone's working tree, and a ``pyproject.toml`` with ``[tool.postgates]
paths = [<docs folder>]`` (the configuration a team running the plugin over its docs folder
writes; the text of that folder is then left out of the evidence) and, for a Python project
or a JS monorepo whose root package name is not the one its docs import, ``package``
(PACKAGES, bench/drift_projects.py). The plugin reads the code
from git at ``drift-ref``, offline, ``--postgates-all``, gates 2, 14 and 15 only. One clone
serves every case of one (project, commit).

Dependencies: gates 2 and 15 judge names rooted in the project's declared dependencies (a
keyword of a config class whose base is transformers' ``TrainingArguments``) against their
installed code. With ``$POSTGATES_BENCH_DEPENDENCIES`` set, the gates read a project's from
``$POSTGATES_BENCH_DEPENDENCIES/<owner>+<name>/`` (``python``, ``js``: what
``bench/install_dependencies.py --bench drift`` installs, once per project); without it, or
for a project with nothing installed there, from none (never the bench's own environment:
the figures must not depend on it) and such names are unjudged. The output and the JSON's
settings say, per project, whether dependencies were present.

Mirrors: ``$POSTGATES_DRIFT_MIRRORS`` (default /work/.mirror), one bare repository per
project at ``<owner>+<name>/repo`` (the layout the search tool's ``fetch`` writes) or
``<owner>+<name>``; a project without a mirror is skipped with a message.

    python bench/natural_drift.py [--split tune|report|all] [--project OWNER/NAME]
                                  [--json OUT] [--results OUT] [--jobs N] [--cases FILE]
                                  [--verbose] [--cache DIR]

``--json OUT`` writes every case's outcome, with the gate-2 rules that decided a token
about the defect (bench/ablation.py re-runs a rule off only where it decided one);
``--cache DIR`` keeps the gate runs' XDG cache across runs; ``--results
bench/results/natural_drift.json`` writes the figures for the Benchmarks page
(bench/results_json.py): recall per split and shape with the clean controls beside it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.drift_projects import PACKAGES, SPLIT
from bench.miss_anatomy import card_entries, name_entries, where_written
from bench.results_json import Run
from pytest_postgates.gates.symbol_grounding import entry_lines

HERE = Path(__file__).resolve().parent
CASES = HERE / "labels" / "drift_cases.jsonl"
DEFAULT_MIRRORS = "/work/.mirror"
GATES = {2: "symbol_grounding", 14: "import_specifiers", 15: "code_samples"}
# The scorecard list and the key of each finding's token, per gate.
FINDING_FIELDS = {2: ("ungrounded", "token"), 14: ("violations", "specifier"),
                  15: ("violations", "name")}  # fmt: skip
LINE_SLACK = 2
# `--set key=value` lines added to every site's [tool.postgates] (an ablation).
EXTRA_SETTINGS: list[str] = []
SHAPES = (
    "prose-identifier",
    "prose-member",
    "cli-flag",
    "path",
    "outside-code-span",
    "fence-import",
    "fence-member",
    "fence-argument",
)
# First path components that name a documentation folder (configured as the posts folder).
DOC_FOLDERS = ("docs", "doc", "documentation", "website", "www", "site", "guide")
REF = "drift-ref"
# The projects' installed dependencies (bench/install_dependencies.py) and the variable the
# gates read them from (evidence/dependency_models.py).
BENCH_DEPENDENCIES_ENV = "POSTGATES_BENCH_DEPENDENCIES"
DEPENDENCY_PATH_ENV = "POSTGATES_DEPENDENCY_PATH"


@dataclass(frozen=True)
class Case:
    project: str
    language: str
    split: str
    fix: str
    parent: str
    doc: str
    line: int
    token: str
    replacement: str | None
    shape: str
    verified: str

    @property
    def names(self) -> tuple[str, ...]:
        """What a finding's token must contain to be about this defect."""
        bare = re.sub(r"\((?:.*\))?$", "", self.token).strip("`").lstrip("-.")
        if self.shape in ("path", "cli-flag", "fence-import"):
            return (bare,)  # parts of a path, flag or module are not names of their own
        last = re.split(r"[.#]", bare)[-1] if re.search(r"[.#]", bare) else bare
        return tuple(dict.fromkeys(n for n in (bare, last) if n))


@dataclass(frozen=True)
class Finding:
    gate: int
    line: int
    token: str
    rule: str = ""  # gate 2: the rule that decided (empty: the claims-mode fall-through)


@dataclass
class DocResult:
    """What the three gates said about one doc at one commit."""

    findings: list[Finding] = field(default_factory=list)
    verdicts: dict[int, str] = field(default_factory=dict)
    missing: bool = False  # the doc does not exist at this commit
    # Why a gate neither passed nor failed (its card's summary), per gate.
    reasons: dict[int, str] = field(default_factory=dict)
    # Every entry of the three cards, in one shape (bench/miss_anatomy.py), and the doc.
    entries: list[dict[str, Any]] = field(default_factory=list)
    text: str = ""
    checked_listed: bool = False  # gate 15's card lists the names it checked
    # Every token gate 2 decided (reported or not), with the rule that decided it.
    decided: list[Finding] = field(default_factory=list)


@dataclass
class Outcome:
    case: Case
    caught: bool
    clean: bool | None  # None: the doc is gone at the fix
    verdicts: dict[int, str]
    reasons: dict[int, str]
    near: list[Finding]  # the parent's findings within the slack of the labelled line
    # The parent's card entries of the defect token and where it is written (miss_anatomy).
    entries: list[dict[str, Any]] = field(default_factory=list)
    where: str = ""
    checked_listed: bool = False
    # The gate-2 rules that decided a token about the defect (at the parent near the line,
    # at the fix anywhere): only these can move the case when turned off (bench/ablation.py).
    rules: list[str] = field(default_factory=list)


def load_cases(path: Path) -> list[Case]:
    cases: list[Case] = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        data = json.loads(text)
        case = Case(**{key: data.get(key) for key in Case.__dataclass_fields__})
        if SPLIT.get(case.project) != case.split:
            sys.exit(f"{path}:{number}: {case.project} is in split {SPLIT.get(case.project)}")
        if case.shape not in SHAPES:
            sys.exit(f"{path}:{number}: unknown shape {case.shape!r}")
        cases.append(case)
    return cases


def mirror_of(root: Path, project: str) -> Path | None:
    base = root / project.replace("/", "+")
    for candidate in (base / "repo", base):
        if (candidate / "HEAD").is_file() or (candidate / ".git").exists():
            return candidate
    return None


def posts_folder(doc: str) -> str:
    """The ``paths`` entry for a doc: its documentation folder, else its own folder, else
    the file itself (a README at the root)."""
    parts = doc.split("/")
    if len(parts) == 1:
        return doc
    if parts[0].lower() in DOC_FOLDERS:
        return parts[0]
    return "/".join(parts[:-1])


def dependency_folders(project: str) -> list[Path]:
    """The project's installed dependency folders (``python``, ``js``) that exist under
    ``$POSTGATES_BENCH_DEPENDENCIES``; none when it is not set."""
    cache = os.environ.get(BENCH_DEPENDENCIES_ENV)
    if not cache:
        return []
    folder = Path(cache) / project.replace("/", "+")
    return [folder / part for part in ("python", "js") if (folder / part).is_dir()]


def _git(repo: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, check=False)


def prepare_site(
    mirror: Path, commit: str, docs: Sequence[str], site: Path, package: str | None = None
) -> dict[str, bool]:
    """A shared clone of ``mirror`` at ``commit`` with ``docs`` written from it; returns
    which docs exist at the commit."""
    subprocess.run(
        ["git", "clone", "-q", "--shared", "--no-checkout", str(mirror), str(site)], check=True
    )
    subprocess.run(["git", "-C", str(site), "branch", "-q", "-f", REF, commit], check=True)
    present: dict[str, bool] = {}
    for doc in docs:
        blob = _git(mirror, "show", f"{commit}:{doc}")
        present[doc] = blob.returncode == 0
        if present[doc]:
            target = site / doc
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(blob.stdout)
    folders = sorted({posts_folder(doc) for doc in docs})
    listed = ", ".join(json.dumps(folder) for folder in folders)
    setting = f"package = {json.dumps(package)}\n" if package else ""
    (site / "pyproject.toml").write_text(
        f"[tool.pytest.ini_options]\n\n[tool.postgates]\npaths = [{listed}]\n{setting}"
        + "".join(f"{extra}\n" for extra in EXTRA_SETTINGS),
        encoding="utf-8",
    )
    return present


def read_cards(cards: Path) -> dict[str, DocResult]:
    """Findings and verdicts of gates 2, 14 and 15 per doc (the overall card names it)."""
    results: dict[str, DocResult] = {}
    for overall_path in sorted(cards.glob("*-overall.json")):
        overall = json.loads(overall_path.read_text(encoding="utf-8"))
        stem = overall_path.name.removesuffix("-overall.json")
        result = results.setdefault(str(overall["post"]), DocResult())
        for gate, name in GATES.items():
            card_path = cards / f"{stem}-gate{gate}-{name}.json"
            if not card_path.is_file():
                result.verdicts[gate] = "MISSING"
                continue
            card = json.loads(card_path.read_text(encoding="utf-8"))
            result.verdicts[gate] = str(card.get("verdict"))
            if result.verdicts[gate] not in ("PASS", "FAIL"):
                # A scorecard file keeps the reason in detail ("error" / "reason").
                detail = card.get("detail") or {}
                reason = card.get("summary") or detail.get("error") or detail.get("reason")
                result.reasons[gate] = str(reason or "")[:160]
            listing, key = FINDING_FIELDS[gate]
            detail = card.get("detail") or {}
            result.entries += card_entries(gate, detail)
            result.checked_listed |= gate == 15 and "checked_names" in detail
            for item in detail.get(listing) or []:
                token = str(item[key])
                # Gate 2 lists a token once, with every line it is written on.
                lines = entry_lines(item) if gate == 2 else [int(item.get("line", 0))]
                result.findings += [Finding(gate, n, token, decided_by(item)) for n in lines]
            if gate == 2:
                decided = [detail.get(listing) or [], *(detail.get("outcomes") or {}).values()]
                result.decided += [
                    Finding(2, int(item.get("line", 0)), str(item["token"]),
                            decided_by(item) or "-")
                    for items in decided for item in items if "token" in item
                ]  # fmt: skip
    return results


def decided_by(item: dict[str, Any]) -> str:
    """A finding's rule, with the way it is near when a near miss made it a claim
    (``model-near-miss (near-letter-changed)``: evidence/near_miss.py)."""
    rule = str(item.get("rule") or "")
    way = re.search(r"\((near-[a-z-]+)\)$", str(item.get("reason") or ""))
    return f"{rule} ({way.group(1)})" if way else rule


def batches(docs: Sequence[str]) -> list[list[str]]:
    """Docs split so that no two in one run share a base name (scorecards are named by it)."""
    out: list[list[str]] = []
    for doc in docs:
        stem = Path(doc).stem
        for batch in out:
            if all(Path(other).stem != stem for other in batch):
                batch.append(doc)
                break
        else:
            out.append([doc])
    return out


def gate_commit(
    mirror: Path,
    commit: str,
    docs: Sequence[str],
    scratch: Path,
    cache: Path,
    package: str | None = None,
    dependencies: Sequence[Path] = (),
) -> dict[str, DocResult]:
    """Gates 2, 14 and 15 on ``docs`` at ``commit`` of the mirror's repository, the
    project's installed ``dependencies`` folders on the gates' search path."""
    results: dict[str, DocResult] = {}
    for number, batch in enumerate(batches(docs)):
        site = scratch / f"site-{commit[:12]}-{number}"
        present = prepare_site(mirror, commit, batch, site, package)
        targets = [doc for doc in batch if present[doc]]
        results.update({doc: DocResult(missing=True) for doc in batch if not present[doc]})
        if not targets:
            continue
        cards = scratch / f"cards-{commit[:12]}-{number}"
        command = [
            sys.executable, "-m", "pytest", *targets,
            f"--rootdir={site}", f"--postgates-repo={site}", f"--postgates-ref={REF}",
            "--postgates-offline", "--postgates-all", "--postgates-only=2,14,15",
            f"--postgates-scorecards={cards}",
            "-p", "no:cacheprovider", "-p", "no:randomly", "-q", "--tb=no", "--no-header",
        ]  # fmt: skip
        env = {**os.environ, "XDG_CACHE_HOME": str(cache), "PYTEST_ADDOPTS": ""}
        env[DEPENDENCY_PATH_ENV] = os.pathsep.join(str(folder) for folder in dependencies)
        done = subprocess.run(
            command, cwd=site, env=env, capture_output=True, text=True, check=False
        )
        found = read_cards(cards) if cards.is_dir() else {}
        for doc in targets:
            if doc in found:
                results[doc] = found[doc]
                results[doc].text = (site / doc).read_text(encoding="utf-8", errors="replace")
            else:
                tail = (done.stdout + done.stderr)[-400:].strip().replace("\n", " | ")
                print(f"natural_drift: no scorecard for {doc} at {commit[:12]} "
                      f"(pytest exit {done.returncode}): {tail}", file=sys.stderr)  # fmt: skip
                results[doc] = DocResult(verdicts=dict.fromkeys(GATES, "NO-CARD"))
                results[doc].text = (site / doc).read_text(encoding="utf-8", errors="replace")
    return results


def matches(case: Case, finding: Finding) -> bool:
    return any(name in finding.token for name in case.names)


def judge(case: Case, at_parent: DocResult, at_fix: DocResult) -> Outcome:
    near = [f for f in at_parent.findings if abs(f.line - case.line) <= LINE_SLACK]
    caught = any(matches(case, finding) for finding in near)
    clean = None if at_fix.missing else not any(matches(case, f) for f in at_fix.findings)
    entries = name_entries(at_parent.entries, case.names, case.line)
    where = where_written(at_parent.text, case.line, case.names) if at_parent.text else ""
    about = [
        *(f for f in at_parent.decided if abs(f.line - case.line) <= LINE_SLACK),
        *at_fix.decided,
    ]
    rules = sorted({f.rule for f in about if matches(case, f)})
    return Outcome(
        case, caught, clean, dict(at_parent.verdicts), dict(at_parent.reasons), near,
        entries, where or "no doc", at_parent.checked_listed, rules,
    )  # fmt: skip


def run_cases(
    cases: Sequence[Case], mirrors: Path, jobs: int, shared_cache: Path | None = None
) -> list[Outcome]:
    """Every case gated at its parent and its fix; ``shared_cache``: the XDG cache folder
    kept across runs (one subfolder per project), else a scratch one."""
    by_project: dict[str, list[Case]] = {}
    for case in cases:
        by_project.setdefault(case.project, []).append(case)
    work: list[tuple[str, Path, str, list[str]]] = []
    for project, group in sorted(by_project.items()):
        mirror = mirror_of(mirrors, project)
        if mirror is None:
            print(f"natural_drift: SKIP {project}: no mirror under {mirrors} "
                  f"(fetch github:{project})", file=sys.stderr)  # fmt: skip
            continue
        commits: dict[str, set[str]] = {}
        for case in group:
            commits.setdefault(case.parent, set()).add(case.doc)
            commits.setdefault(case.fix, set()).add(case.doc)
        work += [(project, mirror, commit, sorted(docs)) for commit, docs in commits.items()]
    results: dict[tuple[str, str, str], DocResult] = {}
    with tempfile.TemporaryDirectory(prefix="natural-drift-") as tmp:
        scratch = Path(tmp)

        def one(item: tuple[str, Path, str, list[str]]) -> str:
            project, mirror, commit, docs = item
            folder = scratch / project.replace("/", "+")
            folder.mkdir(exist_ok=True)
            cache = (shared_cache or scratch / "xdg-cache") / project.replace("/", "+")
            package = PACKAGES.get(project)
            deps = dependency_folders(project)
            gated = gate_commit(mirror, commit, docs, folder, cache, package, deps)
            for doc, result in gated.items():
                results[(project, commit, doc)] = result
            return commit

        # One project's commits in order share its cache; --jobs runs projects side by side.
        per_project: dict[str, list[tuple[str, Path, str, list[str]]]] = {}
        for item in work:
            per_project.setdefault(item[0], []).append(item)
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            for _done in pool.map(
                lambda items: [one(item) for item in items], per_project.values()
            ):
                pass  # consumed so that an exception in a worker is raised here
    outcomes: list[Outcome] = []
    for case in cases:
        parent = results.get((case.project, case.parent, case.doc))
        fix = results.get((case.project, case.fix, case.doc))
        if parent is not None and fix is not None:
            outcomes.append(judge(case, parent, fix))
    return outcomes


def _ratio(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.1f}%)" if whole else "0/0"


def figures(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    by_shape: dict[str, dict[str, int]] = {}
    for outcome in outcomes:
        entry = by_shape.setdefault(outcome.case.shape, {"caught": 0, "total": 0})
        entry["total"] += 1
        entry["caught"] += outcome.caught
    controls = [o.clean for o in outcomes if o.clean is not None]
    return {
        "cases": len(outcomes),
        "caught": sum(o.caught for o in outcomes),
        "by_shape": {shape: by_shape[shape] for shape in SHAPES if shape in by_shape},
        **per_fix(outcomes),
        "clean": sum(bool(c) for c in controls),
        "controls": len(controls),
        "not_judged_at_parent": sum(
            any(v not in ("PASS", "FAIL") for v in o.verdicts.values()) for o in outcomes
        ),
        "not_judged_reasons": _reasons(outcomes),
    }


def per_fix(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    """The figures by fix and by project beside the per-case ones: one fix commit can carry
    dozens of cases (a renamed option documented on many lines), so a project with one
    large fix weighs on the per-case recall as much as dozens of fixes. ``fixes_caught``
    counts the fixes with at least one case caught; ``fix_recall`` is the mean over fixes
    of the share of their cases caught (each fix weighs one)."""
    fixes: dict[tuple[str, str], list[bool]] = {}
    projects: dict[str, dict[str, int]] = {}
    for outcome in outcomes:
        case = outcome.case
        fixes.setdefault((case.project, case.fix), []).append(outcome.caught)
        entry = projects.setdefault(case.project, {"caught": 0, "total": 0})
        entry["total"] += 1
        entry["caught"] += outcome.caught
    shares = [sum(caught) / len(caught) for caught in fixes.values()]
    return {
        "fixes": len(fixes),
        "fixes_caught": sum(any(caught) for caught in fixes.values()),
        "fix_recall": round(100 * sum(shares) / len(shares), 1) if shares else None,
        "by_project": dict(sorted(projects.items(), key=lambda kv: (-kv[1]["total"], kv[0]))),
    }


def _reasons(outcomes: Sequence[Outcome]) -> dict[str, int]:
    """How often each gate's reason for neither passing nor failing occurs (cases at the
    parent), numbers and quoted names blanked so that one reason counts once."""
    counts: dict[str, int] = {}
    for outcome in outcomes:
        for gate, reason in sorted(outcome.reasons.items()):
            text = f"gate {gate} {outcome.verdicts[gate]}: " + re.sub(r"\d+", "N", reason)
            counts[text] = counts.get(text, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def print_figures(title: str, data: dict[str, Any]) -> None:
    print(f"\n== {title}: {data['cases']} cases")
    for shape, entry in data["by_shape"].items():
        print(f"  {shape:<18} {_ratio(entry['caught'], entry['total'])}")
    print(f"  {'overall':<18} {_ratio(data['caught'], data['cases'])}")
    print(
        f"  {'by fix':<18} {_ratio(data['fixes_caught'], data['fixes'])} of the fixes with "
        f"a case caught; mean share caught per fix {data['fix_recall']}%"
    )
    for project, entry in data["by_project"].items():
        print(f"    {project:<40} {_ratio(entry['caught'], entry['total'])}")
    print(f"  clean controls     {_ratio(data['clean'], data['controls'])}")
    print(f"  a gate not PASS/FAIL at the parent: {data['not_judged_at_parent']} case(s)")
    for reason, count in data["not_judged_reasons"].items():
        print(f"    {count:>3} x {reason}")


def plugin_commit() -> str:
    done = _git(HERE.parent, "rev-parse", "HEAD")
    return done.stdout.decode().strip() if done.returncode == 0 else "unknown"


def describe(outcome: Outcome) -> str:
    case = outcome.case
    mark = "CAUGHT" if outcome.caught else "missed"
    control = {True: "clean", False: "DIRTY", None: "gone"}[outcome.clean]
    verdicts = ",".join(f"{g}:{v}" for g, v in sorted(outcome.verdicts.items()))
    near = "; ".join(
        f"g{f.gate}:{f.line}:{f.token}" + (f"[{f.rule or 'claims'}]" if f.gate == 2 else "")
        for f in outcome.near[:4]
    )
    return (f"  {mark:<6} {control:<5} {case.project} {case.fix[:10]} {case.doc}:{case.line} "
            f"{case.shape} {case.token!r} [{verdicts}] near: {near or '-'}")  # fmt: skip


def dependencies_present(projects: Sequence[str]) -> dict[str, bool]:
    """Whether each project's installed dependencies are on the gates' search path; says so
    (the figures of a project without them leave names rooted in them unjudged)."""
    present = {project: bool(dependency_folders(project)) for project in projects}
    if not os.environ.get(BENCH_DEPENDENCIES_ENV):
        print(f"dependencies absent: ${BENCH_DEPENDENCIES_ENV} is not set (bench/"
              "install_dependencies.py --bench drift installs them); names rooted in them "
              "are unjudged")  # fmt: skip
    else:
        absent = [project for project, there in present.items() if not there]
        print(f"dependencies present for {len(projects) - len(absent)} of {len(projects)} "
              f"project(s) under ${BENCH_DEPENDENCIES_ENV}"
              + (f"; absent: {', '.join(absent)}" if absent else ""))  # fmt: skip
    return present


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", choices=("tune", "report", "all"), default="all")
    parser.add_argument("--project", action="append", help="only this owner/name (repeatable)")
    parser.add_argument("--json", type=Path, help="write the figures here")
    parser.add_argument("--results", type=Path, help="write the figures for the docs here")
    parser.add_argument("--jobs", type=int, default=1, help="projects gated side by side")
    parser.add_argument("--cases", type=Path, default=CASES)
    parser.add_argument("--verbose", action="store_true", help="one line per case")
    parser.add_argument("--cache", type=Path, help="XDG cache folder kept across runs")
    parser.add_argument(
        "--set", action="append", default=[], metavar="KEY=VALUE",
        help="a [tool.postgates] setting for every site (TOML value; repeatable)",
    )  # fmt: skip
    args = parser.parse_args(list(argv) if argv is not None else None)
    EXTRA_SETTINGS[:] = [
        f"{key.strip()} = {value.strip()}" for key, value in (s.split("=", 1) for s in args.set)
    ]
    if EXTRA_SETTINGS:
        print(f"settings added to [tool.postgates]: {'; '.join(EXTRA_SETTINGS)}")
    cases = [
        case
        for case in load_cases(args.cases)
        if args.split in ("all", case.split) and (not args.project or case.project in args.project)
    ]
    mirrors = Path(os.environ.get("POSTGATES_DRIFT_MIRRORS", DEFAULT_MIRRORS))
    present = dependencies_present(sorted({case.project for case in cases}))
    run = Run(
        "natural_drift",
        {"split": args.split, "projects": args.project or "all", "line_slack": LINE_SLACK,
         "settings_added": EXTRA_SETTINGS, "cases_file": args.cases.name,
         "dependencies": present},
    )  # fmt: skip
    outcomes = run_cases(cases, mirrors, args.jobs, args.cache.resolve() if args.cache else None)
    commit = plugin_commit()
    print(f"natural_drift: plugin commit {commit}; {len(outcomes)} of {len(cases)} cases gated")
    if args.verbose:
        for outcome in outcomes:
            print(describe(outcome))
    report: dict[str, Any] = {"plugin_commit": commit, "line_slack": LINE_SLACK,
                              "dependencies": present}  # fmt: skip
    for half in ("tune", "report"):
        chosen = [o for o in outcomes if o.case.split == half]
        if chosen:
            report[half] = figures(chosen)
            print_figures(half, report[half])
    report["all"] = figures(outcomes)
    print_figures("all", report["all"])
    report["cases"] = [
        {"project": o.case.project, "fix": o.case.fix, "doc": o.case.doc, "line": o.case.line,
         "token": o.case.token, "shape": o.case.shape, "split": o.case.split,
         "caught": o.caught, "clean": o.clean, "verdicts": o.verdicts,
         "reasons": o.reasons, "entries": o.entries, "where": o.where,
         "checked_listed": o.checked_listed, "rules": o.rules,
         "caught_by": sorted({f.rule or "-" for f in o.near if matches(o.case, f)})}
        for o in outcomes
    ]  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps(report, indent=2, sort_keys=True) + "\n", "utf-8")
    if args.results:
        record_figures(run, report, len(cases))
        run.write(args.results)
    return 0


def _percent(part: int, whole: int) -> float | None:
    return round(100 * part / whole, 1) if whole else None


def record_figures(run: Run, report: dict[str, Any], cases: int) -> None:
    """The figures of ``report`` as results tables: recall at the parent (the figure) with
    the clean controls at the fix beside it, per split, then per split and shape, per fix
    and per project (:func:`per_fix`)."""
    gated = report["all"]["cases"]
    run.notes.append(
        f"{gated} of {cases} cases gated (a project without a mirror is skipped); a case is "
        f"caught when gate 2, 14 or 15 reports its name within {LINE_SLACK} lines at the "
        "parent, and its control is clean when the fix has no finding of that name"
    )
    splits = [half for half in ("tune", "report", "all") if half in report]
    rows = run.table(
        "Recall at the parent, clean controls at the fix",
        [{"name": "split", "kind": "label"},
         {"name": "cases", "kind": "figure"},
         {"name": "caught", "kind": "figure"},
         {"name": "recall", "kind": "figure", "unit": "%"},
         {"name": "fixes gated", "kind": "control"},
         {"name": "clean at the fix", "kind": "control"},
         {"name": "clean at the fix", "kind": "control", "unit": "%"},
         {"name": "a gate not PASS or FAIL at the parent", "kind": "figure", "unit": "cases"}],
    )  # fmt: skip
    for half in splits:
        data = report[half]
        rows.append(
            [half, data["cases"], data["caught"], _percent(data["caught"], data["cases"]),
             data["controls"], data["clean"], _percent(data["clean"], data["controls"]),
             data["not_judged_at_parent"]]
        )  # fmt: skip
    shapes = run.table(
        "Recall per shape of defect",
        [{"name": "split", "kind": "label"},
         {"name": "shape", "kind": "label"},
         {"name": "cases", "kind": "figure"},
         {"name": "caught", "kind": "figure"},
         {"name": "recall", "kind": "figure", "unit": "%"}],
    )  # fmt: skip
    for half in splits:
        for shape, entry in report[half]["by_shape"].items():
            shapes.append(
                [half, shape, entry["total"], entry["caught"],
                 _percent(entry["caught"], entry["total"])]
            )  # fmt: skip
    by_fix = run.table(
        "Recall per fix (a fix commit can carry many cases)",
        [{"name": "split", "kind": "label"},
         {"name": "fixes", "kind": "figure"},
         {"name": "fixes with a case caught", "kind": "figure"},
         {"name": "fixes with a case caught", "kind": "figure", "unit": "%"},
         {"name": "mean share of a fix's cases caught", "kind": "figure", "unit": "%"},
         {"name": "cases of the largest project", "kind": "figure"}],
    )  # fmt: skip
    for half in splits:
        data = report[half]
        largest = max((e["total"] for e in data["by_project"].values()), default=0)
        by_fix.append(
            [half, data["fixes"], data["fixes_caught"],
             _percent(data["fixes_caught"], data["fixes"]), data["fix_recall"], largest]
        )  # fmt: skip
    projects = run.table(
        "Recall per project",
        [{"name": "split", "kind": "label"},
         {"name": "project", "kind": "label"},
         {"name": "cases", "kind": "figure"},
         {"name": "caught", "kind": "figure"},
         {"name": "recall", "kind": "figure", "unit": "%"}],
    )  # fmt: skip
    for half in splits:
        if half == "all":
            continue
        for project, entry in report[half]["by_project"].items():
            projects.append(
                [half, project, entry["total"], entry["caught"],
                 _percent(entry["caught"], entry["total"])]
            )  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
