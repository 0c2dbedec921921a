"""A flash in RAM for littlefs (``os.VfsLfs2``) inside MicroPython: rp2.Flash's block
device with its 4096-byte blocks. Shared by ``flash``'s UF2 image (flashing/fs_image.py),
``bench storage`` and the save tests on littlefs (tests/firmware/test_storage_littlefs.py,
whose power cuts subclass it, and tests/shared/full_flash_rig.py). Plain MicroPython code.
"""

BLOCK = 4096
_ERASED = b"\xff" * BLOCK


class RamFlash:
    """``blocks`` erased blocks, or ``data`` (a bytearray: an image read back) as it is.
    Counts the programs (``progs``, ``prog_bytes``) and erases; ``touched`` marks every
    block written or erased. ``writeblocks`` without an offset erases the block first,
    as rp2.Flash does; littlefs passes an offset and erases through ``ioctl(6, n)``."""

    def __init__(self, blocks=0, data=None):
        if data is None:
            data = bytearray(blocks * BLOCK)
            for n in range(blocks):  # a block at a time: one copy in RAM
                data[n * BLOCK : (n + 1) * BLOCK] = _ERASED
        self.data = data
        self.view = memoryview(data)
        self.touched = bytearray(len(data) // BLOCK)
        self.progs = self.prog_bytes = self.erases = 0

    def readblocks(self, n, buf, off=0):
        at = n * BLOCK + off
        buf[:] = self.view[at : at + len(buf)]

    def writeblocks(self, n, buf, off=None):
        if off is None:
            self.erase(n)
            off = 0
        at = n * BLOCK + off
        self.view[at : at + len(buf)] = buf
        self.touched[n] = 1
        self.progs += 1
        self.prog_bytes += len(buf)

    def erase(self, n):
        self.view[n * BLOCK : (n + 1) * BLOCK] = _ERASED
        self.touched[n] = 1
        self.erases += 1

    def ioctl(self, op, arg):
        if op == 4:  # block count
            return len(self.data) // BLOCK
        if op == 5:  # block size
            return BLOCK
        if op == 6:  # erase a block
            self.erase(arg)
        return 0
