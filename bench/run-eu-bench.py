#!/usr/bin/env python3
"""Execution-unit micro-benchmark: softgpu's interpreter against the host's own
C loops (-O3 -march=native), per warp width, in one run.

Runs bench_eu (bench/bench_eu.c; built in a release tree, by default
build/, with cmake --build) and prints, per benchmark and warp width, the
GPU's and the C loop's lane-operations per second and their ratio, then
checks the targets at W=32 (stream >= 70% of the C loop, arith >= 15%).
Only ratios measured in the same run mean anything on a shared machine, and
on a loaded one only the CPU-time ratio (process CPU time of the GPU's
workers against the C threads') does: wall time counts the time other
processes took the cores.

    bench/run-eu-bench.py                      # build, run, print the table
    bench/run-eu-bench.py --threads 1          # SOFTGPU_THREADS for the run
    bench/run-eu-bench.py --profile stream     # plus a callgrind profile of
                                               # one benchmark at W=32
    bench/run-eu-bench.py --quick              # small sizes (smoke test)

Exits 0 when every GPU result agreed with the C loop's, whatever the ratios
(targets missed are reported, not failed, unless --strict).
Standard library only.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

from benchlib import ROOT, log

TARGETS = {"stream": 0.70, "arith": 0.15}   # at W=32
UNITS = {"arith": "Mop/s", "stream": "Mel/s", "stream4": "Mel/s", "barrier": "Mop/s"}


def build(build_dir):
    if not os.path.exists(os.path.join(build_dir, "CMakeCache.txt")):
        subprocess.run(["cmake", "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=RelWithDebInfo"],
                       check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", build_dir, "--target", "bench_eu", "-j",
                    str(os.cpu_count() or 1)], check=True, stdout=subprocess.DEVNULL)
    return os.path.join(build_dir, "bench", "bench_eu")


def run(binary, args, env):
    proc = subprocess.run([binary] + args, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)
    info, results = {}, []
    for line in proc.stdout.splitlines():
        f = line.split()
        if not f:
            continue
        if f[0] == "info" and len(f) >= 3:
            info[f[1]] = " ".join(f[2:])
        elif f[0] == "result" and len(f) >= 7:
            results.append({"bench": f[1], "w": int(f[2]), "ops": float(f[3]),
                            "gpu_ns": int(f[4]), "c_ns": int(f[5]), "agree": f[6] == "1",
                            "gpu_cpu": int(f[7]) if len(f) > 8 else 0,
                            "c_cpu": int(f[8]) if len(f) > 8 else 0})
    if proc.returncode != 0:
        log(proc.stderr)
        log("bench_eu exited with %d" % proc.returncode)
    return info, results, proc.returncode


def table(info, results):
    lines = ["execution units vs C loops: %s execution-unit workers and as many C threads "
             "(%s cores), %s interpreter, best of %s runs%s" %
             (info.get("threads", "?"), info.get("cores", "?"), info.get("interpreter", "?"),
              info.get("reps", "?"), ", QUICK sizes" if info.get("quick") == "1" else ""),
             "",
             "| benchmark | W | GPU | C -O3 -march=native | GPU / C (wall) "
             "| GPU / C (CPU time) | results agree |",
             "|---|---:|---:|---:|---:|---:|---|"]
    for r in results:
        unit = UNITS.get(r["bench"], "op/s")
        g = r["ops"] / (r["gpu_ns"] * 1e-9) / 1e6
        c = r["ops"] / (r["c_ns"] * 1e-9) / 1e6
        cpu = "%.1f%%" % (100.0 * r["c_cpu"] / r["gpu_cpu"]) if r["gpu_cpu"] else "-"
        lines.append("| %s | %d | %.1f %s | %.1f %s | %.1f%% | %s | %s |" %
                     (r["bench"], r["w"], g, unit, c, unit, 100.0 * g / c, cpu,
                      "yes" if r["agree"] else "NO"))
    return "\n".join(lines)


def targets(results):
    out, missed = [], 0
    for bench, want in TARGETS.items():
        rs = [r for r in results if r["bench"] == bench and r["w"] == 32]
        if not rs:
            continue
        ratio = rs[0]["c_ns"] / rs[0]["gpu_ns"]
        cpu = rs[0]["c_cpu"] / rs[0]["gpu_cpu"] if rs[0]["gpu_cpu"] else ratio
        ok = max(ratio, cpu) >= want
        missed += not ok
        out.append("target %-7s W=32: %5.1f%% of the C loop in wall time, %5.1f%% in CPU time "
                   "(target >= %.0f%%): %s" % (bench, 100 * ratio, 100 * cpu, 100 * want,
                                              "met" if ok else "MISSED"))
    return "\n".join(out), missed


def profile(binary, bench, env):
    """Callgrind profile of one benchmark at W=32 on one worker, small sizes."""
    if not shutil.which("valgrind"):
        log("valgrind is not installed: no profile")
        return
    tmp = tempfile.mkdtemp(prefix="bench_eu_prof.")
    out = os.path.join(tmp, "callgrind.out")
    env = dict(env, SOFTGPU_THREADS="1")
    cmd = ["valgrind", "--tool=callgrind", "--dump-instr=no", "--callgrind-out-file=" + out,
           binary, "--quick", "--reps", "1", "--only", bench, "--widths", "32"]
    log("profiling: " + " ".join(cmd))
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ann = subprocess.run(["callgrind_annotate", "--inclusive=no", out],
                         stdout=subprocess.PIPE, text=True).stdout
    print("\n### callgrind: functions (self cost), %s at W=32, 1 worker\n" % bench)
    print("```")
    for line in ann.splitlines()[:60]:
        if re.match(r"\s*[\d,]+ \(", line) or "PROGRAM TOTALS" in line or line.startswith("Ir"):
            print(line)
    print("```")
    src = os.path.join(ROOT, "hw", "hw_interp.c")
    lines = subprocess.run(["callgrind_annotate", "--auto=no", out, src],
                           stdout=subprocess.PIPE, text=True).stdout.splitlines()
    costs = []
    for line in lines:
        m = re.match(r"\s*([\d,]+) \(\s*([\d.]+)%\)\s+(.*)", line)
        if m and float(m.group(2)) >= 0.5:
            costs.append((float(m.group(2)), m.group(3).strip()))
    costs.sort(reverse=True)
    print("\n### hot lines of hw/hw_interp.c (>= 0.5%% of %s)\n" % bench)
    print("```")
    for pct, text in costs[:40]:
        print("%5.1f%%  %s" % (pct, text[:110]))
    print("```")
    shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    ap.add_argument("--binary", help="a built bench_eu (skips the build)")
    ap.add_argument("--threads", type=int, help="SOFTGPU_THREADS (default: every core)")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", help="arith,stream,stream4,barrier")
    ap.add_argument("--widths", help="e.g. 8,16,32,64")
    ap.add_argument("--profile", metavar="BENCH", help="callgrind profile of BENCH at W=32")
    ap.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    a = ap.parse_args()
    binary = a.binary or build(a.build_dir)
    env = dict(os.environ)
    if a.threads:
        env["SOFTGPU_THREADS"] = str(a.threads)
    args = ["--reps", str(a.reps)]
    if a.quick:
        args.append("--quick")
    if a.only:
        args += ["--only", a.only]
    if a.widths:
        args += ["--widths", a.widths]
    info, results, rc = run(binary, args, env)
    print(table(info, results))
    text, missed = targets(results)
    print()
    print(text)
    if a.profile:
        profile(binary, a.profile, env)
    bad = rc != 0 or not results or not all(r["agree"] for r in results)
    sys.exit(1 if bad or (a.strict and missed) else 0)


if __name__ == "__main__":
    main()
