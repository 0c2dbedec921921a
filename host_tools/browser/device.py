"""The web firmware seen from the host, for tests: the built site run by Node
(node_run.mjs, the same start-up as the page's worker), with the simulator back-end's
interface (host_tools/simulator/backend.py: ``run_until``, ``now``, ``buttons``,
``oled_pixels()``, ``oled_contrast()``, ``dice_pixels()`` ...), so a key script or a button timeline plays on
it exactly as on the unix port. The board's messages (boards/web.py, on the wire of
boards/sim_protocol.py) are decoded by the simulator's wire.Parts: the frame buffer as it
is, the dice through the same MAX7219 chain emulator as the sim.
"""

import os
import shutil
import subprocess
import threading

from host_tools.simulator import wire
from host_tools.simulator.backend import DeviceExited
from host_tools.simulator.unix_port import mix_seed
from host_tools.simulator.wire import P

HERE = os.path.dirname(os.path.abspath(__file__))


def node_command():
    node = shutil.which("node")
    if node is None:
        raise SystemExit("node not found: install Node.js 18 or newer (make test needs it for the emulated Pico too)")
    return node


class WebDevice(wire.Parts):
    """The site in ``site_dir`` under Node; ``data_dir`` holds its saved data/ (read at
    start, written after each change, as the page's IndexedDB)."""

    def __init__(self, site_dir, data_dir, seed=None, extra=()):
        wire.Parts.__init__(self)  # the frame buffer as the board sends it, MAX7219 dice
        self.data_dir = os.path.abspath(data_dir)
        self.now = 0
        self.buttons = 0
        self.console = []
        args = [node_command(), os.path.join(HERE, "node_run.mjs"), os.path.abspath(site_dir), self.data_dir]
        if seed is not None:
            args.append("seed=%d" % mix_seed(seed))
        args += list(extra)
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self._console_thread = threading.Thread(target=self._read_console, daemon=True)
        self._console_thread.start()
        self.alive = True

    def _read_console(self):
        for line in self.proc.stderr:
            self.console.append(line.decode("utf-8", "replace").rstrip("\n"))

    def _read(self, n):
        data = self.proc.stdout.read(n)
        if len(data) < n:
            self.alive = False
            raise DeviceExited()
        return data

    def next_wait(self):
        """Process messages up to the firmware's next wait; returns its milliseconds."""
        while True:
            kind, _head, payload = wire.read_message(self._read)
            if kind == P.WAIT_MSG:
                return wire.u32(payload)
            self.part_message(kind, payload)

    def answer(self, ms):
        self.now += ms
        try:
            self.proc.stdin.write(wire.levels(self.buttons))
            self.proc.stdin.flush()
        except BrokenPipeError:
            self.alive = False
            raise DeviceExited()

    def run_until(self, until_ms, buttons_at=None):
        while self.now < until_ms:
            ms = self.next_wait()
            if buttons_at is not None:
                self.buttons = buttons_at(self.now)
            self.answer(ms)

    def close(self):
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._console_thread.join(timeout=2)
        self.alive = False
