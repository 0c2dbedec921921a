"""Taking the last score back (firmware/game.py ``undo``): one step, until the next roll,
back on the same dice, holds and roll count; kept in the save.

Runs under pytest and inside the real MicroPython (tests/firmware/test_on_micropython.py).
"""

import game as G
import rules as R
from support import ScriptedDice, raises
from check import equal, true

FORCED = R.make_ruleset()
ZOO = R.make_ruleset("zoo")
ID = R.BOX_IDS.index


def _game(faces, n=1, rules=FORCED):
    game = G.Game(rules, [("P%d" % (i + 1), "human") for i in range(n)], ScriptedDice(faces))
    if n > 1:
        game.phase = G.TURN  # no roll-off: the scripted faces are the turns' dice
    return game


def _snapshot(game):
    return (
        [list(p.card) for p in game.players],
        list(game.dice),
        game.held,
        game.rolls,
        game.current,
        game.round,
        game.phase,
    )


def test_undo_puts_the_turn_back_as_it_was_scored():
    game = _game([3, 3, 3, 1, 2, 3, 6], n=2)
    game.roll()
    game.set_held(0b00111)
    game.roll()
    before = _snapshot(game)
    points, _bonus = game.score(ID("threes"))
    equal(points, 12)
    equal(game.current, 1)
    equal(game.undo(), 0)
    equal(_snapshot(game), before)
    equal(game.options()[ID("threes")], 12, "the box is open again")
    raises(G.GameError, game.undo)  # one step only


def test_a_roll_closes_the_window_and_a_computers_score_has_none():
    game = _game([1, 2, 3, 4, 5] * 3, n=2)
    game.roll()
    game.score(ID("large_straight"))
    game.roll()  # the next player rolls: the score stands
    raises(G.GameError, game.undo)
    game.score(ID("chance"), undo=False)  # a computer's: never taken back
    raises(G.GameError, game.undo)
    equal(game.last, None)


def test_the_last_score_of_a_round_and_of_the_game_come_back():
    game = _game([6] * 5 + [2, 2, 2, 2, 3] * 20, n=1)
    game.roll()
    game.score(ID("yahtzee"))
    equal(game.round, 1)
    game.undo()
    equal(game.round, 0)
    equal(game.players[0].card[ID("yahtzee")], R.OPEN)
    game.score(ID("yahtzee"))
    for box in range(FORCED.n_boxes):
        if box != ID("yahtzee"):
            game.roll()
            game.score(box)
    equal(game.phase, G.OVER)
    total = game.total(0)
    game.undo()  # the game's last score: the game goes on
    equal(game.phase, G.TURN)
    equal(game.round, 12)
    equal(game.rolls, 1)
    true(game.total(0) < total, game.total(0), total)
    game.score(ID("chance"))
    equal(game.phase, G.OVER)


def test_a_yahtzee_bonus_goes_with_its_score():
    game = _game([5] * 10, n=1)
    game.roll()
    game.score(ID("yahtzee"))
    game.roll()
    game.score(ID("fives"))  # a further Yahtzee: 100 bonus
    card = game.players[0].card
    equal(card[FORCED.bonus_at], 100)
    game.undo()
    equal(card[FORCED.bonus_at], 0)
    equal(card[ID("fives")], R.OPEN)
    equal(game.dice, [5] * 5)


def test_undo_on_the_zoo_card():
    game = _game([1, 2, 3, 4, 5, 6, 6], n=2, rules=ZOO)
    game.roll()
    before = _snapshot(game)
    game.score(ZOO.ids.index("all_different"))
    game.undo()
    equal(_snapshot(game), before)


def test_the_score_to_take_back_is_saved_and_checked():
    game = _game([4, 4, 4, 4, 1] * 2, n=2)
    game.roll()
    game.set_held(0b01111)
    game.score(ID("fours"))
    state = game.to_state()
    equal(state["last"], [0, ID("fours"), 0, 0b01111, 1, 4, 4, 4, 4, 1])
    again = G.Game.from_state(state, ScriptedDice([]))
    again.undo()
    equal(again.dice, [4, 4, 4, 4, 1])
    equal(again.held, 0b01111)
    equal(again.players[0].card[ID("fours")], R.OPEN)
    # A save without it (written before undo, or after a roll): nothing to take back.
    del state["last"]
    raises(G.GameError, G.Game.from_state(state, ScriptedDice([])).undo)
    # Damaged: another seat's, an open box, dice out of range, a bonus the card lacks.
    for bad in (
        [1, ID("fours"), 0, 0, 1, 4, 4, 4, 4, 1],
        [0, ID("fives"), 0, 0, 1, 4, 4, 4, 4, 1],
        [0, ID("fours"), 0, 0, 1, 4, 4, 4, 4, 7],
        [0, ID("fours"), 100, 0, 1, 4, 4, 4, 4, 1],
        [0, ID("fours"), 0, 0, 0, 4, 4, 4, 4, 1],
        [0, ID("fours"), 0, 0, 1, 4, 4, 4, 4],
    ):
        state["last"] = bad
        raises(G.GameError, G.Game.from_state, state, ScriptedDice([]))
