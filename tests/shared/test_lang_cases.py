"""Every text of every catalog (firmware/lang_*.py), drawn on the screen that shows it,
run by pytest AND inside MicroPython: no character without a glyph in the fonts, and no
text that runs off the screen, is cut short, overlaps what is beside it or touches it
without a blank column. Each language draws the menu (every line and value), the
splash, the roll-off, the turn and its confirmation, the card view, a computer's
summary, the end, the hint and the review, the records pages and the initials, the rules
pages, on the standard and the Zoo card, and every text and every item of a list must
have been drawn somewhere (screens_rig.py records it).
"""

import lang
import lang_en

import rules
from check import equal, true
from screens_rig import Coach, Recorder, make_app, set_game
import app as app_module
from ui import coach_screens
from ui import draw
from ui import menu
from ui import records_screens
from ui import scorecard
from ui import screens
from ui import turn_screen

_N = 13  # boxes on the standard card
_DOWN = 7  # drivers.buttons.DOWN
_OK = 8
_MENU = 9
_SPACE = 0  # lang.glyph(" ")
# Cards with the upper section at several states: bonus earned, bonus still needed.
_FULL = [3, 8, 12, 16, 20, 24, 25, 30, 25, 30, 40, 50, 22, 300]
_EARLY = [2, -1, 9, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0]
_ZOO = [5, 4, 3, -1, 2, 5, 10, -1, 15, -1, 30, 0]


def _texts(code):
    """{key: text} of lang_<code>.py, read here (the catalog's lines)."""
    source = __import__("lang_" + code).TEXTS
    texts = {}
    for line in ("\n".join(source) if type(source) is tuple else source).split("\n"):
        if line and line[0] != "#":
            at = line.find(" = ")
            texts[line[:at]] = line[at + 3 :]
    return texts


def _items(code):
    """{handle of each item of each text: "key[i]"} of the language in use."""
    found = {}
    for key in _texts(lang.ENGLISH):
        handle = getattr(lang.T, key)
        n = 1 + lang.string(handle).count("|")
        for i in range(n):
            found[lang.item(handle, i)] = "%s[%d]" % (key, i) if n > 1 else key
    return found


def test_every_language_on_this_device_is_one_of_the_catalogs():
    codes = lang_en.codes()
    equal(codes[0], lang.ENGLISH, "English first")
    for code in codes:
        _texts(code)  # a module with TEXTS


def test_every_character_of_every_catalog_has_a_glyph():
    for code in lang_en.codes():
        for key, text in _texts(code).items():
            for char in text:
                true(char == "?" or lang.glyph(char) != lang.glyph("?"), code, key, char, what="no glyph")


class _Session:
    """What the end screen asks the save layer, and the power figure the menu shows."""

    def __init__(self, waits):
        self.waits = waits
        self.asks = []

    def scores_wait(self):
        return self.waits


class _Records:
    def __init__(self, ruleset, scores, faces):
        self.ruleset = ruleset
        self.scores = scores
        self.stats = {
            "games": 12345,
            "last": 7,
            "all": [9999, 1234567, 375, 999, 9999],
            "names": {"P1": [9999, 1234567, 375, 999, 9999], "CPU casual": [3, 600, 230, 1, 2]},
        }
        self.rolls = {"last": 7, "faces": faces}


