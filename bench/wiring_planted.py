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

Beside the posts' own lines (few: a post verifies a handful of claims), it writes claims
generated from the model into one extra post, ``generated-claims.md``, and plants into them
the same way (so the share is over 100+ plants): for a seeded sample of the product's
functions `X` with a direct call to a function `Y` (both the only function of their
name, camelCase or snake_case), "`X()` calls `Y()`." and a mermaid edge `X() --> Y()`;
for the functions declaring ``Promise<T>`` with `T` a product class or interface,
"`X()` returns a `Promise<T>`.", planted as ``return-change``: `T` replaced by another
product type, drawn the same way, that `X`'s declared return type does not name. A
generated claim gate 16 does not verify unplanted is reported with the control and gets
no plants. ``--repo``/``--posts`` may name any project (a docs folder for posts): the
same measurement held out on code it was never tuned on.

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
        [--seed 20261204] [--generated 60] [--cpu] [--json bench/results/wiring_planted.json]

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
# A name a writer would not take for a word: camelCase, or snake_case of two or more
# words (Python's), without digits (gate 13's mermaid detector reads no digit in a label).
_CAMEL = re.compile(r"^[a-z][a-z0-9]*[A-Z][A-Za-z0-9]{2,}$|^[a-z]{2,}(?:_[a-z]{2,})+$")
_EDGE = re.compile(r"^(\s*)(.+?)(\s*-->\s*)(.+?)(;?)\s*$")
_DEFAULT_CPU_GATES = (1, 2, 14, 15, 7, 6, 12, 11, 13, 16)
GENERATED = "generated-claims.md"
_PROMISE_OF = re.compile(r"^Promise<([A-Z][A-Za-z0-9]+)>$")
_IDENT = re.compile(r"[A-Za-z_$][\w$]*")


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
    """Product function names a plant may use: camelCase or snake_case, the only function
    of the name, not in built JavaScript (a bundle's functions are not the product's own)."""
    graph = model.call_graph
    names = [
        name
        for name, functions in graph.by_name.items()
        if len(functions) == 1
        and _CAMEL.match(name)
        and not functions[0].path.endswith((".js", ".cjs", ".mjs"))
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
    paths: dict[str, Path],
    model: Any,
    source: Source,
    seed: int,
    per_claim: int,
) -> list[Plant]:
    """Up to ``per_claim`` swaps (different wrong callees or types) per verified claim, and
    one reversal per verified two-node edge."""
    rng = random.Random(seed)
    pool = _candidates(model)
    types = _type_pool(model)
    made: list[Plant] = []
    for name in sorted(cards):
        lines = paths[name].read_text(encoding="utf-8").split("\n")
        for claim in cards[name]["detail"].get("claims", []):
            if claim["verdict"] != "verified" or "subject" not in claim:
                continue
            text = lines[claim["line"] - 1]
            if claim["code"] == "RETURN_TYPE":
                made += _return_plants(name, claim, text, model, types, per_claim, rng)
                continue
            if claim["code"] not in ("MERMAID_EDGE", "CALLS", "CALL_DIRECTION"):
                continue
            left, right = _split(claim["subject"])
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


def _type_pool(model: Any) -> list[str]:
    """Product class and interface names a changed return type may use."""
    return sorted(name for name in model.classes if re.fullmatch(r"[A-Z][A-Za-z0-9]{3,}", name))


def _return_plants(
    name: str,
    claim: dict[str, Any],
    text: str,
    model: Any,
    types: list[str],
    per_claim: int,
    rng: random.Random,
) -> list[Plant]:
    """A verified "`X` returns a `T`" with the last type name of `T` replaced by another
    product type that X's declared return type does not name."""
    who, _, says = claim["subject"].partition(": ")
    names = [n for n in _IDENT.findall(says) if n != "Promise"]
    if not names:
        return []
    old = names[-1]
    spot = text.rfind(old, 0, text.rfind(says) + len(says)) if says in text else -1
    if spot < 0:
        return []
    graph = model.call_graph
    short = who.rstrip("()").rsplit(".", 1)[-1]
    declared = {n for f in graph.named(short) for n in _IDENT.findall(f.returns)}
    made: list[Plant] = []
    for _round in range(per_claim):
        for _attempt in range(200):
            wrong = rng.choice(types)
            if wrong not in declared and wrong not in says:
                break
        else:
            break
        declared.add(wrong)  # a different type each round
        planted = text[:spot] + wrong + text[spot + len(old) :]
        cut = says.rfind(old)
        subject = f"{who}: {says[:cut]}{wrong}{says[cut + len(old) :]}"
        made.append(Plant("return-change", name, claim["line"], text, planted, subject))
    return made


