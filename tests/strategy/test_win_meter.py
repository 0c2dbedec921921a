"""Spread of the remaining score, the win meter, and the vectorised host twins of the
device code they are measured with (host_tools/solver/spread.py, fast_play.py, meter.py).

The spread recursion is checked against an independent brute force (distributions over
dictionaries, scoring through rules.py only) on late cards and against Monte Carlo play
from the empty card; the vectorised advisor and meter against firmware/strategy_advisor.py and
firmware/strategy_win_meter.py decision by decision and number by number.
"""

import io
import itertools
import random

import numpy as np
import pytest

import strategy_advisor as A
import rules
import strategy_spread
import strategy_table
import strategy_win_meter as W
from host_tools.benches import win_meter as bench
from host_tools.solver import cache as solver_cache
from host_tools.solver import core as solver_core
from host_tools.solver import fast_play
from host_tools.solver import meter
from host_tools.solver import spread
from helpers.strategy_helpers import OUTCOMES, ROLLS, assert_refused, card_state as _state
from support import card_with

pytestmark = pytest.mark.slow

FORCED = rules.make_ruleset()


@pytest.fixture(scope="module")
def solved():
    """(FastAdvisor, fixed values, variance) of the default rules (cached solves)."""
    return bench.load(FORCED)


@pytest.fixture(scope="module")
def spread_path():
    return solver_cache.spread_table(FORCED, bench.DEVICE_BANDS)


# -- the spread recursion ----------------------------------------------------------
def _mean(dist):
    return sum(v * p for v, p in dist.items())


def _mix(parts):
    out = {}
    for weight, dist in parts:
        for v, p in dist.items():
            out[v] = out.get(v, 0.0) + weight * p
    return out


class BruteDistribution:
    """Exact distribution of the remaining score under expected-score-maximising play,
    written apart from the solver: dictionaries of points -> probability."""

    def __init__(self):
        self.memo = {}

    def future(self, card):
        if all(card[b] != rules.OPEN for b in range(13)):
            return {0: 1.0}
        key = tuple(card)
        if key not in self.memo:
            out = [0] * 13
            stage = {}
            for r in ROLLS:
                rules.score_options(FORCED, card, list(r), out)
                best = None
                for box in range(13):
                    if out[box] < 0:
                        continue
                    new = list(card)
                    new[box] = out[box]
                    new[rules.BONUS] += rules.yahtzee_bonus_for(FORCED, card, list(r))
                    gain = rules.totals(FORCED, new)[4] - rules.totals(FORCED, card)[4]
                    dist = {gain + v: p for v, p in self.future(new).items()}
                    if best is None or _mean(dist) > _mean(best) + 1e-9:
                        best = dist
                stage[r] = best
            for _left in (1, 2):
                keep_dist = {}
                for r in ROLLS:
                    best = None
                    for n in range(6):
                        for kept in set(itertools.combinations(r, n)):
                            if kept not in keep_dist:
                                keep_dist[kept] = _mix(
                                    [(p, stage[tuple(sorted(kept + o))]) for o, p in OUTCOMES[5 - n]]
                                )
                            if best is None or _mean(keep_dist[kept]) > _mean(best) + 1e-9:
                                best = keep_dist[kept]
                    stage[r] = best
            self.memo[key] = _mix([(p, stage[r]) for r, p in OUTCOMES[5]])
        return self.memo[key]


LATE = [
    card_with(
        aces=3,
        twos=6,
        threes=9,
        fours=12,
        fives=15,
        sixes=18,
        three_kind=20,
        four_kind=0,
        full_house=25,
        small_straight=30,
        large_straight=40,
        yahtzee=50,
    ),
    card_with(
        aces=2,
        twos=6,
        threes=9,
        fours=8,
        fives=15,
        three_kind=20,
        four_kind=22,
        full_house=25,
        small_straight=30,
        large_straight=40,
        yahtzee=0,
        chance=20,
    ),
    card_with(
        aces=3,
        twos=6,
        threes=9,
        fours=12,
        fives=15,
        sixes=18,
        three_kind=20,
        four_kind=0,
        full_house=25,
        small_straight=30,
        large_straight=40,
    ),
]


@pytest.mark.parametrize("case", range(len(LATE)))
def test_spread_matches_brute_force_distribution(solved, case):
    _fa, _fixed, var = solved
    card = LATE[case]
    dist = BruteDistribution().future(card)
    mean = _mean(dist)
    brute_var = sum(p * (v - mean) ** 2 for v, p in dist.items())
    at = solver_core.dense_index(*_state(card))
    assert var[at] == pytest.approx(brute_var, rel=1e-6, abs=1e-6)
    assert brute_var > 1.0  # a real spread, not a degenerate case


