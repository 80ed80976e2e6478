"""Precision of gate 2 (symbol_grounding) on whole docs folders of held-out public projects.

Issue 24's precision figure: "precision >= 85% over all findings of gate 2 on the held-out
docs (sampled, labelled)". The projects are the REPORT half of the natural-drift split (see
the header of the natural-drift labels): no rule of gate 2 may be tuned on them. ``--half
tune`` measures the TUNE half instead (:data:`TUNE_PROJECTS`, the projects gate 2 is tuned
on), against its own labels, bench/labels/docs_precision_tune.jsonl (the same labelling
rules, its own pins); seed and sampling are the same.

- Projects and their docs folders: :data:`PROJECTS`. Each project's bare mirror is read
  from ``$POSTGATES_MIRRORS/<owner>+<name>/repo`` (default /work/.mirror), at the commit
  pinned for it in the label file (a ``# pin <project> <commit>`` comment line): the
  labels hold line numbers, so the run must see the very text that was labelled.
- Run (as bench/holdout_precision.py): a ``git clone --shared --no-checkout`` of the
  mirror in a scratch folder, a branch at the pinned commit, every file of the docs folder
  at that commit written into it, a ``pyproject.toml`` with ``[tool.postgates] paths =
  ["<docs folder>"]`` (what a team gating its docs folder writes). Gate 2 only, offline,
  ``--postgates-all``, a private ``XDG_CACHE_HOME`` and scorecards folder; the scorecards
  are read back.
- Collected: every ``ungrounded`` finding of gate 2 (``detail.ungrounded``: token, line,
  reason) and the count of ``unjudged`` outcomes by rule (silence made visible).
- Sample, per project: the ``--sample`` (default 35) findings with the smallest keyed hash
  (BLAKE2b keyed by the seed over project, doc, line, token), i.e. a seeded uniform sample
  without replacement; a finding's hash never depends on which other findings exist, so a
  change elsewhere only moves the cut-off, never reshuffles the sample.
- Printed per project and overall, against bench/labels/docs_precision.jsonl (labelling
  rules at its top; a label matches a finding by project, doc, token and closest line):
  docs files, findings, sampled, labelled, precision = defect / labelled (``unsure`` left
  out; bounds with unsure as false..defect), a 95% Wilson interval, false findings by
  class. Overall: the pooled sample, and the estimate weighted by each project's findings
  (the projects are sampled at different rates).

    python bench/docs_precision.py [--project fastapi/typer] [--sample 35]
    python bench/docs_precision.py --half tune             # the tune half and its labels
    python bench/docs_precision.py --unlabelled OUT.jsonl   # sampled findings with no label
    python bench/docs_precision.py --json OUT.json   # every figure and labelled finding
    python bench/docs_precision.py --cache DIR   # a shared XDG cache: reruns reuse models
    python bench/docs_precision.py --results bench/results/docs_precision.json  # docs figures

Dependencies: gate 2 judges names rooted in the project's declared dependencies against
their installed code (``bench/install_dependencies.py`` installs them per project under
``$POSTGATES_BENCH_DEPENDENCIES``; the bench points gate 2 at them, ``POSTGATES_DEPENDENCY_
PATH``, or at nothing, saying so): the bench's own environment never decides.

``--gate 15`` measures gate 15 (code_samples) the same way instead (issue 26's precision
figure): ``--postgates-only=15``, each card's ``violations`` (line, kind, name, reason) are
the findings, its ``unjudged`` uses are counted by reason (the used name left out), and the
labels are bench/labels/gate15_docs.jsonl (its own rules at its top; the same pins); with
``--half tune``, bench/labels/gate15_docs_tune.jsonl (the same rules, the tune half's pins).

    python bench/docs_precision.py --gate 15 --sample 15     # as bench/gate15_docs_precision.py
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import holdout_precision as holdout  # noqa: E402
from holdout_precision import wilson  # noqa: E402

SEED = 20261203  # the day the labels were drawn
DEFAULT_SAMPLE = 35
LABELS = HERE / "labels" / "docs_precision.jsonl"
GATE15_LABELS = HERE / "labels" / "gate15_docs.jsonl"
# Gate 15's labels of the tune half (gate 15's rules are tuned on these projects).
GATE15_TUNE_LABELS = HERE / "labels" / "gate15_docs_tune.jsonl"
# The gates this bench measures and the scorecard name of each.
GATE_NAMES = {2: "symbol_grounding", 15: "code_samples"}
MIRRORS_ENV = "POSTGATES_MIRRORS"
# The held-out projects' installed dependencies (bench/install_dependencies.py), and the
# variable gate 2 reads them from (evidence/dependency_models.py).
BENCH_DEPENDENCIES_ENV = "POSTGATES_BENCH_DEPENDENCIES"
DEPENDENCY_PATH_ENV = "POSTGATES_DEPENDENCY_PATH"
DEFAULT_MIRRORS = "/work/.mirror"
LABEL_VALUES = ("defect", "false", "unsure")
# `--set key=value` lines added to every site's [tool.postgates] (an ablation: one rule's
# setting changed, every other thing equal).
EXTRA_SETTINGS: list[str] = []
# The XDG cache folder of the gate runs (``--cache``); None: a private one per project run.
SHARED_CACHE: list[Path] = []
# old-way-sample: a name in a sample the page shows as the old API, which the page says no
# longer exists (gate 15's labels; the clause at the top of bench/labels/gate15_docs.jsonl).
FALSE_CLASSES = (
    "third-party",
    "example",
    "notation",
    "defined-in-doc",
    "exists-in-code",
    "old-way-sample",
    "other",
)


@dataclass(frozen=True)
class Project:
    name: str  # owner/name on GitHub
    docs: str  # the docs folder gated
    language: str


# The REPORT half of the natural-drift split (never tuned on).
PROJECTS = (
    Project("fastapi/typer", "docs", "python"),
    Project("Textualize/textual", "docs", "python"),
    Project("strawberry-graphql/strawberry", "docs", "python"),
    Project("tj/commander.js", "docs", "javascript"),
    Project("vitest-dev/vitest", "docs", "typescript"),
    Project("vitejs/vite", "docs", "typescript"),
)
# The TUNE half of the same split: gate 2's rules are tuned here, never on PROJECTS.
TUNE_PROJECTS = (
    Project("pydantic/pydantic-ai", "docs", "python"),
    Project("encode/httpx", "docs", "python"),
    Project("pydantic/pydantic", "docs", "python"),
    Project("eslint/eslint", "docs", "javascript"),
    Project("fastify/fastify", "docs", "javascript"),
    Project("prettier/prettier", "docs", "javascript"),
    # Session 22: tune-split projects whose docs are largely configuration references and
    # plugin APIs (the held-out findings concentrate there; the six above have little).
    Project("mkdocs/mkdocs", "docs", "python"),
    Project("avajs/ava", "docs", "javascript"),
    Project("jestjs/jest", "docs", "typescript"),
    Project("google/zx", "docs", "typescript"),
)
# Gate 15's tune half only (sessions 26, 29, 30): tune-half projects drawn at random (criteria,
# draws in bench/labels/gate15_docs_tune.jsonl); gate 2's tune half is TUNE_PROJECTS alone.
GATE15_TUNE_EXTRA = (
    Project("koxudaxi/datamodel-code-generator", "docs", "python"),
    Project("hynek/structlog", "docs", "python"),
    Project("sindresorhus/got", "documentation", "typescript"),
    Project("encode/starlette", "docs", "python"),
    Project("lerna/lerna", "website", "typescript"),
    Project("mkdocstrings/griffe", "docs", "python"),
    Project("mikro-orm/mikro-orm", "docs", "typescript"),
    Project("pmndrs/zustand", "docs", "typescript"),
    Project("chartjs/Chart.js", "docs", "javascript"),
    Project("Automattic/mongoose", "docs", "javascript"),
    Project("pallets/click", "docs", "python"),
    Project("huggingface/peft", "docs", "python"),
    Project("huggingface/trl", "docs", "python"),
    Project("pypa/hatch", "docs", "python"),
    Project("encode/django-rest-framework", "docs", "python"),
    Project("pdm-project/pdm", "docs", "python"),
    Project("stanfordnlp/dspy", "docs", "python"),
    Project("encode/httpcore", "docs", "python"),
    Project("nodejs/undici", "docs", "javascript"),
    Project("unjs/nitro", "docs", "typescript"),
    Project("pydantic/logfire", "docs", "python"),
    Project("BeanieODM/beanie", "docs", "python"),
)
# --half: the projects and the label file (its pins and labels) of each half.
HALVES = {
    "report": (PROJECTS, LABELS),
    "tune": (TUNE_PROJECTS, HERE / "labels" / "docs_precision_tune.jsonl"),
}


@dataclass(frozen=True)
class Finding:
    project: str
    doc: str
    line: int
    token: str
    reason: str
    kind: str  # the token's kind as gate 2 classified it (symbol, path, flag...)
    rule: str = ""  # the rule that made it a claim (an anchor or a model rule)


@dataclass
class ProjectRun:
    project: str
    commit: str
    verdicts: dict[str, str] = field(default_factory=dict)  # doc path -> gate 2 verdict
    findings: list[Finding] = field(default_factory=list)
    unjudged_by_rule: Counter[str] = field(default_factory=Counter)
    # Every outcome (grounded, ungrounded, unjudged) by the rule that decided it: how many
    # tokens each rule decides (bench/ablation.py orders its runs by it).
    decided_by_rule: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)
    # Gate 15's coverage: the uses its cards judged (``detail.checked``), and the docs
    # whose card judged at least one.
    checked: int = 0
    docs_checked: int = 0


def mirror_of(project: str, mirrors: Path) -> Path:
    return mirrors / project.replace("/", "+") / "repo"


def load_labels(path: Path) -> tuple[dict[str, str], list[dict[str, Any]]]:
    """The pinned commit per project (``# pin <project> <commit>`` lines) and the labels."""
    pins: dict[str, str] = {}
    labels: list[dict[str, Any]] = []
    if not path.is_file():
        return pins, labels
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if line.startswith("# pin "):
            _pin, _hash, project, commit = line.split()[:4]
            pins[project] = commit
            continue
        if not line or line.startswith("#"):
            continue
        item = json.loads(line)
        if item.get("label") not in LABEL_VALUES:
            raise ValueError(f"{path.name}:{number}: label must be one of {LABEL_VALUES}")
        if item["label"] == "false" and item.get("class") not in FALSE_CLASSES:
            raise ValueError(f"{path.name}:{number}: a false label needs a class {FALSE_CLASSES}")
        labels.append(item)
    return pins, labels


def _git(repo: Path, *args: str) -> bytes:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, check=True).stdout


