#!/usr/bin/python3
"""Plots of bench/run-scaling-bench.py's data (its JSON) as PNG files:
perf-grid.png (dispatch time against grid size) and perf-submit-cbs.png
(submit cost against command buffers per submit), log-log, softgpu beside
lavapipe. Needs matplotlib (Debian: python3-matplotlib).

    /usr/bin/python3 bench/plot-scaling.py build-bench/scaling-bench.json docs
"""

import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def one(path, curve, xlabel, title, note):
    fig, ax = plt.subplots(figsize=(6.4, 4.0), dpi=110)
    for name, style in (("softgpu", "o-"), ("lavapipe", "s--")):
        ax.plot(curve["x"], curve[name], style, label=name)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("microseconds (median)")
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.text(0.01, 0.01, note, fontsize=7, alpha=0.7)
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    fig.savefig(path)
    plt.close(fig)


def main():
    data_json, outdir = sys.argv[1], sys.argv[2]
    with open(data_json) as f:
        d = json.load(f)
    note = f"{d['meta']['date']}, {d['meta']['machine']}"
    one(os.path.join(outdir, "perf-grid.png"), d["grid"], "workgroups of 64 invocations",
        "One vkCmdDispatch per submission: time to completion", note)
    one(os.path.join(outdir, "perf-submit-cbs.png"), d["cbs"], "command buffers per submit",
        "vkQueueSubmit(n command buffers, fence) + wait", note)


if __name__ == "__main__":
    main()
