#!/usr/bin/env python3
"""Submission benchmark: softgpu side by side with lavapipe, in one run.

Builds bench_submit (and softgpu) in a release build tree, then runs it
alternately on softgpu and on lavapipe (Debian's mesa-vulkan-drivers), each
run a fresh process through the Vulkan loader with no layers. Per metric it
takes the median over the runs of each driver and reports softgpu/lavapipe
ratios: only ratios from the same run mean anything on a shared machine.

    bench/run-submit-bench.py              # build, run, print the tables
    bench/run-submit-bench.py --write      # ... and update docs/performance.md

Standard library only.
"""

import argparse
import datetime
import json
import os
import re
import subprocess
import sys
import time

from benchlib import DOC, LAVAPIPE_MANIFEST, ROOT
from benchlib import parse as benchlib_parse, driver_env
from benchlib import (log, cpu_model, proc_stat, interleaved, children_cpu, os_name,
                      git_rev, lavapipe_version, med, values, fmt, paired_ratios, section,
                      write_doc)

BEGIN = "<!-- submission-bench:begin (written by bench/run-submit-bench.py --write) -->"
END = "<!-- submission-bench:end -->"

LATENCY_PHASES = [
    ("rt_fence", "round trip: vkQueueSubmit(0 batches, fence) + wait + reset"),
    ("rt_cb", "round trip: vkQueueSubmit(1 empty command buffer, fence) + wait + reset"),
    ("pingpong", "timeline ping-pong: host signal 2k+1 -> queue -> host wait 2k+2"),
]
TPUT_PHASES = [
    ("tput_1", "single: 1 command buffer per vkQueueSubmit"),
    ("tput_64cb", "64 command buffers in 1 VkSubmitInfo per call"),
    ("tput_64si", "64 VkSubmitInfo x 1 command buffer per call"),
]
RT_TARGET = 1.0 / 7.0
CPU_TARGET = 3.0
TPUT_TARGET = 10.0
RT_TARGET_8 = 1.0 / 10.0    # issue 8: fence round trip and ping-pong
TPUT_TARGET_8 = 15.0        # issue 8: single and 64 per call


# ---- running and parsing ----------------------------------------------------------

STATS_RE = re.compile(r"softgpu: report: \w+: device stats: (.*)")


def parse(stdout, stderr):
    """benchlib.parse's metrics and info, plus per-phase thread CPU times
    (stdout) and the device stats softgpu printed after each phase (stderr)."""
    r = benchlib_parse(stdout)
    r["threads"], r["stats"] = {}, {}
    for line in stdout.splitlines():
        parts = line.split()
        if parts and parts[0] == "thread" and len(parts) >= 4:
            # Lavapipe's threads share the process name; sum by name.
            t = r["threads"].setdefault(parts[1], {})
            name = re.sub(r"\d+$", "", parts[2])   # softgpu-cp3 -> softgpu-cp
            t[name] = t.get(name, 0) + int(parts[3])
    phase = None
    for line in stderr.splitlines():
        m = re.match(r"phase (\w+) end$", line)
        if m:
            phase = m.group(1)
            continue
        m = STATS_RE.match(line)
        if m and phase:
            r["stats"][phase] = {k: int(v) for k, v in
                                 (kv.split("=", 1) for kv in m.group(1).split())}
            phase = None
    return r


def run_one(exe, manifest, args, softgpu, cpus=None):
    env = driver_env(manifest, softgpu)
    if softgpu:
        env["SOFTGPU_STATS"] = "1"
    cmd = [exe] + args
    busy0, steal0, total0 = proc_stat()
    cpu0 = children_cpu()
    t0 = time.monotonic()
    pin = (lambda: os.sched_setaffinity(0, cpus)) if cpus else None
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300, preexec_fn=pin)
    wall = time.monotonic() - t0
    busy1, steal1, total1 = proc_stat()
    cpu1 = children_cpu()
    if p.returncode != 0 or "info done 1" not in p.stdout:
        log(p.stdout)
        log(p.stderr)
        sys.exit(f"bench_submit failed on {manifest} (exit {p.returncode})")
    r = parse(p.stdout, p.stderr)
    hz = os.sysconf("SC_CLK_TCK")
    ncpu = os.cpu_count() or 1
    # CPU the rest of the machine used while we ran, in cores (jiffy-coarse).
    r["foreign_cores"] = max(0.0, (busy1 - busy0) / hz - (cpu1 - cpu0)) / wall
    r["steal_cores"] = (steal1 - steal0) / hz / wall
    r["process_wall_s"] = wall
    r["ncpu"] = len(cpus) if cpus else ncpu
    return r


