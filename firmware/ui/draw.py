"""Text-grid drawing helpers for the 128x64 OLED: 16 columns x 8 rows of the 8x8 font
(ui/font8.py, our own glyphs: ASCII and the letters of the handheld's languages).

Everything sits on the 8-pixel grid (the simulator reads the screen back as text that
way). Numbers are drawn digit by digit, so redrawing a screen allocates nothing (no str
formatting in the frame loop).
"""

from micropython import const

from ui import font8

COLS = const(16)
ROWS = const(8)
_CELL = const(8)
_WIDTH = const(128)
_ZERO = const(16)  # font8's glyph of "0" (ASCII 48 - 32); the digits follow it
_MINUS = const(13)  # "-"
_ONE = const(16384)  # strategy_win_meter.ONE: a chance of 1
_ONE_BITS = const(14)  # _ONE is 1 << 14


def clear(fb):
    fb.fill(0)


def bar(fb, row):
    """Fill a whole text row (the background of an inverted line)."""
    fb.fill_rect(0, row * _CELL, _WIDTH, _CELL, 1)


def text(fb, s, col, row, inverted=False):
    """``s`` from column ``col`` of text row ``row``, clipped at the screen's edge."""
    font8.text(fb, s, col * _CELL, row * _CELL, inverted, COLS - col)


def number(fb, value, right_col, row, inverted=False):
    """Draw ``value`` right-aligned so its last digit is in ``right_col``; returns the
    column of its first character (a minus sign for negatives)."""
    y = row * _CELL
    col = right_col
    negative = value < 0
    if negative:
        value = -value
    while True:
        font8.glyph(fb, _ZERO + value % 10, col * _CELL, y, inverted)
        value //= 10
        if value == 0:
            break
        col -= 1
    if negative:
        col -= 1
        font8.glyph(fb, _MINUS, col * _CELL, y, inverted)
    return col


def digits(value):
    """How many columns ``number`` uses for ``value``."""
    width = 1 if value >= 0 else 2
    value = -value if value < 0 else value
    while value >= 10:
        value //= 10
        width += 1
    return width


def wrap(text, width=COLS, rows=ROWS - 1):
    """``text`` as at most ``rows`` lines of at most ``width`` characters, broken at
    spaces and at each newline (only a word longer than a line is cut). For messages,
    made once when shown: it allocates."""
    lines = []
    for part in text.split("\n"):
        line = ""
        for word in part.split():
            while len(word) > width:  # no space to break at
                if line:
                    lines.append(line)
                    line = ""
                lines.append(word[:width])
                word = word[width:]
            if not line:
                line = word
            elif len(line) + 1 + len(word) <= width:
                line += " " + word
            else:
                lines.append(line)
                line = word
        if line:
            lines.append(line)
    return lines[:rows]


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
