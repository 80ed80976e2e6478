"""Planted inventions in other projects' docs: gate 2's recall on inventions held out.

bench/fabrication_recall.py plants inventions in the NeuroLink posts, the corpus gate 2
was first tuned on; its figure says nothing of other projects. This bench plants the same
kinds of invention in the docs folders of bench/docs_precision.py (``--half report``: the
held-out projects, never tuned on; ``--half tune``), at the commits pinned there, so that a
rule's worth on inventions can be measured held out (bench/ablation.py's deletion rule:
a rule that earns nothing held out goes).

Per project:

1. Gate 2 runs on the docs folder as bench/docs_precision.py runs it (the README's setup
   for a docs folder, offline, the project's installed dependencies when
   ``$POSTGATES_BENCH_DEPENDENCIES`` is set).
2. From each doc's card, the tokens the API model found in the product's code (outcome
   ``grounded``, rule ``model-found``) and the flags grounded on the product's command
   line are the real names an invention replaces, where it was written (its code span
   on its line). Shapes, drawn round robin per doc with a generator seeded by the seed,
   the project and the doc:

   - ``letter``: a letter of a real identifier changed (``open_stream`` -> ``opin_stream``);
   - ``joined``: the first word of one real name joined to the rest of another;
   - ``member`` / ``member-call``: an invented member of a real class, without and with
     call parentheses (``Client.scheduleLedger``, ``Client.scheduleLedger()``);
   - ``path``: a wrong segment in a real repository path (a path grounded on a tracked
     file; drawn from a stream of its own, at most one per doc, after the others);
   - ``flag``: a letter of a real flag of the product's command line changed
     (``--check`` -> ``--chuck``), where the flag was written.

   Every invention is checked absent from the repository at the commit with ``git grep
   -F`` (and ``ls-tree`` for paths; a member by its own name; a flag with and without
   dashes and in camelCase), as bench/fabrication_recall.py checks them.
3. At most ``--per-doc`` inventions are planted in each doc (distinct originals), and
   gate 2 runs again on the planted docs. An invention is caught when gate 2 reports it
   (``ungrounded``) on its line; anything else is a miss, listed with its outcome and the
   rule that decided it.

Printed per project and per half: inventions per shape, caught, recall; the misses by
outcome and rule; the caught ones by the rule that made them a claim (an anchor or a model
rule: what an ablation of that rule would lose). Controls: the findings of the docs that
are not inventions, unplanted and planted (planting must not move the rest of the page).

    python bench/planted_docs.py [--half report|tune|all] [--project X] [--per-doc 3]
        [--seed 20261205] [--set KEY=VALUE] [--cache DIR] [--json OUT] [--results OUT]

``--results bench/results/planted_docs.json`` writes the figures for the Benchmarks page
(bench/results_json.py): per half, recall per shape, with the control beside it.

``--set symbol_rules_off=["anchor-listed"]`` turns rules off (an ablation), as in
bench/docs_precision.py.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import docs_precision as dp  # noqa: E402
import holdout_precision as holdout  # noqa: E402
import natural_drift as nd  # noqa: E402
from fabrication_recall import (  # noqa: E402
    CLASS,
    FLAG,
    IDENT,
    PLAIN_PATH,
    Invention,
    Repository,
    camel_words,
    flag_probes,
    invented_member,
    joined,
    letter_changed,
    wrong_segment,
)
from miss_anatomy import card_entries, name_entries, where_written  # noqa: E402

DEFAULT_SEED = 20261205
DEFAULT_PER_DOC = 3
SHAPES = ("letter", "member", "path", "flag", "joined", "member-call")
# Flags of the product's command line: what grounds them (the parser the model reads, or
# the command line a file of the repository writes).
FLAG_RULES = frozenset({"flag-as-written", "model-flag", "model-cli", "model-command"})
# A path grounded on a tracked file (a card names no rule for it, only the file).
PATH_GROUNDING = "tracked-file"
# Paths are drawn from a stream of their own, one per doc at most, after the other shapes
# (added in a second version of the bench: the other shapes' draws stay as they were).
PATHS_PER_DOC = 1


@dataclass(frozen=True)
class Real:
    token: str
    kind: str
    line: int
    rule: str


@dataclass
class ProjectResult:
    project: str
    commit: str
    docs: int = 0
    planted: list[tuple[str, Invention]] = field(default_factory=list)
    # (doc, invention) -> (outcome, rule)
    outcomes: dict[tuple[str, str, int], tuple[str, str]] = field(default_factory=dict)
    other_findings: tuple[int, int] = (0, 0)  # plain, planted (inventions left out)
    # (doc, invention, line) -> gate 2's card entries of it, where it is written, the
    # card's verdict (bench/miss_anatomy.py)
    anatomy: dict[tuple[str, str, int], dict[str, Any]] = field(default_factory=dict)


def reals_of(cards: Path) -> dict[str, list[Real]]:
    """Per doc, the real names to replace: what the model found in the product's code and
    the product's flags."""
    found: dict[str, list[Real]] = defaultdict(list)
    for post, detail in holdout.gate2_cards(cards, {}, []):
        for item in (detail.get("outcomes") or {}).get("grounded", []):
            rule = str(item.get("rule") or "")
            # A repository path: grounded on a tracked file of that name (not on text).
            where = str(item.get("where") or "")
            if not rule and item.get("kind") == "path" and where not in ("", "text"):
                rule = PATH_GROUNDING
            if rule in (*FLAG_RULES, "model-found", PATH_GROUNDING):
                found[post].append(
                    Real(str(item["token"]), str(item.get("kind", "")), int(item["line"]), rule)
                )
    return found


