"""Gate 2's outcomes other than grounded-in-the-configured-repository: which tokens the post
presents as the product's, which it defines itself, which another repository or a declared
dependency grounds, and which are unjudged (a declared codebase this run cannot read).
The not-a-reference rules that read a token's shape or the words around it (commands,
builtins, placeholders, globs, reader files, LaTeX, keywords, other scopes' packages,
negated or hypothetical mentions) and the OpenRouter variant rule were deleted in session
21: turned off, they changed no finding held out (a token nothing ties to the product is
unjudged, ``not-anchored``, whatever its shape)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from pytest_postgates.config import GroundingRepo
from pytest_postgates.evidence.grounding import (
    CODE_KINDS,
    Dependencies,
    NamedIndex,
    PostDefinitions,
    code_evidence,
)
from pytest_postgates.helpers.grounding_rules import (
    CALL,
    FLAG,
    LINE_SUFFIX,
    MEMBER_CHAIN,
    _normalise_chain,
    ground_in,
)

if TYPE_CHECKING:
    from pytest_postgates.evidence.index import RepoIndex
    from pytest_postgates.evidence.lint_rules import LintRules
    from pytest_postgates.post import Post


PRODUCT_VERBS = (
    r"(?:'s|\u2019s|\s+(?:exposes|provides|ships|exports|offers|adds|has|supports|includes"
    r"|introduces|calls|uses|defines|registers|returns|accepts))\b"
)


@dataclass
class Repos:
    """The configured repository first, then the more repositories gate 2 grounds against."""

    primary: NamedIndex
    extras: list[NamedIndex]
    lint: LintRules | None
    dependencies: list[tuple[str, Dependencies]]
    product_names: tuple[str, ...]
    # ``repos`` entries this run cannot read (declared without a path, posts in no git
    # repository): the tokens they claim are listed as unjudged, never grounded.
    unavailable: tuple[GroundingRepo, ...] = ()


# ---------------------------------------------------------------------- the other outcomes


def _head(text: str) -> str:
    chain = _normalise_chain(CALL.sub(lambda m: m.group("callee"), text)).lstrip(".")
    return re.split(r"[.\s/(]", chain, maxsplit=1)[0]


# Paths that are never the repository's files: absolute or home paths, URLs, globs,
# installed packages, and names an example makes up (`foo/`, `my-app/`, `{provider}`).
READERS_PATH = re.compile(
    r"^(?:/|~|[A-Za-z]:\\)|://|[*?{}<>]|(?:^|/)node_modules(?:/|$)"
    r"|(?:^|/)(?:foo|bar|baz|example|examples?-[\w-]+|(?:my|some|your)[-_][\w-]*)(?:[./]|$)",
    re.I,
)


def presented_as_product(
    text: str, sentence: str, offset: int, repos: Repos, definitions: PostDefinitions
) -> bool:
    """Whether the post presents the token as the product's API (:func:`presentation`)."""
    return presentation(text, sentence, offset, repos, definitions) is not None


def presentation(
    text: str, sentence: str, offset: int, repos: Repos, definitions: PostDefinitions
) -> str | None:
    """How the post presents the token as the product's API, or None: a path into its tree
    (``path``), a model id or a flag (``catalogue``), a rule of its lint namespace
    (``lint``), imported from the product package in a fence (``import``), rooted in the
    product's name (``root``), a member of a capitalised name the repository writes
    (``member``), or named right after the product's name ("NeuroLink's `x`", "NeuroLink
    exposes `x`": ``sentence``). Each way is an anchor of its own in
    helpers/anchor_rules.py, measured and ablated apart."""
    head = _head(text)
    names = {n.lower() for n in repos.product_names}
    if "/" in text and READERS_PATH.search(text):
        return None  # the reader's path or an example's, whatever folder it starts with
    if "/" in text and not text.startswith("@"):
        first = text.lstrip("./").split("/", 1)[0]
        if first in SOURCE_ROOTS or repos.primary.index.match_path(first + "/"):
            return "path"  # a path into the product's tree is a claim about it
    if MODEL_ID.match(text) or FLAG.match(text):
        return "catalogue"  # a claim about the product's catalogue or CLI
    if repos.lint is not None and text.startswith(repos.lint.prefix + "/"):
        return "lint"
    bare_name = re.split(r"[.(]", text.lstrip("."), maxsplit=1)[0]
    if bare_name in definitions.product_imports or head in definitions.product_imports:
        return "import"
    if head.lower() in names or text.lower() in names:
        return "root"
    chain = _normalise_chain(text)
    if "." in chain.strip(".") and head[:1].isupper() and repos.primary.index.has_word(head):
        return "member"
    if offset >= 0:
        before = sentence[max(0, offset - 60) : offset]
        for name in repos.product_names:
            if re.search(rf"\b{re.escape(name)}{PRODUCT_VERBS}[^.`]*`?$", before, re.I):
                return "sentence"
    return None


