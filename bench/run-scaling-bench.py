#!/usr/bin/env python3
"""Scaling benchmark: cost against the amount of work, softgpu side by side
with lavapipe in one run (issue 8: "cost that grows with the work and not
beyond").

Two curves, each point the median over interleaved rounds of fresh
processes (softgpu, lavapipe, softgpu, ...):

  grid      one vkCmdDispatch(g, 1, 1) of bench/shaders/grid.comp (64
            invocations per workgroup, one checked u32 store each) per
            submission, g = 1 .. 16384: submit-to-completion time
            (bench_compute --only grid);
  scale_cb  n command buffers (one 16-byte vkCmdFillBuffer each) in one
            VkSubmitInfo with a fence, n = 1 .. 256: submit + wait + reset
            (bench_submit --only scale_cb).

It prints the tables, writes the plots as PNG (matplotlib, Debian's
python3-matplotlib, installed by tools/setup-deps when missing) and, with
--write, the section of docs/performance.md with both.

    bench/run-scaling-bench.py            # build, 5 rounds, tables and plots
    bench/run-scaling-bench.py --write    # ... and update docs/performance.md
"""

import argparse
import datetime
import json
import os
import subprocess
import sys
import time

from benchlib import DOC, LAVAPIPE_MANIFEST, ROOT
from benchlib import (log, cpu_model, interleaved, os_name, git_rev, lavapipe_version, med,
                      values, fmt, section, write_doc, run_one)

BEGIN = "<!-- scaling-bench:begin (written by bench/run-scaling-bench.py --write) -->"
END = "<!-- scaling-bench:end -->"
SECTION = "## Scaling"
GRID = [1, 4, 16, 64, 256, 1024, 4096, 16384]
CBS = [1, 2, 4, 8, 16, 32, 64, 128, 256]
PLOT_PYTHON = "/usr/bin/python3"   # Debian's, where python3-matplotlib installs


def curves(runs):
    grid = [med(values(runs, f"grid.g{g}_us")) for g in GRID]
    cbs = [med(values(runs, f"scale_cb.n{n}_us")) for n in CBS]
    return grid, cbs


def markdown(sg, lvp, meta, images):
    gs, cs = curves(sg)
    gl, cl = curves(lvp)
    out = [f"{meta['rounds']} interleaved rounds, each run a fresh process; figures are "
           f"medians over the rounds of each driver's per-run medians. softgpu "
           f"{meta['softgpu']}, lavapipe {meta['lavapipe']}.", ""]
    out += [f"![dispatch time against grid size]({images[0]})", "",
            "| workgroups (x64 invocations) | softgpu us | lavapipe us | softgpu / lavapipe |",
            "|---:|---:|---:|---:|"]
    for g, a, b in zip(GRID, gs, gl):
        out.append(f"| {g} | {fmt(a)} | {fmt(b)} | {a / b:.3g} |")
    out += ["", f"![submit cost against command buffers per submit]({images[1]})", "",
            "| command buffers per submit | softgpu us | lavapipe us | softgpu / lavapipe |",
            "|---:|---:|---:|---:|"]
    for n, a, b in zip(CBS, cs, cl):
        out.append(f"| {n} | {fmt(a)} | {fmt(b)} | {a / b:.3g} |")
    out += ["", f"Fixed cost (one workgroup; one command buffer) and cost per unit at the "
            f"largest size: dispatch: softgpu {fmt(gs[0])} us + {fmt(gs[-1] / GRID[-1] * 1e3)} ns "
            f"per workgroup, lavapipe {fmt(gl[0])} us + {fmt(gl[-1] / GRID[-1] * 1e3)} ns per "
            f"workgroup; submit: softgpu {fmt(cs[0])} us + "
            f"{fmt((cs[-1] - cs[0]) / (CBS[-1] - 1) * 1e3)} ns per extra command buffer, lavapipe "
            f"{fmt(cl[0])} us + {fmt((cl[-1] - cl[0]) / (CBS[-1] - 1) * 1e3)} ns per extra "
            "command buffer.",
            "", f"Machine load from other processes (cores busy outside the benchmark, median): "
            f"softgpu runs {med([r['foreign_cores'] for r in sg]):.2f}, lavapipe runs "
            f"{med([r['foreign_cores'] for r in lvp]):.2f}. Total "
            f"{meta['total_s'] / 60:.0f} minutes."]
    return "\n".join(out)