def snake(name: str) -> str:
    """``loadEnvelope`` -> ``load_envelope``."""
    return "_".join(w.lower() for w in camel_words(name))


def joined_in_style(first: str, second: str) -> str | None:
    """Two real names joined as bench/fabrication_recall.py joins them, in the first one's
    writing: a snake_case name joins snake_case words (``retry_task`` and ``max_uses`` ->
    ``retry_uses``), never a camelCase name a Python reader would not take for the
    product's."""
    if "_" in first.strip("_") or first.islower():
        head, rest = first.strip("_").split("_"), second.strip("_").lower().split("_")
        words = [w.lower() for w in camel_words(second)] if "_" not in second else rest
        if len(words) < 2:
            return None
        return "_".join([head[0], *words[1:]])
    return joined(first, second)


def candidates(
    reals: Sequence[Real], rng: random.Random, python: bool = False, rounds: int = 4
) -> list[Invention]:
    """Inventions for one doc, shapes round robin, not yet checked against the repository;
    in a Python project an invented member is snake_case, as the language writes it."""
    names = [r for r in reals if r.rule == "model-found" and IDENT.match(r.token)]
    classes = [r for r in names if CLASS.match(r.token)]
    paths = [r for r in reals if r.rule == "model-found" and "/" in r.token]
    paths = [r for r in paths if PLAIN_PATH.match(r.token) and "." in r.token.rsplit("/", 1)[-1]]
    flags = [r for r in reals if r.rule in FLAG_RULES and FLAG.match(r.token)]
    made: list[Invention] = []
    for _round in range(rounds):
        for shape in SHAPES:
            real: Real | None = None
            text: str | None = None
            probes: tuple[str, ...] = ()
            if shape == "letter" and names:
                real = rng.choice(names)
                text = letter_changed(real.token, rng)
            elif shape == "joined" and len(names) > 1:
                real, other = rng.sample(names, 2)
                text = joined_in_style(real.token, other.token)
            elif shape in ("member", "member-call") and classes:
                real = rng.choice(classes)
                member = invented_member(rng)
                member = snake(member) if python else member
                text = f"{real.token}.{member}{'()' if shape == 'member-call' else ''}"
                probes = (member,)
            elif shape == "path" and paths:
                real = rng.choice(paths)
                text = wrong_segment(real.token, rng)
            elif shape == "flag" and flags:
                real = rng.choice(flags)
                changed = letter_changed(real.token[2:], rng)
                text = f"--{changed}" if changed else None
                probes = flag_probes(text) if text else ()
            if real is None or not text or text == real.token:
                continue
            made.append(Invention(shape, real.token, real.line, text, probes or (text,)))
    return made


def prefetch(repo: Repository, texts: Iterable[str]) -> None:
    """Settle whether each text occurs in the repository at the ref, a few passes of one
    ``git grep -o`` over the whole tree each (Repository.prefetch's group testing runs a
    pass per batch and per hit: minutes on a large tree). A pass prints every match; a text
    matched, or inside a match, occurs. A text can hide behind an overlapping match of
    another one, so the texts still unmatched are searched again without the matched ones,
    until a pass matches none: those occur nowhere."""
    todo = {t for t in texts if t and "\n" not in t and t not in repo._known}
    while todo:
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
            handle.write("\n".join(sorted(todo)) + "\n")
        try:
            done = repo._git("grep", "-h", "-o", "-a", "-F", "-f", handle.name, repo.ref, "--")
        finally:
            os.unlink(handle.name)
        matches = set(done.stdout.decode("utf-8", "replace").splitlines())
        found = {t for t in todo if any(t in m for m in matches)}  # a match is in itself
        repo._known.update(dict.fromkeys(found, True))
        todo -= found
        if not found:
            repo._known.update(dict.fromkeys(todo, False))
            break


