# 1. The lookup stops where it handles "..".
break handle_dots if $_streq($lx_current().comm, "symwalk-lab")
continue
lx-nameidata
# 2. What a rename anywhere does to rename_lock meanwhile: its seqcount goes
#    up by 2. gdb holds the guest (all its vCPUs: one, unless SMP= asks for more), so
#    no rename can run: gdb writes it.
set var rename_lock.seqcount.seqcount.sequence = rename_lock.seqcount.seqcount.sequence + 2
lx-nameidata
# 3. The walk goes on to its end (-EAGAIN: no second attempt); gdb stops
#    where do_filp_open() hands its walk back.
delete
break restore_nameidata if $_streq($lx_current().comm, "symwalk-lab")
continue
