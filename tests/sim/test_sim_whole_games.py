"""Whole games in the default ``sim`` (``make sim``), played to Game over and through the
high-score entry: games of 2, 3 and 4 players that between them seat every CPU level in
each size of game, and one with a human seat who enters initials.

Each runs ``python -m host_tools sim --headless --keys ...`` as a player would (in this
process: ``sim.main``), so the simulator's own defaults are what is tested: the tree
``flash`` builds (.mpy) with the Pico's heap. The seeds are ones where the simulator of
before (the .py sources compiled at import, 256 KB) died with MemoryError when the
records loaded after the last score. Computer-only seats need no key presses in the
game; a DOWN after it wakes a dimmed screen (the end screen ignores it), then OK enters
the computers' high scores and shows the table, and OK there goes to the menu. About 75 s
in all on this 2-core machine (7-14 s a game).
"""

import pytest

from host_tools import sim
from helpers.sim_helpers import play_out, press, saved

pytestmark = pytest.mark.slow

KINDS = ("human", "optimal", "win", "good", "casual")  # seats.KINDS, in the menu's OK order
MENU_DEFAULT = (0, 4, 4, 4)  # P1 human, the others CPU casual
GAME_MS = 80000  # a computer-only game: about 70 s of virtual time per seat


def setup_keys(kinds):
    """From power-on: the number of players, each seat's kind, Start game."""
    keys = ["enter", "down"] + ["enter"] * (len(kinds) - 2)  # Players 2 -> n
    for seat, kind in enumerate(kinds):
        keys.append("down")
        keys += ["enter"] * ((KINDS.index(kind) - MENU_DEFAULT[seat]) % len(KINDS))
    keys += ["up"] * (len(kinds) + 1) + ["enter"]
    return " ".join(keys)


def run_sim(tmp_path, capsys, seed, keys):
    status = sim.main(
        ["--headless", "--flash-dir", str(tmp_path), "--seed", str(seed), "--keys", keys, "--print-screen"]
    )
    out, err = capsys.readouterr()
    return status, out, err


def assert_recorded(tmp_path, names):
    """The game was counted and every seat entered the high scores (an empty table)."""
    stats = saved(tmp_path, "stats")
    assert stats is not None, stats
    assert stats["all"][0] == len(names), stats
    scores = saved(tmp_path, "scores")
    assert sorted(entry[1] for entry in scores) == sorted(names), scores
    assert {entry[2] for entry in scores} == {stats["last"]}  # this game's id
    assert saved(tmp_path) is None  # step 4: the finished game's save is gone


@pytest.mark.parametrize(
    "kinds,seed",
    [
        (("optimal", "win"), 4),
        (("good", "casual"), 2),
        (("optimal", "win", "good"), 1),
        (("casual", "good", "win"), 2),
        (("optimal", "win", "good", "casual"), 1),
    ],
)
def test_a_computer_game_reaches_game_over_and_the_high_scores(tmp_path, capsys, kinds, seed):
    keys = "%s wait:%d down wait:500 enter wait:3000 enter wait:1000" % (setup_keys(kinds), GAME_MS * len(kinds))
    status, out, err = run_sim(tmp_path, capsys, seed, keys)
    assert status == 0, err
    assert "Start game" in out, out  # OK on the end screen went on to the menu
    assert_recorded(tmp_path, ["CPU"] * len(kinds))


SEED_WITH_HUMAN = 7


def test_a_game_with_a_human_reaches_the_initials(tmp_path):
    # P1 human, P2 CPU casual (the menu's default); after Game over OK, then the initials
    # (three OKs: AAA) of the human's high score; the computer's goes in by itself; then
    # the high-score table, whose OK is the menu.
    from host_tools.simulator import device_tree
    from host_tools.simulator.screen import screen_lines
    from host_tools.simulator.unix_port import SimDevice

    device = SimDevice(
        seed=SEED_WITH_HUMAN,
        flash_dir=str(tmp_path),
        heap=sim.DEVICE_HEAP,
        tables=sim.device_tables(),
        code_dir=device_tree.sync(),
    )
    try:
        press(device, "enter enter wait:3000")
        play_out(device)
        press(device, "enter wait:1000 enter enter enter wait:2000")
        table = screen_lines(device.oled_pixels())
        assert table[0] == "High scores", table
        assert sorted(line.split()[1] for line in table[1:3]) == ["AAA", "CPU"], table
        press(device, "enter wait:1000")
        assert "Start game" in screen_lines(device.oled_pixels())
    finally:
        device.close()
    assert_recorded(tmp_path, ["AAA", "CPU"])


def test_long_menu_on_the_last_summary_keeps_the_high_scores(tmp_path):
    # The last computer's "P2 scored" screen comes after the game's end was recorded:
    # quitting there (long MENU, OK) dropped the high scores still to be entered. Now
    # long MENU does nothing there; OK goes on to Game over, OK again enters them.
    from host_tools.simulator import device_tree, keys as sim_keys
    from host_tools.simulator.screen import screen_lines
    from host_tools.simulator.unix_port import SimDevice

    device = SimDevice(
        seed=3, flash_dir=str(tmp_path), heap=sim.DEVICE_HEAP, tables=sim.device_tables(), code_dir=device_tree.sync()
    )
    try:
        presses, end = sim_keys.parse(setup_keys(("casual", "casual")))
        device.run_until(end, sim_keys.levels(presses))
        while saved(tmp_path, "stats") is None:  # the last score: the game's end is recorded
            device.run_until(device.now + 100)
        assert screen_lines(device.oled_pixels())[0] == "P2 scored"
        presses, end = sim_keys.parse("hold:m:800 wait:200 enter wait:1000 enter wait:1000", device.now)
        device.run_until(end, sim_keys.levels(presses))
    finally:
        device.close()
    assert_recorded(tmp_path, ["CPU", "CPU"])
