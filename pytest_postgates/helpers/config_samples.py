"""Gate 15's reading of the product's configuration files a page shows: the keys of a
``package.json`` section named after the product (``{"ava": {...}}``), of a file named
after the product that its code opens by name (``lerna.json``, ``ava.config.js``,
``mkdocs.yml``; the file a fence shows is its ``title``, or the one its first comment, the
heading or the ``...:`` line right above it, the fence right above it or the heading of
its section names) and of a ``pyproject.toml`` table ``[tool.<product>]``. A JavaScript
file's object is what it exports (a flat config's array: each object's keys), a YAML
file's its mapping.

Each top-level key is judged against the API model: a key is one the product takes when
its code names it somewhere (a member it reads, a key, a parameter, a string: the model's
identifiers), as written or as the same words in another case style (``test-command`` for
``test_command``); a key no code of the product names is a finding, with the file the
code opens as the evidence that the sample is the product's. A nested key is listed
unjudged (whether its object takes only the product's keys, or the reader's names, as
``extensions: {ts: ...}`` does, the model does not tell), and so is a key that is no name
(``"$schema"``, ``"/api/**"``).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Set
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from pytest_postgates.helpers.sample_checks import SampleReport, did_you_mean
from pytest_postgates.post import fence_title

if TYPE_CHECKING:
    from pytest_postgates.post import Fence

# A file name shaped as the product's code writes them (code_surface.file_names).
FILE_NAME = re.compile(
    r"(?<![\w./-])(\.?[\w-]+(?:\.[\w-]+)*\.(?:json[c5]?|ya?ml|toml|[cm]?[jt]s|ini|cfg|conf)"
    r"|\.[\w-]+rc)(?![\w/-])"
)
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s")
_FENCE_MARK = re.compile(r"^\s{0,3}(`{3,}|~{3,})\s*$")  # a fence's closing line
_FENCE_OPEN = re.compile(r"^\s{0,3}(`{3,}|~{3,})\s*[^\s`~]")  # an opener with an info string
# A comment opening a fence's first line: `// x`, `/* x */`, `# x` (a `#` then a space).
_LEADING_COMMENT = re.compile(r"^(?://+|/\*+|#\s|<!--)\s*(.*?)\s*(?:\*/|-->)?$")
_OBJECT_LANGS = frozenset(
    {"", "json", "jsonc", "json5", "js", "javascript", "mjs", "cjs", "ts", "typescript", "mts"}
)
# Where a JavaScript config file's object starts: `export default {`, `module.exports = {`,
# or the object a `defineConfig({` call there takes; or its array of such objects (a flat
# config's `export default [{...}, {...}]`, each object's keys the file's own).
_JS_OBJECT = re.compile(
    r"(?:^|\n)\s*(?:export\s+default|module\.exports\s*=)\s*(?:[\w$.]+\s*\(\s*)?(?=[{\[])"
)
_YAML_LANGS = frozenset({"yaml", "yml"})
# A YAML mapping's key: after the indentation and any list item dashes, a quoted or plain
# key, a colon, then a space or the line's end (`url: http://x` has one key).
_YAML_KEY = re.compile(r"""^\s*((?:-\s+)*)("[^"\n]*"|'[^'\n]*'|[A-Za-z_$][\w$.-]*)\s*:(?:\s|$)""")
_TOOL_TABLE = re.compile(r"^\s*\[\s*tool\.([\w.\"'-]+?)\s*\]\s*(?:#.*)?$")
_TABLE = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_TOML_KEY = re.compile(r"""^\s*("[^"]*"|'[^']*'|[\w-]+(?:\s*\.\s*[\w-]+)*)\s*=""")
_KEY_NAME = re.compile(r"[A-Za-z_][\w-]*")
PACKAGE_JSON = "package.json"
PYPROJECT = "pyproject.toml"


@dataclass(frozen=True)
class ConfigKey:
    path: tuple[str, ...]  # the keys it is written under, in the file shown
    name: str
    line: int


@dataclass(frozen=True)
class ConfigSample:
    """A fence shown as the product's configuration: what file (and section) it is, the
    file name the product's code writes (the evidence it reads it), and its keys."""

    shown: str  # "lerna.json", "package.json's `ava` key", "pyproject.toml [tool.logfire]"
    evidence: str  # why it is the product's: the file name its code opens
    keys: tuple[ConfigKey, ...]


