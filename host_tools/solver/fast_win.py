"""firmware/seat_win.py (the ``win`` computer level) vectorised over games (numpy).

The same integer keys (chance * UNIT + tie) from the same table values, spreads and
meter arithmetic, then fast_play.FastAdvisor's integer averages and sub-keep maxima
(the advisor's), so decisions match the device's one for one
(tests/strategy/test_win_level.py). Used to measure the level head to head in many games.
"""

import numpy as np

from host_tools.solver import core
from host_tools.solver import fast_play
from host_tools.solver import meter

import strategy_dice  # noqa: E402  (firmware modules, on the path through core)
import strategy_win_meter as W  # noqa: E402

FRAC = fast_play.FRAC
NEG = -1
UNIT = 8  # seat_win's _UNIT, _TIE_MID and _TIE_MAX
TIE_MID = 1024
TIE_MAX = 2047


class FastWin:
    def __init__(self, fa, sd16):
        """``fa``: a FastAdvisor; ``sd16``: dense sd in sixteenths as the device reads
        it (spread.decode_sixteenths of the spread table)."""
        self.fa = fa
        self.sd = sd16

    def _centre_sd(self, mask, up, yz, total, factors, used):
        at = core.dense_index(mask, up, yz)
        centre = (total << 4) + ((self.fa.V[at] + (1 << 13)) >> 14)
        return centre, (self.sd[at] * factors[used] + 128) >> 8

    def key(self, value, sd, total, used, opp):
        """Keys (any shape ending in G) of ending the turn with ``value`` (fixed point:
        turn points + expected remaining) and ``sd`` after it (sixteenths)."""
        factors, opp_c, opp_s, base = opp
        centre = (total << 4) + ((value + (1 << 13)) >> 14)
        mine = (sd * factors[np.minimum(used + 1, 13)] + 128) >> 8
        chance = np.full(np.broadcast(centre, mine).shape, W.ONE, dtype=np.int64)
        for c, s in zip(opp_c, opp_s):
            sigma = meter.isqrt(mine * mine + s * s)
            d = centre - c
            step = np.where(d > 0, W.ONE, np.where(d == 0, W.ONE >> 1, 0))
            p = np.where(sigma > 0, meter.phi(d, np.maximum(sigma, 1)), step)
            chance = (chance * p) >> 14
        tie = np.clip((value >> (FRAC - 2)) - base + TIE_MID, 0, TIE_MAX)
        return chance * UNIT + tie

    def prepare(self, me, opps):
        """``me``, ``opps``: (mask, up, yz, total) arrays over G games. Returns
        (k3, k2, context) for ``hold`` and ``box``."""
        fa = self.fa
        mask, up, yz, total = me
        g = len(mask)
        factors = np.array(W.FACTORS[len(opps) - 1], dtype=np.int64)
        opp_c, opp_s = [], []
        for om, ou, oy, ot in opps:
            c, s = self._centre_sd(om, ou, oy, ot, factors, _popcount(om))
            opp_c.append(c)
            opp_s.append(s)
        base = self.fa.V[core.dense_index(mask, up, yz)] >> (FRAC - 2)  # the turn's expected worth
        opp = (factors, opp_c, opp_s, base)
        used = _popcount(mask)
        succ = fa.successors(mask, up, yz)
        upper, lower, yzg = succ
        sd = self.sd
        ukey = np.full((6, 6, g), NEG, dtype=np.int64)
        for b in range(6):
            is_open = (mask >> b & 1) == 0
            after = mask | (1 << b)
            for c in range(6):
                s = sd[core.dense_index(after, np.minimum(up + (b + 1) * c, 63), yz)]
                ukey[b, c] = np.where(is_open, self.key(upper[b, c], s, total, used, opp), NEG)
        lkey = np.full((13, 51, g), NEG, dtype=np.int64)
        points = np.arange(51, dtype=np.int64)[:, None]
        for b in range(6, 13):
            is_open = (mask >> b & 1) == 0
            after = mask | (1 << b)
            if b == fa.yz_box:
                for k in (0, 1):
                    s = sd[core.dense_index(after, up, k)]
                    v = self.key(yzg[k], s, total, used, opp)
                    lkey[b, 50 * k] = np.where(is_open, v, NEG)
            else:
                s = sd[core.dense_index(after, up, yz)]
                v = self.key((points << FRAC) + lower[b][None, :], s[None, :], total[None, :], used[None, :], opp)
                lkey[b] = np.where(is_open[None, :], v, NEG)
        k3 = np.full((strategy_dice.N_KEEPS, g), NEG, dtype=np.int64)
        rows = k3[fast_play.FIRST :]
        for b in range(6):
            np.maximum(rows, ukey[b][fa.counts[:, b + 1]], out=rows)
        for b in range(6, 13):
            np.maximum(rows, lkey[b][fa.base[:, b]], out=rows)
        ctx = (mask, up, yz, total, used, opp, succ)
        on = (mask >> fa.yz_box & 1) == 1
        if on.any():
            cols = np.nonzero(on)[0]
            for i, r in enumerate(fa.yz_rolls):
                sc, bon = fa.joker(mask[cols], yz[cols], i)
                k3[fast_play.FIRST + r, cols] = self._best_box(ctx, cols, sc, bon)[1]
        fa.expect(k3)
        k2 = fa.subset_max(k3)
        fa.expect(k2)
        return k3, k2, ctx

    def _box_keys(self, ctx, cols, scores, bonus):
        """(len(cols), 13) keys of the scores (-1: not allowed) on the games ``cols``."""
        mask, up, yz, total, used, opp, succ = ctx
        fa = self.fa
        sub = tuple(a[..., cols] for a in succ)
        factors, opp_c, opp_s, base = opp
        sub_opp = (factors, [c[cols] for c in opp_c], [s[cols] for s in opp_s], base[cols])
        m, u, y = mask[cols], up[cols], yz[cols]
        keys = np.full((len(cols), 13), NEG, dtype=np.int64)
        for b in range(13):
            pts = np.maximum(scores[:, b], 0)
            ok = scores[:, b] >= 0
            if not ok.any():
                continue
            value = fa.box_values(sub, b, pts) + (bonus << FRAC)
            after = m | (1 << b)
            if b < 6:
                s = self.sd[core.dense_index(after, np.minimum(u + pts, 63), y)]
            elif b == fa.yz_box:
                s = self.sd[core.dense_index(after, u, (pts == 50).astype(np.int64))]
            else:
                s = self.sd[core.dense_index(after, u, y)]
            keys[:, b] = np.where(ok, self.key(value, s, total[cols], used[cols], sub_opp), NEG)
        return keys

    def _best_box(self, ctx, cols, scores, bonus):
        keys = self._box_keys(ctx, cols, scores, bonus)
        box = np.argmax(keys, axis=1)
        return box, keys[np.arange(len(cols)), box]

    def hold(self, k, codes):
        return self.fa.best_hold(k, codes)

    def box(self, ctx, codes):
        mask, _up, yz, _total, _used, _opp, succ = ctx
        scores, bonus, _values = self.fa.box_options(mask, yz, codes, succ)
        box, _key = self._best_box(ctx, np.arange(len(codes)), scores, bonus)
        return box, scores, bonus


