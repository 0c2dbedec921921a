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
import time

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
    import multiprocessing
    import os

    workers = workers or min(2, os.cpu_count() or 1)
    tables = core.Tables(ruleset, workers)
    space = core.StateSpace(ruleset)
    kernel = core.TurnKernel(tables)
    S, buf = core._shared_array(core.N_MASKS * core.CAP * 2)
    S[:] = V  # a full card: V = 0, Var = 0
    _shared.update(kernel=kernel, space=space, V=np.asarray(V, dtype=np.float64), S=S)
    pool = multiprocessing.get_context("fork").Pool(workers) if workers > 1 else None
    try:
        for level in range(ruleset.n_boxes - 1, -1, -1):
            n = len(space.level_arrays[level][0])
            jobs = [(lo, min(n, lo + core.CHUNK), level) for lo in range(0, n, core.CHUNK)]
            if pool is None:
                for job in jobs:
                    _work(job)
            else:
                pool.map(_work, jobs, chunksize=4)
            if progress:
                progress("spread level %2d: %6d states  %.2f s" % (level, n, time.time() - t0))
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    var = np.array(S) - V
    _shared.clear()
    del S
    buf.close()
    return np.asarray(V), np.maximum(var, 0.0)


# -- the device's spread table (docs/strategy_table.md, "Spread table") ----------------
def encode(var, ruleset, bands, unit=2):
    """File bytes of the spread table: per (mask, yz) block and upper-subtotal band
    (band = up * bands // 64) the root mean variance of its reachable states, one byte
    in units of 1/unit point (rounded, at most 255). The 13-box cards only (the device's
    win meter reads 13-box masks and the 63-point subtotal): ValueError for the Zoo card."""
    import struct
    import zlib

    import rules
    import strategy_table as st

    from host_tools.solver import table as solver_table

    if ruleset.n_boxes != rules.N_BOXES or ruleset.upper_threshold != 63:
        raise ValueError("the spread table is for the 13-box cards, not %s" % ruleset.name)

    space = core.StateSpace()
    m, u, y = solver_table.ordered_states(space)
    v = var[core.dense_index(m, u, y)]
    cell = solver_table.block_numbers(m, y) * bands + (u * bands >> 6)
    total = np.zeros(st.N_BLOCKS * bands)
    count = np.zeros(st.N_BLOCKS * bands)
    np.add.at(total, cell, v)
    np.add.at(count, cell, 1)
    sd = np.sqrt(total / np.maximum(count, 1))
    if np.round(sd * unit).max() > 255:
        raise ValueError("an sd above %.1f points: use a coarser unit" % (255 / unit))
    data = np.round(sd * unit).astype(np.uint8).tobytes()
    name = ruleset.name.encode()
    head = struct.pack("<4sBBBBBBBBIII", b"YZSD", 1, bands, rules.JOKERS.index(ruleset.joker),
                       1 if ruleset.yahtzee_bonus else 0, ruleset.upper_threshold, ruleset.upper_bonus,
                       unit, 0, st.N_BLOCKS, 64, int(round(np.sqrt(var[0]) * 65536)))
    head += struct.pack("<I16s", zlib.crc32(data), name)
    head += bytes(60 - len(head))
    return head + struct.pack("<I", zlib.crc32(head)) + data


def decode_sixteenths(data):
    """Dense int64 sd array (core.dense_index layout) in sixteenths of a point, by the
    device's arithmetic (spread_table.SpreadTable.block_sd)."""
    import struct

    from host_tools.solver import table as solver_table

    bands, unit = data[5], data[10]
    (data_at,) = struct.unpack_from("<I", data, 16)
    raw = np.frombuffer(data, dtype=np.uint8, offset=data_at).astype(np.int64)
    m, u, y = solver_table.ordered_states(core.StateSpace())
    stored = raw[solver_table.block_numbers(m, y) * bands + (u * bands >> 6)]
    dense = np.zeros(core.N_MASKS * core.CAP * 2, dtype=np.int64)
    dense[core.dense_index(m, u, y)] = ((stored << 4) + (unit >> 1)) // unit
    full = m == core.N_MASKS - 1
    dense[core.dense_index(m[full], u[full], y[full])] = 0
    return dense
