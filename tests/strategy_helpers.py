"""Pytest-side helpers for the strategy tests (advisor, win meter, win level, solver).

- ``OUTCOMES[n]``: the (sorted faces, probability) of rolling n dice; ``ROLLS``: the 252
  rolls of five. The brute-force references enumerate with them.
- ``card_state(card)``: a standard card's (mask, capped upper subtotal, Yahtzee-at-50
  flag), the solver's state of it (core.dense_index), worked out independently here.
- ``open_advisor(ruleset)``: for a module fixture, an ``advisor.Advisor`` on the solver's
  exact table of ``ruleset`` (the file closed after the module).
- ``assert_refused(reader, path, data)``: a table reader refuses a file holding ``data``.
"""
import itertools

import pytest

import advisor
import rules
import strategy_table
from host_tools.solver import cache as solver_cache


def _outcomes(n):
    dist = {}
    for faces in itertools.product(range(1, 7), repeat=n):
        key = tuple(sorted(faces))
        dist[key] = dist.get(key, 0) + 1
    return [(k, c / 6.0 ** n) for k, c in dist.items()]


OUTCOMES = [_outcomes(n) for n in range(6)]
ROLLS = [k for k, _p in OUTCOMES[5]]


def card_state(card):
    mask = up = 0
    for b in range(13):
        if card[b] != rules.OPEN:
            mask |= 1 << b
            up += card[b] if b < 6 else 0
    return mask, min(up, 63), 1 if card[rules.YAHTZEE] == 50 else 0


def open_advisor(ruleset):
    with open(solver_cache.table(ruleset, "exact"), "rb") as f:
        yield advisor.Advisor(ruleset, strategy_table.StrategyTable(f))


def assert_refused(reader, path, data):
    path.write_bytes(data)
    with open(path, "rb") as f:
        with pytest.raises(ValueError):
            reader(f)
