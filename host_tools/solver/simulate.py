"""Simulated solitaire games with the firmware's advisor and computer levels (CPython).

Used by the strategy benchmark and tests. Besides the final total, each game sums the
points its decisions gave away by the advisor's own measure (best option's expected
total minus the chosen one's). Its mean is an unbiased estimate of the expected points
lost per game against optimal play, with far less noise than the scores themselves.
"""

import random

import host_tools

host_tools.use_firmware()
import strategy_advisor as A  # noqa: E402
import rules  # noqa: E402
import seat_levels as P  # noqa: E402


def play_game(adv, level, source):
    """One game for level index ``level``; returns (final total, points lost)."""
    ruleset = adv.rules
    card = rules.new_card(ruleset)
    codes = [0] * 32
    values = [0] * 32
    out = [0] * ruleset.n_boxes
    dice = [0] * 5
    lost = 0
    for _turn in range(ruleset.n_boxes):
        adv.prepare(card)
        for i in range(5):
            dice[i] = source.randint(1, 6)
        for rolls_left in (2, 1):
            n = adv.options(dice, rolls_left, codes, values)
            pick = P.choose(level, values, n, source, adv.card_value())
            lost += values[0] - values[pick]
            hold = codes[pick]
            for i in range(5):
                if not hold >> i & 1:
                    dice[i] = source.randint(1, 6)
        n = adv.options(dice, 0, codes, values)
        pick = P.choose(level, values, n, source, adv.card_value())
        lost += values[0] - values[pick]
        box = codes[pick]
        rules.score_options(ruleset, card, dice, out)
        bonus = rules.yahtzee_bonus_for(ruleset, card, dice)
        card[box] = out[box]
        card[ruleset.bonus_at] += bonus
    return rules.totals(ruleset, card)[4], A.to_points(lost)


def play_games(table_path, ruleset, level, games, seed):
    """(mean total, mean points lost, list of totals) over ``games`` seeded games."""
    import strategy_table

    with open(table_path, "rb") as f:
        adv = A.Advisor(ruleset, strategy_table.StrategyTable(f))
        source = random.Random(seed)
        totals = []
        lost = 0.0
        for _ in range(games):
            total, loss = play_game(adv, level, source)
            totals.append(total)
            lost += loss
    return sum(totals) / games, lost / games, totals