def prepare_site(mirror: Path, commit: str, docs: str, scratch: Path) -> Path:
    """A shared clone of the mirror, no checkout but the docs folder written from
    ``commit``, a branch ``docs-ref`` at it, and the docs-folder configuration."""
    site = scratch / "site"
    subprocess.run(
        ["git", "clone", "-q", "--shared", "--no-checkout", str(mirror), str(site)], check=True
    )
    subprocess.run(["git", "-C", str(site), "branch", "-q", "docs-ref", commit], check=True)
    listing = _git(mirror, "ls-tree", "-r", "-z", "--name-only", commit, "--", f"{docs}/")
    for path in listing.decode("utf-8", "surrogateescape").split("\0"):
        if not path:
            continue
        shown = subprocess.run(
            ["git", "-C", str(mirror), "show", f"{commit}:{path}"], capture_output=True, check=False
        )
        if shown.returncode != 0:
            # A snapshot may leave out its largest blobs (videos, images): no doc is among them.
            if path.endswith((".md", ".mdx")):
                sys.exit(f"docs_precision: {mirror} lacks {commit}:{path}")
            continue
        target = site / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(shown.stdout)
    (site / "pyproject.toml").write_text(
        f'[tool.pytest.ini_options]\n\n[tool.postgates]\npaths = ["{docs}"]\n'
        + "".join(f"{setting}\n" for setting in EXTRA_SETTINGS),
        encoding="utf-8",
    )
    return site


