"""Busy mode's filesystem (boards/sim_busy.MeteredFS), inside MicroPython: the save
layer's renames, removals, folders and stats cost littlefs's modelled time, not the host
disk's (a rename on the host took about 0.2 ms, which the chip/host ratio made about 25
estimated ms, and every save renames). The sim board in busy mode hands it to the save
layer as ``hw.fs``."""

import host_tools

SCRIPT = r"""
import time
import save_session
from boards import sim, sim_busy


class SlowOs:
    # the host's disk at its slowest: every call takes 30 ms
    def rename(self, old, new):
        time.sleep_ms(30)

    def remove(self, path):
        time.sleep_ms(30)

    def mkdir(self, path):
        time.sleep_ms(30)

    def stat(self, path):
        time.sleep_ms(30)
        return (0x4000, 0, 0, 0, 0, 0, 0, 0, 0, 0)


charged = sim_busy.READ_CALL_NS + sim_busy.PAGE_NS
meter = sim_busy.BusyMeter("100")  # 1 host ms is 1 estimated ms
fs = sim_busy.MeteredFS(meter, SlowOs())
for name, call in (("rename", lambda: fs.rename("a", "b")), ("remove", lambda: fs.remove("a")),
                   ("mkdir", lambda: fs.mkdir("d")), ("stat", lambda: fs.stat("d"))):
    meter.restart()
    call()
    io = meter.io_ns
    print("CALL", name, io, meter.busy_ns() - io < 10000000)
print("CHARGED", charged, sim_busy.READ_CALL_NS)
hw = sim.build({"link": sim.Loopback(lambda ms: 0), "busy": "100"})
session = save_session.Session(hw)
print("GUARDED", type(session.fs).__name__, type(session.store.fs).__name__)
# under the guard that tells the buttons of each flash call (boards/hardware.FlashGuard)
print("SESSION_FS", type(session.fs.fs).__name__, type(session.store.fs.fs).__name__)
plain = sim.build({"link": sim.Loopback(lambda ms: 0)})
print("PLAIN_FS", save_session.Session(plain).fs)
"""


def test_the_save_layers_file_calls_cost_littlefs_time_not_the_host_disks():
    proc = host_tools.run_micropython(["-c", SCRIPT], heap="512K")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    lines = [line.split() for line in proc.stdout.splitlines()]
    charged, read_call = next(words[1:] for words in lines if words[0] == "CHARGED")
    calls = {words[1]: words[2:] for words in lines if words[0] == "CALL"}
    # a rename, removal or folder commits metadata (a page program); a stat reads
    for name in ("rename", "remove", "mkdir"):
        assert calls[name] == [charged, "True"], (name, calls[name])
    assert calls["stat"] == [read_call, "True"]  # and the 30 ms of host disk time are paused out
    assert ["SESSION_FS", "MeteredFS", "MeteredFS"] in lines  # busy mode: the save layer's fs
    assert ["GUARDED", "FlashGuard", "FlashGuard"] in lines  # as on the Pico
    assert ["PLAIN_FS", "None"] in lines  # a plain run: os and the builtin open
