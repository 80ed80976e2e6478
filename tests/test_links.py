"""The link checker against a real HTTP server on loopback (never the internet).

The server is allowed through ``allow_hosts`` ("127.0.0.1:<port>"), exactly as a user
would allow a trusted internal host; every other loopback or private destination must be
refused before a socket is opened. Timeouts, backoff and Retry-After use small numbers or
an injected ``sleep`` so that the suite stays fast.
"""

from __future__ import annotations

import ipaddress
import re
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from pytest_postgates.tools import links
from pytest_postgates.tools.link_guard import HostPolicy, address_problem, url_problem
from pytest_postgates.tools.links import LinkCache, LinkChecker

# (method, request number for this path starting at 1) -> (status, headers, delay seconds)
Responder = Callable[[str, int], tuple[int, dict[str, str], float]]


@dataclass
class LinkServer:
    """A threaded HTTP server on 127.0.0.1 with scripted routes that counts every request."""

    routes: dict[str, Responder] = field(default_factory=dict)
    hits: Counter[tuple[str, str]] = field(default_factory=Counter)
    active: int = 0
    max_active: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    port: int = 0

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    @property
    def allow(self) -> str:
        return f"127.0.0.1:{self.port}"

    def requests(self, path: str) -> int:
        return self.hits[("HEAD", path)] + self.hits[("GET", path)]

    # ------------------------------------------------------------------ route helpers
    def status(self, path: str, code: int, headers: dict[str, str] | None = None) -> str:
        self.routes[path] = lambda method, n: (code, dict(headers or {}), 0.0)
        return self.url(path)

    def ok(self, path: str, delay: float = 0.0) -> str:
        self.routes[path] = lambda method, n: (200, {}, delay)
        return self.url(path)

    def head_refused(self, path: str, head_code: int, get_code: int = 200) -> str:
        self.routes[path] = lambda method, n: (head_code if method == "HEAD" else get_code, {}, 0)
        return self.url(path)

    def redirect(self, path: str, location: str, code: int = 302) -> str:
        self.routes[path] = lambda method, n: (code, {"Location": location}, 0.0)
        return self.url(path)

    def sequence(self, path: str, answers: list[tuple[int, dict[str, str]]]) -> str:
        """The n-th request gets answers[n-1]; the last answer repeats."""
        self.routes[path] = lambda method, n: (*answers[min(n, len(answers)) - 1], 0.0)
        return self.url(path)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: ThreadingHTTPServer

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _answer(self) -> None:
        state: LinkServer = self.server.state  # type: ignore[attr-defined]
        path = self.path
        with state.lock:
            state.hits[(self.command, path)] += 1
            count = state.hits[("HEAD", path)] + state.hits[("GET", path)]
            state.active += 1
            state.max_active = max(state.max_active, state.active)
        counted = True
        try:
            responder = state.routes.get(path)
            code, headers, delay = responder(self.command, count) if responder else (404, {}, 0)
            if delay:
                time.sleep(delay)
            # No longer active once the answer starts: the client may start its next request
            # the moment it reads this one, before this handler would otherwise count down
            # (under load that race showed 4 active requests for a limit of 3).
            with state.lock:
                state.active -= 1
            counted = False
            body = b"ok\n"
            self.send_response(code)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass
        finally:
            if counted:
                with state.lock:
                    state.active -= 1

    do_GET = _answer
    do_HEAD = _answer


def serve() -> Iterator[LinkServer]:
    """Run a :class:`LinkServer` on an ephemeral loopback port for the duration of a test."""
    state = LinkServer()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    httpd.daemon_threads = True
    httpd.state = state  # type: ignore[attr-defined]
    state.port = httpd.server_address[1]
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield state
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture
def server() -> Iterator[LinkServer]:
    yield from serve()


