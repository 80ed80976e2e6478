"""An OpenAI-compatible chat-completions client for the judged gates, over requests.

Hosted providers, vLLM, llama.cpp's server and Ollama all answer ``POST
{base_url}/chat/completions``, so one small client serves every judge. What it adds to a
bare POST is what makes a judged gate usable in CI:

- connect and read timeouts, so a hung provider costs seconds, not the job's time limit;
- retries with exponential backoff for timeouts, connection errors, 429 and 5xx, where a
  429's ``Retry-After`` is honoured (bounded, so a provider cannot park the run);
- a concurrency limit (``judge_concurrency`` requests in flight per client), because a
  21-run rubric fired at once trips every provider's rate limit;
- a response cache on disk keyed by provider, model, base URL, messages and parameters,
  with a maximum age, so re-running a corpus costs nothing; errors are never cached.

API keys are read from ``os.environ[judge.api_key_env]`` at request time (a variable named
for the purpose), sent only in the ``Authorization`` header and only to a well-known
provider's host or one listed in ``allow_hosts`` (see ``judges/key_policy.py``), and never
stored: not in the cache key, not in cache files, not in errors. Anything that came back
from the network is passed through :func:`redact` before it is kept, in case a provider
echoes the header back.
"""

from __future__ import annotations

import contextlib
import email.utils
import hashlib
import json
import math
import os
import re
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from pytest_postgates import signing
from pytest_postgates.config import Judge, Settings
from pytest_postgates.fileio import write_atomic
from pytest_postgates.judges.key_policy import key_refusal

if TYPE_CHECKING:
    # Imported where a request is made: with no judge configured (the judge gates SKIP)
    # requests and urllib3 are never loaded (about a tenth of the plugin's import time).
    import requests

CACHE_VERSION = 1
# Backoff between attempts: BACKOFF_BASE * 2**attempt seconds, at most BACKOFF_MAX. Module
# constants so that tests can shrink them.
BACKOFF_BASE = 1.0
BACKOFF_MAX = 30.0
# A Retry-After longer than this is cut to it: a provider cannot park a CI job for an hour.
RETRY_AFTER_MAX = 60.0
CONNECT_TIMEOUT_MAX = 10.0
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504, 529})
# Values at least this long are redacted wherever they occur; shorter ones (no real API
# key, but a test or a misconfiguration) only where they stand as a whole token, since
# replacing every "ab" inside words would destroy a reply.
MIN_SECRET_LENGTH = 6
ERROR_BODY_LIMIT = 200


@dataclass(frozen=True)
class ChatRequest:
    """One chat-completions call. ``variant`` tells repeated runs of the same prompt apart
    in the cache (run 2 of a rubric must not be served run 1's reply); it is not sent."""

    judge: Judge
    messages: tuple[tuple[str, str], ...]  # (role, content)
    temperature: float = 0.0
    json_mode: bool = True
    max_tokens: int | None = None
    variant: int = 0

    def payload(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.judge.model,
            "messages": [{"role": role, "content": content} for role, content in self.messages],
            "temperature": self.temperature,
        }
        if self.json_mode:
            body["response_format"] = {"type": "json_object"}
        if self.max_tokens is not None:
            body["max_tokens"] = self.max_tokens
        return body

    def cache_key(self) -> str:
        """A digest of everything that shapes the reply, and nothing secret: the key's
        environment variable name is left out too, so renaming it keeps the cache."""
        material = {
            "version": CACHE_VERSION,
            "provider": self.judge.name,
            "model": self.judge.model,
            "base_url": self.judge.base_url.rstrip("/"),
            "messages": [list(message) for message in self.messages],
            "params": {
                "temperature": self.temperature,
                "json_mode": self.json_mode,
                "max_tokens": self.max_tokens,
            },
            "variant": self.variant,
        }
        encoded = json.dumps(material, sort_keys=True, ensure_ascii=False).encode("utf-8")
        return hashlib.sha256(encoded).hexdigest()


@dataclass(frozen=True)
class ChatReply:
    """The message content, or why there is none. ``error`` is already redacted."""

    content: str | None
    error: str | None = None
    cached: bool = False
    attempts: int = 0

    @property
    def ok(self) -> bool:
        return self.content is not None


