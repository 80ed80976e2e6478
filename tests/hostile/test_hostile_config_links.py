"""A markdownlint configuration is never read through a link out of the repository: a
committed ``_posts/.markdownlint.yaml`` linked to a file elsewhere (or an ``extends`` that
names one) is refused on gate 12's card, and nothing of the target (not even the line a
YAML error would quote) reaches the output, the card or any file the run writes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.hostile.test_hostile_symlinks import everything_written

if TYPE_CHECKING:
    from tests.conftest import Blog

SECRET = "hunter2-CONFIG-SECRET"
# Not YAML: the parser's error message quotes the offending line.
SECRET_CONFIG = f"default: true\npassword: [{SECRET}\n  broken: ]]\n"


@pytest.fixture
def outside(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("outside-the-repo")
    (folder / "secret.yaml").write_text(SECRET_CONFIG, encoding="utf-8")
    return folder


def gate_12(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.RunResult:
    monkeypatch.setenv("XDG_CACHE_HOME", str(pytester.path / "xdg-cache"))
    return pytester.runpytest("_posts", "--postgates-only=12", "--postgates-offline", "-rA")


@pytest.mark.parametrize("how", ["link", "extends"])
def test_a_configuration_outside_the_repository_is_refused(
    pytester: pytest.Pytester,
    blog: Blog,
    outside: Path,
    monkeypatch: pytest.MonkeyPatch,
    how: str,
) -> None:
    blog.post()
    if how == "link":
        (blog.path / "_posts" / ".markdownlint.yaml").symlink_to(outside / "secret.yaml")
    else:
        extends = json.dumps({"extends": str(outside / "secret.yaml")})
        blog.raw("_posts/.markdownlint.json", extends.encode())
    blog.git_init()
    result = gate_12(pytester, monkeypatch)
    output = result.stdout.str() + result.stderr.str()
    assert "INTERNALERROR" not in output
    assert SECRET not in output
    assert SECRET not in everything_written(blog.path)
    (card,) = [c for name, c in blog.scorecards().items() if "gate12" in name]
    assert card["verdict"] in ("ERROR", "FAIL")
    assert "outside the repository" in json.dumps(card)


def test_a_link_inside_the_repository_is_followed(
    pytester: pytest.Pytester, blog: Blog, monkeypatch: pytest.MonkeyPatch
) -> None:
    blog.post(body=blog.GOOD + "\n\n\nTwo blank lines above.\n")
    blog.raw("lint/markdownlint.yaml", b"default: true\nMD012: false\nMD041: false\n")
    (blog.path / "_posts" / ".markdownlint.yaml").symlink_to("../lint/markdownlint.yaml")
    blog.git_init()
    result = gate_12(pytester, monkeypatch)
    result.assert_outcomes(passed=1)  # MD012 (multiple blank lines) is off in the linked file
