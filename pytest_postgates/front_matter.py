"""Front matter: where a post's block is and what it holds, loaded safely.

The formats Jekyll and Hugo use (YAML between ``---`` lines, TOML between ``+++`` lines,
JSON from a ``{`` line to a ``}`` line), each loaded with a bounded size and depth, YAML
through the safe loader with an alias budget (post content is untrusted). Split out of
:mod:`pytest_postgates.post`, which finds the block and reports problems per post.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from typing import Any

import yaml

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

FRONT_MATTER_OPEN = re.compile(r"---[ \t]*")
FRONT_MATTER_CLOSE = re.compile(r"(?:---|\.\.\.)[ \t]*")
# (format, opening line, closing line, the closing marker named in a problem)
_FRONT_MATTER_SHAPES: tuple[tuple[str, re.Pattern[str], re.Pattern[str], str], ...] = (
    ("yaml", FRONT_MATTER_OPEN, FRONT_MATTER_CLOSE, "---"),
    ("toml", re.compile(r"\+\+\+[ \t]*"), re.compile(r"\+\+\+[ \t]*"), "+++"),
    ("json", re.compile(r"\{[ \t]*"), re.compile(r"\}[ \t]*"), "}"),
)
# Loaded front matter of any format may hold at most this many values, this deep: real
# front matter has tens of values a few levels deep.
MAX_FRONT_MATTER_NODES = 10_000
MAX_FRONT_MATTER_DEPTH = 64


@dataclass(frozen=True)
class FrontMatterBlock:
    """Where a file's front matter is: its format, its text and the first body line (file
    lines, 1-based). The same shapes markdownlint skips (``tools/lint/document.py``
    mirrors its regex), so every gate's file lines agree: YAML between ``---`` lines
    (closed by ``---`` or ``...``), TOML between ``+++`` lines (Hugo), JSON from a ``{``
    line to a ``}`` line."""

    format: str
    text: str
    body_start_line: int


class FrontMatterError(ValueError):
    """Front matter that does not load: ``code`` and ``line`` for the InputProblem."""

    def __init__(self, code: str, message: str, line: int) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.line = line


def load_front_matter(block: FrontMatterBlock) -> dict[str, Any]:
    """The mapping a front matter block holds, loaded safely (YAML safe loader with the
    alias budget, ``tomllib``, ``json``), within :data:`MAX_FRONT_MATTER_NODES` nodes and
    :data:`MAX_FRONT_MATTER_DEPTH` levels whatever the format. Raises
    :class:`FrontMatterError`."""
    name = {"yaml": "YAML", "toml": "TOML", "json": "JSON"}[block.format]
    code = f"FRONT_MATTER_{name}"
    try:
        if block.format == "toml":
            data: Any = tomllib.loads(block.text)
        elif block.format == "json":
            data = json.loads(block.text)
        else:
            data = load_yaml(block.text)
    except YAMLAliasBudgetError as exc:
        message = f"front matter refused: {exc.problem}"
        raise FrontMatterError("FRONT_MATTER_ALIASES", message, 1) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 2 if mark is not None else 1
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise FrontMatterError(code, f"front matter is not valid YAML: {problem}", line) from None
    except tomllib.TOMLDecodeError as exc:
        # tomllib says "(at line N, column M)" of the TOML text, which starts on file line 2.
        found = re.search(r"\(at line (\d+), column \d+\)", str(exc))
        if found:
            line = int(found.group(1)) + 1
        else:  # "(at end of document)": the last front matter line
            line = block.body_start_line - 2 if "end of document" in str(exc) else 1
        raise FrontMatterError(code, f"front matter is not valid TOML: {exc}", line) from None
    except json.JSONDecodeError as exc:
        raise FrontMatterError(
            code, f"front matter is not valid JSON: {exc.msg}", exc.lineno
        ) from None
    except (RecursionError, ValueError) as exc:  # absurd nesting, bad timestamps
        raise FrontMatterError(code, f"front matter is not valid {name}: {exc}", 1) from None
    if data is None and block.format == "yaml":
        data = {}
    if not isinstance(data, dict):
        raise FrontMatterError(
            "FRONT_MATTER_TYPE",
            f"front matter must be a {name} mapping, not {type(data).__name__}",
            2 if block.format != "json" else 1,
        )
    problem = _shape_problem(data)
    if problem:
        raise FrontMatterError("FRONT_MATTER_SIZE", f"front matter refused: {problem}", 1)
    return data


def _shape_problem(data: dict[str, Any]) -> str | None:
    """Why loaded front matter is too big or too deep to hand to the gates, if it is."""
    nodes = 0
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        nodes += 1
        if nodes > MAX_FRONT_MATTER_NODES:
            return f"it holds over {MAX_FRONT_MATTER_NODES:,} values"
        if depth > MAX_FRONT_MATTER_DEPTH:
            return f"it nests deeper than {MAX_FRONT_MATTER_DEPTH} levels"
        if isinstance(value, dict):
            stack.extend((item, depth + 1) for item in value.values())
        elif isinstance(value, list):
            stack.extend((item, depth + 1) for item in value)
    return None


# libyaml's safe loader where PyYAML was built with it (the wheels are): the same safe
# constructors, about ten times faster than the pure-Python scanner on front matter.
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


# Aliases may expand a document to at most this many nodes: real front matter has tens; a
# 400-byte "billion laughs" block of nested anchors expands to hundreds of millions.
MAX_YAML_NODES = 10_000


class YAMLAliasBudgetError(yaml.YAMLError):
    """Aliases would expand the document beyond :data:`MAX_YAML_NODES` nodes."""

    def __init__(self, nodes: int) -> None:
        self.problem = (
            f"YAML aliases expand it to over {MAX_YAML_NODES:,} nodes (at least {nodes:,}); "
            "refused without expanding (an alias bomb?)"
        )
        self.problem_mark = None
        super().__init__(self.problem)


def _check_alias_budget(text: str) -> None:
    """Count the nodes the document expands to while its events stream by (each alias
    counts as the whole node it names), and stop at the budget: nothing is composed."""
    sizes: dict[str, int] = {}
    open_nodes: list[list[Any]] = []  # [anchor, nodes so far] per open collection
    for event in yaml.parse(text, Loader=_SAFE_LOADER):
        if isinstance(event, yaml.AliasEvent):
            nodes = sizes.get(event.anchor or "", 1)
        elif isinstance(event, yaml.ScalarEvent):
            nodes = 1
            if event.anchor:
                sizes[event.anchor] = 1
        elif isinstance(event, yaml.CollectionStartEvent):
            open_nodes.append([event.anchor, 1])
            continue
        elif isinstance(event, yaml.CollectionEndEvent):
            anchor, nodes = open_nodes.pop()
            if anchor:
                sizes[anchor] = nodes
        else:
            continue
        if nodes > MAX_YAML_NODES:
            raise YAMLAliasBudgetError(nodes)
        if open_nodes:
            open_nodes[-1][1] += nodes
            if open_nodes[-1][1] > MAX_YAML_NODES:
                raise YAMLAliasBudgetError(open_nodes[-1][1])


def load_yaml(text: str, loader: type[Any] | None = None) -> Any:
    """``yaml.safe_load`` through the fastest safe loader available (or ``loader``, a
    SafeLoader subclass), refusing documents whose aliases expand beyond
    :data:`MAX_YAML_NODES` nodes."""
    if "*" in text:  # no alias, no expansion: the common case costs one scan
        _check_alias_budget(text)
    return yaml.load(text, Loader=loader or _SAFE_LOADER)
