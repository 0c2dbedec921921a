"""MAX7219 8x8 LED matrices daisy-chained on SPI, and the five-dice display built on them.

Chain protocol (MAX7219 datasheet, "Serial-Addressing Modes"): each chip has a 16-bit
shift register (D15..D12 ignored, D11..D8 register address, D7..D0 data) clocked in MSB
first; DOUT passes bits on to the next chip 16 clocks later; every chip latches its last 16
bits when CS (LOAD) rises. So one CS cycle carries one 16-bit word per chip, the first
word ending up in the farthest chip, and the no-op register (0x00) addresses chips that
should not change. Chip 0 is the one wired to the Pico, and die i is chip i.

Matrix layout used by the dice display: digit register r+1 drives row r (row 0 at the
top) and data bit 7 is the leftmost column. Die faces look the same turned by 90 or 180
degrees or mirrored, so modules mounted another way still show correct dice.

The MAX7219 cannot be read: without a wire from the last chip's DOUT back to MISO there is
no way to tell whether any chip is connected, how many there are or whether one is dead;
a missing chain simply shows nothing. With that wire, ``check_chain=True`` shifts a known
pattern through the whole chain and raises OSError when it does not come back exactly
one chain length later (wrong chip count, broken link, no MISO).
"""

from micropython import const

from drivers.pips import ANIMAL_ROWS, FACE_PIPS, N_DICE

_NOOP = const(0x00)
_DIGIT0 = const(0x01)  # digit registers 0x01..0x08, one row each
_DECODE_MODE = const(0x09)
_INTENSITY = const(0x0A)
_SCAN_LIMIT = const(0x0B)
_SHUTDOWN = const(0x0C)
_DISPLAY_TEST = const(0x0F)
_ROWS = const(8)
_MAX_INTENSITY = const(15)
_CHECK_HIGH = const(0xA0)  # D15..D12 = 1010 (ignored), register 0 = no-op: harmless
_CHECK_LOW = const(0x5A)
_HELD_ROW = const(7)  # the bottom row
_DEFAULT_INTENSITY = const(8)  # about half the duty: bright indoors, modest current


class MAX7219Chain:
    """``count`` chips on ``spi`` (mode 0, <= 10 MHz) with ``cs`` a Pin-like output."""

    def __init__(self, spi, cs, count, check_chain=False, intensity=_DEFAULT_INTENSITY):
        if count < 1:
            raise ValueError("MAX7219 chain needs at least one chip")
        self._spi = spi
        self._cs = cs
        self.count = count
        self._words = bytearray(2 * count)  # one CS cycle, farthest chip first
        cs.value(1)
        if check_chain:
            self._check_chain()
        # Shutdown first so a warm restart does not flash while the registers change.
        self.write_all(_SHUTDOWN, 0)
        self.write_all(_DISPLAY_TEST, 0)
        self.write_all(_DECODE_MODE, 0)  # raw: data bits are LEDs
        self.write_all(_SCAN_LIMIT, 7)  # all eight rows
        self.write_all(_INTENSITY, intensity)
        for row in range(_ROWS):  # digit registers hold random bits after power-up
            self.write_all(_DIGIT0 + row, 0)
        self.write_all(_SHUTDOWN, 1)

    def _check_chain(self):
        """Shift a pattern through every chip; it must come back on MISO one chain later."""
        n = 2 * self.count
        out = bytearray(2 * n)  # pattern words, then no-op words that push it out
        for i in range(0, n, 2):
            out[i] = _CHECK_HIGH
            out[i + 1] = _CHECK_LOW ^ (i >> 1)
        back = bytearray(2 * n)
        self._cs.value(0)
        self._spi.write_readinto(out, back)
        self._cs.value(1)  # every chip latches a no-op word: nothing changes
        if back[n:] != out[:n]:
            raise OSError(
                "MAX7219 LED chain: %d chips did not echo on MISO (wiring, chip count, DOUT->MISO)" % self.count
            )

    def clear_words(self):
        """Start a CS cycle in which every chip gets the no-op word."""
        words = self._words
        for i in range(len(words)):
            words[i] = _NOOP

    def put(self, chip, register, value):
        """Set the word for ``chip`` (0 = nearest the Pico) in the pending CS cycle."""
        i = 2 * (self.count - 1 - chip)
        self._words[i] = register
        self._words[i + 1] = value

    def send(self):
        """Shift the pending words out and latch them (one CS cycle)."""
        self._cs.value(0)
        self._spi.write(self._words)
        self._cs.value(1)

    def write_all(self, register, value):
        """Write the same register on every chip."""
        words = self._words
        for i in range(0, len(words), 2):
            words[i] = register
            words[i + 1] = value
        self.send()

    def write_chip(self, chip, register, value):
        """Write one register on one chip; the others get no-ops and keep their state."""
        self.clear_words()
        self.put(chip, register, value)
        self.send()


