"""Challenge codes on the handheld, in the headless simulator (the real firmware under
MicroPython): with a code (``sim --challenge``, device.cfg's ``challenge=``, the web
page's link) the menu's first line says so and the games it starts roll the code's dice
whatever the seed (every seat the same in a round), and the dice-fairness statistics
count only the dice of normal games.
"""

import pytest

import host_tools
from host_tools import sim
from host_tools.simulator import golden as sim_golden
from host_tools.simulator.screen import dice_state, screen_lines
from helpers.sim_helpers import play, saved

host_tools.use_firmware()
import game_challenge  # noqa: E402

pytestmark = pytest.mark.slow

CODE = ("challenge=CZAA",)  # device.cfg's word, as sim --challenge and the web page pass it


def faces(device):
    return [face for face, _held, _animal in dice_state(device)]


def first_roll(number, turn=0):
    return [game_challenge.challenge_die(number, turn, 0, i) for i in range(5)]


def test_with_a_code_the_menu_says_so_and_every_seat_meets_its_dice(tmp_path):
    lines = screen_lines(play(tmp_path / "menu", "enter", seed=1, extra=CODE).oled_pixels())
    assert lines[1].split() == ["Challenge", "CZAA"]  # "Start game" says what it starts
    number = game_challenge.code_number("CZAA")
    # Two humans: each meets the round's dice (the roll-off, then P1 or P2 starts: each
    # rolls once, the first scores the box offered).
    keys = sim_golden.TWO_HUMANS + " wait:4500"
    for seed in (1, 2):  # the seed does not matter: the dice are the code's
        seen = []
        for turn in range(2):
            flash = tmp_path / ("two%d_%d" % (seed, turn))
            script = keys + " space wait:1500" + " enter enter space wait:1500" * turn
            seen.append(faces(play(flash, script, seed=seed, extra=CODE)))
        assert seen == [first_roll(number), first_roll(number)], seen


def test_sim_challenge_plays_the_codes_dice_and_refuses_a_bad_code(tmp_path, capsys):
    keys = sim_golden.SOLO + " space wait:1500"
    argv = ["--headless", "--flash-dir", str(tmp_path), "--seed", "8", "--challenge", "kqzx", "--keys", keys]
    assert sim.main(argv + ["--print-screen"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split()[1:] == [str(f) for f in first_roll(game_challenge.code_number("KQZX"))]
    assert sim.main(["--headless", "--challenge", "KQZ1"]) == 2
    assert "--challenge 'KQZ1': a challenge code is four letters A-Z" in capsys.readouterr().err


def test_a_challenges_dice_stay_out_of_the_fairness_count(tmp_path):
    # A solo challenge game played out, OK on its end screen: counted in the statistics,
    # its 65 dice not in the dice-fairness count (they are the code's, not the dice's).
    lines = screen_lines(play(tmp_path, sim_golden.SOLO_GAME + " enter wait:1500", seed=3, extra=CODE).oled_pixels())
    assert lines[0] == "New high score!", lines
    assert saved(tmp_path, "stats")["all"][0] == 1
    rolls = saved(tmp_path, "rolls")
    assert rolls is None or sum(rolls["faces"]) == 0, rolls
