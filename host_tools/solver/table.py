"""Writing and decoding strategy table files on the host (docs/strategy_table.md).

The device reader is firmware/strategy_table.py; this module writes what it reads and
decodes whole files back into the solver's dense value array (numpy), so decisions
made from a file can be evaluated against exact play.
"""

import io
import struct
import zlib

import numpy as np

import host_tools

host_tools.use_firmware()
import rules  # noqa: E402
import strategy_table as st  # noqa: E402

from host_tools.solver import core as solver_core  # noqa: E402

# The header's ranges are the reader's constants (strategy_table: MIN_FRAC .. MAX_FRAC,
# MIN_COMPACT_BITS .. MAX_BITS, ...): what this writer makes is what the device accepts.
EXACT_FRAC_MAX = st.MAX_FRAC  # u16 at 2**-8 points covers 0..255.99; coarser only if a value needs it
VARIANTS = {"exact": st.EXACT, "compact": st.COMPACT}
# Compact variant: bits per state's q. Chosen by measurement (docs/strategy_table.md): the
# smallest width whose decisions lose a negligible amount (< 0.02 points per game) and
# whose table leaves the Pico W room for the spread table and 100 KB of saves.
COMPACT_BITS = 6


def rank_table(reach):
    rank = bytearray([255]) * st.RANK_SIZE
    for upper, ups in enumerate(reach):
        for i, up in enumerate(ups):
            rank[upper * 64 + up] = i
    return rank


def ordered_states(space):
    """(mask, up, yz) arrays of every stored state in file order. A card of 11 boxes (the
    Zoo card) has the first 2048 masks, none with the yz bit: its file is the same layout's
    beginning, so the device reads it with the same index formula."""
    ms, us, ys = [], [], []
    for mask in range(space.n_masks):
        ups = space.reach[mask & 63]
        for yz in (0, 1) if space.yz_box >= 0 and mask >> space.yz_box & 1 else (0,):
            ms.append(np.full(len(ups), mask))
            us.append(np.array(ups))
            ys.append(np.full(len(ups), yz))
    return np.concatenate(ms), np.concatenate(us), np.concatenate(ys)


def block_numbers(m, y):
    """``strategy_table.block_number`` (the device's) over arrays of masks and yz flags."""
    return m + ((m >> 12) << 11) + np.maximum(0, (m & 4095) - 2048) + y


def layout_of(space):
    """Header byte 11 for a state space: 0 for the 13-box card, 1 for the Zoo's 11 boxes."""
    if space.n_masks == st.N_MASKS:
        return st.LAYOUT_VALUES
    if space.n_masks == st.ZOO_MASKS and space.yz_box < 0:
        return st.LAYOUT_ZOO
    raise ValueError("no table layout for a card of %d masks" % space.n_masks)


def _header(
    variant, ruleset, frac, n_states, n_blocks, layout, values_at, blocks_at, expected, crc, size, checks_at, bits
):
    name = ruleset.name.encode()
    if not 0 < len(name) <= st.NAME_SIZE or not all(0x21 <= c <= 0x7E for c in name):
        raise ValueError("ruleset name unfit for the table header: %r" % ruleset.name)
    if not st.MIN_FRAC <= frac <= st.MAX_FRAC:
        raise ValueError("values need 2**-%d points: outside the reader's %d..%d" % (frac, st.MIN_FRAC, st.MAX_FRAC))
    head = bytearray(
        struct.pack(
            "<4sBBBBBBBBIHBBIIII16sII",
            st.MAGIC,
            st.FORMAT_VERSION,
            variant,
            rules.JOKERS.index(ruleset.joker),
            1 if ruleset.yahtzee_bonus else 0,
            ruleset.upper_threshold,
            ruleset.upper_bonus,
            frac,
            layout,
            n_states,
            n_blocks,
            bits,
            0,
            values_at,
            blocks_at,
            int(round(expected * 65536)),
            crc,
            name,
            size,
            checks_at,
        )
    )
    head[19] = crc8(head[20:60], crc8(head[0:19]))  # the device's check of the header
    return bytes(head) + struct.pack("<I", zlib.crc32(head))


