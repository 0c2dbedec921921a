"""Reader for the spread table: the sd of the remaining score (format: docs/strategy_table.md).

Next to the value table (expected remaining score per state) the spread table holds the
standard deviation of the remaining score under the same optimal play, per block
(used-box mask, Yahtzee box holds 50) and upper-subtotal band: one byte each. The win
meter (win_meter.py) needs it for every player after each turn. One block (the bands
of one mask) is read at a time with ``seek`` + ``readinto`` into a buffer made once.
"""
from micropython import const

import strategy_table

MAGIC = b"YZSD"
FORMAT_VERSION = const(1)
HEADER_SIZE = const(64)
_MAX_BANDS = const(16)


def _u32(buf, at):
    return buf[at] | (buf[at + 1] << 8) | (buf[at + 2] << 16) | (buf[at + 3] << 24)


class SpreadTable:
    """One open spread file (binary, ``seek``/``readinto``)."""

    def __init__(self, f):
        self._f = f
        head = bytearray(HEADER_SIZE)
        f.seek(0)
        if f.readinto(head) != HEADER_SIZE or head[0:4] != MAGIC:
            raise ValueError("not a spread table (bad magic)")
        if head[4] != FORMAT_VERSION:
            raise ValueError("spread table format %d, expected %d" % (head[4], FORMAT_VERSION))
        self.bands = head[5]
        if not 1 <= self.bands <= _MAX_BANDS:
            raise ValueError("spread table with %d bands" % self.bands)
        self.joker_id = head[6]
        self.yahtzee_bonus = head[7]
        self.upper_threshold = head[8]
        self.upper_bonus = head[9]
        self.unit = head[10]  # stored byte = sd * unit (points)
        if self.unit == 0:
            raise ValueError("spread table unit 0")
        self._data_at = _u32(head, 16)
        self.sd_empty = _u32(head, 20)  # units of 2**-16 points
        self._buf = bytearray(_MAX_BANDS)
        self._mv = memoryview(self._buf)[0:self.bands]
        self._block = -1

    def matches(self, ruleset, jokers):
        """True when this table was built for ``ruleset`` (``jokers``: rules.JOKERS)."""
        return (jokers[self.joker_id] == ruleset.joker and bool(self.yahtzee_bonus) == bool(ruleset.yahtzee_bonus)
                and self.upper_threshold == ruleset.upper_threshold and self.upper_bonus == ruleset.upper_bonus)

    def load_block(self, mask, yz):
        """Read the bands of block (mask, yz) (one read; skipped when already loaded)."""
        block = strategy_table.block_number(mask, yz)
        if block != self._block:
            self._f.seek(self._data_at + block * self.bands)
            if self._f.readinto(self._mv) != self.bands:
                raise ValueError("spread table truncated")
            self._block = block
        return self

    def block_sd(self, up):
        """sd of the loaded block at upper subtotal ``up``, in sixteenths of a point."""
        return ((self._buf[(up * self.bands) >> 6] << 4) + (self.unit >> 1)) // self.unit

    def sd(self, mask, up, yz):
        """sd of the remaining score of state (mask, up, yz), sixteenths of a point."""
        if mask >= 8191:
            return 0
        return self.load_block(mask, yz).block_sd(up)
