"""The frame's rule for background work, inside MicroPython on the real app (the sim
board's loopback link): a frame takes ONE of the end of a roll's tumble, a part of a
save, the presses waiting, one part of other work (firmware/scheduler.py), the screen's
timers; a job queued with ``hold`` keeps the presses waiting, latched and in order;
queuing and running a part allocate nothing.
"""

from helpers.sim_helpers import alloc_probe

PROBE = r"""
import gc
import app as app_module
import scheduler
from loopback_rig import Rig
from drivers.buttons import DOWN, UP

rig = Rig({"seed": "5"})
a = rig.app
a.run(frames=400)  # the splash times out into the menu
log = []
frame = [0]


def logged(kind, fn):
    def wrapper(*args):
        log.append((frame[0], kind))
        return fn(*args)
    return wrapper


def ticking(a, now):
    log.append((frame[0], "tick"))


draw, handle, _tick = app_module.SCREENS[app_module.MENU_SCREEN]
screens = list(app_module.SCREENS)
screens[app_module.MENU_SCREEN] = (draw, logged("press", handle), ticking)
app_module.SCREENS = tuple(screens)


def work(name, n):
    for i in range(n):
        log.append((frame[0], name))
        if i < n - 1:
            yield


def frames(n):
    for _ in range(n):
        frame[0] += 1
        a.frame(a.hw.ticks_ms())
        a.hw.sleep_ms(5)


def latch():
    # The press happens between frames: polled, so it waits in the queue.
    for _ in range(16):
        a.hw.sleep_ms(5)
        a.hw.buttons.poll(a.hw.ticks_ms())


def report(label):
    print(label, " ".join("%d:%s" % entry for entry in log))
    del log[:]


# A press and three parts of work waiting: the press first, then a part a frame, then timers.
rig.press(DOWN, 0)
latch()
a.jobs.add(scheduler.OPEN, work("part", 3))
frames(5)
report("FREE")
# The same with the job holding the presses: the parts first, the press after them.
rig.press(UP, 0)
latch()
a.jobs.add(scheduler.OPEN, work("part", 3), True)
frames(5)
report("HELD")
# A save goes before other work that was queued first, and before a press waiting.
a.jobs.add(scheduler.METER, work("meter", 1))
a.jobs.add(scheduler.SAVE, work("save", 2))
rig.press(DOWN, 0)
latch()
frames(5)
report("SAVES")
# Queuing a one-part job and running it allocate nothing (after a warm-up round).
for label in ("warm-up", "jobs"):
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for _ in range(50):
        a.jobs.add(scheduler.COLLECT, gc.isenabled)
        frames(1)
    used = gc.mem_alloc() - before
    gc.enable()
    print("ALLOC", label, used)
"""

TUMBLE_PROBE = r"""
import app as app_module
import scheduler
from loopback_rig import Rig

rig = Rig({"seed": "5"})
a = rig.app
a.run(frames=400)
a.settings.players = 1
a.settings.coach = 0
a.settings.rebuild()
a.new_game()
a.run(frames=10)
a.roll()
log = []
frame = [0]


def work():
    while True:
        log.append((frame[0], "part", a.rolling))
        yield


a.jobs.add(scheduler.OPEN, work())
while frame[0] < 200:
    frame[0] += 1
    rolling = a.rolling
    a.frame(a.hw.ticks_ms())
    if rolling and not a.rolling:
        log.append((frame[0], "ended", False))
    a.hw.sleep_ms(5)
a.jobs.cancel(scheduler.OPEN)
ended = [f for f, kind, _r in log if kind == "ended"]
parts = [f for f, kind, _r in log if kind == "part"]
print("ENDED", ended)
print("PART_IN_END_FRAME", [f for f in parts if f in ended])
print("PARTS_BEFORE_AND_AFTER", len([f for f in parts if f < ended[0]]) > 0, len([f for f in parts if f > ended[0]]) > 0)
"""


def _entries(line):
    return [tuple(item.split(":")) for item in line.split()[1:]]


