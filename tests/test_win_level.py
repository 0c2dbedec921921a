"""The ``win`` computer level (firmware/strategy_win.py) and its numpy twin
(host_tools/solver/fast_win.py), which the head-to-head figures in the README use.

The twin must make the device's decisions one for one; the level itself must play
for the win where that matters (far behind late: gamble; far ahead: play safe).
"""
import random

import numpy as np
import pytest

import advisor as A
import rules
import spread_table
import strategy_table
import strategy_win
from host_tools.benches import win_meter as bench
from host_tools.solver import cache as solver_cache
from host_tools.solver import fast_play
from host_tools.solver import fast_win
from host_tools.solver import spread
from support import card_with

FORCED = rules.make_ruleset()


@pytest.fixture(scope="module")
def device():
    with open(solver_cache.table(FORCED), "rb") as f, open(solver_cache.spread_table(FORCED, bench.DEVICE_BANDS), "rb") as g:
        adv = A.Advisor(FORCED, strategy_table.StrategyTable(f))
        opt = A.Advisor(FORCED, strategy_table.StrategyTable(f))
        yield strategy_win.WinLevel(adv, spread_table.SpreadTable(g)), opt


@pytest.fixture(scope="module")
def host():
    fa, _fixed, _var = bench.load(FORCED)
    with open(solver_cache.spread_table(FORCED, bench.DEVICE_BANDS), "rb") as f:
        sd16 = spread.decode_sixteenths(f.read())
    return fast_win.FastWin(fa, sd16)


def _state(card):
    mask = up = 0
    for b in range(13):
        if card[b] != rules.OPEN:
            mask |= 1 << b
            up += card[b] if b < 6 else 0
    return mask, min(up, 63), 1 if card[rules.YAHTZEE] == 50 else 0, rules.totals(FORCED, card)[4]


def _score(card, dice, box):
    out = [0] * 13
    rules.score_options(FORCED, card, dice, out)
    card[rules.BONUS] += rules.yahtzee_bonus_for(FORCED, card, dice)
    card[box] = out[box]


def test_host_twin_makes_the_device_levels_decisions(device, host):
    """>= 1,000 decisions (holds with 2 and 1 rolls left, boxes) along two-player games
    of the device's win level against the device's optimal advisor."""
    level, opt = device
    rng = random.Random(4)
    codes, values = [0] * 32, [0] * 32
    rows = []
    for _game in range(10):
        cards = [rules.new_card(), rules.new_card()]
        for _round in range(13):
            for seat in (0, 1):
                card = cards[seat]
                dice = [rng.randint(1, 6) for _ in range(5)]
                if seat == 1:
                    opt.prepare(card)
                    for left in (2, 1):
                        opt.options(dice, left, codes, values)
                        dice = [d if codes[0] >> i & 1 else rng.randint(1, 6) for i, d in enumerate(dice)]
                    opt.options(dice, 0, codes, values)
                    _score(card, dice, codes[0])
                    continue
                level.prepare(card, [cards[1]])
                for _probe in range(3):  # more positions per prepared turn
                    probe = [rng.randint(1, 6) for _ in range(5)]
                    for left in (2, 1):
                        rows.append((_state(card), _state(cards[1]), list(probe), left, level.hold(probe, left)))
                    rows.append((_state(card), _state(cards[1]), list(probe), 0, level.box(probe)))
                for left in (2, 1):
                    hold = level.hold(dice, left)
                    dice = [d if hold >> i & 1 else rng.randint(1, 6) for i, d in enumerate(dice)]
                _score(card, dice, level.box(dice))
    assert len(rows) >= 1000
    me = tuple(np.array([r[0][i] for r in rows]) for i in range(4))
    opp = tuple(np.array([r[1][i] for r in rows]) for i in range(4))
    codes_arr = np.array([fast_play.dice_code(r[2]) for r in rows])
    k3, k2, ctx = host.prepare(me, [opp])
    holds = {2: host.hold(k2, codes_arr), 1: host.hold(k3, codes_arr)}
    boxes = host.box(ctx, codes_arr)[0]
    got = [int(boxes[i] if r[3] == 0 else holds[r[3]][i]) for i, r in enumerate(rows)]
    assert got == [r[4] for r in rows]


def test_far_behind_late_it_gambles_where_optimal_plays_safe(device):
    """Three of a kind, four of a kind and Yahtzee open, the opponent done 110 ahead:
    with 2-2-4-5-6 optimal play keeps the 6 (points in the kinds); the win level keeps
    the pair, the only way to the Yahtzee it needs. Ahead of a finished opponent it
    keeps what optimal keeps."""
    level, opt = device
    me = card_with(aces=3, twos=6, threes=9, fours=12, fives=15, sixes=18, full_house=25,
                   small_straight=30, large_straight=40, chance=22)
    dice = [2, 2, 4, 5, 6]
    codes, values = [0] * 32, [0] * 32
    opt.prepare(me)
    opt.options(dice, 2, codes, values)
    assert codes[0] == 0b10000
    ahead = card_with(aces=3, twos=6, threes=9, fours=12, fives=15, sixes=18, three_kind=30, four_kind=28,
                      full_house=25, small_straight=30, large_straight=40, yahtzee=50, chance=24)
    behind = card_with(aces=3, twos=6, threes=9, fours=12, fives=15, sixes=18, three_kind=0, four_kind=0,
                       full_house=25, small_straight=30, large_straight=40, yahtzee=0, chance=10)
    assert rules.totals(FORCED, ahead)[4] - rules.totals(FORCED, me)[4] == 110
    assert rules.totals(FORCED, behind)[4] - rules.totals(FORCED, me)[4] == -12
    level.prepare(me, [ahead])
    assert level.hold(dice, 2) == 0b00011
    level.prepare(me, [behind])
    assert level.hold(dice, 2) == 0b10000
