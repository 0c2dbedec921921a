"""Save and resume in the headless simulator: the real firmware under MicroPython, its
``--flash-dir`` kept between runs like the Pico's flash across a power cut.

A game played partway in one run resumes in a second run at exactly the same state and
rolls the same next dice as one uninterrupted run; a damaged save gives a message, is kept
as ``*.bad`` and leaves the records alone; a full filesystem (ENOSPC from the OS itself:
the store's temp file is a symlink to /dev/full) gives a message and play goes on.
"""

import os

import pytest

import save_store
from host_tools.simulator import golden as sim_golden
from host_tools.simulator.screen import device_text, screen_lines
from helpers.sim_helpers import play, saved

pytestmark = pytest.mark.slow

SEED = 1  # P1 wins the roll-off (the damaged-save test expects P1 to roll first)
TWO_HUMANS = sim_golden.TWO_HUMANS  # splash, P2 -> Human, start game
# Part 1: roll-off, two turns, a hold and a second roll; part 2: more holds, rolls, scores.
PART1 = TWO_HUMANS + " wait:4500 space enter enter space 2 4 space"
PART2 = "1 space enter enter space 3 space 5"


def run(flash, keys, extra=()):
    device = play(flash, keys, seed=SEED, extra=extra)
    assert device.alive is False
    return device


def test_a_game_resumes_at_the_same_state_and_rolls_the_same_dice(tmp_path):
    cut = tmp_path / "cut"
    first = run(cut, PART1)
    before = saved(cut)
    assert before["game"]["rolls"] == 2
    assert before["game"]["held"] == 0b01010
    offered = run(cut, "")
    where = "Round %d, P%d" % (before["game"]["round"] + 1, before["game"]["current"] + 1)
    assert screen_lines(offered.oled_pixels())[:6] == ["Saved game", "", where, "", " Continue", " New game"]
    assert saved(cut) == before  # booting and asking changes nothing

    resumed = run(cut, "enter")  # Continue
    assert device_text(resumed) == device_text(first)  # dice, holds, roll count, card, header
    assert saved(cut) == before

    finished = run(cut, "enter " + PART2)
    whole = tmp_path / "whole"
    uninterrupted = run(whole, PART1 + " " + PART2)
    assert device_text(finished) == device_text(uninterrupted)
    after, reference = saved(cut), saved(whole)
    assert after["game"] == reference["game"]  # cards, dice, holds, rolls, whose turn
    assert after["seed"] == reference["seed"]
    assert after["counts"] == reference["counts"]
    assert after["game"]["rolls"] > 0
    assert after["game"]["dice"] != before["game"]["dice"]


def test_new_game_instead_of_continue_forgets_the_save_but_keeps_its_dice(tmp_path):
    run(tmp_path, PART1)
    counts = saved(tmp_path)["counts"]
    assert sum(counts) == 5 + 5 + 3  # one roll of 5 dice; 5, then 3 with two held
    device = run(tmp_path, "down enter wait:1500")  # "New game", then the splash ends
    assert screen_lines(device.oled_pixels())[0].startswith("Setup")
    assert saved(tmp_path) is None
    rolls = saved(tmp_path, "rolls")
    assert rolls["faces"] == counts


