# At the reset vector: no kernel has run yet.
python
try:
    gdb.execute("lx-nameidata")
except gdb.error as e:
    gdb.write("before boot: {}\n".format(e))
end
