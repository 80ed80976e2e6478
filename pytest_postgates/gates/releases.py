"""A versioned docs page judged at the release it documents (gates 2 and 15).

A Docusaurus page under ``versioned_docs/version-X/`` documents release X
(evidence/doc_versions.py), not the code at the ref: a gate that judges names against the
product runs on it with the ref set to the newest tag of X and the evidence read at that
tag (one index and model per tag, as the ref's). With no such tag, or none whose product
can be read, the gate still reads the page for its uses, and lists each one unjudged with
the reason: never judged against the ref, never a silent pass.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, cast

from pytest_postgates.evidence import GitError, doc_versions
from pytest_postgates.evidence.cache import EvidenceCache
from pytest_postgates.gates.base import CannotJudge, CheckResult, GateContext

if TYPE_CHECKING:
    from pytest_postgates.post import Post

Check = Callable[["Post", GateContext], CheckResult]
# What a gate's card becomes when no release can judge the page: its uses, unjudged.
Unjudge = Callable[[CheckResult, str], CheckResult]


def page_release(page: Path, context: GateContext) -> doc_versions.PageRelease | None:
    """The release a versioned docs page documents and its tag (None: not such a page)."""
    listed = doc_versions.listed_version(page)
    if listed is None:
        return None
    version = listed[0]
    if listed[1] >= doc_versions.MAX_VERSIONS:
        return doc_versions.PageRelease(version, reason=doc_versions.too_old(version))
    try:
        evidence = context.evidence.for_post(page)
    except GitError:
        return None  # the gate's check says why there is no repository
    key = ("releases.version", str(evidence.root), version)
    if key not in context.memo:
        package = context.settings.package or evidence.package_name or ""
        context.memo[key] = doc_versions.release_for(evidence.root, version, package)
    return cast(doc_versions.PageRelease, context.memo[key])


def judged_at_release(
    post: Post, context: GateContext, check: Check, unjudge: Unjudge
) -> CheckResult:
    """``check`` of ``post``, at the release the page documents when it is a versioned
    page (its card's ``detail.release`` says which); at the ref otherwise."""
    release = page_release(post.path, context)
    if release is None or release.current:
        return check(post, context)
    why = release.reason
    if release.tag is not None and release.commit is not None:
        settings = replace(context.settings, ref=release.tag)
        key = ("releases.evidence", str(context.evidence.cache_dir), release.commit)
        if key not in context.memo:  # shared by the gates: one index and model per tag
            at = replace(settings, ref=release.commit)
            context.memo[key] = EvidenceCache(at, context.evidence.cache_dir)
        try:
            result = check(post, replace(context, settings=settings, evidence=context.memo[key]))
            result.detail["release"] = release.to_json()
            return result
        except CannotJudge as exc:
            why = doc_versions.cannot_build(release.version, release.tag, exc.reason)
    result = unjudge(check(post, context), why)  # read for its uses only: none judged
    result.detail["release"] = {**release.to_json(), "reason": why}
    return result


def release_inputs(post_path: Path, context: GateContext) -> str:
    """What a versioned page's cached result also depends on: the tag it is judged at."""
    release = page_release(post_path, context)
    if release is None:
        return ""
    return f"|release-{release.version}-{release.commit or release.reason}"
