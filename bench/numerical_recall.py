"""Recall of gate 7 (numerical_claims): uncited numerical claims planted in real posts.

Every rule that clears a number gate 7 flags (a sample value, arithmetic, a supposition,
advice, an anecdote, a constant of the code) is a way for a real uncited claim to slip
through. This bench plants such claims in the real NeuroLink blog posts dated up to
2026-06-30 and prints the share gate 7 still flags as ``uncited``. The claims are written
in the blog's own style (performance, percentage, latency, cost, throughput and size
figures with no source) and in the shapes the clearing rules read:

- ``plain``: a bare claim in a paragraph of its own;
- ``appended``: a claim added to the end of an existing prose paragraph (so the
  paragraph's own context - its first person, its earlier numbers - surrounds it);
- ``conditional``: a sentence that opens like a supposition ("If the cache is warm,",
  "When traffic peaks,", "Assuming the default settings,") but whose main clause reports
  a figure;
- ``example``: a claim next to an example cue ("For example, our nightly benchmark ...");
- ``operands``: a claim beside counts and premises that look like the inputs of a
  calculation ("Across 40 runs, the median call took 437 ms") whose result is reported,
  not computed;
- ``fence``: a claim in the paragraph right after a fenced sample ("Run as written, this
  finishes the batch in 23 seconds on a laptop");
- ``config``: a claim right after a fence that assigns a number, naming that setting in a
  code span and sharing its words ("With `maxRetries: 3` the retry budget cut failed
  calls by 17%");
- ``advice-like``: a claim in a clause that opens with a verb the advice rule reads
  ("Start with the defaults: they already cut token usage by 35% in production");
- ``list-item`` / ``table``: a measured figure as a one-item list or a two-row table.

Each planted claim is checked before it counts: its sentence is new to the post, its
number is written nowhere in the post (prose or code, in any unit the gate converts:
seconds and milliseconds, bytes, fractions of a percentage), no link stands within 250
characters of it in the post's prose, the repository's CHANGELOG and commit messages do
not hold the number with its unit, and the repository's text does not hold the number
with its unit as written. Then gate 7 runs on the planted posts with the real repository
as evidence (offline), and a planted claim is caught when the scorecard's ``uncited``
list has its number on its line. Misses are listed with the rule or citation that took
them. Seeded: the same inputs give the same plants.

    python bench/numerical_recall.py [--repo PATH] [--ref release] [--posts DIR]
        [--until 2026-06-30] [--seed 20260701] [--per-post 5] [--posts-used 80]
        [--json bench/results/numerical_recall.json]

``--json OUT`` also writes the figures for the docs (bench/results_json.py).

``--repo`` defaults to $POSTGATES_NEUROLINK, ``--posts`` to $POSTGATES_NEUROLINK_BLOG or
the shared corpus (``../shared/corpus/neurolink-blog/_posts`` from a worktree).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SHARED_POSTS = HERE.parent.parent / "shared" / "corpus" / "neurolink-blog" / "_posts"
DEFAULT_UNTIL = "2026-06-30"
DEFAULT_SEED = 20260701
LINK_CLEARANCE = 250  # the gate cites a link within 200 characters; keep well clear
SHAPES = (
    "plain",
    "appended",
    "conditional",
    "example",
    "operands",
    "fence",
    "config",
    "advice-like",
    "list-item",
    "table",
)

THINGS = (
    "provider registry",
    "tool router",
    "MCP client",
    "memory layer",
    "RAG pipeline",
    "streaming handler",
    "failover chain",
    "reranker",
    "context compactor",
    "embedding cache",
)

# unit -> (how it is written after the number, value range, the unit's conversions for
# the "written nowhere in the post" check: multipliers of the value a code literal or a
# prose figure might hold).
UNITS: dict[str, tuple[str, tuple[int, int], tuple[float, ...]]] = {
    "ms": ("ms", (37, 940), (1.0, 1e-3)),
    "s": (" seconds", (3, 89), (1.0, 1e3)),
    "%": ("%", (11, 89), (1.0, 1e-2)),
    "x": ("x", (3, 19), (1.0,)),
    "MB": ("MB", (13, 870), (1.0, 1e6, 2.0**20)),
    "req/s": (" requests per second", (120, 9400), (1.0,)),
    "tokens": (" tokens", (1300, 47000), (1.0,)),
    "min": (" minutes", (7, 55), (1.0, 60.0, 6e4)),
}

# shape -> templates; {n} is the planted claim (number and unit), {thing} a component,
# {count} a count that is no claim, {setting} a code span naming a sample's setting and
# {words} that setting's words in prose.
TEMPLATES: dict[str, tuple[tuple[str, str], ...]] = {
    "plain": (
        ("ms", "On our staging cluster, the {thing} now answers in {n} at p95."),
        ("req/s", "The {thing} sustains {n} on a single worker."),
        ("%", "Switching the {thing} to streaming cut time-to-first-token by {n}."),
        (
            "x",
            "A routed call through the {thing} is {n} cheaper than the same prompt on a "
            "frontier model.",
        ),
        ("MB", "Each worker of the {thing} holds about {n} of resident memory."),
        ("tokens", "A typical request to the {thing} now carries {n} of context."),
    ),
    "appended": (
        ("ms", "The {thing} adds {n} to each request."),
        ("%", "The {thing} now serves {n} of requests from cache."),
        ("s", "A cold start of the {thing} takes {n}."),
        ("x", "That made the {thing} {n} faster."),
    ),
    "conditional": (
        ("ms", "If the cache is warm, the {thing} returns in {n}."),
        ("ms", "When traffic peaks, p99 latency for the {thing} stays under {n}."),
        ("%", "Assuming the default settings, the {thing} drops {n} of duplicate calls."),
        ("s", "Even if a provider fails over, the {thing} recovers within {n}."),
        ("req/s", "If you run it on one core, the {thing} still handles {n}."),
    ),
    "example": (
        (
            "ms",
            "For example, our nightly benchmark shows the {thing} adds {n} of overhead per call.",
        ),
        ("%", "For instance, the {thing} alone accounts for {n} of the token spend in production."),
        ("MB", "The {thing} is a good example: it allocates {n} per session in our tests."),
    ),
    "operands": (
        ("ms", "Across {count} runs, the median {thing} call took {n}."),
        ("x", "With {count} workers, the {thing} drained the queue {n} faster than with one."),
        (
            "MB",
            "At {count} concurrent sessions, memory of the {thing} held steady at {n} per worker.",
        ),
        ("min", "The {thing} processed {count} documents in {n} on one machine."),
    ),
    "fence": (
        ("s", "Run as written, this finishes the whole batch in {n} on a laptop."),
        ("MB", "In our tests the snippet above allocates about {n} per request."),
        ("x", "This version is {n} faster than the naive loop we started with."),
        ("ms", "On our staging cluster this call returns in {n}."),
    ),
    "config": (
        ("%", "With {setting} the {words} cut failed calls by {n} in production."),
        ("ms", "Keeping {setting}, the {words} added {n} at p95 across a week of traffic."),
        ("x", "With {setting} the {words} made the {thing} {n} faster in our load test."),
    ),
    "advice-like": (
        ("%", "Start with the defaults: they already cut token usage by {n} in production."),
        ("ms", "Use the {thing} as shipped: it answers in {n} at p95 on our cluster."),
        ("x", "Keep the batch size small, because the {thing} measured {n} faster that way."),
    ),
    "list-item": (
        ("ms", "- **{Thing} latency.** Dropped to {n} at p95 after the change."),
        ("%", "- **Error rate.** The {thing} fails {n} fewer calls than the old path."),
        ("req/s", "- **Throughput.** The {thing} peaks at {n} per node."),
    ),
    "table": (
        ("ms", "| Measure | Value |\n|---|---|\n| {Thing} p95 latency | {n} |"),
        ("MB", "| Measure | Value |\n|---|---|\n| {Thing} memory per worker | {n} |"),
        ("%", "| Measure | Value |\n|---|---|\n| {Thing} cache hit rate | {n} |"),
    ),
}

_NUMBER = re.compile(r"(?<![\w.])\d{1,3}(?:[,_]\d{3})+(?:\.\d+)?|(?<![\w.])\d+(?:\.\d+)?")
_LINK = re.compile(r"!?\[[^\]\n]*\]\([^)\n]*\)|<https?://[^>\s]+>|\bhttps?://\S+")
_ASSIGNED = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*)[\"']?\s*[:=]\s*(\d[\d_]*)\b")
_CAMEL = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
_NOT_PROSE = re.compile(r"^\s*(?:#|[-*+]\s|\d+[.)]\s|>|\||<|!\[|\[\^|\{%|---|\*\*\*)")


@dataclass(frozen=True)
class Plant:
    shape: str
    unit: str  # the family of UNITS
    number: str  # as the gate's scorecard writes it: digits, no separators
    sentence: str  # what was planted (a table is several lines)
    line: int  # the file line of the planted claim in the planted post


@dataclass(frozen=True)
class Slot:
    """Where a shape may go: after file line ``after`` (1-based), as a new paragraph, or
    appended to that line (``append``); ``setting`` is a fence's (key, value) for config."""

    after: int
    append: bool = False
    setting: tuple[str, str] | None = None


