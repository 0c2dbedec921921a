"""The end of a game on a nearly full flash: the finished game's records
are never dropped while the game that rebuilds them is gone. Cases for MicroPython only
(the sim board needs ``framebuf``): tests/sim/test_full_flash_sim.py runs each ``case_*`` in
the unix port. The real app and save layer (save_session.py) run on the sim board's loopback
link, saving to FakeFs (fake_fs.py) with a capacity, which answers ENOSPC like littlefs.
"""

import app as app_module
import game as G
import save_records
import save_session as session_module
import save_store
from boards import sim
from fake_fs import FakeFs
from ram_flash import RamFlash  # host_tools/fakes
from check import equal, true
from ui import menu, records_screens


def _boot(fs, folder="data", seats=1):
    hw = sim.build({"link": sim.Loopback(), "seed": "3"})
    app = app_module.App(hw, {})
    app.settings.players = seats
    for seat in range(seats):
        app.settings.kinds[seat] = 1 + seat  # computers: their high scores need no initials
    app.settings.rebuild()
    session = session_module.Session(hw, folder, fs).attach(app)
    app.run(frames=2)  # the session boots in the first frame
    return app, session


def _frame(app):
    """The frames that pack and write the saves the last action left (session.on_change):
    a frame each, at most three (the game's packing, its write, the set-up's write)."""
    for _ in range(3):
        app.frame(app.hw.ticks_ms())
        if not app.session.save_due():
            break


def _play(app, turns):
    """Rolls once and scores the first open box, ``turns`` times (through the app's own
    actions, so every one is saved)."""
    for _ in range(turns):
        if app.game.phase == G.OVER:
            return
        app.roll()
        box = 0
        while app.options[box] < 0:
            box += 1
        app.score(box)
        if app.game.phase != G.OVER:
            app.next_turn()  # what the computer's summary does when its time is up


class _NoRoomForRecords(FakeFs):
    """Full for every file but the game's: its save fits, the records' do not (the
    moment a flash fills up between the two)."""

    full = False

    def open(self, path, mode):
        if self.full and "w" in mode and not path.startswith("data/game"):
            raise OSError(28)
        return FakeFs.open(self, path, mode)

    def reboot(self):
        return FakeFs.reboot(self)  # the next boot: room again


def _at_the_last_turn(fs):
    """A solo game played to its last roll on ``fs``."""
    app, session = _boot(fs)
    app.new_game()
    _play(app, 12)
    app.roll()
    _frame(app)
    return app, session


def _nearly_full_at_the_last_turn(room):
    """A solo game at its last roll; then only ``room`` bytes are left (less than a
    game save: the last one fails)."""
    fs = FakeFs(dirs=["", "data"])
    app, session = _at_the_last_turn(fs)
    true(room < len(fs.files["data/game.a"]), room, len(fs.files["data/game.a"]))
    fs.capacity = fs.used() + room
    return fs, app, session


def _no_room_for_records_at_the_last_turn():
    fs = _NoRoomForRecords(dirs=["", "data"])
    app, session = _at_the_last_turn(fs)
    fs.full = True
    return fs, app, session


def _finish(app, session):
    box = 0
    while app.options[box] < 0:
        box += 1
    app.score(box)
    equal(app.game.phase, G.OVER)
    total = app.game.total(0)
    assert session.end_ok(app)  # the ranking seen, OK: the computer's high score goes in
    return total


def _records(fs):
    recs = save_records.Records("data", fs)
    recs.load()
    return recs


def case_the_finished_games_older_slot_makes_room_for_its_records():
    # Room for neither the last save nor the records: the game's older slot makes it.
    fs, app, session = _nearly_full_at_the_last_turn(60)
    counts = list(session.counts)
    total = _finish(app, session)
    recs = _records(fs.reboot())
    equal(recs.problems, [])
    equal(recs.stats["all"][save_records.GAMES], 1)
    equal(recs.stats["all"][save_records.POINTS], total)
    equal(recs.rolls["faces"], counts)
    true(sum(counts) > 0, sum(counts))
    equal(recs.scores[0][0], total)
    equal(recs.scores[0][1], "CPU")
    assert save_store.Store("data/game", fs.reboot()).load() is None  # all written: the game may go


def case_records_that_do_not_fit_keep_the_game_for_the_next_boot():
    fs, app, session = _no_room_for_records_at_the_last_turn()
    counts = list(session.counts)
    total = _finish(app, session)
    kept = save_store.Store("data/game", fs.reboot()).load()
    true(kept is not None, kept)
    equal(kept["counts"], counts)
    equal(kept["game"]["phase"], G.OVER)
    equal(_records(fs.reboot()).stats["all"][save_records.GAMES], 0)
    # A new game on the same full flash must not replace the kept save.
    app.show(app_module.MENU_SCREEN)
    app.new_game()
    app.roll()
    equal(save_store.Store("data/game", fs.reboot()).load(), kept)
    # The next boot with room (a file deleted, say) finishes the kept game.
    roomy = fs.reboot()
    later, again = _boot(roomy)
    true(later.game is not None, later.game)
    equal(later.game.phase, G.OVER)
    assert again.end_ok(later)
    recs = _records(roomy.reboot())
    equal(recs.stats["all"][save_records.GAMES], 1)
    equal(recs.stats["all"][save_records.POINTS], total)
    equal(recs.rolls["faces"], kept["counts"])
    equal(recs.scores[0][0], total)
    assert save_store.Store("data/game", roomy.reboot()).load() is None


