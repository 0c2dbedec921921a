"""Computer players: a simple, reasonable Yahtzee strategy. Pure (no I/O, no randomness).

The fallback of players.py: computer seats play it when no strategy table is loaded, and
so do kinds that are not advisor levels (older saves' "cpu"); with a table the levels in
strategy_players.py make the same two decisions, ``choose_hold`` and ``choose_box``.
Box indices follow rules.BOX_IDS: 0-5 aces..sixes, 6 three_kind, 7 four_kind,
8 full_house, 9 small_straight, 10 large_straight, 11 yahtzee, 12 chance.
"""
from micropython import const
import rules

_FULL_HOUSE = const(8)
_SMALL = const(9)
_LARGE = const(10)
_YAHTZEE = const(11)
_ALL_HELD = const(31)
# What a box is "worth" on average: scoring below par costs, above par gains. Upper
# boxes par at three of the face (that path reaches the 63 bonus).
_PAR = (3, 6, 9, 12, 15, 18, 20, 12, 15, 18, 12, 10, 22)

_options = [0] * 13  # scratch, filled by rules.score_options


def choose_box(ruleset, card, dice, options=None):
    """The open box to score now: the largest gain over par (ties: the later box)."""
    if options is None:
        options = _options
        rules.score_options(ruleset, card, dice, options)
    best = -1
    best_gain = -1000
    for box in range(13):
        points = options[box]
        if points < 0:
            continue
        gain = points - _PAR[box]
        if gain >= best_gain:
            best_gain = gain
            best = box
    return best


def _run_mask(dice, length):
    """Mask holding one die of each face in a run of ``length`` faces, or 0."""
    for start in range(7 - length, 0, -1):
        mask = 0
        for face in range(start, start + length):
            for i in range(5):
                if dice[i] == face and not mask & (1 << i):
                    mask |= 1 << i
                    break
            else:
                mask = -1
                break
        if mask > 0:
            return mask
    return 0


def choose_hold(ruleset, card, dice, rolls):
    """The dice to keep (bit mask) before the next roll, or -1 to stop and score now."""
    if rolls >= 3:
        return -1
    options = _options
    rules.score_options(ruleset, card, dice, options)
    if options[_YAHTZEE] == 50 or options[_LARGE] == 40 or options[_FULL_HOUSE] == 25:
        return -1
    if card[_LARGE] == rules.OPEN:
        if options[_SMALL] == 30:
            mask = _run_mask(dice, 4)
            if mask:
                return mask
    counts = [0] * 7
    for face in dice:
        counts[face] += 1
    face = 6
    for f in range(5, 0, -1):
        if counts[f] > counts[face]:
            face = f
    straights_open = card[_SMALL] == rules.OPEN or card[_LARGE] == rules.OPEN
    if counts[face] < 3 and straights_open:
        mask = _run_mask(dice, 3)
        if mask:
            return mask
    if counts[face] < 2:
        return 0
    mask = 0
    for i in range(5):
        if dice[i] == face:
            mask |= 1 << i
    return -1 if mask == _ALL_HELD else mask
