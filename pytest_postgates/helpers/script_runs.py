"""A shell line that runs one of the repository's own Python scripts (gate 15).

``python examples/train.py --lr 3e-4``, ``torchrun --nproc_per_node 8 train.py --rank 8``
and ``accelerate launch train.py --seed 0`` hand every word after the script's path to
that script: its flags are the ones the script's own parser declares (argparse, click or
typer, read as the product's CLI is: :meth:`ApiLookup.cli`). Docs of examples, training
recipes and benchmarks document such scripts flag by flag, and nothing else checks them.

The script is the repository's when its path, taken from the page's folder or from the
repository's top, is a tracked ``.py`` file; a script the repository does not hold is the
reader's own, and its line says nothing about the product. A flag's line is the physical
line it is written on (a command continued with backslashes spans several).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

# Programs that run the Python script named among their arguments and hand it the words
# after it (their own options come before it): the interpreter, and the launchers of
# distributed runs.
LAUNCHERS: tuple[tuple[str, ...], ...] = (
    ("torchrun",),
    ("accelerate", "launch"),
    ("deepspeed",),
)
_PYTHON = re.compile(r"python(?:3(?:\.\d+)?)?")
# Interpreter options that take a value (`python -X dev script.py`); `-m` runs a module,
# not a script.
_VALUED = frozenset({"-X", "-W", "-Q"})


@dataclass(frozen=True)
class ScriptRun:
    """A command line running a tracked script: its path in the repository, the name the
    page runs it by, and the words it hands the script."""

    path: str
    shown: str
    args: list[str]


def script_run(
    words: Sequence[str], page_folder: str, tracked: Callable[[str], bool]
) -> ScriptRun | None:
    """The repository's script ``words`` run, or None (another program, a module run with
    ``-m``, or a script the repository does not hold)."""
    rest = _after_program(list(words))
    if rest is None:
        return None
    script = rest[0] if rest else ""
    if not script.endswith(".py"):
        return None
    for candidate in (posixpath.join(page_folder, script), script):
        path = posixpath.normpath(candidate.removeprefix("./"))
        if not path.startswith("../") and tracked(path):
            return ScriptRun(path, script, rest[1:])
    return None


def _after_program(words: list[str]) -> list[str] | None:
    """The words from the script's path on, when the program runs a script it is given
    (None: another program)."""
    if not words:
        return None
    if _PYTHON.fullmatch(words[0]):
        rest = words[1:]
        while rest and rest[0].startswith("-"):
            if rest[0] in ("-m", "-c"):
                return None
            rest = rest[2:] if rest[0] in _VALUED else rest[1:]
        return rest
    for launcher in LAUNCHERS:
        if tuple(words[: len(launcher)]) == launcher:
            # The launcher's own options come first; the script is the first `.py` word.
            rest = words[len(launcher) :]
            at = next((i for i, word in enumerate(rest) if word.endswith(".py")), None)
            return rest[at:] if at is not None else None
    return None


def flag_line(first: int, lines: Sequence[str], word: str) -> int:
    """The line a command's word is written on: ``first`` is its first line, ``lines``
    the physical lines from there (a command continued with backslashes)."""
    name = word.split("=", 1)[0]
    written = re.compile(rf"(?<![^\s\"'`]){re.escape(name)}(?![^\s=\\\"'`])")
    for offset, text in enumerate(lines):
        if written.search(text):
            return first + offset
    return first
