"""Benchmarks: skipped unless RUN_BENCH=1 (`make bench`); they print their timings (-s)."""

import time
from contextlib import contextmanager

import pytest


@pytest.fixture
def stopwatch():
    """``with stopwatch("label") as t: ...`` then ``t.seconds``; prints one line per timing."""

    class Timing:
        seconds = 0.0

    @contextmanager
    def measure(label):
        timing = Timing()
        start = time.perf_counter()
        yield timing
        timing.seconds = time.perf_counter() - start
        print(f"\n[bench] {label}: {timing.seconds:.2f} s")

    return measure
