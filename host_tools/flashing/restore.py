"""Device side of ``push``: put a ``pull`` copy of ``data/`` back on the device.

Installing the one-file UF2 replaces the whole filesystem, records and saved game
included. ``pull`` copies them off first; ``push`` brings them back through the flash
tool's port logic (``Device``: raw REPL, bounded output).

The copy on the host is untrusted input, read by pull's rules in the other direction
(``local_files``): only regular files, never through a link, the same size limits and
name rule, and each save an intact frame of a store the firmware keeps, whose value
passes that store's own shape check (the firmware's ``save_store.Store`` and checks, run
here). Anything else refuses the whole push before the device is touched.

The switch is whole-folder, so a power cut at any moment leaves the old ``data/`` or the
new one (``program``): the copy is written into ``data.pushing/``, renamed to
``data.pushed/`` once complete, then ``data/`` -> ``data.pushold/`` and ``data.pushed/``
-> ``data/``. A cut between those two renames leaves no ``data/``: the firmware's boot
(``save_boot.finish_push``) and the next push both put ``data.pushed/`` in then. Leftovers
are removed by the next push.
"""

import io
import os
import stat

import host_tools
from host_tools.flashing import untrusted
from host_tools.flashing.build import DeviceFile
from host_tools.flashing.device import Device, DeviceError, DeviceFull, write_code

host_tools.use_firmware()

import save_boot  # noqa: E402  (firmware modules: their own checks decide what is a save)
import save_store  # noqa: E402
from host_tools import records_json  # noqa: E402  (imports storage: after use_firmware)

DATA = save_store.DATA_DIR  # the game's folder at the flash root (relative: the REPL's cwd is /)
PUSHING = DATA + ".pushing"  # the copy while it is written: never used unless complete
PUSHED = DATA + save_boot.PUSHED  # the complete copy, waiting to be switched in
REPLACED = DATA + ".pushold"  # the device's own data/ during the switch
_SLOTS = (".a", ".b")
_ASIDE = (".a.bad", ".b.bad")  # damaged copies the firmware kept aside: pushed as they are
_TEMP = ".tmp"  # a save cut short: the firmware never reads it, push leaves it out

# Shared by the scripts below: a folder tree removed (depth-bounded: a device's own old
# data/ may hold folders moved aside), and whether a path exists.
_HELPERS = """import os
def _rmtree(p, depth):
    try:
        names = [e[0] for e in os.ilistdir(p)]
    except OSError:
        try:
            os.remove(p)
        except OSError:
            pass
        return
    for n in names:
        q = p + '/' + n
        try:
            os.remove(q)
        except OSError:
            if depth < 4:
                _rmtree(q, depth + 1)
    try:
        os.rmdir(p)
    except OSError:
        pass
def _exists(p):
    try:
        os.stat(p)
        return True
    except OSError:
        return False
"""

# First: finish a switch a cut stopped (as save_boot.finish_push does at boot), then clear
# what earlier pushes left, and make the folder the copy is written into.
_CLEAN = (
    _HELPERS
    + """if not _exists(%(data)r) and _exists(%(pushed)r):
    os.rename(%(pushed)r, %(data)r)
if not _exists(%(data)r) and _exists(%(replaced)r):
    os.rename(%(replaced)r, %(data)r)
for p in (%(pushing)r, %(pushed)r, %(replaced)r):
    _rmtree(p, 0)
os.mkdir(%(pushing)r)
print('clean')
"""
)

_COMPLETE = """import os
os.rename(%(pushing)r, %(pushed)r)
print('complete')
"""

_SWITCH = (
    _HELPERS
    + """try:
    os.rename(%(data)r, %(replaced)r)
except OSError:
    pass
os.rename(%(pushed)r, %(data)r)
_rmtree(%(replaced)r, 0)
print('pushed')
"""
)

_NAMES = {"data": DATA, "pushing": PUSHING, "pushed": PUSHED, "replaced": REPLACED}


class PushError(Exception):
    """The push cannot start or failed; one line for the user."""


class BadCopy(PushError):
    """The local copy is not what ``pull`` makes (exit 2: change the input)."""


# --- the copy on the host ---------------------------------------------------------------
def store_checks():
    """{store name: its shape check} for every store the firmware keeps in data/ (the
    firmware's own checks, shared with the web page's upload: records_json)."""
    return records_json.store_checks()


class _OneFile:
    """A filesystem holding one file, for ``save_store.Store`` to load it from memory."""

    def __init__(self, path, data):
        self.path = path
        self.data = data

    def open(self, path, mode):
        if path != self.path or "r" not in mode:
            raise OSError(2)
        return io.BytesIO(self.data)


def save_problem(name, data, checks):
    """Why the file ``name`` holding ``data`` cannot go into the device's data/, or None."""
    for suffix in _ASIDE + _SLOTS + (_TEMP,):
        if name.endswith(suffix) and name[: -len(suffix)] in checks:
            break
    else:
        return "not a file the game keeps in %s/" % DATA
    if suffix not in _SLOTS:
        return None
    base = name[: -len(suffix)]
    store = save_store.Store(DATA + "/" + base, _OneFile(DATA + "/" + name, data), checks[base])
    try:
        store.load()
    except save_store.SaveError as err:
        return "not an intact save of the game (%s)" % err.reason
    except (ValueError, TypeError, KeyError, IndexError, RecursionError, MemoryError, UnicodeError):
        return "not an intact save of the game (unreadable)"
    if store.damaged:
        return "not an intact save of the game (%s)" % store.damaged[0][1]
    return None


