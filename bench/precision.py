"""Precision of the hard gates 2, 6 and 7 on the real NeuroLink blog, against hand labels.

Runs gates 2 (symbol_grounding), 6 (readability_links) and 7 (numerical_claims) of the
current code through pytest, offline, on the real published posts dated up to 2026-06-30,
grounded at the NeuroLink repository's ``release`` ref (9.80.2), reads every scorecard and
matches its findings against the labels in ``bench/labels/gate{2,6,7}.jsonl`` (built by
reading today's findings against the real source; the labelling rules are at the top of
each file). Prints, per gate:

- posts checked and posts failing;
- findings (gate 2: ``ungrounded`` tokens; gate 6: ``low_flesch`` paragraphs; gate 7:
  ``uncited`` numbers);
- labelled findings still flagged, and precision over them (defects / labelled flagged,
  ``unsure`` labels left out of both and shown as bounds);
- labelled defects no longer flagged (a recall warning: a real defect that disappeared is
  a regression, listed one per line), and labelled defects still listed but in posts whose
  verdict is PASS (the threshold let them through);
- unlabelled findings (new ones, or ones outside the labelled random sample);
- gate 2: posts failing without any real defect (every flagged token labelled false) out
  of the posts checked (target: at most 1 in 12).

    python bench/precision.py [--repo PATH] [--ref release] [--posts DIR] [--until DATE]
                              [--json OUT] [--results bench/results/precision.json]

``--json OUT`` writes every figure and finding class (for scripts that compare runs);
``--results OUT`` writes the figures for the docs (bench/results_json.py).

``--repo`` defaults to the environment variable POSTGATES_NEUROLINK, ``--posts`` to
POSTGATES_NEUROLINK_BLOG or the shared corpus (``../shared/corpus/neurolink-blog/_posts``
from a worktree). The posts' folder is copied to a scratch directory first (scorecards are
written under the rootdir; the corpus is read-only), with its site files so gate 6 resolves
internal links as on the real site.

Matching (a later run's lines shift a little and its texts may be cut differently):
findings and labels are grouped by post and by token (gate 2), number (gate 7) or post
alone (gate 6); within a group they are paired greedily by closest line, never further than
MAX_LINE_SHIFT lines apart; gate 6 pairs a paragraph only when one text starts the other or
the lines agree (a paragraph that merged with its neighbour keeps its label).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
LABELS_DIR = HERE / "labels"
DEFAULT_UNTIL = "2026-06-30"
DEFAULT_REF = "release"
REPO_ENV = "POSTGATES_NEUROLINK"
POSTS_ENV = "POSTGATES_NEUROLINK_BLOG"
SHARED_POSTS = HERE.parent.parent / "shared" / "corpus" / "neurolink-blog" / "_posts"
GATES: dict[int, str] = {2: "symbol_grounding", 6: "readability_links", 7: "numerical_claims"}
# Gate 2's second figure: the declaration a blog team writes for codebases a run cannot read.
TEAM_CONFIG = HERE / "blog_team.toml"
# The NeuroLink blog's house style, which it has adopted (the seeds' thresholds were calibrated
# on it): gate 6's sentence limit and Flesch verdict are enforced only where a project sets
# them (helpers/house_style.py), so the default run sets them as the blog does, and gate 6's
# figures measure them enforced. bench/blog_team.toml holds the same values.
HOUSE_STYLE = (
    "[tool.postgates]\nmax_paragraph_sentences = 8\nflesch_floor = 25.0\n"
    "post_flesch_floor = 30.0\nmax_hard_prose_share = 0.10\n"
    "opening_entity_required = true\nenforce_banned_phrases = true\n"
)
# The scorecard list each gate's findings are read from (the seeds' keys; see DESIGN.md).
FINDING_KEYS: dict[int, str] = {2: "ungrounded", 6: "low_flesch", 7: "uncited"}
LABEL_VALUES = ("defect", "false", "unsure")
MAX_LINE_SHIFT = 20
# Gate 6 matches paragraphs on this many leading characters of normalised text.
PARAGRAPH_PREFIX = 60
# The ceiling for gate 2: at most 1 in 12 real posts failing without a real defect.
FALSE_FAILURE_SHARE = 1 / 12


@dataclass(frozen=True)
class Finding:
    """One flagged item of one gate in one post."""

    gate: int
    post: str  # file name, e.g. 2026-01-03-how-we-built-multi-provider-failover.md
    line: int
    key: str  # gate 2: token; gate 7: number; gate 6: paragraph text
    text: str = ""  # gate 7: the line excerpt; gate 6: the paragraph
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)


@dataclass
class GateRun:
    """What one gate said about the posts: verdict per post and every finding."""

    gate: int
    verdicts: dict[str, str] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    # Scorecards the bench could not read findings from (never silently zero findings).
    problems: list[str] = field(default_factory=list)
    # Gate 6 also fails on links: posts with broken internal links, and with dead URLs.
    broken_link_posts: set[str] = field(default_factory=set)
    # Gate 2: tokens listed `unjudged` (they name a declared codebase this run cannot read).
    unjudged: list[Finding] = field(default_factory=list)


@dataclass
class Match:
    pairs: list[tuple[Finding, dict[str, Any]]]
    unmatched_findings: list[Finding]
    unmatched_labels: list[dict[str, Any]]


def normalise_text(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def label_key(gate: int, label: dict[str, Any]) -> str:
    if gate == 2:
        return str(label["token"])
    if gate == 7:
        return str(label["number"])
    return ""


def describe_label(gate: int, label: dict[str, Any]) -> str:
    return label_key(gate, label) or str(label.get("text", ""))[:PARAGRAPH_PREFIX]


def finding_group(finding: Finding) -> tuple[str, str]:
    return (finding.post, finding.key if finding.gate in (2, 7) else "")


def _paragraphs_agree(finding: Finding, label: dict[str, Any]) -> bool:
    found = normalise_text(finding.text or finding.key)
    labelled = normalise_text(str(label.get("text", "")))
    if not found or not labelled:
        return False
    return found.startswith(labelled[:PARAGRAPH_PREFIX]) or labelled.startswith(
        found[:PARAGRAPH_PREFIX]
    )


def _compatible(finding: Finding, label: dict[str, Any]) -> bool:
    distance = abs(finding.line - int(label.get("line", 0)))
    if finding.gate == 6:
        # A paragraph keeps its label when its text still starts the same way (or the
        # finding now covers a merged paragraph that starts where the label's did).
        return _paragraphs_agree(finding, label) or distance == 0
    return distance <= MAX_LINE_SHIFT


def match(findings: Iterable[Finding], labels: Iterable[dict[str, Any]], gate: int) -> Match:
    """Pair findings with labels of the same post and key, closest lines first."""
    groups: dict[tuple[str, str], tuple[list[Finding], list[dict[str, Any]]]] = {}
    for finding in findings:
        groups.setdefault(finding_group(finding), ([], []))[0].append(finding)
    for label in labels:
        groups.setdefault((str(label["post"]), label_key(gate, label)), ([], []))[1].append(label)
    pairs: list[tuple[Finding, dict[str, Any]]] = []
    unmatched_findings: list[Finding] = []
    unmatched_labels: list[dict[str, Any]] = []
    for group_findings, group_labels in groups.values():
        candidates = sorted(
            (
                (abs(f.line - int(lab.get("line", 0))), fi, li)
                for fi, f in enumerate(group_findings)
                for li, lab in enumerate(group_labels)
                if _compatible(f, lab)
            ),
        )
        used_findings: set[int] = set()
        used_labels: set[int] = set()
        for _distance, fi, li in candidates:
            if fi in used_findings or li in used_labels:
                continue
            used_findings.add(fi)
            used_labels.add(li)
            pairs.append((group_findings[fi], group_labels[li]))
        unmatched_findings += [f for i, f in enumerate(group_findings) if i not in used_findings]
        unmatched_labels += [lab for i, lab in enumerate(group_labels) if i not in used_labels]
    return Match(pairs, unmatched_findings, unmatched_labels)


def load_labels(path: Path) -> list[dict[str, Any]]:
    """The labelled items of a JSONL file; lines starting with ``#`` are the rules."""
    labels: list[dict[str, Any]] = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        item = json.loads(line)
        if item.get("label") not in LABEL_VALUES:
            raise ValueError(f"{path.name}:{number}: label must be one of {LABEL_VALUES}")
        labels.append(item)
    return labels


