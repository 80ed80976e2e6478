"""Links gate 6 does not judge as web pages: an address on the reader's own machine or
network (``http://localhost:3000``, ``http://127.0.0.1:8000/docs``, a private or metadata
address) and a domain reserved for examples (``example.com``, ``*.example``, ``*.test``,
``*.invalid``: RFC 2606 and 6761). A post shows them as examples, for a reader to open on
their machine or to read as a shape, and nothing a link check answers says whether they
are right: requested, the first is refused by the address policy and the second answers
for anyone (or names no host at all). Reported as failures, they were false alarms
(issue 27: vitest's "open http://localhost:51204/__vitest__/" after ``vitest --ui``), so
they are listed with this reason and never fail the post.

One exception is a real defect: a loopback link whose path is a page of the post's own
site (``http://127.0.0.1:4000/skipgram-recommender-talk/`` on a Jekyll blog whose post has
that URL) is the author's local preview, copied from the browser: dead for every reader.
:func:`preview_path` finds it; gate 6 fails it as LOCAL_PREVIEW_LINK.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from pytest_postgates.tools import links as linkcheck

EXAMPLE = "example"  # the status of such a link in gate 6's link rows
# Second-level domains and top-level names reserved for examples and tests (RFC 2606,
# RFC 6761): they name no page anyone published.
EXAMPLE_DOMAINS = ("example.com", "example.net", "example.org")
EXAMPLE_TOP_LEVEL = ("example", "test", "invalid", "localhost")


@dataclass(frozen=True)
class ReaderLocal:
    """Why a link is an example, and whether its host is the reader's own machine."""

    reason: str
    loopback: bool


def reserved_example(host: str) -> bool:
    """Whether ``host`` is a domain reserved for examples (or a name under one)."""
    name = host.rstrip(".").lower()
    return name.rsplit(".", 1)[-1] in EXAMPLE_TOP_LEVEL or any(
        name == domain or name.endswith("." + domain) for domain in EXAMPLE_DOMAINS
    )


def reader_local(url: str, checker: linkcheck.LinkChecker) -> ReaderLocal | None:
    """Why ``url`` (a well-formed web URL) is an example rather than a page to check, or
    None. A URL the project excludes (``link_exclude``) or allows (``allow_hosts``) keeps
    the checker's verdict."""
    verdict = checker.precheck(url)
    host = urlsplit(url).hostname or ""
    if verdict is not None and verdict.status == linkcheck.BLOCKED:
        return ReaderLocal(
            f"{verdict.reason}: an address on the reader's own machine or network, shown "
            "for the reader to open there, not a published page; not requested (list the "
            "host in allow_hosts to check it)",
            loopback="loopback" in verdict.reason,
        )
    if (verdict is None or verdict.status == linkcheck.UNCHECKED) and reserved_example(host):
        return ReaderLocal(
            f"{host} is reserved for examples (RFC 2606, RFC 6761): it names no published "
            "page; not requested",
            loopback=False,
        )
    return None


def preview_path(url: str, local: ReaderLocal) -> str | None:
    """The site path of a loopback link (a local preview's address), or None: the root
    alone is not one (``http://localhost:8000/`` is how docs tell a reader to open the
    server they started)."""
    if not local.loopback:
        return None
    path = urlsplit(url).path
    return path if path.strip("/") else None
