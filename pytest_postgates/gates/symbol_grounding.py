"""Gate 2, symbol_grounding (hard): every inline code token in prose is real.

Tokens are the inline code spans of the post's prose (markdown-it's, so double-backtick
spans work), never fenced code, front matter or the Related-posts block: code samples may
use illustrative names, prose claims may not. Each token is classified as the seeds lay
out (lint-rule, sha, path, filename, version, symbol, phrase) and verified against the
repository index at the configured ref. PASS when the grounded share reaches the threshold.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pytest_postgates.code_references import CODE_SPAN
from pytest_postgates.config import option
from pytest_postgates.evidence import GitError
from pytest_postgates.evidence.api_model import ApiModel, api_model
from pytest_postgates.evidence.cli_model import page_cli
from pytest_postgates.evidence.dependency_models import DependencyModels, environment_fingerprint
from pytest_postgates.evidence.grounding import (
    CODE_KINDS,
    PRIMARY_REPOSITORY,
    NamedIndex,
    PostDefinitions,
    code_evidence,
    invisible_characters,
    post_definitions,
)
from pytest_postgates.gates import releases
from pytest_postgates.gates.base import (
    CannotJudge,
    CheckResult,
    Decision,
    Gate,
    GateContext,
    commit_inputs,
)
from pytest_postgates.helpers import versioned_pages
from pytest_postgates.helpers.anchor_rules import anchor, code_file_writing

# The matching and outcome rules live in helpers (issue 14: modules under ~700 lines);
# their names stay importable from here.
from pytest_postgates.helpers.attribution_rules import (
    attribute,
    link_label,
    linked_elsewhere,
)
from pytest_postgates.helpers.command_lines import (
    CommandLine,
    judge_command_span,
    judge_flag_on_page,
    page_command_lines,
)
from pytest_postgates.helpers.dependency_rules import dependency_name, judge_dependency
from pytest_postgates.helpers.grounding_digest import rules_digest
from pytest_postgates.helpers.grounding_rules import (  # noqa: F401 (re-exported)
    CALL,
    FLAG,
    IDENT,
    LINE_SUFFIX,
    MEMBER_CHAIN,
    Grounding,
    classify,
    ground_in,
    long_flag_of_pair,
)
from pytest_postgates.helpers.grounding_summary import unjudged_summary
from pytest_postgates.helpers.history_cues import gone_or_denied
from pytest_postgates.helpers.model_grounding import judge_with_model
from pytest_postgates.helpers.outcome_rules import (  # noqa: F401 (re-exported)
    MODEL_ID,
    READERS_PATH,
    Repos,
    _dependency,
    defined_in_post,
    external,
    presentation,
    presented_as_product,
    unavailable_codebase,
)
from pytest_postgates.helpers.page_names import PageNames, page_reader
from pytest_postgates.helpers.page_names import product_specifier as product_package
from pytest_postgates.helpers.tokens import (  # noqa: F401 (re-exported)
    ALLOWLIST,
    MAX_TOKEN,
    MIME_TYPE,
    NEVER_SYMBOLS,
    PURE_NUMBER,
    QUOTED,
    Token,
    extract_tokens,
)
from pytest_postgates.helpers.typed_keys import (
    TypedKeys,
    closed_product_key,
    product_api,
    unavailable_reason,
)
from pytest_postgates.scorecard import Finding

if TYPE_CHECKING:
    from pytest_postgates.post import Post

MAX_REPORT = 50
MAX_UNREAD = 10


OUTCOMES = (
    "grounded",
    "defined-in-post",
    "external",
    "not-a-reference",
    "unjudged",
    "ungrounded",
)


@dataclass(frozen=True)
class Verdict:
    """What became of one token: exactly one of :data:`OUTCOMES`, with where (grounded,
    defined-in-post, external) or the rule and reason that decided."""

    token: str
    line: int
    kind: str
    outcome: str
    where: str = ""
    reason: str = ""
    repo: str = ""
    rule: str = ""
    source: str = CODE_SPAN  # where the token was written (Token.source)
    also: tuple[int, ...] = ()  # the later lines it is written on again (Token.also)

    @property
    def grounded(self) -> bool:
        return self.outcome == "grounded"

    def to_dict(self) -> dict[str, Any]:
        """The seeds' ``ungrounded[]`` entry shape (and ``source`` when not a code span)."""
        entry: dict[str, Any] = {
            "token": self.token,
            "kind": self.kind,
            "reason": self.reason,
            "line": self.line,
        }
        if self.source != CODE_SPAN:
            entry["source"] = self.source
        if self.rule:
            entry["rule"] = self.rule  # which rule decided (none: every token is a claim)
        if self.also:
            entry["also_lines"] = list(self.also)
        return entry

    def outcome_dict(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"token": self.token, "kind": self.kind, "line": self.line}
        if self.source != CODE_SPAN:
            entry["source"] = self.source
        if self.where:
            entry["where"] = self.where
        if self.repo:
            entry["repo"] = self.repo
        if self.rule:
            entry["rule"] = self.rule
        if self.reason:
            entry["reason"] = self.reason
        return entry


