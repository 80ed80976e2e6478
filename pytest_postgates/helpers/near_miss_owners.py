"""Gate 2's rule for a near miss of a product name that its own sentence gives to another
party (issue 24): ``near-miss-owner``.

A near miss is a weak anchor: the token is not declared, only spelled like a product name.
When the sentence says whose name it is, and that owner is not the product, the likeness is
chance (`EJENTUM_API_KEY` near `OPENAI_API_KEY`, JSHint's `onevar` near `one-var`), and the
product's code cannot judge the name: ``unjudged``, listed with the owner, never grounded.
The sentence names the owner by

- a word of the token that the sentence writes as a capitalised name of another party and
  that no name of the product's code holds ("set your Ejentum API key in the
  `EJENTUM_API_KEY` environment variable"): the near product name lacks that word;
- the party's name right after the token, then what the name is ("the `onevar` JSHint
  rule", "the `x` Vite option");
- a code span of another package as the subject of a verb of having, with the package's
  own site linked in the sentence ("`requests` exposes a top level `RequestException`,
  ... see [here](https://requests.readthedocs.io/...)");
- a possessive whose noun the sentence gives to a party ("Airflow task retries: configure
  them with the task's `retries` and `retry_delay`");
- a sentence whose subject is a link to another party's address ("The [Vercel AI
  SDK](https://ai-sdk.dev/) can route ... by pointing each provider's `baseURL`");
- a configuration file in the reader's home of another tool ("If you already have a
  `~/.codex/config.toml`, ... update `model_provider`"): the keys the sentence names are
  that file's.

The product's own typo stays a finding: a sentence that names the product, or none of the
above, decides nothing here.
"""

from __future__ import annotations

import functools
import re

from pytest_postgates.evidence.api_model import ApiModel
from pytest_postgates.evidence.name_spelling import words
from pytest_postgates.helpers.attribution_rules import (
    _LIST_GLUE,
    _PACKAGE_NAME,
    _PARTY,
    _WORD_NAME,
    _is_other_party,
    _is_product_package,
    products_address,
)
from pytest_postgates.helpers.model_grounding import (
    ModelDecision,
    Rule,
    chain_parts,
    signature_name,
)
from pytest_postgates.helpers.outcome_rules import Repos

Outcome = tuple[str, str, str]

RULES = (
    Rule(
        "near-miss-owner",
        "unjudged",
        "a near miss of a product name (no product name roots it) whose sentence gives it to "
        "another party: a word of the token the sentence writes as that party's name and "
        'no product name holds (`EJENTUM_API_KEY` beside "Ejentum"), the party\'s name '
        'right after it ("the `onevar` JSHint rule"), another package\'s code span as the '
        'subject of a verb of having with its site linked ("`requests` exposes a top level '
        '`RequestException`"), a possessive whose noun the sentence gives to a party '
        '("Airflow task ... the task\'s `retry_delay`"), a subject linked to another '
        "party's address, or another tool's configuration file in the reader's home "
        "(`~/.codex/config.toml`): the likeness to the product's name is chance, the "
        "product's code cannot judge it; a sentence that names the product decides nothing",
        "tests/test_near_miss_owners.py::test_a_near_miss_the_sentence_gives_to_another_party_is_unjudged",
        earns=(
            "earns on the tune half only; off, held out: findings +0, nothing labelled moved; "
            "tune: findings +6, 6 labelled false back (EJENTUM_API_KEY, onevar, "
            "RequestException, retry_delay, model_provider, baseURL), no defect gained; a "
            "candidate for deletion (bench/ablation.py at 16debed)"
        ),
    ),
)

_CODE_SPAN = re.compile(r"`[^`]*`")
_LINK = re.compile(r"\[([^\]]*)\]\((\S+?)\)")
# What a name is, after its owner's name: "the `onevar` JSHint rule".
_KIND_NOUN = (
    r"(?:rules?|options?|settings?|keys?|fields?|flags?|methods?|functions?|hooks?"
    r"|properties|property|attributes?|parameters?|variables?|types?|classes|class|APIs?"
    r"|events?|plugins?|commands?|columns?)\b"
)
_OWNER_AFTER = re.compile(rf"^`?\s+(?P<party>{_PARTY})\s+{_KIND_NOUN}")
_HAVING = r"(?:exposes|provides|offers|defines|has|raises|exports|ships)"
_PACKAGE_SUBJECT = re.compile(rf"`(?P<party>[^`]+)`\s+{_HAVING}\s+[^`.;:]{{0,40}}$")
_NOUN_POSSESSIVE = re.compile(rf"\b(?P<noun>[a-z]{{3,}})(?:'s|\u2019s)\s+{_LIST_GLUE}$")
_LINKED_SUBJECT = re.compile(r"^\s*(?:[-*+]\s+|\d+[.)]\s+)?(?:the\s+)?\[[^\]]+\]\((?P<url>\S+?)\)",
                             re.I)  # fmt: skip