def crc8(data, crc=0):
    """``strategy_table.crc8`` over all of ``data`` (bytes), continuing from ``crc``."""
    table = st.CRC8
    for b in data:
        crc = table[crc ^ b]
    return crc


def _checks(rank, blocks, body, m, bits, n_masks, head_bits):
    """The check region: CRC-8 of each of the ``n_masks`` masks' bytes (compact: its
    blocks' parameters, then its values; both: the bytes its part of the bit stream
    touches - ``head_bits`` per block then ``bits`` per state - the first and last shared
    with its neighbours; seeded with the mask's low byte), then of each rank row (seeded
    with its upper mask)."""
    starts = np.searchsorted(m, np.arange(n_masks + 1))
    out = bytearray(n_masks + 64)
    for mask in range(n_masks):
        crc = mask & 0xFF
        if blocks:
            first = 4 * st.block_number(mask, 0)
            crc = crc8(blocks[first : first + (8 if mask >> 11 & 1 else 4)], crc)
        start = head_bits * st.block_number(mask, 0) + bits * int(starts[mask])
        end = head_bits * st.block_number(mask + 1, 0) + bits * int(starts[mask + 1])
        out[mask] = crc8(body[start >> 3 : (end + 7) >> 3], crc)
    for upper in range(64):
        out[n_masks + upper] = crc8(rank[upper * 64 : upper * 64 + 64], upper)
    return bytes(out)


def encode(dense, space, ruleset, variant, compact_bits=None):
    """The complete file bytes for ``dense`` values (solver_core layout); the compact
    variant stores each state's q in ``compact_bits`` bits (default ``COMPACT_BITS``)."""
    m, u, y = ordered_states(space)
    values = dense[solver_core.dense_index(m, u, y)]
    rank = bytes(rank_table(space.reach))
    top = float(values.max())
    frac = EXACT_FRAC_MAX
    while top * (1 << frac) >= 65535.5:
        frac -= 1
    values_at = st.HEADER_SIZE + st.RANK_SIZE
    n_blocks = n_blocks_of(space)
    bnum = block_numbers(m, y)
    if variant == "exact":
        body, bits = _packed(np.round(values * (1 << frac)).astype(np.int64), bnum, n_blocks)
        blocks, blocks_at = b"", 0
    else:
        bits = compact_bits if compact_bits is not None else COMPACT_BITS
        if not st.MIN_COMPACT_BITS <= bits <= st.MAX_BITS:
            raise ValueError("%d bits per state: the reader takes %d to %d" % (bits, st.MIN_COMPACT_BITS, st.MAX_BITS))
        q, blocks = _compact(values, bnum, frac, n_blocks, bits)
        body = _bit_stream(q, np.full(len(q), bits))
        blocks_at = values_at
        values_at = blocks_at + len(blocks)
    checks = _checks(rank, blocks, body, m, bits, space.n_masks, st.BASE_BITS if variant == "exact" else 0)
    payload = rank + blocks + body + checks
    size = st.HEADER_SIZE + len(payload)
    head = _header(
        VARIANTS[variant],
        ruleset,
        frac,
        len(values),
        n_blocks,
        layout_of(space),
        values_at,
        blocks_at,
        dense[0],
        zlib.crc32(payload),
        size,
        size - len(checks),
        bits,
    )
    return head + payload


def _bit_stream(fields, widths):
    """``fields`` (ints) packed one after another in ``widths`` bits each, low bit first:
    the bit stream both variants store their values in."""
    shifts = np.arange(st.MAX_BITS)
    stream = ((fields[:, None] >> shifts) & 1).astype(np.uint8)
    stream = stream[shifts[None, :] < widths[:, None]]  # row-major: field by field, low bit first
    return np.packbits(stream, bitorder="little").tobytes()


