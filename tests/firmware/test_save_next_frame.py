"""An action's save is packed in the frame after the one that shows it and written in the
frame after that (a screen update, the packing and the write are three
short stretches, not one long one), before those frames' events, and in order: inside MicroPython, the real app and save layer on the sim
board's loopback link with a scripted HOLD1 press, saving to FakeFs (tests/shared)."""

import ast
import os

import host_tools

SHARED = os.path.join(host_tools.REPO, "tests", "shared")

SCRIPT = """
import app as app_module
import save_session as session_module
import save_store
from boards import sim
from fake_fs import FakeFs

log = []
frame_no = [0]


class LoggingFs(FakeFs):
    def open(self, path, mode):
        if "w" in mode and path.startswith("data/game"):
            log.append(("write", frame_no[0]))
        return FakeFs.open(self, path, mode)


def script(ms):
    return 1 if 300 <= ms < 360 else 0  # HOLD1 (bit 0) down for 60 ms


fs = LoggingFs(dirs=["", "data"])
link = sim.Loopback(script)
hw = sim.build({"link": link, "seed": "3"})
app = app_module.App(hw, {})
session = session_module.Session(hw, "data", fs).attach(app)
app.run(frames=2)
show = hw.oled.show


def logged_show():
    log.append(("show", frame_no[0]))
    show()


hw.oled.show = logged_show
prepare = session.store.prepare


def logged_prepare(value):
    log.append(("pack", frame_no[0]))
    return prepare(value)


session.store.prepare = logged_prepare
app.new_game()
app.start_turn()
app.roll()
print("DUE_AFTER_ROLL", session.save_due(), "STILL", app.still())
app.frame(hw.ticks_ms())
print("DUE_AFTER_FRAME", session.save_due())
app.frame(hw.ticks_ms())
print("DUE_AFTER_2_FRAMES", session.save_due())
rolled = save_store.Store("data/game", fs.reboot()).load()["game"]
print("SAVED_ROLLS", rolled["rolls"], "HELD", rolled["held"])
log.clear()
held_at = -1
for n in range(1, 200):
    frame_no[0] = n
    app.frame(hw.ticks_ms())
    if held_at < 0 and app.game.held:
        held_at = n
        print("HELD_FRAME_SAVED", save_store.Store("data/game", fs.reboot()).load()["game"]["held"])
    hw.sleep_ms(5)
    link.wait(5)
print("HELD_AT", held_at)
print("LOG", [entry for entry in log if held_at <= entry[1] <= held_at + 2])
print("SAVED_HELD", save_store.Store("data/game", fs.reboot()).load()["game"]["held"])
# Two actions before a frame: the first one's save is written before the second's is taken.
log.clear()
frame_no[0] = 500
app.set_holds(3)
app.set_holds(7)
print("ORDER", log, save_store.Store("data/game", fs.reboot()).load()["game"]["held"])
app.frame(hw.ticks_ms())
app.frame(hw.ticks_ms())
print("LAST", save_store.Store("data/game", fs.reboot()).load()["game"]["held"])
"""


def _run_script(script):
    """``script`` inside MicroPython (the tests/shared fakes on its path): its printed
    ``KEY value`` lines as a dict, and its whole output."""
    proc = host_tools.run_micropython(["-c", script], heap="512K", extra_path=(SHARED,))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return dict(line.split(" ", 1) for line in proc.stdout.splitlines() if " " in line), proc.stdout


def _run():
    return _run_script(SCRIPT)[0]


def test_the_frame_that_shows_an_action_does_not_write_its_save_the_next_frame_does():
    out = _run()
    # the roll's save waits, and the loop does not sleep while it does
    assert out["DUE_AFTER_ROLL"] == "True STILL False"
    assert out["DUE_AFTER_FRAME"] == "True"  # packed; written the frame after
    assert out["DUE_AFTER_2_FRAMES"] == "False"
    assert out["SAVED_ROLLS"] == "1 HELD 0"
    held_at = int(out["HELD_AT"])
    assert held_at > 0
    assert out["HELD_FRAME_SAVED"] == "0"  # the flash still has the roll when the hold shows
    # the frame of the press draws; the next one packs the save, the one after writes it
    # (the packing and the sector erase are two stretches, not one)
    assert out["LOG"] == str([("show", held_at), ("pack", held_at + 1), ("write", held_at + 2)])
    assert out["SAVED_HELD"] == "1"


def test_a_second_action_writes_the_first_ones_save_first():
    out = _run()
    # set_holds(7) first packed and wrote set_holds(3)'s save
    assert out["ORDER"] == "[('pack', 500), ('write', 500)] 3"
    assert out["LAST"] == "7"


