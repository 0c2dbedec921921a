"""Power cuts on the real filesystem: littlefs v2 (``os.VfsLfs2``, as on the rp2 port, 4096-
byte blocks, progsize 256) on a RAM flash inside the MicroPython unix port.

The flash counts every program and erase; at the cut operation the power goes (the
program is torn: only its first half lands) and nothing after it happens. Then the
bytes are mounted afresh, like the next boot, and the store must load the last or the
previous saved value. Every operation of every save in a series of saves is a cut point,
including saves that make littlefs compact a metadata block (erases).
"""

import host_tools
from host_tools import fakes

SCRIPT = r"""
import os
import save_store
from ram_flash import RamFlash  # host_tools/fakes, shared with bench storage


class PowerCut(Exception):
    pass


CUT = PowerCut()  # made once: a finaliser may hit the dead flash while the heap is locked


# The RAM flash losing power at operation cut_at: that program is torn (only its first
# half lands), and the flash stays off.
class CutFlash(RamFlash):

    def __init__(self, data, cut_at=-1):
        RamFlash.__init__(self, data=data)
        self.cut_at = cut_at
        self.ops = 0

    def _op(self):
        if self.cut_at >= 0 and self.ops >= self.cut_at:
            self.ops += 1
            return True
        self.ops += 1
        return False

    def readblocks(self, n, buf, off=0):
        if self.cut_at >= 0 and self.ops > self.cut_at:
            return  # powered off; also how a finaliser of an abandoned file gets here
        RamFlash.readblocks(self, n, buf, off)

    def writeblocks(self, n, buf, off=0):
        if self._op():
            if self.ops > self.cut_at + 1:
                return -5  # still off: an I/O error code, no exception from a finaliser
            RamFlash.writeblocks(self, n, buf[: len(buf) // 2], off)  # torn program
            raise CUT
        RamFlash.writeblocks(self, n, buf, off)

    def ioctl(self, op, arg):
        if op == 6 and self._op():
            if self.ops > self.cut_at + 1:
                return -5
            raise CUT
        return RamFlash.ioctl(self, op, arg)


def mount(data, cut_at=-1):
    try:
        os.umount("/flash")
    except OSError:
        pass
    flash = CutFlash(data, cut_at)
    os.mount(os.VfsLfs2(flash, progsize=256), "/flash")
    return flash


def value(n):
    card = [-1] * 13 + [0]
    for i in range(n % 13):
        card[i] = (n * 7 + i) % 51
    return {"id": 500 + n, "seed": n * 7919, "game": {"round": n % 13, "dice": [1 + n % 6, 2, 3, 4, 5],
            "players": [["ANN", "human", card], ["CPU" + "X" * (n % 40), "hard", card]]}}


data = bytearray(b"\xff" * (64 * 4096))
flash = RamFlash(data=data)
os.VfsLfs2.mkfs(flash, progsize=256)
mount(data)
store = save_store.Store("/flash/data/game")
store.save(value(0))
checked = cuts = erases = 0
for n in range(1, 41):
    before = bytearray(data)
    probe = mount(bytearray(before))
    save_store.Store("/flash/data/game").save(value(n))
    total = probe.ops
    erases += probe.erases
    for cut in range(total):
        trial = bytearray(before)
        mount(trial, cut)
        try:
            save_store.Store("/flash/data/game").save(value(n))
            print("FAIL no cut at", n, cut)
        except PowerCut:
            pass
        except save_store.SaveError:
            pass  # the cut surfaced as an I/O error first; it is still a cut
        mount(trial)
        loaded = save_store.Store("/flash/data/game").load()
        if loaded != value(n) and loaded != value(n - 1):
            print("FAIL lost", n, cut, loaded)
        cuts += 1
    mount(data)
    save_store.Store("/flash/data/game").save(value(n))
    checked += 1
mount(data)
print("final", save_store.Store("/flash/data/game").load() == value(40))
print("saves", checked, "cuts", cuts, "erases", erases)
"""


def test_power_cut_at_every_flash_operation_on_littlefs(tmp_path):
    script = tmp_path / "lfs_cuts.py"
    script.write_text(SCRIPT)
    proc = host_tools.run_micropython([str(script)], heap="4M", extra_path=(fakes.FOLDER,))
    out = proc.stdout
    assert proc.returncode == 0, out + proc.stderr
    assert "FAIL" not in out, out
    assert "final True" in out
    figures = out.split("saves ")[1].split()
    assert int(figures[0]) == 40
    assert int(figures[2]) >= 80  # several flash operations per save, each one a cut point
    assert int(figures[4]) >= 1  # at least one save compacted a block, cut inside too