def _packed(fixed, bnum, n_blocks):
    """Exact values (ints, units 2**-frac; file order; ``bnum`` their blocks) as the bit
    stream the device reads: per block its minimum as a 16-bit base, then each value -
    base in the fewest bits that hold every block's largest difference (13 for the
    default rules), low bits first. Same values bit for bit; (bytes, bits)."""
    base = np.full(n_blocks, np.iinfo(np.int64).max)
    top = np.zeros(n_blocks, dtype=np.int64)
    np.minimum.at(base, bnum, fixed)
    np.maximum.at(top, bnum, fixed)
    if fixed.max() > 65535:
        raise ValueError("an exact value does not fit 16 bits")
    bits = max(1, int((top - base).max()).bit_length())
    if bits > st.MAX_BITS:
        raise ValueError("a block spans %d bits: more than the reader's %d" % (bits, st.MAX_BITS))
    # Field widths and contents, in stream order: base of block 0, its values, base of 1 ...
    first = np.searchsorted(bnum, np.arange(n_blocks))
    fields = np.insert(fixed - base[bnum], first, base)
    widths = np.insert(np.full(len(fixed), bits), first, st.BASE_BITS)
    return _bit_stream(fields, widths), bits


def n_blocks_of(space):
    """(mask, yz) blocks of a state space: 12,288 on the standard card, 2,048 on the Zoo's."""
    if space.yz_box < 0:
        return space.n_masks
    return space.n_masks + sum(1 for mask in range(space.n_masks) if mask >> space.yz_box & 1)


def verify(data):
    """Checks a whole table file on the host (header, size, offsets, the CRC-32 of
    everything after the header), then what the device's reader checks (every header
    field's range, the rank table, each mask's block: a file whose checksums were
    recomputed after a change fails there); ValueError naming the first damage found."""
    if len(data) < 4 or data[:4] != st.MAGIC:
        raise ValueError("not a strategy table (bad magic)")
    if len(data) < st.HEADER_SIZE:
        raise ValueError("strategy table damaged: cut in its header (%d bytes)" % len(data))
    if data[4] != st.FORMAT_VERSION:
        raise ValueError("strategy table format %d, expected %d (rebuild: make table)" % (data[4], st.FORMAT_VERSION))
    if zlib.crc32(data[:60]) != struct.unpack_from("<I", data, 60)[0]:
        raise ValueError("strategy table damaged: header checksum")
    if data[11] not in (st.LAYOUT_VALUES, st.LAYOUT_ZOO):
        raise ValueError("strategy table layout %d unknown" % data[11])
    size = struct.unpack_from("<I", data, 52)[0]
    if len(data) != size:
        raise ValueError("strategy table damaged: %d bytes, made with %d" % (len(data), size))
    if zlib.crc32(data[st.HEADER_SIZE :]) != struct.unpack_from("<I", data, 32)[0]:
        raise ValueError("strategy table damaged: contents checksum")
    try:
        table = st.StrategyTable(io.BytesIO(data))
        table.matches(rules.ruleset_from_name(table.ruleset_name), rules.JOKERS)  # the fields its name implies
        for mask in range(table.n_masks):  # every mask's check and ranges (0.25 s)
            for yz in (0, 1) if mask >> 11 & 1 else (0,):
                table.load_block(mask, yz)
    except st.TableDamaged as exc:  # "damaged: ..."
        raise ValueError("strategy table %s" % exc)
    if data[5] == st.EXACT:  # block_value's check of every value at once: u16, as written
        m, y = _file_states(table)
        if int(unpacked(data, m, y).max()) > 0xFFFF:
            raise ValueError("strategy table damaged: a value above 16 bits")


def _file_states(table):
    """(mask, yz) arrays of a file's states in file order, from its reader's rank counts."""
    masks = np.arange(table.n_masks)
    per_block = np.array(table.count, dtype=np.int64)[masks & 63]
    two = (masks >> 11) & 1
    block_mask = np.repeat(masks, 1 + two)
    block_yz = np.concatenate([[0, 1] if t else [0] for t in two]).astype(np.int64)
    n = per_block[block_mask]
    return np.repeat(block_mask, n), np.repeat(block_yz, n)


