"""The device advisor's optimal play, vectorised over many games at once (host, numpy).

``firmware/strategy_advisor.py`` plays one game in fixed point (units of 2**-18 points) from the
strategy table. Simulating 100,000s of games through it on CPython takes hours, so this
module runs the same arithmetic on numpy int64 arrays with one column per game: the same
table values (decoded from the file the device reads), the same successor values, the
same integer averages ``(sum + 3) // 6``, the same sub-keep maxima and the same tie
rule (the first best hold mask, the first best box). Every point still comes from
firmware/rules.py (through ``core.Tables``). tests/strategy/test_win_meter.py checks decisions
against the device code position by position.
"""

import numpy as np

from host_tools.solver import core

import game  # noqa: E402  (firmware modules; core put firmware/ on the path)
import rules  # noqa: E402
import strategy_dice  # noqa: E402
import strategy_table  # noqa: E402

FRAC = strategy_table.FRAC
NEG = -(1 << 40)
FIRST = strategy_dice.FIRST_ROLL
N_CODES = 7776  # ordered dice: sum (d_i - 1) * 6**i


def fixed_values(dense):
    """Float dense values decoded from a table file (multiples of 2**-18) -> int64."""
    return np.round(np.asarray(dense) * (1 << FRAC)).astype(np.int64)


def dice_code(dice):
    """Ordered dice (list of 5 faces) -> code 0..7775."""
    code = 0
    for i in range(4, -1, -1):
        code = code * 6 + dice[i] - 1
    return code