def path_candidates(reals: Sequence[Real], rng: random.Random, rounds: int = 4) -> list[Invention]:
    """Wrong segments of the real repository paths of one doc (their own stream)."""
    paths = [
        r for r in reals if r.rule == PATH_GROUNDING and "/" in r.token.strip("./")
        and PLAIN_PATH.match(r.token.removeprefix("./"))
    ]  # fmt: skip
    made: list[Invention] = []
    for _round in range(rounds if paths else 0):
        real = rng.choice(paths)
        text = wrong_segment(real.token, rng)
        if text and text != real.token:
            made.append(Invention("path", real.token, real.line, text, (text.removeprefix("./"),)))
    return made


def choose(pool: Sequence[Invention], repo: Repository, per_doc: int) -> list[Invention]:
    """The first ``per_doc`` inventions absent from the repository, on distinct lines, each
    replacing a distinct real token."""
    chosen: list[Invention] = []
    used: set[str] = set()
    lines: set[int] = set()
    for invention in pool:
        if len(chosen) >= per_doc:
            break
        if invention.original in used or invention.text in used or invention.line in lines:
            continue
        if repo.absent(invention):
            chosen.append(invention)
            used.update((invention.original, invention.text))
            lines.add(invention.line)
    return chosen


def plant(text: str, inventions: Sequence[Invention]) -> tuple[str, list[Invention]]:
    """The doc with each invention in its original's code span (the first on its line);
    the inventions whose span was found."""
    lines = text.split("\n")
    done: list[Invention] = []
    for invention in inventions:
        index = invention.line - 1
        needle = f"`{invention.original}`"
        if 0 <= index < len(lines) and needle in lines[index]:
            lines[index] = lines[index].replace(needle, f"`{invention.text}`", 1)
            done.append(invention)
    return "\n".join(lines), done


def outcome_of(detail: dict[str, Any], invention: Invention) -> tuple[str, str]:
    """What gate 2 made of the invention on its line: ``ungrounded`` (caught) with the rule
    that made it a claim, or another outcome with the rule that decided it."""
    for item in detail.get("ungrounded", []):
        near = any(abs(line - invention.line) <= 1 for line in nd.entry_lines(item))
        if item.get("token") == invention.text and near:
            return "ungrounded", nd.decided_by(item) or "-"
    for outcome, items in (detail.get("outcomes") or {}).items():
        for item in items:
            if item.get("token") == invention.text:
                return outcome, str(item.get("rule") or item.get("where") or "-")
    return "not read", "-"


def measure(
    project: dp.Project, mirror: Path, commit: str, scratch: Path, seed: int, per_doc: int
) -> ProjectResult:
    result = ProjectResult(project.name, commit)
    plain_site = dp.prepare_site(mirror, commit, project.docs, scratch / "plain")
    plain = dp.gate_site(project, commit, plain_site, scratch / "plain-cards")
    result.docs = len(plain.verdicts)
    reals = reals_of(scratch / "plain-cards")
    repository = Repository(mirror, commit)
    pools = {
        doc: candidates(
            reals[doc],
            random.Random(f"{seed}:{project.name}:{doc}"),
            python=project.language == "python",
        )
        for doc in sorted(reals)
    }
    path_pools = {
        doc: path_candidates(reals[doc], random.Random(f"{seed}:path:{project.name}:{doc}"))
        for doc in sorted(reals)
    }
    every = [*pools.values(), *path_pools.values()]
    prefetch(repository, (p for pool in every for c in pool for p in c.probes))
    site = dp.prepare_site(mirror, commit, project.docs, scratch / "planted")
    for doc, pool in pools.items():
        target = site / doc
        if not target.is_file():
            continue
        chosen = choose(pool, repository, per_doc)
        taken = {t for i in chosen for t in (i.original, i.text)} | {i.line for i in chosen}
        free = [c for c in path_pools[doc] if not {c.original, c.text, c.line} & taken]
        chosen += choose(free, repository, PATHS_PER_DOC)
        text, done = plant(target.read_text(encoding="utf-8"), chosen)
        if done:
            target.write_text(text, encoding="utf-8")
            result.planted += [(doc, invention) for invention in done]
            for invention in done:
                where = where_written(text, invention.line, (invention.text,), 1)
                result.anatomy[(doc, invention.text, invention.line)] = {"where": where}
    planted_cards = scratch / "planted-cards"
    planted = dp.gate_site(project, commit, site, planted_cards)
    verdicts: dict[str, str] = {}
    details = dict(holdout.gate2_cards(planted_cards, verdicts, []))
    inventions = {(doc, i.text, i.line) for doc, i in result.planted}
    for doc, invention in result.planted:
        key = (doc, invention.text, invention.line)
        result.outcomes[key] = outcome_of(details.get(doc, {}), invention)
        detail = details.get(doc, {})
        result.anatomy[key].update(
            entries=name_entries(card_entries(2, detail), (invention.text,), invention.line),
            verdict=verdicts.get(doc, "MISSING"),
            verdict_reason=str(detail.get("error") or detail.get("reason") or ""),
        )
    others = [
        f for f in planted.findings if not any((f.doc, f.token) == (d, t) for d, t, _ in inventions)
    ]
    result.other_findings = (len(plain.findings), len(others))
    return result


