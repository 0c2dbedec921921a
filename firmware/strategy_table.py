"""Reader for the optimal-strategy value table (format: docs/strategy_table.md).

The table holds V(state), the expected points still to come under optimal play, for
every reachable turn-start state (used-box mask, upper subtotal capped at 63, whether
the Yahtzee box holds 50; the Zoo card's table, layout 1, is the same layout's first
2048 masks, subtotals capped at 18, no Yahtzee flag). The file is never loaded: each
lookup reads one mask's values (at most 213 bytes exact, 105 compact) into a buffer made
once. Values come back as fixed-point ints in units of 2**-FRAC points, so callers never
touch floats.

Damage is refused, never used: opening checks the header's CRC-8, then every header
field against what the writer (host_tools/solver/table.py) can produce - the ranges are
the constants below, which the writer uses too - the file size, the offsets, the rank
table (a CRC-8 per row, every rank within its row) and the empty card's value against
the header's; every read of a mask's values checks that mask's CRC-8 and the range of
what it decodes. (The CRC-32s in the header are for the host tools, which check the
whole file.) A failure raises ``TableDamaged`` (a ValueError) naming what is wrong, and
the caller plays as without a table: a table whose checksums were recomputed after a
change is refused as well as one damaged by chance.
"""

from array import array
from micropython import const

import rules

MAGIC = b"YZOT"
FORMAT_VERSION = const(3)
EXACT = const(1)  # per block a u16 base, then value - base in ``bits`` bits per state
COMPACT = const(2)  # per-block (base, step), then q in ``bits`` bits per state
LAYOUT_VALUES = const(0)  # header byte 11: the 13-box value table described in the doc
LAYOUT_ZOO = const(1)  # the Zoo card's 11-box value table: the first 2048 masks of layout 0
FRAC = const(18)  # fixed-point fraction bits of every value handed out
# What the writer can produce (it checks the same constants): an exact value is a u16 in
# units of 2**-frac, frac the largest <= MAX_FRAC that holds the largest value; below
# MIN_FRAC (values of 1024 points and more) the advisor's sums would leave the small ints.
MIN_FRAC = const(6)
MAX_FRAC = const(8)
# Compact: below 6 bits per state a block's span (up to 63 points: the upper bonus and
# more) does not fit 2**bits - 1 steps of the u16 step; above MAX_BITS the reader's fields end.
MIN_COMPACT_BITS = const(6)
UPPER_CAP = const(63)  # the largest upper subtotal a state holds (a rank row has 64)
NAME_SIZE = const(16)  # the ruleset name in a header, NUL padded
HEADER_SIZE = const(64)
RANK_SIZE = const(4096)  # 64 upper masks x 64 subtotals: rank within the block or 255
N_BLOCKS = const(12288)  # 8192 masks + 4096 with the Yahtzee box filled (two blocks)
N_MASKS = const(8192)
CHECKS_SIZE = const(8256)  # CRC-8 of each mask's values (8192), then of each rank row (64)
ZOO_MASKS = const(2048)  # layout 1: masks 0..2047, one block each (no Yahtzee flag)
_UNREACHABLE = const(255)
_PART_ROWS = const(16)  # rank rows checked per part of a later opening (step)
_YAHTZEE_LOWER_BIT = const(5)  # box 11 is bit 5 of the lower mask (boxes 6..12)
_YAHTZEE_BIT = const(11)
_COMPACT_STEP_FRAC = const(16)
_LOWER_SLOTS = const(192)  # 128 lower masks, the 64 with the Yahtzee box count twice
MAX_BITS = const(16)  # bits per stored field: exact value - base (13), compact q (6)
BASE_BITS = const(16)  # exact: each block starts with its base (u16) in the bit stream