def plot(data_json, outdir):
    if subprocess.run([PLOT_PYTHON, "-c", "import matplotlib"], capture_output=True).returncode:
        subprocess.run([os.path.join(ROOT, "tools", "setup-deps"), "python3-matplotlib"],
                       check=True)
    subprocess.run([PLOT_PYTHON, os.path.join(ROOT, "bench", "plot-scaling.py"), data_json,
                    outdir], check=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--reps", type=int, default=5, help="timed submissions per grid size")
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build-bench"))
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--lavapipe", default=LAVAPIPE_MANIFEST)
    ap.add_argument("--quiet-wait", type=float, default=15.0)
    ap.add_argument("--max-wait", type=float, default=120.0)
    ap.add_argument("--timeout", type=float, default=600.0)
    ap.add_argument("--write", action="store_true", help="update docs/performance.md and "
                    "docs/perf-*.png")
    a = ap.parse_args()
    if a.write and a.rounds < 5:
        sys.exit("--write needs at least 5 rounds")

    build = os.path.abspath(a.build_dir)
    rel = os.path.relpath(build, ROOT)
    targets = ["bench_compute", "bench_submit"]
    commands_build = [f"cmake -S . -B {rel} -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSOFTGPU_SANITIZE=",
                      f"cmake --build {rel} --target {' '.join(targets)} -j{os.cpu_count()}"]
    if not a.no_build:
        subprocess.run(["cmake", "-S", ROOT, "-B", build, "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
                        "-DSOFTGPU_SANITIZE="], check=True, stdout=subprocess.DEVNULL)
        subprocess.run(["cmake", "--build", build, "--target"] + targets +
                       [f"-j{os.cpu_count()}"], check=True, stdout=subprocess.DEVNULL)
    compute = os.path.join(build, "bench", "bench_compute")
    submit = os.path.join(build, "bench", "bench_submit")
    sg_manifest = os.path.join(build, "softgpu_icd.json")
    compute_args = ["--only", "grid", "--reps", str(a.reps)]
    submit_args = ["--only", "scale_cb"]

    def both(manifest, softgpu):
        r = run_one(compute, manifest, compute_args, softgpu, a.timeout)
        s = run_one(submit, manifest, submit_args, softgpu, a.timeout)
        r["metrics"].update(s["metrics"])
        r["foreign_cores"] = max(r["foreign_cores"], s["foreign_cores"])
        return r

    def progress(i, sg, lvp):
        log(f"round {i + 1}/{a.rounds}: grid 16384 {fmt(sg[-1]['metrics']['grid.g16384_us'])} / "
            f"{fmt(lvp[-1]['metrics']['grid.g16384_us'])} us, 256 cbs "
            f"{fmt(sg[-1]['metrics']['scale_cb.n256_us'])} / "
            f"{fmt(lvp[-1]['metrics']['scale_cb.n256_us'])} us")

    t0 = time.monotonic()
    sg, lvp, _ = interleaved(a.rounds, a.quiet_wait, a.max_wait,
                             lambda i, softgpu: both(sg_manifest if softgpu else a.lavapipe,
                                                     softgpu), progress)

    uname = os.uname()
    meta = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{os.cpu_count()} cores (nproc), CPU {cpu_model()}, kernel {uname.release}, "
                   f"{os_name()}",
        "rounds": a.rounds,
        "softgpu": f"{sg[0]['info'].get('api_version', '?')} (git {git_rev()})",
        "lavapipe": f"{lvp[0]['info'].get('device', '?')} ({lavapipe_version()})",
        "total_s": time.monotonic() - t0,
        "commands": ["bench/run-scaling-bench.py" + (" --write" if a.write else ""),
                     "# which builds, then runs in each round, on each driver "
                     "(VK_DRIVER_FILES=..., VK_LOADER_LAYERS_DISABLE='~all~'):"] +
                    commands_build +
                    [f"{os.path.relpath(compute, ROOT)} {' '.join(compute_args)}",
                     f"{os.path.relpath(submit, ROOT)} {' '.join(submit_args)}",
                     "# and plots with bench/plot-scaling.py (python3-matplotlib)"],
    }
    gs, cs = curves(sg)
    gl, cl = curves(lvp)
    data = {"meta": meta, "grid": {"x": GRID, "softgpu": gs, "lavapipe": gl},
            "cbs": {"x": CBS, "softgpu": cs, "lavapipe": cl}}
    outdir = os.path.join(ROOT, "docs") if a.write else build
    data_json = os.path.join(build, "scaling-bench.json")
    with open(data_json, "w") as f:
        json.dump(data, f, indent=1)
    plot(data_json, outdir)
    images = ["perf-grid.png", "perf-submit-cbs.png"]
    md = markdown(sg, lvp, meta, images)
    print(md)
    log(f"plots: {', '.join(os.path.join(outdir, i) for i in images)}")
    if a.write:
        write_doc(section(md, meta, BEGIN, END), BEGIN, END, SECTION)
        log(f"updated {DOC}")


if __name__ == "__main__":
    main()