def shown_file(
    lines: list[str], start_line: int, info: str, content: str = "", nearby: bool = False
) -> str:
    """The name of the file a fence (its opening marker at ``start_line``, 1-based;
    ``content``, its text) is shown as: its info string's ``title=`` or bracketed file
    name (``ts [nuxt.config.ts]``), else the one file name its first line's comment
    names (``// jest.config.js``), the heading or the ``...:`` line right above it names,
    the fence right above it is shown as (a second form of the same file), or the heading
    of its section names when it is that section's first fence (``### `ava.config.js```);
    "" when none. ``nearby``: the title and the line right above only."""
    titled = fence_title(info, tabs=False).rsplit("/", 1)[-1]
    if titled:
        return titled
    # A tab title names a file only when it is shaped as one (``[Before]`` names none).
    tab = fence_title(info).rsplit("/", 1)[-1]
    if FILE_NAME.fullmatch(tab):
        return tab
    commented = "" if nearby else _first_comment(content)
    if commented:
        return commented
    at = start_line - 2
    while at >= 0 and not lines[at].strip():
        at -= 1
    if at < 0:
        return ""
    above = lines[at].strip()
    if start_line - 2 - at <= 2 and (_HEADING.match(above) or above.rstrip("*_ ").endswith(":")):
        named = _one_file(above)
        if named or nearby or FILE_NAME.search(above):  # one file, or several: no answer
            return named
    if nearby:
        return ""
    closer = _FENCE_MARK.match(lines[at])
    if closer and start_line - 2 - at <= 1:
        opener = _opener(lines, at, closer.group(1))
        if opener is not None:  # the fence right above: the same file, shown another way
            text = "\n".join(lines[opener + 1 : at])
            info_above = lines[opener].strip().lstrip("`~")
            return shown_file(lines[:opener], opener + 1, info_above, text)
        return ""
    return _section_file(lines, at)


def _one_file(text: str) -> str:
    """The one file name a line names (in code spans, if it has any), or ""."""
    spans = re.findall(r"`([^`]+)`", text)
    named = {m.group(1) for s in spans for m in FILE_NAME.finditer(s)} if spans else set()
    if not named:
        named = {m.group(1) for m in FILE_NAME.finditer(text)}
    named = {name.rsplit("/", 1)[-1] for name in named}
    return next(iter(named)) if len(named) == 1 else ""


def _first_comment(content: str) -> str:
    """The one file name the comment on a fence's first line names (``// .prettierrc``,
    ``# ava.config.yaml``, ``/* jest.config.js */``), or ""."""
    first = next((line.strip() for line in content.split("\n") if line.strip()), "")
    comment = _LEADING_COMMENT.match(first)
    return _one_file(comment.group(1)) if comment else ""


def _opener(lines: list[str], closer: int, marker: str) -> int | None:
    """The line (0-based) opening the fence that ``lines[closer]`` closes: the nearest
    fence marker above it of the same character and at least its length."""
    for at in range(closer - 1, -1, -1):
        found = _FENCE_MARK.match(lines[at]) or _FENCE_OPEN.match(lines[at])
        if found and found.group(1)[0] == marker[0] and len(found.group(1)) >= len(marker):
            return at
    return None


def _section_file(lines: list[str], at: int) -> str:
    """The one file name the heading over line ``at`` (0-based) names, when no fence sits
    between that heading and the fence after ``at`` and no line between names another
    file (a paragraph on ``package.json`` may introduce that file's fence instead)."""
    between: set[str] = set()
    for here in range(at, -1, -1):
        text = lines[here]
        if _FENCE_OPEN.match(text) or _FENCE_MARK.match(text):
            return ""
        if _HEADING.match(text):
            named = _one_file(text)
            return named if named and between <= {named} else ""
        between |= {m.group(1).rsplit("/", 1)[-1] for m in FILE_NAME.finditer(text)}
    return ""


