"""Text-grid drawing helpers for the 128x64 OLED: 16 columns x 8 rows of its 8x8 font.

The font is this project's own (host_tools/fonts/): printable ASCII and the letters of
the handheld's languages, numbered as lang.glyph numbers characters, so a text lang.py
resolved is drawn as it is. ``GLYPHS`` is one bytearray, 8 column bytes a glyph (bit 0
at the top, the OLED's MONO_VLSB layout), and also a frame buffer 8 * n pixels wide:
a glyph is two blits and no Python loop, the table at -8 * n onto an 8x8 cell (the clip
keeps that one glyph), then the cell onto the screen (inverted text through a 2-entry
palette). It lives here, not in a module of its own: on the device each module takes a
4 KiB littlefs block.

Everything sits on the 8-pixel grid (the simulator reads the screen back as text that
way). Numbers are drawn digit by digit, so redrawing a screen allocates nothing (no str
formatting in the frame loop).
"""

import sys

from micropython import const

import lang

COLS = const(16)
ROWS = const(8)
_CELL = const(8)
_WIDTH = const(128)
_ZERO = const(16)  # the glyph of "0" (ASCII 48 - 32); the digits follow it
_MINUS = const(13)  # "-"
_ONE = const(16384)  # strategy_win_meter.ONE: a chance of 1
_ONE_BITS = const(14)  # _ONE is 1 << 14
_cell_fb = None  # made by the first glyph drawn (the host reads GLYPHS without framebuf)
_table_fb = None
_inverse_fb = None

