#!/usr/bin/env bash
# Logging switched off (the default selection, warn) costs less than 1% more
# instructions than logging compiled out (SOFTGPU_LOG_COMPILED_OUT): both
# builds of tests/log_cost/log_cost_workload.c run under callgrind, three
# times each, and their smallest total instruction counts (every thread)
# are compared. Run to run, the counts vary by about 0.3%.
#
#   test_log_cost.sh WORKLOAD WORKLOAD_NOLOG [ROUNDS]
#
# Exit status 77 (CTest: skipped) when valgrind is not installed.
set -euo pipefail
with_log=$1 without_log=$2 rounds=${3:-1536}
limit_ppm=10000   # 1%

if ! command -v valgrind > /dev/null; then
  echo "SKIP: valgrind is not installed (tools/setup-deps installs it)"
  exit 77
fi

# Total instructions of one run ("Collected : N" on callgrind's stderr).
count() {
  local out
  out=$(env -u SOFTGPU_LOG valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        "$1" "$rounds" 2>&1) || { echo "$out" >&2; echo "FAIL: $1 failed under valgrind" >&2; exit 1; }
  echo "$out" | sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p'
}

# The fewest of three runs: what varies between runs is how often a thread
# finds nothing to do (scheduling), which only ever adds instructions.
fewest() {
  local best="" n i
  for i in 1 2 3; do
    n=$(count "$1")
    if [ -z "$best" ] || { [ -n "$n" ] && [ "$n" -lt "$best" ]; }; then best=$n; fi
  done
  echo "$best"
}

on=$(fewest "$with_log")
off=$(fewest "$without_log")
[ -n "$on" ] && [ -n "$off" ] && [ "$off" -gt 0 ] || { echo "FAIL: no instruction counts"; exit 1; }
ppm=$(( (on - off) * 1000000 / off ))
sign=+; [ "$ppm" -lt 0 ] && sign=-
abs=$(( ppm < 0 ? -ppm : ppm ))
printf 'instructions, %s rounds: logging off %s, compiled out %s: %s%d.%04d%%\n' \
  "$rounds" "$on" "$off" "$sign" $((abs / 10000)) $((abs % 10000))
if [ "$ppm" -gt "$limit_ppm" ]; then
  echo "FAIL: logging switched off costs more than 1% over logging compiled out"
  exit 1
fi
echo "PASS"
