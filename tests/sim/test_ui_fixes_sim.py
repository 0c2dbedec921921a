"""Small screen fixes, played in the headless simulator (the real firmware under
MicroPython) or checked on the module that makes the decision: the menu shows the players'
set-up on its first screen, the end screen of a solo game shows its score and says what OK
does, the splash does not ask for a press it does not wait for, the dice go dark in the
menu, the hint blinks the dice to re-roll (as the README says), and a hint keeps the held
dice when they are as good as the ones it would name.
"""

import pytest

from host_tools.simulator import golden as sim_golden
from host_tools.simulator.screen import dice_line, screen_lines
from helpers.sim_helpers import play

pytestmark = pytest.mark.slow

SOLO_GAME = sim_golden.SOLO_GAME


def lines(device):
    return screen_lines(device.oled_pixels())


def test_the_menu_opens_on_start_game_with_the_players_below(tmp_path):
    menu = lines(play(tmp_path, "enter", seed=1))
    assert menu[:5] == ["Setup          v", "Start game", "Players        2", "P1 Human", "P2 CPU casual"]
    four = lines(play(tmp_path / "four", "enter down enter enter up", seed=1))  # 4 players, back to Start
    assert four[1] == "Start game"
    assert four[3:7] == ["P1 Human", "P2 CPU casual", "P3 CPU casual", "P4 CPU casual"]


def test_the_splash_moves_on_by_itself_and_does_not_ask_for_a_press(tmp_path):
    device = play(tmp_path, "wait:1500", seed=1)
    assert lines(device)[0].startswith("Setup")  # 1.5 s, no press: the menu
    splash = sim_golden.SimDevice(seed=1, flash_dir=str(tmp_path / "splash"))
    try:
        splash.run_until(300)
        shown = lines(splash)
    finally:
        splash.close()
    assert shown[0] == "    YAHTZEE"
    assert not any("press" in line for line in shown)


def test_the_solo_end_screen_shows_the_score_and_what_ok_does(tmp_path):
    end = lines(play(tmp_path / "fresh", SOLO_GAME, seed=2))
    total = end[1].split()[-1]
    assert end[3].split() == ["Final", "score", total]
    assert end[7] == "OK: high scores"  # an empty table: OK asks for initials first
    after = lines(play(tmp_path / "fresh", "enter", seed=2))
    assert after[0] == "New high score!"


def test_the_dice_go_dark_when_the_game_is_quit_to_the_menu(tmp_path):
    device = play(tmp_path, sim_golden.SOLO + " space wait:600", seed=3)
    assert "." not in dice_line(device)
    quit = play(tmp_path / "quit", sim_golden.SOLO + " space wait:600 hold:m:800 enter", seed=3)
    assert lines(quit)[0].startswith("Setup")
    assert dice_line(quit).split() == ["."] * 5


def test_the_hint_blinks_the_dice_to_re_roll_and_keeps_the_others_steady(tmp_path):
    # The README: "`.` = re-roll, and those dice blink"; the kept dice stay lit like held ones.
    tables = sim_golden.scene_tables("hint")
    keys = sim_golden.SOLO + " space wait:500 m wait:120"
    seen = []
    for extra in ("", " wait:250"):
        device = play(tmp_path / ("phase%d" % len(seen)), keys + extra, seed=4, tables=tables)
        seen.append((lines(device)[3].split(), dice_line(device).split()))
    (advice, dark), (advice_again, lit) = seen
    assert advice == advice_again
    assert "." in advice
    assert len(advice) == 5
    assert "." not in lit  # the other phase: every die lit
    for i in range(5):
        if advice[i] == ".":
            assert dark[i] == "."  # a die to re-roll, in its dark phase
        else:
            assert dark[i] == advice[i] == lit[i]  # a die to keep: steady


class FakeAdvisor:
    """Answers ``options`` with one fixed best hold (the coach's only call for a hint)."""

    def __init__(self, mask):
        self.mask = mask

    def options(self, dice, rolls_left, codes, values):
        codes[0], values[0] = self.mask, 0
        return 1


def test_a_hint_keeps_the_held_die_when_another_shows_the_same_face():
    import coach
    import coach_advice

    dice = [2, 5, 2, 6, 2]
    c = coach.Coach()
    c.adv = FakeAdvisor(0b00101)  # keep the 2s of dice 1 and 3
    c.advice = coach_advice  # as the table's opening loads it
    assert c.hint(dice, 2, held=0b10000) == 0b10001  # die 5's held 2 stays, die 3's is not asked
    assert c.hint(dice, 2, held=0b10100) == 0b10100
    assert c.hint(dice, 2, held=0b00010) == 0b00101  # a held 5 that is not advised: released
    assert coach.prefer_held([1, 1, 1, 1, 1], 0b11111, 0b00110) == 0b11111


def test_scoring_takes_two_presses_and_the_first_shows_what_it_makes(tmp_path):
    # One OK (or an OK pressed out of habit) never scores: it shows the box,
    # its points and the total it makes; OK again scores, any other button goes back.
    from helpers.sim_helpers import saved

    rolled = sim_golden.SOLO + " space wait:500"
    turn = lines(play(tmp_path / "turn", rolled, seed=5))
    chosen = [line for line in turn[1:7] if "+" in line]
    asked = lines(play(tmp_path / "asked", rolled + " enter", seed=5))
    assert all(box < 0 for box in saved(tmp_path / "asked")["game"]["players"][0][2][:13])
    assert asked[0] in ("Score this?", "Score a zero?")
    assert asked[6:8] == [" OK    = score", " other = back"]
    label, points = asked[2].rsplit(None, 1)
    assert asked[4].split() == ["Total", "then", points]  # the first box of the game
    back = lines(play(tmp_path / "back", rolled + " enter down", seed=5))
    assert back[0].startswith("P1 Roll 1/3")
    assert saved(tmp_path / "back")["game"]["rolls"] == 1
    play(tmp_path / "scored", rolled + " enter enter", seed=5)
    card = saved(tmp_path / "scored")["game"]["players"][0][2]
    assert sorted(box for box in card[:13] if box >= 0) == [int(points)]
    assert chosen
