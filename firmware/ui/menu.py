"""The setup menu: game settings, the list of menu lines they produce, and the menu
screen (ui/__init__.py says what a screen is), which also shows the rules pages of the
card chosen (ui/pages.py) when its "How to play" line is opened.

Settings live here as small ints; the menu is a list of item ids that depends on the
number of players (one "Pn human/CPU" line per player). ``change`` steps a value; the
screen (``setup``) draws the lines and moves its cursor.
"""

from micropython import const

import lang
from lang import T
import rules
import seats
from ui import draw

# Button ids as literals: private constants cost no RAM (imported names would).
_ROLL = const(5)  # drivers.buttons.ROLL
_UP = const(6)  # drivers.buttons.UP
_DOWN = const(7)  # drivers.buttons.DOWN
_OK = const(8)  # drivers.buttons.OK
_MENU_ROWS = const(7)
_TICKED = "\u2611"  # a filled box: on (the fonts draw both: lang.LETTERS)
_UNTICKED = "\u2610"  # an empty one: off

PLAYERS = const(0)
SEAT1 = const(1)  # SEAT1..SEAT4 = 1..4: human or computer for that player
JOKER = const(5)
YBONUS = const(6)
SOUND = const(7)
LEDS = const(8)
START = const(9)
RECORDS = const(10)  # high scores, statistics, dice fairness (save_session.py shows them)
COACH = const(11)  # hints and turn reviews from the strategy table (coach.py)
CARD = const(12)  # the standard card or the kids' Zoo card
LANGUAGE = const(13)  # the language of every text (lang.py), kept with the set-up
HOW_TO = const(14)  # the rules of the card chosen (ui/pages.py)

MAX_PLAYERS = const(4)
HUMAN = const(0)
CASUAL = const(4)
# How the statistics name a seat by its kind (seats.KINDS, in the same order): data,
# never shown as it is (the records pages show the language's name for it, person()).
STAT_NAMES = ("Human", "CPU optimal", "CPU win", "CPU good", "CPU casual")
# Coach modes: no advice; hints on request (short MENU in a turn); a review after each turn.
COACH_OFF = const(0)
COACH_HINT = const(1)
COACH_TURN = const(2)
N_COACH_MODES = const(3)
# The players' names in a game and its save (language-neutral: each language shows its
# own, lang T.seats).
SEAT_LABELS = ("P1", "P2", "P3", "P4")
# Each line's text (lang.T keys), by item id; the seats' lines show the seat's name.
LABELS = (
    "players", "", "", "", "", "joker", "yahtzee_bonus", "sound", "brightness", "start_game", "records", "coach",
    "card_line", "language", "how_to_play",
)  # fmt: skip
# A card: the standard one (its joker option and Yahtzee bonus on lines of their own) or
# the kids' Zoo card (neither).
STANDARD = const(0)
ZOO = const(1)


