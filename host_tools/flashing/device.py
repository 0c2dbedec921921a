"""Device side of ``flash``: talks to MicroPython's raw REPL through mpremote's transport.

Everything the flash tool does on the board goes through ``Device``: identify it, scan its
files (size and sha256 computed on the device), stage new files as ``<path>.flashnew``,
switch them in with one short script, reset. Staging means a flash interrupted while
copying leaves the previous game untouched.
"""

import binascii
import contextlib
import io
import os
import time

import serial
from mpremote.transport import TransportError, TransportExecError
from mpremote.transport_serial import SerialTransport

from host_tools.flashing import untrusted
from host_tools.flashing.errors import DeviceError, DeviceFull, DeviceLost

STAGED = ".flashnew"  # suffix of a staged file; renamed over the real one at the end
PARKED = "/main.py.flashoff"  # main.py parked here while files are switched
MANIFEST = "/flash_manifest.txt"  # what the last complete flash put on the device
PROBE_TIMEOUT = 4  # seconds to wait for the raw REPL banner
INTERRUPT_EVERY = 0.5  # seconds between Ctrl-Cs while the board does not answer (see connect)
_CHUNK = 3072  # raw bytes per exec: 4 KiB of base64 text, small for a Pico's heap
KEEP_ALIVE = 32 * 1024  # scan: a "." line per this many bytes hashed (see _SCAN)
SCAN_OVERALL = 600  # seconds a whole scan may take; silence is bounded by the keep-alives
EXEC_TIMEOUT = 10  # seconds of silence a script may take on a Pico (mpremote's own wait)
# The speed probe: a loop timed by the device's clock and by the host's, at two lengths
# (the round trip's cost cancels). An emulated Pico on a loaded machine ran at a few %
# of a real one's speed, and flash's raw-REPL wait fired after its 47th file; a device
# that SLOW or more times slower than its own clock says has every wait scaled by it.
SPEED_LOOP = 3000  # iterations: about 10 ms on a Pico
SLOW = 2
_SPEED = """import time
t = time.ticks_us()
for i in range(%d):
    pass
print(time.ticks_diff(time.ticks_us(), t))
"""


_IDENTIFY = """import sys
i = sys.implementation
print(repr((i.name, tuple(i.version[:3]), getattr(i, '_mpy', None), getattr(i, '_machine', sys.platform))))
"""

# Prints one line per file: F, path as hex (a name may hold tabs or newlines), size,
# sha256 or -; then S, block size, free blocks, total blocks. While it hashes a big file
# (a 1 MB strategy table takes seconds on a Pico, longer on a loaded emulated one) it
# prints a "." line every KEEP_ALIVE bytes, so the host's silence timeout (mpremote's
# read_until, 10 s) measures a stuck device, not a long hash; the parser skips them.
_SCAN = """import os, binascii
try:
    import hashlib
except ImportError:
    hashlib = None
def _walk(folder, want):
    try:
        entries = os.ilistdir(folder)
    except OSError:
        return  # a damaged folder: nothing in it is flash's to touch
    for entry in entries:
        path = (folder if folder != '/' else '') + '/' + entry[0]
        if entry[1] == 0x4000:
            _walk(path, want)
            continue
        digest = '-'
        try:
            size = os.stat(path)[6]
            if hashlib is not None and path in want:
                h = hashlib.sha256()
                buf = bytearray(512)
                count = 0
                with open(path, 'rb') as f:
                    while True:
                        n = f.readinto(buf)
                        if not n:
                            break
                        h.update(buf if n == 512 else buf[:n])
                        count += 1
                        if count %% %(keep_alive)d == 0:
                            print('.')
                digest = binascii.hexlify(h.digest()).decode()
        except OSError:
            size = -1  # unreadable: reported, never taken for a file of flash's
        print('F', binascii.hexlify(path.encode()).decode(), size, digest)
_walk('/', %(want)r)
s = os.statvfs('/')
print('S', s[0], s[3], s[2])
"""

# A small file as hex lines, or N when it does not exist.
_READ_TEXT = """import binascii
try:
    _f = open(%(path)r, 'rb')
except OSError:
    print('N')
else:
    while True:
        _b = _f.read(256)
        if not _b:
            break
        print(binascii.hexlify(_b).decode())
    _f.close()
"""

