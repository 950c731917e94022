#!/usr/bin/env python3
"""Compute benchmark: softgpu side by side with lavapipe, in one run.

Builds bench_compute (and softgpu) in a release build tree, then runs it
alternately on softgpu and on lavapipe (Debian's mesa-vulkan-drivers), each
run a fresh process through the Vulkan loader with no layers. Per metric it
takes the median over the runs of each driver and reports softgpu/lavapipe
ratios: only ratios from the same run mean anything on a shared machine.
Every run checks its results; a wrong result (or any failure) on either
driver stops the script with a non-zero status.

    bench/run-compute-bench.py              # build, run, print the tables
    bench/run-compute-bench.py --write      # ... and update docs/performance.md
    bench/run-compute-bench.py --quick      # small sizes, 2 rounds: a smoke test

The 1024x1024 sgemm takes lavapipe tens of seconds on a 2-core machine, so
it runs only in the first --sgemm-rounds rounds (default 3), once per run.

The ml_* phases run the machine-learning kernels of tests/vulkan/test_compute_ml.c
(matrix-vector products in f16 and 8- and 4-bit blocks, an f16 matrix
product, softmax, RMS norm), in a table of their own; `--only
ml_matvec_f16,ml_matvec_q8,ml_matvec_q4,ml_matmul_f16,ml_softmax,ml_rmsnorm`
runs just them.

Standard library only.
"""

import argparse
import datetime
import json
import os
import subprocess
import sys
import time

from benchlib import DOC, LAVAPIPE_MANIFEST, ROOT
from benchlib import (log, cpu_model, interleaved, os_name,
                      git_rev, lavapipe_version, med, values, fmt, paired_ratios, section,
                      write_doc, run_one)

BEGIN = "<!-- compute-bench:begin (written by bench/run-compute-bench.py --write) -->"
END = "<!-- compute-bench:end -->"
SECTION = "## Compute"

PHASES = ["init", "pipeline", "dispatch", "saxpy", "sgemm", "reduce", "barrier",
          "ml_matvec_f16", "ml_matvec_q8", "ml_matvec_q4", "ml_matmul_f16", "ml_softmax",
          "ml_rmsnorm"]

