"""Gate 2's anchors: what ties a token that the API model did not decide to the product,
so that it is a claim about the product (checked, and a finding when it does not ground)
rather than ``unjudged: not the product's`` (issue 24: a token with no anchor is listed,
never counted either way).

The anchors are data (:data:`RULES`), tried in order; the first that holds names the
anchor of an ungrounded finding (its ``rule``), and a rule named in ``symbol_rules_off``
is skipped (an ablation).

Deleted, having earned nothing held out (DEVELOPERS.md: a rule that earns nothing held out is
deleted): ``anchor-sample`` (a sample of the post that uses the product writes the name).
On the held-out docs (bench/docs_precision.py) it anchored 0 real of 40 sampled findings
(33 false on the tune half, 7 on the report half), on natural drift it caught one tune case
and no report case, and turning it off cost the planted inventions nothing (94.8% off,
94.6% on).

Deleted at session 16 by bench/ablation.py (every finding of both halves of
bench/docs_precision.py, each rule off against every rule on, at 9accc41): ``anchor-flag``
(an invented flag where the page runs the product), ``anchor-presented-lint`` and
``anchor-presented-root`` (a name in the product's lint namespace, rooted in its name)
decided no token on either half; without them the planted inventions
(bench/fabrication_recall.py, 310 of 353) and the NeuroLink labels (bench/precision.py) are
caught as before.

Deleted at session 18, when held-out inventions could first be measured
(bench/planted_docs.py: inventions planted where real product names are written in the
report half's docs, 900 of them, seed 20261205): ``anchor-shape``'s commit and version
parts (a commit id or a version by its shape; its lint part stays as ``anchor-lint-rule``,
which only a project's own ``lint_rule_prefix`` sets off), ``anchor-presented-id`` (a
model id of the catalogue's shape), ``anchor-presented-sentence`` (named after the
product's name and a verb) and ``anchor-path`` (a near miss of one of the product's
files). None anchored one held-out invention, none anchored a held-out defect
(bench/ablation.py on both halves of bench/docs_precision.py; the natural-drift report
half at 7939532), and two cost held-out precision (off: 2 and 5 false findings gone).
What they caught was on the NeuroLink corpus they were written on
(bench/fabrication_recall.py off: model-id 10 -> 0, path 27 -> 20, joined 29 -> 28
caught; five labelled NeuroLink defects, all paths anchor-path anchored).
``anchor-named`` was deleted with them and restored the same day: the third wave's report
half holds two real defects only it makes claims (pm2's ``pm2_*`` variables), so it earns
held out.

Deleted at session 19: ``anchor-values`` (a quoted value listed in one sentence with two
or more quoted values the product's code writes). It decided no token of either held-out
half (bench/ablation.py at f373629: off, nothing moved), and its shape can hardly be
planted there: the report half's docs hold 6 lines with three quoted values or more in
all. Off, bench/precision.py loses one labelled NeuroLink defect (`"16:10"`), listed
unjudged (``not-anchored``), never counted as grounded.

Tried at session 19 and taken back the same day: ``anchor-listed`` for a name that is the
whole of a heading among the page's other headings of its level that are the product's
names (mkdocs's configuration page titles each option so). It caught two tune cases and
two of the report half's natural-drift cases (30 -> 28 of 82 without it, at fb16d2c), but
on the report half it made 32 more findings (bench/docs_precision.py at a9511b9: 110 ->
142), a page of another party's API that the product re-exports titled heading by heading
(chai's `assert`, in vitest's docs): a heading names what the page documents, whoever's
it is.

``anchor-typed-key`` (a key the post's sample passes in an object whose declared product
type is closed) was deleted in session 21 on the other projects' held-out figures, where it
decides no token, and restored the same session: on NeuroLink's own docs folder, held out
from the blog it was written on, it anchors real defects (the invented `officeFiles`).

Added in session 22 for the tokens nothing tied to the product (issue 24: 145 of the 198
held-out planted inventions missed were ``not-anchored``), each read off the product's code,
never its prose: ``anchor-enumerated`` (a sentence that lists the product's names presents
each item as the product's) and ``anchor-option-near`` (a flag misspelling an option the
product's own option table declares, where the model reads no parser: prettier's). A third,
``anchor-link-target`` (the text of a link, an MkDocs autoref above all, whose target is a
declared name rooted at a product module), was deleted in session 23: its claims were 19
planted inventions of the tune half and none held out (the report half's planted run at
490b56b, its docs, natural drift and NeuroLink's benches). ``anchor-enumerated`` was
deleted in session 31: measured at fb60842 (last in the chain), its claims were 3 planted
inventions of the tune half and none of the report half's, it made no finding on either
half's docs and decided no natural-drift case; on the NeuroLink blog its 2 findings were
both labelled unsure. Off, at fa5ca0e, the NeuroLink blog's planted inventions
(bench/fabrication_recall.py) lost 2 joined names (281 -> 279 of 353), listed not-anchored.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pytest_postgates.evidence.api_model import ApiModel
from pytest_postgates.evidence.index import RepoIndex
from pytest_postgates.evidence.model_facts import is_product_code
from pytest_postgates.evidence.name_spelling import words
from pytest_postgates.evidence.near_miss import resemblance
from pytest_postgates.evidence.repomap import LANGUAGES
from pytest_postgates.helpers.model_grounding import (
    chain_parts,
    judge_flag,
    long_flag,
    signature_name,
)
from pytest_postgates.helpers.outcome_rules import Repos
from pytest_postgates.helpers.typed_keys import TypedKeys, closed_product_key
from pytest_postgates.post import Post


@dataclass(frozen=True)
class Anchor:
    name: str
    decides: str
    why: str
    tests: str
    # What turning it off changed (bench/ablation.py, bench/results/ablation.json): held out
    # (the report half) and on the tune half; empty until it is measured.
    earns: str = ""


RULES = (
    Anchor(
        "anchor-lint-rule",
        "a claim",
        "a rule in the lint namespace the project configures (`lint_rule_prefix`): the project "
        "declares that namespace its own, so a rule named in it is a claim about its rules",
        "tests/test_gate_symbol_grounding.py::test_real_eslint_rule_grounds_and_invented_one_fails",
        earns=(
            "configuration, not a heuristic: no held-out project configures a lint namespace, "
            "so it decides no held-out token; bench/fabrication_recall.py (NeuroLink, which "
            "configures `neurolink`) off: lint-rule 47 -> 1 caught (the lint part of the "
            "deleted anchor-shape)"
        ),
    ),
    Anchor(
        "anchor-presented-path",
        "a claim",
        "a path into the product's tree: its first segment is a source root (`src/`, "
        "`lib/`) or a folder of the product (never the reader's paths)",
        "tests/test_anchor_rules.py::test_each_way_of_presenting_is_an_anchor_of_its_own",
        earns=(
            "earns held out on inventions, costs held-out precision: its claims are the 2 "
            "caught planted paths (off at 772213b: path 2 -> 0 of 7); on the docs, off, held "
            "out: findings -6, 6 labelled false gone (bench/ablation.py at b9a2a19: docs and "
            "natural drift of the report half; planted inventions of the report half at "
            "1835184, gate 2 as b9a2a19)"
        ),
    ),
    Anchor(
        "anchor-presented-import",
        "a claim",
        "a name a sample of the page imports from the product's package, or a member of one",
        "tests/test_anchor_rules.py::test_each_way_of_presenting_is_an_anchor_of_its_own",
        earns=(
            "earns held out on inventions, costs held-out precision: its claim is 1 caught "
            "planted invention (off at 772213b: 1 lost); on the docs, off, held out: findings "
            "-5, 5 labelled false gone (bench/ablation.py at b9a2a19: docs and natural drift "
            "of the report half; planted inventions of the report half at 1835184, gate 2 as "
            "b9a2a19)"
        ),
    ),
    Anchor(
        "anchor-presented-member",
        "a claim",
        "a member of a capitalised name the product's repository writes (`Provider.x`)",
        "tests/test_anchor_rules.py::test_each_way_of_presenting_is_an_anchor_of_its_own",
        earns=(
            "earns held out on inventions: its claims are 10 caught planted inventions (off "
            "at 772213b: 10 lost); it decided no token of the report half's docs "
            "(bench/ablation.py at b9a2a19: docs and natural drift of the report half; "
            "planted inventions of the report half at 1835184, gate 2 as b9a2a19)"
        ),
    ),
    Anchor(
        "anchor-named",
        "a claim",
        "an identifier whose first word is the product's name (`FastifyDeprecation`)",
        "tests/test_anchor_rules.py::test_a_name_spelled_for_the_product_is_a_claim",
        earns=(
            "earns held out: its claims are 2 caught natural-drift report cases (pm2's "
            "pm2_GRACEFUL_TIMEOUT, pm2_NODE_OPTIONS; off at 7939532: both missed); it decided "
            "no token of the report half's docs (bench/ablation.py at b9a2a19: docs and "
            "natural drift of the report half; planted inventions of the report half at "
            "1835184, gate 2 as b9a2a19)"
        ),
    ),
    Anchor(
        "anchor-typed-key",
        "a claim",
        "the post's own sample writes it as a key of an object whose declared product type is "
        "closed (an option of `generate()`): the model follows the sample to the type, so "
        "the name is an option the product must have (no sample mention alone anchors)",
        "tests/test_gate_symbol_grounding_typed_keys.py::test_a_key_of_a_closed_product_type_is_a_claim",
        earns=(
            "earns held out on NeuroLink's own docs folder (bench/holdout_precision.py): deleted "
            "for a run at 0bc91a0, its labelled defects there fell 18 -> 16 (the invented input "
            "option `officeFiles` of office-documents.md); on the other projects' docs and "
            "inventions it decides no token (bench/ablation.py at b9a2a19); on the blog, off: 2 "
            "labelled defects lost (scoreThreshold)"
        ),
    ),
    Anchor(
        "anchor-listed",
        "a claim",
        "it opens a list item, table row or definition-list term among items that open with "
        "the product's names (a flag: among flags the product's parser takes)",
        "tests/test_anchor_rules.py::test_a_name_listed_with_product_names_is_a_claim",
        earns=(
            "earns held out; off, held out: findings -1, 1 labelled defect lost; its claims "
            "are 1 caught natural-drift report case (ansible-lint's matchblock) and 8 caught "
            "planted inventions (bench/ablation.py at b9a2a19: docs and natural drift of the "
            "report half; planted inventions of the report half at 1835184, gate 2 as "
            "b9a2a19)"
        ),
    ),
    Anchor(
        "anchor-option-near",
        "a claim",
        "a long option the product's code does not write, whose option name (as written, "
        "camelCased or snake_cased: `--cache-strotegy` -> `cacheStrotegy`) is a near miss of "
        "a name the product declares or writes as a key, member or parameter (`cacheStrategy`) "
        "by a misspelling (a letter, or the words swapped; a word added, replaced or changed "
        "is another option of the family as often): "
        "a parser whose options are read from the product's own option table, which the model "
        "does not read as a command line",
        "tests/test_anchor_rules.py::test_a_flag_near_an_option_the_product_declares_is_a_claim",
        earns=(
            "measured at fb60842 (last in the chain, so off = its claims back to not-anchored): "
            "its claims are 10 of prettier's 11 planted flags (tune; 0 before) and 1 of vite's "
            "7 (report half, commander.js and vite run); no finding on either half's docs, no "
            "natural-drift case, nothing on the NeuroLink benches"
        ),
    ),
)

# The ways a page presents a token as the product's (outcome_rules.presentation) that
# anchor it, each its own anchor.
PRESENTED_WAYS = {
    "path": "path",
    "import": "import",
    "member": "member",
}


def anchor(
    text: str,
    kind: str,
    line: int,
    post: Post,
    repos: Repos,
    model: ApiModel | None,
    presented: str | None,
    rules_off: frozenset[str] = frozenset(),
    keys: TypedKeys | None = None,
) -> str | None:
    """The name of the first anchor that ties the token to the product, or None."""
    shown = presented if kind != "flag" else None

    # Two ways hold only where the product's code, not a word list, backs them.
    backed: dict[str, Callable[[], bool]] = {
        "path": lambda: _into_product_tree(text, repos),
        "member": lambda: _head_declared(text, model),
    }

    def presented_as(way: str) -> Callable[[], bool]:
        return lambda: shown == way and backed.get(way, lambda: True)()

    checks: dict[str, Callable[[], bool]] = {
        "anchor-lint-rule": lambda: kind == "lint-rule",
        "anchor-typed-key": lambda: (
            keys is not None and closed_product_key(_bare(text), "symbol", keys) is not None
        ),
        **{
            f"anchor-presented-{suffix}": presented_as(way)
            for suffix, way in PRESENTED_WAYS.items()
        },
        "anchor-option-near": lambda: (
            kind == "flag"
            and model is not None
            and not _parser_read_whole(text, model)
            and _near_an_option(text, model, rules_off)
        ),
        "anchor-named": lambda: _named_for_product(_bare(text), _names(repos)),
        "anchor-listed": lambda: (
            model is not None and _listed_with_product_names(text, line, post, model)
        ),
    }
    for rule in RULES:
        if rule.name not in rules_off and checks[rule.name]():
            return rule.name
    return None


def _into_product_tree(text: str, repos: Repos) -> bool:
    """Whether the path's first folder is one the product's tree has (a `src/` path in a
    project with no `src/` is another repository's or the reader's)."""
    first = text.strip().removeprefix("./").split("/", 1)[0]
    return bool(first) and repos.primary.index.match_path(first + "/") is not None


def _head_declared(text: str, model: ApiModel | None) -> bool:
    """Whether the member's head is a name the product's code declares (a class, constant,
    function: `PipelinePresets.x`); a capitalised word its files only write (a built-in
    `Symbol`, an imported `React`, a name in a comment) is not the product's. With no model,
    as the seeds, any capitalised word of the repository."""
    if model is not None and model.without_code:
        return False  # no product code: no name of it could head the chain
    if model is None or not model.available or not model.facts.decls:
        return True
    head = re.split(r"[.#(\s]", text.strip().lstrip("."), maxsplit=1)[0]
    return any(decl.kind in _HEAD_KINDS for decl in model.declares(head))


# Declarations whose name can head a member chain (not a dict key `{"Symbol": ...}`, a
# parameter, a method or a flag).
_HEAD_KINDS = frozenset({"module", "class", "interface", "type", "enum", "function", "constant"})


def _names(repos: Repos) -> list[str]:
    return [n.lower() for n in repos.product_names if len(n) >= 3]


def _bare(text: str) -> str:
    return re.split(r"[\s:=(]", text.strip(), maxsplit=1)[0]


def code_file_writing(index: RepoIndex, text: str) -> str | None:
    """The first product source file that writes ``text`` as it is (never prose); a
    ``text`` ending in a line break: written at the end of a line."""
    if text.endswith("\n"):
        # The index finds no text across a line break: the end of line is read from the
        # character after each occurrence.
        for path, _before, after in index.occurrences(text[:-1]):
            if after in ("\n", "\r", "") and _source(path):
                return path
        return None
    for path, _offset in index.files_containing(text):
        if _source(path):
            return path
    return None


def _source(path: str) -> bool:
    return is_product_code(path) and Path(path).suffix.lower() in LANGUAGES


# A list item or table row that opens with a code span (`- `name` - ...`, `| `name` |`),
# bare or as a link's text (a contents list: `- [`config.bail` [boolean]](#config-bail)`).
_ITEM_HEAD = re.compile(r"^\s*(?:[-*+]|\d+[.)]|\|)\s*(?:\*\*)?\[?`([^`\n]+)`")


# A definition list's term (Python-Markdown, kramdown, Pandoc): a line that is one code
# span, its definition on the next line after ": ".
_TERM = re.compile(r"^\s*`([^`\n]+)`\s*$")
_TERMS_REACH = 40  # lines either side where the list's other terms are looked for


def _term(lines: list[str], at: int) -> str | None:
    """The term on line ``at`` when it opens a definition-list entry, else None."""
    if not 0 <= at < len(lines) - 1:
        return None
    found = _TERM.match(lines[at])
    return found.group(1) if found and lines[at + 1].lstrip().startswith(": ") else None


def _terms_around(lines: list[str], at: int) -> list[str]:
    """The other terms of the definition list around line ``at``."""
    lower, upper = max(0, at - _TERMS_REACH), min(len(lines), at + _TERMS_REACH + 1)
    return [term for other in range(lower, upper) if other != at and (term := _term(lines, other))]


# A compound identifier (`read_file`, `getQuota`): a plain word proves nothing.
_DISTINCTIVE = re.compile(r"[A-Za-z][a-z0-9]*(?:_[A-Za-z0-9]+|[A-Z][a-z0-9]+)+")


def _listed_with_product_names(text: str, line: int, post: Post, model: ApiModel) -> bool:
    """Whether the token opens a list item or table row among items that open with the
    product's names (at least two of the others resolve in the model): a list of the
    product's tools or functions presents each of its names as the product's, and a list
    of flags two of which the product's parser takes presents each flag as its own."""
    lines, at = post.lines, line - 1
    if _term(lines, at) == text:
        siblings = _terms_around(lines, at)
    else:
        head = _ITEM_HEAD.match(lines[at]) if 0 <= at < len(lines) else None
        if head is None or head.group(1) != text:
            return False
        siblings = []
        for step in (-1, 1):
            other = at + step
            while 0 <= other < len(lines) and lines[other].strip():
                found = _ITEM_HEAD.match(lines[other])
                if found:
                    siblings.append(found.group(1))
                other += step
    real = 0
    for sibling in siblings:
        real += _product_name(text, sibling, model)
        if real >= 2:
            return True
    return False


