"""Reads the simulated device back as text: the OLED's characters and the dice faces.

The firmware draws text on the 8x8 grid with its own font (firmware/ui/draw.py), so each
of the 16 x 8 cells of the glass either matches a glyph (normal or inverted), is empty, or
is graphics (shown as ``#``). The glyph tables are the firmware's own, so this reads
exactly the device's fonts. Dice are decoded from what the LEDs show (the emulators'
pixels), not from the firmware's variables.
"""

import host_tools

COLS = 16
ROWS = 8
GRAPHICS = "#"
_glyphs = None


def _characters(_font):
    """The characters of a firmware font's table, in its order (lang.glyph's numbers)."""
    import lang

    return "".join(chr(code) for code in range(32, 127)) + lang.LETTERS


def glyphs():
    """{8x8 column bytes: character} for the font, inverted cells included (as the same char)."""
    global _glyphs
    if _glyphs is None:
        host_tools.use_firmware()
        from ui import draw

        table = {}
        for i, char in enumerate(_characters(draw)):
            cols = bytes(draw.GLYPHS[8 * i : 8 * i + 8])
            table.setdefault(cols, char)
            table.setdefault(bytes(255 - b for b in cols), char)
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


def _max7219_pictures():
    """8x8 row tuple -> (face, held, animal) for every picture the MAX7219 dice draw:
    the pips (as drivers/max7219.py lays them out) and the Zoo card's animals, each plain
    and held (drivers/max7219.py's ``held_row``); built from the firmware's own tables
    (drivers/pips.py)."""
    host_tools.use_firmware()
    from drivers.max7219 import held_row
    from drivers.pips import ANIMAL_ROWS, FACE_PIPS

    table = {(0,) * 8: (0, False, False)}
    for face in range(1, 7):
        rows = []
        for row in range(8):
            bits = 0
            if row % 3 != 2:
                for col in range(3):
                    if FACE_PIPS[face] >> (row // 3 * 3 + col) & 1:
                        bits |= 0xC0 >> (3 * col)
            rows.append(bits)
        animal = tuple(ANIMAL_ROWS[(face - 1) * 8 : face * 8])
        for pattern, is_animal in ((tuple(rows), False), (animal, True)):
            table[pattern] = (face, False, is_animal)
            table[tuple(held_row(row, b) for row, b in enumerate(pattern))] = (face, True, is_animal)
    return table


def _neopixel_colours():
    """Known lit colours of the WS2812 dice (as dice_pixels boosts them) -> (held, animal)."""
    host_tools.use_firmware()
    from drivers.pips import ANIMAL_COLOURS

    colours = [((255, 255, 255), (False, False)), ((255, 64, 0), (True, False))]
    colours += [(c, (False, True)) for c in ANIMAL_COLOURS[1:] if c != (255, 255, 255)]
    return colours


def _nearest(rgb, colours):
    return min(colours, key=lambda known: sum((a - b) ** 2 for a, b in zip(rgb, known[0])))[1]


def dice_state(device):
    """[(face, held, animal), ...] for the five dice as the LEDs show them (face -1:
    unreadable; animal: the Zoo card's picture or colour instead of plain pips)."""
    host_tools.use_firmware()
    from drivers.pips import FACE_PIPS

    state = []
    if device.dice_kind != "neopixel":
        pictures = _max7219_pictures()
        for grid in device.dice_pixels():
            rows = tuple(sum(0x80 >> x for x in range(8) if any(grid[y][x])) for y in range(8))
            state.append(pictures.get(rows, (-1, False, False)))
        return state
    colours = _neopixel_colours()
    for grid in device.dice_pixels():
        mask = 0
        held = animal = False
        for r in range(3):
            for c in range(3):
                rgb = grid[3 * r][3 * c]
                if any(rgb):
                    mask |= 1 << (3 * r + c)
                    held, animal = _nearest(rgb, colours)
        face = FACE_PIPS.index(mask) if mask in FACE_PIPS else -1
        state.append((face, held, animal))
    if any(animal for _face, _held, animal in state):  # a held die keeps the held colour
        state = [(face, held, face > 0) for face, held, _animal in state]
    return state


def dice_line(device):
    """``[3] 5 . 2 1``: faces, held dice in brackets, blank dice as dots; the Zoo card's
    animals by name, as the handheld names them in the language in use (host_tools/texts.py:
    ``[Rhino] Monkey . Giraffe Giraffe``)."""
    host_tools.use_firmware()
    import rules

    from host_tools import texts

    zoo = rules.make_ruleset(rules.ZOO)
    words = []
    for face, held, animal in dice_state(device):
        text = "." if face == 0 else "?" if face < 0 else texts.face(zoo, face) if animal else str(face)
        words.append("[%s]" % text if held else " %s " % text)
    return "".join(words).rstrip()


def device_text(device):
    """The dice line, then the OLED's text lines in a frame (for --print-screen): the 8x8
    grid, with lines in the compact font (32 columns) where the firmware drew them. A row
    drawn inverted (the title bar, the cursor) is framed ``>...<`` instead of ``|...|``,
    since its characters alone do not show it. A dimmed OLED (power saving) gets a line
    saying so, since the next press only wakes it."""
    pixels = device.oled_pixels()
    lines = text_lines(pixels)
    inverted = inverted_rows(pixels)
    if len(lines) > ROWS:  # the header, then compact lines (never inverted)
        inverted = inverted[:1] + [False] * (len(lines) - 1)
    width = max(COLS, max(len(line) for line in lines))
    from host_tools.simulator.backend import DIMMED, dimmed

    out = ["dice: " + dice_line(device)]
    if dimmed(device):
        out.append("oled: " + DIMMED)
    out.append("+" + "-" * width + "+")
    for line, inv in zip(lines, inverted):
        out.append((">%s<" if inv else "|%s|") % line.ljust(width))
    out.append("+" + "-" * width + "+")
    return "\n".join(out)


# --- the compact font (firmware/ui/font.py): 3x5 glyphs in 4x6 cells below the header ---
_compact = None


def compact_glyphs():
    """{3 column values (6 bits, bit 0 at the top): character}, from the firmware's table."""
    global _compact
    if _compact is None:
        host_tools.use_firmware()
        from ui import font

        table = {}
        for i, char in enumerate(_characters(font)):
            table.setdefault(bytes(font.GLYPHS[3 * i : 3 * i + 3]), char)
        _compact = table
    return _compact


def compact_line(pixels, row):
    """Compact row ``row`` (y = TOP + 6 * row) as 32 characters, ``#`` for graphics; an
    inverted cell (its spacing column lit) reads as its character."""
    host_tools.use_firmware()
    from ui import font

    table = compact_glyphs()
    y0 = font.TOP + row * font.CELL_H
    chars = []
    for col in range(font.COLS):
        x0 = col * font.CELL_W
        cols = []
        for x in range(x0, x0 + 3):
            value = 0
            for dy in range(font.CELL_H):
                if y0 + dy < len(pixels) and pixels[y0 + dy][x]:
                    value |= 1 << dy
            cols.append(value)
        if all(pixels[y][x0 + 3] for y in range(y0, min(y0 + 5, len(pixels)))):
            cols = [value ^ 0x3F for value in cols]
        chars.append(table.get(bytes(cols), GRAPHICS))
    return "".join(chars).rstrip()


def compact_lines(pixels):
    """The compact grid below the 8x8 header: 9 lines of 32 characters."""
    host_tools.use_firmware()
    from ui import font

    return [compact_line(pixels, row) for row in range(font.ROWS)]


def text_lines(pixels):
    """The OLED as text: the 8x8 lines, but a screen drawn in the compact font below its
    header (e.g. the scorecard) as the header and the 9 compact lines, and an 8x8 line
    that is graphics but holds one compact line (e.g. the opponents' totals) as that."""
    host_tools.use_firmware()
    from ui import font

    lines = screen_lines(pixels)
    compact = compact_lines(pixels)
    if sum(line.count(GRAPHICS) for line in compact) < sum(line.count(GRAPHICS) for line in lines[1:]) and any(
        line.strip() for line in compact
    ):
        return lines[:1] + compact
    for row in range(font.ROWS):  # a compact line inside an 8x8 line of graphics
        top = font.TOP + row * font.CELL_H
        if top // 8 != (top + font.CELL_H - 1) // 8:
            continue
        line = lines[top // 8]
        if GRAPHICS in line and compact[row].strip() and GRAPHICS not in compact[row]:
            lines[top // 8] = compact[row]
    return lines
