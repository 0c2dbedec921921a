"""Shared part of the 128x64 I2C OLED drivers (SSD1306 and SH1106).

Both controllers speak the same I2C framing: after the address comes a control byte,
0x00 ("the rest of this transfer are commands") or 0x40 ("the rest is display RAM data"),
and they share the basic commands (contrast, invert, display on/off). They differ in how
RAM is addressed, so each controller module supplies its init sequence and ``show()``.

The frame buffer is MONO_VLSB: byte ``page * 128 + x`` holds pixels (x, 8*page .. 8*page+7),
bit 0 at the top, which is exactly the controllers' GDDRAM layout, so ``show()`` sends the
buffer as is. Every transfer uses buffers made here once; nothing is allocated per frame.
"""

import framebuf
from micropython import const

WIDTH = const(128)
HEIGHT = const(64)
PAGES = const(8)
_DEFAULT_ADDR = const(0x3C)  # SA0 low; 0x3D with SA0 high

# Control bytes (Co = 0: no further control bytes in this transfer; D/C# picks the target).
CTRL_COMMANDS = b"\x00"
CTRL_DATA = b"\x40"

# Commands both controllers share (SSD1306 datasheet section 10.1, SH1106 section 9).
_SET_CONTRAST = const(0x81)
_DISPLAY_NORMAL = const(0xA6)
_DISPLAY_INVERSE = const(0xA7)
_DISPLAY_OFF = const(0xAE)
_DISPLAY_ON = const(0xAF)


class OLED(framebuf.FrameBuffer):
    """Base of the controller classes; use ``SSD1306`` or ``SH1106``, not this."""

    PART = "OLED"  # controller name for error messages; set by each subclass
    INIT = b""  # power-on command sequence, display left off; set by each subclass

    def __init__(self, i2c, addr=_DEFAULT_ADDR):
        self.width = WIDTH
        self.height = HEIGHT
        self.buffer = bytearray(WIDTH * PAGES)
        super().__init__(self.buffer, WIDTH, HEIGHT, framebuf.MONO_VLSB)
        self._i2c = i2c
        self._addr = addr
        # One command plus at most one argument; the memoryviews are made once so that
        # sending a one-byte command does not slice (and allocate) at run time.
        self._cmd = bytearray(2)
        self._cmd_one = (CTRL_COMMANDS, memoryview(self._cmd)[:1])
        self._cmd_two = (CTRL_COMMANDS, self._cmd)
        self._prepare()
        try:
            self.write_commands(self.INIT)
            self.fill(0)
            self.show()  # clear the RAM before the panel lights: power-on RAM is random
            self.power(True)
        except OSError:
            # ENODEV / ETIMEDOUT from the bus: nobody acknowledged the address.
            raise OSError("%s OLED not found at I2C 0x%02X (check SDA/SCL wiring)" % (self.PART, addr))

    def _prepare(self):
        """Hook for the controller to build its own transfer buffers before init."""

    def write_commands(self, commands):
        """Send a sequence of command bytes (a bytes/bytearray/memoryview) in one transfer."""
        self._i2c.writevto(self._addr, (CTRL_COMMANDS, commands))

    def command(self, cmd, arg=-1):
        """Send one command byte, with its argument byte when ``arg`` >= 0."""
        self._cmd[0] = cmd
        if arg < 0:
            self._i2c.writevto(self._addr, self._cmd_one)
        else:
            self._cmd[1] = arg
            self._i2c.writevto(self._addr, self._cmd_two)

    def contrast(self, value):
        """Panel brightness 0..255 (segment current); out-of-range values are clamped."""
        self.command(_SET_CONTRAST, 0 if value < 0 else 255 if value > 255 else value)

    def power(self, on):
        """Display on (True) or sleep (False); RAM is kept while asleep."""
        self.command(_DISPLAY_ON if on else _DISPLAY_OFF)

    def invert(self, on):
        """Show RAM 0 bits lit (True) or normally (False); the frame buffer is unchanged."""
        self.command(_DISPLAY_INVERSE if on else _DISPLAY_NORMAL)

    def show(self):
        """Copy the frame buffer to the controller's display RAM."""
        raise NotImplementedError
