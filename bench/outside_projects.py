"""Every gate, with the README's setup, on public projects it was never tuned on (issue 27).

Issue 27's last point: "a bench runs the plugin with the README's setup on at least 3 public
projects (a MkDocs Python project, a TypeScript docs folder, a Jekyll or Hugo blog) and
prints, per gate, pages failing and a seeded labelled sample of failing items; on each
project at least 80% of failing hard items are real problems".

- Projects: :data:`PROJECTS` (the last one reported only: fetched to validate fixes made
  from the others, never looked at while making them). Each project's bare mirror is read from
  ``$POSTGATES_MIRRORS/<owner>+<name>/repo`` (default /work/.mirror), at the commit pinned
  for it in the label file (``# pin <project> <commit>``): the labels name pages and gates
  of that very text.
- The README's setup, nothing more: a docs folder is listed in ``[tool.postgates] paths``
  and named on the command line (``pytest docs/``, README "Using it on a docs folder"); a
  blog's ``_posts`` folder is named on the command line (``pytest _posts/``, README "Using
  it on a blog"). The site's own configuration file (``mkdocs.yml``, ``_config.yml``) sits
  where the project keeps it, so gates 1 and 6 see the site generator a user's run sees.
  Default settings: every gate, short-circuit on (no ``--postgates-all``), offline (no
  network in the bench), grounded at the pinned commit (the user's ``HEAD``).
- Built as bench/docs_precision.py builds its sites (its helpers): a ``git clone --shared
  --no-checkout`` of the mirror in a scratch folder, a branch at the pinned commit, the
  gated folder and the site files written from it, a private ``XDG_CACHE_HOME`` and
  scorecards folder, SARIF written for the findings. The project's own Python (docs
  examples, conftest files) is not collected: it is the project's test code, not ours.
  Gate 2 models the dependencies a user's checkout has installed, as docs_precision's runs
  do: those bench/install_dependencies.py installed under ``$POSTGATES_BENCH_DEPENDENCIES``
  (typer's and vitest's); without that variable none, never the bench's own environment.
- Printed per project and gate: pages gated (a verdict other than SKIP), failing, advisory
  failing, errors, skipped (short-circuit), and pages whose card lists house-style advice
  (a threshold of the seeds' blog the project has not adopted: helpers/house_style.py).
  Then the failing HARD items (a page x a non-advisory gate whose verdict is FAIL), and a
  seeded sample of them (``--sample``, default 20 per project: the items of smallest
  BLAKE2b keyed by the seed over project, page and gate, so a change elsewhere only moves
  the cut-off) with their findings, and their labels from bench/labels/outside_projects.jsonl
  (rules at its top): the share of labelled items that are real problems (target >= 80% per
  project), false alarms by gate and class.

    python bench/outside_projects.py [--project fastapi/typer] [--sample 10] [--json OUT]
    python bench/outside_projects.py --unlabelled OUT.jsonl   # sampled items with no label
    python bench/outside_projects.py --exclude-gate 2   # the share the other gates leave
    python bench/outside_projects.py --ceiling --results bench/results/outside_projects.json

``--ceiling``: how far gate 2 at its precision ceiling (issue 24, bench/precision_ceiling.py)
could take each project's share. Gate 2's false items are split as that bench splits false
findings: refutable by a model of the code (``exists-in-code``, ``defined-in-page``), another
party's name (``third-party``: refutable only by a model of a dependency, an upper bound), or
decided by the page's prose alone (the reader's examples, notation, history...). A label's
class lists every class its findings have, joined by ``+``; an item is refutable only when
each one is. The shares printed: now; with gate 2's code-refutable false items gone; with its
third-party ones gone too; and with every other gate's false items gone as well (gate 2's
prose-decided ones left). Cosmetic items stay in every denominator. Controls beside them: the
share of the other gates' own sample (``--exclude-gate 2``, same seed) and the target.
``--results`` writes the figures for the docs (bench/results_json.py).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import docs_precision  # noqa: E402
import precision_ceiling  # noqa: E402

sys.path.insert(0, str(HERE.parent))
from bench.results_json import Run  # noqa: E402

SEED = 20261203  # the day the sample was drawn
DEFAULT_SAMPLE = 20
LABELS = HERE / "labels" / "outside_projects.jsonl"
LABEL_VALUES = ("real", "cosmetic", "false")
LABEL_KEYS = ("project", "doc", "gate", "label", "class", "why")
TARGET = 0.80
# --ceiling: the gate whose false items are split by what could refute them, and the classes
# a model of the code refutes (this file's defined-in-page is precision_ceiling's defined-in-doc).
CEILING_GATE = 2
CODE_REFUTABLE = frozenset({*precision_ceiling.CODE_DECIDABLE, "defined-in-page"})


@dataclass(frozen=True)
class Project:
    name: str  # owner/name on GitHub
    folder: str  # the folder gated, as the README's setup names it
    site_files: tuple[str, ...]  # the site generator's files, where the project keeps them
    kind: str


PROJECTS = (
    Project("fastapi/typer", "docs", ("mkdocs.yml",), "MkDocs, Python"),
    Project("vitest-dev/vitest", "docs", (), "VitePress docs folder, TypeScript"),
    Project(
        "karpathy/karpathy.github.io",
        "_posts",
        ("_config.yml", "_layouts", "_includes", "about.md", "index.html"),
        "Jekyll blog",
    ),
    # Reported only: fetched to validate the fixes the projects above led to (gate 11's house
    # style, gate 7 without a product), and never looked at while making them.
    Project(
        "jalammar/jalammar.github.io",
        "_posts",
        ("_config.yml", "_layouts", "_includes", "about.md", "index.html"),
        "Jekyll blog (reported: validation)",
    ),
    # Fetched to validate gate 1's Jekyll date rule, which jalammar's posts (dated by their
    # file names, no `date` key) led to. Since session 14 no longer a validation project:
    # its failing items led to gate 6's whole-site Jekyll model (posts of its other
    # `_posts` folders, pages), gate 7's changelog test (its news.md) and gate 1's date
    # agreement as house style. Its site's other folders are written as a user's checkout
    # has them (its assets, images only, are left out: a link to one is not judged then).
    Project(
        "ljvmiranda921/ljvmiranda921.github.io",
        "notebook/_posts",
        (
            "_config.yml",
            "_layouts",
            "_includes",
            "index.md",
            "projects",
            "life",
            "research",
            "about",
            "subscribe",
            "news.md",
            "filipino-nlp.md",
            "404.md",
        ),
        "Jekyll blog",
    ),
)


@dataclass(frozen=True)
class Finding:
    line: int
    code: str
    message: str


@dataclass(frozen=True)
class Item:
    """One failing hard item: a page x a blocking gate whose verdict is FAIL."""

    project: str
    doc: str
    gate: int
    name: str
    findings: tuple[Finding, ...] = ()


@dataclass
class ProjectRun:
    project: str
    commit: str
    # gate id -> (gate name, advisory, Counter of verdicts over pages)
    verdicts: dict[int, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    names: dict[int, str] = field(default_factory=dict)
    advisory: dict[int, bool] = field(default_factory=dict)
    failing_hard: list[Item] = field(default_factory=list)
    # gate id -> pages whose card lists house-style advice (what an unadopted threshold finds)
    advised: Counter[int] = field(default_factory=Counter)
    pages: int = 0
    pages_failing_hard: int = 0
    exit_code: int = 0


def load_labels(path: Path) -> tuple[dict[str, str], list[dict[str, Any]]]:
    """The pinned commit per project (``# pin <project> <commit>`` lines) and the labels,
    each checked: the keys of :data:`LABEL_KEYS`, a label of :data:`LABEL_VALUES`, a class
    and a one-line why, and no item labelled twice."""
    pins: dict[str, str] = {}
    labels: list[dict[str, Any]] = []
    seen: set[tuple[str, str, int]] = set()
    if not path.is_file():
        return pins, labels
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if line.startswith("# pin "):
            _pin, _hash, project, commit = line.split()[:4]
            if len(commit) != 40:
                raise ValueError(f"{path.name}:{number}: a pin is a full 40-hex commit")
            pins[project] = commit
            continue
        if not line or line.startswith("#"):
            continue
        item = json.loads(line)
        if sorted(item) != sorted(LABEL_KEYS):
            raise ValueError(f"{path.name}:{number}: keys must be {LABEL_KEYS}")
        if item["label"] not in LABEL_VALUES:
            raise ValueError(f"{path.name}:{number}: label must be one of {LABEL_VALUES}")
        if not str(item["class"]).strip() or not str(item["why"]).strip():
            raise ValueError(f"{path.name}:{number}: a label needs a class and a why")
        if "\n" in str(item["why"]):
            raise ValueError(f"{path.name}:{number}: the why is one line")
        key = (str(item["project"]), str(item["doc"]), int(item["gate"]))
        if key in seen:
            raise ValueError(f"{path.name}:{number}: {key} is labelled twice")
        seen.add(key)
        labels.append(item)
    return pins, labels


def prepare_site(project: Project, mirror: Path, commit: str, scratch: Path) -> Path:
    """docs_precision's site (the folder, ``paths = [folder]``, a branch ``docs-ref`` at the
    commit) plus the site generator's files the project keeps beside it."""
    site = docs_precision.prepare_site(mirror, commit, project.folder, scratch)
    for name in project.site_files:
        listing = docs_precision._git(
            mirror, "ls-tree", "-r", "-z", "--name-only", commit, "--", name
        )
        for path in listing.decode("utf-8", "surrogateescape").split("\0"):
            if not path:
                continue
            target = site / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(docs_precision._git(mirror, "show", f"{commit}:{path}"))
    return site