def local_files(folder, no_copy_hint):
    """``(DeviceFiles, left out)`` for the copy in ``folder/data``: each file passes the
    rules above, else BadCopy names the first that does not. ``left out`` lists
    ``(name, why)`` of files push does not send (a save cut short). ``no_copy_hint``
    ends the message when there is no copy at all."""
    source = os.path.join(folder, DATA)
    try:
        info = os.lstat(source)
    except FileNotFoundError:
        raise BadCopy("no copy in %s (no %s/ folder): %s" % (untrusted.shown(folder), DATA, no_copy_hint)) from None
    except OSError as exc:
        raise BadCopy("cannot read %s: %s" % (untrusted.shown(source), exc.strerror or exc)) from None
    if stat.S_ISLNK(info.st_mode):
        raise BadCopy(
            "%s is a link; push reads only the folder pull made; nothing was changed" % untrusted.shown(source)
        )
    if not stat.S_ISDIR(info.st_mode):
        raise BadCopy("%s is not a folder; nothing was changed" % untrusted.shown(source))
    try:
        copy = untrusted.read_folder(folder, DATA)
    except OSError as exc:
        raise BadCopy(
            "cannot read %s: %s; nothing was changed" % (untrusted.shown(source), exc.strerror or exc)
        ) from None
    problems = list(copy.skipped)
    checks = store_checks()
    files, left_out = [], []
    for name, data in sorted(copy.files.items()):
        why = save_problem(name, data, checks)
        if why:
            problems.append((name, why))
        elif name.endswith(_TEMP):
            left_out.append((name, "a save cut short, which the game never reads"))
        else:
            files.append(DeviceFile("/%s/%s" % (DATA, name), data, os.path.join(source, name)))
    if problems:
        name, why = problems[0]
        more = " (and %d more)" % (len(problems) - 1) if len(problems) > 1 else ""
        raise BadCopy("%s: %s%s; nothing was changed" % (untrusted.shown(os.path.join(source, name)), why, more))
    if not files:
        raise BadCopy("%s holds no saves or records (files such as game.a, scores.a)" % untrusted.shown(source))
    return files, left_out


# --- on the device ----------------------------------------------------------------------
def program(files):
    """The device-side steps of a push, in order: ``[(step, code)]``; each step prints its
    name when it ends (``stage`` steps print nothing). Between ``clean`` and the rest,
    ``push`` scans the device for its free space."""
    steps = [("clean", _CLEAN % _NAMES)]
    for f in files:
        target = PUSHING + "/" + f.path.rsplit("/", 1)[-1]
        steps.extend(("stage", code) for code, _done in write_code(target, f.data))
    steps.append(("complete", _COMPLETE % _NAMES))
    steps.append(("pushed", _SWITCH % _NAMES))
    return steps


def push(port, files, check_identity):
    """Make the device's ``/data`` hold exactly ``files``; returns (changed, same, removed)
    counted against what it held. ``check_identity(identity, port)`` refuses what is not
    MicroPython (flash's check)."""
    steps = program(files)
    device = Device(port)
    device.connect()
    switching = False
    free = None
    try:
        check_identity(device.identify(), port)
        _run(device, steps[0])
        sizes, hashes, space = device.scan({f.path for f in files})
        block, free = space[0], space[1]  # (block size, free bytes, ...)
        # every file anew (a few KiB), the folder's own blocks, one block to spare
        need = sum(max(1, -(-len(f.data) // block)) for f in files) + 3
        if need > free // block:
            raise PushError(
                "not enough space on the device: the copy needs %d KiB, %d KiB are free; nothing was changed"
                % (need * block // 1024, free // 1024)
            )
        for step in steps[1:-1]:
            _run(device, step)
        switching = True
        _run(device, steps[-1])
        device.reset()
    except DeviceFull:
        if switching:  # the copy may be half switched in: the boot or the next push finish it
            raise PushError(
                "the device ran out of room while switching the copy in: it boots with its old data/ or the copy, and the next push finishes the job"
            ) from None
        _drop_copy(device)
        said = "" if free is None else " although it reported %d KiB free" % (free // 1024)
        raise PushError("the device is full: the copy did not fit%s; nothing was changed" % said) from None
    except DeviceError:
        if not switching:  # never while switching: data.pushed may be all that is left
            _drop_copy(device)
        raise
    except PushError:
        _drop_copy(device)
        device.release()
        raise
    finally:
        device.close()
    ours = {f.path for f in files}
    on_device = [p for p in sizes if p.startswith("/%s/" % DATA)]
    changed = sum(1 for f in files if hashes.get(f.path) != f.sha256)
    return changed, len(files) - changed, sum(1 for p in on_device if p not in ours)


def _run(device, step):
    name, code = step
    out = device.exec_bounded(code, 4096)
    if name != "stage" and name.encode() not in out:
        raise DeviceError("the device did not confirm the push's %s step" % name)


def _drop_copy(device):
    """Remove the half-written copy; the device's data/ was never touched."""
    try:
        device.exec_bounded(_HELPERS + "_rmtree(%r, 0)\n_rmtree(%r, 0)\n" % (PUSHING, PUSHED), 4096)
    except DeviceError:
        pass  # the next push removes it first
