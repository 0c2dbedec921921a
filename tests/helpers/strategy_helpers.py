"""Pytest-side helpers for the strategy tests (advisor, win meter, win level, solver).

- ``OUTCOMES[n]``: the (sorted faces, probability) of rolling n dice; ``ROLLS``: the 252
  rolls of five. The brute-force references enumerate with them.
- ``card_state(card)``: a standard card's (mask, capped upper subtotal, Yahtzee-at-50
  flag), the solver's state of it (core.dense_index), worked out independently here.
- ``open_advisor(ruleset)``: for a module fixture, an ``strategy_advisor.Advisor`` on the solver's
  exact table of ``ruleset`` (the file closed after the module).
- ``assert_refused(reader, path, data)``: a table reader refuses a file holding ``data``.
- ``crafted(data, change)``: a value or spread table file with one change made by
  ``change(bytearray)`` and then every checksum recomputed (``recrc``), as a buggy writer
  or a hostile file would have them: what only the readers' range checks can refuse.
- ``ME``, ``THEM``: the README's advise --to-win cards (docs/examples/me.json, them.json).
"""

import itertools
import struct
import zlib

import pytest

import strategy_advisor
import rules
import strategy_spread
import strategy_table
from host_tools.solver import cache as solver_cache


def _outcomes(n):
    dist = {}
    for faces in itertools.product(range(1, 7), repeat=n):
        key = tuple(sorted(faces))
        dist[key] = dist.get(key, 0) + 1
    return [(k, c / 6.0**n) for k, c in dist.items()]


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
        yield strategy_advisor.Advisor(ruleset, strategy_table.StrategyTable(f))


def assert_refused(reader, path, data):
    path.write_bytes(data)
    with open(path, "rb") as f:
        with pytest.raises(ValueError):
            reader(f)


def _crc8(data, seed):
    table = strategy_table.CRC8
    for b in data:
        seed = table[seed ^ b]
    return seed


def _u32(data, at):
    return struct.unpack_from("<I", data, at)[0]


def _recrc_values(out):
    """A value table's checks as the writer makes them, from the file's own header and
    rank table: each mask's CRC-8 (its compact (base, step), then the bytes its part of
    the bit stream touches), each rank row's, the contents' CRC-32, the header's CRC-8
    and CRC-32."""
    st = strategy_table
    n_masks = st.ZOO_MASKS if out[11] == st.LAYOUT_ZOO else st.N_MASKS
    checks_at, values_at, blocks_at, bits = _u32(out, 56), _u32(out, 20), _u32(out, 24), out[18]
    head_bits = st.BASE_BITS if out[5] == st.EXACT else 0
    rank = out[st.HEADER_SIZE : st.HEADER_SIZE + st.RANK_SIZE]
    count = [sum(1 for r in rank[u * 64 : u * 64 + 64] if r != 255) for u in range(64)]
    state = 0  # index of the mask's first state
    for mask in range(n_masks):
        two = mask >> 11 & 1
        crc = mask & 0xFF
        if out[5] == st.COMPACT:
            at = blocks_at + 4 * st.block_number(mask, 0)
            crc = _crc8(out[at : at + (8 if two else 4)], crc)
        n = count[mask & 63] << two
        start = head_bits * st.block_number(mask, 0) + bits * state
        end = start + (head_bits << two) + bits * n
        state += n
        if checks_at + mask < len(out):
            out[checks_at + mask] = _crc8(out[values_at + (start >> 3) : values_at + ((end + 7) >> 3)], crc)
    for upper in range(64):
        if checks_at + n_masks + upper < len(out):
            out[checks_at + n_masks + upper] = _crc8(rank[upper * 64 : upper * 64 + 64], upper)
    struct.pack_into("<I", out, 32, zlib.crc32(out[st.HEADER_SIZE :]))
    out[19] = _crc8(out[20:60], _crc8(out[0:19], 0))
    struct.pack_into("<I", out, 60, zlib.crc32(out[0:60]))


def _recrc_spread(out):
    """A spread table's checks as the writer makes them: each group's CRC-8 (with the
    header's bands), the data's CRC-32, the header's CRC-8 and CRC-32."""
    sp = strategy_spread
    bands = out[5]
    at = _u32(out, 16)
    for group in range(sp.N_GROUPS):
        n = (sp.group_start(group + 1) - sp.group_start(group)) * bands
        if at + 1 + n <= len(out):
            out[at] = _crc8(out[at + 1 : at + 1 + n], group & 0xFF)
        at += 1 + n
    struct.pack_into("<I", out, 24, zlib.crc32(out[sp.HEADER_SIZE :]))
    out[11] = _crc8(out[12:60], _crc8(out[0:11], 0))
    struct.pack_into("<I", out, 60, zlib.crc32(out[0:60]))


def recrc(data):
    """``data`` (a value table or a spread table file) with every checksum recomputed."""
    out = bytearray(data)
    if bytes(out[:4]) == strategy_spread.MAGIC:
        _recrc_spread(out)
    else:
        _recrc_values(out)
    return bytes(out)


def crafted(data, change):
    """``data`` with ``change(bytearray)`` applied, then every checksum recomputed."""
    out = bytearray(data)
    change(out)
    return recrc(out)


# The README's advise --to-win position (docs/examples/me.json, them.json): seat 0 (ME)
# 110 points behind THEM, whose card is full.
ME = {
    "aces": 3,
    "twos": 6,
    "threes": 9,
    "fours": 12,
    "fives": 15,
    "sixes": 18,
    "full_house": 25,
    "small_straight": 30,
    "large_straight": 40,
    "chance": 22,
}
THEM = {
    "aces": 3,
    "twos": 6,
    "threes": 9,
    "fours": 12,
    "fives": 15,
    "sixes": 18,
    "three_kind": 30,
    "four_kind": 28,
    "full_house": 25,
    "small_straight": 30,
    "large_straight": 40,
    "yahtzee": 50,
    "chance": 24,
}