# ---- statistics ---------------------------------------------------------------------

def summarize(sg, lvp):
    s = {"latency": [], "tput": [], "cpu": [], "targets": [], "counters": [], "threads": []}
    for phase, what in LATENCY_PHASES:
        row = {"phase": phase, "what": what}
        for q in ("p50", "p99"):
            a, b = med(values(sg, f"{phase}.{q}")), med(values(lvp, f"{phase}.{q}"))
            pr = paired_ratios(sg, lvp, f"{phase}.{q}")
            row[q] = (a, b, a / b, min(pr), max(pr))
        row["paired_p50"] = paired_ratios(sg, lvp, f"{phase}.p50")
        s["latency"].append(row)
    for phase, what in TPUT_PHASES:
        a, b = med(values(sg, f"{phase}.rate")), med(values(lvp, f"{phase}.rate"))
        pr = paired_ratios(sg, lvp, f"{phase}.rate")
        s["tput"].append({"phase": phase, "what": what, "sg": a, "lvp": b, "ratio": a / b,
                          "min": min(pr), "max": max(pr), "paired": pr})
    for phase, _ in LATENCY_PHASES + TPUT_PHASES:
        a = [x for x in values(sg, f"{phase}.cpu_per_wall") if x is not None]
        b = [x for x in values(lvp, f"{phase}.cpu_per_wall") if x is not None]
        s["cpu"].append({"phase": phase, "sg_med": med(a), "sg_max": max(a),
                         "lvp_med": med(b), "lvp_max": max(b)})
        # softgpu's threads: median CPU share of the phase's wall time
        shares = {}
        for r in sg:
            wall_ns = r["metrics"].get(f"{phase}.wall", 0) * 1e6
            for name, ns in r["threads"].get(phase, {}).items():
                shares.setdefault(name, []).append(ns / wall_ns if wall_ns else 0)
        s["threads"].append({"phase": phase,
                             "shares": {k: med(v) for k, v in sorted(shares.items())}})
        per = {}
        for r in sg:
            st = r["stats"].get(phase)
            if st:
                for k, v in st.items():
                    per.setdefault(k, []).append(v)
        if per:
            s["counters"].append({"phase": phase, "stats": {k: med(v) for k, v in per.items()}})

    spins = sorted({(r["stats"][p].get("engine_spin_ns"), r["stats"][p].get("wait_spin_ns"))
                    for r in sg for p in r["stats"]})
    s["spins"] = spins

    # Targets: issue 2's, then issue 8's stricter ones (each row names its issue).
    def latency_target(phase, bar, issue):
        row = next(x for x in s["latency"] if x["phase"] == phase)
        a, b, ratio, _, _ = row["p50"]
        n_ok = sum(1 for x in row["paired_p50"] if x <= bar)
        s["targets"].append((f"median {phase} <= 1/{round(1 / bar)} of lavapipe's (issue {issue})",
                             f"{fmt(a)} us vs {fmt(b)} us: ratio {ratio:.3f} (bar {bar:.3f}); "
                             f"paired per round: {n_ok}/{len(row['paired_p50'])} rounds under the bar",
                             ratio <= bar))

    def tput_target(phase, bar, issue):
        t = next(x for x in s["tput"] if x["phase"] == phase)
        n_ok = sum(1 for x in t["paired"] if x >= bar)
        s["targets"].append((f"completed submits/s ({phase}) >= {bar:g}x lavapipe's (issue {issue})",
                             f"{fmt(t['sg'])} vs {fmt(t['lvp'])} cb/s: ratio {t['ratio']:.1f}x; "
                             f"paired per round: {n_ok}/{len(t['paired'])} rounds over the bar",
                             t["ratio"] >= bar))

    for phase in ("rt_fence", "rt_cb"):
        latency_target(phase, RT_TARGET, 2)
    worst = max(max(c["sg_max"] for c in s["cpu"] if c["phase"] == p)
                for p, _ in LATENCY_PHASES)
    medmax = max(c["sg_med"] for c in s["cpu"] if c["phase"] in [p for p, _ in LATENCY_PHASES])
    ncpu = sg[0]["ncpu"]
    s["targets"].append(("CPU time of all threads <= 3x wall during the latency phases (issues 2, 8)",
                         f"softgpu worst run {worst:.2f}x, worst phase median {medmax:.2f}x "
                         f"(this machine has {ncpu} cores, so {ncpu}x is the ceiling)",
                         worst <= CPU_TARGET))
    s["targets"].append(("spin budgets reported (issues 2, 8)",
                         ", ".join(f"engine spin {e} ns, host-wait spin {w} ns" for e, w in spins)
                         or "no SOFTGPU_STATS line captured",
                         bool(spins)))
    tput_target("tput_1", TPUT_TARGET, 2)
    for phase in ("rt_fence", "pingpong"):
        latency_target(phase, RT_TARGET_8, 8)
    for phase in ("tput_1", "tput_64cb", "tput_64si"):
        tput_target(phase, TPUT_TARGET_8, 8)
    return s


