"""What the last make series-check found (scripts/series-check.sh writes
results.ktap and patches.sha256 into its folder): each patch's results,
whether they belong to the patch file as it is now, and the checks of the
whole series."""
import hashlib
import os

from symwalk import ktap

COMMAND = "make series-check"


class Results:
    """The results of one make series-check, or none (self.found False)."""

    def __init__(self, folder):
        self.ktap_path = os.path.join(folder, "results.ktap")
        self.sums_path = os.path.join(folder, "patches.sha256")
        self.found = os.path.isfile(self.ktap_path) and os.path.isfile(self.sums_path)
        self.by_patch, self.series, self.sums = {}, [], {}
        self.finished = False
        if not self.found:
            return
        with open(self.ktap_path, errors="replace") as f:
            text = f.read()
        with open(self.sums_path) as f:
            for line in f:
                digest, _, name = line.strip().partition("  ")
                self.sums[name] = digest
        self.finished = "# Totals:" in text and "Bail out!" not in text
        for name, ok, _, comments in ktap.parse_tap(text):
            patch, _, what = name.partition(" ")
            # A result's diagnostics: the "# " lines after a failure.
            diagnostics = [] if ok else [c[2:] if c.startswith("# ") else c[1:] for c in comments]
            check = (ok, what if patch.endswith(".patch") else name, diagnostics)
            if patch.endswith(".patch"):
                self.by_patch.setdefault(patch, []).append(check)
            else:
                self.series.append(check)

    def of(self, path):
        """(checks of the patch file at path: (ok, what, diagnostic lines)
        each, whether they were made on the file as it is now)."""
        name = os.path.basename(path)
        with open(path, "rb") as f:
            current = hashlib.sha256(f.read()).hexdigest() == self.sums.get(name)
        return self.by_patch.get(name, []), current
