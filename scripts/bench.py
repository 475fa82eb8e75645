#!/usr/bin/env python3
"""make bench: what the series, its events and the environment cost.

usage: bench.py --kbuild DIR --pristine DIR --initramfs FILE --out DIR
                [--iterations N] [--runs N] [--fresh] [--only guest|host]

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

Writes OUT/report.md, OUT/results.json and OUT/walk-cost.svg, and prints
the tables. make bench's OUT is results/bench, kept in the repository: each
part says the date and the commit it measured, and the site shows them.
"""
import argparse
import html
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import guest

TOP = guest.TOP
# The series' goal, every event off: each operation within this many
# percent of pristine, the cost per link within this many instructions.
GOAL_PERCENT = 0.5
GOAL_SLOPE = 3.0
CHAIN = re.compile(r"^chain-(\d+)$")
# The functions of the walk whose code size the report compares.
WALK_FUNCTIONS = ["link_path_walk", "step_into", "walk_component", "pick_link", "put_link",
                  "path_lookupat", "path_openat", "path_init", "terminate_walk",
                  "try_to_unlazy", "try_to_unlazy_next", "nd_jump_root", "nd_jump_link",
                  "lookup_fast", "handle_dots", "complete_walk", "reserve_stack",
                  "nd_alloc_stack", "drop_links", "legitimize_links"]


class BenchError(Exception):
    pass


def checkout_commit(out):
    """The commit the checkout is at, with "+" if its tracked files (but
    OUT's, the results themselves) differ from it."""
    def git(*args):
        return subprocess.run(["git"] + list(args), cwd=TOP, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True).stdout.strip()
    head = git("rev-parse", "HEAD") or "unknown"
    changed = git("status", "--porcelain", "--untracked-files=no", "--", ".",
                  ":!" + os.path.relpath(os.path.abspath(out), TOP))
    return head + ("+" if changed else "")


def measured(part):
    """When a part was measured, and at which commit of the checkout ("+":
    with changes not committed)."""
    commit = part.get("commit")
    if not commit:
        return part["date"]
    # Not "commit HASH": the kernel's automarkup links that to the kernel's git.
    return "{}, the checkout at {}{}".format(part["date"], commit.rstrip("+")[:12],
                                            "+" if commit.endswith("+") else "")


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
    vm = guest.Guest(kbuild, initramfs, qemu_args=guest.ICOUNT,
                     append="symwalk.bench_iterations={}".format(iterations))
    start = time.monotonic()
    text = guest.run_scenario(vm, "bench", timeout=1800, stem=stem)
    if "bench: done" not in text:
        raise BenchError("walkbench did not finish on {}:\n{}".format(kbuild, text[-2000:]))
    figures, events = parse_walkbench(text)
    return figures, events, time.monotonic() - start


def fit(points):
    """Least-squares (slope, intercept) of [(x, y)]."""
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    slope = sum((x - mx) * (y - my) for x, y in points) / sxx
    return slope, my - slope * mx


