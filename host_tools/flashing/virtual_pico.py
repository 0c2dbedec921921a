"""A virtual Pico: the MicroPython unix port served on a pseudo-terminal, like a board
(the ``virtual-pico`` command serves one; ``running`` starts that command for tests and
benchmarks).

How it emulates a board:
- Flash: DIR (made when missing) is mounted at ``/`` inside the interpreter, the working
  folder is ``/`` and ``sys.path`` is ``['', '.frozen', '/lib']`` as on the rp2 port, so
  device paths such as ``/drivers/x.py`` land in ``DIR/drivers/x.py``. DIR is a sandbox:
  ``..`` stops at ``/`` as on a board, so ``mpremote fs cat :../x`` cannot reach the host
  (links placed inside DIR by the host's user are followed: they are that user's own).
- Reset: the unix port exits where a board soft-resets (Ctrl-D in the REPL). The server
  then prints ``MPY: soft reboot`` and starts a fresh interpreter, back in the raw REPL if
  that is where the reset came from (mpremote relies on that). ``machine.reset()`` is a
  hard reset: a fresh interpreter in the friendly REPL.
- Boot: every start runs ``/boot.py`` when present, like a board. ``/main.py`` is NOT run:
  the unix port has no buttons or display, and a game loop would hold the REPL. Play the
  flashed tree with ``python -m host_tools sim --code-dir DIR --flash-dir DIR``.
- Test modes: ``--fake-mpy N`` / ``--fake-version X.Y.Z`` change what
  ``sys.implementation`` reports, ``--flash-size BYTES`` makes ``os.statvfs`` report a
  filesystem of that size (used bytes are counted from DIR), and ``--not-micropython``
  serves a CPython REPL instead, which has no raw REPL.
"""

import contextlib
import os
import pty
import select
import signal
import subprocess
import sys
import tty

import host_tools

HARD_RESET_EXIT = 77  # exit status the stand-in machine.reset() uses
RAW_BANNER = b"raw REPL; CTRL-B to exit\r\n"
FRIENDLY_PROMPT = b"\r\n>>> "
SOFT_REBOOT = b"MPY: soft reboot\r\n"
FLASH_BLOCK = 4096  # littlefs block size on the rp2 port