def numbers_in(text: str) -> set[float]:
    """Every number written in ``text`` (separators removed)."""
    found = set()
    for match in _NUMBER.finditer(text):
        try:
            found.add(round(float(re.sub(r"[,_]", "", match.group(0))), 6))
        except ValueError:
            continue
    return found


def written_nowhere(value: int, unit: str, post_numbers: set[float]) -> bool:
    """The planted value is in no form a number of the post holds (as written, or in the
    unit a code literal or another figure would use)."""
    return not any(round(value * scale, 6) in post_numbers for scale in UNITS[unit][2])


def format_number(value: int, rng: random.Random) -> str:
    """As the blog writes it: 1,300 or 1300 (a separator half of the time)."""
    if value >= 1000 and rng.random() < 0.5:
        return f"{value:,}"
    return str(value)


def prose_paragraphs(lines: Sequence[str], skip: Iterable[int], body_start: int) -> list[int]:
    """Last file lines (1-based) of plain prose paragraphs: not code, HTML, headings,
    lists, quotes or tables, followed by a blank line."""
    skipped = set(skip)
    ends: list[int] = []
    index = body_start - 1
    while index < len(lines):
        if not lines[index].strip() or index + 1 in skipped:
            index += 1
            continue
        start = index
        while index < len(lines) and lines[index].strip() and index + 1 not in skipped:
            index += 1
        block = lines[start:index]
        next_blank = index >= len(lines) or not lines[index].strip()
        if next_blank and not any(_NOT_PROSE.match(line) for line in block):
            ends.append(index)  # the block's last line, 1-based
    return ends


