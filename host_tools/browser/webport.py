"""What MicroPython's WebAssembly port needs before the unmodified main.py runs (run by
the web host, host.mjs; not part of the firmware).

- File errors: the port raises WASI numbers (ENOENT 44, EEXIST 20, ENOTDIR 54) while its
  ``errno`` module, and the firmware's storage, use MicroPython's own (2, 17, 20), so the
  first boot would report the records damaged. ``install`` learns the port's numbers by
  provoking each error once in a scratch folder, then mounts the flash folder through
  ``FixedVfs``, a Python VFS (MicroPython's documented VFS protocol) over the port's
  VfsPosix that raises every error with MicroPython's number.
- Persistence: ``FixedVfs`` calls ``host.changed()`` after each write, rename or removal,
  so the host saves ``data/`` (IndexedDB in the page) at the firmware's next sleep.
- ``sys.argv``: the host's ``key=value`` words (config.py reads them, as on the unix port).
"""

import errno
import os
import sys
import vfs

# The errors a filesystem user meets, each provoked once by port_numbers, with MicroPython's
# numbers for them (py/mperrno.h, the Linux values, which littlefs on the Pico gives too);
# the port's errno module has ENOENT, EEXIST and EISDIR and agrees on those.
MICROPYTHON = {"ENOENT": 2, "EEXIST": 17, "ENOTDIR": 20, "EISDIR": 21, "ENOTEMPTY": 39}
PROBED = tuple(MICROPYTHON)
_WRITE_MODES = "wax+"


def _raised(action):
    try:
        action()
    except OSError as exc:
        return exc.args[0] if exc.args else None
    return None


def port_numbers(scratch="/tmp/errno-probe"):
    """{number the port raises: MicroPython's number} for each of PROBED, learned in
    ``scratch`` (made and removed here)."""
    os.mkdir(scratch)
    try:
        with open(scratch + "/file", "w") as f:
            f.write("x")
        os.mkdir(scratch + "/dir")
        with open(scratch + "/dir/file", "w") as f:
            f.write("x")
        seen = {
            "ENOENT": _raised(lambda: open(scratch + "/missing")),
            "EEXIST": _raised(lambda: os.mkdir(scratch + "/dir")),
            "ENOTDIR": _raised(lambda: open(scratch + "/file/x")),
            "EISDIR": _raised(lambda: open(scratch + "/dir", "w")),
            "ENOTEMPTY": _raised(lambda: os.rmdir(scratch + "/dir")),
        }
    finally:
        for path in (scratch + "/dir/file", scratch + "/file"):
            _raised(lambda path=path: os.remove(path))
        _raised(lambda: os.rmdir(scratch + "/dir"))
        os.rmdir(scratch)
    table = {}
    for name in PROBED:
        if seen[name] is None:
            raise OSError("errno probe: %s was not raised" % name)
        table[seen[name]] = getattr(errno, name, MICROPYTHON[name])
    return table


class FixedVfs:
    """The port's VfsPosix at ``root`` with MicroPython's error numbers; ``changed()`` is
    called after every operation that may change a file."""

    def __init__(self, root, table, changed):
        self._inner = vfs.VfsPosix(root)
        self._table = table
        self._changed = changed

    def _fix(self, exc):
        number = exc.args[0] if exc.args else None
        return OSError(self._table.get(number, number))

    def _call(self, method, *args):
        try:
            return method(*args)
        except OSError as exc:
            raise self._fix(exc)

    def mount(self, readonly, mkfs):
        pass

    def umount(self):
        pass

    def open(self, path, mode):
        f = self._call(self._inner.open, path, mode)
        for c in _WRITE_MODES:
            if c in mode:
                self._changed()
                break
        return f

    def ilistdir(self, path):
        return self._call(self._inner.ilistdir, path)

    def stat(self, path):
        return self._call(self._inner.stat, path)

    def statvfs(self, path):
        return self._call(self._inner.statvfs, path)

    def chdir(self, path):
        return self._call(self._inner.chdir, path)

    def getcwd(self):
        return self._call(self._inner.getcwd)

    def mkdir(self, path):
        self._call(self._inner.mkdir, path)
        self._changed()

    def rmdir(self, path):
        self._call(self._inner.rmdir, path)
        self._changed()

    def remove(self, path):
        self._call(self._inner.remove, path)
        self._changed()

    def rename(self, old, new):
        self._call(self._inner.rename, old, new)
        self._changed()


def install(host, flash, words):
    """Mount ``flash`` (the firmware's root, already filled by the host) with the fixed
    numbers, make it the current folder and the import root, set ``sys.argv`` to main.py
    and the ``key=value`` words of ``words`` (one string, space-separated)."""
    table = port_numbers()
    vfs.mount(FixedVfs(flash, table, host.changed), flash)
    os.chdir(flash)
    if "" not in sys.path:
        sys.path.insert(0, "")
    sys.argv[:] = ["main.py"] + words.split()
    return table