def held_row(row, bits):
    """Row ``row`` (0 top) of a held die whose plain face has ``bits`` there: the bottom
    row is lit whole; the rest is the plain face (the simulator decodes dice with this)."""
    return 0xFF if row == _HELD_ROW else bits


class MAX7219Dice:
    """Five dice, one 8x8 matrix each: ``show(faces, held_mask)``, ``brightness``, ``power``.

    Pips are 2x2 dots on a 3x3 grid at columns/rows 0-1, 3-4 and 6-7. A held die is its
    face with the bottom row lit (``held_row``), a bar under the die that reads at a glance
    and lights 4-8 more LEDs, not the 40-60 of an inverted face; face 0 is blank.
    ``animals(True)`` draws the Zoo card's animals (drivers/pips.py) instead, held ones
    marked the same way.
    """

    BUS = "spi"  # built with (spi, cs): how a board wires it (boards/rp2_reference.py)

    def __init__(self, spi, cs, count=N_DICE, check_chain=False, brightness=_DEFAULT_INTENSITY):
        self._chain = MAX7219Chain(spi, cs, count, check_chain, brightness)
        self._count = count
        self._shown = bytearray(_ROWS * count)  # rows now in the chips (cleared at init)
        self._wanted = bytearray(_ROWS * count)
        self._plain = bytearray(_ROWS * len(FACE_PIPS))  # row bytes per face
        self._held = bytearray(_ROWS * len(FACE_PIPS))
        self.animals(False)

    def animals(self, on):
        """Pips (False) or the Zoo card's animal pictures (True) from the next ``show``;
        the face tables are rewritten in place (no allocation)."""
        for face in range(len(FACE_PIPS)):
            pips = FACE_PIPS[face]
            for row in range(_ROWS):
                bits = 0
                if on:
                    if face:
                        bits = ANIMAL_ROWS[(face - 1) * _ROWS + row]
                elif row % 3 != 2:  # rows 2 and 5 are the gaps between pips
                    grid_row = row // 3
                    for col in range(3):
                        if pips >> (grid_row * 3 + col) & 1:
                            bits |= 0xC0 >> (3 * col)
                self._plain[face * _ROWS + row] = bits
                self._held[face * _ROWS + row] = held_row(row, bits) if face else 0

    def show(self, faces, held_mask):
        """Draw ``faces`` (0 blank, 1..6); bit i of ``held_mask`` marks die i held."""
        wanted = self._wanted
        for die in range(self._count):
            face = faces[die]
            if face < 0 or face > 6:
                raise ValueError("die face must be 0..6")
            table = self._held if (held_mask >> die) & 1 else self._plain
            src = face * _ROWS
            dst = die * _ROWS
            for row in range(_ROWS):
                wanted[dst + row] = table[src + row]
        self._send_changed_rows()

    def _send_changed_rows(self):
        # One CS cycle per row that changed on any die; unchanged dice get no-ops.
        chain = self._chain
        wanted = self._wanted
        shown = self._shown
        for row in range(_ROWS):
            changed = False
            for die in range(self._count):
                i = die * _ROWS + row
                if wanted[i] != shown[i]:
                    if not changed:
                        chain.clear_words()
                        changed = True
                    chain.put(die, _DIGIT0 + row, wanted[i])
                    shown[i] = wanted[i]
            if changed:
                chain.send()

    def brightness(self, level):
        """LED intensity 0..15 (duty 1/32 .. 31/32); clamped."""
        self._chain.write_all(_INTENSITY, 0 if level < 0 else _MAX_INTENSITY if level > _MAX_INTENSITY else level)

    def power(self, on):
        """Light the dice (True) or put every chip in shutdown (False); rows are kept."""
        self._chain.write_all(_SHUTDOWN, 1 if on else 0)
