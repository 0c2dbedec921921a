"""What only some screens draw, imported at its first use and forgotten when the last
screen needing it closes (ui/draw.py ``pages``), so the standard game's heap does not
hold it: the Zoo card's pictures, the rules pages (the menu's "How to play" line) and
``wrap`` for messages.

The Zoo card's pictures, for a child who cannot read yet: a box is its animal as the
dice show it (drivers/pips.py ANIMAL_ROWS), or a row of small shapes for a combination:
three the same (3 rounds), four the same (4), a full house (3 rounds and 2 triangles),
all different (5 shapes), a Zoo Yahtzy (5 stars); a star also marks the upper bonus.
Drawing copies a picture's rows into one small frame buffer made at first use and blits
it (inverted through a 2-entry palette): a call allocates nothing.

The rules pages: how a turn goes, what each box needs and the bonuses, for the card
chosen, in the language chosen, on the 8x8 grid. The texts are the catalog's (lang.py
``rules_*``), wrapped at the screen's 16 columns as they are drawn (a ``|`` in a text
starts a new line), so a language needs no line breaks of its own; on the Zoo card every
box also shows as its picture with its points, beside or above its name. UP/DOWN scroll
a line, OK or ROLL a screen and, at the end, go back to the menu, as MENU does
(ui/menu.py: ``start``, ``paint``, ``press``). Drawing walks the texts from the start
each time (a few hundred characters) and allocates nothing.
"""

from micropython import const

import lang
from lang import T
import rules
from ui import draw

_ROWS = const(7)  # text rows under the heading
_COLS = const(16)
_CELL = const(8)
_SPACE = const(0)  # the glyph of " "
_BAR = const(92)  # of "|": a new line
_FACE = const(0)  # rules.FACE
_ROLL = const(5)  # drivers.buttons.ROLL
_UP = const(6)
_DOWN = const(7)
_OK = const(8)
_MENU = const(9)

_SAME = const(1)  # rules.SAME
_FULL_HOUSE = const(2)  # rules.FULL_HOUSE
_DIFFERENT = const(5)  # rules.DIFFERENT
_ROUND = const(0)
_TRIANGLE = const(1)
STAR = const(5)
_SHAPE_H = const(5)
_SHAPE_PITCH = const(7)  # 5 pixels and a gap
# Row bytes, the leftmost pixel the top bit (MONO_HLSB), 5 rows a shape.
_SHAPES = (
    b"\x70\xf8\xf8\xf8\x70"  # round     .###. ##### ##### ##### .###.
    b"\x20\x70\x70\xf8\xf8"  # triangle  ..#.. .###. .###. ##### #####
    b"\xf8\x88\x88\x88\xf8"  # square    ##### #...# #...# #...# #####
    b"\x20\x70\xf8\x70\x20"  # diamond   ..#.. .###. ##### .###. ..#..
    b"\x20\x20\xf8\x20\x20"  # cross     ..#.. ..#.. ##### ..#.. ..#..
    b"\x20\xf8\x70\x70\x88"  # star      ..#.. ##### .###. .###. #...#
)
top = 0  # the first line shown
lines = 0  # the lines the pages take
zoo = None  # the Zoo card's ruleset while its rules show (its boxes' pictures)


_buffers = None  # [animals, shapes, an 8x8 cell, an 8x5 cell, the inverse palette]


def _make_buffers():
    global _buffers
    import framebuf

    from drivers.pips import ANIMAL_ROWS

    hlsb = framebuf.MONO_HLSB
    inverse = framebuf.FrameBuffer(bytearray(1), 2, 1, hlsb)
    inverse.pixel(0, 0, 1)  # picture pixels 1 -> 0, the rest skipped
    _buffers = (
        framebuf.FrameBuffer(bytearray(ANIMAL_ROWS), 8, len(ANIMAL_ROWS), hlsb),
        framebuf.FrameBuffer(bytearray(_SHAPES), 8, len(_SHAPES), hlsb),
        framebuf.FrameBuffer(bytearray(8), 8, 8, hlsb),
        framebuf.FrameBuffer(bytearray(_SHAPE_H), 8, _SHAPE_H, hlsb),
        inverse,
    )


def _stamp(fb, table, cell, at, x, y, inverted):
    """Row ``at`` on of ``table`` (its cell's height), through the cell, onto ``fb``."""
    cell.blit(table, 0, -at)
    if inverted:
        fb.blit(cell, x, y, 1, _buffers[4])
    else:
        fb.blit(cell, x, y, 0)


def animal(fb, face, x, y, inverted=False):
    """The animal of die ``face`` (1..6), 8x8, its top-left pixel at ``x``, ``y``."""
    if _buffers is None:
        _make_buffers()
    _stamp(fb, _buffers[0], _buffers[2], 8 * (face - 1), x, y, inverted)


def shape(fb, which, x, y, inverted=False):
    """One of the small shapes (``STAR``, ...), 5x5, its top-left pixel at ``x``, ``y``."""
    if _buffers is None:
        _make_buffers()
    _stamp(fb, _buffers[1], _buffers[3], _SHAPE_H * which, x, y, inverted)


def picture(fb, ruleset, box, col, row, inverted=False):
    """Box ``box`` of the Zoo card as its picture in text cell ``col``, ``row``: its animal,
    or the shapes of its combination (at most 5, 35 pixels); a box of kinds the Zoo card
    does not have draws nothing."""
    x = col * _CELL
    y = row * _CELL
    _id, kind, param, _points = ruleset.boxes[box]
    if kind == _FACE:
        animal(fb, param, x, y, inverted)
        return
    for i in range(5):
        if kind == _DIFFERENT:  # five different shapes
            which = i
        elif kind == _FULL_HOUSE:  # three the same and two the same
            which = _ROUND if i < 3 else _TRIANGLE
        elif kind == _SAME and i < param:  # so many the same, stars for five
            which = STAR if param == 5 else _ROUND
        else:
            return
        shape(fb, which, x + i * _SHAPE_PITCH, y + 1, inverted)