def findings_from_cards(
    cards: Path, posts: Sequence[str], gates: Sequence[int] = tuple(GATES)
) -> dict[int, GateRun]:
    """Read every gate 2/6/7 scorecard of ``posts`` from the scorecards folder."""
    runs = {gate: GateRun(gate) for gate in gates}
    for post in posts:
        stem = post.removesuffix(".md")
        for gate in gates:
            name = GATES[gate]
            card_path = cards / f"{stem}-gate{gate}-{name}.json"
            if not card_path.is_file():
                runs[gate].verdicts[post] = "MISSING"
                continue
            card = json.loads(card_path.read_text(encoding="utf-8"))
            verdict = str(card.get("verdict"))
            detail = card.get("detail") or {}
            runs[gate].verdicts[post] = verdict
            if verdict in ("PASS", "FAIL") and FINDING_KEYS[gate] not in detail:
                runs[gate].problems.append(
                    f"{card_path.name}: no {FINDING_KEYS[gate]!r} list in detail"
                )
            runs[gate].findings += card_findings(gate, post, detail)
            if gate == 2:
                runs[gate].unjudged += [
                    Finding(2, post, int(item.get("line", 0)), str(item["token"]), "", dict(item))
                    for item in (detail.get("outcomes") or {}).get("unjudged", [])
                ]
            if gate == 6 and (detail.get("internal_links") or {}).get("broken"):
                runs[gate].broken_link_posts.add(post)
    return runs