def test_a_frame_takes_the_presses_or_one_part_of_work_or_the_timers():
    lines, allocs = alloc_probe(PROBE)
    got = {
        line.split()[0]: _entries(line)
        for line in lines
        if line.split() and line.split()[0] in ("FREE", "HELD", "SAVES")
    }
    # The press's frame runs no work; then a part a frame; the timers once none is left.
    assert got["FREE"] == [("1", "press"), ("2", "part"), ("3", "part"), ("4", "part"), ("5", "tick")]
    # A held press waits, latched, for the job; then it comes (its frame no part, no tick).
    assert got["HELD"] == [("6", "part"), ("7", "part"), ("8", "part"), ("9", "press"), ("10", "tick")]
    # The save queued after the meter runs first, a part a frame, then the press (its
    # frame no work), then the meter.
    assert got["SAVES"] == [("11", "save"), ("12", "save"), ("13", "press"), ("14", "meter"), ("15", "tick")]
    assert allocs["jobs"] == 0


def test_the_frame_that_ends_a_rolls_tumble_runs_no_work():
    lines, _allocs = alloc_probe(TUMBLE_PROBE)
    assert any(line.startswith("ENDED [") and line != "ENDED []" for line in lines), lines
    assert "PART_IN_END_FRAME []" in lines, lines
    assert "PARTS_BEFORE_AND_AFTER True True" in lines, lines  # the work went on around it


CARD_PROBE = r"""
import app as app_module
import game
from loopback_rig import Rig
from drivers.buttons import MENU, OK

rig = Rig({"seed": "5"})
a = rig.app
a.run(frames=400)  # the splash, then the menu
g = game.Game(a.settings.ruleset(), [("P1", "human"), ("P2", "optimal")], a.hw.dice_source)
while g.phase == game.ROLLOFF:
    g.rolloff()
a.resume(g)
a.run(frames=80)  # the table opens a part a frame
print("ADVISOR", a.coach.adv is not None)
log = []
frame = [0]
draw, handle, tick = app_module.SCREENS[app_module.CARD]


def card_draw(app, fb):
    log.append((frame[0], "card"))
    draw(app, fb)


screens = list(app_module.SCREENS)
screens[app_module.CARD] = (card_draw, handle, tick)
app_module.SCREENS = tuple(screens)
for turn in range(6):  # three human turns, each followed by the computer's
    if not a.computer_turn():
        a.roll()
        a.score(a.best_box())  # the computer's turn starts: its save, meter, advisor queued
        a.keep_score()  # OK: the score stands, the computer may roll
    start = frame[0]
    while frame[0] < start + 1600 and (a.computer_turn() or a.screen != app_module.TURN):
        if a.screen == app_module.SUMMARY:
            rig.press(OK, 0)  # what it scored stays until OK (a human plays along)
        elif (frame[0] - start) % (20 + turn) == 0:
            del rig.presses[:-2]  # the presses made long ago need no more looking at
            rig.press(MENU, 0)  # the card, and back: over and over as the turn goes on
        frame[0] += 1
        a.jobs.ran = -1
        a.frame(a.hw.ticks_ms())
        if a.jobs.ran >= 0:
            log.append((frame[0], "work"))
        a.hw.sleep_ms(5)
works = {f for f, kind in log if kind == "work"}
cards = {f for f, kind in log if kind == "card"}
print("CARDS", len(cards), "WORK", len(works), "BOTH", sorted(works & cards))
print("ROUND", g.round)
"""


def test_the_card_opened_on_a_computers_turn_shares_no_frame_with_work(tmp_path, device_tables):
    """MENU on a computer's turn opens the card view: its frame draws the card and runs no
    part of the turn's work (the advisor's preparation, the meter, the decision, a save),
    which once made one frame of both (a 128-190 ms gap on the emulated chip)."""
    import os

    for name, path in device_tables.items():
        os.symlink(path, str(tmp_path / name))
    lines, _allocs = alloc_probe(CARD_PROBE, cwd=str(tmp_path))
    assert "ADVISOR True" in lines
    both = [line for line in lines if line.startswith("CARDS ")][0].split()
    assert int(both[1]) > 50, both  # the card was drawn often ...
    assert int(both[3]) > 20, both  # ... while the turns' work went on
    assert both[5:] == ["[]"], both  # never in the same frame
    assert int([line for line in lines if line.startswith("ROUND ")][0].split()[1]) >= 2  # the turns went on
