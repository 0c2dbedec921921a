"""The simulator board's busy mode (``busy=R[:REF]``, ``sim --busy-time``): the
firmware's work costs virtual time and button presses arrive during it as pin-interrupt
edges (boards/sim_protocol.py defines the wire messages B, E, L and M). Loaded only in that mode,
so the usual run and the tests' loopback keep their RAM. ``make bench`` records and
replays runs with boards/sim_busy_log.py.
"""

import time

from array import array

from boards.sim_protocol import BUSY_MSG, COUNT_LEN, EDGE_LEN, EDGES_MSG, IDLE_MSG, LEVELS_LEN, U32_LEN
from boards.sim_protocol import FLASH_CALL_LEN, FLASH_CALL_MSG, IRQ_OFF_LEN, IRQ_OFF_MSG
from boards.sim_protocol import put_u32, send_u32, u16, u32

# Flash costs the unix port does not have (datasheet figures, W25Q16JV typical): a
# sector erase (4 KiB) 45 ms, a 256-byte page program 0.4 ms; every file written is
# charged at least one erase (littlefs may often avoid it: an upper bound). The bus
# costs are in sim.py (SimI2C, and WireSPI's byte time).
ERASE_NS = 45000000
PAGE_NS = 400000
SECTOR = 4096
PAGE = 256
# rp2 turns the interrupts off for every flash erase and program
# (begin_critical_flash_section in ports/rp2/rp2_flash.c): the stretch's windows of it.
_WINDOWS = 16