_HOME_FILE = re.compile(r"`~/\.(?P<tool>[\w-]+)/[^`]*`")
_KEY_NAME = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$")


def near_miss_owner(
    text: str,
    decided: ModelDecision | None,
    sentence: str,
    offset: int,
    repos: Repos,
    model: ApiModel | None,
    rules_off: frozenset[str],
) -> Outcome | None:
    """``near-miss-owner``'s decision on a token the model judged a near miss, or None."""
    if (
        decided is None
        or decided.rule != "model-near-miss"
        or model is None
        or offset < 0
        or "near-miss-owner" in rules_off
        or _names_product(sentence, repos)
    ):
        return None
    name = _first_name(text)
    before, after = sentence[:offset].removesuffix("`"), sentence[offset + len(text) :]
    owner = (
        _party_in_name(name, sentence, offset, repos, model)
        or _party_after(after, repos)
        or _package_subject(before, sentence, repos, model)
        or _party_noun(before, sentence, repos)
        or _linked_subject(sentence, repos)
        or _home_file(name, sentence, repos)
    )
    if owner is None:
        return None
    return (
        "unjudged",
        "near-miss-owner",
        f"the sentence gives `{name}` to {owner}: its likeness to a product name is chance, "
        "and the product's code cannot judge another party's name",
    )


def _first_name(text: str) -> str:
    parts = chain_parts(signature_name(text))
    if parts:
        return parts[0]
    key = re.match(r"[\"']?([A-Za-z_$][\w$]*)", text.strip())
    return key.group(1) if key else text


def _names_product(sentence: str, repos: Repos) -> bool:
    """Whether the sentence's prose (not its code spans or link targets) names the product."""
    prose = _LINK.sub(r"\1", _CODE_SPAN.sub(" ", sentence)).lower()
    return any(
        re.search(rf"(?<![\w-]){re.escape(n.lower())}(?![\w-])", prose)
        for n in repos.product_names
        if len(n) > 2
    )


def _party_in_name(
    name: str, sentence: str, offset: int, repos: Repos, model: ApiModel
) -> str | None:
    near = model.resembles(name) or ""
    near_words = set(words(near))
    prose = _CODE_SPAN.sub(lambda m: " " * len(m.group()), sentence)
    for word in words(name):
        if len(word) < 4 or word in near_words or word in _product_words(model):
            continue
        for match in re.finditer(rf"\b{word.capitalize()}\b", prose):
            # A capital that opens the sentence is no name.
            if match.start() > 0 and _is_other_party(match.group(), repos):
                return match.group()
    return None


def _party_after(after: str, repos: Repos) -> str | None:
    match = _OWNER_AFTER.match(after)
    if match and _is_other_party(match.group("party"), repos):
        return match.group("party")
    return None


def _package_subject(before: str, sentence: str, repos: Repos, model: ApiModel) -> str | None:
    match = _PACKAGE_SUBJECT.search(before)
    if match is None:
        return None
    party = match.group("party")
    if (
        not _PACKAGE_NAME.match(party)
        or _is_product_package(party, repos)
        or party.split(".")[0] in model.modules
    ):
        return None
    # The sentence links the package's own site: its name is in the address's host.
    for _text, url in _LINK.findall(sentence):
        if products_address(url, _names(repos)) is False and party in _host(url):
            return f"{party} (linked: {url})"
    return None


def _party_noun(before: str, sentence: str, repos: Repos) -> str | None:
    match = _NOUN_POSSESSIVE.search(before)
    if match is None:
        return None
    noun = match.group("noun")
    for owned in re.finditer(rf"\b(?P<party>{_WORD_NAME})\s+{noun}s?\b", sentence):
        if owned.start() > 0 and _is_other_party(owned.group("party"), repos):
            return f"{owned.group('party')} (its {noun})"
    return None


def _linked_subject(sentence: str, repos: Repos) -> str | None:
    match = _LINKED_SUBJECT.match(sentence)
    if match and products_address(match.group("url"), _names(repos)) is False:
        return f"the party the sentence opens with ({match.group('url')})"
    return None


def _home_file(name: str, sentence: str, repos: Repos) -> str | None:
    if not _KEY_NAME.match(name):
        return None
    for match in _HOME_FILE.finditer(sentence):
        tool = match.group("tool").lower()
        if not any(n.lower() in tool or tool in n.lower() for n in _names(repos)):
            return f"{tool} (its configuration file {match.group()})"
    return None


def _host(url: str) -> str:
    return re.sub(r"^\w+://", "", url).split("/", 1)[0].lower()


def _names(repos: Repos) -> frozenset[str]:
    return frozenset(n.lower() for n in repos.product_names if n)


@functools.lru_cache(maxsize=4)
def _product_words(model: ApiModel) -> frozenset[str]:
    """Every word of a name the product's code declares or writes."""
    names = (*model.by_name, *model.facts.identifiers, *model.facts.surface)
    return frozenset(w for n in names for w in words(n))
