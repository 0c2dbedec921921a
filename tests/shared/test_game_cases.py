"""The game engine: roll-off, turns, holds, illegal actions, bonuses, ranking, state.

Runs under pytest and inside the real MicroPython (tests/firmware/test_on_micropython.py).
"""

import game as G
import rules as R
from support import ScriptedDice, SeededDice, raises
from check import equal, true

FORCED = R.make_ruleset()
ZOO = R.make_ruleset("zoo")
# The engine knows no ruleset: the generic cases below run on both cards.
RULESETS = (FORCED, ZOO)
ID = R.BOX_IDS.index


def new_game(n=2, faces=None, seed=1, rules=FORCED):
    source = ScriptedDice(faces) if faces is not None else SeededDice(seed)
    players = [("P%d" % (i + 1), "human") for i in range(n)]
    return G.Game(rules, players, source)


def test_solo_game_starts_at_once():
    game = new_game(1)
    equal(game.phase, G.TURN)
    equal(game.current, 0)


def test_rolloff_highest_starts():
    game = new_game(3, faces=[2, 6, 4])
    equal(game.rolloff(), [(0, 2), (1, 6), (2, 4)])
    equal(game.phase, G.TURN)
    equal(game.current, 1)
    equal(game.first, 1)


def test_rolloff_ties_roll_again_among_the_tied_only():
    game = new_game(3, faces=[5, 2, 5, 3, 3, 1, 4])
    equal(game.rolloff(), [(0, 5), (1, 2), (2, 5)])
    equal(game.phase, G.ROLLOFF)
    equal(game.contenders, [0, 2])
    equal(game.rolloff(), [(0, 3), (2, 3)])
    equal(game.rolloff(), [(0, 1), (2, 4)])
    equal(game.phase, G.TURN)
    equal(game.current, 2)
    raises(G.GameError, game.rolloff)


def test_play_goes_round_in_seat_order_from_the_starter():
    game = new_game(3, faces=[1, 6, 2] + [1, 2, 3, 4, 6] * 3)
    game.rolloff()
    order = []
    for _ in range(3):
        order.append(game.current)
        game.roll()
        game.score(ID("chance"))
    equal(order, [1, 2, 0])
    equal(game.round, 1)
    equal(game.current, 1)


def test_first_roll_throws_all_and_holds_keep_dice():
    game = new_game(1, faces=[1, 2, 3, 4, 5, 6, 6, 6, 1, 1, 2, 3])
    game.roll()
    equal(game.dice, [1, 2, 3, 4, 5])
    equal(game.rolls, 1)
    game.toggle_hold(1)
    game.toggle_hold(3)
    game.roll()
    equal(game.dice, [6, 2, 6, 4, 6])
    equal(game.rolls, 2)
    game.toggle_hold(1)  # an earlier hold may be released and re-rolled
    game.roll()
    equal(game.dice, [1, 1, 2, 4, 3])
    equal(game.rolls, 3)


def test_a_fourth_roll_is_refused_and_changes_nothing():
    game = new_game(1)
    for _ in range(3):
        game.roll()
    before = game.to_state()
    raises(G.GameError, game.roll)
    raises(G.GameError, game.toggle_hold, 0)
    equal(game.to_state(), before)


def test_holding_or_scoring_before_the_first_roll_is_refused():
    game = new_game(1)
    before = game.to_state()
    raises(G.GameError, game.toggle_hold, 0)
    raises(G.GameError, game.score, 0)
    raises(G.GameError, game.options)
    equal(game.to_state(), before)


def test_actions_before_the_rolloff_is_decided_are_refused():
    game = new_game(2)
    before = game.to_state()
    raises(G.GameError, game.roll)
    equal(game.to_state(), before)


def test_rolling_with_every_die_held_is_refused():
    game = new_game(1)
    game.roll()
    for die in range(5):
        game.toggle_hold(die)
    before = game.to_state()
    raises(G.GameError, game.roll)
    equal(game.to_state(), before)


