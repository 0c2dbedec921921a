"""A saved game rebuilt and checked: ``game.Game.from_state`` and the checks behind it.

Apart from game.py because it runs once per boot (the saved game, save_boot.py) and in
host tools: the save layer releases it afterwards (save_session.release), so its code
takes no RAM during play. Every number of a state is checked: the cards against every
score a box can hold (``check_card``), the turn's counters against the cards, the score
to take back against the turn after it; anything else is a ``game.GameError``.
"""

from micropython import const

import game as G
import rules as R

_STATE_VERSION = const(1)  # game._STATE_VERSION
_MAX_ROLLS = const(3)
_ALL_HELD = const(0x1F)  # game.ALL_HELD


def all_rolls():
    """The 252 distinct rolls of five dice, as ascending tuples, in lexicographic order."""
    rolls = []
    for a in range(1, 7):
        for b in range(a, 7):
            for c in range(b, 7):
                for d in range(c, 7):
                    for e in range(d, 7):
                        rolls.append((a, b, c, d, e))
    return rolls


def possible_points(rules):
    """Every score each box can ever hold under ``rules`` (joker payouts included).

    A list of ``n_boxes`` sorted lists, from one sweep over the 252 rolls on an empty card
    and on a card whose Yahtzee box is filled; computed once per ruleset.
    """
    if rules._possible is None:
        n_boxes = rules.n_boxes
        seen = [{0} for _box in range(n_boxes)]
        out = [0] * n_boxes
        yahtzee_filled = R.new_card(rules)
        yahtzee_filled[rules.yahtzee_box] = rules.boxes[rules.yahtzee_box][3]
        for card in (R.new_card(rules), yahtzee_filled):
            for roll in all_rolls():
                R.score_options(rules, card, roll, out)
                for box in range(n_boxes):
                    if out[box] > 0:
                        seen[box].add(out[box])
        rules._possible = [sorted(points) for points in seen]
    return rules._possible


def check_card(rules, card):
    """Raise ValueError naming the first impossible entry of a card."""
    n_boxes = rules.n_boxes
    if len(card) != n_boxes + 1:
        raise ValueError("a card has %d entries, not %d" % (len(card), n_boxes + 1))
    possible = possible_points(rules)
    for box in range(n_boxes):
        points = card[box]
        if points != R.OPEN and points not in possible[box]:
            raise ValueError("%s can never hold %r points" % (rules.ids[box], points))
    bonus = card[n_boxes]
    step = rules.yahtzee_bonus
    yz = rules.yahtzee_box
    if bonus and (
        bonus < 0 or not step or card[yz] != rules.boxes[yz][3] or bonus % step or bonus > (n_boxes - 1) * step
    ):
        raise ValueError("a Yahtzee bonus of %r points is impossible on this card" % (bonus,))


def rebuild(cls, state, dice_source):
    """``cls.from_state``: the game of ``state``; GameError naming what is wrong."""
    try:
        if state["v"] != _STATE_VERSION:
            raise G.GameError("saved game has format %r, not %d" % (state["v"], _STATE_VERSION))
        rules = R.ruleset_from_name(state["rules"])
        players = state["players"]
        game = cls(rules, [(p[0], p[1]) for p in players], dice_source, state.get("code"))
        for player, saved in zip(game.players, players):
            card = [int(x) for x in saved[2]]
            check_card(rules, card)
            player.card = card
        for name in ("phase", "round", "current", "first", "held", "rolls"):
            setattr(game, name, int(state[name]))
        game.contenders = [int(p) for p in state["contenders"]]
        game.dice = [int(d) for d in state["dice"]]
        last = state.get("last")
        if last is not None:
            game.last = [int(x) for x in last]
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        if isinstance(exc, G.GameError):
            raise
        raise G.GameError("saved game is damaged: %s" % (exc,))
    bad = _inconsistent(game)
    if bad:
        raise G.GameError("saved game is inconsistent: %s" % bad)
    return game


def _inconsistent(game):
    """What is wrong with a rebuilt game (None: nothing): every counter in range, the
    cards matching the turn, the score to take back matching the turn after it."""
    n = len(game.players)
    if game.phase not in (G.ROLLOFF, G.TURN, G.OVER):
        return "phase"
    if not (0 <= game.current < n and 0 <= game.first < n):
        return "player index"
    if not 0 <= game.rolls <= _MAX_ROLLS or not 0 <= game.held <= _ALL_HELD:
        return "roll count or holds"
    if len(game.dice) != 5 or any(not (0 <= d <= 6) for d in game.dice):
        return "dice"
    if (game.rolls == 0) != (game.dice[0] == 0) or (game.rolls and 0 in game.dice):
        return "dice for the roll count"
    if not game.contenders or any(not 0 <= p < n for p in game.contenders):
        return "roll-off contenders"
    if not 0 <= game.round <= game.rounds or (game.phase == G.OVER) != (game.round == game.rounds):
        return "round"
    for seat in range(n):
        player = (game.first + seat) % n
        played = game.round + (1 if seat < (game.current - game.first) % n else 0)
        if game.phase == G.OVER:
            played = game.rounds
        card = game.players[player].card
        filled = sum(1 for b in range(game.rules.n_boxes) if card[b] != R.OPEN)
        if filled != played:
            return "card of player %d" % (player + 1)
    last = game.last
    if last is None:
        return None
    # The score to take back: the last player's, before a roll, its box filled with no
    # more bonus than the card holds, the turn it was scored in a legal one.
    if len(last) != 10 or game.rolls or game.phase == G.ROLLOFF:
        return "score to take back"
    seat, box, bonus, held, rolls = last[0:5]
    if not (0 <= seat < n and (seat + 1) % n == game.current and 0 <= box < game.rules.n_boxes):
        return "score to take back"
    card = game.players[seat].card
    if card[box] == R.OPEN or not 0 <= bonus <= card[game.rules.bonus_at] or not 1 <= rolls <= _MAX_ROLLS:
        return "score to take back"
    if not 0 <= held <= _ALL_HELD or any(not 1 <= d <= 6 for d in last[5:]):
        return "score to take back"
    return None