class Sleeps(list[float]):
    """An injected ``sleep`` that records the waits instead of waiting."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)


def checker(server: LinkServer, **options: Any) -> LinkChecker:
    defaults: dict[str, Any] = {
        "allow_hosts": [server.allow],
        "connect_timeout": 2.0,
        "read_timeout": 2.0,
        "backoff": 0.01,
    }
    defaults.update(options)
    return LinkChecker(**defaults)


# ======================================================================= status rules
def test_200_is_ok_with_one_head_request(server: LinkServer) -> None:
    url = server.ok("/page")
    result = checker(server).check(url)
    assert (result.status, result.code) == ("ok", 200)
    assert server.hits == Counter({("HEAD", "/page"): 1})


@pytest.mark.parametrize("code", [404, 410])
def test_404_and_410_are_dead(server: LinkServer, code: int) -> None:
    result = checker(server).check(server.status("/gone", code))
    assert (result.status, result.code) == ("dead", code)
    assert server.requests("/gone") == 1  # a definite answer is not retried


@pytest.mark.parametrize("refusal", [405, 403, 501, 400])
def test_head_refused_falls_back_to_get(server: LinkServer, refusal: int) -> None:
    result = checker(server).check(server.head_refused("/nohead", refusal))
    assert (result.status, result.code) == ("ok", 200)
    assert server.hits == Counter({("HEAD", "/nohead"): 1, ("GET", "/nohead"): 1})


def test_head_405_then_get_404_is_dead(server: LinkServer) -> None:
    result = checker(server).check(server.head_refused("/nohead", 405, 404))
    assert (result.status, result.code) == ("dead", 404)


def test_bot_protection_403_is_unverified_not_dead(server: LinkServer) -> None:
    result = checker(server).check(server.status("/cf", 403))
    assert (result.status, result.code) == ("unverified", 403)
    assert "bot protection" in result.reason


def test_redirect_chain_is_followed(server: LinkServer) -> None:
    server.ok("/final")
    server.redirect("/b", "/final", 301)
    url = server.redirect("/a", server.url("/b"), 302)
    result = checker(server).check(url)
    assert (result.status, result.code) == ("ok", 200)
    assert "redirect 2" in result.reason
    assert [server.requests(p) for p in ("/a", "/b", "/final")] == [1, 1, 1]


def test_redirect_to_a_404_is_dead(server: LinkServer) -> None:
    result = checker(server).check(server.redirect("/moved", "/nowhere"))
    assert (result.status, result.code) == ("dead", 404)


def test_redirects_are_bounded(server: LinkServer) -> None:
    for n in range(20):
        server.redirect(f"/loop{n}", f"/loop{n + 1}")
    result = checker(server, max_redirects=3).check(server.url("/loop0"))
    assert result.status == "unverified"
    assert "more than 3 redirects" in result.reason
    assert sum(server.requests(f"/loop{n}") for n in range(20)) == 4  # not retried


@pytest.mark.parametrize(
    ("location", "why"),
    [
        ("http://169.254.169.254/latest/meta-data/", "cloud metadata address"),
        ("http://[fd00:ec2::254]/latest/", "cloud metadata address"),
        ("http://metadata.google.internal/computeMetadata/v1/", "cloud metadata host"),
        ("http://10.0.0.7/admin", "private address"),
        ("http://[::ffff:192.168.1.1]/", "private address"),
        ("http://localhost/", "loopback host name"),
    ],
)
def test_redirect_to_a_private_or_metadata_address_is_blocked(
    server: LinkServer, location: str, why: str
) -> None:
    result = checker(server).check(server.redirect("/hop", location))
    assert result.status == "blocked"
    assert why in result.reason and "redirect 1" in result.reason


def test_redirect_to_a_name_that_resolves_to_loopback_is_blocked(server: LinkServer) -> None:
    """Checked after DNS resolution: 2130706433 is 127.0.0.1 written as one number, and
    the port is not the allowed one."""
    other = socket.socket()
    other.bind(("127.0.0.1", 0))
    other.listen()
    port = other.getsockname()[1]
    try:
        result = checker(server).check(server.redirect("/hop", f"http://2130706433:{port}/"))
        assert result.status == "blocked"
        assert "resolves to 127.0.0.1 (loopback address)" in result.reason
        other.settimeout(0.2)
        with pytest.raises(socket.timeout):
            other.accept()  # nothing ever connected to the un-allowed port
    finally:
        other.close()


def test_429_honours_retry_after_then_succeeds(server: LinkServer) -> None:
    url = server.sequence("/busy", [(429, {"Retry-After": "3"}), (200, {})])
    sleeps = Sleeps()
    result = checker(server, sleep=sleeps).check(url)
    assert (result.status, result.code) == ("ok", 200)
    assert sleeps == [3.0]
    assert server.requests("/busy") == 2


def test_429_retry_after_as_http_date(server: LinkServer) -> None:
    from email.utils import formatdate

    when = formatdate(time.time() + 5, usegmt=True)
    url = server.sequence("/busy", [(429, {"Retry-After": when}), (200, {})])
    sleeps = Sleeps()
    assert checker(server, sleep=sleeps).check(url).status == "ok"
    assert len(sleeps) == 1 and 3.0 <= sleeps[0] <= 6.0


def test_429_with_a_retry_after_over_the_bound_is_not_waited_for(server: LinkServer) -> None:
    url = server.status("/busy", 429, {"Retry-After": "3600"})
    sleeps = Sleeps()
    result = checker(server, sleep=sleeps, max_retry_after=30).check(url)
    assert (result.status, result.code) == ("unverified", 429)
    assert "over the 30s bound" in result.reason
    assert sleeps == [] and server.requests("/busy") == 1


def test_429_after_every_retry_is_unverified(server: LinkServer) -> None:
    url = server.status("/busy", 429, {"Retry-After": "1"})
    sleeps = Sleeps()
    result = checker(server, sleep=sleeps, retries=2).check(url)
    assert (result.status, result.code) == ("unverified", 429)
    assert server.requests("/busy") == 3 and sleeps == [1.0, 1.0]


def test_persistent_503_is_unverified_after_retries_with_backoff(server: LinkServer) -> None:
    sleeps = Sleeps()
    result = checker(server, sleep=sleeps, retries=2, backoff=0.5).check(
        server.status("/down", 503)
    )
    assert (result.status, result.code) == ("unverified", 503)
    assert "after 2 retries" in result.reason
    assert server.requests("/down") == 3
    assert sleeps == [0.5, 1.0]  # exponential backoff


def test_503_then_200_is_ok(server: LinkServer) -> None:
    url = server.sequence("/flaky", [(503, {}), (200, {})])
    assert checker(server, sleep=Sleeps()).check(url).status == "ok"


def test_timeout_is_unverified(server: LinkServer) -> None:
    url = server.ok("/slow", delay=1.5)
    started = time.monotonic()
    result = checker(server, read_timeout=0.2, retries=1).check(url)
    assert result.status == "unverified" and "timed out" in result.reason
    assert time.monotonic() - started < 1.4  # did not wait for the answer


def test_unknown_host_is_dead() -> None:
    result = LinkChecker(retries=0).check("http://no-such-host.postgates.invalid/page")
    assert result.status == "dead"
    assert "unknown host no-such-host.postgates.invalid" in result.reason


def test_when_no_name_resolves_at_all_the_links_are_unverified_not_dead() -> None:
    """An offline machine answers "no such name" for every host: that is a network fault."""

    def resolver(host: str, *args: Any) -> list[Any]:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    urls = [f"https://site{n}.example.com/" for n in range(3)]
    results = LinkChecker(resolver=resolver, retries=0).check_many(urls)
    assert {r.status for r in results.values()} == {"unverified"}
    assert "--postgates-offline" in results[urls[0]].reason


def test_a_name_resolving_to_a_private_address_is_never_connected() -> None:
    connects: list[Any] = []

    def resolver(host: str, port: int, *args: Any) -> list[Any]:
        address = {"intranet.example.com": "10.1.2.3", "meta.example.com": "169.254.169.254"}
        connects.append(host)
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address[host], port))]

    check = LinkChecker(resolver=resolver, retries=0)
    intranet = check.check("https://intranet.example.com/wiki")
    meta = check.check("http://meta.example.com/latest/meta-data/")
    assert (intranet.status, meta.status) == ("blocked", "blocked")
    assert "resolves to 10.1.2.3 (private address)" in intranet.reason
    assert "169.254.169.254 (cloud metadata address)" in meta.reason
    assert connects == ["intranet.example.com", "meta.example.com"]


def test_environment_proxies_are_ignored(
    server: LinkServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A proxy would resolve and connect out of the guard's reach."""
    for name in ("HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "ALL_PROXY"):
        monkeypatch.setenv(name, "http://10.255.255.1:3128")
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    assert checker(server).check(server.ok("/direct")).status == "ok"


# ====================================================================== the SSRF rules
@pytest.mark.parametrize(
    ("address", "problem"),
    [
        ("127.0.0.1", "loopback address"),
        ("::1", "loopback address"),
        ("10.0.0.1", "private address"),
        ("172.16.5.4", "private address"),
        ("192.168.0.10", "private address"),
        ("169.254.1.1", "link-local address"),
        ("fe80::1", "link-local address"),
        ("fd12:3456::1", "unique-local address"),
        ("224.0.0.1", "multicast address"),
        ("ff02::1", "multicast address"),
        ("240.0.0.1", "reserved address"),
        ("0.0.0.0", "unspecified address"),
        ("::", "unspecified address"),
        ("100.64.0.1", "special-purpose address (not globally reachable)"),
        ("169.254.169.254", "cloud metadata address"),
        ("fd00:ec2::254", "cloud metadata address"),
        ("100.100.100.200", "cloud metadata address"),
        ("::ffff:127.0.0.1", "loopback address"),
        ("2002:a00:1::", "private address"),  # 6to4 wrapping 10.0.0.1
        ("8.8.8.8", None),
        ("2606:4700::1111", None),
    ],
)
def test_address_problems(address: str, problem: str | None) -> None:
    assert address_problem(ipaddress.ip_address(address)) == problem


def test_metadata_addresses_are_named_even_though_link_local() -> None:
    assert "metadata" in (address_problem(ipaddress.ip_address("169.254.169.254")) or "")


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/",
        "http://[::1]:8080/",
        "http://localhost:3000/",
        "http://app.localhost/",
        "http://169.254.169.254/latest/",
        "http://metadata.google.internal/",
        "http://[fd00:ec2::254]/",
        "http://10.0.0.1/",
        "http://[::ffff:10.0.0.1]/",
    ],
)
def test_private_literals_are_blocked_without_any_request(url: str) -> None:
    def resolver(*args: Any) -> list[Any]:
        raise AssertionError("no DNS lookup for a literal or a reserved name")

    result = LinkChecker(resolver=resolver).check(url)
    assert result.status == "blocked"


