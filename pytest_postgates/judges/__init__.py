"""LLM judges: OpenAI-compatible chat-completions providers, their cache, reply parsing.

The judged gates (3 multi_llm_rubric, 4 tone_fit, 10 claim_review) ask providers
configured as ``[[tool.postgates.judges]]``. With none configured they SKIP with
:data:`NO_JUDGE_SUMMARY`, which says how to configure one: nothing passes silently.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytest_postgates.judges.client import (
    ChatClient,
    ChatReply,
    ChatRequest,
    redact,
    retry_after,
    secrets_of,
)
from pytest_postgates.judges.replies import InvalidReply, number, parse_object, shorten, text

if TYPE_CHECKING:
    from pathlib import Path

    from pytest_postgates.config import Settings

NO_JUDGE_SUMMARY = (
    "no judge configured: add a [[tool.postgates.judges]] table to pyproject.toml with "
    "name, base_url (any OpenAI-compatible endpoint), model, api_key_env (the name of the "
    "environment variable holding the key) and optionally weight"
)


def no_judge_detail() -> dict[str, str]:
    return {"reason": NO_JUDGE_SUMMARY}


def client_for(settings: Settings, cache_dir: Path) -> ChatClient:
    """A client whose cache lives under ``cache_dir`` (the evidence cache folder: pytest's
    cache, so ``--cache-clear`` drops stale replies along with stale indexes)."""
    return ChatClient(settings, cache_dir)


__all__ = [
    "NO_JUDGE_SUMMARY",
    "ChatClient",
    "ChatReply",
    "ChatRequest",
    "InvalidReply",
    "client_for",
    "no_judge_detail",
    "number",
    "parse_object",
    "redact",
    "retry_after",
    "secrets_of",
    "shorten",
    "text",
]
