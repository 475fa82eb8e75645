# SPDX-License-Identifier: GPL-2.0
"""The results of make check that the site shows, for symwalk's directives.

make check's guest parts leave them in its run folder, build/run, or where
SYMWALK_RUN says (scripts/symwalk/docs_data.py lists them): the traced
walks, each lab's batch run,
the helper examples' gdb session. The site shows them and boots nothing;
when they are missing, the build stops at once with one sentence naming the
command that leaves them.
"""
import functools
import os

from sphinx.errors import ExtensionError

import symwalk_walks
from symwalk import docs_data
from symwalk.labs import lab_names
from symwalk.layout import SITE_RUN, TOP

RUN = os.environ.get("SYMWALK_RUN") or SITE_RUN


def relative(path):
    """A path of the checkout from its top; another one as it is."""
    inside = os.path.abspath(path).startswith(TOP + os.sep)
    return os.path.relpath(path, TOP) if inside else path


def clean_paths(text):
    """Output as a reader's checkout would show it: paths from the top."""
    return text.replace(TOP + "/", "")


def path(env, name):
    """A result of the run, which the page that reads it depends on."""
    found = os.path.join(RUN, name)
    env.note_dependency(found)
    return found


def read(env, name):
    with open(path(env, name), errors="replace") as f:
        return f.read()


def walk_records():
    """The traced walks of docs-walks.sh and of the labs' triggers, by name
    ("lab:NAME" for a lab)."""
    text = ""
    for name in (docs_data.WALKS, docs_data.LAB_WALKS):
        with open(os.path.join(RUN, name), errors="replace") as f:
            text += f.read() + "\n"
    return symwalk_walks.parse(text)


@functools.lru_cache(maxsize=None)
def _records(mtimes):
    return walk_records()


def records(env):
    """walk_records(), read once a process (again if a file changed), for a
    page that depends on them."""
    names = (docs_data.WALKS, docs_data.LAB_WALKS)
    return _records(tuple(os.path.getmtime(path(env, n)) for n in names))


def missing_results():
    """None when every result the site shows is there, else one sentence
    saying which command leaves them."""
    names = [docs_data.WALKS, docs_data.LAB_WALKS, docs_data.GDB_SESSION]
    names += [run for n in lab_names() for run in (docs_data.lab_log(n),
                                                   docs_data.lab_console(n))]
    missing = [n for n in names if not os.path.exists(os.path.join(RUN, n))]
    if not missing:
        return None
    return ("the site shows the guest runs of make check, and {} has {} of them "
            "({}{}): run 'make check' first".format(
                relative(RUN), "none" if len(missing) == len(names) else "not all",
                ", ".join(missing[:3]), ", ..." if len(missing) > 3 else ""))


def check_run(app, config):
    sentence = missing_results()
    if sentence:
        raise ExtensionError(sentence)


def setup(app):
    app.connect("config-inited", check_run)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
