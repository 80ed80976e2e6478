"""Gate 6, readability_links (hard): readable paragraphs, and links that lead somewhere.

Readability. A *prose paragraph* is a Markdown paragraph at the top level of the body:
paragraphs inside lists, tables and blockquotes are not prose paragraphs (list items are
fragments by design, and a blockquote is usually someone else's words or a callout box),
nor are headings, code, HTML blocks or anything after the Related-posts boundary. Inline
markup is stripped first: link text is kept, images and inline HTML are dropped, Liquid
tags and kramdown attribute lists are dropped, and each inline code span counts as one
one-syllable word (an identifier is read as a name, and ``ConversationMemoryFactory`` must
not weigh as seven syllables of prose). Hyphen, slash and dash compounds are scored as
their parts: "production-ready" is two words of two syllables each, not one word of four.

House style (:mod:`pytest_postgates.helpers.house_style`): the sentence limit and the Flesch
verdict are the seeds' blog's; where the project sets none of their keys, what they find is
listed on the card as advice and never fails the post.

- Every prose paragraph has at most ``max_paragraph_sentences`` sentences (8).
- A paragraph of at least :data:`MIN_SCORED_WORDS` words is scored alone. Shorter ones
  (lead-ins, captions, "See below.") are not: Flesch on a dozen words measures one word's
  syllables. Their words still count in the post's score, and the scorecard lists them.
- A scored paragraph is *hard to read* (flagged, with its score and why) when its Flesch
  is under the floor (``flesch_floor``) and its longest sentence has at least
  :data:`LONG_SENTENCE_WORDS` words: a reader re-reads a long sentence of many clauses.
  A low score from plain sentences of long words is technical vocabulary, which the
  blog's readers read as names, or a plain enumeration: it is listed with that reason,
  not flagged.
- The readability verdict is the post's: it fails when the whole post's prose (every
  prose paragraph pooled, short ones included) scores under ``post_flesch_floor``, or
  when flagged paragraphs hold at least ``max_hard_prose_share`` of the post's prose
  words. One dense paragraph in an otherwise readable post is reported, not failed.

Flesch reading ease, syllables and compounds are :mod:`pytest_postgates.helpers.readability`;
paragraphs, sentences and links come from the post's prose view (:mod:`pytest_postgates.prose`).
The defaults (:data:`DEFAULT_FLESCH_FLOOR`, :data:`DEFAULT_POST_FLESCH_FLOOR`,
:data:`DEFAULT_MAX_HARD_PROSE_SHARE`) were calibrated with ``bench/measure_readability.py``
on a real published blog: the share of its posts that pass, and how many of the
paragraphs still flagged an editor calls hard to read.

Internal links: ``/posts/<slug>/`` links (the seeds') and links in the site's permalink style
(``_config.yml``'s ``permalink``, ``collections.posts.permalink`` or a posts default; Jekyll's
``date`` style without one), with or without ``url`` and ``baseurl``, name a post of the
corpus; relative ``.md`` links an existing file; ``{% post_url %}`` and ``{% link %}`` an
existing post. Other site paths (``/assets/...``) are listed, not judged.

External links: :mod:`pytest_postgates.tools.links`, every URL of the run in one batch.
Dead (404, 410, unknown host), blocked and malformed links fail; unverified ones (timeouts,
5xx, 429) only with ``unverified_links_fail``; excluded and offline ones never do. An
address on the reader's own machine or network (``localhost``, ``127.0.0.1``, a private
address) and a domain reserved for examples (``example.com``) are examples, listed with
the reason and never requested (:mod:`pytest_postgates.tools.reader_local`), except a
loopback link to a page of the post's own site: a local preview, LOCAL_PREVIEW_LINK.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from pytest_postgates.config import option
from pytest_postgates.gates.base import CheckResult, Decision, Gate, GateContext, PostSource
from pytest_postgates.helpers import house_style
from pytest_postgates.helpers.readability import (
    LONG_SENTENCE_WORDS,
    MIN_SCORED_WORDS,
    Paragraph,
    hyphenation_version,
    judge_readability,
    readability_findings,
    score_paragraph,
    why_hard,
)
from pytest_postgates.post import Post, PostRefused, parse_post, read_post_bytes
from pytest_postgates.prose import LIQUID_LINK, Link
from pytest_postgates.scorecard import Finding
from pytest_postgates.tools import links as linkcheck
from pytest_postgates.tools.link_guard import CHECKED_SCHEMES, url_problem
from pytest_postgates.tools.raw_links import raw_link_urls
from pytest_postgates.tools.reader_local import (
    EXAMPLE,
    preview_path,
    reader_local,
    reserved_example,
)
from pytest_postgates.tools.site import (
    SiteIndex,
    _site_file,
    file_state,
    find_site_root,
    linked_file,
    site_digest,
    site_index,
)

# Calibrated with bench/measure_readability.py on the NeuroLink blog (130 published posts,
# see docs/gates/06-readability-links.md): the paragraph floor (the 5th percentile of
# scored paragraphs, 27.2,
# rounded down to 25: compounds read as their parts score a few points higher than the
# old floor of 20 measured), the post floor (Flesch's own "very difficult" band starts
# under 30) and the share of a post's prose that may be hard to read.
DEFAULT_FLESCH_FLOOR = 25.0
DEFAULT_POST_FLESCH_FLOOR = 30.0
DEFAULT_MAX_HARD_PROSE_SHARE = 0.10
DEFAULT_MAX_PARAGRAPH_SENTENCES = 8  # the seeds'
# House style (helpers/house_style.py): enforced only where one of its keys is set.
LONG_CODES = frozenset({"LONG_PARAGRAPH"})
FLESCH_CODES = frozenset({"LOW_FLESCH", "HARD_TO_READ"})
FLESCH_KEYS = ("flesch_floor", "post_flesch_floor", "max_hard_prose_share")
BATCH_NAME = "readability_links-urls"
DETAIL_LIMIT = 100  # site links listed as not judged
SITE_PATH_UNJUDGED = (
    "a site path that is not shaped like a post's URL and names no post, page or file the "
    "site model finds (a theme, a plugin or the build may make it; a relative link to a "
    "non-Markdown file is not resolved): not judged"
)


# =========================================================================== readability
def prose_paragraphs(post: Post) -> list[Paragraph]:
    """The post's prose paragraphs, scored (see the module docstring for what counts): the
    prose view's top-level paragraphs that hold a word."""
    scored = (
        score_paragraph(p.line, p.end_line, p.reading_text)
        for p in post.prose.paragraphs
        if p.top_level
    )
    return [paragraph for paragraph in scored if paragraph is not None]


