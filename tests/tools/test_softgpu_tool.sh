#!/usr/bin/env bash
# tools/softgpu: `run` makes softgpu the program's only Vulkan driver (with
# VK_DRIVER_FILES unset beforehand) and passes the log, stats and
# hang-report options through; `dump` decodes with softgpu-dump; usage
# errors exit 2 with a message.
#
#   test_softgpu_tool.sh BUILD_DIR DEVICE_INFO COMPUTE_SAXPY
set -uo pipefail
build=$1 device_info=$2 saxpy=$3
tool="$(dirname "$0")/../../tools/softgpu"
export SOFTGPU_BUILD_DIR=$build
unset VK_DRIVER_FILES VK_ICD_FILENAMES SOFTGPU_LOG SOFTGPU_STATS
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# run: the loader sees softgpu only.
out=$("$tool" run -- "$device_info" 2>&1) || fail "softgpu run -- device_info exited $?: $out"
grep -q "softgpu (CPU)" <<< "$out" || fail "device_info did not see softgpu: $out"

# run with options: a compute job, its log at info level and the counters.
out=$("$tool" run --log info --stats --hang-report-ms 5000 -- "$saxpy" 2>&1) ||
  fail "softgpu run -- compute_saxpy exited $?: $out"
grep -q "softgpu: info: api: device created" <<< "$out" || fail "--log info had no effect: $out"
grep -q "doorbells" <<< "$out" || fail "--stats printed no counters: $out"

# The program's exit status and arguments come through.
"$tool" run -- sh -c 'exit 7' && fail "run hid the program's failure"
"$tool" run -- sh -c 'exit $(($# == 2 ? 0 : 1))' x "a b" c || fail "run changed the arguments"
out=$("$tool" run --log debug:sync -- sh -c 'echo "$SOFTGPU_LOG $SOFTGPU_HANG_REPORT_MS"')
[ "$out" = "debug:sync " ] || fail "run set the environment wrongly: \"$out\""

# dump: a ring of one entry (pushbuffer 0x1000, 4 dwords).
printf '\x00\x10\x00\x00\x00\x00\x00\x00\x04\x00\x00\x00\x00\x00\x00\x00' > "$scratch/ring"
out=$("$tool" dump --ring "$scratch/ring") || fail "softgpu dump --ring exited $?: $out"
grep -q "RING_ENTRY pushbuffer=0x1000 dwords=4" <<< "$out" || fail "dump did not decode: $out"

# Usage errors.
for args in "" "bogus" "run" "run --log" "log" "log 1" "log notapid debug" "dump"; do
  # shellcheck disable=SC2086
  "$tool" $args > /dev/null 2> "$scratch/err"
  rc=$?
  { [ $rc -eq 2 ] && [ -s "$scratch/err" ]; } || fail "softgpu $args: exit $rc, want 2 with a message"
done

[ $failures -eq 0 ] && echo PASS
exit $((failures > 0))
