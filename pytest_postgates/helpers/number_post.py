"""The post's own side of gate 7's judgement: values of its fenced samples, the size of the
sample a sentence follows, backoff sequences, illustrative values remembered per paragraph
and per post, figures already cited, table headers, estimate tables and footnotes.

A mixin of the gate's judge: it reads the judge's prose views (``searchable``, ``raw``)
and memory; it knows no repository.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pytest_postgates.helpers.code_values import SampleLine
    from pytest_postgates.post import Post

from pytest_postgates.helpers.code_values import (
    NOT_SAMPLE_LANGS,
    literal_matches,
)
from pytest_postgates.helpers.number_arithmetic import (
    AT_LEAST,
    AT_MOST,
    close_to,
    quantities,
    sentence_bounds,
)
from pytest_postgates.helpers.number_cues import (
    DOUBLING,
    ESTIMATE,
    FOOTNOTE_CITATION,
    FOOTNOTE_LINE,
    FOOTNOTE_MARK,
    LINK,
    NEAR_WORDS,
    Sentence,
)
from pytest_postgates.helpers.numbers import (
    CLAIM,
    UNITS,
    content_words,
    family_of_spelling,
    normalise_number,
    quantity_of,
)


class PostNumbers:
    """What the post itself says about a number (mixed into the gate's judge)."""

    post: Post
    searchable: str  # prose, code spans, link targets and URLs blanked
    raw: str  # the same lines as written
    prose_line_numbers: list[int]
    illustrative: dict[int, dict[tuple[str, float], str]]
    post_illustrative: dict[tuple[str, float], list[tuple[str, set[str]]]]
    cleared: set[int]
    cited: dict[int, dict[tuple[str, float], tuple[int, str]]]
    sentences: dict[int, Sentence]

    @property
    def samples(self) -> list[SampleLine]:
        raise NotImplementedError

    def _sequence(
        self, prose: str, sentence: Sentence, start: int, family: str, value: float
    ) -> str | None:
        """A step of a backoff the paragraph describes ("exponential backoff: the first
        retry waits 1 second, the second 2 seconds, the third 4 seconds"): an earlier
        number of the sentence, itself cited or not a claim, doubled once or more."""
        paragraph = self._paragraph(start) + 1
        if not DOUBLING.search(prose, max(paragraph, 0), sentence.right):
            return None
        dimension, base_value = quantity_of(family, value)
        for earlier in quantities(prose, sentence.left, start):
            if earlier.dimension != dimension or earlier.start not in self.cleared:
                continue
            for steps in range(1, 7):
                if earlier.value and abs(earlier.value * 2**steps - base_value) < 1e-9:
                    return (
                        f"{earlier.text.strip()} doubled {steps} time(s): a step of the "
                        "sequence the paragraph describes"
                    )
        return None

    def _sample_size(self, prose: str, sentence: Sentence, start: int, value: float) -> str | None:
        """ "N lines" that one of the post's own fenced samples measures ("a chat UI in
        under 80 lines of component code" after a 64-line component)."""
        before = prose[max(sentence.left, start - 30) : start]
        line = self.searchable.count("\n", 0, start)  # index into the prose lines
        number = self.prose_line_numbers[line] if line < len(self.prose_line_numbers) else 0
        # The sample the sentence follows: the last fence above it.
        above = [f for f in self.post.fences if f.end_line < number]
        if not above or above[-1].lang in NOT_SAMPLE_LANGS:
            return None
        fence = above[-1]
        lines = fence.content.rstrip("\n").split("\n")
        for size, what in (
            (len(lines), "lines"),
            (sum(bool(t.strip()) for t in lines), "non-blank lines"),
        ):
            if close_to(size, value, before) or (
                AT_MOST.search(before) is None
                and AT_LEAST.search(before) is None
                and abs(size - value) <= 1
            ):
                return f"the post's own sample at line {fence.start_line} has {size} {what}"
        return None

    def _sample_value(
        self, start: int, end: int, sentence: Sentence, value: float, family: str, words: set[str]
    ) -> str | None:
        """The post's own code assigns the number, or writes it with its unit, under a key
        that shares a word with the sentence (the unit's own words count: ``percent: 5``
        for "the initial 5%")."""
        # A value as written ("5") must share a word with the number's own neighbourhood;
        # a converted one ("30000" for 30 s) or a decimal as written ("speed: 0.9") with
        # the sentence.
        unit_words = content_words(" ".join(UNITS.get(family, ())))
        local = content_words(
            self.raw[max(sentence.left, start - 60) : min(sentence.right, end + 60)]
        )
        local |= unit_words
        everywhere = words | unit_words
        for sample in self.samples:
            for literal in sample.literals:
                rule = literal_matches(literal.value, value, family)
                if rule is None:
                    continue
                near = rule == "as written" and literal.value == int(literal.value)
                shared = literal.key_words & (local if near else everywhere)
                if shared:
                    return (
                        f"{literal.written.strip()} ({rule}) in the post's own code at line "
                        f"{sample.line} ({sample.text!r}; shared words: "
                        f"{', '.join(sorted(shared)[:3])})"
                    )
            # Written with its unit in the code itself ("for next 12 weeks" in a prompt
            # string, the sentence saying "a 12-week forecast").
            for match in CLAIM.finditer(sample.written):
                written = float(normalise_number(match.group(1)) + (match.group(2) or ""))
                if written != value or family_of_spelling(match.group(3)) != family:
                    continue
                shared = (sample.words - unit_words) & words
                if shared:
                    return (
                        f"{match.group(0).strip()} written in the post's own code at line "
                        f"{sample.line} ({sample.text!r}; shared words: "
                        f"{', '.join(sorted(shared)[:3])})"
                    )
        return None

    def _topic_words(self, start: int) -> set[str]:
        """Words of the post's title and of the nearest heading above ``start``."""
        title = (self.post.front_matter or {}).get("title")
        text = title if isinstance(title, str) else ""
        heading = self.post_heading_before(start)
        return content_words(f"{text} {heading}")

    def post_heading_before(self, start: int) -> str:
        line = self.searchable.count("\n", 0, start)
        number = self.prose_line_numbers[line] if line < len(self.prose_line_numbers) else 0
        for index in range(number - 1, self.post.body_start_line - 2, -1):
            if 0 <= index < len(self.post.lines) and self.post.lines[index].startswith("#"):
                return self.post.lines[index].lstrip("#")
        return ""

    def _column_header(self, prose: str, line_start: int, start: int) -> str:
        """The header cell above the table cell at ``start`` (empty when none)."""
        column = prose.count("|", line_start, start)
        header_start = line_start
        while header_start > 0:
            previous = prose.rfind("\n", 0, header_start - 1) + 1
            if not prose[previous:header_start].lstrip().startswith("|"):
                break
            header_start = previous
        if header_start == line_start:
            return ""
        header = self.raw[header_start : self.raw.find("\n", header_start)]
        cells = header.split("|")
        return cells[column] if 0 < column < len(cells) else ""

    def _estimate_row(self, prose: str, line_start: int, line_text: str) -> bool:
        """A table row of the post's own estimate: the row's first cell, or the table's
        header row, says "estimate", "est." or "assumption"."""
        first_cell = line_text.strip().strip("|").split("|", 1)[0]
        if ESTIMATE.search(first_cell):
            return True
        header_start = line_start
        while header_start > 0:
            previous = prose.rfind("\n", 0, header_start - 1) + 1
            if not prose[previous:header_start].lstrip().startswith("|"):
                break
            header_start = previous
        header = prose[header_start : prose.find("\n", header_start)]
        if ESTIMATE.search(header):
            return True
        # A row of the table that says it is an estimate ("| Estimated daily usage |")
        # makes the table the post's estimate.
        position = header_start
        while position < len(prose):
            stop = prose.find("\n", position)
            row = prose[position : stop if stop >= 0 else len(prose)]
            if not row.lstrip().startswith("|"):
                break
            if ESTIMATE.search(row.strip().strip("|").split("|", 1)[0]):
                return True
            position = len(prose) if stop < 0 else stop + 1
        return False

    def _footnote(self, prose: str, end: int, line_text: str) -> str | None:
        """A footnote marker right after the number ("~92% cheaper*") whose footnote,
        somewhere in the post, links a source."""
        if not FOOTNOTE_MARK.match(prose[end : end + 16]):
            return None
        for number, text in self.post.body_lines():
            if FOOTNOTE_LINE.match(text) and LINK.search(text):
                return f"{FOOTNOTE_CITATION}line {number}"
        return None

    def remember(self, start: int, dimension: str, value: float, rule: str) -> None:
        """An illustrative value of the paragraph, for later sentences that reuse it; and
        of the post, with the words around it, for a later paragraph that names it again
        in the same words ("12% need Tier 2" ... "**12% Tier 2**: products ...")."""
        self.illustrative.setdefault(self._paragraph(start), {})[(dimension, value)] = rule
        self.post_illustrative.setdefault((dimension, value), []).append(
            (rule, self._near_words(start))
        )

    def reused(self, start: int, family: str, value: float) -> str | None:
        dimension, base = quantity_of(family, value)
        known = self.illustrative.get(self._paragraph(start), {})
        # A count of the illustration ("a batch of 1,000 items") is the same value when a
        # later sentence gives it a unit ("all 1,000 requests").
        return known.get((dimension, base)) or known.get(("count", value))

    def reused_in_post(self, start: int, family: str, value: float) -> str | None:
        """An earlier illustrative value of the post, named again with a word it stood
        next to (a word other than the unit's)."""
        if family in ("K", "M"):
            return None
        unit_words = content_words(" ".join(UNITS.get(family, ())))
        near = self._near_words(start) - unit_words
        for rule, words in self.post_illustrative.get(quantity_of(family, value), []):
            shared = near & words
            if shared:
                return f"{rule} earlier in the post, next to {', '.join(sorted(shared)[:2])}"
        return None

    def _near_words(self, start: int) -> set[str]:
        line_start = self.raw.rfind("\n", 0, start) + 1
        line_end = self.raw.find("\n", start)
        return content_words(
            self.raw[
                max(line_start, start - NEAR_WORDS) : min(
                    line_end if line_end >= 0 else len(self.raw), start + NEAR_WORDS
                )
            ]
        )

    def operands_of(self, start: int) -> list[tuple[str, float]]:
        sentence = self.sentences.get(sentence_bounds(self.searchable, start, start + 1)[0])
        return sentence.operands if sentence else []

    def cited_before(self, start: int, family: str, value: float) -> str | None:
        """The citation of the same value earlier in the paragraph ("8,192 tokens for
        `lm-studio` ... an 8,192-token local model"): the same figure, cited once."""
        known = self.cited.get(self._paragraph(start), {}).get(quantity_of(family, value))
        if known is None:
            return None
        line, by = known
        by = by.split(" (as cited at line ")[0]
        return f"{by} (as cited at line {line})"

    def paragraph_of(self, offset: int) -> int:
        return self._paragraph(offset)

    def _paragraph(self, offset: int) -> int:
        return self.searchable.rfind("\n\n", 0, offset)