def test_a_filled_box_cannot_be_filled_again():
    game = new_game(1, faces=[1, 2, 3, 4, 6, 2, 2, 3, 3, 3])
    game.roll()
    game.score(ID("chance"))
    game.roll()
    before = game.to_state()
    error = raises(G.GameError, game.score, ID("chance"))
    true("already filled" in str(error), str(error))
    equal(game.to_state(), before)


def test_the_joker_rule_forbids_other_boxes():
    game = new_game(1, faces=[4] * 10)
    game.roll()
    game.score(ID("yahtzee"))
    game.roll()
    before = game.to_state()
    error = raises(G.GameError, game.score, ID("full_house"))
    true("fours" in str(error), str(error))
    equal(game.to_state(), before)
    equal(game.score(ID("fours")), (20, 100))


def test_choosing_a_used_yahtzee_box_never_pays_a_bonus():
    game = new_game(1, faces=[5] * 5 + [1, 2, 3, 4, 6])
    game.roll()
    game.score(ID("yahtzee"))
    game.roll()
    raises(G.GameError, game.score, ID("yahtzee"))
    equal(game.players[0].card[R.BONUS], 0)


def test_three_yahtzees_earn_200_bonus_points():
    game = new_game(1, faces=[6] * 5 + [2] * 5 + [3] * 5)
    for box in ("yahtzee", "twos", "threes"):
        game.roll()
        game.score(ID(box))
    card = game.players[0].card
    equal(card[R.BONUS], 200)
    equal(R.totals(FORCED, card), (25, 0, 50, 200, 275))


def test_no_bonus_when_the_yahtzee_box_holds_zero():
    game = new_game(1, faces=[1, 2, 3, 4, 6] + [5] * 5)
    game.roll()
    game.score(ID("yahtzee"))
    game.roll()
    equal(game.score(ID("fives")), (25, 0))


def test_thirteen_yahtzees_reach_the_maximum_1575():
    order = [6, 1, 2, 3, 4, 5, 6, 6, 6, 6, 6, 6, 6]
    boxes = [
        "yahtzee",
        "aces",
        "twos",
        "threes",
        "fours",
        "fives",
        "sixes",
        "three_kind",
        "four_kind",
        "full_house",
        "small_straight",
        "large_straight",
        "chance",
    ]
    faces = []
    for face in order:
        faces += [face] * 5
    game = new_game(1, faces=faces)
    for box in boxes:
        game.roll()
        game.score(ID(box))
    equal(game.phase, G.OVER)
    equal(R.totals(FORCED, game.players[0].card), (105, 35, 235, 1200, 1575))


def play_out(game, choose=None):
    """Play to the end: roll once, take the highest legal box (or choose(game, options))."""
    while game.phase == G.ROLLOFF:
        game.rolloff()
    while game.phase != G.OVER:
        game.roll()
        options = game.options()
        if choose is None:
            box = 0
            for b in range(len(options)):
                if options[b] > options[box]:
                    box = b
        else:
            box = choose(game, options)
        game.score(box)
    return game


