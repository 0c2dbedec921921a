"""Draws the handheld's screens and records what each put where, for the catalogs' test
(test_lang_cases.py), on CPython and inside MicroPython alike.

``Recorder`` wraps ui/draw.py's and ui/font.py's text and number functions (the real ones
still draw, into a real frame buffer): every call is an item with its place on the
OLED in pixels, and ``check()`` after a screen's draw names every item that runs off the
screen, is cut short by its field, or overlaps another, and every text from a catalog
that touches its neighbour without a blank column between. ``covered`` collects the
places in lang.blob of the characters drawn, so the test can ask that every text of a
catalog was drawn somewhere (whole, or a line at a time where a screen wraps it).

``make_app()`` is the real app (app.py) on a stand-in board with no strategy table, and
``Coach`` a stand-in for coach.py's figures the hint and the review screens read.
"""

import app as app_module
import game as game_module
from screen_rig import Screen
from ui import draw
from ui import font

_GRID = 8  # ui/draw.py's cells


class Recorder:
    def __init__(self):
        self.items = []
        self.problems = []
        self.covered = bytearray(0)  # 1 at each place in lang.blob drawn (sized by the test)
        self._text = draw.text
        self._number = draw.number
        self._ftext = font.text
        self._fnumber = font.number

    def install(self):
        draw.text = self.text
        draw.number = self.number
        font.text = self.ftext
        font.number = self.fnumber

    def remove(self):
        draw.text = self._text
        draw.number = self._number
        font.text = self._ftext
        font.number = self._fnumber

    def _add(self, s, x, y, w, h, limit):
        catalog = type(s) is int
        n = (s & 0xFF) if catalog else len(s)
        if catalog:
            for i in range(s >> 8, (s >> 8) + n):
                self.covered[i] = 1
        if limit is not None and n > limit:
            self.problems.append((s, "cut short to %d of %d characters" % (limit, n)))
        self.items.append((x, y, x + n * w, y + h, s, w if catalog else 0))

    def text(self, fb, s, col, row, inverted=False):
        self._add(s, col * _GRID, row * _GRID, _GRID, _GRID, None)
        self._text(fb, s, col, row, inverted)

    def number(self, fb, value, right_col, row, inverted=False):
        first = self._number(fb, value, right_col, row, inverted)
        self.items.append((first * _GRID, row * _GRID, (right_col + 1) * _GRID, (row + 1) * _GRID, str(value), 0))
        return first

    def ftext(self, fb, s, col, row, inverted=False, limit=font.COLS):
        self._add(s, col * font.CELL_W, font.TOP + row * font.CELL_H, font.CELL_W, font.CELL_H, limit)
        return self._ftext(fb, s, col, row, inverted, limit)

    def fnumber(self, fb, value, right_col, row, inverted=False):
        first = self._fnumber(fb, value, right_col, row, inverted)
        y = font.TOP + row * font.CELL_H
        self.items.append((first * font.CELL_W, y, (right_col + 1) * font.CELL_W, y + font.CELL_H, str(value), 0))
        return first

    def start(self):
        self.items = []
        self.problems = []

    def check(self, screen, name):
        """Problems of the screen just drawn, each naming ``screen`` and the text
        (``name(s)``: a catalog's handle as its text): off the screen, cut short by its
        field, overlapping another item, or a catalog's text with no blank cell between it
        and the item beside it."""
        found = []
        for s, problem in self.problems:
            found.append("%s: %s: %r" % (screen, problem, name(s)))
        items = self.items
        for x0, _y0, x1, y1, s, _cell in items:
            if x0 < 0 or x1 > 128 or y1 > 64:
                found.append("%s: off the screen: %r" % (screen, name(s)))
        for i in range(len(items)):
            for j in range(i + 1, len(items)):
                a, b = items[i], items[j]
                if a[1] >= b[3] or b[1] >= a[3]:
                    continue  # not on the same line
                left, right = (a, b) if a[0] <= b[0] else (b, a)
                gap = right[0] - left[2]
                if gap < 0:
                    found.append("%s: %r overlaps %r" % (screen, name(left[4]), name(right[4])))
                # A word of a catalog keeps a blank cell after it, and before it unless
                # what stands there is a one-character sign (the list's scroll arrows).
                elif left[5] and gap < left[5] or right[5] and gap < right[5] and not _sign(left[4]):
                    found.append("%s: %r touches %r" % (screen, name(left[4]), name(right[4])))
        return found


def _sign(s):
    return type(s) is str and len(s) == 1 and not "0" <= s <= "9"


class _Dice:
    def show(self, faces, held):
        pass

    def brightness(self, level):
        pass

    def animals(self, on):
        pass

    def power(self, on):
        pass


class _Buttons:
    def poll(self, now):
        pass

    def get(self):
        return -1

    def settling(self):
        return False

    def clear(self):
        pass


class _DiceSource:
    """Faces from a fixed list, over and over."""

    def __init__(self):
        self.at = 0

    def randint(self, low, high):
        self.at += 1
        return low + (self.at * 7) % (high - low + 1)

    def first_press(self, us):
        pass


class _Hw:
    def __init__(self):
        self.oled = Screen()
        self.dice = _Dice()
        self.buttons = _Buttons()
        self.buzzer = None
        self.dice_source = _DiceSource()
        self.idle = None
        self.faults = []

    def ticks_ms(self):
        return 0


def make_app():
    """The real app on a stand-in board, in the menu; no save layer, no strategy table."""
    a = app_module.App(_Hw(), {})
    a.settings.coach = 0  # no table to open
    return a


def set_game(a, choice, kinds, cards=None):
    """A game of ``kinds`` (seats.KINDS) on the ``choice`` card (rules.CHOICES),
    past the roll-off, with ``cards`` (one a player) if given."""
    import rules

    ruleset = rules.make_ruleset(choice)
    players = [("P%d" % (i + 1), kinds[i]) for i in range(len(kinds))]
    g = game_module.Game(ruleset, players, a.hw.dice_source)
    while g.phase == game_module.ROLLOFF:
        g.rolloff()
    if cards is not None:
        for i in range(len(cards)):
            g.players[i].card[:] = cards[i]
    a.game = g
    import lang

    lang.card(ruleset)
    a.refresh_totals()
    return g


class Coach:
    """What the hint and the review screens read of coach.py."""

    def __init__(self):
        self.adv = None
        self.hint_box = -1
        self.hint_code = 0b10101
        self.hint_rolls_left = 1
        self.hint_value = 0
        self.win_differs = False
        self.win_box = -1
        self.win_code = 0
        self.hint_chance = 5000
        self.win_chance = 9000
        self.lost = 0
        self.worst_kind = 0
        self.worst_code = 0
        self.worst_rolls_left = 0
        self.worst_dice = [6, 6, 5, 4, 1]
        self.in_chance = False

    def tenths(self, value):
        return 2596

    def lost_tenths(self):
        return self.lost