def chain_points(cases):
    return sorted((int(CHAIN.match(c).group(1)), f["median"])
                  for c, f in cases.items() if CHAIN.match(c))


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
    result = {"iterations": args.iterations, "qemu": " ".join(guest.ICOUNT)}
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

    vm = guest.Guest(args.kbuild, args.initramfs)
    for cpus in (1, 2):
        boots = []
        for _ in range(runs):
            start = time.perf_counter()
            guest.run_scenario(guest.Guest(args.kbuild, args.initramfs, cpus=cpus),
                               "boot", timeout=120)
            boots.append(time.perf_counter() - start)
        report(summary("boot of the guest to its shell and out, %d vCPU%s"
                       % (cpus, "s" if cpus > 1 else ""), boots, "s"))

    report(summary("make lab LAB=04-chain BATCH=1", [
        timed(["make", "-s", "lab", "LAB=04-chain", "BATCH=1"], env=env)
        for _ in range(runs)], "s"))

    sys.path.insert(0, os.path.join(TOP, "tests", "gdb"))
    import lab_tmux_test
    first, prompt = [], []
    for _ in range(runs):
        start = time.perf_counter()
        lab = lab_tmux_test.Lab()
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

    ok, text = guest.run_lab_batch(vm, "breakpoint-cost", labs=os.path.join(TOP, "bench"),
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

    ok, text = guest.run_lab_batch(vm, "gdb-depth", labs=guest.HELPER_TESTS, check=False,
                                   steps=os.path.join(TOP, "bench", "helpers.gdb"), quiet=False)
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
                subprocess.run(["git", "clone", "-q", TOP, clone], check=True)
                fresh.append(timed(["make", "-s", "check"], cwd=clone, env=env, timeout=5400))
            finally:
                shutil.rmtree(clone, ignore_errors=True)
        report(summary("make check in a fresh clone", fresh, "s",
                       "the kernel built anew; packages already installed"))
    return rows


# -- the report --------------------------------------------------------------

def plot(result, path):
    """instructions per stat() against the chain's length, both kernels
    (and the patched one with every event on), as an SVG."""
    series = [("pristine", result["pristine"]["figures"]["off"], "#1f77b4"),
              ("patched, events off", result["patched"]["figures"]["off"], "#d62728")]
    if "all" in result["patched"]["figures"]:
        series.append(("patched, every event on", result["patched"]["figures"]["all"],
                       "#2ca02c"))
    points = [(name, chain_points(cases), colour) for name, cases, colour in series]
    width, height, left, right, top, bottom = 640, 400, 70, 20, 30, 50
    xmax = max(x for _, p, _ in points for x, _ in p)
    ymax = max(y for _, p, _ in points for _, y in p) * 1.05

    def sx(x):
        return left + (width - left - right) * x / xmax

    def sy(y):
        return height - bottom - (height - top - bottom) * y / ymax

    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" '
           'font-family="DejaVu Sans, sans-serif" font-size="12">'.format(width, height),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="{}" y="18" text-anchor="middle">instructions per stat() through a '
           'chain of N links (QEMU icount, median of {})</text>'.format(
               width / 2, result["iterations"])]
    for i in range(6):
        y = ymax * i / 5
        out.append('<line x1="{0}" x2="{1}" y1="{2:.1f}" y2="{2:.1f}" stroke="#dddddd"/>'
                   '<text x="{3}" y="{4:.1f}" text-anchor="end">{5:,.0f}</text>'.format(
                       left, width - right, sy(y), left - 6, sy(y) + 4, y))
    for x in sorted({x for _, p, _ in points for x, _ in p}):
        out.append('<text x="{:.1f}" y="{}" text-anchor="middle">{}</text>'.format(
            sx(x), height - bottom + 16, x))
    out.append('<text x="{}" y="{}" text-anchor="middle">links followed (N)</text>'.format(
        (left + width - right) / 2, height - 12))
    for n, (name, p, colour) in enumerate(points):
        out.append('<polyline fill="none" stroke="{}" stroke-width="2" points="{}"/>'.format(
            colour, " ".join("{:.1f},{:.1f}".format(sx(x), sy(y)) for x, y in p)))
        for x, y in p:
            out.append('<circle cx="{:.1f}" cy="{:.1f}" r="3" fill="{}"/>'.format(
                sx(x), sy(y), colour))
        slope = fit(p)[0]
        out.append('<rect x="{}" y="{}" width="12" height="12" fill="{}"/>'
                   '<text x="{}" y="{}">{} ({:.1f} per link)</text>'.format(
                       left + 12, top + 8 + 18 * n, colour, left + 30, top + 18 + 18 * n,
                       html.escape(name), slope))
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


# The report is a list of blocks, rendered as Markdown here and as
# reStructuredText by the docs' directive (Documentation/sphinx/symwalk_bench.py):
# ("heading", level, text), ("para", text), ("table", header, rows),
# ("image", file name, alt text).

