"""Resuming the dice stream (firmware/game_dice.py ``position``/``seek``), the part of a
game save that decides the next dice. Runs under CPython and inside MicroPython.
"""

from game_dice import DiceSource
from check import equal, true


def test_position_does_not_change_the_stream():
    plain = DiceSource(seed=31)
    run = [plain.randint(1, 6) for _ in range(40)]
    saving = DiceSource(seed=31)
    got = []
    for i in range(40):
        if i % 3 == 0:
            saving.position()  # a save after every action must not change the dice
        got.append(saving.randint(1, 6))
    equal(got, run)


def test_seek_continues_at_the_saved_position():
    source = DiceSource(seed=77)
    for _ in range(23):
        source.randint(1, 6)
    saved = source.position()
    equal(saved, [77, 23])
    after = [source.randint(1, 6) for _ in range(30)]
    other = DiceSource(seed=5)
    other.randint(1, 6)
    other.seek(saved)
    equal(other.position(), [77, 23])
    equal([other.randint(1, 6) for _ in range(30)], after)


def test_position_follows_checkpoints_and_stirring():
    source = DiceSource(seed=3)
    source.randint(1, 6)
    seed = source.checkpoint()
    equal(source.position(), [seed, 0])
    source.randint(1, 6)
    saved = source.position()
    after = [source.randint(1, 6) for _ in range(10)]
    stirred = DiceSource()
    stirred.first_press(4242)
    equal(stirred.position()[1], 0)
    stirred.seek(saved)
    equal([stirred.randint(1, 6) for _ in range(10)], after)


def test_other_ranges_reseed_so_positions_stay_replayable():
    source = DiceSource(seed=12)
    source.randint(1, 6)
    pick = source.randint(0, 99)  # not a die: the stream restarts from a fresh seed
    true(0 <= pick <= 99, pick)
    equal(source.position()[1], 0)
    source.randint(1, 6)
    saved = source.position()
    after = [source.randint(1, 6) for _ in range(10)]
    again = DiceSource(seed=1)
    again.seek(saved)
    equal([again.randint(1, 6) for _ in range(10)], after)
    twin = DiceSource(seed=12)
    twin.randint(1, 6)
    equal(twin.randint(0, 99), pick)
    equal(twin.position(), [saved[0], 0])


def test_the_first_press_after_a_seek_keeps_the_restored_stream():
    # On the device the Continue press is the first press; its stir must not
    # replace the stream the save restored (an unseeded source, as on the Pico).
    source = DiceSource(seed=8)
    source.randint(1, 6)
    saved = source.position()
    after = [source.randint(1, 6) for _ in range(10)]
    device = DiceSource()
    device.seek(saved)
    device.first_press(31337)
    equal([device.randint(1, 6) for _ in range(10)], after)
