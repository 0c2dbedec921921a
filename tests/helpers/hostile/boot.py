"""A hostile device: ``/boot.py`` for the virtual Pico that lies about names, sizes and contents.

Copy it into a ``virtual-pico --dir`` folder together with a ``hostile.json`` describing the
lies (``tests/helpers/hostile/__init__.py`` writes both). It runs inside MicroPython at every start,
before the REPL, so every host command that talks to the port meets the lies:
- ``"data"``: ``[[name, kind, reported_size, content], ...]`` replaces the ``/data`` folder
  with a fake filesystem that lists exactly these entries (any name: ``../x``, absolute
  paths, escape sequences, newlines), reports ``reported_size`` whatever the content, and
  serves ``content``: a string, ``{"hex": "59..."}`` (bytes), or ``{"repeat": "x",
  "count": N}`` (N bytes; -1: endless).
  ``kind`` is ``"file"``, ``"dir"`` (a folder that lists nothing) or ``"broken"`` (listed,
  but stat and open fail with EIO, as on a damaged filesystem).
- ``"quota"``: bytes the whole device accepts before every further write fails with
  ENOSPC, although ``os.statvfs`` keeps reporting free space (a device that says it has
  more room than it has).
"""

import binascii
import builtins
import json
import os

_FILE, _DIR = 0x8000, 0x4000
_ENOSPC = 28


def _load():
    try:
        with open("/hostile.json") as f:
            return json.load(f)
    except OSError:
        return {}


class _Content:
    """A read-only stream of ``count`` bytes (or endless), or of a fixed string."""

    def __init__(self, spec):
        if isinstance(spec, dict) and "hex" in spec:
            spec = binascii.unhexlify(spec["hex"])
        if isinstance(spec, bytes):
            self.data = spec
            self.left = len(spec)
        elif isinstance(spec, dict):
            self.fill = spec.get("repeat", "x").encode() or b"x"
            self.left = spec.get("count", -1)
            self.data = None
        else:
            self.data = spec.encode()
            self.left = len(self.data)

    def read(self, n=-1):
        if self.left == 0:
            return b""
        if n < 0 or (self.left >= 0 and n > self.left):
            n = self.left if self.left >= 0 else 4096
        if self.data is not None:
            start = len(self.data) - self.left
            out = self.data[start : start + n]
        else:
            out = (self.fill * (n // len(self.fill) + 1))[:n]
        if self.left > 0:
            self.left -= len(out)
        return out

    def readinto(self, buf):
        chunk = self.read(len(buf))
        buf[: len(chunk)] = chunk
        return len(chunk)

    def write(self, data):
        raise OSError(30)  # EROFS

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class _LyingFolder:
    """A filesystem object for os.mount() whose entries are whatever hostile.json says."""

    def __init__(self, entries):
        self.entries = entries

    def _find(self, path):
        name = path[1:] if path.startswith("/") else path
        for entry in self.entries:
            if entry[0] == name:
                if entry[1] == "broken":
                    raise OSError(5)  # EIO
                return entry
        raise OSError(2)

    def mount(self, readonly, mkfs):
        pass

    def umount(self):
        pass

    def ilistdir(self, path):
        if path not in ("", "/"):
            return iter(())
        return iter([(e[0], _DIR if e[1] == "dir" else _FILE, 0, e[2]) for e in self.entries])

    def stat(self, path):
        if path in ("", "/"):
            return (_DIR, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        entry = self._find(path)
        return (_DIR if entry[1] == "dir" else _FILE, 0, 0, 0, 0, 0, entry[2], 0, 0, 0)

    def open(self, path, mode):
        if "w" in mode or "a" in mode:
            raise OSError(30)
        return _Content(self._find(path)[3])

    def chdir(self, path):
        pass

    def getcwd(self):
        return ""

    def statvfs(self, path):
        return (4096, 4096, 100, 50, 50, 0, 0, 0, 0, 255)

    def mkdir(self, path):
        raise OSError(30)

    remove = rmdir = mkdir

    def rename(self, old, new):
        raise OSError(30)


class _Quota:
    """Wraps a writable file: every write past the device-wide quota fails with ENOSPC."""

    left = 0

    def __init__(self, real):
        self.real = real

    def write(self, data):
        if len(data) > _Quota.left:
            raise OSError(_ENOSPC)
        _Quota.left -= len(data)
        return self.real.write(data)

    def __getattr__(self, name):
        return getattr(self.real, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.real.close()


def _install(lies):
    if "data" in lies:
        os.mount(_LyingFolder(lies["data"]), "/data")
    if "quota" in lies:
        _Quota.left = lies["quota"]
        real_open = builtins.open

        def quota_open(path, mode="r", *args):
            f = real_open(path, mode, *args)
            return _Quota(f) if ("w" in mode or "a" in mode) else f

        builtins.open = quota_open


_install(_load())