def judge(
    token: Token,
    post: Post,
    repos: Repos,
    definitions: PostDefinitions,
    lint_prefix: str | None,
    keys: TypedKeys | None = None,
    model: ApiModel | None = None,
    unanchored_claims: bool = True,
    rules_off: frozenset[str] = frozenset(),
    page: Callable[[], PageNames] | None = None,
    commands: Callable[[], list[CommandLine]] | None = None,
    dependencies: DependencyModels | None = None,
) -> Verdict:
    text = long_flag_of_pair(token.text) or token.text  # `-L/--lockfile`: judged as --lockfile
    kind = classify(text, lint_prefix)

    def verdict(outcome: str, **fields: str) -> Verdict:
        return Verdict(
            token.text, token.line, kind, outcome, source=token.source, also=token.also, **fields
        )

    primary = repos.primary
    if invisible_characters(text):
        # Grounded as written or not at all: the visible half must never decide.
        if primary.index.contains(text):
            return verdict(
                "grounded",
                where=primary.index.locate(text) or "text",
                repo=primary.name,
                rule="as-written",
            )
        names = ", ".join(invisible_characters(text))
        return verdict("ungrounded", reason=f"holds invisible {names}; not found as written")
    # A flag belongs to the command it follows on the page (command_lines).
    on_page = None
    if kind == "flag" and commands is not None and model is not None:
        on_page = judge_flag_on_page(text, commands(), model)
    elif kind == "phrase" and model is not None:  # a span that runs the product's command
        package = repos.product_names[0] if repos.product_names else ""
        on_page = judge_command_span(text, token.line, model, package)
    if on_page is not None and on_page.rule not in rules_off:
        gone = on_page.outcome == "ungrounded" and gone_or_denied(
            post.prose, token.line, token.text, text, rules_off
        )
        if gone:  # a flag the page says the product dropped (or lacks): its past
            return verdict("unjudged", rule=gone[0], reason=gone[1])
        repo = primary.name if on_page.outcome == "grounded" else ""
        return verdict(
            on_page.outcome,
            where=on_page.where,
            rule=on_page.rule,
            reason=on_page.reason,
            repo=repo,
        )
    dependency = _dependency(text, repos)
    if dependency:
        # A package the repository depends on is another product, even though its name is
        # written in the manifest.
        return verdict("external", repo=dependency[0], where=dependency[1])
    # The API model first: a token anchored to the product is judged name for name against
    # its code, never by a search of text (model_grounding).
    decided = (
        judge_with_model(
            text,
            kind,
            model,
            lambda chain: code_file_writing(primary.index, chain),
            rules_off,
        )
        if model is not None
        else None
    )
    if decided is not None and decided.outcome == "grounded":
        return verdict("grounded", where=decided.where, repo=primary.name, rule=decided.rule)
    # Rooted in a declared dependency or the standard library: judged against its model.
    owned = (
        judge_dependency(text, model, dependencies, page, rules_off)
        if dependencies is not None and model is not None and kind != "flag"
        else None
    )
    if owned is not None and owned.outcome == "external":
        return verdict("external", where=owned.where, rule=owned.rule)
    if owned is not None and owned.outcome == "grounded":  # the product imports it
        return verdict("grounded", where=owned.where, repo=primary.name, rule=owned.rule)
    why = decided.reason if decided is not None else ""
    prose_only = False
    if decided is None:
        found, why = ground_in(primary.index, text, kind, repos.lint)
        if found and kind in CODE_KINDS and _text_rule_off(found.rule, rules_off):
            why = f"found in the code's text by {found.rule or 'text'}, turned off"
            found = None
        if found and kind in CODE_KINDS and not code_evidence(primary.index, text, found.where):
            # Prose is never evidence for a code name: the README or a doc repeating a name
            # does not make it the code's (DESIGN.md, non-negotiables). Not anchored to the
            # product either, it ends unjudged, listed with the reason.
            found, prose_only = None, True
        if found:
            return verdict("grounded", where=found.where, repo=primary.name, rule=found.rule)
    # The page links the name to another party's address: whose it is, said by the page's
    # structure (a name that grounds is grounded above, wherever it links).
    linked = (
        None if "linked-elsewhere" in rules_off else linked_elsewhere(token, repos, post, model)
    )
    if linked:
        return verdict(linked[0], rule=linked[1], reason=linked[2])
    label = link_label(token, kind, repos)
    if label and label[0] == "grounded":
        return verdict("grounded", where=label[2], repo=primary.name, rule=label[1])
    if label:
        return verdict(label[0], rule=label[1], reason=label[2])
    sentence, offset = post.prose.code_span_sentence(token.line, token.text)
    other = external(text, kind, repos)
    if other:
        return verdict("external", repo=other[0], where=other[1])
    declared = defined_in_post(text, sentence, offset, repos, definitions)
    # A key the sample writes in an object of a closed product type is an option of the
    # product, never the post's own definition (typed_keys).
    if declared and not closed_product_key(text, kind, keys):
        return verdict("defined-in-post", where=declared)
    # A name written as the product's past, or one the sentence says the product lacks (or
    # will add), is no claim that the product has it now (history_cues).
    gone = gone_or_denied(post.prose, token.line, token.text, text, rules_off)
    if gone:
        return verdict("unjudged", rule=gone[0], reason=gone[1])
    if owned is not None:  # rooted in a dependency: its model decides (dependency_rules)
        return verdict(owned.outcome, rule=owned.rule, reason=owned.reason)
    named = (
        dependency_name(decided.missed or text, model, dependencies)
        if decided is not None
        and decided.outcome == "ungrounded"
        and dependencies is not None
        and model is not None
        and "dependency-name" not in rules_off
        else None
    )
    if named is not None:  # a name of what the product builds on (dependency_rules)
        return verdict(named.outcome, rule=named.rule, reason=named.reason)
    # A flag the product's parser, read whole, lacks (near none of its flags, on no page of
    # a package of its own): never grounded by the text, a claim only if an anchor says so.
    closed = ("model-cli-closed", "unjudged")
    listed = decided is not None and (decided.rule, decided.outcome) == closed
    weak = decided is not None and decided.rule in ("model-near-miss", "model-cli-closed")
    if decided is not None and not weak:
        # Rooted in the product: the product's code decides, whatever the sentence says.
        return verdict(decided.outcome, rule=decided.rule, reason=decided.reason)
    # A near miss is a weak anchor: a sentence that gives the name to another party, or
    # the page's own sample that passes it in, still decides (attribution, below).
    attributed = None
    presented = presentation(text, sentence, offset, repos, definitions)
    if not presented:
        attributed = attribute(text, token, post, repos, definitions, rules_off)
    if attributed:
        outcome, by, reason = attributed
        if outcome == "defined-in-post":
            return verdict(outcome, where=reason, rule=by)
        return verdict(outcome, rule=by, reason=reason)
    codebase = unavailable_codebase(text, kind, post, sentence, offset, repos, definitions)
    if codebase:
        return verdict(
            "unjudged",
            repo=codebase[0].name,
            rule=codebase[1],
            reason=f"names code in {codebase[0].name}, which is not available to this run",
        )
    if decided is not None and not listed:
        return verdict("ungrounded", rule=decided.rule, reason=decided.reason)
    if prose_only and "prose-only" not in rules_off:
        return verdict(
            "unjudged",
            rule="prose-only",
            reason="not anchored to the product's code, and only prose (docs, READMEs) writes "
            "it: prose is no evidence for a code name",
        )
    anchored = anchor(
        text,
        kind,
        token.line,
        post,
        repos,
        model,
        presented,
        rules_off,
        keys,
    )
    if anchored is None and unanchored_claims:
        anchored = "unanchored-claims"  # the seeds' way: every token is a claim
    if anchored is None and listed and decided is not None:
        return verdict("unjudged", rule=decided.rule, reason=decided.reason)
    if anchored is None:
        # Nothing ties the token to the product: not rooted in it, no near miss of its
        # names, not presented as its by the sentence. A third party's name, an example
        # the reader makes up: listed, never counted either way (issue 24).
        return verdict(
            "unjudged",
            rule="not-anchored",
            reason=f"not the product's: nothing ties it to the product's code ({why})",
        )
    if (
        anchored != "unanchored-claims"
        and dependencies is not None
        and model is not None
        and "dependency-name" not in rules_off
    ):
        # Claimed by an anchor, yet a name of what the product builds on (dependency_rules).
        named = dependency_name(text, model, dependencies)
        if named is not None:
            return verdict(named.outcome, rule=named.rule, reason=named.reason)
    return verdict("ungrounded", rule=anchored, reason=why)


