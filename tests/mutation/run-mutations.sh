#!/usr/bin/env bash
# Mutation tests: is tests/vulkan/test_stress.c sharp enough to catch a
# deliberately broken driver?
#
# For each mutation (SOFTGPU_MUTATION in the top-level CMakeLists.txt):
#   no_wfi         SEM_RELEASE no longer waits for prior work (hw/hw_engine.c)
#   early_recycle  pushbuffer memory is recycled one release early
#                  (sg_progress_reached in src/sg_pushbuf.c)
# this configures build-mutation-<name> (RelWithDebInfo), builds the driver
# and test_stress only, and runs test_stress with seeds 1..20 against that
# build's driver. The mutation must be caught (the test must fail) within
# those seeds; the first failing seed is reported. A mutation that survives
# every seed fails this script.
#
# The runs use the slow-GPU delay of the sync tests (SGT_SLOW_GPU_DELAY in
# tests/CMakeLists.txt) and no validation layer (SGT_NO_VALIDATION=1): an
# early recycled submission-stream block is only observable when the host
# runs ahead of the GPU, and the validation layer slows the host down more
# than the GPU. Validation is not what detects anything here: the test's own
# model of the GPU's work does.
#
# Usage: tests/mutation/run-mutations.sh [mutation...]
# Environment: SGT_MUTATION_SEEDS (default 20), SGT_MUTATION_DELAY (default
# SGT_SLOW_GPU_DELAY), SGT_MUTATION_RUN_TIMEOUT (seconds per run, default 120).
# Exit status: 0 every mutation caught, 1 a mutation survived, 2 the harness
# itself failed (configure, build, or a run that failed without a verdict).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
jobs=$(nproc)
seeds=${SGT_MUTATION_SEEDS:-20}
run_timeout=${SGT_MUTATION_RUN_TIMEOUT:-120}
mutations=("$@")
[ ${#mutations[@]} -gt 0 ] || mutations=(no_wfi early_recycle)

delay=${SGT_MUTATION_DELAY:-}
if [ -z "$delay" ]; then
  delay=$(sed -n 's/^set(SGT_SLOW_GPU_DELAY "\(.*\)")$/\1/p' "$root/tests/CMakeLists.txt")
  delay=${delay:-cp:0-40,dma:0-80,seed:7}
fi

say() { echo "run-mutations: $*" >&2; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
# seconds with one decimal from a span in milliseconds
secs() { printf '%d.%d' $(( $1 / 1000 )) $(( $1 % 1000 / 100 )); }
die() { say "ERROR: $*"; exit 2; }

start_all=$(now_ms)
survived=()
summary=()

for m in "${mutations[@]}"; do
  case "$m" in
    no_wfi) define=SOFTGPU_MUTATION_NO_WFI ;;
    early_recycle) define=SOFTGPU_MUTATION_EARLY_RECYCLE ;;
    *) die "unknown mutation '$m' (known: no_wfi early_recycle)" ;;
  esac
  dir="$root/build-mutation-$m"
  logs="$dir/mutation-logs"
  start=$(now_ms)
  say "== $m: configuring and building $dir"
  if ! cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
         -DSOFTGPU_MUTATION="$m" >"$dir.configure.log" 2>&1; then
    cat "$dir.configure.log" >&2
    die "$m: configure failed"
  fi
  rm -f "$dir.configure.log"
  cmake --build "$dir" -j"$jobs" --target vulkan_softgpu test_stress >/dev/null ||
    die "$m: build failed (rerun: cmake --build $dir --target vulkan_softgpu test_stress)"
  # The mutation must really be compiled in.
  grep -rqs -- "-D$define" "$dir/src/CMakeFiles" "$dir/hw/CMakeFiles" ||
    die "$m: $define is not in the build's compile flags"
  built=$(now_ms)

  mkdir -p "$logs"
  rm -f "$logs"/seed-*.log
  caught=""
  for seed in $(seq 1 "$seeds"); do
    log="$logs/seed-$seed.log"
    t0=$(now_ms)
    rc=0
    env VK_DRIVER_FILES="$dir/softgpu_icd.json" VK_LOADER_LAYERS_DISABLE='~implicit~' \
        SOFTGPU_DELAY="$delay" SGT_NO_VALIDATION=1 \
        timeout -k 10 "$run_timeout" "$dir/tests/vulkan/test_stress" "$seed" >"$log" 2>&1 || rc=$?
    took=$(secs $(( $(now_ms) - t0 )))
    if [ "$rc" -eq 0 ]; then
      say "$m: seed $seed passed (${took} s): not caught yet"
      continue
    fi
    verdict=$(grep -m1 -E '^test_stress: FAIL|^validation message' "$log" || true)
    if [ -n "$verdict" ]; then
      how="failed"
    elif [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
      how="hung (killed after ${run_timeout} s)"
      verdict="(no verdict: the run did not finish)"
    elif [ "$rc" -gt 128 ]; then
      how="crashed (signal $((rc - 128)))"
      verdict=$(tail -n 3 "$log" | tr '\n' ' ')
    else
      tail -n 20 "$log" >&2
      die "$m: seed $seed exited with $rc without a test verdict (harness problem, see $log)"
    fi
    caught="$seed"
    say "$m: CAUGHT by seed $seed (${took} s): test_stress $how:"
    say "    $verdict"
    say "    log: $log"
    break
  done
  total=$(secs $(( $(now_ms) - start )))
  build_secs=$(secs $(( built - start )))
  if [ -n "$caught" ]; then
    summary+=("$m: caught by seed $caught (build ${build_secs} s, total ${total} s)")
  else
    survived+=("$m")
    summary+=("$m: SURVIVED seeds 1..$seeds (build ${build_secs} s, total ${total} s)")
    say "!!!!!! MUTATION SURVIVED: $m was not caught by test_stress with seeds 1..$seeds !!!!!!"
    say "!!!!!! test_stress is not sharp enough to detect this driver bug (logs: $logs)"
  fi
done

say "== summary ($(secs $(( $(now_ms) - start_all ))) s):"
for line in "${summary[@]}"; do
  say "   $line"
done
if [ ${#survived[@]} -gt 0 ]; then
  say "FAILED: mutation(s) survived: ${survived[*]}"
  exit 1
fi
say "all mutations caught"