def read_config(
    content: str,
    first_line: int,
    language: str,
    shown: str,
    products: Set[str],
    opened: Set[str],
) -> ConfigSample | None:
    """The configuration of the product a fence shows, or None when it shows none the
    product's code is seen to read (``products``: the names its sections go by; ``opened``:
    the file names its code writes)."""
    if language == "toml":
        return _pyproject(content, first_line, products) if PYPROJECT in opened else None
    if language in _YAML_LANGS:
        if shown and shown in opened and named_after(shown, products):
            keys = yaml_keys(content, first_line)
            return ConfigSample(shown, f"the product's code opens `{shown}`", tuple(keys))
        return None
    if language not in _OBJECT_LANGS:
        return None
    stripped = content.lstrip()
    start = len(content) - len(stripped) if stripped.startswith("{") else -1
    if start < 0 and language not in ("json", "jsonc", "json5"):
        found = _JS_OBJECT.search(content)
        start = found.end() if found else -1
    if start < 0:
        return None
    keys = object_keys(content, start, first_line)
    if shown in ("", PACKAGE_JSON):
        for product in sorted(products):
            if any(k.path == () and k.name == product for k in keys):
                section = tuple(
                    ConfigKey(k.path[1:], k.name, k.line) for k in keys if k.path[:1] == (product,)
                )
                why = f"the section of {PACKAGE_JSON} named after the product, `{product}`"
                return ConfigSample(f"{PACKAGE_JSON}'s `{product}` key", why, section)
    if shown and shown != PACKAGE_JSON and shown in opened and named_after(shown, products):
        return ConfigSample(shown, f"the product's code opens `{shown}`", tuple(keys))
    return None


def yaml_keys(content: str, first_line: int) -> list[ConfigKey]:
    """The keys of a YAML mapping, nested ones by their path (a list item's keys under the
    list's key), read by indentation; a block scalar's (``key: |``) lines are its value."""
    keys: list[ConfigKey] = []
    stack: list[tuple[int, str]] = []  # the open mappings' keys, by indentation
    block: int | None = None  # the indentation of the key a block scalar belongs to
    for number, text in enumerate(content.split("\n"), first_line):
        stripped = text.strip()
        if not stripped or stripped.startswith("#") or stripped in ("---", "..."):
            continue
        indent = len(text) - len(text.lstrip(" "))
        if block is not None and indent > block:
            continue
        block = None
        found = _YAML_KEY.match(text)
        if found is None:
            continue
        at = indent + len(found.group(1))
        while stack and stack[-1][0] >= at:
            stack.pop()
        name = found.group(2).strip().strip("'\"")
        keys.append(ConfigKey(tuple(key for _, key in stack), name, number))
        if text[found.end() :].strip().startswith(("|", ">")):
            block = at
        stack.append((at, name))
    return keys


def shown_alone(reason: str) -> bool:
    """Whether an unjudged entry lists an object literal (or a key of one) as shown alone
    with no function or type found to take it (js_option_keys.bare's reasons)."""
    return reason.startswith("an object literal shown alone")


def named_after(file: str, products: Set[str]) -> bool:
    """Whether a file's name holds one of the product's names (``lerna.json``,
    ``.prettierrc``, ``ava.config.js``): a file the product opens but another tool owns
    (``tsconfig.json``) has that tool's keys."""
    name = file.lower()
    return any(len(p) >= 3 and p.lower() in name for p in products)


def _pyproject(content: str, first_line: int, products: Set[str]) -> ConfigSample | None:
    """The keys of a ``[tool.<product>]`` table and of the tables under it."""
    keys: list[ConfigKey] = []
    table: tuple[str, ...] | None = None
    found = ""
    for number, text in enumerate(content.split("\n"), first_line):
        header = _TABLE.match(text)
        if header:
            parts = tuple(p.strip().strip("\"'") for p in header.group(1).split("."))
            if len(parts) >= 2 and parts[0] == "tool" and parts[1] in products:
                found = found or parts[1]
                table = parts[2:] if parts[1] == found else None
            else:
                table = None
            continue
        key = _TOML_KEY.match(text)
        if key is None or table is None:
            continue
        dotted = [p.strip().strip("\"'") for p in key.group(1).split(".")]
        keys.append(ConfigKey((*table, *dotted[:-1]), dotted[-1], number))
    if not found:
        return None
    why = f"the product's code opens `{PYPROJECT}`"
    return ConfigSample(f"{PYPROJECT} [tool.{found}]", why, tuple(keys))