def _text_rule_off(rule: str, rules_off: frozenset[str]) -> bool:
    """Whether a text grounding of a code name is turned off (an ablation): by its rule's
    name (``text`` for a grounding with none), or all of them as ``text-grounding``."""
    return "text-grounding" in rules_off or (rule or "text") in rules_off


def _repos_for(post: Post, context: GateContext) -> Repos:
    evidence = context.evidence.for_post(post.path)
    index = context.evidence.index_for(post.path)
    primary = NamedIndex(PRIMARY_REPOSITORY, index)
    extras = context.evidence.extra_indexes_for(post.path)
    deps = [(r.name, context.evidence.dependencies_for(r.index)) for r in (primary, *extras)]
    return Repos(
        primary=primary,
        extras=extras,
        lint=context.evidence.lint_rules_for(post.path),
        dependencies=deps,
        product_names=tuple(evidence.product_names) + _product_words(evidence.product_names),
        unavailable=tuple(context.evidence.unavailable_repos_for(post.path)),
    )


def _product_words(names: tuple[str, ...]) -> tuple[str, ...]:
    """The product's display name as prose writes it (`neurolink` -> also `NeuroLink`)."""
    return tuple(n for n in names if "/" not in n and n.isalpha())


def check(post: Post, context: GateContext) -> CheckResult:
    """A versioned docs page (evidence/doc_versions.py) is judged against the product at the
    newest tag of the release it documents; with none (or none readable), at no ref."""
    return releases.judged_at_release(post, context, _check, unjudged_at_no_release)