def card_findings(gate: int, post: str, detail: dict[str, Any]) -> list[Finding]:
    if gate == 2:
        return [
            Finding(2, post, int(item.get("line", 0)), str(item["token"]), "", dict(item))
            for item in detail.get("ungrounded", [])
        ]
    if gate == 7:
        return [
            Finding(
                7,
                post,
                int(item.get("line", 0)),
                str(item["number"]),
                str(item.get("text", "")),
                dict(item),
            )
            for item in detail.get("uncited", [])
        ]
    return [
        Finding(
            6,
            post,
            int(item.get("line", 0)),
            str(item.get("text", "")),
            str(item.get("text", "")),
            dict(item),
        )
        for item in detail.get("low_flesch", [])
    ]


def select_posts(posts_dir: Path, until: str) -> list[str]:
    """The posts dated (by file name) up to ``until`` inclusive."""
    return sorted(
        path.name
        for path in posts_dir.glob("*.md")
        if re.match(r"\d{4}-\d{2}-\d{2}-", path.name) and path.name[:10] <= until
    )


def run_gates(
    repo: Path,
    ref: str,
    posts_dir: Path,
    until: str,
    scratch: Path,
    gates: Sequence[int] = tuple(GATES),
    config: Path | None = None,
) -> dict[int, GateRun]:
    """Run gates 2, 6, 7 (or ``gates``) of the installed pytest-postgates on the posts,
    with ``config``'s ``[tool.postgates]`` table as the scratch folder's pyproject.toml
    when given (else the blog's :data:`HOUSE_STYLE`); read the cards."""
    scratch.mkdir(parents=True, exist_ok=True)
    if config is not None:
        shutil.copyfile(config, scratch / "pyproject.toml")
    else:
        (scratch / "pyproject.toml").write_text(HOUSE_STYLE, encoding="utf-8")
    site = scratch / "site"
    shutil.copytree(posts_dir.parent, site, symlinks=False)
    for path in [site, *site.rglob("*")]:
        path.chmod(path.stat().st_mode | 0o200)
    posts = select_posts(posts_dir, until)
    cards = scratch / "cards"
    command = [
        sys.executable,
        "-m",
        "pytest",
        *(str(Path("site") / posts_dir.name / post) for post in posts),
        f"--rootdir={scratch}",
        f"--postgates-repo={repo}",
        f"--postgates-ref={ref}",
        "--postgates-offline",
        "--postgates-all",
        "--postgates-only=" + ",".join(str(gate) for gate in gates),
        f"--postgates-scorecards={cards}",
        "-p",
        "no:cacheprovider",
        "-p",
        "no:randomly",
        "-q",
        "--tb=no",
        "--no-header",
    ]
    done = subprocess.run(command, cwd=scratch, capture_output=True, text=True, check=False)
    # 0: all passed, 1: some gate failed; anything else means the run itself broke.
    if done.returncode not in (0, 1):
        sys.exit(
            f"precision: pytest exited {done.returncode}\n"
            f"{done.stdout[-3000:]}{done.stderr[-3000:]}"
        )
    return findings_from_cards(cards, posts, gates)


