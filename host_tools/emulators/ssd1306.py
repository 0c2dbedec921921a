"""SSD1306 emulator (from the Solomon Systech SSD1306 datasheet rev 1.1, section 10).

GDDRAM is 128 columns x 8 pages. Three addressing modes decide where RAM data goes:
page (reset default: column pointer advances, wraps to 0, page stays), horizontal
(column advances within the 0x21 window, then the page within the 0x22 window) and
vertical (page first, then column). Commands 0x00-0x1F and 0xB0-0xB7 apply to page mode
only, 0x21/0x22 to horizontal/vertical only: using them in the wrong mode is an error here.
The module's panel has no external supply, so the picture stays dark until the charge
pump is enabled (0x8D 0x14). Scrolling commands are parsed but not emulated (an error is
recorded so a picture that would scroll is never taken for the real one).
"""

from host_tools.emulators.oled import OLEDEmulator

HORIZONTAL, VERTICAL, PAGE = 0, 1, 2
_MODE_NAMES = ("horizontal", "vertical", "page")

# Total length in bytes (command + arguments) of every command in the datasheet.
_LENGTHS = {
    0x20: 2,
    0x21: 3,
    0x22: 3,
    0x23: 2,
    0x26: 7,
    0x27: 7,
    0x29: 6,
    0x2A: 6,
    0x2E: 1,
    0x2F: 1,
    0x81: 2,
    0x8D: 2,
    0xA0: 1,
    0xA1: 1,
    0xA3: 3,
    0xA4: 1,
    0xA5: 1,
    0xA6: 1,
    0xA7: 1,
    0xA8: 2,
    0xAE: 1,
    0xAF: 1,
    0xC0: 1,
    0xC8: 1,
    0xD3: 2,
    0xD5: 2,
    0xD6: 2,
    0xD9: 2,
    0xDA: 2,
    0xDB: 2,
    0xE3: 1,
}
_SCROLLING = (0x26, 0x27, 0x29, 0x2A, 0x2F, 0xA3, 0x23, 0xD6)  # incl. fade-out and zoom


class SSD1306Emulator(OLEDEmulator):
    """Feed it ``i2c_write(addr, data)``; read ``pixels()``, ``text()``, ``errors``."""

    PART = "SSD1306"
    COLUMNS = 128
    CONTRAST_RESET = 0x7F

    def __init__(self, addr=0x3C, seed=1):
        super().__init__(addr, seed)
        self.mode = PAGE
        self.column_window = (0, 127)
        self.page_window = (0, 7)
        self.charge_pump = False

    def command_length(self, cmd):
        if cmd <= 0x1F or 0x40 <= cmd <= 0x7F or 0xB0 <= cmd <= 0xB7:
            return 1
        return _LENGTHS.get(cmd)

    def execute(self, cmd):
        c = cmd[0]
        if self.execute_common(cmd):
            return
        if c <= 0x1F or 0xB0 <= c <= 0xB7:
            if self.mode != PAGE:
                self.errors.append(
                    "command 0x%02X is for page addressing, but the mode is %s" % (c, _MODE_NAMES[self.mode])
                )
                return
            if c <= 0x0F:
                self.column = (self.column & 0xF0) | (c & 0x0F)
            elif c <= 0x1F:
                self.column = (self.column & 0x0F) | ((c & 0x07) << 4)
            else:
                self.page = c & 0x07
        elif c == 0x20:
            if cmd[1] & 0x03 == 0x03 or cmd[1] & 0xFC:
                self.errors.append("addressing mode 0x%02X is invalid" % cmd[1])
            else:
                self.mode = cmd[1]
        elif c in (0x21, 0x22):
            if self.mode == PAGE:
                self.errors.append("command 0x%02X is for horizontal/vertical addressing, but the mode is page" % c)
                return
            limit = 127 if c == 0x21 else 7
            start, end = cmd[1], cmd[2]
            if start > limit or end > limit or start > end:
                self.errors.append("command 0x%02X window %d..%d is outside 0..%d or reversed" % (c, start, end, limit))
                return
            if c == 0x21:
                self.column_window = (start, end)
                self.column = start
            else:
                self.page_window = (start, end)
                self.page = start
        elif c == 0x8D:
            if cmd[1] not in (0x10, 0x14):
                self.errors.append("charge pump setting 0x%02X is not 0x10 or 0x14" % cmd[1])
            else:
                self.charge_pump = cmd[1] == 0x14
        elif c == 0x2E:
            pass  # deactivate scrolling: the emulated picture never scrolls
        elif c in _SCROLLING:
            self.errors.append("scrolling/fade/zoom command 0x%02X is not emulated" % c)
        else:
            self.errors.append("command 0x%02X is known but not handled" % c)

    def write_ram(self, byte):
        self.ram[self.page][self.column] = byte
        col_lo, col_hi = self.column_window
        page_lo, page_hi = self.page_window
        if self.mode == PAGE:
            self.column = 0 if self.column >= 127 else self.column + 1
        elif self.mode == HORIZONTAL:
            if self.column >= col_hi:
                self.column = col_lo
                self.page = page_lo if self.page >= page_hi else self.page + 1
            else:
                self.column += 1
        else:
            if self.page >= page_hi:
                self.page = page_lo
                self.column = col_lo if self.column >= col_hi else self.column + 1
            else:
                self.page += 1

    def seg_of_x(self, x):
        return 127 - x

    def panel_powered(self):
        return self.charge_pump
