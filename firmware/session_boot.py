"""The boot half of the save layer (session.py): the saved game at power-on, repairs.

``repair_flash`` and ``load_game`` run once, in the session's first frame; the session
releases this module afterwards (session.release), so its code is not in RAM during play.
``tell_repairs`` is loaded the same way when a save had to move something aside. It is a
part of session.py moved out for that reason, so it uses the session's private helpers.
"""
from micropython import const

import game as game_module
import storage

_MAX_DRAWS = const(1 << 22)  # dice since the last reseed (seek() draws them all again): a damaged
# count must not hang the boot; 4M dice are some 5,000 four-player games without a reseed


def repair_flash(session, app):
    """At boot: what would stop the game from saving (``data`` a file, a folder at a save's
    path) is moved aside now, with a message; nothing is written when all is well."""
    try:
        session.store.repair()
    except OSError:
        pass  # the flash refuses: the first save tries again and says so
    tell_repairs(session, app, session.store)


def tell_problems(session, app, recs):
    """A message per damaged records file: its reason, whether it was kept, which copy
    is used now (records.Records.load)."""
    for name, reason in recs.problems:
        kept = "not moved aside" if name in recs.unkept else "kept as .bad"
        then = "older copy used." if name in recs.older else "started afresh."
        session.message(app, "Records damaged", "%s:\n%s,\n%s,\n%s" % (name, reason, kept, then))


def tell_repairs(session, app, store):
    """Once per repair: what was in the way of saving and is now kept as ``*.bad``."""
    for path in store.repaired:
        session.message(app, "Flash repaired", "%s\nwas in the way:\nkept as .bad.\nSaving works." % path)
    store.repaired = []


def load_setup(session, app):
    """The menu's set-up of the last power-on; a damaged file: the defaults, with one
    message (the file is kept as .bad, so the next boot says nothing)."""
    from ui import menu

    store = session.setup_store()
    store.check = menu.setup_ok
    value = None
    try:
        value = store.load()
        if store.damaged:  # an older good slot was used: keep the bad one aside
            store.set_aside()
    except storage.SaveError as err:
        store.set_aside()
        session.message(app, "Set-up damaged", "Menu set-up:\n%s.\nDefaults used." % err.reason)
    if value is not None:
        app.settings.restore(value)
        app.apply_settings()
        session.setup_saved = value


def load_game(session, app):
    """The saved game at boot: offer "Continue", finish a game that ended just before a
    power cut, or set damaged files aside with a message."""
    store = session.store
    saved = None
    store.check = save_ok  # a valid frame around a game this firmware cannot resume is damage
    try:
        saved = store.load()
        if store.damaged:  # an older good slot was used: keep the bad one aside
            store.set_aside()
    except storage.SaveError as err:
        kept = "Kept as .bad." if store.set_aside() else "Not moved aside."
        reason = "unknown version" if err.reason == storage.UNKNOWN_VERSION else err.reason
        session.message(app, "Save damaged", "Saved game:\n%s.\n%s\nNew game." % (reason, kept))
    store.check = None  # this module is released after boot; saves need no check
    if saved is None:
        return
    try:
        game = _restore(session, saved)
    except (game_module.GameError, KeyError, TypeError, ValueError) as exc:
        _discard_bad(session, app, exc)
        return
    session._begin(game, saved["id"], saved["counts"])
    app.settings.set_coach(saved.get("coach"))  # the coach mode the game was played with
    if game.phase == game_module.OVER:
        app.resume(game)  # it ended before the records were kept: step 2 on
        session._finish(app)
        return
    from ui.records_screens import Choice  # released with the session's other screens

    session._on_choice = session._continue_or_not
    where = "Round %d, %s" % (game.round + 1, game.players[game.current].name)
    session.show(app, Choice("Saved game", where, ("Continue", "New game")))


def save_ok(saved):
    """True when ``saved`` is a game save this firmware can resume (the store's check)."""
    try:
        counts = saved["counts"]
        seed = saved["seed"]
        if type(saved["id"]) is not int or not 0 < saved["id"] < 0x40000000:
            return False
        if type(counts) is not list or len(counts) != 6 or type(seed) is not list or len(seed) != 2:
            return False
        for n in counts:
            if type(n) is not int or n < 0:
                return False
        if type(seed[0]) is not int or type(seed[1]) is not int or not 0 <= seed[1] <= _MAX_DRAWS:
            return False
        game_module.Game.from_state(saved["game"], None)  # GameError: it cannot be rebuilt
    except (KeyError, TypeError, ValueError, IndexError):  # GameError is a ValueError
        return False
    return True


def _restore(session, saved):
    counts = saved["counts"]
    if not isinstance(saved["id"], int) or not isinstance(counts, list) or len(counts) != 6:
        raise ValueError("bad save header")
    session.hw.dice_source.seek(saved["seed"])
    return game_module.Game.from_state(saved["game"], session.hw.dice_source)


def _discard_bad(session, app, exc):
    # A valid file holding a game this firmware cannot rebuild: kept for inspection.
    store = session.store
    store.damaged = [(store.slots[0], storage.CORRUPT), (store.slots[1], storage.CORRUPT)]
    store.set_aside()
    print("saved game unusable:", exc)
    session.message(app, "Save damaged", "Saved game is\ninconsistent.\nKept as .bad.\nNew game.")