@dataclass
class GateFigures:
    gate: int
    posts: int
    failing: int
    not_judged: int  # SKIP, ERROR or a missing scorecard
    findings: int
    labelled: int
    defects: int
    false: int
    unsure: int
    vanished_defects: list[dict[str, Any]]
    vanished_false: int
    defects_in_passing_posts: int
    unlabelled: int
    false_classes: dict[str, int]
    unsure_classes: dict[str, int]
    vanished_unsure: int

    @property
    def precision(self) -> float | None:
        judged = self.defects + self.false
        return self.defects / judged if judged else None


def figures(run: GateRun, labels: list[dict[str, Any]]) -> tuple[GateFigures, Match]:
    result = match(run.findings, labels, run.gate)
    counts = {value: 0 for value in LABEL_VALUES}
    classes: dict[str, dict[str, int]] = {value: {} for value in LABEL_VALUES}
    for _finding, label in result.pairs:
        counts[label["label"]] += 1
        cls = str(label.get("class", "?"))
        classes[label["label"]][cls] = classes[label["label"]].get(cls, 0) + 1
    return (
        GateFigures(
            gate=run.gate,
            posts=len(run.verdicts),
            failing=sum(verdict == "FAIL" for verdict in run.verdicts.values()),
            not_judged=sum(verdict not in ("PASS", "FAIL") for verdict in run.verdicts.values()),
            findings=len(run.findings),
            labelled=len(result.pairs),
            defects=counts["defect"],
            false=counts["false"],
            unsure=counts["unsure"],
            vanished_defects=[lab for lab in result.unmatched_labels if lab["label"] == "defect"],
            vanished_false=sum(lab["label"] == "false" for lab in result.unmatched_labels),
            defects_in_passing_posts=sum(
                lab["label"] == "defect" and run.verdicts.get(finding.post) == "PASS"
                for finding, lab in result.pairs
            ),
            unlabelled=len(result.unmatched_findings),
            false_classes=_by_count(classes["false"]),
            unsure_classes=_by_count(classes["unsure"]),
            vanished_unsure=sum(lab["label"] == "unsure" for lab in result.unmatched_labels),
        ),
        result,
    )


def _by_count(counts: dict[str, int]) -> dict[str, int]:
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


@dataclass
class FalseFailures:
    """Gate 2 posts that fail: with a labelled real defect, with none, or undecided."""

    failing: int
    with_defect: int
    without_defect: list[str]  # every flagged token labelled false
    undecided: list[str]  # no labelled defect, but unlabelled or unsure tokens


def false_failures(run: GateRun, result: Match) -> FalseFailures:
    label_of: dict[int, str] = {id(f): lab["label"] for f, lab in result.pairs}
    per_post: dict[str, list[str]] = {}
    for finding in run.findings:
        per_post.setdefault(finding.post, []).append(label_of.get(id(finding), "unlabelled"))
    failing = [post for post, verdict in run.verdicts.items() if verdict == "FAIL"]
    with_defect = [post for post in failing if "defect" in per_post.get(post, [])]
    without = [
        post
        for post in failing
        if post not in with_defect and all(v == "false" for v in per_post.get(post, []))
    ]
    undecided = [post for post in failing if post not in with_defect and post not in without]
    return FalseFailures(len(failing), len(with_defect), without, undecided)


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


