"""A compact fixed font for dense screens: 3x5 glyphs in a 4x6 cell (descenders use
the cell's sixth row), 32 columns across the 128-pixel OLED; the 8x8 font (ui/draw.py)
is for headings, menus and messages, where it reads best.

Stored compactly: ASCII 32..126 and the letters of the handheld's languages
(lang.LETTERS, numbered as lang.glyph numbers them), 3 bytes per glyph (one byte per
column, bit 0 at the top, the OLED's own MONO_VLSB layout), drawn for this project
(host_tools/fonts/). Drawing copies a glyph's 3 bytes into one small frame buffer made at
import and blits it (inverted text through a 2-entry palette), so a call allocates
nothing. Numbers are drawn digit by digit, never formatted. A text resolved by lang.py is
drawn from its glyph numbers as they are.

The compact grid: ``text(fb, s, col, row)`` puts column ``col`` at x = 4 * col and row
``row`` at y = TOP + 6 * row (below an 8x8 header line), 9 rows down to the last pixel
row. The simulator reads this grid back as text with the same glyph table
(host_tools/simulator/screen.py).
"""

from micropython import const

import lang

CELL_W = const(4)
CELL_H = const(6)
COLS = const(32)
ROWS = const(9)
TOP = const(9)  # y of compact row 0: one blank pixel row under the 8x8 header
FIRST = const(32)  # the first character in GLYPHS (space)
# glyphs: made by python -m host_tools.fonts from host_tools/fonts/glyphs_3x5.txt
GLYPHS = (
    b"\x00\x00\x00\x00\x17\x00\x03\x00\x03\x1f\x0a\x1f\x12\x1f\x09\x19\x04\x13\x0a\x15\x1a\x00\x03\x00"  #   ! " # $ % & '
    b"\x00\x0e\x11\x11\x0e\x00\x0a\x04\x0a\x04\x0e\x04\x20\x18\x00\x04\x04\x04\x00\x10\x00\x18\x04\x03"  # ( ) * + , - . /
    b"\x1f\x11\x1f\x12\x1f\x10\x19\x15\x12\x11\x15\x0a\x07\x04\x1f\x17\x15\x09\x1e\x15\x1d\x01\x1d\x03"  # 0 1 2 3 4 5 6 7
    b"\x1f\x15\x1f\x17\x15\x0f\x00\x0a\x00\x10\x0a\x00\x04\x0a\x11\x0a\x0a\x0a\x11\x0a\x04\x01\x15\x02"  # 8 9 : ; < = > ?
    b"\x0e\x15\x16\x1e\x05\x1e\x1f\x15\x0a\x0e\x11\x11\x1f\x11\x0e\x1f\x15\x11\x1f\x05\x01\x0e\x11\x1d"  # @ A B C D E F G
    b"\x1f\x04\x1f\x11\x1f\x11\x08\x10\x0f\x1f\x04\x1b\x1f\x10\x10\x1f\x06\x1f\x1f\x01\x1e\x0e\x11\x0e"  # H I J K L M N O
    b"\x1f\x05\x02\x0e\x19\x16\x1f\x05\x1a\x12\x15\x09\x01\x1f\x01\x1f\x10\x1f\x0f\x10\x0f\x1f\x0c\x1f"  # P Q R S T U V W
    b"\x1b\x04\x1b\x03\x1c\x03\x19\x15\x13\x1f\x11\x00\x03\x04\x18\x00\x11\x1f\x02\x01\x02\x10\x10\x10"  # X Y Z [ \ ] ^ _
    b"\x01\x02\x00\x0a\x16\x1c\x1f\x12\x0c\x0c\x12\x12\x0c\x12\x1f\x0c\x16\x14\x04\x1f\x05\x24\x2a\x1e"  # ` a b c d e f g
    b"\x1f\x02\x1c\x00\x1d\x00\x10\x20\x1d\x1f\x0c\x12\x11\x1f\x10\x1e\x06\x1e\x1e\x02\x1c\x0c\x12\x0c"  # h i j k l m n o
    b"\x3e\x12\x0c\x0c\x12\x3e\x1e\x04\x02\x14\x1e\x0a\x02\x1f\x12\x0e\x10\x1e\x0e\x10\x0e\x1e\x18\x1e"  # p q r s t u v w
    b"\x12\x0c\x12\x26\x28\x1e\x12\x1a\x16\x04\x0e\x11\x00\x1f\x00\x11\x0e\x04\x02\x02\x04\x09\x14\x1d"  # x y z { | } ~ ä
    b"\x09\x14\x09\x0d\x10\x1d\x3f\x15\x0a\x1d\x0a\x1d\x0d\x12\x0d\x1d\x10\x1d\x0d\x1c\x15\x01\x1c\x01"  # ö ü ß Ä Ö Ü ë ï
    b"\x0c\x1e\x15\x0d\x1e\x14\x09\x16\x1c\x01\x1c\x00\x09\x16\x08\x0d\x12\x1c\x1c\x1e\x15\x1d\x1e\x14"  # é è à ì ò ù É È
    b"\x0e\x0a\x0e\x0e\x0e\x0e"  # ☐ ☑
)
# glyphs: end
_glyph = bytearray(3)
_glyph_fb = None  # made by the first glyph drawn (the host reads GLYPHS without framebuf)
_inverse_fb = None  # palette for inverted text: glyph pixels 1 -> 0, the rest skipped


