"""The simulated handheld seen from the host: the firmware process, its wire and the chips.

Starts the unmodified firmware (``main.py``) in the MicroPython unix port with the ``sim``
board (boards/sim_protocol.py defines the wire; wire.py is the host's end), feeds every
I2C/SPI/WS2812 byte to the datasheet emulators in host_tools/emulators/ and answers each virtual-time wait with the
button levels of that moment. ``run_until(ms)`` advances the device's clock; the caller
decides the button levels through ``buttons`` (a bit mask, bit i = button i pressed).
By default it boots what a Pico runs: the tree ``flash`` builds (device_tree.py) with the
Pico's heap, so a run out of memory here is one on the device; ``code_dir=SOURCES`` runs
the .py sources instead, by default at SOURCE_HEAP (compiling at import needs heap the
device never spends).
"""

import os
import struct
import subprocess
import threading
import zlib

import host_tools
from host_tools.emulators.sh1106 import SH1106Emulator
from host_tools.emulators.ssd1306 import SSD1306Emulator
from host_tools.simulator import device_tree, wire
from host_tools.simulator.wire import P

# BUTTON_NAMES, BUTTONS and DeviceExited are re-exported: callers import them from here.
from host_tools.simulator.backend import (  # noqa: F401
    BUTTON_NAMES,
    BUTTONS,
    DeviceExited,
)

DEFAULT_FLASH = os.path.join(os.path.expanduser("~"), ".local", "share", "pico-yahtzee", "flash")

# The Pico's heap as the firmware meets it: the same free heap after `import rules, game,
# app, session` as the chip measured (docs/figures.md); 64-bit objects make the imports dearer.
DEVICE_HEAP = "276K"
SOURCES = "sources"  # code_dir for firmware/ and boards/ as .py, compiled at import
# Compiling at import: save_records.py needs ~46 KB free from .py, 11 KB as .mpy; the
# first lang.use compiles lang_en.py, its texts and the resolver. 304K was the least that
# ran the hello-screen test from source (main.py's imports to the first frames), once the
# interned names filled a qstr pool: the unix port then allocates the next whole, 14 KB.
SOURCE_HEAP = "312K"
# Busy mode's own code and meter (boards/sim_busy.py) hold heap the chip does not have:
# added to the heap, so the firmware meets the same free heap as in a plain run
# (tests/sim/test_busy_sim.py compares the two).
BUSY_HEAP_KB = 9
BUSY_LOG_HEAP_KB = 3  # and record/replay's (boards/sim_busy_log.py), for make bench


SEED_WRAP = 1 << 32


def mix_seed(seed):
    """The firmware's seed for ``--seed N``: N wraps at 2^32 (so any int is fine), then
    an integer hash (the finalizer of MurmurHash3, a bijection on 32 bits) so that nearby
    seeds give unrelated games, cut to 30 bits so it stays a small int on the Pico."""
    x = seed % SEED_WRAP
    x ^= x >> 16
    x = x * 0x85EBCA6B & 0xFFFFFFFF
    x ^= x >> 13
    x = x * 0xC2B2AE35 & 0xFFFFFFFF
    x ^= x >> 16
    return x & 0x3FFFFFFF


def put_table(flash_dir, name, host_path):
    """Make ``host_path`` the device file ``/name`` (a strategy table): a symlink, since
    the firmware only reads it; a copy where links are not allowed. A regular file of
    that name is the device's own table (flashed there): it stays as it is."""
    target = os.path.join(flash_dir, name)
    if os.path.islink(target):
        if os.path.realpath(target) == os.path.realpath(host_path):
            return
        os.remove(target)  # a link an earlier run made
    elif os.path.exists(target):
        return
    try:
        os.symlink(os.path.abspath(host_path), target)
    except OSError:
        import shutil

        shutil.copyfile(host_path, target)


def own_tables(flash_dir):
    """Strategy tables in the flash folder that are the device's own (regular files, not
    links the simulator made): ``--no-table`` cannot take them away without losing them."""
    return sorted(
        name
        for name in os.listdir(flash_dir)
        if name.startswith("strategy-") and name.endswith(".bin") and not os.path.islink(os.path.join(flash_dir, name))
    )