def unjudged_line(run: GateRun, labels: list[dict[str, Any]]) -> str:
    """Gate 2's `unjudged` tokens (neither defects nor grounded), and the labels they carry:
    a labelled defect among them is a fabrication the declaration hid."""
    result = match(run.unjudged, labels, 2)
    counts = {value: 0 for value in LABEL_VALUES}
    for _finding, label in result.pairs:
        counts[label["label"]] += 1
    line = (
        f"  unjudged (not defects, not grounded)  {len(run.unjudged)}"
        f"  (labelled false {counts['false']}, unsure {counts['unsure']},"
        f" defect {counts['defect']}; unlabelled {len(result.unmatched_findings)})"
    )
    return line + ("  <- A LABELLED DEFECT IS UNJUDGED" if counts["defect"] else "")


def report(
    runs: dict[int, GateRun], labels: dict[int, list[dict[str, Any]]], heading: str = ""
) -> str:
    lines: list[str] = []
    for gate, run in runs.items():
        name = GATES[gate]
        fig, result = figures(run, labels.get(gate, []))
        judged = fig.defects + fig.false
        low = fig.defects / (judged + fig.unsure) if judged + fig.unsure else None
        high = (fig.defects + fig.unsure) / (judged + fig.unsure) if judged + fig.unsure else None
        lines += [
            f"gate {gate} {name}{heading}",
            f"  posts failing            {fig.failing} / {fig.posts}"
            + (f"  (not judged: {fig.not_judged}, SKIP/ERROR/missing)" if fig.not_judged else ""),
            f"  findings                 {fig.findings}",
            f"  labelled, still flagged  {fig.labelled}"
            f"  (defect {fig.defects}, false {fig.false}, unsure {fig.unsure})",
            f"  precision                {_pct(fig.precision)}  (defects / labelled flagged;"
            f" unsure as false..defect: {_pct(low)}..{_pct(high)})",
            *([unjudged_line(run, labels.get(gate, []))] if gate == 2 else []),
            f"  labelled defects no longer flagged  {len(fig.vanished_defects)}"
            + ("  <- RECALL REGRESSION" if fig.vanished_defects else ""),
        ]
        lines += [
            f"    {lab['post']}:{lab.get('line')}  {describe_label(gate, lab)!r}"
            for lab in fig.vanished_defects
        ]
        lines += [
            f"  labelled false no longer flagged    {fig.vanished_false}",
            f"  labelled unsure no longer flagged   {fig.vanished_unsure}",
            f"  labelled defects flagged in posts that pass  {fig.defects_in_passing_posts}",
            f"  unlabelled findings      {fig.unlabelled}",
            "  false findings by class  "
            + (", ".join(f"{cls} {n}" for cls, n in fig.false_classes.items()) or "none"),
            "  unsure by class          "
            + (", ".join(f"{cls} {n}" for cls, n in fig.unsure_classes.items()) or "none"),
        ]
        if gate == 6:
            flagged = {finding.post for finding in run.findings}
            links_only = run.broken_link_posts - flagged
            lines.append(
                f"  posts with low-Flesch findings {len(flagged)}; with broken internal links"
                f" {len(run.broken_link_posts)} ({len(links_only)} of them on links alone)"
            )
        lines += [f"  WARNING {problem}" for problem in run.problems[:5]]
        if len(run.problems) > 5:
            lines.append(f"  WARNING ... and {len(run.problems) - 5} more scorecards like these")
        if gate == 2:
            ff = false_failures(run, result)
            ceiling = int(fig.posts * FALSE_FAILURE_SHARE)
            lines += [
                f"  failing posts with a labelled defect  {ff.with_defect} / {ff.failing}",
                f"  failing posts without a real defect   {len(ff.without_defect)} / {fig.posts}"
                f" checked (target <= {ceiling}, 1 in 12)"
                + (
                    f"; {len(ff.without_defect) + len(ff.undecided)} counting the"
                    f" {len(ff.undecided)} failing on unsure or unlabelled tokens only"
                    if ff.undecided
                    else ""
                ),
            ]
            lines += [f"    no defect: {post}" for post in ff.without_defect]
            lines += [f"    undecided: {post}" for post in ff.undecided]
    return "\n".join(lines)


