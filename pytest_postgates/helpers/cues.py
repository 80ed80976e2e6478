"""Cue words that mark prose as an example rather than a claim, shared by gate 2 (a name
given as an example is not a reference: :mod:`.outcome_rules`) and gate 7 (a number given
as an example is the post's own input: :mod:`.number_cues`).

A fragment of a regex alternation, not a compiled pattern: each gate anchors it as its
reading needs (gate 2 just before or after one code span, gate 7 near one number), so one
word list serves both and a cue added here reaches both gates. The suppositions each gate
reads stay its own on purpose: gate 7's ``if``/``assuming`` make a number an input, while
gate 2 needs a named example ("imagine a tool named `x`"), never a conditional about a
real name ("if `generate()` times out").
"""

from __future__ import annotations

# "for example", "for instance", "e.g.": what follows is an example.
EXAMPLE = r"for example|for instance|e\.g\."

# "there is no separate `x`": the name that follows is said not to exist. Gate 2 anchors
# it just before one code span (never sentence-wide: a cue elsewhere in the sentence is
# about something else). "never with `x`" is left out on purpose: it says how a name is
# used, not that it is absent ("runs `open` with `-a` and never with `-z`" still claims
# that `-z` is a flag of the tool).
NEGATION = r"there(?:'s| is| are) no (?:separate|dedicated|such|standalone|longer an?)"
