"""Held-out precision of gate 2 (symbol_grounding) on NeuroLink's own ``docs/`` folder.

bench/precision.py measures gate 2 on the NeuroLink blog, the material its attribution
rules were designed on (bench/labels/gate2.jsonl): an in-sample figure. This bench measures
it on material nobody on the project wrote and no rule was tuned on: Markdown files of the
NeuroLink repository's own ``docs/`` folder at ``release`` (9.80.2), grounded against the
same repository at the same ref.

- Files: every ``docs/**/*.md`` tracked at the ref, sorted, ``random.Random(SEED).sample``
  of ``--files`` of them (default 200).
- Run: a ``git clone --shared --no-checkout`` of the repository in a scratch folder (it
  reads the repository's objects, writes nothing into it), the sampled files written into
  its ``docs/`` from the ref, a ``pyproject.toml`` with ``[tool.postgates] paths =
  ["docs"]`` (the configuration a team running the plugin over its docs folder writes).
  As for any configured post folder inside the repository, the text of ``docs/`` is then
  left out of the evidence: a documentation file is never its own evidence (copied to a
  folder outside the repository instead, every token would ground on the file's own copy
  in the tree). Gate 2 only, offline, ``--postgates-all``, a private ``XDG_CACHE_HOME``.
- Collected: (a) every ``ungrounded`` finding; (b) every token an attribution rule decided
  (an outcome whose ``rule`` is one of ATTRIBUTION_RULES: issue 10's rules in
  pytest_postgates/helpers/attribution_rules.py, ``declared-tree`` and
  ``commit-message-outline``). Each set is put in a seeded random order
  (bench/labels/sample.py's ``sample_order``: sorted by post, line, token, then shuffled)
  for ``--order``.
- The uniform sample of the findings (``--sample-rate``, default 4%): a finding is in it
  when a keyed hash of (seed, post, line, token) falls below the rate, so whether one
  finding is drawn never depends on which others exist (a seeded shuffle's prefix shifts
  whenever a rule removes or adds a finding anywhere; the line is fixed, the ref is). With
  ``--files 0`` it is a uniform random sample of every finding in docs/.
- Printed, against bench/labels/gate2_holdout.jsonl (rules at its top; matched as
  bench/precision.py matches, on post + token, closest line): precision of (a) = defects /
  labelled flagged (``unsure`` left out, bounds shown), with a 95% Wilson interval, for
  every finding of the run and for the keyed sample; false findings by class; for (b) the
  labels the cleared tokens carry: a labelled defect there is a fabrication a rule hid.

    python bench/holdout_precision.py [--repo PATH] [--ref release] [--files 200]
    python bench/holdout_precision.py --order OUT.jsonl     # also write both sample orders
    python bench/holdout_precision.py --files 0 --unlabelled OUT.jsonl  # what needs a label
    python bench/holdout_precision.py --files 0 --keep-cards DIR  # then --from-cards DIR
    python bench/holdout_precision.py --results bench/results/holdout_precision.json
    python bench/holdout_precision.py --set 'symbol_rules_off=["historical"]' --json OUT

``--set KEY=VALUE`` adds a line to the site's ``[tool.postgates]`` (an ablation:
bench/ablation.py turns one rule off so); the JSON then lists every finding with its label
(``every_finding``) and how many tokens each rule decided (``decided_by_rule``).

``--json OUT`` writes every figure; ``--results OUT`` the figures for the docs
(bench/results_json.py).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "labels"))

import precision  # noqa: E402
from sample import sample_order  # noqa: E402

SEED = 20260701  # the date of NeuroLink 9.80.2, as bench/labels/sample.py
DEFAULT_FILES = 200
# Share of the findings in the keyed uniform sample: of the 1,047 findings the whole folder
# had when it was introduced (34832dc), the seed's hash drew 26 (about 42 expected).
SAMPLE_RATE = 0.04
DOCS = "docs"
LABELS = HERE / "labels" / "gate2_holdout.jsonl"
# The rules issue 10's attribution step added (each outcome entry names its rule).
ATTRIBUTION_RULES = frozenset(
    (
        "vendor",
        "third-party-package",
        "router-variant-example",
        "quoted-source",
        "example-clause",
        "example-instance",
        "spelling-variant",
        "sample-input",
        "free-form-key",
        "free-form-record",
        "declared-tree",
        "commit-message-outline",
        "third-party-server-tool",
        "number-spelling",
        "vendor-namespace-model",  # dropped: kept so an older run's decisions still count
        # An older rule (deleted in session 21 with the other not-a-reference rules).
        "negated",
    )
)
CLEARING_OUTCOMES = ("unjudged", "not-a-reference", "defined-in-post", "grounded")


def docs_files(repo: Path, ref: str) -> list[str]:
    """Every Markdown file tracked under docs/ at ``ref``, sorted."""
    listing = subprocess.run(
        ["git", "-C", str(repo), "ls-tree", "-r", "-z", "--name-only", ref, "--", f"{DOCS}/"],
        capture_output=True,
        check=True,
    ).stdout.decode("utf-8", "surrogateescape")
    return sorted(p for p in listing.split("\0") if p.endswith(".md"))


def sample_files(files: Sequence[str], count: int, seed: int = SEED) -> list[str]:
    """``count`` of ``files`` drawn with ``seed`` (all of them when there are fewer),
    returned sorted; the draw depends only on the sorted list, never on its given order."""
    ordered = sorted(files)
    return sorted(random.Random(seed).sample(ordered, min(count, len(ordered))))


def prepare_site(
    repo: Path, ref: str, files: Sequence[str], scratch: Path, settings: Sequence[str] = ()
) -> Path:
    """A shared clone of ``repo`` with no checkout but ``files`` written from ``ref``, and
    the docs-folder configuration at its root (with ``settings``, ``key = value`` lines)."""
    site = scratch / "site"
    subprocess.run(
        ["git", "clone", "-q", "--shared", "--no-checkout", str(repo), str(site)], check=True
    )
    resolved = subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "--verify", f"{ref}^{{commit}}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    # The clone's own ref of that commit (a branch of the source is origin/<name> there).
    subprocess.run(["git", "-C", str(site), "branch", "-q", "holdout-ref", resolved], check=True)
    for path in files:
        blob = subprocess.run(
            ["git", "-C", str(repo), "show", f"{ref}:{path}"], capture_output=True, check=True
        ).stdout
        target = site / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(blob)
    (site / "pyproject.toml").write_text(
        f'[tool.pytest.ini_options]\n\n[tool.postgates]\npaths = ["{DOCS}"]\n'
        + "".join(f"{setting}\n" for setting in settings),
        encoding="utf-8",
    )
    return site


@dataclass
class HoldoutRun:
    verdicts: dict[str, str] = field(default_factory=dict)  # post path -> gate 2 verdict
    ungrounded: list[precision.Finding] = field(default_factory=list)
    cleared: list[precision.Finding] = field(default_factory=list)  # by an attribution rule
    problems: list[str] = field(default_factory=list)
    # Tokens each rule decided (a finding's rule, every outcome's; "-": none named).
    decided_by_rule: Counter[str] = field(default_factory=Counter)


def gate2_cards(
    cards: Path, verdicts: dict[str, str], problems: list[str]
) -> Iterator[tuple[str, dict[str, Any]]]:
    """(post path, gate 2 detail) of each post in a scorecards folder, through its overall
    file (whose ``post`` is the path); each post's verdict goes into ``verdicts`` (MISSING
    without a gate-2 card) and a card without its ``ungrounded`` list into ``problems``."""
    for overall_path in sorted(cards.glob("*-overall.json")):
        overall = json.loads(overall_path.read_text(encoding="utf-8"))
        post = str(overall["post"])
        stem = overall_path.name.removesuffix("-overall.json")
        card_path = cards / f"{stem}-gate2-{precision.GATES[2]}.json"
        if not card_path.is_file():
            verdicts[post] = "MISSING"
            continue
        card = json.loads(card_path.read_text(encoding="utf-8"))
        verdicts[post] = str(card.get("verdict"))
        detail = card.get("detail") or {}
        if verdicts[post] in ("PASS", "FAIL") and "ungrounded" not in detail:
            problems.append(f"{card_path.name}: no 'ungrounded' list in detail")
        yield post, detail


def rules_named(item: dict[str, Any]) -> list[str]:
    """The rules a card's outcome names: its ``rule`` ("-" for none), and for a near miss
    the way it is near too (``(near-word-added)`` ending its reason: evidence/near_miss.py),
    so that a way's tokens are counted as decided by it (bench/ablation.py)."""
    way = re.search(r"\((near-[a-z-]+)\)$", str(item.get("reason") or ""))
    return [str(item.get("rule") or "-"), *([way.group(1)] if way else [])]


