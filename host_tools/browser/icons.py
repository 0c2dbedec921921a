"""The web app's icons: one die of the handheld as its LEDs light it, drawn by the
firmware's own MAX7219 driver (the five face) and read back through the chain emulator,
on the case's colour. The face sits inside the middle 60 %, so the same picture serves
as a maskable icon (a launcher may crop it to a circle)."""

from host_tools.emulators.max7219 import MAX7219ChainEmulator
from host_tools.simulator.png import png_bytes

SIZES = (192, 512)
CASE = (0x1D, 0x2B, 0x3A)  # the page's --case colour (page/style.css)
BODY = (0x11, 0x11, 0x11)  # a die's matrix
LIT = (0xE0, 0x40, 0x30)
UNLIT = (0x2A, 0x14, 0x14)


class _Wire:
    """The driver's SPI and chip-select line, straight into the emulator."""

    def __init__(self, chain):
        self.chain = chain

    def write(self, data):
        self.chain.spi_write(bytes(data))

    def value(self, level=None):
        if level is not None:
            self.chain.cs(level)
        return 1


def face_rows(face=5):
    """The 8 rows (8 bits each, bit 7 left) of die 0 showing ``face``."""
    import host_tools

    host_tools.use_firmware()
    from drivers.max7219 import MAX7219Dice

    chain = MAX7219ChainEmulator(5)
    wire = _Wire(chain)
    dice = MAX7219Dice(wire, wire)
    dice.power(True)
    dice.show([face] * 5, 0)
    return [[1 if p == 1 else 0 for p in row] for row in chain.chips[0].rows()]


def icon_png(size, rows=None):
    rows = rows or face_rows()
    body = size * 3 // 5  # the die: the middle 60 %
    at = (size - body) // 2
    cell = body / 8
    radius2 = (cell * 0.38) ** 2
    pixels = []
    for y in range(size):
        line = bytearray()
        for x in range(size):
            colour = CASE
            if at <= x < at + body and at <= y < at + body:
                colour = BODY
                col, row = int((x - at) / cell), int((y - at) / cell)
                cx, cy = at + (col + 0.5) * cell, at + (row + 0.5) * cell
                if (x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 <= radius2:
                    colour = LIT if rows[row][col] else UNLIT
            line += bytes(colour)
        pixels.append(line)
    return png_bytes(size, size, pixels)


def write_icons(folder):
    """icon-192.png and icon-512.png in ``folder``; returns their names."""
    import os

    rows = face_rows()
    names = []
    for size in SIZES:
        name = "icon-%d.png" % size
        with open(os.path.join(folder, name), "wb") as f:
            f.write(icon_png(size, rows))
        names.append(name)
    return names
