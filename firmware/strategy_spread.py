"""Reader for the spread table: the sd of the remaining score (format: docs/strategy_table.md).

Next to the value table (expected remaining score per state) the spread table holds the
standard deviation of the remaining score under the same optimal play, per block
(used-box mask, Yahtzee box holds 50) and upper-subtotal band: one byte each. The win
meter (strategy_win_meter.py) needs it for every player after each turn. The blocks of 8
consecutive masks form a group with one CRC-8 in front; one group is read at a time with
``seek`` + ``readinto`` into a buffer made once and checked on every read.

Damage is refused, never used: opening checks the header's CRC-8, every header field
against what the writer (host_tools/solver/spread.py, with the constants below) makes,
the file size and the layout it states, and the empty card's spread against the header's;
a group whose CRC-8 fails, or a byte above what the writer stores, raises
``strategy_table.TableDamaged`` (a ValueError). The coach then turns the meter and the win
level off (coach.py).
"""

from micropython import const

import rules
import strategy_table
from strategy_table import TableDamaged, crc8

MAGIC = b"YZSD"
FORMAT_VERSION = const(2)
HEADER_SIZE = const(64)
GROUP_MASKS = const(8)  # masks per checked group
N_GROUPS = const(1024)  # 8192 masks / 8
MAX_BANDS = const(16)
UNIT = const(2)  # a stored byte is sd * UNIT points, rounded: the writer's only unit
# The writer refuses an sd above MAX_SD_BYTE / UNIT points (the largest is 83.4): a byte
# above it is damage, never a figure.
MAX_SD_BYTE = const(250)
_FULL = const(0x1FFF)  # rules.ALL_BOXES


def _u32(buf, at):
    return buf[at] | (buf[at + 1] << 8) | (buf[at + 2] << 16) | (buf[at + 3] << 24)


def group_start(group):
    """First block of ``group`` (masks 8 * group ..): strategy_table.block_number."""
    if group >= N_GROUPS:
        return strategy_table.N_BLOCKS
    return strategy_table.block_number(group * GROUP_MASKS, 0)


class SpreadTable:
    """One open spread file (binary, ``seek``/``readinto``). ValueError for a file that
    is no spread table of this format, TableDamaged for a damaged one."""

    def __init__(self, f, ruleset=None):
        """With ``ruleset``: also ValueError unless the table was built for it (matches)."""
        self._f = f
        head = strategy_table.read_header(f, MAGIC, FORMAT_VERSION, 11, "spread table", "spread table damaged: ")
        self.bands = head[5]
        if not 1 <= self.bands <= MAX_BANDS:
            raise TableDamaged("spread table damaged: %d bands" % self.bands)
        self.ruleset_name = strategy_table.check_ruleset(head, 28, False, "spread table damaged: ")  # 13-box cards
        self.joker_id = head[6]
        self.yahtzee_bonus = head[7]
        self.upper_threshold = head[8]
        self.upper_bonus = head[9]
        self.unit = head[10]  # stored byte = sd * unit (points)
        if self.unit != UNIT:
            raise TableDamaged("spread table damaged: unit %d" % self.unit)
        self._data_at = _u32(head, 16)
        self.sd_empty = _u32(head, 20)  # units of 2**-16 points
        size = _u32(head, 44)
        if (
            _u32(head, 12) != strategy_table.N_BLOCKS
            or _u32(head, 48) != N_GROUPS
            or self._data_at != HEADER_SIZE
            or size != HEADER_SIZE + strategy_table.N_BLOCKS * self.bands + N_GROUPS
            or _u32(head, 52) != 0
            or _u32(head, 56) != 0
        ):
            raise TableDamaged("spread table damaged: layout")
        if f.seek(0, 2) != size:  # cut short or grown
            raise TableDamaged("spread table damaged: size")
        self._buf = bytearray(1 + 2 * GROUP_MASKS * MAX_BANDS)  # a CRC-8 and up to 16 blocks
        self._group = -1  # the group in _buf, checked
        self._at = 0  # where the loaded block starts in _buf
        # The empty card's block holds one state, so its byte is the header's sd rounded
        # (1 off at most: the header's figure is rounded too).
        self.load_block(0, 0)
        off = self._buf[self._at] - ((self.sd_empty * UNIT + 32768) >> 16)
        if off > 1 or off < -1:
            raise TableDamaged("spread table damaged: the empty card's spread")
        if ruleset is not None and not self.matches(ruleset, rules.JOKERS):
            raise ValueError("spread table for other rules")

    def matches(self, ruleset, jokers):
        """True when this table was built for ``ruleset`` (``jokers``: rules.JOKERS);
        TableDamaged when it names ``ruleset`` with other rules fields."""
        return strategy_table.check_rules(self, ruleset, jokers, "spread table damaged: ")

    def load_block(self, mask, yz):
        """Make block (mask, yz) the one ``block_sd`` reads: its group of 8 masks is read
        (one read, skipped when already loaded) and checked: TableDamaged."""
        group = mask >> 3
        first = group_start(group)
        if group != self._group:
            self._group = -1
            n = 1 + (group_start(group + 1) - first) * self.bands
            f = self._f
            f.seek(self._data_at + first * self.bands + group)
            buf = self._buf
            # The whole buffer is read (past the group's end is harmless and allocates
            # nothing); the CRC covers only the group's own bytes.
            got = f.readinto(buf)
            if got is None or got < n:
                raise TableDamaged("spread table damaged: cut")
            if crc8(buf, 1, n, group & 0xFF) != buf[0]:
                raise TableDamaged("spread table damaged: group %d" % group)
            self._group = group
        self._at = 1 + (strategy_table.block_number(mask, yz) - first) * self.bands
        return self

    def block_sd(self, up):
        """sd of the loaded block at upper subtotal ``up``, in sixteenths of a point."""
        stored = self._buf[self._at + ((up * self.bands) >> 6)]
        if stored > MAX_SD_BYTE:
            raise TableDamaged("spread table damaged: sd byte %d" % stored)
        return ((stored << 4) + (UNIT >> 1)) // UNIT

    def sd(self, mask, up, yz):
        """sd of the remaining score of state (mask, up, yz), sixteenths of a point."""
        if mask >= _FULL:
            return 0
        return self.load_block(mask, yz).block_sd(up)
