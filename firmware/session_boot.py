"""The boot half of the save layer (session.py): the saved game at power-on.

``load_game`` runs once, in the session's first frame; the session releases this module
afterwards (session.release), so its code is not in RAM during play. It is a part of
session.py moved out for that reason, so it uses the session's private helpers.
"""
import game as game_module
import storage


def load_game(session, app):
    """The saved game at boot: offer "Continue", finish a game that ended just before a
    power cut, or set damaged files aside with a message."""
    store = session.store
    saved = None
    try:
        saved = store.load()
        if store.damaged:  # an older good slot was used: keep the bad one aside
            store.set_aside()
    except storage.SaveError as err:
        store.set_aside()
        reason = "unknown version" if err.reason == storage.UNKNOWN_VERSION else err.reason
        session.message(app, "Save damaged", "Saved game:\n%s.\nKept as .bad.\nNew game." % reason)
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