def test_allow_hosts_forms(server: LinkServer) -> None:
    url = server.ok("/ok")
    assert LinkChecker().check(url).status == "blocked"
    assert server.requests("/ok") == 0
    for allow in (server.allow, "127.0.0.1", "127.0.0.0/8"):
        assert LinkChecker(allow_hosts=[allow]).check(url).status == "ok", allow
    other_port = f"127.0.0.1:{server.port + 1 if server.port < 65535 else 1}"
    assert LinkChecker(allow_hosts=[other_port]).check(url).status == "blocked"
    # A name allows that name (and its port), not the address it resolves to.
    by_name = LinkChecker(allow_hosts=[f"localhost:{server.port}"])
    assert by_name.check(f"http://localhost:{server.port}/ok").status == "ok"
    assert by_name.check(url).status == "blocked"


def test_host_policy_parses_entries() -> None:
    policy = HostPolicy(["Example.COM", "intranet:8080", "[::1]:9000", "10.0.0.0/8", " "])
    assert policy.allows_name("example.com", 443)
    assert policy.allows_name("intranet", 8080) and not policy.allows_name("intranet", 80)
    assert policy.allows_address(ipaddress.ip_address("::1"), 9000)
    assert not policy.allows_address(ipaddress.ip_address("::1"), 9001)
    assert policy.allows_address(ipaddress.ip_address("10.9.8.7"), 1)


