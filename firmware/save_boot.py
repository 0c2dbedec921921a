"""The boot half of the save layer (save_session.py): the saved files at power-on, repairs.

``finish_push``, ``repair_flash``, ``load_setup`` and ``load_game`` run once, in the
session's boot; the session releases this module afterwards (save_session.release), so its
code is not in RAM during play. ``tell_repairs`` is loaded the same way when a save had to
move something aside, ``settle`` when a kept game's records are written again. It reads
and checks files and tells the session what it found, through the session's public
interface only (``message``, ``store``, ``records``, ``kept``, ``tidy``, ``setup_store``).
"""

import os
import time

from micropython import const

from save_bounds import MAX_GAME_DICE, MAX_ID, MAX_NAME, MAX_PLAYERS, within
import game as game_module
import save_store

_SEED_LIMIT = 1 << 32  # seeds are 30 bits (dice_source); a seeded simulator's may be wider
PUSHED = ".pushed"  # folder + PUSHED: a complete copy host_tools push switches in (restore.py)
_MAX_DRAWS = const(1 << 22)  # dice since the last reseed (seek() draws them all again): a damaged
# count must not hang the boot; 4M dice are some 5,000 four-player games without a reseed


def finish_push(folder, fs=None):
    """Before any store of ``folder`` is read: a push cut between its two renames
    (``folder`` -> old, ``folder + PUSHED`` -> ``folder``) left no ``folder``; its
    complete copy goes in now. True when it did."""
    fs = fs if fs is not None else os
    try:
        fs.stat(folder)
        return False  # the usual case: one stat per boot
    except OSError:
        pass
    try:
        fs.rename(folder + PUSHED, folder)
    except OSError:
        return False  # no copy waiting: nothing was ever saved
    return True


def repair_flash(session):
    """At boot: what would stop the game from saving (``data`` a file, a folder at a save's
    path) is moved aside now, with a message; nothing is written when all is well."""
    try:
        session.store.repair()
    except OSError:
        pass  # the flash refuses: the first save tries again and says so
    tell_repairs(session, session.store)


def tell_problems(session, recs):
    """A message per damaged records file: its reason, whether it was kept, which copy
    is used now (save_records.Records.load)."""
    for name, reason in recs.problems:
        kept = "now_not_moved" if name in recs.unkept else "now_kept_bad"
        then = "now_older_copy" if name in recs.older else "now_afresh"
        session.message("records_damaged", "records_text", (name, save_store.why(reason), kept, then))


def settle(session, app):
    """Writes a kept finished game's records again (each counts once, keyed by its id);
    when they all are, its save goes. Else a new game stays unsaved (session.save), the
    kept save on flash, and the next boot tries again. Rare: here, not in save_session.py."""
    from save_session import game_results  # loaded already: save_session.py imports this module

    game, game_id, counts, entries = session.kept
    recs = session.records(app, game.rules)
    failed = recs.finish_game(game_id, game_results(game, app.settings.computer_name), counts)
    for seat, initials in entries:
        try:
            recs.add_high_score(game.total(seat), initials, game_id, seat)
        except save_store.SaveError:
            failed.append("scores")
    if not failed:
        session.kept = None
        session.store.clear()
    session.tidy()


def tell_repairs(session, store):
    """Once per repair: what was in the way of saving and is now kept as ``*.bad``."""
    for path in store.repaired:
        session.message("flash_repaired", "repaired_text", (path,))
    store.repaired = []


def load_setup(session, app):
    """The menu's set-up of the last power-on; a damaged file: the defaults, with one
    message (the file is kept as .bad, so the next boot says nothing)."""
    store = session.setup_store()
    store.check = app.settings.setup_ok
    value = None
    try:
        value = store.load()
        if store.damaged:  # an older good slot was used: keep the bad one aside
            store.set_aside()
    except save_store.SaveError as err:
        store.set_aside()
        session.message("setup_damaged", "setup_text", (save_store.why(err.reason),))
    if value is not None:
        app.settings.restore(value)
        app.apply_settings()
        session.setup_saved = value