def object_keys(text: str, start: int, first_line: int) -> list[ConfigKey]:
    """The keys of the object literal (JSON, JSON5 or JavaScript) opening at
    ``text[start]``, nested ones by their path (an object in an array under the key it is
    written in); the keys of a function's body or a call's arguments are none of its."""
    keys: list[ConfigKey] = []
    # Each open bracket: its kind ("obj", "arr", "other") and the key path it is under.
    stack: list[tuple[str, tuple[str, ...]]] = []
    pending = ""  # the key just read in the innermost object, until its value ends
    expecting = False
    at = start
    size = len(text)
    while at < size:
        char = text[at]
        if char.isspace():
            at += 1
            continue
        if text.startswith("//", at) or (text.startswith("#", at) and not stack):
            at = _line_end(text, at)
            continue
        if text.startswith("/*", at):
            end = text.find("*/", at + 2)
            at = size if end < 0 else end + 2
            continue
        kind, path = stack[-1] if stack else ("", ())
        if char in "{[(":
            if char == "(" or kind == "other" or (kind == "obj" and not pending and stack):
                stack.append(("other", ()))
            else:
                inner = (*path, pending) if kind == "obj" else path
                stack.append(("obj" if char == "{" else "arr", inner))
            expecting, pending = char == "{" and stack[-1][0] == "obj", ""
            at += 1
            continue
        if char in "}])":
            if stack:
                stack.pop()
            if not stack:
                break
            expecting, pending = False, ""
            at += 1
            continue
        if char == ",":
            expecting = kind == "obj"
            pending = "" if kind == "obj" else pending
            at += 1
            continue
        token_end = _token_end(text, at)
        token = text[at:token_end]
        at = token_end
        if kind == "obj" and expecting:
            expecting = False
            after = _skip_blank(text, at)
            name = token[1:-1] if token[:1] in "'\"`" else token
            if after < size and text[after] == ":" and name:
                line = first_line + text.count("\n", 0, token_end - len(token))
                keys.append(ConfigKey(path, name, line))
                pending = name
                at = after + 1
    return keys


def _line_end(text: str, at: int) -> int:
    end = text.find("\n", at)
    return len(text) if end < 0 else end


def _skip_blank(text: str, at: int) -> int:
    while at < len(text) and text[at] in " \t\r\n":
        at += 1
    return at


def _token_end(text: str, at: int) -> int:
    """The end of the token at ``at``: a quoted string (escapes kept), a word, or one
    other character."""
    quote = text[at]
    if quote in "'\"`":
        at += 1
        while at < len(text) and text[at] != quote:
            at += 2 if text[at] == "\\" else 1
        return min(at + 1, len(text))
    end = at
    while end < len(text) and (text[end].isalnum() or text[end] in "_$-."):
        end += 1
    return max(end, at + 1)


def fence_shaped(lines: list[str], fence: Fence) -> bool:
    """Whether a fence of the page (``lines``) may show a configuration (:func:`shaped`)."""
    shown = partial(shown_file, lines, fence.start_line, fence.info, fence.content)
    return shaped(fence.content, fence.lang, shown)


def shaped(content: str, language: str, shown: Callable[[], str] = str) -> bool:
    """Whether a fence may show a configuration: a TOML ``[tool.*]`` table, an object
    (alone, or what a JavaScript file exports), or a YAML mapping shown as a file (``shown``:
    the file the fence is shown as, asked only of YAML)."""
    if language == "toml":
        return any(_TOOL_TABLE.match(line) for line in content.split("\n"))
    if language in _YAML_LANGS:
        lines = content.split("\n")
        return any(_YAML_KEY.match(line) and not line[:1].isspace() for line in lines) and bool(
            shown()
        )
    if language not in _OBJECT_LANGS:
        return False
    return content.lstrip().startswith("{") or bool(_JS_OBJECT.search(content))


def spellings(name: str) -> set[str]:
    """A key as written and in the other case styles a loader may map it to
    (``test-command``: ``test_command``, ``testCommand``)."""
    words = [w for w in re.split(r"[-_]+|(?<=[a-z0-9])(?=[A-Z])", name) if w]
    if not words:
        return {name}
    lower = [w.lower() for w in words]
    camel = lower[0] + "".join(w.capitalize() for w in lower[1:])
    return {name, "_".join(lower), "-".join(lower), camel}


