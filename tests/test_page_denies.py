"""Gate 2's ``page-denies`` rule (helpers/history_cues.py): a name the token's own sentence
says the product lacks, or will add, is no claim that it has it; the subject of a negated
verb of behaviour, and what the sentence offers instead, stay claims."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_postgates.gates import symbol_grounding as gate
from pytest_postgates.helpers.history_cues import denied
from tests.helpers import make_post, make_repo, repo_context, token_outcome


def _where(sentence: str, token: str) -> str:
    return denied(sentence, sentence.index(token), token)


@pytest.mark.parametrize(
    ("sentence", "token"),
    [
        ("Pydantic AI does not expose a `dynamic_filtering` option.", "dynamic_filtering"),
        ("`mediaType` is not read, only `media_type`.", "mediaType"),
        ("In the future we intend to add `line_number` to errors.", "line_number"),
        ("The client doesn't support `http3` yet.", "http3"),
        ("There is no `Agent.stop()` method.", "Agent.stop()"),
        ("The `retry_budget` setting is not yet supported.", "retry_budget"),
        ("A `stream_id` key will be added in a later release.", "stream_id"),
        # got's migration guide from request: "No `followAllRedirects` option."
        ("No `followAllRedirects` option.", "followAllRedirects"),
    ],
)
def test_the_name_the_sentence_denies_or_defers(sentence: str, token: str) -> None:
    assert _where(sentence, token), sentence


@pytest.mark.parametrize(
    ("sentence", "token"),
    [
        # The other side of the negation: what the sentence offers is a claim.
        ("`mediaType` is not read, only `media_type`.", "media_type"),
        # The subject of a negated verb of behaviour: the option exists.
        ("`retry_policy` does not retry on 4xx responses.", "retry_policy"),
        ("The `Agent` does not accept strings; pass a `RunContext`.", "RunContext"),
        # The negation is about something else in the clause.
        ("It does not read the config, so call `load_config_file()`.", "load_config_file()"),
        ("`Client.send()` is not thread-safe.", "Client.send()"),
        ("Set `max_retry` to a number; it does not default to 3.", "max_retry"),
        ("No need to set `max_retry` again.", "max_retry"),
    ],
)
def test_a_claim_beside_a_negation_stays_a_claim(sentence: str, token: str) -> None:
    assert not _where(sentence, token), sentence


CODE = "def retry_delay_seconds() -> None: ...\n\n\ndef line_numbers() -> None: ...\n"


def test_a_name_the_sentence_denies_is_unjudged(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", {"mylib/__init__.py": CODE})
    ctx = repo_context(repo, tmp_path / "cache")
    body = (
        "The agent does not expose a `retry_delay` option.\n\n"
        "We intend to add `line_number` later.\n\n"
        "Set `retry_delay_secs` to tune it.\n"
    )
    card = gate.GATE.evaluate(make_post(body, tmp_path), ctx)
    for token in ("retry_delay", "line_number"):
        entry = token_outcome(card, token)
        assert (entry["outcome"], entry["rule"]) == ("unjudged", "page-denies"), entry
    # The same near miss, claimed: a finding.
    assert token_outcome(card, "retry_delay_secs")["outcome"] == "ungrounded"
    off = repo_context(repo, tmp_path / "off", symbol_rules_off=("page-denies",))
    card = gate.GATE.evaluate(make_post(body, tmp_path), off)
    assert token_outcome(card, "retry_delay")["outcome"] == "ungrounded"


def test_a_list_item_of_the_name_alone_is_denied_by_its_next_sentence(tmp_path: Path) -> None:
    """got's migration guide from axios: "- `onUploadProgress`" with the nested item "This
    option does not exist. Instead, use ...": the page says the product lacks it."""
    repo = make_repo(tmp_path / "repo", {"mylib/__init__.py": CODE})
    ctx = repo_context(repo, tmp_path / "cache")
    body = (
        "Breaking changes:\n\n"
        "- `retry_delay`\n"
        "  - This option does not exist. Instead, use `line_numbers`.\n"
        "- `line_number`\n"
        "  - It was removed in 2.0.\n"
        "- `retry_delay_secs`\n"
        "  - This option works the same.\n"
    )
    card = gate.GATE.evaluate(make_post(body, tmp_path), ctx)
    entry = token_outcome(card, "retry_delay")
    assert (entry["outcome"], entry["rule"]) == ("unjudged", "page-denies"), entry
    entry = token_outcome(card, "line_number")
    assert (entry["outcome"], entry["rule"]) == ("unjudged", "historical"), entry
    # The next sentence says nothing of the kind: still a claim, and a miss.
    assert token_outcome(card, "retry_delay_secs")["outcome"] == "ungrounded"
