"""The digests of the code that decides gates 2 and 15's results (gates/symbol_grounding.py
and gates/code_samples.py key their cached results by them)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

# The package's own folder: its top-level modules, the models (evidence/) and the rules and
# readers (helpers/) are what a gate's verdicts are made of.
PACKAGE = Path(__file__).resolve().parent.parent
CODE_FOLDERS = (".", "evidence", "helpers")


def code_files(package: Path = PACKAGE) -> list[Path]:
    """Every module of the package's top level, ``evidence/`` and ``helpers/``, in a fixed
    order. All of them, not the ones a gate is known to import: the lists kept by hand went
    stale as readers were added (a cached result then outlived a change of them)."""
    return sorted(
        (path for folder in CODE_FOLDERS for path in (package / folder).glob("*.py")),
        key=lambda path: path.relative_to(package).as_posix(),
    )


def _digest(gate_files: tuple[str, ...], package: Path) -> Any:
    # Read when the gate is imported, so that it is the source of the code that runs: a
    # file edited while a run is under way must never file the old code's verdicts under
    # the new code's key.
    digest = hashlib.sha256()
    for path in (*map(Path, gate_files), *code_files(package)):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest


def rules_digest(*gate_files: str, package: Path = PACKAGE) -> str:
    """Gate 2's key: its modules (``gate_files``) and :func:`code_files`."""
    return str(_digest(gate_files, package).hexdigest()[:16])


def sample_rules_digest(*gate_files: str, package: Path = PACKAGE) -> str:
    """Gate 15's key: its modules, :func:`code_files`, and the extractor the API tables
    are built by."""
    from pytest_postgates.evidence import code_tables

    digest = _digest(gate_files, package)
    digest.update(code_tables.extractor_source())
    return str(digest.hexdigest()[:12])
