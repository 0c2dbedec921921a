"""The win meter: every player's chance to win from their totals and remaining-score model.

Pure and allocation-free (small ints only, no floats: the RP2040 has no FPU). Each
player's final total is modelled as total so far + R, R ~ Normal(mean, sd) where mean
and sd are the expected remaining score and its standard deviation under optimal play
(the strategy table and the spread table); players are independent.

The remaining score is heavier-tailed than a normal (Yahtzees and 100-point bonuses are
rare and large), so a normal with the true sd overrates comebacks of 1-2 sd. Each sd is
therefore multiplied by a factor (1/256) per number of players and used boxes, fitted on
training games (``python -m host_tools.benches.win_meter --fit N``) and checked on other
games (docs/win_meter.md): "normal with a calibrated spread".

- Two players: P(A wins) = Phi((T_A + mean_A - T_B - mean_B) / sqrt(s_A^2 + s_B^2)).
- Three or four: P(i finishes first) = integral of player i's density times, for every
  other player j, P(X_j < x): 33 nodes over +-4 sd of player i, then normalised so the
  chances sum to 1.
A shared first place counts as a share (1/k each for k tied winners): the normal model
has no ties, and the measured outcomes (docs/win_meter.md) count ties that way.
Before the game is decided no chance is shown as 0 % or 100 %: chances are kept within
[0.5 %, 99.5 %] (ONE / 200), which a % display rounds to 1..99. Decided (every sd 0,
i.e. every card full): the exact result, ties shared.

Units: points in sixteenths (Q4; ``from_fixed`` converts the advisor's 2**-18 values),
chances in units of ONE = 16384. Every product stays below 2**30 (a MicroPython small
int on the RP2040).
"""

import micropython
from micropython import const

ONE = const(16384)
_LOW = const(82)  # 0.5 % of ONE, rounded up
_HIGH = const(16302)  # 99.5 %
_FULL = const(0x1FFF)  # rules.ALL_BOXES
_UPPER_CAP = const(63)  # strategy_table.UPPER_CAP
# Phi(k / 8) * ONE, k = 0..32 (z = 0..4); linear between entries.
# fmt: off
_PHI = (8192, 9007, 9809, 10587, 11329, 12026, 12671, 13258, 13785, 14249, 14653, 14998,
        15289, 15531, 15728, 15886, 16011, 16109, 16184, 16240, 16282, 16313, 16335, 16351,
        16362, 16369, 16375, 16378, 16380, 16382, 16383, 16383, 16383, 16384)
# fmt: on
# Integration nodes z = -4 + k/4 (k = 0..32): weights ~ pdf(z) / 4 * ONE, summing to ONE.
# fmt: off
_W = (1, 1, 4, 8, 18, 37, 72, 130, 221, 353, 531, 748, 991, 1234, 1442, 1584, 1634, 1584,
      1442, 1234, 991, 748, 531, 353, 221, 130, 72, 37, 18, 8, 4, 1, 1)
# fmt: on
_N_NODES = const(33)
# Spread factors (1/256) by used boxes 0..13, for 2, 3 and 4 players (from --fit).
FACTORS = (
    (208, 208, 220, 212, 216, 216, 220, 224, 228, 228, 228, 228, 220, 256),
    (232, 232, 240, 240, 240, 240, 240, 248, 240, 240, 232, 232, 216, 256),
    (264, 264, 264, 256, 256, 256, 256, 248, 240, 240, 232, 216, 208, 256),
)
_MAX_PLAYERS = const(4)
_eff = [0] * _MAX_PLAYERS  # scratch: the scaled sds of the current call


def from_fixed(value, frac=18):
    """A fixed-point value (units of 2**-frac points) -> sixteenths of a point."""
    return (value + (1 << (frac - 5))) >> (frac - 4)


