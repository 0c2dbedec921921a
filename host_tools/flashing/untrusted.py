"""Reading a device's ``data/`` folder as untrusted input (``pull``), and the checks shared
by every host tool that takes names or text from a device or a flash folder.

A USB device can report anything and a flash folder can hold anything (links out of it,
FIFOs, sparse files, names with escape sequences). So: a name from outside is accepted
only when it is a plain name (``plain_name_problem``), only regular files are read,
never through a link, each file and the whole copy are capped in size, and text from
outside is escaped before it reaches the terminal (``printable``). What is left out is
listed with the reason (``Copy.skipped``). See "Trust boundaries" in docs/architecture.md.
"""

import binascii
import os
import stat

import host_tools
from host_tools.flashing.errors import DeviceError, DeviceLost

MAX_NAME = 64  # characters in a name; the firmware's names are under 16
MAX_FILE = 64 * 1024  # bytes per file; the firmware's files are a few KiB
MAX_TOTAL = 1024 * 1024  # bytes in all
MAX_ENTRIES = 256  # entries listed in data/; the firmware makes about 20


def printable(text):
    """``text`` with every character a terminal could act on (controls, escapes, line
    and format characters) shown as a Python escape, e.g. ``\\x1b]0;PWNED\\x07``."""
    if not isinstance(text, str):
        text = repr(text)
    out = []
    for ch in text:
        if ch.isprintable() and ch != "\\":
            out.append(ch)
        elif ch == "\\":
            out.append("\\\\")
        else:
            out.append(ch.encode("unicode_escape").decode("ascii"))
    return "".join(out)


def plain_name_problem(name):
    """None when ``name`` is a plain file name a host may join onto a folder, else why not."""
    if not isinstance(name, str):
        return "not text"
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:  # bytes a host folder's name held that are not UTF-8
        return "not UTF-8"
    if not name or name in (".", ".."):
        return "not a file name"
    if "/" in name or "\\" in name or name.startswith("~"):
        return "not a plain name (a path)"
    if not all(ch.isprintable() for ch in name):
        return "control characters in the name"
    if len(name) > MAX_NAME:
        return "longer than %d characters" % MAX_NAME
    return None


def device_path_problem(path):
    """None when ``path`` is an absolute device path made of plain names, else why not."""
    if not isinstance(path, str) or not path.startswith("/") or path == "/":
        return "not an absolute path"
    if len(path) > 4 * MAX_NAME:
        return "longer than %d characters" % (4 * MAX_NAME)
    for part in path[1:].split("/"):
        problem = plain_name_problem(part)
        if problem:
            return problem
    return None


# --- paths given on the command line ----------------------------------------------------
def shown(path):
    """A path for a message: escaped, and bytes a terminal cannot show as \\x.. escapes."""
    if isinstance(path, str):
        try:  # a command-line argument that was not UTF-8: its bytes as \\x.. escapes
            path = path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        except UnicodeEncodeError:
            pass  # other lone surrogates: printable() escapes them as \\ud...
    return printable(path).replace("\\\\x", "\\x")


def text_problem(option, value):
    """One line when ``value`` (an option's text) is empty or not UTF-8, else None."""
    if value == "":
        return "%s is empty" % option
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return "%s %s is not UTF-8 text" % (option, shown(value))
    if "\0" in value:
        return "%s holds a NUL character" % option
    return None