# Runs inside MicroPython before its REPL starts (``micropython -i``). Placeholders are
# filled with repr() values by boot_script().
_BOOT_TEMPLATE = """
import os, sys
os.umount('/')

class _Flash:
    # DIR as the flash at '/', and a sandbox: every path is resolved here, '..' stops at
    # the top as on a board, so no client (mpremote fs cat :../x, fs cp) reaches the host
    # outside DIR. The host side is an unrooted VfsPosix given full paths (a rooted one's
    # rename builds both paths in one buffer and renames the target onto itself).
    def __init__(self, root):
        self.root = root
        self.host = os.VfsPosix()
        self.cwd = '/'

    def _inside(self, path):
        if not path.startswith('/'):
            path = self.cwd + '/' + path
        parts = []
        for part in path.split('/'):
            if part == '..':
                if parts:
                    parts.pop()
            elif part and part != '.':
                parts.append(part)
        return '/' + '/'.join(parts)

    def _real(self, path):
        inside = self._inside(path)
        return self.root if inside == '/' else self.root + inside

    def mount(self, readonly, mkfs):
        pass

    def umount(self):
        pass

    def open(self, path, mode):
        return self.host.open(self._real(path), mode)

    def ilistdir(self, path):
        return self.host.ilistdir(self._real(path))

    def stat(self, path):
        return self.host.stat(self._real(path))

    def mkdir(self, path):
        return self.host.mkdir(self._real(path))

    def rmdir(self, path):
        if self._inside(path) == '/':
            raise OSError(16)  # EBUSY: the flash itself
        return self.host.rmdir(self._real(path))

    def remove(self, path):
        return self.host.remove(self._real(path))

    def rename(self, old, new):
        return self.host.rename(self._real(old), self._real(new))

    def chdir(self, path):
        inside = self._inside(path)
        if not self.host.stat(self._real(inside))[0] & 0x4000:
            raise OSError(20)  # ENOTDIR
        self.cwd = inside

    def getcwd(self):
        return self.cwd

    def statvfs(self, path):
        if %(flash_size)r is None:
            return self.host.statvfs(self.root)
        total = %(flash_size)r // %(block)d
        free = max(0, total - self._used(self.root))
        return (%(block)d, %(block)d, total, free, free, 0, 0, 0, 0, 255)

    def _used(self, folder):
        blocks = 1
        for entry in self.host.ilistdir(folder):
            path = folder + '/' + entry[0]
            if entry[1] == 0x4000:
                blocks += self._used(path)
            else:
                blocks += (self.host.stat(path)[6] + %(block)d - 1) // %(block)d or 1
        return blocks

os.mount(_Flash(%(root)r), '/')
os.chdir('/')
del _Flash
del sys.path[:]
sys.path.extend(('', '.frozen', '/lib'))
import machine as _machine

class _Board:
    def __init__(self, real):
        self._real = real
    def __getattr__(self, name):
        return getattr(self._real, name)

class _Machine(_Board):
    def reset(self):
        sys.exit(%(hard_reset)d)

sys.modules['machine'] = _Machine(_machine)
if %(fake_impl)r is not None:
    class _Sys(_Board):
        pass
    _fake = _Sys(sys)
    _real_impl = sys.implementation
    class _Impl:
        name = _real_impl.name
        version = %(fake_impl)r[0] or _real_impl.version
        _mpy = _real_impl._mpy if %(fake_impl)r[1] is None else %(fake_impl)r[1]
        _machine = 'virtual Pico (unix port) with RP2040'
    _fake.implementation = _Impl()
    sys.modules['sys'] = _fake
del _Board
try:
    os.stat('/boot.py')
except OSError:
    pass
else:
    try:
        exec(open('/boot.py').read(), {'__name__': '__main__'})
    except Exception as exc:
        sys.print_exception(exc)
"""


def boot_script(root, fake_mpy=None, fake_version=None, flash_size=None):
    """Text of the MicroPython start-up script for one virtual Pico."""
    fake_impl = None
    if fake_mpy is not None or fake_version is not None:
        fake_impl = (tuple(fake_version) if fake_version else None, fake_mpy)
    return _BOOT_TEMPLATE % {
        "root": os.path.abspath(root),
        "hard_reset": HARD_RESET_EXIT,
        "fake_impl": fake_impl,
        "flash_size": flash_size,
        "block": FLASH_BLOCK,
    }


