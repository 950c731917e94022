#!/usr/bin/env bash
# tools/softgpu: `run` makes softgpu the program's only Vulkan driver (with
# VK_DRIVER_FILES unset beforehand) and passes the log, stats and
# hang-report options through, and --capture writes SOFTGPU_CAPTURE files
# that `dump` decodes (launch and releases named, a truncated file
# reported); usage errors exit 2 with a message.
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
# The job is judged by its output, as the example's own test does (in ASan
# builds its exit status reports leaks outside softgpu's control).
out=$("$tool" run --log info --stats --hang-report-ms 5000 -- "$saxpy" 2>&1)
grep -q "result: correct" <<< "$out" || fail "softgpu run -- compute_saxpy failed: $out"
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

# A capture of the compute job, decoded: its launch and its releases.
out=$("$tool" run --capture "$scratch/capture" -- "$saxpy" 2>&1)
grep -q "result: correct" <<< "$out" || fail "softgpu run --capture failed: $out"
captures=("$scratch"/capture/softgpu-*-ch0.sgcap)
if [ -f "${captures[0]}" ]; then
  out=$("$tool" dump "${captures[0]}") || fail "softgpu dump of a capture exited $?: $out"
  for want in "# submission 1, channel 0: ring entry, pushbuffer 0x" "  LAUNCH_EMBEDDED program=0x" \
              "  SEM_RELEASE va=0x" " wfi interrupt" "  LINK_SLOT " "capture records"; do
    grep -qF -- "$want" <<< "$out" || fail "the decoded capture lacks \"$want\": $out"
  done
  # A truncated capture is reported, not misread.
  head -c 40 "${captures[0]}" > "$scratch/truncated"
  out=$("$tool" dump "$scratch/truncated"); rc=$?
  { [ $rc -eq 1 ] && grep -q "truncated" <<< "$out"; } ||
    fail "a truncated capture: exit $rc: $out"
else
  fail "no capture file for channel 0 in $scratch/capture"
fi

# Usage errors.
for args in "" "bogus" "run" "run --log" "log" "log 1" "log notapid debug" "dump"; do
  # shellcheck disable=SC2086
  "$tool" $args > /dev/null 2> "$scratch/err"
  rc=$?
  { [ $rc -eq 2 ] && [ -s "$scratch/err" ]; } || fail "softgpu $args: exit $rc, want 2 with a message"
done

[ $failures -eq 0 ] && echo PASS
exit $((failures > 0))
