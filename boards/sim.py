"""The simulator board: the same drivers as the Pico, on fake buses that carry their byte
streams to the host front-end (host_tools/sim.py) and a virtual clock it drives.

Runs in the MicroPython unix port. The host starts ``micropython main.py board=sim
link=R,W [seed=N] [oled=sh1106] [dice=neopixel]``; R and W are inherited pipe file
descriptors carrying the simulator's wire (boards/sim_protocol.py, its one definition):
the parts' bus bytes to the host, and at each wait (``W``) the button levels back. Time in
the firmware moves only with those waits, so a headless run is deterministic and as fast
as the pipes allow.

Busy mode (``busy=R[:REF]``, ``sim --busy-time``; boards/sim_busy.py): work costs virtual
time too (the unix port's time for it x R / 100, plus bus and flash times), sent before
each wait; the host answers with the button edges of the busy stretch and the wait, and
each edge runs the buttons' pin interrupt handler at its own virtual time, as on the
chip. ``busylog=record|replay`` adds the stretches' clock readings (boards/sim_busy_log.py).
Without ``link`` (tests) the board runs on a scripted ``Loopback``
(boards/sim_extras.py, with the other parts a plain run does not need).
``fault=oled`` / ``fault=dice`` makes that part missing, to exercise the fault path;
``memprobe=MS`` measures the live heap for ``make bench``; ``presslog=1`` prints each
button event the game takes (boards/sim_extras.log_presses); ``battery=MV`` or
``battery=FROM:TO:MS`` simulates VSYS (see ``battery``).
"""

from micropython import const
import time

from boards.hardware import Hardware, NoDice, NoOLED
from boards.sim_protocol import I2C_MSG, MARK_LEN, MARK_MSG, WAIT_MSG, LEVELS_LEN, U32_LEN, EDGE_LEN
from boards.sim_protocol import WireButtonPin, WireOutPin, WirePWM, WireSPI, put_u32, send_u32, u16
from game_dice import DiceSource

# One OLED frame's I2C message (sim_protocol.FRAME_BYTES, its address and control byte and
# the header) fits whole; sim-only RAM.
_OUT_SIZE = const(1040)
_N_BUTTONS = const(10)
_N_PIXELS = const(45)
_OLED_ADDR = const(0x3C)
_ENODEV = const(19)
_I2C_BYTE_NS = const(22500)  # busy mode: 9 bit times at 400 kHz
_SPI_BYTE_NS = const(800)  # 8 bit times at 10 MHz


class PipeLink:
    """Buffered messages to the host over a pipe; ``wait`` flushes and reads the buttons."""

    def __init__(self, fd_in, fd_out):
        self._in = open("/dev/fd/%d" % fd_in, "rb")
        self._out = open("/dev/fd/%d" % fd_out, "wb")
        self._buf = bytearray(_OUT_SIZE)
        self._pos = 0
        self._reply = bytearray(LEVELS_LEN)
        # Busy mode's replies (an edge; the ms slept), made once: its frames allocate
        # nothing, as the chip's do.
        self._reply4 = bytearray(U32_LEN)
        self._reply6 = bytearray(EDGE_LEN)
        self.buttons = 0
        self.pins = ()  # busy mode: the button pins whose interrupt handlers edges run
        self.meter = None  # busy mode: a full pipe's wait is no device work (BusyMeter.pause)
        import sys

        if hasattr(sys, "atexit"):
            sys.atexit(self.flush)  # the last picture (a crash message) still reaches the host

    def begin(self, kind, length):
        """Start a message of ``length`` payload bytes; follow with ``add`` calls."""
        if self._pos + 3 > _OUT_SIZE:
            self.flush()
        buf = self._buf
        pos = self._pos
        buf[pos] = kind
        buf[pos + 1] = length & 0xFF
        buf[pos + 2] = length >> 8
        self._pos = pos + 3

    def add(self, data):
        n = len(data)
        if self._pos + n > _OUT_SIZE:
            self.flush()
            if n > _OUT_SIZE:
                self._out.write(data)
                return
        self._buf[self._pos : self._pos + n] = data
        self._pos += n

    def add_byte(self, value):
        if self._pos >= _OUT_SIZE:
            self.flush()
        self._buf[self._pos] = value
        self._pos += 1

    def flush(self):
        if self._pos:
            pos = self._pos
            self._pos = 0
            meter = self.meter
            if meter is not None:
                meter.pause()
            try:
                self._out.write(self._buf, pos)
            except OSError:  # EPIPE: the host closed the pipe, the simulator quit
                raise SystemExit(0)
            if meter is not None:
                meter.resume()

    def wait_message(self, ms):
        send_u32(self, WAIT_MSG, ms)
        self.flush()

    def read_exact(self, n):
        """``n`` reply bytes (the levels, a number and an edge use buffers made once: read
        before the next)."""
        if n == LEVELS_LEN:
            buf = self._reply
        elif n == U32_LEN:
            buf = self._reply4
        elif n == EDGE_LEN:
            buf = self._reply6
        else:
            buf = bytearray(n)
        got = 0
        while got < n:
            k = self._in.readinto(memoryview(buf)[got:]) if got else self._in.readinto(buf)
            if not k:
                raise SystemExit(0)  # the host closed the pipe: the simulator quit
            got += k
        return buf

    def wait(self, ms):
        self.wait_message(ms)
        self.buttons = u16(self.read_exact(LEVELS_LEN))
        return self.buttons