# (metric, what, unit, higher is better)
HEADLINE = [
    ("dispatch.rate", "`dispatch`: {dispatches} x vkCmdDispatch(1,1,1) in one command buffer, "
     "64 invocations each storing one u32", "dispatch/s", True),
    ("dispatch_barrier.rate", "`dispatch_barrier`: the same with a buffer memory barrier "
     "between consecutive dispatches", "dispatch/s", True),
    ("saxpy.gbps", "`saxpy`: y = a*x + y, {saxpy_n} floats (12 bytes per element)", "GB/s",
     True),
    ("sgemm.gflops", "`sgemm`: {sgemm_n}x{sgemm_n}, 16x16 tiles in shared memory (2n^3 flops)",
     "GFLOP/s", True),
    ("reduce.gbps", "`reduce`: u32 sum of {reduce_n} elements, shared memory + one atomicAdd per "
     "workgroup (4 bytes per element)", "GB/s", True),
    ("barrier.mops", "`barrier`: bench_eu's barrier loop as a shader, {barrier_groups} "
     "workgroups of 256 x 64 iterations of shared store, barrier, shared load + add, barrier "
     "(3 lane-operations each)", "Mop/s", True),
    ("pipeline.ms", "`pipeline`: vkCreateShaderModule + vkCreateComputePipelines (no cache) + "
     "first dispatch (64x64 sgemm) + wait", "ms", False),
    ("init.ms", "`init`: vkCreateInstance + vkEnumeratePhysicalDevices + vkCreateDevice",
     "ms", False),
]
# The machine-learning kernels (tests/vulkan/test_compute_ml.c's shaders).
ML = [
    ("ml_matvec_f16.gbps", "`ml_matvec_f16`: y = A x, A {ml_n}x{ml_n} in f16, f32 "
     "accumulation (bytes of A, x and y)", "GB/s", True),
    ("ml_matvec_q8.gbps", "`ml_matvec_q8`: the same, A in 8-bit blocks with f16 scales",
     "GB/s", True),
    ("ml_matvec_q4.gbps", "`ml_matvec_q4`: the same, A in 4-bit blocks with f16 scales",
     "GB/s", True),
    ("ml_matmul_f16.gflops", "`ml_matmul_f16`: C = A B^T, A {ml_mm}x{ml_mm} and B "
     "{ml_batch}x{ml_mm} in f16, 64x32 tiles in shared memory (2MNK flops)", "GFLOP/s", True),
    ("ml_softmax.gbps", "`ml_softmax`: online softmax of {ml_rows} rows of {ml_n} f16 logits "
     "with a mask, f32 out (6 bytes per element)", "GB/s", True),
    ("ml_rmsnorm.gbps", "`ml_rmsnorm`: RMS norm of {ml_rows} rows of {ml_n} f32 values "
     "(8 bytes per element)", "GB/s", True),
]
DETAIL = [
    ("pipeline.create_ms", "`pipeline` module + pipeline creation only", "ms", False),
    ("pipeline.dispatch_ms", "`pipeline` first dispatch only (record, submit, wait)", "ms", False),
    ("pipeline.first_ms", "`pipeline` the process's very first pipeline + dispatch", "ms", False),
    ("init.instance_ms", "`init` instance (+ physical device enumeration)", "ms", False),
    ("init.device_ms", "`init` device", "ms", False),
    ("init.first_ms", "`init` the process's first instance + device", "ms", False),
    ("dispatch.gpu_rate", "`dispatch` by GPU timestamps", "dispatch/s", True),
    ("dispatch_barrier.gpu_rate", "`dispatch_barrier` by GPU timestamps", "dispatch/s", True),
    ("dispatch.record_ms", "`dispatch` recording the command buffer", "ms", False),
    ("dispatch_barrier.record_ms", "`dispatch_barrier` recording the command buffer", "ms",
     False),
    ("saxpy.gpu_gbps", "`saxpy` by GPU timestamps", "GB/s", True),
    ("sgemm.gpu_gflops", "`sgemm` by GPU timestamps", "GFLOP/s", True),
    ("reduce.gpu_gbps", "`reduce` by GPU timestamps", "GB/s", True),
    ("barrier.gpu_mops", "`barrier` by GPU timestamps", "Mop/s", True),
]
# (host metric, the driver's metric, the driver's ratio to it (None: computed
# here), what, unit)
HOST = [
    ("host_triad.gbps", "saxpy.gbps", "saxpy.vs_host", "the same triad loop in C, 1 thread",
     "GB/s"),
    ("host_triad_mt.gbps", "saxpy.gbps", "saxpy.vs_host_mt",
     "the same triad loop in C, one thread per core", "GB/s"),
    ("host_sum.gbps", "reduce.gbps", None, "the same sum in C, 1 thread", "GB/s"),
    ("host_fma.gflops", "sgemm.gflops", "sgemm.vs_fma_peak",
     "the FMA peak: independent chains of vector FMAs in registers, one thread per core "
     "(`sgemm` rounds only)", "GFLOP/s"),
]
CPU_PHASES = ["dispatch", "dispatch_barrier", "saxpy", "sgemm", "reduce", "barrier"]


# ---- running and parsing ----------------------------------------------------------

# ---- statistics ---------------------------------------------------------------------

def fratio(x):
    if x != x:
        return "n/a"
    return f"{x:.3g}"


