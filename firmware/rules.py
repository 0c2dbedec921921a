"""Yahtzee rules as data, and the table-driven scorer that reads them.

Pure: no machine, time, random or I/O, so this same file runs on the Pico, in pytest,
in the host tools and in the strategy solver. A ruleset is a table of boxes plus a few
flags; a variant is new data, not new control flow (see docs/rules.md).

Two cards exist: the standard Yahtzee card (13 boxes, four joker options) and the kids'
Zoo card (11 boxes, animals instead of pips; its table is in rules_zoo.py, see
docs/rules_zoo.md). A card is a plain list of
``rules.n_boxes + 1`` small ints: boxes hold their points or ``OPEN``; the last entry
(``rules.bonus_at``) holds the Yahtzee bonus points earned so far. Everything that depends
on the card (box count, upper boxes, thresholds, names) is an attribute of the Ruleset,
never a constant elsewhere.
"""

from micropython import const

OPEN = const(-1)
# The standard card's shape. N_BOXES is also the largest card: buffers of N_BOXES ints
# (made once) serve every ruleset; loops run over ``rules.n_boxes``.
N_BOXES = const(13)
N_UPPER = const(6)
BONUS = const(13)
ALL_BOXES = const(0x1FFF)  # the used-box mask of a full standard card
UPPER_ROW = const(31)  # an upper box scores 0..30 (five of its face): price tables keep 31 a box

# Box kinds; a box is (id, kind, param, points). ``points`` = 0 means "the dice":
# the sum of all five, or for FACE the face's own value per die.
FACE = const(0)  # param: the face; points per die showing it (0: the face value)
SAME = const(1)  # param: how many equal dice are needed
FULL_HOUSE = const(2)  # three of one face and two of another
STRAIGHT = const(3)  # param: length of the run of consecutive faces
CHANCE = const(4)  # anything
DIFFERENT = const(5)  # param: how many different faces are needed

BOXES = (
    ("aces", FACE, 1, 0),
    ("twos", FACE, 2, 0),
    ("threes", FACE, 3, 0),
    ("fours", FACE, 4, 0),
    ("fives", FACE, 5, 0),
    ("sixes", FACE, 6, 0),
    ("three_kind", SAME, 3, 0),
    ("four_kind", SAME, 4, 0),
    ("full_house", FULL_HOUSE, 0, 25),
    ("small_straight", STRAIGHT, 4, 30),
    ("large_straight", STRAIGHT, 5, 40),
    ("yahtzee", SAME, 5, 50),
    ("chance", CHANCE, 0, 0),
)
BOX_IDS = tuple(box[0] for box in BOXES)
YAHTZEE = const(11)

# The standard card: boxes, upper threshold, upper bonus, points per further Yahtzee,
# face names (None: the faces are numbers). The upper boxes are the leading FACE boxes;
# the Yahtzee box is the one needing five the same. The kids' Zoo card has the same shape
# in rules_zoo.py, imported only when a game uses it (its tables cost 2.7 KB of heap).
_STANDARD_CARD = (BOXES, 63, 35, 100, None)


def _card(card):
    if card == ZOO:
        import rules_zoo

        return rules_zoo.CARD
    return _STANDARD_CARD


# Joker rule (a Yahtzee rolled while the Yahtzee box is filled). Each option is a list of
# tiers tried in order: the legal boxes are the open boxes of the first tier that has any.
# A tier is a mask of boxes; _TIER_FACE stands for "the upper box of the rolled face".
_TIER_FACE = const(-1)
_UPPER_MASK = const(0x003F)
_KINDS_MASK = const(0x00C0)  # three_kind, four_kind
_LOWER_MASK = const(0x1FC0)
# When full house and the straights pay their fixed points under the joker.
_PAY_ALWAYS = const(0)
_PAY_IF_FACE_FILLED = const(1)

JOKERS = ("forced", "ordered", "free", "none")
# Every ruleset a player can pick (menu, ``--rules``): the joker options of the standard
# card, then the kids' card, which has no joker and no Yahtzee bonus.
CHOICES = JOKERS + ("zoo",)
ZOO = "zoo"
_JOKER_TABLE = {
    # docs/rules.md, forced: the face's upper box, else any open lower box, else any upper box.
    "forced": ((_TIER_FACE, _LOWER_MASK, _UPPER_MASK), _PAY_ALWAYS),
    # Seed 001's reading of the 2016 rulebook: three/four of a kind before the other lower boxes.
    "ordered": ((_TIER_FACE, _KINDS_MASK, _LOWER_MASK, _UPPER_MASK), _PAY_ALWAYS),
    # Verhoeff's convention: any open box; fixed boxes pay only if the face's box is filled.
    "free": ((ALL_BOXES,), _PAY_IF_FACE_FILLED),
    # No joker at all: a further Yahtzee scores like any other roll.
    "none": (None, _PAY_ALWAYS),
}