def test_spread_from_empty_card_matches_monte_carlo_and_published(solved):
    fa, fixed, var = solved
    sd = float(np.sqrt(var[0]))
    assert abs(sd - 59.6) < 0.05  # published sd of optimal-mean play (about 59.6)
    _states, final = fast_play.solo_games(fa, 16384, np.random.default_rng(11))
    # standard errors: mean 0.47, sd about 0.4 at this many games
    assert abs(final.mean() - fixed[0] / 2.0**18) < 2.0
    assert abs(final.std() - sd) < 1.6


def test_spread_from_late_state_matches_monte_carlo(solved):
    """Two boxes open (four of a kind and Yahtzee, upper bonus made). The remaining score
    is heavy-tailed (kurtosis about 19): at 60,000 games the sample variance has a
    standard error of about 1.7 %; the bound is 3.5 of them."""
    fa, _fixed, var = solved
    mask = 8191 & ~(1 << 7) & ~(1 << 11)
    rng = np.random.default_rng(5)
    totals = []
    for _batch in range(3):  # 20,000 games at a time: the keep arrays stay small
        cards = fast_play.Cards(20000)
        cards.mask[:] = mask
        cards.up[:] = 60
        for _turn in range(2):
            fast_play.play_turn(fa, cards, rng)
        totals.append(cards.total)
    sample = np.concatenate(totals).var()
    assert abs(sample - var[solver_core.dense_index(mask, 60, 0)]) < 0.06 * sample


# -- the vectorised advisor and meter against the device code ------------------------
def test_fast_advisor_makes_the_device_advisors_decisions(solved):
    """Decisions along games played by firmware/strategy_advisor.py: >= 2,000 holds and boxes."""
    fa, _fixed, _var = solved
    rng = random.Random(7)
    positions = []
    with open(solver_cache.table(FORCED), "rb") as f:
        adv = A.Advisor(FORCED, strategy_table.StrategyTable(f))
        codes, values = [0] * 32, [0] * 32
        out = [0] * 13
        for _game in range(60):
            card = rules.new_card()
            for _turn in range(13):
                adv.prepare(card)
                start = adv.expected_total() - (rules.totals(FORCED, card)[4] << A.FRAC)
                dice = [rng.randint(1, 6) for _ in range(5)]
                for left in (2, 1, 0):
                    n = adv.options(dice, left, codes, values)
                    pick = codes[0] if rng.random() < 0.8 else codes[rng.randrange(n)]  # wander off-path
                    positions.append((_state(card), list(dice), left, codes[0], start))
                    if left:
                        dice = [d if pick >> i & 1 else rng.randint(1, 6) for i, d in enumerate(dice)]
                rules.score_options(FORCED, card, dice, out)
                card[rules.BONUS] += rules.yahtzee_bonus_for(FORCED, card, dice)
                card[pick] = out[pick]
    assert len(positions) >= 2000
    mask = np.array([p[0][0] for p in positions])
    up = np.array([p[0][1] for p in positions])
    yz = np.array([p[0][2] for p in positions])
    codes_arr = np.array([fast_play.dice_code(p[1]) for p in positions])
    k3, k2, succ = fa.prepare(mask, up, yz)
    assert list(fa.start_values(k2)) == [p[4] for p in positions]
    holds2 = fa.best_hold(k2, codes_arr)
    holds1 = fa.best_hold(k3, codes_arr)
    _scores, _bonus, box_values = fa.box_options(mask, yz, codes_arr, succ)
    boxes = np.argmax(box_values, axis=1)
    got = [int((holds2, holds1, boxes)[2 - p[2]][i]) for i, p in enumerate(positions)]
    assert got == [p[3] for p in positions]


def test_host_meter_equals_device_meter():
    """firmware/strategy_win_meter.py and its numpy twin on 3 x 1,000 positions (2-4 players),
    including finished cards and decided games."""
    rnd = random.Random(3)
    out = [0] * 4
    for n in (2, 3, 4):
        g = 1000
        totals = [[rnd.randint(0, 320) for _ in range(g)] for _ in range(n)]
        used = [[rnd.randint(0, 13) for _ in range(g)] for _ in range(n)]
        means = [[0 if u == 13 else rnd.randint(0, 4300) for u in row] for row in used]
        sds = [[0 if u == 13 else rnd.randint(1, 1300) for u in row] for row in used]
        host, decided = meter.chances(np.array(totals), np.array(means), np.array(sds), np.array(used))
        for i in range(g):
            col = [[row[i] for row in a] for a in (totals, means, sds, used)]
            assert W.chances(n, col[0], col[1], col[2], col[3], out) == bool(decided[i])
            assert out[:n] == [int(x) for x in host[:, i]]


