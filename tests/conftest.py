"""Test setup: the one place that arranges ``sys.path`` for tests.

Tests import firmware modules the way the device does (``import rules``), host tools as
the ``host_tools`` package, what tests share as the ``helpers`` package (``tests/helpers``),
and the shared test cases in ``tests/shared`` (which also run inside real MicroPython,
see ``firmware/test_on_micropython.py``).
"""

import os
import sys

TESTS = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(TESTS)
SHARED = os.path.join(TESTS, "shared")

# tests/<group>/ (docs/development.md): on the path from the start, as pytest's prepend
# import mode adds each one as it collects it, so a name resolves the same whichever runs
# first. Helpers shared by test modules live in tests/helpers/ and tests/shared/.
_GROUPS = ("chip", "firmware", "host", "sim", "strategy", "web")
for _path in (REPO, TESTS, SHARED) + tuple(os.path.join(TESTS, group) for group in _GROUPS):
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
    otherwise solve them inside that test's timeout."""
    from host_tools import sim

    return sim.device_tables()


from helpers.chip_fixtures import chip_built, chip_flashed, chip_seeded  # noqa: E402,F401  (the chip tier's shared images)


# The tiers (make test-quick runs what is neither slow, chip nor browser) follow the layout
# (docs/development.md): tests/chip/ is the chip tier and tests/web/ the browser tier, by
# folder; a slow module (solving tables, whole games, hundreds of CLI runs or property
# searches) says so itself with ``pytestmark = pytest.mark.slow``.
_FOLDER_TIERS = {"chip": "chip", "web": "browser"}


def pytest_collection_modifyitems(items):
    for item in items:
        folder = os.path.relpath(str(item.path), TESTS).split(os.sep)[0]
        if folder not in _GROUPS and folder != "shared":
            raise pytest.UsageError("%s: not in a group folder of tests/ (_GROUPS, docs/development.md)" % item.path)
        if folder in _FOLDER_TIERS:
            item.add_marker(_FOLDER_TIERS[folder])


# make test's workers (pytest-xdist, --dist loadfile) take a module whole, so its module-
# scoped fixtures are made once, and the chip tier together (one flashed Pico a session);
# the tests named in _ALONE share no module fixture and go one by one. The longest units
# go first, so no long module starts last: the seconds are a --durations run's, on 2 workers.
_ALONE = {"test_solver": ("test_other_rulesets_reproduce_the_published_expected_scores",)}
_SECONDS = {
    "test_cli_bad_input": 365,
    "test_solver": 330,
    "test_busy_sim": 156,
    "test_resume_sim": 111,
    "test_uf2": 99,
    "test_win_meter": 97,
    "test_sim_storms": 89,
    "test_advise": 82,
    "test_table_crafted": 81,
    "test_on_micropython": 75,
    "test_other_rulesets_reproduce_the_published_expected_scores": 70,
    "test_sim_cli": 70,
    "test_storage": 65,
    "test_properties": 63,
}


def _work_unit(nodeid):
    path, _sep, test = nodeid.partition("::")
    module = os.path.splitext(os.path.basename(path))[0]
    if os.path.basename(os.path.dirname(path)) == "chip":
        return "chip"  # the chip tier's folder: one flashed Pico for all of it
    if test.partition("[")[0] in _ALONE.get(module, ()):
        return nodeid
    return path


def _unit_seconds(unit):
    path, _sep, test = unit.partition("::")
    return _SECONDS.get(test.partition("[")[0] or os.path.splitext(os.path.basename(path))[0], 0)


class _XdistHooks:
    """Registered only where pytest-xdist runs (``-p no:xdist`` leaves its hooks unknown)."""

    @staticmethod
    def pytest_xdist_make_scheduler(config, log):
        return _module_scheduling(config, log)


def pytest_configure(config):
    if config.pluginmanager.hasplugin("xdist"):
        config.pluginmanager.register(_XdistHooks(), "module-scheduling")


def _module_scheduling(config, log):
    if config.getvalue("dist") != "loadfile":
        return None  # xdist's own scheduler for the mode asked for
    from xdist.scheduler import LoadScopeScheduling

    class ModuleScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid):
            return _work_unit(nodeid)

        def _assign_work_unit(self, node):
            longest = max(self.workqueue, key=lambda unit: (_unit_seconds(unit), len(self.workqueue[unit])))
            self.workqueue.move_to_end(longest, last=False)
            super()._assign_work_unit(node)

    return ModuleScheduling(config, log)