class FastAdvisor:
    """Per-turn dynamic programme of firmware/strategy_advisor.py for arrays of states."""

    def __init__(self, ruleset, fixed, tables=None):
        self.rules = ruleset
        self.V = fixed
        self.t = tables or core.Tables(ruleset)
        t = self.t
        ks = t.keeps
        self.child = t.child
        self.parent = t.parent
        self.n_parents = np.array(ks.n_parents, dtype=np.intp)
        # hold_keep[code, hold]: keep index of the dice of ``code`` held by ``hold``.
        hk = np.zeros((N_CODES, 32), dtype=np.intp)
        digits = np.array([[(c // 6**i) % 6 for i in range(5)] for c in range(N_CODES)])
        self.digits = digits
        for hold in range(1, 32):
            top = hold.bit_length() - 1
            hk[:, hold] = t.child[hk[:, hold ^ (1 << top)], digits[:, top]]
        self.hold_keep = hk
        self.roll_of = hk[:, game.ALL_HELD] - FIRST  # code -> roll index 0..251
        self.base = t.base  # (252, 13) box points with every box open
        self.counts = t.counts  # (252, 7)
        self.yz_rolls = np.array(t.yz_rolls)
        self.is_yz_roll = np.zeros(strategy_dice.N_ROLLS, dtype=bool)
        self.is_yz_roll[self.yz_rolls] = True
        self.face_of_yz = np.zeros(strategy_dice.N_ROLLS, dtype=np.intp)
        self.face_of_yz[self.yz_rolls] = np.arange(6)
        self.yz_box = t.yz_box

    # -- per turn -----------------------------------------------------------------
    def successors(self, mask, up, yz):
        """Fixed-point values of scoring in each open box (advisor._successors):
        ``upper`` (6, 6, G) by box and count, ``lower`` (13, G) for lower boxes after a
        zero, ``yzg`` (2, G) Yahtzee box scored 0 / 50; NEG where the box is used."""
        V = self.V
        g = len(mask)
        bonus = self.rules.upper_bonus
        upper = np.full((6, 6, g), NEG, dtype=np.int64)
        lower = np.full((13, g), NEG, dtype=np.int64)
        yzg = np.full((2, g), NEG, dtype=np.int64)
        for b in range(6):
            is_open = (mask >> b & 1) == 0
            after = mask | (1 << b)
            for c in range(6):
                pts = (b + 1) * c
                up2 = up + pts
                gain = pts + bonus * ((up < 63) & (up2 >= 63))
                v = (gain << FRAC) + V[core.dense_index(after, np.minimum(up2, 63), yz)]
                upper[b, c] = np.where(is_open, v, NEG)
        for b in range(6, 13):
            is_open = (mask >> b & 1) == 0
            after = mask | (1 << b)
            if b == self.yz_box:
                yzg[0] = np.where(is_open, V[core.dense_index(after, up, 0)], NEG)
                yzg[1] = np.where(is_open, (50 << FRAC) + V[core.dense_index(after, up, 1)], NEG)
            else:
                lower[b] = np.where(is_open, V[core.dense_index(after, up, yz)], NEG)
        return upper, lower, yzg

    def box_values(self, succ, b, points):
        """Fixed-point value of ``points`` (array over games) in box ``b``."""
        upper, lower, yzg = succ
        cols = np.arange(points.shape[-1])
        if b < 6:
            if np.any((points % (b + 1) != 0) | (points > 5 * (b + 1))):
                raise ValueError("upper box points that are not face x count")
            return upper[b, np.clip(points // (b + 1), 0, 5), cols]
        if b == self.yz_box:
            return np.where(points == 50, yzg[1], yzg[0])
        return (points << FRAC) + lower[b]

    def joker(self, mask, yz, face):
        """(scores (G, 13) with -1 for boxes not allowed, bonus (G,)) of five ``face``s
        (index 0-5) on cards with the Yahtzee box filled (rules.py via core.Tables)."""
        return self.t.joker[mask, yz, face], self.t.bonus[mask, yz, face]

    def final_roll(self, mask, up, yz, succ):
        """(252, G): the best box value of every roll (advisor._final_roll)."""
        upper, lower, yzg = succ
        g = len(mask)
        k3 = np.full((strategy_dice.N_ROLLS, g), NEG, dtype=np.int64)
        for b in range(6):
            np.maximum(k3, upper[b][self.counts[:, b + 1]], out=k3)
        for b in range(6, 13):
            if b == self.yz_box:
                v = np.where((self.base[:, b] == 50)[:, None], yzg[1][None, :], yzg[0][None, :])
            else:
                v = (self.base[:, b].astype(np.int64) << FRAC)[:, None] + lower[b][None, :]
            np.maximum(k3, v, out=k3)
        on = (mask >> self.yz_box & 1) == 1
        if on.any():
            cols = np.nonzero(on)[0]
            sub = tuple(a[..., cols] for a in succ)
            for i, r in enumerate(self.yz_rolls):
                sc, bon = self.joker(mask[cols], yz[cols], i)
                best = np.full(len(cols), NEG, dtype=np.int64)
                for b in range(13):
                    pts = sc[:, b]
                    ok = pts >= 0
                    if ok.any():
                        v = self.box_values(sub, b, np.maximum(pts, 0)) + (bon << FRAC)
                        np.maximum(best, np.where(ok, v, NEG), out=best)
                k3[r, cols] = best
        return k3

    def expect(self, K):
        """Rows 0..209 := exact-integer average over one more die (advisor.expect)."""
        child = self.child
        starts = strategy_dice.SIZE_START
        for size in range(4, -1, -1):
            s, e = starts[size], starts[size + 1]
            acc = K[child[s:e, 0]].copy()
            for f in range(1, 6):
                acc += K[child[s:e, f]]
            K[s:e] = (acc + 3) // 6

    def subset_max(self, K):
        """A new array: max of K over each keep and its sub-keeps (advisor.subset_max)."""
        M = K.copy()
        starts = strategy_dice.SIZE_START
        for size in range(1, 6):
            s, e = starts[size], starts[size + 1]
            for j in range(5):
                np.maximum(M[s:e], M[self.parent[s:e, j]], out=M[s:e])
        return M

    def prepare(self, mask, up, yz):
        """(k3, k2, succ) for G states: keep values with no roll / one roll after them
        (rows 210.. of k3: the final roll's best box), as advisor.prepare leaves them."""
        succ = self.successors(mask, up, yz)
        g = len(mask)
        k3 = np.empty((strategy_dice.N_KEEPS, g), dtype=np.int64)
        k3[FIRST:] = self.final_roll(mask, up, yz, succ)
        self.expect(k3)
        k2 = self.subset_max(k3)
        self.expect(k2)
        return k3, k2, succ

    def start_values(self, k2):
        """Expected points still to come at the turn start (advisor.expected_total minus
        the card's total), fixed point, (G,)."""
        m = self.subset_max(k2)
        self.expect(m)
        return m[0]

    # -- decisions ------------------------------------------------------------------
    def hold_values(self, k, codes):
        """(G, 32): the value of every hold mask for the dice ``codes`` under keep values
        ``k`` (k3 with one roll left, k2 with two)."""
        return k[self.hold_keep[codes], np.arange(len(codes))[:, None]]

    def best_hold(self, k, codes):
        return np.argmax(self.hold_values(k, codes), axis=1)

    def box_options(self, mask, yz, codes, succ):
        """(scores (G, 13) with -1 where not allowed, bonus (G,), values (G, 13) fixed
        point with NEG where not allowed) of scoring the dice ``codes`` now."""
        g = len(codes)
        r = self.roll_of[codes]
        scores = np.where(((mask[:, None] >> np.arange(13)) & 1) == 0, self.base[r], -1)
        bonus = np.zeros(g, dtype=np.int64)
        jok = self.is_yz_roll[r] & ((mask >> self.yz_box & 1) == 1)
        if jok.any():
            sc, bon = self.joker(mask[jok], yz[jok], self.face_of_yz[r[jok]])
            scores[jok] = sc
            bonus[jok] = bon
        values = np.full((g, 13), NEG, dtype=np.int64)
        for b in range(13):
            ok = scores[:, b] >= 0
            v = self.box_values(succ, b, np.maximum(scores[:, b], 0)) + (bonus << FRAC)
            values[:, b] = np.where(ok, v, NEG)
        return scores, bonus, values


class Cards:
    """G cards as arrays: used-box mask, capped upper subtotal, Yahtzee-box-50 flag and
    the running total (every point rules.totals would count)."""

    def __init__(self, g):
        self.mask = np.zeros(g, dtype=np.int64)
        self.up = np.zeros(g, dtype=np.int64)
        self.yz = np.zeros(g, dtype=np.int64)
        self.total = np.zeros(g, dtype=np.int64)

    def score(self, ruleset, yz_box, box, scores, bonus):
        g = np.arange(len(box))
        pts = scores[g, box]
        upper = box < 6
        up2 = self.up + np.where(upper, pts, 0)
        crossed = upper & (self.up < ruleset.upper_threshold) & (up2 >= ruleset.upper_threshold)
        self.total += pts + bonus + ruleset.upper_bonus * crossed
        self.up = np.minimum(up2, 63)
        self.yz = np.where(box == yz_box, (pts == 50).astype(np.int64), self.yz)
        self.mask |= np.int64(1) << box


def roll(rng, codes, hold):
    """Reroll the dice of ``codes`` not held in ``hold`` (bit i keeps die i)."""
    out = codes.copy()
    g = len(codes)
    for i in range(5):
        fresh = rng.integers(0, 6, size=g)
        keep = (hold >> i) & 1
        digit = (codes // 6**i) % 6
        out += np.where(keep == 1, 0, (fresh - digit) * 6**i)
    return out


def play_turn(fa, cards, rng, chooser=None):
    """One turn of optimal play (or of ``chooser``) for every card; updates ``cards``.
    ``chooser(stage, k, codes, succ)`` -> hold masks (stage 2, 1) or boxes (stage 0)
    may replace the advisor's first-best choice."""
    k3, k2, succ = fa.prepare(cards.mask, cards.up, cards.yz)
    g = len(cards.mask)
    codes = rng.integers(0, N_CODES, size=g)
    for rolls_left, k in ((2, k2), (1, k3)):
        hold = fa.best_hold(k, codes) if chooser is None else chooser(rolls_left, k, codes, succ)
        codes = roll(rng, codes, hold)
    scores, bonus, values = fa.box_options(cards.mask, cards.yz, codes, succ)
    box = np.argmax(values, axis=1) if chooser is None else chooser(0, values, codes, succ)
    cards.score(fa.rules, fa.yz_box, box, scores, bonus)


def solo_games(fa, g, rng):
    """``g`` games of optimal play. Returns (states, final): states (4, 13, g) = mask,
    up, yz, total at the start of each turn; final (g,) totals."""
    cards = Cards(g)
    states = np.zeros((4, 13, g), dtype=np.int64)
    for turn in range(13):
        states[:, turn] = cards.mask, cards.up, cards.yz, cards.total
        play_turn(fa, cards, rng)
    return states, cards.total.copy()


def check_card_total(ruleset, card):
    """rules.totals of a firmware card (for tests comparing with ``Cards.total``)."""
    return rules.totals(ruleset, card)[4]
