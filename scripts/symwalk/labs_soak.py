"""Every lab in batch many times in a row, the machine loaded.

A lab that passes once may still depend on timing: the guest runs under
TCG, gdb stops and resumes it, some labs race a rename. soak() runs each
lab RUNS times in a row (make lab BATCH=1's run, expectations checked, its
logs in build/soak/run) while LOAD processes spin on the host's CPUs,
prints a line per lab and keeps the report and the gdb log of each failed
run in build/soak/. A soak, not a test: make check does not run it.
"""
import os
import shutil
import subprocess
import sys
import time

from symwalk.batch import run_lab_batch
from symwalk.layout import SOAK, SOAK_RUN


def spinners(count):
    """count processes that keep a CPU busy until killed."""
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range(count)]


def soak(vm, names, runs, load):
    """Each lab of names runs times, load spinners beside. Return (runs
    passed, runs failed)."""
    os.makedirs(SOAK, exist_ok=True)
    print("labs-soak: {} labs, {} runs each, {} CPU-bound process{} beside".format(
        len(names), runs, load, "" if load == 1 else "es"))
    passed = failed = 0
    spinning = spinners(load)
    try:
        for name in names:
            start, bad = time.monotonic(), []
            for run in range(1, runs + 1):
                ok, report = run_lab_batch(vm, name, SOAK_RUN, quiet=True, timeout=180)
                if ok:
                    passed += 1
                    continue
                failed += 1
                bad.append(run)
                path = os.path.join(SOAK, "{}-run{}.txt".format(name, run))
                with open(path, "w") as f:
                    f.write(report + "\n")
                # The next run overwrites the gdb log: keep the failed one.
                shutil.copyfile(os.path.join(SOAK_RUN, "lab-{}.gdb.log".format(name)),
                                path[:-len(".txt")] + ".gdb.log")
            print("{} {}: {} of {} passed{} ({:.0f} s)".format(
                "ok    " if not bad else "FAILED", name, runs - len(bad), runs,
                "; failed runs {} (reports in build/soak/)".format(
                    ", ".join(map(str, bad))) if bad else "",
                time.monotonic() - start))
            sys.stdout.flush()
    except KeyboardInterrupt:
        print("labs-soak: interrupted")
        failed += 1
    finally:
        for process in spinning:
            process.kill()
            process.wait()
    return passed, failed
