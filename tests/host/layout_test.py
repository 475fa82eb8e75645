#!/usr/bin/env python3
"""The project's shape, read from its files (KTAP):
  - gdb-scripts/symwalk_gdb's modules and scripts/symwalk's import one way:
    no import cycle;
  - the site's Sphinx extensions reach no module of scripts/symwalk that
    drives the guest (they render data, and boot nothing);
  - only the entry points edit sys.path;
  - no Python file of scripts/ holds a gdb program in a string (gdb
    programs are files of gdb-scripts/ or labs/);
  - no run of six code lines is repeated, in one file or across two, blank
    lines, lines of punctuation or shell keywords, includes and imports
    aside.
--root DIR reads another tree (the test of this test uses one)."""
import argparse
import ast
import collections
import glob
import os
import re

import taplib
from symwalk import git

RUN = 6
CODE = re.compile(r"(\.(py|c|h|sh|gdb|mk)|/Makefile|/(setup\.sh|trigger|init|lab-setup|lab-trigger))$")
# Lines that say nothing alone: braces, closing keywords, a bare return...
FILLER = re.compile(r"^([{}()\[\];,:]*|(end|fi|done|esac|else|then|do|break|continue|"
                    r"return( 0| 1| -1| NULL| ret| None| False| True)?;?|try:|else:|"
                    r"finally:|pass|\*/|/\*|\*|#|//|\"\"\"|'''))$")
# Boilerplate: includes and imports, which every file lists its own way.
BOILERPLATE = re.compile(r"^(#include |#define _GNU_SOURCE|import |from \S+ import )")
GDB_LINE = re.compile(r"^\s*(break|tbreak|continue|finish|python|source|define|"
                      r"set (breakpoint|pagination|confirm)|target remote)\b", re.M)


def tracked(root):
    out = git.run(root, "ls-files").split()
    return [f for f in out if CODE.search("/" + f) and not f.startswith("patches/")]


# The packages whose modules must import one way: {folder: package name}.
PACKAGES = {os.path.join("gdb-scripts", "symwalk_gdb"): "symwalk_gdb",
            os.path.join("scripts", "symwalk"): "symwalk"}
# What the site's Sphinx extensions must never reach: they render data and
# boot nothing.
DRIVERS = {"qemu", "gdbsession", "batch", "tmux", "tmux_driver"}
# The only files that may edit sys.path: gdb's entry points, Sphinx's
# configuration, taplib (the kernel's ksft.py from the build tree).
PATH_EDITORS = {"gdb-scripts/symwalk.py", "gdb-scripts/session.py", "Documentation/conf.py",
                "tests/host/taplib.py"}
SYS_PATH_EDIT = re.compile(r"sys\.path\.(insert|append)|sys\.path\s*=")


def imports_of(path, package, names):
    """The modules of package (of names) the file at path imports."""
    deps = set()
    for node in ast.walk(ast.parse(open(path).read())):
        if isinstance(node, ast.ImportFrom):
            if node.level or node.module == package:
                deps |= {a.name for a in node.names}
            elif (node.module or "").startswith(package + "."):
                deps.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            deps |= {a.name.split(".")[1] for a in node.names
                     if a.name.startswith(package + ".")}
    return deps & names


def module_graph(root, folder, package):
    """{module: the modules of the package it imports}."""
    pkg = os.path.join(root, folder)
    names = {f[:-3] for f in os.listdir(pkg) if f.endswith(".py") and f != "__init__.py"}
    return {name: imports_of(os.path.join(pkg, name + ".py"), package, names) - {name}
            for name in names}


def import_cycles(graph):
    """Cycles among a package's modules, each as a list of names."""
    cycles, state = [], {}

    def visit(n, path):
        state[n] = "open"
        for d in sorted(graph[n]):
            if state.get(d) == "open":
                cycles.append(path[path.index(d):] + [d])
            elif d not in state:
                visit(d, path + [d])
        state[n] = "done"

    for n in sorted(graph):
        if n not in state:
            visit(n, [n])
    return cycles


def reached(graph, start):
    """The modules start imports, and those they import, and so on."""
    seen, todo = set(), list(start)
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo += graph.get(name, ())
    return seen


def drivers_of_extensions(root):
    """(extension, the driver modules of symwalk it reaches), for each
    Sphinx extension of Documentation/sphinx that reaches one."""
    graph = module_graph(root, os.path.join("scripts", "symwalk"), "symwalk")
    found = []
    for path in sorted(glob.glob(os.path.join(root, "Documentation", "sphinx", "symwalk_*.py"))):
        bad = reached(graph, imports_of(path, "symwalk", set(graph))) & DRIVERS
        if bad:
            found.append("{} reaches {}".format(os.path.relpath(path, root), ", ".join(sorted(bad))))
    return found


def path_edits(root, files):
    """(file:line) of each sys.path edit outside PATH_EDITORS."""
    found = []
    for f in files:
        if f in PATH_EDITORS or not f.endswith((".py", ".sh")):
            continue
        for number, line in enumerate(open(os.path.join(root, f), errors="replace"), 1):
            if SYS_PATH_EDIT.search(line):
                found.append("{}:{}".format(f, number))
    return found


def gdb_strings(root, files):
    """(file, line) of each string constant of scripts/*.py that holds two
    or more gdb command lines."""
    found = []
    for f in files:
        if not (f.startswith("scripts/") and f.endswith(".py")):
            continue
        for node in ast.walk(ast.parse(open(os.path.join(root, f)).read())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                    len(GDB_LINE.findall(node.value)) >= 2:
                found.append("{}:{}".format(f, node.lineno))
    return found


def repeated_runs(root, files):
    """Each run of RUN meaningful lines seen at two places or more."""
    places = collections.defaultdict(list)
    for f in files:
        try:
            lines = open(os.path.join(root, f)).read().splitlines()
        except UnicodeDecodeError:
            continue
        kept = [(i + 1, " ".join(l.split())) for i, l in enumerate(lines)
                if not FILLER.match(l.strip()) and not BOILERPLATE.match(l.strip())]
        for k in range(len(kept) - RUN + 1):
            window = tuple(text for _, text in kept[k:k + RUN])
            places[window].append("{}:{}".format(f, kept[k][0]))
    runs = []
    for window, where in places.items():
        if len(where) > 1:
            runs.append("{} (first line: {})".format(" = ".join(where), window[0][:60]))
    return sorted(runs)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))))
    root = parser.parse_args().root
    files = tracked(root)
    for folder, package in sorted(PACKAGES.items()):
        cycles = import_cycles(module_graph(root, folder, package))
        taplib.check("{} imports one way: no import cycle".format(folder), not cycles,
                     "\n".join(" -> ".join(c) for c in cycles))
    drivers = drivers_of_extensions(root)
    taplib.check("the site's extensions reach none of the guest's drivers ({})".format(
        ", ".join(sorted(DRIVERS))), not drivers, "\n".join(drivers))
    edits = path_edits(root, files)
    taplib.check("sys.path is edited only by {}".format(", ".join(sorted(PATH_EDITORS))),
                 not edits, "\n".join(edits))
    strings = gdb_strings(root, files)
    taplib.check("no Python file of scripts/ holds a gdb program in a string", not strings,
                 "\n".join(strings))
    runs = repeated_runs(root, files)
    taplib.check("no run of {} code lines is repeated ({} files read)".format(RUN, len(files)),
                 not runs, "\n".join(runs[:20]))
    taplib.done()


if __name__ == "__main__":
    main()
