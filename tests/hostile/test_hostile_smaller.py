"""Smaller hostile-input points: terminal escapes, UTF-16, numeric settings, internal
links outside the site, short judge keys, and the suppression policy and counts."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pytest_postgates.config import Judge, Settings, SettingsError, apply
from pytest_postgates.gates import GateContext, default_settings
from pytest_postgates.gates import readability_links as gate6
from pytest_postgates.judges.client import redact, secrets_of
from pytest_postgates.post import parse_post
from pytest_postgates.reports import github_annotations

if TYPE_CHECKING:
    from tests.conftest import Blog

ESCAPES = "\x1b]52;c;SGVsbG8=\x07\x1b[2J\x1b]0;pwned\x07\x9b31m"


def test_escape_sequences_from_a_post_never_reach_the_terminal_raw(
    pytester: pytest.Pytester, blog: Blog, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    blog.post(
        body="This post shows how pytest loads a Python plugin.\n\n"
        f"It is a paradigm shift {ESCAPES} here.\n"
    )
    result = pytester.runpytest("_posts", "--postgates-only=11", "-rA")
    output = result.stdout.str() + result.stderr.str()
    assert "paradigm shift" in output
    for raw in ("\x1b", "\x07", "\x9b"):
        assert raw not in output
    assert "\\x1b]52;c;" in output  # shown, visibly escaped
    annotations = [line for line in result.stdout.lines if line.startswith("::error")]
    assert annotations and "\\x1b" in annotations[0]


def test_github_annotations_escape_controls() -> None:
    records = {
        "_posts/x.md": {
            11: {
                "gate": 11,
                "name": "narrative_opening",
                "advisory": False,
                "verdict": "FAIL",
                "findings": [[3, "BANNED_PHRASE", f"quoted {ESCAPES}", ""]],
            }
        }
    }
    (line,) = github_annotations(records)
    assert "\x1b" not in line and "\x07" not in line and "\x9b" not in line


@pytest.mark.parametrize("bom", [b"\xff\xfe", b"\xfe\xff"], ids=["le", "be"])
def test_utf16_with_bom_is_named_not_called_binary(tmp_path: Path, bom: bytes) -> None:
    text = "---\nlayout: post\ntitle: T\ndate: 2026-01-01\n---\nBody.\n"
    encoding = "utf-16-le" if bom == b"\xff\xfe" else "utf-16-be"
    path = tmp_path / "2026-01-01-wide.md"
    path.write_bytes(bom + text.encode(encoding))
    (problem,) = parse_post(path).fatal_problems
    assert problem.code == "UTF16"
    assert "UTF-16; save as UTF-8" in problem.message


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("link_timeout", 0),
        ("link_timeout", -1),
        ("link_timeout", math.nan),
        ("link_timeout", "nan"),
        ("link_timeout", math.inf),
        ("flesch_floor", math.nan),
        ("flesch_floor", "inf"),
        ("judge_timeout", 0),
        ("judge_concurrency", 0),
        ("judge_retries", -1),
        ("judge_cache_max_age", -5),
        ("link_cache_max_age", -1),
        ("rubric_runs", 0),
        ("tone_runs", 0),
        ("rubric_valid_runs", -1),
        ("max_paragraph_sentences", 0),
        ("body_line_floor", -3),
        ("repomap_budget", 0),
        ("hhem_threshold", math.nan),
        ("hhem_threshold", 2.0),
        ("rubric_mean_floor", math.nan),
        ("tone_floor", math.inf),
        ("rubric_provider_floor", "nan"),
        ("body_line_floor", 2.5),
    ],
)
def test_numeric_settings_are_validated(key: str, value: object) -> None:
    with pytest.raises(SettingsError, match=key):
        apply(default_settings(), {key: value}, Path("."), "test")


def test_judge_weight_and_env_thresholds_are_validated() -> None:
    from pytest_postgates.config import from_environment

    judge = {"name": "a", "base_url": "http://x", "model": "m", "weight": math.nan}
    with pytest.raises(SettingsError, match="weight"):
        apply(Settings(), {"judges": [judge]}, Path("."), "test")
    with pytest.raises(SettingsError, match="SYMBOL_GROUNDING_THRESHOLD"):
        from_environment(default_settings(), {"SYMBOL_GROUNDING_THRESHOLD": "nan"})


def test_numeric_setting_is_a_usage_error_in_a_run(pytester: pytest.Pytester, blog: Blog) -> None:
    blog.post()
    blog.pyproject("link_timeout = -1\n")
    result = pytester.runpytest("_posts")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "link_timeout" in result.stderr.str()


def test_good_numeric_settings_still_apply() -> None:
    settings = apply(
        default_settings(),
        {"link_timeout": 2.5, "flesch_floor": -1000, "judge_retries": 0},
        Path("."),
        "t",
    )
    flesch_floor = settings.for_gate(gate6.ReadabilityLinksSettings).flesch_floor
    assert (settings.link_timeout, flesch_floor, settings.judge_retries) == (2.5, -1000, 0)


def test_internal_links_resolve_only_inside_the_site(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "_posts").mkdir(parents=True)
    (tmp_path / "outside.md").write_text("# not part of the site\n")
    (site / "_posts" / "2026-06-01-other.md").write_text(
        "---\nlayout: post\ntitle: O\ndate: 2026-06-01\n---\nOther.\n"
    )
    path = site / "_posts" / "2026-06-03-test.md"
    path.write_text(
        "---\nlayout: post\ntitle: T\ndate: 2026-06-03\n---\n"
        "Read {% link /etc/passwd %} and {% link ../outside.md %} now.\n\n"
        "Also [this](../../outside.md) and [that](../../../../../../../etc/hostname.md).\n\n"
        "But {% link _posts/2026-06-01-other.md %} and [it](2026-06-01-other.md) are real.\n",
        encoding="utf-8",
    )
    post = parse_post(path)
    context = GateContext.create(Settings(offline=True), tmp_path / "cache")
    card = gate6.check(post, context)
    broken = sorted(f.message for f in card.findings if f.code == "BROKEN_INTERNAL_LINK")
    assert len(broken) == 4, broken
    assert all(
        "outside" in message or "passwd" in message or "hostname" in message for message in broken
    )


@pytest.mark.parametrize("key", ["k", "k3y", "abcde"])
def test_short_judge_keys_are_redacted_too(key: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHORT_JUDGE_KEY", key)
    secrets = secrets_of([Judge("j", "http://x", "m", api_key_env="SHORT_JUDGE_KEY")])
    assert key in secrets
    assert redact(f"HTTP 401: invalid api key '{key}'", secrets) == (
        "HTTP 401: invalid api key '[redacted]'"
    )
    assert redact(f"Bearer {key}", secrets) == "Bearer [redacted]"


# ----------------------------------------------------------------- suppression policy
SUPPRESSED = (
    "This post is about some ideas in general.\n\n"
    "<!-- postgates-disable-file narrative_opening -->\n\n"
    "Honestly, it is a paradigm shift for reviews.\n"
)


@pytest.mark.parametrize(
    ("policy", "outcome"),
    [
        ("true", "passed"),
        ("false", "failed"),
        ('["call_graph_claims"]', "failed"),
        ('["narrative_opening"]', "passed"),
    ],
)
def test_allow_suppression_policy(
    pytester: pytest.Pytester, blog: Blog, policy: str, outcome: str
) -> None:
    blog.post(body=SUPPRESSED)
    blog.pyproject(f"allow_suppression = {policy}\n")
    result = pytester.runpytest("_posts", "--postgates-only=11")
    result.assert_outcomes(**{outcome: 1})
    if outcome == "failed":
        result.stdout.fnmatch_lines(["*suppression*not allowed*"])


def test_allow_suppression_names_real_gates(pytester: pytest.Pytester, blog: Blog) -> None:
    blog.post()
    blog.pyproject('allow_suppression = ["no_such_gate"]\n')
    result = pytester.runpytest("_posts")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "no_such_gate" in result.stderr.str()


def test_suppression_counts_are_shown_to_reviewers(pytester: pytest.Pytester, blog: Blog) -> None:
    blog.post(body=SUPPRESSED)
    blog.post("2026-01-02-clean.md")
    result = pytester.runpytest("_posts", "--postgates-only=11", "--postgates-html=report.html")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["postgates: inline suppression allowed for every gate*"])
    result.stdout.fnmatch_lines(["*postgates: 2 finding(s) suppressed inline in 1 post(s)*"])
    overall = json.loads(
        (blog.path / ".postgates" / "scorecards" / "2026-01-01-good-overall.json").read_text()
    )
    assert overall["suppressed"] == {"narrative_opening": 2}
    clean = json.loads(
        (blog.path / ".postgates" / "scorecards" / "2026-01-02-clean-overall.json").read_text()
    )
    assert clean["suppressed"] == {}
    html = (blog.path / "report.html").read_text()
    assert "2 finding(s) suppressed inline" in html
