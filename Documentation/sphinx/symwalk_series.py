# SPDX-License-Identifier: GPL-2.0
"""symwalk-series: the patch series, for review.

.. symwalk-series::

renders a table of the patches of patches/ (symwalk_patches.py reads them),
the cover letter, then a section per patch: its commit message, what a
reviewer should check (Documentation/review.yaml: by subject, by the files
it touches, for every patch), its diffstat and its diff file by file. The
quoted message and diff are marked so that the function check of
tests/docs/ leaves out the names a patch removes.
"""
import fnmatch
import os
import re

import yaml
from docutils.parsers.rst import Directive

import symwalk_patches
from symwalk_rst import code, esc, heading, parse

DOC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PATCHES = os.path.join(os.path.dirname(DOC), "patches")
REVIEW = os.path.join(DOC, "review.yaml")


def review_items(patch, config):
    items = []
    for key, checks in (config.get("subjects") or {}).items():
        if key.lower() == patch.subject.lower():
            items += checks
    paths = [p for p, _, _, _ in patch.files()]
    for pattern, checks in (config.get("files") or {}).items():
        if any(fnmatch.fnmatch(p, pattern) for p in paths):
            items += checks
    return items + (config.get("every patch") or [])


def patch_lines(p, config):
    message, trailers = p.message_signoffs()
    label = "{}/{}".format(p.number, p.total) if p.total else p.stem[:4]
    lines = [".. _patch-{}:".format(p.stem[:4]), ""]
    lines += heading("{} {}".format(label, p.subject), "-")
    lines += [":Patch: ``patches/{}``".format(p.file)]
    if trailers:
        lines += [":Trailers: " + "; ".join(esc(t) for t in trailers)]
    lines += [""] + heading("Purpose", "~") + code(message, quoted=True)
    lines += heading("What to check", "~")
    lines += ["- " + item.strip() for item in review_items(p, config)] + [""]
    lines += heading("The diff", "~")
    if p.diffstat:
        lines += code(p.diffstat)
    for path, diff, added, removed in p.files():
        lines += heading("{} (+{} -{})".format(path, added, removed), "^")
        lines += code(diff, "diff", quoted=True)
    return lines


class Series(Directive):
    def run(self):
        env = self.state.document.settings.env
        cover, patches = symwalk_patches.read_series(PATCHES)
        if not patches:
            raise self.error("patches/ holds no patch")
        for p in patches + ([cover] if cover else []):
            env.note_dependency(p.path)
        env.note_dependency(REVIEW)
        with open(REVIEW) as f:
            config = yaml.safe_load(f) or {}
        lines = [".. list-table::", "   :header-rows: 1", "   :widths: 8 62 30", "",
                 "   * - #", "     - subject", "     - files"]
        for p in patches:
            files = p.files()
            lines += ["   * - {}".format(p.number or ""),
                      "     - :ref:`{} <patch-{}>`".format(esc(p.subject), p.stem[:4]),
                      "     - {} file{}, +{} -{}".format(
                          len(files), "" if len(files) == 1 else "s",
                          sum(a for _, _, a, _ in files), sum(r for _, _, _, r in files))]
        lines.append("")
        if cover:
            lines += heading("The cover letter", "-")
            lines += ["``patches/{}``, subject *{}*:".format(cover.file, esc(cover.subject)), ""]
            lines += code(re.split(r"\n-- \n", cover.message)[0].rstrip(), quoted=True)
        for p in patches:
            lines += patch_lines(p, config)
        return parse(self, lines, "patches")


def setup(app):
    app.add_directive("symwalk-series", Series)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