def summary(runs: dict[int, GateRun], labels: dict[int, list[dict[str, Any]]]) -> dict[str, Any]:
    """The printed figures as data (``--json``), for scripts that compare runs."""
    out: dict[str, Any] = {}
    for gate, run in runs.items():
        name = GATES[gate]
        fig, result = figures(run, labels.get(gate, []))
        entry: dict[str, Any] = {
            "name": name,
            "posts": fig.posts,
            "posts_failing": fig.failing,
            "posts_not_judged": fig.not_judged,
            "findings": fig.findings,
            "labelled_flagged": fig.labelled,
            "defect": fig.defects,
            "false": fig.false,
            "unsure": fig.unsure,
            "precision": fig.precision,
            "vanished_defects": [
                {"post": lab["post"], "line": lab.get("line"), "key": describe_label(gate, lab)}
                for lab in fig.vanished_defects
            ],
            "vanished_false": fig.vanished_false,
            "vanished_unsure": fig.vanished_unsure,
            "defects_in_passing_posts": fig.defects_in_passing_posts,
            "unlabelled": fig.unlabelled,
            "false_classes": fig.false_classes,
            "unsure_classes": fig.unsure_classes,
            "problems": runs[gate].problems,
        }
        if gate == 6:
            entry["broken_link_posts"] = sorted(runs[gate].broken_link_posts)
        if gate == 2:
            ff = false_failures(runs[gate], result)
            entry["unjudged"] = len(run.unjudged)
            entry["failing_with_defect"] = ff.with_defect
            entry["failing_without_defect"] = ff.without_defect
            entry["failing_undecided"] = ff.undecided
        out[str(gate)] = entry
    return out


def resolve_inputs(args: argparse.Namespace) -> tuple[Path, Path]:
    repo_arg = args.repo or os.environ.get(REPO_ENV)
    if not repo_arg:
        sys.exit(
            f"precision: no NeuroLink repository: pass --repo PATH or set {REPO_ENV} "
            "(a clone of the NeuroLink repository with its `release` branch)"
        )
    repo = Path(repo_arg)
    if not (repo / ".git").exists() and not (repo / "HEAD").is_file():
        sys.exit(f"precision: {repo} is not a git repository")
    posts = Path(args.posts or os.environ.get(POSTS_ENV) or SHARED_POSTS)
    if not posts.is_dir():
        sys.exit(
            f"precision: no posts folder at {posts}: pass --posts DIR or set {POSTS_ENV} "
            "(the NeuroLink blog's _posts folder)"
        )
    return repo, posts


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", help=f"NeuroLink git repository (default: ${REPO_ENV})")
    parser.add_argument("--ref", default=DEFAULT_REF, help="ref to ground against")
    parser.add_argument(
        "--posts", help=f"the blog's _posts folder (default: ${POSTS_ENV} or the shared corpus)"
    )
    parser.add_argument("--until", default=DEFAULT_UNTIL, help="newest post date included")
    parser.add_argument("--labels", type=Path, default=LABELS_DIR, help="folder of gate{N}.jsonl")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON to this file")
    parser.add_argument("--results", type=Path, help="write the figures for the docs here")
    parser.add_argument(
        "--team-config",
        type=Path,
        default=TEAM_CONFIG,
        help="the [tool.postgates] a blog team would write, for gate 2's second figure",
    )
    parser.add_argument(
        "--no-team-config", action="store_true", help="print the default configuration only"
    )
    args = parser.parse_args(argv)
    repo, posts = resolve_inputs(args)
    labels = {
        gate: load_labels(args.labels / f"gate{gate}.jsonl")
        for gate in GATES
        if (args.labels / f"gate{gate}.jsonl").is_file()
    }
    record = _results_run(args, repo, posts)
    team: dict[int, GateRun] | None = None
    with tempfile.TemporaryDirectory(prefix="postgates-precision-") as scratch:
        runs = run_gates(repo, args.ref, posts, args.until, Path(scratch) / "default")
        if not args.no_team_config:
            team = run_gates(
                repo, args.ref, posts, args.until, Path(scratch) / "team", (2,), args.team_config
            )
    print(f"posts dated up to {args.until}: {len(runs[2].verdicts)}; repo {repo} at {args.ref}")
    print(report(runs, labels, heading="  [default configuration: what a new user gets]"))
    if team is not None:
        print(
            report(
                team,
                labels,
                heading=f"  [blog team configuration: {_shown(args.team_config)}]",
            )
        )
    if args.json:
        data = summary(runs, labels)
        if team is not None:
            data["2-team"] = summary(team, labels)["2"]
        args.json.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
    if record is not None and args.results:
        configurations = [("default", summary(runs, labels))]
        if team is not None:
            configurations.append((_shown(args.team_config), summary(team, labels)))
        record_figures(record, configurations)
        record.write(args.results)
    return 0


