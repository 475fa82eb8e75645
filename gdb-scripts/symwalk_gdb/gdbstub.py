#
# symwalk: the one place gdb waits for QEMU's gdbstub and retries it
#
# A guest's gdbstub listens only once QEMU has started (make lab starts
# both at once; make gdb, a make run in another terminal), so the attach
# waits for it, bounded. And now and then the gdbstub reports a stop twice
# in a row, the guest unchanged between the two: what resumes the guest
# resumes it again past the repeat, a few times at most.
#

import socket
import time

import gdb

# How many times past a repeated stop report gdb resumes the guest again.
REPEATS = 3


def wait_for_gdbstub(port, seconds):
    """Wait until something listens on localhost:port, at most seconds."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            if time.monotonic() >= deadline:
                raise gdb.GdbError(
                    "no guest answers on localhost:{}: start one with 'make run' (or "
                    "'make lab'), or give its port with GDB_PORT= (waited {} s)".format(
                        port, seconds))
            time.sleep(0.1)


def past_repeats(resume, repeated):
    """resume(), then again while repeated() says the stop it came to is
    one the gdbstub reported already, REPEATS times more at most. Return
    what the last resume() returned."""
    value = resume()
    for _ in range(REPEATS):
        if not repeated():
            break
        value = resume()
    return value
