"""Damage to the flash folder that used to stop saving for good,
in the headless simulator: the real firmware under MicroPython on the host filesystem,
which (unlike the in-memory FakeFs of tests/shared) has symlinks and real errno values.

Each case boots on a damaged folder: the firmware shows its named message, moves the
obstacle aside as ``*.bad`` (its contents kept), and the game after it saves and resumes.
"""

import os

import pytest

from host_tools.simulator import golden as sim_golden
from host_tools.simulator.screen import screen_lines
from helpers.sim_helpers import forget_setup, play, saved

pytestmark = pytest.mark.slow

REPAIRED = ["Flash repaired", "%s", "was in the way:", "kept as .bad.", "Saving works."]
START = sim_golden.SOLO  # splash, one player, start game
ROLL = " space wait:500"


def run(flash, keys):
    return screen_lines(play(flash, keys, seed=4).oled_pixels())


def repaired(path):
    return [line.replace("%s", path) for line in REPAIRED]


def _turn_saved(flash):
    game = saved(flash)
    assert game is not None
    assert game["game"]["rolls"] == 1
    return game


def test_data_being_a_file_is_moved_aside_at_boot(tmp_path):
    (tmp_path / "data").write_bytes(b"someone's file")
    assert run(tmp_path, "")[:5] == repaired("data")
    assert (tmp_path / "data.bad").read_bytes() == b"someone's file"
    run(tmp_path, START + ROLL)  # the message is gone: a game starts and saves
    _turn_saved(tmp_path)


def test_data_being_a_dangling_link_is_moved_aside_at_the_first_save(tmp_path):
    os.symlink(str(tmp_path / "nowhere"), str(tmp_path / "data"))
    assert run(tmp_path, "")[0] == "    YAHTZEE"  # nothing to load: the usual splash
    # the first save repairs it: the menu's set-up, at its first change (Players 2 -> 3)
    assert run(tmp_path, "enter down enter")[:5] == repaired("data")
    assert os.path.islink(str(tmp_path / "data.bad"))
    assert (tmp_path / "data").is_dir()
    forget_setup(tmp_path)  # the menu's defaults again, for START
    run(tmp_path, START)  # a game starts and saves
    run(tmp_path, "enter wait:300 enter" + ROLL)  # Continue the saved game, roll
    _turn_saved(tmp_path)


def test_a_folder_at_the_temp_file_is_moved_aside_at_boot(tmp_path):
    (tmp_path / "data" / "game.tmp").mkdir(parents=True)
    (tmp_path / "data" / "game.tmp" / "inside").write_bytes(b"kept")
    assert run(tmp_path, "")[:5] == repaired("data/game.tmp")
    assert (tmp_path / "data" / "game.tmp.bad" / "inside").read_bytes() == b"kept"
    run(tmp_path, START + ROLL)
    _turn_saved(tmp_path)


@pytest.mark.parametrize("name", ["scores", "game"])
def test_a_folder_where_a_damaged_file_goes_aside_is_moved_first(tmp_path, name):
    data = tmp_path / "data"
    (data / (name + ".a.bad")).mkdir(parents=True)
    (data / (name + ".a")).write_bytes(b"YZ\x01\x00garbage")
    lines = run(tmp_path, "")
    if name == "scores":
        assert lines[:5] == ["Records damaged", "scores:", "truncated,", "kept as .bad,", "started afresh."]
    else:
        assert lines[:5] == ["Save damaged", "Saved game:", "truncated.", "Kept as .bad.", "New game."]
    assert (data / (name + ".a.bad")).read_bytes() == b"YZ\x01\x00garbage"  # "kept as .bad" is true
    assert (data / (name + ".a.bad.bad")).is_dir()
    assert run(tmp_path, "")[0] == "    YAHTZEE"  # said once: the next boot is quiet
    run(tmp_path, START + ROLL)
    _turn_saved(tmp_path)
