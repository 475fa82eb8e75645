# SPDX-License-Identifier: GPL-2.0
"""symwalk-tree-include: a page of the patched kernel tree, in place.

.. symwalk-tree-include:: Documentation/filesystems/path-lookup.rst

includes that file of the patched tree (config value kerneldoc_srctree,
build/linux by default), as Sphinx's include directive does with a path
relative to the page: the page follows the series without a copy.
"""
import os

from sphinx.directives.other import Include


class TreeInclude(Include):
    def run(self):
        env = self.state.document.settings.env
        target = os.path.join(env.config.kerneldoc_srctree, self.arguments[0])
        if not os.path.exists(target):
            raise self.error("{} is missing from the patched tree: run make tree".format(
                self.arguments[0]))
        page_dir = os.path.dirname(env.doc2path(env.docname))
        self.arguments[0] = os.path.relpath(target, page_dir)
        return super().run()


def setup(app):
    app.add_directive("symwalk-tree-include", TreeInclude)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