def Loopback(script=None):
    """A link to nowhere for tests (boards/sim_extras.py, loaded only when used)."""
    from boards.sim_extras import Loopback as Link

    return Link(script)


def _mark(link, meter):
    """Busy mode: ``M`` busy-so-far ms (4) and that clock reading's number in the stretch
    (2) before a screen transfer, so the host knows when the screen changed inside a
    stretch (``SimDevice.shown``; the number for record and replay, else 0)."""
    busy = meter.busy_ns() // 1000000
    number = meter.reading_number()
    link.begin(MARK_MSG, MARK_LEN)
    put_u32(link, busy)
    link.add_byte(number & 0xFF)
    link.add_byte(number >> 8)


class SimI2C:
    """``meter``: busy mode's BusyMeter, charged the bus time of every byte."""

    def __init__(self, link, missing=False, meter=None):
        self._link = link
        self._missing = missing
        self._meter = meter

    def writevto(self, addr, vecs):
        if self._missing:
            raise OSError(_ENODEV)
        n = 1
        for v in vecs:
            n += len(v)
        link = self._link
        if self._meter is not None:
            self._meter.io_ns += n * _I2C_BYTE_NS
            _mark(self._link, self._meter)
        link.begin(I2C_MSG, n)
        link.add_byte(addr)
        for v in vecs:
            link.add(v)

    def writeto(self, addr, buf):
        if self._missing:
            raise OSError(_ENODEV)
        link = self._link
        if self._meter is not None:
            self._meter.io_ns += (1 + len(buf)) * _I2C_BYTE_NS
        link.begin(I2C_MSG, 1 + len(buf))
        link.add_byte(addr)
        link.add(buf)


# SPI, the CS pin, the buttons and the buzzer's PWM are sim_protocol's Wire* parts, shared
# with the browser board.


def SimNeoPixel(link, n):
    """Stands in for ``neopixel.NeoPixel`` (boards/sim_extras.py: only with dice=neopixel)."""
    from boards.sim_extras import SimNeoPixel as Strip

    return Strip(link, n)


