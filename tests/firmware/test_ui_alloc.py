"""The frame loop allocates nothing after warm-up (measured with gc.mem_alloc inside the
real MicroPython, with the sim board on a scripted loopback link: the real drivers, the
real app, no host).

Measured: idle frames on the turn screen, frames that redraw the OLED and the dice every
time (turn, card and menu screens; the 4-player turn screen with its compact opponents'
line; the Zoo card's turn and card screens, all pictures; the menu's rules pages), and
frames handling cursor key presses.
"""

from helpers.sim_helpers import alloc_probe

PROBE = r"""
from loopback_rig import Rig
from drivers.buttons import ROLL, DOWN, MENU, OK

rig = Rig({"seed": "5"})
a, press, measure = rig.app, rig.press, rig.measure

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
# Four players: the opponents' line in the compact font under the turn screen.
import game
g = game.Game(a.settings.ruleset(), [("P%d" % (i + 1), "human") for i in range(4)], a.hw.dice_source)
while g.phase == game.ROLLOFF:
    g.rolloff()
a.resume(g)
a.run(frames=40)
print("SCREEN turn4", a.screen, len(a.game.players))
measure("turn4-redraw", 200, True)
# The Zoo card: every box a picture (ui/pages.py), on the turn screen and the card.
import rules
g = game.Game(rules.make_ruleset(rules.ZOO), [("P1", "human"), ("P2", "human")], a.hw.dice_source)
while g.phase == game.ROLLOFF:
    g.rolloff()
g.roll()
a.resume(g)
a.run(frames=40)
print("SCREEN zoo-turn", a.screen, a.game.rules.name)
measure("zoo-turn-redraw", 200, True)
press(MENU, 20)
a.run(frames=40)
print("SCREEN zoo-card", a.screen)
measure("zoo-card-redraw", 200, True)
# The rules pages of the menu's How to play line (ui/pages.py), the Zoo card's.
from ui import menu
a.game = None
a.show(1)  # app.MENU_SCREEN
a.settings.card = menu.ZOO
a.settings.rebuild()
menu.cursor = a.settings.items.index(menu.HOW_TO)
a.handle(OK)
press(DOWN, 20)
a.run(frames=40)
print("SCREEN rules", a.screen, "ui.pages" in __import__("sys").modules)
measure("rules-redraw", 200, True)
"""


def test_frame_loop_allocates_nothing_after_warm_up():
    import app

    lines, allocs = alloc_probe(PROBE)
    assert "SCREEN menu %d" % app.MENU_SCREEN in lines
    assert "SCREEN turn %d 1" % app.TURN in lines
    assert "SCREEN card %d" % app.CARD in lines
    assert "MOVED True" in lines  # the key presses really happened in the measured frames
    assert "SCREEN turn4 %d 4" % app.TURN in lines
    assert "SCREEN zoo-turn %d zoo" % app.TURN in lines
    assert "SCREEN zoo-card %d" % app.CARD in lines
    assert "SCREEN rules %d True" % app.MENU_SCREEN in lines  # the menu showing its rules pages
    assert sorted(allocs) == [
        "card-redraw", "menu-redraw", "rules-redraw", "turn-idle", "turn-keys", "turn-redraw", "turn4-redraw",
        "zoo-card-redraw", "zoo-turn-redraw",
    ]  # fmt: skip
    assert allocs == dict.fromkeys(allocs, 0), allocs
