"""Gate 2's ``near-miss-owner`` (helpers/near_miss_owners.py): a near miss of a product name
that its own sentence gives to another party is that party's, unjudged; the product's own
near misses stay findings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pytest_postgates.gates import GateContext
from pytest_postgates.gates import symbol_grounding as gate
from tests.helpers import make_post, make_repo, repo_context, token_outcome

CLIENT_PY = """
import os

OPENAI_API_KEY = os.getenv("OPENAI_API_KEY")


class RequestExtensions:
    def baseUrl(self) -> str: ...


def one_var(base_url: str = "", retry_delay_seconds: float = 1.0) -> None: ...


def model_profile(name: str) -> None: ...
"""
FILES = {
    "pyproject.toml": '[project]\nname = "mylib"\n',
    "mylib/__init__.py": "from .client import RequestExtensions, model_profile, one_var\n",
    "mylib/client.py": CLIENT_PY,
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("mylib"), FILES)


@pytest.fixture
def ctx(repo: Path, tmp_path: Path) -> GateContext:
    return repo_context(repo, tmp_path / "cache")


def _outcome(body: str, token: str, tmp_path: Path, ctx: GateContext) -> dict[str, Any]:
    return token_outcome(gate.GATE.evaluate(make_post(body, tmp_path), ctx), token)


OTHER_PARTIES = {
    # A word of the token the sentence writes as another party's name.
    "EJENTUM_API_KEY": "Install it and set your Ejentum API key in the `EJENTUM_API_KEY` "
    "environment variable.\n",
    # The party's name right after the token.
    "onevar": "This rule maps to the `onevar` JSHint rule.\n",
    # Another package as the subject of a verb of having, its site linked.
    "RequestException": "`requests` exposes a top level `RequestException`, see "
    "[here](https://requests.readthedocs.io/en/latest/).\n",
    # A possessive whose noun the sentence gives to a party.
    "retry_delay": "The retries are Airflow task retries: configure them with the task's "
    "`retries` and `retry_delay`.\n",
    # A subject linked to another party's address.
    "baseUri": "The [Vercel AI SDK](https://ai-sdk.dev/) can route here by pointing each "
    "provider's `baseUri` at the proxy.\n",
    # Another tool's configuration file in the reader's home.
    "model_provider": "If you already have a `~/.codex/config.toml`, add the block and "
    "update `model_provider`.\n",
}


def test_a_near_miss_the_sentence_gives_to_another_party_is_unjudged(
    tmp_path: Path, ctx: GateContext
) -> None:
    for token, body in OTHER_PARTIES.items():
        entry = _outcome(body, token, tmp_path, ctx)
        assert (entry["outcome"], entry["rule"]) == ("unjudged", "near-miss-owner"), entry


PRODUCTS_OWN = {
    # The party provides the key, the product reads it: a claim.
    "WEATHER_API_KEY": "A weather API key from [tomorrow.io](https://www.tomorrow.io/) "
    "set via `WEATHER_API_KEY`.\n",
    # The sentence names the product: its own near miss.
    "EJENTUM_API_KEY": "mylib reads your Ejentum key from `EJENTUM_API_KEY`.\n",
    # No owner named.
    "retry_delay": "Configure the wait with `retry_delay`.\n",
    "onevar": "Call `onevar` once per file.\n",
    # The product's own package as the subject.
    "RequestException": "`mylib` exposes a top level `RequestException`, see "
    "[here](https://requests.readthedocs.io/en/latest/).\n",
}


def test_the_products_own_near_misses_stay_findings(tmp_path: Path, ctx: GateContext) -> None:
    for token, body in PRODUCTS_OWN.items():
        entry = _outcome(body, token, tmp_path, ctx)
        assert (entry["outcome"], entry["rule"]) == ("ungrounded", "model-near-miss"), entry
