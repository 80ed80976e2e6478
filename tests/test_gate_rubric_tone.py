"""Gates 3 (multi_llm_rubric) and 4 (tone_fit) against a scripted loopback judge."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_postgates.batch import RunBatches
from pytest_postgates.config import Judge
from pytest_postgates.gates import GateContext, default_settings
from pytest_postgates.gates import multi_llm_rubric as rubric
from pytest_postgates.gates import tone_fit as tone
from pytest_postgates.judges import NO_JUDGE_SUMMARY
from pytest_postgates.judges import client as client_module
from pytest_postgates.post import parse_post
from pytest_postgates.scorecard import Scorecard
from tests.chat_server import ChatServer, Step, reply
from tests.conftest import Blog
from tests.helpers import make_post

AXES = rubric.AXIS_NAMES


@pytest.fixture
def server() -> Iterator[ChatServer]:
    chat = ChatServer().start()
    yield chat
    chat.stop()


@pytest.fixture(autouse=True)
def quick_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(client_module, "BACKOFF_BASE", 0.01)


def scores(*values: float) -> str:
    """A rubric reply: one value for every axis, or seven values."""
    if len(values) == 1:
        values = values * len(AXES)
    return json.dumps(dict(zip(AXES, values, strict=True)))


def judges(server: ChatServer, count: int, weights: tuple[float, ...] = ()) -> tuple[Judge, ...]:
    return tuple(
        Judge(f"p{i}", server.url, f"model-{i}", None, weights[i - 1] if weights else 1.0)
        for i in range(1, count + 1)
    )


RUBRIC = rubric.MultiLlmRubricSettings()  # gate 3's defaults


def context(tmp_path: Path, **settings: Any) -> GateContext:
    values: dict[str, Any] = {"judge_timeout": 2.0, "judge_retries": 2}
    values.update(settings)
    return GateContext.create(default_settings(**values), tmp_path / "cache")


BODY = "This post shows how pytest collects Markdown posts as test items.\n"


# ---------------------------------------------------------------------- gate 3


def test_rubric_skips_without_judges(tmp_path: Path) -> None:
    card = rubric.GATE.evaluate(make_post(BODY, tmp_path), context(tmp_path))
    assert card.verdict == "SKIP"
    assert card.summary == NO_JUDGE_SUMMARY and "[[tool.postgates.judges]]" in card.summary
    assert card.detail == {"reason": NO_JUDGE_SUMMARY}


@pytest.mark.parametrize(
    ("configured", "total", "needed"),
    [(15, 21, 15), (15, 3, 3), (15, 6, 5), (15, 9, 7), (15, 42, 30), (21, 21, 21), (0, 9, 0)],
)
def test_required_valid_runs_scale_and_round_up(configured: int, total: int, needed: int) -> None:
    assert rubric.required_valid_runs(configured, total) == needed


def _panel(
    spec: list[tuple[float, list[float | None]]],
) -> list[rubric.ProviderRuns]:
    """Providers as (weight, run scores; None = an invalid run)."""
    panel = []
    for number, (weight, runs) in enumerate(spec, 1):
        provider = rubric.ProviderRuns(Judge(f"p{number}", "http://x", f"m{number}", None, weight))
        for run, value in enumerate(runs, 1):
            if value is None:
                provider.runs.append(rubric.Run(run, None, "scripted invalid"))
            else:
                provider.runs.append(rubric.Run(run, dict.fromkeys(AXES, value)))
        panel.append(provider)
    return panel


SEVEN_AT_BOUNDARY: list[tuple[float, list[float | None]]] = [
    (1.0, [6, 6, 6]),  # a provider mean of exactly 6
    *[(1.0, [9.5, 9.5, None])] * 6,  # six invalid runs: exactly 15 of 21 valid
]  # weighted mean (6 + 6 * 9.5) / 7 = 9 exactly


def test_panel_boundaries_pass() -> None:
    detail = rubric.judge_panel(_panel(SEVEN_AT_BOUNDARY), RUBRIC)
    assert detail["weighted_mean"] == 9.0
    assert detail["providers"][0]["mean"] == 6.0
    assert (detail["valid_runs"], detail["total_runs"], detail["required_valid_runs"]) == (
        15,
        21,
        15,
    )
    assert detail["checks"] == {"weighted_mean": True, "provider_floor": True, "valid_runs": True}


def test_one_valid_run_fewer_fails() -> None:
    spec = list(SEVEN_AT_BOUNDARY)
    spec[1] = (1.0, [9.5, None, None])  # 14 valid; every mean unchanged
    detail = rubric.judge_panel(_panel(spec), RUBRIC)
    assert detail["weighted_mean"] == 9.0 and detail["valid_runs"] == 14
    assert detail["checks"] == {"weighted_mean": True, "provider_floor": True, "valid_runs": False}


def test_provider_just_below_floor_fails() -> None:
    spec = list(SEVEN_AT_BOUNDARY)
    spec[0] = (1.0, [6, 6, 5.99])
    detail = rubric.judge_panel(_panel(spec), RUBRIC)
    assert detail["providers_below_floor"] == ["p1"]
    assert not detail["checks"]["provider_floor"] and not detail["checks"]["weighted_mean"]


def test_weighted_mean_uses_weights_and_is_exact() -> None:
    # (2 * 8.5 + 1 * 10) / 3 = 9 exactly; unweighted it would be 9.25.
    detail = rubric.judge_panel(_panel([(2.0, [8.5] * 3), (1.0, [10] * 3)]), RUBRIC)
    assert detail["weighted_mean"] == 9.0 and detail["checks"]["weighted_mean"]
    # Axis scores whose float mean is 8.999999999999998: their exact mean is 9.
    values = [8.0, 8.0, 9.4, 9.7, 9.9, 9.0, 9.0]
    assert sum(values) / 7 < 9
    run = rubric.Run(1, dict(zip(AXES, values, strict=True)))
    assert run.score() == 9
    detail = rubric.judge_panel([rubric.ProviderRuns(Judge("p", "u", "m"), [run])], RUBRIC)
    assert detail["checks"]["weighted_mean"]
    detail = rubric.judge_panel(_panel([(1.0, [8.99] * 3)]), RUBRIC)
    assert not detail["checks"]["weighted_mean"]


def test_provider_with_no_valid_run_fails_the_floor() -> None:
    detail = rubric.judge_panel(_panel([(1.0, [10] * 3), (1.0, [None] * 3)]), RUBRIC)
    assert detail["providers_below_floor"] == ["p2"]
    assert detail["providers"][1]["mean"] is None
    assert detail["weighted_mean"] == 10.0  # p2 has no mean to weigh


def _script_boundary(server: ChatServer, extra_invalid: bool) -> None:
    server.script("model-1", *[reply(scores(6))] * 3)
    bad = [
        Step(content="Sorry, I cannot score this."),  # not JSON
        reply(scores(11)),  # out of range
        reply({"relevance": 9}),  # axes missing
        reply(scores(9.5, 9.5, 9.5, 9.5, 9.5, 9.5, -1)),
        Step(content='{"relevance": "high"}'),
        reply(scores(10.5)),
    ]
    for number in range(2, 8):
        runs = [reply(scores(9.5)), reply(scores(9.5)), bad[number - 2]]
        if extra_invalid and number == 2:
            runs[1] = reply(scores(42))
        server.script(f"model-{number}", *runs)


def test_rubric_through_http_at_the_boundaries_passes(server: ChatServer, tmp_path: Path) -> None:
    _script_boundary(server, extra_invalid=False)
    card = rubric.GATE.evaluate(
        make_post(BODY, tmp_path), context(tmp_path, judges=judges(server, 7))
    )
    assert card.verdict == "PASS", card.summary
    assert card.score == 9.0
    detail = card.detail
    assert (detail["valid_runs"], detail["required_valid_runs"]) == (15, 15)
    assert detail["providers"][0]["mean"] == 6.0
    assert detail["providers"][1]["axes"] == dict.fromkeys(AXES, 9.5)
    reasons = sorted(item["reason"] for item in detail["invalid_runs"])
    assert reasons == sorted(
        [
            "reply is not JSON: 'Sorry, I cannot score this.'",
            "relevance = 11 is outside 0..10",
            "missing key 'technical_accuracy'",
            "architectural_depth = -1 is outside 0..10",
            "relevance is not a number (str)",
            "relevance = 10.5 is outside 0..10",
        ]
    )
    assert len(server.hits) == 21
    sent = server.hits[0].body or {}
    assert sent["response_format"] == {"type": "json_object"}
    assert all(axis in server.hits[0].prompt for axis in AXES)
    assert [f.code for f in card.findings].count("INVALID_RUN") == 6


def test_rubric_through_http_one_valid_run_short_fails(server: ChatServer, tmp_path: Path) -> None:
    _script_boundary(server, extra_invalid=True)
    card = rubric.GATE.evaluate(
        make_post(BODY, tmp_path), context(tmp_path, judges=judges(server, 7))
    )
    assert card.verdict == "FAIL"
    assert card.detail["valid_runs"] == 14
    assert card.detail["checks"]["valid_runs"] is False
    assert card.findings[0].code == "RUBRIC_VALID_RUNS"
    assert "14 valid runs < 15 required of 21" in card.findings[0].message


def test_rubric_scales_the_valid_run_floor_to_the_panel(server: ChatServer, tmp_path: Path) -> None:
    """One provider x 3 runs needs ceil(15 * 3 / 21) = 3 valid runs: one invalid fails."""
    server.script("model-1", reply(scores(10)), reply(scores(10)), Step(content="nope"))
    card = rubric.GATE.evaluate(
        make_post(BODY, tmp_path), context(tmp_path, judges=judges(server, 1))
    )
    assert card.verdict == "FAIL"
    assert (card.detail["valid_runs"], card.detail["required_valid_runs"]) == (2, 3)


def test_rubric_survives_429_and_500(server: ChatServer, tmp_path: Path) -> None:
    server.script(
        "model-1",
        Step(status=429, headers={"Retry-After": "0"}),
        Step(status=500),
        *[reply(scores(9))] * 3,
    )
    card = rubric.GATE.evaluate(
        make_post(BODY, tmp_path),
        context(tmp_path, judges=judges(server, 1), judge_concurrency=1),
    )
    assert card.verdict == "PASS", card.summary
    assert len(server.hits) == 5


def test_rubric_timeouts_are_invalid_runs(server: ChatServer, tmp_path: Path) -> None:
    server.script("model-1", *[reply(scores(10))] * 3)
    server.default = Step(content=scores(10), delay=1.0)  # model-2 never answers in time
    card = rubric.GATE.evaluate(
        make_post(BODY, tmp_path),
        context(tmp_path, judges=judges(server, 2), judge_timeout=0.2, judge_retries=0),
    )
    assert card.verdict == "FAIL"
    assert card.detail["providers_below_floor"] == ["p2"]
    assert {i["reason"] for i in card.detail["invalid_runs"]} == {"timed out (timeout 0.2s)"}


def test_rubric_errors_when_no_judge_answers(server: ChatServer, tmp_path: Path) -> None:
    server.default = Step(status=503)
    card = rubric.GATE.evaluate(
        make_post(BODY, tmp_path), context(tmp_path, judges=judges(server, 2), judge_retries=1)
    )
    assert card.verdict == "ERROR"
    assert (
        card.summary == 'no judge answered: HTTP 503: {"error": {"message": "scripted"}} '
        "after 2 attempts"
    )


def test_rubric_with_an_unset_key_variable_is_an_error(
    server: ChatServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("POSTGATES_UNSET_KEY", raising=False)
    panel = (Judge("hosted", server.url, "model-1", "POSTGATES_UNSET_KEY"),)
    card = rubric.GATE.evaluate(make_post(BODY, tmp_path), context(tmp_path, judges=panel))
    assert card.verdict == "ERROR"
    assert card.summary == (
        "no judge answered: environment variable POSTGATES_UNSET_KEY "
        "(api_key_env of judge 'hosted') is not set"
    )
    assert server.hits == []


def test_rubric_second_run_is_served_from_the_cache(server: ChatServer, tmp_path: Path) -> None:
    server.responder = lambda hit: reply(scores(9))
    post = make_post(BODY, tmp_path)
    first = rubric.GATE.evaluate(post, context(tmp_path, judges=judges(server, 2)))
    assert len(server.hits) == 6
    second = rubric.GATE.evaluate(post, context(tmp_path, judges=judges(server, 2)))
    assert len(server.hits) == 6  # zero requests the second time
    assert second.to_dict() == first.to_dict()


# ---------------------------------------------------------------------- gate 4

PARAGRAPH = (
    "We broke the release on a Tuesday, and the pager told us before the dashboards did. "
    "The fix was one line in the retry loop; finding it took the afternoon and most of the "
    "coffee. Here is what we changed, and why the test suite never noticed. "
)


def _tone_post(folder: Path, name: str, tone_name: str | None, marker: str) -> Path:
    front = "---\nlayout: post\ntitle: T\ndate: 2026-06-03\n"
    if tone_name:
        front += f"tone: {tone_name}\n"
    body = f"{marker} {PARAGRAPH}\n\nShort line.\n\n{marker} second {PARAGRAPH}\n"
    path = folder / name
    path.write_text(front + "---\n" + body, encoding="utf-8")
    return path


@pytest.fixture
def corpus(tmp_path: Path) -> list[Path]:
    folder = tmp_path / "_posts"
    folder.mkdir()
    return [
        _tone_post(folder, "2026-01-01-target.md", "wry", "TARGET"),
        _tone_post(folder, "2026-01-02-alpha.md", "wry", "ALPHA"),
        _tone_post(folder, "2026-01-03-beta.md", "wry", "BETA"),
        _tone_post(folder, "2026-01-04-gamma.md", "wry", "GAMMA"),
        _tone_post(folder, "2026-01-05-formal.md", "formal", "FORMAL"),
        _tone_post(folder, "2026-01-06-untoned.md", None, "UNTONED"),
    ]


def tone_context(tmp_path: Path, posts: list[Path], **settings: Any) -> GateContext:
    ctx = context(tmp_path, **settings)
    ctx.batches = RunBatches(posts=tuple(posts))
    return ctx


def test_tone_skips_without_judges(tmp_path: Path, corpus: list[Path]) -> None:
    card = tone.GATE.evaluate(parse_post(corpus[0]), tone_context(tmp_path, corpus))
    assert card.verdict == "SKIP" and card.summary == NO_JUDGE_SUMMARY


def test_tone_skips_without_a_tone(server: ChatServer, tmp_path: Path, corpus: list[Path]) -> None:
    card = tone.GATE.evaluate(
        parse_post(corpus[5]), tone_context(tmp_path, corpus, judges=judges(server, 1))
    )
    assert card.verdict == "SKIP"
    assert card.summary.startswith("no tone: set `tone:` in the front matter")
    assert server.hits == []


def test_tone_skips_without_reference_posts(
    server: ChatServer, tmp_path: Path, corpus: list[Path]
) -> None:
    card = tone.GATE.evaluate(
        parse_post(corpus[4]), tone_context(tmp_path, corpus, judges=judges(server, 1))
    )
    assert card.verdict == "SKIP"
    assert card.summary.startswith("no reference post with tone 'formal' among the 6 collected")
    assert server.hits == []


def _tone_run(
    server: ChatServer, tmp_path: Path, corpus: list[Path], values: list[float], **settings: Any
) -> Scorecard:
    server.script("model-1", *[reply({"score": v, "reason": "close"}) for v in values])
    ctx = tone_context(tmp_path, corpus, judges=judges(server, 2), **settings)
    return tone.GATE.evaluate(parse_post(corpus[0]), ctx)


def test_tone_samples_three_references_of_the_same_tone(
    server: ChatServer, tmp_path: Path, corpus: list[Path]
) -> None:
    card = _tone_run(server, tmp_path, corpus, [8] * 5)
    assert card.verdict == "PASS"
    references = card.detail["references"]
    assert len(references) == 3
    assert {r["post"] for r in references} == {
        "2026-01-02-alpha.md",
        "2026-01-03-beta.md",
        "2026-01-04-gamma.md",
    }
    assert len(server.hits) == 5 and {h.model for h in server.hits} == {"model-1"}
    prompt = server.hits[0].prompt
    assert "Tone: wry" in prompt
    for marker in ("ALPHA", "BETA", "GAMMA"):
        assert prompt.count(marker) == 1
    assert "FORMAL" not in prompt and "UNTONED" not in prompt
    assert prompt.count("TARGET") == 2  # the draft's two paragraphs, never as a reference


def test_tone_sample_is_deterministic_per_post(corpus: list[Path]) -> None:
    pool = tone.reference_pool(corpus, {})["wry"]
    candidates = [row for row in pool if "target" not in row[1]]
    first = tone.sample_references(corpus[0], candidates)
    assert tone.sample_references(corpus[0], list(candidates)) == first
    assert tone.sample_references(corpus[0], list(reversed(candidates))) == first
    others = {
        tuple(r[2] for r in tone.sample_references(Path(f"post-{i}.md"), candidates))
        for i in range(12)
    }
    assert len(others) > 1  # the seed is the post, not a constant


@pytest.mark.parametrize(
    ("values", "verdict", "mean"),
    [
        ([7, 7, 7, 7, 7], "PASS", 7.0),
        ([6.9, 7.1, 7, 7, 7], "PASS", 7.0),
        ([7, 7, 7, 7, 6.95], "FAIL", 6.99),
    ],
)
def test_tone_floor_boundary(
    server: ChatServer,
    tmp_path: Path,
    corpus: list[Path],
    values: list[float],
    verdict: str,
    mean: float,
) -> None:
    card = _tone_run(server, tmp_path, corpus, values, tone_floor=7.0)
    assert (card.verdict, card.detail["mean"]) == (verdict, mean)
    if verdict == "FAIL":
        assert card.findings[0].code == "TONE_MISMATCH"


def test_tone_invalid_runs_are_recorded(
    server: ChatServer, tmp_path: Path, corpus: list[Path]
) -> None:
    server.script("model-1", reply({"score": 12}), Step(content="maybe an 8?"))
    card = _tone_run(server, tmp_path, corpus, [8, 8, 8])
    assert card.verdict == "PASS" and card.detail["valid_runs"] == 3
    invalid = [r["invalid"] for r in card.detail["runs"] if "invalid" in r]
    assert sorted(invalid) == ["reply is not JSON: 'maybe an 8?'", "score = 12 is outside 0..10"]


def test_tone_errors_when_the_judge_never_answers(
    server: ChatServer, tmp_path: Path, corpus: list[Path]
) -> None:
    server.default = Step(status=500)
    card = _tone_run(server, tmp_path, corpus, [], judge_retries=0)
    assert card.verdict == "ERROR" and card.summary.startswith("the judge did not answer")


def test_tone_second_run_is_cached(server: ChatServer, tmp_path: Path, corpus: list[Path]) -> None:
    server.default = reply({"score": 9})
    first = _tone_run(server, tmp_path, corpus, [])
    second = _tone_run(server, tmp_path, corpus, [])
    assert len(server.hits) == 5
    assert first.to_dict() == second.to_dict()


@pytest.mark.parametrize(
    ("filename", "content"),
    [
        ("tones.yml", "untoned: wry\n"),  # by slug
        ("tones.yaml", "2026-01-06-untoned.md:\n  tone: wry\n"),  # by file name, as a table
        ("tones.json", '{"2026-01-06-untoned": "wry"}'),  # by stem, JSON
    ],
)
def test_tone_from_the_assignments_file(
    server: ChatServer, tmp_path: Path, corpus: list[Path], filename: str, content: str
) -> None:
    assignments = tmp_path / filename
    assignments.write_text(content, encoding="utf-8")
    server.default = reply({"score": 9})
    ctx = tone_context(tmp_path, corpus, judges=judges(server, 1), tone_assignments=assignments)
    card = tone.GATE.evaluate(parse_post(corpus[5]), ctx)
    assert card.verdict == "PASS"
    assert (card.detail["tone"], card.detail["tone_source"]) == ("wry", "tone_assignments")


def test_tone_assignments_must_be_a_mapping(
    server: ChatServer, tmp_path: Path, corpus: list[Path]
) -> None:
    assignments = tmp_path / "tones.yml"
    assignments.write_text("- wry\n- formal\n", encoding="utf-8")
    ctx = tone_context(tmp_path, corpus, judges=judges(server, 1), tone_assignments=assignments)
    card = tone.GATE.evaluate(parse_post(corpus[0]), ctx)
    assert card.verdict == "ERROR"
    assert card.summary == "tone_assignments file tones.yml must map post names to tones"


def test_judged_gates_skip_in_a_pytest_run_with_the_reason(
    pytester: pytest.Pytester, blog: Blog
) -> None:
    """No judge configured: gates 3, 4 and 10 are pytest skips whose reason says how to
    configure one, never passes."""
    blog.post(front={"layout": "post", "title": "T", "date": "2026-01-01", "tone": "wry"})
    result = pytester.runpytest("--postgates-only=3,4,10", "--postgates-all", "-rs")
    result.assert_outcomes(skipped=3)
    result.stdout.fnmatch_lines(
        ["SKIPPED [[]3[]] _posts/2026-01-01-good.md:1: no judge configured: add a *"]
    )
    cards = blog.scorecards()
    verdicts = {name: card["verdict"] for name, card in cards.items() if "-gate" in name}
    assert verdicts == {
        "2026-01-01-good-gate3-multi_llm_rubric.json": "SKIP",
        "2026-01-01-good-gate4-tone_fit.json": "SKIP",
        "2026-01-01-good-gate10-claim_review.json": "SKIP",
    }
