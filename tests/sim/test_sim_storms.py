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
# How to play, Yahtzee bonus, Joker, Card), OK (standard -> Zoo), back down to Start game.
ZOO_CARD = " up" * 9 + " enter" + " down" * 7
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
        # (Seed 2's storm, since the menu's How to play line, mashed the Card line to Zoo;
        # seed 5's, since a computer waits for OK, ends with a 3-player game in round 12.)
        (6, "standard", ("--oled", "sh1106", "--dice", "neopixel", "--no-table") + BATTERY),
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
# turns), through every long moment of a game. Each storm is at most 60 taps (2.4 s): the
# edge ring (128 edges) and the queue (64 events) hold a whole one even if no poll came,
# so a host hiccup that busy mode reads as a long stretch cannot lose a tap; the moments
# are found on the screen, not at fixed times, for the same reason.
HOLD1, HOLD2, HOLD3, ROLL, UP, DOWN, OK = 0, 1, 2, 5, 6, 7, 8
TAP_MS, EVERY_MS = 20, 40


class Live:
    """Button levels for ``run_until`` from presses added as the game goes on."""

    def __init__(self):
        self.presses = []
        self._levels = sim_keys.levels([])

    def taps(self, start, n, first, second):
        """``n`` taps from ``start``, ``first`` and ``second`` taking turns; returns the end."""
        for i in range(n):
            at = start + i * EVERY_MS
            self.presses.append((at, at + TAP_MS, first if i % 2 == 0 else second))
        self._levels = sim_keys.levels(self.presses)
        return start + n * EVERY_MS

    def press(self, at, button):
        self.presses.append((at, at + sim_keys.PRESS_MS, button))
        self._levels = sim_keys.levels(self.presses)
        return at + sim_keys.PRESS_MS + 100

    @property
    def edges(self):
        return self._levels.edges

    def __call__(self, ms):
        return self._levels(ms)


def _screen(device):
    from host_tools.simulator.screen import screen_lines

    return "\n".join(screen_lines(device.oled_pixels()))


def until(device, live, at, text=None, limit=60000):
    """Run to ``at`` ms, then on until ``text`` shows (a moment found on the screen)."""
    device.run_until(at, live)
    while text is not None and text not in _screen(device):
        assert device.now < limit, "%r never showed:\n%s" % (text, _screen(device))
        device.run_until(device.now + 20, live)
    return device.now


def busy_device(flash):
    from host_tools.simulator import busy
    from host_tools.simulator.unix_port import SimDevice

    return SimDevice(seed=3, flash_dir=str(flash), tables=sim.device_tables(), busy=busy.ratio(), extra=("presslog=1",))


def all_taken(device, live):
    device.close()
    got = presses_taken(device)
    assert got == released_in_order(live.presses, device.flash_windows, got), "\n".join(device.console[-20:])


def test_taps_at_25_a_second_through_every_long_moment_all_reach_the_game(tmp_path):
    """The boot's imports and the splash; Start game and its roll-off while the tables
    open; the first turn's start; ROLL; a hold change and the saves of 24 more; the score,
    the OK that starts the computer's turn, its steps and summary; then, at the next boot,
    Continue while the table opens (the longest wait in which the game takes no press: 1.5
    estimated s, 38 taps, more than the 16 the button queue held). Every tap is taken
    once, in order. About 10-40 s."""
    live = Live()
    device = busy_device(tmp_path)
    try:
        end = live.taps(200, 50, HOLD1, HOLD2)  # boot, splash, menu: the holds do nothing there
        t = until(device, live, end + 300, "Start game")
        end = live.taps(live.press(t, OK) + 60, 60, HOLD1, HOLD2)  # the roll-off, its tables opening
        t = until(device, live, end + 300, "Roll 0/3")  # the human's first turn
        end = live.taps(t + 20, 40, HOLD1, HOLD2)  # its start (the advisor prepared): no roll yet
        t = until(device, live, end + 300)
        end = live.taps(live.press(t, ROLL), 24, DOWN, UP)  # the dice tumble; the cursor comes back
        t = until(device, live, end + 300)
        end = live.taps(live.press(t, HOLD1), 24, HOLD2, HOLD3)  # a hold's save and 24 more
        t = until(device, live, end + 300)
        t = live.press(live.press(t, OK), OK)  # scored
        t = live.press(t, OK)  # the score stands (no taking it back): the computer's turn starts
        end = live.taps(t, 60, HOLD1, HOLD2)  # its steps, its summary
        until(device, live, end + 4000)
    finally:
        all_taken(device, live)
    assert saved(tmp_path)["game"]["round"] >= 1  # the computer played its turn under the taps
    assert device.interrupts_off, "no flash erase in the game"

    live = Live()
    device = busy_device(tmp_path)
    try:
        t = until(device, live, 0, "Continue")
        end = live.taps(live.press(t + 100, OK), 60, DOWN, UP)  # the turn, its table opening a part a frame
        until(device, live, end + 3000)
    finally:
        all_taken(device, live)
