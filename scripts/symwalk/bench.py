"""make bench's measurements: what the series, its events and the
environment cost.

A benchmark, not a test. Two parts:

  guest  in QEMU with -icount shift=0 (guest time = executed instructions,
         identical from boot to boot), one vCPU: the pristine kernel and the
         patched one, built from one .config, booted in this run with the
         same initramfs; guest/tools/walkbench measures each case, with
         every namei event off, all on, and each alone (patched only).
  host   wall-clock medians of --runs runs (5 by default), min and max:
         boot, make lab (batch, and to the gdb prompt in tmux), a
         breakpoint stop that goes on, the helpers at depth 0/2/3/40,
         make check with nothing changed; with --fresh, a fresh clone's
         make check.

Its guest runs are kept in build/bench/run, never with the site's.
"""
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from symwalk import git, qemu
from symwalk.batch import run_lab_batch
from symwalk.bench_report import chain_points, fit
from symwalk.layout import BENCH_LABS, BENCH_RUN, HELPER_TESTS, TOP
from symwalk.tmux_driver import Lab
# The series' goal, every event off: each operation within this many
# percent of pristine, the cost per link within this many instructions.
GOAL_PERCENT = 0.5
GOAL_SLOPE = 3.0
class BenchError(Exception):
    pass


# -- the guest part ----------------------------------------------------------

def parse_walkbench(text):
    """{mode: {case: {median, min, max, n}}}, {case: {event: count}}."""
    figures, events = {}, {}
    for line in text.splitlines():
        m = re.match(r"^bench: mode=(\S+) case=(\S+) n=(\d+) median=(\d+) min=(\d+) max=(\d+)",
                     line)
        if m:
            figures.setdefault(m.group(1), {})[m.group(2)] = {
                "n": int(m.group(3)), "median": int(m.group(4)),
                "min": int(m.group(5)), "max": int(m.group(6))}
            continue
        m = re.match(r"^bench: events case=(\S+) (.*)$", line)
        if m:
            events[m.group(1)] = {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", m.group(2))}
    return figures, events


def run_walkbench(kbuild, initramfs, iterations, stem):
    vm = qemu.Guest(kbuild, initramfs, qemu_args=qemu.ICOUNT,
                     append="symwalk.bench_iterations={}".format(iterations))
    start = time.monotonic()
    text = qemu.run_scenario(vm, "bench", BENCH_RUN, timeout=1800, stem=stem)
    if "bench: done" not in text:
        raise BenchError("walkbench did not finish on {}:\n{}".format(kbuild, text[-2000:]))
    figures, events = parse_walkbench(text)
    return figures, events, time.monotonic() - start


def function_sizes(kbuild):
    """{function: bytes} of fs/namei.o's text symbols."""
    out = subprocess.run(["nm", "-S", "--defined-only", os.path.join(kbuild, "fs", "namei.o")],
                         capture_output=True, text=True)
    sizes = {}
    for line in out.stdout.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "tT":
            sizes[parts[3]] = int(parts[1], 16)
    return sizes


def text_size(kbuild):
    out = subprocess.run(["size", os.path.join(kbuild, "fs", "namei.o")],
                         capture_output=True, text=True)
    lines = out.stdout.splitlines()
    return int(lines[1].split()[0]) if len(lines) > 1 else None


def guest_part(args):
    print("bench: the guest part: pristine and patched kernels under -icount shift=0, "
          "{} iterations a case".format(args.iterations))
    sys.stdout.flush()
    result = {"iterations": args.iterations, "qemu": " ".join(qemu.ICOUNT)}
    for kernel, kbuild in (("pristine", args.pristine), ("patched", args.kbuild)):
        figures, events, took = run_walkbench(kbuild, args.initramfs, args.iterations,
                                              "bench-" + kernel)
        print("bench: {} measured in {:.0f} s".format(kernel, took))
        sys.stdout.flush()
        result[kernel] = {"figures": figures, "events": events,
                          "sizes": function_sizes(kbuild), "text": text_size(kbuild),
                          "release": kernelrelease(kbuild)}
    pristine = result["pristine"]["figures"]["off"]
    patched = result["patched"]["figures"]["off"]
    rows = []
    for case in pristine:
        p, q = pristine[case]["median"], patched[case]["median"]
        rows.append({"case": case, "pristine": p, "patched": q, "delta": q - p,
                     "percent": 100.0 * (q - p) / p})
    slopes = {k: fit(chain_points(result[k]["figures"]["off"]))[0]
              for k in ("pristine", "patched")}
    worst = max(rows, key=lambda r: r["percent"])
    result["comparison"] = rows
    result["slopes"] = slopes
    result["goal"] = {
        "percent": GOAL_PERCENT, "slope": GOAL_SLOPE,
        "worst_case": worst["case"], "worst_percent": worst["percent"],
        "slope_delta": slopes["patched"] - slopes["pristine"],
        "met": worst["percent"] <= GOAL_PERCENT and
        slopes["patched"] - slopes["pristine"] <= GOAL_SLOPE}
    result["event_costs"] = event_costs(result["patched"])
    return result


def event_costs(patched):
    """Per event: the case it fires in most, how often an operation fires
    it there, and what each firing costs (enabled alone, minus off)."""
    figures, events = patched["figures"], patched["events"]
    costs = []
    for mode in sorted(figures):
        if not mode.startswith("namei_"):
            continue
        fired = {case: counts.get(mode, 0) for case, counts in events.items()}
        case = max(fired, key=lambda c: (fired[c], c))
        if not fired[case]:
            costs.append({"event": mode, "case": None, "fired": 0, "delta": None,
                          "per_event": None})
            continue
        delta = figures[mode][case]["median"] - figures["off"][case]["median"]
        costs.append({"event": mode, "case": case, "fired": fired[case], "delta": delta,
                      "per_event": delta / fired[case]})
    return costs


def kernelrelease(kbuild):
    try:
        with open(os.path.join(kbuild, "include", "config", "kernel.release")) as f:
            return f.read().strip()
    except OSError:
        return "?"


# -- the host part -----------------------------------------------------------

def timed(command, cwd=TOP, timeout=1800, env=None):
    """Wall time of a command; it must succeed."""
    start = time.perf_counter()
    proc = subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          timeout=timeout, env=env)
    took = time.perf_counter() - start
    if proc.returncode != 0:
        raise BenchError("{} failed ({}):\n{}".format(
            " ".join(command), proc.returncode, proc.stdout.decode(errors="replace")[-3000:]))
    return took


