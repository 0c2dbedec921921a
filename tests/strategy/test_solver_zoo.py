"""Optimal play on the Zoo (kids') card: the solver's generalised state space (11 boxes,
upper subtotal capped at 18, no Yahtzee flag), checked against an independent brute force.

The brute force shares nothing with the solver or rules.py: its own scorer (a plain
reading of the Zoo table in docs/rules_zoo.md), its own dice enumeration and a different
formulation of a turn (a keep -> roll transition matrix instead of the solver's one-die
recursion and subset maxima).
"""

import itertools

import numpy as np
import pytest

import rules
from host_tools.solver import core as solver_core

pytestmark = pytest.mark.slow

ZOO_EXPECTED = 85.0403  # this solver's figure (docs/rules_zoo.md); the brute force pins it


@pytest.fixture(scope="module")
def zoo():
    ruleset = rules.make_ruleset("zoo")
    dense, _tables, space = solver_core.solve(ruleset, workers=1)
    return ruleset, dense, space


def _zoo_points(roll):
    """Box points of a roll on an open Zoo card, read plainly from the table."""
    counts = [roll.count(face) for face in range(1, 7)]
    shape = sorted(c for c in counts if c)
    most = shape[-1]
    return counts + [
        10 if most >= 3 else 0,
        15 if most >= 4 else 0,
        15 if shape == [2, 3] else 0,
        20 if len(shape) == 5 else 0,
        30 if most == 5 else 0,
    ]


def _brute_force():
    rolls = sorted(set(tuple(sorted(r)) for r in itertools.product(range(1, 7), repeat=5)))
    index = {r: i for i, r in enumerate(rolls)}
    keeps = sorted(set(tuple(sorted(k)) for r in rolls for n in range(6) for k in itertools.combinations(r, n)))
    kindex = {k: i for i, k in enumerate(keeps)}
    move = np.zeros((len(keeps), len(rolls)))  # P(roll | keep and roll the rest)
    for k, keep in enumerate(keeps):
        for rest in itertools.product(range(1, 7), repeat=5 - len(keep)):
            move[k, index[tuple(sorted(keep + rest))]] += 6.0 ** -(5 - len(keep))
    subkeeps = np.array(
        [[kindex[tuple(sorted(c))] for n in range(6) for c in itertools.combinations(r, n)] for r in rolls]
    )  # 32 per roll (repeats are harmless)
    first = move[kindex[()]]
    rows, cols = np.nonzero(move)  # the keep -> roll transitions (4,368), row by row
    probs = move[rows, cols][:, None]
    starts = np.searchsorted(rows, np.arange(len(keeps)))
    points = np.array([_zoo_points(list(r)) for r in rolls])  # (252, 11)
    ups = np.arange(19)
    value = {}  # mask -> expected points still to come, for upper subtotals 0..18
    for mask in sorted(range(2048), key=lambda m: -bin(m).count("1")):
        if mask == 2047:
            value[mask] = np.zeros(19)
            continue
        best = np.full((len(rolls), 19), -1e9)
        for box in range(11):
            if mask >> box & 1:
                continue
            after = value[mask | 1 << box]
            got = points[:, box][:, None] + np.zeros((1, 19))
            if box < 6:
                reached = ups[None, :] + points[:, box][:, None]
                got = got + 10.0 * ((ups[None, :] < 18) & (reached >= 18)) + after[np.minimum(18, reached)]
            else:
                got = got + after[None, :]
            best = np.maximum(best, got)
        for _roll_again in range(2):
            per_keep = np.add.reduceat(probs * best[cols], starts, axis=0)  # = move @ best
            best = per_keep[subkeeps].max(axis=1)
        value[mask] = first @ best
    return value


def test_zoo_state_space_is_tiny(zoo):
    _ruleset, _dense, space = zoo
    assert space.n_masks == 2048
    assert space.yz_box == -1
    assert max(max(ups) for ups in space.reach) == 18
    assert space.count == 30080


def test_zoo_optimum_matches_an_independent_brute_force(zoo):
    _ruleset, dense, _space = zoo
    brute = _brute_force()
    assert abs(brute[0][0] - dense[0]) < 1e-9
    assert abs(dense[0] - ZOO_EXPECTED) < 1e-4
    # and a few mid-game states, both sides of the bonus
    for mask, up in ((0b00000111111, 18), (0b11111000000, 0), (0b10101010101, 2), (0b00000011111, 14)):
        assert abs(brute[mask][up] - dense[solver_core.dense_index(mask, up, 0)]) < 1e-9


def test_the_standard_card_is_refused_a_zoo_sized_space():
    with pytest.raises(ValueError):
        solver_core.tracks_yz(_FakeCard())


class _FakeCard:
    """A card with a Yahtzee bonus whose Yahtzee box is not at the table's yz bit."""

    yahtzee_box = 10
    yahtzee_bonus = 100
    joker_tiers = None


def test_solve_command_builds_the_zoo_table(tmp_path):
    # docs/rules_zoo.md's command, with the output in a temporary folder.
    import subprocess
    import sys

    from host_tools import REPO

    out = tmp_path / "strategy-zoo.bin"
    proc = subprocess.run(
        [sys.executable, "-m", "host_tools", "solve", "--rules", "zoo", "--out", str(out)],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert proc.returncode == 0, proc.stderr
    assert "solving zoo (exact table)" in proc.stdout
    assert "expected score from the empty card: 85.0403070" in proc.stdout
    assert out.stat().st_size == 55488  # format 3: 12 bits per value
