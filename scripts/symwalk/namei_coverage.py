"""make coverage: the lines and branches of the walk that make check runs.

The guest parts of make check (the guest tests, the fuzzer, the race tests,
every lab, the gdb helpers' tests) run again, as make check runs them, on a
kernel whose fs/namei.o counts what it executes (gcov). The guest resets
the counters before each test program and each lab's trigger and writes
them in base64 to its console after it (guest/initramfs/init); gcov reads
them here, one set a test program or lab.

Prints a line a function of tests/coverage/functions (its lines and
branches reached, the parts and labs that reached it) and ends with one
summary line; writes OUT/coverage.json and gcovr's pages (OUT/html/). Exits
non-zero if a part did not run to its end, or if a line of those functions
that nothing reached is not in tests/coverage/unreached with its reason
(or one listed there was reached, unless its reason says "(race)": the
list is kept true both ways).
"""
import base64
import binascii
import glob
import json
import os
import re
import shutil
import subprocess
import sys

from symwalk import check, git, markers, qemu
from symwalk.coverage_lists import FUNCTIONS, UNREACHED, CoverageError, read_list, read_unreached
from symwalk.labs import lab_names
from symwalk.layout import HELPER_TESTS
from symwalk.runner import Unit, run_units

SOURCE = "fs/namei.c"
# The test programs of make check's race tests; the others are the guest
# tests, but for the fuzzer.
RACES = {"race_walk", "ksft-namei-retry_budget_test", "ksft-openat2-rename_attack_test"}
PARTS = ("guest tests", "fuzzer", "race tests", "labs", "gdb helper tests")
# An entry of the unreached list that make check races for: reached or not.
RACE = "(race)"


def function_spans(source, names):
    """{name: (first, last)}: the lines of each function's definition in
    source (kernel style: the declarator at column 0, the body's closing
    brace alone at column 0)."""
    lines = source.splitlines()
    spans = {}
    for name in names:
        start = next((i for i, line in enumerate(lines)
                      if re.match(r"^[a-z_].*[ *]{}\(".format(re.escape(name)), line)
                      and not line.rstrip().endswith(";")), None)
        if start is None:
            raise CoverageError("{} has no function {}() (tests/coverage/functions)".format(
                SOURCE, name))
        end = next(i for i in range(start, len(lines)) if lines[i].rstrip() == "}")
        spans[name] = (start + 1, end + 1)
    return spans


def line_keys(source, spans):
    """{(function, line number): key}: a line's key in the unreached list,
    its text without the indentation, and " #N" for the Nth line of that
    text in the function from the second on (line numbers move with every
    patch; the text stays)."""
    lines = source.splitlines()
    keys = {}
    for name, (first, last) in spans.items():
        seen = {}
        for number in range(first, last + 1):
            text = lines[number - 1].strip()
            seen[text] = seen.get(text, 0) + 1
            keys[(name, number)] = text + (" #{}".format(seen[text]) if seen[text] > 1 else "")
    return keys


def part_of(tag, labs):
    """The part of make check a set of counters is from."""
    kind, name = tag.split("/", 1)
    if kind == "test":
        return "fuzzer" if name == "fuzz_walk" else "race tests" if name in RACES \
            else "guest tests"
    return "labs" if name in labs else "gdb helper tests"


def run_parts(kbuild, initramfs, run_dir, results):
    """The guest parts of make check on the coverage kernel, with its
    counters written to the console (symwalk.gcov=1), kept in run_dir."""
    vm = qemu.Guest(kbuild, initramfs, append="symwalk.gcov=1")
    smp = qemu.Guest(kbuild, initramfs, append="symwalk.gcov=1", cpus=2)
    parts = [
        ("guest tests and race tests", [Unit("guest tests", lambda r: check.run_guest_tests(
            r, smp, run_dir, append="symwalk.skip=fuzz_walk"), 20)]),
        ("fuzzer", [Unit("fuzz_walk", lambda r: check.run_guest_tests(
            r, vm, run_dir, append="symwalk.only=fuzz_walk", console="check-fuzz.console"),
            30)]),
        # A kernel with counters inlines otherwise: the labs' backtraces and
        # the locals gdb sees differ. They must run to their end, their
        # expectations are make check's.
        ("labs", [Unit("labs", lambda r: check.run_labs(r, vm, lab_names(), run_dir,
                                                        check=False), 25)]),
        ("gdb helper tests", [Unit("gdb helper tests", lambda r: check.run_helper_tests(
            r, smp, lab_names(HELPER_TESTS), run_dir, check=False), 10)])]
    run_units(results, parts, os.cpu_count() or 2, run_dir)


