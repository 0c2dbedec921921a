"""Yahtzee rules as data, and the table-driven scorer that reads them.

Pure: no machine, time, random or I/O, so this same file runs on the Pico, in pytest,
in the host tools and in the strategy solver. A ruleset is a table of boxes plus a few
flags; a variant is new data, not new control flow (see ../shared/RULES.md).

A card is a plain list of 14 small ints: boxes 0..12 hold their points or ``OPEN``;
``card[BONUS]`` holds the Yahtzee bonus points earned so far.
"""
from micropython import const

OPEN = const(-1)
N_BOXES = const(13)
N_UPPER = const(6)
BONUS = const(13)

# Box kinds; a box is (id, label, kind, param, fixed points or 0 for "sum of the dice").
FACE = const(0)  # param: the face; points: face x how many show it
SAME = const(1)  # param: how many equal dice are needed
FULL_HOUSE = const(2)  # three of one face and two of another
STRAIGHT = const(3)  # param: length of the run of consecutive faces
CHANCE = const(4)  # anything

BOXES = (
    ("aces", "Aces", FACE, 1, 0),
    ("twos", "Twos", FACE, 2, 0),
    ("threes", "Threes", FACE, 3, 0),
    ("fours", "Fours", FACE, 4, 0),
    ("fives", "Fives", FACE, 5, 0),
    ("sixes", "Sixes", FACE, 6, 0),
    ("three_kind", "3 of a kind", SAME, 3, 0),
    ("four_kind", "4 of a kind", SAME, 4, 0),
    ("full_house", "Full house", FULL_HOUSE, 0, 25),
    ("small_straight", "Sm straight", STRAIGHT, 4, 30),
    ("large_straight", "Lg straight", STRAIGHT, 5, 40),
    ("yahtzee", "Yahtzee", SAME, 5, 50),
    ("chance", "Chance", CHANCE, 0, 0),
)
BOX_IDS = tuple(box[0] for box in BOXES)
YAHTZEE = const(11)

# Joker rule (a Yahtzee rolled while the Yahtzee box is filled). Each option is a list of
# tiers tried in order: the legal boxes are the open boxes of the first tier that has any.
# A tier is a mask of boxes; TIER_FACE stands for "the upper box of the rolled face".
TIER_FACE = const(-1)
_UPPER_MASK = const(0x003F)
_KINDS_MASK = const(0x00C0)  # three_kind, four_kind
_LOWER_MASK = const(0x1FC0)
_ALL_MASK = const(0x1FFF)
# When full house and the straights pay their fixed points under the joker.
PAY_ALWAYS = const(0)
PAY_IF_FACE_FILLED = const(1)

JOKERS = ("forced", "ordered", "free", "none")
_JOKER_TABLE = {
    # RULES.md steps 1-3: the face's upper box, else any open lower box, else any upper box.
    "forced": ((TIER_FACE, _LOWER_MASK, _UPPER_MASK), PAY_ALWAYS),
    # Seed 001's reading of the 2016 rulebook: three/four of a kind before the other lower boxes.
    "ordered": ((TIER_FACE, _KINDS_MASK, _LOWER_MASK, _UPPER_MASK), PAY_ALWAYS),
    # Verhoeff's convention: any open box; fixed boxes pay only if the face's box is filled.
    "free": ((_ALL_MASK,), PAY_IF_FACE_FILLED),
    # No joker at all: a further Yahtzee scores like any other roll.
    "none": (None, PAY_ALWAYS),
}


class Ruleset:
    """One rules variant: the box table plus the bonus and joker flags."""

    def __init__(self, joker="forced", yahtzee_bonus=True):
        if joker not in _JOKER_TABLE:
            raise ValueError("unknown joker option %r (choose %s)" % (joker, "/".join(JOKERS)))
        self.joker = joker
        self.joker_tiers, self.joker_pays = _JOKER_TABLE[joker]
        self.boxes = BOXES
        self.labels = tuple(box[1] for box in BOXES)
        self.upper_threshold = 63
        self.upper_bonus = 35
        self.yahtzee_bonus = 100 if yahtzee_bonus else 0
        self.name = joker if yahtzee_bonus else joker + "-nobonus"
        self._counts = bytearray(7)  # scratch for score_options; index = face
        self._possible = None  # cache of possible_points()

    def __repr__(self):
        return "Ruleset(%r)" % self.name


def make_ruleset(joker="forced", yahtzee_bonus=True):
    return Ruleset(joker, yahtzee_bonus)


