"""The patch series (patches/*.patch, git format-patch output) for the
series walkthrough (symwalk_series.py): the cover
letter and each patch's subject, commit message, diffstat and diff."""
import email
import email.policy
import glob
import os
import re

SUBJECT_PREFIX = re.compile(r"^\[PATCH(?:\s+v\d+)?(?:\s+(\d+)/(\d+))?\]\s*")


class Patch:
    def __init__(self, path):
        self.path = path
        self.file = os.path.basename(path)
        self.stem = os.path.splitext(self.file)[0]
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


def read_series(patches_dir):
    """(the cover letter or None, the patches in order)."""
    cover, patches = None, []
    for path in sorted(glob.glob(os.path.join(patches_dir, "*.patch"))):
        p = Patch(path)
        if p.is_cover:
            cover = p
        else:
            patches.append(p)
    return cover, patches
