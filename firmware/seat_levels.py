"""The advisor levels' decisions: ``optimal`` and weaker, human-like levels.

Decisions only, like seats.py's simple strategy: seats.py picks a seat's strategy
and plays its turn.

Pure functions over the advisor's option list (values best first, fixed point): a level
adds random noise of a calibrated size to every option's expected total and takes the
largest, so it mostly plays well and sometimes picks a close second, rarely a blunder.
Noise sizes were calibrated on the host (host_tools/benches/strategy.py, which prints the
measured averages) to cost about 10 and 30 points per game against optimal play on the
standard card. Another card scales them by what optimal play scores on it (the table's
value of the empty card, ``advisor.card_value()``) over the standard card's: the same noise
on the 85-point Zoo card made ``good`` play below the simple strategy (docs/rules_zoo.md).
The random source is injected: anything with ``randint(a, b)`` (the game's dice source).

``perfect`` is the optimal level alone on a challenge's dice (game_challenge.py): the
figure a challenge game's players see beside theirs at its end, and the game ``python -m
host_tools challenge CODE`` prints. Here, not in a module of its own: on the device a file
over about 500 bytes takes a whole 4 KB flash block, and this one has room in its block.
"""

from micropython import const

import rules
import strategy_table

LEVELS = ("optimal", "good", "casual")
# Noise span in tenths of a point per level on the standard card (uniform 0..span added
# to each option's value; scaled on other cards, see choose).
NOISE = (0, 40, 87)
# Measured expected points lost per game against optimal play (bench_strategy).
EXPECTED_LOSS = (0, 10, 30)
_FRAC = strategy_table.FRAC
_RANDOM_BITS = const(10)
_KEEP_ALL = const(0x1F)  # game.ALL_HELD: the hold code that keeps every die, scoring now
# The standard card's optimal expected score in sixteenths of a point (254.59): the card
# NOISE was calibrated on. Scales in 1/256: forced, free and ordered round to 256 (the
# calibrated noise exactly), none 255, without Yahtzee bonuses 247, Zoo 85.
_STANDARD_SIXTEENTHS = const(4073)
STANDARD_VALUE = _STANDARD_SIXTEENTHS << (_FRAC - 4)  # the same, fixed point


def level_index(level):
    """Index of a level name in LEVELS; ValueError for an unknown one."""
    for i in range(len(LEVELS)):
        if LEVELS[i] == level:
            return i
    raise ValueError("unknown computer level %r (levels: %s)" % (level, ", ".join(LEVELS)))


def choose(level, values, n, source, card_value=STANDARD_VALUE):
    """Index of the option a ``level`` (index into LEVELS) player takes among the first
    ``n`` of ``values`` (best first) on a card where optimal play scores ``card_value``
    (fixed point; advisor.card_value()). Optimal always takes index 0 and draws nothing."""
    span = NOISE[level]
    if span == 0 or n < 2:
        return 0
    # The card's scale in 1/256 (256 on the standard card), then one step of the 10-bit
    # draw in fixed point: exactly the unscaled step at 256; times 1023 a small int.
    scale = ((card_value >> (_FRAC - 4)) * 256 + (_STANDARD_SIXTEENTHS >> 1)) // _STANDARD_SIXTEENTHS
    unit = ((span << (_FRAC - _RANDOM_BITS)) * scale) // (10 << 8)
    best = 0
    best_value = values[0] + source.randint(0, (1 << _RANDOM_BITS) - 1) * unit
    for i in range(1, n):
        v = values[i] + source.randint(0, (1 << _RANDOM_BITS) - 1) * unit
        if v > best_value:
            best = i
            best_value = v
    return best


def choose_hold(advisor, level, card, dice, rolls_left, source, codes, values):
    """Hold mask (bit i keeps dice[i]) before the next roll, or -1 to stop and score.
    ``codes``/``values``: option buffers of 32 entries made once by the caller."""
    advisor.ensure(card)
    n = advisor.options(dice, rolls_left, codes, values)
    pick = codes[choose(level, values, n, source, advisor.card_value())]
    return -1 if pick == _KEEP_ALL else pick


def choose_box(advisor, level, card, dice, source, codes, values):
    """The box index to fill with ``dice`` (the turn's last decision)."""
    advisor.ensure(card)
    n = advisor.options(dice, 0, codes, values)
    return codes[choose(level, values, n, source, advisor.card_value())]


def perfect(advisor, number, die, codes, values, log=None):
    """The optimal game on the dice of challenge ``number`` (game_challenge.code_number;
    ``die`` is game_challenge.challenge_die) with ``advisor`` (its table's optimal play),
    as a generator: a part a ``next``, each round's turn prepared, then its rolls and
    decisions (for the scheduler on the device). Its value (``yield from``, or
    StopIteration's) is the final total. ``log`` (a list) gets a round each: ``[faces,
    hold, faces, hold, faces, box, points]``, the faces as rolled (a hold of 31 keeps them
    all: the turn scored there, so the round's list is shorter)."""
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
