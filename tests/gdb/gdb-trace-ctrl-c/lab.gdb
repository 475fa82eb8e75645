# Stopped at the first push of n1/file.
lx-walk-break symwalk-lab
continue
# Ctrl-C while lx-walk-trace runs: from the walk's 5th push on, a thread
# sends gdb the SIGINT a terminal would, every 100 ms, until gdb reports a
# stop (QEMU's gdbstub drops an interrupt that meets a breakpoint's hit, and
# a student presses again), at most 30 times.
python
import os, signal, threading, time
from symwalk_gdb import sites

def press_ctrl_c():
    for _ in range(30):
        time.sleep(0.1)
        if stopped.is_set():
            return
        os.kill(os.getpid(), signal.SIGINT)

class CtrlCFromFifthPush(gdb.Breakpoint):
    # lx-walk-trace disables every other breakpoint while it runs: not
    # this one, which stands for the student's terminal.
    enabled = property(lambda self: True, lambda self, value: None)

    def __init__(self, location):
        super().__init__(location, internal=True)
        self.silent = True

    def stop(self):
        global pushes
        if pushes == 5:
            return False
        pushes += 1
        if pushes == 5:
            gdb.events.stop.connect(lambda event: stopped.set())
            threading.Thread(target=press_ctrl_c).start()
        return False

pushes = 1
stopped = threading.Event()
from_fifth = [CtrlCFromFifthPush(site.location) for site in sites.event_sites("namei_link_push")]
end
lx-walk-trace