class BusyMeter:
    """Virtual device time for the work since the last wait: the unix port's time for it
    times ``ratio / 100``, plus the I/O the buses were asked for (``io_ns``). The host time
    is the wall clock (microseconds) less the time this process waited for a CPU
    (``/proc/self/schedstat``'s run delay, brought up to date each time the process gets
    the CPU back): other load on the host does not count. Without /proc (macOS) it is
    the wall clock. ``ratio`` is the calibration in host_tools/simulator/busy.py (chip over
    unix port for ``Advisor()``)."""

    def __init__(self, spec):
        """``spec``: ``"R"`` or ``"R:REF"``: the ratio x 100, and the host us of
        ``reference`` when it was calibrated (the ratio then follows the host's speed now)."""
        ratio, _, ref = spec.partition(":")
        self.ratio = int(ratio)
        self.io_ns = 0
        self.logging = False  # boards/sim_busy_log.LoggingMeter: its readings go to the host
        self.replaying = False
        self.link = None  # the board's link: the windows of interrupts off go to the host (X)
        # The stretch's flash windows (from, to ms after its start), made once, and the
        # end of the one whose latched edges wait for their handler (-1: none).
        self._windows = array("i", bytes(8 * _WINDOWS))
        self._n_windows = 0
        self.latched_until = -1
        self._buf = bytearray(96)
        try:
            self._stat = open("/proc/self/schedstat", "rb")
        except OSError:
            self._stat = None
        self._reads = 0
        self._read_ns = 0
        self.restart()
        best = 1 << 30
        for _ in range(5):  # the meter's own cost, taken off: the fastest of 5 x 100 reads
            t = time.ticks_us()
            for _ in range(100):
                self.host_us()
            best = min(best, time.ticks_diff(time.ticks_us(), t))
        self._read_ns = best * 10  # ns a read: best us / 100 reads (ints: no float garbage)
        if ref:
            self.ratio = self.ratio * int(ref) // self.reference()
        self.restart()

    def reference(self):
        """Host us of a fixed piece of interpreter work (the fastest of 15)."""
        best = 1 << 30
        for _ in range(15):
            self.restart()
            total = 0
            for i in range(3000):
                total += (i * 7) & 0xFF
            host = self.host_us()
            if 0 < host < best:
                best = host
        return best if best < 1 << 30 else 1

    def _delay_us(self):
        """Microseconds this process has waited for a CPU so far (schedstat's 2nd field)."""
        self._reads += 1  # each read's own cost is taken off (busy_ns)
        stat = self._stat
        if stat is None:
            return 0
        stat.seek(0)
        buf = self._buf
        n = stat.readinto(buf)
        i = 0
        while i < n and buf[i] != 32:
            i += 1
        value = 0
        i += 1
        while i < n and 48 <= buf[i] <= 57:
            value = value * 10 + buf[i] - 48
            i += 1
        return value // 1000

    def host_us(self):
        """Host microseconds of work since ``restart``."""
        wall = time.ticks_diff(time.ticks_us(), self._wall)
        # The run delay is brought up to date when the process gets the CPU back, so it
        # may hold a wait from before ``restart``: never below zero.
        host = wall - (self._delay_us() - self._delay0) - self._paused
        return host if host > 0 else 0

    def pause(self):
        """Before the firmware waits for the host (a pipe exchange, not device work)."""
        self._pause_wall = time.ticks_us()
        self._pause_delay = self._delay_us()

    def resume(self):
        wall = time.ticks_diff(time.ticks_us(), self._pause_wall)
        self._paused += wall - (self._delay_us() - self._pause_delay)

    def flash(self, ns):
        """``ns`` of flash erase or program from now: chip time, with the interrupts off
        (edges inside latch until it ends: ``_run_edges``)."""
        at = self.busy_ns() // 1000000
        self.io_ns += ns
        end = self.busy_ns() // 1000000 + 1
        windows = self._windows
        n = self._n_windows
        if n and windows[2 * n - 1] > at:
            at = windows[2 * n - 1]  # the previous one ended in this ms: this one follows
        if n < _WINDOWS:
            windows[2 * n] = at
            windows[2 * n + 1] = end
            self._n_windows = n + 1
        else:
            windows[2 * n - 1] = end
        link = self.link
        if link is not None:
            link.begin(IRQ_OFF_MSG, IRQ_OFF_LEN)
            put_u32(link, at)
            put_u32(link, end)

    def window_end(self, ms):
        """The end of the flash window ``ms`` (after the stretch's start) falls in, or -1."""
        windows = self._windows
        for k in range(self._n_windows):
            if windows[2 * k] <= ms < windows[2 * k + 1]:
                return windows[2 * k + 1]
        return -1

    def restart(self, keep_ns=0):
        self._n_windows = 0
        self._reads = 0
        self._paused = 0
        self._wall = time.ticks_us()
        self._delay0 = self._delay_us()
        self.io_ns = keep_ns

    def busy_ns(self):
        # Small ints only: a float is a heap object in the unix port, and the frames of
        # busy mode must allocate nothing, as the chip's do (its GC runs as seldom).
        host_ns = self.host_us() * 1000 - self._reads * self._read_ns
        if host_ns < 0:
            host_ns = 0
        return host_ns * self.ratio // 100 + self.io_ns

    def reading_number(self):
        """The last clock reading's place in its stretch (kept only when logging)."""
        return 0


# Reading through littlefs on the chip: a call's overhead and the bytes from the flash
# cache (assumed figures: the flash at 62.5 MHz QSPI moves far more; littlefs's block
# lookups dominate). The host's own file time (a disk read may block) is not counted.
READ_CALL_NS = 50000
READ_BYTE_NS = 100