# ================================================================================= links
def links_in(post: Post) -> list[Link]:
    """Every link of the body outside code, with the file line it sits on (the view's)."""
    return list(post.prose.links)


def is_external(url: str) -> bool:
    """Whether the link is (or tries to be) a web URL the link checker judges."""
    if re.match(r"(?i)https?//|//", url):
        return True
    scheme = url.split(":", 1)[0].lower() if ":" in url else ""
    return scheme in CHECKED_SCHEMES or bool(scheme and url_problem(url) and "://" in url)


def external_url(url: str) -> str:
    """Protocol-relative links are requested over https."""
    return "https:" + url if url.startswith("//") else url


@dataclass(frozen=True)
class InternalLink:
    line: int
    url: str
    resolves: bool
    reason: str


def run_site_index(post_path: Path, context: GateContext) -> SiteIndex:
    """:func:`site_index` for a post of the current run: built once per folder per run
    (the corpus is what was collected; re-checking every file's version per post cost
    more than the gate on a warm run)."""
    folder = post_path.resolve().parent
    key = ("readability_links.site", folder)
    site = context.memo.get(key)
    if site is None:
        site = context.memo[key] = site_index(post_path, context.batches.posts)
    return site


def judge_internal(link: Link, post: Post, site: SiteIndex) -> InternalLink | None:
    """The verdict on a post-to-post link, or None when the link is not one."""
    url = link.url
    if link.kind == "liquid":
        match = LIQUID_LINK.fullmatch(url)
        assert match is not None
        target = match.group(2)
        if match.group(1) == "post_url":
            name = target.rsplit("/", 1)[-1]
            ok = name in site.stems
            return InternalLink(link.line, url, ok, "" if ok else f"no post named {name}")
        root = find_site_root(post)
        exists = _site_file(root, root / target.lstrip("/"))
        return InternalLink(link.line, url, exists, "" if exists else f"no file {target}")
    if url.startswith("#") or not url:
        return None
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme in CHECKED_SCHEMES:
        if not site.is_own_host(parts.hostname):
            return None
        path = parts.path or "/"
    elif scheme or parts.netloc:
        return None
    else:
        path = parts.path
    if not path:
        return None
    if path.startswith("/"):
        is_post, resolves = site.resolve(path)
        if not is_post:  # a page or file the model finds, else not judged (a theme, a plugin)
            return InternalLink(link.line, url, True, "") if resolves else None
        reason = "" if resolves else f"no post in the corpus has the URL {site.normalise(path)}/"
        return InternalLink(link.line, url, resolves, reason)
    if path.lower().endswith((".md", ".markdown")):
        target = (post.path.parent / unquote(path)).resolve()
        root = site.root or find_site_root(post)
        # MkDocs resolves a page link only to a page of docs_dir.
        inside = site.generator != "mkdocs" or target.is_relative_to(root.resolve())
        ok = inside and (target in site.files or _site_file(root, target))
        return InternalLink(link.line, url, ok, "" if ok else f"no file {unquote(path)}")
    return None