def read_cards(project: str, commit: str, cards: Path) -> ProjectRun:
    run = ProjectRun(project, commit)
    for doc, detail in holdout.gate2_cards(cards, run.verdicts, run.problems):
        if run.verdicts[doc] == "ERROR":
            # An ERROR card holds no findings: a crash must never read as precision.
            run.problems.append(f"{doc}: gate 2 ERROR: {detail.get('error', '')}"[:200])
        listed = detail.get("ungrounded", [])
        # The card lists at most MAX_REPORT findings per doc: a cut list would bias the sample.
        if len(listed) < int(detail.get("claims", 0)) - int(detail.get("grounded", 0)):
            run.problems.append(f"{doc}: the card lists {len(listed)} of its findings")
        for item in listed:
            run.findings.append(
                Finding(project, doc, int(item.get("line", 0)), str(item["token"]),
                        str(item.get("reason", "")), str(item.get("kind", "")),
                        str(item.get("rule", "")))
            )  # fmt: skip
        for item in (detail.get("outcomes") or {}).get("unjudged", []):
            run.unjudged_by_rule[str(item.get("rule", "?"))] += 1
        for items in [listed, *(detail.get("outcomes") or {}).values()]:
            run.decided_by_rule.update(rule for item in items for rule in holdout.rules_named(item))
    return run