def _popcount(x):
    x = np.asarray(x, dtype=np.int64)
    n = np.zeros(x.shape, dtype=np.int64)
    for b in range(13):
        n += (x >> b) & 1
    return n


def play_win_turn(fw, cards, opp_cards, rng):
    """One turn of the win level for every game in ``cards`` against ``opp_cards``
    (a list of fast_play.Cards)."""
    me = (cards.mask, cards.up, cards.yz, cards.total)
    opps = [(o.mask, o.up, o.yz, o.total) for o in opp_cards]
    k3, k2, ctx = fw.prepare(me, opps)
    g = len(cards.mask)
    codes = rng.integers(0, fast_play.N_CODES, size=g)
    for k in (k2, k3):
        codes = fast_play.roll(rng, codes, fw.hold(k, codes))
    box, scores, bonus = fw.box(ctx, codes)
    cards.score(fw.fa.rules, fw.fa.yz_box, box, scores, bonus)


def head_to_head(fa, fw, games, rng):
    """``games`` two-player games, win level against optimal, the win level moving
    first in the first half and second in the other. Returns (outcome of the win
    level per game: 1, 0.5, 0; its finals; the optimal player's finals)."""
    finals_w, finals_o = [], []
    for first in (True, False):
        g = games // 2 if first else games - games // 2
        win, opt = fast_play.Cards(g), fast_play.Cards(g)
        for _round in range(13):
            if first:
                play_win_turn(fw, win, [opt], rng)
                fast_play.play_turn(fa, opt, rng)
            else:
                fast_play.play_turn(fa, opt, rng)
                play_win_turn(fw, win, [opt], rng)
        finals_w.append(win.total.copy())
        finals_o.append(opt.total.copy())
    fw_, fo = np.concatenate(finals_w), np.concatenate(finals_o)
    return np.where(fw_ > fo, 1.0, np.where(fw_ == fo, 0.5, 0.0)), fw_, fo
