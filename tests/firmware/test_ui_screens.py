"""Screens the scripted golden runs cannot reach easily: a shared win on the end screen,
and the quit confirmation (a long MENU press). Drawn by the real app inside MicroPython
(sim board on a loopback link); the frame buffer is read back as text in CPython.
"""

from host_tools.simulator.screen import text_lines
from helpers.sim_helpers import APP_ON_LOOPBACK, run_probe

SETUP = APP_ON_LOOPBACK

TIE = (
    SETUP
    + r"""
zero = [0] * 13 + [0]
third = [0] * 12 + [20, 0]
state = {"v": 1, "rules": rules.make_ruleset().name, "phase": game.OVER, "round": 13, "current": 0,
         "first": 0, "contenders": [0], "dice": [0] * 5, "held": 0, "rolls": 0,
         "players": [["P1", "human", zero], ["P2", "cpu", list(zero)], ["P3", "human", third]]}
a.settings.players = 3
a.game = game.Game.from_state(state, hw.dice_source)
a.refresh_totals()
a.finish()
dump()
"""
)

QUIT = (
    SETUP
    + r"""
from drivers.buttons import MENU, LONG, OK
a.new_game()
a.run(frames=1000)
a.handle(MENU | LONG)
dump()
a.handle(OK)
dump()
print("GAME", a.game)
"""
)


RESUME = (
    SETUP
    + r"""
g = game.Game(rules.make_ruleset(joker="free"), [("P1", "human"), ("P2", "human")], hw.dice_source)
while g.phase == game.ROLLOFF:
    g.rolloff()
g.roll()
g.toggle_hold(0)
g.roll()
state = g.to_state()
print("DICE", g.dice, g.held, g.current)
a.resume(game.Game.from_state(state, hw.dice_source))
a.run(frames=100)
dump()
"""
)


def _screens(code):
    proc = run_probe(code)  # the firmware as flashed, at the heap the simulator gives it
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr
    screens = []
    for line in proc.stdout.splitlines():
        if line.startswith("FB "):
            buf = bytes.fromhex(line[3:])
            pixels = [[(buf[(y >> 3) * 128 + x] >> (y & 7)) & 1 for x in range(128)] for y in range(64)]
            screens.append(text_lines(pixels))
    return screens, proc.stdout.splitlines()


def test_end_screen_shares_first_place():
    (lines,), _out = _screens(TIE)
    assert lines[0] == "Game over"
    assert lines[1].split() == ["1.", "P3", "Human", "20"]
    assert lines[2].split() == ["2.", "P1", "Human", "0"]
    assert lines[3].split() == ["2.", "P2", "CPU", "0"]
    assert lines[5].split() == ["Winner:", "P3"]
    assert lines[7] == "OK: menu"  # says what OK does (no save layer: no high scores)


def test_tied_winners_are_all_named():
    code = TIE.replace("third = [0] * 12 + [20, 0]", "third = [0] * 13 + [0]")
    (lines,), _out = _screens(code)
    assert [line.split()[0] for line in lines[1:4]] == ["1.", "1.", "1."]
    assert lines[5].split() == ["Tie:", "P1", "P2", "P3"]


def test_long_menu_asks_before_quitting_the_game():
    (asking, menu_screen), out = _screens(QUIT)
    assert asking[0] == "Quit this game?"
    assert menu_screen[0].startswith("Setup")
    assert "GAME None" in out


def test_resume_continues_a_saved_turn():
    (lines,), out = _screens(RESUME)
    dice_line = [line for line in out if line.startswith("DICE ")][0]
    current = int(dice_line.split()[-1])
    assert lines[0].startswith("P%d Roll 2/3" % (current + 1))
    assert any("+" in line for line in lines[1:7])  # the points on offer are listed again