# ====================================================================== shape and scope
@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("http://", "no host"),
        ("https:///path", "no host"),
        ("http:/example.com/x", "no host"),
        ("http//example.com", "no colon"),
        ("htps://example.com", "unknown scheme"),
        ("http://[::1/", "cannot be parsed"),
        ("http://example.com:99999/", "bad port"),
        ("http://example.com:0/", "bad port"),
        ("http://exa mple.com/", "whitespace"),
        ("http://exa_mple..com/", "not a valid host name"),
        ("http://-bad-.example/", "not a valid host name"),
        ("http://exa%20mple.com/", "percent-encoded"),
        ("http://" + "a" * 64 + ".com/", "not a valid host name"),
    ],
)
def test_malformed_urls_are_findings_not_crashes(url: str, problem: str) -> None:
    found = url_problem(url)
    assert found is not None and problem in found
    result = LinkChecker(offline=False).check(url)
    assert (result.status, result.code) == ("malformed", None)


@pytest.mark.parametrize(
    "url",
    [
        "https://example.com/a?b=c#d",
        "http://bücher.example/",
        "https://[2606:4700::1111]/",
        "https://sub_domain.example.com/",
        "mailto:someone@example.com",
    ],
)
def test_well_formed_urls(url: str) -> None:
    assert url_problem(url) is None