# CRC-8, polynomial x^8 + x^2 + x + 1 (0x07), MSB first, no final XOR: one lookup per
# byte. It catches every error within 8 consecutive bits, so any one damaged byte.
CRC8 = (
    b"\x00\x07\x0e\x09\x1c\x1b\x12\x15\x38\x3f\x36\x31\x24\x23\x2a\x2d"
    b"\x70\x77\x7e\x79\x6c\x6b\x62\x65\x48\x4f\x46\x41\x54\x53\x5a\x5d"
    b"\xe0\xe7\xee\xe9\xfc\xfb\xf2\xf5\xd8\xdf\xd6\xd1\xc4\xc3\xca\xcd"
    b"\x90\x97\x9e\x99\x8c\x8b\x82\x85\xa8\xaf\xa6\xa1\xb4\xb3\xba\xbd"
    b"\xc7\xc0\xc9\xce\xdb\xdc\xd5\xd2\xff\xf8\xf1\xf6\xe3\xe4\xed\xea"
    b"\xb7\xb0\xb9\xbe\xab\xac\xa5\xa2\x8f\x88\x81\x86\x93\x94\x9d\x9a"
    b"\x27\x20\x29\x2e\x3b\x3c\x35\x32\x1f\x18\x11\x16\x03\x04\x0d\x0a"
    b"\x57\x50\x59\x5e\x4b\x4c\x45\x42\x6f\x68\x61\x66\x73\x74\x7d\x7a"
    b"\x89\x8e\x87\x80\x95\x92\x9b\x9c\xb1\xb6\xbf\xb8\xad\xaa\xa3\xa4"
    b"\xf9\xfe\xf7\xf0\xe5\xe2\xeb\xec\xc1\xc6\xcf\xc8\xdd\xda\xd3\xd4"
    b"\x69\x6e\x67\x60\x75\x72\x7b\x7c\x51\x56\x5f\x58\x4d\x4a\x43\x44"
    b"\x19\x1e\x17\x10\x05\x02\x0b\x0c\x21\x26\x2f\x28\x3d\x3a\x33\x34"
    b"\x4e\x49\x40\x47\x52\x55\x5c\x5b\x76\x71\x78\x7f\x6a\x6d\x64\x63"
    b"\x3e\x39\x30\x37\x22\x25\x2c\x2b\x06\x01\x08\x0f\x1a\x1d\x14\x13"
    b"\xae\xa9\xa0\xa7\xb2\xb5\xbc\xbb\x96\x91\x98\x9f\x8a\x8d\x84\x83"
    b"\xde\xd9\xd0\xd7\xc2\xc5\xcc\xcb\xe6\xe1\xe8\xef\xfa\xfd\xf4\xf3"
)


class TableDamaged(ValueError):
    """The file is a strategy table but damaged (cut short, flipped bytes, bad offsets)."""


def crc8(data, start, end, crc):
    """CRC-8 (see ``CRC8``) of ``data[start:end]`` continuing from ``crc``."""
    table = CRC8
    for i in range(start, end):
        crc = table[crc ^ data[i]]
    return crc


def read_header(f, magic, version, crc_at, kind, damaged):
    """The 64-byte header of table file ``f`` (this module's and strategy_spread's), checked:
    ``magic`` (else ValueError "not a <kind>"), all 64 bytes there, format ``version``
    (else ValueError naming the rebuild), and the CRC-8 at byte ``crc_at`` of the other
    bytes 0..59 (TableDamaged, its message starting with ``damaged``)."""
    head = bytearray(HEADER_SIZE)
    f.seek(0)
    got = f.readinto(head)
    if got is None or got < 4 or head[0:4] != magic:
        raise ValueError("not a %s (bad magic)" % kind)
    if got != HEADER_SIZE:
        raise TableDamaged(damaged + "header cut")
    if head[4] != version:
        raise ValueError("%s format %d, expected %d (rebuild: make table)" % (kind, head[4], version))
    if crc8(head, crc_at + 1, 60, crc8(head, 0, crc_at, 0)) != head[crc_at]:
        raise TableDamaged(damaged + "header check")
    return head


def check_ruleset(head, at, zoo, damaged):
    """The ruleset name at header byte ``at`` of either table (``Ruleset.name``, NUL
    padded), checked with bytes 6..8 as the writers write them: a joker rule of
    rules.JOKERS, a bonus flag 0/1, a threshold a state can hold, and a name they make
    (the Zoo card's; else the joker rule's, "-nobonus" without the bonus). TableDamaged
    otherwise, the message led by ``damaged``. (matches() checks the rest against the
    ruleset asked for: no Ruleset is made here.)"""
    name = bytes(head[at : at + NAME_SIZE])
    end = name.find(b"\x00")
    if end >= 0 and name[end:] != bytes(NAME_SIZE - end):
        raise TableDamaged(damaged + "ruleset name")
    name = name[:end] if end >= 0 else name
    joker = head[6]
    if joker >= len(rules.JOKERS) or head[7] > 1 or not 1 <= head[8] <= UPPER_CAP:
        raise TableDamaged(damaged + "rules fields")
    if name != (rules.ZOO if zoo else rules.JOKERS[joker] + ("" if head[7] else "-nobonus")).encode():
        raise TableDamaged(damaged + "ruleset name")
    return name.decode()