def fence_slots(post: Any) -> tuple[list[Slot], list[Slot]]:
    """(after any closed sample fence, after a fence that assigns a number) as slots."""
    after_fence: list[Slot] = []
    config: list[Slot] = []
    for fence in post.fences:
        if not fence.closed or fence.lang in ("mermaid", "text", "markdown", "md"):
            continue
        end = fence.end_line
        if end < len(post.lines) and post.lines[end].strip():
            continue  # text glued to the fence: not a paragraph boundary
        after_fence.append(Slot(end))
        for match in _ASSIGNED.finditer(fence.content):
            key, value = match.group(1), match.group(2)
            if len(_CAMEL.findall(key)) >= 2 and int(value.replace("_", "")) > 1:
                config.append(Slot(end, setting=(key, value)))
                break
    return after_fence, config


def setting_words(key: str) -> str:
    """The words of a setting as prose writes them (``maxRetries`` -> "max retries")."""
    return " ".join(part.lower() for part in _CAMEL.findall(key.replace("_", " ")))


def render(
    shape: str, template: str, unit: str, value: int, slot: Slot, rng: random.Random
) -> tuple[str, str]:
    """(sentence, number as written) for one plant."""
    written = format_number(value, rng)
    thing = rng.choice(THINGS)
    fields = {
        "n": written + UNITS[unit][0],
        "thing": thing,
        "Thing": thing[0].upper() + thing[1:],
        "count": str(rng.choice((12, 24, 40, 64, 200))),
        "setting": "",
        "words": "",
    }
    if slot.setting:
        key, literal = slot.setting
        fields["setting"] = f"`{key}: {literal}`"
        fields["words"] = setting_words(key)
    return template.format(**fields), written


def clear_of_links(text: str, planted: str) -> bool:
    """No link within LINK_CLEARANCE characters of the planted sentence in ``text``."""
    at = text.find(planted)
    if at < 0:
        return False
    low, high = at - LINK_CLEARANCE, at + len(planted) + LINK_CLEARANCE
    return not any(m.start() < high and m.end() > low for m in _LINK.finditer(text))


def prose_text(post: Any) -> str:
    """The post's body without code and HTML lines, as the gate measures link distance."""
    skip = post.code_lines | post.html_lines
    return "\n".join(text for number, text in post.body_lines() if number not in skip)


