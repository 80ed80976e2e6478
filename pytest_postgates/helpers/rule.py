"""A rule of a gate, as data (DEVELOPERS: one table per gate): its name, what it decides,
why, its tests, and what turning it off changed held out (bench/ablation.py)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rule:
    name: str
    decides: str
    why: str
    tests: str
    # What turning it off changed (bench/ablation.py, bench/results/ablation.json): held out
    # (the report half) and on the tune half; empty until it is measured.
    earns: str = ""
