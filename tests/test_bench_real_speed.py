"""bench/real_speed.py's arithmetic: the ratios it reports against the baseline (paired by
repetition, with their range) and the Amdahl projections for 4 and 16 CPUs from the
serial fraction, measured from wall times and, less moved by the load, from CPU times."""

from __future__ import annotations

import pytest

from tests.helpers import load_bench

real_speed = load_bench("real_speed", "real_speed.py")


def test_ratios_are_paired_by_repetition() -> None:
    # A load spike in the second repetition slows both runs of that repetition: the
    # paired ratios stay near 1.2, where the medians of each run alone would give 1.6.
    reference = real_speed.Timing(wall=[12.0, 60.0, 13.0])
    this = real_speed.Timing(wall=[10.0, 50.0, 8.0])
    ratio, low, high = real_speed.paired_ratio(reference, this)
    assert (ratio, low, high) == (1.2, 1.2, 1.625)
    assert reference.median / this.median == 1.3


def test_amdahl_from_wall_times() -> None:
    serial, speedup = real_speed.amdahl(10.0, 6.0)  # T2 = T1 * (s + (1 - s) / 2)
    assert serial == pytest.approx(0.2)
    assert speedup[4] == pytest.approx(1 / (0.2 + 0.8 / 4))
    assert speedup[16] == pytest.approx(1 / (0.2 + 0.8 / 16))
    assert real_speed.amdahl(10.0, 12.0)[0] == 1.0  # slower on two: all serial


def test_serial_fraction_from_cpu_times() -> None:
    serial = real_speed.serial_fraction_from_cpu(cold_cpu=30.0, warm_cpu=3.0)
    assert serial == pytest.approx(0.1)
    assert real_speed.projected(serial)[16] == pytest.approx(1 / (0.1 + 0.9 / 16))
    assert real_speed.serial_fraction_from_cpu(0.0, 1.0) == 1.0