def port_problem(port):
    """One line when ``--port`` cannot name a serial port (a folder, a regular file, a
    FIFO, a device that is not a terminal such as /dev/zero), else None. A missing port
    is not a usage error: the device may be unplugged."""
    problem = text_problem("--port", port)
    if problem:
        return problem
    if os.path.isdir(port):
        return "--port %s is a folder, not a serial port" % shown(port)
    try:
        mode = os.stat(port).st_mode
    except OSError:
        return None  # missing or unreachable: the connection says which
    if not stat.S_ISCHR(mode):
        kind = "a regular file" if stat.S_ISREG(mode) else "a FIFO" if stat.S_ISFIFO(mode) else "not a device"
        return "--port %s is %s, not a serial port" % (shown(port), kind)
    try:  # a character device: only a terminal (tty, pty) is a serial port; /dev/zero is not
        fd = os.open(port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    except OSError:
        return None  # busy or forbidden: the connection names it
    try:
        if not os.isatty(fd):
            return "--port %s is a device but not a serial port" % shown(port)
    finally:
        os.close(fd)
    return None


def folder_problem(option, folder):
    """One line naming why ``folder`` (given as ``option``) cannot be a folder this tool
    writes in (not UTF-8, a file, under a file, not writable), or None; nothing is made."""
    problem = text_problem(option, folder)
    if problem:
        return problem
    if os.path.exists(folder) and not os.path.isdir(folder):
        return "%s %s is not a folder" % (option, shown(folder))
    if host_tools.name_too_long(folder):
        return "%s %s...: the name is too long for the filesystem" % (option, shown(folder[:60]))
    probe = nearest_existing(folder)
    if not os.path.isdir(probe):
        return "%s %s: %s is not a folder" % (option, shown(folder), shown(probe))
    if not host_tools.writable_folder(probe):
        return "%s %s: nothing can be written in %s" % (option, shown(folder), shown(probe))
    return None


def nearest_existing(path):
    """``path`` or its closest ancestor that exists."""
    probe = os.path.abspath(path)
    while not os.path.exists(probe) and os.path.dirname(probe) != probe:
        probe = os.path.dirname(probe)
    return probe


class Copy:
    """What was read: ``files`` {name: bytes}, ``skipped`` [(name, reason)], ``found``
    False when there is no data folder at all; ``beside``: which of the ``beside`` names
    asked for (folders next to it, e.g. a push's ``data.pushed``) exist then."""

    def __init__(self):
        self.files = {}
        self.skipped = []
        self.found = True
        self.total = 0
        self.beside = []

    def take(self, name, size_hint):
        """None when a file of about ``size_hint`` bytes may still be read, else why not."""
        problem = plain_name_problem(name)
        if problem:
            return problem
        if name in self.files:
            return "listed twice"
        if size_hint is not None and size_hint > MAX_FILE:
            return "larger than %d KiB" % (MAX_FILE // 1024)
        if size_hint is not None and self.total + size_hint > MAX_TOTAL:
            return "over the %d KiB limit for the whole copy" % (MAX_TOTAL // 1024)
        return None

    def add(self, name, data):
        why = self.take(name, len(data))
        if why:
            self.skipped.append((name, why))
        else:
            self.files[name] = data
            self.total += len(data)

    def write(self, folder):
        """Write the files into ``folder`` (made fresh by the caller); names are plain."""
        for name, data in sorted(self.files.items()):
            with open(os.path.join(folder, name), "wb") as out:
                out.write(data)


def read_folder(folder, data_dir, beside=()):
    """Copy of ``folder/data_dir``: regular files only, never through a link, capped.
    Without it, ``beside`` lists which of ``data_dir + suffix`` are folders there."""
    copy = Copy()
    source = os.path.join(folder, data_dir)
    try:
        info = os.lstat(source)
    except FileNotFoundError:
        copy.found = False
        for suffix in beside:
            try:
                if stat.S_ISDIR(os.lstat(source + suffix).st_mode):
                    copy.beside.append(data_dir + suffix)
            except OSError:
                pass
        return copy
    if stat.S_ISLNK(info.st_mode):
        copy.skipped.append((data_dir, "a link; only the folder itself is read"))
        copy.found = False
        return copy
    if not stat.S_ISDIR(info.st_mode):
        copy.skipped.append((data_dir, "not a folder"))
        copy.found = False
        return copy
    with os.scandir(source) as entries:
        listed = sorted(entries, key=lambda e: e.name)
    for entry in listed[:MAX_ENTRIES]:
        name = entry.name
        why = plain_name_problem(name)
        if why is None:
            why = _read_regular(entry.path, copy, name)
        if why:
            copy.skipped.append((name, why))
    if len(listed) > MAX_ENTRIES:
        copy.skipped.append(("(%d more entries)" % (len(listed) - MAX_ENTRIES), "more than %d entries" % MAX_ENTRIES))
    return copy


def _read_regular(path, copy, name):
    """Reads one file into ``copy``; returns why not when it is skipped."""
    try:
        info = os.lstat(path)
    except OSError as exc:
        return "unreadable (%s)" % (exc.strerror or exc)
    if stat.S_ISLNK(info.st_mode):
        return "a link"
    if stat.S_ISDIR(info.st_mode):
        return "a folder"
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file"
    why = copy.take(name, info.st_size)
    if why:
        return why
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)  # O_NOFOLLOW, O_NONBLOCK: a link or FIFO swapped in now cannot trap us
    except OSError as exc:
        return "unreadable (%s)" % (exc.strerror or exc)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return "not a regular file"
        chunks, size = [], 0
        while size <= MAX_FILE:
            chunk = os.read(fd, MAX_FILE + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        return "unreadable (%s)" % (exc.strerror or exc)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    why = copy.take(name, len(data))
    if why:
        return why
    copy.add(name, data)
    return None


# --- from a device, through the raw REPL -------------------------------------------------
# Each entry as hex (a name can hold any character, newlines included), kind, size.
_LIST = """import os, binascii
try:
    _it = os.ilistdir(%(folder)r)
except OSError as e:
    print('N', e.args[0])
    for _s in %(beside)r:
        try:
            if os.stat(%(folder)r + _s)[0] & 0x4000:
                print('B', _s)
        except OSError:
            pass
else:
    _n = 0
    for e in _it:
        _n += 1
        if _n > %(most)d:
            print('M')
            break
        _name = e[0] if isinstance(e[0], bytes) else str(e[0]).encode()
        print('E', binascii.hexlify(_name).decode(), e[1], e[3] if len(e) > 3 else -1)
"""

# At most ``most`` bytes of one file, base64 in lines; whatever the listing said its size is.
_READ = """import binascii
_f = open(%(path)r, 'rb')
try:
    _left = %(most)d
    while _left > 0:
        _b = _f.read(min(_left, 384))
        if not _b:
            break
        _left -= len(_b)
        print(binascii.b2a_base64(_b).decode().strip())
finally:
    _f.close()
"""


def read_device(device, data_dir, beside=()):
    """Copy of the device's ``/data_dir`` (a connected ``flashing.device.Device``);
    without it, ``beside`` lists which of ``data_dir + suffix`` are folders there."""
    copy = Copy()
    out = device.exec_bounded(
        _LIST % {"folder": data_dir, "most": MAX_ENTRIES, "beside": tuple(beside)}, 64 * MAX_ENTRIES + 256
    ).decode("ascii", "replace")
    entries = []
    for line in out.splitlines():
        parts = line.split()
        if parts[:1] == ["N"]:
            copy.found = False
            errno = parts[1] if len(parts) > 1 else "?"
            if errno != "2":  # ENOENT: nothing saved yet; anything else is damage
                copy.skipped.append(
                    (data_dir, "not a folder" if errno == "20" else "unreadable (error %s)" % errno[:8])
                )
            continue  # the folders beside it (B lines) follow
        if parts[:1] == ["B"]:
            if not copy.found and len(parts) == 2 and parts[1] in beside:  # only a name asked for
                copy.beside.append(data_dir + parts[1])
            continue
        if not copy.found:
            continue
        if parts[:1] == ["M"]:
            copy.skipped.append(("(more entries)", "more than %d entries" % MAX_ENTRIES))
            continue
        if len(parts) != 4 or parts[0] != "E":
            continue  # not ours: the device printed something else
        try:
            raw = binascii.unhexlify(parts[1])
            kind, size = int(parts[2]), int(parts[3])
        except (ValueError, binascii.Error):
            copy.skipped.append((parts[1][: 2 * MAX_NAME], "a listing line that makes no sense"))
            continue
        try:
            name = raw.decode("utf-8")
        except UnicodeDecodeError:
            copy.skipped.append((repr(raw[:MAX_NAME]), "a name that is not UTF-8"))
            continue
        entries.append((name, kind, size))
    if not copy.found:
        return copy
    for name, kind, size in sorted(entries):
        why = plain_name_problem(name)
        if why is None and kind != 0x8000:
            why = "a folder" if kind == 0x4000 else "not a regular file"
        if why is None:
            why = copy.take(name, size if size >= 0 else None)
        if why is None:
            data, why = _read_device_file(device, data_dir + "/" + name)
        if why is None:
            why = copy.take(name, len(data))
            if why is None:
                copy.add(name, data)
        if why:
            copy.skipped.append((name, why))
    return copy


def _read_device_file(device, path):
    """``(bytes, None)`` or ``(None, why not)``; a lost device raises DeviceLost."""
    most = MAX_FILE + 1  # one byte more than allowed: tells "too big" from "just fits"
    try:
        text = device.exec_bounded(_READ % {"path": path, "most": most}, most * 4 // 3 + most // 256 * 2 + 1024)
    except DeviceLost:
        raise
    except DeviceError as exc:
        return None, "unreadable on the device (%s)" % exc
    try:
        return b"".join(binascii.a2b_base64(line) for line in text.split()), None
    except (binascii.Error, ValueError):
        return None, "the device sent something that is not base64"
