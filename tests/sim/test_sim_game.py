"""A complete two-player game (P1 human by key presses, P2 the computer) in the headless
simulator under MicroPython, checked against the game engine replayed in CPython.

The replay draws the same dice: the seeded dice stream is taken from MicroPython's own
``random`` (the firmware's dice_source with the same seed), and the moves follow the UI's
documented defaults: after one roll OK scores the box under the cursor, which starts on
the legal box with the most points (a zero asks for a second OK); the computer plays
seats.py's simple strategy (OK lets it roll after the human's score, which could be taken
back until then, and OK goes on from what it scored). The final totals shown on the OLED
must equal the engine's; OK on the end screen then counts the game in the records.
"""

import re

import pytest

import seats
import game
import host_tools
import rules
from host_tools.simulator.unix_port import mix_seed  # the seed the simulated device gets
from helpers.sim_helpers import play_out, press, saved
from host_tools.simulator.unix_port import SimDevice
from support import ScriptedDice

pytestmark = pytest.mark.slow

SEEDS = (11, 2024)
KEYS = "enter enter"  # Start game; the roll-off, then the game (play_out)
# The kids' card picked in the menu as a parent would: from "Start game" up to the Card
# line (Records, Language, Brightness, Sound, Coach, How to play, Yahtzee bonus, Joker,
# Card), OK (standard -> Zoo (kids)), down to "Start game" (the joker and Yahtzee bonus
# lines are gone on the Zoo card), OK; then 11 rounds.
ZOO_KEYS = "enter" + " up" * 9 + " enter" + " down" * 7 + " enter"
GAMES = [("forced", seed, KEYS) for seed in SEEDS] + [("zoo", 5, ZOO_KEYS)]


def micropython_dice(seed, n=3000):
    code = "import game_dice\nd = game_dice.DiceSource(%d)\nfor _ in range(%d):\n print(d.randint(1, 6), end='')" % (
        mix_seed(seed),
        n,
    )
    proc = host_tools.run_micropython(["-c", code])
    assert proc.returncode == 0, proc.stderr
    return [int(c) for c in proc.stdout.strip()]


def replay(seed, choice="forced"):
    source = ScriptedDice(micropython_dice(seed))
    ruleset = rules.make_ruleset(choice)
    g = game.Game(ruleset, [("P1", "human"), ("P2", "cpu")], source)
    while g.phase == game.ROLLOFF:
        g.rolloff()
    options = [0] * 13
    while g.phase != game.OVER:
        card = g.players[g.current].card
        g.roll()
        if g.current == 0:
            g.options(options)
            best = max(range(ruleset.n_boxes), key=lambda b: (options[b], -b))
            g.score(best)
            continue
        while True:
            mask = seats.simple_hold(ruleset, card, g.dice, g.rolls)
            if mask < 0:
                g.score(seats.simple_box(ruleset, card, g.dice, g.options(options)))
                break
            g.set_held(mask)
            g.roll()
    return g


def end_screen_totals(lines):
    totals = {}
    for line in lines[1:5]:
        found = re.match(r"\s*(\d)\. (P\d) +\w+ +(\d+)$", line)
        if found:
            totals[found.group(2)] = (int(found.group(1)), int(found.group(3)))
    return totals


def played(flash, keys, **options):
    """The menu's ``keys``, then the game as play_out plays it: the end screen's lines;
    then its OK (the records), and the initials and the high scores' OKs."""
    device = SimDevice(flash_dir=str(flash), **options)
    try:
        press(device, keys + " wait:2000")
        lines = play_out(device)
        press(device, "enter wait:2000")
    finally:
        device.close()
    return lines


@pytest.mark.parametrize("choice,seed,keys", GAMES)
def test_full_game_matches_the_engine(choice, seed, keys, tmp_path):
    lines = played(tmp_path, keys, seed=seed)
    assert lines[0] == "Game over", "\n".join(lines)
    shown = end_screen_totals(lines)
    expected = replay(seed, choice)
    assert expected.rounds == (11 if choice == "zoo" else 13)
    ranking = {"P%d" % (player + 1): (place, total) for place, player, total in expected.ranking()}
    assert shown == ranking, (lines, ranking)
    assert all(total > 0 for _place, total in shown.values())
    winners = [name for name, (place, _total) in ranking.items() if place == 1]
    winner_line = " ".join(lines[4:7])
    for name in winners:
        assert name in winner_line
    # Statistics are kept per card: the kids' game went to the Zoo files only.
    stats = saved(tmp_path, "zoo_stats" if choice == "zoo" else "stats")
    assert stats["all"][0] == 2
    assert stats["all"][2] == max(total for _place, total in shown.values())
    assert saved(tmp_path, "stats" if choice == "zoo" else "zoo_stats") is None


def test_zoo_game_with_its_table_and_an_advisor_level_cpu(tmp_path):
    # The Zoo table on the flash: P2 (CPU casual, the menu's default) plays from the
    # advisor (the hint screen itself: golden zoo_hint).
    from host_tools.solver import cache as solver_cache

    tables = {"strategy-zoo.bin": solver_cache.table(rules.make_ruleset("zoo"), "exact")}
    lines = played(tmp_path, ZOO_KEYS, seed=5, tables=tables)
    assert lines[0] == "Game over", "\n".join(lines)
    shown = end_screen_totals(lines)
    assert sorted(shown) == ["P1", "P2"]
    assert all(0 < total <= 130 for _place, total in shown.values())
    stats = saved(tmp_path, "zoo_stats")
    assert stats["all"][0] == 2
    assert stats["names"]["CPU casual"][0] == 1  # levels apart