def guest_blocks(g):
    out = [("heading", 2, "In the guest: instructions, one vCPU"),
           ("para", "Measured {}. Pristine {} and patched {}, built from one .config and "
            "booted in the same run with the same initramfs, QEMU options {}; the fixture "
            "on a noatime tmpfs (guest/tools/walkbench.c). Each figure is the median of {} "
            "operations, rdtsc around the syscall (1 instruction = 1 ns under "
            "icount).".format(measured(g), g["pristine"]["release"], g["patched"]["release"],
                              g["qemu"], g["iterations"])),
           ("heading", 3, "Every namei event off"),
           ("table", ["case", "pristine", "patched", "difference", "ratio"], [
               [r["case"], "{:,}".format(r["pristine"]), "{:,}".format(r["patched"]),
                "{:+,}".format(r["delta"]), "{:+.2f} %".format(r["percent"])]
               for r in g["comparison"]])]
    s, goal = g["slopes"], g["goal"]
    out += [("para", "Per link (a least-squares fit over chain-0 to chain-40): pristine "
             "{:.1f}, patched {:.1f} instructions ({:+.1f}).".format(
                 s["pristine"], s["patched"], goal["slope_delta"])),
            ("para", "Goal (every event off: each operation within {} % of pristine, the "
             "cost per link within {:.0f} instructions): {}. The worst case is {} at "
             "{:+.2f} %; the cost per link differs by {:+.1f}.{}".format(
                 goal["percent"], goal["slope"], "MET" if goal["met"] else "NOT MET",
                 goal["worst_case"], goal["worst_percent"], goal["slope_delta"],
                 "".join(" Over the goal: " + ", ".join(
                     "{} ({:+.2f} %)".format(r["case"], r["percent"]) for r in over) + "."
                     for over in [[r for r in g["comparison"]
                                   if r["percent"] > goal["percent"]]] if over)))]
    figures, events = g["patched"]["figures"], g["patched"]["events"]
    if "all" in figures:
        rows = []
        for case, off in figures["off"].items():
            on = figures["all"][case]["median"]
            fired = sum(events.get(case, {}).values())
            rows.append([case, "{:,}".format(off["median"]), "{:,}".format(on),
                         "{:+,}".format(on - off["median"]), fired,
                         "{:.0f}".format((on - off["median"]) / fired) if fired else "-"])
        out += [("heading", 3, "Every namei event on (written to the ring buffer, nobody "
                 "reading)"),
                ("table", ["case", "off", "all on", "difference", "events fired",
                           "per event"], rows),
                ("heading", 3, "Each event enabled alone"),
                ("table", ["event", "measured on", "fired per operation", "difference",
                           "per event"], [
                    [c["event"], c["case"] or "-", c["fired"],
                     "{:+,}".format(c["delta"]) if c["delta"] is not None else "-",
                     "{:.0f}".format(c["per_event"]) if c["per_event"] is not None else "-"]
                    for c in g["event_costs"]])]
    sizes_p, sizes_q = g["pristine"]["sizes"], g["patched"]["sizes"]
    rows = [[f, sizes_p.get(f, "inlined"), sizes_q.get(f, "inlined")]
            for f in WALK_FUNCTIONS if f in sizes_p or f in sizes_q]
    rows.append(["all of fs/namei.o's text", g["pristine"]["text"], g["patched"]["text"]])
    out += [("heading", 3, "Code size (bytes, nm -S of fs/namei.o)"),
            ("table", ["function", "pristine", "patched"], rows),
            ("image", "walk-cost.svg", "instructions per stat() against the chain's length")]
    return out


def host_blocks(part):
    rows = part["rows"]
    return [("heading", 2, "On the host: wall-clock time (noisy: medians, min and max)"),
            ("para", "Measured {} on {}.".format(measured(part), part["machine"])),
            ("table", ["what", "median", "min", "max", "runs", "note"], [
                [r["name"], "{:.2f} {}".format(r["median"], r["unit"]),
                 "{:.2f}".format(r["min"]), "{:.2f}".format(r["max"]), r["runs"], r["note"]]
                for r in rows])]


def report_blocks(results):
    """The report of results.json as blocks."""
    blocks = [("heading", 1, "make bench")]
    if "guest" in results:
        blocks += guest_blocks(results["guest"])
    if "host" in results:
        blocks += host_blocks(results["host"])
    return blocks


def markdown(blocks):
    out = []
    for block in blocks:
        if block[0] == "heading":
            out += ["#" * block[1] + " " + block[2], ""]
        elif block[0] == "para":
            out += [block[1], ""]
        elif block[0] == "table":
            header, rows = block[1], block[2]
            out.append("| " + " | ".join(header) + " |")
            out.append("|" + "|".join(" --- " for _ in header) + "|")
            out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
            out.append("")
        elif block[0] == "image":
            out += ["![{}]({})".format(block[2], block[1]), ""]
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kbuild", required=True)
    parser.add_argument("--pristine", required=True)
    parser.add_argument("--initramfs", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--fresh", action="store_true")
    parser.add_argument("--fresh-runs", type=int, default=1)
    parser.add_argument("--only", choices=("guest", "host"))
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    # A part not run this time keeps its last figures.
    saved = os.path.join(args.out, "results.json")
    results = {}
    if args.only and os.path.exists(saved):
        with open(saved) as f:
            results = json.load(f)
    date = time.strftime("%Y-%m-%d %H:%M")
    commit = checkout_commit(args.out)
    try:
        if args.only != "host":
            results["guest"] = dict(guest_part(args), date=date, commit=commit)
        if args.only != "guest":
            results["host"] = {"rows": host_part(args), "date": date, "commit": commit,
                               "machine": os.uname().nodename}
    except (BenchError, guest.GuestError, subprocess.SubprocessError) as e:
        print("bench: {}".format(e), file=sys.stderr)
        return 1
    if "guest" in results:
        plot(results["guest"], os.path.join(args.out, "walk-cost.svg"))
    report = markdown(report_blocks(results))
    with open(os.path.join(args.out, "report.md"), "w") as f:
        f.write(report)
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    print()
    print(report)
    print("bench: {} (and results.json, walk-cost.svg)".format(
        os.path.join(args.out, "report.md")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
