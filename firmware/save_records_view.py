"""Views of the records for the records pages and ``host_tools pull``: a statistics
entry's summary and the chi-square fairness test of the roll histogram. Apart from
save_records.py so that the end of a game, which only updates the records, loads less code.
Integer math only.
"""

from micropython import const

from save_records import GAMES, POINTS, BEST, YAHTZEES, BONUSES, games_played  # noqa: F401 (re-exported)

MIN_ROLLS = const(30)  # below this the chi-square figure means nothing (expected < 5 each)
# Chi-square critical values for 5 degrees of freedom, times 1000 (published tables).
_CRIT_5 = const(11070)
_CRIT_1 = const(15086)

# Fairness verdicts (the screens' texts: lang.T.verdicts, in this order).
TOO_FEW = const(0)
FAIR = const(1)
DOUBTFUL = const(2)
UNFAIR = const(3)


def summary(entry):
    """``(results, average_x10, best, yahtzees, upper_bonus_percent)`` of a stats entry
    (per player result: the overall entry holds every seat of every game; the number of
    games is ``games_played(stats)``)."""
    games = entry[GAMES]
    if games == 0:
        return (0, 0, 0, 0, 0)
    return (
        games,
        (entry[POINTS] * 10 + games // 2) // games,
        entry[BEST],
        entry[YAHTZEES],
        (entry[BONUSES] * 100 + games // 2) // games,
    )


def chi_square(faces):
    """``(statistic_x1000, verdict)`` for the hypothesis that all six faces are equally
    likely: sum((n - N/6)**2 / (N/6)) = 6 * sum(n**2) / N - N, 5 degrees of freedom."""
    rolls = 0
    squares = 0
    for n in faces:
        rolls += n
        squares += n * n
    if rolls == 0:
        return 0, TOO_FEW
    stat = (6000 * squares - 1000 * rolls * rolls + rolls // 2) // rolls
    if rolls < MIN_ROLLS:
        return stat, TOO_FEW
    if stat >= _CRIT_1:
        return stat, UNFAIR
    if stat >= _CRIT_5:
        return stat, DOUBTFUL
    return stat, FAIR