PREPARE_SCRIPT = """
import app as app_module
import save_session as session_module
from boards import sim
from fake_fs import FakeFs

log = []
frame_no = [0]


class LoggingFs(FakeFs):
    def open(self, path, mode):
        if "w" in mode and path.startswith("data/game"):
            log.append(("write", frame_no[0]))
        return FakeFs.open(self, path, mode)


fs = LoggingFs(dirs=["", "data"])
hw = sim.build({"link": sim.Loopback(), "seed": "3"})
app = app_module.App(hw, {})
app.settings.players = 1  # solo: the score starts the next turn at once
app.settings.rebuild()
session = session_module.Session(hw, "data", fs).attach(app)
app.run(frames=2)
app.new_game()
app.run(frames=4)  # its table's opening (none here) is over: a part a frame (app.tick)
app.roll()
app.run(frames=2)  # the roll's save: packed, then written
log.clear()
# An advisor that logs when the turn is prepared (the real one needs the strategy table).
app.coach.adv = object()
app.coach.start_turn = lambda card, game: log.append(("prepare", frame_no[0])) or True
show = hw.oled.show
hw.oled.show = lambda: log.append(("show", frame_no[0])) or show()
box = app.best_box()
app.score(box)
import scheduler
print("PENDING", app.jobs.busy(scheduler.PREPARE), "STILL", app.still())
for n in range(1, 6):
    frame_no[0] = n
    app.frame(hw.ticks_ms())
print("LOG", log)
print("ROUND", app.game.round, "SCREEN", app.screen == app_module.TURN)
"""


def test_a_turns_advisor_is_prepared_in_a_frame_after_the_save_and_the_screen():
    out, _stdout = _run_script(PREPARE_SCRIPT)
    assert out["PENDING"] == "True STILL False"
    # frame 1 packs the score's save and draws the new turn, frame 2 writes the save,
    # frame 3 prepares the turn's advisor
    assert out["LOG"] == str([("show", 1), ("write", 2), ("prepare", 3)])
    assert out["ROUND"] == "1 SCREEN True"


METER_SCRIPT = (
    PREPARE_SCRIPT.replace(
        "app.settings.players = 1  # solo: the score starts the next turn at once",
        "app.settings.players = 2\napp.settings.kinds[1] = 0  # two humans: the score starts the next turn\n"
        "app.settings.coach = 0  # no table to open (job OPEN) in the frames logged",
    )
    .replace(
        "app.new_game()\n",
        "app.new_game()\nwhile app.game.phase != 1:\n    app.rolloff_round()\napp.start_turn()\n",
    )
    .replace(
        "box = app.best_box()",
        "app.coach.meter = lambda game, breakdowns, out: log.append((\"meter\", frame_no[0])) or True\n"
        "box = app.best_box()",
    )
)


def test_the_win_meter_after_a_score_gets_a_frame_of_its_own():
    """The score's frame draws the next turn (its chances not shown yet) and packs the
    save (the script scores outside a frame), the next one writes it, then the meter (and the chances redrawn), then the turn's advisor."""
    assert "meter" in METER_SCRIPT
    assert "players = 2" in METER_SCRIPT
    out, _stdout = _run_script(METER_SCRIPT)
    assert out["LOG"] == str([("show", 1), ("write", 2), ("meter", 3), ("show", 3), ("prepare", 4)])
    assert out["ROUND"] == "0 SCREEN True"  # the second player's turn of round 1


SETUP_SCRIPT = """
import app as app_module
import save_session as session_module
from boards import sim
from fake_fs import FakeFs

log = []
frame_no = [0]


class LoggingFs(FakeFs):
    def open(self, path, mode):
        if "w" in mode and path.startswith("data/"):
            log.append((path[5:path.index(".")], frame_no[0]))
        return FakeFs.open(self, path, mode)


fs = LoggingFs(dirs=["", "data"])
hw = sim.build({"link": sim.Loopback(), "seed": "3"})
app = app_module.App(hw, {})
session = session_module.Session(hw, "data", fs).attach(app)
app.run(frames=2)
app.show(app_module.MENU_SCREEN)
log.clear()
app.new_game()  # Start game on a fresh flash: the set-up is not saved yet
print("IN_OK_FRAME", log)
for n in range(1, 6):
    frame_no[0] = n
    app.frame(hw.ticks_ms())
print("LOG", log)
print("DUE", session.save_due())
"""


def test_start_games_set_up_save_is_a_frame_of_its_own():
    """Start game with a set-up not on flash yet (a fresh flash): the OK's frame writes
    nothing; the game's save is packed, then written, then the set-up is written, a
    frame each (the set-up was written in the OK's frame: 45 ms of erase on top)."""
    out, _stdout = _run_script(SETUP_SCRIPT)
    assert out["IN_OK_FRAME"] == "[]"
    assert out["LOG"] == str([("game", 2), ("setup", 3)])
    assert out["DUE"] == "False"


