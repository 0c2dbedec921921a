"""The OLED's two fonts, built from the glyph art in this folder and a character list.

``glyphs_8x8.txt`` (the 16 x 8 text grid: headings, menus, messages) and
``glyphs_3x5.txt`` (the compact 32-column grid: the card view, the opponents' line) hold
every glyph as rows of ``#`` and ``.``; ``CHARACTERS`` is what both must draw, in the
order lang.glyph numbers them: printable ASCII and the letters of the languages the
handheld speaks (firmware/lang.py ``LETTERS``). A missing or extra glyph stops the build,
so no letter is silently dropped. ``python -m host_tools.fonts`` writes the tables into
firmware/ui/draw.py and firmware/ui/font.py (between their ``# glyphs:`` markers);
tests/host/test_fonts.py checks they match.
"""

import os
import re

import host_tools

HERE = os.path.dirname(os.path.abspath(__file__))
ART_8X8 = os.path.join(HERE, "glyphs_8x8.txt")
ART_3X5 = os.path.join(HERE, "glyphs_3x5.txt")
FIRMWARE_8X8 = os.path.join(host_tools.REPO, "firmware", "ui", "draw.py")
FIRMWARE_3X5 = os.path.join(host_tools.REPO, "firmware", "ui", "font.py")
ASCII = "".join(chr(code) for code in range(32, 127))
host_tools.use_firmware()
from lang import LETTERS  # noqa: E402 (beyond ASCII, in the fonts' order)

CHARACTERS = ASCII + LETTERS
BEGIN = "# glyphs: made by python -m host_tools.fonts from host_tools/fonts/%s"
END = "# glyphs: end"


class FontError(Exception):
    """The art is not a complete font; the message names the glyph."""


def read_art(path, width, height):
    """{character: rows} from an art file; FontError on a malformed block."""
    glyphs = {}
    current = None
    with open(path, encoding="utf-8") as art:
        for number, line in enumerate(art, 1):
            line = line.rstrip("\n")
            if line.startswith(";"):
                continue
            if line.startswith("== "):
                char = line[3:]
                if len(char) != 1:
                    raise FontError("%s:%d: one character after '== ', not %r" % (path, number, char))
                if char in glyphs:
                    raise FontError("%s:%d: %r drawn twice" % (path, number, char))
                current = glyphs[char] = []
            elif line:
                if current is None or len(current) == height:
                    raise FontError("%s:%d: a row outside a glyph" % (path, number))
                if len(line) != width or set(line) - set("#."):
                    raise FontError("%s:%d: a row is %d cells of '#' and '.', not %r" % (path, number, width, line))
                current.append(line)
    for char, rows in glyphs.items():
        if len(rows) != height:
            raise FontError("%s: %r has %d rows, not %d" % (path, char, len(rows), height))
    return glyphs


def columns(rows):
    """A glyph's column bytes, bit 0 at the top (the OLED's MONO_VLSB layout)."""
    out = bytearray(len(rows[0]))
    for y, row in enumerate(rows):
        for x, cell in enumerate(row):
            if cell == "#":
                out[x] |= 1 << y
    return bytes(out)


def table(glyphs, characters=CHARACTERS):
    """The glyphs of ``characters`` in order, as one bytes; FontError on a missing or an
    extra glyph."""
    missing = [c for c in characters if c not in glyphs]
    if missing:
        raise FontError("no glyph for %s" % " ".join(repr(c) for c in missing))
    extra = [c for c in glyphs if c not in characters]
    if extra:
        raise FontError("glyphs not in the character list: %s" % " ".join(repr(c) for c in extra))
    return b"".join(columns(glyphs[c]) for c in characters)


def font_8x8():
    return table(read_art(ART_8X8, 8, 8))


def font_3x5():
    glyphs = read_art(ART_3X5, 3, 6)
    for char, rows in glyphs.items():
        if rows[5] != "..." and char not in "gjpqy,;_" + "ß":
            raise FontError("compact %r: row 5 is for descenders only" % char)
    return table(glyphs)


def _literal(name, data, glyph_bytes, per_line=8):
    """``name = (...)``: ``per_line`` glyphs a line, each line's characters in its comment."""
    lines = ["%s = (" % name]
    for first in range(0, len(CHARACTERS), per_line):
        chunk = data[first * glyph_bytes : (first + per_line) * glyph_bytes]
        chars = CHARACTERS[first : first + per_line]
        lines.append('    b"%s"  # %s' % ("".join("\\x%02x" % b for b in chunk), " ".join(chars)))
    lines.append(")")
    return lines


def section(art_name, data, glyph_bytes, wrap=None):
    """The generated lines of a firmware module: the table
    (``wrap``: a call around the literal, e.g. bytearray for a table drawn by blits)."""
    lines = [BEGIN % art_name]
    lines += _literal("GLYPHS", data, glyph_bytes)
    if wrap:
        lines[1] = "GLYPHS = %s(" % wrap
    lines.append(END)
    return "\n".join(lines)


def rewrite(path, art_name, data, glyph_bytes, wrap=None):
    """``path`` with its generated section replaced; returns (old text, new text)."""
    with open(path, encoding="utf-8") as source:
        text = source.read()
    pattern = re.compile(re.escape(BEGIN % art_name) + ".*?" + re.escape(END), re.S)
    if not pattern.search(text):
        raise FontError("%s has no generated section for %s" % (path, art_name))
    return text, pattern.sub(lambda _m: section(art_name, data, glyph_bytes, wrap), text)


def targets():
    """(firmware module, art file name, table, bytes per glyph, wrap) for both fonts: the
    8x8 table is a bytearray (a frame buffer the glyphs are blitted from), the compact
    one bytes (copied a glyph at a time)."""
    return (
        (FIRMWARE_8X8, "glyphs_8x8.txt", font_8x8(), 8, "bytearray"),
        (FIRMWARE_3X5, "glyphs_3x5.txt", font_3x5(), 3, None),
    )