def sarif_findings(sarif: Path) -> dict[tuple[str, int], list[Finding]]:
    """(page, gate) -> its findings, in file order, from the run's SARIF."""
    found: dict[tuple[str, int], list[Finding]] = defaultdict(list)
    for run in json.loads(sarif.read_text(encoding="utf-8")).get("runs", []):
        for result in run.get("results", []):
            location = result["locations"][0]["physicalLocation"]
            doc = unquote(str(location["artifactLocation"]["uri"]))  # a URI: "a%20b.md"
            gate = int(result["properties"]["gate"])
            line = int((location.get("region") or {}).get("startLine", 0))
            code = str(result["properties"].get("code", ""))
            message = str(result["message"]["text"]).removeprefix(f"{code}: ")
            found[(doc, gate)].append(Finding(line, code, message))
    for items in found.values():
        items.sort(key=lambda f: (f.line, f.code, f.message))
    return found


def read_run(project: str, commit: str, cards: Path, sarif: Path) -> ProjectRun:
    run = ProjectRun(project, commit)
    findings = sarif_findings(sarif) if sarif.is_file() else {}
    for overall_path in sorted(cards.glob("*-overall.json")):
        overall = json.loads(overall_path.read_text(encoding="utf-8"))
        doc = str(overall["post"])
        stem = overall_path.name.removesuffix("-overall.json")
        run.pages += 1
        failing_hard = False
        for gate in overall["gates"]:
            gid = int(gate["gate"])
            run.names[gid] = str(gate["name"])
            run.advised[gid] += _has_advice(cards / f"{stem}-gate{gid}-{gate['name']}.json")
            run.advisory[gid] = bool(gate["advisory"])
            run.verdicts[gid][str(gate["verdict"])] += 1
            if gate["verdict"] == "FAIL" and not gate["advisory"]:
                failing_hard = True
                found = tuple(findings.get((doc, gid), ()))
                run.failing_hard.append(Item(project, doc, gid, str(gate["name"]), found))
        run.pages_failing_hard += failing_hard
    return run