def _corpus_urls(paths: tuple[Path, ...]) -> list[str]:
    """The external URLs of every collected post (the batch the checker answers)."""
    urls: dict[str, None] = {}
    sites: dict[Path, SiteIndex] = {}  # by folder: one look at the site's files each
    for path in paths:
        try:
            text = read_post_bytes(path).decode("utf-8", errors="replace")
        except PostRefused:  # an unreadable or oversized post gets its own ERROR item
            continue
        folder = path.resolve().parent
        site = sites.get(folder) or sites.setdefault(folder, site_index(path, paths))
        for url in raw_link_urls(text.replace("\r\n", "\n")):
            if not is_external(url):
                continue
            url = external_url(url)
            if url_problem(url):
                continue
            try:
                host = urlsplit(url).hostname
            except ValueError:
                continue
            # The site's own links are judged by its model; example domains never requested.
            if site.is_own_host(host) or reserved_example(host or ""):
                continue
            urls[url] = None
    return list(urls)


def _checker(context: GateContext) -> linkcheck.LinkChecker:
    """The run's link checker, made once (its pool classes and exclusion patterns cost a
    few milliseconds a post) and remade only if the run's settings object changes."""
    key = (BATCH_NAME, "checker")
    made = context.memo.get(key)
    if made is None or made[0] is not context.settings:
        checker = linkcheck.LinkChecker.from_settings(context.settings, context.evidence.cache_dir)
        made = context.memo[key] = (context.settings, checker)
    checker_made: linkcheck.LinkChecker = made[1]
    return checker_made


