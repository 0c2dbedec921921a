"""The simple strategy: a computer seat's two decisions when there is no strategy table.

Pure (no I/O, no randomness), decisions only: seats.py plays the turn and picks this
strategy when no strategy table is loaded, and for kinds that are not advisor levels
(older saves' "cpu"); with a table the levels in seat_levels.py make the same two
decisions, ``choose_hold`` and ``choose_box``.
It reads the boxes from the ruleset's table (kinds, not positions), so it plays the
standard card and the Zoo card alike; only the par values are per card.
"""

from micropython import const
import rules

_ALL_HELD = const(31)
# What a box is "worth" on average: scoring below par costs, above par gains. Upper
# boxes par at three of the face (that path reaches the bonus: 63, or 18 on the Zoo card).
_PARS = {
    "yahtzee": (3, 6, 9, 12, 15, 18, 20, 12, 15, 18, 12, 10, 22),
    # monkey..lion, 3 the same, 4 the same, full house, all different, Zoo Yahtzy
    "zoo": (3, 3, 3, 3, 3, 3, 6, 6, 6, 8, 4),
}

_options = [0] * rules.N_BOXES  # scratch, filled by rules.score_options


def choose_box(ruleset, card, dice, options=None):
    """The open box to score now: the largest gain over par (ties: the later box)."""
    if options is None:
        options = _options
        rules.score_options(ruleset, card, dice, options)
    par = _PARS[ruleset.card]
    best = -1
    best_gain = -1000
    for box in range(ruleset.n_boxes):
        points = options[box]
        if points < 0:
            continue
        gain = points - par[box]
        if gain >= best_gain:
            best_gain = gain
            best = box
    return best


def _box(ruleset, kind, param):
    """Index of the box of ``kind`` (and ``param``, when not None), or -1."""
    for box in range(ruleset.n_boxes):
        entry = ruleset.boxes[box]
        if entry[1] == kind and (param is None or entry[2] == param):
            return box
    return -1


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
    # A made hand in an open box that pays fixed points: five the same, a 5-run, a full
    # house, all different.
    for box in (
        ruleset.yahtzee_box,
        _box(ruleset, rules.STRAIGHT, 5),
        _box(ruleset, rules.FULL_HOUSE, None),
        _box(ruleset, rules.DIFFERENT, None),
    ):
        if box >= 0 and options[box] > 0:
            return -1
    small = _box(ruleset, rules.STRAIGHT, 4)
    large = _box(ruleset, rules.STRAIGHT, 5)
    if large >= 0 and card[large] == rules.OPEN:
        if options[small] > 0:
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
    straights_open = small >= 0 and (card[small] == rules.OPEN or card[large] == rules.OPEN)
    if counts[face] < 3 and straights_open:
        mask = _run_mask(dice, 3)
        if mask:
            return mask
    different = _box(ruleset, rules.DIFFERENT, None)
    if different >= 0 and card[different] == rules.OPEN and counts[face] < 3:
        mask = _one_of_each(dice)
        if counts[face] == 1 or _popcount(mask) >= 4:
            return mask  # four different animals: one roll from all different
    if counts[face] < 2:
        return 0
    mask = 0
    for i in range(5):
        if dice[i] == face:
            mask |= 1 << i
    return -1 if mask == _ALL_HELD else mask


def _one_of_each(dice):
    """Mask keeping the first die of each face shown."""
    mask = 0
    seen = 0
    for i in range(5):
        bit = 1 << dice[i]
        if not seen & bit:
            seen |= bit
            mask |= 1 << i
    return mask


def _popcount(mask):
    n = 0
    while mask:
        n += mask & 1
        mask >>= 1
    return n
