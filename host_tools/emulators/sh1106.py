"""SH1106 emulator (from the Sino Wealth SH1106 datasheet V2.3, "Commands").

RAM is 132 columns x 8 pages and there is only page addressing: 0xB0-0xB7 picks the page,
0x00-0x0F / 0x10-0x1F the low / high nibble of the column; each data byte advances the
column and never the page. Writing past column 131 is recorded as an error (the data is
lost). The 128-pixel glass of the 1.3" modules is wired to SEG 2..129, so with segment
remap (0xA1, RAM column 131-n drives SEG n) visible column 0 is RAM column 2, and without
it the picture is mirrored but still RAM columns 2..129. SSD1306-only commands (0x20-0x22
addressing, 0x8D charge pump, scrolling) do not exist here and are errors.
"""

from host_tools.emulators.oled import OLEDEmulator

_LENGTHS = {
    0x81: 2,
    0xA0: 1,
    0xA1: 1,
    0xA4: 1,
    0xA5: 1,
    0xA6: 1,
    0xA7: 1,
    0xA8: 2,
    0xAD: 2,
    0xAE: 1,
    0xAF: 1,
    0xD3: 2,
    0xD5: 2,
    0xD9: 2,
    0xDA: 2,
    0xDB: 2,
    0xE0: 1,
    0xE3: 1,
    0xEE: 1,
}


class SH1106Emulator(OLEDEmulator):
    """Feed it ``i2c_write(addr, data)``; read ``pixels()``, ``text()``, ``errors``."""

    PART = "SH1106"
    COLUMNS = 132
    CONTRAST_RESET = 0x80

    def __init__(self, addr=0x3C, seed=1):
        super().__init__(addr, seed)
        self.dc_dc = True  # 0xAD 0x8B is the power-on value
        self._rmw_column = None
        self._overflowed = False

    def command_length(self, cmd):
        if cmd <= 0x1F or 0x30 <= cmd <= 0x33 or 0x40 <= cmd <= 0x7F or 0xB0 <= cmd <= 0xB7 or 0xC0 <= cmd <= 0xCF:
            return 1
        return _LENGTHS.get(cmd)

    def execute(self, cmd):
        c = cmd[0]
        if 0xC0 <= c <= 0xCF:  # D3 picks the direction, the low bits are "don't care"
            self.com_reverse = bool(c & 0x08)
            return
        if self.execute_common(cmd):
            return
        if c <= 0x0F:
            self.column = (self.column & 0xF0) | c
            self._overflowed = False
        elif c <= 0x1F:
            self.column = (self.column & 0x0F) | ((c & 0x0F) << 4)
            self._overflowed = False
            if self.column > 131:
                self.errors.append("column address %d is beyond RAM column 131" % self.column)
        elif 0xB0 <= c <= 0xB7:
            self.page = c & 0x07
        elif 0x30 <= c <= 0x33:
            pass  # charge pump output voltage
        elif c == 0xAD:
            if cmd[1] not in (0x8A, 0x8B):
                self.errors.append("DC-DC setting 0x%02X is not 0x8A or 0x8B" % cmd[1])
            else:
                self.dc_dc = cmd[1] == 0x8B
        elif c == 0xE0:
            self._rmw_column = self.column
        elif c == 0xEE:
            if self._rmw_column is None:
                self.errors.append("read-modify-write end (0xEE) without a start (0xE0)")
            else:
                self.column = self._rmw_column
                self._rmw_column = None
        else:
            self.errors.append("command 0x%02X is known but not handled" % c)

    def write_ram(self, byte):
        if self.column > 131:
            if not self._overflowed:
                self.errors.append("RAM data past column 131 on page %d is lost" % self.page)
                self._overflowed = True
            return
        self.ram[self.page][self.column] = byte
        self.column += 1

    def seg_of_x(self, x):
        return 129 - x

    def panel_powered(self):
        return self.dc_dc
