"""Solved value arrays and table files cached under build/cache, keyed by the sources.

Tests and benchmarks need the same solved tables many times; solving takes seconds. A
cache entry's name carries a hash of every file the result depends on (rules.py, the
dice/table modules, the solver), so any change to them makes a fresh solve.
"""

import hashlib
import os

import numpy as np

import host_tools

host_tools.use_firmware()
from host_tools.solver import core as solver_core  # noqa: E402
from host_tools.solver import table as solver_table  # noqa: E402

CACHE = os.path.join(host_tools.REPO, "build", "cache")
_SOURCES = (
    "firmware/rules.py",
    "firmware/strategy_dice.py",
    "firmware/strategy_table.py",
    "firmware/strategy_spread.py",
    "host_tools/solver/core.py",
    "host_tools/solver/table.py",
    "host_tools/solver/spread.py",
)


def source_hash():
    digest = hashlib.sha256()
    for rel in _SOURCES:
        with open(os.path.join(host_tools.REPO, rel), "rb") as f:
            digest.update(f.read())
    return digest.hexdigest()[:16]


def _path(ruleset, suffix):
    return os.path.join(CACHE, "%s-%s%s" % (ruleset.name, source_hash(), suffix))


def store(ruleset, dense):
    _save(_path(ruleset, ".npy"), dense)


def _made(path, make):
    """``path``, made by ``make(path)`` when missing; a process that finds another making
    it waits for that one (host_tools.build_lock) instead of solving the same again."""
    if not os.path.exists(path):
        os.makedirs(CACHE, exist_ok=True)
        with host_tools.build_lock(path):
            if not os.path.exists(path):
                make(path)
    return path


def dense(ruleset):
    """Optimal values of every state (solver_core layout), solved once per source hash."""
    return np.load(_made(_path(ruleset, ".npy"), lambda path: _save(path, solver_core.solve(ruleset)[0])))


def table(ruleset, variant="exact"):
    """Path of a table file for ``ruleset`` built from the cached solve."""

    def make(path):
        _write(path, solver_table.encode(dense(ruleset), solver_core.StateSpace(ruleset), ruleset, variant))

    return _made(_path(ruleset, "-%s.bin" % variant), make)


def variance(ruleset):
    """Variance of the remaining score of every state under optimal play (spread.py)."""
    from host_tools.solver import spread

    return np.load(
        _made(_path(ruleset, "-var.npy"), lambda path: _save(path, spread.solve_spread(ruleset, V=dense(ruleset))[1]))
    )


def spread_table(ruleset, bands):
    """Path of a spread table file with ``bands`` upper-subtotal bands per block."""
    from host_tools.solver import spread

    return _made(
        _path(ruleset, "-spread%d.bin" % bands),
        lambda path: _write(path, spread.encode(variance(ruleset), ruleset, bands)),
    )


def _write(path, data):
    """One cache file, written as every output is (host_tools.write_file_atomic)."""
    os.makedirs(CACHE, exist_ok=True)
    host_tools.write_file_atomic(path, data)


def _save(path, array):
    import io

    buffer = io.BytesIO()
    np.save(buffer, array)
    _write(path, buffer.getvalue())
