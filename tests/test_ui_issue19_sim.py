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


# -- item 5: the win meter from the first turn and after Continue ---------------------
def test_the_win_meter_shows_in_round_one_and_right_after_continue(tmp_path, meter_tables):
    first = text_lines(play(tmp_path, sim_golden.TWO_HUMANS + " wait:4500", seed=4, heap=HEAP,
                            tables=meter_tables).oled_pixels())
    assert first[0].startswith("P") and "Roll 0/3" in first[0]
    assert first[7].count("%") == 1, first  # the opponent's chance before anyone scored
    play(tmp_path, sim_golden.HUMAN_TURN * 3, seed=4, heap=HEAP, tables=meter_tables)
    resumed = text_lines(play(tmp_path, "enter", seed=4, heap=HEAP, tables=meter_tables).oled_pixels())
    assert "Roll 0/3" in resumed[0] and resumed[7].count("%") == 1, resumed  # Continue