def test_a_game_ends_after_one_round_per_box_with_every_box_filled():
    for rules, rounds in ((FORCED, 13), (ZOO, 11)):
        game = new_game(3, seed=7, rules=rules)
        turns = 0
        while game.phase == G.ROLLOFF:
            game.rolloff()
        while game.phase != G.OVER:
            equal(game.round, turns // 3)
            game.roll()
            options = game.options()
            equal(len(options), rules.n_boxes)
            game.score(max(range(rules.n_boxes), key=lambda b: options[b]))
            turns += 1
        equal(game.round, rounds)
        equal(turns, 3 * rounds)
        for seat, player in enumerate(game.players):
            equal(len(player.card), rules.n_boxes + 1)
            true(R.OPEN not in player.card[: rules.n_boxes], R.OPEN, player.card[: rules.n_boxes])
            equal(game.total(seat), R.totals(rules, player.card)[4])
        raises(G.GameError, game.roll)
        raises(G.GameError, game.score, 0)


def test_more_than_four_players_work():
    for rules in RULESETS:
        game = play_out(new_game(6, seed=3, rules=rules))
        equal(len(game.ranking()), 6)


def test_zoo_game_scores_animals_and_refuses_boxes_past_its_card():
    game = new_game(1, faces=[3, 3, 3, 5, 5] + [1, 2, 3, 4, 6], rules=ZOO)
    game.roll()
    equal(game.options(), [0, 0, 3, 0, 2, 0, 10, 0, 15, 0, 0])
    raises(G.GameError, game.score, 11)  # the standard card's 12th box does not exist here
    equal(game.score(ZOO.ids.index("full_house")), (15, 0))
    game.roll()
    equal(game.score(ZOO.ids.index("all_different")), (20, 0))
    equal(R.totals(ZOO, game.players[0].card), (0, 0, 35, 0, 35))


def fixed_totals(game, totals):
    for player, total in zip(game.players, totals):
        player.card = R.new_card()
        player.card[ID("chance")] = 5
        player.card[R.BONUS] = 0
        player.card[ID("yahtzee")] = 50 if total >= 55 else 0
        rest = total - 5 - player.card[ID("yahtzee")]
        player.card[ID("three_kind")] = rest


def test_a_tie_is_shared_not_given_to_the_second_player():
    game = new_game(2)
    fixed_totals(game, [30, 30])
    equal(game.ranking(), [(1, 0, 30), (1, 1, 30)])
    equal(game.winners(), [0, 1])


def test_ranking_places_with_ties():
    game = new_game(4)
    fixed_totals(game, [20, 30, 30, 10])
    equal(game.ranking(), [(1, 1, 30), (1, 2, 30), (3, 0, 20), (4, 3, 10)])
    equal(game.winners(), [1, 2])


def test_state_round_trip_mid_turn():
    for rules in RULESETS:
        game = new_game(3, seed=11, rules=rules)
        while game.phase == G.ROLLOFF:
            game.rolloff()
        for _ in range(4):
            game.roll()
            game.score(max(range(rules.n_boxes), key=lambda b: game.options()[b]))
        game.roll()
        game.toggle_hold(2)
        state = game.to_state()
        again = G.Game.from_state(state, SeededDice(1))
        equal(again.to_state(), state)
        equal(again.players[1].name, "P2")
        equal(again.rules.name, rules.name)
        equal(again.rounds, rules.n_boxes)


def test_a_finished_zoo_game_round_trips_and_a_card_of_the_other_shape_is_refused():
    game = play_out(new_game(2, seed=9, rules=ZOO))
    state = game.to_state()
    equal(G.Game.from_state(state, SeededDice(1)).phase, G.OVER)
    bad = dict(state)
    bad["rules"] = "forced"  # 12-entry Zoo cards under the standard card: refused
    raises(G.GameError, G.Game.from_state, bad, SeededDice(1))
    bad = dict(state)
    bad["round"] = 13
    raises(G.GameError, G.Game.from_state, bad, SeededDice(1))


def test_damaged_states_are_refused_by_name():
    for rules in RULESETS:
        game = new_game(2, seed=5, rules=rules)
        game.rolloff()
        state = game.to_state()
        cases = [("v", 99), ("rolls", 4), ("current", 7), ("dice", [1, 2, 3]), ("rules", "bogus")]
        for key, value in cases:
            bad = dict(state)
            bad[key] = value
            raises(G.GameError, G.Game.from_state, bad, SeededDice(1))
        bad = dict(state)
        bad["players"] = [[p[0], p[1], list(p[2])] for p in state["players"]]
        bad["players"][0][2][0] = 3  # a box filled that the round count says is still open
        raises(G.GameError, G.Game.from_state, bad, SeededDice(1))
        bad = dict(state)
        del bad["held"]
        raises(G.GameError, G.Game.from_state, bad, SeededDice(1))