# ---- report ------------------------------------------------------------------------

COUNTER_NOTES = [
    ("doorbells", "doorbells"),
    ("doorbell_syscalls", "doorbell syscalls"),
    ("engine_sleeps", "engine sleeps"),
    ("engine_spin_hits", "engine spin hits"),
    ("engine_wake_syscalls", "engine wakes by a semaphore write"),
    ("host_waits", "host waits"),
    ("host_wait_sleeps", "host-wait sleeps"),
    ("interrupts", "interrupts"),
    ("interrupt_wakes", "interrupt FUTEX_WAKEs"),
]


def markdown(s, meta):
    L = []
    L.append(f"{meta['rounds']} interleaved rounds "
             f"(softgpu, lavapipe, softgpu, ...), each run a fresh process, "
             f"every phase timed for at least {meta['seconds']} s after {meta['warmup']} warm-up "
             f"iterations (latency phases: at least {meta['iters']} timed iterations; "
             f"percentiles are over all of them).{meta['pinned']} softgpu {meta['softgpu']}, "
             f"lavapipe: {meta['lavapipe']}. Figures are medians over the runs of each driver; "
             f"ratio = softgpu / lavapipe; \"paired\" is the range of the per-round ratios.")
    L.append("")
    L.append("Targets:")
    L.append("")
    L.append("| target | measured | |")
    L.append("|---|---|---|")
    for name, measured, ok in s["targets"]:
        L.append(f"| {name} | {measured} | **{'met' if ok else 'MISSED'}** |")
    L.append("")
    L.append("Latency (microseconds; lower is better):")
    L.append("")
    L.append("| phase | softgpu p50 | lavapipe p50 | ratio p50 (paired) | softgpu p99 | lavapipe p99 | ratio p99 (paired) |")
    L.append("|---|---|---|---|---|---|---|")
    for r in s["latency"]:
        a, b, ra, lo, hi = r["p50"]
        c, d, rb, lo2, hi2 = r["p99"]
        L.append(f"| `{r['phase']}` {r['what']} | {fmt(a)} | {fmt(b)} | {ra:.3f} ({lo:.2f}-{hi:.2f}) "
                 f"| {fmt(c)} | {fmt(d)} | {rb:.3f} ({lo2:.2f}-{hi2:.2f}) |")
    L.append("")
    L.append("Completed submissions per second (command buffers per second, each a 16-byte "
             "vkCmdFillBuffer, a fence every 64; higher is better):")
    L.append("")
    L.append("| phase | softgpu | lavapipe | ratio (paired) |")
    L.append("|---|---|---|---|")
    for t in s["tput"]:
        L.append(f"| `{t['phase']}` {t['what']} | {fmt(t['sg'])} | {fmt(t['lvp'])} "
                 f"| {t['ratio']:.1f}x ({t['min']:.1f}-{t['max']:.1f}) |")
    L.append("")
    L.append("CPU time of all threads / wall time (getrusage RUSAGE_SELF), and softgpu's "
             "threads as a share of wall time (medians):")
    L.append("")
    L.append("| phase | softgpu median (max) | lavapipe median (max) | softgpu threads |")
    L.append("|---|---|---|---|")
    for c, th in zip(s["cpu"], s["threads"]):
        shares = ", ".join(f"{k} {v:.2f}" for k, v in th["shares"].items() if v >= 0.005)
        L.append(f"| `{c['phase']}` | {c['sg_med']:.2f} ({c['sg_max']:.2f}) "
                 f"| {c['lvp_med']:.2f} ({c['lvp_max']:.2f}) | {shares} |")
    L.append("")
    if s["counters"]:
        L.append("softgpu's counters per phase (SOFTGPU_STATS=1, one device per phase, medians "
                 "over the runs; warm-up included):")
        L.append("")
        L.append("| phase | " + " | ".join(n for _, n in COUNTER_NOTES) +
                 " | syscalls per doorbell | FUTEX_WAKEs per interrupt | sleeps per host wait |")
        L.append("|---|" + "---|" * (len(COUNTER_NOTES) + 3))
        for c in s["counters"]:
            st = c["stats"]
            nan = float("nan")
            div = lambda a, b: st.get(a, nan) / st[b] if st.get(b) else nan
            L.append(f"| `{c['phase']}` | " +
                     " | ".join(fmt(st.get(k, nan)) for k, _ in COUNTER_NOTES) +
                     f" | {div('doorbell_syscalls', 'doorbells'):.4f}"
                     f" | {div('interrupt_wakes', 'interrupts'):.4f}"
                     f" | {div('host_wait_sleeps', 'host_waits'):.3f} |")
        L.append("")
    L.append(f"Spin budgets in force: " + "; ".join(
        f"engine (command processor, DMA) {e} ns before sleeping, host waits {w} ns before "
        f"sleeping" for e, w in s["spins"]) + " (SOFTGPU_SPIN_NS, SOFTGPU_WAIT_SPIN_NS).")
    L.append("")
    L.append("Per round (foreign load: cores other processes kept busy during the run, "
             "softgpu / lavapipe; latencies are p50 in microseconds, softgpu / lavapipe):")
    L.append("")
    L.append("| round | foreign load | `rt_fence` | `rt_cb` | `pingpong` | `tput_1` cb/s |")
    L.append("|---|---|---|---|---|---|")
    for i, (x, y) in enumerate(zip(meta["sg_runs"], meta["lvp_runs"])):
        mx, my = x["metrics"], y["metrics"]
        L.append(f"| {i + 1} | {x['foreign_cores']:.2f} / {y['foreign_cores']:.2f} | " +
                 " | ".join(f"{fmt(mx[k + '.p50'])} / {fmt(my[k + '.p50'])}"
                            for k in ("rt_fence", "rt_cb", "pingpong")) +
                 f" | {fmt(mx['tput_1.rate'])} / {fmt(my['tput_1.rate'])} |")
    L.append("")
    L.append(f"Machine load from other processes while the runs ran (cores busy outside the "
             f"benchmark, median / max over runs): softgpu runs {meta['foreign_sg']}, lavapipe "
             f"runs {meta['foreign_lvp']}; steal {meta['steal']}. Before each round the script "
             f"waited up to {meta['quiet_wait']:g} s for the rest of the machine to go quiet "
             f"(under 0.25 cores busy; {meta['max_wait']:g} s at most per invocation): "
             f"{meta['waited']:.0f} s in all.")
    return "\n".join(L)


