"""MAX7219 daisy chain emulator (from the Maxim MAX7219/MAX7221 datasheet).

Each chip is a 16-bit shift register clocked MSB first; the bit that falls out of chip i
(DOUT) goes into chip i+1, chip 0 being the one wired to the controller. When CS (LOAD)
rises every chip latches its 16 bits: D11..D8 register, D7..D0 data (D15..D12 ignored).
Registers: 0x0 no-op, 0x1-0x8 digits (one matrix row each), 0x9 decode mode (Code B per
digit bit), 0xA intensity (low 4 bits), 0xB scan limit (low 3 bits), 0xC shutdown (bit 0:
1 = normal operation), 0xF display test (bit 0). 0xD and 0xE do not exist.

Power-up state per the datasheet: shutdown, decode off, intensity and scan limit 0, display
test off, digit registers unknown (shown as ``?`` in text and -1 in ``pixels``: a driver
that does not clear them shows it).

Matrix layout, as the firmware's dice display assumes: digit register r+1 is row r (top row
first), data bit 7 is the leftmost column. ``pixels()`` puts chip 0 on the left.
"""

# Code B font (datasheet Table 5) as raw segment bits: D6..D0 = segments A..G.
_CODE_B = (
    0x7E,
    0x30,
    0x6D,
    0x79,
    0x33,
    0x5B,
    0x5F,
    0x70,
    0x7F,
    0x7B,
    0x01,
    0x4F,
    0x37,
    0x0E,
    0x67,
    0x00,
)  # 0-9, '-', E, H, L, P, blank
UNKNOWN = -1


class Chip:
    """The registers of one MAX7219."""

    def __init__(self):
        self.digits = [None] * 8
        self.decode = 0
        self.intensity = 0
        self.scan_limit = 0
        self.shutdown = True
        self.display_test = False
        self.writes = 0  # latched register writes other than no-ops

    def rows(self):
        """8 rows of 8 pixels (1 lit, 0 dark, -1 unknown RAM contents) as displayed."""
        picture = []
        for r in range(8):
            if self.display_test:
                picture.append([1] * 8)
                continue
            value = self.digits[r]
            if self.shutdown or r > self.scan_limit:
                picture.append([0] * 8)
            elif value is None:
                picture.append([UNKNOWN] * 8)
            else:
                if self.decode >> r & 1:
                    value = _CODE_B[value & 0x0F] | (value & 0x80)
                picture.append([(value >> (7 - x)) & 1 for x in range(8)])
        return picture


class MAX7219ChainEmulator:
    """``count`` chips. Bus side: ``cs(level)``, ``spi_write(data)``, ``spi_transfer(data)``.

    ``miso_connected``: whether the last chip's DOUT is wired back to MISO; if not, reads
    return 0xFF (an idle, pulled-up line).
    """

    def __init__(self, count, miso_connected=False):
        self.count = count
        self.miso_connected = miso_connected
        self.chips = [Chip() for _ in range(count)]
        self.errors = []
        self.cs_level = 1
        self.latches = 0
        self._chain = 0  # all shift registers as one number; chip i = bits 16i..16i+15
        self._mask = (1 << (16 * count)) - 1
        self._top = 16 * count - 1
        self._bits = 0  # bits clocked since CS fell

    def cs(self, level):
        """Drive CS/LOAD; a rising edge latches every chip."""
        level = 1 if level else 0
        if level and not self.cs_level:
            self._latch()
        elif not level and self.cs_level:
            self._bits = 0
        self.cs_level = level

    def spi_write(self, data):
        self.spi_transfer(data)

    def spi_transfer(self, data):
        """Clock ``data`` in MSB first; returns the bytes seen on MISO meanwhile."""
        if self.cs_level:
            self.errors.append("SPI data while CS is high (the MAX7219 shifts it in anyway)")
        out = bytearray()
        chain = self._chain
        for byte in bytes(data):
            got = 0
            for bit in range(7, -1, -1):
                got = (got << 1) | ((chain >> self._top) & 1)
                chain = ((chain << 1) | ((byte >> bit) & 1)) & self._mask
            out.append(got)
        self._chain = chain
        self._bits += 8 * len(out)
        return bytes(out) if self.miso_connected else b"\xff" * len(out)

    def _latch(self):
        self.latches += 1
        # Fewer bits than the chain holds leave the far chips latching stale words; extra
        # whole words just pass through (the MISO chain check sends two chain lengths).
        if self._bits % 16 or self._bits < 16 * self.count:
            self.errors.append(
                "CS cycle carried %d bits; a chain of %d chips needs %d" % (self._bits, self.count, 16 * self.count)
            )
        for i, chip in enumerate(self.chips):
            word = (self._chain >> (16 * i)) & 0xFFFF
            self._write(i, chip, (word >> 8) & 0x0F, word & 0xFF)

    def _write(self, index, chip, register, value):
        if register == 0x0:
            return
        chip.writes += 1
        if 0x1 <= register <= 0x8:
            chip.digits[register - 1] = value
        elif register == 0x9:
            chip.decode = value
        elif register == 0xA:
            chip.intensity = value & 0x0F
        elif register == 0xB:
            chip.scan_limit = value & 0x07
        elif register == 0xC:
            chip.shutdown = not value & 1
        elif register == 0xF:
            chip.display_test = bool(value & 1)
        else:
            self.errors.append("chip %d: register 0x%X does not exist" % (index, register))

    def pixels(self):
        """8 rows of 8 * count pixels, chip 0 on the left (1 lit, 0 dark, -1 unknown)."""
        per_chip = [chip.rows() for chip in self.chips]
        return [sum((rows[r] for rows in per_chip), []) for r in range(8)]

    def text(self, on="#", off=".", unknown="?"):
        """8 lines; chips side by side, separated by a space."""
        chars = {1: on, 0: off, UNKNOWN: unknown}
        per_chip = [chip.rows() for chip in self.chips]
        return "\n".join(" ".join("".join(chars[p] for p in rows[r]) for rows in per_chip) for r in range(8))
