# Nothing but the CPUs the guest brought up: make bench times the guest's
# boot to its shell and out.
echo "cpus: $(grep -c ^processor /proc/cpuinfo)"
