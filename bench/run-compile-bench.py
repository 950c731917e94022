#!/usr/bin/env python3
"""Compile-time benchmark (issue 5): SPIR-V in, ISA out, for the 16x16
tiled shared-memory sgemm of bench/shaders/sgemm.comp, with each stage's
share. It reports the first (cold) compile, which runs the SPIR-V
validator, and the median of --repeat further compiles, when the
validator's verdict is cached as it is in a driver that has seen the
module before. The SPIRV-Tools-optimized path (-O) is measured beside it.

    bench/run-compile-bench.py [--repeat N] [--build DIR]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, text=True, capture_output=True, **kw).stdout


def stages(line):
    """Parses '; <what> T ms: validate a, optimize b, ...'."""
    m = re.search(r"([0-9.]+) ms: (.*)$", line)
    parts = dict((k, float(v)) for k, v in re.findall(r"(\w+) ([0-9.]+)", m.group(2)))
    return float(m.group(1)), parts


def report(title, total, parts):
    shares = ", ".join("%s %.3f ms (%.0f%%)" % (k, v, 100 * v / total if total else 0)
                       for k, v in parts.items())
    print("%-44s %.3f ms   %s" % (title, total, shares))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=1000)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    args = ap.parse_args()
    subprocess.run(["cmake", "-S", ROOT, "-B", args.build, "-DCMAKE_BUILD_TYPE=RelWithDebInfo"],
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", args.build, "--target", "softgpu-cc", "-j2"], check=True,
                   stdout=subprocess.DEVNULL)
    cc = os.path.join(args.build, "tools", "softgpu-cc")
    with tempfile.TemporaryDirectory() as tmp:
        spv = os.path.join(tmp, "sgemm.spv")
        run(["glslc", "--target-env=vulkan1.2", "-fshader-stage=compute",
             os.path.join(ROOT, "bench", "shaders", "sgemm.comp"), "-o", spv])
        print("sgemm.comp (16x16 tiles, shared memory), W=32, %d repeats; load: %s" %
              (args.repeat, open("/proc/loadavg").read().split()[0]))
        for flags, name in (([], "default path"), (["-O"], "SPIRV-Tools -O path")):
            out = run([cc, spv, "--repeat", str(args.repeat)] + flags).splitlines()
            cold = [l for l in out if "(cold)" in l][0]
            warm = [l for l in out if "median" in l][0]
            report(name + ", cold (validator runs)", *stages(cold))
            report(name + ", median (validation cached)", *stages(warm))
    return 0


if __name__ == "__main__":
    sys.exit(main())
