"""firmware/strategy_win_meter.py's chances, vectorised over games (host, numpy int64).

The same integer arithmetic as the device (table lookups, shifts, floor divisions), one
column per game, so a calibration over 100,000s of games measures the device's own
predictions. tests/strategy/test_win_meter.py compares the two on thousands of positions.
"""

import numpy as np

import host_tools

host_tools.use_firmware()
import strategy_win_meter as W  # noqa: E402

ONE = W.ONE
_PHI = np.array(W._PHI, dtype=np.int64)
_WEIGHTS = np.array(W._W, dtype=np.int64)


def isqrt(n):
    n = np.asarray(n, dtype=np.int64)
    s = np.floor(np.sqrt(n.astype(np.float64))).astype(np.int64)
    s = np.where(s * s > n, s - 1, s)
    return np.where((s + 1) * (s + 1) <= n, s + 1, s)


def phi(num, den):
    neg = num < 0
    a = np.abs(num)
    z = (a << 6) // np.maximum(den, 1)
    k = np.minimum(z >> 3, 32)
    nxt = np.minimum(k + 1, 33)
    p = np.where(z >> 3 >= 32, ONE, _PHI[k] + (((_PHI[nxt] - _PHI[k]) * (z & 7)) >> 3))
    return np.where(neg, ONE - p, p)


def _below(x, centre, sd):
    step = np.where(x > centre, ONE, np.where(x == centre, ONE >> 1, 0))
    return np.where(sd > 0, phi(x - centre, sd), step)


def chances(totals, means, sds, used, factors=None):
    """(n, G) int64 arrays -> ((n, G) chances in units of ONE, (G,) decided flags).
    ``factors``: spread factors by used boxes (default the device's for n players)."""
    totals = np.asarray(totals, dtype=np.int64)
    means = np.asarray(means, dtype=np.int64)
    sds = np.asarray(sds, dtype=np.int64)
    n, g = totals.shape
    decided = (sds == 0).all(axis=0)
    if factors is None:
        factors = W.FACTORS[n - 2]
    sds = (sds * np.asarray(factors, dtype=np.int64)[np.asarray(used)] + 128) >> 8
    centre = (totals << 4) + means
    if n == 2:
        d = centre[0] - centre[1]
        sigma = isqrt(sds[0] * sds[0] + sds[1] * sds[1])
        p0 = phi(d, sigma)
        out = np.stack([p0, ONE - p0])
    else:
        out = np.zeros((n, g), dtype=np.int64)
        for i in range(n):
            point = np.full(g, ONE, dtype=np.int64)
            for j in range(n):
                if j != i:
                    point = (point * _below(centre[i], centre[j], sds[j])) >> 14
            spread = np.zeros(g, dtype=np.int64)
            for k in range(len(_WEIGHTS)):
                x = centre[i] + (((k - 16) * sds[i]) >> 2)
                prod = np.full(g, ONE, dtype=np.int64)
                for j in range(n):
                    if j != i:
                        prod = (prod * _below(x, centre[j], sds[j])) >> 14
                spread += _WEIGHTS[k] * prod
            out[i] = np.where(sds[i] == 0, point, spread >> 14)
        total = out.sum(axis=0)
        out = np.where(total > 0, (out * ONE) // np.maximum(total, 1), ONE // n)
    out = np.clip(out, W._LOW, W._HIGH)
    best = totals.max(axis=0)
    top = totals == best
    exact = np.where(top, ONE // top.sum(axis=0), 0)
    return np.where(decided, exact, out), decided
