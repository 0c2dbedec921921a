"""The table files the host tools keep in build/: their paths, built when missing or of
an older format (``ensure_table``, ``ensure_spread``), and an Advisor opened on one with
the whole file checked first; ``build`` solves a ruleset into a table's bytes and
``write_atomic`` writes one. Shared by the ``solve``, ``advise`` and ``sim`` commands, the
simulator, ``flashing.bundle`` and the benchmarks."""

import os
import sys

import host_tools

host_tools.use_firmware()
import strategy_advisor as A  # noqa: E402
import strategy_table  # noqa: E402

from host_tools.solver import core as solver_core  # noqa: E402
from host_tools.solver import table as solver_table  # noqa: E402

BUILD = os.path.join(host_tools.REPO, "build")
MAX_TABLE = 4 << 20  # the exact table is about 1 MB
SPREAD_BANDS = 4  # upper-subtotal bands per block: chosen by docs/win_meter.md


def table_path(ruleset, folder=BUILD):
    return os.path.join(folder, "strategy-%s.bin" % ruleset.name)


def ensure_table(ruleset, folder=BUILD, quiet=False, prog="advise"):
    """Path of the exact table for ``ruleset``, building it (seconds) if missing; the
    note says so under the name of the command the user ran (``prog``)."""
    path = table_path(ruleset, folder)
    stale = lambda: not os.path.exists(path) or older_format(path) or not _exact(path)
    if stale():
        with host_tools.build_lock(path):  # another process may be building it: wait, look again
            if stale():
                if not quiet:
                    print("%s: building %s (once; cached) ..." % (prog, path), file=sys.stderr, flush=True)
                data, _expected, _loss = build(ruleset, "exact")
                write_atomic(path, data)
    return path


def older_format(path, magic=strategy_table.MAGIC, version=strategy_table.FORMAT_VERSION):
    """True for a table an earlier version of the solver built (a build product to
    redo, not damage): the right magic with a lower format version."""
    with open(path, "rb") as f:
        head = f.read(5)
    return len(head) == 5 and head[:4] == magic and head[4] < version


def _exact(path):
    """False for a compact table where the exact one belongs (an older ``uf2 --compact``
    wrote it there): advise, sim and flash would give the compact table's figures."""
    with open(path, "rb") as f:
        head = f.read(6)
    return len(head) < 6 or head[:4] != strategy_table.MAGIC or head[5] == strategy_table.EXACT


def open_advisor(ruleset, path):
    """An Advisor on the table at ``path`` (the caller closes ``advisor.table_file``).
    The whole file is checked first (solver.table.verify: size, header, the CRC-32 of its
    contents): ValueError for a damaged table, never a wrong figure from it."""
    from host_tools.solver import table as solver_table

    with open(path, "rb") as f:
        data = f.read(MAX_TABLE + 1)  # bounded: --table may name /dev/zero
    if len(data) > MAX_TABLE:
        raise ValueError("not a strategy table (over %d bytes)" % MAX_TABLE)
    solver_table.verify(data)
    f = open(path, "rb")
    try:
        adv = A.Advisor(ruleset, strategy_table.StrategyTable(f))
    except Exception:
        f.close()
        raise
    adv.table_file = f
    return adv


def spread_path(ruleset, folder=BUILD):
    return os.path.join(folder, "spread-%s.bin" % ruleset.name)


def ensure_spread(ruleset, folder=BUILD, quiet=False, prog="advise"):
    """Path of the spread table for ``ruleset``, building it (seconds) if missing or of
    an older format."""
    import strategy_spread

    path = spread_path(ruleset, folder)
    stale = lambda: (
        not os.path.exists(path) or older_format(path, strategy_spread.MAGIC, strategy_spread.FORMAT_VERSION)
    )
    if stale():
        from host_tools.solver import cache as solver_cache
        from host_tools.solver import spread as solver_spread

        with host_tools.build_lock(path):
            if stale():
                if not quiet:
                    print("%s: building %s (once; cached) ..." % (prog, path), file=sys.stderr, flush=True)
                var = solver_cache.variance(ruleset)
                write_atomic(path, solver_spread.encode(var, ruleset, SPREAD_BANDS))
    return path


def build(ruleset, variant="exact", progress=None, measure_loss=None, keep=None, bits=None):
    """Solve ``ruleset`` and return (file bytes, expected score, loss or None); the
    solved value array goes into ``keep["dense"]`` when a dict is given; ``bits``: the
    compact table's bits per state (None: solver_table.COMPACT_BITS)."""
    dense, _tables, space = solver_core.solve(ruleset, progress=progress)
    if keep is not None:
        keep["dense"] = dense
    data = solver_table.encode(dense, space, ruleset, variant, compact_bits=bits)
    loss = None
    if measure_loss if measure_loss is not None else variant == "compact":
        guide = solver_table.decode(data, space)
        if progress:
            progress("evaluating the table's decisions against exact play ...")
        played, _t, _s = solver_core.solve(ruleset, guide=guide)
        loss = dense[0] - played[0]
    return data, dense[0], loss


def write_atomic(path, data):
    """Write ``data`` as ``path`` (host_tools.write_file_atomic), making its folder first:
    for the tables the tools keep in build/ (``--out`` itself is checked before the solve)."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    host_tools.write_file_atomic(path, data)