def _compact(values, bnum, frac, n_blocks, bits):
    """Per state a q of ``bits`` bits with value = base + q * step per (mask, yz) block
    (``bnum`` the states' blocks): (q array, per-block (base u16, step u16) bytes)."""
    levels = (1 << bits) - 1
    lo = np.full(n_blocks, np.inf)
    hi = np.full(n_blocks, -np.inf)
    np.minimum.at(lo, bnum, values)
    np.maximum.at(hi, bnum, values)
    if bnum.max() + 1 != n_blocks or len(np.unique(bnum)) != n_blocks:
        raise ValueError("block numbering does not cover the states")
    base_q = np.floor(lo * (1 << frac)).astype(np.int64)
    base = base_q / (1 << frac)
    step_q = np.ceil((hi - base) / levels * 65536).astype(np.int64)
    step_q = np.maximum(step_q, 1)
    if step_q.max() > 65535:
        raise ValueError("a block's values span too much for a compact table of %d bits" % bits)
    step = step_q / 65536
    q = np.clip(np.round((values - base[bnum]) / step[bnum]), 0, levels).astype(np.int64)
    params = np.empty((n_blocks, 2), dtype="<u2")
    params[:, 0] = base_q
    params[:, 1] = step_q
    return q, params.tobytes()


def unpacked(data, m, y):
    """A table's stored fields (ints, file order; ``m``, ``y`` the states' masks and yz
    flags) decoded from its bit stream as the device does: exact, the values in units of
    2**-frac; compact, each state's q."""
    bits, values_at = data[18], struct.unpack_from("<I", data, 20)[0]
    head_bits = st.BASE_BITS if data[5] == st.EXACT else 0
    bnum = block_numbers(m, y)
    stream = np.frombuffer(data, dtype=np.uint8, offset=values_at).astype(np.int64)

    def field(bit, width):
        i = bit >> 3
        word = stream[i] | (stream[i + 1] << 8) | (stream[i + 2] << 16)
        return (word >> (bit & 7)) & ((1 << width) - 1)

    stored = field(head_bits * (bnum + 1) + bits * np.arange(len(m)), bits)
    if not head_bits:
        return stored
    first = np.searchsorted(bnum, np.arange(bnum.max() + 1))  # each block's first state
    base = field(st.BASE_BITS * np.arange(len(first)) + bits * first, st.BASE_BITS)
    return base[bnum] + stored


def decode(data, space):
    """Dense value array (solver_core layout) of a table file's contents, as the device
    reads it (same integer arithmetic, converted to points at the end)."""
    verify(data)
    head = data[: st.HEADER_SIZE]
    frac = head[10]
    n_states, n_blocks = struct.unpack_from("<IH", head, 12)
    values_at, blocks_at = struct.unpack_from("<II", head, 20)
    m, u, y = ordered_states(space)
    if len(m) != n_states:
        raise ValueError("state count mismatch")
    if head[5] == st.EXACT:
        fixed = unpacked(data, m, y) << (st.FRAC - frac)
    else:
        q = unpacked(data, m, y)
        params = np.frombuffer(data, dtype="<u2", count=2 * n_blocks, offset=blocks_at).reshape(-1, 2).astype(np.int64)
        bnum = block_numbers(m, y)
        fixed = (params[bnum, 0] << (st.FRAC - frac)) + ((q * params[bnum, 1]) << (st.FRAC - 16))
    dense = np.zeros(solver_core.N_MASKS * solver_core.CAP * 2)
    dense[solver_core.dense_index(m, u, y)] = fixed / float(1 << st.FRAC)
    full = m == space.n_masks - 1
    dense[solver_core.dense_index(m[full], u[full], y[full])] = 0.0
    return dense
