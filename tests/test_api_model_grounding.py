"""Gate 2 on the API model (helpers/model_grounding.py): a token anchored to the product is
judged name for name against its code; text (and above all prose) never grounds it."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_postgates.gates import GateContext
from pytest_postgates.gates import symbol_grounding as gate
from pytest_postgates.helpers.model_grounding import RULES, argument_keys, chain_parts
from pytest_postgates.post import parse_post
from pytest_postgates.scorecard import Scorecard
from tests.helpers import gate2_outcome, make_post, make_repo, repo_context

CLIENT_PY = """
import click


class Remote:  # stands in for nothing: the base below is a third party's
    pass


class Limits:
    def __init__(self, max_retry_delay: float = 1.0) -> None:
        self.max_retry_delay = max_retry_delay


class Client:
    def open_streams(self) -> "Stream":
        return Stream()


class Stream:
    def read(self) -> bytes:
        return b""


def make_client() -> Client:
    return Client()


@click.command()
@click.option("--cache-dir")
def main(cache_dir: str) -> None:
    cache = cache_dir  # a variable named like a flag's word
    result_store = ResultStore()
    result_store.flush_all()  # duck-typed: no class declares it, the code writes it
    result_store.stale_after = 3  # set on an instance, never declared by the class


class ResultStore:
    def keep(self) -> None: ...


def configure(name: str, **options: object) -> None: ...


def request(url: str) -> Client: ...
"""
FILES = {
    "mylib/__init__.py": "from .client import Client, Limits, make_client\n",
    "mylib/client.py": CLIENT_PY,
    "mylib/vendor_base.py": "from requests import Session\n\nclass Api(Session):\n    x = 1\n",
    # Prose repeating the wrong names must never ground them.
    "README.md": "Set `max_retry` and pass `--cache`; call `Client.open_stream()`.\n",
    "mylib/broken.py": "def (:\n",  # the model cannot read it, and says so
    "tests/test_limits.py": "def test_it():\n    open_stream = 1\n    max_retry = 2\n",
    "tests/helpers.py": "def run_client_check():\n    pass\n",
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("mylib"), FILES)


@pytest.fixture
def ctx(repo: Path, tmp_path: Path) -> GateContext:
    return repo_context(repo, tmp_path / "cache")


_outcome = gate2_outcome


@pytest.mark.parametrize(
    "token",
    ["mylib.Client", "Client.open_streams", "Client.open_streams().read()", "make_client()"],
)
def test_a_real_chain_is_grounded_by_the_model(
    token: str, tmp_path: Path, ctx: GateContext
) -> None:
    entry = _outcome(f"We call `{token}` here.\n", token, tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("grounded", "model-found")
    assert entry["where"].startswith("mylib/")


@pytest.mark.parametrize(
    ("token", "reason"),
    [
        ("Client.open_stream()", "did you mean `open_streams`"),
        ("Client.open_streams().readall()", "`readall` is not declared in Stream"),
        ("make_client().invented_method()", "`invented_method` is not declared"),
        ("mylib.Clinet", "did you mean `Client`"),
    ],
)
def test_an_invented_member_is_ungrounded_with_the_nearest(
    token: str, reason: str, tmp_path: Path, ctx: GateContext
) -> None:
    # The README and a test write `open_stream`: neither is evidence for the product.
    entry = _outcome(f"Then `{token}` returns.\n", token, tmp_path, ctx)
    assert entry["outcome"] == "ungrounded"
    assert reason in entry["reason"]


def test_a_renamed_name_never_grounds_on_a_longer_one(tmp_path: Path, ctx: GateContext) -> None:
    # `max_retry` is a substring of the real `max_retry_delay`, and the README and a test
    # write it: a substring and prose are not the name.
    entry = _outcome("Set `max_retry` to 5.\n", "max_retry", tmp_path, ctx)
    assert entry["outcome"] == "ungrounded"
    assert "did you mean `max_retry_delay`" in entry["reason"]


def test_flags_are_judged_against_the_parser(tmp_path: Path, ctx: GateContext) -> None:
    # A `cache` variable and a README repeating `--cache` do not declare `--cache`.
    wrong = _outcome("Pass `--cache` to keep it.\n", "--cache", tmp_path, ctx)
    assert wrong["outcome"] == "ungrounded" and "`--cache-dir`" in wrong["reason"]
    right = _outcome("Pass `--cache-dir DIR` to keep it.\n", "--cache-dir DIR", tmp_path, ctx)
    assert (right["outcome"], right["rule"]) == ("grounded", "model-cli")


def test_an_external_base_leaves_the_member_unjudged(tmp_path: Path, ctx: GateContext) -> None:
    entry = _outcome("Use `Api.mount()` for adapters.\n", "Api.mount()", tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("unjudged", "model-unjudged")
    assert "Session" in entry["reason"]


def test_a_chain_the_code_writes_is_grounded(tmp_path: Path, ctx: GateContext) -> None:
    token = "result_store.flush_all()"
    entry = _outcome(f"Then `{token}` runs.\n", token, tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("grounded", "model-code-usage")
    token = "result_store.drop_all()"  # written nowhere, declared nowhere
    entry = _outcome(f"Then `{token}` runs.\n", token, tmp_path, ctx)
    assert (entry["outcome"], entry["reason"]) == (
        "ungrounded",
        "`drop_all` is not declared in ResultStore",
    )


NESTED_CONFIG = """
class Features:
    strict: bool = False