# glyphs: made by python -m host_tools.fonts from host_tools/fonts/glyphs_8x8.txt
GLYPHS = bytearray(
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x5f\x00\x00\x00\x00\x00\x00\x03\x00\x03\x00\x00\x00\x00\x14\x7f\x14\x7f\x14\x00\x00\x00\x24\x2a\x7f\x2a\x12\x00\x00\x00\x23\x13\x08\x64\x62\x00\x00\x00\x36\x49\x55\x22\x50\x00\x00\x00\x00\x04\x03\x00\x00\x00\x00"  #   ! " # $ % & '
    b"\x00\x00\x1c\x22\x41\x00\x00\x00\x00\x00\x41\x22\x1c\x00\x00\x00\x00\x14\x08\x3e\x08\x14\x00\x00\x00\x08\x08\x3e\x08\x08\x00\x00\x00\x00\xe0\x60\x00\x00\x00\x00\x00\x08\x08\x08\x08\x08\x00\x00\x00\x00\x60\x60\x00\x00\x00\x00\x00\x20\x10\x08\x04\x02\x00\x00"  # ( ) * + , - . /
    b"\x00\x3e\x51\x49\x45\x3e\x00\x00\x00\x00\x42\x7f\x40\x00\x00\x00\x00\x42\x61\x51\x49\x46\x00\x00\x00\x21\x41\x45\x4b\x31\x00\x00\x00\x18\x14\x12\x7f\x10\x00\x00\x00\x27\x45\x45\x45\x39\x00\x00\x00\x3c\x4a\x49\x49\x30\x00\x00\x00\x01\x71\x09\x05\x03\x00\x00"  # 0 1 2 3 4 5 6 7
    b"\x00\x36\x49\x49\x49\x36\x00\x00\x00\x06\x49\x49\x29\x1e\x00\x00\x00\x00\x36\x36\x00\x00\x00\x00\x00\x00\x76\x36\x00\x00\x00\x00\x00\x08\x14\x22\x41\x00\x00\x00\x00\x14\x14\x14\x14\x14\x00\x00\x00\x00\x41\x22\x14\x08\x00\x00\x00\x02\x01\x51\x09\x06\x00\x00"  # 8 9 : ; < = > ?
    b"\x00\x3e\x41\x5d\x55\x5e\x00\x00\x00\x7e\x09\x09\x09\x7e\x00\x00\x00\x7f\x49\x49\x49\x36\x00\x00\x00\x3e\x41\x41\x41\x22\x00\x00\x00\x7f\x41\x41\x22\x1c\x00\x00\x00\x7f\x49\x49\x49\x41\x00\x00\x00\x7f\x09\x09\x09\x01\x00\x00\x00\x3e\x41\x49\x49\x7a\x00\x00"  # @ A B C D E F G
    b"\x00\x7f\x08\x08\x08\x7f\x00\x00\x00\x00\x41\x7f\x41\x00\x00\x00\x00\x20\x40\x41\x3f\x01\x00\x00\x00\x7f\x08\x14\x22\x41\x00\x00\x00\x7f\x40\x40\x40\x40\x00\x00\x00\x7f\x02\x0c\x02\x7f\x00\x00\x00\x7f\x04\x08\x10\x7f\x00\x00\x00\x3e\x41\x41\x41\x3e\x00\x00"  # H I J K L M N O
    b"\x00\x7f\x09\x09\x09\x06\x00\x00\x00\x3e\x41\x51\x21\x5e\x00\x00\x00\x7f\x09\x19\x29\x46\x00\x00\x00\x46\x49\x49\x49\x31\x00\x00\x00\x01\x01\x7f\x01\x01\x00\x00\x00\x3f\x40\x40\x40\x3f\x00\x00\x00\x1f\x20\x40\x20\x1f\x00\x00\x00\x3f\x40\x38\x40\x3f\x00\x00"  # P Q R S T U V W
    b"\x00\x63\x14\x08\x14\x63\x00\x00\x00\x03\x04\x78\x04\x03\x00\x00\x00\x61\x51\x49\x45\x43\x00\x00\x00\x00\x7f\x41\x41\x00\x00\x00\x00\x02\x04\x08\x10\x20\x00\x00\x00\x00\x41\x41\x7f\x00\x00\x00\x00\x04\x02\x01\x02\x04\x00\x00\x00\x80\x80\x80\x80\x80\x00\x00"  # X Y Z [ \ ] ^ _
    b"\x00\x00\x01\x02\x00\x00\x00\x00\x00\x20\x54\x54\x54\x78\x00\x00\x00\x7f\x44\x44\x44\x38\x00\x00\x00\x38\x44\x44\x44\x44\x00\x00\x00\x38\x44\x44\x44\x7f\x00\x00\x00\x38\x54\x54\x54\x18\x00\x00\x00\x08\x7e\x09\x01\x02\x00\x00\x00\x18\xa4\xa4\xa4\x7c\x00\x00"  # ` a b c d e f g
    b"\x00\x7f\x08\x04\x04\x78\x00\x00\x00\x00\x44\x7d\x40\x00\x00\x00\x00\x40\x80\x84\x7d\x00\x00\x00\x00\x7f\x10\x28\x44\x00\x00\x00\x00\x00\x41\x7f\x40\x00\x00\x00\x00\x7c\x04\x38\x04\x78\x00\x00\x00\x7c\x08\x04\x04\x78\x00\x00\x00\x38\x44\x44\x44\x38\x00\x00"  # h i j k l m n o
    b"\x00\xfc\x24\x24\x24\x18\x00\x00\x00\x18\x24\x24\x24\xfc\x00\x00\x00\x7c\x08\x04\x04\x08\x00\x00\x00\x48\x54\x54\x54\x24\x00\x00\x00\x04\x3f\x44\x44\x20\x00\x00\x00\x3c\x40\x40\x20\x7c\x00\x00\x00\x1c\x20\x40\x20\x1c\x00\x00\x00\x3c\x40\x30\x40\x3c\x00\x00"  # p q r s t u v w
    b"\x00\x44\x28\x10\x28\x44\x00\x00\x00\x1c\xa0\xa0\xa0\x7c\x00\x00\x00\x44\x64\x54\x4c\x44\x00\x00\x00\x00\x08\x36\x41\x41\x00\x00\x00\x00\x00\x7f\x00\x00\x00\x00\x00\x41\x41\x36\x08\x00\x00\x00\x00\x08\x04\x04\x08\x04\x00\x00\x00\x20\x55\x54\x55\x78\x00\x00"  # x y z { | } ~ ä
    b"\x00\x38\x45\x44\x45\x38\x00\x00\x00\x3c\x41\x40\x21\x7c\x00\x00\x00\x7e\x01\x49\x4e\x30\x00\x00\x00\x79\x14\x14\x14\x79\x00\x00\x00\x39\x44\x44\x44\x39\x00\x00\x00\x3d\x40\x40\x40\x3d\x00\x00\x00\x38\x55\x54\x55\x18\x00\x00\x00\x00\x45\x7c\x41\x00\x00\x00"  # ö ü ß Ä Ö Ü ë ï
    b"\x00\x38\x54\x56\x55\x18\x00\x00\x00\x38\x55\x56\x54\x18\x00\x00\x00\x20\x55\x56\x54\x78\x00\x00\x00\x00\x45\x7e\x40\x00\x00\x00\x00\x38\x45\x46\x44\x38\x00\x00\x00\x3c\x41\x42\x20\x7c\x00\x00\x00\x7c\x54\x56\x55\x44\x00\x00\x00\x7c\x55\x56\x54\x44\x00\x00"  # é è à ì ò ù É È
    b"\x00\x7e\x42\x42\x42\x42\x7e\x00\x00\x7e\x7e\x7e\x7e\x7e\x7e\x00"  # ☐ ☑
)
# glyphs: end


def _buffers():
    global _cell_fb, _table_fb, _inverse_fb
    import framebuf

    _cell_fb = framebuf.FrameBuffer(bytearray(8), 8, 8, framebuf.MONO_VLSB)
    _table_fb = framebuf.FrameBuffer(GLYPHS, len(GLYPHS), 8, framebuf.MONO_VLSB)
    _inverse_fb = framebuf.FrameBuffer(bytearray(1), 2, 1, framebuf.MONO_HLSB)
    _inverse_fb.pixel(0, 0, 1)