_SWITCH = """import os
def _rm(path):
    try:
        os.remove(path)
    except OSError:
        pass
try:
    os.rename('/main.py', %(parked)r)
except OSError:
    pass
for path in %(remove)r:
    _rm(path)
for path in %(staged)r:
    os.rename(path + %(suffix)r, path)
if %(new_main)r:
    os.rename('/main.py' + %(suffix)r, '/main.py')
    _rm(%(parked)r)
else:
    try:
        os.rename(%(parked)r, '/main.py')
    except OSError:
        pass
os.rename(%(manifest)r + %(suffix)r, %(manifest)r)
print('switched')
"""


def write_code(path, data, head=""):
    """The scripts that write ``data`` to the device file ``path``, one exec each, as
    ``(code, bytes written after it)``; ``head`` runs first (making folders)."""
    head = "import os, binascii\n%sf = open(%r, 'wb')\nw = f.write\na = binascii.a2b_base64\n" % (head, path)
    starts = list(range(0, len(data), _CHUNK)) or [0]
    for start in starts:
        text = binascii.b2a_base64(data[start : start + _CHUNK], newline=False).decode()
        code = "w(a(%r))\n" % text
        if start == starts[0]:
            code = head + code
        if start == starts[-1]:
            code += "f.close()\ndel f, w, a\n"
        yield code, min(start + _CHUNK, len(data))