class VirtualPico:
    """Relays bytes between the client's pty and an interpreter's pty; restarts on reset."""

    def __init__(self, command, env=None):
        self.command = command
        self.env = env
        self.port_master, self.port_slave = pty.openpty()
        tty.setraw(self.port_slave)
        self.port = os.ttyname(self.port_slave)
        self.child = None
        self.child_master = None
        self.raw_mode = False
        self.hold_output_until = None  # after a soft reset in raw mode: hide the banner
        self.tail = b""
        self.held = b""
        self.stopping = False
        self.ready = False  # the interpreter reached its REPL at least once
        self.failed = None  # why serving stopped on its own
        self.on_ready = None  # called once, when the interpreter first reaches its REPL

    def start_child(self, raw):
        master, slave = pty.openpty()
        tty.setraw(slave)
        self.child = subprocess.Popen(
            self.command, stdin=slave, stdout=slave, stderr=slave, env=self.env, close_fds=True
        )
        os.close(slave)
        self.child_master = master
        self.raw_mode = raw
        self.ready = False
        self.tail = b""
        self.held = b""
        if raw:
            os.write(master, b"\x01")
            self.hold_output_until = RAW_BANNER
        else:
            self.hold_output_until = None

    def stop_child(self):
        if self.child is not None and self.child.poll() is None:
            self.child.terminate()
            try:
                self.child.wait(2)
            except subprocess.TimeoutExpired:
                self.child.kill()
                self.child.wait()
        if self.child_master is not None:
            os.close(self.child_master)
            self.child_master = None

    def _track_mode(self, data):
        seen = self.tail + data
        raw_at = seen.rfind(RAW_BANNER)
        friendly_at = seen.rfind(FRIENDLY_PROMPT)
        if raw_at != friendly_at:  # both -1 means: no change
            self.raw_mode = raw_at > friendly_at
        self.tail = seen[-32:]

    def _from_child(self, data):
        self._track_mode(data)
        if not self.ready and (b">>> " in self.tail or RAW_BANNER in self.tail):
            self.ready = True
            if self.on_ready is not None:
                self.on_ready, ready = None, self.on_ready
                ready(self)
        if self.hold_output_until is not None:
            self.held += data
            at = self.held.find(self.hold_output_until)
            if at < 0:
                return
            data = self.held[at:]
            self.held = b""
            self.hold_output_until = None
        self._to_client(data)

    def _to_client(self, data):
        try:
            os.write(self.port_master, data)
        except OSError:
            pass  # nobody reading and the buffer is full: a board drops output too

    def _child_exited(self):
        status = self.child.wait()
        was_raw = self.raw_mode
        os.close(self.child_master)
        self.child_master = None
        if self.stopping:
            return
        if not self.ready:  # it never reached a prompt: restarting would only spin
            self.failed = "the interpreter exited with status %s before its REPL started" % status
            self.stopping = True
            return
        if status == HARD_RESET_EXIT:
            self.start_child(raw=False)
        else:
            self._to_client(SOFT_REBOOT)
            self.start_child(raw=was_raw)

    def serve(self):
        """Serve until stop() is called (from a signal handler)."""
        self.start_child(raw=False)
        while not self.stopping:
            watch = [self.port_master, self.child_master]
            try:
                ready, _, _ = select.select(watch, [], [], 0.2)
            except InterruptedError:
                continue
            if self.port_master in ready:
                data = os.read(self.port_master, 4096)
                if data and self.child_master is not None:
                    os.write(self.child_master, data)
            if self.child_master in ready:
                try:
                    data = os.read(self.child_master, 4096)
                except OSError:  # EIO: the interpreter has exited
                    data = b""
                if data:
                    self._from_child(data)
                else:
                    self._child_exited()
        self.stop_child()

    def stop(self, *_args):
        self.stopping = True

    def close(self):
        self.stop_child()
        os.close(self.port_master)
        os.close(self.port_slave)


def interpreter_command(folder, workdir, fake_mpy=None, fake_version=None, flash_size=None, not_micropython=False):
    """The command line of the interpreter behind the port (writes the boot script)."""
    if not_micropython:
        return [sys.executable, "-q", "-i", "-c", "import os; os.chdir(%r)" % os.path.abspath(folder)]
    script = os.path.join(workdir, "virtual_pico_boot.py")
    with open(script, "w") as out:
        out.write(boot_script(folder, fake_mpy, fake_version, flash_size))
    return [host_tools.micropython_command(), "-X", "heapsize=192K", "-i", script]


def interpreter_env():
    env = dict(os.environ)
    env.pop("MICROPYPATH", None)  # the boot script sets sys.path like a board's
    env.pop("PYTHONSTARTUP", None)
    return env


@contextlib.contextmanager
def running(folder, *options):
    """Run ``virtual-pico --dir folder [options]`` in a subprocess; yields the port path."""
    cmd = [sys.executable, "-m", "host_tools", "virtual-pico", "--dir", str(folder)] + list(options)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, cwd=host_tools.REPO)
    try:
        port = proc.stdout.readline().strip()
        if not port:
            raise RuntimeError("virtual-pico did not start (exit status %s)" % proc.wait())
        yield port
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        proc.stdout.close()