# ---- main --------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=15,
                    help="interleaved softgpu/lavapipe rounds (default 15, at least 10)")
    ap.add_argument("--iters", type=int, default=2000,
                    help="minimum timed iterations per latency phase and run (default 2000)")
    ap.add_argument("--seconds", type=float, default=0.25,
                    help="minimum duration of each phase in each run (default 0.25)")
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build-bench"),
                    help="release build tree for the benchmark (default build-bench)")
    ap.add_argument("--no-build", action="store_true", help="use the build tree as it is")
    ap.add_argument("--lavapipe", default=LAVAPIPE_MANIFEST, help="lavapipe's ICD manifest")
    ap.add_argument("--write", action="store_true",
                    help="update the Submission section of docs/performance.md")
    ap.add_argument("--json", help="also write the raw results here")
    ap.add_argument("--quiet-wait", type=float, default=15,
                    help="before each round, wait up to this many seconds for other processes "
                    "to leave the CPUs alone (default 15; 0: never wait)")
    ap.add_argument("--max-wait", type=float, default=120,
                    help="total seconds of such waiting per invocation (default 120)")
    ap.add_argument("--cpus", help="run both drivers pinned to these CPUs (e.g. 0, or 0,1): "
                    "a sensitivity check for a machine with fewer free cores; not with --write")
    a = ap.parse_args()
    if a.rounds < 10:
        log(f"warning: {a.rounds} rounds; the report asks for at least 10")
    if a.write and a.rounds < 10:
        sys.exit("--write needs at least 10 rounds")
    if a.write and a.cpus:
        sys.exit("--write records the unpinned configuration only")
    cpus = {int(x) for x in a.cpus.split(",")} if a.cpus else None

    build = os.path.abspath(a.build_dir)
    commands_build = [
        f"cmake -S . -B {os.path.relpath(build, ROOT)} -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSOFTGPU_SANITIZE=",
        f"cmake --build {os.path.relpath(build, ROOT)} --target bench_submit -j{os.cpu_count()}",
    ]
    if not a.no_build:
        subprocess.run(["cmake", "-S", ROOT, "-B", build, "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
                        "-DSOFTGPU_SANITIZE="], check=True, stdout=subprocess.DEVNULL)
        subprocess.run(["cmake", "--build", build, "--target", "bench_submit",
                        f"-j{os.cpu_count()}"], check=True, stdout=subprocess.DEVNULL)
    exe = os.path.join(build, "bench", "bench_submit")
    sg_manifest = os.path.join(build, "softgpu_icd.json")
    for f in (exe, sg_manifest, a.lavapipe):
        if not os.path.exists(f):
            sys.exit(f"missing {f}")
    args = ["--iters", str(a.iters), "--seconds", str(a.seconds)]

    def progress(i, sg, lvp):
        log(f"round {i + 1}/{a.rounds}: rt_cb p50 {sg[-1]['metrics']['rt_cb.p50']:.2f} / "
            f"{lvp[-1]['metrics']['rt_cb.p50']:.2f} us, tput_1 "
            f"{sg[-1]['metrics']['tput_1.rate']:.0f} / {lvp[-1]['metrics']['tput_1.rate']:.0f} cb/s "
            f"({time.monotonic() - t0:.0f} s)")

    # A round starts once the rest of the machine is quiet, or after
    # quiet_wait seconds; at most max_wait seconds of waiting per run.
    t0 = time.monotonic()
    sg, lvp, waited = interleaved(
        a.rounds, a.quiet_wait, a.max_wait,
        lambda i, softgpu: run_one(exe, sg_manifest if softgpu else a.lavapipe, args, softgpu,
                                   cpus), progress)

    s = summarize(sg, lvp)
    uname = os.uname()
    foreign = lambda runs: (f"{med([r['foreign_cores'] for r in runs]):.2f} / "
                            f"{max(r['foreign_cores'] for r in runs):.2f}")
    meta = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{os.cpu_count()} cores (nproc), CPU {cpu_model()}, kernel {uname.release}, "
                   f"{os_name()}",
        "pinned": f" **Both drivers pinned to CPUs {a.cpus}.**" if a.cpus else "",
        "rounds": a.rounds, "iters": a.iters, "warmup": 200, "seconds": a.seconds,
        "softgpu": f"{sg[0]['info'].get('api_version', '?')} (git {git_rev()})",
        "lavapipe": f"{lvp[0]['info'].get('device', '?')}, Vulkan {lvp[0]['info'].get('api_version', '?')}"
                    f" ({lavapipe_version()})",
        "foreign_sg": foreign(sg), "foreign_lvp": foreign(lvp),
        "steal": f"{max(r['steal_cores'] for r in sg + lvp):.2f} cores at most",
        "waited": waited, "quiet_wait": a.quiet_wait, "max_wait": a.max_wait,
        "commands": [invocation(a), "# which builds, then runs in each round:"] + commands_build + [
            f"SOFTGPU_STATS=1 VK_DRIVER_FILES=$PWD/{os.path.relpath(sg_manifest, ROOT)} "
            f"VK_LOADER_LAYERS_DISABLE='~all~' NODEVICE_SELECT=1 "
            f"{os.path.relpath(exe, ROOT)} {' '.join(args)}",
            f"VK_DRIVER_FILES={a.lavapipe} VK_LOADER_LAYERS_DISABLE='~all~' "
            f"NODEVICE_SELECT=1 {os.path.relpath(exe, ROOT)} {' '.join(args)}"],
    }
    md = markdown(s, dict(meta, sg_runs=sg, lvp_runs=lvp))
    print(md)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"meta": meta, "softgpu": sg, "lavapipe": lvp}, f, indent=1)
    if a.write:
        write_doc(section(md, meta, BEGIN, END), BEGIN, END, "## Submission")
        log(f"updated {DOC}")
    log(f"total {time.monotonic() - t0:.0f} s, of which {waited:.0f} s waiting for a quiet machine")


def invocation(a):
    cmd = "bench/run-submit-bench.py --write"
    if a.rounds != 15:
        cmd += f" --rounds {a.rounds}"
    if a.iters != 2000:
        cmd += f" --iters {a.iters}"
    if a.seconds != 0.25:
        cmd += f" --seconds {a.seconds}"
    return cmd


if __name__ == "__main__":
    main()