def card(fb, ruleset, card_, upper, upper_bonus):
    """The Zoo card on the 8x8 grid under its header (ui/scorecard.py), every box a
    picture with its points: the animals down the left, each beside its points (``.``
    while open), their sum against the bonus's 18 under a star (or the bonus won), the
    combinations down the right."""
    split = ruleset.n_upper
    for box in range(ruleset.n_boxes):
        left = box < split  # an animal
        row = box + 1 if left else box - split + 1
        picture(fb, ruleset, box, 0 if left else 5, row)
        right = 2 if left else 15
        if card_[box] >= 0:
            draw.number(fb, card_[box], right, row)
        else:
            draw.text(fb, ".", right, row)
    shape(fb, STAR, 1, 7 * _CELL + 1)
    if upper_bonus:
        draw.number(fb, upper_bonus, 2, 7)
    else:  # the animals' points so far, of the 18 the bonus needs
        col = draw.number(fb, ruleset.upper_threshold, 5, 7)
        draw.text(fb, "/", col - 1, 7)
        draw.number(fb, upper, col - 2, 7)


def dice(fb, faces, col, row, step):
    """The animals of five dice, every ``step`` cells from cell ``col``, ``row``."""
    for i in range(5):
        animal(fb, faces[i], (col + step * i) * _CELL, row * _CELL)


# ---------------------------------------------------------------- the rules pages
def start(zoo_card):
    """The rules of the standard card, or of the Zoo card (``zoo_card`` True), from the
    top."""
    global top, lines, zoo
    top = 0
    zoo = rules.make_ruleset(rules.ZOO) if zoo_card else None
    lines = 0
    lines = _walk(None)


def paint(fb):
    draw.clear(fb)
    draw.bar(fb, 0)
    draw.text(fb, T.rules_title, 0, 0, True)
    if top > 0:
        draw.text(fb, "^", 14, 0, True)  # lines above (cols 10-13: the battery)
    if top + _ROWS < lines:
        draw.text(fb, "v", 15, 0, True)  # and below
    _walk(fb)


def press(button):
    """A button on the pages; True when they are done (back to the menu)."""
    global top
    last = lines - _ROWS if lines > _ROWS else 0
    if button == _UP:
        if top > 0:
            top -= 1
    elif button == _DOWN:
        if top < last:
            top += 1
    elif button == _OK or button == _ROLL:
        if top >= last:
            return True
        top = top + _ROWS if top + _ROWS < last else last
    elif button == _MENU:
        return True
    return False


def _walk(fb):
    """Draw the lines in view (``fb`` None: none); returns the number of lines."""
    if zoo is None:
        line = _text(fb, T.rules_turn, 0)
        line = _text(fb, T.rules_upper, line)
        line = _text(fb, T.rules_lower, line)
        return _text(fb, T.rules_more, line)
    line = _text(fb, T.rules_turn, 0)
    line = _text(fb, T.rules_zoo, line)
    boxes = zoo.boxes
    for box in range(len(boxes)):
        box_id, kind, _param, points = boxes[box]
        name = lang.item(getattr(T, box_id), 0)
        row = line - top + 1
        # An animal: its picture, its name beside it; a combination's shapes take five
        # cells, its name goes under them.
        if fb is not None and 0 < row <= _ROWS:
            picture(fb, zoo, box, 0, row)
            draw.number(fb, points, 15, row)
            if kind == _FACE:
                draw.text(fb, name, 2, row)
        if kind != _FACE:
            line += 1
            if fb is not None and 0 < row + 1 <= _ROWS:
                draw.text(fb, name, 1, row + 1)
        line += 1
    line = _text(fb, T.rules_zoo_bonus, line)
    row = line - top + 1
    if fb is not None and 0 < row <= _ROWS:  # the star the card shows for the bonus
        shape(fb, STAR, 1, row * _CELL + 1)
        draw.number(fb, zoo.upper_threshold, 4, row)
        draw.text(fb, "+", 13, row)
        draw.number(fb, zoo.upper_bonus, 15, row)
    return line + 1


def _text(fb, handle, line):
    """The text ``handle`` from line ``line`` on, wrapped at a space so a line holds at
    most 16 characters (a longer word runs off the screen: the catalogs' test finds it),
    each ``|`` starting a new line; returns the line after it."""
    blob = lang.blob
    at = handle >> 8
    end = at + (handle & 0xFF)
    while at <= end:
        stop = at  # the end of this item: a bar or the text's end
        while stop < end and blob[stop] != _BAR:
            stop += 1
        while True:
            cut = stop
            if stop - at > _COLS:  # break at the last space that leaves a line that fits
                cut = at + _COLS
                while cut > at and blob[cut] != _SPACE:
                    cut -= 1
                if cut == at:  # no space: the whole word
                    cut = at + _COLS
                    while cut < stop and blob[cut] != _SPACE:
                        cut += 1
            if fb is not None and top <= line < top + _ROWS:
                draw.text(fb, at << 8 | (cut - at), 0, line - top + 1)
            line += 1
            at = cut + 1  # past the space (or the bar)
            if cut >= stop:
                break
        at = stop + 1
    return line


def wrap(text, width=_COLS, rows=_ROWS):
    """``text`` (a str) as at most ``rows`` lines of at most ``width`` characters, broken
    at spaces and at each newline (only a word longer than a line is cut). For messages
    (ui/records_screens.py, main.py's), made once when shown: it allocates."""
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
