"""The dice path (firmware/game_dice.py): fairness and resumable streams.

Runs under CPython and inside MicroPython (tests/firmware/test_on_micropython.py).
"""

from game_dice import DiceSource
from check import equal, true

N_DICE = 60000
# chi-square, 5 degrees of freedom, p = 0.001: a fair die exceeds it once in 1000 seeds.
CHI2_LIMIT_DF5 = 20.52


def _counts(source, n):
    counts = [0] * 7
    for _ in range(n):
        counts[source.randint(1, 6)] += 1
    return counts


def _chi_square(counts, n):
    expected = n / 6
    parts = [(counts[face] - expected) ** 2 / expected for face in range(1, 7)]
    return parts


def test_fairness_seeded_chi_square_per_face():
    n = N_DICE
    counts = _counts(DiceSource(seed=12345), n)
    equal(counts[0], 0)
    equal(sum(counts), n)
    parts = _chi_square(counts, n)
    # Each face's own term is chi-square with 1 df: 10.83 is p = 0.001.
    for face in range(6):
        true(parts[face] < 10.83, parts[face], what=(face + 1, counts))
    true(sum(parts) < CHI2_LIMIT_DF5, sum(parts), CHI2_LIMIT_DF5, what=counts)


def test_fairness_unseeded_stirred_source():
    source = DiceSource()
    source.first_press(987654)
    counts = _counts(source, N_DICE)
    assert sum(_chi_square(counts, N_DICE)) < CHI2_LIMIT_DF5, counts


def test_seeded_sources_repeat_and_differ():
    single = DiceSource(seed=7).randint(1, 6)
    first = DiceSource(seed=7)
    run1 = [first.randint(1, 6) for _ in range(40)]
    second = DiceSource(seed=7)
    run2 = [second.randint(1, 6) for _ in range(40)]
    other = DiceSource(seed=8)
    run3 = [other.randint(1, 6) for _ in range(40)]
    equal(run1, run2)
    true(run1 != run3, run1, run3)
    equal(single, run1[0])


def test_checkpoint_restore_continues_the_stream():
    source = DiceSource(seed=99)
    for _ in range(17):
        source.randint(1, 6)
    seed = source.checkpoint()
    true(0 <= seed < (1 << 30), seed, 1 << 30)
    after = [source.randint(1, 6) for _ in range(50)]
    resumed = DiceSource(seed=1)
    resumed.restore(seed)
    equal([resumed.randint(1, 6) for _ in range(50)], after)


def test_first_press_does_not_disturb_a_seeded_source():
    # Sources share the one ``random`` generator (as on the device): draw one run at a time.
    plain = DiceSource(seed=5)
    plain_run = [plain.randint(1, 6) for _ in range(30)]
    pressed = DiceSource(seed=5)
    pressed.first_press(123456)
    equal([pressed.randint(1, 6) for _ in range(30)], plain_run)
