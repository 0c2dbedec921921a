"""On-device optimal-play advisor: the best hold or box and every option's expected total.

Pure apart from the value table, which arrives as an open ``StrategyTable`` (so tests and
the desktop ``advise`` command inject their own file). ``prepare(card)`` does the
within-turn dynamic programming once per turn from the ~13-50 table entries the turn can
reach; every decision of the turn is then a lookup. Hot loops use small-int fixed point
(units of 2**-FRAC points, FRAC = strategy_table.FRAC): the RP2040 has no FPU and boxes
floats on the heap. All arrays are made in the constructor; ``prepare`` and ``options``
allocate nothing per die or per roll. The card's shape comes from the ruleset: 13 boxes
and a bonus at 63, or the Zoo card's 11 boxes (1 point per animal, bonus at 18, no
Yahtzee flag: no bonus and no joker there).
"""

from array import array
import micropython
from micropython import const

import rules
import strategy_dice
import strategy_table

FRAC = strategy_table.FRAC
_NEG = const(-(1 << 29))
_N_KEEPS = const(462)
_N_ROLLS = const(252)
_FIRST_ROLL = const(210)
_HALF6 = const(3)  # rounding for the exact-integer average of six outcomes
_PART_ROLLS = const(18)  # rolls scored per part of the set-up (step; 252 / 14)
_YZ_BIT = const(11)  # the table keeps a "Yahtzee box holds 50" flag for this box only
_ROW = const(31)  # rules.UPPER_ROW