def test_offline_makes_no_request(server: LinkServer) -> None:
    def resolver(*args: Any) -> list[Any]:
        raise AssertionError("offline mode resolved a name")

    url = server.ok("/page")
    results = checker(server, offline=True, resolver=resolver).check_many(
        [url, "https://example.com/"]
    )
    assert {r.status for r in results.values()} == {"unchecked"}
    assert server.hits == Counter()


def test_link_exclude_is_never_requested(server: LinkServer) -> None:
    url = server.ok("/private/page")
    result = checker(server, exclude=[r"/private/"]).check(url)
    assert result.status == "excluded" and "/private/" in result.reason
    assert server.hits == Counter()


def test_each_url_is_requested_once(server: LinkServer) -> None:
    url = server.ok("/shared")
    urls = [url, url, url + "#intro", url + "#usage", url]
    results = checker(server).check_many(urls)
    assert {r.status for r in results.values()} == {"ok"}
    assert set(results) == set(urls)
    assert server.requests("/shared") == 1


def test_per_host_concurrency_is_limited(server: LinkServer) -> None:
    urls = [server.ok(f"/p{n}", delay=0.15) for n in range(12)]
    results = checker(server, per_host=3, max_workers=12).check_many(urls)
    assert {r.status for r in results.values()} == {"ok"}
    assert 2 <= server.max_active <= 3


def test_hundreds_of_links(server: LinkServer) -> None:
    urls = [server.ok(f"/many/{n}") for n in range(300)]
    started = time.monotonic()
    results = checker(server).check_many(urls)
    assert sum(r.status == "ok" for r in results.values()) == 300
    assert sum(server.hits.values()) == 300
    assert time.monotonic() - started < 30


# ========================================================================== progress
def test_progress_lines_while_links_are_asked(server: LinkServer, tmp_path: Path) -> None:
    """Issue 27: a 99-link check printed nothing for 15 s. Now one line when the requests
    start, one every 25 answers, and a closing line with the time and the statuses."""
    urls = [server.ok(f"/p/{n}") for n in range(58)] + [server.status("/gone", 404)]
    urls.append("http://10.0.0.1/intranet")  # blocked: answered without a request
    cache = LinkCache(tmp_path, 3600)
    cache.put(links.url_key(server.url("/p/0")), links.LinkResult(server.url("/p/0"), "ok", 200))
    lines: list[str] = []
    results = checker(server, cache=cache).check_many(urls, lines.append)
    assert len(results) == 60
    assert lines[0] == (
        "postgates: checking 58 links on 1 host; 2 answered without a request "
        "(--postgates-offline skips them)..."
    )
    # One line each time the count passes a multiple of 25 (answers may come in a bunch).
    shown = [re.fullmatch(r"postgates: checked (\d+) of 58 links", line) for line in lines[1:3]]
    counts = [int(match.group(1)) for match in shown if match]
    assert len(counts) == 2 and 25 <= counts[0] < 50 <= counts[1] < 58, lines
    assert lines[3].startswith("postgates: checked 58 links on 1 host in ")
    assert lines[3].endswith(" s: 1 dead, 57 ok")
    assert len(lines) == 4
    quiet: list[str] = []
    checker(server, cache=cache).check_many(urls[:5], quiet.append)
    assert quiet == []  # every answer from the cache: no request, no line