# `gpt-4o`, `claude-sonnet-4-6`, `openai/gpt-4o:nitro`: letters, a dash or slash, a digit.
MODEL_ID = re.compile(r"^(?:[a-z][\w.-]*/)?[a-z][a-z0-9]*-[\w.:-]*\d[\w.:-]*$")
# Folders a path in prose names as the product's own source tree.
SOURCE_ROOTS = frozenset("src lib test tests docs packages scripts bin dist examples".split())


_LISTED_STRING = re.compile(r"""(['"])([^'"\n]+)\1""")
_STRING_LIST = re.compile(r"""\[\s*(?:(['"])[^'"\n]+\1\s*,\s*)*(['"])[^'"\n]+\2\s*\]""")


def defined_in_post(
    text: str, sentence: str, offset: int, repos: Repos, definitions: PostDefinitions
) -> str | None:
    """The fence line declaring the token (a call's callee, a member's last part when its
    head is the post's own too), unless the post presents it as the product's API."""
    callee = CALL.sub(lambda m: m.group("callee"), text).strip()
    chain = _normalise_chain(callee)
    if not MEMBER_CHAIN.match(chain) and not MEMBER_CHAIN.match(callee):
        listed = _STRING_LIST.fullmatch(text)
        if listed and not presented_as_product(text, sentence, offset, repos, definitions):
            # `["erp-connector", "wms-connector"]`: every name the sample gave its own things.
            names = [m.group(2) for m in _LISTED_STRING.finditer(text)]
            lines = [definitions.declared.get(name) for name in names]
            if names and all(line is not None for line in lines):
                return f"fence at line {min(line for line in lines if line is not None)}"
            return None
        line = definitions.declared.get(text)  # a literal the sample names (`crop-guides`)
        if line is not None and not presented_as_product(
            text, sentence, offset, repos, definitions
        ):
            return f"fence at line {line}"
        return None
    parts = [p for p in chain.split(".") if p]
    if not parts:
        return None
    if presented_as_product(text, sentence, offset, repos, definitions):
        return None
    if len(parts) > 1:
        # `retriever.search`: the post declares both, or declares the head and the rest
        # are repository words (a member of the post's own object).
        head_line = definitions.declared.get(parts[0])
        if head_line is None:
            return None
        last_line = definitions.declared.get(parts[-1])
        if last_line is not None:
            return f"fence at line {last_line}"
        return None
    line = definitions.declared.get(parts[0])
    return f"fence at line {line}" if line is not None else None


def external(text: str, kind: str, repos: Repos) -> tuple[str, str] | None:
    """(repository, where) of another repository or a declared dependency grounding it."""
    for extra in repos.extras:
        found, _ = ground_in(extra.index, text, kind, None)
        if found and (kind not in CODE_KINDS or code_evidence(extra.index, text, found.where)):
            # Another repository's prose (its README, its docs, the posts) grounds nothing.
            return extra.name, found.where
    return _dependency(text, repos)


def _dependency(text: str, repos: Repos) -> tuple[str, str] | None:
    """(repository, where) when the token names a package some repository depends on
    (never the product's own package)."""
    package = _package_of(text)
    if not package or package.lower() in {n.lower() for n in repos.product_names}:
        return None
    if package != text and MODEL_ID.match(text):
        return None  # `openai/gpt-4o` is a model id, not a module of the openai package
    for name, deps in repos.dependencies:
        source = deps.source(package)
        if not source:
            continue
        # A name only a lock file holds is a transitive dependency: a plain word there
        # (`retry`, `debug`) says nothing about the token, a distinctive name does.
        if package in deps.direct or re.search(r"[-@/.]", package):
            return name, f"dependency {package} ({source})"
    return None


