"""Spread of the remaining score under the optimal expected-score policy (host, numpy).

For every turn-start state the solver (core.py) gives V = E[R], R = the points still to
come under optimal play. This module gives Var[R] by an exact recursion over the same
states, no sampling. Within a turn the policy is the optimal one (every choice maximises
the same V-based values as core.TurnKernel); alongside those values it carries the second
moment of (points of this turn + R of the next state):

    a box choice with turn points g and next state s':  E[(g + R')^2] = (g + V')^2 + Var'
    a reroll: the average over the dice of the second moments (it is linear)
    a hold or box choice: the second moment of the option the V-values pick

so Var(state) = E[(G + R')^2] - V(state)^2. The kernel's ``_final_roll`` already carries
a second value array next to the guide; fed P = V + Var it returns (g + V' + Var'), from
which (g + V')^2 + Var' follows. Ties between options are broken as the kernel breaks
them (first best), which is also how the device's advisor breaks them.
"""

import io
import struct
import time
import zlib

import numpy as np

from host_tools.solver import core

import strategy_dice  # noqa: E402  (firmware module; core put firmware/ on the path)

_shared = {}


def _moments(kernel, m, u, y, V, S):
    """(E[R], E[R^2]) of states (m, u, y) from V (optimal values) and S = V + Var of
    every later state."""
    n = len(m)
    K = np.empty((strategy_dice.N_KEEPS, n))
    T = np.empty((strategy_dice.N_KEEPS, n))
    kernel._final_roll(m, u, y, K, V, T, S)
    first = strategy_dice.FIRST_ROLL
    rolls, second = K[first:], T[first:]
    second -= rolls  # Var' of the chosen successor
    second += rolls * rolls
    for _stage in range(2):
        kernel._expect(K)
        kernel._expect(T)
        kernel._subset_max(K, T)
    prob = kernel.t.roll_prob
    return prob @ K[first:], prob @ T[first:]


def _work(job):
    lo, hi, level = job
    kernel, space, V, S = _shared["kernel"], _shared["space"], _shared["V"], _shared["S"]
    m, u, y = (a[lo:hi] for a in space.level_arrays[level])
    mean, second = _moments(kernel, m, u, y, V, S)
    at = core.dense_index(m, u, y)
    S[at] = V[at] + np.maximum(0.0, second - mean * mean)
    return hi - lo


def solve_spread(ruleset, V=None, workers=None, progress=None):
    """(dense V, dense Var) over every reachable state (core.dense_index layout); V is
    solved first unless given (optimal values of ``ruleset``)."""
    t0 = time.time()
    if V is None:
        V, _t, _s = core.solve(ruleset, workers=workers, progress=progress)
    import os

    workers = workers or min(2, os.cpu_count() or 1)
    tables = core.Tables(ruleset, workers)
    space = core.StateSpace(ruleset)
    kernel = core.TurnKernel(tables)
    S, buf = core._shared_array(core.N_MASKS * core.CAP * 2)
    S[:] = V  # a full card: V = 0, Var = 0
    _shared.update(kernel=kernel, space=space, V=np.asarray(V, dtype=np.float64), S=S)
    core.by_level(ruleset, space, _work, workers, progress, "spread level", t0)
    var = np.array(S) - V
    _shared.clear()
    del S
    buf.close()
    return np.asarray(V), np.maximum(var, 0.0)


# -- the device's spread table (docs/strategy_table.md, "Spread table") ----------------
def encode(var, ruleset, bands):
    """File bytes of the spread table: per (mask, yz) block and upper-subtotal band
    (band = up * bands // 64) the root mean variance of its reachable states, one byte
    in units of 1/strategy_spread.UNIT point (rounded, at most strategy_spread.MAX_SD_BYTE:
    the reader's ranges are its constants). The 13-box cards only (the device's win
    meter reads 13-box masks and the 63-point subtotal): ValueError for the Zoo card."""
    import rules
    import strategy_spread as sp
    import strategy_table as st

    from host_tools.solver import table as solver_table

    if ruleset.n_boxes != rules.N_BOXES or ruleset.upper_threshold != st.UPPER_CAP:
        raise ValueError("the spread table is for the 13-box cards, not %s" % ruleset.name)
    if not 1 <= bands <= sp.MAX_BANDS:
        raise ValueError("%d bands: the reader takes 1 to %d" % (bands, sp.MAX_BANDS))
    unit = sp.UNIT

    space = core.StateSpace()
    m, u, y = solver_table.ordered_states(space)
    v = var[core.dense_index(m, u, y)]
    cell = solver_table.block_numbers(m, y) * bands + (u * bands >> 6)
    total = np.zeros(st.N_BLOCKS * bands)
    count = np.zeros(st.N_BLOCKS * bands)
    np.add.at(total, cell, v)
    np.add.at(count, cell, 1)
    sd = np.sqrt(total / np.maximum(count, 1))
    if np.round(sd * unit).max() > sp.MAX_SD_BYTE:
        raise ValueError("an sd above %.1f points: the format holds no more" % (sp.MAX_SD_BYTE / unit))
    raw = np.round(sd * unit).astype(np.uint8).reshape(st.N_BLOCKS, bands)
    data = b"".join(_groups(raw.tobytes(), bands))
    name = ruleset.name.encode()
    head = bytearray(
        struct.pack(
            "<4sBBBBBBBBIII",
            b"YZSD",
            sp.FORMAT_VERSION,
            bands,
            rules.JOKERS.index(ruleset.joker),
            1 if ruleset.yahtzee_bonus else 0,
            ruleset.upper_threshold,
            ruleset.upper_bonus,
            unit,
            0,
            st.N_BLOCKS,
            sp.HEADER_SIZE,
            int(round(np.sqrt(var[0]) * 65536)),
        )
    )
    head += struct.pack("<I16sII", zlib.crc32(data), name, sp.HEADER_SIZE + len(data), sp.N_GROUPS)
    head += bytes(60 - len(head))
    head[11] = st.crc8(head, 12, 60, st.crc8(head, 0, 11, 0))
    head = bytes(head)
    return head + struct.pack("<I", zlib.crc32(head)) + data


