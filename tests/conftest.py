"""Test setup: the one place that arranges ``sys.path`` for tests.

Tests import firmware modules the way the device does (``import rules``), host tools as
the ``host_tools`` package, and the shared test cases in ``tests/shared`` (which also run
inside real MicroPython, see ``test_on_micropython.py``).
"""
import os
import sys

TESTS = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(TESTS)
SHARED = os.path.join(TESTS, "shared")

for _path in (REPO, SHARED):
    if _path not in sys.path:
        sys.path.insert(0, _path)

import host_tools  # noqa: E402

host_tools.use_firmware()


import pytest  # noqa: E402


@pytest.fixture(scope="session")
def device_tables():
    """The strategy table a simulated device needs for the default rules, as
    ``SimDevice(tables=...)`` takes it: ``{"strategy-forced.bin": path}``. Built once per
    source version by the solver (seconds) and cached in build/cache (solver_cache)."""
    import rules
    from host_tools.solver import cache as solver_cache

    return {"strategy-forced.bin": solver_cache.table(rules.make_ruleset(), "exact")}


@pytest.fixture(scope="session")
def sim_tables():
    """The tables ``python -m host_tools sim`` links into its flash folder
    (build/strategy-forced.bin, the spread and Zoo tables), made when missing, for the
    tests that run ``sim`` from this checkout: on a fresh clone the first run would
    otherwise solve them inside that test's timeout (issue 19 item 1)."""
    from host_tools import sim

    return sim.device_tables()


from chip_fixtures import chip_flashed, chip_seeded  # noqa: E402,F401  (the chip tier's shared images)
