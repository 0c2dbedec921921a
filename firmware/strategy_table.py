"""Reader for the optimal-strategy value table (format: docs/strategy_table.md).

The table holds V(state), the expected points still to come under optimal play, for
every reachable turn-start state (used-box mask, upper subtotal capped at 63, whether
the Yahtzee box holds 50; the Zoo card's table is the same layout's first 2048 masks,
subtotals capped at 18, no Yahtzee flag). The file is never loaded: each lookup seeks to one entry
and reads 1-2 bytes into a buffer made once. Values come back as fixed-point ints in
units of 2**-FRAC points, so callers never touch floats.
"""
from array import array
from micropython import const

MAGIC = b"YZOT"
FORMAT_VERSION = const(1)
EXACT = const(1)  # u16 per state
COMPACT = const(2)  # u8 per state + per-block (base, step)
FRAC = const(18)  # fixed-point fraction bits of every value handed out
HEADER_SIZE = const(64)
RANK_SIZE = const(4096)  # 64 upper masks x 64 subtotals: rank within the block or 255
N_BLOCKS = const(12288)  # 8192 masks + 4096 with the Yahtzee box filled (two blocks)
_UNREACHABLE = const(255)
_YAHTZEE_LOWER_BIT = const(5)  # box 11 is bit 5 of the lower mask (boxes 6..12)
_COMPACT_STEP_FRAC = const(16)


def _u16(buf, at):
    return buf[at] | (buf[at + 1] << 8)


def _u32(buf, at):
    return buf[at] | (buf[at + 1] << 8) | (buf[at + 2] << 16) | (buf[at + 3] << 24)


def block_number(mask, yz):
    """Block of (mask, yz): masks ascending, the y=1 block right after y=0."""
    rest = mask & 4095
    return mask + ((mask >> 12) << 11) + (rest - 2048 if rest > 2048 else 0) + yz