def _in_batch(post: Path, batch_posts: tuple[Path, ...], context: GateContext) -> bool:
    """Whether ``post`` is one of the batch's posts (as given or resolved): the two sets
    are made once per run, not a scan of the tuple (and a resolve of it) for every post."""
    key = (BATCH_NAME, "members")
    members: tuple[tuple[Path, ...], frozenset[Path], frozenset[Path] | None] | None
    members = context.memo.get(key)
    if members is None or members[0] is not batch_posts:
        members = context.memo[key] = (batch_posts, frozenset(batch_posts), None)
    if post in members[1]:
        return True
    resolved = members[2]
    if resolved is None:
        resolved = frozenset(path.resolve() for path in batch_posts)
        context.memo[key] = (batch_posts, members[1], resolved)
    return post.resolve() in resolved


def _external_urls_of(post: Post, site: SiteIndex | None) -> list[str]:
    """Web URLs the link checker must answer for: not malformed, not the site's own."""
    urls = []
    for link in links_in(post):
        if link.kind == "liquid" or not is_external(link.url):
            continue
        url = external_url(link.url)
        if url_problem(url):
            continue
        if site is not None:
            try:
                if site.is_own_host(urlsplit(url).hostname):
                    continue
            except ValueError:
                continue
        urls.append(url)
    return urls


def external_results(
    post: Post, urls: list[str], context: GateContext
) -> dict[str, linkcheck.LinkResult]:
    """Results for ``urls``: from the run's batch over every collected post when this post
    is one of them, otherwise (library use, unit tests) checked here."""
    if not urls:
        return {}
    checker = _checker(context)
    batch_posts = tuple(context.batches.posts_for(BATCH_NAME))
    results: dict[str, linkcheck.LinkResult] = {}
    # Offline, nothing is requested: no batch to share, and no corpus to parse for one.
    if not context.settings.offline and _in_batch(post.path, batch_posts, context):
        batch = context.batches.get(
            BATCH_NAME,
            lambda: {
                url: result.to_dict()
                for url, result in checker.check_many(
                    _corpus_urls(batch_posts), context.announce
                ).items()
            },
        )
        for url in urls:
            if url in batch:
                results[url] = linkcheck.LinkResult.from_dict(batch[url])
    missing = [url for url in urls if url not in results]
    if missing:
        results.update(checker.check_many(missing, context.announce))
    return results


# ================================================================================= gate
_FAILING_LINK_STATUSES = {linkcheck.DEAD, linkcheck.BLOCKED, linkcheck.MALFORMED}
_LINK_CODES = {
    linkcheck.DEAD: (
        "DEAD_LINK",
        "replace the link with a live page (an archived copy if the page is gone) or remove it",
    ),
    linkcheck.BLOCKED: (
        "BLOCKED_LINK",
        "link a public address (the host resolves to a private one); a trusted host can be "
        "listed in allow_hosts",
    ),
    linkcheck.MALFORMED: ("MALFORMED_URL", "fix the URL: scheme, host name and port"),
    linkcheck.UNVERIFIED: (
        "UNVERIFIED_LINK",
        "check the link by hand; if it is fine, add it to link_exclude",
    ),
}


def local_preview_finding(link: Link, path: str) -> Finding:
    """A loopback link to a page of the post's own site: the author's local preview."""
    return Finding(
        link.line,
        "LOCAL_PREVIEW_LINK",
        f"{link.url}: the address of a local preview of this site's own page {path}, "
        "dead for every reader",
        f"link the page by its site path ({path})",
    )


