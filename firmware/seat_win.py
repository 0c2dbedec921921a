"""The ``win`` computer level: each decision maximises the chance to win, not the score.

Pure apart from the two tables (value table through the advisor, spread table). Once
per turn ``prepare(card, others)`` prices every way the turn can end: scoring points p
in open box b leads to a known total and a known next state, whose expected remaining
score (value table) and spread (spread table) give, through strategy_win_meter's model, the
chance that this player finishes ahead of every opponent as they stand now (their
totals, expected remaining scores and spreads). With one opponent that is the meter's
own two-player chance; with two or three it is the product of the chances of beating
each one (an approximation: it treats those events as independent).

A turn's holds then maximise the expected chance exactly as the advisor maximises the
expected score: the same keep tables, integer averages and sub-keep maxima (the
advisor's turn kernel, through its public names; this level is the pricer its
``best_rolls`` calls: ``price`` and ``lower_into``) over keys ``chance * 8 + tie``,
where ``tie`` (quarter points, 0..2047 around 1024) is the option's expected points from
here on against what the turn was expected to bring. A unit of chance (1/16384) weighs as
much as 2 expected points, so chances within a few units of each other count as equal
and the expected score decides between them: a player who has won already scores the
Yahtzee it rolled, and one far ahead or far behind still plays sensible Yahtzee. A
larger difference in chance decides alone (0.1 % outweighs 33 points). The key is linear
in both, so the advisor's averages and maxima price exactly this. Buffers are made once;
a turn allocates nothing.
"""

from array import array
import micropython
from micropython import const

import rules
import strategy_win_meter

_FRAC = const(18)
_ONE = const(16384)  # strategy_win_meter.ONE: a chance of 1
_N_KEEPS = const(462)
_FIRST_ROLL = const(210)
_N_ROLLS = const(252)
_UNIT = const(8)  # quarter points a unit of chance weighs (2 points): the key's chance step
_TIE_MID = const(1024)  # the tie of an option worth what the turn was expected to bring
_TIE_MAX = const(2047)
_LOWER_POINTS = const(51)  # lower-box points 0..50 (a Yahtzee's 50 is the largest)
_NEG = const(-1)
_FULL = const(0x1FFF)  # rules.ALL_BOXES
_ROW = const(31)  # rules.UPPER_ROW
_UPPER_CAP = const(63)  # strategy_table.UPPER_CAP


