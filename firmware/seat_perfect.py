"""The perfect player on a challenge's dice: the optimal strategy's solitaire game on the
dice of a challenge code (game.challenge_die), the figure a challenge game's players see
beside theirs at its end, and the game ``python -m host_tools challenge CODE`` prints.

Apart from seat_levels.py because only a challenge game's end needs it: the computers'
levels load without its code.
"""

from micropython import const

import rules

_KEEP_ALL = const(0x1F)  # game.ALL_HELD: the hold code that keeps every die, scoring now


def perfect(advisor, number, die, codes, values, log=None):
    """The optimal game on the dice of challenge ``number`` (game.code_number; ``die`` is
    game.challenge_die), as a generator: a part a ``next``, each round's turn prepared,
    then its rolls and decisions (the scheduler's job PERFECT on the device). Its value
    (``yield from``, or StopIteration's) is the final total. ``log`` (a list) gets a round
    each: ``[faces, hold, faces, hold, faces, box, points]``, the faces as rolled (a hold
    of 31 keeps them all: the turn scored there, so the round's list is shorter)."""
    ruleset = advisor.rules
    card = rules.new_card(ruleset)
    dice = [0, 0, 0, 0, 0]
    for turn in range(ruleset.n_boxes):
        advisor.prepare(card)
        yield  # the turn's programme, then its decisions: two parts
        held = 0
        line = [] if log is not None else None
        for roll in range(3):
            for i in range(5):
                if not held >> i & 1:
                    dice[i] = die(number, turn, roll, i)
            if line is not None:
                line.append(list(dice))
            if roll == 2:
                break
            advisor.options(dice, 2 - roll, codes, values)
            held = codes[0]
            if line is not None:
                line.append(held)
            if held == _KEEP_ALL:
                break
        advisor.options(dice, 0, codes, values)
        box = codes[0]
        rules.score_options(ruleset, card, dice, advisor.out)
        points = advisor.out[box]
        card[ruleset.bonus_at] += rules.yahtzee_bonus_for(ruleset, card, dice)
        card[box] = points
        if line is not None:
            line.append(box)
            line.append(points)
            log.append(line)
        yield
    return rules.totals(ruleset, card)[4]
