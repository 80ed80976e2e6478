"""Where gate 6's link checker may connect: the shape of a URL that can be requested, the
host and address policy (loopback, private, link-local, metadata and other special
addresses refused unless allowed), and urllib3 connections that open a socket only to an
address resolved and checked in the same step, so DNS tricks cannot reach a private
service. Split from :mod:`pytest_postgates.tools.links` (issue 14: one concern per module);
the checker's rules are described there.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

if TYPE_CHECKING:
    # requests and urllib3 are imported when the first connection class is made: an
    # offline run (and every run's startup) never loads them.
    from requests.adapters import HTTPAdapter
    from urllib3.connection import HTTPConnection
    from urllib3.connectionpool import HTTPConnectionPool

CHECKED_SCHEMES = frozenset({"http", "https"})

# Cloud metadata endpoints: named in the reason even where the address rule alone blocks.
METADATA_HOSTS = frozenset(
    {
        "metadata.google.internal",
        "metadata.goog",
        "metadata",
        "instance-data",
        "instance-data.ec2.internal",
    }
)
METADATA_ADDRESSES = frozenset(
    ipaddress.ip_address(a)
    for a in ("169.254.169.254", "fd00:ec2::254", "169.254.170.2", "100.100.100.200")
)

Resolver = Callable[..., list[tuple[Any, ...]]]
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class BlockedAddress(Exception):
    """Raised where a socket would be opened to an address the policy refuses.

    Deliberately not an ``OSError``: urllib3 and requests wrap OSErrors as connection
    failures (which are retried); this must reach the checker unchanged.
    """

    def __init__(self, host: str, address: str, problem: str) -> None:
        super().__init__(f"{host} resolves to {address} ({problem})")
        self.host = host
        self.address = address
        self.problem = problem


class UnknownHost(Exception):
    """The host name does not exist (the resolver answered "no such name")."""

    def __init__(self, host: str) -> None:
        super().__init__(f"unknown host {host}")
        self.host = host


# ----------------------------------------------------------------------- URL shape
_HOST_LABEL = re.compile(r"(?!-)[a-z0-9_-]{1,63}(?<!-)", re.IGNORECASE)
_SCHEME_TYPO = re.compile(r"h+t+p+s?|t+p+s?|ht+s?|htp+s?", re.IGNORECASE)


def url_key(url: str) -> str:
    """The URL as requested: without its fragment (``#a`` and ``#b`` are one request)."""
    return url.split("#", 1)[0]


@lru_cache(maxsize=16384)
def url_problem(url: str) -> str | None:
    """Why ``url`` (an http(s) URL or a mistyped one) cannot be requested, or None.

    Cached: a long post repeats its links, and the gate asks about each occurrence.
    """
    if any(ch.isspace() or ord(ch) < 32 or ord(ch) == 127 for ch in url):
        return "contains whitespace or control characters"
    if re.match(r"(?i)https?//", url):
        return "the scheme has no colon (http//...)"
    try:
        parts = urlsplit(url)
    except ValueError as exc:
        return f"cannot be parsed: {exc}"
    scheme = parts.scheme.lower()
    if scheme not in CHECKED_SCHEMES:
        if _SCHEME_TYPO.fullmatch(scheme):
            return f"unknown scheme {parts.scheme!r} (a typo of http/https?)"
        return None
    if not parts.netloc:
        return "no host after the scheme"
    try:
        port = parts.port
    except ValueError as exc:
        return f"bad port: {exc}"
    if port == 0:
        return "bad port: 0"
    host = parts.hostname or ""
    if not host:
        return "no host after the scheme"
    if "%" in host and not host.startswith("["):
        return f"host {host!r} is percent-encoded"
    if ip_literal(host) is not None:
        return None
    if "[" in parts.netloc or "]" in parts.netloc:
        return "bad IPv6 literal"
    try:
        ascii_host = host.rstrip(".").encode("idna").decode("ascii")
    except UnicodeError:
        return f"host {host!r} is not a valid host name"
    labels = ascii_host.split(".")
    if len(ascii_host) > 253 or not all(_HOST_LABEL.fullmatch(label) for label in labels):
        return f"host {host!r} is not a valid host name"
    return None


def ip_literal(host: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(host.strip("[]").split("%", 1)[0])
    except ValueError:
        return None


def address_problem(address: IPAddress) -> str | None:
    """Why a connection to ``address`` is refused, or None for a public address."""
    if isinstance(address, ipaddress.IPv6Address):
        for embedded in (address.ipv4_mapped, address.sixtofour):
            if embedded is not None:
                problem = address_problem(embedded)
                if problem:
                    return problem
    if address in METADATA_ADDRESSES:
        return "cloud metadata address"
    if address.is_loopback:
        return "loopback address"
    if address.is_link_local:
        return "link-local address"
    if isinstance(address, ipaddress.IPv6Address) and address in _UNIQUE_LOCAL:
        return "unique-local address"
    if address.is_unspecified:
        return "unspecified address"
    if address.is_multicast:
        return "multicast address"
    if address.is_reserved:
        return "reserved address"
    if address.is_private:
        return "private address"
    if not address.is_global:
        return "special-purpose address (not globally reachable)"
    return None


_UNIQUE_LOCAL = ipaddress.ip_network("fc00::/7")


# ----------------------------------------------------------------------- the policy
class HostPolicy:
    """Which hosts may be requested. ``allow_hosts`` entries: a host name (``localhost``),
    a host and port (``localhost:8080``, ``[::1]:8080``), an address (``127.0.0.1``) or a
    network (``10.0.0.0/8``). An entry without a port allows every port."""

    def __init__(self, allow_hosts: Iterable[str] = ()) -> None:
        self.names: set[tuple[str, int | None]] = set()
        self.addresses: set[tuple[IPAddress, int | None]] = set()
        self.networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        for entry in allow_hosts:
            self._add(entry.strip())

    def _add(self, entry: str) -> None:
        if not entry:
            return
        if "/" in entry:
            try:
                self.networks.append(ipaddress.ip_network(entry, strict=False))
                return
            except ValueError:
                pass
        address = ip_literal(entry)
        if address is not None:  # 127.0.0.1, ::1, [::1]
            self.addresses.add((address, None))
            return
        host, port = entry, None
        match = re.fullmatch(r"(\[[^\]]+\]|[^:]+):(\d+)", entry)
        if match:
            host, port = match.group(1), int(match.group(2))
        address = ip_literal(host)
        if address is not None:
            self.addresses.add((address, port))
        else:
            self.names.add((_normal_host(host), port))

    def allows_name(self, host: str, port: int) -> bool:
        host = _normal_host(host)
        return (host, None) in self.names or (host, port) in self.names

    def allows_address(self, address: IPAddress, port: int) -> bool:
        if (address, None) in self.addresses or (address, port) in self.addresses:
            return True
        return any(address in network for network in self.networks)

    def host_problem(self, host: str, port: int) -> str | None:
        """The verdict that needs no DNS: allowed names, literal addresses, metadata and
        localhost names."""
        if self.allows_name(host, port):
            return None
        address = ip_literal(host)
        if address is not None:
            if self.allows_address(address, port):
                return None
            return address_problem(address)
        name = _normal_host(host)
        if name in METADATA_HOSTS:
            return "cloud metadata host"
        if name == "localhost" or name.endswith(".localhost"):
            return "loopback host name"
        return None

    def resolve(self, host: str, port: int, resolver: Resolver) -> list[tuple[Any, ...]]:
        """Resolve ``host`` and return the addresses to connect to; raises
        :class:`BlockedAddress` when the name or any address it resolves to is refused.

        Every address must pass: a name that answers with one public and one private
        address is refused rather than raced.
        """
        problem = self.host_problem(host, port)
        if problem:
            raise BlockedAddress(host, host, problem)
        infos = resolver(host.strip("[]"), port, 0, socket.SOCK_STREAM)
        if self.allows_name(host, port):
            return infos
        for info in infos:
            address = ipaddress.ip_address(str(info[4][0]).split("%", 1)[0])
            if self.allows_address(address, port):
                continue
            problem = address_problem(address)
            if problem:
                raise BlockedAddress(host, str(address), problem)
        return infos


def _normal_host(host: str) -> str:
    return host.strip("[]").rstrip(".").lower()


def default_port(scheme: str) -> int:
    return 443 if scheme == "https" else 80


# ------------------------------------------------------- guarded urllib3 connections
def guarded_pool_classes(
    policy: HostPolicy, resolver: Resolver
) -> dict[str, type[HTTPConnectionPool]]:
    """Connection pools whose sockets are opened only to checked addresses."""
    from urllib3.connection import HTTPConnection, HTTPSConnection
    from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
    from urllib3.exceptions import ConnectTimeoutError, NameResolutionError, NewConnectionError

    def new_conn(conn: HTTPConnection) -> socket.socket:
        host = getattr(conn, "_dns_host", conn.host)
        try:
            infos = policy.resolve(host, conn.port or 80, resolver)
        except socket.gaierror as exc:
            if exc.errno in _NO_SUCH_NAME:
                raise UnknownHost(host) from exc
            raise NameResolutionError(conn.host, conn, exc) from exc
        error: OSError | None = None
        for family, kind, proto, _name, address in infos:
            sock = socket.socket(family, kind, proto)
            try:
                for option in conn.socket_options or ():
                    sock.setsockopt(*option)
                if isinstance(conn.timeout, (int, float)):
                    sock.settimeout(conn.timeout)
                sock.connect(address)
                return sock
            except OSError as exc:
                error = exc
                sock.close()
        if isinstance(error, socket.timeout):
            raise ConnectTimeoutError(conn, f"connection to {conn.host} timed out") from error
        raise NewConnectionError(conn, f"failed to connect to {conn.host}: {error}") from error

    class GuardedHTTPConnection(HTTPConnection):
        def _new_conn(self) -> socket.socket:
            return new_conn(self)

    class GuardedHTTPSConnection(HTTPSConnection):
        def _new_conn(self) -> socket.socket:
            return new_conn(self)

    class GuardedHTTPPool(HTTPConnectionPool):
        ConnectionCls = GuardedHTTPConnection

    class GuardedHTTPSPool(HTTPSConnectionPool):
        ConnectionCls = GuardedHTTPSConnection

    return {"http": GuardedHTTPPool, "https": GuardedHTTPSPool}


_NO_SUCH_NAME = frozenset(
    code
    for code in (getattr(socket, "EAI_NONAME", None), getattr(socket, "EAI_NODATA", None))
    if code is not None
)


def guarded_adapter(pools: dict[str, type[HTTPConnectionPool]], per_host: int) -> HTTPAdapter:
    """A requests adapter whose pools are the guarded ones, never retrying on its own and
    never using a proxy."""
    return _guarded_adapter_class()(pools, per_host)


@lru_cache(maxsize=1)
def _guarded_adapter_class() -> Callable[[dict[str, type[HTTPConnectionPool]], int], HTTPAdapter]:
    import requests
    from requests.adapters import HTTPAdapter

    class GuardedAdapter(HTTPAdapter):
        def __init__(self, pools: dict[str, type[HTTPConnectionPool]], per_host: int) -> None:
            self._guarded_pools = pools
            super().__init__(pool_connections=4, pool_maxsize=per_host, max_retries=0)

        def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
            super().init_poolmanager(*args, **kwargs)
            self.poolmanager.pool_classes_by_scheme = dict(self._guarded_pools)

        def proxy_manager_for(self, *args: Any, **kwargs: Any) -> Any:
            # A proxy would resolve and connect on our behalf, out of the guard's reach.
            raise requests.exceptions.InvalidURL("the link checker never uses a proxy")

    return GuardedAdapter
