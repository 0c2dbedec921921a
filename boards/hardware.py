"""The hardware object every board's ``build(config)`` returns, and stand-ins for parts
that failed at boot.

A part that does not answer (no OLED at its I2C address, a LED chain that does not echo)
is replaced by a silent stand-in and its error message (naming the part and its address)
is appended to ``faults``; main.py then shows the message on the part that works and on
the console instead of crashing in a loop.

``FlashGuard`` is the save layer's filesystem on a board whose flash writes stop the
interrupts (rp2; see its docstring).
"""

import framebuf
import time


class Hardware:
    """``oled``, ``dice``, ``buttons``, ``buzzer`` (or None), ``dice_source``, ``faults``;
    ``ticks_ms()`` / ``sleep_ms(ms)`` are the app's clock (virtual in the simulator);
    ``button_down(button)`` the raw state of a button now (ROLL held at power-on);
    ``battery_mv()`` (or None when the board cannot measure) and ``lightsleep(ms)``;
    ``idle(ms)`` (or None): sleep while nothing moves on screen, at most ``ms``, ended at
    once by a button's pin interrupt (rp2's timed lightsleep; None: the app keeps its
    5 ms frames); ``fs`` the filesystem the save layer uses (``open``, ``rename``,
    ``remove``, ``mkdir``, ``stat``; None: ``os`` and the builtin ``open``); ``glyphs``
    (or None), for a board that tells the screen as text (the web board):
    ``glyphs(glyph, width)`` returns a font's ``glyph(fb, number, x, y, inverted)`` (its
    cell ``width`` wide, ``number`` lang.glyph's) that draws and tells the board; main.py
    hands it to each font's ``listen``."""

    def __init__(self):
        self.oled = None
        self.dice = None
        self.buttons = None
        self.buzzer = None
        self.dice_source = None
        self.faults = []
        self.ticks_ms = time.ticks_ms
        self.sleep_ms = time.sleep_ms
        self.battery_mv = None
        self.lightsleep = time.sleep_ms
        self.idle = None
        self.button_down = _never_down  # raw level of a button now (safe-mode check)
        self.fs = None
        self.glyphs = None

    def part(self, make, stand_in):
        """``make()`` a part; on OSError record the message and return ``stand_in()``."""
        try:
            return make()
        except OSError as exc:
            message = str(exc.args[0]) if exc.args else repr(exc)
            self.faults.append(message)
            print("hardware fault:", message)
            return stand_in()


def _never_down(button):
    return False


class NoOLED(framebuf.FrameBuffer):
    """A frame buffer with nowhere to go: keeps the UI running without a panel."""

    missing = True

    def __init__(self):
        self.buffer = bytearray(1024)
        super().__init__(self.buffer, 128, 64, framebuf.MONO_VLSB)

    def show(self):
        pass

    def contrast(self, value):
        pass

    def power(self, on):
        pass


class NoDice:
    """Dice display stand-in: remembers what it was asked to show, lights nothing."""

    missing = True

    def __init__(self):
        self.faces = [0] * 5
        self.held = 0
        self.pictures = False

    def animals(self, on):
        self.pictures = bool(on)

    def show(self, faces, held_mask):
        for i in range(5):
            self.faces[i] = faces[i]
        self.held = held_mask

    def brightness(self, level):
        pass

    def power(self, on):
        pass


class FlashGuard:
    """The save layer's filesystem (``hw.fs``) where the flash's writes stop the
    interrupts: rp2 turns them off for every erase and program of its flash (45 ms for a
    sector), so a button edge made meanwhile reaches its handler only afterwards, with no
    time of its own. Each call that may erase or program (opening a file to write,
    writing, closing, renaming, removing, making a folder) is bracketed by the buttons
    driver's ``flash_begin(t)`` and ``flash_end(t)``, which then places those edges inside
    that time (drivers/buttons.py); reading is passed through. ``fs``: the filesystem
    guarded (None: ``os`` and the builtin ``open``); ``clock``: the board's ticks_ms."""

    def __init__(self, buttons, clock, fs=None):
        if fs is None:
            import os

            self.fs = os
            self._open = open
        else:
            self.fs = fs  # the filesystem guarded
            self._open = fs.open
        self.buttons = buttons
        self.clock = clock

    def begin(self):
        self.buttons.flash_begin(self.clock())

    def end(self):
        self.buttons.flash_end(self.clock())

    def open(self, path, mode="r"):
        if "w" not in mode and "a" not in mode and "+" not in mode:
            return self._open(path, mode)
        return GuardedFile(self.call(self._open, path, mode), self)

    def call(self, what, first, second=None):
        """``what(first)`` (or ``what(first, second)``), bracketed for the buttons."""
        self.begin()
        try:
            return what(first) if second is None else what(first, second)
        finally:
            self.end()

    def rename(self, old, new):
        self.call(self.fs.rename, old, new)

    def remove(self, path):
        self.call(self.fs.remove, path)

    def mkdir(self, path):
        self.call(self.fs.mkdir, path)

    def stat(self, path):
        return self.fs.stat(path)


class GuardedFile:
    """A file opened to write: ``write``, ``flush`` and ``close`` may program the flash."""

    def __init__(self, f, guard):
        self._f = f
        self._guard = guard

    def write(self, data):
        return self._guard.call(self._f.write, data)

    def flush(self):
        self._guard.call(_flush, self._f)

    def close(self):
        self._guard.call(_close, self._f)

    def read(self, n=-1):
        return self._f.read(n)

    def seek(self, offset, whence=0):
        return self._f.seek(offset, whence)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _flush(f):
    f.flush()


def _close(f):
    f.close()
