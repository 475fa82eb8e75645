# SPDX-License-Identifier: GPL-2.0
"""symwalk-series and symwalk-patch: the patch series, for review, a page
per patch.

.. symwalk-series::

renders, on the series' index, a table of the patches of patches/
(symwalk_patches.py reads them) with a line and a link each, the results
of the whole series' checks of the last make series-check, the earlier
versions of the series that git history holds, and the cover letter.

.. symwalk-patch:: FILE

renders the page of patches/FILE: links to the patches before and after
it, its commit message and trailers (as text: no mailto: link to a
placeholder identity), what a reviewer should check
(Documentation/review.yaml: by subject, by the files it touches, for
every patch), its results of the last make series-check (build/series-check,
read as it is: make docs builds nothing), what changed since each earlier
version (a diff of its diffs, as git range-diff shows) and its diff file
by file. The quoted message and diffs are marked so that the function
check of tests/docs/ leaves out the names a patch removes.

Sphinx reads pages from files: as sphinx.ext.autosummary writes its stubs,
builder-inited writes a one-line page per patch into series/patch/
(generated, ignored by git) and removes the pages of patches that are gone.
"""
import fnmatch
import os
import re

import yaml
from docutils.parsers.rst import Directive

import symwalk_patches
from symwalk.layout import SERIES_CHECK
from symwalk.series_results import COMMAND, Results
from symwalk_rst import code, esc, heading, literal, parse

DOC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PATCHES = os.path.join(os.path.dirname(DOC), "patches")
REVIEW = os.path.join(DOC, "review.yaml")
PAGES = os.path.join(DOC, "series", "patch")
# A sign-off to no deliverable address: symwalk's own, until a human sends
# the series with theirs.
PLACEHOLDER = re.compile(r"^Signed-off-by: (.*<[^>]*@localhost>)$")


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


def label(p):
    return "{}/{}".format(p.number, p.total) if p.total else p.stem[:4]


def patch_link(p):
    return ":doc:`{} {} </series/patch/{}>`".format(label(p), esc(p.subject), p.stem)


def history(patch, patches, versions):
    """[(version, its patch)] of patch's counterparts, newest first, up to
    the first version without one."""
    chain, current = [], patch
    pool = patches
    for version in reversed(versions):
        earlier = symwalk_patches.counterparts(pool, version.patches).get(current)
        if earlier is None:
            break
        chain.append((version, earlier))
        current, pool = earlier, version.patches
    return chain


NO_RESULTS = ["No results of ``{0}`` in ``build/series-check``: ``{0}`` makes them "
              "(a kernel build per patch).".format(COMMAND), ""]


def check_lines(checks):
    """A list item per check, (ok, what, diagnostic lines) each."""
    lines = []
    for ok, what, diagnostics in checks:
        lines += ["- {} {}".format("passed:" if ok else "**failed**:", esc(what))]
        if diagnostics:
            lines += [""] + ["  " + line for line in code("\n".join(diagnostics))]
    return lines + [""]


def result_lines(results, p):
    """The page's lines for p's results of the last make series-check."""
    if not results.found:
        return NO_RESULTS
    checks, current = results.of(p.path)
    if not checks:
        return ["The last ``{}`` stopped before this patch (see the patches before it)."
                .format(COMMAND), ""]
    lines = []
    if not current:
        lines += ["These results are of an earlier ``patches/{}``: ``{}`` checks it as it "
                  "is now.".format(p.file, COMMAND), ""]
    return lines + check_lines(checks)


def neighbours(p, patches):
    """A line of links: the patch before p (or the series), the series, the
    patch after p."""
    i = patches.index(p)
    before = ("previous: " + patch_link(patches[i - 1])) if i else ""
    after = ("next: " + patch_link(patches[i + 1])) if i + 1 < len(patches) else ""
    return [" | ".join(part for part in (before, ":doc:`the series </series/index>`", after)
                       if part), ""]


class Series(Directive):
    def run(self):
        env = self.state.document.settings.env
        cover, patches = symwalk_patches.read_series(PATCHES)
        if not patches:
            raise self.error("patches/ holds no patch")
        for p in patches + ([cover] if cover else []):
            env.note_dependency(p.path)
        results = Results(SERIES_CHECK)
        if results.found:
            env.note_dependency(results.ktap_path)
        versions = symwalk_patches.earlier_versions(PATCHES, (cover or patches[0]).version)

        signers = sorted({m.group(1) for p in patches for t in p.message_signoffs()[1]
                          for m in [PLACEHOLDER.match(t)] if m})
        lines = []
        if signers:
            lines += ["The patches are signed off by {}, a placeholder identity: whoever sends "
                      "the series signs it off with their own name and address.".format(
                          ", ".join(literal(s) for s in signers)), ""]
        lines += [".. list-table::", "   :header-rows: 1", "   :widths: 6 50 20 24", "",
                  "   * - #", "     - patch (a page each)", "     - files",
                  "     - ``{}``".format(COMMAND)]
        for p in patches:
            files = p.files()
            checks, current = results.of(p.path) if results.found else ([], False)
            passed = sum(ok for ok, _, _ in checks)
            lines += ["   * - {}".format(p.number or p.stem[:4]),
                      "     - " + patch_link(p),
                      "     - {} file{}, +{} -{}".format(
                          len(files), "" if len(files) == 1 else "s",
                          sum(a for _, _, a, _ in files), sum(r for _, _, _, r in files)),
                      "     - " + ("{} of {} passed{}".format(
                          passed, len(checks), "" if current else " (an earlier version)")
                          if checks else "not run")]
        lines.append("")
        lines += self.results(results)
        lines += self.versions(versions, cover)
        if cover:
            lines += heading("The cover letter", "-")
            lines += ["``patches/{}``, subject *{}*:".format(cover.file, esc(cover.subject)), ""]
            lines += code(re.split(r"\n-- \n", cover.message)[0].rstrip(), quoted=True)
        lines += [".. toctree::", "   :hidden:", ""]
        lines += ["   patch/" + p.stem for p in patches] + [""]
        return parse(self, lines, "patches")

    @staticmethod
    def results(results):
        lines = heading("The last make series-check", "-")
        if not results.found:
            return lines + NO_RESULTS
        lines += ["``{}`` applies each patch to the pristine tree with ``git am``, builds "
                  "the kernel, runs ``checkpatch.pl --strict`` and counts the kernel-doc "
                  "warnings of the C files it touches; each patch's page shows its results.{}"
                  .format(COMMAND, "" if results.finished else
                          " This run did not finish: its results stop early."), ""]
        return lines + check_lines(results.series)

    @staticmethod
    def versions(versions, cover):
        lines = heading("Earlier versions", "-")
        if not versions:
            return lines + ["The git history of ``patches/`` holds no earlier version of the "
                            "series.", ""]
        lines += ["Each patch's page shows what changed since its counterpart in each "
                  "earlier version (a diff of the two patches, as ``git range-diff`` shows "
                  "it). The git history of ``patches/`` holds:", ""]
        for v in versions:
            lines += ["- v{}: {} patches, ``git show {}:patches/`` ({})".format(
                v.number, len(v.patches), v.commit[:12], v.date)]
        if cover:
            lines += ["- v{}: {} patches, ``patches/`` as it is now".format(
                cover.version, cover.total or "")]
        return lines + [""]


