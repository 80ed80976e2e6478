"""Vue single-file components: the ``<script>`` and ``<script setup>`` blocks of a ``.vue``
file read as a module of the product, with the file's own lines.

:func:`script_text` keeps the text of those blocks in place and blanks every other
character but line breaks (the template, the styles, the tags), so a parse of it gives the
``.vue`` file's lines and columns. The blocks are parsed as TypeScript (``lang="ts"``, or
plain JavaScript, which the TypeScript grammar reads too); a block of another language
(``lang="coffee"``) or a ``src=`` block is not read.
"""

from __future__ import annotations

import re

VUE_SUFFIX = ".vue"
_BLOCK = re.compile(r"<script\b([^>]*)>(.*?)</script\s*>", re.S | re.I)
_LANG = re.compile(r"""\blang\s*=\s*["']?([\w-]+)""", re.I)
_READ = ("ts", "js", "tsx", "jsx", "javascript", "typescript")


def script_text(text: str) -> str | None:
    """The component's script blocks in place, the rest blanked (None: no block read)."""
    kept: list[tuple[int, int]] = []
    for match in _BLOCK.finditer(text):
        attributes = match.group(1)
        lang = _LANG.search(attributes)
        if re.search(r"\bsrc\s*=", attributes) or (lang and lang.group(1).lower() not in _READ):
            continue
        kept.append((match.start(2), match.end(2)))
    if not kept:
        return None
    out: list[str] = []
    at = 0
    for start, end in kept:
        out.append(_blank(text[at:start]))
        out.append(text[start:end])
        at = end
    out.append(_blank(text[at:]))
    return "".join(out)


def _blank(text: str) -> str:
    return re.sub(r"[^\n]", " ", text)
