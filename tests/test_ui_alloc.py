"""The frame loop allocates nothing after warm-up (measured with gc.mem_alloc inside the
real MicroPython, with the sim board on a scripted loopback link: the real drivers, the
real app, no host).

Measured: idle frames on the turn screen, frames that redraw the OLED and the dice every
time (turn, card and menu screens), and frames handling cursor key presses.
"""
import os

import host_tools

SHARED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "shared")

PROBE = r"""
from loopback_rig import Rig
from drivers.buttons import ROLL, DOWN, MENU

rig = Rig({"seed": "5"})
a, press = rig.app, rig.press

def measure(label, frames, redraw):
    print("ALLOC", label, rig.allocated(frames, redraw))

a.run(frames=400)  # splash times out into the menu
measure("menu-redraw", 200, True)
print("SCREEN menu", a.screen)
a.settings.players = 1
a.settings.rebuild()
a.new_game()
press(ROLL, 20)
a.run(frames=200)
print("SCREEN turn", a.screen, a.game.rolls)
measure("turn-idle", 400, False)
measure("turn-redraw", 200, True)
cursor = a.cursor
for i in range(4):
    press(DOWN, 300 + 100 * i)
measure("turn-keys", 200, False)
print("MOVED", a.cursor != cursor)
press(MENU, 20)
a.run(frames=40)
print("SCREEN card", a.screen)
measure("card-redraw", 200, True)
"""


def _run_probe():
    proc = host_tools.run_micropython(["-c", PROBE], heap="192K", extra_path=(SHARED,))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    allocs = {}
    for line in lines:
        words = line.split()
        if words[0] == "ALLOC":
            allocs[words[1]] = int(words[2])
    return lines, allocs


def test_frame_loop_allocates_nothing_after_warm_up():
    import app

    lines, allocs = _run_probe()
    assert "SCREEN menu %d" % app.MENU_SCREEN in lines
    assert "SCREEN turn %d 1" % app.TURN in lines
    assert "SCREEN card %d" % app.CARD in lines
    assert "MOVED True" in lines  # the key presses really happened in the measured frames
    assert sorted(allocs) == ["card-redraw", "menu-redraw", "turn-idle", "turn-keys", "turn-redraw"]
    assert allocs == dict.fromkeys(allocs, 0), allocs