def _buffers():
    global _glyph_fb, _inverse_fb
    import framebuf

    _glyph_fb = framebuf.FrameBuffer(_glyph, 3, 8, framebuf.MONO_VLSB)
    _inverse_fb = framebuf.FrameBuffer(bytearray(1), 2, 1, framebuf.MONO_HLSB)
    _inverse_fb.pixel(0, 0, 1)


def glyph(fb, code, x, y, inverted=False):
    """Draw glyph number ``code`` (lang.glyph; ASCII characters: their code - 32) with its
    top-left pixel at ``x``, ``y``."""
    if _glyph_fb is None:
        _buffers()
    at = code * 3
    _glyph[0] = GLYPHS[at]
    _glyph[1] = GLYPHS[at + 1]
    _glyph[2] = GLYPHS[at + 2]
    if inverted:
        fb.blit(_glyph_fb, x, y, 1, _inverse_fb)
    else:
        fb.blit(_glyph_fb, x, y, 0)


def listen(telling):
    """As ui/draw.py's ``listen``: ``glyph`` becomes ``telling(glyph, 4)``."""
    global glyph
    glyph = telling(glyph, CELL_W)


def text(fb, s, col, row, inverted=False, limit=COLS):
    """``s`` (at most ``limit`` characters of it) from compact column ``col`` of compact
    row ``row``: a text's handle (lang.T) or a str; returns the next column."""
    x = col * CELL_W
    y = TOP + row * CELL_H
    if type(s) is int:  # a resolved text: its glyph numbers in lang.blob
        blob = lang.blob
        at = s >> 8
        n = s & 0xFF
        if n > limit:
            n = limit
        for i in range(at, at + n):
            glyph(fb, blob[i], x, y, inverted)
            x += CELL_W
        return col + n
    n = len(s) if len(s) < limit else limit
    for i in range(n):
        glyph(fb, lang.glyph(s[i]), x, y, inverted)
        x += CELL_W
    return col + n


def number(fb, value, right_col, row, inverted=False):
    """``value`` right-aligned with its last digit in ``right_col``; returns the column of
    its first character."""
    y = TOP + row * CELL_H
    col = right_col
    negative = value < 0
    if negative:
        value = -value
    while True:
        glyph(fb, 16 + value % 10, col * CELL_W, y, inverted)  # "0" is glyph 16
        value //= 10
        if value == 0:
            break
        col -= 1
    if negative:
        col -= 1
        glyph(fb, 13, col * CELL_W, y, inverted)  # "-"
    return col


def bar(fb, row):
    """Fill a compact row (the background of an inverted line)."""
    fb.fill_rect(0, TOP + row * CELL_H, COLS * CELL_W, CELL_H, 1)
