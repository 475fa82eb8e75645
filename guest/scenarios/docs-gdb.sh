# The documentation's gdb examples: gdb stops this walk after each push
# (lx-walk-break symwalk-lab) and runs each helper at the third.
# n1 -> n2/e, n2 -> n3/e, n3 -> dir: three frames, the third on the heap.
mkdir -p dir/e/e
echo data > dir/e/e/f
ln -s dir n3
ln -s n3/e n2
ln -s n2/e n1
# gdb waits for this to set its breakpoints (gdb-scripts/symwalk_gdb/lab.py).
hostname symwalk-ready
lookup stat n1/f
