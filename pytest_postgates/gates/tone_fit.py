"""Gate 4, tone_fit: does the post sound like the corpus posts of its assigned tone?

A tone is easier to show than to define, so the judge gets examples: three reference
paragraphs sampled from corpus posts that carry the same tone, and the draft. One judge
(the first configured) scores the match ``tone_runs`` times (5); PASS when the mean of
the valid runs is at least ``tone_floor``.

The tone comes from front matter ``tone`` or from the ``tone_assignments`` file (YAML or
JSON: a mapping from post file name, stem or slug to a tone, or to ``{tone: ...}``), which
is where the seeds' drafter appends an entry per post. The sample is deterministic, seeded
by the post's file name, so a re-run asks the same question (and hits the cache); the
file name rather than the absolute path, so two checkouts sample alike.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from pytest_postgates.config import option
from pytest_postgates.gates.base import (
    CannotJudge,
    CheckResult,
    Decision,
    Gate,
    GateContext,
    without_judges,
)
from pytest_postgates.judges import (
    NO_JUDGE_SUMMARY,
    ChatRequest,
    InvalidReply,
    client_for,
    no_judge_detail,
    number,
    parse_object,
    shorten,
    text,
)
from pytest_postgates.post import admission_problem, parse_post
from pytest_postgates.scorecard import Finding

if TYPE_CHECKING:
    from pytest_postgates.post import Post

REFERENCES = 3
MIN_REFERENCE_CHARS = 160  # a reference must be a paragraph, not a caption
RUN_TEMPERATURE = 0.7
POST_CHAR_LIMIT = 12_000
BATCH_NAME = "tone_references"
_DATE_PREFIX = re.compile(r"^\d{4}-\d{2}-\d{2}-")


class ToneAssignmentsError(ValueError):
    """The tone-assignments file cannot be read as a mapping."""


def slug_of(path: Path) -> str:
    return _DATE_PREFIX.sub("", path.stem)


def load_assignments(path: Path | None) -> dict[str, str]:
    """Tone by post key (file name, stem or slug) from the assignments file."""
    if path is None:
        return {}
    try:
        raw = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ToneAssignmentsError(
            f"cannot read tone_assignments file {path.name}: {exc.strerror}"
        ) from None
    try:
        data = json.loads(raw) if path.suffix.lower() == ".json" else yaml.safe_load(raw)
    except (ValueError, yaml.YAMLError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ToneAssignmentsError(f"tone_assignments file {path.name}: {first}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ToneAssignmentsError(
            f"tone_assignments file {path.name} must map post names to tones"
        )
    tones: dict[str, str] = {}
    for key, value in data.items():
        if isinstance(value, dict):
            value = value.get("tone")
        if isinstance(value, str) and value.strip():
            tones[str(key)] = value.strip()
    return tones


def tone_of(post: Post, assignments: dict[str, str]) -> tuple[str | None, str]:
    """(tone, where it came from)."""
    front = post.front_matter or {}
    value = front.get("tone")
    if isinstance(value, str) and value.strip():
        return value.strip(), "front matter"
    keys = [post.path.name, post.path.stem, slug_of(post.path)]
    slug = front.get("slug")
    if isinstance(slug, str):
        keys.append(slug)
    for key in keys:
        if key in assignments:
            return assignments[key], "tone_assignments"
    return None, ""


def _corpus(post: Post, context: GateContext) -> list[Path]:
    """The run's posts; outside a pytest run (no batch list), the post's own folder."""
    posts = list(getattr(context.batches, "posts", ()) or ())
    if not posts:
        # The sibling posts are read as reference paragraphs and sent to the judge, so they
        # pass the same admission as collected posts: a symlink resolving outside the
        # post's folder, a FIFO or an oversized file is never read.
        folder = post.path.parent
        posts = [
            path
            for path in sorted(folder.glob("*.md"))
            if admission_problem(path, (folder,)) is None
        ]
    return posts


def reference_pool(posts: list[Path], assignments: dict[str, str]) -> dict[str, list[list[Any]]]:
    """Candidate paragraphs of every post, by tone: ``[path, name, line, text]`` rows."""
    pool: dict[str, list[list[Any]]] = {}
    for path in posts:
        other = parse_post(path)
        if other.fatal_problems:
            continue
        tone, _ = tone_of(other, assignments)
        if tone is None:
            continue
        for paragraph in other.prose.paragraphs:
            if len(paragraph.source) >= MIN_REFERENCE_CHARS:
                row = [str(path.resolve()), path.name, paragraph.line, paragraph.source]
                pool.setdefault(tone, []).append(row)
    return pool


def sample_references(
    post_path: Path, candidates: list[list[Any]], count: int = REFERENCES
) -> list[list[Any]]:
    """``count`` paragraphs, from as many different posts as possible, chosen by a
    generator seeded with the post's file name."""
    seed = int.from_bytes(hashlib.sha256(post_path.name.encode("utf-8")).digest()[:8], "big")
    rng = random.Random(seed)
    by_post: dict[str, list[list[Any]]] = {}
    for row in sorted(candidates, key=lambda r: (r[1], r[0], r[2])):
        by_post.setdefault(row[0], []).append(row)
    order = sorted(by_post)
    rng.shuffle(order)
    chosen: list[list[Any]] = []
    while len(chosen) < count and any(by_post.values()):
        for key in order:
            rows = by_post[key]
            if rows and len(chosen) < count:
                chosen.append(rows.pop(rng.randrange(len(rows))))
    return chosen