def unjudged_at_no_release(result: CheckResult, why: str) -> CheckResult:
    """Gate 2's card of a versioned page no release can judge: its claims unjudged; a token
    holding invisible characters is still a finding (no release makes it a name)."""
    kept = [f for f in result.findings if f.code == "INVISIBLE_CHARACTER"]
    return CheckResult(kept, versioned_pages.unjudged_tokens(result.detail, why))


def _check(post: Post, context: GateContext) -> CheckResult:
    settings = context.settings
    threshold = settings.for_gate(SymbolGroundingSettings).symbol_grounding_threshold
    tokens = extract_tokens(post, ALLOWLIST | frozenset(settings.symbol_allowlist))
    detail: dict[str, Any]
    if not tokens:
        detail = {
            "total": 0,
            "claims": 0,
            "grounded": 0,
            "grounded_pct": 100.0,
            "threshold": threshold,
            "ungrounded": [],
            "note": "no backticked identifiers in prose",
        }
        return CheckResult([], detail)
    try:
        repos = _repos_for(post, context)
    except GitError as exc:
        raise CannotJudge("ERROR", str(exc)) from None
    prefix = settings.lint_rule_prefix if repos.lint is not None else None
    index = repos.primary.index

    cache_dir = context.evidence.cache_dir
    model = page_cli(api_model(index, cache_dir), index, post.path)

    def is_repo_class(name: str) -> bool:
        # The product's code declares the class (a fenced re-sketch of it is no
        # definition of the post's); a class a Markdown file writes is not one.
        return name in model.classes

    def is_repo_file(name: str) -> bool:
        spec = name.removeprefix("./")
        return bool(index.match_path(spec) or index.match_filename(spec.rsplit("/", 1)[-1]))

    package = settings.package or context.evidence.for_post(post.path).package_name
    ours = product_package(model, (*repos.product_names, package or ""))
    definitions = post_definitions(post, repos.product_names, is_repo_class, is_repo_file, ours)
    keys = TypedKeys(
        post,
        index,
        lambda: product_api(index, cache_dir, package),
        lambda: unavailable_reason(index, cache_dir, package),
    )
    own = settings.for_gate(SymbolGroundingSettings)
    off = frozenset(own.symbol_rules_off)
    page = page_reader(post, model, repos.product_names, package)
    lines: list[list[CommandLine]] = []
    dependencies = context.evidence.dependency_models_for(
        index, lambda: any(d.path.endswith((".py", ".pyi")) for d in model.facts.decls)
    )

    def commands() -> list[CommandLine]:  # read on the first flag only
        if not lines:
            lines.append(page_command_lines(post, model, package or ""))
        return lines[0]

    verdicts = [
        judge(
            token,
            post,
            repos,
            definitions,
            prefix,
            keys,
            model,
            own.symbol_unanchored_claims,
            off,
            page,
            commands,
            dependencies,
        )
        for token in tokens
    ]
    keys.save()
    unavailable = keys.unavailable()
    by_outcome: dict[str, list[Verdict]] = {outcome: [] for outcome in OUTCOMES}
    for v in verdicts:
        by_outcome[v.outcome].append(v)
    grounded = len(by_outcome["grounded"])
    ungrounded = by_outcome["ungrounded"]
    claims = grounded + len(ungrounded)
    detail = {
        "total": len(verdicts),
        "claims": claims,
        "grounded": grounded,
        "grounded_pct": round(grounded / claims * 1000) / 10 if claims else 100.0,
        "threshold": threshold,
        "ref": settings.ref,
        "ungrounded": [v.to_dict() for v in ungrounded[:MAX_REPORT]],
        "outcomes": {
            outcome: [v.outcome_dict() for v in by_outcome[outcome]]
            for outcome in OUTCOMES
            # `unjudged` appears only when a declared codebase is not available, so the
            # cards of runs that declare none keep their shape.
            if outcome != "ungrounded" and (outcome != "unjudged" or by_outcome[outcome])
        },
    }
    if unavailable:
        # The type-directed key rule was asked and could not read the product's types: it
        # decided nothing (the tokens stay claims); say why rather than stay silent.
        detail["typed_keys_unavailable"] = unavailable
    missing = sorted({v.reason for v in verdicts if v.rule == "dependency-not-installed"})
    if missing:
        detail["dependencies_not_installed"] = missing  # why those names are unjudged
    if repos.unavailable:
        detail["unavailable_repos"] = sorted(r.name for r in repos.unavailable)
    if repos.extras:
        detail["repos"] = [repos.primary.name] + [r.name for r in repos.extras]
    if repos.lint is not None:
        detail["lint_rules"] = [rule.name for rule in repos.lint.rules]
    if model.facts.unread:
        # What the API model could not read, so a reader knows where its answers stop.
        unread = sorted(model.facts.unread.items())
        detail["model_unread"] = {
            "count": len(unread),
            "files": [f"{path}: {why}" for path, why in unread[:MAX_UNREAD]],
        }
    if index.by_name_only:
        # Files too large to search: a name found only in one of them was not found.
        detail["indexed_by_name_only"] = index.by_name_only[:MAX_REPORT]
    findings = [
        Finding(
            t.line,
            "INVISIBLE_CHARACTER",
            f"`{t.text.encode('unicode_escape').decode('ascii')}` holds "
            f"{', '.join(invisible_characters(t.text))}: it reads as a name it is not",
            "delete the invisible characters and write the name as the repository spells it",
        )
        for t in tokens
        if invisible_characters(t.text)
    ]
    # One finding per line the token is written on: each a place to fix, each suppressible.
    findings += [
        Finding(
            line,
            "UNGROUNDED",
            f"`{v.token}` ({v.kind}): {v.reason}",
            "not a real repo symbol: remove it, replace it with a real one, "
            "or move the example into a fenced code block",
        )
        for v in ungrounded
        for line in (v.line, *v.also)
    ]
    return CheckResult(findings, detail)


