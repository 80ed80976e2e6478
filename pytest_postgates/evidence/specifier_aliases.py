"""The file of the product a bare module specifier names through an alias: the bundler's
(:mod:`.bundler_aliases`, what the code runs with) first, then TypeScript's ``paths`` and
``baseUrl`` (:mod:`.tsconfig_paths`). One answer for the call graph and the API model's
look-ups, so gates 2, 15 and 16 read an aliased import alike.

:meth:`SpecifierAliases.locate` answers a path, ``""`` when the specifier is another
party's (no alias matches it, a ``baseUrl`` holds no such file, or its alias maps it into
node_modules: ``"@docusaurus/*": ["./node_modules/@docusaurus/*"]``), or None when it is the
product's but which file is not known: an alias matches and its target is computed or holds
no such file, or it is written like an alias (``@/x``, ``~/x``, ``#x``) and none is
declared (no convention is guessed), or the bundler computes aliases whose keys the model
cannot read and the specifier names no package the repository depends on.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Callable
from typing import Any

from pytest_postgates.evidence.bundler_aliases import BundlerAliases, bundler_aliases
from pytest_postgates.evidence.tsconfig_paths import BASE_URL, Alias, alias_targets, aliases_for

_ALIAS_LIKE = ("@/", "~/", "#")
_DEPENDENCIES = ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies")
# Node's own modules: never an alias's
_NODE = frozenset(
    "assert buffer child_process crypto events fs http https net os path process stream"
    " url util zlib worker_threads readline timers querystring string_decoder tty dns".split()
)


class SpecifierAliases:
    """Aliases of one repository: ``read_text`` reads its files, ``source_at`` names the
    source file a path without its suffix is (``src/x`` -> ``src/x.ts``), else None."""

    def __init__(
        self,
        read_text: Callable[[str], str | None],
        source_at: Callable[[str], str | None],
        parser: Any = None,
    ) -> None:
        self.read_text = read_text
        self.source_at = source_at
        self.parser = parser
        self._bundlers: dict[str, BundlerAliases] = {}
        self._paths: dict[str, tuple[Alias, ...]] = {}
        self._packages: dict[str, frozenset[str]] = {}

    def locate(self, importer: str, spec: str) -> str | None:
        """See the module doc (``spec`` is no relative specifier)."""
        folder = posixpath.dirname(importer)
        bundler = self.bundler(folder)
        matched, targets = bundler.targets(spec)
        if matched:
            for target in targets:
                if any(target == p or target.startswith(p + "/") for p in bundler.packages):
                    return ""  # another package's
                found = self.source_at(target)
                if found is not None:
                    return found
            return None
        fallback = False
        for alias in self.paths(folder):
            pattern = alias[0]
            hits = list(alias_targets(spec, (alias,)))
            if not hits:
                continue
            for target in hits:
                found = self.source_at(target)
                if found is not None:
                    return found
            if pattern == BASE_URL:  # no such file under the baseUrl: a package
                fallback = True
                continue
            if all("node_modules" in target.split("/") for target in hits):
                return ""  # mapped into node_modules: another party's
            return None
        if spec.startswith(_ALIAS_LIKE):
            return None
        if bundler.open and not fallback and not self._dependency(folder, spec):
            return None
        return ""

    def bundler(self, folder: str) -> BundlerAliases:
        if folder not in self._bundlers:
            self._bundlers[folder] = bundler_aliases(folder, self.read_text, self.parser)
        return self._bundlers[folder]

    def paths(self, folder: str) -> tuple[Alias, ...]:
        if folder not in self._paths:
            self._paths[folder] = aliases_for(folder, self.read_text)
        return self._paths[folder]

    def _dependency(self, folder: str, spec: str) -> bool:
        parts = spec.split("/")
        name = "/".join(parts[:2]) if spec.startswith("@") else parts[0]
        if name.removeprefix("node:") in _NODE:
            return True
        return name in self._declared(folder)

    def _declared(self, folder: str) -> frozenset[str]:
        if folder not in self._packages:
            names: set[str] = set()
            current = folder
            while True:
                text = self.read_text(posixpath.join(current, "package.json"))
                try:
                    data = json.loads(text) if text else {}
                except ValueError:
                    data = {}
                for key in _DEPENDENCIES:
                    table = data.get(key) if isinstance(data, dict) else None
                    names.update(table if isinstance(table, dict) else ())
                if not current:
                    break
                current = posixpath.dirname(current)
            self._packages[folder] = frozenset(names)
        return self._packages[folder]
