"""The names a reader can meet in the product's code without declaring them: members it
reads or writes (``x.wrapStream``), keys of the objects it builds (``{transformParams:
...}``), keyword arguments it passes (``f(retries=3)``) and the identifier-shaped string
values it writes (event types such as ``"content_block_start"``).

These, with the declarations, are what a misspelt name in a page can be a near miss of.
Local variables, the names a file imports from other packages and the words of comments
are not: a page's `myCustomVar` is no rename of a rule's local `myVar`, and
`stop_after_delay` is no typo of the `stop_after_attempt` the product imports from a
retry library. Nor is a member the code reads on a name it imports from another package
(``EventType.TOOL_CALL_RESULT`` after ``from ag_ui.core import EventType``): that member
is the other package's, and a page's ``TOOL_CALL_START`` is no near miss of the product's.
"""

from __future__ import annotations

import contextlib
import io
import re
import tokenize
from collections.abc import Iterable, Set
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pytest_postgates.evidence.model_facts import ImportSite

_NAME = re.compile(r"[A-Za-z_$][\w$]*")
# A Python string literal's quotes and prefix (`r"x"`, `b'x'`, `"""x"""`).
_PY_STRING = re.compile(r"^[rRbBuU]{0,2}(\"\"\"|'''|\"|')(.*)\1$", re.S)
# JavaScript: comments and strings, strings first so that `//` inside one is no comment.
_JS_LEXEME = re.compile(
    r"""(?P<string>'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`)"""
    r"""|(?P<comment>//[^\n]*|/\*.*?\*/)""",
    re.S,
)
# A member, with the name it is read on when that is a chain's head (`EventType.X`).
_JS_MEMBER = re.compile(r"(?:(?<![\w$.?])([A-Za-z_$][\w$]*)\s*)?(?:\?\.|\.)\s*([A-Za-z_$][\w$]*)")
_JS_KEY = re.compile(r"[{,]\s*([A-Za-z_$][\w$]*)\s*:")
# An object written with shorthand keys only (`{ knownMisses, unknownMisses }`), unless an
# import or export list or a declared pattern (`const { a } = require("other")`: the other
# package's names) precedes or follows it.
_JS_SHORTHAND = re.compile(
    r"(?<![\w$])(import|export|type|const|let|var)?(\s*)"
    r"\{\s*([A-Za-z_$][\w$]*(?:\s*,\s*[A-Za-z_$][\w$]*)*)\s*,?\s*\}(?=\s*(=(?!=)|from\b)?)"
)


def surface_names(sources: dict[str, str], imports: Iterable[ImportSite] = ()) -> set[str]:
    """Every member, key, keyword argument and identifier-shaped string value that the
    code of ``sources`` (path -> text) writes; a member read directly on a name the file
    imports from another package (``imports``, the model's import sites) is left out."""
    foreign: dict[str, set[str]] = {}
    for site in imports:
        if site.external:
            foreign.setdefault(site.path, set()).add(site.local)
    found: set[str] = set()
    for path, text in sources.items():
        theirs = foreign.get(path, set())
        if Path(path).suffix.lower() in (".py", ".pyi"):
            found |= _python_surface(text, theirs)
        else:
            found |= _script_surface(text, theirs)
    # `\w` takes characters no identifier may hold (`¼`, a number of category No), which
    # tokenize's and the scripts' patterns read as part of a name: identifiers only.
    return {name for name in found if name.replace("$", "_").isidentifier()}


def _python_surface(text: str, foreign: Set[str] = frozenset()) -> set[str]:
    found: set[str] = set()
    previous = ""
    receiver = ""  # the name before the last `.`, when it heads its chain
    before, previous_kind = "", -1
    depth = 0
    tokens: list[tokenize.TokenInfo] = []
    # A file tokenize cannot finish (an unclosed bracket) gives what was read before.
    with contextlib.suppress(tokenize.TokenError, SyntaxError, IndentationError):
        tokens.extend(tokenize.generate_tokens(io.StringIO(text).readline))
    for at, token in enumerate(tokens):
        if token.type == tokenize.OP:
            if token.string in "([{":
                depth += 1
            elif token.string in ")]}":
                depth = max(0, depth - 1)
        elif token.type == tokenize.NAME:
            after = tokens[at + 1].string if at + 1 < len(tokens) else ""
            if previous == "." and receiver in foreign:
                pass  # the other package's member (`EventType.TOOL_CALL_RESULT`)
            elif previous == "." or (depth and after == "="):
                found.add(token.string)
        elif token.type == tokenize.STRING:
            quoted = _PY_STRING.match(token.string)
            if quoted and _NAME.fullmatch(quoted.group(2)):
                found.add(quoted.group(2))
        if token.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT):
            if token.string == ".":
                head = previous_kind == tokenize.NAME and before != "."
                receiver = previous if head else ""
            before, previous, previous_kind = previous, token.string, token.type
    return found


def _script_surface(text: str, foreign: Set[str] = frozenset()) -> set[str]:
    found: set[str] = set()
    code: list[str] = []
    end = 0
    for lexeme in _JS_LEXEME.finditer(text):
        code.append(text[end : lexeme.start()])
        end = lexeme.end()
        string = lexeme.group("string")
        if string is None:
            code.append(" ")  # a comment separates, and says nothing
            continue
        code.append('""')
        if _NAME.fullmatch(string[1:-1]):
            found.add(string[1:-1])
    code.append(text[end:])
    bare = "".join(code)
    found.update(member for head, member in _JS_MEMBER.findall(bare) if head not in foreign)
    found.update(_JS_KEY.findall(bare))
    for shorthand in _JS_SHORTHAND.finditer(bare):
        if not shorthand.group(1) and shorthand.group(4) is None:
            found.update(re.split(r"\s*,\s*", shorthand.group(3).strip()))
    return found


# A string that names a file by a data or script suffix (``"lerna.json"``,
# ``path.join(dir, 'ava.config.js')``, ``'pyproject.toml'``, ``".prettierrc"``): its last
# path part is kept. A name made at run time (``\`${name}.config.js\```) is none.
_FILE_STRING = re.compile(
    r"""(['"`])(?:[^'"`\n$]*[/\\])?(\.?[\w-]+(?:\.[\w-]+)*"""
    r"""\.(?:json[c5]?|ya?ml|toml|[cm]?[jt]s|ini|cfg|conf)|\.[\w-]+rc)\1"""
)


def file_names(sources: dict[str, str]) -> set[str]:
    """The file names the code of ``sources`` writes in its string literals: the files it
    may open by name (a configuration file it reads among them)."""
    return {match.group(2) for text in sources.values() for match in _FILE_STRING.finditer(text)}
