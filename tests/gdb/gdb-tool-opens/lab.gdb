# Which opens does a process named symwalk-lab make? A breakpoint of the
# student's after a lab's steps is no longer gated on the lab's lookups:
# it stops wherever the name matches, as this one, which is not gated,
# records.
python
class OpenAsLab(gdb.Breakpoint):
    def stop(self):
        if gdb.parse_and_eval('$_streq($lx_current().comm, "symwalk-lab")'):
            gdb.write("open as symwalk-lab: {}\n".format(
                gdb.parse_and_eval("pathname->name").string()))
        return False

open_as_lab = OpenAsLab("do_filp_open", internal=True)
end
break do_filp_open if $_streq($lx_current().comm, "symwalk-lab")
# 1. The traced lookup's open.
continue
# 2. The second lookup's open: the first one has read its trace since.
continue
python
open_as_lab.delete()
end
