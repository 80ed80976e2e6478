"""One escaping helper per output medium, for every string a post or a file name brings.

Post content and file names are untrusted: they reach terminal lines, CI logs, GitHub
workflow commands, the Markdown job summary and the reports. Each medium acts on something
(a terminal on escape sequences, a GitHub runner on a log line that starts with ``::``,
Markdown on backticks, ``|`` and ``<!--``), so each has its helper here and every writer
uses it:

- :func:`printable`: a block of terminal or log text (controls shown escaped; no line can
  start a workflow command);
- :func:`one_line`: a value placed inside a terminal or log line (also no line break);
- :func:`workflow_data`, :func:`workflow_property`: GitHub workflow command data and
  properties (``%0A``, ``%0D``, ``%25``; ``%3A``, ``%2C``);
- :func:`markdown_text`: text in a Markdown table cell, list item or link text.
"""

from __future__ import annotations

import re

# Characters a terminal (or a CI log viewer) acts on rather than shows: C0 controls but tab
# and newline, DEL, C1 controls (0x9b is a one-byte CSI), bidirectional overrides, and lone
# surrogates (a non-UTF-8 file name), which cannot even be written to a UTF-8 stream.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
# A line a GitHub runner reads as a workflow command: ``::cmd::`` (or the legacy ``##[``)
# after any leading white space.
_COMMAND_START = re.compile(r"^([ \t]*)(::|##\[)", re.MULTILINE)
_LINE_BREAK = re.compile("[\n\u0085\u2028\u2029]")


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8, kept by surrogateescape
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _inert_command(match: re.Match[str]) -> str:
    marker = match.group(2)
    return f"{match.group(1)}\\x{ord(marker[0]):02x}{marker[1:]}"


def printable(text: str) -> str:
    """``text`` safe to print on a terminal or in a CI log: every control character (ESC of
    an ANSI or OSC sequence, BEL, a carriage return that overprints a line) is shown
    escaped as ``\\x1b`` instead of acted on, and a line that would start a GitHub
    workflow command (``::add-mask::``, ``::warning``) shows its first ``:`` as ``\\x3a``.
    Tabs and newlines stay."""
    return _COMMAND_START.sub(_inert_command, _CONTROL.sub(_escaped, text))


def one_line(text: str) -> str:
    """A value placed inside one terminal or log line: :func:`printable`, and its line
    breaks shown as ``\\n`` so that it never starts a line of its own."""
    return printable(_LINE_BREAK.sub(_shown_break, text))


def _shown_break(match: re.Match[str]) -> str:
    char = match.group()
    return "\\n" if char == "\n" else f"\\u{ord(char):04x}"


def workflow_data(text: str) -> str:
    """The data of a GitHub workflow command (after ``::``): one line, controls escaped."""
    return (
        _CONTROL.sub(_escaped, text)
        .replace("%", "%25")
        .replace("\r", "%0D")
        .replace("\n", "%0A")
        .replace("\u2028", "%E2%80%A8")
        .replace("\u2029", "%E2%80%A9")
        .replace("\u0085", "%C2%85")
    )


def workflow_property(text: str) -> str:
    """A property value of a GitHub workflow command (``file=``, ``title=``)."""
    return workflow_data(text).replace(":", "%3A").replace(",", "%2C")


# Every character Markdown (or the HTML inside it) may read as markup, backslash-escaped:
# rendered as itself, never as a code span, a table cell boundary, an HTML comment or tag, a
# link, emphasis, math or an escape of its own.
_MARKDOWN_SPECIAL = re.compile(r"[\\`*_{}\[\]()#+!|<>&~$]")


def markdown_text(text: str) -> str:
    """``text`` as literal text in a Markdown table cell, list item, link text or inside
    ``<code>``: one line, controls escaped, every markup character backslash-escaped."""
    return _MARKDOWN_SPECIAL.sub(lambda m: "\\" + m.group(), one_line(text))
