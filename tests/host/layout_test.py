#!/usr/bin/env python3
"""The project's shape, read from its files (KTAP):
  - gdb-scripts/symwalk_gdb's modules import one way: no import cycle;
  - no Python file of scripts/ holds a gdb program in a string (gdb
    programs are files of gdb-scripts/ or labs/);
  - no run of six code lines is repeated, in one file or across two, blank
    lines, lines of punctuation or shell keywords, includes and imports
    aside.
--root DIR reads another tree (the test of this test uses one)."""
import argparse
import ast
import collections
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import taplib  # noqa: E402

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
    out = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True,
                         check=True).stdout.split()
    return [f for f in out if CODE.search("/" + f) and not f.startswith("patches/")]


def import_cycles(root):
    """Cycles among symwalk_gdb's modules, each as a list of names."""
    pkg = os.path.join(root, "gdb-scripts", "symwalk_gdb")
    names = {f[:-3] for f in os.listdir(pkg) if f.endswith(".py")}
    graph = {}
    for name in names:
        tree = ast.parse(open(os.path.join(pkg, name + ".py")).read())
        deps = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                if node.level or node.module == "symwalk_gdb":
                    deps |= {a.name for a in node.names}
                elif (node.module or "").startswith("symwalk_gdb."):
                    deps.add(node.module.split(".")[1])
            elif isinstance(node, ast.Import):
                deps |= {a.name.split(".")[1] for a in node.names
                         if a.name.startswith("symwalk_gdb.")}
        graph[name] = deps & names - {name}
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
    cycles = import_cycles(root)
    taplib.check("gdb-scripts/symwalk_gdb imports one way: no import cycle", not cycles,
                 "\n".join(" -> ".join(c) for c in cycles))
    strings = gdb_strings(root, files)
    taplib.check("no Python file of scripts/ holds a gdb program in a string", not strings,
                 "\n".join(strings))
    runs = repeated_runs(root, files)
    taplib.check("no run of {} code lines is repeated ({} files read)".format(RUN, len(files)),
                 not runs, "\n".join(runs[:20]))
    taplib.done()


if __name__ == "__main__":
    main()
