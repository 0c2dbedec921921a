"""The advisor, the computer levels and the table format on the Zoo (kids') card.

The Zoo table goes through the same writer (host_tools/solver/table.py) and reader
(firmware/strategy_table.py) as the standard one; the advisor's values must equal the
solver's exactly (decoded file, 2**-8 rounding) and simulated optimal games must average
the solver's expected score within their error bars.
"""

import math
import random

import pytest

import strategy_advisor as A
import rules
import strategy_table
from host_tools.solver import cache as solver_cache
from host_tools.solver import core as solver_core
from host_tools.solver import simulate as solver_sim
from host_tools.solver import table as solver_table
from helpers.strategy_helpers import open_advisor

pytestmark = pytest.mark.slow

ZOO = rules.make_ruleset("zoo")


@pytest.fixture(scope="module")
def zoo_table():
    return solver_cache.table(ZOO, "exact")


@pytest.fixture(scope="module")
def adv():
    yield from open_advisor(ZOO)


def _random_card(rng):
    card = rules.new_card(ZOO)
    out = [0] * ZOO.n_boxes
    for box in rng.sample(range(ZOO.n_boxes), rng.randint(0, 10)):
        dice = [rng.randint(1, 6) for _ in range(5)]
        rules.score_options(ZOO, card, dice, out)
        card[box] = out[box]
    return card


def test_the_zoo_table_is_tiny_and_read_by_the_device_reader(zoo_table):
    with open(zoo_table, "rb") as f:
        data = f.read()
        f.seek(0)
        table = strategy_table.StrategyTable(f)
        assert table.ruleset_name == "zoo"
        assert table.n_states == 30080
        assert table.upper_threshold == 18
        assert table.upper_bonus == 10
        assert not table.yahtzee_bonus
        assert table.matches(ZOO, rules.JOKERS)
        assert not table.matches(rules.make_ruleset("none", False), rules.JOKERS)
        assert abs(table.expected_empty / 65536 - 85.0403) < 1e-4
    bits = data[18]  # format 3: per block a 16-bit base, then value - base in 12 bits
    assert bits == 12
    assert (
        len(data) == 64 + 4096 + (16 * 2048 + bits * 30080 + 7) // 8 + 2048 + 64 == 55488
    )  # 6 % of the standard table


def test_the_zoo_table_is_refused_for_a_standard_card(zoo_table):
    with open(zoo_table, "rb") as f:
        for choice in ("forced", "none"):
            with pytest.raises(ValueError):
                A.Advisor(rules.make_ruleset(choice, False), strategy_table.StrategyTable(f))


def test_advisor_values_equal_the_solver_on_zoo_cards(adv, zoo_table):
    space = solver_core.StateSpace(ZOO)
    with open(zoo_table, "rb") as f:
        dense = solver_table.decode(f.read(), space)
    rng = random.Random(14)
    codes, values = [0] * 32, [0] * 32
    out = [0] * ZOO.n_boxes
    for _ in range(200):
        card = _random_card(rng)
        if all(card[b] != rules.OPEN for b in range(ZOO.n_boxes)):
            continue
        adv.prepare(card)
        dice = [rng.randint(1, 6) for _ in range(5)]
        n = adv.options(dice, 0, codes, values)
        rules.score_options(ZOO, card, dice, out)
        host = {}
        for box in range(ZOO.n_boxes):
            if out[box] < 0:
                continue
            new = list(card)
            new[box] = out[box]
            mask = sum(1 << b for b in range(ZOO.n_boxes) if new[b] != rules.OPEN)
            up = min(18, sum(new[b] for b in range(6) if new[b] > 0))
            host[box] = rules.totals(ZOO, new)[4] + dense[solver_core.dense_index(mask, up, 0)]
        assert {codes[i] for i in range(n)} == set(host)
        for i in range(n):
            assert abs(A.to_points(values[i]) - host[codes[i]]) < 1e-9
    adv.prepare(rules.new_card(ZOO))
    assert abs(A.to_points(adv.expected_total()) - 85.0403) < 2e-3  # 2**-8 table rounding


def test_simulated_optimal_zoo_games_average_the_solver_optimum(zoo_table):
    # 300 games: the mean's standard error is about 1 point; 4 of them is the bar (the
    # 4,000-game figure, 85.11 +- 0.26, is in docs/rules_zoo.md; make bench prints more).
    mean, lost, totals = solver_sim.play_games(zoo_table, ZOO, 0, 300, seed=2026)
    sd = math.sqrt(sum((t - mean) ** 2 for t in totals) / (len(totals) - 1))
    assert abs(mean - 85.0403) < 4 * sd / math.sqrt(len(totals)), (mean, sd)
    assert lost == 0
    assert max(totals) <= 130
    casual, casual_lost, _t = solver_sim.play_games(zoo_table, ZOO, 2, 60, seed=7)
    assert casual_lost > 0  # the weaker level really gives points away on this card too


def test_levels_order_as_named_on_the_zoo_card(zoo_table):
    """The levels' noise scales with what the card is worth (advisor.card_value(): 85 points
    here, 254.6 on the standard card): with the standard card's noise `good` lost 11.6
    points a game on this card and played below the simple strategy (78.5). Points lost
    by the advisor's own measure (low noise: 40 games a level); the simple strategy over
    300 seeded games (standard error about 0.9). make bench (zoo): good 82.2, casual 76.9,
    simple 78.5 over 2,000 games each."""
    from host_tools.benches import zoo as zoo_bench

    _m, good, _t = solver_sim.play_games(zoo_table, ZOO, 1, 40, seed=11)
    _m, casual, _t = solver_sim.play_games(zoo_table, ZOO, 2, 40, seed=12)
    assert 0 < good < casual, (good, casual)
    simple = [zoo_bench.simple_game(ZOO, seed) for seed in range(300)]
    assert 85.0403 - good > sum(simple) / len(simple) + 1, (good, sum(simple) / len(simple))
