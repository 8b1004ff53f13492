-- wrk's --latency prints p50/75/90/99; the goals speak of p95 (tests/bench/bench_web.py).
done = function(summary, latency, requests)
  io.write(string.format(
    "bench-web: p50 %.2f ms, p95 %.2f ms, p99 %.2f ms, %d requests, %d errors, %d non-2xx\n",
    latency:percentile(50) / 1000, latency:percentile(95) / 1000,
    latency:percentile(99) / 1000, summary.requests,
    summary.errors.connect + summary.errors.read + summary.errors.write
      + summary.errors.timeout,
    summary.errors.status))
end
