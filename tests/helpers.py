"""Small builders shared by the unit tests (no pytest plugin machinery involved)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pytest_postgates.gates import GateContext, default_settings
from pytest_postgates.post import Post, parse_post

FRONT_MATTER = "---\nlayout: post\ntitle: Test post\ndate: 2026-06-03\n---\n"
# Gate 11's house style adopted, as the blog the seeds calibrated it on adopts it: for inner
# runs whose tests count on NO_ENTITY and BANNED_PHRASE failing (the unadopted default lists
# them as advice: tests/test_gate_narrative_opening.py).
GATE11_ADOPTED = (
    "-o postgates_opening_entity_required=true -o postgates_enforce_banned_phrases=true"
)
GATE11_ADOPTED_SETTINGS: dict[str, object] = {
    "opening_entity_required": True,
    "enforce_banned_phrases": True,
}


def make_post(
    body: str, tmp_path: Path, name: str = "2026-06-03-test.md", front: str = FRONT_MATTER
) -> Post:
    path = tmp_path / name
    path.write_text(front + body, encoding="utf-8")
    return parse_post(path)


def context(**settings: object) -> GateContext:
    return GateContext.create(default_settings(**settings))


def git(repo: Path, *args: str) -> str:
    import subprocess

    result = subprocess.run(
        [
            "git",
            "-C",
            str(repo),
            "-c",
            "user.name=postgates",
            "-c",
            "user.email=p@example.com",
            *args,
        ],
        check=True,
        capture_output=True,
    )
    return result.stdout.decode("utf-8", "replace")


def make_repo(
    root: Path, files: Mapping[str, str | bytes], message: str = "initial commit"
) -> Path:
    """A fresh git repository holding ``files``, all committed."""
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q", "-b", "main")
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)
    return root


def repo_context(repo: Path, cache: Path, **settings: object) -> GateContext:
    return GateContext.create(default_settings(repo=repo, **settings), cache)


# A blog post's front matter, and a sentence whose one code token (``render``) the source
# of blog_repo defines.
BLOG_FRONT = "---\nlayout: post\ntitle: T\ndate: 2026-01-01\n---\n"
GROUNDED = "We run pytest on Python posts; `render` is real.\n"


def blog_repo(root: Path, posts: Mapping[str, str | bytes]) -> Path:
    """A blog in one git repository: ``src/app.py`` (defining ``render``) and ``posts``
    (file name -> text) under ``_posts/``, all committed."""
    files: dict[str, str | bytes] = {"src/app.py": "def render():\n    pass\n"}
    files.update({f"_posts/{name}": text for name, text in posts.items()})
    return make_repo(root, files, "blog")


BENCH = Path(__file__).resolve().parent.parent / "bench"


def load_bench(name: str, file_name: str) -> Any:
    """A bench/ script imported as a module (registered under ``name``, as its own
    imports of sibling scripts expect)."""
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location(name, BENCH / file_name)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def token_outcome(card: Any, token: str) -> dict[str, Any]:
    """Gate 2's one entry for ``token`` on a scorecard, with the outcome it ended in
    (``outcome``): from ``detail.outcomes`` or, ungrounded, ``detail.ungrounded``."""
    found = [
        {**entry, "outcome": outcome}
        for outcome, entries in card.detail["outcomes"].items()
        for entry in entries
        if entry["token"] == token
    ]
    found += [
        {**u, "outcome": "ungrounded"} for u in card.detail["ungrounded"] if u["token"] == token
    ]
    assert len(found) == 1, (token, card.detail)
    return found[0]


def gate2_outcome(body: str, token: str, tmp_path: Path, ctx: GateContext) -> dict[str, Any]:
    """Gate 2's entry for ``token`` on a post of ``body`` (:func:`token_outcome`)."""
    from pytest_postgates.gates import symbol_grounding

    return token_outcome(symbol_grounding.GATE.evaluate(make_post(body, tmp_path), ctx), token)


def sample_card(code: str, lang: str, tmp_path: Path, repo: Path) -> Any:
    """Gate 15's scorecard of a post whose one sample is ``code`` in a ``lang`` fence,
    against the repository at ``repo``."""
    from pytest_postgates.gates import code_samples

    body = f"Intro.\n\n```{lang}\n{code}\n```\n"
    return code_samples.GATE.evaluate(
        make_post(body, tmp_path), repo_context(repo, tmp_path / "cache")
    )


def sample_violations(card: Any) -> list[tuple[str, str]]:
    """Gate 15's findings as sorted (kind, name) pairs."""
    return sorted((v["kind"], v["name"]) for v in card.detail["violations"])


def unjudged_reasons(card: Any) -> list[str]:
    """Why gate 15 judged none of each unjudged use."""
    return [str(item.get("reason", "")) for item in card.detail["unjudged"]]