class StrategyTable:
    """One open table file. ``f`` is a binary file object with ``seek``/``readinto``."""

    def __init__(self, f):
        self._f = f
        head = bytearray(HEADER_SIZE)
        f.seek(0)
        if f.readinto(head) != HEADER_SIZE or head[0:4] != MAGIC:
            raise ValueError("not a strategy table (bad magic)")
        if head[4] != FORMAT_VERSION:
            raise ValueError("strategy table format %d, expected %d" % (head[4], FORMAT_VERSION))
        self.variant = head[5]
        if self.variant not in (EXACT, COMPACT):
            raise ValueError("unknown strategy table variant %d" % self.variant)
        self.joker_id = head[6]
        self.yahtzee_bonus = head[7]
        self.upper_threshold = head[8]
        self.upper_bonus = head[9]
        self._frac = head[10]
        if self._frac > FRAC:
            raise ValueError("strategy table value precision too fine")
        self.n_states = _u32(head, 12)
        self._values_at = _u32(head, 20)
        self._blocks_at = _u32(head, 24)
        self.expected_empty = _u32(head, 28)  # units of 2**-16 points
        self.crc = _u32(head, 32)
        name = bytes(head[36:52])
        end = name.find(b"\x00")
        self.ruleset_name = (name if end < 0 else name[:end]).decode()
        # Per upper mask: number of reachable subtotals and the running sum before it. The
        # rank table itself stays in the file (4 KB of RAM saved; one more 1-byte read).
        self.count = bytearray(64)
        self.before = array("H", bytes(2 * 64))  # < 4096 states per lower mask
        row = bytearray(64)
        total = 0
        for upper in range(64):
            f.seek(HEADER_SIZE + upper * 64)
            if f.readinto(row) != 64:
                raise ValueError("strategy table truncated")
            n = 0
            for up in range(64):
                if row[up] != _UNREACHABLE:
                    n += 1
            self.count[upper] = n
            self.before[upper] = total
            total += n
        self._per_lower = total
        self._buf = bytearray(4)
        self._rank_row = bytearray(64)
        self._rank_upper = -1
        self._block = bytearray(128)  # one block: up to 64 values of 2 bytes
        self._params = bytearray(4)
        view = memoryview(self._buf)
        self._two = view[0:2]
        self._one = view[0:1]

    def matches(self, ruleset, jokers):
        """True when this table was built for ``ruleset`` (``jokers``: rules.JOKERS)."""
        return (jokers[self.joker_id] == ruleset.joker and bool(self.yahtzee_bonus) == bool(ruleset.yahtzee_bonus)
                and self.upper_threshold == ruleset.upper_threshold and self.upper_bonus == ruleset.upper_bonus)

    def block_start(self, mask, yz):
        """Position of the first state of block (mask, yz) (its lowest subtotal)."""
        upper = mask & 63
        lower = mask >> 6
        rest = lower & 63
        before_lower = lower + ((lower >> 6) << 5) + (rest - 32 if rest > 32 else 0)
        factor = 2 if lower >> _YAHTZEE_LOWER_BIT & 1 else 1
        return before_lower * self._per_lower + factor * self.before[upper] + yz * self.count[upper]

    def load_block(self, mask, yz):
        """Read every value of block (mask, yz) into a buffer made once (2-3 reads);
        ``block_value(up)`` then decodes one. Cheaper than ``value`` for several ups."""
        f = self._f
        upper = mask & 63
        if upper != self._rank_upper:
            f.seek(HEADER_SIZE + upper * 64)
            f.readinto(self._rank_row)
            self._rank_upper = upper
        start = self.block_start(mask, yz)
        if self.variant == EXACT:
            f.seek(self._values_at + 2 * start)
        else:
            f.seek(self._blocks_at + 4 * block_number(mask, yz))
            f.readinto(self._params)
            f.seek(self._values_at + start)
        f.readinto(self._block)  # may run into the next block or end early: harmless

    def block_value(self, up):
        """Value at subtotal ``up`` of the block last loaded, units of 2**-FRAC points."""
        rank = self._rank_row[up]
        if rank == _UNREACHABLE:
            raise ValueError("unreachable upper subtotal %d" % up)
        block = self._block
        if self.variant == EXACT:
            return (block[2 * rank] | (block[2 * rank + 1] << 8)) << (FRAC - self._frac)
        params = self._params
        base = (params[0] | (params[1] << 8)) << (FRAC - self._frac)
        return base + ((block[rank] * (params[2] | (params[3] << 8))) << (FRAC - _COMPACT_STEP_FRAC))

    def index(self, mask, up, yz):
        """Position of state (mask, up, yz) among the stored states."""
        upper = mask & 63
        f = self._f
        f.seek(HEADER_SIZE + upper * 64 + up)
        f.readinto(self._one)
        rank = self._buf[0]
        if rank == _UNREACHABLE:
            raise ValueError("unreachable state: upper subtotal %d with upper boxes %d" % (up, upper))
        return self.block_start(mask, yz) + rank

    def value(self, mask, up, yz):
        """V(mask, up, yz) in units of 2**-FRAC points (an int; no float anywhere)."""
        if mask >= 8191:
            return 0
        f = self._f
        buf = self._buf
        at = self.index(mask, up, yz)
        if self.variant == EXACT:
            f.seek(self._values_at + 2 * at)
            f.readinto(self._two)
            return (buf[0] | (buf[1] << 8)) << (FRAC - self._frac)
        f.seek(self._values_at + at)
        f.readinto(self._one)
        q = buf[0]
        f.seek(self._blocks_at + 4 * block_number(mask, yz))
        f.readinto(buf)
        base = (buf[0] | (buf[1] << 8)) << (FRAC - self._frac)
        step = buf[2] | (buf[3] << 8)
        return base + ((q * step) << (FRAC - _COMPACT_STEP_FRAC))
