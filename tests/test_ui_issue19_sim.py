"""Issue 19's screen fixes (items 4-9), played in the headless simulator (the real
firmware under MicroPython) or drawn by the real app on a loopback link: the box list
keeps the points hidden while the dice tumble, the win meter shows from the first turn
and after Continue, a computer's summary names its bonuses, the hint with opponents
lets the player take either move and the review never charges the one it offered, and
the small screens' fixes (word wrap, the set-up kept between power-ons, ...).
"""
import pytest

import rules
from host_tools import sim
from host_tools.benches import win_meter as bench
from host_tools.simulator import golden as sim_golden
from host_tools.simulator.screen import dice_line, screen_lines, text_lines
from host_tools.simulator.unix_port import SimDevice
from host_tools.solver import cache as solver_cache
from sim_helpers import play, saved

FORCED = rules.make_ruleset()
HEAP = "256K"  # the advisor compiles from source at game start in the simulator


@pytest.fixture(scope="module")
def meter_tables():
    """Both tables the win meter needs, under the names the device looks for."""
    return {"strategy-forced.bin": solver_cache.table(FORCED),
            "spread-forced.bin": solver_cache.spread_table(FORCED, bench.DEVICE_BANDS)}


def at(flash, keys, seed=5, **options):
    """The device right after ``keys`` (no settling time after the last key)."""
    device = SimDevice(flash_dir=str(flash), seed=seed, **options)
    try:
        sim.run_headless(device, keys, settle_ms=0)
    finally:
        device.close()
    return device


# -- item 7: the box list waits for the dice ------------------------------------------
def test_the_box_list_shows_the_points_only_when_the_dice_settle(tmp_path):
    rolled = sim_golden.SOLO + " space"
    tumbling = at(tmp_path / "tumbling", rolled)
    shown = screen_lines(tumbling.oled_pixels())
    assert shown[0].startswith("P1 Roll 1/3")  # the roll is made (the header counts it)
    assert saved(tmp_path / "tumbling")["game"]["rolls"] == 1
    assert not any("+" in line for line in shown[1:7]), shown  # no points yet
    from host_tools.simulator.screen import inverted_rows

    assert inverted_rows(tumbling.oled_pixels())[1:7] == [False] * 6  # nor the best box
    settled = screen_lines(at(tmp_path / "settled", rolled + " wait:400").oled_pixels())
    assert sum("+" in line for line in settled[1:7]) >= 1
    # OK at once (a quick player) stops the tumble: the LEDs show the faces the
    # confirmation scores, at the same moment.
    quick = at(tmp_path / "quick", rolled + " enter")
    assert screen_lines(quick.oled_pixels())[0] in ("Score this?", "Score a zero?")
    dice = saved(tmp_path / "quick")["game"]["dice"]
    assert dice_line(quick).split() == [str(face) for face in dice]


# -- item 5: the win meter from the first turn and after Continue ---------------------
def test_the_win_meter_shows_in_round_one_and_right_after_continue(tmp_path, meter_tables):
    first = text_lines(play(tmp_path, sim_golden.TWO_HUMANS + " wait:4500", seed=4, heap=HEAP,
                            tables=meter_tables).oled_pixels())
    assert first[0].startswith("P") and "Roll 0/3" in first[0]
    assert first[7].count("%") == 1, first  # the opponent's chance before anyone scored
    play(tmp_path, sim_golden.HUMAN_TURN * 3, seed=4, heap=HEAP, tables=meter_tables)
    resumed = text_lines(play(tmp_path, "enter", seed=4, heap=HEAP, tables=meter_tables).oled_pixels())
    assert "Roll 0/3" in resumed[0] and resumed[7].count("%") == 1, resumed  # Continue


# -- item 6: a computer's summary names its bonuses -----------------------------------
def _screens(code, cwd=None, heap="192K"):
    """Run ``code`` (APP_ON_LOOPBACK and more) inside MicroPython; the ``dump()`` frames as
    text, and the other output lines."""
    import host_tools

    proc = host_tools.run_micropython(["-c", code], cwd=cwd, heap=heap)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr
    frames, out = [], []
    for line in proc.stdout.splitlines():
        if line.startswith("FB "):
            buf = bytes.fromhex(line[3:])
            frames.append(text_lines([[(buf[(y >> 3) * 128 + x] >> (y & 7)) & 1 for x in range(128)]
                                      for y in range(64)]))
        else:
            out.append(line)
    return frames, out


# P2 (``kind``) to score five 6s with the Yahtzee box full (the forced joker: Sixes) and
# 45 in Aces..Fives: Sixes 30, the Yahtzee bonus 100 and the upper bonus 35.
FIVE_SIXES = r"""
import app as app_module
a.settings.players = 2
a.settings.rebuild()
p2 = [3, 6, 9, 12, 15, -1, -1, -1, -1, -1, -1, 50, -1, 0]
state = {"v": 1, "rules": rules.make_ruleset().name, "phase": game.TURN, "round": 6, "current": 1,
         "first": 0, "contenders": [0, 1], "dice": [6] * 5, "held": 0, "rolls": 1,
         "players": [["P1", "human", [0] * 7 + [-1] * 6 + [0]], ["P2", "KIND", p2]]}
a.resume(game.Game.from_state(state, hw.dice_source))
"""


def test_a_computers_summary_shows_the_yahtzee_and_upper_bonus_it_earned():
    from sim_helpers import APP_ON_LOOPBACK

    code = APP_ON_LOOPBACK + FIVE_SIXES.replace("KIND", "cpu") + r"""
a.score(5)
print("SCREEN", a.screen == app_module.SUMMARY, a.game.total(1))
dump()
"""
    (lines,), out = _screens(code)
    total = 45 + 30 + 50 + 100 + 35
    assert "SCREEN True %d" % total in out
    assert lines[0] == "P2 scored" and lines[2].split() == ["6"] * 5
    assert [line.split() for line in lines[3:7]] == [["Sixes", "30"], ["Y.bonus", "100"], ["Up.bonus", "35"],
                                                     ["Total", str(total)]]
    assert lines[7] == "OK: go on"


def test_the_confirmation_shows_the_upper_bonus_a_box_would_earn():
    from sim_helpers import APP_ON_LOOPBACK

    code = APP_ON_LOOPBACK + FIVE_SIXES.replace("KIND", "human") + r"""
a.ask_score(5)
dump()
"""
    (lines,), _out = _screens(code)
    assert lines[0] == "Score this?"
    assert [line.split() for line in lines[2:6]] == [["Sixes", "30"], ["Y.bonus", "100"], ["Up.bonus", "35"],
                                                     ["Total", "then", str(45 + 30 + 50 + 100 + 35)]]
