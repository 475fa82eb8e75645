# Sphinx configuration of symwalk's documentation site.
#
# sphinx-build reads this folder in place (mk/docs.mk): the hand-written
# pages, and the directives of sphinx/ in them, which render the labs, the
# gdb helpers, the namei events, the patch series and the stack pictures
# from the tree and from the results make check left in build/run; the
# kernel's own path-lookup page and kernel-doc come from the patched tree.

import ast
import os
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TREE = os.environ.get("SYMWALK_TREE", os.path.join(TOP, "build", "linux"))

# The kernel's own Sphinx extensions, from the patched tree, and symwalk's,
# which read the data they render through the package of scripts/symwalk/.
sys.path.insert(0, os.path.join(TREE, "Documentation", "sphinx"))
sys.path.insert(0, os.path.join(TOP, "Documentation", "sphinx"))
sys.path.insert(0, os.path.join(TOP, "scripts"))



def git(*args):
    """git's output in the checkout this folder is part of, None outside a
    git checkout (a tarball's copy)."""
    try:
        return subprocess.run(["git", "-C", TOP] + list(args), capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def built_from():
    """The commit the site is built from, its date and whether the tracked
    files differ from it: the commit's date, not the clock's, so that a
    rebuild of one commit is the same site."""
    commit = git("log", "-1", "--format=%h of %cs")
    if not commit:
        return ""
    changed = git("status", "--porcelain", "--untracked-files=no")
    return "commit " + commit + (", with changes not committed" if changed else "")


project = "symwalk"
author = "symwalk"
copyright = "symwalk contributors; kernel text GPL-2.0"
release = version = git("rev-parse", "--short", "HEAD") or ""
html_context = {"symwalk_built_from": built_from()}

extensions = [
    "kerneldoc",        # .. kernel-doc:: from the patched tree
    "automarkup",       # function() -> link to its kernel-doc, as the kernel does
    "symwalk_bench",    # .. symwalk-bench:: the last make bench's report
    "symwalk_coverage", # .. symwalk-coverage:: the last make coverage's figures
    "symwalk_labs",     # .. symwalk-predict:: and .. symwalk-answers:: of a lab
    "symwalk_stack",    # .. symwalk-moment:: and .. symwalk-trace:: of a traced walk
    "symwalk_helpers",  # .. symwalk-helpers:: the gdb helper reference
    "symwalk_series",   # .. symwalk-series:: the patches, for review
    "symwalk_events",   # .. symwalk-events:: the namei events, from tracefs
    "symwalk_kernel",   # .. symwalk-tree-include:: a page of the patched tree
    "symwalk_source",   # .. symwalk-source:: a file of the patched tree, line by line
    "symwalk_xref",     # ``name()``, ``struct x``, ``FLAG``, "lab NN-name" -> links
]

# The pictures are graphviz graphs (sphinx.ext.graphviz), as SVG: their text
# stays sharp and searchable.
graphviz_output_format = "svg"

kerneldoc_bin = os.path.join(TREE, "scripts", "kernel-doc")
kerneldoc_srctree = TREE


def kernel_c_id_attributes():
    """The C attributes (__user, __init, ...) the kernel's conf.py tells
    Sphinx's C domain to skip, read from the patched tree, not copied."""
    with open(os.path.join(TREE, "Documentation", "conf.py")) as f:
        tree = ast.parse(f.read())
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "c_id_attributes"
                for t in node.targets):
            return ast.literal_eval(node.value)
    return []


c_id_attributes = kernel_c_id_attributes()

master_doc = "index"
source_suffix = ".rst"
exclude_patterns = ["sphinx", "_static", "_templates"]
# _templates/layout.html: Alabaster's layout without its zoom-blocking viewport.
templates_path = ["_templates"]
pygments_style = "sphinx"
highlight_language = "none"
primary_domain = "c"

html_theme = "alabaster"
html_title = "symwalk"
html_static_path = ["_static"]
html_css_files = ["symwalk.css"]
html_js_files = ["symwalk.js"]
html_theme_options = {
    "description": "the kernel's symlink walk, documented, traced and "
                   "steppable in gdb",
    # A column of 900 px on a 1280 px screen: two boxes of a stack picture
    # side by side at their natural size.
    "page_width": "1200px",
    "body_max_width": "none",
    # Basic's 360 px would make a 360 px phone's page scroll sideways.
    "body_min_width": 0,
    "sidebar_width": "240px",
    "fixed_sidebar": True,
    "show_relbars": True,
}
html_sidebars = {"**": ["about.html", "navigation.html", "searchbox.html"]}
html_show_sourcelink = False
html_last_updated_fmt = None

# Paths and names are quoted as they are typed: no typographic quotes.
smartquotes = False