class Ticks:
    """A clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_progress_reports_a_slow_host_every_few_seconds() -> None:
    from pytest_postgates.tools.link_progress import LinkProgress

    lines: list[str] = []
    clock = Ticks()
    progress = LinkProgress(lines.append, 3, 2, every=25, interval=5.0, clock=clock)
    progress.update(1)
    clock.now = 4.0
    progress.update(1)
    assert lines == ["postgates: checking 3 links on 2 hosts (--postgates-offline skips them)..."]
    clock.now = 6.0
    progress.update(1)  # the same count after the interval: still a line, not silence
    assert lines[-1] == "postgates: checked 1 of 3 links"
    progress.update(3)
    clock.now = 7.25
    progress.finish(["ok", "unverified", "ok"])
    assert lines[-1] == "postgates: checked 3 links on 2 hosts in 7.2 s: 2 ok, 1 unverified"
    assert len(lines) == 3


def test_a_slow_answer_still_gives_progress_lines(
    server: LinkServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pytest_postgates.tools import link_progress

    monkeypatch.setattr(link_progress, "INTERVAL", 0.2)
    urls = [server.ok("/slow", delay=1.0), server.ok("/fast")]
    lines: list[str] = []
    checker(server).check_many(urls, lines.append)
    assert "postgates: checked 1 of 2 links" in lines[1:-1]


# ========================================================================= disk cache
class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def test_disk_cache_answers_the_second_run_and_expires(server: LinkServer, tmp_path: Path) -> None:
    clock = Clock()
    live, gone = server.ok("/live"), server.status("/gone", 404)
    first = checker(server, cache=LinkCache(tmp_path, 3600, clock)).check_many([live, gone])
    assert [first[live].status, first[gone].status] == ["ok", "dead"]
    assert server.requests("/live") == server.requests("/gone") == 1

    clock.now += 3000  # a new run (new checker), within the maximum age: no request
    second = checker(server, cache=LinkCache(tmp_path, 3600, clock)).check_many([live, gone])
    assert second == first
    assert server.requests("/live") == server.requests("/gone") == 1

    clock.now += 1000  # now older than the maximum age: asked again
    checker(server, cache=LinkCache(tmp_path, 3600, clock)).check_many([live, gone])
    assert server.requests("/live") == server.requests("/gone") == 2


def test_transient_answers_are_not_cached(server: LinkServer, tmp_path: Path) -> None:
    url = server.status("/down", 503)
    for _ in range(2):
        result = checker(server, cache=LinkCache(tmp_path, 3600), retries=0).check(url)
        assert result.status == "unverified"
    assert server.requests("/down") == 2


def test_cache_age_zero_disables_the_cache(server: LinkServer, tmp_path: Path) -> None:
    url = server.ok("/live")
    for _ in range(2):
        checker(server, cache=LinkCache(tmp_path, 0)).check(url)
    assert server.requests("/live") == 2
    assert list(tmp_path.iterdir()) == []


def test_cache_files_are_keyed_by_url_and_survive_corruption(tmp_path: Path) -> None:
    cache = LinkCache(tmp_path, 3600)
    cache.put("https://example.com/a", links.LinkResult("https://example.com/a", "ok", 200))
    (file,) = tmp_path.iterdir()
    assert file.name.endswith(".json") and "example" not in file.name
    assert cache.get("https://example.com/a") == links.LinkResult(
        "https://example.com/a", "ok", 200
    )
    assert cache.get("https://example.com/b") is None
    file.write_text("{not json", encoding="utf-8")
    assert cache.get("https://example.com/a") is None


def test_settings_drive_the_checker(tmp_path: Path) -> None:
    from pytest_postgates.config import Settings

    settings = Settings(
        offline=True,
        allow_hosts=("intranet",),
        link_exclude=("^https://skip",),
        link_timeout=3.5,
        link_cache_max_age=60,
    )
    made = LinkChecker.from_settings(settings, tmp_path)
    assert made.offline and made.timeout == (3.5, 3.5)
    assert made.cache is not None and made.cache.folder == tmp_path / "links"
    assert made.cache.max_age == 60
    assert made.check("https://skip.example/").status == "excluded"
    assert made.policy.allows_name("intranet", 80)
