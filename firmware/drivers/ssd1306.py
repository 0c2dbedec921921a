"""SSD1306 128x64 OLED (the common 0.96" module) on I2C: a MONO_VLSB frame buffer.

Uses horizontal addressing: ``show()`` sets the column/page window to the whole panel and
sends the 1024-byte frame buffer in one data write (two I2C transfers per frame).
Register values from the SSD1306 datasheet (Solomon Systech, rev 1.1), section 10.
"""

from micropython import const

from drivers.oled import OLED, CTRL_COMMANDS, CTRL_DATA

_SET_ADDRESSING = const(0x20)  # + 0x00 horizontal
_SET_COLUMN_WINDOW = const(0x21)  # + start, end
_SET_PAGE_WINDOW = const(0x22)  # + start, end


class SSD1306(OLED):
    """SSD1306 on I2C; ``i2c`` is a ready machine.I2C (or SoftI2C), ``addr`` 0x3C/0x3D."""

    PART = "SSD1306"
    # Power-on sequence with the display still off (oled.OLED lights it after clearing RAM).
    # Segment remap and COM scan reversal (0xA1, 0xC8) give an upright picture on the usual
    # modules, whose glass is mounted with SEG0/COM0 at the bottom right.
    # fmt: off
    INIT = bytes((
        0xAE,  # display off
        0x20, 0x00,  # horizontal addressing
        0x40,  # display start line 0
        0xA1,  # segment remap: column 127 drives SEG0
        0xA8, 0x3F,  # multiplex ratio 64
        0xC8,  # COM scan from COM63 down to COM0
        0xD3, 0x00,  # no display offset
        0xDA, 0x12,  # COM pins: alternative configuration (the 128x64 panel wiring)
        0xD5, 0x80,  # clock divide 1, oscillator frequency reset value
        0xD9, 0xF1,  # pre-charge 15 clocks / discharge 1 clock (internal charge pump)
        0xDB, 0x30,  # VCOMH deselect about 0.83 x VCC
        0x81, 0xCF,  # contrast
        0xA4,  # display follows RAM
        0xA6,  # not inverted
        0x8D, 0x14,  # charge pump on: these modules have no external panel supply
    ))
    # fmt: on

    def _prepare(self):
        # Whole-panel window; also resets the RAM pointer to (0, 0) before each frame.
        self._window = (CTRL_COMMANDS, bytes((_SET_COLUMN_WINDOW, 0, 127, _SET_PAGE_WINDOW, 0, 7)))
        self._frame = (CTRL_DATA, self.buffer)

    def show(self):
        i2c = self._i2c
        i2c.writevto(self._addr, self._window)
        i2c.writevto(self._addr, self._frame)