def case_a_kept_game_is_finished_before_a_new_game_saves_once_there_is_room():
    fs, app, session = _no_room_for_records_at_the_last_turn()
    total = _finish(app, session)
    equal(_records(fs.reboot()).stats["all"][save_records.GAMES], 0)
    fs.full = False  # room again (a file deleted)
    app.show(app_module.MENU_SCREEN)
    app.new_game()
    _frame(app)
    recs = _records(fs.reboot())
    equal(recs.stats["all"][save_records.POINTS], total)
    equal(recs.scores[0][0], total)
    equal(save_store.Store("data/game", fs.reboot()).load()["game"]["round"], 0)  # the new game


def case_a_save_that_cannot_be_encoded_is_a_message_and_play_goes_on():
    fs = FakeFs(dirs=["", "data"])
    app, session = _boot(fs)
    app.new_game()
    app.roll()
    _frame(app)
    before = save_store.Store("data/game", fs.reboot()).load()
    session.counts[0] = 1 << 63  # beyond the encoding (a bug, or a count no check bounds)
    app.set_holds(1)
    _frame(app)
    top = records_screens.overlay(app)  # the UI's screen for session.asks[0]
    equal(top.title, "Save failed")
    equal(top.lines[:2], ["Game not saved", "(unsavable)."])
    assert session.unsaved
    equal(save_store.Store("data/game", fs.reboot()).load(), before)
    session.counts[0] = 1
    app.roll()  # play goes on, and the next action saves again
    _frame(app)
    true(not session.unsaved, session.unsaved)
    equal(save_store.Store("data/game", fs.reboot()).load()["game"]["rolls"], 2)


def case_a_finished_game_whose_records_cannot_be_completed_is_set_aside_at_boot():
    fs = FakeFs(dirs=["", "data"])
    app, session = _boot(fs)
    app.new_game()
    _play(app, 12)
    app.roll()
    _frame(app)
    fs = fs.reboot()  # cut at the last roll; then the last score is saved by hand
    saved = save_store.Store("data/game", fs).load()
    game = G.Game.from_state(saved["game"], None)
    box = 0
    while game.players[0].card[box] != -1:
        box += 1
    game.score(box, False)  # a computer's score, as the app makes it: it stands
    saved["game"] = game.to_state()
    save_store.Store("data/game", fs).save(saved)

    def refuses(kind):  # anything the records raise while finishing, every boot alike
        raise ValueError("cannot count " + kind)

    keep = menu.computer_name
    menu.computer_name = refuses
    try:
        app, session = _boot(fs)
    finally:
        menu.computer_name = keep
    equal(records_screens.worded(session.asks[-1][1]), "Save damaged")  # (kind, title, text, values)
    assert "data/game.a.bad" in fs.files or "data/game.b.bad" in fs.files
    app, session = _boot(fs.reboot())  # not retried: the next boot starts clean
    equal(session.asks, [])
    assert save_store.Store("data/game", fs).load() is None


def _fill(folder):
    """Files of one block each (1100 bytes: too big for littlefs to keep inline) until
    littlefs says ENOSPC: not one block left. Their names."""
    import os

    names = []
    while True:
        path = "%s/filler%d" % (folder, len(names))
        try:
            with open(path, "wb") as f:
                f.write(b"f" * 1100)
        except OSError:
            try:
                os.remove(path)
            except OSError:
                pass
            return names
        names.append(path)


def case_on_a_full_littlefs_the_finished_game_waits_for_room_for_its_records():
    import os

    flash = RamFlash(24)
    os.VfsLfs2.mkfs(flash, progsize=256)
    os.mount(os.VfsLfs2(flash, progsize=256), "/flash")
    try:
        os.mkdir("/flash/data")
        before = save_records.Records("/flash/data")
        before.load()
        for i in range(save_records.MAX_NAMES):
            before.stats["names"]["\u4e00" * 14 + "%02d" % i] = [1, 200, 200, 0, 1]
        # littlefs keeps a file of up to an eighth of a block inline in its folder's
        # metadata; these statistics are bigger, so each save needs a free block
        assert before.save("stats") > 512
        app, session = _boot(None, "/flash/data", 4)
        app.new_game()
        while app.game.phase == G.ROLLOFF:
            app.rolloff_round()
        app.start_turn()
        _play(app, 4 * 13 - 1)
        app.roll()
        fillers = _fill("/flash")
        assert fillers
        _finish(app, session)
        kept = save_store.Store("/flash/data/game").load()
        true(kept is not None, kept)
        equal(kept["game"]["phase"], G.OVER)
        recs = save_records.Records("/flash/data")
        recs.load()
        equal(recs.stats["all"][save_records.GAMES], 0)  # not written: the flash is full
        for path in fillers[:2]:  # room again
            os.remove(path)
        later, again = _boot(None, "/flash/data", 4)  # the next boot finishes the game
        true(later.game is not None, later.game)
        equal(later.game.phase, G.OVER)
        again.end_ok(later)  # the high scores fitted (inline) the first time: none left
        recs = save_records.Records("/flash/data")
        recs.load()
        equal(recs.problems, [])
        equal(recs.stats["all"][save_records.GAMES], 4)
        equal(recs.rolls["faces"], kept["counts"])
        equal(len(recs.scores), 4)
        assert save_store.Store("/flash/data/game").load() is None
    finally:
        os.umount("/flash")