def _draw_everything(a, rec, fb, problems):
    """Every screen in the states that show each of its texts."""

    def show(screen_id, name, draw_fn=None):
        rec.start()
        fb.fill(0)
        if draw_fn is None:
            app_module.SCREENS[screen_id][0](a, fb)
        else:
            draw_fn(fb)
        problems.extend(rec.check("%s %s" % (lang.code, name), lambda s: lang.string(s) if type(s) is int else s))

    # The menu, four players of every kind, every value, scrolled through; both cards.
    settings = a.settings
    settings.players = 4
    for first in (0, 4):
        for seat in range(4):
            settings.kinds[seat] = (first + seat) % 5
        for card in (menu.STANDARD, menu.ZOO):
            settings.card = card
            settings.rebuild()
            for choice in range(4):
                settings.joker = choice
                settings.coach = choice % 3
                settings.sound = settings.yahtzee_bonus = choice & 1
                for top in range(len(settings.items) - 6):
                    menu.top = top
                    menu.cursor = top + choice
                    show(app_module.MENU_SCREEN, "menu")
    settings.coach = 0
    settings.code = "W" * 4  # a challenge code (sim --challenge, the web page's link): its line
    menu.top = menu.cursor = 0
    show(app_module.MENU_SCREEN, "menu")
    settings.code = None
    show(app_module.SPLASH, "splash")
    # The rules pages of both cards (the menu's How to play line), scrolled to the end
    # a line at a time, and left.
    handle = app_module.SCREENS[app_module.MENU_SCREEN][1]
    for card in (menu.STANDARD, menu.ZOO):
        settings.card = card
        settings.rebuild()
        menu.cursor = settings.items.index(menu.HOW_TO)
        handle(a, _OK, False)
        for _line in range(60):
            show(app_module.MENU_SCREEN, "rules")
            handle(a, _DOWN, False)
        handle(a, _MENU, False)
    settings.card = menu.STANDARD
    settings.rebuild()

    for choice, kinds in (("forced", ("human", "casual", "human", "optimal")), ("zoo", ("human", "win"))):
        g = set_game(a, choice, kinds)
        n = g.rules.n_boxes
        # The roll-off: the faces, who starts, a tie, and the reasons for no advice.
        a.faces[:] = [6, 5, 4, 3, 2]
        for starter, tie, note in ((-1, True, "no_table"), (2, False, "no_ram"), (0, False, "table_damaged")):
            a.starter, a.tie, a.note = starter, tie, note
            show(app_module.ROLLOFF, "roll-off")
        a.note = ""
        show(app_module.CONFIRM_QUIT, "quit")
        # The turn: every box in the list, the footers.
        g.roll()
        g.options(a.options)
        for box in range(n):
            a.cursor = box
            a.scroll_cursor()
            for msg in ("", "no_rolls_left", "all_held"):
                a.turn_msg = msg
                show(app_module.TURN, "turn")
        a.turn_msg = ""
        a.note = "no_table"
        g.round = 0
        show(app_module.TURN, "turn")
        a.note = ""
        # Before the next roll the last score can be taken back; a computer waits for OK.
        rolled = (list(g.dice), g.rolls)
        g.dice[:], g.rolls = [0] * 5, 0
        g.last = [0, 0, 0, 0, 1, 1, 1, 1, 1, 1]
        for seat in (0, 1):  # a human's turn, a computer's
            g.current = seat
            show(app_module.TURN, "turn, the last score can go back")
        g.current, g.last = 0, None
        g.dice[:], g.rolls = rolled
        # Scoring each box: its points, the bonuses it would earn, the total then.
        for box in range(n):
            for points in (0, 25):
                screens_state = (box, points, 100 if box == rules.YAHTZEE else 0, 35 if box < 6 else 0, 375)
                turn_screen._confirm[:] = list(screens_state)
                show(app_module.CONFIRM_SCORE, "confirm")
        # The card view: full, early, the Zoo card; the win meter on and off.
        for cards in ((_FULL, _EARLY), (_EARLY, _FULL)) if choice != "zoo" else ((_ZOO, _ZOO),):
            for i in range(2):
                g.players[i].card[:] = cards[i]
            a.refresh_totals()
            for win in (False, True):
                a.win_known = win
                a.win_chance[0] = 16000
                scorecard.card_seat = 0
                show(app_module.CARD, "card")
        # A computer's summary of every box, with the bonuses it can earn.
        for box in range(n):
            screens._summary[:] = [1, box, 25, 100 if choice != "zoo" else 0, 35]
            show(app_module.SUMMARY, "summary")
            screens._summary[:] = [1, box, 25, 0, 0]
            show(app_module.SUMMARY, "summary")
        # The hint: a hold, every box (to score now and at the end), two moves.
        real = a.coach
        coach = a.coach = Coach()
        show(app_module.HINT, "hint")
        for box in range(n):
            coach.hint_box = box
            for left in (0, 1):
                coach.hint_rolls_left = left
                show(app_module.HINT, "hint")
        coach.win_differs = True
        coach.win_box = 2
        for pick in (0, 1):
            coach_screens.hint_pick = pick
            show(app_module.HINT, "hint two moves")
        coach.win_differs = False
        # The review: best play, a better box (now or at the end), a better hold; solo
        # and with opponents.
        coach_screens.review_seat = 1
        for lost, kind, left, chance in ((0, 0, 0, False), (137, 1, 1, False), (999, 0, 0, True), (23, 1, 0, True)):
            coach.lost, coach.worst_kind, coach.worst_rolls_left, coach.in_chance = lost, kind, left, chance
            for box in range(n) if kind == 1 else (0,):
                coach.worst_code = box if kind == 1 else 0b00111
                show(app_module.REVIEW, "review")
        a.coach = real
        # The end: a winner, a tie of all four, one player; what OK does next.
        for totals in ((375, 120, 99, 5), (200, 200, 200, 200), (375,)):
            set_game(a, choice, ("human", "good", "human", "casual")[: len(totals)])
            screens.ranking = [(1 + sum(1 for t in totals if t > total), i, total) for i, total in enumerate(totals)]
            for waits in (True, False, None):
                a.session = _Session(waits) if waits is not None else None
                show(app_module.END, "end")
            a.game.last = [0, 0, 0, 0, 1, 1, 1, 1, 1, 1]  # its last score can still go back
            show(app_module.END, "end, the last score can go back")
        a.session = None
        # The records: the initials, high scores, statistics (all, a seat, a computer),
        # the dice fairness verdicts.
        initials = records_screens.Initials("P1", 375, 9)
        show(None, "initials", initials.draw)
        initials = records_screens.Initials("P3", 99, 0)
        show(None, "initials", initials.draw)
        scores = [(375 - i, "ABC", i, 0) for i in range(12)]
        for faces in ([1, 2, 3, 4, 5, 6], [100] * 6, [18, 3, 10, 10, 10, 9], [90, 0, 0, 0, 0, 99]):
            for listed in (scores, []):
                view = records_screens.RecordsView(_Records(g.rules, listed, faces))
                for page in range(3):
                    view.page = page
                    for who in range(len(view.names)):
                        view.who = who
                        show(None, "records", view.draw)
            view.names = ["all"]
            view.page = 1
            view.who = 0
            show(None, "records", view.draw)