class Device:
    """A MicroPython board on a serial port (a real Pico or the virtual one)."""

    def __init__(self, port):
        self.port = port
        self.transport = None
        self.made = set()  # folders made during this flash
        self.slowness = 1  # wall seconds a second of the device's time takes (measure_speed)

    def connect(self):
        """Open the port and enter the raw REPL (Ctrl-C stops the running game first)."""
        if not os.path.exists(self.port):
            raise DeviceError("port %s does not exist (unplugged?)" % self.port)
        try:  # pyserial's own message says whether the port is busy or forbidden
            serial.Serial(self.port, exclusive=True).close()
        except serial.SerialException as exc:
            if "lock" in str(exc):
                raise DeviceError(
                    "port %s is busy: another program has it open (mpremote, make repl, Thonny, a serial monitor); close it and retry"
                    % self.port
                ) from None
            raise DeviceError("cannot open %s: %s" % (self.port, exc)) from None
        try:
            self.transport = SerialTransport(self.port, baudrate=115200)
        except TransportError as exc:
            raise DeviceError("cannot open %s: %s" % (self.port, exc)) from None
        said = io.StringIO()
        try:
            with contextlib.redirect_stdout(said):  # mpremote prints what it got on failure
                self._interrupt()
                self.transport.enter_raw_repl(soft_reset=True, timeout_overall=PROBE_TIMEOUT)
        except (TransportError, OSError) as exc:
            heard = said.getvalue().strip() or str(exc)
            self.close()
            raise DeviceError(
                "the device on %s does not answer like MicroPython (no raw REPL; it sent %s): "
                "install MicroPython 1.23 or newer, see docs/building.md" % (self.port, heard[:60])
            ) from None
        self.measure_speed()

    def measure_speed(self):
        """Time the probe loop twice by both clocks; ``slowness`` becomes how many times
        slower the device runs than its own clock says (1 for a real board), and every
        later wait is scaled by it. Returns it."""
        runs = []
        for n in (SPEED_LOOP, 5 * SPEED_LOOP):
            began = time.monotonic()
            out = self.exec_bounded(_SPEED % n, 64)
            try:
                runs.append((time.monotonic() - began, int(out.strip()) / 1e6))
            except ValueError:
                return self.slowness  # not a number: the device is not ours to time
        device = runs[1][1] - runs[0][1]
        ratio = (runs[1][0] - runs[0][0]) / device if device > 0 else 1
        self.slowness = ratio if ratio >= SLOW else 1
        return self.slowness

    def _interrupt(self):
        """Ctrl-C (then Ctrl-A) until the raw REPL answers, for up to PROBE_TIMEOUT seconds.

        One Ctrl-C is not enough right after a reset: from the reset until main.py runs,
        MicroPython takes Ctrl-C as plain input, so the game starts anyway and the board
        never answers. ``pull`` and ``push`` end with such a restart (the game runs again),
        so a ``flash`` straight after them sent its one Ctrl-C into that window - a few ms on
        a Pico, seconds on the emulated one. Raises TransportError on silence."""
        deadline = time.monotonic() + PROBE_TIMEOUT
        heard = ""  # the first answer that was not the banner, for the error message
        while True:
            left = deadline - time.monotonic()
            said = io.StringIO()
            try:
                with contextlib.redirect_stdout(said):  # mpremote prints what it got on failure
                    self.transport.enter_raw_repl(
                        soft_reset=False, timeout_overall=max(0.05, min(INTERRUPT_EVERY, left))
                    )
                return
            except TransportError:
                if not heard or heard == "b''":
                    heard = said.getvalue().strip()
                if time.monotonic() >= deadline:
                    print(heard)
                    raise

    def identify(self):
        """(name, version tuple, _mpy or None, machine text), checked for shape: a device
        can answer anything."""
        import ast

        out = self.exec_bounded(_IDENTIFY, 4096).decode("utf-8", "replace").strip()
        try:
            name, version, mpy, machine = ast.literal_eval(out)
            if not (
                isinstance(name, str)
                and isinstance(version, tuple)
                and 2 <= len(version) <= 3
                and all(type(v) is int and 0 <= v < 1000 for v in version)
                and (mpy is None or (type(mpy) is int and 0 <= mpy <= 0xFFFF))
                and isinstance(machine, str)
            ):
                raise ValueError(out)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            raise DeviceError(
                "the device on %s answered with something that is not an identity: %s"
                % (self.port, untrusted.printable(out[:80]))
            ) from None
        return name[:40], version, mpy, machine[:80]

    def exec(self, code):
        try:
            out, error = self.transport.exec_raw(code, timeout=EXEC_TIMEOUT * self.slowness)
            if error:
                raise TransportExecError(out, error.decode("utf-8", "replace"))
            return out
        except TransportExecError as exc:
            raise _reported(exc.error_output) from None
        except (TransportError, OSError, serial.SerialException) as exc:
            raise DeviceLost(
                "lost the connection to %s (%s)" % (self.port, str(exc).strip() or type(exc).__name__)
            ) from None

    def exec_bounded(self, code, limit, timeout=EXEC_TIMEOUT, overall=120):
        """Like ``exec`` for output a device could make endless or huge: at most ``limit``
        bytes of output (and 4 KiB of error text) are taken, else DeviceError. Both waits
        (silence, in all) are a Pico's, scaled by ``slowness``."""
        timeout *= self.slowness
        overall *= self.slowness
        taken = [bytearray(), bytearray()]

        def consumer(which, most):
            def take(data):
                taken[which].extend(data)
                if len(taken[which]) > most:
                    raise _TooMuch()

            return take

        transport = self.transport
        try:
            transport.exec_raw_no_follow(code)
            for which, most in ((0, limit), (1, 4096)):
                transport.read_until(
                    1, b"\x04", timeout=timeout, data_consumer=consumer(which, most), timeout_overall=overall
                )
                if not taken[which].endswith(b"\x04"):
                    raise DeviceLost("%s stopped answering" % self.port)
                del taken[which][-1:]
        except _TooMuch:
            raise DeviceLost(
                "the device on %s sent more than %d bytes where at most %d were expected" % (self.port, limit, limit)
            ) from None
        except (TransportError, OSError, serial.SerialException) as exc:
            raise DeviceLost(
                "lost the connection to %s (%s)" % (self.port, str(exc).strip() or type(exc).__name__)
            ) from None
        if taken[1]:
            raise _reported(bytes(taken[1]).decode("utf-8", "replace"))
        return bytes(taken[0])

    def scan(self, want):
        """({path: size}, {path: sha256 hex}, (block, free bytes, total bytes)) for the whole
        filesystem. Paths that are not plain device paths (untrusted.device_path_problem)
        count for the space but are never taken for files of ours."""
        code = _SCAN % {"want": set(want) or {""}, "keep_alive": KEEP_ALIVE // 512}
        out = self.exec_bounded(code, 4 * 1024 * 1024, overall=SCAN_OVERALL).decode("ascii", "replace")
        sizes, hashes, space, odd = {}, {}, None, 0
        for line in out.splitlines():
            parts = line.split()
            try:
                if parts[:1] == ["F"] and len(parts) == 4:
                    path = binascii.unhexlify(parts[1]).decode("utf-8")
                    size = int(parts[2])
                    if untrusted.device_path_problem(path) or size < 0:
                        odd += max(size, 0)
                        continue
                    sizes[path] = size
                    if parts[3] != "-":
                        hashes[path] = parts[3]
                elif parts[:1] == ["S"] and len(parts) == 4:
                    block, free_blocks, total_blocks = int(parts[1]), int(parts[2]), int(parts[3])
                    if block > 0 and 0 <= free_blocks <= total_blocks:
                        space = (block, block * free_blocks, block * total_blocks)
            except (ValueError, UnicodeDecodeError, binascii.Error):
                continue  # a line we did not ask for, or a name that is not UTF-8: not ours
        if space is None:
            raise DeviceError("the device did not report its free space sensibly")
        return sizes, hashes, space

    def read_text(self, path, limit=256 * 1024):
        """Contents of a small text file, or None when it does not exist."""
        out = self.exec_bounded(_READ_TEXT % {"path": path}, 2 * limit + limit // 128 + 64).decode("ascii", "replace")
        if out.strip() == "N":
            return None
        try:
            return b"".join(binascii.unhexlify(line) for line in out.split()).decode("utf-8")
        except (ValueError, binascii.Error, UnicodeDecodeError):
            raise DeviceError("the device sent %s in a form that makes no sense" % path) from None

    def _dirs_code(self, path):
        """Code that makes the missing parent folders of ``path`` (each folder once per flash)."""
        parts = path.strip("/").split("/")[:-1]
        folders = ["/" + "/".join(parts[: i + 1]) for i in range(len(parts))]
        folders = [f for f in folders if f not in self.made]
        self.made.update(folders)
        if not folders:
            return ""
        return "for d in %r:\n try:\n  os.mkdir(d)\n except OSError:\n  pass\n" % folders

    def stage(self, path, data, progress=None):
        """Write ``data`` to ``path + STAGED``; calls ``progress(done, total)`` per chunk.

        A small file takes one exec: folders, open, write, close."""
        for code, done in write_code(path + STAGED, data, self._dirs_code(path)):
            self.exec(code)
            if progress:
                progress(done, len(data))

    def switch(self, staged, remove, new_main):
        """Move staged files into place; main.py is parked first and comes back last."""
        code = _SWITCH % {
            "parked": PARKED,
            "remove": list(remove),
            "staged": [p for p in staged if p != "/main.py"],
            "suffix": STAGED,
            "new_main": bool(new_main),
            "manifest": MANIFEST,
        }
        if b"switched" not in self.exec(code):
            raise DeviceError("the device did not confirm switching the files in")

    def remove(self, paths):
        if paths:
            self.exec("import os\nfor p in %r:\n try:\n  os.remove(p)\n except OSError:\n  pass\n" % list(paths))

    def reset(self):
        """Hard reset so main.py starts; the USB port of a real Pico drops right after."""
        try:
            self.transport.exec_raw_no_follow("import machine\nmachine.reset()")
        except (TransportError, OSError, serial.SerialException):
            pass  # the board resets before it can answer

    def release(self):
        """Leave the raw REPL and soft-reset, so a board runs its main.py again."""
        if self.transport is None:
            return
        try:
            self.transport.exit_raw_repl()
            self.transport.serial.write(b"\x04")
        except (OSError, serial.SerialException):
            pass

    def close(self):
        if self.transport is not None:
            try:
                self.transport.close()
            except (OSError, serial.SerialException):
                pass
            self.transport = None


def _reported(error_output):
    """The DeviceError for a traceback the device sent: DeviceFull for ENOSPC."""
    last = untrusted.printable((error_output.strip().splitlines() or ["?"])[-1][:200])
    if "ENOSPC" in last or "28" in last.replace("]", " ").split():
        return DeviceFull(last)
    return DeviceError("the device reported an error: %s" % last)


class _TooMuch(Exception):
    """Raised inside exec_bounded's reader when a device sends more than it may."""