class Settings:
    def __init__(self, cfg):
        self.players = 2
        # Opponents start as CPU casual: one OK on a seat steps Human -> CPU optimal ->
        # win -> good -> casual -> Human, so a casual seat becomes human with one press.
        self.kinds = bytearray((HUMAN, CASUAL, CASUAL, CASUAL))
        choice = cfg.get("rules", "forced")
        self.card = ZOO if choice == rules.ZOO else STANDARD
        self.joker = rules.JOKERS.index(choice) if choice in rules.JOKERS else 0
        self.yahtzee_bonus = 1
        self.code = None  # a challenge code (four letters: app.py, from device.cfg): its dice
        self.coach = COACH_HINT
        self.sound = 1
        self.leds = 8
        # The texts' language: device.cfg's (make flash LANG=...) until the player picks
        # one here; ``lang_now`` (sim --lang) is this run's, over the saved set-up's.
        self._lang_now = cfg.get("lang_now")
        self.lang = lang.use(self._lang_now or cfg.get("lang", lang.ENGLISH))
        self.items = []
        # For the save layer, which imports nothing of the UI: its set-up store's check
        # and the statistics' names of computer seats (functions below).
        self.setup_ok = setup_ok
        self.computer_name = computer_name
        self.rebuild()

    def rebuild(self):
        """Recompute the menu lines (only when the number of players changes)."""
        items = self.items
        del items[:]
        # "Start game" first with the players right below it, so the first screen shows
        # who plays; the records last, one UP from "Start game".
        items.append(START)
        items.append(PLAYERS)
        for seat in range(self.players):
            items.append(SEAT1 + seat)
        items.append(CARD)
        if not self.zoo():  # the joker and the Yahtzee bonus: the standard card's only
            items.append(JOKER)
            items.append(YBONUS)
        items.append(HOW_TO)  # under the card's lines: the rules of the card chosen
        for item in (COACH, SOUND, LEDS, LANGUAGE, RECORDS):
            items.append(item)

    def zoo(self):
        """True when the kids' Zoo card is chosen (no joker options, no Yahtzee bonus)."""
        return self.card == ZOO

    def change(self, item, step=1):
        """Step the value of ``item`` (wrapping); returns True if the item list changed."""
        if item == PLAYERS:
            self.players = (self.players - 1 + step) % MAX_PLAYERS + 1
            self.rebuild()
            return True
        if SEAT1 <= item < SEAT1 + MAX_PLAYERS:
            seat = item - SEAT1
            self.kinds[seat] = (self.kinds[seat] + step) % len(seats.KINDS)
        elif item == CARD:
            self.card ^= 1
            self.rebuild()  # the joker and Yahtzee bonus lines go or come back
            return True
        elif item == JOKER:
            self.joker = (self.joker + step) % len(rules.JOKERS)
        elif item == YBONUS:
            self.yahtzee_bonus ^= 1
        elif item == COACH:
            self.coach = (self.coach + step) % N_COACH_MODES
        elif item == SOUND:
            self.sound ^= 1
        elif item == LEDS:
            self.leds = (self.leds + step) % 16
        elif item == LANGUAGE:
            self.lang = lang.use(self.lang, step)
        return False

    def set_coach(self, mode):
        """Restore a saved coach mode; anything else keeps the current one."""
        if isinstance(mode, int) and 0 <= mode < N_COACH_MODES:
            self.coach = mode

    def saved(self):
        """The set-up as the save layer keeps it between power-ons (names, not indexes,
        so a firmware that reorders the choices still reads it; ``setup_ok`` checks it)."""
        return {
            "players": self.players,
            "kinds": [seats.KINDS[kind] for kind in self.kinds],
            "rules": self.choice(),
            "ybonus": self.yahtzee_bonus,
            "coach": self.coach,
            "sound": self.sound,
            "leds": self.leds,
            "lang": self.lang,
        }

    def restore(self, value):
        """Take a set-up ``saved`` made (checked by ``setup_ok``)."""
        self.players = value["players"]
        for seat in range(MAX_PLAYERS):
            self.kinds[seat] = seats.KINDS.index(value["kinds"][seat])
        choice = value["rules"]
        self.card = ZOO if choice == rules.ZOO else STANDARD
        if choice in rules.JOKERS:
            self.joker = rules.JOKERS.index(choice)
        self.yahtzee_bonus = value["ybonus"]
        self.coach = value["coach"]
        self.sound = value["sound"]
        self.leds = value["leds"]
        saved = value.get("lang")  # a set-up saved before the languages has none
        if saved is not None and self._lang_now is None and saved != self.lang:
            self.lang = lang.use(saved)
        self.rebuild()

    def choice(self):
        """The rules as rules.CHOICES names them: the Zoo card, or the standard card's
        joker option."""
        return rules.ZOO if self.card == ZOO else rules.JOKERS[self.joker]

    def ruleset(self):
        return rules.make_ruleset(joker=self.choice(), yahtzee_bonus=bool(self.yahtzee_bonus))

    def player_list(self):
        """The ``(name, kind)`` list handed to game.Game."""
        return [(SEAT_LABELS[seat], seats.KINDS[self.kinds[seat]]) for seat in range(self.players)]


# Ranges of the saved set-up's small ints: key -> (lowest, highest).
_RANGES = (("players", 1, MAX_PLAYERS), ("ybonus", 0, 1), ("coach", 0, COACH_TURN), ("sound", 0, 1), ("leds", 0, 15))


def setup_ok(value):
    """True when ``value`` is a set-up ``Settings.restore`` can take (the store's shape
    check: anything else is damage, and the menu starts from its defaults). A set-up saved
    before the languages has no "lang" and still passes; a language this device lacks is
    English when restored."""
    try:
        kinds = value["kinds"]
        if type(kinds) is not list or len(kinds) != MAX_PLAYERS or len(value) != (8 if "lang" in value else 7):
            return False
        code = value.get("lang", "en")  # a set-up saved before the languages has none
        if type(code) is not str or not 2 <= len(code) <= 3 or not code.isalpha() or not code.islower():
            return False
        for kind in kinds:
            if type(kind) is not str or kind not in seats.KINDS:
                return False
        if type(value["rules"]) is not str or value["rules"] not in rules.CHOICES:
            return False
        for key, low, high in _RANGES:
            if type(value[key]) is not int or not low <= value[key] <= high:
                return False
    except (KeyError, TypeError, IndexError):
        return False
    return True


# The setup menu screen: UP/DOWN move, OK or ROLL changes a value, starts the game or
# opens the records. Its state (module-level: the app holds none of it): the line under
# the cursor and the first line shown.
cursor = 0
top = 0
_reading = False  # the rules pages show (ui/pages.py)


