"""Seeded random key storms in the default simulator (``sim --headless``: the tree flash
builds, the Pico's heap): thousands of keys, every board option and both cards.

The records code loads at the end of a game, at the high-score entry, when a game is quit
and for the records pages; in the simulator of before (sources compiled at import) that
load died with MemoryError. A storm must never stop the firmware (a crash ends the run:
exit 1), and it must really have gone through those moments: finished games counted and
their high scores entered on the storm's card. Four storms cover each option (OLED, dice,
battery, table) with each card; each starts by quitting a game at its first roll, which
alone crashed the simulator of before when the strategy table was there. About 20-35 s
each on this 2-core machine (2,000 words: about 1,850 presses and pauses, 11-12 minutes
of virtual time).
"""

import random

import pytest

from host_tools import sim
from host_tools.simulator import keys as sim_keys
from helpers.sim_helpers import saved

pytestmark = pytest.mark.slow

# A storm is chunks of 50 keys, each in one mood: mostly play (OK and ROLL: a human's turn
# is a roll and OKs; pauses for the computers' turns), else mashing (the menu's arrows,
# holds, MENU for hints and cards, long MENU: quit, confirmed by the next OK; long OK).
PLAY = (
    ("enter", 20),
    ("space", 10),
    ("up", 2),
    ("down", 2),
    ("1", 1),
    ("2", 1),
    ("3", 1),
    ("4", 1),
    ("5", 1),
    ("m", 1),
    ("wait:1500", 3),
    ("wait:6000", 1),
)
MASH = (
    ("enter", 30),
    ("space", 14),
    ("up", 8),
    ("down", 8),
    ("1", 2),
    ("2", 2),
    ("3", 2),
    ("4", 2),
    ("5", 2),
    ("m", 4),
    ("hold:m:800", 3),
    ("hold:enter:700", 1),
    ("wait:1500", 2),
)
N_KEYS = 2000
# From "Start game" up to the card's line, OK four times (forced -> ... -> Zoo), back down.
ZOO_CARD = " up" * 6 + " enter" * 4 + " down" * 5
# Then a game is started and quit at once (long MENU, OK): the storm starts in the menu.
QUIT = " enter wait:3000 space wait:1500 hold:m:800 wait:300 enter wait:500"
BATTERY = ("--battery", "3800:3300:600000")  # falls below 3.4 V mid-storm: "Battery low"


def storm(seed, n=N_KEYS, chunk=50):
    rng = random.Random(seed)
    words = []
    while len(words) < n:
        mood = PLAY if rng.random() < 0.8 else MASH
        names, weights = zip(*mood)
        words += rng.choices(names, weights, k=chunk)
    return " ".join(words[:n])


def storm_keys(seed, card):
    return "enter" + (ZOO_CARD if card == "zoo" else "") + QUIT + " " + storm(seed)


@pytest.mark.parametrize(
    "seed,card,options",
    [
        (8, "standard", ()),
        (2, "standard", ("--oled", "sh1106", "--dice", "neopixel", "--no-table") + BATTERY),
        (3, "zoo", ("--oled", "sh1106") + BATTERY),
        (4, "zoo", ("--dice", "neopixel", "--no-table")),
    ],
)
def test_a_key_storm_never_stops_the_firmware(tmp_path, capsys, seed, card, options):
    keys = storm_keys(seed, card)
    status = sim.main(["--headless", "--flash-dir", str(tmp_path), "--seed", str(seed), "--keys", keys] + list(options))
    err = capsys.readouterr().err
    assert status == 0, err
    prefix = "zoo_" if card == "zoo" else ""
    stats = saved(tmp_path, prefix + "stats")  # the storm's own card: games ended
    assert stats is not None, stats
    assert stats["games"] >= 1, stats
    assert saved(tmp_path, prefix + "scores"), "no high score entered"


def test_levels_of_a_long_script_are_the_presses():
    # levels() is worked out once per edge (a storm has thousands): the same masks as
    # asking every press.
    presses, end = sim_keys.parse(storm(9, 400) + " hold:1:900")
    presses.append((presses[3][0], presses[3][0] + 2000, 7))  # an overlapping press too
    at = sim_keys.levels(presses)
    for ms in range(0, end + 50, 7):
        assert at(ms) == sum({1 << b for start, stop, b in presses if start <= ms < stop}), ms
