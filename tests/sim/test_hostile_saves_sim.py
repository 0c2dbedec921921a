"""Saves with an intact frame that the firmware cannot write back, booted
in the headless simulator (the real firmware under MicroPython, its default heap): each
used to crash at every boot; now each is damage, named on screen, kept as ``*.bad``, and
the game after it plays and saves.
"""

import pytest

import game as G
import rules as R
import save_store
from game_dice import DiceSource
from host_tools.simulator import golden as sim_golden
from host_tools.simulator.screen import screen_lines
from helpers.sim_helpers import play, saved

pytestmark = pytest.mark.slow

NEAR_2_63 = (1 << 63) - 4


def _game(players=1, finished=False):
    dice = DiceSource(seed=3)
    game = G.Game(R.make_ruleset(), [("P%d" % (i + 1), "human") for i in range(players)], dice)
    while game.phase == G.ROLLOFF:
        game.rolloff()
    while True:
        game.roll()
        if not finished:
            break
        options = game.options()
        # A score that stands (not to be taken back): a finished game's end is counted at boot.
        game.score(max(b for b in range(len(options)) if options[b] >= 0), False)
        if game.phase == G.OVER:
            break
    return {"id": 5, "seed": dice.position(), "counts": [1, 1, 1, 1, 1, 0], "game": game.to_state(), "coach": 1}


def _write(flash, name, value):
    save_store.Store(str(flash / "data" / name)).save(value)


def _boot(flash, keys=""):
    return screen_lines(play(flash, keys, seed=4).oled_pixels())


def _plays_on(flash):
    """The next boot is quiet (the damage is aside): a solo game starts, its roll is saved."""
    assert _boot(flash, sim_golden.SOLO + " space wait:500")[0].startswith("P1 Roll 1/3")
    assert saved(flash)["game"]["rolls"] == 1


@pytest.mark.parametrize("case", ["count near 2^63", "five players"])
def test_a_game_save_the_firmware_cannot_make_is_damage_not_a_crash(tmp_path, case):
    value = _game()
    if case == "count near 2^63":
        value["counts"] = [NEAR_2_63, 0, 0, 0, 0, 0]
    else:
        value = _game(players=5)
    _write(tmp_path, "game", value)
    assert _boot(tmp_path)[:5] == ["Save damaged", "Saved game:", "bad contents.", "Kept as .bad.", "New game."]
    assert (tmp_path / "data" / "game.a.bad").exists()
    _plays_on(tmp_path)


def test_a_rolls_count_near_2_63_with_a_finished_game_waiting_boots_and_counts_the_game(tmp_path):
    _write(tmp_path, "rolls", {"last": 1, "faces": [NEAR_2_63, 0, 0, 0, 0, 0]})
    finished = _game(finished=True)
    _write(tmp_path, "game", finished)
    lines = _boot(tmp_path)
    assert lines[:5] == ["Records damaged", "rolls:", "bad contents,", "kept as .bad,", "started afresh."]
    assert (tmp_path / "data" / "rolls.a.bad").exists()
    assert saved(tmp_path, "rolls") == {"last": 5, "faces": finished["counts"]}  # the game counted
    assert saved(tmp_path, "stats")["all"][0] == 1
    assert _boot(tmp_path)[0] == "Game over"  # the next boot: no message, the end screen again


def test_a_stats_file_of_sixteen_long_names_boots_at_the_default_heap(tmp_path):
    names = {}
    for i in range(16):
        names["N%02d" % i + "x" * 1000] = [1, 250, 250, 1, 1]
    value = {"last": 1, "games": 16, "all": [16, 4000, 250, 16, 16], "names": names}
    _write(tmp_path, "stats", value)
    assert 16000 < (tmp_path / "data" / "stats.a").stat().st_size <= 16384  # the crafted file's 16,376
    assert _boot(tmp_path)[:5] == ["Records damaged", "stats:", "bad contents,", "kept as .bad,", "started afresh."]
    _plays_on(tmp_path)
