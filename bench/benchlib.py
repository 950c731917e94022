"""What the benchmark runners share: the machine and its load, versions,
statistics and number formats, and the marked sections they write into
docs/performance.md. Standard library only; the runners import it from
their own directory."""

import os
import platform
import resource
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "performance.md")
LAVAPIPE_MANIFEST = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# ---- machine and load -------------------------------------------------------

def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def proc_stat():
    """(busy, steal, total) jiffies of the whole machine."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    user, nice, system, idle, iowait, irq, softirq, steal = (v + [0] * 8)[:8]
    busy = user + nice + system + irq + softirq
    return busy, steal, busy + idle + iowait + steal


def busy_cores(seconds=0.3):
    """Cores the machine keeps busy over a short sample (we are idle meanwhile)."""
    b0, _, _ = proc_stat()
    time.sleep(seconds)
    b1, _, _ = proc_stat()
    return (b1 - b0) / os.sysconf("SC_CLK_TCK") / seconds


def wait_quiet(limit_s, threshold=0.25):
    """Waits up to limit_s for the rest of the machine to go quiet; returns
    the seconds waited. The run goes ahead either way: its load is recorded."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < limit_s and busy_cores() > threshold:
        time.sleep(0.7)
    return time.monotonic() - t0


def children_cpu():
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


# ---- versions -----------------------------------------------------------------

def os_name():
    try:
        return platform.freedesktop_os_release().get("PRETTY_NAME", "Linux")
    except (OSError, AttributeError):
        return "Linux"


def git_rev():
    """HEAD, "+dirty" when the driver's sources have local changes."""
    try:
        rev = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short=12", "HEAD"],
                             capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--", "src", "hw",
                                "icd", "util", "compiler"],
                               capture_output=True, text=True).stdout.strip()
        return rev + ("+dirty" if dirty else "") if rev else "unknown"
    except OSError:
        return "unknown"


def lavapipe_version():
    try:
        out = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "mesa-vulkan-drivers"],
                             capture_output=True, text=True).stdout.strip()
        return f"mesa-vulkan-drivers {out}" if out else "version unknown"
    except OSError:
        return "version unknown"


# ---- statistics and formats -----------------------------------------------------

def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else float("nan")


def values(runs, key):
    return [r["metrics"].get(key) for r in runs]


def fmt(x, digits=3):
    if x != x:   # NaN
        return "n/a"
    if abs(x) >= 1e6:
        return f"{x / 1e6:.2f} M"
    if abs(x) >= 1e4:
        return f"{x / 1e3:.0f} k"
    if abs(x) >= 100:
        return f"{x:.0f}"
    return f"{x:.{digits}g}"


def paired_ratios(sg, lvp, key):
    out = []
    for a, b in zip(sg, lvp):
        x, y = a["metrics"].get(key), b["metrics"].get(key)
        if x is not None and y:
            out.append(x / y)
    return out


# ---- running the benchmark binaries ----------------------------------------------

def parse(stdout):
    r = {"metrics": {}, "info": {}, "fail": []}
    for line in stdout.splitlines():
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "metric" and len(parts) >= 3:
            r["metrics"][parts[1]] = float(parts[2])
        elif parts[0] == "info" and len(parts) >= 2:
            r["info"][parts[1]] = " ".join(parts[2:])
        elif parts[0] == "fail":
            r["fail"].append(" ".join(parts[1:]))
    return r


def driver_env(manifest, softgpu):
    env = dict(os.environ)
    for var in ("VK_INSTANCE_LAYERS", "VK_LAYER_PATH", "VK_ADD_LAYER_PATH", "VK_ICD_FILENAMES",
                "VK_ADD_DRIVER_FILES", "VK_LOADER_LAYERS_ENABLE", "VK_LOADER_DEBUG"):
        env.pop(var, None)
    env["VK_DRIVER_FILES"] = manifest
    env["VK_LOADER_LAYERS_DISABLE"] = "~all~"   # no implicit or explicit layer
    env["NODEVICE_SELECT"] = "1"                # Mesa's device-select layer, belt and braces
    env.setdefault("MESA_SHADER_CACHE_DISABLE", "true")
    if softgpu:
        # One sgemm launch may legitimately run for many seconds.
        env.setdefault("SOFTGPU_WATCHDOG_MS", "600000")
    return env


def run_one(exe, manifest, args, softgpu, timeout):
    """Runs a benchmark binary once on one driver; its metric/info/fail
    lines, and the machine's load meanwhile. Exits on failure."""
    env = driver_env(manifest, softgpu)
    busy0, steal0, _ = proc_stat()
    cpu0 = children_cpu()
    t0 = time.monotonic()
    name = "softgpu" if softgpu else "lavapipe"
    try:
        p = subprocess.run([exe] + args, env=env, capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired as e:
        log((e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes)
            else (e.stdout or ""))
        sys.exit(f"{os.path.basename(exe)} timed out after {timeout} s on {name} ({manifest})")
    wall = time.monotonic() - t0
    busy1, steal1, _ = proc_stat()
    cpu1 = children_cpu()
    r = parse(p.stdout)
    if p.returncode != 0 or "done" not in r["info"]:
        log(p.stdout)
        log(p.stderr)
        what = ("wrong results: " + "; ".join(r["fail"])) if r["fail"] else \
               f"exit status {p.returncode}"
        sys.exit(f"{os.path.basename(exe)} failed on {name} ({manifest}): {what}")
    hz = os.sysconf("SC_CLK_TCK")
    r["foreign_cores"] = max(0.0, (busy1 - busy0) / hz - (cpu1 - cpu0)) / wall
    r["steal_cores"] = (steal1 - steal0) / hz / wall
    r["process_wall_s"] = wall
    return r


def interleaved(rounds, quiet_wait, max_wait, run, progress):
    """Rounds of run(i, True) (softgpu) then run(i, False) (lavapipe), each
    once the rest of the machine is quiet or after quiet_wait seconds (at
    most max_wait seconds of waiting in all); progress(i, sg, lvp) after
    each. Returns (softgpu runs, lavapipe runs, seconds waited)."""
    sg, lvp = [], []
    waited = 0.0
    for i in range(rounds):
        if quiet_wait > 0 and waited < max_wait:
            waited += wait_quiet(min(quiet_wait, max_wait - waited))
        sg.append(run(i, True))
        lvp.append(run(i, False))
        progress(i, sg, lvp)
    return sg, lvp, waited


# ---- docs/performance.md --------------------------------------------------------

def section(md, meta, begin, end):
    """The marked block a runner writes: date, machine, commands, tables."""
    cmds = "\n".join("    " + c for c in meta["commands"])
    return "\n".join([
        begin,
        "",
        f"Date: {meta['date']}. Machine: {meta['machine']}.",
        "",
        "Commands (from the repository root):",
        "",
        cmds,
        "",
        md,
        "",
        end,
    ])


def write_doc(text, begin, end, heading):
    """Replaces the block between begin and end, or puts it right under
    heading (appended to the file when the heading is missing)."""
    with open(DOC) as f:
        doc = f.read()
    if begin in doc and end in doc:
        a = doc.index(begin)
        b = doc.index(end) + len(end)
        doc = doc[:a] + text + doc[b:]
    elif "\n" + heading + "\n" in doc:
        a = doc.index("\n" + heading + "\n")
        nl = doc.index("\n", a + 1)
        doc = doc[:nl + 1] + "\n" + text + "\n" + doc[nl + 1:]
    else:
        doc = doc.rstrip("\n") + "\n\n" + heading + "\n\n" + text + "\n"
    with open(DOC, "w") as f:
        f.write(doc)
