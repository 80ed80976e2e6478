"""The chat-completions client: wire format, retries, Retry-After, timeouts, concurrency,
the response cache and key hygiene, against a real loopback server."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_postgates.config import Judge, Settings
from pytest_postgates.judges import (
    ChatClient,
    ChatRequest,
    InvalidReply,
    number,
    parse_object,
    redact,
    retry_after,
)
from pytest_postgates.judges import client as client_module
from tests.chat_server import ChatServer, Step, reply

KEY_ENV = "POSTGATES_TEST_JUDGE_KEY"
KEY = "sk-test-VERY-distinctive-4f9a1c"
MESSAGES = (("system", "Score it."), ("user", "A post."))


@pytest.fixture
def server() -> Iterator[ChatServer]:
    chat = ChatServer().start()
    yield chat
    chat.stop()


def _judge(server: ChatServer, model: str = "m1", key_env: str | None = None) -> Judge:
    return Judge(name=f"judge-{model}", base_url=server.url, model=model, api_key_env=key_env)


def _client(tmp_path: Path | None, sleeps: list[float] | None = None, **settings: object):
    # The loopback test server is the project's own judge host (a key goes nowhere else).
    values: dict[str, object] = {
        "judge_timeout": 2.0,
        "judge_retries": 3,
        "allow_hosts": ("127.0.0.1",),
    }
    values.update(settings)
    recorded = sleeps if sleeps is not None else []
    return ChatClient(
        Settings(**values),  # type: ignore[arg-type]
        tmp_path,
        sleep=recorded.append,
    )


def test_request_speaks_the_chat_completions_wire_format(
    server: ChatServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, KEY)
    server.script("m1", reply({"score": 7}))
    request = ChatRequest(_judge(server, key_env=KEY_ENV), MESSAGES, temperature=0.5)
    with _client(tmp_path) as client:
        result = client.complete(request)
    assert result.ok and json.loads(result.content or "") == {"score": 7}
    assert not result.cached and result.attempts == 1
    (hit,) = server.hits
    assert hit.path == "/v1/chat/completions"
    assert hit.headers["authorization"] == f"Bearer {KEY}"
    assert hit.body == {
        "model": "m1",
        "messages": [
            {"role": "system", "content": "Score it."},
            {"role": "user", "content": "A post."},
        ],
        "temperature": 0.5,
        "response_format": {"type": "json_object"},
    }


def test_no_key_variable_sends_no_authorization(server: ChatServer) -> None:
    server.script("m1", reply("{}"))
    with _client(None) as client:
        assert client.complete(ChatRequest(_judge(server), MESSAGES)).ok
    assert "authorization" not in server.hits[0].headers


def test_unset_key_variable_is_an_error_without_a_request(
    server: ChatServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(KEY_ENV, raising=False)
    with _client(None) as client:
        result = client.complete(ChatRequest(_judge(server, key_env=KEY_ENV), MESSAGES))
    assert not result.ok
    assert result.error is not None and KEY_ENV in result.error and "not set" in result.error
    assert server.hits == []


def test_429_honours_retry_after(server: ChatServer) -> None:
    server.script("m1", Step(status=429, headers={"Retry-After": "2"}), reply('{"ok": 1}'))
    sleeps: list[float] = []
    with _client(None, sleeps) as client:
        result = client.complete(ChatRequest(_judge(server), MESSAGES))
    assert result.ok and result.attempts == 2
    assert sleeps == [2.0]
    assert len(server.hits) == 2


def test_retry_after_is_bounded_and_read_as_a_date() -> None:
    assert retry_after("3600") == client_module.RETRY_AFTER_MAX
    assert retry_after("-5") == 0.0
    assert retry_after("soon") is None
    assert retry_after(None) is None
    now = 1_700_000_000.0
    assert retry_after("Tue, 14 Nov 2023 22:13:30 GMT", lambda: now) == pytest.approx(10.0)


def test_500_is_retried_with_exponential_backoff_then_reported(
    server: ChatServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(client_module, "BACKOFF_BASE", 0.5)
    server.default = Step(status=500, body=b"upstream exploded")
    sleeps: list[float] = []
    with _client(None, sleeps, judge_retries=3) as client:
        result = client.complete(ChatRequest(_judge(server), MESSAGES))
    assert not result.ok and result.attempts == 4
    assert result.error == "HTTP 500: upstream exploded after 4 attempts"
    assert sleeps == [0.5, 1.0, 2.0]
    assert len(server.hits) == 4


def test_500_then_success_recovers(server: ChatServer) -> None:
    server.script("m1", Step(status=503), Step(status=500), reply('{"a": 1}'))
    with _client(None) as client:
        result = client.complete(ChatRequest(_judge(server), MESSAGES))
    assert result.ok and result.attempts == 3


def test_client_errors_are_not_retried(server: ChatServer) -> None:
    server.default = Step(status=400, body=b'{"error": "bad model"}')
    with _client(None) as client:
        result = client.complete(ChatRequest(_judge(server), MESSAGES))
    assert not result.ok and result.error is not None and result.error.startswith("HTTP 400")
    assert len(server.hits) == 1


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (b"<html>gateway</html>", "the body is not JSON"),
        (b'{"choices": []}', "no choices[0].message.content"),
        (b'{"choices": [{"message": {"content": null}}]}', "message content is not text"),
    ],
)
def test_malformed_responses_are_errors_and_never_cached(
    server: ChatServer, tmp_path: Path, body: bytes, reason: str
) -> None:
    server.script("m1", Step(body=body))
    server.default = reply('{"fine": true}')
    request = ChatRequest(_judge(server), MESSAGES)
    with _client(tmp_path) as client:
        first = client.complete(request)
    assert not first.ok and first.error == f"malformed response: {reason}"
    assert len(server.hits) == 1  # not retried
    with _client(tmp_path) as client:
        second = client.complete(request)
    assert second.ok and not second.cached and len(server.hits) == 2


def test_timeouts_are_retried_then_reported(server: ChatServer) -> None:
    server.default = Step(content="{}", delay=1.0)
    started = time.monotonic()
    with _client(None, judge_timeout=0.2, judge_retries=1) as client:
        result = client.complete(ChatRequest(_judge(server), MESSAGES))
    elapsed = time.monotonic() - started
    assert not result.ok and result.error == "timed out (timeout 0.2s) after 2 attempts"
    assert len(server.hits) == 2
    assert elapsed < 1.5  # two 0.2 s read timeouts, not two 1 s replies


def test_connection_refused_is_reported(tmp_path: Path) -> None:
    closed = ChatServer()
    url = closed.url
    closed.httpd.server_close()  # the port is now closed
    judge = Judge(name="gone", base_url=url, model="m")
    with _client(None, judge_retries=1) as client:
        result = client.complete(ChatRequest(judge, MESSAGES))
    assert not result.ok and result.error == "could not connect after 2 attempts"


def test_cache_serves_a_second_run_without_requests(server: ChatServer, tmp_path: Path) -> None:
    server.default = reply('{"score": 9}')
    requests = [ChatRequest(_judge(server), MESSAGES, variant=run) for run in (1, 2, 3)]
    with _client(tmp_path) as client:
        first = client.complete_all(requests)
    assert len(server.hits) == 3  # each run is its own request
    with _client(tmp_path) as client:
        second = client.complete_all(requests)
        assert client.stats["requests"] == 0 and client.stats["cache_hits"] == 3
    assert len(server.hits) == 3
    assert all(reply.cached for reply in second)
    assert [r.content for r in first] == [r.content for r in second]


def test_cache_key_covers_model_base_url_messages_and_parameters(server: ChatServer) -> None:
    base = ChatRequest(_judge(server), MESSAGES)
    variants = [
        ChatRequest(_judge(server, "m2"), MESSAGES),
        ChatRequest(Judge("judge-m1", server.url + "/other", "m1"), MESSAGES),
        ChatRequest(_judge(server), (("user", "another post"),)),
        ChatRequest(_judge(server), MESSAGES, temperature=0.9),
        ChatRequest(_judge(server), MESSAGES, json_mode=False),
        ChatRequest(_judge(server), MESSAGES, variant=2),
        ChatRequest(Judge("another-name", server.url, "m1"), MESSAGES),
    ]
    keys = {request.cache_key() for request in variants}
    assert base.cache_key() not in keys and len(keys) == len(variants)
    # The key's variable name and value are not part of it.
    assert ChatRequest(_judge(server, key_env="X_KEY"), MESSAGES).cache_key() == base.cache_key()


def test_cache_entries_expire(server: ChatServer, tmp_path: Path) -> None:
    server.default = reply("{}")
    now = [1000.0]
    settings = Settings(judge_cache_max_age=60)
    request = ChatRequest(_judge(server), MESSAGES)
    with ChatClient(settings, tmp_path, clock=lambda: now[0]) as client:
        client.complete(request)
        now[0] += 59
        assert client.complete(request).cached
        now[0] += 2
        assert not client.complete(request).cached
    assert len(server.hits) == 2


def test_cache_disabled_with_max_age_zero(server: ChatServer, tmp_path: Path) -> None:
    server.default = reply("{}")
    request = ChatRequest(_judge(server), MESSAGES)
    for _ in range(2):
        with _client(tmp_path, judge_cache_max_age=0) as client:
            client.complete(request)
    assert len(server.hits) == 2
    assert not (tmp_path / "judges").exists()


def test_concurrency_is_limited(server: ChatServer) -> None:
    server.default = Step(content="{}", delay=0.15)
    requests = [ChatRequest(_judge(server), MESSAGES, variant=i) for i in range(8)]
    with _client(None, judge_concurrency=3) as client:
        replies = client.complete_all(requests)
    assert all(r.ok for r in replies)
    assert server.max_in_flight == 3


def test_key_echoed_by_a_provider_is_redacted_everywhere(
    server: ChatServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A provider that echoes the Authorization header (in an error body, in a reply) must
    not get the key into results or cache files."""
    monkeypatch.setenv(KEY_ENV, KEY)

    def echo(hit: object) -> Step:
        header = getattr(hit, "headers", {}).get("authorization", "")
        return reply(json.dumps({"score": 5, "note": f"you sent {header}"}))

    server.script("m1", Step(status=401, body=f"bad key Bearer {KEY}".encode()))
    server.responder = echo
    judge = _judge(server, key_env=KEY_ENV)
    with _client(tmp_path) as client:
        failed = client.complete(ChatRequest(judge, MESSAGES))
        echoed = client.complete(ChatRequest(judge, MESSAGES, variant=1))
    assert failed.error is not None and KEY not in failed.error and "[redacted]" in failed.error
    assert echoed.content is not None and KEY not in echoed.content
    assert "[redacted]" in echoed.content
    for path in (tmp_path / "judges").rglob("*"):
        if path.is_file():
            assert KEY not in path.read_text(encoding="utf-8")


