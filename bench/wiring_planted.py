"""Planted wiring: gate 16's share of wrong call claims contradicted, on real posts.

Runs gate 16 (``wiring_claims``) on the NeuroLink blog posts against the NeuroLink
repository at ``--ref``, then takes the claims it verifies and plants wrong wiring into a
copy of the post, one plant per copy:

- ``call-swap``: a verified "`X` calls `Y`" whose `Y` is replaced by a real product
  function `Z` that `X` does not call: `Z`'s name is written in none of the files that
  define `X` (checked on the source text at the ref, not with the call graph), `Z` is the
  only function of its name, and it is drawn with a seeded generator;
- ``edge-rewire``: a verified mermaid edge `A --> B` whose `B` is replaced the same way;
- ``edge-reverse``: a verified two-node mermaid edge `A --> B` written `B --> A`.

It prints, per kind and in total, the share of plants whose claim gate 16 marks
``contradicted`` (the target is >= 95%), the misses with their verdict and evidence, and
beside it the unplanted control: the claims gate 16 contradicts in the original posts.
A reversed edge can be true as well (B may call A): such a plant is reported as a miss
with the gate's evidence, never dropped. A swapped callee the caller reaches through other
calls (the gate verifies it "through N calls", each hop with its file and line) is no wrong
wiring: it is listed and left out of the share.

With ``--cpu`` it also runs a cold, serial run of every offline gate over the same posts
(bench/gate_cold_speed.py's child, gate 1 with one mermaid engine) and prints gate 16's
share of that run's CPU.

    python bench/wiring_planted.py [--repo PATH] [--ref release] [--posts DIR]
        [--seed 20261204] [--cpu] [--json bench/results/wiring_planted.json]

``--json OUT`` also writes the figures for the docs (bench/results_json.py): the share
contradicted per kind beside the unplanted control.

``--repo`` defaults to $POSTGATES_NEUROLINK, ``--posts`` to $POSTGATES_NEUROLINK_BLOG.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
LABELS = HERE / "labels" / "gate16.jsonl"
DEFAULT_SEED = 20261204
_CAMEL = re.compile(r"^[a-z][a-z0-9]*[A-Z][A-Za-z0-9]{2,}$")
_EDGE = re.compile(r"^(\s*)(.+?)(\s*-->\s*)(.+?)(;?)\s*$")
_DEFAULT_CPU_GATES = (1, 2, 14, 15, 7, 6, 12, 11, 13, 16)


@dataclass(frozen=True)
class Plant:
    kind: str
    post: str  # file name
    line: int
    original: str  # the line as written
    planted: str  # the line with the wrong wiring
    subject: str  # the planted claim's subject as gate 16 reads it ("X -> Z")


def _git_show(repo: Path, ref: str, path: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), "show", f"{ref}:{path}"], capture_output=True, check=False
    )
    return done.stdout.decode("utf-8", "replace")


class Source:
    """The product's files at the ref, read when first asked."""

    def __init__(self, repo: Path, ref: str) -> None:
        self.repo, self.ref = repo, ref
        self._texts: dict[str, str] = {}

    def text(self, path: str) -> str:
        if path not in self._texts:
            self._texts[path] = _git_show(self.repo, self.ref, path)
        return self._texts[path]


def _context(repo: Path, ref: str, cache: Path) -> Any:
    from pytest_postgates.config import Settings
    from pytest_postgates.gates import GateContext

    return GateContext.create(Settings(repo=repo, ref=ref, offline=True, run_all=True), cache)


def _gate16_cards(paths: list[Path], context: Any) -> dict[str, dict[str, Any]]:
    from pytest_postgates.gates import BY_ID
    from pytest_postgates.post import parse_post

    return {p.name: BY_ID[16].evaluate(parse_post(p), context).to_dict() for p in paths}


def _split(subject: str) -> tuple[str, str]:
    left, _, right = subject.partition(" -> ")
    return left, right


def _written_like(original: str, name: str) -> str:
    """``name`` written the way the claim wrote the name it replaces (with ``()`` or not)."""
    return f"{name}()" if "(" in original else name


def _candidates(model: Any) -> list[str]:
    """Product function names a plant may use: camelCase, the only function of the name."""
    graph = model.call_graph
    names = [
        name
        for name, functions in graph.by_name.items()
        if len(functions) == 1 and _CAMEL.match(name) and not functions[0].path.endswith(".js")
    ]
    return sorted(names)


