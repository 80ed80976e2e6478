"""The link checker of gate 6: every external URL of a corpus, requested once, safely.

Why a checker of our own on requests rather than lychee 0.24 (both were run against the
same loopback server): lychee's private-address exclusion looks at the URL as written, so
with ``--exclude-all-private`` a host name that *resolves* to a loopback address was still
requested, redirects to 10.x and 169.254.169.254 were followed, ``--include`` cannot let one
trusted loopback server through while the exclusion is on, ``.invalid`` hosts are skipped
rather than reported dead, and there is no HEAD-then-GET fallback. Here the address check
sits where the socket is opened: every connection, the first and every redirect hop, is
made to an address that was resolved and checked in the same step, so DNS tricks (a name
pointing at 169.254.169.254, decimal IPs, rebinding between check and connect) cannot
reach a private service.

Rules, in the order they apply to a URL:

1. malformed (no host, bad port, bad IPv6 literal, invalid host name): a finding, never
   requested;
2. ``link_exclude`` regexes: never requested, reported as excluded;
3. blocked: a host that is, or resolves to, a loopback, private, link-local, unique-local,
   multicast, reserved or cloud-metadata address, unless the host, its address or its
   network is in ``allow_hosts``; never requested (the check runs again on every redirect);
4. offline: nothing is requested, the link is reported as unchecked;
5. the disk cache (``ok`` and ``dead`` answers younger than the maximum age, none from the
   future; signed under ``POSTGATES_CACHE_KEY`` when it is set, see ``signing.py``);
6. the network: HEAD, then GET where HEAD is refused (400, 403, 405, 501); redirects
   followed up to a bound, each hop checked; timeouts, connection failures, 5xx and 429
   retried with exponential backoff (a Retry-After on 429 or 5xx is waited for, up to a
   bound; a longer one is not waited for).

Classification: ``ok`` (2xx), ``dead`` (404, 410, a host name that does not exist),
``unverified`` (timeouts, connection failures, 5xx or 429 after the retries, 401/403 and
other refusals that may be bot protection, too many redirects), ``blocked``,
``excluded``, ``unchecked`` (offline) and ``malformed``.
"""

from __future__ import annotations

import contextlib
import email.utils
import hashlib
import json
import re
import socket
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin, urlsplit

from pytest_postgates import signing
from pytest_postgates.fileio import write_atomic
from pytest_postgates.tools.link_guard import (
    CHECKED_SCHEMES,
    BlockedAddress,
    HostPolicy,
    Resolver,
    UnknownHost,
    default_port,
    guarded_adapter,
    guarded_pool_classes,
    ip_literal,
    url_key,
    url_problem,
)
from pytest_postgates.tools.link_progress import LinkProgress

if TYPE_CHECKING:
    import requests  # imported where a link is asked: offline runs never load it

OK = "ok"
DEAD = "dead"
UNVERIFIED = "unverified"
BLOCKED = "blocked"
EXCLUDED = "excluded"
UNCHECKED = "unchecked"
MALFORMED = "malformed"
STATUSES = (OK, DEAD, UNVERIFIED, BLOCKED, EXCLUDED, UNCHECKED, MALFORMED)
CACHED_STATUSES = frozenset({OK, DEAD})  # transient answers are asked again next run

DEAD_CODES = frozenset({404, 410})
HEAD_REFUSED = frozenset({400, 403, 405, 501})  # answered to HEAD: ask again with GET
REDIRECT_CODES = frozenset({301, 302, 303, 307, 308})

# Defaults of the network behaviour (the timeout and cache age come from settings).
MAX_REDIRECTS = 5
RETRIES = 2  # attempts after the first one, for transient failures only
BACKOFF = 0.5  # seconds before the first retry; doubled for each further retry
MAX_RETRY_AFTER = 30.0  # a longer Retry-After is not waited for: the link is unverified
MAX_WORKERS = 16
PER_HOST = 4
# Of the hosts looked up in one batch, when at least this many were asked and not one name
# resolved, the resolver is down (an offline machine), not every host gone: "dead" would
# then be a false verdict, so those links are unverified.
RESOLVER_DOWN_MIN_HOSTS = 3
USER_AGENT = "Mozilla/5.0 (compatible; pytest-postgates link check)"


@dataclass(frozen=True)
class LinkResult:
    """What is known about one URL. ``code`` is the last HTTP status seen, if any."""

    url: str
    status: str
    code: int | None = None
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"url": self.url, "status": self.status, "code": self.code, "reason": self.reason}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LinkResult:
        return cls(data["url"], data["status"], data.get("code"), data.get("reason", ""))


