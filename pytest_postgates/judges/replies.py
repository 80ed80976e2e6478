"""Reading a judge's reply: one JSON object, with numbers where numbers were asked for.

Models wrap JSON in code fences or a sentence of preamble even when asked not to; that is
tolerated. Anything else (no object, a missing key, a string where a score belongs, a
score off the scale) makes the run invalid, with a reason that says which, so the
scorecard shows why a provider's runs did not count.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

_FENCE = re.compile(r"^\s*```[A-Za-z0-9_-]*\s*\n(.*?)\n\s*```\s*$", re.DOTALL)
REASON_LIMIT = 160


class InvalidReply(ValueError):
    """A reply that does not count as a run; the message is the reason."""


def parse_object(content: str) -> dict[str, Any]:
    """The JSON object in ``content``: the whole text, a fenced block, or the span from the
    first ``{`` to the last ``}``."""
    text = content.strip()
    if not text:
        raise InvalidReply("empty reply")
    fenced = _FENCE.match(text)
    candidates = [fenced.group(1)] if fenced else []
    candidates.append(text)
    start, end = text.find("{"), text.rfind("}")
    if 0 <= start < end:
        candidates.append(text[start : end + 1])
    for candidate in candidates:
        try:
            value = json.loads(candidate)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
        raise InvalidReply(f"reply is JSON but not an object ({type(value).__name__})")
    raise InvalidReply(f"reply is not JSON: {shorten(text, 60)!r}")


def number(data: dict[str, Any], key: str, low: float = 0.0, high: float = 10.0) -> float:
    """``data[key]`` as a score on ``[low, high]``; booleans and strings are not numbers."""
    if key not in data:
        raise InvalidReply(f"missing key {key!r}")
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidReply(f"{key} is not a number ({type(value).__name__})")
    if not math.isfinite(value) or not low <= value <= high:
        raise InvalidReply(f"{key} = {value!r} is outside {low:g}..{high:g}")
    return float(value)


def text(data: dict[str, Any], key: str, limit: int = REASON_LIMIT) -> str:
    """An optional free-text field, shortened for the scorecard."""
    value = data.get(key)
    return shorten(value, limit) if isinstance(value, str) else ""


def shorten(value: str, limit: int) -> str:
    flat = " ".join(value.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "\u2026"