def _has_advice(card: Path) -> bool:
    """Whether a gate's card lists house-style advice (a finding an unadopted threshold
    would have made)."""
    if not card.is_file():
        return False
    house = json.loads(card.read_text(encoding="utf-8")).get("detail", {}).get("house_style")
    return any(entry.get("findings") for entry in (house or {}).values())


def run_gates(project: Project, mirror: Path, commit: str, scratch: Path) -> ProjectRun:
    site = prepare_site(project, mirror, commit, scratch)
    cards, sarif = scratch / "cards", scratch / "gates.sarif"
    command = [
        sys.executable, "-m", "pytest", project.folder,
        f"--rootdir={site}", "--postgates-ref=docs-ref", "--postgates-offline",
        f"--postgates-scorecards={cards}", f"--postgates-sarif={sarif}",
        # The project's own example tests and conftest files are its code, not ours.
        "--noconftest", "--ignore-glob=*.py",
        "-p", "no:cacheprovider", "-p", "no:randomly", "-p", "no:xdist",
        "-q", "--tb=no", "--no-header",
    ]  # fmt: skip
    env = {**os.environ, "XDG_CACHE_HOME": str(scratch / "xdg-cache"), "PYTEST_ADDOPTS": ""}
    # Gate 2 models the dependencies a user's checkout has installed: docs_precision's.
    env[docs_precision.DEPENDENCY_PATH_ENV] = docs_precision.dependency_path(project.name)
    done = subprocess.run(command, cwd=site, env=env, capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1):
        sys.exit(
            f"outside_projects: {project.name}: pytest exited {done.returncode}\n"
            f"{done.stdout[-3000:]}{done.stderr[-3000:]}"
        )
    run = read_run(project.name, commit, cards, sarif)
    run.exit_code = done.returncode
    return run