def _groups(blocks, bands):
    """The data part: per group of 8 masks its CRC-8 (seeded with the group number's low
    byte) and then its blocks (strategy_spread.SpreadTable.load_block)."""
    import strategy_spread as sp
    import strategy_table as st

    for group in range(sp.N_GROUPS):
        part = blocks[sp.group_start(group) * bands : sp.group_start(group + 1) * bands]
        yield bytes((st.crc8(part, 0, len(part), group & 0xFF),)) + part


def _block_bytes(data):
    """(bands, unit, the blocks' bytes without the groups' CRC-8s) of a spread file."""
    import strategy_spread as sp

    bands, unit = data[5], data[10]
    (data_at,) = struct.unpack_from("<I", data, 16)
    out = bytearray()
    at = data_at
    for group in range(sp.N_GROUPS):
        n = (sp.group_start(group + 1) - sp.group_start(group)) * bands
        out += data[at + 1 : at + 1 + n]
        at += 1 + n
    return bands, unit, bytes(out)


def verify(data):
    """Checks a whole spread file on the host (magic, version, header CRC-32, size, the
    CRC-32 of the data), then what the device's reader checks (a file whose checksums
    were recomputed after a change fails there); ValueError naming the first damage."""
    import strategy_spread as sp

    if len(data) < 4 or data[:4] != sp.MAGIC:
        raise ValueError("not a spread table (bad magic)")
    if len(data) < sp.HEADER_SIZE:
        raise ValueError("spread table damaged: cut in its header (%d bytes)" % len(data))
    if data[4] != sp.FORMAT_VERSION:
        raise ValueError("spread table format %d, expected %d (rebuild: make table)" % (data[4], sp.FORMAT_VERSION))
    if zlib.crc32(data[:60]) != struct.unpack_from("<I", data, 60)[0]:
        raise ValueError("spread table damaged: header checksum")
    size = struct.unpack_from("<I", data, 44)[0]
    if len(data) != size:
        raise ValueError("spread table damaged: %d bytes, made with %d" % (len(data), size))
    if zlib.crc32(data[sp.HEADER_SIZE :]) != struct.unpack_from("<I", data, 24)[0]:
        raise ValueError("spread table damaged: contents checksum")
    import rules

    table = sp.SpreadTable(io.BytesIO(data))  # the device's checks: every field's range, ...
    table.matches(rules.ruleset_from_name(table.ruleset_name), rules.JOKERS)  # ... the fields its name implies
    if max(_block_bytes(data)[2]) > sp.MAX_SD_BYTE:  # ... and, at each read, the bytes'
        raise ValueError("spread table damaged: an sd byte above %d" % sp.MAX_SD_BYTE)


def decode_sixteenths(data):
    """Dense int64 sd array (core.dense_index layout) in sixteenths of a point, by the
    device's arithmetic (strategy_spread.SpreadTable.block_sd)."""
    from host_tools.solver import table as solver_table

    bands, unit, blocks = _block_bytes(data)
    raw = np.frombuffer(blocks, dtype=np.uint8).astype(np.int64)
    m, u, y = solver_table.ordered_states(core.StateSpace())
    stored = raw[solver_table.block_numbers(m, y) * bands + (u * bands >> 6)]
    dense = np.zeros(core.N_MASKS * core.CAP * 2, dtype=np.int64)
    dense[core.dense_index(m, u, y)] = ((stored << 4) + (unit >> 1)) // unit
    full = m == core.N_MASKS - 1
    dense[core.dense_index(m[full], u[full], y[full])] = 0
    return dense
