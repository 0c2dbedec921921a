"""The computer player (firmware/computer.py): legal moves only, and a reasonable score.

Plays whole solo games through the game engine with seeded dice. The strategy is simple
(keep the most common face or a straight draw, score the box furthest above its par), so
the bar is modest: an average well above random play (about 45) and above the ~170 of
"always take the highest-scoring box"; the optimal player (issue 6) averages 254.6.
"""

import random

import computer
import game
import rules


def play_solo(seed, ruleset):
    source = random.Random(seed)
    g = game.Game(ruleset, [("C", "cpu")], source)
    options = [0] * 13
    while g.phase != game.OVER:
        card = g.players[0].card
        g.roll()
        while True:
            mask = computer.choose_hold(ruleset, card, g.dice, g.rolls)
            if mask < 0:
                g.options(options)
                box = computer.choose_box(ruleset, card, g.dice, options)
                assert options[box] >= 0  # legal
                g.score(box)
                break
            assert 0 <= mask < 31
            g.set_held(mask)
            g.roll()
    return g.total(0)


def test_computer_plays_legal_reasonable_games():
    for joker in rules.JOKERS:
        ruleset = rules.make_ruleset(joker=joker)
        scores = [play_solo(seed, ruleset) for seed in range(150)]
        mean = sum(scores) / len(scores)
        assert mean > 185, (joker, mean)
        assert min(scores) > 60


def test_choose_box_prefers_the_obvious():
    ruleset = rules.make_ruleset()
    card = rules.new_card()
    assert computer.choose_box(ruleset, card, [4, 4, 4, 4, 4]) == 11  # Yahtzee
    assert computer.choose_box(ruleset, card, [1, 2, 3, 4, 5]) == 10  # large straight
    assert computer.choose_hold(ruleset, card, [2, 3, 3, 4, 5], 1) == 0b11011  # small straight: go for large
    assert computer.choose_hold(ruleset, card, [6, 6, 1, 6, 2], 1) == 0b01011  # keep the sixes
    assert computer.choose_hold(ruleset, card, [3, 3, 2, 3, 3], 3) == -1  # no rolls left


def test_computer_plays_the_zoo_card_by_its_table():
    # Same code, the kids' card: 11 boxes, legal moves only (asserted in play_solo); the
    # seats' mean is well above greedy one-roll play (about 36 on this card).
    ruleset = rules.make_ruleset("zoo")
    scores = [play_solo(seed, ruleset) for seed in range(150)]
    assert sum(scores) / len(scores) > 70
    assert max(scores) <= 130  # the best Zoo card: 30 + 10 + 90
    card = rules.new_card(ruleset)
    assert computer.choose_box(ruleset, card, [4, 4, 4, 4, 4]) == 10  # Zoo Yahtzy
    assert computer.choose_box(ruleset, card, [6, 1, 3, 2, 5]) == 9  # all different
    assert computer.choose_hold(ruleset, card, [6, 1, 3, 2, 5], 1) == -1
    assert computer.choose_hold(ruleset, card, [6, 1, 3, 2, 2], 1) == 0b01111  # one of each
    assert computer.choose_hold(ruleset, card, [6, 6, 1, 6, 2], 1) == 0b01011