def test_spread_table_reader_equals_host_decoder(spread_path):
    with open(spread_path, "rb") as f:
        data = f.read()
        table = strategy_spread.SpreadTable(f)
        assert table.matches(FORCED, rules.JOKERS)
        dense = spread.decode_sixteenths(data)
        rng = random.Random(2)
        reach = solver_core.upper_reach(63)
        for _ in range(2000):
            mask = rng.randrange(8192)
            up = rng.choice(reach[mask & 63])
            yz = rng.randint(0, 1) if mask >> 11 & 1 else 0
            assert table.sd(mask, up, yz) == dense[solver_core.dense_index(mask, up, yz)]
    assert len(data) == 64 + 12288 * bench.DEVICE_BANDS + 1024  # + a CRC-8 per group of 8 masks


def test_spread_table_rejects_other_files(tmp_path):
    assert_refused(strategy_spread.SpreadTable, tmp_path / "x.bin", b"YZOT" + bytes(60))


# -- what a player sees ------------------------------------------------------------
def test_meter_never_certain_before_the_end():
    out = [0] * 4
    # 300 points ahead with one turn each left: still 1 %, not 0 / 100
    assert not W.chances(2, [400, 100], [160, 400], [200, 300], [12, 12], out)
    assert (W.percent(out[0]), W.percent(out[1])) == (99, 1)
    assert not W.chances(4, [400, 100, 90, 80], [160] * 4, [200] * 4, [12] * 4, out)
    assert W.percent(out[0]) == 99
    assert min(W.percent(x) for x in out[1:4]) == 1
    # decided: exact, a tie shared
    assert W.chances(3, [250, 250, 240], [0] * 3, [0] * 3, [13] * 3, out)
    assert out[:3] == [W.ONE // 2, W.ONE // 2, 0]


def test_meter_orders_players_and_sums_to_one():
    out = [0] * 4
    W.chances(4, [120, 100, 100, 80], [2000] * 4, [600] * 4, [6] * 4, out)
    assert out[0] > out[1] == out[2] > out[3]
    assert abs(sum(out) - W.ONE) <= 4
    W.chances(2, [100, 100], [2000, 2000], [600, 600], [6, 6], out)
    assert out[:2] == [W.ONE // 2, W.ONE // 2]


def test_meter_beats_lead_only_baseline_small_sample(solved):
    """A small calibration run (the full one: docs/win_meter.md): Brier well below the
    lead-only baseline, and the middle deciles within 5 points of the observed rate."""
    fa, fixed, _var = solved
    with open(solver_cache.spread_table(FORCED, bench.DEVICE_BANDS), "rb") as f:
        sds = spread.decode_sixteenths(f.read())
    states, final = bench.solo(fa, 8000, 99)
    preds, out = bench.predict(states, final, 2, fixed, sds)
    rows, score = bench.calibration(preds, out)
    base = bench.brier(bench.lead_only(states, 2), out)
    assert score < 0.7 * base
    for _d, n, p, o in rows:
        if n >= 2000:
            assert abs(p - o) < 0.05


def test_the_screens_percent_is_the_meters():
    """ui.draw.percent (the screens' copy, so the meter is not loaded at boot) rounds
    every chance exactly as strategy_win_meter.percent."""
    from ui import draw

    assert [draw.percent(c) for c in range(W.ONE + 1)] == [W.percent(c) for c in range(W.ONE + 1)]
    assert draw.percent(W.ONE // 2) == 50


# -- damage: refused, never used (format 2: header CRC-8, size, a CRC-8 per 8 masks) -----
def _damaged_variants(data):
    flipped_header = bytearray(data)
    flipped_header[8] ^= 0x01  # the upper threshold: caught by the header's CRC-8
    flipped_data = bytearray(data)
    flipped_data[strategy_spread.HEADER_SIZE + 5000] ^= 0x10
    return {"header": bytes(flipped_header), "cut": data[:-100], "grown": data + b"\x00", "data": bytes(flipped_data)}


def test_spread_table_refuses_damage_at_open_and_per_group(spread_path):
    with open(spread_path, "rb") as f:
        data = f.read()
    spread.verify(data)
    for kind, bad in _damaged_variants(data).items():
        with pytest.raises(ValueError):
            spread.verify(bad)  # the host's whole-file check (advise)
        table = None
        try:
            table = strategy_spread.SpreadTable(io.BytesIO(bad))
        except strategy_table.TableDamaged:
            assert kind != "data"  # header, size: refused at open
            continue
        assert kind == "data"
        refused = []
        for mask in range(8191):
            try:
                table.load_block(mask, 0)
            except strategy_table.TableDamaged:
                refused.append(mask >> 3)
        assert len(refused) >= 1
        assert set(refused) == {refused[0]}  # that group only
    older = bytearray(data)
    older[4] = 1
    with pytest.raises(ValueError, match="format 1"):
        strategy_spread.SpreadTable(io.BytesIO(bytes(older)))
