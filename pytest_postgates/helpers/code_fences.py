"""Which fences hold code a reader would run: JavaScript/TypeScript, shell, Python.

Gate 15 reads the same JavaScript/TypeScript and shell fences as gate 14 (the languages
are the same sets; an untagged fence is shell when it runs a package manager or the
product's CLI, code when it reads as JavaScript) and Python fences too.

An indented code block (CommonMark's, with no language: :attr:`~pytest_postgates.post.Post.
indented_code`) is ``python`` when it is a REPL session (``>>>`` prompts) and ``indented``
otherwise: the gate reads it as Python only when all of it parses as Python (DRF's docs
write their samples as indented blocks), and lists it with that reason when it does not.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pytest_postgates.post import Fence

CODE_LANGS = frozenset(
    {"js", "javascript", "jsx", "mjs", "cjs", "ts", "typescript", "tsx", "mts", "cts"}
)
SHELL_LANGS = frozenset({"bash", "sh", "shell", "console", "zsh", "shell-session", "terminal"})
PYTHON_LANGS = frozenset({"python", "py", "python3", "pycon"})
_SHELLISH = re.compile(r"^\s*(?:\$\s+)?(?:npx|pnpm|yarn|bunx|npm|bun)\s", re.MULTILINE)
_JSISH = re.compile(r"\b(import|export|require|const|let|function)\b")
_REPL = re.compile(r"^>>>(?: |$)", re.MULTILINE)


def fence_kind(fence: Fence) -> str | None:
    """``code`` (JavaScript/TypeScript), ``shell``, ``python``, ``indented`` (an indented
    block that is no REPL session) or None (not read)."""
    if not fence.markup:
        return "python" if _REPL.search(fence.content) else "indented"
    lang = fence.lang
    if lang in CODE_LANGS:
        return "code"
    if lang in SHELL_LANGS:
        return "shell"
    if lang in PYTHON_LANGS:
        return "python"
    if lang == "":
        if _SHELLISH.search(fence.content):
            return "shell"
        return "code" if _JSISH.search(fence.content) else None
    return None


# An info string past the language that says the fence shows a command's output
# (```` ```bash title="Terminal Output" ````).
_OUTPUT_INFO = re.compile(r"\boutput\b", re.IGNORECASE)


def shows_output(fence: Fence) -> bool:
    """Whether the fence's info string, past its language, says it shows output: its
    lines are what commands printed, not commands (a prompted line still is one)."""
    parts = fence.info.split(maxsplit=1)
    return len(parts) > 1 and bool(_OUTPUT_INFO.search(parts[1]))


# JSON's own words: the only bare words a JSON document may hold.
_JSON_WORDS = frozenset({"true", "false", "null"})
# A JSON string (keys and string values), left out before names are looked for.
_JSON_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')


def json_placeholder(name: str, fences: Iterable[Fence]) -> int | None:
    """The line of a JSON fence that writes ``name`` bare, outside its strings (eslint's
    rule docs: `{ "blankLine": LINEBREAK_TYPE }`): JSON has no names, so the bare word is
    the page's placeholder for a value the page goes on to describe. None otherwise."""
    if name in _JSON_WORDS or not re.fullmatch(r"[A-Za-z_$][\w$]*", name):
        return None
    bare = re.compile(rf"(?<![\w$.]){re.escape(name)}(?![\w$])")
    for fence in fences:
        if fence.lang in ("json", "jsonc", "json5") and bare.search(
            _JSON_STRING.sub('""', fence.content)
        ):
            return fence.start_line
    return None
