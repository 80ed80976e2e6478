"""A cached API model checked against the code it claims to describe.

Without ``POSTGATES_CACHE_KEY`` a cached model is unsigned, and a writer of a restored cache
folder could add a member to a class so that an invented ``Engine.explode()`` grounds. The
model's names are all read from the product's files, whose text the index verifies against
git's blob ids: so every name must occur in the file the model says declares it (a
module's public names and the identifiers somewhere in the product's code). A model that
says otherwise is not loaded (it is rebuilt). The check reads words only, no parse: about a
tenth of a build.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from pytest_postgates.evidence.model_facts import ModelFacts
from pytest_postgates.evidence.model_python import DATACLASS_MEMBERS

_WORD = re.compile(r"[A-Za-z_$][\w$]*")


class _Words:
    """The words of each file, read when first asked."""

    def __init__(self, sources: Mapping[str, str]) -> None:
        self.sources = sources
        self._by_path: dict[str, frozenset[str]] = {}
        self._all: frozenset[str] | None = None

    def of(self, path: str) -> frozenset[str]:
        words = self._by_path.get(path)
        if words is None:
            words = self._by_path[path] = frozenset(_WORD.findall(self.sources.get(path, "")))
        return words

    def anywhere(self) -> frozenset[str]:
        if self._all is None:
            self._all = frozenset().union(*(self.of(path) for path in self.sources))
        return self._all

    def written(self, name: str, path: str) -> bool:
        """Whether ``name`` occurs in ``path``: as a word, or (a key such as ``max-age``, a
        flag's option) as text; names the extractor makes (a dataclass's ``__init__``, an
        empty key, typer's command from a function name) as it makes them."""
        if not name or name in DATACLASS_MEMBERS or name in self.of(path):
            return True
        text = self.sources.get(path, "")
        return name in text or name.replace("-", "_") in text


def unconfirmed(facts: ModelFacts, sources: Mapping[str, str], others: Mapping[str, str]) -> str:
    """The first name the model holds that its code does not write where the model says
    ("" when every one does). ``sources`` are the product's files, ``others`` the
    repository's other source files (tests, scripts, examples)."""
    words = _Words(sources)
    for decl in facts.decls:
        name = decl.name
        if decl.kind == "flag":
            name = name.lstrip("-")
        elif decl.kind == "pattern":
            name = name.rstrip("*")
        elif decl.kind == "module":
            continue  # a module is named by its path, which the index verifies
        if not words.written(name, decl.path):
            return f"{decl.kind} {decl.name} in {decl.path}"
    for entry in facts.classes:
        for name in (entry.name, *entry.members):
            if not words.written(name, entry.path):
                return f"class {entry.name} member {name} in {entry.path}"
    for function in facts.callables:
        for name in (function.name, *(p.lstrip("*") for p in function.params)):
            if name and not words.written(name, function.path):
                return f"callable {function.qualname} parameter {name} in {function.path}"
    known = {f.qualname for f in facts.functions} | {c.qualname for c in facts.classes}
    for caller in facts.functions:
        if not words.written(caller.name, caller.path):
            return f"function {caller.qualname} in {caller.path}"
        # Its declared return type and modifiers are words of its file too.
        for word in (*_WORD.findall(caller.returns), *caller.modifiers):
            if not words.written(word, caller.path):
                return f"declaration {word} of {caller.qualname} in {caller.path}"
        for call in caller.calls:
            # A call's name is written in the caller's file, and what it resolved to is
            # a function of the model (a constructor's class may be one the model does not
            # list: declared inside a function).
            if not words.written(call.name, caller.path):
                return f"call {call.name} of {caller.qualname} in {caller.path}"
            if call.kind == "resolved" and call.target not in known:
                return f"call target {call.target} of {caller.qualname}"
    for sites in facts.imports.values():
        for site in sites:
            # An import grounds the names taken from another package: its names and module
            # are written in the file that imports them.
            for name in (site.local, site.name, site.module):
                if name not in ("", "*", "default") and not words.written(name, site.path):
                    return f"import {site.local} from {site.module} in {site.path}"
    if facts.constant_owners - set(facts.imports):
        return "a constant's owner that the product does not import"
    for flag, path in facts.flags.items():
        text = sources.get(path, "").lower()
        if any(part not in text for part in flag.split("-") if part):
            return f"flag {flag} in {path}"
    for command, path in facts.commands.items():
        if not words.written(command, path):
            return f"command {command} in {path}"
    every = words.anywhere()
    public = (n for names in facts.modules.values() for n in names)
    missing = _first_missing(public, every, sources)
    if missing:
        return f"public name {missing}"
    missing = _first_missing(facts.identifiers, every, sources)
    if missing:
        return f"identifier {missing}"
    missing = _first_missing(facts.surface, every, sources)
    if missing:
        return f"member, key or value {missing}"
    missing = _first_missing(facts.elsewhere, _Words(others).anywhere(), others)
    return f"name {missing} of the tests or scripts" if missing else ""


def _first_missing(names: Iterable[str], known: frozenset[str], texts: Mapping[str, str]) -> str:
    for name in names:
        if name == "*" or name in known:
            continue
        # A name that is no word (an export named by a string, `"babel-flow"`) as text.
        if _WORD.fullmatch(name) or not any(name in text for text in texts.values()):
            return name
    return ""
