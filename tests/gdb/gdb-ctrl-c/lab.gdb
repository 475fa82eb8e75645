# A student's Ctrl-C in the gdb pane while a step's continue waits: the
# test sends gdb the SIGINT a terminal would, half a second from now.
python
import os, signal, threading
threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
end
lx-walk-break symwalk-lab
continue
# Never reached: the steps end at the Ctrl-C.
echo after the Ctrl-C\n
