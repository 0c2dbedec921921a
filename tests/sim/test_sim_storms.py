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
from helpers.sim_helpers import presses_taken, released_in_order, saved

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
# From "Start game" up to the Card line (Records, Language, Brightness, Sound, Coach,
# Yahtzee bonus, Joker, Card), OK (standard -> Zoo), back down to Start game.
ZOO_CARD = " up" * 8 + " enter" + " down" * 6
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


# Busy mode (the firmware's work costs the chip's estimated time, presses arrive meanwhile):
# taps at 25 a second, the fastest storm two hands make (20 ms each, two buttons taking
# turns), through every long moment of a game.
HOLD1, HOLD2, HOLD3, ROLL, UP, DOWN, OK = 0, 1, 2, 5, 6, 7, 8
TAP_MS, EVERY_MS = 20, 40


def taps(presses, start, n, first, second):
    """``n`` taps from ``start``, ``first`` and ``second`` taking turns; returns the end."""
    for i in range(n):
        at = start + i * EVERY_MS
        presses.append((at, at + TAP_MS, first if i % 2 == 0 else second))
    return start + n * EVERY_MS


def press(presses, at, button):
    presses.append((at, at + sim_keys.PRESS_MS, button))


def busy_run(flash, presses, until, device=None):
    from host_tools.simulator import busy
    from host_tools.simulator.unix_port import SimDevice

    if device is None:
        device = SimDevice(
            seed=3, flash_dir=str(flash), tables=sim.device_tables(), busy=busy.ratio(), extra=("presslog=1",)
        )
    try:
        device.run_until(until, sim_keys.levels(presses))
    finally:
        device.close()
    got = presses_taken(device)
    assert got == released_in_order(presses, device.flash_windows, got), "\n".join(device.console[-20:])
    return device


def test_taps_at_25_a_second_through_every_long_moment_all_reach_the_game(tmp_path):
    """The boot's imports and the splash; Start game, its roll-off while the tables open
    and the first turn's start; ROLL; a hold change and the saves of 24 more; the score
    that starts the computer's turn, its steps, its summary and the next turn's start;
    then, at the next boot, Continue while the table opens (the longest wait in which the
    game takes no press: 1.5 estimated s, 38 taps, once more than the button queue held).
    Every tap is taken once, in order. About 20-40 s."""
    p = []
    taps(p, 200, 50, HOLD1, HOLD2)  # boot, splash, menu: the holds do nothing there
    press(p, 2600, OK)  # Start game (a human against a computer)
    taps(p, 2760, 100, HOLD1, HOLD2)  # the roll-off, its tables opening, the first turn's start
    press(p, 7000, ROLL)
    taps(p, 7100, 24, DOWN, UP)  # the dice tumble; the cursor goes and comes back
    press(p, 8400, HOLD1)  # a hold's save ...
    taps(p, 8500, 24, HOLD2, HOLD3)  # ... and 24 more, each a save
    press(p, 9800, OK)
    press(p, 10000, OK)  # scored: the computer's turn starts
    taps(p, 10200, 100, HOLD1, HOLD2)  # its steps, its summary, the next turn's start
    first = busy_run(tmp_path, p, 15000)
    assert saved(tmp_path)["game"]["round"] >= 1  # the computer played its turn under the taps
    assert first.interrupts_off, "no flash erase in the game"

    from host_tools.simulator import busy
    from host_tools.simulator.screen import screen_lines
    from host_tools.simulator.unix_port import SimDevice

    device = SimDevice(
        seed=3, flash_dir=str(tmp_path), tables=sim.device_tables(), busy=busy.ratio(), extra=("presslog=1",)
    )
    while device.now < 20000 and "Continue" not in "\n".join(screen_lines(device.oled_pixels())):
        device.run_until(device.now + 20)
    p = []
    press(p, device.now + 100, OK)  # Continue: the turn, its table opening a part a frame
    end = taps(p, device.now + 200, 62, DOWN, UP)
    busy_run(tmp_path, p, end + 3000, device)
