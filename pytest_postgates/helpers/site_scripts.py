"""Gate 15's reading of a docs site's own scripts: a page inside the repository (a docs
folder's Markdown) may show samples the site runs with scripts of that folder (Chart.js's
chart editor loads ``docs/scripts/analyzer.js``, whose plugin is registered under
``id: 'samples-filler-analyser'``). A name such a script writes as a string is the site's
own, not the product's: an option key the product does not take, named so, is listed
``unjudged`` with the script rather than judged missing. Only the page's top docs folder is
searched (never a folder of the product's packages), and a page outside the repository (a
blog post) has none."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from pytest_postgates.evidence.repo import GitError, git

# The script files a docs site runs.
_SCRIPTS = ("js", "mjs", "cjs", "jsx", "ts", "tsx")


def site_strings(
    root: Path, commit: str, page_folder: str, package_folders: Iterable[str]
) -> Callable[[str], str]:
    """A function from a name to the first script of the page's top folder that writes it
    as a quoted string ("" when none does, or the page has no such folder)."""
    top = page_folder.split("/", 1)[0]
    if not top or any(folder and folder.split("/", 1)[0] == top for folder in package_folders):
        return lambda name: ""
    specs = [f":(glob){top}/**/*.{ext}" for ext in _SCRIPTS]
    found: dict[str, str] = {}

    def writer(name: str) -> str:
        if name not in found:
            found[name] = _first_writer(root, commit, specs, name)
        return found[name]

    return writer


def _first_writer(root: Path, commit: str, specs: list[str], name: str) -> str:
    args = ["grep", "-l", "-F", "-e", f"'{name}'", "-e", f'"{name}"', commit, "--", *specs]
    try:
        result = git(root, *args, check=False)
    except GitError:
        return ""
    lines = result.stdout.decode("utf-8", "replace").splitlines()
    return sorted(line.split(":", 1)[1] for line in lines if ":" in line)[0] if lines else ""
