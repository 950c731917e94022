#!/usr/bin/env python3
"""test_trace_png: tools/softgpu-trace-png draws what a trace says.

Pins down, on a synthetic trace (two tracks, a span each, a label region, a
counter): the output is a PNG (signature, IHDR of the asked width, IDAT
inflating to height rows of 1 + 3 * width bytes, CRCs right); the pixel in
the middle of each span has the span's colour, and a point outside every
span does not; a file that is not JSON is a clear error, not a traceback.

    test_trace_png.py <softgpu-trace-png> <scratch directory>
"""
import json
import os
import struct
import subprocess
import sys
import zlib

TOOL, SCRATCH = sys.argv[1], sys.argv[2]
WIDTH = 800
failures = 0


def check(cond, what):
    global failures
    if not cond:
        print("check failed:", what)
        failures += 1


def read_png(path):
    data = open(path, "rb").read()
    check(data[:8] == b"\x89PNG\r\n\x1a\n", "PNG signature")
    pos, chunks = 8, {}
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        crc, = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        check(crc == zlib.crc32(kind + body), "CRC of %s" % kind)
        chunks[kind] = chunks.get(kind, b"") + body
        pos += 12 + length
    w, h, depth, colour = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    check((w, depth, colour) == (WIDTH, 8, 2), "IHDR: %d wide, 8-bit RGB" % w)
    raw = zlib.decompress(chunks[b"IDAT"])
    check(len(raw) == h * (1 + 3 * w), "IDAT holds %d rows of %d pixels" % (h, w))
    return w, h, raw


def pixel(png, x, y):
    w, _, raw = png
    at = y * (1 + 3 * w) + 1 + 3 * x
    return tuple(raw[at:at + 3])


def run(trace, out):
    return subprocess.run([sys.executable, TOOL, trace, out, "--width", str(WIDTH)],
                          capture_output=True, text=True)


def main():
    os.makedirs(SCRATCH, exist_ok=True)
    trace = os.path.join(SCRATCH, "synthetic.json")
    out = os.path.join(SCRATCH, "synthetic.png")
    events = [
        {"ph": "M", "pid": 1, "tid": 1, "name": "thread_name", "args": {"name": "app"}},
        {"ph": "M", "pid": 2, "tid": 2, "name": "thread_name", "args": {"name": "channel"}},
        {"ph": "X", "pid": 1, "tid": 1, "name": "vkQueueSubmit", "ts": 0, "dur": 400},
        {"ph": "X", "pid": 2, "tid": 2, "name": "LAUNCH", "ts": 600, "dur": 400},
        {"ph": "B", "pid": 2, "tid": 2, "name": "pass", "ts": 500},
        {"ph": "E", "pid": 2, "tid": 2, "ts": 1000},
        {"ph": "C", "pid": 2, "tid": 0, "name": "sem", "ts": 900, "args": {"value": 2}},
    ]
    json.dump({"traceEvents": events}, open(trace, "w"))
    r = run(trace, out)
    check(r.returncode == 0, "the tool failed: " + r.stderr)
    png = read_png(out)
    # Rows: title and axis (34 px), "application" (14), the app track; the
    # first span is in the first 40% of the plot, [230, 790).
    x_submit = 230 + int(0.2 * (WIDTH - 10 - 230))
    x_gap = 230 + int(0.45 * (WIDTH - 10 - 230))
    y_app = 34 + 14 + 8
    submit = pixel(png, x_submit, y_app)
    check(submit not in ((255, 255, 255), (245, 245, 248)),
          "the vkQueueSubmit span is not drawn (pixel %s)" % (submit,))
    check(pixel(png, x_gap, y_app) in ((255, 255, 255), (245, 245, 248), (225, 225, 225)),
          "something drawn where the app track is idle: %s" % (pixel(png, x_gap, y_app),))

    bad = os.path.join(SCRATCH, "bad.json")
    open(bad, "w").write("{not json")
    r = run(bad, out)
    check(r.returncode != 0 and "softgpu-trace-png" in r.stderr and "Traceback" not in r.stderr,
          "bad JSON: rc %d, %s" % (r.returncode, r.stderr.strip()))
    print("FAIL: %d check(s) failed" % failures if failures else "PASS")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