def read_cards(cards: Path, files: Sequence[str]) -> HoldoutRun:
    """Gate 2's findings per post, through each overall file (its ``post`` is the path)."""
    run = HoldoutRun()
    for post, detail in gate2_cards(cards, run.verdicts, run.problems):
        run.ungrounded += precision.card_findings(2, post, detail)
        outcomes = detail.get("outcomes") or {}
        for items in [detail.get("ungrounded", []), *outcomes.values()]:
            run.decided_by_rule.update(r for item in items for r in rules_named(item))
        for outcome in CLEARING_OUTCOMES:
            for item in (detail.get("outcomes") or {}).get(outcome, []):
                if item.get("rule") in ATTRIBUTION_RULES:
                    extra = {**item, "outcome": outcome}
                    run.cleared.append(
                        precision.Finding(2, post, int(item.get("line", 0)), str(item["token"]),
                                          "", extra)
                    )  # fmt: skip
    # Two files of one base name share a scorecard name: the later overwrites the earlier.
    missing = sorted(set(files) - set(run.verdicts))
    run.problems += [f"{path}: no scorecard (a base name shared with another file?)"
                     for path in missing]  # fmt: skip
    return run


def run_gate2(
    repo: Path,
    ref: str,
    files: Sequence[str],
    scratch: Path,
    whole_folder: bool = False,
    keep: Path | None = None,
    settings: Sequence[str] = (),
) -> HoldoutRun:
    site = prepare_site(repo, ref, files, scratch, settings)
    cards = keep or scratch / "cards"
    # Thousands of file arguments make pytest's collection quadratic (each argument walks
    # its parents again): the whole folder is one argument.
    targets = [DOCS] if whole_folder else list(files)
    command = [
        sys.executable, "-m", "pytest", *targets,
        f"--rootdir={site}", f"--postgates-repo={site}", "--postgates-ref=holdout-ref",
        "--postgates-offline", "--postgates-all", "--postgates-only=2",
        f"--postgates-scorecards={cards}",
        "-p", "no:cacheprovider", "-p", "no:randomly", "-q", "--tb=no", "--no-header",
    ]  # fmt: skip
    env = {**os.environ, "XDG_CACHE_HOME": str(scratch / "xdg-cache"), "PYTEST_ADDOPTS": ""}
    done = subprocess.run(command, cwd=site, env=env, capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1):
        sys.exit(
            f"holdout_precision: pytest exited {done.returncode}\n"
            f"{done.stdout[-3000:]}{done.stderr[-3000:]}"
        )
    return read_cards(cards, files)