def check(post: Post, context: GateContext) -> CheckResult:
    settings = context.settings
    own = settings.for_gate(ReadabilityLinksSettings)
    floor = DEFAULT_FLESCH_FLOOR if own.flesch_floor is None else own.flesch_floor
    max_sentences = own.max_paragraph_sentences or DEFAULT_MAX_PARAGRAPH_SENTENCES
    findings: list[Finding] = []

    # ---- readability
    paragraphs = prose_paragraphs(post)
    scored = [p for p in paragraphs if p.flesch is not None]
    post_floor = (
        DEFAULT_POST_FLESCH_FLOOR if own.post_flesch_floor is None else own.post_flesch_floor
    )
    max_share = (
        DEFAULT_MAX_HARD_PROSE_SHARE
        if own.max_hard_prose_share is None
        else own.max_hard_prose_share
    )
    readability = judge_readability(paragraphs, floor, post_floor, max_share)
    long = [p for p in paragraphs if p.sentences > max_sentences]
    # Every hard paragraph is a finding; ``decide`` fails the post on them only when they
    # hold the share of its prose words that makes the post hard to read (after any
    # suppression), and on the pooled score of the whole post.
    findings.extend(readability_findings(readability, long, floor, post_floor, max_sentences))

    # House style where the project set none of its keys: advice on the card, not findings.
    house: dict[str, Any] = {}
    if own.max_paragraph_sentences is None:
        sentences = f"at most {max_sentences} sentences a paragraph"
        keys = ("max_paragraph_sentences",)
        findings = house_style.set_aside(findings, LONG_CODES, keys, sentences, house)
    if not house_style.adopted(own.flesch_floor, own.post_flesch_floor, own.max_hard_prose_share):
        flesch = "a Flesch verdict calibrated on its posts"
        findings = house_style.set_aside(findings, FLESCH_CODES, FLESCH_KEYS, flesch, house)

    # ---- links
    site = run_site_index(post.path, context)
    all_links = links_in(post)
    internal: list[InternalLink] = []
    external: list[tuple[int, Link, str]] = []
    malformed: list[tuple[int, dict[str, Any]]] = []
    examples: list[tuple[int, dict[str, Any]]] = []  # reader-local and example addresses
    site_paths: list[dict[str, Any]] = []  # site links not judged
    for position, link in enumerate(all_links):
        if link.kind != "liquid" and is_external(link.url):
            url = external_url(link.url)
            problem = url_problem(url)
            if problem:
                malformed.append(
                    (position, {"line": link.line, "url": link.url, "reason": problem})
                )
                continue
            verdict = judge_internal(link, post, site)
            local = reader_local(url, _checker(context)) if verdict is None else None
            if verdict is not None:
                internal.append(verdict)
            elif local is not None:
                path = preview_path(url, local)
                if path is not None and site.resolve(path)[1]:
                    findings.append(local_preview_finding(link, path))
                examples.append(
                    (position, {"line": link.line, "url": link.url, "status": EXAMPLE,
                                "code": None, "reason": local.reason})
                )  # fmt: skip
            else:
                external.append((position, link, url))
            continue
        verdict = judge_internal(link, post, site)
        if verdict is not None:
            internal.append(verdict)
        elif link.url and not link.url.startswith("#") and ":" not in link.url.split("/")[0]:
            site_paths.append({"line": link.line, "url": link.url})
    broken = [i for i in internal if not i.resolves]
    for item in broken:
        findings.append(
            Finding(
                item.line,
                "BROKEN_INTERNAL_LINK",
                f"{item.url}: {item.reason}",
                "link an existing post (its /posts/<slug>/ URL) or remove the link",
            )
        )
    for _, row in malformed:
        code, fix = _LINK_CODES[linkcheck.MALFORMED]
        findings.append(Finding(row["line"], code, f"{row['url']}: {row['reason']}", fix))

    results = external_results(post, [url for _, _, url in external], context)
    rows: list[tuple[int, dict[str, Any]]] = []  # (document position, row)
    for position, link, url in external:
        result = results[url]
        rows.append(
            (
                position,
                {
                    "line": link.line,
                    "url": link.url,
                    "status": result.status,
                    "code": result.code,
                    "reason": result.reason,
                },
            )
        )
        failing = result.status in _FAILING_LINK_STATUSES or (
            result.status == linkcheck.UNVERIFIED and own.unverified_links_fail
        )
        if failing:
            code, fix = _LINK_CODES[result.status]
            reason = f" ({result.reason})" if result.reason else ""
            findings.append(Finding(link.line, code, f"{link.url}: {result.status}{reason}", fix))
    for position, row in malformed:
        rows.append((position, {**row, "status": linkcheck.MALFORMED, "code": None}))
    rows.extend(examples)
    ordered = [row for _, row in sorted(rows, key=lambda pair: pair[0])]

    def with_status(status: str) -> list[dict[str, Any]]:
        return [row for row in ordered if row["status"] == status]

    links_detail: dict[str, Any] = {
        "checked": sum(
            1
            for row in ordered
            if row["status"] in (linkcheck.OK, linkcheck.DEAD, linkcheck.UNVERIFIED)
        ),
        "ok": len(with_status(linkcheck.OK)),
        "dead": with_status(linkcheck.DEAD),
        "unverified": with_status(linkcheck.UNVERIFIED),
        "blocked": with_status(linkcheck.BLOCKED),
        "unchecked": with_status(linkcheck.UNCHECKED),
        "excluded": with_status(linkcheck.EXCLUDED),
        "malformed": with_status(linkcheck.MALFORMED),
        "examples": with_status(EXAMPLE),
        "urls": ordered,
        "offline": settings.offline,
        "unverified_fails": own.unverified_links_fail,
    }
    findings.sort(key=lambda f: (f.line or 0, f.code))
    detail: dict[str, Any] = {
        "flesch_floor": floor,
        "post_flesch_floor": post_floor,
        "max_hard_prose_share": max_share,
        "long_sentence_words": LONG_SENTENCE_WORDS,
        "max_paragraph_sentences": max_sentences,
        "min_scored_words": MIN_SCORED_WORDS,
        "paragraphs_checked": len(paragraphs),
        "paragraphs_scored": len(scored),
        "post_flesch": readability.post_flesch,
        "hard_prose_share": readability.hard_share,
        "readability": {
            "verdict": "FAIL" if readability.failed else "PASS",
            "reason": readability.reason,
        },
        "low_flesch": [
            {
                "line": p.line,
                "flesch": p.flesch,
                "sentences": p.sentences,
                "words": p.words,
                "why": why_hard(p),
                "text": p.excerpt,
            }
            for p in readability.flagged
        ],
        "low_flesch_not_flagged": [
            {
                "line": p.line,
                "flesch": p.flesch,
                "reason": f"its longest sentence has {p.longest_sentence} words, under "
                f"{LONG_SENTENCE_WORDS:g}: the low score comes from long words "
                "(technical vocabulary) or a plain enumeration, not from hard sentences",
            }
            for p in readability.long_words_only
        ],
        "not_scored_alone": {
            "lines": [p.line for p in readability.too_short],
            "reason": f"under {MIN_SCORED_WORDS} words: Flesch on so few words measures one "
            "word's syllables; their words count in the post's score",
        },
        "long_paragraphs": [
            {"line": p.line, "sentences": p.sentences, "text": p.excerpt} for p in long
        ],
        "internal_links": {
            "checked": len(internal),
            "broken": [{"line": i.line, "url": i.url, "reason": i.reason} for i in broken],
            "permalink": site.template,
            "site": site.generator,
            "site_paths_not_checked": len(site_paths),
            "not_judged": {"links": site_paths[:DETAIL_LIMIT], "reason": SITE_PATH_UNJUDGED},
        },
        "links": links_detail,
    }
    if house:
        detail[house_style.DETAIL_KEY] = house
    parts = [
        f"{len(paragraphs)} paragraphs (post Flesch "
        + ("n/a" if readability.post_flesch is None else f"{readability.post_flesch:.1f}")
        + f", {len(readability.flagged)} hard to read, {len(long)} over {max_sentences} "
        "sentences)",
        f"{len(internal)} internal links ({len(broken)} broken)",
        f"{len(ordered)} external links ({len(links_detail['dead'])} dead, "
        f"{len(links_detail['blocked'])} blocked, {len(malformed)} malformed, "
        f"{len(links_detail['unverified'])} unverified, {len(links_detail['unchecked'])} "
        f"unchecked, {len(examples)} examples)",
    ]
    facts = {
        "summary": "; ".join(parts) + house_style.summary_note(detail),
        "prose_words": sum(p.words for p in paragraphs),
        "flagged_words": {p.line: p.words for p in readability.flagged},
        "max_share": max_share,
    }
    return CheckResult(findings, detail, facts)


