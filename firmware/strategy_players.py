"""Computer players built on the advisor: ``optimal`` and weaker, human-like levels.

Pure functions over the advisor's option list (values best first, fixed point): a level
adds random noise of a calibrated size to every option's expected total and takes the
largest, so it mostly plays well and sometimes picks a close second, rarely a blunder.
Noise sizes were calibrated on the host (host_tools/benches/strategy.py, which prints the
measured averages) to cost about 10 and 30 points per game against optimal play.
The random source is injected: anything with ``randint(a, b)`` (the game's dice source).
"""
from micropython import const

import strategy_table

LEVELS = ("optimal", "good", "casual")
# Noise span in tenths of a point per level (uniform 0..span added to each option's value).
NOISE = (0, 40, 87)
# Measured expected points lost per game against optimal play (bench_strategy).
EXPECTED_LOSS = (0, 10, 30)
_FRAC = strategy_table.FRAC
_RANDOM_BITS = const(10)


def level_index(level):
    """Index of a level name in LEVELS; ValueError for an unknown one."""
    for i in range(len(LEVELS)):
        if LEVELS[i] == level:
            return i
    raise ValueError("unknown computer level %r (levels: %s)" % (level, ", ".join(LEVELS)))


def choose(level, values, n, source):
    """Index of the option a ``level`` (index into LEVELS) player takes among the first
    ``n`` of ``values`` (best first). Optimal always takes index 0 and draws nothing."""
    span = NOISE[level]
    if span == 0 or n < 2:
        return 0
    # One step of the 10-bit draw, in fixed point; times 1023 it stays a small int.
    unit = (span << (_FRAC - _RANDOM_BITS)) // 10
    best = 0
    best_value = values[0] + source.randint(0, (1 << _RANDOM_BITS) - 1) * unit
    for i in range(1, n):
        v = values[i] + source.randint(0, (1 << _RANDOM_BITS) - 1) * unit
        if v > best_value:
            best = i
            best_value = v
    return best


def choose_hold(advisor, level, card, dice, rolls_left, source, codes, values):
    """Hold mask (bit i keeps dice[i]) before the next roll, or -1 to stop and score.
    ``codes``/``values``: option buffers of 32 entries made once by the caller."""
    advisor.ensure(card)
    n = advisor.options(dice, rolls_left, codes, values)
    pick = codes[choose(level, values, n, source)]
    return -1 if pick == 31 else pick


def choose_box(advisor, level, card, dice, source, codes, values):
    """The box index to fill with ``dice`` (the turn's last decision)."""
    advisor.ensure(card)
    n = advisor.options(dice, 0, codes, values)
    return codes[choose(level, values, n, source)]