class VirtualClock:
    """Milliseconds that pass only when the firmware sleeps (the host answers each wait).

    With ``memprobe`` (config ``memprobe=MS``, for ``make bench`` and tests) it also
    collects garbage every MS virtual ms (busy mode too) and keeps the largest live heap
    seen, the least free heap and the most garbage made between two probes after the
    first two, printed at exit as ``heap-peak <bytes> free <bytes> garbage <bytes>``.
    """

    def __init__(self, link, memprobe=0, meter=None):
        self._link = link
        self.now = time.ticks_add(0, 0)
        # Busy mode (config ``busy=R``): work costs virtual time, measured by ``meter``
        # (boards/sim_busy.BusyMeter); ``frozen`` while edge handlers stamp their time.
        self.meter = meter
        self.frozen = False
        if meter is not None:  # imported once: an import statement allocates each time
            from boards.sim_busy import wait_busy

            self._wait_busy = wait_busy
        self._probe_every = memprobe
        self._probe_left = memprobe
        self.heap_peak = 0
        self._free_low = 1 << 30
        self._garbage = 0
        self._probes = 0
        self._after = 0  # mem_alloc after the last probe's collection
        if memprobe:
            import sys

            sys.atexit(self._report)

    def ticks_ms(self):
        if self.meter is None or self.frozen:
            return self.now
        return time.ticks_add(self.now, self.meter.busy_ns() // 1000000)

    def idle_ms(self, ms):
        """Busy mode's ``hw.idle``: sleep up to ``ms``, ended early by a button edge."""
        start = self.now
        self._wait_busy(self._link, self, ms, True)
        self._probe_due(time.ticks_diff(self.now, start))

    def sleep_ms(self, ms):
        if self.meter is not None:
            start = self.now
            self._wait_busy(self._link, self, ms if ms > 0 else 0)
            self._probe_due(time.ticks_diff(self.now, start))
        elif ms > 0:
            self._link.wait(ms)
            self.now = time.ticks_add(self.now, ms)
            self._probe_due(ms)

    def _probe_due(self, ms):
        if self._probe_every:
            self._probe_left -= ms
            if self._probe_left <= 0:
                self._probe_left = self._probe_every
                self._probe()

    def _probe(self):
        import gc

        garbage = gc.mem_alloc() - self._after  # a collection between: a lower bound
        gc.collect()
        used = gc.mem_alloc()
        self._after = used
        self._probes += 1
        if used > self.heap_peak:
            self.heap_peak = used
        if gc.mem_free() < self._free_low:
            self._free_low = gc.mem_free()
        if self._probes > 2 and garbage > self._garbage:
            self._garbage = garbage

    def _report(self):
        import sys

        self._probe()
        print("heap-peak", self.heap_peak, "free", self._free_low, "garbage", self._garbage)
        print("heap-modules", " ".join(sorted(sys.modules)))  # the bench's breakdown
        # The interned names' pools are live heap too, and grow a whole pool at a time.
        import micropython

        micropython.qstr_info()


def make_link(config):
    link = config.get("link")
    if link is None:
        return Loopback()
    if not isinstance(link, str):
        return link  # a link object handed in by a test
    fd_in, fd_out = link.split(",")
    return PipeLink(int(fd_in), int(fd_out))


def oled_panel(i2c, addr, model):
    """The OLED driver for the sim board's ``oled`` option on ``i2c``: ``"sh1106"``, else
    the SSD1306 (only the chosen driver's code is loaded). The Pico boards name their
    driver in their own module instead (flash copies only what a board imports)."""
    if model == "sh1106":
        from drivers.sh1106 import SH1106 as Panel
    else:
        from drivers.ssd1306 import SSD1306 as Panel
    return Panel(i2c, addr)


def build(config):
    from drivers.buttons import Buttons
    from drivers.buzzer import Buzzer

    link = make_link(config)
    fault = config.get("fault", "")
    hw = Hardware()
    meter = None
    if config.get("busy"):
        from boards.sim_busy import BusyMeter, meter_files

        log = config.get("busylog")
        if log:
            from boards.sim_busy_log import LoggingMeter

            meter = LoggingMeter(config.get("busy"), log == "replay")
            if meter.replaying:
                meter.read_replay(link)  # the first stretch's readings
                meter.restart()
        else:
            meter = BusyMeter(config.get("busy"))
        link.meter = meter
        hw.fs = meter_files(meter)  # the save layer's renames and removals metered too
    clock = VirtualClock(link, int(config.get("memprobe", 0)), meter)
    hw.link = link
    hw.clock = clock
    hw.ticks_ms = clock.ticks_ms
    hw.sleep_ms = clock.sleep_ms
    hw.lightsleep = clock.sleep_ms
    i2c = SimI2C(link, missing=fault == "oled", meter=meter)

    hw.oled = hw.part(lambda: oled_panel(i2c, _OLED_ADDR, config.get("oled")), NoOLED)

    def make_dice():
        if fault == "dice":
            raise OSError("MAX7219 LED chain: 5 chips did not echo on MISO (simulated fault)")
        if config.get("dice") == "neopixel":
            from drivers.neopixel_dice import NeoPixelDice

            return NeoPixelDice(SimNeoPixel(link, _N_PIXELS))
        from drivers.max7219 import MAX7219Dice

        return MAX7219Dice(WireSPI(link, meter, _SPI_BYTE_NS), WireOutPin(link))

    hw.dice = hw.part(make_dice, NoDice)
    pins = [WireButtonPin(link, i) for i in range(_N_BUTTONS)]
    hw.buttons = Buttons(pins, active=0, clock=clock.ticks_ms)
    if meter is not None:  # edges from the host, stamped as the chip's pin interrupt does
        from boards.hardware import FlashGuard
        from boards.sim_busy import guard_with_edges, poll_with_edges

        link.pins = pins
        meter.link = link
        hw.buttons.start(WireButtonPin.IRQ_FALLING, WireButtonPin.IRQ_RISING)
        poll_with_edges(hw.buttons, link, clock)
        guard_with_edges(hw.buttons, link, clock)
        hw.fs = FlashGuard(hw.buttons, clock.ticks_ms, hw.fs)  # as on rp2: flash writes stop the interrupts
        if config.get("idle") != "0":  # idle=0: 5 ms frames throughout (make bench's "before")
            hw.idle = clock.idle_ms
    if config.get("presslog"):
        from boards.sim_extras import log_presses

        log_presses(hw.buttons, clock)
    hw.button_down = lambda button: pins[button].value() == 0
    hw.buzzer = Buzzer(WirePWM(link), clock=clock.ticks_ms)
    seed = config.get("seed")
    hw.dice_source = DiceSource(int(seed) if seed not in (None, "") else None)
    hw.battery_mv = battery(config.get("battery"), clock)
    return hw


def battery(spec, clock):
    """VSYS for ``battery=MV`` or ``battery=FROM:TO:MS`` (boards/sim_extras.py); None
    without the option (USB power: nothing to measure)."""
    if not spec:
        return None
    from boards.sim_extras import battery as simulated

    return simulated(spec, clock)
