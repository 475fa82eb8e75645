# make bench's guest part: walkbench with every namei event measured, the
# iterations from the kernel command line (symwalk.bench_iterations=N).
iterations=300
for arg in $(cat /proc/cmdline); do
	case $arg in symwalk.bench_iterations=*) iterations=${arg#*=} ;; esac
done
walkbench -n "$iterations" -e all