def home(settings):
    """The menu as it opens (app.show): "Start game" and the players' set-up below it."""
    global cursor, top
    cursor = settings.items.index(START)
    top = 0
    _close_pages()  # left while the rules showed


def _close_pages():
    global _reading
    if _reading:
        _reading = False
        draw.pages(False)


def _setup_draw(app, fb):
    if _reading:
        draw.pages().paint(fb)
        return
    settings = app.settings
    items = settings.items
    draw.clear(fb)
    draw.bar(fb, 0)
    draw.text(fb, T.menu, 0, 0, True)
    for line in range(7):
        index = top + line
        if index >= len(items):
            break
        row = line + 1
        item = items[index]
        inv = index == cursor
        if inv:
            draw.bar(fb, row)
        if SEAT1 <= item < SEAT1 + MAX_PLAYERS:
            seat = item - SEAT1
            draw.text(fb, lang.item(T.seats, seat), 0, row, inv)
            draw.text(fb, lang.item(T.kinds, settings.kinds[seat]), 3, row, inv)
            continue
        # The line's name at the left, its value at the right.
        if item == YBONUS:
            draw.text(fb, lang.item(T.yahtzee_bonus, 0), 0, row, inv)
        elif item == START and settings.code is not None:  # the game it starts: the code's dice
            draw.text(fb, T.challenge, 0, row, inv)
            draw.text(fb, settings.code, 12, row, inv)
        else:
            draw.text(fb, getattr(T, LABELS[item]), 0, row, inv)
        value = -1
        if item == PLAYERS:
            draw.number(fb, settings.players, 15, row, inv)
        elif item == LEDS:
            draw.number(fb, settings.leds, 15, row, inv)
        elif item == CARD:
            value = lang.item(T.cards, settings.card)
        elif item == JOKER:
            value = lang.item(T.jokers, settings.joker)
        elif item == COACH:
            value = lang.item(T.coach_modes, settings.coach)
        elif item == LANGUAGE:
            value = T.lang_name  # each language's own name for itself
        elif item == YBONUS or item == SOUND:  # a box, ticked when on
            on = settings.yahtzee_bonus if item == YBONUS else settings.sound
            draw.text(fb, _TICKED if on else _UNTICKED, 15, row, inv)
        if value >= 0:
            draw.text(fb, value, 16 - (value & 0xFF), row, inv)
    if top > 0:
        draw.text(fb, "^", 14, 0, True)  # lines above (cols 10-13: the battery)
    if top + 7 < len(items):
        draw.text(fb, "v", 15, 0, True)  # and below


def _setup_handle(app, button, long):
    global cursor, top, _reading
    settings = app.settings
    if _reading:
        if draw.pages().press(button):  # read, or MENU: back to the menu line
            _close_pages()
        app.dirty = True
        return
    if button == _UP or button == _DOWN:
        step = 1 if button == _DOWN else -1
        cursor = (cursor + step) % len(settings.items)
    elif button == _OK or button == _ROLL:
        item = settings.items[cursor]
        if item == START:
            app.new_game()
            return
        if item == RECORDS:
            if app.session is not None:
                app.session.open_records(app)
            return
        if item == HOW_TO:
            draw.pages().start(settings.zoo())
            _reading = True
            app.dirty = True
            return
        if settings.change(item):
            cursor = settings.items.index(item)
        app.apply_settings()
        app.changed()
    if cursor < top:  # scrolled so the cursor's line shows
        top = cursor
    elif cursor > top + _MENU_ROWS - 1:
        top = cursor - _MENU_ROWS + 1
    app.dirty = True


setup = (_setup_draw, _setup_handle, None)  # draw, handle, tick


def stat_name(kind):
    """How the statistics name a seat of ``kind`` (``CPU casual``), the same in every
    language; older saves' ``cpu`` kind is ``CPU``."""
    if kind in seats.KINDS:
        return STAT_NAMES[seats.KINDS.index(kind)]
    return "CPU"


def computer_name(kind):
    """A computer seat's name in the statistics (``stat_name``), so levels are kept
    apart; None for a human seat (the records keep the player's own name)."""
    return stat_name(kind) if seats.computer(kind) else None


def person(name):
    """How the records pages name a player of the statistics: a seat ("P1") or a
    computer level (``computer_name``) in the chosen language, anything else as it is."""
    if name in SEAT_LABELS:
        return lang.item(T.seats, SEAT_LABELS.index(name))
    if name in STAT_NAMES:
        return lang.item(T.kinds, STAT_NAMES.index(name))
    if name == "CPU":
        return lang.item(T.human_cpu, 1)
    return name