def decide(result: CheckResult, settings: ReadabilityLinksSettings) -> Decision:
    """FAIL on any link, sentence-limit or post-score finding left; on hard paragraphs
    only when those left hold ``max_hard_prose_share`` of the post's prose words."""
    facts = result.facts
    hard = [f for f in result.findings if f.code == "LOW_FLESCH"]
    others = [f for f in result.findings if f.code != "LOW_FLESCH"]
    words = facts["prose_words"]
    share = sum(facts["flagged_words"].get(f.line, 0) for f in hard) / words if words else 0.0
    too_hard = bool(hard) and share >= facts["max_share"]
    failing = len(others) + (len(hard) if too_hard else 0)
    detail = dict(result.detail)
    post_score = any(f.code == "HARD_TO_READ" for f in others)
    reasons = []
    if post_score:
        reasons.append(
            f"the post's prose scores Flesch {detail['post_flesch']:.1f}, under "
            f"{detail['post_flesch_floor']:g}"
        )
    if too_hard:
        held = "paragraph holds" if len(hard) == 1 else "paragraphs hold"
        reasons.append(
            f"{len(hard)} hard-to-read {held} {100 * share:.0f}% of the post's prose words "
            f"(limit {100 * facts['max_share']:g}%)"
        )
    if len(hard) != len(facts["flagged_words"]):  # suppression set some aside
        detail["hard_prose_share"] = round(share, 4)
        detail["readability"] = {
            "verdict": "FAIL" if reasons else "PASS",
            "reason": "; ".join(reasons)
            or (
                f"hard-to-read paragraphs left after suppression hold {100 * share:.0f}% of "
                f"the post's prose words (limit {100 * facts['max_share']:g}%)"
            ),
        }
    # The summary counts what the post holds, not the verdict: it stays as checked.
    summary = facts["summary"]
    if reasons:
        summary = f"hard to read: {'; '.join(reasons)}; {summary}"
    return Decision("FAIL" if failing else "PASS", summary, failing, detail)


