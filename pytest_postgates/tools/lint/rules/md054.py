"""MD054 (link-image-style): Link and image style.

markdownlint 0.36.1's algorithm: each autolink, inline, full, collapsed and shortcut
link or image (outside HTML blocks) in a style the options switch off; references only
when their label, as written, is a definition's key; ``url_inline`` off flags an inline
link whose text is its absolute URL (no title, autolinks allowed).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pytest_postgates.tools.lint.document import Document
from pytest_postgates.tools.lint.micromark import model_of
from pytest_postgates.tools.lint.references import definitions_of

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
_SPECIAL = {"http", "https", "ws", "wss", "ftp", "file"}
_FORBIDDEN_HOST = set(" #%/:<>?@[\\]^|")
_STYLES = ("autolink", "inline", "full", "collapsed", "shortcut", "url_inline")


def _url(destination: str) -> bool:
    """Whether ``new URL(destination)`` accepts it (an absolute URL), approximately as
    the WHATWG parser does: a scheme, and a host for the special schemes but file."""
    match = _SCHEME.match(destination.strip())
    if match is None:
        return False
    scheme = match.group(0)[:-1].lower()
    if scheme in _SPECIAL and scheme != "file":
        rest = destination.strip()[match.end() :].lstrip("/\\")
        host = re.split(r"[/\\?#]", rest, maxsplit=1)[0]
        host = host.rsplit("@", 1)[-1]
        if ":" in host:
            host, _, port = host.partition(":")
            if port and not port.isdigit():
                return False
        return bool(host) and not (set(host) & _FORBIDDEN_HOST)
    return True


def autolink_able(destination: str | None) -> bool:
    return (
        bool(destination) and _url(destination or "") and not re.search(r"[ <>]", destination or "")
    )


def may_violate(lines: Sequence[str], options: Mapping[str, Any]) -> bool:
    return not all(options.get(style) is None or bool(options.get(style)) for style in _STYLES)


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    allowed = {style: options.get(style) is None or bool(options.get(style)) for style in _STYLES}
    if all(allowed.values()):
        return
    model = model_of(document)
    definitions = definitions_of(document)
    message = "Link and image style"
    found: list[int] = []
    if not allowed["autolink"]:
        found.extend(
            autolink.line
            for autolink in model.autolinks
            if not autolink.in_html_flow and autolink.destination
        )
    for link in model.links:
        if link.in_html_flow:
            continue
        image = link.kind == "image"
        if link.style == "inline" and link.destination:
            error = not allowed["inline"] or (
                not allowed["url_inline"]
                and allowed["autolink"]
                and not image
                and not link.title
                and link.label == link.destination
                and autolink_able(link.destination)
            )
        else:
            shortcut = link.style in ("shortcut", "inline")
            collapsed = link.style == "collapsed" or (link.style == "full" and not link.reference)
            definition = definitions.get(link.reference or link.label)
            destination = definition[1] if definition else None
            error = bool(destination) and (
                not allowed["shortcut"]
                if shortcut
                else (not allowed["collapsed"] if collapsed else not allowed["full"])
            )
        if error:
            found.append(link.line)
    for line in sorted(found):
        yield line, message