# ----------------------------------------------------------------------- disk cache
class LinkCache:
    """Answers on disk, one JSON file per URL (named by its SHA-256), with a maximum age.

    Only ``ok`` and ``dead`` are stored: a timeout or a 503 today says nothing about
    tomorrow. Files are written atomically, so xdist workers and parallel runs can share
    the folder.
    """

    def __init__(
        self, folder: Path, max_age: float, clock: Callable[[], float] = time.time
    ) -> None:
        self.folder = folder
        self.max_age = max_age
        self.clock = clock

    def _path(self, key: str) -> Path:
        return self.folder / f"{hashlib.sha256(key.encode('utf-8')).hexdigest()}.json"

    def get(self, key: str) -> LinkResult | None:
        if self.max_age <= 0:
            return None
        try:
            data = signing.verified(json.loads(self._path(key).read_text(encoding="utf-8")))
            if data is None or data["key"] != key:
                return None  # planted, copied, or (with a cache key) unsigned
            result = data["result"]
            code = result.get("code")
            if (
                result["status"] not in CACHED_STATUSES
                or not isinstance(result["url"], str)
                or not isinstance(result.get("reason", ""), str)
                or not (code is None or (isinstance(code, int) and not isinstance(code, bool)))
            ):
                return None
            # An answer from the future is expired, not valid forever.
            age = self.clock() - float(data["checked_at"])
            if not 0 <= age <= self.max_age:
                return None
            return LinkResult.from_dict(result)
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None

    def put(self, key: str, result: LinkResult) -> None:
        if self.max_age <= 0 or result.status not in CACHED_STATUSES:
            return
        data = {"key": key, "checked_at": self.clock(), "result": result.to_dict()}
        # A read-only cache folder costs requests, never a verdict.
        with contextlib.suppress(OSError):
            write_atomic(self._path(key), json.dumps(signing.signed(data), sort_keys=True))


# ----------------------------------------------------------------------- the checker
@dataclass(frozen=True)
class _Transient:
    """A failure worth retrying; becomes ``unverified`` when the retries are spent."""

    reason: str
    code: int | None = None
    retry_after: float | None = None