class PatchPage(Directive):
    required_arguments = 1

    def run(self):
        env = self.state.document.settings.env
        cover, patches = symwalk_patches.read_series(PATCHES)
        p = next((q for q in patches if q.file == self.arguments[0]), None)
        if p is None:
            raise self.error("patches/ holds no {}".format(self.arguments[0]))
        env.note_dependency(p.path)
        env.note_dependency(REVIEW)
        results = Results(SERIES_CHECK)
        if results.found:
            env.note_dependency(results.ktap_path)
        with open(REVIEW) as f:
            config = yaml.safe_load(f) or {}
        versions = symwalk_patches.earlier_versions(PATCHES, (cover or p).version)

        message, trailers = p.message_signoffs()
        lines = heading("{} {}".format(label(p), p.subject), "=")
        lines += neighbours(p, patches)
        lines += [":Patch: ``patches/{}``".format(p.file)]
        if trailers:
            lines += [":Trailers: " + "; ".join(literal(t) for t in trailers)]
        lines += [""] + heading("Purpose", "-") + code(message, quoted=True)
        lines += heading("What to check", "-")
        lines += ["- " + item.strip() for item in review_items(p, config)] + [""]
        lines += heading("make series-check", "-") + result_lines(results, p)
        lines += heading("Since earlier versions", "-") + self.since(p, patches, versions)
        lines += heading("The diff", "-")
        if p.diffstat:
            lines += code(p.diffstat)
        for path, diff, added, removed in p.files():
            lines += heading("{} (+{} -{})".format(path, added, removed), "~")
            lines += code(diff, "diff", quoted=True)
        lines += neighbours(p, patches)
        return parse(self, lines, p.file)

    @staticmethod
    def since(p, patches, versions):
        """What changed since each earlier version, newest first: each
        range-diff folded (a reviewer of this version opens them)."""
        chain = history(p, patches, versions)
        if not chain:
            return ["This patch is new in v{}.".format(p.version), ""]
        lines, newer_label, newer = [], "v{}".format(p.version), p
        for version, earlier in chain:
            where = "``{}`` at commit ``{}`` ({})".format(
                earlier.file, version.commit[:12], version.date)
            diff = symwalk_patches.range_diff(
                earlier, newer, "v{} {}".format(version.number, earlier.file),
                "{} {}".format(newer_label, newer.file))
            if not diff:
                lines += ["Unchanged from v{}, {}.".format(version.number, where), ""]
            else:
                lines += [".. raw:: html", "",
                          "   <details class=\"symwalk-since\"><summary>v{} to {}: {} "
                          "lines of range-diff</summary>".format(
                              version.number, newer_label, diff.count("\n") + 1), ""]
                lines += ["From v{}, {}:".format(version.number, where), ""]
                lines += code(diff, "diff", quoted=True)
                lines += [".. raw:: html", "", "   </details>", ""]
            newer_label, newer = "v{}".format(version.number), earlier
        if len(chain) < len(versions):
            lines += ["No counterpart in v{}: the patch is new in {}.".format(
                versions[-len(chain) - 1].number, newer_label), ""]
        return lines


def write_patch_pages(app):
    """A page per patch of patches/ in series/patch/, and none for a patch
    that is gone; a page is rewritten only when it changes."""
    _, patches = symwalk_patches.read_series(PATCHES)
    os.makedirs(PAGES, exist_ok=True)
    pages = {p.stem + ".rst": ".. Written by symwalk_series.py from patches/{0}.\n\n"
             ".. symwalk-patch:: {0}\n".format(p.file) for p in patches}
    for name in os.listdir(PAGES):
        if name not in pages:
            os.remove(os.path.join(PAGES, name))
    for name, text in pages.items():
        path = os.path.join(PAGES, name)
        if not os.path.exists(path) or open(path).read() != text:
            with open(path, "w") as f:
                f.write(text)


def setup(app):
    app.add_directive("symwalk-series", Series)
    app.add_directive("symwalk-patch", PatchPage)
    app.connect("builder-inited", write_patch_pages)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
