"""The save layer's asks (save_session.py) and the UI that shows them (ui/records_screens.py),
run by pytest AND inside MicroPython: the save layer returns what to
show as plain data, the UI draws it, takes the keys and hands the answer back through
``session.answer``. The app is a stand-in with only what the save layer may use of it
(app.py's docstring), so a save layer reaching for more fails here.
"""

import sys

import game as G
import save_records
import save_session as session_module
import scheduler
from check import equal
from drivers.buttons import OK, ROLL
from fake_fs import FakeFs
from screen_rig import Screen
from ui import menu

_FULL_TEXT = "Game not saved.\nPlay goes on; it\nsaves again when\nthere is room."


class _Dice:
    """Always ones: a game that plays itself to its end in a few lines."""

    def randint(self, low, high):
        return low

    def position(self):
        return [1, 0]


class _Hw:
    def __init__(self):
        self.dice_source = _Dice()


class _App:
    """The save layer's view of the app: its settings, game and scheduler, ``in_menu``,
    ``ended``."""

    def __init__(self):
        self.settings = menu.Settings({})
        self.game = None
        self.session = None
        self.jobs = scheduler.Scheduler()
        self.menus = 0

    def in_menu(self):
        return False

    def ended(self):
        self.menus += 1


def _session(fs):
    app = _App()
    session = session_module.Session(_Hw(), "data", fs).attach(app)
    app.jobs.finish(scheduler.BOOT)  # a fresh flash: nothing saved, no records yet
    app.game = G.Game(app.settings.ruleset(), [("P1", "human")], _Dice())
    return app, session


def _keeping_modules(test):
    """Runs ``test`` and puts back the modules the save layer released (records, the UI's
    screens), so no other test finds them gone."""
    before = dict(sys.modules)
    try:
        test()
    finally:
        for name in before:
            if name not in sys.modules:
                sys.modules[name] = before[name]


def test_a_failed_save_is_a_message_the_ui_shows_and_closes():
    def run():
        fs = FakeFs(dirs=["", "data"])
        fs.capacity = 0  # not a byte free: the first save fails
        app, session = _session(fs)
        session.on_change(app)  # the new game: its save waits for the next frame
        equal(session.asks, [])
        assert session.save_due()
        session.write_due(app)
        assert session.unsaved
        from ui import records_screens

        equal(len(session.asks), 1)
        kind, title, text, values = session.asks[0]
        equal(kind, session_module.MESSAGE)
        equal((records_screens.worded(title), records_screens.worded(text, values)), ("Flash full", _FULL_TEXT))
        assert session.news()  # once: the app redraws once
        assert not session.news()

        fb = Screen()
        records_screens.paint(app, fb)
        equal(fb.row(0), "Flash full")
        equal([fb.row(n) for n in (1, 2, 3, 4)], _FULL_TEXT.split("\n"))
        records_screens.handle(app, ROLL)  # any key closes a message
        equal(session.asks, [])
        assert session.news()
        assert "ui.records_screens" not in sys.modules  # its code goes with the asks

    _keeping_modules(run)


def test_initials_are_asked_for_a_seat_and_the_answer_goes_into_the_records():
    def run():
        fs = FakeFs(dirs=["", "data"])
        app, session = _session(fs)
        game = app.game
        while game.phase != G.OVER:
            game.roll()
            box = 0
            while game.players[0].card[box] != -1:
                box += 1
            game.score(box)
        game.last = None  # the last score stands (app.keep_score): the end is counted
        session.on_change(app)  # the end: saved, then counted a step a frame
        assert not session.scores_wait()
        frames = 0
        while session.save_due():
            app.jobs.step()
            frames += 1
        equal(frames, 6)  # packed, written; the records loaded, stats, rolls, the places
        assert session.scores_wait()  # the high score waits for OK
        equal(session.asks, [])
        assert session.end_ok(app)  # OK on the end screen: initials first
        total = game.total(0)
        equal(session.asks, [(session_module.INITIALS, "P1", total, 0)])
        assert not session.scores_wait()
        from ui import records_screens

        fb = Screen()
        records_screens.paint(app, fb)
        equal(fb.row(0), "New high score!")
        equal(fb.row(1).split(), ["P1", str(total)])
        for _ in range(3):
            equal(app.menus, 0)
            records_screens.handle(app, OK)  # A, A, A
        equal([ask[0] for ask in session.asks], [session_module.RECORDS])  # the high scores
        records_screens.paint(app, fb)
        equal(fb.row(1).split(), ["1", "AAA", str(total)])
        equal(app.menus, 0)
        records_screens.handle(app, OK)
        equal(session.asks, [])
        equal(app.menus, 1)  # the end is complete: the menu
        recs = save_records.Records("data", fs, game.rules)
        recs.load()
        equal(recs.scores[0][:2], [total, "AAA"])

    _keeping_modules(run)
