"""The prose cues gate 7 reads around a number: what makes it sound measured, suppose,
recommend, bound, quote or attribute; and the sentence view (its bounds, its arithmetic, its
suppositions).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pytest_postgates.helpers.number_arithmetic import (
    arithmetic,
    counted,
    quantities,
    sentence_bounds,
)
from pytest_postgates.scan import Alternation, Delimited, closed_by, markdown_link

# "for example", "for instance", "e.g.": what follows is an example (a number given as an
# example is the post's own input). A fragment of a regex alternation, anchored near one
# number by EXAMPLE_CUE.
EXAMPLE = r"for example|for instance|e\.g\."

# cited_by of a number the repository's own code or files hold (not links or evidence),
# and of a number whose footnote links a source.
REPOSITORY_CITATION = "repository: "
FOOTNOTE_CITATION = "footnote: "
# The link pattern is scanned in linear time (pytest_postgates.scan):
# as regexes, a line of unclosed ``[``, of backtick runs or of ``a.a.a.`` took minutes.
LINK = Alternation(
    r"!?\[[^\]\n]*\]\([^)\n]*\)|<https?://[^>\s]+>",
    [
        Delimited(
            r"!?\[[^\]\n]*\]\([^)\n]*\)", re.compile(r"!?\["), markdown_link("\\]\n", ")\n", False)
        ),
        Delimited(
            r"<https?://[^>\s]+>", re.compile(r"<https?://"), closed_by(">\\s", ">", nonempty=True)
        ),
    ],
)


# A number that sounds measured: the size of an effect ("cut latency by 40%", "dropped to
# 80 ms", "3x faster", "saves 200 ms") or a measurement ("p99 of 120 ms", "in our
# benchmark, 87 ms"). Judged on the number's own clause, never the whole sentence.
CHANGE_VERBS = (
    r"(?:cut|cuts|reduc\w*|drop\w*|fell|falls|improv\w*|increas\w*|decreas\w*|lower\w*|"
    r"boost\w*|shr[iau]nk\w*|grew|grow\w*|rose|rises|jump\w*|climb\w*|slash\w*|sped|speeds?)"
)


MEASURED_BEFORE = re.compile(
    rf"(?:\b{CHANGE_VERBS}\b[^,;:.]{{0,40}}\b(?:by|to)\s+|"
    r"\b(?:sav(?:e|es|ed|ing)|shav\w*|measured|benchmark\w*|observed|recorded|"
    r"p50|p90|p95|p99|median|(?<!with an )(?<!with a )average|averaged|"
    r"(?<!not )(?<!n't )(?<!to )(?<!does )(?<!will )(?<!would )mean(?! that)|"
    r"peak\w*|we saw|we found|in production|"
    r"in our tests?|in practice|results? (?:show|of))\b[^,;:.]{0,40})"
    r"(?:an?\s+(?:\w+\s+)?|about\s+|roughly\s+|nearly\s+|almost\s+|over\s+|under\s+|"
    r"just\s+|only\s+|~\s?)?$",
    re.I,
)


MEASURED_AFTER = re.compile(
    r"^\s*(?:[-\u2013]\s*\d[\d.,]*\s*\S*\s+)?(?:faster|slower|quicker|cheaper|smaller|larger|"
    r"bigger|fewer|less|more|lower|higher|better|worse|improvement|reduction|speed-?up|"
    r"increase|decrease|drop|savings?|gain|boost|overhead|latency reduction)\b",
    re.I,
)


def measured_cue(prose: str, left: int, start: int, end: int, right: int) -> str | None:
    """The words that make prose[start:end] sound measured, if any (within its sentence
    prose[left:right])."""
    before = MEASURED_BEFORE.search(prose[max(left, start - 80) : start])
    if before:
        return before.group(0).strip()
    after = MEASURED_AFTER.match(prose[end : min(right, end + 40)])
    if after:
        return after.group(0).strip()
    # Where it was measured, later in the number's own clause ("accounts for 26% of the
    # token spend in production", "answers in 40 ms at p95").
    clause = CLAUSE_BREAK.search(prose, end, right)
    where = MEASURED_WHERE.search(prose, end, clause.start() if clause else right)
    return where.group(0).strip() if where else None


MEASURED_WHERE = re.compile(
    r"\b(?:in production|in our (?:tests?|benchmarks?|load tests?|runs?)|on our (?:cluster|"
    r"staging \w+|fleet|servers?)|at p(?:50|90|95|99)|in (?:the|our) benchmark)\b",
    re.I,
)


# Recommendations: a clause that opens with an imperative verb gives the reader a value to
# use ("Start with 5,000 tokens", "Route 5% of traffic"), it does not report one.
ADVICE = re.compile(
    r"^(?:\W*(?:\*\*[^*]+\*\*|[\w\s-]{1,40}:)\W*)?\W*(?:start|begin|set|use|keep|route|limit|"
    r"cap|configure|choose|pick|try|aim|target|allow|reserve|give|raise|bump|default|budget|"
    r"schedule|run|send|split|chunk|truncate|retry|wait|poll|cache|sample|back off)\b",
    re.I,
)


# A clause that states a supposition: the numbers inside it are the post's own inputs.
HYPOTHETICAL = re.compile(
    r"\b(?:if|suppose|supposing|assume|assuming|imagine|hypothetically|what if|"
    r"let's say|let us say|in a scenario where|for an? (?=~?\d[\d,.]*\s?[KkM]?\b[\w\s-]{0,30}\b"
    r"(?:pipeline|workload|team|app|application|service|deployment|catalog|site|shop)\b))\b",
    re.I,
)


GENERIC_SUBJECT = re.compile(r"\W*(?:a|an|any)\s+(?:[\w-]+\s+){1,2}that\b", re.I)


EXAMPLE_CUE = re.compile(rf"\b(?:{EXAMPLE}|say)(?=[\s,)]|$)", re.I)


# "a strict limit (like 512 tokens)": an example given right before the number.
EXAMPLE_BEFORE = re.compile(r"\b(?:like|such as|say|e\.g\.|even an?)\s+(?:~\s?|about\s+)?$", re.I)


# Premises of an illustrative calculation ("with 4 workers at 250 ms each").
PREMISE = re.compile(
    r"\b(?:with|at|of|per|each|say|given|assuming|assume|suppose|if|for example|e\.g\.)\s+"
    r"(?:\w+\s+){0,3}$",
    re.I,
)


PREMISE_AFTER = re.compile(r"\s*(?:per|each)\s+(?!\d)\w+", re.I)


# Clause breaks; a dash between two numbers is a range ("40K\u2013130K"), not a break.
CLAUSE_BREAK = re.compile(r"[,;:()]|(?<!\d)[\u2014\u2013](?!\d)|\s--\s|\s-\s|\bthen\b|\bso\b", re.I)


DIMENSION = re.compile(r"\s?[x\u00d7]\s?\d")


NEAR_WORDS = 40  # characters either side of a number whose words name it


# A sentence that states a length bound ("truncates to 300 characters", "longer than 100
# characters", "the first 300 characters").
BOUND_WORDS = re.compile(
    r"\b(?:truncat\w*|first|longer|shorter|more than|fewer than|less than|exceed\w*|up to|"
    r"cap\w*|cut\w*)\b",
    re.I,
)


DIFFSTAT = re.compile(r"\b(?:diffstat|diff|insertions?|deletions?)\b", re.I)


DOUBLING = re.compile(r"\b(?:exponential\w*|backoff|back-off|doubl\w+)\b", re.I)


@dataclass
class Sentence:
    left: int
    right: int
    in_table: bool
    results: dict[int, str]  # claim start -> formula that gives it
    inputs: dict[int, str]  # claim start -> formula it is a premise of
    operands: list[tuple[str, float]] = field(default_factory=list)  # of those formulas


def sentence_at(prose: str, start: int, end: int, cache: dict[int, Sentence]) -> Sentence:
    left, right = sentence_bounds(prose, start, end)
    known = cache.get(left)
    if known is not None:
        return known
    line_start = prose.rfind("\n", 0, start) + 1
    in_table = prose[line_start:start].lstrip().startswith("|")
    sentence = Sentence(left, right, in_table, {}, {})
    if not in_table:
        # Operands may stand in the sentence before, on the same line ("30 seconds per
        # call. ... five calls, 150 seconds").
        previous = left
        if left > line_start:
            previous = sentence_bounds(prose, left - 2, left - 1)[0]
        found = quantities(prose, max(previous, line_start), right)
        for target in found:
            if target.dimension == "count" or target.start < left:
                continue
            # Inputs come before what follows from them ("1,000 jobs at 2 s ... 33 minutes").
            others = [q for q in found if q.start < target.start]
            before = prose[max(left, target.start - 30) : target.start]
            derived = arithmetic(target, others, before) or counted(
                prose, left, target, others, before
            )
            if derived is None:
                continue
            formula, operands = derived
            # Arithmetic on the post's own inputs: every operand with a unit is a premise
            # the sentence sets up ("with 4 workers at 250 ms each"); a result computed
            # from reported figures ("costs $0.0006 ... an 8x difference") is a claim.
            premises = [
                operand
                for operand in operands
                if operand.dimension != "count"
                and (
                    PREMISE.search(prose[max(line_start, operand.start - 60) : operand.start])
                    # A rate the post sets up ("wasting 30 seconds per call"); a price is
                    # reported, not assumed ("$0.0006 per 1K tokens").
                    or (
                        operand.dimension != "usd"
                        and PREMISE_AFTER.match(prose, operand.end, operand.end + 20)
                    )
                )
            ]
            if len(premises) < sum(operand.dimension != "count" for operand in operands):
                continue
            sentence.results[target.start] = formula
            sentence.operands += [(operand.dimension, operand.value) for operand in operands]
            for operand in premises:
                sentence.inputs.setdefault(operand.start, formula)
    cache[left] = sentence
    return sentence


def hypothetical_cue(prose: str, sentence: Sentence, start: int, end: int) -> str | None:
    """The cue of a supposition whose clause holds prose[start:end], if any."""
    if sentence.in_table:
        return None
    for cue in HYPOTHETICAL.finditer(prose, sentence.left, start):
        stop = CLAUSE_BREAK.search(prose, cue.end(), sentence.right)
        # A supposition lists its premises: "If 85% pass, 12% need a retry, and 3% fail,
        # ..." runs on through short clauses that each hold a number.
        while stop is not None and stop.start() < end:
            following = CLAUSE_BREAK.search(prose, stop.end(), sentence.right)
            chunk = prose[stop.end() : following.start() if following else sentence.right]
            if not re.match(r"\s*(?:(?:and|or)\s+)?[~$]?\d", chunk) or len(chunk.split()) > 8:
                break
            if following is None or following.start() >= end:
                stop = following
                break
            stop = following
        if stop is None or stop.start() >= end:
            return cue.group(0)
    # "a 50KB file, for example," / "say, 900 ms": the example cue in the number's own
    # clause, or in the clause just before or after it.
    clause_left = sentence.left
    for stop in CLAUSE_BREAK.finditer(prose, sentence.left, start):
        clause_left = stop.end()
    after = CLAUSE_BREAK.search(prose, end, sentence.right)
    clause_right = after.start() if after else sentence.right
    before = EXAMPLE_BEFORE.search(prose[max(sentence.left, start - 16) : start])
    if before:
        return before.group(0).strip()
    nearby = prose[max(sentence.left, clause_left - 16) : min(sentence.right, clause_right + 16)]
    near_cue = EXAMPLE_CUE.search(nearby)
    if near_cue:
        return near_cue.group(0)
    # "A tool that takes 5 ms ... than one that takes 5 s": a generic example.
    generic = GENERIC_SUBJECT.match(prose, sentence.left)
    return generic.group(0).strip() if generic else None


# A comparison written as a bound in a list item, a table cell or a heading ("Error rate
# above 5%", "| > 1% error rate |", "(over 2000 characters)"): a threshold the post sets.
COMPARISON = re.compile(
    r"(?:[<>]=?|\u2264|\u2265|\b(?:above|below|over|under|exceeds?|exceeding|more than|"
    r"less than|at least|at most|up to|no more than|beyond))\s*[~$]?\s*$",
    re.I,
)


METRIC = re.compile(
    r"^\W*(?:[\w'-]+\s+){0,2}(?:rate|ratio|time|latency|usage|cost|size|length|score|"
    r"count|errors?|budget|total|duration|share|load|drift)s?\s*$|^\W*$",
    re.I,
)


METRIC_WORD = re.compile(
    r"\b(?:rate|ratio|latency|usage|cost|size|length|score|count|errors?|budget|total|"
    r"duration|share|load|drift)\b",
    re.I,
)


DANGLING = frozenset("a an the of for to in on at by with and or per is are was".split())


ESTIMATE = re.compile(r"\b(?:est\.|(?:estimated?|estimates|assum\w*|example|projected)\b)", re.I)


LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s")


QUOTED = re.compile(r'"[^"\n]{3,}?"|\u201c[^\u201d\n]{3,}?\u201d')


# A source the sentence names for its number: a file, a commit, a document, a comment.
SOURCE_NAMED = re.compile(
    r"`[^`\n]*\.(?:md|mjs|js|ts|py|json|ya?ml|txt|sh)`|`[0-9a-f]{7,40}`|\bcommit\s+`?[0-9a-f]{7,}|"
    r"\bthe (?:commit|commit message|header comment)\b",
    re.I,
)


REPORTING = re.compile(
    r"\b(?:names?|states?|stated|says|said|records?|reports?|lists?|documents?|notes?|reads?|"
    r"opens? with|comes? from|according to|quotes?|writes?|puts? it|gives?|spells? out)\b",
    re.I,
)


FIRST_PERSON_POST = 8  # first-person singular words that make a whole post a personal story


FIRST_PERSON = re.compile(r"\b(?:I|I'm|I've|I'd|my|me|mine)\b")


COMMIT_NAMED = re.compile(r"`([0-9a-f]{7,40})`|\bcommit\s+([0-9a-f]{7,40})\b", re.I)


FOOTNOTE_MARK = re.compile(r"^[^|\n]{0,12}?(?:\\?\*|\u2020|\[\^[^\]]+\])")


FOOTNOTE_LINE = re.compile(r"^\s*(?:>\s*)?(?:\*\*)?(?:\\\*|\*(?!\*)|\u2020|\[\^[^\]]+\]:)")
