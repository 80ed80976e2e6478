"""Gate 14's package resolution against the real Node: the conformance figure.

Asks one ``node`` process every (package, subpath, kind) case of ``tests/exports_cases.py``
(the exports cases of lukeed/resolve.exports and privatenumber/resolve-pkg-maps re-expressed
as package.json shapes, the examples of Node's packages documentation, and our own), and
asks :mod:`pytest_postgates.evidence.resolution` the same with the same files. Prints, per
import kind and per source of the cases:

- agreement now: the same target file, or the same Node error code;
- agreement before: what gate 14 at bc781c7 (before this resolver) said, as a verdict
  (it had no targets and one answer for every kind): pass exactly when Node resolves
  (``exports`` cases only: it did not resolve ``#name`` specifiers of ``imports``);
- Node's outcomes by error code, and every disagreement (``--show``).

    python bench/exports_conformance.py [--node PATH] [--show N]
    python bench/exports_conformance.py --posts ../shared/corpus/neurolink-blog/_posts \
        --repo /work/data/neurolink --ref release

With ``--posts``, also runs gate 14 itself over real posts and prints what it judged,
resolved, left unjudged and flagged. With ``--random N``, also asks Node and the resolver
about N random exports maps and N random packages without exports (random files, ``main``
fields and folder package.json files), with subpaths drawn from their keys and files:
a differential test beyond the written cases (``--seed`` picks the draw).

The same comparison is asserted by tests/test_exports_conformance.py. ``--json
bench/results/exports_conformance.json`` also writes the agreement per group and kind,
beside gate 14's at bc781c7 (the control), for the docs (bench/results_json.py).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests import exports_cases  # noqa: E402
from tests import node_resolution_oracle as oracle  # noqa: E402


def _share(agreeing: int, total: int) -> str:
    return f"{agreeing}/{total} ({100 * agreeing / total:.1f}%)" if total else "-"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--node", default=oracle.find_node(), help="node binary")
    parser.add_argument("--show", type=int, default=20, help="disagreements to list")
    parser.add_argument("--posts", type=Path, help="also run gate 14 over these posts")
    parser.add_argument("--repo", type=Path, help="the repository the posts describe")
    parser.add_argument("--ref", default="HEAD", help="the ref whose package.json counts")
    parser.add_argument("--random", type=int, default=0, help="random shapes of each family")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, help="write the figures for the docs here")
    args = parser.parse_args()
    record = _results_run(args)
    if args.posts:
        corpus(args.posts, args.repo, args.ref)
    if args.random and args.node:
        status = differential(args.node, args.random, args.seed, args.show)
        if status:
            return status
    if not args.node:
        print("node is not installed: nothing to measure against", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="postgates-exports-") as folder:
        root = Path(folder)
        files = oracle.write_fixtures(root)
        cases = oracle.all_cases()
        answers = oracle.ask_node(args.node, root, cases)
    rows: dict[tuple[str, str], list[int]] = {}  # (group, kind) -> [now, before, total]
    disagreements: list[str] = []
    for case in cases:
        kind = "import type" if case.type_only else case.kind
        source = case.fixture["source"]
        node_outcome = answers.outcomes[case]
        now = oracle.ours(case, files[case.number], answers.require_module).same_as(node_outcome)
        before = oracle.old_verdict(case, files[case.number]) == (node_outcome.code is None)
        if not now:
            disagreements.append(f"  {case.label}: node {node_outcome}")
        groups = (
            ["imports (#name)", "everything"]
            if case.internal
            else [source, "all subpaths", "everything"]
        )
        for group in groups:
            row = rows.setdefault((group, kind), [0, 0, 0])
            row[0] += now
            row[1] += before
            row[2] += 1
    fixtures = len(exports_cases.FIXTURES)
    print(f"node {answers.version} (require(esm) {'on' if answers.require_module else 'off'})")
    print(f"{len(cases)} cases over {fixtures} package.json shapes\n")
    print(f"{'cases':<18}{'kind':<13}{'agreement now':>22}{'before (bc781c7)':>26}")
    order = [
        "resolve.exports", "resolve-pkg-maps", "node-docs", "own", "all subpaths",
        "imports (#name)", "everything",
    ]  # fmt: skip
    for group in order:
        for kind in ("import", "require", "import type"):
            counts = rows.get((group, kind))
            if counts:
                agreeing, was_agreeing, total = counts
                # bc781c7 exempted "#name" specifiers: it has no "before" for them.
                was = (
                    "-"
                    if group in ("imports (#name)", "everything")
                    else _share(was_agreeing, total)
                )
                print(f"{group:<18}{kind:<13}{_share(agreeing, total):>22}{was:>26}")
    codes: dict[str, int] = {}
    for outcome in answers.outcomes.values():
        label = outcome.code or "resolved"
        codes[label] = codes.get(label, 0) + 1
    print("\nnode's outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(codes.items())))
    print(f"\ndisagreements: {len(disagreements)}")
    for line in disagreements[: args.show]:
        print(line)
    if record is not None and args.json:
        record.notes.append(
            f"node {answers.version}; {len(cases)} cases over {fixtures} package.json shapes; "
            f"{len(disagreements)} disagreements"
        )
        table = record.table(
            "The resolver against Node, beside gate 14 at bc781c7 (pass or fail only; the "
            "control)",
            [{"name": "cases", "kind": "label"},
             {"name": "kind", "kind": "label"},
             {"name": "cases", "kind": "figure"},
             {"name": "agreeing now", "kind": "figure"},
             {"name": "agreement now", "kind": "figure", "unit": "%"},
             {"name": "agreeing at bc781c7", "kind": "control"},
             {"name": "agreement at bc781c7", "kind": "control", "unit": "%"}],
        )  # fmt: skip
        for group in order:
            for kind in ("import", "require", "import type"):
                if (counts := rows.get((group, kind))) is not None:
                    agreeing, was_agreeing, total = counts
                    no_before = group in ("imports (#name)", "everything")
                    table.append(
                        [group, kind, total, agreeing, round(100 * agreeing / total, 1),
                         "not judged" if no_before else was_agreeing,
                         "not judged" if no_before else round(100 * was_agreeing / total, 1)]
                    )  # fmt: skip
        record.write(args.json)
    return 0 if not disagreements else 1


def _results_run(args: argparse.Namespace) -> Any:
    """The results record of this run (bench/results_json.py), started before the work."""
    if not args.json:
        return None
    from bench.results_json import Run

    return Run(
        "exports_conformance",
        {"node": args.node, "random": args.random, "seed": args.seed,
         "posts": str(args.posts) if args.posts else None},
    )  # fmt: skip


def differential(node: str, count: int, seed: int, show: int) -> int:
    rng = random.Random(seed)
    families = (
        ("exports maps", exports_cases.random_exports_fixture),
        ("no exports", exports_cases.random_legacy_fixture),
    )
    for family, make in families:
        fixtures = [make(rng) for _ in range(count)]
        with tempfile.TemporaryDirectory(prefix="postgates-exports-random-") as folder:
            root = Path(folder)
            files = oracle.write_fixtures(root, fixtures)
            cases = oracle.all_cases(fixtures)
            answers = oracle.ask_node(node, root, cases)
        wrong = [
            case
            for case in cases
            if not oracle.ours(case, files[case.number], answers.require_module).same_as(
                answers.outcomes[case]
            )
        ]
        resolved = sum(outcome.code is None for outcome in answers.outcomes.values())
        print(
            f"random {family} (seed {seed}): {count} packages, {len(cases)} cases, "
            f"{resolved} resolved by node, {len(wrong)} disagreements"
        )
        for case in wrong[:show]:
            shape = json.dumps(case.fixture.get("exports"))
            print(f"  {case.label}: node {answers.outcomes[case]}, exports {shape}")
        if wrong:
            return 1
    print()
    return 0


def corpus(posts: Path, repo: Path | None, ref: str) -> None:
    from pytest_postgates.config import Settings
    from pytest_postgates.gates import GateContext
    from pytest_postgates.gates import import_specifiers as gate
    from pytest_postgates.post import parse_post

    with tempfile.TemporaryDirectory(prefix="postgates-gate14-") as cache:
        context = GateContext.create(Settings(repo=repo, ref=ref, offline=True), Path(cache))
        judged = 0
        kinds: dict[str, int] = {}
        unjudged: list[str] = []
        violations: list[str] = []
        paths = sorted(posts.glob("*.md"))
        for path in paths:
            card = gate.GATE.evaluate(parse_post(path), context)
            judged += card.detail.get("judged", 0)
            for item in card.detail.get("resolved", []):
                kinds[item["kind"]] = kinds.get(item["kind"], 0) + 1
            where = path.name
            unjudged += [
                f"  {where}:{u['line']} {u['specifier']}" for u in card.detail.get("unjudged", [])
            ]
            violations += [
                f"  {where}:{v['line']} {v['kind']} {v['specifier']}: {v['code']}"
                for v in card.detail.get("violations", [])
            ]
    resolved = ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items()))
    print(f"gate 14 over {len(paths)} posts at {ref}: {judged} product specifiers judged")
    print(f"resolved: {sum(kinds.values())} ({resolved}); unjudged: {len(unjudged)}")
    print(f"violations: {len(violations)}")
    print("\n".join(violations + unjudged))
    print()


if __name__ == "__main__":
    raise SystemExit(main())