COMPUTER_TURN = (
    SETUP
    + r"""
from drivers.buttons import OK
import app as app_module
a.settings.players = 2
a.settings.rebuild()
state = {"v": 1, "rules": rules.make_ruleset().name, "phase": game.TURN, "round": 0, "current": 1,
         "first": 0, "contenders": [0, 1], "dice": [0] * 5, "held": 0, "rolls": 0,
         "players": [["P1", KIND, [-1] * 12 + [20, 0]], ["P2", "cpu", [-1] * 13 + [0]]]}
a.resume(game.Game.from_state(state, hw.dice_source))
for _ in range(4000):
    a.frame(hw.ticks_ms())
    hw.sleep_ms(5)
    if a.screen == app_module.SUMMARY:
        break
card = a.game.players[1].card
box = [b for b in range(13) if card[b] >= 0][0]
import lang
print("SCORED", card[box], a.game.total(1), " ".join(str(f) for f in a.faces))
print("LABEL", lang.string(lang.box_name(box, 13)))
dump()
start = hw.ticks_ms()
while a.screen == app_module.SUMMARY and hw.ticks_ms() - start < 20000:
    a.frame(hw.ticks_ms())
    hw.sleep_ms(5)
print("SHOWN_MS", hw.ticks_ms() - start, a.screen == app_module.TURN, a.game.current)
if a.screen == app_module.SUMMARY:
    a.handle(OK)  # a human at the table: it stays until OK
# again, skipped with OK: P1 scores, then P2 plays its next turn
a.roll()
a.score(a.best_box())
if a.screen == app_module.SUMMARY:
    a.handle(OK)  # P1 is a computer too: its own summary first
if a.game.last is not None:
    a.keep_score()  # P1's score stands: P2 may roll
for _ in range(4000):
    a.frame(hw.ticks_ms())
    hw.sleep_ms(5)
    if a.screen == app_module.SUMMARY:
        break
a.handle(OK)
print("SKIPPED", a.screen == app_module.TURN, a.game.current)
"""
)


def test_a_computer_turn_ends_with_what_it_scored_for_a_moment_or_until_ok():
    # "P2: Full house 25", about 1.5 s at a table of computers, skippable with OK.
    (lines,), out = _screens(COMPUTER_TURN.replace("KIND", '"cpu"'))
    scored = [line for line in out if line.startswith("SCORED ")][0].split()
    points, total, faces = scored[1], scored[2], scored[3:]
    label = [line for line in out if line.startswith("LABEL ")][0][6:]
    assert lines[0] == "P2 scored"
    assert lines[2].split() == faces  # the dice it scored (still on the LEDs too)
    assert lines[4] == label + points.rjust(16 - len(label))
    assert lines[5].split() == ["Total", str(total)]
    assert lines[7] == "OK: go on"
    shown = [line for line in out if line.startswith("SHOWN_MS ")][0].split()
    assert 1400 <= int(shown[1]) <= 1700
    assert shown[2:] == ["True", "0"]  # then P1's turn
    assert [line for line in out if line.startswith("SKIPPED ")][0].split()[1:] == ["True", "0"]


def test_with_a_human_at_the_table_a_computers_summary_stays_until_ok():
    # A child who looked away still sees what the computer scored: 20 s on, OK goes on.
    (lines,), out = _screens(COMPUTER_TURN.replace("KIND", '"human"'))
    assert lines[0] == "P2 scored"
    assert lines[7] == "OK: go on"
    shown = [line for line in out if line.startswith("SHOWN_MS ")][0].split()
    assert int(shown[1]) >= 20000
    assert shown[2:] == ["False", "0"]  # still its summary
    assert [line for line in out if line.startswith("SKIPPED ")][0].split()[1:] == ["True", "0"]


ZOO_MENU = (
    SETUP
    + r"""
from ui import menu, scorecard
a.show(1)  # the menu
a.settings.change(menu.CARD)  # standard -> Zoo (kids)
print("ITEMS", a.settings.items)
menu.cursor = a.settings.items.index(menu.CARD)
a.dirty = True
dump()
print("RULES", a.settings.ruleset().name)
a.new_game()
a.run(frames=1000)
a.game.roll()
scorecard.card_seat = 0
a.show(5)  # the card screen: the whole card on one screen (ui/scorecard.py)
dump()
"""
)


def test_menu_offers_the_zoo_card_and_its_card_has_11_boxes_and_18():
    (menu_lines, card_lines), out = _screens(ZOO_MENU)
    assert "Card  Zoo (kids)" in menu_lines
    assert not any(line.strip().startswith(("Yahtzee bonus", "Joker")) for line in menu_lines)
    assert "RULES zoo" in out
    # Every box a picture (read back as "#") with its points, "." while open.
    assert card_lines[0].split() == ["P1", "card", "0"]  # the total in the header
    assert sum(line.split().count(".") for line in card_lines[1:]) == 11  # all open
    assert sum(line.count("#") > 0 for line in card_lines[1:]) == 7  # 6 animals, the bonus's star
    assert card_lines[7].split() == ["#", "0/18"]  # the animals' points of the 18 the bonus needs
    assert not any("Yahtzee" in line for line in card_lines)  # the Zoo card pays no bonus