def _product_name(text: str, sibling: str, model: ApiModel) -> int:
    """How many ways (0, 1 or 2) a sibling of ``text`` in a list is the product's name."""
    if text.startswith("--") and sibling.startswith("--"):
        # A list of flags: a sibling is the product's when its parser takes it.
        return int(model.cli.flag(sibling.split()[0].split("=")[0]) is not None)
    real = 0
    name = signature_name(sibling)  # `def .json()` in a method listing is `.json()`
    if name.startswith(".") and (chain_parts(name[1:]) or [""])[0] in model.member_names:
        real += 1
    parts = chain_parts(name)
    if parts and model.resolve(parts).outcome == "found":
        real += 1
    elif _DISTINCTIVE.fullmatch(name) and name in model.facts.identifiers:
        real += 1  # a name the product's code writes (a tool it registers by string)
    return real


def _parser_read_whole(text: str, model: ApiModel) -> bool:
    """Whether the product's parser, read whole, already said the flag is none of its own
    (model-cli-closed): the option table this anchor stands in for is then read as a
    command line, and a flag near one of its keys is another program's (pytest's
    `--showlocals` in a test script) or no flag at all (an id prefix `--content-tab-`)."""
    decided = judge_flag(text, model)
    return decided is not None and decided.rule == "model-cli-closed"


