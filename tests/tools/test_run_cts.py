#!/usr/bin/env python3
"""tools/run-cts against a stand-in deqp-vk (no CTS, no GPU needed).

The stand-in prints deqp-vk's case and status lines for the cases of its
--deqp-caselist-file, each as its name says: ..._pass, _ns, _fail,
_reserr (then ends the run, as deqp-vk does after a ResourceError),
_crash (SIGSEGV), _hang (sleeps until killed). Pins down: every case gets
the status it printed, or Crash or Timeout where the process died or hung,
and the chunk resumes with the cases that got none (the stand-in runs a
list in sorted order, as deqp-vk runs its tree's, not the file's); results.csv and summary.txt; --baseline
passing with the expectations that list exactly what failed, and failing
on an unlisted failure and on a listed case that passes; skips.txt keeps a
case from running; --check-expectations refuses a reason the rules do not
allow.
"""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUN_CTS = os.path.join(ROOT, "tools", "run-cts")

FAKE = r'''#!/usr/bin/env python3
import os, signal, sys, time
args = dict(a.split("=", 1) for a in sys.argv[1:] if "=" in a)
if args.get("--deqp-runmode") == "txt-caselist":
    with open("dEQP-VK-cases.txt", "w") as f:
        f.write("GROUP: dEQP-VK.t\n")
        for c in ("a_pass", "b_ns", "c_skip_pass"):
            f.write("TEST: dEQP-VK.t.%s\n" % c)
    sys.exit(0)
print("dEQP Core vulkan-cts-9.9.9-fake (0x0) starting..", flush=True)
# deqp-vk runs a list in its test tree's order, not the file's
for case in sorted(open(args["--deqp-caselist-file"]).read().split()):
    print("Test case '%s'.." % case, flush=True)
    if case.endswith("_pass"):
        print("  Pass (ok)", flush=True)
    elif case.endswith("_ns"):
        print("  NotSupported (no)", flush=True)
    elif case.endswith("_fail"):
        print("  Fail (wrong)", flush=True)
    elif case.endswith("_reserr"):
        print("  ResourceError (vk.createImage(...): VK_ERROR_OUT_OF_HOST_MEMORY)", flush=True)
        sys.exit(0)
    elif case.endswith("_crash"):
        os.kill(os.getpid(), signal.SIGSEGV)
    elif case.endswith("_hang"):
        time.sleep(3600)
'''

CASES = ["dEQP-VK.t.%s" % c for c in
         ("a_pass", "b_ns", "c_fail", "d_reserr", "e_pass", "f_crash", "g_pass", "h_hang",
          "i_pass", "j_skip_pass")]
WANT = {"a_pass": "Pass", "b_ns": "NotSupported", "c_fail": "Fail", "d_reserr": "ResourceError",
        "e_pass": "Pass", "f_crash": "Crash", "g_pass": "Pass", "h_hang": "Timeout",
        "i_pass": "Pass", "j_skip_pass": "Skip"}

failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print("FAIL: " + what, file=sys.stderr)


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def run(tmp, *extra):
    cmd = [sys.executable, RUN_CTS, "--no-setup", "--cts-dir", os.path.join(tmp, "cts"),
           "--build-dir", os.path.join(tmp, "build"), "--expectations", os.path.join(tmp, "exp"),
           "--out", os.path.join(tmp, "out"), "--jobs", "2", "--chunk", "4", "--quiet",
           "--case-timeout", "3"] + list(extra)
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=300)


def results(tmp):
    out = {}
    with open(os.path.join(tmp, "out", "results.csv")) as f:
        for line in f:
            case, status, _ = line.strip().split(",")
            out[case.split(".")[-1]] = status
    return out


def expectations(tmp, fails):
    hdr = "# cts-version: vulkan-cts-9.9.9\n"
    write(os.path.join(tmp, "exp", "fails.txt"), hdr + fails)
    write(os.path.join(tmp, "exp", "skips.txt"),
          hdr + "dEQP-VK.t.*_skip_*,Skip,run-time: a stand-in for a slow case\n")
    write(os.path.join(tmp, "exp", "flakes.txt"), hdr)


def main():
    with tempfile.TemporaryDirectory(prefix="test-run-cts-") as tmp:
        for d in ("cts", "build", "exp"):
            os.makedirs(os.path.join(tmp, d))
        fake = os.path.join(tmp, "cts", "deqp-vk")
        write(fake, FAKE)
        os.chmod(fake, 0o755)
        write(os.path.join(tmp, "build", "softgpu_icd.json"), "{}\n")
        caselist = os.path.join(tmp, "cases.txt")
        write(caselist, "\n".join(reversed(CASES)) + "\n")
        reason = "images: a stand-in"
        listed = ("dEQP-VK.t.c_fail,Fail,cts-bug: fake.cpp:1 a stand-in\n"
                  "dEQP-VK.t.d_reserr,ResourceError,%s\n"
                  "dEQP-VK.t.f_crash,Crash,%s\n"
                  "dEQP-VK.t.h_hang,Timeout,%s\n" % (reason, reason, reason))

        expectations(tmp, listed)
        r = run(tmp, "--caselist", caselist, "--baseline")
        got = results(tmp)
        for case, status in WANT.items():
            check(got.get(case) == status, "%s: %s, want %s" % (case, got.get(case), status))
        check(r.returncode == 0, "baseline with every failure listed: exit %d\n%s"
              % (r.returncode, r.stdout))
        summary = open(os.path.join(tmp, "out", "summary.txt")).read()
        for line in ("Pass: 4", "Crash: 1", "Timeout: 1", "ResourceError: 1", "Skip: 1",
                     "cts: vulkan-cts-9.9.9-fake"):
            check(line in summary, "summary.txt lacks %r:\n%s" % (line, summary))

        # An unlisted failure, and a listed case that passes.
        expectations(tmp, listed.replace("dEQP-VK.t.c_fail,Fail,cts-bug: fake.cpp:1 a stand-in\n",
                                         "dEQP-VK.t.e_pass,Fail,cts-bug: fake.cpp:2 stand-in\n"))
        r = run(tmp, "--caselist", caselist, "--baseline")
        check(r.returncode == 1, "baseline: exit %d, want 1" % r.returncode)
        check("t.c_fail Fail (not in tests/cts/fails.txt)" in r.stdout,
              "the unlisted failure is not reported:\n" + r.stdout)
        check("t.e_pass Pass (listed in fails.txt:2 as Fail, now passes" in r.stdout,
              "the unexpected pass is not reported:\n" + r.stdout)

        # A group, listed by the stand-in; skips apply.
        expectations(tmp, "")
        r = run(tmp, "--group", "dEQP-VK.t.*")
        got = results(tmp)
        check(got == {"a_pass": "Pass", "b_ns": "NotSupported", "c_skip_pass": "Skip"},
              "group run: %s" % got)

        # Reasons the rules do not allow.
        expectations(tmp, "dEQP-VK.t.c_fail,Fail,it fails\n"
                          "dEQP-VK.t.d_reserr,Pass,images: x\n"
                          "dEQP-VK.t.f_crash,Crash,cts-bug: no citation\n")
        r = run(tmp, "--check-expectations")
        check(r.returncode == 2, "--check-expectations: exit %d, want 2" % r.returncode)
        for needle in ("fails.txt:2: reason 'it fails'", "fails.txt:3: Pass is not a failing",
                       "fails.txt:4: reason 'cts-bug: no citation'"):
            check(needle in r.stdout, "%r not reported:\n%s" % (needle, r.stdout))
    print("FAIL" if failures else "PASS")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