def _wrong_callee(
    model: Any, source: Source, caller: str, avoid: set[str], pool: list[str], rng: random.Random
) -> str | None:
    """A real function the caller does not call: its name written in none of the files
    that define the caller (the source text decides, not the call graph)."""
    from pytest_postgates.helpers.wiring_subjects import subject

    who = subject(caller)
    if who is None:
        return None
    graph = model.call_graph
    functions = graph.named(who.name, who.owner) or graph.named(who.name)
    if not functions and who.name in model.classes:
        functions = graph.methods_of(who.name)
    if not functions:
        return None
    texts = [source.text(path) for path in {f.path for f in functions}]
    for _attempt in range(200):
        name = rng.choice(pool)
        if name in avoid:
            continue
        if any(re.search(rf"(?<![\w$]){re.escape(name)}(?![\w$])", t) for t in texts):
            continue
        return name
    return None


def plants(
    cards: dict[str, dict[str, Any]],
    posts: Path,
    model: Any,
    source: Source,
    seed: int,
    per_claim: int,
) -> list[Plant]:
    """Up to ``per_claim`` swaps (different wrong callees) per verified claim, and one
    reversal per verified two-node edge."""
    rng = random.Random(seed)
    pool = _candidates(model)
    made: list[Plant] = []
    for name in sorted(cards):
        lines = (posts / name).read_text(encoding="utf-8").split("\n")
        for claim in cards[name]["detail"].get("claims", []):
            if claim["verdict"] != "verified" or "subject" not in claim:
                continue
            left, right = _split(claim["subject"])
            text = lines[claim["line"] - 1]
            avoid = {left, right}
            for round_ in range(per_claim):
                if claim["code"] == "MERMAID_EDGE":
                    found = _edge_plants(
                        name, claim["line"], text, left, right, model, source, avoid, pool, rng
                    )
                    # The reversal is the same plant each round: made once.
                    made += [p for p in found if p.kind != "edge-reverse" or round_ == 0]
                    avoid |= {_split(p.subject)[1] for p in found}
                    continue
                at = text.find(f"`{left}`")
                spot = text.find(f"`{right}`", at + 1 if at >= 0 else 0)
                wrong = _wrong_callee(model, source, left, avoid, pool, rng)
                if spot < 0 or wrong is None:
                    break
                avoid.add(wrong)
                written = _written_like(right, wrong)
                planted = text[:spot] + f"`{written}`" + text[spot + len(right) + 2 :]
                subject = f"{left} -> {written}"
                made.append(Plant("call-swap", name, claim["line"], text, planted, subject))
    return made


def _edge_plants(
    name: str,
    line: int,
    text: str,
    left: str,
    right: str,
    model: Any,
    source: Source,
    avoid: set[str],
    pool: list[str],
    rng: random.Random,
) -> list[Plant]:
    made: list[Plant] = []
    arrow = text.find("-->")
    spot = text.find(right, arrow) if arrow >= 0 else -1
    wrong = _wrong_callee(model, source, left, avoid, pool, rng)
    if spot >= 0 and wrong is not None:
        written = _written_like(right, wrong)
        planted = text[:spot] + written + text[spot + len(right) :]
        made.append(Plant("edge-rewire", name, line, text, planted, f"{left} -> {written}"))
    edge = _EDGE.match(text)
    # A statement of two nodes and one plain arrow, written the other way round.
    two_nodes = edge is not None and "-->" not in edge.group(2) + edge.group(4)
    if edge is not None and two_nodes and "|" not in edge.group(3) + edge.group(4):
        turned = edge.group(1) + edge.group(4) + edge.group(3) + edge.group(2) + edge.group(5)
        made.append(Plant("edge-reverse", name, line, text, turned, f"{right} -> {left}"))
    return made


