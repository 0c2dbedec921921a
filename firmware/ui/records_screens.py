"""Screens that sit on top of the app's own, showing what the save layer asks
(save_session.py ``asks``): messages, the "Continue?" choice at boot, high-score initials, and
the records pages (high scores, statistics, dice fairness).

The app calls ``handle(app, event)`` and ``paint(app, fb)`` while ``app.session.asks`` is not
empty (it imports this module only then; ``handle`` releases it as the last closes). The first
request is shown as an *overlay* (``overlay``): its ``handle(event)`` returns True when it
is finished, its ``answer`` then goes back to the save layer (``session.answer``), and its
``draw(fb)`` paints the whole 16 x 8 text grid. They are drawn only after a button press,
never per frame, so the little formatting they do costs nothing in the frame loop.
"""

from micropython import const

from drivers.buttons import ROLL, UP, DOWN, OK, MENU
import lang
from lang import T
from save_session import release
from ui import draw
from ui import menu

_BUTTON_MASK = const(0x0F)
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_ROWS = const(7)  # text rows below the header
_SCORE_ROWS = const(6)  # high scores shown at once (the last row says the keys)
_MESSAGE = const(0)  # save_session.MESSAGE
_CHOICE = const(1)  # save_session.CHOICE
_INITIALS = const(2)  # save_session.INITIALS
_shown = None  # the overlay made for the save layer's first request (_shown_for)
_shown_for = None


def overlay(app):
    """The overlay on show, made from the save layer's first request when it is new."""
    global _shown, _shown_for
    ask = app.session.asks[0]
    if ask is not _shown_for:
        kind = ask[0]
        if kind == _MESSAGE:
            _shown = Message(worded(ask[1]), worded(ask[2], ask[3]))
        elif kind == _CHOICE:
            _shown = Choice(worded(ask[1]), worded(ask[2], ask[4]), answers(ask[3]))
        elif kind == _INITIALS:
            _shown = Initials(ask[1], ask[2], ask[3])
        else:
            _shown = RecordsView(ask[1], ask[2])
        _shown_for = ask
    return _shown


def worded(key, values=()):
    """The save layer's text ``key`` in the language in use, its ``%`` fields filled:
    a ``why_`` or ``now_`` value is a catalog key (a reason, what was done) in words, a
    seat ("P1") as the screens name it, a file's name or a number as it is; "~" starts
    a line."""
    text = lang.string(getattr(T, key)).replace("~", "\n")
    if values:
        words = []
        for value in values:
            if type(value) is str:
                if value[:4] in ("why_", "now_"):
                    value = getattr(T, value) if hasattr(T, value) else value[4:]
                else:
                    value = menu.person(value)
                if type(value) is int:
                    value = lang.string(value)
            words.append(value)
        text = text % tuple(words)
    return text


def answers(key):
    """The items of the list text ``key`` (a choice's answers) as handles."""
    handle = getattr(T, key)
    return [lang.item(handle, i) for i in range(lang.string(handle).count("|") + 1)]


def handle(app, event):
    """A key for the overlay on show; a finished one hands its answer to the save layer,
    and once nothing more is asked this module is forgotten (its code is garbage again:
    the app imports it only while there are asks)."""
    global _shown, _shown_for
    shown = overlay(app)
    if shown.handle(event):
        _shown = _shown_for = None
        session = app.session
        session.answer(app, shown.answer)
        if not session.asks:
            release(__name__)
    app.dirty = True


def paint(app, fb):
    overlay(app).draw(fb)


def _header(fb, title):
    draw.clear(fb)
    draw.bar(fb, 0)
    draw.text(fb, title, 0, 0, True)  # clipped at the screen's edge


class Message:
    """A title and up to 7 lines of 16 characters, broken at spaces; any button closes
    it."""

    answer = None

    def __init__(self, title, text):
        self.title = title
        self.lines = draw.pages().wrap(text, 16, _ROWS)
        draw.pages(False)  # a Zoo game's next picture, the menu's rules pages: imported again

    def handle(self, event):
        return True

    def draw(self, fb):
        _header(fb, self.title)
        for i in range(len(self.lines)):
            draw.text(fb, self.lines[i], 0, i + 1)


class Choice:
    """A question with a few answers; UP/DOWN move, OK (or ROLL) picks. ``answer`` is the
    index of the answer once finished."""

    def __init__(self, title, text, answers):
        self.title = title
        self.text = text
        self.answers = answers
        self.cursor = 0
        self.answer = -1

    def handle(self, event):
        button = event & _BUTTON_MASK
        if button == UP or button == DOWN:
            self.cursor = (self.cursor + (1 if button == DOWN else -1)) % len(self.answers)
        elif button == OK or button == ROLL:
            self.answer = self.cursor
            return True
        return False

    def draw(self, fb):
        _header(fb, self.title)
        draw.text(fb, self.text[:16], 0, 2)
        for i in range(len(self.answers)):
            row = 4 + i
            inv = i == self.cursor
            if inv:
                draw.bar(fb, row)
            draw.text(fb, self.answers[i], 1, row, inv)