class MeteredFile:
    """A file: each call's host time is paused out of the meter (the host's disk is not
    the chip's flash) and the flash time charged instead; written bytes cost their
    erase and program time when the file is closed."""

    def __init__(self, f, meter, writing):
        self._f = f
        self._meter = meter
        self._writing = writing
        self._n = 0

    # Each call spelled out (no ``*args``, no bound method kept): a call allocates
    # nothing, as the chip's file calls do.
    def read(self, n=-1):
        meter = self._meter
        meter.pause()
        data = self._f.read(n)
        meter.resume()
        meter.io_ns += READ_CALL_NS + len(data) * READ_BYTE_NS
        return data

    def readinto(self, buf):
        meter = self._meter
        meter.pause()
        n = self._f.readinto(buf)
        meter.resume()
        meter.io_ns += READ_CALL_NS + (n or 0) * READ_BYTE_NS
        return n

    def seek(self, offset, whence=0):
        meter = self._meter
        meter.pause()
        at = self._f.seek(offset, whence)
        meter.resume()
        return at

    def write(self, data):
        meter = self._meter
        meter.pause()
        n = self._f.write(data)
        meter.resume()
        self._n += n if n is not None else len(data)
        return n

    def flush(self):
        meter = self._meter
        meter.pause()
        self._f.flush()
        meter.resume()

    def close(self):
        meter = self._meter
        meter.pause()
        self._f.close()
        meter.resume()
        n = self._n
        self._n = 0
        if self._writing:
            self._meter.flash(((n + SECTOR - 1) // SECTOR or 1) * ERASE_NS + ((n + PAGE - 1) // PAGE) * PAGE_NS)
            self._writing = False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __getattr__(self, name):
        return getattr(self._f, name)


def meter_files(meter):
    """Every file opened from now on is metered (``open`` is the builtin the storage,
    records and strategy-table modules use); returns the save layer's filesystem
    (``hw.fs``), whose calls are metered too."""
    import builtins

    real = builtins.open

    def metered_open(path, mode="r", *args):
        meter.pause()
        f = real(path, mode, *args)
        meter.resume()
        meter.io_ns += READ_CALL_NS
        return MeteredFile(f, meter, "w" in mode or "a" in mode or "+" in mode)

    builtins.open = metered_open
    return MeteredFS(meter)


class MeteredFS:
    """The save layer's ``os`` calls: the host's own time for each (a rename on this
    disk takes about 0.2 ms, which the ratio would make 25 chip ms) is paused out, and
    littlefs's charged: a rename, remove or mkdir commits its directory's metadata, a
    page program (assumed; a compaction's erase is in each written file's bound)."""

    def __init__(self, meter, host_os=None):
        if host_os is None:
            import os as host_os

        self._os = host_os
        self._meter = meter
        self.open = open  # metered_open, once meter_files has run

    def _commit(self, call, *paths):
        meter = self._meter
        meter.pause()
        try:
            call(*paths)
        finally:  # a refused call (no such file) still took littlefs its lookup
            meter.resume()
            meter.io_ns += READ_CALL_NS
            meter.flash(PAGE_NS)

    def rename(self, old, new):
        self._commit(self._os.rename, old, new)

    def remove(self, path):
        self._commit(self._os.remove, path)

    def mkdir(self, path):
        self._commit(self._os.mkdir, path)

    def stat(self, path):
        meter = self._meter
        meter.pause()
        try:
            return self._os.stat(path)
        finally:
            meter.resume()
            meter.io_ns += READ_CALL_NS


def _run_edges(link, clock, start):
    """Read an edge list (a count, then offset ms and mask each); each edge runs the pins'
    interrupt handlers with the clock at the edge's own virtual time, or, inside a flash
    window (interrupts off), latches the edge: the handler runs once the window ends, with
    the pin's level then and every edge latched in its ``flags()``, as rp2's GPIO interrupt
    does."""
    head = link.read_exact(COUNT_LEN)  # called, not kept: a bound method kept is an allocation
    pins = link.pins
    meter = clock.meter
    now = clock.now
    for _ in range(u16(head)):
        edge = link.read_exact(EDGE_LEN)
        offset = u32(edge)
        mask = u16(edge, 4)
        if 0 <= meter.latched_until <= offset:
            _run_latched(pins, clock, start, meter)
        changed = mask ^ link.buttons
        link.buttons = mask
        until = meter.window_end(offset)
        if until >= 0:
            meter.latched_until = until
        else:
            clock.now = time.ticks_add(start, offset)
            clock.frozen = True  # the handlers stamp the edge's own time
        for i in range(len(pins)):
            pin = pins[i]
            if changed & (1 << i) and pin.handler is not None:
                flag = pin.IRQ_FALLING if mask & (1 << i) else pin.IRQ_RISING  # pressed: low
                if until >= 0:
                    pin.latched |= flag
                else:
                    pin.latched = flag
                    pin.handler(pin)
                    pin.latched = 0
        clock.frozen = False
    if meter.latched_until >= 0:
        _run_latched(pins, clock, start, meter)
    clock.now = now


def _run_latched(pins, clock, start, meter):
    """The interrupts back on at the flash window's end: each pin with latched edges runs
    its handler once, in pin order."""
    clock.now = time.ticks_add(start, meter.latched_until)
    clock.frozen = True
    for i in range(len(pins)):
        pin = pins[i]
        if pin.latched:
            pin.handler(pin)
            pin.latched = 0
    clock.frozen = False
    meter.latched_until = -1


def edges_so_far(link, clock):
    """Before the buttons are polled: ``E`` (the work so far, ms) asks the host for the
    edges up to now, so a poll in the middle of a long stretch sees what the chip's
    interrupt would have recorded by then."""
    meter = clock.meter
    send_u32(link, EDGES_MSG, meter.busy_ns() // 1000000)
    link.flush()
    meter.pause()  # the host's answer is no device work
    _run_edges(link, clock, clock.now)
    meter.resume()


def wait_busy(link, clock, ms, wake=False):
    """The busy-mode wait: tell the host how long the work since the last wait took
    (``B``), then wait (``W``; ``wake``: ``L``, an idle sleep a button edge ends early, as
    a pin interrupt ends rp2's lightsleep); the host answers with the rest of the
    stretch's and the wait's button edges, then the levels (2) (``L``: then the ms slept, 4;
    a replay: then the next stretch's readings). Logging, the stretch's readings (``R``)
    go first."""
    meter = clock.meter
    busy_ns = meter.busy_ns()
    busy = busy_ns // 1000000
    if meter.logging:
        meter.send_log(link)
    send_u32(link, BUSY_MSG, busy)
    if wake:
        send_u32(link, IDLE_MSG, ms)
        link.flush()
    else:
        link.wait_message(ms)
    start = clock.now
    _run_edges(link, clock, start)
    link.buttons = u16(link.read_exact(LEVELS_LEN))
    if wake:
        ms = u32(link.read_exact(U32_LEN))
    if meter.replaying:
        meter.read_replay(link)
    clock.now = time.ticks_add(start, busy + ms)
    meter.restart(busy_ns - busy * 1000000)  # the part of a ms not charged yet
    return link.buttons


def _send_flash_call(link, begins, now_ms):
    link.begin(FLASH_CALL_MSG, FLASH_CALL_LEN)
    link.add_byte(begins)
    put_u32(link, now_ms)


def guard_with_edges(buttons, link, clock):
    """Busy mode: the flash calls' ``flash_begin`` and ``flash_end`` (boards/hardware's
    FlashGuard) first take the edges up to now, as the chip's interrupts would have by
    then, and tell the host (``G``: 1 at the begin, 0 at the end, and the ms)."""
    begin = buttons.flash_begin
    end = buttons.flash_end

    def begun(now_ms):
        edges_so_far(link, clock)
        _send_flash_call(link, 1, now_ms)
        begin(now_ms)

    def ended(now_ms):
        edges_so_far(link, clock)
        _send_flash_call(link, 0, now_ms)
        end(now_ms)

    buttons.flash_begin = begun
    buttons.flash_end = ended


def poll_with_edges(buttons, link, clock):
    """Busy mode: ``buttons.poll`` first fetches the edges up to now (edges_so_far)."""
    poll = buttons.poll

    def polled(now_ms):
        edges_so_far(link, clock)
        poll(now_ms)

    buttons.poll = polled
