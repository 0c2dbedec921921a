"""The hardware object every board's ``build(config)`` returns, and stand-ins for parts
that failed at boot.

A part that does not answer (no OLED at its I2C address, a LED chain that does not echo)
is replaced by a silent stand-in and its error message (naming the part and its address)
is appended to ``faults``; main.py then shows the message on the part that works and on
the console instead of crashing in a loop.
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
    ``remove``, ``mkdir``, ``stat``; None: ``os`` and the builtin ``open``)."""

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
