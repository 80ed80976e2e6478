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

Flesch reading ease is 206.835 - 1.015 x words/sentence - 84.6 x syllables/word with
textstat's word count and textstat's English hyphenation dictionary (pyphen ``en_US``) for
syllables. Two deliberate differences from calling ``textstat.flesch_reading_ease``:
textstat's English syllable path loads the CMU dictionary through NLTK, which downloads
it at run time (a network request in a test run, and a crash without network), so the
syllables are textstat's own pyphen fallback for every word; and sentences are split by
:func:`split_sentences` (sentence-final punctuation followed by a capital, a digit or code),
because textstat splits at every period, so ``post.py`` and ``v1.2.3`` would end sentences.
The defaults (:data:`DEFAULT_FLESCH_FLOOR`, :data:`DEFAULT_POST_FLESCH_FLOOR`,
:data:`DEFAULT_MAX_HARD_PROSE_SHARE`) were calibrated with ``bench/measure_readability.py``
on a real published blog: the share of its posts that pass, and how many of the
paragraphs still flagged an editor calls hard to read.

Internal links: ``/posts/<slug>/`` links (the seeds' convention) and links in the site's
permalink style from ``_config.yml`` (``permalink``, ``collections.posts.permalink`` or a
posts front-matter default; Jekyll's ``date`` style when there is none), with or without
the site's ``url`` and ``baseurl``, must name a post of the corpus: the post's own folder
and every collected post. Relative ``.md`` links must name an existing file. ``{% post_url
%}`` and ``{% link %}`` tags must name an existing post. Other site paths (``/assets/...``)
are listed but not judged: the corpus rarely ships the site's assets.

External links: :mod:`pytest_postgates.tools.links`, all URLs of all collected posts in one batch
per test run, so each URL is requested once however many posts and xdist workers share it.
Dead (404, 410, unknown host), blocked (private or metadata address) and malformed links
fail the gate; unverified links (timeouts, 5xx, 429, bot protection) fail it only with
``unverified_links_fail``; excluded and offline (unchecked) links never do.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

import pyphen

from pytest_postgates.config import Settings
from pytest_postgates.gates.base import CheckResult, Decision, Gate, GateContext
from pytest_postgates.post import Post, PostRefused, read_post_bytes
from pytest_postgates.scan import (
    Alternation,
    CodeSpanNoRepeat,
    Delimited,
    closed_by_string,
)
from pytest_postgates.scorecard import Finding
from pytest_postgates.tools import links as linkcheck
from pytest_postgates.tools.site import (
    SiteIndex,
    _site_file,
    find_site_root,
    site_index,
)

if TYPE_CHECKING:
    from markdown_it.token import Token


# Calibrated with bench/measure_readability.py on the NeuroLink blog (130 published posts,
# see the README): the paragraph floor (the 5th percentile of scored paragraphs, 27.2,
# rounded down to 25: compounds read as their parts score a few points higher than the
# old floor of 20 measured), the post floor (Flesch's own "very difficult" band starts
# under 30) and the share of a post's prose that may be hard to read.
DEFAULT_FLESCH_FLOOR = 25.0
DEFAULT_POST_FLESCH_FLOOR = 30.0
DEFAULT_MAX_HARD_PROSE_SHARE = 0.10
MIN_SCORED_WORDS = 20
LONG_SENTENCE_WORDS = 40.0
BATCH_NAME = "readability_links-urls"
EXCERPT = 100

# Flesch (1948) constants for English, as in textstat's language table.
FRE_BASE, FRE_SENTENCE_LENGTH, FRE_SYLLABLES_PER_WORD = 206.835, 1.015, 84.6
CODE_MARK = "\x00"  # stands for an inline code span until scoring
CODE_WORD = "code"  # what a code span counts as when scoring: one word, one syllable


@cache
def _hyphenator() -> pyphen.Pyphen:
    # Loading the dictionary takes a fifth of a second; a run served from the result
    # cache never needs it.
    return pyphen.Pyphen(lang="en_US")


# \{%.*?%\}|\{\{.*?\}\}|\{:[^}]*\} (DOTALL), scanned in linear time: as a regex, every
# unclosed ``{%`` read the rest of the paragraph again.
_LIQUID = Alternation(
    r"\{%.*?%\}|\{\{.*?\}\}|\{:[^}]*\}",
    [
        Delimited(r"\{%.*?%\}", re.compile(r"\{%"), closed_by_string("%}")),
        Delimited(r"\{\{.*?\}\}", re.compile(r"\{\{"), closed_by_string("}}")),
        Delimited(r"\{:[^}]*\}", re.compile(r"\{:"), closed_by_string("}")),
    ],
)
_WORD_STRIP = re.compile(r"[^\w\s']")
# Hyphens, slashes and dashes between two word characters join parts, not syllables:
# "production-ready", "read/write", "input\u2014output" are scored as their words.
_COMPOUND_JOINER = re.compile(r"(?<=[^\W_])[-/\u2010-\u2015](?=[^\W_])")
_ABBREVIATIONS = frozenset(
    "e.g i.e etc vs cf al approx fig no mr mrs ms dr prof sr jr st inc ltd co a.k.a u.s".split()
)
# Sentence-final punctuation (plus closing quotes/brackets), then space and a sentence
# start (capital, digit, opening quote/bracket, code), or the end of the paragraph.
# Possessive, and never starting inside a run of punctuation: each start in a long run
# of ``.`` otherwise re-read the run (the matches are the same: a shorter run leaves a
# ``.`` where the lookahead needs a space, and every start in a run shares its end).
_BOUNDARY = re.compile(
    r"(?<![.!?])[.!?]++[\"'\u201d\u2019)\]]*+"
    r"(?=\s+[\"'\u201c\u2018(\[*_]*[A-Z0-9" + CODE_MARK + r"]|\s*$)"
)
_WORD_OR_DOT = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.")


def _last_word(text: str) -> str | None:
    """``re.search(r"([A-Za-z][A-Za-z.]*)$", text).group(1)``, read from the end: the regex
    re-read a long run of letters from each of its letters when the text did not end in it.
    """
    end = len(text) - 1 if text.endswith("\n") else len(text)  # "$" also matches there
    start = end
    while start > 0 and text[start - 1] in _WORD_OR_DOT:
        start -= 1
    while start < end and text[start] == ".":
        start += 1
    return text[start:end] if start < end else None


# =========================================================================== readability
@dataclass(frozen=True)
class Paragraph:
    line: int  # first file line
    end_line: int
    text: str  # plain text, code spans marked with CODE_MARK
    words: int
    sentences: int
    flesch: float | None  # None: too short to score alone
    syllables: int = 0
    longest_sentence: int = 0  # words in the paragraph's longest sentence

    @property
    def words_per_sentence(self) -> float:
        return self.words / max(1, self.sentences)

    @property
    def syllables_per_word(self) -> float:
        return self.syllables / max(1, self.words)

    @property
    def excerpt(self) -> str:
        text = self.text.replace(CODE_MARK, "`code`")
        return text if len(text) <= EXCERPT else text[: EXCERPT - 3].rstrip() + "..."


def split_sentences(text: str) -> list[str]:
    """Sentences of a plain-text paragraph.

    A sentence ends at ``.``, ``!`` or ``?`` followed by whitespace and something that
    starts a sentence (a capital, a digit, an opening quote or bracket, a code span), or
    at the end of the paragraph; ``e.g.``, ``vs.`` and single initials do not end one.
    File names, versions and URLs (``post.py``, ``1.2.3``) have no space after the dot.
    """
    sentences: list[str] = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        if match.end() <= start:
            continue
        if match.group(0).startswith("."):
            word = _last_word(text[start : match.start()])
            if word:
                token = word.lower().rstrip(".")
                if token in _ABBREVIATIONS or (len(token) == 1 and word.isupper()):
                    continue
        sentence = text[start : match.end()].strip()
        if _has_word(sentence):
            sentences.append(sentence)
        start = match.end()
    tail = text[start:].strip()
    if _has_word(tail):
        sentences.append(tail)
    return sentences


_WORDLIKE = re.compile(r"[^\W_]|" + CODE_MARK)


def _has_word(text: str) -> bool:
    return _WORDLIKE.search(text) is not None


def _scoring_text(text: str) -> str:
    return text.replace(CODE_MARK, f" {CODE_WORD} ")


def words_of(text: str) -> list[str]:
    """Words as textstat counts them (punctuation removed, contractions kept), with
    hyphen, slash and dash compounds split into their parts."""
    return _WORD_STRIP.sub("", _COMPOUND_JOINER.sub(" ", _scoring_text(text))).split()


def flesch_of(words: int, sentences: int, syllable_count: int) -> float:
    """Flesch reading ease from counts, rounded to two decimals (stable in scorecards)."""
    if not words:
        return 0.0
    score = (
        FRE_BASE
        - FRE_SENTENCE_LENGTH * (words / max(1, sentences))
        - FRE_SYLLABLES_PER_WORD * (syllable_count / words)
    )
    return round(score, 2)


@lru_cache(maxsize=65536)
def syllables(word: str) -> int:
    """Syllables of one word: textstat's pyphen rule (hyphenation points + 1)."""
    return len(_hyphenator().positions(word.lower())) + 1


def flesch_reading_ease(text: str, sentence_count: int | None = None) -> float:
    """Flesch reading ease of plain text, rounded to two decimals (stable in scorecards)."""
    words = words_of(text)
    if not words:
        return 0.0
    if sentence_count is None:
        sentence_count = max(1, len(split_sentences(text)))
    return flesch_of(len(words), sentence_count, sum(syllables(word) for word in words))


def _plain_text(inline: Token) -> str:
    parts: list[str] = []
    for child in inline.children or ():
        if child.type == "text":
            parts.append(child.content)
        elif child.type == "code_inline":
            parts.append(CODE_MARK)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
    text = _LIQUID.sub(" ", "".join(parts))
    return re.sub(r"\s+", " ", text).strip()


def prose_paragraphs(post: Post) -> list[Paragraph]:
    """The post's prose paragraphs (see the module docstring for what counts)."""
    boundary = post.related_posts_line
    paragraphs: list[Paragraph] = []
    tokens = post.tokens
    for index, token in enumerate(tokens):
        if token.type != "paragraph_open" or token.level != 0 or token.map is None:
            continue
        line = post.body_start_line + token.map[0]
        if boundary is not None and line >= boundary:
            continue
        inline = tokens[index + 1] if index + 1 < len(tokens) else None
        if inline is None or inline.type != "inline":
            continue
        text = _plain_text(inline)
        words = words_of(text)
        if not words:
            continue
        sentences = split_sentences(text)
        count = max(1, len(sentences))
        total = sum(syllables(word) for word in words)
        score = flesch_of(len(words), count, total) if len(words) >= MIN_SCORED_WORDS else None
        longest = max((len(words_of(sentence)) for sentence in sentences), default=len(words))
        end_line = post.body_start_line + token.map[1] - 1
        paragraphs.append(Paragraph(line, end_line, text, len(words), count, score, total, longest))
    return paragraphs


@dataclass(frozen=True)
class Readability:
    """The post-level readability judgement (see the module docstring)."""

    post_flesch: float | None  # every prose paragraph pooled; None without prose
    flagged: list[Paragraph]  # hard to read: under the floor with long sentences
    long_words_only: list[Paragraph]  # under the floor, but short sentences
    too_short: list[Paragraph]  # not scored alone
    hard_share: float  # share of the post's prose words in flagged paragraphs
    failed: bool
    reason: str


def judge_readability(
    paragraphs: list[Paragraph], floor: float, post_floor: float, max_share: float
) -> Readability:
    words = sum(p.words for p in paragraphs)
    post_flesch = (
        flesch_of(words, sum(p.sentences for p in paragraphs), sum(p.syllables for p in paragraphs))
        if words
        else None
    )
    low = [p for p in paragraphs if p.flesch is not None and p.flesch < floor]
    flagged = [p for p in low if p.longest_sentence >= LONG_SENTENCE_WORDS]
    long_words_only = [p for p in low if p.longest_sentence < LONG_SENTENCE_WORDS]
    too_short = [p for p in paragraphs if p.flesch is None]
    share = sum(p.words for p in flagged) / words if words else 0.0
    reasons = []
    if post_flesch is not None and post_flesch < post_floor:
        reasons.append(f"the post's prose scores Flesch {post_flesch:.1f}, under {post_floor:g}")
    if flagged and share >= max_share:
        held = "paragraph holds" if len(flagged) == 1 else "paragraphs hold"
        reasons.append(
            f"{len(flagged)} hard-to-read {held} {100 * share:.0f}% of the post's "
            f"prose words (limit {100 * max_share:g}%)"
        )
    if reasons:
        reason = "; ".join(reasons)
    elif post_flesch is None:
        reason = "no prose paragraphs"
    else:
        reason = (
            f"the post's prose scores Flesch {post_flesch:.1f} (floor {post_floor:g}); "
            f"hard-to-read paragraphs hold {100 * share:.0f}% of its words "
            f"(limit {100 * max_share:g}%)"
        )
    return Readability(
        post_flesch, flagged, long_words_only, too_short, round(share, 4), bool(reasons), reason
    )


def why_hard(paragraph: Paragraph) -> str:
    return (
        f"its longest sentence has {paragraph.longest_sentence} words (long from "
        f"{LONG_SENTENCE_WORDS:g}), its sentences average {paragraph.words_per_sentence:.0f} "
        f"words and its words {paragraph.syllables_per_word:.2f} syllables"
    )


# ================================================================================= links
@dataclass(frozen=True)
class Link:
    line: int
    url: str
    kind: str  # link, image, autolink, html, liquid


_HTML_URL = re.compile(r"""\b(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.IGNORECASE)
_LIQUID_LINK = re.compile(r"\{%-?\s*(post_url|link)\s+(\S+?)\s*-?%\}")


def links_in(post: Post) -> list[Link]:
    """Every link of the body outside code, with the file line it sits on."""
    found: list[Link] = []
    for token in post.tokens:
        if token.map is None:
            continue
        start = post.body_start_line + token.map[0]
        if token.type == "inline":
            found.extend(_inline_links(token, start))
        elif token.type == "html_block":
            found.extend(_html_links(token.content, start))
    code = post.code_lines
    for number, text in post.body_lines():
        if number in code or "{%" not in text:
            continue
        for match in _LIQUID_LINK.finditer(text):
            found.append(Link(number, f"{{% {match.group(1)} {match.group(2)} %}}", "liquid"))
    found.sort(key=lambda link: link.line)
    return found


def _inline_links(inline: Token, first_line: int) -> Iterator[Link]:
    line = first_line
    for child in inline.children or ():
        if child.type in ("softbreak", "hardbreak"):
            line += 1
        elif child.type == "link_open":
            href = str(child.attrs.get("href", ""))
            yield Link(line, href, "autolink" if child.markup == "autolink" else "link")
        elif child.type == "image":
            yield Link(line, str(child.attrs.get("src", "")), "image")
        elif child.type == "html_inline":
            yield from _html_links(child.content, line)
            line += child.content.count("\n")
        elif child.type == "text":
            line += child.content.count("\n")


def _html_links(html: str, first_line: int) -> Iterator[Link]:
    for match in _HTML_URL.finditer(html):
        url = match.group(1) if match.group(1) is not None else match.group(2)
        yield Link(first_line + html.count("\n", 0, match.start()), url.strip(), "html")


def is_external(url: str) -> bool:
    """Whether the link is (or tries to be) a web URL the link checker judges."""
    if re.match(r"(?i)https?//|//", url):
        return True
    scheme = url.split(":", 1)[0].lower() if ":" in url else ""
    return scheme in linkcheck.CHECKED_SCHEMES or bool(
        scheme and linkcheck.url_problem(url) and "://" in url
    )


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
        match = _LIQUID_LINK.fullmatch(url)
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
    if scheme in linkcheck.CHECKED_SCHEMES:
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
        if not is_post:
            return None
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


_RAW_FENCE_OPEN = re.compile(r"^ {0,3}(`{3,}|~{3,})")
# (`+)(?:(?!\1).)+?\1 in linear time (as a regex, 1,600 backticks took 100 s).
_RAW_CODE_SPAN = CodeSpanNoRepeat()
# Link destinations as CommonMark and HTML write them: [text](url), ![alt](url), <scheme:...>
# autolinks and href/src attributes. Reference definitions are left to the gate: one is a
# link only where its label is used, and the batch must not request what no gate judges.
_RAW_LINK = re.compile(r"\]\(\s*<?([^)\s>]+)|<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^<>\s]*)>")
_RAW_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:")


def raw_link_urls(text: str) -> list[str]:
    """Link destinations read from a post's text without a Markdown parse, outside fenced
    code and code spans.

    Only a prefetch for the run's URL batch, like the mermaid batch of gate 1: a URL this
    misses is checked when its post is gated, from the exact links of the parsed post.
    Parsing every post for the batch, in one process while the other workers wait, cost
    as much as parsing them all again for their own gates."""
    urls: list[str] = []
    fence: str | None = None
    for line in text.split("\n"):
        opener = _RAW_FENCE_OPEN.match(line)
        if fence is not None:
            stripped = line.strip()
            if stripped and set(stripped) == {fence[0]} and len(stripped) >= len(fence):
                fence = None
            continue
        if opener:
            fence = opener.group(1)
            continue
        if _RAW_DEFINITION.match(line):
            continue
        line = _RAW_CODE_SPAN.sub("", line)
        for match in _RAW_LINK.finditer(line):
            urls.append(match.group(1) or match.group(2))
        for match in _HTML_URL.finditer(line):
            urls.append((match.group(1) if match.group(1) is not None else match.group(2)).strip())
    return urls


def _corpus_urls(paths: tuple[Path, ...]) -> list[str]:
    """The external URLs of every collected post (the batch the checker answers)."""
    urls: dict[str, None] = {}
    for path in paths:
        try:
            text = read_post_bytes(path).decode("utf-8", errors="replace")
        except PostRefused:  # an unreadable or oversized post gets its own ERROR item
            continue
        site = site_index(path, paths)
        for url in raw_link_urls(text.replace("\r\n", "\n")):
            if not is_external(url):
                continue
            url = external_url(url)
            if linkcheck.url_problem(url):
                continue
            try:
                if site.is_own_host(urlsplit(url).hostname):
                    continue
            except ValueError:
                continue
            urls[url] = None
    return list(urls)


@lru_cache(maxsize=4)
def _resolved(paths: tuple[Path, ...]) -> frozenset[Path]:
    return frozenset(path.resolve() for path in paths)


def _external_urls_of(post: Post, site: SiteIndex | None) -> list[str]:
    """Web URLs the link checker must answer for: not malformed, not the site's own."""
    urls = []
    for link in links_in(post):
        if link.kind == "liquid" or not is_external(link.url):
            continue
        url = external_url(link.url)
        if linkcheck.url_problem(url):
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
    checker = linkcheck.LinkChecker.from_settings(context.settings, context.evidence.cache_dir)
    batch_posts = tuple(context.batches.posts_for(BATCH_NAME))
    results: dict[str, linkcheck.LinkResult] = {}
    # Offline, nothing is requested: no batch to share, and no corpus to parse for one.
    in_batch = post.path in batch_posts or post.path.resolve() in _resolved(batch_posts)
    if in_batch and not context.settings.offline:
        batch = context.batches.get(
            BATCH_NAME,
            lambda: {
                url: result.to_dict()
                for url, result in checker.check_many(_corpus_urls(batch_posts)).items()
            },
        )
        for url in urls:
            if url in batch:
                results[url] = linkcheck.LinkResult.from_dict(batch[url])
    missing = [url for url in urls if url not in results]
    if missing:
        results.update(checker.check_many(missing))
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
        "link a public address; if readers are meant to open it on their own machine, add "
        "the URL to link_exclude; a trusted host can be listed in allow_hosts",
    ),
    linkcheck.MALFORMED: ("MALFORMED_URL", "fix the URL: scheme, host name and port"),
    linkcheck.UNVERIFIED: (
        "UNVERIFIED_LINK",
        "check the link by hand; if it is fine, add it to link_exclude",
    ),
}


def check(post: Post, context: GateContext) -> CheckResult:
    settings = context.settings
    floor = DEFAULT_FLESCH_FLOOR if settings.flesch_floor is None else settings.flesch_floor
    max_sentences = settings.max_paragraph_sentences
    findings: list[Finding] = []

    # ---- readability
    paragraphs = prose_paragraphs(post)
    scored = [p for p in paragraphs if p.flesch is not None]
    post_floor = (
        DEFAULT_POST_FLESCH_FLOOR
        if settings.post_flesch_floor is None
        else settings.post_flesch_floor
    )
    max_share = (
        DEFAULT_MAX_HARD_PROSE_SHARE
        if settings.max_hard_prose_share is None
        else settings.max_hard_prose_share
    )
    readability = judge_readability(paragraphs, floor, post_floor, max_share)
    long = [p for p in paragraphs if p.sentences > max_sentences]
    # Every hard paragraph is a finding; ``decide`` fails the post on them only when they
    # hold the share of its prose words that makes the post hard to read (after any
    # suppression), and on the pooled score of the whole post.
    if readability.post_flesch is not None and readability.post_flesch < post_floor:
        findings.append(
            Finding(
                None,
                "HARD_TO_READ",
                f"the post is hard to read: its prose scores Flesch "
                f"{readability.post_flesch:.1f}, under {post_floor:g}",
                "use shorter sentences and plainer words throughout; split the longest sentences",
            )
        )
    for p in readability.flagged:
        findings.append(
            Finding(
                p.line,
                "LOW_FLESCH",
                f"Flesch reading ease {p.flesch:.1f} is under the floor {floor:g}, "
                f"{why_hard(p)}: {p.excerpt}",
                "split the long sentences; use plainer words",
            )
        )
    for p in long:
        findings.append(
            Finding(
                p.line,
                "LONG_PARAGRAPH",
                f"{p.sentences} sentences, over the limit of {max_sentences}: {p.excerpt}",
                f"split the paragraph into paragraphs of at most {max_sentences} sentences",
            )
        )

    # ---- links
    site = run_site_index(post.path, context)
    all_links = links_in(post)
    internal: list[InternalLink] = []
    external: list[tuple[int, Link, str]] = []
    malformed: list[tuple[int, dict[str, Any]]] = []
    site_paths = 0
    for position, link in enumerate(all_links):
        if link.kind != "liquid" and is_external(link.url):
            url = external_url(link.url)
            problem = linkcheck.url_problem(url)
            if problem:
                malformed.append(
                    (position, {"line": link.line, "url": link.url, "reason": problem})
                )
                continue
            verdict = judge_internal(link, post, site)
            if verdict is not None:
                internal.append(verdict)
            else:
                external.append((position, link, url))
            continue
        verdict = judge_internal(link, post, site)
        if verdict is not None:
            internal.append(verdict)
        elif link.url and not link.url.startswith("#") and ":" not in link.url.split("/")[0]:
            site_paths += 1
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
    for _, item in malformed:
        code, fix = _LINK_CODES[linkcheck.MALFORMED]
        findings.append(Finding(item["line"], code, f"{item['url']}: {item['reason']}", fix))

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
            result.status == linkcheck.UNVERIFIED and settings.unverified_links_fail
        )
        if failing:
            code, fix = _LINK_CODES[result.status]
            reason = f" ({result.reason})" if result.reason else ""
            findings.append(Finding(link.line, code, f"{link.url}: {result.status}{reason}", fix))
    for position, item in malformed:
        rows.append((position, {**item, "status": linkcheck.MALFORMED, "code": None}))
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
        "urls": ordered,
        "offline": settings.offline,
        "unverified_fails": settings.unverified_links_fail,
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
            "site_paths_not_checked": site_paths,
        },
        "links": links_detail,
    }
    parts = [
        f"{len(paragraphs)} paragraphs (post Flesch "
        + ("n/a" if readability.post_flesch is None else f"{readability.post_flesch:.1f}")
        + f", {len(readability.flagged)} hard to read, {len(long)} over {max_sentences} "
        "sentences)",
        f"{len(internal)} internal links ({len(broken)} broken)",
        f"{len(ordered)} external links ({len(links_detail['dead'])} dead, "
        f"{len(links_detail['blocked'])} blocked, {len(malformed)} malformed, "
        f"{len(links_detail['unverified'])} unverified, {len(links_detail['unchecked'])} "
        "unchecked)",
    ]
    facts = {
        "summary": "; ".join(parts),
        "prose_words": sum(p.words for p in paragraphs),
        "flagged_words": {p.line: p.words for p in readability.flagged},
        "max_share": max_share,
    }
    return CheckResult(findings, detail, facts)