GC_SCRIPT = r"""
import gc, time
from loopback_rig import Rig
rig = Rig({"seed": "5"})
a = rig.app
a.run(frames=50)
clock = rig.hw.clock
plain = a.frame
calls = [0]
def frame(now):
    plain(now)
    calls[0] += 1
    if calls[0] == 1:
        junk = [bytearray(100) for _ in range(100)]  # long work's garbage, about 10 KB
        junk = None
        clock.now = time.ticks_add(clock.now, 40)  # and the frame ran 40 ms over
a.frame = frame
gc.collect()
before = gc.mem_alloc()
a.run(frames=2)  # the long frame, then one with time to spare
print("LEFT", gc.mem_alloc() - before)
"""


def test_the_garbage_of_a_long_frame_is_collected_in_the_next_spare_one():
    # The heap's automatic collection runs when an allocation finds no
    # room, which is inside work; collecting after a long frame, with time to spare, keeps
    # it out of the next stretch a press could notice.
    _out, stdout = _run_script(GC_SCRIPT)
    left = [int(line.split()[1]) for line in stdout.splitlines() if line.startswith("LEFT")]
    assert left, stdout[-2000:]
    assert left[0] < 4000, left  # the ~10 KB of garbage is gone without an explicit collect


SLOW_GC_SCRIPT = r"""
import time
import app as app_module
from loopback_rig import Rig
rig = Rig({"seed": "5"})
a = rig.app
a.run(frames=50)
clock = rig.hw.clock


class SlowGc:
    # the app's collection, taking longer than a frame (as it may on the chip: a whole
    # heap marked and swept)
    calls = 0

    def collect(self):
        SlowGc.calls += 1
        clock.now = time.ticks_add(clock.now, 12)


app_module.gc = SlowGc()
plain = a.frame
frames = [0]
def frame(now):
    plain(now)
    frames[0] += 1
    if frames[0] == 1:
        clock.now = time.ticks_add(clock.now, 40)  # a long frame: behind
a.frame = frame
a.run(frames=30)
print("COLLECTS", SlowGc.calls)
"""


def test_a_collection_that_overruns_its_frame_is_not_followed_by_another():
    # Counted as falling behind, the collection's own overrun made the next frame collect
    # again, and so on: the idle menu never slept (bench power's idle menu 1.3 -> 5.7 %
    # busy; in busy mode a stretch of about 12 estimated ms every frame instead of 3).
    _out, stdout = _run_script(SLOW_GC_SCRIPT)
    assert "COLLECTS 1" in stdout.splitlines(), stdout[-2000:]


END_SCRIPT = r"""
import app as app_module
import game as G
import save_session as session_module
from boards import sim
from fake_fs import FakeFs

log = []
frame_no = [0]


class LoggingFs(FakeFs):
    def open(self, path, mode):
        if "w" in mode:
            log.append((path.split("/")[1], frame_no[0]))
        return FakeFs.open(self, path, mode)


fs = LoggingFs(dirs=["", "data"])
hw = sim.build({"link": sim.Loopback(lambda ms: 0), "seed": "3"})
a = app_module.App(hw, {})
session = session_module.Session(hw, "data", fs).attach(a)
a.run(frames=2)
a.new_game()
a.start_turn()
game = a.game
while True:  # the default game (a human against a computer) up to its last box
    game.roll()
    card = game.players[game.current].card
    open_boxes = [b for b in range(game.rules.n_boxes) if card[b] == -1]
    if len(open_boxes) == 1 and game.round == game.rounds - 1 and (game.current + 1) % 2 == game.first:
        break
    game.score(open_boxes[0])
a.changed()  # its save, written over the next frames
for _ in range(4):
    a.frame(hw.ticks_ms())
box = open_boxes[0]
log.clear()
a.score(box)  # the last box: the game is over
print("OVER", game.phase == G.OVER, "WAITS", session.scores_wait())
for n in range(1, 12):
    frame_no[0] = n
    a.frame(hw.ticks_ms())
    if n == 3:
        print("AFTER_SAVE", session.scores_wait(), session.save_due())
print("LOG", log)
print("WAITS", session.scores_wait(), "DUE", session.save_due())
"""


def test_a_games_end_writes_one_file_a_frame():
    """The last score's save, then the records (the end of a game was one
    stretch of about 300 estimated ms with three 45 ms erases): the score's frame writes
    nothing, the game's save is packed and written, then the statistics and the dice
    rolled, a file a frame; the end screen learns of the high score once it is known."""
    out, _stdout = _run_script(END_SCRIPT)
    assert out["OVER"] == "True WAITS False"
    assert out["AFTER_SAVE"] == "False True"  # the records' steps still to come
    writes = ast.literal_eval(out["LOG"])
    # packed in frame 1, written in 2; the records loaded in 3, then a file a frame
    assert writes == [("game.tmp", 2), ("stats.tmp", 4), ("rolls.tmp", 5)]
    assert out["WAITS"] == "True DUE False"  # a first game's scores are high scores