def damaged(kind):
    good = save_store.pack({"id": 1}, 1)
    if kind == save_store.CORRUPT:
        return good[:-1] + bytes([good[-1] ^ 0xFF])
    if kind == save_store.TRUNCATED:
        return good[: len(good) // 2]
    return good[:2] + bytes([save_store.VERSION + 7]) + good[3:]


@pytest.mark.parametrize("kind", [save_store.CORRUPT, save_store.TRUNCATED, save_store.UNKNOWN_VERSION])
def test_a_damaged_save_is_set_aside_with_a_message_and_a_new_game_starts(tmp_path, kind):
    data = tmp_path / "data"
    data.mkdir()
    scores = save_store.Store(str(data / "scores"))
    scores.save([[250, "ABC", 7, 0]])
    kept = (data / "scores.a").read_bytes()
    (data / "game.a").write_bytes(damaged(kind))
    device = run(tmp_path, "")
    lines = screen_lines(device.oled_pixels())
    reason = "unknown version" if kind == save_store.UNKNOWN_VERSION else kind
    assert lines[:5] == ["Save damaged", "Saved game:", reason + ".", "Kept as .bad.", "New game."]
    assert (data / "game.a.bad").read_bytes() == damaged(kind)
    assert not (data / "game.a").exists()
    assert (data / "scores.a").read_bytes() == kept  # nothing else lost

    device = run(tmp_path, "enter enter enter wait:3000 space")  # dismiss, splash, start, roll
    assert screen_lines(device.oled_pixels())[0].startswith("P")
    assert saved(tmp_path)["game"]["rolls"] == 1
    assert (data / "game.a.bad").read_bytes() == damaged(kind)
    assert save_store.Store(str(data / "scores")).load() == [[250, "ABC", 7, 0]]


def test_an_inconsistent_game_in_a_valid_file_is_set_aside_too(tmp_path):
    store = save_store.Store(str(tmp_path / "data" / "game"))
    store.save({"id": 5, "seed": [1, 0], "counts": [0] * 6, "game": {"v": 1, "rules": "forced"}})
    device = run(tmp_path, "")
    assert screen_lines(device.oled_pixels())[:5] == [
        "Save damaged",
        "Saved game:",
        "bad contents.",
        "Kept as .bad.",
        "New game.",
    ]
    assert (tmp_path / "data" / "game.a.bad").exists()
    assert saved(tmp_path) is None


def test_a_newer_save_with_wrong_contents_resumes_the_older_one(tmp_path):
    run(tmp_path, PART1)
    data = tmp_path / "data"
    before = saved(tmp_path)
    newest = max(("game.a", "game.b"), key=lambda name: save_store.check((data / name).read_bytes()))
    store = save_store.Store(str(data / "game"))
    store.load()
    store.save({"weird": [1, 2, 3]})  # a correct frame (CRC, next sequence) around nonsense
    weird = (data / ("game.b" if newest == "game.a" else "game.a")).read_bytes()
    lines = screen_lines(run(tmp_path, "").oled_pixels())
    assert lines[0] == "Saved game"  # the intact older slot is offered, no "Save damaged"
    assert saved(tmp_path) == before
    assert weird in [p.read_bytes() for p in data.iterdir() if p.name.endswith(".bad")]


def test_a_full_filesystem_shows_a_message_and_play_goes_on_unsaved(tmp_path):
    run(tmp_path, PART1)
    before = saved(tmp_path)
    temp = tmp_path / "data" / "game.tmp"
    os.symlink("/dev/full", str(temp))  # every write there fails with ENOSPC, from the kernel
    device = run(tmp_path, "enter 1")  # Continue, hold die 1: its save hits the full disk
    lines = screen_lines(device.oled_pixels())
    assert lines[:3] == ["Flash full", "Game not saved.", "Play goes on; it"]
    assert saved(tmp_path) == before  # the previous save is intact
    assert not os.path.lexists(str(temp))  # the failed temp file is gone

    # Same run again, then play on: the hold shows, the next action saves again.
    os.symlink("/dev/full", str(temp))
    device = run(tmp_path, "enter 1 enter 2")
    assert screen_lines(device.oled_pixels())[0].startswith("P")
    now = saved(tmp_path)["game"]
    assert now["held"] == before["game"]["held"] ^ 0b00011
    assert now["rolls"] == before["game"]["rolls"]


def test_quitting_a_game_forgets_its_save_and_keeps_its_dice(tmp_path):
    run(tmp_path, PART1)
    counts = saved(tmp_path)["counts"]
    device = run(tmp_path, "enter hold:m:800 enter")  # Continue, long MENU: quit?, OK
    assert screen_lines(device.oled_pixels())[0].startswith("Setup")
    assert saved(tmp_path) is None
    assert saved(tmp_path, "rolls")["faces"] == counts
    assert screen_lines(run(tmp_path, "wait:1600").oled_pixels())[0].startswith("Setup")  # no Continue


# A solo game saved with --seed 21, then booted WITHOUT a seed (the
# dice stirred as on the device) and continued: every boot must roll the same dice.
REPRO_PLAY = "enter down enter enter enter up enter wait:500 space wait:1500 1 2 wait:300"
REPRO_CONTINUE = "enter wait:500 space wait:1500 space wait:1500"


def test_continue_rolls_the_same_dice_when_stirred_like_the_device(tmp_path):
    import shutil

    source = tmp_path / "source"
    device = play(source, REPRO_PLAY, seed=21)
    assert device.alive is False
    assert saved(source)["game"]["held"] == 0b00011
    results = []
    for boot in range(3):
        copy = tmp_path / ("boot%d" % boot)
        shutil.copytree(str(source), str(copy))
        resumed = play(copy, REPRO_CONTINUE)  # no seed: stirred like the Pico
        results.append((saved(copy)["game"]["dice"], device_text(resumed)))
    seeded = tmp_path / "seeded"
    shutil.copytree(str(source), str(seeded))
    play(seeded, REPRO_CONTINUE, seed=21)
    assert results[0][0] == saved(seeded)["game"]["dice"]
    assert results[1] == results[0]
    assert results[2] == results[0]


# Four computers, one per level (P1 optimal, P2 win, P3 good, P4 casual;
# good and casual draw noise per decision), in one game cut at random moments again and
# again, each boot continuing the last: the end must be the uninterrupted game's.
EVERY_LEVEL = "enter down enter enter down enter down enter enter enter down enter enter enter enter up up up up enter"


def test_every_computer_level_resumes_the_same_game_after_cuts_at_random_moments(tmp_path, device_tables):
    import random

    whole = tmp_path / "whole"
    play(whole, EVERY_LEVEL + " wait:600000", seed=5, tables=device_tables)
    reference = saved(whole)
    assert reference["game"]["phase"] == 2
    assert [p[1] for p in reference["game"]["players"]] == [
        "optimal",
        "win",
        "good",
        "casual",
    ]
    rng = random.Random(22)
    cut = tmp_path / "cut"
    keys, cuts = EVERY_LEVEL, 0
    while True:
        play(cut, keys + " wait:%d" % rng.randrange(1000, 30000), seed=5, tables=device_tables)
        now = saved(cut)
        if now["game"]["phase"] == 2:
            break
        cuts += 1
        keys = "enter"  # Continue
    assert cuts >= 8
    for key in ("game", "seed", "counts"):
        assert now[key] == reference[key], key