class Advisor:
    """Optimal play for one ruleset from one value table.

    After ``prepare(card)``: ``options(dice, rolls_left, codes, values)`` fills the option
    list best first; ``expected_total()`` gives the expected final total at the turn start.

    The turn kernel, shared with the to-win level (seat_win.py) and the coach; these
    public names are its whole interface (everything with a leading ``_`` is internal):

    - made once: ``keeps`` (strategy_dice.Keeps); ``roll_points[roll * n_boxes + box]``,
      the points of each of the 252 rolls on an all-open card; per box ``b``, the rolls
      where it scores: ``scoring[scoring_start[b]:scoring_start[b + 1]]``; ``out``, a
      scratch list of n_boxes for rules.score_options.
    - after ``load(card)``: ``card`` (a copy), ``mask`` (filled boxes), ``up`` (upper
      points, capped), ``yz`` (Yahtzee box holds 50), ``total``; the open boxes
      ``open_upper[:n_upper]``, ``open_lower[:n_lower]``; ``upper_gain[b * _ROW + points]``,
      the value of scoring ``points`` in open upper box ``b``; ``price(b, points, extra)``.
    - the programme's steps on keep arrays (462 ints): ``best_rolls(k3, upper, lower0,
      pricer)`` prices the final rolls through a pricer (this advisor, or any object with
      ``price`` and ``lower_into``); ``expect(k)`` and ``subset_max(k, m)``.
    """

    def __init__(self, ruleset, table, later=False):
        """``later``: nothing is made yet; ``parts`` (a generator) makes it a part a
        ``next`` (the app's scheduler runs one a frame, so the set-up, the longest piece
        of work the game does, is no single long stretch). Without it the advisor is made
        here, whole."""
        self.parts = self._make(ruleset, table)
        if not later:
            for _ in self.parts:
                pass

    def _make(self, ruleset, table):
        """The set-up in parts, a yield between two (first those of a ``later`` table's
        checks, ``table.parts``); when it ends the advisor is whole."""
        yield from table.parts
        if not table.matches(ruleset, rules.JOKERS):
            raise ValueError("strategy table is for %s, not %s" % (table.ruleset_name, ruleset.name))
        self.rules = ruleset
        self.table = table
        nb = ruleset.n_boxes
        self._nb = nb
        self._full = (1 << nb) - 1
        self._th = ruleset.upper_threshold
        self._yzb = ruleset.yahtzee_box
        self._yz_points = ruleset.boxes[self._yzb][3]
        # The yz flag (Yahtzee box at 50) matters for the bonus and the joker; the table
        # keeps it for box _YZ_BIT only, which is the standard card's Yahtzee box.
        self._track_yz = self._yzb == _YZ_BIT
        # Points per die of each upper box: its face, or the card's fixed points (Zoo: 1).
        self._per_die = bytearray(6)
        for b in range(6):
            self._per_die[b] = ruleset.boxes[b][3] or ruleset.boxes[b][2]
        self.keeps = strategy_dice.Keeps(True)
        keeps = self.keeps
        yield
        yield from keeps.fill()
        # Box points of every roll on an all-open card (joker rolls are redone per turn).
        self.roll_points = bytearray(_N_ROLLS * nb)
        faces = [0] * 5
        out = [0] * nb
        card = rules.new_card(ruleset)
        self._yz_rolls = bytearray(6)
        n_yz = 0
        for part in range(0, _N_ROLLS, _PART_ROLLS):
            for r in range(part, part + _PART_ROLLS):
                keeps.faces(_FIRST_ROLL + r, faces)
                rules.score_options(ruleset, card, faces, out)
                for b in range(nb):
                    self.roll_points[r * nb + b] = out[b]
                if faces[0] == faces[4]:
                    self._yz_rolls[n_yz] = r
                    n_yz += 1
            yield
        self._faces = faces
        self.out = out
        # Per box, the rolls where it scores points (on an all-open card), box-major.
        self.scoring_start = array("H", bytes(2 * (nb + 1)))
        n = 0
        for b in range(nb):
            self.scoring_start[b] = n
            for r in range(_N_ROLLS):
                if self.roll_points[r * nb + b]:
                    n += 1
        yield
        self.scoring_start[nb] = n
        self.scoring = bytearray(n)
        n = 0
        for b in range(nb):
            for r in range(_N_ROLLS):
                if self.roll_points[r * nb + b]:
                    self.scoring[n] = r
                    n += 1
        yield
        keeps.key = None  # only needed while building; 1.8 KB back (keeps.faces unusable now)
        # Per-turn successor values (fixed point, points of the box included).
        self._lower_gain = array("i", bytes(4 * nb))  # box -> value of scoring 0 there
        self.upper_gain = array("i", bytes(4 * 6 * _ROW))  # box * 31 + points -> value
        self._yz_gain = array("i", bytes(4 * 2))  # Yahtzee box scored 0 / 50
        self.open_lower = bytearray(7)
        self.open_upper = bytearray(6)
        self._zero_box = bytearray(13)  # best_rolls: open boxes, best zero first
        self._zero = array("i", bytes(4 * 13))  # ... and the price of that zero
        self._k3 = array("i", bytes(4 * _N_KEEPS))  # keep -> value with no roll after it
        self._m = array("i", bytes(4 * _N_KEEPS))  # scratch: max over sub-keeps
        self._k2 = array("i", bytes(4 * _N_KEEPS))  # keep -> value with one roll after it
        self._hold_keep = array("H", bytes(2 * 32))  # hold mask -> keep index
        self._stamp = array("H", bytes(2 * _N_KEEPS))  # keep -> call number that listed it
        self._calls = 0
        self.card = [0] * (nb + 1)
        self._have_start = False
        self.mask = self.up = self.yz = 0
        self.total = 0
        self._prepared = False

    # -- per turn ---------------------------------------------------------------------
    def prepare(self, card):
        """Run the turn's dynamic programming for ``card`` (rules.new_card(ruleset))."""
        self.load(card)
        self.best_rolls(self._k3, self.upper_gain, self._lower_gain, self)  # k3: best box per roll
        self.expect(self._k3)
        self.subset_max(self._k3, self._m)
        self.expect(self._m)  # rows 210.. hold E2 (best per roll), rows below become K2
        self._k2, self._m = self._m, self._k2
        self._have_start = False
        self._prepared = True

    def load(self, card):
        """Read the turn's successor values for ``card`` (no dynamic programming; the
        to-win level, seat_win.py, runs its own on them). Forgets a prepared turn on
        another card (the same card's stays valid: its successors are the same)."""
        nb = self._nb
        keep = self._prepared
        if keep:
            for i in range(nb + 1):
                if self.card[i] != card[i]:
                    keep = False
                    break
        self._prepared = False
        mask = 0
        up = 0
        for b in range(nb):
            if card[b] != rules.OPEN:
                mask |= 1 << b
                if b < 6:
                    up += card[b]
        if mask == self._full:
            raise ValueError("the card is full: no turn left")
        for i in range(nb + 1):
            self.card[i] = card[i]
        yz = 1 if self._track_yz and card[self._yzb] == self._yz_points else 0
        self.mask = mask
        th = self._th
        self.up = up if up < th else th
        self.yz = yz
        self.total = rules.totals(self.rules, card)[4]
        self._successors()
        self._prepared = keep

    def ensure(self, card):
        """``prepare(card)`` unless this very card is already prepared (cheap check)."""
        if self._prepared:
            same = True
            for i in range(self._nb + 1):
                if self.card[i] != card[i]:
                    same = False
                    break
            if same:
                return
        self.prepare(card)

    def _successors(self):
        """Read the table values this turn can lead to: one block (2-3 reads) per open box,
        two for the Yahtzee box; 13-50 values in all."""
        table = self.table
        mask = self.mask
        up = self.up
        yz = self.yz
        bonus = self.rules.upper_bonus
        th = self._th
        yz_box = self._yzb if self._track_yz else -1
        n_lower = n_upper = 0
        for b in range(self._nb):
            if mask >> b & 1:
                continue
            after = mask | (1 << b)
            if b < 6:
                self.open_upper[n_upper] = b
                n_upper += 1
                per_die = self._per_die[b]
                table.load_block(after, yz)
                for c in range(6):
                    points = per_die * c
                    up2 = up + points
                    if up2 >= th:
                        if up < th:
                            points += bonus
                        up2 = th
                    self.upper_gain[b * _ROW + per_die * c] = (points << FRAC) + table.block_value(up2)
            elif b == yz_box:
                table.load_block(after, 0)
                self._yz_gain[0] = table.block_value(up)
                self._lower_gain[b] = self._yz_gain[0]  # its 0, like the other lower boxes
                table.load_block(after, 1)
                self._yz_gain[1] = (self._yz_points << FRAC) + table.block_value(up)
                self.open_lower[n_lower] = b
                n_lower += 1
            else:
                table.load_block(after, yz)
                self._lower_gain[b] = table.block_value(up)
                self.open_lower[n_lower] = b
                n_lower += 1
        self.n_lower = n_lower
        self.n_upper = n_upper
        # A joker or bonus needs a filled Yahtzee box (docs/rules.md); otherwise five of a kind
        # is an ordinary roll and the tables above already score it.
        self._joker_on = self._track_yz and mask >> self._yzb & 1

    def price(self, b, points, extra):
        """Fixed-point value of scoring ``points`` in open box ``b`` now, ``extra`` = the
        Yahtzee bonus it brings (also the pricing ``best_rolls`` asks of its pricer)."""
        if b < 6:
            per_die = self._per_die[b]
            if points % per_die == 0 and points <= 5 * per_die:
                return self.upper_gain[b * _ROW + points] + (extra << FRAC)
            return self._upper_odd(b, points) + (extra << FRAC)
        if b == self._yzb and self._track_yz:
            return self._yz_gain[1 if points == self._yz_points else 0] + (extra << FRAC)
        return (points + extra << FRAC) + self._lower_gain[b]

    def _upper_odd(self, b, points):
        # An upper box scoring something other than face x count (no ruleset does so
        # today; kept exact instead of guessed).
        up2 = self.up + points
        gain = points
        th = self._th
        if up2 >= th:
            if self.up < th:
                gain += self.rules.upper_bonus
            up2 = th
        return (gain << FRAC) + self.table.value(self.mask | (1 << b), up2, self.yz)

    def lower_into(self, k3, yz_box):
        """k3[roll] := max(k3[roll], value of scoring the roll in an open lower box other
        than ``yz_box``) at the rolls where it scores: the points plus a per-box constant."""
        score = self.roll_points
        scoring = self.scoring
        starts = self.scoring_start
        nb = self._nb
        for i in range(self.n_lower):
            b = self.open_lower[i]
            if b == yz_box:
                continue
            gain = self._lower_gain[b]
            for j in range(starts[b], starts[b + 1]):
                r = scoring[j]
                v = (score[r * nb + b] << FRAC) + gain
                if v > k3[_FIRST_ROLL + r]:
                    k3[_FIRST_ROLL + r] = v

    @micropython.native
    def best_rolls(self, k3, upper, lower0, pricer):
        """k3[roll] := the best price of each of the 252 rolls, for the turn ``load`` read.

        One computation for two pricings: values here, chance-to-win keys in the to-win
        level (seat_win.py). ``upper[b * _ROW + points]`` prices the upper boxes and
        ``lower0[b]`` a 0 in lower box ``b``; ``pricer.price(b, points, extra)`` any box
        (the Yahtzee box's 50, the joker rolls) and ``pricer.lower_into(k3, yz_box)`` the
        rolls where the other open lower boxes score (one call: calls cost).
        Scoring 0 in a box is worth a constant per box, so every roll starts from the best
        zero it can legally take: the best-priced open box where it scores nothing (a box
        where it scores takes its points; a zero there is no option, and under the win
        level's pricing it can be worth more than every legal one); each box then visits
        only the rolls where it scores (``scoring`` lists, about 1,200 visits instead of
        252 x open boxes). Five-of-a-kind rolls are redone last: the rules module decides
        joker boxes, points and bonus (docs/rules.md: only with a filled Yahtzee box;
        otherwise they are ordinary rolls).
        """
        score = self.roll_points
        scoring = self.scoring
        starts = self.scoring_start
        nb = self._nb
        yz_box = self._yzb if self._track_yz else -1
        # The open boxes by the price of a zero there, best first (insertion: <= 13).
        zero_box = self._zero_box
        zero = self._zero
        n_lower = self.n_lower
        n = 0
        for i in range(n_lower + self.n_upper):
            if i < n_lower:
                b = self.open_lower[i]
                v = lower0[b]
            else:
                b = self.open_upper[i - n_lower]
                v = upper[b * _ROW]
            j = n
            while j > 0 and zero[j - 1] < v:
                zero[j] = zero[j - 1]
                zero_box[j] = zero_box[j - 1]
                j -= 1
            zero[j] = v
            zero_box[j] = b
            n += 1
        # A roll scores nothing in the best box unless it is on that box's scoring list:
        # only those look further down the order.
        best = zero[0]
        for r in range(_FIRST_ROLL, _N_KEEPS):
            k3[r] = best
        b = zero_box[0]
        for j in range(starts[b], starts[b + 1]):
            r = scoring[j]
            at = r * nb
            best = _NEG
            for i in range(1, n):
                if score[at + zero_box[i]] == 0:
                    best = zero[i]
                    break
            k3[_FIRST_ROLL + r] = best
        pricer.lower_into(k3, yz_box)
        if yz_box >= 0 and not self.mask >> yz_box & 1:
            v = pricer.price(yz_box, self._yz_points, 0)
            for j in range(starts[yz_box], starts[yz_box + 1]):
                r = scoring[j]
                if v > k3[_FIRST_ROLL + r]:
                    k3[_FIRST_ROLL + r] = v
        for i in range(self.n_upper):
            b = self.open_upper[i]
            at = b * _ROW
            for j in range(starts[b], starts[b + 1]):
                r = scoring[j]
                v = upper[at + score[r * nb + b]]
                if v > k3[_FIRST_ROLL + r]:
                    k3[_FIRST_ROLL + r] = v
        if not self._joker_on:
            return
        out = self.out
        faces = self._faces
        for i in range(6):
            for j in range(5):
                faces[j] = i + 1
            rules.score_options(self.rules, self.card, faces, out)
            extra = rules.yahtzee_bonus_for(self.rules, self.card, faces)
            best = _NEG
            for b in range(nb):
                if out[b] >= 0:
                    v = pricer.price(b, out[b], extra)
                    if v > best:
                        best = v
            k3[_FIRST_ROLL + self._yz_rolls[i]] = best

    # Native code (same integer results): the two loops of every turn's programme, shared
    # with the win level (seat_win.py has the measurement on the emulated RP2040).
    @micropython.native
    def expect(self, k):
        """k[keep] for keeps of 0-4 dice := the average over one more die (exact ints)."""
        child = self.keeps.child
        for i in range(_FIRST_ROLL - 1, -1, -1):
            c = i * 6
            k[i] = (
                k[child[c]]
                + k[child[c + 1]]
                + k[child[c + 2]]
                + k[child[c + 3]]
                + k[child[c + 4]]
                + k[child[c + 5]]
                + _HALF6
            ) // 6

    @micropython.native
    def subset_max(self, k, m):
        """m[keep] := max of k over the keep and all its sub-keeps."""
        parent = self.keeps.parent
        n_parents = self.keeps.n_parents
        m[0] = k[0]
        for i in range(1, _N_KEEPS):
            best = k[i]
            p = i * 5
            for j in range(p, p + n_parents[i]):
                v = m[parent[j]]
                if v > best:
                    best = v
            m[i] = best

    # -- answers -----------------------------------------------------------------------
    def card_value(self):
        """Optimal play's expected final total from the empty card (fixed point): what a
        game on this card is worth; the computer levels scale their noise by it. Read
        (and checked) when the table was opened: no read in a computer's decision."""
        return self.table.empty_value

    def expected_total(self):
        """Expected final total (fixed point) at the start of the prepared turn."""
        if not self._prepared:
            raise ValueError("prepare(card) first")
        if not self._have_start:
            self.subset_max(self._k2, self._m)
            self.expect(self._m)
            self._start = self._m[0]
            self._have_start = True
        return (self.total << FRAC) + self._start

    def hold_value(self, dice, rolls_left, hold):
        """Expected final total (fixed point) of keeping the dice in ``hold`` (bit mask)
        with 1 or 2 rolls left: for the coach, to price the hold the player chose."""
        if not self._prepared:
            raise ValueError("prepare(card) first")
        k = self._k3 if rolls_left == 1 else self._k2
        return (self.total << FRAC) + k[self.keeps.of_dice(dice, hold)]

    def options(self, dice, rolls_left, codes, values):
        """Fill ``codes``/``values`` best first; returns how many options.

        With rolls left: codes are hold masks (bit i = keep dice[i]; one mask per distinct
        set of kept dice; 31 = keep all = score now). On the last roll (rolls_left 0):
        codes are box indices. Values: expected final total, fixed point.
        """
        if not self._prepared:
            raise ValueError("prepare(card) first")
        rules.check_dice(dice)
        base = self.total << FRAC
        n = 0
        if rolls_left == 0:
            out = self.out
            rules.score_options(self.rules, self.card, dice, out)
            extra = rules.yahtzee_bonus_for(self.rules, self.card, dice)
            for b in range(self._nb):
                if out[b] >= 0:
                    n = _insert(codes, values, n, b, base + self.price(b, out[b], extra))
            return n
        if rolls_left == 1:
            k = self._k3
        elif rolls_left == 2:
            k = self._k2
        else:
            raise ValueError("rolls left must be 0, 1 or 2, not %r" % (rolls_left,))
        self._calls += 1
        if self._calls > 65535:  # stamps wrap: forget them all once in 65535 calls
            for i in range(_N_KEEPS):
                self._stamp[i] = 0
            self._calls = 1
        call = self._calls
        stamp = self._stamp
        hold_keep = self._hold_keep
        child = self.keeps.child
        hold_keep[0] = 0
        top = 0
        for hold in range(1, 32):
            if hold >> (top + 1):
                top += 1  # highest held position: the hold is hold_keep[rest] + that die
            keep = child[hold_keep[hold ^ (1 << top)] * 6 + dice[top] - 1]
            hold_keep[hold] = keep
        for hold in range(32):
            keep = hold_keep[hold]
            if stamp[keep] == call:
                continue  # the same dice kept by an earlier mask
            stamp[keep] = call
            n = _insert(codes, values, n, hold, base + k[keep])
        return n


def _insert(codes, values, n, code, value):
    """Insert into the first n entries kept best first (stable: earlier wins ties)."""
    i = n
    while i > 0 and values[i - 1] < value:
        codes[i] = codes[i - 1]
        values[i] = values[i - 1]
        i -= 1
    codes[i] = code
    values[i] = value
    return n + 1


def to_points(value):
    """Fixed-point value -> float points (for hosts and displays that have floats)."""
    return value / (1 << FRAC)


def tenths(value):
    """Fixed-point value -> whole tenths of a point, rounded (for the OLED, no floats)."""
    return (value * 10 + (1 << (FRAC - 1))) >> FRAC
