"""Device side of ``push``: put a ``pull`` copy of ``data/`` back on the device.

Installing the one-file UF2 replaces the whole filesystem, records and saved game
included. ``pull`` copies them off first; ``push`` brings them back through the flash
tool's port logic (``Device``: raw REPL, staged ``.flashnew`` copies switched in at the
end), so a push cut short leaves the device's own ``data/`` as it was.
"""
import os

from host_tools.flashing.build import DeviceFile
from host_tools.flashing.device import STAGED, Device, DeviceError

DATA = "data"  # storage.DATA_DIR: the game's folder at the flash root
STORE_SUFFIXES = (".a", ".b", ".a.bad", ".b.bad")  # storage.SUFFIXES without the temp file

_SWITCH = """import os
for p in %(remove)r:
    try:
        os.remove(p)
    except OSError:
        pass
for p in %(staged)r:
    os.rename(p + %(suffix)r, p)
print('pushed')
"""


class PushError(Exception):
    """The push cannot start or failed; one line for the user."""


class BadCopy(PushError):
    """The local copy is not what ``pull`` makes (exit 2: change the input)."""


def local_files(folder):
    """DeviceFiles for the store files in ``folder/data`` (what ``pull --out folder`` made)."""
    source = os.path.join(folder, DATA)
    if not os.path.isdir(source):
        raise BadCopy("%s has no %s/ folder: make the copy with python -m host_tools pull --port PORT --out %s" % (folder, DATA, folder))
    files = []
    for name in sorted(os.listdir(source)):
        local = os.path.join(source, name)
        if os.path.isfile(local) and name.endswith(STORE_SUFFIXES) and "/" not in name:
            with open(local, "rb") as f:
                files.append(DeviceFile("/%s/%s" % (DATA, name), f.read(), local))
    if not files:
        raise BadCopy("%s holds no saves or records (files such as game.a, scores.a)" % source)
    return files


def push(port, files, check_identity):
    """Make the device's ``/data`` hold exactly ``files``; returns (copied, same, removed).

    ``check_identity(identity, port)`` refuses what is not MicroPython (flash's check)."""
    device = Device(port)
    device.connect()
    staged = []
    try:
        check_identity(device.identify(), port)
        sizes, hashes, space = device.scan({f.path for f in files})
        block, free = space[0], space[1]  # (block size, free bytes, ...)
        copy = [f for f in files if hashes.get(f.path) != f.sha256]
        need = sum(max(1, -(-len(f.data) // block)) for f in copy)
        if need >= free // block:
            raise PushError("not enough space on the device: the copy needs %d KiB, %d KiB are free; nothing was changed" % (need * block // 1024, free // 1024))
        ours = {f.path for f in files}
        remove = sorted(p for p in sizes if p.startswith("/%s/" % DATA) and p not in ours)
        for f in copy:
            staged.append(f.path)
            device.stage(f.path, f.data)
        out = device.exec(_SWITCH % {"remove": remove, "staged": staged, "suffix": STAGED})
        if b"pushed" not in out:
            raise DeviceError("the device did not confirm switching the files in")
        device.reset()
        return len(copy), len(files) - len(copy), len(remove)
    except DeviceError:
        if staged:
            try:
                device.remove([p + STAGED for p in staged])
            except DeviceError:
                pass
        raise
    except PushError:
        device.release()
        raise
    finally:
        device.close()