# ============================================================================ caching
# Posts whose links may name files on disk ({% link %}, relative .md links) are judged
# against the disk: their key also holds the state of exactly the files their links name.
_DISK_LINKS = re.compile(rb"\{%|\.(?:md|markdown)\b", re.IGNORECASE)
# A note's format (see _linked_files); a new one is a miss, never a misread.
_LINKED_FILES_NOTE = "readability_links.linked-files.v1"


def _linked_files(
    post_path: Path, raw: bytes, context: GateContext, source: PostSource | None
) -> list[str] | None:
    """The files the post's links name, from the note the first run left (keyed by the
    post's bytes, path and the code), else from the post parsed now (the run's own parse
    when the runner holds it) and noted for the next run. None: the post cannot be read."""
    results = context.results
    assert results is not None  # GateContext always has one
    # Noted absolute but not resolved: each run resolves them again (links, renames).
    note_key = results.key(6, raw, f"{_LINKED_FILES_NOTE};{post_path.absolute()}", None)
    note = results.load_note(note_key)
    if note is not None:
        try:
            files = json.loads(note)
        except ValueError:
            files = None
        if isinstance(files, list) and all(isinstance(name, str) for name in files):
            return files
    post = source.parsed() if source is not None else parse_post(post_path, raw)
    if post is None or post.fatal_problems:
        return None
    named = (linked_file(link, post) for link in links_in(post))
    files = sorted({str(path.absolute()) for path in named if path is not None})
    results.store_note(note_key, json.dumps(files))
    return files