def judge_plants(made: list[Plant], posts: Path, context: Any) -> list[tuple[Plant, str, str]]:
    from pytest_postgates.gates import BY_ID
    from pytest_postgates.post import parse_post

    results: list[tuple[Plant, str, str]] = []
    with tempfile.TemporaryDirectory() as scratch:
        for number, plant in enumerate(made):
            lines = (posts / plant.post).read_text(encoding="utf-8").split("\n")
            assert lines[plant.line - 1] == plant.original
            lines[plant.line - 1] = plant.planted
            path = Path(scratch) / f"{number:04d}-{plant.post}"
            path.write_text("\n".join(lines), encoding="utf-8")
            card = BY_ID[16].evaluate(parse_post(path), context).to_dict()
            found = [
                c
                for c in card["detail"].get("claims", [])
                if c["line"] == plant.line and c.get("subject") == plant.subject
            ]
            if found:
                results.append((plant, found[0]["verdict"], found[0]["evidence"]))
            else:
                results.append((plant, "not read", "gate 16 read no such claim on the line"))
    return results


def cold_cpu_share(posts: Path, repo: Path, ref: str, gates: tuple[int, ...]) -> dict[int, float]:
    spec = importlib.util.spec_from_file_location("gate_cold_speed", HERE / "gate_cold_speed.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["gate_cold_speed"] = module
    spec.loader.exec_module(module)
    out = Path(tempfile.mkdtemp(prefix="wiring-cpu-cards-"))
    try:
        spent: dict[int, float] = module.run_side(None, posts, repo, ref, out, gates, 1)
    finally:
        shutil.rmtree(out, ignore_errors=True)
    return spent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", type=Path, default=os.environ.get("POSTGATES_NEUROLINK"))
    parser.add_argument("--posts", type=Path, default=os.environ.get("POSTGATES_NEUROLINK_BLOG"))
    parser.add_argument("--ref", default="release")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument(
        "--per-claim", type=int, default=3, help="wrong callees planted per verified claim"
    )
    parser.add_argument("--cpu", action="store_true", help="also measure gate 16's CPU share")
    parser.add_argument("--json", type=Path, help="write the figures for the docs here")
    args = parser.parse_args(argv)
    record = _results_run(args)
    if args.repo is None or args.posts is None or not args.posts.is_dir():
        print("needs --repo/$POSTGATES_NEUROLINK and --posts/$POSTGATES_NEUROLINK_BLOG")
        return 2
    from pytest_postgates.evidence.api_model import api_model

    paths = sorted(args.posts.glob("*.md"))
    with tempfile.TemporaryDirectory() as cache:
        context = _context(args.repo, args.ref, Path(cache))
        cards = _gate16_cards(paths, context)
        model = api_model(context.evidence.index_for(paths[0]), context.evidence.cache_dir)
        source = Source(args.repo, args.ref)
        made = plants(cards, args.posts, model, source, args.seed, args.per_claim)
        results = judge_plants(made, args.posts, context)
    counts = Counter(c["verdict"] for card in cards.values() for c in card["detail"]["claims"])
    judged = [
        (name, c)
        for name, card in sorted(cards.items())
        for c in card["detail"]["claims"]
        if "subject" in c
    ]
    print(f"{len(paths)} posts against {args.repo} at {args.ref}; seed {args.seed}")
    print(
        f"unplanted control: {counts['contradicted']} contradicted of {len(judged)} claims "
        f"whose caller and callee were read ({counts['verified']} verified; "
        f"{counts['unjudged']} claims unjudged in all)"
    )
    for name, claim in judged:
        if claim["verdict"] == "contradicted":
            print(f"  control {name}:{claim['line']} {claim['code']} {claim['subject']}")
    _labelled(judged)
    by_kind: dict[str, Counter[str]] = {}
    # A swap whose new callee the caller does reach, through calls the gate lists with
    # their lines, is no wrong wiring: reported, and left out of the share.
    true_paths = [r for r in results if r[1] == "verified" and r[2].startswith("through ")]
    for plant, _verdict, evidence in true_paths:
        where = f"{plant.post}:{plant.line}"
        print(f"  not wrong (reached through a path) {where} {plant.subject}: {evidence[:200]}")
    results = [r for r in results if r not in true_paths]
    for plant, verdict, _evidence in results:
        by_kind.setdefault(plant.kind, Counter())[verdict] += 1
    total = len(results)
    hit = sum(1 for _p, verdict, _e in results if verdict == "contradicted")
    for kind, tally in sorted(by_kind.items()):
        n = sum(tally.values())
        hits = tally["contradicted"]
        print(f"{kind:>13}: {hits}/{n} contradicted ({_pct(hits, n)})")
    claims = len({(p.post, p.line) for p, _v, _e in results})
    print(
        f"{'planted':>13}: {hit}/{total} contradicted ({_pct(hit, total)}; target >= 95%), "
        f"planted on {claims} lines holding verified claims"
    )
    for plant, verdict, evidence in results:
        if verdict != "contradicted":
            where = f"{plant.post}:{plant.line}"
            print(f"  miss {plant.kind} {where} {plant.subject}: {verdict}: {evidence[:200]}")
    if args.cpu:
        spent = cold_cpu_share(args.posts, args.repo, args.ref, _DEFAULT_CPU_GATES)
        whole = sum(spent.values())
        gates = ", ".join(map(str, _DEFAULT_CPU_GATES))
        share = _pct(spent[16], whole)
        print(f"cold serial run of gates {gates}: {whole:.2f} s CPU in all")
        print(f"gate 16: {spent[16]:.2f} s = {share} of it (target < 10%)")
    if record is not None and args.json:
        # The unplanted control (gate 16 on the original posts) beside each kind's share.
        control = [len(judged), counts["contradicted"], _share(counts["contradicted"], len(judged))]
        rows = record.table(
            "Planted wrong wiring, share gate 16 contradicts, beside the unplanted posts",
            [{"name": "kind", "kind": "label"},
             {"name": "planted", "kind": "figure"},
             {"name": "contradicted", "kind": "figure"},
             {"name": "contradicted", "kind": "figure", "unit": "%"},
             {"name": "unplanted claims read", "kind": "control"},
             {"name": "unplanted contradicted", "kind": "control"},
             {"name": "unplanted contradicted", "kind": "control", "unit": "%"}],
        )  # fmt: skip
        for kind, tally in sorted(by_kind.items()):
            n = sum(tally.values())
            rows.append(
                [kind, n, tally["contradicted"], _share(tally["contradicted"], n), *control]
            )
        rows.append(["total", total, hit, _share(hit, total), *control])
        record.notes.append(
            f"planted on {claims} lines holding verified claims; {len(true_paths)} swapped "
            "callees the caller reaches through other calls are no wrong wiring and left out; "
            f"unplanted claims: {counts['verified']} verified, {counts['unjudged']} unjudged in all"
        )
        record.write(args.json)
    return 0


def _share(part: int, whole: int) -> float | None:
    return round(100 * part / whole, 1) if whole else None


def _results_run(args: argparse.Namespace) -> Any:
    """The results record of this run (bench/results_json.py), started before the work."""
    if not args.json:
        return None
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench.results_json import Run

    return Run(
        "wiring_planted",
        {"repo": str(args.repo), "ref": args.ref, "posts": str(args.posts), "seed": args.seed,
         "per_claim": args.per_claim},
    )  # fmt: skip


def _labelled(judged: list[tuple[str, dict[str, Any]]]) -> None:
    """The control's verdicts against bench/labels/gate16.jsonl: the precision of
    `contradicted` (claims labelled false among those it contradicts) and how many
    verified claims are labelled true; claims not labelled yet are counted as such."""
    if not LABELS.is_file():
        return
    labels = {
        (row["post"], row["line"], row["subject"]): row["label"]
        for row in (json.loads(t) for t in LABELS.read_text().splitlines() if t[:1] == "{")
    }
    tally: Counter[tuple[str, str]] = Counter()
    for name, claim in judged:
        if claim["verdict"] in ("verified", "contradicted"):
            label = labels.get((name, claim["line"], claim["subject"]), "not labelled")
            tally[claim["verdict"], label] += 1
    wrong = tally["contradicted", "false"]
    contradicted = wrong + tally["contradicted", "true"]
    print(
        f"labelled control: contradicted {wrong}/{contradicted} labelled false "
        f"(precision {_pct(wrong, contradicted)}), verified "
        f"{tally['verified', 'true']}/{tally['verified', 'true'] + tally['verified', 'false']} "
        "labelled true; "
        + ", ".join(
            f"{v} {lab}: {n}"
            for (v, lab), n in sorted(tally.items())
            if lab in ("unclear", "not labelled")
        )
    )


def _pct(part: float, whole: float) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "n/a"


if __name__ == "__main__":
    sys.exit(main())