def secrets_of(judges: Iterable[Judge], environ: dict[str, str] | None = None) -> tuple[str, ...]:
    """The API key values currently set for ``judges`` (for redaction only)."""
    env = os.environ if environ is None else environ
    values = []
    for judge in judges:
        if judge.api_key_env:
            value = env.get(judge.api_key_env, "")
            if value:
                values.append(value)
    # Longest first, so that a key containing another key is replaced whole.
    return tuple(sorted(set(values), key=len, reverse=True))


def redact(text: str, secrets: Sequence[str]) -> str:
    for secret in secrets:
        if secret not in text:
            continue
        if len(secret) >= MIN_SECRET_LENGTH:
            text = text.replace(secret, "[redacted]")
        else:
            token = re.compile(rf"(?<![\w-]){re.escape(secret)}(?![\w-])")
            text = token.sub("[redacted]", text)
    return text


class ResponseCache:
    """Replies on disk, one JSON file per request digest, trusted for ``max_age`` seconds.

    Files are written atomically, so xdist workers sharing the folder never read half a
    reply. A file that cannot be read or parsed is a miss, never an error.
    """

    def __init__(self, folder: Path, max_age: float, clock: Callable[[], float] = time.time):
        self.folder = folder
        self.max_age = max_age
        self.clock = clock

    def path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.json"

    def get(self, key: str) -> str | None:
        try:
            data = signing.verified(json.loads(self.path(key).read_text(encoding="utf-8")))
        except (OSError, ValueError):
            return None
        # This request's reply (and, with POSTGATES_CACHE_KEY, signed), not a planted one.
        if data is None or data.get("key") != key or not isinstance(data.get("content"), str):
            return None
        created = data.get("created")
        if not isinstance(created, (int, float)) or not 0 <= self.clock() - created <= self.max_age:
            return None
        content: str = data["content"]
        return content

    def put(self, key: str, request: ChatRequest, content: str) -> None:
        record = {
            "created": self.clock(),
            "provider": request.judge.name,
            "model": request.judge.model,
            "content": content,
            "key": key,
        }
        text = json.dumps(signing.signed(record), sort_keys=True, ensure_ascii=False)
        write_atomic(self.path(key), text)


@dataclass
class _Attempt:
    content: str | None = None
    error: str = ""
    retry: bool = False
    delay: float | None = None  # a server-requested wait (Retry-After)