class Ruleset:
    """One rules variant: the box table plus the bonus and joker flags.

    ``choice`` is one of CHOICES: a joker option of the standard card, or "zoo" (the
    kids' card: its own table, no joker, no Yahtzee bonus; ``yahtzee_bonus`` is ignored).
    """

    def __init__(self, choice="forced", yahtzee_bonus=True):
        if choice == ZOO:
            card, joker = ZOO, "none"
        elif choice in _JOKER_TABLE:
            card, joker = "yahtzee", choice
        else:
            raise ValueError("unknown rules option %r (choose %s)" % (choice, "/".join(CHOICES)))
        boxes, self.upper_threshold, self.upper_bonus, bonus, self.faces = _card(card)
        self.card = card
        self.joker = joker
        self.joker_tiers, self.joker_pays = _JOKER_TABLE[joker]
        self.boxes = boxes
        self.ids = tuple(box[0] for box in boxes)  # the screens' names: lang.py, by id
        self.n_boxes = len(boxes)
        self.bonus_at = self.n_boxes  # card index of the Yahtzee bonus points
        n_upper = 0
        while n_upper < self.n_boxes and boxes[n_upper][1] == FACE:
            n_upper += 1
        self.n_upper = n_upper
        self.yahtzee_box = -1
        for box in range(self.n_boxes):
            if boxes[box][1] == SAME and boxes[box][2] == 5:
                self.yahtzee_box = box
        self.yahtzee_bonus = bonus if yahtzee_bonus else 0
        if card == ZOO:
            self.name = ZOO
        else:
            self.name = joker if yahtzee_bonus else joker + "-nobonus"
        self._counts = bytearray(7)  # scratch for score_options; index = face
        self._possible = None  # cache of possible_points()

    def face_name(self, face):
        """What a die showing ``face`` is called: its animal, or the number."""
        return self.faces[face - 1] if self.faces else str(face)

    def __repr__(self):
        return "Ruleset(%r)" % self.name


def make_ruleset(joker="forced", yahtzee_bonus=True):
    """``joker``: one of CHOICES (a joker option, or "zoo" for the kids' card)."""
    return Ruleset(joker, yahtzee_bonus)


def ruleset_from_name(name):
    """Inverse of ``Ruleset.name``: "forced", "free-nobonus", "zoo", ..."""
    if name.endswith("-nobonus") and name[:-8] in JOKERS:
        return Ruleset(name[:-8], False)
    return Ruleset(name, True)


def new_card(rules=None):
    """An empty card for ``rules`` (the standard card when None)."""
    return [OPEN] * (rules.n_boxes if rules is not None else N_BOXES) + [0]


def check_dice(dice):
    if len(dice) != 5:
        raise ValueError("need exactly five dice, got %d" % len(dice))
    for die in dice:
        if not isinstance(die, int) or die < 1 or die > 6:
            raise ValueError("a die shows 1-6, not %r" % (die,))


def score_options(rules, card, dice, out):
    """Fill ``out[0..n_boxes-1]`` with each box's points for ``dice``, or -1 where not
    allowed now; entries past the ruleset's boxes (``out`` made for the largest card) are
    -1 too, so a loop over the whole buffer never picks a box this card lacks.

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

    n_boxes = rules.n_boxes
    open_mask = 0
    for box in range(n_boxes):
        if card[box] == OPEN:
            open_mask |= 1 << box
    legal = open_mask
    joker = most == 5 and rules.joker_tiers is not None and card[rules.yahtzee_box] != OPEN
    pay_fixed = False
    if joker:
        face = dice[0]
        for tier in rules.joker_tiers:
            legal = open_mask & ((1 << (face - 1)) if tier == _TIER_FACE else tier)
            if legal:
                break
        pay_fixed = rules.joker_pays == _PAY_ALWAYS or card[face - 1] != OPEN

    boxes = rules.boxes
    for box in range(n_boxes):
        if not (legal >> box) & 1:
            out[box] = -1
            continue
        _id, kind, param, fixed = boxes[box]
        if kind == FACE:
            points = counts[param] * (fixed or param)
        elif kind == CHANCE:
            points = total
        else:
            if kind == SAME:
                met = most >= param
            elif kind == FULL_HOUSE:
                met = full_house or pay_fixed
            elif kind == DIFFERENT:
                met = distinct >= param
            else:
                met = longest >= param or pay_fixed
            points = (fixed or total) if met else 0
        out[box] = points
    for box in range(n_boxes, len(out)):
        out[box] = -1
    return joker


def yahtzee_bonus_for(rules, card, dice):
    """Bonus points scoring ``dice`` earns: a further Yahtzee when the Yahtzee box holds 50."""
    if not rules.yahtzee_bonus or card[rules.yahtzee_box] <= 0:
        return 0
    first = dice[0]
    for die in dice:
        if die != first:
            return 0
    return rules.yahtzee_bonus


def totals(rules, card):
    """(upper, upper_bonus, lower, yahtzee_bonus, grand) of a card; open boxes count 0."""
    upper = lower = 0
    n_upper = rules.n_upper
    for box in range(rules.n_boxes):
        points = card[box]
        if points > 0:
            if box < n_upper:
                upper += points
            else:
                lower += points
    bonus = rules.upper_bonus if upper >= rules.upper_threshold else 0
    extra = card[rules.bonus_at]
    return upper, bonus, lower, extra, upper + bonus + lower + extra


def card_bounds(card):
    """``(most_total, most_yahtzees)``: the highest final score and the most Yahtzees one
    player can reach on ``card`` ("yahtzee" or ZOO) under any of its options, read from
    its box table (every box at its best, both bonuses, a Yahtzee bonus in every further
    round). The records' shape checks use them, so a Zoo file cannot hold a 1500."""
    boxes, threshold, upper_bonus, step, _faces = _card(card)
    upper = lower = 0
    yahtzee = False
    for _id, kind, param, fixed in boxes:
        if kind == FACE:
            upper += 5 * (fixed or param)
        else:
            lower += fixed or 30  # a box paying the dice: five sixes at most
            yahtzee = yahtzee or (kind == SAME and param == 5)
    extra = len(boxes) - 1 if yahtzee and step else 0  # further Yahtzees, one per round
    top = upper + (upper_bonus if upper >= threshold else 0) + lower + extra * step
    return top, (1 + extra) if yahtzee else 0
