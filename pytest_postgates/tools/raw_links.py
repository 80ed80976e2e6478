"""Link destinations read from a post's raw text, without a Markdown parse: gate 6's
prefetch of the run's URL batch (split from :mod:`pytest_postgates.gates.readability_links`,
which judges the exact links of each parsed post)."""

from __future__ import annotations

import re

from pytest_postgates.prose import HTML_URL
from pytest_postgates.scan_markdown import CodeSpanNoRepeat

_RAW_FENCE_OPEN = re.compile(r"^ {0,3}(`{3,}|~{3,})")
# (`+)(?:(?!\1).)+?\1 in linear time (as a regex, 1,600 backticks took 100 s).
_RAW_CODE_SPAN = CodeSpanNoRepeat()
# Link destinations as CommonMark and HTML write them: [text](url), ![alt](url), <scheme:...>
# autolinks and href/src attributes. Reference definitions are left to the gate: one is a
# link only where its label is used, and the batch must not request what no gate judges.
_RAW_LINK = re.compile(r"\]\(\s*<?([^)\s>]+)|<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^<>\s]*)>")
_RAW_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:")


def raw_link_urls(text: str) -> list[str]:
    """Link destinations read from a post's text without a Markdown parse, outside fenced
    code and code spans.

    Only a prefetch for the run's URL batch, like the mermaid batch of gate 1: a URL this
    misses is checked when its post is gated, from the exact links of the parsed post.
    Parsing every post for the batch, in one process while the other workers wait, cost
    as much as parsing them all again for their own gates."""
    urls: list[str] = []
    fence: str | None = None
    for line in text.split("\n"):
        opener = _RAW_FENCE_OPEN.match(line)
        if fence is not None:
            stripped = line.strip()
            if stripped and set(stripped) == {fence[0]} and len(stripped) >= len(fence):
                fence = None
            continue
        if opener:
            fence = opener.group(1)
            continue
        if _RAW_DEFINITION.match(line):
            continue
        line = _RAW_CODE_SPAN.sub("", line)
        for match in _RAW_LINK.finditer(line):
            urls.append(match.group(1) or match.group(2))
        for match in HTML_URL.finditer(line):
            urls.append((match.group(1) if match.group(1) is not None else match.group(2)).strip())
    return urls