def summary(name, values, unit, note=""):
    return {"name": name, "unit": unit, "runs": len(values), "note": note,
            "median": statistics.median(values), "min": min(values), "max": max(values)}


def quiet_env():
    env = dict(os.environ)
    for name in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS"):
        env.pop(name, None)
    return env


def host_part(args):
    runs = args.runs
    env = quiet_env()
    rows = []

    def report(row):
        rows.append(row)
        print("bench: {name}: median {median:.2f} {unit} (min {min:.2f}, max {max:.2f}, "
              "{runs} runs)".format(**row))
        sys.stdout.flush()

    vm = qemu.Guest(args.kbuild, args.initramfs)
    for cpus in (1, 2):
        boots = []
        for _ in range(runs):
            start = time.perf_counter()
            qemu.run_scenario(qemu.Guest(args.kbuild, args.initramfs, cpus=cpus),
                              "boot", BENCH_RUN, timeout=120)
            boots.append(time.perf_counter() - start)
        report(summary("boot of the guest to its shell and out, %d vCPU%s"
                       % (cpus, "s" if cpus > 1 else ""), boots, "s"))

    report(summary("make lab LAB=04-chain BATCH=1", [
        timed(["make", "-s", "lab", "LAB=04-chain", "BATCH=1"], env=env)
        for _ in range(runs)], "s"))

    first, prompt = [], []
    for _ in range(runs):
        start = time.perf_counter()
        lab = Lab("04-chain")
        try:
            if not lab.wait(lambda: "pushed /lab/04-chain/l3" in lab.pane(1), 120):
                raise BenchError("make lab never showed its first stop")
            first.append(time.perf_counter() - start)
            if not lab.wait(lambda: "its steps are done" in lab.pane(1), 120):
                raise BenchError("make lab never reached the gdb prompt")
            prompt.append(time.perf_counter() - start)
        finally:
            lab.close()
    report(summary("make lab: from the command to the lab's first stop shown", first, "s"))
    report(summary("make lab: from the command to the gdb prompt after the steps",
                   prompt, "s"))

    ok, text = run_lab_batch(vm, "breakpoint-cost", BENCH_RUN, labs=BENCH_LABS,
                             check=False, timeout=300)
    batches = dict(re.findall(r"^bench: batch=(\S+) lookups=200 ms=(\S+)$", text, re.M))
    hits = re.search(r"^bench: breakpoint hits=(\d+)$", text, re.M)
    if len(batches) != 2 or not hits:
        raise BenchError("the breakpoint cost was not measured:\n" + text[-3000:])
    plain = [float(t) for t in batches["bench-plain"].split(",")]
    stopped = [float(t) for t in batches["bench-stopped"].split(",")]
    per_hit = [(s - p) / (int(hits.group(1)) / len(stopped)) for p, s in zip(plain, stopped)]
    report(summary("a breakpoint stop whose condition fails (per hit)", per_hit, "ms",
                   "{} hits in {} batches of 200 stat()".format(hits.group(1), len(stopped))))

    ok, text = run_lab_batch(vm, "gdb-depth", BENCH_RUN, labs=HELPER_TESTS, check=False,
                             steps=os.path.join(BENCH_LABS, "helpers.gdb"), quiet=False)
    for m in re.finditer(r"^bench: helper=(\S+) depth=(\d+) runs=(\d+) median=(\S+) min=(\S+) "
                         r"max=(\S+)$", text, re.M):
        rows.append({"name": "{} at depth {}".format(m.group(1), m.group(2)), "unit": "ms",
                     "runs": int(m.group(3)), "median": float(m.group(4)),
                     "min": float(m.group(5)), "max": float(m.group(6)), "note": ""})
        print("bench: {} at depth {}: median {} ms".format(m.group(1), m.group(2), m.group(4)))
    if not any(r["name"].startswith("lx-symlink-stack at depth 40") for r in rows):
        raise BenchError("the helpers were not measured at depth 40:\n" + text[-3000:])

    report(summary("make check, nothing changed", [
        timed(["make", "-s", "check"], env=env, timeout=3600) for _ in range(runs)], "s"))
    if args.fresh:
        fresh = []
        for _ in range(args.fresh_runs):
            clone = tempfile.mkdtemp(prefix="symwalk-fresh-")
            try:
                git.run(TOP, "clone", "-q", TOP, clone)
                fresh.append(timed(["make", "-s", "check"], cwd=clone, env=env, timeout=5400))
            finally:
                shutil.rmtree(clone, ignore_errors=True)
        report(summary("make check in a fresh clone", fresh, "s",
                       "the kernel built anew; packages already installed"))
    return rows
