#!/usr/bin/python3
"""Assemble the Sphinx sources of symwalk's site in build/docs/src.

usage: gen.py --tree build/linux --data build/run --out build/docs/src

--data is the folder of the results make check's guest parts left
(scripts/docs_data.py lists them): the site shows those runs and boots
nothing.

  - the hand-written pages of Documentation/ and its pictures (linked, not
    copied; the labs' pages, the helper reference and the stack pictures
    are directives of
    Documentation/sphinx/ in them);
  - the tracepoint reference, from include/trace/events/namei.h of the
    patched tree and real trace output;
  - the patched tree's Documentation/filesystems/path-lookup.rst and a page
    of the kernel-doc of fs/namei.c.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
DOC = os.path.join(TOP, "Documentation")
sys.path.insert(0, HERE)

sys.path.insert(0, os.path.join(TOP, "scripts"))
sys.path.insert(0, os.path.join(DOC, "sphinx"))
import symwalk_run  # noqa: E402
import symwalk_walks as walkdata  # noqa: E402
import tracepoints  # noqa: E402

NOT_SOURCES = ("conf.py", "_static", "sphinx", "pictures")


class GenError(Exception):
    pass


# -- reStructuredText -------------------------------------------------------

def esc(text):
    """Text as reST shows it literally in a paragraph."""
    return re.sub(r"([\\*`_|\[\]<>])", r"\\\1", text)


def title(text, char="="):
    return "{}\n{}\n\n".format(text, char * max(len(text), 4))


def block(text, language="text", indent="   ", quoted=False):
    """A code block; quoted=True marks text quoted from a patch, which the
    function-name check leaves out (scripts/docs/check_functions.py)."""
    body = "\n".join((indent + line) if line.strip() else "" for line in
                     text.rstrip("\n").expandtabs(8).split("\n"))
    return ".. code-block:: {}\n{}\n{}\n\n".format(
        language, "   :class: quoted\n" if quoted else "", body or indent + "(empty)")


def literal(text):
    text = text.replace("``", "`\u200b`")
    return "``{}``".format(text) if text.strip() else "``\u00a0``"


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def relative(path):
    return os.path.relpath(path, TOP)


def clean_paths(text):
    """Output as a reader's checkout would show it: paths from the top."""
    return text.replace(TOP + "/", "")


# -- the hand-written pages -------------------------------------------------

def link_handwritten(out):
    os.symlink(os.path.join(DOC, "pictures"), os.path.join(out, "pictures"))
    for root, dirs, files in os.walk(DOC):
        dirs[:] = [d for d in dirs if d not in NOT_SOURCES]
        for name in files:
            if not name.endswith(".rst"):
                continue
            src = os.path.join(root, name)
            dst = os.path.join(out, os.path.relpath(src, DOC))
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            os.symlink(src, dst)


# -- tracepoints ------------------------------------------------------------