class Initials:
    """Three letters for a high score: UP steps the letter on (A to B), DOWN back, OK goes
    to the next one; OK on the third finishes (``answer`` then holds the text)."""

    def __init__(self, seat_label, total, place):
        self.seat_label = seat_label
        self.total = total
        self.place = place
        self.letters = bytearray(3)  # indexes into _LETTERS
        self.pos = 0
        self.answer = ""

    def handle(self, event):
        button = event & _BUTTON_MASK
        if button == UP or button == DOWN:
            step = 1 if button == UP else -1
            self.letters[self.pos] = (self.letters[self.pos] + step) % len(_LETTERS)
        elif button == OK:
            self.pos += 1
            if self.pos == 3:
                self.answer = "".join(_LETTERS[i] for i in self.letters)
                return True
        return False

    def draw(self, fb):
        _header(fb, T.new_high_score)
        draw.text(fb, menu.person(self.seat_label), 0, 1)
        draw.number(fb, self.total, 15, 1)
        draw.text(fb, T.place, 0, 2)
        draw.number(fb, self.place + 1, 15, 2)
        for i in range(3):
            col = 6 + 2 * i
            if i == self.pos:  # the letter being set: inverted
                fb.fill_rect(col * 8, 32, 8, 8, 1)
            draw.text(fb, _LETTERS[self.letters[i]], col, 4, i == self.pos)
        draw.text(fb, lang.item(T.letter_keys, 0), 0, 6)
        draw.text(fb, lang.item(T.letter_keys, 1), 0, 7)


SCORES = const(0)
STATS = const(1)
FAIRNESS = const(2)
_PAGES = const(3)


class RecordsView:
    """The records pages: OK or ROLL turns the page (OK on the last closes), UP/DOWN
    scroll the high scores or pick whose statistics, MENU closes; the pages' last row
    says so. With ``page`` (not -1) that page alone, which OK closes (after a game)."""

    answer = None

    def __init__(self, recs, page=-1):
        self.recs = recs
        self.alone = page >= 0
        self.page = page if self.alone else SCORES
        self.top = 0
        self.names = ["all"] + sorted(recs.stats["names"])
        self.who = 0

    def handle(self, event):
        button = event & _BUTTON_MASK
        if button == MENU:
            return True
        if button == OK or button == ROLL:
            if self.alone or (button == OK and self.page == _PAGES - 1):
                return True
            self.page = (self.page + 1) % _PAGES
        elif button == UP or button == DOWN:
            step = 1 if button == DOWN else -1
            if self.page == SCORES:
                top = self.top + step
                if 0 <= top <= len(self.recs.scores) - _SCORE_ROWS:
                    self.top = top
            elif self.page == STATS:
                self.who = (self.who + step) % len(self.names)
        return False

    def draw(self, fb):
        if self.page == SCORES:
            self._draw_scores(fb)
        elif self.page == STATS:
            self._draw_stats(fb)
        else:
            self._draw_fairness(fb)

    def _draw_scores(self, fb):
        _header(fb, lang.item(T.high_scores, 1 if self.recs.ruleset.faces else 0))  # per card
        draw.text(fb, lang.item(T.end_keys, 1) if self.alone else T.next_page, 0, 7)  # the keys
        scores = self.recs.scores
        if not scores:
            draw.text(fb, T.none_yet, 0, 2)
            return
        for line in range(_SCORE_ROWS):
            index = self.top + line
            if index >= len(scores):
                break
            total, initials, _game_id, _seat = scores[index]
            draw.number(fb, index + 1, 1, line + 1)
            draw.text(fb, initials, 4, line + 1)
            draw.number(fb, total, 15, line + 1)
        if self.top + _SCORE_ROWS < len(scores):
            draw.text(fb, "v", 15, 0, True)

    def _draw_stats(self, fb):
        import save_records_view  # only while this view is drawn (session releases it)

        name = self.names[self.who]
        stats = self.recs.stats
        entry = stats["all"] if self.who == 0 else stats["names"][name]
        _header(fb, T.all_players if self.who == 0 else menu.person(name))
        if len(self.names) > 1:
            draw.text(fb, "v", 15, 0, True)
            draw.text(fb, T.who_keys, 0, 7)
        else:
            draw.text(fb, T.next_page, 0, 7)
        # T.stats: games, then summary()'s order: results (a seat's game), average, best,
        # Yahtzees (the Zoo card's Zoo Yahtzys), upper bonus.
        values = save_records_view.summary(entry)
        row = 1
        if self.who == 0:  # games; each game holds a result per seat
            draw.text(fb, lang.item(T.stats, 0), 0, row)
            draw.number(fb, save_records_view.games_played(stats), 15, row)
            row += 1
        zoo = self.recs.ruleset.faces is not None
        for i in range(5):
            draw.text(fb, T.zoo_yahtzys if i == 3 and zoo else lang.item(T.stats, i + 1), 0, row)
            if i == 1:  # the average in tenths, one decimal: 2453 -> "245.3"
                draw.number(fb, values[1] // 10, 13, row)
                draw.text(fb, ".", 14, row)
                draw.number(fb, values[1] % 10, 15, row)
            elif i == 4:  # upper bonus, percent of results
                draw.number(fb, values[4], 14, row)
                draw.text(fb, "%", 15, row)
            else:
                draw.number(fb, values[i], 15, row)
            row += 1

    def _draw_fairness(self, fb):
        import save_records_view

        faces = self.recs.rolls["faces"]
        _stat, verdict = save_records_view.chi_square(faces)
        _header(fb, T.fairness)  # the verdict below says what the chi-square figure means
        most = 1
        for n in faces:
            if n > most:
                most = n
        for face in range(6):
            row = face + 1
            draw.number(fb, face + 1, 0, row)
            width = faces[face] * 64 // most  # bar of at most 64 px (cols 2..9)
            if width:
                fb.fill_rect(16, row * 8 + 1, width, 6, 1)
            draw.number(fb, faces[face], 15, row)
        draw.text(fb, lang.item(T.verdicts, verdict), 0, 7)
