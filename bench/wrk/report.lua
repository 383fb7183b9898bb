-- wrk reporting script for nginx-gen-bench: prints one machine-readable line at the end.
-- Latency values are microseconds; errors.status counts responses with status > 399.
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "NGB requests=%d duration_us=%d bytes=%d connect=%d read=%d write=%d status=%d timeout=%d p50=%d p99=%d max=%d\n",
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write,
    e.status, e.timeout, latency:percentile(50), latency:percentile(99), latency.max))
end