# The names an unjudged reason is about: its subject (``./main.py is a program...``,
# ``Foo extends Bar``) and what follows ``type of`` / ``extends`` / ``not in``.
UNJUDGED_SUBJECTS = (
    re.compile(r"^()\S+(?= (?:is|extends|accepts|declares|takes)\b)"),
    re.compile(r"(\b(?:type of|extends|not in) )(?!the\b)[^\s,;]+"),
)


def unjudged_reason(reason: str) -> str:
    """An unjudged use's reason without the name it is about (``Foo.bar: <why>`` -> ``<why>``)
    and without quoted names, so that uses left unjudged for one cause count together."""
    head, sep, rest = reason.partition(": ")
    if sep and " " not in head.strip():
        reason = rest
    reason = re.sub(r"`[^`]*`|\"[^\"]*\"", "…", reason)
    # The subject (``./main.py is a program...``, ``Foo extends Bar``, ``type of err``).
    for subject in UNJUDGED_SUBJECTS:
        reason = subject.sub(r"\1…", reason)
    return reason.strip()[:90] or "?"


def read_gate15_cards(project: str, commit: str, cards: Path) -> ProjectRun:
    """Gate 15's findings (each card's ``violations``) and its unjudged uses by reason."""
    run = ProjectRun(project, commit)
    for overall_path in sorted(cards.glob("*-overall.json")):
        doc = str(json.loads(overall_path.read_text(encoding="utf-8"))["post"])
        stem = overall_path.name.removesuffix("-overall.json")
        card_path = cards / f"{stem}-gate15-{GATE_NAMES[15]}.json"
        if not card_path.is_file():
            run.verdicts[doc] = "MISSING"
            continue
        card = json.loads(card_path.read_text(encoding="utf-8"))
        run.verdicts[doc] = str(card.get("verdict"))
        detail = card.get("detail") or {}
        if run.verdicts[doc] in ("PASS", "FAIL") and "violations" not in detail:
            run.problems.append(f"{card_path.name}: no 'violations' list in detail")
        if run.verdicts[doc] == "ERROR":
            # A scorecard file keeps the reason in detail (bench/natural_drift.py reads it so).
            why = card.get("summary") or detail.get("error") or detail.get("reason") or ""
            run.problems.append(f"{doc}: gate 15 ERROR: {why}"[:200])
        for item in detail.get("violations", []):
            run.findings.append(
                # The check that made it a finding stands for gate 2's rule.
                Finding(project, doc, int(item.get("line", 0)), str(item["name"]),
                        str(item.get("reason", "")), str(item.get("kind", "")),
                        str(item.get("kind", "")))
            )  # fmt: skip
        for item in detail.get("unjudged", []):
            run.unjudged_by_rule[unjudged_reason(str(item.get("reason", "")))] += 1
        checked = int(detail.get("checked") or 0)
        run.checked += checked
        run.docs_checked += checked > 0
    return run


def run_gate2(
    project: Project, mirror: Path, commit: str, scratch: Path, gate: int = 2
) -> ProjectRun:
    """Run ``gate`` (2 or 15) alone on the project's docs folder and read its cards."""
    site = prepare_site(mirror, commit, project.docs, scratch)
    return gate_site(project, commit, site, scratch / "cards", gate)


def gate_site(project: Project, commit: str, site: Path, cards: Path, gate: int = 2) -> ProjectRun:
    """Run ``gate`` alone on the docs folder of a prepared site (:func:`prepare_site`, whose
    docs a bench may have edited, as bench/planted_docs.py does) and read its cards."""
    scratch = site.parent
    command = [
        sys.executable, "-m", "pytest", project.docs,
        f"--rootdir={site}", f"--postgates-repo={site}", "--postgates-ref=docs-ref",
        "--postgates-offline", "--postgates-all", f"--postgates-only={gate}",
        f"--postgates-scorecards={cards}",
        # The docs folder's own example tests and conftest files are the project's, not ours.
        "--noconftest", "--ignore-glob=*.py",
        "-p", "no:cacheprovider", "-p", "no:randomly", "-p", "no:xdist",
        "-q", "--tb=no", "--no-header",
    ]  # fmt: skip
    xdg_cache = SHARED_CACHE[0] if SHARED_CACHE else scratch / "xdg-cache"
    env = {**os.environ, "XDG_CACHE_HOME": str(xdg_cache), "PYTEST_ADDOPTS": ""}
    env[DEPENDENCY_PATH_ENV] = dependency_path(project.name)
    done = subprocess.run(command, cwd=site, env=env, capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1):
        sys.exit(
            f"docs_precision: {project.name}: pytest exited {done.returncode}\n"
            f"{done.stdout[-3000:]}{done.stderr[-3000:]}"
        )
    if gate == 15:
        return read_gate15_cards(project.name, commit, cards)
    return read_cards(project.name, commit, cards)