def glyph(fb, number, x, y, inverted=False):
    """Glyph ``number`` (lang.glyph) with its top-left pixel at ``x``, ``y``."""
    if _cell_fb is None:
        _buffers()
    _cell_fb.blit(_table_fb, -8 * number, 0)
    if inverted:
        fb.blit(_cell_fb, x, y, 1, _inverse_fb)
    else:
        fb.blit(_cell_fb, x, y, 0)


def listen(telling):
    """A board that tells the screen as text (the web board's live region): ``glyph``
    becomes ``telling(glyph, 8)``, one that draws and tells (boards/hardware.py
    ``glyphs``), so a Pico's drawing tests nothing per glyph."""
    global glyph
    glyph = telling(glyph, _CELL)


def clear(fb):
    fb.fill(0)


def bar(fb, row):
    """Fill a whole text row (the background of an inverted line)."""
    fb.fill_rect(0, row * _CELL, _WIDTH, _CELL, 1)


def text(fb, s, col, row, inverted=False):
    """``s`` from column ``col`` of text row ``row``, clipped at the screen's edge: a
    text's handle (lang.T), or a str (a character without a glyph shows as ``?``)."""
    x = col * _CELL
    y = row * _CELL
    limit = COLS - col
    if type(s) is int:  # a resolved text: its glyph numbers in lang.blob
        blob = lang.blob
        at = s >> 8
        n = s & 0xFF
        if n > limit:
            n = limit
        for i in range(at, at + n):
            glyph(fb, blob[i], x, y, inverted)
            x += _CELL
        return
    n = len(s) if len(s) < limit else limit
    for i in range(n):
        glyph(fb, lang.glyph(s[i]), x, y, inverted)
        x += _CELL


def number(fb, value, right_col, row, inverted=False):
    """Draw ``value`` right-aligned so its last digit is in ``right_col``; returns the
    column of its first character (a minus sign for negatives)."""
    y = row * _CELL
    col = right_col
    negative = value < 0
    if negative:
        value = -value
    while True:
        glyph(fb, _ZERO + value % 10, col * _CELL, y, inverted)
        value //= 10
        if value == 0:
            break
        col -= 1
    if negative:
        col -= 1
        glyph(fb, _MINUS, col * _CELL, y, inverted)
    return col


def digits(value):
    """How many columns ``number`` uses for ``value``."""
    width = 1 if value >= 0 else 2
    value = -value if value < 0 else value
    while value >= 10:
        value //= 10
        width += 1
    return width


def hbar(fb, row, value, full):
    """A progress bar across the row's middle: ``value`` out of ``full`` (small ints)."""
    y = row * _CELL + 2
    fb.rect(0, y, _WIDTH, 4, 1)
    if full > 0:
        width = value * (_WIDTH - 2) // full
        if width > _WIDTH - 2:
            width = _WIDTH - 2
        if width > 0:
            fb.fill_rect(1, y + 1, width, 2, 1)


def percent(chance):
    """A chance to win in the win meter's units (strategy_win_meter.ONE = 16384) as a whole
    percent, rounded: strategy_win_meter.percent, here so the screens need not import the meter
    at boot (its module is loaded with the first multi-player game's meter)."""
    return (chance * 100 + (_ONE >> 1)) >> _ONE_BITS


def battery(fb, mv):
    """``3.9V`` at the right of the header row (inverted, columns 10-13), from millivolts
    (none when negative: not measured): the menu's header (app.py draws it there)."""
    if mv < 0:
        return
    tenths = (mv + 50) // 100
    text(fb, "V", 13, 0, True)
    text(fb, ".", 11, 0, True)
    number(fb, tenths % 10, 12, 0, True)
    number(fb, tenths // 10, 10, 0, True)


_pages = None  # ui/pages.py while a screen needs it


def pages(keep=True):
    """ui/pages.py (the Zoo card's pictures, the rules pages, messages' wrapping): imported
    by its first use, so a standard game's heap does not hold it. ``keep`` False: forget
    it (the rules pages or a message closed), its code garbage once nobody holds it; a
    Zoo game's next picture imports it again."""
    global _pages
    if keep:
        if _pages is None:
            _pages = __import__("ui.pages", None, None, ("*",))
        return _pages
    _pages = None
    if "ui.pages" in sys.modules:
        del sys.modules["ui.pages"]
        delattr(sys.modules["ui"], "pages")
    return None


def label(fb, ruleset, box, name, col, row, inverted=False):
    """A box as a screen names it: on the Zoo card its picture, else ``name`` (a text)."""
    if ruleset.faces:
        pages().picture(fb, ruleset, box, col, row, inverted)
    else:
        text(fb, name, col, row, inverted)