def _results_run(args: argparse.Namespace, repo: Path, posts: Path) -> Any:
    """The results record of this run (bench/results_json.py), started before the work."""
    if not args.results:
        return None
    sys.path.insert(0, str(HERE.parent))
    from bench.results_json import Run

    team = None if args.no_team_config else _shown(args.team_config)
    return Run(
        "precision",
        {"repo": str(repo), "ref": args.ref, "posts": str(posts), "until": args.until,
         "team_config": team},
    )  # fmt: skip


def _percent(part: int, whole: int) -> float | None:
    return round(100 * part / whole, 1) if whole else None


def record_figures(record: Any, configurations: list[tuple[str, dict[str, Any]]]) -> None:
    """One row per gate and configuration: findings, the labelled ones still flagged,
    precision with the unsure labels counted each way (the bounds), and the labelled
    defects no longer flagged (a recall warning)."""
    record.notes.append(
        "precision is defects / labelled findings still flagged, unsure labels left out; "
        "the bounds count the unsure ones as false and as defects"
    )
    rows = record.table(
        "Findings against the hand labels (bench/labels/gate{N}.jsonl)",
        [{"name": "gate", "kind": "label"},
         {"name": "configuration", "kind": "label"},
         {"name": "posts", "kind": "figure"},
         {"name": "posts failing", "kind": "figure"},
         {"name": "findings", "kind": "figure"},
         {"name": "labelled still flagged", "kind": "figure"},
         {"name": "defect", "kind": "figure"},
         {"name": "false", "kind": "figure"},
         {"name": "unsure", "kind": "figure"},
         {"name": "precision", "kind": "figure", "unit": "%"},
         {"name": "precision, unsure as false", "kind": "figure", "unit": "%"},
         {"name": "precision, unsure as defect", "kind": "figure", "unit": "%"},
         {"name": "labelled defects no longer flagged", "kind": "figure"},
         {"name": "unlabelled findings", "kind": "figure"}],
    )  # fmt: skip
    for configuration, data in configurations:
        for gate, entry in sorted(data.items()):
            judged = entry["defect"] + entry["false"]
            rows.append(
                [f"{gate} {entry['name']}", configuration, entry["posts"],
                 entry["posts_failing"], entry["findings"], entry["labelled_flagged"],
                 entry["defect"], entry["false"], entry["unsure"],
                 _percent(entry["defect"], judged),
                 _percent(entry["defect"], judged + entry["unsure"]),
                 _percent(entry["defect"] + entry["unsure"], judged + entry["unsure"]),
                 len(entry["vanished_defects"]), entry["unlabelled"]]
            )  # fmt: skip
    failing = record.table(
        "Gate 2: failing posts without a real defect (target at most 1 in 12 posts)",
        [{"name": "configuration", "kind": "label"},
         {"name": "posts checked", "kind": "figure"},
         {"name": "failing with a labelled defect", "kind": "figure"},
         {"name": "failing without a real defect", "kind": "figure"},
         {"name": "failing on unsure or unlabelled tokens only", "kind": "figure"}],
    )  # fmt: skip
    for configuration, data in configurations:
        if "2" in data:
            entry = data["2"]
            failing.append(
                [configuration, entry["posts"], entry["failing_with_defect"],
                 len(entry["failing_without_defect"]), len(entry["failing_undecided"])]
            )  # fmt: skip


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(HERE.parent))
    except ValueError:
        return str(path)


if __name__ == "__main__":
    raise SystemExit(main())