def sample_key(seed: int, item: Item) -> int:
    """The item's place in the seeded sample: BLAKE2b keyed by the seed."""
    text = f"{item.project}\0{item.doc}\0{item.gate}"
    digest = hashlib.blake2b(
        text.encode("utf-8", "surrogateescape"), key=str(seed).encode(), digest_size=8
    ).digest()
    return int.from_bytes(digest, "big")


def draw(items: Sequence[Item], seed: int, size: int) -> list[Item]:
    """The ``size`` items of smallest keyed hash: a seeded uniform sample."""
    return sorted(items, key=lambda i: (sample_key(seed, i), i.doc, i.gate))[:size]


def label_of(item: Item, labels: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    for label in labels:
        if (label["project"], label["doc"], int(label["gate"])) == (
            item.project,
            item.doc,
            item.gate,
        ):
            return label
    return None


def gate_table(run: ProjectRun) -> list[str]:
    lines = [
        f"  {'gate':<24} {'gated':>5} {'fail':>5} {'error':>5} {'skip':>5} {'advice':>6}  kind",
    ]
    for gid in sorted(run.verdicts):
        counts = run.verdicts[gid]
        gated = sum(n for verdict, n in counts.items() if verdict != "SKIP")
        kind = "advisory" if run.advisory[gid] else "hard"
        lines.append(
            f"  {gid:>2} {run.names[gid]:<21} {gated:>5} {counts['FAIL']:>5}"
            f" {counts['ERROR']:>5} {counts['SKIP']:>5} {run.advised[gid]:>6}  {kind}"
        )
    return lines


def project_summary(
    run: ProjectRun,
    labels: Sequence[dict[str, Any]],
    seed: int,
    size: int,
    excluded: frozenset[int] = frozenset(),
) -> dict[str, Any]:
    """The figures of one project's run; the sample is drawn from the failing hard items of
    the gates not ``excluded`` (``--exclude-gate``: the share the other gates leave, drawn
    with the same seed, so each item keeps its place)."""
    drawn = draw([i for i in run.failing_hard if i.gate not in excluded], seed, size)
    paired = [(item, label_of(item, labels)) for item in drawn]
    counts: Counter[str] = Counter(lab["label"] for _item, lab in paired if lab)
    labelled = sum(counts.values())
    false_by: Counter[str] = Counter(
        f"gate {item.gate} {lab['class']}"
        for item, lab in paired
        if lab and lab["label"] == "false"
    )
    return {
        "project": run.project,
        "commit": run.commit,
        "pages": run.pages,
        "pages_failing_hard": run.pages_failing_hard,
        "failing_hard_items": len(run.failing_hard),
        "failing_hard_by_gate": dict(
            sorted(Counter(f"{i.gate} {i.name}" for i in run.failing_hard).items())
        ),
        "gates": {
            str(gid): {
                "name": run.names[gid],
                "advisory": run.advisory[gid],
                "house_style_advice": run.advised[gid],
                **run.verdicts[gid],
            }
            for gid in sorted(run.verdicts)
        },
        # Every failing hard item's findings by gate and code: what the failures are made of.
        "codes_by_gate": dict(
            sorted(
                Counter(
                    f"gate {i.gate} {f.code}" for i in run.failing_hard for f in i.findings
                ).items()
            )
        ),
        "excluded_gates": sorted(excluded),
        "sampled": len(drawn),
        "labelled": labelled,
        **{value: counts[value] for value in LABEL_VALUES},
        "real_share": counts["real"] / labelled if labelled else None,
        "false_by_gate_class": dict(false_by.most_common()),
        "labels_by_gate": {
            str(gid): dict(
                Counter(lab["label"] for item, lab in paired if lab and item.gate == gid)
            )
            for gid in sorted({item.gate for item in drawn})
        },
        "sample": [
            {
                "doc": item.doc,
                "gate": item.gate,
                "name": item.name,
                "findings": [f"{f.line}: {f.code} {f.message}" for f in item.findings],
                "label": lab,
            }
            for item, lab in paired
        ],
    }


def refutability(label: dict[str, Any]) -> str:
    """What could refute a false item of gate 2: ``code`` (a model of the project's code),
    ``third-party`` (only a model of another party's code), ``prose`` (nothing but the
    page's prose): the weakest of its classes (``a+b``: every class its findings have)."""
    classes = {c.strip() for c in str(label["class"]).split("+") if c.strip()}
    if classes <= CODE_REFUTABLE:
        return "code"
    if classes <= CODE_REFUTABLE | {precision_ceiling.OTHER_PARTY}:
        return "third-party"
    return "prose"


def _share(real: int, whole: int) -> float | None:
    return real / whole if whole else None


def ceiling(data: dict[str, Any], others: dict[str, Any]) -> dict[str, Any]:
    """A project's real share now and with false items gone, from its labelled sample
    (``data``: :func:`project_summary`), beside the share of the other gates' own sample
    (``others``: the same run's summary with gate 2 excluded)."""
    paired = [(int(e["gate"]), e["label"]) for e in data["sample"] if e["label"]]
    real = sum(lab["label"] == "real" for _gate, lab in paired)
    cosmetic = sum(lab["label"] == "cosmetic" for _gate, lab in paired)
    false = [(gate, lab) for gate, lab in paired if lab["label"] == "false"]
    gate2: Counter[str] = Counter(refutability(lab) for g, lab in false if g == CEILING_GATE)
    rest: Counter[str] = Counter(
        f"gate {g} {lab['class']}" for g, lab in false if g != CEILING_GATE
    )
    code_gone = len(paired) - gate2["code"]
    party_gone = code_gone - gate2["third-party"]
    others_gone = party_gone - sum(rest.values())
    return {
        "project": data["project"],
        "commit": data["commit"],
        "labelled": len(paired),
        "real": real,
        "cosmetic": cosmetic,
        "false_gate2_code": gate2["code"],
        "false_gate2_third_party": gate2["third-party"],
        "false_gate2_prose": gate2["prose"],
        "false_other_gates": sum(rest.values()),
        "false_other_gates_by_class": dict(sorted(rest.items())),
        "share_now": _share(real, len(paired)),
        "ceiling_code_gone": _share(real, code_gone),
        "ceiling_third_party_gone": _share(real, party_gone),
        "ceiling_other_gates_false_gone": _share(real, others_gone),
        "other_gates_real": others["real"],
        "other_gates_labelled": others["labelled"],
        "other_gates_share": others["real_share"],
        "target": TARGET,
    }


def ceiling_lines(rows: Sequence[dict[str, Any]]) -> list[str]:
    lines = [
        f"ceiling: gate {CEILING_GATE}'s false items split as bench/precision_ceiling.py splits"
        " false findings (code-refutable / third-party / prose-decided); cosmetic items stay"
        " in every denominator",
        f"  {'project':<30} {'real':>4} {'cosm':>4} {'g2 code/3rd/prose':>17} {'other':>5}"
        f" {'now':>5} {'-code':>5} {'-3rd':>5} {'-other':>6} | control: other gates' sample,"
        " target",
    ]
    for row in rows:
        g2 = (
            f"{row['false_gate2_code']}/{row['false_gate2_third_party']}/{row['false_gate2_prose']}"
        )
        lines.append(
            f"  {row['project']:<30} {row['real']:>4} {row['cosmetic']:>4} {g2:>17}"
            f" {row['false_other_gates']:>5} {_pct(row['share_now']):>5}"
            f" {_pct(row['ceiling_code_gone']):>5} {_pct(row['ceiling_third_party_gone']):>5}"
            f" {_pct(row['ceiling_other_gates_false_gone']):>6} | {row['other_gates_real']}/"
            f"{row['other_gates_labelled']} ({_pct(row['other_gates_share'])}),"
            f" {_pct(row['target'])}"
        )
        if row["false_other_gates_by_class"]:
            lines.append(
                "      other gates' false items: "
                + ", ".join(f"{k} {n}" for k, n in row["false_other_gates_by_class"].items())
            )
    return lines


def _percent(value: float | None) -> float | None:
    return None if value is None else round(100 * value, 1)


def record_figures(
    record: Any, summaries: Sequence[dict[str, Any]], ceilings: Sequence[dict[str, Any]]
) -> None:
    """The results file's tables: per project, the failing hard items and the labelled
    sample's real share beside the target; with ``--ceiling``, the ceiling table."""
    record.notes.append(
        f"real share is real / labelled in the seeded sample of failing hard items (page x"
        f" blocking gate, verdict FAIL); issue 27's target is >= {_pct(TARGET)} per project"
    )
    rows = record.table(
        "Failing hard items with the README's setup, and the real share of a labelled sample",
        [{"name": "project", "kind": "label"}, {"name": "commit", "kind": "label"},
         {"name": "pages", "kind": "figure"}, {"name": "pages failing a hard gate",
                                               "kind": "figure"},
         {"name": "failing hard items", "kind": "figure"}, {"name": "sampled", "kind": "figure"},
         {"name": "labelled", "kind": "figure"}, {"name": "real", "kind": "figure"},
         {"name": "cosmetic", "kind": "figure"}, {"name": "false", "kind": "figure"},
         {"name": "real share", "kind": "figure", "unit": "%"},
         {"name": "target", "kind": "control", "unit": "%"}],
    )  # fmt: skip
    for data in summaries:
        rows.append([data["project"], data["commit"][:10], data["pages"],
                     data["pages_failing_hard"], data["failing_hard_items"], data["sampled"],
                     data["labelled"], data["real"], data["cosmetic"], data["false"],
                     _percent(data["real_share"]), _percent(TARGET)])  # fmt: skip
    if not ceilings:
        return
    record.notes.append(
        f"ceiling: gate {CEILING_GATE}'s false items split as bench/precision_ceiling.py splits"
        " false findings; an item is refutable only when every class of its findings is;"
        " cosmetic items stay in every denominator"
    )
    table = record.table(
        f"Real share with false items gone: gate {CEILING_GATE} at its ceiling, then the other"
        " gates clean",
        [{"name": "project", "kind": "label"}, {"name": "labelled", "kind": "figure"},
         {"name": "real", "kind": "figure"}, {"name": "cosmetic", "kind": "figure"},
         {"name": "gate 2 false, code-refutable", "kind": "figure"},
         {"name": "gate 2 false, third-party", "kind": "figure"},
         {"name": "gate 2 false, prose-decided", "kind": "figure"},
         {"name": "other gates false", "kind": "figure"},
         {"name": "share now", "kind": "figure", "unit": "%"},
         {"name": "gate 2 code-refutable gone", "kind": "figure", "unit": "%"},
         {"name": "gate 2 third-party gone too", "kind": "figure", "unit": "%"},
         {"name": "other gates false gone too", "kind": "figure", "unit": "%"},
         {"name": "other gates' sample real/labelled", "kind": "control"},
         {"name": "other gates' sample share", "kind": "control", "unit": "%"},
         {"name": "target", "kind": "control", "unit": "%"}],
    )  # fmt: skip
    for row in ceilings:
        table.append([row["project"], row["labelled"], row["real"], row["cosmetic"],
                      row["false_gate2_code"], row["false_gate2_third_party"],
                      row["false_gate2_prose"], row["false_other_gates"],
                      _percent(row["share_now"]), _percent(row["ceiling_code_gone"]),
                      _percent(row["ceiling_third_party_gone"]),
                      _percent(row["ceiling_other_gates_false_gone"]),
                      f"{row['other_gates_real']}/{row['other_gates_labelled']}",
                      _percent(row["other_gates_share"]), _percent(TARGET)])  # fmt: skip


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.0f}%"