class ParserOptions:
    features: Features = Features()


class Config:
    parser_options: object = None


def read(config: Config) -> bool:
    return config.parser_options.features.global_return
"""


def test_a_nested_key_the_code_reads_as_written_is_grounded(tmp_path: Path) -> None:
    # `Config.parser_options` holds an untyped value: `global_return` is declared by no
    # class, but the code reads `parser_options.features.global_return` as the page writes
    # it (eslint's `languageOptions.parserOptions.ecmaFeatures.globalReturn`).
    repo = make_repo(
        tmp_path / "nested",
        {"nested/__init__.py": "from .config import Config\n", "nested/config.py": NESTED_CONFIG},
    )
    ctx = repo_context(repo, tmp_path / "cache")
    token = "Config.parser_options.features.global_return"
    entry = _outcome(f"Set `{token}` first.\n", token, tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("grounded", "model-code-usage"), entry
    # A key the code never reads after those names stays a miss.
    token = "Config.parser_options.features.global_mode"
    entry = _outcome(f"Set `{token}` first.\n", token, tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("ungrounded", "model-rooted-miss"), entry


def test_a_member_the_code_sets_on_an_instance_of_the_class_is_grounded(
    tmp_path: Path, ctx: GateContext
) -> None:
    # `ResultStore` declares no `stale_after`; the code sets it on `result_store`.
    entry = _outcome("Read `ResultStore.stale_after`.\n", "ResultStore.stale_after", tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("grounded", "model-code-usage")
    # The head of that member is not written whole: still a miss.
    entry = _outcome("Read `ResultStore.stale`.\n", "ResultStore.stale", tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("ungrounded", "model-rooted-miss")


def test_a_helper_of_the_tests_is_no_near_miss(tmp_path: Path, ctx: GateContext) -> None:
    # `run_client_check` is one word off nothing, and the tests define it: real code.
    entry = _outcome(
        "The suite's `run_client_check()` helper.\n", "run_client_check()", tmp_path, ctx
    )
    assert entry["outcome"] == "grounded"


def test_a_name_with_no_anchor_is_left_to_the_other_rules(tmp_path: Path, ctx: GateContext) -> None:
    # React's hook resembles nothing of the product: the model does not decide it.
    entry = _outcome("React's `useState` hook.\n", "useState", tmp_path, ctx)
    assert not entry.get("rule", "").startswith("model-")


def test_every_rule_is_declared_with_its_reason_and_test() -> None:
    names = [rule.name for rule in RULES]
    assert len(names) == len(set(names))
    here = Path(__file__).read_text(encoding="utf-8")
    for rule in RULES:
        assert rule.why and rule.decides
        test_file, _, test_name = rule.tests.partition("::")
        text = here if test_file.endswith(Path(__file__).name) else Path(test_file).read_text()
        assert f"def {test_name}(" in text, rule.tests


@pytest.mark.parametrize(
    ("token", "parts"),
    [
        ("a.b", ["a", "b"]),
        ("A::b", ["A", "b"]),
        ("A#b", ["A", "b"]),
        ("a?.b()", ["a", "b"]),
        ("make().run(x=1)", ["make", "run"]),
        ("not a chain", None),
        ("a.b c", None),
    ],
)
def test_chain_parts(token: str, parts: list[str] | None) -> None:
    assert chain_parts(token) == parts


def test_argument_keys() -> None:
    assert argument_keys("f({ a, b: 1, ...rest })") == ["a", "b"]
    assert argument_keys("f(x, retries=3, timeout=None)") == ["retries", "timeout"]
    assert argument_keys("f(a == b)") == []


def test_prose_never_grounds_a_name(tmp_path: Path) -> None:
    # A committed draft, a README and a doc write the invented names; no code does. Named
    # on the command line, the draft would otherwise ground on itself.
    body = "Call `fancyHelper()` and read `totally.made_up`.\n"
    front = "---\nlayout: post\ntitle: T\ndate: 2026-01-01\n---\n"
    root = make_repo(
        tmp_path / "repo",
        {
            **FILES,
            "drafts/2026-01-01-x.md": front + body,
            "docs/guide.md": "Use `fancyHelper()` and `totally.made_up`.\n",
        },
    )
    context = repo_context(root, tmp_path / "cache")
    card = gate.GATE.evaluate(parse_post(root / "drafts/2026-01-01-x.md"), context)
    outcomes = {
        e["token"]: (o, e.get("rule")) for o, es in card.detail["outcomes"].items() for e in es
    }
    outcomes.update({u["token"]: ("ungrounded", None) for u in card.detail["ungrounded"]})
    assert outcomes == {
        "fancyHelper()": ("unjudged", "prose-only"),
        "totally.made_up": ("unjudged", "prose-only"),
    }
    assert "only prose writes them" in card.summary


def test_the_card_names_what_the_model_could_not_read(tmp_path: Path, ctx: GateContext) -> None:
    card: Scorecard = gate.GATE.evaluate(make_post("Use `Client`.\n", tmp_path), ctx)
    assert card.detail["model_unread"] == {
        "count": 1,
        "files": ["mylib/broken.py: does not parse: SyntaxError"],
    }


def test_a_name_listed_among_the_products_names_is_a_claim(
    tmp_path: Path, ctx: GateContext
) -> None:
    # A list of the product's functions presents each of its names as the product's: an
    # invented one there is a claim (ungrounded), the same name in a sentence is not.
    listed = (
        "The client offers:\n\n"
        "- `make_client` - builds one\n"
        "- `open_streams` - opens them\n"
        "- `drain_queue` - empties it\n"
    )
    # (With symbol_unanchored_claims = false, where a token needs an anchor to be a claim.)
    anchored = repo_context(ctx.settings.repo, tmp_path / "c2", symbol_unanchored_claims=False)
    entry = _outcome(listed, "drain_queue", tmp_path, anchored)
    assert entry["outcome"] == "ungrounded"
    alone = _outcome("Then call `drain_queue` again.\n", "drain_queue", tmp_path, anchored)
    assert (alone["outcome"], alone["rule"]) == ("unjudged", "not-anchored")


@pytest.mark.parametrize(
    "token",
    ['"max_retry": 5', "{ max_retry: 5, other: 1 }", "max_retry=5", '["on", { max_retry: 5 }]'],
)
def test_a_key_with_its_value_is_judged_by_its_key(
    token: str, tmp_path: Path, ctx: GateContext
) -> None:
    # The value is the reader's; the key is a near miss of the real `max_retry_delay`.
    entry = _outcome(f"Pass `{token}` to it.\n", token, tmp_path, ctx)
    assert entry["outcome"] == "ungrounded"
    assert "did you mean `max_retry_delay`" in entry["reason"]


@pytest.mark.parametrize(
    ("token", "outcome", "reason"),
    [
        ("def .open_streams()", "grounded", ""),
        ("Stream.read() -> bytes", "grounded", ""),
        ("def .open_stream()", "ungrounded", "did you mean `open_streams`"),
    ],
)
def test_a_signature_in_doc_notation_is_judged_by_its_name(
    token: str, outcome: str, reason: str, tmp_path: Path, ctx: GateContext
) -> None:
    # A method listing writes `def .name()` or `name() -> type`: the notation is the
    # doc's, the name the product's.
    entry = _outcome(f"- `{token}`\n", token, tmp_path, ctx)
    assert entry["outcome"] == outcome, entry
    assert reason in entry.get("reason", "")


def test_a_name_spelled_with_the_products_name_is_a_claim(tmp_path: Path) -> None:
    # `MylibWarning` claims to be the product's by its spelling; `mylib-extras` is a
    # package name a third party may choose, and `OtherWarning` is nobody's in particular.
    files = {
        "pyproject.toml": '[project]\nname = "mylib"\n',
        "mylib/__init__.py": "class MylibError(Exception):\n    pass\n",
    }
    repo = make_repo(tmp_path / "named", files)
    anchored = repo_context(repo, tmp_path / "c2", symbol_unanchored_claims=False)
    body = "It emits `MylibWarning`, unlike `OtherWarning` or `mylib-extras`.\n"
    assert _outcome(body, "MylibWarning", tmp_path, anchored)["outcome"] == "ungrounded"
    for token in ("OtherWarning", "mylib-extras"):
        entry = _outcome(body, token, tmp_path, anchored)
        assert entry["outcome"] != "ungrounded", entry


def test_keywords_are_judged_against_the_parameters(tmp_path: Path, ctx: GateContext) -> None:
    right = _outcome("Build `Limits(max_retry_delay=2.0)`.\n", "Limits(max_retry_delay=2.0)",
                     tmp_path, ctx)  # fmt: skip
    assert (right["outcome"], right["rule"]) == ("grounded", "model-found")
    wrong = _outcome("Build `Limits(max_retry=2)`.\n", "Limits(max_retry=2)", tmp_path, ctx)
    assert (wrong["outcome"], wrong["rule"]) == ("ungrounded", "model-argument")
    assert "did you mean `max_retry_delay`" in wrong["reason"]
    # Under **options the keywords go where the model does not follow: not its decision.
    token = "configure(name='x', colour='red')"
    entry = _outcome(f"Call `{token}`.\n", token, tmp_path, ctx)
    assert entry.get("rule") != "model-argument"


def test_a_method_listing_in_doc_notation_presents_its_names(
    tmp_path: Path, ctx: GateContext
) -> None:
    # `def .name()` items whose siblings are members of product classes: an invented one
    # in the list is a claim even where a token needs an anchor.
    anchored = repo_context(ctx.settings.repo, tmp_path / "c2", symbol_unanchored_claims=False)
    listing = "Methods:\n\n- `def .open_streams()`\n- `def .read()`\n- `def .drain_all()`\n"
    entry = _outcome(listing, "def .drain_all()", tmp_path, anchored)
    assert entry["outcome"] == "ungrounded"


def test_a_rule_turned_off_decides_nothing(tmp_path: Path, ctx: GateContext) -> None:
    token = "Limits(max_retry=2)"
    off = repo_context(ctx.settings.repo, tmp_path / "c3", symbol_rules_off=("model-argument",))
    entry = _outcome(f"Build `{token}`.\n", token, tmp_path, off)
    assert entry.get("rule") != "model-argument"
    entry = _outcome(f"Build `{token}`.\n", token, tmp_path, ctx)
    assert entry.get("rule") == "model-argument"


def test_a_typed_property_in_doc_notation_is_judged_by_its_type(
    tmp_path: Path, ctx: GateContext
) -> None:
    # `stores: ResultStor[]`: the property is the doc's notation, the type a product name.
    token = "stores: ResultStor[]"
    entry = _outcome(f"It has `{token}` set.\n", token, tmp_path, ctx)
    assert entry["outcome"] == "ungrounded" and "did you mean `ResultStore`" in entry["reason"]
    token = "stores: ResultStore[]"  # the type is real: the model finds nothing to say
    entry = _outcome(f"It has `{token}` set.\n", token, tmp_path, ctx)
    assert entry.get("rule") != "model-near-miss"


def test_a_generic_type_is_judged_by_its_name_not_its_parameters(
    tmp_path: Path, ctx: GateContext
) -> None:
    # `Client[MyDeps, str]`: the parameters are the reader's types; the name is the claim.
    real = _outcome("Use `Client[MyDeps, list[str]]` here.\n", "Client[MyDeps, list[str]]",
                    tmp_path, ctx)  # fmt: skip
    assert (real["outcome"], real["rule"]) == ("grounded", "model-found")
    typo = _outcome("Use `Cliennt[MyDeps]` here.\n", "Cliennt[MyDeps]", tmp_path, ctx)
    assert typo["outcome"] == "ungrounded" and "`Client`" in typo["reason"]


def test_a_chain_that_does_not_call_a_product_function_is_not_rooted_in_it(
    tmp_path: Path, ctx: GateContext
) -> None:
    # `request.session` reads a variable named like the product's `request()` (DRF's
    # request object); `request().session` calls it, and its result is the product's.
    entry = _outcome("Use `request.session` there.\n", "request.session", tmp_path, ctx)
    assert entry["outcome"] != "ungrounded", entry
    called = _outcome("Use `request().session` there.\n", "request().session", tmp_path, ctx)
    assert (called["outcome"], called["rule"]) == ("ungrounded", "model-rooted-miss"), called


def test_a_name_of_the_products_words_in_another_order_is_a_near_miss(tmp_path: Path) -> None:
    # `AgentProxy` for the product's `ProxyAgent`: the same words swapped is a name
    # misremembered (undici's proxy guide linked its `ProxyAgent` page so); a name that
    # only shares a word (`ProxyPool`) is another thing.
    files = {
        "pyproject.toml": '[project]\nname = "mylib"\n',
        "mylib/__init__.py": "class ProxyAgent:\n    pass\n\n\nclass PoolStats:\n    pass\n",
    }
    repo = make_repo(tmp_path / "swapped", files)
    anchored = repo_context(repo, tmp_path / "c2", symbol_unanchored_claims=False)
    body = "Connect by:\n\n- Using [AgentProxy](api/ProxyAgent.md).\n- Using `ProxyPool`.\n"
    entry = _outcome(body, "AgentProxy", tmp_path, anchored)
    assert (entry["outcome"], entry["rule"]) == ("ungrounded", "model-near-miss")
    assert "did you mean `ProxyAgent`" in entry["reason"]
    assert _outcome(body, "ProxyPool", tmp_path, anchored)["outcome"] != "ungrounded"


def test_keywords_unpacked_from_a_typed_dict_are_its_keys_only(tmp_path: Path) -> None:
    # `**extra: Unpack[_NoExtras]` takes the TypedDict's keys and no other keyword (pydantic's
    # `Field` so refuses stray keywords): a misspelt keyword is a miss, not left open.
    files = {
        "pyproject.toml": '[project]\nname = "mylib"\n',
        "mylib/__init__.py": "from .fields import Field, paint\n",
        "mylib/fields.py": (
            "from typing import TypedDict\n"
            "from typing_extensions import Unpack\n\n\n"
            "class _NoExtras(TypedDict):\n    pass\n\n\n"
            "class _Paint(TypedDict, total=False):\n    colour: str\n\n\n"
            "def Field(default=None, *, validate_default: bool = False, "
            "**extra: Unpack[_NoExtras]):\n    return default\n\n\n"
            "def paint(**options: Unpack[_Paint]):\n    return options\n"
        ),
    }
    repo = make_repo(tmp_path / "unpacked", files)
    ctx = repo_context(repo, tmp_path / "c2")
    for token, outcome in [
        ("Field(validate_defaults=True)", "ungrounded"),
        ("Field(validate_default=True)", "grounded"),
        ("paint(colour='red')", "grounded"),
        ("paint(color='red')", "ungrounded"),
    ]:
        entry = _outcome(f"Write `{token}`.\n", token, tmp_path, ctx)
        assert (entry["outcome"], entry["rule"]) == (
            outcome,
            "model-" + ("found" if outcome == "grounded" else "argument"),
        ), entry
    entry = _outcome("Write `Field(validate_defaults=True)`.\n", "Field(validate_defaults=True)",
                     tmp_path, ctx)  # fmt: skip
    assert "did you mean `validate_default`" in entry["reason"]


def test_a_bare_call_takes_the_keywords_of_what_the_package_exports(tmp_path: Path) -> None:
    # A package that keeps a legacy copy of its API (pydantic's `pydantic.v1`, whose `Field`
    # takes any keyword) still exports one `Field`: `Field(...)` named alone is that one, so
    # the copy's open `**extra` does not leave a misspelt keyword open.
    files = {
        "pyproject.toml": '[project]\nname = "mylib"\n',
        "mylib/__init__.py": "from .fields import Field\n",
        "mylib/fields.py": (
            "from typing import TypedDict\n"
            "from typing_extensions import Unpack\n\n\n"
            "class _NoExtras(TypedDict):\n    pass\n\n\n"
            "def Field(default=None, *, validate_default: bool = False, "
            "**extra: Unpack[_NoExtras]):\n    return default\n"
        ),
        "mylib/v1/__init__.py": "from .fields import Field\n",
        "mylib/v1/fields.py": "def Field(default=None, **extra):\n    return default\n",
    }
    repo = make_repo(tmp_path / "legacy", files)
    ctx = repo_context(repo, tmp_path / "c3")
    token = "Field(validate_defaults=True)"
    entry = _outcome(f"Write `{token}`.\n", token, tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("ungrounded", "model-argument"), entry
    # Named through the legacy module, the open copy is the one called.
    token = "mylib.v1.Field(validate_defaults=True)"
    entry = _outcome(f"Write `{token}`.\n", token, tmp_path, ctx)
    assert entry["outcome"] != "ungrounded", entry


def test_a_name_in_a_contents_list_of_the_products_names_is_a_claim(
    tmp_path: Path, ctx: GateContext
) -> None:
    # A contents list links each of the product's names to its section: the link around
    # the code span does not make the list any less the product's (jest's API page listed
    # `config.baild` among its real config options).
    listed = (
        "Contents:\n\n"
        "- [`make_client`](#make-client)\n"
        "- [`open_streams` [method]](#open-streams)\n"
        "- [`drain_queue`](#drain-queue)\n"
    )
    anchored = repo_context(ctx.settings.repo, tmp_path / "c2", symbol_unanchored_claims=False)
    entry = _outcome(listed, "drain_queue", tmp_path, anchored)
    assert (entry["outcome"], entry["rule"]) == ("ungrounded", "anchor-listed")
