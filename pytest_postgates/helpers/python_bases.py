"""Gate 15's reading of a product class's base outside the product (``requests.Session``,
transformers' ``TrainingArguments``) in the model of the installed dependency the product's
code imports it from (:mod:`~pytest_postgates.evidence.dependency_models`): its members, or
why they cannot be read."""

from __future__ import annotations

import re

from pytest_postgates.evidence.api_model import ApiModel
from pytest_postgates.evidence.dependency_models import DependencyModels


def outside_base(
    model: ApiModel, dependencies: DependencyModels | None, written: str, class_name: str
) -> tuple[str, str, set[str], str | None] | str:
    """(the dependency's label, the base as written, its members, why they may be
        incomplete) for a base ``class_name`` extends outside the product, read in the
        installed dependency's model (incomplete too when the product's declared range allows
    versions not installed: :mod:`~pytest_postgates.evidence.dependency_versions`); or why it
    cannot be read."""
    outside = f"{class_name} extends {written}, outside the product's code"
    if dependencies is None:
        return outside
    dotted = re.sub(r"[\[(].*", "", written, flags=re.S).strip()
    parts = dotted.split(".")
    sites = model.facts.imports.get(parts[0], [])
    if sites:
        site = sites[0]
        module = ".".join([site.module, *([site.name] if site.name else []), *parts[1:-1]])
        base = parts[-1] if len(parts) > 1 or not site.name else site.name
    elif len(parts) > 1:
        # `import requests` binds the module's own name: the model records no alias.
        module, base = ".".join(parts[:-1]), parts[-1]
    else:
        return f"{outside} (no import of {parts[0]} in the product's code)"
    root = module.split(".")[0]
    dependency = dependencies.for_root(root)
    if dependency is None:
        return f"{outside} ({root} is no declared dependency)"
    if dependency.model is None:
        return f"{outside} ({dependency.reason})"
    if base not in dependency.model.classes:
        return f"{outside} ({dependency.label} declares no class {base})"
    found, problem = dependency.model.members(base)
    # An installed version outside the product's range says nothing of a reader's.
    return dependency.label, dotted, found, problem or dependency.outside_range() or None