def _near_an_option(text: str, model: ApiModel, off: frozenset[str]) -> bool:
    """Whether a long option's name, as an identifier (as written, camelCased or
    snake_cased), is a near miss of a name the product declares or writes: the option an
    option table declares by that name (`cacheStrategy: { type: "choice" }`), misspelt."""
    flag = long_flag(text)
    if flag is None or not model.available or not model.facts.decls:
        return False
    name = flag[2:].removeprefix("no-")
    if "-" not in name and len(name) < 5:
        return False  # a short word is near too many names
    camel = re.sub(r"-([a-z0-9])", lambda m: m.group(1).upper(), name)
    snake = name.replace("-", "_")
    # A flag that shares all its words but one with an option (one added, replaced or
    # changed) is as often another option of its family (`--rag-embedding-model` beside
    # `embeddingModel` and `RAG_EMBEDDING_ERROR`, in a post that says the CLI lacks it) as
    # a misspelt one: only a misspelling (a letter changed, added, dropped or swapped; the
    # words swapped) anchors a flag.
    off = off | {"near-word-added", "near-word-replaced", "near-word-changed"}
    return any(
        resemblance(model, variant, key=True, off=off) is not None
        for variant in dict.fromkeys((camel, snake))
        if re.fullmatch(r"[A-Za-z_][\w]*", variant)
    )


def _named_for_product(name: str, products: list[str]) -> bool:
    """Whether an identifier's first word is the product's name and more words follow
    (`FastifyDeprecation`, `neurolink_client`): it claims to be the product's by its spelling.
    A package name (`fastify-auth`) is no identifier: third parties name theirs so."""
    if not re.fullmatch(r"[A-Za-z_$][\w$]*", name):
        return False
    parts = [part.lower() for part in words(name)]
    # `NeuroLinkConfig` reads as neuro-link-config: the product's name may span words.
    return any("".join(parts[:k]) in products for k in range(1, len(parts)))
