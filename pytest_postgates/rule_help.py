"""Each gate's SARIF rule, taken from the gate catalogue and nowhere else.

Code scanning shows a rule's descriptions and help beside every alert. They come from the
gate's own declaration: ``shortDescription`` is the registry's one-sentence ``description``
(the docs' gate table shows the same sentence), ``fullDescription`` the opening of the
gate module's docstring and ``help`` the whole docstring, so there is no second copy to
keep in step. ``helpUri`` is the gate's page of this repository's docs site
(``docs/gates/NN-name.md``, under its ``<a id="gate-N">`` anchor).
"""

from __future__ import annotations

import inspect
import re
import sys
from typing import Any

from pytest_postgates.gates import Gate

# Where this project's source is published; helpUri points into it.
REPOSITORY_URL = "https://github.com/pytest-postgates/pytest-postgates"
# The folder of the repository whose gate pages document each gate (Gate.docs_page).
DOCUMENTATION_FOLDER = "docs"

_ROLE = re.compile(r":[a-z]+:`~?([^`]+)`")  # :func:`pytest_postgates.x` -> `pytest_postgates.x`
_DOUBLE_BACKTICKS = re.compile(r"``(.+?)``", re.DOTALL)
_SPACE = re.compile(r"\s+")


def help_uri(gate: Gate) -> str:
    """The gate's page of the docs on the repository's default branch."""
    page = f"{DOCUMENTATION_FOLDER}/{gate.docs_page}"
    return f"{REPOSITORY_URL}/blob/HEAD/{page}#{gate.help_anchor}"


def gate_documentation(gate: Gate) -> str:
    """The docstring of the module that declares ``gate``, in Markdown's inline code
    (reStructuredText roles and double backticks become single backticks); the one-sentence
    description where the docstring is missing (``python -OO`` strips docstrings)."""
    module = sys.modules.get(gate.check.__module__)
    text = inspect.getdoc(module) if module is not None else None
    if not text:
        return gate.description
    text = _ROLE.sub(r"`\1`", text)
    return _DOUBLE_BACKTICKS.sub(r"`\1`", text)


def _paragraphs(text: str) -> list[str]:
    return [part for part in re.split(r"\n\s*\n", text) if part.strip()]


def sarif_rule(gate: Gate) -> dict[str, Any]:
    """The SARIF ``reportingDescriptor`` of ``gate``."""
    documentation = gate_documentation(gate)
    uri = help_uri(gate)
    # The title line and the paragraph after it say what the gate checks and why.
    opening = " ".join(_SPACE.sub(" ", part).strip() for part in _paragraphs(documentation)[:2])
    link = f"Documentation: {uri}"
    return {
        "id": gate.name,
        "name": "".join(part.title() for part in gate.name.split("_")),
        "shortDescription": {"text": gate.description},
        "fullDescription": {"text": opening},
        "help": {
            "text": f"{documentation}\n\n{link}",
            "markdown": f"{documentation}\n\n[Gate {gate.id}, `{gate.name}`, in the docs]({uri})",
        },
        "helpUri": uri,
        "defaultConfiguration": {"level": "warning" if gate.advisory else "error"},
        "properties": {"gate": gate.id},
    }
