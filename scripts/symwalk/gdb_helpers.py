"""symwalk's gdb helpers, read without gdb: every gdb.Command, gdb.Function
and gdb.Parameter subclass of gdb-scripts/symwalk_gdb/*.py, with the name it
registers and its docstring (gdb's help text), parsed with Python's ast."""
import ast
import glob
import os

GDB_BASES = {"Command": "command", "Function": "function", "Parameter": "parameter"}


class Helper:
    def __init__(self, name, kind, doc, module, cls, lineno):
        self.name, self.kind, self.doc = name, kind, doc
        self.module, self.cls, self.lineno = module, cls, lineno

    @property
    def title(self):
        """How a user writes it: lx-name, $lx_name(), set lx-name."""
        if self.kind == "function":
            return "${}()".format(self.name)
        return self.name

    @property
    def summary(self):
        return self.doc.strip().split("\n", 1)[0] if self.doc else ""

    @property
    def details(self):
        parts = self.doc.strip().split("\n", 1) if self.doc else []
        return parts[1].strip("\n") if len(parts) > 1 else ""

    def default_examples(self):
        """What to run at a stop in a walk when the examples file names
        nothing for this helper."""
        if self.kind == "function":
            return ["print ${}()".format(self.name)]
        if self.kind == "parameter":
            return ["show " + self.name]
        return [self.name]

    def uses(self, command):
        """Whether a gdb command line exercises this helper."""
        if self.kind == "function":
            return "${}(".format(self.name) in command
        words = command.split()
        if self.kind == "parameter":
            return len(words) > 1 and words[0] in ("set", "show") and words[1] == self.name
        return bool(words) and words[0] == self.name


def _base_name(node):
    if isinstance(node, ast.Attribute):
        return node.attr, isinstance(node.value, ast.Name) and node.value.id == "gdb"
    if isinstance(node, ast.Name):
        return node.id, False
    return None, False


def _registered_name(cls):
    """The first string argument of the class's super().__init__() call."""
    for node in ast.walk(cls):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "__init__" and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)):
            return node.args[0].value
    return None


def module_order(gdb_scripts):
    """Modules in the order symwalk.py imports them, then the rest."""
    order = []
    entry = os.path.join(gdb_scripts, "symwalk.py")
    if os.path.exists(entry):
        with open(entry) as f:
            for node in ast.walk(ast.parse(f.read())):
                if isinstance(node, ast.Import):
                    for alias in node.names:
                        if alias.name.startswith("symwalk_gdb."):
                            order.append(alias.name.split(".", 1)[1])
    return order


def find_helpers(gdb_scripts):
    """Every helper class of gdb_scripts/symwalk_gdb, in import order."""
    classes = {}
    for path in sorted(glob.glob(os.path.join(gdb_scripts, "symwalk_gdb", "*.py"))):
        module = os.path.splitext(os.path.basename(path))[0]
        with open(path) as f:
            tree = ast.parse(f.read(), path)
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                classes[node.name] = (module, node)

    def kind_of(cls, seen=()):
        for base in cls.bases:
            name, from_gdb = _base_name(base)
            if from_gdb and name in GDB_BASES:
                return GDB_BASES[name]
            if name in classes and name not in seen:
                kind = kind_of(classes[name][1], seen + (name,))
                if kind:
                    return kind
        return None

    helpers = []
    for cls_name, (module, cls) in classes.items():
        kind = kind_of(cls)
        name = _registered_name(cls) if kind else None
        if kind and name:
            helpers.append(Helper(name, kind, ast.get_docstring(cls, clean=True) or "",
                                  module, cls_name, cls.lineno))
    order = module_order(gdb_scripts)
    rank = {m: i for i, m in enumerate(order)}
    helpers.sort(key=lambda h: (rank.get(h.module, len(order)), h.module, h.lineno))
    return helpers


if __name__ == "__main__":
    import sys
    for h in find_helpers(sys.argv[1] if len(sys.argv) > 1 else "gdb-scripts"):
        print("{:<10} {:<20} {}.{}: {}".format(h.kind, h.title, h.module, h.cls, h.summary))