def _words(name: str) -> list[str]:
    return [w.lower() for w in re.split(r"[-_]+|(?<=[a-z0-9])(?=[A-Z])", name) if w]


def _style(name: str) -> str:
    """A name's case style: ``snake``, ``camel``, ``upper``, ``pascal``, ``kebab``."""
    if "-" in name:
        return "kebab"
    if name.isupper():
        return "upper"
    if name[:1].isupper():
        return "pascal"
    return "snake" if "_" in name else "camel"


def close_names_pool(near: Iterable[str]) -> list[str]:
    return sorted({n for n in near if n and not n.startswith("_")})


def nearest(name: str, pool: list[str], limit: int = 3) -> list[str]:
    """The names of ``pool`` a missing key is nearest to: sharing its words, written in
    its case style (a key's rename keeps its style: ``console_colors``, not the
    ``LOGFIRE_CONSOLE_COLORS`` environment variable), then spelled alike."""
    own = set(_words(name))
    style = _style(name)
    scored = []
    for candidate in pool:
        if candidate == name:
            continue
        shared = len(own & set(_words(candidate)))
        ratio = difflib.SequenceMatcher(None, name.lower(), candidate.lower()).ratio()
        if shared or ratio >= 0.75:
            same = _style(candidate) == style or {style, _style(candidate)} <= {"snake", "camel"}
            apart = abs(len(_words(candidate)) - len(own))
            scored.append((-int(same), -shared, apart, -ratio, candidate))
    return [c for *_, c in sorted(scored)[:limit]]


def is_key_name(name: str) -> bool:
    """Whether a key is written as a name (not ``$schema``, ``/api/**``, ``*.md``)."""
    return bool(_KEY_NAME.fullmatch(name))


def known_key(name: str, identifiers: Set[str]) -> bool:
    """Whether the product's code names the key, in any of its spellings."""
    return any(spelled in identifiers for spelled in spellings(name))


def section_names(package: str, extra: Iterable[str]) -> set[str]:
    """The names a section of the product's configuration goes by: the package's name
    (and its unscoped part), its executables' and its Python packages' names."""
    names = {package, package.rsplit("/", 1)[-1], *extra}
    return {name for name in names if name and _KEY_NAME.fullmatch(name)}


def judge(
    report: SampleReport,
    sample: ConfigSample,
    lines: list[str],
    identifiers: Set[str],
    near: Iterable[str],
    where: str,
    done: Set[tuple[int, str]] = frozenset(),
) -> set[tuple[int, str]]:
    """Each key of ``sample`` judged into ``report`` (``lines``: the page's, for the text
    an entry shows; ``near``: the names a missing key may be a near miss of; ``where``:
    the product and ref, as a finding names them; ``done``: the (line, key) pairs another
    reading of the fence judged, against a declared type). Returns the (line, key) pairs judged,
    which no other reading of the fence lists again."""
    judged: set[tuple[int, str]] = set()
    pool = close_names_pool(near)
    for key in sample.keys:
        text = lines[key.line - 1] if 0 < key.line <= len(lines) else key.name
        dotted = ".".join((*key.path, key.name))
        if key.path:
            why = (f"a key inside `{'.'.join(key.path)}` of {sample.shown}: the model does "
                   "not tell which keys that object takes (the product's, or the reader's "
                   "own names)")  # fmt: skip
            report.skip(key.line, text, why, dotted)
            continue
        if (key.line, key.name) in done:
            continue
        if not is_key_name(key.name):
            report.skip(key.line, text, f"a key of {sample.shown} that is not a name", dotted)
            continue
        judged.add((key.line, key.name))
        report.count("config_key", key.line, key.name)
        if known_key(key.name, identifiers):
            continue
        close = nearest(key.name, pool)
        report.violation(
            key.line,
            "config_key",
            key.name,
            f"{sample.shown} ({sample.evidence})",
            f"{sample.shown} takes no key {key.name}: no code of {where} names it"
            f"{did_you_mean(close)}",
            close,
        )
    return judged