def report_lines(run: ProjectRun, data: dict[str, Any], seed: int, shown: int) -> list[str]:
    lines = [
        f"{data['project']} at {data['commit'][:12]} (seed {seed}, sample {data['sampled']}"
        + (
            f", gates {', '.join(map(str, data['excluded_gates']))} excluded from the sample)"
            if data["excluded_gates"]
            else ")"
        ),
        f"  pages {data['pages']}, failing a hard gate {data['pages_failing_hard']},"
        f" failing hard items {data['failing_hard_items']}",
        *gate_table(run),
        "  findings of failing hard items: "
        + ", ".join(f"{key} {n}" for key, n in data["codes_by_gate"].items()),
        "  sample of failing hard items:",
    ]
    for entry in data["sample"]:
        label = entry["label"]
        verdict = f"{label['label']} ({label['class']}): {label['why']}" if label else "UNLABELLED"
        lines.append(f"  - {entry['doc']} :: gate {entry['gate']} {entry['name']} -> {verdict}")
        lines += [f"      {text}"[:200] for text in entry["findings"][:shown]]
        if len(entry["findings"]) > shown:
            lines.append(f"      ... {len(entry['findings']) - shown} more findings")
    met = "met" if (data["real_share"] or 0) >= TARGET else "NOT met"
    lines += [
        f"  labelled {data['labelled']}/{data['sampled']}: real {data['real']}, cosmetic"
        f" {data['cosmetic']}, false {data['false']}; real problems {_pct(data['real_share'])}"
        f" (target >= {_pct(TARGET)}: {met})",
        "  sample labels by gate: "
        + "; ".join(
            f"gate {gid} " + ", ".join(f"{k} {n}" for k, n in sorted(counts.items()))
            for gid, counts in data["labels_by_gate"].items()
        ),
        "  false alarms by gate and class: "
        + (", ".join(f"{k} {n}" for k, n in data["false_by_gate_class"].items()) or "none"),
    ]
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--project", action="append", help="owner/name (repeatable; default all)")
    parser.add_argument("--sample", type=int, default=DEFAULT_SAMPLE, help="items per project")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--labels", type=Path, default=LABELS)
    parser.add_argument("--findings", type=int, default=5, help="findings shown per item")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON")
    parser.add_argument("--unlabelled", type=Path, help="write the sampled items with no label")
    parser.add_argument(
        "--exclude-gate",
        type=int,
        action="append",
        default=[],
        help="draw the sample from the other gates' failing hard items (repeatable)",
    )
    parser.add_argument(
        "--ceiling",
        action="store_true",
        help=f"print how far gate {CEILING_GATE} at its precision ceiling takes each share",
    )
    parser.add_argument("--results", type=Path, help="write the figures for the docs here")
    args = parser.parse_args(argv)
    settings = {"seed": args.seed, "sample": args.sample, "labels": args.labels.name,
                "excluded_gates": sorted(args.exclude_gate), "ceiling": args.ceiling,
                "dependencies": "installed" if os.environ.get(
                    docs_precision.BENCH_DEPENDENCIES_ENV) else "none"}  # fmt: skip
    record = Run("outside_projects", settings) if args.results else None
    mirrors = Path(os.environ.get(docs_precision.MIRRORS_ENV, docs_precision.DEFAULT_MIRRORS))
    chosen = [p for p in PROJECTS if not args.project or p.name in args.project]
    if args.project and len(chosen) != len(set(args.project)):
        sys.exit(f"outside_projects: known projects: {', '.join(p.name for p in PROJECTS)}")
    pins, _labels = load_labels(args.labels)
    runs: list[ProjectRun] = []
    for project in chosen:
        commit = pins.get(project.name)
        if commit is None:
            sys.exit(f"outside_projects: no '# pin {project.name} <commit>' line in {args.labels}")
        mirror = docs_precision.mirror_of(project.name, mirrors)
        with tempfile.TemporaryDirectory(prefix="postgates-outside-") as scratch:
            runs.append(run_gates(project, mirror, commit, Path(scratch)))
    _pins, labels = load_labels(args.labels)  # labels written during the runs count
    excluded = frozenset(args.exclude_gate)
    summaries = [project_summary(run, labels, args.seed, args.sample, excluded) for run in runs]
    ceilings = [
        ceiling(
            data, project_summary(run, labels, args.seed, args.sample, excluded | {CEILING_GATE})
        )
        for run, data in zip(runs, summaries, strict=True)
        if args.ceiling
    ]
    for run, data in zip(runs, summaries, strict=True):
        print("\n".join(report_lines(run, data, args.seed, args.findings)))
    print("real share of the sampled failing hard items (labelled), per project:")
    for data in summaries:
        print(
            f"  {data['project']:<30} {data['real']}/{data['labelled']} real"
            f" ({_pct(data['real_share'])}), {data['sampled'] - data['labelled']} unlabelled,"
            f" {data['failing_hard_items']} failing hard items"
        )
    if ceilings:
        print("\n".join(ceiling_lines(ceilings)))
    if args.unlabelled:
        with args.unlabelled.open("w", encoding="utf-8") as handle:
            for data in summaries:
                for entry in data["sample"]:
                    if entry["label"] is None:
                        unlabelled = {"project": data["project"], **entry}
                        handle.write(json.dumps(unlabelled, ensure_ascii=False) + "\n")
        print(f"sampled items with no label written to {args.unlabelled}")
    if args.json:
        payload = {
            "seed": args.seed,
            "sample": args.sample,
            "excluded_gates": sorted(excluded),
            "projects": summaries,
            **({"ceiling": ceilings} if args.ceiling else {}),
        }
        args.json.write_text(json.dumps(payload, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    if record is not None and args.results:
        record_figures(record, summaries, ceilings)
        record.write(args.results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