@dataclass
class Evidence:
    """What may cite a planted number without the gate's rules: the repository's CHANGELOG
    and commit messages, and its text holding the number with its unit as written."""

    changelog: str
    messages: str
    contains: Callable[[str], bool]

    def cites(self, written: str, unit: str) -> bool:
        digits = written.replace(",", "")
        spelled = UNITS[unit][0].strip()
        for text in (self.changelog, self.messages):
            normal = re.sub(r"(?<=\d)[,_](?=\d{3})", "", text)
            if re.search(rf"(?<![\d.]){re.escape(digits)}\s?-?{re.escape(spelled)}", normal):
                return True
        return any(
            self.contains(form)
            for form in {
                f"{written}{UNITS[unit][0]}",
                f"{digits}{UNITS[unit][0]}",
                f"{written} {spelled}",
                f"{digits}{spelled}",
            }
        )


def plants_for(
    post: Any, evidence: Evidence, rng: random.Random, per_post: int
) -> tuple[list[str], list[Plant]]:
    """The planted post's lines and what was planted (at most ``per_post`` plants, each
    shape at most once, each in its own place)."""
    lines = list(post.lines)
    skip = post.code_lines | post.html_lines
    paragraphs = prose_paragraphs(lines, skip, post.body_start_line)
    after_fence, config = fence_slots(post)
    post_numbers = numbers_in(post.text)
    slots: dict[str, list[Slot]] = {
        "appended": [
            Slot(end, append=True)
            for end in paragraphs
            if re.search(r"[.!?]$", lines[end - 1].rstrip())
        ],
        "fence": after_fence,
        "config": config,
    }
    shapes = list(SHAPES)
    rng.shuffle(shapes)
    chosen: list[tuple[str, str, str, int, Slot]] = []
    used_lines: set[int] = set()
    used_values: set[int] = set()
    for shape in shapes:
        if len(chosen) >= per_post:
            break
        candidates = [
            s
            for s in slots.get(shape, [Slot(end) for end in paragraphs])
            if all(abs(s.after - other) > 3 for other in used_lines)
        ]
        if not candidates:
            continue
        slot = rng.choice(candidates)
        unit, template = rng.choice(TEMPLATES[shape])
        low, high = UNITS[unit][1]
        for _attempt in range(20):
            value = rng.randint(low, high)
            if value in used_values or not written_nowhere(value, unit, post_numbers):
                continue
            sentence, written = render(shape, template, unit, value, slot, rng)
            if sentence in post.text or evidence.cites(written, unit):
                continue
            chosen.append((shape, unit, sentence, value, slot))
            used_lines.add(slot.after)
            used_values.add(value)
            break
    # Insert from the bottom up so that earlier line numbers stay valid.
    planted: list[tuple[str, str, str, int, Slot]] = sorted(chosen, key=lambda c: -c[4].after)
    for _shape, _unit, sentence, _value, slot in planted:
        if slot.append:
            lines[slot.after - 1] = lines[slot.after - 1].rstrip() + " " + sentence
        else:
            lines[slot.after : slot.after] = ["", *sentence.split("\n")]
    plants: list[Plant] = []
    for shape, unit, sentence, value, _slot in chosen:
        claim_line = sentence.split("\n")[-1]
        line = next(i for i, t in enumerate(lines, 1) if claim_line in t)
        plants.append(Plant(shape, unit, str(value), sentence, line))
    return lines, sorted(plants, key=lambda p: p.line)


def verified(post_after: Any, plants: Sequence[Plant]) -> list[Plant]:
    """The plants of a planted post that stand clear of every link in its prose."""
    prose = prose_text(post_after)
    return [p for p in plants if clear_of_links(prose, p.sentence.split("\n")[-1])]


def outcome(card: Any, plant: Plant) -> tuple[bool, str]:
    """(caught, what the scorecard says about the planted number on its line)."""
    detail = card.detail
    for item in detail.get("uncited", []):
        if item["line"] == plant.line and item["number"] == plant.number:
            return True, "uncited"
    for item in detail.get("exempt", []):
        if item["line"] == plant.line and item["number"] == plant.number:
            return False, f"exempt [{item['rule']}]: {item['reason']}"
    for item in detail.get("claims", []):
        if item["line"] == plant.line and item["number"] == plant.number:
            return False, f"cited by {item['cited_by']}"
    return False, f"not read as a claim (verdict {card.verdict})"


def select_posts(posts: Path, until: str) -> list[Path]:
    return sorted(
        path
        for path in posts.glob("*.md")
        if re.match(r"\d{4}-\d{2}-\d{2}-", path.name) and path.name[:10] <= until
    )


