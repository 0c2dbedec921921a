"""Reads the simulated device back as text: the OLED's characters and the dice faces.

The firmware draws all text on the 8x8 grid with MicroPython's built-in framebuf font, so
each of the 16 x 8 cells of the glass either matches a glyph (normal or inverted), is
empty, or is graphics (shown as ``#``). The glyph table is rendered once by the real
MicroPython interpreter, so it is exactly the device's font. Dice are decoded from what
the LEDs show (the emulators' pixels), not from the firmware's variables.
"""
import subprocess

import host_tools

COLS = 16
ROWS = 8
GRAPHICS = "#"
_glyphs = None

_RENDER_FONT = """
import framebuf
buf = bytearray(8)
fb = framebuf.FrameBuffer(buf, 8, 8, framebuf.MONO_VLSB)
for code in range(32, 127):
    fb.fill(0)
    fb.text(chr(code), 0, 0, 1)
    print(code, bytes(buf).hex())
"""


def glyphs():
    """{8x8 column bytes: character} for the font, inverted cells included (as the same char)."""
    global _glyphs
    if _glyphs is None:
        out = subprocess.run([host_tools.micropython_command(), "-c", _RENDER_FONT], capture_output=True,
                             text=True, check=True).stdout
        table = {}
        for line in out.splitlines():
            code, hexed = line.split()
            cols = bytes.fromhex(hexed)
            table.setdefault(cols, chr(int(code)))
            table.setdefault(bytes(255 - b for b in cols), chr(int(code)))
        _glyphs = table
    return _glyphs


def cell_bytes(pixels, col, row):
    """The 8 column bytes (bit 0 at the top) of one text cell of a 64 x 128 picture."""
    out = bytearray(8)
    for x in range(8):
        value = 0
        for y in range(8):
            if pixels[row * 8 + y][col * 8 + x]:
                value |= 1 << y
        out[x] = value
    return bytes(out)


def screen_lines(pixels):
    """The OLED as 8 lines of 16 characters (``#`` for cells that are graphics)."""
    table = glyphs()
    lines = []
    for row in range(ROWS):
        chars = []
        for col in range(COLS):
            cell = cell_bytes(pixels, col, row)
            chars.append(table.get(cell, GRAPHICS))
        lines.append("".join(chars).rstrip())
    return lines


def inverted_rows(pixels):
    """For each text row: True when it is drawn inverted (lit background, dark text), as
    the title bar and the cursor are: most of its cells have more pixels lit than dark."""
    rows = []
    for row in range(ROWS):
        lit_cells = 0
        for col in range(COLS):
            if sum(bin(b).count("1") for b in cell_bytes(pixels, col, row)) > 32:
                lit_cells += 1
        rows.append(lit_cells * 2 > COLS)
    return rows


def _face_of(mask):
    host_tools.use_firmware()
    from drivers.pips import FACE_PIPS

    return FACE_PIPS.index(mask) if mask in FACE_PIPS else -1


def dice_state(device):
    """[(face, held), ...] for the five dice as the LEDs show them (face -1: unreadable)."""
    state = []
    for grid in device.dice_pixels():
        lit = [[1 if any(rgb) else 0 for rgb in row] for row in grid]
        count = sum(map(sum, lit))
        if device.dice_kind == "neopixel":
            held = False
            for row in grid:
                for r, g, b in row:
                    if r > 0 and g < r * 3 // 5:
                        held = True
        else:
            held = count > 32  # a held die is drawn inverted: lit background
            if held:
                lit = [[1 - p for p in row] for row in lit]
        mask = 0
        for r in range(3):
            for c in range(3):
                if lit[3 * r][3 * c]:
                    mask |= 1 << (3 * r + c)
        state.append((_face_of(mask), held))
    return state


def dice_line(device):
    """``[3] 5 . 2 1``: faces, held dice in brackets, blank dice as dots."""
    words = []
    for face, held in dice_state(device):
        text = "." if face == 0 else "?" if face < 0 else str(face)
        words.append("[%s]" % text if held else " %s " % text)
    return "".join(words).rstrip()


def device_text(device):
    """The dice line, then the OLED's 8 text lines in a frame (for --print-screen). A row
    drawn inverted (the title bar, the cursor) is framed ``>...<`` instead of ``|...|``,
    since its characters alone do not show it."""
    lines = ["dice: " + dice_line(device), "+" + "-" * COLS + "+"]
    pixels = device.oled_pixels()
    for line, inverted in zip(screen_lines(pixels), inverted_rows(pixels)):
        lines.append((">%s<" if inverted else "|%s|") % line.ljust(COLS))
    lines.append("+" + "-" * COLS + "+")
    return "\n".join(lines)