def _run_site_digest(site: SiteIndex, context: GateContext) -> str:
    """:func:`site_digest` of the run's site model, computed once per model: it sorts and
    hashes every post's slug and path, so per post it made a run quadratic in its posts."""
    key = ("readability_links.site_digest", id(site))
    known = context.memo.get(key)
    if known is None or known[0] is not site:
        known = context.memo[key] = (site, site_digest(site))
    digest: str = known[1]
    return digest


def cache_inputs(post_path: Path, context: GateContext) -> str | None:
    """Offline, the verdict depends on the post and the settings (already in the key), the
    corpus its internal links point into (every post's URL under the site's permalink
    scheme), the hyphenation dictionary and, for links that name files on disk, where each
    of those files resolves and whether it is there (an edit to a linked file re-checks only
    the posts whose links name it). Online, link results come from the network, so the
    gate runs every time (the link checker keeps its own per-URL cache)."""
    if not context.settings.offline:
        return None
    source = context.current
    if source is not None and source.path != post_path:
        source = None
    try:
        raw = source.raw if source is not None else read_post_bytes(post_path)
    except PostRefused:
        return None
    if raw is None:
        return None
    site = run_site_index(post_path, context)
    inputs = f"site={_run_site_digest(site, context)};pyphen={hyphenation_version()}"
    # The parser decodes entities in a link (guide&#46;md names guide.md): so does the test.
    if not _DISK_LINKS.search(raw) and not (
        b"&" in raw and _DISK_LINKS.search(html.unescape(raw.decode("utf-8", "replace")).encode())
    ):
        return inputs
    files = _linked_files(post_path, raw, context, source)
    if files is None:
        return None
    # The roots a linked file must lie inside (MkDocs' docs_dir, the site's folder).
    roots = [str(site.root) if site.root else "", str(find_site_root(Post(path=post_path)))]
    digest = hashlib.sha256()
    for part in [*map(file_state, filter(None, roots)), "\x1e", *map(file_state, files)]:
        digest.update(part.encode("utf-8", "surrogateescape") + b"\0")
    return f"{inputs};files={digest.hexdigest()}"


@dataclass(frozen=True)
class ReadabilityLinksSettings:
    """Gate 6's settings (the link checker's policy, ``link_*`` and ``allow_hosts``, is
    run-wide: tools/links.py reads it)."""

    flesch_floor: float | None = option(
        None,
        "float",
        "a paragraph under this Flesch score (with a long sentence) is hard to read",
        shown_default=f"{DEFAULT_FLESCH_FLOOR:g} (calibrated); the Flesch verdict is advice "
        "unless this or the next two are set",
    )
    post_flesch_floor: float | None = option(
        None,
        "float",
        "the post fails when all its prose pooled scores under this",
        shown_default=f"{DEFAULT_POST_FLESCH_FLOOR:g} (calibrated)",
    )
    max_hard_prose_share: float | None = option(
        None,
        "float",
        "the post fails when hard paragraphs hold this share of its prose words",
        shown_default=f"{DEFAULT_MAX_HARD_PROSE_SHARE:.2f} (calibrated)",
    )
    max_paragraph_sentences: int | None = option(
        None,
        "int",
        "most sentences in one prose paragraph, enforced where set",
        bounds=(1, True, None),
        shown_default=f"{DEFAULT_MAX_PARAGRAPH_SENTENCES} (the seeds'), as advice unless set",
    )
    unverified_links_fail: bool = option(
        False, "bool", "a link still unverified after retries (timeouts, 429, 5xx) fails"
    )


GATE = Gate(
    id=6,
    name="readability_links",
    advisory=False,
    kind="hard",
    description="Paragraphs are readable and every link resolves.",
    check=check,
    decide=decide,
    cache_inputs=cache_inputs,
    batches=(BATCH_NAME,),
    settings=ReadabilityLinksSettings,
)
