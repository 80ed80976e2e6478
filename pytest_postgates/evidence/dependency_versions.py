"""Whether a dependency's installed version is the one a reader of the product has: a name
the installed version lacks says nothing of the versions the product's declared range
allows and the environment does not hold (a field removed in transformers 5 is there in
the 4.x releases ``transformers>=4.56`` allows).

What can be known soundly is the installed version and the declared ranges. A name absent
from the installed version is absent from every version the ranges allow only when they
allow that version alone (``==5.0.0``, npm's ``5.0.0``): then a miss is a miss. Otherwise
the use is unjudged, with the reason: the installed version is outside a declared range,
or a range allows versions not installed (no range at all allows any). Every declaration
holds at once (an install satisfies them all), so one without a range adds nothing."""

from __future__ import annotations

import re
from collections.abc import Sequence

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

# An npm range that allows one version alone: `1.2.3`, `=1.2.3`, `v1.2.3`.
_NPM_EXACT = re.compile(r"^\s*=?\s*v?(\d+\.\d+\.\d+(?:[-+][\w.+-]*)?)\s*$")


def version_doubt(name: str, ecosystem: str, installed: str, ranges: Sequence[str] | None) -> str:
    """Why the installed ``name`` may not be the version a reader has ("" when every
    declared range allows the installed version alone). ``ranges``: the declared ones as
    written (None: the product's manifests record none)."""
    shown = f"installed {name} {installed}".rstrip()
    # A declaration with no range (an extra's `transformers[kernels]`) narrows nothing:
    # an install satisfies every declaration at once.
    written = sorted({r.strip() for r in ranges or []} - {""})
    if not written:
        return f"{shown}: the product declares {name} with no version range (any version)"
    declared = " and ".join(written)
    if ecosystem == "python":
        return _python_doubt(name, shown, declared, installed, written)
    exact = {m.group(1) for m in map(_NPM_EXACT.match, written) if m}
    if len(exact) == 1 and len(written) == 1:
        if exact == {installed}:
            return ""
        return f"{shown} is outside the range the product declares ({declared})"
    return f"the product declares {name} {declared}, which allows versions not installed ({shown})"


def _python_doubt(name: str, shown: str, declared: str, installed: str, written: list[str]) -> str:
    try:
        sets = [SpecifierSet(r) for r in written]
        version = Version(installed)
    except (InvalidSpecifier, InvalidVersion):
        return f"{shown}: the range the product declares ({declared}) is not read"
    if not all(s.contains(version, prereleases=True) for s in sets):
        return f"{shown} is outside the range the product declares ({declared})"
    pinned = all(
        len(s) == 1 and next(iter(s)).operator in ("==", "===") and "*" not in str(s) for s in sets
    )
    if pinned:
        return ""
    return f"the product declares {name}{declared}, which allows versions not installed ({shown})"
