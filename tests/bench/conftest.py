"""Benchmarks: every suite runs them at a small size, so their code cannot rot; `make bench`
runs them at full size (BENCH_SIZE=full) and they print their timings (-s)."""

import os
import time
from contextlib import contextmanager

import pytest

BENCH_SIZES = ("small", "full")


@pytest.fixture(scope="session")
def bench_size() -> str:
    """'small' unless BENCH_SIZE=full (`make bench`); each benchmark maps it to its sizes."""
    size = os.environ.get("BENCH_SIZE") or "small"
    if size not in BENCH_SIZES:
        raise pytest.UsageError(f"BENCH_SIZE={size!r}: use one of {', '.join(BENCH_SIZES)}")
    return size


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
