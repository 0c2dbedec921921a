"""Taking a score back on the handheld, in the headless simulator (the real firmware under
MicroPython): UP on the screen after a human's score puts the turn back as it was scored
(dice, holds, roll count, the box list and its cursor); a computer waits for OK before it
rolls, so a score noticed on its screen can still go back; a power cut before or after
an undo loses nothing and doubles nothing; the Zoo card; an undone last score of a game
never reaches the records.

Every scene is a fresh boot on its own flash folder with the same seed, so the same keys
meet the same dice; a second run on the same folder is a power cut and a reboot.
"""

import pytest

import save_records
from host_tools.simulator import golden as sim_golden
from host_tools.simulator.screen import screen_lines, text_lines
from helpers.sim_helpers import play, saved

pytestmark = pytest.mark.slow

SEED = 5
SOLO = sim_golden.SOLO  # splash, players 2 -> 1, start
ZOO_SOLO = sim_golden.ZOO_SOLO
# P1 human, P2 a computer (the menu's defaults): start, the roll-off, P1's first roll.
VS_CPU = "enter enter wait:12000 space"


def lines(flash, keys, **options):
    return screen_lines(play(flash, keys, seed=SEED, **options).oled_pixels())


def open_boxes(flash, seat=0):
    return sum(1 for points in saved(flash)["game"]["players"][seat][2][:-1] if points == -1)


@pytest.mark.parametrize("start", [SOLO, ZOO_SOLO], ids=["standard", "zoo"])
def test_up_after_a_score_is_back_on_the_same_turn(tmp_path, start):
    rolled = lines(tmp_path / "rolled", start + " space 2 4 space")  # two rolls, dice 2 and 4 held
    scored = lines(tmp_path / "scored", start + " space 2 4 space enter enter")
    assert scored[0].startswith("P1 Roll 0/3"), scored
    assert scored[6] == "UP: take back"
    back = lines(tmp_path / "back", start + " space 2 4 space enter enter up")
    assert back == rolled  # the dice, the roll count, the box list, the cursor
    assert open_boxes(tmp_path / "back") == open_boxes(tmp_path / "rolled")
    assert saved(tmp_path / "back")["game"]["held"] == saved(tmp_path / "rolled")["game"]["held"] == 0b01010
    # Once: a second UP scrolls the list as always, and the next roll closes the window.
    again = lines(tmp_path / "again", start + " space 2 4 space enter enter up enter enter space up")
    assert again[0].startswith("P1 Roll 1/3"), again
    assert "take back" not in " ".join(again)
    assert open_boxes(tmp_path / "again") == open_boxes(tmp_path / "rolled") - 1


def test_a_computer_waits_for_ok_while_the_score_before_it_can_go_back(tmp_path):
    import rules
    from host_tools.benches import win_meter as bench
    from host_tools.solver import cache as solver_cache

    forced = rules.make_ruleset()
    # Both tables the win meter needs (its chances on row 7), as the device names them.
    tables = {
        "tables": {
            "strategy-forced.bin": solver_cache.table(forced),
            "spread-forced.bin": solver_cache.spread_table(forced, bench.DEVICE_BANDS),
        }
    }
    device = play(tmp_path / "wait", VS_CPU + " enter enter wait:8000", seed=SEED, **tables)
    waiting = screen_lines(device.oled_pixels())
    assert waiting[0].startswith("P2 Roll 0/3"), waiting  # 8 s on: it has not rolled
    assert waiting[5:7] == ["OK: go on", "UP: take back"]
    # The others' totals and chances stay on row 7 (in the compact font).
    row7 = text_lines(device.oled_pixels())[7]
    assert row7.count("%") == 1, row7
    back = lines(tmp_path / "back", VS_CPU + " enter enter wait:8000 up", **tables)
    assert back == lines(tmp_path / "rolled", VS_CPU, **tables)
    played = lines(tmp_path / "ok", VS_CPU + " enter enter wait:3000 enter wait:12000", **tables)
    assert "take back" not in " ".join(played)
    assert open_boxes(tmp_path / "ok", 1) == 12  # the computer played its turn
    assert open_boxes(tmp_path / "ok", 0) == 12


def test_a_power_cut_around_an_undo_loses_nothing_and_doubles_nothing(tmp_path):
    flash = tmp_path / "vs"
    lines(flash, VS_CPU + " enter enter wait:3000")  # P1 scored; the power goes
    assert open_boxes(flash) == 12
    resumed = lines(flash, "enter wait:3000")  # Continue
    assert resumed[6] == "UP: take back"  # the score can still go back after the reboot
    lines(flash, "enter wait:3000 up wait:1000")  # taken back; the power goes again
    assert open_boxes(flash) == 13
    game = saved(flash)["game"]
    assert (game["current"], game["rolls"], "last" in game) == (0, 1, False)
    again = lines(flash, "enter wait:3000")
    assert again[0].startswith("P1 Roll 1/3"), again
    assert "take back" not in " ".join(again)


def test_an_undone_last_score_never_reaches_the_records(tmp_path):
    end = lines(tmp_path, sim_golden.SOLO_GAME)
    assert end[0] == "Game over", end
    assert end[6] == "UP: take back", end
    total = int(end[1].split()[-1])
    assert saved(tmp_path, "stats") is None  # the game counts once its last score stands
    resumed = lines(tmp_path, "")  # power cut on the end screen: back there
    assert resumed == end
    turn = lines(tmp_path, "up")  # the last score taken back: the last box is open again
    assert turn[0].startswith("P1 Roll 1/3"), turn
    assert saved(tmp_path, "stats") is None
    assert open_boxes(tmp_path) == 1
    # Continue, the box scored again, OK on the end screen: counted, once.
    lines(tmp_path, "enter wait:2000 enter enter wait:1000 enter wait:2000")
    stats = saved(tmp_path, "stats")
    assert stats["all"][save_records.GAMES] == 1
    assert stats["names"]["P1"][save_records.POINTS] == total
