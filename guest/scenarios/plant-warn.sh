# make debug-check: a WARN on purpose (LKDTM's WARNING), which the check of
# the consoles for the kernel's reports must then find. init has mounted
# debugfs.
echo WARNING > /sys/kernel/debug/provoke-crash/DIRECT