def counters_from_consoles(run_dir):
    """{tag: the bytes of namei.gcda} from the consoles of the run (a
    batch's lab appears in the batch's console and its own: once)."""
    counters = {}
    for console in sorted(glob.glob(os.path.join(run_dir, "*.console"))):
        with open(console, errors="replace") as f:
            for dump in markers.sections(f.read(), "gcda"):
                if not dump.ended:
                    raise CoverageError("the counters of {} in {} are cut short".format(
                        dump.name, console))
                try:
                    counters[dump.name] = base64.b64decode("".join(dump.text.split()),
                                                           validate=True)
                except binascii.Error as e:
                    raise CoverageError("the counters of {} in {} are not base64: {}".format(
                        dump.name, console, e))
    return counters


def gcov_lines(kbuild, data_dir):
    """{line number: (count, [each branch's count])} of fs/namei.c, from
    gcov's JSON for the counters in data_dir (beside the build's notes)."""
    proc = subprocess.run(["gcov", "--json-format", "--stdout", "--branch-probabilities",
                           "--object-directory", data_dir, os.path.join(data_dir, "namei.gcda")],
                          cwd=kbuild, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if proc.returncode:
        raise CoverageError("gcov failed on {}: {}".format(data_dir, proc.stderr.decode()))
    report = json.loads(proc.stdout)
    for entry in report["files"]:
        if entry["file"].endswith("/" + SOURCE) or entry["file"] == SOURCE:
            return {line["line_number"]: (line["count"], [b["count"] for b in line["branches"]])
                    for line in entry["lines"]}
    raise CoverageError("gcov's report for {} has no {}".format(data_dir, SOURCE))


def report(args, run_dir, results):
    """Read the counters of the run in run_dir, print the table, write the
    JSON and the pages, check the unreached list (args: the command's
    --kbuild, --tree and --out)."""
    with open(os.path.join(args.tree, SOURCE)) as f:
        source = f.read()
    names = read_list(FUNCTIONS)
    spans = function_spans(source, names)
    keys = line_keys(source, spans)
    listed = read_unreached(UNREACHED)
    labs = set(lab_names())
    counters = counters_from_consoles(run_dir)
    expected = ["lab/" + n for n in lab_names() + lab_names(HELPER_TESTS)]
    for tag in expected:
        if tag not in counters:
            results.add("counters of " + tag, False, "the run wrote none to its console")

    data = os.path.join(args.out, "data")
    shutil.rmtree(data, ignore_errors=True)
    by_tag = {}
    for tag, gcda in sorted(counters.items()):
        tag_dir = os.path.join(data, tag.replace("/", "_"))
        os.makedirs(tag_dir)
        os.symlink(os.path.abspath(os.path.join(args.kbuild, "fs", "namei.gcno")),
                   os.path.join(tag_dir, "namei.gcno"))
        with open(os.path.join(tag_dir, "namei.gcda"), "wb") as f:
            f.write(gcda)
        by_tag[tag] = gcov_lines(os.path.abspath(args.kbuild), os.path.abspath(tag_dir))

    table = walk_table(spans, by_tag, labs)
    print_table(table)
    failures = check_listed(spans, keys, table, listed)
    write_json(args.out, args.tree, source, spans, keys, table, listed, by_tag, labs)
    gcovr_pages(args, data)
    for title, detail in failures:
        results.add(title, False, detail)
    lines = sum(len(f["lines"]) for f in table.values())
    reached = sum(1 for f in table.values() for line in f["lines"].values() if line["count"])
    branches = sum(f["branches"] for f in table.values())
    taken = sum(f["taken"] for f in table.values())
    results.add("walk: {} functions, {} of {} lines reached ({:.1f} %), {} of {} branches "
                "taken ({:.1f} %), the {} others listed with their reasons".format(
                    len(table), reached, lines, 100.0 * reached / max(lines, 1), taken,
                    branches, 100.0 * taken / max(branches, 1), lines - reached),
                not failures)


def walk_table(spans, by_tag, labs):
    """{function: {"lines": {number: {"count", "by": [tags]}}, "branches",
    "taken", "parts", "labs"}} over all the sets of counters: "labs" are
    those that reached a line of the function that not every lab reached."""
    # Every lab's trigger runs a shell and the lookup tool: the lines all
    # of them reach say nothing of one lab.
    lab_runs = [{n for n, (count, _) in counts.items() if count}
                for tag, counts in by_tag.items()
                if tag.startswith("lab/") and tag.split("/", 1)[1] in labs]
    common = set.intersection(*lab_runs) if lab_runs else set()
    table = {}
    for name, (first, last) in spans.items():
        lines, branch_counts = {}, {}
        for tag, counts in by_tag.items():
            for number in range(first, last + 1):
                if number not in counts:
                    continue
                count, branches = counts[number]
                line = lines.setdefault(number, {"count": 0, "by": []})
                line["count"] += count
                if count:
                    line["by"].append(tag)
                summed = branch_counts.setdefault(number, [0] * len(branches))
                for i, c in enumerate(branches):
                    summed[i] += c
        tags = {tag for line in lines.values() for tag in line["by"]}
        table[name] = {
            "lines": lines,
            "branch_counts": branch_counts,
            "branches": sum(len(b) for b in branch_counts.values()),
            "taken": sum(1 for b in branch_counts.values() for c in b if c),
            "parts": [p for p in PARTS if any(part_of(t, labs) == p for t in tags)],
            "labs": sorted({t.split("/", 1)[1] for n, line in lines.items() if n not in common
                            for t in line["by"]
                            if t.startswith("lab/") and t.split("/", 1)[1] in labs})}
    return table


def print_table(table):
    short = {"guest tests": "G", "fuzzer": "F", "race tests": "R", "labs": "L",
             "gdb helper tests": "H"}
    print("== the walk's functions: lines and branches reached; the parts that reached "
          "them, G(uest tests) F(uzzer) R(aces) L(abs) H(elpers); the labs that reached a "
          "line not every lab reaches")
    print("   {:<22} {:>9} {:>9} {:<5} {}".format("function", "lines", "branches",
                                                  "parts", "labs"))
    for name, f in table.items():
        reached = sum(1 for line in f["lines"].values() if line["count"])
        print("   {:<22} {:>4}/{:<4} {:>4}/{:<4} {:<5} {}".format(
            name, reached, len(f["lines"]), f["taken"], f["branches"],
            "".join(short[p] for p in f["parts"]),
            " ".join(lab[:2] for lab in f["labs"]) or "-"))
    sys.stdout.flush()


def check_listed(spans, keys, table, listed):
    """[(title, detail)]: the lines nothing reached that the list lacks,
    and the entries of the list that name no such line."""
    failures, unlisted, accounted = [], [], set()
    for name, f in table.items():
        for number, line in sorted(f["lines"].items()):
            if line["count"]:
                continue
            key = (name, keys[(name, number)])
            if key in listed:
                accounted.add(key)
            else:
                unlisted.append("{}:{}: {}(): {}".format(SOURCE, number, name, key[1]))
    if unlisted:
        failures.append(("every line of the walk is reached or listed in "
                         "tests/coverage/unreached",
                         "{} lines neither reached nor listed:\n{}".format(
                             len(unlisted), "\n".join(unlisted))))
    stale = ["{}(): {}".format(*k) for k, reason in listed.items()
             if k not in accounted and not reason.startswith(RACE)]
    if stale:
        failures.append(("every line listed in tests/coverage/unreached is one nothing "
                         "reached", "reached, or no line of the function now:\n" +
                         "\n".join(stale)))
    return failures


def write_json(out, tree, source, spans, keys, table, listed, by_tag, labs):
    """OUT/coverage.json, what the site shows: the tree's commit; per
    function, its text,
    each line's count and the test programs and labs that reached it, and
    the reason of each line nothing reached; per set of counters (a test
    program, a lab), the lines it ran; the lines every lab ran."""
    text = source.splitlines()
    functions = {}
    for name, f in table.items():
        first, last = spans[name]
        functions[name] = {
            "first": first, "text": text[first - 1:last],
            "lines": {str(n): {"count": line["count"], "by": line["by"],
                               "branches": f["branch_counts"].get(n, []),
                               "unreached": listed.get((name, keys[(name, n)]))}
                      for n, line in sorted(f["lines"].items())},
            "parts": f["parts"], "labs": f["labs"]}
    runs = {tag: sorted(n for n, (count, _) in counts.items() if count)
            for tag, counts in by_tag.items()}
    lab_runs = [set(lines) for tag, lines in runs.items()
                if tag.startswith("lab/") and tag.split("/", 1)[1] in labs]
    every_lab = sorted(set.intersection(*lab_runs)) if lab_runs else []
    os.makedirs(out, exist_ok=True)
    head = git.head(tree)
    with open(os.path.join(out, "coverage.json.new"), "w") as f:
        json.dump({"source": SOURCE, "tree_head": head, "functions": functions, "runs": runs,
                   "every_lab": every_lab, "parts": {tag: part_of(tag, labs) for tag in runs}},
                  f, indent=1)
    os.replace(os.path.join(out, "coverage.json.new"), os.path.join(out, "coverage.json"))


def gcovr_pages(args, data):
    """gcovr's pages of fs/namei.c, all the runs' counters merged."""
    html = os.path.abspath(os.path.join(args.out, "html"))
    shutil.rmtree(html, ignore_errors=True)
    os.makedirs(html)
    proc = subprocess.run(["gcovr", "--root", os.path.abspath(args.tree), "--filter",
                           r".*/fs/namei\.c$", "--object-directory", os.path.abspath(args.kbuild),
                           "--html-details", os.path.join(html, "index.html"),
                           os.path.abspath(data)],
                          cwd=os.path.abspath(args.kbuild), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT)
    if proc.returncode:
        raise CoverageError("gcovr failed:\n" + proc.stdout.decode(errors="replace")[-3000:])
