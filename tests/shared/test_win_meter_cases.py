"""The win meter's pure arithmetic (firmware/strategy_win_meter.py): the normal model's known
values, symmetry, order, shared wins, and never 0 % or 100 % before the end.

Runs under pytest and inside the real MicroPython (tests/firmware/test_on_micropython.py).
"""

import strategy_win_meter as W
from check import equal, true

FULL = 13  # used boxes of a full card: the spread factor there is 1 (256/256)


def chances(totals, means, sds, used):
    out = [0] * 4
    decided = W.chances(len(totals), totals, means, sds, used, out)
    return decided, out[: len(totals)]


def test_one_sd_ahead_is_phi_of_one():
    # 10 points ahead, sd 10 points (160 sixteenths), factor 1: Phi(1) = 0.8413
    decided, out = chances([10, 0], [0, 0], [160, 0], [FULL, FULL])
    true(not decided, decided)
    equal(out, [13785, W.ONE - 13785])
    equal(W.percent(out[0]), 84)


def test_equal_players_share_evenly():
    for n in (2, 3, 4):
        decided, out = chances([100] * n, [2000] * n, [700] * n, [6] * n)
        true(not decided, decided)
        for x in out:
            true(abs(x - W.ONE // n) <= 2, abs(x - W.ONE // n))


def test_more_points_more_chance_and_chances_sum_to_one():
    for n in (2, 3, 4):
        totals = [120, 100, 90, 60][:n]
        decided, out = chances(totals, [1800] * n, [650] * n, [7] * n)
        for i in range(n - 1):
            true(out[i] > out[i + 1], out[i], out[i + 1])
        true(abs(sum(out) - W.ONE) <= 4, abs(sum(out) - W.ONE))


def test_never_certain_before_the_end():
    for n in (2, 3, 4):
        totals = [500] + [50] * (n - 1)
        decided, out = chances(totals, [100] * n, [30] * n, [12] * n)
        true(not decided, decided)
        equal(W.percent(out[0]), 99)
        for x in out[1:]:
            equal(W.percent(x), 1)


def test_decided_game_is_exact_and_ties_share():
    decided, out = chances([250, 230], [0, 0], [0, 0], [FULL, FULL])
    assert decided
    equal(out, [W.ONE, 0])
    decided, out = chances([240, 250, 250, 100], [0] * 4, [0] * 4, [FULL] * 4)
    assert decided
    equal(out, [0, W.ONE // 2, W.ONE // 2, 0])


def test_a_finished_card_against_one_turn_left():
    # P1 done on 200; P2 on 180 expects 20 more (sd 10): even chances
    decided, out = chances([200, 180], [0, 320], [0, 160], [FULL, FULL])
    true(not decided, decided)
    equal(out, [W.ONE // 2, W.ONE // 2])


def test_isqrt_and_fixed_point_conversion():
    for n in (0, 1, 2, 3, 4, 15, 16, 17, 99, 100, 921600, 3686400):
        r = W.isqrt(n)
        true(r * r <= n < (r + 1) * (r + 1), r * r, n, (r + 1) * (r + 1))
    equal(W.from_fixed(10 << 18), 160)
    equal(W.from_fixed((10 << 18) + (1 << 13)), 161)  # rounds to the nearest sixteenth
