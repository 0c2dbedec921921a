"""Property tests over thousands of random full games (CPython, hypothesis)."""

import pytest

import game as G
import rules as R
from hypothesis import given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.slow

RULESETS = [R.make_ruleset(j, b) for j in R.JOKERS for b in (True, False)]


class Source:
    """Dice from hypothesis-chosen bits, so shrinking finds small counterexamples."""

    def __init__(self, data):
        self.data = data

    def randint(self, low, high):
        return self.data.draw(st.integers(low, high))


def everything_illegal_is_refused(game, options):
    """Try every illegal score and a few illegal actions; the state must not change."""
    before = game.to_state()
    for box in range(R.N_BOXES):
        if options[box] < 0:
            try:
                game.score(box)
            except G.GameError:
                pass
            else:
                raise AssertionError("illegal box %s accepted" % R.BOX_IDS[box])
    if game.rolls == 3:
        for action in (game.roll, lambda: game.toggle_hold(0)):
            try:
                action()
            except G.GameError:
                pass
            else:
                raise AssertionError("action after the third roll accepted")
    assert game.to_state() == before


@settings(max_examples=40, deadline=None)
@given(st.data(), st.sampled_from(RULESETS), st.integers(1, 4))
def test_random_full_games_keep_every_invariant(data, rules, n_players):
    game = G.Game(rules, [("P%d" % i, "human") for i in range(n_players)], Source(data))
    while game.phase == G.ROLLOFF:
        game.rolloff()
    turns = 0
    while game.phase != G.OVER:
        player = game.current
        filled_before = sum(1 for v in game.players[player].card[:13] if v != R.OPEN)
        game.roll()
        while game.rolls < 3 and data.draw(st.booleans()):
            game.set_held(data.draw(st.integers(0, 30)))
            game.roll()
        options = game.options()
        everything_illegal_is_refused(game, options)
        legal = [b for b in range(R.N_BOXES) if options[b] >= 0]
        assert legal, "a turn must always have a box to fill"
        box = data.draw(st.sampled_from(legal))
        points, bonus = game.score(box)
        card = game.players[player].card
        assert card[box] == points == options[box]
        assert sum(1 for v in card[:13] if v != R.OPEN) == filled_before + 1
        turns += 1
        if game.phase != G.OVER:
            state = game.to_state()
            assert G.Game.from_state(state, Source(data)).to_state() == state
    assert turns == 13 * n_players
    for player in game.players:
        card = player.card
        assert R.OPEN not in card[:13]
        upper, upper_bonus, lower, y_bonus, grand = R.totals(rules, card)
        assert upper == sum(card[:6])
        assert lower == sum(card[6:13])
        assert y_bonus == card[R.BONUS]
        assert upper_bonus == (35 if upper >= 63 else 0)
        assert grand == upper + upper_bonus + lower + y_bonus
        assert 0 <= grand <= 1575
    places = game.ranking()
    best = max(game.total(p) for p in range(n_players))
    assert game.winners() == [p for p in range(n_players) if game.total(p) == best]
    assert [t for _pl, _p, t in places] == sorted((t for _pl, _p, t in places), reverse=True)


@settings(max_examples=1000, deadline=None)
@given(
    st.lists(st.integers(1, 6), min_size=5, max_size=5),
    st.sampled_from(RULESETS),
    st.lists(st.integers(-1, 1), min_size=13, max_size=13),
)
def test_scores_match_a_plain_reading_of_the_rules(dice, rules, filled):
    card = R.new_card()
    for box in range(13):
        if filled[box] == 1:
            card[box] = 0
    if filled[11] == 0:
        card[11] = 50
    out = [0] * 13
    joker = R.score_options(rules, card, dice, out)
    counts = [dice.count(f) for f in range(7)]
    faces = set(dice)
    straight4 = any(set(run) <= faces for run in ((1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6)))
    straight5 = faces in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6})
    is_yahtzee = len(faces) == 1
    assert joker == (is_yahtzee and card[11] != R.OPEN and rules.joker != "none")
    expected = [f * counts[f] for f in range(1, 7)] + [
        sum(dice) if max(counts) >= 3 else 0,
        sum(dice) if max(counts) >= 4 else 0,
        25 if sorted(counts[1:])[-2:] == [2, 3] else 0,
        30 if straight4 else 0,
        40 if straight5 else 0,
        50 if is_yahtzee else 0,
        sum(dice),
    ]
    if joker and (rules.joker != "free" or card[dice[0] - 1] != R.OPEN):
        expected[8], expected[9], expected[10] = 25, 30, 40
    for box in range(13):
        if out[box] >= 0:
            assert card[box] == R.OPEN
            assert out[box] == expected[box], (R.BOX_IDS[box], dice, out)
    if not joker:
        assert [b for b in range(13) if out[b] >= 0] == [b for b in range(13) if card[b] == R.OPEN]


def test_thousands_of_seeded_random_games():
    """2,000 more full games with random holds and random legal boxes, all rulesets."""
    import random

    chooser = random.Random(2024)
    grands = []
    for number in range(2000):
        rules = RULESETS[number % len(RULESETS)]
        n_players = 1 + number % 4
        game = G.Game(rules, [("P%d" % i, "cpu") for i in range(n_players)], random.Random(number))
        while game.phase == G.ROLLOFF:
            game.rolloff()
        while game.phase != G.OVER:
            game.roll()
            while game.rolls < 3 and chooser.random() < 0.6:
                game.set_held(chooser.randrange(31))
                game.roll()
            options = game.options()
            if number % 50 == 0:
                everything_illegal_is_refused(game, options)
            game.score(chooser.choice([b for b in range(13) if options[b] >= 0]))
        for player in game.players:
            assert R.OPEN not in player.card[:13]
            parts = R.totals(rules, player.card)
            assert parts[4] == sum(parts[:4])
            assert 0 <= parts[4] <= 1575
            grands.append(parts[4])
    assert len(grands) == sum(1 + n % 4 for n in range(2000))