class WinLevel:
    """Plays for the win for one ruleset, from an ``strategy_advisor.Advisor`` (its value table
    and keep tables) and a ``strategy_spread.SpreadTable``."""

    def __init__(self, adv, spread):
        self.adv = adv
        self.spread = spread
        self._k3 = array("i", bytes(4 * _N_KEEPS))
        self._m = array("i", bytes(4 * _N_KEEPS))
        self._k2 = array("i", bytes(4 * _N_KEEPS))
        self._ukey = array("i", bytes(4 * 6 * _ROW))  # box * _ROW + points -> key
        self._lkey = array("i", bytes(4 * 7 * _LOWER_POINTS))  # (box - 6) * 51 + points
        self._lsd = array("i", bytes(4 * 13))  # lower box -> sd after it (sixteenths)
        self._lzero = array("i", bytes(4 * 13))  # lower box -> key of scoring 0 there
        self._ysd = array("i", bytes(4 * 2))  # Yahtzee box scored 0 / 50 -> sd after
        self._opp_c = array("i", bytes(4 * 3))  # opponents: expected final (sixteenths)
        self._opp_s = array("i", bytes(4 * 3))  # opponents: spread, meter-scaled
        self._n_opp = 0
        self._sigma = array("i", bytes(4 * 3))  # per opponent: sqrt(mine^2 + theirs^2)
        self._sigma_of = -1  # the spread ``_sigma`` was computed for
        self._factors = strategy_win_meter.FACTORS[0]
        self._used = 0
        self._seen = array("h", bytes(2 * 14 * 4))  # the cards of the prepared turn
        self._seen_n = 0
        self._ready = False  # the programme (_programme) is made for the set-up cards
        self._base = 0  # quarter points the turn's state is worth (the ties' middle)

    def ensure(self, card, others):
        """``prepare(card, others)`` unless these very cards are prepared already (a
        computer seat asks once per roll; the turn's programme is made once)."""
        if not self._same(card, others):
            self._setup(card, others)
        if not self._ready:
            self._programme()

    def ensure_step(self, card, others):
        """``ensure`` in two calls, for a computer's decision split across frames: False
        when this call did work (the set-up, then the programme), True when prepared."""
        if not self._same(card, others):
            self._setup(card, others)
            return False
        if not self._ready:
            self._programme()
            return False
        return True

    def _same(self, card, others):
        """Whether ``card`` and ``others`` are the cards set up last; records them."""
        seen = self._seen
        same = self._seen_n == len(others) + 1
        for j in range(len(others) + 1):
            c = card if j == 0 else others[j - 1]
            for i in range(14):
                if seen[j * 14 + i] != c[i]:
                    seen[j * 14 + i] = c[i]
                    same = False
        return same

    # -- per turn ---------------------------------------------------------------------
    # prepare, _key, box_key and lower_into (with the advisor's best_rolls, expect and
    # subset_max) are native code: the same integer arithmetic, compiled for the device by
    # flash, to keep a decision within its budget (docs/figures.md, bench chip); the price
    # is a larger .mpy, loaded into RAM when the level is first used.
    def prepare(self, card, others):
        """The turn's dynamic programme for ``card`` against the cards in ``others``
        (1-3 opponents, each a 14-int card)."""
        self._same(card, others)
        self._setup(card, others)
        self._programme()

    @micropython.native
    def _setup(self, card, others):
        """The first half of ``prepare``: the opponents' outlook and every box's key."""
        self._seen_n = 0  # _same() recorded the cards: valid once the set-up is complete
        self._ready = False
        adv = self.adv
        spread = self.spread
        table = adv.table
        n_opp = len(others)
        if not 1 <= n_opp <= 3:
            raise ValueError("1 to 3 opponents, not %d" % n_opp)
        self._n_opp = n_opp
        self._sigma_of = -1
        factors = strategy_win_meter.FACTORS[n_opp - 1]
        self._factors = factors
        for j in range(n_opp):
            other = others[j]
            used = strategy_win_meter.outlook(table, spread, other, self._opp_c, self._opp_s, j)
            self._opp_c[j] += rules.totals(adv.rules, other)[4] << 4
            self._opp_s[j] = (self._opp_s[j] * factors[used] + 128) >> 8
        adv.load(card)
        mask = adv.mask
        self._base = table.value(mask, adv.up, adv.yz) >> (_FRAC - 2)
        used = 0
        for b in range(13):
            if mask >> b & 1:
                used += 1
        self._used = used
        for i in range(7 * _LOWER_POINTS):
            self._lkey[i] = _NEG
        for i in range(adv.n_upper):
            b = adv.open_upper[i]
            after = mask | (1 << b)
            spread.load_block(after, adv.yz)
            for c in range(6):
                p = (b + 1) * c
                up2 = adv.up + p
                sd = 0 if after == _FULL else spread.block_sd(up2 if up2 < _UPPER_CAP else _UPPER_CAP)
                self._ukey[b * _ROW + p] = self._key(adv.upper_gain[b * _ROW + p], sd)
        for i in range(adv.n_lower):
            b = adv.open_lower[i]
            after = mask | (1 << b)
            if after == _FULL:
                self._lsd[b] = self._ysd[0] = self._ysd[1] = 0
            elif b == rules.YAHTZEE:
                self._ysd[0] = spread.sd(after, adv.up, 0)
                self._ysd[1] = spread.sd(after, adv.up, 1)
            else:
                self._lsd[b] = spread.sd(after, adv.up, adv.yz)
        for i in range(adv.n_lower):
            b = adv.open_lower[i]
            self._lzero[b] = self.box_key(b, 0, 0)
        self._seen_n = n_opp + 1

    @micropython.native
    def _programme(self):
        """The second half of ``prepare``: the turn's rolls priced by chance to win."""
        adv = self.adv
        adv.best_rolls(self._k3, self._ukey, self._lzero, self)  # k3[roll]: the best key of each roll
        adv.expect(self._k3)
        adv.subset_max(self._k3, self._m)
        adv.expect(self._m)
        self._k2, self._m = self._m, self._k2
        self._ready = True

    @micropython.native
    def _key(self, value, sd):
        """Key of ending the turn with fixed-point ``value`` (points this turn plus the
        expected remaining score after it) and spread ``sd`` (sixteenths) afterwards."""
        adv = self.adv
        centre = (adv.total << 4) + (
            (value + (1 << (_FRAC - 5))) >> (_FRAC - 4)
        )  # strategy_win_meter.from_fixed, inline: one call less per key
        mine = (sd * self._factors[self._used + 1] + 128) >> 8
        chance = _ONE
        phi = strategy_win_meter.phi  # one lookup, not one per opponent
        sig = self._sigma
        if mine != self._sigma_of:  # a box's keys share one spread: one square root
            for j in range(self._n_opp):
                s = self._opp_s[j]
                sig[j] = strategy_win_meter.isqrt(mine * mine + s * s)
            self._sigma_of = mine
        opp_c = self._opp_c
        for j in range(self._n_opp):
            sigma = sig[j]
            d = centre - opp_c[j]
            if sigma > 0:
                p = phi(d, sigma)
            else:
                p = _ONE if d > 0 else (_ONE >> 1 if d == 0 else 0)
            chance = (chance * p) >> 14
        tie = (value >> (_FRAC - 2)) - self._base + _TIE_MID  # the card's total is the same for all
        if tie > _TIE_MAX:
            tie = _TIE_MAX
        elif tie < 0:
            tie = 0
        return chance * _UNIT + tie

    @micropython.native
    def box_key(self, b, points, extra):
        """Key of scoring ``points`` in open box ``b`` now, ``extra`` = Yahtzee bonus."""
        adv = self.adv
        if b < 6:
            if extra == 0 and points % (b + 1) == 0 and points <= 5 * (b + 1):
                return self._ukey[b * _ROW + points]
            after = adv.mask | (1 << b)
            up2 = adv.up + points
            sd = 0 if after == _FULL else self.spread.sd(after, up2 if up2 < _UPPER_CAP else _UPPER_CAP, adv.yz)
            return self._key(adv.price(b, points, extra), sd)
        if b == rules.YAHTZEE:
            return self._key(adv.price(b, points, extra), self._ysd[1 if points == 50 else 0])
        if extra == 0:
            at = (b - 6) * _LOWER_POINTS + points
            key = self._lkey[at]
            if key < 0:
                key = self._key(adv.price(b, points, 0), self._lsd[b])
                self._lkey[at] = key
            return key
        return self._key(adv.price(b, points, extra), self._lsd[b])

    price = box_key  # the pricing advisor.best_rolls asks of its pricer

    @micropython.native
    def lower_into(self, k3, yz_box):
        """k3[roll] := max(k3[roll], key of scoring the roll in an open lower box other
        than ``yz_box``) at the rolls where it scores; each distinct points value of a box
        is priced once (about 26 per box) and remembered in ``_lkey``."""
        adv = self.adv
        lkey = self._lkey
        score = adv.roll_points
        scoring = adv.scoring
        starts = adv.scoring_start
        for i in range(adv.n_lower):
            b = adv.open_lower[i]
            if b == yz_box:
                continue
            at = (b - 6) * _LOWER_POINTS
            for j in range(starts[b], starts[b + 1]):
                r = scoring[j]
                p = score[r * 13 + b]
                v = lkey[at + p]
                if v < 0:
                    v = self.box_key(b, p, 0)
                if v > k3[_FIRST_ROLL + r]:
                    k3[_FIRST_ROLL + r] = v

    # -- decisions ---------------------------------------------------------------------
    def hold(self, dice, rolls_left):
        """The first best hold mask (bit i keeps dice[i]) with 1 or 2 rolls left; 31 =
        keep all (score now)."""
        k = self._k3 if rolls_left == 1 else self._k2
        keeps = self.adv.keeps
        best = -1
        best_hold = 0
        for hold in range(32):
            v = k[keeps.of_dice(dice, hold)]
            if v > best:
                best = v
                best_hold = hold
        return best_hold

    def box(self, dice):
        """The first best box to score ``dice`` in."""
        adv = self.adv
        out = adv.out
        rules.score_options(adv.rules, adv.card, dice, out)
        extra = rules.yahtzee_bonus_for(adv.rules, adv.card, dice)
        best = -1
        best_box = -1
        for b in range(13):
            if out[b] >= 0:
                v = self.box_key(b, out[b], extra)
                if v > best:
                    best = v
                    best_box = b
        return best_box

    def chance(self, key):
        """The chance to win (units of strategy_win_meter.ONE) inside a key: exact for an
        option worth the turn's expected score, off by a unit per 2 points it differs."""
        chance = (key - _TIE_MID + (_UNIT >> 1)) // _UNIT
        return 0 if chance < 0 else (_ONE if chance > _ONE else chance)

    def hold_key(self, dice, rolls_left, hold):
        return (self._k3 if rolls_left == 1 else self._k2)[self.adv.keeps.of_dice(dice, hold)]