def call_sites(tree, system):
    """{event: [(function, file, line)]} from the <system>_trace(EVENT, ...)
    sites of the patched tree (fs/namei.c fires each event through that
    macro, which calls the out-of-line <system>_trace_EVENT() helper only
    when the event is enabled)."""
    site = r"\b{}_trace\((\w+)\s*,".format(system)
    proc = subprocess.run(["git", "-C", tree, "grep", "-n", "-E", site, "--", "fs/*.c"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    sites = {}
    files = {}
    for line in proc.stdout.decode(errors="replace").splitlines():
        path, number, code = line.split(":", 2)
        m = re.search(site, code)
        if not m or code.lstrip().startswith("#"):
            continue
        if path not in files:
            with open(os.path.join(tree, path), errors="replace") as f:
                files[path] = f.read().split("\n")
        lines = files[path]
        function = None
        for i in range(int(number) - 1, -1, -1):
            fm = re.match(r"^[A-Za-z_].*?\b(\w+)\s*\(", lines[i])
            if fm and not lines[i].startswith(("#", "}")) and not lines[i].rstrip().endswith(";"):
                function = fm.group(1)
                break
        sites.setdefault("{}_{}".format(system, m.group(1)), []).append(
            (function, path, int(number)))
    return sites


def tracepoint_page(tree, records, out):
    header = os.path.join(tree, "include", "trace", "events", "namei.h")
    if not os.path.exists(header):
        raise GenError("{} is missing: the series' tracepoint patch is not applied".format(
            relative(header)))
    with open(header) as f:
        source = f.read()
    system = tracepoints.trace_system(source) or "namei"
    events, classes = tracepoints.parse(source)
    sites = call_sites(tree, system)

    order = ["nest", "chain", "jump", "magic", "unlazy", "loop"]
    order += [k for k in records if k not in order]
    seen = {}
    for key in order:
        if key in records:
            for e in records[key].lookup():
                seen.setdefault(e.name, []).append((key, e))
    # Two examples of each event: the first seen, then one with another
    # reason if the walks show one, else with other fields.
    examples = {}
    for name, found in seen.items():
        first_event = found[0][1]
        other = [(k, e) for k, e in found if e.args.get("reason") !=
                 first_event.args.get("reason")] or [
                     (k, e) for k, e in found if e.args != first_event.args]
        examples[name] = found[:1] + other[:1]
    limit = re.search(r"^#define\s+\w*NAME_MAX\s+(\d+)", source, re.M)

    text = [".. This page is generated by scripts/docs/gen.py.\n\n",
            title("Tracepoints"),
            "The series adds the trace system ``{0}`` "
            "(``include/trace/events/{0}.h``). Enable all its events with::\n\n"
            "   echo 1 > /sys/kernel/tracing/events/{0}/enable\n\n"
            "and read ``/sys/kernel/tracing/trace``. The header says of them:\n\n"
            .format(system)]
    text.append("".join("   {}\n".format(esc(line)) if line else "\n" for line in
                        tracepoints.header_comment(source).split("\n")) + "\n")
    text.append(
        "Names, link bodies and remnants are cut to {0} bytes. The names of "
        "dentries (``link=``, ``target=``) are copied a byte at a time, without "
        "``d_lock``: in RCU-walk a concurrent rename may change them under the "
        "event.\n\n"
        "``fs/namei.c`` fires each event through the macro ``{1}_trace(EVENT, ...)``, "
        "which calls the event's out-of-line helper only when the event is "
        "enabled: a disabled event costs the walk a NOP. :doc:`stack` replays the "
        "events of the stack (push, body, pop, spill, jumps, ELOOP) into "
        "pictures.\n\n"
        "This page is generated from the header of the patched tree; each "
        "event's call sites are the ``{1}_trace()`` sites of ``fs/namei.c``, and its "
        "example lines are real: the trace of the walks of "
        "``guest/scenarios/docs-walks.sh`` and of the labs' triggers, as ``make "
        "check`` last ran them.\n\n".format(limit.group(1) if limit else "a bounded number of", system))
    first = next((e for _, e in examples.get("namei_link_push", [])), None) or next(
        (ex[0][1] for ex in examples.values()), None)
    if first:
        text.append("A line of the trace starts with the task and its pid, the CPU, the "
                    "irq and preemption flags and the time; the examples below leave these "
                    "columns out. A whole line, as the trace buffer has it:\n\n")
        text.append(block(first.text()))
    text.append(".. list-table::\n   :header-rows: 1\n   :widths: 30 70\n\n"
                "   * - event\n     - prints\n")
    for ev in events:
        text.append("   * - :ref:`{0} <event-{0}>`\n     - {1}\n".format(
            ev.name, literal(ev.printk_format.replace('\\"', '"'))))
    text.append("\n")
    for ev in events:
        text.append(".. _event-{}:\n\n".format(ev.name))
        text.append(title(ev.name, "-"))
        if ev.comment:
            text.append(esc(ev.comment) + "\n\n")
        fields = []
        if ev.cls:
            fields.append(":Class: ``{}``".format(ev.cls))
        where = sites.get(ev.name, [])
        if where:
            fields.append(":Fired from: " + ", ".join(
                "{}() (``{}:{}``)".format(fn, path, line) if fn else
                "``{}:{}``".format(path, line) for fn, path, line in where))
        fields.append(":Enable: ``echo 1 > /sys/kernel/tracing/events/{}/{}/enable``".format(
            system, ev.name))
        text.append("\n".join(fields) + "\n\n")
        if ev.proto:
            text.append(block("TP_PROTO({})".format(ev.proto), "c"))
        text.append(".. list-table::\n   :header-rows: 1\n   :widths: 25 35 40\n\n"
                    "   * - field\n     - C type\n     - printed as\n")
        for fl in ev.fields:
            text.append("   * - {}\n     - {}\n     - {}\n".format(
                literal(fl.name), literal(fl.ctype),
                ", ".join(literal(k + "=") for k in fl.printed_as) or "(not printed)"))
        text.append("\n")
        for fl in ev.fields:
            if fl.values:
                text.append("``{}=`` is one of:\n\n".format(fl.printed_as[0]))
                text += ["- ``{}``: {}\n".format(v, esc(meaning) if meaning else "")
                         for v, meaning in fl.values]
                text.append("\n")
        text.append("Format: {}\n\n".format(literal(ev.printk_format.replace('\\"', '"'))))
        ex = examples.get(ev.name)
        if ex:
            text.append("Example, from the walk{} {}:\n\n".format(
                "s" if len({k for k, _ in ex}) > 1 else "",
                ", ".join(sorted({"``{}``".format(records[k].path() or k) for k, _ in ex}))))
            text.append(block("\n".join(e.short() for _, e in ex)))
        else:
            text.append("*No walk of the documentation's scenario fired this event.*\n\n")
    write(os.path.join(out, "tracepoints.rst"), "".join(text))


# -- the kernel's pages -----------------------------------------------------

def kernel_pages(tree, out):
    src = os.path.join(tree, "Documentation", "filesystems", "path-lookup.rst")
    if not os.path.exists(src):
        raise GenError("{} is missing: run make tree".format(relative(src)))
    dst_dir = os.path.join(out, "filesystems")
    os.makedirs(dst_dir, exist_ok=True)
    shutil.copyfile(src, os.path.join(dst_dir, "path-lookup.rst"))
    with open(src) as f:
        has_internal = re.search(r"^\.\. kernel-doc:: fs/namei\.c\s*\n\s+:internal:",
                                 f.read(), re.M)
    text = [".. This page is generated by scripts/docs/gen.py.\n\n",
            title("fs/namei.c: kernel-doc")]
    if has_internal:
        text.append("The kernel-doc of the functions internal to ``fs/namei.c`` ends the "
                    "patched :doc:`path-lookup` page. Here are those ``fs/namei.c`` exports "
                    "to the rest of the kernel, from the patched tree through the "
                    "kernel's own ``kernel-doc`` Sphinx extension.\n\n")
        text.append(".. kernel-doc:: fs/namei.c\n   :export:\n\n")
    else:
        text.append("The kernel-doc of ``fs/namei.c`` in the patched tree, through the "
                    "kernel's own ``kernel-doc`` Sphinx extension.\n\n")
        text.append(title("Internal functions", "-"))
        text.append(".. kernel-doc:: fs/namei.c\n   :internal:\n\n")
        text.append(title("Exported functions", "-"))
        text.append(".. kernel-doc:: fs/namei.c\n   :export:\n\n")
    write(os.path.join(dst_dir, "namei-api.rst"), "".join(text))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tree", required=True)
    parser.add_argument("--data", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    tree = os.path.abspath(args.tree)
    out = os.path.abspath(args.out)
    try:
        if os.path.isdir(out):
            shutil.rmtree(out)
        os.makedirs(out)
        missing = symwalk_run.missing_results()
        if missing:
            raise GenError(missing)
        link_handwritten(out)
        records = symwalk_run.walk_records()
        tracepoint_page(tree, records, out)
        kernel_pages(tree, out)
    except GenError as e:
        print("docs: {}".format(e), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
