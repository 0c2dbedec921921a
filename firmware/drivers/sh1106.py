"""SH1106 128x64 OLED (the common 1.3" module) on I2C: a MONO_VLSB frame buffer.

The SH1106 has no horizontal addressing: ``show()`` writes page by page, each page
preceded by "page address, column low nibble, column high nibble". Its RAM is 132
columns wide and these modules wire the glass to RAM columns 2..129, so visible
column 0 is RAM column 2. With the segment remap used here (0xA1, RAM column 131-n drives
SEG n) the visible window stays columns 2..129, so the offset is the same either way.
Register values from the SH1106 datasheet (Sino Wealth, V2.3), section "Commands".
"""

from micropython import const

from drivers.oled import OLED, PAGES, WIDTH, CTRL_DATA

_SET_PAGE = const(0xB0)  # | page 0..7
_COLUMN_LOW = const(0x00)  # | low nibble of the RAM column
_COLUMN_HIGH = const(0x10)  # | high nibble
_COLUMN_OFFSET = const(2)  # RAM column shown in visible column 0


class SH1106(OLED):
    """SH1106 on I2C; ``i2c`` is a ready machine.I2C (or SoftI2C), ``addr`` 0x3C/0x3D."""

    PART = "SH1106"
    # Power-on sequence with the display still off (oled.OLED lights it after clearing RAM).
    # fmt: off
    INIT = bytes((
        0xAE,  # display off
        0xD5, 0x80,  # clock divide 1, oscillator +15 % (as the SSD1306 modules run)
        0xA8, 0x3F,  # multiplex ratio 64
        0xD3, 0x00,  # no display offset
        0x40,  # display start line 0
        0xAD, 0x8B,  # built-in DC-DC on (the modules' panel supply)
        0xA1,  # segment remap: upright on the usual modules
        0xC8,  # COM scan from COM63 down to COM0
        0xDA, 0x12,  # common pads: alternative configuration (the 128x64 panel wiring)
        0x81, 0x80,  # contrast (reset value)
        0xD9, 0x22,  # pre-charge 2 clocks / discharge 2 clocks (reset value)
        0xDB, 0x35,  # VCOM deselect level (reset value)
        0x32,  # charge pump 8.0 V (reset value)
        0xA4,  # display follows RAM
        0xA6,  # not inverted
    ))
    # fmt: on

    def _prepare(self):
        # Per page: the command transfer and the data transfer, both made once. The column
        # bytes never change; only the page byte differs, so each page has its own command.
        buf = memoryview(self.buffer)
        low = _COLUMN_LOW | (_COLUMN_OFFSET & 0x0F)
        high = _COLUMN_HIGH | (_COLUMN_OFFSET >> 4)
        self._page_cmds = []
        self._page_data = []
        for page in range(PAGES):
            self._page_cmds.append(bytes((0x00, _SET_PAGE | page, low, high)))
            self._page_data.append((CTRL_DATA, buf[page * WIDTH : (page + 1) * WIDTH]))

    def show(self):
        i2c = self._i2c
        addr = self._addr
        cmds = self._page_cmds
        data = self._page_data
        for page in range(PAGES):
            i2c.writeto(addr, cmds[page])  # control byte 0x00 is the first byte
            i2c.writevto(addr, data[page])
