#!/usr/bin/env python3
"""The errors that fs/namei.c's kernel-doc names are errors the functions return.

usage: kerneldoc_errors_test.py [--all] [--depth N] [TREE | FILE]

TREE is a kernel tree (fs/namei.c is read from it) or FILE the C file
itself; the default is build/linux of the symwalk repository this script
sits in (tests/host/).  For each kernel-doc comment of the walk's functions
(WALK below; --all: of every function in the file) it checks:

 - "sections" (walk functions only): the comment has a Context: section,
   and a Return: section unless the function returns void, in which case
   it must have none ("Return: nothing." is noise that kernel-doc does not
   want);
 - one test per error code -EXXX named in the Context: or Return: section:
   the function can return it.  It can if its body has
   "return -EXXX", "ERR_PTR(-EXXX)", an assignment "x = -EXXX" (an
   initializer too) or a conditional arm "? -EXXX" / ": -EXXX"; or if a
   function it calls, defined in the same file, can, followed transitively
   up to --depth calls deep (default 8); or if ALLOWED lists the error for
   the function, or for one it reaches that way, with the one-line reason
   why it comes from outside the file.

Output is KTAP (taplib.py): "ok N function: -EXXX (how)" or "not ok N
function: -EXXX", with "# " lines saying why.  The exit status is 1 if a
test failed (a walk function with no kernel-doc comment at all is one), 2
if the file cannot be read.

What it cannot see, so that "ok" means "can be returned as far as this
reading of the text goes", not "is returned":

 - paths: it does not follow control flow.  An error that a callee returns
   counts even if the caller never lets it through on the path that calls
   it (e.g. it swallows or translates it), and an "x = -EXXX" counts even
   if x is overwritten before it is returned;
 - calls through function pointers (->d_revalidate(), ->get_link(),
   ->permission(), ->d_automount(), security hooks...), calls into other
   files (d_alloc_parallel(), posix_acl_permission(), __legitimize_mnt(),
   finish_automount(), ...) and macros: those errors need an ALLOWED
   entry;
 - errors built at run time: PTR_ERR() of a pointer from elsewhere, an
   errno passed in as an argument (link_path_walk()'s @name), a variable
   set from such a value, arithmetic on error codes;
 - the preprocessor: every #ifdef branch counts, as if all were built;
 - names: it finds definitions by the kernel's layout (the name before the
   first "(" of a signature whose body opens with "{" in column 0); two
   definitions of one name (#ifdef variants) are merged;
 - prose: an error named in Context: or Return: to say that the function
   does NOT return it (or that a caller does) is taken as a claim that it
   does, and fails: write such sentences in the description instead.
"""
import os
import re
import sys

import taplib

# The functions of the walk whose kernel-doc the series writes.
WALK = """
set_nameidata restore_nameidata nd_alloc_stack drop_links leave_rcu
terminate_walk __legitimize_path legitimize_path legitimize_links
legitimize_root try_to_unlazy try_to_unlazy_next complete_walk set_root
nd_jump_root nd_jump_link put_link may_follow_link choose_mountpoint_rcu
choose_mountpoint follow_automount __traverse_mounts traverse_mounts
__follow_mount_rcu handle_mounts lookup_fast __lookup_slow lookup_slow
may_lookup reserve_stack pick_link step_into follow_dotdot_rcu
follow_dotdot handle_dots walk_component link_path_walk path_init
lookup_last handle_lookup_down path_lookupat filename_lookup path_parentat
__filename_parentat lookup_fast_for_open open_last_lookups path_openat
do_filp_open
""".split()

# (function, error): why the function gets the error from outside the file.
ALLOWED = {
    ("__lookup_slow", "ENOMEM"):
        "d_alloc_parallel() (fs/dcache.c) fails with -ENOMEM",
    ("check_acl", "EACCES"):
        "posix_acl_permission() (fs/posix_acl.c) denies with -EACCES",
    ("check_acl", "EIO"):
        "posix_acl_permission() (fs/posix_acl.c) returns -EIO for a malformed ACL",
    ("vfs_unlink", "EWOULDBLOCK"):
        "try_break_deleg() (include/linux/filelock.h) returns -EWOULDBLOCK",
    ("vfs_link", "EWOULDBLOCK"):
        "try_break_deleg() (include/linux/filelock.h) returns -EWOULDBLOCK",
    ("vfs_rename", "EWOULDBLOCK"):
        "try_break_deleg() (include/linux/filelock.h) returns -EWOULDBLOCK",
}

SECTION = re.compile(r"^\s*(description|context|returns?|notes?|examples?)\s*:\s?(.*)$",
                     re.IGNORECASE)
ERRNO = re.compile(r"(?<![\w-])-(E[A-Z][A-Z0-9]*)\b")
CALL = re.compile(r"(?<![\w.>])([A-Za-z_]\w*)\s*\(")


