"""The labs: which there are (a folder of labs/ with a setup.sh), their
titles, and the lab a name or a unique prefix stands for."""
import os
import re

from symwalk.layout import LABS


class LabError(Exception):
    """A lab that cannot be named or read, in one sentence."""


def lab_names(labs=LABS):
    if not os.path.isdir(labs):
        return []
    return sorted(d for d in os.listdir(labs)
                  if os.path.isfile(os.path.join(labs, d, "setup.sh")))


def lab_title(name):
    """The lab's one-line summary: the title of its narrative."""
    try:
        with open(os.path.join(LABS, name, "lab.rst")) as f:
            for line in f:
                if line.strip() and not re.match(r"^[=\-~^*#]+$", line.strip()) \
                        and not line.startswith(".."):
                    return line.strip()
    except OSError:
        pass
    return "(no lab.rst)"


def resolve_lab(name, labs=LABS):
    """The lab a name stands for: its full name, or a prefix of one only."""
    names = lab_names(labs)
    if not name:
        return names[0]
    if name in names:
        return name
    matches = [n for n in names if n.startswith(name)]
    if len(matches) == 1:
        return matches[0]
    listing = "\n".join("  {:<16} {}".format(n, lab_title(n)) for n in matches or names)
    if matches:
        raise LabError("'{}' could be any of these labs; say which:\n{}".format(
            name, listing))
    raise LabError("there is no lab named '{}'; the labs are:\n{}".format(name, listing))