def _messages(tone: str, references: list[list[Any]], post: Post) -> tuple[tuple[str, str], ...]:
    system = (
        "You judge whether a draft blog post matches a house tone. You are given reference "
        "paragraphs from published posts with that tone, then the draft. Judge voice, "
        "register, sentence rhythm and how concretely it speaks to engineers; not the topic "
        "and not factual accuracy. Score from 0 (a different voice) to 10 (indistinguishable "
        'from the references). Reply with only a JSON object: {"score": <0-10>, '
        '"reason": "<one sentence>"}'
    )
    shown = "\n\n".join(f"[{i}] {row[3]}" for i, row in enumerate(references, 1))
    body = "\n\n".join(p.source for p in post.prose.paragraphs)[:POST_CHAR_LIMIT]
    user = f"Tone: {tone}\n\nReference paragraphs:\n{shown}\n\nDraft:\n{body}"
    return (("system", system), ("user", user))


def check(post: Post, context: GateContext) -> CheckResult:
    settings = context.settings
    if not settings.judges:
        raise CannotJudge("SKIP", NO_JUDGE_SUMMARY, no_judge_detail())
    tone_settings = settings.for_gate(ToneFitSettings)
    try:
        assignments = load_assignments(tone_settings.tone_assignments)
    except ToneAssignmentsError as exc:
        raise CannotJudge("ERROR", str(exc)) from None
    tone, source = tone_of(post, assignments)
    if tone is None:
        reason = (
            "no tone: set `tone:` in the front matter or map this post's file name or slug "
            "to a tone in the tone_assignments file"
        )
        raise CannotJudge("SKIP", reason)
    corpus = _corpus(post, context)
    pool = context.batches.get(BATCH_NAME, lambda: reference_pool(corpus, assignments))
    own = str(post.path.resolve())
    candidates = [row for row in pool.get(tone, []) if row[0] != own]
    if not candidates:
        reason = (
            f"no reference post with tone {tone!r} among the {len(corpus)} collected post(s) "
            f"(paragraphs of at least {MIN_REFERENCE_CHARS} characters are needed)"
        )
        raise CannotJudge("SKIP", reason, {"reason": reason, "tone": tone})
    references = sample_references(post.path, candidates)
    judge = settings.judges[0]
    messages = _messages(tone, references, post)
    runs = max(1, tone_settings.tone_runs)
    requests = [
        ChatRequest(judge, messages, temperature=RUN_TEMPERATURE, variant=run)
        for run in range(1, runs + 1)
    ]
    with client_for(context.settings, context.evidence.cache_dir) as client:
        replies = client.complete_all(requests)
    results: list[dict[str, Any]] = []
    scores: list[Fraction] = []
    answered = False
    for run, reply in enumerate(replies, 1):
        if reply.content is None:
            results.append({"run": run, "invalid": reply.error or "no reply"})
            continue
        answered = True
        try:
            data = parse_object(reply.content)
            score = number(data, "score")
        except InvalidReply as exc:
            results.append({"run": run, "invalid": shorten(str(exc), 200)})
            continue
        scores.append(Fraction(repr(score)))
        results.append({"run": run, "score": score, "reason": text(data, "reason")})
    floor = tone_settings.tone_floor
    mean = sum(scores, Fraction(0)) / len(scores) if scores else None
    shown_mean = None if mean is None else round(float(mean), 3)
    detail: dict[str, Any] = {
        "tone": tone,
        "tone_source": source,
        "judge": judge.name,
        "model": judge.model,
        "references": [{"post": row[1], "line": row[2]} for row in references],
        "runs": results,
        "valid_runs": len(scores),
        "total_runs": runs,
        "mean": shown_mean,
        "floor": floor,
    }
    invalid = [r for r in results if "invalid" in r]
    if not answered:
        summary = "the judge did not answer: " + "; ".join(sorted({r["invalid"] for r in invalid}))
        detail["error"] = summary
        raise CannotJudge("ERROR", summary, detail)
    passed = mean is not None and mean >= Fraction(repr(float(floor)))
    findings = [Finding(None, "INVALID_RUN", f"run {r['run']}: {r['invalid']}") for r in invalid]
    if not passed:
        shown = "no valid run" if mean is None else f"mean {shown_mean}"
        findings.insert(
            0,
            Finding(
                None,
                "TONE_MISMATCH",
                f"tone {tone!r}: {shown} < {floor}",
                f"rewrite toward the voice of the reference posts: "
                f"{', '.join(sorted({row[1] for row in references}))}",
            ),
        )
    return CheckResult(findings, detail, {"passed": passed})


def decide(result: CheckResult, settings: ToneFitSettings) -> Decision:
    detail = result.detail
    passed = result.facts["passed"]  # the exact (Fraction) comparison of the mean
    mismatch = any(finding.code == "TONE_MISMATCH" for finding in result.findings)
    summary = (
        f"tone {detail['tone']!r}: mean {detail['mean']} over {detail['valid_runs']}/"
        f"{detail['total_runs']} valid runs ({'>=' if passed else '<'} {detail['floor']})"
    )
    return Decision("FAIL" if mismatch else "PASS", summary, detail["mean"])


@dataclass(frozen=True)
class ToneFitSettings:
    """Gate 4's settings."""

    tone_runs: int = option(5, "int", "judge runs per post", bounds=(1, True, None))
    tone_floor: float = option(
        7.0, "float", "PASS when the mean of the valid runs is at least this"
    )
    tone_assignments: Path | None = option(
        None, "path", "YAML or JSON file mapping post names to tones (else front matter `tone`)"
    )


GATE = Gate(
    id=4,
    name="tone_fit",
    advisory=False,
    kind="llm",
    description="An LLM judge finds the post matches its assigned tone.",
    paid=True,
    check=check,
    decide=decide,
    cache_inputs=without_judges,
    caches_skip=True,
    settings=ToneFitSettings,
)