def main(argv: Sequence[str] | None = None, out: Callable[[str], None] = print) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", default=os.environ.get("POSTGATES_NEUROLINK"))
    parser.add_argument("--ref", default="release")
    parser.add_argument(
        "--posts",
        type=Path,
        default=Path(os.environ.get("POSTGATES_NEUROLINK_BLOG") or SHARED_POSTS),
    )
    parser.add_argument("--until", default=DEFAULT_UNTIL)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--per-post", type=int, default=5)
    parser.add_argument("--posts-used", type=int, default=80)
    parser.add_argument("--show", action="store_true", help="list every plant, not only misses")
    parser.add_argument("--json", type=Path, help="write the figures for the docs here")
    args = parser.parse_args(argv)
    if not args.repo:
        out("numerical_recall: give --repo or set POSTGATES_NEUROLINK")
        return 2
    from pytest_postgates.config import Settings
    from pytest_postgates.gates import GateContext
    from pytest_postgates.gates.numerical_claims import GATE
    from pytest_postgates.post import parse_post

    posts = select_posts(args.posts, args.until)
    if not posts:
        out(f"numerical_recall: no posts in {args.posts} up to {args.until}")
        return 2
    record = _results_run(args)
    rng = random.Random(args.seed)
    chosen = sorted(rng.sample(posts, min(args.posts_used, len(posts))))
    results: list[tuple[str, Plant, bool, str]] = []
    with tempfile.TemporaryDirectory(prefix="postgates-numrecall-") as scratch:
        root = Path(scratch)
        context = GateContext.create(
            Settings(repo=Path(args.repo), ref=args.ref, offline=True), root / "cache"
        )
        folder = root / "_posts"
        folder.mkdir()
        index = None
        for path in chosen:
            post = parse_post(path)
            if post.problems:
                continue
            if index is None:
                index = context.evidence.index_for(path)
                evidence = Evidence(index.changelog or "", index.messages, index.contains)
            post_rng = random.Random(f"{args.seed}:{path.name}")
            lines, plants = plants_for(post, evidence, post_rng, args.per_post)
            if not plants:
                continue
            target = folder / path.name
            target.write_text("\n".join(lines) + "\n", encoding="utf-8")
            planted = parse_post(target)
            plants = verified(planted, plants)
            if not plants:
                continue
            card = GATE.evaluate(planted, context)
            for plant in plants:
                caught, said = outcome(card, plant)
                results.append((path.name, plant, caught, said))
    if not results:
        out("numerical_recall: nothing could be planted")
        return 2
    caught = sum(r[2] for r in results)
    out(
        f"planted {len(results)} uncited claims in {len({r[0] for r in results})} posts "
        f"(seed {args.seed}); gate 7 flags {caught} = {100 * caught / len(results):.1f}%"
    )
    per_shape: Counter[str] = Counter(r[1].shape for r in results)
    caught_shape: Counter[str] = Counter(r[1].shape for r in results if r[2])
    for shape in SHAPES:
        if per_shape[shape]:
            out(
                f"  {shape:12} {caught_shape[shape]:3} / {per_shape[shape]:3}"
                f"  {100 * caught_shape[shape] / per_shape[shape]:5.1f}%"
            )
    for name, plant, hit, said in results:
        if args.show or not hit:
            mark = "caught" if hit else "MISSED"
            out(f"  {mark} {name}:{plant.line} [{plant.shape}] {plant.sentence!r}: {said}")
    if record is not None and args.json:
        record.notes.append(
            f"{len(results)} claims planted in {len({r[0] for r in results})} posts; each is "
            "checked new to the post and uncited (no link near it, its number nowhere in the "
            "post or the repository's evidence) before it counts"
        )
        rows = record.table(
            "Planted uncited claims gate 7 flags, per shape",
            [{"name": "shape", "kind": "label"},
             {"name": "planted", "kind": "figure", "unit": "claims"},
             {"name": "flagged", "kind": "figure", "unit": "claims"},
             {"name": "recall", "kind": "figure", "unit": "%"}],
        )  # fmt: skip
        for shape in SHAPES:
            if per_shape[shape]:
                share = round(100 * caught_shape[shape] / per_shape[shape], 1)
                rows.append([shape, per_shape[shape], caught_shape[shape], share])
        rows.append(["total", len(results), caught, round(100 * caught / len(results), 1)])
        record.write(args.json)
    return 0


def _results_run(args: argparse.Namespace) -> Any:
    """The results record of this run (bench/results_json.py), started before the work."""
    if not args.json:
        return None
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench.results_json import Run

    return Run(
        "numerical_recall",
        {"repo": str(args.repo), "ref": args.ref, "posts": str(args.posts), "until": args.until,
         "seed": args.seed, "per_post": args.per_post, "posts_used": args.posts_used},
    )  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