def generated_post(model: Any, seed: int, count: int) -> str:
    """A post of claims drawn from the model with a seeded generator (see the module doc):
    up to ``count`` call claims, the same pairs as mermaid edges, and up to ``count``
    return-type claims."""
    graph = model.call_graph
    rng = random.Random(seed)
    unique = set(_candidates(model))
    pairs: list[tuple[str, str]] = []
    returns: list[tuple[str, str]] = []
    for function in sorted(graph.by_qualname.values(), key=lambda f: f.qualname):
        if function.name not in unique or not function.complete:
            continue
        callees = sorted(
            {
                graph.by_qualname[call.target].name
                for call in function.calls
                if call.kind == "resolved" and call.target in graph.by_qualname
            }
            & unique - {function.name}
        )
        if callees:
            pairs.append((function.name, rng.choice(callees)))
        promised = _PROMISE_OF.match(function.returns.replace(" ", ""))
        if promised and promised.group(1) in model.classes:
            returns.append((function.name, function.returns.replace(" ", "")))
    pairs = rng.sample(pairs, min(count, len(pairs)))
    returns = rng.sample(returns, min(count, len(returns)))
    lines = ["---", "layout: post", "title: Generated wiring claims", "date: 2026-01-01", "---"]
    for caller, called in pairs:
        lines += ["", f"`{caller}()` calls `{called}()`."]
    for function_name, declared in returns:
        lines += ["", f"`{function_name}()` returns a `{declared}`."]
    lines += ["", "```mermaid", "flowchart TD"]
    for number, (caller, called) in enumerate(pairs):
        lines.append(f'    N{number}A["{caller}()"] --> N{number}B["{called}()"]')
    lines += ["```", ""]
    return "\n".join(lines)


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


def judge_plants(
    made: list[Plant], paths: dict[str, Path], context: Any
) -> list[tuple[Plant, str, str]]:
    from pytest_postgates.gates import BY_ID
    from pytest_postgates.post import parse_post

    results: list[tuple[Plant, str, str]] = []
    with tempfile.TemporaryDirectory() as scratch:
        for number, plant in enumerate(made):
            lines = paths[plant.post].read_text(encoding="utf-8").split("\n")
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
    parser.add_argument(
        "--generated", type=int, default=60, help="call and return claims drawn from the model"
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
        written = Path(cache) / GENERATED
        written.write_text(generated_post(model, args.seed, args.generated), encoding="utf-8")
        generated = _gate16_cards([written], context)
        by_name = {p.name: p for p in [*paths, written]}
        made = plants({**cards, **generated}, by_name, model, source, args.seed, args.per_claim)
        results = judge_plants(made, by_name, context)
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
    _generated_control(generated[GENERATED]["detail"]["claims"])
    by_kind: dict[str, Counter[str]] = {}
    # A swap whose new callee the caller does reach, through calls the gate lists with
    # their lines, is no wrong wiring, nor a reversed edge whose source does call its
    # target (mutual calls), nor an edge whose two ends a function runs in that order (a
    # flow's arrow, by the labelling rules): reported, and left out of the share. A
    # verification that matched a call by its name only proves nothing and stays a miss.
    # An edge left unjudged because only a function the diagram does not draw runs its two
    # ends in order is such an edge too (the gate no longer verifies it, the rules still
    # call it no wrong wiring).
    true_paths = [
        r
        for r in results
        if (r[1] == "verified" and "matched by name" not in r[2])
        or (r[1] == "unjudged" and "in sequence only where" in r[2])
    ]
    for plant, _verdict, evidence in true_paths:
        where = f"{plant.post}:{plant.line}"
        how = (
            "run in that order"
            if evidence.startswith("in sequence") or "in sequence only where" in evidence
            else "through a path"
            if evidence.startswith("through ")
            else "a direct call"
        )
        print(f"  not wrong ({how}) {where} {plant.subject}: {evidence[:200]}")
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
         "per_claim": args.per_claim, "generated": args.generated},
    )  # fmt: skip


def _generated_control(claims: list[dict[str, Any]]) -> None:
    """The claims drawn from the model, unplanted: all true by construction, so each one
    gate 16 does not verify is listed (a contradicted one is a false finding)."""
    read = [c for c in claims if "subject" in c]
    tally = Counter(c["verdict"] for c in read)
    print(
        f"generated control: {tally['verified']}/{len(read)} verified, "
        f"{tally['contradicted']} contradicted, {tally['unjudged']} unjudged"
    )
    for claim in read:
        if claim["verdict"] != "verified":
            print(
                f"  generated {claim['verdict']} {claim['code']} {claim['subject']}: "
                f"{claim['evidence'][:200]}"
            )


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