def ruleset_from_name(name):
    """Inverse of ``Ruleset.name``: "forced", "free-nobonus", ..."""
    if name.endswith("-nobonus"):
        return Ruleset(name[:-8], False)
    return Ruleset(name, True)


def new_card():
    return [OPEN] * N_BOXES + [0]


def check_dice(dice):
    if len(dice) != 5:
        raise ValueError("need exactly five dice, got %d" % len(dice))
    for die in dice:
        if not isinstance(die, int) or die < 1 or die > 6:
            raise ValueError("a die shows 1-6, not %r" % (die,))


def score_options(rules, card, dice, out):
    """Fill ``out[0..12]`` with each box's points for ``dice``, or -1 where not allowed now.

    One pass over the face counts gives every box's points. Returns True when the joker
    rule applies to this roll.
    """
    check_dice(dice)
    counts = rules._counts
    for face in range(7):
        counts[face] = 0
    total = 0
    for die in dice:
        counts[die] += 1
        total += die
    most = run = longest = distinct = 0
    for face in range(1, 7):  # faces 1..6 only: never past the end of the counts
        n = counts[face]
        if n:
            distinct += 1
            run += 1
            if run > longest:
                longest = run
            if n > most:
                most = n
        else:
            run = 0
    full_house = most == 3 and distinct == 2

    open_mask = 0
    for box in range(N_BOXES):
        if card[box] == OPEN:
            open_mask |= 1 << box
    legal = open_mask
    joker = most == 5 and rules.joker_tiers is not None and card[YAHTZEE] != OPEN
    pay_fixed = False
    if joker:
        face = dice[0]
        for tier in rules.joker_tiers:
            legal = open_mask & ((1 << (face - 1)) if tier == TIER_FACE else tier)
            if legal:
                break
        pay_fixed = rules.joker_pays == PAY_ALWAYS or card[face - 1] != OPEN

    boxes = rules.boxes
    for box in range(N_BOXES):
        if not (legal >> box) & 1:
            out[box] = -1
            continue
        _id, _label, kind, param, fixed = boxes[box]
        if kind == FACE:
            points = counts[param] * param
        elif kind == CHANCE:
            points = total
        else:
            if kind == SAME:
                met = most >= param
            elif kind == FULL_HOUSE:
                met = full_house or pay_fixed
            else:
                met = longest >= param or pay_fixed
            points = (fixed or total) if met else 0
        out[box] = points
    return joker


def yahtzee_bonus_for(rules, card, dice):
    """Bonus points scoring ``dice`` earns: a further Yahtzee when the Yahtzee box holds 50."""
    if not rules.yahtzee_bonus or card[YAHTZEE] <= 0:
        return 0
    first = dice[0]
    for die in dice:
        if die != first:
            return 0
    return rules.yahtzee_bonus


def totals(rules, card):
    """(upper, upper_bonus, lower, yahtzee_bonus, grand) of a card; open boxes count 0."""
    upper = lower = 0
    for box in range(N_BOXES):
        points = card[box]
        if points > 0:
            if box < N_UPPER:
                upper += points
            else:
                lower += points
    bonus = rules.upper_bonus if upper >= rules.upper_threshold else 0
    return upper, bonus, lower, card[BONUS], upper + bonus + lower + card[BONUS]


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

    A list of 13 sorted lists, from one sweep over the 252 rolls on an empty card and on a
    card whose Yahtzee box is filled; computed once per ruleset.
    """
    if rules._possible is None:
        seen = [{0} for _box in range(N_BOXES)]
        out = [0] * N_BOXES
        yahtzee_filled = new_card()
        yahtzee_filled[YAHTZEE] = 50
        for card in (new_card(), yahtzee_filled):
            for roll in all_rolls():
                score_options(rules, card, roll, out)
                for box in range(N_BOXES):
                    if out[box] > 0:
                        seen[box].add(out[box])
        rules._possible = [sorted(points) for points in seen]
    return rules._possible


def check_card(rules, card):
    """Raise ValueError naming the first impossible entry of a card."""
    if len(card) != N_BOXES + 1:
        raise ValueError("a card has %d entries, not %d" % (N_BOXES + 1, len(card)))
    possible = possible_points(rules)
    for box in range(N_BOXES):
        points = card[box]
        if points != OPEN and points not in possible[box]:
            raise ValueError("%s can never hold %r points" % (BOX_IDS[box], points))
    bonus = card[BONUS]
    step = rules.yahtzee_bonus
    if bonus and (not step or card[YAHTZEE] != 50 or bonus % step or bonus > 12 * step):
        raise ValueError("a Yahtzee bonus of %r points is impossible on this card" % (bonus,))