def entry_lines(entry: dict[str, Any]) -> list[int]:
    """Every line an ``ungrounded`` entry of the card names: its first, then ``also_lines``."""
    return [int(entry.get("line", 0)), *(int(n) for n in entry.get("also_lines") or ())]


def _kept(entry: dict[str, Any], kept_lines: set[int | None]) -> dict[str, Any] | None:
    """An ``ungrounded`` entry as suppression leaves it: its lines still holding a finding
    (the first of them its ``line``), or None when every one was suppressed."""
    lines = [n for n in entry_lines(entry) if n in kept_lines]
    if not lines:
        return None
    kept = {k: v for k, v in entry.items() if k != "also_lines"}
    kept["line"] = lines[0]
    if lines[1:]:
        kept["also_lines"] = lines[1:]
    return kept


def decide(result: CheckResult, settings: SymbolGroundingSettings) -> Decision:
    """The grounded share of the claims left: one UNGROUNDED finding per line an ungrounded
    token is written on, so a token every one of whose lines is suppressed leaves the count
    (tokens and claims) and the share is computed over the rest. A kept
    INVISIBLE_CHARACTER finding fails the post whatever the share."""
    detail = result.detail
    if not detail["total"]:
        return Decision("PASS", "no inline code tokens in prose", 100.0)
    kept = [f for f in result.findings if f.code == "UNGROUNDED"]
    invisible = [f for f in result.findings if f.code == "INVISIBLE_CHARACTER"]
    grounded = detail["grounded"]
    claims_before = detail.get("claims", detail["total"])
    ungrounded_before = claims_before - grounded
    # A token's findings share one message (tokens of a page are distinct, and the message
    # names the token), so the tokens left are the distinct messages left.
    kept_tokens = len({f.message for f in kept})
    suppressed = max(0, ungrounded_before - kept_tokens)
    claims = grounded + kept_tokens
    total = detail["total"] - suppressed
    pct = round(grounded / claims * 1000) / 10 if claims else 100.0
    threshold = detail["threshold"]
    verdict: Literal["PASS", "FAIL"] = "PASS" if pct >= threshold and not invisible else "FAIL"
    # Suppression is by line, so the tokens left are those on lines still holding findings.
    kept_lines = {f.line for f in kept}
    detail = dict(detail)
    detail.update(
        total=total,
        grounded_pct=pct,
        ungrounded=[
            entry
            for entry in (_kept(u, kept_lines) for u in detail["ungrounded"])
            if entry is not None
        ],
    )
    if "claims" in detail:
        detail["claims"] = claims
    comparison = ">=" if pct >= threshold else "<"
    summary = f"{grounded}/{claims} claims grounded ({pct}% {comparison} {threshold}%)"
    summary += unjudged_summary(detail, total - claims, len(invisible))
    if "release" in detail:  # a versioned page: the release it was judged at, or why not
        summary += f"; {versioned_pages.summary_note(detail['release'])}"
    return Decision(verdict, summary, pct, detail)