def decide(result: CheckResult, settings: Settings) -> Decision:
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
# Posts whose links name files on disk ({% link %}, relative .md links) are judged against
# the disk, which no cache key covers: they are gated every run.
_DISK_LINKS = re.compile(rb"\{%|\.(?:md|markdown)\b", re.IGNORECASE)


def cache_inputs(post_path: Path, context: GateContext) -> str | None:
    """Offline, the verdict depends on the post and the settings (already in the key), the
    corpus its internal links point into (every post's URL under the site's permalink
    scheme) and the hyphenation dictionary. Online, link results come from the network, so
    the gate runs every time (the link checker keeps its own per-URL cache)."""
    if not context.settings.offline:
        return None
    try:
        if _DISK_LINKS.search(read_post_bytes(post_path)):
            return None
    except PostRefused:
        return None
    site = run_site_index(post_path, context)
    return f"site={_site_digest(site)};pyphen={_pyphen_version()}"


@lru_cache(maxsize=16)
def _site_digest(site: SiteIndex) -> str:
    digest = hashlib.sha256()
    parts = [site.generator, site.template, site.host or "", site.baseurl]
    for values in (site.slugs, site.paths, {str(path) for path in site.files}, site.stems):
        parts.append("\x1e")
        parts.extend(sorted(values))
    for part in parts:
        digest.update(part.encode("utf-8", "surrogateescape") + b"\0")
    return digest.hexdigest()


@cache
def _pyphen_version() -> str:
    try:
        return importlib.metadata.version("pyphen")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


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
)
