"""Where a judge's API key may go: read only from a variable named for the purpose, and
sent only to a well-known provider's host or to a host the project lists in
``allow_hosts``. A configuration (a pull request's pyproject.toml, say) could otherwise
name any secret of the runner and send it to any server."""

from __future__ import annotations

from urllib.parse import urlsplit

from pytest_postgates.config import Judge, judge_key_variable_problem
from pytest_postgates.tools.link_guard import HostPolicy, ip_literal

# Hosts of the hosted OpenAI-compatible providers a key is made for (HTTPS only).
PROVIDER_HOSTS = frozenset(
    {
        "api.openai.com",
        "api.anthropic.com",
        "generativelanguage.googleapis.com",
        "api.mistral.ai",
        "api.groq.com",
        "api.together.xyz",
        "api.deepseek.com",
        "api.fireworks.ai",
        "api.perplexity.ai",
        "api.x.ai",
        "api.cohere.com",
        "openrouter.ai",
    }
)
# Per-resource hosts of a provider (Azure OpenAI: <resource>.openai.azure.com).
PROVIDER_HOST_SUFFIXES = (".openai.azure.com",)


def key_refusal(judge: Judge, allow_hosts: tuple[str, ...]) -> str | None:
    """Why ``judge``'s key must not be sent, or None when it may (or there is none)."""
    if not judge.api_key_env:
        return None
    problem = judge_key_variable_problem(judge.api_key_env)
    if problem is not None:
        return problem
    parts = urlsplit(judge.base_url)
    host = (parts.hostname or "").rstrip(".").lower()
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        port = 0
    if parts.scheme == "https" and (
        host in PROVIDER_HOSTS or host.endswith(PROVIDER_HOST_SUFFIXES)
    ):
        return None
    policy = HostPolicy(allow_hosts)
    address = ip_literal(host) if host else None
    if host and policy.allows_name(host, port):
        return None
    if address is not None and policy.allows_address(address, port):
        return None
    return (
        f"judge {judge.name!r}: base_url host {host or judge.base_url!r} is not a well-known"
        f" provider's and not listed in allow_hosts, so the key in {judge.api_key_env}"
        " (api_key_env) is not sent; add the host to allow_hosts if it is yours"
    )