def cache_inputs(post_path: Path, context: GateContext) -> str | None:
    """The result depends on the post, the settings, every grounding commit and the
    grounding rules themselves."""
    primary = commit_inputs(post_path, context)
    if primary is None:
        return None
    try:
        extras = context.evidence.extra_indexes_for(post_path)
        root = context.evidence.root_for(post_path)  # not the index: a cached run loads none
    except GitError:
        return None
    # The installed dependencies are evidence too: a changed environment is another key.
    primary += releases.release_inputs(post_path, context)  # a versioned page: its tag
    parts = [primary, _rules_fingerprint(), environment_fingerprint(root)]
    return ";".join(parts + [f"{r.name}={r.index.root}@{r.index.commit}" for r in extras])


_RULES_FINGERPRINT = rules_digest(__file__, releases.__file__)


def _rules_fingerprint() -> str:
    """A changed rule never serves a cached verdict."""
    return _RULES_FINGERPRINT


@dataclass(frozen=True)
class SymbolGroundingSettings:
    """Gate 2's settings (its allowlist, ``symbol_allowlist``, is run-wide: the repository
    slices the judges read skip the same tokens)."""

    symbol_grounding_threshold: float = option(
        95.0,
        "float",
        "the share of claims (%) that must be grounded",
        env="SYMBOL_GROUNDING_THRESHOLD",
    )
    symbol_rules_off: tuple[str, ...] = option(
        (),
        "strs",
        "gate 2 rules to turn off, by name (the API model's rules, the anchors, the page's own "
        "samples' rules, historical, linked-elsewhere, the dependency rules, "
        "the clearing rules of helpers/clearing_rules.py, the near-miss ways of "
        "evidence/near_miss.py, prose-only, and the text groundings of code names by their "
        "rule, or all of them as text-grounding): an ablation, or a rule that misfires on "
        "a project; the token then goes to the next rule",
    )
    symbol_unanchored_claims: bool = option(
        False,
        "bool",
        "count tokens that nothing ties to the product (not rooted in its code, no near miss "
        "of its names, not presented as its: no anchor of helpers/anchor_rules.py) as claims, "
        "as the seeds do; false (the default) lists them as unjudged (rule not-anchored)",
    )


GATE = Gate(
    id=2,
    name="symbol_grounding",
    advisory=False,
    kind="hard",
    description="Inline code in prose names real repository symbols, files and rules.",
    check=check,
    decide=decide,
    cache_inputs=cache_inputs,
    settings=SymbolGroundingSettings,
)
