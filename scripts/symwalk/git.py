"""git, run one way: in a repository or checkout (git -C), its output as
text. What a caller does when git fails is its own: run() and grep()
raise GitError, with what git said; quiet() gives "" instead.
"""
import subprocess


class GitError(Exception):
    pass


def _git(repo, args, env=None):
    return subprocess.run(["git", "-C", repo] + list(args), env=env, text=True,
                          errors="replace", stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def run(repo, *args, env=None):
    """git's output; GitError if it fails."""
    proc = _git(repo, args, env)
    if proc.returncode:
        raise GitError("git {} failed in {}:\n{}".format(
            " ".join(args), repo, (proc.stderr or proc.stdout).strip()))
    return proc.stdout


def quiet(repo, *args):
    """git's output, stripped, or "" if it fails."""
    proc = _git(repo, args)
    return "" if proc.returncode else proc.stdout.strip()


def ok(repo, *args):
    """Whether git succeeds."""
    return _git(repo, args).returncode == 0


def grep(repo, *args):
    """The lines git grep prints: none where nothing matches; GitError if it
    fails."""
    proc = _git(repo, ("grep",) + args)
    if proc.returncode not in (0, 1):
        raise GitError("git grep failed in {}:\n{}".format(repo, proc.stderr.strip()))
    return proc.stdout.splitlines()


def head(repo):
    """The commit repo is at, or "" if it has none."""
    return quiet(repo, "rev-parse", "HEAD")