def _label_counts(pairs: Sequence[tuple[precision.Finding, dict[str, Any]]]) -> dict[str, int]:
    counts = {value: 0 for value in precision.LABEL_VALUES}
    for _finding, label in pairs:
        counts[label["label"]] += 1
    return counts


def _classes(
    pairs: Sequence[tuple[precision.Finding, dict[str, Any]]], value: str
) -> dict[str, int]:
    counts: dict[str, int] = {}
    for _finding, label in pairs:
        if label["label"] == value:
            cls = str(label.get("class", "?"))
            counts[cls] = counts.get(cls, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def split_labels(labels: Sequence[dict[str, Any]]) -> tuple[list[dict[str, Any]], ...]:
    """Labels of `ungrounded` findings and labels of attribution-rule decisions."""
    flagged = [lab for lab in labels if lab.get("set", "ungrounded") == "ungrounded"]
    cleared = [lab for lab in labels if lab.get("set") == "attribution"]
    return flagged, cleared


def sample_key(seed: int, post: str, line: int, token: str) -> float:
    """A number in [0, 1) fixed by the seed and the finding alone (BLAKE2b keyed by the
    seed): the finding's place in the keyed sample."""
    digest = hashlib.blake2b(
        f"{post}\0{line}\0{token}".encode("utf-8", "surrogateescape"),
        key=str(seed).encode(),
        digest_size=8,
    ).digest()
    return int.from_bytes(digest, "big") / 2**64


def keyed_sample(
    findings: Sequence[precision.Finding], seed: int, rate: float = SAMPLE_RATE
) -> list[precision.Finding]:
    """The findings whose keyed hash falls below ``rate``, in hash order. A token written
    on two lines of one post is two findings, each with its own draw."""
    keyed: list[tuple[float, precision.Finding]] = []
    for finding in findings:
        value = sample_key(seed, finding.post, finding.line, finding.key)
        if value < rate:
            keyed.append((value, finding))
    return [finding for _value, finding in sorted(keyed, key=lambda pair: pair[0])]


def wilson(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float] | None:
    """The 95% Wilson score interval of a proportion (None with no trials)."""
    if trials <= 0:
        return None
    p = successes / trials
    centre = p + z * z / (2 * trials)
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    denominator = 1 + z * z / trials
    return (max(0.0, (centre - spread) / denominator), min(1.0, (centre + spread) / denominator))


def sample_figures(
    findings: Sequence[precision.Finding], result: precision.Match, seed: int, rate: float
) -> dict[str, Any]:
    """The keyed sample of the run's findings and its label counts; the sample's findings
    no label matches are listed (they must be labelled before the figure means anything)."""
    label_of = {id(finding): label["label"] for finding, label in result.pairs}
    counts = {value: 0 for value in precision.LABEL_VALUES}
    drawn = keyed_sample(findings, seed, rate)
    missing: list[str] = []
    for finding in drawn:
        if id(finding) in label_of:
            counts[label_of[id(finding)]] += 1
        else:
            missing.append(f"{finding.post}:{finding.line} {finding.key!r}")
    judged = counts["defect"] + counts["false"]
    return {
        "rate": rate,
        "size": len(drawn),
        **counts,
        "unlabelled": missing,
        "precision": counts["defect"] / judged if judged else None,
        "wilson": wilson(counts["defect"], judged),
    }


def summary(
    run: HoldoutRun,
    labels: Sequence[dict[str, Any]],
    seed: int = SEED,
    rate: float = SAMPLE_RATE,
) -> dict[str, Any]:
    flagged_labels, cleared_labels = split_labels(labels)
    flagged = precision.match(run.ungrounded, flagged_labels, 2)
    cleared = precision.match(run.cleared, cleared_labels, 2)
    fc, cc = _label_counts(flagged.pairs), _label_counts(cleared.pairs)
    judged = fc["defect"] + fc["false"]
    by_rule: dict[str, dict[str, int]] = {}
    for finding in run.cleared:
        by_rule.setdefault(str(finding.extra.get("rule")), {"tokens": 0})["tokens"] += 1
    for finding, label in cleared.pairs:
        entry = by_rule[str(finding.extra.get("rule"))]
        entry[label["label"]] = entry.get(label["label"], 0) + 1
    gate_run = precision.GateRun(2, dict(run.verdicts), list(run.ungrounded))
    failures = precision.false_failures(gate_run, flagged)
    return {
        "files": len(run.verdicts),
        "failing_without_defect": failures.without_defect,
        "failing_undecided": failures.undecided,
        "failing": sum(v == "FAIL" for v in run.verdicts.values()),
        "not_judged": sum(v not in ("PASS", "FAIL") for v in run.verdicts.values()),
        "ungrounded": len(run.ungrounded),
        "labelled_flagged": len(flagged.pairs),
        "defect": fc["defect"],
        "false": fc["false"],
        "unsure": fc["unsure"],
        "precision": fc["defect"] / judged if judged else None,
        "precision_low": fc["defect"] / (judged + fc["unsure"]) if judged + fc["unsure"] else None,
        "precision_high": (
            (fc["defect"] + fc["unsure"]) / (judged + fc["unsure"])
            if judged + fc["unsure"]
            else None
        ),
        "wilson": wilson(fc["defect"], judged),
        "keyed_sample": sample_figures(run.ungrounded, flagged, seed, rate),
        "false_classes": _classes(flagged.pairs, "false"),
        "unsure_classes": _classes(flagged.pairs, "unsure"),
        "defect_classes": _classes(flagged.pairs, "defect"),
        "unlabelled_flagged": len(flagged.unmatched_findings),
        "stale_flagged_labels": len(flagged.unmatched_labels),
        "cleared": len(run.cleared),
        "cleared_by_rule": dict(sorted(by_rule.items())),
        "cleared_labelled": len(cleared.pairs),
        "cleared_defect": cc["defect"],
        "cleared_false": cc["false"],
        "cleared_unsure": cc["unsure"],
        "hidden_fabrications": [
            f"{f.post}:{f.line} {f.key!r} ({f.extra.get('rule')})"
            for f, lab in cleared.pairs
            if lab["label"] == "defect"
        ],
        "unlabelled_cleared": len(cleared.unmatched_findings),
        "stale_cleared_labels": len(cleared.unmatched_labels),
        "problems": run.problems,
        "decided_by_rule": dict(run.decided_by_rule.most_common()),
        "every_finding": every_finding(flagged),
    }


def every_finding(flagged: precision.Match) -> list[dict[str, Any]]:
    """Each finding with its label (None: no label matches it), sorted by doc and line."""
    labelled = [(finding, str(label["label"])) for finding, label in flagged.pairs]
    unlabelled = [(finding, None) for finding in flagged.unmatched_findings]
    items = [
        {"doc": f.post, "line": f.line, "token": f.key,
         "rule": str(f.extra.get("rule") or ""), "label": label}
        for f, label in [*labelled, *unlabelled]
    ]  # fmt: skip
    return sorted(items, key=lambda item: (item["doc"], item["line"], item["token"]))


def _interval(bounds: Sequence[float] | None) -> str:
    return "n/a" if bounds is None else f"{100 * bounds[0]:.1f}%..{100 * bounds[1]:.1f}%"


def _sample_lines(sample: dict[str, Any], seed: int) -> list[str]:
    pct = precision._pct
    judged = sample["defect"] + sample["false"]
    lines = [
        f"      keyed sample         {sample['size']} (each finding drawn at rate"
        f" {100 * sample['rate']:g}% by a hash keyed with seed {seed}: defect"
        f" {sample['defect']}, false {sample['false']}, unsure {sample['unsure']},"
        f" unlabelled {len(sample['unlabelled'])})",
        f"      sample precision     {pct(sample['precision'])} ({sample['defect']} / {judged});"
        f" 95% Wilson interval {_interval(sample['wilson'])}",
    ]
    if sample["unlabelled"]:
        lines.append("      LABEL THESE (sample findings no label matches):")
        lines += [f"        {item}" for item in sample["unlabelled"]]
    return lines


def report(data: dict[str, Any], ref: str, seed: int) -> str:
    pct = precision._pct
    lines = [
        f"gate 2 symbol_grounding on NeuroLink docs/ at {ref} (held out; files drawn with"
        f" seed {seed})",
        f"  files judged / failing   {data['files'] - data['not_judged']} / {data['failing']}"
        + (f"  (not judged: {data['not_judged']})" if data["not_judged"] else ""),
        f"  files failing without a real defect  {len(data['failing_without_defect'])}"
        f" (and {len(data['failing_undecided'])} on unsure or unlabelled findings only)",
        *(f"    no defect: {post}" for post in data["failing_without_defect"]),
        *(f"    undecided: {post}" for post in data["failing_undecided"]),
        f"  (a) ungrounded findings  {data['ungrounded']}",
        f"      labelled, flagged    {data['labelled_flagged']}  (defect {data['defect']},"
        f" false {data['false']}, unsure {data['unsure']})",
        f"      precision            {pct(data['precision'])}  (defects / labelled flagged;"
        f" unsure as false..defect: {pct(data['precision_low'])}..{pct(data['precision_high'])})",
        f"      95% Wilson interval  {_interval(data['wilson'])}",
        *_sample_lines(data["keyed_sample"], seed),
        "      false by class       "
        + (", ".join(f"{c} {n}" for c, n in data["false_classes"].items()) or "none"),
        "      unsure by class      "
        + (", ".join(f"{c} {n}" for c, n in data["unsure_classes"].items()) or "none"),
        "      defects by class     "
        + (", ".join(f"{c} {n}" for c, n in data["defect_classes"].items()) or "none"),
        f"      unlabelled {data['unlabelled_flagged']}; labels matching no finding"
        f" {data['stale_flagged_labels']}",
        f"  (b) tokens an attribution rule decided  {data['cleared']}",
        "      by rule              "
        + (
            ", ".join(
                f"{rule} {entry['tokens']}"
                + "".join(f" {v}:{entry[v]}" for v in precision.LABEL_VALUES if entry.get(v))
                for rule, entry in data["cleared_by_rule"].items()
            )
            or "none"
        ),
        f"      labelled             {data['cleared_labelled']}  (false {data['cleared_false']},"
        f" unsure {data['cleared_unsure']}, defect {data['cleared_defect']})",
        f"      fabrications hidden  {data['cleared_defect']}"
        + ("  <- A RULE HID A LABELLED DEFECT" if data["cleared_defect"] else ""),
        *(f"        {item}" for item in data["hidden_fabrications"]),
        f"      unlabelled {data['unlabelled_cleared']}; labels matching no decision"
        f" {data['stale_cleared_labels']}",
    ]
    lines += [f"  WARNING {problem}" for problem in data["problems"][:5]]
    if len(data["problems"]) > 5:
        lines.append(f"  WARNING ... and {len(data['problems']) - 5} more")
    return "\n".join(lines)


def write_order(run: HoldoutRun, out: Path, seed: int) -> None:
    """Both sets in sample order with their rank (what the labels follow)."""
    with out.open("w", encoding="utf-8") as handle:
        for name, findings in (("ungrounded", run.ungrounded), ("attribution", run.cleared)):
            for rank, finding in enumerate(sample_order(findings, seed), 1):
                record = {"set": name, "rank": rank, "post": finding.post,
                          "line": finding.line, "token": finding.key, **finding.extra}  # fmt: skip
                handle.write(json.dumps(record, ensure_ascii=False) + "\n")


def write_unlabelled(
    run: HoldoutRun, labels: Sequence[dict[str, Any]], out: Path, seed: int, rate: float
) -> None:
    """What no label matches: findings (``in_sample`` says whether the keyed sample holds
    them) and attribution decisions, for labelling by the file's rules."""
    flagged_labels, cleared_labels = split_labels(labels)
    drawn = {id(f) for f in keyed_sample(run.ungrounded, seed, rate)}
    with out.open("w", encoding="utf-8") as handle:
        for name, findings, set_labels in (
            ("ungrounded", run.ungrounded, flagged_labels),
            ("attribution", run.cleared, cleared_labels),
        ):
            for finding in precision.match(findings, set_labels, 2).unmatched_findings:
                record = {"set": name, "in_sample": id(finding) in drawn, "post": finding.post,
                          "line": finding.line, "token": finding.key, **finding.extra}  # fmt: skip
                handle.write(json.dumps(record, ensure_ascii=False) + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", help=f"NeuroLink git repository (default: ${precision.REPO_ENV})")
    parser.add_argument("--ref", default=precision.DEFAULT_REF)
    parser.add_argument(
        "--files", type=int, default=DEFAULT_FILES, help="docs files to draw (0: every docs file)"
    )
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument(
        "--sample-rate", type=float, default=SAMPLE_RATE, help="share of findings sampled"
    )
    parser.add_argument(
        "--unlabelled", type=Path, help="write the findings and decisions no label matches (JSONL)"
    )
    parser.add_argument("--labels", type=Path, default=LABELS)
    parser.add_argument("--order", type=Path, help="write both sets in sample order (JSONL)")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON")
    parser.add_argument("--results", type=Path, help="write the figures for the docs here")
    parser.add_argument("--keep-cards", type=Path, help="keep the run's scorecards in this folder")
    parser.add_argument(
        "--set", action="append", default=[], metavar="KEY=VALUE",
        help="add KEY = VALUE to the site's [tool.postgates] (an ablation's rule off)",
    )  # fmt: skip
    parser.add_argument(
        "--from-cards",
        type=Path,
        help="score a --keep-cards folder again (after labelling) instead of running gate 2",
    )
    args = parser.parse_args(argv)
    repo_arg = args.repo or os.environ.get(precision.REPO_ENV)
    if not repo_arg:
        sys.exit(f"holdout_precision: pass --repo PATH or set {precision.REPO_ENV}")
    repo = Path(repo_arg)
    record = _results_run(args, repo)
    listed = docs_files(repo, args.ref)
    files = sample_files(listed, args.files, args.seed) if args.files > 0 else listed
    if args.from_cards:
        run = read_cards(args.from_cards, files)
    else:
        with tempfile.TemporaryDirectory(prefix="postgates-holdout-") as scratch:
            run = run_gate2(
                repo, args.ref, files, Path(scratch), args.files <= 0, args.keep_cards,
                settings_lines(args.set),
            )  # fmt: skip
    # Read after the run: labels written while gate 2 ran count.
    labels = precision.load_labels(args.labels) if args.labels.is_file() else []
    data = summary(run, labels, args.seed, args.sample_rate)
    drawn = f"{len(files)} docs files drawn" if args.files > 0 else f"all {len(files)} docs files"
    print(f"{drawn}; repo {repo} at {args.ref}")
    print(report(data, args.ref, args.seed))
    if args.order:
        write_order(run, args.order, args.seed)
        print(f"sample order written to {args.order}")
    if args.unlabelled:
        write_unlabelled(run, labels, args.unlabelled, args.seed, args.sample_rate)
        print(f"unlabelled findings and decisions written to {args.unlabelled}")
    if args.json:
        args.json.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    if record is not None and args.results:
        record_figures(record, data)
        record.write(args.results)
    return 0


def settings_lines(pairs: Sequence[str]) -> list[str]:
    """``key = value`` lines of ``--set KEY=VALUE`` arguments (the value as TOML)."""
    return [f"{key.strip()} = {value.strip()}" for key, value in (p.split("=", 1) for p in pairs)]


def _results_run(args: argparse.Namespace, repo: Path) -> Any:
    """The results record of this run (bench/results_json.py), started before the work."""
    if not args.results:
        return None
    sys.path.insert(0, str(HERE.parent))
    from bench.results_json import Run

    return Run(
        "holdout_precision",
        {"repo": str(repo), "ref": args.ref, "files": args.files, "seed": args.seed,
         "sample_rate": args.sample_rate, "labels": args.labels.name,
         "from_cards": bool(args.from_cards), "settings_added": settings_lines(args.set)},
    )  # fmt: skip


def record_figures(record: Any, data: dict[str, Any]) -> None:
    """Precision over every labelled finding of the run and over the keyed sample, with
    bounds (unsure as false and as defect) and 95% Wilson intervals."""

    def percent(value: float | None) -> float | None:
        return None if value is None else round(100 * value, 1)

    record.notes.append(
        f"{data['files']} docs files, {data['failing']} failing gate 2, "
        f"{len(data['failing_without_defect'])} of them without a labelled defect"
    )
    rows = record.table(
        "Gate 2 on NeuroLink's docs folder against the held-out labels",
        [{"name": "findings", "kind": "label"},
         {"name": "findings", "kind": "figure"},
         {"name": "labelled", "kind": "figure"},
         {"name": "defect", "kind": "figure"},
         {"name": "false", "kind": "figure"},
         {"name": "unsure", "kind": "figure"},
         {"name": "precision", "kind": "figure", "unit": "%"},
         {"name": "95% Wilson low", "kind": "figure", "unit": "%"},
         {"name": "95% Wilson high", "kind": "figure", "unit": "%"}],
    )  # fmt: skip
    low, high = data["wilson"] or (None, None)
    rows.append(
        ["every finding of the run", data["ungrounded"], data["labelled_flagged"],
         data["defect"], data["false"], data["unsure"], percent(data["precision"]),
         percent(low), percent(high)]
    )  # fmt: skip
    sample = data["keyed_sample"]
    low, high = sample["wilson"] or (None, None)
    rows.append(
        [f"keyed sample ({percent(sample['rate'])}%)", sample["size"],
         sample["defect"] + sample["false"] + sample["unsure"], sample["defect"],
         sample["false"], sample["unsure"], percent(sample["precision"]), percent(low),
         percent(high)]
    )  # fmt: skip


if __name__ == "__main__":
    raise SystemExit(main())
