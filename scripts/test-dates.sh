#!/usr/bin/env bash
# The non-browser suite at each date that has broken date-dependent code or tests before:
# the day the renewal window opens, half an hour before the December 31 expiry (Central
# time, already January 1 in UTC), the first Monday of a new year, a Saturday, and a leap
# day. Extra arguments go to pytest. Usage: scripts/test-dates.sh [DATE ...] [-- PYTEST ARGS]
set -uo pipefail
cd "$(dirname "$0")/.."
dates=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do dates+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
[ ${#dates[@]} -gt 0 ] || dates=(2026-12-02 2026-12-31T23:30 2027-01-04 2027-02-06 2028-02-29)
failed=()
for clock in "${dates[@]}"; do
  echo "=== the suite with the clock at $clock (America/Chicago) ==="
  ./scripts/test.sh -m "not e2e" --clock "$clock" "$@" || failed+=("$clock")
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "test-dates: failed at ${failed[*]}" >&2
  exit 1
fi
echo "test-dates: passed at ${dates[*]}"