def summary(results: Sequence[ProjectResult]) -> dict[str, Any]:
    by_shape: dict[str, Counter[str]] = defaultdict(Counter)
    misses: Counter[tuple[str, str]] = Counter()
    caught_by: Counter[str] = Counter()
    examples: list[dict[str, Any]] = []
    for result in results:
        for doc, invention in result.planted:
            outcome, rule = result.outcomes[(doc, invention.text, invention.line)]
            by_shape[invention.shape]["planted"] += 1
            if outcome == "ungrounded":
                by_shape[invention.shape]["caught"] += 1
                caught_by[rule] += 1
            else:
                misses[(outcome, rule)] += 1
            examples.append(
                {"project": result.project, "doc": doc, "line": invention.line,
                 "shape": invention.shape, "original": invention.original,
                 "invention": invention.text, "outcome": outcome, "rule": rule,
                 **result.anatomy.get((doc, invention.text, invention.line), {})}
            )  # fmt: skip
    planted = sum(c["planted"] for c in by_shape.values())
    caught = sum(c["caught"] for c in by_shape.values())
    return {
        "planted": planted,
        "caught": caught,
        "recall": caught / planted if planted else None,
        "by_shape": {s: dict(c) for s, c in sorted(by_shape.items())},
        "misses": [[o, r, n] for (o, r), n in misses.most_common()],
        "caught_by_rule": dict(caught_by.most_common()),
        "other_findings": [sum(r.other_findings[i] for r in results) for i in (0, 1)],
        "inventions": examples,
    }


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def report_lines(title: str, data: dict[str, Any]) -> list[str]:
    lines = [title, f"  inventions {data['planted']}, caught {data['caught']} "
                    f"({percent(data['caught'], data['planted'])})"]  # fmt: skip
    for shape, counts in data["by_shape"].items():
        caught, planted = counts.get("caught", 0), counts.get("planted", 0)
        lines.append(f"    {shape:<12} {caught}/{planted} ({percent(caught, planted)})")
    if data["caught_by_rule"]:
        made = ", ".join(f"{r} {n}" for r, n in data["caught_by_rule"].items())
        lines.append(f"  caught, by the rule that made it a claim: {made}")
    if data["misses"]:
        lines.append("  missed, by outcome and rule: " + ", ".join(
            f"{o} {r} {n}" for o, r, n in data["misses"]))  # fmt: skip
    plain, planted = data["other_findings"]
    lines.append(f"  control: other findings of the docs, unplanted {plain}, planted {planted}")
    return lines


def record_figures(run: Any, halves: dict[str, dict[str, Any]]) -> None:
    """Per half, recall per shape of invention, with the control (the docs' other findings,
    unplanted and planted) beside each half's total."""
    run.notes.append(
        "an invention is caught when gate 2 reports it (ungrounded) on its line; every "
        "invention was checked absent from the repository at the pinned commit"
    )
    totals = run.table(
        "Planted inventions in held-out docs folders, caught by gate 2",
        [{"name": "half", "kind": "label"},
         {"name": "planted", "kind": "figure"},
         {"name": "caught", "kind": "figure"},
         {"name": "recall", "kind": "figure", "unit": "%"},
         {"name": "other findings, unplanted", "kind": "control"},
         {"name": "other findings, planted", "kind": "control"}],
    )  # fmt: skip
    shapes = run.table(
        "Recall per shape of invention",
        [{"name": "half", "kind": "label"},
         {"name": "shape", "kind": "label"},
         {"name": "planted", "kind": "figure"},
         {"name": "caught", "kind": "figure"},
         {"name": "recall", "kind": "figure", "unit": "%"}],
    )  # fmt: skip
    for half, data in halves.items():
        plain, planted_other = data["other_findings"]
        totals.append(
            [half, data["planted"], data["caught"], _rounded(data["caught"], data["planted"]),
             plain, planted_other]
        )  # fmt: skip
        for shape, counts in data["by_shape"].items():
            caught, planted = counts.get("caught", 0), counts.get("planted", 0)
            shapes.append([half, shape, planted, caught, _rounded(caught, planted)])