def test_redact_replaces_longest_secret_first() -> None:
    assert redact("a secretsecret2 b", ["secretsecret2", "secretsecret"]) == "a [redacted] b"


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('{"score": 8}', {"score": 8}),
        ('```json\n{"score": 8}\n```', {"score": 8}),
        ('Here you go: {"score": 8} Hope it helps.', {"score": 8}),
    ],
)
def test_parse_object_accepts_wrapped_json(content: str, expected: dict[str, int]) -> None:
    assert parse_object(content) == expected


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("", "empty reply"),
        ("I think it is great", "reply is not JSON"),
        ("[1, 2]", "reply is JSON but not an object (list)"),
    ],
)
def test_parse_object_rejects(content: str, reason: str) -> None:
    with pytest.raises(InvalidReply, match=reason.replace("(", r"\(").replace(")", r"\)")):
        parse_object(content)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (11, "score = 11 is outside 0..10"),
        (-1, "score = -1 is outside 0..10"),
        (float("nan"), "outside"),
        ("9", "score is not a number (str)"),
        (True, "score is not a number (bool)"),
        (None, "score is not a number (NoneType)"),
    ],
)
def test_number_rejects_out_of_range_and_non_numbers(value: object, message: str) -> None:
    with pytest.raises(InvalidReply, match=message.replace("(", r"\(").replace(")", r"\)")):
        number({"score": value}, "score")


def test_number_accepts_the_bounds() -> None:
    assert number({"s": 0}, "s") == 0.0 and number({"s": 10}, "s") == 10.0
    with pytest.raises(InvalidReply, match="missing key 's'"):
        number({}, "s")
