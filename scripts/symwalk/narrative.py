"""What a lab's narrative promises, held to what its expectations check.

The "What you will see" section of labs/NAME/lab.rst quotes output: inline
literals such as ``depth: 1`` or ``namei_unlazy: ... reason=atime`` (a
field and its value; "..." elides a part of the line). Each such quote must
be found, its parts in order, in a line of the run that an expectation of
labs/NAME/expect matched: a narrative cannot promise what nothing checks.
A part is not found inside a longer word or number (``flags=2`` is not in
``flags=2548896``).
Prose ("the depth stays 1") is not read; quote the output to have it held.
"""
import os
import re

from symwalk import expect
from symwalk.layout import LABS

LITERAL = re.compile(r"``(.+?)``", re.S)
# A quote of output: name=value, or "field: value" at its start.
OUTPUT_QUOTE = re.compile(r"\w=\S|^[a-z_]+(?: [a-z_]+)?: \S")
SECTION = re.compile(r"^What you will see\n-+\n(.*?)(?=^\S[^\n]*\n[-=~^]{3,}\n|\Z)", re.M | re.S)


def quotes(rst):
    """The output quotes of the "What you will see" section, whitespace
    folded."""
    m = SECTION.search(rst)
    if not m:
        return []
    found = (re.sub(r"\s+", " ", lit.group(1)) for lit in LITERAL.finditer(m.group(1)))
    return [q for q in found if OUTPUT_QUOTE.search(q)]


def in_line(quote, line):
    """Whether the quote's parts ("..." between them) are in the line, in
    order, none of them the start or the end of a longer word."""
    pos = 0
    for part in (p for p in re.split(r"\s*\.\.\.\s*", quote) if p):
        whole = (r"(?<!\w)" if re.match(r"\w", part) else "") + re.escape(part) + \
            (r"(?!\w)" if re.search(r"\w$", part) else "")
        found = re.compile(whole).search(line, pos)
        if not found:
            return False
        pos = found.end()
    return True


def unbacked(name, gdb_output, console_output, labs=LABS):
    """(quotes, [quote no matched line holds])."""
    with open(os.path.join(labs, name, "lab.rst")) as f:
        said = quotes(f.read())
    results = expect.check_lab_output(expect.read_expectations(name, labs),
                                      gdb_output, console_output)
    lines = [re.sub(r"\s+", " ", line) for _, line in results
             if line and line != "(absent)"]
    return said, [q for q in said if not any(in_line(q, line) for line in lines)]