def _rounded(part: int, whole: int) -> float | None:
    return round(100 * part / whole, 1) if whole else None


def measure_half(half: str, args: argparse.Namespace) -> dict[str, Any]:
    """Plant and gate every chosen project of ``half``; print as it goes; the pooled summary."""
    projects, labels = dp.HALVES[half]
    chosen = [p for p in projects if not args.project or p.name in args.project]
    pins, _ = dp.load_labels(labels)
    mirrors = Path(os.environ.get(dp.MIRRORS_ENV, dp.DEFAULT_MIRRORS))
    results: list[ProjectResult] = []
    for project in chosen:
        with tempfile.TemporaryDirectory(prefix="postgates-planted-") as scratch:
            mirror = dp.mirror_of(project.name, mirrors)
            commit = pins[project.name]
            results.append(measure(project, mirror, commit, Path(scratch), args.seed, args.per_doc))
        data = summary(results[-1:])
        print("\n".join(report_lines(f"{project.name} at {pins[project.name][:12]}", data)))
        if args.verbose:
            for item in data["inventions"]:
                if item["outcome"] != "ungrounded":
                    print(f"    MISS {item['doc']}:{item['line']} {item['shape']} "
                          f"{item['original']} -> {item['invention']}: "
                          f"{item['outcome']} ({item['rule']})")  # fmt: skip
    total = summary(results)
    print("\n".join(report_lines(f"OVERALL ({half} half, seed {args.seed})", total)))
    return {"overall": total, "projects": {r.project: summary([r]) for r in results}}


def plugin_commit() -> str:
    """The commit of the plugin measured (bench/miss_anatomy.py names it)."""
    done = subprocess.run(["git", "-C", str(HERE.parent), "rev-parse", "HEAD"],
                          capture_output=True, text=True, check=False)  # fmt: skip
    return done.stdout.strip() if done.returncode == 0 else "unknown"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--half", choices=[*sorted(dp.HALVES), "all"], default="report")
    parser.add_argument("--project", action="append", help="owner/name (repeatable)")
    parser.add_argument("--per-doc", type=int, default=DEFAULT_PER_DOC)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--cache", type=Path, help="XDG cache folder shared by the runs")
    parser.add_argument("--json", type=Path, help="also write the figures and inventions")
    parser.add_argument("--verbose", action="store_true", help="print every miss")
    parser.add_argument("--results", type=Path, help="write the figures for the docs here")
    args = parser.parse_args(argv)
    dp.SHARED_CACHE[:] = [args.cache.resolve()] if args.cache else []
    dp.EXTRA_SETTINGS[:] = [
        f"{key.strip()} = {value.strip()}" for key, value in (s.split("=", 1) for s in args.set)
    ]
    if dp.EXTRA_SETTINGS:
        print(f"settings added to [tool.postgates]: {'; '.join(dp.EXTRA_SETTINGS)}")
    if not os.environ.get(dp.BENCH_DEPENDENCIES_ENV):
        print(f"dependencies absent: ${dp.BENCH_DEPENDENCIES_ENV} is not set")
    run = None
    if args.results:
        sys.path.insert(0, str(HERE.parent))
        from bench.results_json import Run

        run = Run(
            "planted_docs",
            {"half": args.half, "seed": args.seed, "per_doc": args.per_doc,
             "projects": args.project or "all", "settings_added": list(dp.EXTRA_SETTINGS),
             "dependencies": bool(os.environ.get(dp.BENCH_DEPENDENCIES_ENV))},
        )  # fmt: skip
    halves = ["report", "tune"] if args.half == "all" else [args.half]
    commit = plugin_commit()  # the code measured is the code at the start
    measured = {half: measure_half(half, args) for half in halves}
    if args.json:
        payload = {"seed": args.seed, "per_doc": args.per_doc, "plugin_commit": commit,
                   "settings_added": list(dp.EXTRA_SETTINGS),
                   "halves": measured}  # fmt: skip
        if len(measured) == 1:  # the shape earlier runs wrote, kept for their readers
            ((half, data),) = measured.items()
            payload = {**payload, "half": half, **data}
            del payload["halves"]
        args.json.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")
    if run is not None and args.results:
        record_figures(run, {half: data["overall"] for half, data in measured.items()})
        run.write(args.results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
