"""Gate 3, multi_llm_rubric: a panel of LLM providers scores the post on seven axes.

Regexes catch what a regex can; taste regressions (a brochure voice, a post with no arc)
need a reader. One reader is noisy and biased, so the seeds use a panel: every provider
scores seven axes, several runs each, and PASS needs all three of

- the weighted mean over providers (``weight`` per judge) >= ``rubric_mean_floor`` (9),
- every provider's own mean >= ``rubric_provider_floor`` (6): one dissenting provider is
  a signal, not noise to be averaged away,
- enough valid runs: ``rubric_valid_runs`` (15) of the seeds' 21 (7 providers x 3 runs),
  scaled to this panel as ``ceil(15 * runs_here / 21)`` in integer arithmetic, so 21 runs
  need 15, 3 runs (one provider) need 3, 6 runs need 5. A reply that is not JSON, lacks an
  axis, or scores off the 0..10 scale is an invalid run, recorded with its reason.

A run's score is the mean of its seven axes; a provider's mean is the mean of its valid
runs. Means are computed in exact rational arithmetic (each score read from its shortest
decimal form), so a weighted mean of exactly 9 is 9, not 8.999999999999998.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from pytest_postgates.config import Judge, option
from pytest_postgates.evidence import GitError
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
)
from pytest_postgates.scorecard import Finding

if TYPE_CHECKING:
    from pytest_postgates.post import Post

AXES: tuple[tuple[str, str], ...] = (
    ("relevance", "the post stays on a topic its readers, developers using the project, need"),
    (
        "technical_accuracy",
        "every claim about the code is true; judge it against the repository map given",
    ),
    ("code_quality", "code samples are correct, idiomatic and would run as shown"),
    ("narrative_arc", "it opens on a concrete problem and builds to a resolution"),
    ("brand_voice", "concrete, plain engineer-to-engineer voice; no brochure phrases"),
    ("learning_value", "a reader can do or understand something new afterwards"),
    ("architectural_depth", "it explains how and why the parts fit together"),
)
AXIS_NAMES = tuple(name for name, _ in AXES)
REFERENCE_PANEL_RUNS = 21  # the seeds' panel: 7 providers x 3 runs
RUN_TEMPERATURE = 0.7  # repeated runs are meant to differ
POST_CHAR_LIMIT = 40_000
SCALE = (0.0, 10.0)


def required_valid_runs(configured: int, total_runs: int) -> int:
    """``configured`` of the seeds' 21 runs, scaled to ``total_runs`` and rounded up
    (exact integer ceiling: 15 of 21 stays 15, never 16 by float error)."""
    if total_runs <= 0:
        return 0
    needed = -(-configured * total_runs // REFERENCE_PANEL_RUNS)
    return min(total_runs, max(0, needed))


@dataclass
class Run:
    run: int
    scores: dict[str, float] | None = None
    invalid: str = ""  # the reason a run does not count
    answered: bool = True  # False when the provider never replied (transport error)

    def score(self) -> Fraction:
        assert self.scores is not None
        return sum((_exact(v) for v in self.scores.values()), Fraction(0)) / len(self.scores)

    def to_dict(self) -> dict[str, Any]:
        if self.scores is None:
            return {"run": self.run, "invalid": self.invalid}
        return {"run": self.run, "scores": self.scores, "mean": _round(self.score())}


@dataclass
class ProviderRuns:
    judge: Judge
    runs: list[Run] = field(default_factory=list)

    @property
    def valid(self) -> list[Run]:
        return [run for run in self.runs if run.scores is not None]

    def mean(self) -> Fraction | None:
        valid = self.valid
        if not valid:
            return None
        return sum((run.score() for run in valid), Fraction(0)) / len(valid)

    def axis_means(self) -> dict[str, float]:
        valid = self.valid
        if not valid:
            return {}
        return {
            axis: _round(
                sum((_exact(run.scores[axis]) for run in valid if run.scores), Fraction(0))
                / len(valid)
            )
            for axis in AXIS_NAMES
        }


def _exact(value: float) -> Fraction:
    """A JSON score as the decimal it was written as (8.7 is 87/10, not a binary float)."""
    return Fraction(repr(float(value)))


def _round(value: Fraction) -> float:
    return round(float(value), 3)


def validate(content: str) -> dict[str, float]:
    """The seven axis scores of a reply, or :class:`InvalidReply` saying what is wrong."""
    data = parse_object(content)
    scores: dict[str, Any] = data["scores"] if isinstance(data.get("scores"), dict) else data
    return {axis: number(scores, axis, *SCALE) for axis in AXIS_NAMES}


def judge_panel(panel: list[ProviderRuns], settings: MultiLlmRubricSettings) -> dict[str, Any]:
    """The three PASS conditions over a scored panel, and the numbers behind them."""
    runs_per_provider = settings.rubric_runs
    total = sum(len(provider.runs) for provider in panel)
    valid = sum(len(provider.valid) for provider in panel)
    needed = required_valid_runs(settings.rubric_valid_runs, total)
    mean_floor = _exact(settings.rubric_mean_floor)
    provider_floor = _exact(settings.rubric_provider_floor)
    weighted_sum, weight_total = Fraction(0), Fraction(0)
    low_providers = []
    providers = []
    for provider in panel:
        mean = provider.mean()
        weight = _exact(provider.judge.weight)
        if mean is not None:
            weighted_sum += weight * mean
            weight_total += weight
        if mean is None or mean < provider_floor:
            low_providers.append(provider.judge.name)
        providers.append(
            {
                "name": provider.judge.name,
                "model": provider.judge.model,
                "weight": provider.judge.weight,
                "mean": None if mean is None else _round(mean),
                "valid_runs": len(provider.valid),
                "axes": provider.axis_means(),
                "runs": [run.to_dict() for run in provider.runs],
            }
        )
    weighted = weighted_sum / weight_total if weight_total > 0 else None
    checks = {
        "weighted_mean": weighted is not None and weighted >= mean_floor,
        "provider_floor": not low_providers,
        "valid_runs": valid >= needed,
    }
    return {
        "axes": list(AXIS_NAMES),
        "runs_per_provider": runs_per_provider,
        "providers": providers,
        "weighted_mean": None if weighted is None else _round(weighted),
        "mean_floor": settings.rubric_mean_floor,
        "provider_floor": settings.rubric_provider_floor,
        "providers_below_floor": low_providers,
        "valid_runs": valid,
        "total_runs": total,
        "required_valid_runs": needed,
        "valid_runs_rule": (
            f"{settings.rubric_valid_runs} of {REFERENCE_PANEL_RUNS} runs, scaled to "
            f"{total} and rounded up"
        ),
        "invalid_runs": [
            {"provider": provider.judge.name, "run": run.run, "reason": run.invalid}
            for provider in panel
            for run in provider.runs
            if run.scores is None
        ],
        "checks": checks,
    }


def _messages(post: Post, evidence: str) -> tuple[tuple[str, str], ...]:
    axes = "\n".join(f"- {name}: {meaning}" for name, meaning in AXES)
    keys = ", ".join(f'"{name}": <0-10>' for name in AXIS_NAMES)
    system = (
        "You are one reviewer on a panel that scores technical blog posts about a software "
        "repository before they are published. Score each axis from 0 (absent) to 10 "
        "(exemplary); be strict, 9 and 10 are rare.\n"
        f"Axes:\n{axes}\n"
        f"Reply with only a JSON object of this shape: {{{keys}}}"
    )
    title = str((post.front_matter or {}).get("title", ""))
    body = post.body[:POST_CHAR_LIMIT]
    parts = []
    if evidence:
        parts.append(f"Repository map (definitions with line numbers):\n{evidence}")
    parts.append(f"Post title: {title}\n\nPost:\n{body}")
    return (("system", system), ("user", "\n\n".join(parts)))


def _evidence(post: Post, context: GateContext) -> tuple[str, dict[str, Any]]:
    """The repo-map slice for the technical-accuracy axis; a post outside any repository
    is still scored (without evidence) rather than refused."""
    try:
        piece = context.repo_slice(post)
    except GitError as exc:
        return "", {"mode": "none", "note": f"no repository evidence: {exc}"}
    return piece.text, piece.to_detail()


def check(post: Post, context: GateContext) -> CheckResult:
    settings = context.settings
    judges = settings.judges
    if not judges:
        raise CannotJudge("SKIP", NO_JUDGE_SUMMARY, no_judge_detail())
    rubric = settings.for_gate(MultiLlmRubricSettings)
    runs = max(1, rubric.rubric_runs)
    evidence, evidence_detail = _evidence(post, context)
    messages = _messages(post, evidence)
    owners = [position for position in range(len(judges)) for _ in range(runs)]
    requests = [
        ChatRequest(judges[position], messages, temperature=RUN_TEMPERATURE, variant=run)
        for position in range(len(judges))
        for run in range(1, runs + 1)
    ]
    with client_for(context.settings, context.evidence.cache_dir) as client:
        replies = client.complete_all(requests)
    panel = [ProviderRuns(judge) for judge in judges]
    for owner, request, reply in zip(owners, requests, replies, strict=True):
        provider = panel[owner]
        if reply.content is None:
            provider.runs.append(Run(request.variant, None, reply.error or "no reply", False))
            continue
        try:
            provider.runs.append(Run(request.variant, validate(reply.content)))
        except InvalidReply as exc:
            provider.runs.append(Run(request.variant, None, shorten(str(exc), 200)))
    detail = judge_panel(panel, rubric)
    detail["evidence"] = evidence_detail
    return _result(panel, detail)


def _result(panel: list[ProviderRuns], detail: dict[str, Any]) -> CheckResult:
    if all(not run.answered for provider in panel for run in provider.runs):
        reasons = sorted({item["reason"] for item in detail["invalid_runs"]})
        summary = "no judge answered: " + "; ".join(reasons)
        detail["error"] = summary
        raise CannotJudge("ERROR", summary, detail)
    checks = detail["checks"]
    findings: list[Finding] = []
    weighted = detail["weighted_mean"]
    if not checks["weighted_mean"]:
        findings.append(
            Finding(
                None,
                "RUBRIC_MEAN",
                f"weighted mean {weighted} < {detail['mean_floor']}",
                "revise the weakest axes listed per provider in the scorecard",
            )
        )
    for name in detail["providers_below_floor"]:
        provider = next(p for p in detail["providers"] if p["name"] == name)
        shown = "no valid run" if provider["mean"] is None else f"mean {provider['mean']}"
        findings.append(
            Finding(
                None,
                "RUBRIC_PROVIDER",
                f"provider {name}: {shown} < {detail['provider_floor']}",
                "read this provider's lowest axes; one dissenting reviewer is a real signal",
            )
        )
    if not checks["valid_runs"]:
        findings.append(
            Finding(
                None,
                "RUBRIC_VALID_RUNS",
                f"{detail['valid_runs']} valid runs < {detail['required_valid_runs']} required "
                f"of {detail['total_runs']}",
                "check the judges' configuration and the invalid-run reasons",
            )
        )
    findings.extend(
        Finding(None, "INVALID_RUN", f"{item['provider']} run {item['run']}: {item['reason']}")
        for item in detail["invalid_runs"]
    )
    return CheckResult(findings, detail)


# The findings that stand for a failed check; INVALID_RUN findings inform, never fail.
FAILING_CODES = frozenset({"RUBRIC_MEAN", "RUBRIC_PROVIDER", "RUBRIC_VALID_RUNS"})


def decide(result: CheckResult, settings: MultiLlmRubricSettings) -> Decision:
    detail = result.detail
    failing = any(finding.code in FAILING_CODES for finding in result.findings)
    weighted = detail["weighted_mean"]
    summary = (
        f"weighted mean {weighted} (floor {detail['mean_floor']}), "
        f"{len(detail['providers_below_floor'])} provider(s) below {detail['provider_floor']}, "
        f"{detail['valid_runs']}/{detail['total_runs']} valid runs "
        f"(need {detail['required_valid_runs']})"
    )
    return Decision("FAIL" if failing else "PASS", summary, weighted)


@dataclass(frozen=True)
class MultiLlmRubricSettings:
    """Gate 3's settings."""

    rubric_runs: int = option(3, "int", "runs per judge", bounds=(1, True, None))
    rubric_mean_floor: float = option(9.0, "float", "floor of the weighted mean over judges")
    rubric_provider_floor: float = option(6.0, "float", "floor of every judge's own mean")
    rubric_valid_runs: int = option(
        15,
        "int",
        "valid runs needed of the seeds' 21 (7 judges x 3 runs), scaled to the panel",
        bounds=(0, True, None),
    )


GATE = Gate(
    id=3,
    name="multi_llm_rubric",
    advisory=False,
    kind="llm",
    description="A panel of LLM judges scores the post on seven axes.",
    paid=True,
    check=check,
    decide=decide,
    cache_inputs=without_judges,
    caches_skip=True,
    settings=MultiLlmRubricSettings,
)