def _package_of(text: str) -> str | None:
    """The npm/PyPI/crates package a token names (`@scope/name/sub` -> `@scope/name`)."""
    match = re.fullmatch(r"(@[a-z0-9][\w.-]*/[a-z0-9][\w.-]*|[a-z0-9][\w.-]*)(?:/[\w./-]*)?", text)
    return match.group(1) if match else None


def _product_path(text: str, repos: Repos) -> bool:
    """A path the configured repository's tree claims, whatever post names it: one that
    reaches below the product's top level (`src/lib/x.ts` where `src/lib/` exists), or
    starts at a source root the product has (`src/x.ts`). Top-level folders most
    repositories share (`scripts/`, `docs/`, `data/`) do not decide on their own."""
    segments = [s for s in LINE_SUFFIX.sub("", text).lstrip("./").split("/") if s]
    index = repos.primary.index
    if segments[:1] and segments[0] in PRODUCT_SOURCE_ROOTS and index.is_dir(segments[0]):
        return len(segments) >= 2
    return len(segments) >= 3 and index.is_dir("/".join(segments[:2]))


PRODUCT_SOURCE_ROOTS = frozenset("src lib packages".split())


_FOLDER_NAMES: dict[tuple[str, str], frozenset[str]] = {}


def _folder_names(index: RepoIndex) -> frozenset[str]:
    """Every folder name used anywhere in the tree (kept per commit)."""
    key = (str(index.root), index.commit)
    if key not in _FOLDER_NAMES:
        _FOLDER_NAMES[key] = frozenset(
            segment for path in index.paths for segment in path.split("/")[:-1]
        )
    return _FOLDER_NAMES[key]


def declared_tree(text: str, repos: Repos) -> bool:
    """Whether a path names two or more folders whose names the product's tree never
    uses (`src/routes/(shop)/cart/v2/...`): another tree's path. One wrong segment (a
    folder misspelt, a file put in a new folder) leaves at most one such name, so it stays
    the product's path misspelt."""
    folders = [s for s in text.lstrip("./").split("/") if s][:-1]
    known = _folder_names(repos.primary.index)
    return sum(1 for folder in folders if folder not in known) >= 2


def _post_tags(post: Post) -> set[str]:
    """The post's front-matter tags (a list, or one string of space-separated tags)."""
    value = (post.front_matter or {}).get("tags")
    if isinstance(value, str):
        return set(value.split())
    if isinstance(value, list):
        return {str(tag) for tag in value}
    return set()


def unavailable_codebase(
    text: str,
    kind: str,
    post: Post,
    sentence: str,
    offset: int,
    repos: Repos,
    definitions: PostDefinitions,
) -> tuple[GroundingRepo, str] | None:
    """(entry, rule) when a ``repos`` entry this run cannot read claims the token: a path
    under one of its ``prefixes``, or any token of a post its ``posts`` globs or ``tags``
    name that the post does not present as the product's (a model id, a flag, a rule of the
    product's lint namespace, a member of a product class, a path into the product's
    tree stay claims about the product)."""
    if not repos.unavailable:
        return None
    spec = LINE_SUFFIX.sub("", text).removeprefix("./")
    for entry in repos.unavailable:
        if kind in ("path", "filename") and any(spec.startswith(p) for p in entry.prefixes):
            return entry, "declared-prefix"
    post_path = PurePosixPath(Path(post.path).as_posix())
    tags = _post_tags(post)
    for entry in repos.unavailable:
        if not any(post_path.match(glob) for glob in entry.posts) and not tags & set(entry.tags):
            continue
        if kind in ("path", "filename"):
            if MODEL_ID.match(text):
                return None
            if _product_path(text, repos):
                # One wrong segment is the product's path misspelt; two folders or more
                # that the product's tree never uses are the declared codebase's.
                if declared_tree(spec, repos):
                    return entry, "declared-tree"
                return None
        elif presented_as_product(text, sentence, offset, repos, definitions):
            return None
        return entry, "declared-post"
    return None