def remove_tables(flash_dir):
    """Take the simulator's table links out of the flash folder (the device without a
    table); the caller has checked ``own_tables`` first."""
    for name in os.listdir(flash_dir):
        path = os.path.join(flash_dir, name)
        if name.startswith("strategy-") and name.endswith(".bin") and os.path.islink(path):
            os.remove(path)


class ReplayDiverged(RuntimeError):
    """A busy-mode replay that did not take the recorded run's path."""


class SimDevice(wire.Parts):
    """The unix-port back-end (backend.py lists what every back-end offers)."""

    def __init__(
        self,
        seed=None,
        flash_dir=None,
        code_dir=None,
        heap=None,
        oled="ssd1306",
        dice="max7219",
        extra=(),
        tables=None,
        hold_at_boot=(0, 0),
        busy=None,
        busy_log=None,
    ):
        self.flash_dir = os.path.abspath(flash_dir or DEFAULT_FLASH)
        os.makedirs(self.flash_dir, exist_ok=True)
        for name, host_path in (tables or {}).items():
            put_table(self.flash_dir, name, host_path)
        wire.Parts.__init__(self, SH1106Emulator() if oled == "sh1106" else SSD1306Emulator(), dice)
        self.now = 0  # virtual ms since boot
        self.buttons = 0
        # (mask, ms): buttons held from power-on for ms of virtual time, on top of
        # ``buttons`` (a button held while plugging in: ROLL is safe mode).
        self.boot_mask, self.boot_until = hold_at_boot
        self.console = []
        # Busy mode: ``busy`` is busy.ratio(), the chip/unix-port speed ratio (simulator/busy.py);
        # the firmware then says how long each stretch of work took, and presses arrive
        # during it as edges. ``stretches`` lists (start ms, busy ms) of each stretch.
        self.busy = busy
        self.stretches = []
        # Busy mode, for make bench: ``busy_log="record"`` keeps ``readings``, a stretch's
        # (start ms, its clock readings in estimated chip us, the CRC of what it sent) for
        # every wait, and ``marks``, the (wait, reading) of each ``shown``; a recorded
        # ``readings`` instead replays it: the firmware gets the recorded readings and takes
        # the same path (else ReplayDiverged), and ``readings`` holds what this run measured
        # (boards/sim_busy_log.py).
        self.readings = [] if busy is not None and busy_log is not None else None
        self.marks = []
        self._replay = busy_log if isinstance(busy_log, list) else None
        self._stretch_readings = ()
        self._digest = 0  # CRC-32 of the stretch's messages but R: the path it took
        self.waits = 0  # waits answered (frames that slept)
        self.shown = []  # busy mode: virtual ms of each screen transfer
        # busy mode: (from, to) virtual ms of each call that may erase or program the flash
        # (to is None while it runs), and of each erase or program in them (interrupts off)
        self.flash_windows = []
        self.interrupts_off = []
        self._busy_ms = 0
        self._levels = 0  # busy mode: the mask the firmware last got ...
        self._sent_until = 0  # ... and the time up to which it got the edges
        self._buttons_at = None
        self._wake = False
        to_dev_r, to_dev_w = os.pipe()
        from_dev_r, from_dev_w = os.pipe()
        if heap is None and busy is not None:
            base = SOURCE_HEAP if code_dir == SOURCES else DEVICE_HEAP
            heap = "%dK" % (int(base[:-1]) + BUSY_HEAP_KB + (BUSY_LOG_HEAP_KB if busy_log is not None else 0))
        if code_dir == SOURCES:
            heap = heap or SOURCE_HEAP
            path = os.pathsep.join((host_tools.FIRMWARE, host_tools.REPO))
            main = os.path.join(host_tools.FIRMWARE, "main.py")
        else:
            heap = heap or DEVICE_HEAP
            code_dir = os.path.abspath(code_dir or device_tree.sync())
            path = code_dir
            main = os.path.join(code_dir, "main.py")
        args = [
            host_tools.micropython_command(),
            "-X",
            "heapsize=" + heap,
            main,
            "board=sim",
            "link=%d,%d" % (to_dev_r, from_dev_w),
            "oled=" + oled,
            "dice=" + dice,
        ]
        if seed is not None:
            args.append("seed=%d" % mix_seed(seed))
        if busy is not None:
            args.append("busy=%s" % busy)
            if busy_log is not None:
                args.append("busylog=%s" % ("replay" if self._replay is not None else "record"))
        args += list(extra)
        env = dict(os.environ)
        env["MICROPYPATH"] = path
        self.proc = subprocess.Popen(
            args,
            cwd=self.flash_dir,
            env=env,
            pass_fds=(to_dev_r, from_dev_w),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        os.close(to_dev_r)
        os.close(from_dev_w)
        self._to_dev = os.fdopen(to_dev_w, "wb", buffering=0)
        self._from_dev = os.fdopen(from_dev_r, "rb")
        self._console_thread = threading.Thread(target=self._read_console, daemon=True)
        self._console_thread.start()
        self.alive = True
        if self._replay is not None:
            self._write(self._replay_list(0))

    def _read_console(self):
        for line in self.proc.stdout:
            self.console.append(line.decode("utf-8", "replace").rstrip("\n"))

    def _read(self, n):
        data = self._from_dev.read(n)
        if len(data) < n:
            self.alive = False
            if self._replay is not None:
                self._replay_stopped()
            raise DeviceExited()
        return data

    def next_wait(self):
        """Process messages up to the firmware's next wait; returns its milliseconds."""
        while True:
            kind, head, payload = wire.read_message(self._read)
            if self.readings is not None and kind != P.READINGS_MSG:  # record/replay: the path taken
                self._digest = zlib.crc32(payload, zlib.crc32(head, self._digest))
            if kind in (P.WAIT_MSG, P.IDLE_MSG):  # IDLE, busy mode: a sleep that a button edge ends early
                self._wake = kind == P.IDLE_MSG
                self._end_stretch()
                return wire.u32(payload)
            if self.part_message(kind, payload):
                continue
            if kind == P.BUSY_MSG:
                self._busy_ms = wire.u32(payload)
            elif kind == P.READINGS_MSG:  # busy mode, record/replay: the stretch's clock readings
                self._stretch_readings = struct.unpack("<%dI" % (payload[0] | payload[1] << 8), payload[2:])
            elif kind == P.MARK_MSG:  # busy mode: a screen transfer at this moment of the stretch
                at, number = wire.u32_u16(payload)
                self.shown.append(self.now + at)
                if self.readings is not None:
                    self.marks.append((len(self.readings), number))
            elif kind == P.FLASH_CALL_MSG:  # busy mode: a flash call begins (1) or ends (0)
                begins, at = payload[0], wire.u32(payload[1:])
                if begins:
                    self.flash_windows.append((at, None))
                elif self.flash_windows:
                    self.flash_windows[-1] = (self.flash_windows[-1][0], at)
            elif kind == P.IRQ_OFF_MSG:  # busy mode: an erase or program, the interrupts off
                start, end = wire.u32(payload), wire.u32(payload[4:])
                self.interrupts_off.append((self.now + start, self.now + end))
            elif kind == P.EDGES_MSG:  # busy mode: the edges up to this moment of the stretch
                until = self.now + wire.u32(payload)
                self._write(self._edge_list(until + 1, self._buttons_at))

    def _end_stretch(self):
        if self.readings is None:
            return
        readings, self._stretch_readings = self._stretch_readings, ()
        digest, self._digest = self._digest, 0
        index = len(self.readings)
        if self._replay is not None:
            if index >= len(self._replay):
                raise ReplayDiverged("busy replay: the run went past the recorded run's end")
            _start, recorded, recorded_digest = self._replay[index]
            if len(readings) != len(recorded) or digest != recorded_digest:
                raise ReplayDiverged(
                    "busy replay: stretch %d (%d ms): it did not do what the recorded run's did" % (index, self.now)
                )
        self.readings.append((self.now, readings, digest))

    def _replay_stopped(self):
        """A replay's firmware stopped itself (boards/sim_busy_log.py): say where and why."""
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            return
        self._console_thread.join(timeout=10)
        for line in self.console:
            if line.startswith("busy replay: "):
                raise ReplayDiverged(
                    "busy replay: stretch %d (%d ms): %s" % (len(self.readings), self.now, line[len("busy replay: ") :])
                )

    def _replay_list(self, index):
        """The recorded readings of stretch ``index`` (past the recorded run's end: 0xFFFF,
        the firmware stops)."""
        if index >= len(self._replay):
            return wire.count(P.REPLAY_END)
        values = self._replay[index][1]
        return wire.count(len(values)) + b"".join(wire.u32_bytes(v) for v in values)

    def _boot(self, ms):
        return self.boot_mask if ms < self.boot_until else 0

    def answer(self, ms, buttons_at=None, until_ms=None):
        """Let ``ms`` of virtual time pass with the current ``buttons`` (busy mode: first
        the busy stretch the firmware reported; ``buttons_at`` gives the edges inside). An
        idle sleep ends at ``until_ms`` at the latest, as an early wake: the firmware sleeps
        until its next timer, and the caller's script may press a button after that."""
        self.waits += 1
        if self.busy is None:
            reply = wire.levels(self.buttons | self._boot(self.now))
            self.now += ms
        else:
            busy, self._busy_ms = self._busy_ms, 0
            if busy:
                self.stretches.append((self.now, busy))
            end = self.now + busy + ms
            slept = b""
            if self._wake:
                woke = self._first_edge(self.now + busy, end, buttons_at)
                if woke is not None:
                    end = woke + 1  # the edge's interrupt, then the firmware runs
                if until_ms is not None and end > until_ms:
                    end = max(until_ms, self.now + busy)
                slept = wire.u32_bytes(end - self.now - busy)
            reply = self._edge_list(end, buttons_at) + wire.levels(self._levels) + slept
            if self._replay is not None:
                reply += self._replay_list(len(self.readings))
            self.now = end
            self._sent_until = end
        self._write(reply)

    def _write(self, data):
        try:
            self._to_dev.write(data)
        except BrokenPipeError:
            self.alive = False
            raise DeviceExited()

    def _first_edge(self, start, end, buttons_at):
        """The first time in [start, end) the levels differ from the last sent, or None."""
        at = buttons_at if buttons_at is not None else (lambda _ms: self.buttons)
        times = [start] + [t for t in getattr(at, "edges", ()) if start < t < end]
        if start < self.boot_until < end:
            times.append(self.boot_until)
        for t in sorted(times):
            if at(t) | self._boot(t) != self._levels:
                return t
        return None

    def _edge_list(self, end, buttons_at):
        """Busy mode: the level changes from the last sent up to ``end`` (exclusive), as
        offsets from the stretch's start (``now``)."""
        start = max(self.now, self._sent_until)
        if end <= start:
            return wire.count(0)
        if buttons_at is None:
            mask = self.buttons

            def buttons_at(_ms):
                return mask

        times = [start] + [t for t in getattr(buttons_at, "edges", ()) if start < t < end]
        if start < self.boot_until < end:
            times.append(self.boot_until)
        edges = []
        last = self._levels
        for t in sorted(times):
            mask = buttons_at(t) | self._boot(t)
            if mask != last:
                edges.append(wire.edge(t - self.now, mask))
                last = mask
        self._levels = last
        self.buttons = last
        self._sent_until = end
        return wire.count(len(edges)) + b"".join(edges)

    def run_until(self, until_ms, buttons_at=None):
        """Advance the device to ``until_ms``; ``buttons_at(ms)`` gives levels (else ``buttons``)."""
        self._buttons_at = buttons_at
        while self.now < until_ms:
            ms = self.next_wait()
            if buttons_at is not None and self.busy is None:
                self.buttons = buttons_at(self.now)
            self.answer(ms, buttons_at, until_ms)

    def close(self):
        for stream in (self._to_dev, self._from_dev):
            try:
                stream.close()
            except OSError:
                pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._console_thread.join(timeout=2)
        self.alive = False