@dataclass
class ChatClient:
    """Chat-completions calls for one gate check (or one test), sharing a concurrency
    limit, a cache and per-thread HTTP sessions. Use as a context manager, or call
    :meth:`close`."""

    settings: Settings
    cache_dir: Path | None = None
    sleep: Callable[[float], None] = time.sleep
    clock: Callable[[], float] = time.time
    stats: Counter[str] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        self.timeout = max(0.001, float(self.settings.judge_timeout))
        self.retries = max(0, int(self.settings.judge_retries))
        self.concurrency = max(1, int(self.settings.judge_concurrency))
        self._slots = threading.BoundedSemaphore(self.concurrency)
        self._local = threading.local()
        self._sessions: list[requests.Session] = []
        self._lock = threading.Lock()
        max_age = self.settings.judge_cache_max_age
        self.cache = (
            ResponseCache(self.cache_dir / "judges", max_age, self.clock)
            if self.cache_dir is not None and max_age > 0
            else None
        )

    # ------------------------------------------------------------------ lifecycle
    def __enter__(self) -> ChatClient:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        with self._lock:
            for session in self._sessions:
                session.close()
            self._sessions.clear()

    def _session(self) -> requests.Session:
        session = getattr(self._local, "session", None)
        if session is None:
            import requests

            session = requests.Session()
            self._local.session = session
            with self._lock:
                self._sessions.append(session)
        return session

    # ------------------------------------------------------------------ calls
    def complete_all(self, requests_: Sequence[ChatRequest]) -> list[ChatReply]:
        """Every request, at most ``judge_concurrency`` in flight, replies in order."""
        if not requests_:
            return []
        workers = min(self.concurrency, len(requests_))
        if workers == 1:
            return [self.complete(request) for request in requests_]
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="postgates-judge") as pool:
            return list(pool.map(self.complete, requests_))

    def complete(self, request: ChatRequest) -> ChatReply:
        secrets = secrets_of([request.judge])
        key = request.cache_key()
        if self.cache is not None:
            cached = self.cache.get(key)
            if cached is not None:
                self._count("cache_hits")
                return ChatReply(redact(cached, secrets), cached=True)
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        variable = request.judge.api_key_env
        if variable:
            value = os.environ.get(variable, "")
            if not value:
                return ChatReply(
                    None,
                    f"environment variable {variable} (api_key_env of judge "
                    f"{request.judge.name!r}) is not set",
                )
            refusal = key_refusal(request.judge, self.settings.allow_hosts)
            if refusal is not None:
                return ChatReply(None, refusal)
            headers["Authorization"] = f"Bearer {value}"
        url = request.judge.base_url.rstrip("/") + "/chat/completions"
        payload = request.payload()
        attempts = 0
        outcome = _Attempt(error="not attempted")
        for attempt in range(self.retries + 1):
            attempts += 1
            with self._slots:
                outcome = self._post(url, payload, headers, secrets)
            if outcome.content is not None:
                content = redact(outcome.content, secrets)
                if self.cache is not None:
                    # A read-only cache folder costs requests, never a verdict.
                    with contextlib.suppress(OSError):
                        self.cache.put(key, request, content)
                return ChatReply(content, attempts=attempts)
            if not outcome.retry or attempt == self.retries:
                break
            delay = outcome.delay if outcome.delay is not None else self._backoff(attempt)
            self._count("retries")
            self.sleep(delay)
        suffix = f" after {attempts} attempts" if attempts > 1 else ""
        return ChatReply(None, redact(outcome.error + suffix, secrets), attempts=attempts)

    def _backoff(self, attempt: int) -> float:
        return float(min(BACKOFF_MAX, BACKOFF_BASE * (2**attempt)))

    def _count(self, name: str) -> None:
        with self._lock:
            self.stats[name] += 1

    def _post(
        self, url: str, payload: dict[str, Any], headers: dict[str, str], secrets: Sequence[str]
    ) -> _Attempt:
        """One HTTP attempt. Messages are built here from fixed text, the status and a
        short, redacted body excerpt: never from ``str(exception)``, which can carry the
        URL and more."""
        import requests

        self._count("requests")
        timeout = (min(self.timeout, CONNECT_TIMEOUT_MAX), self.timeout)
        try:
            response = self._session().post(url, json=payload, headers=headers, timeout=timeout)
        except requests.Timeout:
            return _Attempt(error=f"timed out (timeout {self.timeout:g}s)", retry=True)
        except requests.ConnectionError:
            return _Attempt(error="could not connect", retry=True)
        except requests.RequestException as exc:
            return _Attempt(error=f"request failed ({type(exc).__name__})")
        try:
            status = response.status_code
            if status == 200:
                return _content_of(response)
            excerpt = " ".join(response.text[:ERROR_BODY_LIMIT].split())
            error = f"HTTP {status}" + (f": {redact(excerpt, secrets)}" if excerpt else "")
            if status in RETRY_STATUSES:
                delay = retry_after(response.headers.get("Retry-After"), self.clock)
                return _Attempt(error=error, retry=True, delay=delay)
            return _Attempt(error=error)
        finally:
            response.close()


def _content_of(response: requests.Response) -> _Attempt:
    """``choices[0].message.content`` of a 200 reply; a malformed body is an error, not
    retried (a server that answers 200 with garbage will do so again)."""
    try:
        body = response.json()
    except ValueError:
        return _Attempt(error="malformed response: the body is not JSON")
    try:
        content = body["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        return _Attempt(error="malformed response: no choices[0].message.content")
    if not isinstance(content, str):
        return _Attempt(error="malformed response: message content is not text")
    return _Attempt(content=content)


def retry_after(value: str | None, clock: Callable[[], float] = time.time) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta-seconds or an HTTP date),
    bounded to ``[0, RETRY_AFTER_MAX]``; None when absent or unreadable."""
    if value is None:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        if when is None:
            return None
        seconds = when.timestamp() - clock()
    if math.isnan(seconds):
        return None
    return min(RETRY_AFTER_MAX, max(0.0, seconds))
