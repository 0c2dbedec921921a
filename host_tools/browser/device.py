"""The web firmware seen from the host, for tests: the built site run by Node
(node_run.mjs, the same start-up as the page's worker), with the simulator back-end's
interface (host_tools/simulator/backend.py: ``run_until``, ``now``, ``buttons``,
``oled_pixels()``, ``oled_contrast()``, ``dice_pixels()`` ...), so a key script or a button timeline plays on
it exactly as on the unix port. The board's messages (boards/web.py) are decoded here:
the frame buffer as it is, the dice through the same MAX7219 chain emulator as the sim.
"""

import os
import shutil
import struct
import subprocess
import threading

from host_tools.emulators.max7219 import MAX7219ChainEmulator
from host_tools.simulator.backend import N_DICE, DeviceExited, dice_pixels_of
from host_tools.simulator.unix_port import mix_seed

HERE = os.path.dirname(os.path.abspath(__file__))


def node_command():
    node = shutil.which("node")
    if node is None:
        raise SystemExit("node not found: install Node.js 18 or newer (make test needs it for the emulated Pico too)")
    return node


def frame_pixels(frame):
    """64 rows x 128 of 0/1 from a MONO_VLSB frame buffer (byte page*128 + x, bit 0 on top)."""
    return [[(frame[(y >> 3) * 128 + x] >> (y & 7)) & 1 for x in range(128)] for y in range(64)]


class WebDevice:
    """The site in ``site_dir`` under Node; ``data_dir`` holds its saved data/ (read at
    start, written after each change, as the page's IndexedDB)."""

    def __init__(self, site_dir, data_dir, seed=None, extra=()):
        self.data_dir = os.path.abspath(data_dir)
        self.dice_kind = "max7219"
        self.chain = MAX7219ChainEmulator(N_DICE)
        self.frame = bytes(1024)
        self.panel_on = True
        # The page draws the glass at full brightness until the firmware sends a contrast.
        self.contrast = 0xFF
        self.tone = (0, 0)
        self.now = 0
        self.buttons = 0
        self.frames = 0
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
            kind, length = struct.unpack("<cH", self._read(3))
            payload = self._read(length)
            if kind == b"W":
                return struct.unpack("<I", payload)[0]
            if kind == b"F":
                self.frame = payload
                self.frames += 1
            elif kind == b"K":
                self.contrast = payload[0]
            elif kind == b"P":
                self.panel_on = bool(payload[0])
            elif kind == b"S":
                self.chain.spi_write(payload)
            elif kind == b"C":
                self.chain.cs(payload[0])
            elif kind == b"T":
                self.tone = struct.unpack("<IH", payload)

    def answer(self, ms):
        self.now += ms
        try:
            self.proc.stdin.write(struct.pack("<H", self.buttons))
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

    def oled_pixels(self):
        if not self.panel_on:
            return [[0] * 128 for _ in range(64)]
        return frame_pixels(self.frame)

    def oled_contrast(self):
        """The contrast the firmware last set (0..255; power saving dims it)."""
        return self.contrast

    def dice_pixels(self):
        return dice_pixels_of(self.dice_kind, self.chain, None)
