"""Everything read back from a cache folder is validated, and signed under
``POSTGATES_CACHE_KEY`` when it is set: a planted repository index, mermaid entry or
link-cache entry in a restored cache folder never turns a failing gate 2, 1 or 6 into a
PASS. A link entry from the future is expired, and a relative link written with an entity
(``guide&#46;md``) is part of gate 6's cache key like any other."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pytest_postgates.evidence import index as index_module
from pytest_postgates.evidence.index import build_index_files, open_index
from pytest_postgates.gates import symbol_grounding
from pytest_postgates.tools.links import LinkCache, LinkResult
from pytest_postgates.tools.mermaid import MermaidParser, diagram_key, mermaidx_version
from tests.helpers import FRONT_MATTER, git, make_post, make_repo, repo_context

if TYPE_CHECKING:
    from tests.conftest import Blog

KEY_ENV = "POSTGATES_CACHE_KEY"
INVENTED = "inventedWidgetFactory"


# ------------------------------------------------------------------ repository index
@pytest.fixture
def repos(tmp_path: Path) -> tuple[Path, str, Path]:
    """The real repository (its commit), and another one where the invented name exists."""
    real = make_repo(tmp_path / "real", {"src/app.ts": "export function realFunction() {}\n"})
    other = make_repo(
        tmp_path / "other",
        {"src/app.ts": f"export function realFunction() {{}}\nexport function {INVENTED}() {{}}\n"},
    )
    return real, git(real, "rev-parse", "HEAD").strip(), other


def plant_index(cache: Path, commit: str, source: Path) -> Path:
    """An index of ``source`` planted under the name of ``commit``'s index, consistent in
    every file (the commit in its metadata too), as a forger who knows the format makes it."""
    folder = cache / f"index-v{index_module.INDEX_VERSION}-{commit}-all"
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    build_index_files(source, git(source, "rev-parse", "HEAD").strip(), folder)
    meta = json.loads((folder / "meta.json").read_text())
    (folder / "meta.json").write_text(json.dumps(meta | {"commit": commit}))
    (folder / "seal.json").write_text(json.dumps({"commit": commit}))
    return folder


def test_a_planted_index_is_rebuilt_not_believed(
    repos: tuple[Path, str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(KEY_ENV, raising=False)
    real, commit, other = repos
    plant_index(tmp_path / "cache", commit, other)
    index = open_index(real, commit, tmp_path / "cache")
    assert not index.contains(INVENTED) and not index.has_word(INVENTED)
    assert index.contains("realFunction")


def test_gate_2_fails_on_an_invented_name_whatever_index_was_planted(
    repos: tuple[Path, str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(KEY_ENV, raising=False)
    real, commit, other = repos
    plant_index(tmp_path / "cache", commit, other)
    post = make_post(FRONT_MATTER + f"Call `realFunction()` and then `{INVENTED}()`.\n", tmp_path)
    # Every token a claim (the seeds' mode): the point is the index, not the anchoring.
    context = repo_context(real, tmp_path / "cache", symbol_unanchored_claims=True)
    card = symbol_grounding.GATE.evaluate(post, context)
    assert card.verdict == "FAIL"
    assert [u["token"] for u in card.detail["ungrounded"]] == [f"{INVENTED}()"]


def test_with_a_cache_key_an_index_must_carry_its_seal(
    repos: tuple[Path, str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real, commit, other = repos
    cache = tmp_path / "cache"
    monkeypatch.setenv(KEY_ENV, "a-long-random-ci-secret")
    # A genuine index built and sealed under the key is loaded as it is (not rebuilt).
    first = open_index(real, commit, cache)
    folder = cache / f"index-v{index_module.INDEX_VERSION}-{commit}-all"
    inode = (folder / "text.bin").stat().st_ino
    assert open_index(real, commit, cache).paths == first.paths
    assert (folder / "text.bin").stat().st_ino == inode
    # The real repository's text in another index (the forger's) is refused: no valid seal.
    plant_index(cache, commit, other)
    assert not open_index(real, commit, cache).contains(INVENTED)
    # Sealed under another key (another CI's): refused as well.
    monkeypatch.setenv(KEY_ENV, "another-key")
    plant_index(cache, commit, other)
    from pytest_postgates.evidence.index_seal import write_seal

    write_seal(folder, commit)
    monkeypatch.setenv(KEY_ENV, "a-long-random-ci-secret")
    assert not open_index(real, commit, cache).contains(INVENTED)


# ------------------------------------------------------------------ mermaid
BROKEN = "flowchart TD\n  A --> B\n  B -->>>> C[unclosed\n"


def plant_mermaid(cache: Path, code: str, entry: dict[str, object]) -> None:
    key = diagram_key(code)
    path = cache / "mermaid" / key[:2] / f"{key}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(entry))


@pytest.mark.parametrize(
    "entry",
    [
        {"kind": "ok", "diagram_type": "flowchart-v2", "message": "", "line": None, "error": ""},
        {"kind": "ok", "key": "0" * 64, "mermaidx": "any"},
    ],
    ids=["bare-ok", "wrong-key"],
)
def test_a_planted_mermaid_entry_is_a_miss(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, entry: dict[str, object]
) -> None:
    monkeypatch.delenv(KEY_ENV, raising=False)
    plant_mermaid(tmp_path, BROKEN, entry)
    assert MermaidParser(tmp_path).cached(BROKEN) is None


def test_with_a_cache_key_a_mermaid_entry_must_be_signed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, "a-long-random-ci-secret")
    forged = {"kind": "ok", "key": diagram_key(BROKEN), "mermaidx": mermaidx_version()}
    plant_mermaid(tmp_path, BROKEN, forged | {"mac": "0" * 64})
    assert MermaidParser(tmp_path).cached(BROKEN) is None
    plant_mermaid(tmp_path, BROKEN, forged)
    assert MermaidParser(tmp_path).cached(BROKEN) is None


# ------------------------------------------------------------------ link cache
URL = "https://example.com/dead-page"


def plant_link(cache: LinkCache, checked_at: float, mac: str | None = None) -> None:
    entry: dict[str, object] = {
        "key": URL,
        "checked_at": checked_at,
        "result": {"url": URL, "status": "ok", "code": 200, "reason": ""},
    }
    if mac is not None:
        entry["mac"] = mac
    cache._path(URL).parent.mkdir(parents=True, exist_ok=True)
    cache._path(URL).write_text(json.dumps(entry))


def test_a_link_entry_from_the_future_is_expired(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(KEY_ENV, raising=False)
    cache = LinkCache(tmp_path / "links", max_age=3600)
    plant_link(cache, time.time() + 10 * 365 * 86400)
    assert cache.get(URL) is None
    plant_link(cache, time.time() - 60)  # a recent one is served, as before
    assert cache.get(URL) == LinkResult(URL, "ok", 200, "")


def test_with_a_cache_key_a_link_entry_must_be_signed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, "a-long-random-ci-secret")
    cache = LinkCache(tmp_path / "links", max_age=3600)
    plant_link(cache, time.time() - 60)
    assert cache.get(URL) is None
    plant_link(cache, time.time() - 60, mac="0" * 64)
    assert cache.get(URL) is None
    cache.put(URL, LinkResult(URL, "dead", 404, "HTTP 404"))
    assert cache.get(URL) == LinkResult(URL, "dead", 404, "HTTP 404")  # its own entry
    monkeypatch.setenv(KEY_ENV, "another-key")
    assert cache.get(URL) is None


# ------------------------------------------------------------------ gate 6's key
@pytest.mark.parametrize("written", ["guide&#46;md", "guide&period;md", "guide.&#109;d"])
def test_a_link_written_with_an_entity_is_in_gate_6_key(
    pytester: pytest.Pytester, blog: Blog, monkeypatch: pytest.MonkeyPatch, written: str
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(pytester.path / "xdg-cache"))
    blog.pyproject("offline = true\n")
    blog.raw("docs/guide.md", b"# Guide\n")  # a file on disk, not a post of the site model
    blog.post("2026-01-02-linking.md", body=blog.GOOD + f"\nSee [the guide](../docs/{written}).\n")
    blog.git_init()
    args = ("_posts/2026-01-02-linking.md", "--postgates-only=6")
    pytester.runpytest(*args).assert_outcomes(passed=1)
    (pytester.path / "docs" / "guide.md").unlink()
    result = pytester.runpytest(*args)
    result.assert_outcomes(failed=1)  # not the cached PASS
    result.stdout.fnmatch_lines(["*BROKEN_INTERNAL_LINK*"])


# ------------------------------------------------------------------ judge replies
def test_a_planted_judge_reply_is_a_miss(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pytest_postgates.config import Judge
    from pytest_postgates.judges.client import ChatRequest, ResponseCache

    monkeypatch.delenv(KEY_ENV, raising=False)
    cache = ResponseCache(tmp_path / "judges", max_age=3600)
    request = ChatRequest(Judge("j", "https://api.openai.com/v1", "m"), (("user", "x"),))
    key = request.cache_key()
    cache.path(key).parent.mkdir(parents=True)
    planted = {"created": time.time(), "content": '{"score": 10}', "provider": "j", "model": "m"}
    cache.path(key).write_text(json.dumps(planted))
    assert cache.get(key) is None  # not this request's reply
    cache.path(key).write_text(json.dumps(planted | {"key": key, "created": time.time() + 1e6}))
    assert cache.get(key) is None  # from the future
    monkeypatch.setenv(KEY_ENV, "a-long-random-ci-secret")
    cache.path(key).write_text(json.dumps(planted | {"key": key}))
    assert cache.get(key) is None  # unsigned
    cache.put(key, request, '{"score": 3}')
    assert cache.get(key) == '{"score": 3}'


# ------------------------------------------------------------------ gate 15's code tables
def cli_repo(root: Path, commands: tuple[str, ...]) -> Path:
    registered = "".join(f'program.command("{name}").option("--port <n>");\n' for name in commands)
    return make_repo(
        root,
        {
            "package.json": json.dumps({"name": "tool", "bin": "./lib/cli.js"}),
            "lib/cli.js": (
                'const { Command } = require("commander");\n'
                f'const program = new Command("tool");\n{registered}'
            ),
        },
    )


@pytest.mark.parametrize("keyed", [False, True])
def test_a_code_table_row_planted_from_another_repository_is_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, keyed: bool
) -> None:
    from pytest_postgates.evidence import code_tables
    from pytest_postgates.gates import code_samples

    if keyed:
        monkeypatch.setenv(KEY_ENV, "a-long-random-ci-secret")
    else:
        monkeypatch.delenv(KEY_ENV, raising=False)
    real = cli_repo(tmp_path / "real", ("serve",))
    forged = cli_repo(tmp_path / "forged", ("serve", "deploy"))
    invented = make_post("Run:\n\n```bash\ntool deploy --port 1\n```\n", tmp_path)
    cache, scratch = tmp_path / "cache", tmp_path / "scratch"
    assert code_samples.GATE.evaluate(invented, repo_context(real, cache)).verdict == "FAIL"
    assert code_samples.GATE.evaluate(invented, repo_context(forged, scratch)).verdict == "PASS"
    (genuine,) = cache.glob("codetables-*.jsonl")
    (other,) = scratch.glob("codetables-*.jsonl")
    row = next(line for line in other.read_text().splitlines() if '"path": "lib/cli.js"' in line)
    genuine.write_text(row + "\n" + genuine.read_text())  # the first row of a path wins
    code_tables._TABLES.clear()
    code_tables._BY_INDEX.clear()
    card = code_samples.GATE.evaluate(invented, repo_context(real, cache))
    assert card.verdict == "FAIL"


def test_a_repo_map_of_another_commit_or_unsigned_is_a_miss(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pytest_postgates.evidence import repomap

    monkeypatch.delenv(KEY_ENV, raising=False)
    target = tmp_path / "repomap.json"
    payload = {"version": repomap.REPOMAP_VERSION, "commit": "a" * 40, "files": {}}
    target.write_text(json.dumps(payload))
    assert repomap._load(target, "a" * 40) is not None
    assert repomap._load(target, "b" * 40) is None  # planted under another commit's name
    monkeypatch.setenv(KEY_ENV, "a-long-random-ci-secret")
    assert repomap._load(target, "a" * 40) is None  # unsigned


def test_an_unsigned_api_model_is_a_miss_under_a_cache_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pytest_postgates.evidence import api_model

    target = tmp_path / "apimodel.json"
    monkeypatch.setenv(KEY_ENV, "a-long-random-ci-secret")
    real = make_repo(tmp_path / "real", {"pkg/__init__.py": "def real_function():\n    pass\n"})
    commit = git(real, "rev-parse", "HEAD").strip()
    index = open_index(real, commit, tmp_path / "cache")
    model = api_model.api_model(index, tmp_path / "cache")
    (written,) = (tmp_path / "cache").glob("apimodel-*.json")
    assert api_model._load(written, index) is not None  # its own, signed
    payload = {"commit": commit, "facts": model.facts.to_json()}
    target.write_text(json.dumps(payload))
    assert api_model._load(target, index) is None  # unsigned: planted


def test_without_a_key_a_planted_member_in_a_cached_api_model_is_a_miss(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A restored cache folder whose model gives class Engine a member `explode`: the
    model's names must be written in the code it says declares them, so the planted model
    is rebuilt and `Engine.explode()` stays ungrounded."""
    from pytest_postgates.evidence import api_model
    from pytest_postgates.evidence.model_facts import ClassFacts, Decl

    monkeypatch.delenv(KEY_ENV, raising=False)
    source = "class Engine:\n    def start(self) -> None:\n        pass\n"
    real = make_repo(tmp_path / "real", {"pkg/__init__.py": "", "pkg/engine.py": source})
    commit = git(real, "rev-parse", "HEAD").strip()
    cache = tmp_path / "cache"
    index = open_index(real, commit, cache)
    honest = api_model.api_model(index, cache)
    (written,) = cache.glob("apimodel-*.json")
    assert api_model._load(written, index) is not None  # an honest unsigned model loads
    facts = honest.facts
    facts.classes = [
        ClassFacts(c.qualname, c.name, c.path, c.line, [*c.members, "explode"], c.bases, c.kind)
        for c in facts.classes
    ]
    facts.decls.append(Decl("explode", "method", "pkg.engine.Engine", "pkg/engine.py", 2))
    written.write_text(json.dumps({"commit": commit, "facts": facts.to_json()}))
    assert api_model._load(written, index) is None
    api_model._MODELS.clear()  # a new process: only the folder is left
    model = api_model.api_model(index, cache)
    assert model.resolve(["Engine", "explode"]).outcome == "missing"
    assert model.resolve(["Engine", "start"]).outcome == "found"
