"""What SSD1306 and SH1106 emulators share: I2C framing, the command parser, the panel.

Both controllers take, after the I2C address, a control byte ``Co D/C# 0 0 0 0 0 0``:
Co = 0 means the rest of the transfer is all commands (D/C# = 0) or all RAM data
(D/C# = 1); Co = 1 means exactly one byte follows, then another control byte. A command's
argument bytes may arrive in later transfers, so the parser keeps a pending command.

The picture is what the glass shows, for the usual modules whose panel is mounted with
SEG0 on the right and COM0 at the bottom (that is why drivers send segment remap 0xA1 and
COM scan 0xC8 to get an upright picture). Glass row y is COM 63 - y; glass column x is
SEG ``seg_of_x(x)``, which each controller defines (the SH1106's glass sits on SEG 2..129).

Anything the datasheet does not allow is appended to ``errors`` (a list of strings) and the
emulator carries on as the chip would, so a test can show every mistake at once.
"""

import collections
import random

ROWS = 64
PAGES = 8
WIDTH = 128


class OLEDEmulator:
    """Base class; subclasses give PART, COLUMNS, the command table and the addressing."""

    PART = "OLED"
    COLUMNS = 128  # RAM columns
    CONTRAST_RESET = 0x7F

    def __init__(self, addr=0x3C, seed=1):
        self.addr = addr
        self.errors = []
        # the latest complete commands, as tuples of bytes (bounded: simulations run long)
        self.commands = collections.deque(maxlen=4096)
        self.transfers = 0
        # Power-on RAM is random on the real chip; a fixed pseudo-random fill makes a
        # driver that forgets to clear it show visible garbage in tests.
        rng = random.Random(seed)
        self.ram = [bytearray(rng.getrandbits(8) for _ in range(self.COLUMNS)) for _ in range(PAGES)]
        self.display_on = False
        self.contrast = self.CONTRAST_RESET
        self.inverted = False
        self.entire_on = False
        self.seg_remap = False
        self.com_reverse = False
        self.mux = 63
        self.offset = 0
        self.start_line = 0
        self.com_pins = 0x12
        self.page = 0
        self.column = 0
        self._pending = None  # bytearray of a command still waiting for arguments
        self._pending_len = 0

    # ----- bus side -------------------------------------------------------------------

    def i2c_write(self, addr, data):
        """One I2C write transfer (address, then ``data``). Returns True when acknowledged."""
        if addr != self.addr:
            self.errors.append("I2C write to 0x%02X, but the %s is at 0x%02X" % (addr, self.PART, self.addr))
            return False
        self.transfers += 1
        data = bytes(data)
        i = 0
        while i < len(data):
            control = data[i]
            i += 1
            if control & 0x3F:
                self.errors.append("control byte 0x%02X has reserved bits set" % control)
            is_data = bool(control & 0x40)
            if control & 0x80:  # Co = 1: one byte, then another control byte
                if i >= len(data):
                    self.errors.append("control byte 0x%02X with Co=1 ends the transfer" % control)
                    break
                self._byte(is_data, data[i])
                i += 1
            else:
                for byte in data[i:]:
                    self._byte(is_data, byte)
                break
        return True

    def _byte(self, is_data, byte):
        if is_data:
            if self._pending is not None:
                self.errors.append(
                    "RAM data while command 0x%02X still waits for %d argument byte(s)"
                    % (self._pending[0], self._pending_len - len(self._pending))
                )
                self._pending = None
            self.write_ram(byte)
            return
        if self._pending is None:
            length = self.command_length(byte)
            if length is None:
                self.errors.append("unknown command 0x%02X" % byte)
                return
            self._pending = bytearray((byte,))
            self._pending_len = length
        else:
            self._pending.append(byte)
        if len(self._pending) == self._pending_len:
            cmd = tuple(self._pending)
            self._pending = None
            self.commands.append(cmd)
            self.execute(cmd)

    # ----- controller side (overridden) ---------------------------------------------

    def command_length(self, cmd):
        """Total bytes of the command starting with ``cmd``, or None if it does not exist."""
        raise NotImplementedError

    def execute(self, cmd):
        """Apply a complete command (tuple of bytes)."""
        raise NotImplementedError

    def write_ram(self, byte):
        raise NotImplementedError

    def seg_of_x(self, x):
        raise NotImplementedError

    def panel_powered(self):
        return True

    def execute_common(self, cmd):
        """Commands both controllers implement alike; returns False if ``cmd`` is not one."""
        c = cmd[0]
        if c == 0x81:
            self.contrast = cmd[1]
        elif c in (0xA4, 0xA5):
            self.entire_on = c == 0xA5
        elif c in (0xA6, 0xA7):
            self.inverted = c == 0xA7
        elif c in (0xAE, 0xAF):
            self.display_on = c == 0xAF
        elif c in (0xA0, 0xA1):
            self.seg_remap = c == 0xA1
        elif c in (0xC0, 0xC8):
            self.com_reverse = c == 0xC8
        elif 0x40 <= c <= 0x7F:
            self.start_line = c & 0x3F
        elif c == 0xA8:
            if not 15 <= cmd[1] <= 63:
                self.errors.append("multiplex ratio 0x%02X is outside 15..63" % cmd[1])
            else:
                self.mux = cmd[1]
        elif c == 0xD3:
            self.offset = cmd[1] & 0x3F
        elif c == 0xDA:
            self.com_pins = cmd[1]
            if cmd[1] != 0x12:
                self.errors.append(
                    "COM pins configuration 0x%02X: a 128x64 panel needs 0x12 "
                    "(alternative pins, no left/right remap), rows would interleave" % cmd[1]
                )
        elif c in (0xD5, 0xD9, 0xDB, 0xE3):
            pass  # timing and voltage settings: no visible effect to emulate
        else:
            return False
        return True

    # ----- picture ------------------------------------------------------------------

    def ram_pixel(self, column, row):
        """Bit of RAM ``column`` (0..COLUMNS-1), ``row`` (0..63)."""
        return (self.ram[row >> 3][column] >> (row & 7)) & 1

    def pixels(self):
        """64 rows of 128 ints (1 lit, 0 dark): what the glass shows now."""
        dark = [[0] * WIDTH for _ in range(ROWS)]
        if not (self.display_on and self.panel_powered()):
            return dark
        if self.entire_on:
            return [[1] * WIDTH for _ in range(ROWS)]
        rows_used = self.mux + 1
        columns = [self.column_of_seg(self.seg_of_x(x)) for x in range(WIDTH)]
        picture = dark
        for y in range(ROWS):
            com = ROWS - 1 - y
            if com >= rows_used:
                continue
            scan = rows_used - 1 - com if self.com_reverse else com
            row = (scan + self.start_line + self.offset) & 63
            page, bit, invert = self.ram[row >> 3], row & 7, int(self.inverted)
            picture[y] = [((page[column] >> bit) & 1) ^ invert for column in columns]
        return picture

    def column_of_seg(self, seg):
        """RAM column that drives segment ``seg`` (segment remap reverses the order)."""
        return self.COLUMNS - 1 - seg if self.seg_remap else seg

    def text(self, on="#", off=".", compact=False):
        """The picture as text: 64 lines of ``on``/``off`` characters, or 32 lines of
        half-block characters with ``compact``."""
        picture = self.pixels()
        if not compact:
            return "\n".join("".join(on if p else off for p in row) for row in picture)
        return "\n".join(half_blocks(picture))


def half_blocks(picture):
    """Rows of 0/1 pixels (an even number) as text lines, two pixel rows per line in
    half-block characters; the simulator's golden screens and terminal use it too."""
    blocks = " \u2584\u2580\u2588"  # index = top * 2 + bottom
    return [
        "".join(blocks[top * 2 + bottom] for top, bottom in zip(picture[y], picture[y + 1]))
        for y in range(0, len(picture), 2)
    ]