# What the save layer asks (save_session.message, choose), with the widest values each
# can show: every reason a save can fail for, a seat, a file. A generator: the heap of
# the MicroPython run holds one at a time.
_WHY = ("why_truncated", "why_corrupt", "why_version", "why_bad_contents", "why_full", "why_io_error")
_WHY += ("why_unsavable", "why_no_memory")


def _asks():
    yield "flash_full", "not_saved_full", ()
    yield "save_damaged", "inconsistent_text", ()
    yield "flash_full", "records_not_saved", ("scores stats rolls",)
    yield "battery_low", "battery_text", (4, 99, "now_game_saved")
    yield "battery_low", "battery_text", (4, 99, "now_game_not_saved")
    yield "battery_low", "battery_idle", (4, 99)
    yield "flash_repaired", "repaired_text", ("/data/setup.b",)
    for why in _WHY:
        yield "save_failed", "not_saved_io", (why,)
        yield "save_failed", "not_saved", (why,)
        yield "flash_full", "score_not_saved", (why,)
        yield "setup_damaged", "setup_text", (why,)
        for kept in ("now_kept_bad_line", "now_not_moved_line"):
            yield "save_damaged", "save_damaged_text", (why, kept)
        for kept in ("now_kept_bad", "now_not_moved"):
            for then in ("now_older_copy", "now_afresh"):
                yield "records_damaged", "records_text", ("scores", why, kept, then)


def _draw_save_asks(rec, fb, problems):
    """The save layer's messages and its one question, each with the values above: a
    word too long for a line, or more lines than the screen has once wrapped at spaces,
    is a problem; the keys it words are drawn."""
    used = []
    for title, text, values in _asks():
        worded = records_screens.worded(text, values)
        lines = draw.pages().wrap(worded, 16, 99)  # as the message wraps it, every line
        if len(lines) > 7 or max(len(word) for word in worded.split()) > 16:
            problems.append("%s %s: %r does not fit 7 lines of 16" % (lang.code, text, lines))
        message = records_screens.Message(records_screens.worded(title), worded)
        rec.start()
        fb.fill(0)
        message.draw(fb)
        problems.extend(rec.check("%s %s" % (lang.code, text), str))
        for key in (title, text) + values:
            if key not in used and type(key) is str and (key[:4] in ("why_", "now_") or key in (title, text)):
                used.append(key)
    where = records_screens.worded("saved_where", (13, "P4"))
    if len(where) > 16:
        problems.append("%s saved_where: %r" % (lang.code, where))
    choice = records_screens.Choice(
        records_screens.worded("saved_game"), where, records_screens.answers("continue_new")
    )
    rec.start()
    fb.fill(0)
    choice.draw(fb)
    problems.extend(rec.check("%s saved_game" % lang.code, lambda s: lang.string(s) if type(s) is int else s))
    for key in ("crash", "reflash"):  # main.py's titles (show_message), once a language is in use
        if len(lang.string(getattr(lang.T, key))) > 16:
            problems.append("%s %s: longer than the title bar" % (lang.code, key))
    for key in used + ["saved_game", "saved_where", "crash", "reflash"]:
        handle = getattr(lang.T, key)
        for i in range(handle >> 8, (handle >> 8) + (handle & 0xFF)):
            rec.covered[i] = 1


def test_every_text_fits_the_screen_that_shows_it_in_every_language():
    problems = []
    missed = []
    a = make_app()
    fb = a.fb
    rec = Recorder()
    rec.install()
    try:
        for code in lang_en.codes():
            lang.use(code)
            a.settings.lang = code
            rec.covered = bytearray(len(lang.blob))
            _draw_everything(a, rec, fb, problems)
            _draw_save_asks(rec, fb, problems)
            for handle, key in _items(code).items():
                at = handle >> 8
                for i in range(at, at + (handle & 0xFF)):
                    if not rec.covered[i] and lang.blob[i] != _SPACE:  # a line's break: a space
                        missed.append("%s %s" % (code, key))
                        break
    finally:
        rec.remove()
        lang.use(lang.ENGLISH)
    distinct = []
    for problem in problems:
        if problem not in distinct:
            distinct.append(problem)
    equal(distinct, [], "texts that do not fit")
    equal(missed, [], "texts no screen drew")