def check_rules(table, ruleset, jokers, damaged):
    """``matches`` of either table: True when ``table`` (its ruleset fields) was built for
    ``ruleset``; TableDamaged when it names ``ruleset`` but a field differs."""
    same = (
        jokers[table.joker_id] == ruleset.joker
        and table.yahtzee_bonus == (1 if ruleset.yahtzee_bonus else 0)
        and table.upper_threshold == ruleset.upper_threshold
        and table.upper_bonus == ruleset.upper_bonus
    )
    if table.ruleset_name != ruleset.name:
        return False
    if not same:
        raise TableDamaged(damaged + "rules fields not those of %s" % ruleset.name)
    return True


def _u16(buf, at):
    return buf[at] | (buf[at + 1] << 8)


def _u32(buf, at):
    return buf[at] | (buf[at + 1] << 8) | (buf[at + 2] << 16) | (buf[at + 3] << 24)


def block_number(mask, yz):
    """Block of (mask, yz): masks ascending, the y=1 block right after y=0."""
    rest = mask & 4095
    return mask + ((mask >> 12) << 11) + (rest - 2048 if rest > 2048 else 0) + yz


class StrategyTable:
    """One open table file. ``f`` is a binary file object with ``seek``/``readinto``.
    ValueError for a file that is no table of this format; ``TableDamaged`` (also a
    ValueError) for a damaged one."""

    def __init__(self, f, later=False):
        """``later``: the header is checked here, the rank rows and the empty card's value
        by ``parts`` (a generator, a part a ``next``: the app's frames); without it, all here."""
        self._f = f
        # The buffers that stay come first, and opening reuses them as its scratch: what
        # it frees then leaves no holes below them (the advisor next wants 4.6 KB blocks).
        self.count = bytearray(64)  # per upper mask: its reachable subtotals
        self.before = array("H", bytes(2 * 64))  # the states before it (< 4096)
        self._buf = bytearray(1)
        self._rank_row = bytearray(64)
        self._rank_upper = -1
        # One mask: up to 2 blocks of a base and 64 values of at most 16 bits (260 bytes),
        # a first byte shared with the mask before, and 2 bytes that a 3-byte read of the
        # last value may touch.
        self._block = bytearray(264)
        self._params = bytearray(8)  # compact: (base, step) of the mask's 1-2 blocks
        head = read_header(f, MAGIC, FORMAT_VERSION, 19, "strategy table", "damaged: ")
        self.variant = head[5]
        self.layout = head[11]
        if self.variant not in (EXACT, COMPACT) or self.layout not in (LAYOUT_VALUES, LAYOUT_ZOO):
            raise ValueError("unknown strategy table variant %d, layout %d" % (self.variant, self.layout))
        if self.layout == LAYOUT_VALUES:
            n_masks, n_blocks, lower_slots, self.n_boxes = N_MASKS, N_BLOCKS, _LOWER_SLOTS, 13
        else:  # 32 lower masks, none with the Yahtzee box (bit 11 never set)
            n_masks, n_blocks, lower_slots, self.n_boxes = ZOO_MASKS, ZOO_MASKS, 32, 11
        self.n_masks = n_masks
        if _u16(head, 16) != n_blocks:
            raise TableDamaged("damaged: %d blocks for layout %d" % (_u16(head, 16), self.layout))
        self.ruleset_name = check_ruleset(head, 36, self.layout == LAYOUT_ZOO, "damaged: ")
        self.joker_id = head[6]
        self.yahtzee_bonus = head[7]
        self.upper_threshold = head[8]
        self.upper_bonus = head[9]
        self._frac = head[10]
        if not MIN_FRAC <= self._frac <= MAX_FRAC:
            raise TableDamaged("damaged: value precision 2**-%d" % self._frac)
        self.n_states = _u32(head, 12)
        self._bits = head[18]  # bits per stored value - base (exact) or q (compact)
        if not (1 if self.variant == EXACT else MIN_COMPACT_BITS) <= self._bits <= MAX_BITS:
            raise TableDamaged("damaged: %d bits per value" % self._bits)
        # Both variants store a bit stream; the exact one starts each block with its base.
        self._head_bits = BASE_BITS if self.variant == EXACT else 0
        self._value_mask = (1 << self._bits) - 1
        self._values_at = _u32(head, 20)
        self._blocks_at = _u32(head, 24)
        self.expected_empty = _u32(head, 28)  # units of 2**-16 points
        size = _u32(head, 52)
        self._checks_at = _u32(head, 56)
        if f.seek(0, 2) != size:  # cut short or grown
            raise TableDamaged("damaged: size")
        # The writer's layout, in order: header, rank table, (compact) the blocks'
        # parameters, the bit stream, the checks; each offset is the one it makes.
        values_size = (self._head_bits * n_blocks + self._bits * self.n_states + 7) >> 3
        blocks_at = 0 if self.variant == EXACT else HEADER_SIZE + RANK_SIZE
        values_at = HEADER_SIZE + RANK_SIZE + (0 if self.variant == EXACT else 4 * n_blocks)
        if (
            self._blocks_at != blocks_at
            or self._values_at != values_at
            or self._checks_at != values_at + values_size
            or size != self._checks_at + n_masks + 64
        ):
            raise TableDamaged("damaged: offsets")
        self.parts = self._rows(lower_slots)
        if not later:
            for _ in self.parts:
                pass

    def _rows(self, lower_slots):
        """The rank rows' checks, _PART_ROWS a part, then the empty card's value; when it
        ends the table is checked (ready)."""
        f = self._f
        # Per upper mask: number of reachable subtotals and the running sum before it. The
        # rank table itself stays in the file (4 KB of RAM saved; one more 1-byte read).
        row = self._rank_row
        row_checks = self._block
        f.seek(self._checks_at + self.n_masks)
        f.readinto(row_checks)
        total = 0
        for part in range(0, 64, _PART_ROWS):
            for upper in range(part, part + _PART_ROWS):
                f.seek(HEADER_SIZE + upper * 64)
                f.readinto(row)
                if crc8(row, 0, 64, upper) != row_checks[upper]:
                    raise TableDamaged("damaged: rank row")
                # As the writer ranks them: 0, 1, 2 ... over the reachable subtotals, 0
                # always reachable (zeros in the filled boxes), none above the threshold.
                n = 0
                for up in range(64):
                    if row[up] != _UNREACHABLE:
                        if row[up] != n or up > self.upper_threshold:
                            raise TableDamaged("damaged: rank %d at subtotal %d" % (row[up], up))
                        n += 1
                    elif up == 0:
                        raise TableDamaged("damaged: rank row %d" % upper)
                self.count[upper] = n
                self.before[upper] = total
                total += n
            yield
        if total * lower_slots != self.n_states:
            raise TableDamaged("damaged: states")
        self._per_lower = total
        self._mask = -1  # the mask whose values are in _block, checked
        self._bit0 = 0  # bit of _block where the mask's first block starts
        self._value_bit = 0  # bit of _block where the loaded block's first value is
        self._base = 0  # the loaded block's base, units 2**-frac
        self._step = 0  # compact: the loaded block's step, units 2**-16 points
        # The header's figure is the empty card's value from the same solve, so a changed
        # precision decodes to another number: equal within the table's precision (one
        # unit: compact rounds its step up) and 2 units of 2**-16 (rounding, the shift).
        self.empty_value = self.value(0, 0, 0)  # the empty card's V (the advisor's card_value)
        off = (self.empty_value >> (FRAC - _COMPACT_STEP_FRAC)) - self.expected_empty
        limit = (1 << (_COMPACT_STEP_FRAC - self._frac)) + 2
        if off > limit or -off > limit:
            raise TableDamaged("damaged: the empty card's value")

    def matches(self, ruleset, jokers):
        """True when this table was built for ``ruleset`` (``jokers``: rules.JOKERS);
        TableDamaged when it names ``ruleset`` with other rules fields."""
        return self.n_boxes == ruleset.n_boxes and check_rules(self, ruleset, jokers, "damaged: ")

    def block_start(self, mask, yz):
        """Position of the first state of block (mask, yz) (its lowest subtotal)."""
        upper = mask & 63
        lower = mask >> 6
        rest = lower & 63
        before_lower = lower + ((lower >> 6) << 5) + (rest - 32 if rest > 32 else 0)
        factor = 2 if lower >> _YAHTZEE_LOWER_BIT & 1 else 1
        return before_lower * self._per_lower + factor * self.before[upper] + yz * self.count[upper]

    def load_block(self, mask, yz):
        """Read the values of block (mask, yz) into a buffer made once; ``block_value(up)``
        then decodes one. The whole mask is read (both blocks when the Yahtzee box is
        filled: they are contiguous) and checked against its CRC-8: TableDamaged."""
        upper = mask & 63
        if mask != self._mask:
            f = self._f
            if upper != self._rank_upper:
                f.seek(HEADER_SIZE + upper * 64)
                f.readinto(self._rank_row)
                self._rank_upper = upper
            self._mask = -1
            n = self.count[upper] << (mask >> _YAHTZEE_BIT & 1)  # states of the mask
            crc = mask & 0xFF
            if self.variant == COMPACT:
                # Whole buffer read (past the mask's blocks is harmless and allocates
                # nothing); the CRC covers only the mask's own (base, step) pairs.
                f.seek(self._blocks_at + 4 * block_number(mask, 0))
                f.readinto(self._params)
                crc = crc8(self._params, 0, 4 << (mask >> _YAHTZEE_BIT & 1), crc)
            # The bit stream holds, block by block, ``head_bits`` (exact: the 16-bit base;
            # compact: none) then each state's field in ``bits`` bits: block b's state i
            # (file order) is at bit head_bits * (b + 1) + bits * i, so the mask's bytes
            # are found without a table.
            bits = self._bits
            head_bits = self._head_bits
            start = head_bits * block_number(mask, 0) + bits * self.block_start(mask, 0)
            end = start + (head_bits << (mask >> _YAHTZEE_BIT & 1)) + bits * n
            self._bit0 = start & 7
            f.seek(self._values_at + (start >> 3))
            n = ((end + 7) >> 3) - (start >> 3)  # bytes, the shared first and last too
            block = self._block
            f.readinto(block)
            f.seek(self._checks_at + mask)
            f.readinto(self._buf)
            if crc8(block, 0, n, crc) != self._buf[0]:
                raise TableDamaged("damaged: mask %d" % mask)
            if self.variant == COMPACT:
                self._check_params(mask >> _YAHTZEE_BIT & 1)
            self._mask = mask
        at = self._bit0 + yz * (self._head_bits + self._bits * self.count[upper])
        if self.variant == EXACT:
            self._base = self._bits_at(at) & 0xFFFF
            at += BASE_BITS
        else:
            params = self._params
            p = yz << 2
            self._base = params[p] | (params[p + 1] << 8)
            self._step = params[p + 2] | (params[p + 3] << 8)
        self._value_bit = at

    def _check_params(self, last):
        """Compact: the (base, step) of the mask's blocks 0..``last`` as the writer makes
        them: a step of at least 1 and a largest value, base + levels * step, within what
        the header's precision holds (plus the round-up of the step), so every decoded
        value stays a small int."""
        params = self._params
        levels = self._value_mask
        shift = _COMPACT_STEP_FRAC - self._frac
        for p in range(0, 4 * last + 1, 4):
            base = params[p] | (params[p + 1] << 8)
            step = params[p + 2] | (params[p + 3] << 8)
            if step == 0 or step > (((65536 - base) << shift) + levels) // levels:
                raise TableDamaged("damaged: block parameters")

    def _bits_at(self, bit):
        """The 24 bits of _block from ``bit`` on (low bits first), a small int."""
        block = self._block
        i = bit >> 3
        return (block[i] | (block[i + 1] << 8) | (block[i + 2] << 16)) >> (bit & 7)

    def block_value(self, up):
        """Value at subtotal ``up`` of the block last loaded, units of 2**-FRAC points."""
        rank = self._rank_row[up]
        if rank == _UNREACHABLE:  # the callers ask for states a card can be in
            raise TableDamaged("damaged: upper subtotal %d unreachable" % up)
        bit = self._value_bit + self._bits * rank
        block = self._block
        i = bit >> 3
        value = ((block[i] | (block[i + 1] << 8) | (block[i + 2] << 16)) >> (bit & 7)) & self._value_mask
        if self.variant == EXACT:
            value += self._base
            if value > 0xFFFF:  # the writer's values are u16
                raise TableDamaged("damaged: value in mask %d" % self._mask)
            return value << (FRAC - self._frac)
        return (self._base << (FRAC - self._frac)) + ((value * self._step) << (FRAC - _COMPACT_STEP_FRAC))

    def index(self, mask, up, yz):
        """Position of state (mask, up, yz) among the stored states."""
        upper = mask & 63
        f = self._f
        f.seek(HEADER_SIZE + upper * 64 + up)
        f.readinto(self._buf)
        rank = self._buf[0]
        if rank == _UNREACHABLE:
            raise ValueError("unreachable state: upper subtotal %d with upper boxes %d" % (up, upper))
        return self.block_start(mask, yz) + rank

    def value(self, mask, up, yz):
        """V(mask, up, yz) in units of 2**-FRAC points (an int; no float anywhere)."""
        if mask >= self.n_masks - 1:
            return 0
        self.load_block(mask, yz)
        return self.block_value(up)
