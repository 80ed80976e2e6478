"""A judge's key goes only where a key is made to go: it is read from a variable named for
the purpose (not GITHUB_TOKEN or a cloud secret) and sent only to a well-known provider's
host or a host listed in ``allow_hosts``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_postgates.config import Judge, Settings, SettingsError, apply
from pytest_postgates.judges.client import ChatClient, ChatRequest
from tests.chat_server import ChatServer, reply

MESSAGES = (("system", "Score it."), ("user", "A post."))


@pytest.fixture
def server() -> Iterator[ChatServer]:
    chat = ChatServer().start()
    yield chat
    chat.stop()


@pytest.mark.parametrize(
    "variable", ["GITHUB_TOKEN", "ACTIONS_RUNTIME_TOKEN", "AWS_SECRET_ACCESS_KEY", "HOME", "PATH"]
)
def test_a_variable_not_made_for_a_judge_key_is_a_settings_error(variable: str) -> None:
    judge = {"name": "j", "base_url": "https://api.openai.com/v1", "model": "m"}
    with pytest.raises(SettingsError, match=r"judges\.api_key_env"):
        apply(Settings(), {"judges": [judge | {"api_key_env": variable}]}, Path("."), "test")


@pytest.mark.parametrize("variable", ["OPENAI_API_KEY", "MY_JUDGE_KEY", "POSTGATES_JUDGE_TOKEN"])
def test_variables_named_for_a_key_are_accepted(variable: str) -> None:
    judge = {"name": "j", "base_url": "https://api.openai.com/v1", "model": "m"}
    settings = apply(Settings(), {"judges": [judge | {"api_key_env": variable}]}, Path("."), "t")
    assert settings.judges[0].api_key_env == variable


def test_the_key_is_never_sent_to_a_host_outside_allow_hosts(
    server: ChatServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POSTGATES_HOSTILE_JUDGE_KEY", "sk-hostile-secret-value-123")
    judge = Judge("j", server.url, "m1", api_key_env="POSTGATES_HOSTILE_JUDGE_KEY")
    server.script("m1", reply("{}"), reply("{}"))
    with ChatClient(Settings(judge_retries=0), None) as client:
        refused = client.complete(ChatRequest(judge, MESSAGES))
    assert not refused.ok and not server.hits
    assert refused.error is not None and "allow_hosts" in refused.error
    assert "api_key_env" in refused.error and "sk-hostile" not in refused.error
    # Listed by the project: the host is trusted with the key.
    with ChatClient(Settings(judge_retries=0, allow_hosts=("127.0.0.1",)), None) as client:
        assert client.complete(ChatRequest(judge, MESSAGES)).ok
    (hit,) = server.hits
    assert hit.headers["authorization"] == "Bearer sk-hostile-secret-value-123"


def test_a_judge_built_in_code_cannot_send_another_secret_either(
    server: ChatServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_not_for_judges_0123456789")
    judge = Judge("j", server.url, "m1", api_key_env="GITHUB_TOKEN")
    server.script("m1", reply("{}"))
    with ChatClient(Settings(judge_retries=0, allow_hosts=("127.0.0.1",)), None) as client:
        refused = client.complete(ChatRequest(judge, MESSAGES))
    assert not refused.ok and not server.hits
    assert refused.error is not None and "judges.api_key_env" in refused.error


@pytest.mark.parametrize(
    ("base_url", "refused"),
    [
        ("https://api.openai.com/v1", False),
        ("https://myres.openai.azure.com/openai", False),
        ("http://api.openai.com/v1", True),  # a provider's host, but not over HTTPS
        ("https://api.openai.com.evil.example/v1", True),
        ("https://evil.example/v1", True),
    ],
)
def test_well_known_provider_hosts_need_no_listing(base_url: str, refused: bool) -> None:
    from pytest_postgates.judges.key_policy import key_refusal

    judge = Judge("j", base_url, "m", api_key_env="OPENAI_API_KEY")
    assert (key_refusal(judge, ()) is not None) is refused
