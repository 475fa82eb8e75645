"""The patch series (patches/*.patch, git format-patch output) for the
series walkthrough (symwalk_series.py): the cover
letter and each patch's subject, commit message, diffstat and diff; the
earlier versions of the series that git history of patches/ holds, and
each patch's counterpart in them."""
import difflib
import email
import email.policy
import functools
import glob
import os
import re

from symwalk import git

SUBJECT_PREFIX = re.compile(r"^\[PATCH(?:\s+v\d+)?(?:\s+(\d+)/(\d+))?\]\s*")


VERSION = re.compile(r"^\[PATCH\s+v(\d+)")


class Patch:
    def __init__(self, path, raw=None):
        """The patch in file path, or in raw (its text at an earlier commit)."""
        self.path = path
        self.file = os.path.basename(path)
        self.stem = os.path.splitext(self.file)[0]
        if raw is None:
            with open(path, errors="replace") as f:
                raw = f.read()
        msg = email.message_from_string(raw, policy=email.policy.default)
        subject = re.sub(r"\s+", " ", str(msg["Subject"] or self.stem)).strip()
        m = SUBJECT_PREFIX.match(subject)
        self.number = int(m.group(1)) if m and m.group(1) else 0
        self.total = int(m.group(2)) if m and m.group(2) else 0
        self.prefix = m.group(0).strip() if m else ""
        self.subject = subject[m.end():] if m else subject
        self.author = str(msg["From"] or "")
        body = msg.get_payload()
        if isinstance(body, list):
            body = "".join(part.get_payload() for part in body)
        # Message, then "---", the diffstat, and the diff; "-- " signs off.
        message, sep, rest = body.partition("\n---\n")
        if not sep and body.startswith("---\n"):
            message, rest = "", body[4:]
        self.message = message.strip("\n")
        diff_start = rest.find("diff --git ")
        self.diffstat = (rest[:diff_start] if diff_start >= 0 else rest).strip("\n")
        diff = rest[diff_start:] if diff_start >= 0 else ""
        sig = re.search(r"^-- \n", diff, re.M)
        self.diff = diff[:sig.start()] if sig else diff
        self.is_cover = self.stem.startswith("0000-") or "*** SUBJECT HERE ***" in raw
        m = VERSION.match(self.prefix)
        self.version = int(m.group(1)) if m else 1

    def files(self):
        """(path, the file's diff, lines added, lines removed) per file."""
        out = []
        chunks = re.split(r"^(?=diff --git )", self.diff, flags=re.M)
        for chunk in chunks:
            m = re.match(r"diff --git a/(\S+) b/(\S+)", chunk)
            if not m:
                continue
            added = removed = 0
            for line in chunk.split("\n"):
                if line.startswith("+") and not line.startswith("+++"):
                    added += 1
                elif line.startswith("-") and not line.startswith("---"):
                    removed += 1
            out.append((m.group(2), chunk.rstrip("\n") + "\n", added, removed))
        return out

    def message_signoffs(self):
        """The message without its trailers, and the trailers."""
        lines = self.message.split("\n")
        trailers = []
        while lines and re.match(r"^[A-Z][\w-]+: .+", lines[-1]):
            trailers.insert(0, lines.pop())
        while lines and not lines[-1].strip():
            lines.pop()
        return "\n".join(lines), trailers


def split_series(all_patches):
    """(the cover letter or None, the patches in order)."""
    cover, patches = None, []
    for p in sorted(all_patches, key=lambda p: p.file):
        if p.is_cover:
            cover = p
        else:
            patches.append(p)
    return cover, patches


def read_series(patches_dir):
    """(the cover letter or None, the patches in order)."""
    return split_series(Patch(path) for path in glob.glob(os.path.join(patches_dir, "*.patch")))


class Version:
    """An earlier version of the series: the last commit whose patches/
    holds it."""

    def __init__(self, number, commit, date, cover, patches):
        self.number, self.commit, self.date = number, commit, date
        self.cover, self.patches = cover, patches


@functools.lru_cache(maxsize=None)
def earlier_versions(patches_dir, current):
    """The versions of the series before version current that the git
    history of patches_dir holds, oldest first; none outside a git
    checkout. A commit's version is its cover letter's [PATCH vN]."""
    top = os.path.dirname(patches_dir)
    name = os.path.basename(patches_dir)
    found = {}
    for line in git.quiet(top, "log", "--format=%H %cs", "--", name).splitlines():
        commit, date = line.split()
        files = git.quiet(top, "ls-tree", "--name-only", commit, name + "/").split()
        patches = [Patch(path, git.quiet(top, "show", "{}:{}".format(commit, path)))
                   for path in files if path.endswith(".patch")]
        cover, numbered = split_series(patches)
        number = (cover or (numbered or [None])[0]).version if (cover or numbered) else None
        if number is None or number >= current or number in found:
            continue
        found[number] = Version(number, commit, date, cover, numbered)
    return [found[n] for n in sorted(found)]


def changed_lines(patch):
    return {line for _, diff, _, _ in patch.files() for line in diff.split("\n")
            if line[:1] in "+-" and line[:3] not in ("+++", "---")}


def counterparts(patches, earlier):
    """{patch: its counterpart among earlier}: the patch of the same
    subject, else the one that changes most of the same lines (as git
    range-diff pairs them by their diffs)."""
    pairs = {}
    for p in patches:
        same = [e for e in earlier if e.subject.lower() == p.subject.lower()]
        if same:
            pairs[p] = same[0]
    scores = []
    unpaired = [e for e in earlier if e not in pairs.values()]
    lines = {x: changed_lines(x) for x in unpaired + [p for p in patches if p not in pairs]}
    for p in patches:
        for e in unpaired:
            a, b = lines.get(p), lines[e]
            if a and b:
                scores.append((len(a & b) / len(a | b), p.file, e.file, p, e))
    for score, _, _, p, e in sorted(scores, key=lambda s: s[:3], reverse=True):
        if score >= 0.2 and p not in pairs and e not in pairs.values():
            pairs[p] = e
    return pairs


def comparable(patch):
    """A patch's message and diff as git range-diff compares them: without
    the index lines and the line numbers of the hunks."""
    diff = re.sub(r"^index [0-9a-f]+\.\.[0-9a-f]+.*\n", "", patch.diff, flags=re.M)
    diff = re.sub(r"^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@", "@@", diff, flags=re.M)
    return (patch.subject + "\n\n" + patch.message + "\n\n" + diff).split("\n")


def range_diff(old, new, old_label, new_label):
    """The unified diff of two versions of one patch (a diff of diffs)."""
    return "\n".join(difflib.unified_diff(comparable(old), comparable(new), old_label,
                                           new_label, n=2, lineterm=""))