def blank_comments_and_strings(text):
    """Replace comments, string and character literals by spaces, keeping lines."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + re.sub(r"[^\n]", " ", text[i + 1:j - 1]) + c)
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def functions(text):
    """name -> {"sig": signature, "body": body} for each definition in text."""
    lines = blank_comments_and_strings(text).split("\n")
    found = {}
    i = 0
    while i < len(lines):
        if lines[i].rstrip() != "{":
            i += 1
            continue
        start = i - 1
        while start > 0:
            prev = lines[start - 1].rstrip()
            if not prev or prev.endswith((";", "}")) or prev.startswith("#"):
                break
            start -= 1
        sig = " ".join(l.strip() for l in lines[start:i])
        end = i + 1
        while end < len(lines) and lines[end].rstrip() != "}":
            end += 1
        m = re.search(r"([A-Za-z_]\w*)\s*\(", sig)
        if m:
            name = m.group(1)
            body = "\n".join(lines[i:end + 1])
            if name in found:
                found[name]["body"] += "\n" + body
            else:
                found[name] = {"sig": sig[:m.end()], "body": body}
        i = end + 1
    return found


def kerneldoc(text):
    """[(name, {section: text})] for each kernel-doc comment of a function."""
    docs = []
    for m in re.finditer(r"/\*\*\s*\n(.*?)\*/", text, re.S):
        lines = [re.sub(r"^\s*\*\s?", "", l) for l in m.group(1).split("\n")]
        head = re.match(r"\s*(?:(define|struct|union|enum|typedef)\s+)?([A-Za-z_]\w*)(?:\(\))?\s*[-:]",
                        lines[0])
        if not head or head.group(1):
            continue
        sections, cur = {}, None
        for line in lines[1:]:
            s = SECTION.match(line)
            if s:
                cur = s.group(1).lower()
                cur = "return" if cur.startswith("return") else cur
                sections[cur] = sections.get(cur, "") + s.group(2) + "\n"
            elif re.match(r"@[\w.]+\s*:", line):
                cur = None
            elif cur:
                sections[cur] += line + "\n"
        docs.append((head.group(2), sections))
    return docs


def direct(body, err):
    e = re.escape(err)
    patterns = (r"\breturn\s+-%s\b" % e, r"\bERR_PTR\(\s*-%s\s*\)" % e,
                r"(?<![=!<>])=\s*-%s\b" % e, r"[?:]\s*-%s\b" % e)
    return any(re.search(p, body) for p in patterns)


def source(funcs, name, err, depth):
    """How name can return -err: a list of the calls that lead to it, or None."""
    seen = {name}
    frontier = [[name]]
    for level in range(depth + 1):
        nxt = []
        for chain in frontier:
            f = chain[-1]
            if (f, err) in ALLOWED:
                return chain + ["allowed: " + ALLOWED[(f, err)]]
            if direct(funcs[f]["body"], err):
                return chain
            if level == depth:
                continue
            for callee in CALL.findall(funcs[f]["body"]):
                if callee in funcs and callee not in seen:
                    seen.add(callee)
                    nxt.append(chain + [callee])
        frontier = nxt
    return None


def main(argv):
    depth, check_all, where = 8, False, None
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--all":
            check_all = True
        elif a == "--depth":
            depth = int(args.pop(0))
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            where = a
    if where is None:
        here = os.path.dirname(os.path.abspath(__file__))
        where = os.path.join(here, "..", "..", "build", "linux")
    path = os.path.join(where, "fs", "namei.c") if os.path.isdir(where) else where
    try:
        text = open(path).read()
    except OSError as e:
        print("Bail out! cannot read %s: %s" % (path, e.strerror))
        return 2
    funcs = functions(text)
    docs = kerneldoc(text)
    documented = {name for name, _ in docs}

    def report(good, what, why=()):
        taplib.check(what, good, "\n".join(why))

    for name in WALK:
        if name not in documented:
            report(False, "%s: has a kernel-doc comment" % name,
                   ["no kernel-doc comment for the walk function %s()" % name])
    for name, sections in docs:
        if name not in funcs or not (check_all or name in WALK):
            continue
        returns_void = re.search(r"\bvoid\s*\w+\s*\($", funcs[name]["sig"]) is not None
        why = []
        if "context" not in sections:
            why.append("no Context: section")
        if returns_void and "return" in sections:
            why.append("a Return: section on a function that returns void")
        if not returns_void and "return" not in sections:
            why.append("no Return: section")
        if name in WALK:
            report(not why, "%s: sections" % name, why)
        named = []
        for sec in ("context", "return"):
            for err in ERRNO.findall(sections.get(sec, "")):
                if err not in named:
                    named.append(err)
        for err in named:
            chain = source(funcs, name, err, depth)
            if chain is None:
                report(False, "%s: -%s" % (name, err),
                       ["-%s is named in its Context:/Return: but neither its body nor a "
                        "function of this file it calls (%d deep) returns it, and it is "
                        "not in ALLOWED" % (err, depth)])
            elif len(chain) == 1:
                report(True, "%s: -%s (in its body)" % (name, err))
            else:
                report(True, "%s: -%s (via %s)" % (name, err, " -> ".join(chain[1:])))
    taplib.done()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