class LinkChecker:
    """Checks URLs under one policy; :meth:`check_many` is the entry point."""

    def __init__(
        self,
        *,
        allow_hosts: Iterable[str] = (),
        exclude: Iterable[str] = (),
        offline: bool = False,
        cache: LinkCache | None = None,
        connect_timeout: float = 10.0,
        read_timeout: float = 10.0,
        retries: int = RETRIES,
        backoff: float = BACKOFF,
        max_retry_after: float = MAX_RETRY_AFTER,
        max_redirects: int = MAX_REDIRECTS,
        max_workers: int = MAX_WORKERS,
        per_host: int = PER_HOST,
        resolver: Resolver = socket.getaddrinfo,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.policy = HostPolicy(allow_hosts)
        self.exclude = [re.compile(pattern) for pattern in exclude]
        self.offline = offline
        self.cache = cache
        self.timeout = (connect_timeout, read_timeout)
        self.retries = retries
        self.backoff = backoff
        self.max_retry_after = max_retry_after
        self.max_redirects = max_redirects
        self.max_workers = max_workers
        self.per_host = per_host
        self.resolver = resolver
        self.sleep = sleep
        self._pools = guarded_pool_classes(self.policy, resolver)
        self._local = threading.local()
        self._slots: dict[str, threading.BoundedSemaphore] = {}
        self._slots_lock = threading.Lock()
        self._resolved_names: set[str] = set()
        self._unknown_names: set[str] = set()

    @classmethod
    def from_settings(cls, settings: Any, cache_dir: Path | None) -> LinkChecker:
        """The checker the gate uses: settings' timeout, hosts, exclusions and cache age."""
        cache = None
        if cache_dir is not None:
            cache = LinkCache(Path(cache_dir) / "links", settings.link_cache_max_age)
        return cls(
            allow_hosts=settings.allow_hosts,
            exclude=settings.link_exclude,
            offline=settings.offline,
            cache=cache,
            connect_timeout=settings.link_timeout,
            read_timeout=settings.link_timeout,
            retries=RETRIES,
            backoff=BACKOFF,
            max_retry_after=MAX_RETRY_AFTER,
        )

    # ------------------------------------------------------------- classification
    def precheck(self, url: str) -> LinkResult | None:
        """The verdict that needs no request (malformed, excluded, blocked, offline)."""
        problem = url_problem(url)
        if problem:
            return LinkResult(url, MALFORMED, None, problem)
        for pattern in self.exclude:
            if pattern.search(url):
                return LinkResult(url, EXCLUDED, None, f"matches link_exclude {pattern.pattern!r}")
        parts = urlsplit(url)
        if parts.scheme.lower() not in CHECKED_SCHEMES:
            return LinkResult(url, UNCHECKED, None, f"{parts.scheme or 'relative'} link")
        port = parts.port or default_port(parts.scheme.lower())
        problem = self.policy.host_problem(parts.hostname or "", port)
        if problem:
            return LinkResult(url, BLOCKED, None, f"{parts.hostname}: {problem}")
        if self.offline:
            return LinkResult(url, UNCHECKED, None, "offline: not requested")
        return None

    def check_many(
        self, urls: Iterable[str], progress: Callable[[str], None] | None = None
    ) -> dict[str, LinkResult]:
        """Every URL's result, keyed by the URL as given. Each distinct URL (fragment
        dropped) is requested at most once; requests run concurrently, at most
        ``per_host`` at a time to one host. ``progress``, when given, receives progress
        lines while requests are made (link_progress.py); nothing when none is."""
        results: dict[str, LinkResult] = {}
        pending: dict[str, list[str]] = {}  # request key -> URLs as written
        for url in dict.fromkeys(urls):
            early = self.precheck(url)
            if early is not None:
                results[url] = early
                continue
            key = url_key(url)
            cached = self.cache.get(key) if self.cache is not None else None
            if cached is not None:
                results[url] = replace(cached, url=url)
                continue
            pending.setdefault(key, []).append(url)
        if pending:
            reporter = None
            if progress is not None:
                hosts = {urlsplit(key).hostname for key in pending}
                reporter = LinkProgress(progress, len(pending), len(hosts), len(results))
            fetched = self._fetch_all(list(pending), reporter)
            fetched = self._resolver_down_adjustment(fetched)
            if reporter is not None:
                reporter.finish(result.status for result in fetched.values())
            for key, result in fetched.items():
                if self.cache is not None:
                    self.cache.put(key, result)
                for url in pending[key]:
                    results[url] = replace(result, url=url)
        return results

    def check(self, url: str) -> LinkResult:
        return self.check_many([url])[url]

    def _fetch_all(
        self, keys: Sequence[str], progress: LinkProgress | None = None
    ) -> dict[str, LinkResult]:
        workers = max(1, min(self.max_workers, len(keys)))
        fetched: dict[str, LinkResult] = {}
        if workers == 1:
            for key in keys:
                fetched[key] = self._check_network(key)
                if progress is not None:
                    progress.update(len(fetched))
            return fetched
        # Answers are taken as they come (and, with progress, at least every few seconds),
        # so that progress is reported from this thread, never from a request's.
        timeout = progress.interval if progress is not None else None
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="postgates-link") as pool:
            futures = {pool.submit(self._check_network, key): key for key in keys}
            waiting = set(futures)
            while waiting:
                done, waiting = wait(waiting, timeout=timeout, return_when=FIRST_COMPLETED)
                for future in done:
                    fetched[futures[future]] = future.result()
                if progress is not None:
                    progress.update(len(fetched))
        return {key: fetched[key] for key in keys}

    def _resolver_down_adjustment(self, fetched: dict[str, LinkResult]) -> dict[str, LinkResult]:
        """No name resolved at all among several: the machine has no DNS, not N dead hosts."""
        if self._resolved_names or len(self._unknown_names) < RESOLVER_DOWN_MIN_HOSTS:
            return fetched
        reason = (
            f"no host name could be resolved ({len(self._unknown_names)} tried): "
            "is this machine offline? (use --postgates-offline)"
        )
        return {
            key: replace(result, status=UNVERIFIED, reason=reason)
            if result.status == DEAD and result.code is None
            else result
            for key, result in fetched.items()
        }

    # ------------------------------------------------------------------- network
    def _check_network(self, url: str) -> LinkResult:
        attempt = 0
        while True:
            outcome = self._follow(url)
            if isinstance(outcome, LinkResult):
                return outcome
            if attempt >= self.retries:
                return LinkResult(url, UNVERIFIED, outcome.code, _after_retries(outcome, attempt))
            delay = self.backoff * (2**attempt)
            if outcome.retry_after is not None:
                if outcome.retry_after > self.max_retry_after:
                    return LinkResult(
                        url,
                        UNVERIFIED,
                        outcome.code,
                        f"{outcome.reason}; Retry-After {outcome.retry_after:g}s is over the "
                        f"{self.max_retry_after:g}s bound",
                    )
                delay = max(delay, outcome.retry_after)
            self.sleep(delay)
            attempt += 1

    def _follow(self, url: str) -> LinkResult | _Transient:
        """One attempt: the URL and its redirects, each hop checked before it is asked."""
        import requests

        current = url
        for hop in range(self.max_redirects + 1):
            via = f" (redirect {hop} to {current})" if hop else ""
            if hop:
                early = self.precheck(current)
                if early is not None:
                    if early.status == MALFORMED:
                        return LinkResult(
                            url, UNVERIFIED, None, f"malformed redirect{via}: {early.reason}"
                        )
                    return replace(early, url=url, reason=f"{early.reason}{via}")
            try:
                response = self._ask(current)
            except BlockedAddress as exc:
                return LinkResult(url, BLOCKED, None, f"{exc}{via}")
            except UnknownHost as exc:
                self._note_name(exc.host, resolved=False)
                return LinkResult(url, DEAD, None, f"unknown host {exc.host}{via}")
            except requests.exceptions.Timeout:
                return _Transient(f"timed out{via}")
            except requests.exceptions.InvalidURL as exc:
                return LinkResult(url, UNVERIFIED, None, f"cannot request{via}: {exc}")
            except requests.exceptions.RequestException as exc:
                return _Transient(f"connection failed{via}: {_short(exc)}")
            host = urlsplit(current).hostname or ""
            self._note_name(host, resolved=True)
            code = response.status_code
            if code in REDIRECT_CODES:
                location = response.headers.get("Location")
                if not location:
                    return LinkResult(url, UNVERIFIED, code, f"{code} without a Location{via}")
                current = urljoin(current, location.strip())
                continue
            if 200 <= code < 300:
                return LinkResult(url, OK, code, f"{code}{via}" if hop else "")
            if code in DEAD_CODES:
                return LinkResult(url, DEAD, code, f"{code} {response.reason or ''}".strip() + via)
            if code == 429:
                return _Transient(f"429 Too Many Requests{via}", code, _retry_after(response))
            if code >= 500:
                reason = f"{code} {response.reason or ''}".strip() + via
                return _Transient(reason, code, _retry_after(response))
            if code in (401, 403, 999):
                return LinkResult(
                    url, UNVERIFIED, code, f"{code}: refused (bot protection or a login wall){via}"
                )
            return LinkResult(url, UNVERIFIED, code, f"unexpected status {code}{via}")
        return LinkResult(url, UNVERIFIED, None, f"more than {self.max_redirects} redirects")

    def _ask(self, url: str) -> requests.Response:
        """HEAD, then GET where HEAD is refused; the body is never downloaded."""
        session = self._session()
        host = (urlsplit(url).hostname or "").lower()
        with self._slot(host):
            response = session.head(url, allow_redirects=False, timeout=self.timeout)
            response.close()
            if response.status_code in HEAD_REFUSED:
                response = session.get(
                    url, allow_redirects=False, timeout=self.timeout, stream=True
                )
                response.close()
        return response

    def _session(self) -> requests.Session:
        session = getattr(self._local, "session", None)
        if session is None:
            import requests

            session = requests.Session()
            session.trust_env = False  # no proxies or netrc from the environment
            session.headers.update(
                {"User-Agent": USER_AGENT, "Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
            )
            adapter = guarded_adapter(self._pools, PER_HOST)
            session.mount("http://", adapter)
            session.mount("https://", adapter)
            self._local.session = session
        return session

    def _slot(self, host: str) -> threading.BoundedSemaphore:
        with self._slots_lock:
            slot = self._slots.get(host)
            if slot is None:
                slot = self._slots[host] = threading.BoundedSemaphore(self.per_host)
            return slot

    def _note_name(self, host: str, resolved: bool) -> None:
        if not host or ip_literal(host) is not None:
            return
        with self._slots_lock:
            (self._resolved_names if resolved else self._unknown_names).add(host.lower())


def _after_retries(outcome: _Transient, retries: int) -> str:
    return f"{outcome.reason} (after {retries} retr{'y' if retries == 1 else 'ies'})"


def _retry_after(response: requests.Response) -> float | None:
    """Seconds to wait from a Retry-After header (delta-seconds or an HTTP date)."""
    value = (response.headers.get("Retry-After") or "").strip()
    if not value:
        return None
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return float(max(0, round(when.timestamp() - time.time())))  # whole seconds: stable


def _short(exc: BaseException) -> str:
    """A one-line reason without object reprs (stable in scorecards)."""
    text = str(exc)
    match = re.search(r"\[Errno -?\d+\] [^')\"]+|Connection refused|Connection reset", text)
    if match:
        return match.group(0)
    return type(exc).__name__