def dependency_path(project: str) -> str:
    """Where gate 2 finds the project's installed dependencies: the folders
    bench/install_dependencies.py filled under ``$POSTGATES_BENCH_DEPENDENCIES``; without
    it none (never the bench's own environment: the run must not depend on it)."""
    cache = os.environ.get(BENCH_DEPENDENCIES_ENV)
    if not cache:
        return ""
    folder = Path(cache) / project.replace("/", "+")
    return os.pathsep.join(str(folder / part) for part in ("python", "js"))


def sample_key(seed: int, finding: Finding) -> int:
    """The finding's place in the seeded sample: BLAKE2b keyed by the seed."""
    text = f"{finding.project}\0{finding.doc}\0{finding.line}\0{finding.token}"
    digest = hashlib.blake2b(
        text.encode("utf-8", "surrogateescape"), key=str(seed).encode(), digest_size=8
    ).digest()
    return int.from_bytes(digest, "big")


def draw(findings: Sequence[Finding], seed: int, size: int) -> list[Finding]:
    """The ``size`` findings of smallest keyed hash: a seeded uniform sample."""
    return sorted(findings, key=lambda f: (sample_key(seed, f), f.doc, f.line, f.token))[:size]


def match(drawn: Sequence[Finding], labels: Sequence[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """Index in ``drawn`` -> its label (same project, doc and token; closest line first)."""
    candidates = sorted(
        (abs(f.line - int(lab.get("line", 0))), fi, li)
        for fi, f in enumerate(drawn)
        for li, lab in enumerate(labels)
        if (lab.get("project"), lab.get("doc"), lab.get("token")) == (f.project, f.doc, f.token)
    )
    used_labels: set[int] = set()
    paired: dict[int, dict[str, Any]] = {}
    for _distance, fi, li in candidates:
        if fi in paired or li in used_labels:
            continue
        paired[fi] = labels[li]
        used_labels.add(li)
    return paired


def figures(counts: Counter[str]) -> dict[str, Any]:
    defect, false, unsure = counts["defect"], counts["false"], counts["unsure"]
    judged = defect + false
    every = judged + unsure
    return {
        "defect": defect,
        "false": false,
        "unsure": unsure,
        "precision": defect / judged if judged else None,
        "precision_low": defect / every if every else None,
        "precision_high": (defect + unsure) / every if every else None,
        "wilson": wilson(defect, judged),
    }


def project_summary(
    run: ProjectRun, labels: Sequence[dict[str, Any]], seed: int, size: int
) -> dict[str, Any]:
    drawn = draw(run.findings, seed, size)
    own = [lab for lab in labels if lab.get("project") == run.project]
    paired = match(drawn, own)
    counts: Counter[str] = Counter(lab["label"] for lab in paired.values())
    # Every labelled finding still reported, sampled or not: what an ablation compares
    # (the sample's cut-off moves with the findings; the labels do not).
    every = match(run.findings, own)
    flagged: Counter[str] = Counter(lab["label"] for lab in every.values())
    false_classes: Counter[str] = Counter(
        str(lab.get("class")) for lab in paired.values() if lab["label"] == "false"
    )
    return {
        "project": run.project,
        "commit": run.commit,
        "docs_files": len(run.verdicts),
        "failing": sum(v == "FAIL" for v in run.verdicts.values()),
        "findings": len(run.findings),
        "findings_by_kind": dict(Counter(f.kind for f in run.findings).most_common()),
        "sampled": len(drawn),
        "labelled": len(paired),
        "labelled_flagged": {"defect": flagged["defect"], "false": flagged["false"]},
        **figures(counts),
        "false_classes": dict(false_classes.most_common()),
        "unjudged_by_rule": dict(run.unjudged_by_rule.most_common()),
        "decided_by_rule": dict(run.decided_by_rule.most_common()),
        "checked": run.checked,
        "docs_checked": run.docs_checked,
        "unjudged": sum(run.unjudged_by_rule.values()),
        "labelled_by_rule": _by_rule(
            (drawn[i].rule or "-", lab["label"]) for i, lab in paired.items()
        ),
        "unlabelled": [
            {
                "project": f.project,
                "doc": f.doc,
                "line": f.line,
                "token": f.token,
                "reason": f.reason,
                "kind": f.kind,
            }
            for i, f in enumerate(drawn)
            if i not in paired
        ],
        # The labelled findings with what gate 2 said and what the label says (for the model's
        # authors: which reasons the false ones carry).
        "labelled_findings": [
            {
                "doc": drawn[i].doc,
                "line": drawn[i].line,
                "token": drawn[i].token,
                "kind": drawn[i].kind,
                "rule": drawn[i].rule,
                "reason": drawn[i].reason,
                "label": lab["label"],
                "class": lab.get("class"),
                "why": lab.get("why"),
            }
            for i, lab in sorted(paired.items())
        ],
        # Every finding with its label if it has one: what an ablation diffs (which findings
        # a rule turned off brings or takes away, labelled or not).
        "every_finding": [
            {
                "doc": f.doc,
                "line": f.line,
                "token": f.token,
                "rule": f.rule,
                "reason": f.reason,
                "label": every[i]["label"] if i in every else None,
            }
            for i, f in enumerate(run.findings)
        ],
        "problems": run.problems,
    }


def _by_rule(pairs: Iterable[tuple[str, str]]) -> dict[str, dict[str, int]]:
    """Labels of the sampled findings by the rule that made each one a claim: what each
    anchor or model rule brings, real and false."""
    table: dict[str, dict[str, int]] = {}
    for rule, label in pairs:
        row = table.setdefault(rule, {value: 0 for value in LABEL_VALUES})
        row[label] = row.get(label, 0) + 1
    return dict(sorted(table.items(), key=lambda item: -sum(item[1].values())))


def overall(projects: Sequence[dict[str, Any]]) -> dict[str, Any]:
    counts: Counter[str] = Counter()
    classes: Counter[str] = Counter()
    unjudged: Counter[str] = Counter()
    decided: Counter[str] = Counter()
    for data in projects:
        counts.update({value: data[value] for value in LABEL_VALUES})
        classes.update(data["false_classes"])
        unjudged.update(data["unjudged_by_rule"])
        decided.update(data.get("decided_by_rule", {}))
    # Each project's sample precision weighted by its share of all findings.
    weighted = [(d["findings"], d["precision"]) for d in projects if d["precision"] is not None]
    total = sum(n for n, _p in weighted)
    return {
        "docs_files": sum(d["docs_files"] for d in projects),
        "findings": sum(d["findings"] for d in projects),
        "sampled": sum(d["sampled"] for d in projects),
        "labelled": sum(d["labelled"] for d in projects),
        "labelled_flagged": {
            key: sum(d["labelled_flagged"][key] for d in projects) for key in ("defect", "false")
        },
        **figures(counts),
        "weighted_precision": sum(n * p for n, p in weighted) / total if total else None,
        "false_classes": dict(classes.most_common()),
        "unjudged_by_rule": dict(unjudged.most_common()),
        "decided_by_rule": dict(decided.most_common()),
        "checked": sum(d.get("checked", 0) for d in projects),
        "docs_checked": sum(d.get("docs_checked", 0) for d in projects),
        "unjudged": sum(d.get("unjudged", 0) for d in projects),
        "labelled_by_rule": _by_rule(
            (rule, label)
            for d in projects
            for rule, row in d.get("labelled_by_rule", {}).items()
            for label, n in row.items()
            for _ in range(n)
        ),
    }


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


def _interval(bounds: Sequence[float] | None) -> str:
    return "n/a" if bounds is None else f"{100 * bounds[0]:.1f}%..{100 * bounds[1]:.1f}%"


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{name} {n}" for name, n in counts.items()) or "none"


def report_lines(title: str, data: dict[str, Any]) -> list[str]:
    lines = [
        title,
        f"  docs files {data['docs_files']}, findings {data['findings']}, sampled"
        f" {data['sampled']}, labelled {data['labelled']} (defect {data['defect']}, false"
        f" {data['false']}, unsure {data['unsure']})",
        f"  precision  {_pct(data['precision'])} (defect / labelled, unsure left out; unsure as"
        f" false..defect: {_pct(data['precision_low'])}..{_pct(data['precision_high'])});"
        f" 95% Wilson {_interval(data['wilson'])}",
        f"  false by class   {_counts(data['false_classes'])}",
        f"  uses judged {data.get('checked', 0)} (in {data.get('docs_checked', 0)} docs),"
        f" unjudged {data.get('unjudged', 0)} (gate 15 only)",
        f"  unjudged by rule (gate 15: by reason) {_counts(data['unjudged_by_rule'])}",
        "  labelled by the rule that made it a claim: "
        + (
            "; ".join(
                f"{rule} {row.get('defect', 0)} real / {row.get('false', 0)} false"
                for rule, row in data.get("labelled_by_rule", {}).items()
            )
            or "none"
        ),
        f"  every labelled finding still reported (sampled or not): "
        f"{_counts(data['labelled_flagged'])}",
    ]
    if "weighted_precision" in data:
        lines.insert(
            3, f"  weighted by each project's findings: {_pct(data['weighted_precision'])}"
        )
    if "findings_by_kind" in data:
        lines.insert(4, f"  findings by kind {_counts(data['findings_by_kind'])}")
    if data.get("unlabelled"):
        lines.append(f"  UNLABELLED in the sample: {len(data['unlabelled'])}")
    lines += [f"  WARNING {problem}" for problem in data.get("problems", [])[:5]]
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--project", action="append", help="owner/name (repeatable; default all)")
    parser.add_argument("--sample", type=int, default=DEFAULT_SAMPLE, help="findings per project")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument(
        "--half",
        choices=sorted(HALVES),
        default="report",
        help="the projects measured: the held-out report half or the tune half",
    )
    parser.add_argument(
        "--gate", type=int, choices=sorted(GATE_NAMES), default=2,
        help="the gate measured (15: labels in gate15_docs.jsonl, gate15_docs_tune.jsonl)",
    )  # fmt: skip
    parser.add_argument("--labels", type=Path, help="default: the half's label file")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON")
    parser.add_argument("--results", type=Path, help="write the figures for the docs here")
    parser.add_argument(
        "--set", action="append", default=[], metavar="KEY=VALUE",
        help="a [tool.postgates] setting for every site (TOML value; repeatable)",
    )  # fmt: skip
    parser.add_argument("--unlabelled", type=Path, help="write the sampled findings with no label")
    parser.add_argument(
        "--cache", type=Path,
        help="XDG cache folder shared by the runs (indexes and API models are keyed by "
        "commit: repeated runs, as bench/ablation.py's, reuse them); default a private one",
    )  # fmt: skip
    args = parser.parse_args(argv)
    SHARED_CACHE[:] = [args.cache.resolve()] if args.cache else []
    EXTRA_SETTINGS[:] = [
        f"{key.strip()} = {value.strip()}" for key, value in (s.split("=", 1) for s in args.set)
    ]
    if EXTRA_SETTINGS:
        print(f"settings added to [tool.postgates]: {'; '.join(EXTRA_SETTINGS)}")
    mirrors = Path(os.environ.get(MIRRORS_ENV, DEFAULT_MIRRORS))
    projects, half_labels = HALVES[args.half]
    if args.gate == 15:
        half_labels = GATE15_LABELS if args.half == "report" else GATE15_TUNE_LABELS
        projects = projects if args.half == "report" else (*projects, *GATE15_TUNE_EXTRA)
    elif args.half == "tune" and args.project:
        # Gate 15's tune projects are tune projects too: gate 2 is measured on one named
        # (its pin is in gate 15's tune labels, `--labels`; no gate-2 label there).
        projects = (*projects, *GATE15_TUNE_EXTRA)
    args.labels = args.labels or half_labels
    chosen = [p for p in projects if not args.project or p.name in args.project]
    if args.project and len(chosen) != len(set(args.project)):
        sys.exit(f"docs_precision: known projects: {', '.join(p.name for p in projects)}")
    pins, _labels = load_labels(args.labels)
    if not os.environ.get(BENCH_DEPENDENCIES_ENV):
        print(
            f"dependencies absent: ${BENCH_DEPENDENCIES_ENV} is not set (bench/"
            "install_dependencies.py installs them); names rooted in them are unjudged"
        )
    record = _results_run(args)
    runs: list[ProjectRun] = []
    for project in chosen:
        mirror = mirror_of(project.name, mirrors)
        commit = pins.get(project.name)
        if commit is None:
            sys.exit(f"docs_precision: no '# pin {project.name} <commit>' line in {args.labels}")
        with tempfile.TemporaryDirectory(prefix="postgates-docs-") as scratch:
            runs.append(run_gate2(project, mirror, commit, Path(scratch), args.gate))
    # Read after the runs: labels written while gate 2 ran count.
    _pins, labels = load_labels(args.labels)
    summaries = [project_summary(run, labels, args.seed, args.sample) for run in runs]
    total = overall(summaries)
    for data in summaries:
        title = (
            f"gate {args.gate}: {data['project']} at {data['commit'][:12]}"
            f" (seed {args.seed}, sample {args.sample})"
        )
        print("\n".join(report_lines(title, data)))
    print("\n".join(report_lines("OVERALL (pooled sample)", total)))
    if args.unlabelled:
        with args.unlabelled.open("w", encoding="utf-8") as handle:
            for data in summaries:
                for item in data["unlabelled"]:
                    handle.write(json.dumps(item, ensure_ascii=False) + "\n")
        print(f"sampled findings with no label written to {args.unlabelled}")
    if args.json:
        payload = {"gate": args.gate, "half": args.half, "seed": args.seed, "sample": args.sample,
                   "projects": summaries, "overall": total}  # fmt: skip
        args.json.write_text(json.dumps(payload, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    if record is not None and args.results:
        record_figures(record, summaries, total, args.gate)
        record.write(args.results)
    return 0


def _results_run(args: argparse.Namespace) -> Any:
    """The results record of this run (bench/results_json.py), started before the work."""
    if not args.results:
        return None
    sys.path.insert(0, str(HERE.parent))
    from bench.results_json import Run

    return Run(
        "docs_precision" if args.gate == 2 else f"gate{args.gate}_docs_precision",
        {"gate": args.gate, "half": args.half, "seed": args.seed, "sample": args.sample,
         "labels": args.labels.name, "settings_added": list(EXTRA_SETTINGS)},
    )  # fmt: skip


def _percent(value: float | None) -> float | None:
    return None if value is None else round(100 * value, 1)


def record_figures(
    record: Any, summaries: Sequence[dict[str, Any]], total: dict[str, Any], gate: int = 2
) -> None:
    """Per project and pooled: findings, the labelled sample, precision with its bounds
    (unsure as false and as defect) and its 95% Wilson interval."""
    record.notes.append(
        "precision is defect / labelled in the seeded sample, unsure left out; the pooled "
        f"estimate weighted by each project's findings is {_percent(total['weighted_precision'])}%"
    )
    rows = record.table(
        f"Gate {gate} findings on held-out docs folders, a labelled sample of each",
        [{"name": "project", "kind": "label"},
         {"name": "commit", "kind": "label"},
         {"name": "docs files", "kind": "figure"},
         {"name": "findings", "kind": "figure"},
         {"name": "sampled", "kind": "figure"},
         {"name": "defect", "kind": "figure"},
         {"name": "false", "kind": "figure"},
         {"name": "unsure", "kind": "figure"},
         {"name": "precision", "kind": "figure", "unit": "%"},
         {"name": "precision, unsure as false", "kind": "figure", "unit": "%"},
         {"name": "precision, unsure as defect", "kind": "figure", "unit": "%"},
         {"name": "95% Wilson low", "kind": "figure", "unit": "%"},
         {"name": "95% Wilson high", "kind": "figure", "unit": "%"}],
    )  # fmt: skip
    for data in [*summaries, {**total, "project": "pooled", "commit": ""}]:
        low, high = data["wilson"] or (None, None)
        rows.append(
            [data["project"], data["commit"][:10], data["docs_files"], data["findings"],
             data["sampled"], data["defect"], data["false"], data["unsure"],
             _percent(data["precision"]), _percent(data["precision_low"]),
             _percent(data["precision_high"]), _percent(low), _percent(high)]
        )  # fmt: skip
    classes = record.table(
        "False findings of the pooled sample by class",
        [{"name": "class", "kind": "label"}, {"name": "false findings", "kind": "figure"}],
    )
    classes.extend([name, n] for name, n in total["false_classes"].items())
    unjudged = record.table(
        f"Uses gate {gate} left unjudged, by {'reason' if gate == 15 else 'rule'} (top 12)",
        [{"name": "why", "kind": "label"}, {"name": "uses", "kind": "figure"}],
    )
    # As code: a reason's ``**kwargs`` or ``__init__`` is not Markdown emphasis on the page.
    unjudged.extend([f"`{why}`", n] for why, n in list(total["unjudged_by_rule"].items())[:12])


if __name__ == "__main__":
    raise SystemExit(main())
