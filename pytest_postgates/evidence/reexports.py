"""Names the product re-exports from a dependency (issue 24).

A package may publish another package's names as its own: ``export * from "expect"``,
``export { fn } from "jest-mock"``, ``export type { Options } from "dep"``, or in Python a
``from dep import Widget`` in a package's ``__init__`` that ``__all__`` lists. Such a name
is the product's to import, but its members, and the names a star re-export brings, are the
dependency's API: the product's model cannot list them, so they are judged against the
dependency's model (helpers/dependency_rules.py) or left unjudged with the dependency
named, never a miss of the product's.

Read from the model's plain facts: ``facts.stars`` (module -> what it star-imports or
star-exports: a Python module path; a JavaScript specifier, the product's files keyed by
their path and its packages by their name) and the import record (``import_sites``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from pytest_postgates.evidence.model_facts import ImportSite, ModelFacts

# The base the model gives an interface a file declares inside `declare module "dep" { }`
# (declaration merging into another package's type): TypeScript's name of dep's type.
AUGMENTED = re.compile(r'import\("([^"]+)"\)\.([A-Za-z_$][\w$]*)')


def package_of(specifier: str, python: bool) -> str:
    """The package a Python module path (``a.b`` -> ``a``) or an npm specifier
    (``@scope/name/sub`` -> ``@scope/name``) names."""
    return specifier.split(".")[0] if python else package_root(specifier)


def package_root(specifier: str) -> str:
    """The package an npm specifier names (``@scope/name/sub`` -> ``@scope/name``); a
    Python module path is its own."""
    return "/".join(specifier.split("/")[: 2 if specifier.startswith("@") else 1])


def outside(specifier: str, modules: Mapping[str, object]) -> bool:
    """Whether a star-imported ``specifier`` is another party's (not a module or file of
    the product, not relative)."""
    if not specifier or specifier.startswith((".", "/", "#")) or specifier in modules:
        return False
    return specifier.split(".")[0] not in modules and package_root(specifier) not in modules


def foreign_stars(facts: ModelFacts, modules: Mapping[str, object], module: str) -> list[str]:
    """The other parties' modules whose every name ``module`` re-exports (``export * from
    "dep"``; Python's ``from dep import *`` in a module without ``__all__``)."""
    return [spec for spec in facts.stars.get(module, []) if outside(spec, modules)]


def reexport_site(facts: ModelFacts, module: str, name: str) -> ImportSite | None:
    """The import by which ``module`` takes its public ``name`` from another party (a
    Python ``from dep import name`` binding a top-level name of ``module``; a JavaScript
    file that exports ``name`` it imports or re-exports from a package), or None."""
    for site in facts.import_sites:
        if not site.external or site.local != name:
            continue
        python = site.path.endswith((".py", ".pyi"))
        if python and site.binds == module:
            return site
        if not python and name in facts.modules.get(site.path, ()):
            return site
    return None


def dependency_reason(label: str, why: str) -> str:
    """An unjudged reason naming the dependency whose API a name is."""
    return f"a dependency's API ({label}): {why}"


def star_reason(facts: ModelFacts, modules: Mapping[str, object], module: str) -> str:
    """Why a name ``module`` may hold by a star import is unjudged: the other party whose
    names it re-exports, else the star the model does not follow."""
    foreign = foreign_stars(facts, modules, module)
    if not foreign:
        return f"{module} star-imports names the model does not follow"
    return f"a dependency's API ({', '.join(foreign)}): {module} re-exports every name of it"


def site_reason(module: str, name: str, site: ImportSite) -> str:
    """Why a member of a name ``module`` re-exports from another party is unjudged."""
    root = package_of(site.module, site.path.endswith((".py", ".pyi")))
    return f"a dependency's API ({root}): {module}.{name} is {root}'s, re-exported at {site.path}"