def load_game(session):
    """The saved game at boot: ``(game, saved)`` (the game rebuilt, the save's fields), or
    None (nothing saved, or damaged: set aside with a message)."""
    store = session.store
    saved = None
    store.check = save_ok  # a valid frame around a game this firmware cannot resume is damage
    try:
        saved = store.load()
        if store.damaged:  # an older good slot was used: keep the bad one aside
            store.set_aside()
    except save_store.SaveError as err:
        kept = "now_kept_bad_line" if store.set_aside() else "now_not_moved_line"
        session.message("save_damaged", "save_damaged_text", (save_store.why(err.reason), kept))
    store.check = None  # this module is released after boot; saves need no check
    if saved is None:
        return None
    try:
        return _restore(session, saved), saved
    except (game_module.GameError, KeyError, TypeError, ValueError) as exc:
        discard_bad(session, exc)
        return None


def saved_game(session, app, saved):
    """The game saved at the last power-off (``saved``: from ``load_game``): "Continue"
    offered, or its end completed if it ended before a cut."""
    game, fields = saved
    session.begin(game, fields["id"], fields["counts"], fields["seed"])
    app.settings.set_coach(fields.get("coach"))  # the coach mode the game was played with
    if game.phase != game_module.OVER:
        values = (game.round + 1, game.players[game.current].name)
        session.choose("saved_game", "saved_where", "continue_new", _continue_or_not, values)
        return
    app.resume(game)  # it ended before the records were kept: step 2 on
    if game.last is not None:
        return  # its last score can still be taken back: the end screen's OK counts it
    try:
        for _ in session.ending(app):
            pass
    except (KeyError, TypeError, ValueError, IndexError, MemoryError) as exc:
        # A game whose records cannot be completed: aside, or every boot fails the same.
        discard_bad(session, exc)
        session.drop_end()


def _continue_or_not(session, app, chosen):
    if chosen == 0:
        app.resume(session.game)
    else:
        # The saved stream was restored at boot (seek cancels the first press's stir):
        # a new game gets this press's timing stirred in instead.
        session.hw.dice_source.stir(time.ticks_us())
        session.abandon(app)


def save_ok(saved):
    """True when ``saved`` is a game save this firmware can resume (the store's check)."""
    try:
        counts = saved["counts"]
        seed = saved["seed"]
        if not within(saved["id"], MAX_ID) or saved["id"] == 0:
            return False
        if type(counts) is not list or len(counts) != 6 or type(seed) is not list or len(seed) != 2:
            return False
        dice = 0
        for n in counts:  # one game's dice (save_bounds.py): a save that loads can be saved again
            if not within(n, MAX_GAME_DICE):
                return False
            dice += n
        if dice > MAX_GAME_DICE or not within(seed[1], _MAX_DRAWS):
            return False
        if type(seed[0]) is not int or not -_SEED_LIMIT <= seed[0] < _SEED_LIMIT:
            return False
        players = saved["game"]["players"]
        if type(players) is not list or len(players) > MAX_PLAYERS:
            return False  # the engine plays more; the device's screens and records do not
        for player in players:
            if type(player) is not list or len(player) != 3 or not _name_ok(player[0]) or not _name_ok(player[1]):
                return False
        game_module.Game.from_state(saved["game"], None)  # GameError: it cannot be rebuilt
    except (KeyError, TypeError, ValueError, IndexError):  # GameError is a ValueError
        return False
    return True


def _name_ok(text):
    return type(text) is str and 0 < len(text) <= MAX_NAME


def _restore(session, saved):
    counts = saved["counts"]
    if not isinstance(saved["id"], int) or not isinstance(counts, list) or len(counts) != 6:
        raise ValueError("bad save header")
    session.hw.dice_source.seek(saved["seed"])
    return game_module.Game.from_state(saved["game"], session.hw.dice_source)


def discard_bad(session, exc):
    # A valid file holding a game this firmware cannot rebuild: kept for inspection.
    store = session.store
    store.damaged = [(store.slots[0], save_store.CORRUPT), (store.slots[1], save_store.CORRUPT)]
    store.set_aside()
    print("saved game unusable:", exc)
    session.message("save_damaged", "inconsistent_text")