def sizes(runs):
    """The problem sizes the runs used, for the tables' wording."""
    info = runs[0]["info"]
    def count(k):
        v = int(info.get(k, "0"))
        return f"{v >> 20}M" if v >= 1 << 20 and v % (1 << 20) == 0 else str(v)
    out = {k: count(k) for k in ("dispatches", "saxpy_n", "sgemm_n", "reduce_n",
                                 "barrier_groups", "ml_n")}
    ml_n = int(info.get("ml_n", "0"))
    out.update(ml_mm=str(ml_n // 8), ml_batch=str(ml_n // 32), ml_rows=str(ml_n // 8))
    return out


def compare(sg, lvp, rows):
    out = []
    for key, what, unit, higher in rows:
        what = what.format(**sizes(sg))
        a, b = med(values(sg, key)), med(values(lvp, key))
        pr = paired_ratios(sg, lvp, key)
        n = sum(1 for x in values(sg, key) if x is not None)
        out.append({"key": key, "what": what, "unit": unit, "higher": higher, "sg": a,
                    "lvp": b, "ratio": a / b if b else float("nan"),
                    "lo": min(pr) if pr else float("nan"),
                    "hi": max(pr) if pr else float("nan"), "n": n})
    return out


# ---- report ------------------------------------------------------------------------

def ratio_table(L, sg, lvp, rows):
    """Appends a table of rows (metric, softgpu, lavapipe, ratio) to L."""
    L.append("| metric | softgpu | lavapipe | ratio (paired) | better |")
    L.append("|---|---|---|---|---|")
    for row in compare(sg, lvp, rows):
        L.append(f"| {row['what']} | {fmt(row['sg'])} {row['unit']} | {fmt(row['lvp'])} "
                 f"{row['unit']} | {fratio(row['ratio'])} ({fratio(row['lo'])}-"
                 f"{fratio(row['hi'])}) | {'higher' if row['higher'] else 'lower'} |")


def markdown(sg, lvp, meta):
    L = []
    L.append(f"{meta['rounds']} interleaved rounds (softgpu, lavapipe, softgpu, ...), each run a "
             f"fresh process; `sgemm` only in the first {meta['sgemm_rounds']} rounds. Within a "
             f"run every phase is timed {meta['reps']} times (`sgemm` {meta['sgemm_reps']}) after "
             f"one untimed warm-up, and every result is checked. softgpu {meta['softgpu']}, "
             f"lavapipe: {meta['lavapipe']}. Figures are medians over the runs of each driver; "
             f"ratio = softgpu / lavapipe (above 1 is better for softgpu on rates, below 1 on "
             f"times); \"paired\" is the range of the per-round ratios.")
    L.append("")
    ratio_table(L, sg, lvp, HEADLINE)
    L.append("")
    L.append("Machine-learning kernels (`tests/vulkan/test_compute_ml.c`'s shaders, at each "
             "driver's default subgroup size, every result checked against its C reference "
             "within the test's error bound; n/a: the driver lacks a feature the kernel needs):")
    L.append("")
    ratio_table(L, sg, lvp, ML)
    L.append("")
    L.append("The host's own loops, in the same processes (C, -O3 -march=native, on "
             "malloc'ed arrays of the same size), and each driver's result as a fraction of "
             "them:")
    L.append("")
    L.append("| host loop | in softgpu's runs | in lavapipe's runs | softgpu / host | lavapipe / host |")
    L.append("|---|---|---|---|---|")
    for key, driver, vs, what, unit in HOST:
        a, b = med(values(sg, key)), med(values(lvp, key))
        if vs:
            va, vb = med(values(sg, vs)), med(values(lvp, vs))
        else:
            va = med(values(sg, driver)) / a if a else float("nan")
            vb = med(values(lvp, driver)) / b if b else float("nan")
        L.append(f"| `{key.split('.')[0]}` {what} | {fmt(a)} {unit} | {fmt(b)} {unit} "
                 f"| {fratio(va)} | {fratio(vb)} |")
    L.append("")
    L.append("Details (medians; GPU timestamps are vkCmdWriteTimestamp at the start and end of "
             "the timed command buffer):")
    L.append("")
    L.append("| metric | softgpu | lavapipe | ratio (paired) |")
    L.append("|---|---|---|---|")
    for row in compare(sg, lvp, DETAIL):
        L.append(f"| {row['what']} | {fmt(row['sg'])} {row['unit']} | {fmt(row['lvp'])} "
                 f"{row['unit']} | {fratio(row['ratio'])} ({fratio(row['lo'])}-"
                 f"{fratio(row['hi'])}) |")
    L.append("")
    L.append("CPU time of all threads / wall time during the timed submissions (getrusage "
             "RUSAGE_SELF; medians over runs; at most the number of cores):")
    L.append("")
    L.append("| phase | " + " | ".join(f"`{p}`" for p in CPU_PHASES) + " |")
    L.append("|---|" + "---|" * len(CPU_PHASES))
    for name, runs in (("softgpu", sg), ("lavapipe", lvp)):
        L.append(f"| {name} | " + " | ".join(
            f"{med(values(runs, p + '.cpu_per_wall')):.2f}" for p in CPU_PHASES) + " |")
    L.append("")
    L.append("Per round (foreign load: cores other processes kept busy during the run, "
             "softgpu / lavapipe; then softgpu / lavapipe):")
    L.append("")
    L.append("| round | foreign load | dispatch/s | saxpy GB/s | sgemm GFLOP/s | reduce GB/s "
             "| pipeline ms |")
    L.append("|---|---|---|---|---|---|---|")
    for i, (x, y) in enumerate(zip(sg, lvp)):
        mx, my = x["metrics"], y["metrics"]
        cell = lambda k: (f"{fmt(mx[k])} / {fmt(my[k])}" if k in mx and k in my else "-")
        L.append(f"| {i + 1} | {x['foreign_cores']:.2f} / {y['foreign_cores']:.2f} | " +
                 " | ".join(cell(k) for k in ("dispatch.rate", "saxpy.gbps", "sgemm.gflops",
                                              "reduce.gbps", "pipeline.ms")) + " |")
    L.append("")
    foreign = lambda runs: (f"{med([r['foreign_cores'] for r in runs]):.2f} / "
                            f"{max(r['foreign_cores'] for r in runs):.2f}")
    L.append(f"Machine load from other processes while the runs ran (cores busy outside the "
             f"benchmark, median / max over runs): softgpu runs {foreign(sg)}, lavapipe runs "
             f"{foreign(lvp)}; steal {max(r['steal_cores'] for r in sg + lvp):.2f} cores at "
             f"most. Before each round the script waited up to {meta['quiet_wait']:g} s for the "
             f"rest of the machine to go quiet (under 0.25 cores busy; {meta['max_wait']:g} s "
             f"at most per invocation): {meta['waited']:.0f} s in all. Total "
             f"{meta['total_s'] / 60:.0f} minutes.")
    return "\n".join(L)


# ---- main --------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=10,
                    help="interleaved softgpu/lavapipe rounds (default 10)")
    ap.add_argument("--sgemm-rounds", type=int, default=3,
                    help="rounds (the first ones) that run the sgemm phase (default 3)")
    ap.add_argument("--reps", type=int, default=3,
                    help="timed repetitions of each phase per run (default 3)")
    ap.add_argument("--sgemm-reps", type=int, default=1,
                    help="timed repetitions of sgemm per run (default 1)")
    ap.add_argument("--sgemm-n", type=int, default=1024, help="sgemm size (default 1024)")
    ap.add_argument("--only", help="comma-separated phases (default all: " +
                    ",".join(PHASES) + ")")
    ap.add_argument("--quick", action="store_true",
                    help="small sizes and 2 rounds: checks that everything runs; not with --write")
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build-bench"),
                    help="release build tree for the benchmark (default build-bench)")
    ap.add_argument("--no-build", action="store_true", help="use the build tree as it is")
    ap.add_argument("--lavapipe", default=LAVAPIPE_MANIFEST, help="lavapipe's ICD manifest")
    ap.add_argument("--softgpu", help="softgpu's ICD manifest (default: the build tree's)")
    ap.add_argument("--timeout", type=float, default=1800,
                    help="seconds one bench_compute run may take (default 1800)")
    ap.add_argument("--write", action="store_true",
                    help="update the Compute section of docs/performance.md")
    ap.add_argument("--json", help="also write the raw results here")
    ap.add_argument("--quiet-wait", type=float, default=15,
                    help="before each round, wait up to this many seconds for other processes "
                    "to leave the CPUs alone (default 15; 0: never wait)")
    ap.add_argument("--max-wait", type=float, default=120,
                    help="total seconds of such waiting per invocation (default 120)")
    a = ap.parse_args()
    if a.quick:
        if a.write:
            sys.exit("--quick runs are not recorded (--write)")
        a.rounds = min(a.rounds, 2)
        a.sgemm_rounds = min(a.sgemm_rounds, a.rounds)
        a.quiet_wait = 0
    if a.write and (a.rounds < 10 or a.only):
        sys.exit("--write needs at least 10 rounds of every phase")
    only = a.only.split(",") if a.only else list(PHASES)
    for p in only:
        if p not in PHASES:
            sys.exit(f"unknown phase {p} (phases: {', '.join(PHASES)})")

    build = os.path.abspath(a.build_dir)
    rel = os.path.relpath(build, ROOT)
    commands_build = [
        f"cmake -S . -B {rel} -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSOFTGPU_SANITIZE=",
        f"cmake --build {rel} --target bench_compute -j{os.cpu_count()}",
    ]
    if not a.no_build:
        subprocess.run(["cmake", "-S", ROOT, "-B", build, "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
                        "-DSOFTGPU_SANITIZE="], check=True, stdout=subprocess.DEVNULL)
        subprocess.run(["cmake", "--build", build, "--target", "bench_compute",
                        f"-j{os.cpu_count()}"], check=True, stdout=subprocess.DEVNULL)
    exe = os.path.join(build, "bench", "bench_compute")
    sg_manifest = os.path.abspath(a.softgpu) if a.softgpu else os.path.join(build,
                                                                           "softgpu_icd.json")
    for f in (exe, sg_manifest, a.lavapipe):
        if not os.path.exists(f):
            sys.exit(f"missing {f}")

    args = ["--reps", str(a.reps), "--sgemm-reps", str(a.sgemm_reps), "--sgemm-n",
            str(a.sgemm_n)]
    if a.quick:
        args = ["--quick"] + args[:2] + ["--sgemm-reps", "1"]

    def round_args(i):
        phases = [p for p in only if p != "sgemm" or i < a.sgemm_rounds]
        return args + ["--only", ",".join(phases)]

    def progress(i, sg, lvp):
        x, y = sg[-1]["metrics"], lvp[-1]["metrics"]
        pick = lambda m, k: fmt(m[k]) if k in m else "-"
        log(f"round {i + 1}/{a.rounds}: dispatch/s {pick(x, 'dispatch.rate')} / "
            f"{pick(y, 'dispatch.rate')}, saxpy GB/s {pick(x, 'saxpy.gbps')} / "
            f"{pick(y, 'saxpy.gbps')}, sgemm GFLOP/s {pick(x, 'sgemm.gflops')} / "
            f"{pick(y, 'sgemm.gflops')} ({time.monotonic() - t0:.0f} s, "
            f"runs {sg[-1]['process_wall_s']:.0f} + {lvp[-1]['process_wall_s']:.0f} s)")

    t0 = time.monotonic()
    sg, lvp, waited = interleaved(
        a.rounds, a.quiet_wait, a.max_wait,
        lambda i, softgpu: run_one(exe, sg_manifest if softgpu else a.lavapipe, round_args(i),
                                   softgpu, a.timeout), progress)

    uname = os.uname()
    cmd = "bench/run-compute-bench.py" + (" --write" if a.write else "")
    for opt, default in (("rounds", 10), ("sgemm_rounds", 3), ("reps", 3), ("sgemm_reps", 1),
                         ("sgemm_n", 1024)):
        if getattr(a, opt) != default and not a.quick:
            cmd += f" --{opt.replace('_', '-')} {getattr(a, opt)}"
    sg_cmd = " ".join(round_args(0))
    meta = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{os.cpu_count()} cores (nproc), CPU {cpu_model()}, kernel {uname.release}, "
                   f"{os_name()}",
        "rounds": a.rounds, "sgemm_rounds": min(a.sgemm_rounds, a.rounds), "reps": a.reps,
        "sgemm_reps": a.sgemm_reps,
        "softgpu": f"{sg[0]['info'].get('api_version', '?')} (git {git_rev()})",
        "lavapipe": f"{lvp[0]['info'].get('device', '?')}, Vulkan "
                    f"{lvp[0]['info'].get('api_version', '?')} ({lavapipe_version()})",
        "waited": waited, "quiet_wait": a.quiet_wait, "max_wait": a.max_wait,
        "total_s": time.monotonic() - t0,
        "commands": [cmd, "# which builds, then runs in each round (sgemm only in the first "
                     f"{min(a.sgemm_rounds, a.rounds)}):"] + commands_build + [
            f"SOFTGPU_WATCHDOG_MS=600000 VK_DRIVER_FILES=$PWD/{os.path.relpath(sg_manifest, ROOT)} "
            f"VK_LOADER_LAYERS_DISABLE='~all~' NODEVICE_SELECT=1 "
            f"{os.path.relpath(exe, ROOT)} {sg_cmd}",
            f"VK_DRIVER_FILES={a.lavapipe} VK_LOADER_LAYERS_DISABLE='~all~' NODEVICE_SELECT=1 "
            f"MESA_SHADER_CACHE_DISABLE=true {os.path.relpath(exe, ROOT)} {sg_cmd}"],
    }
    md = markdown(sg, lvp, meta)
    print(md)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"meta": meta, "softgpu": sg, "lavapipe": lvp}, f, indent=1)
    if a.write:
        write_doc(section(md, meta, BEGIN, END), BEGIN, END, SECTION)
        log(f"updated {DOC}")
    log(f"total {time.monotonic() - t0:.0f} s, of which {waited:.0f} s waiting for a quiet machine")


if __name__ == "__main__":
    main()
