"""Parts of the simulator board (sim.py) that a plain simulator run does not use: the
scripted ``Loopback`` link of the tests, the WS2812 strip stand-in (``dice=neopixel``),
the simulated battery (``battery=``) and the press log (``presslog=1``). sim.py imports
this module only when one of them is asked for, so the usual run keeps less code in RAM
(make bench).
"""

import time

from boards.sim_protocol import STRIP_MSG


class Loopback:
    """A link to nowhere for tests: output is counted, buttons come from ``script(ms)``."""

    def __init__(self, script=None):
        self.script = script
        self.buttons = 0
        self.bytes_out = 0
        self.elapsed = 0

    def begin(self, kind, length):
        self.bytes_out += 3

    def add(self, data):
        self.bytes_out += len(data)

    def add_byte(self, value):
        self.bytes_out += 1

    def flush(self):
        pass

    def wait(self, ms):
        self.elapsed += ms
        if self.script is not None:
            self.buttons = self.script(self.elapsed)
        return self.buttons


class SimNeoPixel:
    """Stands in for ``neopixel.NeoPixel``: (r, g, b) items, GRB on the wire at ``write``."""

    def __init__(self, link, n):
        self._link = link
        self.n = n
        self.buf = bytearray(3 * n)

    def __len__(self):
        return self.n

    def __setitem__(self, i, rgb):
        buf = self.buf
        buf[3 * i] = rgb[1]
        buf[3 * i + 1] = rgb[0]
        buf[3 * i + 2] = rgb[2]

    def __getitem__(self, i):
        buf = self.buf
        return (buf[3 * i + 1], buf[3 * i], buf[3 * i + 2])

    def write(self):
        self._link.begin(STRIP_MSG, len(self.buf))
        self._link.add(self.buf)


def battery(spec, clock):
    """VSYS for ``battery=MV`` (steady) or ``battery=FROM:TO:MS`` (FROM falling linearly
    to TO over MS virtual ms, to reach the low-battery warning)."""
    parts = [int(part) for part in spec.split(":")]
    if len(parts) == 1:
        return lambda: parts[0]
    start, end, span = parts

    def read():
        elapsed = time.ticks_diff(clock.now, 0)
        if elapsed > span:
            elapsed = span
        return start + (end - start) * elapsed // span

    return read


def log_presses(buttons, clock):
    """``presslog=1``: print ``PRESS event ms`` for every event the game takes from the
    buttons (tests compare them with the presses they made)."""
    get = buttons.get

    def logged():
        event = get()
        if event >= 0:
            print("PRESS", event, clock.now)
        return event

    buttons.get = logged