def outlook(table, spread, card, means, sds, i):
    """A standard card's model inputs from the tables, into ``means[i]`` (its expected
    remaining score in sixteenths: strategy table) and ``sds[i]`` (its spread, unscaled:
    spread table), both 0 once the card is full; returns how many boxes it has used (the
    column of ``FACTORS``). The coach's meter and the to-win level both read cards so."""
    mask = up = used = 0
    for b in range(13):
        if card[b] >= 0:  # rules.OPEN is -1 (this module imports nothing)
            mask |= 1 << b
            used += 1
            if b < 6:
                up += card[b]
    if mask == _FULL:
        means[i] = sds[i] = 0
        return used
    if up > _UPPER_CAP:
        up = _UPPER_CAP
    yz = 1 if card[11] == 50 else 0  # the Yahtzee box holds 50: the table's flag
    means[i] = from_fixed(table.value(mask, up, yz))
    sds[i] = spread.sd(mask, up, yz)
    return used


@micropython.native
def isqrt(n):
    """Integer square root (floor) of a non-negative int."""
    if n < 2:
        return n
    x = n
    y = (x + 1) >> 1
    while y < x:
        x = y
        y = (x + n // x) >> 1
    return x


@micropython.native
def phi(num, den):
    """Phi(num / den) * ONE for den > 0 (num, den: small ints)."""
    neg = num < 0
    if neg:
        num = -num
    z = (num << 6) // den  # z in 1/64
    k = z >> 3
    if k >= 32:
        p = ONE
    else:
        p = _PHI[k] + (((_PHI[k + 1] - _PHI[k]) * (z & 7)) >> 3)
    return ONE - p if neg else p


def _below(x, centre, sd):
    """P(a player with final centre/sd (Q4) ends below x (Q4)) * ONE; ties count half."""
    if sd > 0:
        return phi(x - centre, sd)
    if x > centre:
        return ONE
    return ONE >> 1 if x == centre else 0


def chances(n, totals, means, sds, used, out):
    """Fill out[0..n-1] with each player's chance to win (units of ONE); n = 2..4.

    ``totals``: points so far (ints); ``means``/``sds``: expected remaining points and
    their sd, in sixteenths (0 and 0 for a full card); ``used``: each card's used boxes.
    Returns True when the game is decided (every sd 0), when ``out`` is the exact share
    of first place."""
    decided = True
    factors = FACTORS[n - 2]
    eff = _eff
    for i in range(n):
        if sds[i] > 0:
            decided = False
        eff[i] = (sds[i] * factors[used[i]] + 128) >> 8
    sds = eff
    if decided:
        best = -1
        for i in range(n):
            if totals[i] > best:
                best = totals[i]
        k = 0
        for i in range(n):
            if totals[i] == best:
                k += 1
        for i in range(n):
            out[i] = ONE // k if totals[i] == best else 0
        return True
    if n == 2:
        d = (totals[0] << 4) + means[0] - (totals[1] << 4) - means[1]
        sigma = isqrt(sds[0] * sds[0] + sds[1] * sds[1])
        out[0] = phi(d, sigma)
        out[1] = ONE - out[0]
    else:
        total = 0
        for i in range(n):
            ci = (totals[i] << 4) + means[i]
            if sds[i] == 0:
                win = ONE
                for j in range(n):
                    if j != i:
                        win = (win * _below(ci, (totals[j] << 4) + means[j], sds[j])) >> 14
            else:
                win = 0
                for k in range(_N_NODES):
                    x = ci + (((k - 16) * sds[i]) >> 2)
                    prod = ONE
                    for j in range(n):
                        if j != i:
                            prod = (prod * _below(x, (totals[j] << 4) + means[j], sds[j])) >> 14
                    win += _W[k] * prod
                win >>= 14
            out[i] = win
            total += win
        for i in range(n):
            out[i] = (out[i] * ONE) // total if total > 0 else ONE // n
    for i in range(n):
        if out[i] < _LOW:
            out[i] = _LOW
        elif out[i] > _HIGH:
            out[i] = _HIGH
    return False


def percent(chance):
    """A chance (units of ONE) -> whole percent, rounded (1..99 while undecided)."""
    return (chance * 100 + (ONE >> 1)) >> 14
