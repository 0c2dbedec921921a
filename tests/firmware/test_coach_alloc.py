"""Hint and review frames allocate nothing after warm-up, with the advisor loaded (inside
the real MicroPython, sim board on a loopback link, the strategy table in the working
directory as on the device's flash root).

Measured: idle frames on the hint screen (its dice blink, so the dice are rewritten every
250 ms), frames that redraw the hint and the review every time. A computer turn played by
the optimal level through the advisor allocates no more than one of the simple strategy
(both allocate a little in their game actions: scoring builds the totals tuple).
"""

import os

from helpers.sim_helpers import alloc_probe

PROBE = r"""
import app
from loopback_rig import Rig
from drivers.buttons import ROLL, MENU, OK
from ui import menu

rig = Rig({"seed": "5"})
a, press, measure = rig.app, rig.press, rig.measure

a.run(frames=400)  # splash times out into the menu
a.settings.players = 1
a.settings.coach = menu.COACH_TURN
a.settings.rebuild()
a.new_game()
a.run(frames=60)  # the strategy table opens a part a frame (app.tick)
print("ADVISOR", a.coach.adv is not None)
press(ROLL, 20)
a.run(frames=200)
press(MENU, 20)
a.run(frames=40)
print("SCREEN hint", a.screen)
measure("hint-idle", 400, False)
measure("hint-redraw", 200, True)
press(OK, 20)  # take the advised hold
a.run(frames=40)
a.cursor = a.best_box()
press(OK, 20)
a.run(frames=40)
if a.screen == app.CONFIRM_SCORE:
    press(OK, 20)
    a.run(frames=40)
print("SCREEN review", a.screen)
measure("review-redraw", 200, True)
# A computer turn: the optimal level plays the next game's first turn.
a.settings.kinds[0] = 1
a.new_game()
print("KIND", a.game.players[0].kind)
a.run(frames=100)
measure("cpu-turn", 1200, False)
print("CPU ROLLS", a.game.rolls, a.game.round, a.game.players[0].card.count(-1))
a.coach.close()
a.run(frames=100)
measure("simple-cpu-turn", 1200, False)
print("CPU ROLLS", a.game.rolls, a.game.round, a.game.players[0].card.count(-1))
"""


def test_hint_review_and_advisor_cpu_frames_allocate_nothing(tmp_path, device_tables):
    import app

    for name, path in device_tables.items():
        os.symlink(path, str(tmp_path / name))
    lines, allocs = alloc_probe(PROBE, cwd=str(tmp_path))
    assert "ADVISOR True" in lines
    assert "SCREEN hint %d" % app.HINT in lines
    assert "SCREEN review %d" % app.REVIEW in lines
    assert "KIND optimal" in lines
    assert sorted(allocs) == ["cpu-turn", "hint-idle", "hint-redraw", "review-redraw", "simple-cpu-turn"]
    turns = [line for line in lines if line.startswith("CPU ROLLS")]
    # each window scored a box (how many fit in 1200 frames depends on when the splash
    # ended: 1.4 s after power-on)
    first, second = int(turns[0].split()[-1]), int(turns[1].split()[-1])
    assert first <= 12
    assert second < first
    # A computer turn allocates only in its game actions (scoring builds the totals
    # tuple), never per frame or per advisor lookup: no more than the simple strategy.
    assert allocs.pop("cpu-turn") <= allocs.pop("simple-cpu-turn")
    assert allocs == dict.fromkeys(allocs, 0), (allocs, lines)
