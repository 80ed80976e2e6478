"""A Python package's names that its code gives at run time, read as the interpreter would
find them: a module ``__getattr__`` (PEP 562) that answers for names it tests (click's
deprecated ``get_text_stream``: ``if name == "get_text_stream": return ...``), and an
``__all__`` grown by another module's (griffe's ``from griffecli import *`` then
``__all__ += __cli_all__``). Both found on tune projects' docs at HEAD."""

from __future__ import annotations

from pytest_postgates.evidence.api_model import build_model

LAZY = '''"""A package with deprecated names served lazily."""
from .core import Command

__all__ = ["Command"]

_OLD = {"OldParser", "old_helper"}


def __getattr__(name: str) -> object:
    if name == "get_text_stream":
        from .core import _get_text_stream

        return _get_text_stream
    if name in ("get_binary_stream", "BaseCommand"):
        return Command
    if name in _OLD:
        return None
    raise AttributeError(name)
'''


def test_names_a_module_getattr_answers_for_are_its_names() -> None:
    model = build_model(
        "c",
        {
            "clack/__init__.py": LAZY,
            "clack/core.py": "class Command: ...\n\ndef _get_text_stream(): ...\n",
        },
    )
    for name in ("get_text_stream", "get_binary_stream", "BaseCommand", "OldParser", "old_helper"):
        assert model.resolve(["clack", name]).outcome == "found", name
    # The names it does not test are still misses: the function raises for them.
    assert model.resolve(["clack", "get_text_streams"]).outcome == "missing"
    # A function's parameter is no module name.
    assert model.resolve(["clack", "name"]).outcome == "missing"


def test_an_all_grown_by_a_star_imported_module_holds_its_names() -> None:
    init = (
        '__all__ = ["load"]\n\n\ndef load(): ...\n\n\n'
        "try:\n    from clitool import *\n    from clitool import __all__ as __cli_all__\n"
        "except ImportError:\n    pass\nelse:\n    __all__ += __cli_all__\n"
    )
    model = build_model(
        "c",
        {
            "libtool/__init__.py": init,
            "clitool/__init__.py": '__all__ = ["main"]\n\n\ndef main(): ...\n',
        },
    )
    assert model.resolve(["libtool", "main"]).outcome == "found"
    assert model.resolve(["libtool", "load"]).outcome == "found"
    assert model.resolve(["libtool", "mian"]).outcome == "missing"
